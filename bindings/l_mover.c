// Tumble Lua bindings: the Mover type (world:mover{...}): kinematic bodies driven by a velocity, a
// path with commands (speed, wait, loop / ping-pong / once) or a target pose (000 ch. 23).
// SPDX-License-Identifier: MIT
#include "l_common.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

// Most points a Lua path may have; more is almost certainly a runaway loop in a script.
#define TB_LUA_MAX_PATH_POINTS 4096

static const char* const tb_pathEndNames[] = { "once", "loop", "pingpong", NULL };
static const char* const tb_moverModeNames[] = { "idle", "velocity", "path", "target", NULL };

// Handles ----------------------------------------------------------------------------------------

static bool tbMoverIsLive( const tbLuaMover* mover )
{
	return mover->world->destroyed == false && tbWorld_IsValid( mover->world->id ) && tbMover_IsValid( mover->id );
}

void tbLua_PushMover( lua_State* L, int worldIndex, tbMoverId moverId )
{
	worldIndex = lua_absindex( L, worldIndex );
	tbLuaWorld* world = tbLua_TestUdata( L, worldIndex, TB_LUA_WORLD );
	tbWorldId owner = tbBody_GetWorld( tbMover_GetBody( moverId ) );
	if ( world == NULL || world->destroyed || tbMover_IsValid( moverId ) == false || owner.index1 != world->id.index1 ||
		 owner.generation != world->id.generation )
	{
		lua_pushnil( L );
		return;
	}
	lua_getiuservalue( L, worldIndex, TB_LUA_WORLD_MOVERS );
	if ( lua_rawgeti( L, -1, moverId.index1 ) == LUA_TUSERDATA )
	{
		tbLuaMover* cached = lua_touserdata( L, -1 );
		if ( TB_ID_EQUALS( cached->id, moverId ) )
		{
			lua_remove( L, -2 );
			return;
		}
	}
	lua_pop( L, 1 );
	tbLuaMover* mover = lua_newuserdatauv( L, sizeof( tbLuaMover ), 1 );
	mover->id = moverId;
	mover->world = world;
	lua_pushvalue( L, worldIndex );
	lua_setiuservalue( L, -2, 1 );
	luaL_setmetatable( L, TB_LUA_MOVER );
	lua_pushvalue( L, -1 );
	lua_rawseti( L, -3, moverId.index1 );
	lua_remove( L, -2 );
}

bool tbLua_ToMover( lua_State* L, int index, tbMoverId* moverId )
{
	tbLuaMover* mover = tbLua_TestUdata( L, index, TB_LUA_MOVER );
	if ( mover == NULL )
	{
		return false;
	}
	*moverId = mover->id;
	return true;
}

static tbLuaMover* tbCheckMover( lua_State* L, const char* fn, bool mutating )
{
	tbLuaMover* mover = tbLua_TestUdata( L, 1, TB_LUA_MOVER );
	if ( mover == NULL )
	{
		char got[96];
		luaL_error( L, "%s: expected a Mover (call it as mover:%s(...)), got %s", fn, fn,
					tbLua_Describe( L, 1, got, sizeof( got ) ) );
	}
	if ( tbMoverIsLive( mover ) == false )
	{
		luaL_error( L, "attempt to use a destroyed Mover" );
	}
	if ( mutating )
	{
		tbLua_CheckUnlocked( L, mover->world, fn );
	}
	return mover;
}

static void tbMoverCheckResult( lua_State* L, tbResult result, const char* fn )
{
	if ( result != tbResult_ok )
	{
		luaL_error( L, "%s: %s", fn, tbResultString( result ) );
	}
}

// Commands read from tables ----------------------------------------------------------------------

