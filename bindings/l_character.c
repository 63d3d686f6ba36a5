// Tumble Lua bindings: the Character type (world:character{...}), the character controller of
// physics/include/tumble/character.h. The userdata holds the tbCharacter itself; its user value
// is the World userdata, so the world outlives the handle.
// SPDX-License-Identifier: MIT
#include "l_common.h"

#include <stddef.h>
#include <stdio.h>

#define TB_LUA_CHARACTER "tumble.Character"

typedef struct tbLuaCharacter
{
	tbCharacter character;
	tbLuaWorld* world;
} tbLuaCharacter;

static tbLuaCharacter* tbCheckCharacter( lua_State* L, const char* fn, bool mutating )
{
	tbLuaCharacter* c = luaL_testudata( L, 1, TB_LUA_CHARACTER );
	if ( c == NULL )
	{
		char got[96];
		luaL_error( L, "%s: expected a Character (call it as character:%s(...)), got %s", fn, fn,
					tbLua_Describe( L, 1, got, sizeof( got ) ) );
	}
	if ( c->world->destroyed || tbWorld_IsValid( c->world->id ) == false || tbBody_IsValid( c->character.bodyId ) == false )
	{
		luaL_error( L, "attempt to use a destroyed Character" );
	}
	if ( mutating )
	{
		tbLua_CheckUnlocked( L, c->world, fn );
	}
	return c;
}

