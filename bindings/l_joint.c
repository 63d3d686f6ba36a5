// Tumble Lua bindings: the Joint type, the world constructors for every joint kind
// (world:distance{...}, world:hinge{...}, ...) and custom constraints whose rows come from Lua.
// SPDX-License-Identifier: MIT
#include "l_common.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

// Longest joint name the core keeps (tbJointDef.name is copied up to 31 characters).
#define TB_LUA_MAX_NAME 31
#define TB_LUA_PI 3.14159265358979f

static const char* const tb_sixDofAxisNames[] = { "x", "y", "z", "rx", "ry", "rz", NULL };

// Handles ----------------------------------------------------------------------------------------

static bool tbJointIsLive( const tbLuaJoint* joint )
{
	return joint->world->destroyed == false && tbWorld_IsValid( joint->world->id ) && tbJoint_IsValid( joint->id );
}

void tbLua_PushJoint( lua_State* L, int worldIndex, tbJointId jointId )
{
	worldIndex = lua_absindex( L, worldIndex );
	tbLuaWorld* world = tbLua_TestUdata( L, worldIndex, TB_LUA_WORLD );
	if ( world == NULL || world->destroyed || tbJoint_IsValid( jointId ) == false ||
		 tbJoint_GetWorld( jointId ).index1 != world->id.index1 ||
		 tbJoint_GetWorld( jointId ).generation != world->id.generation )
	{
		lua_pushnil( L );
		return;
	}

	// One userdata per joint: handles compare equal and can be table keys.
	lua_getiuservalue( L, worldIndex, TB_LUA_WORLD_JOINTS );
	if ( lua_rawgeti( L, -1, jointId.index1 ) == LUA_TUSERDATA )
	{
		tbLuaJoint* cached = lua_touserdata( L, -1 );
		if ( TB_ID_EQUALS( cached->id, jointId ) )
		{
			lua_remove( L, -2 );
			return;
		}
	}
	lua_pop( L, 1 );

	tbLuaJoint* joint = lua_newuserdatauv( L, sizeof( tbLuaJoint ), 2 );
	joint->id = jointId;
	joint->world = world;
	joint->type = tbJoint_GetType( jointId );
	lua_pushvalue( L, worldIndex );
	lua_setiuservalue( L, -2, 1 );
	luaL_setmetatable( L, TB_LUA_JOINT );
	lua_pushvalue( L, -1 );
	lua_rawseti( L, -3, jointId.index1 );
	lua_remove( L, -2 );
}

bool tbLua_ToJoint( lua_State* L, int index, tbJointId* jointId )
{
	tbLuaJoint* joint = tbLua_TestUdata( L, index, TB_LUA_JOINT );
	if ( joint == NULL )
	{
		return false;
	}
	*jointId = joint->id;
	return true;
}

tbLuaJoint* tbLua_CheckJoint( lua_State* L, int index, const char* fn )
{
	tbLuaJoint* joint = tbLua_TestUdata( L, index, TB_LUA_JOINT );
	if ( joint == NULL )
	{
		char got[96];
		luaL_error( L, "%s: expected a Joint (call it as joint:%s(...)), got %s", fn, fn,
					tbLua_Describe( L, index, got, sizeof( got ) ) );
	}
	if ( tbJointIsLive( joint ) == false )
	{
		luaL_error( L, "attempt to use a destroyed Joint" );
	}
	return joint;
}

static tbLuaJoint* tbCheckMutableJoint( lua_State* L, const char* fn )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, fn );
	tbLua_CheckUnlocked( L, joint->world, fn );
	return joint;
}

static void tbJointCheckResult( lua_State* L, tbResult result, const char* fn )
{
	if ( result != tbResult_ok )
	{
		luaL_error( L, "%s: %s", fn, tbResultString( result ) );
	}
}

// Pushes the joint's body (nil for the static world). The World userdata is the joint's user value 1.
static void tbPushJointBody( lua_State* L, int jointIndex, tbBodyId bodyId )
{
	lua_getiuservalue( L, jointIndex, 1 );
	tbLua_PushBody( L, -1, bodyId );
	lua_remove( L, -2 );
}

void tbLua_PushJointBreakEvent( lua_State* L, int worldIndex, const tbJointBreakEvent* event )
{
	worldIndex = lua_absindex( L, worldIndex );
	lua_createtable( L, 0, 5 );
	tbLua_PushJoint( L, worldIndex, event->jointId );
	lua_setfield( L, -2, "joint" );
	const char* name = tbJoint_GetName( event->jointId );
	if ( name != NULL && name[0] != '\0' )
	{
		lua_pushstring( L, name );
		lua_setfield( L, -2, "name" );
	}
	const char* type = tbJointTypeName( tbJoint_GetType( event->jointId ) );
	if ( type != NULL )
	{
		lua_pushstring( L, type );
		lua_setfield( L, -2, "type" );
	}
	lua_pushnumber( L, event->force );
	lua_setfield( L, -2, "force" );
	lua_pushnumber( L, event->torque );
	lua_setfield( L, -2, "torque" );
}

// Value checks shared by constructors and properties -----------------------------------------------

// A force or torque cap: a number >= 0, or math.huge for "no cap" (stored as FLT_MAX).
static bool tbReadCap( lua_State* L, int index, float* value )
{
	if ( lua_type( L, index ) != LUA_TNUMBER )
	{
		return false;
	}
	double x = lua_tonumber( L, index );
	if ( isnan( x ) || x < 0.0 )
	{
		return false;
	}
	*value = x >= (double)FLT_MAX ? FLT_MAX : (float)x;
	return true;
}

static void tbPushCap( lua_State* L, float value )
{
	lua_pushnumber( L, value >= FLT_MAX ? (lua_Number)HUGE_VAL : (lua_Number)value );
}

static const char* const tb_capText = "a number >= 0 (math.huge: no limit)";

static bool tbDefCap( tbLuaDef* def, const char* key, float* value )
{
	if ( tbDef_Value( def, key ) == false )
	{
		return false;
	}
	bool ok = tbReadCap( def->L, -1, value );
	lua_pop( def->L, 1 );
	if ( ok == false )
	{
		tbDef_FieldError( def, key, tb_capText );
	}
	return true;
}

// {lower, upper} with lower <= upper, each within [-bound, bound].
static bool tbReadRange( lua_State* L, int index, float bound, float* lo, float* hi )
{
	float v[2];
	if ( tbLua_ReadFloats( L, index, v, 2, tbCheck_finite ) == false || v[0] > v[1] || v[0] < -bound || v[1] > bound )
	{
		return false;
	}
	*lo = v[0];
	*hi = v[1];
	return true;
}

static const char* tbRangeText( bool angles )
{
	return angles ? "{lower, upper} in [-pi, pi] with lower <= upper" : "{lower, upper} with lower <= upper";
}

static bool tbDefRange( tbLuaDef* def, const char* key, bool angles, float* lo, float* hi )
{
	if ( tbDef_Value( def, key ) == false )
	{
		return false;
	}
	bool ok = tbReadRange( def->L, -1, angles ? TB_LUA_PI : FLT_MAX, lo, hi );
	lua_pop( def->L, 1 );
	if ( ok == false )
	{
		tbDef_FieldError( def, key, tbRangeText( angles ) );
	}
	return true;
}

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

// Reading the common joint fields --------------------------------------------------------------------

// Which frame fields a constructor accepts.
enum
{
	tbFrame_anchor = 1, ///< anchor = {x, y, z}, world; default: b's origin (a's when b is nil)
	tbFrame_axis = 2,	///< axis = {x, y, z} and ref = {x, y, z}, world; default axis +x
};

static tbBodyId tbDefJointBody( tbLuaDef* def, tbLuaWorld* world, const char* key, const char* expected )
{
	lua_State* L = def->L;
	if ( tbDef_Value( def, key ) == false )
	{
		return tb_nullBodyId;
	}
	tbLuaBody* body = tbLua_TestUdata( L, -1, TB_LUA_BODY );
	if ( body == NULL )
	{
		tbDef_FieldError( def, key, expected );
	}
	if ( body->world->destroyed || tbBody_IsValid( body->id ) == false )
	{
		luaL_error( L, "attempt to use a destroyed Body" );
	}
	tbWorldId owner = tbBody_GetWorld( body->id );
	if ( owner.index1 != world->id.index1 || owner.generation != world->id.generation )
	{
		luaL_error( L, "%s: %s is a Body of another World", def->fn, key );
	}
	tbBodyId id = body->id;
	lua_pop( L, 1 );
	return id;
}

// Rotation whose x axis is `axis` and whose y axis is `ref` projected perpendicular to it (both
// unit length after the caller's checks): the swing taking +x onto the axis, then the turn about
// the axis taking the swung +y onto the reference.
static tbQuat tbFrameRotation( tbVec3 axis, tbVec3 ref )
{
	tbQuat swing = tbQuatFromTo( tbMakeVec3( 1.0f, 0.0f, 0.0f ), axis );
	tbVec3 y = tbRotate( swing, tbMakeVec3( 0.0f, 1.0f, 0.0f ) );
	float angle = atan2f( tbDot( tbCross( y, ref ), axis ), tbDot( y, ref ) );
	return tbNormalizeQ( tbMulQQ( tbMakeQuatAxisAngle( axis, angle ), swing ) );
}

