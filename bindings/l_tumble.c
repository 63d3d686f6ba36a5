// Tumble Lua bindings: the module table, type registration, and the one family of readers that
// turns Lua tables and arguments into checked C values.
// SPDX-License-Identifier: MIT
#include "l_common.h"

#include <lualib.h>

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

const char* const tb_solverNames[] = { "baumgarte", "split", "soft", "global", NULL };
const char* const tb_globalMethodNames[] = { "gauss_seidel", "jacobi", NULL };
const char* const tb_bodyTypeNames[] = { "static", "kinematic", "dynamic", NULL };
const char* const tb_mixRuleNames[] = { "geometric_mean", "average", "minimum", "maximum", "multiply", NULL };
const char* const tb_eventNames[] = { "contact_begin", "contact_end", "sensor_begin",
									  "sensor_end",	   "joint_break", NULL };

// Type registration ------------------------------------------------------------------------------

const char tb_luaWorldType[] = "tumble.World";
const char tb_luaBodyType[] = "tumble.Body";
const char tb_luaJointType[] = "tumble.Joint";
const char tb_luaMoverType[] = "tumble.Mover";
static const char* const tb_luaTypeKeys[] = { tb_luaWorldType, tb_luaBodyType, tb_luaJointType, tb_luaMoverType };

void* tbLua_TestUdata( lua_State* L, int index, const char* typeName )
{
	void* p = lua_touserdata( L, index );
	if ( p == NULL || lua_getmetatable( L, index ) == 0 )
	{
		return NULL;
	}
	// A method of the type itself carries the type's metatable and key as upvalues 1 and 2
	// (tbLua_RegisterType): one comparison instead of a registry lookup. This path is taken by
	// every body:position() a scene's update() makes (BENCHMARKS.md, Lua overhead).
	if ( lua_touserdata( L, lua_upvalueindex( 2 ) ) == (const void*)typeName )
	{
		bool same = lua_rawequal( L, -1, lua_upvalueindex( 1 ) ) != 0;
		lua_pop( L, 1 );
		return same ? p : NULL;
	}
	if ( lua_rawgetp( L, LUA_REGISTRYINDEX, typeName ) == LUA_TNIL )
	{
		// Not one of the four registered by address: the lookup by name, as luaL_testudata does it.
		lua_pop( L, 1 );
		luaL_getmetatable( L, typeName );
	}
	bool same = lua_rawequal( L, -1, -2 ) != 0;
	lua_pop( L, 2 );
	return same ? p : NULL;
}

// The metamethods' upvalues (tbLua_RegisterType): the type's methods, getters and setters, its
// name, then for a type with kinds the tbLuaKinds (light userdata) and the kinds' tables: methods,
// getters and setters of kind k at 3k + 1, 3k + 2, 3k + 3, and those of every kind together after
// the last kind (nil and nil for a type without kinds).
enum
{
	tbUp_methods = 1,
	tbUp_getters,
	tbUp_setters,
	tbUp_name,
	tbUp_kinds,
	tbUp_kindTables,
	tbUp_count = tbUp_kindTables,
};

enum
{
	tbMembers_methods = 1,
	tbMembers_getters,
	tbMembers_setters,
	tbMembers_stride = tbMembers_setters,
};

// Pushes what the table at index holds under the key (stack index 2) and returns its type.
static int tbGetMember( lua_State* L, int index )
{
	lua_pushvalue( L, 2 );
	return lua_rawget( L, index );
}

// The same in one of the kinds' tables: slot is tbMembers_* for the object's kind (kind -1: for
// every kind together).
static int tbGetKindMember( lua_State* L, const tbLuaKinds* kinds, int kind, int slot )
{
	lua_rawgeti( L, lua_upvalueindex( tbUp_kindTables ),
				 tbMembers_stride * ( kind >= 0 ? kind : kinds->count ) + slot );
	int type = tbGetMember( L, lua_gettop( L ) );
	lua_remove( L, -2 );
	return type;
}

static bool tbHasKindMember( lua_State* L, const tbLuaKinds* kinds, int kind, int slot )
{
	bool found = tbGetKindMember( L, kinds, kind, slot ) != LUA_TNIL;
	lua_pop( L, 1 );
	return found;
}

// Calls the getter or setter on top of the stack with (self, key) or (self, key, value), directly
// from the metamethod's frame so its errors carry the caller's line.
static int tbCallAccessor( lua_State* L, int argumentCount )
{
	lua_CFunction accessor = lua_tocfunction( L, -1 );
	lua_settop( L, argumentCount );
	return accessor( L );
}

