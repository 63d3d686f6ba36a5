// Tumble unit tests: convex hull construction, validation, bounding boxes, ray casts and proxies.
// SPDX-License-Identifier: MIT
#include "tumble/collision.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>

#include <cmocka.h>

// Fixed-seed generator (xorshift64*), so every run sees the same clouds.
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

static tbVec3 RandomUnitVector( TestRandom* random )
{
	for ( ;; )
	{
		tbVec3 v = { RandomFloat( random, -1.0f, 1.0f ), RandomFloat( random, -1.0f, 1.0f ),
					 RandomFloat( random, -1.0f, 1.0f ) };
		float lengthSq = tbLengthSquared( v );
		if ( 0.01f < lengthSq && lengthSq <= 1.0f )
		{
			return tbMulSV( 1.0f / sqrtf( lengthSq ), v );
		}
	}
}

static int FaceEdgeCount( const tbHull* hull, int face )
{
	int first = hull->faces[face].edge;
	int e = first;
	int n = 0;
	do
	{
		n += 1;
		e = hull->edges[e].next;
	} while ( e != first && n <= hull->edgeCount );
	return n;
}

// Largest signed distance of any point outside any face plane (<= 0 when all are inside).
static float MaxPlaneDistance( const tbHull* hull, const tbVec3* points, int count )
{
	float worst = -FLT_MAX;
	for ( int i = 0; i < count; ++i )
	{
		for ( int f = 0; f < hull->faceCount; ++f )
		{
			float d = tbDot( hull->planes[f].normal, points[i] ) - hull->planes[f].offset;
			worst = tbMaxFloat( worst, d );
		}
	}
	return worst;
}

static void AssertVecNear( tbVec3 a, tbVec3 b, float tolerance )
{
	assert_float_equal( a.x, b.x, tolerance );
	assert_float_equal( a.y, b.y, tolerance );
	assert_float_equal( a.z, b.z, tolerance );
}

static void MakeBoxCorners( tbVec3 h, tbVec3* out )
{
	for ( int i = 0; i < 8; ++i )
	{
		out[i] = tbMakeVec3( ( i & 1 ) ? h.x : -h.x, ( i & 2 ) ? h.y : -h.y, ( i & 4 ) ? h.z : -h.z );
	}
}

static void AssertBoxTopology( const tbHull* hull )
{
	assert_non_null( hull );
	assert_int_equal( hull->vertexCount, 8 );
	assert_int_equal( hull->faceCount, 6 );
	assert_int_equal( hull->edgeCount, 24 );
	for ( int f = 0; f < hull->faceCount; ++f )
	{
		assert_int_equal( FaceEdgeCount( hull, f ), 4 );
	}
	assert_true( tbValidateHull( hull ) );
}

// Box hulls -----------------------------------------------------------------------------------------

static void test_make_box_hull( void** state )
{
	(void)state;
	tbVec3 h = { 0.5f, 1.0f, 2.0f };
	tbHull* hull = tbMakeBoxHull( h, tb_transformIdentity );
	AssertBoxTopology( hull );
	assert_float_equal( hull->innerRadius, 0.5f, 1.0e-6f );
	AssertVecNear( hull->centroid, tb_vec3_zero, 1.0e-6f );
	AssertVecNear( hull->bounds.lowerBound, tbNeg( h ), 1.0e-6f );
	AssertVecNear( hull->bounds.upperBound, h, 1.0e-6f );

	// Every vertex is a corner (+-h) and lies on exactly 3 face planes; every face is 4 m from the
	// opposite one along its normal axis.
	for ( int v = 0; v < 8; ++v )
	{
		tbVec3 p = hull->vertices[v];
		assert_float_equal( fabsf( p.x ), h.x, 1.0e-6f );
		assert_float_equal( fabsf( p.y ), h.y, 1.0e-6f );
		assert_float_equal( fabsf( p.z ), h.z, 1.0e-6f );
		int onPlanes = 0;
		for ( int f = 0; f < 6; ++f )
		{
			float d = tbDot( hull->planes[f].normal, p ) - hull->planes[f].offset;
			assert_true( d <= 1.0e-6f );
			onPlanes += fabsf( d ) <= 1.0e-6f ? 1 : 0;
		}
		assert_int_equal( onPlanes, 3 );
	}
	tbDestroyHull( hull );
}

static void test_make_box_hull_transformed( void** state )
{
	(void)state;
	tbVec3 h = { 1.0f, 0.25f, 0.5f };
	tbQuat q = tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, -2.0f, 0.5f ) ), 0.9f );
	tbTransform xf = { { 3.0f, -1.0f, 2.0f }, q };
	tbHull* hull = tbMakeBoxHull( h, xf );
	AssertBoxTopology( hull );
	AssertVecNear( hull->centroid, xf.p, 1.0e-5f );
	assert_float_equal( hull->innerRadius, 0.25f, 1.0e-5f );

	// Vertices map back to the local corners; the local point of each face plane is at +-h.
	for ( int v = 0; v < 8; ++v )
	{
		tbVec3 local = tbInvTransformPoint( xf, hull->vertices[v] );
		assert_float_equal( fabsf( local.x ), h.x, 1.0e-5f );
		assert_float_equal( fabsf( local.y ), h.y, 1.0e-5f );
		assert_float_equal( fabsf( local.z ), h.z, 1.0e-5f );
	}
	for ( int f = 0; f < 6; ++f )
	{
		tbVec3 n = tbInvRotate( q, hull->planes[f].normal );
		float distance = hull->planes[f].offset - tbDot( hull->planes[f].normal, xf.p );
		float expected = fabsf( n.x ) * h.x + fabsf( n.y ) * h.y + fabsf( n.z ) * h.z;
		assert_float_equal( distance, expected, 1.0e-5f );
		assert_float_equal( fabsf( n.x ) + fabsf( n.y ) + fabsf( n.z ), 1.0f, 1.0e-5f );
	}
	tbDestroyHull( hull );
}

