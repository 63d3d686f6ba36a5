// Tumble unit tests: dynamic AABB tree (queries and ray casts against brute force, structure, height,
// node reuse without allocation).
// SPDX-License-Identifier: MIT
#include "core.h"

#include "tumble/collision.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>

#include <cmocka.h>

// Fixed-seed generator (xorshift64*), so every run sees the same boxes.
typedef struct TestRandom
{
	uint64_t state;
} TestRandom;

static float RandomFloat( TestRandom* random, float lo, float hi )
{
	random->state ^= random->state >> 12;
	random->state ^= random->state << 25;
	random->state ^= random->state >> 27;
	uint64_t bits = random->state * 2685821657736338717ull;
	float unit = (float)( bits >> 40 ) / (float)( 1u << 24 );
	return lo + ( hi - lo ) * unit;
}

static tbAABB MakeBox( tbVec3 center, tbVec3 halfExtents )
{
	tbAABB box = { tbSub( center, halfExtents ), tbAdd( center, halfExtents ) };
	return box;
}

// A box with its centre in [-worldHalf, worldHalf]^3 and half extents in [minHalf, maxHalf], metres.
static tbAABB RandomBox( TestRandom* random, float worldHalf, float minHalf, float maxHalf )
{
	tbVec3 c = { RandomFloat( random, -worldHalf, worldHalf ), RandomFloat( random, -worldHalf, worldHalf ),
				 RandomFloat( random, -worldHalf, worldHalf ) };
	tbVec3 h = { RandomFloat( random, minHalf, maxHalf ), RandomFloat( random, minHalf, maxHalf ),
				 RandomFloat( random, minHalf, maxHalf ) };
	return MakeBox( c, h );
}

// The test's own overlap rule, written per axis (touching boxes overlap).
static bool BoxesOverlap( tbAABB a, tbAABB b )
{
	return a.lowerBound.x <= b.upperBound.x && b.lowerBound.x <= a.upperBound.x && a.lowerBound.y <= b.upperBound.y &&
		   b.lowerBound.y <= a.upperBound.y && a.lowerBound.z <= b.upperBound.z && b.lowerBound.z <= a.upperBound.z;
}

// The test's own ray/box intersection in double precision: the entry fraction of origin + t * d,
// t in [0, maxFraction], or -1 for a miss.
static double RayBoxFraction( tbVec3 origin, tbVec3 d, double maxFraction, tbAABB box )
{
	double p[3] = { origin.x, origin.y, origin.z };
	double v[3] = { d.x, d.y, d.z };
	double lo[3] = { box.lowerBound.x, box.lowerBound.y, box.lowerBound.z };
	double hi[3] = { box.upperBound.x, box.upperBound.y, box.upperBound.z };
	double enter = 0.0;
	double leave = maxFraction;
	for ( int i = 0; i < 3; ++i )
	{
		if ( v[i] == 0.0 )
		{
			if ( p[i] < lo[i] || p[i] > hi[i] )
			{
				return -1.0;
			}
			continue;
		}
		double a = ( lo[i] - p[i] ) / v[i];
		double b = ( hi[i] - p[i] ) / v[i];
		enter = fmax( enter, fmin( a, b ) );
		leave = fmin( leave, fmax( a, b ) );
	}
	return enter <= leave ? enter : -1.0;
}

static int CompareInt( const void* a, const void* b )
{
	int32_t x = *(const int32_t*)a;
	int32_t y = *(const int32_t*)b;
	return ( x > y ) - ( x < y );
}

// A tree plus the test's record of every proxy: userData is the index into these arrays.
#define MAX_PROXIES 100000

typedef struct TreeFixture
{
	tbDynamicTree tree;
	tbAABB boxes[MAX_PROXIES];
	uint64_t categories[MAX_PROXIES];
	int32_t proxyIds[MAX_PROXIES];
	bool alive[MAX_PROXIES];
	int count;
} TreeFixture;

