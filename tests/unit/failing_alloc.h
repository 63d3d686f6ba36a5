// The allocator hook of the allocation-failure tests (tbSetAllocator): counts the blocks handed out
// and given back, and refuses requests: once armed, the one at position refuseAt of the requests
// since (or every one from it on, failAll); while refuseLarge, every request of 16 KiB or more.
// SPDX-License-Identifier: MIT
#pragma once

#include <stdbool.h>
#include <stdlib.h>

typedef struct FailingAllocator
{
	bool refuseLarge;
	bool armed;
	bool failAll;
	long refuseAt;
	long seen;	  ///< requests since armed
	long refused; ///< requests refused since armed (or since the caller cleared it)
	long live;	  ///< blocks handed out and not yet freed
} FailingAllocator;

static FailingAllocator s_alloc;

static void* failing_alloc( size_t size )
{
	if ( s_alloc.refuseLarge && size >= 16 * 1024 )
	{
		s_alloc.refused += 1;
		return NULL;
	}
	if ( s_alloc.armed )
	{
		long position = s_alloc.seen++;
		if ( s_alloc.failAll ? position >= s_alloc.refuseAt : position == s_alloc.refuseAt )
		{
			s_alloc.refused += 1;
			return NULL;
		}
	}
	void* p = malloc( size );
	s_alloc.live += p != NULL ? 1 : 0;
	return p;
}

static void failing_free( void* p )
{
	s_alloc.live -= p != NULL ? 1 : 0;
	free( p );
}

// Refuse the request at refuseAt from now on (only that one, or every one from it with failAll).
static inline void arm( long refuseAt, bool failAll )
{
	s_alloc.armed = true;
	s_alloc.failAll = failAll;
	s_alloc.refuseAt = refuseAt;
	s_alloc.seen = 0;
	s_alloc.refused = 0;
}

static inline void disarm( void )
{
	s_alloc.armed = false;
}
