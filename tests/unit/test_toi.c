// Tumble tests: shape cast (tbShapeCast), sweep interpolation (tbGetSweepTransform) and time of
// impact (tbTimeOfImpact). Proxies are built from local point arrays.
// SPDX-License-Identifier: MIT
#include "tumble/collision.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include <math.h>

/// Default geometric tolerance, metres.
#define TOL 1.0e-4f

/// One step at 60 Hz, seconds.
#define DT ( 1.0f / 60.0f )

static bool near( float a, float b, float tolerance )
{
	return fabsf( a - b ) <= tolerance;
}

#define ASSERT_NEAR( a, b, tol )                                                                                       \
	do                                                                                                                 \
	{                                                                                                                  \
		float a_ = ( a ), b_ = ( b );                                                                                  \
		if ( !near( a_, b_, ( tol ) ) )                                                                                \
		{                                                                                                              \
			fail_msg( "%s = %.7g, expected %.7g (tolerance %g)", #a, (double)a_, (double)b_, (double)( tol ) );        \
		}                                                                                                              \
	} while ( 0 )

#define ASSERT_VEC_NEAR( a, b, tol )                                                                                   \
	do                                                                                                                 \
	{                                                                                                                  \
		tbVec3 a_ = ( a ), b_ = ( b );                                                                                 \
		if ( !near( a_.x, b_.x, ( tol ) ) || !near( a_.y, b_.y, ( tol ) ) || !near( a_.z, b_.z, ( tol ) ) )            \
		{                                                                                                              \
			fail_msg( "%s = (%.7g, %.7g, %.7g), expected (%.7g, %.7g, %.7g) (tolerance %g)", #a, (double)a_.x,         \
					  (double)a_.y, (double)a_.z, (double)b_.x, (double)b_.y, (double)b_.z, (double)( tol ) );         \
		}                                                                                                              \
	} while ( 0 )

#define ASSERT_IN_RANGE_F( x, lo, hi )                                                                                 \
	do                                                                                                                 \
	{                                                                                                                  \
		float x_ = ( x );                                                                                              \
		if ( !( x_ >= ( lo ) && x_ <= ( hi ) ) )                                                                       \
		{                                                                                                              \
			fail_msg( "%s = %.7g, expected in [%.7g, %.7g]", #x, (double)x_, (double)( lo ), (double)( hi ) );         \
		}                                                                                                              \
	} while ( 0 )

static void makeBoxPoints( tbVec3 halfExtents, tbVec3 points[8] )
{
	for ( int i = 0; i < 8; ++i )
	{
		points[i] = tbMakeVec3( ( i & 1 ) ? halfExtents.x : -halfExtents.x, ( i & 2 ) ? halfExtents.y : -halfExtents.y,
								( i & 4 ) ? halfExtents.z : -halfExtents.z );
	}
}

static tbShapeProxy makeProxy( const tbVec3* points, int count, float radius )
{
	tbShapeProxy proxy = { .points = points, .count = count, .radius = radius };
	return proxy;
}

static tbTransform makeXf( float x, float y, float z )
{
	return tbMakeTransform( tbMakeVec3( x, y, z ), tb_quatIdentity );
}

// Shape cast --------------------------------------------------------------------------------------

static tbCastOutput castOf( tbShapeProxy a, tbTransform xfA, tbShapeProxy b, tbTransform xfB, tbVec3 translation,
							float maxFraction )
{
	tbShapeCastPairInput input;
	input.proxyA = a;
	input.proxyB = b;
	input.transformA = xfA;
	input.transformB = xfB;
	input.translationB = translation;
	input.maxFraction = maxFraction;
	return tbShapeCast( &input );
}

static void test_shape_cast_sphere_box( void** state )
{
	(void)state;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 1.0f, 1.0f, 1.0f ), box );
	tbShapeProxy boxProxy = makeProxy( box, 8, 0.0f );
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };
	tbShapeProxy sphere = makeProxy( &centre, 1, 0.5f );

	// Head on: the centre must reach x = -1.5, 3.5 m of 10 m.
	tbCastOutput out = castOf( boxProxy, tb_transformIdentity, sphere, makeXf( -5.0f, 0.3f, 0.2f ),
							   tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	assert_true( out.hit );
	ASSERT_NEAR( out.fraction, 0.35f, TOL / 10.0f );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( -1.0f, 0.0f, 0.0f ), TOL );
	ASSERT_VEC_NEAR( out.point, tbMakeVec3( -1.0f, 0.3f, 0.2f ), TOL );
	assert_true( out.iterations <= 32 );

	// Diagonal from above-left: x = -3 + 4f, z = 2 - 4f reaches the x = -1 face at x = -1.5
	// (f = 0.375, z = 0.5, inside the face); the top edge is never within 0.5 on the way
	// (32 f^2 - 24 f + 4.75 = 0 has no real root).
	out = castOf( boxProxy, tb_transformIdentity, sphere, makeXf( -3.0f, 0.0f, 2.0f ), tbMakeVec3( 4.0f, 0.0f, -4.0f ),
				  1.0f );
	assert_true( out.hit );
	ASSERT_NEAR( out.fraction, 0.375f, TOL / 4.0f );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( -1.0f, 0.0f, 0.0f ), TOL );
	ASSERT_VEC_NEAR( out.point, tbMakeVec3( -1.0f, 0.0f, 0.5f ), TOL );

	// The same in a rotated, translated frame.
	tbTransform frame = tbMakeTransform( tbMakeVec3( 5.0f, -2.0f, 1.0f ),
										 tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, 2.0f, -1.0f ) ), 0.9f ) );
	tbVec3 start = tbTransformPoint( frame, tbMakeVec3( -5.0f, 0.3f, 0.2f ) );
	out = castOf( boxProxy, frame, sphere, makeXf( start.x, start.y, start.z ),
				  tbRotate( frame.q, tbMakeVec3( 10.0f, 0.0f, 0.0f ) ), 1.0f );
	assert_true( out.hit );
	ASSERT_NEAR( out.fraction, 0.35f, TOL / 10.0f );
	ASSERT_VEC_NEAR( out.normal, tbRotate( frame.q, tbMakeVec3( -1.0f, 0.0f, 0.0f ) ), TOL );
	ASSERT_VEC_NEAR( out.point, tbTransformPoint( frame, tbMakeVec3( -1.0f, 0.3f, 0.2f ) ), TOL );
}

