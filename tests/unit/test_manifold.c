// Unit tests of the contact manifolds (manifold.c). Every expectation is derived from the geometry
// of the scene (corner coordinates, gaps, distances between centres), with tolerances in metres.
// SPDX-License-Identifier: MIT
#include "tumble/collision.h"

// cmocka needs these before its header.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>

// Positions and separations: the brief's 0.1 mm.
#define POS_TOL 1.0e-4f
// Unit normals.
#define DIR_TOL 1.0e-4f

#define SPEC TB_SPECULATIVE_DISTANCE

static tbTransform makeXf( float x, float y, float z, tbQuat q )
{
	return tbMakeTransform( tbMakeVec3( x, y, z ), q );
}

static tbQuat axisAngle( float x, float y, float z, float angle )
{
	return tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( x, y, z ) ), angle );
}

static void assertVecNear( tbVec3 actual, tbVec3 expected, float tolerance )
{
	assert_float_equal( actual.x, expected.x, tolerance );
	assert_float_equal( actual.y, expected.y, tolerance );
	assert_float_equal( actual.z, expected.z, tolerance );
}

// Every point: anchors relative to the body origins, solver fields zero, unit normal.
static void assertWellFormed( const tbManifold* m, tbTransform xfA, tbTransform xfB )
{
	assert_true( m->pointCount >= 0 && m->pointCount <= TB_MAX_MANIFOLD_POINTS );
	if ( m->pointCount > 0 )
	{
		assert_float_equal( tbLength( m->normal ), 1.0f, DIR_TOL );
	}
	for ( int i = 0; i < m->pointCount; ++i )
	{
		const tbManifoldPoint* mp = m->points + i;
		assertVecNear( mp->anchorA, tbSub( mp->point, xfA.p ), 1.0e-6f );
		assertVecNear( mp->anchorB, tbSub( mp->point, xfB.p ), 1.0e-6f );
		assert_true( mp->separation < SPEC );
		assert_true( mp->normalImpulse == 0.0f && mp->tangentImpulse[0] == 0.0f && mp->tangentImpulse[1] == 0.0f );
		assert_true( mp->maxNormalImpulse == 0.0f && mp->normalVelocity == 0.0f && mp->persisted == false );
		for ( int j = 0; j < i; ++j )
		{
			assert_true( m->points[j].id != mp->id );
		}
	}
}

// Index of the manifold point within tolerance of expected, or fail.
static int findPoint( const tbManifold* m, tbVec3 expected, float tolerance )
{
	for ( int i = 0; i < m->pointCount; ++i )
	{
		if ( tbDistance( m->points[i].point, expected ) <= tolerance )
		{
			return i;
		}
	}
	fprintf( stderr, "no manifold point near (%g %g %g); points:\n", (double)expected.x, (double)expected.y,
			 (double)expected.z );
	for ( int i = 0; i < m->pointCount; ++i )
	{
		fprintf( stderr, "  (%g %g %g) sep %g\n", (double)m->points[i].point.x, (double)m->points[i].point.y,
				 (double)m->points[i].point.z, (double)m->points[i].separation );
	}
	fail();
	return -1;
}

static void assertPoint( const tbManifold* m, tbVec3 expected, float separation )
{
	int i = findPoint( m, expected, POS_TOL );
	assert_float_equal( m->points[i].separation, separation, POS_TOL );
}

// The manifold of (B, A) is the mirror of (A, B): opposite normal, same points and separations.
static void assertSwapMirrors( const tbManifold* ab, const tbManifold* ba )
{
	assert_int_equal( ab->pointCount, ba->pointCount );
	if ( ab->pointCount > 0 )
	{
		assertVecNear( ba->normal, tbNeg( ab->normal ), DIR_TOL );
	}
	for ( int i = 0; i < ab->pointCount; ++i )
	{
		int j = findPoint( ba, ab->points[i].point, 1.0e-3f );
		assert_float_equal( ba->points[j].separation, ab->points[i].separation, POS_TOL );
	}
}

// Fixtures -----------------------------------------------------------------------------------------

typedef struct Hulls
{
	tbHull* ground; // 20 x 20 x 0.5 half extents, top face at z = 0 when placed at z = -0.5
	tbHull* box;	// unit cube (half extent 0.5)
	tbHull* small;	// half extent 0.25
	tbHull* big;	// half extent 1
	tbHull* octahedron;
} Hulls;

static int setupHulls( void** state )
{
	static Hulls hulls;
	hulls.ground = tbMakeBoxHull( tbMakeVec3( 20.0f, 20.0f, 0.5f ), tb_transformIdentity );
	hulls.box = tbMakeBoxHull( tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity );
	hulls.small = tbMakeBoxHull( tbMakeVec3( 0.25f, 0.25f, 0.25f ), tb_transformIdentity );
	hulls.big = tbMakeBoxHull( tbMakeVec3( 1.0f, 1.0f, 1.0f ), tb_transformIdentity );
	tbVec3 octa[6] = {
		{ 1.0f, 0.0f, 0.0f },  { -1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f },
		{ 0.0f, -1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f },  { 0.0f, 0.0f, -1.0f },
	};
	tbResult result = tbResult_ok;
	hulls.octahedron = tbComputeHull( octa, 6, &result );
	if ( hulls.ground == NULL || hulls.box == NULL || hulls.small == NULL || hulls.big == NULL ||
		 hulls.octahedron == NULL )
	{
		return -1;
	}
	*state = &hulls;
	return 0;
}

static int teardownHulls( void** state )
{
	Hulls* hulls = *state;
	tbDestroyHull( hulls->ground );
	tbDestroyHull( hulls->box );
	tbDestroyHull( hulls->small );
	tbDestroyHull( hulls->big );
	tbDestroyHull( hulls->octahedron );
	return 0;
}

static const tbVec3 s_up = { 0.0f, 0.0f, 1.0f };

// Box on box -------------------------------------------------------------------------------------

// A unit cube on the ground: the 4 bottom corners at z = 0, on the very first call.
static void testBoxOnGround( void** state )
{
	Hulls* h = *state;
	tbTransform xfG = makeXf( 0.0f, 0.0f, -0.5f, tb_quatIdentity );
	const float gaps[2] = { 0.0f, -0.01f };
	for ( int g = 0; g < 2; ++g )
	{
		float gap = gaps[g];
		tbTransform xfBox = makeXf( 3.0f, -2.0f, 0.5f + gap, tb_quatIdentity );
		tbManifold m = tbCollideHulls( h->ground, xfG, h->box, xfBox, SPEC, NULL );
		assertWellFormed( &m, xfG, xfBox );
		assert_int_equal( m.pointCount, 4 );
		assertVecNear( m.normal, s_up, DIR_TOL );
		// Midway between the ground top (z = 0) and the box bottom (z = gap).
		for ( int i = 0; i < 4; ++i )
		{
			float x = 3.0f + ( ( i & 1 ) ? 0.5f : -0.5f );
			float y = -2.0f + ( ( i & 2 ) ? 0.5f : -0.5f );
			assertPoint( &m, tbMakeVec3( x, y, 0.5f * gap ), gap );
		}

		tbManifold swapped = tbCollideHulls( h->box, xfBox, h->ground, xfG, SPEC, NULL );
		assertWellFormed( &swapped, xfBox, xfG );
		assertSwapMirrors( &m, &swapped );
	}
}

