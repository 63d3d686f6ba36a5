// Tumble runtime: hosting a scene script (loading, stepping, hot reload, mods).
// SPDX-License-Identifier: MIT
#include "scene.h"

#include "sandbox.h"

#include <lauxlib.h>
#include <lualib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TB_SCENE_FILES_KEY "tumble.files"
#define TB_MAX_CALL_DEPTH 16
// Deepest table nesting copied across a swap reload.
#define TB_MAX_TRANSPLANT_DEPTH 32

typedef struct tbInstance tbInstance;

// One script of the running scene: the scene itself (owner 0, in the instance's state) or a mod
// (owner i + 1, in a lua_State of its own: own allocator and memory cap, own instruction budget,
// own globals, library tables and metatables, own userdata of the scene's world and its objects).
typedef struct tbScript
{
	tbInstance* inst;
	int owner;
	const char* path; ///< owned by the scene
	lua_State* L;	  ///< NULL once a stopped mod's state is closed
	int tableRef;	  ///< the script's table in L; LUA_NOREF while a mod is stopped or not loaded
	int worldRef;	  ///< a mod's World userdata of the scene's world in L (the scene's: inst->worldRef)
	char* error;	  ///< a mod's first error, NULL while it runs
} tbScript;

// A script whose code is running, innermost last. Entering one closes the CPU-time span of the
// script it interrupts when that one lives in another state (each state times its own calls).
typedef struct tbRunning
{
	int owner;
	tbSandboxCall own;
	tbSandboxCall paused; ///< the interrupted script's, when pausedOwner >= 0
	int pausedOwner;
} tbRunning;

// One loaded generation of the scene: the scene's state, table and world, and the mods, each in a
// state of its own. A reload builds a new instance next to the running one and replaces it only
// when everything succeeded.
struct tbInstance
{
	tbScene* scene;
	lua_State* L;
	int sceneRef;
	int worldRef;
	tbWorldId worldId; ///< the scene's world, shared with the mods (null before there is one)
	bool sandboxed;	   ///< the scene itself runs sandboxed (its calls are budgeted)
	tbSceneReload reload;
	int defaultSteps;
	bool hasCamera; ///< the scene's `camera = { eye = {...}, target = {...} }`
	float cameraEye[3], cameraTarget[3];
	char title[TB_SCENE_TITLE_MAX];			  ///< `title`, empty when absent
	char description[TB_SCENE_DESCRIPTION_MAX]; ///< `description`, empty when absent
	tbSceneKey keys[TB_SCENE_MAX_KEYS];		  ///< `keys`
	int keyCount;
	tbScript sceneScript; ///< owner 0: the hooks' context in the scene's state
	tbScript* mods;		  ///< owners 1..modCount
	int modCount;
	tbRunning running[TB_MAX_CALL_DEPTH];
	int runningCount;
};

struct tbScene
{
	tbSceneOptions options;
	char** modPaths;
	char* libraryDir;
	char* path;
	char* dir;
	tbInstance* current;
	char* error;
	bool halted;
	char** files;
	int fileCount;
	tbLuaKeyFcn* keyFcn;
	void* keyContext;
};

// Small helpers ----------------------------------------------------------------------------------

static char* tbStrdup( const char* s )
{
	if ( s == NULL )
	{
		return NULL;
	}
	size_t n = strlen( s ) + 1;
	char* copy = malloc( n );
	if ( copy != NULL )
	{
		memcpy( copy, s, n );
	}
	return copy;
}

static char* tbDirName( const char* path )
{
	const char* slash = strrchr( path, '/' );
	if ( slash == NULL )
	{
		return tbStrdup( "." );
	}
	if ( slash == path )
	{
		return tbStrdup( "/" );
	}
	size_t n = (size_t)( slash - path );
	char* dir = malloc( n + 1 );
	if ( dir != NULL )
	{
		memcpy( dir, path, n );
		dir[n] = '\0';
	}
	return dir;
}

static void tbSetError( tbScene* scene, const char* message )
{
	free( scene->error );
	scene->error = tbStrdup( message != NULL ? message : "unknown error" );
}

static int tbTraceback( lua_State* L )
{
	const char* message = lua_tostring( L, 1 );
	if ( message == NULL )
	{
		message = lua_pushfstring( L, "(error object is a %s value)", luaL_typename( L, 1 ) );
	}
	luaL_traceback( L, L, message, 1 );
	return 1;
}

static bool tbSameWorld( tbWorldId a, tbWorldId b )
{
	return a.index1 == b.index1 && a.generation == b.generation;
}

static tbScript* tbGetScript( tbInstance* inst, int owner )
{
	return owner > 0 && owner <= inst->modCount ? inst->mods + owner - 1 : &inst->sceneScript;
}

// The scene's calls are budgeted when it is sandboxed; a mod's always are.
static bool tbIsLimited( const tbInstance* inst, int owner )
{
	return owner != 0 || inst->sandboxed;
}

// The message of a "not enough memory" error of owner's code: a spent budget when the script ran
// out of it (its large allocations are then refused), else the memory cap. Pushed on the script's
// state.
static void tbPushMemoryError( tbInstance* inst, int owner )
{
	tbScript* script = tbGetScript( inst, owner );
	lua_State* L = script->L;
	const char* trip = tbSandbox_GetTrip( L );
	if ( trip != NULL )
	{
		lua_pushfstring( L, "%s: %s", script->path, trip );
	}
	else
	{
		// Each script has its own cap: the message says what this one holds, so a hoarding mod is
		// told apart from one that merely came last.
		size_t lua = tbSandbox_GetMemoryUsed( L );
		size_t physics = 0;
		tbSandbox_GetPhysicsMemory( L, &physics );
		char held[96];
		snprintf( held, sizeof( held ), "%.1f MiB of Lua memory, %.1f MiB of bodies and joints", (double)lua / 1048576.0,
				  (double)physics / 1048576.0 );
		lua_pushfstring( L, "%s: not enough memory (the script's memory cap of %d MiB is reached; it holds %s)",
						 script->path, (int)( tbSandbox_GetMemoryLimit( L ) >> 20 ), held );
	}
}

// Runs fn(context) in protected mode in L. Any Lua error (including out of memory while the host
// pushes arguments) ends up in *error (malloc'd), never in a panic. With a script (not NULL), an
// out-of-memory error is said as tbPushMemoryError says it.
static int tbProtectedIn( lua_State* L, tbScript* script, lua_CFunction fn, void* context, char** error )
{
	int top = lua_gettop( L );
	lua_pushcfunction( L, fn );
	lua_pushlightuserdata( L, context );
	int status = lua_pcall( L, 1, 0, 0 );
	if ( status != LUA_OK && error != NULL )
	{
		size_t limit = tbSandbox_GetMemoryLimit( L );
		if ( status == LUA_ERRMEM && limit > 0 && script != NULL )
		{
			lua_pop( L, 1 );
			tbPushMemoryError( script->inst, script->owner );
			*error = tbStrdup( lua_tostring( L, -1 ) );
		}
		else if ( status == LUA_ERRMEM && limit > 0 )
		{
			char buffer[160];
			snprintf( buffer, sizeof( buffer ), "not enough memory (a script's memory cap of %zu MiB is reached)",
					  limit >> 20 );
			*error = tbStrdup( buffer );
		}
		else
		{
			const char* message = lua_tostring( L, -1 );
			*error = tbStrdup( message != NULL ? message : "error" );
		}
	}
	lua_settop( L, top );
	return status;
}

static int tbProtected( lua_State* L, lua_CFunction fn, void* context, char** error )
{
	return tbProtectedIn( L, NULL, fn, context, error );
}

// Enters owner's code (false when calls are nested TB_MAX_CALL_DEPTH deep already): its state
// draws from its account, limited or not, and the script it interrupts stops its CPU span.
static bool tbEnter( tbInstance* inst, int owner )
{
	if ( inst->runningCount == TB_MAX_CALL_DEPTH )
	{
		return false;
	}
	tbRunning* r = inst->running + inst->runningCount;
	lua_State* L = tbGetScript( inst, owner )->L;
	r->owner = owner;
	r->pausedOwner = -1;
	if ( inst->runningCount > 0 )
	{
		int outer = inst->running[inst->runningCount - 1].owner;
		lua_State* outerL = tbGetScript( inst, outer )->L;
		if ( outerL != L )
		{
			r->paused = tbSandbox_BeginCall( outerL, false );
			r->pausedOwner = outer;
		}
	}
	r->own = tbSandbox_BeginCall( L, tbIsLimited( inst, owner ) );
	inst->runningCount += 1;
	return true;
}

static void tbLeave( tbInstance* inst )
{
	inst->runningCount -= 1;
	tbRunning* r = inst->running + inst->runningCount;
	tbSandbox_EndCall( tbGetScript( inst, r->owner )->L, r->own );
	if ( r->pausedOwner >= 0 )
	{
		tbSandbox_EndCall( tbGetScript( inst, r->pausedOwner )->L, r->paused );
	}
}

static void tbPushNestingError( lua_State* L, const tbScript* script )
{
	lua_pushfstring( L, "%s: event handler not run: handlers nested more than %d deep (a handler stepping a world "
						"whose handler steps another, ...)",
					 script->path, TB_MAX_CALL_DEPTH );
}

