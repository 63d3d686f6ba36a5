// Tumble Lua bindings: the Body type and the world:add_* constructors.
// SPDX-License-Identifier: MIT
#include "l_common.h"

#include <stdio.h>
#include <string.h>

// Longest body name the core keeps, in bytes (tbBodyDef.name is copied up to 31 bytes).
#define TB_LUA_MAX_NAME 31
// Most shapes read for one body (a compound); more is almost certainly a mistake in a script.
#define TB_LUA_MAX_COMPOUND 256

// Handles ----------------------------------------------------------------------------------------

void tbLua_PushBody( lua_State* L, int worldIndex, tbBodyId bodyId )
{
	worldIndex = lua_absindex( L, worldIndex );
	tbLuaWorld* world = tbLua_TestUdata( L, worldIndex, TB_LUA_WORLD );
	if ( world == NULL || world->destroyed || tbBody_IsValid( bodyId ) == false )
	{
		lua_pushnil( L );
		return;
	}

	// One userdata per body: handles compare equal and can be table keys.
	lua_getiuservalue( L, worldIndex, 1 );
	if ( lua_rawgeti( L, -1, bodyId.index1 ) == LUA_TUSERDATA )
	{
		tbLuaBody* cached = lua_touserdata( L, -1 );
		if ( TB_ID_EQUALS( cached->id, bodyId ) )
		{
			lua_remove( L, -2 );
			return;
		}
	}
	lua_pop( L, 1 );

	tbLuaBody* body = lua_newuserdatauv( L, sizeof( tbLuaBody ), 1 );
	body->id = bodyId;
	body->world = world;
	lua_pushvalue( L, worldIndex );
	lua_setiuservalue( L, -2, 1 );
	luaL_setmetatable( L, TB_LUA_BODY );
	lua_pushvalue( L, -1 );
	lua_rawseti( L, -3, bodyId.index1 );
	lua_remove( L, -2 );
}

bool tbLua_ToBody( lua_State* L, int index, tbBodyId* bodyId )
{
	tbLuaBody* body = tbLua_TestUdata( L, index, TB_LUA_BODY );
	if ( body == NULL )
	{
		return false;
	}
	*bodyId = body->id;
	return true;
}

void tbLua_UncacheBody( lua_State* L, int worldIndex, tbBodyId bodyId )
{
	worldIndex = lua_absindex( L, worldIndex );
	lua_getiuservalue( L, worldIndex, 1 );
	lua_pushnil( L );
	lua_rawseti( L, -2, bodyId.index1 );
	lua_pop( L, 1 );
}

// A body id names its world by a generation-checked tag, so a valid body implies a live world.
static bool tbBodyIsLive( const tbLuaBody* body )
{
	return body->world->destroyed == false && tbBody_IsValid( body->id );
}

tbLuaBody* tbLua_CheckBody( lua_State* L, int index, const char* fn )
{
	tbLuaBody* body = tbLua_TestUdata( L, index, TB_LUA_BODY );
	if ( body == NULL )
	{
		char got[96];
		luaL_error( L, "%s: expected a Body (call it as body:%s(...)), got %s", fn, fn,
					tbLua_Describe( L, index, got, sizeof( got ) ) );
	}
	if ( tbBodyIsLive( body ) == false )
	{
		luaL_error( L, "attempt to use a destroyed Body" );
	}
	return body;
}

static tbLuaBody* tbCheckMutableBody( lua_State* L, const char* fn )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, fn );
	tbLua_CheckUnlocked( L, body->world, fn );
	return body;
}

static void tbBodyCheckResult( lua_State* L, tbResult result, const char* fn )
{
	if ( result != tbResult_ok )
	{
		luaL_error( L, "%s: %s", fn, tbResultString( result ) );
	}
}

// Constructors -----------------------------------------------------------------------------------

// The body-level fields shared by every add_* function.
typedef struct tbLuaBodyFields
{
	tbBodyDef bodyDef;
	tbShapeDef shapeDef;
	float mass;
	bool hasMass;
} tbLuaBodyFields;

