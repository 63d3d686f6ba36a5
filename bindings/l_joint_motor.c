// Tumble Lua bindings: the motor joint (motor_joint.c): world:motor{...}, its speed and torque cap.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

// world:motor{ a, b, anchor, axis, ref, speed, max_torque }
static int tbLuaWorld_Motor( lua_State* L )
{
	const char* fn = "motor";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	tbMotorJointDef jd = tbDefaultMotorJointDef();
	bool enabled;
	tbLuaJoint_ReadBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	tbDef_Number( &def, "speed", &jd.motorSpeed, tbCheck_finite );
	tbLuaJoint_DefCap( &def, "max_torque", &jd.maxMotorTorque );
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateMotorJoint( world->id, &jd, &result );
	tbLuaJoint_Finish( L, fn, id, result, enabled );
	return 1;
}

static int tbLuaMotor_GetMotorSpeed( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.motor_speed", tbMotorJoint_GetMotorSpeed );
}

static int tbLuaMotor_SetMotorSpeed( lua_State* L )
{
	return tbLuaJoint_SetFloat( L, "Joint.motor_speed", tbCheck_finite, tbMotorJoint_SetMotorSpeed );
}

static int tbLuaMotor_GetMaxTorque( lua_State* L )
{
	return tbLuaJoint_GetCap( L, "Joint.max_torque", tbMotorJoint_GetMaxMotorTorque );
}

static int tbLuaMotor_SetMaxTorque( lua_State* L )
{
	return tbLuaJoint_SetCap( L, "Joint.max_torque", tbMotorJoint_SetMaxMotorTorque );
}

// The motor's output in the last step (N m), under either name.
static int tbLuaMotor_GetMotorTorque( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.motor_torque", tbMotorJoint_GetMotorTorque );
}

static const tbLuaProperty tb_motorProperties[] = {
	{ "motor_speed", tbLuaMotor_GetMotorSpeed, tbLuaMotor_SetMotorSpeed },
	{ "max_torque", tbLuaMotor_GetMaxTorque, tbLuaMotor_SetMaxTorque },
	{ "motor_torque", tbLuaMotor_GetMotorTorque, NULL },
	{ "motor_force", tbLuaMotor_GetMotorTorque, NULL },
	{ NULL, NULL, NULL },
};

const tbLuaJointClass tb_luaMotorJointClass = { "motor", tbLuaWorld_Motor, { NULL, tb_motorProperties } };