// Turned 45 deg about z, the bottom corners lie on the axes at distance sqrt(0.5).
static void testBoxRotatedOnGround( void** state )
{
	Hulls* h = *state;
	tbTransform xfG = makeXf( 0.0f, 0.0f, -0.5f, tb_quatIdentity );
	tbTransform xfBox = makeXf( 0.0f, 0.0f, 0.5f - 0.004f, axisAngle( 0, 0, 1, 0.25f * TB_PI ) );
	tbManifold m = tbCollideHulls( h->ground, xfG, h->box, xfBox, SPEC, NULL );
	assertWellFormed( &m, xfG, xfBox );
	assert_int_equal( m.pointCount, 4 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	float r = sqrtf( 0.5f );
	assertPoint( &m, tbMakeVec3( r, 0.0f, -0.002f ), -0.004f );
	assertPoint( &m, tbMakeVec3( -r, 0.0f, -0.002f ), -0.004f );
	assertPoint( &m, tbMakeVec3( 0.0f, r, -0.002f ), -0.004f );
	assertPoint( &m, tbMakeVec3( 0.0f, -r, -0.002f ), -0.004f );
}

// A small cube centred on a big cube's top face: the small cube's corners. Both orders.
static void testSmallBoxOnBigBox( void** state )
{
	Hulls* h = *state;
	tbTransform xfBig = makeXf( 1.0f, 2.0f, 1.0f, tb_quatIdentity );
	tbTransform xfSmall = makeXf( 1.0f, 2.0f, 2.0f + 0.25f - 0.002f, tb_quatIdentity );
	tbManifold m = tbCollideHulls( h->big, xfBig, h->small, xfSmall, SPEC, NULL );
	assertWellFormed( &m, xfBig, xfSmall );
	assert_int_equal( m.pointCount, 4 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	for ( int i = 0; i < 4; ++i )
	{
		float x = 1.0f + ( ( i & 1 ) ? 0.25f : -0.25f );
		float y = 2.0f + ( ( i & 2 ) ? 0.25f : -0.25f );
		assertPoint( &m, tbMakeVec3( x, y, 2.0f - 0.001f ), -0.002f );
	}
	tbManifold swapped = tbCollideHulls( h->small, xfSmall, h->big, xfBig, SPEC, NULL );
	assertWellFormed( &swapped, xfSmall, xfBig );
	assertSwapMirrors( &m, &swapped );

	// Big box on top of the small one: the contact patch is the small box's top face.
	tbTransform xfSmall2 = makeXf( 0.0f, 0.0f, 0.25f, tb_quatIdentity );
	tbTransform xfBig2 = makeXf( 0.1f, -0.2f, 0.5f + 1.0f, tb_quatIdentity );
	m = tbCollideHulls( h->small, xfSmall2, h->big, xfBig2, SPEC, NULL );
	assertWellFormed( &m, xfSmall2, xfBig2 );
	assert_int_equal( m.pointCount, 4 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	for ( int i = 0; i < 4; ++i )
	{
		assertPoint( &m, tbMakeVec3( ( i & 1 ) ? 0.25f : -0.25f, ( i & 2 ) ? 0.25f : -0.25f, 0.5f ), 0.0f );
	}
}

// Tilted 45 deg about x: the cube rests on its bottom edge along x, 2 points at the edge ends.
static void testBoxOnEdge( void** state )
{
	Hulls* h = *state;
	tbTransform xfG = makeXf( 0.0f, 0.0f, -0.5f, tb_quatIdentity );
	float depth = 0.005f;
	tbTransform xfBox = makeXf( 0.0f, 0.0f, sqrtf( 0.5f ) - depth, axisAngle( 1, 0, 0, 0.25f * TB_PI ) );
	tbManifold m = tbCollideHulls( h->ground, xfG, h->box, xfBox, SPEC, NULL );
	assertWellFormed( &m, xfG, xfBox );
	assert_int_equal( m.pointCount, 2 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( 0.5f, 0.0f, -0.5f * depth ), -depth );
	assertPoint( &m, tbMakeVec3( -0.5f, 0.0f, -0.5f * depth ), -depth );

	tbManifold swapped = tbCollideHulls( h->box, xfBox, h->ground, xfG, SPEC, NULL );
	assertWellFormed( &swapped, xfBox, xfG );
	assertSwapMirrors( &m, &swapped );
}

// A body diagonal pointing straight down: the corner is the only point, sqrt(3)/2 below the centre.
static void testBoxOnCorner( void** state )
{
	Hulls* h = *state;
	tbTransform xfG = makeXf( 0.0f, 0.0f, -0.5f, tb_quatIdentity );
	tbQuat q = tbQuatFromTo( tbNormalize( tbMakeVec3( -1.0f, -1.0f, -1.0f ) ), tbMakeVec3( 0.0f, 0.0f, -1.0f ) );
	float depth = 0.02f;
	tbTransform xfBox = makeXf( 0.3f, 0.4f, 0.5f * sqrtf( 3.0f ) - depth, q );
	tbManifold m = tbCollideHulls( h->ground, xfG, h->box, xfBox, SPEC, NULL );
	assertWellFormed( &m, xfG, xfBox );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( 0.3f, 0.4f, -0.5f * depth ), -depth );

	tbManifold swapped = tbCollideHulls( h->box, xfBox, h->ground, xfG, SPEC, NULL );
	assertWellFormed( &swapped, xfBox, xfG );
	assertSwapMirrors( &m, &swapped );
}

// A's top edge along x (cube turned 45 deg about x) crossed by B's bottom edge along y (turned
// 45 deg about y): one point at the crossing, normal +z, depth = overlap of the edges.
static void testEdgeEdgeCrossing( void** state )
{
	Hulls* h = *state;
	float ridge = sqrtf( 0.5f ); // centre to edge distance of a unit cube
	float depth = 0.01f;
	tbTransform xfA = makeXf( 0.0f, 0.0f, 0.0f, axisAngle( 1, 0, 0, 0.25f * TB_PI ) );
	tbTransform xfB = makeXf( 0.0f, 0.0f, 2.0f * ridge - depth, axisAngle( 0, 1, 0, 0.25f * TB_PI ) );
	tbManifold m = tbCollideHulls( h->box, xfA, h->box, xfB, SPEC, NULL );
	assertWellFormed( &m, xfA, xfB );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( 0.0f, 0.0f, ridge - 0.5f * depth ), -depth );

	tbManifold swapped = tbCollideHulls( h->box, xfB, h->box, xfA, SPEC, NULL );
	assertWellFormed( &swapped, xfB, xfA );
	assertSwapMirrors( &m, &swapped );

	// Slightly apart (within the speculative distance): one speculative point.
	xfB.p.z = 2.0f * ridge + 0.01f;
	m = tbCollideHulls( h->box, xfA, h->box, xfB, SPEC, NULL );
	assert_int_equal( m.pointCount, 1 );
	assertPoint( &m, tbMakeVec3( 0.0f, 0.0f, ridge + 0.005f ), 0.01f );
}

// Gaps inside and outside the speculative distance.
static void testSpeculative( void** state )
{
	Hulls* h = *state;
	tbTransform xfG = makeXf( 0.0f, 0.0f, -0.5f, tb_quatIdentity );
	tbSATCache cache = { 0 };

	tbTransform xfBox = makeXf( 0.0f, 0.0f, 0.5f + 0.01f, tb_quatIdentity );
	tbManifold m = tbCollideHulls( h->ground, xfG, h->box, xfBox, SPEC, &cache );
	assertWellFormed( &m, xfG, xfBox );
	assert_int_equal( m.pointCount, 4 );
	for ( int i = 0; i < 4; ++i )
	{
		assert_float_equal( m.points[i].separation, 0.01f, POS_TOL );
	}

	xfBox.p.z = 0.5f + 0.05f;
	m = tbCollideHulls( h->ground, xfG, h->box, xfBox, SPEC, &cache );
	assert_int_equal( m.pointCount, 0 );
	assert_true( cache.separation > SPEC );
	// The cached axis is reused on the next call; the answer must not change.
	m = tbCollideHulls( h->ground, xfG, h->box, xfBox, SPEC, &cache );
	assert_int_equal( m.pointCount, 0 );
	// Moved back into contact with a stale cache: the cached axis no longer separates.
	xfBox.p.z = 0.5f - 0.003f;
	m = tbCollideHulls( h->ground, xfG, h->box, xfBox, SPEC, &cache );
	assert_int_equal( m.pointCount, 4 );
	for ( int i = 0; i < 4; ++i )
	{
		assert_float_equal( m.points[i].separation, -0.003f, POS_TOL );
	}

	// Separated along a side axis only (boxes side by side, 5 cm apart): nothing.
	tbTransform xfA = makeXf( 0.0f, 0.0f, 0.0f, tb_quatIdentity );
	tbTransform xfB = makeXf( 1.05f, 0.2f, 0.1f, axisAngle( 0, 0, 1, 0.0f ) );
	m = tbCollideHulls( h->box, xfA, h->box, xfB, SPEC, NULL );
	assert_int_equal( m.pointCount, 0 );
}

// Deterministic jitter: uniform in [-1, 1].
static float jitterValue( uint32_t* seed )
{
	*seed = *seed * 1664525u + 1013904223u;
	return (float)( *seed >> 8 ) / (float)( 1u << 24 ) * 2.0f - 1.0f;
}

// Transform perturbed by up to 1 mm per axis and 0.5 deg about a random axis.
static tbTransform jitter( tbTransform xf, uint32_t* seed )
{
	tbVec3 dp = tbMakeVec3( jitterValue( seed ), jitterValue( seed ), jitterValue( seed ) );
	tbVec3 axis = tbNormalize( tbMakeVec3( jitterValue( seed ), jitterValue( seed ), jitterValue( seed ) ) );
	float angle = jitterValue( seed ) * 0.5f * TB_PI / 180.0f;
	xf.p = tbMulAdd( xf.p, 0.001f, dp );
	xf.q = tbNormalizeQ( tbMulQQ( tbMakeQuatAxisAngle( axis, angle ), xf.q ) );
	return xf;
}

static tbQuat randomQuat( uint32_t* seed )
{
	tbQuat q = tbMakeQuat( jitterValue( seed ), jitterValue( seed ), jitterValue( seed ), jitterValue( seed ) );
	return tbNormalizeQ( q );
}

static bool hasId( const tbManifold* m, uint32_t id )
{
	for ( int i = 0; i < m->pointCount; ++i )
	{
		if ( m->points[i].id == id )
		{
			return true;
		}
	}
	return false;
}

// Ids of a resting pair must not change under small motion, or warm starting is lost.
static void checkIdsStable( const tbHull* lower, tbTransform xfLower, const tbHull* upper, tbTransform xfUpper,
							bool jitterLower )
{
	tbManifold reference = tbCollideHulls( lower, xfLower, upper, xfUpper, SPEC, NULL );
	assert_int_equal( reference.pointCount, 4 );
	uint32_t seed = 12345u;
	tbSATCache cache = { 0 };
	for ( int step = 0; step < 200; ++step )
	{
		tbTransform a = jitterLower ? jitter( xfLower, &seed ) : xfLower;
		tbTransform b = jitter( xfUpper, &seed );
		// With and without the SAT cache.
		tbManifold m = tbCollideHulls( lower, a, upper, b, SPEC, ( step & 1 ) ? &cache : NULL );
		assertWellFormed( &m, a, b );
		assert_int_equal( m.pointCount, 4 );
		assert_true( tbDot( m.normal, s_up ) > 0.999f );
		for ( int i = 0; i < 4; ++i )
		{
			if ( hasId( &m, reference.points[i].id ) == false )
			{
				fprintf( stderr, "step %d: id of reference point %d lost\n", step, i );
				fail();
			}
		}
	}
}

static void testIdsStableBoxOnGround( void** state )
{
	Hulls* h = *state;
	checkIdsStable( h->ground, makeXf( 0.0f, 0.0f, -0.5f, tb_quatIdentity ), h->box,
					makeXf( 0.2f, 0.1f, 0.5f, tb_quatIdentity ), false );
}

// Two equal cubes stacked flush: every incident corner lies on a reference side plane, the hard
// case for clipping. Both cubes jitter; the upper one is seated 5 mm deep so a corner lifted by the
// combined tilt (up to ~1 deg over a 1.4 m diagonal) stays inside the speculative distance.
static void testIdsStableEqualBoxes( void** state )
{
	Hulls* h = *state;
	checkIdsStable( h->box, makeXf( 0.0f, 0.0f, 0.5f, tb_quatIdentity ), h->box,
					makeXf( 0.0f, 0.0f, 1.5f - 0.005f, tb_quatIdentity ), true );
}

// Box on box turned 45 deg about z: the clipped octagon is reduced to 4 points spanning the
// largest area (every other octagon vertex), all at the same depth.
static void testReductionOctagon( void** state )
{
	Hulls* h = *state;
	tbTransform xfA = makeXf( 0.0f, 0.0f, 0.5f, tb_quatIdentity );
	tbTransform xfB = makeXf( 0.0f, 0.0f, 1.5f - 0.003f, axisAngle( 0, 0, 1, 0.25f * TB_PI ) );
	tbManifold m = tbCollideHulls( h->box, xfA, h->box, xfB, SPEC, NULL );
	assertWellFormed( &m, xfA, xfB );
	assert_int_equal( m.pointCount, 4 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	// Octagon vertices are at distance 0.5 / cos(22.5 deg) from the axis; the 4 kept points span
	// a square of that circumradius, so each pair of opposite points is 2 r apart.
	float r = 0.5f / cosf( TB_PI / 8.0f );
	float diameter = 0.0f;
	for ( int i = 0; i < 4; ++i )
	{
		tbVec3 p = m.points[i].point;
		assert_float_equal( sqrtf( p.x * p.x + p.y * p.y ), r, 1.0e-3f );
		assert_float_equal( p.z, 1.0f - 0.0015f, POS_TOL );
		assert_float_equal( m.points[i].separation, -0.003f, POS_TOL );
		for ( int j = 0; j < i; ++j )
		{
			diameter = tbMaxFloat( diameter, tbDistance( p, m.points[j].point ) );
		}
	}
	assert_float_equal( diameter, 2.0f * r, 1.0e-3f );
}

// A rigid motion applied to a whole configuration: the pair's transforms and the expected contact
// move with it.
static tbTransform moveXf( tbTransform motion, tbTransform xf )
{
	return tbMakeTransform( tbTransformPoint( motion, xf.p ), tbNormalizeQ( tbMulQQ( motion.q, xf.q ) ) );
}

// Edge-edge crossings of random boxes, anywhere within 200 m of the origin. A is turned by theta
// about x, so its top edge is the ridge (x, eA.y, eA.z) along x; B is turned by phi about y and
// psi about z, so its bottom edge (eB.x, y, -eB.z) runs horizontally at psi to the y axis. B's
// ridge passes depth below A's ridge (depth < 0: a gap within the speculative distance): one point
// at the crossing, midway, normal up. Both ridges reach at least 0.2 m past the crossing and both
// boxes are tilted by 35 to 55 deg, so along any face normal the overlap is at least
// 0.2 sin(35 deg) cos(45 deg) = 8 cm: the edge axis is the only answer.
static void testRandomEdgeCrossings( void** state )
{
	(void)state;
	uint32_t seed = 31337u;
	const float degree = TB_PI / 180.0f;
	for ( int trial = 0; trial < 500; ++trial )
	{
		tbVec3 eA = tbMakeVec3( 1.2f + 0.8f * jitterValue( &seed ), 1.2f + 0.8f * jitterValue( &seed ),
								1.2f + 0.8f * jitterValue( &seed ) );
		tbVec3 eB = tbMakeVec3( 1.2f + 0.8f * jitterValue( &seed ), 1.2f + 0.8f * jitterValue( &seed ),
								1.2f + 0.8f * jitterValue( &seed ) );
		float theta = ( 45.0f + 10.0f * jitterValue( &seed ) ) * degree;
		float phi = ( 45.0f + 10.0f * jitterValue( &seed ) ) * degree;
		float psi = 45.0f * jitterValue( &seed ) * degree;
		float depth = 0.0025f + 0.0175f * jitterValue( &seed );
		float s = 0.5f * eA.x * jitterValue( &seed );
		float t = 0.5f * eB.y * jitterValue( &seed );

		tbHull* boxA = tbMakeBoxHull( eA, tb_transformIdentity );
		tbHull* boxB = tbMakeBoxHull( eB, tb_transformIdentity );
		assert_non_null( boxA );
		assert_non_null( boxB );

		tbTransform xfA = makeXf( 0.0f, 0.0f, 0.0f, axisAngle( 1, 0, 0, theta ) );
		tbQuat qB = tbMulQQ( axisAngle( 0, 0, 1, psi ), axisAngle( 0, 1, 0, phi ) );
		tbVec3 crossing = tbRotate( xfA.q, tbMakeVec3( s, eA.y, eA.z ) );
		tbVec3 ridgeB = tbRotate( qB, tbMakeVec3( eB.x, t, -eB.z ) );
		tbTransform xfB = tbMakeTransform( tbSub( tbMulSub( crossing, depth, s_up ), ridgeB ), qB );
		tbVec3 expected = tbMulSub( crossing, 0.5f * depth, s_up );

		float reach = trial < 100 ? 5.0f : 200.0f;
		tbTransform motion = makeXf( reach * jitterValue( &seed ), reach * jitterValue( &seed ),
									 reach * jitterValue( &seed ), randomQuat( &seed ) );
		xfA = moveXf( motion, xfA );
		xfB = moveXf( motion, xfB );
		expected = tbTransformPoint( motion, expected );
		tbVec3 normal = tbRotate( motion.q, s_up );
		// Coordinates of up to 350 m carry about 3e-5 m of float resolution.
		float tolerance = POS_TOL + 2.0e-6f * tbLength( motion.p );

		tbManifold m = tbCollideHulls( boxA, xfA, boxB, xfB, SPEC, NULL );
		assertWellFormed( &m, xfA, xfB );
		assert_int_equal( m.pointCount, 1 );
		assertVecNear( m.normal, normal, DIR_TOL );
		assertVecNear( m.points[0].point, expected, tolerance );
		assert_float_equal( m.points[0].separation, -depth, tolerance );

		tbManifold swapped = tbCollideHulls( boxB, xfB, boxA, xfA, SPEC, NULL );
		assertWellFormed( &swapped, xfB, xfA );
		assert_int_equal( swapped.pointCount, 1 );
		assertVecNear( swapped.normal, tbNeg( normal ), DIR_TOL );
		assertVecNear( swapped.points[0].point, expected, tolerance );

		tbDestroyHull( boxA );
		tbDestroyHull( boxB );
	}
}

// Boxes resting on boxes far from the origin and turned about the vertical by 0.2 to 0.5 deg, so
// two pairs of edges are nearly parallel (on both sides of the SAT's parallel cutoff, a sine of
// 0.005 = 0.29 deg): still 4 points at the upper box's bottom corners, with and without the SAT
// cache, as the pair wobbles by 0.1 mm. A unit cube on a 400 m slab (top face at z = 0) 190 m
// from the origin, and a 5 cm cube on a unit cube 100 m out.
static void testNearlyParallelStacksFarOut( void** state )
{
	(void)state;
	tbHull* slab = tbMakeBoxHull( tbMakeVec3( 200.0f, 200.0f, 1.0f ), tb_transformIdentity );
	tbHull* unit = tbMakeBoxHull( tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity );
	tbHull* tiny = tbMakeBoxHull( tbMakeVec3( 0.025f, 0.025f, 0.025f ), tb_transformIdentity );
	assert_non_null( slab );
	assert_non_null( unit );
	assert_non_null( tiny );

	const float yaws[4] = { 0.2f, 0.25f, 0.35f, 0.5f };
	for ( int k = 0; k < 8; ++k )
	{
		float yaw = ( k & 1 ? -1.0f : 1.0f ) * yaws[k / 2] * TB_PI / 180.0f;
		const tbHull* lower = slab;
		const tbHull* upper = unit;
		tbTransform xfLower = makeXf( 0.0f, 0.0f, -1.0f, tb_quatIdentity );
		tbVec3 top = tbMakeVec3( 150.0f, -110.0f, 0.0f );
		float half = 0.5f;
		if ( k >= 4 )
		{
			lower = unit;
			upper = tiny;
			xfLower = makeXf( 60.0f, 70.0f, 40.0f, axisAngle( 0, 0, 1, 0.3f ) );
			top = tbMakeVec3( 60.0f, 70.0f, 40.5f );
			half = 0.025f;
		}
		float depth = 0.001f;
		tbSATCache cache = { 0 };
		for ( int step = 0; step < 6; ++step )
		{
			float wobble = 1.0e-4f * (float)( step % 3 );
			tbQuat q = tbMulQQ( xfLower.q, axisAngle( 0, 0, 1, yaw ) );
			tbVec3 centre = tbAdd( top, tbMakeVec3( wobble, -wobble, half - depth ) );
			tbTransform xfUpper = tbMakeTransform( centre, q );
			tbManifold m = tbCollideHulls( lower, xfLower, upper, xfUpper, SPEC, ( step & 1 ) ? &cache : NULL );
			assertWellFormed( &m, xfLower, xfUpper );
			assert_int_equal( m.pointCount, 4 );
			assertVecNear( m.normal, s_up, DIR_TOL );
			float tolerance = POS_TOL + 2.0e-6f * tbLength( centre );
			for ( int i = 0; i < 4; ++i )
			{
				tbVec3 corner = tbMakeVec3( ( i & 1 ) ? half : -half, ( i & 2 ) ? half : -half, -half );
				tbVec3 p = tbTransformPoint( xfUpper, corner );
				p.z = top.z - 0.5f * depth;
				int j = findPoint( &m, p, tolerance );
				assert_float_equal( m.points[j].separation, -depth, tolerance );
			}
		}
	}
	tbDestroyHull( slab );
	tbDestroyHull( unit );
	tbDestroyHull( tiny );
}

// Spheres -----------------------------------------------------------------------------------------

static void testSpheres( void** state )
{
	(void)state;
	tbSphere a = { { 0.0f, 0.0f, 0.0f }, 0.5f };
	tbSphere b = { { 0.1f, 0.0f, 0.0f }, 0.4f };
	tbTransform xfA = makeXf( 1.0f, 1.0f, 1.0f, axisAngle( 0, 1, 0, 0.3f ) );
	tbTransform xfB = makeXf( 1.8f, 1.0f, 1.0f, tb_quatIdentity );
	// Centres 0.9 apart along x, radii sum 0.9: touching. Sphere B's centre is at x = 1.9.
	tbManifold m = tbCollideSpheres( &a, xfA, &b, xfB, SPEC );
	assertWellFormed( &m, xfA, xfB );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, tbMakeVec3( 1.0f, 0.0f, 0.0f ), DIR_TOL );
	assertPoint( &m, tbMakeVec3( 1.5f, 1.0f, 1.0f ), 0.0f );

	xfB.p.x = 1.7f;
	m = tbCollideSpheres( &a, xfA, &b, xfB, SPEC );
	assertPoint( &m, tbMakeVec3( 1.45f, 1.0f, 1.0f ), -0.1f );
	tbManifold swapped = tbCollideSpheres( &b, xfB, &a, xfA, SPEC );
	assertSwapMirrors( &m, &swapped );

	xfB.p.x = 1.8f + 0.015f;
	m = tbCollideSpheres( &a, xfA, &b, xfB, SPEC );
	assert_int_equal( m.pointCount, 1 );
	assert_float_equal( m.points[0].separation, 0.015f, POS_TOL );
	xfB.p.x = 1.8f + 0.03f;
	m = tbCollideSpheres( &a, xfA, &b, xfB, SPEC );
	assert_int_equal( m.pointCount, 0 );
}

// Sphere against a unit cube (half extent 0.5) at the origin: face, edge, corner, centre inside.
static void testSphereAndBox( void** state )
{
	Hulls* h = *state;
	tbTransform xfBox = tb_transformIdentity;
	tbSphere s = { { 0.0f, 0.0f, 0.0f }, 0.25f };

	// Face: centre 0.24 above the top face.
	tbTransform xfS = makeXf( 0.1f, 0.2f, 0.74f, tb_quatIdentity );
	tbManifold m = tbCollideHullAndSphere( h->box, xfBox, &s, xfS, SPEC );
	assertWellFormed( &m, xfBox, xfS );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( 0.1f, 0.2f, 0.495f ), -0.01f );

	// Edge along y at (0.5, *, 0.5): distance from (0.6, 0.1, 0.6) is 0.1 sqrt(2).
	s.radius = 0.2f;
	xfS = makeXf( 0.6f, 0.1f, 0.6f, tb_quatIdentity );
	m = tbCollideHullAndSphere( h->box, xfBox, &s, xfS, SPEC );
	assertWellFormed( &m, xfBox, xfS );
	assert_int_equal( m.pointCount, 1 );
	tbVec3 n = tbNormalize( tbMakeVec3( 1.0f, 0.0f, 1.0f ) );
	assertVecNear( m.normal, n, DIR_TOL );
	float sep = 0.1f * sqrtf( 2.0f ) - 0.2f;
	assertPoint( &m, tbMulAdd( tbMakeVec3( 0.5f, 0.1f, 0.5f ), 0.5f * sep, n ), sep );

	// Corner (0.5, 0.5, 0.5): distance from (0.6, 0.6, 0.6) is 0.1 sqrt(3).
	xfS = makeXf( 0.6f, 0.6f, 0.6f, tb_quatIdentity );
	m = tbCollideHullAndSphere( h->box, xfBox, &s, xfS, SPEC );
	assert_int_equal( m.pointCount, 1 );
	n = tbNormalize( tbMakeVec3( 1.0f, 1.0f, 1.0f ) );
	assertVecNear( m.normal, n, DIR_TOL );
	sep = 0.1f * sqrtf( 3.0f ) - 0.2f;
	assertPoint( &m, tbMulAdd( tbMakeVec3( 0.5f, 0.5f, 0.5f ), 0.5f * sep, n ), sep );

	// Centre inside, 0.1 below the top face (the nearest face): pushed out along +z.
	xfS = makeXf( 0.1f, 0.0f, 0.4f, tb_quatIdentity );
	m = tbCollideHullAndSphere( h->box, xfBox, &s, xfS, SPEC );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	// Hull surface at z = 0.5, sphere's far surface along -n at z = 0.2: separation -0.3.
	assertPoint( &m, tbMakeVec3( 0.1f, 0.0f, 0.35f ), -0.3f );

	// Outside the speculative distance off a corner (0.1 sqrt(3) - 0.15 = 0.023 > 0.02).
	s.radius = 0.15f;
	xfS = makeXf( 0.6f, 0.6f, 0.6f, tb_quatIdentity );
	m = tbCollideHullAndSphere( h->box, xfBox, &s, xfS, SPEC );
	assert_int_equal( m.pointCount, 0 );

	// A rotated, offset box: the sphere rests on the face whose normal is the box's rotated +z.
	tbQuat q = axisAngle( 1, 2, 3, 0.7f );
	xfBox = makeXf( -1.0f, 2.0f, 0.5f, q );
	tbVec3 up = tbRotate( q, s_up );
	s.radius = 0.3f;
	xfS = makeXf( 0.0f, 0.0f, 0.0f, tb_quatIdentity );
	xfS.p = tbAdd( xfBox.p, tbMulSV( 0.5f + 0.3f - 0.02f, up ) );
	m = tbCollideHullAndSphere( h->box, xfBox, &s, xfS, SPEC );
	assertWellFormed( &m, xfBox, xfS );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, up, DIR_TOL );
	assertPoint( &m, tbMulAdd( xfBox.p, 0.49f, up ), -0.02f );
}