static void tbReadBodyFields( tbLuaDef* def, tbLuaBodyFields* f )
{
	f->bodyDef = tbDefaultBodyDef();
	f->shapeDef = tbDefaultShapeDef();
	f->bodyDef.type = tbBody_dynamic;
	f->hasMass = false;

	tbDef_String( def, "name", &f->bodyDef.name, TB_LUA_MAX_NAME );
	tbDef_Vec3( def, "pos", &f->bodyDef.position, tbCheck_finite );
	tbDef_Quat( def, "rot", &f->bodyDef.rotation );
	tbDef_Vec3( def, "vel", &f->bodyDef.linearVelocity, tbCheck_finite );
	tbDef_Vec3( def, "angvel", &f->bodyDef.angularVelocity, tbCheck_finite );

	bool isStatic = false;
	bool isKinematic = false;
	bool hasStatic = tbDef_Bool( def, "static", &isStatic );
	bool hasKinematic = tbDef_Bool( def, "kinematic", &isKinematic );
	int type = 0;
	if ( tbDef_Enum( def, "type", tb_bodyTypeNames, &type, "body type" ) )
	{
		if ( hasStatic || hasKinematic )
		{
			luaL_error( def->L, "%s: give either type or static/kinematic, not both", def->fn );
		}
		f->bodyDef.type = (tbBodyType)type;
	}
	else if ( isStatic && isKinematic )
	{
		luaL_error( def->L, "%s: a body cannot be both static and kinematic", def->fn );
	}
	else if ( isStatic )
	{
		f->bodyDef.type = tbBody_static;
	}
	else if ( isKinematic )
	{
		f->bodyDef.type = tbBody_kinematic;
	}

	f->hasMass = tbDef_Number( def, "mass", &f->mass, tbCheck_positive );
	bool hasDensity = tbDef_Number( def, "density", &f->shapeDef.density, tbCheck_positive );
	if ( f->hasMass && hasDensity )
	{
		luaL_error( def->L, "%s: give mass or density, not both", def->fn );
	}
	if ( f->hasMass && f->bodyDef.type != tbBody_dynamic )
	{
		luaL_error( def->L, "%s: mass is only for dynamic bodies (this one is %s)", def->fn,
					tb_bodyTypeNames[f->bodyDef.type] );
	}
	tbDef_Number( def, "friction", &f->shapeDef.friction, tbCheck_material );
	tbDef_Number( def, "restitution", &f->shapeDef.restitution, tbCheck_material );
	tbDef_Bool( def, "ccd", &f->bodyDef.isBullet );
	tbDef_Bool( def, "sensor", &f->shapeDef.isSensor );
	lua_Integer bits = 0;
	if ( tbDef_Integer( def, "layer", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		f->shapeDef.categoryBits = (uint64_t)bits;
	}
	if ( tbDef_Integer( def, "mask", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		f->shapeDef.maskBits = (uint64_t)bits;
	}
	if ( tbDef_Integer( def, "group", &bits, INT32_MIN, INT32_MAX ) )
	{
		f->shapeDef.groupIndex = (int32_t)bits;
	}
	tbDef_Number( def, "linear_damping", &f->bodyDef.linearDamping, tbCheck_damping );
	tbDef_Number( def, "angular_damping", &f->bodyDef.angularDamping, tbCheck_damping );
	tbDef_Number( def, "gravity_scale", &f->bodyDef.gravityScale, tbCheck_finite );
	tbDef_Bool( def, "fixed_rotation", &f->bodyDef.fixedRotation );
	tbDef_Vec3( def, "one_way", &f->bodyDef.oneWayNormal, tbCheck_nonZero );
	tbDef_Bool( def, "can_sleep", &f->bodyDef.enableSleep );
	tbDef_Bool( def, "awake", &f->bodyDef.isAwake );
}

// Scales the shapes' densities so the body's mass is exactly `mass` (keeps the relative densities
// of a compound and the inertia consistent with the shapes).
static tbResult tbApplyMass( tbBodyId bodyId, float mass )
{
	float current = tbBody_GetMass( bodyId );
	if ( current <= 0.0f )
	{
		return tbResult_invalidArgument;
	}
	float scale = mass / current;
	tbShapeId shapes[TB_LUA_MAX_COMPOUND];
	int count = tbBody_GetShapes( bodyId, shapes, TB_LUA_MAX_COMPOUND );
	for ( int i = 0; i < count && i < TB_LUA_MAX_COMPOUND; ++i )
	{
		tbResult result = tbShape_SetDensity( shapes[i], scale * tbShape_GetDensity( shapes[i] ), false );
		if ( result != tbResult_ok )
		{
			return result;
		}
	}
	return tbBody_ApplyMassFromShapes( bodyId );
}

// Creates the body and attaches the shapes; on failure nothing is left in the world. Pushes the
// Body (the World is at index 1).
static void tbBuildBody( lua_State* L, const char* fn, tbLuaWorld* world, const tbLuaBodyFields* f,
						 const tbLuaShapeDesc* shapes, int shapeCount )
{
	tbBodyId bodyId = tb_nullBodyId;
	tbResult result = tbCreateBodyChecked( world->id, &f->bodyDef, &bodyId );
	if ( result != tbResult_ok || TB_IS_NULL( bodyId ) )
	{
		luaL_error( L, "%s: could not create the body: %s", fn, tbResultString( result ) );
	}
	for ( int i = 0; i < shapeCount; ++i )
	{
		result = tbResult_ok;
		tbShapeId shapeId = tbLuaShape_Attach( bodyId, &f->shapeDef, shapes + i, &result );
		if ( TB_IS_NULL( shapeId ) )
		{
			tbDestroyBody( bodyId );
			luaL_error( L, "%s: could not create the %s shape%s: %s", fn, tb_shapeKindNames[shapes[i].kind],
						shapeCount > 1 ? " of the compound" : "",
						tbResultString( result != tbResult_ok ? result : tbResult_invalidArgument ) );
		}
	}
	if ( f->hasMass )
	{
		result = tbApplyMass( bodyId, f->mass );
		if ( result != tbResult_ok )
		{
			tbDestroyBody( bodyId );
			luaL_error( L, "%s: could not set the mass: %s", fn, tbResultString( result ) );
		}
	}
	tbLua_PushBody( L, 1, bodyId );
	tbLua_Guard( L, tbLuaGuard_created, fn );
}

// add_box / add_sphere / add_capsule / add_hull / add_cylinder: one shape at the body origin.
static int tbAddSingle( lua_State* L, const char* fn, int kind )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, fn );
	tbLua_CheckUnlocked( L, world, fn );
	tbLua_Guard( L, tbLuaGuard_create, fn );
	tbLuaDef def;
	tbDef_Begin( &def, L, 2, fn, "" );
	tbLuaBodyFields fields;
	tbReadBodyFields( &def, &fields );
	tbLuaShapeDesc shape;
	tbLuaShape_Read( &def, kind, false, &shape );
	tbDef_Finish( &def );
	tbBuildBody( L, fn, world, &fields, &shape, 1 );
	return 1;
}

