// Unit tests of the closed-form box paths of the narrow phase (manifold.c): a sphere or a capsule
// against a box hull in the box's frame. They must give the manifold the general hull path gives
// (the same hull without its box description) to float rounding, and rest bodies where the
// geometry says.
// SPDX-License-Identifier: MIT
#include "shape.h"
#include "tumble/collision.h"
#include "tumble/tumble.h"

// cmocka needs these before its header.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>

#define SPEC TB_SPECULATIVE_DISTANCE

// Closed form against general path: metres and unit normals.
#define MATCH_TOL_BOX 1.0e-5f
// Against a hull computed from the box's corners, whose planes tbComputeHull fits: their normals
// differ from the box's axes by up to about 2e-5.
#define MATCH_TOL_COMPUTED 1.0e-4f
static float MATCH_TOL = MATCH_TOL_BOX;

// Comparisons that took the flat-approach allowance of assertSameManifold.
static int flatCount = 0;

// manifold.c's TB_FLAT_CAPSULE_TOLERANCE, and the comparisons that met it to rounding.
#define FLAT_CAPSULE_TOLERANCE 1.0e-4f
static int flatToleranceCount = 0;

// Positions of a few metres, after a few transforms: float rounding of a core's coordinates.
#define ROUNDING 4.0e-6f

// Resting heights: 1 mm.
#define REST_TOL 1.0e-3f

static uint32_t g_seed = 12345u;

static float randomFloat( float lo, float hi )
{
	g_seed = g_seed * 1664525u + 1013904223u;
	return lo + ( hi - lo ) * (float)( g_seed >> 8 ) / 16777216.0f;
}

static tbQuat randomRotation( void )
{
	tbQuat q = { randomFloat( -1.0f, 1.0f ), randomFloat( -1.0f, 1.0f ), randomFloat( -1.0f, 1.0f ),
				 randomFloat( -1.0f, 1.0f ) };
	return tbNormalizeQ( q );
}

static tbVec3 randomVec( float lo, float hi )
{
	return tbMakeVec3( randomFloat( lo, hi ), randomFloat( lo, hi ), randomFloat( lo, hi ) );
}

// A box hull with random extents, turned and moved off its body's origin.
static tbHull* randomBoxHull( tbVec3* halfOut, tbTransform* localOut )
{
	tbVec3 half = randomVec( 0.1f, 1.0f );
	tbTransform local = { randomVec( -0.5f, 0.5f ), randomRotation() };
	if ( randomFloat( 0.0f, 1.0f ) < 0.25f )
	{
		local = tb_transformIdentity;
	}
	*halfOut = half;
	*localOut = local;
	return tbMakeBoxHull( half, local );
}

// A point in the box's local frame, scattered over the inside and the face, edge and corner
// regions around it, in the body frame.
static tbVec3 randomAroundBox( tbVec3 half, tbTransform local, float margin )
{
	float h[3] = { half.x, half.y, half.z };
	float u[3];
	for ( int k = 0; k < 3; ++k )
	{
		u[k] = randomFloat( -h[k] - margin, h[k] + margin );
	}
	return tbTransformPoint( local, tbMakeVec3( u[0], u[1], u[2] ) );
}

static float vecDistance( tbVec3 a, tbVec3 b )
{
	return tbLength( tbSub( a, b ) );
}

// A pair's geometry in A's (the box body's) frame: the box (half extents, placed by local), the
// core segment p1-p2 (a point for a sphere) and its radius.
typedef struct Pose
{
	tbVec3 half;
	tbTransform local;
	tbTransform xfA;
	tbVec3 p1, p2;
	float radius;
} Pose;

