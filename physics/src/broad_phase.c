// Tumble physics: broad phase (one dynamic tree per body type, move buffer, pair finding).
// SPDX-License-Identifier: MIT
//
// Static proxies are never tested against each other, kinematic ones only against dynamic ones,
// which is why each body type has its own tree: a moved dynamic proxy queries all three trees, a
// moved kinematic or static proxy only the dynamic tree. "A's query covers B's tree" is a symmetric
// relation for every pair of types, and both sides test the same two fat AABBs, so when two
// overlapping proxies both moved, each one's query finds the other. Exactly one of them reports
// the pair: the one with the larger proxy key. No pair set is needed to remove duplicates.

#include "broad_phase.h"

#include "core.h"
#include "world.h"
#include "tumble/tumble.h"

#include <string.h>

#define TB_BROAD_PHASE_INITIAL_CAPACITY 16

bool tbBroadPhase_Create( tbBroadPhase* bp )
{
	memset( bp, 0, sizeof( tbBroadPhase ) );
	bool ok = true;
	for ( int i = 0; i < tbBody_typeCount; ++i )
	{
		bp->trees[i] = tbDynamicTree_Create();
		ok = ok && bp->trees[i].nodes != NULL;
	}

	bp->moveCapacity = TB_BROAD_PHASE_INITIAL_CAPACITY;
	bp->moveBuffer = tbAlloc( (size_t)bp->moveCapacity * sizeof( int32_t ) );
	bp->moveSet = tbCreateSet( TB_BROAD_PHASE_INITIAL_CAPACITY );
	bp->pairCapacity = TB_BROAD_PHASE_INITIAL_CAPACITY;
	bp->pairs = tbAlloc( (size_t)bp->pairCapacity * sizeof( tbBroadPhasePair ) );
	ok = ok && bp->moveBuffer != NULL && bp->moveSet.keys != NULL && bp->pairs != NULL;
	if ( ok == false )
	{
		bp->moveCapacity = bp->moveBuffer != NULL ? bp->moveCapacity : 0;
		bp->pairCapacity = bp->pairs != NULL ? bp->pairCapacity : 0;
		tbBroadPhase_Destroy( bp );
	}
	return ok;
}

void tbBroadPhase_Destroy( tbBroadPhase* bp )
{
	for ( int i = 0; i < tbBody_typeCount; ++i )
	{
		tbDynamicTree_Destroy( bp->trees + i );
	}
	tbFree( bp->moveBuffer, (size_t)bp->moveCapacity * sizeof( int32_t ) );
	tbDestroySet( &bp->moveSet );
	tbFree( bp->pairs, (size_t)bp->pairCapacity * sizeof( tbBroadPhasePair ) );
	memset( bp, 0, sizeof( tbBroadPhase ) );
}

static void tbBufferMove( tbBroadPhase* bp, int32_t proxyKey )
{
	// The set reserves 0 and proxy key 0 is valid (static tree, proxy 0), hence the + 1.
	uint64_t key = (uint64_t)proxyKey + 1;
	if ( tbContainsKey( &bp->moveSet, key ) )
	{
		return;
	}

	if ( bp->moveCount == bp->moveCapacity )
	{
		int newCapacity = bp->moveCapacity > 0 ? 2 * bp->moveCapacity : TB_BROAD_PHASE_INITIAL_CAPACITY;
		int32_t* grown = tbGrowAlloc( bp->moveBuffer, (size_t)bp->moveCapacity * sizeof( int32_t ),
									  (size_t)newCapacity * sizeof( int32_t ) );
		if ( grown == NULL )
		{
			bp->allocationFailures += 1;
			bp->lostMoves = true;
			return;
		}
		bp->moveBuffer = grown;
		bp->moveCapacity = newCapacity;
	}
	if ( tbReserveKey( &bp->moveSet ) == false )
	{
		bp->allocationFailures += 1;
		bp->lostMoves = true;
		return;
	}
	tbAddKey( &bp->moveSet, key );
	bp->moveBuffer[bp->moveCount++] = proxyKey;
}

static void tbUnBufferMove( tbBroadPhase* bp, int32_t proxyKey )
{
	if ( tbRemoveKey( &bp->moveSet, (uint64_t)proxyKey + 1 ) == false )
	{
		return;
	}

	// Rare (a proxy destroyed in the step it moved), so a linear search is fine. Leaving a null in
	// place keeps the order of the other entries, hence of the pairs.
	for ( int i = 0; i < bp->moveCount; ++i )
	{
		if ( bp->moveBuffer[i] == proxyKey )
		{
			bp->moveBuffer[i] = TB_NULL_PROXY;
			return;
		}
	}
	TB_ASSERT( false );
}

