// World shape casts and rays that start on a surface, against analytic fractions.
#include "world_helpers.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

// Fractions, points and normals are exact geometry: the cast stops within 1e-5 m of contact.
#define TOL 1.0e-4f

static void assert_vec3_near( tbVec3 a, tbVec3 b, float tolerance )
{
	assert_float_equal( a.x, b.x, tolerance );
	assert_float_equal( a.y, b.y, tolerance );
	assert_float_equal( a.z, b.z, tolerance );
}

static tbShapeId th_firstShape( tbBodyId body )
{
	tbShapeId shape;
	assert_int_equal( tbBody_GetShapes( body, &shape, 1 ), 1 );
	return shape;
}

// A ground (top at z = 0), a unit box at x = 3 and a sphere of radius 1 at x = -3, as in ray_casts.
typedef struct Scene
{
	tbWorldId world;
	tbBodyId ground, box, ball;
} Scene;

static Scene makeScene( void )
{
	Scene s;
	s.world = th_makeWorld( tbSolver_soft, true );
	s.ground = th_addGround( s.world, 0.5f );
	s.box = th_addBox( s.world, tbMakeVec3( 3.0f, 0.0f, 0.5f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	s.ball = th_addSphere( s.world, tbMakeVec3( -3.0f, 0.0f, 1.0f ), 1.0f, 1.0f );
	return s;
}

static void sphere_capsule_and_box_casts( void** state )
{
	(void)state;
	Scene s = makeScene();
	tbQueryFilter filter = tbDefaultQueryFilter();
	tbVec3 center = tb_vec3_zero;
	tbShapeProxy sphere = { .points = &center, .count = 1, .radius = 0.5f };

	// Down onto the ground: the sphere's centre stops 0.5 m above z = 0.
	tbTransform xf = { { 0.0f, 0.0f, 5.0f }, tb_quatIdentity };
	tbRayResult r = tbWorld_CastShapeClosest( s.world, &sphere, xf, tbMakeVec3( 0.0f, 0.0f, -10.0f ), filter );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.ground ) );
	assert_float_equal( r.fraction, 0.45f, TOL );
	assert_vec3_near( r.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
	assert_vec3_near( r.point, tbMakeVec3( 0.0f, 0.0f, 0.0f ), TOL );

	// Sideways into the box's face at x = 2.5, 0.1 m above the ground: centre stops at x = 2.
	xf.p = tbMakeVec3( -1.0f, 0.0f, 0.6f );
	r = tbWorld_CastShapeClosest( s.world, &sphere, xf, tbMakeVec3( 10.0f, 0.0f, 0.0f ), filter );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.box ) );
	assert_float_equal( r.fraction, 0.3f, TOL );
	assert_vec3_near( r.normal, tbMakeVec3( -1.0f, 0.0f, 0.0f ), TOL );
	assert_vec3_near( r.point, tbMakeVec3( 2.5f, 0.0f, 0.6f ), TOL );

	// Into the ball along its centre line (z = 1): contact at centre distance 1.5, x = -4.5.
	xf.p = tbMakeVec3( 1.0f, 0.0f, 1.0f );
	r = tbWorld_CastShapeClosest( s.world, &sphere, xf, tbMakeVec3( -20.0f, 0.0f, 0.0f ), filter );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.ball ) );
	assert_float_equal( r.fraction, 2.5f / 20.0f, TOL );
	assert_vec3_near( r.point, tbMakeVec3( -2.0f, 0.0f, 1.0f ), TOL );
	assert_vec3_near( r.normal, tbMakeVec3( 1.0f, 0.0f, 0.0f ), TOL );

	// An upright capsule (radius 0.25, segment +-0.5): its bottom, 0.75 m below the centre, lands
	// on the box's top at z = 1.
	tbVec3 segment[2] = { { 0.0f, 0.0f, -0.5f }, { 0.0f, 0.0f, 0.5f } };
	tbShapeProxy capsule = { .points = segment, .count = 2, .radius = 0.25f };
	xf.p = tbMakeVec3( 3.2f, 0.1f, 6.0f );
	r = tbWorld_CastShapeClosest( s.world, &capsule, xf, tbMakeVec3( 0.0f, 0.0f, -8.0f ), filter );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.box ) );
	assert_float_equal( r.fraction, ( 6.0f - 1.75f ) / 8.0f, TOL );
	assert_float_equal( r.normal.z, 1.0f, TOL );
	assert_float_equal( r.point.z, 1.0f, TOL );

	// A box (half size 0.5, turned 45 degrees about z) down onto the ground: its bottom face lands.
	tbVec3 corners[8];
	for ( int i = 0; i < 8; ++i )
	{
		corners[i] = tbMakeVec3( i & 1 ? 0.5f : -0.5f, i & 2 ? 0.5f : -0.5f, i & 4 ? 0.5f : -0.5f );
	}
	tbShapeProxy box = { .points = corners, .count = 8, .radius = 0.0f };
	xf.p = tbMakeVec3( 0.0f, 5.0f, 3.0f );
	xf.q = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.25f * TB_PI );
	r = tbWorld_CastShapeClosest( s.world, &box, xf, tbMakeVec3( 0.0f, 0.0f, -4.0f ), filter );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.ground ) );
	assert_float_equal( r.fraction, 2.5f / 4.0f, TOL );
	assert_float_equal( r.normal.z, 1.0f, TOL );

	// Too short to reach: no hit.
	xf = ( tbTransform ){ { 0.0f, 0.0f, 5.0f }, tb_quatIdentity };
	r = tbWorld_CastShapeClosest( s.world, &sphere, xf, tbMakeVec3( 0.0f, 0.0f, -4.0f ), filter );
	assert_false( r.hit );
	tbDestroyWorld( s.world );
}

