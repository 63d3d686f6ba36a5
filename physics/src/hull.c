// Tumble physics: convex hulls with half-edge topology (quickhull with coplanar face merging).
// SPDX-License-Identifier: MIT
#include "core.h"
#include "tumble/collision.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

// The hull builder works internally with exact integer orientation tests and double precision
// geometry (see Quickhull below). It runs once per shape, not per step, and robustness matters
// more there than speed. Everything the hull stores is float.

typedef struct tbDVec3
{
	double x, y, z;
} tbDVec3;

static tbDVec3 tbDMake( double x, double y, double z )
{
	tbDVec3 v = { x, y, z };
	return v;
}

static tbDVec3 tbDFromVec3( tbVec3 v )
{
	return tbDMake( v.x, v.y, v.z );
}

static tbDVec3 tbDAdd( tbDVec3 a, tbDVec3 b )
{
	return tbDMake( a.x + b.x, a.y + b.y, a.z + b.z );
}

static tbDVec3 tbDSub( tbDVec3 a, tbDVec3 b )
{
	return tbDMake( a.x - b.x, a.y - b.y, a.z - b.z );
}

static tbDVec3 tbDScale( double s, tbDVec3 a )
{
	return tbDMake( s * a.x, s * a.y, s * a.z );
}

static double tbDDot( tbDVec3 a, tbDVec3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

static tbDVec3 tbDCross( tbDVec3 a, tbDVec3 b )
{
	return tbDMake( a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x );
}

static double tbDLength( tbDVec3 a )
{
	return sqrt( tbDDot( a, a ) );
}

// Hull allocation ---------------------------------------------------------------------------------

static size_t tbAlignSize( size_t size )
{
	return ( size + 7u ) & ~(size_t)7u;
}

// Byte offsets of the arrays inside the single hull block. Every section is rounded to 8 bytes so
// each array starts suitably aligned whatever the counts are.
typedef struct tbHullLayout
{
	size_t vertexOffset, planeOffset, edgeOffset, faceOffset, total;
} tbHullLayout;

static tbHullLayout tbGetHullLayout( int vertexCount, int edgeCount, int faceCount )
{
	tbHullLayout layout;
	layout.vertexOffset = tbAlignSize( sizeof( tbHull ) );
	layout.planeOffset = layout.vertexOffset + tbAlignSize( (size_t)vertexCount * sizeof( tbVec3 ) );
	layout.edgeOffset = layout.planeOffset + tbAlignSize( (size_t)faceCount * sizeof( tbPlane ) );
	layout.faceOffset = layout.edgeOffset + tbAlignSize( (size_t)edgeCount * sizeof( tbHullHalfEdge ) );
	layout.total = layout.faceOffset + tbAlignSize( (size_t)faceCount * sizeof( tbHullFace ) );
	return layout;
}

static void tbSetHullPointers( tbHull* hull )
{
	tbHullLayout layout = tbGetHullLayout( hull->vertexCount, hull->edgeCount, hull->faceCount );
	char* base = (char*)hull;
	hull->vertices = (tbVec3*)( base + layout.vertexOffset );
	hull->planes = (tbPlane*)( base + layout.planeOffset );
	hull->edges = (tbHullHalfEdge*)( base + layout.edgeOffset );
	hull->faces = (tbHullFace*)( base + layout.faceOffset );
}

static tbHull* tbAllocateHull( int vertexCount, int edgeCount, int faceCount )
{
	tbHullLayout layout = tbGetHullLayout( vertexCount, edgeCount, faceCount );
	tbHull* hull = tbAlloc( layout.total );
	if ( hull == NULL )
	{
		return NULL;
	}
	memset( hull, 0, layout.total );
	hull->vertexCount = vertexCount;
	hull->edgeCount = edgeCount;
	hull->faceCount = faceCount;
	hull->byteCount = (int)layout.total;
	tbSetHullPointers( hull );
	return hull;
}

// Volume centroid by splitting the solid into tetrahedra (reference point, fan triangle of a face).
// Falls back to the vertex average for a hull of zero volume.
static void tbComputeHullCentroid( tbHull* hull )
{
	tbDVec3 reference = tbDMake( 0.0, 0.0, 0.0 );
	for ( int i = 0; i < hull->vertexCount; ++i )
	{
		reference = tbDAdd( reference, tbDFromVec3( hull->vertices[i] ) );
	}
	reference = tbDScale( 1.0 / (double)hull->vertexCount, reference );

	double volume6 = 0.0;
	tbDVec3 moment = tbDMake( 0.0, 0.0, 0.0 );
	for ( int f = 0; f < hull->faceCount; ++f )
	{
		int first = hull->faces[f].edge;
		tbDVec3 a = tbDSub( tbDFromVec3( hull->vertices[hull->edges[first].origin] ), reference );
		int e = hull->edges[first].next;
		int guard = 0;
		while ( hull->edges[e].next != first && guard < hull->edgeCount )
		{
			int n = hull->edges[e].next;
			tbDVec3 b = tbDSub( tbDFromVec3( hull->vertices[hull->edges[e].origin] ), reference );
			tbDVec3 c = tbDSub( tbDFromVec3( hull->vertices[hull->edges[n].origin] ), reference );
			double v6 = tbDDot( a, tbDCross( b, c ) );
			volume6 += v6;
			// centroid of the tetrahedron (0, a, b, c) is (a + b + c) / 4
			moment = tbDAdd( moment, tbDScale( v6 * 0.25, tbDAdd( a, tbDAdd( b, c ) ) ) );
			e = n;
			guard += 1;
		}
	}

	tbDVec3 centroid = reference;
	if ( volume6 > 0.0 )
	{
		centroid = tbDAdd( reference, tbDScale( 1.0 / volume6, moment ) );
	}
	hull->centroid = tbMakeVec3( (float)centroid.x, (float)centroid.y, (float)centroid.z );

	float inner = FLT_MAX;
	for ( int f = 0; f < hull->faceCount; ++f )
	{
		float distance = hull->planes[f].offset - tbDot( hull->planes[f].normal, hull->centroid );
		inner = tbMinFloat( inner, distance );
	}
	hull->innerRadius = tbMaxFloat( inner, 0.0f );
}

static void tbComputeHullBounds( tbHull* hull )
{
	tbVec3 lower = hull->vertices[0];
	tbVec3 upper = hull->vertices[0];
	for ( int i = 1; i < hull->vertexCount; ++i )
	{
		lower = tbMinVec( lower, hull->vertices[i] );
		upper = tbMaxVec( upper, hull->vertices[i] );
	}
	hull->bounds.lowerBound = lower;
	hull->bounds.upperBound = upper;
}

// Build a hull from polygon faces given as vertex index loops (counter-clockwise seen from outside).
// planes may be NULL: each plane is then fitted to its polygon (Newell normal through the vertex
// average). Returns NULL if the loops do not form a closed two-manifold (every directed edge once,
// with its reverse in another face) or on allocation failure.
static tbHull* tbBuildHullFromFaces( const tbVec3* vertices, int vertexCount, const int* faceVertices,
									 const int* faceSizes, int faceCount, const tbPlane* planes )
{
	int edgeCount = 0;
	for ( int f = 0; f < faceCount; ++f )
	{
		if ( faceSizes[f] < 3 )
		{
			return NULL;
		}
		edgeCount += faceSizes[f];
	}
	if ( vertexCount < 4 || faceCount < 4 || vertexCount > UINT16_MAX || edgeCount > UINT16_MAX ||
		 faceCount > UINT16_MAX )
	{
		return NULL;
	}

	tbHull* hull = tbAllocateHull( vertexCount, edgeCount, faceCount );
	if ( hull == NULL )
	{
		return NULL;
	}
	memcpy( hull->vertices, vertices, (size_t)vertexCount * sizeof( tbVec3 ) );

	int base = 0;
	for ( int f = 0; f < faceCount; ++f )
	{
		int n = faceSizes[f];
		hull->faces[f].edge = (uint16_t)base;
		for ( int k = 0; k < n; ++k )
		{
			tbHullHalfEdge* edge = hull->edges + base + k;
			int v = faceVertices[base + k];
			if ( v < 0 || v >= vertexCount )
			{
				tbFree( hull, (size_t)hull->byteCount );
				return NULL;
			}
			edge->origin = (uint16_t)v;
			edge->next = (uint16_t)( base + ( k + 1 ) % n );
			edge->face = (uint16_t)f;
			edge->twin = UINT16_MAX;
		}
		base += n;
	}

	// Twins through per-vertex lists of outgoing half-edges: the twin of a->b leaves b towards a.
	size_t startBytes = (size_t)( vertexCount + 1 ) * sizeof( int );
	size_t listBytes = (size_t)edgeCount * sizeof( int );
	int* start = tbAlloc( startBytes );
	int* list = tbAlloc( listBytes );
	bool ok = start != NULL && list != NULL;
	if ( ok )
	{
		memset( start, 0, startBytes );
		for ( int e = 0; e < edgeCount; ++e )
		{
			start[hull->edges[e].origin + 1] += 1;
		}
		for ( int v = 0; v < vertexCount; ++v )
		{
			start[v + 1] += start[v];
		}
		int* fill = tbAlloc( startBytes );
		ok = fill != NULL;
		if ( ok )
		{
			memcpy( fill, start, startBytes );
			for ( int e = 0; e < edgeCount; ++e )
			{
				list[fill[hull->edges[e].origin]++] = e;
			}
			tbFree( fill, startBytes );
		}
	}

	for ( int e = 0; ok && e < edgeCount; ++e )
	{
		int a = hull->edges[e].origin;
		int b = hull->edges[hull->edges[e].next].origin;
		int found = -1;
		for ( int i = start[b]; i < start[b + 1]; ++i )
		{
			int candidate = list[i];
			if ( hull->edges[hull->edges[candidate].next].origin == a )
			{
				if ( found >= 0 )
				{
					found = -2;
					break;
				}
				found = candidate;
			}
		}
		if ( found < 0 || hull->edges[found].face == hull->edges[e].face )
		{
			ok = false;
			break;
		}
		hull->edges[e].twin = (uint16_t)found;
	}
	tbFree( start, startBytes );
	tbFree( list, listBytes );

	if ( ok == false )
	{
		tbFree( hull, (size_t)hull->byteCount );
		return NULL;
	}

	for ( int f = 0; f < faceCount; ++f )
	{
		if ( planes != NULL )
		{
			hull->planes[f] = planes[f];
			continue;
		}

		// Newell's method: the summed edge cross products are twice the polygon's area vector,
		// robust for slightly non-planar polygons.
		int first = hull->faces[f].edge;
		tbDVec3 normal = tbDMake( 0.0, 0.0, 0.0 );
		tbDVec3 mean = tbDMake( 0.0, 0.0, 0.0 );
		int e = first;
		int n = 0;
		do
		{
			tbDVec3 p = tbDFromVec3( hull->vertices[hull->edges[e].origin] );
			tbDVec3 q = tbDFromVec3( hull->vertices[hull->edges[hull->edges[e].next].origin] );
			normal = tbDAdd( normal, tbDCross( p, q ) );
			mean = tbDAdd( mean, p );
			n += 1;
			e = hull->edges[e].next;
		} while ( e != first && n <= edgeCount );
		double length = tbDLength( normal );
		if ( length <= 0.0 )
		{
			tbFree( hull, (size_t)hull->byteCount );
			return NULL;
		}
		normal = tbDScale( 1.0 / length, normal );
		mean = tbDScale( 1.0 / (double)n, mean );
		hull->planes[f].normal = tbMakeVec3( (float)normal.x, (float)normal.y, (float)normal.z );
		hull->planes[f].offset = (float)tbDDot( normal, mean );
	}

	tbComputeHullBounds( hull );
	tbComputeHullCentroid( hull );
	return hull;
}

// Box ---------------------------------------------------------------------------------------------

tbHull* tbMakeBoxHull( tbVec3 halfExtents, tbTransform localTransform )
{
	// Vertex i has +h on the axes whose bit is set in i (bit 0 x, bit 1 y, bit 2 z). Each quad
	// is listed counter-clockwise seen from outside: -x, +x, -y, +y, -z, +z.
	static const int faceVertices[24] = {
		0, 4, 6, 2, 1, 3, 7, 5, 0, 1, 5, 4, 2, 6, 7, 3, 0, 2, 3, 1, 4, 5, 7, 6,
	};
	static const int faceSizes[6] = { 4, 4, 4, 4, 4, 4 };

	tbVec3 h = tbAbsVec( halfExtents );
	tbVec3 vertices[8];
	for ( int i = 0; i < 8; ++i )
	{
		tbVec3 local = tbMakeVec3( ( i & 1 ) ? h.x : -h.x, ( i & 2 ) ? h.y : -h.y, ( i & 4 ) ? h.z : -h.z );
		vertices[i] = tbTransformPoint( localTransform, local );
	}

	// Planes come straight from the transform instead of being fitted, so they are exact.
	tbVec3 axes[3] = {
		tbRotate( localTransform.q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) ),
		tbRotate( localTransform.q, tbMakeVec3( 0.0f, 1.0f, 0.0f ) ),
		tbRotate( localTransform.q, tbMakeVec3( 0.0f, 0.0f, 1.0f ) ),
	};
	float extents[3] = { h.x, h.y, h.z };
	tbPlane planes[6];
	for ( int axis = 0; axis < 3; ++axis )
	{
		float center = tbDot( axes[axis], localTransform.p );
		planes[2 * axis].normal = tbNeg( axes[axis] );
		planes[2 * axis].offset = extents[axis] - center;
		planes[2 * axis + 1].normal = axes[axis];
		planes[2 * axis + 1].offset = extents[axis] + center;
	}

	tbHull* hull = tbBuildHullFromFaces( vertices, 8, faceVertices, faceSizes, 6, planes );
	if ( hull != NULL )
	{
		hull->centroid = localTransform.p;
		hull->innerRadius = tbMinFloat( h.x, tbMinFloat( h.y, h.z ) );
	}
	return hull;
}

