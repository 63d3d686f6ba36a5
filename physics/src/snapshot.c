// Tumble physics: world snapshots. A snapshot is a copy of every array the step reads or writes,
// so restoring it and stepping repeats the original trajectory bit for bit: the pools keep their
// slot order and free lists, the broad-phase trees their node layout, the contacts their
// warm-start impulses and SAT caches.
// SPDX-License-Identifier: MIT
#include "body.h"
#include "contact.h"
#include "core.h"
#include "joint.h"
#include "mesh.h"
#include "mover.h"
#include "shape.h"
#include "tumble/tumble.h"
#include "world.h"

#include <string.h>

typedef struct tbPoolCopy
{
	void* data;
	int count;
	int freeList;
	int liveCount;
	size_t elemSize;
} tbPoolCopy;

typedef struct tbTreeCopy
{
	tbDynamicTree tree; ///< header; nodes points to the copy
} tbTreeCopy;

struct tbSnapshot
{
	uint16_t worldId;
	uint16_t worldGeneration;
	tbWorldDef def;
	int stepIndex;
	tbWorldCounters counters;
	tbPoolCopy bodies, shapes, contacts, joints, vehicles;
	tbHull** hulls; ///< per shape slot: a clone for live hull shapes, else NULL
	tbTreeCopy trees[tbBody_typeCount];
	int32_t* moveBuffer;
	int moveCount;
	tbHashSet moveSet;
	tbHashSet pairSet;
	tbMoverSnapshot* movers;
	size_t byteCount;
};

static void* tbCopyBytes( const void* src, size_t size, size_t* total )
{
	if ( size == 0 )
	{
		return NULL;
	}
	void* dst = tbAlloc( size );
	memcpy( dst, src, size );
	*total += size;
	return dst;
}

#define TB_COPY_POOL( out, pool, T, total )                                                                            \
	do                                                                                                                 \
	{                                                                                                                  \
		( out ).elemSize = sizeof( T );                                                                                \
		( out ).count = ( pool ).count;                                                                                \
		( out ).freeList = ( pool ).freeList;                                                                          \
		( out ).liveCount = ( pool ).liveCount;                                                                        \
		( out ).data = tbCopyBytes( ( pool ).data, sizeof( T ) * (size_t)( pool ).count, ( total ) );                  \
	}                                                                                                                  \
	while ( 0 )

// Replace a pool's contents with a copy; the array gets at least 16 slots so the pool can grow
// the usual way afterwards.
#define TB_RESTORE_POOL( pool, in, T )                                                                                 \
	do                                                                                                                 \
	{                                                                                                                  \
		tbFree( ( pool ).data, sizeof( T ) * (size_t)( pool ).capacity );                                              \
		int capacity_ = ( in ).count > 16 ? ( in ).count : 16;                                                         \
		( pool ).data = tbAlloc( sizeof( T ) * (size_t)capacity_ );                                                    \
		if ( ( in ).count > 0 )                                                                                        \
		{                                                                                                              \
			memcpy( ( pool ).data, ( in ).data, sizeof( T ) * (size_t)( in ).count );                                  \
		}                                                                                                              \
		( pool ).capacity = capacity_;                                                                                 \
		( pool ).count = ( in ).count;                                                                                 \
		( pool ).freeList = ( in ).freeList;                                                                           \
		( pool ).liveCount = ( in ).liveCount;                                                                         \
	}                                                                                                                  \
	while ( 0 )

static tbHashSet tbCopySet( const tbHashSet* set, size_t* total )
{
	tbHashSet copy = *set;
	copy.keys = tbCopyBytes( set->keys, sizeof( uint64_t ) * (size_t)set->capacity, total );
	return copy;
}

static void tbRestoreSet( tbHashSet* set, const tbHashSet* copy )
{
	tbFree( set->keys, sizeof( uint64_t ) * (size_t)set->capacity );
	*set = *copy;
	set->keys = tbAlloc( sizeof( uint64_t ) * (size_t)copy->capacity );
	memcpy( set->keys, copy->keys, sizeof( uint64_t ) * (size_t)copy->capacity );
}

