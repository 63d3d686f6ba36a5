// Tumble Lua bindings: the ball joint (ball_joint.c): world:ball{...}. It has only the properties
// every joint has.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

// world:ball{ a, b, anchor }
static int tbLuaWorld_Ball( lua_State* L )
{
	const char* fn = "ball";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	tbBallJointDef jd = tbDefaultBallJointDef();
	bool enabled;
	tbLuaJoint_ReadBase( &def, world, &jd.base, tbFrame_anchor, &enabled );
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateBallJoint( world->id, &jd, &result );
	tbLuaJoint_Finish( L, fn, id, result, enabled );
	return 1;
}

const tbLuaJointClass tb_luaBallJointClass = { "ball", tbLuaWorld_Ball, { NULL, NULL } };
