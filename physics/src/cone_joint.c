// Tumble physics: constant-velocity / cone-twist joint.
//
// Point rows as in ball_joint.c. The joint frame's x axis is the twist axis (the bone of a limb,
// the shaft of a CV coupling). qRel = conj(qA) qB splits into swing * twist, twist about x.
// - Twist (000 ch. 19): the CV joint keeps C = qRel.x = 0 with J = a_x (tbQuatRowAxis). We use the
//   twist angle t = 2 atan2(qRel.x, qRel.w) itself, with its exact Jacobian t' = a_t . (wB - wA)
//   (tbTwistAxis), so a twist range lower <= t <= upper is two inequality rows (the book's CV
//   joint is lower = upper = 0, solved as one equality row).
// - Cone limit: the swing angle s between the two frames' x axes xA, xB obeys
//   d(cos s)/dt = -(wB - wA) . (xA x xB), so s' = n . (wB - wA) with n = xA x xB / sin s; the row
//   C = coneAngle - s >= 0 has J = (0, n, 0, -n).
// - Pyramid limit (000 ch. 20): the book limits the quaternion components on the two
//   perpendicular axes, |qRel.y| <= sin(maxSwingY / 2), |qRel.z| <= sin(maxSwingZ / 2), with
//   J = a_y, a_z, applying each row only in its restoring direction; the rows are rescaled to keep
//   their length near a half turn (tbQuatRowAxis, joint.h).
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "core.h"
#include "world.h"

#include <float.h>


tbConeJointDef tbDefaultConeJointDef( void )
{
	tbConeJointDef def;
	def.base = tbMakeDefaultJointDef();
	def.enableConeLimit = false;
	def.coneAngle = 0.25f * TB_PI;
	def.enablePyramidLimit = false;
	def.maxSwingY = 0.25f * TB_PI;
	def.maxSwingZ = 0.25f * TB_PI;
	def.enableTwistLimit = true;
	def.lowerTwist = 0.0f;
	def.upperTwist = 0.0f;
	return def;
}

static bool tbIsValidSwing( float x )
{
	return tbIsFinite( x ) && x > 0.0f && x <= TB_PI + 1.0e-5f;
}

static bool tbIsValidTwistRange( float lower, float upper )
{
	return tbIsFinite( lower ) && tbIsFinite( upper ) && lower <= upper && lower >= -TB_PI - 1.0e-5f &&
		   upper <= TB_PI + 1.0e-5f;
}

tbJointId tbCreateConeJoint( tbWorldId worldId, const tbConeJointDef* def, tbResult* result )
{
	if ( def == NULL || !tbIsValidSwing( def->coneAngle ) || !tbIsValidSwing( def->maxSwingY ) ||
		 !tbIsValidSwing( def->maxSwingZ ) || !tbIsValidTwistRange( def->lowerTwist, def->upperTwist ) )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_cone, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	tbConeJointData* c = &joint->cone;
	c->enableConeLimit = def->enableConeLimit;
	c->coneAngle = def->coneAngle;
	c->enablePyramidLimit = def->enablePyramidLimit;
	c->maxSwingY = def->maxSwingY;
	c->maxSwingZ = def->maxSwingZ;
	c->enableTwistLimit = def->enableTwistLimit;
	c->lowerTwist = def->lowerTwist;
	c->upperTwist = def->upperTwist;
	return tbMakeJointId( world, joint );
}