// The manifold's one point is a closest-point pair of the core and the box to MATCH_TOL: the core
// point x = point + (r + s / 2) n lies on the segment, the box point y = x - (s + r) n on the box.
static bool isClosestPair( const Pose* pose, const tbManifold* m )
{
	const tbManifoldPoint* mp = m->points;
	tbVec3 n = tbInvRotate( pose->xfA.q, m->normal );
	tbVec3 x = tbMulAdd( tbInvTransformPoint( pose->xfA, mp->point ), pose->radius + 0.5f * mp->separation, n );
	tbVec3 y = tbMulSub( x, mp->separation + pose->radius, n );
	tbVec3 d = tbSub( pose->p2, pose->p1 );
	float dd = tbDot( d, d );
	float t = dd > 0.0f ? tbClampFloat( tbDot( tbSub( x, pose->p1 ), d ) / dd, 0.0f, 1.0f ) : 0.0f;
	float offSegment = vecDistance( x, tbMulAdd( pose->p1, t, d ) );
	tbVec3 u = tbInvTransformPoint( pose->local, y );
	tbVec3 clamped = tbMakeVec3( tbClampFloat( u.x, -pose->half.x, pose->half.x ),
								 tbClampFloat( u.y, -pose->half.y, pose->half.y ),
								 tbClampFloat( u.z, -pose->half.z, pose->half.z ) );
	float offBox = vecDistance( u, clamped );
	return offSegment <= MATCH_TOL && offBox <= MATCH_TOL;
}

// Both manifolds have the same number of points (the count is printed when not).
static void assertSameCount( const tbManifold* a, const tbManifold* b, int trial )
{
	if ( a->pointCount != b->pointCount )
	{
		printf( "trial %d: %d points, general %d\n", trial, a->pointCount, b->pointCount );
	}
	assert_int_equal( a->pointCount, b->pointCount );
}

// The normals of a and b (b the general path's) differ by at most tolerance.
static void assertNormalWithin( const tbManifold* a, const tbManifold* b, float tolerance, int trial )
{
	float normalError = vecDistance( a->normal, b->normal );
	if ( normalError > tolerance )
	{
		printf( "trial %d: normal (%g %g %g), general (%g %g %g) sep %g\n", trial, a->normal.x, a->normal.y, a->normal.z,
				b->normal.x, b->normal.y, b->normal.z, a->points[0].separation );
	}
	assert_true( normalError <= tolerance );
}

// The point of manifold m with feature id `id`, or NULL.
static const tbManifoldPoint* findPointById( const tbManifold* m, uint32_t id )
{
	for ( int j = 0; j < m->pointCount; ++j )
	{
		if ( m->points[j].id == id )
		{
			return m->points + j;
		}
	}
	return NULL;
}

