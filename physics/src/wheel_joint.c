// Tumble physics: wheel joint, a wheel body on a suspension (as Box2D's and Jolt's wheel
// constraints: a line constraint with a spring, plus a hinge's axle).
//
// Frame A's axes in world, turning with body A: x (the axle), y, z (the suspension axis). With
// d = anchor B - anchor A:
// - Point on the suspension line: C_x = x . d = 0 and C_y = y . d = 0, the rows of the slider
//   (slider_joint.c, tbLinearAxisRow), solved as a 2x2 block.
// - Axles parallel: the hinge's quaternion rows (hinge_joint.c, 000 ch. 17), C1 = qRel.y = 0 and
//   C2 = qRel.z = 0 with the rows of tbQuatRowAxis, as a 2x2 angular block. Spin about x is free.
// - Suspension: the translation t = z . d has the row J_z = tbLinearAxisRow(z). The spring is a
//   soft row towards t = 0 (tbSolveSpringRow): in N/m it becomes a frequency of the row's effective
//   mass m_z = 1 / (J_z M^-1 J_z^T), w = sqrt(k / m_z) and zeta = c / (2 sqrt(k m_z)), as the
//   distance joint's spring; the soft row is the implicit spring, so a load F holds it at
//   t = -F / k. Limits are the inequalities t - lower >= 0 and upper - t >= 0.
// - Motor: a velocity row on the twist axis (tbTwistAxis: d(twist)/dt = a . (wB - wA)) with
//   |lambda| <= maxMotorTorque h, as the hinge's motor.
// The rows are built from the current pose in every pass (the slider's way, on the scalar rows).
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "core.h"
#include "world.h"

#include <float.h>
#include <string.h>

tbWheelJointDef tbDefaultWheelJointDef( void )
{
	tbWheelJointDef def;
	def.base = tbMakeDefaultJointDef();
	def.enableSpring = true;
	def.stiffness = 0.0f;
	def.damping = 0.0f;
	def.hertz = 4.0f;
	def.dampingRatio = 0.7f;
	def.enableLimit = false;
	def.lowerTranslation = 0.0f;
	def.upperTranslation = 0.0f;
	def.enableMotor = false;
	def.motorSpeed = 0.0f;
	def.maxMotorTorque = 0.0f;
	return def;
}

static bool tbIsValidWheelRange( float lower, float upper )
{
	return tbIsInRange( lower, -TB_MAX_JOINT_LENGTH, TB_MAX_JOINT_LENGTH ) &&
		   tbIsInRange( upper, -TB_MAX_JOINT_LENGTH, TB_MAX_JOINT_LENGTH ) && lower <= upper;
}

// A torque cap: FLT_MAX (or inf) is a motor without one, as the hinge's.
static bool tbIsValidTorque( float x )
{
	return !isnan( x ) && x >= 0.0f;
}

static bool tbIsValidStiffness( float stiffness, float damping )
{
	return tbIsInRange( stiffness, 0.0f, TB_MAX_FORCE ) && tbIsInRange( damping, 0.0f, TB_MAX_FORCE );
}

static bool tbIsValidHertz( float hertz, float dampingRatio )
{
	return tbIsInRange( hertz, 0.0f, TB_MAX_HERTZ ) && tbIsInRange( dampingRatio, 0.0f, TB_MAX_DAMPING );
}

tbJointId tbCreateWheelJoint( tbWorldId worldId, const tbWheelJointDef* def, tbResult* result )
{
	if ( def == NULL || !tbIsValidStiffness( def->stiffness, def->damping ) ||
		 !tbIsValidHertz( def->hertz, def->dampingRatio ) ||
		 !tbIsValidWheelRange( def->lowerTranslation, def->upperTranslation ) ||
		 !tbIsInRange( def->motorSpeed, -TB_MAX_ANGULAR_SPEED, TB_MAX_ANGULAR_SPEED ) ||
		 !tbIsValidTorque( def->maxMotorTorque ) )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_wheel, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	tbWheelJointData* w = &joint->wheel;
	memset( w, 0, sizeof( *w ) );
	w->enableSpring = def->enableSpring;
	w->stiffness = def->stiffness;
	w->damping = def->damping;
	w->hertz = def->hertz;
	w->dampingRatio = def->dampingRatio;
	w->enableLimit = def->enableLimit;
	w->lowerTranslation = def->lowerTranslation;
	w->upperTranslation = def->upperTranslation;
	w->enableMotor = def->enableMotor;
	w->motorSpeed = def->motorSpeed;
	w->maxMotorTorque = def->maxMotorTorque;
	return tbMakeJointId( world, joint );
}

