// Tumble Lua bindings: the World type (tb.world{...}, world:step, queries, events).
// SPDX-License-Identifier: MIT
#include "l_common.h"

#include <stdlib.h>
#include <string.h>

// User values of the World userdata.
enum
{
	tbWorldValue_bodies = 1,				   ///< index1 -> Body userdata
	tbWorldValue_handlers = 2,				   ///< event name -> list of { fn, owner, removed }
	tbWorldValue_joints = TB_LUA_WORLD_JOINTS, ///< index1 -> Joint userdata
	tbWorldValue_movers = TB_LUA_WORLD_MOVERS, ///< index1 -> Mover userdata
	tbWorldValue_count = 4
};

static const char* const tb_hostKey = "tumble.host";
static const char* const tb_ownerKey = "tumble.owner";

// Checking ---------------------------------------------------------------------------------------

tbLuaWorld* tbLua_CheckWorld( lua_State* L, int index, const char* fn )
{
	tbLuaWorld* world = tbLua_TestUdata( L, index, TB_LUA_WORLD );
	if ( world == NULL )
	{
		char got[96];
		luaL_error( L, "%s: expected a World (call it as world:%s(...)), got %s", fn, fn,
					tbLua_Describe( L, index, got, sizeof( got ) ) );
	}
	if ( world->destroyed || tbWorld_IsValid( world->id ) == false )
	{
		luaL_error( L, "attempt to use a destroyed World" );
	}
	return world;
}

void tbLua_CheckUnlocked( lua_State* L, tbLuaWorld* world, const char* fn )
{
	if ( tbWorld_IsLocked( world->id ) )
	{
		luaL_error( L, "%s: the world is locked during a step", fn );
	}
}

static void tbCheckResult( lua_State* L, tbResult result, const char* fn )
{
	if ( result != tbResult_ok )
	{
		luaL_error( L, "%s: %s", fn, tbResultString( result ) );
	}
}

// Settings ---------------------------------------------------------------------------------------

// The solver mode of every world made or configured (tbLua_SetForcedSolver), -1: the settings'.
static int s_forcedSolver = -1;

bool tbLua_SetForcedSolver( const char* name )
{
	for ( int i = 0; tb_solverNames[i] != NULL; ++i )
	{
		if ( strcmp( tb_solverNames[i], name ) == 0 )
		{
			s_forcedSolver = i;
			return true;
		}
	}
	return false;
}

const char* tbLua_GetForcedSolver( void )
{
	return s_forcedSolver >= 0 ? tb_solverNames[s_forcedSolver] : NULL;
}

// The index of a global method's name, -1 for an unknown one (the caller says what was expected).
static int tbGlobalMethodIndex( const char* name )
{
	for ( int i = 0; tb_globalMethodNames[i] != NULL; ++i )
	{
		if ( strcmp( tb_globalMethodNames[i], name ) == 0 )
		{
			return i;
		}
	}
	return -1;
}

// Reads the settings fields shared by tb.world{...} and live updates into *settings.
static void tbReadWorldSettings( lua_State* L, int index, const char* fn, tbWorldDef* settings )
{
	tbLuaDef def;
	tbDef_Begin( &def, L, index, fn, "" );
	lua_Integer n = 0;
	int e = 0;
	tbDef_Vec3( &def, "gravity", &settings->gravity, tbCheck_gravity );
	if ( tbDef_Integer( &def, "iterations", &n, 1, 1000 ) )
	{
		settings->iterations = (int)n;
	}
	if ( tbDef_Integer( &def, "sub_steps", &n, 1, 64 ) )
	{
		settings->subSteps = (int)n;
	}
	if ( tbDef_Integer( &def, "position_iterations", &n, 0, 1000 ) )
	{
		settings->positionIterations = (int)n;
	}
	if ( tbDef_Enum( &def, "solver", tb_solverNames, &e, "solver" ) )
	{
		settings->solverMode = (tbSolverMode)e;
	}
	tbDef_Number( &def, "baumgarte", &settings->baumgarte, tbCheck_unit );
	const char* method = NULL;
	if ( tbDef_String( &def, "global_method", &method, 32 ) )
	{
		int m = tbGlobalMethodIndex( method );
		if ( m < 0 )
		{
			tbDef_FieldError( &def, "global_method", "\"gauss_seidel\" or \"jacobi\"" );
		}
		settings->globalMethod = (tbGlobalMethod)m;
	}
	float relaxation = 0.0f;
	if ( tbDef_Number( &def, "global_relaxation", &relaxation, tbCheck_positive ) )
	{
		if ( relaxation >= 2.0f )
		{
			tbDef_FieldError( &def, "global_relaxation", "a number in (0, 2)" );
		}
		settings->globalRelaxation = relaxation;
	}
	tbDef_Bool( &def, "direct_solve", &settings->enableDirectSolve );
	tbDef_Number( &def, "slop", &settings->linearSlop, tbCheck_nonNegative );
	tbDef_Number( &def, "max_correction_speed", &settings->maxCorrectionSpeed, tbCheck_nonNegative );
	tbDef_Number( &def, "contact_hertz", &settings->contactHertz, tbCheck_stiffness );
	tbDef_Number( &def, "contact_damping", &settings->contactDampingRatio, tbCheck_nonNegative );
	tbDef_Number( &def, "joint_hertz", &settings->jointHertz, tbCheck_stiffness );
	tbDef_Number( &def, "joint_damping", &settings->jointDampingRatio, tbCheck_nonNegative );
	tbDef_Number( &def, "restitution_threshold", &settings->restitutionThreshold, tbCheck_nonNegative );
	if ( tbDef_Enum( &def, "friction_mix", tb_mixRuleNames, &e, "mix rule" ) )
	{
		settings->frictionMix = (tbMixRule)e;
	}
	if ( tbDef_Enum( &def, "restitution_mix", tb_mixRuleNames, &e, "mix rule" ) )
	{
		settings->restitutionMix = (tbMixRule)e;
	}
	tbDef_Bool( &def, "sleep", &settings->enableSleep );
	tbDef_Bool( &def, "continuous", &settings->enableContinuous );
	tbDef_Bool( &def, "warm_starting", &settings->enableWarmStarting );
	tbDef_Bool( &def, "contact_reuse", &settings->enableContactReuse );
	if ( tbDef_Number( &def, "max_linear_speed", &settings->maxLinearSpeed, tbCheck_positive ) &&
		 settings->maxLinearSpeed > TB_MAX_SPEED )
	{
		char text[64];
		tbDef_FieldError( &def, "max_linear_speed", tbLua_LimitText( text, sizeof( text ), 1, TB_MAX_SPEED, "m/s" ) );
	}
	if ( tbDef_Integer( &def, "threads", &n, 1, TB_MAX_WORKER_COUNT ) )
	{
		settings->workerCount = (int)n;
	}
	tbDef_Finish( &def );
	if ( s_forcedSolver >= 0 )
	{
		settings->solverMode = (tbSolverMode)s_forcedSolver;
	}
}