static void test_compute_box_with_interior_and_duplicates( void** state )
{
	(void)state;
	TestRandom random = { 0x1234567ull };
	tbVec3 h = { 1.0f, 2.0f, 0.5f };
	tbVec3 points[64];
	int count = 0;
	MakeBoxCorners( h, points );
	count = 8;
	for ( int i = 0; i < 30; ++i )
	{
		points[count++] = tbMakeVec3( RandomFloat( &random, -h.x, h.x ), RandomFloat( &random, -h.y, h.y ),
									  RandomFloat( &random, -h.z, h.z ) );
	}
	for ( int i = 0; i < 8; ++i )
	{
		points[count++] = points[i]; // exact duplicates of the corners
	}

	tbResult result = tbResult_count;
	tbHull* hull = tbComputeHull( points, count, &result );
	assert_int_equal( result, tbResult_ok );
	AssertBoxTopology( hull );
	assert_true( MaxPlaneDistance( hull, points, count ) <= 1.0e-4f );
	AssertVecNear( hull->centroid, tb_vec3_zero, 1.0e-5f );
	assert_float_equal( hull->innerRadius, 0.5f, 1.0e-5f );

	// The output vertices are the corners themselves.
	for ( int v = 0; v < 8; ++v )
	{
		tbVec3 p = hull->vertices[v];
		assert_float_equal( fabsf( p.x ), h.x, 0.0f );
		assert_float_equal( fabsf( p.y ), h.y, 0.0f );
		assert_float_equal( fabsf( p.z ), h.z, 0.0f );
	}
	tbDestroyHull( hull );
}

// A unit box given as corners, face centres and edge midpoints, all jittered by up to `jitter` per
// axis, must come out as the 6-face box.
static void CheckJitteredBox( float jitter, uint64_t seed )
{
	TestRandom random = { seed };
	tbVec3 points[8 + 6 + 12];
	MakeBoxCorners( tbMakeVec3( 1.0f, 1.0f, 1.0f ), points );
	int count = 8;
	for ( int axis = 0; axis < 3; ++axis )
	{
		for ( int sign = -1; sign <= 1; sign += 2 )
		{
			float c[3] = { 0.0f, 0.0f, 0.0f };
			c[axis] = (float)sign;
			points[count++] = tbMakeVec3( c[0], c[1], c[2] );
		}
	}
	// Edge midpoints sit on an edge between two faces and must not survive as vertices.
	for ( int axis = 0; axis < 3; ++axis )
	{
		for ( int k = 0; k < 4; ++k )
		{
			float u = ( k & 1 ) ? 1.0f : -1.0f, v = ( k & 2 ) ? 1.0f : -1.0f;
			tbVec3 p = axis == 0   ? tbMakeVec3( 0.0f, u, v )
					   : axis == 1 ? tbMakeVec3( u, 0.0f, v )
								   : tbMakeVec3( u, v, 0.0f );
			points[count++] = p;
		}
	}
	for ( int i = 0; i < count; ++i )
	{
		points[i] = tbAdd( points[i],
						   tbMakeVec3( RandomFloat( &random, -jitter, jitter ), RandomFloat( &random, -jitter, jitter ),
									   RandomFloat( &random, -jitter, jitter ) ) );
	}

	tbResult result;
	tbHull* hull = tbComputeHull( points, count, &result );
	assert_int_equal( result, tbResult_ok );
	AssertBoxTopology( hull );
	assert_true( MaxPlaneDistance( hull, points, count ) <= 1.0e-4f );
	for ( int f = 0; f < 6; ++f )
	{
		// Axis-aligned normals: corners moved by the jitter tilt a face of half width 1 by at most
		// about 2 * jitter rad. The sine of the tilt is the length of the two off-axis components.
		tbVec3 n = tbAbsVec( hull->planes[f].normal );
		float sine = n.x >= n.y && n.x >= n.z ? sqrtf( n.y * n.y + n.z * n.z )
					 : n.y >= n.z			  ? sqrtf( n.x * n.x + n.z * n.z )
											  : sqrtf( n.x * n.x + n.y * n.y );
		assert_true( sine <= 4.0f * jitter + 1.0e-6f );
		assert_float_equal( hull->planes[f].offset, 1.0f, 4.0f * jitter );
	}
	tbDestroyHull( hull );
}

static void test_compute_box_with_face_centres_and_jitter( void** state )
{
	(void)state;
	// 1e-6 is below the builder's snapping grid; 1.5e-5 is above it (so the jittered points are
	// real hull vertices) but within the coplanarity tolerance, so faces must be merged.
	for ( uint64_t seed = 1; seed <= 20; ++seed )
	{
		CheckJitteredBox( 1.0e-6f, seed );
		CheckJitteredBox( 1.5e-5f, seed + 100 );
	}
}

// A box sampled densely on its faces (5 x 5 per face) with jitter beyond the snapping grid.
static void test_compute_box_from_face_samples( void** state )
{
	(void)state;
	TestRandom random = { 2024ull };
	tbVec3 h = { 2.0f, 1.0f, 0.5f };
	tbVec3 points[6 * 25];
	int count = 0;
	for ( int axis = 0; axis < 3; ++axis )
	{
		for ( int sign = -1; sign <= 1; sign += 2 )
		{
			for ( int i = 0; i < 5; ++i )
			{
				for ( int j = 0; j < 5; ++j )
				{
					float c[3];
					int u = ( axis + 1 ) % 3, v = ( axis + 2 ) % 3;
					float ext[3] = { h.x, h.y, h.z };
					c[axis] = (float)sign * ext[axis];
					c[u] = ext[u] * ( -1.0f + 0.5f * (float)i );
					c[v] = ext[v] * ( -1.0f + 0.5f * (float)j );
					points[count++] = tbMakeVec3( c[0] + RandomFloat( &random, -2e-5f, 2e-5f ),
												  c[1] + RandomFloat( &random, -2e-5f, 2e-5f ),
												  c[2] + RandomFloat( &random, -2e-5f, 2e-5f ) );
				}
			}
		}
	}
	tbResult result;
	tbHull* hull = tbComputeHull( points, count, &result );
	assert_int_equal( result, tbResult_ok );
	AssertBoxTopology( hull );
	assert_true( MaxPlaneDistance( hull, points, count ) <= 1.0e-4f );
	assert_float_equal( hull->innerRadius, 0.5f, 1.0e-4f );
	tbDestroyHull( hull );
}

