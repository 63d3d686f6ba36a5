// Tumble physics: ball-and-socket joint.
//
// Three rows keep the anchors together: C = pB - pA = (xB + rB) - (xA + rA) (004 sec. 3.7.2; the
// book's rigid distance constraint of zero length, 000 ch. 8, does the same with one row on
// |pB - pA|^2). Cdot = vB + wB x rB - vA - wA x rA, so J = (-E, [rA]x, E, -[rB]x) and the rows are
// solved together as one 3x3 block with K = (mA + mB) E - [rA] IA^-1 [rA] - [rB] IB^-1 [rB].
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "core.h"
#include "world.h"

tbBallJointDef tbDefaultBallJointDef( void )
{
	tbBallJointDef def;
	def.base = tbMakeDefaultJointDef();
	return def;
}

tbJointId tbCreateBallJoint( tbWorldId worldId, const tbBallJointDef* def, tbResult* result )
{
	if ( def == NULL )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_ball, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	return tbMakeJointId( world, joint );
}

static void tbPrepareBall( tbStepContext* ctx, tbJoint* joint )
{
	TB_UNUSED( ctx );
	TB_UNUSED( joint );
}

// The block's effective mass for the sub-step (joint.h, prepared rows).
static void tbRefreshBall( tbStepContext* ctx, tbJoint* joint, const tbJointPose* p )
{
	TB_UNUSED( ctx );
	TB_UNUSED( p );
	tbPreparePoint( joint );
}

static void tbWarmStartBall( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbApplyPreparedPointImpulse( m, joint, joint->ball.linearImpulse );
}

static void tbSolveBall( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	const tbJointPose* p = &joint->pose;
	tbSolvePoint( m, joint, p->d, tbJointSoftness( ctx, useBias ), &joint->ball.linearImpulse );
}

static void tbScaleBall( tbJoint* joint, float scale )
{
	joint->ball.linearImpulse = tbMulSV( scale, joint->ball.linearImpulse );
}

static void tbReactionBall( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	*linear = joint->ball.linearImpulse;
	*angular = tb_vec3_zero;
}

static void tbErrorBall( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	TB_UNUSED( joint );
	*linear = tbLength( p->d );
	*angular = 0.0f;
}

const tbJointClass tb_ballJointClass = {
	tbPrepareBall, tbWarmStartBall, tbSolveBall, tbScaleBall, tbReactionBall, tbErrorBall, tbRefreshBall, "ball",
};
