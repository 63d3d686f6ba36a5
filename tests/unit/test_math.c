// Unit tests of math_functions.h: checked against geometric facts (a quarter turn about z maps x to y,
// M * inverse(M) is the identity, a constant spin integrates to angle = rate * time), not against
// values printed by the implementation.
// SPDX-License-Identifier: MIT
#include "tumble/math_functions.h"

// cmocka needs these before its header.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

// Single precision keeps about 7 digits; unit-length results are checked to 1e-5, results of longer
// chains (integration over many steps) to the stated physical tolerances.
#define UNIT_TOL 1.0e-5f

// cmocka 1.1.5's assert_float_equal accepts NaN and infinity as equal to anything (its relative test
// compares against largest * FLT_EPSILON, which is NaN or inf then), so these checks are written
// with a comparison that is false for NaN and reports the caller's line.
#define assertNear( actual, expected, tolerance ) assertNearAt( ( actual ), ( expected ), ( tolerance ), __FILE__, __LINE__ )
#define assertVecNear( actual, expected, tolerance )                                                                   \
	assertVecNearAt( ( actual ), ( expected ), ( tolerance ), __FILE__, __LINE__ )

static void assertNearAt( float actual, float expected, float tolerance, const char* file, int line )
{
	if ( !( tbAbsFloat( actual - expected ) <= tolerance ) )
	{
		print_error( "%.9g is not within %g of %.9g\n", (double)actual, (double)tolerance, (double)expected );
		_fail( file, line );
	}
}

static void assertVecNearAt( tbVec3 actual, tbVec3 expected, float tolerance, const char* file, int line )
{
	assertNearAt( actual.x, expected.x, tolerance, file, line );
	assertNearAt( actual.y, expected.y, tolerance, file, line );
	assertNearAt( actual.z, expected.z, tolerance, file, line );
}

// A fixed set of unit directions: the six axis directions (which hit the z = -1 branch of the
// branchless basis), the eight cube diagonals, directions 0.1, 1 and 3 mrad away from -z (so from
// opposite to +z), and a few general ones.
static tbVec3 s_directions[32];
static int s_directionCount = 0;

