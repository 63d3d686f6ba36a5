// Heightfields: ray casts against the analytic surface and through holes, resting, rolling and
// holding on slopes, settling on bumps, falling through holes, crossing cell seams without bumps,
// the same results as the same triangles in a mesh, queries, refused input and snapshots.
#include "world_helpers.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

typedef float HeightFcn( float x, float y );

// Terrain of countX x countY points, cell sizes cellX, cellY; heights[j countX + i] = fcn at the point.
typedef struct Terrain
{
	float* heights;
	int countX, countY;
	float cellX, cellY;
} Terrain;

static Terrain make_terrain( int countX, int countY, float cellX, float cellY, HeightFcn* fcn )
{
	Terrain t = { malloc( sizeof( float ) * (size_t)( countX * countY ) ), countX, countY, cellX, cellY };
	for ( int j = 0; j < countY; ++j )
	{
		for ( int i = 0; i < countX; ++i )
		{
			t.heights[j * countX + i] = fcn( (float)i * cellX, (float)j * cellY );
		}
	}
	return t;
}

static tbBodyId add_static_body( tbWorldId world, tbVec3 pos )
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = pos;
	return tbCreateBody( world, &bd );
}

static tbShapeId add_heightfield( tbWorldId world, tbVec3 pos, const Terrain* t, const uint8_t* holes, float friction )
{
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = friction;
	tbResult r = tbResult_count;
	tbShapeId shape = tbCreateHeightfieldShape( add_static_body( world, pos ), &sd, t->heights, t->countX, t->countY,
												t->cellX, t->cellY, holes, &r );
	assert_int_equal( r, tbResult_ok );
	return shape;
}

// The same triangles as a mesh, in the heightfield's order (cell by cell, the diagonal from the
// cell's lower left to its upper right).
static tbShapeId add_terrain_mesh( tbWorldId world, tbVec3 pos, const Terrain* t, float friction )
{
	int nx = t->countX - 1, ny = t->countY - 1;
	tbVec3* vertices = malloc( sizeof( tbVec3 ) * (size_t)( t->countX * t->countY ) );
	int32_t* indices = malloc( sizeof( int32_t ) * (size_t)( 6 * nx * ny ) );
	for ( int j = 0; j < t->countY; ++j )
	{
		for ( int i = 0; i < t->countX; ++i )
		{
			vertices[j * t->countX + i] =
				tbMakeVec3( (float)i * t->cellX, (float)j * t->cellY, t->heights[j * t->countX + i] );
		}
	}
	for ( int j = 0; j < ny; ++j )
	{
		for ( int i = 0; i < nx; ++i )
		{
			int32_t a = j * t->countX + i, b = a + 1, c = a + t->countX, d = c + 1;
			int32_t tri[6] = { a, b, d, a, d, c };
			for ( int k = 0; k < 6; ++k )
			{
				indices[6 * ( j * nx + i ) + k] = tri[k];
			}
		}
	}
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = friction;
	tbResult r = tbResult_count;
	tbShapeId shape = tbCreateMeshShape( add_static_body( world, pos ), &sd, vertices, t->countX * t->countY, indices,
										 2 * nx * ny, &r );
	assert_int_equal( r, tbResult_ok );
	free( vertices );
	free( indices );
	return shape;
}

static float flat( float x, float y )
{
	(void)x;
	(void)y;
	return 0.0f;
}

// A plane: exact in every triangle, so a hit's height has an analytic value.
static const float s_slopeX = 0.3f, s_slopeY = -0.2f;
static float plane( float x, float y )
{
	return s_slopeX * x + s_slopeY * y + 1.0f;
}

// 20 degrees down towards +x.
static float slope20( float x, float y )
{
	(void)y;
	return -tanf( 20.0f * TB_PI / 180.0f ) * x;
}

// Bumps of 0.3 m over a few metres, a slight bowl so bodies stay on the field.
static float bumps( float x, float y )
{
	return 0.3f * sinf( 0.9f * x ) * cosf( 0.7f * y ) +
		   0.02f * ( ( x - 8.0f ) * ( x - 8.0f ) + ( y - 8.0f ) * ( y - 8.0f ) );
}

