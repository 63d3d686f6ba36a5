// Tumble Lua bindings: the World's ray and shape casts (world:raycast, world:raycast_all,
// world:cast{...}).
// SPDX-License-Identifier: MIT
#include "l_common.h"

#include <stdlib.h>

// Hits gathered by a cast callback. The callbacks run inside the physics library, so they must
// never raise a Lua error (a longjmp through the query): they only append to this C buffer, and a
// failed allocation stops the cast (the hits so far are kept).
typedef struct tbHitList
{
	tbRayResult* hits;
	int count;
	int capacity;
} tbHitList;

static float tbCollectHit( tbShapeId shapeId, tbVec3 point, tbVec3 normal, float fraction, void* context )
{
	tbHitList* list = context;
	if ( list->count == list->capacity )
	{
		int capacity = list->capacity > 0 ? 2 * list->capacity : 16;
		tbRayResult* hits = realloc( list->hits, (size_t)capacity * sizeof( tbRayResult ) );
		if ( hits == NULL )
		{
			return 0.0f;
		}
		list->hits = hits;
		list->capacity = capacity;
	}
	tbRayResult* hit = list->hits + list->count++;
	hit->shapeId = shapeId;
	hit->bodyId = tbShape_GetBody( shapeId );
	hit->point = point;
	hit->normal = normal;
	hit->fraction = fraction;
	hit->hit = true;
	return 1.0f;
}

static int tbCompareHits( const void* a, const void* b )
{
	const tbRayResult* ha = a;
	const tbRayResult* hb = b;
	if ( ha->fraction != hb->fraction )
	{
		return ha->fraction < hb->fraction ? -1 : 1;
	}
	// Equal fractions: by shape index, so the order does not depend on the trees' layout.
	return ha->shapeId.index1 < hb->shapeId.index1 ? -1 : ( ha->shapeId.index1 > hb->shapeId.index1 );
}

// Pushes { body =, point =, normal =, fraction = }.
static void tbPushHit( lua_State* L, int worldIndex, const tbRayResult* hit )
{
	lua_createtable( L, 0, 4 );
	tbLua_PushBody( L, worldIndex, hit->bodyId );
	lua_setfield( L, -2, "body" );
	tbLua_PushVec3Table( L, hit->point );
	lua_setfield( L, -2, "point" );
	tbLua_PushVec3Table( L, hit->normal );
	lua_setfield( L, -2, "normal" );
	lua_pushnumber( L, hit->fraction );
	lua_setfield( L, -2, "fraction" );
}

// Pushes the hits as a list ordered by fraction (freeing the buffer first, so a Lua error while
// building the table cannot leak it).
static void tbPushHitList( lua_State* L, int worldIndex, tbHitList* list )
{
	int count = list->count;
	tbRayResult* hits = lua_newuserdatauv( L, (size_t)( count > 0 ? count : 1 ) * sizeof( tbRayResult ), 0 );
	for ( int i = 0; i < count; ++i )
	{
		hits[i] = list->hits[i];
	}
	free( list->hits );
	list->hits = NULL;
	qsort( hits, (size_t)count, sizeof( tbRayResult ), tbCompareHits );
	lua_createtable( L, count, 0 );
	for ( int i = 0; i < count; ++i )
	{
		tbPushHit( L, worldIndex, hits + i );
		lua_rawseti( L, -2, i + 1 );
	}
}

// The optional mask argument of the rays: the layer bits they hit.
static tbQueryFilter tbCheckRayMask( lua_State* L, int index, const char* fn )
{
	tbQueryFilter filter = tbDefaultQueryFilter();
	if ( lua_isnoneornil( L, index ) == false )
	{
		if ( lua_isinteger( L, index ) == 0 )
		{
			char got[64];
			luaL_error( L, "%s: mask must be an integer of layer bits, got %s", fn,
						tbLua_Describe( L, index, got, sizeof( got ) ) );
		}
		filter.maskBits = (uint64_t)lua_tointeger( L, index );
	}
	return filter;
}

// world:raycast(from, to [, mask]) -> { body, point, normal, fraction } or nil
int tbLuaWorld_RayCast( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "raycast" );
	tbVec3 from = tbLua_CheckVec3( L, 2, "raycast", "from", tbCheck_finite );
	tbVec3 to = tbLua_CheckVec3( L, 3, "raycast", "to", tbCheck_finite );
	tbQueryFilter filter = tbCheckRayMask( L, 4, "raycast" );
	tbRayResult hit = tbWorld_CastRayClosest( world->id, from, tbSub( to, from ), filter );
	if ( hit.hit == false )
	{
		lua_pushnil( L );
		return 1;
	}
	tbPushHit( L, 1, &hit );
	return 1;
}

// world:raycast_all(from, to [, mask]) -> { hit, ... } ordered by fraction
int tbLuaWorld_RayCastAll( lua_State* L )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, "raycast_all" );
	tbVec3 from = tbLua_CheckVec3( L, 2, "raycast_all", "from", tbCheck_finite );
	tbVec3 to = tbLua_CheckVec3( L, 3, "raycast_all", "to", tbCheck_finite );
	tbQueryFilter filter = tbCheckRayMask( L, 4, "raycast_all" );
	tbHitList list = { NULL, 0, 0 };
	tbWorld_CastRay( world->id, from, tbSub( to, from ), filter, tbCollectHit, &list );
	tbPushHitList( L, 1, &list );
	return 1;
}

