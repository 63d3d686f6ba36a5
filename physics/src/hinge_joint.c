// Tumble physics: hinge (revolute) joint in the quaternion formulation.
//
// Point rows: the anchors coincide (see ball_joint.c). Angular rows (000 ch. 17): with the joint
// frames' world orientations qA, qB the relative rotation is qRel = conj(qA) qB; the hinge allows
// rotation about frame x only, so C1 = qRel.y = 0 and C2 = qRel.z = 0. Differentiating with
// dq/dt = 1/2 w q gives Cdot_i = a_i . (wB - wA) with a_i = 1/2 R(qA) (w e_i + v x e_i)
// (tbQuatRowAxis), here divided by sqrt(1 - qRel_i^2) so that the rows keep their length near a
// half turn (fuzz finding 36; the exact Jacobian of asin(qRel_i), equal to the book's at rest).
// Unlike the two-vector hinge of 000 ch. 14 (h1 . u2 = 0, h1 . v2 = 0), whose mirror image
// h2 = -h1 also satisfies it, the flipped pose here has |qRel.y| or |qRel.z| = 1, so there is no
// second rest state: the axis cannot flip under a hard hit.
//
// The hinge angle is the twist of qRel about x, t = 2 atan2(qRel.x, qRel.w) in [-pi, pi] (the
// book uses 2 asin(qRel.x), 000 ch. 18, equal while the other components vanish). Its derivative
// t' = a_t . (wB - wA) (tbTwistAxis) is the Jacobian of the limit rows (inequalities lower <= t
// <= upper, 000 ch. 18 and 004 sec. 3.7.3), the motor row (Cdot = speed, |lambda| <= maxTorque h,
// 004 sec. 3.7.3 "Motor", 000 ch. 22) and the servo: a motor whose target speed is
// gain * (servoAngle - angle), capped, with its own max torque. Being a hard velocity row it holds
// a static load with no steady angle error (a spring would sag by load / stiffness), and the error
// decays as exp(-gain t) without overshoot while the torque suffices.
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "core.h"
#include "world.h"

#include <float.h>

tbHingeJointDef tbDefaultHingeJointDef( void )
{
	tbHingeJointDef def;
	def.base = tbMakeDefaultJointDef();
	def.enableLimit = false;
	def.lowerAngle = 0.0f;
	def.upperAngle = 0.0f;
	def.enableMotor = false;
	def.motorSpeed = 0.0f;
	def.maxMotorTorque = 0.0f;
	def.enableServo = false;
	def.servoAngle = 0.0f;
	def.maxServoTorque = 0.0f;
	def.servoGain = 10.0f;
	def.maxServoSpeed = 2.0f * TB_PI;
	return def;
}

static bool tbIsValidAngleRange( float lower, float upper )
{
	return tbIsFinite( lower ) && tbIsFinite( upper ) && lower <= upper && lower >= -TB_PI - 1.0e-5f &&
		   upper <= TB_PI + 1.0e-5f;
}

static bool tbIsValidTorque( float x )
{
	return !isnan( x ) && x >= 0.0f;
}

tbJointId tbCreateHingeJoint( tbWorldId worldId, const tbHingeJointDef* def, tbResult* result )
{
	if ( def == NULL || !tbIsValidAngleRange( def->lowerAngle, def->upperAngle ) || !tbIsInRange( def->motorSpeed, -TB_MAX_ANGULAR_SPEED, TB_MAX_ANGULAR_SPEED ) ||
		 !tbIsValidTorque( def->maxMotorTorque ) || !tbIsInRange( def->servoAngle, -TB_MAX_SERVO_ANGLE, TB_MAX_SERVO_ANGLE ) ||
		 !tbIsValidTorque( def->maxServoTorque ) || !tbIsFinite( def->servoGain ) || def->servoGain <= 0.0f ||
		 isnan( def->maxServoSpeed ) || def->maxServoSpeed <= 0.0f )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_hinge, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	tbHingeJointData* h = &joint->hinge;
	h->enableLimit = def->enableLimit;
	h->lowerAngle = def->lowerAngle;
	h->upperAngle = def->upperAngle;
	h->enableMotor = def->enableMotor;
	h->motorSpeed = def->motorSpeed;
	h->maxMotorTorque = def->maxMotorTorque;
	h->enableServo = def->enableServo;
	h->servoAngle = tbWrapAngle( def->servoAngle );
	h->maxServoTorque = def->maxServoTorque;
	h->servoGain = def->servoGain;
	h->maxServoSpeed = def->maxServoSpeed;
	return tbMakeJointId( world, joint );
}

static bool tbHingeNeedsTwist( const tbHingeJointData* h )
{
	return h->enableLimit || h->enableMotor || h->enableServo;
}