// Quickhull ---------------------------------------------------------------------------------------
// Barber, Dobkin, Huhdanpaa, "The Quickhull Algorithm for Convex Hulls" (1996), made exact: the
// points are snapped to an integer grid of 2^19 cells across the cloud's largest extent (the
// snapping is also the weld), so every orientation test is an exact 64-bit integer determinant.
// The triangle mesh is then always exactly convex and the region a new point sees is always a
// disk, which is what keeps the topology intact on coplanar, jittered or otherwise nasty input.
// Tolerances enter only afterwards, when near-coplanar triangles are fused into polygons
// (tbMergeFaces). (Doing it the other way round, with "thick" planes during the build, loses
// points: beside two almost coplanar faces the region "within tolerance of every plane" reaches
// far beyond the actual surface.)
//
// Bounds: |q| <= 2^18, so coordinate differences are below 2^19 + 1, face normals (2x2 minors)
// below 2^40 and every side test below 2^61.

#define TB_HULL_GRID_BITS 19

typedef struct tbQHFace
{
	int v[3];		// counter-clockwise seen from outside
	int twin[3];	// half-edge (face * 3 + k) opposite to half-edge k, which runs v[k] -> v[k + 1]
	int64_t n[3];	// exact normal (b - a) x (c - a) in grid units
	int64_t offset; // n . a
	tbDVec3 normal; // unit normal, for distances
	double area2;	// twice the area, grid units squared
	double distanceOffset;
	int conflictHead;
	int mark;
	int cluster;
	bool alive;
} tbQHFace;

typedef struct tbQHBuilder
{
	const tbVec3* input;
	int32_t* grid;	 // snapped coordinates, 3 per point
	tbDVec3* points; // the same as doubles, in grid units
	int* original;	 // input index of each snapped point
	int pointCount;
	int* conflictNext;
	double* conflictDistance;

	tbQHFace* faces;
	int faceCount;
	int faceCapacity;
	int* freeFaces;
	int freeCount;

	int* stack;
	int* visible;
	int* horizon;
	int* order;
	int* vertexHorizon;
	int* newFaces;

	double tolerance; // grid units: faces merge within twice this, the cloud is flat below 4 times
	double cell;	  // grid spacing, metres
	int stamp;
} tbQHBuilder;

// Carves every scratch array out of one block: run once with base NULL to measure, then for real.
typedef struct tbScratch
{
	char* base;
	size_t used;
} tbScratch;

static void* tbScratchTake( tbScratch* scratch, size_t bytes )
{
	size_t offset = scratch->used;
	scratch->used += tbAlignSize( bytes );
	return scratch->base != NULL ? scratch->base + offset : NULL;
}