static int tbLua_Index( lua_State* L )
{
	// rawget with the key already on the stack: a method lookup is one table access, with no
	// string hashing (lua_getfield would intern the C string again). The methods tables have only
	// string keys, so any other key misses them.
	if ( tbGetMember( L, lua_upvalueindex( tbUp_methods ) ) != LUA_TNIL )
	{
		return 1;
	}
	lua_pop( L, 1 );
	if ( lua_type( L, 2 ) == LUA_TSTRING )
	{
		if ( tbGetMember( L, lua_upvalueindex( tbUp_getters ) ) == LUA_TFUNCTION )
		{
			return tbCallAccessor( L, 2 );
		}
		lua_pop( L, 1 );
		const tbLuaKinds* kinds = lua_touserdata( L, lua_upvalueindex( tbUp_kinds ) );
		if ( kinds != NULL )
		{
			int kind = kinds->of( L );
			if ( tbGetKindMember( L, kinds, kind, tbMembers_methods ) != LUA_TNIL )
			{
				return 1;
			}
			lua_pop( L, 1 );
			if ( tbGetKindMember( L, kinds, kind, tbMembers_getters ) == LUA_TFUNCTION )
			{
				return tbCallAccessor( L, 2 );
			}
			lua_pop( L, 1 );
			if ( tbGetKindMember( L, kinds, -1, tbMembers_methods ) != LUA_TNIL )
			{
				return 1;
			}
			lua_pop( L, 1 );
			if ( tbHasKindMember( L, kinds, -1, tbMembers_getters ) )
			{
				kinds->refuse( L, false );
			}
		}
	}
	char got[64];
	return luaL_error( L, "%s has no field %s", lua_tostring( L, lua_upvalueindex( tbUp_name ) ),
					   tbLua_Describe( L, 2, got, sizeof( got ) ) );
}

static int tbLua_NewIndex( lua_State* L )
{
	const char* typeName = lua_tostring( L, lua_upvalueindex( tbUp_name ) );
	if ( lua_type( L, 2 ) == LUA_TSTRING )
	{
		const char* key = lua_tostring( L, 2 );
		if ( tbGetMember( L, lua_upvalueindex( tbUp_setters ) ) == LUA_TFUNCTION )
		{
			tbCallAccessor( L, 3 );
			return 0;
		}
		lua_pop( L, 1 );
		bool readable = tbGetMember( L, lua_upvalueindex( tbUp_getters ) ) != LUA_TNIL;
		lua_pop( L, 1 );
		const tbLuaKinds* kinds = lua_touserdata( L, lua_upvalueindex( tbUp_kinds ) );
		if ( kinds != NULL && readable == false )
		{
			int kind = kinds->of( L );
			if ( tbGetKindMember( L, kinds, kind, tbMembers_setters ) == LUA_TFUNCTION )
			{
				tbCallAccessor( L, 3 );
				return 0;
			}
			lua_pop( L, 1 );
			// Read-only on this kind; else settable on another kind (refused) or read-only there.
			readable = tbHasKindMember( L, kinds, kind, tbMembers_getters );
			if ( readable == false && tbHasKindMember( L, kinds, -1, tbMembers_setters ) )
			{
				kinds->refuse( L, true );
			}
			readable = readable || tbHasKindMember( L, kinds, -1, tbMembers_getters );
		}
		if ( readable )
		{
			return luaL_error( L, "%s.%s is read-only", typeName, key );
		}
	}
	char got[64];
	return luaL_error( L, "%s has no settable field %s", typeName, tbLua_Describe( L, 2, got, sizeof( got ) ) );
}

// Pushes the methods, getters and setters tables of a list of members. The methods get (metatable,
// type key) as upvalues for tbLua_TestUdata's fast path.
static void tbPushMembers( lua_State* L, int meta, const char* typeKey, const luaL_Reg* methods,
						   const tbLuaProperty* properties )
{
	lua_newtable( L );
	if ( methods != NULL )
	{
		lua_pushvalue( L, meta );
		if ( typeKey != NULL )
		{
			lua_pushlightuserdata( L, (void*)(uintptr_t)typeKey );
		}
		else
		{
			lua_pushnil( L );
		}
		luaL_setfuncs( L, methods, 2 );
	}
	lua_newtable( L );
	int getters = lua_gettop( L );
	lua_newtable( L );
	int setters = lua_gettop( L );
	for ( const tbLuaProperty* p = properties; p != NULL && p->name != NULL; ++p )
	{
		if ( p->get != NULL )
		{
			lua_pushcfunction( L, p->get );
			lua_setfield( L, getters, p->name );
		}
		if ( p->set != NULL )
		{
			lua_pushcfunction( L, p->set );
			lua_setfield( L, setters, p->name );
		}
	}
}

// Adds to the table at index into the entries of the table at index from whose keys it lacks.
static void tbAddMissing( lua_State* L, int into, int from )
{
	lua_pushnil( L );
	while ( lua_next( L, from ) != 0 )
	{
		lua_pushvalue( L, -2 );
		if ( lua_rawget( L, into ) == LUA_TNIL )
		{
			lua_pop( L, 1 );
			lua_pushvalue( L, -2 );
			lua_insert( L, -2 );
			lua_rawset( L, into );
		}
		else
		{
			lua_pop( L, 2 );
		}
	}
}

// Pushes the kinds' tables (tbUp_kindTables): each kind's members, then all of them together (the
// first kind that has a name gives its method).
static void tbPushKindTables( lua_State* L, int meta, const char* typeKey, const tbLuaKinds* kinds )
{
	lua_createtable( L, tbMembers_stride * ( kinds->count + 1 ), 0 );
	int tables = lua_gettop( L );
	int all = tbMembers_stride * kinds->count;
	for ( int slot = 1; slot <= tbMembers_stride; ++slot )
	{
		lua_newtable( L );
		lua_rawseti( L, tables, all + slot );
	}
	for ( int kind = 0; kind < kinds->count; ++kind )
	{
		const tbLuaKind* members = kinds->get( kind );
		tbPushMembers( L, meta, typeKey, members->methods, members->properties );
		// Setters on top, then getters, then methods (tbPushMembers's order).
		for ( int slot = tbMembers_stride; slot >= 1; --slot )
		{
			int from = lua_gettop( L );
			lua_rawgeti( L, tables, all + slot );
			tbAddMissing( L, lua_gettop( L ), from );
			lua_pop( L, 1 );
			lua_rawseti( L, tables, tbMembers_stride * kind + slot );
		}
	}
}

