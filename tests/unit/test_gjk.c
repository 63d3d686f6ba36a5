// Tumble tests: GJK distance (tbShapeDistance) and EPA penetration (tbShapePenetration).
// Proxies are built from local point arrays (a box is its 8 corners, a capsule its 2 segment
// points, a sphere 1 point) so these tests do not depend on the hull code.
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

static tbDistanceOutput distanceOf( tbShapeProxy a, tbTransform xfA, tbShapeProxy b, tbTransform xfB, bool useRadii,
									tbSimplexCache* cache )
{
	tbDistanceInput input;
	input.proxyA = a;
	input.proxyB = b;
	input.transformA = xfA;
	input.transformB = xfB;
	input.useRadii = useRadii;
	tbSimplexCache local = { 0 };
	return tbShapeDistance( &input, cache != NULL ? cache : &local );
}

static tbPenetrationOutput penetrationOf( tbShapeProxy a, tbTransform xfA, tbShapeProxy b, tbTransform xfB )
{
	tbDistanceInput input;
	input.proxyA = a;
	input.proxyB = b;
	input.transformA = xfA;
	input.transformB = xfB;
	input.useRadii = true;
	return tbShapePenetration( &input );
}

static tbTransform makeXf( float x, float y, float z )
{
	return tbMakeTransform( tbMakeVec3( x, y, z ), tb_quatIdentity );
}

static void assertFiniteDistance( const tbDistanceOutput* out )
{
	assert_true( tbIsValidVec3( out->pointA ) );
	assert_true( tbIsValidVec3( out->pointB ) );
	assert_true( tbIsValidVec3( out->normal ) );
	assert_true( tbIsValidFloat( out->distance ) );
	assert_true( out->distance >= 0.0f );
}

// Spheres -----------------------------------------------------------------------------------------

static void test_sphere_sphere( void** state )
{
	(void)state;
	// A's core point is off its body origin and A is rotated a quarter turn about z, so the sphere
	// centre in world is (1, 2, 3) + R (0.5, 0, 0) = (1, 2.5, 3).
	tbVec3 pa = { 0.5f, 0.0f, 0.0f };
	tbVec3 pb = { 0.0f, 0.0f, 0.0f };
	tbTransform xfA = tbMakeTransform( tbMakeVec3( 1.0f, 2.0f, 3.0f ),
									   tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.5f * TB_PI ) );
	tbVec3 centreA = { 1.0f, 2.5f, 3.0f };
	tbVec3 dir = tbNormalize( tbMakeVec3( 2.0f, -1.0f, 2.0f ) ); // |(2,-1,2)| = 3
	tbVec3 centreB = tbMulAdd( centreA, 3.0f, dir );
	tbTransform xfB = tbMakeTransform( centreB, tbMakeQuatAxisAngle( tbMakeVec3( 1.0f, 0.0f, 0.0f ), 1.0f ) );

	tbDistanceOutput out = distanceOf( makeProxy( &pa, 1, 1.0f ), xfA, makeProxy( &pb, 1, 0.5f ), xfB, true, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 1.5f, TOL );
	ASSERT_VEC_NEAR( out.normal, dir, TOL );
	ASSERT_VEC_NEAR( out.pointA, tbMulAdd( centreA, 1.0f, dir ), TOL );
	ASSERT_VEC_NEAR( out.pointB, tbMulAdd( centreB, -0.5f, dir ), TOL );

	out = distanceOf( makeProxy( &pa, 1, 1.0f ), xfA, makeProxy( &pb, 1, 0.5f ), xfB, false, NULL );
	ASSERT_NEAR( out.distance, 3.0f, TOL );
	ASSERT_VEC_NEAR( out.pointA, centreA, TOL );
	ASSERT_VEC_NEAR( out.pointB, centreB, TOL );

	// Overlapping rounded spheres with separate centres: distance 0, the points stay on the two
	// surfaces along the centre line, and so does the normal.
	xfB.p = tbMulAdd( centreA, 1.2f, dir );
	out = distanceOf( makeProxy( &pa, 1, 1.0f ), xfA, makeProxy( &pb, 1, 0.5f ), xfB, true, NULL );
	ASSERT_NEAR( out.distance, 0.0f, 1.0e-6f );
	ASSERT_VEC_NEAR( out.pointA, tbMulAdd( centreA, 1.0f, dir ), TOL );
	ASSERT_VEC_NEAR( out.pointB, tbMulAdd( centreA, 0.7f, dir ), TOL );
	ASSERT_VEC_NEAR( out.normal, dir, TOL );

	// Coincident centres: no normal, both points at the common centre.
	xfB.p = centreA;
	out = distanceOf( makeProxy( &pa, 1, 1.0f ), xfA, makeProxy( &pb, 1, 0.5f ), xfB, true, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, 1.0e-6f );
	ASSERT_VEC_NEAR( out.pointA, centreA, TOL );
	ASSERT_VEC_NEAR( out.pointB, centreA, TOL );
	ASSERT_VEC_NEAR( out.normal, tb_vec3_zero, 1.0e-6f );
}