int tbLuaWorld_AddBox( lua_State* L )
{
	return tbAddSingle( L, "add_box", 0 );
}

int tbLuaWorld_AddSphere( lua_State* L )
{
	return tbAddSingle( L, "add_sphere", 1 );
}

int tbLuaWorld_AddCapsule( lua_State* L )
{
	return tbAddSingle( L, "add_capsule", 2 );
}

int tbLuaWorld_AddHull( lua_State* L )
{
	return tbAddSingle( L, "add_hull", 3 );
}

int tbLuaWorld_AddCylinder( lua_State* L )
{
	return tbAddSingle( L, "add_cylinder", 4 );
}

// add_compound{ shapes = { {type = "box", size = ..., pos = ..., rot = ...}, ... }, <body fields> }
int tbLuaWorld_AddCompound( lua_State* L )
{
	const char* fn = "add_compound";
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, fn );
	tbLua_CheckUnlocked( L, world, fn );
	tbLua_Guard( L, tbLuaGuard_create, fn );
	tbLuaDef def;
	tbDef_Begin( &def, L, 2, fn, "" );
	tbLuaBodyFields fields;
	tbReadBodyFields( &def, &fields );

	if ( tbDef_Table( &def, "shapes" ) == false )
	{
		return luaL_error( L, "%s: shapes must be a list of shape tables, got nil", fn );
	}
	int list = lua_gettop( L );
	int count = (int)lua_rawlen( L, list );
	if ( count < 1 || count > TB_LUA_MAX_COMPOUND )
	{
		char got[96];
		return luaL_error( L, "%s: shapes must be a list of 1 to %d shape tables, got %s", fn, TB_LUA_MAX_COMPOUND,
						   tbLua_Describe( L, list, got, sizeof( got ) ) );
	}
	tbDef_Finish( &def );

	tbLuaShapeDesc* shapes = lua_newuserdatauv( L, (size_t)count * sizeof( tbLuaShapeDesc ), 0 );
	luaL_checkstack( L, count + 8, "add_compound: too many hull shapes" );
	for ( int i = 0; i < count; ++i )
	{
		char prefix[32];
		snprintf( prefix, sizeof( prefix ), "shapes[%d].", i + 1 );
		lua_rawgeti( L, list, i + 1 );
		int entry = lua_gettop( L );
		tbLuaDef shapeDef;
		tbDef_Begin( &shapeDef, L, entry, fn, prefix );
		int kind = 0;
		// tb.shape_types lists "mesh" and "heightfield" too: say why a compound does not take them.
		lua_getfield( L, entry, "type" );
		char typeName[16] = "";
		if ( lua_type( L, -1 ) == LUA_TSTRING )
		{
			snprintf( typeName, sizeof( typeName ), "%s", lua_tostring( L, -1 ) );
		}
		bool isMesh = strcmp( typeName, "mesh" ) == 0 || strcmp( typeName, "heightfield" ) == 0;
		lua_pop( L, 1 );
		if ( isMesh )
		{
			return luaL_error( L, "%s: %stype must be one of 'box', 'sphere', 'capsule', 'hull', 'cylinder' (a %s is a static body of its own: world:add_%s), got '%s'", fn, prefix, typeName, typeName, typeName );
		}
		if ( tbDef_Enum( &shapeDef, "type", tb_shapeKindNames, &kind, "shape type" ) == false )
		{
			return luaL_error( L, "%s: %stype must be one of 'box', 'sphere', 'capsule', 'hull', 'cylinder', got nil", fn, prefix );
		}
		int pushed = tbLuaShape_Read( &shapeDef, kind, true, shapes + i );
		tbDef_Finish( &shapeDef );
		// Keep a hull's holder on the stack (below nothing else of this entry) until the body is built.
		if ( pushed > 0 )
		{
			lua_replace( L, entry );
		}
		else
		{
			lua_settop( L, entry - 1 );
		}
	}

	tbBuildBody( L, fn, world, &fields, shapes, count );
	return 1;
}