void tbLua_ApplyWorldSettings( lua_State* L, int worldIndex, int tableIndex )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, worldIndex, "world" );
	tbWorldDef settings = tbWorld_GetSettings( world->id );
	tbReadWorldSettings( L, tableIndex, "world", &settings );
	tbCheckResult( L, tbWorld_SetSolver( world->id, &settings ), "world" );
	tbCheckResult( L, tbWorld_SetGravity( world->id, settings.gravity ), "world" );
	tbWorld_EnableSleeping( world->id, settings.enableSleep );
}

int tbLua_GetOwner( lua_State* L )
{
	lua_getfield( L, LUA_REGISTRYINDEX, tb_ownerKey );
	int owner = (int)lua_tointeger( L, -1 );
	lua_pop( L, 1 );
	return owner;
}

// Creation and lifetime --------------------------------------------------------------------------

// The worlds a state owns and has not destroyed, kept in its registry (tbLua_GetOwnedWorldCount)
// under this variable's address: reading it allocates nothing, so a host may count another state's
// worlds while that state is in the middle of a call.
static const char tb_ownedWorldsKey = 0;

static void tbCountOwnedWorld( lua_State* L, int delta )
{
	lua_rawgetp( L, LUA_REGISTRYINDEX, &tb_ownedWorldsKey );
	lua_Integer count = lua_tointeger( L, -1 ) + delta;
	lua_pop( L, 1 );
	lua_pushinteger( L, count );
	lua_rawsetp( L, LUA_REGISTRYINDEX, &tb_ownedWorldsKey );
}

int tbLua_GetOwnedWorldCount( lua_State* L )
{
	lua_rawgetp( L, LUA_REGISTRYINDEX, &tb_ownedWorldsKey );
	int count = (int)lua_tointeger( L, -1 );
	lua_pop( L, 1 );
	return count;
}

void tbLua_PushWorld( lua_State* L, tbWorldId worldId, bool owned )
{
	tbLuaWorld* world = lua_newuserdatauv( L, sizeof( tbLuaWorld ), tbWorldValue_count );
	memset( world, 0, sizeof( *world ) );
	world->id = worldId;
	world->owned = owned;
	lua_newtable( L );
	lua_setiuservalue( L, -2, tbWorldValue_bodies );
	lua_newtable( L );
	lua_setiuservalue( L, -2, tbWorldValue_handlers );
	lua_newtable( L );
	lua_setiuservalue( L, -2, tbWorldValue_joints );
	lua_newtable( L );
	lua_setiuservalue( L, -2, tbWorldValue_movers );
	luaL_setmetatable( L, TB_LUA_WORLD );
	if ( owned )
	{
		tbCountOwnedWorld( L, 1 );
	}
}

// Worker threads of worlds whose settings do not name a count (the runtime's --threads).
static int s_defaultWorkerCount = 1;

void tbLua_SetDefaultWorkerCount( int workerCount )
{
	s_defaultWorkerCount = workerCount >= 1 && workerCount <= TB_MAX_WORKER_COUNT ? workerCount : 1;
}

int tbLua_NewWorld( lua_State* L )
{
	tbWorldDef settings = tbDefaultWorldDef();
	settings.workerCount = s_defaultWorkerCount;
	if ( lua_isnoneornil( L, 1 ) == false )
	{
		tbReadWorldSettings( L, 1, "world", &settings );
	}
	settings.solverMode = s_forcedSolver >= 0 ? (tbSolverMode)s_forcedSolver : settings.solverMode;
	lua_pushinteger( L, settings.workerCount );
	tbLua_Guard( L, tbLuaGuard_world, "world" );
	lua_pop( L, 1 );
	tbWorldId id = tb_nullWorldId;
	tbResult result = tbCreateWorldChecked( &settings, &id );
	if ( result == tbResult_outOfMemory && tbGetWorldCount() < TB_MAX_WORLDS )
	{
		return luaL_error( L, "world: not enough memory for the world" );
	}
	if ( result != tbResult_ok || TB_IS_NULL( id ) )
	{
		return luaL_error( L, "world: could not create the world: %s (at most %d worlds can exist at once)",
						   tbResultString( result ), TB_MAX_WORLDS );
	}
	tbLua_PushWorld( L, id, true );
	( (tbLuaWorld*)lua_touserdata( L, -1 ) )->owner = tbLua_GetOwner( L );
	return 1;
}

static void tbDestroyLuaWorld( lua_State* L, int index, tbLuaWorld* world )
{
	if ( world->destroyed )
	{
		return;
	}
	world->destroyed = true;
	if ( world->owned )
	{
		tbCountOwnedWorld( L, -1 );
		if ( tbWorld_IsValid( world->id ) )
		{
			tbDestroyWorld( world->id );
		}
	}
	// Dropping the caches makes every handle of this world report itself destroyed.
	lua_newtable( L );
	lua_setiuservalue( L, index, tbWorldValue_bodies );
	lua_newtable( L );
	lua_setiuservalue( L, index, tbWorldValue_joints );
	lua_newtable( L );
	lua_setiuservalue( L, index, tbWorldValue_movers );
}

static int tbWorld_Gc( lua_State* L )
{
	tbLuaWorld* world = luaL_checkudata( L, 1, TB_LUA_WORLD );
	tbDestroyLuaWorld( L, 1, world );
	return 0;
}

static int tbWorld_ToString( lua_State* L )
{
	tbLuaWorld* world = luaL_checkudata( L, 1, TB_LUA_WORLD );
	if ( world->destroyed || tbWorld_IsValid( world->id ) == false )
	{
		lua_pushstring( L, "World (destroyed)" );
	}
	else
	{
		tbWorldCounters c = tbWorld_GetCounters( world->id );
		lua_pushfstring( L, "World (%d bodies, t = %f s)", c.bodyCount, world->time );
	}
	return 1;
}