static int setupDirections( void** state )
{
	( void )state;
	s_directionCount = 0;
	const float axes[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
	for ( int i = 0; i < 6; ++i )
	{
		s_directions[s_directionCount++] = tbMakeVec3( axes[i][0], axes[i][1], axes[i][2] );
	}
	for ( int i = 0; i < 8; ++i )
	{
		tbVec3 d = tbMakeVec3( ( i & 1 ) ? 1.0f : -1.0f, ( i & 2 ) ? 1.0f : -1.0f, ( i & 4 ) ? 1.0f : -1.0f );
		s_directions[s_directionCount++] = tbNormalize( d );
	}
	s_directions[s_directionCount++] = tbNormalize( tbMakeVec3( 1.0e-4f, 0.0f, -1.0f ) );
	s_directions[s_directionCount++] = tbNormalize( tbMakeVec3( 0.0f, -1.0e-3f, -1.0f ) );
	s_directions[s_directionCount++] = tbNormalize( tbMakeVec3( 3.0e-3f, 0.0f, -1.0f ) );
	s_directions[s_directionCount++] = tbNormalize( tbMakeVec3( 0.3f, -0.2f, -0.9f ) );
	s_directions[s_directionCount++] = tbNormalize( tbMakeVec3( -2.0f, 0.5f, 0.1f ) );
	s_directions[s_directionCount++] = tbNormalize( tbMakeVec3( 0.01f, 3.0f, 0.2f ) );
	return 0;
}

// Quaternion rotation ---------------------------------------------------------------------------

static void testQuarterTurns( void** state )
{
	( void )state;
	tbVec3 ex = tbMakeVec3( 1.0f, 0.0f, 0.0f );
	tbVec3 ey = tbMakeVec3( 0.0f, 1.0f, 0.0f );
	tbVec3 ez = tbMakeVec3( 0.0f, 0.0f, 1.0f );

	// Right-handed: +90 degrees about z takes x to y, about x takes y to z, about y takes z to x.
	assertVecNear( tbRotate( tbMakeQuatAxisAngle( ez, 0.5f * TB_PI ), ex ), ey, UNIT_TOL );
	assertVecNear( tbRotate( tbMakeQuatAxisAngle( ex, 0.5f * TB_PI ), ey ), ez, UNIT_TOL );
	assertVecNear( tbRotate( tbMakeQuatAxisAngle( ey, 0.5f * TB_PI ), ez ), ex, UNIT_TOL );

	// Half turn about z flips x and y, leaves z.
	tbQuat half = tbMakeQuatAxisAngle( ez, TB_PI );
	assertVecNear( tbRotate( half, tbMakeVec3( 1.0f, 2.0f, 3.0f ) ), tbMakeVec3( -1.0f, -2.0f, 3.0f ), 4.0f * UNIT_TOL );
}

static void testRotationMatchesMatrixAndPreservesLength( void** state )
{
	( void )state;
	tbVec3 axis = tbNormalize( tbMakeVec3( 1.0f, -2.0f, 0.5f ) );
	tbVec3 v = tbMakeVec3( 0.7f, 1.3f, -2.1f );
	for ( int i = -8; i <= 8; ++i )
	{
		float angle = 0.4f * (float)i;
		tbQuat q = tbMakeQuatAxisAngle( axis, angle );
		tbVec3 byQuat = tbRotate( q, v );
		tbVec3 byMatrix = tbMulMV( tbMakeMatFromQuat( q ), v );
		assertVecNear( byQuat, byMatrix, 1.0e-5f * tbLength( v ) );
		assertNear( tbLength( byQuat ), tbLength( v ), 1.0e-5f * tbLength( v ) );

		// The component along the axis is unchanged by a rotation about that axis.
		assertNear( tbDot( byQuat, axis ), tbDot( v, axis ), 1.0e-5f * tbLength( v ) );

		// The rotation matrix is orthonormal with determinant +1 (a rotation, not a reflection).
		tbMat3 r = tbMakeMatFromQuat( q );
		assertNear( tbDeterminant( r ), 1.0f, UNIT_TOL );
		tbMat3 rtr = tbMulMM( tbTranspose( r ), r );
		assertVecNear( rtr.cx, tb_mat3Identity.cx, UNIT_TOL );
		assertVecNear( rtr.cy, tb_mat3Identity.cy, UNIT_TOL );
		assertVecNear( rtr.cz, tb_mat3Identity.cz, UNIT_TOL );

		// The angle read back is |angle| folded into [0, pi].
		float expected = tbAbsFloat( angle );
		if ( expected > TB_PI )
		{
			expected = 2.0f * TB_PI - expected;
		}
		assertNear( tbQuatAngle( q ), expected, 1.0e-4f );
	}
}

static void testCompositionAndInverse( void** state )
{
	( void )state;
	tbQuat a = tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 0.0f, 1.0f, 1.0f ) ), 0.8f );
	tbQuat b = tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, -1.0f, 0.2f ) ), -1.9f );
	tbVec3 v = tbMakeVec3( -0.4f, 2.2f, 1.1f );

	// (a * b) v == a (b v): b is applied first.
	assertVecNear( tbRotate( tbMulQQ( a, b ), v ), tbRotate( a, tbRotate( b, v ) ), 1.0e-5f * tbLength( v ) );

	// The inverse rotation undoes the rotation.
	assertVecNear( tbInvRotate( a, tbRotate( a, v ) ), v, 1.0e-5f * tbLength( v ) );

	// conj(a) * (a * b) == b, up to the sign of the quaternion (q and -q are the same rotation).
	tbQuat back = tbInvMulQQ( a, tbMulQQ( a, b ) );
	assertNear( tbAbsFloat( tbDotQ( back, b ) ), 1.0f, UNIT_TOL );

	// Transforms: inv(A) * (A * B) == B, and a point round-trips through A.
	tbTransform ta = tbMakeTransform( tbMakeVec3( 1.0f, 2.0f, 3.0f ), a );
	tbTransform tb = tbMakeTransform( tbMakeVec3( -5.0f, 0.5f, 0.0f ), b );
	tbTransform rel = tbInvMulTransforms( ta, tbMulTransforms( ta, tb ) );
	assertVecNear( rel.p, tb.p, 1.0e-5f * 5.0f );
	assertNear( tbAbsFloat( tbDotQ( rel.q, tb.q ) ), 1.0f, UNIT_TOL );
	assertVecNear( tbInvTransformPoint( ta, tbTransformPoint( ta, v ) ), v, 1.0e-5f * 5.0f );
}

