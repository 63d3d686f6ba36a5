// Fuzz target: the scene host (runtime/scene.c) running arbitrary Lua in the sandbox.
// SPDX-License-Identifier: MIT
//
// Two kinds of input share this target:
//   - any bytes not starting with 0x00 are a scene file, run as written (syntax errors, runtime
//     errors, odd return values, loops, memory bombs; fuzz_lua.dict gives the mutator the tokens);
//   - 0x00 followed by a program: each byte picks a statement of the tumble Lua API (create and
//     destroy bodies, set properties and call methods with odd arguments, step, query, register
//     handlers, make and drop worlds) whose arguments come from the following bytes. The
//     statements are written out as Lua source into setup, update and event handlers, each wrapped
//     in pcall so that one error does not hide the calls after it.
// Either way the file is loaded with the sandbox on (instruction budget 200,000 per script per
// step, memory cap 32 MiB), stepped, sent a key, finished, reloaded (rebuild or swap, as the scene
// asks) and stepped again; every fourth input is also loaded as a mod of itself. Errors are
// expected; the host must never crash, hang, leak or trip a sanitizer, and every failure must come
// with a message.
#define _POSIX_C_SOURCE 200809L

#include "fuzz_common.h"

#include "sandbox.h"
#include "scene.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define TB_FL_BUDGET 200000
#define TB_FL_MEMORY ( (size_t)32 << 20 )
#define TB_FL_MAX_SOURCE ( 64 * 1024 )

static char tb_dir[64];
static char tb_scenePath[96];
static char tb_libraryDir[PATH_MAX];
static bool tb_hasLibrary;

static void tbRemoveScratch( void )
{
	unlink( tb_scenePath );
	rmdir( tb_dir );
}

// A run that ends in a crash or a timeout exits without atexit handlers and leaves its directory
// (/tmp/tumble-fuzz-lua-<pid>) behind: remove those of processes that no longer exist.
static void tbRemoveStaleScratch( void )
{
	DIR* tmp = opendir( "/tmp" );
	if ( tmp == NULL )
	{
		return;
	}
	static const char prefix[] = "tumble-fuzz-lua-";
	struct dirent* entry;
	while ( ( entry = readdir( tmp ) ) != NULL )
	{
		if ( strncmp( entry->d_name, prefix, sizeof( prefix ) - 1 ) != 0 )
		{
			continue;
		}
		char* end = NULL;
		long pid = strtol( entry->d_name + sizeof( prefix ) - 1, &end, 10 );
		if ( end == NULL || *end != '\0' || pid <= 0 || ( kill( (pid_t)pid, 0 ) != 0 && errno == ESRCH ) == false )
		{
			continue;
		}
		char path[PATH_MAX];
		snprintf( path, sizeof( path ), "/tmp/%s/scene.lua", entry->d_name );
		unlink( path );
		snprintf( path, sizeof( path ), "/tmp/%s", entry->d_name );
		rmdir( path );
	}
	closedir( tmp );
}

// The scene file lives alone in a private directory, so `require` finds nothing else next to it.
// scripts/lib (for require "builders") is found from the program's path: build/fuzz/fuzz_lua.
int LLVMFuzzerInitialize( int* argc, char*** argv );
int LLVMFuzzerInitialize( int* argc, char*** argv )
{
	(void)argc;
	(void)argv;
	// Scripts print to stderr, so runs use -close_fd_mask=2; check failures keep a copy of it.
	int copy = dup( 2 );
	tb_fuzzOut = copy >= 0 ? fdopen( copy, "w" ) : NULL;
	tbRemoveStaleScratch();
	snprintf( tb_dir, sizeof( tb_dir ), "/tmp/tumble-fuzz-lua-%ld", (long)getpid() );
	if ( mkdir( tb_dir, 0700 ) != 0 && errno != EEXIST )
	{
		perror( "fuzz_lua: mkdir" );
		abort();
	}
	snprintf( tb_scenePath, sizeof( tb_scenePath ), "%s/scene.lua", tb_dir );
	atexit( tbRemoveScratch );

	char exe[PATH_MAX];
	ssize_t n = readlink( "/proc/self/exe", exe, sizeof( exe ) - 1 );
	if ( n > 0 )
	{
		exe[n] = '\0';
		for ( int i = 0; i < 3; ++i )
		{
			char* slash = strrchr( exe, '/' );
			if ( slash != NULL )
			{
				*slash = '\0';
			}
		}
		snprintf( tb_libraryDir, sizeof( tb_libraryDir ), "%.*s/scripts/lib", PATH_MAX - 16, exe );
		tb_hasLibrary = access( tb_libraryDir, R_OK ) == 0;
	}
	return 0;
}

