// Tumble physics: distance joint (rod, rope, spring).
//
// 000 ch. 8 constrains C = |pB - pA|^2 with J = (2 (pA - pB), 2 rA x (pA - pB), 2 (pB - pA),
// 2 rB x (pB - pA)). We use the length itself, C = |d| - L with d = pB - pA and n = d / |d|:
// Cdot = n . (vB + wB x rB - vA - wA x rA), so J = (-n, -(rA x n), n, rB x n). It is the book's
// row divided by 2 |d|, which keeps the effective mass and the bias in metres and m/s (the squared
// form's bias grows with the length). The book's test scene attaches the bodies with zero length;
// there n is undefined, so a rigid zero-length rod is solved as the point constraint (ball joint)
// it describes. Limits (rope) are inequality rows on the same Jacobian (004 sec. 3.7.3, "angle
// limits", applied to a length); the spring is a soft row (soft constraints, see solver.h).
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "body.h"
#include "core.h"
#include "world.h"

#include <float.h>

// Below this rest length a rigid rod is a point constraint, m.
#define TB_MIN_ROD_LENGTH 1.0e-4f

tbDistanceJointDef tbDefaultDistanceJointDef( void )
{
	tbDistanceJointDef def;
	def.base = tbMakeDefaultJointDef();
	def.length = 1.0f;
	def.enableSpring = false;
	def.hertz = 0.0f;
	def.dampingRatio = 0.0f;
	def.stiffness = 0.0f;
	def.damping = 0.0f;
	def.enableLimit = false;
	def.minLength = 0.0f;
	def.maxLength = FLT_MAX;
	return def;
}

// maxLength: any non-negative value (FLT_MAX = unlimited; a huge maximum is only ever slack).
static bool tbIsValidLength( float x )
{
	return !isnan( x ) && x >= 0.0f;
}

// length and minLength: their error enters the rows as a position error, so they stay within the
// world's coordinate range (TB_MAX_JOINT_LENGTH). FLT_MAX there made the spring's bias infinite.
static bool tbIsValidRestLength( float x )
{
	return tbIsValidLength( x ) && x <= TB_MAX_JOINT_LENGTH;
}

tbJointId tbCreateDistanceJoint( tbWorldId worldId, const tbDistanceJointDef* def, tbResult* result )
{
	if ( def == NULL || !tbIsValidRestLength( def->length ) || !tbIsValidRestLength( def->minLength ) ||
		 !tbIsValidLength( def->maxLength ) || def->minLength > def->maxLength || !tbIsFinite( def->hertz ) ||
		 def->hertz < 0.0f || !tbIsFinite( def->dampingRatio ) || def->dampingRatio < 0.0f ||
		 !tbIsInRange( def->stiffness, 0.0f, TB_MAX_FORCE ) || !tbIsInRange( def->damping, 0.0f, TB_MAX_FORCE ) )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_distance, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	tbDistanceJointData* d = &joint->distance;
	d->length = def->length;
	d->minLength = def->minLength;
	d->maxLength = def->maxLength;
	d->hertz = def->hertz;
	d->dampingRatio = def->dampingRatio;
	d->stiffness = def->stiffness;
	d->damping = def->damping;
	d->enableSpring = def->enableSpring;
	d->enableLimit = def->enableLimit;
	d->axis = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	return tbMakeJointId( world, joint );
}

// Rigid rod when there is no spring and the limits (if any) leave no slack.
bool tbDistanceIsRigid( const tbDistanceJointData* d )
{
	return d->enableSpring == false && ( d->enableLimit == false || d->minLength >= d->maxLength );
}

float tbDistanceRodLength( const tbDistanceJointData* d )
{
	return d->enableLimit ? d->minLength : d->length;
}

bool tbDistanceIsPointMode( const tbDistanceJointData* d )
{
	return tbDistanceIsRigid( d ) && tbDistanceRodLength( d ) < TB_MIN_ROD_LENGTH;
}

// Axis of the rod; keeps the last good axis when the anchors meet.
tbVec3 tbDistanceAxis( tbJoint* joint, const tbJointPose* p, float* length )
{
	tbVec3 n = tbGetLengthAndNormalize( length, p->d );
	if ( *length < 1.0e-6f )
	{
		return joint->distance.axis;
	}
	joint->distance.axis = n;
	return n;
}

tbJointRow tbDistanceRow( const tbJointPose* p, tbVec3 n )
{
	tbJointRow J = { tbNeg( n ), tbNeg( tbCross( p->rA, n ) ), n, tbCross( p->rB, n ) };
	return J;
}

// A spring that pulls: one in Hz, or one in N/m.
bool tbDistanceHasSpringForce( const tbDistanceJointData* d )
{
	return d->enableSpring && ( d->hertz > 0.0f || d->stiffness > 0.0f );
}

