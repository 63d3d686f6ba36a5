// Tumble runtime: hosting a scene script (loading, stepping, hot reload, mods).
// SPDX-License-Identifier: MIT
//
// A scene is a Lua file that returns a table:
//
//   local tb = require "tumble"
//   return {
//     world = { gravity = {0, 0, -10} },   -- optional settings for tb.world{...}
//     reload = "rebuild",                  -- or "swap" (see below), default "rebuild"
//     steps = 600,                         -- optional: default length of a headless run
//     title = "Hinges",                    -- optional: what the viewer and its picker call it
//     description = "A paddle ...",        -- optional: what it shows, on screen in the viewer
//     keys = { { "left, right", "steer" } },  -- optional: keys the scene claims, and what they do
//     setup = function(world) end,         -- build the scene (once per load / rebuild)
//     attach = function(world) end,        -- optional: after setup, and after every swap reload
//     update = function(world, dt, t) end, -- every step, before the world steps
//     keypressed = function(key) end,      -- viewer: a key went down
//     ui = function(ui) end,               -- viewer: tweak panel
//     draw = function() end,               -- viewer: every frame, after the steps (tb.draw, tb.camera)
//     finish = function(world) end,        -- headless: after the last step (assertions)
//   }
//
// How a host (headless runner, viewer) uses it:
//
//   tbScene* scene = tbScene_Create( &options );
//   if ( tbScene_Load( scene, "scene.lua" ) == false ) show( tbScene_GetError( scene ) );
//   each frame:
//     if ( tbScene_Step( scene, 1.0f / 60.0f ) == false ) show( tbScene_GetError( scene ) );
//     draw( tbScene_GetWorld( scene ) );          // read state through the physics C API
//     if ( files changed ) tbScene_Reload( scene ); // keeps the last good scene on failure
//   tbScene_Destroy( scene );
//
// Every (re)load makes a fresh lua_State. "rebuild" creates a new world and runs setup; "swap"
// keeps the running world (moved into the new state), keeps the fields the old scene table gained
// at run time (body, joint and mover handles, counters: anything but functions), takes the functions and the
// file's own fields from the new file, and calls attach(world) instead of setup. Event handlers
// registered with world:on belong to the old state and are dropped: register them in attach.
// Scene functions run under xpcall with a traceback. A failing reload leaves the running scene
// untouched. A failing update or event handler halts the scene (tbScene_Step returns false until
// a reload or tbScene_Resume).
//
// Mods (tbSceneOptions.mods) are extra scripts that act on the scene's world, each in a lua_State
// of its own (own memory cap, instruction budget and sandboxed environment; its own World userdata
// of the scene's world, whose handlers it runs after each step of that world), with the same table
// shape as a scene (setup, attach, update, keypressed; no world settings). A failing mod is stopped,
// its error kept in tbScene_GetModError, and its state closed at the end of that host step; the
// bodies, joints and movers it made in the scene's world stay. The scene and the other mods keep
// running.
#pragma once

#include "tumble_lua.h"

#include <lua.h>

#include <stdbool.h>
#include <stddef.h>

/// Worlds one scene state (the scene, its mods, the host's own world) may hold at once: half of
/// TB_MAX_WORLDS, less one, so that a reload's new state fits beside the running one.
#define TB_SCENE_MAX_WORLDS ( TB_MAX_WORLDS / 2 - 1 )

typedef struct tbScene tbScene;

/// How the scene asks to be reloaded.
typedef enum tbSceneReload
{
	tbSceneReload_rebuild = 0,
	tbSceneReload_swap = 1,
} tbSceneReload;

typedef struct tbSceneOptions
{
	bool sandbox;			 ///< run the scene itself in a sandboxed environment
	const char* const* mods; ///< mod script paths (copied), may be NULL
	int modCount;
	long instructionBudget; ///< per script (scene with sandbox, each mod) per host step, default 20 million
	size_t memoryLimit;		///< bytes for the Lua state when sandbox or mods are used, default 256 MiB
	const char* libraryDir; ///< directory of scripts/lib for require (copied), may be NULL
} tbSceneOptions;

/// Defaults for tbSceneOptions.
tbSceneOptions tbDefaultSceneOptions( void );

/// Create an empty host. Returns NULL only when out of memory.
tbScene* tbScene_Create( const tbSceneOptions* options );
void tbScene_Destroy( tbScene* scene );