void tbLua_RegisterType( lua_State* L, const tbLuaType* type )
{
	char key[64];
	snprintf( key, sizeof( key ), "tumble.%s", type->name );
	if ( luaL_newmetatable( L, key ) == 0 )
	{
		lua_pop( L, 1 );
		return;
	}
	int meta = lua_gettop( L );
	lua_pushstring( L, type->name );
	lua_setfield( L, meta, "__name" );
	const char* typeKey = NULL;
	for ( size_t i = 0; i < sizeof( tb_luaTypeKeys ) / sizeof( tb_luaTypeKeys[0] ); ++i )
	{
		if ( strcmp( key, tb_luaTypeKeys[i] ) == 0 )
		{
			typeKey = tb_luaTypeKeys[i];
			lua_pushvalue( L, meta );
			lua_rawsetp( L, LUA_REGISTRYINDEX, typeKey );
		}
	}

	// The upvalues in tbUp_* order, shared by __index and __newindex.
	tbPushMembers( L, meta, typeKey, type->methods, type->properties );
	lua_pushstring( L, type->name );
	if ( type->kinds != NULL )
	{
		lua_pushlightuserdata( L, (void*)(uintptr_t)type->kinds );
		tbPushKindTables( L, meta, typeKey, type->kinds );
	}
	else
	{
		lua_pushnil( L );
		lua_pushnil( L );
	}
	// __index gets copies of them, __newindex the originals.
	for ( int i = 0; i < tbUp_count; ++i )
	{
		lua_pushvalue( L, meta + 1 + i );
	}
	lua_pushcclosure( L, tbLua_Index, tbUp_count );
	lua_setfield( L, meta, "__index" );
	lua_pushcclosure( L, tbLua_NewIndex, tbUp_count );
	lua_setfield( L, meta, "__newindex" );

	if ( type->gc != NULL )
	{
		lua_pushcfunction( L, type->gc );
		lua_setfield( L, meta, "__gc" );
	}
	if ( type->tostring != NULL )
	{
		lua_pushcfunction( L, type->tostring );
		lua_setfield( L, meta, "__tostring" );
	}
	// Scripts cannot read or replace the metatable (a sandboxed mod must not patch World methods).
	lua_pushstring( L, type->name );
	lua_setfield( L, meta, "__metatable" );

	lua_settop( L, meta - 1 );
}

// Messages ---------------------------------------------------------------------------------------

static void tbAppend( char* buffer, size_t size, size_t* length, const char* text )
{
	size_t n = strlen( text );
	if ( *length + 1 >= size )
	{
		return;
	}
	if ( *length + n >= size )
	{
		n = size - 1 - *length;
	}
	memcpy( buffer + *length, text, n );
	*length += n;
	buffer[*length] = '\0';
}

static void tbDescribeScalar( lua_State* L, int index, char* out, size_t size, bool nested )
{
	switch ( lua_type( L, index ) )
	{
		case LUA_TNONE:
		case LUA_TNIL:
			snprintf( out, size, "nil" );
			break;
		case LUA_TBOOLEAN:
			snprintf( out, size, "%s", lua_toboolean( L, index ) ? "true" : "false" );
			break;
		case LUA_TNUMBER:
			if ( lua_isinteger( L, index ) )
			{
				snprintf( out, size, "%lld", (long long)lua_tointeger( L, index ) );
			}
			else
			{
				double x = lua_tonumber( L, index );
				if ( isnan( x ) )
				{
					snprintf( out, size, "nan" );
				}
				else if ( isinf( x ) )
				{
					snprintf( out, size, "%s", x > 0.0 ? "inf" : "-inf" );
				}
				else
				{
					snprintf( out, size, "%.14g", x );
				}
			}
			break;
		case LUA_TSTRING: {
			size_t len = 0;
			const char* s = lua_tolstring( L, index, &len );
			if ( len > 40 )
			{
				// Cut before a UTF-8 character that would not fit whole: the message stays valid UTF-8.
				int cut = 37;
				while ( cut > 0 && ( (unsigned char)s[cut] & 0xC0u ) == 0x80u )
				{
					cut -= 1;
				}
				snprintf( out, size, "'%.*s...'", cut, s );
			}
			else
			{
				snprintf( out, size, "'%s'", s );
			}
			break;
		}
		case LUA_TTABLE:
			snprintf( out, size, "%s", nested ? "{...}" : "a table" );
			break;
		case LUA_TUSERDATA: {
			const char* name = NULL;
			if ( luaL_getmetafield( L, index, "__name" ) == LUA_TSTRING )
			{
				name = lua_tostring( L, -1 );
			}
			snprintf( out, size, "a %s", name != NULL ? name : "userdata" );
			if ( name != NULL )
			{
				lua_pop( L, 1 );
			}
			break;
		}
		default:
			snprintf( out, size, "a %s", luaL_typename( L, index ) );
			break;
	}
}