static int tbWorld_Destroy( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "destroy" );
	tbLua_CheckUnlocked( L, world, "destroy" );
	if ( world->dispatching )
	{
		return luaL_error( L, "destroy: cannot destroy the world from its own event handler" );
	}
	int caller = tbLua_GetOwner( L );
	if ( caller != 0 && caller != world->owner )
	{
		return luaL_error( L, "destroy: a mod may destroy only the worlds it made" );
	}
	tbDestroyLuaWorld( L, 1, world );
	return 0;
}

static int tbWorld_IsValidMethod( lua_State* L )
{
	tbLuaWorld* world = tbLua_TestUdata( L, 1, TB_LUA_WORLD );
	lua_pushboolean( L, world != NULL && world->destroyed == false && tbWorld_IsValid( world->id ) );
	return 1;
}

tbWorldId tbLua_ToWorld( lua_State* L, int index )
{
	tbLuaWorld* world = tbLua_TestUdata( L, index, TB_LUA_WORLD );
	if ( world == NULL || world->destroyed || tbWorld_IsValid( world->id ) == false )
	{
		return tb_nullWorldId;
	}
	return world->id;
}

void tbLua_SetWorldOwned( lua_State* L, int index, bool owned )
{
	tbLuaWorld* world = tbLua_TestUdata( L, index, TB_LUA_WORLD );
	if ( world != NULL && world->owned != owned )
	{
		world->owned = owned;
		if ( world->destroyed == false )
		{
			tbCountOwnedWorld( L, owned ? 1 : -1 );
		}
	}
}

void tbLua_GetWorldClock( lua_State* L, int index, double* time, long long* stepCount )
{
	tbLuaWorld* world = tbLua_TestUdata( L, index, TB_LUA_WORLD );
	*time = world != NULL ? world->time : 0.0;
	*stepCount = world != NULL ? world->stepCount : 0;
}

void tbLua_SetWorldClock( lua_State* L, int index, double time, long long stepCount )
{
	tbLuaWorld* world = tbLua_TestUdata( L, index, TB_LUA_WORLD );
	if ( world != NULL )
	{
		world->time = time;
		world->stepCount = stepCount;
	}
}

// Events -----------------------------------------------------------------------------------------

void tbLua_SetHost( lua_State* L, const tbLuaHost* host )
{
	if ( host == NULL )
	{
		lua_pushnil( L );
	}
	else
	{
		tbLuaHost* copy = lua_newuserdatauv( L, sizeof( tbLuaHost ), 0 );
		*copy = *host;
	}
	lua_setfield( L, LUA_REGISTRYINDEX, tb_hostKey );
}

static const tbLuaHost* tbGetHost( lua_State* L )
{
	lua_getfield( L, LUA_REGISTRYINDEX, tb_hostKey );
	const tbLuaHost* host = lua_touserdata( L, -1 );
	lua_pop( L, 1 );
	return host;
}

void tbLua_Guard( lua_State* L, tbLuaGuard what, const char* fn )
{
	const tbLuaHost* host = tbGetHost( L );
	if ( host != NULL && host->guard != NULL )
	{
		host->guard( L, what, fn, host->context );
	}
}

void tbLua_SetOwner( lua_State* L, int owner )
{
	lua_pushinteger( L, owner );
	lua_setfield( L, LUA_REGISTRYINDEX, tb_ownerKey );
}


// Rebuilds every handler list of the world at worldIndex without the entries of owner (or, when
// event is not NULL, without owner's entries of that event whose function equals the value at fn,
// or all of them when fn is 0).
static void tbRemoveHandlers( lua_State* L, int worldIndex, int owner, const char* event, int fn )
{
	lua_getiuservalue( L, worldIndex, tbWorldValue_handlers );
	int handlers = lua_gettop( L );
	for ( int e = 0; tb_eventNames[e] != NULL; ++e )
	{
		if ( event != NULL && strcmp( event, tb_eventNames[e] ) != 0 )
		{
			continue;
		}
		if ( lua_getfield( L, handlers, tb_eventNames[e] ) != LUA_TTABLE )
		{
			lua_pop( L, 1 );
			continue;
		}
		int list = lua_gettop( L );
		lua_newtable( L );
		int kept = 0;
		lua_Integer n = (lua_Integer)lua_rawlen( L, list );
		for ( lua_Integer i = 1; i <= n; ++i )
		{
			lua_rawgeti( L, list, i );
			int entry = lua_gettop( L );
			lua_rawgeti( L, entry, 2 );
			bool remove = lua_tointeger( L, -1 ) == owner;
			lua_pop( L, 1 );
			if ( event != NULL && remove )
			{
				if ( fn == 0 )
				{
					remove = true;
				}
				else
				{
					lua_rawgeti( L, entry, 1 );
					remove = lua_rawequal( L, -1, fn ) != 0;
					lua_pop( L, 1 );
				}
			}
			if ( remove )
			{
				// The flag stops a dispatch in progress (which iterates a snapshot) from calling it.
				lua_pushboolean( L, 1 );
				lua_rawseti( L, entry, 3 );
				lua_pop( L, 1 );
			}
			else
			{
				lua_rawseti( L, -2, ++kept );
			}
		}
		lua_setfield( L, handlers, tb_eventNames[e] );
		lua_pop( L, 1 );
	}
	lua_pop( L, 1 );
}

void tbLua_RemoveOwnerHandlers( lua_State* L, int worldIndex, int owner )
{
	worldIndex = lua_absindex( L, worldIndex );
	if ( tbLua_TestUdata( L, worldIndex, TB_LUA_WORLD ) != NULL )
	{
		tbRemoveHandlers( L, worldIndex, owner, NULL, 0 );
	}
}

