// Refused allocations outside the step: world creation, shape, body and joint creation (pools and
// broad-phase trees growing), body type changes, hull and mesh building, snapshots taken and
// restored, and tree queries whose stack cannot grow. Each operation is swept over the position
// of the refused request: it fails with its documented result or succeeds when the refused
// request was optional, leaves nothing half-made (the live block count is back at its baseline
// once what was made is destroyed), and the world still steps and a box still lands on the ground.
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
#define BOX_HALF 0.25f

// A box dropped 1 m above the ground far from everything else lands and rests there: the world
// still steps and its broad phase, contacts and solver work. The box is destroyed again.
static void assert_world_works( tbWorldId world )
{
	tbBodyId box =
		th_addBox( world, tbMakeVec3( 60.0f, 60.0f, 1.0f ), tbMakeVec3( BOX_HALF, BOX_HALF, BOX_HALF ), 1.0f, 0.6f );
	assert_true( tbBody_IsValid( box ) );
	for ( int i = 0; i < 90; ++i )
	{
		assert_int_equal( tbWorld_Step( world, DT ), tbResult_ok );
	}
	tbVec3 p = tbBody_GetPosition( box );
	tbVec3 v = tbBody_GetLinearVelocity( box );
	// Resting on the ground's top (z = 0) within 2 cm, still within 5 cm/s.
	assert_true( fabsf( p.z - BOX_HALF ) < 0.02f );
	assert_true( sqrtf( v.x * v.x + v.y * v.y + v.z * v.z ) < 0.05f );
	assert_int_equal( tbDestroyBody( box ), tbResult_ok );
}

static int shape_count( tbBodyId body )
{
	tbShapeId shapes[16];
	return tbBody_GetShapes( body, shapes, 16 );
}

static tbWorldId make_world( void )
{
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	assert_true( tbWorld_IsValid( world ) );
	th_addGround( world, 0.6f );
	return world;
}

// One operation under test: run with the allocator armed by the caller, report success. What it
// made stays in the fixture until `undo`, which runs unarmed.
typedef struct Fixture
{
	tbWorldId world;
	tbBodyId bodies[64];
	int bodyCount;
	tbJointId joints[64];
	int jointCount;
	tbSnapshot* snapshot;
	tbHull* hull;
	int expectedShapes; ///< shape count of bodies[0] after a failed operation
} Fixture;

typedef void SetupFcn( Fixture* f );
typedef bool OperationFcn( Fixture* f );
typedef void CheckFcn( Fixture* f, bool succeeded );

typedef struct Operation
{
	const char* name;
	SetupFcn* setup;   ///< unarmed, may be NULL; makes the world
	OperationFcn* run; ///< armed
	CheckFcn* check;   ///< unarmed, may be NULL
} Operation;

static void setup_world( Fixture* f )
{
	f->world = make_world();
}

// Runs op with the request at refuseAt refused (and every later one when failAll). Returns the
// number of requests the operation made.
static long run_once( const Operation* op, long refuseAt, bool failAll )
{
	long baseline = s_alloc.live;
	Fixture f;
	memset( &f, 0, sizeof( f ) );
	if ( op->setup != NULL )
	{
		op->setup( &f );
	}
	arm( refuseAt, failAll );
	bool succeeded = op->run( &f );
	disarm();
	long made = s_alloc.seen;
	// A failure is always caused by a refusal; without one the operation succeeds.
	if ( succeeded == false )
	{
		assert_true( s_alloc.refused >= 1 );
	}
	if ( s_alloc.refused == 0 )
	{
		assert_true( succeeded );
	}
	if ( op->check != NULL )
	{
		op->check( &f, succeeded );
	}
	if ( tbWorld_IsValid( f.world ) )
	{
		assert_world_works( f.world );
		tbDestroyWorld( f.world );
	}
	tbDestroySnapshot( f.snapshot );
	tbDestroyHull( f.hull );
	assert_int_equal( s_alloc.live, baseline );
	return made;
}