// Source text buffer -------------------------------------------------------------------------------

typedef struct tbText
{
	char* data;
	size_t length;
	size_t capacity;
} tbText;

static void tbAppend( tbText* t, const char* format, ... ) __attribute__( ( format( printf, 2, 3 ) ) );

static void tbAppend( tbText* t, const char* format, ... )
{
	if ( t->length >= TB_FL_MAX_SOURCE )
	{
		return;
	}
	va_list args;
	va_start( args, format );
	char piece[512];
	int n = vsnprintf( piece, sizeof( piece ), format, args );
	va_end( args );
	if ( n < 0 )
	{
		return;
	}
	size_t add = (size_t)n < sizeof( piece ) ? (size_t)n : sizeof( piece ) - 1;
	if ( t->length + add + 1 > t->capacity )
	{
		size_t capacity = t->capacity == 0 ? 4096 : t->capacity;
		while ( capacity < t->length + add + 1 )
		{
			capacity *= 2;
		}
		char* grown = realloc( t->data, capacity );
		if ( grown == NULL )
		{
			return;
		}
		t->data = grown;
		t->capacity = capacity;
	}
	memcpy( t->data + t->length, piece, add );
	t->length += add;
	t->data[t->length] = '\0';
}

// Generated programs --------------------------------------------------------------------------------

static const char* const tb_numbers[] = {
	"0",
	"1",
	"-1",
	"0.5",
	"2",
	"10",
	"100",
	"1e4",
	"1e-4",
	"1e30",
	"-1e30",
	"1e308",
	"-1e308",
	"1/0",
	"-1/0",
	"0/0",
	"-0.0",
	"1e-310",
	"math.pi",
	"2^53",
	"math.maxinteger",
	"math.mininteger",
	"3",
	"0.25",
	"-0.001",
	"'2'",
	"'x'",
	"nil",
	"true",
	"{}",
	"B[1]",
	"W",
	"1/60",
	"1e-7",
	"7",
};

static const char* tbNumber( tbFuzzInput* in )
{
	const char* number = tb_numbers[tbFuzz_Byte( in ) % ( sizeof( tb_numbers ) / sizeof( tb_numbers[0] ) )];
	// Open findings: huge finite sizes and speeds overflow in the core (tests/fuzz/README.md).
	if ( tbFuzz_IsKnown( "extreme-values" ) &&
		 ( strstr( number, "e3" ) != NULL || strstr( number, "e4" ) != NULL || strstr( number, "^" ) != NULL ||
		   strstr( number, "max" ) != NULL || strstr( number, "min" ) != NULL ) )
	{
		return "10";
	}
	return number;
}

// A plain number most of the time, so the calls get past argument checks and do something.
static const char* tbSaneNumber( tbFuzzInput* in, char* buffer, size_t size )
{
	uint8_t s = tbFuzz_Byte( in );
	if ( s < 40 )
	{
		return tbNumber( in );
	}
	snprintf( buffer, size, "%g", (double)( (int)s - 148 ) / 16.0 );
	return buffer;
}