static void tbQHLayout( tbQHBuilder* b, tbScratch* s, int count )
{
	int fc = b->faceCapacity;
	b->grid = tbScratchTake( s, (size_t)( 3 * count ) * sizeof( int32_t ) );
	b->points = tbScratchTake( s, (size_t)count * sizeof( tbDVec3 ) );
	b->original = tbScratchTake( s, (size_t)count * sizeof( int ) );
	b->conflictNext = tbScratchTake( s, (size_t)count * sizeof( int ) );
	b->conflictDistance = tbScratchTake( s, (size_t)count * sizeof( double ) );
	b->vertexHorizon = tbScratchTake( s, (size_t)count * sizeof( int ) );
	b->faces = tbScratchTake( s, (size_t)fc * sizeof( tbQHFace ) );
	b->freeFaces = tbScratchTake( s, (size_t)fc * sizeof( int ) );
	b->stack = tbScratchTake( s, (size_t)fc * sizeof( int ) );
	b->visible = tbScratchTake( s, (size_t)fc * sizeof( int ) );
	b->horizon = tbScratchTake( s, (size_t)( 3 * fc ) * sizeof( int ) );
	b->order = tbScratchTake( s, (size_t)( 3 * fc ) * sizeof( int ) );
	b->newFaces = tbScratchTake( s, (size_t)( 3 * fc ) * sizeof( int ) );
}

// Exact: > 0 above the face, 0 on its plane, < 0 below.
static int64_t tbQHSide( const tbQHBuilder* b, const tbQHFace* face, int point )
{
	const int32_t* p = b->grid + 3 * point;
	return face->n[0] * p[0] + face->n[1] * p[1] + face->n[2] * p[2] - face->offset;
}

// Approximate signed distance in grid units, for choosing the farthest point and for merging.
static double tbQHDistance( const tbQHFace* face, tbDVec3 p )
{
	return tbDDot( face->normal, p ) - face->distanceOffset;
}

// Plane of the triangle a b c; false if the three points are collinear.
static bool tbQHSetPlane( const tbQHBuilder* b, tbQHFace* face )
{
	const int32_t* a = b->grid + 3 * face->v[0];
	const int32_t* p = b->grid + 3 * face->v[1];
	const int32_t* c = b->grid + 3 * face->v[2];
	int64_t e1[3] = { (int64_t)p[0] - a[0], (int64_t)p[1] - a[1], (int64_t)p[2] - a[2] };
	int64_t e2[3] = { (int64_t)c[0] - a[0], (int64_t)c[1] - a[1], (int64_t)c[2] - a[2] };
	face->n[0] = e1[1] * e2[2] - e1[2] * e2[1];
	face->n[1] = e1[2] * e2[0] - e1[0] * e2[2];
	face->n[2] = e1[0] * e2[1] - e1[1] * e2[0];
	face->offset = face->n[0] * a[0] + face->n[1] * a[1] + face->n[2] * a[2];
	if ( face->n[0] == 0 && face->n[1] == 0 && face->n[2] == 0 )
	{
		return false;
	}
	tbDVec3 n = tbDMake( (double)face->n[0], (double)face->n[1], (double)face->n[2] );
	double length = tbDLength( n );
	face->normal = tbDScale( 1.0 / length, n );
	face->area2 = length;
	tbDVec3 centroid =
		tbDScale( 1.0 / 3.0, tbDAdd( b->points[face->v[0]], tbDAdd( b->points[face->v[1]], b->points[face->v[2]] ) ) );
	face->distanceOffset = tbDDot( face->normal, centroid );
	return true;
}

static int tbQHAllocateFace( tbQHBuilder* b )
{
	int index;
	if ( b->freeCount > 0 )
	{
		index = b->freeFaces[--b->freeCount];
	}
	else if ( b->faceCount < b->faceCapacity )
	{
		index = b->faceCount++;
	}
	else
	{
		return -1;
	}
	tbQHFace* face = b->faces + index;
	memset( face, 0, sizeof( tbQHFace ) );
	face->conflictHead = -1;
	face->cluster = -1;
	face->alive = true;
	return index;
}

// Attach point i to the face among candidates it is farthest above, or drop it if it is above
// none (inside or on the hull). Checking only the new cone is enough because the arithmetic is
// exact: a point outside the new hull that was above a deleted face is above some cone face.
static void tbQHAssignPoint( tbQHBuilder* b, int i, const int* candidates, int candidateCount )
{
	int best = -1;
	double bestDistance = 0.0;
	for ( int k = 0; k < candidateCount; ++k )
	{
		const tbQHFace* face = b->faces + candidates[k];
		if ( tbQHSide( b, face, i ) > 0 )
		{
			// The float distance of a point exactly above can round to <= 0; keep it anyway.
			double distance = tbQHDistance( face, b->points[i] );
			if ( best < 0 || distance > bestDistance )
			{
				bestDistance = distance;
				best = candidates[k];
			}
		}
	}
	if ( best >= 0 )
	{
		b->conflictDistance[i] = bestDistance;
		b->conflictNext[i] = b->faces[best].conflictHead;
		b->faces[best].conflictHead = i;
	}
}

static int tbQHEdgeEnd( const tbQHBuilder* b, int edge )
{
	return b->faces[edge / 3].v[( edge % 3 + 1 ) % 3];
}

static int tbQHEdgeStart( const tbQHBuilder* b, int edge )
{
	return b->faces[edge / 3].v[edge % 3];
}

// The starting tetrahedron from extreme points; false if the cloud is degenerate (coincident,
// collinear or coplanar within four times the tolerance).
static bool tbQHBuildSimplex( tbQHBuilder* b )
{
	int n = b->pointCount;
	tbDVec3* p = b->points;

	// Lowest and highest point along each axis (grid coordinates).
	int extremes[6] = { 0, 0, 0, 0, 0, 0 };
	for ( int i = 1; i < n; ++i )
	{
		for ( int axis = 0; axis < 3; ++axis )
		{
			int32_t value = b->grid[3 * i + axis];
			if ( value < b->grid[3 * extremes[2 * axis] + axis] )
			{
				extremes[2 * axis] = i;
			}
			if ( value > b->grid[3 * extremes[2 * axis + 1] + axis] )
			{
				extremes[2 * axis + 1] = i;
			}
		}
	}

	int i0 = 0, i1 = 0;
	double best = -1.0;
	for ( int a = 0; a < 6; ++a )
	{
		for ( int c = a + 1; c < 6; ++c )
		{
			tbDVec3 d = tbDSub( p[extremes[a]], p[extremes[c]] );
			double distance = tbDDot( d, d );
			if ( distance > best )
			{
				best = distance;
				i0 = extremes[a];
				i1 = extremes[c];
			}
		}
	}
	double flat = 4.0 * b->tolerance;
	if ( !( sqrt( best ) > flat ) )
	{
		return false;
	}

	tbDVec3 axis = tbDSub( p[i1], p[i0] );
	axis = tbDScale( 1.0 / tbDLength( axis ), axis );
	int i2 = -1;
	best = flat;
	for ( int i = 0; i < n; ++i )
	{
		tbDVec3 d = tbDSub( p[i], p[i0] );
		double distance = tbDLength( tbDSub( d, tbDScale( tbDDot( d, axis ), axis ) ) );
		if ( distance > best )
		{
			best = distance;
			i2 = i;
		}
	}
	if ( i2 < 0 )
	{
		return false;
	}

	tbDVec3 normal = tbDCross( tbDSub( p[i1], p[i0] ), tbDSub( p[i2], p[i0] ) );
	normal = tbDScale( 1.0 / tbDLength( normal ), normal );
	int i3 = -1;
	best = flat;
	double side = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		double distance = tbDDot( normal, tbDSub( p[i], p[i0] ) );
		if ( fabs( distance ) > best )
		{
			best = fabs( distance );
			side = distance;
			i3 = i;
		}
	}
	if ( i3 < 0 )
	{
		return false;
	}

	// Orient so the apex is below the base triangle (i0, i1, i2).
	if ( side > 0.0 )
	{
		int t = i1;
		i1 = i2;
		i2 = t;
	}

	// With the base counter-clockwise from outside, these four triangles pair every directed edge
	// with its reverse.
	int v[4][3] = { { i0, i1, i2 }, { i1, i0, i3 }, { i2, i1, i3 }, { i0, i2, i3 } };
	int faces[4];
	for ( int f = 0; f < 4; ++f )
	{
		faces[f] = tbQHAllocateFace( b );
		tbQHFace* face = b->faces + faces[f];
		face->v[0] = v[f][0];
		face->v[1] = v[f][1];
		face->v[2] = v[f][2];
		if ( tbQHSetPlane( b, face ) == false )
		{
			return false;
		}
	}
	// The apex must be exactly below the base (the float test above is only approximate).
	if ( tbQHSide( b, b->faces + faces[0], i3 ) >= 0 )
	{
		return false;
	}
	for ( int f = 0; f < 4; ++f )
	{
		for ( int k = 0; k < 3; ++k )
		{
			int start = v[f][k], end = v[f][( k + 1 ) % 3];
			int twin = -1;
			for ( int g = 0; g < 4; ++g )
			{
				for ( int j = 0; j < 3; ++j )
				{
					if ( g != f && v[g][j] == end && v[g][( j + 1 ) % 3] == start )
					{
						twin = faces[g] * 3 + j;
					}
				}
			}
			b->faces[faces[f]].twin[k] = twin;
		}
	}

	for ( int i = 0; i < n; ++i )
	{
		b->conflictNext[i] = -1;
		if ( i != i0 && i != i1 && i != i2 && i != i3 )
		{
			tbQHAssignPoint( b, i, faces, 4 );
		}
	}
	return true;
}

