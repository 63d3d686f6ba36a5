// Tumble unit tests: broad phase pairs against brute force, body type rules, moves, destruction,
// allocation-free steady state and deterministic callback order.
// SPDX-License-Identifier: MIT
#include "broad_phase.h"
#include "core.h"
#include "tumble/tumble.h"
#include "world_helpers.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>

#include <cmocka.h>

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

static tbAABB RandomBox( TestRandom* random, float worldHalf, float minHalf, float maxHalf )
{
	tbVec3 c = { RandomFloat( random, -worldHalf, worldHalf ), RandomFloat( random, -worldHalf, worldHalf ),
				 RandomFloat( random, -worldHalf, worldHalf ) };
	tbVec3 h = { RandomFloat( random, minHalf, maxHalf ), RandomFloat( random, minHalf, maxHalf ),
				 RandomFloat( random, minHalf, maxHalf ) };
	return MakeBox( c, h );
}

static bool BoxesOverlap( tbAABB a, tbAABB b )
{
	return a.lowerBound.x <= b.upperBound.x && b.lowerBound.x <= a.upperBound.x && a.lowerBound.y <= b.upperBound.y &&
		   b.lowerBound.y <= a.upperBound.y && a.lowerBound.z <= b.upperBound.z && b.lowerBound.z <= a.upperBound.z;
}

static int CompareKey( const void* a, const void* b )
{
	uint64_t x = *(const uint64_t*)a;
	uint64_t y = *(const uint64_t*)b;
	return ( x > y ) - ( x < y );
}

// Pairs reported by one UpdatePairs call, in call order. Shape index = the test's proxy index.
#define MAX_PAIRS 20000

typedef struct PairLog
{
	uint64_t keys[MAX_PAIRS];
	int count;
	bool unordered; ///< a pair came with shapeIndexA >= shapeIndexB
} PairLog;

static bool LogPair( int32_t shapeIndexA, int32_t shapeIndexB, void* context )
{
	PairLog* log = context;
	if ( shapeIndexA >= shapeIndexB )
	{
		log->unordered = true;
	}
	assert_true( log->count < MAX_PAIRS );
	log->keys[log->count++] = TB_SHAPE_PAIR_KEY( shapeIndexA, shapeIndexB );
	return true;
}

#define MAX_TEST_PROXIES 400

typedef struct Scene
{
	tbBroadPhase bp;
	tbAABB boxes[MAX_TEST_PROXIES];
	tbBodyType types[MAX_TEST_PROXIES];
	int32_t keys[MAX_TEST_PROXIES];
	bool alive[MAX_TEST_PROXIES];
	bool moved[MAX_TEST_PROXIES];
	int count;
} Scene;

static Scene* CreateScene( void )
{
	Scene* scene = calloc( 1, sizeof( Scene ) );
	tbBroadPhase_Create( &scene->bp );
	return scene;
}

static void DestroyScene( Scene* scene )
{
	tbBroadPhase_Destroy( &scene->bp );
	free( scene );
}

static int AddProxy( Scene* scene, tbAABB box, tbBodyType type, bool force )
{
	int i = scene->count++;
	scene->boxes[i] = box;
	scene->types[i] = type;
	scene->alive[i] = true;
	scene->moved[i] = type != tbBody_static || force;
	scene->keys[i] = tbBroadPhase_CreateProxy( &scene->bp, box, 1, i, type, force );
	return i;
}

static void MoveProxy( Scene* scene, int i, tbAABB box )
{
	scene->boxes[i] = box;
	scene->moved[i] = true;
	tbBroadPhase_MoveProxy( &scene->bp, scene->keys[i], box );
}