// Same points (in any order with the same ids), normals and separations, to MATCH_TOL; where the
// problem is ill-conditioned, to what its conditioning allows:
// - the normal of a core close to the box's surface (edge and corner cases) turns by the rounding
//   of the core's position (ROUNDING) over its distance, and the points with it over the radius;
// - a segment at a small angle to an edge has its closest point slide along the segment by the
//   rounding over the sine of that angle, and the general path's segment-segment closest points
//   (2x2 normal equations whose determinant is the sine squared) by eps times the length over the
//   sine squared;
// - a segment whose closest approach is nearly flat along it (an end just past a box edge, the
//   distance changing by 1e-8 m over 1e-4 of its length) has a closest point, and a normal, that
//   rounding moves well beyond that; both manifolds must then be closest-point pairs to MATCH_TOL
//   (isClosestPair), with the same separation.
static void assertSameManifold( const tbManifold* a, const tbManifold* b, const Pose* pose, int trial )
{
	if ( a->pointCount + b->pointCount == 3 )
	{
		// A capsule whose clipped ends over a face are deeper than its closest point by the flat
		// tolerance to within rounding: one path takes the two face points, the other the one
		// closest point. Both are right; the decision is the tolerance's.
		const tbManifold* two = a->pointCount == 2 ? a : b;
		const tbManifold* one = a->pointCount == 2 ? b : a;
		float deepest = fminf( two->points[0].separation, two->points[1].separation );
		if ( fabsf( deepest - one->points[0].separation - FLAT_CAPSULE_TOLERANCE ) <= MATCH_TOL )
		{
			flatToleranceCount += 1;
			return;
		}
	}
	assertSameCount( a, b, trial );
	if ( a->pointCount == 0 )
	{
		return;
	}
	float radius = pose->radius;
	tbVec3 segment = tbSub( pose->p2, pose->p1 );
	float length = tbLength( segment );
	tbVec3 axis = length > 0.0f ? tbRotate( pose->xfA.q, tbMulSV( 1.0f / length, segment ) ) : tb_vec3_zero;
	float sine = 0.0f;
	if ( length > 0.0f )
	{
		tbVec3 inBox = tbInvRotate( pose->local.q, tbMulSV( 1.0f / length, segment ) );
		sine = fminf( fminf( tbLength( tbCross( inBox, tbMakeVec3( 1.0f, 0.0f, 0.0f ) ) ),
							 tbLength( tbCross( inBox, tbMakeVec3( 0.0f, 1.0f, 0.0f ) ) ) ),
					  tbLength( tbCross( inBox, tbMakeVec3( 0.0f, 0.0f, 1.0f ) ) ) );
	}

	float normalError = vecDistance( a->normal, b->normal );
	float core = a->points[0].separation + radius;
	float normalTol = core > 0.0f ? MATCH_TOL + ROUNDING / core : MATCH_TOL;
	float pointTol = MATCH_TOL + radius * ( normalTol - MATCH_TOL );
	if ( normalError > normalTol && core > 0.0f && a->pointCount == 1 )
	{
		if ( isClosestPair( pose, a ) && isClosestPair( pose, b ) )
		{
			flatCount += 1;
			normalTol = normalError;
			pointTol = vecDistance( a->points[0].point, b->points[0].point );
		}
	}
	assertNormalWithin( a, b, normalTol, trial );
	for ( int i = 0; i < a->pointCount; ++i )
	{
		const tbManifoldPoint* p = a->points + i;
		const tbManifoldPoint* q = findPointById( b, p->id );
		assert_non_null( q );
		float slideTol = sine > 0.0f ? MATCH_TOL + ROUNDING / sine + 2.0f * FLT_EPSILON * length / ( sine * sine ) : MATCH_TOL;
		tbVec3 error = tbSub( p->point, q->point );
		float along = tbDot( error, axis );
		float across = tbLength( tbMulSub( error, along, axis ) );
		bool pointOk = across <= pointTol && fabsf( along ) <= pointTol + slideTol;
		if ( pointOk == false || fabsf( p->separation - q->separation ) > MATCH_TOL )
		{
			printf( "trial %d point %d: (%g %g %g) sep %g, general (%g %g %g) sep %g\n", trial, i, p->point.x,
					p->point.y, p->point.z, p->separation, q->point.x, q->point.y, q->point.z, q->separation );
		}
		assert_true( pointOk );
		assert_true( fabsf( p->separation - q->separation ) <= MATCH_TOL );
		assert_true( vecDistance( tbSub( p->anchorA, q->anchorA ), error ) <= 1.0e-6f );
		assert_true( vecDistance( tbSub( p->anchorB, q->anchorB ), error ) <= 1.0e-6f );
	}
}

// Two box manifolds: the same point count, normal, and points matched by id (feature ids are
// the same features), to MATCH_TOL.
static void assertSameBoxes( const tbManifold* a, const tbManifold* b, const Pose* pose, int trial )
{
	(void)pose;
	assertSameCount( a, b, trial );
	if ( a->pointCount == 0 )
	{
		return;
	}
	assertNormalWithin( a, b, MATCH_TOL, trial );
	for ( int i = 0; i < a->pointCount; ++i )
	{
		const tbManifoldPoint* p = a->points + i;
		const tbManifoldPoint* q = findPointById( b, p->id );
		if ( q == NULL )
		{
			printf( "trial %d: point %d id %08x not in the general manifold\n", trial, i, p->id );
		}
		assert_non_null( q );
		if ( vecDistance( p->point, q->point ) > MATCH_TOL || fabsf( p->separation - q->separation ) > MATCH_TOL )
		{
			printf( "trial %d point %d: (%g %g %g) sep %g, general (%g %g %g) sep %g\n", trial, i, p->point.x,
					p->point.y, p->point.z, p->separation, q->point.x, q->point.y, q->point.z, q->separation );
		}
		assert_true( vecDistance( p->point, q->point ) <= MATCH_TOL );
		assert_true( fabsf( p->separation - q->separation ) <= MATCH_TOL );
	}
}