// Methods ----------------------------------------------------------------------------------------

static int tbBody_Position( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "position" );
	tbLua_PushVec3( L, tbBody_GetPosition( body->id ) );
	return 3;
}

static int tbBody_Rotation( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "rotation" );
	tbLua_PushQuat( L, tbBody_GetRotation( body->id ) );
	return 4;
}

static int tbBody_Velocity( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "velocity" );
	tbLua_PushVec3( L, tbBody_GetLinearVelocity( body->id ) );
	return 3;
}

static int tbBody_AngularVelocity( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "angular_velocity" );
	tbLua_PushVec3( L, tbBody_GetAngularVelocity( body->id ) );
	return 3;
}

static int tbBody_SetPosition( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "set_position" );
	tbVec3 p = tbLua_CheckVec3Args( L, 2, "set_position", "position" );
	tbBodyCheckResult( L, tbBody_SetTransform( body->id, p, tbBody_GetRotation( body->id ) ), "set_position" );
	return 0;
}

static int tbBody_SetRotation( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "set_rotation" );
	tbQuat q = tbLua_CheckQuatArgs( L, 2, "set_rotation", "rotation" );
	tbBodyCheckResult( L, tbBody_SetTransform( body->id, tbBody_GetPosition( body->id ), q ), "set_rotation" );
	return 0;
}

static int tbBody_SetVelocity( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "set_velocity" );
	tbVec3 v = tbLua_CheckVec3Args( L, 2, "set_velocity", "velocity" );
	tbBodyCheckResult( L, tbBody_SetLinearVelocity( body->id, v ), "set_velocity" );
	return 0;
}

static int tbBody_SetAngularVelocityMethod( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "set_angular_velocity" );
	tbVec3 w = tbLua_CheckVec3Args( L, 2, "set_angular_velocity", "angular velocity" );
	tbBodyCheckResult( L, tbBody_SetAngularVelocity( body->id, w ), "set_angular_velocity" );
	return 0;
}

// body:apply_impulse({fx, fy, fz} [, {px, py, pz}]): N s, at a world point (default: centre of mass).
static int tbBody_ApplyImpulse( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "apply_impulse" );
	tbVec3 impulse = tbLua_CheckVec3( L, 2, "apply_impulse", "impulse", tbCheck_finite );
	tbVec3 point = lua_isnoneornil( L, 3 ) ? tbBody_GetWorldCenterOfMass( body->id )
										   : tbLua_CheckVec3( L, 3, "apply_impulse", "point", tbCheck_finite );
	tbBodyCheckResult( L, tbBody_ApplyLinearImpulse( body->id, impulse, point, true ), "apply_impulse" );
	return 0;
}

static int tbBody_ApplyAngularImpulseMethod( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "apply_angular_impulse" );
	tbVec3 impulse = tbLua_CheckVec3( L, 2, "apply_angular_impulse", "impulse", tbCheck_finite );
	tbBodyCheckResult( L, tbBody_ApplyAngularImpulse( body->id, impulse, true ), "apply_angular_impulse" );
	return 0;
}

// body:apply_force({fx, fy, fz} [, {px, py, pz}]): N over the next step.
static int tbBody_ApplyForceMethod( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "apply_force" );
	tbVec3 force = tbLua_CheckVec3( L, 2, "apply_force", "force", tbCheck_finite );
	tbResult result;
	if ( lua_isnoneornil( L, 3 ) )
	{
		result = tbBody_ApplyForceToCenter( body->id, force, true );
	}
	else
	{
		tbVec3 point = tbLua_CheckVec3( L, 3, "apply_force", "point", tbCheck_finite );
		result = tbBody_ApplyForce( body->id, force, point, true );
	}
	tbBodyCheckResult( L, result, "apply_force" );
	return 0;
}