// The spring's soft row. In N/m it becomes a frequency of the row's effective mass m (the same
// mass the hertz form is stated in): k = m w^2 and c = 2 zeta m w, so w = sqrt(k / m) and
// zeta = c / (2 sqrt(k m)).
tbSoftness tbDistanceSpringSoftness( const tbStepContext* ctx, tbDistanceJointData* d, const tbJointMotion* m,
									 const tbJointRow* J )
{
	if ( d->stiffness <= 0.0f )
	{
		return d->springSoftness;
	}
	float inverseMass = tbRowCoupling( m, J, J );
	if ( inverseMass <= 0.0f )
	{
		return d->springSoftness;
	}
	float mass = 1.0f / inverseMass;
	float omega = sqrtf( d->stiffness / mass );
	float zeta = d->damping / ( 2.0f * sqrtf( d->stiffness * mass ) );
	tbSoftness soft = tbMakeSoft( omega / ( 2.0f * TB_PI ), zeta, ctx->h );
	float maxSpeed = ctx->world->def.maxLinearSpeed;
	d->maxSpringError = soft.biasRate * FLT_MAX > maxSpeed ? maxSpeed / soft.biasRate : FLT_MAX;
	return soft;
}

static void tbPrepareDistance( tbStepContext* ctx, tbJoint* joint )
{
	tbDistanceJointData* d = &joint->distance;
	// tbMakeSoft caps the frequency where the spring is rigid to float precision (fuzz finding 32).
	d->springSoftness = tbMakeSoft( d->hertz, d->dampingRatio, ctx->h );
	// A spring never asks for more than the world's speed limit (bodies are clamped to it anyway):
	// a spring stretched by ~1e6 m asks for ~1e8 m/s, and the rope limit that holds it would have to
	// cancel that in float, leaving metres per second of rounding (the body escaped the rope).
	float biasRate = d->springSoftness.biasRate;
	float maxSpeed = ctx->world->def.maxLinearSpeed;
	d->maxSpringError = biasRate * FLT_MAX > maxSpeed ? maxSpeed / biasRate : FLT_MAX;
	if ( tbDistanceIsPointMode( d ) )
	{
		d->impulse = 0.0f;
	}
	else
	{
		d->pointImpulse = tb_vec3_zero;
	}
	if ( d->enableSpring && tbDistanceHasSpringForce( d ) == false )
	{
		d->impulse = 0.0f;
	}
	if ( d->enableLimit == false || tbDistanceIsRigid( d ) )
	{
		d->lowerImpulse = 0.0f;
		d->upperImpulse = 0.0f;
	}
}

static void tbWarmStartDistance( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbDistanceJointData* d = &joint->distance;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	if ( tbDistanceIsPointMode( d ) )
	{
		tbApplyPointImpulse( m, &p, d->pointImpulse );
		return;
	}
	float length;
	tbVec3 n = tbDistanceAxis( joint, &p, &length );
	tbJointRow J = tbDistanceRow( &p, n );
	tbRowApply( m, &J, d->impulse + d->lowerImpulse - d->upperImpulse );
}

static void tbSolveDistance( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	tbDistanceJointData* d = &joint->distance;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	if ( tbDistanceIsPointMode( d ) )
	{
		tbSolvePointBlock( m, &p, tbJointSoftness( ctx, useBias ), &d->pointImpulse );
		return;
	}
	float length;
	tbVec3 n = tbDistanceAxis( joint, &p, &length );
	tbJointRow J = tbDistanceRow( &p, n );

	if ( tbDistanceIsRigid( d ) )
	{
		tbSolveEqualityRow( m, &J, length - tbDistanceRodLength( d ), tbJointSoftness( ctx, useBias ), &d->impulse );
		return;
	}

	// The spring acts in every pass: it is a force law, not position correction.
	if ( tbDistanceHasSpringForce( d ) )
	{
		tbSoftness soft = tbDistanceSpringSoftness( ctx, d, m, &J );
		float stretch = tbClampFloat( length - d->length, -d->maxSpringError, d->maxSpringError );
		tbSolveSpringRow( m, &J, stretch, soft, FLT_MAX, &d->impulse );
	}
	if ( d->enableLimit )
	{
		if ( d->minLength > 0.0f )
		{
			tbSolveLimitRow( ctx, m, &J, length - d->minLength, useBias, &d->lowerImpulse );
		}
		if ( d->maxLength < FLT_MAX )
		{
			tbJointRow K = tbNegateRow( J );
			tbSolveLimitRow( ctx, m, &K, d->maxLength - length, useBias, &d->upperImpulse );
		}
	}
}

static void tbScaleDistance( tbJoint* joint, float scale )
{
	tbDistanceJointData* d = &joint->distance;
	d->impulse *= scale;
	d->lowerImpulse *= scale;
	d->upperImpulse *= scale;
	d->pointImpulse = tbMulSV( scale, d->pointImpulse );
}

static void tbReactionDistance( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	const tbDistanceJointData* d = &joint->distance;
	*linear = tbMulAdd( d->pointImpulse, d->impulse + d->lowerImpulse - d->upperImpulse, d->axis );
	*angular = tb_vec3_zero;
}

