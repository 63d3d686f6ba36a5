// Tumble physics: contact manifolds. Spheres and capsules use direct closest-feature geometry;
// hulls use the separating axis test followed by reference/incident face clipping.
// SPDX-License-Identifier: MIT
#include "core.h"
#include "shape.h"

#include "tumble/collision.h"

#include <float.h>
#include <string.h>

// Tolerances ------------------------------------------------------------------------------------

// A core (segment or sphere centre) closer to a hull than this is handled by the deep path (SAT
// axis normal) instead of a normal taken from closest points, whose direction is noise when the
// closest points nearly coincide. Metres.
#define TB_CORE_TOUCH_DISTANCE 1.0e-5f

// Polygon vertices up to this far outside a reference side plane are kept (and then moved onto the
// plane): two equal boxes stacked flush have every incident vertex on a side plane, and round-off
// must not turn those four vertices into eight clip points (whose ids would differ from frame to
// frame). Metres.
#define TB_CLIP_SIDE_TOLERANCE ( 0.1f * TB_LINEAR_SLOP )

// A clip point this close to a vertex of the incident face is reported with that vertex's feature
// key (and duplicates merged): a box corner poking past the reference face's rim keeps the id it
// had while inside, so warm starting survives small motion of a stack of equal boxes. Corners of two
// such boxes jittered by 1 mm and 0.5 deg each move about 2 cm relative to each other. Capped at a
// tenth of the incident face's shortest edge so small hulls are not collapsed. Metres.
#define TB_CLIP_WELD_DISTANCE ( 5.0f * TB_LINEAR_SLOP )

// A capsule over a face gets the two clipped ends of its segment only if their deepest separation
// (along the face normal) is within this of the true closest-point separation; otherwise the
// closest approach is past the face's rim and one closest point is reported. A flat capsule
// matches to round-off; one crossing a rim at a small angle a differs by about r a^2 / 2. Metres.
#define TB_FLAT_CAPSULE_TOLERANCE 1.0e-4f

// Clipped polygon capacity (stack arrays; about 12 KB in total). An n-gon clipped by m planes has
// at most n + m vertices; vertices past the capacity are dropped, which only a face with more than
// a hundred vertices can hit.
#define TB_MAX_CLIP_VERTICES 128

// Hysteresis for choosing among SAT axes (Gregorius, GDC 2013, uses the same kind of relative plus
// absolute bias): a candidate must beat the preferred one by this much. Without it the reference
// face of a resting stack flips between frames and the solver loses its warm start.
static float tbAxisTolerance( float separation )
{
	return 0.1f * TB_LINEAR_SLOP + 0.05f * tbAbsFloat( separation );
}

// Contact ids -----------------------------------------------------------------------------------

#define TB_HASH_SEED 2166136261u

// FNV-1a over the bytes of one 32-bit word: ids only need to be equal for equal feature tuples
// and, with overwhelming probability, different otherwise.
static uint32_t tbHashWord( uint32_t hash, uint32_t word )
{
	hash = ( hash ^ ( word & 0xFFu ) ) * 16777619u;
	hash = ( hash ^ ( ( word >> 8 ) & 0xFFu ) ) * 16777619u;
	hash = ( hash ^ ( ( word >> 16 ) & 0xFFu ) ) * 16777619u;
	hash = ( hash ^ ( word >> 24 ) ) * 16777619u;
	return hash;
}

static uint32_t tbHash2( uint32_t a, uint32_t b )
{
	return tbHashWord( tbHashWord( TB_HASH_SEED, a ), b );
}

static uint32_t tbHash3( uint32_t a, uint32_t b, uint32_t c )
{
	return tbHashWord( tbHash2( a, b ), c );
}

// Feature key kinds (first hashed word).
enum
{
	tbKey_incidentVertex = 1,
	tbKey_clip = 2,
	tbKey_edgePair = 3,
	tbKey_faceA = 4,
	tbKey_faceB = 5,
	tbKey_capsuleEnd = 6,
};

// Polygon edge labels during clipping: an incident hull edge or a reference side plane.
#define TB_SIDE_LABEL 0x80000000u

// Small helpers ---------------------------------------------------------------------------------

static void tbAddPoint( tbManifold* manifold, tbVec3 point, float separation, uint32_t id, tbTransform xfA,
						tbTransform xfB )
{
	TB_ASSERT( manifold->pointCount < TB_MAX_MANIFOLD_POINTS );
	tbManifoldPoint* mp = manifold->points + manifold->pointCount;
	memset( mp, 0, sizeof( *mp ) );
	mp->point = point;
	mp->anchorA = tbSub( point, xfA.p );
	mp->anchorB = tbSub( point, xfB.p );
	mp->separation = separation;
	mp->id = id;
	manifold->pointCount += 1;
}

static tbManifold tbEmptyManifold( void )
{
	tbManifold manifold;
	memset( &manifold, 0, sizeof( manifold ) );
	return manifold;
}

static tbVec3 tbEdgeTail( const tbHull* hull, int edge )
{
	return hull->vertices[hull->edges[edge].origin];
}

static tbVec3 tbEdgeHead( const tbHull* hull, int edge )
{
	return hull->vertices[hull->edges[hull->edges[edge].twin].origin];
}

// Parameter t in [0, 1] of the point of segment a-b closest to q.
static float tbSegmentParameter( tbVec3 a, tbVec3 b, tbVec3 q )
{
	tbVec3 d = tbSub( b, a );
	float dd = tbDot( d, d );
	if ( dd < 1.0e-20f )
	{
		return 0.0f;
	}
	return tbClampFloat( tbDot( tbSub( q, a ), d ) / dd, 0.0f, 1.0f );
}

// Closest points of segments p1-q1 and p2-q2. Minimises |p1 + s d1 - p2 - t d2|^2 over the unit
// square: the unconstrained stationary point from the 2x2 normal equations, then clamping s,
// recomputing t for it, and if t clamps, recomputing s (the objective is convex, so the clamped
// coordinate's optimum on the boundary edge is the minimiser). Parallel segments pick s = 0.
void tbSegmentClosestPoints( tbVec3 p1, tbVec3 q1, tbVec3 p2, tbVec3 q2, tbVec3* c1, tbVec3* c2 )
{
	tbVec3 d1 = tbSub( q1, p1 );
	tbVec3 d2 = tbSub( q2, p2 );
	tbVec3 r = tbSub( p1, p2 );
	float a = tbDot( d1, d1 );
	float e = tbDot( d2, d2 );
	float f = tbDot( d2, r );
	float s = 0.0f;
	float t = 0.0f;
	const float tiny = 1.0e-20f;

	if ( a <= tiny && e <= tiny )
	{
		s = 0.0f;
		t = 0.0f;
	}
	else if ( a <= tiny )
	{
		t = tbClampFloat( f / e, 0.0f, 1.0f );
	}
	else
	{
		float c = tbDot( d1, r );
		if ( e <= tiny )
		{
			s = tbClampFloat( -c / a, 0.0f, 1.0f );
		}
		else
		{
			float b = tbDot( d1, d2 );
			float denom = a * e - b * b;
			// denom = |d1|^2 |d2|^2 sin^2(angle): relative test so the scale does not matter
			if ( denom > 1.0e-10f * a * e )
			{
				s = tbClampFloat( ( b * f - c * e ) / denom, 0.0f, 1.0f );
			}
			t = ( b * s + f ) / e;
			if ( t < 0.0f )
			{
				t = 0.0f;
				s = tbClampFloat( -c / a, 0.0f, 1.0f );
			}
			else if ( t > 1.0f )
			{
				t = 1.0f;
				s = tbClampFloat( ( b - c ) / a, 0.0f, 1.0f );
			}
		}
	}

	*c1 = tbMulAdd( p1, s, d1 );
	*c2 = tbMulAdd( p2, t, d2 );
}

// Two cores (points) with radii: the sphere-sphere case shared by spheres and capsule ends.
// cA, cB in world frame.
static tbManifold tbCollideCores( tbVec3 cA, float radiusA, tbVec3 cB, float radiusB, tbTransform xfA, tbTransform xfB,
								  float speculativeDistance )
{
	tbManifold manifold = tbEmptyManifold();
	float distance;
	tbVec3 normal = tbGetLengthAndNormalize( &distance, tbSub( cB, cA ) );
	if ( distance < 1.0e-20f )
	{
		// Concentric: any direction separates equally well; up is as good as any and deterministic.
		normal = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	}
	float separation = distance - radiusA - radiusB;
	if ( separation >= speculativeDistance )
	{
		return manifold;
	}
	manifold.normal = normal;
	// Surface of A at cA + rA n, of B at cA + (rA + separation) n: the midpoint is halfway.
	tbVec3 point = tbMulAdd( cA, radiusA + 0.5f * separation, normal );
	tbAddPoint( &manifold, point, separation, 0, xfA, xfB );
	return manifold;
}

// Spheres and capsules --------------------------------------------------------------------------

tbManifold tbCollideSpheres( const tbSphere* sphereA, tbTransform xfA, const tbSphere* sphereB, tbTransform xfB,
							 float speculativeDistance )
{
	tbVec3 cA = tbTransformPoint( xfA, sphereA->center );
	tbVec3 cB = tbTransformPoint( xfB, sphereB->center );
	return tbCollideCores( cA, sphereA->radius, cB, sphereB->radius, xfA, xfB, speculativeDistance );
}

tbManifold tbCollideCapsuleAndSphere( const tbCapsule* capsuleA, tbTransform xfA, const tbSphere* sphereB,
									  tbTransform xfB, float speculativeDistance )
{
	tbVec3 a1 = tbTransformPoint( xfA, capsuleA->center1 );
	tbVec3 a2 = tbTransformPoint( xfA, capsuleA->center2 );
	tbVec3 cB = tbTransformPoint( xfB, sphereB->center );
	float t = tbSegmentParameter( a1, a2, cB );
	tbVec3 cA = tbLerp( a1, a2, t );
	return tbCollideCores( cA, capsuleA->radius, cB, sphereB->radius, xfA, xfB, speculativeDistance );
}

tbManifold tbCollideCapsules( const tbCapsule* capsuleA, tbTransform xfA, const tbCapsule* capsuleB, tbTransform xfB,
							  float speculativeDistance )
{
	tbVec3 a1 = tbTransformPoint( xfA, capsuleA->center1 );
	tbVec3 a2 = tbTransformPoint( xfA, capsuleA->center2 );
	tbVec3 b1 = tbTransformPoint( xfB, capsuleB->center1 );
	tbVec3 b2 = tbTransformPoint( xfB, capsuleB->center2 );
	float rA = capsuleA->radius;
	float rB = capsuleB->radius;

	tbVec3 cA, cB;
	tbSegmentClosestPoints( a1, a2, b1, b2, &cA, &cB );
	float distance = tbDistance( cA, cB );
	if ( distance - rA - rB >= speculativeDistance )
	{
		return tbEmptyManifold();
	}

	float lengthA, lengthB;
	tbVec3 uA = tbGetLengthAndNormalize( &lengthA, tbSub( a2, a1 ) );
	tbVec3 uB = tbGetLengthAndNormalize( &lengthB, tbSub( b2, b1 ) );

	// Nearly parallel segments that overlap along A's axis: two points at the ends of the overlap,
	// so a capsule lying on another does not balance on one point. sin(angle) < 0.1 is ~5.7 deg.
	const float parallelSine = 0.1f;
	if ( lengthA > TB_LINEAR_SLOP && lengthB > TB_LINEAR_SLOP && tbLength( tbCross( uA, uB ) ) < parallelSine )
	{
		float tb1 = tbDot( tbSub( b1, a1 ), uA );
		float tb2 = tbDot( tbSub( b2, a1 ), uA );
		float lower = tbMaxFloat( 0.0f, tbMinFloat( tb1, tb2 ) );
		float upper = tbMinFloat( lengthA, tbMaxFloat( tb1, tb2 ) );
		if ( upper - lower > TB_LINEAR_SLOP )
		{
			// Common normal: the part of the closest-point offset across A's axis.
			tbVec3 offset = tbSub( cB, cA );
			tbVec3 normal = tbNormalize( tbMulSub( offset, tbDot( offset, uA ), uA ) );
			if ( tbLengthSquared( normal ) == 0.0f )
			{
				// Coincident axes: any perpendicular; prefer the one towards B's centre.
				tbVec3 toB = tbSub( tbMulSV( 0.5f, tbAdd( b1, b2 ) ), tbMulSV( 0.5f, tbAdd( a1, a2 ) ) );
				normal = tbNormalize( tbMulSub( toB, tbDot( toB, uA ), uA ) );
				if ( tbLengthSquared( normal ) == 0.0f )
				{
					normal = tbPerpendicular( uA );
				}
			}

			tbManifold manifold = tbEmptyManifold();
			manifold.normal = normal;
			float ends[2] = { lower, upper };
			for ( int i = 0; i < 2; ++i )
			{
				tbVec3 pA = tbMulAdd( a1, ends[i], uA );
				tbVec3 pB = tbLerp( b1, b2, tbSegmentParameter( b1, b2, pA ) );
				float separation = tbDot( tbSub( pB, pA ), normal ) - rA - rB;
				if ( separation < speculativeDistance )
				{
					tbVec3 point = tbMulAdd( pA, rA + 0.5f * separation, normal );
					tbAddPoint( &manifold, point, separation, (uint32_t)( i + 1 ), xfA, xfB );
				}
			}
			if ( manifold.pointCount > 0 )
			{
				return manifold;
			}
		}
	}

	if ( distance < 1.0e-20f )
	{
		// Intersecting axes: the normal of the plane holding both segments separates them.
		tbVec3 normal = tbNormalize( tbCross( uA, uB ) );
		if ( tbLengthSquared( normal ) == 0.0f )
		{
			normal = lengthA > 0.0f ? tbPerpendicular( uA ) : tbMakeVec3( 0.0f, 0.0f, 1.0f );
		}
		tbVec3 toB = tbSub( tbTransformPoint( xfB, tb_vec3_zero ), tbTransformPoint( xfA, tb_vec3_zero ) );
		if ( tbDot( normal, toB ) < 0.0f )
		{
			normal = tbNeg( normal );
		}
		float separation = -rA - rB;
		tbManifold manifold = tbEmptyManifold();
		manifold.normal = normal;
		tbAddPoint( &manifold, tbMulAdd( cA, rA + 0.5f * separation, normal ), separation, 0, xfA, xfB );
		return manifold;
	}

	return tbCollideCores( cA, rA, cB, rB, xfA, xfB, speculativeDistance );
}