// Sphere against a rotated, translated box: the face, edge and corner Voronoi regions.
static void test_sphere_box_regions( void** state )
{
	(void)state;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 1.0f, 1.0f, 1.0f ), box );
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };
	tbTransform xfBox = tbMakeTransform( tbMakeVec3( 10.0f, -5.0f, 2.0f ),
										 tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, 2.0f, 3.0f ) ), 0.7f ) );

	struct
	{
		tbVec3 sphereLocal;	 // sphere centre in the box frame
		tbVec3 closestLocal; // closest box point in the box frame
	} cases[] = {
		{ { 3.0f, 0.2f, -0.3f }, { 1.0f, 0.2f, -0.3f } },	// face x = +1
		{ { 0.1f, -0.4f, -2.5f }, { 0.1f, -0.4f, -1.0f } }, // face z = -1
		{ { 2.0f, 2.0f, 0.4f }, { 1.0f, 1.0f, 0.4f } },		// edge x = y = +1
		{ { -1.5f, 0.3f, 3.0f }, { -1.0f, 0.3f, 1.0f } },	// edge x = -1, z = +1
		{ { 2.0f, -2.0f, 3.0f }, { 1.0f, -1.0f, 1.0f } },	// corner
	};
	for ( size_t i = 0; i < sizeof( cases ) / sizeof( cases[0] ); ++i )
	{
		tbVec3 sphereWorld = tbTransformPoint( xfBox, cases[i].sphereLocal );
		tbVec3 closestWorld = tbTransformPoint( xfBox, cases[i].closestLocal );
		float centreDistance = tbDistance( closestWorld, sphereWorld );
		tbVec3 dir = tbNormalize( tbSub( sphereWorld, closestWorld ) );

		tbDistanceOutput out = distanceOf( makeProxy( box, 8, 0.0f ), xfBox, makeProxy( &centre, 1, 0.5f ),
										   makeXf( sphereWorld.x, sphereWorld.y, sphereWorld.z ), true, NULL );
		assertFiniteDistance( &out );
		ASSERT_NEAR( out.distance, centreDistance - 0.5f, TOL );
		ASSERT_VEC_NEAR( out.pointA, closestWorld, TOL );
		ASSERT_VEC_NEAR( out.pointB, tbMulAdd( sphereWorld, -0.5f, dir ), TOL );
		ASSERT_VEC_NEAR( out.normal, dir, TOL );
	}
}

// Boxes ------------------------------------------------------------------------------------------

static void test_box_box( void** state )
{
	(void)state;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 0.5f, 0.5f, 0.5f ), box );
	tbShapeProxy proxy = makeProxy( box, 8, 0.0f );
	tbQuat q45 = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.25f * TB_PI );

	// Face to face along z: the gap is 2 - 0.5 - 0.5.
	tbDistanceOutput out = distanceOf( proxy, tb_transformIdentity, proxy, makeXf( 0.0f, 0.0f, 2.0f ), false, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 1.0f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
	ASSERT_NEAR( out.pointA.z, 0.5f, TOL );
	ASSERT_NEAR( out.pointB.z, 1.5f, TOL );
	ASSERT_NEAR( out.pointA.x, out.pointB.x, TOL );
	ASSERT_NEAR( out.pointA.y, out.pointB.y, TOL );
	assert_true( fabsf( out.pointA.x ) <= 0.5f + TOL && fabsf( out.pointA.y ) <= 0.5f + TOL );

	// Rotating B about z keeps the z gap.
	out = distanceOf( proxy, tb_transformIdentity, proxy, tbMakeTransform( tbMakeVec3( 0.0f, 0.0f, 2.0f ), q45 ), false,
					  NULL );
	ASSERT_NEAR( out.distance, 1.0f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );

	// Beside A along x, B rotated 45 degrees presents a vertical edge at x = 2 - sqrt(2)/2.
	out = distanceOf( proxy, tb_transformIdentity, proxy, tbMakeTransform( tbMakeVec3( 2.0f, 0.0f, 0.0f ), q45 ), false,
					  NULL );
	ASSERT_NEAR( out.distance, 1.5f - 0.5f * sqrtf( 2.0f ), TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 1.0f, 0.0f, 0.0f ), TOL );
	ASSERT_NEAR( out.pointA.x, 0.5f, TOL );
	ASSERT_NEAR( out.pointB.x, 2.0f - 0.5f * sqrtf( 2.0f ), TOL );
	ASSERT_NEAR( out.pointB.y, 0.0f, TOL );
}

// Capsules ---------------------------------------------------------------------------------------

