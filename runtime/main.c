// Tumble runtime: the command line of the program `tumble`.
// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 200809L

#include "app.h"
#include "tumble_lua.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// Resolved at link time: NULL until runtime/viewer/ provides the viewer.
extern int tbViewer_Run( const tbAppOptions* options ) __attribute__( ( weak ) );
extern int tbViewer_ParseOption( int argc, char** argv, int index ) __attribute__( ( weak ) );
extern void tbViewer_PrintOptions( FILE* out ) __attribute__( ( weak ) );

#define TB_EXIT_USAGE 2
#define TB_MAX_MODS 64

// The text help2man makes the man page from (./build.sh man): a synopsis line, a description, then
// options as "  --name ARG   text" in sections ending in ':'.
static void tbUsage( FILE* out )
{
	fputs( "Usage: tumble [OPTIONS] [SCENE]\n"
		   "\n"
		   "Runs a Tumble physics scene, a Lua script, in a viewer that reloads it when a file it\n"
		   "loaded is saved, or headless with a JSON report. Without SCENE, runs the shipped\n"
		   "showcase.lua; the viewer opens the scene it last had open instead, kept in\n"
		   "$XDG_STATE_HOME/tumble/viewer.state. A SCENE without a directory that is not in the\n"
		   "current directory is looked up among the shipped scenes, with or without .lua\n"
		   "(`tumble ragdoll`).\n"
		   "\n"
		   "Options:\n"
		   "  --headless           run without a window and print a JSON report on stdout\n"
		   "  --steps N            number of steps (default: the scene's `steps` field, else 600;\n"
		   "                       with --watch, stop after N steps instead of running until Ctrl-C)\n"
		   "  --dt S               fixed time step in seconds (default 1/60)\n"
		   "  --threads N          worker threads per world (default 2 in the viewer on a machine of\n"
		   "                       2 cores or more, 1 headless; same results for any N)\n"
		   "  --solver NAME        run every world of the scene in this solver mode (soft, split,\n"
		   "                       baumgarte or global), whatever its settings say\n"
		   "  --report json|none   the report printed at the end of a headless run (default json)\n"
		   "  --all                report every body, not only the named ones\n"
		   "  --watch              headless: keep running in real time and reload on change\n"
		   "  --sandbox            run the scene as untrusted: no io/os/debug/C modules, an\n"
		   "                       instruction budget per script per step and a memory cap\n"
		   "  --mod FILE           load a sandboxed mod script into the scene's world (repeatable)\n"
		   "  --budget N           instructions per script per step for sandboxed code (default\n"
		   "                       20000000)\n"
		   "  --memory MB          memory cap of each script (the scene, each mod) with --sandbox or --mod:\n"
		   "                       its Lua memory and the bodies and joints it made (default 256)\n"
		   "  -h, --help           show this help and exit\n"
		   "  --version            show the version and exit\n",
		   out );
	if ( tbViewer_PrintOptions != NULL )
	{
		fputs( "\nViewer options (without --headless):\n", out );
		tbViewer_PrintOptions( out );
	}
	else
	{
		fputs( "\nThis build has no viewer: without --headless the scene runs headless in real time,\n"
			   "reloading when a file it loaded is saved.\n",
			   out );
	}
	fputs( "\n"
		   "Files:\n"
		   "  Scenes and helper libraries come from $TUMBLE_ROOT/scripts when set, else from the\n"
		   "  checkout the program was built in, else from PREFIX/share/tumble/scenes and\n"
		   "  PREFIX/share/lua/5.4/tumble when the program is PREFIX/bin/tumble. A scene can\n"
		   "  require a helper library as \"NAME\" or \"tumble.NAME\".\n"
		   "\n"
		   "Exit status: 0 success, 1 script error, 2 bad usage.\n"
		   "Scripts print to stderr; stdout carries only the report.\n",
		   out );
}