// Hull features ---------------------------------------------------------------------------------

// True when q projects inside face f of the hull (onto its plane, within its polygon). The edges
// run counter-clockwise seen from outside, so the interior is on the left of each.
static bool tbProjectsInsideFace( const tbHull* hull, int f, tbVec3 q )
{
	tbVec3 normal = hull->planes[f].normal;
	int first = hull->faces[f].edge;
	int e = first;
	int guard = 0;
	do
	{
		tbVec3 v0 = tbEdgeTail( hull, e );
		tbVec3 v1 = tbEdgeHead( hull, e );
		if ( tbDot( tbCross( tbSub( v1, v0 ), tbSub( q, v0 ) ), normal ) < 0.0f )
		{
			return false;
		}
		e = hull->edges[e].next;
		guard += 1;
	} while ( e != first && guard < hull->edgeCount );
	return true;
}

// Closest point of a hull's surface to q, which lies outside the hull. The closest point is in a
// face's interior (q projects inside the face, on its front side) or on an edge (vertices are
// edge ends), so checking those two sets is exhaustive.
static tbVec3 tbClosestPointOnHull( const tbHull* hull, tbVec3 q, float* distance )
{
	float bestSq = FLT_MAX;
	tbVec3 best = q;

	for ( int f = 0; f < hull->faceCount; ++f )
	{
		tbPlane plane = hull->planes[f];
		float d = tbDot( plane.normal, q ) - plane.offset;
		if ( d <= 0.0f || d * d >= bestSq )
		{
			continue;
		}
		tbVec3 projected = tbMulSub( q, d, plane.normal );
		if ( tbProjectsInsideFace( hull, f, projected ) )
		{
			bestSq = d * d;
			best = projected;
		}
	}

	for ( int e = 0; e < hull->edgeCount; ++e )
	{
		if ( hull->edges[e].twin < e )
		{
			continue;
		}
		tbVec3 v0 = tbEdgeTail( hull, e );
		tbVec3 v1 = tbEdgeHead( hull, e );
		tbVec3 c = tbLerp( v0, v1, tbSegmentParameter( v0, v1, q ) );
		float dSq = tbDistanceSquared( c, q );
		if ( dSq < bestSq )
		{
			bestSq = dSq;
			best = c;
		}
	}

	*distance = sqrtf( bestSq );
	return best;
}

int tbFindHullFace( const tbHull* hull, tbVec3 direction )
{
	int best = 0;
	float bestDot = -FLT_MAX;
	for ( int f = 0; f < hull->faceCount; ++f )
	{
		float dot = tbDot( hull->planes[f].normal, direction );
		if ( dot > bestDot )
		{
			bestDot = dot;
			best = f;
		}
	}
	return best;
}

// Support point of a hull (local frame) in direction d.
static int tbFindSupport( const tbHull* hull, tbVec3 d )
{
	int best = 0;
	float bestValue = tbDot( hull->vertices[0], d );
	for ( int i = 1; i < hull->vertexCount; ++i )
	{
		float value = tbDot( hull->vertices[i], d );
		if ( value > bestValue )
		{
			bestValue = value;
			best = i;
		}
	}
	return best;
}

// Clip segment p1 + t (p2 - p1), t in [*t1, *t2], to the prism over a hull face (its side planes,
// pushed out by tolerance). Returns false if nothing remains.
static bool tbClipSegmentToFace( const tbHull* hull, int face, tbVec3 p1, tbVec3 p2, float tolerance, float* t1,
								 float* t2 )
{
	tbVec3 normal = hull->planes[face].normal;
	tbVec3 d = tbSub( p2, p1 );
	float lower = *t1;
	float upper = *t2;
	int first = hull->faces[face].edge;
	int e = first;
	int guard = 0;
	do
	{
		tbVec3 v0 = tbEdgeTail( hull, e );
		tbVec3 v1 = tbEdgeHead( hull, e );
		tbVec3 side = tbNormalize( tbCross( tbSub( v1, v0 ), normal ) );
		float d0 = tbDot( side, tbSub( p1, v0 ) ) - tolerance;
		float dd = tbDot( side, d );
		if ( tbAbsFloat( dd ) < 1.0e-12f )
		{
			if ( d0 > 0.0f )
			{
				return false;
			}
		}
		else if ( dd > 0.0f )
		{
			upper = tbMinFloat( upper, -d0 / dd );
		}
		else
		{
			lower = tbMaxFloat( lower, -d0 / dd );
		}
		if ( lower > upper )
		{
			return false;
		}
		e = hull->edges[e].next;
		guard += 1;
	} while ( e != first && guard < hull->edgeCount );

	*t1 = lower;
	*t2 = upper;
	return true;
}

// Hull and sphere -------------------------------------------------------------------------------

static tbManifold tbCollideGeneralHullAndSphere( const tbHull* hullA, tbTransform xfA, const tbSphere* sphereB,
												 tbTransform xfB, float speculativeDistance )
{
	tbManifold manifold = tbEmptyManifold();
	float radius = sphereB->radius;
	// Work in A's frame: the hull's planes and vertices are used as stored.
	tbVec3 c = tbInvTransformPoint( xfA, tbTransformPoint( xfB, sphereB->center ) );

	float maxDistance = -FLT_MAX;
	int maxFace = 0;
	for ( int f = 0; f < hullA->faceCount; ++f )
	{
		float d = tbDot( hullA->planes[f].normal, c ) - hullA->planes[f].offset;
		if ( d > maxDistance )
		{
			maxDistance = d;
			maxFace = f;
		}
	}

	// The largest plane distance is a lower bound on the distance to a convex hull.
	if ( maxDistance - radius >= speculativeDistance )
	{
		return manifold;
	}

	tbVec3 normal, surfaceA;
	float separation;
	if ( maxDistance <= TB_CORE_TOUCH_DISTANCE )
	{
		// Centre inside (or on the surface): push out through the least penetrated face.
		normal = hullA->planes[maxFace].normal;
		surfaceA = tbMulSub( c, maxDistance, normal );
		separation = maxDistance - radius;
	}
	else if ( tbProjectsInsideFace( hullA, maxFace, c ) )
	{
		// Over the face of the largest plane distance (a sphere resting on a box): the closest
		// point is the centre's projection on it, at that distance (any other point x of the hull
		// lies behind the face's plane, so |c - x| >= n . (c - x) >= maxDistance).
		normal = hullA->planes[maxFace].normal;
		surfaceA = tbMulSub( c, maxDistance, normal );
		separation = maxDistance - radius;
	}
	else
	{
		float distance;
		surfaceA = tbClosestPointOnHull( hullA, c, &distance );
		separation = distance - radius;
		if ( separation >= speculativeDistance )
		{
			return manifold;
		}
		// Rounding can leave the centre on the surface (distance 0) although the plane test put it
		// outside: the face normal is the direction then.
		// The direction is normalised by its own length, not by `distance` (the plane distances of
		// tbClosestPointOnHull), which rounding makes differ from it (finding 30: length 1.0026, a 1.7 m hull).
		tbVec3 gap = tbSub( c, surfaceA );
		float gapLength = tbLength( gap );
		normal = distance > 0.0f && gapLength > 0.0f ? tbMulSV( 1.0f / gapLength, gap ) : hullA->planes[maxFace].normal;
	}

	// Midway between the hull surface point and the sphere surface point c - r n.
	tbVec3 point = tbMulSV( 0.5f, tbAdd( surfaceA, tbMulSub( c, radius, normal ) ) );
	manifold.normal = tbRotate( xfA.q, normal );
	tbAddPoint( &manifold, tbTransformPoint( xfA, point ), separation, 0, xfA, xfB );
	return manifold;
}

// Boxes: closed forms in the box's frame -------------------------------------------------------
// A hull recognised as a box (tbGetBoxHull) is the set |u_k| <= e_k in coordinates u_k = a_k . (x - c)
// along its face axes a_k about its centre c. Face 2k has the outward normal -a_k, face 2k + 1 +a_k.
// The sphere and capsule paths below make the same decisions as the general hull paths (the same
// branches, tie-breaks and feature ids), only with each face, edge and closest-point search done
// on the coordinates instead of over the hull's planes and half-edges; the results agree to float
// rounding (tests/unit/test_box_contacts.c compares them over random poses).

static float tbGetComponent( tbVec3 v, int k )
{
	return k == 0 ? v.x : ( k == 1 ? v.y : v.z );
}

// Box coordinates of a point in the hull's frame.
static tbVec3 tbToBox( const tbBoxHull* box, tbVec3 p )
{
	tbVec3 r = tbSub( p, box->center );
	return tbMakeVec3( tbDot( box->axes[0], r ), tbDot( box->axes[1], r ), tbDot( box->axes[2], r ) );
}

// A direction in box coordinates, in the hull's frame.
static tbVec3 tbBoxDirection( const tbBoxHull* box, tbVec3 u )
{
	return tbAdd( tbAdd( tbMulSV( u.x, box->axes[0] ), tbMulSV( u.y, box->axes[1] ) ), tbMulSV( u.z, box->axes[2] ) );
}

// A point in box coordinates, in the hull's frame.
static tbVec3 tbBoxPoint( const tbBoxHull* box, tbVec3 u )
{
	return tbAdd( box->center, tbBoxDirection( box, u ) );
}

// The point of the box closest to u (box coordinates): u clamped to the extents.
static tbVec3 tbClampToBox( const tbBoxHull* box, tbVec3 u )
{
	const float* e = box->extents;
	return tbMakeVec3( tbClampFloat( u.x, -e[0], e[0] ), tbClampFloat( u.y, -e[1], e[1] ),
					   tbClampFloat( u.z, -e[2], e[2] ) );
}

