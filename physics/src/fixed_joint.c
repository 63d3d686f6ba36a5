// Tumble physics: fixed (weld) joint.
//
// The point constraint (ball_joint.c) plus the quaternion orientation lock of 000 ch. 16: with
// qRel = conj(qA) qB relative to the rest pose (the frames coincide at rest), C = P qRel =
// (qRel.x, qRel.y, qRel.z) = 0, the book's P (q_r q_0*) in the joint frame. Each component has
// Cdot_i = a_i . (wB - wA) (tbQuatRowAxis), J = (0, -a_i, 0, a_i); the three rows are solved as one
// 3x3 block (004 sec. 3.5, 3.7.5: the fixed joint as ball-and-socket plus the slider's rotation
// rows). Near rest a_i = 1/2 x_i, so the block is 1/4 (IA^-1 + IB^-1) in frame axes.
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
	for ( int i = 0; i < 3; ++i )
	{
		f->block.axes[i] = tbQuatRowAxis( p, i );
	}
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
	tbVec3 lock = tbQuatLockError( p->qRel );
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
	tbPrepareFixed, tbWarmStartFixed, tbSolveFixed, tbScaleFixed, tbReactionFixed, tbErrorFixed, tbRefreshFixed,
};
