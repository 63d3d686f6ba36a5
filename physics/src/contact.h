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
};

typedef struct tbContact
{
	int id; ///< own index, -1 when free
	int nextFree;
	uint16_t generation;
	int shapeIdA;
	int shapeIdB;
	tbContactEdge edges[2];
	tbManifold manifold;
	tbSATCache cache;
	float friction;
	float restitution;
	uint32_t flags;
	int constraintIndex; ///< in this step's contact constraints, -1 otherwise
} tbContact;

void tbCreateContact( tbWorld* world, int shapeIdA, int shapeIdB );
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
