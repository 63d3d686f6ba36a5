// Tumble physics: islands for sleeping. Islands are rebuilt each step with union-find over the
// awake bodies linked by touching contacts and joints; an island sleeps when every body in it
// has been slow for long enough.
// SPDX-License-Identifier: MIT
#pragma once

typedef struct tbWorld tbWorld;

/// Seconds a body must stay below its sleep threshold before its island may sleep.
#define TB_TIME_TO_SLEEP 0.5f

void tbUpdateSleep( tbWorld* world, float timeStep );
void tbWakeAllBodies( tbWorld* world );