// Refuses each request the operation makes in turn, in both modes, until it makes fewer requests
// than the refused position (it ran through without a refusal). Returns the number of positions.
static long sweep( const Operation* op, long minPositions )
{
	memset( &s_alloc, 0, sizeof( s_alloc ) );
	tbSetAllocator( failing_alloc, failing_free );
	long positions = 0;
	for ( int mode = 0; mode < 2; ++mode )
	{
		long k = 0;
		while ( run_once( op, k, mode == 1 ) > k )
		{
			k += 1;
		}
		positions = k;
	}
	tbSetAllocator( NULL, NULL );
	printf( "%s: swept %ld allocation points\n", op->name, positions );
	assert_true( positions >= minPositions );
	return positions;
}

// World creation ---------------------------------------------------------------------------------

static bool run_create_world( Fixture* f )
{
	tbWorldDef def = tbDefaultWorldDef();
	def.workerCount = 2; // the job system is an optional allocation
	tbResult r = tbCreateWorldChecked( &def, &f->world );
	assert_true( r == tbResult_ok || r == tbResult_outOfMemory );
	assert_int_equal( r == tbResult_ok, tbWorld_IsValid( f->world ) );
	return r == tbResult_ok;
}

static void check_create_world( Fixture* f, bool succeeded )
{
	if ( succeeded )
	{
		th_addGround( f->world, 0.6f );
	}
	else
	{
		assert_int_equal( tbGetWorldCount(), 0 );
		// A world made afterwards works.
		f->world = make_world();
	}
}

static void world_creation( void** state )
{
	(void)state;
	Operation op = { "world creation", NULL, run_create_world, check_create_world };
	sweep( &op, 5 );
}

// Bodies and shapes ------------------------------------------------------------------------------

// Adds boxes (body then shape) until 40 exist or one fails; a failed body or shape leaves nothing.
static bool run_add_boxes( Fixture* f )
{
	for ( int i = 0; i < 40; ++i )
	{
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = i % 3 == 0 ? tbBody_static : tbBody_dynamic;
		bd.position = tbMakeVec3( -10.0f + 0.6f * (float)( i % 8 ), -10.0f + 0.6f * (float)( i / 8 ), 0.3f );
		tbBodyId body = tb_nullBodyId;
		tbResult r = tbCreateBodyChecked( f->world, &bd, &body );
		if ( r != tbResult_ok )
		{
			assert_int_equal( r, tbResult_outOfMemory );
			assert_false( tbBody_IsValid( body ) );
			return false;
		}
		f->bodies[f->bodyCount++] = body;
		tbShapeDef sd = tbDefaultShapeDef();
		tbShapeId shape = tbCreateBoxShape( body, &sd, tbMakeVec3( 0.25f, 0.25f, 0.25f ), tb_transformIdentity, &r );
		if ( r != tbResult_ok )
		{
			assert_int_equal( r, tbResult_outOfMemory );
			assert_false( tbShape_IsValid( shape ) );
			assert_int_equal( shape_count( body ), 0 );
			return false;
		}
	}
	return true;
}

static void check_bodies( Fixture* f, bool succeeded )
{
	(void)succeeded;
	for ( int i = 0; i < f->bodyCount; ++i )
	{
		assert_true( tbBody_IsValid( f->bodies[i] ) );
	}
}

static void body_and_shape_creation( void** state )
{
	(void)state;
	Operation op = { "bodies and box shapes", setup_world, run_add_boxes, check_bodies };
	sweep( &op, 8 );
}

static const tbVec3 s_gem[8] = { { 0.3f, 0, 0 }, { -0.3f, 0, 0 }, { 0, 0.3f, 0 },		{ 0, -0.3f, 0 },
								 { 0, 0, 0.3f }, { 0, 0, -0.3f }, { 0.2f, 0.2f, 0.2f }, { -0.2f, -0.2f, 0.2f } };

static bool run_compute_hull( Fixture* f )
{
	tbResult r = tbResult_ok;
	f->hull = tbComputeHull( s_gem, 8, &r );
	assert_int_equal( f->hull != NULL, r == tbResult_ok );
	if ( f->hull == NULL )
	{
		assert_int_equal( r, tbResult_outOfMemory );
	}
	return f->hull != NULL;
}

static void hull_building( void** state )
{
	(void)state;
	Operation op = { "hull building", setup_world, run_compute_hull, NULL };
	sweep( &op, 2 );
}

