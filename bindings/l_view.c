// Tumble Lua bindings: what scripts ask of the view, tb.camera, tb.draw and tb.input.
// SPDX-License-Identifier: MIT
//
// The module records the requests in one tbLuaView per lua_State (a userdata in the registry); a
// host that has a view (the viewer) reads them each frame through tumble_lua.h and writes back the
// camera and the mouse. Without one (headless, plain lua5.4) the calls are checked and recorded
// all the same, so a scene runs unchanged everywhere and a test can see what it asked for.
#include "l_common.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char* const tb_viewKey = "tumble.view";

static int tbView_Gc( lua_State* L )
{
	tbLuaView* view = lua_touserdata( L, 1 );
	free( view->items );
	free( view->text );
	view->items = NULL;
	view->text = NULL;
	return 0;
}

tbLuaView* tbLua_GetView( lua_State* L )
{
	tbLuaView* view = NULL;
	int type = lua_getfield( L, LUA_REGISTRYINDEX, tb_viewKey );
	if ( type == LUA_TUSERDATA || type == LUA_TLIGHTUSERDATA )
	{
		view = lua_touserdata( L, -1 );
	}
	lua_pop( L, 1 );
	return view;
}

void tbLua_ShareView( lua_State* L, lua_State* from )
{
	tbLuaView* view = tbLua_GetView( from );
	if ( view != NULL )
	{
		// A light userdata: the state that made the view frees it, never this one.
		lua_pushlightuserdata( L, view );
		lua_setfield( L, LUA_REGISTRYINDEX, tb_viewKey );
	}
}

static tbLuaView* tbCheckView( lua_State* L )
{
	tbLuaView* view = tbLua_GetView( L );
	if ( view == NULL )
	{
		luaL_error( L, "the tumble module's view state is missing" );
	}
	return view;
}

void tbLua_BeginStepDrawing( lua_State* L )
{
	tbLuaView* view = tbLua_GetView( L );
	if ( view != NULL )
	{
		view->count = 0;
		view->textUsed = 0;
		view->stepMark = -1;
	}
}

void tbLua_BeginFrameDrawing( lua_State* L )
{
	tbLuaView* view = tbLua_GetView( L );
	if ( view == NULL )
	{
		return;
	}
	// The first frame after a step keeps what the step drew; later frames redraw only their own.
	if ( view->stepMark < 0 )
	{
		view->stepMark = view->count;
		view->stepTextMark = view->textUsed;
	}
	view->count = view->stepMark;
	view->textUsed = view->stepTextMark;
}

// Camera -------------------------------------------------------------------------------------------

// tb.camera.look_at(eye, target)
static int tbCamera_LookAtFn( lua_State* L )
{
	tbVec3 eye = tbLua_CheckVec3( L, 1, "camera.look_at", "eye", tbCheck_finite );
	tbVec3 target = tbLua_CheckVec3( L, 2, "camera.look_at", "target", tbCheck_finite );
	if ( tbLength( tbSub( eye, target ) ) < 1.0e-3f )
	{
		return luaL_error( L, "camera.look_at: eye and target must be at least 1 mm apart" );
	}
	tbLuaView* view = tbCheckView( L );
	view->eye = eye;
	view->target = target;
	view->lookAt = true;
	view->cameraKnown = true;
	return 0;
}

// tb.camera.follow(body [, {offset = {x, y, z}, smoothing = s}]), or follow(nil) to stop.
static int tbCamera_FollowFn( lua_State* L )
{
	tbLuaView* view = tbCheckView( L );
	if ( lua_isnoneornil( L, 1 ) )
	{
		view->follow = tb_nullBodyId;
		return 0;
	}
	tbBodyId body = tb_nullBodyId;
	if ( tbLua_ToBody( L, 1, &body ) == false )
	{
		char got[64];
		return luaL_error( L, "camera.follow: body must be a Body or nil, got %s", tbLua_Describe( L, 1, got, sizeof( got ) ) );
	}
	if ( tbBody_IsValid( body ) == false )
	{
		return luaL_error( L, "camera.follow: the Body was destroyed" );
	}
	float smoothing = 0.25f;
	bool hasOffset = false;
	tbVec3 offset = tb_vec3_zero;
	if ( lua_isnoneornil( L, 2 ) == false )
	{
		tbLuaDef def;
		tbDef_Begin( &def, L, 2, "camera.follow", "" );
		hasOffset = tbDef_Vec3( &def, "offset", &offset, tbCheck_nonZero );
		tbDef_Number( &def, "smoothing", &smoothing, tbCheck_nonNegative );
		tbDef_Finish( &def );
	}
	view->follow = body;
	view->followOffset = offset;
	view->followHasOffset = hasOffset;
	view->followSmoothing = smoothing;
	return 0;
}