static void ray_hits_the_analytic_surface_and_passes_through_holes( void** state )
{
	(void)state;
	Terrain t = make_terrain( 21, 17, 0.5f, 0.75f, plane );
	int nx = t.countX - 1, ny = t.countY - 1;
	uint8_t* holes = calloc( (size_t)( nx * ny ), 1 );
	holes[5 * nx + 7] = 1; // cell (7, 5): x in [3.5, 4], y in [3.75, 4.5]
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	tbVec3 origin = { 2.0f, -1.0f, 0.5f };
	tbQuat q = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.3f );
	tbShapeId shape = add_heightfield( world, origin, &t, holes, 0.5f );
	tbBodyId body = tbShape_GetBody( shape );
	tbBody_SetTransform( body, origin, q );
	const tbHeightfield* hf = tbShape_GetHeightfield( shape );
	assert_non_null( hf );
	assert_int_equal( hf->holeCount, 1 );

	// Rays in the body frame, vertical and slanted in every direction, some crossing many cells.
	tbVec3 n = tbNormalize( tbMakeVec3( -s_slopeX, -s_slopeY, 1.0f ) );
	float worst = 0.0f, worstNormal = 0.0f;
	int hits = 0;
	for ( int k = 0; k < 200; ++k )
	{
		float a = 0.37f * (float)k;
		tbVec3 o = { 0.3f + 0.047f * (float)( k % 190 ), 0.2f + 0.059f * (float)( ( 7 * k ) % 190 ), 6.0f };
		tbVec3 d = { ( k % 3 ) * cosf( a ) * 2.0f, ( k % 3 ) * sinf( a ) * 2.0f, -10.0f };
		// The analytic hit with the plane, in the body frame.
		float f = ( plane( o.x, o.y ) - o.z ) / ( d.z - s_slopeX * d.x - s_slopeY * d.y );
		tbVec3 p = tbMulAdd( o, f, d );
		bool onGrid = p.x > 0.0f && p.x < 10.0f && p.y > 0.0f && p.y < 12.0f;
		bool inHole = p.x > 3.5f && p.x < 4.0f && p.y > 3.75f && p.y < 4.5f;
		tbRayResult hit = tbWorld_CastRayClosest( world, tbTransformPoint( tbBody_GetTransform( body ), o ),
												  tbRotate( q, d ), tbDefaultQueryFilter() );
		if ( !onGrid || inHole )
		{
			assert_false( hit.hit );
			continue;
		}
		assert_true( hit.hit );
		hits += 1;
		tbVec3 local = tbInvTransformPoint( tbBody_GetTransform( body ), hit.point );
		worst = tbMaxFloat( worst, fabsf( local.z - plane( local.x, local.y ) ) );
		worst = tbMaxFloat( worst, tbDistance( local, p ) );
		worstNormal = tbMaxFloat( worstNormal, tbDistance( tbInvRotate( q, hit.normal ), n ) );
	}
	printf( "ray casts: %d hits, largest error %.2e m, normal error %.2e\n", hits, worst, worstNormal );
	assert_true( hits > 150 );
	assert_true( worst < 1.0e-4f );
	assert_true( worstNormal < 1.0e-5f );

	// Straight down through the middle of the hole: nothing. Next to it: the surface.
	tbRayCastInput in = { { 3.75f, 4.1f, 5.0f }, { 0.0f, 0.0f, -10.0f }, 1.0f };
	assert_false( tbRayCastHeightfield( &in, hf, NULL ).hit );
	in.origin.x = 4.25f;
	int triangle = -1;
	tbCastOutput out = tbRayCastHeightfield( &in, hf, &triangle );
	assert_true( out.hit );
	assert_true( fabsf( out.point.z - plane( 4.25f, 4.1f ) ) < 1.0e-4f );
	assert_int_equal( triangle / 2, 5 * nx + 8 );
	// From below: two-sided, the normal turned against the ray.
	in.origin.z = -5.0f;
	in.translation.z = 10.0f;
	out = tbRayCastHeightfield( &in, hf, NULL );
	assert_true( out.hit && out.normal.z < -0.9f );
	// A ray starting on the surface and heading in hits at 0.
	tbRayCastInput on = { { 1.1f, 2.2f, plane( 1.1f, 2.2f ) }, { 0.0f, 0.0f, -1.0f }, 1.0f };
	out = tbRayCastHeightfield( &on, hf, NULL );
	assert_true( out.hit && out.fraction == 0.0f );
	tbDestroyWorld( world );
	free( holes );
	free( t.heights );
}

