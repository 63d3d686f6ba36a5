// Tumble physics: world creation, the step pipeline, queries and events.
// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 199309L
#include "world.h"

#include "contact_solver.h"
#include "core.h"
#include "island.h"
#include "jobs.h"
#include "joint.h"
#include "mesh.h"
#include "mover.h"
#include "solver.h"
#include "tumble/tumble.h"

#include <float.h>
#include <string.h>
#include <time.h>

static tbWorld* s_worlds[TB_MAX_WORLDS];
static uint16_t s_worldGenerations[TB_MAX_WORLDS];

tbWorldDef tbDefaultWorldDef( void )
{
	tbWorldDef def;
	memset( &def, 0, sizeof( def ) );
	def.gravity = tbMakeVec3( 0.0f, 0.0f, -10.0f );
	def.iterations = 10;
	def.subSteps = 8;
	def.positionIterations = 3;
	def.solverMode = tbSolver_soft;
	def.baumgarte = 0.2f;
	def.globalMethod = tbGlobal_gaussSeidel;
	def.globalRelaxation = 1.5f;
	def.enableDirectSolve = true;
	def.linearSlop = 0.002f;
	def.maxCorrectionSpeed = 3.0f;
	def.contactHertz = 100.0f;
	def.contactDampingRatio = 1.0f;
	def.jointHertz = 120.0f;
	def.jointDampingRatio = 5.0f;
	def.restitutionThreshold = 1.0f;
	def.frictionMix = tbMix_geometricMean;
	def.restitutionMix = tbMix_maximum;
	def.enableSleep = true;
	def.enableContinuous = true;
	def.enableWarmStarting = true;
	def.enableContactReuse = true;
	def.maxLinearSpeed = 400.0f;
	def.workerCount = 1;
	def.internalValue = TB_SECRET_COOKIE;
	return def;
}

tbQueryFilter tbDefaultQueryFilter( void )
{
	tbQueryFilter filter = { 1, UINT64_MAX };
	filter.categoryBits = UINT64_MAX;
	return filter;
}

static bool tbIsValidSettings( const tbWorldDef* def )
{
	return tbIsBoundedVec3( def->gravity, TB_MAX_GRAVITY ) && def->iterations >= 1 && def->iterations <= 1000 &&
		   def->subSteps >= 1 && def->subSteps <= 64 && def->positionIterations >= 0 &&
		   def->positionIterations <= 1000 && (unsigned)def->solverMode < (unsigned)tbSolver_modeCount &&
		   (unsigned)def->globalMethod < (unsigned)tbGlobal_methodCount && tbIsValidFloat( def->globalRelaxation ) &&
		   def->globalRelaxation > 0.0f && def->globalRelaxation < 2.0f && tbIsValidFloat( def->baumgarte ) && def->baumgarte >= 0.0f && def->baumgarte <= 1.0f &&
		   tbIsValidFloat( def->linearSlop ) && def->linearSlop >= 0.0f && tbIsValidFloat( def->maxCorrectionSpeed ) &&
		   def->maxCorrectionSpeed >= 0.0f && tbIsValidFloat( def->contactHertz ) && def->contactHertz > 0.0f &&
		   def->contactHertz <= TB_MAX_HERTZ && def->jointHertz <= TB_MAX_HERTZ &&
		   tbIsValidFloat( def->contactDampingRatio ) && def->contactDampingRatio >= 0.0f &&
		   tbIsValidFloat( def->jointHertz ) && def->jointHertz > 0.0f && tbIsValidFloat( def->jointDampingRatio ) &&
		   def->jointDampingRatio >= 0.0f && tbIsValidFloat( def->restitutionThreshold ) &&
		   def->restitutionThreshold >= 0.0f && (unsigned)def->frictionMix < (unsigned)tbMix_ruleCount &&
		   (unsigned)def->restitutionMix < (unsigned)tbMix_ruleCount && tbIsValidFloat( def->maxLinearSpeed ) &&
		   def->maxLinearSpeed > 0.0f && def->maxLinearSpeed <= TB_MAX_SPEED && def->workerCount >= 1 &&
		   def->workerCount <= TB_MAX_WORKERS;
}

tbWorld* tbGetWorldFromTag( int worldTag )
{
	int index = worldTag & ( TB_MAX_WORLDS - 1 );
	tbWorld* world = s_worlds[index];
	return world != NULL && world->worldTag == worldTag ? world : NULL;
}

tbWorld* tbGetWorldFromId( tbWorldId id )
{
	if ( id.index1 < 1 || id.index1 > TB_MAX_WORLDS )
	{
		return NULL;
	}
	tbWorld* world = s_worlds[id.index1 - 1];
	if ( world == NULL || world->generation != id.generation )
	{
		return NULL;
	}
	return world;
}