// world:on(event, fn) -> fn
static int tbWorld_On( lua_State* L )
{
	tbLua_CheckWorld( L, 1, "on" );
	int e = tbLua_CheckEnum( L, 2, tb_eventNames, "on", "event" );
	if ( lua_type( L, 3 ) != LUA_TFUNCTION )
	{
		char got[64];
		return luaL_error( L, "on: handler must be a function, got %s", tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	lua_getiuservalue( L, 1, tbWorldValue_handlers );
	if ( lua_getfield( L, -1, tb_eventNames[e] ) != LUA_TTABLE )
	{
		lua_pop( L, 1 );
		lua_newtable( L );
		lua_pushvalue( L, -1 );
		lua_setfield( L, -3, tb_eventNames[e] );
	}
	lua_createtable( L, 3, 0 );
	lua_pushvalue( L, 3 );
	lua_rawseti( L, -2, 1 );
	lua_pushinteger( L, tbLua_GetOwner( L ) );
	lua_rawseti( L, -2, 2 );
	lua_rawseti( L, -2, (lua_Integer)lua_rawlen( L, -2 ) + 1 );
	lua_settop( L, 3 );
	return 1;
}

// world:off(event [, fn]): remove one of the caller's handlers, or every one of the event.
static int tbWorld_Off( lua_State* L )
{
	tbLua_CheckWorld( L, 1, "off" );
	int e = tbLua_CheckEnum( L, 2, tb_eventNames, "off", "event" );
	if ( lua_isnoneornil( L, 3 ) == false && lua_type( L, 3 ) != LUA_TFUNCTION )
	{
		char got[64];
		return luaL_error( L, "off: handler must be a function or nil, got %s",
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	// Only the caller's own handlers: a mod cannot remove the scene's, nor the scene a mod's.
	tbRemoveHandlers( L, 1, tbLua_GetOwner( L ), tb_eventNames[e], lua_isnoneornil( L, 3 ) ? 0 : 3 );
	return 0;
}

void tbLua_PushShapeBody( lua_State* L, int worldIndex, tbShapeId shapeId )
{
	if ( tbShape_IsValid( shapeId ) == false )
	{
		lua_pushnil( L );
		return;
	}
	tbLua_PushBody( L, worldIndex, tbShape_GetBody( shapeId ) );
}

static int tbTraceback( lua_State* L )
{
	const char* message = lua_tostring( L, 1 );
	if ( message == NULL )
	{
		message = lua_pushfstring( L, "(error object is a %s value)", luaL_typename( L, 1 ) );
	}
	luaL_traceback( L, L, message, 1 );
	return 1;
}

// Appends the event tables of kind e to the list at the stack top (events of the last step).
static void tbBuildEvents( lua_State* L, int worldIndex, tbWorldId id, int e )
{
	int list = lua_gettop( L );
	lua_Integer n = 0;
	if ( e == 0 || e == 1 )
	{
		tbContactEvents events = tbWorld_GetContactEvents( id );
		int count = e == 0 ? events.beginCount : events.endCount;
		for ( int i = 0; i < count; ++i )
		{
			lua_createtable( L, 0, 5 );
			tbShapeId shapeA = e == 0 ? events.beginEvents[i].shapeA : events.endEvents[i].shapeA;
			tbShapeId shapeB = e == 0 ? events.beginEvents[i].shapeB : events.endEvents[i].shapeB;
			tbLua_PushShapeBody( L, worldIndex, shapeA );
			lua_setfield( L, -2, "a" );
			tbLua_PushShapeBody( L, worldIndex, shapeB );
			lua_setfield( L, -2, "b" );
			if ( e == 0 )
			{
				tbLua_PushVec3Table( L, events.beginEvents[i].point );
				lua_setfield( L, -2, "point" );
				tbLua_PushVec3Table( L, events.beginEvents[i].normal );
				lua_setfield( L, -2, "normal" );
				lua_pushnumber( L, events.beginEvents[i].approachSpeed );
				lua_setfield( L, -2, "speed" );
			}
			lua_rawseti( L, list, ++n );
		}
	}
	else if ( e == 2 || e == 3 )
	{
		tbSensorEvents events = tbWorld_GetSensorEvents( id );
		int count = e == 2 ? events.beginCount : events.endCount;
		const tbSensorEvent* array = e == 2 ? events.beginEvents : events.endEvents;
		for ( int i = 0; i < count; ++i )
		{
			lua_createtable( L, 0, 2 );
			tbLua_PushShapeBody( L, worldIndex, array[i].sensorShape );
			lua_setfield( L, -2, "sensor" );
			tbLua_PushShapeBody( L, worldIndex, array[i].visitorShape );
			lua_setfield( L, -2, "visitor" );
			lua_rawseti( L, list, ++n );
		}
	}
	else if ( e == 4 )
	{
		tbJointBreakEvents events = tbWorld_GetJointBreakEvents( id );
		for ( int i = 0; i < events.count; ++i )
		{
			tbLua_PushJointBreakEvent( L, worldIndex, events.events + i );
			lua_rawseti( L, list, ++n );
		}
	}
}

void tbLua_PushTableCopy( lua_State* L, int index, int depth )
{
	index = lua_absindex( L, index );
	luaL_checkstack( L, 4, "copying a table" );
	lua_newtable( L );
	lua_pushnil( L );
	while ( lua_next( L, index ) != 0 )
	{
		if ( depth > 0 && lua_type( L, -1 ) == LUA_TTABLE )
		{
			tbLua_PushTableCopy( L, -1, depth - 1 );
			lua_remove( L, -2 );
		}
		lua_pushvalue( L, -2 );
		lua_insert( L, -2 );
		lua_rawset( L, -4 );
	}
}

// Calls every handler for every event of the last step. All event tables are built before the
// first handler runs, so a handler that destroys bodies cannot invalidate the others' data. Each
// call is protected; the first error of the scene (owner 0) is raised after all handlers ran.
static void tbDispatchEvents( lua_State* L, int worldIndex, tbLuaWorld* world )
{
	int base = lua_gettop( L );
	lua_getiuservalue( L, worldIndex, tbWorldValue_handlers );
	int handlers = base + 1;
	int eventCount = 0;
	while ( tb_eventNames[eventCount] != NULL )
	{
		eventCount += 1;
	}

	// Stack: handlers, then per event kind: snapshot of the handler list, list of event tables.
	bool any = false;
	for ( int e = 0; e < eventCount; ++e )
	{
		lua_newtable( L );
		int snapshot = lua_gettop( L );
		if ( lua_getfield( L, handlers, tb_eventNames[e] ) == LUA_TTABLE )
		{
			lua_Integer n = (lua_Integer)lua_rawlen( L, -1 );
			for ( lua_Integer i = 1; i <= n; ++i )
			{
				lua_rawgeti( L, -1, i );
				lua_rawseti( L, snapshot, i );
			}
		}
		lua_pop( L, 1 );
		lua_newtable( L );
		if ( lua_rawlen( L, snapshot ) > 0 )
		{
			tbBuildEvents( L, worldIndex, world->id, e );
			any = any || lua_rawlen( L, -1 ) > 0;
		}
	}
	if ( any == false )
	{
		lua_settop( L, base );
		return;
	}

	const tbLuaHost* host = tbGetHost( L );
	lua_pushnil( L ); // first error
	int firstError = lua_gettop( L );
	lua_pushcfunction( L, tbTraceback );
	int traceback = lua_gettop( L );

	world->dispatching = true;
	for ( int e = 0; e < eventCount; ++e )
	{
		int snapshot = handlers + 1 + 2 * e;
		int events = snapshot + 1;
		lua_Integer eventTotal = (lua_Integer)lua_rawlen( L, events );
		lua_Integer handlerTotal = (lua_Integer)lua_rawlen( L, snapshot );
		for ( lua_Integer i = 1; i <= eventTotal; ++i )
		{
			for ( lua_Integer h = 1; h <= handlerTotal; ++h )
			{
				lua_rawgeti( L, snapshot, h );
				int entry = lua_gettop( L );
				lua_rawgeti( L, entry, 3 );
				bool removed = lua_toboolean( L, -1 ) != 0;
				lua_rawgeti( L, entry, 2 );
				int owner = (int)lua_tointeger( L, -1 );
				lua_pop( L, 2 );
				if ( removed )
				{
					lua_pop( L, 1 );
					continue;
				}
				int status = LUA_ERRRUN;
				if ( host == NULL || host->beginCall == NULL || host->beginCall( L, owner, host->context ) )
				{
					lua_rawgeti( L, entry, 1 );
					lua_rawgeti( L, events, i );
					// Each handler gets an event of its own: one handler (a mod's) cannot change
					// what the next (the scene's) sees.
					tbLua_PushTableCopy( L, -1, 1 );
					lua_remove( L, -2 );
					status = lua_pcall( L, 1, 0, traceback );
					if ( host != NULL && host->endCall != NULL )
					{
						host->endCall( L, owner, host->context );
					}
				}
				if ( status != LUA_OK )
				{
					const char* message = lua_tostring( L, -1 );
					bool handled = owner != 0 && host != NULL && host->handlerError != NULL &&
								   host->handlerError( L, owner, message != NULL ? message : "error", host->context );
					if ( handled )
					{
						tbRemoveHandlers( L, worldIndex, owner, NULL, 0 );
						lua_pop( L, 1 );
					}
					else if ( lua_isnil( L, firstError ) )
					{
						lua_replace( L, firstError );
					}
					else
					{
						lua_pop( L, 1 );
					}
				}
				lua_pop( L, 1 ); // entry
			}
		}
	}
	world->dispatching = false;

	if ( lua_isnil( L, firstError ) == false )
	{
		lua_pushvalue( L, firstError );
		lua_error( L );
	}
	lua_settop( L, base );
}

static int tbDispatchProtected( lua_State* L )
{
	tbLuaWorld* world = luaL_checkudata( L, 1, TB_LUA_WORLD );
	tbDispatchEvents( L, 1, world );
	return 0;
}

int tbLua_DispatchEvents( lua_State* L, int worldIndex )
{
	tbLuaWorld* world = tbLua_TestUdata( L, worldIndex, TB_LUA_WORLD );
	if ( world == NULL || world->destroyed || world->dispatching || tbWorld_IsValid( world->id ) == false )
	{
		return LUA_OK;
	}
	// Pushing a C function and a copy allocate nothing: the first allocation is inside the pcall.
	if ( lua_checkstack( L, 2 ) == 0 )
	{
		return LUA_OK;
	}
	worldIndex = lua_absindex( L, worldIndex );
	lua_pushcfunction( L, tbDispatchProtected );
	lua_pushvalue( L, worldIndex );
	int status = lua_pcall( L, 1, 0, 0 );
	world->dispatching = false;
	return status;
}

// Methods ----------------------------------------------------------------------------------------

// Set while world:step runs the physics step (tbLua_GetSteppingWorld); the outer value comes back
// after it, as one world's rows function may step another world.
static _Thread_local tbLuaWorld* tb_steppingWorld = NULL;

tbLuaWorld* tbLua_GetSteppingWorld( void )
{
	return tb_steppingWorld;
}

// world:step(dt)
static int tbWorld_StepMethod( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "step" );
	float dt = tbLua_CheckNumber( L, 2, "step", "dt", tbCheck_positive );
	if ( world->dispatching )
	{
		return luaL_error( L, "step: cannot step the world from its own event handler" );
	}
	// A world's custom constraint rows and its handlers' order belong to the state that made it: a
	// mod stepping the scene's world (from a state of its own) would step it without the scene's rows.
	int caller = tbLua_GetOwner( L );
	if ( caller != 0 && caller != world->owner )
	{
		return luaL_error( L, "step: a mod may step only the worlds it made (the scene steps its own)" );
	}
	tbLua_CheckUnlocked( L, world, "step" );
	tbLua_Guard( L, tbLuaGuard_stepBefore, "step" );
	// Callbacks run during the step (custom joint rows) use this thread and leave their first
	// error on its stack, above index 1; they never raise through the solver.
	lua_settop( L, 1 );
	tbLuaWorld* outerWorld = tb_steppingWorld;
	lua_State* outerL = world->stepL;
	int outerIndex = world->stepWorldIndex;
	int outerError = world->stepError;
	world->stepL = L;
	world->stepWorldIndex = 1;
	world->stepError = 0;
	tb_steppingWorld = world;
	tbResult result = tbWorld_Step( world->id, dt );
	tb_steppingWorld = outerWorld;
	int callbackError = world->stepError;
	world->stepL = outerL;
	world->stepWorldIndex = outerIndex;
	world->stepError = outerError;
	if ( callbackError != 0 )
	{
		lua_pushvalue( L, callbackError );
		lua_replace( L, 2 );
	}
	else
	{
		lua_pushnil( L );
		lua_replace( L, 2 );
	}
	lua_settop( L, 2 );
	tbCheckResult( L, result, "step" );
	world->time += dt;
	world->stepCount += 1;
	tbLua_Guard( L, tbLuaGuard_stepAfter, "step" );
	lua_pushcfunction( L, tbDispatchProtected );
	lua_pushvalue( L, 1 );
	int status = lua_pcall( L, 1, 0, 0 );
	// Reset even when a handler's error (or an out-of-memory error) escapes the dispatch.
	world->dispatching = false;
	const tbLuaHost* host = tbGetHost( L );
	if ( host != NULL && host->stepped != NULL )
	{
		host->stepped( L, 1, host->context );
	}
	if ( lua_isnil( L, 2 ) == false )
	{
		// The callback's error came first: raise it after the handlers ran.
		lua_pushvalue( L, 2 );
		return lua_error( L );
	}
	if ( status != LUA_OK )
	{
		return lua_error( L );
	}
	return 0;
}

// world:body(name) -> Body or nil
static int tbWorld_BodyByName( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "body" );
	if ( lua_type( L, 2 ) != LUA_TSTRING )
	{
		char got[64];
		return luaL_error( L, "body: name must be a string, got %s", tbLua_Describe( L, 2, got, sizeof( got ) ) );
	}
	tbBodyId id = tbWorld_FindBody( world->id, lua_tostring( L, 2 ) );
	if ( TB_IS_NULL( id ) )
	{
		lua_pushnil( L );
		return 1;
	}
	tbLua_PushBody( L, 1, id );
	return 1;
}

// world:bodies() -> { Body, ... } in creation order
static int tbWorld_Bodies( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "bodies" );
	tbBodyId probe;
	int count = tbWorld_GetBodies( world->id, &probe, 0 );
	tbBodyId* ids = lua_newuserdatauv( L, (size_t)( count > 0 ? count : 1 ) * sizeof( tbBodyId ), 0 );
	count = tbWorld_GetBodies( world->id, ids, count );
	lua_createtable( L, count, 0 );
	for ( int i = 0; i < count; ++i )
	{
		tbLua_PushBody( L, 1, ids[i] );
		lua_rawseti( L, -2, i + 1 );
	}
	return 1;
}

// Shape ids gathered by a query callback. The callbacks run inside the physics library, so they
// must never raise a Lua error (a longjmp through the query): they only append to this C buffer.
typedef struct tbShapeList
{
	tbShapeId* ids;
	int count;
	int capacity;
} tbShapeList;

static bool tbCollectShape( tbShapeId shapeId, void* context )
{
	tbShapeList* list = context;
	if ( list->count == list->capacity )
	{
		int capacity = list->capacity > 0 ? 2 * list->capacity : 32;
		tbShapeId* ids = realloc( list->ids, (size_t)capacity * sizeof( tbShapeId ) );
		if ( ids == NULL )
		{
			return false;
		}
		list->ids = ids;
		list->capacity = capacity;
	}
	list->ids[list->count++] = shapeId;
	return true;
}

// Turns the collected shapes into a list of distinct bodies (frees the buffer first, so a Lua
// error while building the table cannot leak it).
static void tbPushShapeBodies( lua_State* L, int worldIndex, tbShapeList* list )
{
	int count = list->count;
	tbBodyId* bodies = lua_newuserdatauv( L, (size_t)( count > 0 ? count : 1 ) * sizeof( tbBodyId ), 0 );
	int bodyCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		tbBodyId id = tbShape_GetBody( list->ids[i] );
		bool seen = false;
		for ( int j = 0; j < bodyCount && seen == false; ++j )
		{
			seen = TB_ID_EQUALS( bodies[j], id );
		}
		if ( seen == false && tbBody_IsValid( id ) )
		{
			bodies[bodyCount++] = id;
		}
	}
	free( list->ids );
	list->ids = NULL;
	lua_createtable( L, bodyCount, 0 );
	for ( int i = 0; i < bodyCount; ++i )
	{
		tbLua_PushBody( L, worldIndex, bodies[i] );
		lua_rawseti( L, -2, i + 1 );
	}
}

