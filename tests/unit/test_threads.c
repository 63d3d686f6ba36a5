// Tests of the multithreaded step: the same scene gives a bit-identical state for any worker count,
// the worker count is range checked, and the threaded solver still holds a stack up.
// SPDX-License-Identifier: MIT
#include "tumble/joints.h"
#include "tumble/tumble.h"
#include "world_helpers.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

static tbWorldId make_world( int workerCount )
{
	tbWorldDef def = tbDefaultWorldDef();
	def.workerCount = workerCount;
	def.enableSleep = true;
	return tbCreateWorld( &def );
}

// 120 boxes and spheres dropped in layers (enough contacts for many colours and blocks per colour),
// plus a chain of four boxes hanging from ball joints over the pile and a hinged pair in it.
static tbWorldId build_pile( int workerCount )
{
	tbWorldId world = make_world( workerCount );
	th_addGround( world, 0.5f );
	for ( int i = 0; i < 120; ++i )
	{
		int layer = i / 12;
		float x = (float)( i % 4 ) * 0.7f - 1.05f + 0.05f * (float)layer;
		float y = (float)( ( i / 4 ) % 3 ) * 0.65f - 0.65f;
		float z = 0.4f + 0.8f * (float)layer;
		if ( i % 3 == 0 )
		{
			th_addSphere( world, tbMakeVec3( x, y, z ), 0.3f, 1.0f );
		}
		else
		{
			th_addBox( world, tbMakeVec3( x, y, z ), tbMakeVec3( 0.3f, 0.25f, 0.2f ), 1.0f, 0.5f );
		}
	}

	tbBodyId previous = tb_nullBodyId;
	for ( int i = 0; i < 4; ++i )
	{
		tbVec3 pos = tbMakeVec3( 0.4f * (float)i, 0.0f, 10.0f );
		tbBodyId link = th_addBox( world, pos, tbMakeVec3( 0.2f, 0.1f, 0.1f ), 1.0f, 0.5f );
		tbBallJointDef jd = tbDefaultBallJointDef();
		jd.base.bodyA = previous;
		jd.base.bodyB = link;
		tbVec3 anchor = tbMakeVec3( 0.4f * (float)i - 0.2f, 0.0f, 10.0f );
		jd.base.localFrameA = TB_IS_NULL( previous )
								  ? ( tbTransform ){ anchor, tb_quatIdentity }
								  : ( tbTransform ){ tbMakeVec3( 0.2f, 0.0f, 0.0f ), tb_quatIdentity };
		jd.base.localFrameB = ( tbTransform ){ tbMakeVec3( -0.2f, 0.0f, 0.0f ), tb_quatIdentity };
		tbCreateBallJoint( world, &jd, NULL );
		previous = link;
	}

	tbBodyId a = th_addBox( world, tbMakeVec3( 2.5f, 0.0f, 0.5f ), tbMakeVec3( 0.3f, 0.3f, 0.3f ), 1.0f, 0.5f );
	tbBodyId b = th_addBox( world, tbMakeVec3( 3.1f, 0.0f, 0.5f ), tbMakeVec3( 0.3f, 0.3f, 0.3f ), 1.0f, 0.5f );
	tbHingeJointDef hd = tbDefaultHingeJointDef();
	hd.base.bodyA = a;
	hd.base.bodyB = b;
	hd.base.localFrameA = ( tbTransform ){ tbMakeVec3( 0.3f, 0.0f, 0.3f ), tb_quatIdentity };
	hd.base.localFrameB = ( tbTransform ){ tbMakeVec3( -0.3f, 0.0f, 0.3f ), tb_quatIdentity };
	tbCreateHingeJoint( world, &hd, NULL );
	return world;
}

static uint64_t run_pile( int workerCount, int steps )
{
	tbWorldId world = build_pile( workerCount );
	assert_true( tbWorld_IsValid( world ) );
	th_run( world, steps );
	uint64_t h = tbWorld_GetStateHash( world );
	tbDestroyWorld( world );
	return h;
}

// Block boundaries do not depend on the thread count and the colouring is serial, so 1, 2 and 3
// workers give the same bits.
static void same_state_for_any_worker_count( void** state )
{
	(void)state;
	uint64_t one = run_pile( 1, 300 );
	uint64_t two = run_pile( 2, 300 );
	uint64_t three = run_pile( 3, 300 );
	printf( "pile hash: 1 worker %016llx, 2 workers %016llx, 3 workers %016llx\n", (unsigned long long)one,
			(unsigned long long)two, (unsigned long long)three );
	assert_true( one == two );
	assert_true( one == three );
	// The hash does see the state: one step fewer differs.
	assert_true( one != run_pile( 2, 299 ) );
}

