// SPDX-License-Identifier: MIT
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tbAllocFcn* s_allocFcn = NULL;
static tbFreeFcn* s_freeFcn = NULL;
static long s_allocCount = 0;

static int tbDefaultAssertFcn( const char* condition, const char* fileName, int lineNumber )
{
	fprintf( stderr, "tumble assertion failed: %s, %s:%d\n", condition, fileName, lineNumber );
	return 1;
}

static tbAssertFcn* s_assertFcn = tbDefaultAssertFcn;

void tbSetAssertFcn( tbAssertFcn* assertFcn )
{
	s_assertFcn = assertFcn != NULL ? assertFcn : tbDefaultAssertFcn;
}

int tbInternalAssertFcn( const char* condition, const char* fileName, int lineNumber )
{
	return s_assertFcn( condition, fileName, lineNumber );
}

void tbSetAllocator( tbAllocFcn* allocFcn, tbFreeFcn* freeFcn )
{
	s_allocFcn = allocFcn;
	s_freeFcn = freeFcn;
}

void* tbAlloc( size_t size )
{
	if ( size == 0 )
	{
		return NULL;
	}
	s_allocCount += 1;
	if ( s_allocFcn != NULL )
	{
		return s_allocFcn( size );
	}
	return malloc( size );
}

void tbFree( void* memory, size_t size )
{
	TB_UNUSED( size );
	if ( memory == NULL )
	{
		return;
	}
	if ( s_freeFcn != NULL )
	{
		s_freeFcn( memory );
	}
	else
	{
		free( memory );
	}
}

void* tbGrowAlloc( void* oldMem, size_t oldSize, size_t newSize )
{
	void* newMem = tbAlloc( newSize );
	if ( newMem == NULL )
	{
		return NULL;
	}
	if ( oldSize > 0 )
	{
		memcpy( newMem, oldMem, oldSize < newSize ? oldSize : newSize );
	}
	tbFree( oldMem, oldSize );
	return newMem;
}

void tbCopyName( char* field, size_t capacity, const char* name )
{
	memset( field, 0, capacity );
	if ( name == NULL || capacity == 0 )
	{
		return;
	}
	size_t length = strlen( name );
	if ( length > capacity - 1 )
	{
		length = capacity - 1;
		// Back off over continuation bytes (10xxxxxx) to the start of the character that was cut.
		while ( length > 0 && ( (unsigned char)name[length] & 0xC0u ) == 0x80u )
		{
			length -= 1;
		}
	}
	memcpy( field, name, length );
}

long tbGetAllocationCount( void )
{
	return s_allocCount;
}

const char* tbResultString( tbResult result )
{
	switch ( result )
	{
		case tbResult_ok:
			return "ok";
		case tbResult_invalidId:
			return "invalid or destroyed id";
		case tbResult_invalidArgument:
			return "invalid argument";
		case tbResult_worldLocked:
			return "world is locked during a step";
		case tbResult_degenerateHull:
			return "degenerate hull (coplanar, collinear or coincident points)";
		case tbResult_tooManyPoints:
			return "too many hull points";
		case tbResult_outOfMemory:
			return "not enough memory";
		default:
			return "unknown result";
	}
}

tbVersion tbGetVersion( void )
{
	tbVersion v = { TB_VERSION_MAJOR, TB_VERSION_MINOR, TB_VERSION_REVISION };
	return v;
}
