// Tumble physics: contacts disabled before the solver: one-way bodies and the pre-solve callback.
// SPDX-License-Identifier: MIT
#include "body.h"
#include "contact.h"
#include "core.h"
#include "shape.h"
#include "world.h"

#include "tumble/tumble.h"

/// cos 60 deg: a contact normal (from the one-way body to the other) this close to the one-way
/// normal means the other body arrived from the blocking side: landing on a slope-topped platform
/// still holds.
#define TB_ONE_WAY_COS 0.5f

tbResult tbWorld_SetPreSolveCallback( tbWorldId worldId, tbPreSolveFcn* fcn, void* context )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		return tbResult_invalidId;
	}
	if ( world->locked )
	{
		return tbResult_worldLocked;
	}
	world->preSolveFcn = fcn;
	world->preSolveContext = context;
	return tbResult_ok;
}

// Whether a contact of a one-way body lets the other body through. The side is taken once, at
// the contact's first points, and kept while the two stay within reach: a body rising through a
// platform sees the normal turn over as its centre passes the platform's, and must not be thrown
// up then. Apart again (no points), the next touch decides afresh.
static bool tbOneWayPasses( const tbBody* bodyA, const tbBody* bodyB, tbContact* contact )
{
	if ( contact->manifold.pointCount == 0 )
	{
		contact->flags &= ~(uint32_t)( tbContact_oneWayDecided | tbContact_oneWayPass );
		return false;
	}
	if ( ( contact->flags & tbContact_oneWayDecided ) == 0 )
	{
		contact->flags |= tbContact_oneWayDecided;
		// The contact normal points from A to B: seen from each one-way body, towards the other.
		tbVec3 n = contact->manifold.normal;
		bool passes = false;
		if ( tbLengthSquared( bodyA->oneWayNormal ) > 0.0f )
		{
			passes = passes || tbDot( tbRotate( bodyA->transform.q, bodyA->oneWayNormal ), n ) < TB_ONE_WAY_COS;
		}
		if ( tbLengthSquared( bodyB->oneWayNormal ) > 0.0f )
		{
			passes = passes || tbDot( tbRotate( bodyB->transform.q, bodyB->oneWayNormal ), tbNeg( n ) ) < TB_ONE_WAY_COS;
		}
		contact->flags |= passes ? tbContact_oneWayPass : 0;
	}
	return ( contact->flags & tbContact_oneWayPass ) != 0;
}

bool tbMayDisableContact( const tbWorld* world, const tbShape* shapeA, const tbShape* shapeB )
{
	const tbBody* bodyA = world->bodies.data + shapeA->bodyId;
	const tbBody* bodyB = world->bodies.data + shapeB->bodyId;
	return tbLengthSquared( bodyA->oneWayNormal ) > 0.0f || tbLengthSquared( bodyB->oneWayNormal ) > 0.0f ||
		   ( world->preSolveFcn != NULL && ( shapeA->enablePreSolveEvents || shapeB->enablePreSolveEvents ) );
}

void tbPreSolveContact( tbWorld* world, tbContact* contact )
{
	if ( contact->flags & ( tbContact_sensor | tbContact_meshParent ) )
	{
		return;
	}
	const tbShape* shapeA = world->shapes.data + contact->shapeIdA;
	const tbShape* shapeB = world->shapes.data + contact->shapeIdB;
	const tbBody* bodyA = world->bodies.data + shapeA->bodyId;
	const tbBody* bodyB = world->bodies.data + shapeB->bodyId;
	if ( tbMayDisableContact( world, shapeA, shapeB ) == false )
	{
		return;
	}
	bool oneWay = tbLengthSquared( bodyA->oneWayNormal ) > 0.0f || tbLengthSquared( bodyB->oneWayNormal ) > 0.0f;
	bool hook = world->preSolveFcn != NULL && ( shapeA->enablePreSolveEvents || shapeB->enablePreSolveEvents );
	bool disable = oneWay && tbOneWayPasses( bodyA, bodyB, contact );
	if ( disable == false && hook && contact->manifold.pointCount > 0 )
	{
		disable = world->preSolveFcn( tbMakeShapeId( world, shapeA ), tbMakeShapeId( world, shapeB ), &contact->manifold,
									  world->preSolveContext ) == false;
	}
	if ( disable )
	{
		// No points: no response, no events, not in an island. A full narrow phase next step (not a
		// remeasured manifold) lets the rule see the pair as it then is.
		contact->manifold.pointCount = 0;
		contact->flags &= ~(uint32_t)( tbContact_touching | tbContact_reusable | tbContact_reused );
	}
}
