// Tumble physics: the world: pools of bodies, shapes, contacts and joints, the broad phase and
// the per-step scratch memory.
// SPDX-License-Identifier: MIT
#pragma once

#include "arena.h"
#include "body.h"
#include "broad_phase.h"
#include "contact.h"
#include "global_solver.h"
#include "shape.h"
#include "table.h"
#include "vehicle_internal.h"
#include "tumble/types.h"

typedef struct tbJoint tbJoint;
typedef struct tbJobSystem tbJobSystem;

/// A growable array of T with a free list threaded through T::nextFree (T::id == -1 when free).
#define TB_POOL( T )                                                                                                   \
	struct                                                                                                             \
	{                                                                                                                  \
		T* data;                                                                                                       \
		int count;    /* slots in use or freed: the high-water mark */                                              \
		int capacity;                                                                                                  \
		int freeList; /* -1 when empty */                                                                              \
		int liveCount;                                                                                                 \
	}

typedef struct tbWorld
{
	uint16_t worldId;    ///< index in the world table
	uint16_t generation;
	uint16_t worldTag;   ///< what ids carry in world0: index | generation << 7 (see tbGetWorldFromTag)
	tbWorldDef def;

	TB_POOL( tbBody ) bodies;
	TB_POOL( tbShape ) shapes;
	TB_POOL( tbContact ) contacts;
	TB_POOL( tbJoint ) joints;
	TB_POOL( tbVehicle ) vehicles;

	tbBroadPhase broadPhase;
	tbHashSet pairSet; ///< shape pairs that have a contact
	tbArena arena;
	tbJobSystem* jobs; ///< def.workerCount - 1 threads; NULL with one worker

	// Buffered events of the last step.
	tbContactBeginEvent* beginEvents;
	int beginCount, beginCapacity;
	tbContactEndEvent* endEvents;
	int endCount, endCapacity;
	tbSensorEvent* sensorBeginEvents;
	int sensorBeginCount, sensorBeginCapacity;
	tbSensorEvent* sensorEndEvents;
	int sensorEndCount, sensorEndCapacity;
	tbJointBreakEvent* breakEvents;
	int breakCount, breakCapacity;
	/// The end events of the last step itself; those after them were pushed since, by destroyed
	/// bodies and shapes, and are kept for the next step's events (the step clears the rest).
	int endStepCount, sensorEndStepCount;

	// Scratch kept between steps so steady-state steps do not allocate.
	int* awakeBodyIds;
	int awakeBodyCapacity;

	tbWorldCounters counters;
	/// Allocations refused during the current step outside the arena (pairs, contacts, events,
	/// wake-ups dropped); the arena counts its own.
	int allocationFailures;
	int stepIndex;
	bool locked;

	tbGlobalReport globalReport; ///< the last tbSolver_global step (global_solver.c)

	tbPreSolveFcn* preSolveFcn; ///< may be NULL
	void* preSolveContext;
} tbWorld;

tbWorld* tbGetWorldFromId( tbWorldId id );
/// The world an object id belongs to (its world0 field), or NULL if that world was destroyed, even
/// when a new world took its slot.
tbWorld* tbGetWorldFromTag( int worldTag );
/// Grow an array of elemSize items when count == *capacity (doubling). False when the allocator
/// failed: the array and capacity are as they were.
bool tbEnsureCapacity( void** data, int count, int* capacity, size_t elemSize );
/// Take a free slot from a pool (returns the index, or -1 when the pool's array could not grow).
#define TB_POOL_ALLOC( pool, T, outIndex )                                                                             \
	do                                                                                                                 \
	{                                                                                                                  \
		if ( ( pool ).freeList >= 0 )                                                                                  \
		{                                                                                                              \
			( outIndex ) = ( pool ).freeList;                                                                          \
			( pool ).freeList = ( pool ).data[( outIndex )].nextFree;                                                  \
		}                                                                                                              \
		else                                                                                                           \
		{                                                                                                              \
			void* poolData_ = ( pool ).data;                                                                           \
			( outIndex ) = -1;                                                                                         \
			if ( tbEnsureCapacity( &poolData_, ( pool ).count, &( pool ).capacity, sizeof( T ) ) )                     \
			{                                                                                                          \
				( pool ).data = poolData_;                                                                             \
				( outIndex ) = ( pool ).count++;                                                                       \
				( pool ).data[( outIndex )].generation = 0;                                                            \
			}                                                                                                          \
		}                                                                                                              \
		( pool ).liveCount += ( outIndex ) >= 0 ? 1 : 0;                                                               \
	}                                                                                                                  \
	while ( 0 )

/// Return a slot to its pool, bumping the generation so stale ids fail.
#define TB_POOL_FREE( pool, index )                                                                                    \
	do                                                                                                                 \
	{                                                                                                                  \
		int freeIndex_ = ( index ); /* the argument may be the slot's own id field */                                  \
		( pool ).data[freeIndex_].id = -1;                                                                             \
		( pool ).data[freeIndex_].generation += 1;                                                                     \
		( pool ).data[freeIndex_].nextFree = ( pool ).freeList;                                                        \
		( pool ).freeList = freeIndex_;                                                                                \
		( pool ).liveCount -= 1;                                                                                       \
	}                                                                                                                  \
	while ( 0 )

void tbPushContactBegin( tbWorld* world, const tbContactBeginEvent* ev );
/// A begin event for two shapes touching at point with normal (A to B); the approach speed is taken
/// from the bodies' current velocities at the point.
void tbReportContactBegin( tbWorld* world, const tbShape* shapeA, const tbShape* shapeB, tbVec3 normal, tbVec3 point );
void tbPushContactEnd( tbWorld* world, const tbContactEndEvent* ev );
void tbPushSensorEvent( tbWorld* world, const tbSensorEvent* ev, bool begin );
void tbPushJointBreak( tbWorld* world, const tbJointBreakEvent* ev );
/// A tbCastResultFcn that keeps the closest hit in the tbRayResult at context (clipping the cast
/// to it), for the Closest forms of the ray and shape casts.
/// After a contact's manifold is computed in the narrow phase: the one-way rule of its bodies and
/// the world's pre-solve callback may empty it for this step (presolve.c). Runs on worker threads.
void tbPreSolveContact( tbWorld* world, tbContact* contact );
/// Whether the pre-solve rules may disable a contact of these shapes (a one-way body, a shape
/// with pre-solve events): continuous collision leaves such pairs to the speculative contacts,
/// or a body jumping fast through a platform would be stopped under it.
bool tbMayDisableContact( const tbWorld* world, const tbShape* shapeA, const tbShape* shapeB );
/// Copy a touching, solid contact into out[n] (when n < capacity) for tbWorld_GetContacts and
/// tbBody_GetContactData; returns n + 1, or n for a contact they do not report.
int tbAppendContactData( const tbWorld* world, const tbContact* contact, tbContactData* out, int n, int capacity );
float tbKeepClosestHit( tbShapeId shapeId, tbVec3 point, tbVec3 normal, float fraction, void* context );