const char* tbLua_Describe( lua_State* L, int index, char* buffer, size_t size )
{
	index = lua_absindex( L, index );
	buffer[0] = '\0';
	if ( lua_type( L, index ) != LUA_TTABLE )
	{
		tbDescribeScalar( L, index, buffer, size, false );
		return buffer;
	}

	// Tables: the array part, then a few named fields, so {1, 0, 1} and {x = 1} read naturally.
	size_t length = 0;
	char item[64];
	tbAppend( buffer, size, &length, "{" );
	lua_Integer n = (lua_Integer)lua_rawlen( L, index );
	int shown = 0;
	for ( lua_Integer i = 1; i <= n && shown < 6; ++i, ++shown )
	{
		lua_rawgeti( L, index, i );
		tbDescribeScalar( L, -1, item, sizeof( item ), true );
		lua_pop( L, 1 );
		tbAppend( buffer, size, &length, shown > 0 ? ", " : "" );
		tbAppend( buffer, size, &length, item );
	}
	bool more = n > shown;
	lua_pushnil( L );
	while ( lua_next( L, index ) != 0 )
	{
		bool arrayKey = lua_isinteger( L, -2 ) && lua_tointeger( L, -2 ) >= 1 && lua_tointeger( L, -2 ) <= n;
		if ( arrayKey == false )
		{
			if ( shown >= 6 || lua_type( L, -2 ) != LUA_TSTRING )
			{
				more = true;
			}
			else
			{
				tbAppend( buffer, size, &length, shown > 0 ? ", " : "" );
				tbAppend( buffer, size, &length, lua_tostring( L, -2 ) );
				tbAppend( buffer, size, &length, " = " );
				tbDescribeScalar( L, -1, item, sizeof( item ), true );
				tbAppend( buffer, size, &length, item );
				shown += 1;
			}
		}
		lua_pop( L, 1 );
	}
	if ( more )
	{
		tbAppend( buffer, size, &length, shown > 0 ? ", ..." : "..." );
	}
	tbAppend( buffer, size, &length, "}" );
	return buffer;
}

// Number checks ----------------------------------------------------------------------------------

// The checks that are ranges of the core, from tbCheck_material on: bounds and the words of the
// errors (one number, several, a vector).
typedef struct tbLuaRange
{
	float lo, hi;
	const char* one;
	const char* many;
	const char* vector;
} tbLuaRange;

static const tbLuaRange tb_ranges[] = {
	{ 0.0f, TB_MAX_FRICTION, "a number in [0, 1000]", "numbers in [0, 1000]", "3 numbers in [0, 1000]" },
	{ 0.0f, TB_MAX_DAMPING, "a number in [0, 1e6]", "numbers in [0, 1e6]", "3 numbers in [0, 1e6]" },
	{ 0.0f, TB_MAX_HERTZ, "a number in [0, 1e6]", "numbers in [0, 1e6]", "3 numbers in [0, 1e6]" },
	{ FLT_MIN, TB_MAX_HERTZ, "a number in (0, 1e6]", "numbers in (0, 1e6]", "3 numbers in (0, 1e6]" },
	{ -TB_MAX_ANGULAR_SPEED, TB_MAX_ANGULAR_SPEED, "a number in [-1e4, 1e4]", "numbers in [-1e4, 1e4]",
	  "3 numbers in [-1e4, 1e4]" },
	{ -TB_MAX_GRAVITY, TB_MAX_GRAVITY, "a number in [-1e4, 1e4]", "numbers in [-1e4, 1e4]",
	  "3 numbers in [-1e4, 1e4]" },
};

static const tbLuaRange* tbGetRange( tbLuaCheck check )
{
	int i = (int)check - (int)tbCheck_material;
	return i >= 0 && i < (int)( sizeof( tb_ranges ) / sizeof( tb_ranges[0] ) ) ? tb_ranges + i : NULL;
}

static bool tbPassesCheck( float x, tbLuaCheck check )
{
	if ( isfinite( x ) == 0 )
	{
		return false;
	}
	const tbLuaRange* range = tbGetRange( check );
	if ( range != NULL )
	{
		return range->lo <= x && x <= range->hi;
	}
	switch ( check )
	{
		case tbCheck_positive:
			return x > 0.0f;
		case tbCheck_nonNegative:
			return x >= 0.0f;
		case tbCheck_unit:
			return 0.0f <= x && x <= 1.0f;
		default:
			return true;
	}
}

static const char* tbNumberText( tbLuaCheck check )
{
	if ( tbGetRange( check ) != NULL )
	{
		return tbGetRange( check )->one;
	}
	switch ( check )
	{
		case tbCheck_positive:
			return "a positive number";
		case tbCheck_nonNegative:
			return "a number >= 0";
		case tbCheck_unit:
			return "a number in [0, 1]";
		default:
			return "a finite number";
	}
}

static const char* tbNumbersText( tbLuaCheck check )
{
	if ( tbGetRange( check ) != NULL )
	{
		return tbGetRange( check )->many;
	}
	switch ( check )
	{
		case tbCheck_positive:
			return "positive numbers";
		case tbCheck_nonNegative:
			return "numbers >= 0";
		case tbCheck_unit:
			return "numbers in [0, 1]";
		default:
			return "finite numbers";
	}
}