bool tbWheelHasSpring( const tbWheelJointData* w )
{
	return w->enableSpring && ( w->stiffness > 0.0f || w->hertz > 0.0f );
}

static void tbPrepareWheel( tbStepContext* ctx, tbJoint* joint )
{
	tbWheelJointData* w = &joint->wheel;
	w->springSoftness = tbMakeSoft( w->hertz, w->dampingRatio, ctx->h );
	if ( tbWheelHasSpring( w ) == false )
	{
		w->springImpulse = 0.0f;
	}
	if ( w->enableLimit == false )
	{
		w->lowerImpulse = 0.0f;
		w->upperImpulse = 0.0f;
	}
	if ( w->enableMotor == false )
	{
		w->motorImpulse = 0.0f;
	}
}

void tbMakeWheelRows( const tbJointPose* p, tbWheelRows* rows )
{
	rows->axle = tbRotate( p->qA, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
	rows->suspension = tbRotate( p->qA, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	rows->line[0] = tbLinearAxisRow( p, rows->axle );
	rows->line[1] = tbLinearAxisRow( p, tbRotate( p->qA, tbMakeVec3( 0.0f, 1.0f, 0.0f ) ) );
	rows->travel = tbLinearAxisRow( p, rows->suspension );
	rows->angular[0] = tbQuatRowAxis( p, 1 );
	rows->angular[1] = tbQuatRowAxis( p, 2 );
	rows->twist = tbTwistAxis( p );
}

// The spring's softness for this pass: the N/m form made a frequency of the row's effective mass.
tbSoftness tbWheelSpringSoftness( const tbStepContext* ctx, const tbWheelJointData* w, const tbJointMotion* m,
								  const tbJointRow* J )
{
	if ( w->stiffness <= 0.0f )
	{
		return w->springSoftness;
	}
	float inverseMass = tbRowCoupling( m, J, J );
	if ( inverseMass <= 0.0f )
	{
		return w->springSoftness;
	}
	float mass = 1.0f / inverseMass;
	float omega = sqrtf( w->stiffness / mass );
	float zeta = w->damping / ( 2.0f * sqrtf( w->stiffness * mass ) );
	return tbMakeSoft( omega / ( 2.0f * TB_PI ), zeta, ctx->h );
}

static void tbWarmStartWheel( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbWheelJointData* w = &joint->wheel;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbWheelRows rows;
	tbMakeWheelRows( &p, &rows );
	tbRowApply( m, &rows.travel, w->springImpulse + w->lowerImpulse - w->upperImpulse );
	tbVec3 angular = tbMulSV( w->angularImpulse[0], rows.angular[0] );
	angular = tbMulAdd( angular, w->angularImpulse[1], rows.angular[1] );
	angular = tbMulAdd( angular, w->motorImpulse, rows.twist );
	tbApplyAngularImpulse( m, angular );
	tbRowApply( m, rows.line + 0, w->linearImpulse[0] );
	tbRowApply( m, rows.line + 1, w->linearImpulse[1] );
}

static void tbSolveWheel( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	tbWheelJointData* w = &joint->wheel;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbWheelRows rows;
	tbMakeWheelRows( &p, &rows );
	float translation = tbDot( rows.suspension, p.d );

	// Lowest priority first (Gauss-Seidel: the last row solved holds best): motor, spring, limits,
	// then the axle and the line.
	if ( w->enableMotor )
	{
		tbJointRow spin = tbAngularRow( rows.twist );
		tbSolveMotorRow( m, &spin, w->motorSpeed, TB_MAX_ANGULAR_SPEED, tbMaxImpulse( w->maxMotorTorque, ctx->h ),
						 &w->motorImpulse );
	}
	// The spring acts in every pass: it is a force law, not position correction.
	if ( tbWheelHasSpring( w ) )
	{
		tbSoftness soft = tbWheelSpringSoftness( ctx, w, m, &rows.travel );
		tbSolveSpringRow( m, &rows.travel, translation, soft, FLT_MAX, &w->springImpulse );
	}
	if ( w->enableLimit )
	{
		tbSolveLimitRow( ctx, m, &rows.travel, translation - w->lowerTranslation, useBias, &w->lowerImpulse );
		tbJointRow upper = tbNegateRow( rows.travel );
		tbSolveLimitRow( ctx, m, &upper, w->upperTranslation - translation, useBias, &w->upperImpulse );
	}

	tbSoftness soft = tbJointSoftness( ctx, useBias );
	float angularC[2] = { p.qRel.y, p.qRel.z };
	tbSolveAngularBlock( m, rows.angular, angularC, 2, soft, w->angularImpulse );
	float linearC[2] = { tbDot( rows.axle, p.d ), tbDot( rows.line[1].linearB, p.d ) };
	tbSolveEqualityBlock( m, rows.line, linearC, 2, soft, w->linearImpulse );
}

static void tbScaleWheel( tbJoint* joint, float scale )
{
	tbWheelJointData* w = &joint->wheel;
	w->linearImpulse[0] *= scale;
	w->linearImpulse[1] *= scale;
	w->angularImpulse[0] *= scale;
	w->angularImpulse[1] *= scale;
	w->springImpulse *= scale;
	w->lowerImpulse *= scale;
	w->upperImpulse *= scale;
	w->motorImpulse *= scale;
}

static void tbReactionWheel( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	const tbWheelJointData* w = &joint->wheel;
	tbJointPose p;
	tbComputeJointStartPose( joint, &p );
	tbVec3 f = tbMulSV( w->springImpulse + w->lowerImpulse - w->upperImpulse, tbRotate( p.qA, tbMakeVec3( 0, 0, 1 ) ) );
	f = tbMulAdd( f, w->linearImpulse[0], tbRotate( p.qA, tbMakeVec3( 1, 0, 0 ) ) );
	f = tbMulAdd( f, w->linearImpulse[1], tbRotate( p.qA, tbMakeVec3( 0, 1, 0 ) ) );
	*linear = f;
	tbVec3 a = tbMulSV( w->angularImpulse[0], tbQuatRowAxis( &p, 1 ) );
	a = tbMulAdd( a, w->angularImpulse[1], tbQuatRowAxis( &p, 2 ) );
	*angular = tbMulAdd( a, w->motorImpulse, tbTwistAxis( &p ) );
}

static void tbErrorWheel( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	const tbWheelJointData* w = &joint->wheel;
	tbVec3 suspension = tbRotate( p->qA, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	float t = tbDot( suspension, p->d );
	tbVec3 off = tbMulSub( p->d, t, suspension );
	float excess = 0.0f;
	if ( w->enableLimit )
	{
		excess = tbMaxFloat( w->lowerTranslation - t, tbMaxFloat( t - w->upperTranslation, 0.0f ) );
	}
	*linear = tbLength( off ) + excess;
	// Tilt of the axle: the swing angle between the two frames' x axes.
	*angular = tbSwingAngle( p->qRel );
}

const tbJointClass tb_wheelJointClass = {
	tbPrepareWheel, tbWarmStartWheel, tbSolveWheel, tbScaleWheel, tbReactionWheel, tbErrorWheel, NULL, "wheel",
};

// Parameters (the shared field setters of joint.h) -------------------------------------------------

#define TB_WHEEL_FLOAT( member ) tbJoint_wheel, TB_JOINT_FLOAT( wheel.member )
#define TB_WHEEL_BOOL( member ) tbJoint_wheel, TB_JOINT_BOOL( wheel.member )

tbResult tbWheelJoint_EnableSpring( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_WHEEL_BOOL( enableSpring ), enable );
}

bool tbWheelJoint_IsSpringEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_WHEEL_BOOL( enableSpring ) );
}