static void test_capsule_capsule( void** state )
{
	(void)state;
	tbVec3 segA[2] = { { -1.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f } };
	tbShapeProxy capA = makeProxy( segA, 2, 0.25f );

	// Parallel, one above the other: the gap is 1 - 0.25 - 0.25 anywhere along the overlap.
	tbVec3 segParallel[2] = { { -0.5f, 0.0f, 1.0f }, { 1.5f, 0.0f, 1.0f } };
	tbDistanceOutput out =
		distanceOf( capA, tb_transformIdentity, makeProxy( segParallel, 2, 0.25f ), tb_transformIdentity, true, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.5f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
	ASSERT_NEAR( out.pointA.z, 0.25f, TOL );
	ASSERT_NEAR( out.pointB.z, 0.75f, TOL );
	assert_true( out.pointA.x >= -0.5f - TOL && out.pointA.x <= 1.0f + TOL );

	// Crossed at right angles: unique closest points above each other at the crossing.
	tbVec3 segCrossed[2] = { { 0.0f, -1.0f, 1.0f }, { 0.0f, 1.0f, 1.0f } };
	out = distanceOf( capA, tb_transformIdentity, makeProxy( segCrossed, 2, 0.25f ), tb_transformIdentity, true, NULL );
	ASSERT_NEAR( out.distance, 0.5f, TOL );
	ASSERT_VEC_NEAR( out.pointA, tbMakeVec3( 0.0f, 0.0f, 0.25f ), TOL );
	ASSERT_VEC_NEAR( out.pointB, tbMakeVec3( 0.0f, 0.0f, 0.75f ), TOL );

	// Skew: B(s) = (0.3, -1 + 2s, 2 - s) is closest to the x axis where d/ds[(2s-1)^2 + (2-s)^2] = 0,
	// s = 0.8, at (0.3, 0.6, 1.2): core distance sqrt(1.8).
	tbVec3 segSkew[2] = { { 0.3f, -1.0f, 2.0f }, { 0.3f, 1.0f, 1.0f } };
	out = distanceOf( capA, tb_transformIdentity, makeProxy( segSkew, 2, 0.25f ), tb_transformIdentity, true, NULL );
	tbVec3 dir = tbNormalize( tbMakeVec3( 0.0f, 0.6f, 1.2f ) );
	ASSERT_NEAR( out.distance, sqrtf( 1.8f ) - 0.5f, TOL );
	ASSERT_VEC_NEAR( out.normal, dir, TOL );
	ASSERT_VEC_NEAR( out.pointA, tbMulAdd( tbMakeVec3( 0.3f, 0.0f, 0.0f ), 0.25f, dir ), TOL );
	ASSERT_VEC_NEAR( out.pointB, tbMulAdd( tbMakeVec3( 0.3f, 0.6f, 1.2f ), -0.25f, dir ), TOL );
}

static void test_capsule_box( void** state )
{
	(void)state;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 1.0f, 1.0f, 1.0f ), box );
	tbShapeProxy boxProxy = makeProxy( box, 8, 0.0f );

	// Upright capsule beside the +x face.
	tbVec3 upright[2] = { { 3.0f, 0.0f, -0.5f }, { 3.0f, 0.0f, 0.5f } };
	tbDistanceOutput out =
		distanceOf( boxProxy, tb_transformIdentity, makeProxy( upright, 2, 0.5f ), tb_transformIdentity, true, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 1.5f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 1.0f, 0.0f, 0.0f ), TOL );
	ASSERT_NEAR( out.pointA.x, 1.0f, TOL );
	ASSERT_NEAR( out.pointB.x, 2.5f, TOL );

	// Parallel to the vertical edge x = y = 1.
	tbVec3 byEdge[2] = { { 2.0f, 2.0f, -0.5f }, { 2.0f, 2.0f, 0.5f } };
	out = distanceOf( boxProxy, tb_transformIdentity, makeProxy( byEdge, 2, 0.25f ), tb_transformIdentity, true, NULL );
	ASSERT_NEAR( out.distance, sqrtf( 2.0f ) - 0.25f, TOL );
	tbVec3 diag = tbNormalize( tbMakeVec3( 1.0f, 1.0f, 0.0f ) );
	ASSERT_VEC_NEAR( out.normal, diag, TOL );
	ASSERT_NEAR( out.pointA.x, 1.0f, TOL );
	ASSERT_NEAR( out.pointA.y, 1.0f, TOL );

	// Tilted above the top face: its lower end (-0.5, 0, 2) is nearest.
	tbVec3 tilted[2] = { { -0.5f, 0.0f, 2.0f }, { 0.5f, 0.0f, 3.0f } };
	out = distanceOf( boxProxy, tb_transformIdentity, makeProxy( tilted, 2, 0.25f ), tb_transformIdentity, true, NULL );
	ASSERT_NEAR( out.distance, 0.75f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
	ASSERT_VEC_NEAR( out.pointA, tbMakeVec3( -0.5f, 0.0f, 1.0f ), TOL );
	ASSERT_VEC_NEAR( out.pointB, tbMakeVec3( -0.5f, 0.0f, 1.75f ), TOL );
}

// Touching and degenerate input ------------------------------------------------------------------

static void test_touching( void** state )
{
	(void)state;
	const float touchTolerance = 1.0e-5f;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 0.5f, 0.5f, 0.5f ), box );
	tbShapeProxy proxy = makeProxy( box, 8, 0.0f );

	// Stacked face to face, and with the upper box turned and shifted on the face.
	tbDistanceOutput out = distanceOf( proxy, tb_transformIdentity, proxy, makeXf( 0.0f, 0.0f, 1.0f ), false, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, touchTolerance );
	tbTransform turned =
		tbMakeTransform( tbMakeVec3( 0.1f, 0.2f, 1.0f ), tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.5f ) );
	out = distanceOf( proxy, tb_transformIdentity, proxy, turned, false, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, touchTolerance );

	// Edge on edge: A turned 45 degrees about x has its top edge at z = sqrt(2)/2, B turned 45
	// degrees about y has its bottom edge at zB - sqrt(2)/2.
	tbTransform xfA =
		tbMakeTransform( tb_vec3_zero, tbMakeQuatAxisAngle( tbMakeVec3( 1.0f, 0.0f, 0.0f ), 0.25f * TB_PI ) );
	tbTransform xfB = tbMakeTransform( tbMakeVec3( 0.0f, 0.0f, sqrtf( 2.0f ) ),
									   tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 1.0f, 0.0f ), 0.25f * TB_PI ) );
	out = distanceOf( proxy, xfA, proxy, xfB, false, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, touchTolerance );

	// A sphere resting on a face, radii included.
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };
	out = distanceOf( proxy, tb_transformIdentity, makeProxy( &centre, 1, 0.25f ), makeXf( 0.2f, -0.1f, 0.75f ), true,
					  NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, touchTolerance );
	ASSERT_VEC_NEAR( out.pointA, tbMakeVec3( 0.2f, -0.1f, 0.5f ), TOL );
}

