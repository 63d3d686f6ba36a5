// Tumble physics: contacts between shape pairs, their manifolds and warm-start matching.
// SPDX-License-Identifier: MIT
#include "contact.h"

#include "body.h"
#include "core.h"
#include "mesh.h"
#include "shape.h"
#include "world.h"
#include "tumble/tumble.h"

#include <math.h>
#include <string.h>

static float tbMix( tbMixRule rule, float a, float b )
{
	switch ( rule )
	{
		case tbMix_average:
			return 0.5f * ( a + b );
		case tbMix_minimum:
			return tbMinFloat( a, b );
		case tbMix_maximum:
			return tbMaxFloat( a, b );
		case tbMix_multiply:
			return a * b;
		default:
			return sqrtf( a * b );
	}
}

static void tbLinkContactEdge( tbWorld* world, tbContact* contact, int edgeIndex, int bodyId )
{
	tbBody* body = world->bodies.data + bodyId;
	tbContactEdge* edge = contact->edges + edgeIndex;
	int key = ( contact->id << 1 ) | edgeIndex;
	edge->bodyId = bodyId;
	edge->prevKey = -1;
	edge->nextKey = body->headContactKey;
	if ( body->headContactKey >= 0 )
	{
		tbContact* head = world->contacts.data + ( body->headContactKey >> 1 );
		head->edges[body->headContactKey & 1].prevKey = key;
	}
	body->headContactKey = key;
	body->contactCount += 1;
}

static void tbUnlinkContactEdge( tbWorld* world, tbContact* contact, int edgeIndex )
{
	tbContactEdge* edge = contact->edges + edgeIndex;
	tbBody* body = world->bodies.data + edge->bodyId;
	if ( edge->prevKey >= 0 )
	{
		world->contacts.data[edge->prevKey >> 1].edges[edge->prevKey & 1].nextKey = edge->nextKey;
	}
	else
	{
		body->headContactKey = edge->nextKey;
	}
	if ( edge->nextKey >= 0 )
	{
		world->contacts.data[edge->nextKey >> 1].edges[edge->nextKey & 1].prevKey = edge->prevKey;
	}
	body->contactCount -= 1;
}

static uint64_t tbContactKey( const tbContact* contact )
{
	if ( contact->flags & tbContact_meshChild )
	{
		return TB_MESH_CHILD_KEY( contact->parentId, contact->triangleIndex );
	}
	return TB_SHAPE_PAIR_KEY( contact->shapeIdA, contact->shapeIdB );
}

// NULL when the pool or the pair set cannot grow: the pair is dropped (counted in the step's
// allocation failures) and found again when one of its proxies next moves.
static tbContact* tbAllocContact( tbWorld* world, int shapeIdA, int shapeIdB )
{
	tbShape* shapeA = world->shapes.data + shapeIdA;
	tbShape* shapeB = world->shapes.data + shapeIdB;

	int index = -1;
	if ( tbReserveKey( &world->pairSet ) )
	{
		TB_POOL_ALLOC( world->contacts, tbContact, index );
	}
	if ( index < 0 )
	{
		world->allocationFailures += 1;
		return NULL;
	}
	tbContact* contact = world->contacts.data + index;
	memset( contact, 0, sizeof( *contact ) );
	contact->id = index;
	contact->nextFree = -1;
	contact->shapeIdA = shapeIdA;
	contact->shapeIdB = shapeIdB;
	contact->friction = tbMix( world->def.frictionMix, shapeA->friction, shapeB->friction );
	contact->restitution = tbMix( world->def.restitutionMix, shapeA->restitution, shapeB->restitution );
	contact->constraintIndex = -1;
	contact->triangleIndex = -1;
	contact->parentId = -1;
	contact->eventChildId = -1;
	return contact;
}