// Capsules ----------------------------------------------------------------------------------------

static void testCapsuleAndSphere( void** state )
{
	(void)state;
	tbCapsule c = { { -1.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f }, 0.2f };
	tbSphere s = { { 0.0f, 0.0f, 0.0f }, 0.3f };
	tbTransform xfC = tb_transformIdentity;
	// Above the segment's interior: normal +z, closest core point (0.4, 0, 0).
	tbTransform xfS = makeXf( 0.4f, 0.0f, 0.49f, tb_quatIdentity );
	tbManifold m = tbCollideCapsuleAndSphere( &c, xfC, &s, xfS, SPEC );
	assertWellFormed( &m, xfC, xfS );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( 0.4f, 0.0f, 0.195f ), -0.01f );

	// Beyond the end cap along the axis.
	xfS = makeXf( 1.45f, 0.0f, 0.0f, tb_quatIdentity );
	m = tbCollideCapsuleAndSphere( &c, xfC, &s, xfS, SPEC );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, tbMakeVec3( 1.0f, 0.0f, 0.0f ), DIR_TOL );
	assertPoint( &m, tbMakeVec3( 1.175f, 0.0f, 0.0f ), -0.05f );

	xfS = makeXf( 0.0f, 0.53f, 0.0f, tb_quatIdentity );
	m = tbCollideCapsuleAndSphere( &c, xfC, &s, xfS, SPEC );
	assert_int_equal( m.pointCount, 0 );
}