// The sphere against a box: tbCollideGeneralHullAndSphere's cases from the coordinates. The largest
// plane distance is max_k |u_k| - e_k; outside the box the closest point is u clamped to the
// extents, on a face if one coordinate is clamped (the general path's projection case) and on an
// edge or corner if two or three are.
static tbManifold tbCollideBoxAndSphere( const tbHull* hullA, const tbBoxHull* box, tbTransform xfA,
										 const tbSphere* sphereB, tbTransform xfB, float speculativeDistance )
{
	tbManifold manifold = tbEmptyManifold();
	float radius = sphereB->radius;
	tbVec3 c = tbInvTransformPoint( xfA, tbTransformPoint( xfB, sphereB->center ) );
	tbVec3 u = tbToBox( box, c );
	const float* e = box->extents;
	float dx = tbAbsFloat( u.x ) - e[0];
	float dy = tbAbsFloat( u.y ) - e[1];
	float dz = tbAbsFloat( u.z ) - e[2];
	// The first axis on ties, as the general path's first face.
	int axis = 0;
	float maxDistance = dx;
	if ( dy > maxDistance )
	{
		axis = 1;
		maxDistance = dy;
	}
	if ( dz > maxDistance )
	{
		axis = 2;
		maxDistance = dz;
	}
	if ( maxDistance - radius >= speculativeDistance )
	{
		return manifold;
	}

	tbVec3 normal, surfaceA;
	float separation;
	int outside = ( dx > 0.0f ) + ( dy > 0.0f ) + ( dz > 0.0f );
	if ( maxDistance <= TB_CORE_TOUCH_DISTANCE || outside == 1 )
	{
		// Inside (push out through the least penetrated face) or over one face.
		int face = 2 * axis + ( tbGetComponent( u, axis ) > 0.0f ? 1 : 0 );
		normal = hullA->planes[face].normal;
		surfaceA = tbMulSub( c, maxDistance, normal );
		separation = maxDistance - radius;
	}
	else
	{
		// Off an edge or a corner: the gap to the clamped point.
		tbVec3 gap = tbSub( u, tbClampToBox( box, u ) );
		float distance = tbLength( gap );
		separation = distance - radius;
		if ( separation >= speculativeDistance )
		{
			return manifold;
		}
		tbVec3 gapA = tbBoxDirection( box, gap );
		normal = tbMulSV( 1.0f / distance, gapA );
		surfaceA = tbSub( c, gapA );
	}

	tbVec3 point = tbMulSV( 0.5f, tbAdd( surfaceA, tbMulSub( c, radius, normal ) ) );
	manifold.normal = tbRotate( xfA.q, normal );
	tbAddPoint( &manifold, tbTransformPoint( xfA, point ), separation, 0, xfA, xfB );
	return manifold;
}

tbManifold tbCollideHullOrBoxAndSphere( const tbHull* hullA, const tbBoxHull* boxA, tbTransform xfA,
										const tbSphere* sphereB, tbTransform xfB, float speculativeDistance )
{
	if ( boxA != NULL )
	{
		return tbCollideBoxAndSphere( hullA, boxA, xfA, sphereB, xfB, speculativeDistance );
	}
	return tbCollideGeneralHullAndSphere( hullA, xfA, sphereB, xfB, speculativeDistance );
}

tbManifold tbCollideHullAndSphere( const tbHull* hullA, tbTransform xfA, const tbSphere* sphereB, tbTransform xfB,
								   float speculativeDistance )
{
	tbBoxHull box;
	const tbBoxHull* isBox = tbGetBoxHull( hullA, &box ) ? &box : NULL;
	return tbCollideHullOrBoxAndSphere( hullA, isBox, xfA, sphereB, xfB, speculativeDistance );
}

// Hull and capsule ------------------------------------------------------------------------------

// Points of a capsule core segment p1-p2 clipped to face `face` of the hull (A's frame), with
// separations measured along the face normal. Nothing is added, and 0 returned, if no point
// survives or the deepest one is shallower than maxDeepest (the clipped part then misses the
// closest approach, which lies beyond the face's rim).
static int tbAddCapsuleFacePoints( tbManifold* manifold, const tbHull* hull, int face, tbVec3 p1, tbVec3 p2,
								   float radius, float speculativeDistance, float maxDeepest, tbTransform xfA,
								   tbTransform xfB )
{
	tbPlane plane = hull->planes[face];
	float t1 = 0.0f;
	float t2 = 1.0f;
	if ( tbClipSegmentToFace( hull, face, p1, p2, 0.0f, &t1, &t2 ) == false )
	{
		return 0;
	}
	// A segment standing on the face clips to one point twice; keep it once.
	int endCount = tbDistanceSquared( tbLerp( p1, p2, t1 ), tbLerp( p1, p2, t2 ) ) > 1.0e-12f ? 2 : 1;
	float ts[2] = { t1, t2 };
	tbVec3 points[2];
	float separations[2];
	float deepest = FLT_MAX;
	for ( int i = 0; i < endCount; ++i )
	{
		tbVec3 q = tbLerp( p1, p2, ts[i] );
		separations[i] = tbDot( plane.normal, q ) - plane.offset - radius;
		points[i] = tbMulSub( q, radius + 0.5f * separations[i], plane.normal );
		deepest = tbMinFloat( deepest, separations[i] );
	}
	if ( deepest >= speculativeDistance || deepest > maxDeepest )
	{
		return 0;
	}
	int added = 0;
	for ( int i = 0; i < endCount; ++i )
	{
		if ( separations[i] < speculativeDistance )
		{
			uint32_t id = tbHash3( tbKey_capsuleEnd, (uint32_t)face, (uint32_t)i );
			tbAddPoint( manifold, tbTransformPoint( xfA, points[i] ), separations[i], id, xfA, xfB );
			added += 1;
		}
	}
	return added;
}

static tbManifold tbCollideGeneralHullAndCapsule( const tbHull* hullA, tbTransform xfA, const tbCapsule* capsuleB,
												  tbTransform xfB, float speculativeDistance )
{
	tbManifold manifold = tbEmptyManifold();
	tbTransform xf = tbInvMulTransforms( xfA, xfB );
	tbVec3 p1 = tbTransformPoint( xf, capsuleB->center1 );
	tbVec3 p2 = tbTransformPoint( xf, capsuleB->center2 );
	tbVec3 d = tbSub( p2, p1 );
	float radius = capsuleB->radius;
	float limit = radius + speculativeDistance;

	// SAT of the core segment against the hull. The Minkowski sum of the hull and a segment has
	// faces parallel to the hull faces and parallelograms spanned by a hull edge and d, so these
	// axes are complete.
	float faceSeparation = -FLT_MAX;
	int faceIndex = 0;
	for ( int f = 0; f < hullA->faceCount; ++f )
	{
		tbPlane plane = hullA->planes[f];
		float s = tbMinFloat( tbDot( plane.normal, p1 ), tbDot( plane.normal, p2 ) ) - plane.offset;
		if ( s > faceSeparation )
		{
			faceSeparation = s;
			faceIndex = f;
		}
	}
	if ( faceSeparation > limit )
	{
		return manifold;
	}

	float lengthD = tbLength( d );
	tbPlane facePlane = hullA->planes[faceIndex];
	if ( faceSeparation > TB_CORE_TOUCH_DISTANCE && tbProjectsInsideFace( hullA, faceIndex, p1 ) &&
		 tbProjectsInsideFace( hullA, faceIndex, p2 ) )
	{
		// The whole core lies over one face (a limb resting on the ground): every segment point
		// projects inside it, in front of it, so the segment's closest points to the hull are on
		// that face (as for a sphere in tbCollideHullAndSphere) and the distance is faceSeparation,
		// reached at the lower end. This is the case the exact path below ends in, without its
		// closest-point searches over every face and edge.
		float separation = faceSeparation - radius;
		if ( separation >= speculativeDistance )
		{
			return manifold;
		}
		manifold.normal = tbRotate( xfA.q, facePlane.normal );
		if ( tbAbsFloat( tbDot( facePlane.normal, d ) ) < 0.25f * lengthD &&
			 tbAddCapsuleFacePoints( &manifold, hullA, faceIndex, p1, p2, radius, speculativeDistance, FLT_MAX, xfA,
									 xfB ) > 0 )
		{
			return manifold;
		}
		tbVec3 q = tbDot( facePlane.normal, p2 ) < tbDot( facePlane.normal, p1 ) ? p2 : p1;
		tbVec3 point = tbMulSub( q, radius + 0.5f * separation, facePlane.normal );
		tbAddPoint( &manifold, tbTransformPoint( xfA, point ), separation, 0, xfA, xfB );
		return manifold;
	}

	float edgeSeparation = -FLT_MAX;
	int edgeIndex = -1;
	tbVec3 edgeAxis = tb_vec3_zero;
	for ( int e = 0; e < hullA->edgeCount && lengthD > 0.0f; ++e )
	{
		int twin = hullA->edges[e].twin;
		if ( twin < e )
		{
			continue;
		}
		tbVec3 a = hullA->planes[hullA->edges[e].face].normal;
		tbVec3 b = hullA->planes[hullA->edges[twin].face].normal;
		// The segment's Gauss map is the great circle perpendicular to d; the edge's arc a-b
		// crosses it only if a and b lie on opposite sides.
		if ( tbDot( a, d ) * tbDot( b, d ) >= 0.0f )
		{
			continue;
		}
		tbVec3 v0 = tbEdgeTail( hullA, e );
		tbVec3 edge = tbSub( tbEdgeHead( hullA, e ), v0 );
		tbVec3 axis = tbCross( edge, d );
		float length = tbLength( axis );
		if ( length < 0.005f * tbLength( edge ) * lengthD )
		{
			continue;
		}
		axis = tbMulSV( 1.0f / length, axis );
		if ( tbDot( axis, tbAdd( a, b ) ) < 0.0f )
		{
			axis = tbNeg( axis );
		}
		float s = tbDot( axis, tbSub( p1, v0 ) );
		if ( s > edgeSeparation )
		{
			edgeSeparation = s;
			edgeIndex = e;
			edgeAxis = axis;
		}
	}
	if ( edgeSeparation > limit )
	{
		return manifold;
	}

	float satSeparation = tbMaxFloat( faceSeparation, edgeSeparation );
	if ( satSeparation > TB_CORE_TOUCH_DISTANCE )
	{
		// The core is outside the hull: exact closest points. The closest pair has an end of the
		// segment against the hull, or the segment against a hull edge (an interior segment point
		// over a face interior means the segment is parallel to the face, which an end matches).
		float distance1, distance2;
		tbVec3 y1 = tbClosestPointOnHull( hullA, p1, &distance1 );
		tbVec3 y2 = tbClosestPointOnHull( hullA, p2, &distance2 );
		tbVec3 x = p1;
		tbVec3 y = y1;
		float distance = distance1;
		if ( distance2 < distance )
		{
			x = p2;
			y = y2;
			distance = distance2;
		}
		for ( int e = 0; e < hullA->edgeCount; ++e )
		{
			if ( hullA->edges[e].twin < e )
			{
				continue;
			}
			tbVec3 cE, cS;
			tbSegmentClosestPoints( tbEdgeTail( hullA, e ), tbEdgeHead( hullA, e ), p1, p2, &cE, &cS );
			float dist = tbDistance( cE, cS );
			if ( dist < distance )
			{
				distance = dist;
				x = cS;
				y = cE;
			}
		}

		float separation = distance - radius;
		if ( separation >= speculativeDistance )
		{
			return manifold;
		}
		// The SAT said the core is clear, but at kilometre scales the exact closest points can
		// coincide (a segment end on a hull vertex, rounded): then the SAT axis is the normal.
		// The normal is normalised by the length of x - y itself: `distance` may come from
		// tbClosestPointOnHull's plane distances, which differ from |x - y| by rounding at km
		// scales (fuzz finding 30: a normal of length 1.0014, 1 km capsule on a 2 km hull).
		tbVec3 normal;
		tbVec3 gap = tbSub( x, y );
		float gapLength = tbLength( gap );
		if ( distance > 1.0e-9f && gapLength > 1.0e-9f )
		{
			normal = tbMulSV( 1.0f / gapLength, gap );
		}
		else
		{
			normal = faceSeparation >= edgeSeparation ? hullA->planes[faceIndex].normal : edgeAxis;
		}

		// Lying flat on a face (normal is the face normal, segment nearly parallel to it): two
		// points, one per clipped end. |cos| < 0.25 is within ~14.5 deg of parallel; points of a
		// steeper segment end up too high and are dropped by the speculative test anyway.
		int bestFace = tbFindHullFace( hullA, normal );
		tbVec3 faceNormal = hullA->planes[bestFace].normal;
		float bestDot = tbDot( faceNormal, normal );
		if ( bestDot > 0.999f && tbAbsFloat( tbDot( faceNormal, d ) ) < 0.25f * lengthD )
		{
			manifold.normal = tbRotate( xfA.q, faceNormal );
			float maxDeepest = separation + TB_FLAT_CAPSULE_TOLERANCE;
			if ( tbAddCapsuleFacePoints( &manifold, hullA, bestFace, p1, p2, radius, speculativeDistance, maxDeepest,
										 xfA, xfB ) > 0 )
			{
				return manifold;
			}
		}

		manifold.normal = tbRotate( xfA.q, normal );
		tbVec3 point = tbMulSV( 0.5f, tbAdd( y, tbMulSub( x, radius, normal ) ) );
		tbAddPoint( &manifold, tbTransformPoint( xfA, point ), separation, 0, xfA, xfB );
		return manifold;
	}

	// The core touches or crosses the hull: use the SAT axis of least penetration.
	if ( edgeIndex >= 0 && edgeSeparation > faceSeparation + tbAxisTolerance( faceSeparation ) )
	{
		tbVec3 cE, cS;
		tbSegmentClosestPoints( tbEdgeTail( hullA, edgeIndex ), tbEdgeHead( hullA, edgeIndex ), p1, p2, &cE, &cS );
		float separation = tbDot( edgeAxis, tbSub( cS, cE ) ) - radius;
		if ( separation < speculativeDistance )
		{
			manifold.normal = tbRotate( xfA.q, edgeAxis );
			tbVec3 point = tbMulSV( 0.5f, tbAdd( cE, tbMulSub( cS, radius, edgeAxis ) ) );
			tbAddPoint( &manifold, tbTransformPoint( xfA, point ), separation, 0, xfA, xfB );
		}
		return manifold;
	}

	tbPlane plane = facePlane;
	manifold.normal = tbRotate( xfA.q, plane.normal );
	if ( tbAddCapsuleFacePoints( &manifold, hullA, faceIndex, p1, p2, radius, speculativeDistance, FLT_MAX, xfA, xfB ) >
		 0 )
	{
		return manifold;
	}
	// The segment's part over the face was clipped away (it enters through a neighbour region):
	// fall back to its deepest end.
	tbVec3 q = tbDot( plane.normal, p1 ) <= tbDot( plane.normal, p2 ) ? p1 : p2;
	float separation = tbDot( plane.normal, q ) - plane.offset - radius;
	if ( separation < speculativeDistance )
	{
		tbVec3 point = tbMulSub( q, radius + 0.5f * separation, plane.normal );
		tbAddPoint( &manifold, tbTransformPoint( xfA, point ), separation, 0, xfA, xfB );
	}
	return manifold;
}