bool tbCreateContact( tbWorld* world, int shapeIdA, int shapeIdB )
{
	tbShape* shapeA = world->shapes.data + shapeIdA;
	tbShape* shapeB = world->shapes.data + shapeIdB;
	tbContact* contact = tbAllocContact( world, shapeIdA, shapeIdB );
	if ( contact == NULL )
	{
		return false;
	}
	if ( shapeA->isSensor || shapeB->isSensor )
	{
		contact->flags |= tbContact_sensor;
	}
	if ( shapeA->enableContactEvents || shapeB->enableContactEvents )
	{
		contact->flags |= tbContact_enableEvents;
	}
	if ( tbIsTriangleShapeType( shapeA->type ) || tbIsTriangleShapeType( shapeB->type ) )
	{
		contact->flags |= tbContact_meshParent;
	}
	tbLinkContactEdge( world, contact, 0, shapeA->bodyId );
	tbLinkContactEdge( world, contact, 1, shapeB->bodyId );
	tbAddKey( &world->pairSet, tbContactKey( contact ) );
	return true;
}

void tbCreateMeshChildContact( tbWorld* world, int parentId, int triangleIndex )
{
	int shapeIdA = world->contacts.data[parentId].shapeIdA;
	int shapeIdB = world->contacts.data[parentId].shapeIdB;
	tbContact* contact = tbAllocContact( world, shapeIdA, shapeIdB );
	if ( contact == NULL )
	{
		return;
	}
	// Children report no events of their own: the parent reports one begin/end per pair.
	contact->flags = tbContact_meshChild;
	contact->triangleIndex = triangleIndex;
	contact->parentId = parentId;
	tbLinkContactEdge( world, contact, 0, world->shapes.data[shapeIdA].bodyId );
	tbLinkContactEdge( world, contact, 1, world->shapes.data[shapeIdB].bodyId );
	tbAddKey( &world->pairSet, tbContactKey( contact ) );
}

void tbDestroyContact( tbWorld* world, tbContact* contact, bool wakeBodies )
{
	tbShape* shapeA = world->shapes.data + contact->shapeIdA;
	tbShape* shapeB = world->shapes.data + contact->shapeIdB;
	if ( ( contact->flags & ( tbContact_touching | tbContact_meshTouching ) ) && ( contact->flags & tbContact_enableEvents ) )
	{
		tbShapeId idA = tbMakeShapeId( world, shapeA );
		tbShapeId idB = tbMakeShapeId( world, shapeB );
		if ( contact->flags & tbContact_sensor )
		{
			tbSensorEvent ev = { shapeA->isSensor ? idA : idB, shapeA->isSensor ? idB : idA };
			tbPushSensorEvent( world, &ev, false );
		}
		else
		{
			tbContactEndEvent ev = { idA, idB };
			tbPushContactEnd( world, &ev );
		}
	}
	tbRemoveKey( &world->pairSet, tbContactKey( contact ) );
	int bodyIdA = contact->edges[0].bodyId;
	int bodyIdB = contact->edges[1].bodyId;
	bool wasTouching = ( contact->flags & tbContact_touching ) != 0;
	tbUnlinkContactEdge( world, contact, 0 );
	tbUnlinkContactEdge( world, contact, 1 );
	TB_POOL_FREE( world->contacts, contact->id );

	if ( wakeBodies && wasTouching )
	{
		tbBody* bodyA = world->bodies.data + bodyIdA;
		tbBody* bodyB = world->bodies.data + bodyIdB;
		if ( bodyA->type == tbBody_dynamic )
		{
			tbWakeBody( world, bodyA );
		}
		if ( bodyB->type == tbBody_dynamic )
		{
			tbWakeBody( world, bodyB );
		}
	}
}

void tbRefreshContactMaterials( tbWorld* world, const tbShape* shape )
{
	tbBody* body = world->bodies.data + shape->bodyId;
	for ( int key = body->headContactKey; key >= 0; )
	{
		tbContact* contact = world->contacts.data + ( key >> 1 );
		key = contact->edges[key & 1].nextKey;
		tbShape* shapeA = world->shapes.data + contact->shapeIdA;
		tbShape* shapeB = world->shapes.data + contact->shapeIdB;
		contact->friction = tbMix( world->def.frictionMix, shapeA->friction, shapeB->friction );
		contact->restitution = tbMix( world->def.restitutionMix, shapeA->restitution, shapeB->restitution );
	}
}