static void test_shape_cast_misses( void** state )
{
	(void)state;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 1.0f, 1.0f, 1.0f ), box );
	tbShapeProxy boxProxy = makeProxy( box, 8, 0.0f );
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };
	tbShapeProxy sphere = makeProxy( &centre, 1, 0.5f );

	// Sideways past the box, away from it, and short of it (contact would be at 0.35).
	tbCastOutput out = castOf( boxProxy, tb_transformIdentity, sphere, makeXf( -5.0f, 0.0f, 0.0f ),
							   tbMakeVec3( 0.0f, 10.0f, 0.0f ), 1.0f );
	assert_false( out.hit );
	out = castOf( boxProxy, tb_transformIdentity, sphere, makeXf( -5.0f, 0.0f, 0.0f ), tbMakeVec3( -10.0f, 0.0f, 0.0f ),
				  1.0f );
	assert_false( out.hit );
	out = castOf( boxProxy, tb_transformIdentity, sphere, makeXf( -5.0f, 0.0f, 0.0f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ),
				  0.3f );
	assert_false( out.hit );
	// Passing 0.1 m clear of the top face.
	out = castOf( boxProxy, tb_transformIdentity, sphere, makeXf( -5.0f, 0.0f, 1.6f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ),
				  1.0f );
	assert_false( out.hit );
}