static void tbAppendVector( tbText* t, tbFuzzInput* in )
{
	uint8_t s = tbFuzz_Byte( in );
	char a[32], b[32], c[32];
	if ( s < 16 )
	{
		static const char* const odd[] = { "{}",
										   "{1}",
										   "{1, 2}",
										   "{1, 2, 3, 4}",
										   "{0/0, 0, 0}",
										   "{1/0, 0, 0}",
										   "{'a', 'b', 'c'}",
										   "{x = 1, y = 2, z = 3}",
										   "nil",
										   "7",
										   "B[1]",
										   "{{}, {}, {}}",
										   "{1e38, 1e38, 1e38}",
										   "{-1e38, 0, 1e38}",
										   "{math.mininteger, 0, 0}",
										   "{0, 0, 0}" };
		tbAppend( t, "%s", odd[s] );
		return;
	}
	const char* x = tbSaneNumber( in, a, sizeof( a ) );
	const char* y = tbSaneNumber( in, b, sizeof( b ) );
	const char* z = tbSaneNumber( in, c, sizeof( c ) );
	tbAppend( t, "{%s, %s, %s}", x, y, z );
}

static void tbAppendQuat( tbText* t, tbFuzzInput* in )
{
	uint8_t s = tbFuzz_Byte( in ) % 6;
	if ( s == 0 )
	{
		tbAppend( t, "{0, 0, 0, 0}" );
	}
	else if ( s == 1 )
	{
		tbAppend( t, "tb.axis_angle(" );
		tbAppendVector( t, in );
		tbAppend( t, ", %s)", tbNumber( in ) );
	}
	else if ( s == 2 )
	{
		tbAppend( t, "{%s, %s, %s, %s}", tbNumber( in ), tbNumber( in ), tbNumber( in ), tbNumber( in ) );
	}
	else
	{
		tbAppend( t, "{1, 0, 0, 0}" );
	}
}

static void tbAppendBody( tbText* t, tbFuzzInput* in )
{
	uint8_t s = tbFuzz_Byte( in );
	if ( s < 8 )
	{
		tbAppend( t, "%s", s < 4 ? "W" : "nil" );
		return;
	}
	tbAppend( t, "B[%d]", 1 + s % 12 );
}

static const char* const tb_bodyFields[] = {
	"name",
	"rot",
	"vel",
	"angvel",
	"static",
	"kinematic",
	"type",
	"mass",
	"density",
	"friction",
	"restitution",
	"ccd",
	"sensor",
	"layer",
	"mask",
	"group",
	"linear_damping",
	"angular_damping",
	"gravity_scale",
	"fixed_rotation",
	"can_sleep",
	"awake",
	"sise",
	"pos",
};

static void tbAppendBodyFields( tbText* t, tbFuzzInput* in )
{
	int count = tbFuzz_Byte( in ) % 4;
	for ( int i = 0; i < count; ++i )
	{
		uint8_t f = tbFuzz_Byte( in ) % ( sizeof( tb_bodyFields ) / sizeof( tb_bodyFields[0] ) );
		const char* field = tb_bodyFields[f];
		tbAppend( t, ", %s = ", field );
		if ( strcmp( field, "rot" ) == 0 )
		{
			tbAppendQuat( t, in );
		}
		else if ( strcmp( field, "vel" ) == 0 || strcmp( field, "angvel" ) == 0 || strcmp( field, "pos" ) == 0 )
		{
			tbAppendVector( t, in );
		}
		else if ( strcmp( field, "type" ) == 0 )
		{
			static const char* const types[] = { "'static'", "'kinematic'", "'dynamic'", "'dinamic'", "3" };
			tbAppend( t, "%s", types[tbFuzz_Byte( in ) % 5] );
		}
		else if ( strcmp( field, "name" ) == 0 )
		{
			static const char* const names[] = { "'a'", "'b'", "''", "string.rep('n', 40)", "'\\0x'", "1" };
			tbAppend( t, "%s", names[tbFuzz_Byte( in ) % 6] );
		}
		else
		{
			char buffer[32];
			tbAppend( t, "%s", tbFuzz_Byte( in ) < 64 ? tbNumber( in ) : tbSaneNumber( in, buffer, sizeof( buffer ) ) );
		}
	}
}

