// Tumble physics: open-addressing hash set of 64-bit keys.
// SPDX-License-Identifier: MIT
//
// Linear probing over a power-of-two table kept at most half full, so an unsuccessful lookup probes
// about 2.5 slots on average (Knuth's estimate (1 + 1/(1-a)^2)/2 at load a = 1/2). Removal shifts
// later entries of the same probe run back into the hole instead of leaving tombstones, so lookups
// never slow down with churn and the table never needs a cleanup pass.

#include "table.h"

#include "core.h"

#include <string.h>

#define TB_SET_MIN_CAPACITY 16

// The finaliser of Vigna's splitmix64: a bijection on 64-bit integers in which every input bit
// affects every output bit. Pair keys put shape indices in two 32-bit halves and proxy keys are
// small integers; both would cluster badly under the low bits of the raw key.
static uint64_t tbHashKey( uint64_t key )
{
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ull;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebull;
	key ^= key >> 31;
	return key;
}

static int32_t tbRoundUpPowerOfTwo( int32_t n )
{
	int32_t p = TB_SET_MIN_CAPACITY;
	while ( p < n )
	{
		p *= 2;
	}
	return p;
}

tbHashSet tbCreateSet( int32_t capacity )
{
	TB_ASSERT( 0 <= capacity && capacity < ( 1 << 29 ) );
	tbHashSet set;
	set.capacity = tbRoundUpPowerOfTwo( 2 * capacity );
	set.count = 0;
	set.growFailures = 0;
	set.keys = tbAlloc( (size_t)set.capacity * sizeof( uint64_t ) );
	if ( set.keys == NULL )
	{
		// Empty with no storage, as after tbDestroySet; the owner tells by keys == NULL.
		set.capacity = 0;
		return set;
	}
	memset( set.keys, 0, (size_t)set.capacity * sizeof( uint64_t ) );
	return set;
}

void tbDestroySet( tbHashSet* set )
{
	tbFree( set->keys, (size_t)set->capacity * sizeof( uint64_t ) );
	set->keys = NULL;
	set->capacity = 0;
	set->count = 0;
}

void tbClearSet( tbHashSet* set )
{
	if ( set->keys != NULL )
	{
		memset( set->keys, 0, (size_t)set->capacity * sizeof( uint64_t ) );
	}
	set->count = 0;
}

// Slot of key, or of the empty slot where its probe run ends.
static int32_t tbFindSlot( const tbHashSet* set, uint64_t key )
{
	uint32_t mask = (uint32_t)set->capacity - 1;
	uint32_t index = (uint32_t)tbHashKey( key ) & mask;
	while ( set->keys[index] != 0 && set->keys[index] != key )
	{
		index = ( index + 1 ) & mask;
	}
	return (int32_t)index;
}

static bool tbGrowSet( tbHashSet* set )
{
	int32_t oldCapacity = set->capacity;
	uint64_t* oldKeys = set->keys;

	int32_t newCapacity = oldCapacity > 0 ? 2 * oldCapacity : TB_SET_MIN_CAPACITY;
	uint64_t* keys = tbAlloc( (size_t)newCapacity * sizeof( uint64_t ) );
	if ( keys == NULL )
	{
		set->growFailures += 1;
		return false;
	}
	set->capacity = newCapacity;
	set->keys = keys;
	memset( set->keys, 0, (size_t)set->capacity * sizeof( uint64_t ) );

	for ( int32_t i = 0; i < oldCapacity; ++i )
	{
		uint64_t key = oldKeys[i];
		if ( key != 0 )
		{
			set->keys[tbFindSlot( set, key )] = key;
		}
	}
	tbFree( oldKeys, (size_t)oldCapacity * sizeof( uint64_t ) );
	return true;
}

bool tbReserveKey( tbHashSet* set )
{
	if ( 2 * ( set->count + 1 ) <= set->capacity || tbGrowSet( set ) )
	{
		return true;
	}
	// One slot must stay empty so that a probe for a missing key ends.
	return set->count + 2 <= set->capacity;
}

bool tbAddKey( tbHashSet* set, uint64_t key )
{
	TB_ASSERT( key != 0 );
	if ( set->capacity > 0 )
	{
		int32_t slot = tbFindSlot( set, key );
		if ( set->keys[slot] == key )
		{
			return true;
		}
	}

	// Keep the load at or below 1/2; growing before the insert keeps the found slot valid.
	bool room = tbReserveKey( set );
	TB_ASSERT( room );
	TB_UNUSED( room );
	int32_t slot = tbFindSlot( set, key );
	set->keys[slot] = key;
	set->count += 1;
	return false;
}

bool tbRemoveKey( tbHashSet* set, uint64_t key )
{
	TB_ASSERT( key != 0 );
	if ( set->count == 0 )
	{
		return false;
	}

	uint32_t mask = (uint32_t)set->capacity - 1;
	uint32_t hole = (uint32_t)tbFindSlot( set, key );
	if ( set->keys[hole] != key )
	{
		return false;
	}
	set->keys[hole] = 0;
	set->count -= 1;

	// Backward shift: a later key in the same run may move into the hole only if the hole lies on
	// its probe path, i.e. its distance from its home slot is at least the distance hole -> it.
	uint32_t index = hole;
	for ( ;; )
	{
		index = ( index + 1 ) & mask;
		uint64_t other = set->keys[index];
		if ( other == 0 )
		{
			break;
		}
		uint32_t home = (uint32_t)tbHashKey( other ) & mask;
		if ( ( ( index - home ) & mask ) >= ( ( index - hole ) & mask ) )
		{
			set->keys[hole] = other;
			set->keys[index] = 0;
			hole = index;
		}
	}
	return true;
}

bool tbContainsKey( const tbHashSet* set, uint64_t key )
{
	TB_ASSERT( key != 0 );
	if ( set->count == 0 )
	{
		return false;
	}
	return set->keys[tbFindSlot( set, key )] == key;
}