static void tbPrepareHinge( tbStepContext* ctx, tbJoint* joint )
{
	TB_UNUSED( ctx );
	tbHingeJointData* h = &joint->hinge;
	if ( h->enableLimit == false )
	{
		h->lowerImpulse = 0.0f;
		h->upperImpulse = 0.0f;
	}
	if ( h->enableMotor == false )
	{
		h->motorImpulse = 0.0f;
	}
	if ( h->enableServo == false )
	{
		h->servoImpulse = 0.0f;
	}
}

// The rows' Jacobians and masses for the sub-step (joint.h, prepared rows).
static void tbRefreshHinge( tbStepContext* ctx, tbJoint* joint, const tbJointPose* p )
{
	TB_UNUSED( ctx );
	tbHingeJointData* h = &joint->hinge;
	tbPreparePoint( joint );
	h->block.n = 2;
	h->block.axes[0] = tbQuatRowAxis( p, 1 );
	h->block.axes[1] = tbQuatRowAxis( p, 2 );
	tbPrepareAngularBlock( joint, &h->block );
	h->twist = tbMakeAngularAxis( joint, tbHingeNeedsTwist( h ) ? tbTwistAxis( p ) : tb_vec3_zero );
}

// Everything the hinge applies about its rows, as one angular impulse on B.
static tbVec3 tbHingeAngularImpulse( const tbHingeJointData* h )
{
	tbVec3 angular = tbAngularBlockImpulse( &h->block, h->angularImpulse );
	float twist = h->motorImpulse + h->servoImpulse + h->lowerImpulse - h->upperImpulse;
	return tbMulAdd( angular, twist, h->twist.axis );
}

static void tbWarmStartHinge( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbHingeJointData* h = &joint->hinge;
	tbApplyAngularImpulse( m, tbHingeAngularImpulse( h ) );
	tbApplyPreparedPointImpulse( m, joint, h->linearImpulse );
}

static void tbSolveHinge( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	tbHingeJointData* h = &joint->hinge;
	tbJointPose* p = &joint->pose;

	// Lower priority first (Gauss-Seidel: the last row solved is satisfied best): motor and servo,
	// then the limits, then the hinge rows and the anchors.
	if ( tbHingeNeedsTwist( h ) )
	{
		float angle = tbPoseTwist( p );
		if ( h->enableMotor )
		{
			tbSolveAngularMotor( m, &h->twist, h->motorSpeed, tbMaxImpulse( h->maxMotorTorque, ctx->h ),
								 &h->motorImpulse );
		}
		if ( h->enableServo )
		{
			float error = tbWrapAngle( h->servoAngle - angle );
			float speed = tbClampFloat( h->servoGain * error, -h->maxServoSpeed, h->maxServoSpeed );
			tbSolveAngularMotor( m, &h->twist, speed, tbMaxImpulse( h->maxServoTorque, ctx->h ), &h->servoImpulse );
		}
		if ( h->enableLimit )
		{
			tbSolveAngularLimit( ctx, m, &h->twist, 1.0f, angle - h->lowerAngle, useBias, &h->lowerImpulse );
			tbSolveAngularLimit( ctx, m, &h->twist, -1.0f, h->upperAngle - angle, useBias, &h->upperImpulse );
		}
	}
	tbSoftness soft = tbJointSoftness( ctx, useBias );
	float C[2] = { p->qRel.y, p->qRel.z };
	tbSolvePreparedAngularBlock( m, &h->block, C, soft, h->angularImpulse );
	tbSolvePoint( m, joint, p->d, soft, &h->linearImpulse );
}

static void tbScaleHinge( tbJoint* joint, float scale )
{
	tbHingeJointData* h = &joint->hinge;
	h->linearImpulse = tbMulSV( scale, h->linearImpulse );
	h->angularImpulse[0] *= scale;
	h->angularImpulse[1] *= scale;
	h->lowerImpulse *= scale;
	h->upperImpulse *= scale;
	h->motorImpulse *= scale;
	h->servoImpulse *= scale;
}

static void tbReactionHinge( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	*linear = joint->hinge.linearImpulse;
	*angular = tbHingeAngularImpulse( &joint->hinge );
}

static void tbErrorHinge( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	const tbHingeJointData* h = &joint->hinge;
	*linear = tbLength( p->d );
	// Tilt of the hinge axis: the swing angle between the two frames' x axes.
	float tilt = tbSwingAngle( p->qRel );
	float excess = 0.0f;
	if ( h->enableLimit )
	{
		float angle = tbTwistAngle( p->qRel );
		excess = tbMaxFloat( h->lowerAngle - angle, tbMaxFloat( angle - h->upperAngle, 0.0f ) );
	}
	*angular = tilt + excess;
}

const tbJointClass tb_hingeJointClass = {
	tbPrepareHinge, tbWarmStartHinge, tbSolveHinge, tbScaleHinge, tbReactionHinge, tbErrorHinge, tbRefreshHinge, "hinge",
};