static int tbBody_ApplyTorqueMethod( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "apply_torque" );
	tbVec3 torque = tbLua_CheckVec3( L, 2, "apply_torque", "torque", tbCheck_finite );
	tbBodyCheckResult( L, tbBody_ApplyTorque( body->id, torque, true ), "apply_torque" );
	return 0;
}

static int tbBody_Mass( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "mass" );
	lua_pushnumber( L, tbBody_GetMass( body->id ) );
	return 1;
}

static int tbBody_SetMass( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "set_mass" );
	float mass = tbLua_CheckNumber( L, 2, "set_mass", "mass", tbCheck_positive );
	if ( tbBody_GetType( body->id ) != tbBody_dynamic )
	{
		return luaL_error( L, "set_mass: mass is only for dynamic bodies" );
	}
	tbBodyCheckResult( L, tbApplyMass( body->id, mass ), "set_mass" );
	return 0;
}

// body:inertia() -> Ixx, Iyy, Izz: the diagonal of the local inertia about the centre of mass.
static int tbBody_Inertia( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "inertia" );
	tbMat3 inertia = tbBody_GetLocalInertia( body->id );
	lua_pushnumber( L, inertia.cx.x );
	lua_pushnumber( L, inertia.cy.y );
	lua_pushnumber( L, inertia.cz.z );
	return 3;
}

static int tbBody_CenterOfMass( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "center_of_mass" );
	tbLua_PushVec3( L, tbBody_GetWorldCenterOfMass( body->id ) );
	return 3;
}

static int tbBody_PointVelocity( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "point_velocity" );
	tbVec3 p = tbLua_CheckVec3Args( L, 2, "point_velocity", "point" );
	tbLua_PushVec3( L, tbBody_GetPointVelocity( body->id, p ) );
	return 3;
}

static int tbBody_ToWorld( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "to_world" );
	tbVec3 p = tbLua_CheckVec3Args( L, 2, "to_world", "point" );
	tbLua_PushVec3( L, tbTransformPoint( tbBody_GetTransform( body->id ), p ) );
	return 3;
}

static int tbBody_ToLocal( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "to_local" );
	tbVec3 p = tbLua_CheckVec3Args( L, 2, "to_local", "point" );
	tbLua_PushVec3( L, tbInvTransformPoint( tbBody_GetTransform( body->id ), p ) );
	return 3;
}

// body:aabb() -> minx, miny, minz, maxx, maxy, maxz
static int tbBody_Aabb( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "aabb" );
	tbAABB box = tbBody_ComputeAABB( body->id );
	tbLua_PushVec3( L, box.lowerBound );
	tbLua_PushVec3( L, box.upperBound );
	return 6;
}

// body:set_damping(linear, angular): 1/s.
static int tbBody_SetDamping( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "set_damping" );
	float linear = tbLua_CheckNumber( L, 2, "set_damping", "linear", tbCheck_damping );
	float angular =
		lua_isnoneornil( L, 3 ) ? linear : tbLua_CheckNumber( L, 3, "set_damping", "angular", tbCheck_damping );
	tbBodyCheckResult( L, tbBody_SetLinearDamping( body->id, linear ), "set_damping" );
	tbBodyCheckResult( L, tbBody_SetAngularDamping( body->id, angular ), "set_damping" );
	return 0;
}

static int tbBody_Destroy( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "destroy" );
	tbBodyId id = body->id;
	tbBodyCheckResult( L, tbDestroyBody( id ), "destroy" );
	lua_getiuservalue( L, 1, 1 );
	tbLua_UncacheBody( L, -1, id );
	lua_pop( L, 1 );
	return 0;
}

static int tbBody_IsValidMethod( lua_State* L )
{
	tbLuaBody* body = tbLua_TestUdata( L, 1, TB_LUA_BODY );
	lua_pushboolean( L, body != NULL && tbBodyIsLive( body ) );
	return 1;
}

static int tbBody_ToString( lua_State* L )
{
	tbLuaBody* body = luaL_checkudata( L, 1, TB_LUA_BODY );
	if ( tbBodyIsLive( body ) == false )
	{
		lua_pushstring( L, "Body (destroyed)" );
		return 1;
	}
	const char* name = tbBody_GetName( body->id );
	int type = (int)tbBody_GetType( body->id );
	const char* typeName = type >= 0 && type < tbBody_typeCount ? tb_bodyTypeNames[type] : "?";
	if ( name != NULL && name[0] != '\0' )
	{
		lua_pushfstring( L, "Body '%s' (%s)", name, typeName );
	}
	else
	{
		lua_pushfstring( L, "Body #%d (%s)", (int)body->id.index1, typeName );
	}
	return 1;
}