bool tbEnsureCapacity( void** data, int count, int* capacity, size_t elemSize )
{
	if ( count < *capacity )
	{
		return true;
	}
	int newCapacity = *capacity < 16 ? 16 : 2 * *capacity;
	void* grown = tbGrowAlloc( *data, elemSize * (size_t)*capacity, elemSize * (size_t)newCapacity );
	if ( grown == NULL )
	{
		return false;
	}
	*data = grown;
	*capacity = newCapacity;
	return true;
}

int tbGetWorldCount( void )
{
	int count = 0;
	for ( int i = 0; i < TB_MAX_WORLDS; ++i )
	{
		count += s_worlds[i] != NULL;
	}
	return count;
}

tbResult tbCreateWorldChecked( const tbWorldDef* def, tbWorldId* outId )
{
	*outId = tb_nullWorldId;
	if ( def == NULL || def->internalValue != TB_SECRET_COOKIE || !tbIsValidSettings( def ) )
	{
		return tbResult_invalidArgument;
	}
	int index = -1;
	for ( int i = 0; i < TB_MAX_WORLDS; ++i )
	{
		if ( s_worlds[i] == NULL )
		{
			index = i;
			break;
		}
	}
	if ( index < 0 )
	{
		return tbResult_outOfMemory;
	}

	tbWorld* world = tbAlloc( sizeof( tbWorld ) );
	if ( world == NULL )
	{
		return tbResult_outOfMemory;
	}
	memset( world, 0, sizeof( *world ) );
	world->worldId = (uint16_t)index;
	world->generation = s_worldGenerations[index];
	// Object ids carry the world's slot and 9 bits of its generation, so an id from a destroyed
	// world is not taken for one of a new world in the same slot (TB_MAX_WORLDS is 2^7).
	world->worldTag = (uint16_t)( index | ( ( world->generation & 0x1FF ) << 7 ) );
	world->def = *def;
	world->bodies.freeList = -1;
	world->shapes.freeList = -1;
	world->contacts.freeList = -1;
	world->joints.freeList = -1;
	world->vehicles.freeList = -1;
	bool made = tbBroadPhase_Create( &world->broadPhase );
	world->pairSet = tbCreateSet( 256 );
	if ( made == false || world->pairSet.keys == NULL )
	{
		if ( made )
		{
			tbBroadPhase_Destroy( &world->broadPhase );
		}
		tbDestroySet( &world->pairSet );
		tbFree( world, sizeof( tbWorld ) );
		return tbResult_outOfMemory;
	}
	// Without the arena's main block (refused) the steps take overflow blocks.
	tbCreateArena( &world->arena, 64 * 1024 );
	// Without threads (creation failed) the world still steps, on the caller's thread only.
	world->jobs = tbCreateJobSystem( def->workerCount );
	s_worlds[index] = world;

	outId->index1 = (uint16_t)( index + 1 );
	outId->generation = world->generation;
	return tbResult_ok;
}

tbWorldId tbCreateWorld( const tbWorldDef* def )
{
	tbWorldId id;
	tbCreateWorldChecked( def, &id );
	return id;
}

void tbDestroyWorld( tbWorldId worldId )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || world->locked )
	{
		return;
	}

	tbDestroyAllJoints( world );
	for ( int i = 0; i < world->shapes.count; ++i )
	{
		tbShape* shape = world->shapes.data + i;
		if ( shape->id >= 0 && shape->type == tbShape_hull )
		{
			tbDestroyHull( shape->hull );
		}
		else if ( shape->id >= 0 )
		{
			tbReleaseSharedGeometry( shape );
		}
	}
	tbFree( world->bodies.data, sizeof( tbBody ) * (size_t)world->bodies.capacity );
	tbFree( world->shapes.data, sizeof( tbShape ) * (size_t)world->shapes.capacity );
	tbFree( world->contacts.data, sizeof( tbContact ) * (size_t)world->contacts.capacity );
	tbFree( world->vehicles.data, sizeof( tbVehicle ) * (size_t)world->vehicles.capacity );
	tbFree( world->beginEvents, sizeof( tbContactBeginEvent ) * (size_t)world->beginCapacity );
	tbFree( world->endEvents, sizeof( tbContactEndEvent ) * (size_t)world->endCapacity );
	tbFree( world->sensorBeginEvents, sizeof( tbSensorEvent ) * (size_t)world->sensorBeginCapacity );
	tbFree( world->sensorEndEvents, sizeof( tbSensorEvent ) * (size_t)world->sensorEndCapacity );
	tbFree( world->breakEvents, sizeof( tbJointBreakEvent ) * (size_t)world->breakCapacity );
	tbFree( world->awakeBodyIds, sizeof( int ) * (size_t)world->awakeBodyCapacity );
	tbBroadPhase_Destroy( &world->broadPhase );
	tbDestroySet( &world->pairSet );
	tbDestroyArena( &world->arena );
	tbDestroyJobSystem( world->jobs );

	int index = world->worldId;
	s_worlds[index] = NULL;
	s_worldGenerations[index] += 1;
	tbFree( world, sizeof( tbWorld ) );
}

bool tbWorld_IsValid( tbWorldId worldId )
{
	return tbGetWorldFromId( worldId ) != NULL;
}