int32_t tbBroadPhase_CreateProxy( tbBroadPhase* bp, tbAABB aabb, uint64_t categoryBits, int32_t shapeIndex,
								  tbBodyType type, bool forcePairCreation )
{
	TB_ASSERT( 0 <= (int)type && (int)type < tbBody_typeCount );
	TB_ASSERT( shapeIndex >= 0 );
	int32_t proxyId = tbDynamicTree_CreateProxy( bp->trees + type, aabb, categoryBits, shapeIndex );
	if ( proxyId == TB_NULL_NODE )
	{
		return TB_NULL_PROXY;
	}
	TB_ASSERT( proxyId < ( 1 << 29 ) );
	int32_t proxyKey = TB_PROXY_KEY( proxyId, type );
	if ( type != tbBody_static || forcePairCreation )
	{
		tbBufferMove( bp, proxyKey );
	}
	return proxyKey;
}

void tbBroadPhase_DestroyProxy( tbBroadPhase* bp, int32_t proxyKey )
{
	TB_ASSERT( proxyKey >= 0 );
	tbUnBufferMove( bp, proxyKey );
	tbDynamicTree_DestroyProxy( bp->trees + TB_PROXY_TYPE( proxyKey ), TB_PROXY_ID( proxyKey ) );
}

void tbBroadPhase_MoveProxy( tbBroadPhase* bp, int32_t proxyKey, tbAABB aabb )
{
	TB_ASSERT( proxyKey >= 0 );
	tbDynamicTree_MoveProxy( bp->trees + TB_PROXY_TYPE( proxyKey ), TB_PROXY_ID( proxyKey ), aabb );
	tbBufferMove( bp, proxyKey );
}

void tbBroadPhase_EnlargeProxy( tbBroadPhase* bp, int32_t proxyKey, tbAABB aabb )
{
	TB_ASSERT( proxyKey >= 0 );
	tbDynamicTree_EnlargeProxy( bp->trees + TB_PROXY_TYPE( proxyKey ), TB_PROXY_ID( proxyKey ), aabb );
	tbBufferMove( bp, proxyKey );
}

typedef struct tbPairQueryContext
{
	tbBroadPhase* bp;
	int32_t queryProxyKey;
	int32_t queryShapeIndex;
	tbBodyType treeType; ///< the tree being queried
} tbPairQueryContext;

static void tbAddPair( tbBroadPhase* bp, int32_t shapeIndexA, int32_t shapeIndexB )
{
	if ( bp->pairCount == bp->pairCapacity )
	{
		int newCapacity = bp->pairCapacity > 0 ? 2 * bp->pairCapacity : TB_BROAD_PHASE_INITIAL_CAPACITY;
		tbBroadPhasePair* grown = tbGrowAlloc( bp->pairs, (size_t)bp->pairCapacity * sizeof( tbBroadPhasePair ),
											   (size_t)newCapacity * sizeof( tbBroadPhasePair ) );
		if ( grown == NULL )
		{
			bp->allocationFailures += 1;
			return;
		}
		bp->pairs = grown;
		bp->pairCapacity = newCapacity;
	}
	tbBroadPhasePair* pair = bp->pairs + bp->pairCount++;
	pair->shapeIndexA = shapeIndexA < shapeIndexB ? shapeIndexA : shapeIndexB;
	pair->shapeIndexB = shapeIndexA < shapeIndexB ? shapeIndexB : shapeIndexA;
}

static bool tbPairQueryCallback( int32_t proxyId, int32_t userData, void* context )
{
	tbPairQueryContext* qc = context;
	int32_t proxyKey = TB_PROXY_KEY( proxyId, qc->treeType );
	if ( proxyKey == qc->queryProxyKey )
	{
		return true;
	}

	// Both moved: the pair belongs to the query of the larger key (see the file comment).
	if ( proxyKey > qc->queryProxyKey && tbContainsKey( &qc->bp->moveSet, (uint64_t)proxyKey + 1 ) )
	{
		return true;
	}

	tbAddPair( qc->bp, qc->queryShapeIndex, userData );
	return true;
}

