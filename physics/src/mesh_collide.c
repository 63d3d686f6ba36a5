// Tumble physics: one triangle of a static mesh or heightfield against a convex shape (sphere,
// capsule, hull, cylinder): contact manifolds, overlap tests and time of impact. Everything is
// computed in the mesh's frame with the normal pointing from the triangle to the convex shape.
//
// Internal edges: a body sliding over a tessellated surface meets the seams between triangles. A
// closest-feature normal on a seam points sideways and stops the body (a "ghost" collision). Each
// triangle edge is marked active or not when the mesh is built (mesh.c); a contact whose triangle
// feature is an inactive edge, or a vertex whose two edges are inactive, takes the face normal
// instead, so the seam behaves like the flat or concave surface it is part of.
// SPDX-License-Identifier: MIT
#include "core.h"
#include "cylinder.h"
#include "mesh.h"
#include "shape.h"

#include <float.h>
#include <math.h>
#include <string.h>

// Candidate axes must beat the triangle's face axis by this much to be used (the same relative
// plus absolute hysteresis as the hull-hull SAT of manifold.c), so a box resting on a triangle
// never flips to one of its own faces or an edge pair from frame to frame. Metres.
static float tbMeshAxisTolerance( float separation )
{
	return 0.1f * TB_LINEAR_SLOP + 0.05f * tbAbsFloat( separation );
}

// A closest-point distance below this gives no usable direction: the face normal is used. Metres.
#define TB_MESH_TOUCH_DISTANCE 1.0e-5f

// Feature of a triangle: 0..2 vertex i, 3..5 edge i, 6 the face.
enum
{
	tbFeature_vertex = 0,
	tbFeature_edge = 3,
	tbFeature_face = 6,
};

// May a contact on this feature use a normal other than the face's?
static bool tbIsFeatureActive( const tbTriangle* tri, int feature )
{
	if ( feature >= tbFeature_face )
	{
		return false;
	}
	if ( feature >= tbFeature_edge )
	{
		return ( tri->active >> ( feature - tbFeature_edge ) ) & 1u;
	}
	// Vertex i is shared by edge i and edge i - 1: it is covered by the neighbours only if both are.
	int prev = ( feature + 2 ) % 3;
	return ( ( tri->active >> feature ) & 1u ) || ( ( tri->active >> prev ) & 1u );
}

uint32_t tbMeshHash( uint32_t a, uint32_t b )
{
	uint32_t h = 2166136261u;
	uint32_t words[2] = { a, b };
	for ( int w = 0; w < 2; ++w )
	{
		for ( int k = 0; k < 4; ++k )
		{
			h = ( h ^ ( ( words[w] >> ( 8 * k ) ) & 0xFFu ) ) * 16777619u;
		}
	}
	return h;
}

// Closest point of the triangle to q, and the feature it lies on (Ericson, Real-Time Collision
// Detection 5.1.5: Voronoi regions tested with barycentric dot products).
static tbVec3 tbClosestOnTriangle( const tbTriangle* tri, tbVec3 q, int* feature )
{
	tbVec3 a = tri->v[0], b = tri->v[1], c = tri->v[2];
	tbVec3 ab = tbSub( b, a ), ac = tbSub( c, a ), ap = tbSub( q, a );
	float d1 = tbDot( ab, ap ), d2 = tbDot( ac, ap );
	if ( d1 <= 0.0f && d2 <= 0.0f )
	{
		*feature = tbFeature_vertex + 0;
		return a;
	}
	tbVec3 bp = tbSub( q, b );
	float d3 = tbDot( ab, bp ), d4 = tbDot( ac, bp );
	if ( d3 >= 0.0f && d4 <= d3 )
	{
		*feature = tbFeature_vertex + 1;
		return b;
	}
	float vc = d1 * d4 - d3 * d2;
	if ( vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f )
	{
		*feature = tbFeature_edge + 0;
		return tbMulAdd( a, d1 / ( d1 - d3 ), ab );
	}
	tbVec3 cp = tbSub( q, c );
	float d5 = tbDot( ab, cp ), d6 = tbDot( ac, cp );
	if ( d6 >= 0.0f && d5 <= d6 )
	{
		*feature = tbFeature_vertex + 2;
		return c;
	}
	float vb = d5 * d2 - d1 * d6;
	if ( vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f )
	{
		*feature = tbFeature_edge + 2;
		return tbMulAdd( a, d2 / ( d2 - d6 ), ac );
	}
	float va = d3 * d6 - d5 * d4;
	if ( va <= 0.0f && ( d4 - d3 ) >= 0.0f && ( d5 - d6 ) >= 0.0f )
	{
		*feature = tbFeature_edge + 1;
		return tbMulAdd( b, ( d4 - d3 ) / ( ( d4 - d3 ) + ( d5 - d6 ) ), tbSub( c, b ) );
	}
	float denom = 1.0f / ( va + vb + vc );
	*feature = tbFeature_face;
	return tbAdd( a, tbAdd( tbMulSV( vb * denom, ab ), tbMulSV( vc * denom, ac ) ) );
}