// Events -----------------------------------------------------------------------------------------

#define TB_PUSH_EVENT( array, count, capacity, type, ev )                                                             \
	do                                                                                                                 \
	{                                                                                                                  \
		void* data_ = ( array );                                                                                       \
		if ( tbEnsureCapacity( &data_, ( count ), &( capacity ), sizeof( type ) ) )                                    \
		{                                                                                                              \
			( array ) = data_;                                                                                         \
			( array )[( count )++] = *( ev );                                                                          \
		}                                                                                                              \
		else                                                                                                           \
		{                                                                                                              \
			world->allocationFailures += 1; /* the event is dropped */                                                 \
		}                                                                                                              \
	}                                                                                                                  \
	while ( 0 )

void tbPushContactBegin( tbWorld* world, const tbContactBeginEvent* ev )
{
	TB_PUSH_EVENT( world->beginEvents, world->beginCount, world->beginCapacity, tbContactBeginEvent, ev );
}

void tbReportContactBegin( tbWorld* world, const tbShape* shapeA, const tbShape* shapeB, tbVec3 normal, tbVec3 point )
{
	tbContactBeginEvent ev;
	ev.shapeA = tbMakeShapeId( world, shapeA );
	ev.shapeB = tbMakeShapeId( world, shapeB );
	ev.normal = normal;
	ev.point = point;
	tbVec3 vA = tbBody_GetPointVelocity( tbMakeBodyId( world, world->bodies.data + shapeA->bodyId ), point );
	tbVec3 vB = tbBody_GetPointVelocity( tbMakeBodyId( world, world->bodies.data + shapeB->bodyId ), point );
	ev.approachSpeed = -tbDot( tbSub( vB, vA ), normal );
	tbPushContactBegin( world, &ev );
}

// End events pushed after a step (a body destroyed before the next one) belong to the next step:
// its start drops the `stepCount` events of the last step and moves the later ones to the front.
// Returns the number kept.
static int tbKeepLaterEvents( void* events, size_t size, int count, int stepCount )
{
	int later = count - stepCount;
	if ( later > 0 && stepCount > 0 )
	{
		memmove( events, (char*)events + size * (size_t)stepCount, size * (size_t)later );
	}
	return later > 0 ? later : 0;
}

static void tbMarkStepEvents( tbWorld* world )
{
	world->endStepCount = world->endCount;
	world->sensorEndStepCount = world->sensorEndCount;
}

void tbPushContactEnd( tbWorld* world, const tbContactEndEvent* ev )
{
	TB_PUSH_EVENT( world->endEvents, world->endCount, world->endCapacity, tbContactEndEvent, ev );
}

void tbPushSensorEvent( tbWorld* world, const tbSensorEvent* ev, bool begin )
{
	if ( begin )
	{
		TB_PUSH_EVENT( world->sensorBeginEvents, world->sensorBeginCount, world->sensorBeginCapacity, tbSensorEvent, ev );
	}
	else
	{
		TB_PUSH_EVENT( world->sensorEndEvents, world->sensorEndCount, world->sensorEndCapacity, tbSensorEvent, ev );
	}
}

void tbPushJointBreak( tbWorld* world, const tbJointBreakEvent* ev )
{
	TB_PUSH_EVENT( world->breakEvents, world->breakCount, world->breakCapacity, tbJointBreakEvent, ev );
}

tbContactEvents tbWorld_GetContactEvents( tbWorldId worldId )
{
	tbContactEvents events = { 0 };
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		return events;
	}
	events.beginEvents = world->beginEvents;
	events.beginCount = world->beginCount;
	events.endEvents = world->endEvents;
	events.endCount = world->endCount;
	return events;
}

tbSensorEvents tbWorld_GetSensorEvents( tbWorldId worldId )
{
	tbSensorEvents events = { 0 };
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		return events;
	}
	events.beginEvents = world->sensorBeginEvents;
	events.beginCount = world->sensorBeginCount;
	events.endEvents = world->sensorEndEvents;
	events.endCount = world->sensorEndCount;
	return events;
}

tbJointBreakEvents tbWorld_GetJointBreakEvents( tbWorldId worldId )
{
	tbJointBreakEvents events = { 0 };
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		return events;
	}
	events.events = world->breakEvents;
	events.count = world->breakCount;
	return events;
}

// Settings ---------------------------------------------------------------------------------------

// A body asleep under the old gravity may not be at rest under a new one: changing it wakes them.
static bool tbGravityChanges( const tbWorld* world, tbVec3 gravity )
{
	return gravity.x != world->def.gravity.x || gravity.y != world->def.gravity.y || gravity.z != world->def.gravity.z;
}

tbResult tbWorld_SetGravity( tbWorldId worldId, tbVec3 gravity )
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
	if ( !tbIsBoundedVec3( gravity, TB_MAX_GRAVITY ) )
	{
		return tbResult_invalidArgument;
	}
	bool changed = tbGravityChanges( world, gravity );
	world->def.gravity = gravity;
	if ( changed )
	{
		tbWakeAllBodies( world );
	}
	return tbResult_ok;
}