// The path fields: path = {{x, y, z}, ...} (at least 2 points), speed (m/s), mode, wait (s at
// every point, or a list with one value per point), smooth (Catmull-Rom), acceleration (m/s^2).
// Returns false when `path` is absent. The point and wait arrays live in userdata pushed on the
// stack until the caller returns.
static bool tbReadPath( tbLuaDef* def, tbMoverPathDef* path )
{
	lua_State* L = def->L;
	if ( tbDef_Table( def, "path" ) == false )
	{
		return false;
	}
	int list = lua_gettop( L );
	int count = (int)lua_rawlen( L, list );
	if ( count < 2 || count > TB_LUA_MAX_PATH_POINTS )
	{
		char expected[64];
		snprintf( expected, sizeof( expected ), "a list of 2 to %d points {x, y, z}", TB_LUA_MAX_PATH_POINTS );
		tbDef_FieldError( def, "path", expected );
	}
	tbVec3* points = lua_newuserdatauv( L, (size_t)count * sizeof( tbVec3 ), 0 );
	for ( int i = 0; i < count; ++i )
	{
		lua_rawgeti( L, list, i + 1 );
		float v[3];
		if ( tbLua_ReadFloats( L, -1, v, 3, tbCheck_finite ) == false ||
			 tbIsBoundedVec3( tbMakeVec3( v[0], v[1], v[2] ), TB_MAX_POSITION ) == false )
		{
			char got[96];
			char text[64];
			luaL_error( L, "%s: %spath[%d] must be %s, got %s", def->fn, def->prefix, i + 1,
						tbLua_LimitText( text, sizeof( text ), 3, TB_MAX_POSITION, "m" ),
						tbLua_Describe( L, -1, got, sizeof( got ) ) );
		}
		lua_pop( L, 1 );
		points[i] = tbMakeVec3( v[0], v[1], v[2] );
	}
	path->points = points;
	path->pointCount = count;

	if ( tbDef_Number( def, "speed", &path->speed, tbCheck_positive ) && path->speed > TB_MAX_SPEED )
	{
		char text[64];
		tbDef_FieldError( def, "speed", tbLua_LimitText( text, sizeof( text ), 1, TB_MAX_SPEED, "m/s" ) );
	}
	tbDef_Number( def, "acceleration", &path->acceleration, tbCheck_positive );
	int end = 0;
	if ( tbDef_Enum( def, "mode", tb_pathEndNames, &end, "path mode" ) )
	{
		path->end = (tbPathEnd)end;
	}
	bool smooth = false;
	if ( tbDef_Bool( def, "smooth", &smooth ) )
	{
		path->interpolation = smooth ? tbPath_catmullRom : tbPath_linear;
	}
	if ( tbDef_Value( def, "wait" ) )
	{
		float* waits = lua_newuserdatauv( L, (size_t)count * sizeof( float ), 0 );
		lua_rotate( L, -2, 1 ); // keep the array below the field value
		bool ok;
		if ( lua_type( L, -1 ) == LUA_TNUMBER )
		{
			float w = (float)lua_tonumber( L, -1 );
			ok = w >= 0.0f && w <= FLT_MAX;
			for ( int i = 0; i < count; ++i )
			{
				waits[i] = w;
			}
		}
		else
		{
			ok = tbLua_ReadFloats( L, -1, waits, count, tbCheck_nonNegative );
		}
		lua_pop( L, 1 );
		if ( ok == false )
		{
			char expected[96];
			snprintf( expected, sizeof( expected ), "a number of seconds >= 0, or a list of %d of them (one per point)",
					  count );
			tbDef_FieldError( def, "wait", expected );
		}
		path->waits = waits;
	}
	return true;
}

// target = { pos = {x, y, z}, rot = {w, x, y, z}, time = s }. Rotation and position default to the
// body's current ones.
// The fields of a target pose { pos, rot, time } (defaults: where the body is, 1 s); finishes def.
static void tbReadPose( tbLuaDef* def, tbBodyId body, tbVec3* pos, tbQuat* rot, float* time )
{
	*pos = tbBody_GetPosition( body );
	*rot = tbBody_GetRotation( body );
	*time = 1.0f;
	if ( tbDef_Vec3( def, "pos", pos, tbCheck_finite ) && tbIsBoundedVec3( *pos, TB_MAX_POSITION ) == false )
	{
		char text[64];
		tbDef_FieldError( def, "pos", tbLua_LimitText( text, sizeof( text ), 3, TB_MAX_POSITION, "m" ) );
	}
	tbDef_Quat( def, "rot", rot );
	tbDef_Number( def, "time", time, tbCheck_positive );
	tbDef_Finish( def );
}

static bool tbReadTarget( tbLuaDef* def, tbBodyId body, tbVec3* pos, tbQuat* rot, float* time )
{
	if ( tbDef_Table( def, "target" ) == false )
	{
		return false;
	}
	char prefix[48];
	snprintf( prefix, sizeof( prefix ), "%starget.", def->prefix );
	tbLuaDef target;
	tbDef_Begin( &target, def->L, -1, def->fn, prefix );
	tbReadPose( &target, body, pos, rot, time );
	lua_pop( def->L, 1 );
	return true;
}

// One command for a mover, read from a table (arrays of a path stay on the Lua stack).
typedef struct tbMoverCommand
{
	tbMoverMode mode; ///< idle when the table held none
	tbMoverPathDef path;
	tbVec3 linearVelocity, angularVelocity;
	tbVec3 position;
	tbQuat rotation;
	float time;
} tbMoverCommand;

