// Tumble Lua bindings: the Joint type. Handles, the properties and methods every joint has, the
// table of joint types (each type's constructor and own members are in its file, l_joint_<type>.c,
// l_joint.h), finding joints, and the helpers the joint files share.
// SPDX-License-Identifier: MIT
#include "l_joint.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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

tbLuaJoint* tbLuaJoint_CheckMutable( lua_State* L, const char* fn )
{
	tbLuaJoint* joint = tbLua_CheckJoint( L, 1, fn );
	tbLua_CheckUnlocked( L, joint->world, fn );
	return joint;
}

void tbLuaJoint_CheckResult( lua_State* L, tbResult result, const char* fn )
{
	if ( result != tbResult_ok )
	{
		luaL_error( L, "%s: %s", fn, tbResultString( result ) );
	}
}

tbLuaJoint* tbLuaJoint_CheckType( lua_State* L, const char* fn, tbJointType type, bool mutating )
{
	tbLuaJoint* joint = mutating ? tbLuaJoint_CheckMutable( L, fn ) : tbLua_CheckJoint( L, 1, fn );
	if ( joint->type != type )
	{
		luaL_error( L, "%s: not available on a %s joint", fn, tbJointTypeName( joint->type ) );
	}
	return joint;
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

// Values shared by constructors and properties -----------------------------------------------------

bool tbLuaJoint_ReadCap( lua_State* L, int index, float* value )
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

void tbLuaJoint_PushCap( lua_State* L, float value )
{
	lua_pushnumber( L, value >= FLT_MAX ? (lua_Number)HUGE_VAL : (lua_Number)value );
}

const char* const tb_luaCapText = "a number >= 0 (math.huge: no limit)";

bool tbLuaJoint_DefCap( tbLuaDef* def, const char* key, float* value )
{
	if ( tbDef_Value( def, key ) == false )
	{
		return false;
	}
	bool ok = tbLuaJoint_ReadCap( def->L, -1, value );
	lua_pop( def->L, 1 );
	if ( ok == false )
	{
		tbDef_FieldError( def, key, tb_luaCapText );
	}
	return true;
}

bool tbLuaJoint_ReadRange( lua_State* L, int index, float bound, float* lo, float* hi )
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

// What a range must be, for messages.
static const char* tbRangeText( bool angles )
{
	return angles ? "{lower, upper} in [-pi, pi] with lower <= upper" : "{lower, upper} with lower <= upper";
}

bool tbLuaJoint_DefRange( tbLuaDef* def, const char* key, bool angles, float* lo, float* hi )
{
	if ( tbDef_Value( def, key ) == false )
	{
		return false;
	}
	bool ok = tbLuaJoint_ReadRange( def->L, -1, angles ? TB_LUA_PI : FLT_MAX, lo, hi );
	lua_pop( def->L, 1 );
	if ( ok == false )
	{
		tbDef_FieldError( def, key, tbRangeText( angles ) );
	}
	return true;
}

// Reading the common joint fields --------------------------------------------------------------------

tbBodyId tbLuaJoint_DefBody( tbLuaDef* def, tbLuaWorld* world, const char* key, const char* expected )
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

void tbLuaJoint_ReadBase( tbLuaDef* def, tbLuaWorld* world, tbJointDef* base, unsigned flags, bool* enabled )
{
	lua_State* L = def->L;
	base->bodyA = tbLuaJoint_DefBody( def, world, "a", "a Body or nil (the static world)" );
	base->bodyB = tbLuaJoint_DefBody( def, world, "b", "a Body or nil (the static world)" );
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
	tbLuaJoint_DefCap( def, "break_force", &base->breakForce );
	tbLuaJoint_DefCap( def, "break_torque", &base->breakTorque );
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

// A spring table: { hz, damping } (a frequency and damping ratio of the joint's effective mass) or
// { stiffness, damper } (N/m and N s/m), not both.
void tbLuaJoint_ReadSpring( tbLuaDef* def, float* hz, float* ratio, float* stiffness, float* damper )
{
	bool byFrequency = tbDef_Number( def, "hz", hz, tbCheck_hertz );
	byFrequency = tbDef_Number( def, "damping", ratio, tbCheck_nonNegative ) || byFrequency;
	bool byStiffness = tbDef_Number( def, "stiffness", stiffness, tbCheck_positive );
	byStiffness = tbDef_Number( def, "damper", damper, tbCheck_nonNegative ) || byStiffness;
	if ( byFrequency && byStiffness )
	{
		luaL_error( def->L, "%s: %sgive hz and damping or stiffness and damper, not both", def->fn, def->prefix );
	}
	if ( byStiffness && *stiffness <= 0.0f )
	{
		tbDef_FieldError( def, "stiffness", "a positive number (N/m) with damper" );
	}
}

bool tbLuaJoint_BeginNested( tbLuaDef* def, const char* key, char* prefix, size_t prefixSize, tbLuaDef* nested )
{
	if ( tbDef_Table( def, key ) == false )
	{
		return false;
	}
	snprintf( prefix, prefixSize, "%s%s.", def->prefix, key );
	tbDef_Begin( nested, def->L, -1, def->fn, prefix );
	return true;
}

void tbLuaJoint_EndNested( tbLuaDef* nested )
{
	tbDef_Finish( nested );
	lua_pop( nested->L, 1 );
}

// Creation ---------------------------------------------------------------------------------------

tbLuaJoint* tbLuaJoint_Finish( lua_State* L, const char* fn, tbJointId id, tbResult result, bool enabled )
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
	tbLua_Guard( L, tbLuaGuard_created, fn );
	return lua_touserdata( L, -1 );
}

tbLuaWorld* tbLuaJoint_Begin( lua_State* L, const char* fn, tbLuaDef* def )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, fn );
	tbLua_CheckUnlocked( L, world, fn );
	tbLua_Guard( L, tbLuaGuard_create, fn );
	tbDef_Begin( def, L, 2, fn, "" );
	return world;
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
	tbLuaJoint_CheckResult( L, tbJoint_GetError( joint->id, &posError, &angleError ), "error" );
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
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, "destroy" );
	tbJointId id = joint->id;
	tbLuaJoint_CheckResult( L, tbDestroyJoint( id ), "destroy" );
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

