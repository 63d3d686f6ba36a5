// Contact and sensor events, collision filtering, and multi-hit ray casts.
#include "world_helpers.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

// A falling ball produces exactly one begin event when it lands, with an upward normal and its
// impact speed, and one end event when it is lifted away.
static void contact_begin_and_end( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	tbBodyId ground = th_addGround( world, 0.5f );
	tbBodyId ball = th_addSphere( world, tbMakeVec3( 0.0f, 0.0f, 1.25f ), 0.25f, 1.0f );
	int begins = 0;
	float speed = 0.0f;
	for ( int i = 0; i < 60; ++i )
	{
		tbWorld_Step( world, 1.0f / 60.0f );
		tbContactEvents ev = tbWorld_GetContactEvents( world );
		for ( int k = 0; k < ev.beginCount; ++k )
		{
			begins += 1;
			speed = ev.beginEvents[k].approachSpeed;
			tbBodyId a = tbShape_GetBody( ev.beginEvents[k].shapeA );
			// normal points from A to B: up if A is the ground
			float nz = ev.beginEvents[k].normal.z;
			assert_true( TB_ID_EQUALS( a, ground ) ? nz > 0.99f : nz < -0.99f );
		}
		assert_int_equal( ev.endCount, 0 );
	}
	assert_int_equal( begins, 1 );
	// its bottom fell 1 m: sqrt(2 g h) = 4.47 m/s (one step of 1/60 s changes it by 0.17 m/s)
	printf( "impact speed %.3f m/s\n", speed );
	assert_true( speed > 4.3f && speed < 4.65f );

	tbBody_SetTransform( ball, tbMakeVec3( 0.0f, 0.0f, 5.0f ), tb_quatIdentity );
	tbWorld_Step( world, 1.0f / 60.0f );
	tbContactEvents ev = tbWorld_GetContactEvents( world );
	assert_int_equal( ev.endCount, 1 );
	tbDestroyWorld( world );
}

// A sensor reports a visitor entering and leaving, and does not stop it.
static void sensor_events( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = tbMakeVec3( 0.0f, 0.0f, 5.0f );
	tbBodyId zone = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.isSensor = true;
	tbCreateBoxShape( zone, &sd, tbMakeVec3( 1.0f, 1.0f, 1.0f ), tb_transformIdentity, NULL );
	tbBodyId ball = th_addSphere( world, tbMakeVec3( 0.0f, 0.0f, 8.0f ), 0.25f, 1.0f );
	int enter = 0, leave = 0;
	for ( int i = 0; i < 90; ++i )
	{
		tbWorld_Step( world, 1.0f / 60.0f );
		tbSensorEvents ev = tbWorld_GetSensorEvents( world );
		enter += ev.beginCount;
		leave += ev.endCount;
		for ( int k = 0; k < ev.beginCount; ++k )
		{
			assert_true( TB_ID_EQUALS( tbShape_GetBody( ev.beginEvents[k].sensorShape ), zone ) );
		}
	}
	assert_int_equal( enter, 1 );
	assert_int_equal( leave, 1 );
	// it fell straight through: free fall for 1.5 s from 8 m is 11.25 m
	assert_float_equal( tbBody_GetPosition( ball ).z, 8.0f - 0.5f * 10.0f * 1.5f * 1.5f, 0.2f );
	tbDestroyWorld( world );
}

