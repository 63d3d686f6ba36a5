// Tumble Lua bindings: custom constraints (custom_joint.c) whose rows come from Lua:
// world:constraint{ rows = function(c, dt) ... end }, the rows function and the rows' impulses.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

// The core calls tbLuaRows once per step (or sub-step) while the world is locked, from inside
// tbWorld_Step, which world:step called on the thread recorded in world->stepL. Everything that
// touches Lua runs in tbCallRows under lua_pcall, so neither a script error nor a memory error can
// longjmp through the solver; the first error stays on that thread's stack (world->stepError) and
// world:step raises it once the step is over.

typedef struct tbRowsCall
{
	tbJointId jointId;
	const tbCustomRowsInput* input;
	tbCustomRow* rows;
	int count;
} tbRowsCall;

static int tbNoRows( tbJointId jointId, const tbCustomRowsInput* input, tbCustomRow rows[TB_MAX_CUSTOM_ROWS],
					 void* context )
{
	(void)jointId;
	(void)input;
	(void)rows;
	(void)context;
	return 0;
}

static void tbSetVec3Field( lua_State* L, const char* key, tbVec3 v )
{
	tbLua_PushVec3Table( L, v );
	lua_setfield( L, -2, key );
}

// The table c handed to rows(c, dt): world-frame geometry and velocities at the step start.
static void tbPushRowsContext( lua_State* L, int worldIndex, int jointIndex, const tbCustomRowsInput* in )
{
	tbLuaJoint* joint = lua_touserdata( L, jointIndex );
	lua_createtable( L, 0, 20 );
	lua_pushvalue( L, jointIndex );
	lua_setfield( L, -2, "joint" );
	tbLua_PushBody( L, worldIndex, tbJoint_GetBodyA( joint->id ) );
	lua_setfield( L, -2, "a" );
	tbLua_PushBody( L, worldIndex, tbJoint_GetBodyB( joint->id ) );
	lua_setfield( L, -2, "b" );
	tbSetVec3Field( L, "anchor_a", in->frameA.p );
	tbSetVec3Field( L, "anchor_b", in->frameB.p );
	tbSetVec3Field( L, "axis_a", tbRotate( in->frameA.q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) ) );
	tbSetVec3Field( L, "axis_b", tbRotate( in->frameB.q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) ) );
	tbLua_PushQuatTable( L, in->frameA.q );
	lua_setfield( L, -2, "rot_a" );
	tbLua_PushQuatTable( L, in->frameB.q );
	lua_setfield( L, -2, "rot_b" );
	tbSetVec3Field( L, "center_a", in->centerA );
	tbSetVec3Field( L, "center_b", in->centerB );
	tbSetVec3Field( L, "vel_a", in->linearVelocityA );
	tbSetVec3Field( L, "vel_b", in->linearVelocityB );
	tbSetVec3Field( L, "angvel_a", in->angularVelocityA );
	tbSetVec3Field( L, "angvel_b", in->angularVelocityB );
	lua_pushnumber( L, in->timeStep );
	lua_setfield( L, -2, "dt" );
	lua_pushnumber( L, in->subStep );
	lua_setfield( L, -2, "sub_dt" );
	lua_pushinteger( L, in->subStepIndex );
	lua_setfield( L, -2, "sub_step" );
}

// An impulse bound: any number but NaN; +-inf (math.huge) means unbounded.
static void tbDefBound( tbLuaDef* def, const char* key, float* value )
{
	if ( tbDef_Value( def, key ) == false )
	{
		return;
	}
	bool ok = lua_type( def->L, -1 ) == LUA_TNUMBER && isnan( lua_tonumber( def->L, -1 ) ) == 0;
	double x = lua_tonumber( def->L, -1 );
	lua_pop( def->L, 1 );
	if ( ok == false )
	{
		tbDef_FieldError( def, key, "a number (N s; -math.huge or math.huge: unbounded)" );
	}
	*value = x >= (double)FLT_MAX ? FLT_MAX : ( x <= -(double)FLT_MAX ? -FLT_MAX : (float)x );
}

