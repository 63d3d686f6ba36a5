// Tumble Lua bindings: the 6-DOF joint (six_dof_joint.c): world:six_dof{...}, each axis free,
// limited or fixed, and a motor per axis.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

#include <float.h>
#include <string.h>

static const char* const tb_sixDofAxisNames[] = { "x", "y", "z", "rx", "ry", "rz", NULL };

// One 6-DOF axis setting: "free", "fixed" or {lower, upper} (m, or rad in [-pi, pi] for rotations).
static bool tbReadAxisMode( lua_State* L, int index, int axis, tbAxisMode* mode, float* lo, float* hi )
{
	if ( lua_type( L, index ) == LUA_TSTRING )
	{
		const char* s = lua_tostring( L, index );
		if ( strcmp( s, "free" ) == 0 )
		{
			*mode = tbAxis_free;
			return true;
		}
		if ( strcmp( s, "fixed" ) == 0 )
		{
			*mode = tbAxis_fixed;
			return true;
		}
		return false;
	}
	if ( tbLuaJoint_ReadRange( L, index, axis >= tbSixDof_rx ? TB_LUA_PI : FLT_MAX, lo, hi ) )
	{
		*mode = tbAxis_limited;
		return true;
	}
	return false;
}

static const char* tbAxisModeText( int axis )
{
	return axis >= tbSixDof_rx ? "'free', 'fixed' or {lower, upper} in [-pi, pi]" : "'free', 'fixed' or {lower, upper}";
}

// world:six_dof{ a, b, anchor, axis, ref, axes = { x = "free", rz = {-0.3, 0.3}, ... },
//                motors = { x = { speed, max_force }, ... } }
static int tbLuaWorld_SixDof( lua_State* L )
{
	const char* fn = "six_dof";
	tbLuaDef def;
	tbLuaWorld* world = tbLuaJoint_Begin( L, fn, &def );
	tbSixDofJointDef jd = tbDefaultSixDofJointDef();
	bool enabled;
	tbLuaJoint_ReadBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	tbLuaDef nested;
	char prefix[32];
	if ( tbLuaJoint_BeginNested( &def, "axes", prefix, sizeof( prefix ), &nested ) )
	{
		for ( int i = 0; i < tbSixDof_axisCount; ++i )
		{
			if ( tbDef_Value( &nested, tb_sixDofAxisNames[i] ) )
			{
				bool ok = tbReadAxisMode( L, -1, i, jd.mode + i, jd.lower + i, jd.upper + i );
				lua_pop( L, 1 );
				if ( ok == false )
				{
					tbDef_FieldError( &nested, tb_sixDofAxisNames[i], tbAxisModeText( i ) );
				}
			}
		}
		tbLuaJoint_EndNested( &nested );
	}
	if ( tbLuaJoint_BeginNested( &def, "motors", prefix, sizeof( prefix ), &nested ) )
	{
		for ( int i = 0; i < tbSixDof_axisCount; ++i )
		{
			tbLuaDef motor;
			char motorPrefix[32];
			if ( tbLuaJoint_BeginNested( &nested, tb_sixDofAxisNames[i], motorPrefix, sizeof( motorPrefix ), &motor ) )
			{
				jd.enableMotor[i] = true;
				jd.maxMotorForce[i] = FLT_MAX;
				tbDef_Number( &motor, "speed", jd.motorSpeed + i, tbCheck_finite );
				tbLuaJoint_DefCap( &motor, "max_force", jd.maxMotorForce + i );
				tbLuaJoint_EndNested( &motor );
			}
		}
		tbLuaJoint_EndNested( &nested );
	}
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateSixDofJoint( world->id, &jd, &result );
	tbLuaJoint_Finish( L, fn, id, result, enabled );
	return 1;
}

// j.axes -> { x = "free" | "fixed" | {lo, hi}, ... }
static int tbLuaSixDof_GetAxes( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.axes" );
	lua_createtable( L, 0, tbSixDof_axisCount );
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		tbAxisMode mode = tbSixDofJoint_GetAxisMode( joint->id, (tbSixDofAxis)i );
		if ( mode == tbAxis_limited )
		{
			tbLuaJoint_PushRange( L, true, tbSixDofJoint_GetAxisLower( joint->id, (tbSixDofAxis)i ),
								  tbSixDofJoint_GetAxisUpper( joint->id, (tbSixDofAxis)i ) );
		}
		else
		{
			lua_pushstring( L, mode == tbAxis_free ? "free" : "fixed" );
		}
		lua_setfield( L, -2, tb_sixDofAxisNames[i] );
	}
	return 1;
}