// Swap the roles of A and B in a manifold: flip the normal and exchange the anchors.
static void tbFlipManifold( tbManifold* m )
{
	m->normal = tbNeg( m->normal );
	for ( int i = 0; i < m->pointCount; ++i )
	{
		tbVec3 t = m->points[i].anchorA;
		m->points[i].anchorA = m->points[i].anchorB;
		m->points[i].anchorB = t;
	}
}

// The pair in the order the manifold functions take it: the "larger" shape type first.
static tbManifold tbCollideOrdered( const tbShape* shapeA, tbTransform xfA, const tbShape* shapeB, tbTransform xfB,
									float spec, tbSATCache* cache )
{
	switch ( shapeA->type )
	{
		case tbShape_sphere:
			return tbCollideSpheres( &shapeA->sphere, xfA, &shapeB->sphere, xfB, spec );
		case tbShape_capsule:
			return shapeB->type == tbShape_sphere ? tbCollideCapsuleAndSphere( &shapeA->capsule, xfA, &shapeB->sphere, xfB, spec )
												  : tbCollideCapsules( &shapeA->capsule, xfA, &shapeB->capsule, xfB, spec );
		case tbShape_cylinder:
			switch ( shapeB->type )
			{
				case tbShape_sphere:
					return tbCollideCylinderAndSphere( &shapeA->cylinder, xfA, &shapeB->sphere, xfB, spec );
				case tbShape_capsule:
					return tbCollideCylinderAndCapsule( &shapeA->cylinder, xfA, &shapeB->capsule, xfB, spec );
				case tbShape_hull:
					return tbCollideCylinderAndHull( &shapeA->cylinder, xfA, shapeB->hull, xfB, spec );
				case tbShape_cylinder:
					return tbCollideCylinders( &shapeA->cylinder, xfA, &shapeB->cylinder, xfB, spec );
				default:
					break;
			}
			// A mesh: child contacts, as below.
			// fall through
		case tbShape_mesh:
		case tbShape_heightfield:
		{
			// Meshes collide triangle by triangle through child contacts (tbCollideMeshTriangle).
			tbManifold m;
			memset( &m, 0, sizeof( m ) );
			return m;
		}
		default:
			if ( shapeB->type == tbShape_sphere )
			{
				return tbCollideHullOrBoxAndSphere( shapeA->hull, shapeA->isBox ? &shapeA->box : NULL, xfA,
													&shapeB->sphere, xfB, spec );
			}
			if ( shapeB->type == tbShape_capsule )
			{
				return tbCollideHullOrBoxAndCapsule( shapeA->hull, shapeA->isBox ? &shapeA->box : NULL, xfA,
													 &shapeB->capsule, xfB, spec );
			}
			return tbCollideHullsWithBoxes( shapeA->hull, shapeA->isBox ? &shapeA->box : NULL, xfA, shapeB->hull,
											shapeB->isBox ? &shapeB->box : NULL, xfB, spec, cache );
	}
}

// Each manifold is returned straight through (no zeroed copy first): a pile's narrow phase made
// four copies of the 288-byte manifold a pair.
tbManifold tbCollideShapes( const void* shapeAPtr, tbTransform xfA, const void* shapeBPtr, tbTransform xfB,
							float speculativeDistance, tbSATCache* cache )
{
	const tbShape* shapeA = shapeAPtr;
	const tbShape* shapeB = shapeBPtr;
	if ( shapeA->type < shapeB->type )
	{
		tbManifold m = tbCollideOrdered( shapeB, xfB, shapeA, xfA, speculativeDistance, cache );
		tbFlipManifold( &m );
		return m;
	}
	return tbCollideOrdered( shapeA, xfA, shapeB, xfB, speculativeDistance, cache );
}

