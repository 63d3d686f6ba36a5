// Tumble Lua bindings: the Vehicle type (world:vehicle{...}), the cast-wheel vehicles of
// physics/include/tumble/vehicle.h. The userdata holds the vehicle's id; its user value is the
// World userdata, so the world outlives the handle.
// SPDX-License-Identifier: MIT
#include "l_common.h"

#include <stdio.h>
#include <string.h>

#define TB_LUA_VEHICLE "tumble.Vehicle"

typedef struct tbLuaVehicle
{
	tbVehicleId id;
	tbLuaWorld* world;
} tbLuaVehicle;

static tbLuaVehicle* tbCheckVehicle( lua_State* L, const char* fn, bool mutating )
{
	tbLuaVehicle* v = luaL_testudata( L, 1, TB_LUA_VEHICLE );
	if ( v == NULL )
	{
		char got[96];
		luaL_error( L, "%s: expected a Vehicle (call it as car:%s(...)), got %s", fn, fn,
					tbLua_Describe( L, 1, got, sizeof( got ) ) );
	}
	if ( v->world->destroyed || tbWorld_IsValid( v->world->id ) == false || tbVehicle_IsValid( v->id ) == false )
	{
		luaL_error( L, "attempt to use a destroyed Vehicle" );
	}
	if ( mutating )
	{
		tbLua_CheckUnlocked( L, v->world, fn );
	}
	return v;
}

// A number of a definition within [lo, hi], refused with the range and unit in the message.
static void tbReadRange( tbLuaDef* def, const char* key, float* value, float lo, float hi, const char* unit )
{
	float x = *value;
	if ( tbDef_Number( def, key, &x, tbCheck_finite ) == false )
	{
		return;
	}
	if ( x < lo || x > hi )
	{
		char text[96];
		snprintf( text, sizeof( text ), "a number in [%g, %g] (%s)", (double)lo, (double)hi, unit );
		tbDef_FieldError( def, key, text );
	}
	*value = x;
}