// Flood-fills the faces the eye is strictly above, starting at the seed, then orders their outline.
// Returns the number of horizon edges (b->horizon[b->order[i]] in loop order), or -1 when the
// outline is not one simple loop: each horizon vertex must start exactly one horizon edge, and
// following them must visit all before returning to the first. With exact arithmetic this always
// holds; the check is a guard against a logic error, never a reason to crash.
static int tbQHFindHorizon( tbQHBuilder* b, int seed, int eye, int* visibleCountOut )
{
	b->stamp += 1;
	int stamp = b->stamp;
	int visibleCount = 0;
	int stackCount = 0;
	b->stack[stackCount++] = seed;
	b->faces[seed].mark = stamp;
	while ( stackCount > 0 )
	{
		int f = b->stack[--stackCount];
		b->visible[visibleCount++] = f;
		for ( int k = 0; k < 3; ++k )
		{
			int g = b->faces[f].twin[k] / 3;
			if ( b->faces[g].mark != stamp && tbQHSide( b, b->faces + g, eye ) > 0 )
			{
				b->faces[g].mark = stamp;
				b->stack[stackCount++] = g;
			}
		}
	}
	*visibleCountOut = visibleCount;

	int horizonCount = 0;
	for ( int i = 0; i < visibleCount; ++i )
	{
		int f = b->visible[i];
		for ( int k = 0; k < 3; ++k )
		{
			if ( b->faces[b->faces[f].twin[k] / 3].mark != stamp )
			{
				b->horizon[horizonCount++] = f * 3 + k;
			}
		}
	}

	bool valid = horizonCount >= 3;
	int setCount = 0;
	for ( int i = 0; i < horizonCount && valid; ++i )
	{
		int start = tbQHEdgeStart( b, b->horizon[i] );
		if ( b->vertexHorizon[start] >= 0 )
		{
			valid = false;
			break;
		}
		b->vertexHorizon[start] = i;
		setCount = i + 1;
	}
	if ( valid )
	{
		int current = 0;
		for ( int step = 0; step < horizonCount; ++step )
		{
			if ( step > 0 && current == 0 )
			{
				valid = false;
				break;
			}
			b->order[step] = current;
			int next = b->vertexHorizon[tbQHEdgeEnd( b, b->horizon[current] )];
			if ( next < 0 )
			{
				valid = false;
				break;
			}
			current = next;
		}
		valid = valid && current == 0;
	}
	for ( int i = 0; i < setCount; ++i )
	{
		b->vertexHorizon[tbQHEdgeStart( b, b->horizon[i] )] = -1;
	}
	return valid ? horizonCount : -1;
}

// Adds the farthest point of the seed face's conflict list: replaces the faces it sees with a cone
// of triangles from their outline (the horizon) to the point, and hands their conflict points to
// the cone. Returns false when the face pool is exhausted (cannot happen with the capacity used).
static bool tbQHAddPoint( tbQHBuilder* b, int seed )
{
	tbQHFace* seedFace = b->faces + seed;
	int eye = seedFace->conflictHead;
	int previous = -1, farthestPrevious = -1;
	for ( int i = seedFace->conflictHead; i >= 0; i = b->conflictNext[i] )
	{
		if ( b->conflictDistance[i] > b->conflictDistance[eye] )
		{
			eye = i;
			farthestPrevious = previous;
		}
		previous = i;
	}
	if ( farthestPrevious < 0 )
	{
		seedFace->conflictHead = b->conflictNext[eye];
	}
	else
	{
		b->conflictNext[farthestPrevious] = b->conflictNext[eye];
	}

	int visibleCount = 0;
	int horizonCount = tbQHFindHorizon( b, seed, eye, &visibleCount );
	if ( horizonCount < 3 )
	{
		return true;
	}
	if ( b->freeCount + ( b->faceCapacity - b->faceCount ) < horizonCount )
	{
		return false;
	}

	for ( int i = 0; i < horizonCount; ++i )
	{
		int edge = b->horizon[b->order[i]];
		int f = tbQHAllocateFace( b );
		b->newFaces[i] = f;
		tbQHFace* face = b->faces + f;
		face->v[0] = tbQHEdgeStart( b, edge );
		face->v[1] = tbQHEdgeEnd( b, edge );
		face->v[2] = eye;
		// The eye is strictly above the visible face on this edge, so it is off the edge's line.
		bool planar = tbQHSetPlane( b, face );
		TB_ASSERT( planar );
		TB_UNUSED( planar );
	}
	for ( int i = 0; i < horizonCount; ++i )
	{
		int edge = b->horizon[b->order[i]];
		int outside = b->faces[edge / 3].twin[edge % 3];
		int f = b->newFaces[i];
		b->faces[f].twin[0] = outside;
		b->faces[outside / 3].twin[outside % 3] = f * 3;
		b->faces[f].twin[1] = b->newFaces[( i + 1 ) % horizonCount] * 3 + 2;
		b->faces[f].twin[2] = b->newFaces[( i + horizonCount - 1 ) % horizonCount] * 3 + 1;
	}

	for ( int i = 0; i < visibleCount; ++i )
	{
		tbQHFace* face = b->faces + b->visible[i];
		int point = face->conflictHead;
		while ( point >= 0 )
		{
			int next = b->conflictNext[point];
			tbQHAssignPoint( b, point, b->newFaces, horizonCount );
			point = next;
		}
		face->conflictHead = -1;
		face->alive = false;
		b->freeFaces[b->freeCount++] = b->visible[i];
	}
	return true;
}

// Face merging ------------------------------------------------------------------------------------

typedef struct tbAreaKey
{
	double area2;
	int face;
} tbAreaKey;

static int tbCompareAreaKeys( const void* a, const void* b )
{
	const tbAreaKey* ka = a;
	const tbAreaKey* kb = b;
	if ( ka->area2 != kb->area2 )
	{
		return ka->area2 > kb->area2 ? -1 : 1;
	}
	return ka->face - kb->face;
}

typedef struct tbMergeState
{
	int clusterCount;
	int* clusterStart; // members of cluster c: memberList[clusterStart[c] .. clusterStart[c + 1])
	int* memberList;
	int* loopStart; // loop of cluster c: loopVertices[loopStart[c] .. + loopSize[c]]
	int* loopSize;
	int* loopVertices;
	bool* loopRemoved;
	int* activeSize;
	int* vertexStamp;
	int* vertexDegree;
	int* vertexClusters; // first two clusters whose loop holds the vertex
	int stamp;
} tbMergeState;