static void test_box_scales( void** state )
{
	(void)state;
	// from the largest accepted size (coordinates up to TB_MAX_POSITION) to millimetres
	float scales[3] = { 0.4f * TB_MAX_POSITION, 1.0e-3f, 1.0f };
	for ( int s = 0; s < 3; ++s )
	{
		float k = scales[s];
		tbVec3 h = tbMakeVec3( 1.0f * k, 0.5f * k, 2.0f * k );
		tbVec3 points[9];
		MakeBoxCorners( h, points );
		points[8] = tbMulSV( 0.25f, h );
		tbResult result;
		tbHull* hull = tbComputeHull( points, 9, &result );
		assert_int_equal( result, tbResult_ok );
		AssertBoxTopology( hull );
		assert_true( MaxPlaneDistance( hull, points, 9 ) <= 1.0e-6f * k );
		assert_float_equal( hull->innerRadius, 0.5f * k, 1.0e-5f * k );
		tbDestroyHull( hull );
	}
}

// Clouds beyond the accepted coordinate range, or smaller than the smallest shape, are refused.
static void test_hull_size_limits( void** state )
{
	(void)state;
	tbVec3 points[8];
	tbResult result;
	MakeBoxCorners( tbMakeVec3( 2.0f * TB_MAX_POSITION, 1.0f, 1.0f ), points );
	assert_null( tbComputeHull( points, 8, &result ) );
	assert_int_equal( result, tbResult_invalidArgument );
	MakeBoxCorners( tbMakeVec3( 0.2f * TB_MIN_SHAPE_SIZE, 0.2f * TB_MIN_SHAPE_SIZE, 0.2f * TB_MIN_SHAPE_SIZE ), points );
	assert_null( tbComputeHull( points, 8, &result ) );
	assert_int_equal( result, tbResult_degenerateHull );
}

// Other shapes --------------------------------------------------------------------------------------

static void test_tetrahedron( void** state )
{
	(void)state;
	tbVec3 points[4] = { { 0.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f } };
	tbResult result;
	tbHull* hull = tbComputeHull( points, 4, &result );
	assert_non_null( hull );
	assert_int_equal( hull->vertexCount, 4 );
	assert_int_equal( hull->faceCount, 4 );
	assert_int_equal( hull->edgeCount, 12 );
	assert_true( tbValidateHull( hull ) );
	// Volume centroid of a tetrahedron is the vertex average; the closest plane to it is the
	// slanted face x + y + z = 1, at (1 - 3/4) / sqrt(3).
	AssertVecNear( hull->centroid, tbMakeVec3( 0.25f, 0.25f, 0.25f ), 1.0e-6f );
	assert_float_equal( hull->innerRadius, 0.25f / sqrtf( 3.0f ), 1.0e-6f );
	tbDestroyHull( hull );
}

static void test_octahedron( void** state )
{
	(void)state;
	tbVec3 points[6] = { { 1.0f, 0.0f, 0.0f },	{ -1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f },
						 { 0.0f, -1.0f, 0.0f }, { 0.0f, 0.0f, 1.5f },  { 0.0f, 0.0f, -1.5f } };
	tbResult result;
	tbHull* hull = tbComputeHull( points, 6, &result );
	assert_non_null( hull );
	assert_int_equal( hull->vertexCount, 6 );
	assert_int_equal( hull->faceCount, 8 );
	assert_int_equal( hull->edgeCount, 24 );
	assert_true( tbValidateHull( hull ) );
	for ( int f = 0; f < 8; ++f )
	{
		assert_int_equal( FaceEdgeCount( hull, f ), 3 );
		// Faces x/1 + y/1 + z/1.5 = 1 up to signs: normal ~ (1, 1, 2/3), offset 1 / |(1, 1, 2/3)|.
		tbVec3 n = tbAbsVec( hull->planes[f].normal );
		float norm = sqrtf( 1.0f + 1.0f + 4.0f / 9.0f );
		AssertVecNear( n, tbMakeVec3( 1.0f / norm, 1.0f / norm, ( 2.0f / 3.0f ) / norm ), 1.0e-6f );
		assert_float_equal( hull->planes[f].offset, 1.0f / norm, 1.0e-6f );
	}
	tbDestroyHull( hull );
}

static void test_sphere_clouds( void** state )
{
	(void)state;
	int counts[4] = { 20, 100, 500, TB_MAX_HULL_POINTS };
	TestRandom random = { 0xC0FFEEull };
	static tbVec3 points[TB_MAX_HULL_POINTS];
	for ( int c = 0; c < 4; ++c )
	{
		int count = counts[c];
		float radius = 0.5f + 2.0f * (float)c;
		tbVec3 offset = tbMakeVec3( 10.0f * (float)c, -3.0f, 1.0f );
		for ( int i = 0; i < count; ++i )
		{
			points[i] = tbMulAdd( offset, radius, RandomUnitVector( &random ) );
		}
		tbResult result;
		tbHull* hull = tbComputeHull( points, count, &result );
		assert_non_null( hull );
		int edges = hull->edgeCount / 2;
		assert_int_equal( hull->vertexCount - edges + hull->faceCount, 2 );
		assert_true( tbValidateHull( hull ) );
		// Points on a sphere are all extreme: every one is a vertex (they are far apart compared
		// to the weld distance).
		assert_int_equal( hull->vertexCount, count );
		assert_true( MaxPlaneDistance( hull, points, count ) <= 1.0e-4f * radius );
		// The centroid is near the sphere centre and the inner radius a little below the radius.
		assert_true( tbDistance( hull->centroid, offset ) < 0.2f * radius );
		assert_true( hull->innerRadius > 0.3f * radius && hull->innerRadius < radius );
		tbDestroyHull( hull );
	}
}