// Properties -------------------------------------------------------------------------------------

// The first shape's value (all shapes of a body share it unless a compound entry overrides it).
static tbShapeId tbFirstShape( lua_State* L, tbLuaBody* body, const char* fn )
{
	tbShapeId shape = tb_nullShapeId;
	if ( tbBody_GetShapes( body->id, &shape, 1 ) < 1 )
	{
		luaL_error( L, "%s: the body has no shapes", fn );
	}
	return shape;
}

static void tbSetShapeMaterial( lua_State* L, tbLuaBody* body, const char* fn, bool friction )
{
	float value = tbLua_CheckNumber( L, 3, fn, "value", tbCheck_material );
	tbShapeId shapes[TB_LUA_MAX_COMPOUND];
	int count = tbBody_GetShapes( body->id, shapes, TB_LUA_MAX_COMPOUND );
	for ( int i = 0; i < count && i < TB_LUA_MAX_COMPOUND; ++i )
	{
		tbResult result =
			friction ? tbShape_SetFriction( shapes[i], value ) : tbShape_SetRestitution( shapes[i], value );
		tbBodyCheckResult( L, result, fn );
	}
}

static int tbBody_GetFriction( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "friction" );
	lua_pushnumber( L, tbShape_GetFriction( tbFirstShape( L, body, "Body.friction" ) ) );
	return 1;
}

static int tbBody_SetFriction( lua_State* L )
{
	tbSetShapeMaterial( L, tbCheckMutableBody( L, "friction" ), "Body.friction", true );
	return 0;
}

static int tbBody_GetRestitution( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "restitution" );
	lua_pushnumber( L, tbShape_GetRestitution( tbFirstShape( L, body, "Body.restitution" ) ) );
	return 1;
}

static int tbBody_SetRestitution( lua_State* L )
{
	tbSetShapeMaterial( L, tbCheckMutableBody( L, "restitution" ), "Body.restitution", false );
	return 0;
}

static int tbBody_GetNameProp( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "name" );
	const char* name = tbBody_GetName( body->id );
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

static int tbBody_SetNameProp( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "name" );
	size_t length = 0;
	const char* name = "";
	if ( lua_isnil( L, 3 ) == false )
	{
		// Type first: lua_tolstring would turn a number into a string in place.
		bool isString = lua_type( L, 3 ) == LUA_TSTRING;
		name = isString ? lua_tolstring( L, 3, &length ) : "";
		if ( isString == false || length > TB_LUA_MAX_NAME || strlen( name ) != length )
		{
			char got[64];
			return luaL_error( L, "Body.name: must be a string of at most %d bytes or nil, got %s",
							   TB_LUA_MAX_NAME, tbLua_Describe( L, 3, got, sizeof( got ) ) );
		}
	}
	tbBodyCheckResult( L, tbBody_SetName( body->id, name ), "Body.name" );
	return 0;
}

static int tbBody_GetTypeProp( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "type" );
	int type = (int)tbBody_GetType( body->id );
	lua_pushstring( L, type >= 0 && type < tbBody_typeCount ? tb_bodyTypeNames[type] : "unknown" );
	return 1;
}

static int tbBody_SetTypeProp( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "type" );
	int type = tbLua_CheckEnum( L, 3, tb_bodyTypeNames, "Body.type", "body type" );
	tbBodyCheckResult( L, tbBody_SetType( body->id, (tbBodyType)type ), "Body.type" );
	return 0;
}

static int tbBody_GetSleeping( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "sleeping" );
	lua_pushboolean( L, tbBody_IsAwake( body->id ) == false );
	return 1;
}

static int tbBody_SetSleeping( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "sleeping" );
	bool sleeping = tbLua_CheckBool( L, 3, "Body.sleeping", "value" );
	tbBodyCheckResult( L, tbBody_SetAwake( body->id, sleeping == false ), "Body.sleeping" );
	return 0;
}

static int tbBody_GetAwake( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "awake" );
	lua_pushboolean( L, tbBody_IsAwake( body->id ) );
	return 1;
}

static int tbBody_SetAwakeProp( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "awake" );
	tbBodyCheckResult( L, tbBody_SetAwake( body->id, tbLua_CheckBool( L, 3, "Body.awake", "value" ) ), "Body.awake" );
	return 0;
}

static int tbBody_GetGravityScaleProp( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "gravity_scale" );
	lua_pushnumber( L, tbBody_GetGravityScale( body->id ) );
	return 1;
}