tbResult tbWheelJoint_SetSpringStiffness( tbJointId jointId, float stiffness, float damping )
{
	return tbSetJointFloats( jointId, TB_WHEEL_FLOAT( stiffness ), stiffness, TB_JOINT_FLOAT( wheel.damping ), damping,
							 tbIsValidStiffness( stiffness, damping ) );
}

float tbWheelJoint_GetSpringStiffness( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_WHEEL_FLOAT( stiffness ) );
}

float tbWheelJoint_GetSpringDamping( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_WHEEL_FLOAT( damping ) );
}

tbResult tbWheelJoint_SetSpringHertz( tbJointId jointId, float hertz, float dampingRatio )
{
	return tbSetJointFloats( jointId, TB_WHEEL_FLOAT( hertz ), hertz, TB_JOINT_FLOAT( wheel.dampingRatio ), dampingRatio,
							 tbIsValidHertz( hertz, dampingRatio ) );
}

float tbWheelJoint_GetSpringHertz( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_WHEEL_FLOAT( hertz ) );
}

float tbWheelJoint_GetSpringDampingRatio( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_WHEEL_FLOAT( dampingRatio ) );
}

tbResult tbWheelJoint_EnableLimit( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_WHEEL_BOOL( enableLimit ), enable );
}

bool tbWheelJoint_IsLimitEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_WHEEL_BOOL( enableLimit ) );
}