static TreeFixture* CreateFixture( void )
{
	TreeFixture* f = calloc( 1, sizeof( TreeFixture ) );
	f->tree = tbDynamicTree_Create();
	return f;
}

static void DestroyFixture( TreeFixture* f )
{
	tbDynamicTree_Destroy( &f->tree );
	free( f );
}

static void AddProxy( TreeFixture* f, tbAABB box, uint64_t categoryBits )
{
	int i = f->count++;
	f->boxes[i] = box;
	f->categories[i] = categoryBits;
	f->alive[i] = true;
	f->proxyIds[i] = tbDynamicTree_CreateProxy( &f->tree, box, categoryBits, i );
}

typedef struct QueryResults
{
	const TreeFixture* fixture;
	int32_t* indices;
	int count;
	int capacity;
	int stopAfter; ///< return false after this many results (0: never)
	bool proxyIdMismatch;
} QueryResults;

static bool CollectQuery( int32_t proxyId, int32_t userData, void* context )
{
	QueryResults* results = context;
	if ( userData < 0 || userData >= results->fixture->count || results->fixture->proxyIds[userData] != proxyId )
	{
		results->proxyIdMismatch = true;
	}
	if ( results->count < results->capacity )
	{
		results->indices[results->count] = userData;
	}
	results->count += 1;
	return results->stopAfter == 0 || results->count < results->stopAfter;
}

// The tree's answer equals the brute-force list exactly: same proxies, none twice.
static void CheckQuery( const TreeFixture* f, tbAABB queryBox, uint64_t maskBits )
{
	int32_t* found = malloc( sizeof( int32_t ) * ( (size_t)f->count + 1 ) );
	int32_t* expected = malloc( sizeof( int32_t ) * ( (size_t)f->count + 1 ) );
	QueryResults results = { f, found, 0, f->count + 1, 0, false };
	tbDynamicTree_Query( &f->tree, queryBox, maskBits, CollectQuery, &results );
	assert_false( results.proxyIdMismatch );
	assert_true( results.count <= f->count );

	int expectedCount = 0;
	for ( int i = 0; i < f->count; ++i )
	{
		if ( f->alive[i] && ( f->categories[i] & maskBits ) != 0 && BoxesOverlap( f->boxes[i], queryBox ) )
		{
			expected[expectedCount++] = i;
		}
	}

	qsort( found, (size_t)results.count, sizeof( int32_t ), CompareInt );
	assert_int_equal( results.count, expectedCount );
	for ( int i = 0; i < expectedCount; ++i )
	{
		assert_int_equal( found[i], expected[i] );
	}
	free( found );
	free( expected );
}

static int CountAlive( const TreeFixture* f )
{
	int n = 0;
	for ( int i = 0; i < f->count; ++i )
	{
		n += f->alive[i] ? 1 : 0;
	}
	return n;
}

// Insert 1000 random boxes; 200 random queries equal brute force. Then move 250 and destroy 250
// (half of them touched), validate, and query again.
static void test_query_matches_brute_force( void** state )
{
	(void)state;
	TestRandom random = { 0x9E3779B97F4A7C15ull };
	TreeFixture* f = CreateFixture();
	for ( int i = 0; i < 1000; ++i )
	{
		AddProxy( f, RandomBox( &random, 50.0f, 0.1f, 3.0f ), 1 );
	}
	assert_true( tbDynamicTree_Validate( &f->tree ) );
	assert_int_equal( f->tree.proxyCount, 1000 );

	for ( int q = 0; q < 200; ++q )
	{
		CheckQuery( f, RandomBox( &random, 55.0f, 0.0f, 10.0f ), UINT64_MAX );
	}

	for ( int i = 0; i < 1000; i += 4 )
	{
		tbDynamicTree_DestroyProxy( &f->tree, f->proxyIds[i] );
		f->alive[i] = false;
	}
	for ( int i = 2; i < 1000; i += 4 )
	{
		f->boxes[i] = RandomBox( &random, 50.0f, 0.1f, 3.0f );
		tbDynamicTree_MoveProxy( &f->tree, f->proxyIds[i], f->boxes[i] );
	}
	assert_true( tbDynamicTree_Validate( &f->tree ) );
	assert_int_equal( f->tree.proxyCount, 750 );
	assert_int_equal( CountAlive( f ), 750 );

	for ( int q = 0; q < 200; ++q )
	{
		CheckQuery( f, RandomBox( &random, 55.0f, 0.0f, 10.0f ), UINT64_MAX );
	}
	// A query box covering everything returns every live proxy.
	tbAABB all = { { -100.0f, -100.0f, -100.0f }, { 100.0f, 100.0f, 100.0f } };
	CheckQuery( f, all, UINT64_MAX );
	DestroyFixture( f );
}