static void setup_shape_body( Fixture* f )
{
	f->world = make_world();
	f->hull = tbComputeHull( s_gem, 8, NULL );
	assert_non_null( f->hull );
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = tbMakeVec3( 5.0f, 5.0f, 0.5f );
	f->bodies[f->bodyCount++] = tbCreateBody( f->world, &bd );
	// Enough static proxies that the static tree is full or nearly: the operation grows it.
	for ( int i = 0; i < 7; ++i )
	{
		tbBodyDef sb = tbDefaultBodyDef();
		sb.position = tbMakeVec3( -20.0f + 2.0f * (float)i, -20.0f, 0.5f );
		tbBodyId body = tbCreateBody( f->world, &sb );
		tbShapeDef sd = tbDefaultShapeDef();
		tbCreateBoxShape( body, &sd, tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity, NULL );
	}
}

// Several hull shapes on one static body, until one fails.
static bool run_add_hulls( Fixture* f )
{
	for ( int i = 0; i < 6; ++i )
	{
		tbShapeDef sd = tbDefaultShapeDef();
		tbResult r = tbResult_ok;
		tbShapeId shape = tbCreateHullShape( f->bodies[0], &sd, f->hull, &r );
		if ( r != tbResult_ok )
		{
			assert_int_equal( r, tbResult_outOfMemory );
			assert_false( tbShape_IsValid( shape ) );
			assert_int_equal( shape_count( f->bodies[0] ), i );
			return false;
		}
	}
	return true;
}

static void hull_shape_creation( void** state )
{
	(void)state;
	// Six hull clones and the static tree's growth: 7 when written.
	Operation op = { "hull shapes", setup_shape_body, run_add_hulls, NULL };
	sweep( &op, 7 );
}

// A mesh or heightfield shape on bodies[0]: made, or refused for memory with nothing left behind.
static bool static_shape_made( Fixture* f, tbShapeId shape, tbResult r )
{
	if ( r != tbResult_ok )
	{
		assert_int_equal( r, tbResult_outOfMemory );
		assert_false( tbShape_IsValid( shape ) );
		assert_int_equal( shape_count( f->bodies[0] ), 0 );
		return false;
	}
	return true;
}

static bool run_add_mesh( Fixture* f )
{
	enum
	{
		N = 8
	};
	tbVec3 verts[( N + 1 ) * ( N + 1 )];
	int32_t tris[6 * N * N];
	for ( int j = 0; j <= N; ++j )
	{
		for ( int i = 0; i <= N; ++i )
		{
			verts[j * ( N + 1 ) + i] = tbMakeVec3( 0.5f * (float)i, 0.5f * (float)j, 0.02f * (float)( ( i + j ) % 2 ) );
		}
	}
	int t = 0;
	for ( int j = 0; j < N; ++j )
	{
		for ( int i = 0; i < N; ++i )
		{
			int32_t a = j * ( N + 1 ) + i;
			int32_t tri[6] = { a, a + 1, a + N + 2, a, a + N + 2, a + N + 1 };
			memcpy( tris + t, tri, sizeof( tri ) );
			t += 6;
		}
	}
	tbShapeDef sd = tbDefaultShapeDef();
	tbResult r = tbResult_ok;
	tbShapeId shape = tbCreateMeshShape( f->bodies[0], &sd, verts, ( N + 1 ) * ( N + 1 ), tris, 2 * N * N, &r );
	return static_shape_made( f, shape, r );
}

static void mesh_shape_creation( void** state )
{
	(void)state;
	Operation op = { "mesh shape", setup_shape_body, run_add_mesh, NULL };
	sweep( &op, 5 );
}

static bool run_add_heightfield( Fixture* f )
{
	enum
	{
		N = 9
	};
	float heights[N * N];
	uint8_t holes[( N - 1 ) * ( N - 1 )] = { 0 };
	for ( int i = 0; i < N * N; ++i )
	{
		heights[i] = 0.02f * (float)( i % 3 );
	}
	holes[10] = 1;
	tbShapeDef sd = tbDefaultShapeDef();
	tbResult r = tbResult_ok;
	tbShapeId shape = tbCreateHeightfieldShape( f->bodies[0], &sd, heights, N, N, 0.5f, 0.5f, holes, &r );
	return static_shape_made( f, shape, r );
}