// Matrix inverse --------------------------------------------------------------------------------

static void assertIdentity( tbMat3 m, float tolerance )
{
	assertVecNear( m.cx, tb_mat3Identity.cx, tolerance );
	assertVecNear( m.cy, tb_mat3Identity.cy, tolerance );
	assertVecNear( m.cz, tb_mat3Identity.cz, tolerance );
}

static void testInverse( void** state )
{
	( void )state;
	// A general (non-symmetric) well conditioned matrix with determinant 23.
	tbMat3 m = tbMakeMat3( tbMakeVec3( 2.0f, 0.5f, -1.0f ), tbMakeVec3( 1.0f, 3.0f, 0.0f ), tbMakeVec3( 0.0f, -1.0f, 4.0f ) );
	assertNear( tbDeterminant( m ), 23.0f, 1.0e-5f );
	tbMat3 inv = tbInvert( m );
	assertIdentity( tbMulMM( m, inv ), 1.0e-5f );
	assertIdentity( tbMulMM( inv, m ), 1.0e-5f );
	assertNear( tbDeterminant( m ) * tbDeterminant( inv ), 1.0f, 1.0e-5f );

	// Solving m x = b recovers the x that made b.
	tbVec3 x = tbMakeVec3( 0.25f, -1.5f, 2.0f );
	assertVecNear( tbSolve3( m, tbMulMV( m, x ) ), x, 1.0e-5f );

	// A box inertia tensor rotated into world frame: its inverse, rotated back, is diag(1/I).
	tbVec3 inertia = tbMakeVec3( 0.5f, 2.0f, 8.0f );
	tbQuat q = tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, 1.0f, 0.0f ) ), 0.7f );
	tbMat3 world = tbRotateInertia( q, tbMakeDiagonal( inertia ) );
	// The diagonal shortcut gives the full product's numbers exactly on and above the diagonal (the
	// product's other terms are zeros), and is exactly symmetric.
	tbMat3 rq = tbMakeMatFromQuat( q );
	tbMat3 full = tbMulMM( tbMulMM( rq, tbMakeDiagonal( inertia ) ), tbTranspose( rq ) );
	float upper[6] = { world.cx.x, world.cy.x, world.cz.x, world.cy.y, world.cz.y, world.cz.z };
	float fullUpper[6] = { full.cx.x, full.cy.x, full.cz.x, full.cy.y, full.cz.y, full.cz.z };
	assert_memory_equal( upper, fullUpper, sizeof( upper ) );
	float lower[3] = { world.cx.y, world.cx.z, world.cy.z };
	float mirrored[3] = { world.cy.x, world.cz.x, world.cz.y };
	assert_memory_equal( lower, mirrored, sizeof( lower ) );
	tbMat3 worldInv = tbInvert( world );
	assertIdentity( tbMulMM( world, worldInv ), 1.0e-5f );
	tbMat3 r = tbMakeMatFromQuat( q );
	tbMat3 bodyInv = tbMulMM( tbMulMM( tbTranspose( r ), worldInv ), r );
	assertVecNear( bodyInv.cx, tbMakeVec3( 1.0f / inertia.x, 0.0f, 0.0f ), 1.0e-5f );
	assertVecNear( bodyInv.cy, tbMakeVec3( 0.0f, 1.0f / inertia.y, 0.0f ), 1.0e-5f );
	assertVecNear( bodyInv.cz, tbMakeVec3( 0.0f, 0.0f, 1.0f / inertia.z ), 1.0e-5f );

	// The skew matrix really is the cross product.
	tbVec3 a = tbMakeVec3( 1.0f, -2.0f, 0.5f );
	assertVecNear( tbMulMV( tbSkew( a ), x ), tbCross( a, x ), 1.0e-6f );
}