static void test_random_cloud_stress( void** state )
{
	(void)state;
	// Mixed nasty inputs: grids (massive coplanarity), jittered grids, near-flat slabs, clustered
	// corners, far-from-origin clouds. Either a valid hull containing every point or a clean error.
	TestRandom random = { 777ull };
	static tbVec3 points[TB_MAX_HULL_POINTS];
	int built = 0;
	for ( int iteration = 0; iteration < 150; ++iteration )
	{
		int mode = iteration % 5;
		int count = 4 + (int)RandomFloat( &random, 0.0f, 400.0f );
		float scale = powf( 10.0f, (float)( iteration % 7 ) - 3.0f );
		float shift = ( iteration % 3 == 0 ) ? 20.0f * scale : 0.0f;
		for ( int i = 0; i < count; ++i )
		{
			tbVec3 p;
			switch ( mode )
			{
				case 0:
					p = tbMakeVec3( floorf( RandomFloat( &random, 0.0f, 4.0f ) ),
									floorf( RandomFloat( &random, 0.0f, 4.0f ) ),
									floorf( RandomFloat( &random, 0.0f, 4.0f ) ) );
					break;
				case 1:
					p = tbMakeVec3(
						floorf( RandomFloat( &random, 0.0f, 5.0f ) ) + RandomFloat( &random, -1e-6f, 1e-6f ),
						floorf( RandomFloat( &random, 0.0f, 5.0f ) ) + RandomFloat( &random, -1e-6f, 1e-6f ),
						floorf( RandomFloat( &random, 0.0f, 5.0f ) ) + RandomFloat( &random, -1e-6f, 1e-6f ) );
					break;
				case 2:
					p = tbMakeVec3( RandomFloat( &random, -1.0f, 1.0f ), RandomFloat( &random, -1.0f, 1.0f ),
									RandomFloat( &random, -1.0e-3f, 1.0e-3f ) );
					break;
				case 3: {
					int corner = (int)RandomFloat( &random, 0.0f, 4.0f );
					p = tbMakeVec3( corner == 1 ? 1.0f : 0.0f, corner == 2 ? 1.0f : 0.0f, corner == 3 ? 1.0f : 0.0f );
					p = tbAdd( p, tbMulSV( 1.0e-4f, RandomUnitVector( &random ) ) );
					break;
				}
				default:
					p = RandomUnitVector( &random );
					break;
			}
			points[i] = tbAdd( tbMulSV( scale, p ), tbMakeVec3( shift, shift, shift ) );
		}

		tbResult result = tbResult_count;
		tbHull* hull = tbComputeHull( points, count, &result );
		if ( hull == NULL )
		{
			assert_int_equal( result, tbResult_degenerateHull );
			continue;
		}
		built += 1;
		assert_int_equal( result, tbResult_ok );
		assert_true( tbValidateHull( hull ) );
		assert_int_equal( hull->vertexCount - hull->edgeCount / 2 + hull->faceCount, 2 );
		// Inside within 1e-5 of the size plus float resolution of the shifted coordinates.
		float tolerance = 1.0e-5f * 2.0f * scale + 4.0f * FLT_EPSILON * fabsf( shift );
		assert_true( MaxPlaneDistance( hull, points, count ) <= tolerance );
		tbDestroyHull( hull );
	}
	// Only tiny clouds (a handful of grid points) may come out degenerate.
	assert_true( built >= 140 );
}

// Rejected input ------------------------------------------------------------------------------------

static void test_degenerate_input( void** state )
{
	(void)state;
	static tbVec3 points[TB_MAX_HULL_POINTS + 1];
	tbResult result;

	points[0] = tbMakeVec3( 0.0f, 0.0f, 0.0f );
	points[1] = tbMakeVec3( 1.0f, 0.0f, 0.0f );
	points[2] = tbMakeVec3( 0.0f, 1.0f, 0.0f );
	assert_null( tbComputeHull( points, 3, &result ) );
	assert_int_equal( result, tbResult_invalidArgument );
	assert_null( tbComputeHull( NULL, 8, &result ) );
	assert_int_equal( result, tbResult_invalidArgument );

	TestRandom random = { 99ull };
	tbQuat tilt = tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, 1.0f, 0.0f ) ), 0.3f );
	for ( int i = 0; i < 100; ++i )
	{
		tbVec3 p = tbMakeVec3( RandomFloat( &random, -2.0f, 2.0f ), RandomFloat( &random, -2.0f, 2.0f ), 0.0f );
		points[i] = tbAdd( tbRotate( tilt, p ), tbMakeVec3( 5.0f, 0.0f, 1.0f ) );
	}
	assert_null( tbComputeHull( points, 100, &result ) );
	assert_int_equal( result, tbResult_degenerateHull );

	for ( int i = 0; i < 50; ++i )
	{
		float t = RandomFloat( &random, -3.0f, 3.0f );
		points[i] = tbMakeVec3( 1.0f + t, 2.0f - 2.0f * t, 0.5f * t );
	}
	assert_null( tbComputeHull( points, 50, &result ) );
	assert_int_equal( result, tbResult_degenerateHull );

	for ( int i = 0; i < 20; ++i )
	{
		points[i] = tbMakeVec3( 3.0f, -1.0f, 7.0f );
	}
	assert_null( tbComputeHull( points, 20, &result ) );
	assert_int_equal( result, tbResult_degenerateHull );

	MakeBoxCorners( tbMakeVec3( 1.0f, 1.0f, 1.0f ), points );
	points[5].y = NAN;
	assert_null( tbComputeHull( points, 8, &result ) );
	assert_int_equal( result, tbResult_invalidArgument );
	points[5].y = INFINITY;
	assert_null( tbComputeHull( points, 8, &result ) );
	assert_int_equal( result, tbResult_invalidArgument );

	for ( int i = 0; i < TB_MAX_HULL_POINTS + 1; ++i )
	{
		points[i] = RandomUnitVector( &random );
	}
	assert_null( tbComputeHull( points, TB_MAX_HULL_POINTS + 1, &result ) );
	assert_int_equal( result, tbResult_tooManyPoints );
	// Exactly the maximum is accepted.
	tbHull* hull = tbComputeHull( points, TB_MAX_HULL_POINTS, &result );
	assert_non_null( hull );
	assert_int_equal( result, tbResult_ok );
	tbDestroyHull( hull );
}

