// Tumble physics: the wide joint path: hinge and ball joints solved in SIMD lanes, one joint per
// lane, eight joints of one colour to a group (joint_wide.c).
// SPDX-License-Identifier: MIT
#pragma once

#include "solver.h"

#include <stdint.h>

typedef struct tbJoint tbJoint;

typedef enum tbWideJointStage
{
	tbWideJointStage_refresh,
	tbWideJointStage_warmStart,
	tbWideJointStage_refreshWarmStart, ///< both, group by group (one pass over the data)
	tbWideJointStage_solve,
} tbWideJointStage;

/// The joint's kind for the lanes (which rows it has, or that the lanes do not take it), once its
/// sides are prepared.
uint8_t tbWideJointKind( const tbJoint* joint );
/// Once the joints are coloured, with kinds[i] the tbWideJointKind of ctx->jointIds[i]: moves the
/// joints the lanes take to the front of their colour, by kind (ctx->jointScalarStarts marks where
/// the rest begin), and counts the lane groups. False when the step's arena is out of memory (the
/// joints are then as they were).
bool tbSortWideJoints( tbStepContext* ctx, const uint8_t* kinds );
/// After the joints' prepare: packs the lanes' joints into ctx->jointLanes and builds their rows
/// for the first sub-step. False when the step's arena is out of memory.
bool tbPackWideJoints( tbStepContext* ctx );
/// One stage over the lane groups of a colour (soft and measure are for the solve stage: measure
/// takes the pose again first, after a position update).
void tbRunWideJoints( tbStepContext* ctx, int color, tbWideJointStage stage, tbSoftness soft, bool measure );
/// Accumulated impulses and the last rows back into the joint records (before tbFinalizeJoints
/// reads the reactions).
void tbUnpackWideJoints( tbStepContext* ctx );
