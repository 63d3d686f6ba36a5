// Tumble Lua bindings: the cone joint (cone_joint.c): world:cone{...}, its swing cone, pyramid and
// twist limits, and the swing and twist angles it reports.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

// An angle in (0, pi].
static bool tbDefSwingAngle( tbLuaDef* def, const char* key, float* value )
{
	if ( tbDef_Number( def, key, value, tbCheck_positive ) == false )
	{
		return false;
	}
	if ( *value > TB_LUA_PI )
	{
		tbDef_FieldError( def, key, "an angle in (0, pi]" );
	}
	return true;
}

// A twist limit: {lower, upper} in [-pi, pi], or false for a free twist.
static bool tbDefTwist( tbLuaDef* def, bool* enable, float* lo, float* hi )
{
	if ( tbDef_Value( def, "twist" ) == false )
	{
		return false;
	}
	bool isFalse = lua_type( def->L, -1 ) == LUA_TBOOLEAN && lua_toboolean( def->L, -1 ) == 0;
	bool ok = isFalse || tbLuaJoint_ReadRange( def->L, -1, TB_LUA_PI, lo, hi );
	lua_pop( def->L, 1 );
	if ( ok == false )
	{
		tbDef_FieldError( def, "twist", "{lower, upper} in [-pi, pi] with lower <= upper, or false (free twist)" );
	}
	*enable = isFalse == false;
	return true;
}