tbVec3 tbWorld_GetGravity( tbWorldId worldId )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	return world != NULL ? world->def.gravity : tb_vec3_zero;
}

tbResult tbWorld_SetSolver( tbWorldId worldId, const tbWorldDef* settings )
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
	if ( settings == NULL || !tbIsValidSettings( settings ) )
	{
		return tbResult_invalidArgument;
	}
	bool wasSleeping = world->def.enableSleep;
	// (Compared with the running threads: a snapshot restore may have changed def.workerCount.)
	if ( settings->workerCount != tbGetWorkerCount( world->jobs ) )
	{
		tbDestroyJobSystem( world->jobs );
		world->jobs = tbCreateJobSystem( settings->workerCount );
	}
	bool gravityChanged = tbGravityChanges( world, settings->gravity );
	world->def = *settings;
	world->def.internalValue = TB_SECRET_COOKIE;
	if ( ( wasSleeping && !settings->enableSleep ) || gravityChanged )
	{
		tbWakeAllBodies( world );
	}
	return tbResult_ok;
}

tbWorldDef tbWorld_GetSettings( tbWorldId worldId )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	return world != NULL ? world->def : tbDefaultWorldDef();
}

void tbWorld_EnableSleeping( tbWorldId worldId, bool flag )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || world->locked )
	{
		return;
	}
	world->def.enableSleep = flag;
	if ( !flag )
	{
		tbWakeAllBodies( world );
	}
}

bool tbWorld_IsLocked( tbWorldId worldId )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	return world != NULL && world->locked;
}

tbWorldCounters tbWorld_GetCounters( tbWorldId worldId )
{
	tbWorldCounters c = { 0 };
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		return c;
	}
	c = world->counters;
	c.bodyCount = world->bodies.liveCount;
	c.shapeCount = world->shapes.liveCount;
	c.pairCount = world->contacts.liveCount;
	c.jointCount = world->joints.liveCount;
	c.treeHeight = tbDynamicTree_GetHeight( &world->broadPhase.trees[tbBody_dynamic] );
	c.allocationCount = tbGetAllocationCount();
	return c;
}

// The step ---------------------------------------------------------------------------------------

typedef struct tbPairContext
{
	tbWorld* world;
} tbPairContext;

// Broad-phase callback for a new overlapping proxy pair: create a contact unless filtered out.
static bool tbPairCallback( int32_t shapeIdA, int32_t shapeIdB, void* context )
{
	tbWorld* world = context;
	tbShape* shapeA = world->shapes.data + shapeIdA;
	tbShape* shapeB = world->shapes.data + shapeIdB;
	if ( shapeA->bodyId == shapeB->bodyId || !tbShouldShapesCollide( shapeA, shapeB ) )
	{
		return true;
	}
	tbBody* bodyA = world->bodies.data + shapeA->bodyId;
	tbBody* bodyB = world->bodies.data + shapeB->bodyId;
	if ( bodyA->type != tbBody_dynamic && bodyB->type != tbBody_dynamic )
	{
		return true;
	}
	if ( tbShouldJointedBodiesCollide( world, shapeA->bodyId, shapeB->bodyId ) == false )
	{
		return true;
	}
	uint64_t key = TB_SHAPE_PAIR_KEY( shapeIdA, shapeIdB );
	if ( tbContainsKey( &world->pairSet, key ) )
	{
		return true;
	}
	// Order the pair so results do not depend on which proxy moved: lower shape id is A.
	if ( shapeIdA < shapeIdB )
	{
		return tbCreateContact( world, shapeIdA, shapeIdB );
	}
	else
	{
		return tbCreateContact( world, shapeIdB, shapeIdA );
	}
}

// Narrow phase, in two passes. The parallel pass updates the manifold of every contact with an
// awake body whose fat boxes still overlap; each contact writes only itself. The serial pass then
// walks the contacts in index order for what touches shared state: destroying contacts, waking
// bodies, events and counters. A body woken by that pass makes its later contacts active; those
// are updated there and then, as the single-threaded loop did, so the outcome does not depend on
// the worker count.

enum
{
	tbCollide_skipped = 0, ///< both bodies inactive when the step began
	tbCollide_separated,   ///< fat boxes apart: destroy
	tbCollide_updated,     ///< manifold updated; wasTouching in bit 2
	tbCollide_wasTouching = 4,
};

#define TB_COLLIDE_BLOCK_SIZE 16

typedef struct tbCollideTask
{
	tbWorld* world;
	float timeStep;
	uint8_t* results;
	bool mayDisable; ///< a pre-solve rule may drop contacts this step (tbPreSolveContact)
} tbCollideTask;

static bool tbIsActiveBody( const tbBody* body )
{
	return body->awake && body->type != tbBody_static;
}

