// Tumble physics: static triangle meshes: building (tree, active edges), queries, and the
// per-triangle contacts of convex shapes against a mesh.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/types.h"

typedef struct tbWorld tbWorld;
typedef struct tbShape tbShape;
typedef struct tbContact tbContact;

/// Build a mesh (refCount 1). NULL and *result on bad input (see tbCreateMeshShape).
tbMesh* tbCreateMesh( const tbVec3* vertices, int vertexCount, const int32_t* indices, int triangleCount, tbResult* result );
/// Reference counting: the shape and every snapshot that holds the mesh own one reference.
void tbRetainMesh( tbMesh* mesh );
void tbReleaseMesh( tbMesh* mesh );

/// The three corners of triangle t, body frame.
void tbGetMeshTriangle( const tbMesh* mesh, int t, tbVec3 v[3] );

/// Visit triangles whose box overlaps box (body frame); return false to stop.
typedef bool tbMeshQueryFcn( int triangleIndex, void* context );
void tbQueryMesh( const tbMesh* mesh, tbAABB box, tbMeshQueryFcn* fcn, void* context );

/// World box of the mesh under xf (the local bounds' corners transformed).
tbAABB tbComputeMeshAABB( const tbMesh* mesh, tbTransform xf );

/// World box of a body-frame box under xf (centre moved, extents through |R|).
tbAABB tbTransformBox( tbAABB local, tbTransform xf );

/// A box in the mesh frame (at xfMesh) that contains the world box.
tbAABB tbWorldBoxToMesh( tbAABB box, tbTransform xfMesh );

/// May a contact on the edge that triangle 1 (unit normal n1) shares with triangle 2 (normal n2,
/// its third corner apex2) take a normal other than n1's face normal? Shared by meshes and
/// heightfields so both judge their seams alike.
bool tbIsSharedEdgeActive( tbVec3 n1, tbVec3 n2, tbVec3 edgePoint, tbVec3 apex2 );

/// Two-sided ray against one triangle: the fraction of d, or -1.
float tbRayTriangle( tbVec3 origin, tbVec3 d, const tbVec3 v[3] );

/// One triangle of a mesh or a heightfield as the narrow phase reads it.
typedef struct tbTriangle
{
	tbVec3 v[3];
	tbVec3 n;       ///< unit face normal (right-hand rule)
	uint8_t active; ///< bit i: edge i (v[i] -> v[i + 1]) is active
} tbTriangle;

/// The triangles of a static triangle shape: exactly one of the two is set. The convex-against-
/// triangles code below reads a mesh's stored triangles and a heightfield's cells alike.
typedef struct tbTriangleSource
{
	const tbMesh* mesh;
	const tbHeightfield* heightfield;
} tbTriangleSource;

static inline bool tbIsTriangleShapeType( tbShapeType type )
{
	return type == tbShape_mesh || type == tbShape_heightfield;
}

/// The source of a mesh or heightfield shape.
tbTriangleSource tbShapeTriangles( const tbShape* shape );
void tbGetSourceTriangle( tbTriangleSource source, int t, tbTriangle* tri );
/// The box of triangle t (body frame), without its normal.
tbAABB tbSourceTriangleBounds( tbTriangleSource source, int t );
/// Visit triangles whose box overlaps box (body frame); return false to stop.
void tbQuerySourceTriangles( tbTriangleSource source, tbAABB box, tbMeshQueryFcn* fcn, void* context );

/// Manifold between triangle t of a mesh or heightfield (at xfMesh) and a convex shape (at
/// xfConvex); the normal points from the triangle to the convex shape.
tbManifold tbCollideMeshTriangle( tbTriangleSource source, int t, tbTransform xfMesh, const tbShape* convex,
								  tbTransform xfConvex, float speculativeDistance );

// Manifold assembly shared by the triangle contacts and the cylinder contacts (cylinder.c): points
// in one working frame (the mesh's, or shape A's), converted once at the end.

/// Clip polygons hold at most an incident face's vertices plus one per clip plane.
#define TB_MESH_CLIP_CAPACITY 64

typedef struct tbLocalPoint
{
	tbVec3 p; ///< midway between the surfaces, working frame
	float separation;
	uint32_t id;
} tbLocalPoint;

typedef struct tbClipVertex
{
	tbVec3 p;
	uint32_t id;
} tbClipVertex;

/// FNV-1a of two words: feature ids.
uint32_t tbMeshHash( uint32_t a, uint32_t b );

/// Sutherland-Hodgman against the plane dot(normal, x) <= offset. New vertices get ids from the
/// crossing edge's end ids and the plane's label. out holds TB_MESH_CLIP_CAPACITY vertices.
int tbClipPolygon( const tbClipVertex* in, int count, tbVec3 normal, float offset, uint32_t label, tbClipVertex* out );

/// Keep the deepest point, the one farthest from it, the one spanning the largest triangle with
/// them and the one adding the most area: the support polygon a stable stack needs.
int tbReduceLocalPoints( tbLocalPoint* points, int count, tbVec3 normal );

/// The manifold of points in the frame xfA (normal from A to B, in that frame), keeping those
/// closer than the speculative distance.
tbManifold tbFinishManifold( tbVec3 localNormal, const tbLocalPoint* points, int count, tbTransform xfA, tbTransform xfB,
							 float speculativeDistance );


/// True when the convex shape overlaps some triangle of the source (sensors, overlap queries).
bool tbMeshOverlapsProxy( tbTriangleSource source, tbTransform xfMesh, const tbShapeProxy* proxy, tbTransform xfProxy );

/// Serial pass before the narrow phase: for every (convex shape, mesh) parent contact with an
/// awake convex body, create a child contact per triangle near the convex shape and destroy the
/// children whose triangle moved out of reach. Returns the number of parent contacts.
int tbUpdateMeshContacts( tbWorld* world, float timeStep );
/// After the narrow phase: contact begin/end events per (shape, mesh) pair. Needed only when the
/// pass before found parents (the narrow phase destroys contacts, never creates them).
void tbFinishMeshContacts( tbWorld* world );

/// Earliest time of impact (fraction of the sweep, at most maxFraction) of a moving convex shape
/// against the triangles of a mesh or heightfield.
float tbTrianglesTimeOfImpact( tbTriangleSource source, tbTransform xfMesh, const tbShape* convex, const tbSweep* sweep,
							   float maxFraction );

