// Tumble Lua bindings: reading shape geometry (box, sphere, capsule, hull, cylinder) from Lua
// tables, shared by add_box/add_sphere/... and the entries of add_compound.
// SPDX-License-Identifier: MIT
#include "l_common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char* const tb_shapeKindNames[] = { "box", "sphere", "capsule", "hull", "cylinder", NULL };

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
			return "not enough memory for the hull";
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
		desc->hasFriction = tbDef_Number( def, "friction", &desc->friction, tbCheck_material );
		desc->hasRestitution = tbDef_Number( def, "restitution", &desc->restitution, tbCheck_material );
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

		case 4: {
			// Along the local z axis, as the capsule; half_height, as the capsule's half_length,
			// is half the distance between the cap centres.
			float radius = 0.5f;
			float halfHeight = 0.5f;
			tbDef_Number( def, "radius", &radius, tbCheck_positive );
			tbDef_Number( def, "half_height", &halfHeight, tbCheck_positive );
			desc->cylinder = tbMakeCylinder( desc->local.p, desc->local.q, radius, halfHeight );
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
		case 4:
			return tbCreateCylinderShape( bodyId, &def, &desc->cylinder, result );
		default:
			return tbCreateHullShape( bodyId, &def, desc->hull, result );
	}
}

// Meshes -----------------------------------------------------------------------------------------

// One vertex {x, y, z} of the list at index (1-based position i), or an error naming it.
static tbVec3 tbReadMeshVertex( lua_State* L, int list, int i, const char* fn )
{
	lua_rawgeti( L, list, i );
	float v[3];
	if ( lua_type( L, -1 ) != LUA_TTABLE || lua_rawlen( L, -1 ) != 3 || tbLua_ReadFloats( L, lua_gettop( L ), v, 3, tbCheck_finite ) == false ||
		 tbAbsFloat( v[0] ) > TB_MAX_POSITION || tbAbsFloat( v[1] ) > TB_MAX_POSITION || tbAbsFloat( v[2] ) > TB_MAX_POSITION )
	{
		char got[96];
		// lua_pushfstring has no %g: the limit is TB_MAX_POSITION.
		luaL_error( L, "%s: vertices[%d] must be 3 finite numbers {x, y, z} within 1e6 m, got %s", fn, i,
					tbLua_Describe( L, -1, got, sizeof( got ) ) );
	}
	lua_pop( L, 1 );
	return tbMakeVec3( v[0], v[1], v[2] );
}

// A 1-based vertex index from Lua at the top of the stack, as a 0-based index; `where` names it.
static int32_t tbReadMeshIndex( lua_State* L, const char* fn, const char* where, int vertexCount )
{
	int isInteger = 0;
	lua_Integer i = lua_tointegerx( L, -1, &isInteger );
	if ( isInteger == 0 || i < 1 || i > vertexCount )
	{
		char got[96];
		luaL_error( L, "%s: %s must be a vertex index from 1 to %d, got %s", fn, where, vertexCount,
					tbLua_Describe( L, -1, got, sizeof( got ) ) );
	}
	lua_pop( L, 1 );
	return (int32_t)( i - 1 );
}