// Fuzz finding 35: a sliver 58 m across and 1.9 mm thick, leaning against the starting
// tetrahedron's plane, built a hull of zero volume (faces merged across the thickness). Plates of
// 58 x 10 m about 57 m from the origin in random orientations, with corners and random points on
// both faces: each is either refused as flat (only below 0.1 % of the size) or built with its true
// volume within 10 %.
static void test_thin_slivers( void** state )
{
	(void)state;
	const float thicknesses[] = { 0.001f, 0.0015f, 0.0019f, 0.0022f, 0.0025f, 0.003f, 0.01f, 0.5f };
	const int thicknessCount = (int)( sizeof( thicknesses ) / sizeof( thicknesses[0] ) );
	tbVec3 points[64];
	TestRandom random = { 35ull };
	int refused = 0, built = 0;
	float worst = 0.0f;
	for ( int trial = 0; trial < 50 * thicknessCount; ++trial )
	{
		float t = thicknesses[trial % thicknessCount];
		tbQuat tilt = tbMakeQuatAxisAngle( RandomUnitVector( &random ), RandomFloat( &random, 0.0f, TB_PI ) );
		tbVec3 offset = tbMulSV( 57.0f, RandomUnitVector( &random ) );
		int count = 0;
		for ( int c = 0; c < 8; ++c )
		{
			tbVec3 corner = { c & 1 ? 29.0f : -29.0f, c & 2 ? 5.0f : -5.0f, c & 4 ? 0.5f * t : -0.5f * t };
			points[count++] = corner;
		}
		while ( count < 64 )
		{
			tbVec3 p = { RandomFloat( &random, -29.0f, 29.0f ), RandomFloat( &random, -5.0f, 5.0f ),
						 count % 2 ? 0.5f * t : -0.5f * t };
			points[count++] = p;
		}
		for ( int i = 0; i < count; ++i )
		{
			points[i] = tbAdd( tbRotate( tilt, points[i] ), offset );
		}
		tbResult result;
		tbHull* hull = tbComputeHull( points, count, &result );
		if ( hull == NULL )
		{
			assert_int_equal( result, tbResult_degenerateHull );
			assert_true( t < 1.0e-3f * 58.0f );
			refused += 1;
			continue;
		}
		float expected = 58.0f * 10.0f * t;
		tbMassData mass = tbComputeHullMass( hull, 1.0f );
		float error = fabsf( mass.mass - expected ) / expected;
		if ( !( error < 0.1f ) )
		{
			printf( "sliver %.4f m thick, trial %d: volume %g m^3, exact %g\n", (double)t, trial, (double)mass.mass,
					(double)expected );
		}
		assert_true( error < 0.1f );
		assert_true( mass.rotationalInertia.cx.x > 0.0f && mass.rotationalInertia.cy.y > 0.0f &&
					 mass.rotationalInertia.cz.z > 0.0f );
		worst = tbMaxFloat( worst, error );
		built += 1;
		tbDestroyHull( hull );
	}
	printf( "slivers 1 mm to 0.5 m thick: %d refused as flat, %d built, worst volume error %.3f %%\n", refused, built,
			(double)( 100.0f * worst ) );
	// The thick plates are always built.
	assert_true( built >= 2 * 50 );
}

// Clone, validate, allocation -----------------------------------------------------------------------

static void test_clone_hull( void** state )
{
	(void)state;
	tbVec3 points[6] = { { 1.0f, 0.0f, 0.0f },	{ -1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f },
						 { 0.0f, -1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f },  { 0.0f, 0.0f, -1.0f } };
	tbResult result;
	tbHull* hull = tbComputeHull( points, 6, &result );
	assert_non_null( hull );
	tbHull* copy = tbCloneHull( hull );
	assert_non_null( copy );
	assert_int_equal( copy->byteCount, hull->byteCount );
	assert_int_equal( copy->vertexCount, hull->vertexCount );
	assert_int_equal( copy->edgeCount, hull->edgeCount );
	assert_int_equal( copy->faceCount, hull->faceCount );
	assert_memory_equal( copy->vertices, hull->vertices, sizeof( tbVec3 ) * (size_t)hull->vertexCount );
	assert_memory_equal( copy->edges, hull->edges, sizeof( tbHullHalfEdge ) * (size_t)hull->edgeCount );
	assert_memory_equal( copy->planes, hull->planes, sizeof( tbPlane ) * (size_t)hull->faceCount );

	// The copy's arrays live inside the copy's own block.
	const char* begin = (const char*)copy;
	const char* end = begin + copy->byteCount;
	const char* arrays[4] = { (const char*)copy->vertices, (const char*)copy->edges, (const char*)copy->faces,
							  (const char*)copy->planes };
	for ( int i = 0; i < 4; ++i )
	{
		assert_true( arrays[i] > begin && arrays[i] < end );
	}

	tbDestroyHull( hull );
	assert_true( tbValidateHull( copy ) );
	tbDestroyHull( copy );
}