// Reads one of path, velocity (and angular_velocity) or target; finishes the def (unknown fields).
static void tbReadCommand( tbLuaDef* def, tbBodyId body, tbMoverCommand* command )
{
	lua_State* L = def->L;
	command->path = tbDefaultMoverPathDef();
	command->linearVelocity = tb_vec3_zero;
	command->angularVelocity = tb_vec3_zero;
	bool hasPath = tbReadPath( def, &command->path );
	bool hasVelocity = tbDef_Vec3( def, "velocity", &command->linearVelocity, tbCheck_finite );
	if ( hasVelocity && tbIsBoundedVec3( command->linearVelocity, TB_MAX_SPEED ) == false )
	{
		char text[64];
		tbDef_FieldError( def, "velocity", tbLua_LimitText( text, sizeof( text ), 3, TB_MAX_SPEED, "m/s" ) );
	}
	if ( tbDef_Vec3( def, "angular_velocity", &command->angularVelocity, tbCheck_finite ) )
	{
		hasVelocity = true;
		if ( tbIsBoundedVec3( command->angularVelocity, TB_MAX_ANGULAR_SPEED ) == false )
		{
			char text[64];
			tbDef_FieldError( def, "angular_velocity",
							  tbLua_LimitText( text, sizeof( text ), 3, TB_MAX_ANGULAR_SPEED, "rad/s" ) );
		}
	}
	bool hasTarget = tbReadTarget( def, body, &command->position, &command->rotation, &command->time );
	int commands = ( hasPath ? 1 : 0 ) + ( hasVelocity ? 1 : 0 ) + ( hasTarget ? 1 : 0 );
	if ( commands > 1 )
	{
		luaL_error( L, "%s: give one of path, velocity (and angular_velocity) or target, not several", def->fn );
	}
	if ( hasPath == false )
	{
		static const char* const pathOnly[] = { "speed", "acceleration", "mode", "smooth", "wait" };
		for ( size_t i = 0; i < sizeof( pathOnly ) / sizeof( pathOnly[0] ); ++i )
		{
			if ( lua_getfield( L, def->table, pathOnly[i] ) != LUA_TNIL )
			{
				luaL_error( L, "%s: %s is a path setting: give it together with path = {...}", def->fn, pathOnly[i] );
			}
			lua_pop( L, 1 );
		}
	}
	tbDef_Finish( def );
	command->mode = hasPath ? tbMover_path : hasVelocity ? tbMover_velocity : hasTarget ? tbMover_target : tbMover_idle;
}

static tbResult tbApplyCommand( tbMoverId mover, const tbMoverCommand* command )
{
	switch ( command->mode )
	{
		case tbMover_path:
			return tbMover_SetPath( mover, &command->path );
		case tbMover_velocity:
			return tbMover_SetVelocity( mover, command->linearVelocity, command->angularVelocity );
		case tbMover_target:
			return tbMover_MoveTo( mover, command->position, command->rotation, command->time );
		default:
			return tbResult_ok;
	}
}

// world:mover{ body, paused, path = {...}, speed, mode, wait, smooth, acceleration
//              | velocity, angular_velocity | target = { pos, rot, time } }
int tbLuaWorld_Mover( lua_State* L )
{
	const char* fn = "mover";
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, fn );
	tbLua_CheckUnlocked( L, world, fn );
	tbLua_Guard( L, tbLuaGuard_create, fn );
	tbLuaDef def;
	tbDef_Begin( &def, L, 2, fn, "" );
	if ( tbDef_Value( &def, "body" ) == false )
	{
		return luaL_error( L, "%s: body must be a kinematic Body, got nil", fn );
	}
	tbLuaBody* body = tbLua_TestUdata( L, -1, TB_LUA_BODY );
	if ( body == NULL )
	{
		tbDef_FieldError( &def, "body", "a kinematic Body" );
	}
	if ( body->world->destroyed || tbBody_IsValid( body->id ) == false )
	{
		return luaL_error( L, "attempt to use a destroyed Body" );
	}
	tbBodyId bodyId = body->id;
	lua_pop( L, 1 );
	tbWorldId owner = tbBody_GetWorld( bodyId );
	if ( owner.index1 != world->id.index1 || owner.generation != world->id.generation )
	{
		return luaL_error( L, "%s: body is a Body of another World", fn );
	}
	tbBodyType type = tbBody_GetType( bodyId );
	if ( type != tbBody_kinematic )
	{
		return luaL_error( L, "%s: body must be a kinematic Body (add it with kinematic = true), got a %s Body", fn,
						   tb_bodyTypeNames[type] );
	}
	bool paused = false;
	tbDef_Bool( &def, "paused", &paused );
	tbMoverCommand command;
	tbReadCommand( &def, bodyId, &command );

	// Everything was read and checked: from here on no Lua error can leave a half-made mover.
	tbResult result = tbResult_ok;
	tbMoverId mover = tbCreateMover( bodyId, &result );
	if ( TB_IS_NULL( mover ) )
	{
		return luaL_error( L, "%s: %s", fn,
						   result == tbResult_invalidArgument ? "the body already has a mover"
															  : tbResultString( result ) );
	}
	result = tbApplyCommand( mover, &command );
	if ( result == tbResult_ok && paused )
	{
		result = tbMover_SetPaused( mover, true );
	}
	if ( result != tbResult_ok )
	{
		tbDestroyMover( mover );
		return luaL_error( L, "%s: %s", fn, tbResultString( result ) );
	}
	tbLua_PushMover( L, 1, mover );
	return 1;
}