static int tbUsageError( const char* message, const char* argument )
{
	fprintf( stderr, "tumble: %s%s%s\n", message, argument != NULL ? " " : "", argument != NULL ? argument : "" );
	fprintf( stderr, "Try 'tumble --help'.\n" );
	return TB_EXIT_USAGE;
}

static bool tbParseLong( const char* s, long minimum, long maximum, long* out )
{
	char* end = NULL;
	errno = 0;
	long value = strtol( s, &end, 10 );
	if ( errno != 0 || end == s || *end != '\0' || value < minimum || value > maximum )
	{
		return false;
	}
	*out = value;
	return true;
}

static bool tbIsFile( const char* path )
{
	struct stat st;
	return stat( path, &st ) == 0 && S_ISREG( st.st_mode );
}

static bool tbIsDirectory( const char* path )
{
	struct stat st;
	return stat( path, &st ) == 0 && S_ISDIR( st.st_mode );
}

// Where the shipped scenes and the helper libraries are.
typedef struct tbDataDirs
{
	char scenes[PATH_MAX + 32];
	char library[PATH_MAX + 32];
} tbDataDirs;

// A checkout (or $TUMBLE_ROOT): ROOT/scripts/scenes and ROOT/scripts/lib.
static bool tbCheckoutDirs( const char* root, tbDataDirs* dirs )
{
	snprintf( dirs->scenes, sizeof( dirs->scenes ), "%s/scripts/scenes", root );
	snprintf( dirs->library, sizeof( dirs->library ), "%s/scripts/lib", root );
	return tbIsDirectory( dirs->scenes );
}

// An installed tree (./build.sh install): PREFIX/share/tumble/scenes and PREFIX/share/lua/5.4/tumble,
// the directory plain lua5.4 finds "tumble.NAME" in.
static bool tbInstalledDirs( const char* prefix, tbDataDirs* dirs )
{
	snprintf( dirs->scenes, sizeof( dirs->scenes ), "%s/share/tumble/scenes", prefix );
	snprintf( dirs->library, sizeof( dirs->library ), "%s/share/lua/5.4/tumble", prefix );
	return tbIsDirectory( dirs->scenes );
}

// The first of: $TUMBLE_ROOT, the checkout above build/<config>/tumble, the installed tree above
// PREFIX/bin/tumble, the current directory. Returns false when none has the scenes.
static bool tbFindDataDirs( tbDataDirs* dirs )
{
	const char* env = getenv( "TUMBLE_ROOT" );
	if ( env != NULL && env[0] != '\0' && tbCheckoutDirs( env, dirs ) )
	{
		return true;
	}

	char exe[PATH_MAX];
	ssize_t n = readlink( "/proc/self/exe", exe, sizeof( exe ) - 1 );
	if ( n > 0 )
	{
		exe[n] = '\0';
		// ancestors[i]: the executable's path less i + 1 components (its directory, its parent, ...).
		char ancestors[3][PATH_MAX];
		int count = 0;
		for ( ; count < 3; ++count )
		{
			char* slash = strrchr( exe, '/' );
			if ( slash == NULL || slash == exe )
			{
				break;
			}
			*slash = '\0';
			snprintf( ancestors[count], sizeof( ancestors[count] ), "%s", exe );
		}
		// build/<config>/tumble, or one level less deep.
		if ( ( count > 2 && tbCheckoutDirs( ancestors[2], dirs ) ) ||
			 ( count > 1 && tbCheckoutDirs( ancestors[1], dirs ) ) )
		{
			return true;
		}
		// PREFIX/bin/tumble.
		if ( count > 1 && tbInstalledDirs( ancestors[1], dirs ) )
		{
			return true;
		}
	}

	return tbCheckoutDirs( ".", dirs );
}

