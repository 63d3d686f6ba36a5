// Tumble unit tests: mass, centre of mass and rotational inertia of spheres, capsules and hulls,
// against closed forms.
// SPDX-License-Identifier: MIT
#include "tumble/collision.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <setjmp.h>

#include <cmocka.h>

static float MatEntry( tbMat3 m, int row, int column )
{
	const tbVec3* c = column == 0 ? &m.cx : column == 1 ? &m.cy : &m.cz;
	return row == 0 ? c->x : row == 1 ? c->y : c->z;
}

// Every entry within `relative` of the largest entry of the expected matrix.
static void AssertMatNear( tbMat3 actual, tbMat3 expected, float relative )
{
	float scale = 0.0f;
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			scale = tbMaxFloat( scale, fabsf( MatEntry( expected, i, j ) ) );
		}
	}
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = 0; j < 3; ++j )
		{
			assert_float_equal( MatEntry( actual, i, j ), MatEntry( expected, i, j ), relative * scale );
		}
	}
}

static void AssertVecNear( tbVec3 a, tbVec3 b, float tolerance )
{
	assert_float_equal( a.x, b.x, tolerance );
	assert_float_equal( a.y, b.y, tolerance );
	assert_float_equal( a.z, b.z, tolerance );
}

// Box with half extents (a, b, c): Ixx = m (b^2 + c^2) / 3 and so on (SCENES.md).
static tbMat3 BoxInertia( float mass, tbVec3 h )
{
	return tbMakeDiagonal( tbMakeVec3( mass * ( h.y * h.y + h.z * h.z ) / 3.0f, mass * ( h.x * h.x + h.z * h.z ) / 3.0f,
									   mass * ( h.x * h.x + h.y * h.y ) / 3.0f ) );
}

// Capsule along z with radius r and segment length L (SCENES.md "Inertia formulas").
static tbMat3 CapsuleInertiaZ( float density, float r, float L )
{
	float mc = density * TB_PI * r * r * L;
	float mh = density * 4.0f / 3.0f * TB_PI * r * r * r;
	float izz = mc * r * r / 2.0f + mh * 2.0f * r * r / 5.0f;
	float ixx =
		mc * ( r * r / 4.0f + L * L / 12.0f ) + mh * ( 2.0f * r * r / 5.0f + L * L / 4.0f + 3.0f * L * r / 8.0f );
	return tbMakeDiagonal( tbMakeVec3( ixx, ixx, izz ) );
}

static void test_sphere_mass( void** state )
{
	(void)state;
	tbSphere sphere = { { 1.0f, -2.0f, 0.5f }, 0.3f };
	float density = 1500.0f;
	tbMassData data = tbComputeSphereMass( &sphere, density );
	float mass = density * 4.0f / 3.0f * TB_PI * 0.027f;
	assert_float_equal( data.mass, mass, 1.0e-4f * mass );
	AssertVecNear( data.center, sphere.center, 0.0f );
	float i = 0.4f * mass * 0.09f;
	AssertMatNear( data.rotationalInertia, tbMakeDiagonal( tbMakeVec3( i, i, i ) ), 1.0e-5f );
}

static void test_capsule_mass_along_z( void** state )
{
	(void)state;
	float r = 0.25f, L = 1.2f, density = 800.0f;
	tbCapsule capsule = { { 0.0f, 0.0f, -0.6f }, { 0.0f, 0.0f, 0.6f }, r };
	tbMassData data = tbComputeCapsuleMass( &capsule, density );
	float mass = density * ( TB_PI * r * r * L + 4.0f / 3.0f * TB_PI * r * r * r );
	assert_float_equal( data.mass, mass, 1.0e-5f * mass );
	AssertVecNear( data.center, tb_vec3_zero, 1.0e-7f );
	AssertMatNear( data.rotationalInertia, CapsuleInertiaZ( density, r, L ), 1.0e-5f );

	// SCENES.md's normalised form: with m given, rho = m / (pi r^2 L + 4/3 pi r^3).
	float m = 1.0f;
	float rho = m / ( TB_PI * r * r * L + 4.0f / 3.0f * TB_PI * r * r * r );
	data = tbComputeCapsuleMass( &capsule, rho );
	assert_float_equal( data.mass, 1.0f, 1.0e-5f );
}