// world:overlap_sphere(center, radius) -> { Body, ... }
static int tbWorld_OverlapSphereMethod( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "overlap_sphere" );
	tbVec3 center = tbLua_CheckVec3( L, 2, "overlap_sphere", "center", tbCheck_finite );
	float radius = tbLua_CheckNumber( L, 3, "overlap_sphere", "radius", tbCheck_positive );
	tbShapeList list = { NULL, 0, 0 };
	tbWorld_OverlapSphere( world->id, center, radius, tbDefaultQueryFilter(), tbCollectShape, &list );
	tbPushShapeBodies( L, 1, &list );
	return 1;
}

// world:overlap_box(lower, upper) -> { Body, ... } whose bounding boxes overlap
static int tbWorld_OverlapBox( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "overlap_box" );
	tbAABB box;
	box.lowerBound = tbLua_CheckVec3( L, 2, "overlap_box", "lower", tbCheck_finite );
	box.upperBound = tbLua_CheckVec3( L, 3, "overlap_box", "upper", tbCheck_finite );
	if ( box.lowerBound.x > box.upperBound.x || box.lowerBound.y > box.upperBound.y ||
		 box.lowerBound.z > box.upperBound.z )
	{
		return luaL_error( L, "overlap_box: lower must be <= upper in x, y and z" );
	}
	tbShapeList list = { NULL, 0, 0 };
	tbWorld_OverlapAABB( world->id, box, tbDefaultQueryFilter(), tbCollectShape, &list );
	tbPushShapeBodies( L, 1, &list );
	return 1;
}

