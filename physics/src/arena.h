// Tumble physics: per-step bump allocator. Reset every step; grows to the peak use, so a
// steady-state step makes no system allocation.
// SPDX-License-Identifier: MIT
#pragma once

#include <stddef.h>

typedef struct tbArena
{
	char* data;
	size_t capacity;
	size_t used;
	size_t peak;        ///< largest total request since the last reset (including overflow)
	void** overflow;    ///< blocks allocated because the main block was full; freed on reset
	size_t* overflowSizes;
	int overflowCount;
	int overflowCapacity;
	int failCount;   ///< requests answered NULL since the last reset (the system allocator failed)
	int refusedCount; ///< system allocations refused since the last reset, those of failCount and a
	                  ///< main block the reset could not grow (the step then runs on overflow blocks)
} tbArena;

void tbCreateArena( tbArena* arena, size_t capacity );
void tbDestroyArena( tbArena* arena );
/// 16-byte aligned, zero-initialised memory valid until the next reset; NULL when the allocator
/// fails (counted in failCount): every caller degrades its part of the step instead.
void* tbArenaAlloc( tbArena* arena, size_t size );
/// 16-byte aligned memory valid until the next reset, not initialised: for the large per-step
/// arrays whose every used element is written before it is read (zeroing them cost a serial pass
/// over megabytes per step).
void* tbArenaAllocRaw( tbArena* arena, size_t size );
/// Free everything; grow the main block when the last step overflowed.
void tbArenaReset( tbArena* arena );

#define TB_ARENA_ARRAY( arena, type, count ) ( (type*)tbArenaAlloc( ( arena ), sizeof( type ) * (size_t)( count ) ) )
#define TB_ARENA_ARRAY_RAW( arena, type, count ) ( (type*)tbArenaAllocRaw( ( arena ), sizeof( type ) * (size_t)( count ) ) )
