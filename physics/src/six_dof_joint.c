// Tumble physics: configurable 6-DOF joint (002, "Putting it all together").
//
// Frame A's axes e_0, e_1, e_2 (world, turning with A) carry three translation and three rotation
// axes, each free, limited or fixed, with an optional motor.
// - Translation i: C_i = e_i . d with d = pB - pA (002 "position axis constraint"). Because e_i
//   turns with A, Cdot = e_i . (vB + wB x rB - vA - wA x rA) + (wA x e_i) . d, so
//   J = (-e_i, -(rA + d) x e_i, e_i, rB x e_i) (tbLinearAxisRow; 002 writes -c1 x n, exact when the
//   anchors coincide).
// - Rotation i: C_i = qRel.v_i, the component of conj(qA) qB on axis i (002 "rotation axis
//   constraint" and "angle limit": theta_i = 2 asin(qRel.v_i)), with J = (0, -a_i, 0, a_i),
//   a_i from tbQuatRowAxis. A limit lower <= theta_i <= upper becomes
//   sin(lower / 2) <= qRel.v_i <= sin(upper / 2), monotonic on [-pi, pi].
// - Fixed axes are equality rows, coupled ones solved as a block (004 sec. 3.5); limits are
//   inequality rows active only in their restoring direction (002 "conditional constraints");
//   motors drive the axis rate (e_i . relative velocity or relative angular velocity) with a
//   bounded impulse. 002 corrects drift with a post-solve position "rectify"; here the drift goes
//   through the world's position correction like every other joint.
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "core.h"
#include "world.h"

#include <float.h>

tbSixDofJointDef tbDefaultSixDofJointDef( void )
{
	tbSixDofJointDef def;
	def.base = tbMakeDefaultJointDef();
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		def.mode[i] = tbAxis_fixed;
		def.lower[i] = 0.0f;
		def.upper[i] = 0.0f;
		def.enableMotor[i] = false;
		def.motorSpeed[i] = 0.0f;
		def.maxMotorForce[i] = 0.0f;
	}
	return def;
}

static bool tbIsValidAxisRange( int axis, float lower, float upper )
{
	if ( !tbIsFinite( lower ) || !tbIsFinite( upper ) || lower > upper )
	{
		return false;
	}
	if ( axis >= tbSixDof_rx )
	{
		return lower >= -TB_PI - 1.0e-5f && upper <= TB_PI + 1.0e-5f;
	}
	return true;
}

static bool tbIsValidMotorForce( float x )
{
	return !isnan( x ) && x >= 0.0f;
}

tbJointId tbCreateSixDofJoint( tbWorldId worldId, const tbSixDofJointDef* def, tbResult* result )
{
	if ( def == NULL )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		if ( (unsigned)def->mode[i] >= (unsigned)tbAxis_modeCount || !tbIsValidAxisRange( i, def->lower[i], def->upper[i] ) ||
			 !tbIsFinite( def->motorSpeed[i] ) || !tbIsValidMotorForce( def->maxMotorForce[i] ) )
		{
			return tbFailJointCreation( result, tbResult_invalidArgument );
		}
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_sixDof, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	tbSixDofJointData* s = &joint->sixDof;
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		s->mode[i] = def->mode[i];
		s->lower[i] = def->lower[i];
		s->upper[i] = def->upper[i];
		s->enableMotor[i] = def->enableMotor[i];
		s->motorSpeed[i] = def->motorSpeed[i];
		s->maxMotorForce[i] = def->maxMotorForce[i];
	}
	return tbMakeJointId( world, joint );
}

static void tbPrepareSixDof( tbStepContext* ctx, tbJoint* joint )
{
	TB_UNUSED( ctx );
	tbSixDofJointData* s = &joint->sixDof;
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		if ( s->mode[i] != tbAxis_fixed )
		{
			s->fixedImpulse[i] = 0.0f;
		}
		if ( s->mode[i] != tbAxis_limited )
		{
			s->lowerImpulse[i] = 0.0f;
			s->upperImpulse[i] = 0.0f;
		}
		if ( s->enableMotor[i] == false )
		{
			s->motorImpulse[i] = 0.0f;
		}
	}
}

