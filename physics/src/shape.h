// Tumble physics: shape storage.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/types.h"

typedef struct tbWorld tbWorld;
typedef struct tbBody tbBody;

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

/// The face of a hull whose outward normal is closest to direction (local frame; the first on ties).
int tbFindHullFace( const tbHull* hull, tbVec3 direction );

/// Slab test of the segment p + t d, t in [0, maxFraction], against a box (dynamic_tree.c; the
/// broad-phase tree and the mesh triangle tree share it).
bool tbSegmentOverlapsBox( const float p[3], const float d[3], float maxFraction, tbAABB box );

/// World box of a shape proxy (its points placed by xf, grown by its radius).
tbAABB tbComputeProxyAABB( const tbShapeProxy* proxy, tbTransform xf );