tbManifold tbFinishManifold( tbVec3 localNormal, const tbLocalPoint* points, int count, tbTransform xfMesh,
							 tbTransform xfConvex, float speculativeDistance )
{
	tbManifold m;
	memset( &m, 0, sizeof( m ) );
	m.normal = tbRotate( xfMesh.q, localNormal );
	for ( int i = 0; i < count && m.pointCount < TB_MAX_MANIFOLD_POINTS; ++i )
	{
		if ( !( points[i].separation < speculativeDistance ) )
		{
			continue;
		}
		tbManifoldPoint* mp = m.points + m.pointCount++;
		mp->point = tbTransformPoint( xfMesh, points[i].p );
		mp->anchorA = tbSub( mp->point, xfMesh.p );
		mp->anchorB = tbSub( mp->point, xfConvex.p );
		mp->separation = points[i].separation;
		mp->id = points[i].id;
	}
	return m;
}

// Sphere ---------------------------------------------------------------------------------------

static int tbTriangleSphere( const tbTriangle* tri, tbVec3 c, float r, tbVec3* normal, tbLocalPoint* out )
{
	int feature;
	tbVec3 p = tbClosestOnTriangle( tri, c, &feature );
	float h = tbDot( tri->n, tbSub( c, tri->v[0] ) );
	tbVec3 faceNormal = h >= 0.0f ? tri->n : tbNeg( tri->n );
	float distance;
	tbVec3 dir = tbGetLengthAndNormalize( &distance, tbSub( c, p ) );
	float separation;
	if ( tbIsFeatureActive( tri, feature ) && distance > TB_MESH_TOUCH_DISTANCE )
	{
		*normal = dir;
		separation = distance - r;
	}
	else
	{
		// On an inactive edge or vertex the neighbour continues the surface flat, concave or
		// nearly flat. The face contact is this triangle's only if the centre lies over it: past
		// its rim the neighbour's own face contact is the right one, and this plane's extension
		// would hold the ball up (by about r sin(angle) over a slightly convex crease).
		tbVec3 q = tbMulSub( c, h, tri->n );
		for ( int i = 0; i < 3; ++i )
		{
			tbVec3 e = tbSub( tri->v[( i + 1 ) % 3], tri->v[i] );
			tbVec3 outward = tbNormalize( tbCross( e, tri->n ) );
			if ( tbDot( outward, tbSub( q, tri->v[i] ) ) > TB_LINEAR_SLOP && feature != tbFeature_face )
			{
				return 0;
			}
		}
		*normal = faceNormal;
		separation = tbAbsFloat( h ) - r;
	}
	out[0].p = tbMulSub( c, r + 0.5f * separation, *normal );
	out[0].separation = separation;
	out[0].id = 0;
	return 1;
}

// Capsule --------------------------------------------------------------------------------------

// Clip segment a-b to the prism over the triangle (its three side planes). Returns false if
// nothing is left; t0, t1 are the kept parameters.
static bool tbClipSegmentToTriangle( const tbTriangle* tri, tbVec3 a, tbVec3 b, float* t0, float* t1 )
{
	float lo = 0.0f, hi = 1.0f;
	tbVec3 d = tbSub( b, a );
	for ( int i = 0; i < 3; ++i )
	{
		tbVec3 e = tbSub( tri->v[( i + 1 ) % 3], tri->v[i] );
		tbVec3 inward = tbCross( tri->n, e );
		float s0 = tbDot( inward, tbSub( a, tri->v[i] ) );
		float ds = tbDot( inward, d );
		if ( tbAbsFloat( ds ) < 1.0e-20f )
		{
			if ( s0 < 0.0f )
			{
				return false;
			}
			continue;
		}
		float t = -s0 / ds;
		if ( ds > 0.0f )
		{
			lo = tbMaxFloat( lo, t );
		}
		else
		{
			hi = tbMinFloat( hi, t );
		}
		if ( lo > hi )
		{
			return false;
		}
	}
	*t0 = lo;
	*t1 = hi;
	return true;
}