// Rays in every direction (steep, grazing, horizontal, from above, below and beside the grid)
// against a bumpy field with holes and against a mesh of the same triangles: the same hits. The
// cell walk must not skip a cell the ray crosses, nor stop early.
static void rays_agree_with_the_same_mesh( void** state )
{
	(void)state;
	Terrain t = make_terrain( 33, 25, 0.5f, 0.7f, bumps );
	int nx = t.countX - 1, ny = t.countY - 1;
	uint8_t* holes = calloc( (size_t)( nx * ny ), 1 );
	for ( int c = 0; c < nx * ny; c += 37 )
	{
		holes[c] = 1;
	}
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	const tbHeightfield* hf = tbShape_GetHeightfield( add_heightfield( world, tb_vec3_zero, &t, holes, 0.5f ) );
	// The mesh has every cell's triangles, holes included.
	const tbMesh* mesh = tbShape_GetMesh( add_terrain_mesh( world, tb_vec3_zero, &t, 0.5f ) );
	uint32_t seed = 12345u;
	int hits = 0, compared = 0;
	float worst = 0.0f;
	for ( int k = 0; k < 4000; ++k )
	{
		float r[6];
		for ( int q = 0; q < 6; ++q )
		{
			seed = seed * 1664525u + 1013904223u;
			r[q] = (float)( seed >> 8 ) / 16777216.0f;
		}
		tbVec3 o = { -3.0f + 22.0f * r[0], -3.0f + 23.0f * r[1], -2.0f + 8.0f * r[2] };
		tbVec3 d = { 30.0f * ( r[3] - 0.5f ), 30.0f * ( r[4] - 0.5f ), k % 4 == 0 ? 0.0f : 12.0f * ( r[5] - 0.5f ) };
		tbRayCastInput in = { o, d, 1.0f };
		int triangle = -1, meshTriangle = -1;
		tbCastOutput a = tbRayCastHeightfield( &in, hf, &triangle );
		tbCastOutput b = tbRayCastMesh( &in, mesh, &meshTriangle );
		// A hole's triangles are in the mesh: a mesh hit on one is no hit for the heightfield, and
		// what lies behind it in the field is not in the mesh's answer, so such rays are skipped.
		if ( b.hit && holes[meshTriangle / 2] )
		{
			continue;
		}
		compared += 1;
		assert_int_equal( a.hit, b.hit );
		if ( a.hit )
		{
			hits += 1;
			worst = tbMaxFloat( worst, tbDistance( a.point, b.point ) );
			assert_true( tbDistance( a.normal, b.normal ) < 1.0e-5f );
		}
	}
	printf( "rays against the same mesh: %d compared, %d hits, largest point difference %.2e m\n", compared, hits,
			worst );
	assert_true( hits > 400 );
	assert_true( worst < 1.0e-4f );
	tbDestroyWorld( world );
	free( holes );
	free( t.heights );
}

static void sphere_rests_at_its_radius_on_a_flat_field( void** state )
{
	(void)state;
	Terrain t = make_terrain( 21, 21, 0.5f, 0.5f, flat );
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	add_heightfield( world, tbMakeVec3( -5.0f, -5.0f, 0.0f ), &t, NULL, 0.5f );
	// Inside a cell, on a diagonal, on a cell edge, on a grid point.
	tbVec3 spots[4] = { { -3.3f, -3.4f, 0.0f }, { -1.2f, 1.2f, 0.0f }, { 1.0f, 3.3f, 0.0f }, { 2.0f, -2.0f, 0.0f } };
	tbBodyId balls[4];
	for ( int i = 0; i < 4; ++i )
	{
		balls[i] = th_addSphere( world, tbMakeVec3( spots[i].x, spots[i].y, 1.0f + 0.5f * (float)i ), 0.4f, 1.0f );
	}
	th_run( world, 180 );
	for ( int i = 0; i < 4; ++i )
	{
		tbVec3 p = tbBody_GetPosition( balls[i] );
		printf( "ball %d at %.5f %.5f %.5f\n", i, p.x, p.y, p.z );
		assert_true( fabsf( p.z - 0.4f ) < 0.001f );
		assert_true( th_horizontal( p, spots[i] ) < 0.001f );
	}
	tbDestroyWorld( world );
	free( t.heights );
}