static void tbAppendStatement( tbText* t, tbFuzzInput* in, int depth );

static void tbAppendAddBody( tbText* t, tbFuzzInput* in )
{
	char buffer[32];
	tbAppend( t, "B[#B + 1] = W:" );
	switch ( tbFuzz_Byte( in ) % 6 )
	{
		case 0:
			tbAppend( t, "add_box{ pos = " );
			tbAppendVector( t, in );
			tbAppend( t, ", size = " );
			tbAppendVector( t, in );
			break;
		case 1:
			tbAppend( t, "add_sphere{ pos = " );
			tbAppendVector( t, in );
			tbAppend( t, ", radius = %s", tbSaneNumber( in, buffer, sizeof( buffer ) ) );
			break;
		case 2:
			tbAppend( t, "add_capsule{ pos = " );
			tbAppendVector( t, in );
			tbAppend( t, ", radius = %s", tbSaneNumber( in, buffer, sizeof( buffer ) ) );
			tbAppend( t, ", half_length = %s", tbSaneNumber( in, buffer, sizeof( buffer ) ) );
			break;
		case 3: {
			tbAppend( t, "add_hull{ pos = " );
			tbAppendVector( t, in );
			tbAppend( t, ", points = {" );
			int n = tbFuzz_Byte( in ) % 10;
			for ( int i = 0; i < n; ++i )
			{
				tbAppendVector( t, in );
				tbAppend( t, ", " );
			}
			tbAppend( t, "}" );
			break;
		}
		case 4: {
			tbAppend( t, "add_compound{ pos = " );
			tbAppendVector( t, in );
			tbAppend( t, ", shapes = {" );
			int n = tbFuzz_Byte( in ) % 5;
			for ( int i = 0; i < n; ++i )
			{
				static const char* const kinds[] = { "'box'", "'sphere'", "'capsule'", "'hull'", "'mesh'", "1" };
				tbAppend( t, "{ type = %s, pos = ", kinds[tbFuzz_Byte( in ) % 6] );
				tbAppendVector( t, in );
				tbAppend( t, ", size = " );
				tbAppendVector( t, in );
				tbAppend( t,
						  ", radius = %s, half_length = %s, points = { {1,0,0}, {0,1,0}, {0,0,1}, {0,0,0} }, "
						  "rot = ",
						  tbSaneNumber( in, buffer, sizeof( buffer ) ), tbNumber( in ) );
				tbAppendQuat( t, in );
				tbAppend( t, " }, " );
			}
			tbAppend( t, "}" );
			break;
		}
		default:
			tbAppend( t, "add_box{ pos = " );
			tbAppendVector( t, in );
			break;
	}
	tbAppendBodyFields( t, in );
	tbAppend( t, " }" );
}