// Reads a, b, name, collide, break_force, break_torque and, per flags, the frame fields; fills the
// base def (bodies and frames). *enabled receives the `enabled` field (default true).
static void tbReadJointBase( tbLuaDef* def, tbLuaWorld* world, tbJointDef* base, unsigned flags, bool* enabled )
{
	lua_State* L = def->L;
	base->bodyA = tbDefJointBody( def, world, "a", "a Body or nil (the static world)" );
	base->bodyB = tbDefJointBody( def, world, "b", "a Body or nil (the static world)" );
	if ( TB_IS_NULL( base->bodyA ) && TB_IS_NULL( base->bodyB ) )
	{
		luaL_error( L, "%s: a and b cannot both be nil (the static world): give at least one Body", def->fn );
	}
	if ( TB_ID_EQUALS( base->bodyA, base->bodyB ) )
	{
		luaL_error( L, "%s: a and b must be two different Bodies", def->fn );
	}
	tbDef_String( def, "name", &base->name, TB_LUA_MAX_NAME );
	tbDef_Bool( def, "collide", &base->collideConnected );
	tbDefCap( def, "break_force", &base->breakForce );
	tbDefCap( def, "break_torque", &base->breakTorque );
	*enabled = true;
	tbDef_Bool( def, "enabled", enabled );

	tbVec3 anchor =
		TB_IS_NON_NULL( base->bodyB ) ? tbBody_GetPosition( base->bodyB ) : tbBody_GetPosition( base->bodyA );
	tbVec3 axis = tbMakeVec3( 1.0f, 0.0f, 0.0f );
	tbVec3 ref = tb_vec3_zero;
	bool hasRef = false;
	// Without the axis fields (ball, fixed) the frames are aligned with the world axes.
	if ( flags & tbFrame_anchor )
	{
		tbDef_Vec3( def, "anchor", &anchor, tbCheck_finite );
	}
	if ( flags & tbFrame_axis )
	{
		if ( tbDef_Vec3( def, "axis", &axis, tbCheck_nonZero ) )
		{
			axis = tbNormalize( axis );
		}
		hasRef = tbDef_Vec3( def, "ref", &ref, tbCheck_nonZero );
		if ( hasRef )
		{
			// Only the part perpendicular to the axis counts; it must not vanish (1e-3 rad of slack).
			float refLength = tbLength( ref );
			ref = tbSub( ref, tbMulSV( tbDot( ref, axis ), axis ) );
			if ( tbLength( ref ) < 1.0e-3f * refLength )
			{
				tbDef_FieldError( def, "ref", "a direction not parallel to axis" );
			}
			ref = tbNormalize( ref );
		}
	}
	if ( hasRef == false )
	{
		// A predictable reference: world y made perpendicular to the axis (world z when the axis
		// is along y), so the default axis +x gives frames aligned with the world axes.
		tbVec3 up = fabsf( axis.y ) < 0.99f ? tbMakeVec3( 0.0f, 1.0f, 0.0f ) : tbMakeVec3( 0.0f, 0.0f, 1.0f );
		ref = tbNormalize( tbSub( up, tbMulSV( tbDot( up, axis ), axis ) ) );
	}
	tbResult result = tbJointFramesFromWorldFrame( base->bodyA, base->bodyB,
												   tbMakeTransform( anchor, tbFrameRotation( axis, ref ) ), base );
	if ( result != tbResult_ok )
	{
		luaL_error( L, "%s: could not place the joint frames: %s", def->fn, tbResultString( result ) );
	}
}

// Reads a nested table field `key` as its own def (prefix "key."). Returns false when absent;
// otherwise the nested table stays on the stack until tbEndNested.
static bool tbBeginNested( tbLuaDef* def, const char* key, char* prefix, size_t prefixSize, tbLuaDef* nested )
{
	if ( tbDef_Table( def, key ) == false )
	{
		return false;
	}
	snprintf( prefix, prefixSize, "%s%s.", def->prefix, key );
	tbDef_Begin( nested, def->L, -1, def->fn, prefix );
	return true;
}

static void tbEndNested( tbLuaDef* nested )
{
	tbDef_Finish( nested );
	lua_pop( nested->L, 1 );
}

// Creation ---------------------------------------------------------------------------------------

// Pushes the new joint's handle (the World is at index 1), or raises with the core's reason.
static tbLuaJoint* tbFinishJoint( lua_State* L, const char* fn, tbJointId id, tbResult result, bool enabled )
{
	if ( TB_IS_NULL( id ) )
	{
		luaL_error( L, "%s: could not create the joint: %s", fn,
					tbResultString( result != tbResult_ok ? result : tbResult_invalidArgument ) );
	}
	if ( enabled == false )
	{
		tbJoint_SetEnabled( id, false );
	}
	tbLua_PushJoint( L, 1, id );
	return lua_touserdata( L, -1 );
}

// Every constructor starts the same way: the World, the lock, the table of fields.
static tbLuaWorld* tbBeginJoint( lua_State* L, const char* fn, tbLuaDef* def )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, fn );
	tbLua_CheckUnlocked( L, world, fn );
	tbLua_Guard( L, tbLuaGuard_create, fn );
	tbDef_Begin( def, L, 2, fn, "" );
	return world;
}

// world:distance{ a, b, anchor_a, anchor_b, length, min, max, spring = { hz, damping } }
int tbLuaWorld_Distance( lua_State* L )
{
	const char* fn = "distance";
	tbLuaDef def;
	tbLuaWorld* world = tbBeginJoint( L, fn, &def );
	tbDistanceJointDef jd = tbDefaultDistanceJointDef();
	bool enabled;
	tbReadJointBase( &def, world, &jd.base, 0, &enabled );

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
	if ( tbBeginNested( &def, "spring", prefix, sizeof( prefix ), &spring ) )
	{
		jd.enableSpring = true;
		tbDef_Number( &spring, "hz", &jd.hertz, tbCheck_nonNegative );
		tbDef_Number( &spring, "damping", &jd.dampingRatio, tbCheck_nonNegative );
		tbEndNested( &spring );
	}
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateDistanceJoint( world->id, &jd, &result );
	tbFinishJoint( L, fn, id, result, enabled );
	return 1;
}

// world:ball{ a, b, anchor }
int tbLuaWorld_Ball( lua_State* L )
{
	const char* fn = "ball";
	tbLuaDef def;
	tbLuaWorld* world = tbBeginJoint( L, fn, &def );
	tbBallJointDef jd = tbDefaultBallJointDef();
	bool enabled;
	tbReadJointBase( &def, world, &jd.base, tbFrame_anchor, &enabled );
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateBallJoint( world->id, &jd, &result );
	tbFinishJoint( L, fn, id, result, enabled );
	return 1;
}

// world:hinge{ a, b, anchor, axis, ref, limits, motor = { speed, max_torque },
//              servo = { angle, max_torque, gain, max_speed } }
int tbLuaWorld_Hinge( lua_State* L )
{
	const char* fn = "hinge";
	tbLuaDef def;
	tbLuaWorld* world = tbBeginJoint( L, fn, &def );
	tbHingeJointDef jd = tbDefaultHingeJointDef();
	bool enabled;
	tbReadJointBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	jd.enableLimit = tbDefRange( &def, "limits", true, &jd.lowerAngle, &jd.upperAngle );

	tbLuaDef nested;
	char prefix[32];
	if ( tbBeginNested( &def, "motor", prefix, sizeof( prefix ), &nested ) )
	{
		jd.enableMotor = true;
		jd.maxMotorTorque = FLT_MAX;
		tbDef_Number( &nested, "speed", &jd.motorSpeed, tbCheck_finite );
		tbDefCap( &nested, "max_torque", &jd.maxMotorTorque );
		tbEndNested( &nested );
	}
	if ( tbBeginNested( &def, "servo", prefix, sizeof( prefix ), &nested ) )
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
		tbDefCap( &nested, "max_torque", &jd.maxServoTorque );
		tbDef_Number( &nested, "gain", &jd.servoGain, tbCheck_positive );
		tbDef_Number( &nested, "max_speed", &jd.maxServoSpeed, tbCheck_positive );
		tbEndNested( &nested );
	}
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateHingeJoint( world->id, &jd, &result );
	tbFinishJoint( L, fn, id, result, enabled );
	return 1;
}

// A twist limit: {lower, upper} in [-pi, pi], or false for a free twist.
static bool tbDefTwist( tbLuaDef* def, bool* enable, float* lo, float* hi )
{
	if ( tbDef_Value( def, "twist" ) == false )
	{
		return false;
	}
	bool isFalse = lua_type( def->L, -1 ) == LUA_TBOOLEAN && lua_toboolean( def->L, -1 ) == 0;
	bool ok = isFalse || tbReadRange( def->L, -1, TB_LUA_PI, lo, hi );
	lua_pop( def->L, 1 );
	if ( ok == false )
	{
		tbDef_FieldError( def, "twist", "{lower, upper} in [-pi, pi] with lower <= upper, or false (free twist)" );
	}
	*enable = isFalse == false;
	return true;
}

// world:cone{ a, b, anchor, axis, ref, axis_b, swing, pyramid = {y, z}, twist = {lo, hi} | false }
int tbLuaWorld_Cone( lua_State* L )
{
	const char* fn = "cone";
	tbLuaDef def;
	tbLuaWorld* world = tbBeginJoint( L, fn, &def );
	tbConeJointDef jd = tbDefaultConeJointDef();
	bool enabled;
	tbReadJointBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
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
	tbFinishJoint( L, fn, id, result, enabled );
	return 1;
}

// world:fixed{ a, b, anchor }
int tbLuaWorld_Fixed( lua_State* L )
{
	const char* fn = "fixed";
	tbLuaDef def;
	tbLuaWorld* world = tbBeginJoint( L, fn, &def );
	tbFixedJointDef jd = tbDefaultFixedJointDef();
	bool enabled;
	tbReadJointBase( &def, world, &jd.base, tbFrame_anchor, &enabled );
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateFixedJoint( world->id, &jd, &result );
	tbFinishJoint( L, fn, id, result, enabled );
	return 1;
}