static void test_shape_cast_initial_overlap( void** state )
{
	(void)state;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 1.0f, 1.0f, 1.0f ), box );
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };

	// The sphere reaches 0.3 m into the box already.
	tbCastOutput out = castOf( makeProxy( box, 8, 0.0f ), tb_transformIdentity, makeProxy( &centre, 1, 0.5f ),
							   makeXf( -1.2f, 0.0f, 0.0f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	assert_true( out.hit );
	ASSERT_NEAR( out.fraction, 0.0f, 0.0f );
	assert_true( tbIsValidVec3( out.point ) && tbIsValidVec3( out.normal ) );

	// Centre inside the box (cores overlap), moving away: still an initial hit.
	out = castOf( makeProxy( box, 8, 0.0f ), tb_transformIdentity, makeProxy( &centre, 1, 0.5f ),
				  makeXf( 0.2f, 0.0f, 0.0f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	assert_true( out.hit );
	ASSERT_NEAR( out.fraction, 0.0f, 0.0f );
	assert_true( tbIsValidVec3( out.point ) && tbIsValidVec3( out.normal ) );
}

static void test_shape_cast_polytopes( void** state )
{
	(void)state;
	tbVec3 big[8], small[8];
	makeBoxPoints( tbMakeVec3( 1.0f, 1.0f, 1.0f ), big );
	makeBoxPoints( tbMakeVec3( 0.5f, 0.5f, 0.5f ), small );

	// No radius at all: B turned 45 degrees about z leads with a vertical edge at x = xB + sqrt(2)/2,
	// which meets the face x = -1 after 5 - 1 - sqrt(2)/2 of 10 m.
	tbTransform xfB = tbMakeTransform( tbMakeVec3( -5.0f, 0.1f, 0.2f ),
									   tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.25f * TB_PI ) );
	tbCastOutput out = castOf( makeProxy( big, 8, 0.0f ), tb_transformIdentity, makeProxy( small, 8, 0.0f ), xfB,
							   tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	assert_true( out.hit );
	ASSERT_NEAR( out.fraction, ( 4.0f - 0.5f * sqrtf( 2.0f ) ) / 10.0f, TOL / 10.0f );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( -1.0f, 0.0f, 0.0f ), TOL );
	ASSERT_NEAR( out.point.x, -1.0f, TOL );

	// A capsule dropped flat onto the top face: its axis must stop 0.25 above z = 1.
	tbVec3 seg[2] = { { -0.5f, 0.0f, 0.0f }, { 0.5f, 0.0f, 0.0f } };
	out = castOf( makeProxy( big, 8, 0.0f ), tb_transformIdentity, makeProxy( seg, 2, 0.25f ),
				  makeXf( 0.0f, 0.0f, 3.0f ), tbMakeVec3( 0.0f, 0.0f, -4.0f ), 1.0f );
	assert_true( out.hit );
	ASSERT_NEAR( out.fraction, 1.75f / 4.0f, TOL / 4.0f );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
	ASSERT_NEAR( out.point.z, 1.0f, TOL );
}

// Sweeps -----------------------------------------------------------------------------------------

static void test_sweep_transform( void** state )
{
	(void)state;
	tbSweep sweep;
	sweep.localCenter = tbMakeVec3( 1.0f, 0.0f, 0.0f );
	sweep.c1 = tbMakeVec3( 0.0f, 0.0f, 0.0f );
	sweep.c2 = tbMakeVec3( 2.0f, 0.0f, 0.0f );
	sweep.q1 = tb_quatIdentity;
	sweep.q2 = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.5f * TB_PI );

	tbTransform xf = tbGetSweepTransform( &sweep, 0.0f );
	ASSERT_VEC_NEAR( xf.p, tbMakeVec3( -1.0f, 0.0f, 0.0f ), 1.0e-6f );
	xf = tbGetSweepTransform( &sweep, 1.0f );
	ASSERT_VEC_NEAR( xf.p, tbMakeVec3( 2.0f, -1.0f, 0.0f ), 1.0e-6f );
	ASSERT_VEC_NEAR( tbRotate( xf.q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) ), tbMakeVec3( 0.0f, 1.0f, 0.0f ), 1.0e-6f );

	// Halfway, nlerp of two rotations about z is the half rotation by symmetry: 45 degrees.
	xf = tbGetSweepTransform( &sweep, 0.5f );
	float h = 0.5f * sqrtf( 2.0f );
	ASSERT_VEC_NEAR( xf.p, tbMakeVec3( 1.0f - h, -h, 0.0f ), 1.0e-6f );
	ASSERT_NEAR( tbQuatAngle( xf.q ), 0.25f * TB_PI, 1.0e-5f );

	// q and -q are the same rotation: the sweep must take the short way either way.
	tbSweep flipped = sweep;
	flipped.q2 = tbMakeQuat( -sweep.q2.w, -sweep.q2.x, -sweep.q2.y, -sweep.q2.z );
	tbTransform xfFlipped = tbGetSweepTransform( &flipped, 0.5f );
	ASSERT_VEC_NEAR( xfFlipped.p, xf.p, 1.0e-6f );
	ASSERT_NEAR( tbQuatAngle( xfFlipped.q ), 0.25f * TB_PI, 1.0e-5f );

	// The centre of mass moves on the straight line whatever the rotation does.
	for ( int i = 0; i <= 10; ++i )
	{
		float t = 0.1f * (float)i;
		tbTransform x = tbGetSweepTransform( &sweep, t );
		ASSERT_VEC_NEAR( tbTransformPoint( x, sweep.localCenter ), tbLerp( sweep.c1, sweep.c2, t ), 1.0e-5f );
		ASSERT_NEAR( sqrtf( tbDotQ( x.q, x.q ) ), 1.0f, 1.0e-5f );
	}
}