// The start add_mesh and add_heightfield share: the world (unlocked), then the fields of the table
// at 2 both take: the static body's name and pose, the surface's material and filter, and a clear
// refusal of the fields that would ask for mass or motion (the geometry has no inside). `kinds`
// names the geometry in the messages ("meshes"). The caller goes on reading def.
static tbLuaWorld* tbBeginStaticGeometry( lua_State* L, const char* fn, const char* kinds, tbLuaDef* def,
										  tbBodyDef* bodyDef, tbShapeDef* shapeDef )
{
	tbLuaWorld* world = tbLua_CheckWorld( L, 1, fn );
	tbLua_CheckUnlocked( L, world, fn );
	tbLua_Guard( L, tbLuaGuard_create, fn );
	tbDef_Begin( def, L, 2, fn, "" );
	*bodyDef = tbDefaultBodyDef();
	*shapeDef = tbDefaultShapeDef();
	bodyDef->type = tbBody_static;
	tbDef_String( def, "name", &bodyDef->name, 31 );
	tbDef_Vec3( def, "pos", &bodyDef->position, tbCheck_finite );
	tbDef_Quat( def, "rot", &bodyDef->rotation );
	tbDef_Number( def, "friction", &shapeDef->friction, tbCheck_material );
	tbDef_Number( def, "restitution", &shapeDef->restitution, tbCheck_material );
	tbDef_Bool( def, "sensor", &shapeDef->isSensor );
	lua_Integer bits = 0;
	if ( tbDef_Integer( def, "layer", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		shapeDef->categoryBits = (uint64_t)bits;
	}
	if ( tbDef_Integer( def, "mask", &bits, LUA_MININTEGER, LUA_MAXINTEGER ) )
	{
		shapeDef->maskBits = (uint64_t)bits;
	}
	if ( tbDef_Integer( def, "group", &bits, INT32_MIN, INT32_MAX ) )
	{
		shapeDef->groupIndex = (int32_t)bits;
	}
	char expected[64];
	bool isStatic = true;
	if ( tbDef_Bool( def, "static", &isStatic ) && isStatic == false )
	{
		snprintf( expected, sizeof( expected ), "true (%s are static level geometry)", kinds );
		tbDef_FieldError( def, "static", expected );
	}
	bool isKinematic = false;
	if ( tbDef_Bool( def, "kinematic", &isKinematic ) && isKinematic )
	{
		snprintf( expected, sizeof( expected ), "false (%s are static level geometry)", kinds );
		tbDef_FieldError( def, "kinematic", expected );
	}
	const char* massFields[] = { "mass", "density", "vel", "angvel", "ccd" };
	for ( int i = 0; i < 5; ++i )
	{
		if ( tbDef_Value( def, massFields[i] ) )
		{
			lua_pop( L, 1 );
			luaL_error( L, "%s: %s is not allowed: %s are static (no mass, no motion)", def->fn, massFields[i], kinds );
		}
	}
	return world;
}

static tbBodyId tbCreateStaticGeometryBody( lua_State* L, tbLuaWorld* world, const tbBodyDef* bodyDef, const char* fn )
{
	tbBodyId bodyId = tb_nullBodyId;
	tbResult result = tbCreateBodyChecked( world->id, bodyDef, &bodyId );
	if ( result != tbResult_ok || TB_IS_NULL( bodyId ) )
	{
		luaL_error( L, "%s: could not create the body: %s", fn, tbResultString( result ) );
	}
	return bodyId;
}

// world:add_mesh{ vertices = {{x,y,z}, ...}, triangles = {{1,2,3}, ...} or {1,2,3, 4,5,6},
//                 pos, rot, friction, restitution, name, layer, mask, group, sensor }
int tbLuaWorld_AddMesh( lua_State* L )
{
	const char* fn = "add_mesh";
	tbLuaDef def;
	tbBodyDef bodyDef;
	tbShapeDef shapeDef;
	tbLuaWorld* world = tbBeginStaticGeometry( L, fn, "meshes", &def, &bodyDef, &shapeDef );

	if ( tbDef_Table( &def, "vertices" ) == false )
	{
		return luaL_error( L, "%s: vertices must be a list of at least 3 points {x, y, z}, got nil", fn );
	}
	int vertexList = lua_gettop( L );
	lua_Integer vertexCount = (lua_Integer)lua_rawlen( L, vertexList );
	if ( vertexCount < 3 || vertexCount > TB_MAX_MESH_VERTICES )
	{
		return luaL_error( L, "%s: vertices must be a list of 3 to %d points {x, y, z}, got %d", fn, TB_MAX_MESH_VERTICES,
						   (int)vertexCount );
	}
	if ( tbDef_Table( &def, "triangles" ) == false )
	{
		return luaL_error( L, "%s: triangles must be a list of {i, j, k} vertex indices (or a flat list of them), got nil", fn );
	}
	int triangleList = lua_gettop( L );
	tbDef_Finish( &def );

	// Nested {{1,2,3}, ...} or flat {1,2,3, 4,5,6}: decided by the first entry.
	lua_Integer length = (lua_Integer)lua_rawlen( L, triangleList );
	lua_rawgeti( L, triangleList, 1 );
	bool flat = lua_type( L, -1 ) != LUA_TTABLE;
	lua_pop( L, 1 );
	lua_Integer triangleCount = flat ? length / 3 : length;
	if ( length < 1 || ( flat && length % 3 != 0 ) || triangleCount > TB_MAX_MESH_TRIANGLES )
	{
		return luaL_error( L, "%s: triangles must hold 1 to %d triangles of 3 vertex indices, got %d %s", fn,
						   TB_MAX_MESH_TRIANGLES, (int)length, flat ? "indices" : "entries" );
	}

	// Scratch in userdata, so an error below frees it through the GC.
	tbVec3* vertices = lua_newuserdatauv( L, sizeof( tbVec3 ) * (size_t)vertexCount, 0 );
	int32_t* indices = lua_newuserdatauv( L, sizeof( int32_t ) * 3 * (size_t)triangleCount, 0 );
	for ( int i = 1; i <= (int)vertexCount; ++i )
	{
		vertices[i - 1] = tbReadMeshVertex( L, vertexList, i, fn );
	}
	char where[64];
	for ( int t = 0; t < (int)triangleCount; ++t )
	{
		if ( flat )
		{
			for ( int k = 0; k < 3; ++k )
			{
				lua_rawgeti( L, triangleList, 3 * t + k + 1 );
				snprintf( where, sizeof( where ), "triangles[%d]", 3 * t + k + 1 );
				indices[3 * t + k] = tbReadMeshIndex( L, fn, where, (int)vertexCount );
			}
			continue;
		}
		lua_rawgeti( L, triangleList, t + 1 );
		if ( lua_type( L, -1 ) != LUA_TTABLE || lua_rawlen( L, -1 ) != 3 )
		{
			char got[96];
			return luaL_error( L, "%s: triangles[%d] must be 3 vertex indices {i, j, k}, got %s", fn, t + 1,
							   tbLua_Describe( L, -1, got, sizeof( got ) ) );
		}
		int entry = lua_gettop( L );
		for ( int k = 0; k < 3; ++k )
		{
			lua_rawgeti( L, entry, k + 1 );
			snprintf( where, sizeof( where ), "triangles[%d][%d]", t + 1, k + 1 );
			indices[3 * t + k] = tbReadMeshIndex( L, fn, where, (int)vertexCount );
		}
		lua_pop( L, 1 );
	}

	tbBodyId bodyId = tbCreateStaticGeometryBody( L, world, &bodyDef, fn );
	tbResult result = tbResult_ok;
	tbShapeId shapeId = tbCreateMeshShape( bodyId, &shapeDef, vertices, (int)vertexCount, indices, (int)triangleCount, &result );
	if ( TB_IS_NULL( shapeId ) )
	{
		tbDestroyBody( bodyId );
		// Input was checked above; what is left is a mesh of zero-area triangles only.
		if ( result == tbResult_invalidArgument )
		{
			return luaL_error( L, "%s: every triangle has zero area (%d given)", fn, (int)triangleCount );
		}
		if ( result == tbResult_outOfMemory )
		{
			return luaL_error( L, "%s: not enough memory for the mesh (%d triangles)", fn, (int)triangleCount );
		}
		return luaL_error( L, "%s: could not create the mesh: %s", fn, tbResultString( result ) );
	}
	tbLua_PushBody( L, 1, bodyId );
	tbLua_Guard( L, tbLuaGuard_created, fn );
	return 1;
}

// One height from Lua at the top of the stack (popped); `where` names it in the message.
static float tbReadHeight( lua_State* L, const char* fn, const char* where )
{
	int isNumber = 0;
	lua_Number h = lua_tonumberx( L, -1, &isNumber );
	if ( isNumber == 0 || !( h >= -TB_MAX_POSITION && h <= TB_MAX_POSITION ) )
	{
		char got[96];
		luaL_error( L, "%s: %s must be a finite number within +-1e6 m, got %s", fn, where,
					tbLua_Describe( L, -1, got, sizeof( got ) ) );
	}
	lua_pop( L, 1 );
	return (float)h;
}

static int tbCountError( lua_State* L, const char* fn, const char* what, lua_Integer got )
{
	return luaL_error( L, "%s: %s must be an integer from %d to %d, got %I", fn, what, TB_MIN_HEIGHTFIELD_COUNT,
					   TB_MAX_HEIGHTFIELD_COUNT, got );
}

// world:add_heightfield{ heights = {h, ...} (row-major, x fastest) or {{row 1}, {row 2}, ...},
//                        count_x, count_y, cell_size = s or {sx, sy}, holes = {{i, j}, ...},
//                        pos, rot, friction, restitution, name, layer, mask, group, sensor }
int tbLuaWorld_AddHeightfield( lua_State* L )
{
	const char* fn = "add_heightfield";
	tbLuaDef def;
	tbBodyDef bodyDef;
	tbShapeDef shapeDef;
	tbLuaWorld* world = tbBeginStaticGeometry( L, fn, "heightfields", &def, &bodyDef, &shapeDef );

	lua_Integer countX = 0, countY = 0;
	const lua_Integer countMax = TB_MAX_HEIGHTFIELD_COUNT;
	bool hasX = tbDef_Integer( &def, "count_x", &countX, LUA_MININTEGER, LUA_MAXINTEGER );
	bool hasY = tbDef_Integer( &def, "count_y", &countY, LUA_MININTEGER, LUA_MAXINTEGER );
	if ( hasX && ( countX < TB_MIN_HEIGHTFIELD_COUNT || countX > countMax ) )
	{
		return tbCountError( L, fn, "count_x", countX );
	}
	if ( hasY && ( countY < TB_MIN_HEIGHTFIELD_COUNT || countY > countMax ) )
	{
		return tbCountError( L, fn, "count_y", countY );
	}

	float cell[2] = { 1.0f, 1.0f };
	if ( tbDef_Value( &def, "cell_size" ) )
	{
		bool ok = false;
		if ( lua_type( L, -1 ) == LUA_TNUMBER )
		{
			cell[0] = cell[1] = (float)lua_tonumber( L, -1 );
			ok = true;
		}
		else if ( lua_type( L, -1 ) == LUA_TTABLE )
		{
			ok = tbLua_ReadFloats( L, lua_gettop( L ), cell, 2, tbCheck_positive );
		}
		ok = ok && tbIsInRange( cell[0], TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE ) &&
			 tbIsInRange( cell[1], TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE );
		lua_pop( L, 1 );
		if ( ok == false )
		{
			char expected[96];
			snprintf( expected, sizeof( expected ), "a number or 2 numbers {sx, sy} in [%g, %g] (m)", (double)TB_MIN_SHAPE_SIZE,
					  (double)TB_MAX_SHAPE_SIZE );
			tbDef_FieldError( &def, "cell_size", expected );
		}
	}

	if ( tbDef_Table( &def, "heights" ) == false )
	{
		return luaL_error( L, "%s: heights must be a list of count_x * count_y numbers or a list of rows, got nil", fn );
	}
	int heightList = lua_gettop( L );
	bool hasHoles = tbDef_Table( &def, "holes" );
	int holeList = hasHoles ? lua_gettop( L ) : 0;
	tbDef_Finish( &def );

	// Rows {{...}, ...} or one flat list: decided by the first entry.
	lua_Integer length = (lua_Integer)lua_rawlen( L, heightList );
	lua_rawgeti( L, heightList, 1 );
	bool rows = lua_type( L, -1 ) == LUA_TTABLE;
	lua_Integer firstRow = rows ? (lua_Integer)lua_rawlen( L, -1 ) : 0;
	lua_pop( L, 1 );
	if ( rows )
	{
		if ( hasY && countY != length )
		{
			return luaL_error( L, "%s: heights must hold count_y = %d rows, got %d", fn, (int)countY, (int)length );
		}
		if ( hasX && countX != firstRow )
		{
			return luaL_error( L, "%s: heights[1] must hold count_x = %d numbers, got %d", fn, (int)countX, (int)firstRow );
		}
		countX = firstRow;
		countY = length;
		if ( countY < TB_MIN_HEIGHTFIELD_COUNT || countY > countMax )
		{
			return tbCountError( L, fn, "the number of rows of heights", countY );
		}
		if ( countX < TB_MIN_HEIGHTFIELD_COUNT || countX > countMax )
		{
			return tbCountError( L, fn, "the length of heights[1]", countX );
		}
	}
	else
	{
		if ( hasX == false )
		{
			return luaL_error( L, "%s: count_x must be given with a flat list of heights, got nil", fn );
		}
		if ( hasY == false )
		{
			countY = length / countX;
		}
		if ( length != countX * countY || countY < TB_MIN_HEIGHTFIELD_COUNT || countY > countMax )
		{
			return luaL_error( L, "%s: heights must hold count_x * count_y numbers (count_x = %d, count_y from %d to %d), got %d",
							   fn, (int)countX, TB_MIN_HEIGHTFIELD_COUNT, TB_MAX_HEIGHTFIELD_COUNT, (int)length );
		}
	}
	if ( (float)( countX - 1 ) * cell[0] > TB_MAX_POSITION || (float)( countY - 1 ) * cell[1] > TB_MAX_POSITION )
	{
		return luaL_error( L, "%s: the grid must be at most 1e6 m long per side, got %f x %f m", fn,
						   (lua_Number)( (float)( countX - 1 ) * cell[0] ), (lua_Number)( (float)( countY - 1 ) * cell[1] ) );
	}

	// Scratch in userdata, so an error below frees it through the GC.
	int nx = (int)countX, ny = (int)countY;
	float* heights = lua_newuserdatauv( L, sizeof( float ) * (size_t)nx * (size_t)ny, 0 );
	char where[64];
	for ( int j = 0; j < ny; ++j )
	{
		if ( rows )
		{
			lua_rawgeti( L, heightList, j + 1 );
			if ( lua_type( L, -1 ) != LUA_TTABLE || (int)lua_rawlen( L, -1 ) != nx )
			{
				char got[96];
				return luaL_error( L, "%s: heights[%d] must be a row of %d numbers, got %s", fn, j + 1, nx,
								   tbLua_Describe( L, -1, got, sizeof( got ) ) );
			}
		}
		for ( int i = 0; i < nx; ++i )
		{
			if ( rows )
			{
				lua_rawgeti( L, -1, i + 1 );
				snprintf( where, sizeof( where ), "heights[%d][%d]", j + 1, i + 1 );
			}
			else
			{
				lua_rawgeti( L, heightList, j * nx + i + 1 );
				snprintf( where, sizeof( where ), "heights[%d]", j * nx + i + 1 );
			}
			heights[j * nx + i] = tbReadHeight( L, fn, where );
		}
		if ( rows )
		{
			lua_pop( L, 1 );
		}
	}

	// Holes: cells {i, j}, 1-based, cell (i, j) spanning grid points i..i+1 and j..j+1.
	uint8_t* holes = NULL;
	if ( hasHoles )
	{
		holes = lua_newuserdatauv( L, (size_t)( nx - 1 ) * (size_t)( ny - 1 ), 0 );
		memset( holes, 0, (size_t)( nx - 1 ) * (size_t)( ny - 1 ) );
		int holeCount = (int)lua_rawlen( L, holeList );
		for ( int k = 1; k <= holeCount; ++k )
		{
			lua_rawgeti( L, holeList, k );
			float ij[2];
			bool ok = lua_type( L, -1 ) == LUA_TTABLE && tbLua_ReadFloats( L, lua_gettop( L ), ij, 2, tbCheck_finite ) &&
					  ij[0] == floorf( ij[0] ) && ij[1] == floorf( ij[1] ) && ij[0] >= 1.0f && ij[0] <= (float)( nx - 1 ) &&
					  ij[1] >= 1.0f && ij[1] <= (float)( ny - 1 );
			if ( ok == false )
			{
				char got[96];
				return luaL_error( L, "%s: holes[%d] must be a cell {i, j} with i from 1 to %d and j from 1 to %d, got %s", fn,
								   k, nx - 1, ny - 1, tbLua_Describe( L, -1, got, sizeof( got ) ) );
			}
			lua_pop( L, 1 );
			holes[( (int)ij[1] - 1 ) * ( nx - 1 ) + (int)ij[0] - 1] = 1;
		}
	}

	tbBodyId bodyId = tbCreateStaticGeometryBody( L, world, &bodyDef, fn );
	tbResult result = tbResult_ok;
	tbShapeId shapeId =
		tbCreateHeightfieldShape( bodyId, &shapeDef, heights, nx, ny, cell[0], cell[1], holes, &result );
	if ( TB_IS_NULL( shapeId ) )
	{
		tbDestroyBody( bodyId );
		if ( result == tbResult_outOfMemory )
		{
			return luaL_error( L, "%s: not enough memory for the heightfield (%d x %d)", fn, nx, ny );
		}
		return luaL_error( L, "%s: could not create the heightfield: %s", fn, tbResultString( result ) );
	}
	tbLua_PushBody( L, 1, bodyId );
	tbLua_Guard( L, tbLuaGuard_created, fn );
	return 1;
}