static void testCapsules( void** state )
{
	(void)state;
	tbCapsule a = { { -0.5f, 0.0f, 0.0f }, { 0.5f, 0.0f, 0.0f }, 0.1f };
	tbCapsule alongY = { { 0.0f, -0.5f, 0.0f }, { 0.0f, 0.5f, 0.0f }, 0.1f };
	tbTransform xfA = tb_transformIdentity;

	// Parallel, B shifted by 0.3 along x: overlap x in [-0.2, 0.5], two points at its ends.
	tbTransform xfB = makeXf( 0.3f, 0.0f, 0.19f, tb_quatIdentity );
	tbManifold m = tbCollideCapsules( &a, xfA, &a, xfB, SPEC );
	assertWellFormed( &m, xfA, xfB );
	assert_int_equal( m.pointCount, 2 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( -0.2f, 0.0f, 0.095f ), -0.01f );
	assertPoint( &m, tbMakeVec3( 0.5f, 0.0f, 0.095f ), -0.01f );
	tbManifold swapped = tbCollideCapsules( &a, xfB, &a, xfA, SPEC );
	assertSwapMirrors( &m, &swapped );

	// B given as a capsule along y rotated onto x (anti-parallel ends): still 2 points.
	xfB = makeXf( 0.0f, 0.0f, 0.19f, axisAngle( 0, 0, 1, 0.5f * TB_PI ) );
	m = tbCollideCapsules( &a, xfA, &alongY, xfB, SPEC );
	assert_int_equal( m.pointCount, 2 );
	assertPoint( &m, tbMakeVec3( -0.5f, 0.0f, 0.095f ), -0.01f );
	assertPoint( &m, tbMakeVec3( 0.5f, 0.0f, 0.095f ), -0.01f );

	// Crossed at right angles: one point above the crossing.
	xfB = makeXf( 0.1f, 0.0f, 0.19f, tb_quatIdentity );
	m = tbCollideCapsules( &a, xfA, &alongY, xfB, SPEC );
	assertWellFormed( &m, xfA, xfB );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( 0.1f, 0.0f, 0.095f ), -0.01f );
	swapped = tbCollideCapsules( &alongY, xfB, &a, xfA, SPEC );
	assertSwapMirrors( &m, &swapped );

	// Crossed, 3 cm apart: beyond the speculative distance.
	xfB.p.z = 0.23f;
	m = tbCollideCapsules( &a, xfA, &alongY, xfB, SPEC );
	assert_int_equal( m.pointCount, 0 );
}