static void tbAppendBodyCall( tbText* t, tbFuzzInput* in )
{
	static const char* const vectorMethods[] = { "set_position",
												 "set_velocity",
												 "set_angular_velocity",
												 "apply_angular_impulse",
												 "apply_torque",
												 "point_velocity",
												 "to_world",
												 "to_local" };
	static const char* const plainMethods[] = { "position", "rotation", "velocity",		  "angular_velocity",
												"mass",		"inertia",	"center_of_mass", "aabb",
												"destroy",	"is_valid" };
	static const char* const properties[] = { "friction", "restitution", "name",		  "type",
											  "sleeping", "awake",		 "gravity_scale", "ccd",
											  "world",	  "id",			 "shape_count",	  "frition" };
	tbAppendBody( t, in );
	char buffer[32];
	switch ( tbFuzz_Byte( in ) % 7 )
	{
		case 0:
			tbAppend( t, ":%s(", vectorMethods[tbFuzz_Byte( in ) % 8] );
			tbAppendVector( t, in );
			tbAppend( t, ")" );
			break;
		case 1:
			tbAppend( t, ":%s()", plainMethods[tbFuzz_Byte( in ) % 10] );
			break;
		case 2:
			tbAppend( t, ":%s(", tbFuzz_Bool( in ) ? "apply_impulse" : "apply_force" );
			tbAppendVector( t, in );
			if ( tbFuzz_Bool( in ) )
			{
				tbAppend( t, ", " );
				tbAppendVector( t, in );
			}
			tbAppend( t, ")" );
			break;
		case 3:
			tbAppend( t, ":set_rotation(" );
			tbAppendQuat( t, in );
			tbAppend( t, ")" );
			break;
		case 4:
			tbAppend( t, ":%s(%s, %s)", tbFuzz_Bool( in ) ? "set_mass" : "set_damping",
					  tbSaneNumber( in, buffer, sizeof( buffer ) ), tbNumber( in ) );
			break;
		case 5: {
			static const char* const values[] = { "'static'", "'dynamic'", "'kinematic'", "true", "false", "'x'" };
			uint8_t p = tbFuzz_Byte( in ) % 12;
			tbAppend( t, ".%s = %s", properties[p],
					  tbFuzz_Bool( in ) ? values[tbFuzz_Byte( in ) % 6] : tbNumber( in ) );
			break;
		}
		default:
			tbAppend( t, ":set_position(%s, %s, %s)", tbNumber( in ), tbNumber( in ), tbNumber( in ) );
			break;
	}
}

static void tbAppendWorldCall( tbText* t, tbFuzzInput* in, int depth )
{
	char buffer[32];
	switch ( tbFuzz_Byte( in ) % 15 )
	{
		case 0:
			tbAppend( t, "W:step(%s)", tbFuzz_Bool( in ) ? "1/60" : tbNumber( in ) );
			break;
		case 1:
			tbAppend( t, "W:raycast(" );
			tbAppendVector( t, in );
			tbAppend( t, ", " );
			tbAppendVector( t, in );
			tbAppend( t, ")" );
			break;
		case 2:
			tbAppend( t, "W:overlap_sphere(" );
			tbAppendVector( t, in );
			tbAppend( t, ", %s)", tbSaneNumber( in, buffer, sizeof( buffer ) ) );
			break;
		case 3:
			tbAppend( t, "W:overlap_box(" );
			tbAppendVector( t, in );
			tbAppend( t, ", " );
			tbAppendVector( t, in );
			tbAppend( t, ")" );
			break;
		case 4: {
			static const char* const reads[] = { "W:contacts()", "W:stats()", "W:state_hash()", "W:bodies()",
												 "W:body('a')",	 "W.time",	  "W.step_count",	"W.body_count",
												 "W.locked",	 "W.gravity", "W:is_valid()",	"W.solver" };
			tbAppend( t, "local _ = %s", reads[tbFuzz_Byte( in ) % 12] );
			break;
		}
		case 5: {
			static const char* const events[] = { "'contact_begin'", "'contact_end'", "'sensor_begin'",
												  "'sensor_end'",	 "'joint_break'", "'boom'" };
			tbAppend( t, "W:on(%s, function(ev) ", events[tbFuzz_Byte( in ) % 6] );
			if ( depth < 2 )
			{
				tbAppendStatement( t, in, depth + 1 );
			}
			tbAppend( t, " end)" );
			break;
		}
		case 6:
			tbAppend( t, "W:off('contact_begin')" );
			break;
		case 7:
			tbAppend( t, "W.gravity = " );
			tbAppendVector( t, in );
			break;
		case 8: {
			uint8_t s = tbFuzz_Byte( in ) % 5;
			if ( s < 3 )
			{
				static const char* const fields[] = { "iterations", "sleep", "solver" };
				tbAppend( t, "W.%s = %s", fields[s], tbNumber( in ) );
			}
			else
			{
				tbAppend( t, "W.solver = '%s'", s == 3 ? "split" : "baumgarte" );
			}
			break;
		}
		case 9:
			tbAppend( t, "W2 = tb.world{ gravity = " );
			tbAppendVector( t, in );
			tbAppend( t, ", solver = %s, iterations = %s }", tbFuzz_Bool( in ) ? "'soft'" : tbNumber( in ),
					  tbNumber( in ) );
			break;
		case 10:
			tbAppend( t, "W2 = nil collectgarbage()" );
			break;
		case 11:
			tbAppend( t, "if tb.input.down(%s) then B = {} end", tbFuzz_Bool( in ) ? "'space'" : tbNumber( in ) );
			break;
		case 12:
			// Joints and movers arrive in the bindings later; until then these are errors too.
			tbAppend( t, "B[#B + 1] = W:%s{ a = ",
					  ( const char* const[] ){ "hinge", "ball", "distance", "fixed", "slider", "cone", "mover",
											   "six_dof" }[tbFuzz_Byte( in ) % 8] );
			tbAppendBody( t, in );
			tbAppend( t, ", b = " );
			tbAppendBody( t, in );
			tbAppend( t, ", anchor = " );
			tbAppendVector( t, in );
			tbAppend( t, ", axis = " );
			tbAppendVector( t, in );
			tbAppend( t, " }" );
			break;
		case 13: {
			// Snapshots, restores across created and destroyed objects, and a custom constraint whose
			// handle may be gone when a restore brings it back.
			static const char* const calls[] = {
				"S = W:snapshot()",
				"W:restore(S)",
				"W:restore(W2 and W2:snapshot() or S)",
				"S = nil collectgarbage() collectgarbage()",
				"for _, j in ipairs(W:joints()) do j:destroy() end collectgarbage() collectgarbage()",
				"local s = W:snapshot() B[#B]:destroy() W:restore(s)",
			};
			uint8_t c = tbFuzz_Byte( in ) % 7;
			if ( c < 6 )
			{
				tbAppend( t, "%s", calls[c] );
			}
			else
			{
				tbAppend( t, "B[#B + 1] = W:constraint{ b = " );
				tbAppendBody( t, in );
				const char* error = tbNumber( in );
				const char* bias = tbNumber( in );
				tbAppend( t,
						  ", rows = function(c, dt) return { { J = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }, "
						  "error = %s, bias = %s } } end }",
						  error, bias );
			}
			break;
		}
		default:
			tbAppend( t, "local _ = tb.rotate(" );
			tbAppendQuat( t, in );
			tbAppend( t, ", " );
			tbAppendVector( t, in );
			tbAppend( t, ") _ = tb.quat_multiply(" );
			tbAppendQuat( t, in );
			tbAppend( t, ", " );
			tbAppendQuat( t, in );
			tbAppend( t, ")" );
			break;
	}
}