// world:slider{ a, b, anchor, axis, ref, limits, motor = { speed, max_force } }
int tbLuaWorld_Slider( lua_State* L )
{
	const char* fn = "slider";
	tbLuaDef def;
	tbLuaWorld* world = tbBeginJoint( L, fn, &def );
	tbSliderJointDef jd = tbDefaultSliderJointDef();
	bool enabled;
	tbReadJointBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	jd.enableLimit = tbDefRange( &def, "limits", false, &jd.lowerTranslation, &jd.upperTranslation );
	tbLuaDef nested;
	char prefix[32];
	if ( tbBeginNested( &def, "motor", prefix, sizeof( prefix ), &nested ) )
	{
		jd.enableMotor = true;
		jd.maxMotorForce = FLT_MAX;
		tbDef_Number( &nested, "speed", &jd.motorSpeed, tbCheck_finite );
		tbDefCap( &nested, "max_force", &jd.maxMotorForce );
		tbEndNested( &nested );
	}
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateSliderJoint( world->id, &jd, &result );
	tbFinishJoint( L, fn, id, result, enabled );
	return 1;
}

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
	if ( tbReadRange( L, index, axis >= tbSixDof_rx ? TB_LUA_PI : FLT_MAX, lo, hi ) )
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
int tbLuaWorld_SixDof( lua_State* L )
{
	const char* fn = "six_dof";
	tbLuaDef def;
	tbLuaWorld* world = tbBeginJoint( L, fn, &def );
	tbSixDofJointDef jd = tbDefaultSixDofJointDef();
	bool enabled;
	tbReadJointBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	tbLuaDef nested;
	char prefix[32];
	if ( tbBeginNested( &def, "axes", prefix, sizeof( prefix ), &nested ) )
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
		tbEndNested( &nested );
	}
	if ( tbBeginNested( &def, "motors", prefix, sizeof( prefix ), &nested ) )
	{
		for ( int i = 0; i < tbSixDof_axisCount; ++i )
		{
			tbLuaDef motor;
			char motorPrefix[32];
			if ( tbBeginNested( &nested, tb_sixDofAxisNames[i], motorPrefix, sizeof( motorPrefix ), &motor ) )
			{
				jd.enableMotor[i] = true;
				jd.maxMotorForce[i] = FLT_MAX;
				tbDef_Number( &motor, "speed", jd.motorSpeed + i, tbCheck_finite );
				tbDefCap( &motor, "max_force", jd.maxMotorForce + i );
				tbEndNested( &motor );
			}
		}
		tbEndNested( &nested );
	}
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateSixDofJoint( world->id, &jd, &result );
	tbFinishJoint( L, fn, id, result, enabled );
	return 1;
}

// world:motor{ a, b, anchor, axis, ref, speed, max_torque }
int tbLuaWorld_Motor( lua_State* L )
{
	const char* fn = "motor";
	tbLuaDef def;
	tbLuaWorld* world = tbBeginJoint( L, fn, &def );
	tbMotorJointDef jd = tbDefaultMotorJointDef();
	bool enabled;
	tbReadJointBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	tbDef_Number( &def, "speed", &jd.motorSpeed, tbCheck_finite );
	tbDefCap( &def, "max_torque", &jd.maxMotorTorque );
	tbDef_Finish( &def );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateMotorJoint( world->id, &jd, &result );
	tbFinishJoint( L, fn, id, result, enabled );
	return 1;
}

// world:mouse{ body, anchor, target, hz, damping, max_force }: drags body's anchor (a world point,
// default its origin) towards target (default the anchor).
int tbLuaWorld_Mouse( lua_State* L )
{
	const char* fn = "mouse";
	tbLuaDef def;
	tbLuaWorld* world = tbBeginJoint( L, fn, &def );
	tbMouseJointDef jd = tbDefaultMouseJointDef();
	jd.base.bodyB = tbDefJointBody( &def, world, "body", "a Body" );
	if ( TB_IS_NULL( jd.base.bodyB ) )
	{
		return luaL_error( L, "%s: body must be a Body, got nil", fn );
	}
	tbDef_String( &def, "name", &jd.base.name, TB_LUA_MAX_NAME );
	tbDefCap( &def, "break_force", &jd.base.breakForce );
	bool enabled = true;
	tbDef_Bool( &def, "enabled", &enabled );
	tbVec3 anchor = tbBody_GetPosition( jd.base.bodyB );
	tbDef_Vec3( &def, "anchor", &anchor, tbCheck_finite );
	jd.target = anchor;
	tbDef_Vec3( &def, "target", &jd.target, tbCheck_finite );
	tbDef_Number( &def, "hz", &jd.hertz, tbCheck_positive );
	tbDef_Number( &def, "damping", &jd.dampingRatio, tbCheck_nonNegative );
	tbDefCap( &def, "max_force", &jd.maxForce );
	tbDef_Finish( &def );
	jd.base.bodyA = tb_nullBodyId;
	jd.base.localFrameA = tbMakeTransform( jd.target, tb_quatIdentity );
	jd.base.localFrameB =
		tbMakeTransform( tbInvTransformPoint( tbBody_GetTransform( jd.base.bodyB ), anchor ), tb_quatIdentity );
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateMouseJoint( world->id, &jd, &result );
	tbFinishJoint( L, fn, id, result, enabled );
	return 1;
}

// Custom constraints ---------------------------------------------------------------------------------
// The core calls tbLuaRows once per step (or sub-step) while the world is locked, from inside
// tbWorld_Step, which world:step called on the thread recorded in world->stepL. Everything that
// touches Lua runs in tbCallRows under lua_pcall, so neither a script error nor a memory error can
// longjmp through the solver; the first error stays on that thread's stack (world->stepError) and
// world:step raises it once the step is over.

typedef struct tbRowsCall
{
	tbJointId jointId;
	const tbCustomRowsInput* input;
	tbCustomRow* rows;
	int count;
} tbRowsCall;

static int tbNoRows( tbJointId jointId, const tbCustomRowsInput* input, tbCustomRow rows[TB_MAX_CUSTOM_ROWS],
					 void* context )
{
	(void)jointId;
	(void)input;
	(void)rows;
	(void)context;
	return 0;
}

static void tbSetVec3Field( lua_State* L, const char* key, tbVec3 v )
{
	tbLua_PushVec3Table( L, v );
	lua_setfield( L, -2, key );
}

// The table c handed to rows(c, dt): world-frame geometry and velocities at the step start.
static void tbPushRowsContext( lua_State* L, int worldIndex, int jointIndex, const tbCustomRowsInput* in )
{
	tbLuaJoint* joint = lua_touserdata( L, jointIndex );
	lua_createtable( L, 0, 20 );
	lua_pushvalue( L, jointIndex );
	lua_setfield( L, -2, "joint" );
	tbLua_PushBody( L, worldIndex, tbJoint_GetBodyA( joint->id ) );
	lua_setfield( L, -2, "a" );
	tbLua_PushBody( L, worldIndex, tbJoint_GetBodyB( joint->id ) );
	lua_setfield( L, -2, "b" );
	tbSetVec3Field( L, "anchor_a", in->frameA.p );
	tbSetVec3Field( L, "anchor_b", in->frameB.p );
	tbSetVec3Field( L, "axis_a", tbRotate( in->frameA.q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) ) );
	tbSetVec3Field( L, "axis_b", tbRotate( in->frameB.q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) ) );
	tbLua_PushQuatTable( L, in->frameA.q );
	lua_setfield( L, -2, "rot_a" );
	tbLua_PushQuatTable( L, in->frameB.q );
	lua_setfield( L, -2, "rot_b" );
	tbSetVec3Field( L, "center_a", in->centerA );
	tbSetVec3Field( L, "center_b", in->centerB );
	tbSetVec3Field( L, "vel_a", in->linearVelocityA );
	tbSetVec3Field( L, "vel_b", in->linearVelocityB );
	tbSetVec3Field( L, "angvel_a", in->angularVelocityA );
	tbSetVec3Field( L, "angvel_b", in->angularVelocityB );
	lua_pushnumber( L, in->timeStep );
	lua_setfield( L, -2, "dt" );
	lua_pushnumber( L, in->subStep );
	lua_setfield( L, -2, "sub_dt" );
	lua_pushinteger( L, in->subStepIndex );
	lua_setfield( L, -2, "sub_step" );
}

// An impulse bound: any number but NaN; +-inf (math.huge) means unbounded.
static void tbDefBound( tbLuaDef* def, const char* key, float* value )
{
	if ( tbDef_Value( def, key ) == false )
	{
		return;
	}
	bool ok = lua_type( def->L, -1 ) == LUA_TNUMBER && isnan( lua_tonumber( def->L, -1 ) ) == 0;
	double x = lua_tonumber( def->L, -1 );
	lua_pop( def->L, 1 );
	if ( ok == false )
	{
		tbDef_FieldError( def, key, "a number (N s; -math.huge or math.huge: unbounded)" );
	}
	*value = x >= (double)FLT_MAX ? FLT_MAX : ( x <= -(double)FLT_MAX ? -FLT_MAX : (float)x );
}