// Box and capsule -------------------------------------------------------------------------------

// tbAddCapsuleFacePoints for face `face` of a box, the segment u1-u2 in box coordinates: the face's
// side planes are the slabs |u_i| <= e_i of its other two axes.
static int tbAddBoxCapsuleFacePoints( tbManifold* manifold, const tbBoxHull* box, int face, tbVec3 u1, tbVec3 u2,
									  float radius, float speculativeDistance, float maxDeepest, tbTransform xfA,
									  tbTransform xfB )
{
	int k = face / 2;
	float sign = ( face & 1 ) != 0 ? 1.0f : -1.0f;
	tbVec3 d = tbSub( u2, u1 );
	float lower = 0.0f;
	float upper = 1.0f;
	for ( int side = 0; side < 4; ++side )
	{
		int m = ( k + 1 + ( side >> 1 ) ) % 3;
		float s = ( side & 1 ) != 0 ? 1.0f : -1.0f;
		float d0 = s * tbGetComponent( u1, m ) - box->extents[m];
		float dd = s * tbGetComponent( d, m );
		if ( tbAbsFloat( dd ) < 1.0e-12f )
		{
			if ( d0 > 0.0f )
			{
				return 0;
			}
		}
		else if ( dd > 0.0f )
		{
			upper = tbMinFloat( upper, -d0 / dd );
		}
		else
		{
			lower = tbMaxFloat( lower, -d0 / dd );
		}
		if ( lower > upper )
		{
			return 0;
		}
	}

	int endCount = tbDistanceSquared( tbLerp( u1, u2, lower ), tbLerp( u1, u2, upper ) ) > 1.0e-12f ? 2 : 1;
	float ts[2] = { lower, upper };
	tbVec3 points[2];
	float separations[2];
	float deepest = FLT_MAX;
	for ( int i = 0; i < endCount; ++i )
	{
		tbVec3 q = tbLerp( u1, u2, ts[i] );
		separations[i] = sign * tbGetComponent( q, k ) - box->extents[k] - radius;
		float shift = sign * ( radius + 0.5f * separations[i] );
		points[i] = tbMakeVec3( k == 0 ? q.x - shift : q.x, k == 1 ? q.y - shift : q.y, k == 2 ? q.z - shift : q.z );
		deepest = tbMinFloat( deepest, separations[i] );
	}
	if ( deepest >= speculativeDistance || deepest > maxDeepest )
	{
		return 0;
	}
	int added = 0;
	for ( int i = 0; i < endCount; ++i )
	{
		if ( separations[i] < speculativeDistance )
		{
			uint32_t id = tbHash3( tbKey_capsuleEnd, (uint32_t)face, (uint32_t)i );
			tbAddPoint( manifold, tbTransformPoint( xfA, tbBoxPoint( box, points[i] ) ), separations[i], id, xfA, xfB );
			added += 1;
		}
	}
	return added;
}

// Parameter t in [0, 1] of the point of segment u1 + t d closest to the box (box coordinates). The
// squared distance sum_k (u_k(t) - clamp(u_k(t)))^2 is convex and piecewise quadratic in t, with
// breaks where a coordinate crosses an extent: walk the pieces in order and stop at the first
// whose own minimum lies before its end.
static float tbBoxSegmentParameter( const tbBoxHull* box, tbVec3 u1, tbVec3 d )
{
	float p[3] = { u1.x, u1.y, u1.z };
	float v[3] = { d.x, d.y, d.z };
	float breaks[8];
	int count = 0;
	for ( int k = 0; k < 3; ++k )
	{
		if ( v[k] != 0.0f )
		{
			for ( int s = -1; s <= 1; s += 2 )
			{
				float t = ( (float)s * box->extents[k] - p[k] ) / v[k];
				if ( t > 0.0f && t < 1.0f )
				{
					int i = count++;
					while ( i > 0 && breaks[i - 1] > t )
					{
						breaks[i] = breaks[i - 1];
						i -= 1;
					}
					breaks[i] = t;
				}
			}
		}
	}
	breaks[count] = 1.0f;

	float start = 0.0f;
	for ( int piece = 0; piece <= count; ++piece )
	{
		float end = breaks[piece];
		float mid = 0.5f * ( start + end );
		float a = 0.0f;
		float b = 0.0f;
		for ( int k = 0; k < 3; ++k )
		{
			float x = p[k] + mid * v[k];
			float e = box->extents[k];
			if ( x > e || x < -e )
			{
				float offset = p[k] - ( x > e ? e : -e );
				a += v[k] * v[k];
				b += offset * v[k];
			}
		}
		// Flat piece (no coordinate outside): the segment meets the box there.
		float t = a > 0.0f ? tbClampFloat( -b / a, start, end ) : start;
		if ( t < end || piece == count )
		{
			return t;
		}
		start = end;
	}
	return 1.0f;
}

// The capsule against a box: tbCollideGeneralHullAndCapsule's cases from the coordinates. The
// segment's face separations are those of its coordinate ranges; its edge axes are a_m x d for the
// edges along a_m whose two faces' normals straddle d; the exact closest points outside come from
// tbBoxSegmentParameter and clamping.
static tbManifold tbCollideBoxAndCapsule( const tbHull* hullA, const tbBoxHull* box, tbTransform xfA,
										  const tbCapsule* capsuleB, tbTransform xfB, float speculativeDistance )
{
	tbManifold manifold = tbEmptyManifold();
	tbTransform xf = tbInvMulTransforms( xfA, xfB );
	tbVec3 u1 = tbToBox( box, tbTransformPoint( xf, capsuleB->center1 ) );
	tbVec3 u2 = tbToBox( box, tbTransformPoint( xf, capsuleB->center2 ) );
	tbVec3 d = tbSub( u2, u1 );
	float radius = capsuleB->radius;
	float limit = radius + speculativeDistance;
	const float* e = box->extents;
	float c1[3] = { u1.x, u1.y, u1.z };
	float c2[3] = { u2.x, u2.y, u2.z };
	float cd[3] = { d.x, d.y, d.z };

	float faceSeparation = -FLT_MAX;
	int faceIndex = 0;
	for ( int k = 0; k < 3; ++k )
	{
		float lower = -tbMaxFloat( c1[k], c2[k] ) - e[k];
		float upper = tbMinFloat( c1[k], c2[k] ) - e[k];
		if ( lower > faceSeparation )
		{
			faceSeparation = lower;
			faceIndex = 2 * k;
		}
		if ( upper > faceSeparation )
		{
			faceSeparation = upper;
			faceIndex = 2 * k + 1;
		}
	}
	if ( faceSeparation > limit )
	{
		return manifold;
	}

	float lengthD = tbLength( d );
	int faceAxis = faceIndex / 2;
	float faceSign = ( faceIndex & 1 ) != 0 ? 1.0f : -1.0f;
	int i1 = ( faceAxis + 1 ) % 3;
	int i2 = ( faceAxis + 2 ) % 3;
	tbVec3 faceNormal = hullA->planes[faceIndex].normal;
	if ( faceSeparation > TB_CORE_TOUCH_DISTANCE && tbAbsFloat( c1[i1] ) <= e[i1] && tbAbsFloat( c1[i2] ) <= e[i2] &&
		 tbAbsFloat( c2[i1] ) <= e[i1] && tbAbsFloat( c2[i2] ) <= e[i2] )
	{
		// The whole core lies over one face.
		float separation = faceSeparation - radius;
		if ( separation >= speculativeDistance )
		{
			return manifold;
		}
		manifold.normal = tbRotate( xfA.q, faceNormal );
		float along = faceSign * cd[faceAxis];
		if ( tbAbsFloat( along ) < 0.25f * lengthD &&
			 tbAddBoxCapsuleFacePoints( &manifold, box, faceIndex, u1, u2, radius, speculativeDistance, FLT_MAX, xfA,
										xfB ) > 0 )
		{
			return manifold;
		}
		tbVec3 q = along < 0.0f ? u2 : u1;
		tbVec3 point = tbMulSub( tbBoxPoint( box, q ), radius + 0.5f * separation, faceNormal );
		tbAddPoint( &manifold, tbTransformPoint( xfA, point ), separation, 0, xfA, xfB );
		return manifold;
	}

	// Edge axes: the edge along a_m between the faces with normals s1 a_m1 and s2 a_m2 (m1, m2 the
	// other axes) passes the general path's arc test if (s1 d_m1) (s2 d_m2) < 0, and its axis is
	// a_m x d = (-d_m2, d_m1) in the (m1, m2) plane, turned towards s1 a_m1 + s2 a_m2.
	float edgeSeparation = -FLT_MAX;
	bool edgeFound = false;
	int edgeM = 0;
	float edgeS1 = 0.0f, edgeS2 = 0.0f;
	float edgeX = 0.0f, edgeY = 0.0f;
	for ( int m = 0; m < 3 && lengthD > 0.0f; ++m )
	{
		int m1 = ( m + 1 ) % 3;
		int m2 = ( m + 2 ) % 3;
		float length = sqrtf( cd[m1] * cd[m1] + cd[m2] * cd[m2] );
		if ( length < 0.005f * lengthD || cd[m1] * cd[m2] == 0.0f )
		{
			continue;
		}
		float x = -cd[m2] / length;
		float y = cd[m1] / length;
		for ( int n = 0; n < 4; ++n )
		{
			float s1 = ( n & 1 ) != 0 ? 1.0f : -1.0f;
			float s2 = ( n & 2 ) != 0 ? 1.0f : -1.0f;
			if ( ( s1 * cd[m1] ) * ( s2 * cd[m2] ) >= 0.0f )
			{
				continue;
			}
			float ax = x;
			float ay = y;
			if ( ax * s1 + ay * s2 < 0.0f )
			{
				ax = -ax;
				ay = -ay;
			}
			float s = ax * ( c1[m1] - s1 * e[m1] ) + ay * ( c1[m2] - s2 * e[m2] );
			if ( s > edgeSeparation )
			{
				edgeSeparation = s;
				edgeFound = true;
				edgeM = m;
				edgeS1 = s1;
				edgeS2 = s2;
				edgeX = ax;
				edgeY = ay;
			}
		}
	}
	if ( edgeSeparation > limit )
	{
		return manifold;
	}
	// The edge's axis and end points in box coordinates.
	tbVec3 edgeAxis = tb_vec3_zero;
	tbVec3 edge0 = tb_vec3_zero;
	tbVec3 edge1 = tb_vec3_zero;
	if ( edgeFound )
	{
		float axis[3], p0[3], p1[3];
		int m1 = ( edgeM + 1 ) % 3;
		int m2 = ( edgeM + 2 ) % 3;
		axis[edgeM] = 0.0f;
		axis[m1] = edgeX;
		axis[m2] = edgeY;
		p0[edgeM] = -e[edgeM];
		p1[edgeM] = e[edgeM];
		p0[m1] = p1[m1] = edgeS1 * e[m1];
		p0[m2] = p1[m2] = edgeS2 * e[m2];
		edgeAxis = tbMakeVec3( axis[0], axis[1], axis[2] );
		edge0 = tbMakeVec3( p0[0], p0[1], p0[2] );
		edge1 = tbMakeVec3( p1[0], p1[1], p1[2] );
	}

	float satSeparation = tbMaxFloat( faceSeparation, edgeSeparation );
	if ( satSeparation > TB_CORE_TOUCH_DISTANCE )
	{
		// Outside: the exact closest points.
		tbVec3 x = tbLerp( u1, u2, tbBoxSegmentParameter( box, u1, d ) );
		tbVec3 y = tbClampToBox( box, x );
		tbVec3 gap = tbSub( x, y );
		float distance = tbLength( gap );
		float separation = distance - radius;
		if ( separation >= speculativeDistance )
		{
			return manifold;
		}
		tbVec3 normal;
		if ( distance > 1.0e-9f )
		{
			normal = tbMulSV( 1.0f / distance, gap );
		}
		else if ( faceSeparation >= edgeSeparation )
		{
			normal = tbMakeVec3( faceAxis == 0 ? faceSign : 0.0f, faceAxis == 1 ? faceSign : 0.0f,
								 faceAxis == 2 ? faceSign : 0.0f );
		}
		else
		{
			normal = edgeAxis;
		}

		// Lying flat on a face: the face of the normal's largest coordinate (the first on ties).
		float n[3] = { normal.x, normal.y, normal.z };
		int bestFace = 0;
		float bestDot = -n[0];
		for ( int f = 1; f < 6; ++f )
		{
			float dot = ( f & 1 ) != 0 ? n[f / 2] : -n[f / 2];
			if ( dot > bestDot )
			{
				bestDot = dot;
				bestFace = f;
			}
		}
		float bestSign = ( bestFace & 1 ) != 0 ? 1.0f : -1.0f;
		if ( bestDot > 0.999f && tbAbsFloat( bestSign * cd[bestFace / 2] ) < 0.25f * lengthD )
		{
			manifold.normal = tbRotate( xfA.q, hullA->planes[bestFace].normal );
			float maxDeepest = separation + TB_FLAT_CAPSULE_TOLERANCE;
			if ( tbAddBoxCapsuleFacePoints( &manifold, box, bestFace, u1, u2, radius, speculativeDistance, maxDeepest,
											xfA, xfB ) > 0 )
			{
				return manifold;
			}
		}

		manifold.normal = tbRotate( xfA.q, tbBoxDirection( box, normal ) );
		tbVec3 point = tbMulSV( 0.5f, tbAdd( y, tbMulSub( x, radius, normal ) ) );
		tbAddPoint( &manifold, tbTransformPoint( xfA, tbBoxPoint( box, point ) ), separation, 0, xfA, xfB );
		return manifold;
	}

	// The core touches or crosses the box: the SAT axis of least penetration.
	if ( edgeFound && edgeSeparation > faceSeparation + tbAxisTolerance( faceSeparation ) )
	{
		tbVec3 cE, cS;
		tbSegmentClosestPoints( edge0, edge1, u1, u2, &cE, &cS );
		float separation = tbDot( edgeAxis, tbSub( cS, cE ) ) - radius;
		if ( separation < speculativeDistance )
		{
			manifold.normal = tbRotate( xfA.q, tbBoxDirection( box, edgeAxis ) );
			tbVec3 point = tbMulSV( 0.5f, tbAdd( cE, tbMulSub( cS, radius, edgeAxis ) ) );
			tbAddPoint( &manifold, tbTransformPoint( xfA, tbBoxPoint( box, point ) ), separation, 0, xfA, xfB );
		}
		return manifold;
	}

	manifold.normal = tbRotate( xfA.q, faceNormal );
	if ( tbAddBoxCapsuleFacePoints( &manifold, box, faceIndex, u1, u2, radius, speculativeDistance, FLT_MAX, xfA,
									xfB ) > 0 )
	{
		return manifold;
	}
	// The part over the face was clipped away: the deepest end.
	tbVec3 q = faceSign * c1[faceAxis] <= faceSign * c2[faceAxis] ? u1 : u2;
	float separation = faceSign * tbGetComponent( q, faceAxis ) - e[faceAxis] - radius;
	if ( separation < speculativeDistance )
	{
		tbVec3 point = tbMulSub( tbBoxPoint( box, q ), radius + 0.5f * separation, faceNormal );
		tbAddPoint( &manifold, tbTransformPoint( xfA, point ), separation, 0, xfA, xfB );
	}
	return manifold;
}