static void testSingularInverseIsZero( void** state )
{
	( void )state;
	// Third column = first + second: rank 2, no inverse. The entries are small dyadic numbers, so the
	// determinant is exactly 0 in float too and the singular branch must be taken.
	tbVec3 c0 = tbMakeVec3( 1.0f, 2.0f, 3.0f );
	tbVec3 c1 = tbMakeVec3( -1.0f, 0.5f, 2.0f );
	tbMat3 m = tbMakeMat3( c0, c1, tbAdd( c0, c1 ) );
	assertNear( tbDeterminant( m ), 0.0f, 0.0f );
	tbMat3 inv = tbInvert( m );
	assertVecNear( inv.cx, tb_vec3_zero, 0.0f );
	assertVecNear( inv.cy, tb_vec3_zero, 0.0f );
	assertVecNear( inv.cz, tb_vec3_zero, 0.0f );
}

static void testInverseAtExtremeScales( void** state )
{
	( void )state;
	// Box inertias at the ends of the input limits: a 1 mm box of density 1e-6 (I ~ 1e-22 kg m^2,
	// det ~ 1e-66, below float's range) and a 1e4 m box of density 1e6 (I ~ 1e25, det ~ 1e76,
	// above it). Both are well conditioned, so the inverse must be diag(1/I) to float precision.
	const float sizes[2] = { 1.0e-3f, 1.0e4f };
	const float densities[2] = { 1.0e-6f, 1.0e6f };
	for ( int k = 0; k < 2; ++k )
	{
		float a = sizes[k], b = 2.0f * sizes[k], c = 0.5f * sizes[k];
		float m = densities[k] * a * b * c;
		tbVec3 inertia = tbMakeVec3( m * ( b * b + c * c ) / 12.0f, m * ( a * a + c * c ) / 12.0f, m * ( a * a + b * b ) / 12.0f );
		tbQuat q = tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, -2.0f, 0.5f ) ), 1.1f );
		tbMat3 world = tbRotateInertia( q, tbMakeDiagonal( inertia ) );
		tbMat3 inv = tbInvert( world );
		tbMat3 r = tbMakeMatFromQuat( q );
		tbMat3 bodyInv = tbMulMM( tbMulMM( tbTranspose( r ), inv ), r );
		// Relative tolerance 1e-4 on each diagonal entry; off-diagonal entries below 1e-4 of the largest.
		float d[3] = { bodyInv.cx.x, bodyInv.cy.y, bodyInv.cz.z };
		float expected[3] = { 1.0f / inertia.x, 1.0f / inertia.y, 1.0f / inertia.z };
		for ( int i = 0; i < 3; ++i )
		{
			assertNear( d[i] / expected[i], 1.0f, 1.0e-4f );
		}
		float largest = tbMaxFloat( expected[0], tbMaxFloat( expected[1], expected[2] ) );
		assertNear( bodyInv.cx.y / largest, 0.0f, 1.0e-4f );
		assertNear( bodyInv.cx.z / largest, 0.0f, 1.0e-4f );
		assertNear( bodyInv.cy.z / largest, 0.0f, 1.0e-4f );
	}

	// A nearly singular but scaled-up matrix stays singular: rank 2 times 1e20.
	tbVec3 c0 = tbMakeVec3( 1.0e20f, 2.0e20f, 3.0e20f );
	tbVec3 c1 = tbMakeVec3( -1.0e20f, 0.5e20f, 2.0e20f );
	tbMat3 singular = tbInvert( tbMakeMat3( c0, c1, tbAdd( c0, c1 ) ) );
	assertVecNear( singular.cx, tb_vec3_zero, 0.0f );
}

// Orientation integration -----------------------------------------------------------------------