// Protected: (World, tbRowsCall*). Calls the joint's rows function and converts what it returns.
static int tbCallRows( lua_State* L )
{
	tbRowsCall* call = lua_touserdata( L, 2 );
	lua_getiuservalue( L, 1, TB_LUA_WORLD_JOINTS );
	lua_rawgeti( L, -1, call->jointId.index1 );
	tbLuaJoint* joint = tbLua_TestUdata( L, -1, TB_LUA_JOINT );
	if ( joint == NULL || TB_ID_EQUALS( joint->id, call->jointId ) == false )
	{
		return 0;
	}
	int jointIndex = lua_gettop( L );
	if ( lua_getiuservalue( L, jointIndex, 2 ) != LUA_TFUNCTION )
	{
		return 0;
	}
	int fnIndex = lua_gettop( L );

	// Messages about what the function returned point at the function's definition.
	lua_Debug ar;
	lua_pushvalue( L, fnIndex );
	lua_getinfo( L, ">S", &ar );
	char where[160];
	snprintf( where, sizeof( where ), "%s:%d: constraint rows", ar.short_src, ar.linedefined );

	lua_pushvalue( L, fnIndex );
	tbPushRowsContext( L, 1, jointIndex, call->input );
	lua_pushnumber( L, call->input->timeStep );
	lua_call( L, 2, 1 );
	int list = lua_gettop( L );
	if ( lua_isnil( L, list ) )
	{
		return 0;
	}
	int count = lua_type( L, list ) == LUA_TTABLE ? (int)lua_rawlen( L, list ) : -1;
	if ( count < 0 || count > TB_MAX_CUSTOM_ROWS )
	{
		char got[96];
		return luaL_error( L, "%s: must return a list of at most %d rows (or nil), got %s", where, TB_MAX_CUSTOM_ROWS,
						   tbLua_Describe( L, list, got, sizeof( got ) ) );
	}
	for ( int i = 0; i < count; ++i )
	{
		char prefix[32];
		snprintf( prefix, sizeof( prefix ), "rows[%d].", i + 1 );
		lua_rawgeti( L, list, i + 1 );
		tbLuaDef def;
		tbDef_Begin( &def, L, -1, where, prefix );
		tbCustomRow* row = call->rows + i;
		memset( row, 0, sizeof( *row ) );
		row->lower = -FLT_MAX;
		row->upper = FLT_MAX;
		if ( tbDef_Floats( &def, "J", row->J, 12, tbCheck_finite ) == false )
		{
			tbDef_FieldError( &def, "J", "12 finite numbers" );
		}
		tbDef_Number( &def, "bias", &row->bias, tbCheck_finite );
		tbDef_Number( &def, "error", &row->positionError, tbCheck_finite );
		tbDefBound( &def, "min", &row->lower );
		tbDefBound( &def, "max", &row->upper );
		if ( row->lower > row->upper )
		{
			return luaL_error( L, "%s: %smin must be <= %smax", where, prefix, prefix );
		}
		tbDef_Finish( &def );
		lua_pop( L, 1 );
	}
	call->count = count;
	return 0;
}

static int tbLuaRows( tbJointId jointId, const tbCustomRowsInput* input, tbCustomRow rows[TB_MAX_CUSTOM_ROWS],
					  void* context )
{
	(void)context;
	// Not the context: a joint restored from a snapshot may have outlived the Joint userdata its
	// callback was installed with. The rows function is looked up by joint id (tbCallRows).
	tbLuaWorld* world = tbLua_GetSteppingWorld();
	tbWorldId jointWorld = tbJoint_GetWorld( jointId );
	// Stepped from C (no Lua step in progress), another world's step, or an earlier row function
	// already failed: no rows.
	if ( world == NULL || world->stepL == NULL || world->stepError != 0 || jointWorld.index1 != world->id.index1 ||
		 jointWorld.generation != world->id.generation )
	{
		return 0;
	}
	lua_State* L = world->stepL;
	// None of these calls allocates or raises; everything else runs inside lua_pcall.
	if ( lua_checkstack( L, 8 ) == 0 )
	{
		return 0;
	}
	tbRowsCall call = { jointId, input, rows, 0 };
	int base = lua_gettop( L );
	lua_pushcfunction( L, tbCallRows );
	lua_pushvalue( L, world->stepWorldIndex );
	lua_pushlightuserdata( L, &call );
	if ( lua_pcall( L, 2, 0, 0 ) != LUA_OK )
	{
		// The error value stays on the stack: world:step raises it after the step.
		world->stepError = base + 1;
		return 0;
	}
	lua_settop( L, base );
	return call.count;
}

// Installs the Lua rows callback, with this Joint userdata marked as the owner in the joint's user
// data (compared, never dereferenced), so a handle of an old lua_State never clears the callback a
// newer one installed.
static void tbInstallRows( tbLuaJoint* joint )
{
	tbCustomJoint_SetCallback( joint->id, tbLuaRows, NULL );
	tbJoint_SetUserData( joint->id, joint );
}

// world:constraint{ a, b, anchor, axis, ref, rows = function(c, dt) ... end, every_substep }
int tbLuaWorld_Constraint( lua_State* L )
{
	const char* fn = "constraint";
	tbLuaDef def;
	tbLuaWorld* world = tbBeginJoint( L, fn, &def );
	tbCustomJointDef jd = tbDefaultCustomJointDef();
	bool enabled;
	tbReadJointBase( &def, world, &jd.base, tbFrame_anchor | tbFrame_axis, &enabled );
	if ( tbDef_Function( &def, "rows" ) == false )
	{
		return luaL_error( L, "%s: rows must be a function(c, dt) returning a list of rows, got nil", fn );
	}
	int rowsFn = lua_gettop( L );
	tbDef_Bool( &def, "every_substep", &jd.everySubStep );
	tbDef_Finish( &def );
	// Created with an inert callback: the real one needs the handle's address as its context.
	jd.rowsFcn = tbNoRows;
	tbResult result = tbResult_ok;
	tbJointId id = tbCreateCustomJoint( world->id, &jd, &result );
	tbLuaJoint* joint = tbFinishJoint( L, fn, id, result, enabled );
	lua_pushvalue( L, rowsFn );
	lua_setiuservalue( L, -2, 2 );
	tbInstallRows( joint );
	return 1;
}

static int tbJoint_Gc( lua_State* L )
{
	tbLuaJoint* joint = luaL_checkudata( L, 1, TB_LUA_JOINT );
	// A custom joint can outlive this lua_State (a world kept by a swap reload): stop calling into it.
	if ( joint->type == tbJoint_custom && tbJoint_IsValid( joint->id ) && tbJoint_GetUserData( joint->id ) == joint &&
		 tbWorld_IsLocked( tbJoint_GetWorld( joint->id ) ) == false )
	{
		tbCustomJoint_SetCallback( joint->id, tbNoRows, NULL );
		tbJoint_SetUserData( joint->id, NULL );
	}
	return 0;
}

// Finding joints ---------------------------------------------------------------------------------

// Pushes a userdata holding the ids of every joint of the world, each once (listed with its body
// A, or with body B when A is the static world), in body creation order; returns the count.
static int tbCollectJoints( lua_State* L, tbWorldId worldId, tbJointId** out )
{
	tbBodyId probe;
	int bodyCount = tbWorld_GetBodies( worldId, &probe, 0 );
	tbBodyId* bodies = lua_newuserdatauv( L, (size_t)( bodyCount > 0 ? bodyCount : 1 ) * sizeof( tbBodyId ), 0 );
	bodyCount = tbWorld_GetBodies( worldId, bodies, bodyCount );
	int total = 0;
	tbJointId jointProbe;
	for ( int i = 0; i < bodyCount; ++i )
	{
		total += tbBody_GetJoints( bodies[i], &jointProbe, 0 );
	}
	tbJointId* joints = lua_newuserdatauv( L, (size_t)( total > 0 ? total : 1 ) * sizeof( tbJointId ), 0 );
	int count = 0;
	for ( int i = 0; i < bodyCount && count < total; ++i )
	{
		tbJointId* mine = joints + count;
		int n = tbBody_GetJoints( bodies[i], mine, total - count );
		for ( int k = 0; k < n; ++k )
		{
			tbBodyId a = tbJoint_GetBodyA( mine[k] );
			bool listedHere = TB_ID_EQUALS( a, bodies[i] ) || ( TB_IS_NULL( a ) || tbBody_IsValid( a ) == false );
			if ( listedHere )
			{
				joints[count++] = mine[k];
			}
		}
	}
	lua_remove( L, -2 );
	*out = joints;
	return count;
}

// world:joint(name) -> Joint or nil
int tbLuaWorld_Joint( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "joint" );
	if ( lua_type( L, 2 ) != LUA_TSTRING )
	{
		char got[64];
		return luaL_error( L, "joint: name must be a string, got %s", tbLua_Describe( L, 2, got, sizeof( got ) ) );
	}
	const char* name = lua_tostring( L, 2 );
	tbJointId* joints;
	int count = tbCollectJoints( L, world->id, &joints );
	for ( int i = 0; i < count; ++i )
	{
		const char* jointName = tbJoint_GetName( joints[i] );
		if ( jointName != NULL && strcmp( jointName, name ) == 0 )
		{
			tbLua_PushJoint( L, 1, joints[i] );
			return 1;
		}
	}
	lua_pushnil( L );
	return 1;
}

// world:joints() -> { Joint, ... }
int tbLuaWorld_Joints( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "joints" );
	tbJointId* joints;
	int count = tbCollectJoints( L, world->id, &joints );
	lua_createtable( L, count, 0 );
	for ( int i = 0; i < count; ++i )
	{
		tbLua_PushJoint( L, 1, joints[i] );
		lua_rawseti( L, -2, i + 1 );
	}
	return 1;
}

// Methods ----------------------------------------------------------------------------------------

// j:error() -> position error (m), angle error (rad)
static int tbJoint_Error( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "error" );
	float posError = 0.0f, angleError = 0.0f;
	tbJointCheckResult( L, tbJoint_GetError( joint->id, &posError, &angleError ), "error" );
	lua_pushnumber( L, posError );
	lua_pushnumber( L, angleError );
	return 2;
}