// Region of a point against a box (local coordinates): how many coordinates lie outside.
static int outsideCount( tbVec3 u, tbVec3 half )
{
	return ( fabsf( u.x ) > half.x ) + ( fabsf( u.y ) > half.y ) + ( fabsf( u.z ) > half.z );
}

static void testBoxSphereMatchesGeneral( void** state )
{
	(void)state;
	g_seed = 12345u;
	int regions[4] = { 0, 0, 0, 0 };
	int touching = 0;
	const int trials = 20000;
	for ( int trial = 0; trial < trials; ++trial )
	{
		tbVec3 half;
		tbTransform local;
		tbHull* hull = randomBoxHull( &half, &local );
		tbBoxHull box;
		assert_true( tbGetBoxHull( hull, &box ) );
		tbSphere sphere = { randomVec( -0.2f, 0.2f ), randomFloat( 0.05f, 0.6f ) };
		tbTransform xfA = { randomVec( -3.0f, 3.0f ), randomRotation() };
		tbQuat qB = randomRotation();
		// Sphere centre around the box, then placed in the world through A.
		tbVec3 cLocal = randomAroundBox( half, local, sphere.radius + 0.1f );
		tbVec3 cWorld = tbTransformPoint( xfA, cLocal );
		tbTransform xfB = { tbSub( cWorld, tbRotate( qB, sphere.center ) ), qB };
		regions[outsideCount( tbInvTransformPoint( local, cLocal ), half )] += 1;

		tbVec3 core = tbInvTransformPoint( xfA, cWorld );
		Pose pose = { half, local, xfA, core, core, sphere.radius };
		tbManifold closed = tbCollideHullOrBoxAndSphere( hull, &box, xfA, &sphere, xfB, SPEC );
		tbManifold general = tbCollideHullOrBoxAndSphere( hull, NULL, xfA, &sphere, xfB, SPEC );
		assertSameManifold( &closed, &general, &pose, trial );
		touching += closed.pointCount > 0;
		// The public function takes the box path too.
		tbManifold pub = tbCollideHullAndSphere( hull, xfA, &sphere, xfB, SPEC );
		assertSameManifold( &pub, &closed, &pose, trial );
		tbDestroyHull( hull );
	}
	printf( "regions inside %d face %d edge %d corner %d, touching %d of %d\n", regions[0], regions[1], regions[2],
			regions[3], touching, trials );
	for ( int k = 0; k < 4; ++k )
	{
		assert_true( regions[k] > trials / 20 );
	}
	assert_true( touching > trials / 4 );
}

// Capsule poses: random segments around the box, segments lying on a face (parallel to it, inside
// and across its rim), standing on it, and crossing the box.
static void randomCapsulePose( tbVec3 half, tbTransform local, float radius, tbVec3* p1, tbVec3* p2 )
{
	float kind = randomFloat( 0.0f, 1.0f );
	float h[3] = { half.x, half.y, half.z };
	if ( kind < 0.4f )
	{
		*p1 = randomAroundBox( half, local, radius + 0.2f );
		*p2 = randomAroundBox( half, local, radius + 0.2f );
		return;
	}
	// Lying on (or standing on) a face: axis k, side s.
	int k = (int)randomFloat( 0.0f, 2.999f );
	float s = randomFloat( -1.0f, 1.0f ) < 0.0f ? -1.0f : 1.0f;
	float height = h[k] + radius + randomFloat( -0.5f * radius, 0.02f );
	float a[3], b[3];
	for ( int m = 0; m < 3; ++m )
	{
		a[m] = randomFloat( -1.3f * h[m], 1.3f * h[m] );
		b[m] = randomFloat( -1.3f * h[m], 1.3f * h[m] );
	}
	if ( kind < 0.8f )
	{
		// Flat, or tilted by a few degrees.
		a[k] = s * height;
		b[k] = s * ( height + randomFloat( -0.1f, 0.1f ) * randomFloat( 0.0f, 1.0f ) );
	}
	else if ( kind < 0.9f )
	{
		// Standing.
		for ( int m = 0; m < 3; ++m )
		{
			b[m] = a[m];
		}
		a[k] = s * height;
		b[k] = s * ( height + randomFloat( 0.1f, 0.5f ) );
	}
	else
	{
		// Through the box.
		a[k] = s * randomFloat( -0.8f, 0.8f ) * h[k];
		b[k] = s * randomFloat( -0.8f, 0.8f ) * h[k];
	}
	*p1 = tbTransformPoint( local, tbMakeVec3( a[0], a[1], a[2] ) );
	*p2 = tbTransformPoint( local, tbMakeVec3( b[0], b[1], b[2] ) );
}