// Continuous collision sweeps a fast body against the cells near its path: a 0.1 m ball at 100 m/s
// moves 1.7 m a step, past the speculative reach, and would pass through a field 0.2 m thick.
static void fast_ball_stops_on_the_field( void** state )
{
	(void)state;
	Terrain t = make_terrain( 11, 11, 1.0f, 1.0f, flat );
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	add_heightfield( world, tbMakeVec3( -5.0f, -5.0f, 0.0f ), &t, NULL, 0.5f );
	tbBodyId ball = th_addSphere( world, tbMakeVec3( 0.3f, 0.2f, 3.0f ), 0.1f, 1.0f );
	tbBody_SetLinearVelocity( ball, tbMakeVec3( 0.0f, 0.0f, -100.0f ) );
	float lowest = 3.0f;
	for ( int i = 0; i < 60; ++i )
	{
		tbWorld_Step( world, 1.0f / 60.0f );
		lowest = tbMinFloat( lowest, tbBody_GetPosition( ball ).z );
	}
	printf( "ball at 100 m/s onto the field: lowest centre %.4f m, end %.4f m\n", lowest, tbBody_GetPosition( ball ).z );
	assert_true( lowest > 0.0f );
	assert_true( tbBody_GetPosition( ball ).z > 0.05f );
	tbDestroyWorld( world );
	free( t.heights );
}

static void slope_holds_a_box_and_rolls_a_ball_as_analytic( void** state )
{
	(void)state;
	const float angle = 20.0f * TB_PI / 180.0f;
	Terrain t = make_terrain( 41, 21, 0.5f, 0.5f, slope20 );
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	add_heightfield( world, tbMakeVec3( 0.0f, -5.0f, 0.0f ), &t, NULL, 0.9f );
	tbVec3 normal = { sinf( angle ), 0.0f, cosf( angle ) };
	tbVec3 downhill = { cosf( angle ), 0.0f, -sinf( angle ) };
	const float r = 0.3f;
	tbVec3 start = tbMulAdd( tbMulSV( 3.0f / cosf( angle ), downhill ), r + 0.002f, normal );
	start.y = -2.0f;
	tbBodyId ball = th_addSphere( world, start, r, 1.0f );

	// A box 0.5 m wide resting on the slope, turned with it: friction 0.9 > tan 20 deg = 0.36 holds it.
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_dynamic;
	bd.position = tbMulAdd( tbMulSV( 4.0f / cosf( angle ), downhill ), 0.25f + 0.002f, normal );
	bd.position.y = 2.0f;
	bd.rotation = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 1.0f, 0.0f ), angle );
	tbBodyId box = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = 100.0f;
	sd.friction = 0.9f;
	tbCreateBoxShape( box, &sd, tbMakeVec3( 0.25f, 0.25f, 0.25f ), tb_transformIdentity, NULL );

	th_run( world, 12 );
	tbVec3 boxStart = tbBody_GetPosition( box );
	float s0 = tbDot( tbBody_GetLinearVelocity( ball ), downhill );
	th_run( world, 60 );
	float s1 = tbDot( tbBody_GetLinearVelocity( ball ), downhill );
	float measured = s1 - s0; // over 1 s
	float expected = 5.0f / 7.0f * 10.0f * sinf( angle );
	float height = tbDot( tbBody_GetPosition( ball ), normal ); // the plane passes through the origin
	float boxMoved = tbDistance( tbBody_GetPosition( box ), boxStart );
	printf( "slope: ball %.4f m/s^2 (expected %.4f), centre %.4f m off the plane; box moved %.5f m\n", measured,
			expected, height, boxMoved );
	assert_true( fabsf( measured - expected ) < 0.03f * expected );
	assert_true( fabsf( height - r ) < 0.001f );
	assert_true( boxMoved < 0.005f );
	tbDestroyWorld( world );
	free( t.heights );
}

static void box_settles_on_bumps( void** state )
{
	(void)state;
	Terrain t = make_terrain( 33, 33, 0.5f, 0.5f, bumps );
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	tbShapeId shape = add_heightfield( world, tb_vec3_zero, &t, NULL, 0.7f );
	const tbHeightfield* hf = tbShape_GetHeightfield( shape );
	tbBodyId boxes[3];
	for ( int i = 0; i < 3; ++i )
	{
		float x = 6.0f + 1.7f * (float)i, y = 7.0f + 0.9f * (float)i;
		boxes[i] =
			th_addBox( world, tbMakeVec3( x, y, bumps( x, y ) + 1.5f ), tbMakeVec3( 0.3f, 0.25f, 0.2f ), 2.0f, 0.7f );
		tbBody_SetAngularVelocity( boxes[i], tbMakeVec3( 1.0f, 2.0f, 0.5f ) );
	}
	// Dropped spinning from 1.5 m, a box tumbles over the bumps: when exactly it stops is
	// chaotic (a change in the last bits of the contact arithmetic moved one box's rest from before
	// 3 s to between 3 and 4 s), so the bar is rest within 4 s.
	th_run( world, 240 );
	for ( int i = 0; i < 3; ++i )
	{
		tbVec3 p = tbBody_GetPosition( boxes[i] );
		float speed = tbLength( tbBody_GetLinearVelocity( boxes[i] ) );
		// The surface under the centre: a ray from the centre down (the ray ignores nothing, so
		// cast the field alone).
		tbRayCastInput in = { p, { 0.0f, 0.0f, -5.0f }, 1.0f };
		tbCastOutput under = tbRayCastHeightfield( &in, hf, NULL );
		printf( "box %d at %.3f %.3f %.3f, %.5f m/s, %.3f m over the surface\n", i, p.x, p.y, p.z, speed,
				under.hit ? p.z - under.point.z : -1.0f );
		assert_true( speed < 0.01f );
		assert_true( under.hit && p.z - under.point.z > 0.15f );
	}
	tbDestroyWorld( world );
	free( t.heights );
}