static void tbGroupClusters( tbQHBuilder* b, tbMergeState* m, const int* liveFaces, int liveCount )
{
	memset( m->clusterStart, 0, (size_t)( m->clusterCount + 1 ) * sizeof( int ) );
	for ( int i = 0; i < liveCount; ++i )
	{
		m->clusterStart[b->faces[liveFaces[i]].cluster + 1] += 1;
	}
	for ( int c = 0; c < m->clusterCount; ++c )
	{
		m->clusterStart[c + 1] += m->clusterStart[c];
	}
	// loopStart doubles as the fill cursor here; it is rewritten by tbExtractLoops.
	memcpy( m->loopStart, m->clusterStart, (size_t)m->clusterCount * sizeof( int ) );
	for ( int i = 0; i < liveCount; ++i )
	{
		int c = b->faces[liveFaces[i]].cluster;
		m->memberList[m->loopStart[c]++] = liveFaces[i];
	}
}

// Walks the boundary of every cluster. A cluster whose boundary is not one simple loop (a hole, or
// a vertex touched twice) is marked in `bad`. Returns the number of bad clusters.
static int tbExtractLoops( tbQHBuilder* b, tbMergeState* m, bool* bad )
{
	int badCount = 0;
	int total = 0;
	for ( int c = 0; c < m->clusterCount; ++c )
	{
		bad[c] = false;
		m->loopStart[c] = total;
		m->loopSize[c] = 0;

		int boundaryCount = 0;
		int first = -1;
		for ( int i = m->clusterStart[c]; i < m->clusterStart[c + 1]; ++i )
		{
			int f = m->memberList[i];
			for ( int k = 0; k < 3; ++k )
			{
				if ( b->faces[b->faces[f].twin[k] / 3].cluster != c )
				{
					boundaryCount += 1;
					first = f * 3 + k;
				}
			}
		}
		if ( first < 0 )
		{
			bad[c] = true;
			badCount += 1;
			continue;
		}

		m->stamp += 1;
		int edge = first;
		int size = 0;
		bool ok = true;
		do
		{
			int vertex = tbQHEdgeStart( b, edge );
			if ( m->vertexStamp[vertex] == m->stamp )
			{
				ok = false;
				break;
			}
			m->vertexStamp[vertex] = m->stamp;
			m->loopVertices[total + size] = vertex;
			size += 1;

			// Turn around the edge's end vertex through faces of this cluster until the next
			// boundary edge.
			int candidate = ( edge / 3 ) * 3 + ( edge % 3 + 1 ) % 3;
			int guard = 0;
			while ( b->faces[b->faces[candidate / 3].twin[candidate % 3] / 3].cluster == c &&
					guard <= 3 * b->faceCount )
			{
				int twin = b->faces[candidate / 3].twin[candidate % 3];
				candidate = ( twin / 3 ) * 3 + ( twin % 3 + 1 ) % 3;
				guard += 1;
			}
			if ( guard > 3 * b->faceCount )
			{
				ok = false;
				break;
			}
			edge = candidate;
		} while ( edge != first && size < boundaryCount );

		if ( ok == false || edge != first || size != boundaryCount || size < 3 )
		{
			bad[c] = true;
			badCount += 1;
			continue;
		}
		m->loopSize[c] = size;
		total += size;
	}
	return badCount;
}

// Output polygon faces ----------------------------------------------------------------------------

typedef struct tbPolygonSet
{
	int faceCount;
	int* faceSizes;
	int* faceVertices;
	tbPlane* planes;
	int* vertexMap; // welded point -> output vertex, -1 if unused
	tbVec3* vertices;
	int vertexCount;
} tbPolygonSet;

// Splits every cluster marked bad into its triangles and regroups.
static void tbDissolveClusters( tbQHBuilder* b, tbMergeState* m, const bool* bad, const int* liveFaces, int liveCount )
{
	int oldCount = m->clusterCount;
	for ( int c = 0; c < oldCount; ++c )
	{
		if ( bad[c] == false )
		{
			continue;
		}
		for ( int i = m->clusterStart[c] + 1; i < m->clusterStart[c + 1]; ++i )
		{
			b->faces[m->memberList[i]].cluster = m->clusterCount++;
		}
	}
	tbGroupClusters( b, m, liveFaces, liveCount );
}

// A vertex shared by only two faces sits on the edge between them (a point on a box edge, say):
// drop it when it is collinear with its neighbours and both faces keep at least 3 corners.
static void tbRemoveEdgeVertices( tbQHBuilder* b, tbMergeState* m, double mergeTolerance )
{
	int n = b->pointCount;
	for ( int v = 0; v < n; ++v )
	{
		m->vertexDegree[v] = 0;
	}
	for ( int c = 0; c < m->clusterCount; ++c )
	{
		m->activeSize[c] = m->loopSize[c];
		for ( int i = 0; i < m->loopSize[c]; ++i )
		{
			int v = m->loopVertices[m->loopStart[c] + i];
			m->loopRemoved[m->loopStart[c] + i] = false;
			if ( m->vertexDegree[v] < 2 )
			{
				m->vertexClusters[2 * v + m->vertexDegree[v]] = c;
			}
			m->vertexDegree[v] += 1;
		}
	}

	bool changed = true;
	for ( int pass = 0; changed && pass <= n; ++pass )
	{
		changed = false;
		for ( int c = 0; c < m->clusterCount; ++c )
		{
			int start = m->loopStart[c], size = m->loopSize[c];
			for ( int i = 0; i < size; ++i )
			{
				int v = m->loopVertices[start + i];
				if ( m->loopRemoved[start + i] || m->vertexDegree[v] != 2 || m->activeSize[c] < 4 )
				{
					continue;
				}
				int other = m->vertexClusters[2 * v] == c ? m->vertexClusters[2 * v + 1] : m->vertexClusters[2 * v];
				if ( m->activeSize[other] < 4 )
				{
					continue;
				}
				int prev = i, next = i;
				do
				{
					prev = ( prev + size - 1 ) % size;
				} while ( m->loopRemoved[start + prev] );
				do
				{
					next = ( next + 1 ) % size;
				} while ( m->loopRemoved[start + next] );
				tbDVec3 p = b->points[m->loopVertices[start + prev]];
				tbDVec3 q = b->points[m->loopVertices[start + next]];
				tbDVec3 d = tbDSub( q, p );
				double lengthSq = tbDDot( d, d );
				if ( !( lengthSq > 0.0 ) )
				{
					continue;
				}
				tbDVec3 w = tbDSub( b->points[v], p );
				double t = tbDDot( w, d ) / lengthSq;
				tbDVec3 offLine = tbDSub( w, tbDScale( t, d ) );
				if ( t <= 0.0 || t >= 1.0 || tbDLength( offLine ) > mergeTolerance )
				{
					continue;
				}

				m->loopRemoved[start + i] = true;
				m->activeSize[c] -= 1;
				int otherStart = m->loopStart[other];
				for ( int j = 0; j < m->loopSize[other]; ++j )
				{
					if ( m->loopVertices[otherStart + j] == v )
					{
						m->loopRemoved[otherStart + j] = true;
					}
				}
				m->activeSize[other] -= 1;
				m->vertexDegree[v] = 0;
				changed = true;
			}
		}
	}
}

// Writes the polygons: used vertices (the original input points), loops and planes. A plane's
// normal is the Newell normal of its polygon; its offset is the highest of all input points, not
// only the polygon's, so every input point is behind every plane even where a refitted normal
// tilts. A polygon whose own corners then sit deeper below its plane than the merge allows is
// marked bad. Returns the number of bad polygons, or -1 for a polygon without area.
static int tbEmitPolygons( tbQHBuilder* b, tbMergeState* m, tbPolygonSet* out, bool* bad )
{
	int n = b->pointCount;
	double limit = ( 4.0 * b->tolerance + 2.0 ) * b->cell;
	out->faceCount = m->clusterCount;
	out->vertexCount = 0;
	for ( int v = 0; v < n; ++v )
	{
		out->vertexMap[v] = -1;
	}
	int written = 0;
	int badCount = 0;
	for ( int c = 0; c < m->clusterCount; ++c )
	{
		int start = m->loopStart[c];
		int size = 0;
		tbDVec3 normal = tbDMake( 0.0, 0.0, 0.0 );
		int firstIndex = -1, previousIndex = -1;
		for ( int i = 0; i < m->loopSize[c]; ++i )
		{
			if ( m->loopRemoved[start + i] )
			{
				continue;
			}
			int v = m->loopVertices[start + i];
			if ( out->vertexMap[v] < 0 )
			{
				out->vertexMap[v] = out->vertexCount;
				out->vertices[out->vertexCount++] = b->input[b->original[v]];
			}
			out->faceVertices[written + size] = out->vertexMap[v];
			size += 1;
			if ( previousIndex >= 0 )
			{
				normal = tbDAdd( normal, tbDCross( b->points[previousIndex], b->points[v] ) );
			}
			else
			{
				firstIndex = v;
			}
			previousIndex = v;
		}
		if ( size < 3 )
		{
			return -1;
		}
		normal = tbDAdd( normal, tbDCross( b->points[previousIndex], b->points[firstIndex] ) );
		double length = tbDLength( normal );
		if ( !( length > 0.0 ) )
		{
			return -1;
		}
		normal = tbDScale( 1.0 / length, normal );

		double offset = -DBL_MAX;
		for ( int i = 0; i < n; ++i )
		{
			double d = tbDDot( normal, tbDFromVec3( b->input[b->original[i]] ) );
			offset = d > offset ? d : offset;
		}
		bad[c] = false;
		for ( int i = 0; i < size; ++i )
		{
			tbDVec3 corner = tbDFromVec3( out->vertices[out->faceVertices[written + i]] );
			if ( tbDDot( normal, corner ) - offset < -limit )
			{
				bad[c] = true;
			}
		}
		badCount += bad[c] ? 1 : 0;

		out->planes[c].normal = tbMakeVec3( (float)normal.x, (float)normal.y, (float)normal.z );
		out->planes[c].offset = (float)offset;
		out->faceSizes[c] = size;
		written += size;
	}
	return badCount;
}

