// Tumble physics: vehicle storage (a pool in the world) and the step's vehicle update.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/vehicle.h"

typedef struct tbWorld tbWorld;

/// A vehicle: its settings, its wheels' settings and states inline (no allocation per wheel), and
/// the driver's input.
typedef struct tbVehicle
{
	int id; ///< own index, -1 when the slot is free
	int nextFree;
	uint16_t generation;
	tbBodyId chassis;
	tbVec3 forward, up; ///< chassis frame
	float maxEngineTorque;
	float maxSpeed;
	tbQueryFilter filter;
	int wheelCount;
	int antiRollBarCount;
	tbWheelDef wheels[TB_MAX_VEHICLE_WHEELS];
	tbWheelState states[TB_MAX_VEHICLE_WHEELS];
	tbAntiRollBarDef antiRollBars[TB_MAX_ANTI_ROLL_BARS];
	float throttle, steer, brake, handbrake;
} tbVehicle;

/// Cast the wheels of every vehicle with an awake chassis and give the chassis (and the dynamic
/// bodies under the wheels) this step's suspension and tyre impulses. Called at the start of the
/// step, before the solver integrates gravity and solves contacts.
void tbUpdateVehicles( tbWorld* world, float dt );