// Run UpdatePairs and compare with brute force: every overlapping pair with at least one dynamic
// proxy and at least one moved proxy, each exactly once, shape indices ordered.
static void UpdateAndCheck( Scene* scene, PairLog* log )
{
	log->count = 0;
	log->unordered = false;
	tbBroadPhase_UpdatePairs( &scene->bp, LogPair, log );
	assert_false( log->unordered );
	assert_int_equal( scene->bp.moveCount, 0 );
	assert_int_equal( scene->bp.moveSet.count, 0 );

	uint64_t* expected = malloc( sizeof( uint64_t ) * MAX_PAIRS );
	int expectedCount = 0;
	for ( int i = 0; i < scene->count; ++i )
	{
		for ( int j = i + 1; j < scene->count; ++j )
		{
			if ( scene->alive[i] == false || scene->alive[j] == false )
			{
				continue;
			}
			if ( scene->types[i] != tbBody_dynamic && scene->types[j] != tbBody_dynamic )
			{
				continue;
			}
			if ( scene->moved[i] == false && scene->moved[j] == false )
			{
				continue;
			}
			if ( BoxesOverlap( scene->boxes[i], scene->boxes[j] ) )
			{
				assert_true( expectedCount < MAX_PAIRS );
				expected[expectedCount++] = TB_SHAPE_PAIR_KEY( i, j );
			}
		}
	}

	uint64_t* found = malloc( sizeof( uint64_t ) * MAX_PAIRS );
	memcpy( found, log->keys, sizeof( uint64_t ) * (size_t)log->count );
	qsort( found, (size_t)log->count, sizeof( uint64_t ), CompareKey );
	for ( int i = 1; i < log->count; ++i )
	{
		// No pair twice.
		assert_true( found[i - 1] != found[i] );
	}
	qsort( expected, (size_t)expectedCount, sizeof( uint64_t ), CompareKey );
	assert_int_equal( log->count, expectedCount );
	for ( int i = 0; i < expectedCount; ++i )
	{
		assert_true( found[i] == expected[i] );
	}
	free( found );
	free( expected );

	for ( int i = 0; i < scene->count; ++i )
	{
		scene->moved[i] = false;
	}
}

static tbBodyType RandomType( TestRandom* random )
{
	float u = RandomFloat( random, 0.0f, 1.0f );
	return u < 0.4f ? tbBody_static : ( u < 0.6f ? tbBody_kinematic : tbBody_dynamic );
}

// 400 proxies of all three types, all new: the reported set equals brute force. Then random
// subsets move (each type, some twice in a step, some pairs both moving) and again.
static void test_pairs_match_brute_force( void** state )
{
	(void)state;
	TestRandom random = { 0x1234567ull };
	Scene* scene = CreateScene();
	PairLog* log = calloc( 1, sizeof( PairLog ) );
	for ( int i = 0; i < MAX_TEST_PROXIES; ++i )
	{
		AddProxy( scene, RandomBox( &random, 15.0f, 0.3f, 2.0f ), RandomType( &random ), true );
	}
	UpdateAndCheck( scene, log );
	assert_true( log->count > 100 ); // the scene is dense enough to test something

	// Nothing moved: nothing reported.
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 0 );

	for ( int round = 0; round < 20; ++round )
	{
		for ( int m = 0; m < 40; ++m )
		{
			int i = (int)RandomFloat( &random, 0.0f, (float)MAX_TEST_PROXIES - 0.01f );
			MoveProxy( scene, i, RandomBox( &random, 15.0f, 0.3f, 2.0f ) );
		}
		UpdateAndCheck( scene, log );
	}
	DestroyScene( scene );
	free( log );
}

// Two static proxies never pair, even when both are new and forced; nor two kinematic ones; a
// static proxy made without forcePairCreation does not find a resting dynamic proxy, and one made
// with it does.
static void test_body_type_rules( void** state )
{
	(void)state;
	Scene* scene = CreateScene();
	PairLog* log = calloc( 1, sizeof( PairLog ) );
	tbVec3 half = { 1.0f, 1.0f, 1.0f };

	int s0 = AddProxy( scene, MakeBox( tbMakeVec3( 0.0f, 0.0f, 0.0f ), half ), tbBody_static, true );
	int s1 = AddProxy( scene, MakeBox( tbMakeVec3( 0.5f, 0.0f, 0.0f ), half ), tbBody_static, true );
	int k0 = AddProxy( scene, MakeBox( tbMakeVec3( 20.0f, 0.0f, 0.0f ), half ), tbBody_kinematic, false );
	int k1 = AddProxy( scene, MakeBox( tbMakeVec3( 20.5f, 0.0f, 0.0f ), half ), tbBody_kinematic, false );
	int kStatic = AddProxy( scene, MakeBox( tbMakeVec3( 0.0f, 0.5f, 0.0f ), half ), tbBody_kinematic, false );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 0 );
	(void)s0;
	(void)s1;
	(void)k0;
	(void)k1;
	(void)kStatic;

	// A dynamic proxy resting at x = 40, then statics added on it.
	int d = AddProxy( scene, MakeBox( tbMakeVec3( 40.0f, 0.0f, 0.0f ), half ), tbBody_dynamic, false );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 0 );
	int lazy = AddProxy( scene, MakeBox( tbMakeVec3( 40.0f, -1.5f, 0.0f ), half ), tbBody_static, false );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 0 );
	int forced = AddProxy( scene, MakeBox( tbMakeVec3( 40.0f, 1.5f, 0.0f ), half ), tbBody_static, true );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 1 );
	assert_true( log->keys[0] == TB_SHAPE_PAIR_KEY( d, forced ) );

	// Once the dynamic proxy moves it finds both statics.
	MoveProxy( scene, d, MakeBox( tbMakeVec3( 40.0f, 0.1f, 0.0f ), half ) );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 2 );
	(void)lazy;
	DestroyScene( scene );
	free( log );
}