// categoryBits & maskBits filters leaves; internal nodes must not hide matching leaves.
static void test_query_mask_bits( void** state )
{
	(void)state;
	TestRandom random = { 12345 };
	TreeFixture* f = CreateFixture();
	for ( int i = 0; i < 500; ++i )
	{
		AddProxy( f, RandomBox( &random, 20.0f, 0.2f, 2.0f ), 1ull << ( i % 5 ) );
	}
	for ( int q = 0; q < 100; ++q )
	{
		tbAABB box = RandomBox( &random, 22.0f, 1.0f, 8.0f );
		CheckQuery( f, box, 0x5 );
		CheckQuery( f, box, 0x10 );
		CheckQuery( f, box, 0x0 );
	}
	// Masks still hold after churn (rotations recompute the internal category unions).
	for ( int i = 0; i < 500; i += 3 )
	{
		f->boxes[i] = RandomBox( &random, 20.0f, 0.2f, 2.0f );
		tbDynamicTree_MoveProxy( &f->tree, f->proxyIds[i], f->boxes[i] );
	}
	assert_true( tbDynamicTree_Validate( &f->tree ) );
	for ( int q = 0; q < 100; ++q )
	{
		CheckQuery( f, RandomBox( &random, 22.0f, 1.0f, 8.0f ), 0x6 );
	}
	DestroyFixture( f );
}

static void test_query_stops_when_callback_returns_false( void** state )
{
	(void)state;
	TreeFixture* f = CreateFixture();
	for ( int i = 0; i < 50; ++i )
	{
		AddProxy( f, MakeBox( tbMakeVec3( 0.1f * (float)i, 0.0f, 0.0f ), tbMakeVec3( 1.0f, 1.0f, 1.0f ) ), 1 );
	}
	int32_t found[64];
	QueryResults results = { f, found, 0, 64, 3, false };
	tbAABB everything = { { -10.0f, -10.0f, -10.0f }, { 10.0f, 10.0f, 10.0f } };
	tbDynamicTree_Query( &f->tree, everything, UINT64_MAX, CollectQuery, &results );
	assert_int_equal( results.count, 3 );
	DestroyFixture( f );
}

// Ray-cast callback: computes the exact hit fraction of the proxy's box and returns it, so the tree
// clips the ray to the closest hit so far.
typedef struct RayResults
{
	const TreeFixture* fixture;
	int closest;
	double closestFraction;
	int calls;
	bool stopAtFirst;
	bool visitedOutsideSegment; ///< a box that the clipped segment misses was reported
} RayResults;

static float ClosestRayCallback( const tbRayCastInput* input, int32_t proxyId, int32_t userData, void* context )
{
	RayResults* results = context;
	(void)proxyId;
	results->calls += 1;
	tbAABB box = results->fixture->boxes[userData];
	// The tree may report boxes whose float slab test passes by rounding; allow 1e-4 of the ray.
	double fraction = RayBoxFraction( input->origin, input->translation, input->maxFraction + 1.0e-4, box );
	if ( fraction < 0.0 )
	{
		results->visitedOutsideSegment = true;
		return input->maxFraction;
	}
	if ( results->stopAtFirst )
	{
		results->closest = userData;
		return 0.0f;
	}
	if ( fraction > input->maxFraction )
	{
		return input->maxFraction;
	}
	if ( fraction < results->closestFraction )
	{
		results->closestFraction = fraction;
		results->closest = userData;
	}
	return (float)fraction;
}