// Calls the function under its nargs arguments on owner's state with a traceback handler and
// owner's budget. Leaves nresults or the message.
static int tbInstance_Call( tbInstance* inst, int owner, int nargs, int nresults )
{
	tbScript* script = tbGetScript( inst, owner );
	lua_State* L = script->L;
	int fnIndex = lua_gettop( L ) - nargs;
	if ( tbEnter( inst, owner ) == false )
	{
		lua_settop( L, fnIndex - 1 );
		tbPushNestingError( L, script );
		return LUA_ERRRUN;
	}
	lua_pushcfunction( L, tbTraceback );
	lua_insert( L, fnIndex );
	int status = lua_pcall( L, nargs, nresults, fnIndex );
	tbLeave( inst );
	lua_remove( L, fnIndex );
	if ( status == LUA_ERRMEM && tbSandbox_GetMemoryLimit( L ) > 0 )
	{
		lua_pop( L, 1 );
		tbPushMemoryError( inst, owner );
	}
	return status;
}

// Calls table[name](args) for the table in the registry of owner's state at tableRef; the nargs
// arguments are on that state's stack top and are consumed. A missing function is not an error.
// Functions are looked up raw: they must be fields of the table itself.
static int tbCallTableFunction( tbInstance* inst, int tableRef, int owner, const char* name, int nargs )
{
	lua_State* L = tbGetScript( inst, owner )->L;
	lua_rawgeti( L, LUA_REGISTRYINDEX, tableRef );
	lua_pushstring( L, name );
	lua_rawget( L, -2 );
	lua_remove( L, -2 );
	if ( lua_type( L, -1 ) != LUA_TFUNCTION )
	{
		lua_pop( L, 1 + nargs );
		return LUA_OK;
	}
	lua_insert( L, -1 - nargs );
	return tbInstance_Call( inst, owner, nargs, 0 );
}

static void tbPushWorld( tbInstance* inst )
{
	lua_rawgeti( inst->L, LUA_REGISTRYINDEX, inst->worldRef );
}

// The registry reference of the script's World of the scene's world (the scene's own is the
// instance's).
static int tbWorldRefOf( const tbScript* script )
{
	return script->owner == 0 ? script->inst->worldRef : script->worldRef;
}

// Gives the script's World of the scene's world the clock of the scene's own, which the host's
// steps advance. Pushes nothing; allocates nothing.
static void tbSyncClock( tbScript* script )
{
	tbInstance* inst = script->inst;
	if ( script->owner == 0 || script->L == NULL || script->worldRef == LUA_NOREF || inst->worldRef == LUA_NOREF ||
		 lua_checkstack( inst->L, 1 ) == 0 || lua_checkstack( script->L, 1 ) == 0 )
	{
		return;
	}
	double time = 0.0;
	long long steps = 0;
	tbPushWorld( inst );
	tbLua_GetWorldClock( inst->L, -1, &time, &steps );
	lua_pop( inst->L, 1 );
	lua_rawgeti( script->L, LUA_REGISTRYINDEX, script->worldRef );
	tbLua_SetWorldClock( script->L, -1, time, steps );
	lua_pop( script->L, 1 );
}

// Mods -------------------------------------------------------------------------------------------

// Keeps the first error of mod i and stops calling its code: its functions, its handlers (the host's
// beginCall refuses them). Its state is closed at the end of the host step, when none of its calls
// is on the stack (tbCloseStoppedMods).
static void tbStopMod( tbInstance* inst, int i, const char* message )
{
	tbScript* mod = inst->mods + i;
	if ( mod->error == NULL )
	{
		mod->error = tbStrdup( message != NULL ? message : "error" );
		fprintf( stderr, "tumble: mod %s disabled: %s\n", mod->path, mod->error );
	}
	mod->tableRef = LUA_NOREF;
}

// Closes the states of stopped mods: their memory goes back, the worlds they made end, the bodies,
// joints and movers they made in the scene's world stay (the scene may hold them).
static void tbCloseStoppedMods( tbInstance* inst )
{
	for ( int i = 0; inst != NULL && inst->runningCount == 0 && i < inst->modCount; ++i )
	{
		tbScript* mod = inst->mods + i;
		if ( mod->error != NULL && mod->L != NULL )
		{
			tbSandbox_CloseState( mod->L );
			mod->L = NULL;
			mod->worldRef = LUA_NOREF;
		}
	}
}

// Pushes the arguments of a script function call onto the script's state; returns how many.
typedef int tbPushArgs( tbScript* script, void* context );

static int tbPushWorldArg( tbScript* script, void* context )
{
	(void)context;
	lua_rawgeti( script->L, LUA_REGISTRYINDEX, tbWorldRefOf( script ) );
	return 1;
}

typedef struct tbModCall
{
	tbScript* mod;
	const char* name;
	tbPushArgs* push;
	void* context;
} tbModCall;

// Protected in the mod's state: its arguments are pushed there, so running out of memory while
// pushing them is the mod's error.
static int tbModCallEntry( lua_State* L )
{
	tbModCall* call = lua_touserdata( L, 1 );
	tbScript* mod = call->mod;
	tbSyncClock( mod );
	int nargs = call->push( mod, call->context );
	if ( tbCallTableFunction( mod->inst, mod->tableRef, mod->owner, call->name, nargs ) != LUA_OK )
	{
		return lua_error( L );
	}
	return 0;
}

// Calls name(args) on every running mod; a failure stops that mod only.
static void tbCallMods( tbInstance* inst, const char* name, tbPushArgs* push, void* context )
{
	for ( int i = 0; i < inst->modCount; ++i )
	{
		tbScript* mod = inst->mods + i;
		if ( mod->tableRef == LUA_NOREF || mod->L == NULL )
		{
			continue;
		}
		tbModCall call = { mod, name, push, context };
		char* error = NULL;
		if ( tbProtectedIn( mod->L, mod, tbModCallEntry, &call, &error ) != LUA_OK )
		{
			tbStopMod( inst, i, error );
		}
		free( error );
	}
}

// Scene function then mods; a scene error is raised (the caller runs protected).
static void tbCallAll( tbInstance* inst, const char* name, tbPushArgs* push, void* context )
{
	int nargs = push( &inst->sceneScript, context );
	if ( tbCallTableFunction( inst, inst->sceneRef, 0, name, nargs ) != LUA_OK )
	{
		lua_error( inst->L );
	}
	tbCallMods( inst, name, push, context );
}

// Host hooks of every state (the context is the state's tbScript) ---------------------------------

// The running calls form a stack; a handler nested deeper than it can hold is refused (were it run,
// its end would restore a state it did not save: the trusted scene's unlimited one).
static bool tbHostBeginCall( lua_State* L, int owner, void* context )
{
	(void)owner;
	tbScript* script = context;
	tbInstance* inst = script->inst;
	if ( script->error != NULL )
	{
		lua_pushfstring( L, "%s: event handler not run: the mod is stopped", script->path );
		return false;
	}
	if ( inst->runningCount == TB_MAX_CALL_DEPTH )
	{
		tbPushNestingError( L, script );
		return false;
	}
	if ( tbIsLimited( inst, script->owner ) && tbSandbox_GetTrip( L ) != NULL )
	{
		// Out of budget in this step: its other handlers are not started at all.
		lua_pushfstring( L, "%s: event handler not run: %s", script->path, tbSandbox_GetTrip( L ) );
		return false;
	}
	return tbEnter( inst, script->owner );
}

static void tbHostEndCall( lua_State* L, int owner, void* context )
{
	(void)L;
	(void)owner;
	tbScript* script = context;
	tbLeave( script->inst );
}

// The worlds the scene and its mods hold, over all their states. Reading another state's count
// allocates nothing (tbLua_GetOwnedWorldCount), so it is safe while that state is in a call.
static int tbCountWorlds( tbInstance* inst )
{
	int count = 0;
	for ( int owner = 0; owner <= inst->modCount; ++owner )
	{
		lua_State* L = tbGetScript( inst, owner )->L;
		if ( L != NULL && lua_checkstack( L, 1 ) )
		{
			count += tbLua_GetOwnedWorldCount( L );
		}
	}
	return count;
}

// Sandboxed scenes and mods (also in a host run without --sandbox): the World calls are checked
// against the physics and instruction budgets. The scene and its mods together, trusted or not, may
// hold at most TB_SCENE_MAX_WORLDS worlds: a reload builds the new scene in new states while the
// running ones keep their worlds, so each generation may have only half of the TB_MAX_WORLDS the
// process can hold (a scene holding 127 made every later reload fail).
static void tbHostGuard( lua_State* L, tbLuaGuard what, const char* fn, void* context )
{
	tbScript* script = context;
	tbInstance* inst = script->inst;
	int worlds = what == tbLuaGuard_world ? tbCountWorlds( inst ) : 0;
	if ( what == tbLuaGuard_world && worlds >= TB_SCENE_MAX_WORLDS )
	{
		luaL_error( L,
					"%s: a scene and its mods may hold at most %d worlds at once, and hold %d (half of the %d a "
					"process can have, so that a reload can build the new scene beside the running one)",
					fn, TB_SCENE_MAX_WORLDS, worlds, TB_MAX_WORLDS );
	}
	if ( tbIsLimited( inst, script->owner ) )
	{
		tbSandbox_Guard( L, what, fn, worlds );
	}
}