// world:contacts() -> { { a, b, point, normal, impulse, separation }, ... } one entry per point
static int tbWorld_Contacts( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "contacts" );
	tbContactData probe;
	int count = tbWorld_GetContacts( world->id, &probe, 0 );
	tbContactData* data = lua_newuserdatauv( L, (size_t)( count > 0 ? count : 1 ) * sizeof( tbContactData ), 0 );
	count = tbWorld_GetContacts( world->id, data, count );
	lua_newtable( L );
	lua_Integer n = 0;
	for ( int i = 0; i < count; ++i )
	{
		const tbManifold* m = &data[i].manifold;
		for ( int p = 0; p < m->pointCount && p < TB_MAX_MANIFOLD_POINTS; ++p )
		{
			lua_createtable( L, 0, 6 );
			tbLua_PushShapeBody( L, 1, data[i].shapeA );
			lua_setfield( L, -2, "a" );
			tbLua_PushShapeBody( L, 1, data[i].shapeB );
			lua_setfield( L, -2, "b" );
			tbLua_PushVec3Table( L, m->points[p].point );
			lua_setfield( L, -2, "point" );
			tbLua_PushVec3Table( L, m->normal );
			lua_setfield( L, -2, "normal" );
			lua_pushnumber( L, m->points[p].stepNormalImpulse );
			lua_setfield( L, -2, "impulse" );
			lua_pushnumber( L, m->points[p].separation );
			lua_setfield( L, -2, "separation" );
			lua_rawseti( L, -2, ++n );
		}
	}
	return 1;
}