static void sphere_falls_through_a_hole( void** state )
{
	(void)state;
	Terrain t = make_terrain( 11, 11, 1.0f, 1.0f, flat );
	uint8_t holes[100] = { 0 };
	// A 2 x 2 m hole: cells (4..5, 4..5), x and y in [4, 6].
	holes[4 * 10 + 4] = holes[4 * 10 + 5] = holes[5 * 10 + 4] = holes[5 * 10 + 5] = 1;
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	add_heightfield( world, tb_vec3_zero, &t, holes, 0.5f );
	tbBodyId through = th_addSphere( world, tbMakeVec3( 5.0f, 5.0f, 1.0f ), 0.4f, 1.0f );
	tbBodyId beside = th_addSphere( world, tbMakeVec3( 2.5f, 5.0f, 1.0f ), 0.4f, 1.0f );
	th_run( world, 120 );
	float zThrough = tbBody_GetPosition( through ).z, zBeside = tbBody_GetPosition( beside ).z;
	printf( "hole: sphere over it at z %.3f, beside it at z %.4f\n", zThrough, zBeside );
	assert_true( zThrough < -2.0f );
	assert_true( fabsf( zBeside - 0.4f ) < 0.001f );
	tbDestroyWorld( world );
	free( t.heights );
}

// A ball rolls and a frictionless box slides over many cell edges and diagonals of a flat field:
// seams must not kick either up.
static void bodies_cross_cell_seams_without_bumps( void** state )
{
	(void)state;
	Terrain t = make_terrain( 81, 81, 0.25f, 0.25f, flat );
	tbVec3 dirs[3] = { { 1.0f, 0.0f, 0.0f }, { 1.0f, 0.6f, 0.0f }, { 0.3f, 1.0f, 0.0f } };
	for ( int k = 0; k < 3; ++k )
	{
		tbWorldId world = th_makeWorld( tbSolver_soft, false );
		add_heightfield( world, tbMakeVec3( -10.0f, -10.0f, 0.0f ), &t, NULL, 0.0f );
		tbBodyId ball = th_addSphere( world, tbMakeVec3( -6.0f, -6.0f, 0.3f ), 0.3f, 1.0f );
		tbBodyId box =
			th_addBox( world, tbMakeVec3( -6.0f, -3.0f, 0.25f ), tbMakeVec3( 0.4f, 0.3f, 0.25f ), 2.0f, 0.0f );
		th_run( world, 30 );
		tbVec3 v0 = tbMulSV( 3.0f, tbNormalize( dirs[k] ) );
		tbBody_SetLinearVelocity( ball, v0 );
		tbBody_SetAngularVelocity( ball, tbMulSV( 1.0f / 0.3f, tbCross( tbMakeVec3( 0.0f, 0.0f, 1.0f ), v0 ) ) );
		tbBody_SetLinearVelocity( box, v0 );
		float ballVz = 0.0f, boxVz = 0.0f, sideways = 0.0f, minSpeed = 100.0f;
		tbVec3 side = tbNormalize( tbCross( tbMakeVec3( 0.0f, 0.0f, 1.0f ), v0 ) );
		for ( int i = 0; i < 150; ++i )
		{
			tbWorld_Step( world, 1.0f / 60.0f );
			ballVz = tbMaxFloat( ballVz, fabsf( tbBody_GetLinearVelocity( ball ).z ) );
			boxVz = tbMaxFloat( boxVz, fabsf( tbBody_GetLinearVelocity( box ).z ) );
			sideways = tbMaxFloat( sideways, fabsf( tbDot( tbBody_GetLinearVelocity( ball ), side ) ) );
			minSpeed = tbMinFloat( minSpeed, tbLength( tbBody_GetLinearVelocity( box ) ) );
		}
		printf( "seams (%.1f, %.1f): ball max |vz| %.5f, sideways %.5f m/s; box max |vz| %.5f, min speed %.4f m/s\n",
				dirs[k].x, dirs[k].y, ballVz, sideways, boxVz, minSpeed );
		assert_true( ballVz < 0.01f );
		assert_true( sideways < 0.01f );
		assert_true( boxVz < 0.01f );
		assert_true( minSpeed > 2.97f );
		tbDestroyWorld( world );
	}
	free( t.heights );
}