// Property bodies ----------------------------------------------------------------------------------

int tbLuaJoint_GetFloat( lua_State* L, const char* fn, float ( *get )( tbJointId ) )
{
	lua_pushnumber( L, get( tbLua_CheckJoint( L, 1, fn )->id ) );
	return 1;
}

int tbLuaJoint_GetBool( lua_State* L, const char* fn, bool ( *get )( tbJointId ) )
{
	lua_pushboolean( L, get( tbLua_CheckJoint( L, 1, fn )->id ) );
	return 1;
}

int tbLuaJoint_GetCap( lua_State* L, const char* fn, float ( *get )( tbJointId ) )
{
	tbLuaJoint_PushCap( L, get( tbLua_CheckJoint( L, 1, fn )->id ) );
	return 1;
}

int tbLuaJoint_GetRange( lua_State* L, const char* fn, bool ( *enabled )( tbJointId ), float ( *lower )( tbJointId ),
						 float ( *upper )( tbJointId ) )
{
	tbJointId id = tbLua_CheckJoint( L, 1, fn )->id;
	tbLuaJoint_PushRange( L, enabled( id ), lower( id ), upper( id ) );
	return 1;
}

int tbLuaJoint_SetFloat( lua_State* L, const char* fn, tbLuaCheck check, tbResult ( *set )( tbJointId, float ) )
{
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	float value = tbLua_CheckNumber( L, 3, fn, "value", check );
	tbLuaJoint_CheckResult( L, set( joint->id, value ), fn );
	return 0;
}

int tbLuaJoint_SetBool( lua_State* L, const char* fn, tbResult ( *set )( tbJointId, bool ) )
{
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	bool value = tbLua_CheckBool( L, 3, fn, "value" );
	tbLuaJoint_CheckResult( L, set( joint->id, value ), fn );
	return 0;
}

int tbLuaJoint_SetCap( lua_State* L, const char* fn, tbResult ( *set )( tbJointId, float ) )
{
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	float value = tbLuaJoint_CheckCap( L, fn );
	tbLuaJoint_CheckResult( L, set( joint->id, value ), fn );
	return 0;
}

int tbLuaJoint_SetRange( lua_State* L, const char* fn, bool angles, tbResult ( *set )( tbJointId, float, float ),
						 tbResult ( *enable )( tbJointId, bool ) )
{
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, fn );
	float lo = 0.0f, hi = 0.0f;
	bool on = tbLuaJoint_CheckRange( L, fn, angles, &lo, &hi );
	if ( on )
	{
		tbLuaJoint_CheckResult( L, set( joint->id, lo, hi ), fn );
	}
	tbLuaJoint_CheckResult( L, enable( joint->id, on ), fn );
	return 0;
}