static void CheckRay( const TreeFixture* f, tbVec3 origin, tbVec3 translation, float maxFraction )
{
	RayResults results = { f, -1, 2.0, 0, false, false };
	tbRayCastInput input = { origin, translation, maxFraction };
	tbDynamicTree_RayCast( &f->tree, &input, UINT64_MAX, ClosestRayCallback, &results );
	assert_false( results.visitedOutsideSegment );

	int expected = -1;
	double expectedFraction = 2.0;
	for ( int i = 0; i < f->count; ++i )
	{
		if ( f->alive[i] == false )
		{
			continue;
		}
		double fraction = RayBoxFraction( origin, translation, maxFraction, f->boxes[i] );
		if ( fraction >= 0.0 && fraction < expectedFraction )
		{
			expectedFraction = fraction;
			expected = i;
		}
	}

	if ( expected < 0 )
	{
		assert_int_equal( results.closest, -1 );
		return;
	}
	assert_true( results.closest >= 0 );
	// Equal hit fractions within 1e-6 of the ray (1e-4 m on a 100 m ray); the box may differ only
	// in an exact tie.
	assert_true( fabs( results.closestFraction - expectedFraction ) <= 1.0e-6 );
}

static void test_ray_cast_closest_hit_matches_brute_force( void** state )
{
	(void)state;
	TestRandom random = { 777 };
	TreeFixture* f = CreateFixture();
	for ( int i = 0; i < 1000; ++i )
	{
		AddProxy( f, RandomBox( &random, 50.0f, 0.1f, 3.0f ), 1 );
	}

	for ( int r = 0; r < 300; ++r )
	{
		// From outside the cloud through a random interior point and beyond.
		tbVec3 origin = { RandomFloat( &random, -80.0f, 80.0f ), RandomFloat( &random, -80.0f, 80.0f ), 80.0f };
		tbVec3 target = { RandomFloat( &random, -40.0f, 40.0f ), RandomFloat( &random, -40.0f, 40.0f ),
						  RandomFloat( &random, -40.0f, 40.0f ) };
		tbVec3 translation = tbMulSV( 2.0f, tbSub( target, origin ) );
		float maxFraction = r % 3 == 0 ? 0.3f : 1.0f;
		CheckRay( f, origin, translation, maxFraction );
	}

	// Axis-aligned rays (zero translation components take the slab special case).
	for ( int r = 0; r < 100; ++r )
	{
		tbVec3 origin = { RandomFloat( &random, -50.0f, 50.0f ), RandomFloat( &random, -50.0f, 50.0f ), -70.0f };
		CheckRay( f, origin, tbMakeVec3( 0.0f, 0.0f, 140.0f ), 1.0f );
	}

	// After churn.
	for ( int i = 0; i < 1000; i += 2 )
	{
		tbDynamicTree_DestroyProxy( &f->tree, f->proxyIds[i] );
		f->alive[i] = false;
	}
	for ( int r = 0; r < 100; ++r )
	{
		tbVec3 origin = { RandomFloat( &random, -80.0f, 80.0f ), -80.0f, RandomFloat( &random, -80.0f, 80.0f ) };
		tbVec3 target = { RandomFloat( &random, -40.0f, 40.0f ), RandomFloat( &random, -40.0f, 40.0f ),
						  RandomFloat( &random, -40.0f, 40.0f ) };
		CheckRay( f, origin, tbMulSV( 2.0f, tbSub( target, origin ) ), 1.0f );
	}
	DestroyFixture( f );
}