static void testIntegrateConstantSpin( void** state )
{
	( void )state;
	// Spin at 2 rad/s about a tilted axis for 1 s in 60 Hz steps: the body turns 2 rad about that axis.
	// The update is first order, so per step the angle error is O(h^3 |w|^3) after renormalisation;
	// over 60 steps 1e-3 rad is generous yet catches a wrong factor (e.g. missing the 0.5) by far.
	tbVec3 axis = tbNormalize( tbMakeVec3( 1.0f, 2.0f, 2.0f ) );
	float rate = 2.0f;
	tbVec3 w = tbMulSV( rate, axis );
	float h = 1.0f / 60.0f;
	tbQuat q0 = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.3f );
	tbQuat q = q0;
	for ( int i = 0; i < 60; ++i )
	{
		q = tbIntegrateRotation( q, w, h );
		assertNear( tbDotQ( q, q ), 1.0f, UNIT_TOL );
	}

	// w is in world frame, so q = R(axis, rate * t) * q0.
	tbQuat expected = tbMulQQ( tbMakeQuatAxisAngle( axis, rate * 1.0f ), q0 );
	float error = tbQuatAngle( tbInvMulQQ( expected, q ) );
	assert_true( error < 1.0e-3f );

	// A body-fixed point swings through the same rotation (error 1e-3 rad * 1 m = 1 mm).
	tbVec3 p = tbMakeVec3( 1.0f, 0.0f, 0.0f );
	assertVecNear( tbRotate( q, p ), tbRotate( expected, p ), 1.0e-3f );
}

static void testIntegrateSingleStep( void** state )
{
	( void )state;
	// One small step about z: angle = |w| h to first order (the normalised update turns by
	// 2 atan(|w| h / 2) = |w| h - (|w| h)^3 / 12 + ..., 4.5e-6 rad short here).
	tbQuat q = tbIntegrateRotation( tb_quatIdentity, tbMakeVec3( 0.0f, 0.0f, 3.0f ), 0.01f );
	assertNear( tbQuatAngle( q ), 0.03f, 1.0e-5f );
	// It turns about +z (right-handed): x moves towards +y.
	tbVec3 x = tbRotate( q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
	assert_true( x.y > 0.0f );
	assertNear( x.z, 0.0f, 1.0e-6f );

	// Zero angular velocity leaves the orientation alone.
	tbQuat r = tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, 1.0f, 1.0f ) ), 1.0f );
	tbQuat same = tbIntegrateRotation( r, tb_vec3_zero, 0.1f );
	assertNear( tbDotQ( same, r ), 1.0f, UNIT_TOL );
}

// Shortest arc ----------------------------------------------------------------------------------

static void testQuatFromTo( void** state )
{
	( void )state;
	for ( int i = 0; i < s_directionCount; ++i )
	{
		for ( int j = 0; j < s_directionCount; ++j )
		{
			tbVec3 a = s_directions[i];
			tbVec3 b = s_directions[j];
			tbQuat q = tbQuatFromTo( a, b );
			assertNear( tbDotQ( q, q ), 1.0f, UNIT_TOL );

			// |a + b| is the angle (rad) between b and -a. Within 2 mrad of opposite the shortest arc is
			// ill-conditioned in float (1 + dot(a, b) cancels), and a half turn about any axis normal
			// to a is accepted: its error is at most that angle. Elsewhere the arc must be accurate.
			float offOpposite = tbLength( tbAdd( a, b ) );
			float tolerance = offOpposite < 2.0e-3f ? offOpposite + 1.0e-5f : 1.0e-4f;
			assertVecNear( tbRotate( q, a ), b, tolerance );

			// Shortest arc: it turns by the angle between a and b, about an axis normal to both.
			float between = atan2f( tbLength( tbCross( a, b ) ), tbDot( a, b ) );
			assertNear( tbQuatAngle( q ), between, tolerance );
			tbVec3 qAxis = tbMakeVec3( q.x, q.y, q.z );
			assertNear( tbDot( qAxis, a ), 0.0f, tolerance );
			assertNear( tbDot( qAxis, b ), 0.0f, tolerance );
		}
	}
}

