// Tumble viewer: the `ui` table a scene's ui(ui) function receives.
//
//   value = ui.slider(label, value, min, max)   -- drag to change; min, max default 0, 1
//   on = ui.checkbox(label, on)
//   if ui.button(label) then ... end            -- true on the frame it is clicked
//   ui.label(text)                              -- any value, shown with tostring
//   ui.separator()
//   ui.plot(name, value)                        -- adds a sample to a live plot (also from update)
//
// The widgets draw into the viewer's scene panel while ui(ui) runs; called at other times (a scene
// that kept the table) they return the value they were given and draw nothing.
// SPDX-License-Identifier: MIT
#include "viewer.h"

#include <lauxlib.h>

// Registry key of the cached table: one per lua_State, so a reload (a fresh state) builds its own.
static const char tb_uiTableKey = 'u';

static tbViewer* tbGetViewer( lua_State* L )
{
	return lua_touserdata( L, lua_upvalueindex( 1 ) );
}

static const char* tbCheckLabel( lua_State* L, const char* function )
{
	if ( lua_type( L, 1 ) != LUA_TSTRING && lua_type( L, 1 ) != LUA_TNUMBER )
	{
		luaL_error( L, "ui.%s: label must be a string, got %s", function, luaL_typename( L, 1 ) );
	}
	return lua_tostring( L, 1 );
}

static float tbCheckFloat( lua_State* L, int arg, const char* function, const char* what, float fallback, bool optional )
{
	if ( optional && lua_isnoneornil( L, arg ) )
	{
		return fallback;
	}
	int isNumber = 0;
	lua_Number v = lua_tonumberx( L, arg, &isNumber );
	if ( isNumber == 0 )
	{
		luaL_error( L, "ui.%s: %s must be a number, got %s", function, what, luaL_typename( L, arg ) );
	}
	return (float)v;
}

static int tbUiSlider( lua_State* L )
{
	tbViewer* viewer = tbGetViewer( L );
	const char* label = tbCheckLabel( L, "slider" );
	float value = tbCheckFloat( L, 2, "slider", "value", 0.0f, false );
	float min = tbCheckFloat( L, 3, "slider", "min", 0.0f, true );
	float max = tbCheckFloat( L, 4, "slider", "max", 1.0f, true );
	if ( !( min < max ) )
	{
		return luaL_error( L, "ui.slider: min must be less than max, got %f and %f", (double)min, (double)max );
	}
	if ( viewer->uiOpen )
	{
		tbUi_Slider( &viewer->ui, label, &value, min, max );
	}
	lua_pushnumber( L, value );
	return 1;
}

static int tbUiCheckbox( lua_State* L )
{
	tbViewer* viewer = tbGetViewer( L );
	const char* label = tbCheckLabel( L, "checkbox" );
	bool value = lua_toboolean( L, 2 ) != 0;
	if ( viewer->uiOpen )
	{
		tbUi_Checkbox( &viewer->ui, label, &value );
	}
	lua_pushboolean( L, value );
	return 1;
}

static int tbUiButton( lua_State* L )
{
	tbViewer* viewer = tbGetViewer( L );
	const char* label = tbCheckLabel( L, "button" );
	bool clicked = viewer->uiOpen && tbUi_Button( &viewer->ui, label );
	lua_pushboolean( L, clicked );
	return 1;
}

static int tbUiLabel( lua_State* L )
{
	tbViewer* viewer = tbGetViewer( L );
	luaL_checkany( L, 1 );
	const char* text = luaL_tolstring( L, 1, NULL );
	if ( viewer->uiOpen )
	{
		tbUi_Label( &viewer->ui, text );
	}
	return 0;
}

static int tbUiSeparator( lua_State* L )
{
	tbViewer* viewer = tbGetViewer( L );
	if ( viewer->uiOpen )
	{
		tbUi_Separator( &viewer->ui );
	}
	return 0;
}

static int tbUiPlot( lua_State* L )
{
	tbViewer* viewer = tbGetViewer( L );
	const char* name = tbCheckLabel( L, "plot" );
	float value = tbCheckFloat( L, 2, "plot", "value", 0.0f, false );
	tbViewer_Plot( viewer, name, value );
	return 0;
}

int tbUiLua_Push( lua_State* L, void* context )
{
	if ( lua_rawgetp( L, LUA_REGISTRYINDEX, &tb_uiTableKey ) == LUA_TTABLE )
	{
		return 1;
	}
	lua_pop( L, 1 );
	static const luaL_Reg functions[] = {
		{ "slider", tbUiSlider }, { "checkbox", tbUiCheckbox },	  { "button", tbUiButton },
		{ "label", tbUiLabel },	  { "separator", tbUiSeparator }, { "plot", tbUiPlot },
		{ NULL, NULL },
	};
	lua_createtable( L, 0, 6 );
	lua_pushlightuserdata( L, context );
	luaL_setfuncs( L, functions, 1 );
	lua_pushvalue( L, -1 );
	lua_rawsetp( L, LUA_REGISTRYINDEX, &tb_uiTableKey );
	return 1;
}