static bool tbHostHandlerError( lua_State* L, int owner, const char* message, void* context )
{
	(void)owner;
	tbScript* script = context;
	if ( script->owner == 0 )
	{
		return false;
	}
	int top = lua_gettop( L );
	if ( strcmp( message, "not enough memory" ) == 0 )
	{
		tbPushMemoryError( script->inst, script->owner );
		message = lua_tostring( L, -1 );
	}
	tbStopMod( script->inst, script->owner - 1, message );
	lua_settop( L, top );
	return true;
}

// A step of the scene's world, which only the scene's state may make (a mod may step only the
// worlds it made): every running mod gets the world's clock and runs its handlers for the step's
// events, in its own state with its own budget. A mod whose dispatch fails outside a handler (out
// of memory building its event tables) is stopped.
static void tbHostStepped( lua_State* L, int worldIndex, void* context )
{
	tbScript* stepper = context;
	tbInstance* inst = stepper->inst;
	if ( stepper->owner != 0 || TB_IS_NULL( inst->worldId ) ||
		 tbSameWorld( tbLua_ToWorld( L, worldIndex ), inst->worldId ) == false )
	{
		return;
	}
	double time = 0.0;
	long long steps = 0;
	tbLua_GetWorldClock( L, worldIndex, &time, &steps );
	for ( int i = 0; i < inst->modCount; ++i )
	{
		tbScript* mod = inst->mods + i;
		lua_State* S = mod->L;
		if ( S == NULL || mod->worldRef == LUA_NOREF || mod->error != NULL || lua_checkstack( S, 2 ) == 0 )
		{
			continue;
		}
		lua_rawgeti( S, LUA_REGISTRYINDEX, mod->worldRef );
		tbLua_SetWorldClock( S, -1, time, steps );
		int status = tbLua_DispatchEvents( S, -1 );
		if ( status != LUA_OK )
		{
			if ( status == LUA_ERRMEM && tbSandbox_GetMemoryLimit( S ) > 0 )
			{
				lua_pop( S, 1 );
				tbPushMemoryError( inst, mod->owner );
			}
			tbStopMod( inst, i, lua_tostring( S, -1 ) );
			lua_pop( S, 1 );
		}
		lua_pop( S, 1 );
	}
}

// State setup ------------------------------------------------------------------------------------

void tbScene_RecordFile( lua_State* L, const char* path )
{
	if ( lua_getfield( L, LUA_REGISTRYINDEX, TB_SCENE_FILES_KEY ) == LUA_TTABLE )
	{
		lua_pushstring( L, path );
		lua_rawseti( L, -2, (lua_Integer)lua_rawlen( L, -2 ) + 1 );
	}
	lua_pop( L, 1 );
}

// Pushes (and returns) the path templates of the helper library directory ("" without one).
static const char* tbLibraryPath( lua_State* L, const tbScene* scene )
{
	if ( scene->libraryDir == NULL )
	{
		lua_pushliteral( L, "" );
	}
	else
	{
		lua_pushfstring( L, "%s/?.lua;%s/?/init.lua", scene->libraryDir, scene->libraryDir );
	}
	return lua_tostring( L, -1 );
}

// package.searchers[2] replacement: records the file a require will load (even one that fails to
// compile, so fixing it triggers a reload), then defers to Lua's own searcher. "tumble.NAME" is
// first looked up as NAME in the library directory (tbLibraryModuleName).
// Upvalues: the original searcher, the package table, the library path.
static int tbRecordingSearcher( lua_State* L )
{
	const char* name = luaL_checkstring( L, 1 );
	const char* library = tbLibraryModuleName( name );
	lua_getfield( L, lua_upvalueindex( 2 ), "searchpath" );
	if ( library != NULL )
	{
		lua_pushvalue( L, -1 );
		lua_pushstring( L, library );
		lua_pushvalue( L, lua_upvalueindex( 3 ) );
		lua_call( L, 2, 1 );
		if ( lua_type( L, -1 ) == LUA_TSTRING )
		{
			const char* found = lua_tostring( L, -1 );
			tbScene_RecordFile( L, found );
			if ( tbSandbox_LoadFile( L, found, 0 ) != LUA_OK )
			{
				return luaL_error( L, "error loading module '%s' from file '%s':\n\t%s", name, found,
								   lua_tostring( L, -1 ) );
			}
			lua_pushstring( L, found );
			return 2;
		}
		lua_pop( L, 1 );
	}
	lua_pushstring( L, name );
	lua_getfield( L, lua_upvalueindex( 2 ), "path" );
	lua_call( L, 2, 1 );
	if ( lua_type( L, -1 ) == LUA_TSTRING )
	{
		tbScene_RecordFile( L, lua_tostring( L, -1 ) );
	}
	lua_pop( L, 1 );
	int n = lua_gettop( L );
	lua_pushvalue( L, lua_upvalueindex( 1 ) );
	lua_insert( L, 1 );
	lua_call( L, n, LUA_MULTRET );
	return lua_gettop( L );
}

static void tbOpenState( tbInstance* inst )
{
	lua_State* L = inst->L;
	tbScene* scene = inst->scene;
	luaL_openlibs( L );
	lua_newtable( L );
	lua_setfield( L, LUA_REGISTRYINDEX, TB_SCENE_FILES_KEY );
	tbLua_SetOwner( L, 0 );

	// stdout carries the headless report: scripts print to stderr.
	lua_pushcfunction( L, tbSandbox_Print );
	lua_setglobal( L, "print" );

	lua_getglobal( L, "package" );
	int package = lua_gettop( L );
	luaL_Buffer b;
	luaL_buffinit( L, &b );
	lua_pushfstring( L, "%s/?.lua;%s/?/init.lua;", scene->dir, scene->dir );
	luaL_addvalue( &b );
	if ( scene->libraryDir != NULL )
	{
		lua_pushfstring( L, "%s/?.lua;%s/?/init.lua;", scene->libraryDir, scene->libraryDir );
		luaL_addvalue( &b );
	}
	lua_getfield( L, package, "path" );
	luaL_addvalue( &b );
	luaL_pushresult( &b );
	lua_setfield( L, package, "path" );

	lua_getfield( L, package, "searchers" );
	lua_rawgeti( L, -1, 2 );
	lua_pushvalue( L, package );
	tbLibraryPath( L, scene );
	lua_pushcclosure( L, tbRecordingSearcher, 3 );
	lua_rawseti( L, -2, 2 );
	lua_settop( L, package - 1 );

	luaL_requiref( L, "tumble", luaopen_tumble, 0 );
	lua_pop( L, 1 );
	tbLua_SetKeyProvider( L, scene->keyFcn, scene->keyContext );
	tbLuaHost host = { tbHostBeginCall, tbHostEndCall, tbHostHandlerError, tbHostGuard, tbHostStepped, &inst->sceneScript };
	tbLua_SetHost( L, &host );
	if ( scene->options.sandbox )
	{
		tbSandbox_ProtectStrings( L );
	}
}

// A mod's state holds only what its sandboxed environment copies (no io, debug or package: the
// environment never reaches them, and each costs memory in every one of up to 64 states), the
// module, and the view it shares with the scene's state (one drawing, camera and input).
static void tbOpenModState( tbScript* mod )
{
	lua_State* L = mod->L;
	static const luaL_Reg libraries[] = {
		{ LUA_GNAME, luaopen_base },	   { LUA_COLIBNAME, luaopen_coroutine }, { LUA_TABLIBNAME, luaopen_table },
		{ LUA_STRLIBNAME, luaopen_string }, { LUA_MATHLIBNAME, luaopen_math },	   { LUA_UTF8LIBNAME, luaopen_utf8 },
		{ LUA_OSLIBNAME, luaopen_os },	   { NULL, NULL },
	};
	for ( const luaL_Reg* library = libraries; library->func != NULL; ++library )
	{
		luaL_requiref( L, library->name, library->func, 1 );
		lua_pop( L, 1 );
	}
	lua_newtable( L );
	lua_setfield( L, LUA_REGISTRYINDEX, TB_SCENE_FILES_KEY );
	tbLua_SetOwner( L, mod->owner );
	tbLua_ShareView( L, mod->inst->L );
	luaL_requiref( L, "tumble", luaopen_tumble, 0 );
	lua_pop( L, 1 );
	tbLuaHost host = { tbHostBeginCall, tbHostEndCall, tbHostHandlerError, tbHostGuard, tbHostStepped, mod };
	tbLua_SetHost( L, &host );
	tbSandbox_ProtectStrings( L );
}

// Pushes (and returns) the require path of a sandboxed script: its directory, then scripts/lib.
static const char* tbSandboxSearchPath( lua_State* L, tbScene* scene, const char* scriptPath )
{
	char* dir = tbDirName( scriptPath );
	if ( scene->libraryDir != NULL )
	{
		lua_pushfstring( L, "%s/?.lua;%s/?/init.lua;%s/?.lua;%s/?/init.lua", dir, dir, scene->libraryDir,
						 scene->libraryDir );
	}
	else
	{
		lua_pushfstring( L, "%s/?.lua;%s/?/init.lua", dir, dir );
	}
	free( dir );
	return lua_tostring( L, -1 );
}

// Swap reload: copy the old scene table's run-time fields into the new state -------------------