tbResult tbWheelJoint_SetLimits( tbJointId jointId, float lower, float upper )
{
	return tbSetJointFloats( jointId, TB_WHEEL_FLOAT( lowerTranslation ), lower, TB_JOINT_FLOAT( wheel.upperTranslation ),
							 upper, tbIsValidWheelRange( lower, upper ) );
}

float tbWheelJoint_GetLowerLimit( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_WHEEL_FLOAT( lowerTranslation ) );
}

float tbWheelJoint_GetUpperLimit( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_WHEEL_FLOAT( upperTranslation ) );
}

tbResult tbWheelJoint_EnableMotor( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_WHEEL_BOOL( enableMotor ), enable );
}

bool tbWheelJoint_IsMotorEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_WHEEL_BOOL( enableMotor ) );
}

tbResult tbWheelJoint_SetMotorSpeed( tbJointId jointId, float speed )
{
	return tbSetJointFloat( jointId, TB_WHEEL_FLOAT( motorSpeed ), speed,
							tbIsInRange( speed, -TB_MAX_ANGULAR_SPEED, TB_MAX_ANGULAR_SPEED ) );
}

float tbWheelJoint_GetMotorSpeed( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_WHEEL_FLOAT( motorSpeed ) );
}

tbResult tbWheelJoint_SetMaxMotorTorque( tbJointId jointId, float torque )
{
	return tbSetJointFloat( jointId, TB_WHEEL_FLOAT( maxMotorTorque ), torque, tbIsValidTorque( torque ) );
}

float tbWheelJoint_GetMaxMotorTorque( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_WHEEL_FLOAT( maxMotorTorque ) );
}

float tbWheelJoint_GetMotorTorque( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_wheel, NULL );
	return joint != NULL && joint->impulseH > 0.0f ? joint->wheel.motorImpulse / joint->impulseH : 0.0f;
}

float tbWheelJoint_GetSpringForce( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_wheel, NULL );
	return joint != NULL && joint->impulseH > 0.0f ? joint->wheel.springImpulse / joint->impulseH : 0.0f;
}

float tbWheelJoint_GetTranslation( tbJointId jointId )
{
	return tbJointAxisTranslation( jointId, tbJoint_wheel, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
}

float tbWheelJoint_GetSpeed( tbJointId jointId )
{
	return tbJointAxisSpeed( jointId, tbJoint_wheel, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
}

float tbWheelJoint_GetSpinSpeed( tbJointId jointId )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_wheel, &world );
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