// Returning 0 from the callback ends the cast at once; nothing beyond maxFraction is reported.
static void test_ray_cast_stop_and_max_fraction( void** state )
{
	(void)state;
	TreeFixture* f = CreateFixture();
	// A row of unit cubes along +x at x = 0, 4, 8, ..., 36.
	for ( int i = 0; i < 10; ++i )
	{
		AddProxy( f, MakeBox( tbMakeVec3( 4.0f * (float)i, 0.0f, 0.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ) ), 1 );
	}
	tbVec3 origin = { -10.0f, 0.0f, 0.0f };
	tbVec3 translation = { 100.0f, 0.0f, 0.0f };

	RayResults stop = { f, -1, 2.0, 0, true, false };
	tbRayCastInput input = { origin, translation, 1.0f };
	tbDynamicTree_RayCast( &f->tree, &input, UINT64_MAX, ClosestRayCallback, &stop );
	assert_int_equal( stop.calls, 1 );

	// The ray covers x in [-10, 10] for maxFraction 0.2: only the cubes at 0, 4, 8 lie on it.
	RayResults clipped = { f, -1, 2.0, 0, false, false };
	input.maxFraction = 0.2f;
	tbDynamicTree_RayCast( &f->tree, &input, UINT64_MAX, ClosestRayCallback, &clipped );
	assert_false( clipped.visitedOutsideSegment );
	assert_int_equal( clipped.closest, 0 );
	// Entry face of the cube at x = 0 is x = -0.5: fraction (-0.5 + 10) / 100.
	assert_true( fabs( clipped.closestFraction - 0.095 ) < 1.0e-6 );
	assert_true( clipped.calls <= 3 );

	// Over the whole row, every reported cube lies on the ray as clipped by the hits returned so far
	// (visitedOutsideSegment stays false), and the closest is the first cube.
	RayResults full = { f, -1, 2.0, 0, false, false };
	input.maxFraction = 1.0f;
	tbDynamicTree_RayCast( &f->tree, &input, UINT64_MAX, ClosestRayCallback, &full );
	assert_false( full.visitedOutsideSegment );
	assert_int_equal( full.closest, 0 );
	assert_true( fabs( full.closestFraction - 0.095 ) < 1.0e-6 );

	// A ray that misses everything (passes 1 m above the row) reports nothing.
	RayResults miss = { f, -1, 2.0, 0, false, false };
	tbRayCastInput above = { { -10.0f, 0.0f, 1.5f }, translation, 1.0f };
	tbDynamicTree_RayCast( &f->tree, &above, UINT64_MAX, ClosestRayCallback, &miss );
	assert_int_equal( miss.calls, 0 );
	DestroyFixture( f );
}

// 1000 cubes inserted in order along a line (the worst case for a tree without rotations, which
// would degenerate to a list of height ~1000) and 1000 random boxes stay logarithmic.
static void test_height_stays_logarithmic( void** state )
{
	(void)state;
	int n = 1000;
	float bound = 2.0f * log2f( (float)n ) + 4.0f;

	tbDynamicTree line = tbDynamicTree_Create();
	for ( int i = 0; i < n; ++i )
	{
		tbDynamicTree_CreateProxy( &line, MakeBox( tbMakeVec3( (float)i, 0.0f, 0.0f ), tbMakeVec3( 0.4f, 0.4f, 0.4f ) ),
								   1, i );
	}
	assert_true( tbDynamicTree_Validate( &line ) );
	assert_true( tbDynamicTree_GetHeight( &line ) < 40 );
	assert_true( (float)tbDynamicTree_GetHeight( &line ) <= bound );
	print_message( "line of %d: height %d, area ratio %.2f\n", n, tbDynamicTree_GetHeight( &line ),
				   (double)tbDynamicTree_GetAreaRatio( &line ) );
	tbDynamicTree_Destroy( &line );

	TestRandom random = { 4242 };
	tbDynamicTree cloud = tbDynamicTree_Create();
	for ( int i = 0; i < n; ++i )
	{
		tbDynamicTree_CreateProxy( &cloud, RandomBox( &random, 50.0f, 0.1f, 3.0f ), 1, i );
	}
	assert_true( (float)tbDynamicTree_GetHeight( &cloud ) <= bound );
	tbDynamicTree_Destroy( &cloud );
}