static int tbJoint_IsBrokenMethod( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "is_broken" );
	lua_pushboolean( L, tbJoint_IsBroken( joint->id ) );
	return 1;
}

static int tbJoint_Destroy( lua_State* L )
{
	tbLuaJoint* joint = tbCheckMutableJoint( L, "destroy" );
	tbJointId id = joint->id;
	tbJointCheckResult( L, tbDestroyJoint( id ), "destroy" );
	lua_getiuservalue( L, 1, 1 );
	lua_getiuservalue( L, -1, TB_LUA_WORLD_JOINTS );
	lua_pushnil( L );
	lua_rawseti( L, -2, id.index1 );
	return 0;
}

static int tbJoint_IsValidMethod( lua_State* L )
{
	tbLuaJoint* joint = tbLua_TestUdata( L, 1, TB_LUA_JOINT );
	lua_pushboolean( L, joint != NULL && tbJointIsLive( joint ) );
	return 1;
}

// j:anchors() -> ax, ay, az, bx, by, bz: world positions of the two joint frames.
static int tbJoint_Anchors( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "anchors" );
	tbLua_PushVec3( L, tbJoint_GetWorldFrameA( joint->id ).p );
	tbLua_PushVec3( L, tbJoint_GetWorldFrameB( joint->id ).p );
	return 6;
}

// j:axes() -> x axis of frame A, x axis of frame B (world): the hinge, slider or twist axes.
static int tbJoint_Axes( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "axes" );
	tbVec3 x = tbMakeVec3( 1.0f, 0.0f, 0.0f );
	tbLua_PushVec3( L, tbRotate( tbJoint_GetWorldFrameA( joint->id ).q, x ) );
	tbLua_PushVec3( L, tbRotate( tbJoint_GetWorldFrameB( joint->id ).q, x ) );
	return 6;
}

// j:force() / j:torque() -> x, y, z applied to body B in the last step (N, N m).
static int tbJoint_Force( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "force" );
	tbLua_PushVec3( L, tbJoint_GetConstraintForce( joint->id ) );
	return 3;
}

static int tbJoint_Torque( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "torque" );
	tbLua_PushVec3( L, tbJoint_GetConstraintTorque( joint->id ) );
	return 3;
}

// Only for the joint types of typeMask (bits 1 << tbJointType).
static tbLuaJoint* tbCheckJointOf( lua_State* L, const char* fn, unsigned typeMask, bool mutating )
{
	tbLuaJoint* joint = mutating ? tbCheckMutableJoint( L, fn ) : tbLua_CheckJoint( L, 1, fn );
	if ( ( typeMask & ( 1u << joint->type ) ) == 0 )
	{
		luaL_error( L, "%s: not available on a %s joint", fn, tbJointTypeName( joint->type ) );
	}
	return joint;
}

#define TB_TYPE( t ) ( 1u << ( t ) )

static int tbSixDofAxisArg( lua_State* L, int index, const char* fn )
{
	return tbLua_CheckEnum( L, index, tb_sixDofAxisNames, fn, "6-DOF axis" );
}

// j:axis_position(axis) -> m or rad
static int tbJoint_AxisPosition( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "axis_position", TB_TYPE( tbJoint_sixDof ), false );
	int axis = tbSixDofAxisArg( L, 2, "axis_position" );
	lua_pushnumber( L, tbSixDofJoint_GetAxisPosition( joint->id, (tbSixDofAxis)axis ) );
	return 1;
}

// j:set_axis_motor(axis, speed, max_force) or j:set_axis_motor(axis, false)
static int tbJoint_SetAxisMotor( lua_State* L )
{
	const char* fn = "set_axis_motor";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_sixDof ), true );
	tbSixDofAxis axis = (tbSixDofAxis)tbSixDofAxisArg( L, 2, fn );
	if ( lua_type( L, 3 ) == LUA_TBOOLEAN && lua_toboolean( L, 3 ) == 0 )
	{
		tbJointCheckResult( L, tbSixDofJoint_EnableAxisMotor( joint->id, axis, false ), fn );
		return 0;
	}
	float speed = tbLua_CheckNumber( L, 3, fn, "speed", tbCheck_finite );
	float force = 0.0f;
	if ( tbReadCap( L, 4, &force ) == false )
	{
		char got[64];
		return luaL_error( L, "%s: max_force must be %s, got %s", fn, tb_capText,
						   tbLua_Describe( L, 4, got, sizeof( got ) ) );
	}
	tbJointCheckResult( L, tbSixDofJoint_SetAxisMotorSpeed( joint->id, axis, speed ), fn );
	tbJointCheckResult( L, tbSixDofJoint_SetAxisMaxMotorForce( joint->id, axis, force ), fn );
	tbJointCheckResult( L, tbSixDofJoint_EnableAxisMotor( joint->id, axis, true ), fn );
	return 0;
}

// j:row_impulse(i) -> N s accumulated by row i (1-based) over the last step
static int tbJoint_RowImpulse( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "row_impulse", TB_TYPE( tbJoint_custom ), false );
	int isInteger = 0;
	lua_Integer row = lua_tointegerx( L, 2, &isInteger );
	if ( isInteger == 0 || row < 1 || row > TB_MAX_CUSTOM_ROWS )
	{
		char got[64];
		return luaL_error( L, "row_impulse: row must be an integer in [1, %d], got %s", TB_MAX_CUSTOM_ROWS,
						   tbLua_Describe( L, 2, got, sizeof( got ) ) );
	}
	lua_pushnumber( L, tbCustomJoint_GetRowImpulse( joint->id, (int)row - 1 ) );
	return 1;
}

static int tbJoint_ToString( lua_State* L )
{
	tbLuaJoint* joint = luaL_checkudata( L, 1, TB_LUA_JOINT );
	if ( tbJointIsLive( joint ) == false )
	{
		lua_pushstring( L, "Joint (destroyed)" );
		return 1;
	}
	const char* name = tbJoint_GetName( joint->id );
	if ( name != NULL && name[0] != '\0' )
	{
		lua_pushfstring( L, "Joint '%s' (%s)", name, tbJointTypeName( joint->type ) );
	}
	else
	{
		lua_pushfstring( L, "Joint #%d (%s)", (int)joint->id.index1, tbJointTypeName( joint->type ) );
	}
	return 1;
}

// Properties shared by every joint -----------------------------------------------------------------

static int tbJoint_GetNameProp( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.name" );
	const char* name = tbJoint_GetName( joint->id );
	if ( name == NULL || name[0] == '\0' )
	{
		lua_pushnil( L );
	}
	else
	{
		lua_pushstring( L, name );
	}
	return 1;
}

static int tbJoint_SetNameProp( lua_State* L )
{
	tbLuaJoint* joint = tbCheckMutableJoint( L, "Joint.name" );
	const char* name = "";
	if ( lua_isnil( L, 3 ) == false )
	{
		size_t length = 0;
		bool isString = lua_type( L, 3 ) == LUA_TSTRING;
		name = isString ? lua_tolstring( L, 3, &length ) : "";
		if ( isString == false || length > TB_LUA_MAX_NAME || strlen( name ) != length )
		{
			char got[64];
			return luaL_error( L, "Joint.name: must be a string of at most %d characters or nil, got %s",
							   TB_LUA_MAX_NAME, tbLua_Describe( L, 3, got, sizeof( got ) ) );
		}
	}
	tbJointCheckResult( L, tbJoint_SetName( joint->id, name ), "Joint.name" );
	return 0;
}

static int tbJoint_GetTypeProp( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.type" );
	lua_pushstring( L, tbJointTypeName( joint->type ) );
	return 1;
}

static int tbJoint_GetA( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.a" );
	tbPushJointBody( L, 1, tbJoint_GetBodyA( joint->id ) );
	return 1;
}

static int tbJoint_GetB( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.b" );
	tbPushJointBody( L, 1, tbJoint_GetBodyB( joint->id ) );
	return 1;
}

static int tbJoint_GetWorldProp( lua_State* L )
{
	tbLua_CheckJoint( L, 1, "Joint.world" );
	lua_getiuservalue( L, 1, 1 );
	return 1;
}

static int tbJoint_GetIdProp( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.id" );
	lua_pushinteger( L, joint->id.index1 );
	return 1;
}

static int tbJoint_GetEnabled( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.enabled" );
	lua_pushboolean( L, tbJoint_IsEnabled( joint->id ) && tbJoint_IsBroken( joint->id ) == false );
	return 1;
}

static int tbJoint_SetEnabledProp( lua_State* L )
{
	tbLuaJoint* joint = tbCheckMutableJoint( L, "Joint.enabled" );
	bool enabled = tbLua_CheckBool( L, 3, "Joint.enabled", "value" );
	tbJointCheckResult( L, tbJoint_SetEnabled( joint->id, enabled ), "Joint.enabled" );
	return 0;
}

static int tbJoint_GetBroken( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.broken" );
	lua_pushboolean( L, tbJoint_IsBroken( joint->id ) );
	return 1;
}