tbManifold tbCollideHullOrBoxAndCapsule( const tbHull* hullA, const tbBoxHull* boxA, tbTransform xfA,
										 const tbCapsule* capsuleB, tbTransform xfB, float speculativeDistance )
{
	if ( boxA != NULL )
	{
		return tbCollideBoxAndCapsule( hullA, boxA, xfA, capsuleB, xfB, speculativeDistance );
	}
	return tbCollideGeneralHullAndCapsule( hullA, xfA, capsuleB, xfB, speculativeDistance );
}

tbManifold tbCollideHullAndCapsule( const tbHull* hullA, tbTransform xfA, const tbCapsule* capsuleB, tbTransform xfB,
									float speculativeDistance )
{
	tbBoxHull box;
	const tbBoxHull* isBox = tbGetBoxHull( hullA, &box ) ? &box : NULL;
	return tbCollideHullOrBoxAndCapsule( hullA, isBox, xfA, capsuleB, xfB, speculativeDistance );
}

// Hull and hull: separating axis test -----------------------------------------------------------
// Gregorius, "The Separating Axis Test between Convex Polyhedra" (GDC 2013): the candidate axes are
// the face normals of both hulls and the cross products of edge pairs whose arcs on the Gauss map
// intersect (i.e. the edge pair builds a face of the Minkowski difference). Other edge pairs can be
// skipped: their cross product is not a face normal of A - B and cannot be the best axis.
//
// Speed: the face queries below evaluate exactly the same floating-point expressions as the plain
// loops (tbFaceSeparation), only sharing work between axes (opposite faces, a box's corners), so
// every separation, index and tie-break is bit for bit the same; so does the edge query of general
// hulls (tbEdgeSeparation's per-edge terms computed once). Two boxes take closed forms instead:
// their face separations from the dot products of their axes (tbQueryBoxFaces) and their edge
// query as nine axis families instead of 144 edge pairs (tbQueryBoxEdges), equal to the loops to
// rounding (tests/unit/test_box_contacts.c compares the manifolds over random poses).

typedef struct tbFaceQuery
{
	float separation;
	int index;
} tbFaceQuery;

typedef struct tbEdgeQuery
{
	float separation;
	int indexA, indexB; ///< half-edges (the lower index of each twin pair); -1 if none
	tbVec3 axis;		///< A's frame, pointing from A to B
} tbEdgeQuery;

// Exactly opposite normals, as tbMakeBoxHull writes its face pairs (-x, +x, -y, ...).
static bool tbIsOppositeNormal( tbVec3 a, tbVec3 b )
{
	return a.x == -b.x && a.y == -b.y && a.z == -b.z;
}

// The box description (tbBoxHull, shape.h) of a hull laid out as tbMakeBoxHull writes it.
bool tbGetBoxHull( const tbHull* hull, tbBoxHull* box )
{
	if ( hull->faceCount != 6 || hull->vertexCount != 8 || hull->edgeCount != 24 )
	{
		return false;
	}
	box->center = tb_vec3_zero;
	for ( int k = 0; k < 3; ++k )
	{
		tbPlane lower = hull->planes[2 * k];
		tbPlane upper = hull->planes[2 * k + 1];
		if ( tbIsOppositeNormal( lower.normal, upper.normal ) == false )
		{
			return false;
		}
		box->axes[k] = upper.normal;
		box->extents[k] = 0.5f * ( upper.offset + lower.offset );
		box->center = tbMulAdd( box->center, 0.5f * ( upper.offset - lower.offset ), upper.normal );
		if ( box->extents[k] <= 0.0f || tbAbsFloat( tbLengthSquared( upper.normal ) - 1.0f ) > 32.0f * FLT_EPSILON )
		{
			return false;
		}
	}
	// A rotated unit frame is orthogonal to about 6 eps.
	const float skew = 16.0f * FLT_EPSILON;
	if ( tbAbsFloat( tbDot( box->axes[0], box->axes[1] ) ) > skew ||
		 tbAbsFloat( tbDot( box->axes[1], box->axes[2] ) ) > skew ||
		 tbAbsFloat( tbDot( box->axes[2], box->axes[0] ) ) > skew ||
		 tbDot( tbCross( box->axes[0], box->axes[1] ), box->axes[2] ) < 0.5f )
	{
		return false;
	}

	const tbVec3* v = hull->vertices;
	float x = v[7].x;
	float y = v[7].y;
	float z = v[7].z;
	box->corner = v[7];
	box->corners = v[0].x == -x && v[0].y == -y && v[0].z == -z && v[1].x == x && v[1].y == -y && v[1].z == -z &&
				   v[2].x == -x && v[2].y == y && v[2].z == -z && v[3].x == x && v[3].y == y && v[3].z == -z &&
				   v[4].x == -x && v[4].y == -y && v[4].z == z && v[5].x == x && v[5].y == -y && v[5].z == z &&
				   v[6].x == -x && v[6].y == y && v[6].z == z;

	// The edge table: every slot filled exactly once, or the topology is not a box's.
	int filled = 0;
	for ( int e = 0; e < hull->edgeCount; ++e )
	{
		int twin = hull->edges[e].twin;
		if ( twin < e )
		{
			continue;
		}
		int f1 = hull->edges[e].face;
		int f2 = hull->edges[twin].face;
		if ( f1 / 2 == f2 / 2 )
		{
			return false;
		}
		int m = 3 - f1 / 2 - f2 / 2;
		int m1 = m == 2 ? 0 : m + 1;
		// The face on axis m1 is f1 or f2; its parity is its side.
		int faceM1 = f1 / 2 == m1 ? f1 : f2;
		int faceM2 = f1 / 2 == m1 ? f2 : f1;
		int slot = ( faceM1 & 1 ) + 2 * ( faceM2 & 1 );
		if ( ( filled & ( 1 << ( 4 * m + slot ) ) ) != 0 )
		{
			return false;
		}
		filled |= 1 << ( 4 * m + slot );
		box->edges[m][slot] = (uint16_t)e;
	}
	return filled == 0xFFF;
}

// Separation of hull `other` from face `face` of hull `ref`. xf maps other's frame into ref's.
static float tbFaceSeparation( const tbHull* ref, int face, const tbHull* other, tbTransform xf )
{
	tbPlane plane = ref->planes[face];
	tbVec3 direction = tbInvRotate( xf.q, tbNeg( plane.normal ) );
	tbVec3 support = tbTransformPoint( xf, other->vertices[tbFindSupport( other, direction )] );
	return tbDot( plane.normal, support ) - plane.offset;
}

// Indices of the largest and of the smallest projection of the hull's vertices on d, each the
// first one in index order (as tbFindSupport). Rotation, dot products and rounding are odd
// functions of the direction, so the smallest projection on d is, value for value, the largest on
// -d: one scan serves a face and its exact opposite.
static void tbFindSupportPair( const tbHull* hull, const tbBoxHull* box, tbVec3 d, int* maxIndex, int* minIndex )
{
	if ( box != NULL && box->corners )
	{
		tbVec3 h = box->corner;
		// Vertex i is (+-h.x, +-h.y, +-h.z) by the bits of i, and tbDot sums (x + y) + z, so its
		// projection is one of four sums of the three products, or a negated one: the same values,
		// bit for bit, as the loop below, for 3 products instead of 24. (As long as the compiler
		// does not fuse multiply-adds, which -std=c11 and plain x86-64 rule out; if it did, the
		// two could differ by a rounding.)
		float x = h.x * d.x;
		float y = h.y * d.y;
		float z = h.z * d.z;
		float p = x + y;
		float m = x - y;
		float s1 = p + z;
		float s2 = p - z;
		float s3 = m + z;
		float s4 = m - z;
		float values[8] = { -s1, s4, -s3, s2, -s2, s3, -s4, s1 };
		int iMax = 0;
		int iMin = 0;
		float maxValue = values[0];
		float minValue = values[0];
		for ( int i = 1; i < 8; ++i )
		{
			// Selects rather than branches: which corner wins is data dependent and hard to predict.
			bool above = values[i] > maxValue;
			bool below = values[i] < minValue;
			maxValue = above ? values[i] : maxValue;
			iMax = above ? i : iMax;
			minValue = below ? values[i] : minValue;
			iMin = below ? i : iMin;
		}
		*maxIndex = iMax;
		*minIndex = iMin;
		return;
	}

	int iMax = 0;
	int iMin = 0;
	float maxValue = tbDot( hull->vertices[0], d );
	float minValue = maxValue;
	for ( int i = 1; i < hull->vertexCount; ++i )
	{
		float value = tbDot( hull->vertices[i], d );
		if ( value > maxValue )
		{
			maxValue = value;
			iMax = i;
		}
		if ( value < minValue )
		{
			minValue = value;
			iMin = i;
		}
	}
	*maxIndex = iMax;
	*minIndex = iMin;
}

