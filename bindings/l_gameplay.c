// Tumble Lua bindings: gameplay helpers of the World (world:explode{...}).
// SPDX-License-Identifier: MIT
#include "l_common.h"

// world:explode{ center, radius, impulse, falloff, mask } -> number of bodies pushed
int tbLuaWorld_Explode( lua_State* L )
{
	const char* fn = "explode";
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, fn );
	tbLua_CheckUnlocked( L, world, fn );
	tbLuaDef def;
	tbDef_Begin( &def, L, 2, fn, "" );
	tbExplosionDef blast = tbDefaultExplosionDef();
	if ( tbDef_Vec3( &def, "center", &blast.position, tbCheck_finite ) == false )
	{
		return luaL_error( L, "%s: center must be 3 finite numbers, got nil", fn );
	}
	tbDef_Number( &def, "radius", &blast.radius, tbCheck_nonNegative );
	tbDef_Number( &def, "falloff", &blast.falloff, tbCheck_nonNegative );
	if ( tbDef_Number( &def, "impulse", &blast.impulse, tbCheck_finite ) == false )
	{
		return luaL_error( L, "%s: impulse must be a finite number (N s), got nil", fn );
	}
	if ( tbAbsFloat( blast.impulse ) > TB_MAX_FORCE )
	{
		char text[64];
		tbDef_FieldError( &def, "impulse", tbLua_LimitText( text, sizeof( text ), 1, TB_MAX_FORCE, "N s" ) );
	}
	lua_Integer bits = 0;
	if ( tbDef_Integer( &def, "mask", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		blast.maskBits = (uint64_t)bits;
	}
	tbDef_Finish( &def );
	int count = tbWorld_Explode( world->id, &blast );
	if ( count < 0 )
	{
		return luaL_error( L, "%s: center must be within 1e7 m of the origin", fn );
	}
	lua_pushinteger( L, count );
	return 1;
}
