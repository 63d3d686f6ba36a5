// Tumble Lua bindings: the hinge joint (hinge_joint.c): world:hinge{...}, its limits, velocity motor
// and servo, and the angle and speed it reports.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

#include <float.h>
#include <math.h>

// world:hinge{ a, b, anchor, axis, ref, limits, motor = { speed, max_torque },
//              servo = { angle, max_torque, gain, max_speed } }
static int tbLuaWorld_Hinge( lua_State* L )
{
	const char* fn = "hinge";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	tbHingeJointDef jd = tbDefaultHingeJointDef();
	bool enabled;
	tbLuaJoint_ReadBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	jd.enableLimit = tbLuaJoint_DefRange( &def, "limits", true, &jd.lowerAngle, &jd.upperAngle );

	tbLuaDef nested;
	char prefix[32];
	if ( tbLuaJoint_BeginNested( &def, "motor", prefix, sizeof( prefix ), &nested ) )
	{
		jd.enableMotor = true;
		jd.maxMotorTorque = FLT_MAX;
		tbDef_Number( &nested, "speed", &jd.motorSpeed, tbCheck_angularSpeed );
		tbLuaJoint_DefCap( &nested, "max_torque", &jd.maxMotorTorque );
		tbLuaJoint_EndNested( &nested );
	}
	if ( tbLuaJoint_BeginNested( &def, "servo", prefix, sizeof( prefix ), &nested ) )
	{
		if ( jd.enableMotor )
		{
			return luaL_error( L, "%s: give motor or servo, not both", fn );
		}
		jd.enableServo = true;
		jd.maxServoTorque = FLT_MAX;
		if ( tbDef_Number( &nested, "angle", &jd.servoAngle, tbCheck_finite ) && fabsf( jd.servoAngle ) > TB_LUA_PI )
		{
			tbDef_FieldError( &nested, "angle", "an angle in [-pi, pi]" );
		}
		tbLuaJoint_DefCap( &nested, "max_torque", &jd.maxServoTorque );
		tbDef_Number( &nested, "gain", &jd.servoGain, tbCheck_positive );
		tbDef_Number( &nested, "max_speed", &jd.maxServoSpeed, tbCheck_positive );
		tbLuaJoint_EndNested( &nested );
	}
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateHingeJoint( world->id, &jd, &result );
	tbLuaJoint_Finish( L, fn, id, result, enabled );
	return 1;
}

// The hinge drives one way at a time, at a speed (the velocity motor) or to an angle (the servo):
// turning one on turns the other off, and setting one's target turns it on. target is set with
// setTarget when that is not NULL.
static int tbHingeSwitchDrive( lua_State* L, const char* fn, tbJointId id, tbResult ( *enable )( tbJointId, bool ),
							   tbResult ( *enableOther )( tbJointId, bool ), bool on,
							   tbResult ( *setTarget )( tbJointId, float ), float target )
{
	if ( on )
	{
		tbLuaJoint_CheckResult( L, enableOther( id, false ), fn );
	}
	if ( setTarget != NULL )
	{
		tbLuaJoint_CheckResult( L, setTarget( id, target ), fn );
	}
	tbLuaJoint_CheckResult( L, enable( id, on ), fn );
	return 0;
}

// The servo's gain (1/s) or its speed cap (rad/s): the core sets the two together.
static int tbHingeSetServoResponse( lua_State* L, const char* fn, bool gain )
{
	tbJointId id = tbLuaJoint_CheckMutable( L, fn )->id;
	float value = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_positive );
	tbLuaJoint_CheckResult( L,
							tbHingeJoint_SetServoGain( id, gain ? value : tbHingeJoint_GetServoGain( id ),
													   gain ? tbHingeJoint_GetMaxServoSpeed( id ) : value ),
							fn );
	return 0;
}

static int tbLuaHinge_GetMotorSpeed( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.motor_speed", tbHingeJoint_GetMotorSpeed );
}

static int tbLuaHinge_SetMotorSpeed( lua_State* L )
{
	const char* fn = "Joint.motor_speed";
	tbJointId id = tbLuaJoint_CheckMutable( L, fn )->id;
	float speed = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_angularSpeed );
	return tbHingeSwitchDrive( L, fn, id, tbHingeJoint_EnableMotor, tbHingeJoint_EnableServo, true,
							   tbHingeJoint_SetMotorSpeed, speed );
}

static int tbLuaHinge_GetMotorEnabled( lua_State* L )
{
	return tbLuaJoint_GetBool( L, "Joint.motor_enabled", tbHingeJoint_IsMotorEnabled );
}

static int tbLuaHinge_SetMotorEnabled( lua_State* L )
{
	const char* fn = "Joint.motor_enabled";
	tbJointId id = tbLuaJoint_CheckMutable( L, fn )->id;
	bool on = tbLua_CheckBool( L, 3, fn, "value" );
	return tbHingeSwitchDrive( L, fn, id, tbHingeJoint_EnableMotor, tbHingeJoint_EnableServo, on, NULL, 0.0f );
}