typedef struct tbSixDofRows
{
	tbVec3 axis[3];              ///< frame A axes, world
	tbJointRow row[6];           ///< constraint rows: 3 translations, 3 quaternion components
	tbJointRow motor[6];         ///< motor rows: translations as above, rotations about axis[i]
	float position[6];           ///< e_i . d, and qRel.v_i for rotations
} tbSixDofRows;

static void tbMakeSixDofRows( const tbJointPose* p, tbSixDofRows* r )
{
	float comps[3] = { p->qRel.x, p->qRel.y, p->qRel.z };
	for ( int i = 0; i < 3; ++i )
	{
		tbVec3 e = tbMakeVec3( i == 0 ? 1.0f : 0.0f, i == 1 ? 1.0f : 0.0f, i == 2 ? 1.0f : 0.0f );
		r->axis[i] = tbRotate( p->qA, e );
		r->row[i] = tbLinearAxisRow( p, r->axis[i] );
		r->motor[i] = r->row[i];
		r->position[i] = tbDot( r->axis[i], p->d );
		r->row[i + 3] = tbAngularRow( tbQuatRowAxis( p, i ) );
		r->motor[i + 3] = tbAngularRow( r->axis[i] );
		r->position[i + 3] = comps[i];
	}
}

static tbJointRow tbNegRow( tbJointRow J )
{
	tbJointRow K = { tbNeg( J.linearA ), tbNeg( J.angularA ), tbNeg( J.linearB ), tbNeg( J.angularB ) };
	return K;
}

// Limits in the units of the row's C: metres, or sin(angle / 2) for rotations.
static float tbAxisLimit( int axis, float value )
{
	return axis >= tbSixDof_rx ? sinf( 0.5f * value ) : value;
}

static void tbWarmStartSixDof( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbSixDofJointData* s = &joint->sixDof;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbSixDofRows r;
	tbMakeSixDofRows( &p, &r );
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		tbRowApply( m, r.motor + i, s->motorImpulse[i] );
		tbRowApply( m, r.row + i, s->fixedImpulse[i] + s->lowerImpulse[i] - s->upperImpulse[i] );
	}
}

// Fixed axes of one group (translations or rotations): one row alone, two or three as a block.
static void tbSolveFixedGroup( tbJointMotion* m, tbSixDofJointData* s, const tbSixDofRows* r, int first,
							   tbSoftness soft )
{
	tbJointRow rows[3];
	float C[3];
	float impulses[3];
	int index[3];
	int n = 0;
	for ( int i = first; i < first + 3; ++i )
	{
		if ( s->mode[i] == tbAxis_fixed )
		{
			rows[n] = r->row[i];
			C[n] = r->position[i];
			impulses[n] = s->fixedImpulse[i];
			index[n] = i;
			n += 1;
		}
	}
	if ( n == 1 )
	{
		tbSolveEqualityRow( m, rows, C[0], soft, impulses );
	}
	else if ( n > 1 )
	{
		tbSolveEqualityBlock( m, rows, C, n, soft, impulses );
	}
	for ( int k = 0; k < n; ++k )
	{
		s->fixedImpulse[index[k]] = impulses[k];
	}
}

static void tbSolveSixDof( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	tbSixDofJointData* s = &joint->sixDof;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbSixDofRows r;
	tbMakeSixDofRows( &p, &r );

	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		if ( s->enableMotor[i] && s->mode[i] != tbAxis_fixed )
		{
			tbSolveMotorRow( m, r.motor + i, s->motorSpeed[i], tbMaxImpulse( s->maxMotorForce[i], ctx->h ),
							 &s->motorImpulse[i] );
		}
	}
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		if ( s->mode[i] != tbAxis_limited )
		{
			continue;
		}
		float x = r.position[i];
		tbSolveLimitRow( ctx, m, r.row + i, x - tbAxisLimit( i, s->lower[i] ), useBias, &s->lowerImpulse[i] );
		tbJointRow upper = tbNegRow( r.row[i] );
		tbSolveLimitRow( ctx, m, &upper, tbAxisLimit( i, s->upper[i] ) - x, useBias, &s->upperImpulse[i] );
	}
	tbSoftness soft = tbJointSoftness( ctx, useBias );
	tbSolveFixedGroup( m, s, &r, tbSixDof_rx, soft );
	tbSolveFixedGroup( m, s, &r, tbSixDof_x, soft );
}

