// Tumble physics: broad phase. One dynamic AABB tree per body type; proxies that moved during a
// step are buffered and, in tbBroadPhase_UpdatePairs, queried against the trees they can collide
// with to find new candidate pairs for the narrow phase.
// SPDX-License-Identifier: MIT
#pragma once

#include "table.h"

#include "tumble/collision.h"
#include "tumble/types.h"

// A proxy key names a proxy across the three trees: the tree's proxy id shifted left by two, with
// the body type (the tree) in the low two bits.
#define TB_PROXY_TYPE( key ) ( (tbBodyType)( (key)&3 ) )
#define TB_PROXY_ID( key ) ( ( key ) >> 2 )
#define TB_PROXY_KEY( id, type ) ( ( ( id ) << 2 ) | (int32_t)( type ) )
#define TB_NULL_PROXY ( -1 )

/// A candidate pair found by tbBroadPhase_UpdatePairs, shapeIndexA < shapeIndexB.
typedef struct tbBroadPhasePair
{
	int32_t shapeIndexA;
	int32_t shapeIndexB;
} tbBroadPhasePair;

/// Every buffer here grows by doubling when it must and is kept, so a step whose numbers of moved
/// proxies and new pairs stay within what earlier steps saw allocates nothing.
typedef struct tbBroadPhase
{
	tbDynamicTree trees[tbBody_typeCount]; ///< indexed by tbBodyType

	/// Proxy keys that moved (or were created) since the last update, in call order. A proxy
	/// destroyed after it moved leaves TB_NULL_PROXY in its place.
	int32_t* moveBuffer;
	int moveCount;
	int moveCapacity;

	/// The keys in moveBuffer, plus one (the set reserves key 0): no proxy is buffered twice, and a
	/// query can tell whether the proxy it found moved too.
	tbHashSet moveSet;

	/// Pairs found by the last tbBroadPhase_UpdatePairs, in the order they were reported.
	tbBroadPhasePair* pairs;
	int pairCount;
	int pairCapacity;

	/// Moves and pairs dropped because a buffer could not grow (the allocator failed); the owner
	/// reads and clears it. Nothing is lost for good: see lostMoves and tbBroadPhase_UpdatePairs.
	int allocationFailures;
	/// A move could not be buffered: the next update buffers every dynamic and kinematic proxy.
	bool lostMoves;
} tbBroadPhase;

/// Called once per new candidate pair; shapeIndexA < shapeIndexB. The callee filters pairs that
/// already have a contact, pairs on the same body and layer masks. It must not create, move or
/// destroy broad-phase proxies.
/// Returns false when it could not hold the pair (out of memory).
typedef bool tbPairFcn( int32_t shapeIndexA, int32_t shapeIndexB, void* context );

/// Initialise an empty broad phase (allocates the initial buffers). False when an allocation was
/// refused: nothing is left allocated.
bool tbBroadPhase_Create( tbBroadPhase* bp );

/// Free everything.
void tbBroadPhase_Destroy( tbBroadPhase* bp );

/// Add a proxy with a fattened AABB (metres) to the tree of its body type and return its proxy key,
/// or TB_NULL_PROXY (nothing added) when the tree could not grow.
/// Dynamic and kinematic proxies are buffered as moved so their pairs are found at the next update;
/// a static proxy only if forcePairCreation (a static shape added to an existing scene must find
/// the dynamic proxies that will not move, e.g. sleeping ones).
int32_t tbBroadPhase_CreateProxy( tbBroadPhase* bp, tbAABB aabb, uint64_t categoryBits, int32_t shapeIndex,
								  tbBodyType type, bool forcePairCreation );

/// Remove a proxy (also from the move buffer). Its key may be reused by a later proxy.
void tbBroadPhase_DestroyProxy( tbBroadPhase* bp, int32_t proxyKey );

/// Give a proxy a new fattened AABB by re-inserting it in its tree, and buffer it as moved.
void tbBroadPhase_MoveProxy( tbBroadPhase* bp, int32_t proxyKey, tbAABB aabb );

/// Grow a proxy's AABB in place (no re-insertion; cheaper, the tree loses some quality), and buffer
/// it as moved.
void tbBroadPhase_EnlargeProxy( tbBroadPhase* bp, int32_t proxyKey, tbAABB aabb );

/// For every buffered proxy, find the proxies whose fat AABBs overlap its own in the trees it can
/// collide with (dynamic: all three trees; kinematic and static: the dynamic tree), then clear the
/// move buffer and call pairFcn once per pair. Each unordered pair is reported at most once per
/// call, never a proxy with itself, never two static or two kinematic proxies. The order of the
/// calls depends only on the sequence of broad-phase calls made so far (deterministic). When a
/// pair was dropped (the pair buffer could not grow, or pairFcn returned false) the moved proxies
/// stay buffered, so the next call finds their pairs again.
void tbBroadPhase_UpdatePairs( tbBroadPhase* bp, tbPairFcn* pairFcn, void* context );

/// True if the fat AABBs of two proxies overlap.
bool tbBroadPhase_TestOverlap( const tbBroadPhase* bp, int32_t proxyKeyA, int32_t proxyKeyB );

/// The fat AABB stored for a proxy.
static inline tbAABB tbBroadPhase_GetFatAABB( const tbBroadPhase* bp, int32_t proxyKey )
{
	return tbDynamicTree_GetAABB( bp->trees + TB_PROXY_TYPE( proxyKey ), TB_PROXY_ID( proxyKey ) );
}

/// The shape index given when the proxy was created.
static inline int32_t tbBroadPhase_GetShapeIndex( const tbBroadPhase* bp, int32_t proxyKey )
{
	return tbDynamicTree_GetUserData( bp->trees + TB_PROXY_TYPE( proxyKey ), TB_PROXY_ID( proxyKey ) );
}
