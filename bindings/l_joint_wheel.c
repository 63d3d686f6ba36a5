// Tumble Lua bindings: the wheel joint (wheel_joint.c): world:wheel{...}, its suspension spring,
// limits and axle motor, and the translation, speeds and forces it reports.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

#include <float.h>

// world:wheel{ a, b, anchor, axis, suspension, spring = { stiffness, damper } or { hz, damping },
//              limits, motor = { speed, max_torque } }
static int tbLuaWorld_Wheel( lua_State* L )
{
	const char* fn = "wheel";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	if ( lua_getfield( L, def.table, "ref" ) != LUA_TNIL )
	{
		return luaL_error( L, "%s: ref is not used by a wheel: give suspension (the direction the wheel travels along)", fn );
	}
	lua_pop( L, 1 );
	tbWheelJointDef jd = tbDefaultWheelJointDef();
	bool enabled;
	tbLuaJoint_ReadBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );

	// The frames again with z along the suspension: x the axle, y = z x x.
	tbVec3 suspension = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	bool hasSuspension = tbDef_Vec3( &def, "suspension", &suspension, tbCheck_nonZero );
	tbTransform worldFrameA = jd.base.localFrameA;
	if ( TB_IS_NON_NULL( jd.base.bodyA ) )
	{
		worldFrameA = tbMulTransforms( tbBody_GetTransform( jd.base.bodyA ), jd.base.localFrameA );
	}
	tbVec3 axle = tbRotate( worldFrameA.q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
	float length = tbLength( suspension );
	suspension = tbSub( suspension, tbMulSV( tbDot( suspension, axle ), axle ) );
	if ( tbLength( suspension ) < 1.0e-3f * length )
	{
		return tbDef_FieldError( &def, hasSuspension ? "suspension" : "axis",
								 hasSuspension ? "a direction not parallel to axis" : "a direction not parallel to suspension ({0, 0, 1})" );
	}
	suspension = tbNormalize( suspension );
	tbVec3 ref = tbCross( suspension, axle );
	tbTransform frame = { worldFrameA.p, tbMakeQuatFromMatrix( tbMakeMat3( axle, ref, suspension ) ) };
	tbResult placed = tbJointFramesFromWorldFrame( jd.base.bodyA, jd.base.bodyB, frame, &jd.base );
	if ( placed != tbResult_ok )
	{
		return luaL_error( L, "%s: could not place the joint frames: %s", fn, tbResultString( placed ) );
	}

	tbLuaDef nested;
	char prefix[32];
	// spring = false: no spring, the suspension slides freely between its limits.
	bool isBoolean = lua_getfield( L, def.table, "spring" ) == LUA_TBOOLEAN;
	lua_pop( L, 1 );
	if ( isBoolean )
	{
		bool spring = true;
		tbDef_Bool( &def, "spring", &spring );
		if ( spring )
		{
			return tbDef_FieldError( &def, "spring", "a table { stiffness =, damper = } or { hz =, damping = }, or false" );
		}
		jd.enableSpring = false;
	}
	else if ( tbLuaJoint_BeginNested( &def, "spring", prefix, sizeof( prefix ), &nested ) )
	{
		tbLuaJoint_ReadSpring( &nested, &jd.hertz, &jd.dampingRatio, &jd.stiffness, &jd.damping );
		char text[64];
		if ( jd.stiffness > TB_MAX_FORCE || jd.damping > TB_MAX_FORCE )
		{
			return tbDef_FieldError( &nested, jd.stiffness > TB_MAX_FORCE ? "stiffness" : "damper",
									 tbLua_LimitText( text, sizeof( text ), 1, TB_MAX_FORCE, jd.stiffness > TB_MAX_FORCE ? "N/m" : "N s/m" ) );
		}
		tbLuaJoint_EndNested( &nested );
	}
	jd.enableLimit = tbLuaJoint_DefRange( &def, "limits", false, &jd.lowerTranslation, &jd.upperTranslation );
	if ( tbLuaJoint_BeginNested( &def, "motor", prefix, sizeof( prefix ), &nested ) )
	{
		jd.enableMotor = true;
		jd.maxMotorTorque = FLT_MAX;
		tbDef_Number( &nested, "speed", &jd.motorSpeed, tbCheck_angularSpeed );
		tbLuaJoint_DefCap( &nested, "max_torque", &jd.maxMotorTorque );
		tbLuaJoint_EndNested( &nested );
	}
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateWheelJoint( world->id, &jd, &result );
	tbLuaJoint_Finish( L, fn, id, result, enabled );
	return 1;
}

static int tbLuaWheel_GetMotorSpeed( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.motor_speed", tbWheelJoint_GetMotorSpeed );
}

// Setting a speed turns the motor on.
static int tbLuaWheel_SetMotorSpeed( lua_State* L )
{
	const char* fn = "Joint.motor_speed";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	float speed = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_angularSpeed );
	tbLuaJoint_CheckResult( L, tbWheelJoint_SetMotorSpeed( joint->id, speed ), fn );
	tbLuaJoint_CheckResult( L, tbWheelJoint_EnableMotor( joint->id, true ), fn );
	return 0;
}