static float tbCheckCapValue( lua_State* L, const char* fn )
{
	float value = 0.0f;
	if ( tbReadCap( L, 3, &value ) == false )
	{
		char got[64];
		luaL_error( L, "%s: value must be %s, got %s", fn, tb_capText, tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	return value;
}

static int tbJoint_GetBreakForceProp( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.break_force" );
	tbPushCap( L, tbJoint_GetBreakForce( joint->id ) );
	return 1;
}

static int tbJoint_SetBreakForceProp( lua_State* L )
{
	tbLuaJoint* joint = tbCheckMutableJoint( L, "Joint.break_force" );
	float value = tbCheckCapValue( L, "Joint.break_force" );
	tbJointCheckResult( L, tbJoint_SetBreakForce( joint->id, value ), "Joint.break_force" );
	return 0;
}

static int tbJoint_GetBreakTorqueProp( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.break_torque" );
	tbPushCap( L, tbJoint_GetBreakTorque( joint->id ) );
	return 1;
}

static int tbJoint_SetBreakTorqueProp( lua_State* L )
{
	tbLuaJoint* joint = tbCheckMutableJoint( L, "Joint.break_torque" );
	float value = tbCheckCapValue( L, "Joint.break_torque" );
	tbJointCheckResult( L, tbJoint_SetBreakTorque( joint->id, value ), "Joint.break_torque" );
	return 0;
}

static int tbJoint_GetCollide( lua_State* L )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, "Joint.collide" );
	lua_pushboolean( L, tbJoint_GetCollideConnected( joint->id ) );
	return 1;
}

static int tbJoint_SetCollide( lua_State* L )
{
	tbLuaJoint* joint = tbCheckMutableJoint( L, "Joint.collide" );
	bool collide = tbLua_CheckBool( L, 3, "Joint.collide", "value" );
	tbJointCheckResult( L, tbJoint_SetCollideConnected( joint->id, collide ), "Joint.collide" );
	return 0;
}

// Drives: motors and servos ------------------------------------------------------------------------

#define TB_MOTOR_SPEED_TYPES ( TB_TYPE( tbJoint_hinge ) | TB_TYPE( tbJoint_slider ) | TB_TYPE( tbJoint_motor ) )
#define TB_MOTOR_ENABLED_TYPES ( TB_TYPE( tbJoint_hinge ) | TB_TYPE( tbJoint_slider ) )
#define TB_TORQUE_TYPES ( TB_TYPE( tbJoint_hinge ) | TB_TYPE( tbJoint_motor ) )
#define TB_FORCE_TYPES ( TB_TYPE( tbJoint_slider ) | TB_TYPE( tbJoint_mouse ) )
#define TB_LIMIT_TYPES ( TB_TYPE( tbJoint_distance ) | TB_TYPE( tbJoint_hinge ) | TB_TYPE( tbJoint_slider ) )

static int tbJoint_GetMotorSpeed( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.motor_speed", TB_MOTOR_SPEED_TYPES, false );
	float speed = joint->type == tbJoint_hinge	  ? tbHingeJoint_GetMotorSpeed( joint->id )
				  : joint->type == tbJoint_slider ? tbSliderJoint_GetMotorSpeed( joint->id )
												  : tbMotorJoint_GetMotorSpeed( joint->id );
	lua_pushnumber( L, speed );
	return 1;
}

// Setting a speed turns the velocity motor on (and a hinge's servo off).
static int tbJoint_SetMotorSpeed( lua_State* L )
{
	const char* fn = "Joint.motor_speed";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_MOTOR_SPEED_TYPES, true );
	float speed = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_finite );
	if ( joint->type == tbJoint_hinge )
	{
		tbJointCheckResult( L, tbHingeJoint_EnableServo( joint->id, false ), fn );
		tbJointCheckResult( L, tbHingeJoint_SetMotorSpeed( joint->id, speed ), fn );
		tbJointCheckResult( L, tbHingeJoint_EnableMotor( joint->id, true ), fn );
	}
	else if ( joint->type == tbJoint_slider )
	{
		tbJointCheckResult( L, tbSliderJoint_SetMotorSpeed( joint->id, speed ), fn );
		tbJointCheckResult( L, tbSliderJoint_EnableMotor( joint->id, true ), fn );
	}
	else
	{
		tbJointCheckResult( L, tbMotorJoint_SetMotorSpeed( joint->id, speed ), fn );
	}
	return 0;
}

static int tbJoint_GetMotorEnabled( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.motor_enabled", TB_MOTOR_ENABLED_TYPES, false );
	lua_pushboolean( L, joint->type == tbJoint_hinge ? tbHingeJoint_IsMotorEnabled( joint->id )
													 : tbSliderJoint_IsMotorEnabled( joint->id ) );
	return 1;
}

static int tbJoint_SetMotorEnabled( lua_State* L )
{
	const char* fn = "Joint.motor_enabled";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_MOTOR_ENABLED_TYPES, true );
	bool enable = tbLua_CheckBool( L, 3, fn, "value" );
	if ( joint->type == tbJoint_hinge )
	{
		if ( enable )
		{
			tbJointCheckResult( L, tbHingeJoint_EnableServo( joint->id, false ), fn );
		}
		tbJointCheckResult( L, tbHingeJoint_EnableMotor( joint->id, enable ), fn );
	}
	else
	{
		tbJointCheckResult( L, tbSliderJoint_EnableMotor( joint->id, enable ), fn );
	}
	return 0;
}

// The hinge has one actuator: max_torque caps the velocity motor and the servo alike.
static int tbJoint_GetMaxTorque( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.max_torque", TB_TORQUE_TYPES, false );
	float torque;
	if ( joint->type == tbJoint_hinge )
	{
		torque = tbHingeJoint_IsServoEnabled( joint->id ) ? tbHingeJoint_GetMaxServoTorque( joint->id )
														  : tbHingeJoint_GetMaxMotorTorque( joint->id );
	}
	else
	{
		torque = tbMotorJoint_GetMaxMotorTorque( joint->id );
	}
	tbPushCap( L, torque );
	return 1;
}

static int tbJoint_SetMaxTorque( lua_State* L )
{
	const char* fn = "Joint.max_torque";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TORQUE_TYPES, true );
	float torque = tbCheckCapValue( L, fn );
	if ( joint->type == tbJoint_hinge )
	{
		tbJointCheckResult( L, tbHingeJoint_SetMaxMotorTorque( joint->id, torque ), fn );
		tbJointCheckResult( L, tbHingeJoint_SetMaxServoTorque( joint->id, torque ), fn );
	}
	else
	{
		tbJointCheckResult( L, tbMotorJoint_SetMaxMotorTorque( joint->id, torque ), fn );
	}
	return 0;
}

static int tbJoint_GetMaxForce( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.max_force", TB_FORCE_TYPES, false );
	tbPushCap( L, joint->type == tbJoint_slider ? tbSliderJoint_GetMaxMotorForce( joint->id )
												: tbMouseJoint_GetMaxForce( joint->id ) );
	return 1;
}

static int tbJoint_SetMaxForce( lua_State* L )
{
	const char* fn = "Joint.max_force";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_FORCE_TYPES, true );
	float force = tbCheckCapValue( L, fn );
	tbJointCheckResult( L,
						joint->type == tbJoint_slider ? tbSliderJoint_SetMaxMotorForce( joint->id, force )
													  : tbMouseJoint_SetMaxForce( joint->id, force ),
						fn );
	return 0;
}

// The drive's output in the last step: N m (hinge, motor) or N (slider).
static int tbJoint_GetMotorOutput( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.motor_torque", TB_MOTOR_SPEED_TYPES, false );
	float value = joint->type == tbJoint_hinge	  ? tbHingeJoint_GetMotorTorque( joint->id )
				  : joint->type == tbJoint_slider ? tbSliderJoint_GetMotorForce( joint->id )
												  : tbMotorJoint_GetMotorTorque( joint->id );
	lua_pushnumber( L, value );
	return 1;
}

static int tbJoint_GetServoAngle( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.servo_angle", TB_TYPE( tbJoint_hinge ), false );
	lua_pushnumber( L, tbHingeJoint_GetServoAngle( joint->id ) );
	return 1;
}

// Setting a target angle turns the servo on (and the velocity motor off).
static int tbJoint_SetServoAngle( lua_State* L )
{
	const char* fn = "Joint.servo_angle";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_hinge ), true );
	float angle = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_finite );
	if ( fabsf( angle ) > TB_LUA_PI )
	{
		char got[64];
		return luaL_error( L, "%s: value must be an angle in [-pi, pi], got %s", fn,
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	tbJointCheckResult( L, tbHingeJoint_EnableMotor( joint->id, false ), fn );
	tbJointCheckResult( L, tbHingeJoint_SetServoAngle( joint->id, angle ), fn );
	tbJointCheckResult( L, tbHingeJoint_EnableServo( joint->id, true ), fn );
	return 0;
}

static int tbJoint_GetServoEnabled( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.servo_enabled", TB_TYPE( tbJoint_hinge ), false );
	lua_pushboolean( L, tbHingeJoint_IsServoEnabled( joint->id ) );
	return 1;
}

static int tbJoint_SetServoEnabled( lua_State* L )
{
	const char* fn = "Joint.servo_enabled";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_hinge ), true );
	bool enable = tbLua_CheckBool( L, 3, fn, "value" );
	if ( enable )
	{
		tbJointCheckResult( L, tbHingeJoint_EnableMotor( joint->id, false ), fn );
	}
	tbJointCheckResult( L, tbHingeJoint_EnableServo( joint->id, enable ), fn );
	return 0;
}

static int tbJoint_GetServoGain( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.servo_gain", TB_TYPE( tbJoint_hinge ), false );
	lua_pushnumber( L, tbHingeJoint_GetServoGain( joint->id ) );
	return 1;
}

static int tbJoint_SetServoGain( lua_State* L )
{
	const char* fn = "Joint.servo_gain";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_hinge ), true );
	float gain = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_positive );
	tbJointCheckResult( L, tbHingeJoint_SetServoGain( joint->id, gain, tbHingeJoint_GetMaxServoSpeed( joint->id ) ),
						fn );
	return 0;
}

