// Tumble physics: fixed (weld) joint.
//
// The point constraint (ball_joint.c) plus a full rotation lock (004 sec. 3.7.5: the fixed joint as
// ball-and-socket plus the slider's rotation rows). With qRel = conj(qA) qB relative to the rest
// pose (the frames coincide at rest), the error is frame B's rotation from frame A as a world
// rotation vector (tbRotationLockError) and the rows are the world axes, Cdot = wB - wA, solved as
// one 3x3 block with K = IA^-1 + IB^-1. The book's quaternion rows (000 ch. 16) lose rank near a
// half turn (joint.c, tbRotationLockError).
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "core.h"
#include "world.h"

tbFixedJointDef tbDefaultFixedJointDef( void )
{
	tbFixedJointDef def;
	def.base = tbMakeDefaultJointDef();
	return def;
}

tbJointId tbCreateFixedJoint( tbWorldId worldId, const tbFixedJointDef* def, tbResult* result )
{
	if ( def == NULL )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_fixed, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	return tbMakeJointId( world, joint );
}

static void tbPrepareFixed( tbStepContext* ctx, tbJoint* joint )
{
	TB_UNUSED( ctx );
	TB_UNUSED( joint );
}

// The rows' Jacobians and masses for the sub-step (joint.h, prepared rows).
static void tbRefreshFixed( tbStepContext* ctx, tbJoint* joint, const tbJointPose* p )
{
	TB_UNUSED( ctx );
	tbFixedJointData* f = &joint->fixed;
	tbPreparePoint( joint );
	f->block.n = 3;
	TB_UNUSED( p );
	f->block.axes[0] = tbMakeVec3( 1.0f, 0.0f, 0.0f );
	f->block.axes[1] = tbMakeVec3( 0.0f, 1.0f, 0.0f );
	f->block.axes[2] = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	tbPrepareAngularBlock( joint, &f->block );
}

static tbVec3 tbFixedAngularImpulse( const tbFixedJointData* f )
{
	float impulse[3] = { f->angularImpulse.x, f->angularImpulse.y, f->angularImpulse.z };
	return tbAngularBlockImpulse( &f->block, impulse );
}

static void tbWarmStartFixed( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbFixedJointData* f = &joint->fixed;
	tbApplyAngularImpulse( m, tbFixedAngularImpulse( f ) );
	tbApplyPreparedPointImpulse( m, joint, f->linearImpulse );
}

static void tbSolveFixed( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	tbFixedJointData* f = &joint->fixed;
	const tbJointPose* p = &joint->pose;
	tbSoftness soft = tbJointSoftness( ctx, useBias );
	tbVec3 lock = tbRotationLockError( p );
	float C[3] = { lock.x, lock.y, lock.z };
	float impulse[3] = { f->angularImpulse.x, f->angularImpulse.y, f->angularImpulse.z };
	tbSolvePreparedAngularBlock( m, &f->block, C, soft, impulse );
	f->angularImpulse = tbMakeVec3( impulse[0], impulse[1], impulse[2] );
	tbSolvePoint( m, joint, p->d, soft, &f->linearImpulse );
}

static void tbScaleFixed( tbJoint* joint, float scale )
{
	joint->fixed.linearImpulse = tbMulSV( scale, joint->fixed.linearImpulse );
	joint->fixed.angularImpulse = tbMulSV( scale, joint->fixed.angularImpulse );
}

static void tbReactionFixed( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	*linear = joint->fixed.linearImpulse;
	*angular = tbFixedAngularImpulse( &joint->fixed );
}

static void tbErrorFixed( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	TB_UNUSED( joint );
	*linear = tbLength( p->d );
	*angular = tbQuatAngle( p->qRel );
}

const tbJointClass tb_fixedJointClass = {
	tbPrepareFixed, tbWarmStartFixed, tbSolveFixed, tbScaleFixed, tbReactionFixed, tbErrorFixed, tbRefreshFixed, "fixed",
};
