// Tumble Lua bindings: world:snapshot() and world:restore(snapshot).
// SPDX-License-Identifier: MIT
//
// A Snapshot holds a tbSnapshot (allocated by the physics library, freed by __gc) and the world's
// Lua clock when it was taken. Lua's collector paces itself by the memory Lua allocated, and the
// sandbox caps that same memory; a snapshot's bytes live outside it, so a loop taking snapshots
// would grow unseen by both. The Snapshot therefore keeps, as its user value, a block of Lua
// memory as large as the snapshot. The block is never written: it only makes the collector and
// the sandbox's cap count the snapshot.
#include "l_common.h"

#include <stdio.h>

#define TB_LUA_SNAPSHOT "tumble.Snapshot"

typedef struct tbLuaSnapshot
{
	tbSnapshot* snapshot; ///< NULL until taken
	tbWorldId world;
	double time; ///< the world's Lua clock (world.time, world.step_count) when taken
	long long stepCount;
} tbLuaSnapshot;

static tbLuaSnapshot* tbCheckSnapshot( lua_State* L, int index, const char* fn )
{
	tbLuaSnapshot* s = luaL_testudata( L, index, TB_LUA_SNAPSHOT );
	if ( s == NULL || s->snapshot == NULL )
	{
		char got[96];
		luaL_error( L, "%s: expected a Snapshot (from world:snapshot()), got %s", fn,
					tbLua_Describe( L, index, got, sizeof( got ) ) );
	}
	return s;
}

static int tbSnapshot_Gc( lua_State* L )
{
	tbLuaSnapshot* s = luaL_checkudata( L, 1, TB_LUA_SNAPSHOT );
	if ( s->snapshot != NULL )
	{
		tbDestroySnapshot( s->snapshot );
		s->snapshot = NULL;
	}
	return 0;
}

static int tbSnapshot_ToString( lua_State* L )
{
	tbLuaSnapshot* s = luaL_checkudata( L, 1, TB_LUA_SNAPSHOT );
	char text[96];
	snprintf( text, sizeof( text ), "Snapshot (t = %.3f s, step %lld, %zu bytes)", s->time, s->stepCount,
			  s->snapshot != NULL ? tbSnapshot_GetByteCount( s->snapshot ) : (size_t)0 );
	lua_pushstring( L, text );
	return 1;
}

static int tbSnapshot_GetTime( lua_State* L )
{
	lua_pushnumber( L, tbCheckSnapshot( L, 1, "Snapshot.time" )->time );
	return 1;
}

static int tbSnapshot_GetStepCount( lua_State* L )
{
	lua_pushinteger( L, (lua_Integer)tbCheckSnapshot( L, 1, "Snapshot.step_count" )->stepCount );
	return 1;
}

static int tbSnapshot_GetBytes( lua_State* L )
{
	lua_pushinteger( L, (lua_Integer)tbSnapshot_GetByteCount( tbCheckSnapshot( L, 1, "Snapshot.bytes" )->snapshot ) );
	return 1;
}

// world:snapshot() -> Snapshot
int tbLuaWorld_Snapshot( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "snapshot" );
	tbLua_CheckUnlocked( L, world, "snapshot" );
	tbLua_Guard( L, tbLuaGuard_copy, "snapshot" );
	// The userdata (and its __gc) first: an error after the snapshot is taken cannot leak it.
	tbLuaSnapshot* s = lua_newuserdatauv( L, sizeof( tbLuaSnapshot ), 1 );
	s->snapshot = NULL;
	s->world = world->id;
	s->time = world->time;
	s->stepCount = world->stepCount;
	luaL_setmetatable( L, TB_LUA_SNAPSHOT );
	s->snapshot = tbWorld_TakeSnapshot( world->id );
	if ( s->snapshot == NULL )
	{
		return luaL_error( L, "snapshot: not enough memory for the snapshot of the world" );
	}
	size_t bytes = tbSnapshot_GetByteCount( s->snapshot );
	lua_newuserdatauv( L, bytes > 0 ? bytes : 1, 0 );
	lua_setiuservalue( L, -2, 1 );
	return 1;
}

// world:restore(snapshot): the world as it was when the snapshot was taken, clock included.
int tbLuaWorld_Restore( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "restore" );
	tbLua_CheckUnlocked( L, world, "restore" );
	tbLuaSnapshot* s = tbCheckSnapshot( L, 2, "restore" );
	if ( s->world.index1 != world->id.index1 || s->world.generation != world->id.generation )
	{
		return luaL_error( L, "restore: the snapshot was taken from another world" );
	}
	tbLua_Guard( L, tbLuaGuard_copy, "restore" );
	tbResult result = tbWorld_RestoreSnapshot( world->id, s->snapshot );
	if ( result == tbResult_outOfMemory )
	{
		return luaL_error( L, "restore: not enough memory to restore the snapshot (the world is as it was)" );
	}
	if ( result != tbResult_ok )
	{
		return luaL_error( L, "restore: %s", tbResultString( result ) );
	}
	world->time = s->time;
	world->stepCount = s->stepCount;
	return 0;
}

void tbLua_OpenSnapshot( lua_State* L )
{
	static const luaL_Reg methods[] = {
		{ NULL, NULL },
	};
	static const tbLuaProperty properties[] = {
		{ "time", tbSnapshot_GetTime, NULL },
		{ "step_count", tbSnapshot_GetStepCount, NULL },
		{ "bytes", tbSnapshot_GetBytes, NULL },
		{ NULL, NULL, NULL },
	};
	static const tbLuaType type = { "Snapshot", methods, properties, tbSnapshot_Gc, tbSnapshot_ToString, NULL };
	tbLua_RegisterType( L, &type );
}
