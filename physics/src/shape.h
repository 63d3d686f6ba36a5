// Tumble physics: shape storage.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/collision.h"
#include "tumble/types.h"

typedef struct tbWorld tbWorld;
typedef struct tbBody tbBody;

/// A box hull in its own frame: centre, unit face axes (the normals of faces 1, 3, 5, a right-handed
/// frame) and half extents. Only hulls laid out as tbMakeBoxHull writes them are recognised (6 faces
/// in exactly opposite pairs -x, +x, -y, +y, -z, +z, perpendicular to rounding); anything else is a
/// general hull. corners: the vertices are exactly (+-x, +-y, +-z) of the half extents, vertex i
/// positive on the axes whose bit is set in i (an untransformed tbMakeBoxHull box).
typedef struct tbBoxHull
{
	tbVec3 center;
	tbVec3 axes[3];
	float extents[3];
	tbVec3 corner; ///< vertex 7
	bool corners;
	/// Edge along axis m between the faces on the sides s1 of axis m + 1 and s2 of axis m + 2
	/// (mod 3): the lower half-edge index of its twin pair, at [m][(s1 > 0) + 2 (s2 > 0)].
	uint16_t edges[3][4];
} tbBoxHull;

typedef struct tbShape
{
	int id;        ///< own index, or -1 when free
	int nextFree;
	uint16_t generation;
	int bodyId;
	int nextShapeId; ///< next shape of the same body, -1 ends
	tbShapeType type;
	union
	{
		tbSphere sphere;
		tbCapsule capsule;
		tbCylinder cylinder;
		tbHull* hull; ///< owned
		tbMesh* mesh; ///< shared with snapshots (reference counted)
		tbHeightfield* heightfield; ///< shared with snapshots (reference counted)
	};
	/// Hull shapes: the hull's box description (tbGetBoxHull), found once when the shape is made;
	/// isBox false for a general hull. The narrow phase passes it to the box paths.
	tbBoxHull box;
	bool isBox;
	float density;
	float friction;
	float restitution;
	uint64_t categoryBits;
	uint64_t maskBits;
	int32_t groupIndex;
	void* userData;
	tbAABB aabb;    ///< tight world AABB
	tbAABB fatAABB; ///< enlarged AABB stored in the broad phase
	int proxyKey;   ///< broad-phase proxy, -1 when none
	bool isSensor;
	bool enableContactEvents;
	bool enablePreSolveEvents; ///< the world's pre-solve callback sees this shape's contacts
} tbShape;

tbShape* tbGetShapeFromId( tbWorld* world, tbShapeId id );
tbShapeId tbMakeShapeId( const tbWorld* world, const tbShape* shape );
tbAABB tbComputeShapeAABB( const tbShape* shape, tbTransform xf );
tbMassData tbComputeShapeMass( const tbShape* shape );
tbShapeProxy tbMakeShapeDistanceProxy( const tbShape* shape );
/// Ray cast in world frame against the shape on a body at xf.
tbCastOutput tbRayCastShape( const tbShape* shape, tbTransform xf, tbVec3 origin, tbVec3 translation, float maxFraction );
/// Largest distance from point (body frame) to the shape's surface, and the smallest half size.
float tbComputeShapeExtent( const tbShape* shape, tbVec3 localCenter );
float tbComputeShapeMinExtent( const tbShape* shape );
bool tbShouldShapesCollide( const tbShape* a, const tbShape* b );
/// Meshes and heightfields are shared by a shape and the snapshots that hold it: one reference
/// each. Nothing for other shape types.
void tbRetainSharedGeometry( const tbShape* shape );
void tbReleaseSharedGeometry( const tbShape* shape );
/// Unlink from the body, remove the proxy, destroy the shape's contacts, free the slot.
void tbDestroyShapeInternal( tbWorld* world, tbShape* shape );
/// Insert the shape's proxy into the broad phase (tree chosen by the body's type). False when the
/// tree could not grow: the shape has no proxy (proxyKey -1) and collides with nothing.
bool tbCreateShapeProxy( tbWorld* world, tbShape* shape, const tbBody* body );

/// Closest points c1 on segment p1-q1 and c2 on segment p2-q2 (manifold.c; the capsule and mesh
/// narrow phases share it).
void tbSegmentClosestPoints( tbVec3 p1, tbVec3 q1, tbVec3 p2, tbVec3 q2, tbVec3* c1, tbVec3* c2 );

/// True if the hull is a box laid out as tbMakeBoxHull writes it, with its description in *box.
bool tbGetBoxHull( const tbHull* hull, tbBoxHull* box );

/// The hull pair functions of collision.h with the hulls' box descriptions (NULL: a general hull)
/// found beforehand, as the shapes keep them. The public functions find them on every call.
/// A box takes the closed-form sphere and capsule paths; NULL the general hull path.
tbManifold tbCollideHullsWithBoxes( const tbHull* hullA, const tbBoxHull* boxA, tbTransform xfA, const tbHull* hullB,
									const tbBoxHull* boxB, tbTransform xfB, float speculativeDistance, tbSATCache* cache );
tbManifold tbCollideHullOrBoxAndSphere( const tbHull* hullA, const tbBoxHull* boxA, tbTransform xfA,
										const tbSphere* sphereB, tbTransform xfB, float speculativeDistance );
tbManifold tbCollideHullOrBoxAndCapsule( const tbHull* hullA, const tbBoxHull* boxA, tbTransform xfA,
										 const tbCapsule* capsuleB, tbTransform xfB, float speculativeDistance );

/// The face of a hull whose outward normal is closest to direction (local frame; the first on ties).
int tbFindHullFace( const tbHull* hull, tbVec3 direction );

/// Slab test of the segment p + t d, t in [0, maxFraction], against a box (dynamic_tree.c; the
/// broad-phase tree and the mesh triangle tree share it).
bool tbSegmentOverlapsBox( const float p[3], const float d[3], float maxFraction, tbAABB box );

/// World box of a shape proxy (its points placed by xf, grown by its radius).
tbAABB tbComputeProxyAABB( const tbShapeProxy* proxy, tbTransform xf );