// Methods ----------------------------------------------------------------------------------------

// m:stop(): zero velocity from the next step.
static int tbMover_StopMethod( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "stop", true );
	tbMoverCheckResult( L, tbMover_Stop( mover->id ), "stop" );
	return 0;
}

// m:set_velocity(v [, w]): constant velocity (m/s) and angular velocity (rad/s).
static int tbMover_SetVelocityMethod( lua_State* L )
{
	const char* fn = "set_velocity";
	tbLuaMover* mover = tbCheckMover( L, fn, true );
	tbVec3 v = tbLua_CheckVec3( L, 2, fn, "velocity", tbCheck_finite );
	tbVec3 w = lua_isnoneornil( L, 3 ) ? tb_vec3_zero : tbLua_CheckVec3( L, 3, fn, "angular velocity", tbCheck_finite );
	char text[64];
	if ( tbIsBoundedVec3( v, TB_MAX_SPEED ) == false )
	{
		return luaL_error( L, "%s: velocity must be %s", fn,
						   tbLua_LimitText( text, sizeof( text ), 3, TB_MAX_SPEED, "m/s" ) );
	}
	if ( tbIsBoundedVec3( w, TB_MAX_ANGULAR_SPEED ) == false )
	{
		return luaL_error( L, "%s: angular velocity must be %s", fn,
						   tbLua_LimitText( text, sizeof( text ), 3, TB_MAX_ANGULAR_SPEED, "rad/s" ) );
	}
	tbMoverCheckResult( L, tbMover_SetVelocity( mover->id, v, w ), fn );
	return 0;
}

// m:follow{ path, speed, mode, wait, smooth, acceleration }
static int tbMover_Follow( lua_State* L )
{
	const char* fn = "follow";
	tbLuaMover* mover = tbCheckMover( L, fn, true );
	tbLuaDef def;
	tbDef_Begin( &def, L, 2, fn, "" );
	tbMoverCommand command;
	tbReadCommand( &def, tbMover_GetBody( mover->id ), &command );
	if ( command.mode != tbMover_path )
	{
		return luaL_error( L, "%s: path must be a list of points {x, y, z}, got nil", fn );
	}
	tbMoverCheckResult( L, tbApplyCommand( mover->id, &command ), fn );
	return 0;
}

// m:move_to{ pos, rot, time }
static int tbMover_MoveToMethod( lua_State* L )
{
	const char* fn = "move_to";
	tbLuaMover* mover = tbCheckMover( L, fn, true );
	tbBodyId body = tbMover_GetBody( mover->id );
	tbLuaDef def;
	tbDef_Begin( &def, L, 2, fn, "" );
	tbVec3 pos;
	tbQuat rot;
	float time;
	tbReadPose( &def, body, &pos, &rot, &time );
	tbMoverCheckResult( L, tbMover_MoveTo( mover->id, pos, rot, time ), fn );
	return 0;
}

static int tbMover_Destroy( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "destroy", true );
	tbMoverId id = mover->id;
	tbMoverCheckResult( L, tbDestroyMover( id ), "destroy" );
	lua_getiuservalue( L, 1, 1 );
	lua_getiuservalue( L, -1, TB_LUA_WORLD_MOVERS );
	lua_pushnil( L );
	lua_rawseti( L, -2, id.index1 );
	return 0;
}

static int tbMover_IsValidMethod( lua_State* L )
{
	tbLuaMover* mover = tbLua_TestUdata( L, 1, TB_LUA_MOVER );
	lua_pushboolean( L, mover != NULL && tbMoverIsLive( mover ) );
	return 1;
}