// The hinge has one actuator: max_torque caps the velocity motor and the servo alike.
static int tbLuaHinge_GetMaxTorque( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.max_torque" );
	float torque = tbHingeJoint_IsServoEnabled( joint->id ) ? tbHingeJoint_GetMaxServoTorque( joint->id )
															: tbHingeJoint_GetMaxMotorTorque( joint->id );
	tbLuaJoint_PushCap( L, torque );
	return 1;
}

static int tbLuaHinge_SetMaxTorque( lua_State* L )
{
	const char* fn = "Joint.max_torque";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	float torque = tbLuaJoint_CheckCap( L, fn );
	tbLuaJoint_CheckResult( L, tbHingeJoint_SetMaxMotorTorque( joint->id, torque ), fn );
	tbLuaJoint_CheckResult( L, tbHingeJoint_SetMaxServoTorque( joint->id, torque ), fn );
	return 0;
}

// The drive's output in the last step (N m), under either name.
static int tbLuaHinge_GetMotorTorque( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.motor_torque", tbHingeJoint_GetMotorTorque );
}

static int tbLuaHinge_GetServoAngle( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.servo_angle", tbHingeJoint_GetServoAngle );
}

static int tbLuaHinge_SetServoAngle( lua_State* L )
{
	const char* fn = "Joint.servo_angle";
	tbJointId id = tbLuaJoint_CheckMutable( L, fn )->id;
	float angle = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_finite );
	if ( fabsf( angle ) > TB_LUA_PI )
	{
		char got[64];
		return luaL_error( L, "%s: value must be an angle in [-pi, pi], got %s", fn,
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	return tbHingeSwitchDrive( L, fn, id, tbHingeJoint_EnableServo, tbHingeJoint_EnableMotor, true,
							   tbHingeJoint_SetServoAngle, angle );
}

static int tbLuaHinge_GetServoEnabled( lua_State* L )
{
	return tbLuaJoint_GetBool( L, "Joint.servo_enabled", tbHingeJoint_IsServoEnabled );
}

static int tbLuaHinge_SetServoEnabled( lua_State* L )
{
	const char* fn = "Joint.servo_enabled";
	tbJointId id = tbLuaJoint_CheckMutable( L, fn )->id;
	bool on = tbLua_CheckBool( L, 3, fn, "value" );
	return tbHingeSwitchDrive( L, fn, id, tbHingeJoint_EnableServo, tbHingeJoint_EnableMotor, on, NULL, 0.0f );
}

static int tbLuaHinge_GetServoGain( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.servo_gain", tbHingeJoint_GetServoGain );
}

static int tbLuaHinge_SetServoGain( lua_State* L )
{
	return tbHingeSetServoResponse( L, "Joint.servo_gain", true );
}

static int tbLuaHinge_GetServoMaxSpeed( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.servo_max_speed", tbHingeJoint_GetMaxServoSpeed );
}

static int tbLuaHinge_SetServoMaxSpeed( lua_State* L )
{
	return tbHingeSetServoResponse( L, "Joint.servo_max_speed", false );
}

static int tbLuaHinge_GetLimits( lua_State* L )
{
	return tbLuaJoint_GetRange( L, "Joint.limits", tbHingeJoint_IsLimitEnabled, tbHingeJoint_GetLowerLimit,
								tbHingeJoint_GetUpperLimit );
}

static int tbLuaHinge_SetLimits( lua_State* L )
{
	return tbLuaJoint_SetRange( L, "Joint.limits", true, tbHingeJoint_SetLimits, tbHingeJoint_EnableLimit );
}

static int tbLuaHinge_GetAngle( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.angle", tbHingeJoint_GetAngle );
}

static int tbLuaHinge_GetSpeed( lua_State* L )
{
	return tbLuaJoint_GetFloat( L, "Joint.speed", tbHingeJoint_GetSpeed );
}

static const tbLuaProperty tb_hingeProperties[] = {
	{ "motor_speed", tbLuaHinge_GetMotorSpeed, tbLuaHinge_SetMotorSpeed },
	{ "motor_enabled", tbLuaHinge_GetMotorEnabled, tbLuaHinge_SetMotorEnabled },
	{ "max_torque", tbLuaHinge_GetMaxTorque, tbLuaHinge_SetMaxTorque },
	{ "motor_torque", tbLuaHinge_GetMotorTorque, NULL },
	{ "motor_force", tbLuaHinge_GetMotorTorque, NULL },
	{ "servo_angle", tbLuaHinge_GetServoAngle, tbLuaHinge_SetServoAngle },
	{ "servo_enabled", tbLuaHinge_GetServoEnabled, tbLuaHinge_SetServoEnabled },
	{ "servo_gain", tbLuaHinge_GetServoGain, tbLuaHinge_SetServoGain },
	{ "servo_max_speed", tbLuaHinge_GetServoMaxSpeed, tbLuaHinge_SetServoMaxSpeed },
	{ "limits", tbLuaHinge_GetLimits, tbLuaHinge_SetLimits },
	{ "angle", tbLuaHinge_GetAngle, NULL },
	{ "speed", tbLuaHinge_GetSpeed, NULL },
	{ NULL, NULL, NULL },
};

const tbLuaJointClass tb_luaHingeJointClass = { "hinge", tbLuaWorld_Hinge, { NULL, tb_hingeProperties } };