// A flat hull (four coplanar points) against a sphere: the tetrahedra GJK builds are coplanar.
static void test_flat_hull_sphere( void** state )
{
	(void)state;
	tbVec3 square[4] = { { -1.0f, -1.0f, 0.0f }, { 1.0f, -1.0f, 0.0f }, { 1.0f, 1.0f, 0.0f }, { -1.0f, 1.0f, 0.0f } };
	tbShapeProxy flat = makeProxy( square, 4, 0.0f );
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };
	tbShapeProxy sphere = makeProxy( &centre, 1, 0.5f );

	tbDistanceOutput out = distanceOf( flat, tb_transformIdentity, sphere, makeXf( 0.3f, -0.2f, 2.0f ), true, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 1.5f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
	ASSERT_VEC_NEAR( out.pointA, tbMakeVec3( 0.3f, -0.2f, 0.0f ), TOL );

	out = distanceOf( flat, tb_transformIdentity, sphere, makeXf( 0.5f, 0.5f, -1.0f ), true, NULL );
	ASSERT_NEAR( out.distance, 0.5f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, -1.0f ), TOL );

	// In the plane of the square, beside an edge and beyond a corner.
	out = distanceOf( flat, tb_transformIdentity, sphere, makeXf( 3.0f, 0.5f, 0.0f ), true, NULL );
	ASSERT_NEAR( out.distance, 1.5f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 1.0f, 0.0f, 0.0f ), TOL );
	out = distanceOf( flat, tb_transformIdentity, sphere, makeXf( 2.0f, 2.0f, 0.0f ), true, NULL );
	ASSERT_NEAR( out.distance, sqrtf( 2.0f ) - 0.5f, TOL );

	// Centre inside the square: the cores overlap.
	out = distanceOf( flat, tb_transformIdentity, sphere, makeXf( 0.2f, 0.3f, 0.0f ), false, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, 1.0e-6f );
	ASSERT_VEC_NEAR( out.pointA, tbMakeVec3( 0.2f, 0.3f, 0.0f ), TOL );

	// Two copies of the square, coplanar and overlapping: a flat Minkowski difference.
	out = distanceOf( flat, tb_transformIdentity, flat, makeXf( 0.5f, 0.7f, 0.0f ), false, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, 1.0e-6f );
	// Parallel squares 0.4 apart.
	out = distanceOf( flat, tb_transformIdentity, flat, makeXf( 0.5f, 0.7f, 0.4f ), false, NULL );
	ASSERT_NEAR( out.distance, 0.4f, TOL );
}

static void test_coincident_centres( void** state )
{
	(void)state;
	tbVec3 point = { 0.0f, 0.0f, 0.0f };
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 0.5f, 1.0f, 0.25f ), box );
	tbVec3 seg[2] = { { 0.0f, 0.0f, -1.0f }, { 0.0f, 0.0f, 1.0f } };
	tbTransform xf = tbMakeTransform( tbMakeVec3( 4.0f, 5.0f, 6.0f ),
									  tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, -1.0f, 2.0f ) ), 1.2f ) );

	tbDistanceOutput out = distanceOf( makeProxy( &point, 1, 0.5f ), xf, makeProxy( &point, 1, 0.3f ), xf, true, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, 1.0e-6f );
	ASSERT_VEC_NEAR( out.pointA, xf.p, TOL );

	out = distanceOf( makeProxy( box, 8, 0.0f ), xf, makeProxy( box, 8, 0.0f ), xf, false, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, 1.0e-6f );

	out = distanceOf( makeProxy( seg, 2, 0.1f ), xf, makeProxy( seg, 2, 0.1f ), xf, true, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, 1.0e-6f );

	out = distanceOf( makeProxy( box, 8, 0.0f ), xf, makeProxy( &point, 1, 0.1f ), xf, true, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 0.0f, 1.0e-6f );

	// Repeated points in a proxy (a degenerate "hull") do not upset the simplex.
	tbVec3 repeated[6] = { { 1.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f },
						   { 1.0f, 1.0f, 0.0f }, { 1.0f, 1.0f, 0.0f }, { 1.0f, 0.0f, 0.0f } };
	out = distanceOf( makeProxy( repeated, 6, 0.0f ), tb_transformIdentity, makeProxy( &point, 1, 0.0f ),
					  makeXf( 3.0f, 0.5f, 0.0f ), false, NULL );
	assertFiniteDistance( &out );
	ASSERT_NEAR( out.distance, 2.0f, TOL );
}

// Warm start --------------------------------------------------------------------------------------