static void tbScaleSixDof( tbJoint* joint, float scale )
{
	tbSixDofJointData* s = &joint->sixDof;
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		s->fixedImpulse[i] *= scale;
		s->lowerImpulse[i] *= scale;
		s->upperImpulse[i] *= scale;
		s->motorImpulse[i] *= scale;
	}
}

static void tbReactionSixDof( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	const tbSixDofJointData* s = &joint->sixDof;
	tbJointPose p;
	tbComputeJointStartPose( joint, &p );
	tbSixDofRows r;
	tbMakeSixDofRows( &p, &r );
	tbVec3 f = tb_vec3_zero, t = tb_vec3_zero;
	for ( int i = 0; i < 3; ++i )
	{
		float lin = s->fixedImpulse[i] + s->lowerImpulse[i] - s->upperImpulse[i] + s->motorImpulse[i];
		f = tbMulAdd( f, lin, r.axis[i] );
		float ang = s->fixedImpulse[i + 3] + s->lowerImpulse[i + 3] - s->upperImpulse[i + 3];
		t = tbMulAdd( t, ang, r.row[i + 3].angularB );
		t = tbMulAdd( t, s->motorImpulse[i + 3], r.axis[i] );
	}
	*linear = f;
	*angular = t;
}

// Position on an axis in metres or radians.
static float tbSixDofAxisValue( const tbJointPose* p, int axis )
{
	if ( axis < tbSixDof_rx )
	{
		tbVec3 e = tbMakeVec3( axis == 0 ? 1.0f : 0.0f, axis == 1 ? 1.0f : 0.0f, axis == 2 ? 1.0f : 0.0f );
		return tbDot( tbRotate( p->qA, e ), p->d );
	}
	float comps[3] = { p->qRel.x, p->qRel.y, p->qRel.z };
	return 2.0f * asinf( tbClampFloat( comps[axis - tbSixDof_rx], -1.0f, 1.0f ) );
}

static void tbErrorSixDof( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	const tbSixDofJointData* s = &joint->sixDof;
	float lin = 0.0f, ang = 0.0f;
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		float x = tbSixDofAxisValue( p, i );
		float e = 0.0f;
		if ( s->mode[i] == tbAxis_fixed )
		{
			e = tbAbsFloat( x );
		}
		else if ( s->mode[i] == tbAxis_limited )
		{
			e = tbMaxFloat( s->lower[i] - x, tbMaxFloat( x - s->upper[i], 0.0f ) );
		}
		if ( i < tbSixDof_rx )
		{
			lin += e * e;
		}
		else
		{
			ang += e * e;
		}
	}
	*linear = sqrtf( lin );
	*angular = sqrtf( ang );
}

const tbJointClass tb_sixDofJointClass = {
	tbPrepareSixDof, tbWarmStartSixDof, tbSolveSixDof, tbScaleSixDof, tbReactionSixDof, tbErrorSixDof,
};

// Parameters --------------------------------------------------------------------------------------

static tbSixDofJointData* tbGetSixDof( tbJointId jointId, tbSixDofAxis axis )
{
	if ( (unsigned)axis >= (unsigned)tbSixDof_axisCount )
	{
		return NULL;
	}
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_sixDof, NULL );
	return joint != NULL ? &joint->sixDof : NULL;
}

