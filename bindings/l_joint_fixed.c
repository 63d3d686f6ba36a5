// Tumble Lua bindings: the fixed joint (fixed_joint.c): world:fixed{...}. It has only the
// properties every joint has.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

// world:fixed{ a, b, anchor }
static int tbLuaWorld_Fixed( lua_State* L )
{
	const char* fn = "fixed";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	tbFixedJointDef jd = tbDefaultFixedJointDef();
	bool enabled;
	tbLuaJoint_ReadBase( &def, world, &jd.base, tbFrame_anchor, &enabled );
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateFixedJoint( world->id, &jd, &result );
	tbLuaJoint_Finish( L, fn, id, result, enabled );
	return 1;
}

const tbLuaJointClass tb_luaFixedJointClass = { "fixed", tbLuaWorld_Fixed, { NULL, NULL } };