static void test_capsule_mass_arbitrary_axis( void** state )
{
	(void)state;
	float r = 0.4f, L = 2.0f, density = 3.0f;
	tbVec3 axis = tbNormalize( tbMakeVec3( 1.0f, -2.0f, 0.7f ) );
	tbVec3 center = { 3.0f, 1.0f, -1.0f };
	tbCapsule capsule = { tbMulSub( center, 0.5f * L, axis ), tbMulAdd( center, 0.5f * L, axis ), r };
	tbMassData data = tbComputeCapsuleMass( &capsule, density );
	AssertVecNear( data.center, center, 1.0e-5f );

	// R D R^T with R any rotation taking z to the axis.
	tbQuat q = tbQuatFromTo( tbMakeVec3( 0.0f, 0.0f, 1.0f ), axis );
	tbMat3 expected = tbRotateInertia( q, CapsuleInertiaZ( density, r, L ) );
	AssertMatNear( data.rotationalInertia, expected, 1.0e-5f );

	// Along x the transverse moment sits in y and z.
	tbCapsule alongX = { { -1.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f }, r };
	data = tbComputeCapsuleMass( &alongX, density );
	tbMat3 z = CapsuleInertiaZ( density, r, L );
	AssertMatNear( data.rotationalInertia, tbMakeDiagonal( tbMakeVec3( z.cz.z, z.cx.x, z.cx.x ) ), 1.0e-5f );

	// A zero-length capsule is a sphere.
	tbCapsule point = { center, center, r };
	tbSphere sphere = { center, r };
	tbMassData a = tbComputeCapsuleMass( &point, density );
	tbMassData b = tbComputeSphereMass( &sphere, density );
	assert_float_equal( a.mass, b.mass, 1.0e-6f * b.mass );
	AssertMatNear( a.rotationalInertia, b.rotationalInertia, 1.0e-6f );
}

static void test_box_hull_mass( void** state )
{
	(void)state;
	tbVec3 h = { 0.5f, 1.0f, 2.0f };
	float density = 250.0f;
	tbHull* box = tbMakeBoxHull( h, tb_transformIdentity );
	tbMassData data = tbComputeHullMass( box, density );
	float mass = density * 8.0f * h.x * h.y * h.z;
	assert_float_equal( data.mass, mass, 1.0e-4f * mass );
	AssertVecNear( data.center, tb_vec3_zero, 1.0e-5f );
	AssertMatNear( data.rotationalInertia, BoxInertia( mass, h ), 1.0e-4f );
	tbDestroyHull( box );

	// Unit cube (half extent 0.5) of mass 1: I = 1/6; cube of half extent 0.25, mass 1: 1/24.
	box = tbMakeBoxHull( tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity );
	data = tbComputeHullMass( box, 1.0f );
	assert_float_equal( data.mass, 1.0f, 1.0e-5f );
	AssertMatNear( data.rotationalInertia, tbMakeDiagonal( tbMakeVec3( 1.0f / 6.0f, 1.0f / 6.0f, 1.0f / 6.0f ) ),
				   1.0e-4f );
	tbDestroyHull( box );
	box = tbMakeBoxHull( tbMakeVec3( 0.25f, 0.25f, 0.25f ), tb_transformIdentity );
	data = tbComputeHullMass( box, 1.0f / 0.125f );
	assert_float_equal( data.mass, 1.0f, 1.0e-5f );
	AssertMatNear( data.rotationalInertia, tbMakeDiagonal( tbMakeVec3( 1.0f / 24.0f, 1.0f / 24.0f, 1.0f / 24.0f ) ),
				   1.0e-4f );
	tbDestroyHull( box );
}

