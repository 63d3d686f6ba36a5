// Tumble Lua bindings: the mouse joint (mouse_joint.c): world:mouse{...}, its target, spring and
// force cap.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

// world:mouse{ body, anchor, target, hz, damping, max_force }: drags body's anchor (a world point,
// default its origin) towards target (default the anchor).
static int tbLuaWorld_Mouse( lua_State* L )
{
	const char* fn = "mouse";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	tbMouseJointDef jd = tbDefaultMouseJointDef();
	jd.base.bodyB = tbLuaJoint_DefBody( &def, world, "body", "a Body" );
	if ( TB_IS_NULL( jd.base.bodyB ) )
	{
		return luaL_error( L, "%s: body must be a Body, got nil", fn );
	}
	tbDef_String( &def, "name", &jd.base.name, TB_LUA_MAX_NAME );
	tbLuaJoint_DefCap( &def, "break_force", &jd.base.breakForce );
	bool enabled = true;
	tbDef_Bool( &def, "enabled", &enabled );
	tbVec3 anchor = tbBody_GetPosition( jd.base.bodyB );
	tbDef_Vec3( &def, "anchor", &anchor, tbCheck_finite );
	jd.target = anchor;
	tbDef_Vec3( &def, "target", &jd.target, tbCheck_finite );
	tbDef_Number( &def, "hz", &jd.hertz, tbCheck_positive );
	tbDef_Number( &def, "damping", &jd.dampingRatio, tbCheck_nonNegative );
	tbLuaJoint_DefCap( &def, "max_force", &jd.maxForce );
	tbDef_Finish( &def );
	jd.base.bodyA = tb_nullBodyId;
	jd.base.localFrameA = tbMakeTransform( jd.target, tb_quatIdentity );
	jd.base.localFrameB =
		tbMakeTransform( tbInvTransformPoint( tbBody_GetTransform( jd.base.bodyB ), anchor ), tb_quatIdentity );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateMouseJoint( world->id, &jd, &result );
	tbLuaJoint_Finish( L, fn, id, result, enabled );
	return 1;
}

// The spring's frequency (Hz, > 0) or damping ratio (>= 0): the core sets the two together.
static int tbMouseSetSpring( lua_State* L, const char* fn, bool hz )
{
	tbJointId id = tbLuaJoint_CheckMutable( L, fn )->id;
	float value = tbLua_CheckNumber( L, 3, fn, "value", hz ? tbCheck_positive : tbCheck_nonNegative );
	tbLuaJoint_CheckResult( L,
							tbMouseJoint_SetSpring( id, hz ? value : tbMouseJoint_GetHertz( id ),
													hz ? tbMouseJoint_GetDampingRatio( id ) : value ),
							fn );
	return 0;
}

static int tbLuaMouse_GetTarget( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.target" );
	tbLua_PushVec3Table( L, tbMouseJoint_GetTarget( joint->id ) );
	return 1;
}

static int tbLuaMouse_SetTarget( lua_State* L )
{
	const char* fn = "Joint.target";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	tbVec3 target = tbLua_CheckVec3( L, 3, fn, "value", tbCheck_finite );
	tbLuaJoint_CheckResult( L, tbMouseJoint_SetTarget( joint->id, target ), fn );
	return 0;
}

static int tbLuaMouse_GetHz( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.hz", tbMouseJoint_GetHertz );
}

static int tbLuaMouse_SetHz( lua_State* L )
{
	return tbMouseSetSpring( L, "Joint.hz", true );
}

static int tbLuaMouse_GetDamping( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.damping", tbMouseJoint_GetDampingRatio );
}

static int tbLuaMouse_SetDamping( lua_State* L )
{
	return tbMouseSetSpring( L, "Joint.damping", false );
}

static int tbLuaMouse_GetMaxForce( lua_State* L )
{
	return tbLuaJoint_GetCap( L, "Joint.max_force", tbMouseJoint_GetMaxForce );
}

static int tbLuaMouse_SetMaxForce( lua_State* L )
{
	return tbLuaJoint_SetCap( L, "Joint.max_force", tbMouseJoint_SetMaxForce );
}

static const tbLuaProperty tb_mouseProperties[] = {
	{ "target", tbLuaMouse_GetTarget, tbLuaMouse_SetTarget },
	{ "hz", tbLuaMouse_GetHz, tbLuaMouse_SetHz },
	{ "damping", tbLuaMouse_GetDamping, tbLuaMouse_SetDamping },
	{ "max_force", tbLuaMouse_GetMaxForce, tbLuaMouse_SetMaxForce },
	{ NULL, NULL, NULL },
};

const tbLuaJointClass tb_luaMouseJointClass = { "mouse", tbLuaWorld_Mouse, { NULL, tb_mouseProperties } };