// A scene named without a directory that is not in the current directory is looked up among the
// shipped scenes, with or without ".lua": `tumble ragdoll` runs the installed ragdoll.lua.
static const char* tbResolveScene( const char* scene, const tbDataDirs* dirs, bool hasDirs, char* buffer,
								   size_t size )
{
	if ( tbIsFile( scene ) || strchr( scene, '/' ) != NULL || hasDirs == false )
	{
		return scene;
	}
	snprintf( buffer, size, "%s/%s", dirs->scenes, scene );
	if ( tbIsFile( buffer ) )
	{
		return buffer;
	}
	snprintf( buffer, size, "%s/%s.lua", dirs->scenes, scene );
	return tbIsFile( buffer ) ? buffer : scene;
}

int main( int argc, char** argv )
{
	tbAppOptions options;
	memset( &options, 0, sizeof( options ) );
	options.scene = tbDefaultSceneOptions();
	options.dt = 1.0f / 60.0f;
	options.threads = 0; // not given: chosen once the mode is known
	options.steps = -1;
	options.report = true;

	const char* mods[TB_MAX_MODS];
	int modCount = 0;
	bool stepsGiven = false;

	for ( int i = 1; i < argc; ++i )
	{
		const char* arg = argv[i];
		const char* value = i + 1 < argc ? argv[i + 1] : NULL;
		long number = 0;
		if ( strcmp( arg, "--help" ) == 0 || strcmp( arg, "-h" ) == 0 )
		{
			tbUsage( stdout );
			return 0;
		}
		else if ( strcmp( arg, "--version" ) == 0 )
		{
			tbVersion v = tbGetVersion();
			printf( "tumble %d.%d.%d\n", v.major, v.minor, v.revision );
			return 0;
		}
		else if ( strcmp( arg, "--headless" ) == 0 )
		{
			options.headless = true;
		}
		else if ( strcmp( arg, "--watch" ) == 0 )
		{
			options.watch = true;
		}
		else if ( strcmp( arg, "--all" ) == 0 )
		{
			options.all = true;
		}
		else if ( strcmp( arg, "--sandbox" ) == 0 )
		{
			options.scene.sandbox = true;
		}
		else if ( strcmp( arg, "--steps" ) == 0 )
		{
			if ( value == NULL || tbParseLong( value, 0, 1000000000L, &number ) == false )
			{
				return tbUsageError( "--steps needs a step count from 0 to 1000000000, got", value != NULL ? value : "nothing" );
			}
			options.steps = (int)number;
			stepsGiven = true;
			++i;
		}
		else if ( strcmp( arg, "--dt" ) == 0 )
		{
			char* end = NULL;
			double dt = value != NULL ? strtod( value, &end ) : 0.0;
			if ( value == NULL || end == value || *end != '\0' || !( dt > 0.0 && dt <= 1.0 ) )
			{
				return tbUsageError( "--dt needs a time step in seconds in (0, 1], got",
									 value != NULL ? value : "nothing" );
			}
			options.dt = (float)dt;
			++i;
		}
		else if ( strcmp( arg, "--report" ) == 0 )
		{
			if ( value == NULL || ( strcmp( value, "json" ) != 0 && strcmp( value, "none" ) != 0 ) )
			{
				return tbUsageError( "--report needs 'json' or 'none', got", value != NULL ? value : "nothing" );
			}
			options.report = strcmp( value, "json" ) == 0;
			++i;
		}
		else if ( strcmp( arg, "--mod" ) == 0 )
		{
			if ( value == NULL )
			{
				return tbUsageError( "--mod needs a file", NULL );
			}
			if ( modCount == TB_MAX_MODS )
			{
				return tbUsageError( "too many --mod options", NULL );
			}
			if ( tbIsFile( value ) == false )
			{
				return tbUsageError( "mod file not found:", value );
			}
			mods[modCount++] = value;
			++i;
		}
		else if ( strcmp( arg, "--solver" ) == 0 )
		{
			if ( value == NULL || tbLua_SetForcedSolver( value ) == false )
			{
				return tbUsageError( "--solver needs soft, split, baumgarte or global, got", value != NULL ? value : "nothing" );
			}
			++i;
		}
		else if ( strcmp( arg, "--threads" ) == 0 )
		{
			if ( value == NULL || tbParseLong( value, 1, TB_MAX_WORKER_COUNT, &number ) == false )
			{
				return tbUsageError( "--threads needs a thread count in [1, 16], got", value != NULL ? value : "nothing" );
			}
			options.threads = (int)number;
			++i;
		}
		else if ( strcmp( arg, "--budget" ) == 0 )
		{
			if ( value == NULL || tbParseLong( value, 1000, 1000000000000L, &number ) == false )
			{
				return tbUsageError( "--budget needs an instruction count from 1000 to 1000000000000, got",
									 value != NULL ? value : "nothing" );
			}
			options.scene.instructionBudget = number;
			++i;
		}
		else if ( strcmp( arg, "--memory" ) == 0 )
		{
			if ( value == NULL || tbParseLong( value, 1, 1L << 20, &number ) == false )
			{
				return tbUsageError( "--memory needs a size in MiB from 1 to 1048576, got", value != NULL ? value : "nothing" );
			}
			options.scene.memoryLimit = (size_t)number << 20;
			++i;
		}
		else if ( arg[0] == '-' && arg[1] != '\0' )
		{
			// The viewer's own options (--screenshot, --debug-draw, ...): see runtime/viewer/viewer.h.
			int used = tbViewer_ParseOption != NULL ? tbViewer_ParseOption( argc, argv, i ) : 0;
			if ( used < 0 )
			{
				return TB_EXIT_USAGE;
			}
			if ( used == 0 )
			{
				return tbUsageError( "unknown option", arg );
			}
			i += used - 1;
		}
		else if ( options.scenePath != NULL )
		{
			return tbUsageError( "only one scene can be given; also got", arg );
		}
		else
		{
			options.scenePath = arg;
		}
	}

	tbDataDirs dirs;
	bool hasDirs = tbFindDataDirs( &dirs );
	if ( hasDirs )
	{
		options.scene.libraryDir = dirs.library;
		options.scenesDir = dirs.scenes;
	}

	char scenePath[PATH_MAX + 64];
	if ( options.scenePath == NULL )
	{
		if ( hasDirs == false )
		{
			return tbUsageError( "no scene given and the shipped scenes were not found (set TUMBLE_ROOT)", NULL );
		}
		snprintf( scenePath, sizeof( scenePath ), "%s/showcase.lua", dirs.scenes );
		options.scenePath = scenePath;
		options.sceneDefault = true;
	}
	else
	{
		options.scenePath = tbResolveScene( options.scenePath, &dirs, hasDirs, scenePath, sizeof( scenePath ) );
	}
	if ( tbIsFile( options.scenePath ) == false )
	{
		return tbUsageError( "scene file not found:", options.scenePath );
	}
	if ( stepsGiven == false && options.watch )
	{
		options.steps = -1;
	}

	options.scene.mods = mods;
	options.scene.modCount = modCount;
	if ( options.threads == 0 )
	{
		// The viewer steps between frames, on the frame's time: 2 workers where there are 2 cores
		// (docs/ARCHITECTURE.md, "Threads"). Headless runs are batch jobs, often several at once.
		long cores = sysconf( _SC_NPROCESSORS_ONLN );
		bool viewer = options.headless == false && tbViewer_Run != NULL;
		options.threads = viewer && cores >= 2 ? 2 : 1;
	}
	tbLua_SetDefaultWorkerCount( options.threads );

	if ( options.headless )
	{
		return tbHeadless_Run( &options );
	}
	if ( tbViewer_Run != NULL )
	{
		return tbViewer_Run( &options );
	}
	// No viewer in this build: the same scene, headless, in real time, reloading on save.
	options.live = true;
	options.report = false;
	return tbHeadless_Run( &options );
}