// What a swap reload's copy of the old scene table could not carry over, for the warnings.
typedef struct tbTransplant
{
	lua_State* from;
	lua_State* to;
	int world;		///< index in `to` of the World the new state runs
	tbWorldId worldId;
	int seen;		///< index in `to` of old table -> copy
	bool tooDeep;	///< a table nested deeper than TB_MAX_TRANSPLANT_DEPTH was cut
	bool otherWorld; ///< a World, or a handle of one, other than the scene's was left behind
} tbTransplant;

static bool tbIsSceneWorld( const tbTransplant* t, tbWorldId id )
{
	return tbSameWorld( id, t->worldId );
}

// Pushes onto t->to a copy of the value at `index` of t->from, or nil when it cannot cross states
// (functions, threads, foreign userdata). Handles of the scene's world become handles of the same
// objects in the new state; a World other than the scene's, and handles of its objects, cannot
// cross: that world ends with the old state. Tables are copied deeply with their sharing
// preserved.
static void tbCopyValue( tbTransplant* t, int index, int depth )
{
	lua_State* from = t->from;
	lua_State* to = t->to;
	index = lua_absindex( from, index );
	switch ( lua_type( from, index ) )
	{
		case LUA_TBOOLEAN:
			lua_pushboolean( to, lua_toboolean( from, index ) );
			return;
		case LUA_TNUMBER:
			if ( lua_isinteger( from, index ) )
			{
				lua_pushinteger( to, lua_tointeger( from, index ) );
			}
			else
			{
				lua_pushnumber( to, lua_tonumber( from, index ) );
			}
			return;
		case LUA_TSTRING: {
			size_t length = 0;
			const char* s = lua_tolstring( from, index, &length );
			lua_pushlstring( to, s, length );
			return;
		}
		case LUA_TUSERDATA: {
			tbBodyId bodyId;
			tbJointId jointId;
			tbMoverId moverId;
			tbWorldId worldId = tbLua_ToWorld( from, index );
			bool handle = true;
			if ( tbLua_ToBody( from, index, &bodyId ) )
			{
				worldId = tbBody_GetWorld( bodyId );
			}
			else if ( tbLua_ToJoint( from, index, &jointId ) )
			{
				worldId = tbJoint_GetWorld( jointId );
			}
			else if ( tbLua_ToMover( from, index, &moverId ) )
			{
				worldId = tbBody_GetWorld( tbMover_GetBody( moverId ) );
			}
			else
			{
				handle = TB_IS_NON_NULL( worldId );
			}
			if ( handle && tbIsSceneWorld( t, worldId ) == false )
			{
				// A stale handle names no world: it stays behind as quietly as before.
				t->otherWorld = t->otherWorld || TB_IS_NON_NULL( worldId );
				lua_pushnil( to );
			}
			else if ( handle == false )
			{
				lua_pushnil( to );
			}
			else if ( tbLua_ToBody( from, index, &bodyId ) )
			{
				tbLua_PushBody( to, t->world, bodyId );
			}
			else if ( tbLua_ToJoint( from, index, &jointId ) )
			{
				tbLua_PushJoint( to, t->world, jointId );
			}
			else if ( tbLua_ToMover( from, index, &moverId ) )
			{
				tbLua_PushMover( to, t->world, moverId );
			}
			else
			{
				lua_pushvalue( to, t->world );
			}
			return;
		}
		case LUA_TTABLE: {
			if ( depth > TB_MAX_TRANSPLANT_DEPTH || lua_checkstack( from, 4 ) == 0 )
			{
				t->tooDeep = true;
				lua_pushnil( to );
				return;
			}
			luaL_checkstack( to, 6, "swap reload" );
			lua_pushlightuserdata( to, (void*)lua_topointer( from, index ) );
			if ( lua_rawget( to, t->seen ) == LUA_TTABLE )
			{
				return;
			}
			lua_pop( to, 1 );
			lua_newtable( to );
			lua_pushlightuserdata( to, (void*)lua_topointer( from, index ) );
			lua_pushvalue( to, -2 );
			lua_rawset( to, t->seen );
			lua_pushnil( from );
			while ( lua_next( from, index ) != 0 )
			{
				tbCopyValue( t, -2, depth + 1 );
				tbCopyValue( t, -1, depth + 1 );
				if ( lua_isnil( to, -2 ) || lua_isnil( to, -1 ) )
				{
					lua_pop( to, 2 );
				}
				else
				{
					lua_rawset( to, -3 );
				}
				lua_pop( from, 1 );
			}
			return;
		}
		default:
			lua_pushnil( to );
			return;
	}
}

// Fields the old scene table gained at run time (absent from the new file's table, and not
// functions) are copied into the new table at newTable. What could not be carried over (tables
// nested too deep, another world) is said in a warning naming the file and the field.
static void tbTransplantFields( lua_State* from, int oldTable, lua_State* to, int newTable, int world, const char* path )
{
	oldTable = lua_absindex( from, oldTable );
	newTable = lua_absindex( to, newTable );
	tbTransplant t = { from, to, lua_absindex( to, world ), tbLua_ToWorld( to, world ), 0, false, false };
	lua_newtable( to );
	t.seen = lua_gettop( to );
	lua_pushnil( from );
	while ( lua_next( from, oldTable ) != 0 )
	{
		if ( lua_type( from, -1 ) != LUA_TFUNCTION )
		{
			tbCopyValue( &t, -2, 0 );
			if ( lua_isnil( to, -1 ) == false )
			{
				lua_pushvalue( to, -1 );
				if ( lua_rawget( to, newTable ) == LUA_TNIL )
				{
					lua_pop( to, 1 );
					t.tooDeep = false;
					t.otherWorld = false;
					tbCopyValue( &t, -1, 0 );
					const char* field = lua_type( from, -2 ) == LUA_TSTRING ? lua_tostring( from, -2 ) : "(a non-string key)";
					if ( t.tooDeep )
					{
						fprintf( stderr,
								 "tumble: warning: %s: swap reload: scene.%s nests tables deeper than %d levels; the "
								 "deeper levels are not carried over\n",
								 path, field, TB_MAX_TRANSPLANT_DEPTH );
					}
					if ( t.otherWorld )
					{
						fprintf( stderr,
								 "tumble: warning: %s: swap reload: scene.%s holds a world other than the scene's (or "
								 "its bodies, joints or movers); it ends with the old state and is not carried over\n",
								 path, field );
					}
					if ( lua_isnil( to, -1 ) )
					{
						lua_pop( to, 2 );
					}
					else
					{
						lua_rawset( to, newTable );
					}
				}
				else
				{
					lua_pop( to, 2 );
				}
			}
			else
			{
				lua_pop( to, 1 );
			}
		}
		lua_pop( from, 1 );
	}
	lua_pop( to, 1 );
}

// Building an instance ---------------------------------------------------------------------------

typedef struct tbBuildContext
{
	tbInstance* inst;
	tbInstance* old; ///< the running instance, for swap reloads (may be NULL)
	bool swapped;
	/// A swap reload hands the running world to the new script; its state before, restored if the
	/// reload fails, so a half-run attach() or world settings of a broken edit leave nothing behind.
	tbWorldId swapWorld;
	tbSnapshot* before;
} tbBuildContext;

static int tbApplySettingsEntry( lua_State* L )
{
	tbLua_ApplyWorldSettings( L, 1, 2 );
	return 0;
}

// Raises "<path>: <what> must be ..., got ..." for a badly typed scene field.
static void tbCheckField( lua_State* L, int table, const char* path, const char* key, int type )
{
	int actual = lua_getfield( L, table, key );
	if ( actual != LUA_TNIL && actual != type )
	{
		lua_pushfstring( L, "%s: the scene's field '%s' must be a %s, got a %s", path, key, lua_typename( L, type ),
						 luaL_typename( L, -1 ) );
		lua_error( L );
	}
	lua_pop( L, 1 );
}

// Edit distance of two short names (insertions, deletions, substitutions, adjacent swaps), capped
// at 3: enough to tell a misspelling.
static int tbEditDistance( const char* a, const char* b )
{
	size_t n = strlen( a );
	size_t m = strlen( b );
	if ( n > 31 || m > 31 )
	{
		return 3;
	}
	int d[32][32];
	for ( size_t i = 0; i <= n; ++i )
	{
		for ( size_t j = 0; j <= m; ++j )
		{
			int best = (int)( i > j ? i : j );
			if ( i > 0 && j > 0 )
			{
				int substitute = d[i - 1][j - 1] + ( a[i - 1] != b[j - 1] );
				int remove = d[i - 1][j] + 1;
				int insert = d[i][j - 1] + 1;
				best = substitute < remove ? substitute : remove;
				best = insert < best ? insert : best;
				if ( i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best )
				{
					best = d[i - 2][j - 2] + 1;
				}
			}
			d[i][j] = best;
		}
	}
	return d[n][m] < 3 ? d[n][m] : 3;
}