static const char* tbVectorText( tbLuaCheck check )
{
	if ( tbGetRange( check ) != NULL )
	{
		return tbGetRange( check )->vector;
	}
	switch ( check )
	{
		case tbCheck_positive:
			return "3 positive numbers";
		case tbCheck_nonNegative:
			return "3 numbers >= 0";
		case tbCheck_nonZero:
			return "3 finite numbers, not all zero";
		default:
			return "3 finite numbers";
	}
}

// Reads a float at index; false when it is not a number that passes check. Conversion to float
// happens before the check so 1e300 (inf as a float) is refused too.
static bool tbReadFloat( lua_State* L, int index, float* out, tbLuaCheck check )
{
	int isNumber = 0;
	lua_Number x = lua_tonumberx( L, index, &isNumber );
	if ( isNumber == 0 || lua_type( L, index ) != LUA_TNUMBER )
	{
		return false;
	}
	float f = (float)x;
	if ( tbPassesCheck( f, check == tbCheck_nonZero ? tbCheck_finite : check ) == false )
	{
		return false;
	}
	*out = f;
	return true;
}

// Reads a table of exactly count numbers.
static bool tbReadFloats( lua_State* L, int index, float* out, int count, tbLuaCheck check )
{
	if ( lua_type( L, index ) != LUA_TTABLE || (int)lua_rawlen( L, index ) != count )
	{
		return false;
	}
	for ( int i = 0; i < count; ++i )
	{
		lua_rawgeti( L, index, i + 1 );
		bool ok = tbReadFloat( L, -1, out + i, check );
		lua_pop( L, 1 );
		if ( ok == false )
		{
			return false;
		}
	}
	return true;
}

static bool tbReadVec3( lua_State* L, int index, tbVec3* out, tbLuaCheck check )
{
	float v[3];
	if ( tbReadFloats( L, index, v, 3, check ) == false )
	{
		return false;
	}
	if ( check == tbCheck_nonZero && v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < 1.0e-12f )
	{
		return false;
	}
	*out = tbMakeVec3( v[0], v[1], v[2] );
	return true;
}

// A quaternion {w, x, y, z}: the Lua order. tbQuat stores x, y, z, w.
static bool tbMakeUnitQuat( const float wxyz[4], tbQuat* out )
{
	float lengthSquared = wxyz[0] * wxyz[0] + wxyz[1] * wxyz[1] + wxyz[2] * wxyz[2] + wxyz[3] * wxyz[3];
	if ( lengthSquared < 1.0e-12f || isfinite( lengthSquared ) == 0 )
	{
		return false;
	}
	*out = tbNormalizeQ( tbMakeQuat( wxyz[0], wxyz[1], wxyz[2], wxyz[3] ) );
	return true;
}

// Definition tables ------------------------------------------------------------------------------

void tbDef_Begin( tbLuaDef* def, lua_State* L, int index, const char* fn, const char* prefix )
{
	def->L = L;
	def->table = lua_absindex( L, index );
	def->fn = fn;
	def->prefix = prefix != NULL ? prefix : "";
	def->keyCount = 0;
	if ( lua_type( L, def->table ) != LUA_TTABLE )
	{
		char got[128];
		// A nested prefix ends with '.': "shapes[2]." is shown as "shapes[2]".
		char where[64] = "";
		size_t prefixLength = strlen( def->prefix );
		if ( prefixLength > 0 )
		{
			snprintf( where, sizeof( where ), " for %.*s", (int)( prefixLength - 1 ), def->prefix );
		}
		luaL_error( L, "%s: expected a table of fields%s, got %s", fn, where,
					tbLua_Describe( L, def->table, got, sizeof( got ) ) );
	}
}

void tbDef_Known( tbLuaDef* def, const char* key )
{
	for ( int i = 0; i < def->keyCount; ++i )
	{
		if ( strcmp( def->keys[i], key ) == 0 )
		{
			return;
		}
	}
	if ( def->keyCount < TB_LUA_MAX_DEF_KEYS )
	{
		def->keys[def->keyCount++] = key;
	}
}

// Pushes the field; returns false (and pops) when it is nil.
static bool tbDef_Get( tbLuaDef* def, const char* key )
{
	tbDef_Known( def, key );
	if ( lua_getfield( def->L, def->table, key ) == LUA_TNIL )
	{
		lua_pop( def->L, 1 );
		return false;
	}
	return true;
}

static int tbDef_Fail( tbLuaDef* def, const char* key, const char* expected )
{
	char got[160];
	return luaL_error( def->L, "%s: %s%s must be %s, got %s", def->fn, def->prefix, key, expected,
					   tbLua_Describe( def->L, -1, got, sizeof( got ) ) );
}

bool tbDef_Number( tbLuaDef* def, const char* key, float* value, tbLuaCheck check )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	if ( tbReadFloat( def->L, -1, value, check ) == false )
	{
		tbDef_Fail( def, key, tbNumberText( check ) );
	}
	lua_pop( def->L, 1 );
	return true;
}

bool tbDef_Integer( tbLuaDef* def, const char* key, lua_Integer* value, lua_Integer min, lua_Integer max )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	int isInteger = 0;
	lua_Integer n = lua_tointegerx( def->L, -1, &isInteger );
	if ( isInteger == 0 || lua_type( def->L, -1 ) != LUA_TNUMBER || n < min || n > max )
	{
		char expected[96];
		snprintf( expected, sizeof( expected ), "an integer in [%lld, %lld]", (long long)min, (long long)max );
		tbDef_Fail( def, key, expected );
	}
	*value = n;
	lua_pop( def->L, 1 );
	return true;
}