// Time of impact ----------------------------------------------------------------------------------

static tbSweep makeSweep( tbVec3 c1, tbVec3 c2, tbQuat q1, tbQuat q2 )
{
	tbSweep sweep;
	sweep.localCenter = tb_vec3_zero;
	sweep.c1 = c1;
	sweep.c2 = c2;
	sweep.q1 = q1;
	sweep.q2 = q2;
	return sweep;
}

// Signed separation of the rounded shapes at fraction t (cores' distance less the radii).
static float separationAt( const tbTOIInput* input, float t )
{
	tbDistanceInput d;
	d.proxyA = input->proxyA;
	d.proxyB = input->proxyB;
	d.transformA = tbGetSweepTransform( &input->sweepA, t );
	d.transformB = tbGetSweepTransform( &input->sweepB, t );
	d.useRadii = false;
	tbSimplexCache cache = { 0 };
	tbDistanceOutput out = tbShapeDistance( &d, &cache );
	return out.distance - input->proxyA.radius - input->proxyB.radius;
}

// Nothing may touch before the reported fraction: sample the separation densely on [0, fraction].
static void assertNoEarlierContact( const tbTOIInput* input, float fraction )
{
	for ( int i = 0; i <= 400; ++i )
	{
		float t = fraction * (float)i / 400.0f;
		float s = separationAt( input, t );
		if ( s < 0.0f )
		{
			fail_msg( "separation %g at t = %g, before the reported fraction %g", (double)s, (double)t,
					  (double)fraction );
		}
	}
}

static const tbVec3 s_diamond[6] = { { 1.0f, 0.0f, 0.0f },	{ -1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f },
									 { 0.0f, -1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f },  { 0.0f, 0.0f, -1.0f } };