static void testBoxCapsuleMatchesGeneral( void** state )
{
	(void)state;
	g_seed = 777u;
	int touching = 0;
	int twoPoints = 0;
	const int trials = 40000;
	for ( int trial = 0; trial < trials; ++trial )
	{
		tbVec3 half;
		tbTransform local;
		tbHull* hull = randomBoxHull( &half, &local );
		tbBoxHull box;
		assert_true( tbGetBoxHull( hull, &box ) );
		float radius = randomFloat( 0.05f, 0.4f );
		tbVec3 p1, p2;
		randomCapsulePose( half, local, radius, &p1, &p2 );
		tbTransform xfA = { randomVec( -3.0f, 3.0f ), randomRotation() };
		tbTransform xfB = { randomVec( -3.0f, 3.0f ), randomRotation() };
		// The capsule's core in B's frame, so that it lies at p1-p2 in A's.
		tbTransform toB = tbInvMulTransforms( xfB, xfA );
		tbCapsule capsule = { tbTransformPoint( toB, p1 ), tbTransformPoint( toB, p2 ), radius };

		tbManifold closed = tbCollideHullOrBoxAndCapsule( hull, &box, xfA, &capsule, xfB, SPEC );
		tbManifold general = tbCollideHullOrBoxAndCapsule( hull, NULL, xfA, &capsule, xfB, SPEC );
		Pose pose = { half, local, xfA, p1, p2, radius };
		assertSameManifold( &closed, &general, &pose, trial );
		touching += closed.pointCount > 0;
		twoPoints += closed.pointCount == 2;
		tbManifold pub = tbCollideHullAndCapsule( hull, xfA, &capsule, xfB, SPEC );
		assertSameManifold( &pub, &closed, &pose, trial );
		tbDestroyHull( hull );
	}
	printf( "touching %d (two points %d) of %d, flat approaches %d, at the flat tolerance %d\n", touching, twoPoints,
			trials, flatCount, flatToleranceCount );
	assert_true( touching > trials / 4 );
	assert_true( twoPoints > trials / 10 );
}

