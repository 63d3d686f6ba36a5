// SPDX-License-Identifier: MIT
#include "arena.h"

#include "core.h"

#include <string.h>

void tbCreateArena( tbArena* arena, size_t capacity )
{
	memset( arena, 0, sizeof( *arena ) );
	arena->capacity = capacity;
	arena->data = capacity > 0 ? tbAlloc( capacity ) : NULL;
	arena->capacity = arena->data != NULL ? capacity : 0;
}

static void tbFreeOverflow( tbArena* arena )
{
	for ( int i = 0; i < arena->overflowCount; ++i )
	{
		tbFree( arena->overflow[i], arena->overflowSizes[i] );
	}
	arena->overflowCount = 0;
}

void tbDestroyArena( tbArena* arena )
{
	tbFreeOverflow( arena );
	tbFree( arena->overflow, sizeof( void* ) * (size_t)arena->overflowCapacity );
	tbFree( arena->overflowSizes, sizeof( size_t ) * (size_t)arena->overflowCapacity );
	tbFree( arena->data, arena->capacity );
	memset( arena, 0, sizeof( *arena ) );
}

void* tbArenaAllocRaw( tbArena* arena, size_t size )
{
	size = ( size + 15u ) & ~(size_t)15u;
	if ( size == 0 )
	{
		size = 16;
	}
	arena->peak += size;
	if ( arena->used + size <= arena->capacity )
	{
		void* p = arena->data + arena->used;
		arena->used += size;
		return p;
	}

	// The main block is full: serve from a separate block this step; reset grows the main block.
	if ( arena->overflowCount == arena->overflowCapacity )
	{
		int newCap = arena->overflowCapacity == 0 ? 8 : 2 * arena->overflowCapacity;
		void** blocks = tbGrowAlloc( arena->overflow, sizeof( void* ) * (size_t)arena->overflowCapacity,
									 sizeof( void* ) * (size_t)newCap );
		if ( blocks == NULL )
		{
			arena->failCount += 1;
			arena->refusedCount += 1;
			return NULL;
		}
		arena->overflow = blocks;
		size_t* sizes = tbGrowAlloc( arena->overflowSizes, sizeof( size_t ) * (size_t)arena->overflowCapacity,
									 sizeof( size_t ) * (size_t)newCap );
		if ( sizes == NULL )
		{
			// The block list grew and the size list did not: keep the block list's capacity
			// matched to the size list's, so the next try grows both again.
			arena->failCount += 1;
			arena->refusedCount += 1;
			return NULL;
		}
		arena->overflowSizes = sizes;
		arena->overflowCapacity = newCap;
	}
	void* p = tbAlloc( size );
	if ( p == NULL )
	{
		arena->failCount += 1;
		arena->refusedCount += 1;
		return NULL;
	}
	arena->overflow[arena->overflowCount] = p;
	arena->overflowSizes[arena->overflowCount] = size;
	arena->overflowCount += 1;
	return p;
}

void* tbArenaAlloc( tbArena* arena, size_t size )
{
	void* p = tbArenaAllocRaw( arena, size );
	if ( p != NULL )
	{
		memset( p, 0, ( size + 15u ) & ~(size_t)15u );
	}
	return p;
}

void tbArenaReset( tbArena* arena )
{
	arena->failCount = 0;
	arena->refusedCount = 0;
	if ( arena->overflowCount > 0 )
	{
		tbFreeOverflow( arena );
		size_t newCap = arena->peak + arena->peak / 2;
		tbFree( arena->data, arena->capacity );
		// Without memory the main block stays empty and every request goes to an overflow block
		// (or fails, which the callers handle).
		arena->data = tbAlloc( newCap );
		arena->capacity = arena->data != NULL ? newCap : 0;
		arena->refusedCount += arena->data != NULL ? 0 : 1;
	}
	arena->used = 0;
	arena->peak = 0;
}