static void tbAppendStatement( tbText* t, tbFuzzInput* in, int depth )
{
	tbAppend( t, "pcall(function() " );
	uint8_t op = tbFuzz_Byte( in ) % 16;
	if ( op < 4 )
	{
		tbAppendAddBody( t, in );
	}
	else if ( op < 9 )
	{
		tbAppendBodyCall( t, in );
	}
	else if ( op < 14 )
	{
		tbAppendWorldCall( t, in, depth );
	}
	else if ( op == 14 && depth < 2 )
	{
		tbAppend( t, "for i = 1, %d do ", 1 + tbFuzz_Byte( in ) % 40 );
		tbAppendStatement( t, in, depth + 1 );
		tbAppend( t, " end" );
	}
	else if ( op == 15 && depth == 0 )
	{
		// The attacks of issue 16 (docs/RELIABILITY.md, "The sandbox's limits against any Lua
		// code"): each must end in an error within the budget, never hang the input.
		static const char* const attacks[] = {
			"setmetatable({}, { __gc = function() while true do end end }) collectgarbage()",
			"xpcall(function() while true do end end, function() while true do end end)",
			"coroutine.resume(coroutine.create(function() while true do end end)) while true do pcall(error) end",
			"local _ = string.rep('', 1 << 53) .. ('ab'):rep(1 << 40)",
			"table.move({}, 1, 1 << 50, 1, {})",
			"string.find(string.rep('a', 60), '.-.-.-.-.-.-.-.-.-.-b')",
			"local s = 'return ' .. string.rep('1 + ', 10000) .. '1' while true do load(s) end",
			"for i = 1, 200 do W:on('contact_begin', function() for k = 1, 1e5 do end end) end",
			"W:add_mesh(setmetatable({}, { __index = { vertices = { {0,0,0}, {1,0,0}, {0,1,0} }, triangles = { {1,2,3} } } }))",
			"tb.input.down = function() while true do end end",
		};
		tbAppend( t, "%s", attacks[tbFuzz_Byte( in ) % 10] );
	}
	else
	{
		static const char* const misc[] = { "B = {}",			"B[1] = nil",
											"collectgarbage()", "W:destroy()",
											"error('boom')",	"error(setmetatable({}, {__tostring = error}))",
											"B[#B + 1] = B[1]", "S.counter = (S.counter or 0) + 1" };
		tbAppend( t, "%s", misc[tbFuzz_Byte( in ) % 8] );
	}
	tbAppend( t, " end)\n" );
}