// Eight hanging chains of 40 boxes (hinges and ball joints alternating): each joint colour has
// hundreds of joints, so they are solved in many blocks on several threads.
static uint64_t run_chains( int workerCount, int steps, float* maxGap )
{
	tbWorldId world = make_world( workerCount );
	tbJointId joints[8 * 40];
	int jointCount = 0;
	for ( int c = 0; c < 8; ++c )
	{
		float y = 2.0f * (float)c;
		tbBodyId previous = tb_nullBodyId;
		for ( int k = 0; k < 40; ++k )
		{
			tbBodyId link = th_addBox( world, tbMakeVec3( 0.25f + 0.5f * (float)k, y, 30.0f ),
									   tbMakeVec3( 0.25f, 0.1f, 0.1f ), 1.0f, 0.5f );
			tbTransform frameA = TB_IS_NULL( previous ) ? ( tbTransform ){ tbMakeVec3( 0.0f, y, 30.0f ), tb_quatIdentity }
														: ( tbTransform ){ tbMakeVec3( 0.25f, 0.0f, 0.0f ), tb_quatIdentity };
			tbTransform frameB = { tbMakeVec3( -0.25f, 0.0f, 0.0f ), tb_quatIdentity };
			if ( k % 2 == 0 )
			{
				// Hinge about y (the frame's x axis turned onto y).
				tbHingeJointDef hd = tbDefaultHingeJointDef();
				tbQuat toY = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.5f * TB_PI );
				hd.base.bodyA = previous;
				hd.base.bodyB = link;
				hd.base.localFrameA = ( tbTransform ){ frameA.p, toY };
				hd.base.localFrameB = ( tbTransform ){ frameB.p, toY };
				joints[jointCount++] = tbCreateHingeJoint( world, &hd, NULL );
			}
			else
			{
				tbBallJointDef bd = tbDefaultBallJointDef();
				bd.base.bodyA = previous;
				bd.base.bodyB = link;
				bd.base.localFrameA = frameA;
				bd.base.localFrameB = frameB;
				joints[jointCount++] = tbCreateBallJoint( world, &bd, NULL );
			}
			previous = link;
		}
	}
	th_run( world, steps );
	*maxGap = 0.0f;
	for ( int i = 0; i < jointCount; ++i )
	{
		float linear = 0.0f, angular = 0.0f;
		assert_int_equal( tbJoint_GetError( joints[i], &linear, &angular ), tbResult_ok );
		*maxGap = linear > *maxGap ? linear : *maxGap;
	}
	uint64_t h = tbWorld_GetStateHash( world );
	tbDestroyWorld( world );
	return h;
}

// The joints are coloured in one order for any thread count, so 1, 2 and 3 workers give the same
// bits; and the chains still hold together while they swing (joint gap in metres).
static void same_chains_for_any_worker_count( void** state )
{
	(void)state;
	float gap1 = 0.0f, gap2 = 0.0f, gap3 = 0.0f;
	uint64_t one = run_chains( 1, 240, &gap1 );
	uint64_t two = run_chains( 2, 240, &gap2 );
	uint64_t three = run_chains( 3, 240, &gap3 );
	printf( "chains hash: 1 worker %016llx, 2 workers %016llx, 3 workers %016llx; max joint gap %.5f m\n",
			(unsigned long long)one, (unsigned long long)two, (unsigned long long)three, gap1 );
	assert_true( one == two );
	assert_true( one == three );
	assert_true( gap1 < 0.01f ); // m
}

// Changing the worker count of a running world (restarting its threads) does not change the result.
static void worker_count_changed_mid_run( void** state )
{
	(void)state;
	tbWorldId world = build_pile( 1 );
	th_run( world, 100 );
	tbWorldDef def = tbWorld_GetSettings( world );
	def.workerCount = 3;
	assert_int_equal( tbWorld_SetSolver( world, &def ), tbResult_ok );
	th_run( world, 100 );
	def.workerCount = 2;
	assert_int_equal( tbWorld_SetSolver( world, &def ), tbResult_ok );
	th_run( world, 100 );
	uint64_t mixed = tbWorld_GetStateHash( world );
	tbDestroyWorld( world );
	assert_true( mixed == run_pile( 1, 300 ) );
}

static void worker_count_out_of_range_is_refused( void** state )
{
	(void)state;
	const int bad[] = { 0, -1, TB_MAX_WORKER_COUNT + 1, 1000 };
	for ( int i = 0; i < (int)( sizeof( bad ) / sizeof( bad[0] ) ); ++i )
	{
		tbWorldDef def = tbDefaultWorldDef();
		def.workerCount = bad[i];
		tbWorldId id;
		assert_int_equal( tbCreateWorldChecked( &def, &id ), tbResult_invalidArgument );
		assert_true( TB_IS_NULL( id ) );
	}
	tbWorldDef def = tbDefaultWorldDef();
	assert_int_equal( def.workerCount, 1 );
	def.workerCount = TB_MAX_WORKER_COUNT;
	tbWorldId world = tbCreateWorld( &def );
	assert_true( tbWorld_IsValid( world ) );
	def.workerCount = 0;
	assert_int_equal( tbWorld_SetSolver( world, &def ), tbResult_invalidArgument );
	assert_int_equal( tbWorld_GetSettings( world ).workerCount, TB_MAX_WORKER_COUNT );
	tbDestroyWorld( world );
}

// A 10-cube tower on two workers stands (SCENES.md stack20 tolerances scaled to 10 cubes), and a
// steady-state threaded step allocates nothing from the system heap.
static void threaded_stack_stands_without_allocating( void** state )
{
	(void)state;
	tbWorldDef def = tbDefaultWorldDef();
	def.workerCount = 2;
	def.enableSleep = false;
	tbWorldId world = tbCreateWorld( &def );
	th_addGround( world, 0.5f );
	tbBodyId top = tb_nullBodyId;
	for ( int i = 0; i < 10; ++i )
	{
		top = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 0.5f + (float)i ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	}
	tbVec3 start = tbBody_GetPosition( top );
	th_run( world, 300 );
	long before = tbWorld_GetCounters( world ).allocationCount;
	th_run( world, 300 );
	long after = tbWorld_GetCounters( world ).allocationCount;
	assert_int_equal( after, before );
	tbVec3 end = tbBody_GetPosition( top );
	assert_true( th_horizontal( start, end ) < 0.01f ); // m
	assert_true( fabsf( end.z - start.z ) < 0.01f );	// m
	tbDestroyWorld( world );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( same_state_for_any_worker_count ),
		cmocka_unit_test( same_chains_for_any_worker_count ),
		cmocka_unit_test( worker_count_changed_mid_run ),
		cmocka_unit_test( worker_count_out_of_range_is_refused ),
		cmocka_unit_test( threaded_stack_stands_without_allocating ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