static int tbJoint_GetServoMaxSpeed( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.servo_max_speed", TB_TYPE( tbJoint_hinge ), false );
	lua_pushnumber( L, tbHingeJoint_GetMaxServoSpeed( joint->id ) );
	return 1;
}

static int tbJoint_SetServoMaxSpeed( lua_State* L )
{
	const char* fn = "Joint.servo_max_speed";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_hinge ), true );
	float speed = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_positive );
	tbJointCheckResult( L, tbHingeJoint_SetServoGain( joint->id, tbHingeJoint_GetServoGain( joint->id ), speed ), fn );
	return 0;
}

// Limits -----------------------------------------------------------------------------------------

static void tbPushRangeOrNil( lua_State* L, bool enabled, float lo, float hi )
{
	if ( enabled == false )
	{
		lua_pushnil( L );
		return;
	}
	lua_createtable( L, 2, 0 );
	tbPushCap( L, lo );
	lua_rawseti( L, -2, 1 );
	tbPushCap( L, hi );
	lua_rawseti( L, -2, 2 );
}

// A range property value: nil (remove the limit) or {lower, upper}. Returns false for nil.
static bool tbCheckRangeValue( lua_State* L, const char* fn, float bound, bool angles, float* lo, float* hi )
{
	if ( lua_isnil( L, 3 ) )
	{
		return false;
	}
	if ( tbReadRange( L, 3, bound, lo, hi ) == false )
	{
		char got[96];
		luaL_error( L, "%s: value must be %s, or nil to remove it, got %s", fn, tbRangeText( angles ),
					tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	return true;
}

static int tbJoint_GetLimits( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.limits", TB_LIMIT_TYPES, false );
	tbJointId id = joint->id;
	if ( joint->type == tbJoint_distance )
	{
		tbPushRangeOrNil( L, tbDistanceJoint_IsLimitEnabled( id ), tbDistanceJoint_GetMinLength( id ),
						  tbDistanceJoint_GetMaxLength( id ) );
	}
	else if ( joint->type == tbJoint_hinge )
	{
		tbPushRangeOrNil( L, tbHingeJoint_IsLimitEnabled( id ), tbHingeJoint_GetLowerLimit( id ),
						  tbHingeJoint_GetUpperLimit( id ) );
	}
	else
	{
		tbPushRangeOrNil( L, tbSliderJoint_IsLimitEnabled( id ), tbSliderJoint_GetLowerLimit( id ),
						  tbSliderJoint_GetUpperLimit( id ) );
	}
	return 1;
}

static int tbJoint_SetLimits( lua_State* L )
{
	const char* fn = "Joint.limits";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_LIMIT_TYPES, true );
	tbJointId id = joint->id;
	float lo = 0.0f, hi = 0.0f;
	if ( joint->type == tbJoint_distance )
	{
		bool on = tbCheckRangeValue( L, fn, FLT_MAX, false, &lo, &hi );
		if ( on && lo < 0.0f )
		{
			return luaL_error( L, "%s: lengths must be >= 0, got %f", fn, lo );
		}
		if ( on )
		{
			tbJointCheckResult( L, tbDistanceJoint_SetLengthRange( id, lo, hi ), fn );
		}
		tbJointCheckResult( L, tbDistanceJoint_EnableLimit( id, on ), fn );
	}
	else if ( joint->type == tbJoint_hinge )
	{
		bool on = tbCheckRangeValue( L, fn, TB_LUA_PI, true, &lo, &hi );
		if ( on )
		{
			tbJointCheckResult( L, tbHingeJoint_SetLimits( id, lo, hi ), fn );
		}
		tbJointCheckResult( L, tbHingeJoint_EnableLimit( id, on ), fn );
	}
	else
	{
		bool on = tbCheckRangeValue( L, fn, FLT_MAX, false, &lo, &hi );
		if ( on )
		{
			tbJointCheckResult( L, tbSliderJoint_SetLimits( id, lo, hi ), fn );
		}
		tbJointCheckResult( L, tbSliderJoint_EnableLimit( id, on ), fn );
	}
	return 0;
}

// Readings ---------------------------------------------------------------------------------------

#define TB_ANGLE_TYPES TB_TYPE( tbJoint_hinge )
#define TB_SPEED_TYPES ( TB_TYPE( tbJoint_hinge ) | TB_TYPE( tbJoint_slider ) )

static int tbJoint_GetAngle( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.angle", TB_ANGLE_TYPES, false );
	lua_pushnumber( L, tbHingeJoint_GetAngle( joint->id ) );
	return 1;
}

static int tbJoint_GetSpeed( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.speed", TB_SPEED_TYPES, false );
	lua_pushnumber( L, joint->type == tbJoint_hinge ? tbHingeJoint_GetSpeed( joint->id )
													: tbSliderJoint_GetSpeed( joint->id ) );
	return 1;
}

static int tbJoint_GetTranslation( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.translation", TB_TYPE( tbJoint_slider ), false );
	lua_pushnumber( L, tbSliderJoint_GetTranslation( joint->id ) );
	return 1;
}

// Distance joint ---------------------------------------------------------------------------------

static int tbJoint_GetLength( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.length", TB_TYPE( tbJoint_distance ), false );
	lua_pushnumber( L, tbDistanceJoint_GetLength( joint->id ) );
	return 1;
}

static int tbJoint_SetLength( lua_State* L )
{
	const char* fn = "Joint.length";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_distance ), true );
	float length = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_nonNegative );
	tbJointCheckResult( L, tbDistanceJoint_SetLength( joint->id, length ), fn );
	return 0;
}

static int tbJoint_GetCurrentLength( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.current_length", TB_TYPE( tbJoint_distance ), false );
	lua_pushnumber( L, tbDistanceJoint_GetCurrentLength( joint->id ) );
	return 1;
}

static int tbJoint_GetSpring( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.spring", TB_TYPE( tbJoint_distance ), false );
	if ( tbDistanceJoint_IsSpringEnabled( joint->id ) == false )
	{
		lua_pushnil( L );
		return 1;
	}
	lua_createtable( L, 0, 2 );
	lua_pushnumber( L, tbDistanceJoint_GetSpringHertz( joint->id ) );
	lua_setfield( L, -2, "hz" );
	lua_pushnumber( L, tbDistanceJoint_GetSpringDampingRatio( joint->id ) );
	lua_setfield( L, -2, "damping" );
	return 1;
}

// j.spring = { hz = 4, damping = 0.5 } or nil (rigid again)
static int tbJoint_SetSpring( lua_State* L )
{
	const char* fn = "Joint.spring";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_distance ), true );
	if ( lua_isnil( L, 3 ) )
	{
		tbJointCheckResult( L, tbDistanceJoint_EnableSpring( joint->id, false ), fn );
		return 0;
	}
	tbLuaDef def;
	tbDef_Begin( &def, L, 3, fn, "" );
	float hz = tbDistanceJoint_GetSpringHertz( joint->id );
	float damping = tbDistanceJoint_GetSpringDampingRatio( joint->id );
	tbDef_Number( &def, "hz", &hz, tbCheck_nonNegative );
	tbDef_Number( &def, "damping", &damping, tbCheck_nonNegative );
	tbDef_Finish( &def );
	tbJointCheckResult( L, tbDistanceJoint_SetSpringHertz( joint->id, hz ), fn );
	tbJointCheckResult( L, tbDistanceJoint_SetSpringDampingRatio( joint->id, damping ), fn );
	tbJointCheckResult( L, tbDistanceJoint_EnableSpring( joint->id, true ), fn );
	return 0;
}

// Cone joint -------------------------------------------------------------------------------------

static int tbJoint_GetSwing( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.swing", TB_TYPE( tbJoint_cone ), false );
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

static int tbJoint_SetSwing( lua_State* L )
{
	const char* fn = "Joint.swing";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_cone ), true );
	if ( lua_isnil( L, 3 ) )
	{
		tbJointCheckResult( L, tbConeJoint_EnableConeLimit( joint->id, false ), fn );
		return 0;
	}
	float angle = 0.0f;
	if ( lua_type( L, 3 ) != LUA_TNUMBER || ( angle = (float)lua_tonumber( L, 3 ) ) > TB_LUA_PI || !( angle > 0.0f ) )
	{
		char got[64];
		return luaL_error( L, "%s: value must be an angle in (0, pi], or nil to remove the limit, got %s", fn,
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	tbJointCheckResult( L, tbConeJoint_SetConeAngle( joint->id, angle ), fn );
	tbJointCheckResult( L, tbConeJoint_EnableConeLimit( joint->id, true ), fn );
	return 0;
}

static int tbJoint_GetPyramid( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.pyramid", TB_TYPE( tbJoint_cone ), false );
	tbPushRangeOrNil( L, tbConeJoint_IsPyramidLimitEnabled( joint->id ), tbConeJoint_GetMaxSwingY( joint->id ),
					  tbConeJoint_GetMaxSwingZ( joint->id ) );
	return 1;
}

static int tbJoint_SetPyramid( lua_State* L )
{
	const char* fn = "Joint.pyramid";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_cone ), true );
	if ( lua_isnil( L, 3 ) )
	{
		tbJointCheckResult( L, tbConeJoint_EnablePyramidLimit( joint->id, false ), fn );
		return 0;
	}
	float v[2];
	if ( tbLua_ReadFloats( L, 3, v, 2, tbCheck_positive ) == false || v[0] > TB_LUA_PI || v[1] > TB_LUA_PI )
	{
		char got[96];
		return luaL_error( L, "%s: value must be 2 angles {y, z} in (0, pi], or nil to remove the limit, got %s", fn,
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	tbJointCheckResult( L, tbConeJoint_SetPyramidLimits( joint->id, v[0], v[1] ), fn );
	tbJointCheckResult( L, tbConeJoint_EnablePyramidLimit( joint->id, true ), fn );
	return 0;
}

static int tbJoint_GetTwist( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.twist", TB_TYPE( tbJoint_cone ), false );
	tbPushRangeOrNil( L, tbConeJoint_IsTwistLimitEnabled( joint->id ), tbConeJoint_GetLowerTwist( joint->id ),
					  tbConeJoint_GetUpperTwist( joint->id ) );
	return 1;
}

// j.twist = {lo, hi}, or nil for a free twist
static int tbJoint_SetTwist( lua_State* L )
{
	const char* fn = "Joint.twist";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_cone ), true );
	float lo = 0.0f, hi = 0.0f;
	bool on = tbCheckRangeValue( L, fn, TB_LUA_PI, true, &lo, &hi );
	if ( on )
	{
		tbJointCheckResult( L, tbConeJoint_SetTwistLimits( joint->id, lo, hi ), fn );
	}
	tbJointCheckResult( L, tbConeJoint_EnableTwistLimit( joint->id, on ), fn );
	return 0;
}