// Capsules against a unit cube at the origin.
static void testCapsuleAndBox( void** state )
{
	Hulls* h = *state;
	tbTransform xfBox = tb_transformIdentity;
	tbCapsule c = { { -0.3f, 0.0f, 0.0f }, { 0.3f, 0.0f, 0.0f }, 0.1f };

	// Lying on the top face, sunk 5 mm: both ends.
	tbTransform xfC = makeXf( 0.0f, 0.1f, 0.595f, tb_quatIdentity );
	tbManifold m = tbCollideHullAndCapsule( h->box, xfBox, &c, xfC, SPEC );
	assertWellFormed( &m, xfBox, xfC );
	assert_int_equal( m.pointCount, 2 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( -0.3f, 0.1f, 0.4975f ), -0.005f );
	assertPoint( &m, tbMakeVec3( 0.3f, 0.1f, 0.4975f ), -0.005f );

	// Core below the surface (deep path): still both ends, separation -0.15.
	xfC.p.z = 0.45f;
	m = tbCollideHullAndCapsule( h->box, xfBox, &c, xfC, SPEC );
	assertWellFormed( &m, xfBox, xfC );
	assert_int_equal( m.pointCount, 2 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( -0.3f, 0.1f, 0.425f ), -0.15f );
	assertPoint( &m, tbMakeVec3( 0.3f, 0.1f, 0.425f ), -0.15f );

	// Longer than the box: clipped at the face's edges x = +-0.5.
	tbCapsule longC = { { -1.0f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f }, 0.1f };
	xfC.p.z = 0.6f;
	m = tbCollideHullAndCapsule( h->box, xfBox, &longC, xfC, SPEC );
	assert_int_equal( m.pointCount, 2 );
	assertPoint( &m, tbMakeVec3( -0.5f, 0.1f, 0.5f ), 0.0f );
	assertPoint( &m, tbMakeVec3( 0.5f, 0.1f, 0.5f ), 0.0f );

	// Sloped 2 deg about y, both ends over the face: one point per end, each at its own depth.
	float slope = 2.0f * TB_PI / 180.0f;
	float rise = 0.3f * sinf( slope );
	xfC = makeXf( 0.0f, 0.1f, 0.598f + rise, axisAngle( 0, 1, 0, slope ) );
	m = tbCollideHullAndCapsule( h->box, xfBox, &c, xfC, SPEC );
	assertWellFormed( &m, xfBox, xfC );
	assert_int_equal( m.pointCount, 2 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	float run = 0.3f * cosf( slope );
	assertPoint( &m, tbMakeVec3( run, 0.1f, 0.499f ), -0.002f );
	assertPoint( &m, tbMakeVec3( -run, 0.1f, 0.5f + 0.5f * ( 2.0f * rise - 0.002f ) ), 2.0f * rise - 0.002f );

	// Standing on the face: one point under the lower cap.
	tbCapsule standing = { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.8f }, 0.1f };
	xfC = makeXf( 0.2f, -0.1f, 0.6f - 0.004f, tb_quatIdentity );
	m = tbCollideHullAndCapsule( h->box, xfBox, &standing, xfC, SPEC );
	assertWellFormed( &m, xfBox, xfC );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( 0.2f, -0.1f, 0.498f ), -0.004f );
	// Standing with the core 5 cm into the box (deep path).
	xfC.p.z = 0.45f;
	m = tbCollideHullAndCapsule( h->box, xfBox, &standing, xfC, SPEC );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( 0.2f, -0.1f, 0.425f ), -0.15f );

	// Lying across the top edge along y at (0.5, *, 0.5), core 0.05 sqrt(2) from the edge
	// diagonally: one point, normal (1, 0, 1) / sqrt(2).
	tbCapsule acrossY = { { 0.0f, -0.3f, 0.0f }, { 0.0f, 0.3f, 0.0f }, 0.1f };
	xfC = makeXf( 0.55f, 0.0f, 0.55f, tb_quatIdentity );
	m = tbCollideHullAndCapsule( h->box, xfBox, &acrossY, xfC, SPEC );
	assertWellFormed( &m, xfBox, xfC );
	tbVec3 n = tbNormalize( tbMakeVec3( 1.0f, 0.0f, 1.0f ) );
	assertVecNear( m.normal, n, DIR_TOL );
	// Parallel to the edge: every point of the edge is equally close; each reported point must
	// lie on the line above it with the exact separation.
	assert_true( m.pointCount >= 1 );
	float sep = 0.05f * sqrtf( 2.0f ) - 0.1f;
	for ( int i = 0; i < m.pointCount; ++i )
	{
		tbVec3 p = m.points[i].point;
		assert_float_equal( m.points[i].separation, sep, POS_TOL );
		assertVecNear( tbMakeVec3( p.x, 0.0f, p.z ), tbMulAdd( tbMakeVec3( 0.5f, 0.0f, 0.5f ), 0.5f * sep, n ),
					   POS_TOL );
	}

	// 5 cm above the face: nothing.
	xfC = makeXf( 0.0f, 0.0f, 0.65f, tb_quatIdentity );
	m = tbCollideHullAndCapsule( h->box, xfBox, &c, xfC, SPEC );
	assert_int_equal( m.pointCount, 0 );

	// Rotated box: capsule lying on the rotated top face.
	tbQuat q = axisAngle( 3, -1, 2, 1.1f );
	xfBox = makeXf( 2.0f, 1.0f, -1.0f, q );
	xfC = makeXf( 0.0f, 0.0f, 0.0f, q );
	xfC.p = tbAdd( xfBox.p, tbRotate( q, tbMakeVec3( 0.0f, 0.0f, 0.59f ) ) );
	m = tbCollideHullAndCapsule( h->box, xfBox, &c, xfC, SPEC );
	assertWellFormed( &m, xfBox, xfC );
	assert_int_equal( m.pointCount, 2 );
	assertVecNear( m.normal, tbRotate( q, s_up ), DIR_TOL );
	assertPoint( &m, tbTransformPoint( xfBox, tbMakeVec3( 0.3f, 0.0f, 0.495f ) ), -0.01f );
	assertPoint( &m, tbTransformPoint( xfBox, tbMakeVec3( -0.3f, 0.0f, 0.495f ) ), -0.01f );
}