// Protected: (World, tbRowsCall*). Calls the joint's rows function and converts what it returns.
static int tbCallRows( lua_State* L )
{
	tbRowsCall* call = lua_touserdata( L, 2 );
	lua_getiuservalue( L, 1, TB_LUA_WORLD_JOINTS );
	lua_rawgeti( L, -1, call->jointId.index1 );
	tbLuaJoint* joint = tbLua_TestUdata( L, -1, TB_LUA_JOINT );
	if ( joint == NULL || TB_ID_EQUALS( joint->id, call->jointId ) == false )
	{
		return 0;
	}
	int jointIndex = lua_gettop( L );
	if ( lua_getiuservalue( L, jointIndex, 2 ) != LUA_TFUNCTION )
	{
		return 0;
	}
	int fnIndex = lua_gettop( L );

	// Messages about what the function returned point at the function's definition.
	lua_Debug ar;
	lua_pushvalue( L, fnIndex );
	lua_getinfo( L, ">S", &ar );
	char where[160];
	snprintf( where, sizeof( where ), "%s:%d: constraint rows", ar.short_src, ar.linedefined );

	lua_pushvalue( L, fnIndex );
	tbPushRowsContext( L, 1, jointIndex, call->input );
	lua_pushnumber( L, call->input->timeStep );
	lua_call( L, 2, 1 );
	int list = lua_gettop( L );
	if ( lua_isnil( L, list ) )
	{
		return 0;
	}
	int count = lua_type( L, list ) == LUA_TTABLE ? (int)lua_rawlen( L, list ) : -1;
	if ( count < 0 || count > TB_MAX_CUSTOM_ROWS )
	{
		char got[96];
		return luaL_error( L, "%s: must return a list of at most %d rows (or nil), got %s", where, TB_MAX_CUSTOM_ROWS,
						   tbLua_Describe( L, list, got, sizeof( got ) ) );
	}
	for ( int i = 0; i < count; ++i )
	{
		char prefix[32];
		snprintf( prefix, sizeof( prefix ), "rows[%d].", i + 1 );
		lua_rawgeti( L, list, i + 1 );
		tbLuaDef def;
		tbDef_Begin( &def, L, -1, where, prefix );
		tbCustomRow* row = call->rows + i;
		memset( row, 0, sizeof( *row ) );
		row->lower = -FLT_MAX;
		row->upper = FLT_MAX;
		if ( tbDef_Floats( &def, "J", row->J, 12, tbCheck_finite ) == false )
		{
			tbDef_FieldError( &def, "J", "12 finite numbers" );
		}
		tbDef_Number( &def, "bias", &row->bias, tbCheck_finite );
		tbDef_Number( &def, "error", &row->positionError, tbCheck_finite );
		tbDefBound( &def, "min", &row->lower );
		tbDefBound( &def, "max", &row->upper );
		if ( row->lower > row->upper )
		{
			return luaL_error( L, "%s: %smin must be <= %smax", where, prefix, prefix );
		}
		tbDef_Finish( &def );
		lua_pop( L, 1 );
	}
	call->count = count;
	return 0;
}

static int tbLuaRows( tbJointId jointId, const tbCustomRowsInput* input, tbCustomRow rows[TB_MAX_CUSTOM_ROWS],
					  void* context )
{
	(void)context;
	// Not the context: a joint restored from a snapshot may have outlived the Joint userdata its
	// callback was installed with. The rows function is looked up by joint id (tbCallRows).
	tbLuaWorld* world = tbLua_GetSteppingWorld();
	tbWorldId jointWorld = tbJoint_GetWorld( jointId );
	// Stepped from C (no Lua step in progress), another world's step, or an earlier row function
	// already failed: no rows.
	if ( world == NULL || world->stepL == NULL || world->stepError != 0 || jointWorld.index1 != world->id.index1 ||
		 jointWorld.generation != world->id.generation )
	{
		return 0;
	}
	lua_State* L = world->stepL;
	// None of these calls allocates or raises; everything else runs inside lua_pcall.
	if ( lua_checkstack( L, 8 ) == 0 )
	{
		return 0;
	}
	tbRowsCall call = { jointId, input, rows, 0 };
	int base = lua_gettop( L );
	lua_pushcfunction( L, tbCallRows );
	lua_pushvalue( L, world->stepWorldIndex );
	lua_pushlightuserdata( L, &call );
	if ( lua_pcall( L, 2, 0, 0 ) != LUA_OK )
	{
		// The error value stays on the stack: world:step raises it after the step.
		world->stepError = base + 1;
		return 0;
	}
	lua_settop( L, base );
	return call.count;
}

// The rows function runs in the state that steps the world, with that state's joint handles
// (tbCallRows): a mod's function given for a world it did not make (the scene's, in a state of
// its own) would never run, and its handle's collection would clear the scene's callback.
static void tbCheckRowsOwner( lua_State* L, const tbLuaWorld* world, const char* fn )
{
	int caller = tbLua_GetOwner( L );
	if ( caller != 0 && caller != world->owner )
	{
		luaL_error( L, "%s: a mod may give rows functions only to constraints of the worlds it made (the rows run in "
					   "the state that steps the world)",
					fn );
	}
}

