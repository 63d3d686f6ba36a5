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

static void tbLockAxes( const tbJointPose* p, tbVec3 axes[3] )
{
	for ( int i = 0; i < 3; ++i )
	{
		axes[i] = tbQuatRowAxis( p, i );
	}
}

static void tbWarmStartFixed( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbFixedJointData* f = &joint->fixed;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbVec3 axes[3];
	tbLockAxes( &p, axes );
	tbVec3 angular = tbMulSV( f->angularImpulse.x, axes[0] );
	angular = tbMulAdd( angular, f->angularImpulse.y, axes[1] );
	angular = tbMulAdd( angular, f->angularImpulse.z, axes[2] );
	tbApplyAngularImpulse( m, angular );
	tbApplyPointImpulse( m, &p, f->linearImpulse );
}

static void tbSolveFixed( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	tbFixedJointData* f = &joint->fixed;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbSoftness soft = tbJointSoftness( ctx, useBias );
	tbVec3 axes[3];
	tbLockAxes( &p, axes );
	float C[3] = { p.qRel.x, p.qRel.y, p.qRel.z };
	float impulse[3] = { f->angularImpulse.x, f->angularImpulse.y, f->angularImpulse.z };
	tbSolveAngularBlock( m, axes, C, 3, soft, impulse );
	f->angularImpulse = tbMakeVec3( impulse[0], impulse[1], impulse[2] );
	tbSolvePointBlock( m, &p, soft, &f->linearImpulse );
}

static void tbScaleFixed( tbJoint* joint, float scale )
{
	joint->fixed.linearImpulse = tbMulSV( scale, joint->fixed.linearImpulse );
	joint->fixed.angularImpulse = tbMulSV( scale, joint->fixed.angularImpulse );
}

static void tbReactionFixed( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	const tbFixedJointData* f = &joint->fixed;
	tbJointPose p;
	tbComputeJointStartPose( joint, &p );
	*linear = f->linearImpulse;
	tbVec3 t = tbMulSV( f->angularImpulse.x, tbQuatRowAxis( &p, 0 ) );
	t = tbMulAdd( t, f->angularImpulse.y, tbQuatRowAxis( &p, 1 ) );
	t = tbMulAdd( t, f->angularImpulse.z, tbQuatRowAxis( &p, 2 ) );
	*angular = t;
}

static void tbErrorFixed( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	TB_UNUSED( joint );
	*linear = tbLength( p->d );
	*angular = tbQuatAngle( p->qRel );
}

const tbJointClass tb_fixedJointClass = {
	tbPrepareFixed, tbWarmStartFixed, tbSolveFixed, tbScaleFixed, tbReactionFixed, tbErrorFixed,
};
