// Tumble physics: slider (prismatic) joint, 004 sec. 3.7.4.
//
// The slider axis a and two perpendiculars n1, n2 are frame A's x, y, z axes in world, turning
// with body A. With d = pB - pA the translation rows are C_i = n_i . d = 0 (i = 1, 2), whose
// derivative (n_i turns with A) is Cdot = n_i . (vB + wB x rB - vA - wA x rA) + (wA x n_i) . d,
// giving J = (-n_i, -(rA + d) x n_i, n_i, rB x n_i) (the thesis' (r1 + u) x n, tbLinearAxisRow),
// solved as a 2x2 block. Rotation is locked as in the fixed joint (world-axis rows, the rotation
// vector as the error, fixed_joint.c) instead of the thesis' Euler-angle differences, which are
// only valid near the rest pose. The translation t = a . d has the same kind of row J_a: limits are the
// inequalities t - lower >= 0 and upper - t >= 0, the motor drives Cdot = J_a v to the speed with
// |lambda| <= maxForce h (the thesis' motor uses only the linear part; the full row also stays
// right when A turns).
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "core.h"
#include "world.h"

#include <float.h>

tbSliderJointDef tbDefaultSliderJointDef( void )
{
	tbSliderJointDef def;
	def.base = tbMakeDefaultJointDef();
	def.enableLimit = false;
	def.lowerTranslation = 0.0f;
	def.upperTranslation = 0.0f;
	def.enableMotor = false;
	def.motorSpeed = 0.0f;
	def.maxMotorForce = 0.0f;
	return def;
}

static bool tbIsValidRange( float lower, float upper )
{
	return tbIsFinite( lower ) && tbIsFinite( upper ) && lower <= upper;
}

static bool tbIsValidForce( float x )
{
	return !isnan( x ) && x >= 0.0f;
}

tbJointId tbCreateSliderJoint( tbWorldId worldId, const tbSliderJointDef* def, tbResult* result )
{
	if ( def == NULL || !tbIsValidRange( def->lowerTranslation, def->upperTranslation ) ||
		 !tbIsFinite( def->motorSpeed ) || !tbIsValidForce( def->maxMotorForce ) )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_slider, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	tbSliderJointData* s = &joint->slider;
	s->enableLimit = def->enableLimit;
	s->lowerTranslation = def->lowerTranslation;
	s->upperTranslation = def->upperTranslation;
	s->enableMotor = def->enableMotor;
	s->motorSpeed = def->motorSpeed;
	s->maxMotorForce = def->maxMotorForce;
	return tbMakeJointId( world, joint );
}

static void tbPrepareSlider( tbStepContext* ctx, tbJoint* joint )
{
	TB_UNUSED( ctx );
	tbSliderJointData* s = &joint->slider;
	if ( s->enableLimit == false )
	{
		s->lowerImpulse = 0.0f;
		s->upperImpulse = 0.0f;
	}
	if ( s->enableMotor == false )
	{
		s->motorImpulse = 0.0f;
	}
}