// Installs the Lua rows callback, with this Joint userdata marked as the owner in the joint's user
// data (compared, never dereferenced), so a handle of an old lua_State never clears the callback a
// newer one installed.
static void tbInstallRows( tbLuaJoint* joint )
{
	tbCustomJoint_SetCallback( joint->id, tbLuaRows, NULL );
	tbJoint_SetUserData( joint->id, joint );
}

// world:constraint{ a, b, anchor, axis, ref, rows = function(c, dt) ... end, every_substep }
static int tbLuaWorld_Constraint( lua_State* L )
{
	const char* fn = "constraint";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	tbCheckRowsOwner( L, world, fn );
	tbCustomJointDef jd = tbDefaultCustomJointDef();
	bool enabled;
	tbLuaJoint_ReadBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	if ( tbDef_Function( &def, "rows" ) == false )
	{
		return luaL_error( L, "%s: rows must be a function(c, dt) returning a list of rows, got nil", fn );
	}
	int rowsFn = lua_gettop( L );
	tbDef_Bool( &def, "every_substep", &jd.everySubStep );
	tbDef_Finish( &def );
	// Created with an inert callback: the real one needs the handle's address as its context.
	jd.rowsFcn = tbNoRows;
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateCustomJoint( world->id, &jd, &result );
	tbLuaJoint* joint = tbLuaJoint_Finish( L, fn, id, result, enabled );
	lua_pushvalue( L, rowsFn );
	lua_setiuservalue( L, -2, 2 );
	tbInstallRows( joint );
	return 1;
}

void tbLuaJoint_ReleaseRows( tbLuaJoint* joint )
{
	if ( tbJoint_IsValid( joint->id ) && tbJoint_GetUserData( joint->id ) == joint &&
		 tbWorld_IsLocked( tbJoint_GetWorld( joint->id ) ) == false )
	{
		tbCustomJoint_SetCallback( joint->id, tbNoRows, NULL );
		tbJoint_SetUserData( joint->id, NULL );
	}
}

// j:row_impulse(i) -> N s accumulated by row i (1-based) over the last step
static int tbLuaCustom_RowImpulse( lua_State* L )
{
	tbLuaJoint* joint = tbLuaJoint_CheckType( L, "row_impulse", tbJoint_custom, false );
	int isInteger = 0;
	lua_Integer row = lua_tointegerx( L, 2, &isInteger );
	if ( isInteger == 0 || row < 1 || row > TB_MAX_CUSTOM_ROWS )
	{
		char got[64];
		return luaL_error( L, "row_impulse: row must be an integer in [1, %d], got %s", TB_MAX_CUSTOM_ROWS,
						   tbLua_Describe( L, 2, got, sizeof( got ) ) );
	}
	lua_pushnumber( L, tbCustomJoint_GetRowImpulse( joint->id, (int)row - 1 ) );
	return 1;
}

static int tbLuaCustom_GetRows( lua_State* L )
{
	tbLua_CheckJoint( L, 1, "Joint.rows" );
	lua_getiuservalue( L, 1, 2 );
	return 1;
}

// j.rows = function(c, dt) ... end: also how a swap reload re-attaches a custom joint's rows.
static int tbLuaCustom_SetRows( lua_State* L )
{
	const char* fn = "Joint.rows";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	tbCheckRowsOwner( L, joint->world, fn );
	if ( lua_type( L, 3 ) != LUA_TFUNCTION )
	{
		char got[64];
		return luaL_error( L, "%s: value must be a function(c, dt) returning a list of rows, got %s", fn,
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	lua_pushvalue( L, 3 );
	lua_setiuservalue( L, 1, 2 );
	tbInstallRows( joint );
	return 0;
}

static int tbLuaCustom_GetRowCount( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.row_count" );
	lua_pushinteger( L, tbCustomJoint_GetRowCount( joint->id ) );
	return 1;
}

static const luaL_Reg tb_customMethods[] = {
	{ "row_impulse", tbLuaCustom_RowImpulse },
	{ NULL, NULL },
};

static const tbLuaProperty tb_customProperties[] = {
	{ "rows", tbLuaCustom_GetRows, tbLuaCustom_SetRows },
	{ "row_count", tbLuaCustom_GetRowCount, NULL },
	{ NULL, NULL, NULL },
};

const tbLuaJointClass tb_luaCustomJointClass = {
	"constraint", tbLuaWorld_Constraint, { tb_customMethods, tb_customProperties } };