// A cast that starts overlapping reports fraction 0 and the normal out of the shape it is in.
static void initially_overlapping_cast( void** state )
{
	(void)state;
	Scene s = makeScene();
	tbVec3 center = tb_vec3_zero;
	tbShapeProxy sphere = { .points = &center, .count = 1, .radius = 0.5f };
	tbTransform xf = { { 0.0f, 0.0f, 0.2f }, tb_quatIdentity };
	tbRayResult r = tbWorld_CastShapeClosest( s.world, &sphere, xf, tbMakeVec3( 0.0f, 0.0f, 3.0f ), tbDefaultQueryFilter() );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.ground ) );
	assert_float_equal( r.fraction, 0.0f, 0.0f );
	assert_vec3_near( r.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );

	// Touching, not overlapping (the box rests on the ground): fraction 0, normal up as well.
	r = tbWorld_CastBodyClosest( s.box, tbMakeVec3( 1.0f, 0.0f, 0.0f ), tbDefaultQueryFilter() );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.ground ) );
	assert_float_equal( r.fraction, 0.0f, 0.0f );
	assert_vec3_near( r.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
	tbDestroyWorld( s.world );
}

typedef struct Hits
{
	tbBodyId bodies[8];
	float fractions[8];
	int count;
} Hits;

static float collect( tbShapeId shapeId, tbVec3 point, tbVec3 normal, float fraction, void* context )
{
	(void)point;
	(void)normal;
	Hits* hits = context;
	if ( hits->count < 8 )
	{
		hits->bodies[hits->count] = tbShape_GetBody( shapeId );
		hits->fractions[hits->count] = fraction;
		hits->count += 1;
	}
	return 1.0f;
}