static void tbGenerateScene( tbText* t, tbFuzzInput* in )
{
	uint8_t header = tbFuzz_Byte( in );
	tbAppend( t,
			  "local tb = require 'tumble'\nlocal S = { reload = '%s', world = { gravity = {0, 0, -10}%s } }\n"
			  "B = {}\n",
			  ( header & 1 ) ? "swap" : "rebuild", ( header & 2 ) ? ", solver = 'split'" : "" );
	tbAppend( t, "function S.setup(world)\nW = world\n" );
	if ( header & 4 )
	{
		tbAppend( t, "B[#B + 1] = world:add_box{ size = {20, 20, 1}, pos = {0, 0, -0.5}, static = true }\n" );
	}
	int section = 0;
	while ( tbFuzz_Done( in ) == false && t->length < TB_FL_MAX_SOURCE - 1024 )
	{
		if ( in->data[in->offset] == 0xFF && section < 3 )
		{
			in->offset += 1;
			// Next section: setup -> update -> attach -> keypressed.
			static const char* const next[] = { "end\nfunction S.update(world, dt, t)\nW = world\n",
												"end\nfunction S.attach(world)\nW = world\n",
												"end\nfunction S.keypressed(key)\n" };
			tbAppend( t, "%s", next[section] );
			section += 1;
			continue;
		}
		tbAppendStatement( t, in, 0 );
	}
	tbAppend( t, "end\nreturn S\n" );
}

// Running a scene ------------------------------------------------------------------------------------

static void tbExpectMessage( const tbScene* scene, bool ok, const char* what )
{
	if ( ok == false )
	{
		const char* error = tbScene_GetError( scene );
		TB_FUZZ_CHECK( error != NULL && error[0] != '\0', "%s failed without an error message", what );
	}
}

// The physics budget of a sandboxed scene (runtime/sandbox.h, fuzz finding 19): after every
// successful load, reload or step the world is within it, so no step starts from a world piled
// past it (the host prices what the script built before each step and the step's own pairs after).
static void tbExpectWithinBudget( const tbScene* scene, const char* after )
{
	tbWorldCounters c = tbWorld_GetCounters( tbScene_GetWorld( scene ) );
	TB_FUZZ_EXPECT( "sandbox-physics-cost",
					c.bodyCount <= TB_SANDBOX_MAX_BODIES && c.shapeCount <= TB_SANDBOX_MAX_SHAPES &&
						c.jointCount <= TB_SANDBOX_MAX_JOINTS && c.pairCount <= TB_SANDBOX_MAX_PAIRS,
					"after %s a sandboxed world holds %d bodies, %d shapes, %d joints, %d pairs: past the physics "
					"budget (%d, %d, %d, %d)",
					after, c.bodyCount, c.shapeCount, c.jointCount, c.pairCount, TB_SANDBOX_MAX_BODIES,
					TB_SANDBOX_MAX_SHAPES, TB_SANDBOX_MAX_JOINTS, TB_SANDBOX_MAX_PAIRS );
}