// 100k random proxies: the size the broad phase must handle. Height stays logarithmic and queries
// (explicit stack, no recursion) equal brute force.
static void test_large_tree( void** state )
{
	(void)state;
	TestRandom random = { 99 };
	TreeFixture* f = CreateFixture();
	for ( int i = 0; i < MAX_PROXIES; ++i )
	{
		AddProxy( f, RandomBox( &random, 200.0f, 0.2f, 1.0f ), 1 );
	}
	assert_true( tbDynamicTree_Validate( &f->tree ) );
	int height = tbDynamicTree_GetHeight( &f->tree );
	print_message( "100k random: height %d, area ratio %.1f\n", height,
				   (double)tbDynamicTree_GetAreaRatio( &f->tree ) );
	assert_true( (float)height <= 2.0f * log2f( (float)MAX_PROXIES ) + 4.0f );
	for ( int q = 0; q < 20; ++q )
	{
		CheckQuery( f, RandomBox( &random, 200.0f, 1.0f, 20.0f ), UINT64_MAX );
	}
	DestroyFixture( f );
}

// Boxes nested inside one another cannot be split by area: the tree becomes deep. Queries and ray
// casts must stay exact (and must not overflow: the traversal stack falls back to the heap).
static void test_nested_boxes_deep_tree( void** state )
{
	(void)state;
	TreeFixture* f = CreateFixture();
	for ( int i = 0; i < 600; ++i )
	{
		float h = 1.0f + 0.01f * (float)i;
		AddProxy( f, MakeBox( tb_vec3_zero, tbMakeVec3( h, h, h ) ), 1 );
	}
	assert_true( tbDynamicTree_Validate( &f->tree ) );
	print_message( "600 nested boxes: height %d\n", tbDynamicTree_GetHeight( &f->tree ) );

	// A point at the centre is inside all 600; a point at (3, 3, 3) is inside the boxes with h >= 3.
	CheckQuery( f, MakeBox( tb_vec3_zero, tbMakeVec3( 0.01f, 0.01f, 0.01f ) ), UINT64_MAX );
	CheckQuery( f, MakeBox( tbMakeVec3( 3.0f, 3.0f, 3.0f ), tbMakeVec3( 0.01f, 0.01f, 0.01f ) ), UINT64_MAX );
	CheckQuery( f, MakeBox( tbMakeVec3( 10.0f, 0.0f, 0.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ) ), UINT64_MAX );
	// From outside, the first box hit is the largest (h = 6.99, entry at x = -6.99).
	CheckRay( f, tbMakeVec3( -20.0f, 0.1f, 0.2f ), tbMakeVec3( 40.0f, 0.0f, 0.0f ), 1.0f );
	DestroyFixture( f );
}