static void heightfield_shape_creation( void** state )
{
	(void)state;
	// The grid's one block (no scratch: the grid needs no tree) and the static tree's growth.
	Operation op = { "heightfield shape", setup_shape_body, run_add_heightfield, NULL };
	sweep( &op, 2 );
}

// Static bodies with three shapes each become dynamic: the dynamic tree grows for their proxies.
static void setup_static_bodies( Fixture* f )
{
	f->world = make_world();
	for ( int i = 0; i < 8; ++i )
	{
		tbBodyDef bd = tbDefaultBodyDef();
		bd.position = tbMakeVec3( -10.0f + 1.5f * (float)i, 10.0f, 0.3f );
		tbBodyId body = tbCreateBody( f->world, &bd );
		for ( int k = 0; k < 3; ++k )
		{
			tbShapeDef sd = tbDefaultShapeDef();
			tbTransform local = tb_transformIdentity;
			local.p = tbMakeVec3( 0.0f, 0.0f, 0.3f * (float)k );
			tbCreateBoxShape( body, &sd, tbMakeVec3( 0.15f, 0.15f, 0.15f ), local, NULL );
		}
		f->bodies[f->bodyCount++] = body;
	}
}

static bool run_set_dynamic( Fixture* f )
{
	for ( int i = 0; i < f->bodyCount; ++i )
	{
		tbResult r = tbBody_SetType( f->bodies[i], tbBody_dynamic );
		if ( r != tbResult_ok )
		{
			assert_int_equal( r, tbResult_outOfMemory );
			// Not changed at all: still static, every shape still there.
			assert_int_equal( tbBody_GetType( f->bodies[i] ), tbBody_static );
			assert_int_equal( shape_count( f->bodies[i] ), 3 );
			return false;
		}
	}
	return true;
}

// Every body, whatever its type now, still collides: the dynamic ones land on the ground.
static void check_set_dynamic( Fixture* f, bool succeeded )
{
	(void)succeeded;
	for ( int i = 0; i < 60; ++i )
	{
		assert_int_equal( tbWorld_Step( f->world, DT ), tbResult_ok );
	}
	for ( int i = 0; i < f->bodyCount; ++i )
	{
		assert_true( tbBody_GetPosition( f->bodies[i] ).z > 0.1f );
	}
}

static void body_type_change( void** state )
{
	(void)state;
	Operation op = { "body type change", setup_static_bodies, run_set_dynamic, check_set_dynamic };
	sweep( &op, 3 );
}

// Joints ------------------------------------------------------------------------------------------

static int custom_rows( tbJointId jointId, const tbCustomRowsInput* input, tbCustomRow rows[TB_MAX_CUSTOM_ROWS],
						void* context )
{
	(void)jointId;
	(void)input;
	(void)rows;
	(void)context;
	return 0;
}

static void setup_chain( Fixture* f )
{
	f->world = make_world();
	for ( int i = 0; i < 24; ++i )
	{
		f->bodies[f->bodyCount++] = th_addBox( f->world, tbMakeVec3( -10.0f + 0.5f * (float)i, -5.0f, 3.0f ),
											   tbMakeVec3( 0.2f, 0.1f, 0.1f ), 1.0f, 0.5f );
	}
}

// A hinge chain from a static anchor, then a custom joint: until one fails.
static bool run_add_joints( Fixture* f )
{
	for ( int i = 0; i < f->bodyCount; ++i )
	{
		tbHingeJointDef hd = tbDefaultHingeJointDef();
		tbBodyId prev = i > 0 ? f->bodies[i - 1] : tb_nullBodyId;
		tbJointFramesFromWorld( prev, f->bodies[i], tbMakeVec3( -10.25f + 0.5f * (float)i, -5.0f, 3.0f ),
								tbMakeVec3( 0.0f, 1.0f, 0.0f ), &hd.base );
		tbResult r = tbResult_ok;
		tbJointId joint = tbCreateHingeJoint( f->world, &hd, &r );
		if ( r != tbResult_ok )
		{
			assert_int_equal( r, tbResult_outOfMemory );
			assert_false( tbJoint_IsValid( joint ) );
			return false;
		}
	}
	tbCustomJointDef cd = tbDefaultCustomJointDef();
	cd.base.bodyB = f->bodies[0];
	cd.rowsFcn = custom_rows;
	tbResult r = tbResult_ok;
	tbJointId joint = tbCreateCustomJoint( f->world, &cd, &r );
	if ( r != tbResult_ok )
	{
		assert_int_equal( r, tbResult_outOfMemory );
		assert_false( tbJoint_IsValid( joint ) );
		return false;
	}
	return true;
}