#define TB_SIXDOF_SETTER( valid )                                                                                      \
	tbWorld* world;                                                                                                    \
	tbJoint* joint;                                                                                                    \
	tbResult r = tbGetMutableJoint( jointId, tbJoint_sixDof, &world, &joint );                                         \
	if ( r != tbResult_ok )                                                                                            \
	{                                                                                                                  \
		return r;                                                                                                      \
	}                                                                                                                  \
	if ( (unsigned)axis >= (unsigned)tbSixDof_axisCount || !( valid ) )                                                \
	{                                                                                                                  \
		return tbResult_invalidArgument;                                                                               \
	}                                                                                                                  \
	tbWakeJointBodies( world, joint );                                                                                 \
	tbSixDofJointData* s = &joint->sixDof

tbResult tbSixDofJoint_SetAxisMode( tbJointId jointId, tbSixDofAxis axis, tbAxisMode mode )
{
	TB_SIXDOF_SETTER( (unsigned)mode < (unsigned)tbAxis_modeCount );
	s->mode[axis] = mode;
	return tbResult_ok;
}

tbAxisMode tbSixDofJoint_GetAxisMode( tbJointId jointId, tbSixDofAxis axis )
{
	tbSixDofJointData* s = tbGetSixDof( jointId, axis );
	return s != NULL ? s->mode[axis] : tbAxis_free;
}

tbResult tbSixDofJoint_SetAxisLimits( tbJointId jointId, tbSixDofAxis axis, float lower, float upper )
{
	TB_SIXDOF_SETTER( tbIsValidAxisRange( (int)axis, lower, upper ) );
	s->lower[axis] = lower;
	s->upper[axis] = upper;
	return tbResult_ok;
}

float tbSixDofJoint_GetAxisLower( tbJointId jointId, tbSixDofAxis axis )
{
	tbSixDofJointData* s = tbGetSixDof( jointId, axis );
	return s != NULL ? s->lower[axis] : 0.0f;
}

float tbSixDofJoint_GetAxisUpper( tbJointId jointId, tbSixDofAxis axis )
{
	tbSixDofJointData* s = tbGetSixDof( jointId, axis );
	return s != NULL ? s->upper[axis] : 0.0f;
}

tbResult tbSixDofJoint_EnableAxisMotor( tbJointId jointId, tbSixDofAxis axis, bool enable )
{
	TB_SIXDOF_SETTER( true );
	s->enableMotor[axis] = enable;
	return tbResult_ok;
}

bool tbSixDofJoint_IsAxisMotorEnabled( tbJointId jointId, tbSixDofAxis axis )
{
	tbSixDofJointData* s = tbGetSixDof( jointId, axis );
	return s != NULL && s->enableMotor[axis];
}

tbResult tbSixDofJoint_SetAxisMotorSpeed( tbJointId jointId, tbSixDofAxis axis, float speed )
{
	TB_SIXDOF_SETTER( tbIsFinite( speed ) );
	s->motorSpeed[axis] = speed;
	return tbResult_ok;
}

float tbSixDofJoint_GetAxisMotorSpeed( tbJointId jointId, tbSixDofAxis axis )
{
	tbSixDofJointData* s = tbGetSixDof( jointId, axis );
	return s != NULL ? s->motorSpeed[axis] : 0.0f;
}

tbResult tbSixDofJoint_SetAxisMaxMotorForce( tbJointId jointId, tbSixDofAxis axis, float force )
{
	TB_SIXDOF_SETTER( tbIsValidMotorForce( force ) );
	s->maxMotorForce[axis] = force;
	return tbResult_ok;
}

float tbSixDofJoint_GetAxisMaxMotorForce( tbJointId jointId, tbSixDofAxis axis )
{
	tbSixDofJointData* s = tbGetSixDof( jointId, axis );
	return s != NULL ? s->maxMotorForce[axis] : 0.0f;
}

float tbSixDofJoint_GetAxisPosition( tbJointId jointId, tbSixDofAxis axis )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_sixDof, &world );
	if ( joint == NULL || (unsigned)axis >= (unsigned)tbSixDof_axisCount )
	{
		return 0.0f;
	}
	tbJointPose p;
	tbComputeJointBodyPose( world, joint, &p );
	return tbSixDofAxisValue( &p, (int)axis );
}