static void test_validate_rejects_broken_hulls( void** state )
{
	(void)state;
	tbHull* hull = tbMakeBoxHull( tbMakeVec3( 1.0f, 1.0f, 1.0f ), tb_transformIdentity );
	assert_true( tbValidateHull( hull ) );

	tbHull* broken = tbCloneHull( hull );
	broken->edges[0].twin = broken->edges[1].twin;
	assert_false( tbValidateHull( broken ) );
	tbDestroyHull( broken );

	broken = tbCloneHull( hull );
	broken->planes[2].normal = tbNeg( broken->planes[2].normal );
	assert_false( tbValidateHull( broken ) );
	tbDestroyHull( broken );

	// A dent: one vertex pushed inward by 0.2 m breaks convexity and planarity.
	broken = tbCloneHull( hull );
	broken->vertices[7] = tbMulSV( 0.8f, broken->vertices[7] );
	assert_false( tbValidateHull( broken ) );
	tbDestroyHull( broken );

	broken = tbCloneHull( hull );
	broken->edges[3].next = 3;
	assert_false( tbValidateHull( broken ) );
	tbDestroyHull( broken );

	assert_false( tbValidateHull( NULL ) );
	tbDestroyHull( hull );
}

static int s_liveBlocks = 0;

static void* CountingAlloc( size_t size )
{
	s_liveBlocks += 1;
	return malloc( size );
}

static void CountingFree( void* memory )
{
	s_liveBlocks -= 1;
	free( memory );
}

static void test_one_allocation_per_hull( void** state )
{
	(void)state;
	tbSetAllocator( CountingAlloc, CountingFree );
	s_liveBlocks = 0;

	TestRandom random = { 5ull };
	tbVec3 points[200];
	for ( int i = 0; i < 200; ++i )
	{
		points[i] = RandomUnitVector( &random );
	}
	tbResult result;
	tbHull* hull = tbComputeHull( points, 200, &result );
	assert_non_null( hull );
	assert_int_equal( s_liveBlocks, 1 );
	tbHull* copy = tbCloneHull( hull );
	assert_int_equal( s_liveBlocks, 2 );
	tbHull* box = tbMakeBoxHull( tbMakeVec3( 1.0f, 2.0f, 3.0f ), tb_transformIdentity );
	assert_int_equal( s_liveBlocks, 3 );
	tbDestroyHull( hull );
	tbDestroyHull( copy );
	tbDestroyHull( box );
	assert_int_equal( s_liveBlocks, 0 );

	// Failures leak nothing either.
	assert_null( tbComputeHull( points, 3, &result ) );
	points[3] = points[4] = points[5] = points[0];
	assert_null( tbComputeHull( points + 3, 3, &result ) );
	for ( int i = 0; i < 10; ++i )
	{
		points[i] = tbMakeVec3( (float)i, 0.0f, 0.0f );
	}
	assert_null( tbComputeHull( points, 10, &result ) );
	assert_int_equal( s_liveBlocks, 0 );

	tbSetAllocator( NULL, NULL );
}

// Bounding boxes --------------------------------------------------------------------------------------

static void test_aabbs( void** state )
{
	(void)state;
	tbTransform xf = { { 1.0f, 2.0f, 3.0f }, tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.5f * TB_PI ) };

	tbSphere sphere = { { 1.0f, 0.0f, 0.0f }, 0.5f };
	tbAABB a = tbComputeSphereAABB( &sphere, xf );
	// The centre (1, 0, 0) turns to (0, 1, 0) and moves to (1, 3, 3).
	AssertVecNear( a.lowerBound, tbMakeVec3( 0.5f, 2.5f, 2.5f ), 1.0e-5f );
	AssertVecNear( a.upperBound, tbMakeVec3( 1.5f, 3.5f, 3.5f ), 1.0e-5f );

	tbCapsule capsule = { { -1.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f }, 0.25f };
	a = tbComputeCapsuleAABB( &capsule, xf );
	AssertVecNear( a.lowerBound, tbMakeVec3( 0.75f, 0.75f, 2.75f ), 1.0e-5f );
	AssertVecNear( a.upperBound, tbMakeVec3( 1.25f, 3.25f, 3.25f ), 1.0e-5f );

	// A unit cube turned 45 degrees about z spans sqrt(2) in x and y.
	tbHull* box = tbMakeBoxHull( tbMakeVec3( 1.0f, 1.0f, 1.0f ), tb_transformIdentity );
	tbTransform turn = { { 0.0f, 0.0f, -1.0f }, tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.25f * TB_PI ) };
	a = tbComputeHullAABB( box, turn );
	float s = sqrtf( 2.0f );
	AssertVecNear( a.lowerBound, tbMakeVec3( -s, -s, -2.0f ), 1.0e-5f );
	AssertVecNear( a.upperBound, tbMakeVec3( s, s, 0.0f ), 1.0e-5f );
	tbDestroyHull( box );
}

// Ray casts -------------------------------------------------------------------------------------------

static tbRayCastInput MakeRay( tbVec3 origin, tbVec3 translation, float maxFraction )
{
	tbRayCastInput input = { origin, translation, maxFraction };
	return input;
}

static void AssertHit( tbCastOutput output, const tbRayCastInput* input, float fraction, tbVec3 normal )
{
	assert_true( output.hit );
	assert_float_equal( output.fraction, fraction, 1.0e-5f );
	AssertVecNear( output.normal, normal, 1.0e-5f );
	AssertVecNear( output.point, tbMulAdd( input->origin, output.fraction, input->translation ), 1.0e-5f );
	assert_true( output.fraction >= 0.0f && output.fraction <= input->maxFraction );
}