// tb.camera.get() -> eye x, y, z, target x, y, z; nothing before a view or look_at has set one.
static int tbCamera_GetFn( lua_State* L )
{
	tbLuaView* view = tbCheckView( L );
	if ( view->cameraKnown == false )
	{
		return 0;
	}
	tbLua_PushVec3( L, view->eye );
	tbLua_PushVec3( L, view->target );
	return 6;
}

// Drawing ------------------------------------------------------------------------------------------

static tbLuaDrawItem* tbNewItem( lua_State* L, const char* fn, tbLuaDrawKind kind, int colorIndex )
{
	float color[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
	if ( lua_isnoneornil( L, colorIndex ) == false )
	{
		bool ok = lua_type( L, colorIndex ) == LUA_TTABLE &&
				  ( lua_rawlen( L, colorIndex ) == 3 || lua_rawlen( L, colorIndex ) == 4 ) &&
				  tbLua_ReadFloats( L, colorIndex, color, (int)lua_rawlen( L, colorIndex ), tbCheck_unit );
		if ( ok == false )
		{
			char got[64];
			luaL_error( L, "%s: color must be {r, g, b} or {r, g, b, a} with numbers in [0, 1], got %s", fn,
						tbLua_Describe( L, colorIndex, got, sizeof( got ) ) );
		}
	}
	tbLuaView* view = tbCheckView( L );
	if ( view->count == TB_LUA_MAX_DRAW_ITEMS )
	{
		luaL_error( L, "%s: more than %d shapes drawn since the last step", fn, TB_LUA_MAX_DRAW_ITEMS );
	}
	if ( view->count == view->capacity )
	{
		int capacity = view->capacity > 0 ? 2 * view->capacity : 256;
		tbLuaDrawItem* grown = realloc( view->items, (size_t)capacity * sizeof( tbLuaDrawItem ) );
		if ( grown == NULL )
		{
			luaL_error( L, "%s: out of memory", fn );
		}
		view->items = grown;
		view->capacity = capacity;
	}
	tbLuaDrawItem* item = view->items + view->count++;
	memset( item, 0, sizeof( *item ) );
	item->kind = kind;
	item->rotation = tb_quatIdentity;
	memcpy( item->color, color, sizeof( color ) );
	return item;
}

// tb.draw.line(a, b [, color]) and tb.draw.arrow(from, to [, color])
static int tbDrawSegment( lua_State* L, const char* fn, tbLuaDrawKind kind )
{
	tbVec3 a = tbLua_CheckVec3( L, 1, fn, kind == tbLuaDraw_arrow ? "from" : "a", tbCheck_finite );
	tbVec3 b = tbLua_CheckVec3( L, 2, fn, kind == tbLuaDraw_arrow ? "to" : "b", tbCheck_finite );
	tbLuaDrawItem* item = tbNewItem( L, fn, kind, 3 );
	item->a = a;
	item->b = b;
	return 0;
}

static int tbDraw_Line( lua_State* L )
{
	return tbDrawSegment( L, "draw.line", tbLuaDraw_line );
}

static int tbDraw_Arrow( lua_State* L )
{
	return tbDrawSegment( L, "draw.arrow", tbLuaDraw_arrow );
}

// tb.draw.point(p [, color])
static int tbDraw_Point( lua_State* L )
{
	tbVec3 p = tbLua_CheckVec3( L, 1, "draw.point", "p", tbCheck_finite );
	tbNewItem( L, "draw.point", tbLuaDraw_point, 2 )->a = p;
	return 0;
}

// tb.draw.box(center, size [, color [, rot]])
static int tbDraw_Box( lua_State* L )
{
	tbVec3 center = tbLua_CheckVec3( L, 1, "draw.box", "center", tbCheck_finite );
	tbVec3 size = tbLua_CheckVec3( L, 2, "draw.box", "size", tbCheck_positive );
	tbQuat rotation = lua_isnoneornil( L, 4 ) ? tb_quatIdentity : tbLua_CheckQuatArgs( L, 4, "draw.box", "rot" );
	tbLuaDrawItem* item = tbNewItem( L, "draw.box", tbLuaDraw_box, 3 );
	item->a = center;
	item->b = tbMulSV( 0.5f, size );
	item->rotation = rotation;
	return 0;
}

// tb.draw.sphere(center, radius [, color])
static int tbDraw_Sphere( lua_State* L )
{
	tbVec3 center = tbLua_CheckVec3( L, 1, "draw.sphere", "center", tbCheck_finite );
	float radius = tbLua_CheckNumber( L, 2, "draw.sphere", "radius", tbCheck_positive );
	tbLuaDrawItem* item = tbNewItem( L, "draw.sphere", tbLuaDraw_sphere, 3 );
	item->a = center;
	item->radius = radius;
	return 0;
}

// tb.draw.text(pos, text [, color]): a label at a 3D point.
static int tbDraw_Text( lua_State* L )
{
	tbVec3 p = tbLua_CheckVec3( L, 1, "draw.text", "pos", tbCheck_finite );
	if ( lua_type( L, 2 ) != LUA_TSTRING && lua_type( L, 2 ) != LUA_TNUMBER )
	{
		char got[64];
		return luaL_error( L, "draw.text: text must be a string, got %s", tbLua_Describe( L, 2, got, sizeof( got ) ) );
	}
	size_t n = 0;
	const char* text = lua_tolstring( L, 2, &n );
	n = n < TB_LUA_MAX_LABEL ? n : TB_LUA_MAX_LABEL;
	tbLuaDrawItem* item = tbNewItem( L, "draw.text", tbLuaDraw_text, 3 );
	tbLuaView* view = tbCheckView( L );
	if ( view->textUsed + (int)n + 1 > view->textCapacity )
	{
		int capacity = view->textCapacity > 0 ? view->textCapacity : 4096;
		while ( capacity < view->textUsed + (int)n + 1 )
		{
			capacity *= 2;
		}
		char* grown = realloc( view->text, (size_t)capacity );
		if ( grown == NULL )
		{
			view->count -= 1;
			return luaL_error( L, "draw.text: out of memory" );
		}
		view->text = grown;
		view->textCapacity = capacity;
	}
	memcpy( view->text + view->textUsed, text, n );
	view->text[view->textUsed + (int)n] = '\0';
	item->a = p;
	item->textOffset = view->textUsed;
	view->textUsed += (int)n + 1;
	return 0;
}

// tb.draw.count() -> shapes drawn since the last step (and this frame's draw()).
static int tbDraw_Count( lua_State* L )
{
	lua_pushinteger( L, tbCheckView( L )->count );
	return 1;
}

// Input --------------------------------------------------------------------------------------------

// The key names the input queries accept: SDL's names of the keys (SDL_GetKeyFromName, which
// ignores case), checked here so that a misspelt name is an error in the viewer and headless alike
// instead of a key that is never down. Single characters: a-z, 0-9 and the punctuation keys below.
static const char* const tb_keyNames[] = {
	"space", "return", "escape", "tab", "backspace", "delete", "insert", "home", "end", "pageup", "pagedown",
	"left", "right", "up", "down", "left shift", "right shift", "left ctrl", "right ctrl", "left alt",
	"right alt", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12", NULL,
};
#define TB_KEY_PUNCTUATION "-=[];',./`\\"

static bool tbIsKeyName( const char* name )
{
	size_t length = strlen( name );
	if ( length == 1 )
	{
		char c = (char)tolower( (unsigned char)name[0] );
		return ( c >= 'a' && c <= 'z' ) || ( c >= '0' && c <= '9' ) || strchr( TB_KEY_PUNCTUATION, c ) != NULL;
	}
	for ( int i = 0; tb_keyNames[i] != NULL; ++i )
	{
		const char* a = name;
		const char* b = tb_keyNames[i];
		while ( *a != '\0' && tolower( (unsigned char)*a ) == *b )
		{
			++a;
			++b;
		}
		if ( *a == '\0' && *b == '\0' )
		{
			return true;
		}
	}
	return false;
}

static int tbKeyQuery( lua_State* L, const char* fn, tbLuaKeyQuery query )
{
	if ( lua_type( L, 1 ) != LUA_TSTRING || tbIsKeyName( lua_tostring( L, 1 ) ) == false )
	{
		char got[64];
		return luaL_error( L,
						   "%s: key must be a key name: a-z, 0-9, %s, or one of space, return, escape, tab, "
						   "backspace, delete, insert, home, end, pageup, pagedown, left, right, up, down, left shift, "
						   "right shift, left ctrl, right ctrl, left alt, right alt, f1-f12; got %s",
						   fn, TB_KEY_PUNCTUATION, tbLua_Describe( L, 1, got, sizeof( got ) ) );
	}
	tbLuaView* view = tbCheckView( L );
	bool result = view->keyFcn != NULL && view->keyFcn( lua_tostring( L, 1 ), query, view->keyContext );
	lua_pushboolean( L, result );
	return 1;
}

static int tbInput_Down( lua_State* L )
{
	return tbKeyQuery( L, "input.down", tbLuaKey_down );
}

static int tbInput_Pressed( lua_State* L )
{
	return tbKeyQuery( L, "input.pressed", tbLuaKey_pressed );
}

static int tbInput_Released( lua_State* L )
{
	return tbKeyQuery( L, "input.released", tbLuaKey_released );
}

static const char* const tb_buttonNames[] = { "left", "middle", "right", NULL };

static int tbButtonQuery( lua_State* L, const char* fn, int which )
{
	int button = tbLua_CheckEnum( L, 1, tb_buttonNames, fn, "mouse button" );
	const tbLuaView* view = tbCheckView( L );
	unsigned bits[3] = { view->mouse.down, view->mouse.pressed, view->mouse.released };
	lua_pushboolean( L, view->mouse.valid && ( bits[which] & ( 1u << button ) ) != 0 );
	return 1;
}

static int tbInput_MouseDown( lua_State* L )
{
	return tbButtonQuery( L, "input.mouse_down", 0 );
}

static int tbInput_MousePressed( lua_State* L )
{
	return tbButtonQuery( L, "input.mouse_pressed", 1 );
}

static int tbInput_MouseReleased( lua_State* L )
{
	return tbButtonQuery( L, "input.mouse_released", 2 );
}

// tb.input.mouse() -> x, y in window points from the top left; nothing without a window.
static int tbInput_Mouse( lua_State* L )
{
	const tbLuaView* view = tbCheckView( L );
	if ( view->mouse.valid == false )
	{
		return 0;
	}
	lua_pushnumber( L, view->mouse.x );
	lua_pushnumber( L, view->mouse.y );
	return 2;
}

// tb.input.mouse_ray() -> origin x, y, z, unit direction x, y, z; nothing without a window.
static int tbInput_MouseRay( lua_State* L )
{
	const tbLuaView* view = tbCheckView( L );
	if ( view->mouse.valid == false )
	{
		return 0;
	}
	tbLua_PushVec3( L, view->mouse.rayOrigin );
	tbLua_PushVec3( L, view->mouse.rayDirection );
	return 6;
}

// Module ---------------------------------------------------------------------------------------------

void tbLua_SetKeyProvider( lua_State* L, tbLuaKeyFcn* fcn, void* context )
{
	tbLuaView* view = tbLua_GetView( L );
	if ( view != NULL )
	{
		view->keyFcn = fcn;
		view->keyContext = context;
	}
}

void tbLua_OpenView( lua_State* L )
{
	if ( tbLua_GetView( L ) == NULL )
	{
		tbLuaView* view = lua_newuserdatauv( L, sizeof( tbLuaView ), 0 );
		memset( view, 0, sizeof( *view ) );
		view->stepMark = -1;
		lua_newtable( L );
		lua_pushcfunction( L, tbView_Gc );
		lua_setfield( L, -2, "__gc" );
		lua_setmetatable( L, -2 );
		lua_setfield( L, LUA_REGISTRYINDEX, tb_viewKey );
	}

	static const luaL_Reg camera[] = {
		{ "look_at", tbCamera_LookAtFn },
		{ "follow", tbCamera_FollowFn },
		{ "get", tbCamera_GetFn },
		{ NULL, NULL },
	};
	static const luaL_Reg draw[] = {
		{ "line", tbDraw_Line },   { "arrow", tbDraw_Arrow }, { "point", tbDraw_Point }, { "box", tbDraw_Box },
		{ "sphere", tbDraw_Sphere }, { "text", tbDraw_Text }, { "count", tbDraw_Count }, { NULL, NULL },
	};
	static const luaL_Reg input[] = {
		{ "down", tbInput_Down },
		{ "pressed", tbInput_Pressed },
		{ "released", tbInput_Released },
		{ "mouse", tbInput_Mouse },
		{ "mouse_down", tbInput_MouseDown },
		{ "mouse_pressed", tbInput_MousePressed },
		{ "mouse_released", tbInput_MouseReleased },
		{ "mouse_ray", tbInput_MouseRay },
		{ NULL, NULL },
	};
	luaL_newlib( L, camera );
	lua_setfield( L, -2, "camera" );
	luaL_newlib( L, draw );
	lua_setfield( L, -2, "draw" );
	luaL_newlib( L, input );
	lua_setfield( L, -2, "input" );
}