// Read the fields of a wheel table (at the def's table) over *wheel: a constructor's wheel from
// the defaults, car:set_wheel's from the wheel's current settings.
static void tbReadWheel( tbLuaDef* def, tbWheelDef* wheel )
{
	char text[96];
	if ( tbDef_Vec3( def, "pos", &wheel->position, tbCheck_finite ) &&
		 tbIsBoundedVec3( wheel->position, TB_MAX_SHAPE_SIZE ) == false )
	{
		tbDef_FieldError( def, "pos", tbLua_LimitText( text, sizeof( text ), 3, TB_MAX_SHAPE_SIZE, "m" ) );
	}
	if ( tbDef_Vec3( def, "direction", &wheel->direction, tbCheck_nonZero ) )
	{
		wheel->direction = tbNormalize( wheel->direction );
	}
	tbReadRange( def, "radius", &wheel->radius, 1.0e-4f, TB_MAX_SHAPE_SIZE, "m" );
	tbReadRange( def, "width", &wheel->width, 0.0f, TB_MAX_SHAPE_SIZE, "m" );
	tbReadRange( def, "min_length", &wheel->minLength, 0.0f, TB_MAX_SHAPE_SIZE, "m" );
	bool hasMax = lua_getfield( def->L, def->table, "max_length" ) != LUA_TNIL;
	lua_pop( def->L, 1 );
	bool hasRest = lua_getfield( def->L, def->table, "rest_length" ) != LUA_TNIL;
	lua_pop( def->L, 1 );
	tbReadRange( def, "max_length", &wheel->maxLength, 0.0f, TB_MAX_SHAPE_SIZE, "m" );
	if ( hasMax && hasRest == false )
	{
		// The spring's unloaded length follows the travel unless given.
		wheel->restLength = wheel->maxLength;
	}
	tbReadRange( def, "rest_length", &wheel->restLength, 0.0f, TB_MAX_SHAPE_SIZE, "m" );
	if ( wheel->maxLength < wheel->minLength )
	{
		if ( hasMax )
		{
			snprintf( text, sizeof( text ), "at least min_length (%g m)", (double)wheel->minLength );
			tbDef_FieldError( def, "max_length", text );
		}
		snprintf( text, sizeof( text ), "at most max_length (%g m)", (double)wheel->maxLength );
		tbDef_FieldError( def, "min_length", text );
	}
	if ( wheel->restLength < wheel->minLength || wheel->restLength > wheel->maxLength )
	{
		snprintf( text, sizeof( text ), "in [min_length, max_length] ([%g, %g] m)", (double)wheel->minLength,
				  (double)wheel->maxLength );
		tbDef_FieldError( def, "rest_length", text );
	}
	tbReadRange( def, "stiffness", &wheel->stiffness, 0.0f, TB_MAX_FORCE, "N/m" );
	tbReadRange( def, "damping", &wheel->damping, 0.0f, TB_MAX_FORCE, "N s/m" );
	tbReadRange( def, "friction", &wheel->friction, 0.0f, TB_MAX_FRICTION, "tyre friction coefficient" );
	tbReadRange( def, "lateral_friction", &wheel->lateralFriction, 0.0f, TB_MAX_FRICTION, "tyre friction coefficient" );
	tbReadRange( def, "inertia", &wheel->inertia, 1.0e-6f, TB_MAX_MASS, "kg m^2" );
	tbReadRange( def, "steer", &wheel->maxSteerAngle, -0.5f * TB_PI, 0.5f * TB_PI, "rad" );
	tbReadRange( def, "brake_torque", &wheel->maxBrakeTorque, 0.0f, TB_MAX_FORCE, "N m" );
	tbReadRange( def, "handbrake_torque", &wheel->maxHandbrakeTorque, 0.0f, TB_MAX_FORCE, "N m" );
	tbDef_Bool( def, "driven", &wheel->driven );
}