// world:character{ pos, radius, height, crouch_height, step_height, max_slope, jump_speed,
//                  push_force, layer, mask, name }
int tbLuaWorld_Character( lua_State* L )
{
	const char* fn = "character";
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, fn );
	tbLua_CheckUnlocked( L, world, fn );
	tbLua_Guard( L, tbLuaGuard_create, fn );
	tbLuaDef def;
	tbDef_Begin( &def, L, 2, fn, "" );
	tbCharacterDef cd = tbDefaultCharacterDef();
	tbDef_Vec3( &def, "pos", &cd.position, tbCheck_finite );
	tbDef_Number( &def, "radius", &cd.radius, tbCheck_positive );
	tbDef_Number( &def, "height", &cd.height, tbCheck_positive );
	bool hasCrouch = tbDef_Number( &def, "crouch_height", &cd.crouchHeight, tbCheck_positive );
	tbDef_Number( &def, "step_height", &cd.stepHeight, tbCheck_nonNegative );
	tbDef_Number( &def, "max_slope", &cd.maxSlope, tbCheck_nonNegative );
	tbDef_Number( &def, "jump_speed", &cd.jumpSpeed, tbCheck_nonNegative );
	tbDef_Number( &def, "push_force", &cd.maxPushForce, tbCheck_nonNegative );
	tbDef_Number( &def, "mass", &cd.mass, tbCheck_nonNegative );
	lua_Integer bits = 0;
	if ( tbDef_Integer( &def, "layer", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		cd.categoryBits = (uint64_t)bits;
	}
	if ( tbDef_Integer( &def, "mask", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		cd.filter.maskBits = (uint64_t)bits;
	}
	tbDef_String( &def, "name", &cd.name, 31 );
	char text[96];
	if ( cd.height <= 2.0f * cd.radius )
	{
		snprintf( text, sizeof( text ), "more than twice the radius (%g m)", (double)( 2.0f * cd.radius ) );
		tbDef_FieldError( &def, "height", text );
	}
	if ( hasCrouch == false )
	{
		cd.crouchHeight = tbMaxFloat( 2.0f * cd.radius + 0.01f, tbMinFloat( cd.crouchHeight, cd.height ) );
	}
	else if ( cd.crouchHeight <= 2.0f * cd.radius || cd.crouchHeight > cd.height )
	{
		snprintf( text, sizeof( text ), "more than twice the radius and at most the height (%g m)", (double)cd.height );
		tbDef_FieldError( &def, "crouch_height", text );
	}
	if ( cd.stepHeight > cd.height )
	{
		tbDef_FieldError( &def, "step_height", "at most the height" );
	}
	if ( cd.maxSlope > 0.5f * TB_PI )
	{
		tbDef_FieldError( &def, "max_slope", "an angle in [0, pi/2] (rad)" );
	}
	tbDef_Finish( &def );

	tbLuaCharacter* c = lua_newuserdatauv( L, sizeof( tbLuaCharacter ), 1 );
	c->world = world;
	lua_pushvalue( L, 1 );
	lua_setiuservalue( L, -2, 1 );
	luaL_setmetatable( L, TB_LUA_CHARACTER );
	tbResult result = tbCreateCharacter( world->id, &cd, &c->character );
	if ( result != tbResult_ok )
	{
		return luaL_error( L, "%s: could not create the character: %s", fn, tbResultString( result ) );
	}
	return 1;
}

// ch:move(velocity, dt): velocity {x, y, z} (z ignored), dt in (0, 1] s
static int tbCharacter_MoveMethod( lua_State* L )
{
	tbLuaCharacter* c = tbCheckCharacter( L, "move", true );
	tbVec3 velocity = tbLua_CheckVec3( L, 2, "move", "velocity", tbCheck_finite );
	float dt = tbLua_CheckNumber( L, 3, "move", "dt", tbCheck_positive );
	if ( dt > 1.0f )
	{
		return luaL_error( L, "move: dt must be in (0, 1] s, got %s", lua_tostring( L, 3 ) );
	}
	if ( tbLength( velocity ) > TB_MAX_SPEED )
	{
		return luaL_error( L, "move: velocity must be within 1e5 m/s" );
	}
	tbResult result = tbCharacter_Move( &c->character, velocity, dt );
	if ( result != tbResult_ok )
	{
		return luaL_error( L, "move: %s", tbResultString( result ) );
	}
	return 0;
}

static int tbCharacter_JumpMethod( lua_State* L )
{
	tbCharacter_Jump( &tbCheckCharacter( L, "jump", false )->character );
	return 0;
}

static int tbCharacter_PositionMethod( lua_State* L )
{
	tbLua_PushVec3( L, tbCheckCharacter( L, "position", false )->character.position );
	return 3;
}

static int tbCharacter_VelocityMethod( lua_State* L )
{
	tbLuaCharacter* c = tbCheckCharacter( L, "velocity", false );
	tbLua_PushVec3( L, tbAdd( c->character.velocity, c->character.groundVelocity ) );
	return 3;
}

static int tbCharacter_DestroyMethod( lua_State* L )
{
	tbLuaCharacter* c = tbCheckCharacter( L, "destroy", true );
	tbBodyId body = c->character.bodyId;
	tbDestroyCharacter( &c->character );
	lua_getiuservalue( L, 1, 1 );
	tbLua_UncacheBody( L, -1, body );
	return 0;
}

static int tbCharacter_IsValidMethod( lua_State* L )
{
	tbLuaCharacter* c = luaL_testudata( L, 1, TB_LUA_CHARACTER );
	lua_pushboolean( L, c != NULL && c->world->destroyed == false && tbWorld_IsValid( c->world->id ) &&
							tbBody_IsValid( c->character.bodyId ) );
	return 1;
}

static int tbCharacter_ToString( lua_State* L )
{
	tbLuaCharacter* c = luaL_checkudata( L, 1, TB_LUA_CHARACTER );
	lua_pushfstring( L, "Character (%s)", tbBody_IsValid( c->character.bodyId ) ? ( c->character.onGround ? "on the ground" : "in the air" ) : "destroyed" );
	return 1;
}

// Properties -------------------------------------------------------------------------------------

static int tbCharacter_GetOnGround( lua_State* L )
{
	lua_pushboolean( L, tbCheckCharacter( L, "on_ground", false )->character.onGround );
	return 1;
}

static int tbCharacter_GetGroundNormal( lua_State* L )
{
	tbLuaCharacter* c = tbCheckCharacter( L, "ground_normal", false );
	if ( c->character.onGround )
	{
		tbLua_PushVec3Table( L, c->character.groundNormal );
	}
	else
	{
		lua_pushnil( L );
	}
	return 1;
}

static int tbCharacter_GetGroundBody( lua_State* L )
{
	tbLuaCharacter* c = tbCheckCharacter( L, "ground_body", false );
	lua_getiuservalue( L, 1, 1 );
	if ( c->character.onGround )
	{
		tbLua_PushBody( L, -1, c->character.groundBody );
	}
	else
	{
		lua_pushnil( L );
	}
	return 1;
}

static int tbCharacter_GetBody( lua_State* L )
{
	tbLuaCharacter* c = tbCheckCharacter( L, "body", false );
	lua_getiuservalue( L, 1, 1 );
	tbLua_PushBody( L, -1, c->character.bodyId );
	return 1;
}

static int tbCharacter_GetCrouched( lua_State* L )
{
	lua_pushboolean( L, tbCheckCharacter( L, "crouched", false )->character.crouched );
	return 1;
}

static int tbCharacter_SetCrouchedProp( lua_State* L )
{
	tbLuaCharacter* c = tbCheckCharacter( L, "crouched", true );
	tbCharacter_SetCrouched( &c->character, tbLua_CheckBool( L, 3, "Character.crouched", "value" ) );
	return 0;
}

static int tbCharacter_GetHeight( lua_State* L )
{
	lua_pushnumber( L, tbCheckCharacter( L, "height", false )->character.height );
	return 1;
}

static int tbCharacter_GetPushed( lua_State* L )
{
	lua_pushinteger( L, tbCheckCharacter( L, "pushed", false )->character.pushCount );
	return 1;
}

// Settings read and written in place: each with its check.
typedef struct tbCharacterSetting
{
	const char* name;
	size_t offset;
	tbLuaCheck check;
	float max;
} tbCharacterSetting;

static const tbCharacterSetting tb_characterSettings[] = {
	{ "step_height", offsetof( tbCharacterDef, stepHeight ), tbCheck_nonNegative, TB_MAX_SHAPE_SIZE },
	{ "max_slope", offsetof( tbCharacterDef, maxSlope ), tbCheck_nonNegative, 0.5f * TB_PI },
	{ "jump_speed", offsetof( tbCharacterDef, jumpSpeed ), tbCheck_nonNegative, TB_MAX_SPEED },
	{ "push_force", offsetof( tbCharacterDef, maxPushForce ), tbCheck_nonNegative, TB_MAX_FORCE },
};

static int tbGetSetting( lua_State* L, int i )
{
	tbLuaCharacter* c = tbCheckCharacter( L, tb_characterSettings[i].name, false );
	lua_pushnumber( L, *(const float*)( (const char*)&c->character.def + tb_characterSettings[i].offset ) );
	return 1;
}

static int tbSetSetting( lua_State* L, int i )
{
	const tbCharacterSetting* s = tb_characterSettings + i;
	tbLuaCharacter* c = tbCheckCharacter( L, s->name, true );
	char what[48];
	snprintf( what, sizeof( what ), "Character.%s", s->name );
	float value = tbLua_CheckNumber( L, 3, what, "value", s->check );
	if ( value > s->max )
	{
		char text[160];
		snprintf( text, sizeof( text ), "%s: value must be at most %g, got %g", what, (double)s->max, (double)value );
		return luaL_error( L, "%s", text );
	}
	*(float*)( (char*)&c->character.def + s->offset ) = value;
	return 0;
}

static int tbGetStepHeight( lua_State* L ) { return tbGetSetting( L, 0 ); }
static int tbSetStepHeight( lua_State* L ) { return tbSetSetting( L, 0 ); }
static int tbGetMaxSlope( lua_State* L ) { return tbGetSetting( L, 1 ); }
static int tbSetMaxSlope( lua_State* L ) { return tbSetSetting( L, 1 ); }
static int tbGetJumpSpeed( lua_State* L ) { return tbGetSetting( L, 2 ); }
static int tbSetJumpSpeed( lua_State* L ) { return tbSetSetting( L, 2 ); }
static int tbGetPushForce( lua_State* L ) { return tbGetSetting( L, 3 ); }
static int tbSetPushForce( lua_State* L ) { return tbSetSetting( L, 3 ); }

void tbLua_OpenCharacter( lua_State* L )
{
	static const luaL_Reg methods[] = {
		{ "move", tbCharacter_MoveMethod },
		{ "jump", tbCharacter_JumpMethod },
		{ "position", tbCharacter_PositionMethod },
		{ "velocity", tbCharacter_VelocityMethod },
		{ "destroy", tbCharacter_DestroyMethod },
		{ "is_valid", tbCharacter_IsValidMethod },
		{ NULL, NULL },
	};
	static const tbLuaProperty properties[] = {
		{ "on_ground", tbCharacter_GetOnGround, NULL },
		{ "ground_normal", tbCharacter_GetGroundNormal, NULL },
		{ "ground_body", tbCharacter_GetGroundBody, NULL },
		{ "body", tbCharacter_GetBody, NULL },
		{ "crouched", tbCharacter_GetCrouched, tbCharacter_SetCrouchedProp },
		{ "height", tbCharacter_GetHeight, NULL },
		{ "pushed", tbCharacter_GetPushed, NULL },
		{ "step_height", tbGetStepHeight, tbSetStepHeight },
		{ "max_slope", tbGetMaxSlope, tbSetMaxSlope },
		{ "jump_speed", tbGetJumpSpeed, tbSetJumpSpeed },
		{ "push_force", tbGetPushForce, tbSetPushForce },
		{ NULL, NULL, NULL },
	};
	static const tbLuaType type = { "Character", methods, properties, NULL, tbCharacter_ToString, NULL };
	tbLua_RegisterType( L, &type );
}