// Bodies dropped on the same terrain as a mesh and as a heightfield, each in its own world.
static void drop_on_terrain( bool asMesh, const Terrain* t, tbVec3 out[3] )
{
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	if ( asMesh )
	{
		add_terrain_mesh( world, tb_vec3_zero, t, 0.7f );
	}
	else
	{
		add_heightfield( world, tb_vec3_zero, t, NULL, 0.7f );
	}
	// Each a little off one of the terrain's three hollows (5.64, 8.76), (8.61, 5.27), (11.59, 8.74),
	// so each settles in its own hollow.
	tbBodyId bodies[3];
	bodies[0] = th_addSphere( world, tbMakeVec3( 5.9f, 8.6f, bumps( 5.9f, 8.6f ) + 1.0f ), 0.4f, 1.0f );
	bodies[1] = th_addBox( world, tbMakeVec3( 8.5f, 5.4f, bumps( 8.5f, 5.4f ) + 0.4f ), tbMakeVec3( 0.3f, 0.25f, 0.2f ),
						   2.0f, 0.9f );
	bodies[2] =
		th_addCapsuleX( world, tbMakeVec3( 11.4f, 8.9f, bumps( 11.4f, 8.9f ) + 1.0f ), tb_quatIdentity, 0.4f, 0.2f );
	th_run( world, 300 );
	for ( int i = 0; i < 3; ++i )
	{
		out[i] = tbBody_GetPosition( bodies[i] );
	}
	tbDestroyWorld( world );
}

static void mesh_and_heightfield_agree( void** state )
{
	(void)state;
	Terrain t = make_terrain( 33, 33, 0.5f, 0.5f, bumps );
	// Identical triangles must have identical active edges.
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	const tbMesh* mesh = tbShape_GetMesh( add_terrain_mesh( world, tb_vec3_zero, &t, 0.5f ) );
	const tbHeightfield* hf = tbShape_GetHeightfield( add_heightfield( world, tb_vec3_zero, &t, NULL, 0.5f ) );
	int differ = 0, active = 0;
	for ( int c = 0; c < 32 * 32; ++c )
	{
		for ( int k = 0; k < 2; ++k )
		{
			uint8_t flags = (uint8_t)( ( hf->cellFlags[c] >> ( 3 * k ) ) & 7u );
			differ += flags != mesh->edgeFlags[2 * c + k];
			active += __builtin_popcount( flags );
		}
	}
	printf( "active edges: %d, differing triangles %d\n", active, differ );
	assert_int_equal( differ, 0 );
	assert_true( active > 0 );
	tbDestroyWorld( world );

	tbVec3 onMesh[3], onField[3];
	drop_on_terrain( true, &t, onMesh );
	drop_on_terrain( false, &t, onField );
	float worst = 0.0f;
	for ( int i = 0; i < 3; ++i )
	{
		printf( "body %d: mesh %.5f %.5f %.5f, heightfield %.5f %.5f %.5f\n", i, onMesh[i].x, onMesh[i].y, onMesh[i].z,
				onField[i].x, onField[i].y, onField[i].z );
		worst = tbMaxFloat( worst, tbDistance( onMesh[i], onField[i] ) );
	}
	assert_true( worst < 0.001f );
	free( t.heights );
}

typedef struct Found
{
	int count;
	tbShapeId shape;
} Found;

static bool count_overlap( tbShapeId shapeId, void* context )
{
	Found* f = context;
	f->count += 1;
	f->shape = shapeId;
	return true;
}