// A function field whose name is a misspelling of one the runtime calls (scene.finsh, scene.udpate)
// would silently never run: warn with the file and the line where the function is defined. Other
// fields are the scene's own state (scene.hinge = ...), left alone.
static void tbWarnMisspelledFunctions( lua_State* L, int table, const char* const* functions )
{
	lua_pushnil( L );
	while ( lua_next( L, table ) != 0 )
	{
		if ( lua_type( L, -2 ) == LUA_TSTRING && lua_type( L, -1 ) == LUA_TFUNCTION )
		{
			const char* key = lua_tostring( L, -2 );
			bool known = false;
			const char* closest = NULL;
			for ( int i = 0; functions[i] != NULL; ++i )
			{
				known = known || strcmp( key, functions[i] ) == 0;
				// At most 2 edits, and fewer than half the name's letters ("ui2" is not "ui").
				int distance = tbEditDistance( key, functions[i] );
				if ( closest == NULL && distance <= 2 && 2 * (size_t)distance < strlen( functions[i] ) )
				{
					closest = functions[i];
				}
			}
			if ( known == false && closest != NULL )
			{
				lua_Debug ar;
				lua_pushvalue( L, -1 );
				lua_getinfo( L, ">S", &ar );
				fprintf( stderr, "tumble: warning: %s:%d: the scene's function '%s' is never called (did you mean '%s'?)\n",
						 ar.short_src, ar.linedefined, key, closest );
			}
		}
		lua_pop( L, 1 );
	}
}

// A string field of the scene table of at most size - 1 bytes into out ("" when absent).
static void tbReadSceneString( lua_State* L, int table, const char* path, const char* key, char* out, size_t size )
{
	out[0] = '\0';
	int type = lua_getfield( L, table, key );
	if ( type == LUA_TSTRING )
	{
		size_t n = 0;
		const char* text = lua_tolstring( L, -1, &n );
		if ( n >= size )
		{
			lua_pushfstring( L, "%s: the scene's field '%s' must be at most %d characters, got %d", path, key,
							 (int)size - 1, (int)n );
			lua_error( L );
		}
		memcpy( out, text, n + 1 );
	}
	else if ( type != LUA_TNIL )
	{
		lua_pushfstring( L, "%s: the scene's field '%s' must be a string, got a %s", path, key, luaL_typename( L, -1 ) );
		lua_error( L );
	}
	lua_pop( L, 1 );
}

// keys = { { "left, right", "roll the wheel" }, { "space", "fire" } }: the keys the scene claims
// (SDL key names in lower case, comma separated) and what each does. The viewer keeps Esc and the
// F-keys for itself, so a scene cannot claim those.
static void tbReadSceneKeys( tbInstance* inst, int table, const char* path )
{
	lua_State* L = inst->L;
	inst->keyCount = 0;
	int type = lua_getfield( L, table, "keys" );
	if ( type == LUA_TNIL )
	{
		lua_pop( L, 1 );
		return;
	}
	const char* shape = "%s: the scene's field 'keys' must be a list of { \"key, key\", \"what they do\" } pairs";
	if ( type != LUA_TTABLE )
	{
		lua_pushfstring( L, shape, path );
		lua_error( L );
	}
	int count = (int)lua_rawlen( L, -1 );
	if ( count > TB_SCENE_MAX_KEYS )
	{
		lua_pushfstring( L, "%s: the scene's field 'keys' has %d entries, at most %d", path, count, TB_SCENE_MAX_KEYS );
		lua_error( L );
	}
	for ( int i = 0; i < count; ++i )
	{
		tbSceneKey* key = inst->keys + i;
		lua_rawgeti( L, -1, i + 1 );
		bool ok = lua_type( L, -1 ) == LUA_TTABLE && lua_rawgeti( L, -1, 1 ) == LUA_TSTRING &&
				  lua_rawgeti( L, -2, 2 ) == LUA_TSTRING && lua_rawlen( L, -2 ) < sizeof( key->names ) &&
				  lua_rawlen( L, -1 ) < sizeof( key->text );
		if ( ok == false )
		{
			lua_pushfstring( L, shape, path );
			lua_pushfstring( L, " (at most %d and %d characters); entry %d is not", (int)sizeof( key->names ) - 1,
							 (int)sizeof( key->text ) - 1, i + 1 );
			lua_concat( L, 2 );
			lua_error( L );
		}
		snprintf( key->names, sizeof( key->names ), "%s", lua_tostring( L, -2 ) );
		snprintf( key->text, sizeof( key->text ), "%s", lua_tostring( L, -1 ) );
		lua_pop( L, 3 );
		// Each name: lower case, no Esc, no F-key.
		for ( const char* p = key->names; *p != '\0'; )
		{
			while ( *p == ',' || *p == ' ' )
			{
				++p;
			}
			size_t n = strcspn( p, "," );
			while ( n > 0 && p[n - 1] == ' ' )
			{
				--n;
			}
			bool functionKey = n >= 2 && n <= 3 && p[0] == 'f' && p[1] >= '1' && p[1] <= '9';
			bool escape = n == 6 && strncmp( p, "escape", 6 ) == 0;
			if ( n > 0 && ( functionKey || escape ) )
			{
				lua_pushfstring( L, "%s: the scene's field 'keys' claims '%s', which the viewer keeps (Esc and the F-keys)",
								 path, lua_pushlstring( L, p, n ) );
				lua_error( L );
			}
			p += strcspn( p, "," );
		}
		inst->keyCount = i + 1;
	}
	lua_pop( L, 1 );
}

static void tbReadSceneTable( tbInstance* inst, int table )
{
	lua_State* L = inst->L;
	const char* path = inst->scene->path;
	static const char* const functions[] = { "setup", "attach", "update", "keypressed", "ui", "draw", "finish", NULL };
	for ( int i = 0; functions[i] != NULL; ++i )
	{
		tbCheckField( L, table, path, functions[i], LUA_TFUNCTION );
	}
	tbWarnMisspelledFunctions( L, table, functions );
	tbCheckField( L, table, path, "world", LUA_TTABLE );

	inst->reload = tbSceneReload_rebuild;
	int type = lua_getfield( L, table, "reload" );
	if ( type != LUA_TNIL )
	{
		const char* mode = lua_tostring( L, -1 );
		if ( type != LUA_TSTRING || ( strcmp( mode, "rebuild" ) != 0 && strcmp( mode, "swap" ) != 0 ) )
		{
			lua_pushfstring( L, "%s: invalid reload mode %s%s%s (expected 'rebuild' or 'swap')", path,
							 type == LUA_TSTRING ? "'" : "a ", type == LUA_TSTRING ? mode : luaL_typename( L, -1 ),
							 type == LUA_TSTRING ? "'" : "" );
			lua_error( L );
		}
		inst->reload = strcmp( mode, "swap" ) == 0 ? tbSceneReload_swap : tbSceneReload_rebuild;
	}
	lua_pop( L, 1 );

	tbReadSceneString( L, table, path, "title", inst->title, sizeof( inst->title ) );
	tbReadSceneString( L, table, path, "description", inst->description, sizeof( inst->description ) );
	tbReadSceneKeys( inst, table, path );

	inst->defaultSteps = 0;
	type = lua_getfield( L, table, "steps" );
	if ( type != LUA_TNIL )
	{
		int isInteger = 0;
		lua_Integer steps = lua_tointegerx( L, -1, &isInteger );
		if ( type != LUA_TNUMBER || isInteger == 0 || steps < 0 || steps > 100000000 )
		{
			lua_pushfstring( L, "%s: the scene's field 'steps' must be a non-negative integer", path );
			lua_error( L );
		}
		inst->defaultSteps = (int)steps;
	}
	lua_pop( L, 1 );

	// camera = { eye = {x, y, z}, target = {x, y, z} }: where the viewer looks from at first.
	inst->hasCamera = false;
	type = lua_getfield( L, table, "camera" );
	if ( type != LUA_TNIL )
	{
		bool ok = type == LUA_TTABLE;
		const char* const keys[2] = { "eye", "target" };
		float* outs[2] = { inst->cameraEye, inst->cameraTarget };
		for ( int k = 0; k < 2 && ok; ++k )
		{
			ok = lua_getfield( L, -1, keys[k] ) == LUA_TTABLE && lua_rawlen( L, -1 ) == 3;
			for ( int i = 0; i < 3 && ok; ++i )
			{
				int isNumber = 0;
				lua_rawgeti( L, -1, i + 1 );
				double x = lua_tonumberx( L, -1, &isNumber );
				ok = isNumber != 0 && isfinite( x ) && fabs( x ) < 1.0e6;
				outs[k][i] = (float)x;
				lua_pop( L, 1 );
			}
			lua_pop( L, 1 );
		}
		if ( ok )
		{
			float d[3] = { inst->cameraEye[0] - inst->cameraTarget[0], inst->cameraEye[1] - inst->cameraTarget[1],
						   inst->cameraEye[2] - inst->cameraTarget[2] };
			ok = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > 1.0e-6f;
		}
		if ( ok == false )
		{
			lua_pushfstring( L, "%s: the scene's field 'camera' must be { eye = {x, y, z}, target = {x, y, z} } "
								"with finite numbers and eye != target",
							 path );
			lua_error( L );
		}
		inst->hasCamera = true;
	}
	lua_pop( L, 1 );
}

// Protected in the mod's state: opens it, loads the file in a sandboxed environment and runs it.
static int tbLoadModEntry( lua_State* L )
{
	tbScript* mod = lua_touserdata( L, 1 );
	tbScene* scene = mod->inst->scene;
	lua_settop( L, 0 );
	tbOpenModState( mod );
	tbScene_RecordFile( L, mod->path );
	tbSandbox_PushEnvironment( L, tbSandboxSearchPath( L, scene, mod->path ), tbLibraryPath( L, scene ) );
	int status = tbSandbox_LoadFile( L, mod->path, -1 );
	if ( status == LUA_ERRMEM )
	{
		lua_pop( L, 1 );
		tbPushMemoryError( mod->inst, mod->owner );
	}
	if ( status == LUA_OK )
	{
		status = tbInstance_Call( mod->inst, mod->owner, 0, 1 );
	}
	if ( status != LUA_OK )
	{
		return lua_error( L );
	}
	if ( lua_type( L, -1 ) != LUA_TTABLE )
	{
		lua_pushfstring( L, "%s: a mod must return a table, got a %s", mod->path, luaL_typename( L, -1 ) );
		return lua_error( L );
	}
	mod->tableRef = luaL_ref( L, LUA_REGISTRYINDEX );
	return 0;
}

