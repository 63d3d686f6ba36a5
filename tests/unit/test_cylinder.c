// Unit tests of the cylinder shape: mass properties, bounds, ray casts, proxies (GJK, shape casts,
// time of impact), contact manifolds against every shape, and cylinders in a world (resting
// upright, lying, rolling, stacked, on a mesh, in a snapshot). Expected values come from the
// formulas and the geometry of each scene; tolerances are stated in metres, radians or relative.
// SPDX-License-Identifier: MIT
#include "tumble/tumble.h"

#include "world_helpers.h"

// cmocka needs these before its header.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>

#define SPEC TB_SPECULATIVE_DISTANCE
#define DT ( 1.0f / 60.0f )

static tbQuat axisAngle( float x, float y, float z, float angle )
{
	return tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( x, y, z ) ), angle );
}

static tbTransform at( float x, float y, float z, tbQuat q )
{
	return tbMakeTransform( tbMakeVec3( x, y, z ), q );
}

static void assertRelative( float actual, float expected, float relative )
{
	assert_float_equal( actual, expected, relative * fabsf( expected ) );
}

// Mass ---------------------------------------------------------------------------------------------

static void testMassProperties( void** state )
{
	(void)state;
	const float r = 0.3f, h = 0.5f, density = 700.0f;
	const float L = 2.0f * h;
	const float m = density * TB_PI * r * r * L;
	const float axial = 0.5f * m * r * r;
	const float transverse = m * ( 3.0f * r * r + L * L ) / 12.0f;

	// Along z: the tensor is diagonal.
	tbCylinder upright = tbMakeCylinder( tbMakeVec3( 1.0f, 2.0f, 3.0f ), tb_quatIdentity, r, h );
	tbMassData data = tbComputeCylinderMass( &upright, density );
	assertRelative( data.mass, m, 1.0e-5f );
	assertRelative( data.rotationalInertia.cx.x, transverse, 1.0e-5f );
	assertRelative( data.rotationalInertia.cy.y, transverse, 1.0e-5f );
	assertRelative( data.rotationalInertia.cz.z, axial, 1.0e-5f );
	assert_float_equal( data.rotationalInertia.cx.y, 0.0f, 1.0e-5f * axial );
	assert_float_equal( data.center.x, 1.0f, 1.0e-6f );
	assert_float_equal( data.center.z, 3.0f, 1.0e-6f );

	// Turned: u^T I u is the axial moment, any axis across it the transverse one.
	tbQuat q = axisAngle( 1.0f, 2.0f, 0.5f, 0.8f );
	tbCylinder turned = tbMakeCylinder( tb_vec3_zero, q, r, h );
	data = tbComputeCylinderMass( &turned, density );
	tbVec3 u = tbRotate( q, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	tbVec3 v = tbRotate( q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
	assertRelative( tbDot( u, tbMulMV( data.rotationalInertia, u ) ), axial, 1.0e-5f );
	assertRelative( tbDot( v, tbMulMV( data.rotationalInertia, v ) ), transverse, 1.0e-5f );
	assert_float_equal( tbDot( u, tbMulMV( data.rotationalInertia, v ) ), 0.0f, 1.0e-5f * transverse );
}

// Bounds: the box of many rim points is inside the computed box and reaches it within 1 mm.
static void testBounds( void** state )
{
	(void)state;
	tbCylinder cylinder = tbMakeCylinder( tbMakeVec3( 0.2f, 0.0f, 0.1f ), axisAngle( 1.0f, 0.3f, 0.0f, 0.7f ), 0.4f, 0.6f );
	tbTransform xf = at( 1.0f, -2.0f, 0.5f, axisAngle( 0.0f, 0.0f, 1.0f, 0.4f ) );
	tbAABB box = tbComputeCylinderAABB( &cylinder, xf );
	tbVec3 u = tbNormalize( tbSub( cylinder.center2, cylinder.center1 ) );
	tbVec3 t1, t2;
	tbComputeBasis( u, &t1, &t2 );
	tbVec3 lo = { FLT_MAX, FLT_MAX, FLT_MAX }, hi = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
	for ( int k = 0; k < 3600; ++k )
	{
		float a = 2.0f * TB_PI * (float)k / 3600.0f;
		tbVec3 radial = tbMulSV( cylinder.radius, tbAdd( tbMulSV( cosf( a ), t1 ), tbMulSV( sinf( a ), t2 ) ) );
		for ( int c = 0; c < 2; ++c )
		{
			tbVec3 p = tbTransformPoint( xf, tbAdd( c == 0 ? cylinder.center1 : cylinder.center2, radial ) );
			lo = tbMinVec( lo, p );
			hi = tbMaxVec( hi, p );
		}
	}
	const float* l = &lo.x;
	const float* hh = &hi.x;
	const float* bl = &box.lowerBound.x;
	const float* bh = &box.upperBound.x;
	for ( int i = 0; i < 3; ++i )
	{
		assert_true( bl[i] <= l[i] + 1.0e-5f && hh[i] <= bh[i] + 1.0e-5f );
		assert_float_equal( bl[i], l[i], 1.0e-3f );
		assert_float_equal( bh[i], hh[i], 1.0e-3f );
	}
}

// Ray casts ------------------------------------------------------------------------------------------

static tbCastOutput castRay( const tbCylinder* c, tbVec3 from, tbVec3 to )
{
	tbRayCastInput input = { from, tbSub( to, from ), 1.0f };
	return tbRayCastCylinder( &input, c );
}

static void testRayCasts( void** state )
{
	(void)state;
	// Radius 0.5, half height 1, axis z, centre (0, 0, 1): side at x = +-0.5, caps at z = 0 and 2.
	tbCylinder c = tbMakeCylinder( tbMakeVec3( 0.0f, 0.0f, 1.0f ), tb_quatIdentity, 0.5f, 1.0f );

	// Side, head on: from x = 3 to x = -1 (4 m): hits at x = 0.5, 2.5 m along.
	tbCastOutput out = castRay( &c, tbMakeVec3( 3.0f, 0.0f, 1.5f ), tbMakeVec3( -1.0f, 0.0f, 1.5f ) );
	assert_true( out.hit );
	assert_float_equal( out.fraction * 4.0f, 2.5f, 1.0e-5f );
	assert_float_equal( out.normal.x, 1.0f, 1.0e-5f );

	// Side, off centre by y = 0.3: hits at x = sqrt(0.25 - 0.09) = 0.4, 2.6 m along; normal (0.8, 0.6).
	out = castRay( &c, tbMakeVec3( 3.0f, 0.3f, 0.5f ), tbMakeVec3( -1.0f, 0.3f, 0.5f ) );
	assert_true( out.hit );
	assert_float_equal( out.fraction * 4.0f, 2.6f, 1.0e-5f );
	assert_float_equal( out.normal.x, 0.8f, 1.0e-5f );
	assert_float_equal( out.normal.y, 0.6f, 1.0e-5f );

	// Top cap from above at a slant: from (0.2, 0, 3) to (0.2, 0.3, 1): hits z = 2 at half way.
	out = castRay( &c, tbMakeVec3( 0.2f, 0.0f, 3.0f ), tbMakeVec3( 0.2f, 0.3f, 1.0f ) );
	assert_true( out.hit );
	assert_float_equal( out.fraction, 0.5f, 1.0e-5f );
	assert_float_equal( out.normal.z, 1.0f, 1.0e-5f );
	assert_float_equal( out.point.y, 0.15f, 1.0e-5f );

	// Bottom cap from below.
	out = castRay( &c, tbMakeVec3( 0.1f, 0.1f, -1.0f ), tbMakeVec3( 0.1f, 0.1f, 1.0f ) );
	assert_true( out.hit );
	assert_float_equal( out.fraction * 2.0f, 1.0f, 1.0e-5f );
	assert_float_equal( out.normal.z, -1.0f, 1.0e-5f );

	// Past the rim: over the top cap's plane but outside the radius, and beside the side above the cap.
	assert_false( castRay( &c, tbMakeVec3( 0.6f, 0.0f, 3.0f ), tbMakeVec3( 0.6f, 0.0f, -1.0f ) ).hit );
	assert_false( castRay( &c, tbMakeVec3( 3.0f, 0.0f, 2.1f ), tbMakeVec3( -3.0f, 0.0f, 2.1f ) ).hit );
	// Too short, and from inside.
	assert_false( castRay( &c, tbMakeVec3( 3.0f, 0.0f, 1.0f ), tbMakeVec3( 1.0f, 0.0f, 1.0f ) ).hit );
	assert_false( castRay( &c, tbMakeVec3( 0.0f, 0.0f, 1.0f ), tbMakeVec3( 3.0f, 0.0f, 1.0f ) ).hit );
	// From the surface heading in: fraction 0.
	out = castRay( &c, tbMakeVec3( 0.5f, 0.0f, 1.0f ), tbMakeVec3( -1.0f, 0.0f, 1.0f ) );
	assert_true( out.hit );
	assert_float_equal( out.fraction, 0.0f, 1.0e-6f );

	// A turned cylinder in a world: the ray finds the side at the same distance.
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	bd.rotation = axisAngle( 0.0f, 1.0f, 0.0f, 0.5f * TB_PI );
	tbBodyId body = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbCylinder local = tbMakeCylinder( tb_vec3_zero, tb_quatIdentity, 0.5f, 1.0f );
	tbShapeId shape = tbCreateCylinderShape( body, &sd, &local, NULL );
	assert_int_equal( tbShape_GetType( shape ), tbShape_cylinder );
	tbRayResult ray = tbWorld_CastRayClosest( world, tbMakeVec3( 0.3f, 0.0f, 5.0f ), tbMakeVec3( 0.0f, 0.0f, -5.0f ),
											  tbDefaultQueryFilter() );
	assert_true( ray.hit );
	assert_float_equal( ray.point.z, 1.5f, 1.0e-5f );
	// Along the lying axis: the cap at x = 1.
	ray = tbWorld_CastRayClosest( world, tbMakeVec3( 4.0f, 0.1f, 1.1f ), tbMakeVec3( -4.0f, 0.0f, 0.0f ), tbDefaultQueryFilter() );
	assert_true( ray.hit );
	assert_float_equal( ray.point.x, 1.0f, 1.0e-5f );
	tbDestroyWorld( world );
}

// Proxies ---------------------------------------------------------------------------------------------

static void testDistanceAndCasts( void** state )
{
	(void)state;
	// Cylinder r 0.5, h 1 along z at the origin; a sphere r 0.25 at distance from the side and from
	// the rim: the exact gaps follow from the geometry.
	tbCylinder c = tbMakeCylinder( tb_vec3_zero, tb_quatIdentity, 0.5f, 1.0f );
	tbSphere s = { tb_vec3_zero, 0.25f };
	tbDistanceInput input = { tbMakeCylinderProxy( &c ), tbMakeSphereProxy( &s ), tb_transformIdentity, tb_transformIdentity, true };
	input.transformB = at( 0.0f, 2.0f, 0.3f, tb_quatIdentity );
	tbSimplexCache cache = { 0 };
	tbDistanceOutput out = tbShapeDistance( &input, &cache );
	assert_float_equal( out.distance, 2.0f - 0.5f - 0.25f, 1.0e-4f );
	// Beyond the rim: from (1.5, 0, 2) the rim point (0.5, 0, 1) is sqrt(2) away.
	input.transformB = at( 1.5f, 0.0f, 2.0f, tb_quatIdentity );
	out = tbShapeDistance( &input, &cache );
	assert_float_equal( out.distance, sqrtf( 2.0f ) - 0.25f, 1.0e-4f );
	assert_float_equal( out.pointA.x, 0.5f, 1.0e-3f );
	assert_float_equal( out.pointA.z, 1.0f, 1.0e-3f );

	// Shape cast: a box (half 0.5) falling onto the cylinder's cap from 3 m up touches after
	// 3 - 1 - 0.5 = 1.5 m of its 3 m path.
	tbHull* box = tbMakeBoxHull( tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity );
	tbShapeCastPairInput cast = { tbMakeCylinderProxy( &c ), tbMakeHullProxy( box ), tb_transformIdentity,
								  at( 0.2f, 0.1f, 3.0f, tb_quatIdentity ), tbMakeVec3( 0.0f, 0.0f, -3.0f ), 1.0f };
	tbCastOutput hit = tbShapeCast( &cast );
	assert_true( hit.hit );
	assert_float_equal( hit.fraction * 3.0f, 1.5f, 1.0e-3f );
	assert_float_equal( hit.normal.z, 1.0f, 1.0e-3f );
	// The cylinder cast sideways at a sphere: the side reaches it after 3 - 0.5 - 0.25 m.
	tbShapeCastPairInput side = { tbMakeSphereProxy( &s ), tbMakeCylinderProxy( &c ), tb_transformIdentity,
								  at( -3.0f, 0.0f, 0.2f, tb_quatIdentity ), tbMakeVec3( 4.0f, 0.0f, 0.0f ), 1.0f };
	hit = tbShapeCast( &side );
	assert_true( hit.hit );
	assert_float_equal( hit.fraction * 4.0f, 2.25f, 1.0e-3f );
	tbDestroyHull( box );

	// Time of impact: the cylinder at 100 m/s towards a thin plate is stopped before it, never past.
	tbHull* plate = tbMakeBoxHull( tbMakeVec3( 0.05f, 2.0f, 2.0f ), tb_transformIdentity );
	tbTOIInput toi;
	toi.proxyA = tbMakeHullProxy( plate );
	toi.proxyB = tbMakeCylinderProxy( &c );
	toi.sweepA = ( tbSweep ){ tb_vec3_zero, tb_vec3_zero, tb_vec3_zero, tb_quatIdentity, tb_quatIdentity };
	toi.sweepB = ( tbSweep ){ tb_vec3_zero, tbMakeVec3( -1.0f, 0.0f, 0.0f ), tbMakeVec3( 0.67f, 0.0f, 0.0f ), tb_quatIdentity,
							  tb_quatIdentity };
	toi.maxFraction = 1.0f;
	toi.target = TB_LINEAR_SLOP;
	tbTOIOutput t = tbTimeOfImpact( &toi );
	assert_int_equal( t.state, tbTOIState_hit );
	// Contact when the side (x + 0.5) meets the plate's face at -0.05: centre at -0.55, 0.45 of 1.67 m.
	float x = -1.0f + t.fraction * 1.67f;
	assert_true( x + 0.5f <= -0.05f );
	assert_float_equal( x, -0.55f - TB_LINEAR_SLOP, 2.0e-3f );
	tbDestroyHull( plate );
}

// Manifolds -----------------------------------------------------------------------------------------

static float deepest( const tbManifold* m )
{
	float s = FLT_MAX;
	for ( int i = 0; i < m->pointCount; ++i )
	{
		s = fminf( s, m->points[i].separation );
	}
	return s;
}

static void testSphereAndCapsuleDepths( void** state )
{
	(void)state;
	tbCylinder c = tbMakeCylinder( tb_vec3_zero, tb_quatIdentity, 0.5f, 1.0f );
	tbSphere s = { tb_vec3_zero, 0.3f };

	// On the side, 0.1 m deep: centre 0.7 from the axis. Normal along +x (A to B).
	tbManifold m = tbCollideCylinderAndSphere( &c, tb_transformIdentity, &s, at( 0.7f, 0.0f, 0.2f, tb_quatIdentity ), SPEC );
	assert_int_equal( m.pointCount, 1 );
	assert_float_equal( m.points[0].separation, -0.1f, 1.0e-3f );
	assert_float_equal( m.normal.x, 1.0f, 1.0e-3f );
	// On the cap, 0.01 m apart.
	m = tbCollideCylinderAndSphere( &c, tb_transformIdentity, &s, at( 0.1f, 0.2f, 1.31f, tb_quatIdentity ), SPEC );
	assert_int_equal( m.pointCount, 1 );
	assert_float_equal( m.points[0].separation, 0.01f, 1.0e-3f );
	assert_float_equal( m.normal.z, 1.0f, 1.0e-3f );
	// At the rim: centre (0.5 + 0.2, 0, 1 + 0.2): 0.2 sqrt 2 from the rim, separation 0.2828 - 0.3.
	m = tbCollideCylinderAndSphere( &c, tb_transformIdentity, &s, at( 0.7f, 0.0f, 1.2f, tb_quatIdentity ), SPEC );
	assert_int_equal( m.pointCount, 1 );
	assert_float_equal( m.points[0].separation, 0.2f * sqrtf( 2.0f ) - 0.3f, 1.0e-3f );
	assert_float_equal( m.normal.x, sqrtf( 0.5f ), 1.0e-3f );
	// Far: nothing.
	m = tbCollideCylinderAndSphere( &c, tb_transformIdentity, &s, at( 2.0f, 0.0f, 0.0f, tb_quatIdentity ), SPEC );
	assert_int_equal( m.pointCount, 0 );

	// A capsule (r 0.1, half length 0.4) lying across the cap, 0.02 m deep: two points.
	tbCapsule capsule = { { -0.4f, 0.0f, 0.0f }, { 0.4f, 0.0f, 0.0f }, 0.1f };
	m = tbCollideCylinderAndCapsule( &c, tb_transformIdentity, &capsule, at( 0.0f, 0.1f, 1.08f, tb_quatIdentity ), SPEC );
	assert_int_equal( m.pointCount, 2 );
	assert_float_equal( m.points[0].separation, -0.02f, 1.0e-3f );
	assert_float_equal( m.points[1].separation, -0.02f, 1.0e-3f );
	assert_float_equal( m.normal.z, 1.0f, 1.0e-4f );
	// The capsule standing beside the side, parallel to the axis: two points 0.015 m apart.
	tbCapsule upright = { { 0.0f, 0.0f, -0.4f }, { 0.0f, 0.0f, 0.4f }, 0.1f };
	m = tbCollideCylinderAndCapsule( &c, tb_transformIdentity, &upright, at( 0.0f, -0.615f, 0.0f, tb_quatIdentity ), SPEC );
	assert_int_equal( m.pointCount, 2 );
	assert_float_equal( m.points[0].separation, 0.015f, 1.0e-3f );
	assert_float_equal( m.points[1].separation, 0.015f, 1.0e-3f );
	assert_float_equal( m.normal.y, -1.0f, 1.0e-3f );
}

static void testCylinderPairs( void** state )
{
	(void)state;
	tbCylinder c = tbMakeCylinder( tb_vec3_zero, tb_quatIdentity, 0.5f, 0.5f );

	// Stacked: B's bottom cap 0.01 m into A's top cap, offset by 0.2: four points, all 0.01 deep.
	tbManifold m = tbCollideCylinders( &c, tb_transformIdentity, &c, at( 0.2f, 0.0f, 0.99f, tb_quatIdentity ), SPEC );
	assert_int_equal( m.pointCount, 4 );
	for ( int i = 0; i < 4; ++i )
	{
		assert_float_equal( m.points[i].separation, -0.01f, 1.0e-3f );
		// Every point lies in the lens both caps cover.
		tbVec3 p = m.points[i].point;
		assert_true( p.x * p.x + p.y * p.y <= 0.25f + 1.0e-3f );
		assert_true( ( p.x - 0.2f ) * ( p.x - 0.2f ) + p.y * p.y <= 0.25f + 1.0e-3f );
	}
	assert_float_equal( m.normal.z, 1.0f, 1.0e-4f );

	// Lying one on the other (axes along x), 0.99 m apart: two points, 0.01 deep.
	tbQuat lying = axisAngle( 0.0f, 1.0f, 0.0f, 0.5f * TB_PI );
	m = tbCollideCylinders( &c, at( 0.0f, 0.0f, 0.0f, lying ), &c, at( 0.1f, 0.0f, 0.99f, lying ), SPEC );
	assert_int_equal( m.pointCount, 2 );
	assert_float_equal( m.points[0].separation, -0.01f, 1.0e-3f );
	assert_float_equal( m.points[1].separation, -0.01f, 1.0e-3f );
	assert_float_equal( m.normal.z, 1.0f, 1.0e-3f );

	// Crossed (x and y axes), one on the other: one point, 0.015 m deep.
	tbQuat across = axisAngle( 1.0f, 0.0f, 0.0f, 0.5f * TB_PI );
	m = tbCollideCylinders( &c, at( 0.0f, 0.0f, 0.0f, lying ), &c, at( 0.0f, 0.0f, 0.985f, across ), SPEC );
	assert_int_equal( m.pointCount, 1 );
	assert_float_equal( m.points[0].separation, -0.015f, 1.0e-3f );
	assert_float_equal( m.normal.z, 1.0f, 1.0e-3f );

	// Rim on rim, tilted: compare with GJK's distance of the two proxies.
	tbTransform xfB = at( 0.8f, 0.3f, 1.1f, axisAngle( 1.0f, 1.0f, 0.0f, 0.6f ) );
	m = tbCollideCylinders( &c, tb_transformIdentity, &c, xfB, 0.5f );
	tbDistanceInput input = { tbMakeCylinderProxy( &c ), tbMakeCylinderProxy( &c ), tb_transformIdentity, xfB, true };
	tbSimplexCache cache = { 0 };
	float gap = tbShapeDistance( &input, &cache ).distance;
	assert_true( gap > 0.0f );
	assert_true( m.pointCount >= 1 );
	assert_float_equal( deepest( &m ), gap, 1.0e-3f );
}

static void testHullManifolds( void** state )
{
	(void)state;
	tbHull* floor = tbMakeBoxHull( tbMakeVec3( 5.0f, 5.0f, 0.5f ), tb_transformIdentity );
	tbCylinder c = tbMakeCylinder( tb_vec3_zero, tb_quatIdentity, 0.4f, 0.3f );
	tbTransform ground = at( 0.0f, 0.0f, -0.5f, tb_quatIdentity );

	// Upright, 0.005 m into the floor: 4 points on the rim, each 0.005 deep, normal -z (A to B).
	tbManifold m = tbCollideCylinderAndHull( &c, at( 1.0f, 2.0f, 0.295f, tb_quatIdentity ), floor, ground, SPEC );
	assert_int_equal( m.pointCount, 4 );
	for ( int i = 0; i < 4; ++i )
	{
		assert_float_equal( m.points[i].separation, -0.005f, 1.0e-4f );
		tbVec3 p = tbSub( m.points[i].point, tbMakeVec3( 1.0f, 2.0f, 0.0f ) );
		assert_float_equal( sqrtf( p.x * p.x + p.y * p.y ), 0.4f, 1.0e-3f );
	}
	assert_float_equal( m.normal.z, -1.0f, 1.0e-5f );

	// Lying (axis along y), 0.004 m above: two points at the ends of the bottom line.
	tbQuat lying = axisAngle( 1.0f, 0.0f, 0.0f, 0.5f * TB_PI );
	m = tbCollideCylinderAndHull( &c, at( 0.0f, 0.0f, 0.404f, lying ), floor, ground, SPEC );
	assert_int_equal( m.pointCount, 2 );
	assert_float_equal( m.points[0].separation, 0.004f, 1.0e-4f );
	assert_float_equal( m.points[1].separation, 0.004f, 1.0e-4f );
	assert_float_equal( fabsf( m.points[0].point.y - m.points[1].point.y ), 0.6f, 1.0e-3f );

	// Leaning 40 degrees on its rim: one point, the lowest rim point's height.
	tbQuat lean = axisAngle( 1.0f, 0.0f, 0.0f, 0.698132f );
	float height = 0.4f * sinf( 0.698132f ) + 0.3f * cosf( 0.698132f );
	m = tbCollideCylinderAndHull( &c, at( 0.0f, 0.0f, height + 0.003f, lean ), floor, ground, SPEC );
	assert_int_equal( m.pointCount, 1 );
	assert_float_equal( m.points[0].separation, 0.003f, 1.0e-4f );

	// A small box (half 0.1) resting on the cylinder's top cap: its 4 corners, 0.002 deep.
	tbHull* small = tbMakeBoxHull( tbMakeVec3( 0.1f, 0.1f, 0.1f ), tb_transformIdentity );
	m = tbCollideCylinderAndHull( &c, tb_transformIdentity, small, at( 0.05f, 0.0f, 0.398f, axisAngle( 0, 0, 1, 0.3f ) ), SPEC );
	assert_int_equal( m.pointCount, 4 );
	for ( int i = 0; i < 4; ++i )
	{
		assert_float_equal( m.points[i].separation, -0.002f, 1.0e-4f );
	}
	assert_float_equal( m.normal.z, 1.0f, 1.0e-5f );
	tbDestroyHull( small );
	tbDestroyHull( floor );
}

// Random pairs: every manifold is well formed (finite, unit normal, at most 4 points, distinct ids),
// has points exactly when the shapes are closer than the speculative distance, and its deepest
// point agrees with the GJK/EPA signed distance of the two shapes.
static float randomValue( uint32_t* seed )
{
	*seed = *seed * 1664525u + 1013904223u;
	return (float)( *seed >> 8 ) / 16777216.0f;
}

static tbQuat randomRotation( uint32_t* seed )
{
	tbVec3 axis = tbMakeVec3( randomValue( seed ) - 0.5f, randomValue( seed ) - 0.5f, randomValue( seed ) - 0.5f );
	return tbMakeQuatAxisAngle( tbNormalize( tbAdd( axis, tbMakeVec3( 0.0f, 0.0f, 1.0e-3f ) ) ), 6.0f * randomValue( seed ) );
}

static void testRandomPairs( void** state )
{
	(void)state;
	uint32_t seed = 17u;
	tbHull* box = tbMakeBoxHull( tbMakeVec3( 0.4f, 0.3f, 0.2f ), tb_transformIdentity );
	float worst = 0.0f;
	int withPoints = 0, shallower = 0;
	const int trials = 4000;
	for ( int trial = 0; trial < trials; ++trial )
	{
		tbCylinder a = tbMakeCylinder( tb_vec3_zero, tb_quatIdentity, 0.1f + 0.5f * randomValue( &seed ), 0.05f + 0.7f * randomValue( &seed ) );
		tbTransform xfA = at( randomValue( &seed ), randomValue( &seed ), randomValue( &seed ), randomRotation( &seed ) );
		// B within reach of A: its centre at most about the sum of the sizes away, sometimes aligned.
		tbQuat qB = trial % 5 == 0 ? xfA.q : randomRotation( &seed );
		tbVec3 direction = tbNormalize( tbMakeVec3( randomValue( &seed ) - 0.5f, randomValue( &seed ) - 0.5f, randomValue( &seed ) - 0.5f ) );
		float reach = 0.2f + 1.4f * randomValue( &seed );
		tbTransform xfB = tbMakeTransform( tbMulAdd( xfA.p, reach, direction ), qB );
		int kind = trial % 4;
		tbSphere sphere = { tb_vec3_zero, 0.05f + 0.4f * randomValue( &seed ) };
		tbCapsule capsule = { { 0.0f, 0.0f, -0.3f }, { 0.0f, 0.0f, 0.3f }, 0.05f + 0.2f * randomValue( &seed ) };
		tbCylinder b = tbMakeCylinder( tb_vec3_zero, tb_quatIdentity, 0.1f + 0.5f * randomValue( &seed ), 0.05f + 0.7f * randomValue( &seed ) );
		tbManifold m;
		tbShapeProxy proxyB;
		switch ( kind )
		{
			case 0:
				m = tbCollideCylinderAndSphere( &a, xfA, &sphere, xfB, SPEC );
				proxyB = tbMakeSphereProxy( &sphere );
				break;
			case 1:
				m = tbCollideCylinderAndCapsule( &a, xfA, &capsule, xfB, SPEC );
				proxyB = tbMakeCapsuleProxy( &capsule );
				break;
			case 2:
				m = tbCollideCylinderAndHull( &a, xfA, box, xfB, SPEC );
				proxyB = tbMakeHullProxy( box );
				break;
			default:
				m = tbCollideCylinders( &a, xfA, &b, xfB, SPEC );
				proxyB = tbMakeCylinderProxy( &b );
				break;
		}
		assert_true( m.pointCount >= 0 && m.pointCount <= TB_MAX_MANIFOLD_POINTS );
		tbDistanceInput input = { tbMakeCylinderProxy( &a ), proxyB, xfA, xfB, true };
		tbPenetrationOutput pen = tbShapePenetration( &input );
		float expected = -pen.depth;
		if ( expected > SPEC + 1.0e-3f )
		{
			assert_int_equal( m.pointCount, 0 );
			continue;
		}
		if ( expected < SPEC - 1.0e-3f )
		{
			assert_true( m.pointCount > 0 );
		}
		if ( m.pointCount == 0 )
		{
			continue;
		}
		withPoints += 1;
		assert_float_equal( tbLength( m.normal ), 1.0f, 1.0e-4f );
		for ( int i = 0; i < m.pointCount; ++i )
		{
			assert_true( isfinite( m.points[i].separation ) && isfinite( m.points[i].point.x ) &&
						 isfinite( m.points[i].point.y ) && isfinite( m.points[i].point.z ) );
			for ( int j = 0; j < i; ++j )
			{
				assert_true( m.points[i].id != m.points[j].id );
			}
		}
		// A reference face is taken within the SAT hysteresis of the best axis (0.5 mm + 5 %), so
		// the deepest point is never deeper than GJK/EPA by more than that. Separated, GJK is exact
		// and the two agree. Overlapping, EPA on a curved difference can stop on a face that is
		// too deep (1 pair in 1600 here, 13 mm): any face's own separation bounds the depth from
		// above, so a shallower manifold from a reference face is the better answer then.
		float allowed = 1.0e-3f + 0.05f * fabsf( expected );
		float d = deepest( &m );
		assert_true( d >= expected - allowed );
		if ( expected > 0.0f )
		{
			assert_float_equal( d, expected, allowed );
		}
		else
		{
			assert_true( d < allowed );
			shallower += d > expected + allowed ? 1 : 0;
		}
		worst = fmaxf( worst, fabsf( d - expected ) );
	}
	printf( "random pairs: %d of %d with points, %d overlapping ones shallower than EPA, largest difference %.5f m\n",
			withPoints, trials, shallower, worst );
	assert_true( withPoints > trials / 4 );
	tbDestroyHull( box );
}

// World -----------------------------------------------------------------------------------------------

static tbBodyId addCylinder( tbWorldId world, tbVec3 pos, tbQuat q, float r, float h, float friction )
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_dynamic;
	bd.position = pos;
	bd.rotation = q;
	tbBodyId body = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = friction;
	tbCylinder c = tbMakeCylinder( tb_vec3_zero, tb_quatIdentity, r, h );
	tbShapeId shape = tbCreateCylinderShape( body, &sd, &c, NULL );
	assert_true( tbShape_IsValid( shape ) );
	return body;
}

// Angle of the body's z axis from world z, radians.
static float tilt( tbBodyId body )
{
	tbVec3 z = tbRotate( tbBody_GetRotation( body ), tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	return acosf( fminf( 1.0f, fabsf( z.z ) ) );
}

static void testRestsUpright( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.6f );
	const float r = 0.4f, h = 0.3f;
	tbBodyId body = addCylinder( world, tbMakeVec3( 1.0f, -2.0f, h + 0.5f ), tb_quatIdentity, r, h, 0.6f );
	for ( int i = 0; i < 120; ++i )
	{
		tbWorld_Step( world, DT );
	}
	tbVec3 settled = tbBody_GetPosition( body );
	for ( int i = 0; i < 240; ++i )
	{
		tbWorld_Step( world, DT );
	}
	tbVec3 p = tbBody_GetPosition( body );
	printf( "upright: z %.5f (cap on the floor: %.5f), tilt %.4f deg, drift %.6f m\n", p.z, h, tilt( body ) * 180.0f / TB_PI,
			tbDistance( p, settled ) );
	assert_true( tilt( body ) < 0.5f * TB_PI / 180.0f );
	assert_float_equal( p.z, h, 1.0e-3f );
	assert_true( tbDistance( p, settled ) < 1.0e-3f );
	assert_float_equal( p.x, 1.0f, 1.0e-3f );
	tbDestroyWorld( world );
}

static void testLyingAndRolling( void** state )
{
	(void)state;
	const float r = 0.3f, h = 0.4f;
	tbQuat lying = axisAngle( 1.0f, 0.0f, 0.0f, 0.5f * TB_PI ); // axis along y

	// On a flat floor: it settles with its axis horizontal and its centre r above the floor.
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.6f );
	tbBodyId body = addCylinder( world, tbMakeVec3( 0.0f, 0.0f, r + 0.2f ), lying, r, h, 0.6f );
	for ( int i = 0; i < 180; ++i )
	{
		tbWorld_Step( world, DT );
	}
	tbVec3 axis = tbRotate( tbBody_GetRotation( body ), tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	tbVec3 p = tbBody_GetPosition( body );
	printf( "lying: z %.5f (expected %.5f), axis z %.6f\n", p.z, r, axis.z );
	assert_float_equal( axis.z, 0.0f, sinf( 0.5f * TB_PI / 180.0f ) );
	assert_float_equal( p.z, r, 1.0e-3f );
	tbDestroyWorld( world );

	// On a 10 degree slope (rising along +x, axis across it): rolling without slipping gives
	// a = g sin(alpha) / (1 + I / (m r^2)) = 2/3 g sin(alpha) for a solid cylinder.
	const float alpha = 10.0f * TB_PI / 180.0f;
	world = th_makeWorld( tbSolver_soft, false );
	tbBodyDef gd = tbDefaultBodyDef();
	tbQuat slope = axisAngle( 0.0f, 1.0f, 0.0f, -alpha );
	gd.rotation = slope;
	tbBodyId ground = tbCreateBody( world, &gd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = 0.8f;
	tbCreateBoxShape( ground, &sd, tbMakeVec3( 50.0f, 5.0f, 1.0f ), tb_transformIdentity, NULL );
	// The slope's top face passes through the point up = R (0, 0, 1) of the body frame.
	tbVec3 up = tbRotate( slope, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	tbVec3 along = tbRotate( slope, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
	tbVec3 start = tbAdd( tbMulSV( 1.0f + r + 0.001f, up ), tbMulSV( 5.0f, along ) );
	body = addCylinder( world, start, lying, r, h, 0.8f );
	for ( int i = 0; i < 30; ++i )
	{
		tbWorld_Step( world, DT );
	}
	float s0 = tbDot( tbBody_GetPosition( body ), along );
	float v0 = tbDot( tbBody_GetLinearVelocity( body ), along );
	const int steps = 60;
	for ( int i = 0; i < steps; ++i )
	{
		tbWorld_Step( world, DT );
	}
	float v1 = tbDot( tbBody_GetLinearVelocity( body ), along );
	float s1 = tbDot( tbBody_GetPosition( body ), along );
	float a = ( v1 - v0 ) / ( (float)steps * DT );
	float expected = -2.0f / 3.0f * 10.0f * sinf( alpha );
	tbVec3 w = tbBody_GetAngularVelocity( body );
	printf( "rolling: a %.4f m/s^2 (2/3 g sin a = %.4f), travelled %.3f m, spin %.3f rad/s (v/r %.3f)\n", a, expected,
			s1 - s0, tbLength( w ), fabsf( v1 ) / r );
	assert_float_equal( a, expected, 0.05f * fabsf( expected ) );
	// Rolling, not sliding: the spin matches v / r within 5 %.
	assert_float_equal( tbLength( w ), fabsf( v1 ) / r, 0.05f * fabsf( v1 ) / r );
	tbDestroyWorld( world );
}

static void testStack( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	th_addGround( world, 0.6f );
	const float r = 0.35f, h = 0.25f;
	tbBodyId bodies[3];
	for ( int i = 0; i < 3; ++i )
	{
		bodies[i] = addCylinder( world, tbMakeVec3( 0.0f, 0.0f, h + 2.0f * h * (float)i + 0.01f * (float)i ), tb_quatIdentity, r,
								 h, 0.6f );
	}
	for ( int i = 0; i < 300; ++i )
	{
		tbWorld_Step( world, DT );
	}
	for ( int i = 0; i < 3; ++i )
	{
		tbVec3 p = tbBody_GetPosition( bodies[i] );
		float expected = h + 2.0f * h * (float)i;
		printf( "stack %d: (%.4f, %.4f, %.4f), expected z %.4f, tilt %.3f deg\n", i, p.x, p.y, p.z, expected,
				tilt( bodies[i] ) * 180.0f / TB_PI );
		assert_float_equal( p.z, expected, 3.0e-3f );
		assert_float_equal( p.x, 0.0f, 5.0e-3f );
		assert_float_equal( p.y, 0.0f, 5.0e-3f );
		assert_true( tilt( bodies[i] ) < 1.0f * TB_PI / 180.0f );
	}
	tbDestroyWorld( world );
}

// A static mesh over a grid of vertices (row-major, x along a row): two triangles a cell, counter-
// clockwise seen from +z.
static void addGridMesh( tbWorldId world, const tbVec3* vertices, int columns, int rows, float friction )
{
	int32_t indices[6 * 64];
	int n = 0;
	for ( int row = 0; row + 1 < rows; ++row )
	{
		for ( int col = 0; col + 1 < columns; ++col )
		{
			int32_t a = row * columns + col, b = a + 1, c = a + columns + 1, d = a + columns;
			int32_t quad[6] = { a, b, c, a, c, d };
			for ( int k = 0; k < 6 && n < 6 * 64; ++k )
			{
				indices[n++] = quad[k];
			}
		}
	}
	tbBodyDef gd = tbDefaultBodyDef();
	tbBodyId ground = tbCreateBody( world, &gd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = friction;
	tbResult result = tbResult_ok;
	tbCreateMeshShape( ground, &sd, vertices, columns * rows, indices, n / 3, &result );
	assert_int_equal( result, tbResult_ok );
}

// A cylinder on a tessellated mesh floor (2 x 2 squares of 2 triangles each) rests upright across
// the seams, and one lying on it rests too.
static void testOnMesh( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	tbVec3 vertices[9];
	for ( int j = 0; j < 3; ++j )
	{
		for ( int i = 0; i < 3; ++i )
		{
			vertices[3 * j + i] = tbMakeVec3( -4.0f + 4.0f * (float)i, -4.0f + 4.0f * (float)j, 0.0f );
		}
	}
	addGridMesh( world, vertices, 3, 3, 0.5f );
	const float r = 0.5f, h = 0.3f;
	// Over the centre vertex, where four triangles' corners meet.
	tbBodyId upright = addCylinder( world, tbMakeVec3( 0.0f, 0.0f, h + 0.3f ), tb_quatIdentity, r, h, 0.5f );
	tbBodyId lying = addCylinder( world, tbMakeVec3( 2.0f, -2.0f, r + 0.3f ), axisAngle( 1.0f, 0.0f, 0.0f, 0.5f * TB_PI ), r, h, 0.5f );
	for ( int i = 0; i < 240; ++i )
	{
		tbWorld_Step( world, DT );
	}
	tbVec3 p = tbBody_GetPosition( upright );
	tbVec3 q = tbBody_GetPosition( lying );
	printf( "on a mesh: upright z %.5f tilt %.4f deg; lying z %.5f\n", p.z, tilt( upright ) * 180.0f / TB_PI, q.z );
	assert_float_equal( p.z, h, 1.0e-3f );
	assert_true( tilt( upright ) < 0.5f * TB_PI / 180.0f );
	assert_float_equal( q.z, r, 1.0e-3f );
	assert_true( tbLength( tbBody_GetLinearVelocity( lying ) ) < 0.01f );
	tbDestroyWorld( world );
}

// Rolling across the seams of a tessellated slope (a 10 degree plane of 1 m squares, each two
// triangles): the inactive edges keep it from catching, so it rolls as on a box, at 2/3 g sin(alpha),
// and never leaves the surface.
static void testRollsOverMeshSeams( void** state )
{
	(void)state;
	enum
	{
		N = 16
	};
	const float alpha = 10.0f * TB_PI / 180.0f;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	tbVec3 vertices[( N + 1 ) * 3];
	// Rising along +x: z = x tan(alpha); three rows of vertices at y = -2, 0, 2.
	for ( int j = 0; j < 3; ++j )
	{
		for ( int i = 0; i <= N; ++i )
		{
			float x = (float)i - 2.0f;
			vertices[( N + 1 ) * j + i] = tbMakeVec3( x, -2.0f + 2.0f * (float)j, x * tanf( alpha ) );
		}
	}
	addGridMesh( world, vertices, N + 1, 3, 0.8f );

	const float r = 0.3f;
	tbVec3 up = tbMakeVec3( -sinf( alpha ), 0.0f, cosf( alpha ) );
	tbVec3 along = tbMakeVec3( cosf( alpha ), 0.0f, sinf( alpha ) );
	tbVec3 start = tbAdd( tbMulSV( 11.0f, along ), tbMulSV( r + 0.001f, up ) );
	tbBodyId body = addCylinder( world, start, axisAngle( 1.0f, 0.0f, 0.0f, 0.5f * TB_PI ), r, 0.4f, 0.8f );
	for ( int i = 0; i < 30; ++i )
	{
		tbWorld_Step( world, DT );
	}
	float v0 = tbDot( tbBody_GetLinearVelocity( body ), along );
	float worstLift = 0.0f;
	const int steps = 60;
	for ( int i = 0; i < steps; ++i )
	{
		tbWorld_Step( world, DT );
		// Height of the centre above the plane through the origin, less the radius.
		worstLift = fmaxf( worstLift, fabsf( tbDot( tbBody_GetPosition( body ), up ) - r ) );
	}
	float v1 = tbDot( tbBody_GetLinearVelocity( body ), along );
	float a = ( v1 - v0 ) / ( (float)steps * DT );
	float expected = -2.0f / 3.0f * 10.0f * sinf( alpha );
	printf( "mesh slope: a %.4f m/s^2 (2/3 g sin a = %.4f), largest gap off the plane %.5f m\n", a, expected, worstLift );
	assert_float_equal( a, expected, 0.05f * fabsf( expected ) );
	assert_true( worstLift < 2.0e-3f );
	tbDestroyWorld( world );
}

// A fast cylinder does not tunnel through a thin wall (continuous collision).
static void testContinuous( void** state )
{
	(void)state;
	tbWorldDef def = tbDefaultWorldDef();
	def.gravity = tb_vec3_zero;
	tbWorldId world = tbCreateWorld( &def );
	tbBodyDef wd = tbDefaultBodyDef();
	tbBodyId wall = tbCreateBody( world, &wd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbCreateBoxShape( wall, &sd, tbMakeVec3( 0.05f, 3.0f, 3.0f ), tb_transformIdentity, NULL );
	tbBodyId body = addCylinder( world, tbMakeVec3( -3.0f, 0.0f, 0.0f ), axisAngle( 0.0f, 1.0f, 0.0f, 0.3f ), 0.2f, 0.2f, 0.5f );
	tbBody_SetLinearVelocity( body, tbMakeVec3( 100.0f, 0.0f, 0.0f ) );
	for ( int i = 0; i < 30; ++i )
	{
		tbWorld_Step( world, DT );
	}
	float x = tbBody_GetPosition( body ).x;
	printf( "continuous: x %.4f after 30 steps at 100 m/s\n", x );
	assert_true( x < -0.05f );
	tbDestroyWorld( world );
}

static void testSnapshotAndInput( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.6f );
	tbBodyId body = addCylinder( world, tbMakeVec3( 0.0f, 0.0f, 1.0f ), axisAngle( 1.0f, 0.0f, 0.0f, 0.3f ), 0.3f, 0.4f, 0.6f );
	for ( int i = 0; i < 10; ++i )
	{
		tbWorld_Step( world, DT );
	}
	tbSnapshot* snapshot = tbWorld_TakeSnapshot( world );
	assert_non_null( snapshot );
	for ( int i = 0; i < 60; ++i )
	{
		tbWorld_Step( world, DT );
	}
	tbVec3 first = tbBody_GetPosition( body );
	assert_int_equal( tbWorld_RestoreSnapshot( world, snapshot ), tbResult_ok );
	for ( int i = 0; i < 60; ++i )
	{
		tbWorld_Step( world, DT );
	}
	tbVec3 second = tbBody_GetPosition( body );
	// The same build replays bit for bit.
	assert_true( first.x == second.x && first.y == second.y && first.z == second.z );
	tbDestroySnapshot( snapshot );

	// Sizes outside [TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE] or not finite are refused.
	tbShapeDef sd = tbDefaultShapeDef();
	const float bad[] = { 0.0f, -1.0f, 1.0e-4f, 2.0e4f, NAN, INFINITY };
	for ( int i = 0; i < 6; ++i )
	{
		tbResult result = tbResult_ok;
		tbCylinder c = tbMakeCylinder( tb_vec3_zero, tb_quatIdentity, bad[i], 0.5f );
		assert_false( tbShape_IsValid( tbCreateCylinderShape( body, &sd, &c, &result ) ) );
		assert_int_equal( result, tbResult_invalidArgument );
		// A negative half height only swaps the cap centres: the C API sees the centres.
		c = tbMakeCylinder( tb_vec3_zero, tb_quatIdentity, 0.5f, fabsf( bad[i] ) == 1.0f ? 0.0f : bad[i] );
		assert_false( tbShape_IsValid( tbCreateCylinderShape( body, &sd, &c, &result ) ) );
		assert_int_equal( result, tbResult_invalidArgument );
	}
	tbDestroyWorld( world );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( testMassProperties ),
		cmocka_unit_test( testBounds ),
		cmocka_unit_test( testRayCasts ),
		cmocka_unit_test( testDistanceAndCasts ),
		cmocka_unit_test( testSphereAndCapsuleDepths ),
		cmocka_unit_test( testCylinderPairs ),
		cmocka_unit_test( testHullManifolds ),
		cmocka_unit_test( testRandomPairs ),
		cmocka_unit_test( testRestsUpright ),
		cmocka_unit_test( testLyingAndRolling ),
		cmocka_unit_test( testStack ),
		cmocka_unit_test( testOnMesh ),
		cmocka_unit_test( testRollsOverMeshSeams ),
		cmocka_unit_test( testContinuous ),
		cmocka_unit_test( testSnapshotAndInput ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
