// A world whose allocator starts failing in the middle of a busy step: the step degrades (it drops
// pairs, contacts, events or the whole solve and says so), never crashes, leaks nothing, and the
// world recovers once memory is back and can still be destroyed.
// SPDX-License-Identifier: MIT
#include "failing_alloc.h"
#include "world_helpers.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define DT ( 1.0f / 60.0f )
#define ARMED_STEPS 40
#define RECOVERY_STEPS 60
#define PILE 150
#define BODY_CAP ( PILE + 8 )

typedef struct Scene
{
	tbWorldId world;
	tbBodyId bodies[BODY_CAP];
	int bodyCount;
} Scene;

static void keep( Scene* scene, tbBodyId body )
{
	assert_true( scene->bodyCount < BODY_CAP );
	scene->bodies[scene->bodyCount++] = body;
}

// Everything that allocates in a step: a pile of every convex kind dropping together (pairs,
// contacts, colours, the arena's growth), a mesh floor patch (child contacts), a sensor and
// contact events, a hinge chain (joint lanes), a mover, and sleep enabled (islands, wake-ups).
static Scene make_busy_scene( bool starveArena )
{
	Scene scene = { 0 };
	// A world made while large blocks are refused has no main arena block: every request of its
	// first step is a separate allocation, so the sweep reaches each of the step's arena callers.
	s_alloc.refuseLarge = starveArena;
	s_alloc.refused = 0;
	scene.world = th_makeWorld( tbSolver_soft, true );
	s_alloc.refuseLarge = false;
	assert_true( tbWorld_IsValid( scene.world ) );
	assert_int_equal( s_alloc.refused, starveArena ? 1 : 0 );
	th_addGround( scene.world, 0.6f );

	tbBodyDef md = tbDefaultBodyDef();
	md.position = tbMakeVec3( 3.0f, 0.0f, 0.0f );
	tbBodyId meshBody = tbCreateBody( scene.world, &md );
	tbVec3 verts[9];
	for ( int i = 0; i < 9; ++i )
	{
		verts[i] = tbMakeVec3( -1.5f + 1.5f * (float)( i % 3 ), -1.5f + 1.5f * (float)( i / 3 ), 0.05f * (float)( i % 2 ) );
	}
	int32_t tris[24] = { 0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3, 4, 7, 3, 7, 6, 4, 5, 8, 4, 8, 7 };
	tbShapeDef meshDef = tbDefaultShapeDef();
	assert_true( TB_IS_NON_NULL( tbCreateMeshShape( meshBody, &meshDef, verts, 9, tris, 8, NULL ) ) );

	tbBodyDef sensorBody = tbDefaultBodyDef();
	sensorBody.position = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	tbBodyId sensor = tbCreateBody( scene.world, &sensorBody );
	tbShapeDef sensorDef = tbDefaultShapeDef();
	sensorDef.isSensor = true;
	tbCreateBoxShape( sensor, &sensorDef, tbMakeVec3( 1.0f, 1.0f, 1.0f ), tb_transformIdentity, NULL );

	tbVec3 gem[6] = { { 0.3f, 0, 0 }, { -0.3f, 0, 0 }, { 0, 0.3f, 0 }, { 0, -0.3f, 0 }, { 0, 0, 0.3f }, { 0, 0, -0.3f } };
	tbHull* hull = tbComputeHull( gem, 6, NULL );
	assert_non_null( hull );
	for ( int i = 0; i < PILE; ++i )
	{
		// Most in four columns over the ground, the rest dropping on the mesh patch.
		float x = i < 120 ? 0.35f * (float)( i % 4 ) - 0.5f : 2.6f + 0.3f * (float)( i % 3 );
		tbVec3 p = tbMakeVec3( x, 0.25f * (float)( i % 3 ), 0.4f + 0.3f * (float)( i % 120 ) );
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tbBody_dynamic;
		bd.position = p;
		tbBodyId body = tbCreateBody( scene.world, &bd );
		tbShapeDef sd = tbDefaultShapeDef();
		sd.enableContactEvents = true;
		switch ( i % 4 )
		{
			case 0:
				tbCreateHullShape( body, &sd, hull, NULL );
				break;
			case 1:
			{
				tbCapsule c = { { 0.0f, 0.0f, -0.2f }, { 0.0f, 0.0f, 0.2f }, 0.15f };
				tbCreateCapsuleShape( body, &sd, &c, NULL );
				break;
			}
			case 2:
			{
				tbSphere s = { { 0.0f, 0.0f, 0.0f }, 0.2f };
				tbCreateSphereShape( body, &sd, &s, NULL );
				break;
			}
			default:
				tbCreateBoxShape( body, &sd, tbMakeVec3( 0.25f, 0.2f, 0.15f ), tb_transformIdentity, NULL );
				break;
		}
		keep( &scene, body );
	}
	tbDestroyHull( hull );

	tbBodyId prev = tb_nullBodyId;
	for ( int k = 0; k < 6; ++k )
	{
		tbBodyId link = th_addBox( scene.world, tbMakeVec3( -4.0f + 0.5f * (float)k, 0.0f, 4.0f ), tbMakeVec3( 0.25f, 0.1f, 0.1f ), 1.0f, 0.5f );
		tbHingeJointDef hd = tbDefaultHingeJointDef();
		tbJointFramesFromWorld( prev, link, tbMakeVec3( -4.25f + 0.5f * (float)k, 0.0f, 4.0f ), tbMakeVec3( 0.0f, 1.0f, 0.0f ), &hd.base );
		assert_true( TB_IS_NON_NULL( tbCreateHingeJoint( scene.world, &hd, NULL ) ) );
		keep( &scene, link );
		prev = link;
	}

	tbBodyDef pd = tbDefaultBodyDef();
	pd.type = tbBody_kinematic;
	pd.position = tbMakeVec3( -4.0f, 3.0f, 0.5f );
	tbBodyId platform = tbCreateBody( scene.world, &pd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbCreateBoxShape( platform, &sd, tbMakeVec3( 1.0f, 1.0f, 0.1f ), tb_transformIdentity, NULL );
	keep( &scene, th_addBox( scene.world, tbMakeVec3( -4.0f, 3.0f, 0.85f ), tbMakeVec3( 0.25f, 0.25f, 0.25f ), 1.0f, 0.8f ) );
	tbMoverId mover = tbCreateMover( platform, NULL );
	assert_int_equal( tbMover_SetVelocity( mover, tbMakeVec3( 0.5f, 0.0f, 0.0f ), tbMakeVec3( 0.0f, 0.0f, 0.0f ) ), tbResult_ok );
	return scene;
}

// Every dynamic body finite, above the ground's top less 0.3 m (nothing fell through), at most
// 50 m/s.
static void assert_sane( const Scene* scene )
{
	for ( int i = 0; i < scene->bodyCount; ++i )
	{
		tbVec3 p = tbBody_GetPosition( scene->bodies[i] );
		tbVec3 v = tbBody_GetLinearVelocity( scene->bodies[i] );
		assert_true( isfinite( p.x ) && isfinite( p.y ) && isfinite( p.z ) );
		assert_true( p.z > -0.3f );
		assert_true( sqrtf( v.x * v.x + v.y * v.y + v.z * v.z ) < 50.0f );
	}
}

// Runs the scene with the allocator failing from the `allowed`-th request of its armed steps on
// (or at that request only). Returns the number of requests the armed steps made.
static long run_with_failures( long allowed, bool failAll, bool starveArena, long* refused )
{
	long baseline = s_alloc.live;
	Scene scene = make_busy_scene( starveArena );

	s_alloc.armed = true;
	s_alloc.failAll = failAll;
	s_alloc.refuseAt = allowed;
	s_alloc.seen = 0;
	s_alloc.refused = 0;
	int reported = 0;
	for ( int i = 0; i < ARMED_STEPS; ++i )
	{
		tbResult r = tbWorld_Step( scene.world, DT );
		assert_true( r == tbResult_ok || r == tbResult_outOfMemory );
		tbWorldCounters c = tbWorld_GetCounters( scene.world );
		// The step reports its own refusals, and only those.
		assert_int_equal( r == tbResult_outOfMemory, c.allocationFailures > 0 );
		reported += c.allocationFailures;
		assert_sane( &scene );
	}
	s_alloc.armed = false;
	assert_int_equal( reported, s_alloc.refused );
	*refused = s_alloc.refused;
	long made = s_alloc.seen;

	for ( int i = 0; i < RECOVERY_STEPS; ++i )
	{
		assert_int_equal( tbWorld_Step( scene.world, DT ), tbResult_ok );
	}
	assert_sane( &scene );
	tbDestroyWorld( scene.world );
	assert_false( tbWorld_IsValid( scene.world ) );
	assert_int_equal( s_alloc.live, baseline );
	return made;
}

// minRequests: what the armed steps must at least ask for, so that the sweep covers the step.
static void sweep( bool failAll, bool starveArena, long minRequests )
{
	memset( &s_alloc, 0, sizeof( s_alloc ) );
	tbSetAllocator( failing_alloc, failing_free );
	long refused = 0;
	// A run that refuses nothing in its armed steps counts the requests they make.
	long total = run_with_failures( 1L << 30, true, starveArena, &refused );
	assert_int_equal( refused, 0 );
	assert_true( total >= minRequests );
	for ( long allowed = 0; allowed < total; ++allowed )
	{
		run_with_failures( allowed, failAll, starveArena, &refused );
		assert_true( refused >= 1 );
	}
	tbSetAllocator( NULL, NULL );
	printf( "swept %ld allocation points (%s%s)\n", total, failAll ? "all after N fail" : "only the N-th fails",
			starveArena ? ", no main arena block" : "" );
}

// The busy scene's first steps grow the arena, the pair and contact pools and the event buffers:
// 19 requests when written.
static void every_request_after_n_fails( void** state )
{
	(void)state;
	sweep( true, false, 15 );
}

static void only_request_n_fails( void** state )
{
	(void)state;
	sweep( false, false, 15 );
}

// Without a main block the first step asks the system for each of its arena arrays (bodies,
// joints and their colours and lanes, contacts, their colours and lanes, the narrow phase's
// results): 36 requests when written.
static void starved_arena_every_request_after_n_fails( void** state )
{
	(void)state;
	sweep( true, true, 30 );
}

static void starved_arena_only_request_n_fails( void** state )
{
	(void)state;
	sweep( false, true, 30 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( every_request_after_n_fails ),
		cmocka_unit_test( only_request_n_fails ),
		cmocka_unit_test( starved_arena_every_request_after_n_fails ),
		cmocka_unit_test( starved_arena_only_request_n_fails ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
