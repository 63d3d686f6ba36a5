// SPDX-License-Identifier: MIT
#include "arena.h"

#include "core.h"

#include <string.h>

void tbCreateArena( tbArena* arena, size_t capacity )
{
	memset( arena, 0, sizeof( *arena ) );
	arena->capacity = capacity;
	arena->data = capacity > 0 ? tbAlloc( capacity ) : NULL;
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
		arena->overflow = tbGrowAlloc( arena->overflow, sizeof( void* ) * (size_t)arena->overflowCapacity,
									   sizeof( void* ) * (size_t)newCap );
		arena->overflowSizes = tbGrowAlloc( arena->overflowSizes, sizeof( size_t ) * (size_t)arena->overflowCapacity,
											sizeof( size_t ) * (size_t)newCap );
		arena->overflowCapacity = newCap;
	}
	void* p = tbAlloc( size );
	TB_ASSERT( p != NULL );
	arena->overflow[arena->overflowCount] = p;
	arena->overflowSizes[arena->overflowCount] = size;
	arena->overflowCount += 1;
	return p;
}

void* tbArenaAlloc( tbArena* arena, size_t size )
{
	void* p = tbArenaAllocRaw( arena, size );
	memset( p, 0, ( size + 15u ) & ~(size_t)15u );
	return p;
}

void tbArenaReset( tbArena* arena )
{
	if ( arena->overflowCount > 0 )
	{
		tbFreeOverflow( arena );
		size_t newCap = arena->peak + arena->peak / 2;
		tbFree( arena->data, arena->capacity );
		arena->data = tbAlloc( newCap );
		arena->capacity = newCap;
	}
	arena->used = 0;
	arena->peak = 0;
}
