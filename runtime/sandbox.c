// Tumble runtime: Lua states with a memory cap and an instruction budget, and sandboxed
// environments for untrusted scripts.
// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 200809L

#include "sandbox.h"

#include "scene.h"
#include "tumble_lua.h"

#include <lauxlib.h>
#include <lualib.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// The count hook runs every TB_HOOK_PERIOD VM instructions: small enough that a runaway loop
// stops within microseconds of its budget, large enough that the hook costs nothing measurable.
#define TB_HOOK_PERIOD 1000

// What the state's script (the scene, or one mod: each has a state of its own) spent in the current
// host step: every call of it (update, each event handler, keypressed, ...) draws from the same
// account, so a thousand handlers cannot each get a fresh budget.
typedef struct tbSandboxAccount
{
	long counted;	 ///< instructions and charges in this host step
	double seconds;	 ///< thread CPU seconds of the finished limited calls of this host step
	bool tripped;	 ///< a limit ran out: every instruction of the script raises until the next host step
	char reason[256]; ///< what ran out, repeated by every later error
	size_t memory;	 ///< bytes of Lua memory the state holds
	size_t physics;	 ///< bytes of the bodies and joints it made that still exist, as of the last count
} tbSandboxAccount;

// A body or joint made by a limited script: its bytes count against the script's memory cap while
// it exists (generational ids tell when it is gone, however it went: destroy, its body's destroy,
// its world's).
typedef struct tbSandboxObject
{
	bool isJoint;
	tbBodyId body;
	tbJointId joint;
} tbSandboxObject;

typedef struct tbSandboxState
{
	size_t limit;				   ///< of the account's memory + physics, 0: unlimited
	long budget;				   ///< instructions per host step, 0: unlimited
	tbSandboxAccount account;
	bool limited;				   ///< the running code is untrusted
	double spanStart;			   ///< thread CPU seconds when the running limited span began
	bool hostStep;				   ///< the next world:step is the scene host's own (tbSandbox_SetHostStep)
	tbSandboxObject* objects;	   ///< physics objects made by limited code (tbLuaGuard_created)
	int objectCount;
	int objectCapacity;
} tbSandboxState;

// A limited script may also use this much CPU time (of its thread) per budgeted instruction in a
// host step, and at least TB_MIN_CALL_SECONDS: a safety net for C work the deterministic charges
// below do not price (queries, path changes, long library calls, ...). Pure Lua never comes near it
// (a VM instruction takes a few nanoseconds).
#define TB_SECONDS_PER_INSTRUCTION 2.0e-7
#define TB_MIN_CALL_SECONDS 1.0

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

// Growth of at least this many bytes checks the running script's CPU time (tbRefuseLargeAllocation).
#define TB_SANDBOX_CHECKED_ALLOCATION ( (size_t)64 << 10 )

static bool tbRefuseLargeAllocation( tbSandboxState* s );

// Recounts the account's physics bytes from the objects that still exist, and forgets the others.
static void tbCountPhysics( tbSandboxState* s )
{
	s->account.physics = 0;
	int kept = 0;
	for ( int i = 0; i < s->objectCount; ++i )
	{
		tbSandboxObject o = s->objects[i];
		size_t bytes = o.isJoint ? tbJoint_GetMemorySize( o.joint ) : tbBody_GetMemorySize( o.body );
		if ( bytes == 0 )
		{
			continue;
		}
		s->account.physics += bytes;
		s->objects[kept++] = o;
	}
	s->objectCount = kept;
}

// Would `extra` more bytes take the account past the cap? Before saying yes, the physics bytes are
// counted again: objects destroyed since give theirs back.
static bool tbIsPastMemoryCap( tbSandboxState* s, size_t extra )
{
	const tbSandboxAccount* a = &s->account;
	if ( s->limit == 0 || a->memory + a->physics + extra <= s->limit )
	{
		return false;
	}
	if ( s->objectCount > 0 )
	{
		tbCountPhysics( s );
	}
	return a->memory + a->physics + extra > s->limit;
}

// Lua's allocator contract: nsize == 0 frees; a shrink must not fail; ptr == NULL means osize is a
// type tag, not a size. Only growth is refused past the cap, so Lua raises "not enough memory" in the
// script that asked for it. One state per script: no block needs to say whose it is.
static void* tbSandboxAlloc( void* ud, void* ptr, size_t osize, size_t nsize )
{
	tbSandboxState* s = ud;
	size_t old = ptr != NULL ? osize : 0;
	tbSandboxAccount* a = &s->account;
	if ( nsize == 0 )
	{
		free( ptr );
		a->memory -= old;
		return NULL;
	}
	if ( nsize > old && tbIsPastMemoryCap( s, nsize - old ) )
	{
		return NULL;
	}
	if ( nsize >= old + TB_SANDBOX_CHECKED_ALLOCATION && tbRefuseLargeAllocation( s ) )
	{
		return NULL;
	}
	void* block = realloc( ptr, nsize );
	if ( block == NULL )
	{
		return NULL;
	}
	a->memory = a->memory - old + nsize;
	return block;
}

static tbSandboxState* tbGetState( lua_State* L )
{
	// Threads (coroutines) copy the main thread's extra space, so they share the account.
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
	free( s->objects );
	free( s );
}

size_t tbSandbox_GetMemoryUsed( lua_State* L )
{
	return tbGetState( L )->account.memory;
}

size_t tbSandbox_GetMemoryLimit( lua_State* L )
{
	return tbGetState( L )->limit;
}

void tbSandbox_GetPhysicsMemory( lua_State* L, size_t* physics )
{
	tbSandboxState* s = tbGetState( L );
	tbCountPhysics( s );
	*physics = s->account.physics;
}