// The face of ref that separates other the most (the same result as tbFaceSeparation over every
// face, first index on ties). refBox and otherBox: the hulls' box descriptions, or NULL.
static tbFaceQuery tbQueryFaces( const tbHull* ref, const tbBoxHull* refBox, const tbHull* other,
								 const tbBoxHull* otherBox, tbTransform xf )
{
	tbFaceQuery query = { -FLT_MAX, 0 };
	int f = 0;
	while ( f < ref->faceCount )
	{
		tbPlane plane = ref->planes[f];
		if ( f + 1 < ref->faceCount &&
			 ( refBox != NULL || tbIsOppositeNormal( plane.normal, ref->planes[f + 1].normal ) ) )
		{
			tbPlane next = ref->planes[f + 1];
			int iMax, iMin;
			tbFindSupportPair( other, otherBox, tbInvRotate( xf.q, tbNeg( plane.normal ) ), &iMax, &iMin );
			float s0 = tbDot( plane.normal, tbTransformPoint( xf, other->vertices[iMax] ) ) - plane.offset;
			float s1 = tbDot( next.normal, tbTransformPoint( xf, other->vertices[iMin] ) ) - next.offset;
			if ( s0 > query.separation )
			{
				query.separation = s0;
				query.index = f;
			}
			if ( s1 > query.separation )
			{
				query.separation = s1;
				query.index = f + 1;
			}
			f += 2;
			continue;
		}
		float s = tbFaceSeparation( ref, f, other, xf );
		if ( s > query.separation )
		{
			query.separation = s;
			query.index = f;
		}
		f += 1;
	}
	return query;
}

// The face queries of two boxes in closed form: with C = (a_m . b_k) and d = cB - cA in A's frame,
// B lies beyond A's face +-a_k by +-(a_k . d) - eA_k - sum_j eB_j |C[k][j]|, and A beyond B's face
// +-b_j by -+(b_j . d) - eB_j - sum_k eA_k |C[k][j]| (faces 2k: -axis, 2k + 1: +axis; the first
// face on ties, as tbQueryFaces). Equal to tbQueryFaces to rounding.
static void tbQueryBoxFaces( const tbBoxHull* boxA, const tbBoxHull* boxB, tbTransform xf, tbFaceQuery* faceA,
							 tbFaceQuery* faceB )
{
	tbVec3 axesB[3];
	for ( int j = 0; j < 3; ++j )
	{
		axesB[j] = tbRotate( xf.q, boxB->axes[j] );
	}
	tbVec3 d = tbSub( tbTransformPoint( xf, boxB->center ), boxA->center );
	const float* eA = boxA->extents;
	const float* eB = boxB->extents;
	float c[3][3];
	for ( int m = 0; m < 3; ++m )
	{
		for ( int k = 0; k < 3; ++k )
		{
			c[m][k] = tbAbsFloat( tbDot( boxA->axes[m], axesB[k] ) );
		}
	}

	faceA->separation = -FLT_MAX;
	faceA->index = 0;
	for ( int k = 0; k < 3; ++k )
	{
		float t = tbDot( boxA->axes[k], d );
		float reach = eA[k] + ( eB[0] * c[k][0] + eB[1] * c[k][1] + eB[2] * c[k][2] );
		if ( -t - reach > faceA->separation )
		{
			faceA->separation = -t - reach;
			faceA->index = 2 * k;
		}
		if ( t - reach > faceA->separation )
		{
			faceA->separation = t - reach;
			faceA->index = 2 * k + 1;
		}
	}
	faceB->separation = -FLT_MAX;
	faceB->index = 0;
	for ( int j = 0; j < 3; ++j )
	{
		float u = tbDot( axesB[j], d );
		float reach = eB[j] + ( eA[0] * c[0][j] + eA[1] * c[1][j] + eA[2] * c[2][j] );
		if ( u - reach > faceB->separation )
		{
			faceB->separation = u - reach;
			faceB->index = 2 * j;
		}
		if ( -u - reach > faceB->separation )
		{
			faceB->separation = -u - reach;
			faceB->index = 2 * j + 1;
		}
	}
}

// Arcs a-b (A's edge) and c-d (B's edge, normals already negated) on the unit sphere intersect.
// Each pair of endpoints must straddle the other arc's great circle, and the two arcs must be in
// the same hemisphere (otherwise the great circles meet at the antipode of the arcs' crossing).
static bool tbIsMinkowskiFace( tbVec3 a, tbVec3 b, tbVec3 c, tbVec3 d )
{
	tbVec3 bxa = tbCross( b, a );
	tbVec3 dxc = tbCross( d, c );
	float cba = tbDot( c, bxa );
	float dba = tbDot( d, bxa );
	float adc = tbDot( a, dxc );
	float bdc = tbDot( b, dxc );
	return cba * dba < 0.0f && adc * bdc < 0.0f && cba * bdc > 0.0f;
}

// Edge eB of B expressed in A's frame: the negated normals of its two faces (B's Gauss map is
// negated for the Minkowski difference A - B) and its end points.
typedef struct tbEdgeInA
{
	tbVec3 c, d;
	tbVec3 p, edge;
} tbEdgeInA;

static tbEdgeInA tbMakeEdgeInA( const tbHull* hullB, int eB, tbTransform xf )
{
	tbEdgeInA e;
	e.c = tbNeg( tbRotate( xf.q, hullB->planes[hullB->edges[eB].face].normal ) );
	e.d = tbNeg( tbRotate( xf.q, hullB->planes[hullB->edges[hullB->edges[eB].twin].face].normal ) );
	e.p = tbTransformPoint( xf, tbEdgeTail( hullB, eB ) );
	e.edge = tbSub( tbTransformPoint( xf, tbEdgeHead( hullB, eB ) ), e.p );
	return e;
}

// Separation along the cross product of edge eA of A and edge b of B, if the pair builds a
// Minkowski face. Returns false for non-supporting or parallel pairs.
static bool tbEdgeSeparation( const tbHull* hullA, int eA, const tbEdgeInA* b, float* separation, tbVec3* axisOut )
{
	tbVec3 na = hullA->planes[hullA->edges[eA].face].normal;
	tbVec3 nb = hullA->planes[hullA->edges[hullA->edges[eA].twin].face].normal;
	if ( tbIsMinkowskiFace( na, nb, b->c, b->d ) == false )
	{
		return false;
	}
	tbVec3 pA = tbEdgeTail( hullA, eA );
	tbVec3 edgeA = tbSub( tbEdgeHead( hullA, eA ), pA );
	tbVec3 axis = tbCross( edgeA, b->edge );
	float length = tbLength( axis );
	// Nearly parallel edges: the face axes already cover that contact, and the normal is noise.
	if ( length < 0.005f * tbLength( edgeA ) * tbLength( b->edge ) )
	{
		return false;
	}
	axis = tbMulSV( 1.0f / length, axis );
	// The Minkowski face normal lies on the arc na-nb, so it has a positive component along na + nb.
	if ( tbDot( axis, tbAdd( na, nb ) ) < 0.0f )
	{
		axis = tbNeg( axis );
	}
	*separation = tbDot( axis, tbSub( b->p, pA ) );
	*axisOut = axis;
	return true;
}

// Every edge pair through tbEdgeSeparation; for hulls too large for tbQueryEdges' stack tables.
static tbEdgeQuery tbQueryEdgesPlain( const tbHull* hullA, const tbHull* hullB, tbTransform xf )
{
	tbEdgeQuery query = { -FLT_MAX, -1, -1, { 0.0f, 0.0f, 0.0f } };
	for ( int eB = 0; eB < hullB->edgeCount; ++eB )
	{
		if ( hullB->edges[eB].twin < eB )
		{
			continue;
		}
		tbEdgeInA b = tbMakeEdgeInA( hullB, eB, xf );
		for ( int eA = 0; eA < hullA->edgeCount; ++eA )
		{
			if ( hullA->edges[eA].twin < eA )
			{
				continue;
			}
			float s;
			tbVec3 axis;
			if ( tbEdgeSeparation( hullA, eA, &b, &s, &axis ) && s > query.separation )
			{
				query.separation = s;
				query.indexA = eA;
				query.indexB = eB;
				query.axis = axis;
			}
		}
	}
	return query;
}

// The edge query of two boxes in closed form. The edges of family (i, j) (along a_i of A and b_j of
// B) build the Minkowski difference's two faces with normals +-u, u = a_i x b_j / |a_i x b_j|, and
// the best of the two separates by the gap |u . d| - sum_k eA_k |u . a_k| - sum_k eB_k |u . b_k|
// (d = cB - cA; tbBoxEdgeFamilies' scaled gap over |a_i x b_j|). The pair is A's edge supporting A
// along the oriented axis and B's edge supporting B against it, found from the axis's signs on the
// other two axes of each box. The best family is the general query's best pair (the same
// separation and axis to rounding; exact ties, such as families whose axis is a face normal, may
// pick another pair of equal separation). Families with |a_i x b_j| below the general query's
// parallel cutoff 0.005 are skipped as there.
static tbEdgeQuery tbQueryBoxEdges( const tbBoxHull* boxA, const tbBoxHull* boxB, tbTransform xf )
{
	tbEdgeQuery query = { -FLT_MAX, -1, -1, { 0.0f, 0.0f, 0.0f } };
	tbVec3 axesB[3];
	for ( int j = 0; j < 3; ++j )
	{
		axesB[j] = tbRotate( xf.q, boxB->axes[j] );
	}
	tbVec3 d = tbSub( tbTransformPoint( xf, boxB->center ), boxA->center );
	const float* eA = boxA->extents;
	const float* eB = boxB->extents;
	float c[3][3];
	float t[3];
	for ( int m = 0; m < 3; ++m )
	{
		for ( int k = 0; k < 3; ++k )
		{
			c[m][k] = tbDot( boxA->axes[m], axesB[k] );
		}
		t[m] = tbDot( boxA->axes[m], d );
	}

	int bestI = -1;
	int bestJ = 0;
	float bestLength = 1.0f;
	float bestScaled = 0.0f;
	for ( int j = 0; j < 3; ++j )
	{
		int j1 = j == 2 ? 0 : j + 1;
		int j2 = j == 0 ? 2 : j - 1;
		for ( int i = 0; i < 3; ++i )
		{
			int i1 = i == 2 ? 0 : i + 1;
			int i2 = i == 0 ? 2 : i - 1;
			float lengthSq = c[i1][j] * c[i1][j] + c[i2][j] * c[i2][j];
			if ( lengthSq < 0.005f * 0.005f )
			{
				continue;
			}
			float length = sqrtf( lengthSq );
			float scaled = c[i1][j] * t[i2] - c[i2][j] * t[i1];
			float gap = ( tbAbsFloat( scaled ) - eA[i1] * tbAbsFloat( c[i2][j] ) - eA[i2] * tbAbsFloat( c[i1][j] ) -
						  eB[j1] * tbAbsFloat( c[i][j2] ) - eB[j2] * tbAbsFloat( c[i][j1] ) ) /
						length;
			if ( gap > query.separation )
			{
				query.separation = gap;
				bestI = i;
				bestJ = j;
				bestLength = length;
				bestScaled = scaled;
			}
		}
	}
	if ( bestI < 0 )
	{
		return query;
	}

	int i = bestI;
	int j = bestJ;
	int i1 = i == 2 ? 0 : i + 1;
	int i2 = i == 0 ? 2 : i - 1;
	int j1 = j == 2 ? 0 : j + 1;
	int j2 = j == 0 ? 2 : j - 1;
	// a_i x b_j = c[i1][j] a_i2 - c[i2][j] a_i1, turned towards B.
	float sign = bestScaled < 0.0f ? -1.0f : 1.0f;
	float x1 = -sign * c[i2][j] / bestLength; // axis . a_i1
	float x2 = sign * c[i1][j] / bestLength;  // axis . a_i2
	tbVec3 axis = tbAdd( tbMulSV( x1, boxA->axes[i1] ), tbMulSV( x2, boxA->axes[i2] ) );
	query.axis = axis;
	query.indexA = boxA->edges[i][( x1 > 0.0f ) + 2 * ( x2 > 0.0f )];
	// B's edge supports B against the axis: its faces are on the sides where axis . b_k < 0.
	float y1 = tbDot( axis, axesB[j1] );
	float y2 = tbDot( axis, axesB[j2] );
	query.indexB = boxB->edges[j][( y1 < 0.0f ) + 2 * ( y2 < 0.0f )];
	return query;
}

// Table sizes of the edge query (a box has 12 edges, 8 vertices, 6 faces); larger hulls take the
// plain loop. About 10 KB of stack.
#define TB_SAT_MAX_EDGES 64
#define TB_SAT_MAX_VERTICES 64
#define TB_SAT_MAX_FACES 64