// Every hit along the way, the layer filter, and a body cast that skips its own shapes.
static void all_hits_filters_and_body_casts( void** state )
{
	(void)state;
	Scene s = makeScene();
	assert_int_equal( tbShape_SetFilter( th_firstShape( s.ground ), 2, UINT64_MAX, 0 ), tbResult_ok );
	tbQueryFilter noGround = tbDefaultQueryFilter();
	noGround.maskBits = ~(uint64_t)2;

	// A sphere of radius 0.25 along z = 0.9 meets the ball (at x = -3 + sqrt(1 - 0.01) + 0.25) and
	// then the box (face x = 2.5, at 2.25 for the centre).
	tbVec3 center = tb_vec3_zero;
	tbShapeProxy sphere = { .points = &center, .count = 1, .radius = 0.25f };
	tbTransform xf = { { -10.0f, 0.0f, 0.9f }, tb_quatIdentity };
	Hits hits = { 0 };
	tbWorld_CastShape( s.world, &sphere, xf, tbMakeVec3( 20.0f, 0.0f, 0.0f ), noGround, collect, &hits );
	assert_int_equal( hits.count, 2 );
	int ballIndex = TB_ID_EQUALS( hits.bodies[0], s.ball ) ? 0 : 1;
	assert_true( TB_ID_EQUALS( hits.bodies[ballIndex], s.ball ) );
	assert_true( TB_ID_EQUALS( hits.bodies[1 - ballIndex], s.box ) );
	// First contact with the ball: centre distance 1.25 with a 0.1 m offset in z.
	float ballX = -3.0f - sqrtf( 1.25f * 1.25f - 0.01f );
	assert_float_equal( hits.fractions[ballIndex], ( ballX + 10.0f ) / 20.0f, TOL );
	assert_float_equal( hits.fractions[1 - ballIndex], ( 2.25f + 10.0f ) / 20.0f, TOL );

	// The box (on layer 1) cast to the left: the ground is filtered out, and the box itself is not
	// reported. Its left face (x = 2.5 - d) meets the ball's right side at z = 1, x = -2: d = 4.5.
	tbRayResult r = tbWorld_CastBodyClosest( s.box, tbMakeVec3( -10.0f, 0.0f, 0.0f ), noGround );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.ball ) );
	assert_float_equal( r.fraction, 0.45f, TOL );

	// Only layer 2: the ground alone.
	tbQueryFilter onlyGround = tbDefaultQueryFilter();
	onlyGround.maskBits = 2;
	xf.p = tbMakeVec3( 3.0f, 0.0f, 5.0f );
	r = tbWorld_CastShapeClosest( s.world, &sphere, xf, tbMakeVec3( 0.0f, 0.0f, -10.0f ), onlyGround );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.ground ) );
	assert_float_equal( r.fraction, 4.75f / 10.0f, TOL );
	tbDestroyWorld( s.world );
}

// A plane made of a triangle mesh (two triangles, top z = 0.5), straight and tilted at 30 degrees.
static void casts_against_mesh_planes( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	tbVec3 vertices[4] = { { -10.0f, -10.0f, 0.0f }, { 10.0f, -10.0f, 0.0f }, { 10.0f, 10.0f, 0.0f }, { -10.0f, 10.0f, 0.0f } };
	int32_t indices[6] = { 0, 1, 2, 0, 2, 3 };
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = tbMakeVec3( 0.0f, 0.0f, 0.5f );
	tbBodyId flat = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	assert_false( TB_IS_NULL( tbCreateMeshShape( flat, &sd, vertices, 4, indices, 2, NULL ) ) );

	tbVec3 center = tb_vec3_zero;
	tbShapeProxy sphere = { .points = &center, .count = 1, .radius = 0.5f };
	tbTransform xf = { { 1.0f, 2.0f, 4.0f }, tb_quatIdentity };
	tbRayResult r = tbWorld_CastShapeClosest( world, &sphere, xf, tbMakeVec3( 0.0f, 0.0f, -5.0f ), tbDefaultQueryFilter() );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, flat ) );
	assert_float_equal( r.fraction, 3.0f / 5.0f, TOL );
	assert_vec3_near( r.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );

	// Tilted 30 degrees about x through (0, 20, 0.5): the plane's normal is n = (0, -sin, cos); a
	// sphere falling straight down touches it when its centre is r / cos above the plane's height.
	tbDestroyBody( flat );
	float angle = TB_PI / 6.0f;
	bd.position = tbMakeVec3( 0.0f, 20.0f, 0.5f );
	bd.rotation = tbMakeQuatAxisAngle( tbMakeVec3( 1.0f, 0.0f, 0.0f ), angle );
	tbBodyId tilted = tbCreateBody( world, &bd );
	assert_false( TB_IS_NULL( tbCreateMeshShape( tilted, &sd, vertices, 4, indices, 2, NULL ) ) );
	xf.p = tbMakeVec3( 0.0f, 21.0f, 6.0f );
	float planeZ = 0.5f + tanf( angle ) * 1.0f;
	float stopZ = planeZ + 0.5f / cosf( angle );
	r = tbWorld_CastShapeClosest( world, &sphere, xf, tbMakeVec3( 0.0f, 0.0f, -6.0f ), tbDefaultQueryFilter() );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, tilted ) );
	assert_float_equal( r.fraction, ( 6.0f - stopZ ) / 6.0f, TOL );
	assert_vec3_near( r.normal, tbMakeVec3( 0.0f, -sinf( angle ), cosf( angle ) ), TOL );
	tbDestroyWorld( world );
}