float tbLuaJoint_CheckCap( lua_State* L, const char* fn )
{
	float value = 0.0f;
	if ( tbLuaJoint_ReadCap( L, 3, &value ) == false )
	{
		char got[64];
		luaL_error( L, "%s: value must be %s, got %s", fn, tb_luaCapText, tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	return value;
}

bool tbLuaJoint_CheckRange( lua_State* L, const char* fn, bool angles, float* lo, float* hi )
{
	if ( lua_isnil( L, 3 ) )
	{
		return false;
	}
	if ( tbLuaJoint_ReadRange( L, 3, angles ? TB_LUA_PI : FLT_MAX, lo, hi ) == false )
	{
		char got[96];
		luaL_error( L, "%s: value must be %s, or nil to remove it, got %s", fn, tbRangeText( angles ),
					tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	return true;
}

void tbLuaJoint_PushRange( lua_State* L, bool enabled, float lo, float hi )
{
	if ( enabled == false )
	{
		lua_pushnil( L );
		return;
	}
	lua_createtable( L, 2, 0 );
	tbLuaJoint_PushCap( L, lo );
	lua_rawseti( L, -2, 1 );
	tbLuaJoint_PushCap( L, hi );
	lua_rawseti( L, -2, 2 );
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
	tbLuaJoint* joint = tbLuaJoint_CheckMutable( L, "Joint.name" );
	const char* name = "";
	if ( lua_isnil( L, 3 ) == false )
	{
		size_t length = 0;
		bool isString = lua_type( L, 3 ) == LUA_TSTRING;
		name = isString ? lua_tolstring( L, 3, &length ) : "";
		if ( isString == false || length > TB_LUA_MAX_NAME || strlen( name ) != length )
		{
			char got[64];
			return luaL_error( L, "Joint.name: must be a string of at most %d bytes or nil, got %s",
							   TB_LUA_MAX_NAME, tbLua_Describe( L, 3, got, sizeof( got ) ) );
		}
	}
	tbLuaJoint_CheckResult( L, tbJoint_SetName( joint->id, name ), "Joint.name" );
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
	return tbLuaJoint_SetBool( L, "Joint.enabled", tbJoint_SetEnabled );
}

static int tbJoint_GetBroken( lua_State* L )
{
	return tbLuaJoint_GetBool( L, "Joint.broken", tbJoint_IsBroken );
}

static int tbJoint_GetBreakForceProp( lua_State* L )
{
	return tbLuaJoint_GetCap( L, "Joint.break_force", tbJoint_GetBreakForce );
}

static int tbJoint_SetBreakForceProp( lua_State* L )
{
	return tbLuaJoint_SetCap( L, "Joint.break_force", tbJoint_SetBreakForce );
}

static int tbJoint_GetBreakTorqueProp( lua_State* L )
{
	return tbLuaJoint_GetCap( L, "Joint.break_torque", tbJoint_GetBreakTorque );
}

static int tbJoint_SetBreakTorqueProp( lua_State* L )
{
	return tbLuaJoint_SetCap( L, "Joint.break_torque", tbJoint_SetBreakTorque );
}

static int tbJoint_GetCollide( lua_State* L )
{
	return tbLuaJoint_GetBool( L, "Joint.collide", tbJoint_GetCollideConnected );
}

static int tbJoint_SetCollide( lua_State* L )
{
	return tbLuaJoint_SetBool( L, "Joint.collide", tbJoint_SetCollideConnected );
}

// The joint types ----------------------------------------------------------------------------------
// One entry per tbJointType (the core's side is tb_jointClasses in joint.c): a new joint type is one
// more entry here and its file, l_joint_<type>.c.

static const tbLuaJointClass* const tb_luaJointClasses[tbJoint_typeCount] = {
	[tbJoint_distance] = &tb_luaDistanceJointClass,
	[tbJoint_ball] = &tb_luaBallJointClass,
	[tbJoint_hinge] = &tb_luaHingeJointClass,
	[tbJoint_cone] = &tb_luaConeJointClass,
	[tbJoint_fixed] = &tb_luaFixedJointClass,
	[tbJoint_slider] = &tb_luaSliderJointClass,
	[tbJoint_sixDof] = &tb_luaSixDofJointClass,
	[tbJoint_motor] = &tb_luaMotorJointClass,
	[tbJoint_mouse] = &tb_luaMouseJointClass,
	[tbJoint_custom] = &tb_luaCustomJointClass,
	[tbJoint_wheel] = &tb_luaWheelJointClass,
};

const tbLuaJointClass* tbLua_GetJointClass( tbJointType type )
{
	return (unsigned)type < (unsigned)tbJoint_typeCount ? tb_luaJointClasses[type] : NULL;
}

static const tbLuaKind* tbJointMembers( int type )
{
	return &tb_luaJointClasses[type]->members;
}

static int tbJointKindOf( lua_State* L )
{
	const tbLuaJoint* joint = lua_touserdata( L, 1 );
	return (int)joint->type;
}

// A property that only other joint types have. The checks an accessor makes come first (a destroyed
// joint, a locked world), as they did when one accessor served every type and checked the type last.
static void tbJointRefuse( lua_State* L, bool set )
{
	char fn[64];
	snprintf( fn, sizeof( fn ), "Joint.%s", lua_tostring( L, 2 ) );
	tbLuaJoint* joint = set ? tbLuaJoint_CheckMutable( L, fn ) : tbLua_CheckJoint( L, 1, fn );
	luaL_error( L, "%s: not available on a %s joint", fn, tbJointTypeName( joint->type ) );
}

static int tbJoint_Gc( lua_State* L )
{
	tbLuaJoint* joint = luaL_checkudata( L, 1, TB_LUA_JOINT );
	if ( joint->type == tbJoint_custom )
	{
		tbLuaJoint_ReleaseRows( joint );
	}
	return 0;
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
		{ NULL, NULL, NULL },
	};
	// Then the members of the joint's own type (tb_luaJointClasses).
	static const tbLuaKinds kinds = { tbJoint_typeCount, tbJointMembers, tbJointKindOf, tbJointRefuse };
	static const tbLuaType type = { "Joint", methods, properties, tbJoint_Gc, tbJoint_ToString, &kinds };
	tbLua_RegisterType( L, &type );
}