static void test_warm_start( void** state )
{
	(void)state;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 0.5f, 0.3f, 0.7f ), box );
	tbShapeProxy proxy = makeProxy( box, 8, 0.05f );
	tbTransform xfA = tbMakeTransform( tbMakeVec3( 0.1f, 0.2f, 0.3f ),
									   tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, 1.0f, 0.0f ) ), 0.4f ) );
	tbTransform xfB = tbMakeTransform( tbMakeVec3( 1.7f, 0.9f, 1.1f ),
									   tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 0.0f, 1.0f, 2.0f ) ), 1.1f ) );

	tbSimplexCache cache = { 0 };
	tbDistanceOutput cold = distanceOf( proxy, xfA, proxy, xfB, true, &cache );
	assertFiniteDistance( &cold );
	assert_true( cold.distance > 0.1f );
	assert_true( cache.count >= 1 && cache.count <= 3 );

	tbDistanceOutput warm = distanceOf( proxy, xfA, proxy, xfB, true, &cache );
	ASSERT_NEAR( warm.distance, cold.distance, 1.0e-6f );
	ASSERT_VEC_NEAR( warm.pointA, cold.pointA, 1.0e-5f );
	ASSERT_VEC_NEAR( warm.pointB, cold.pointB, 1.0e-5f );
	assert_true( warm.iterations <= cold.iterations );
	assert_true( warm.iterations <= 1 );

	// After a small motion the cached simplex still helps, and the answer equals a cold start's.
	xfB.p = tbAdd( xfB.p, tbMakeVec3( 0.01f, -0.02f, 0.005f ) );
	tbSimplexCache fresh = { 0 };
	tbDistanceOutput coldMoved = distanceOf( proxy, xfA, proxy, xfB, true, &fresh );
	tbDistanceOutput warmMoved = distanceOf( proxy, xfA, proxy, xfB, true, &cache );
	ASSERT_NEAR( warmMoved.distance, coldMoved.distance, 1.0e-5f );
	assert_true( warmMoved.iterations <= coldMoved.iterations );

	// A cache with indices past the proxies' ends is ignored (cold start), not read out of bounds.
	tbSimplexCache bad = { 2, { 7, 200 }, { 0, 3 } };
	tbDistanceOutput fromBad = distanceOf( proxy, xfA, proxy, xfB, true, &bad );
	ASSERT_NEAR( fromBad.distance, coldMoved.distance, 1.0e-5f );
	assert_true( bad.count >= 1 && bad.count <= 3 );
}

// Randomised: the reported points must be certified by a separating slab ---------------------------

static uint32_t s_seed = 12345u;

static float randomFloat( float lo, float hi )
{
	s_seed = s_seed * 1664525u + 1013904223u;
	return lo + ( hi - lo ) * (float)( s_seed >> 8 ) / 16777216.0f;
}

static tbVec3 randomVec( float lo, float hi )
{
	return tbMakeVec3( randomFloat( lo, hi ), randomFloat( lo, hi ), randomFloat( lo, hi ) );
}

static tbQuat randomQuat( void )
{
	tbVec3 axis = tbNormalize( randomVec( -1.0f, 1.0f ) );
	if ( tbLengthSquared( axis ) < 0.5f )
	{
		axis = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	}
	return tbMakeQuatAxisAngle( axis, randomFloat( -TB_PI, TB_PI ) );
}

// If every point of A lies behind the plane through pA with normal n, every point of B in front of
// the plane through pB, and pB - pA = d n with pA, pB in the hulls, then d is the exact distance:
// the slab proves d is a lower bound and the points prove it is attained.
static void test_random_distance_certified( void** state )
{
	(void)state;
	const float slabTolerance = 2.0e-4f;
	int separatedCount = 0;
	for ( int trial = 0; trial < 2000; ++trial )
	{
		tbVec3 pointsA[12], pointsB[12];
		int countA = 1 + trial % 12;
		int countB = 1 + ( trial / 12 ) % 12;
		for ( int i = 0; i < countA; ++i )
		{
			pointsA[i] = randomVec( -1.0f, 1.0f );
		}
		for ( int i = 0; i < countB; ++i )
		{
			pointsB[i] = tbMulVV( randomVec( -1.0f, 1.0f ), tbMakeVec3( 0.3f, 1.5f, 0.7f ) );
		}
		tbTransform xfA = tbMakeTransform( randomVec( -3.0f, 3.0f ), randomQuat() );
		tbTransform xfB = tbMakeTransform( randomVec( -3.0f, 3.0f ), randomQuat() );
		tbDistanceOutput out =
			distanceOf( makeProxy( pointsA, countA, 0.0f ), xfA, makeProxy( pointsB, countB, 0.0f ), xfB, false, NULL );
		assertFiniteDistance( &out );
		assert_true( out.iterations <= 32 );
		ASSERT_NEAR( tbDistance( out.pointA, out.pointB ), out.distance, slabTolerance );
		if ( out.distance < 1.0e-3f )
		{
			continue;
		}
		separatedCount += 1;
		ASSERT_NEAR( tbLength( out.normal ), 1.0f, 1.0e-4f );
		for ( int i = 0; i < countA; ++i )
		{
			float side = tbDot( tbSub( tbTransformPoint( xfA, pointsA[i] ), out.pointA ), out.normal );
			if ( side > slabTolerance )
			{
				fail_msg( "trial %d: point %d of A is %g m beyond the slab", trial, i, (double)side );
			}
		}
		for ( int i = 0; i < countB; ++i )
		{
			float side = tbDot( tbSub( tbTransformPoint( xfB, pointsB[i] ), out.pointB ), out.normal );
			if ( side < -slabTolerance )
			{
				fail_msg( "trial %d: point %d of B is %g m beyond the slab", trial, i, (double)-side );
			}
		}
	}
	assert_true( separatedCount > 1000 );
}

// EPA --------------------------------------------------------------------------------------------