static uint8_t tbUpdateContactPass( const tbCollideTask* task, tbContact* contact, float timeStep )
{
	tbWorld* world = task->world;
	tbShape* shapeA = world->shapes.data + contact->shapeIdA;
	tbShape* shapeB = world->shapes.data + contact->shapeIdB;
	if ( tbAABB_Overlaps( shapeA->fatAABB, shapeB->fatAABB ) == false )
	{
		return tbCollide_separated;
	}
	uint8_t wasTouching = ( contact->flags & tbContact_touching ) != 0 ? tbCollide_wasTouching : 0;
	tbUpdateContact( world, contact, timeStep );
	if ( task->mayDisable )
	{
		tbPreSolveContact( world, contact );
	}
	return (uint8_t)( tbCollide_updated | wasTouching );
}

static void tbCollideBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	tbCollideTask* task = context;
	tbWorld* world = task->world;
	for ( int i = start; i < end; ++i )
	{
		tbContact* contact = world->contacts.data + i;
		uint8_t result = tbCollide_skipped;
		if ( contact->id >= 0 )
		{
			const tbBody* bodyA = world->bodies.data + world->shapes.data[contact->shapeIdA].bodyId;
			const tbBody* bodyB = world->bodies.data + world->shapes.data[contact->shapeIdB].bodyId;
			if ( tbIsActiveBody( bodyA ) || tbIsActiveBody( bodyB ) )
			{
				result = tbUpdateContactPass( task, contact, task->timeStep );
			}
		}
		task->results[i] = result;
	}
}

static void tbCollide( tbWorld* world, float timeStep )
{
	int count = world->contacts.count;
	tbCollideTask task = { world, timeStep, TB_ARENA_ARRAY( &world->arena, uint8_t, count > 0 ? count : 1 ), false };
	// Whether any pair can be dropped by a one-way body or the pre-solve hook: one look at the
	// bodies spares every contact the look at its shapes and bodies (ragdolls: 1.2 % of a step).
	task.mayDisable = world->preSolveFcn != NULL;
	for ( int i = 0; i < world->bodies.count && task.mayDisable == false; ++i )
	{
		const tbBody* body = world->bodies.data + i;
		task.mayDisable = body->id >= 0 && tbLengthSquared( body->oneWayNormal ) > 0.0f;
	}
	if ( task.results == NULL )
	{
		// No room for the pass's results: the contacts keep last step's manifolds, and the step
		// is not solved (it sees the arena's failure).
		return;
	}
	tbParallelFor( world->jobs, count, TB_COLLIDE_BLOCK_SIZE, tbCollideBlock, &task );

	int touching = 0;
	int reused = 0;
	float maxPen = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		tbContact* contact = world->contacts.data + i;
		if ( contact->id < 0 )
		{
			continue;
		}
		tbShape* shapeA = world->shapes.data + contact->shapeIdA;
		tbShape* shapeB = world->shapes.data + contact->shapeIdB;
		tbBody* bodyA = world->bodies.data + shapeA->bodyId;
		tbBody* bodyB = world->bodies.data + shapeB->bodyId;
		bool activeA = tbIsActiveBody( bodyA );
		bool activeB = tbIsActiveBody( bodyB );
		if ( activeA == false && activeB == false )
		{
			// both asleep (or asleep against static): keep the contact as it is
			if ( contact->flags & tbContact_touching )
			{
				touching += 1;
			}
			continue;
		}

		uint8_t result = task.results[i];
		if ( result == tbCollide_skipped )
		{
			// Woken earlier in this loop.
			result = tbUpdateContactPass( &task, contact, timeStep );
		}
		if ( result == tbCollide_separated )
		{
			tbDestroyContact( world, contact, false );
			continue;
		}

		bool wasTouching = ( result & tbCollide_wasTouching ) != 0;
		bool isTouching = ( contact->flags & tbContact_touching ) != 0;
		if ( isTouching )
		{
			touching += 1;
			reused += ( contact->flags & tbContact_reused ) != 0 ? 1 : 0;
			for ( int p = 0; p < contact->manifold.pointCount; ++p )
			{
				maxPen = tbMaxFloat( maxPen, -contact->manifold.points[p].separation );
			}
			// A touching contact between an awake and a sleeping body wakes the sleeper.
			if ( activeA == false && bodyA->type == tbBody_dynamic )
			{
				tbWakeBody( world, bodyA );
			}
			else if ( activeB == false && bodyB->type == tbBody_dynamic )
			{
				tbWakeBody( world, bodyB );
			}
		}

		if ( isTouching != wasTouching && ( contact->flags & tbContact_enableEvents ) )
		{
			tbShapeId idA = tbMakeShapeId( world, shapeA );
			tbShapeId idB = tbMakeShapeId( world, shapeB );
			if ( contact->flags & tbContact_sensor )
			{
				bool aIsSensor = shapeA->isSensor;
				tbSensorEvent ev = { aIsSensor ? idA : idB, aIsSensor ? idB : idA };
				tbPushSensorEvent( world, &ev, isTouching );
			}
			else if ( isTouching )
			{
				tbVec3 point = contact->manifold.pointCount > 0 ? contact->manifold.points[0].point : tbAABB_Center( shapeA->aabb );
				tbReportContactBegin( world, shapeA, shapeB, contact->manifold.normal, point );
			}
			else
			{
				tbContactEndEvent ev = { idA, idB };
				tbPushContactEnd( world, &ev );
			}
		}
	}
	world->counters.contactCount = touching;
	world->counters.reusedContactCount = reused;
	world->counters.maxPenetration = maxPen;
}