// Each mod in a state of its own, with the memory cap and instruction budget of one script. A mod
// that fails to load is stopped; the scene and the other mods go on.
static void tbLoadMods( tbInstance* inst )
{
	tbScene* scene = inst->scene;
	for ( int i = 0; i < inst->modCount; ++i )
	{
		tbScript* mod = inst->mods + i;
		mod->L = tbSandbox_NewState( scene->options.memoryLimit );
		if ( mod->L == NULL )
		{
			tbStopMod( inst, i, "out of memory creating the mod's Lua state" );
			continue;
		}
		tbSandbox_SetBudget( mod->L, scene->options.instructionBudget );
		char* error = NULL;
		if ( tbProtectedIn( mod->L, mod, tbLoadModEntry, mod, &error ) != LUA_OK )
		{
			tbStopMod( inst, i, error );
		}
		free( error );
	}
}

// Protected in the mod's state: its own World userdata of the scene's world (not owned: closing the
// mod's state leaves the world alive).
static int tbGiveWorldEntry( lua_State* L )
{
	tbScript* mod = lua_touserdata( L, 1 );
	tbLua_PushWorld( L, mod->inst->worldId, false );
	mod->worldRef = luaL_ref( L, LUA_REGISTRYINDEX );
	tbSyncClock( mod );
	return 0;
}

// The scene's world is made (or taken over on a swap): the scene's state holds it; every running mod
// gets a World of its own for it.
static void tbShareWorld( tbInstance* inst )
{
	tbPushWorld( inst );
	inst->worldId = tbLua_ToWorld( inst->L, -1 );
	lua_pop( inst->L, 1 );
	for ( int i = 0; i < inst->modCount; ++i )
	{
		tbScript* mod = inst->mods + i;
		char* error = NULL;
		if ( mod->tableRef != LUA_NOREF && tbProtectedIn( mod->L, mod, tbGiveWorldEntry, mod, &error ) != LUA_OK )
		{
			tbStopMod( inst, i, error );
		}
		free( error );
	}
}

// The physics budget of a sandboxed scene (sandbox.h): raises the error naming the limit.
static void tbCheckPhysicsBudget( tbInstance* inst, bool predict )
{
	if ( inst->sandboxed == false || inst->worldRef == LUA_NOREF )
	{
		return;
	}
	lua_State* L = inst->L;
	lua_rawgeti( L, LUA_REGISTRYINDEX, inst->worldRef );
	tbWorldId world = tbLua_ToWorld( L, -1 );
	lua_pop( L, 1 );
	char message[320];
	if ( tbSandbox_CheckPhysics( world, predict, message, sizeof( message ) ) == false )
	{
		lua_pushstring( L, message );
		lua_error( L );
	}
}

static int tbBuildEntry( lua_State* L )
{
	tbBuildContext* context = lua_touserdata( L, 1 );
	tbInstance* inst = context->inst;
	tbScene* scene = inst->scene;
	lua_settop( L, 0 );

	tbOpenState( inst );
	tbScene_RecordFile( L, scene->path );

	int env = 0;
	if ( scene->options.sandbox )
	{
		tbSandbox_PushEnvironment( L, tbSandboxSearchPath( L, scene, scene->path ), tbLibraryPath( L, scene ) );
		env = lua_gettop( L );
	}
	int status = tbSandbox_LoadFile( L, scene->path, env );
	if ( status == LUA_ERRMEM )
	{
		lua_pop( L, 1 );
		tbPushMemoryError( inst, 0 );
	}
	if ( status != LUA_OK )
	{
		return lua_error( L );
	}
	if ( tbInstance_Call( inst, 0, 0, 1 ) != LUA_OK )
	{
		return lua_error( L );
	}
	if ( lua_type( L, -1 ) != LUA_TTABLE )
	{
		lua_pushfstring( L, "%s: a scene must return a table, got a %s", scene->path, luaL_typename( L, -1 ) );
		return lua_error( L );
	}
	tbReadSceneTable( inst, lua_gettop( L ) );
	inst->sceneRef = luaL_ref( L, LUA_REGISTRYINDEX );

	tbLoadMods( inst );

	tbInstance* old = context->old;
	tbWorldId oldWorld = tb_nullWorldId;
	if ( old != NULL && inst->reload == tbSceneReload_swap && old->worldRef != LUA_NOREF )
	{
		lua_rawgeti( old->L, LUA_REGISTRYINDEX, old->worldRef );
		oldWorld = tbLua_ToWorld( old->L, -1 );
		lua_pop( old->L, 1 );
	}

	if ( TB_IS_NON_NULL( oldWorld ) )
	{
		// Swap: the running world moves into this state; the old state keeps ownership until the
		// whole reload succeeded.
		context->swapWorld = oldWorld;
		context->before = tbWorld_TakeSnapshot( oldWorld );
		if ( context->before == NULL )
		{
			lua_pushfstring( L, "%s: swap reload: out of memory saving the world", scene->path );
			return lua_error( L );
		}
		double time = 0.0;
		long long steps = 0;
		lua_rawgeti( old->L, LUA_REGISTRYINDEX, old->worldRef );
		tbLua_GetWorldClock( old->L, -1, &time, &steps );
		lua_pop( old->L, 1 );
		tbLua_PushWorld( L, oldWorld, false );
		tbLua_SetWorldClock( L, -1, time, steps );
		inst->worldRef = luaL_ref( L, LUA_REGISTRYINDEX );
		tbShareWorld( inst );

		lua_rawgeti( L, LUA_REGISTRYINDEX, inst->sceneRef );
		int table = lua_gettop( L );
		if ( lua_getfield( L, table, "world" ) == LUA_TTABLE )
		{
			lua_pushcfunction( L, tbApplySettingsEntry );
			tbPushWorld( inst );
			lua_pushvalue( L, -3 );
			if ( tbInstance_Call( inst, 0, 2, 0 ) != LUA_OK )
			{
				lua_pushfstring( L, "%s: world settings: %s", scene->path, lua_tostring( L, -1 ) );
				return lua_error( L );
			}
		}
		lua_pop( L, 1 );

		lua_rawgeti( old->L, LUA_REGISTRYINDEX, old->sceneRef );
		tbPushWorld( inst );
		tbTransplantFields( old->L, -1, L, table, -1, scene->path );
		lua_pop( L, 1 );
		lua_pop( old->L, 1 );
		lua_settop( L, 0 );

		tbCallAll( inst, "attach", tbPushWorldArg, NULL );
		tbCheckPhysicsBudget( inst, true );
		context->swapped = true;
		return 0;
	}

	// Rebuild: a new world from the scene's settings, then setup and attach.
	luaL_getsubtable( L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE );
	lua_getfield( L, -1, "tumble" );
	lua_getfield( L, -1, "world" );
	lua_rawgeti( L, LUA_REGISTRYINDEX, inst->sceneRef );
	lua_getfield( L, -1, "world" );
	lua_remove( L, -2 );
	if ( tbInstance_Call( inst, 0, 1, 1 ) != LUA_OK )
	{
		lua_pushfstring( L, "%s: world settings: %s", scene->path, lua_tostring( L, -1 ) );
		return lua_error( L );
	}
	inst->worldRef = luaL_ref( L, LUA_REGISTRYINDEX );
	tbShareWorld( inst );
	lua_settop( L, 0 );

	tbCallAll( inst, "setup", tbPushWorldArg, NULL );
	tbCallAll( inst, "attach", tbPushWorldArg, NULL );
	tbCheckPhysicsBudget( inst, true );
	return 0;
}

// The mods' states first: they share the view the scene's state holds.
static void tbDestroyInstance( tbInstance* inst )
{
	if ( inst == NULL )
	{
		return;
	}
	for ( int i = 0; i < inst->modCount; ++i )
	{
		tbSandbox_CloseState( inst->mods[i].L );
		free( inst->mods[i].error );
	}
	tbSandbox_CloseState( inst->L );
	free( inst->mods );
	free( inst );
}

static tbInstance* tbCreateInstance( tbScene* scene )
{
	tbInstance* inst = calloc( 1, sizeof( tbInstance ) );
	if ( inst == NULL )
	{
		return NULL;
	}
	inst->scene = scene;
	inst->sceneRef = LUA_NOREF;
	inst->worldRef = LUA_NOREF;
	inst->sandboxed = scene->options.sandbox;
	bool limits = scene->options.sandbox || scene->options.modCount > 0;
	inst->L = tbSandbox_NewState( limits ? scene->options.memoryLimit : 0 );
	inst->modCount = scene->options.modCount;
	inst->mods = inst->modCount > 0 ? calloc( (size_t)inst->modCount, sizeof( tbScript ) ) : NULL;
	if ( inst->L == NULL || ( inst->modCount > 0 && inst->mods == NULL ) )
	{
		tbDestroyInstance( inst );
		return NULL;
	}
	inst->sceneScript = ( tbScript ){ inst, 0, scene->path, inst->L, LUA_NOREF, LUA_NOREF, NULL };
	for ( int i = 0; i < inst->modCount; ++i )
	{
		inst->mods[i] = ( tbScript ){ inst, i + 1, scene->modPaths[i], NULL, LUA_NOREF, LUA_NOREF, NULL };
	}
	if ( limits )
	{
		tbSandbox_SetBudget( inst->L, scene->options.instructionBudget );
	}
	return inst;
}