// After a move was lost for want of memory, every proxy that can start a pair is buffered again:
// the lost one is among them, and the others' pairs that exist already are filtered by the caller.
static void tbBufferEveryMovableProxy( tbBroadPhase* bp )
{
	bp->lostMoves = false;
	for ( int type = tbBody_kinematic; type <= tbBody_dynamic; ++type )
	{
		const tbDynamicTree* tree = bp->trees + type;
		for ( int32_t node = 0; node < tree->nodeCapacity; ++node )
		{
			if ( tree->nodes[node].height == 0 )
			{
				tbBufferMove( bp, TB_PROXY_KEY( node, type ) );
			}
		}
	}
}

void tbBroadPhase_UpdatePairs( tbBroadPhase* bp, tbPairFcn* pairFcn, void* context )
{
	bp->pairCount = 0;
	if ( bp->lostMoves )
	{
		tbBufferEveryMovableProxy( bp );
	}
	int failuresBefore = bp->allocationFailures;

	for ( int i = 0; i < bp->moveCount; ++i )
	{
		int32_t proxyKey = bp->moveBuffer[i];
		if ( proxyKey == TB_NULL_PROXY )
		{
			continue;
		}

		tbBodyType type = TB_PROXY_TYPE( proxyKey );
		const tbDynamicTree* ownTree = bp->trees + type;
		int32_t proxyId = TB_PROXY_ID( proxyKey );
		tbAABB fatAABB = tbDynamicTree_GetAABB( ownTree, proxyId );

		tbPairQueryContext qc;
		qc.bp = bp;
		qc.queryProxyKey = proxyKey;
		qc.queryShapeIndex = tbDynamicTree_GetUserData( ownTree, proxyId );

		// The world applies category/mask filtering per pair, so the trees are queried unmasked.
		for ( int treeType = 0; treeType < tbBody_typeCount; ++treeType )
		{
			if ( type != tbBody_dynamic && treeType != tbBody_dynamic )
			{
				continue;
			}
			qc.treeType = (tbBodyType)treeType;
			tbDynamicTree_Query( bp->trees + treeType, fatAABB, UINT64_MAX, tbPairQueryCallback, &qc );
		}
	}

	// Callbacks run after the queries, so a callee cannot disturb a traversal in progress.
	bool complete = bp->allocationFailures == failuresBefore;
	for ( int i = 0; i < bp->pairCount; ++i )
	{
		complete = pairFcn( bp->pairs[i].shapeIndexA, bp->pairs[i].shapeIndexB, context ) && complete;
	}
	if ( complete == false )
	{
		// Keep the moves for the next update to query again.
		return;
	}

	// Clear key by key: O(moves) rather than O(set capacity), which stays large after a step in
	// which many proxies were created.
	for ( int i = 0; i < bp->moveCount; ++i )
	{
		int32_t proxyKey = bp->moveBuffer[i];
		if ( proxyKey != TB_NULL_PROXY )
		{
			tbRemoveKey( &bp->moveSet, (uint64_t)proxyKey + 1 );
		}
	}
	bp->moveCount = 0;
	TB_ASSERT( bp->moveSet.count == 0 );
}

bool tbBroadPhase_TestOverlap( const tbBroadPhase* bp, int32_t proxyKeyA, int32_t proxyKeyB )
{
	return tbAABB_Overlaps( tbBroadPhase_GetFatAABB( bp, proxyKeyA ), tbBroadPhase_GetFatAABB( bp, proxyKeyB ) );
}

tbResult tbWorld_VisitBroadPhase( tbWorldId worldId, tbTreeNodeFcn* fcn, void* context )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || fcn == NULL )
	{
		return tbResult_invalidId;
	}
	// Nodes are visited in array order; a node's depth is the length of its parent chain. That is
	// O(n log n) for the balanced trees but needs no stack, and debug drawing is the only user.
	bool wasLocked = world->locked;
	world->locked = true;
	bool more = true;
	for ( int type = 0; type < tbBody_typeCount && more; ++type )
	{
		const tbDynamicTree* tree = world->broadPhase.trees + type;
		for ( int32_t i = 0; i < tree->nodeCapacity && more; ++i )
		{
			const tbTreeNode* node = tree->nodes + i;
			if ( node->height < 0 )
			{
				continue;
			}
			int depth = 0;
			for ( int32_t p = node->parent; p != TB_NULL_NODE && depth < tree->nodeCapacity; p = tree->nodes[p].parent )
			{
				depth += 1;
			}
			more = fcn( node->aabb, depth, node->child1 == TB_NULL_NODE, (tbBodyType)type, context );
		}
	}
	world->locked = wasLocked;
	return tbResult_ok;
}
