// World snapshots: restoring and stepping repeats the original trajectory bit for bit, with
// contacts, joints and movers in the scene.
#include "world_helpers.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

// A floor at z = 1 for body B's centre, as a custom row (its rows live outside the joint record
// and are cloned by snapshots).
static int floor_row( tbJointId jointId, const tbCustomRowsInput* input, tbCustomRow rows[TB_MAX_CUSTOM_ROWS], void* context )
{
	(void)jointId;
	(void)context;
	tbCustomRow row = { { 0 }, 0.0f, 0.0f, 0.0f, FLT_MAX };
	row.J[8] = 1.0f;
	float z = input->centerB.z;
	row.positionError = z < 1.0f ? z - 1.0f : 0.0f;
	row.bias = z > 1.0f ? -( z - 1.0f ) / input->timeStep : 0.0f;
	rows[0] = row;
	return 1;
}

static tbBodyId s_floating;

static tbWorldId make_pile( void )
{
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	th_addGround( world, 0.5f );
	tbVec3 gem[6] = { { 0.3f, 0, 0 }, { -0.3f, 0, 0 }, { 0, 0.3f, 0 }, { 0, -0.3f, 0 }, { 0, 0, 0.3f }, { 0, 0, -0.3f } };
	tbResult r;
	tbHull* hull = tbComputeHull( gem, 6, &r );
	for ( int i = 0; i < 30; ++i )
	{
		tbVec3 p = tbMakeVec3( 0.3f * (float)( i % 4 ) - 0.45f, 0.2f * (float)( i % 3 ), 0.5f + 0.8f * (float)i );
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tbBody_dynamic;
		bd.position = p;
		tbBodyId body = tbCreateBody( world, &bd );
		tbShapeDef sd = tbDefaultShapeDef();
		if ( i % 4 == 0 )
		{
			tbCreateHullShape( body, &sd, hull, NULL );
		}
		else if ( i % 4 == 1 )
		{
			tbCapsule c = { { 0.0f, 0.0f, -0.2f }, { 0.0f, 0.0f, 0.2f }, 0.15f };
			tbCreateCapsuleShape( body, &sd, &c, NULL );
		}
		else if ( i % 4 == 2 )
		{
			tbSphere s = { { 0.0f, 0.0f, 0.0f }, 0.25f };
			tbCreateSphereShape( body, &sd, &s, NULL );
		}
		else
		{
			tbCreateBoxShape( body, &sd, tbMakeVec3( 0.3f, 0.2f, 0.15f ), tb_transformIdentity, NULL );
		}
	}
	tbDestroyHull( hull );

	// a swinging chain of 5 hinged boxes
	tbBodyId prev = tb_nullBodyId;
	for ( int k = 0; k < 5; ++k )
	{
		tbBodyId link = th_addBox( world, tbMakeVec3( 4.0f + 0.5f * (float)k, 0.0f, 6.0f ), tbMakeVec3( 0.25f, 0.1f, 0.1f ), 1.0f, 0.5f );
		tbHingeJointDef hd = tbDefaultHingeJointDef();
		tbJointFramesFromWorld( prev, link, tbMakeVec3( 3.75f + 0.5f * (float)k, 0.0f, 6.0f ), tbMakeVec3( 0.0f, 1.0f, 0.0f ),
								&hd.base );
		assert_true( TB_IS_NON_NULL( tbCreateHingeJoint( world, &hd, NULL ) ) );
		prev = link;
	}

	// a platform on a ping-pong path with a box riding it
	tbBodyDef pd = tbDefaultBodyDef();
	pd.type = tbBody_kinematic;
	pd.position = tbMakeVec3( -4.0f, 0.0f, 1.0f );
	tbBodyId platform = tbCreateBody( world, &pd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbCreateBoxShape( platform, &sd, tbMakeVec3( 1.0f, 1.0f, 0.1f ), tb_transformIdentity, NULL );
	th_addBox( world, tbMakeVec3( -4.0f, 0.0f, 1.35f ), tbMakeVec3( 0.25f, 0.25f, 0.25f ), 1.0f, 0.8f );
	tbMoverId mover = tbCreateMover( platform, NULL );
	tbVec3 path[3] = { { -4.0f, 0.0f, 1.0f }, { -4.0f, 3.0f, 1.0f }, { -6.0f, 3.0f, 2.0f } };
	tbMoverPathDef md = tbDefaultMoverPathDef();
	md.points = path;
	md.pointCount = 3;
	md.end = tbPath_pingPong;
	md.speed = 1.5f;
	assert_int_equal( tbMover_SetPath( mover, &md ), tbResult_ok );

	// a sphere held up by a custom floor row, away from the pile
	tbBodyId floating = th_addSphere( world, tbMakeVec3( 8.0f, 0.0f, 3.0f ), 0.3f, 1.0f );
	s_floating = floating;
	tbCustomJointDef cd = tbDefaultCustomJointDef();
	cd.base.bodyB = floating;
	cd.rowsFcn = floor_row;
	assert_true( TB_IS_NON_NULL( tbCreateCustomJoint( world, &cd, NULL ) ) );
	return world;
}

static void restore_repeats_trajectory( void** state )
{
	(void)state;
	tbWorldId world = make_pile();
	th_run( world, 100 );
	tbSnapshot* snap = tbWorld_TakeSnapshot( world );
	assert_non_null( snap );
	printf( "snapshot of 39 bodies, 6 joints, 1 mover: %zu bytes\n", tbSnapshot_GetByteCount( snap ) );
	uint64_t atSnapshot = tbWorld_GetStateHash( world );

	th_run( world, 200 );
	uint64_t first = tbWorld_GetStateHash( world );
	// change the world after the snapshot: a new body and a destroyed one
	tbBodyId extra = th_addSphere( world, tbMakeVec3( 0.0f, 0.0f, 10.0f ), 0.5f, 1.0f );
	tbBodyId bodies[41];
	int n = tbWorld_GetBodies( world, bodies, 41 );
	assert_int_equal( n, 40 );
	tbBodyId removed = bodies[5];
	tbDestroyBody( removed );

	assert_int_equal( tbWorld_RestoreSnapshot( world, snap ), tbResult_ok );
	assert_true( tbWorld_GetStateHash( world ) == atSnapshot );
	assert_false( tbBody_IsValid( extra ) );
	assert_true( tbBody_IsValid( removed ) );
	assert_int_equal( tbWorld_GetBodies( world, NULL, 0 ), 39 );

	th_run( world, 200 );
	uint64_t second = tbWorld_GetStateHash( world );
	printf( "hash after 300 steps: %016llx, after restore and 200 steps: %016llx\n", (unsigned long long)first,
			(unsigned long long)second );
	assert_true( first == second );
	// The restored custom row still holds its sphere: the centre rests on the row's floor at z = 1.
	float z = tbBody_GetPosition( s_floating ).z;
	printf( "custom floor row: sphere centre at z = %.4f m\n", z );
	assert_true( fabsf( z - 1.0f ) < 0.002f );

	// a snapshot belongs to its world
	tbWorldId other = make_pile();
	assert_int_equal( tbWorld_RestoreSnapshot( other, snap ), tbResult_invalidArgument );
	tbDestroyWorld( other );
	tbDestroySnapshot( snap );
	tbDestroyWorld( world );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( restore_repeats_trajectory ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