// Moving a proxy reports the pairs at its new place; a pair of two moved proxies comes once.
static void test_move_reports_new_pairs( void** state )
{
	(void)state;
	Scene* scene = CreateScene();
	PairLog* log = calloc( 1, sizeof( PairLog ) );
	tbVec3 half = { 0.5f, 0.5f, 0.5f };
	int ground = AddProxy( scene, MakeBox( tbMakeVec3( 10.0f, 0.0f, 0.0f ), tbMakeVec3( 5.0f, 0.5f, 5.0f ) ),
						   tbBody_static, false );
	int a = AddProxy( scene, MakeBox( tbMakeVec3( 0.0f, 10.0f, 0.0f ), half ), tbBody_dynamic, false );
	int b = AddProxy( scene, MakeBox( tbMakeVec3( 0.0f, 20.0f, 0.0f ), half ), tbBody_dynamic, false );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 0 );

	// a lands on the ground.
	MoveProxy( scene, a, MakeBox( tbMakeVec3( 10.0f, 0.9f, 0.0f ), half ) );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 1 );
	assert_true( log->keys[0] == TB_SHAPE_PAIR_KEY( ground, a ) );

	// Both a and b move onto each other (and a stays on the ground): {a, b} once, {ground, a},
	// {ground, b}.
	MoveProxy( scene, a, MakeBox( tbMakeVec3( 10.0f, 0.95f, 0.0f ), half ) );
	MoveProxy( scene, b, MakeBox( tbMakeVec3( 10.3f, 0.95f, 0.0f ), half ) );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 3 );

	// Enlarging b over to x = 13 reports the same pairs again (the world filters known ones).
	tbAABB grown = MakeBox( tbMakeVec3( 11.65f, 0.95f, 0.0f ), tbMakeVec3( 1.85f, 0.5f, 0.5f ) );
	scene->boxes[b] = grown;
	scene->moved[b] = true;
	tbBroadPhase_EnlargeProxy( &scene->bp, scene->keys[b], grown );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 2 );
	assert_true( tbBroadPhase_TestOverlap( &scene->bp, scene->keys[a], scene->keys[b] ) );
	assert_true( tbBroadPhase_TestOverlap( &scene->bp, scene->keys[ground], scene->keys[b] ) );
	DestroyScene( scene );
	free( log );
}

// A proxy destroyed in the step it moved leaves no pair behind; its key may be reused at once.
static void test_destroy_moved_proxy( void** state )
{
	(void)state;
	Scene* scene = CreateScene();
	PairLog* log = calloc( 1, sizeof( PairLog ) );
	tbVec3 half = { 1.0f, 1.0f, 1.0f };
	int a = AddProxy( scene, MakeBox( tb_vec3_zero, half ), tbBody_dynamic, false );
	int b = AddProxy( scene, MakeBox( tbMakeVec3( 1.0f, 0.0f, 0.0f ), half ), tbBody_dynamic, false );
	int c = AddProxy( scene, MakeBox( tbMakeVec3( -1.0f, 0.0f, 0.0f ), half ), tbBody_dynamic, false );
	tbBroadPhase_DestroyProxy( &scene->bp, scene->keys[b] );
	scene->alive[b] = false;
	assert_int_equal( scene->bp.moveSet.count, 2 );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 1 );
	assert_true( log->keys[0] == TB_SHAPE_PAIR_KEY( a, c ) );

	// Destroy and re-create in the same step: the reused key is buffered once.
	MoveProxy( scene, a, MakeBox( tbMakeVec3( 0.1f, 0.0f, 0.0f ), half ) );
	tbBroadPhase_DestroyProxy( &scene->bp, scene->keys[a] );
	scene->alive[a] = false;
	int d = AddProxy( scene, MakeBox( tbMakeVec3( -0.5f, 0.0f, 0.0f ), half ), tbBody_dynamic, false );
	UpdateAndCheck( scene, log );
	assert_int_equal( log->count, 1 );
	assert_true( log->keys[0] == TB_SHAPE_PAIR_KEY( c, d ) );
	DestroyScene( scene );
	free( log );
}