static void tbErrorDistance( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	const tbDistanceJointData* d = &joint->distance;
	float length = tbLength( p->d );
	*angular = 0.0f;
	if ( tbDistanceIsRigid( d ) )
	{
		*linear = tbAbsFloat( length - tbDistanceRodLength( d ) );
		return;
	}
	*linear = 0.0f;
	if ( d->enableLimit )
	{
		*linear = tbMaxFloat( d->minLength - length, tbMaxFloat( length - d->maxLength, 0.0f ) );
	}
}

const tbJointClass tb_distanceJointClass = {
	tbPrepareDistance, tbWarmStartDistance, tbSolveDistance, tbScaleDistance,
	tbReactionDistance, tbErrorDistance, NULL, "distance",
};

// Parameters --------------------------------------------------------------------------------------

static tbDistanceJointData* tbGetDistance( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_distance, NULL );
	return joint != NULL ? &joint->distance : NULL;
}

static tbResult tbMutableDistance( tbJointId jointId, tbWorld** world, tbJoint** joint )
{
	return tbGetMutableJoint( jointId, tbJoint_distance, world, joint );
}

tbResult tbDistanceJoint_SetLength( tbJointId jointId, float length )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbMutableDistance( jointId, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsValidRestLength( length ) )
	{
		return tbResult_invalidArgument;
	}
	joint->distance.length = length;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbDistanceJoint_GetLength( tbJointId jointId )
{
	tbDistanceJointData* d = tbGetDistance( jointId );
	return d != NULL ? d->length : 0.0f;
}

tbResult tbDistanceJoint_EnableLimit( tbJointId jointId, bool enable )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbMutableDistance( jointId, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	joint->distance.enableLimit = enable;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

bool tbDistanceJoint_IsLimitEnabled( tbJointId jointId )
{
	tbDistanceJointData* d = tbGetDistance( jointId );
	return d != NULL && d->enableLimit;
}

tbResult tbDistanceJoint_SetLengthRange( tbJointId jointId, float minLength, float maxLength )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbMutableDistance( jointId, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsValidRestLength( minLength ) || !tbIsValidLength( maxLength ) || minLength > maxLength )
	{
		return tbResult_invalidArgument;
	}
	joint->distance.minLength = minLength;
	joint->distance.maxLength = maxLength;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbDistanceJoint_GetMinLength( tbJointId jointId )
{
	tbDistanceJointData* d = tbGetDistance( jointId );
	return d != NULL ? d->minLength : 0.0f;
}

float tbDistanceJoint_GetMaxLength( tbJointId jointId )
{
	tbDistanceJointData* d = tbGetDistance( jointId );
	return d != NULL ? d->maxLength : 0.0f;
}

tbResult tbDistanceJoint_EnableSpring( tbJointId jointId, bool enable )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbMutableDistance( jointId, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	joint->distance.enableSpring = enable;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

bool tbDistanceJoint_IsSpringEnabled( tbJointId jointId )
{
	tbDistanceJointData* d = tbGetDistance( jointId );
	return d != NULL && d->enableSpring;
}

tbResult tbDistanceJoint_SetSpringHertz( tbJointId jointId, float hertz )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbMutableDistance( jointId, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsInRange( hertz, 0.0f, TB_MAX_HERTZ ) )
	{
		return tbResult_invalidArgument;
	}
	joint->distance.hertz = hertz;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbDistanceJoint_GetSpringHertz( tbJointId jointId )
{
	tbDistanceJointData* d = tbGetDistance( jointId );
	return d != NULL ? d->hertz : 0.0f;
}

tbResult tbDistanceJoint_SetSpringDampingRatio( tbJointId jointId, float dampingRatio )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbMutableDistance( jointId, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsFinite( dampingRatio ) || dampingRatio < 0.0f )
	{
		return tbResult_invalidArgument;
	}
	joint->distance.dampingRatio = dampingRatio;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbDistanceJoint_GetSpringDampingRatio( tbJointId jointId )
{
	tbDistanceJointData* d = tbGetDistance( jointId );
	return d != NULL ? d->dampingRatio : 0.0f;
}

tbResult tbDistanceJoint_SetSpringStiffness( tbJointId jointId, float stiffness, float damping )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbMutableDistance( jointId, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsInRange( stiffness, 0.0f, TB_MAX_FORCE ) || !tbIsInRange( damping, 0.0f, TB_MAX_FORCE ) )
	{
		return tbResult_invalidArgument;
	}
	joint->distance.stiffness = stiffness;
	joint->distance.damping = damping;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbDistanceJoint_GetSpringStiffness( tbJointId jointId )
{
	tbDistanceJointData* d = tbGetDistance( jointId );
	return d != NULL ? d->stiffness : 0.0f;
}

float tbDistanceJoint_GetSpringDamping( tbJointId jointId )
{
	tbDistanceJointData* d = tbGetDistance( jointId );
	return d != NULL ? d->damping : 0.0f;
}

float tbDistanceJoint_GetCurrentLength( tbJointId jointId )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_distance, &world );
	if ( joint == NULL )
	{
		return 0.0f;
	}
	tbJointPose p;
	tbComputeJointBodyPose( world, joint, &p );
	return tbLength( p.d );
}