bool tbDef_Bool( tbLuaDef* def, const char* key, bool* value )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	if ( lua_type( def->L, -1 ) != LUA_TBOOLEAN )
	{
		tbDef_Fail( def, key, "true or false" );
	}
	*value = lua_toboolean( def->L, -1 ) != 0;
	lua_pop( def->L, 1 );
	return true;
}

bool tbDef_String( tbLuaDef* def, const char* key, const char** value, size_t maxLength )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	size_t length = 0;
	if ( lua_type( def->L, -1 ) != LUA_TSTRING || ( lua_tolstring( def->L, -1, &length ), length > maxLength ) ||
		 strlen( lua_tostring( def->L, -1 ) ) != length )
	{
		char expected[64];
		snprintf( expected, sizeof( expected ), "a string of at most %d bytes", (int)maxLength );
		tbDef_Fail( def, key, expected );
	}
	// The string stays referenced by the table, which stays on the stack while it is read.
	*value = lua_tostring( def->L, -1 );
	lua_pop( def->L, 1 );
	return true;
}

bool tbDef_Enum( tbLuaDef* def, const char* key, const char* const* names, int* value, const char* what )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	char got[96];
	if ( lua_type( def->L, -1 ) != LUA_TSTRING )
	{
		luaL_error( def->L, "%s: %s%s must be a string naming a %s, got %s", def->fn, def->prefix, key, what,
					tbLua_Describe( def->L, -1, got, sizeof( got ) ) );
	}
	const char* s = lua_tostring( def->L, -1 );
	for ( int i = 0; names[i] != NULL; ++i )
	{
		if ( strcmp( names[i], s ) == 0 )
		{
			*value = i;
			lua_pop( def->L, 1 );
			return true;
		}
	}
	if ( def->prefix[0] != '\0' )
	{
		return luaL_error( def->L, "%s: invalid %s %s (%s%s)", def->fn, what,
						   tbLua_Describe( def->L, -1, got, sizeof( got ) ), def->prefix, key );
	}
	return luaL_error( def->L, "%s: invalid %s %s", def->fn, what, tbLua_Describe( def->L, -1, got, sizeof( got ) ) );
}

bool tbDef_Vec3( tbLuaDef* def, const char* key, tbVec3* value, tbLuaCheck check )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	if ( tbReadVec3( def->L, -1, value, check ) == false )
	{
		tbDef_Fail( def, key, tbVectorText( check ) );
	}
	lua_pop( def->L, 1 );
	return true;
}

bool tbDef_Quat( tbLuaDef* def, const char* key, tbQuat* value )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	float wxyz[4];
	if ( tbReadFloats( def->L, -1, wxyz, 4, tbCheck_finite ) == false || tbMakeUnitQuat( wxyz, value ) == false )
	{
		tbDef_Fail( def, key, "a quaternion {w, x, y, z} of 4 finite numbers, not all zero" );
	}
	lua_pop( def->L, 1 );
	return true;
}

bool tbDef_Range( tbLuaDef* def, const char* key, float* lo, float* hi )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	float v[2] = { 0.0f, 0.0f };
	if ( tbReadFloats( def->L, -1, v, 2, tbCheck_finite ) == false || v[0] > v[1] )
	{
		tbDef_Fail( def, key, "2 finite numbers {lower, upper} with lower <= upper" );
	}
	*lo = v[0];
	*hi = v[1];
	lua_pop( def->L, 1 );
	return true;
}

bool tbDef_Floats( tbLuaDef* def, const char* key, float* values, int count, tbLuaCheck check )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	if ( tbReadFloats( def->L, -1, values, count, check ) == false )
	{
		char expected[64];
		snprintf( expected, sizeof( expected ), "%d %s", count, tbNumbersText( check ) );
		tbDef_Fail( def, key, expected );
	}
	lua_pop( def->L, 1 );
	return true;
}

// What a range check asks for: "3 finite numbers within +-LIMIT UNIT" or, for a count of 1, "a
// number in (0, LIMIT] UNIT" (the input limits of collision.h).
const char* tbLua_LimitText( char* buffer, size_t size, int count, float limit, const char* unit )
{
	if ( count == 1 )
	{
		snprintf( buffer, size, "a number in (0, %g] (%s)", (double)limit, unit );
	}
	else
	{
		snprintf( buffer, size, "3 finite numbers within +-%g (%s)", (double)limit, unit );
	}
	return buffer;
}

int tbDef_FieldError( tbLuaDef* def, const char* key, const char* expected )
{
	lua_getfield( def->L, def->table, key );
	return tbDef_Fail( def, key, expected );
}

bool tbDef_Table( tbLuaDef* def, const char* key )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	if ( lua_type( def->L, -1 ) != LUA_TTABLE )
	{
		tbDef_Fail( def, key, "a table" );
	}
	return true;
}

bool tbDef_Function( tbLuaDef* def, const char* key )
{
	if ( tbDef_Get( def, key ) == false )
	{
		return false;
	}
	if ( lua_type( def->L, -1 ) != LUA_TFUNCTION )
	{
		tbDef_Fail( def, key, "a function" );
	}
	return true;
}