static void test_epa_boxes_overlap_along_z( void** state )
{
	(void)state;
	const float depthTolerance = 1.0e-3f;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 0.5f, 0.5f, 0.5f ), box );
	tbShapeProxy proxy = makeProxy( box, 8, 0.0f );

	tbPenetrationOutput out = penetrationOf( proxy, tb_transformIdentity, proxy, makeXf( 0.1f, -0.2f, 0.9f ) );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, 0.1f, depthTolerance );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), depthTolerance );
	// A's deepest point is on its top face and B's on its bottom face, inside the overlap region.
	ASSERT_NEAR( out.pointA.z, 0.5f, depthTolerance );
	ASSERT_NEAR( out.pointB.z, 0.4f, depthTolerance );
	assert_true( out.pointA.x >= -0.4f - TOL && out.pointA.x <= 0.5f + TOL );
	assert_true( out.pointA.y >= -0.5f - TOL && out.pointA.y <= 0.3f + TOL );

	// Swapping the roles flips the normal.
	out = penetrationOf( proxy, makeXf( 0.1f, -0.2f, 0.9f ), proxy, tb_transformIdentity );
	ASSERT_NEAR( out.depth, 0.1f, depthTolerance );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, -1.0f ), depthTolerance );

	// Exactly touching, and within float noise of touching either way: depth 0, a clean +z normal
	// (the GJK closest-point vector is too short to give a direction here).
	const float zs[3] = { 1.0f, 1.0f - 1.0e-6f, 1.0f + 1.0e-6f };
	for ( int k = 0; k < 3; ++k )
	{
		tbTransform xfB = tbMakeTransform( tbMakeVec3( 0.1f, 0.2f, zs[k] ),
										   tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.3f ) );
		out = penetrationOf( proxy, tb_transformIdentity, proxy, xfB );
		assert_true( out.valid );
		ASSERT_NEAR( out.depth, 0.0f, 1.0e-5f );
		ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), 1.0e-4f );
	}

	// Separated boxes: negative depth equal to the gap.
	out = penetrationOf( proxy, tb_transformIdentity, proxy, makeXf( 0.0f, 0.0f, 1.3f ) );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, -0.3f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
}

static void test_epa_rotated_boxes( void** state )
{
	(void)state;
	const float depthTolerance = 1.0e-3f;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 0.5f, 0.5f, 0.5f ), box );
	tbShapeProxy proxy = makeProxy( box, 8, 0.0f );

	// B turned 45 degrees about x reaches down to z = 1.1 - sqrt(2)/2 with an edge. All other
	// separating axes (faces of B, edge pairs) give more overlap, so depth = 0.5 + sqrt(2)/2 - 1.1.
	tbTransform xfB = tbMakeTransform( tbMakeVec3( 0.0f, 0.0f, 1.1f ),
									   tbMakeQuatAxisAngle( tbMakeVec3( 1.0f, 0.0f, 0.0f ), 0.25f * TB_PI ) );
	tbPenetrationOutput out = penetrationOf( proxy, tb_transformIdentity, proxy, xfB );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, 0.5f + 0.5f * sqrtf( 2.0f ) - 1.1f, depthTolerance );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), depthTolerance );
	ASSERT_NEAR( out.pointB.z, 1.1f - 0.5f * sqrtf( 2.0f ), depthTolerance );
	ASSERT_NEAR( out.pointB.y, 0.0f, depthTolerance );

	// The whole pair rotated and moved: the same answer in the rotated frame.
	tbTransform frame = tbMakeTransform( tbMakeVec3( -3.0f, 2.0f, 7.0f ),
										 tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 2.0f, -1.0f, 0.5f ) ), 2.0f ) );
	out = penetrationOf( proxy, frame, proxy, tbMulTransforms( frame, xfB ) );
	ASSERT_NEAR( out.depth, 0.5f + 0.5f * sqrtf( 2.0f ) - 1.1f, depthTolerance );
	ASSERT_VEC_NEAR( out.normal, tbRotate( frame.q, tbMakeVec3( 0.0f, 0.0f, 1.0f ) ), depthTolerance );
}

static void test_epa_sphere_inside_box( void** state )
{
	(void)state;
	const float depthTolerance = 1.0e-3f;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 1.0f, 1.0f, 1.0f ), box );
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };

	// Nearest face is z = +1, 0.4 above the centre; plus the radius 0.25.
	tbPenetrationOutput out = penetrationOf( makeProxy( box, 8, 0.0f ), tb_transformIdentity,
											 makeProxy( &centre, 1, 0.25f ), makeXf( 0.2f, -0.1f, 0.6f ) );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, 0.65f, depthTolerance );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), depthTolerance );
	ASSERT_VEC_NEAR( out.pointA, tbMakeVec3( 0.2f, -0.1f, 1.0f ), depthTolerance );
	ASSERT_VEC_NEAR( out.pointB, tbMakeVec3( 0.2f, -0.1f, 0.35f ), depthTolerance );
}

static void test_epa_coincident_boxes( void** state )
{
	(void)state;
	const float depthTolerance = 1.0e-3f;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 0.5f, 0.5f, 0.5f ), box );
	tbShapeProxy proxy = makeProxy( box, 8, 0.0f );
	tbTransform xf = makeXf( 1.0f, 2.0f, 3.0f );

	// B must move a full box width (2 x 0.5, the half extent of the Minkowski difference) along a
	// face normal to clear A.
	tbPenetrationOutput out = penetrationOf( proxy, xf, proxy, xf );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, 1.0f, depthTolerance );
	tbVec3 absNormal = tbAbsVec( out.normal );
	float largest = tbMaxFloat( absNormal.x, tbMaxFloat( absNormal.y, absNormal.z ) );
	ASSERT_NEAR( largest, 1.0f, depthTolerance );
	ASSERT_NEAR( tbLength( out.normal ), 1.0f, 1.0e-5f );

	// Moving B by a little more than depth along the normal separates, a little less does not.
	tbTransform moved = makeXf( 1.0f, 2.0f, 3.0f );
	moved.p = tbMulAdd( xf.p, out.depth + 2.0e-3f, out.normal );
	tbDistanceOutput apart = distanceOf( proxy, xf, proxy, moved, false, NULL );
	assert_true( apart.distance > 1.0e-3f );
	moved.p = tbMulAdd( xf.p, out.depth - 2.0e-3f, out.normal );
	tbDistanceOutput still = distanceOf( proxy, xf, proxy, moved, false, NULL );
	ASSERT_NEAR( still.distance, 0.0f, 1.0e-6f );
}

