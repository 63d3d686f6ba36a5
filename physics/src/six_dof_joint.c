// Tumble physics: configurable 6-DOF joint (002, "Putting it all together").
//
// Frame A's axes e_0, e_1, e_2 (world, turning with A) carry three translation and three rotation
// axes, each free, limited or fixed, with an optional motor.
// - Translation i: C_i = e_i . d with d = pB - pA (002 "position axis constraint"). Because e_i
//   turns with A, Cdot = e_i . (vB + wB x rB - vA - wA x rA) + (wA x e_i) . d, so
//   J = (-e_i, -(rA + d) x e_i, e_i, rB x e_i) (tbLinearAxisRow; 002 writes -c1 x n, exact when the
//   anchors coincide).
// - Rotations: 002 constrains the raw components of qRel = conj(qA) qB on each axis (its "rotation
//   axis constraint" and "angle limit", theta_i = 2 asin(qRel.v_i)). That is exact while the
//   rotation stays small, but with rx free the y and z components lose their meaning as rx turns:
//   at rx = pi they vanish whatever the tilt, and past it their sign flips (an asymmetric ry limit
//   is then violated at once). So the rotation is split as qRel = swing * twist with the twist
//   about x: rx is the twist angle 2 atan2(qRel.x, qRel.w) (tbTwistAngle), and ry, rz are
//   2 asin of the swing quaternion's y and z components, which do not depend on the twist:
//   swing.y = (y w - z x) / sqrt(w^2 + x^2), swing.z = (z w + y x) / sqrt(w^2 + x^2). For a
//   rotation about one axis this is 002's angle. Each is a row C with Cdot = g . (wB - wA): the
//   twist rate axis (tbTwistAxis), and for the swing components the gradient obtained by applying
//   dq/dt = 1/2 omega q to the expressions above, evaluated for omega = e_x, e_y, e_z (the map is
//   linear in omega).
// - Fixed axes are equality rows, coupled ones solved as a block (004 sec. 3.5); limits are
//   inequality rows active only in their restoring direction (002 "conditional constraints");
//   motors drive the axis rate (e_i . relative velocity, or the relative angular velocity about
//   e_i; the twist rate for rx) with a bounded impulse. 002 corrects drift with a post-solve
//   position "rectify"; here the drift goes through the world's position correction like every
//   other joint.
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

// Swing components of q = swing * twist (twist about x), and their rates per unit relative angular
// velocity in frame A: d(swing.y)/dt = gy . omega_A, d(swing.z)/dt = gz . omega_A.
static void tbSwingComponents( tbQuat q, float* sy, float* sz, tbVec3* gy, tbVec3* gz )
{
	float r2 = tbMaxFloat( q.w * q.w + q.x * q.x, 1.0e-8f );
	float r = sqrtf( r2 );
	float ny = q.y * q.w - q.z * q.x;
	float nz = q.z * q.w + q.y * q.x;
	*sy = ny / r;
	*sz = nz / r;
	float g[2][3];
	for ( int i = 0; i < 3; ++i )
	{
		float ox = i == 0 ? 1.0f : 0.0f, oy = i == 1 ? 1.0f : 0.0f, oz = i == 2 ? 1.0f : 0.0f;
		// dq/dt = 1/2 (0, omega) q
		float wd = -0.5f * ( ox * q.x + oy * q.y + oz * q.z );
		float xd = 0.5f * ( q.w * ox + oy * q.z - oz * q.y );
		float yd = 0.5f * ( q.w * oy + oz * q.x - ox * q.z );
		float zd = 0.5f * ( q.w * oz + ox * q.y - oy * q.x );
		float rd = ( q.w * wd + q.x * xd ) / r;
		float nyd = yd * q.w + q.y * wd - zd * q.x - q.z * xd;
		float nzd = zd * q.w + q.z * wd + yd * q.x + q.y * xd;
		g[0][i] = nyd / r - ny * rd / r2;
		g[1][i] = nzd / r - nz * rd / r2;
	}
	*gy = tbMakeVec3( g[0][0], g[0][1], g[0][2] );
	*gz = tbMakeVec3( g[1][0], g[1][1], g[1][2] );
}

void tbMakeSixDofRows( const tbJointPose* p, tbSixDofRows* r )
{
	for ( int i = 0; i < 3; ++i )
	{
		tbVec3 e = tbMakeVec3( i == 0 ? 1.0f : 0.0f, i == 1 ? 1.0f : 0.0f, i == 2 ? 1.0f : 0.0f );
		r->axis[i] = tbRotate( p->qA, e );
		r->row[i] = tbLinearAxisRow( p, r->axis[i] );
		r->motor[i] = r->row[i];
		r->position[i] = tbDot( r->axis[i], p->d );
	}
	float sy, sz;
	tbVec3 gy, gz;
	tbSwingComponents( p->qRel, &sy, &sz, &gy, &gz );
	tbVec3 twistAxis = tbTwistAxis( p );
	r->row[3] = tbAngularRow( twistAxis );
	r->row[4] = tbAngularRow( tbRotate( p->qA, gy ) );
	r->row[5] = tbAngularRow( tbRotate( p->qA, gz ) );
	r->position[3] = tbTwistAngle( p->qRel );
	r->position[4] = sy;
	r->position[5] = sz;
	r->motor[3] = r->row[3];
	r->motor[4] = tbAngularRow( r->axis[1] );
	r->motor[5] = tbAngularRow( r->axis[2] );
}

float tbSixDofAxisLimit( int axis, float value )
{
	return axis > tbSixDof_rx ? sinf( 0.5f * value ) : value;
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
			float maxSpeed = i < tbSixDof_rx ? TB_MAX_SPEED : TB_MAX_ANGULAR_SPEED; // m/s or rad/s
			tbSolveMotorRow( m, r.motor + i, s->motorSpeed[i], maxSpeed, tbMaxImpulse( s->maxMotorForce[i], ctx->h ),
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
		tbSolveLimitRow( ctx, m, r.row + i, x - tbSixDofAxisLimit( i, s->lower[i] ), useBias, &s->lowerImpulse[i] );
		tbJointRow upper = tbNegateRow( r.row[i] );
		tbSolveLimitRow( ctx, m, &upper, tbSixDofAxisLimit( i, s->upper[i] ) - x, useBias, &s->upperImpulse[i] );
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
		t = tbMulAdd( t, s->motorImpulse[i + 3], r.motor[i + 3].angularB );
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
	if ( axis == tbSixDof_rx )
	{
		return tbTwistAngle( p->qRel );
	}
	float sy, sz;
	tbVec3 gy, gz;
	tbSwingComponents( p->qRel, &sy, &sz, &gy, &gz );
	float c = axis == tbSixDof_ry ? sy : sz;
	return 2.0f * asinf( tbClampFloat( c, -1.0f, 1.0f ) );
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
	tbPrepareSixDof, tbWarmStartSixDof, tbSolveSixDof, tbScaleSixDof, tbReactionSixDof, tbErrorSixDof, NULL, "six_dof",
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