tbSnapshot* tbWorld_TakeSnapshot( tbWorldId worldId )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || world->locked )
	{
		return NULL;
	}
	tbSnapshot* snap = tbAlloc( sizeof( tbSnapshot ) );
	memset( snap, 0, sizeof( *snap ) );
	size_t total = sizeof( tbSnapshot );
	snap->worldId = world->worldId;
	snap->worldGeneration = world->generation;
	snap->def = world->def;
	snap->stepIndex = world->stepIndex;
	snap->counters = world->counters;
	TB_COPY_POOL( snap->bodies, world->bodies, tbBody, &total );
	TB_COPY_POOL( snap->shapes, world->shapes, tbShape, &total );
	TB_COPY_POOL( snap->contacts, world->contacts, tbContact, &total );
	TB_COPY_POOL( snap->joints, world->joints, tbJoint, &total );
	TB_COPY_POOL( snap->vehicles, world->vehicles, tbVehicle, &total );
	// A custom joint's rows are owned by the joint: the snapshot's copy gets a clone.
	for ( int i = 0; i < snap->joints.count; ++i )
	{
		tbJoint* joint = (tbJoint*)snap->joints.data + i;
		if ( joint->id >= 0 && joint->type == tbJoint_custom )
		{
			joint->custom = tbCopyBytes( joint->custom, sizeof( tbCustomJointData ), &total );
		}
	}

	// Hull geometry is owned by its shape: keep a clone per live hull shape.
	if ( world->shapes.count > 0 )
	{
		snap->hulls = tbAlloc( sizeof( tbHull* ) * (size_t)world->shapes.count );
		total += sizeof( tbHull* ) * (size_t)world->shapes.count;
		for ( int i = 0; i < world->shapes.count; ++i )
		{
			const tbShape* shape = world->shapes.data + i;
			snap->hulls[i] = NULL;
			if ( shape->id >= 0 && shape->type == tbShape_hull )
			{
				snap->hulls[i] = tbCloneHull( shape->hull );
				total += (size_t)shape->hull->byteCount;
			}
			else if ( shape->id >= 0 && shape->type == tbShape_mesh )
			{
				// Meshes never change after creation: the snapshot shares the shape's (the
				// pointer in its shape copy) and holds a reference.
				tbRetainMesh( shape->mesh );
			}
		}
	}

	const tbBroadPhase* bp = &world->broadPhase;
	for ( int t = 0; t < tbBody_typeCount; ++t )
	{
		snap->trees[t].tree = bp->trees[t];
		snap->trees[t].tree.nodes =
			tbCopyBytes( bp->trees[t].nodes, sizeof( tbTreeNode ) * (size_t)bp->trees[t].nodeCapacity, &total );
	}
	snap->moveCount = bp->moveCount;
	snap->moveBuffer = tbCopyBytes( bp->moveBuffer, sizeof( int32_t ) * (size_t)bp->moveCount, &total );
	snap->moveSet = tbCopySet( &bp->moveSet, &total );
	snap->pairSet = tbCopySet( &world->pairSet, &total );
	snap->movers = tbSnapshotMovers( world );
	snap->byteCount = total;
	return snap;
}