// The book's teleportation pair: a sphere (r = 0.5) and a diamond (octahedron with its tips 1 m
// from the centre) fly at each other at 100 m/s each. Over one 1/60 s step they close 3.33 m, more
// than the 0.3 m gap plus both sizes, so sampled only at the step ends they pass through.
static void test_toi_sphere_diamond( void** state )
{
	(void)state;
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };
	float travel = 100.0f * DT;
	tbTOIInput input;
	input.proxyA = makeProxy( &centre, 1, 0.5f );
	input.proxyB = makeProxy( s_diamond, 6, 0.0f );
	input.sweepA = makeSweep( tbMakeVec3( -0.9f, 0.0f, 0.0f ), tbMakeVec3( -0.9f + travel, 0.0f, 0.0f ),
							  tb_quatIdentity, tb_quatIdentity );
	input.sweepB = makeSweep( tbMakeVec3( 0.9f, 0.0f, 0.0f ), tbMakeVec3( 0.9f - travel, 0.0f, 0.0f ), tb_quatIdentity,
							  tb_quatIdentity );
	input.maxFraction = 1.0f;
	input.target = TB_LINEAR_SLOP;

	// They really do pass through: apart at both ends of the step.
	assert_true( separationAt( &input, 0.0f ) > 0.0f );
	assert_true( separationAt( &input, 1.0f ) > 0.0f );

	tbTOIOutput out = tbTimeOfImpact( &input );
	assert_int_equal( out.state, tbTOIState_hit );
	// The gap 0.3 - 2 travel t reaches zero at t = 0.3 / (2 travel).
	float contact = 0.3f / ( 2.0f * travel );
	ASSERT_IN_RANGE_F( out.fraction, ( 0.3f - 2.0f * input.target ) / ( 2.0f * travel ), contact );
	ASSERT_IN_RANGE_F( separationAt( &input, out.fraction ), 0.0f, 2.0f * input.target );
	assertNoEarlierContact( &input, out.fraction );

	// Now the diamond also spins (20 rad/s about a tilted axis) and approaches off-centre.
	tbVec3 axis = tbNormalize( tbMakeVec3( 0.3f, 0.4f, 1.0f ) );
	input.sweepB = makeSweep( tbMakeVec3( 0.9f, 0.3f, 0.1f ), tbMakeVec3( 0.9f - travel, 0.3f, 0.1f ), tb_quatIdentity,
							  tbMakeQuatAxisAngle( axis, 20.0f * DT ) );
	assert_true( separationAt( &input, 0.0f ) > 0.0f );
	out = tbTimeOfImpact( &input );
	assert_int_equal( out.state, tbTOIState_hit );
	ASSERT_IN_RANGE_F( separationAt( &input, out.fraction ), 0.0f, 2.0f * input.target );
	assertNoEarlierContact( &input, out.fraction );
}

// A 250 m/s sphere against a 0.1 m thick static wall: 4.17 m per step, far more than the wall.
static void test_toi_bullet_through_wall( void** state )
{
	(void)state;
	tbVec3 wall[8];
	makeBoxPoints( tbMakeVec3( 0.05f, 2.0f, 2.0f ), wall );
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };
	float travel = 250.0f * DT;

	tbTOIInput input;
	input.proxyA = makeProxy( wall, 8, 0.0f );
	input.proxyB = makeProxy( &centre, 1, 0.1f );
	input.sweepA = makeSweep( tb_vec3_zero, tb_vec3_zero, tb_quatIdentity, tb_quatIdentity );
	input.sweepB = makeSweep( tbMakeVec3( -1.0f, 0.3f, 0.0f ), tbMakeVec3( -1.0f + travel, 0.3f, 0.0f ),
							  tb_quatIdentity, tb_quatIdentity );
	input.maxFraction = 1.0f;
	input.target = TB_LINEAR_SLOP;
	assert_true( separationAt( &input, 1.0f ) > 0.0f );

	tbTOIOutput out = tbTimeOfImpact( &input );
	assert_int_equal( out.state, tbTOIState_hit );
	// Contact when the centre reaches x = -0.15: 0.85 m into the 4.17 m step.
	float contact = 0.85f / travel;
	ASSERT_IN_RANGE_F( out.fraction, contact - 2.0f * input.target / travel, contact );
	ASSERT_IN_RANGE_F( separationAt( &input, out.fraction ), 0.0f, 2.0f * input.target );
	tbTransform xf = tbGetSweepTransform( &input.sweepB, out.fraction );
	assert_true( xf.p.x < -0.15f );
}