// j.axes = { rz = "free", z = {-1, 1} }: changes only the axes named.
static int tbLuaSixDof_SetAxes( lua_State* L )
{
	const char* fn = "Joint.axes";
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	tbLuaDef def;
	tbDef_Begin( &def, L, 3, fn, "" );
	tbAxisMode modes[tbSixDof_axisCount];
	float lo[tbSixDof_axisCount], hi[tbSixDof_axisCount];
	bool given[tbSixDof_axisCount];
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		given[i] = tbDef_Value( &def, tb_sixDofAxisNames[i] );
		if ( given[i] )
		{
			bool ok = tbReadAxisMode( L, -1, i, modes + i, lo + i, hi + i );
			lua_pop( L, 1 );
			if ( ok == false )
			{
				tbDef_FieldError( &def, tb_sixDofAxisNames[i], tbAxisModeText( i ) );
			}
		}
	}
	tbDef_Finish( &def );
	// Everything was checked before anything changes.
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		if ( given[i] && modes[i] == tbAxis_limited )
		{
			tbLuaJoint_CheckResult( L, tbSixDofJoint_SetAxisLimits( joint->id, (tbSixDofAxis)i, lo[i], hi[i] ), fn );
		}
		if ( given[i] )
		{
			tbLuaJoint_CheckResult( L, tbSixDofJoint_SetAxisMode( joint->id, (tbSixDofAxis)i, modes[i] ), fn );
		}
	}
	return 0;
}

static int tbSixDofAxisArg( lua_State* L, int index, const char* fn )
{
	return tbLua_CheckEnum( L, index, tb_sixDofAxisNames, fn, "6-DOF axis" );
}

// j:axis_position(axis) -> m or rad
static int tbLuaSixDof_AxisPosition( lua_State* L )
{
	tbLuaJoint* joint = tbLuaJoint_CheckType( L, "axis_position", tbJoint_sixDof, false );
	int axis = tbSixDofAxisArg( L, 2, "axis_position" );
	lua_pushnumber( L, tbSixDofJoint_GetAxisPosition( joint->id, (tbSixDofAxis)axis ) );
	return 1;
}

// j:set_axis_motor(axis, speed, max_force) or j:set_axis_motor(axis, false)
static int tbLuaSixDof_SetAxisMotor( lua_State* L )
{
	const char* fn = "set_axis_motor";
	tbLuaJoint* joint = tbLuaJoint_CheckType( L, fn, tbJoint_sixDof, true );
	tbSixDofAxis axis = (tbSixDofAxis)tbSixDofAxisArg( L, 2, fn );
	if ( lua_type( L, 3 ) == LUA_TBOOLEAN && lua_toboolean( L, 3 ) == 0 )
	{
		tbLuaJoint_CheckResult( L, tbSixDofJoint_EnableAxisMotor( joint->id, axis, false ), fn );
		return 0;
	}
	float speed = tbLua_CheckNumber( L, 3, fn, "speed", tbCheck_finite );
	float force = 0.0f;
	if ( tbLuaJoint_ReadCap( L, 4, &force ) == false )
	{
		char got[64];
		return luaL_error( L, "%s: max_force must be %s, got %s", fn, tb_luaCapText,
						   tbLua_Describe( L, 4, got, sizeof( got ) ) );
	}
	tbLuaJoint_CheckResult( L, tbSixDofJoint_SetAxisMotorSpeed( joint->id, axis, speed ), fn );
	tbLuaJoint_CheckResult( L, tbSixDofJoint_SetAxisMaxMotorForce( joint->id, axis, force ), fn );
	tbLuaJoint_CheckResult( L, tbSixDofJoint_EnableAxisMotor( joint->id, axis, true ), fn );
	return 0;
}

static const luaL_Reg tb_sixDofMethods[] = {
	{ "axis_position", tbLuaSixDof_AxisPosition },
	{ "set_axis_motor", tbLuaSixDof_SetAxisMotor },
	{ NULL, NULL },
};

static const tbLuaProperty tb_sixDofProperties[] = {
	{ "axes", tbLuaSixDof_GetAxes, tbLuaSixDof_SetAxes },
	{ NULL, NULL, NULL },
};

const tbLuaJointClass tb_luaSixDofJointClass = {
	"six_dof", tbLuaWorld_SixDof, { tb_sixDofMethods, tb_sixDofProperties } };