// A body or joint made by the state's limited script (at the stack top) joins its account; past the
// cap it is destroyed again and the constructor raises, naming what the account holds.
static void tbSetReason( tbSandboxAccount* a, const char* reason );
static int tbTrip( lua_State* L, tbSandboxState* s, int level );

static void tbChargeObject( lua_State* L, const char* fn )
{
	tbSandboxState* s = tbGetState( L );
	tbSandboxObject o = { 0 };
	if ( tbLua_ToBody( L, -1, &o.body ) == false )
	{
		if ( tbLua_ToJoint( L, -1, &o.joint ) == false )
		{
			return;
		}
		o.isJoint = true;
	}
	if ( s->objectCount == s->objectCapacity )
	{
		int capacity = s->objectCapacity > 0 ? 2 * s->objectCapacity : 64;
		tbSandboxObject* grown = realloc( s->objects, (size_t)capacity * sizeof( tbSandboxObject ) );
		if ( grown == NULL )
		{
			luaL_error( L, "%s: out of memory recording the new object", fn );
		}
		s->objects = grown;
		s->objectCapacity = capacity;
	}
	s->objects[s->objectCount++] = o;
	tbSandboxAccount* a = &s->account;
	size_t bytes = o.isJoint ? tbJoint_GetMemorySize( o.joint ) : tbBody_GetMemorySize( o.body );
	a->physics += bytes;
	if ( tbIsPastMemoryCap( s, 0 ) == false )
	{
		return;
	}
	lua_getfield( L, -1, "destroy" );
	lua_pushvalue( L, -2 );
	lua_call( L, 1, 0 );
	tbCountPhysics( s );
	// The script is stopped, not just refused: like a spent budget, the error trips its account, so a
	// pcall around the call cannot carry on making bodies (lua_pushfstring knows neither %zu nor a
	// precision, hence snprintf).
	char message[sizeof( a->reason )];
	snprintf( message, sizeof( message ),
			  "%s: not enough memory: the %zu bytes of this %s would take the script past its memory cap of %zu MiB "
			  "(it holds %.1f MiB of Lua memory and %.1f MiB of bodies and joints)",
			  fn, bytes, o.isJoint ? "joint" : "body", s->limit >> 20, (double)a->memory / 1048576.0,
			  (double)a->physics / 1048576.0 );
	tbSetReason( a, message );
	tbTrip( L, s, 1 );
}

static tbSandboxAccount* tbCurrentAccount( tbSandboxState* s )
{
	return &s->account;
}

static bool tbIsLimited( const tbSandboxState* s )
{
	return s->limited && s->budget > 0;
}

static void tbCountHook( lua_State* L, lua_Debug* ar );

// Hooks belong to each thread (coroutine) separately. The running thread counts in steps of
// TB_HOOK_PERIOD, or of 1 while the running script's account is tripped; a thread whose count does
// not match (a coroutine that tripped, the main thread after it) corrects itself at its next hook.
static void tbSetHookFor( lua_State* L, tbSandboxState* s )
{
	if ( s->budget <= 0 )
	{
		return;
	}
	int period = s->limited && tbCurrentAccount( s )->tripped ? 1 : TB_HOOK_PERIOD;
	if ( lua_gethook( L ) != tbCountHook || lua_gethookcount( L ) != period )
	{
		lua_sethook( L, tbCountHook, LUA_MASKCOUNT, period );
	}
}

// Marks the running script's account as out of budget and raises the error at the script's line
// (level 0: the hook's running function; 1: a C function's caller). Every later instruction of the
// script raises it again, so pcall, xpcall and coroutine.resume can catch it but not go on.
static int tbTrip( lua_State* L, tbSandboxState* s, int level )
{
	tbSetHookFor( L, s );
	luaL_where( L, level );
	lua_pushstring( L, tbCurrentAccount( s )->reason );
	lua_concat( L, 2 );
	return lua_error( L );
}

static bool tbPastTime( tbSandboxState* s )
{
	tbSandboxAccount* a = tbCurrentAccount( s );
	return a->seconds + ( tbThreadSeconds() - s->spanStart ) > tbCallSeconds( s->budget );
}

static void tbSetReason( tbSandboxAccount* a, const char* reason )
{
	a->tripped = true;
	snprintf( a->reason, sizeof( a->reason ), "%s", reason );
}

static void tbSetTimeReason( tbSandboxState* s )
{
	char reason[160];
	snprintf( reason, sizeof( reason ), "time budget exceeded (%.1f s of CPU per script per step, for a budget of %ld instructions)",
			  tbCallSeconds( s->budget ), s->budget );
	tbSetReason( tbCurrentAccount( s ), reason );
}

static void tbTripForTime( lua_State* L, tbSandboxState* s, int level )
{
	tbSetTimeReason( s );
	tbTrip( L, s, level );
}

// Some single VM instructions copy a lot (a concatenation of two 8 MB strings), and a thousand of
// them lie between two checks of the count hook. Large allocations are where that work shows, so
// each one of a limited script checks the CPU-time limit; once the script is out of budget they are
// refused (Lua raises "not enough memory", which the host reports as the budget error, and the
// hook stops the script at its next check).
static bool tbRefuseLargeAllocation( tbSandboxState* s )
{
	if ( tbIsLimited( s ) == false )
	{
		return false;
	}
	tbSandboxAccount* a = tbCurrentAccount( s );
	if ( a->tripped == false && tbPastTime( s ) )
	{
		tbSetTimeReason( s );
	}
	return a->tripped;
}