// One edge (a twin pair) with what every pair test needs, in A's frame: the normals n1, n2 of its
// two faces (negated for B), their cross product n2 x n1, the tail point and the edge vector.
typedef struct tbSATEdge
{
	tbVec3 n1, n2, cross;
	tbVec3 p, edge;
	float length;
	int index;
} tbSATEdge;

typedef struct tbSATEdges
{
	tbSATEdge a[TB_SAT_MAX_EDGES];
	tbSATEdge b[TB_SAT_MAX_EDGES];
	int countA, countB;
} tbSATEdges;

// The per-edge half of tbEdgeSeparation, done once per edge instead of once per pair: A's edges,
// and B's edges with its face normals and vertices mapped into A's frame once (the same
// expressions as tbMakeEdgeInA). Returns false if a hull is too large for the tables.
static bool tbBuildSATEdges( const tbHull* hullA, const tbHull* hullB, tbTransform xf, tbSATEdges* t )
{
	if ( hullA->edgeCount > 2 * TB_SAT_MAX_EDGES || hullB->edgeCount > 2 * TB_SAT_MAX_EDGES ||
		 hullB->vertexCount > TB_SAT_MAX_VERTICES || hullB->faceCount > TB_SAT_MAX_FACES )
	{
		return false;
	}

	t->countA = 0;
	for ( int e = 0; e < hullA->edgeCount && t->countA < TB_SAT_MAX_EDGES; ++e )
	{
		int twin = hullA->edges[e].twin;
		if ( twin < e )
		{
			continue;
		}
		tbSATEdge* a = t->a + t->countA++;
		a->n1 = hullA->planes[hullA->edges[e].face].normal;
		a->n2 = hullA->planes[hullA->edges[twin].face].normal;
		a->cross = tbCross( a->n2, a->n1 );
		a->p = tbEdgeTail( hullA, e );
		a->edge = tbSub( tbEdgeHead( hullA, e ), a->p );
		a->length = tbLength( a->edge );
		a->index = e;
	}

	tbVec3 normalsB[TB_SAT_MAX_FACES];
	for ( int f = 0; f < hullB->faceCount; ++f )
	{
		normalsB[f] = tbRotate( xf.q, hullB->planes[f].normal );
	}
	tbVec3 verticesB[TB_SAT_MAX_VERTICES];
	for ( int v = 0; v < hullB->vertexCount; ++v )
	{
		verticesB[v] = tbTransformPoint( xf, hullB->vertices[v] );
	}
	t->countB = 0;
	for ( int e = 0; e < hullB->edgeCount && t->countB < TB_SAT_MAX_EDGES; ++e )
	{
		int twin = hullB->edges[e].twin;
		if ( twin < e )
		{
			continue;
		}
		tbSATEdge* b = t->b + t->countB++;
		b->n1 = tbNeg( normalsB[hullB->edges[e].face] );
		b->n2 = tbNeg( normalsB[hullB->edges[twin].face] );
		b->cross = tbCross( b->n2, b->n1 );
		b->p = verticesB[hullB->edges[e].origin];
		b->edge = tbSub( verticesB[hullB->edges[twin].origin], b->p );
		b->length = tbLength( b->edge );
		b->index = e;
	}
	return true;
}

// tbQueryEdgesPlain over the tables. Same pair order and per-pair expressions as tbEdgeSeparation,
// so the result is identical; the arc test is cut short after its first factor.
static tbEdgeQuery tbQuerySATEdges( const tbSATEdges* t )
{
	tbEdgeQuery query = { -FLT_MAX, -1, -1, { 0.0f, 0.0f, 0.0f } };
	for ( int k = 0; k < t->countB; ++k )
	{
		const tbSATEdge* b = t->b + k;
		for ( int i = 0; i < t->countA; ++i )
		{
			const tbSATEdge* a = t->a + i;
			// tbIsMinkowskiFace( a->n1, a->n2, b->n1, b->n2 )
			float cba = tbDot( b->n1, a->cross );
			float dba = tbDot( b->n2, a->cross );
			if ( ( cba * dba < 0.0f ) == false )
			{
				continue;
			}
			float adc = tbDot( a->n1, b->cross );
			float bdc = tbDot( a->n2, b->cross );
			if ( ( adc * bdc < 0.0f && cba * bdc > 0.0f ) == false )
			{
				continue;
			}
			tbVec3 axis = tbCross( a->edge, b->edge );
			float length = tbLength( axis );
			if ( length < 0.005f * a->length * b->length )
			{
				continue;
			}
			axis = tbMulSV( 1.0f / length, axis );
			if ( tbDot( axis, tbAdd( a->n1, a->n2 ) ) < 0.0f )
			{
				axis = tbNeg( axis );
			}
			float s = tbDot( axis, tbSub( b->p, a->p ) );
			if ( s > query.separation )
			{
				query.separation = s;
				query.indexA = a->index;
				query.indexB = b->index;
				query.axis = axis;
			}
		}
	}
	return query;
}

// The edge query: two boxes (boxA and boxB not NULL) in closed form (tbQueryBoxEdges), other hulls
// over every edge pair.
static tbEdgeQuery tbQueryEdges( const tbHull* hullA, const tbBoxHull* boxA, const tbHull* hullB, const tbBoxHull* boxB,
								 tbTransform xf )
{
	if ( boxA != NULL && boxB != NULL )
	{
		return tbQueryBoxEdges( boxA, boxB, xf );
	}
	tbSATEdges tables;
	if ( tbBuildSATEdges( hullA, hullB, xf, &tables ) == false )
	{
		return tbQueryEdgesPlain( hullA, hullB, xf );
	}
	return tbQuerySATEdges( &tables );
}

// Hull and hull: clipping -----------------------------------------------------------------------

typedef struct tbClipVertex
{
	tbVec3 p;		///< reference hull frame
	uint32_t key;	///< feature key of this vertex
	uint32_t label; ///< feature of the polygon edge leaving this vertex
	bool clipped;	///< made by clipping (not an incident vertex)
} tbClipVertex;

typedef struct tbClipPoint
{
	tbVec3 point; ///< midway point, reference frame
	float separation;
	uint32_t id;
} tbClipPoint;

// Outward unit normal of the reference face's side plane through edge e (tail v0): the face
// interior is on the left of each counter-clockwise edge.
static tbVec3 tbSideNormal( const tbHull* ref, int e, tbVec3 v0, tbVec3 faceNormal )
{
	return tbNormalize( tbCross( tbSub( tbEdgeHead( ref, e ), v0 ), faceNormal ) );
}

// Clip the incident face of `inc` against face `refFace` of `ref` (Sutherland-Hodgman against the
// reference face's side planes) and keep vertices below the reference plane + speculative
// distance. xf maps inc's frame into ref's. Returns the point count written to out (reference
// frame); ids are hashed with salt (which hull is the reference).
static int tbClipHullFaces( const tbHull* ref, int refFace, const tbHull* inc, tbTransform xf,
							float speculativeDistance, uint32_t salt, tbClipPoint* out )
{
	tbPlane refPlane = ref->planes[refFace];

	// Incident face: the face of inc most anti-parallel to the reference normal.
	tbVec3 n = tbInvRotate( xf.q, refPlane.normal );
	int incFace = 0;
	float minDot = FLT_MAX;
	for ( int f = 0; f < inc->faceCount; ++f )
	{
		float dot = tbDot( inc->planes[f].normal, n );
		if ( dot < minDot )
		{
			minDot = dot;
			incFace = f;
		}
	}

	tbClipVertex buffer1[TB_MAX_CLIP_VERTICES];
	tbClipVertex buffer2[TB_MAX_CLIP_VERTICES];
	tbClipVertex* input = buffer1;
	tbClipVertex* output = buffer2;
	int count = 0;
	{
		int first = inc->faces[incFace].edge;
		int e = first;
		do
		{
			int twin = inc->edges[e].twin;
			input[count].p = tbTransformPoint( xf, tbEdgeTail( inc, e ) );
			input[count].key = tbHash2( tbKey_incidentVertex, inc->edges[e].origin );
			input[count].label = (uint32_t)( e < twin ? e : twin );
			input[count].clipped = false;
			count += 1;
			e = inc->edges[e].next;
		} while ( e != first && count < TB_MAX_CLIP_VERTICES );
	}

	tbClipVertex incident[TB_MAX_CLIP_VERTICES];
	int incidentCount = count;
	memcpy( incident, input, (size_t)count * sizeof( tbClipVertex ) );
	// sqrt and the factor are monotonic, so the shortest edge's square root gives the same weld
	// distance as taking the smallest of every edge's.
	float shortestSq = FLT_MAX;
	for ( int i = 0; i < count; ++i )
	{
		shortestSq =
			tbMinFloat( shortestSq, tbDistanceSquared( incident[i].p, incident[i + 1 < count ? i + 1 : 0].p ) );
	}
	float weld = tbMinFloat( TB_CLIP_WELD_DISTANCE, 0.1f * sqrtf( shortestSq ) );

	// Side planes are needed again below; faces with more edges than this recompute the rest.
	tbVec3 sides[TB_MAX_CLIP_VERTICES];
	tbVec3 tails[TB_MAX_CLIP_VERTICES];
	int first = ref->faces[refFace].edge;
	int k = first;
	int guard = 0;
	do
	{
		tbVec3 v0 = tbEdgeTail( ref, k );
		tbVec3 side = tbSideNormal( ref, k, v0, refPlane.normal );
		if ( guard < TB_MAX_CLIP_VERTICES )
		{
			sides[guard] = side;
			tails[guard] = v0;
		}
		float offset = tbDot( side, v0 ) + TB_CLIP_SIDE_TOLERANCE;
		uint32_t sideLabel = TB_SIDE_LABEL | (uint32_t)k;

		int outCount = 0;
		for ( int i = 0; i < count; ++i )
		{
			tbClipVertex cur = input[i];
			tbClipVertex next = input[i + 1 < count ? i + 1 : 0];
			float dc = tbDot( side, cur.p ) - offset;
			float dn = tbDot( side, next.p ) - offset;
			bool curIn = dc <= 0.0f;
			bool nextIn = dn <= 0.0f;
			if ( curIn && outCount < TB_MAX_CLIP_VERTICES )
			{
				output[outCount++] = cur;
			}
			if ( curIn != nextIn && outCount < TB_MAX_CLIP_VERTICES )
			{
				tbClipVertex v;
				v.p = tbLerp( cur.p, next.p, dc / ( dc - dn ) );
				v.key = tbHash3( tbKey_clip, cur.label, sideLabel );
				v.clipped = true;
				// Leaving: the polygon continues along the side plane to where it re-enters.
				v.label = curIn ? sideLabel : cur.label;
				output[outCount++] = v;
			}
		}

		tbClipVertex* swap = input;
		input = output;
		output = swap;
		count = outCount;
		k = ref->edges[k].next;
		guard += 1;
	} while ( k != first && count > 0 && guard < ref->edgeCount );

	// The tolerance only decides what is clipped; a vertex kept within it outside a side plane is
	// moved onto that plane so no point lies outside the reference face. The side normals are
	// perpendicular to the reference normal, so depths do not change. (A vertex survives only if
	// the loop above went round the whole face, so it filled the side table in this same order.)
	for ( int i = 0; i < count; ++i )
	{
		int e = first;
		guard = 0;
		do
		{
			tbVec3 v0, side;
			if ( guard < TB_MAX_CLIP_VERTICES )
			{
				v0 = tails[guard];
				side = sides[guard];
			}
			else
			{
				v0 = tbEdgeTail( ref, e );
				side = tbSideNormal( ref, e, v0, refPlane.normal );
			}
			float outside = tbDot( side, tbSub( input[i].p, v0 ) );
			if ( outside > 0.0f )
			{
				input[i].p = tbMulSub( input[i].p, outside, side );
			}
			e = ref->edges[e].next;
			guard += 1;
		} while ( e != first && guard < ref->edgeCount );
	}

	for ( int i = 0; i < count; ++i )
	{
		if ( input[i].clipped == false )
		{
			continue;
		}
		int nearest = -1;
		float nearestSq = weld * weld;
		for ( int j = 0; j < incidentCount; ++j )
		{
			float dSq = tbDistanceSquared( input[i].p, incident[j].p );
			if ( dSq < nearestSq )
			{
				nearestSq = dSq;
				nearest = j;
			}
		}
		if ( nearest >= 0 )
		{
			input[i].key = incident[nearest].key;
		}
	}

	// tbHash3( salt, refFace, key ) with the common prefix hashed once.
	uint32_t idPrefix = tbHash2( salt, (uint32_t)refFace );
	int pointCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		float separation = tbDot( refPlane.normal, input[i].p ) - refPlane.offset;
		if ( separation >= speculativeDistance )
		{
			continue;
		}
		uint32_t id = tbHashWord( idPrefix, input[i].key );
		// Clip points welded to one incident vertex share its id: keep the deeper one.
		int duplicate = -1;
		for ( int j = 0; j < pointCount; ++j )
		{
			if ( out[j].id == id )
			{
				duplicate = j;
				break;
			}
		}
		tbClipPoint cp;
		cp.point = tbMulSub( input[i].p, 0.5f * separation, refPlane.normal );
		cp.separation = separation;
		cp.id = id;
		if ( duplicate < 0 )
		{
			out[pointCount++] = cp;
		}
		else if ( separation < out[duplicate].separation )
		{
			out[duplicate] = cp;
		}
	}
	return pointCount;
}

