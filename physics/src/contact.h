// Tumble physics: contacts (one per overlapping shape pair in the broad phase).
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/types.h"

typedef struct tbWorld tbWorld;
typedef struct tbShape tbShape;

/// Link of a contact into one body's contact list.
/// Cap on the velocity-dependent part of the speculative margin (m).
#define TB_MAX_SPECULATIVE_DISTANCE 1.0f

typedef struct tbContactEdge
{
	int bodyId;
	int prevKey; ///< key = contactId << 1 | edge index; -1 ends
	int nextKey;
} tbContactEdge;

enum tbContactFlags
{
	tbContact_touching = 0x1,
	tbContact_sensor = 0x2,
	tbContact_enableEvents = 0x4,
	tbContact_meshParent = 0x8,    ///< a (shape, mesh) broad-phase pair: never solved, owns per-triangle children
	tbContact_meshChild = 0x10,    ///< one triangle of a mesh against a convex shape
	tbContact_meshTouching = 0x20, ///< parent: some child touched after the last narrow phase (events)
	tbContact_reusable = 0x40,     ///< the last full manifold can be remeasured (tbContactReuse)
	tbContact_reused = 0x80,       ///< the last narrow phase remeasured the manifold instead of computing it
	tbContact_oneWayDecided = 0x100, ///< a one-way body's contact took its side at its first points (presolve.c)
	tbContact_oneWayPass = 0x200,    ///< ... and lets the other body through until they are apart
};

/// Manifold reuse (frame coherence, as Jolt's body-pair cache): while the two bodies' relative pose
/// stays within TB_REUSE_DISTANCE (and a hundredth of the smaller body) and TB_REUSE_ANGLE of the
/// pose of the last full narrow phase, a contact keeps its points and only measures them again: the
/// points are fixed on each body and the normal on one of them, so each separation is the distance
/// between the two surface points along it. Exact for a hull-hull face contact (the normal on the
/// reference face's body); within r (1 - cos 1 deg) for two spheres or capsules (contact.c
/// tbStoreReuse). Mesh triangles, hull edge-edge contacts and a sphere or capsule on a hull are
/// always computed in full. A resting pile then skips the narrow phase for most pairs.
#define TB_REUSE_DISTANCE 0.001f
/// cos(TB_REUSE_ANGLE / 2) for TB_REUSE_ANGLE = 1 degree.
#define TB_REUSE_COS_HALF_ANGLE 0.99996192f

typedef struct tbContactReuse
{
	tbTransform frame;   ///< B's body frame in A's at the last full narrow phase
	tbVec3 localNormal;  ///< the manifold normal in the reference body's frame
	tbVec3 localA[TB_MAX_MANIFOLD_POINTS]; ///< the points on A's surface, A's frame
	tbVec3 localB[TB_MAX_MANIFOLD_POINTS]; ///< the points on B's surface, B's frame
	bool normalOnB;      ///< the reference face is B's
} tbContactReuse;

/// Pair-set key of a mesh child contact: bit 63 (never set by TB_SHAPE_PAIR_KEY, whose high word is
/// a non-negative int32), the parent contact's index (31 bits) and the triangle (< 2^26: a mesh has
/// at most 2^20, a 4096 x 4096 heightfield 2 * 4095^2 < 2^25.1).
#define TB_MESH_CHILD_KEY( parentId, triangle ) \
	( ( 1ull << 63 ) | ( (uint64_t)(uint32_t)( parentId ) << 26 ) | (uint64_t)(uint32_t)( triangle ) )

/// What the step's passes over every pair read (id, flags, constraint index, shapes) comes first,
/// in the first cache line: a pile has two to three pairs for each touching one (rain: 7283 pairs
/// of 528 bytes), and with id and flags 500 bytes apart rain's step missed L1 on 928.8 K reads
/// against 918.7 K side by side (cachegrind, steps 400 to 430).
typedef struct tbContact
{
	int id; ///< own index, -1 when free
	uint32_t flags;
	int constraintIndex; ///< in this step's contact constraints, -1 otherwise
	int nextFree;
	uint16_t generation;
	int shapeIdA;
	int shapeIdB;
	tbContactEdge edges[2];
	tbManifold manifold;
	tbSATCache cache;
	tbContactReuse reuse; ///< valid with tbContact_reusable
	float friction;
	float restitution;
	int triangleIndex;   ///< mesh child: its triangle; -1 otherwise
	int parentId;        ///< mesh child: its parent contact; -1 otherwise
	int eventChildId;    ///< mesh parent: a touching child after the last narrow phase, or -1
} tbContact;

/// False when the contact pool or the pair set could not grow (nothing created).
bool tbCreateContact( tbWorld* world, int shapeIdA, int shapeIdB );
/// A mesh child contact for one triangle, with the parent's shapes and materials (mesh.c).
void tbCreateMeshChildContact( tbWorld* world, int parentId, int triangleIndex );
void tbDestroyContact( tbWorld* world, tbContact* contact, bool wakeBodies );
/// Recompute the manifold, keeping impulses of points whose feature ids persist. Returns true
/// when the contact is touching (has points or sensor overlap).
bool tbUpdateContact( tbWorld* world, tbContact* contact, float timeStep );
/// Manifold of two shapes on bodies at xfA/xfB (normal from A to B), keeping points closer than
/// speculativeDistance.
tbManifold tbCollideShapes( const void* shapeA, tbTransform xfA, const void* shapeB, tbTransform xfB,
							float speculativeDistance, tbSATCache* cache );
/// Recompute mixed friction/restitution of the shape's contacts after a material change.
void tbRefreshContactMaterials( tbWorld* world, const tbShape* shape );