// A ray starting on a surface and heading in reports it at fraction 0 (boxes, spheres, capsules,
// meshes); one starting on a surface heading out, or starting deeper inside, reports nothing.
static void ray_from_surface( void** state )
{
	(void)state;
	Scene s = makeScene();
	tbQueryFilter filter = tbDefaultQueryFilter();
	tbRayResult r = tbWorld_CastRayClosest( s.world, tbMakeVec3( 7.0f, 1.0f, 0.0f ), tbMakeVec3( 0.0f, 0.0f, -1.0f ), filter );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.ground ) );
	assert_float_equal( r.fraction, 0.0f, 0.0f );
	assert_vec3_near( r.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
	r = tbWorld_CastRayClosest( s.world, tbMakeVec3( 7.0f, 1.0f, 0.0f ), tbMakeVec3( 0.0f, 0.0f, 1.0f ), filter );
	assert_false( r.hit );

	// The ball's surface at 45 degrees in the x-z plane, heading to its centre.
	tbVec3 onBall = tbMakeVec3( -3.0f + sqrtf( 0.5f ), 0.0f, 1.0f + sqrtf( 0.5f ) );
	r = tbWorld_CastRayClosest( s.world, onBall, tbMakeVec3( -1.0f, 0.0f, -1.0f ), filter );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.ball ) );
	assert_float_equal( r.fraction, 0.0f, 0.0f );
	assert_vec3_near( r.normal, tbMakeVec3( sqrtf( 0.5f ), 0.0f, sqrtf( 0.5f ) ), TOL );
	// 1 mm inside is not on the surface.
	r = tbWorld_CastRayClosest( s.world, tbMakeVec3( -3.0f, 0.0f, 1.999f ), tbMakeVec3( 0.0f, 0.0f, -0.5f ), filter );
	assert_false( r.hit );

	// The box's side face x = 2.5.
	r = tbWorld_CastRayClosest( s.world, tbMakeVec3( 2.5f, 0.2f, 0.5f ), tbMakeVec3( 1.0f, 0.0f, 0.0f ), filter );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, s.box ) );
	assert_float_equal( r.fraction, 0.0f, 0.0f );
	assert_vec3_near( r.normal, tbMakeVec3( -1.0f, 0.0f, 0.0f ), TOL );

	// A capsule's side and a mesh, through their shapes' own ray casts.
	tbBodyId capsule = th_addCapsuleX( s.world, tbMakeVec3( 0.0f, 5.0f, 2.0f ), tb_quatIdentity, 1.0f, 0.5f );
	tbCastOutput out = tbShape_RayCast( th_firstShape( capsule ), tbMakeVec3( 0.3f, 5.0f, 2.5f ), tbMakeVec3( 0.0f, 0.0f, -1.0f ) );
	assert_true( out.hit );
	assert_float_equal( out.fraction, 0.0f, 0.0f );
	assert_vec3_near( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );

	tbVec3 vertices[3] = { { 0.0f, 0.0f, 0.0f }, { 4.0f, 0.0f, 0.0f }, { 0.0f, 4.0f, 0.0f } };
	int32_t indices[3] = { 0, 1, 2 };
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = tbMakeVec3( 20.0f, 0.0f, 3.0f );
	tbBodyId mesh = tbCreateBody( s.world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbShapeId meshShape = tbCreateMeshShape( mesh, &sd, vertices, 3, indices, 1, NULL );
	out = tbShape_RayCast( meshShape, tbMakeVec3( 21.0f, 1.0f, 3.0f ), tbMakeVec3( 0.0f, 0.0f, -2.0f ) );
	assert_true( out.hit );
	assert_float_equal( out.fraction, 0.0f, 0.0f );
	assert_vec3_near( out.normal, tbMakeVec3( 0.0f, 0.0f, 1.0f ), TOL );
	tbDestroyWorld( s.world );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( sphere_capsule_and_box_casts ),
		cmocka_unit_test( initially_overlapping_cast ),
		cmocka_unit_test( all_hits_filters_and_body_casts ),
		cmocka_unit_test( casts_against_mesh_planes ),
		cmocka_unit_test( ray_from_surface ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
