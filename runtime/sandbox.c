// Tumble runtime: Lua states with a memory cap and an instruction budget, and sandboxed
// environments for untrusted scripts.
// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 200809L

#include "sandbox.h"

#include "scene.h"
#include "tumble_lua.h"

#include <lauxlib.h>
#include <lualib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The count hook runs every TB_HOOK_PERIOD VM instructions: small enough that a runaway loop
// stops within microseconds of its budget, large enough that the hook costs nothing measurable.
#define TB_HOOK_PERIOD 1000

typedef struct tbSandboxState
{
	size_t used;     ///< bytes allocated by the state
	size_t limit;    ///< 0: unlimited
	long budget;     ///< instructions per call, 0: unlimited
	long counted;    ///< instructions since the last tbSandbox_BeginCall
	bool limited;    ///< the current call is untrusted code
	bool tripped;    ///< the budget ran out: the hook fires on every instruction until the next call
	bool hostStep;   ///< the next world:step is the scene host's own (tbSandbox_SetHostStep)
	double deadline; ///< thread CPU seconds at which the current limited call is out of time
	bool overtime;   ///< the current call ran past its deadline
} tbSandboxState;

// A limited call may also use this much CPU time (of its thread) per budgeted instruction, and at
// least TB_MIN_CALL_SECONDS: a safety net for loops of C work the deterministic charges below do
// not price (queries, path changes, ...). Pure Lua never comes near it (a VM instruction takes a
// few nanoseconds); the charges stop the common loops first, with a message that names the cost.
#define TB_SECONDS_PER_INSTRUCTION 2.0e-7
#define TB_MIN_CALL_SECONDS 3.0

