// Tumble tests: bad input to the public C API (issue 7, docs/RELIABILITY.md "Bad input"). Every
// refused call must return its error AND leave the world as it was: the tests compare the world's
// state hash (tbWorld_GetStateHash) and the counters before and after. Also the degenerate shape
// pairs the narrow phase met in fuzzing (EPA on flat Minkowski differences).
// SPDX-License-Identifier: MIT
#include "tumble/tumble.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <string.h>

#define ASSERT_NEAR( a, b, tol )                                                                                       \
	do                                                                                                                 \
	{                                                                                                                  \
		float a_ = ( a ), b_ = ( b );                                                                                  \
		if ( !( fabsf( a_ - b_ ) <= ( tol ) ) )                                                                        \
		{                                                                                                              \
			fail_msg( "%s = %.9g, expected %.9g (tolerance %g)", #a, (double)a_, (double)b_, (double)( tol ) );        \
		}                                                                                                              \
	} while ( 0 )

// EPA on degenerate pairs ---------------------------------------------------------------------------

// Fuzz finding 14 (tests/fuzz/crashes/fuzz_collide/hang-epa-blow-up-simplex-capsules, decoded with
// TB_FUZZ_DESCRIBE=1): capsule A has a zero-length segment at P = (128, 128, 128), radius 24.633;
// capsule B runs from Q = (128, -125.99, -127.96) to P, radius 128. Their cores touch at P only, so
// the Minkowski difference of the cores is a segment with the origin at one end and
// tbShapePenetration looped forever growing it to a tetrahedron. The true answer: the cores touch
// (depth 0), so the penetration is the sum of the radii, along any direction that does not point
// back along the segment; moving B by depth * normal must leave the cores exactly touching.
static void test_epa_capsules_sharing_an_end( void** state )
{
	(void)state;
	const tbVec3 p = { 128.0f, 128.0f, 128.0f };
	const tbVec3 q = { 128.0f, -125.992157f, -127.960938f };
	const float radiusA = 24.6331425f;
	const float radiusB = 128.0f;
	tbVec3 pointsA[2] = { p, p };
	tbVec3 pointsB[2] = { q, p };
	// The fuzzer's rotation, a near identity that is not quite unit length, as decoded.
	tbQuat rotation = { 1.90734863e-06f, 0.0f, 0.0f, 1.0f };

	tbDistanceInput input;
	input.proxyA = ( tbShapeProxy ){ pointsA, 2, radiusA };
	input.proxyB = ( tbShapeProxy ){ pointsB, 2, radiusB };
	input.transformA = ( tbTransform ){ tb_vec3_zero, rotation };
	input.transformB = input.transformA;
	input.useRadii = true;

	tbPenetrationOutput out = tbShapePenetration( &input );
	assert_true( out.valid );
	assert_true( tbIsValidVec3( out.normal ) && tbIsValidVec3( out.pointA ) && tbIsValidVec3( out.pointB ) );
	assert_true( isfinite( out.depth ) );
	ASSERT_NEAR( tbLength( out.normal ), 1.0f, 1.0e-4f );
	// Float resolution at 360 m is ~3e-5 m; 1 mm is well above it and far below any wrong answer.
	ASSERT_NEAR( out.depth, radiusA + radiusB, 1.0e-3f );
	// The normal must not point back along B's segment (from P towards Q), or moving B along it
	// would push B's core through A's.
	tbVec3 along = tbNormalize( tbSub( q, p ) );
	assert_true( tbDot( out.normal, along ) <= 1.0e-3f );

	// Moved by depth * normal, the shapes touch: their distance with radii is 0 (to 1 mm).
	tbDistanceInput moved = input;
	moved.transformB.p = tbMulAdd( input.transformB.p, out.depth, out.normal );
	tbSimplexCache cache = { 0 };
	tbDistanceOutput apart = tbShapeDistance( &moved, &cache );
	ASSERT_NEAR( apart.distance, 0.0f, 1.0e-3f );
	moved.transformB.p = tbMulAdd( input.transformB.p, out.depth + 0.01f, out.normal );
	cache = ( tbSimplexCache ){ 0 };
	apart = tbShapeDistance( &moved, &cache );
	ASSERT_NEAR( apart.distance, 0.01f, 1.0e-3f );
}

// The same kind of pair at other scales and with B's segment along other axes: each call must
// return (the loop is bounded) with the radii as the depth.
static void test_epa_point_against_segment_end_scales( void** state )
{
	(void)state;
	const float scales[] = { 1.0e-3f, 1.0f, 37.0f, 1000.0f, 1.0e5f };
	const tbVec3 directions[] = { { 0.0f, -253.992157f, -255.960938f }, { 1.0f, 0.0f, 0.0f }, { 3.0f, -7.0f, 1.0e-3f } };
	for ( size_t i = 0; i < sizeof( scales ) / sizeof( scales[0] ); ++i )
	{
		for ( size_t k = 0; k < sizeof( directions ) / sizeof( directions[0] ); ++k )
		{
			float s = scales[i];
			tbVec3 p = tbMulSV( s, tbMakeVec3( 1.0f, 1.0f, 1.0f ) );
			tbVec3 q = tbMulAdd( p, 2.0f * s, tbNormalize( directions[k] ) );
			tbVec3 pointsA[2] = { p, p };
			tbVec3 pointsB[2] = { q, p };
			tbDistanceInput input;
			input.proxyA = ( tbShapeProxy ){ pointsA, 2, 0.2f * s };
			input.proxyB = ( tbShapeProxy ){ pointsB, 2, 0.5f * s };
			input.transformA = tb_transformIdentity;
			input.transformB = tb_transformIdentity;
			input.useRadii = true;
			tbPenetrationOutput out = tbShapePenetration( &input );
			assert_true( out.valid );
			// Relative tolerance: 1e-5 of the pair's size is the narrow phase's own tolerance.
			ASSERT_NEAR( out.depth, 0.7f * s, 1.0e-4f * s );
			ASSERT_NEAR( tbLength( out.normal ), 1.0f, 1.0e-4f );
		}
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_epa_capsules_sharing_an_end ),
		cmocka_unit_test( test_epa_point_against_segment_end_scales ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