// Manifold reuse (contact.h, tbContactReuse) --------------------------------------------------------

static bool tbCanReuseManifold( const tbContact* contact, tbTransform relative, const tbBody* bodyA, const tbBody* bodyB )
{
	const tbContactReuse* r = &contact->reuse;
	float tolerance = tbMinFloat( TB_REUSE_DISTANCE, 0.01f * tbMinFloat( bodyA->minExtent, bodyB->minExtent ) );
	if ( tbDistanceSquared( relative.p, r->frame.p ) > tolerance * tolerance )
	{
		return false;
	}
	float cosHalf = relative.q.x * r->frame.q.x + relative.q.y * r->frame.q.y + relative.q.z * r->frame.q.z +
					relative.q.w * r->frame.q.w;
	return tbAbsFloat( cosHalf ) >= TB_REUSE_COS_HALF_ANGLE;
}

// The same points at the bodies' new poses: separation along the reference face's normal, the
// point midway, anchors from the body origins (as tbAddPoint). Impulses and ids stay.
static void tbRemeasureManifold( tbContact* contact, tbTransform xfA, tbTransform xfB )
{
	const tbContactReuse* r = &contact->reuse;
	tbManifold* m = &contact->manifold;
	tbVec3 normal = tbRotate( r->normalOnB ? xfB.q : xfA.q, r->localNormal );
	m->normal = normal;
	for ( int i = 0; i < m->pointCount; ++i )
	{
		tbManifoldPoint* mp = m->points + i;
		tbVec3 pA = tbTransformPoint( xfA, r->localA[i] );
		tbVec3 pB = tbTransformPoint( xfB, r->localB[i] );
		mp->separation = tbDot( tbSub( pB, pA ), normal );
		mp->point = tbMulSV( 0.5f, tbAdd( pA, pB ) );
		mp->anchorA = tbSub( mp->point, xfA.p );
		mp->anchorB = tbSub( mp->point, xfB.p );
		mp->persisted = true;
	}
}

// After a full narrow phase: which manifolds can be remeasured while the relative pose holds.
// - A hull pair touching through a face (SAT cache type 1: A's face, 2: B's): its points are the
//   incident body's vertices and clipped edge points and the normal is the reference face's, so a
//   remeasured separation is exact. Edge-edge contacts (the normal turns with both bodies) are not.
// - Two spheres or capsules: each point lies on a rounded surface, whose closest point slides by
//   r theta as the pair turns by theta, which changes a separation by r (1 - cos theta) ~ r theta^2
//   / 2: 2e-5 m for a 0.15 m capsule turned the 1 degree the reuse allows. The normal turns with A.
// A sphere or capsule on a hull is computed in full: its point turns with the rolling surface while
// the true one stays under the centre. Over 6 gravity nudges of test_joints' ragdoll pile, reusing
// those pairs as well raised the worst joint's end gap from 1.0-5.1 mm to up to 20 mm, and reusing
// only those the 99th-percentile gap from 0.31-0.57 mm to up to 1.48 mm (bar 1 mm).
static void tbStoreReuse( tbContact* contact, const tbShape* shapeA, const tbShape* shapeB, tbTransform xfA,
						  tbTransform xfB, tbTransform relative )
{
	const tbManifold* m = &contact->manifold;
	bool hullA = shapeA->type == tbShape_hull, hullB = shapeB->type == tbShape_hull;
	bool roundA = shapeA->type == tbShape_sphere || shapeA->type == tbShape_capsule;
	bool roundB = shapeB->type == tbShape_sphere || shapeB->type == tbShape_capsule;
	bool hullFace = hullA && hullB && ( contact->cache.type == 1 || contact->cache.type == 2 );
	bool reusable = hullFace || ( roundA && roundB );
	if ( reusable == false || m->pointCount == 0 || ( contact->flags & tbContact_meshChild ) )
	{
		contact->flags &= ~(uint32_t)tbContact_reusable;
		return;
	}
	tbContactReuse* r = &contact->reuse;
	r->frame = relative;
	r->normalOnB = hullFace && contact->cache.type == 2;
	r->localNormal = tbInvRotate( r->normalOnB ? xfB.q : xfA.q, m->normal );
	for ( int i = 0; i < m->pointCount; ++i )
	{
		// The manifold point is midway between the surfaces.
		const tbManifoldPoint* mp = m->points + i;
		tbVec3 half = tbMulSV( 0.5f * mp->separation, m->normal );
		r->localA[i] = tbInvTransformPoint( xfA, tbSub( mp->point, half ) );
		r->localB[i] = tbInvTransformPoint( xfB, tbAdd( mp->point, half ) );
	}
	contact->flags |= tbContact_reusable;
}

