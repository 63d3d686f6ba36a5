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

// What a snapshot counts while it is taken: its bytes, and whether every allocation was granted.
typedef struct tbTally
{
	size_t total;
	bool ok;
} tbTally;

// A copy of size bytes, NULL for 0; NULL, tally->ok false, when the allocation was refused.
static void* tbCopyBytes( const void* src, size_t size, tbTally* tally )
{
	if ( size == 0 )
	{
		return NULL;
	}
	void* dst = tbAlloc( size );
	if ( dst == NULL )
	{
		tally->ok = false;
		return NULL;
	}
	memcpy( dst, src, size );
	tally->total += size;
	return dst;
}

#define TB_COPY_POOL( out, pool, T, tally )                                                                            \
	do                                                                                                                 \
	{                                                                                                                  \
		( out ).elemSize = sizeof( T );                                                                                \
		( out ).count = ( pool ).count;                                                                                \
		( out ).freeList = ( pool ).freeList;                                                                          \
		( out ).liveCount = ( pool ).liveCount;                                                                        \
		( out ).data = tbCopyBytes( ( pool ).data, sizeof( T ) * (size_t)( pool ).count, ( tally ) );                  \
	}                                                                                                                  \
	while ( 0 )

static tbHashSet tbCopySet( const tbHashSet* set, tbTally* tally )
{
	tbHashSet copy = *set;
	copy.keys = tbCopyBytes( set->keys, sizeof( uint64_t ) * (size_t)set->capacity, tally );
	return copy;
}

// What a restore allocates before it touches the world: the pools' arrays (at least 16 slots, so
// a pool grows the usual way afterwards) with the hull clones and custom rows their objects own,
// the trees' nodes, the move buffer when the world's is too small, the sets' slots and the movers.
typedef struct tbRestoreStage
{
	void* bodies;
	void* shapes;
	void* contacts;
	void* joints;
	void* vehicles; ///< NULL when neither the world nor the snapshot has a vehicle
	tbTreeNode* nodes[tbBody_typeCount];
	int32_t* moveBuffer; ///< NULL when the world's buffer holds the snapshot's moves
	uint64_t* moveKeys;
	uint64_t* pairKeys;
	tbMoverSnapshot* movers;
} tbRestoreStage;

static int tbPoolCapacity( const tbPoolCopy* in )
{
	return in->count > 16 ? in->count : 16;
}

// A block of allocBytes holding a copy of copyBytes from src. True for allocBytes 0 (no block).
static bool tbStageCopy( void** out, const void* src, size_t copyBytes, size_t allocBytes )
{
	*out = NULL;
	if ( allocBytes == 0 )
	{
		return true;
	}
	*out = tbAlloc( allocBytes );
	if ( *out == NULL )
	{
		return false;
	}
	if ( copyBytes > 0 )
	{
		memcpy( *out, src, copyBytes );
	}
	return true;
}

static bool tbStagePool( void** out, const tbPoolCopy* in )
{
	return tbStageCopy( out, in->data, in->elemSize * (size_t)in->count, in->elemSize * (size_t)tbPoolCapacity( in ) );
}

static void tbFreeStage( tbRestoreStage* stage, const tbSnapshot* snap )
{
	// The staged shapes and joints own their clones (NULL where one was refused).
	tbShape* shapes = stage->shapes;
	for ( int i = 0; shapes != NULL && i < snap->shapes.count; ++i )
	{
		if ( shapes[i].id >= 0 && shapes[i].type == tbShape_hull )
		{
			tbDestroyHull( shapes[i].hull );
		}
	}
	tbJoint* joints = stage->joints;
	for ( int i = 0; joints != NULL && i < snap->joints.count; ++i )
	{
		if ( joints[i].id >= 0 && joints[i].type == tbJoint_custom )
		{
			tbFree( joints[i].custom, sizeof( tbCustomJointData ) );
		}
	}
	tbFree( stage->bodies, snap->bodies.elemSize * (size_t)tbPoolCapacity( &snap->bodies ) );
	tbFree( stage->shapes, snap->shapes.elemSize * (size_t)tbPoolCapacity( &snap->shapes ) );
	tbFree( stage->contacts, snap->contacts.elemSize * (size_t)tbPoolCapacity( &snap->contacts ) );
	tbFree( stage->joints, snap->joints.elemSize * (size_t)tbPoolCapacity( &snap->joints ) );
	tbFree( stage->vehicles, snap->vehicles.elemSize * (size_t)tbPoolCapacity( &snap->vehicles ) );
	for ( int t = 0; t < tbBody_typeCount; ++t )
	{
		tbFree( stage->nodes[t], sizeof( tbTreeNode ) * (size_t)snap->trees[t].tree.nodeCapacity );
	}
	tbFree( stage->moveBuffer, sizeof( int32_t ) * (size_t)snap->moveCount );
	tbFree( stage->moveKeys, sizeof( uint64_t ) * (size_t)snap->moveSet.capacity );
	tbFree( stage->pairKeys, sizeof( uint64_t ) * (size_t)snap->pairSet.capacity );
	tbFreeMoverSnapshot( stage->movers );
}