/// Load (or replace with a fresh rebuild) the scene at path. On failure returns false, sets the
/// error, and keeps whatever scene was running.
bool tbScene_Load( tbScene* scene, const char* path );

/// Reload the current path in the mode the new file asks for. false: error set, old scene kept.
bool tbScene_Reload( tbScene* scene );

/// Whether a scene is loaded (a first load may have failed).
bool tbScene_IsLoaded( const tbScene* scene );

/// Run update(world, dt, t) of the scene and of every mod, then step the world by dt seconds and
/// run the event handlers. false: the scene failed (error set) and is halted.
bool tbScene_Step( tbScene* scene, float dt );

/// Clear the halted state after an error (the viewer's "continue").
void tbScene_Resume( tbScene* scene );
bool tbScene_IsHalted( const tbScene* scene );

/// Call the scene's function `name` (and each mod's) with the arguments pushArgs pushes (it
/// returns how many). Missing functions are skipped. Returns false on error (error set; the scene
/// halts only for errors of the scene itself). Use for "ui" and "keypressed".
typedef int tbScenePushArgsFcn( lua_State* L, void* context );
bool tbScene_Call( tbScene* scene, const char* name, tbScenePushArgsFcn* pushArgs, void* context );

/// keypressed(key) on the scene and the mods.
bool tbScene_KeyPressed( tbScene* scene, const char* key );

/// Headless end of run: finish(world) if the scene defines it.
bool tbScene_Finish( tbScene* scene );

/// The last error (message and traceback), or NULL.
const char* tbScene_GetError( const tbScene* scene );
void tbScene_ClearError( tbScene* scene );

/// The running world (null id when nothing is loaded).
tbWorldId tbScene_GetWorld( const tbScene* scene );
/// Simulated time of the running world, s.
double tbScene_GetTime( const tbScene* scene );
long long tbScene_GetStepCount( const tbScene* scene );

/// The Lua state of the running scene (changes on every reload; the mods' are their own). Stack
/// balanced between calls.
lua_State* tbScene_GetLuaState( tbScene* scene );

/// Path of the scene file, its reload mode, and its `steps` field (0 when absent).
const char* tbScene_GetPath( const tbScene* scene );
tbSceneReload tbScene_GetReloadMode( const tbScene* scene );
int tbScene_GetDefaultSteps( const tbScene* scene );
/// The scene's `camera = { eye = {x, y, z}, target = {x, y, z} }`, if it has one (the viewer's
/// first view and its Home key).
bool tbScene_GetCamera( const tbScene* scene, float eye[3], float target[3] );

#define TB_SCENE_TITLE_MAX 96
#define TB_SCENE_DESCRIPTION_MAX 1024
#define TB_SCENE_MAX_KEYS 16

/// One entry of the scene's `keys`: comma-separated key names (SDL names in lower case) and text.
typedef struct tbSceneKey
{
	char names[64];
	char text[96];
} tbSceneKey;

/// The scene's `title` and `description`, NULL when absent.
const char* tbScene_GetTitle( const tbScene* scene );
const char* tbScene_GetDescription( const tbScene* scene );
/// The scene's `keys` (valid until the next load). Returns the count.
int tbScene_GetKeys( const tbScene* scene, const tbSceneKey** keys );
/// Whether one of the scene's `keys` entries names the key (an SDL name in lower case): the viewer
/// then leaves that key to the scene.
bool tbScene_ClaimsKey( const tbScene* scene, const char* name );

/// Files to watch for hot reload: the scene, every file it required, the mods. Valid until the
/// next load. Returns the count and fills up to capacity paths.
int tbScene_GetFiles( const tbScene* scene, const char** paths, int capacity );

/// Mods: count, path and error (NULL while the mod runs).
int tbScene_GetModCount( const tbScene* scene );
const char* tbScene_GetModPath( const tbScene* scene, int index );
const char* tbScene_GetModError( const tbScene* scene, int index );
/// Bytes the mod's Lua state holds now; 0 once a stopped mod's state is closed (at the end of the
/// host step in which it failed).
size_t tbScene_GetModMemory( const tbScene* scene, int index );

/// Keyboard state for tb.input.down (kept across reloads).
void tbScene_SetKeyProvider( tbScene* scene, tbLuaKeyFcn* fcn, void* context );

/// Called by the require machinery: remember a file loaded by the state L for watching.
void tbScene_RecordFile( lua_State* L, const char* path );