// A new host step (a frame, a key press, a load): every script's account starts from zero.
static void tbBeginHostStep( tbInstance* inst )
{
	for ( int owner = 0; owner <= inst->modCount; ++owner )
	{
		lua_State* L = tbGetScript( inst, owner )->L;
		if ( L != NULL )
		{
			tbSandbox_BeginHostStep( L );
		}
	}
}

// Watched files ----------------------------------------------------------------------------------

static void tbFreeFiles( char** files, int count )
{
	for ( int i = 0; i < count; ++i )
	{
		free( files[i] );
	}
	free( files );
}

typedef struct tbFileList
{
	char** files;
	int count;
	int capacity;
} tbFileList;

static void tbAddFile( tbFileList* list, const char* path )
{
	for ( int i = 0; i < list->count; ++i )
	{
		if ( strcmp( list->files[i], path ) == 0 )
		{
			return;
		}
	}
	if ( list->count == list->capacity )
	{
		int capacity = list->capacity > 0 ? 2 * list->capacity : 8;
		char** files = realloc( list->files, (size_t)capacity * sizeof( char* ) );
		if ( files == NULL )
		{
			return;
		}
		list->files = files;
		list->capacity = capacity;
	}
	char* copy = tbStrdup( path );
	if ( copy != NULL )
	{
		list->files[list->count++] = copy;
	}
}

static int tbCollectFilesEntry( lua_State* L )
{
	tbFileList* list = lua_touserdata( L, 1 );
	if ( lua_getfield( L, LUA_REGISTRYINDEX, TB_SCENE_FILES_KEY ) == LUA_TTABLE )
	{
		lua_Integer n = (lua_Integer)lua_rawlen( L, -1 );
		for ( lua_Integer i = 1; i <= n; ++i )
		{
			if ( lua_rawgeti( L, -1, i ) == LUA_TSTRING )
			{
				tbAddFile( list, lua_tostring( L, -1 ) );
			}
			lua_pop( L, 1 );
		}
	}
	return 0;
}

// Replaces the watched files by the scene, the mods, the files recorded by inst, and (keep) the
// previous list, so a failed load still watches what the last good scene used.
static void tbUpdateFiles( tbScene* scene, tbInstance* inst, bool keep )
{
	tbFileList list = { NULL, 0, 0 };
	tbAddFile( &list, scene->path );
	for ( int i = 0; i < scene->options.modCount; ++i )
	{
		tbAddFile( &list, scene->modPaths[i] );
	}
	for ( int owner = 0; inst != NULL && owner <= inst->modCount; ++owner )
	{
		lua_State* L = tbGetScript( inst, owner )->L;
		if ( L != NULL )
		{
			tbProtected( L, tbCollectFilesEntry, &list, NULL );
		}
	}
	if ( keep )
	{
		for ( int i = 0; i < scene->fileCount; ++i )
		{
			tbAddFile( &list, scene->files[i] );
		}
	}
	tbFreeFiles( scene->files, scene->fileCount );
	scene->files = list.files;
	scene->fileCount = list.count;
}

// Public API -------------------------------------------------------------------------------------

tbSceneOptions tbDefaultSceneOptions( void )
{
	tbSceneOptions options;
	memset( &options, 0, sizeof( options ) );
	options.instructionBudget = 20000000;
	options.memoryLimit = (size_t)256 << 20;
	return options;
}

tbScene* tbScene_Create( const tbSceneOptions* options )
{
	tbScene* scene = calloc( 1, sizeof( tbScene ) );
	if ( scene == NULL )
	{
		return NULL;
	}
	scene->options = options != NULL ? *options : tbDefaultSceneOptions();
	if ( options == NULL || options->mods == NULL || scene->options.modCount < 0 )
	{
		scene->options.modCount = 0;
	}
	scene->options.mods = NULL;
	scene->libraryDir = tbStrdup( scene->options.libraryDir );
	scene->options.libraryDir = scene->libraryDir;
	if ( scene->options.modCount > 0 )
	{
		scene->modPaths = calloc( (size_t)scene->options.modCount, sizeof( char* ) );
		if ( scene->modPaths == NULL )
		{
			free( scene->libraryDir );
			free( scene );
			return NULL;
		}
		for ( int i = 0; i < scene->options.modCount; ++i )
		{
			scene->modPaths[i] = tbStrdup( options->mods[i] );
		}
	}
	return scene;
}

void tbScene_Destroy( tbScene* scene )
{
	if ( scene == NULL )
	{
		return;
	}
	tbDestroyInstance( scene->current );
	tbFreeFiles( scene->modPaths, scene->options.modCount );
	tbFreeFiles( scene->files, scene->fileCount );
	free( scene->libraryDir );
	free( scene->path );
	free( scene->dir );
	free( scene->error );
	free( scene );
}

// Builds a new instance from scene->path; swap allowed when the running one can be kept.
static bool tbBuild( tbScene* scene, bool allowSwap )
{
	tbInstance* inst = tbCreateInstance( scene );
	if ( inst == NULL )
	{
		tbSetError( scene, "out of memory creating the Lua state" );
		return false;
	}
	tbBuildContext context = { inst, allowSwap ? scene->current : NULL, false, tb_nullWorldId, NULL };
	char* error = NULL;
	if ( tbProtected( inst->L, tbBuildEntry, &context, &error ) != LUA_OK )
	{
		tbSetError( scene, error );
		free( error );
		tbUpdateFiles( scene, inst, true );
		tbDestroyInstance( inst );
		if ( context.before != NULL )
		{
			// After the failed state is closed, so none of its handles can touch the world again.
			if ( tbWorld_RestoreSnapshot( context.swapWorld, context.before ) == tbResult_outOfMemory &&
				 scene->error != NULL )
			{
				// The world keeps what the failed load did to it: say so with the load's error.
				size_t size = strlen( scene->error ) + 96;
				char* message = malloc( size );
				if ( message != NULL )
				{
					snprintf( message, size, "%s\n(not enough memory to put the world back as it was before the reload)",
							  scene->error );
					tbSetError( scene, message );
					free( message );
				}
			}
			tbDestroySnapshot( context.before );
		}
		return false;
	}
	if ( context.before != NULL )
	{
		tbDestroySnapshot( context.before );
	}

	tbInstance* old = scene->current;
	if ( context.swapped )
	{
		lua_rawgeti( old->L, LUA_REGISTRYINDEX, old->worldRef );
		tbLua_SetWorldOwned( old->L, -1, false );
		lua_pop( old->L, 1 );
		lua_rawgeti( inst->L, LUA_REGISTRYINDEX, inst->worldRef );
		tbLua_SetWorldOwned( inst->L, -1, true );
		lua_pop( inst->L, 1 );
	}
	scene->current = inst;
	tbDestroyInstance( old );
	tbCloseStoppedMods( inst );
	scene->halted = false;
	free( scene->error );
	scene->error = NULL;
	tbUpdateFiles( scene, inst, false );
	return true;
}

bool tbScene_Load( tbScene* scene, const char* path )
{
	char* newPath = tbStrdup( path );
	char* newDir = tbDirName( path );
	if ( newPath == NULL || newDir == NULL )
	{
		free( newPath );
		free( newDir );
		tbSetError( scene, "out of memory" );
		return false;
	}
	char* oldPath = scene->path;
	char* oldDir = scene->dir;
	scene->path = newPath;
	scene->dir = newDir;
	if ( tbBuild( scene, false ) == false )
	{
		if ( scene->current != NULL )
		{
			// Keep describing the scene that still runs.
			scene->path = oldPath;
			scene->dir = oldDir;
			free( newPath );
			free( newDir );
		}
		else
		{
			free( oldPath );
			free( oldDir );
		}
		return false;
	}
	free( oldPath );
	free( oldDir );
	return true;
}

bool tbScene_Reload( tbScene* scene )
{
	if ( scene->path == NULL )
	{
		tbSetError( scene, "no scene to reload" );
		return false;
	}
	return tbBuild( scene, true );
}

bool tbScene_IsLoaded( const tbScene* scene )
{
	return scene->current != NULL;
}

typedef struct tbStepContext
{
	tbInstance* inst;
	float dt;
	double time;
} tbStepContext;

static int tbPushUpdateArgs( tbScript* script, void* context )
{
	tbStepContext* step = context;
	tbPushWorldArg( script, NULL );
	lua_pushnumber( script->L, step->dt );
	lua_pushnumber( script->L, step->time );
	return 3;
}