// Moving every proxy and re-creating destroyed ones reuse freed nodes: no allocation.
static void test_node_reuse_without_allocation( void** state )
{
	(void)state;
	TestRandom random = { 31337 };
	TreeFixture* f = CreateFixture();
	for ( int i = 0; i < 1000; ++i )
	{
		AddProxy( f, RandomBox( &random, 30.0f, 0.1f, 1.0f ), 1 );
	}
	int32_t capacity = f->tree.nodeCapacity;
	long allocations = tbGetAllocationCount();

	for ( int i = 0; i < 1000; ++i )
	{
		f->boxes[i] = RandomBox( &random, 30.0f, 0.1f, 1.0f );
		tbDynamicTree_MoveProxy( &f->tree, f->proxyIds[i], f->boxes[i] );
	}
	// Destroying 500 leaves frees 500 leaves and 500 internal nodes: exactly what 500 new proxies need.
	for ( int i = 0; i < 1000; i += 2 )
	{
		tbDynamicTree_DestroyProxy( &f->tree, f->proxyIds[i] );
		f->alive[i] = false;
	}
	assert_int_equal( f->tree.nodeCount, 2 * 500 - 1 );
	for ( int i = 0; i < 500; ++i )
	{
		AddProxy( f, RandomBox( &random, 30.0f, 0.1f, 1.0f ), 1 );
	}
	assert_int_equal( tbGetAllocationCount(), allocations );
	assert_int_equal( f->tree.nodeCapacity, capacity );
	assert_int_equal( f->tree.nodeCount, 2 * 1000 - 1 );
	assert_true( tbDynamicTree_Validate( &f->tree ) );
	for ( int q = 0; q < 50; ++q )
	{
		CheckQuery( f, RandomBox( &random, 30.0f, 0.5f, 5.0f ), UINT64_MAX );
	}
	DestroyFixture( f );
}

// Enlarging in place keeps every query exact, including a new box that does not contain the old.
static void test_enlarge_proxy( void** state )
{
	(void)state;
	TestRandom random = { 2024 };
	TreeFixture* f = CreateFixture();
	for ( int i = 0; i < 300; ++i )
	{
		AddProxy( f, RandomBox( &random, 20.0f, 0.1f, 1.0f ), 1 );
	}
	for ( int i = 0; i < 300; i += 3 )
	{
		tbAABB grown = f->boxes[i];
		grown.upperBound = tbAdd( grown.upperBound, tbMakeVec3( RandomFloat( &random, 0.0f, 5.0f ), 0.5f, 0.0f ) );
		grown.lowerBound.z -= RandomFloat( &random, 0.0f, 3.0f );
		f->boxes[i] = grown;
		tbDynamicTree_EnlargeProxy( &f->tree, f->proxyIds[i], grown );
		assert_true( f->tree.nodes[f->proxyIds[i]].enlarged );
	}
	assert_true( tbDynamicTree_Validate( &f->tree ) );
	for ( int q = 0; q < 100; ++q )
	{
		CheckQuery( f, RandomBox( &random, 22.0f, 0.2f, 4.0f ), UINT64_MAX );
	}

	// A shifted box: the leaf takes it, ancestors only grow.
	for ( int i = 1; i < 300; i += 3 )
	{
		f->boxes[i] = RandomBox( &random, 20.0f, 0.1f, 1.0f );
		tbDynamicTree_EnlargeProxy( &f->tree, f->proxyIds[i], f->boxes[i] );
	}
	assert_true( tbDynamicTree_Validate( &f->tree ) );
	for ( int q = 0; q < 100; ++q )
	{
		CheckQuery( f, RandomBox( &random, 22.0f, 0.2f, 4.0f ), UINT64_MAX );
	}
	// A later move re-inserts and clears the flag.
	tbDynamicTree_MoveProxy( &f->tree, f->proxyIds[0], f->boxes[0] );
	assert_false( f->tree.nodes[f->proxyIds[0]].enlarged );
	assert_true( tbDynamicTree_Validate( &f->tree ) );
	DestroyFixture( f );
}

static bool CountQuery( int32_t proxyId, int32_t userData, void* context )
{
	(void)proxyId;
	(void)userData;
	*(int*)context += 1;
	return true;
}

static float CountRay( const tbRayCastInput* input, int32_t proxyId, int32_t userData, void* context )
{
	(void)proxyId;
	(void)userData;
	*(int*)context += 1;
	return input->maxFraction;
}