static int tbLuaWheel_GetMotorEnabled( lua_State* L )
{
	return tbLuaJoint_GetBool( L, "Joint.motor_enabled", tbWheelJoint_IsMotorEnabled );
}

static int tbLuaWheel_SetMotorEnabled( lua_State* L )
{
	return tbLuaJoint_SetBool( L, "Joint.motor_enabled", tbWheelJoint_EnableMotor );
}

static int tbLuaWheel_GetMaxTorque( lua_State* L )
{
	return tbLuaJoint_GetCap( L, "Joint.max_torque", tbWheelJoint_GetMaxMotorTorque );
}

static int tbLuaWheel_SetMaxTorque( lua_State* L )
{
	return tbLuaJoint_SetCap( L, "Joint.max_torque", tbWheelJoint_SetMaxMotorTorque );
}

static int tbLuaWheel_GetMotorTorque( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.motor_torque", tbWheelJoint_GetMotorTorque );
}

static int tbLuaWheel_GetLimits( lua_State* L )
{
	return tbLuaJoint_GetRange( L, "Joint.limits", tbWheelJoint_IsLimitEnabled, tbWheelJoint_GetLowerLimit,
								tbWheelJoint_GetUpperLimit );
}

static int tbLuaWheel_SetLimits( lua_State* L )
{
	return tbLuaJoint_SetRange( L, "Joint.limits", false, tbWheelJoint_SetLimits, tbWheelJoint_EnableLimit );
}

static int tbLuaWheel_GetSpring( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.spring" );
	if ( tbWheelJoint_IsSpringEnabled( joint->id ) == false )
	{
		lua_pushnil( L );
		return 1;
	}
	lua_createtable( L, 0, 2 );
	float stiffness = tbWheelJoint_GetSpringStiffness( joint->id );
	if ( stiffness > 0.0f )
	{
		lua_pushnumber( L, stiffness );
		lua_setfield( L, -2, "stiffness" );
		lua_pushnumber( L, tbWheelJoint_GetSpringDamping( joint->id ) );
		lua_setfield( L, -2, "damper" );
		return 1;
	}
	lua_pushnumber( L, tbWheelJoint_GetSpringHertz( joint->id ) );
	lua_setfield( L, -2, "hz" );
	lua_pushnumber( L, tbWheelJoint_GetSpringDampingRatio( joint->id ) );
	lua_setfield( L, -2, "damping" );
	return 1;
}

// j.spring = { stiffness = 20000, damper = 2000 } or { hz =, damping = }, or nil: the suspension
// slides freely (between its limits).
static int tbLuaWheel_SetSpring( lua_State* L )
{
	const char* fn = "Joint.spring";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	if ( lua_isnil( L, 3 ) )
	{
		tbLuaJoint_CheckResult( L, tbWheelJoint_EnableSpring( joint->id, false ), fn );
		return 0;
	}
	tbLuaDef def;
	tbDef_Begin( &def, L, 3, fn, "" );
	float hz = tbWheelJoint_GetSpringHertz( joint->id );
	float damping = tbWheelJoint_GetSpringDampingRatio( joint->id );
	float stiffness = 0.0f, damper = 0.0f;
	tbLuaJoint_ReadSpring( &def, &hz, &damping, &stiffness, &damper );
	tbDef_Finish( &def );
	tbLuaJoint_CheckResult( L, tbWheelJoint_SetSpringHertz( joint->id, hz, damping ), fn );
	tbLuaJoint_CheckResult( L, tbWheelJoint_SetSpringStiffness( joint->id, stiffness, damper ), fn );
	tbLuaJoint_CheckResult( L, tbWheelJoint_EnableSpring( joint->id, true ), fn );
	return 0;
}

static int tbLuaWheel_GetSpringForce( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.spring_force", tbWheelJoint_GetSpringForce );
}

static int tbLuaWheel_GetTranslation( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.translation", tbWheelJoint_GetTranslation );
}

static int tbLuaWheel_GetSpeed( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.speed", tbWheelJoint_GetSpeed );
}

static int tbLuaWheel_GetSpinSpeed( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.spin_speed", tbWheelJoint_GetSpinSpeed );
}

static const tbLuaProperty tb_wheelProperties[] = {
	{ "motor_speed", tbLuaWheel_GetMotorSpeed, tbLuaWheel_SetMotorSpeed },
	{ "motor_enabled", tbLuaWheel_GetMotorEnabled, tbLuaWheel_SetMotorEnabled },
	{ "max_torque", tbLuaWheel_GetMaxTorque, tbLuaWheel_SetMaxTorque },
	{ "motor_torque", tbLuaWheel_GetMotorTorque, NULL },
	{ "limits", tbLuaWheel_GetLimits, tbLuaWheel_SetLimits },
	{ "spring", tbLuaWheel_GetSpring, tbLuaWheel_SetSpring },
	{ "spring_force", tbLuaWheel_GetSpringForce, NULL },
	{ "translation", tbLuaWheel_GetTranslation, NULL },
	{ "speed", tbLuaWheel_GetSpeed, NULL },
	{ "spin_speed", tbLuaWheel_GetSpinSpeed, NULL },
	{ NULL, NULL, NULL },
};

const tbLuaJointClass tb_luaWheelJointClass = { "wheel", tbLuaWorld_Wheel, { NULL, tb_wheelProperties } };