// world:vehicle{ chassis, wheels = { {...}, ... }, forward, up, engine_torque, max_speed,
//                anti_roll = { {left, right, stiffness}, ... }, layer, mask }
int tbLuaWorld_Vehicle( lua_State* L )
{
	const char* fn = "vehicle";
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, fn );
	tbLua_CheckUnlocked( L, world, fn );
	tbLua_Guard( L, tbLuaGuard_create, fn );
	tbLuaDef def;
	tbDef_Begin( &def, L, 2, fn, "" );
	tbVehicleDef vd = tbDefaultVehicleDef();
	char text[96];

	if ( tbDef_Value( &def, "chassis" ) == false )
	{
		return tbDef_FieldError( &def, "chassis", "a dynamic Body (required)" );
	}
	tbLuaBody* chassis = tbLua_TestUdata( L, -1, TB_LUA_BODY );
	if ( chassis == NULL || chassis->world != world || tbBody_IsValid( chassis->id ) == false ||
		 tbBody_GetType( chassis->id ) != tbBody_dynamic )
	{
		return tbDef_FieldError( &def, "chassis", "a dynamic Body of this world" );
	}
	if ( TB_IS_NON_NULL( tbBody_GetVehicle( chassis->id ) ) )
	{
		return tbDef_FieldError( &def, "chassis", "a Body that carries no vehicle yet (one vehicle a body)" );
	}
	vd.chassis = chassis->id;
	lua_pop( L, 1 );

	tbWheelDef wheels[TB_MAX_VEHICLE_WHEELS];
	if ( tbDef_Table( &def, "wheels" ) == false )
	{
		return tbDef_FieldError( &def, "wheels", "a list of 1 to 8 wheel tables (required)" );
	}
	int wheelCount = (int)lua_rawlen( L, -1 );
	if ( wheelCount < 1 || wheelCount > TB_MAX_VEHICLE_WHEELS )
	{
		snprintf( text, sizeof( text ), "a list of 1 to %d wheel tables", TB_MAX_VEHICLE_WHEELS );
		return tbDef_FieldError( &def, "wheels", text );
	}
	int list = lua_gettop( L );
	for ( int i = 0; i < wheelCount; ++i )
	{
		char prefix[32];
		snprintf( prefix, sizeof( prefix ), "wheels[%d].", i + 1 );
		lua_rawgeti( L, list, i + 1 );
		tbLuaDef wheel;
		tbDef_Begin( &wheel, L, -1, fn, prefix );
		wheels[i] = tbDefaultWheelDef();
		tbReadWheel( &wheel, wheels + i );
		tbDef_Finish( &wheel );
		lua_pop( L, 1 );
	}
	lua_pop( L, 1 );
	vd.wheels = wheels;
	vd.wheelCount = wheelCount;

	tbDef_Vec3( &def, "forward", &vd.forward, tbCheck_nonZero );
	tbDef_Vec3( &def, "up", &vd.up, tbCheck_nonZero );
	vd.forward = tbNormalize( vd.forward );
	vd.up = tbNormalize( vd.up );
	if ( tbAbsFloat( tbDot( vd.forward, vd.up ) ) > 1.0e-3f )
	{
		return tbDef_FieldError( &def, "up", "perpendicular to forward" );
	}
	tbReadRange( &def, "engine_torque", &vd.maxEngineTorque, 0.0f, TB_MAX_FORCE, "N m" );
	tbReadRange( &def, "max_speed", &vd.maxSpeed, 1.0e-3f, TB_MAX_SPEED, "m/s" );

	tbAntiRollBarDef bars[TB_MAX_ANTI_ROLL_BARS];
	if ( tbDef_Table( &def, "anti_roll" ) )
	{
		int barCount = (int)lua_rawlen( L, -1 );
		if ( barCount > TB_MAX_ANTI_ROLL_BARS )
		{
			snprintf( text, sizeof( text ), "a list of at most %d bars {left wheel, right wheel, N/m}", TB_MAX_ANTI_ROLL_BARS );
			return tbDef_FieldError( &def, "anti_roll", text );
		}
		for ( int i = 0; i < barCount; ++i )
		{
			lua_rawgeti( L, -1, i + 1 );
			float values[3];
			bool ok = tbLua_ReadFloats( L, -1, values, 3, tbCheck_nonNegative );
			int left = ok ? (int)values[0] : 0;
			int right = ok ? (int)values[1] : 0;
			ok = ok && values[0] == (float)left && values[1] == (float)right && left >= 1 && left <= wheelCount &&
				 right >= 1 && right <= wheelCount && left != right && values[2] <= TB_MAX_FORCE;
			lua_pop( L, 1 );
			if ( ok == false )
			{
				char bar[192];
				snprintf( bar, sizeof( bar ), "a list of {left wheel, right wheel, stiffness N/m}: two wheel numbers in 1..%d that differ, a stiffness >= 0 (bar %d)",
						  wheelCount, i + 1 );
				return tbDef_FieldError( &def, "anti_roll", bar );
			}
			bars[i].leftWheel = left - 1;
			bars[i].rightWheel = right - 1;
			bars[i].stiffness = values[2];
		}
		vd.antiRollBars = bars;
		vd.antiRollBarCount = barCount;
		lua_pop( L, 1 );
	}
	lua_Integer bits = 0;
	if ( tbDef_Integer( &def, "mask", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		vd.filter.maskBits = (uint64_t)bits;
	}
	if ( tbDef_Integer( &def, "layer", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		vd.filter.categoryBits = (uint64_t)bits;
	}
	tbDef_Finish( &def );

	tbResult result;
	tbVehicleId id = tbCreateVehicle( world->id, &vd, &result );
	if ( result != tbResult_ok )
	{
		return luaL_error( L, "%s: could not create the vehicle: %s", fn, tbResultString( result ) );
	}
	tbLuaVehicle* v = lua_newuserdatauv( L, sizeof( tbLuaVehicle ), 1 );
	v->id = id;
	v->world = world;
	lua_pushvalue( L, 1 );
	lua_setiuservalue( L, -2, 1 );
	luaL_setmetatable( L, TB_LUA_VEHICLE );
	return 1;
}

// A wheel number argument, 1..wheel count.
static int tbCheckWheel( lua_State* L, tbLuaVehicle* v, int index, const char* fn )
{
	int count = tbVehicle_GetWheelCount( v->id );
	int isInteger = 0;
	lua_Integer i = lua_tointegerx( L, index, &isInteger );
	if ( lua_type( L, index ) != LUA_TNUMBER || isInteger == 0 || i < 1 || i > count )
	{
		char got[96];
		luaL_error( L, "%s: wheel must be an integer in 1..%d, got %s", fn, count, tbLua_Describe( L, index, got, sizeof( got ) ) );
	}
	return (int)i - 1;
}

// car:wheel(i) -> { in_contact, contact, normal, ground, length, compression, force, spin, angle,
//                   steer, longitudinal_force, lateral_force }
static int tbVehicle_WheelMethod( lua_State* L )
{
	tbLuaVehicle* v = tbCheckVehicle( L, "wheel", false );
	int wheel = tbCheckWheel( L, v, 2, "wheel" );
	tbWheelState s = tbVehicle_GetWheelState( v->id, wheel );
	lua_createtable( L, 0, 12 );
	lua_pushboolean( L, s.inContact );
	lua_setfield( L, -2, "in_contact" );
	if ( s.inContact )
	{
		tbLua_PushVec3Table( L, s.contactPoint );
		lua_setfield( L, -2, "contact" );
		tbLua_PushVec3Table( L, s.contactNormal );
		lua_setfield( L, -2, "normal" );
		lua_getiuservalue( L, 1, 1 );
		tbLua_PushBody( L, -1, s.groundBody );
		lua_setfield( L, -3, "ground" );
		lua_pop( L, 1 );
	}
	const struct
	{
		const char* name;
		float value;
	} numbers[] = {
		{ "length", s.suspensionLength },
		{ "compression", s.compression },
		{ "force", s.suspensionForce },
		{ "spin", s.angularVelocity },
		{ "angle", s.angle },
		{ "steer", s.steerAngle },
		{ "longitudinal_force", s.longitudinalForce },
		{ "lateral_force", s.lateralForce },
	};
	for ( size_t i = 0; i < sizeof( numbers ) / sizeof( numbers[0] ); ++i )
	{
		lua_pushnumber( L, numbers[i].value );
		lua_setfield( L, -2, numbers[i].name );
	}
	return 1;
}

// car:wheel_pose(i) -> x, y, z, qw, qx, qy, qz
static int tbVehicle_WheelPoseMethod( lua_State* L )
{
	tbLuaVehicle* v = tbCheckVehicle( L, "wheel_pose", false );
	int wheel = tbCheckWheel( L, v, 2, "wheel_pose" );
	tbTransform xf = tbVehicle_GetWheelTransform( v->id, wheel );
	tbLua_PushVec3( L, xf.p );
	tbLua_PushQuat( L, xf.q );
	return 7;
}

// car:set_wheel(i, { stiffness = ..., ... }): the fields of a wheel table, over its settings.
static int tbVehicle_SetWheelMethod( lua_State* L )
{
	tbLuaVehicle* v = tbCheckVehicle( L, "set_wheel", true );
	int wheel = tbCheckWheel( L, v, 2, "set_wheel" );
	tbWheelDef wd = tbVehicle_GetWheelDef( v->id, wheel );
	tbLuaDef def;
	tbDef_Begin( &def, L, 3, "set_wheel", "" );
	tbReadWheel( &def, &wd );
	tbDef_Finish( &def );
	tbResult result = tbVehicle_SetWheelDef( v->id, wheel, &wd );
	if ( result != tbResult_ok )
	{
		return luaL_error( L, "set_wheel: %s", tbResultString( result ) );
	}
	return 0;
}

// car:wheel_settings(i) -> the wheel's fields, as world:vehicle{...} takes them.
static int tbVehicle_WheelSettingsMethod( lua_State* L )
{
	tbLuaVehicle* v = tbCheckVehicle( L, "wheel_settings", false );
	int wheel = tbCheckWheel( L, v, 2, "wheel_settings" );
	tbWheelDef d = tbVehicle_GetWheelDef( v->id, wheel );
	lua_createtable( L, 0, 16 );
	tbLua_PushVec3Table( L, d.position );
	lua_setfield( L, -2, "pos" );
	tbLua_PushVec3Table( L, d.direction );
	lua_setfield( L, -2, "direction" );
	const struct
	{
		const char* name;
		float value;
	} numbers[] = {
		{ "radius", d.radius },
		{ "width", d.width },
		{ "min_length", d.minLength },
		{ "max_length", d.maxLength },
		{ "rest_length", d.restLength },
		{ "stiffness", d.stiffness },
		{ "damping", d.damping },
		{ "friction", d.friction },
		{ "lateral_friction", d.lateralFriction },
		{ "inertia", d.inertia },
		{ "steer", d.maxSteerAngle },
		{ "brake_torque", d.maxBrakeTorque },
		{ "handbrake_torque", d.maxHandbrakeTorque },
	};
	for ( size_t i = 0; i < sizeof( numbers ) / sizeof( numbers[0] ); ++i )
	{
		lua_pushnumber( L, numbers[i].value );
		lua_setfield( L, -2, numbers[i].name );
	}
	lua_pushboolean( L, d.driven );
	lua_setfield( L, -2, "driven" );
	return 1;
}

static int tbVehicle_SpeedMethod( lua_State* L )
{
	lua_pushnumber( L, tbVehicle_GetForwardSpeed( tbCheckVehicle( L, "speed", false )->id ) );
	return 1;
}

static int tbVehicle_DestroyMethod( lua_State* L )
{
	tbLuaVehicle* v = tbCheckVehicle( L, "destroy", true );
	tbDestroyVehicle( v->id );
	return 0;
}

static int tbVehicle_IsValidMethod( lua_State* L )
{
	tbLuaVehicle* v = luaL_testudata( L, 1, TB_LUA_VEHICLE );
	lua_pushboolean( L, v != NULL && v->world->destroyed == false && tbWorld_IsValid( v->world->id ) &&
							tbVehicle_IsValid( v->id ) );
	return 1;
}

static int tbVehicle_ToString( lua_State* L )
{
	tbLuaVehicle* v = luaL_checkudata( L, 1, TB_LUA_VEHICLE );
	bool valid = v->world->destroyed == false && tbWorld_IsValid( v->world->id ) && tbVehicle_IsValid( v->id );
	if ( valid )
	{
		lua_pushfstring( L, "Vehicle (%d wheels)", tbVehicle_GetWheelCount( v->id ) );
	}
	else
	{
		lua_pushliteral( L, "Vehicle (destroyed)" );
	}
	return 1;
}

// Properties -------------------------------------------------------------------------------------

static int tbVehicle_GetChassisProp( lua_State* L )
{
	tbLuaVehicle* v = tbCheckVehicle( L, "chassis", false );
	lua_getiuservalue( L, 1, 1 );
	tbBodyId chassis = tbVehicle_GetChassis( v->id );
	if ( tbBody_IsValid( chassis ) )
	{
		tbLua_PushBody( L, -1, chassis );
	}
	else
	{
		lua_pushnil( L );
	}
	return 1;
}

static int tbVehicle_GetWheelCountProp( lua_State* L )
{
	lua_pushinteger( L, tbVehicle_GetWheelCount( tbCheckVehicle( L, "wheel_count", false )->id ) );
	return 1;
}

// The four inputs, each with its range: throttle and steer [-1, 1], brake and handbrake [0, 1].
static const char* const tb_inputNames[] = { "throttle", "steer", "brake", "handbrake" };

static int tbGetInput( lua_State* L, int which )
{
	tbLuaVehicle* v = tbCheckVehicle( L, tb_inputNames[which], false );
	float values[4];
	tbVehicle_GetInput( v->id, values, values + 1, values + 2, values + 3 );
	lua_pushnumber( L, values[which] );
	return 1;
}

static int tbSetInput( lua_State* L, int which )
{
	tbLuaVehicle* v = tbCheckVehicle( L, tb_inputNames[which], true );
	char what[32];
	snprintf( what, sizeof( what ), "Vehicle.%s", tb_inputNames[which] );
	float value = tbLua_CheckNumber( L, 3, what, "value", tbCheck_finite );
	float lo = which < 2 ? -1.0f : 0.0f;
	if ( value < lo || value > 1.0f )
	{
		// lua_pushfstring knows no %g: the message is formatted here.
		char text[128];
		snprintf( text, sizeof( text ), "%s: value must be a number in [%g, 1], got %g", what, (double)lo, (double)value );
		return luaL_error( L, "%s", text );
	}
	float values[4];
	tbVehicle_GetInput( v->id, values, values + 1, values + 2, values + 3 );
	values[which] = value;
	tbResult result = tbVehicle_SetInput( v->id, values[0], values[1], values[2], values[3] );
	if ( result != tbResult_ok )
	{
		return luaL_error( L, "%s: %s", what, tbResultString( result ) );
	}
	return 0;
}

static int tbGetThrottle( lua_State* L ) { return tbGetInput( L, 0 ); }
static int tbSetThrottle( lua_State* L ) { return tbSetInput( L, 0 ); }
static int tbGetSteer( lua_State* L ) { return tbGetInput( L, 1 ); }
static int tbSetSteer( lua_State* L ) { return tbSetInput( L, 1 ); }
static int tbGetBrake( lua_State* L ) { return tbGetInput( L, 2 ); }
static int tbSetBrake( lua_State* L ) { return tbSetInput( L, 2 ); }
static int tbGetHandbrake( lua_State* L ) { return tbGetInput( L, 3 ); }
static int tbSetHandbrake( lua_State* L ) { return tbSetInput( L, 3 ); }

void tbLua_OpenVehicle( lua_State* L )
{
	static const luaL_Reg methods[] = {
		{ "wheel", tbVehicle_WheelMethod },
		{ "wheel_pose", tbVehicle_WheelPoseMethod },
		{ "wheel_settings", tbVehicle_WheelSettingsMethod },
		{ "set_wheel", tbVehicle_SetWheelMethod },
		{ "speed", tbVehicle_SpeedMethod },
		{ "destroy", tbVehicle_DestroyMethod },
		{ "is_valid", tbVehicle_IsValidMethod },
		{ NULL, NULL },
	};
	static const tbLuaProperty properties[] = {
		{ "chassis", tbVehicle_GetChassisProp, NULL },
		{ "wheel_count", tbVehicle_GetWheelCountProp, NULL },
		{ "throttle", tbGetThrottle, tbSetThrottle },
		{ "steer", tbGetSteer, tbSetSteer },
		{ "brake", tbGetBrake, tbSetBrake },
		{ "handbrake", tbGetHandbrake, tbSetHandbrake },
		{ NULL, NULL, NULL },
	};
	static const tbLuaType type = { "Vehicle", methods, properties, NULL, tbVehicle_ToString, NULL };
	tbLua_RegisterType( L, &type );
}