// Empty and single-proxy trees; area ratio of two boxes is exactly 1 (the root is the only
// internal node); Validate rejects a corrupted tree.
static void test_small_trees_and_metrics( void** state )
{
	(void)state;
	tbDynamicTree tree = tbDynamicTree_Create();
	assert_true( tbDynamicTree_Validate( &tree ) );
	assert_int_equal( tbDynamicTree_GetHeight( &tree ), 0 );
	int calls = 0;
	tbAABB everything = { { -1.0e3f, -1.0e3f, -1.0e3f }, { 1.0e3f, 1.0e3f, 1.0e3f } };
	tbDynamicTree_Query( &tree, everything, UINT64_MAX, CountQuery, &calls );
	tbRayCastInput input = { { -10.0f, 0.0f, 0.0f }, { 20.0f, 0.0f, 0.0f }, 1.0f };
	tbDynamicTree_RayCast( &tree, &input, UINT64_MAX, CountRay, &calls );
	assert_int_equal( calls, 0 );

	int32_t a = tbDynamicTree_CreateProxy( &tree, MakeBox( tb_vec3_zero, tbMakeVec3( 1.0f, 1.0f, 1.0f ) ), 1, 7 );
	assert_int_equal( tbDynamicTree_GetHeight( &tree ), 0 );
	assert_int_equal( tbDynamicTree_GetUserData( &tree, a ), 7 );
	tbDynamicTree_RayCast( &tree, &input, UINT64_MAX, CountRay, &calls );
	assert_int_equal( calls, 1 );

	int32_t b = tbDynamicTree_CreateProxy(
		&tree, MakeBox( tbMakeVec3( 5.0f, 0.0f, 0.0f ), tbMakeVec3( 1.0f, 2.0f, 1.0f ) ), 2, 8 );
	assert_int_equal( tbDynamicTree_GetHeight( &tree ), 1 );
	assert_true( fabsf( tbDynamicTree_GetAreaRatio( &tree ) - 1.0f ) < 1.0e-6f );
	// Root box is [-1, 6] x [-2, 2] x [-1, 1].
	tbAABB root = tree.nodes[tree.root].aabb;
	assert_true( root.lowerBound.x == -1.0f && root.upperBound.x == 6.0f && root.lowerBound.y == -2.0f &&
				 root.upperBound.y == 2.0f );
	assert_true( tbDynamicTree_Validate( &tree ) );

	// Corrupt a leaf's parent link: Validate must notice.
	int32_t savedParent = tree.nodes[a].parent;
	tree.nodes[a].parent = b;
	assert_false( tbDynamicTree_Validate( &tree ) );
	tree.nodes[a].parent = savedParent;
	// A root box that does not contain a child.
	tree.nodes[tree.root].aabb.upperBound.x = 5.0f;
	assert_false( tbDynamicTree_Validate( &tree ) );
	tree.nodes[tree.root].aabb.upperBound.x = 6.0f;
	assert_true( tbDynamicTree_Validate( &tree ) );

	tbDynamicTree_DestroyProxy( &tree, a );
	tbDynamicTree_DestroyProxy( &tree, b );
	assert_true( tbDynamicTree_Validate( &tree ) );
	assert_int_equal( tree.root, TB_NULL_NODE );
	assert_int_equal( tree.nodeCount, 0 );
	tbDynamicTree_Destroy( &tree );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_query_matches_brute_force ),
		cmocka_unit_test( test_query_mask_bits ),
		cmocka_unit_test( test_query_stops_when_callback_returns_false ),
		cmocka_unit_test( test_ray_cast_closest_hit_matches_brute_force ),
		cmocka_unit_test( test_ray_cast_stop_and_max_fraction ),
		cmocka_unit_test( test_height_stays_logarithmic ),
		cmocka_unit_test( test_large_tree ),
		cmocka_unit_test( test_nested_boxes_deep_tree ),
		cmocka_unit_test( test_node_reuse_without_allocation ),
		cmocka_unit_test( test_enlarge_proxy ),
		cmocka_unit_test( test_small_trees_and_metrics ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