// True when clusters a and b together are flat: every corner of their triangles within tolerance
// of the area-weighted plane of the union (normal = summed area vectors, through the area-weighted
// centroid).
static bool tbClusterUnionIsFlat( const tbQHBuilder* b, const tbMergeState* m, int ca, int cb, double tolerance )
{
	tbDVec3 areaSum = tbDMake( 0.0, 0.0, 0.0 );
	tbDVec3 weightedCentroid = tbDMake( 0.0, 0.0, 0.0 );
	double totalArea = 0.0;
	int clusters[2] = { ca, cb };
	for ( int k = 0; k < 2; ++k )
	{
		for ( int i = m->clusterStart[clusters[k]]; i < m->clusterStart[clusters[k] + 1]; ++i )
		{
			const tbQHFace* face = b->faces + m->memberList[i];
			tbDVec3 centroid = tbDScale(
				1.0 / 3.0, tbDAdd( b->points[face->v[0]], tbDAdd( b->points[face->v[1]], b->points[face->v[2]] ) ) );
			areaSum = tbDAdd( areaSum, tbDScale( face->area2, face->normal ) );
			weightedCentroid = tbDAdd( weightedCentroid, tbDScale( face->area2, centroid ) );
			totalArea += face->area2;
		}
	}
	double length = tbDLength( areaSum );
	if ( !( length > 0.0 ) || !( totalArea > 0.0 ) )
	{
		return false;
	}
	tbDVec3 normal = tbDScale( 1.0 / length, areaSum );
	tbDVec3 center = tbDScale( 1.0 / totalArea, weightedCentroid );
	for ( int k = 0; k < 2; ++k )
	{
		for ( int i = m->clusterStart[clusters[k]]; i < m->clusterStart[clusters[k] + 1]; ++i )
		{
			const tbQHFace* face = b->faces + m->memberList[i];
			if ( tbDDot( face->normal, normal ) <= 0.0 )
			{
				return false;
			}
			for ( int j = 0; j < 3; ++j )
			{
				if ( fabs( tbDDot( normal, tbDSub( b->points[face->v[j]], center ) ) ) > tolerance )
				{
					return false;
				}
			}
		}
	}
	return true;
}

// Second clustering stage: neighbouring clusters whose union is flat are fused. The greedy seed
// stage judges against one triangle's plane, which tilts with the noise of its three corners; a
// face split that way gets put back together here. Each pass fuses disjoint pairs, then the
// cluster ids are renumbered densely; a fused pair always lowers the count, so this terminates.
static void tbFuseFlatClusters( tbQHBuilder* b, tbMergeState* m, bool* touched, int* remap, const int* liveFaces,
								int liveCount, double tolerance )
{
	for ( int pass = 0; pass < liveCount; ++pass )
	{
		tbGroupClusters( b, m, liveFaces, liveCount );
		for ( int c = 0; c < m->clusterCount; ++c )
		{
			touched[c] = false;
			remap[c] = c;
		}
		bool changed = false;
		for ( int i = 0; i < liveCount; ++i )
		{
			const tbQHFace* face = b->faces + liveFaces[i];
			for ( int k = 0; k < 3; ++k )
			{
				int ca = face->cluster;
				int cb = b->faces[face->twin[k] / 3].cluster;
				if ( ca == cb || touched[ca] || touched[cb] )
				{
					continue;
				}
				if ( tbClusterUnionIsFlat( b, m, ca, cb, tolerance ) )
				{
					touched[ca] = true;
					touched[cb] = true;
					remap[cb] = ca;
					changed = true;
				}
			}
		}
		if ( changed == false )
		{
			return;
		}

		// Renumber densely: fused clusters take their partner's id.
		int count = 0;
		for ( int c = 0; c < m->clusterCount; ++c )
		{
			if ( remap[c] == c )
			{
				remap[c] = -( count + 1 );
				count += 1;
			}
		}
		for ( int c = 0; c < m->clusterCount; ++c )
		{
			if ( remap[c] >= 0 )
			{
				remap[c] = remap[remap[c]];
			}
		}
		for ( int i = 0; i < liveCount; ++i )
		{
			tbQHFace* face = b->faces + liveFaces[i];
			face->cluster = -remap[face->cluster] - 1;
		}
		m->clusterCount = count;
	}
}