bool tbDef_Value( tbLuaDef* def, const char* key )
{
	return tbDef_Get( def, key );
}

void tbDef_Finish( tbLuaDef* def )
{
	lua_State* L = def->L;
	lua_pushnil( L );
	while ( lua_next( L, def->table ) != 0 )
	{
		lua_pop( L, 1 );
		bool known = false;
		if ( lua_type( L, -1 ) == LUA_TSTRING )
		{
			const char* key = lua_tostring( L, -1 );
			for ( int i = 0; i < def->keyCount && known == false; ++i )
			{
				known = strcmp( def->keys[i], key ) == 0;
			}
			if ( known == false )
			{
				luaL_error( L, "%s: unknown field '%s%s'", def->fn, def->prefix, key );
			}
		}
		else
		{
			char got[64];
			luaL_error( L, "%s: unexpected entry [%s] in the table of fields%s%s", def->fn,
						tbLua_Describe( L, -1, got, sizeof( got ) ), def->prefix[0] ? " " : "", def->prefix );
		}
	}
}

// Arguments --------------------------------------------------------------------------------------

bool tbLua_ReadFloats( lua_State* L, int index, float* values, int count, tbLuaCheck check )
{
	return tbReadFloats( L, lua_absindex( L, index ), values, count, check );
}

float tbLua_CheckNumber( lua_State* L, int index, const char* fn, const char* what, tbLuaCheck check )
{
	float value = 0.0f;
	if ( tbReadFloat( L, index, &value, check ) == false )
	{
		char got[96];
		luaL_error( L, "%s: %s must be %s, got %s", fn, what, tbNumberText( check ),
					tbLua_Describe( L, index, got, sizeof( got ) ) );
	}
	return value;
}

tbVec3 tbLua_CheckVec3( lua_State* L, int index, const char* fn, const char* what, tbLuaCheck check )
{
	tbVec3 value = tb_vec3_zero;
	if ( tbReadVec3( L, index, &value, check ) == false )
	{
		char got[128];
		luaL_error( L, "%s: %s must be a table of %s, got %s", fn, what, tbVectorText( check ),
					tbLua_Describe( L, index, got, sizeof( got ) ) );
	}
	return value;
}

tbVec3 tbLua_CheckVec3Args( lua_State* L, int index, const char* fn, const char* what )
{
	if ( lua_type( L, index ) == LUA_TTABLE )
	{
		return tbLua_CheckVec3( L, index, fn, what, tbCheck_finite );
	}
	float v[3];
	for ( int i = 0; i < 3; ++i )
	{
		if ( tbReadFloat( L, index + i, v + i, tbCheck_finite ) == false )
		{
			char got[96];
			luaL_error( L, "%s: %s must be 3 finite numbers x, y, z or a table {x, y, z}, got %s as argument %d", fn,
						what, tbLua_Describe( L, index + i, got, sizeof( got ) ), i + 1 );
		}
	}
	return tbMakeVec3( v[0], v[1], v[2] );
}

tbQuat tbLua_CheckQuatArgs( lua_State* L, int index, const char* fn, const char* what )
{
	float wxyz[4];
	char got[128];
	if ( lua_type( L, index ) == LUA_TTABLE )
	{
		if ( tbReadFloats( L, index, wxyz, 4, tbCheck_finite ) == false )
		{
			luaL_error( L, "%s: %s must be a quaternion {w, x, y, z} of 4 finite numbers, got %s", fn, what,
						tbLua_Describe( L, index, got, sizeof( got ) ) );
		}
	}
	else
	{
		for ( int i = 0; i < 4; ++i )
		{
			if ( tbReadFloat( L, index + i, wxyz + i, tbCheck_finite ) == false )
			{
				luaL_error( L,
							"%s: %s must be 4 finite numbers w, x, y, z or a table {w, x, y, z}, got %s as argument %d",
							fn, what, tbLua_Describe( L, index + i, got, sizeof( got ) ), i + 1 );
			}
		}
	}
	tbQuat q = tb_quatIdentity;
	if ( tbMakeUnitQuat( wxyz, &q ) == false )
	{
		luaL_error( L, "%s: %s must not be a zero quaternion", fn, what );
	}
	return q;
}

int tbLua_CheckEnum( lua_State* L, int index, const char* const* names, const char* fn, const char* what )
{
	char got[96];
	if ( lua_type( L, index ) != LUA_TSTRING )
	{
		luaL_error( L, "%s: expected a string naming a %s, got %s", fn, what,
					tbLua_Describe( L, index, got, sizeof( got ) ) );
	}
	const char* s = lua_tostring( L, index );
	for ( int i = 0; names[i] != NULL; ++i )
	{
		if ( strcmp( names[i], s ) == 0 )
		{
			return i;
		}
	}
	return luaL_error( L, "%s: invalid %s %s", fn, what, tbLua_Describe( L, index, got, sizeof( got ) ) );
}

bool tbLua_CheckBool( lua_State* L, int index, const char* fn, const char* what )
{
	if ( lua_type( L, index ) != LUA_TBOOLEAN )
	{
		char got[96];
		luaL_error( L, "%s: %s must be true or false, got %s", fn, what,
					tbLua_Describe( L, index, got, sizeof( got ) ) );
	}
	return lua_toboolean( L, index ) != 0;
}

