// Tumble Lua bindings: the distance joint (distance_joint.c): world:distance{...}, its length, range
// and spring.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

// world:distance{ a, b, anchor_a, anchor_b, length, min, max, spring = { hz, damping } }
static int tbLuaWorld_Distance( lua_State* L )
{
	const char* fn = "distance";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	tbDistanceJointDef jd = tbDefaultDistanceJointDef();
	bool enabled;
	tbLuaJoint_ReadBase( &def, world, &jd.base, 0, &enabled );

	// Anchors default to the body origins; on the static world side the anchor is required.
	tbVec3 anchors[2];
	tbBodyId bodies[2] = { jd.base.bodyA, jd.base.bodyB };
	const char* keys[2] = { "anchor_a", "anchor_b" };
	for ( int i = 0; i < 2; ++i )
	{
		bool has = tbDef_Vec3( &def, keys[i], anchors + i, tbCheck_finite );
		if ( has == false && TB_IS_NULL( bodies[i] ) )
		{
			return luaL_error( L, "%s: %s is required when %s is nil (the static world)", fn, keys[i],
							   i == 0 ? "a" : "b" );
		}
		if ( has == false )
		{
			anchors[i] = tbBody_GetPosition( bodies[i] );
		}
	}
	jd.base.localFrameA.p =
		TB_IS_NULL( bodies[0] ) ? anchors[0] : tbInvTransformPoint( tbBody_GetTransform( bodies[0] ), anchors[0] );
	jd.base.localFrameB.p =
		TB_IS_NULL( bodies[1] ) ? anchors[1] : tbInvTransformPoint( tbBody_GetTransform( bodies[1] ), anchors[1] );
	jd.base.localFrameA.q = tb_quatIdentity;
	jd.base.localFrameB.q = tb_quatIdentity;

	jd.length = tbDistance( anchors[0], anchors[1] );
	tbDef_Number( &def, "length", &jd.length, tbCheck_nonNegative );
	bool hasMin = tbDef_Number( &def, "min", &jd.minLength, tbCheck_nonNegative );
	bool hasMax = tbDef_Number( &def, "max", &jd.maxLength, tbCheck_nonNegative );
	jd.enableLimit = hasMin || hasMax;
	if ( jd.enableLimit && jd.minLength > jd.maxLength )
	{
		tbDef_FieldError( &def, "max", "a number >= min" );
	}
	tbLuaDef spring;
	char prefix[32];
	if ( tbLuaJoint_BeginNested( &def, "spring", prefix, sizeof( prefix ), &spring ) )
	{
		jd.enableSpring = true;
		tbLuaJoint_ReadSpring( &spring, &jd.hertz, &jd.dampingRatio, &jd.stiffness, &jd.damping );
		tbLuaJoint_EndNested( &spring );
	}
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateDistanceJoint( world->id, &jd, &result );
	tbLuaJoint_Finish( L, fn, id, result, enabled );
	return 1;
}

static int tbLuaDistance_GetLength( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.length", tbDistanceJoint_GetLength );
}

static int tbLuaDistance_SetLength( lua_State* L )
{
	return tbLuaJoint_SetFloat( L, "Joint.length", tbCheck_nonNegative, tbDistanceJoint_SetLength );
}

static int tbLuaDistance_GetCurrentLength( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.current_length", tbDistanceJoint_GetCurrentLength );
}

static int tbLuaDistance_GetLimits( lua_State* L )
{
	return tbLuaJoint_GetRange( L, "Joint.limits", tbDistanceJoint_IsLimitEnabled, tbDistanceJoint_GetMinLength,
								tbDistanceJoint_GetMaxLength );
}

static int tbLuaDistance_SetLimits( lua_State* L )
{
	const char* fn = "Joint.limits";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	float lo = 0.0f, hi = 0.0f;
	bool on = tbLuaJoint_CheckRange( L, fn, false, &lo, &hi );
	if ( on && lo < 0.0f )
	{
		return luaL_error( L, "%s: lengths must be >= 0, got %f", fn, lo );
	}
	if ( on )
	{
		tbLuaJoint_CheckResult( L, tbDistanceJoint_SetLengthRange( joint->id, lo, hi ), fn );
	}
	tbLuaJoint_CheckResult( L, tbDistanceJoint_EnableLimit( joint->id, on ), fn );
	return 0;
}

static int tbLuaDistance_GetSpring( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.spring" );
	if ( tbDistanceJoint_IsSpringEnabled( joint->id ) == false )
	{
		lua_pushnil( L );
		return 1;
	}
	lua_createtable( L, 0, 2 );
	float stiffness = tbDistanceJoint_GetSpringStiffness( joint->id );
	if ( stiffness > 0.0f )
	{
		lua_pushnumber( L, stiffness );
		lua_setfield( L, -2, "stiffness" );
		lua_pushnumber( L, tbDistanceJoint_GetSpringDamping( joint->id ) );
		lua_setfield( L, -2, "damper" );
		return 1;
	}
	lua_pushnumber( L, tbDistanceJoint_GetSpringHertz( joint->id ) );
	lua_setfield( L, -2, "hz" );
	lua_pushnumber( L, tbDistanceJoint_GetSpringDampingRatio( joint->id ) );
	lua_setfield( L, -2, "damping" );
	return 1;
}

// j.spring = { hz = 4, damping = 0.5 } or nil (rigid again)
static int tbLuaDistance_SetSpring( lua_State* L )
{
	const char* fn = "Joint.spring";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	if ( lua_isnil( L, 3 ) )
	{
		tbLuaJoint_CheckResult( L, tbDistanceJoint_EnableSpring( joint->id, false ), fn );
		return 0;
	}
	tbLuaDef def;
	tbDef_Begin( &def, L, 3, fn, "" );
	float hz = tbDistanceJoint_GetSpringHertz( joint->id );
	float damping = tbDistanceJoint_GetSpringDampingRatio( joint->id );
	float stiffness = 0.0f, damper = 0.0f;
	tbLuaJoint_ReadSpring( &def, &hz, &damping, &stiffness, &damper );
	tbDef_Finish( &def );
	tbLuaJoint_CheckResult( L, tbDistanceJoint_SetSpringHertz( joint->id, hz ), fn );
	tbLuaJoint_CheckResult( L, tbDistanceJoint_SetSpringDampingRatio( joint->id, damping ), fn );
	tbLuaJoint_CheckResult( L, tbDistanceJoint_SetSpringStiffness( joint->id, stiffness, damper ), fn );
	tbLuaJoint_CheckResult( L, tbDistanceJoint_EnableSpring( joint->id, true ), fn );
	return 0;
}

static const tbLuaProperty tb_distanceProperties[] = {
	{ "length", tbLuaDistance_GetLength, tbLuaDistance_SetLength },
	{ "current_length", tbLuaDistance_GetCurrentLength, NULL },
	{ "limits", tbLuaDistance_GetLimits, tbLuaDistance_SetLimits },
	{ "spring", tbLuaDistance_GetSpring, tbLuaDistance_SetSpring },
	{ NULL, NULL, NULL },
};

const tbLuaJointClass tb_luaDistanceJointClass = { "distance", tbLuaWorld_Distance, { NULL, tb_distanceProperties } };