// Fuse near-coplanar triangles into convex polygons. With merge false every triangle is its own
// face (the fallback when merging produced something invalid).
static bool tbMergeFaces( tbQHBuilder* b, tbPolygonSet* out, bool merge )
{
	int liveCount = 0;
	int* liveFaces = b->stack;
	for ( int f = 0; f < b->faceCount; ++f )
	{
		if ( b->faces[f].alive )
		{
			b->faces[f].cluster = -1;
			liveFaces[liveCount++] = f;
		}
	}
	int n = b->pointCount;
	int fc = liveCount;

	tbMergeState m;
	memset( &m, 0, sizeof( m ) );
	tbScratch scratch = { NULL, 0 };
	tbAreaKey* keys = NULL;
	bool* bad = NULL;
	for ( int pass = 0; pass < 2; ++pass )
	{
		keys = tbScratchTake( &scratch, (size_t)fc * sizeof( tbAreaKey ) );
		bad = tbScratchTake( &scratch, (size_t)fc * sizeof( bool ) );
		m.clusterStart = tbScratchTake( &scratch, (size_t)( fc + 1 ) * sizeof( int ) );
		m.memberList = tbScratchTake( &scratch, (size_t)fc * sizeof( int ) );
		m.loopStart = tbScratchTake( &scratch, (size_t)( fc + 1 ) * sizeof( int ) );
		m.loopSize = tbScratchTake( &scratch, (size_t)fc * sizeof( int ) );
		m.loopVertices = tbScratchTake( &scratch, (size_t)( 3 * fc ) * sizeof( int ) );
		m.loopRemoved = tbScratchTake( &scratch, (size_t)( 3 * fc ) * sizeof( bool ) );
		m.activeSize = tbScratchTake( &scratch, (size_t)fc * sizeof( int ) );
		m.vertexStamp = tbScratchTake( &scratch, (size_t)n * sizeof( int ) );
		m.vertexDegree = tbScratchTake( &scratch, (size_t)n * sizeof( int ) );
		m.vertexClusters = tbScratchTake( &scratch, (size_t)( 2 * n ) * sizeof( int ) );
		if ( pass == 0 )
		{
			scratch.base = tbAlloc( scratch.used );
			if ( scratch.base == NULL )
			{
				return false;
			}
			scratch.used = 0;
		}
	}
	size_t scratchBytes = scratch.used;
	memset( m.vertexStamp, 0, (size_t)n * sizeof( int ) );

	// Greedy clustering, largest triangles first: their normals are the most reliable. A
	// neighbour joins when all its corners are within the merge tolerance of the seed's plane, so
	// a cluster can never drift away from a plane however many triangles it absorbs.
	double mergeTolerance = 2.0 * b->tolerance;
	for ( int i = 0; i < liveCount; ++i )
	{
		keys[i].area2 = b->faces[liveFaces[i]].area2;
		keys[i].face = liveFaces[i];
	}
	qsort( keys, (size_t)liveCount, sizeof( tbAreaKey ), tbCompareAreaKeys );

	int clusterCount = 0;
	int* stack = b->visible;
	for ( int i = 0; i < liveCount; ++i )
	{
		int seed = keys[i].face;
		if ( b->faces[seed].cluster >= 0 )
		{
			continue;
		}
		int c = clusterCount++;
		b->faces[seed].cluster = c;
		if ( merge == false )
		{
			continue;
		}
		tbDVec3 normal = b->faces[seed].normal;
		double offset = b->faces[seed].distanceOffset;
		int stackCount = 0;
		stack[stackCount++] = seed;
		while ( stackCount > 0 )
		{
			int f = stack[--stackCount];
			for ( int k = 0; k < 3; ++k )
			{
				int g = b->faces[f].twin[k] / 3;
				tbQHFace* face = b->faces + g;
				if ( face->cluster >= 0 || tbDDot( face->normal, normal ) <= 0.0 )
				{
					continue;
				}
				bool coplanar = true;
				for ( int j = 0; j < 3; ++j )
				{
					double distance = tbDDot( normal, b->points[face->v[j]] ) - offset;
					coplanar = coplanar && fabs( distance ) <= mergeTolerance;
				}
				if ( coplanar )
				{
					face->cluster = c;
					stack[stackCount++] = g;
				}
			}
		}
	}
	m.clusterCount = clusterCount;
	if ( merge )
	{
		tbFuseFlatClusters( b, &m, bad, m.activeSize, liveFaces, liveCount, mergeTolerance );
	}

	// Clusters whose outline is not a simple loop, or whose final polygon is not flat after all,
	// fall apart into their triangles; a few rounds settle it (triangles of the exact hull are
	// always fine, so the last resort is no merging at all).
	bool ok = false;
	for ( int round = 0; round < 8 && ok == false; ++round )
	{
		tbGroupClusters( b, &m, liveFaces, liveCount );
		if ( tbExtractLoops( b, &m, bad ) > 0 )
		{
			tbDissolveClusters( b, &m, bad, liveFaces, liveCount );
			if ( tbExtractLoops( b, &m, bad ) > 0 )
			{
				break;
			}
		}
		tbRemoveEdgeVertices( b, &m, mergeTolerance );
		int badCount = tbEmitPolygons( b, &m, out, bad );
		if ( badCount < 0 )
		{
			break;
		}
		if ( badCount == 0 )
		{
			ok = true;
		}
		else
		{
			tbDissolveClusters( b, &m, bad, liveFaces, liveCount );
		}
	}

	tbFree( scratch.base, scratchBytes );
	return ok;
}

// True when the finished triangle hull is thicker than minWidth (grid units) across every
// triangle: the deepest point below each plane. The starting tetrahedron measures flatness across
// its own plane only, which can lean against a sliver's: fuzz finding 35 was a cloud 58 m across
// and 1.9 mm thick, under the 2.3 mm threshold, whose faces merged across the thickness into a
// hull of zero volume. A triangle's plane is exact (three input points), so a plate's faces
// measure its thickness.
static bool tbQHIsThick( const tbQHBuilder* b, double minWidth )
{
	for ( int f = 0; f < b->faceCount; ++f )
	{
		const tbQHFace* face = b->faces + f;
		if ( face->alive == false )
		{
			continue;
		}
		double deepest = 0.0;
		for ( int i = 0; i < b->pointCount; ++i )
		{
			double depth = -tbQHDistance( face, b->points[i] );
			deepest = depth > deepest ? depth : deepest;
		}
		if ( !( deepest > minWidth ) )
		{
			return false;
		}
	}
	return true;
}

static tbHull* tbHullFromBuilder( tbQHBuilder* b, bool merge, tbResult* result )
{
	int liveCount = 0;
	for ( int f = 0; f < b->faceCount; ++f )
	{
		liveCount += b->faces[f].alive ? 1 : 0;
	}

	tbPolygonSet set;
	memset( &set, 0, sizeof( set ) );
	tbScratch scratch = { NULL, 0 };
	for ( int pass = 0; pass < 2; ++pass )
	{
		set.faceSizes = tbScratchTake( &scratch, (size_t)liveCount * sizeof( int ) );
		set.faceVertices = tbScratchTake( &scratch, (size_t)( 3 * liveCount ) * sizeof( int ) );
		set.planes = tbScratchTake( &scratch, (size_t)liveCount * sizeof( tbPlane ) );
		set.vertexMap = tbScratchTake( &scratch, (size_t)b->pointCount * sizeof( int ) );
		set.vertices = tbScratchTake( &scratch, (size_t)b->pointCount * sizeof( tbVec3 ) );
		if ( pass == 0 )
		{
			scratch.base = tbAlloc( scratch.used );
			if ( scratch.base == NULL )
			{
				*result = tbResult_outOfMemory;
				return NULL;
			}
			scratch.used = 0;
		}
	}
	size_t scratchBytes = scratch.used;

	tbHull* hull = NULL;
	if ( tbMergeFaces( b, &set, merge ) )
	{
		hull = tbBuildHullFromFaces( set.vertices, set.vertexCount, set.faceVertices, set.faceSizes, set.faceCount,
									 set.planes );
		if ( hull != NULL && tbValidateHull( hull ) == false )
		{
			tbDestroyHull( hull );
			hull = NULL;
		}
	}
	tbFree( scratch.base, scratchBytes );
	*result = hull != NULL ? tbResult_ok : tbResult_degenerateHull;
	return hull;
}

