// Tumble viewer: rewind. The last seconds of the world as snapshots (tbWorld_TakeSnapshot), so the
// user can step back, scrub, and resume from any recorded step.
//
// Only the world is rewound. The scene's Lua state (its own counters and tables) keeps its present
// values; the world's clock (time and step count seen by update) is put back with the state.
// SPDX-License-Identifier: MIT
#include "viewer.h"

#include <lauxlib.h>

#include <stdlib.h>
#include <string.h>

// Snapshots of at most this many bytes in total: a big scene keeps fewer, further apart.
#define TB_HISTORY_BUDGET ( (size_t)256 << 20 )

static tbHistoryEntry* tbEntry( tbHistory* h, int i )
{
	return h->entries + ( h->first + i ) % TB_HISTORY_CAPACITY;
}

static void tbDropNewest( tbHistory* h )
{
	tbHistoryEntry* e = tbEntry( h, h->count - 1 );
	h->bytes -= tbSnapshot_GetByteCount( e->snapshot );
	tbDestroySnapshot( e->snapshot );
	e->snapshot = NULL;
	h->count -= 1;
}

static void tbDropOldest( tbHistory* h )
{
	tbHistoryEntry* e = tbEntry( h, 0 );
	h->bytes -= tbSnapshot_GetByteCount( e->snapshot );
	tbDestroySnapshot( e->snapshot );
	e->snapshot = NULL;
	h->first = ( h->first + 1 ) % TB_HISTORY_CAPACITY;
	h->count -= 1;
}

void tbHistory_Clear( tbHistory* h )
{
	while ( h->count > 0 )
	{
		tbDropNewest( h );
	}
	h->first = 0;
	h->cursor = -1;
	h->stride = 1;
	h->skipped = 0;
	h->bytes = 0;
}

// The World userdata of the running scene carries the clock update() sees. scene.h does not hand it
// out, so find it in the Lua registry, where the scene host keeps its reference.
static void tbSetWorldClock( tbViewer* v, tbWorldId world, double time, long long stepCount )
{
	lua_State* L = tbScene_GetLuaState( v->scene );
	if ( L == NULL )
	{
		return;
	}
	lua_pushnil( L );
	while ( lua_next( L, LUA_REGISTRYINDEX ) != 0 )
	{
		if ( lua_type( L, -1 ) == LUA_TUSERDATA )
		{
			tbWorldId id = tbLua_ToWorld( L, -1 );
			if ( id.index1 == world.index1 && id.generation == world.generation )
			{
				tbLua_SetWorldClock( L, -1, time, stepCount );
			}
		}
		lua_pop( L, 1 );
	}
}

// A restored snapshot brings back the viewer's drag joint if one existed when it was taken; the
// viewer no longer tracks it, so it would pull forever. Remove every such joint.
static void tbRemoveDragJoints( tbWorldId world )
{
	int count = tbWorld_GetBodies( world, NULL, 0 );
	tbBodyId* bodies = count > 0 ? malloc( (size_t)count * sizeof( tbBodyId ) ) : NULL;
	if ( bodies == NULL )
	{
		return;
	}
	count = tbWorld_GetBodies( world, bodies, count );
	for ( int i = 0; i < count; ++i )
	{
		// Repeat: destroying a joint changes the body's list.
		bool removed = true;
		while ( removed )
		{
			removed = false;
			tbJointId joints[32];
			int jointCount = tbBody_GetJoints( bodies[i], joints, 32 );
			for ( int j = 0; j < jointCount && j < 32 && removed == false; ++j )
			{
				const char* name = tbJoint_GetName( joints[j] );
				if ( tbJoint_GetType( joints[j] ) == tbJoint_mouse && name != NULL &&
					 strcmp( name, "viewer drag" ) == 0 )
				{
					removed = tbDestroyJoint( joints[j] ) == tbResult_ok;
				}
			}
		}
	}
	free( bodies );
}