// world:stats() -> table of counters
static int tbWorld_Stats( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "stats" );
	tbWorldCounters c = tbWorld_GetCounters( world->id );
	lua_createtable( L, 0, 13 );
	const struct
	{
		const char* name;
		lua_Integer value;
	} ints[] = {
		{ "bodies", c.bodyCount },
		{ "awake_bodies", c.awakeBodyCount },
		{ "shapes", c.shapeCount },
		{ "contacts", c.contactCount },
		{ "pairs", c.pairCount },
		{ "joints", c.jointCount },
		{ "islands", c.islandCount },
		{ "tree_height", c.treeHeight },
		{ "allocations", c.allocationCount },
		{ "allocation_failures", c.allocationFailures },
		{ "steps", world->stepCount },
	};
	for ( size_t i = 0; i < sizeof( ints ) / sizeof( ints[0] ); ++i )
	{
		lua_pushinteger( L, ints[i].value );
		lua_setfield( L, -2, ints[i].name );
	}
	lua_pushnumber( L, c.stepMs );
	lua_setfield( L, -2, "step_ms" );
	lua_pushnumber( L, c.maxPenetration );
	lua_setfield( L, -2, "max_penetration" );
	lua_pushnumber( L, world->time );
	lua_setfield( L, -2, "time" );
	return 1;
}

// world:solver_report() -> table: the last global step's sweeps, rows and residual per sweep
// (residuals[i], complementarity[i], m/s), for plotting convergence.
static int tbWorld_SolverReport( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "solver_report" );
	tbSolverReport r = tbWorld_GetSolverReport( world->id );
	tbWorldDef settings = tbWorld_GetSettings( world->id );
	lua_createtable( L, 0, 14 );
	const struct
	{
		const char* name;
		lua_Integer value;
	} ints[] = {
		{ "iterations", r.iterations },
		{ "rows", r.rowCount },
		{ "contact_rows", r.contactRowCount },
		{ "joint_rows", r.jointRowCount },
		{ "direct_rows", r.directRowCount },
		{ "trees", r.treeCount },
		{ "loops", r.loopCount },
	};
	for ( size_t i = 0; i < sizeof( ints ) / sizeof( ints[0] ); ++i )
	{
		lua_pushinteger( L, ints[i].value );
		lua_setfield( L, -2, ints[i].name );
	}
	lua_pushstring( L, tb_globalMethodNames[settings.globalMethod] );
	lua_setfield( L, -2, "method" );
	lua_pushnumber( L, r.residual );
	lua_setfield( L, -2, "residual" );
	lua_pushnumber( L, r.complementarity );
	lua_setfield( L, -2, "complementarity" );
	// The world's iteration count is at most 1000 (tbWorldDef.iterations).
	float residuals[1000], complementarity[1000];
	int n = tbMinInt( tbWorld_GetSolverResiduals( world->id, residuals, complementarity, 1000 ), 1000 );
	const char* names[2] = { "residuals", "complementarity_errors" };
	for ( int k = 0; k < 2; ++k )
	{
		const float* values = k == 0 ? residuals : complementarity;
		lua_createtable( L, n, 0 );
		for ( int i = 0; i < n; ++i )
		{
			lua_pushnumber( L, values[i] );
			lua_rawseti( L, -2, i + 1 );
		}
		lua_setfield( L, -2, names[k] );
	}
	return 1;
}

// world:state_hash() -> integer (equal hashes: bit-identical states)
static int tbWorld_StateHash( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "state_hash" );
	lua_pushinteger( L, (lua_Integer)tbWorld_GetStateHash( world->id ) );
	return 1;
}

// Properties -------------------------------------------------------------------------------------

static int tbWorld_GetGravityProp( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "gravity" );
	tbLua_PushVec3Table( L, tbWorld_GetGravity( world->id ) );
	return 1;
}

static int tbWorld_SetGravityProp( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "gravity" );
	tbVec3 g = tbLua_CheckVec3( L, 3, "World.gravity", "value", tbCheck_gravity );
	tbCheckResult( L, tbWorld_SetGravity( world->id, g ), "World.gravity" );
	return 0;
}

static int tbWorld_GetIterations( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "iterations" );
	lua_pushinteger( L, tbWorld_GetSettings( world->id ).iterations );
	return 1;
}

static int tbWorld_SetIterations( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "iterations" );
	int isInteger = 0;
	lua_Integer n = lua_tointegerx( L, 3, &isInteger );
	if ( isInteger == 0 || lua_type( L, 3 ) != LUA_TNUMBER || n < 1 || n > 1000 )
	{
		char got[64];
		return luaL_error( L, "World.iterations: must be an integer in [1, 1000], got %s",
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	tbWorldDef settings = tbWorld_GetSettings( world->id );
	settings.iterations = (int)n;
	tbCheckResult( L, tbWorld_SetSolver( world->id, &settings ), "World.iterations" );
	return 0;
}

static int tbWorld_GetThreads( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "threads" );
	lua_pushinteger( L, tbWorld_GetSettings( world->id ).workerCount );
	return 1;
}

static int tbWorld_SetThreads( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "threads" );
	int isInteger = 0;
	lua_Integer n = lua_tointegerx( L, 3, &isInteger );
	if ( isInteger == 0 || lua_type( L, 3 ) != LUA_TNUMBER || n < 1 || n > TB_MAX_WORKER_COUNT )
	{
		char got[64];
		return luaL_error( L, "World.threads: must be an integer in [1, %d], got %s", TB_MAX_WORKER_COUNT,
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	lua_pushinteger( L, n );
	tbLua_Guard( L, tbLuaGuard_threads, "World.threads" );
	lua_pop( L, 1 );
	tbWorldDef settings = tbWorld_GetSettings( world->id );
	settings.workerCount = (int)n;
	tbCheckResult( L, tbWorld_SetSolver( world->id, &settings ), "World.threads" );
	return 0;
}

static int tbWorld_GetSolverProp( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "solver" );
	int mode = (int)tbWorld_GetSettings( world->id ).solverMode;
	lua_pushstring( L, mode >= 0 && mode < tbSolver_modeCount ? tb_solverNames[mode] : "unknown" );
	return 1;
}