tbHull* tbComputeHull( const tbVec3* points, int count, tbResult* result )
{
	tbResult dummy;
	if ( result == NULL )
	{
		result = &dummy;
	}
	if ( points == NULL || count < 4 )
	{
		*result = tbResult_invalidArgument;
		return NULL;
	}
	if ( count > TB_MAX_HULL_POINTS )
	{
		*result = tbResult_tooManyPoints;
		return NULL;
	}

	// Coordinates beyond TB_MAX_POSITION would overflow the float mass integrals (volume ~ size^3
	// and inertia ~ size^5); treat them like infinities.
	const float maxCoordinate = TB_MAX_POSITION;
	tbVec3 lower = points[0], upper = points[0];
	for ( int i = 0; i < count; ++i )
	{
		tbVec3 p = points[i];
		if ( tbIsValidVec3( p ) == false || tbAbsFloat( p.x ) > maxCoordinate || tbAbsFloat( p.y ) > maxCoordinate ||
			 tbAbsFloat( p.z ) > maxCoordinate )
		{
			*result = tbResult_invalidArgument;
			return NULL;
		}
		lower = tbMinVec( lower, p );
		upper = tbMaxVec( upper, p );
	}

	// Tolerances are relative to the cloud: 1e-5 of its largest extent. Below the float resolution
	// of the coordinates themselves (16 ulp of the largest) the cloud is one point.
	tbDVec3 lo = tbDFromVec3( lower ), hi = tbDFromVec3( upper );
	tbDVec3 extent = tbDSub( hi, lo );
	double size = fmax( extent.x, fmax( extent.y, extent.z ) );
	tbVec3 absMax = tbMaxVec( tbAbsVec( lower ), tbAbsVec( upper ) );
	double magnitude = fmax( absMax.x, fmax( absMax.y, absMax.z ) );
	// Hulls smaller than TB_MIN_SHAPE_SIZE across are points for the mass integrals (their volume
	// underflows) and for the solver.
	if ( !( size > 16.0 * FLT_EPSILON * magnitude ) || !( size >= TB_MIN_SHAPE_SIZE ) )
	{
		*result = tbResult_degenerateHull;
		return NULL;
	}

	tbQHBuilder b;
	memset( &b, 0, sizeof( b ) );
	b.input = points;
	// Closed triangle meshes have F = 2V - 4 faces; one insertion adds at most V more before the
	// visible ones are recycled.
	b.faceCapacity = 3 * count + 16;

	tbScratch scratch = { NULL, 0 };
	tbQHLayout( &b, &scratch, count );
	size_t scratchBytes = scratch.used;
	scratch.base = tbAlloc( scratchBytes );
	if ( scratch.base == NULL )
	{
		*result = tbResult_outOfMemory;
		return NULL;
	}
	scratch.used = 0;
	tbQHLayout( &b, &scratch, count );

	// Snap to a power-of-two grid centred on the bounding box, at least 2^19 cells across the
	// largest extent. Points landing in the same cell are welded (the first one is kept), which
	// welds within about 2e-6 of the size. O(n^2) duplicate search is fine for 1024 points.
	tbDVec3 center = tbDScale( 0.5, tbDAdd( lo, hi ) );
	int exponent = 0;
	frexp( size / (double)( 1 << TB_HULL_GRID_BITS ), &exponent );
	double cell = ldexp( 1.0, exponent );
	double inverseCell = 1.0 / cell;
	b.cell = cell;
	b.tolerance = 1.0e-5 * size * inverseCell;
	for ( int i = 0; i < count; ++i )
	{
		tbDVec3 p = tbDScale( inverseCell, tbDSub( tbDFromVec3( points[i] ), center ) );
		int32_t q[3] = { (int32_t)llround( p.x ), (int32_t)llround( p.y ), (int32_t)llround( p.z ) };
		bool duplicate = false;
		for ( int j = 0; j < b.pointCount && duplicate == false; ++j )
		{
			const int32_t* r = b.grid + 3 * j;
			duplicate = q[0] == r[0] && q[1] == r[1] && q[2] == r[2];
		}
		if ( duplicate == false )
		{
			int k = b.pointCount;
			b.grid[3 * k + 0] = q[0];
			b.grid[3 * k + 1] = q[1];
			b.grid[3 * k + 2] = q[2];
			b.points[k] = tbDMake( q[0], q[1], q[2] );
			b.original[k] = i;
			b.vertexHorizon[k] = -1;
			b.pointCount += 1;
		}
	}

	tbHull* hull = NULL;
	if ( b.pointCount < 4 || tbQHBuildSimplex( &b ) == false )
	{
		*result = tbResult_degenerateHull;
	}
	else
	{
		// Every iteration removes one point from the conflict lists for good, so pointCount
		// iterations finish the hull; the cap only guards against a logic error.
		bool ok = true;
		for ( int iteration = 0; iteration <= b.pointCount && ok; ++iteration )
		{
			int seed = -1;
			for ( int f = 0; f < b.faceCount; ++f )
			{
				if ( b.faces[f].alive && b.faces[f].conflictHead >= 0 )
				{
					seed = f;
					break;
				}
			}
			if ( seed < 0 )
			{
				break;
			}
			ok = tbQHAddPoint( &b, seed );
		}

		// Flat below four times the tolerance, as in the starting tetrahedron's test.
		if ( ok && tbQHIsThick( &b, 4.0 * b.tolerance ) )
		{
			hull = tbHullFromBuilder( &b, true, result );
			if ( hull == NULL && *result != tbResult_outOfMemory )
			{
				hull = tbHullFromBuilder( &b, false, result );
			}
		}
		else
		{
			*result = tbResult_degenerateHull;
		}
	}

	tbFree( scratch.base, scratchBytes );
	return hull;
}

// Copy, destroy, validate -------------------------------------------------------------------------

tbHull* tbCloneHull( const tbHull* hull )
{
	if ( hull == NULL )
	{
		return NULL;
	}
	tbHull* copy = tbAlloc( (size_t)hull->byteCount );
	if ( copy == NULL )
	{
		return NULL;
	}
	memcpy( copy, hull, (size_t)hull->byteCount );
	tbSetHullPointers( copy );
	return copy;
}

void tbDestroyHull( tbHull* hull )
{
	if ( hull != NULL )
	{
		tbFree( hull, (size_t)hull->byteCount );
	}
}

// Tolerance for the convexity checks: relative to the hull's size, plus the float resolution of
// its coordinates (a hull far from the origin has coarser plane offsets).
static float tbGetHullTolerance( const tbHull* hull )
{
	tbVec3 extent = tbSub( hull->bounds.upperBound, hull->bounds.lowerBound );
	float size = tbMaxFloat( extent.x, tbMaxFloat( extent.y, extent.z ) );
	tbVec3 a = tbMaxVec( tbAbsVec( hull->bounds.lowerBound ), tbAbsVec( hull->bounds.upperBound ) );
	float magnitude = tbMaxFloat( a.x, tbMaxFloat( a.y, a.z ) );
	return 1.0e-4f * size + 16.0f * FLT_EPSILON * magnitude;
}

bool tbValidateHull( const tbHull* hull )
{
	if ( hull == NULL || hull->vertexCount < 4 || hull->faceCount < 4 || hull->edgeCount < 12 ||
		 hull->vertexCount > UINT16_MAX || hull->edgeCount > UINT16_MAX || hull->faceCount > UINT16_MAX )
	{
		return false;
	}
	int V = hull->vertexCount, E = hull->edgeCount, F = hull->faceCount;

	for ( int e = 0; e < E; ++e )
	{
		const tbHullHalfEdge* edge = hull->edges + e;
		if ( edge->next >= E || edge->twin >= E || edge->origin >= V || edge->face >= F || edge->twin == e )
		{
			return false;
		}
		const tbHullHalfEdge* twin = hull->edges + edge->twin;
		if ( twin->twin != e || twin->face == edge->face || edge->face != hull->edges[edge->next].face )
		{
			return false;
		}
		// The twin runs the other way: it starts where this edge ends.
		if ( twin->origin != hull->edges[edge->next].origin || twin->origin == edge->origin )
		{
			return false;
		}
	}

	// Every face is one cycle of at least 3 half-edges; together the cycles cover all half-edges.
	int visited = 0;
	for ( int f = 0; f < F; ++f )
	{
		int first = hull->faces[f].edge;
		if ( first >= E || hull->edges[first].face != f )
		{
			return false;
		}
		int e = first;
		int n = 0;
		do
		{
			n += 1;
			e = hull->edges[e].next;
		} while ( e != first && n <= E );
		if ( e != first || n < 3 )
		{
			return false;
		}
		visited += n;
	}
	if ( visited != E )
	{
		return false;
	}

	// Euler's formula for a closed genus-0 polyhedron, E/2 edges.
	if ( V - E / 2 + F != 2 || ( E & 1 ) != 0 )
	{
		return false;
	}

	float tolerance = tbGetHullTolerance( hull );
	for ( int f = 0; f < F; ++f )
	{
		tbPlane plane = hull->planes[f];
		if ( tbIsValidVec3( plane.normal ) == false || tbIsValidFloat( plane.offset ) == false ||
			 tbAbsFloat( tbLength( plane.normal ) - 1.0f ) > 1.0e-3f )
		{
			return false;
		}
		for ( int v = 0; v < V; ++v )
		{
			if ( tbDot( plane.normal, hull->vertices[v] ) - plane.offset > tolerance )
			{
				return false;
			}
		}

		// The face's own vertices lie on its plane, and its winding agrees with the outward normal.
		// Moving the vertices by the tolerance changes twice the area by up to about perimeter *
		// 2 * tolerance, which is how much a sliver may appear reversed.
		int first = hull->faces[f].edge;
		int e = first;
		tbDVec3 area = tbDMake( 0.0, 0.0, 0.0 );
		double perimeter = 0.0;
		do
		{
			tbVec3 p = hull->vertices[hull->edges[e].origin];
			tbVec3 q = hull->vertices[hull->edges[hull->edges[e].next].origin];
			if ( tbAbsFloat( tbDot( plane.normal, p ) - plane.offset ) > tolerance )
			{
				return false;
			}
			area = tbDAdd( area, tbDCross( tbDFromVec3( p ), tbDFromVec3( q ) ) );
			perimeter += tbDLength( tbDSub( tbDFromVec3( q ), tbDFromVec3( p ) ) );
			e = hull->edges[e].next;
		} while ( e != first );
		if ( tbDDot( area, tbDFromVec3( plane.normal ) ) < -2.0 * perimeter * tolerance )
		{
			return false;
		}
	}

	// Every vertex is used by some half-edge.
	for ( int v = 0; v < V; ++v )
	{
		bool used = false;
		for ( int e = 0; e < E && used == false; ++e )
		{
			used = hull->edges[e].origin == v;
		}
		if ( used == false )
		{
			return false;
		}
	}
	return true;
}