static void test_computed_box_hull_mass( void** state )
{
	(void)state;
	// The same box built by quickhull from its corners plus interior points.
	tbVec3 h = { 1.5f, 0.5f, 0.75f };
	tbVec3 points[12];
	for ( int i = 0; i < 8; ++i )
	{
		points[i] = tbMakeVec3( ( i & 1 ) ? h.x : -h.x, ( i & 2 ) ? h.y : -h.y, ( i & 4 ) ? h.z : -h.z );
	}
	points[8] = tbMakeVec3( 0.1f, 0.2f, 0.3f );
	points[9] = tbMakeVec3( -1.0f, 0.0f, 0.5f );
	points[10] = tbMakeVec3( 1.4f, -0.4f, -0.7f );
	points[11] = tb_vec3_zero;
	tbResult result;
	tbHull* hull = tbComputeHull( points, 12, &result );
	assert_non_null( hull );
	tbMassData data = tbComputeHullMass( hull, 2.0f );
	float mass = 2.0f * 8.0f * h.x * h.y * h.z;
	assert_float_equal( data.mass, mass, 1.0e-4f * mass );
	AssertVecNear( data.center, tb_vec3_zero, 1.0e-5f );
	AssertVecNear( hull->centroid, tb_vec3_zero, 1.0e-5f );
	AssertMatNear( data.rotationalInertia, BoxInertia( mass, h ), 1.0e-4f );
	tbDestroyHull( hull );
}

static void test_offset_rotated_box_hull_mass( void** state )
{
	(void)state;
	tbVec3 h = { 0.3f, 0.8f, 1.1f };
	tbQuat q = tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( -1.0f, 0.5f, 2.0f ) ), 1.3f );
	tbTransform xf = { { 4.0f, -2.0f, 1.5f }, q };
	tbHull* box = tbMakeBoxHull( h, xf );
	float density = 7.0f;
	tbMassData data = tbComputeHullMass( box, density );
	float mass = density * 8.0f * h.x * h.y * h.z;
	assert_float_equal( data.mass, mass, 1.0e-4f * mass );
	AssertVecNear( data.center, xf.p, 1.0e-5f );
	// About the centre of mass, in body axes: R D R^T.
	AssertMatNear( data.rotationalInertia, tbRotateInertia( q, BoxInertia( mass, h ) ), 1.0e-4f );
	tbDestroyHull( box );
}

static void test_tetrahedron_mass( void** state )
{
	(void)state;
	// Unit corner tetrahedron, density 1. Volume 1/6, centroid (1/4, 1/4, 1/4). Over the unit
	// simplex, integral x^a y^b z^c dV = a! b! c! / (a + b + c + 3)!, so integral x^2 = 1/60 and
	// integral x y = 1/120. About the centroid: Ixx = 2/60 - V (1/16 + 1/16) = 1/80 and
	// Ixy = -(1/120 - V / 16) = 1/480.
	tbVec3 points[4] = { { 0.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f } };
	tbResult result;
	tbHull* tetra = tbComputeHull( points, 4, &result );
	assert_non_null( tetra );
	tbMassData data = tbComputeHullMass( tetra, 1.0f );
	assert_float_equal( data.mass, 1.0f / 6.0f, 1.0e-6f );
	AssertVecNear( data.center, tbMakeVec3( 0.25f, 0.25f, 0.25f ), 1.0e-6f );
	float d = 1.0f / 80.0f, o = 1.0f / 480.0f;
	tbMat3 expected = { { d, o, o }, { o, d, o }, { o, o, d } };
	AssertMatNear( data.rotationalInertia, expected, 1.0e-4f );
	tbDestroyHull( tetra );

	// A general tetrahedron: volume |det| / 6 and centroid the vertex average.
	tbVec3 general[4] = { { 1.0f, 2.0f, 0.5f }, { 3.0f, 2.5f, 1.0f }, { 1.5f, 4.0f, 0.0f }, { 2.0f, 3.0f, 3.0f } };
	tetra = tbComputeHull( general, 4, &result );
	assert_non_null( tetra );
	tbVec3 e1 = tbSub( general[1], general[0] ), e2 = tbSub( general[2], general[0] ),
		   e3 = tbSub( general[3], general[0] );
	float volume = fabsf( tbDot( e1, tbCross( e2, e3 ) ) ) / 6.0f;
	tbVec3 average = tbMulSV( 0.25f, tbAdd( tbAdd( general[0], general[1] ), tbAdd( general[2], general[3] ) ) );
	data = tbComputeHullMass( tetra, 3.0f );
	assert_float_equal( data.mass, 3.0f * volume, 1.0e-5f * volume );
	AssertVecNear( data.center, average, 1.0e-5f );
	AssertVecNear( tetra->centroid, average, 1.0e-5f );
	tbDestroyHull( tetra );
}