static int tbStepEntry( lua_State* L )
{
	tbStepContext* step = lua_touserdata( L, 1 );
	tbInstance* inst = step->inst;
	long long count = 0;
	tbPushWorld( inst );
	tbLua_GetWorldClock( L, -1, &step->time, &count );
	lua_pop( L, 1 );

	tbLua_BeginStepDrawing( L );
	tbCallAll( inst, "update", tbPushUpdateArgs, step );
	// Before the step, what the script built (in update, key handlers, event handlers) is priced
	// by its overlaps; after it, the broad phase's own pair count, so that a step never leaves a
	// sandboxed world past the budget (bodies moved into one spot by the step itself included).
	tbCheckPhysicsBudget( inst, true );

	tbPushWorld( inst );
	lua_getfield( L, -1, "step" );
	lua_insert( L, -2 );
	lua_pushnumber( L, step->dt );
	tbSandbox_SetHostStep( L, true );
	int status = tbInstance_Call( inst, 0, 2, 0 );
	tbSandbox_SetHostStep( L, false );
	if ( status != LUA_OK )
	{
		return lua_error( L );
	}
	tbCheckPhysicsBudget( inst, false );
	return 0;
}

bool tbScene_Step( tbScene* scene, float dt )
{
	if ( scene->current == NULL )
	{
		if ( scene->error == NULL )
		{
			tbSetError( scene, "no scene loaded" );
		}
		return false;
	}
	if ( scene->halted )
	{
		return false;
	}
	tbStepContext step = { scene->current, dt, 0.0 };
	tbBeginHostStep( scene->current );
	char* error = NULL;
	int status = tbProtected( scene->current->L, tbStepEntry, &step, &error );
	tbCloseStoppedMods( scene->current );
	if ( status != LUA_OK )
	{
		tbSetError( scene, error );
		free( error );
		scene->halted = true;
		return false;
	}
	return true;
}

void tbScene_Resume( tbScene* scene )
{
	scene->halted = false;
}

bool tbScene_IsHalted( const tbScene* scene )
{
	return scene->halted;
}

typedef struct tbCallContext
{
	tbInstance* inst;
	const char* name;
	tbScenePushArgsFcn* push;
	void* pushContext;
} tbCallContext;

static int tbPushCallArgs( tbScript* script, void* context )
{
	tbCallContext* call = context;
	if ( call->push == NULL )
	{
		return 0;
	}
	int top = lua_gettop( script->L );
	call->push( script->L, call->pushContext );
	return lua_gettop( script->L ) - top;
}

static int tbCallEntry( lua_State* L )
{
	tbCallContext* call = lua_touserdata( L, 1 );
	tbCallAll( call->inst, call->name, tbPushCallArgs, call );
	return 0;
}

bool tbScene_Call( tbScene* scene, const char* name, tbScenePushArgsFcn* pushArgs, void* context )
{
	if ( scene->current == NULL || scene->halted )
	{
		return false;
	}
	tbCallContext call = { scene->current, name, pushArgs, context };
	tbBeginHostStep( scene->current );
	char* error = NULL;
	int status = tbProtected( scene->current->L, tbCallEntry, &call, &error );
	tbCloseStoppedMods( scene->current );
	if ( status != LUA_OK )
	{
		tbSetError( scene, error );
		free( error );
		scene->halted = true;
		return false;
	}
	return true;
}

static int tbPushKey( lua_State* L, void* context )
{
	lua_pushstring( L, context );
	return 1;
}

bool tbScene_KeyPressed( tbScene* scene, const char* key )
{
	return tbScene_Call( scene, "keypressed", tbPushKey, (void*)key );
}

static int tbFinishEntry( lua_State* L )
{
	tbInstance* inst = lua_touserdata( L, 1 );
	tbPushWorld( inst );
	if ( tbCallTableFunction( inst, inst->sceneRef, 0, "finish", 1 ) != LUA_OK )
	{
		return lua_error( L );
	}
	return 0;
}

bool tbScene_Finish( tbScene* scene )
{
	if ( scene->current == NULL )
	{
		return false;
	}
	tbBeginHostStep( scene->current );
	char* error = NULL;
	int status = tbProtected( scene->current->L, tbFinishEntry, scene->current, &error );
	tbCloseStoppedMods( scene->current );
	if ( status != LUA_OK )
	{
		tbSetError( scene, error );
		free( error );
		return false;
	}
	return true;
}

const char* tbScene_GetError( const tbScene* scene )
{
	return scene->error;
}

void tbScene_ClearError( tbScene* scene )
{
	free( scene->error );
	scene->error = NULL;
}

tbWorldId tbScene_GetWorld( const tbScene* scene )
{
	if ( scene->current == NULL || scene->current->worldRef == LUA_NOREF )
	{
		return tb_nullWorldId;
	}
	lua_State* L = scene->current->L;
	lua_rawgeti( L, LUA_REGISTRYINDEX, scene->current->worldRef );
	tbWorldId id = tbLua_ToWorld( L, -1 );
	lua_pop( L, 1 );
	return id;
}

double tbScene_GetTime( const tbScene* scene )
{
	if ( scene->current == NULL || scene->current->worldRef == LUA_NOREF )
	{
		return 0.0;
	}
	lua_State* L = scene->current->L;
	double time = 0.0;
	long long steps = 0;
	lua_rawgeti( L, LUA_REGISTRYINDEX, scene->current->worldRef );
	tbLua_GetWorldClock( L, -1, &time, &steps );
	lua_pop( L, 1 );
	return time;
}

long long tbScene_GetStepCount( const tbScene* scene )
{
	if ( scene->current == NULL || scene->current->worldRef == LUA_NOREF )
	{
		return 0;
	}
	lua_State* L = scene->current->L;
	double time = 0.0;
	long long steps = 0;
	lua_rawgeti( L, LUA_REGISTRYINDEX, scene->current->worldRef );
	tbLua_GetWorldClock( L, -1, &time, &steps );
	lua_pop( L, 1 );
	return steps;
}

lua_State* tbScene_GetLuaState( tbScene* scene )
{
	return scene->current != NULL ? scene->current->L : NULL;
}

const char* tbScene_GetPath( const tbScene* scene )
{
	return scene->path;
}

tbSceneReload tbScene_GetReloadMode( const tbScene* scene )
{
	return scene->current != NULL ? scene->current->reload : tbSceneReload_rebuild;
}

int tbScene_GetDefaultSteps( const tbScene* scene )
{
	return scene->current != NULL ? scene->current->defaultSteps : 0;
}

bool tbScene_GetCamera( const tbScene* scene, float eye[3], float target[3] )
{
	if ( scene->current == NULL || scene->current->hasCamera == false )
	{
		return false;
	}
	memcpy( eye, scene->current->cameraEye, sizeof( scene->current->cameraEye ) );
	memcpy( target, scene->current->cameraTarget, sizeof( scene->current->cameraTarget ) );
	return true;
}

const char* tbScene_GetTitle( const tbScene* scene )
{
	return scene->current != NULL && scene->current->title[0] != '\0' ? scene->current->title : NULL;
}

const char* tbScene_GetDescription( const tbScene* scene )
{
	return scene->current != NULL && scene->current->description[0] != '\0' ? scene->current->description : NULL;
}

int tbScene_GetKeys( const tbScene* scene, const tbSceneKey** keys )
{
	*keys = scene->current != NULL ? scene->current->keys : NULL;
	return scene->current != NULL ? scene->current->keyCount : 0;
}

bool tbScene_ClaimsKey( const tbScene* scene, const char* name )
{
	size_t length = strlen( name );
	for ( int i = 0; scene->current != NULL && i < scene->current->keyCount; ++i )
	{
		for ( const char* p = scene->current->keys[i].names; *p != '\0'; )
		{
			while ( *p == ',' || *p == ' ' )
			{
				++p;
			}
			size_t n = strcspn( p, "," );
			while ( n > 0 && p[n - 1] == ' ' )
			{
				--n;
			}
			if ( n == length && strncmp( p, name, n ) == 0 )
			{
				return true;
			}
			p += strcspn( p, "," );
		}
	}
	return false;
}

int tbScene_GetFiles( const tbScene* scene, const char** paths, int capacity )
{
	for ( int i = 0; i < scene->fileCount && i < capacity; ++i )
	{
		paths[i] = scene->files[i];
	}
	return scene->fileCount;
}

int tbScene_GetModCount( const tbScene* scene )
{
	return scene->options.modCount;
}

const char* tbScene_GetModPath( const tbScene* scene, int index )
{
	return index >= 0 && index < scene->options.modCount ? scene->modPaths[index] : NULL;
}

size_t tbScene_GetModMemory( const tbScene* scene, int index )
{
	if ( scene->current == NULL || index < 0 || index >= scene->current->modCount ||
		 scene->current->mods[index].L == NULL )
	{
		return 0;
	}
	return tbSandbox_GetMemoryUsed( scene->current->mods[index].L );
}

const char* tbScene_GetModError( const tbScene* scene, int index )
{
	if ( scene->current == NULL || index < 0 || index >= scene->current->modCount )
	{
		return NULL;
	}
	return scene->current->mods[index].error;
}

static int tbSetKeysEntry( lua_State* L )
{
	tbScene* scene = lua_touserdata( L, 1 );
	tbLua_SetKeyProvider( L, scene->keyFcn, scene->keyContext );
	return 0;
}

void tbScene_SetKeyProvider( tbScene* scene, tbLuaKeyFcn* fcn, void* context )
{
	scene->keyFcn = fcn;
	scene->keyContext = context;
	if ( scene->current != NULL )
	{
		tbProtected( scene->current->L, tbSetKeysEntry, scene, NULL );
	}
}
