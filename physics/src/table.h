// Tumble physics: open-addressing hash set of 64-bit keys (pair keys, proxy keys).
// SPDX-License-Identifier: MIT
#pragma once

#include <stdbool.h>
#include <stdint.h>

/// Key of an unordered pair of non-negative int32 shape indices: the smaller index in the high 32
/// bits, the larger in the low 32 bits, so (a, b) and (b, a) give the same key. Never 0 for two
/// distinct indices, so it can go into a tbHashSet as is.
#define TB_SHAPE_PAIR_KEY( a, b )                                                                                      \
	( ( a ) < ( b ) ? ( (uint64_t)(uint32_t)( a ) << 32 | (uint64_t)(uint32_t)( b ) )                                  \
					: ( (uint64_t)(uint32_t)( b ) << 32 | (uint64_t)(uint32_t)( a ) ) )

/// Set of uint64_t keys with linear probing. Key 0 is reserved to mark an empty slot and must never
/// be added, removed or looked up (asserted): callers whose keys can be 0 add 1 to them (the broad
/// phase does this for proxy keys). The set allocates only when it grows.
typedef struct tbHashSet
{
	uint64_t* keys;	  ///< capacity slots, 0 = empty
	int32_t capacity; ///< number of slots, a power of two; the set grows when more than half are used
	int32_t count;	  ///< number of keys stored
	int32_t growFailures; ///< growths the allocator refused (the set went on fuller); the owner clears it
} tbHashSet;

/// A set that holds `capacity` keys before it first grows (at least 16 slots are allocated).
tbHashSet tbCreateSet( int32_t capacity );

/// Free the slots. The set is left empty with no storage; tbCreateSet it again to reuse it.
void tbDestroySet( tbHashSet* set );

/// Remove every key, keeping the storage. O(capacity).
void tbClearSet( tbHashSet* set );

/// Make room for one more key, growing the slots when the load would pass 1/2. False when the
/// allocator failed and the set is too full to take another key; a set that could not grow takes
/// keys up to one empty slot short of full (slower probes, still correct).
bool tbReserveKey( tbHashSet* set );

/// Add a key. Returns true if it was already present (the set is then unchanged). Callers that
/// must survive a failing allocator call tbReserveKey first.
bool tbAddKey( tbHashSet* set, uint64_t key );

/// Remove a key. Returns true if it was present.
bool tbRemoveKey( tbHashSet* set, uint64_t key );

/// True if the key is present.
bool tbContainsKey( const tbHashSet* set, uint64_t key );