static double tbNowMs( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec * 1.0e-6;
}

tbResult tbWorld_Step( tbWorldId worldId, float timeStep )
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
	if ( !tbIsValidFloat( timeStep ) || timeStep < 0.0f || timeStep > 1.0f )
	{
		return tbResult_invalidArgument;
	}

	double start = tbNowMs();
	world->beginCount = 0;
	world->endCount = tbKeepLaterEvents( world->endEvents, sizeof( tbContactEndEvent ), world->endCount, world->endStepCount );
	world->sensorBeginCount = 0;
	world->sensorEndCount =
		tbKeepLaterEvents( world->sensorEndEvents, sizeof( tbSensorEvent ), world->sensorEndCount, world->sensorEndStepCount );
	world->breakCount = 0;
	world->allocationFailures = 0;
	world->broadPhase.allocationFailures = 0;
	world->broadPhase.moveSet.growFailures = 0;
	world->pairSet.growFailures = 0;
	world->counters.allocationFailures = 0;
	tbArenaReset( &world->arena );

	// Steps shorter than a microsecond are no steps: soft constraint coefficients and 1/h divide
	// by them.
	if ( timeStep < 1.0e-6f )
	{
		tbMarkStepEvents( world );
		return tbResult_ok;
	}

	world->locked = true;

	tbUpdateMovers( world, timeStep );
	// Vehicles cast their wheels against last step's poses and give their chassis this step's
	// suspension and tyre impulses before the solver adds gravity and solves the contacts.
	tbUpdateVehicles( world, timeStep );

	// New pairs from proxies that moved last step (or were created since).
	tbBroadPhase_UpdatePairs( &world->broadPhase, tbPairCallback, world );
	int meshParents = tbUpdateMeshContacts( world, timeStep );
	tbCollide( world, timeStep );
	if ( meshParents > 0 )
	{
		tbFinishMeshContacts( world );
	}

	tbStepContext ctx;
	memset( &ctx, 0, sizeof( ctx ) );
	ctx.world = world;
	ctx.arena = &world->arena;
	ctx.dt = timeStep;
	ctx.inv_dt = 1.0f / timeStep;
	// A step that lost a pair, a contact, a manifold update or a wake-up to a failed allocation is
	// not solved: solving without them would let bodies pass through what they touch. Everything
	// lost is found again by a later step (the broad phase keeps its moves; see tbPairCallback).
	bool complete = world->allocationFailures + world->broadPhase.allocationFailures + world->arena.failCount == 0;
	if ( complete && tbSolve( world, &ctx ) )
	{
		tbUpdateSleep( world, timeStep );
	}

	world->stepIndex += 1;
	world->locked = false;
	world->counters.stepMs = (float)( tbNowMs() - start );
	world->counters.allocationFailures = world->allocationFailures + world->broadPhase.allocationFailures +
										 world->arena.refusedCount + world->broadPhase.moveSet.growFailures +
										 world->pairSet.growFailures;
	tbMarkStepEvents( world );
	return world->counters.allocationFailures > 0 ? tbResult_outOfMemory : tbResult_ok;
}

// Queries ----------------------------------------------------------------------------------------

typedef struct tbRayContext
{
	tbWorld* world;
	tbQueryFilter filter;
	tbCastResultFcn* fcn;
	void* userContext;
	tbVec3 origin;
	tbVec3 translation;
} tbRayContext;

static float tbRayCastCallback( const tbRayCastInput* input, int32_t proxyId, int32_t shapeId, void* context )
{
	TB_UNUSED( proxyId );
	tbRayContext* rc = context;
	tbWorld* world = rc->world;
	tbShape* shape = world->shapes.data + shapeId;
	if ( ( shape->categoryBits & rc->filter.maskBits ) == 0 || ( shape->maskBits & rc->filter.categoryBits ) == 0 )
	{
		return input->maxFraction;
	}
	tbBody* body = world->bodies.data + shape->bodyId;
	tbCastOutput out = tbRayCastShape( shape, body->transform, input->origin, input->translation, input->maxFraction );
	if ( out.hit == false )
	{
		return input->maxFraction;
	}
	return rc->fcn( tbMakeShapeId( world, shape ), out.point, out.normal, out.fraction, rc->userContext );
}