static void joint_creation( void** state )
{
	(void)state;
	Operation op = { "joints", setup_chain, run_add_joints, NULL };
	sweep( &op, 2 );
}

// A mover moving at constant velocity is given a path with waits.
static tbMoverId s_mover;

static void setup_mover( Fixture* f )
{
	f->world = make_world();
	tbBodyDef pd = tbDefaultBodyDef();
	pd.type = tbBody_kinematic;
	pd.position = tbMakeVec3( 20.0f, 0.0f, 0.5f );
	tbBodyId platform = tbCreateBody( f->world, &pd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbCreateBoxShape( platform, &sd, tbMakeVec3( 1.0f, 1.0f, 0.1f ), tb_transformIdentity, NULL );
	s_mover = tbCreateMover( platform, NULL );
	assert_int_equal( tbMover_SetVelocity( s_mover, tbMakeVec3( 0.5f, 0.0f, 0.0f ), tb_vec3_zero ), tbResult_ok );
}

static bool run_set_path( Fixture* f )
{
	(void)f;
	tbVec3 path[3] = { { 20, 0, 0.5f }, { 22, 0, 0.5f }, { 22, 2, 0.5f } };
	float waits[3] = { 0.5f, 0.0f, 0.5f };
	tbMoverPathDef def = tbDefaultMoverPathDef();
	def.points = path;
	def.pointCount = 3;
	def.waits = waits;
	tbResult r = tbMover_SetPath( s_mover, &def );
	assert_true( r == tbResult_ok || r == tbResult_outOfMemory );
	return r == tbResult_ok;
}

static void check_set_path( Fixture* f, bool succeeded )
{
	(void)f;
	// A refused path leaves the constant velocity in place.
	assert_int_equal( tbMover_GetMode( s_mover ), succeeded ? tbMover_path : tbMover_velocity );
}

static void mover_path( void** state )
{
	(void)state;
	Operation op = { "mover path", setup_mover, run_set_path, check_set_path };
	sweep( &op, 3 );
}

// Snapshots ---------------------------------------------------------------------------------------

// Every kind of owned geometry and state a snapshot copies: hull, mesh and heightfield shapes, a
// custom joint, a mover with a path, a vehicle, contacts after a few steps.
static void setup_snapshot_scene( Fixture* f )
{
	setup_chain( f );
	run_add_joints( f );
	f->hull = tbComputeHull( s_gem, 8, NULL );
	for ( int i = 0; i < 4; ++i )
	{
		tbBodyDef bd = tbDefaultBodyDef();
		bd.type = tbBody_dynamic;
		bd.position = tbMakeVec3( 8.0f + 0.8f * (float)i, 0.0f, 0.5f );
		tbBodyId body = tbCreateBody( f->world, &bd );
		tbShapeDef sd = tbDefaultShapeDef();
		tbCreateHullShape( body, &sd, f->hull, NULL );
	}
	tbBodyDef md = tbDefaultBodyDef();
	md.position = tbMakeVec3( -30.0f, 0.0f, 0.0f );
	tbBodyId meshBody = tbCreateBody( f->world, &md );
	tbVec3 verts[4] = { { 0, 0, 0 }, { 2, 0, 0 }, { 2, 2, 0 }, { 0, 2, 0 } };
	int32_t tris[6] = { 0, 1, 2, 0, 2, 3 };
	tbShapeDef sd = tbDefaultShapeDef();
	assert_true( tbShape_IsValid( tbCreateMeshShape( meshBody, &sd, verts, 4, tris, 2, NULL ) ) );
	float heights[9] = { 0, 0.1f, 0, 0.1f, 0.2f, 0.1f, 0, 0.1f, 0 };
	assert_true( tbShape_IsValid( tbCreateHeightfieldShape( meshBody, &sd, heights, 3, 3, 1.0f, 1.0f, NULL, NULL ) ) );

	tbBodyDef pd = tbDefaultBodyDef();
	pd.type = tbBody_kinematic;
	pd.position = tbMakeVec3( 20.0f, 0.0f, 0.5f );
	tbBodyId platform = tbCreateBody( f->world, &pd );
	tbCreateBoxShape( platform, &sd, tbMakeVec3( 1.0f, 1.0f, 0.1f ), tb_transformIdentity, NULL );
	tbMoverId mover = tbCreateMover( platform, NULL );
	tbVec3 path[3] = { { 20, 0, 0.5f }, { 22, 0, 0.5f }, { 22, 2, 0.5f } };
	tbMoverPathDef def = tbDefaultMoverPathDef();
	def.points = path;
	def.pointCount = 3;
	assert_int_equal( tbMover_SetPath( mover, &def ), tbResult_ok );

	// A four-wheeled vehicle: its pool is copied and staged with the others.
	tbBodyDef cd = tbDefaultBodyDef();
	cd.type = tbBody_dynamic;
	cd.position = tbMakeVec3( 30.0f, 0.0f, 1.0f );
	tbBodyId chassis = tbCreateBody( f->world, &cd );
	tbCreateBoxShape( chassis, &sd, tbMakeVec3( 1.0f, 0.5f, 0.2f ), tb_transformIdentity, NULL );
	tbWheelDef wheels[4];
	for ( int i = 0; i < 4; ++i )
	{
		wheels[i] = tbDefaultWheelDef();
		wheels[i].position = tbMakeVec3( i < 2 ? 0.8f : -0.8f, i % 2 == 0 ? 0.5f : -0.5f, 0.0f );
	}
	tbVehicleDef vd = tbDefaultVehicleDef();
	vd.chassis = chassis;
	vd.wheels = wheels;
	vd.wheelCount = 4;
	tbResult vr = tbResult_ok;
	tbCreateVehicle( f->world, &vd, &vr );
	assert_int_equal( vr, tbResult_ok );
	th_run( f->world, 10 );
}

static bool run_take_snapshot( Fixture* f )
{
	f->snapshot = tbWorld_TakeSnapshot( f->world );
	return f->snapshot != NULL;
}

static void snapshot_take( void** state )
{
	(void)state;
	Operation op = { "snapshot take", setup_snapshot_scene, run_take_snapshot, NULL };
	sweep( &op, 20 );
}

// The positions of the chain's bodies, to tell the state before and after a restore.
static void chain_positions( const Fixture* f, tbVec3* out )
{
	for ( int i = 0; i < f->bodyCount; ++i )
	{
		out[i] = tbBody_GetPosition( f->bodies[i] );
	}
}

static tbVec3 s_snapshotPositions[64];
static tbVec3 s_beforeRestore[64];
static tbBodyId s_lateBody;

// A snapshot taken, then the world moved on: the chain swung, a body added after the snapshot.
static void setup_restore( Fixture* f )
{
	setup_snapshot_scene( f );
	f->snapshot = tbWorld_TakeSnapshot( f->world );
	assert_non_null( f->snapshot );
	chain_positions( f, s_snapshotPositions );
	th_run( f->world, 20 );
	s_lateBody = th_addSphere( f->world, tbMakeVec3( 0.0f, 20.0f, 0.5f ), 0.3f, 1.0f );
	chain_positions( f, s_beforeRestore );
}

static bool run_restore( Fixture* f )
{
	tbResult r = tbWorld_RestoreSnapshot( f->world, f->snapshot );
	assert_true( r == tbResult_ok || r == tbResult_outOfMemory );
	return r == tbResult_ok;
}

static void check_restore( Fixture* f, bool succeeded )
{
	tbVec3 now[64];
	chain_positions( f, now );
	const tbVec3* expected = succeeded ? s_snapshotPositions : s_beforeRestore;
	for ( int i = 0; i < f->bodyCount; ++i )
	{
		assert_true( tbDistance( now[i], expected[i] ) == 0.0f );
	}
	// The body made after the snapshot is gone with a restore and still there without one.
	assert_int_equal( tbBody_IsValid( s_lateBody ), succeeded == false );
	th_run( f->world, 30 );
}

static void snapshot_restore( void** state )
{
	(void)state;
	Operation op = { "snapshot restore", setup_restore, run_restore, check_restore };
	sweep( &op, 20 );
}

// Tree traversal ----------------------------------------------------------------------------------

typedef struct Hits
{
	int count;
	int32_t sum;
} Hits;

static bool count_hit( int32_t proxyId, int32_t userData, void* context )
{
	(void)proxyId;
	Hits* hits = context;
	hits->count += 1;
	hits->sum += userData;
	return true;
}

static float count_ray_hit( const tbRayCastInput* input, int32_t proxyId, int32_t userData, void* context )
{
	(void)proxyId;
	Hits* hits = context;
	hits->count += 1;
	hits->sum += userData;
	return input->maxFraction;
}

// Nested boxes make a chain deeper than the traversal's C-stack buffer, so a query must grow its
// stack: with that refused it climbs parent links and still reports every proxy.
static void deep_tree_queries( void** state )
{
	(void)state;
	memset( &s_alloc, 0, sizeof( s_alloc ) );
	tbSetAllocator( failing_alloc, failing_free );
	tbDynamicTree tree = tbDynamicTree_Create();
	const int count = 1200;
	for ( int i = 0; i < count; ++i )
	{
		float h = 1.0f + 0.01f * (float)i;
		tbAABB box = { { -h, -h, -h }, { h, h, h } };
		assert_true( tbDynamicTree_CreateProxy( &tree, box, 1, i ) != TB_NULL_NODE );
	}
	assert_true( tbDynamicTree_GetHeight( &tree ) > 300 );
	tbAABB probe = { { -0.5f, -0.5f, -0.5f }, { 0.5f, 0.5f, 0.5f } };
	tbRayCastInput ray = { { -20.0f, 0.1f, 0.2f }, { 40.0f, 0.0f, 0.0f }, 1.0f };
	for ( int refuse = 0; refuse < 2; ++refuse )
	{
		arm( 0, refuse == 1 );
		if ( refuse == 0 )
		{
			disarm();
		}
		Hits hits = { 0, 0 };
		tbDynamicTree_Query( &tree, probe, UINT64_MAX, count_hit, &hits );
		Hits rays = { 0, 0 };
		tbDynamicTree_RayCast( &tree, &ray, UINT64_MAX, count_ray_hit, &rays );
		assert_int_equal( s_alloc.refused > 0, refuse == 1 );
		disarm();
		assert_int_equal( hits.count, count );
		assert_int_equal( hits.sum, count * ( count - 1 ) / 2 );
		assert_int_equal( rays.count, count );
		assert_int_equal( rays.sum, count * ( count - 1 ) / 2 );
	}
	assert_true( tbDynamicTree_Validate( &tree ) );

	// A proxy refused its nodes leaves the tree as it was.
	int32_t proxies = tree.proxyCount;
	long live = s_alloc.live;
	while ( tree.nodeCapacity - tree.nodeCount >= 2 )
	{
		tbAABB box = { { 50, 50, 50 }, { 51, 51, 51 } };
		assert_true( tbDynamicTree_CreateProxy( &tree, box, 1, -1 ) != TB_NULL_NODE );
		proxies += 1;
	}
	arm( 0, true );
	tbAABB box = { { 60, 60, 60 }, { 61, 61, 61 } };
	assert_int_equal( tbDynamicTree_CreateProxy( &tree, box, 1, -1 ), TB_NULL_NODE );
	disarm();
	assert_int_equal( tree.proxyCount, proxies );
	assert_int_equal( s_alloc.live, live );
	assert_true( tbDynamicTree_Validate( &tree ) );
	tbDynamicTree_Destroy( &tree );
	assert_int_equal( s_alloc.live, 0 );
	tbSetAllocator( NULL, NULL );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( world_creation ),		 cmocka_unit_test( body_and_shape_creation ),
		cmocka_unit_test( hull_building ),		 cmocka_unit_test( hull_shape_creation ),
		cmocka_unit_test( mesh_shape_creation ), cmocka_unit_test( heightfield_shape_creation ),
		cmocka_unit_test( body_type_change ),
		cmocka_unit_test( joint_creation ),		 cmocka_unit_test( mover_path ),
		cmocka_unit_test( snapshot_take ),		 cmocka_unit_test( snapshot_restore ),
		cmocka_unit_test( deep_tree_queries ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