// A long thin box spinning about z sweeps through a sphere in one step.
static void test_toi_rotating_box( void** state )
{
	(void)state;
	tbVec3 bar[8];
	makeBoxPoints( tbMakeVec3( 2.0f, 0.05f, 0.05f ), bar );
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };
	float turn = 1.5f; // rad over the step (90 rad/s)

	tbTOIInput input;
	input.proxyA = makeProxy( bar, 8, 0.0f );
	input.proxyB = makeProxy( &centre, 1, 0.1f );
	input.sweepA = makeSweep( tb_vec3_zero, tb_vec3_zero, tb_quatIdentity,
							  tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), turn ) );
	input.sweepB =
		makeSweep( tbMakeVec3( 1.5f, 1.0f, 0.0f ), tbMakeVec3( 1.5f, 1.0f, 0.0f ), tb_quatIdentity, tb_quatIdentity );
	input.maxFraction = 1.0f;
	input.target = TB_LINEAR_SLOP;
	assert_true( separationAt( &input, 0.0f ) > 0.0f );
	assert_true( separationAt( &input, 1.0f ) > 0.0f );

	tbTOIOutput out = tbTimeOfImpact( &input );
	assert_int_equal( out.state, tbTOIState_hit );
	ASSERT_IN_RANGE_F( separationAt( &input, out.fraction ), 0.0f, 2.0f * input.target );
	assertNoEarlierContact( &input, out.fraction );

	// Analytic contact: the sphere centre (polar radius rho, angle beta) touches the bar's side
	// face when rho sin(beta - theta) = 0.05 + 0.1. nlerp reaches angle theta at
	// t = T / (sin(phi) + T (1 - cos(phi))), T = tan(theta / 2), phi = turn / 2.
	float rho = sqrtf( 1.5f * 1.5f + 1.0f );
	float beta = atan2f( 1.0f, 1.5f );
	float theta = beta - asinf( 0.15f / rho );
	float T = tanf( 0.5f * theta );
	float phi = 0.5f * turn;
	float contact = T / ( sinf( phi ) + T * ( 1.0f - cosf( phi ) ) );
	ASSERT_IN_RANGE_F( out.fraction, contact - 0.01f, contact );
}

static void test_toi_separated_and_overlapped( void** state )
{
	(void)state;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 0.5f, 0.5f, 0.5f ), box );
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };

	tbTOIInput input;
	input.proxyA = makeProxy( box, 8, 0.0f );
	input.proxyB = makeProxy( &centre, 1, 0.25f );
	input.sweepA = makeSweep( tb_vec3_zero, tb_vec3_zero, tb_quatIdentity, tb_quatIdentity );
	input.maxFraction = 1.0f;
	input.target = TB_LINEAR_SLOP;

	// Flying past 0.2 m clear of the box's top.
	input.sweepB = makeSweep( tbMakeVec3( -3.0f, 0.0f, 0.95f ), tbMakeVec3( 3.0f, 0.0f, 0.95f ), tb_quatIdentity,
							  tb_quatIdentity );
	tbTOIOutput out = tbTimeOfImpact( &input );
	assert_int_equal( out.state, tbTOIState_separated );
	ASSERT_NEAR( out.fraction, 1.0f, 0.0f );

	// Heading for the box but stopped short by maxFraction: contact would be at 2.25 / 6.
	input.sweepB =
		makeSweep( tbMakeVec3( -3.0f, 0.0f, 0.0f ), tbMakeVec3( 3.0f, 0.0f, 0.0f ), tb_quatIdentity, tb_quatIdentity );
	input.maxFraction = 0.3f;
	out = tbTimeOfImpact( &input );
	assert_int_equal( out.state, tbTOIState_separated );
	ASSERT_NEAR( out.fraction, 0.3f, 0.0f );
	input.maxFraction = 1.0f;
	out = tbTimeOfImpact( &input );
	assert_int_equal( out.state, tbTOIState_hit );
	ASSERT_IN_RANGE_F( out.fraction, ( 2.25f - 2.0f * input.target ) / 6.0f, 2.25f / 6.0f );

	// No motion at all.
	input.sweepB =
		makeSweep( tbMakeVec3( 2.0f, 0.0f, 0.0f ), tbMakeVec3( 2.0f, 0.0f, 0.0f ), tb_quatIdentity, tb_quatIdentity );
	out = tbTimeOfImpact( &input );
	assert_int_equal( out.state, tbTOIState_separated );

	// Already overlapping at the start.
	input.sweepB =
		makeSweep( tbMakeVec3( 0.6f, 0.0f, 0.0f ), tbMakeVec3( 3.0f, 0.0f, 0.0f ), tb_quatIdentity, tb_quatIdentity );
	out = tbTimeOfImpact( &input );
	assert_int_equal( out.state, tbTOIState_overlapped );
	ASSERT_NEAR( out.fraction, 0.0f, 0.0f );
}