// Octahedron (from the hull builder) against a cube ----------------------------------------------

static void testOctahedronAndBox( void** state )
{
	Hulls* h = *state;
	assert_int_equal( h->octahedron->faceCount, 8 );
	tbTransform xfBox = makeXf( 0.0f, 0.0f, 0.0f, tb_quatIdentity );

	// Tip down onto the top face: the tip vertex (0, 0, -1) of the octahedron 1 cm into the cube.
	tbTransform xfO = makeXf( 0.1f, -0.2f, 0.5f + 1.0f - 0.01f, tb_quatIdentity );
	tbManifold m = tbCollideHulls( h->box, xfBox, h->octahedron, xfO, SPEC, NULL );
	assertWellFormed( &m, xfBox, xfO );
	assert_int_equal( m.pointCount, 1 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	assertPoint( &m, tbMakeVec3( 0.1f, -0.2f, 0.495f ), -0.01f );
	tbManifold swapped = tbCollideHulls( h->octahedron, xfO, h->box, xfBox, SPEC, NULL );
	assertWellFormed( &swapped, xfO, xfBox );
	assertSwapMirrors( &m, &swapped );

	// Octahedron face down on the big cube (half extent 1, so the whole face fits on its top):
	// turn the face normal (1, 1, 1)/sqrt(3) to -z. The face is a triangle 1/sqrt(3) from the
	// centre; its 3 vertices are the contact points.
	tbVec3 faceNormal = tbNormalize( tbMakeVec3( 1.0f, 1.0f, 1.0f ) );
	tbQuat q = tbQuatFromTo( faceNormal, tbMakeVec3( 0.0f, 0.0f, -1.0f ) );
	float depth = 0.003f;
	xfO = makeXf( 0.0f, 0.0f, 1.0f + 1.0f / sqrtf( 3.0f ) - depth, q );
	m = tbCollideHulls( h->big, xfBox, h->octahedron, xfO, SPEC, NULL );
	assertWellFormed( &m, xfBox, xfO );
	assert_int_equal( m.pointCount, 3 );
	assertVecNear( m.normal, s_up, DIR_TOL );
	tbVec3 corners[3] = { { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f } };
	for ( int i = 0; i < 3; ++i )
	{
		tbVec3 p = tbTransformPoint( xfO, corners[i] );
		assert_float_equal( p.z, 1.0f - depth, 1.0e-5f );
		p.z = 1.0f - 0.5f * depth;
		assertPoint( &m, p, -depth );
	}
	swapped = tbCollideHulls( h->octahedron, xfO, h->big, xfBox, SPEC, NULL );
	assertWellFormed( &swapped, xfO, xfBox );
	assertSwapMirrors( &m, &swapped );
}

// Random pairs --------------------------------------------------------------------------------------

// Signed distance of a world point to a hull's boundary (positive outside): the largest plane
// distance, exact on faces and a lower bound off edges and corners.
static float hullPlaneDistance( const tbHull* hull, tbTransform xf, tbVec3 worldPoint )
{
	tbVec3 p = tbInvTransformPoint( xf, worldPoint );
	float d = -FLT_MAX;
	for ( int i = 0; i < hull->faceCount; ++i )
	{
		d = tbMaxFloat( d, tbDot( hull->planes[i].normal, p ) - hull->planes[i].offset );
	}
	return d;
}

// Largest projection of a hull's vertices on n.
static float hullSupport( const tbHull* hull, tbTransform xf, tbVec3 n )
{
	float best = -FLT_MAX;
	for ( int i = 0; i < hull->vertexCount; ++i )
	{
		best = tbMaxFloat( best, tbDot( n, tbTransformPoint( xf, hull->vertices[i] ) ) );
	}
	return best;
}

// Gap between two hulls along unit axis n: min over B minus max over A (negative: overlap).
static float gapAlong( const tbHull* hullA, tbTransform xfA, const tbHull* hullB, tbTransform xfB, tbVec3 n )
{
	return -hullSupport( hullB, xfB, tbNeg( n ) ) - hullSupport( hullA, xfA, n );
}

// Contract of a hull-hull manifold: the normal points from A to B (the hulls are farther apart
// along n than along -n); no point is deeper than the projections of the hulls on n overlap; for
// touching or penetrating points, point - sep/2 n is on A's surface and point + sep/2 n on B's.
// A speculative (positive separation) edge-edge point uses the closest points of the two edge
// segments, which need not be on a common normal, so there only the weaker property is checked:
// the surface points are no deeper than the hulls' supports along n, and within 1 cm.
static void checkHullManifold( const tbHull* hullA, tbTransform xfA, const tbHull* hullB, tbTransform xfB,
							   const tbManifold* m )
{
	assertWellFormed( m, xfA, xfB );
	if ( m->pointCount == 0 )
	{
		return;
	}
	float gap = gapAlong( hullA, xfA, hullB, xfB, m->normal );
	assert_true( gap > gapAlong( hullA, xfA, hullB, xfB, tbNeg( m->normal ) ) );
	for ( int i = 0; i < m->pointCount; ++i )
	{
		const tbManifoldPoint* mp = m->points + i;
		tbVec3 onA = tbMulSub( mp->point, 0.5f * mp->separation, m->normal );
		tbVec3 onB = tbMulAdd( mp->point, 0.5f * mp->separation, m->normal );
		assert_true( mp->separation >= gap - 1.0e-4f );
		if ( mp->separation <= 0.0f )
		{
			// 1 mm: clip points may be moved up to 0.5 mm along a reference side plane.
			assert_float_equal( hullPlaneDistance( hullA, xfA, onA ), 0.0f, 1.0e-3f );
			assert_float_equal( hullPlaneDistance( hullB, xfB, onB ), 0.0f, 1.0e-3f );
		}
		else
		{
			assert_true( tbAbsFloat( hullPlaneDistance( hullA, xfA, onA ) ) < 1.0e-2f );
			assert_true( tbAbsFloat( hullPlaneDistance( hullB, xfB, onB ) ) < 1.0e-2f );
			assert_true( tbDot( m->normal, onA ) <= hullSupport( hullA, xfA, m->normal ) + 1.0e-4f );
			assert_true( tbDot( m->normal, onB ) >= -hullSupport( hullB, xfB, tbNeg( m->normal ) ) - 1.0e-4f );
		}
	}
}

// Random boxes and the octahedron in random poses. Whatever the features, a manifold point minus
// half its separation along the normal is on A's surface and plus half is on B's (the midway rule);
// overlapping pairs (a vertex of one inside the other) always get points; swapping the pair flips
// the normal.
static void testRandomHullPairs( void** state )
{
	Hulls* h = *state;
	uint32_t seed = 777u;
	int withPoints = 0;
	const int trials = 3000;
	for ( int trial = 0; trial < trials; ++trial )
	{
		tbVec3 extentA = tbMakeVec3( 0.6f + 0.5f * jitterValue( &seed ), 0.6f + 0.5f * jitterValue( &seed ),
									 0.6f + 0.5f * jitterValue( &seed ) );
		tbVec3 extentB = tbMakeVec3( 0.6f + 0.5f * jitterValue( &seed ), 0.6f + 0.5f * jitterValue( &seed ),
									 0.6f + 0.5f * jitterValue( &seed ) );
		tbHull* boxA = tbMakeBoxHull( extentA, tb_transformIdentity );
		tbHull* boxB = ( trial % 3 == 0 ) ? NULL : tbMakeBoxHull( extentB, tb_transformIdentity );
		const tbHull* hullB = boxB != NULL ? boxB : h->octahedron;
		assert_non_null( boxA );

		tbTransform xfA =
			makeXf( jitterValue( &seed ), jitterValue( &seed ), jitterValue( &seed ), randomQuat( &seed ) );
		tbVec3 dir = tbNormalize( tbMakeVec3( jitterValue( &seed ), jitterValue( &seed ), jitterValue( &seed ) ) );
		float reach = tbLength( extentA ) + tbLength( tbAABB_Extents( hullB->bounds ) );
		float distance = reach * ( 0.45f + 0.4f * ( 0.5f + 0.5f * jitterValue( &seed ) ) );
		tbTransform xfB = makeXf( 0.0f, 0.0f, 0.0f, randomQuat( &seed ) );
		xfB.p = tbMulAdd( xfA.p, distance, dir );

		tbManifold m = tbCollideHulls( boxA, xfA, hullB, xfB, SPEC, NULL );
		checkHullManifold( boxA, xfA, hullB, xfB, &m );

		bool overlap = false;
		for ( int i = 0; i < hullB->vertexCount && overlap == false; ++i )
		{
			overlap = hullPlaneDistance( boxA, xfA, tbTransformPoint( xfB, hullB->vertices[i] ) ) < -1.0e-3f;
		}
		for ( int i = 0; i < boxA->vertexCount && overlap == false; ++i )
		{
			overlap = hullPlaneDistance( hullB, xfB, tbTransformPoint( xfA, boxA->vertices[i] ) ) < -1.0e-3f;
		}
		if ( overlap )
		{
			assert_true( m.pointCount > 0 );
			assert_true( m.points[0].separation < 0.0f || m.pointCount > 1 );
		}
		withPoints += m.pointCount > 0 ? 1 : 0;

		// Swapped, the reference face may be the other hull's (the A-over-B preference), so the
		// normal need not be exactly opposite; each order must satisfy the contract on its own.
		tbManifold swapped = tbCollideHulls( hullB, xfB, boxA, xfA, SPEC, NULL );
		checkHullManifold( hullB, xfB, boxA, xfA, &swapped );
		assert_int_equal( swapped.pointCount > 0, m.pointCount > 0 );

		tbDestroyHull( boxA );
		tbDestroyHull( boxB );
	}
	// The pose distribution must actually produce contacts, and not only contacts.
	assert_true( withPoints > trials / 5 && withPoints < trials - trials / 5 );
}

// Signed distance from a world point to a box with half extents e at xf (exact: clamp outside,
// nearest face inside).
static float boxSignedDistance( tbVec3 e, tbTransform xf, tbVec3 worldPoint )
{
	tbVec3 p = tbInvTransformPoint( xf, worldPoint );
	tbVec3 c = tbMinVec( tbMaxVec( p, tbNeg( e ) ), e );
	float outside = tbDistance( p, c );
	if ( outside > 0.0f )
	{
		return outside;
	}
	tbVec3 a = tbAbsVec( p );
	return tbMaxFloat( a.x - e.x, tbMaxFloat( a.y - e.y, a.z - e.z ) );
}

// Spheres and capsules around a random box: the deepest reported separation equals the exact
// distance to the box minus the radius (capsule: minimum over 2001 samples of the core segment),
// points obey the midway rule, and nothing is reported beyond the speculative distance.
static void testRandomRoundShapesAndBox( void** state )
{
	(void)state;
	uint32_t seed = 4242u;
	int withPoints = 0;
	const int trials = 2000;
	for ( int trial = 0; trial < trials; ++trial )
	{
		tbVec3 e = tbMakeVec3( 0.6f + 0.4f * jitterValue( &seed ), 0.6f + 0.4f * jitterValue( &seed ),
							   0.6f + 0.4f * jitterValue( &seed ) );
		tbHull* box = tbMakeBoxHull( e, tb_transformIdentity );
		assert_non_null( box );
		tbTransform xfA =
			makeXf( jitterValue( &seed ), jitterValue( &seed ), jitterValue( &seed ), randomQuat( &seed ) );
		float radius = 0.2f + 0.15f * jitterValue( &seed );
		tbVec3 local = tbMakeVec3( 2.0f * e.x * jitterValue( &seed ), 2.0f * e.y * jitterValue( &seed ),
								   2.0f * e.z * jitterValue( &seed ) );
		tbVec3 centre = tbTransformPoint( xfA, local );

		// Sphere.
		tbSphere sphere = { { 0.1f, -0.2f, 0.3f }, radius };
		tbTransform xfB = makeXf( 0.0f, 0.0f, 0.0f, randomQuat( &seed ) );
		xfB.p = tbSub( centre, tbRotate( xfB.q, sphere.center ) );
		tbManifold m = tbCollideHullAndSphere( box, xfA, &sphere, xfB, SPEC );
		assertWellFormed( &m, xfA, xfB );
		float expected = boxSignedDistance( e, xfA, centre ) - radius;
		if ( expected < SPEC - 1.0e-4f )
		{
			assert_int_equal( m.pointCount, 1 );
			assert_float_equal( m.points[0].separation, expected, POS_TOL );
			tbVec3 onA = tbMulSub( m.points[0].point, 0.5f * expected, m.normal );
			tbVec3 onB = tbMulAdd( m.points[0].point, 0.5f * expected, m.normal );
			assert_float_equal( boxSignedDistance( e, xfA, onA ), 0.0f, POS_TOL );
			assert_float_equal( tbDistance( onB, centre ), radius, POS_TOL );
		}
		else if ( expected > SPEC + 1.0e-4f )
		{
			assert_int_equal( m.pointCount, 0 );
		}

		// Capsule through the same centre in a random direction.
		float halfLength = 0.1f + 0.5f * ( 0.5f + 0.5f * jitterValue( &seed ) );
		tbCapsule capsule = { { -halfLength, 0.0f, 0.0f }, { halfLength, 0.0f, 0.0f }, radius };
		xfB = makeXf( centre.x, centre.y, centre.z, randomQuat( &seed ) );
		if ( trial % 4 == 0 )
		{
			// Lying parallel to a face of the box.
			xfB.q = tbMulQQ( xfA.q, axisAngle( 0, 0, 1, 3.0f * jitterValue( &seed ) ) );
		}
		tbVec3 c1 = tbTransformPoint( xfB, capsule.center1 );
		tbVec3 c2 = tbTransformPoint( xfB, capsule.center2 );
		float coreDistance = FLT_MAX;
		for ( int k = 0; k <= 2000; ++k )
		{
			coreDistance =
				tbMinFloat( coreDistance, boxSignedDistance( e, xfA, tbLerp( c1, c2, (float)k / 2000.0f ) ) );
		}
		m = tbCollideHullAndCapsule( box, xfA, &capsule, xfB, SPEC );
		assertWellFormed( &m, xfA, xfB );
		assert_true( m.pointCount <= 2 );
		expected = coreDistance - radius;
		if ( expected < SPEC - 1.0e-3f )
		{
			assert_true( m.pointCount >= 1 );
			float deepest = FLT_MAX;
			for ( int i = 0; i < m.pointCount; ++i )
			{
				const tbManifoldPoint* mp = m.points + i;
				deepest = tbMinFloat( deepest, mp->separation );
				tbVec3 onA = tbMulSub( mp->point, 0.5f * mp->separation, m.normal );
				assert_float_equal( boxSignedDistance( e, xfA, onA ), 0.0f, POS_TOL );
			}
			if ( coreDistance > 0.0f )
			{
				// Sampling overestimates the core distance by at most half a sample spacing; a capsule
				// over a face may be reported up to 0.1 mm shallower (TB_FLAT_CAPSULE_TOLERANCE).
				assert_true( deepest <= expected + 1.0e-4f + 2.0e-5f );
				assert_true( deepest >= expected - 2.0f * halfLength / 2000.0f - 1.0e-4f );
			}
			else
			{
				assert_true( deepest < 0.0f );
			}
		}
		else if ( expected > SPEC + 1.0e-3f )
		{
			assert_int_equal( m.pointCount, 0 );
		}
		withPoints += m.pointCount > 0 ? 1 : 0;
		tbDestroyHull( box );
	}
	assert_true( withPoints > trials / 5 && withPoints < trials - trials / 5 );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( testBoxOnGround ),
		cmocka_unit_test( testBoxRotatedOnGround ),
		cmocka_unit_test( testSmallBoxOnBigBox ),
		cmocka_unit_test( testBoxOnEdge ),
		cmocka_unit_test( testBoxOnCorner ),
		cmocka_unit_test( testEdgeEdgeCrossing ),
		cmocka_unit_test( testSpeculative ),
		cmocka_unit_test( testIdsStableBoxOnGround ),
		cmocka_unit_test( testIdsStableEqualBoxes ),
		cmocka_unit_test( testReductionOctagon ),
		cmocka_unit_test( testRandomEdgeCrossings ),
		cmocka_unit_test( testNearlyParallelStacksFarOut ),
		cmocka_unit_test( testSpheres ),
		cmocka_unit_test( testSphereAndBox ),
		cmocka_unit_test( testCapsuleAndSphere ),
		cmocka_unit_test( testCapsules ),
		cmocka_unit_test( testCapsuleAndBox ),
		cmocka_unit_test( testOctahedronAndBox ),
		cmocka_unit_test( testRandomHullPairs ),
		cmocka_unit_test( testRandomRoundShapesAndBox ),
	};
	return cmocka_run_group_tests( tests, setupHulls, teardownHulls );
}