void tbWorld_CastRay( tbWorldId worldId, tbVec3 origin, tbVec3 translation, tbQueryFilter filter,
					  tbCastResultFcn* fcn, void* context )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || fcn == NULL || !tbIsBoundedVec3( origin, TB_MAX_QUERY_COORDINATE ) ||
		 !tbIsBoundedVec3( translation, TB_MAX_QUERY_COORDINATE ) )
	{
		return;
	}
	tbRayCastInput input = { origin, translation, 1.0f };
	tbRayContext rc = { world, filter, fcn, context, origin, translation };
	// The world is locked while user callbacks run: destroying a body from inside a query would
	// pull shapes out of the tree being walked.
	bool wasLocked = world->locked;
	world->locked = true;
	for ( int t = 0; t < tbBody_typeCount; ++t )
	{
		tbDynamicTree_RayCast( &world->broadPhase.trees[t], &input, filter.maskBits, tbRayCastCallback, &rc );
	}
	world->locked = wasLocked;
}

float tbKeepClosestHit( tbShapeId shapeId, tbVec3 point, tbVec3 normal, float fraction, void* context )
{
	tbRayResult* result = context;
	if ( result->hit && fraction >= result->fraction )
	{
		return result->fraction;
	}
	result->shapeId = shapeId;
	result->bodyId = tbShape_GetBody( shapeId );
	result->point = point;
	result->normal = normal;
	result->fraction = fraction;
	result->hit = true;
	return fraction;
}

tbRayResult tbWorld_CastRayClosest( tbWorldId worldId, tbVec3 origin, tbVec3 translation, tbQueryFilter filter )
{
	tbRayResult result;
	memset( &result, 0, sizeof( result ) );
	tbWorld_CastRay( worldId, origin, translation, filter, tbKeepClosestHit, &result );
	return result;
}

typedef struct tbOverlapContext
{
	tbWorld* world;
	tbQueryFilter filter;
	tbOverlapResultFcn* fcn;
	void* userContext;
	bool exact;
	tbShapeProxy proxy; // world frame query shape when exact
	tbTransform transform;
	bool stop;
	tbAABB aabb; // the query box when not exact (meshes test their triangles' boxes against it)
} tbOverlapContext;

static bool tbStopAtFirstTriangle( int triangleIndex, void* context )
{
	TB_UNUSED( triangleIndex );
	*(bool*)context = true;
	return false;
}

static bool tbOverlapCallback( int32_t proxyId, int32_t shapeId, void* context )
{
	TB_UNUSED( proxyId );
	tbOverlapContext* oc = context;
	tbWorld* world = oc->world;
	tbShape* shape = world->shapes.data + shapeId;
	if ( ( shape->categoryBits & oc->filter.maskBits ) == 0 || ( shape->maskBits & oc->filter.categoryBits ) == 0 )
	{
		return true;
	}
	if ( oc->exact == false && tbIsTriangleShapeType( shape->type ) )
	{
		bool found = false;
		tbQuerySourceTriangles( tbShapeTriangles( shape ), tbWorldBoxToMesh( oc->aabb, world->bodies.data[shape->bodyId].transform ),
					 tbStopAtFirstTriangle, &found );
		if ( found == false )
		{
			return true;
		}
	}
	else if ( oc->exact && tbIsTriangleShapeType( shape->type ) )
	{
		if ( tbMeshOverlapsProxy( tbShapeTriangles( shape ), world->bodies.data[shape->bodyId].transform, &oc->proxy, oc->transform ) == false )
		{
			return true;
		}
	}
	else if ( oc->exact )
	{
		tbBody* body = world->bodies.data + shape->bodyId;
		tbDistanceInput input;
		input.proxyA = tbMakeShapeDistanceProxy( shape );
		input.proxyB = oc->proxy;
		input.transformA = body->transform;
		input.transformB = oc->transform;
		input.useRadii = true;
		tbSimplexCache cache = { 0 };
		tbDistanceOutput out = tbShapeDistance( &input, &cache );
		if ( out.distance > 0.0f )
		{
			return true;
		}
	}
	bool go = oc->fcn( tbMakeShapeId( world, shape ), oc->userContext );
	oc->stop = !go;
	return go;
}

void tbWorld_OverlapAABB( tbWorldId worldId, tbAABB aabb, tbQueryFilter filter, tbOverlapResultFcn* fcn,
						  void* context )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || fcn == NULL || !tbAABB_IsValid( aabb ) )
	{
		return;
	}
	tbOverlapContext oc = { world, filter, fcn, context, false, { .points = NULL }, tb_transformIdentity, false, aabb };
	bool wasLocked = world->locked;
	world->locked = true; // no mutation from query callbacks (see tbWorld_CastRay)
	for ( int t = 0; t < tbBody_typeCount && !oc.stop; ++t )
	{
		tbDynamicTree_Query( &world->broadPhase.trees[t], aabb, filter.maskBits, tbOverlapCallback, &oc );
	}
	world->locked = wasLocked;
}

