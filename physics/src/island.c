// Tumble physics: sleeping by islands.
// SPDX-License-Identifier: MIT
#include "island.h"

#include "body.h"
#include "contact.h"
#include "core.h"
#include "joint.h"
#include "world.h"
#include "tumble/tumble.h"

#include <float.h>

static int tbFindRoot( tbWorld* world, int id )
{
	tbBody* bodies = world->bodies.data;
	int root = id;
	while ( bodies[root].islandParent != root )
	{
		root = bodies[root].islandParent;
	}
	// path compression
	while ( bodies[id].islandParent != root )
	{
		int next = bodies[id].islandParent;
		bodies[id].islandParent = root;
		id = next;
	}
	return root;
}

static void tbUnion( tbWorld* world, int a, int b )
{
	tbBody* bodies = world->bodies.data;
	if ( bodies[a].islandParent < 0 || bodies[b].islandParent < 0 )
	{
		return; // static or asleep: does not join islands
	}
	int ra = tbFindRoot( world, a );
	int rb = tbFindRoot( world, b );
	if ( ra != rb )
	{
		// The lower index becomes the root so the result does not depend on visit order.
		if ( ra < rb )
		{
			bodies[rb].islandParent = ra;
		}
		else
		{
			bodies[ra].islandParent = rb;
		}
	}
}

static void tbJointLink( tbWorld* world, int bodyIdA, int bodyIdB )
{
	if ( bodyIdA >= 0 && bodyIdB >= 0 )
	{
		tbUnion( world, bodyIdA, bodyIdB );
	}
}

void tbSleepBody( tbBody* body )
{
	body->awake = false;
	body->sleepTime = 0.0f;
	body->linearVelocity = tb_vec3_zero;
	body->angularVelocity = tb_vec3_zero;
	body->force = tb_vec3_zero;
	body->torque = tb_vec3_zero;
}

void tbUpdateSleep( tbWorld* world, float timeStep )
{
	tbBody* bodies = world->bodies.data;
	int count = world->bodies.count;

	// Sleep timers, and union-find roots for the awake movable bodies.
	for ( int i = 0; i < count; ++i )
	{
		tbBody* body = bodies + i;
		body->islandParent = -1;
		if ( body->id < 0 || body->type == tbBody_static || body->awake == false )
		{
			continue;
		}
		body->islandParent = i;
		float threshold = body->sleepThreshold;
		float v = tbLength( body->linearVelocity );
		// a body without shapes still counts its spin (as if 1 m across)
		float w = tbLength( body->angularVelocity ) * ( body->maxExtent > 0.0f ? body->maxExtent : 1.0f );
		if ( body->enableSleep == false || world->def.enableSleep == false || v > threshold || w > threshold )
		{
			body->sleepTime = 0.0f;
		}
		else
		{
			body->sleepTime += timeStep;
		}
	}
	tbKeepDrivenBodiesAwake( world );

	for ( int i = 0; i < world->contacts.count; ++i )
	{
		tbContact* contact = world->contacts.data + i;
		if ( contact->id < 0 || ( contact->flags & tbContact_touching ) == 0 || ( contact->flags & tbContact_sensor ) )
		{
			continue;
		}
		tbUnion( world, contact->edges[0].bodyId, contact->edges[1].bodyId );
	}
	tbLinkJoints( world, tbJointLink );

	// The islands of the counters (world:stats().islands): the awake groups, whether or not
	// sleeping is on.
	int islandCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		islandCount += bodies[i].islandParent >= 0 && tbFindRoot( world, i ) == i;
	}
	world->counters.islandCount = islandCount;
	if ( world->def.enableSleep == false )
	{
		return;
	}

	// An island sleeps only if none of its bodies moved recently: mark roots of moving islands.
	for ( int i = 0; i < count; ++i )
	{
		if ( bodies[i].islandParent < 0 )
		{
			continue;
		}
		int root = tbFindRoot( world, i );
		bodies[root].isMarked = false;
	}
	for ( int i = 0; i < count; ++i )
	{
		if ( bodies[i].islandParent < 0 )
		{
			continue;
		}
		int root = tbFindRoot( world, i );
		if ( bodies[i].sleepTime < TB_TIME_TO_SLEEP )
		{
			bodies[root].isMarked = true; // someone in this island is still moving
		}
	}
	for ( int i = 0; i < count; ++i )
	{
		if ( bodies[i].islandParent < 0 )
		{
			continue;
		}
		int root = tbFindRoot( world, i );
		if ( bodies[root].isMarked == false )
		{
			tbSleepBody( bodies + i );
		}
	}
}

// One more slot on the wake flood fill's stack. Without memory for it the body it was for stays
// asleep (counted in the step's allocation failures): a touching awake body wakes it again later.
static bool tbPushWake( tbWorld* world, int** stack, int* top, int* capacity )
{
	void* data = *stack;
	if ( tbEnsureCapacity( &data, *top, capacity, sizeof( int ) ) == false )
	{
		world->allocationFailures += 1;
		return false;
	}
	*stack = data;
	*top += 1;
	return true;
}

void tbWakeBody( tbWorld* world, tbBody* body )
{
	if ( body->type == tbBody_static )
	{
		return;
	}
	if ( body->awake )
	{
		body->sleepTime = 0.0f;
		return;
	}
	// Flood fill through touching contacts and joints to every sleeping body of the island.
	int* stack = world->awakeBodyIds;
	int capacity = world->awakeBodyCapacity;
	int top = 0;
	if ( tbPushWake( world, &stack, &top, &capacity ) == false )
	{
		world->awakeBodyIds = stack;
		world->awakeBodyCapacity = capacity;
		return;
	}
	body->awake = true;
	body->sleepTime = 0.0f;
	stack[top - 1] = body->id;
	while ( top > 0 )
	{
		tbBody* b = world->bodies.data + stack[--top];
		for ( int key = b->headContactKey; key >= 0; )
		{
			tbContact* contact = world->contacts.data + ( key >> 1 );
			int edge = key & 1;
			key = contact->edges[edge].nextKey;
			if ( ( contact->flags & tbContact_touching ) == 0 )
			{
				continue;
			}
			tbBody* other = world->bodies.data + contact->edges[edge ^ 1].bodyId;
			if ( other->type != tbBody_static && other->awake == false && tbPushWake( world, &stack, &top, &capacity ) )
			{
				other->awake = true;
				other->sleepTime = 0.0f;
				stack[top - 1] = other->id;
			}
		}
		tbJointId ids[64];
		int jointCount = tbMinInt( tbGetBodyJointIds( world, b, ids, 64 ), 64 );
		for ( int j = 0; j < jointCount; ++j )
		{
			int otherId = tbGetJointOtherBody( world, ids[j], b->id );
			if ( otherId < 0 )
			{
				continue;
			}
			tbBody* other = world->bodies.data + otherId;
			if ( other->type != tbBody_static && other->awake == false && tbPushWake( world, &stack, &top, &capacity ) )
			{
				other->awake = true;
				other->sleepTime = 0.0f;
				stack[top - 1] = other->id;
			}
		}
	}
	world->awakeBodyIds = stack;
	world->awakeBodyCapacity = capacity;
}

void tbWakeAllBodies( tbWorld* world )
{
	for ( int i = 0; i < world->bodies.count; ++i )
	{
		tbBody* body = world->bodies.data + i;
		if ( body->id >= 0 && body->type != tbBody_static )
		{
			body->awake = true;
			body->sleepTime = 0.0f;
		}
	}
}