// Direction that increases the swing angle, (xA x xB) / |xA x xB|; any perpendicular of xA when
// the axes are (anti)parallel.
static tbVec3 tbSwingDirection( const tbJointPose* p )
{
	tbVec3 xA = tbRotate( p->qA, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
	tbVec3 xB = tbRotate( p->qB, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
	tbVec3 n = tbCross( xA, xB );
	float len = tbLength( n );
	if ( len < 1.0e-6f )
	{
		// Parallel: the swing rotation axis of qRel, or any perpendicular.
		tbVec3 local = { 0.0f, p->qRel.y, p->qRel.z };
		if ( tbLengthSquared( local ) < 1.0e-12f )
		{
			return tbRotate( p->qA, tbMakeVec3( 0.0f, 1.0f, 0.0f ) );
		}
		return tbRotate( p->qA, tbNormalize( local ) );
	}
	return tbMulSV( 1.0f / len, n );
}

static void tbPrepareCone( tbStepContext* ctx, tbJoint* joint )
{
	TB_UNUSED( ctx );
	tbConeJointData* c = &joint->cone;
	if ( c->enableConeLimit == false )
	{
		c->coneImpulse = 0.0f;
	}
	if ( c->enablePyramidLimit == false )
	{
		c->pyramidLowerImpulse[0] = c->pyramidLowerImpulse[1] = 0.0f;
		c->pyramidUpperImpulse[0] = c->pyramidUpperImpulse[1] = 0.0f;
	}
	if ( tbIsConeTwistLocked( c ) == false )
	{
		c->twistImpulse = 0.0f;
	}
	if ( c->enableTwistLimit == false || tbIsConeTwistLocked( c ) )
	{
		c->twistLowerImpulse = 0.0f;
		c->twistUpperImpulse = 0.0f;
	}
}

// The rows' Jacobians and masses for the sub-step (joint.h, prepared rows); the angles are measured
// again in every pass.
static void tbRefreshCone( tbStepContext* ctx, tbJoint* joint, const tbJointPose* p )
{
	TB_UNUSED( ctx );
	tbConeJointData* c = &joint->cone;
	tbPreparePoint( joint );
	c->twist = tbMakeAngularAxis( joint, c->enableTwistLimit ? tbTwistAxis( p ) : tb_vec3_zero );
	c->swing = tbMakeAngularAxis( joint, c->enableConeLimit ? tbNeg( tbSwingDirection( p ) ) : tb_vec3_zero );
	for ( int i = 0; i < 2; ++i )
	{
		c->pyramid[i] = tbMakeAngularAxis( joint, c->enablePyramidLimit ? tbQuatRowAxis( p, i + 1 ) : tb_vec3_zero );
	}
}

static tbVec3 tbConeAngularImpulse( const tbConeJointData* c )
{
	tbVec3 t = tbMulSV( c->twistImpulse + c->twistLowerImpulse - c->twistUpperImpulse, c->twist.axis );
	t = tbMulAdd( t, c->coneImpulse, c->swing.axis );
	for ( int i = 0; i < 2; ++i )
	{
		t = tbMulAdd( t, c->pyramidLowerImpulse[i] - c->pyramidUpperImpulse[i], c->pyramid[i].axis );
	}
	return t;
}

static void tbWarmStartCone( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbConeJointData* c = &joint->cone;
	tbApplyAngularImpulse( m, tbConeAngularImpulse( c ) );
	tbApplyPreparedPointImpulse( m, joint, c->linearImpulse );
}

static void tbSolveCone( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	tbConeJointData* c = &joint->cone;
	tbJointPose* p = &joint->pose;
	tbSoftness soft = tbJointSoftness( ctx, useBias );

	if ( c->enableTwistLimit )
	{
		float angle = tbPoseTwist( p );
		if ( tbIsConeTwistLocked( c ) )
		{
			float target = 0.5f * ( c->lowerTwist + c->upperTwist );
			tbSolveAngularEquality( m, &c->twist, tbWrapAngle( angle - target ), soft, &c->twistImpulse );
		}
		else
		{
			tbSolveAngularLimit( ctx, m, &c->twist, 1.0f, angle - c->lowerTwist, useBias, &c->twistLowerImpulse );
			tbSolveAngularLimit( ctx, m, &c->twist, -1.0f, c->upperTwist - angle, useBias, &c->twistUpperImpulse );
		}
	}

	if ( c->enablePyramidLimit )
	{
		float limits[2] = { sinf( 0.5f * c->maxSwingY ), sinf( 0.5f * c->maxSwingZ ) };
		float comps[2] = { p->qRel.y, p->qRel.z };
		for ( int i = 0; i < 2; ++i )
		{
			tbSolveAngularLimit( ctx, m, &c->pyramid[i], 1.0f, comps[i] + limits[i], useBias,
								 &c->pyramidLowerImpulse[i] );
			tbSolveAngularLimit( ctx, m, &c->pyramid[i], -1.0f, limits[i] - comps[i], useBias,
								 &c->pyramidUpperImpulse[i] );
		}
	}

	if ( c->enableConeLimit )
	{
		float swing = tbPoseSwing( p );
		tbSolveAngularLimit( ctx, m, &c->swing, 1.0f, c->coneAngle - swing, useBias, &c->coneImpulse );
	}

	tbSolvePoint( m, joint, p->d, soft, &c->linearImpulse );
}

static void tbScaleCone( tbJoint* joint, float scale )
{
	tbConeJointData* c = &joint->cone;
	c->linearImpulse = tbMulSV( scale, c->linearImpulse );
	c->coneImpulse *= scale;
	for ( int i = 0; i < 2; ++i )
	{
		c->pyramidLowerImpulse[i] *= scale;
		c->pyramidUpperImpulse[i] *= scale;
	}
	c->twistImpulse *= scale;
	c->twistLowerImpulse *= scale;
	c->twistUpperImpulse *= scale;
}

static void tbReactionCone( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	*linear = joint->cone.linearImpulse;
	*angular = tbConeAngularImpulse( &joint->cone );
}

static void tbErrorCone( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	const tbConeJointData* c = &joint->cone;
	*linear = tbLength( p->d );
	float excess = 0.0f;
	if ( c->enableConeLimit )
	{
		excess = tbMaxFloat( excess, tbSwingAngle( p->qRel ) - c->coneAngle );
	}
	if ( c->enablePyramidLimit )
	{
		float sy = 2.0f * asinf( tbClampFloat( p->qRel.y, -1.0f, 1.0f ) );
		float sz = 2.0f * asinf( tbClampFloat( p->qRel.z, -1.0f, 1.0f ) );
		excess = tbMaxFloat( excess, tbAbsFloat( sy ) - c->maxSwingY );
		excess = tbMaxFloat( excess, tbAbsFloat( sz ) - c->maxSwingZ );
	}
	if ( c->enableTwistLimit )
	{
		float t = tbTwistAngle( p->qRel );
		excess = tbMaxFloat( excess, tbMaxFloat( c->lowerTwist - t, t - c->upperTwist ) );
	}
	*angular = tbMaxFloat( excess, 0.0f );
}

const tbJointClass tb_coneJointClass = {
	tbPrepareCone, tbWarmStartCone, tbSolveCone, tbScaleCone, tbReactionCone, tbErrorCone, tbRefreshCone, "cone",
};

// Parameters (the shared field setters of joint.h) -------------------------------------------------

#define TB_CONE_FLOAT( member ) tbJoint_cone, TB_JOINT_FLOAT( cone.member )
#define TB_CONE_BOOL( member ) tbJoint_cone, TB_JOINT_BOOL( cone.member )

tbResult tbConeJoint_EnableConeLimit( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_CONE_BOOL( enableConeLimit ), enable );
}

bool tbConeJoint_IsConeLimitEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_CONE_BOOL( enableConeLimit ) );
}