// Adds cost to the running limited script's account (what: the C work it stands for, or NULL for
// VM instructions). A spent account, or one this passes past the budget, raises the budget error at
// `level` (tbTrip).
static void tbCount( lua_State* L, tbSandboxState* s, long cost, const char* what, int level )
{
	tbSandboxAccount* a = tbCurrentAccount( s );
	if ( a->tripped )
	{
		tbTrip( L, s, level );
	}
	a->counted += cost;
	if ( a->counted > s->budget )
	{
		char reason[160];
		if ( what != NULL )
		{
			snprintf( reason, sizeof( reason ),
					  "instruction budget exceeded (%ld instructions per script per step; %s counts as %ld)", s->budget,
					  what, cost );
		}
		else
		{
			snprintf( reason, sizeof( reason ), "instruction budget exceeded (%ld instructions per script per step)",
					  s->budget );
		}
		tbSetReason( a, reason );
		tbTrip( L, s, level );
	}
}

static void tbCountHook( lua_State* L, lua_Debug* ar )
{
	(void)ar;
	tbSandboxState* s = tbGetState( L );
	if ( tbIsLimited( s ) )
	{
		tbCount( L, s, lua_gethookcount( L ), NULL, 0 );
		if ( tbPastTime( s ) )
		{
			tbTripForTime( L, s, 0 );
		}
	}
	tbSetHookFor( L, s );
}

void tbSandbox_SetBudget( lua_State* L, long budget )
{
	tbSandboxState* s = tbGetState( L );
	s->budget = budget;
	tbSandbox_BeginHostStep( L );
	lua_sethook( L, budget > 0 ? tbCountHook : NULL, budget > 0 ? LUA_MASKCOUNT : 0, TB_HOOK_PERIOD );
}

void tbSandbox_BeginHostStep( lua_State* L )
{
	tbSandboxState* s = tbGetState( L );
	s->account.counted = 0;
	s->account.seconds = 0.0;
	s->account.tripped = false;
	s->spanStart = tbThreadSeconds();
	tbSetHookFor( L, s );
}

// Ends the running limited span: its CPU time goes to its account.
static void tbCloseSpan( tbSandboxState* s, double now )
{
	if ( s->limited )
	{
		tbCurrentAccount( s )->seconds += now - s->spanStart;
	}
	s->spanStart = now;
}

tbSandboxCall tbSandbox_BeginCall( lua_State* L, bool limited )
{
	tbSandboxState* s = tbGetState( L );
	tbSandboxCall previous = { s->limited };
	double now = s->budget > 0 ? tbThreadSeconds() : 0.0;
	tbCloseSpan( s, now );
	s->limited = limited;
	tbSetHookFor( L, s );
	return previous;
}

void tbSandbox_EndCall( lua_State* L, tbSandboxCall previous )
{
	tbSandboxState* s = tbGetState( L );
	double now = s->budget > 0 ? tbThreadSeconds() : 0.0;
	tbCloseSpan( s, now );
	s->limited = previous.limited;
	tbSetHookFor( L, s );
}

const char* tbSandbox_GetTrip( lua_State* L )
{
	tbSandboxState* s = tbGetState( L );
	return s->account.tripped ? s->account.reason : NULL;
}