// Once the buffers have seen a step of a given size, further steps of that size allocate nothing:
// proxies oscillate between two places, so every step moves the same proxies and finds the same
// number of pairs.
static void test_steady_state_does_not_allocate( void** state )
{
	(void)state;
	TestRandom random = { 555 };
	Scene* scene = CreateScene();
	PairLog* log = calloc( 1, sizeof( PairLog ) );
	tbAABB homes[2][MAX_TEST_PROXIES];
	for ( int i = 0; i < 300; ++i )
	{
		homes[0][i] = RandomBox( &random, 12.0f, 0.3f, 1.5f );
		homes[1][i] = RandomBox( &random, 12.0f, 0.3f, 1.5f );
		AddProxy( scene, homes[0][i], i % 3 == 0 ? tbBody_static : tbBody_dynamic, false );
	}
	UpdateAndCheck( scene, log );

	long allocations = 0;
	for ( int step = 0; step < 12; ++step )
	{
		if ( step == 4 )
		{
			allocations = tbGetAllocationCount();
		}
		for ( int i = 0; i < 300; ++i )
		{
			if ( scene->types[i] == tbBody_dynamic )
			{
				tbBroadPhase_MoveProxy( &scene->bp, scene->keys[i], homes[( step + 1 ) % 2][i] );
			}
		}
		log->count = 0;
		tbBroadPhase_UpdatePairs( &scene->bp, LogPair, log );
		assert_true( log->count > 0 );
	}
	assert_int_equal( tbGetAllocationCount(), allocations );
	DestroyScene( scene );
	free( log );
}

// The same sequence of calls gives the same pairs in the same order.
static void test_deterministic_order( void** state )
{
	(void)state;
	PairLog* logs[2] = { calloc( 1, sizeof( PairLog ) ), calloc( 1, sizeof( PairLog ) ) };
	uint64_t* history[2] = { calloc( 8 * MAX_PAIRS, sizeof( uint64_t ) ), calloc( 8 * MAX_PAIRS, sizeof( uint64_t ) ) };
	int historyCount[2] = { 0, 0 };

	for ( int run = 0; run < 2; ++run )
	{
		TestRandom random = { 8080 };
		tbBroadPhase bp;
		tbBroadPhase_Create( &bp );
		int32_t keys[200];
		for ( int i = 0; i < 200; ++i )
		{
			keys[i] = tbBroadPhase_CreateProxy( &bp, RandomBox( &random, 10.0f, 0.3f, 1.5f ), 1, i,
												(tbBodyType)( i % 3 ), true );
		}
		for ( int step = 0; step < 5; ++step )
		{
			logs[run]->count = 0;
			tbBroadPhase_UpdatePairs( &bp, LogPair, logs[run] );
			memcpy( history[run] + historyCount[run], logs[run]->keys, sizeof( uint64_t ) * (size_t)logs[run]->count );
			historyCount[run] += logs[run]->count;
			for ( int m = 0; m < 50; ++m )
			{
				int i = (int)RandomFloat( &random, 0.0f, 199.99f );
				tbBroadPhase_MoveProxy( &bp, keys[i], RandomBox( &random, 10.0f, 0.3f, 1.5f ) );
			}
		}
		tbBroadPhase_Destroy( &bp );
	}

	assert_true( historyCount[0] > 0 );
	assert_int_equal( historyCount[0], historyCount[1] );
	assert_memory_equal( history[0], history[1], sizeof( uint64_t ) * (size_t)historyCount[0] );
	for ( int run = 0; run < 2; ++run )
	{
		free( logs[run] );
		free( history[run] );
	}
}

// Proxy keys name the tree and the proxy; TestOverlap agrees with brute force.
static void test_proxy_keys_and_overlap( void** state )
{
	(void)state;
	TestRandom random = { 42 };
	Scene* scene = CreateScene();
	for ( int i = 0; i < 100; ++i )
	{
		AddProxy( scene, RandomBox( &random, 6.0f, 0.3f, 1.5f ), RandomType( &random ), false );
	}
	for ( int i = 0; i < 100; ++i )
	{
		assert_int_equal( TB_PROXY_TYPE( scene->keys[i] ), scene->types[i] );
		assert_int_equal( tbBroadPhase_GetShapeIndex( &scene->bp, scene->keys[i] ), i );
		tbAABB fat = tbBroadPhase_GetFatAABB( &scene->bp, scene->keys[i] );
		assert_memory_equal( &fat, &scene->boxes[i], sizeof( tbAABB ) );
		for ( int j = 0; j < 100; ++j )
		{
			assert_int_equal( tbBroadPhase_TestOverlap( &scene->bp, scene->keys[i], scene->keys[j] ),
							  BoxesOverlap( scene->boxes[i], scene->boxes[j] ) );
		}
	}
	DestroyScene( scene );
}