static void queries_see_the_cells( void** state )
{
	(void)state;
	Terrain t = make_terrain( 11, 11, 1.0f, 1.0f, flat );
	uint8_t holes[100] = { 0 };
	holes[2 * 10 + 2] = 1; // cell (2, 2): x, y in [2, 3]
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	tbShapeId shape = add_heightfield( world, tb_vec3_zero, &t, holes, 0.5f );
	const tbHeightfield* hf = tbShape_GetHeightfield( shape );

	// A sphere overlaps the surface; one over the hole does not; one just above does not.
	Found f = { 0, tb_nullShapeId };
	tbWorld_OverlapSphere( world, tbMakeVec3( 5.5f, 5.5f, 0.3f ), 0.4f, tbDefaultQueryFilter(), count_overlap, &f );
	assert_int_equal( f.count, 1 );
	f.count = 0;
	tbWorld_OverlapSphere( world, tbMakeVec3( 2.5f, 2.5f, 0.1f ), 0.4f, tbDefaultQueryFilter(), count_overlap, &f );
	assert_int_equal( f.count, 0 );
	tbWorld_OverlapSphere( world, tbMakeVec3( 5.5f, 5.5f, 0.45f ), 0.4f, tbDefaultQueryFilter(), count_overlap, &f );
	assert_int_equal( f.count, 0 );

	// A sphere cast down stops at its radius over the surface: 2 m of 4 m travelled.
	tbSphere s = { { 0.0f, 0.0f, 0.0f }, 0.5f };
	tbShapeProxy proxy = tbMakeSphereProxy( &s );
	tbTransform from = { { 7.3f, 4.6f, 2.5f }, tb_quatIdentity };
	tbRayResult hit =
		tbWorld_CastShapeClosest( world, &proxy, from, tbMakeVec3( 0.0f, 0.0f, -4.0f ), tbDefaultQueryFilter() );
	printf( "shape cast: fraction %.5f, normal %.3f %.3f %.3f\n", hit.fraction, hit.normal.x, hit.normal.y,
			hit.normal.z );
	assert_true( hit.hit && TB_ID_EQUALS( hit.shapeId, shape ) );
	assert_true( fabsf( hit.fraction - 0.5f ) < 0.001f );
	assert_true( hit.normal.z > 0.999f );
	// Through the hole (a sphere smaller than it) it falls to the end.
	s.radius = 0.3f;
	proxy = tbMakeSphereProxy( &s );
	from.p = tbMakeVec3( 2.5f, 2.5f, 2.5f );
	assert_false(
		tbWorld_CastShapeClosest( world, &proxy, from, tbMakeVec3( 0.0f, 0.0f, -4.0f ), tbDefaultQueryFilter() ).hit );

	// Pair prediction: a box over 2 x 3 cells meets their 12 triangles; with a hole among them, 10.
	tbAABB box = { { 4.5f, 1.5f, -0.1f }, { 5.5f, 3.5f, 0.1f } };
	tbAABB boxHole = { { 1.5f, 1.5f, -0.1f }, { 2.5f, 3.5f, 0.1f } };
	assert_int_equal( tbCountHeightfieldTriangles( hf, tb_transformIdentity, box, 1000 ), 12 );
	assert_int_equal( tbCountHeightfieldTriangles( hf, tb_transformIdentity, boxHole, 1000 ), 10 );
	assert_int_equal( tbCountHeightfieldTriangles( hf, tb_transformIdentity, boxHole, 4 ), 4 );

	// The shape's box is the grid's.
	tbAABB aabb = tbShape_GetAABB( shape );
	assert_true( fabsf( aabb.lowerBound.x ) < 1.0e-6f && fabsf( aabb.upperBound.x - 10.0f ) < 1.0e-5f &&
				 fabsf( aabb.upperBound.y - 10.0f ) < 1.0e-5f );
	assert_int_equal( tbShape_GetType( shape ), tbShape_heightfield );
	tbDestroyWorld( world );
	free( t.heights );
}