tbResult tbConeJoint_SetConeAngle( tbJointId jointId, float angle )
{
	return tbSetJointFloat( jointId, TB_CONE_FLOAT( coneAngle ), angle, tbIsValidSwing( angle ) );
}

float tbConeJoint_GetConeAngle( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_CONE_FLOAT( coneAngle ) );
}

tbResult tbConeJoint_EnablePyramidLimit( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_CONE_BOOL( enablePyramidLimit ), enable );
}

bool tbConeJoint_IsPyramidLimitEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_CONE_BOOL( enablePyramidLimit ) );
}

tbResult tbConeJoint_SetPyramidLimits( tbJointId jointId, float maxSwingY, float maxSwingZ )
{
	return tbSetJointFloats( jointId, TB_CONE_FLOAT( maxSwingY ), maxSwingY, TB_JOINT_FLOAT( cone.maxSwingZ ), maxSwingZ,
							 tbIsValidSwing( maxSwingY ) && tbIsValidSwing( maxSwingZ ) );
}

float tbConeJoint_GetMaxSwingY( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_CONE_FLOAT( maxSwingY ) );
}

float tbConeJoint_GetMaxSwingZ( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_CONE_FLOAT( maxSwingZ ) );
}

tbResult tbConeJoint_EnableTwistLimit( tbJointId jointId, bool enable )
{
	return tbSetJointBool( jointId, TB_CONE_BOOL( enableTwistLimit ), enable );
}

bool tbConeJoint_IsTwistLimitEnabled( tbJointId jointId )
{
	return tbGetJointBool( jointId, TB_CONE_BOOL( enableTwistLimit ) );
}

tbResult tbConeJoint_SetTwistLimits( tbJointId jointId, float lowerTwist, float upperTwist )
{
	return tbSetJointFloats( jointId, TB_CONE_FLOAT( lowerTwist ), lowerTwist, TB_JOINT_FLOAT( cone.upperTwist ), upperTwist,
							 tbIsValidTwistRange( lowerTwist, upperTwist ) );
}

float tbConeJoint_GetLowerTwist( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_CONE_FLOAT( lowerTwist ) );
}

float tbConeJoint_GetUpperTwist( tbJointId jointId )
{
	return tbGetJointFloat( jointId, TB_CONE_FLOAT( upperTwist ) );
}

static bool tbConePose( tbJointId jointId, tbJointPose* p )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_cone, &world );
	if ( joint == NULL )
	{
		return false;
	}
	tbComputeJointBodyPose( world, joint, p );
	return true;
}

float tbConeJoint_GetSwingAngle( tbJointId jointId )
{
	tbJointPose p;
	return tbConePose( jointId, &p ) ? tbSwingAngle( p.qRel ) : 0.0f;
}

float tbConeJoint_GetTwistAngle( tbJointId jointId )
{
	tbJointPose p;
	return tbConePose( jointId, &p ) ? tbTwistAngle( p.qRel ) : 0.0f;
}
