// Tumble Lua bindings: the slider joint (slider_joint.c): world:slider{...}, its limits and motor,
// and the translation and speed it reports.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

#include <float.h>

// world:slider{ a, b, anchor, axis, ref, limits, motor = { speed, max_force } }
static int tbLuaWorld_Slider( lua_State* L )
{
	const char* fn = "slider";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	tbSliderJointDef jd = tbDefaultSliderJointDef();
	bool enabled;
	tbLuaJoint_ReadBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	jd.enableLimit = tbLuaJoint_DefRange( &def, "limits", false, &jd.lowerTranslation, &jd.upperTranslation );
	tbLuaDef nested;
	char prefix[32];
	if ( tbLuaJoint_BeginNested( &def, "motor", prefix, sizeof( prefix ), &nested ) )
	{
		jd.enableMotor = true;
		jd.maxMotorForce = FLT_MAX;
		tbDef_Number( &nested, "speed", &jd.motorSpeed, tbCheck_finite );
		tbLuaJoint_DefCap( &nested, "max_force", &jd.maxMotorForce );
		tbLuaJoint_EndNested( &nested );
	}
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateSliderJoint( world->id, &jd, &result );
	tbLuaJoint_Finish( L, fn, id, result, enabled );
	return 1;
}

static int tbLuaSlider_GetMotorSpeed( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.motor_speed", tbSliderJoint_GetMotorSpeed );
}

// Setting a speed turns the motor on.
static int tbLuaSlider_SetMotorSpeed( lua_State* L )
{
	const char* fn = "Joint.motor_speed";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	float speed = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_finite );
	tbLuaJoint_CheckResult( L, tbSliderJoint_SetMotorSpeed( joint->id, speed ), fn );
	tbLuaJoint_CheckResult( L, tbSliderJoint_EnableMotor( joint->id, true ), fn );
	return 0;
}

static int tbLuaSlider_GetMotorEnabled( lua_State* L )
{
	return tbLuaJoint_GetBool( L, "Joint.motor_enabled", tbSliderJoint_IsMotorEnabled );
}

static int tbLuaSlider_SetMotorEnabled( lua_State* L )
{
	return tbLuaJoint_SetBool( L, "Joint.motor_enabled", tbSliderJoint_EnableMotor );
}

static int tbLuaSlider_GetMaxForce( lua_State* L )
{
	return tbLuaJoint_GetCap( L, "Joint.max_force", tbSliderJoint_GetMaxMotorForce );
}

static int tbLuaSlider_SetMaxForce( lua_State* L )
{
	return tbLuaJoint_SetCap( L, "Joint.max_force", tbSliderJoint_SetMaxMotorForce );
}

// The motor's output in the last step (N), under either name.
static int tbLuaSlider_GetMotorForce( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.motor_torque", tbSliderJoint_GetMotorForce );
}

static int tbLuaSlider_GetLimits( lua_State* L )
{
	return tbLuaJoint_GetRange( L, "Joint.limits", tbSliderJoint_IsLimitEnabled, tbSliderJoint_GetLowerLimit,
								tbSliderJoint_GetUpperLimit );
}

static int tbLuaSlider_SetLimits( lua_State* L )
{
	return tbLuaJoint_SetRange( L, "Joint.limits", false, tbSliderJoint_SetLimits, tbSliderJoint_EnableLimit );
}

static int tbLuaSlider_GetTranslation( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.translation", tbSliderJoint_GetTranslation );
}

static int tbLuaSlider_GetSpeed( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.speed", tbSliderJoint_GetSpeed );
}

static const tbLuaProperty tb_sliderProperties[] = {
	{ "motor_speed", tbLuaSlider_GetMotorSpeed, tbLuaSlider_SetMotorSpeed },
	{ "motor_enabled", tbLuaSlider_GetMotorEnabled, tbLuaSlider_SetMotorEnabled },
	{ "max_force", tbLuaSlider_GetMaxForce, tbLuaSlider_SetMaxForce },
	{ "motor_torque", tbLuaSlider_GetMotorForce, NULL },
	{ "motor_force", tbLuaSlider_GetMotorForce, NULL },
	{ "limits", tbLuaSlider_GetLimits, tbLuaSlider_SetLimits },
	{ "translation", tbLuaSlider_GetTranslation, NULL },
	{ "speed", tbLuaSlider_GetSpeed, NULL },
	{ NULL, NULL, NULL },
};

const tbLuaJointClass tb_luaSliderJointClass = { "slider", tbLuaWorld_Slider, { NULL, tb_sliderProperties } };
