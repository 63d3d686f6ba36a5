// Tumble physics: internal allocation and assertion helpers.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/base.h"

#include <stddef.h>

int tbInternalAssertFcn( const char* condition, const char* fileName, int lineNumber );

#if !defined( NDEBUG ) || defined( TB_ENABLE_ASSERT )
#define TB_ASSERT( condition )                                                                                         \
	do                                                                                                                 \
	{                                                                                                                  \
		if ( !( condition ) && tbInternalAssertFcn( #condition, __FILE__, (int)__LINE__ ) )                            \
		{                                                                                                              \
			__builtin_trap();                                                                                          \
		}                                                                                                              \
	}                                                                                                                  \
	while ( 0 )
#else
#define TB_ASSERT( ... ) ( (void)0 )
#endif

// Expensive structural checks, only with TB_VALIDATE defined.
#if defined( TB_VALIDATE )
#define TB_VALIDATE_CHECK( condition ) TB_ASSERT( condition )
#else
#define TB_VALIDATE_CHECK( ... ) ( (void)0 )
#endif

#define TB_UNUSED( x ) ( (void)( x ) )

/// Allocate through the user's hook (malloc by default). Counts live allocations.
void* tbAlloc( size_t size );
void tbFree( void* memory, size_t size );
/// Grow an array: returns a new block with the old contents copied, and frees the old one. When
/// the allocator fails it returns NULL and leaves the old block as it was (still the caller's).
void* tbGrowAlloc( void* oldMem, size_t oldSize, size_t newSize );

/// Copy a name into a zero-filled field of `capacity` bytes: at most capacity - 1 bytes, cut before
/// a UTF-8 character that would not fit whole, so a cut name is still valid UTF-8.
void tbCopyName( char* field, size_t capacity, const char* name );