static const char* const tb_castShapeNames[] = { "sphere", "capsule", "box", NULL };

// world:cast{ shape = "sphere" | "capsule" | "box", radius, half_length, size, from, rot, to,
//             mask, layer, all } or world:cast{ body = b, to, mask, layer, all }
int tbLuaWorld_Cast( lua_State* L )
{
	const char* fn = "cast";
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, fn );
	tbLuaDef def;
	tbDef_Begin( &def, L, 2, fn, "" );

	tbBodyId bodyId = tb_nullBodyId;
	if ( tbDef_Value( &def, "body" ) )
	{
		if ( tbLua_ToBody( L, -1, &bodyId ) == false )
		{
			char got[64];
			return luaL_error( L, "%s: body must be a Body, got %s", fn, tbLua_Describe( L, -1, got, sizeof( got ) ) );
		}
		tbLua_CheckBody( L, -1, fn );
		lua_pop( L, 1 );
	}
	int kind = -1;
	if ( tbDef_Enum( &def, "shape", tb_castShapeNames, &kind, "cast shape" ) && TB_IS_NULL( bodyId ) == false )
	{
		return luaL_error( L, "%s: give shape or body, not both", fn );
	}
	if ( kind < 0 && TB_IS_NULL( bodyId ) )
	{
		return luaL_error( L, "%s: shape must be \"sphere\", \"capsule\" or \"box\" (or give body), got nil", fn );
	}

	tbTransform xf = tb_transformIdentity;
	bool hasFrom = tbDef_Vec3( &def, "from", &xf.p, tbCheck_finite );
	bool hasRot = tbDef_Quat( &def, "rot", &xf.q );
	if ( TB_IS_NULL( bodyId ) == false && ( hasFrom || hasRot ) )
	{
		return luaL_error( L, "%s: a body is cast from its own pose: from and rot are not allowed with body", fn );
	}
	if ( TB_IS_NULL( bodyId ) && hasFrom == false )
	{
		return luaL_error( L, "%s: from must be 3 finite numbers, got nil", fn );
	}
	tbVec3 to = tb_vec3_zero;
	if ( tbDef_Vec3( &def, "to", &to, tbCheck_finite ) == false )
	{
		return luaL_error( L, "%s: to must be 3 finite numbers, got nil", fn );
	}

	// The shape in its own frame, as the constructors make it: a capsule along z, a box by its
	// full edge lengths (its 8 corners are a hull proxy as they are).
	float radius = kind == 1 ? 0.25f : 0.5f;
	float halfLength = 0.5f;
	tbVec3 size = tbMakeVec3( 1.0f, 1.0f, 1.0f );
	if ( kind == 0 || kind == 1 )
	{
		tbDef_Number( &def, "radius", &radius, tbCheck_positive );
	}
	if ( kind == 1 )
	{
		tbDef_Number( &def, "half_length", &halfLength, tbCheck_positive );
	}
	if ( kind == 2 )
	{
		tbDef_Vec3( &def, "size", &size, tbCheck_positive );
	}
	tbQueryFilter filter = tbDefaultQueryFilter();
	lua_Integer bits = 0;
	if ( tbDef_Integer( &def, "mask", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		filter.maskBits = (uint64_t)bits;
	}
	if ( tbDef_Integer( &def, "layer", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		filter.categoryBits = (uint64_t)bits;
	}
	bool all = false;
	tbDef_Bool( &def, "all", &all );
	tbDef_Finish( &def );

	tbVec3 points[8];
	tbShapeProxy proxy = { .points = points, .count = 1, .radius = 0.0f };
	if ( kind == 0 )
	{
		points[0] = tb_vec3_zero;
		proxy.radius = radius;
	}
	else if ( kind == 1 )
	{
		points[0] = tbMakeVec3( 0.0f, 0.0f, -halfLength );
		points[1] = tbMakeVec3( 0.0f, 0.0f, halfLength );
		proxy.count = 2;
		proxy.radius = radius;
	}
	else if ( kind == 2 )
	{
		tbVec3 h = tbMulSV( 0.5f, size );
		for ( int i = 0; i < 8; ++i )
		{
			points[i] = tbMakeVec3( i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z );
		}
		proxy.count = 8;
	}

	tbHitList list = { NULL, 0, 0 };
	tbRayResult closest = { 0 };
	bool isBody = TB_IS_NULL( bodyId ) == false;
	tbVec3 translation = tbSub( to, isBody ? tbBody_GetPosition( bodyId ) : xf.p );
	if ( all && isBody )
	{
		tbWorld_CastBody( bodyId, translation, filter, tbCollectHit, &list );
	}
	else if ( all )
	{
		tbWorld_CastShape( world->id, &proxy, xf, translation, filter, tbCollectHit, &list );
	}
	else
	{
		closest = isBody ? tbWorld_CastBodyClosest( bodyId, translation, filter )
						 : tbWorld_CastShapeClosest( world->id, &proxy, xf, translation, filter );
	}
	if ( all )
	{
		tbPushHitList( L, 1, &list );
	}
	else if ( closest.hit )
	{
		tbPushHit( L, 1, &closest );
	}
	else
	{
		lua_pushnil( L );
	}
	return 1;
}