static double tbThreadSeconds( void )
{
	struct timespec t;
	clock_gettime( CLOCK_THREAD_CPUTIME_ID, &t );
	return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

static double tbCallSeconds( long budget )
{
	double seconds = TB_SECONDS_PER_INSTRUCTION * (double)budget;
	return seconds > TB_MIN_CALL_SECONDS ? seconds : TB_MIN_CALL_SECONDS;
}

// Lua's allocator contract: nsize == 0 frees; a shrink must not fail; ptr == NULL means osize is a
// type tag, not a size. Only growth is refused past the limit, so Lua raises "not enough memory"
// in the script that asked for it.
static void* tbSandboxAlloc( void* ud, void* ptr, size_t osize, size_t nsize )
{
	tbSandboxState* s = ud;
	size_t old = ptr != NULL ? osize : 0;
	if ( nsize == 0 )
	{
		free( ptr );
		s->used -= old;
		return NULL;
	}
	if ( nsize > old && s->limit > 0 && s->used - old + nsize > s->limit )
	{
		return NULL;
	}
	void* block = realloc( ptr, nsize );
	if ( block == NULL )
	{
		return NULL;
	}
	s->used = s->used - old + nsize;
	return block;
}

static tbSandboxState* tbGetState( lua_State* L )
{
	// Threads (coroutines) copy the main thread's extra space, so they share the counter.
	return *(tbSandboxState**)lua_getextraspace( L );
}

static int tbPanic( lua_State* L )
{
	fprintf( stderr, "tumble: unprotected Lua error: %s\n", lua_tostring( L, -1 ) );
	return 0;
}

static void tbWarn( void* ud, const char* message, int toContinue )
{
	(void)ud;
	fprintf( stderr, "%s%s", message, toContinue ? "" : "\n" );
}

lua_State* tbSandbox_NewState( size_t memoryLimit )
{
	tbSandboxState* s = calloc( 1, sizeof( tbSandboxState ) );
	if ( s == NULL )
	{
		return NULL;
	}
	s->limit = memoryLimit;
	lua_State* L = lua_newstate( tbSandboxAlloc, s );
	if ( L == NULL )
	{
		free( s );
		return NULL;
	}
	*(tbSandboxState**)lua_getextraspace( L ) = s;
	lua_atpanic( L, tbPanic );
	lua_setwarnf( L, tbWarn, NULL );
	return L;
}

void tbSandbox_CloseState( lua_State* L )
{
	if ( L == NULL )
	{
		return;
	}
	tbSandboxState* s = tbGetState( L );
	lua_close( L );
	free( s );
}

size_t tbSandbox_GetMemoryUsed( lua_State* L )
{
	return tbGetState( L )->used;
}

size_t tbSandbox_GetMemoryLimit( lua_State* L )
{
	return tbGetState( L )->limit;
}

static void tbCountHook( lua_State* L, lua_Debug* ar );

// Normal counting, or (tripped) a hook on every instruction.
static void tbInstallHook( lua_State* L, tbSandboxState* s, bool tripped )
{
	s->tripped = tripped;
	if ( s->budget > 0 )
	{
		lua_sethook( L, tbCountHook, LUA_MASKCOUNT, tripped ? 1 : TB_HOOK_PERIOD );
	}
}

static void tbCountHook( lua_State* L, lua_Debug* ar )
{
	(void)ar;
	tbSandboxState* s = tbGetState( L );
	s->counted += s->tripped ? 1 : TB_HOOK_PERIOD;
	if ( s->limited == false || s->budget <= 0 )
	{
		return;
	}
	if ( s->tripped == false && s->counted <= s->budget && tbThreadSeconds() > s->deadline )
	{
		s->overtime = true;
	}
	if ( s->counted > s->budget || s->overtime )
	{
		// Once the budget is gone the hook fires on every instruction, so the error comes back at
		// the first instruction after any pcall (or coroutine.resume) that caught it: it unwinds
		// every level of the script back to the host.
		if ( s->tripped == false )
		{
			tbInstallHook( L, s, true );
		}
		luaL_where( L, 0 );
		if ( s->overtime )
		{
			lua_pushfstring( L, "time budget exceeded (%f s of CPU per call, for a budget of %d instructions)",
							 tbCallSeconds( s->budget ), (int)s->budget );
		}
		else
		{
			lua_pushfstring( L, "instruction budget exceeded (%d instructions per call)", (int)s->budget );
		}
		lua_concat( L, 2 );
		lua_error( L );
	}
}

void tbSandbox_SetBudget( lua_State* L, long budget )
{
	tbSandboxState* s = tbGetState( L );
	s->budget = budget;
	s->counted = 0;
	s->tripped = false;
	s->overtime = false;
	s->deadline = tbThreadSeconds() + tbCallSeconds( budget );
	lua_sethook( L, budget > 0 ? tbCountHook : NULL, budget > 0 ? LUA_MASKCOUNT : 0, TB_HOOK_PERIOD );
}

tbSandboxCall tbSandbox_BeginCall( lua_State* L, bool limited )
{
	tbSandboxState* s = tbGetState( L );
	tbSandboxCall previous = { s->counted, s->limited, s->tripped, s->deadline, s->overtime };
	s->counted = 0;
	s->limited = limited;
	s->overtime = false;
	if ( limited && s->budget > 0 )
	{
		s->deadline = tbThreadSeconds() + tbCallSeconds( s->budget );
	}
	if ( s->tripped )
	{
		tbInstallHook( L, s, false );
	}
	return previous;
}

void tbSandbox_EndCall( lua_State* L, tbSandboxCall previous )
{
	tbSandboxState* s = tbGetState( L );
	s->counted = previous.counted;
	s->limited = previous.limited;
	s->deadline = previous.deadline;
	s->overtime = previous.overtime;
	if ( s->tripped != previous.tripped )
	{
		tbInstallHook( L, s, previous.tripped );
	}
}

// Environment ------------------------------------------------------------------------------------

int tbSandbox_Print( lua_State* L )
{
	int n = lua_gettop( L );
	for ( int i = 1; i <= n; ++i )
	{
		size_t length = 0;
		const char* s = luaL_tolstring( L, i, &length );
		if ( i > 1 )
		{
			fputc( '\t', stderr );
		}
		fwrite( s, 1, length, stderr );
		lua_pop( L, 1 );
	}
	fputc( '\n', stderr );
	fflush( stderr );
	return 0;
}

int tbSandbox_LoadFile( lua_State* L, const char* path, int envIndex )
{
	if ( envIndex != 0 )
	{
		envIndex = lua_absindex( L, envIndex );
	}
	int status = luaL_loadfilex( L, path, "t" );
	if ( status == LUA_OK && envIndex != 0 )
	{
		lua_pushvalue( L, envIndex );
		// The first upvalue of a main chunk is its _ENV.
		lua_setupvalue( L, -2, 1 );
	}
	return status;
}

// load(chunk [, name [, mode [, env]]]) with mode forced to "t" and env defaulting to the sandbox.
// Upvalues: the real load, the environment.
static int tbSandboxLoad( lua_State* L )
{
	int n = lua_gettop( L );
	lua_pushvalue( L, lua_upvalueindex( 1 ) );
	lua_pushvalue( L, 1 );
	if ( n >= 2 )
	{
		lua_pushvalue( L, 2 );
	}
	else
	{
		lua_pushnil( L );
	}
	lua_pushliteral( L, "t" );
	if ( n >= 4 )
	{
		lua_pushvalue( L, 4 );
	}
	else
	{
		lua_pushvalue( L, lua_upvalueindex( 2 ) );
	}
	lua_call( L, 4, LUA_MULTRET );
	return lua_gettop( L ) - n;
}

// collectgarbage restricted to options that cannot stop or retune the collector.
static int tbSandboxCollect( lua_State* L )
{
	static const char* const allowed[] = { "collect", "count", "step", "isrunning", NULL };
	const char* option = luaL_optstring( L, 1, "collect" );
	bool ok = false;
	for ( int i = 0; allowed[i] != NULL && ok == false; ++i )
	{
		ok = strcmp( allowed[i], option ) == 0;
	}
	if ( ok == false )
	{
		return luaL_error( L, "collectgarbage: option '%s' is not allowed in the sandbox", option );
	}
	int n = lua_gettop( L );
	lua_pushvalue( L, lua_upvalueindex( 1 ) );
	lua_insert( L, 1 );
	lua_call( L, n, LUA_MULTRET );
	return lua_gettop( L );
}

static bool tbIsModuleName( const char* name )
{
	if ( name[0] == '\0' || name[0] == '.' )
	{
		return false;
	}
	for ( const char* c = name; *c != '\0'; ++c )
	{
		bool ok = ( *c >= 'a' && *c <= 'z' ) || ( *c >= 'A' && *c <= 'Z' ) || ( *c >= '0' && *c <= '9' ) || *c == '_' ||
				  ( *c == '.' && c[1] != '.' && c[1] != '\0' );
		if ( ok == false )
		{
			return false;
		}
	}
	return true;
}

const char* tbLibraryModuleName( const char* name )
{
	static const char prefix[] = "tumble.";
	size_t n = sizeof( prefix ) - 1;
	return strncmp( name, prefix, n ) == 0 && name[n] != '\0' ? name + n : NULL;
}

// require(name): "tumble", or a Lua file on the sandbox path loaded as text into the sandbox.
// Upvalues: environment, cache of loaded modules, search path, library path ("tumble.NAME").
static int tbSandboxRequire( lua_State* L )
{
	const char* name = luaL_checkstring( L, 1 );
	lua_settop( L, 1 );
	if ( lua_getfield( L, lua_upvalueindex( 2 ), name ) != LUA_TNIL )
	{
		return 1;
	}
	lua_pop( L, 1 );

	if ( strcmp( name, "tumble" ) == 0 )
	{
		// A shallow copy per environment: one script replacing tb.world cannot affect another.
		luaL_getsubtable( L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE );
		if ( lua_getfield( L, -1, "tumble" ) != LUA_TTABLE )
		{
			return luaL_error( L, "module 'tumble' is not available" );
		}
		lua_newtable( L );
		lua_pushnil( L );
		while ( lua_next( L, -3 ) != 0 )
		{
			lua_pushvalue( L, -2 );
			lua_insert( L, -2 );
			lua_rawset( L, -4 );
		}
		lua_pushvalue( L, -1 );
		lua_setfield( L, lua_upvalueindex( 2 ), name );
		return 1;
	}
	if ( tbIsModuleName( name ) == false )
	{
		return luaL_error( L, "require: invalid module name '%s' in the sandbox", name );
	}

	// Module "a.b" -> "a/b" substituted into each template of the path.
	const char* library = tbLibraryModuleName( name );
	const char* file = luaL_gsub( L, library != NULL ? library : name, ".", "/" );
	const char* templates = lua_tostring( L, lua_upvalueindex( library != NULL ? 4 : 3 ) );
	const char* found = NULL;
	while ( templates != NULL && *templates != '\0' && found == NULL )
	{
		const char* end = strchr( templates, ';' );
		size_t length = end != NULL ? (size_t)( end - templates ) : strlen( templates );
		lua_pushlstring( L, templates, length );
		const char* candidate = luaL_gsub( L, lua_tostring( L, -1 ), "?", file );
		FILE* f = fopen( candidate, "r" );
		if ( f != NULL )
		{
			fclose( f );
			found = candidate;
		}
		else
		{
			lua_pop( L, 2 );
		}
		templates = end != NULL ? end + 1 : NULL;
	}
	if ( found == NULL )
	{
		return luaL_error( L,
						   "module '%s' not found in the sandbox (only Lua files next to the script or in "
						   "scripts/lib, and \"tumble\", can be required)",
						   name );
	}
	int foundIndex = lua_gettop( L );
	tbScene_RecordFile( L, found );

	lua_pushvalue( L, lua_upvalueindex( 1 ) );
	if ( tbSandbox_LoadFile( L, found, -1 ) != LUA_OK )
	{
		return lua_error( L );
	}
	lua_remove( L, -2 );
	lua_pushvalue( L, 1 );
	lua_pushvalue( L, foundIndex );
	lua_call( L, 2, 1 );
	if ( lua_isnil( L, -1 ) )
	{
		lua_pop( L, 1 );
		lua_pushboolean( L, 1 );
	}
	lua_pushvalue( L, -1 );
	lua_setfield( L, lua_upvalueindex( 2 ), name );
	return 1;
}

// A copy of a library table, so one script replacing string.format cannot affect another.
static void tbCopyLibrary( lua_State* L, int env, const char* name, const char* skip )
{
	lua_getglobal( L, name );
	if ( lua_type( L, -1 ) != LUA_TTABLE )
	{
		lua_pop( L, 1 );
		return;
	}
	lua_newtable( L );
	lua_pushnil( L );
	while ( lua_next( L, -3 ) != 0 )
	{
		if ( skip != NULL && lua_type( L, -2 ) == LUA_TSTRING && strcmp( lua_tostring( L, -2 ), skip ) == 0 )
		{
			lua_pop( L, 1 );
			continue;
		}
		lua_pushvalue( L, -2 );
		lua_insert( L, -2 );
		lua_rawset( L, -4 );
	}
	lua_setfield( L, env, name );
	lua_pop( L, 1 );
}

void tbSandbox_PushEnvironment( lua_State* L, const char* searchPath, const char* libraryPath )
{
	lua_newtable( L );
	int env = lua_gettop( L );

	static const char* const safe[] = {
		"assert", "error",		  "ipairs",		  "next",	  "pairs",	  "pcall",	"xpcall",
		"select", "tonumber",	  "tostring",	  "type",	  "rawequal", "rawget", "rawset",
		"rawlen", "setmetatable", "getmetatable", "_VERSION", NULL,
	};
	for ( int i = 0; safe[i] != NULL; ++i )
	{
		lua_getglobal( L, safe[i] );
		lua_setfield( L, env, safe[i] );
	}
	lua_pushcfunction( L, tbSandbox_Print );
	lua_setfield( L, env, "print" );

	tbCopyLibrary( L, env, "string", "dump" );
	tbCopyLibrary( L, env, "table", NULL );
	tbCopyLibrary( L, env, "math", NULL );
	tbCopyLibrary( L, env, "utf8", NULL );
	tbCopyLibrary( L, env, "coroutine", NULL );

	lua_newtable( L );
	lua_getglobal( L, "os" );
	static const char* const osSafe[] = { "clock", "time", "date", NULL };
	for ( int i = 0; osSafe[i] != NULL; ++i )
	{
		lua_getfield( L, -1, osSafe[i] );
		lua_setfield( L, -3, osSafe[i] );
	}
	lua_pop( L, 1 );
	lua_setfield( L, env, "os" );

	lua_getglobal( L, "load" );
	lua_pushvalue( L, env );
	lua_pushcclosure( L, tbSandboxLoad, 2 );
	lua_setfield( L, env, "load" );

	lua_getglobal( L, "collectgarbage" );
	lua_pushcclosure( L, tbSandboxCollect, 1 );
	lua_setfield( L, env, "collectgarbage" );

	lua_pushvalue( L, env );
	lua_newtable( L );
	lua_pushstring( L, searchPath != NULL ? searchPath : "" );
	lua_pushstring( L, libraryPath != NULL ? libraryPath : "" );
	lua_pushcclosure( L, tbSandboxRequire, 4 );
	lua_setfield( L, env, "require" );

	lua_pushvalue( L, env );
	lua_setfield( L, env, "_G" );
}

void tbSandbox_ProtectStrings( lua_State* L )
{
	lua_pushliteral( L, "" );
	if ( lua_getmetatable( L, -1 ) )
	{
		lua_pushboolean( L, 0 );
		lua_setfield( L, -2, "__metatable" );
		lua_pop( L, 1 );
	}
	lua_pop( L, 1 );
}

// Physics budget ---------------------------------------------------------------------------------

typedef struct tbPairCount
{
	tbBodyId body;	///< the body whose shape is the query; its own shapes do not count
	long twice;		///< pairs counted twice: a pair of two movable shapes is met from both sides
	long limit;		///< stop once twice passes this
} tbPairCount;

static bool tbCountPair( tbShapeId shapeId, void* context )
{
	tbPairCount* count = context;
	tbBodyId other = tbShape_GetBody( shapeId );
	if ( TB_ID_EQUALS( other, count->body ) )
	{
		return true;
	}
	// A static shape is never a query, so its pair is met once: count it twice.
	count->twice += tbBody_GetType( other ) == tbBody_static ? 2 : 1;
	return count->twice <= count->limit;
}

static long tbPredictPairs( tbWorldId world, long limit )
{
	tbBodyId probe;
	int bodyCount = tbWorld_GetBodies( world, &probe, 0 );
	if ( bodyCount <= 0 )
	{
		return 0;
	}
	tbBodyId* bodies = malloc( (size_t)bodyCount * sizeof( tbBodyId ) );
	if ( bodies == NULL )
	{
		return 0;
	}
	bodyCount = tbWorld_GetBodies( world, bodies, bodyCount );
	tbPairCount count = { tb_nullBodyId, 0, 2 * limit };
	tbQueryFilter filter = tbDefaultQueryFilter();
	for ( int i = 0; i < bodyCount && count.twice <= count.limit; ++i )
	{
		if ( tbBody_GetType( bodies[i] ) == tbBody_static )
		{
			continue;
		}
		count.body = bodies[i];
		tbShapeId shapes[16];
		int shapeCount = tbBody_GetShapes( bodies[i], shapes, 16 );
		int queried = shapeCount < 16 ? shapeCount : 16;
		for ( int k = 0; k < queried && count.twice <= count.limit; ++k )
		{
			tbWorld_OverlapAABB( world, tbShape_GetAABB( shapes[k] ), filter, tbCountPair, &count );
		}
		if ( shapeCount > 16 && count.twice <= count.limit )
		{
			// The shapes past the 16th: the body's box stands in for them.
			tbWorld_OverlapAABB( world, tbBody_ComputeAABB( bodies[i] ), filter, tbCountPair, &count );
		}
	}
	free( bodies );
	// Rounded up, so a count stopped just past the limit stays past it.
	return ( count.twice + 1 ) / 2;
}

bool tbSandbox_CheckPhysics( tbWorldId world, bool predict, char* message, size_t capacity )
{
	if ( tbWorld_IsValid( world ) == false )
	{
		return true;
	}
	tbWorldCounters c = tbWorld_GetCounters( world );
	const char* what = NULL;
	long have = 0;
	long limit = 0;
	bool estimated = false; // a predicted pair count stops at the limit, so it says "more than" the limit
	if ( c.bodyCount > TB_SANDBOX_MAX_BODIES )
	{
		what = "bodies";
		have = c.bodyCount;
		limit = TB_SANDBOX_MAX_BODIES;
	}
	else if ( c.shapeCount > TB_SANDBOX_MAX_SHAPES )
	{
		what = "shapes";
		have = c.shapeCount;
		limit = TB_SANDBOX_MAX_SHAPES;
	}
	else if ( c.jointCount > TB_SANDBOX_MAX_JOINTS )
	{
		what = "joints";
		have = c.jointCount;
		limit = TB_SANDBOX_MAX_JOINTS;
	}
	else
	{
		// The broad phase's pairs of the last step count with the predicted ones: a step that ended
		// past the budget halts the scene but leaves its pairs in the world, and a later swap reload
		// must not pass with them because the tight boxes of the prediction overlap a little less
		// than the broad phase's enlarged ones (fuzz_lua campaign, session 6: 21,130 pairs kept).
		have = c.pairCount;
		if ( predict && have <= TB_SANDBOX_MAX_PAIRS )
		{
			have = tbPredictPairs( world, TB_SANDBOX_MAX_PAIRS );
			estimated = true;
		}
		if ( have > TB_SANDBOX_MAX_PAIRS )
		{
			what = "overlapping shape pairs (bodies piled into one spot)";
			limit = TB_SANDBOX_MAX_PAIRS;
		}
	}
	if ( what == NULL )
	{
		return true;
	}
	snprintf( message, capacity,
			  "sandbox physics budget exceeded: %s%ld %s%s%ld (a sandboxed scene may have at most %d bodies, %d "
			  "shapes, %d joints and %d overlapping shape pairs)",
			  estimated ? "more than " : "", estimated ? limit : have, what, estimated ? "; the limit is " : ", the limit is ",
			  limit, TB_SANDBOX_MAX_BODIES, TB_SANDBOX_MAX_SHAPES, TB_SANDBOX_MAX_JOINTS, TB_SANDBOX_MAX_PAIRS );
	return false;
}

// Work done in C counts against the instruction budget too: a script looping on world:step (or on
// snapshots) runs few VM instructions per iteration but unbounded work (a 21-body world stepped in
// `while true do world:step(1/60) end` ran for minutes). Costs are deterministic, in instruction
// equivalents, calibrated on the release build: a VM instruction takes a few nanoseconds; a step
// about 1 us per awake body and per contact (8 sub-steps) and 2 us per joint; a snapshot copies
// roughly 500 bytes per body, shape, contact or joint.
#define TB_SANDBOX_STEP_COST 1000
#define TB_SANDBOX_STEP_COST_PER_BODY 300
#define TB_SANDBOX_STEP_COST_PER_CONTACT 300
#define TB_SANDBOX_STEP_COST_PER_JOINT 600
#define TB_SANDBOX_COPY_COST 1000
#define TB_SANDBOX_COPY_COST_PER_OBJECT 20
// Creating a body, shape, joint or mover: a few microseconds, plus about 1 us per hull point, path
// point or mesh element (counted up to a cap, past any budget).
#define TB_SANDBOX_CREATE_COST 1000
#define TB_SANDBOX_CREATE_COST_PER_ELEMENT 300
#define TB_SANDBOX_MAX_ELEMENTS 10000000L

// Adds cost to the current limited call; past the budget it raises the budget error at the
// script's line and trips the hook, as tbCountHook does.
static void tbCharge( lua_State* L, long cost, const char* what )
{
	tbSandboxState* s = tbGetState( L );
	if ( s->limited == false || s->budget <= 0 )
	{
		return;
	}
	s->counted += cost;
	if ( s->counted > s->budget )
	{
		if ( s->tripped == false )
		{
			tbInstallHook( L, s, true );
		}
		luaL_where( L, 1 );
		lua_pushfstring( L, "instruction budget exceeded (%I instructions per call; %s counts as %I)",
						 (lua_Integer)s->budget, what, (lua_Integer)cost );
		lua_concat( L, 2 );
		lua_error( L );
	}
}

static long tbStepCost( tbWorldId world )
{
	tbWorldCounters c = tbWorld_GetCounters( world );
	return TB_SANDBOX_STEP_COST + TB_SANDBOX_STEP_COST_PER_BODY * (long)c.awakeBodyCount +
		   TB_SANDBOX_STEP_COST_PER_CONTACT * (long)c.contactCount +
		   TB_SANDBOX_STEP_COST_PER_JOINT * (long)c.jointCount;
}

static long tbCopyCost( tbWorldId world )
{
	tbWorldCounters c = tbWorld_GetCounters( world );
	long objects = (long)c.bodyCount + c.shapeCount + c.pairCount + c.jointCount;
	return TB_SANDBOX_COPY_COST + TB_SANDBOX_COPY_COST_PER_OBJECT * objects;
}

void tbSandbox_SetHostStep( lua_State* L, bool hostStep )
{
	tbGetState( L )->hostStep = hostStep;
}

// The number of entries of def[key] (def at index; 0 when either is not a table). Raw accesses:
// nothing of the script runs.
static long tbRawLength( lua_State* L, int def, const char* key )
{
	if ( lua_type( L, def ) != LUA_TTABLE )
	{
		return 0;
	}
	lua_pushstring( L, key );
	long n = lua_rawget( L, def ) == LUA_TTABLE ? (long)lua_rawlen( L, -1 ) : 0;
	lua_pop( L, 1 );
	return n;
}

// What creating from the definition table at index 2 costs: a flat part, plus per point of a hull
// or a mover's path, vertex and triangle of a mesh, and entry (and its points) of a compound, read
// before the call so that an oversized definition is refused before any of it is built.
static long tbCreateCost( lua_State* L )
{
	long elements = tbRawLength( L, 2, "points" ) + tbRawLength( L, 2, "vertices" ) + tbRawLength( L, 2, "triangles" ) +
					tbRawLength( L, 2, "path" );
	if ( lua_type( L, 2 ) == LUA_TTABLE )
	{
		lua_pushstring( L, "shapes" );
		if ( lua_rawget( L, 2 ) == LUA_TTABLE )
		{
			int shapes = lua_gettop( L );
			long count = (long)lua_rawlen( L, shapes );
			for ( long i = 1; i <= count && elements < TB_SANDBOX_MAX_ELEMENTS; ++i )
			{
				lua_rawgeti( L, shapes, (lua_Integer)i );
				elements += 1 + tbRawLength( L, lua_gettop( L ), "points" );
				lua_pop( L, 1 );
			}
		}
		lua_pop( L, 1 );
	}
	elements = elements < TB_SANDBOX_MAX_ELEMENTS ? elements : TB_SANDBOX_MAX_ELEMENTS;
	return TB_SANDBOX_CREATE_COST + TB_SANDBOX_CREATE_COST_PER_ELEMENT * elements;
}

void tbSandbox_Guard( lua_State* L, tbLuaGuard what, const char* fn )
{
	tbWorldId world = tbLua_ToWorld( L, 1 );
	if ( TB_IS_NULL( world ) || tbWorld_IsValid( world ) == false )
	{
		return;
	}
	char message[320];
	switch ( what )
	{
		case tbLuaGuard_stepBefore: {
			// The physics budget before (predicted pairs) and after (the broad phase's pairs) every
			// step a script takes itself, not only the host's (fuzz_lua found an update calling
			// world:step on a pile of 2,000 shapes). The host's once-a-frame step is not charged
			// (the physics budget bounds it); any step made during it (another world's, from a
			// rows function) is.
			tbSandboxState* s = tbGetState( L );
			bool byHost = s->hostStep;
			s->hostStep = false;
			if ( tbSandbox_CheckPhysics( world, true, message, sizeof( message ) ) == false )
			{
				luaL_error( L, "%s: %s", fn, message );
			}
			if ( byHost == false )
			{
				tbCharge( L, tbStepCost( world ), "a step of this world" );
			}
			break;
		}
		case tbLuaGuard_stepAfter:
			if ( tbSandbox_CheckPhysics( world, false, message, sizeof( message ) ) == false )
			{
				luaL_error( L, "%s: %s", fn, message );
			}
			break;
		case tbLuaGuard_copy:
			tbCharge( L, tbCopyCost( world ),
					  strcmp( fn, "restore" ) == 0 ? "a restore of this world" : "a snapshot of this world" );
			break;
		case tbLuaGuard_create:
			// A world already at the physics budget refuses constructors, so a creation loop in setup
			// stops at the limit instead of after the call (a sandboxed
			// `while true do world:add_box(def) end` grew to 3.6 GB in a minute); each one costs
			// instructions too.
			if ( tbSandbox_CheckPhysics( world, false, message, sizeof( message ) ) == false )
			{
				luaL_error( L, "%s: %s", fn, message );
			}
			tbCharge( L, tbCreateCost( L ), "this call" );
			break;
	}
}
