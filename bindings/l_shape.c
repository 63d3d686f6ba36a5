// Tumble Lua bindings: reading shape geometry (box, sphere, capsule, hull) from Lua tables, shared
// by add_box/add_sphere/... and the entries of add_compound.
// SPDX-License-Identifier: MIT
#include "l_common.h"

#include <stdio.h>

const char* const tb_shapeKindNames[] = { "box", "sphere", "capsule", "hull", NULL };

#define TB_LUA_HULL_HOLDER "tumble.HullHolder"

// A hull built from Lua input lives in this userdata until the body has cloned it, so any Lua error
// raised in between (a bad field in a later compound entry) frees it through the GC.
typedef struct tbHullHolder
{
	tbHull* hull;
} tbHullHolder;

static int tbHullHolder_Gc( lua_State* L )
{
	tbHullHolder* holder = luaL_checkudata( L, 1, TB_LUA_HULL_HOLDER );
	if ( holder->hull != NULL )
	{
		tbDestroyHull( holder->hull );
		holder->hull = NULL;
	}
	return 0;
}

void tbLua_OpenShape( lua_State* L )
{
	if ( luaL_newmetatable( L, TB_LUA_HULL_HOLDER ) != 0 )
	{
		lua_pushcfunction( L, tbHullHolder_Gc );
		lua_setfield( L, -2, "__gc" );
	}
	lua_pop( L, 1 );
}

static const char* tbHullResultText( tbResult result )
{
	switch ( result )
	{
		case tbResult_degenerateHull:
			return "points must span a volume (they are coplanar, collinear or coincident)";
		case tbResult_tooManyPoints:
			return "too many points for a hull";
		case tbResult_outOfMemory:
			return "out of memory building the hull";
		default:
			return "points must be at least 4 finite points {x, y, z}";
	}
}

// Builds the hull of the points table (on the stack top) transformed by local, pushes its holder.
static const tbHull* tbReadHull( tbLuaDef* def, tbTransform local )
{
	lua_State* L = def->L;
	int points = lua_gettop( L );
	int count = (int)lua_rawlen( L, points );
	char got[160];
	if ( count < 4 || count > TB_MAX_HULL_POINTS )
	{
		return luaL_error( L, "%s: %spoints must be a list of 4 to %d points {x, y, z}, got %s", def->fn, def->prefix,
						   TB_MAX_HULL_POINTS, tbLua_Describe( L, points, got, sizeof( got ) ) ),
			   NULL;
	}

	tbVec3* buffer = lua_newuserdatauv( L, (size_t)count * sizeof( tbVec3 ), 0 );
	for ( int i = 0; i < count; ++i )
	{
		lua_rawgeti( L, points, i + 1 );
		char what[64];
		snprintf( what, sizeof( what ), "%spoints[%d]", def->prefix, i + 1 );
		buffer[i] = tbTransformPoint( local, tbLua_CheckVec3( L, -1, def->fn, what, tbCheck_finite ) );
		lua_pop( L, 1 );
	}

	tbHullHolder* holder = lua_newuserdatauv( L, sizeof( tbHullHolder ), 0 );
	holder->hull = NULL;
	luaL_setmetatable( L, TB_LUA_HULL_HOLDER );

	tbResult result = tbResult_ok;
	holder->hull = tbComputeHull( buffer, count, &result );
	if ( holder->hull == NULL )
	{
		luaL_error( L, "%s: %s%s", def->fn, def->prefix,
					tbHullResultText( result == tbResult_ok ? tbResult_invalidArgument : result ) );
	}

	// Leave only the holder: drop the points table and the buffer under it.
	lua_replace( L, points );
	lua_settop( L, points );
	return holder->hull;
}

int tbLuaShape_Read( tbLuaDef* def, int kind, bool placement, tbLuaShapeDesc* desc )
{
	desc->kind = kind;
	desc->local = tb_transformIdentity;
	desc->hull = NULL;
	desc->hasDensity = desc->hasFriction = desc->hasRestitution = false;

	if ( placement )
	{
		tbDef_Vec3( def, "pos", &desc->local.p, tbCheck_finite );
		tbDef_Quat( def, "rot", &desc->local.q );
		desc->hasDensity = tbDef_Number( def, "density", &desc->density, tbCheck_positive );
		desc->hasFriction = tbDef_Number( def, "friction", &desc->friction, tbCheck_nonNegative );
		desc->hasRestitution = tbDef_Number( def, "restitution", &desc->restitution, tbCheck_nonNegative );
	}

	switch ( kind )
	{
		case 0: {
			tbVec3 size = tbMakeVec3( 1.0f, 1.0f, 1.0f );
			tbDef_Vec3( def, "size", &size, tbCheck_positive );
			desc->halfExtents = tbMulSV( 0.5f, size );
			return 0;
		}

		case 1: {
			float radius = 0.5f;
			tbDef_Number( def, "radius", &radius, tbCheck_positive );
			desc->sphere.center = desc->local.p;
			desc->sphere.radius = radius;
			return 0;
		}

		case 2: {
			// The capsule's axis is the local z axis (upright by default, z is up).
			float radius = 0.25f;
			float halfLength = 0.5f;
			tbDef_Number( def, "radius", &radius, tbCheck_positive );
			tbDef_Number( def, "half_length", &halfLength, tbCheck_positive );
			tbVec3 axis = tbRotate( desc->local.q, tbMakeVec3( 0.0f, 0.0f, halfLength ) );
			desc->capsule.center1 = tbSub( desc->local.p, axis );
			desc->capsule.center2 = tbAdd( desc->local.p, axis );
			desc->capsule.radius = radius;
			return 0;
		}

		default: {
			if ( tbDef_Table( def, "points" ) == false )
			{
				luaL_error( def->L, "%s: %spoints must be a list of 4 to %d points {x, y, z}, got nil", def->fn,
							def->prefix, TB_MAX_HULL_POINTS );
			}
			desc->hull = tbReadHull( def, desc->local );
			return 1;
		}
	}
}

tbShapeId tbLuaShape_Attach( tbBodyId bodyId, const tbShapeDef* shapeDef, const tbLuaShapeDesc* desc, tbResult* result )
{
	tbShapeDef def = *shapeDef;
	if ( desc->hasDensity )
	{
		def.density = desc->density;
	}
	if ( desc->hasFriction )
	{
		def.friction = desc->friction;
	}
	if ( desc->hasRestitution )
	{
		def.restitution = desc->restitution;
	}

	switch ( desc->kind )
	{
		case 0:
			return tbCreateBoxShape( bodyId, &def, desc->halfExtents, desc->local, result );
		case 1:
			return tbCreateSphereShape( bodyId, &def, &desc->sphere, result );
		case 2:
			return tbCreateCapsuleShape( bodyId, &def, &desc->capsule, result );
		default:
			return tbCreateHullShape( bodyId, &def, desc->hull, result );
	}
}