static int tbJoint_GetSwingAngle( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.swing_angle", TB_TYPE( tbJoint_cone ), false );
	lua_pushnumber( L, tbConeJoint_GetSwingAngle( joint->id ) );
	return 1;
}

static int tbJoint_GetTwistAngle( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.twist_angle", TB_TYPE( tbJoint_cone ), false );
	lua_pushnumber( L, tbConeJoint_GetTwistAngle( joint->id ) );
	return 1;
}

// 6-DOF joint ------------------------------------------------------------------------------------

// j.axes -> { x = "free" | "fixed" | {lo, hi}, ... }
static int tbJoint_GetAxes( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.axes", TB_TYPE( tbJoint_sixDof ), false );
	lua_createtable( L, 0, tbSixDof_axisCount );
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		tbAxisMode mode = tbSixDofJoint_GetAxisMode( joint->id, (tbSixDofAxis)i );
		if ( mode == tbAxis_limited )
		{
			tbPushRangeOrNil( L, true, tbSixDofJoint_GetAxisLower( joint->id, (tbSixDofAxis)i ),
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
static int tbJoint_SetAxes( lua_State* L )
{
	const char* fn = "Joint.axes";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_sixDof ), true );
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
			tbJointCheckResult( L, tbSixDofJoint_SetAxisLimits( joint->id, (tbSixDofAxis)i, lo[i], hi[i] ), fn );
		}
		if ( given[i] )
		{
			tbJointCheckResult( L, tbSixDofJoint_SetAxisMode( joint->id, (tbSixDofAxis)i, modes[i] ), fn );
		}
	}
	return 0;
}

// Mouse joint ------------------------------------------------------------------------------------

static int tbJoint_GetTarget( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.target", TB_TYPE( tbJoint_mouse ), false );
	tbLua_PushVec3Table( L, tbMouseJoint_GetTarget( joint->id ) );
	return 1;
}

static int tbJoint_SetTarget( lua_State* L )
{
	const char* fn = "Joint.target";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_mouse ), true );
	tbVec3 target = tbLua_CheckVec3( L, 3, fn, "value", tbCheck_finite );
	tbJointCheckResult( L, tbMouseJoint_SetTarget( joint->id, target ), fn );
	return 0;
}

static int tbJoint_GetHz( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.hz", TB_TYPE( tbJoint_mouse ), false );
	lua_pushnumber( L, tbMouseJoint_GetHertz( joint->id ) );
	return 1;
}

static int tbJoint_SetHz( lua_State* L )
{
	const char* fn = "Joint.hz";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_mouse ), true );
	float hz = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_positive );
	tbJointCheckResult( L, tbMouseJoint_SetSpring( joint->id, hz, tbMouseJoint_GetDampingRatio( joint->id ) ), fn );
	return 0;
}

static int tbJoint_GetDamping( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.damping", TB_TYPE( tbJoint_mouse ), false );
	lua_pushnumber( L, tbMouseJoint_GetDampingRatio( joint->id ) );
	return 1;
}

static int tbJoint_SetDamping( lua_State* L )
{
	const char* fn = "Joint.damping";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_mouse ), true );
	float damping = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_nonNegative );
	tbJointCheckResult( L, tbMouseJoint_SetSpring( joint->id, tbMouseJoint_GetHertz( joint->id ), damping ), fn );
	return 0;
}

// Custom joint -----------------------------------------------------------------------------------

static int tbJoint_GetRows( lua_State* L )
{
	tbCheckJointOf( L, "Joint.rows", TB_TYPE( tbJoint_custom ), false );
	lua_getiuservalue( L, 1, 2 );
	return 1;
}

// j.rows = function(c, dt) ... end: also how a swap reload re-attaches a custom joint's rows.
static int tbJoint_SetRows( lua_State* L )
{
	const char* fn = "Joint.rows";
	tbLuaJoint* joint = tbCheckJointOf( L, fn, TB_TYPE( tbJoint_custom ), true );
	if ( lua_type( L, 3 ) != LUA_TFUNCTION )
	{
		char got[64];
		return luaL_error( L, "%s: value must be a function(c, dt) returning a list of rows, got %s", fn,
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	lua_pushvalue( L, 3 );
	lua_setiuservalue( L, 1, 2 );
	tbInstallRows( joint );
	return 0;
}

static int tbJoint_GetRowCount( lua_State* L )
{
	tbLuaJoint* joint = tbCheckJointOf( L, "Joint.row_count", TB_TYPE( tbJoint_custom ), false );
	lua_pushinteger( L, tbCustomJoint_GetRowCount( joint->id ) );
	return 1;
}

void tbLua_OpenJoint( lua_State* L )
{
	static const luaL_Reg methods[] = {
		{ "error", tbJoint_Error },
		{ "is_broken", tbJoint_IsBrokenMethod },
		{ "destroy", tbJoint_Destroy },
		{ "is_valid", tbJoint_IsValidMethod },
		{ "anchors", tbJoint_Anchors },
		{ "axes_world", tbJoint_Axes },
		{ "force", tbJoint_Force },
		{ "torque", tbJoint_Torque },
		{ "axis_position", tbJoint_AxisPosition },
		{ "set_axis_motor", tbJoint_SetAxisMotor },
		{ "row_impulse", tbJoint_RowImpulse },
		{ NULL, NULL },
	};
	static const tbLuaProperty properties[] = {
		{ "name", tbJoint_GetNameProp, tbJoint_SetNameProp },
		{ "type", tbJoint_GetTypeProp, NULL },
		{ "a", tbJoint_GetA, NULL },
		{ "b", tbJoint_GetB, NULL },
		{ "world", tbJoint_GetWorldProp, NULL },
		{ "id", tbJoint_GetIdProp, NULL },
		{ "enabled", tbJoint_GetEnabled, tbJoint_SetEnabledProp },
		{ "broken", tbJoint_GetBroken, NULL },
		{ "break_force", tbJoint_GetBreakForceProp, tbJoint_SetBreakForceProp },
		{ "break_torque", tbJoint_GetBreakTorqueProp, tbJoint_SetBreakTorqueProp },
		{ "collide", tbJoint_GetCollide, tbJoint_SetCollide },
		{ "motor_speed", tbJoint_GetMotorSpeed, tbJoint_SetMotorSpeed },
		{ "motor_enabled", tbJoint_GetMotorEnabled, tbJoint_SetMotorEnabled },
		{ "max_torque", tbJoint_GetMaxTorque, tbJoint_SetMaxTorque },
		{ "max_force", tbJoint_GetMaxForce, tbJoint_SetMaxForce },
		{ "motor_torque", tbJoint_GetMotorOutput, NULL },
		{ "motor_force", tbJoint_GetMotorOutput, NULL },
		{ "servo_angle", tbJoint_GetServoAngle, tbJoint_SetServoAngle },
		{ "servo_enabled", tbJoint_GetServoEnabled, tbJoint_SetServoEnabled },
		{ "servo_gain", tbJoint_GetServoGain, tbJoint_SetServoGain },
		{ "servo_max_speed", tbJoint_GetServoMaxSpeed, tbJoint_SetServoMaxSpeed },
		{ "limits", tbJoint_GetLimits, tbJoint_SetLimits },
		{ "angle", tbJoint_GetAngle, NULL },
		{ "speed", tbJoint_GetSpeed, NULL },
		{ "translation", tbJoint_GetTranslation, NULL },
		{ "length", tbJoint_GetLength, tbJoint_SetLength },
		{ "current_length", tbJoint_GetCurrentLength, NULL },
		{ "spring", tbJoint_GetSpring, tbJoint_SetSpring },
		{ "swing", tbJoint_GetSwing, tbJoint_SetSwing },
		{ "pyramid", tbJoint_GetPyramid, tbJoint_SetPyramid },
		{ "twist", tbJoint_GetTwist, tbJoint_SetTwist },
		{ "swing_angle", tbJoint_GetSwingAngle, NULL },
		{ "twist_angle", tbJoint_GetTwistAngle, NULL },
		{ "axes", tbJoint_GetAxes, tbJoint_SetAxes },
		{ "target", tbJoint_GetTarget, tbJoint_SetTarget },
		{ "hz", tbJoint_GetHz, tbJoint_SetHz },
		{ "damping", tbJoint_GetDamping, tbJoint_SetDamping },
		{ "rows", tbJoint_GetRows, tbJoint_SetRows },
		{ "row_count", tbJoint_GetRowCount, NULL },
		{ NULL, NULL, NULL },
	};
	static const tbLuaType type = { "Joint", methods, properties, tbJoint_Gc, tbJoint_ToString, NULL };
	tbLua_RegisterType( L, &type );
}