static void test_epa_capsule_box_deep( void** state )
{
	(void)state;
	const float depthTolerance = 1.0e-3f;
	tbVec3 box[8];
	makeBoxPoints( tbMakeVec3( 2.0f, 2.0f, 1.0f ), box );
	tbVec3 seg[2] = { { -0.5f, 0.0f, 0.5f }, { 0.5f, 0.0f, 0.5f } };

	// The segment is 0.5 below the top face; add the radius.
	tbPenetrationOutput out = penetrationOf( makeProxy( box, 8, 0.0f ), tb_transformIdentity, makeProxy( seg, 2, 0.2f ),
											 tb_transformIdentity );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, 0.7f, depthTolerance );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), depthTolerance );
	ASSERT_NEAR( out.pointA.z, 1.0f, depthTolerance );
	ASSERT_NEAR( out.pointB.z, 0.3f, depthTolerance );
	assert_true( out.pointB.x >= -0.5f - TOL && out.pointB.x <= 0.5f + TOL );

	// Capsule B standing upright inside the box, offset towards +x: the +x face at 2 - 1.7 is
	// nearer than the top (1 - 0.6).
	tbVec3 upright[2] = { { 1.7f, 0.0f, -0.6f }, { 1.7f, 0.0f, 0.6f } };
	out = penetrationOf( makeProxy( box, 8, 0.0f ), tb_transformIdentity, makeProxy( upright, 2, 0.1f ),
						 tb_transformIdentity );
	ASSERT_NEAR( out.depth, 0.4f, depthTolerance );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 1.0f, 0.0f, 0.0f ), depthTolerance );
}

static void test_epa_radii_only( void** state )
{
	(void)state;
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };

	// Cores apart by 1.5, radii 1 + 1: overlap 0.5 along +x.
	tbPenetrationOutput out = penetrationOf( makeProxy( &centre, 1, 1.0f ), tb_transformIdentity,
											 makeProxy( &centre, 1, 1.0f ), makeXf( 1.5f, 0.0f, 0.0f ) );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, 0.5f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 1.0f, 0.0f, 0.0f ), TOL );
	ASSERT_VEC_NEAR( out.pointA, tbMakeVec3( 1.0f, 0.0f, 0.0f ), TOL );
	ASSERT_VEC_NEAR( out.pointB, tbMakeVec3( 0.5f, 0.0f, 0.0f ), TOL );

	// Apart: depth is minus the gap.
	out = penetrationOf( makeProxy( &centre, 1, 1.0f ), tb_transformIdentity, makeProxy( &centre, 1, 0.5f ),
						 makeXf( 0.0f, -4.0f, 0.0f ) );
	ASSERT_NEAR( out.depth, -2.5f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, -1.0f, 0.0f ), TOL );
}

// Minkowski differences that are a point, a segment or flat: EPA has no tetrahedron to start from.
static void test_epa_degenerate( void** state )
{
	(void)state;
	const float depthTolerance = 1.0e-3f;
	tbVec3 centre = { 0.0f, 0.0f, 0.0f };

	// Coincident sphere centres: any direction works; +Z is chosen, depth is the radii.
	tbPenetrationOutput out = penetrationOf( makeProxy( &centre, 1, 0.5f ), makeXf( 1.0f, 1.0f, 1.0f ),
											 makeProxy( &centre, 1, 0.25f ), makeXf( 1.0f, 1.0f, 1.0f ) );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, 0.75f, depthTolerance );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), 1.0e-5f );

	// A sphere centre on a capsule's axis: any direction across the axis.
	tbVec3 seg[2] = { { -1.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f } };
	out = penetrationOf( makeProxy( seg, 2, 0.3f ), tb_transformIdentity, makeProxy( &centre, 1, 0.2f ),
						 makeXf( 0.5f, 0.0f, 0.0f ) );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, 0.5f, depthTolerance );
	ASSERT_NEAR( out.normal.x, 0.0f, depthTolerance );
	ASSERT_NEAR( tbLength( out.normal ), 1.0f, 1.0e-5f );

	// Capsules crossing through each other: the difference of the segments is a flat
	// parallelogram, so the cores just touch and the depth is the radii along its normal (z).
	tbVec3 segY[2] = { { 0.0f, -1.0f, 0.0f }, { 0.0f, 1.0f, 0.0f } };
	out = penetrationOf( makeProxy( seg, 2, 0.3f ), tb_transformIdentity, makeProxy( segY, 2, 0.2f ),
						 makeXf( 0.2f, 0.1f, 0.0f ) );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, 0.5f, depthTolerance );
	ASSERT_NEAR( fabsf( out.normal.z ), 1.0f, depthTolerance );

	// A flat square with a sphere centred in its plane, inside it.
	tbVec3 square[4] = { { -1.0f, -1.0f, 0.0f }, { 1.0f, -1.0f, 0.0f }, { 1.0f, 1.0f, 0.0f }, { -1.0f, 1.0f, 0.0f } };
	out = penetrationOf( makeProxy( square, 4, 0.0f ), tb_transformIdentity, makeProxy( &centre, 1, 0.5f ),
						 makeXf( 0.2f, 0.3f, 0.0f ) );
	assert_true( out.valid );
	ASSERT_NEAR( out.depth, 0.5f, depthTolerance );
	ASSERT_NEAR( fabsf( out.normal.z ), 1.0f, depthTolerance );
	ASSERT_VEC_NEAR( out.pointB, tbMulAdd( tbMakeVec3( 0.2f, 0.3f, 0.0f ), -0.5f, out.normal ), depthTolerance );

	// The sphere slightly above the square: the cores are apart, the normal must be +z.
	out = penetrationOf( makeProxy( square, 4, 0.0f ), tb_transformIdentity, makeProxy( &centre, 1, 0.5f ),
						 makeXf( 0.2f, 0.3f, 0.1f ) );
	ASSERT_NEAR( out.depth, 0.4f, TOL );
	ASSERT_VEC_NEAR( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
}