// Index of the unused point with the largest score; scores within tolerance of the best count as
// equal and the smallest id wins, so symmetric configurations pick the same points every frame.
static int tbPickStable( const float* score, const tbClipPoint* points, const bool* used, int count, float tolerance )
{
	float best = -FLT_MAX;
	for ( int i = 0; i < count; ++i )
	{
		if ( used[i] == false && score[i] > best )
		{
			best = score[i];
		}
	}
	int pick = -1;
	for ( int i = 0; i < count; ++i )
	{
		if ( used[i] == false && score[i] >= best - tolerance && ( pick < 0 || points[i].id < points[pick].id ) )
		{
			pick = i;
		}
	}
	return pick;
}

// Keep 4 of count > 4 coplanar-ish points: the deepest (ties broken towards the polygon's rim),
// the farthest from it, the one spanning the largest triangle, and the one adding the most area
// to that triangle. Writes the kept points, in their original order, to the front of points.
static int tbReducePoints( tbClipPoint* points, int count, tbVec3 normal )
{
	if ( count <= TB_MAX_MANIFOLD_POINTS )
	{
		return count;
	}

	float score[TB_MAX_CLIP_VERTICES];
	bool used[TB_MAX_CLIP_VERTICES];
	tbVec3 center = tb_vec3_zero;
	for ( int i = 0; i < count; ++i )
	{
		used[i] = false;
		center = tbAdd( center, points[i].point );
	}
	center = tbMulSV( 1.0f / (float)count, center );

	// Deepest: among points within a quarter slop of the deepest, the one farthest from the
	// centre, so a flat face resting on a face starts from a corner, not an edge midpoint.
	float minSeparation = FLT_MAX;
	for ( int i = 0; i < count; ++i )
	{
		minSeparation = tbMinFloat( minSeparation, points[i].separation );
	}
	float maxRadiusSq = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		bool deep = points[i].separation <= minSeparation + 0.25f * TB_LINEAR_SLOP;
		score[i] = deep ? tbDistanceSquared( points[i].point, center ) : -1.0f;
		maxRadiusSq = tbMaxFloat( maxRadiusSq, score[i] );
	}
	int i0 = tbPickStable( score, points, used, count, 1.0e-3f * maxRadiusSq );
	used[i0] = true;
	tbVec3 p0 = points[i0].point;

	float maxSq = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		score[i] = tbDistanceSquared( points[i].point, p0 );
		maxSq = tbMaxFloat( maxSq, score[i] );
	}
	int i1 = tbPickStable( score, points, used, count, 1.0e-3f * maxSq );
	used[i1] = true;
	tbVec3 p1 = points[i1].point;

	// Twice the triangle area (p0, p1, q), signed about the normal.
	float maxArea = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		score[i] = tbAbsFloat( tbDot( tbCross( tbSub( p1, p0 ), tbSub( points[i].point, p0 ) ), normal ) );
		maxArea = tbMaxFloat( maxArea, score[i] );
	}
	int i2 = tbPickStable( score, points, used, count, 1.0e-3f * maxArea );
	used[i2] = true;
	tbVec3 p2 = points[i2].point;

	// Area a fourth point adds: the largest triangle it forms outside one of the triangle's edges.
	float orientation = tbDot( tbCross( tbSub( p1, p0 ), tbSub( p2, p0 ) ), normal ) >= 0.0f ? 1.0f : -1.0f;
	tbVec3 corners[3] = { p0, p1, p2 };
	float maxAdded = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		float added = 0.0f;
		for ( int j = 0; j < 3; ++j )
		{
			tbVec3 a = corners[j];
			tbVec3 b = corners[( j + 1 ) % 3];
			float signedArea = orientation * tbDot( tbCross( tbSub( b, a ), tbSub( points[i].point, a ) ), normal );
			added = tbMaxFloat( added, -signedArea );
		}
		score[i] = added;
		maxAdded = tbMaxFloat( maxAdded, added );
	}
	int i3 = tbPickStable( score, points, used, count, 1.0e-3f * maxAdded );
	used[i3] = true;

	int kept = 0;
	for ( int i = 0; i < count; ++i )
	{
		if ( used[i] )
		{
			points[kept++] = points[i];
		}
	}
	return kept;
}

// Face contact with `ref` as reference hull. xfRef/xfInc are the body transforms and xf maps inc's
// frame into ref's (inv(xfRef) xfInc); flip is true when ref is B (the manifold normal then
// points against the reference face normal).
static tbManifold tbFaceContact( const tbHull* ref, tbTransform xfRef, int refFace, const tbHull* inc,
								 tbTransform xfInc, tbTransform xf, bool flip, float speculativeDistance )
{
	tbManifold manifold = tbEmptyManifold();
	tbClipPoint points[TB_MAX_CLIP_VERTICES];
	int count = tbClipHullFaces( ref, refFace, inc, xf, speculativeDistance, flip ? tbKey_faceB : tbKey_faceA, points );
	tbVec3 localNormal = ref->planes[refFace].normal;
	count = tbReducePoints( points, count, localNormal );

	tbVec3 normal = tbRotate( xfRef.q, localNormal );
	manifold.normal = flip ? tbNeg( normal ) : normal;
	tbTransform xfA = flip ? xfInc : xfRef;
	tbTransform xfB = flip ? xfRef : xfInc;
	for ( int i = 0; i < count; ++i )
	{
		tbVec3 point = tbTransformPoint( xfRef, points[i].point );
		tbAddPoint( &manifold, point, points[i].separation, points[i].id, xfA, xfB );
	}
	return manifold;
}

static void tbStoreCache( tbSATCache* cache, uint8_t type, int indexA, int indexB, float separation )
{
	if ( cache != NULL )
	{
		cache->type = type;
		cache->indexA = (uint16_t)indexA;
		cache->indexB = (uint16_t)indexB;
		cache->separation = separation;
	}
}

tbManifold tbCollideHulls( const tbHull* hullA, tbTransform xfA, const tbHull* hullB, tbTransform xfB,
						   float speculativeDistance, tbSATCache* cache )
{
	tbBoxHull boxA, boxB;
	const tbBoxHull* isBoxA = tbGetBoxHull( hullA, &boxA ) ? &boxA : NULL;
	const tbBoxHull* isBoxB = tbGetBoxHull( hullB, &boxB ) ? &boxB : NULL;
	return tbCollideHullsWithBoxes( hullA, isBoxA, xfA, hullB, isBoxB, xfB, speculativeDistance, cache );
}

tbManifold tbCollideHullsWithBoxes( const tbHull* hullA, const tbBoxHull* isBoxA, tbTransform xfA, const tbHull* hullB,
									const tbBoxHull* isBoxB, tbTransform xfB, float speculativeDistance, tbSATCache* cache )
{
	tbManifold manifold = tbEmptyManifold();
	tbTransform xfBA = tbInvMulTransforms( xfA, xfB ); // B's frame into A's
	tbTransform xfAB = tbInvMulTransforms( xfB, xfA ); // A's frame into B's

	// Frame coherence: if last step's separating axis still separates, nothing else is needed.
	if ( cache != NULL && cache->type != 0 && cache->separation > speculativeDistance )
	{
		float s = -FLT_MAX;
		tbVec3 axis;
		if ( cache->type == 1 && cache->indexA < hullA->faceCount )
		{
			s = tbFaceSeparation( hullA, cache->indexA, hullB, xfBA );
		}
		else if ( cache->type == 2 && cache->indexB < hullB->faceCount )
		{
			s = tbFaceSeparation( hullB, cache->indexB, hullA, xfAB );
		}
		else if ( cache->type == 3 && cache->indexA < hullA->edgeCount && cache->indexB < hullB->edgeCount )
		{
			tbEdgeInA b = tbMakeEdgeInA( hullB, cache->indexB, xfBA );
			if ( tbEdgeSeparation( hullA, cache->indexA, &b, &s, &axis ) == false )
			{
				s = -FLT_MAX;
			}
		}
		if ( s > speculativeDistance )
		{
			cache->separation = s;
			return manifold;
		}
	}

	tbFaceQuery faceA, faceB;
	bool boxes = isBoxA != NULL && isBoxB != NULL;
	if ( boxes )
	{
		tbQueryBoxFaces( isBoxA, isBoxB, xfBA, &faceA, &faceB );
	}
	else
	{
		faceA = tbQueryFaces( hullA, isBoxA, hullB, isBoxB, xfBA );
	}
	if ( faceA.separation > speculativeDistance )
	{
		tbStoreCache( cache, 1, faceA.index, 0, faceA.separation );
		return manifold;
	}
	if ( boxes == false )
	{
		faceB = tbQueryFaces( hullB, isBoxB, hullA, isBoxA, xfAB );
	}
	if ( faceB.separation > speculativeDistance )
	{
		tbStoreCache( cache, 2, 0, faceB.index, faceB.separation );
		return manifold;
	}

	// Keep last step's reference face while it stays within tolerance of the best face. (This
	// only reads the cache, so it may come before the edge query's separation exit.)
	if ( cache != NULL && cache->type == 1 && cache->indexA < hullA->faceCount && cache->indexA != faceA.index )
	{
		float s = tbFaceSeparation( hullA, cache->indexA, hullB, xfBA );
		if ( s >= faceA.separation - tbAxisTolerance( faceA.separation ) )
		{
			faceA.index = cache->indexA;
			faceA.separation = s;
		}
	}
	else if ( cache != NULL && cache->type == 2 && cache->indexB < hullB->faceCount && cache->indexB != faceB.index )
	{
		float s = tbFaceSeparation( hullB, cache->indexB, hullA, xfAB );
		if ( s >= faceB.separation - tbAxisTolerance( faceB.separation ) )
		{
			faceB.index = cache->indexB;
			faceB.separation = s;
		}
	}

	// An edge axis matters only if it separates or beats the faces by the tolerance.
	float faceSeparation = tbMaxFloat( faceA.separation, faceB.separation );
	float edgeThreshold = faceSeparation + tbAxisTolerance( faceSeparation );
	tbEdgeQuery edge = tbQueryEdges( hullA, isBoxA, hullB, isBoxB, xfBA );
	if ( edge.indexA >= 0 && edge.separation > speculativeDistance )
	{
		tbStoreCache( cache, 3, edge.indexA, edge.indexB, edge.separation );
		return manifold;
	}

	// Prefer face contacts over edge contacts and A's face over B's, each within tolerance.
	if ( edge.indexA >= 0 && edge.separation > edgeThreshold )
	{
		tbStoreCache( cache, 3, edge.indexA, edge.indexB, edge.separation );
		tbVec3 pA0 = tbEdgeTail( hullA, edge.indexA );
		tbVec3 pA1 = tbEdgeHead( hullA, edge.indexA );
		tbVec3 pB0 = tbTransformPoint( xfBA, tbEdgeTail( hullB, edge.indexB ) );
		tbVec3 pB1 = tbTransformPoint( xfBA, tbEdgeHead( hullB, edge.indexB ) );
		tbVec3 cA, cB;
		tbSegmentClosestPoints( pA0, pA1, pB0, pB1, &cA, &cB );
		float separation = tbDot( edge.axis, tbSub( cB, cA ) );
		if ( separation < speculativeDistance )
		{
			manifold.normal = tbRotate( xfA.q, edge.axis );
			tbVec3 point = tbTransformPoint( xfA, tbMulSV( 0.5f, tbAdd( cA, cB ) ) );
			uint32_t id = tbHash3( tbKey_edgePair, (uint32_t)edge.indexA, (uint32_t)edge.indexB );
			tbAddPoint( &manifold, point, separation, id, xfA, xfB );
		}
		return manifold;
	}

	bool flip = faceB.separation > faceA.separation + tbAxisTolerance( faceA.separation );
	if ( flip )
	{
		tbStoreCache( cache, 2, 0, faceB.index, faceB.separation );
		return tbFaceContact( hullB, xfB, faceB.index, hullA, xfA, xfAB, true, speculativeDistance );
	}
	tbStoreCache( cache, 1, faceA.index, 0, faceA.separation );
	return tbFaceContact( hullA, xfA, faceA.index, hullB, xfB, xfBA, false, speculativeDistance );
}