// False when an allocation was refused; the stage then holds what was granted, for tbFreeStage.
static bool tbStageRestore( tbRestoreStage* stage, const tbWorld* world, const tbSnapshot* snap )
{
	memset( stage, 0, sizeof( *stage ) );
	bool ok = tbStagePool( &stage->bodies, &snap->bodies );
	ok = tbStagePool( &stage->shapes, &snap->shapes ) && ok;
	ok = tbStagePool( &stage->contacts, &snap->contacts ) && ok;
	ok = tbStagePool( &stage->joints, &snap->joints ) && ok;
	// A world that never had a vehicle keeps its pool empty (no 16-slot array for nothing).
	if ( snap->vehicles.count > 0 || world->vehicles.data != NULL )
	{
		ok = tbStagePool( &stage->vehicles, &snap->vehicles ) && ok;
	}

	// Every clone is attempted, so each owning field is a clone or NULL, never the snapshot's.
	tbShape* shapes = stage->shapes;
	for ( int i = 0; shapes != NULL && i < snap->shapes.count; ++i )
	{
		if ( shapes[i].id >= 0 && shapes[i].type == tbShape_hull )
		{
			shapes[i].hull = tbCloneHull( snap->hulls[i] );
			ok = ok && shapes[i].hull != NULL;
		}
	}
	tbJoint* joints = stage->joints;
	for ( int i = 0; joints != NULL && i < snap->joints.count; ++i )
	{
		if ( joints[i].id >= 0 && joints[i].type == tbJoint_custom )
		{
			const tbCustomJointData* rows = joints[i].custom;
			void* copy;
			ok = tbStageCopy( &copy, rows, sizeof( tbCustomJointData ), sizeof( tbCustomJointData ) ) && ok;
			joints[i].custom = copy;
		}
	}

	for ( int t = 0; t < tbBody_typeCount; ++t )
	{
		size_t size = sizeof( tbTreeNode ) * (size_t)snap->trees[t].tree.nodeCapacity;
		void* nodes;
		ok = tbStageCopy( &nodes, snap->trees[t].tree.nodes, size, size ) && ok;
		stage->nodes[t] = nodes;
	}
	if ( snap->moveCount > world->broadPhase.moveCapacity )
	{
		void* buffer;
		ok = tbStageCopy( &buffer, NULL, 0, sizeof( int32_t ) * (size_t)snap->moveCount ) && ok;
		stage->moveBuffer = buffer;
	}
	void* keys;
	size_t size = sizeof( uint64_t ) * (size_t)snap->moveSet.capacity;
	ok = tbStageCopy( &keys, snap->moveSet.keys, size, size ) && ok;
	stage->moveKeys = keys;
	size = sizeof( uint64_t ) * (size_t)snap->pairSet.capacity;
	ok = tbStageCopy( &keys, snap->pairSet.keys, size, size ) && ok;
	stage->pairKeys = keys;
	bool moversOk;
	stage->movers = tbCopyMoverSnapshot( snap->movers, &moversOk );
	return ok && moversOk;
}