static void bad_input_is_refused( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	tbBodyId body = add_static_body( world, tb_vec3_zero );
	tbShapeDef sd = tbDefaultShapeDef();
	float h[16] = { 0 };
	tbResult r = tbResult_ok;
#define REFUSED( heights, cx, cy, sx, sy )                                                                             \
	do                                                                                                                 \
	{                                                                                                                  \
		r = tbResult_ok;                                                                                               \
		assert_false( tbShape_IsValid( tbCreateHeightfieldShape( body, &sd, heights, cx, cy, sx, sy, NULL, &r ) ) );   \
		assert_int_equal( r, tbResult_invalidArgument );                                                               \
	} while ( 0 )
	REFUSED( NULL, 4, 4, 1.0f, 1.0f );
	REFUSED( h, 1, 4, 1.0f, 1.0f );
	REFUSED( h, 4, 1, 1.0f, 1.0f );
	REFUSED( h, 4, 4097, 1.0f, 1.0f );
	REFUSED( h, 4, 4, 0.0f, 1.0f );
	REFUSED( h, 4, 4, 1.0f, -1.0f );
	REFUSED( h, 4, 4, NAN, 1.0f );
	REFUSED( h, 4, 4, 1.0f, 2.0e4f );
	h[5] = NAN;
	REFUSED( h, 4, 4, 1.0f, 1.0f );
	h[5] = INFINITY;
	REFUSED( h, 4, 4, 1.0f, 1.0f );
	h[5] = 2.0e6f;
	REFUSED( h, 4, 4, 1.0f, 1.0f );
	h[5] = 1.0e6f;
	assert_true( tbShape_IsValid( tbCreateHeightfieldShape( body, &sd, h, 4, 4, 1.0f, 1.0f, NULL, &r ) ) );
	// A dynamic body cannot carry one, and a body with one cannot become dynamic.
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_dynamic;
	tbBodyId dynamic = tbCreateBody( world, &bd );
	r = tbResult_ok;
	assert_false( tbShape_IsValid( tbCreateHeightfieldShape( dynamic, &sd, h, 4, 4, 1.0f, 1.0f, NULL, &r ) ) );
	assert_int_equal( r, tbResult_invalidArgument );
	assert_int_equal( tbBody_SetType( body, tbBody_dynamic ), tbResult_invalidArgument );
#undef REFUSED
	tbDestroyWorld( world );
}

static void snapshot_restore_is_bit_identical( void** state )
{
	(void)state;
	Terrain t = make_terrain( 33, 33, 0.5f, 0.5f, bumps );
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	tbShapeId shape = add_heightfield( world, tb_vec3_zero, &t, NULL, 0.6f );
	tbBodyId bodies[6];
	for ( int i = 0; i < 6; ++i )
	{
		float x = 5.0f + 1.1f * (float)i, y = 8.0f - 0.7f * (float)i;
		bodies[i] = i % 2 ? th_addSphere( world, tbMakeVec3( x, y, bumps( x, y ) + 1.0f ), 0.3f, 1.0f )
						  : th_addBox( world, tbMakeVec3( x, y, bumps( x, y ) + 1.0f ), tbMakeVec3( 0.3f, 0.2f, 0.2f ),
									   1.0f, 0.6f );
	}
	th_run( world, 30 );
	tbSnapshot* snap = tbWorld_TakeSnapshot( world );
	assert_non_null( snap );
	uint64_t atSnapshot = tbWorld_GetStateHash( world );
	th_run( world, 90 );
	uint64_t first = tbWorld_GetStateHash( world );
	// The terrain's body goes after the snapshot: the restore brings the heightfield back.
	tbDestroyBody( tbShape_GetBody( shape ) );
	th_run( world, 10 );
	assert_int_equal( tbWorld_RestoreSnapshot( world, snap ), tbResult_ok );
	assert_true( tbWorld_GetStateHash( world ) == atSnapshot );
	th_run( world, 90 );
	uint64_t second = tbWorld_GetStateHash( world );
	printf( "heightfield pile: %016llx then, after restore %016llx\n", (unsigned long long)first,
			(unsigned long long)second );
	assert_true( first == second );
	for ( int i = 0; i < 6; ++i )
	{
		assert_true( tbBody_GetPosition( bodies[i] ).z > 0.0f );
	}
	tbDestroySnapshot( snap );
	tbDestroyWorld( world );
	free( t.heights );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( ray_hits_the_analytic_surface_and_passes_through_holes ),
		cmocka_unit_test( rays_agree_with_the_same_mesh ),
		cmocka_unit_test( sphere_rests_at_its_radius_on_a_flat_field ),
		cmocka_unit_test( slope_holds_a_box_and_rolls_a_ball_as_analytic ),
		cmocka_unit_test( box_settles_on_bumps ),
		cmocka_unit_test( sphere_falls_through_a_hole ),
		cmocka_unit_test( fast_ball_stops_on_the_field ),
		cmocka_unit_test( bodies_cross_cell_seams_without_bumps ),
		cmocka_unit_test( mesh_and_heightfield_agree ),
		cmocka_unit_test( queries_see_the_cells ),
		cmocka_unit_test( bad_input_is_refused ),
		cmocka_unit_test( snapshot_restore_is_bit_identical ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