static int tbBody_SetGravityScaleProp( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "gravity_scale" );
	float scale = tbLua_CheckNumber( L, 3, "Body.gravity_scale", "value", tbCheck_finite );
	if ( tbAbsFloat( scale ) > TB_MAX_GRAVITY_SCALE )
	{
		return luaL_error( L, "Body.gravity_scale: value must be a number in [-1e6, 1e6], got %g", (double)scale );
	}
	tbBodyCheckResult( L, tbBody_SetGravityScale( body->id, scale ), "Body.gravity_scale" );
	return 0;
}

static int tbBody_GetCcd( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "ccd" );
	lua_pushboolean( L, tbBody_IsBullet( body->id ) );
	return 1;
}

static int tbBody_SetCcd( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "ccd" );
	tbBodyCheckResult( L, tbBody_SetBullet( body->id, tbLua_CheckBool( L, 3, "Body.ccd", "value" ) ), "Body.ccd" );
	return 0;
}

// layer, mask and group: read from the first shape, written to every shape of the body.
enum
{
	tbFilterField_layer,
	tbFilterField_mask,
	tbFilterField_group
};

static int tbGetFilterField( lua_State* L, const char* fn, int field )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, fn );
	uint64_t bits[2] = { 0, 0 };
	int32_t group = 0;
	tbShape_GetFilter( tbFirstShape( L, body, fn ), bits, bits + 1, &group );
	lua_pushinteger( L, field == tbFilterField_group ? (lua_Integer)group : (lua_Integer)bits[field] );
	return 1;
}

static int tbSetFilterField( lua_State* L, const char* fn, int field )
{
	tbLuaBody* body = tbCheckMutableBody( L, fn );
	int isInteger = 0;
	lua_Integer value = lua_tointegerx( L, 3, &isInteger );
	if ( isInteger == 0 || lua_type( L, 3 ) != LUA_TNUMBER ||
		 ( field == tbFilterField_group && ( value < INT32_MIN || value > INT32_MAX ) ) )
	{
		char got[64];
		return luaL_error( L, "Body.%s: must be an integer%s, got %s", fn,
						   field == tbFilterField_group ? " in [-2^31, 2^31 - 1]" : " of layer bits",
						   tbLua_Describe( L, 3, got, sizeof( got ) ) );
	}
	tbShapeId shapes[TB_LUA_MAX_COMPOUND];
	int count = tbBody_GetShapes( body->id, shapes, TB_LUA_MAX_COMPOUND );
	for ( int i = 0; i < count && i < TB_LUA_MAX_COMPOUND; ++i )
	{
		uint64_t bits[2] = { 0, 0 };
		int32_t group = 0;
		tbShape_GetFilter( shapes[i], bits, bits + 1, &group );
		if ( field == tbFilterField_group )
		{
			group = (int32_t)value;
		}
		else
		{
			bits[field] = (uint64_t)value;
		}
		tbBodyCheckResult( L, tbShape_SetFilter( shapes[i], bits[0], bits[1], group ), fn );
	}
	return 0;
}

static int tbBody_GetLayer( lua_State* L ) { return tbGetFilterField( L, "layer", tbFilterField_layer ); }
static int tbBody_SetLayer( lua_State* L ) { return tbSetFilterField( L, "layer", tbFilterField_layer ); }
static int tbBody_GetMask( lua_State* L ) { return tbGetFilterField( L, "mask", tbFilterField_mask ); }
static int tbBody_SetMask( lua_State* L ) { return tbSetFilterField( L, "mask", tbFilterField_mask ); }
static int tbBody_GetGroup( lua_State* L ) { return tbGetFilterField( L, "group", tbFilterField_group ); }
static int tbBody_SetGroup( lua_State* L ) { return tbSetFilterField( L, "group", tbFilterField_group ); }

static int tbBody_GetSensor( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "sensor" );
	lua_pushboolean( L, tbShape_IsSensor( tbFirstShape( L, body, "Body.sensor" ) ) );
	return 1;
}

static int tbBody_SetSensor( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "sensor" );
	bool sensor = tbLua_CheckBool( L, 3, "Body.sensor", "value" );
	tbShapeId shapes[TB_LUA_MAX_COMPOUND];
	int count = tbBody_GetShapes( body->id, shapes, TB_LUA_MAX_COMPOUND );
	for ( int i = 0; i < count && i < TB_LUA_MAX_COMPOUND; ++i )
	{
		tbBodyCheckResult( L, tbShape_SetSensor( shapes[i], sensor ), "Body.sensor" );
	}
	return 0;
}

static int tbBody_GetFixedRotation( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "fixed_rotation" );
	lua_pushboolean( L, tbBody_IsFixedRotation( body->id ) );
	return 1;
}

static int tbBody_SetFixedRotationProp( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "fixed_rotation" );
	bool flag = tbLua_CheckBool( L, 3, "Body.fixed_rotation", "value" );
	tbBodyCheckResult( L, tbBody_SetFixedRotation( body->id, flag ), "Body.fixed_rotation" );
	return 0;
}