// world:cone{ a, b, anchor, axis, ref, axis_b, swing, pyramid = {y, z}, twist = {lo, hi} | false }
static int tbLuaWorld_Cone( lua_State* L )
{
	const char* fn = "cone";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	tbConeJointDef jd = tbDefaultConeJointDef();
	bool enabled;
	tbLuaJoint_ReadBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	tbVec3 axisB;
	if ( tbDef_Vec3( &def, "axis_b", &axisB, tbCheck_nonZero ) )
	{
		// Body B's twist axis at rest, when it differs from A's (a CV joint between shafts at an
		// angle): frame B is frame A swung by the shortest rotation from one axis to the other.
		tbQuat qA = jd.base.localFrameA.q;
		if ( TB_IS_NON_NULL( jd.base.bodyA ) )
		{
			qA = tbMulQQ( tbBody_GetRotation( jd.base.bodyA ), qA );
		}
		tbVec3 axisA = tbRotate( qA, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
		tbQuat qB = tbNormalizeQ( tbMulQQ( tbQuatFromTo( axisA, tbNormalize( axisB ) ), qA ) );
		if ( TB_IS_NON_NULL( jd.base.bodyB ) )
		{
			qB = tbInvMulQQ( tbBody_GetRotation( jd.base.bodyB ), qB );
		}
		jd.base.localFrameB.q = qB;
	}
	jd.enableConeLimit = tbDefSwingAngle( &def, "swing", &jd.coneAngle );
	float pyramid[2];
	if ( tbDef_Floats( &def, "pyramid", pyramid, 2, tbCheck_positive ) )
	{
		if ( pyramid[0] > TB_LUA_PI || pyramid[1] > TB_LUA_PI )
		{
			tbDef_FieldError( &def, "pyramid", "2 angles {y, z} in (0, pi]" );
		}
		jd.enablePyramidLimit = true;
		jd.maxSwingY = pyramid[0];
		jd.maxSwingZ = pyramid[1];
	}
	tbDefTwist( &def, &jd.enableTwistLimit, &jd.lowerTwist, &jd.upperTwist );
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateConeJoint( world->id, &jd, &result );
	tbLuaJoint_Finish( L, fn, id, result, enabled );
	return 1;
}

static int tbLuaCone_GetSwing( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.swing" );
	if ( tbConeJoint_IsConeLimitEnabled( joint->id ) )
	{
		lua_pushnumber( L, tbConeJoint_GetConeAngle( joint->id ) );
	}
	else
	{
		lua_pushnil( L );
	}
	return 1;
}

static int tbLuaCone_SetSwing( lua_State* L )
{
	const char* fn = "Joint.swing";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	if ( lua_isnil( L, 3 ) )
	{
		tbLuaJoint_CheckResult( L, tbConeJoint_EnableConeLimit( joint->id, false ), fn );
		return 0;
	}
	float angle = 0.0f;
	if ( lua_type( L, 3 ) != LUA_TNUMBER || ( angle = (float)lua_tonumber( L, 3 ) ) > TB_LUA_PI || !( angle > 0.0f ) )
	{
		char got[64];
		return luaL_error( L, "%s: value must be an angle in (0, pi], or nil to remove the limit, got %s", fn,
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	tbLuaJoint_CheckResult( L, tbConeJoint_SetConeAngle( joint->id, angle ), fn );
	tbLuaJoint_CheckResult( L, tbConeJoint_EnableConeLimit( joint->id, true ), fn );
	return 0;
}

static int tbLuaCone_GetPyramid( lua_State* L )
{
	return tbLuaJoint_GetRange( L, "Joint.pyramid", tbConeJoint_IsPyramidLimitEnabled, tbConeJoint_GetMaxSwingY,
								tbConeJoint_GetMaxSwingZ );
}

static int tbLuaCone_SetPyramid( lua_State* L )
{
	const char* fn = "Joint.pyramid";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	if ( lua_isnil( L, 3 ) )
	{
		tbLuaJoint_CheckResult( L, tbConeJoint_EnablePyramidLimit( joint->id, false ), fn );
		return 0;
	}
	float v[2];
	if ( tbLua_ReadFloats( L, 3, v, 2, tbCheck_positive ) == false || v[0] > TB_LUA_PI || v[1] > TB_LUA_PI )
	{
		char got[96];
		return luaL_error( L, "%s: value must be 2 angles {y, z} in (0, pi], or nil to remove the limit, got %s", fn,
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	tbLuaJoint_CheckResult( L, tbConeJoint_SetPyramidLimits( joint->id, v[0], v[1] ), fn );
	tbLuaJoint_CheckResult( L, tbConeJoint_EnablePyramidLimit( joint->id, true ), fn );
	return 0;
}

static int tbLuaCone_GetTwist( lua_State* L )
{
	return tbLuaJoint_GetRange( L, "Joint.twist", tbConeJoint_IsTwistLimitEnabled, tbConeJoint_GetLowerTwist,
								tbConeJoint_GetUpperTwist );
}

// j.twist = {lo, hi}, or nil for a free twist
static int tbLuaCone_SetTwist( lua_State* L )
{
	return tbLuaJoint_SetRange( L, "Joint.twist", true, tbConeJoint_SetTwistLimits, tbConeJoint_EnableTwistLimit );
}

static int tbLuaCone_GetSwingAngle( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.swing_angle", tbConeJoint_GetSwingAngle );
}

static int tbLuaCone_GetTwistAngle( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.twist_angle", tbConeJoint_GetTwistAngle );
}

static const tbLuaProperty tb_coneProperties[] = {
	{ "swing", tbLuaCone_GetSwing, tbLuaCone_SetSwing },	   // rad, nil: no cone limit
	{ "pyramid", tbLuaCone_GetPyramid, tbLuaCone_SetPyramid }, // {y, z} rad, nil: no pyramid limit
	{ "twist", tbLuaCone_GetTwist, tbLuaCone_SetTwist },	   // {lower, upper} rad, nil: free twist
	{ "swing_angle", tbLuaCone_GetSwingAngle, NULL },
	{ "twist_angle", tbLuaCone_GetTwistAngle, NULL },
	{ NULL, NULL, NULL },
};

const tbLuaJointClass tb_luaConeJointClass = { "cone", tbLuaWorld_Cone, { NULL, tb_coneProperties } };