void tbHistory_Record( tbViewer* v )
{
	tbHistory* h = &v->history;
	tbWorldId world = tbScene_GetWorld( v->scene );
	if ( tbWorld_IsValid( world ) == false )
	{
		return;
	}
	// Stepping from a rewound state writes a new future: the old one goes.
	if ( h->cursor >= 0 )
	{
		while ( h->count > h->cursor + 1 )
		{
			tbDropNewest( h );
		}
		h->cursor = -1;
		h->skipped = 0;
	}
	if ( h->stride < 1 )
	{
		h->stride = 1;
	}
	if ( h->count > 0 && ++h->skipped < h->stride )
	{
		return;
	}
	h->skipped = 0;
	tbSnapshot* snapshot = tbWorld_TakeSnapshot( world );
	if ( snapshot == NULL )
	{
		return;
	}
	if ( h->count == TB_HISTORY_CAPACITY )
	{
		tbDropOldest( h );
	}
	tbHistoryEntry* e = tbEntry( h, h->count );
	e->snapshot = snapshot;
	e->stepCount = tbScene_GetStepCount( v->scene );
	e->time = tbScene_GetTime( v->scene );
	h->count += 1;
	size_t size = tbSnapshot_GetByteCount( snapshot );
	h->bytes += size;
	// Keep a full ring within the budget: space the snapshots out as the world grows.
	size_t full = size * TB_HISTORY_CAPACITY;
	int stride = (int)( ( full + TB_HISTORY_BUDGET - 1 ) / TB_HISTORY_BUDGET );
	h->stride = stride > h->stride ? stride : h->stride;
	while ( h->bytes > TB_HISTORY_BUDGET && h->count > 1 )
	{
		tbDropOldest( h );
	}
}

static bool tbRestore( tbViewer* v, int index )
{
	tbHistory* h = &v->history;
	tbWorldId world = tbScene_GetWorld( v->scene );
	if ( index < 0 || index >= h->count || tbWorld_IsValid( world ) == false )
	{
		return false;
	}
	tbViewer_EndBodyDrag( v );
	if ( v->drag == tbDrag_body )
	{
		v->drag = tbDrag_none;
	}
	const tbHistoryEntry* e = tbEntry( h, index );
	if ( tbWorld_RestoreSnapshot( world, e->snapshot ) != tbResult_ok )
	{
		return false;
	}
	tbRemoveDragJoints( world );
	tbSetWorldClock( v, world, e->time, e->stepCount );
	h->cursor = index;
	v->paused = true;
	v->accumulator = 0.0;
	return true;
}

bool tbHistory_Rewind( tbViewer* v, int delta )
{
	tbHistory* h = &v->history;
	if ( h->count == 0 )
	{
		return false;
	}
	int current = h->cursor >= 0 ? h->cursor : h->count - 1;
	int target = current + delta;
	target = target < 0 ? 0 : ( target > h->count - 1 ? h->count - 1 : target );
	return tbRestore( v, target );
}

double tbHistory_GetSpan( const tbHistory* h )
{
	if ( h->count < 2 )
	{
		return 0.0;
	}
	const tbHistoryEntry* oldest = h->entries + h->first;
	const tbHistoryEntry* newest = h->entries + ( h->first + h->count - 1 ) % TB_HISTORY_CAPACITY;
	return newest->time - oldest->time;
}

double tbHistory_GetOffset( const tbHistory* h )
{
	if ( h->cursor < 0 || h->count == 0 )
	{
		return 0.0;
	}
	const tbHistoryEntry* at = h->entries + ( h->first + h->cursor ) % TB_HISTORY_CAPACITY;
	const tbHistoryEntry* newest = h->entries + ( h->first + h->count - 1 ) % TB_HISTORY_CAPACITY;
	return newest->time - at->time;
}

bool tbHistory_Scrub( tbViewer* v, double offset )
{
	tbHistory* h = &v->history;
	if ( h->count == 0 )
	{
		return false;
	}
	const tbHistoryEntry* newest = tbEntry( h, h->count - 1 );
	double target = newest->time - offset;
	int best = h->count - 1;
	for ( int i = 0; i < h->count; ++i )
	{
		double d = tbEntry( h, i )->time - target;
		double bestD = tbEntry( h, best )->time - target;
		if ( ( d < 0 ? -d : d ) < ( bestD < 0 ? -bestD : bestD ) )
		{
			best = i;
		}
	}
	return best == h->cursor || tbRestore( v, best );
}