static void test_octahedron_mass( void** state )
{
	(void)state;
	// |x| + |y| + |z| <= 1: eight unit-simplex octants, volume 8/6 and integral x^2 = 8/60, so
	// Ixx = 2 * 8/60 = 4/15 (density 1), no products of inertia.
	tbVec3 points[6] = { { 1.0f, 0.0f, 0.0f },	{ -1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f },
						 { 0.0f, -1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f },  { 0.0f, 0.0f, -1.0f } };
	tbResult result;
	tbHull* hull = tbComputeHull( points, 6, &result );
	assert_non_null( hull );
	tbMassData data = tbComputeHullMass( hull, 1.0f );
	assert_float_equal( data.mass, 4.0f / 3.0f, 1.0e-6f );
	AssertVecNear( data.center, tb_vec3_zero, 1.0e-6f );
	float i = 4.0f / 15.0f;
	AssertMatNear( data.rotationalInertia, tbMakeDiagonal( tbMakeVec3( i, i, i ) ), 1.0e-5f );
	tbDestroyHull( hull );
}

static void test_pyramid_mass( void** state )
{
	(void)state;
	// Square pyramid, base half side a at z = 0, apex at height h. Its volume centroid (h/4) is not
	// its vertex average (h/5). With cross-section half side t = a (1 - z/h): V = 4 a^2 h / 3,
	// <x^2> = a^2 / 5, <z> = h / 4, <z^2> = h^2 / 10, so about the centroid
	// Izz = 2 m a^2 / 5 and Ixx = Iyy = m (a^2 / 5 + 3 h^2 / 80).
	float a = 1.0f, h = 3.0f, density = 2.0f;
	tbVec3 shift = { -1.0f, 2.0f, 0.5f };
	tbVec3 points[5] = { { -a, -a, 0.0f }, { a, -a, 0.0f }, { a, a, 0.0f }, { -a, a, 0.0f }, { 0.0f, 0.0f, h } };
	for ( int i = 0; i < 5; ++i )
	{
		points[i] = tbAdd( points[i], shift );
	}
	tbResult result;
	tbHull* hull = tbComputeHull( points, 5, &result );
	assert_non_null( hull );
	assert_int_equal( hull->faceCount, 5 );
	tbMassData data = tbComputeHullMass( hull, density );
	float mass = density * 4.0f * a * a * h / 3.0f;
	assert_float_equal( data.mass, mass, 1.0e-5f * mass );
	tbVec3 centroid = tbAdd( shift, tbMakeVec3( 0.0f, 0.0f, h / 4.0f ) );
	AssertVecNear( data.center, centroid, 1.0e-5f );
	AssertVecNear( hull->centroid, centroid, 1.0e-5f );
	float ixx = mass * ( a * a / 5.0f + 3.0f * h * h / 80.0f );
	AssertMatNear( data.rotationalInertia, tbMakeDiagonal( tbMakeVec3( ixx, ixx, 0.4f * mass * a * a ) ), 1.0e-5f );
	tbDestroyHull( hull );
}

static void test_far_offset_hull_mass( void** state )
{
	(void)state;
	// A 1 m box 1 km from the origin: the integration must not lose the small inertia terms.
	tbVec3 h = { 0.5f, 0.5f, 0.5f };
	tbTransform xf = { { 1000.0f, -800.0f, 500.0f }, tb_quatIdentity };
	tbHull* box = tbMakeBoxHull( h, xf );
	tbMassData data = tbComputeHullMass( box, 1.0f );
	assert_float_equal( data.mass, 1.0f, 1.0e-4f );
	AssertVecNear( data.center, xf.p, 1.0e-3f );
	AssertMatNear( data.rotationalInertia, BoxInertia( 1.0f, h ), 1.0e-3f );
	tbDestroyHull( box );

	tbMassData empty = tbComputeHullMass( NULL, 1.0f );
	assert_float_equal( empty.mass, 0.0f, 0.0f );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_sphere_mass ),
		cmocka_unit_test( test_capsule_mass_along_z ),
		cmocka_unit_test( test_capsule_mass_arbitrary_axis ),
		cmocka_unit_test( test_box_hull_mass ),
		cmocka_unit_test( test_computed_box_hull_mass ),
		cmocka_unit_test( test_offset_rotated_box_hull_mass ),
		cmocka_unit_test( test_tetrahedron_mass ),
		cmocka_unit_test( test_octahedron_mass ),
		cmocka_unit_test( test_pyramid_mass ),
		cmocka_unit_test( test_far_offset_hull_mass ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