static int tbWorld_SetSolverProp( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "solver" );
	int mode = tbLua_CheckEnum( L, 3, tb_solverNames, "World.solver", "solver" );
	tbWorldDef settings = tbWorld_GetSettings( world->id );
	settings.solverMode = (tbSolverMode)mode;
	tbCheckResult( L, tbWorld_SetSolver( world->id, &settings ), "World.solver" );
	return 0;
}

static int tbWorld_GetGlobalMethodProp( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "global_method" );
	lua_pushstring( L, tb_globalMethodNames[tbWorld_GetSettings( world->id ).globalMethod] );
	return 1;
}

static int tbWorld_SetGlobalMethodProp( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "global_method" );
	int m = lua_type( L, 3 ) == LUA_TSTRING ? tbGlobalMethodIndex( lua_tostring( L, 3 ) ) : -1;
	if ( m < 0 )
	{
		char got[96];
		return luaL_error( L, "World.global_method: must be \"gauss_seidel\" or \"jacobi\", got %s",
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	tbWorldDef settings = tbWorld_GetSettings( world->id );
	settings.globalMethod = (tbGlobalMethod)m;
	tbCheckResult( L, tbWorld_SetSolver( world->id, &settings ), "World.global_method" );
	return 0;
}

static int tbWorld_GetSleep( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "sleep" );
	lua_pushboolean( L, tbWorld_GetSettings( world->id ).enableSleep );
	return 1;
}

static int tbWorld_SetSleep( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "sleep" );
	tbWorld_EnableSleeping( world->id, tbLua_CheckBool( L, 3, "World.sleep", "value" ) );
	return 0;
}

static int tbWorld_GetTime( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "time" );
	lua_pushnumber( L, world->time );
	return 1;
}

static int tbWorld_GetStepCount( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "step_count" );
	lua_pushinteger( L, world->stepCount );
	return 1;
}

static int tbWorld_GetBodyCount( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "body_count" );
	tbBodyId probe;
	lua_pushinteger( L, tbWorld_GetBodies( world->id, &probe, 0 ) );
	return 1;
}

static int tbWorld_GetLocked( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "locked" );
	lua_pushboolean( L, tbWorld_IsLocked( world->id ) );
	return 1;
}

void tbLua_OpenWorld( lua_State* L )
{
	static const luaL_Reg common[] = {
		{ "joint", tbLuaWorld_Joint },
		{ "joints", tbLuaWorld_Joints },
		{ "mover", tbLuaWorld_Mover },
		{ "step", tbWorld_StepMethod },
		{ "destroy", tbWorld_Destroy },
		{ "is_valid", tbWorld_IsValidMethod },
		{ "add_box", tbLuaWorld_AddBox },
		{ "add_sphere", tbLuaWorld_AddSphere },
		{ "add_capsule", tbLuaWorld_AddCapsule },
		{ "add_hull", tbLuaWorld_AddHull },
		{ "add_cylinder", tbLuaWorld_AddCylinder },
		{ "add_compound", tbLuaWorld_AddCompound },
		{ "add_mesh", tbLuaWorld_AddMesh },
		{ "add_heightfield", tbLuaWorld_AddHeightfield },
		{ "body", tbWorld_BodyByName },
		{ "bodies", tbWorld_Bodies },
		{ "raycast", tbLuaWorld_RayCast },
		{ "raycast_all", tbLuaWorld_RayCastAll },
		{ "cast", tbLuaWorld_Cast },
		{ "explode", tbLuaWorld_Explode },
		{ "character", tbLuaWorld_Character },
		{ "vehicle", tbLuaWorld_Vehicle },
		{ "overlap_sphere", tbWorld_OverlapSphereMethod },
		{ "overlap_box", tbWorld_OverlapBox },
		{ "contacts", tbWorld_Contacts },
		{ "on", tbWorld_On },
		{ "off", tbWorld_Off },
		{ "stats", tbWorld_Stats },
		{ "solver_report", tbWorld_SolverReport },
		{ "state_hash", tbWorld_StateHash },
		{ "snapshot", tbLuaWorld_Snapshot },
		{ "restore", tbLuaWorld_Restore },
		{ NULL, NULL },
	};
	static const tbLuaProperty properties[] = {
		{ "gravity", tbWorld_GetGravityProp, tbWorld_SetGravityProp },
		{ "iterations", tbWorld_GetIterations, tbWorld_SetIterations },
		{ "solver", tbWorld_GetSolverProp, tbWorld_SetSolverProp },
		{ "global_method", tbWorld_GetGlobalMethodProp, tbWorld_SetGlobalMethodProp },
		{ "threads", tbWorld_GetThreads, tbWorld_SetThreads },
		{ "sleep", tbWorld_GetSleep, tbWorld_SetSleep },
		{ "time", tbWorld_GetTime, NULL },
		{ "step_count", tbWorld_GetStepCount, NULL },
		{ "body_count", tbWorld_GetBodyCount, NULL },
		{ "locked", tbWorld_GetLocked, NULL },
		{ NULL, NULL, NULL },
	};
	// Then world:distance{...}, world:hinge{...}, ...: each joint type's constructor, from the joint
	// types' table (l_joint.c).
	luaL_Reg methods[tbJoint_typeCount + sizeof( common ) / sizeof( common[0] )];
	for ( int i = 0; i < tbJoint_typeCount; ++i )
	{
		const tbLuaJointClass* joint = tbLua_GetJointClass( (tbJointType)i );
		methods[i] = ( luaL_Reg ){ joint->constructor, joint->create };
	}
	memcpy( methods + tbJoint_typeCount, common, sizeof( common ) );
	const tbLuaType type = { "World", methods, properties, tbWorld_Gc, tbWorld_ToString, NULL };
	tbLua_RegisterType( L, &type );
}