static void tbRun( const char* source, size_t length, bool asMod )
{
	FILE* file = fopen( tb_scenePath, "wb" );
	if ( file == NULL )
	{
		perror( "fuzz_lua: fopen" );
		abort();
	}
	if ( length > 0 && fwrite( source, 1, length, file ) != length )
	{
		perror( "fuzz_lua: fwrite" );
		abort();
	}
	fclose( file );

	tbSceneOptions options = tbDefaultSceneOptions();
	options.sandbox = true;
	options.instructionBudget = TB_FL_BUDGET;
	options.memoryLimit = TB_FL_MEMORY;
	options.libraryDir = tb_hasLibrary ? tb_libraryDir : NULL;
	const char* mods[1] = { tb_scenePath };
	if ( asMod )
	{
		options.mods = mods;
		options.modCount = 1;
	}

	tbScene* scene = tbScene_Create( &options );
	TB_FUZZ_CHECK( scene != NULL, "tbScene_Create failed" );
	bool loaded = tbScene_Load( scene, tb_scenePath );
	tbExpectMessage( scene, loaded, "tbScene_Load" );
	TB_FUZZ_CHECK( loaded == tbScene_IsLoaded( scene ), "tbScene_Load returned %d, tbScene_IsLoaded %d", (int)loaded,
				   (int)tbScene_IsLoaded( scene ) );
	if ( loaded )
	{
		tbExpectWithinBudget( scene, "tbScene_Load" );
		for ( int i = 0; i < 3; ++i )
		{
			bool stepped = tbScene_Step( scene, 1.0f / 60.0f );
			tbExpectMessage( scene, stepped, "tbScene_Step" );
			if ( stepped == false )
			{
				TB_FUZZ_CHECK( tbScene_IsHalted( scene ), "a failed step did not halt the scene" );
				tbScene_Resume( scene );
			}
			else
			{
				tbExpectWithinBudget( scene, "tbScene_Step" );
			}
		}
		tbExpectMessage( scene, tbScene_KeyPressed( scene, "space" ), "tbScene_KeyPressed" );
		tbExpectMessage( scene, tbScene_Finish( scene ), "tbScene_Finish" );
		const char* files[8];
		int fileCount = tbScene_GetFiles( scene, files, 8 );
		TB_FUZZ_CHECK( fileCount >= 1, "a loaded scene watches %d files", fileCount );
		(void)tbScene_GetModError( scene, 0 );

		// The same file again: a rebuild, or a swap that moves the running world to a new state.
		bool reloaded = tbScene_Reload( scene );
		tbExpectMessage( scene, reloaded, "tbScene_Reload" );
		TB_FUZZ_CHECK( tbScene_IsLoaded( scene ), "a reload lost the running scene" );
		tbScene_Resume( scene );
		if ( reloaded )
		{
			tbExpectWithinBudget( scene, "tbScene_Reload" );
		}
		bool stepped = tbScene_Step( scene, 1.0f / 60.0f );
		tbExpectMessage( scene, stepped, "tbScene_Step after reload" );
		if ( stepped )
		{
			tbExpectWithinBudget( scene, "tbScene_Step after reload" );
		}
	}
	tbScene_Destroy( scene );
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	tbFuzz_InstallHandlers();
	bool asMod = size % 4 == 3;
	if ( size > 0 && data[0] == 0 )
	{
		tbFuzzInput in = tbFuzz_MakeInput( data + 1, size - 1 );
		tbText text = { NULL, 0, 0 };
		tbGenerateScene( &text, &in );
		if ( getenv( "TB_FUZZ_PRINT" ) != NULL )
		{
			fputs( text.data != NULL ? text.data : "", stderr );
		}
		tbRun( text.data != NULL ? text.data : "", text.length, asMod );
		free( text.data );
	}
	else
	{
		tbRun( (const char*)data, size, asMod );
	}
	return 0;
}