static int tbMover_ToString( lua_State* L )
{
	tbLuaMover* mover = luaL_checkudata( L, 1, TB_LUA_MOVER );
	if ( tbMoverIsLive( mover ) == false )
	{
		lua_pushstring( L, "Mover (destroyed)" );
		return 1;
	}
	int mode = (int)tbMover_GetMode( mover->id );
	lua_pushfstring( L, "Mover #%d (%s)", (int)mover->id.index1,
					 mode >= 0 && mode < tbMover_modeCount ? tb_moverModeNames[mode] : "?" );
	return 1;
}

// Properties -------------------------------------------------------------------------------------

static int tbMover_GetBodyProp( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "Mover.body", false );
	lua_getiuservalue( L, 1, 1 );
	tbLua_PushBody( L, -1, tbMover_GetBody( mover->id ) );
	return 1;
}

static int tbMover_GetModeProp( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "Mover.mode", false );
	int mode = (int)tbMover_GetMode( mover->id );
	lua_pushstring( L, mode >= 0 && mode < tbMover_modeCount ? tb_moverModeNames[mode] : "unknown" );
	return 1;
}

static int tbMover_SetSpeed( lua_State* L )
{
	const char* fn = "Mover.speed";
	tbLuaMover* mover = tbCheckMover( L, fn, true );
	float speed = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_positive );
	if ( speed > TB_MAX_SPEED )
	{
		char text[64];
		return luaL_error( L, "%s: value must be %s, got %f", fn,
						   tbLua_LimitText( text, sizeof( text ), 1, TB_MAX_SPEED, "m/s" ), (double)speed );
	}
	if ( tbMover_GetMode( mover->id ) != tbMover_path )
	{
		return luaL_error( L, "%s: the mover is not following a path", fn );
	}
	tbMoverCheckResult( L, tbMover_SetPathSpeed( mover->id, speed ), fn );
	return 0;
}

static int tbMover_GetSpeed( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "Mover.speed", false );
	tbBodyId body = tbMover_GetBody( mover->id );
	lua_pushnumber( L, tbLength( tbBody_GetLinearVelocity( body ) ) );
	return 1;
}

static int tbMover_GetPaused( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "Mover.paused", false );
	lua_pushboolean( L, tbMover_IsPaused( mover->id ) );
	return 1;
}

static int tbMover_SetPausedProp( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "Mover.paused", true );
	bool paused = tbLua_CheckBool( L, 3, "Mover.paused", "value" );
	tbMoverCheckResult( L, tbMover_SetPaused( mover->id, paused ), "Mover.paused" );
	return 0;
}

static int tbMover_GetFinished( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "Mover.finished", false );
	lua_pushboolean( L, tbMover_IsFinished( mover->id ) );
	return 1;
}

static int tbMover_GetDistance( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "Mover.distance", false );
	lua_pushnumber( L, tbMover_GetPathDistance( mover->id ) );
	return 1;
}

static int tbMover_GetLength( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "Mover.length", false );
	lua_pushnumber( L, tbMover_GetPathLength( mover->id ) );
	return 1;
}

static int tbMover_GetLaps( lua_State* L )
{
	tbLuaMover* mover = tbCheckMover( L, "Mover.laps", false );
	lua_pushinteger( L, tbMover_GetLapCount( mover->id ) );
	return 1;
}

void tbLua_OpenMover( lua_State* L )
{
	static const luaL_Reg methods[] = {
		{ "stop", tbMover_StopMethod },
		{ "set_velocity", tbMover_SetVelocityMethod },
		{ "follow", tbMover_Follow },
		{ "move_to", tbMover_MoveToMethod },
		{ "destroy", tbMover_Destroy },
		{ "is_valid", tbMover_IsValidMethod },
		{ NULL, NULL },
	};
	static const tbLuaProperty properties[] = {
		{ "body", tbMover_GetBodyProp, NULL },
		{ "mode", tbMover_GetModeProp, NULL },
		{ "speed", tbMover_GetSpeed, tbMover_SetSpeed },
		{ "paused", tbMover_GetPaused, tbMover_SetPausedProp },
		{ "finished", tbMover_GetFinished, NULL },
		{ "distance", tbMover_GetDistance, NULL },
		{ "length", tbMover_GetLength, NULL },
		{ "laps", tbMover_GetLaps, NULL },
		{ NULL, NULL, NULL },
	};
	static const tbLuaType type = { "Mover", methods, properties, NULL, tbMover_ToString, NULL };
	tbLua_RegisterType( L, &type );
}