// Perpendicular and basis -----------------------------------------------------------------------

static void testPerpendicular( void** state )
{
	( void )state;
	for ( int i = 0; i < s_directionCount; ++i )
	{
		tbVec3 n = s_directions[i];
		tbVec3 t = tbPerpendicular( n );
		assert_true( tbIsValidVec3( t ) );
		assertNear( tbDot( t, n ), 0.0f, UNIT_TOL );
		assertNear( tbLength( t ), 1.0f, UNIT_TOL );

		// (n, t1, t2) is orthonormal and right-handed: t1 x t2 == n.
		tbVec3 t1, t2;
		tbComputeBasis( n, &t1, &t2 );
		assertNear( tbDot( t1, n ), 0.0f, UNIT_TOL );
		assertNear( tbDot( t2, n ), 0.0f, UNIT_TOL );
		assertNear( tbDot( t1, t2 ), 0.0f, UNIT_TOL );
		assertNear( tbLength( t2 ), 1.0f, UNIT_TOL );
		assertVecNear( tbCross( t1, t2 ), n, UNIT_TOL );
	}
}

// tbAtan2 against the double-precision atan2 around the whole circle, at every scale (the angle of
// (r cos a, r sin a) for r from 1e-30 to 1e30), on the axes and at the octant boundaries where its
// range reduction switches: within 3e-7 rad, about one float spacing at pi (2.4e-7).
static void testAtan2MatchesDoubleAtan2( void** state )
{
	(void)state;
	double worst = 0.0;
	const float radii[] = { 1.0e-30f, 1.0e-6f, 0.5f, 1.0f, 3.0f, 1.0e6f, 1.0e30f };
	for ( int k = 0; k < (int)( sizeof( radii ) / sizeof( radii[0] ) ); ++k )
	{
		for ( int i = 0; i <= 20000; ++i )
		{
			double a = -3.14159265358979 + 6.28318530717959 * (double)i / 20000.0;
			float x = (float)( radii[k] * cos( a ) ), y = (float)( radii[k] * sin( a ) );
			double error = fabs( (double)tbAtan2( y, x ) - atan2( (double)y, (double)x ) );
			// At +-pi the two may pick opposite ends of the same direction.
			error = fmin( error, fabs( error - 6.28318530717959 ) );
			worst = fmax( worst, error );
		}
	}
	const float edges[][2] = { { 0.0f, 1.0f }, { 1.0f, 0.0f }, { 0.0f, -1.0f }, { -1.0f, 0.0f }, { 1.0f, 1.0f },
							   { -1.0f, -1.0f }, { 0.41421356f, 1.0f }, { 0.41421357f, 1.0f }, { 1.0f, 0.41421356f } };
	for ( int i = 0; i < (int)( sizeof( edges ) / sizeof( edges[0] ) ); ++i )
	{
		float y = edges[i][0], x = edges[i][1];
		worst = fmax( worst, fabs( (double)tbAtan2( y, x ) - atan2( (double)y, (double)x ) ) );
	}
	print_message( "tbAtan2: worst error %.3g rad\n", worst );
	assert_true( worst < 3.0e-7 );
	assert_true( tbAtan2( 0.0f, 0.0f ) == 0.0f );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( testQuarterTurns ),
		cmocka_unit_test( testAtan2MatchesDoubleAtan2 ),
		cmocka_unit_test( testRotationMatchesMatrixAndPreservesLength ),
		cmocka_unit_test( testCompositionAndInverse ),
		cmocka_unit_test( testInverse ),
		cmocka_unit_test( testSingularInverseIsZero ),
		cmocka_unit_test( testInverseAtExtremeScales ),
		cmocka_unit_test( testIntegrateConstantSpin ),
		cmocka_unit_test( testIntegrateSingleStep ),
		cmocka_unit_test( testQuatFromTo ),
		cmocka_unit_test( testPerpendicular ),
	};
	return cmocka_run_group_tests( tests, setupDirections, NULL );
}