static int tbTriangleCapsule( const tbTriangle* tri, tbVec3 p1, tbVec3 p2, float r, tbVec3* normal, tbLocalPoint* out )
{
	// Closest approach of the segment to the triangle: the ends against the triangle, the
	// segment against the three edges, and a crossing of the face.
	float bestSq = FLT_MAX;
	tbVec3 bestOnTri = tri->v[0], bestOnSeg = p1;
	int bestFeature = tbFeature_face;
	tbVec3 ends[2] = { p1, p2 };
	for ( int k = 0; k < 2; ++k )
	{
		int feature;
		tbVec3 q = tbClosestOnTriangle( tri, ends[k], &feature );
		float dSq = tbDistanceSquared( q, ends[k] );
		if ( dSq < bestSq )
		{
			bestSq = dSq;
			bestOnTri = q;
			bestOnSeg = ends[k];
			bestFeature = feature;
		}
	}
	for ( int i = 0; i < 3; ++i )
	{
		tbVec3 ct, cs;
		tbSegmentClosestPoints( tri->v[i], tri->v[( i + 1 ) % 3], p1, p2, &ct, &cs );
		float dSq = tbDistanceSquared( ct, cs );
		if ( dSq < bestSq )
		{
			bestSq = dSq;
			bestOnTri = ct;
			bestOnSeg = cs;
			bestFeature = tbFeature_edge + i;
		}
	}
	float h1 = tbDot( tri->n, tbSub( p1, tri->v[0] ) );
	float h2 = tbDot( tri->n, tbSub( p2, tri->v[0] ) );
	if ( ( h1 < 0.0f ) != ( h2 < 0.0f ) && h1 != h2 )
	{
		tbVec3 x = tbLerp( p1, p2, h1 / ( h1 - h2 ) );
		int feature;
		tbVec3 q = tbClosestOnTriangle( tri, x, &feature );
		if ( feature == tbFeature_face && tbDistanceSquared( q, x ) < bestSq )
		{
			bestSq = 0.0f;
			bestOnTri = q;
			bestOnSeg = x;
			bestFeature = tbFeature_face;
		}
	}
	float distance = sqrtf( bestSq );

	// The side is that of the segment's midpoint (the capsule's centre).
	float hMid = 0.5f * ( h1 + h2 );
	tbVec3 faceNormal = hMid >= 0.0f ? tri->n : tbNeg( tri->n );
	float side = hMid >= 0.0f ? 1.0f : -1.0f;

	bool useEdge = tbIsFeatureActive( tri, bestFeature ) && distance > TB_MESH_TOUCH_DISTANCE;
	if ( useEdge )
	{
		// The face axis wins when it separates about as well: then both ends can rest on it.
		float faceSeparation = tbMinFloat( side * h1, side * h2 ) - r;
		if ( faceSeparation >= distance - r - tbMeshAxisTolerance( distance - r ) )
		{
			float t0, t1;
			if ( tbClipSegmentToTriangle( tri, p1, p2, &t0, &t1 ) )
			{
				useEdge = false;
			}
		}
	}
	if ( useEdge == false )
	{
		float t0, t1;
		if ( tbClipSegmentToTriangle( tri, p1, p2, &t0, &t1 ) )
		{
			*normal = faceNormal;
			int count = 0;
			float ts[2] = { t0, t1 };
			for ( int k = 0; k < 2; ++k )
			{
				if ( k == 1 && t1 - t0 < 1.0e-6f )
				{
					break;
				}
				tbVec3 q = tbLerp( p1, p2, ts[k] );
				float separation = side * tbDot( tri->n, tbSub( q, tri->v[0] ) ) - r;
				out[count].p = tbMulSub( q, r + 0.5f * separation, faceNormal );
				out[count].separation = separation;
				out[count].id = (uint32_t)( k + 1 );
				count += 1;
			}
			return count;
		}
		if ( tbIsFeatureActive( tri, bestFeature ) == false )
		{
			// Past an inactive edge: the neighbour triangle carries this contact.
			return 0;
		}
	}
	*normal = distance > TB_MESH_TOUCH_DISTANCE ? tbMulSV( 1.0f / distance, tbSub( bestOnSeg, bestOnTri ) ) : faceNormal;
	float separation = distance - r;
	out[0].p = tbMulSub( bestOnSeg, r + 0.5f * separation, *normal );
	out[0].separation = separation;
	out[0].id = 3;
	return 1;
}