// Results ----------------------------------------------------------------------------------------

void tbLua_PushVec3( lua_State* L, tbVec3 v )
{
	lua_pushnumber( L, v.x );
	lua_pushnumber( L, v.y );
	lua_pushnumber( L, v.z );
}

void tbLua_PushQuat( lua_State* L, tbQuat q )
{
	lua_pushnumber( L, q.w );
	lua_pushnumber( L, q.x );
	lua_pushnumber( L, q.y );
	lua_pushnumber( L, q.z );
}

void tbLua_PushVec3Table( lua_State* L, tbVec3 v )
{
	lua_createtable( L, 3, 0 );
	lua_pushnumber( L, v.x );
	lua_rawseti( L, -2, 1 );
	lua_pushnumber( L, v.y );
	lua_rawseti( L, -2, 2 );
	lua_pushnumber( L, v.z );
	lua_rawseti( L, -2, 3 );
}

void tbLua_PushQuatTable( lua_State* L, tbQuat q )
{
	lua_createtable( L, 4, 0 );
	lua_pushnumber( L, q.w );
	lua_rawseti( L, -2, 1 );
	lua_pushnumber( L, q.x );
	lua_rawseti( L, -2, 2 );
	lua_pushnumber( L, q.y );
	lua_rawseti( L, -2, 3 );
	lua_pushnumber( L, q.z );
	lua_rawseti( L, -2, 4 );
}

// Module functions -------------------------------------------------------------------------------

// tb.axis_angle(axis, angle) -> {w, x, y, z}: a table ready for rot = ... fields.
static int tbLua_AxisAngle( lua_State* L )
{
	tbVec3 axis = tbLua_CheckVec3( L, 1, "axis_angle", "axis", tbCheck_nonZero );
	float angle = tbLua_CheckNumber( L, 2, "axis_angle", "angle", tbCheck_finite );
	tbLua_PushQuatTable( L, tbMakeQuatAxisAngle( tbNormalize( axis ), angle ) );
	return 1;
}

// tb.quat_multiply(a, b) -> {w, x, y, z}: the rotation b followed by a.
static int tbLua_QuatMultiply( lua_State* L )
{
	tbQuat a = tbLua_CheckQuatArgs( L, 1, "quat_multiply", "a" );
	tbQuat b = tbLua_CheckQuatArgs( L, 2, "quat_multiply", "b" );
	tbLua_PushQuatTable( L, tbNormalizeQ( tbMulQQ( a, b ) ) );
	return 1;
}

// tb.rotate(q, v) -> x, y, z
static int tbLua_Rotate( lua_State* L )
{
	tbQuat q = tbLua_CheckQuatArgs( L, 1, "rotate", "q" );
	tbVec3 v = tbLua_CheckVec3( L, 2, "rotate", "v", tbCheck_finite );
	tbLua_PushVec3( L, tbRotate( q, v ) );
	return 3;
}

static void tbPushNameList( lua_State* L, const char* const* names )
{
	lua_newtable( L );
	for ( int i = 0; names[i] != NULL; ++i )
	{
		lua_pushstring( L, names[i] );
		lua_rawseti( L, -2, i + 1 );
	}
}

int luaopen_tumble( lua_State* L )
{
	luaL_checkversion( L );
	tbLua_OpenShape( L );
	tbLua_OpenWorld( L );
	tbLua_OpenBody( L );
	tbLua_OpenJoint( L );
	tbLua_OpenMover( L );
	tbLua_OpenSnapshot( L );
	tbLua_OpenCharacter( L );
	tbLua_OpenVehicle( L );

	static const luaL_Reg functions[] = {
		{ "world", tbLua_NewWorld },
		{ "axis_angle", tbLua_AxisAngle },
		{ "quat_multiply", tbLua_QuatMultiply },
		{ "rotate", tbLua_Rotate },
		{ NULL, NULL },
	};
	luaL_newlib( L, functions );

	tbVersion v = tbGetVersion();
	lua_pushfstring( L, "%d.%d.%d", v.major, v.minor, v.revision );
	lua_setfield( L, -2, "version" );

	tbPushNameList( L, tb_solverNames );
	lua_setfield( L, -2, "solvers" );
	tbPushNameList( L, tb_bodyTypeNames );
	lua_setfield( L, -2, "body_types" );
	// Every shape a body constructor makes (world:add_<type>{...}); compounds take all but meshes
	// and heightfields.
	static const char* const shapeTypes[] = { "box", "sphere", "capsule", "hull", "mesh", "heightfield", "cylinder", NULL };
	tbPushNameList( L, shapeTypes );
	lua_setfield( L, -2, "shape_types" );
	tbPushNameList( L, tb_mixRuleNames );
	lua_setfield( L, -2, "mix_rules" );
	tbPushNameList( L, tb_eventNames );
	lua_setfield( L, -2, "events" );
	// The joint types' names come from the core's type table (tbJointTypeName).
	lua_newtable( L );
	for ( int i = 0; i < tbJoint_typeCount; ++i )
	{
		lua_pushstring( L, tbJointTypeName( (tbJointType)i ) );
		lua_rawseti( L, -2, i + 1 );
	}
	lua_setfield( L, -2, "joint_types" );

	tbLua_OpenView( L );
	return 1;
}