// tbWorld_VisitBroadPhase: what the viewer's tree layer draws. Record every node, then check the
// tree's shape against what the world holds.
typedef struct VisitRecord
{
	int leaves[tbBody_typeCount];
	int inner[tbBody_typeCount];
	int roots[tbBody_typeCount];
	int maxDepth;
	tbAABB rootBox[tbBody_typeCount];
	tbAABB leafUnion[tbBody_typeCount];
	int stopAfter;
	int visited;
} VisitRecord;

static bool recordNode( tbAABB box, int depth, bool isLeaf, tbBodyType tree, void* context )
{
	VisitRecord* rec = context;
	rec->visited += 1;
	rec->maxDepth = depth > rec->maxDepth ? depth : rec->maxDepth;
	if ( depth == 0 )
	{
		rec->roots[tree] += 1;
		rec->rootBox[tree] = box;
	}
	if ( isLeaf )
	{
		rec->leafUnion[tree] = rec->leaves[tree] == 0 ? box : tbAABB_Union( rec->leafUnion[tree], box );
		rec->leaves[tree] += 1;
	}
	else
	{
		rec->inner[tree] += 1;
	}
	return rec->stopAfter == 0 || rec->visited < rec->stopAfter;
}

static void test_world_visit_broad_phase( void** state )
{
	( void )state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	const int count = 40;
	for ( int i = 0; i < count; ++i )
	{
		th_addBox( world, tbMakeVec3( (float)( i % 8 ) * 1.5f, (float)( i / 8 ) * 1.5f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f,
				   0.5f );
	}
	tbWorld_Step( world, 1.0f / 60.0f );

	VisitRecord rec = { 0 };
	assert_int_equal( tbWorld_VisitBroadPhase( world, recordNode, &rec ), tbResult_ok );
	// One leaf per shape; a binary tree with n leaves has n - 1 inner nodes and one root.
	assert_int_equal( rec.leaves[tbBody_dynamic], count );
	assert_int_equal( rec.inner[tbBody_dynamic], count - 1 );
	assert_int_equal( rec.roots[tbBody_dynamic], 1 );
	assert_int_equal( rec.leaves[tbBody_static], 1 );
	assert_int_equal( rec.roots[tbBody_static], 1 );
	assert_int_equal( rec.leaves[tbBody_kinematic] + rec.roots[tbBody_kinematic], 0 );
	// The root box is the union of the leaves (to float precision), and the 40-leaf tree is balanced:
	// a depth above 12 (2 log2 40 ~ 10.6) would mean the rotations are not working.
	tbVec3 dl = tbSub( rec.rootBox[tbBody_dynamic].lowerBound, rec.leafUnion[tbBody_dynamic].lowerBound );
	tbVec3 du = tbSub( rec.rootBox[tbBody_dynamic].upperBound, rec.leafUnion[tbBody_dynamic].upperBound );
	assert_true( tbLength( dl ) < 1.0e-4f && tbLength( du ) < 1.0e-4f );
	assert_true( rec.maxDepth <= 12 && rec.maxDepth >= 5 );

	// Returning false stops the walk; a bad world or a null callback is refused.
	VisitRecord stop = { .stopAfter = 3 };
	tbWorld_VisitBroadPhase( world, recordNode, &stop );
	assert_int_equal( stop.visited, 3 );
	assert_int_equal( tbWorld_VisitBroadPhase( world, NULL, NULL ), tbResult_invalidId );
	tbDestroyWorld( world );
	assert_int_equal( tbWorld_VisitBroadPhase( world, recordNode, &rec ), tbResult_invalidId );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_pairs_match_brute_force ),
		cmocka_unit_test( test_body_type_rules ),
		cmocka_unit_test( test_move_reports_new_pairs ),
		cmocka_unit_test( test_destroy_moved_proxy ),
		cmocka_unit_test( test_steady_state_does_not_allocate ),
		cmocka_unit_test( test_deterministic_order ),
		cmocka_unit_test( test_proxy_keys_and_overlap ),
		cmocka_unit_test( test_world_visit_broad_phase ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