bool tbUpdateContact( tbWorld* world, tbContact* contact, float timeStep )
{
	tbShape* shapeA = world->shapes.data + contact->shapeIdA;
	tbShape* shapeB = world->shapes.data + contact->shapeIdB;
	tbBody* bodyA = world->bodies.data + shapeA->bodyId;
	tbBody* bodyB = world->bodies.data + shapeB->bodyId;

	if ( ( contact->flags & tbContact_meshParent ) && ( contact->flags & tbContact_sensor ) )
	{
		// A sensor against a mesh: overlap with any triangle.
		const tbShape* meshShape = tbIsTriangleShapeType( shapeA->type ) ? shapeA : shapeB;
		const tbShape* other = tbIsTriangleShapeType( shapeA->type ) ? shapeB : shapeA;
		tbShapeProxy proxy = tbMakeShapeDistanceProxy( other );
		bool overlap = tbIsTriangleShapeType( other->type ) == false &&
					   tbMeshOverlapsProxy( tbShapeTriangles( meshShape ), world->bodies.data[meshShape->bodyId].transform, &proxy,
											world->bodies.data[other->bodyId].transform );
		contact->manifold.pointCount = 0;
		contact->flags = overlap ? ( contact->flags | tbContact_touching ) : ( contact->flags & ~(uint32_t)tbContact_touching );
		return overlap;
	}
	if ( contact->flags & tbContact_meshParent )
	{
		// The triangles' child contacts carry the manifolds (mesh_contact.c).
		return false;
	}

	if ( contact->flags & tbContact_sensor )
	{
		// Sensors only need to know whether the shapes overlap.
		tbDistanceInput input;
		input.proxyA = tbMakeShapeDistanceProxy( shapeA );
		input.proxyB = tbMakeShapeDistanceProxy( shapeB );
		input.transformA = bodyA->transform;
		input.transformB = bodyB->transform;
		input.useRadii = true;
		tbSimplexCache cache = { 0 };
		tbDistanceOutput out = tbShapeDistance( &input, &cache );
		bool overlap = out.distance <= 0.0f;
		contact->manifold.pointCount = 0;
		contact->flags = overlap ? ( contact->flags | tbContact_touching ) : ( contact->flags & ~(uint32_t)tbContact_touching );
		return overlap;
	}

	// Speculative margin: the fixed distance plus how far the two bodies can close on each other in
	// this step (linear plus rotational motion), so a fast or tumbling body gets the points it is
	// about to hit into the manifold and the solver stops it at contact instead of inside.
	tbVec3 dv = tbSub( bodyB->linearVelocity, bodyA->linearVelocity );
	float closing = tbLength( dv ) + tbLength( bodyA->angularVelocity ) * bodyA->maxExtent +
					tbLength( bodyB->angularVelocity ) * bodyB->maxExtent;
	float speculative = TB_SPECULATIVE_DISTANCE + tbMinFloat( closing * timeStep, TB_MAX_SPECULATIVE_DISTANCE );

	// Mesh triangles are never reused (tbStoreReuse): the relative pose is measured for the rest.
	bool meshPair = tbIsTriangleShapeType( shapeA->type ) || tbIsTriangleShapeType( shapeB->type ) ||
					( contact->flags & tbContact_meshChild ) != 0;
	if ( meshPair == false )
	{
		// Every shape of a body lies within maxExtent of its centre of mass: bodies whose spheres
		// are further apart than the speculative margin have no points, so the narrow phase is
		// skipped. Most of a pile's broad-phase pairs are such (ragdolls: about three in four).
		float reach = bodyA->maxExtent + bodyB->maxExtent + speculative;
		if ( tbDistanceSquared( bodyA->center, bodyB->center ) > reach * reach )
		{
			contact->manifold.pointCount = 0;
			contact->flags &= ~(uint32_t)( tbContact_touching | tbContact_reusable | tbContact_reused );
			return false;
		}
	}
	tbTransform relative = meshPair ? tb_transformIdentity : tbInvMulTransforms( bodyA->transform, bodyB->transform );
	if ( ( contact->flags & tbContact_reusable ) && world->def.enableContactReuse &&
		 tbCanReuseManifold( contact, relative, bodyA, bodyB ) )
	{
		tbRemeasureManifold( contact, bodyA->transform, bodyB->transform );
		contact->flags |= tbContact_reused;
		return true;
	}
	contact->flags &= ~(uint32_t)tbContact_reused;

	// The last manifold's ids and impulses, for the points found again (warm starting).
	struct
	{
		uint32_t id;
		float normalImpulse, tangentImpulse[2];
	} old[TB_MAX_MANIFOLD_POINTS];
	const int oldCount = contact->manifold.pointCount;
	for ( int i = 0; i < oldCount; ++i )
	{
		const tbManifoldPoint* mp = contact->manifold.points + i;
		old[i].id = mp->id;
		old[i].normalImpulse = mp->normalImpulse;
		old[i].tangentImpulse[0] = mp->tangentImpulse[0];
		old[i].tangentImpulse[1] = mp->tangentImpulse[1];
	}
	if ( contact->flags & tbContact_meshChild )
	{
		// Triangle manifolds point from the mesh to the convex shape; flip when the mesh is B.
		bool meshIsA = tbIsTriangleShapeType( shapeA->type );
		const tbShape* meshShape = meshIsA ? shapeA : shapeB;
		const tbBody* meshBody = meshIsA ? bodyA : bodyB;
		const tbShape* convex = meshIsA ? shapeB : shapeA;
		const tbBody* convexBody = meshIsA ? bodyB : bodyA;
		contact->manifold = tbCollideMeshTriangle( tbShapeTriangles( meshShape ), contact->triangleIndex, meshBody->transform, convex,
												   convexBody->transform, speculative );
		if ( meshIsA == false )
		{
			tbFlipManifold( &contact->manifold );
		}
	}
	else
	{
		contact->manifold = tbCollideShapes( shapeA, bodyA->transform, shapeB, bodyB->transform, speculative, &contact->cache );
	}

	// Carry accumulated impulses over to points with the same feature id (warm starting).
	tbManifold* m = &contact->manifold;
	for ( int i = 0; i < m->pointCount; ++i )
	{
		tbManifoldPoint* mp = m->points + i;
		mp->normalImpulse = 0.0f;
		mp->tangentImpulse[0] = 0.0f;
		mp->tangentImpulse[1] = 0.0f;
		mp->stepNormalImpulse = 0.0f; // this step's, written by the solver
		mp->persisted = false;
		for ( int j = 0; j < oldCount; ++j )
		{
			if ( old[j].id == mp->id )
			{
				mp->normalImpulse = old[j].normalImpulse;
				mp->tangentImpulse[0] = old[j].tangentImpulse[0];
				mp->tangentImpulse[1] = old[j].tangentImpulse[1];
				mp->persisted = true;
				break;
			}
		}
	}

	bool touching = m->pointCount > 0;
	contact->flags = touching ? ( contact->flags | tbContact_touching ) : ( contact->flags & ~(uint32_t)tbContact_touching );
	tbStoreReuse( contact, shapeA, shapeB, bodyA->transform, bodyB->transform, relative );
	return touching;
}