tbResult tbWorld_RestoreSnapshot( tbWorldId worldId, const tbSnapshot* snap )
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
	if ( snap == NULL || snap->worldId != world->worldId || snap->worldGeneration != world->generation )
	{
		return tbResult_invalidArgument;
	}

	// Free the hulls of the shapes alive now; the snapshot's come back as fresh clones.
	for ( int i = 0; i < world->shapes.count; ++i )
	{
		tbShape* shape = world->shapes.data + i;
		if ( shape->id >= 0 && shape->type == tbShape_hull )
		{
			tbDestroyHull( shape->hull );
			shape->hull = NULL;
		}
		else if ( shape->id >= 0 && shape->type == tbShape_mesh )
		{
			tbReleaseMesh( shape->mesh );
			shape->mesh = NULL;
		}
	}

	world->def = snap->def;
	world->stepIndex = snap->stepIndex;
	world->counters = snap->counters;
	TB_RESTORE_POOL( world->bodies, snap->bodies, tbBody );
	TB_RESTORE_POOL( world->shapes, snap->shapes, tbShape );
	TB_RESTORE_POOL( world->contacts, snap->contacts, tbContact );
	for ( int i = 0; i < world->joints.count; ++i )
	{
		tbJoint* joint = world->joints.data + i;
		if ( joint->id >= 0 && joint->type == tbJoint_custom )
		{
			tbFree( joint->custom, sizeof( tbCustomJointData ) );
		}
	}
	TB_RESTORE_POOL( world->joints, snap->joints, tbJoint );
	// A world that never had a vehicle keeps its pool empty (no 16-slot array for nothing).
	if ( snap->vehicles.count > 0 || world->vehicles.data != NULL )
	{
		TB_RESTORE_POOL( world->vehicles, snap->vehicles, tbVehicle );
	}
	for ( int i = 0; i < world->joints.count; ++i )
	{
		tbJoint* joint = world->joints.data + i;
		if ( joint->id >= 0 && joint->type == tbJoint_custom )
		{
			size_t ignored = 0;
			joint->custom = tbCopyBytes( joint->custom, sizeof( tbCustomJointData ), &ignored );
		}
	}
	for ( int i = 0; i < world->shapes.count; ++i )
	{
		tbShape* shape = world->shapes.data + i;
		if ( shape->id >= 0 && shape->type == tbShape_hull )
		{
			shape->hull = tbCloneHull( snap->hulls[i] );
		}
		else if ( shape->id >= 0 && shape->type == tbShape_mesh )
		{
			tbRetainMesh( shape->mesh ); // the pointer came back with the shape copy
		}
	}

	tbBroadPhase* bp = &world->broadPhase;
	for ( int t = 0; t < tbBody_typeCount; ++t )
	{
		tbFree( bp->trees[t].nodes, sizeof( tbTreeNode ) * (size_t)bp->trees[t].nodeCapacity );
		bp->trees[t] = snap->trees[t].tree;
		size_t size = sizeof( tbTreeNode ) * (size_t)snap->trees[t].tree.nodeCapacity;
		bp->trees[t].nodes = tbAlloc( size );
		memcpy( bp->trees[t].nodes, snap->trees[t].tree.nodes, size );
	}
	if ( snap->moveCount > bp->moveCapacity )
	{
		tbFree( bp->moveBuffer, sizeof( int32_t ) * (size_t)bp->moveCapacity );
		bp->moveBuffer = tbAlloc( sizeof( int32_t ) * (size_t)snap->moveCount );
		bp->moveCapacity = snap->moveCount;
	}
	if ( snap->moveCount > 0 )
	{
		memcpy( bp->moveBuffer, snap->moveBuffer, sizeof( int32_t ) * (size_t)snap->moveCount );
	}
	bp->moveCount = snap->moveCount;
	bp->pairCount = 0;
	tbRestoreSet( &bp->moveSet, &snap->moveSet );
	tbRestoreSet( &world->pairSet, &snap->pairSet );
	tbRestoreMovers( world, snap->movers );

	world->beginCount = 0;
	world->endCount = 0;
	world->sensorBeginCount = 0;
	world->sensorEndCount = 0;
	world->breakCount = 0;
	world->endStepCount = 0;
	world->sensorEndStepCount = 0;
	return tbResult_ok;
}

void tbDestroySnapshot( tbSnapshot* snap )
{
	if ( snap == NULL )
	{
		return;
	}
	const tbShape* shapes = snap->shapes.data;
	for ( int i = 0; i < snap->shapes.count; ++i )
	{
		if ( shapes[i].id >= 0 && shapes[i].type == tbShape_mesh )
		{
			tbReleaseMesh( shapes[i].mesh );
		}
	}
	tbFree( snap->bodies.data, snap->bodies.elemSize * (size_t)snap->bodies.count );
	tbFree( snap->shapes.data, snap->shapes.elemSize * (size_t)snap->shapes.count );
	tbFree( snap->contacts.data, snap->contacts.elemSize * (size_t)snap->contacts.count );
	const tbJoint* joints = snap->joints.data;
	for ( int i = 0; i < snap->joints.count; ++i )
	{
		if ( joints[i].id >= 0 && joints[i].type == tbJoint_custom )
		{
			tbFree( joints[i].custom, sizeof( tbCustomJointData ) );
		}
	}
	tbFree( snap->joints.data, snap->joints.elemSize * (size_t)snap->joints.count );
	tbFree( snap->vehicles.data, snap->vehicles.elemSize * (size_t)snap->vehicles.count );
	if ( snap->hulls != NULL )
	{
		for ( int i = 0; i < snap->shapes.count; ++i )
		{
			tbDestroyHull( snap->hulls[i] );
		}
		tbFree( snap->hulls, sizeof( tbHull* ) * (size_t)snap->shapes.count );
	}
	for ( int t = 0; t < tbBody_typeCount; ++t )
	{
		tbFree( snap->trees[t].tree.nodes, sizeof( tbTreeNode ) * (size_t)snap->trees[t].tree.nodeCapacity );
	}
	tbFree( snap->moveBuffer, sizeof( int32_t ) * (size_t)snap->moveCount );
	tbFree( snap->moveSet.keys, sizeof( uint64_t ) * (size_t)snap->moveSet.capacity );
	tbFree( snap->pairSet.keys, sizeof( uint64_t ) * (size_t)snap->pairSet.capacity );
	tbFreeMoverSnapshot( snap->movers );
	tbFree( snap, sizeof( tbSnapshot ) );
}

size_t tbSnapshot_GetByteCount( const tbSnapshot* snap )
{
	return snap != NULL ? snap->byteCount : 0;
}