// Shapes whose category and mask do not match pass through each other.
static void collision_filtering( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	tbBodyId ground = th_addGround( world, 0.5f );
	tbShapeId groundShape;
	tbBody_GetShapes( ground, &groundShape, 1 );
	tbShape_SetFilter( groundShape, 0x1, 0x1, 0 );
	tbBodyId ghost = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbShapeId ghostShape;
	tbBody_GetShapes( ghost, &ghostShape, 1 );
	tbShape_SetFilter( ghostShape, 0x2, 0x2, 0 );
	tbBodyId solid = th_addBox( world, tbMakeVec3( 3.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	th_run( world, 60 );
	assert_true( tbBody_GetPosition( ghost ).z < -1.0f );
	assert_float_equal( tbBody_GetPosition( solid ).z, 0.5f, 0.01f );
	tbDestroyWorld( world );
}

typedef struct HitList
{
	int count;
	float fractions[8];
} HitList;

static float collect_all( tbShapeId shapeId, tbVec3 point, tbVec3 normal, float fraction, void* context )
{
	(void)shapeId;
	(void)point;
	(void)normal;
	HitList* list = context;
	if ( list->count < 8 )
	{
		list->fractions[list->count] = fraction;
	}
	list->count += 1;
	return 1.0f; // keep going: report every shape along the ray
}

// A ray through three spheres in a row reports all three at their entry distances.
static void ray_cast_all( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	for ( int i = 0; i < 3; ++i )
	{
		tbBodyDef bd = tbDefaultBodyDef();
		bd.position = tbMakeVec3( 2.0f + 3.0f * (float)i, 0.0f, 0.0f );
		tbBodyId b = tbCreateBody( world, &bd );
		tbShapeDef sd = tbDefaultShapeDef();
		tbSphere s = { { 0.0f, 0.0f, 0.0f }, 0.5f };
		tbCreateSphereShape( b, &sd, &s, NULL );
	}
	HitList list = { 0 };
	tbWorld_CastRay( world, tb_vec3_zero, tbMakeVec3( 10.0f, 0.0f, 0.0f ), tbDefaultQueryFilter(), collect_all, &list );
	assert_int_equal( list.count, 3 );
	float expected[3] = { 0.15f, 0.45f, 0.75f };
	for ( int i = 0; i < 3; ++i )
	{
		bool found = false;
		for ( int k = 0; k < 3; ++k )
		{
			found = found || fabsf( list.fractions[k] - expected[i] ) < 1e-4f;
		}
		assert_true( found );
	}
	tbDestroyWorld( world );
}

static bool count_overlap( tbShapeId shapeId, void* context )
{
	(void)shapeId;
	*(int*)context += 1;
	return true;
}

// Overlap queries are exact: a box query rotated 45 degrees misses a sphere its AABB touches.
static void shape_overlap( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = tbMakeVec3( 1.3f, 1.3f, 0.0f );
	tbBodyId b = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbSphere s = { { 0.0f, 0.0f, 0.0f }, 0.5f };
	tbCreateSphereShape( b, &sd, &s, NULL );
	tbHull* box = tbMakeBoxHull( tbMakeVec3( 1.0f, 1.0f, 1.0f ), tb_transformIdentity );
	tbShapeProxy proxy = tbMakeHullProxy( box );
	int hits = 0;
	tbTransform xf = { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f, 1.0f } };
	tbWorld_OverlapShape( world, &proxy, xf, tbDefaultQueryFilter(), count_overlap, &hits );
	assert_int_equal( hits, 1 ); // the corner (1, 1) is 0.42 m from the sphere centre, inside r = 0.5
	hits = 0;
	xf.q = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.25f * TB_PI );
	tbWorld_OverlapShape( world, &proxy, xf, tbDefaultQueryFilter(), count_overlap, &hits );
	assert_int_equal( hits, 0 ); // rotated, the box face is 1 m out along the diagonal; the sphere starts at 1.34 m
	hits = 0;
	tbWorld_OverlapSphere( world, tbMakeVec3( 0.0f, 0.0f, 0.0f ), 1.4f, tbDefaultQueryFilter(), count_overlap, &hits );
	assert_int_equal( hits, 1 );
	hits = 0;
	tbWorld_OverlapSphere( world, tbMakeVec3( 0.0f, 0.0f, 0.0f ), 1.3f, tbDefaultQueryFilter(), count_overlap, &hits );
	assert_int_equal( hits, 0 ); // the sphere surface is 1.838 - 0.5 = 1.338 m away
	tbDestroyHull( box );
	tbDestroyWorld( world );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( contact_begin_and_end ),
		cmocka_unit_test( sensor_events ),
		cmocka_unit_test( collision_filtering ),
		cmocka_unit_test( ray_cast_all ),
		cmocka_unit_test( shape_overlap ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