static uint32_t s_seed = 777u;

static float randomFloat( float lo, float hi )
{
	s_seed = s_seed * 1664525u + 1013904223u;
	return lo + ( hi - lo ) * (float)( s_seed >> 8 ) / 16777216.0f;
}

static tbVec3 randomVec( float lo, float hi )
{
	return tbMakeVec3( randomFloat( lo, hi ), randomFloat( lo, hi ), randomFloat( lo, hi ) );
}

static tbQuat randomQuat( float maxAngle )
{
	tbVec3 axis = tbNormalize( randomVec( -1.0f, 1.0f ) );
	if ( tbLengthSquared( axis ) < 0.5f )
	{
		axis = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	}
	return tbMakeQuatAxisAngle( axis, randomFloat( -maxAngle, maxAngle ) );
}

// Random fast, spinning pairs with off-centre mass: whatever the state, nothing may touch before
// the returned fraction, and a hit must stop near the target separation.
static void test_toi_random( void** state )
{
	(void)state;
	int hits = 0;
	for ( int trial = 0; trial < 150; ++trial )
	{
		tbVec3 pointsA[8], pointsB[8];
		int countA = 1 + trial % 8;
		int countB = 1 + ( trial / 8 ) % 8;
		for ( int i = 0; i < countA; ++i )
		{
			pointsA[i] = randomVec( -0.5f, 0.5f );
		}
		for ( int i = 0; i < countB; ++i )
		{
			pointsB[i] = randomVec( -0.5f, 0.5f );
		}
		tbTOIInput input;
		input.proxyA = makeProxy( pointsA, countA, 0.1f );
		input.proxyB = makeProxy( pointsB, countB, ( trial % 2 ) ? 0.05f : 0.0f );
		tbQuat qA = randomQuat( TB_PI );
		tbQuat qB = randomQuat( TB_PI );
		input.sweepA =
			makeSweep( randomVec( -3.0f, -2.0f ), randomVec( -0.5f, 0.5f ), qA, tbMulQQ( randomQuat( 1.0f ), qA ) );
		input.sweepA.localCenter = randomVec( -0.2f, 0.2f );
		input.sweepB =
			makeSweep( randomVec( 2.0f, 3.0f ), randomVec( -0.5f, 0.5f ), qB, tbMulQQ( randomQuat( 1.0f ), qB ) );
		input.sweepB.localCenter = randomVec( -0.2f, 0.2f );
		input.maxFraction = 1.0f;
		input.target = TB_LINEAR_SLOP;
		if ( separationAt( &input, 0.0f ) < 0.1f )
		{
			continue;
		}

		tbTOIOutput out = tbTimeOfImpact( &input );
		assert_true( out.fraction >= 0.0f && out.fraction <= 1.0f );
		assert_true( out.state == tbTOIState_hit || out.state == tbTOIState_separated );
		assertNoEarlierContact( &input, out.fraction );
		if ( out.state == tbTOIState_hit )
		{
			hits += 1;
			ASSERT_IN_RANGE_F( separationAt( &input, out.fraction ), 0.0f, 2.0f * input.target );
		}
	}
	assert_true( hits > 50 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_shape_cast_sphere_box ),
		cmocka_unit_test( test_shape_cast_misses ),
		cmocka_unit_test( test_shape_cast_initial_overlap ),
		cmocka_unit_test( test_shape_cast_polytopes ),
		cmocka_unit_test( test_sweep_transform ),
		cmocka_unit_test( test_toi_sphere_diamond ),
		cmocka_unit_test( test_toi_bullet_through_wall ),
		cmocka_unit_test( test_toi_rotating_box ),
		cmocka_unit_test( test_toi_separated_and_overlapped ),
		cmocka_unit_test( test_toi_random ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