// Travel of B along unit u after which a plane normal to u separates the rounded shapes: the
// support function of the rounded difference A - B along u. It bounds the true separating travel
// along u from above, and its minimum over all u is the penetration depth.
static float separatingDistanceAlong( const tbVec3* pointsA, int countA, tbTransform xfA, const tbVec3* pointsB,
									  int countB, tbTransform xfB, float radius, tbVec3 u )
{
	float maxA = -INFINITY;
	float minB = INFINITY;
	for ( int i = 0; i < countA; ++i )
	{
		maxA = fmaxf( maxA, tbDot( tbTransformPoint( xfA, pointsA[i] ), u ) );
	}
	for ( int i = 0; i < countB; ++i )
	{
		minB = fminf( minB, tbDot( tbTransformPoint( xfB, pointsB[i] ), u ) );
	}
	return maxA - minB + radius;
}

// Randomised EPA: the depth must equal the separating distance along the reported normal, and no
// sampled direction may separate with less travel (the depth is the minimum over directions).
static void test_random_penetration( void** state )
{
	(void)state;
	const float depthTolerance = 2.0e-3f;
	int overlapping = 0;
	for ( int trial = 0; trial < 500; ++trial )
	{
		tbVec3 pointsA[10], pointsB[10];
		int countA = 4 + trial % 7;
		int countB = 1 + ( trial / 7 ) % 10;
		for ( int i = 0; i < countA; ++i )
		{
			pointsA[i] = randomVec( -1.0f, 1.0f );
		}
		for ( int i = 0; i < countB; ++i )
		{
			pointsB[i] = randomVec( -0.6f, 0.6f );
		}
		float radiusA = ( trial % 3 ) == 0 ? 0.1f : 0.0f;
		float radiusB = ( trial % 5 ) == 0 ? 0.2f : 0.0f;
		tbTransform xfA = tbMakeTransform( randomVec( -0.3f, 0.3f ), randomQuat() );
		tbTransform xfB = tbMakeTransform( randomVec( -0.3f, 0.3f ), randomQuat() );
		tbShapeProxy a = makeProxy( pointsA, countA, radiusA );
		tbShapeProxy b = makeProxy( pointsB, countB, radiusB );

		tbPenetrationOutput out = penetrationOf( a, xfA, b, xfB );
		assert_true( out.valid );
		assert_true( tbIsValidVec3( out.pointA ) && tbIsValidVec3( out.pointB ) && tbIsValidFloat( out.depth ) );
		ASSERT_NEAR( tbLength( out.normal ), 1.0f, 1.0e-4f );
		if ( out.depth <= 0.0f )
		{
			continue;
		}
		overlapping += 1;

		float radius = radiusA + radiusB;
		float along = separatingDistanceAlong( pointsA, countA, xfA, pointsB, countB, xfB, radius, out.normal );
		if ( !near( along, out.depth, depthTolerance ) )
		{
			fail_msg( "trial %d: depth %g but separating distance along the normal %g", trial, (double)out.depth,
					  (double)along );
		}
		for ( int k = 0; k < 200; ++k )
		{
			tbVec3 u = tbNormalize( randomVec( -1.0f, 1.0f ) );
			if ( tbLengthSquared( u ) < 0.5f )
			{
				continue;
			}
			float other = separatingDistanceAlong( pointsA, countA, xfA, pointsB, countB, xfB, radius, u );
			if ( other < out.depth - depthTolerance )
			{
				fail_msg( "trial %d: direction (%g %g %g) separates after %g < depth %g", trial, (double)u.x,
						  (double)u.y, (double)u.z, (double)other, (double)out.depth );
			}
		}
		// pointA - pointB spans the depth along the normal.
		ASSERT_NEAR( tbDot( tbSub( out.pointA, out.pointB ), out.normal ), out.depth, depthTolerance );
	}
	assert_true( overlapping > 300 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_sphere_sphere ),
		cmocka_unit_test( test_sphere_box_regions ),
		cmocka_unit_test( test_box_box ),
		cmocka_unit_test( test_capsule_capsule ),
		cmocka_unit_test( test_capsule_box ),
		cmocka_unit_test( test_touching ),
		cmocka_unit_test( test_flat_hull_sphere ),
		cmocka_unit_test( test_coincident_centres ),
		cmocka_unit_test( test_warm_start ),
		cmocka_unit_test( test_random_distance_certified ),
		cmocka_unit_test( test_epa_boxes_overlap_along_z ),
		cmocka_unit_test( test_epa_rotated_boxes ),
		cmocka_unit_test( test_epa_sphere_inside_box ),
		cmocka_unit_test( test_epa_coincident_boxes ),
		cmocka_unit_test( test_epa_capsule_box_deep ),
		cmocka_unit_test( test_epa_radii_only ),
		cmocka_unit_test( test_epa_degenerate ),
		cmocka_unit_test( test_random_penetration ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
