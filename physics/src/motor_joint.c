// Tumble physics: rotary motor joint, 000 ch. 22.
//
// A motor is a constraint whose velocity target is not zero: Cdot = c0 (the book's eq. 69). The
// book builds it on the quaternion constraint: the anchors are held together (point rows, see
// ball_joint.c), the two rows perpendicular to the motor axis keep the axes aligned (qRel.y =
// qRel.z = 0, the quaternion hinge rows of 000 ch. 17, rescaled as in tbQuatRowAxis) and the row
// about the axis is driven to the motor speed. Here that row uses the exact rate of the twist angle,
// a_t . (wB - wA) (tbTwistAxis), and its accumulated impulse is bounded by maxMotorTorque h (the
// book's motor is unbounded: the default maxMotorTorque is FLT_MAX).
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "core.h"
#include "world.h"

#include <float.h>

tbMotorJointDef tbDefaultMotorJointDef( void )
{
	tbMotorJointDef def;
	def.base = tbMakeDefaultJointDef();
	def.motorSpeed = 0.0f;
	def.maxMotorTorque = FLT_MAX;
	return def;
}

static bool tbIsValidMotorTorque( float x )
{
	return !isnan( x ) && x >= 0.0f;
}

tbJointId tbCreateMotorJoint( tbWorldId worldId, const tbMotorJointDef* def, tbResult* result )
{
	if ( def == NULL || !tbIsFinite( def->motorSpeed ) || !tbIsValidMotorTorque( def->maxMotorTorque ) )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_motor, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	joint->motor.motorSpeed = def->motorSpeed;
	joint->motor.maxMotorTorque = def->maxMotorTorque;
	return tbMakeJointId( world, joint );
}

static void tbPrepareMotor( tbStepContext* ctx, tbJoint* joint )
{
	TB_UNUSED( ctx );
	TB_UNUSED( joint );
}

static void tbWarmStartMotor( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbMotorJointData* d = &joint->motor;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbVec3 angular = tbMulSV( d->motorImpulse, tbTwistAxis( &p ) );
	angular = tbMulAdd( angular, d->angularImpulse[0], tbQuatRowAxis( &p, 1 ) );
	angular = tbMulAdd( angular, d->angularImpulse[1], tbQuatRowAxis( &p, 2 ) );
	tbApplyAngularImpulse( m, angular );
	tbApplyPointImpulse( m, &p, d->linearImpulse );
}

static void tbSolveMotor( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	tbMotorJointData* d = &joint->motor;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbJointRow twist = tbAngularRow( tbTwistAxis( &p ) );
	tbSolveMotorRow( m, &twist, d->motorSpeed, TB_MAX_ANGULAR_SPEED, tbMaxImpulse( d->maxMotorTorque, ctx->h ),
					 &d->motorImpulse );
	tbVec3 axes[2] = { tbQuatRowAxis( &p, 1 ), tbQuatRowAxis( &p, 2 ) };
	float C[2] = { p.qRel.y, p.qRel.z };
	tbSoftness soft = tbJointSoftness( ctx, useBias );
	tbSolveAngularBlock( m, axes, C, 2, soft, d->angularImpulse );
	tbSolvePointBlock( m, &p, soft, &d->linearImpulse );
}

static void tbScaleMotor( tbJoint* joint, float scale )
{
	tbMotorJointData* d = &joint->motor;
	d->linearImpulse = tbMulSV( scale, d->linearImpulse );
	d->angularImpulse[0] *= scale;
	d->angularImpulse[1] *= scale;
	d->motorImpulse *= scale;
}

static void tbReactionMotor( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	const tbMotorJointData* d = &joint->motor;
	tbJointPose p;
	tbComputeJointStartPose( joint, &p );
	*linear = d->linearImpulse;
	tbVec3 t = tbMulSV( d->motorImpulse, tbTwistAxis( &p ) );
	t = tbMulAdd( t, d->angularImpulse[0], tbQuatRowAxis( &p, 1 ) );
	t = tbMulAdd( t, d->angularImpulse[1], tbQuatRowAxis( &p, 2 ) );
	*angular = t;
}

static void tbErrorMotor( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	TB_UNUSED( joint );
	*linear = tbLength( p->d );
	*angular = tbSwingAngle( p->qRel );
}

const tbJointClass tb_motorJointClass = {
	tbPrepareMotor, tbWarmStartMotor, tbSolveMotor, tbScaleMotor, tbReactionMotor, tbErrorMotor, NULL, "motor",
};

// Parameters --------------------------------------------------------------------------------------

tbResult tbMotorJoint_SetMotorSpeed( tbJointId jointId, float speed )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_motor, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsFinite( speed ) )
	{
		return tbResult_invalidArgument;
	}
	joint->motor.motorSpeed = speed;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbMotorJoint_GetMotorSpeed( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_motor, NULL );
	return joint != NULL ? joint->motor.motorSpeed : 0.0f;
}

tbResult tbMotorJoint_SetMaxMotorTorque( tbJointId jointId, float torque )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_motor, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsValidMotorTorque( torque ) )
	{
		return tbResult_invalidArgument;
	}
	joint->motor.maxMotorTorque = torque;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbMotorJoint_GetMaxMotorTorque( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_motor, NULL );
	return joint != NULL ? joint->motor.maxMotorTorque : 0.0f;
}

float tbMotorJoint_GetMotorTorque( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_motor, NULL );
	return joint != NULL && joint->impulseH > 0.0f ? joint->motor.motorImpulse / joint->impulseH : 0.0f;
}