// Parameters (the shared field setters of joint.h) -------------------------------------------------

#define TB_HINGE_FLOAT( member ) tbJoint_hinge, TB_JOINT_FLOAT( hinge.member )
#define TB_HINGE_BOOL( member ) tbJoint_hinge, TB_JOINT_BOOL( hinge.member )

tbResult tbHingeJoint_EnableLimit( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_HINGE_BOOL( enableLimit ), enable );
}

bool tbHingeJoint_IsLimitEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_HINGE_BOOL( enableLimit ) );
}

tbResult tbHingeJoint_SetLimits( tbJointId jointId, float lowerAngle, float upperAngle )
{
	return tbSetJointFloats( jointId, TB_HINGE_FLOAT( lowerAngle ), lowerAngle, TB_JOINT_FLOAT( hinge.upperAngle ), upperAngle,
							 tbIsValidAngleRange( lowerAngle, upperAngle ) );
}

float tbHingeJoint_GetLowerLimit( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_HINGE_FLOAT( lowerAngle ) );
}

float tbHingeJoint_GetUpperLimit( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_HINGE_FLOAT( upperAngle ) );
}

tbResult tbHingeJoint_EnableMotor( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_HINGE_BOOL( enableMotor ), enable );
}

bool tbHingeJoint_IsMotorEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_HINGE_BOOL( enableMotor ) );
}

tbResult tbHingeJoint_SetMotorSpeed( tbJointId jointId, float speed )
{
	return tbSetJointFloat( jointId, TB_HINGE_FLOAT( motorSpeed ), speed,
							tbIsInRange( speed, -TB_MAX_ANGULAR_SPEED, TB_MAX_ANGULAR_SPEED ) );
}

float tbHingeJoint_GetMotorSpeed( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_HINGE_FLOAT( motorSpeed ) );
}

tbResult tbHingeJoint_SetMaxMotorTorque( tbJointId jointId, float torque )
{
	return tbSetJointFloat( jointId, TB_HINGE_FLOAT( maxMotorTorque ), torque, tbIsValidTorque( torque ) );
}

float tbHingeJoint_GetMaxMotorTorque( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_HINGE_FLOAT( maxMotorTorque ) );
}

float tbHingeJoint_GetMotorTorque( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_hinge, NULL );
	return joint != NULL && joint->impulseH > 0.0f ? joint->hinge.motorImpulse / joint->impulseH : 0.0f;
}

tbResult tbHingeJoint_EnableServo( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_HINGE_BOOL( enableServo ), enable );
}

bool tbHingeJoint_IsServoEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_HINGE_BOOL( enableServo ) );
}

tbResult tbHingeJoint_SetServoAngle( tbJointId jointId, float angle )
{
	return tbSetJointFloat( jointId, TB_HINGE_FLOAT( servoAngle ), tbWrapAngle( angle ),
							tbIsInRange( angle, -TB_MAX_SERVO_ANGLE, TB_MAX_SERVO_ANGLE ) );
}

float tbHingeJoint_GetServoAngle( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_HINGE_FLOAT( servoAngle ) );
}

tbResult tbHingeJoint_SetMaxServoTorque( tbJointId jointId, float torque )
{
	return tbSetJointFloat( jointId, TB_HINGE_FLOAT( maxServoTorque ), torque, tbIsValidTorque( torque ) );
}

float tbHingeJoint_GetMaxServoTorque( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_HINGE_FLOAT( maxServoTorque ) );
}

tbResult tbHingeJoint_SetServoGain( tbJointId jointId, float gain, float maxSpeed )
{
	bool valid = tbIsFinite( gain ) && gain > 0.0f && !isnan( maxSpeed ) && maxSpeed > 0.0f;
	return tbSetJointFloats( jointId, TB_HINGE_FLOAT( servoGain ), gain, TB_JOINT_FLOAT( hinge.maxServoSpeed ), maxSpeed, valid );
}

float tbHingeJoint_GetServoGain( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_HINGE_FLOAT( servoGain ) );
}

float tbHingeJoint_GetMaxServoSpeed( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_HINGE_FLOAT( maxServoSpeed ) );
}

float tbHingeJoint_GetAngle( tbJointId jointId )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_hinge, &world );
	if ( joint == NULL )
	{
		return 0.0f;
	}
	tbJointPose p;
	tbComputeJointBodyPose( world, joint, &p );
	return tbTwistAngle( p.qRel );
}

float tbHingeJoint_GetSpeed( tbJointId jointId )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_hinge, &world );
	if ( joint == NULL )
	{
		return 0.0f;
	}
	tbJointPose p;
	tbComputeJointBodyPose( world, joint, &p );
	tbJointMotion m;
	tbLoadJointBodyMotion( world, joint, &m );
	return tbDot( tbTwistAxis( &p ), tbSub( m.wB, m.wA ) );
}