void tbWorld_OverlapShape( tbWorldId worldId, const tbShapeProxy* proxy, tbTransform transform, tbQueryFilter filter,
						   tbOverlapResultFcn* fcn, void* context )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || fcn == NULL || proxy == NULL || proxy->count < 1 || proxy->points == NULL ||
		 !tbIsValidFloat( proxy->radius ) || proxy->radius < 0.0f || !( proxy->diskRadius >= 0.0f ) ||
		 ( proxy->diskRadius > 0.0f && ( proxy->count != 2 || !tbIsValidVec3( proxy->diskAxis ) ) ) ||
		 !tbIsBoundedVec3( transform.p, TB_MAX_QUERY_COORDINATE ) || !tbIsValidQuat( transform.q ) )
	{
		return;
	}
	tbAABB aabb = tbComputeProxyAABB( proxy, transform );
	if ( !tbAABB_IsValid( aabb ) )
	{
		return;
	}
	tbOverlapContext oc = { world, filter, fcn, context, true, *proxy, transform, false, aabb };
	bool wasLocked = world->locked;
	world->locked = true; // no mutation from query callbacks (see tbWorld_CastRay)
	for ( int t = 0; t < tbBody_typeCount && !oc.stop; ++t )
	{
		tbDynamicTree_Query( &world->broadPhase.trees[t], aabb, filter.maskBits, tbOverlapCallback, &oc );
	}
	world->locked = wasLocked;
}

void tbWorld_OverlapSphere( tbWorldId worldId, tbVec3 center, float radius, tbQueryFilter filter,
							tbOverlapResultFcn* fcn, void* context )
{
	if ( !tbIsValidVec3( center ) )
	{
		return;
	}
	tbShapeProxy proxy = { .points = &center, .count = 1, .radius = radius };
	tbWorld_OverlapShape( worldId, &proxy, tb_transformIdentity, filter, fcn, context );
}

int tbWorld_GetContacts( tbWorldId worldId, tbContactData* out, int capacity )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		return 0;
	}
	int n = 0;
	for ( int i = 0; i < world->contacts.count; ++i )
	{
		if ( world->contacts.data[i].id >= 0 )
		{
			n = tbAppendContactData( world, world->contacts.data + i, out, n, capacity );
		}
	}
	return n;
}

int tbAppendContactData( const tbWorld* world, const tbContact* contact, tbContactData* out, int n, int capacity )
{
	if ( ( contact->flags & tbContact_touching ) == 0 || ( contact->flags & tbContact_sensor ) )
	{
		return n;
	}
	if ( n < capacity && out != NULL )
	{
		out[n].shapeA = tbMakeShapeId( world, world->shapes.data + contact->shapeIdA );
		out[n].shapeB = tbMakeShapeId( world, world->shapes.data + contact->shapeIdB );
		out[n].manifold = contact->manifold;
	}
	return n + 1;
}

int tbWorld_GetBodies( tbWorldId worldId, tbBodyId* out, int capacity )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		return 0;
	}
	int n = 0;
	for ( int i = 0; i < world->bodies.count; ++i )
	{
		tbBody* body = world->bodies.data + i;
		if ( body->id < 0 )
		{
			continue;
		}
		if ( n < capacity && out != NULL )
		{
			out[n] = tbMakeBodyId( world, body );
		}
		n += 1;
	}
	return n;
}

tbBodyId tbWorld_FindBody( tbWorldId worldId, const char* name )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || name == NULL || name[0] == 0 )
	{
		return tb_nullBodyId;
	}
	for ( int i = 0; i < world->bodies.count; ++i )
	{
		tbBody* body = world->bodies.data + i;
		if ( body->id >= 0 && strncmp( body->name, name, TB_NAME_LENGTH ) == 0 )
		{
			return tbMakeBodyId( world, body );
		}
	}
	return tb_nullBodyId;
}

// FNV-1a over the raw bits of the state: equal hashes mean bit-identical states.
static uint64_t tbHashBytes( uint64_t h, const void* data, size_t size )
{
	const unsigned char* p = data;
	for ( size_t i = 0; i < size; ++i )
	{
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

uint64_t tbWorld_GetStateHash( tbWorldId worldId )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		return 0;
	}
	uint64_t h = 14695981039346656037ull;
	for ( int i = 0; i < world->bodies.count; ++i )
	{
		tbBody* body = world->bodies.data + i;
		if ( body->id < 0 )
		{
			continue;
		}
		h = tbHashBytes( h, &body->transform, sizeof( body->transform ) );
		h = tbHashBytes( h, &body->linearVelocity, sizeof( body->linearVelocity ) );
		h = tbHashBytes( h, &body->angularVelocity, sizeof( body->angularVelocity ) );
		h = tbHashBytes( h, &body->awake, sizeof( body->awake ) );
	}
	for ( int i = 0; i < world->contacts.count; ++i )
	{
		tbContact* contact = world->contacts.data + i;
		if ( contact->id < 0 )
		{
			continue;
		}
		for ( int p = 0; p < contact->manifold.pointCount; ++p )
		{
			tbManifoldPoint* mp = contact->manifold.points + p;
			h = tbHashBytes( h, &mp->normalImpulse, sizeof( float ) );
			h = tbHashBytes( h, mp->tangentImpulse, 2 * sizeof( float ) );
		}
	}
	return h;
}