// Two boxes: the closed-form edge query (both box descriptions given) against the general one
// (neither), over random poses near contact, edge-on-edge crossings included. The manifolds must
// agree as above; edge contacts are counted so that the edge path is known to be exercised.
static void testBoxBoxMatchesGeneral( void** state )
{
	(void)state;
	g_seed = 4242u;
	int touching = 0;
	int edgeContacts = 0;
	const int trials = 40000;
	for ( int trial = 0; trial < trials; ++trial )
	{
		tbVec3 halfA, halfB;
		tbTransform localA, localB;
		tbHull* hullA = randomBoxHull( &halfA, &localA );
		tbHull* hullB = randomBoxHull( &halfB, &localB );
		tbBoxHull boxA, boxB;
		assert_true( tbGetBoxHull( hullA, &boxA ) );
		assert_true( tbGetBoxHull( hullB, &boxB ) );
		tbTransform xfA = { randomVec( -3.0f, 3.0f ), randomRotation() };
		tbQuat qB = randomRotation();
		float kind = randomFloat( 0.0f, 1.0f );
		if ( kind < 0.4f )
		{
			// B's box axes along A's (a stack), up to a quarter turn, or turned off them by a
			// small angle.
			tbQuat turn = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.5f * TB_PI * (float)(int)randomFloat( 0.0f, 3.99f ) );
			if ( kind < 0.2f )
			{
				turn = tbMulQQ( turn, tbMakeQuatAxisAngle( tbNormalize( randomVec( -1.0f, 1.0f ) ), randomFloat( 0.0f, 0.02f ) ) );
			}
			qB = tbNormalizeQ( tbMulQQ( tbMulQQ( tbMulQQ( xfA.q, localA.q ), turn ), tbConjugate( localB.q ) ) );
		}
		// B's box centre at a distance from A's box centre that makes contact likely.
		tbVec3 centerA = tbTransformPoint( xfA, localA.p );
		float reach = tbLength( halfA ) + tbLength( halfB );
		tbVec3 direction = tbNormalize( randomVec( -1.0f, 1.0f ) );
		if ( kind < 0.4f && randomFloat( 0.0f, 1.0f ) < 0.5f )
		{
			// Near one of A's box axes: face on face. (Not exactly along it: a box centred on
			// another's axis ties two opposite faces exactly when deep inside, and either
			// general or closed form may then take either face.)
			tbVec3 near = tbMakeVec3( randomFloat( -0.05f, 0.05f ), randomFloat( -0.05f, 0.05f ),
									  randomFloat( -1.0f, 1.0f ) < 0.0f ? -1.0f : 1.0f );
			direction = tbRotate( tbMulQQ( xfA.q, localA.q ), tbNormalize( near ) );
			reach = tbLength( halfA ) + tbLength( halfB );
		}
		tbVec3 centerB = tbMulAdd( centerA, randomFloat( 0.3f, 1.0f ) * reach, direction );
		tbTransform xfB = { tbSub( centerB, tbRotate( qB, localB.p ) ), qB };

		tbManifold closed = tbCollideHullsWithBoxes( hullA, &boxA, xfA, hullB, &boxB, xfB, SPEC, NULL );
		tbManifold general = tbCollideHullsWithBoxes( hullA, NULL, xfA, hullB, NULL, xfB, SPEC, NULL );
		Pose pose = { halfA, localA, xfA, tb_vec3_zero, tb_vec3_zero, 0.0f };
		assertSameBoxes( &closed, &general, &pose, trial );
		touching += closed.pointCount > 0;
		edgeContacts += closed.pointCount == 1;
		tbDestroyHull( hullA );
		tbDestroyHull( hullB );
	}
	printf( "touching %d (edge contacts %d) of %d\n", touching, edgeContacts, trials );
	assert_true( touching > trials / 4 );
	assert_true( edgeContacts > trials / 50 );
}

// A hull that is a box but not laid out as tbMakeBoxHull writes it (tbComputeHull's face order)
// takes the general path: the public functions still agree with the box path on the same box.
static void testComputedBoxHullAgrees( void** state )
{
	(void)state;
	g_seed = 99u;
	MATCH_TOL = MATCH_TOL_COMPUTED;
	for ( int trial = 0; trial < 2000; ++trial )
	{
		tbVec3 half;
		tbTransform local;
		tbHull* hull = randomBoxHull( &half, &local );
		tbHull* computed = tbComputeHull( hull->vertices, hull->vertexCount, NULL );
		assert_non_null( computed );
		tbBoxHull box;
		assert_true( tbGetBoxHull( hull, &box ) );
		tbSphere sphere = { tb_vec3_zero, randomFloat( 0.05f, 0.6f ) };
		tbTransform xfA = { randomVec( -3.0f, 3.0f ), randomRotation() };
		tbVec3 cLocal = randomAroundBox( half, local, sphere.radius + 0.1f );
		tbTransform xfB = { tbTransformPoint( xfA, cLocal ), tb_quatIdentity };
		Pose pose = { half, local, xfA, cLocal, cLocal, sphere.radius };
		tbManifold closed = tbCollideHullOrBoxAndSphere( hull, &box, xfA, &sphere, xfB, SPEC );
		tbManifold general = tbCollideHullAndSphere( computed, xfA, &sphere, xfB, SPEC );
		// Ids: both 0. Planes computed from the corners differ from the box's by rounding.
		assertSameManifold( &closed, &general, &pose, trial );
		tbDestroyHull( computed );
		tbDestroyHull( hull );
	}
	MATCH_TOL = MATCH_TOL_BOX;
}