static int tbBody_GetOneWayProp( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "one_way" );
	tbVec3 normal = tbBody_GetOneWay( body->id );
	if ( tbLengthSquared( normal ) == 0.0f )
	{
		lua_pushnil( L );
	}
	else
	{
		tbLua_PushVec3Table( L, normal );
	}
	return 1;
}

static int tbBody_SetOneWayProp( lua_State* L )
{
	tbLuaBody* body = tbCheckMutableBody( L, "one_way" );
	tbVec3 normal = tb_vec3_zero;
	if ( lua_isnil( L, 3 ) == false && !( lua_isboolean( L, 3 ) && lua_toboolean( L, 3 ) == 0 ) )
	{
		normal = tbLua_CheckVec3( L, 3, "Body.one_way", "value", tbCheck_nonZero );
	}
	tbBodyCheckResult( L, tbBody_SetOneWay( body->id, normal ), "Body.one_way" );
	return 0;
}

static int tbBody_GetWorldProp( lua_State* L )
{
	tbLua_CheckBody( L, 1, "world" );
	lua_getiuservalue( L, 1, 1 );
	return 1;
}

static int tbBody_GetIdProp( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "id" );
	lua_pushinteger( L, body->id.index1 );
	return 1;
}

static int tbBody_GetShapeCount( lua_State* L )
{
	tbLuaBody* body = tbLua_CheckBody( L, 1, "shape_count" );
	tbShapeId probe;
	lua_pushinteger( L, tbBody_GetShapes( body->id, &probe, 0 ) );
	return 1;
}

void tbLua_OpenBody( lua_State* L )
{
	static const luaL_Reg methods[] = {
		{ "position", tbBody_Position },
		{ "rotation", tbBody_Rotation },
		{ "velocity", tbBody_Velocity },
		{ "angular_velocity", tbBody_AngularVelocity },
		{ "set_position", tbBody_SetPosition },
		{ "set_rotation", tbBody_SetRotation },
		{ "set_velocity", tbBody_SetVelocity },
		{ "set_angular_velocity", tbBody_SetAngularVelocityMethod },
		{ "apply_impulse", tbBody_ApplyImpulse },
		{ "apply_angular_impulse", tbBody_ApplyAngularImpulseMethod },
		{ "apply_force", tbBody_ApplyForceMethod },
		{ "apply_torque", tbBody_ApplyTorqueMethod },
		{ "mass", tbBody_Mass },
		{ "set_mass", tbBody_SetMass },
		{ "inertia", tbBody_Inertia },
		{ "center_of_mass", tbBody_CenterOfMass },
		{ "point_velocity", tbBody_PointVelocity },
		{ "to_world", tbBody_ToWorld },
		{ "to_local", tbBody_ToLocal },
		{ "aabb", tbBody_Aabb },
		{ "set_damping", tbBody_SetDamping },
		{ "destroy", tbBody_Destroy },
		{ "is_valid", tbBody_IsValidMethod },
		{ NULL, NULL },
	};
	static const tbLuaProperty properties[] = {
		{ "friction", tbBody_GetFriction, tbBody_SetFriction },
		{ "restitution", tbBody_GetRestitution, tbBody_SetRestitution },
		{ "name", tbBody_GetNameProp, tbBody_SetNameProp },
		{ "type", tbBody_GetTypeProp, tbBody_SetTypeProp },
		{ "sleeping", tbBody_GetSleeping, tbBody_SetSleeping },
		{ "awake", tbBody_GetAwake, tbBody_SetAwakeProp },
		{ "gravity_scale", tbBody_GetGravityScaleProp, tbBody_SetGravityScaleProp },
		{ "ccd", tbBody_GetCcd, tbBody_SetCcd },
		{ "layer", tbBody_GetLayer, tbBody_SetLayer },
		{ "mask", tbBody_GetMask, tbBody_SetMask },
		{ "group", tbBody_GetGroup, tbBody_SetGroup },
		{ "sensor", tbBody_GetSensor, tbBody_SetSensor },
		{ "fixed_rotation", tbBody_GetFixedRotation, tbBody_SetFixedRotationProp },
		{ "one_way", tbBody_GetOneWayProp, tbBody_SetOneWayProp },
		{ "world", tbBody_GetWorldProp, NULL },
		{ "id", tbBody_GetIdProp, NULL },
		{ "shape_count", tbBody_GetShapeCount, NULL },
		{ NULL, NULL, NULL },
	};
	static const tbLuaType type = { "Body", methods, properties, NULL, tbBody_ToString, NULL };
	tbLua_RegisterType( L, &type );
}