// Pools and sets take their staged arrays; nothing here can fail.
#define TB_INSTALL_POOL( pool, in, staged, T )                                                                         \
	do                                                                                                                 \
	{                                                                                                                  \
		tbFree( ( pool ).data, sizeof( T ) * (size_t)( pool ).capacity );                                              \
		( pool ).data = ( staged );                                                                                    \
		( pool ).capacity = tbPoolCapacity( &( in ) );                                                                 \
		( pool ).count = ( in ).count;                                                                                 \
		( pool ).freeList = ( in ).freeList;                                                                           \
		( pool ).liveCount = ( in ).liveCount;                                                                         \
	}                                                                                                                  \
	while ( 0 )

static void tbInstallSet( tbHashSet* set, const tbHashSet* copy, uint64_t* keys )
{
	tbFree( set->keys, sizeof( uint64_t ) * (size_t)set->capacity );
	*set = *copy;
	set->keys = keys;
}

tbSnapshot* tbWorld_TakeSnapshot( tbWorldId worldId )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || world->locked )
	{
		return NULL;
	}
	tbSnapshot* snap = tbAlloc( sizeof( tbSnapshot ) );
	if ( snap == NULL )
	{
		return NULL;
	}
	memset( snap, 0, sizeof( *snap ) );
	tbTally tally = { sizeof( tbSnapshot ), true };
	snap->worldId = world->worldId;
	snap->worldGeneration = world->generation;
	snap->def = world->def;
	snap->stepIndex = world->stepIndex;
	snap->counters = world->counters;
	TB_COPY_POOL( snap->bodies, world->bodies, tbBody, &tally );
	TB_COPY_POOL( snap->shapes, world->shapes, tbShape, &tally );
	TB_COPY_POOL( snap->contacts, world->contacts, tbContact, &tally );
	TB_COPY_POOL( snap->joints, world->joints, tbJoint, &tally );
	TB_COPY_POOL( snap->vehicles, world->vehicles, tbVehicle, &tally );
	// A custom joint's rows are owned by the joint: the snapshot's copy gets a clone (or NULL, never
	// the world's pointer, so tbDestroySnapshot can free a half-taken snapshot).
	tbJoint* joints = snap->joints.data;
	for ( int i = 0; joints != NULL && i < snap->joints.count; ++i )
	{
		if ( joints[i].id >= 0 && joints[i].type == tbJoint_custom )
		{
			joints[i].custom = tbCopyBytes( joints[i].custom, sizeof( tbCustomJointData ), &tally );
		}
	}

	// Meshes and heightfields never change after creation: the snapshot shares the shape's (the
	// pointer in its shape copy) and holds a reference, as tbDestroySnapshot releases one per copy.
	const tbShape* shapes = snap->shapes.data;
	for ( int i = 0; shapes != NULL && i < snap->shapes.count; ++i )
	{
		if ( shapes[i].id >= 0 )
		{
			tbRetainSharedGeometry( shapes + i );
		}
	}
	// Hull geometry is owned by its shape: keep a clone per live hull shape.
	if ( world->shapes.count > 0 )
	{
		snap->hulls = tbAlloc( sizeof( tbHull* ) * (size_t)world->shapes.count );
		tally.ok = tally.ok && snap->hulls != NULL;
		tally.total += sizeof( tbHull* ) * (size_t)world->shapes.count;
	}
	for ( int i = 0; snap->hulls != NULL && i < world->shapes.count; ++i )
	{
		const tbShape* shape = world->shapes.data + i;
		snap->hulls[i] = NULL;
		if ( shape->id >= 0 && shape->type == tbShape_hull )
		{
			snap->hulls[i] = tbCloneHull( shape->hull );
			tally.ok = tally.ok && snap->hulls[i] != NULL;
			tally.total += (size_t)shape->hull->byteCount;
		}
	}

	const tbBroadPhase* bp = &world->broadPhase;
	for ( int t = 0; t < tbBody_typeCount; ++t )
	{
		snap->trees[t].tree = bp->trees[t];
		snap->trees[t].tree.nodes =
			tbCopyBytes( bp->trees[t].nodes, sizeof( tbTreeNode ) * (size_t)bp->trees[t].nodeCapacity, &tally );
	}
	snap->moveCount = bp->moveCount;
	snap->moveBuffer = tbCopyBytes( bp->moveBuffer, sizeof( int32_t ) * (size_t)bp->moveCount, &tally );
	snap->moveSet = tbCopySet( &bp->moveSet, &tally );
	snap->pairSet = tbCopySet( &world->pairSet, &tally );
	bool moversOk;
	snap->movers = tbSnapshotMovers( world, &moversOk );
	if ( tally.ok == false || moversOk == false )
	{
		tbDestroySnapshot( snap );
		return NULL;
	}
	snap->byteCount = tally.total;
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

	// Everything the world gets is allocated first; only when all of it was granted is the world's
	// state freed and replaced, so a refused allocation leaves the world as it was.
	tbRestoreStage stage;
	if ( tbStageRestore( &stage, world, snap ) == false )
	{
		tbFreeStage( &stage, snap );
		return tbResult_outOfMemory;
	}

	// The hulls, meshes and custom rows of the objects alive now go; the snapshot's come back as
	// the staged clones.
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
	for ( int i = 0; i < world->joints.count; ++i )
	{
		tbJoint* joint = world->joints.data + i;
		if ( joint->id >= 0 && joint->type == tbJoint_custom )
		{
			tbFree( joint->custom, sizeof( tbCustomJointData ) );
		}
	}

	world->def = snap->def;
	world->stepIndex = snap->stepIndex;
	world->counters = snap->counters;
	TB_INSTALL_POOL( world->bodies, snap->bodies, stage.bodies, tbBody );
	TB_INSTALL_POOL( world->shapes, snap->shapes, stage.shapes, tbShape );
	TB_INSTALL_POOL( world->contacts, snap->contacts, stage.contacts, tbContact );
	TB_INSTALL_POOL( world->joints, snap->joints, stage.joints, tbJoint );
	if ( stage.vehicles != NULL )
	{
		TB_INSTALL_POOL( world->vehicles, snap->vehicles, stage.vehicles, tbVehicle );
	}
	for ( int i = 0; i < world->shapes.count; ++i )
	{
		tbShape* shape = world->shapes.data + i;
		if ( shape->id >= 0 )
		{
			tbRetainSharedGeometry( shape ); // the pointer came back with the shape copy
		}
	}

	tbBroadPhase* bp = &world->broadPhase;
	for ( int t = 0; t < tbBody_typeCount; ++t )
	{
		tbFree( bp->trees[t].nodes, sizeof( tbTreeNode ) * (size_t)bp->trees[t].nodeCapacity );
		bp->trees[t] = snap->trees[t].tree;
		bp->trees[t].nodes = stage.nodes[t];
	}
	if ( stage.moveBuffer != NULL )
	{
		tbFree( bp->moveBuffer, sizeof( int32_t ) * (size_t)bp->moveCapacity );
		bp->moveBuffer = stage.moveBuffer;
		bp->moveCapacity = snap->moveCount;
	}
	if ( snap->moveCount > 0 )
	{
		memcpy( bp->moveBuffer, snap->moveBuffer, sizeof( int32_t ) * (size_t)snap->moveCount );
	}
	bp->moveCount = snap->moveCount;
	bp->pairCount = 0;
	tbInstallSet( &bp->moveSet, &snap->moveSet, stage.moveKeys );
	tbInstallSet( &world->pairSet, &snap->pairSet, stage.pairKeys );
	tbAdoptMovers( world, stage.movers );

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
	for ( int i = 0; shapes != NULL && i < snap->shapes.count; ++i )
	{
		if ( shapes[i].id >= 0 )
		{
			tbReleaseSharedGeometry( shapes + i );
		}
	}
	tbFree( snap->bodies.data, snap->bodies.elemSize * (size_t)snap->bodies.count );
	tbFree( snap->shapes.data, snap->shapes.elemSize * (size_t)snap->shapes.count );
	tbFree( snap->contacts.data, snap->contacts.elemSize * (size_t)snap->contacts.count );
	const tbJoint* joints = snap->joints.data;
	for ( int i = 0; joints != NULL && i < snap->joints.count; ++i )
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