// A static box turned about the vertical and about x by a quarter turn, its hull off the body's
// origin, so that a face is up at a known height.
static tbBodyId addTurnedBox( tbWorldId world, float* top )
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = tbMakeVec3( 0.3f, -0.2f, 0.5f );
	bd.rotation = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.6f );
	tbBodyId body = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	// Local: a quarter turn about x (the box's y extent becomes vertical), shifted by 0.1 up.
	tbTransform local = { tbMakeVec3( 0.05f, -0.02f, 0.1f ),
						  tbMakeQuatAxisAngle( tbMakeVec3( 1.0f, 0.0f, 0.0f ), 0.5f * TB_PI ) };
	tbCreateBoxShape( body, &sd, tbMakeVec3( 1.5f, 0.4f, 1.2f ), local, NULL );
	*top = 0.5f + 0.1f + 0.4f;
	return body;
}

static void testSphereRestsOnTurnedBox( void** state )
{
	(void)state;
	tbWorldDef def = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld( &def );
	float top;
	addTurnedBox( world, &top );
	float radius = 0.25f;
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_dynamic;
	bd.position = tbMakeVec3( 0.4f, -0.1f, top + radius + 0.3f );
	tbBodyId ball = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbSphere s = { tb_vec3_zero, radius };
	tbCreateSphereShape( ball, &sd, &s, NULL );
	for ( int i = 0; i < 180; ++i )
	{
		tbWorld_Step( world, 1.0f / 60.0f );
	}
	tbVec3 p = tbBody_GetPosition( ball );
	printf( "sphere at z %.5f, expected %.5f\n", p.z, top + radius );
	assert_float_equal( p.z, top + radius, REST_TOL );
	tbDestroyWorld( world );
}

static void testCapsuleRestsLevelOnBox( void** state )
{
	(void)state;
	tbWorldDef def = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld( &def );
	float top;
	addTurnedBox( world, &top );
	float radius = 0.15f;
	float halfLength = 0.4f;
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_dynamic;
	bd.position = tbMakeVec3( 0.3f, -0.2f, top + radius + 0.2f );
	bd.rotation = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 0.0f, 1.0f ), 0.3f );
	tbBodyId body = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbCapsule c = { { -halfLength, 0.0f, 0.0f }, { halfLength, 0.0f, 0.0f }, radius };
	tbCreateCapsuleShape( body, &sd, &c, NULL );
	for ( int i = 0; i < 180; ++i )
	{
		tbWorld_Step( world, 1.0f / 60.0f );
	}
	tbTransform xf = tbBody_GetTransform( body );
	tbVec3 e1 = tbTransformPoint( xf, c.center1 );
	tbVec3 e2 = tbTransformPoint( xf, c.center2 );
	printf( "capsule ends at z %.5f and %.5f, expected %.5f\n", e1.z, e2.z, top + radius );
	assert_float_equal( e1.z, top + radius, REST_TOL );
	assert_float_equal( e2.z, top + radius, REST_TOL );
	tbDestroyWorld( world );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( testBoxSphereMatchesGeneral ),	cmocka_unit_test( testBoxCapsuleMatchesGeneral ),
		cmocka_unit_test( testBoxBoxMatchesGeneral ), cmocka_unit_test( testComputedBoxHullAgrees ),		cmocka_unit_test( testSphereRestsOnTurnedBox ),
		cmocka_unit_test( testCapsuleRestsLevelOnBox ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