// Hull -----------------------------------------------------------------------------------------

int tbClipPolygon( const tbClipVertex* in, int count, tbVec3 normal, float offset, uint32_t label, tbClipVertex* out )
{
	int n = 0;
	for ( int i = 0; i < count; ++i )
	{
		const tbClipVertex* a = in + i;
		const tbClipVertex* b = in + ( i + 1 ) % count;
		float da = tbDot( normal, a->p ) - offset;
		float db = tbDot( normal, b->p ) - offset;
		if ( da <= 0.0f && n < TB_MESH_CLIP_CAPACITY )
		{
			out[n++] = *a;
		}
		if ( ( da <= 0.0f ) != ( db <= 0.0f ) && n < TB_MESH_CLIP_CAPACITY )
		{
			float t = da / ( da - db );
			out[n].p = tbLerp( a->p, b->p, t );
			// The crossing is named by the edge (its two end ids, order-free) and the plane.
			uint32_t lo = a->id < b->id ? a->id : b->id;
			uint32_t hi = a->id < b->id ? b->id : a->id;
			out[n].id = tbMeshHash( tbMeshHash( lo, hi ), label );
			n += 1;
		}
	}
	return n;
}

int tbReduceLocalPoints( tbLocalPoint* points, int count, tbVec3 normal )
{
	if ( count <= TB_MAX_MANIFOLD_POINTS )
	{
		return count;
	}
	bool used[TB_MESH_CLIP_CAPACITY] = { false };
	int pick[4];
	int best = 0;
	for ( int i = 1; i < count; ++i )
	{
		if ( points[i].separation < points[best].separation )
		{
			best = i;
		}
	}
	pick[0] = best;
	used[best] = true;
	for ( int k = 1; k < 4; ++k )
	{
		float bestScore = -1.0f;
		int bestIndex = -1;
		for ( int i = 0; i < count; ++i )
		{
			if ( used[i] )
			{
				continue;
			}
			float score;
			tbVec3 q = points[i].p;
			if ( k == 1 )
			{
				score = tbDistanceSquared( q, points[pick[0]].p );
			}
			else if ( k == 2 )
			{
				score = tbAbsFloat( tbDot( tbCross( tbSub( points[pick[1]].p, points[pick[0]].p ), tbSub( q, points[pick[0]].p ) ), normal ) );
			}
			else
			{
				tbVec3 a = points[pick[0]].p, b = points[pick[1]].p, c = points[pick[2]].p;
				float orient = tbDot( tbCross( tbSub( b, a ), tbSub( c, a ) ), normal ) >= 0.0f ? 1.0f : -1.0f;
				tbVec3 corners[3] = { a, b, c };
				score = 0.0f;
				for ( int j = 0; j < 3; ++j )
				{
					tbVec3 u = corners[j], w = corners[( j + 1 ) % 3];
					score = tbMaxFloat( score, -orient * tbDot( tbCross( tbSub( w, u ), tbSub( q, u ) ), normal ) );
				}
			}
			if ( score > bestScore )
			{
				bestScore = score;
				bestIndex = i;
			}
		}
		pick[k] = bestIndex;
		used[bestIndex] = true;
	}
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

// Hull in the mesh frame: vertices and face planes moved by xf (hull frame into mesh frame).
typedef struct tbLocalHull
{
	const tbHull* hull;
	tbTransform xf;
	tbVec3 vertices[TB_MAX_HULL_POINTS];
	tbVec3 centroid;
} tbLocalHull;

static tbPlane tbHullPlane( const tbLocalHull* h, int face )
{
	tbPlane plane = h->hull->planes[face];
	tbPlane out;
	out.normal = tbRotate( h->xf.q, plane.normal );
	out.offset = plane.offset + tbDot( out.normal, h->xf.p );
	return out;
}

static void tbProjectHull( const tbLocalHull* h, tbVec3 axis, float* lo, float* hi )
{
	float a = FLT_MAX, b = -FLT_MAX;
	for ( int i = 0; i < h->hull->vertexCount; ++i )
	{
		float d = tbDot( axis, h->vertices[i] );
		a = tbMinFloat( a, d );
		b = tbMaxFloat( b, d );
	}
	*lo = a;
	*hi = b;
}

// The triangle's feature touched along direction d (from the triangle towards the hull): the
// vertices within a small tolerance of the triangle's support in d.
static int tbSupportFeature( const tbTriangle* tri, tbVec3 d )
{
	float s[3];
	float best = -FLT_MAX;
	float size = 0.0f;
	for ( int i = 0; i < 3; ++i )
	{
		s[i] = tbDot( d, tri->v[i] );
		best = tbMaxFloat( best, s[i] );
		size = tbMaxFloat( size, tbDistance( tri->v[i], tri->v[( i + 1 ) % 3] ) );
	}
	// A millionth of the triangle's size covers the round-off of d's construction (a cross product
	// of unit-length scale vectors) for triangles up to kilometres across.
	float tol = 1.0e-4f * size + 1.0e-6f;
	int mask = 0;
	for ( int i = 0; i < 3; ++i )
	{
		if ( s[i] >= best - tol )
		{
			mask |= 1 << i;
		}
	}
	switch ( mask )
	{
		case 1:
			return tbFeature_vertex + 0;
		case 2:
			return tbFeature_vertex + 1;
		case 4:
			return tbFeature_vertex + 2;
		case 3:
			return tbFeature_edge + 0;
		case 6:
			return tbFeature_edge + 1;
		case 5:
			return tbFeature_edge + 2;
		default:
			return tbFeature_face;
	}
}

// Triangle face as reference: clip the hull face most opposed to the face normal against the
// triangle's side planes.
static int tbTriangleFaceContact( const tbTriangle* tri, const tbLocalHull* h, tbVec3 faceNormal, tbLocalPoint* out )
{
	const tbHull* hull = h->hull;
	int incident = 0;
	float minDot = FLT_MAX;
	for ( int f = 0; f < hull->faceCount; ++f )
	{
		float d = tbDot( tbRotate( h->xf.q, hull->planes[f].normal ), faceNormal );
		if ( d < minDot )
		{
			minDot = d;
			incident = f;
		}
	}
	tbClipVertex bufferA[TB_MESH_CLIP_CAPACITY], bufferB[TB_MESH_CLIP_CAPACITY];
	int count = 0;
	int first = hull->faces[incident].edge;
	int e = first;
	do
	{
		int v = hull->edges[e].origin;
		if ( count < TB_MESH_CLIP_CAPACITY )
		{
			bufferA[count].p = h->vertices[v];
			bufferA[count].id = tbMeshHash( 1u, (uint32_t)v );
			count += 1;
		}
		e = hull->edges[e].next;
	} while ( e != first && count < hull->edgeCount );

	tbClipVertex* in = bufferA;
	tbClipVertex* outPoly = bufferB;
	for ( int i = 0; i < 3 && count > 0; ++i )
	{
		tbVec3 a = tri->v[i];
		tbVec3 edge = tbSub( tri->v[( i + 1 ) % 3], a );
		// Outward side normal: the triangle's interior is to the left of each edge about n.
		tbVec3 outward = tbNormalize( tbCross( edge, tri->n ) );
		float offset = tbDot( outward, a ) + 0.1f * TB_LINEAR_SLOP;
		count = tbClipPolygon( in, count, outward, offset, 0x100u + (uint32_t)i, outPoly );
		tbClipVertex* t = in;
		in = outPoly;
		outPoly = t;
	}
	float planeOffset = tbDot( faceNormal, tri->v[0] );
	int n = 0;
	for ( int i = 0; i < count; ++i )
	{
		float separation = tbDot( faceNormal, in[i].p ) - planeOffset;
		out[n].p = tbMulSub( in[i].p, 0.5f * separation, faceNormal );
		out[n].separation = separation;
		out[n].id = in[i].id;
		n += 1;
	}
	return tbReduceLocalPoints( out, n, faceNormal );
}

// Hull face as reference: clip the triangle against the face's side planes.
static int tbHullFaceContact( const tbTriangle* tri, const tbLocalHull* h, int face, tbLocalPoint* out )
{
	const tbHull* hull = h->hull;
	tbPlane plane = tbHullPlane( h, face );
	tbClipVertex bufferA[TB_MESH_CLIP_CAPACITY], bufferB[TB_MESH_CLIP_CAPACITY];
	int count = 3;
	for ( int i = 0; i < 3; ++i )
	{
		bufferA[i].p = tri->v[i];
		bufferA[i].id = tbMeshHash( 2u, (uint32_t)i );
	}
	tbClipVertex* in = bufferA;
	tbClipVertex* outPoly = bufferB;
	int first = hull->faces[face].edge;
	int e = first;
	int guard = 0;
	do
	{
		tbVec3 a = h->vertices[hull->edges[e].origin];
		tbVec3 b = h->vertices[hull->edges[hull->edges[e].twin].origin];
		// Counter-clockwise seen from outside: the outward side normal is edge x face normal.
		tbVec3 outward = tbNormalize( tbCross( tbSub( b, a ), plane.normal ) );
		count = tbClipPolygon( in, count, outward, tbDot( outward, a ) + 0.1f * TB_LINEAR_SLOP, 0x200u + (uint32_t)e, outPoly );
		tbClipVertex* t = in;
		in = outPoly;
		outPoly = t;
		e = hull->edges[e].next;
		guard += 1;
	} while ( e != first && guard < hull->edgeCount && count > 0 );

	tbVec3 normal = tbNeg( plane.normal );
	int n = 0;
	for ( int i = 0; i < count; ++i )
	{
		float separation = tbDot( plane.normal, in[i].p ) - plane.offset;
		out[n].p = tbMulSub( in[i].p, 0.5f * separation, plane.normal );
		out[n].separation = separation;
		out[n].id = in[i].id;
		n += 1;
	}
	return tbReduceLocalPoints( out, n, normal );
}

static int tbTriangleHull( const tbTriangle* tri, tbLocalHull* h, float speculativeDistance, tbVec3* normal, tbLocalPoint* out )
{
	const tbHull* hull = h->hull;

	// Triangle face axis, on the side of the hull's centroid.
	float planeOffset = tbDot( tri->n, tri->v[0] );
	float lo, hi;
	tbProjectHull( h, tri->n, &lo, &hi );
	bool above = tbDot( tri->n, h->centroid ) >= planeOffset;
	tbVec3 faceNormal = above ? tri->n : tbNeg( tri->n );
	float faceSeparation = above ? lo - planeOffset : planeOffset - hi;
	if ( faceSeparation > speculativeDistance )
	{
		return 0;
	}

	// Hull face axes: the triangle's deepest vertex below each face plane.
	float hullSeparation = -FLT_MAX;
	int hullFace = -1;
	for ( int f = 0; f < hull->faceCount; ++f )
	{
		tbPlane plane = tbHullPlane( h, f );
		float s = FLT_MAX;
		for ( int i = 0; i < 3; ++i )
		{
			s = tbMinFloat( s, tbDot( plane.normal, tri->v[i] ) - plane.offset );
		}
		if ( s > hullSeparation )
		{
			hullSeparation = s;
			hullFace = f;
		}
	}
	if ( hullSeparation > speculativeDistance )
	{
		return 0;
	}

	// Edge pairs (triangle edge x hull edge), both orientations of each axis.
	float edgeSeparation = -FLT_MAX;
	tbVec3 edgeAxis = tb_vec3_zero;
	int edgeTri = -1, edgeHull = -1;
	for ( int i = 0; i < 3; ++i )
	{
		tbVec3 ta = tri->v[i];
		tbVec3 te = tbSub( tri->v[( i + 1 ) % 3], ta );
		float tl = tbLength( te );
		for ( int e = 0; e < hull->edgeCount; ++e )
		{
			if ( hull->edges[e].twin < e )
			{
				continue;
			}
			tbVec3 ha = h->vertices[hull->edges[e].origin];
			tbVec3 hb = h->vertices[hull->edges[hull->edges[e].twin].origin];
			tbVec3 he = tbSub( hb, ha );
			tbVec3 axis = tbCross( te, he );
			float len = tbLength( axis );
			// Nearly parallel edges give no new axis (the face axes cover them).
			if ( len < 1.0e-3f * tl * tbLength( he ) + 1.0e-20f )
			{
				continue;
			}
			axis = tbMulSV( 1.0f / len, axis );
			float tlo = FLT_MAX, thi = -FLT_MAX;
			for ( int k = 0; k < 3; ++k )
			{
				float d = tbDot( axis, tri->v[k] );
				tlo = tbMinFloat( tlo, d );
				thi = tbMaxFloat( thi, d );
			}
			float hlo, hhi;
			tbProjectHull( h, axis, &hlo, &hhi );
			float sPlus = hlo - thi;
			float sMinus = tlo - hhi;
			float s = sPlus >= sMinus ? sPlus : sMinus;
			if ( s > edgeSeparation )
			{
				edgeSeparation = s;
				edgeAxis = sPlus >= sMinus ? axis : tbNeg( axis );
				edgeTri = i;
				edgeHull = e;
			}
			if ( s > speculativeDistance )
			{
				return 0;
			}
		}
	}

	// Prefer the triangle face, then hull faces, then edges, each by the hysteresis tolerance.
	int kind = 0; // 0 triangle face, 1 hull face, 2 edge pair
	float best = faceSeparation;
	if ( hullFace >= 0 && hullSeparation > best + tbMeshAxisTolerance( best ) )
	{
		kind = 1;
		best = hullSeparation;
	}
	if ( edgeTri >= 0 && edgeSeparation > best + tbMeshAxisTolerance( best ) )
	{
		kind = 2;
		best = edgeSeparation;
	}

	if ( kind != 0 )
	{
		tbVec3 d = kind == 1 ? tbNeg( tbHullPlane( h, hullFace ).normal ) : edgeAxis;
		int feature = tbSupportFeature( tri, d );
		if ( tbIsFeatureActive( tri, feature ) == false )
		{
			kind = 0;
		}
	}

	if ( kind == 0 )
	{
		*normal = faceNormal;
		return tbTriangleFaceContact( tri, h, faceNormal, out );
	}
	if ( kind == 1 )
	{
		*normal = tbNeg( tbHullPlane( h, hullFace ).normal );
		return tbHullFaceContact( tri, h, hullFace, out );
	}
	tbVec3 ct, ch;
	tbVec3 ha = h->vertices[hull->edges[edgeHull].origin];
	tbVec3 hb = h->vertices[hull->edges[hull->edges[edgeHull].twin].origin];
	tbSegmentClosestPoints( tri->v[edgeTri], tri->v[( edgeTri + 1 ) % 3], ha, hb, &ct, &ch );
	*normal = edgeAxis;
	out[0].p = tbLerp( ct, ch, 0.5f );
	out[0].separation = edgeSeparation;
	out[0].id = tbMeshHash( 3u + ( (uint32_t)edgeTri << 16 ), (uint32_t)edgeHull );
	return 1;
}

// Cylinder --------------------------------------------------------------------------------------

// The cylinder's manifold builder (cylinder.c) with the triangle as A. A contact through an inactive
// edge or vertex is rebuilt on the triangle's face, and dropped if the cylinder is not over it.
static int tbTriangleCylinder( const tbTriangle* tri, const tbCylinder* cylinder, tbTransform xf, float speculativeDistance,
							   tbVec3* normal, tbLocalPoint* out )
{
	tbSolid a = tbMakeTriangleSolid( tri->v, tri->n );
	tbSolid b = tbMakeSolid( tbShape_cylinder, cylinder, xf );
	int count = tbCollideSolids( &a, &b, speculativeDistance, false, normal, out );
	if ( count > 0 && tbAbsFloat( tbDot( *normal, tri->n ) ) < 1.0f - 1.0e-5f &&
		 tbIsFeatureActive( tri, tbSupportFeature( tri, *normal ) ) == false )
	{
		count = tbCollideSolids( &a, &b, speculativeDistance, true, normal, out );
	}
	return count;
}

tbManifold tbCollideMeshTriangle( tbTriangleSource source, int t, tbTransform xfMesh, const tbShape* convex,
								  tbTransform xfConvex, float speculativeDistance )
{
	tbTriangle tri;
	tbGetSourceTriangle( source, t, &tri );
	tbTransform xf = tbInvMulTransforms( xfMesh, xfConvex ); // convex body frame into the mesh frame
	tbLocalPoint points[TB_MESH_CLIP_CAPACITY];
	int count = 0;
	tbVec3 normal = tri.n;
	switch ( convex->type )
	{
		case tbShape_sphere:
			count = tbTriangleSphere( &tri, tbTransformPoint( xf, convex->sphere.center ), convex->sphere.radius, &normal, points );
			break;
		case tbShape_capsule:
			count = tbTriangleCapsule( &tri, tbTransformPoint( xf, convex->capsule.center1 ),
									   tbTransformPoint( xf, convex->capsule.center2 ), convex->capsule.radius, &normal, points );
			break;
		case tbShape_hull:
		{
			// Static scratch would not be re-entrant; the largest hull's vertices (12 KB) fit the stack.
			tbLocalHull h;
			h.hull = convex->hull;
			h.xf = xf;
			for ( int i = 0; i < convex->hull->vertexCount; ++i )
			{
				h.vertices[i] = tbTransformPoint( xf, convex->hull->vertices[i] );
			}
			h.centroid = tbTransformPoint( xf, convex->hull->centroid );
			count = tbTriangleHull( &tri, &h, speculativeDistance, &normal, points );
			break;
		}
		case tbShape_cylinder:
			count = tbTriangleCylinder( &tri, &convex->cylinder, xf, speculativeDistance, &normal, points );
			break;
		default:
			break;
	}
	return tbFinishManifold( normal, points, count, xfMesh, xfConvex, speculativeDistance );
}

// Overlap and time of impact -------------------------------------------------------------------

typedef struct tbOverlapQuery
{
	tbTriangleSource source;
	tbDistanceInput input;
	tbTriangle tri;
	bool hit;
} tbOverlapQuery;

static bool tbOverlapTriangle( int t, void* context )
{
	tbOverlapQuery* q = context;
	tbGetSourceTriangle( q->source, t, &q->tri );
	q->input.proxyA.points = q->tri.v;
	tbSimplexCache cache = { 0 };
	tbDistanceOutput out = tbShapeDistance( &q->input, &cache );
	if ( out.distance <= 0.0f )
	{
		q->hit = true;
		return false;
	}
	return true;
}

bool tbMeshOverlapsProxy( tbTriangleSource source, tbTransform xfMesh, const tbShapeProxy* proxy, tbTransform xfProxy )
{
	tbAABB box = tbComputeProxyAABB( proxy, xfProxy );
	tbOverlapQuery q;
	memset( &q, 0, sizeof( q ) );
	q.source = source;
	q.input.proxyA.count = 3;
	q.input.proxyA.radius = 0.0f;
	q.input.proxyB = *proxy;
	q.input.transformA = xfMesh;
	q.input.transformB = xfProxy;
	q.input.useRadii = true;
	tbQuerySourceTriangles( source, tbWorldBoxToMesh( box, xfMesh ), tbOverlapTriangle, &q );
	return q.hit;
}

typedef struct tbMeshTOIQuery
{
	tbTriangleSource source;
	tbTOIInput input;
	tbTransform xfMesh;
	tbTriangle tri;
	float fraction;
} tbMeshTOIQuery;

static bool tbTriangleTOI( int t, void* context )
{
	tbMeshTOIQuery* q = context;
	tbGetSourceTriangle( q->source, t, &q->tri );
	q->input.proxyA.points = q->tri.v;
	q->input.maxFraction = q->fraction;

	// Triangles already within the speculative distance at the start are the speculative
	// contacts' job (as for every other shape in solver.c).
	tbDistanceInput din;
	din.proxyA = q->input.proxyA;
	din.proxyB = q->input.proxyB;
	din.transformA = q->xfMesh;
	din.transformB = tbGetSweepTransform( &q->input.sweepB, 0.0f );
	din.useRadii = true;
	tbSimplexCache cache = { 0 };
	if ( tbShapeDistance( &din, &cache ).distance < TB_SPECULATIVE_DISTANCE )
	{
		return true;
	}
	tbTOIOutput out = tbTimeOfImpact( &q->input );
	bool usable = out.state == tbTOIState_hit || out.state == tbTOIState_failed;
	if ( usable && out.fraction < q->fraction )
	{
		q->fraction = out.fraction;
	}
	return true;
}

float tbTrianglesTimeOfImpact( tbTriangleSource source, tbTransform xfMesh, const tbShape* convex, const tbSweep* sweep,
							   float maxFraction )
{
	tbAABB box1 = tbComputeShapeAABB( convex, tbGetSweepTransform( sweep, 0.0f ) );
	tbAABB box2 = tbComputeShapeAABB( convex, tbGetSweepTransform( sweep, 1.0f ) );
	tbMeshTOIQuery q;
	memset( &q, 0, sizeof( q ) );
	q.source = source;
	q.xfMesh = xfMesh;
	q.fraction = maxFraction;
	q.input.proxyA.count = 3;
	q.input.proxyA.radius = 0.0f;
	q.input.proxyB = tbMakeShapeDistanceProxy( convex );
	q.input.sweepA.localCenter = tb_vec3_zero;
	q.input.sweepA.c1 = q.input.sweepA.c2 = xfMesh.p;
	q.input.sweepA.q1 = q.input.sweepA.q2 = xfMesh.q;
	q.input.sweepB = *sweep;
	q.input.target = TB_LINEAR_SLOP;
	tbQuerySourceTriangles( source, tbWorldBoxToMesh( tbAABB_Union( box1, box2 ), xfMesh ), tbTriangleTOI, &q );
	return q.fraction;
}
