// Tumble physics: the wide contact path: contact constraints solved in SIMD lanes, one manifold
// per lane, eight constraints of one colour to a group (contact_wide.c).
// SPDX-License-Identifier: MIT
#pragma once

#include "solver.h"

/// After the contacts' prepare and colouring: packs each colour's constraints into lane groups
/// (ctx->contactLanes, ctx->contactLaneStarts). False when the step's arena cannot hold them.
bool tbPackWideContacts( tbStepContext* ctx );
/// The warm start, or one velocity pass, over the lane groups of one colour.
void tbRunWideContacts( tbStepContext* ctx, int color, bool warmStart, bool useBias, bool reverse );
/// The lanes' accumulated impulses back to ctx->contacts (restitution, the events and the next
/// step's warm start read them there).
void tbUnpackWideContacts( tbStepContext* ctx );