// Adds cost to the running script's account; past the budget it trips the account and raises
// the budget error at the script's line.
static void tbCharge( lua_State* L, long cost, const char* what )
{
	tbSandboxState* s = tbGetState( L );
	if ( tbIsLimited( s ) )
	{
		tbCount( L, s, cost, what, 1 );
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

// Opens path for reading without blocking: a FIFO (an editor's or an attacker's) would block fopen
// until a writer came, and a device could stream for ever. NULL with errno set, or EINVAL for a
// file that is not a regular one; the stream's reads block as usual.
static FILE* tbOpenRegularFile( const char* path )
{
	int fd = open( path, O_RDONLY | O_NONBLOCK | O_CLOEXEC );
	if ( fd < 0 )
	{
		return NULL;
	}
	struct stat st;
	if ( fstat( fd, &st ) != 0 || S_ISREG( st.st_mode ) == false )
	{
		close( fd );
		errno = EINVAL;
		return NULL;
	}
	int flags = fcntl( fd, F_GETFL );
	fcntl( fd, F_SETFL, flags & ~O_NONBLOCK );
	FILE* f = fdopen( fd, "r" );
	if ( f == NULL )
	{
		close( fd );
	}
	return f;
}

bool tbSandbox_IsRegularFile( const char* path )
{
	FILE* f = tbOpenRegularFile( path );
	if ( f != NULL )
	{
		fclose( f );
	}
	return f != NULL;
}

typedef struct tbFileReader
{
	FILE* f;
	char buffer[4096];
	bool pending; ///< the first line was a "#!" line: give Lua a newline for it, so lines still count
} tbFileReader;

static const char* tbReadFile( lua_State* L, void* data, size_t* size )
{
	(void)L;
	tbFileReader* r = data;
	if ( r->pending )
	{
		r->pending = false;
		*size = 1;
		return "\n";
	}
	*size = fread( r->buffer, 1, sizeof( r->buffer ), r->f );
	return *size > 0 ? r->buffer : NULL;
}

int tbSandbox_LoadFile( lua_State* L, const char* path, int envIndex )
{
	if ( envIndex != 0 )
	{
		envIndex = lua_absindex( L, envIndex );
	}
	tbFileReader* reader = malloc( sizeof( tbFileReader ) );
	FILE* f = reader != NULL ? tbOpenRegularFile( path ) : NULL;
	if ( f == NULL )
	{
		int error = reader != NULL ? errno : ENOMEM;
		free( reader );
		lua_pushfstring( L, "cannot open %s: %s", path,
						 error == EINVAL ? "not a regular file (a FIFO, device or directory cannot be a script)" : strerror( error ) );
		return LUA_ERRFILE;
	}
	reader->f = f;
	reader->pending = false;
	// As luaL_loadfile: a UTF-8 byte order mark and a first line starting with '#' are skipped.
	int c = getc( f );
	if ( c == 0xEF && getc( f ) == 0xBB && getc( f ) == 0xBF )
	{
		c = getc( f );
	}
	else if ( c == 0xEF )
	{
		rewind( f );
		c = getc( f );
	}
	if ( c == '#' )
	{
		while ( c != EOF && c != '\n' )
		{
			c = getc( f );
		}
		reader->pending = c == '\n';
	}
	else if ( c != EOF )
	{
		ungetc( c, f );
	}
	lua_pushfstring( L, "@%s", path );
	int status = lua_load( L, tbReadFile, reader, lua_tostring( L, -1 ), "t" );
	lua_remove( L, -2 );
	bool failed = ferror( f ) != 0;
	fclose( f );
	free( reader );
	if ( status == LUA_OK && failed )
	{
		lua_pop( L, 1 );
		lua_pushfstring( L, "cannot read %s", path );
		return LUA_ERRFILE;
	}
	if ( status == LUA_OK && envIndex != 0 )
	{
		lua_pushvalue( L, envIndex );
		// The first upvalue of a main chunk is its _ENV.
		lua_setupvalue( L, -2, 1 );
	}
	return status;
}

// Library calls -----------------------------------------------------------------------------------
//
// The count hook sees VM instructions only: one call of a standard-library C function can run for
// any time between two of its checks (string.rep("", 2^53) never returns; a loop of load() on a
// megabyte of text ran 13x past its limit). The sandbox's copies of the libraries therefore wrap
// the functions whose work is not bounded by a few instructions: the work is priced from the
// arguments before the call (and refused when no budget could pay it), and a call that may be long
// is followed by a check of the CPU-time limit.

// Bytes copied, parsed or scanned per budget instruction; table elements moved per instruction.
#define TB_SANDBOX_BYTES_PER_INSTRUCTION 8
#define TB_SANDBOX_LOAD_BYTES_PER_INSTRUCTION 1
#define TB_SANDBOX_ELEMENT_COST 4
// A call given this many bytes of strings (or a pattern whose worst case is this many steps) is
// followed by a check of the CPU-time limit (a clock read, a fraction of a microsecond).
#define TB_SANDBOX_LONG_CALL_BYTES ( (size_t)1 << 20 )
#define TB_SANDBOX_LONG_PATTERN_WORK 1.0e6
// The worst case a pattern may have: about 0.1 s of matching (measured, docs/RELIABILITY.md).
#define TB_SANDBOX_MAX_PATTERN_WORK 5.0e7

// After a call that may have been long: past the CPU-time limit, trip and raise at the caller.
static void tbCheckTime( lua_State* L )
{
	tbSandboxState* s = tbGetState( L );
	if ( tbIsLimited( s ) && tbCurrentAccount( s )->tripped == false && tbPastTime( s ) )
	{
		tbTripForTime( L, s, 1 );
	}
}

// Calls the wrapped function (upvalue 1) with this call's arguments and returns all its results;
// `long` checks the CPU-time limit after it.
static int tbCallWrapped( lua_State* L, bool mayBeLong )
{
	int n = lua_gettop( L );
	lua_pushvalue( L, lua_upvalueindex( 1 ) );
	lua_insert( L, 1 );
	lua_call( L, n, LUA_MULTRET );
	if ( mayBeLong )
	{
		tbCheckTime( L );
	}
	return lua_gettop( L );
}

// Charges cost instructions for "<fn> of <count> <unit>" (a count past any budget, in double, is
// clamped: the charge then trips the account).
static void tbChargeWork( lua_State* L, double cost, const char* fn, double count, const char* unit )
{
	tbSandboxState* s = tbGetState( L );
	if ( tbIsLimited( s ) == false || cost < 1.0 )
	{
		return;
	}
	char what[96];
	snprintf( what, sizeof( what ), "%s of %.0f %s", fn, count, unit );
	tbCharge( L, cost < 1.0e15 ? (long)cost : 1000000000000000L, what );
}

// Functions whose work follows the size of their string arguments (string.upper, utf8.len, ...).
static int tbSandboxLongCall( lua_State* L )
{
	size_t bytes = 0;
	int n = lua_gettop( L );
	for ( int i = 1; i <= n; ++i )
	{
		if ( lua_type( L, i ) == LUA_TSTRING )
		{
			bytes += lua_rawlen( L, i );
		}
	}
	return tbCallWrapped( L, bytes >= TB_SANDBOX_LONG_CALL_BYTES );
}

// string.rep(s, n [, sep]): the size of the result is known before any of it is made. An empty
// result returns at once (Lua's loop would copy nothing n times).
static int tbSandboxRep( lua_State* L )
{
	size_t length = 0;
	size_t sepLength = 0;
	luaL_checklstring( L, 1, &length );
	lua_Integer n = luaL_checkinteger( L, 2 );
	luaL_optlstring( L, 3, "", &sepLength );
	double total = n > 0 ? (double)length * (double)n + (double)sepLength * (double)( n - 1 ) : 0.0;
	if ( total == 0.0 )
	{
		lua_pushliteral( L, "" );
		return 1;
	}
	tbSandboxState* s = tbGetState( L );
	if ( s->limit > 0 && total > (double)s->limit )
	{
		char message[128];
		snprintf( message, sizeof( message ), "string.rep: the result would be %.0f bytes, more than the memory cap (%zu bytes)",
				  total, s->limit );
		return luaL_error( L, "%s", message );
	}
	tbChargeWork( L, total / TB_SANDBOX_BYTES_PER_INSTRUCTION, "string.rep", total, "bytes" );
	return tbCallWrapped( L, total >= (double)TB_SANDBOX_LONG_CALL_BYTES );
}

// Pattern matching (Lua manual 6.4.1) backtracks: an item followed by '*', '+' or '-' tries every
// length of its run, and each of those tries the rest of the pattern, so k such items on an
// n-byte subject can take n^k steps ('.-' twelve times on 60 bytes never ends). The estimate of
// the worst case: (start positions) x the product over those items of (the longest run of subject
// bytes their class matches + 1), x 2 per '?', x (n + 1) per back reference or %b. Ordinary uses
// stay far below the limit ("(%w+)=(%w+)" on 10 KB of text: runs of words).

static bool tbClassHas( int c, int cl )
{
	bool has;
	switch ( tolower( cl ) )
	{
		case 'a': has = isalpha( c ); break;
		case 'c': has = iscntrl( c ); break;
		case 'd': has = isdigit( c ); break;
		case 'g': has = isgraph( c ); break;
		case 'l': has = islower( c ); break;
		case 'p': has = ispunct( c ); break;
		case 's': has = isspace( c ); break;
		case 'u': has = isupper( c ); break;
		case 'w': has = isalnum( c ); break;
		case 'x': has = isxdigit( c ); break;
		default: return cl == c;
	}
	return isupper( cl ) ? !has : has;
}

// The end of the single-character class at p: '.', '%x', a set '[...]' or a literal.
static const char* tbClassEnd( const char* p, const char* end )
{
	if ( *p == '%' )
	{
		return p + 2 <= end ? p + 2 : end;
	}
	if ( *p == '[' )
	{
		const char* q = p + 1;
		if ( q < end && *q == '^' )
		{
			++q;
		}
		// The first character of a set is never its end ("[]]" is a set of ']').
		do
		{
			if ( q >= end )
			{
				return end;
			}
			if ( *q++ == '%' && q < end )
			{
				++q;
			}
		} while ( q < end && *q != ']' );
		return q < end ? q + 1 : end;
	}
	return p + 1;
}

static bool tbSetHas( int c, const char* p, const char* close )
{
	bool negate = false;
	++p;
	if ( p < close && *p == '^' )
	{
		negate = true;
		++p;
	}
	while ( p < close )
	{
		if ( *p == '%' && p + 1 < close )
		{
			if ( tbClassHas( c, (unsigned char)p[1] ) )
			{
				return !negate;
			}
			p += 2;
		}
		else if ( p + 2 < close && p[1] == '-' )
		{
			if ( (unsigned char)p[0] <= c && c <= (unsigned char)p[2] )
			{
				return !negate;
			}
			p += 3;
		}
		else
		{
			if ( (unsigned char)*p == c )
			{
				return !negate;
			}
			++p;
		}
	}
	return negate;
}

static bool tbSingleMatch( int c, const char* p, const char* classEnd )
{
	switch ( *p )
	{
		case '.': return true;
		case '%': return p + 1 < classEnd && tbClassHas( c, (unsigned char)p[1] );
		case '[': return tbSetHas( c, p, classEnd - 1 );
		default: return (unsigned char)*p == c;
	}
}

static double tbLongestRun( const char* subject, size_t n, const char* p, const char* classEnd )
{
	size_t longest = 0;
	size_t run = 0;
	for ( size_t i = 0; i < n; ++i )
	{
		run = tbSingleMatch( (unsigned char)subject[i], p, classEnd ) ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	return (double)longest;
}

static double tbPatternWork( const char* subject, size_t n, const char* p, size_t patternLength, bool plain,
							 bool anchors )
{
	double starts = (double)n + 1.0;
	if ( plain )
	{
		return starts * ( (double)patternLength + 1.0 );
	}
	const char* end = p + patternLength;
	if ( anchors && p < end && *p == '^' )
	{
		starts = 1.0;
		++p;
	}
	double branches = 1.0;
	while ( p < end && branches < 1.0e30 )
	{
		if ( *p == '(' || *p == ')' || ( *p == '$' && p + 1 == end ) )
		{
			++p;
			continue;
		}
		if ( *p == '%' && p + 1 < end && ( p[1] == 'b' || isdigit( (unsigned char)p[1] ) ) )
		{
			branches *= (double)n + 1.0;
			p += p[1] == 'b' ? ( p + 4 <= end ? 4 : end - p ) : 2;
			continue;
		}
		if ( *p == '%' && p + 1 < end && p[1] == 'f' )
		{
			p += 2;
			p = p < end ? tbClassEnd( p, end ) : end;
			continue;
		}
		const char* classEnd = tbClassEnd( p, end );
		if ( classEnd < end && ( *classEnd == '*' || *classEnd == '+' || *classEnd == '-' ) )
		{
			branches *= tbLongestRun( subject, n, p, classEnd ) + 1.0;
			++classEnd;
		}
		else if ( classEnd < end && *classEnd == '?' )
		{
			branches *= 2.0;
			++classEnd;
		}
		p = classEnd;
	}
	return starts * branches + (double)n;
}

// string.find, match, gmatch, gsub. Upvalue 2: the function's name.
static int tbSandboxPattern( lua_State* L )
{
	size_t n = 0;
	size_t patternLength = 0;
	const char* subject = luaL_checklstring( L, 1, &n );
	const char* pattern = luaL_checklstring( L, 2, &patternLength );
	const char* fn = lua_tostring( L, lua_upvalueindex( 2 ) );
	bool plain = strcmp( fn, "string.find" ) == 0 && lua_toboolean( L, 4 );
	// gmatch does not anchor at '^' (Lua 5.4 matches it as a character there).
	double work = tbPatternWork( subject, n, pattern, patternLength, plain, strcmp( fn, "string.gmatch" ) != 0 );
	if ( tbIsLimited( tbGetState( L ) ) && work > TB_SANDBOX_MAX_PATTERN_WORK )
	{
		char message[256];
		snprintf( message, sizeof( message ),
				  "%s: the pattern may take about %.1e steps on this %zu-byte subject, more than the sandbox allows "
				  "(%.0e): repeated items ('.-', '.*') backtrack over each other",
				  fn, work, n, TB_SANDBOX_MAX_PATTERN_WORK );
		return luaL_error( L, "%s", message );
	}
	tbChargeWork( L, (double)n / TB_SANDBOX_BYTES_PER_INSTRUCTION, fn, (double)n, "bytes" );
	return tbCallWrapped( L, work > TB_SANDBOX_LONG_PATTERN_WORK );
}

// A range of table elements from the integer arguments at first and last (last absent: #t, refused
// on a table whose length is a metamethod's answer, which could change between our reading and the
// library's).
static double tbRangeCount( lua_State* L, int first, int last, const char* fn )
{
	lua_Integer i = luaL_optinteger( L, first, 1 );
	lua_Integer j = 0;
	if ( lua_isnoneornil( L, last ) )
	{
		if ( luaL_getmetafield( L, 1, "__len" ) != LUA_TNIL )
		{
			luaL_error( L, "%s: a table with a __len metamethod needs an explicit range in the sandbox", fn );
		}
		j = (lua_Integer)lua_rawlen( L, 1 );
	}
	else
	{
		j = luaL_checkinteger( L, last );
	}
	return j >= i ? (double)j - (double)i + 1.0 : 0.0;
}

static int tbSandboxMove( lua_State* L )
{
	lua_Integer f = luaL_checkinteger( L, 2 );
	lua_Integer e = luaL_checkinteger( L, 3 );
	double count = e >= f ? (double)e - (double)f + 1.0 : 0.0;
	tbChargeWork( L, count * TB_SANDBOX_ELEMENT_COST, "table.move", count, "elements" );
	return tbCallWrapped( L, false );
}

static int tbSandboxConcat( lua_State* L )
{
	luaL_checktype( L, 1, LUA_TTABLE );
	double count = tbRangeCount( L, 3, 4, "table.concat" );
	tbChargeWork( L, count * TB_SANDBOX_ELEMENT_COST, "table.concat", count, "elements" );
	return tbCallWrapped( L, count > 1.0e5 );
}

static int tbSandboxUnpack( lua_State* L )
{
	double count = tbRangeCount( L, 2, 3, "table.unpack" );
	tbChargeWork( L, count * TB_SANDBOX_ELEMENT_COST, "table.unpack", count, "elements" );
	return tbCallWrapped( L, false );
}

// table.insert, table.remove (elements shifted: up to #t) and table.sort (n log2 n comparisons).
// Upvalue 2: the function's name.
static int tbSandboxShift( lua_State* L )
{
	const char* fn = lua_tostring( L, lua_upvalueindex( 2 ) );
	luaL_checktype( L, 1, LUA_TTABLE );
	if ( luaL_getmetafield( L, 1, "__len" ) != LUA_TNIL )
	{
		return luaL_error( L, "%s: tables with a __len metamethod are not supported in the sandbox", fn );
	}
	double n = (double)lua_rawlen( L, 1 );
	double cost = n;
	if ( strcmp( fn, "table.sort" ) == 0 )
	{
		cost = n * ( log2( n + 1.0 ) + 1.0 );
	}
	tbChargeWork( L, cost * TB_SANDBOX_ELEMENT_COST, fn, n, "elements" );
	return tbCallWrapped( L, n > 1.0e5 );
}

// load(chunk [, name [, mode [, env]]]) with mode forced to "t" and env defaulting to the sandbox;
// a text chunk is charged by its size (parsing takes a few nanoseconds per byte).
// Upvalues: the real load, the environment.
static int tbSandboxLoad( lua_State* L )
{
	int n = lua_gettop( L );
	if ( lua_type( L, 1 ) == LUA_TSTRING )
	{
		double bytes = (double)lua_rawlen( L, 1 );
		tbChargeWork( L, bytes / TB_SANDBOX_LOAD_BYTES_PER_INSTRUCTION, "load", bytes, "bytes" );
	}
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
	tbCheckTime( L );
	return lua_gettop( L ) - n;
}

// setmetatable refusing __gc: finalizers run with hooks off (during any collection, at a reload
// and when the state closes), so no budget could stop one. The field must be in the metatable when
// it is set for the object to be finalized (manual 2.5.3), so checking here is enough.
static int tbSandboxSetMetatable( lua_State* L )
{
	if ( lua_type( L, 2 ) == LUA_TTABLE )
	{
		lua_pushliteral( L, "__gc" );
		if ( lua_rawget( L, 2 ) != LUA_TNIL )
		{
			return luaL_error( L, "setmetatable: __gc metamethods are not allowed in the sandbox (finalizers run "
								  "outside the instruction budget)" );
		}
		lua_pop( L, 1 );
	}
	return tbCallWrapped( L, false );
}

// xpcall's message handler, wrapped: once the script's budget is gone, the handler is not run (the
// budget error is raised inside the count hook, where hooks are off, so a handler called from there
// could loop for ever); the error goes on unchanged. Upvalue 1: the script's handler.
static int tbSandboxMessageHandler( lua_State* L )
{
	tbSandboxState* s = tbGetState( L );
	if ( tbIsLimited( s ) && tbCurrentAccount( s )->tripped )
	{
		lua_settop( L, 1 );
		return 1;
	}
	int n = lua_gettop( L );
	lua_pushvalue( L, lua_upvalueindex( 1 ) );
	lua_insert( L, 1 );
	lua_call( L, n, 1 );
	return 1;
}

// xpcall(f, msgh, ...) with msgh wrapped. Upvalue 1: the real xpcall.
static int tbSandboxXpcall( lua_State* L )
{
	luaL_checktype( L, 2, LUA_TFUNCTION );
	lua_pushvalue( L, 2 );
	lua_pushcclosure( L, tbSandboxMessageHandler, 1 );
	lua_replace( L, 2 );
	return tbCallWrapped( L, false );
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
		// A copy per environment, its subtables (tb.input, ...) included: one script replacing
		// tb.world or tb.input.down cannot affect another, nor the trusted scene.
		luaL_getsubtable( L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE );
		if ( lua_getfield( L, -1, "tumble" ) != LUA_TTABLE )
		{
			return luaL_error( L, "module 'tumble' is not available" );
		}
		tbLua_PushTableCopy( L, -1, 1 );
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
		if ( tbSandbox_IsRegularFile( candidate ) )
		{
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

// The library functions the sandbox wraps (see "Library calls" above).
typedef struct tbLibraryWrap
{
	const char* library;
	const char* name;
	lua_CFunction wrapper;
	const char* label; ///< passed to the wrapper as upvalue 2 when not NULL
} tbLibraryWrap;

static const tbLibraryWrap tb_libraryWraps[] = {
	{ "string", "rep", tbSandboxRep, NULL },
	{ "string", "find", tbSandboxPattern, "string.find" },
	{ "string", "match", tbSandboxPattern, "string.match" },
	{ "string", "gmatch", tbSandboxPattern, "string.gmatch" },
	{ "string", "gsub", tbSandboxPattern, "string.gsub" },
	{ "string", "byte", tbSandboxLongCall, NULL },
	{ "string", "format", tbSandboxLongCall, NULL },
	{ "string", "lower", tbSandboxLongCall, NULL },
	{ "string", "upper", tbSandboxLongCall, NULL },
	{ "string", "reverse", tbSandboxLongCall, NULL },
	{ "string", "sub", tbSandboxLongCall, NULL },
	{ "string", "pack", tbSandboxLongCall, NULL },
	{ "string", "unpack", tbSandboxLongCall, NULL },
	{ "table", "move", tbSandboxMove, NULL },
	{ "table", "concat", tbSandboxConcat, NULL },
	{ "table", "unpack", tbSandboxUnpack, NULL },
	{ "table", "insert", tbSandboxShift, "table.insert" },
	{ "table", "remove", tbSandboxShift, "table.remove" },
	{ "table", "sort", tbSandboxShift, "table.sort" },
	{ "utf8", "char", tbSandboxLongCall, NULL },
	{ "utf8", "codepoint", tbSandboxLongCall, NULL },
	{ "utf8", "len", tbSandboxLongCall, NULL },
	{ "utf8", "offset", tbSandboxLongCall, NULL },
	{ NULL, NULL, NULL, NULL },
};

// Pushes a copy of a library table (so one script replacing string.format cannot affect another)
// with the functions of tb_libraryWraps wrapped and the field `skip` left out.
static void tbPushLibrary( lua_State* L, const char* name, const char* skip )
{
	lua_getglobal( L, name );
	lua_newtable( L );
	if ( lua_type( L, -2 ) != LUA_TTABLE )
	{
		lua_remove( L, -2 );
		return;
	}
	lua_pushnil( L );
	while ( lua_next( L, -3 ) != 0 )
	{
		const char* key = lua_type( L, -2 ) == LUA_TSTRING ? lua_tostring( L, -2 ) : "";
		if ( skip != NULL && strcmp( key, skip ) == 0 )
		{
			lua_pop( L, 1 );
			continue;
		}
		for ( const tbLibraryWrap* w = tb_libraryWraps; w->library != NULL; ++w )
		{
			if ( strcmp( w->library, name ) == 0 && strcmp( w->name, key ) == 0 )
			{
				if ( w->label != NULL )
				{
					lua_pushstring( L, w->label );
				}
				lua_pushcclosure( L, w->wrapper, w->label != NULL ? 2 : 1 );
				break;
			}
		}
		lua_pushvalue( L, -2 );
		lua_insert( L, -2 );
		lua_rawset( L, -4 );
	}
	lua_remove( L, -2 );
}

static void tbCopyLibrary( lua_State* L, int env, const char* name, const char* skip )
{
	tbPushLibrary( L, name, skip );
	lua_setfield( L, env, name );
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
		if ( strcmp( safe[i], "setmetatable" ) == 0 || strcmp( safe[i], "xpcall" ) == 0 )
		{
			lua_pushcclosure( L, safe[i][0] == 's' ? tbSandboxSetMetatable : tbSandboxXpcall, 1 );
		}
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
		// Method calls on strings ("x"):rep(n) reach the wrapped functions too, and not string.dump.
		tbPushLibrary( L, "string", "dump" );
		lua_setfield( L, -2, "__index" );
		lua_pop( L, 1 );
	}
	lua_pop( L, 1 );
}

// Physics budget ---------------------------------------------------------------------------------

typedef struct tbPairCount
{
	tbBodyId body;	///< the body whose shape is the query; its own shapes do not count
	tbAABB box;		///< the query's box
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
	// A mesh pairs the query with each triangle within its box (100 meshes under 10 boxes were
	// predicted as 1,000 pairs and made 1.47 million).
	long pairs = 1;
	const tbMesh* mesh = tbShape_GetMesh( shapeId );
	const tbHeightfield* heightfield = tbShape_GetHeightfield( shapeId );
	if ( mesh != NULL || heightfield != NULL )
	{
		long room = count->limit - count->twice + 2;
		int limit = room < 1000000000L ? (int)room : 1000000000;
		pairs = mesh != NULL ? tbCountMeshTriangles( mesh, tbBody_GetTransform( other ), count->box, limit )
							 : tbCountHeightfieldTriangles( heightfield, tbBody_GetTransform( other ), count->box, limit );
	}
	// A static shape is never a query, so its pair is met once: count it twice.
	count->twice += ( tbBody_GetType( other ) == tbBody_static ? 2 : 1 ) * pairs;
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
	tbPairCount count = { tb_nullBodyId, { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f } }, 0, 2 * limit };
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
			count.box = tbShape_GetAABB( shapes[k] );
			tbWorld_OverlapAABB( world, count.box, filter, tbCountPair, &count );
		}
		if ( shapeCount > 16 && count.twice <= count.limit )
		{
			// The shapes past the 16th: the body's box stands in for them.
			count.box = tbBody_ComputeAABB( bodies[i] );
			tbWorld_OverlapAABB( world, count.box, filter, tbCountPair, &count );
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
		// than the broad phase's enlarged ones (a fuzz_lua finding: 21,130 pairs kept).
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

// The bindings read definitions with metamethods; the price below is read raw, so a definition
// given through a proxy (__index to the real one) was priced as empty. Definitions are plain tables.
static void tbRefuseProxy( lua_State* L, int index, const char* fn, const char* what )
{
	if ( lua_type( L, index ) == LUA_TTABLE && lua_getmetatable( L, index ) )
	{
		luaL_error( L, "%s: in the sandbox a %s must be a plain table (no metatable)", fn, what );
	}
}

// The heights of a heightfield definition (index 2): a flat list's length, or the rows' lengths
// summed (up to TB_SANDBOX_MAX_ELEMENTS). Raw accesses, as the bindings read them.
static long tbRawHeightCount( lua_State* L )
{
	long count = 0;
	lua_pushstring( L, "heights" );
	if ( lua_type( L, 2 ) == LUA_TTABLE && lua_rawget( L, 2 ) == LUA_TTABLE )
	{
		int heights = lua_gettop( L );
		long length = (long)lua_rawlen( L, heights );
		lua_rawgeti( L, heights, 1 );
		bool rows = lua_type( L, -1 ) == LUA_TTABLE;
		lua_pop( L, 1 );
		count = rows ? 0 : length;
		for ( long j = 1; rows && j <= length && count < TB_SANDBOX_MAX_ELEMENTS; ++j )
		{
			lua_rawgeti( L, heights, (lua_Integer)j );
			count += lua_type( L, -1 ) == LUA_TTABLE ? (long)lua_rawlen( L, -1 ) : 1;
			lua_pop( L, 1 );
		}
	}
	lua_settop( L, lua_gettop( L ) - 1 );
	return count;
}

// What creating from the definition table at index 2 costs: a flat part, plus per point of a hull
// or a mover's path, vertex and triangle of a mesh, height and hole of a heightfield, and entry
// (and its points) of a compound, read before the call so that an oversized definition is refused
// before any of it is built.
static long tbCreateCost( lua_State* L, const char* fn )
{
	tbRefuseProxy( L, 2, fn, "definition" );
	long elements = tbRawLength( L, 2, "points" ) + tbRawLength( L, 2, "vertices" ) + tbRawLength( L, 2, "triangles" ) +
					tbRawLength( L, 2, "path" ) + tbRawLength( L, 2, "holes" ) + tbRawHeightCount( L );
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
				tbRefuseProxy( L, -1, fn, "compound entry" );
				elements += 1 + tbRawLength( L, lua_gettop( L ), "points" );
				lua_pop( L, 1 );
			}
		}
		lua_pop( L, 1 );
	}
	elements = elements < TB_SANDBOX_MAX_ELEMENTS ? elements : TB_SANDBOX_MAX_ELEMENTS;
	return TB_SANDBOX_CREATE_COST + TB_SANDBOX_CREATE_COST_PER_ELEMENT * elements;
}

void tbSandbox_Guard( lua_State* L, tbLuaGuard what, const char* fn, int heldWorlds )
{
	if ( what == tbLuaGuard_world || what == tbLuaGuard_threads )
	{
		// Worlds and their worker threads are outside the memory cap: 127 worlds of 16 threads
		// each were 1,905 threads.
		lua_Integer threads = lua_tointeger( L, -1 );
		if ( threads > TB_SANDBOX_MAX_THREADS )
		{
			luaL_error( L, "%s: a sandboxed script's world may have at most %d worker threads, got %d", fn,
						TB_SANDBOX_MAX_THREADS, (int)threads );
		}
		// Counted over the scene's states, not the process: a reload's new states must not find the
		// running ones' worlds in their way.
		if ( what == tbLuaGuard_world && heldWorlds >= TB_SANDBOX_MAX_WORLDS )
		{
			luaL_error( L, "%s: sandbox budget reached: %d worlds exist (a sandboxed script may create worlds while "
						   "fewer than %d exist)",
						fn, heldWorlds, TB_SANDBOX_MAX_WORLDS );
		}
		return;
	}
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
			else
			{
				// At the limit, the call would pass it: refused before it builds anything, so a
				// script catching the error (pcall) goes on with a world within the budget.
				tbWorldCounters c = tbWorld_GetCounters( world );
				if ( c.bodyCount >= TB_SANDBOX_MAX_BODIES || c.shapeCount >= TB_SANDBOX_MAX_SHAPES ||
					 c.jointCount >= TB_SANDBOX_MAX_JOINTS )
				{
					luaL_error( L,
								"%s: sandbox physics budget reached: %d bodies, %d shapes, %d joints (a sandboxed "
								"scene may have at most %d bodies, %d shapes and %d joints)",
								fn, c.bodyCount, c.shapeCount, c.jointCount, TB_SANDBOX_MAX_BODIES, TB_SANDBOX_MAX_SHAPES,
								TB_SANDBOX_MAX_JOINTS );
				}
			}
			tbCharge( L, tbCreateCost( L, fn ), "this call" );
			break;
		case tbLuaGuard_created:
			tbChargeObject( L, fn );
			break;
		case tbLuaGuard_world:
		case tbLuaGuard_threads:
			break; // above
	}
}