static void test_ray_cast_sphere( void** state )
{
	(void)state;
	tbSphere sphere = { { 1.0f, 2.0f, 3.0f }, 1.0f };

	tbRayCastInput ray = MakeRay( tbMakeVec3( -4.0f, 2.0f, 3.0f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	AssertHit( tbRayCastSphere( &ray, &sphere ), &ray, 0.4f, tbMakeVec3( -1.0f, 0.0f, 0.0f ) );

	// Off-centre by 0.6: enters at x = 1 - 0.8, normal (-0.8, 0.6, 0).
	ray = MakeRay( tbMakeVec3( -4.0f, 2.6f, 3.0f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	AssertHit( tbRayCastSphere( &ray, &sphere ), &ray, ( 0.2f + 4.0f ) / 10.0f, tbMakeVec3( -0.8f, 0.6f, 0.0f ) );

	ray = MakeRay( tbMakeVec3( -4.0f, 3.1f, 3.0f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	assert_false( tbRayCastSphere( &ray, &sphere ).hit );
	ray = MakeRay( tbMakeVec3( -4.0f, 2.0f, 3.0f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 0.35f );
	assert_false( tbRayCastSphere( &ray, &sphere ).hit );
	ray = MakeRay( tbMakeVec3( -4.0f, 2.0f, 3.0f ), tbMakeVec3( -10.0f, 0.0f, 0.0f ), 1.0f );
	assert_false( tbRayCastSphere( &ray, &sphere ).hit );
	ray = MakeRay( tbMakeVec3( 1.2f, 2.0f, 3.0f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	assert_false( tbRayCastSphere( &ray, &sphere ).hit );
	ray = MakeRay( tbMakeVec3( -4.0f, 2.0f, 3.0f ), tb_vec3_zero, 1.0f );
	assert_false( tbRayCastSphere( &ray, &sphere ).hit );
}

static void test_ray_cast_capsule( void** state )
{
	(void)state;
	tbCapsule capsule = { { 0.0f, 0.0f, -1.0f }, { 0.0f, 0.0f, 1.0f }, 0.5f };

	// Side: enters the cylinder at x = -0.5.
	tbRayCastInput ray = MakeRay( tbMakeVec3( -3.0f, 0.0f, 0.3f ), tbMakeVec3( 6.0f, 0.0f, 0.0f ), 1.0f );
	AssertHit( tbRayCastCapsule( &ray, &capsule ), &ray, 2.5f / 6.0f, tbMakeVec3( -1.0f, 0.0f, 0.0f ) );

	// Cap, straight down the axis: top at z = 1.5.
	ray = MakeRay( tbMakeVec3( 0.0f, 0.0f, 5.0f ), tbMakeVec3( 0.0f, 0.0f, -10.0f ), 1.0f );
	AssertHit( tbRayCastCapsule( &ray, &capsule ), &ray, 0.35f, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );

	// Cap, off axis by 0.3: the hemisphere is at z = 1 + sqrt(0.25 - 0.09) = 1.4.
	ray = MakeRay( tbMakeVec3( 0.3f, 0.0f, 5.0f ), tbMakeVec3( 0.0f, 0.0f, -10.0f ), 1.0f );
	AssertHit( tbRayCastCapsule( &ray, &capsule ), &ray, 0.36f, tbMakeVec3( 0.6f, 0.0f, 0.8f ) );

	// Beside the cap region, level with the hemisphere: x passes above the segment end.
	ray = MakeRay( tbMakeVec3( -3.0f, 0.0f, 1.3f ), tbMakeVec3( 6.0f, 0.0f, 0.0f ), 1.0f );
	float x = -sqrtf( 0.25f - 0.09f );
	AssertHit( tbRayCastCapsule( &ray, &capsule ), &ray, ( x + 3.0f ) / 6.0f, tbMakeVec3( 2.0f * x, 0.0f, 0.6f ) );

	// Misses and the start-inside case.
	ray = MakeRay( tbMakeVec3( -3.0f, 0.6f, 0.0f ), tbMakeVec3( 6.0f, 0.0f, 0.0f ), 1.0f );
	assert_false( tbRayCastCapsule( &ray, &capsule ).hit );
	ray = MakeRay( tbMakeVec3( -3.0f, 0.0f, 1.6f ), tbMakeVec3( 6.0f, 0.0f, 0.0f ), 1.0f );
	assert_false( tbRayCastCapsule( &ray, &capsule ).hit );
	ray = MakeRay( tbMakeVec3( 0.0f, 0.2f, 0.9f ), tbMakeVec3( 6.0f, 0.0f, 0.0f ), 1.0f );
	assert_false( tbRayCastCapsule( &ray, &capsule ).hit );
	ray = MakeRay( tbMakeVec3( -3.0f, 0.0f, 0.0f ), tbMakeVec3( 6.0f, 0.0f, 0.0f ), 0.4f );
	assert_false( tbRayCastCapsule( &ray, &capsule ).hit );

	// A tilted capsule: the same side hit seen in a rotated frame.
	tbQuat q = tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, 2.0f, -1.0f ) ), 1.1f );
	tbVec3 shift = { 2.0f, -1.0f, 0.5f };
	tbCapsule tilted = { tbAdd( tbRotate( q, capsule.center1 ), shift ), tbAdd( tbRotate( q, capsule.center2 ), shift ),
						 0.5f };
	ray = MakeRay( tbAdd( tbRotate( q, tbMakeVec3( -3.0f, 0.0f, 0.3f ) ), shift ),
				   tbRotate( q, tbMakeVec3( 6.0f, 0.0f, 0.0f ) ), 1.0f );
	AssertHit( tbRayCastCapsule( &ray, &tilted ), &ray, 2.5f / 6.0f, tbRotate( q, tbMakeVec3( -1.0f, 0.0f, 0.0f ) ) );
}

static void test_ray_cast_hull( void** state )
{
	(void)state;
	tbHull* box = tbMakeBoxHull( tbMakeVec3( 1.0f, 2.0f, 3.0f ), tb_transformIdentity );

	tbRayCastInput ray = MakeRay( tbMakeVec3( -5.0f, 0.5f, 0.5f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	AssertHit( tbRayCastHull( &ray, box ), &ray, 0.4f, tbMakeVec3( -1.0f, 0.0f, 0.0f ) );

	// Slanted ray onto the top face z = 3 from (0, 0, 8) towards (0.5, 0.5, -2).
	ray = MakeRay( tbMakeVec3( 0.0f, 0.0f, 8.0f ), tbMakeVec3( 0.5f, 0.5f, -10.0f ), 1.0f );
	AssertHit( tbRayCastHull( &ray, box ), &ray, 0.5f, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );

	ray = MakeRay( tbMakeVec3( -5.0f, 2.5f, 0.0f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	assert_false( tbRayCastHull( &ray, box ).hit );
	ray = MakeRay( tbMakeVec3( -5.0f, 0.0f, 0.0f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 0.35f );
	assert_false( tbRayCastHull( &ray, box ).hit );
	ray = MakeRay( tbMakeVec3( 0.2f, 0.1f, -0.3f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	assert_false( tbRayCastHull( &ray, box ).hit );
	ray = MakeRay( tbMakeVec3( -5.0f, 0.0f, 0.0f ), tbMakeVec3( -10.0f, 0.0f, 0.0f ), 1.0f );
	assert_false( tbRayCastHull( &ray, box ).hit );
	tbDestroyHull( box );

	// A cube turned 45 degrees about z and moved: ray along +x at y = 0.3 (relative) enters
	// through the face with normal (-1, 1, 0)/sqrt(2), where (-x + y) / sqrt(2) = 1.
	tbVec3 center = { 2.0f, 1.0f, 0.0f };
	tbTransform xf = { center, tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.25f * TB_PI ) };
	box = tbMakeBoxHull( tbMakeVec3( 1.0f, 1.0f, 1.0f ), xf );
	ray = MakeRay( tbAdd( center, tbMakeVec3( -5.0f, 0.3f, 0.2f ) ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), 1.0f );
	float hitX = 0.3f - sqrtf( 2.0f );
	tbVec3 n = tbMulSV( 1.0f / sqrtf( 2.0f ), tbMakeVec3( -1.0f, 1.0f, 0.0f ) );
	AssertHit( tbRayCastHull( &ray, box ), &ray, ( hitX + 5.0f ) / 10.0f, n );
	tbDestroyHull( box );

	// A computed hull: the tetrahedron's slanted face x + y + z = 1 hit along the diagonal.
	tbVec3 points[4] = { { 0.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f } };
	tbResult result;
	tbHull* tetra = tbComputeHull( points, 4, &result );
	ray = MakeRay( tbMakeVec3( 2.0f, 2.0f, 2.0f ), tbMakeVec3( -2.0f, -2.0f, -2.0f ), 1.0f );
	float d = 1.0f / sqrtf( 3.0f );
	// From 2 to 1/3 along each axis: fraction (2 - 1/3) / 2.
	AssertHit( tbRayCastHull( &ray, tetra ), &ray, ( 2.0f - 1.0f / 3.0f ) / 2.0f, tbMakeVec3( d, d, d ) );
	tbDestroyHull( tetra );
}

static void test_proxies( void** state )
{
	(void)state;
	tbSphere sphere = { { 1.0f, 2.0f, 3.0f }, 0.5f };
	tbShapeProxy proxy = tbMakeSphereProxy( &sphere );
	assert_int_equal( proxy.count, 1 );
	assert_float_equal( proxy.radius, 0.5f, 0.0f );
	assert_ptr_equal( proxy.points, &sphere.center );

	tbCapsule capsule = { { 0.0f, 0.0f, -1.0f }, { 0.0f, 0.0f, 1.0f }, 0.25f };
	proxy = tbMakeCapsuleProxy( &capsule );
	assert_int_equal( proxy.count, 2 );
	assert_float_equal( proxy.radius, 0.25f, 0.0f );
	AssertVecNear( proxy.points[0], capsule.center1, 0.0f );
	AssertVecNear( proxy.points[1], capsule.center2, 0.0f );

	tbHull* box = tbMakeBoxHull( tbMakeVec3( 1.0f, 1.0f, 1.0f ), tb_transformIdentity );
	proxy = tbMakeHullProxy( box );
	assert_int_equal( proxy.count, 8 );
	assert_float_equal( proxy.radius, 0.0f, 0.0f );
	assert_ptr_equal( proxy.points, box->vertices );
	tbDestroyHull( box );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_make_box_hull ),
		cmocka_unit_test( test_make_box_hull_transformed ),
		cmocka_unit_test( test_compute_box_with_interior_and_duplicates ),
		cmocka_unit_test( test_compute_box_with_face_centres_and_jitter ),
		cmocka_unit_test( test_compute_box_from_face_samples ),
		cmocka_unit_test( test_box_scales ),
		cmocka_unit_test( test_hull_size_limits ),
		cmocka_unit_test( test_tetrahedron ),
		cmocka_unit_test( test_octahedron ),
		cmocka_unit_test( test_sphere_clouds ),
		cmocka_unit_test( test_random_cloud_stress ),
		cmocka_unit_test( test_degenerate_input ),
		cmocka_unit_test( test_thin_slivers ),
		cmocka_unit_test( test_clone_hull ),
		cmocka_unit_test( test_validate_rejects_broken_hulls ),
		cmocka_unit_test( test_one_allocation_per_hull ),
		cmocka_unit_test( test_aabbs ),
		cmocka_unit_test( test_ray_cast_sphere ),
		cmocka_unit_test( test_ray_cast_capsule ),
		cmocka_unit_test( test_ray_cast_hull ),
		cmocka_unit_test( test_proxies ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