void tbMakeSliderRows( const tbJointPose* p, tbSliderRows* rows )
{
	rows->axis = tbRotate( p->qA, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
	rows->axial = tbLinearAxisRow( p, rows->axis );
	rows->normal[0] = tbLinearAxisRow( p, tbRotate( p->qA, tbMakeVec3( 0.0f, 1.0f, 0.0f ) ) );
	rows->normal[1] = tbLinearAxisRow( p, tbRotate( p->qA, tbMakeVec3( 0.0f, 0.0f, 1.0f ) ) );
	rows->lock[0] = tbMakeVec3( 1.0f, 0.0f, 0.0f );
	rows->lock[1] = tbMakeVec3( 0.0f, 1.0f, 0.0f );
	rows->lock[2] = tbMakeVec3( 0.0f, 0.0f, 1.0f );
}

static void tbWarmStartSlider( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbSliderJointData* s = &joint->slider;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbSliderRows rows;
	tbMakeSliderRows( &p, &rows );
	tbRowApply( m, &rows.axial, s->motorImpulse + s->lowerImpulse - s->upperImpulse );
	tbVec3 angular = tbMulSV( s->angularImpulse.x, rows.lock[0] );
	angular = tbMulAdd( angular, s->angularImpulse.y, rows.lock[1] );
	angular = tbMulAdd( angular, s->angularImpulse.z, rows.lock[2] );
	tbApplyAngularImpulse( m, angular );
	tbRowApply( m, rows.normal + 0, s->linearImpulse[0] );
	tbRowApply( m, rows.normal + 1, s->linearImpulse[1] );
}

static void tbSolveSlider( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	tbSliderJointData* s = &joint->slider;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbSliderRows rows;
	tbMakeSliderRows( &p, &rows );
	float translation = tbDot( rows.axis, p.d );

	if ( s->enableMotor )
	{
		tbSolveMotorRow( m, &rows.axial, s->motorSpeed, TB_MAX_SPEED, tbMaxImpulse( s->maxMotorForce, ctx->h ),
						 &s->motorImpulse );
	}
	if ( s->enableLimit )
	{
		tbSolveLimitRow( ctx, m, &rows.axial, translation - s->lowerTranslation, useBias, &s->lowerImpulse );
		tbJointRow upper = tbNegateRow( rows.axial );
		tbSolveLimitRow( ctx, m, &upper, s->upperTranslation - translation, useBias, &s->upperImpulse );
	}

	tbSoftness soft = tbJointSoftness( ctx, useBias );
	tbVec3 lock = tbRotationLockError( &p );
	float angularC[3] = { lock.x, lock.y, lock.z };
	float angular[3] = { s->angularImpulse.x, s->angularImpulse.y, s->angularImpulse.z };
	tbSolveAngularBlock( m, rows.lock, angularC, 3, soft, angular );
	s->angularImpulse = tbMakeVec3( angular[0], angular[1], angular[2] );

	float linearC[2] = { tbDot( rows.normal[0].linearB, p.d ), tbDot( rows.normal[1].linearB, p.d ) };
	tbSolveEqualityBlock( m, rows.normal, linearC, 2, soft, s->linearImpulse );
}

static void tbScaleSlider( tbJoint* joint, float scale )
{
	tbSliderJointData* s = &joint->slider;
	s->linearImpulse[0] *= scale;
	s->linearImpulse[1] *= scale;
	s->angularImpulse = tbMulSV( scale, s->angularImpulse );
	s->lowerImpulse *= scale;
	s->upperImpulse *= scale;
	s->motorImpulse *= scale;
}

static void tbReactionSlider( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	const tbSliderJointData* s = &joint->slider;
	tbJointPose p;
	tbComputeJointStartPose( joint, &p );
	tbVec3 f = tbMulSV( s->motorImpulse + s->lowerImpulse - s->upperImpulse, tbRotate( p.qA, tbMakeVec3( 1, 0, 0 ) ) );
	f = tbMulAdd( f, s->linearImpulse[0], tbRotate( p.qA, tbMakeVec3( 0, 1, 0 ) ) );
	f = tbMulAdd( f, s->linearImpulse[1], tbRotate( p.qA, tbMakeVec3( 0, 0, 1 ) ) );
	*linear = f;
	// The lock rows are the world axes: the accumulated impulses are the angular impulse itself.
	*angular = s->angularImpulse;
}

static void tbErrorSlider( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	const tbSliderJointData* s = &joint->slider;
	tbVec3 axis = tbRotate( p->qA, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
	float t = tbDot( axis, p->d );
	tbVec3 off = tbMulSub( p->d, t, axis );
	float excess = 0.0f;
	if ( s->enableLimit )
	{
		excess = tbMaxFloat( s->lowerTranslation - t, tbMaxFloat( t - s->upperTranslation, 0.0f ) );
	}
	*linear = tbLength( off ) + excess;
	*angular = tbQuatAngle( p->qRel );
}

const tbJointClass tb_sliderJointClass = {
	tbPrepareSlider, tbWarmStartSlider, tbSolveSlider, tbScaleSlider, tbReactionSlider, tbErrorSlider, NULL, "slider",
};

// Parameters (the shared field setters of joint.h) -------------------------------------------------

#define TB_SLIDER_FLOAT( member ) tbJoint_slider, TB_JOINT_FLOAT( slider.member )
#define TB_SLIDER_BOOL( member ) tbJoint_slider, TB_JOINT_BOOL( slider.member )

tbResult tbSliderJoint_EnableLimit( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_SLIDER_BOOL( enableLimit ), enable );
}

bool tbSliderJoint_IsLimitEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_SLIDER_BOOL( enableLimit ) );
}

tbResult tbSliderJoint_SetLimits( tbJointId jointId, float lower, float upper )
{
	return tbSetJointFloats( jointId, TB_SLIDER_FLOAT( lowerTranslation ), lower, TB_JOINT_FLOAT( slider.upperTranslation ),
							 upper, tbIsValidRange( lower, upper ) );
}

float tbSliderJoint_GetLowerLimit( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_SLIDER_FLOAT( lowerTranslation ) );
}

float tbSliderJoint_GetUpperLimit( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_SLIDER_FLOAT( upperTranslation ) );
}

tbResult tbSliderJoint_EnableMotor( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_SLIDER_BOOL( enableMotor ), enable );
}

bool tbSliderJoint_IsMotorEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_SLIDER_BOOL( enableMotor ) );
}

tbResult tbSliderJoint_SetMotorSpeed( tbJointId jointId, float speed )
{
	return tbSetJointFloat( jointId, TB_SLIDER_FLOAT( motorSpeed ), speed, tbIsFinite( speed ) );
}

float tbSliderJoint_GetMotorSpeed( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_SLIDER_FLOAT( motorSpeed ) );
}

tbResult tbSliderJoint_SetMaxMotorForce( tbJointId jointId, float force )
{
	return tbSetJointFloat( jointId, TB_SLIDER_FLOAT( maxMotorForce ), force, tbIsValidForce( force ) );
}

float tbSliderJoint_GetMaxMotorForce( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_SLIDER_FLOAT( maxMotorForce ) );
}

float tbSliderJoint_GetMotorForce( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_slider, NULL );
	return joint != NULL && joint->impulseH > 0.0f ? joint->slider.motorImpulse / joint->impulseH : 0.0f;
}

float tbSliderJoint_GetTranslation( tbJointId jointId )
{
	return tbJointAxisTranslation( jointId, tbJoint_slider, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
}

float tbSliderJoint_GetSpeed( tbJointId jointId )
{
	return tbJointAxisSpeed( jointId, tbJoint_slider, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
}
