// Tumble benchmark: runs the SCENES.md scenes in Tumble, ODE and Bullet in one process and prints
// one key=value line per run, a summary table with Tumble's time ratios, and optionally CSV.
// It is a benchmark, not a test: it never asserts a time.
// SPDX-License-Identifier: MIT
#define _GNU_SOURCE // clock_gettime, malloc_trim
#include "bench.h"

#include "tumble/base.h"
#include "tumble/types.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#if defined( __GLIBC__ )
#include <malloc.h>
#endif

#define TB_BENCH_MAX_SCENES 32
#define TB_BENCH_MAX_ENGINES 3
/// Steps before this index are warm-up: the median covers [TB_BENCH_TIMING_START, steps).
#define TB_BENCH_TIMING_START 100

typedef struct tbBenchOptions
{
	const char* scenes[TB_BENCH_MAX_SCENES];
	int sceneCount;
	const tbBenchEngine* engines[TB_BENCH_MAX_ENGINES];
	int engineCount;
	int steps;		///< 0: each scene's own count
	int iterations; ///< 0: TB_BENCH_DEFAULT_ITERATIONS
	int threads;
	int subSteps; ///< 0: Tumble's default
	float jointHertz; ///< 0: Tumble's default
	int solverMode;   ///< tbSolverMode + 1, 0: Tumble's default
	int globalMethod; ///< tbGlobalMethod + 1, 0: Tumble's default
	/// Measure every step's deepest contact (run_max_contact_pen). It computes each contact's
	/// separation again, outside the timed region but inside a profile of the whole program.
	bool runMaxPenetration;
	const char* csvPath;
} tbBenchOptions;

/// One finished (or skipped) run.
typedef struct tbBenchRun
{
	tbBenchFields fields;
	char scene[32];
	const char* engine;
	bool skipped;
	double medianMs;
	double peakRssMb;
} tbBenchRun;

static const tbBenchEngine* tbBench_FindEngine( const char* name )
{
#ifndef TB_BENCH_NO_TUMBLE
	if ( strcmp( name, "tumble" ) == 0 )
	{
		return tbBench_GetTumbleEngine();
	}
#endif
	if ( strcmp( name, "ode" ) == 0 )
	{
		return tbBench_GetOdeEngine();
	}
	if ( strcmp( name, "bullet" ) == 0 )
	{
		return tbBench_GetBulletEngine();
	}
	return NULL;
}

static double tbBench_Now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1.0e-9 * (double)ts.tv_nsec;
}

// Memory ------------------------------------------------------------------------------------------
// All engines run in one process, so the process peak (VmHWM, ru_maxrss) is cumulative. Each run
// is attributed its own peak: before the run the heap is trimmed (malloc_trim returns freed memory
// of earlier runs to the system), the kernel's peak is reset to the current RSS (writing 5 to
// /proc/self/clear_refs), and the run's figure is VmHWM after the run minus VmRSS before it: the
// memory the engine's world needed at its peak, including its one-off setup. Without clear_refs
// the growth of ru_maxrss is used, which is exact only for a run that sets a new process peak.

static long tbBench_ReadStatusKb( const char* key )
{
	FILE* file = fopen( "/proc/self/status", "r" );
	if ( file == NULL )
	{
		return -1;
	}
	char line[256];
	long value = -1;
	size_t keyLength = strlen( key );
	while ( fgets( line, sizeof( line ), file ) != NULL )
	{
		if ( strncmp( line, key, keyLength ) == 0 && line[keyLength] == ':' )
		{
			value = strtol( line + keyLength + 1, NULL, 10 );
			break;
		}
	}
	fclose( file );
	return value;
}

static bool tbBench_ResetPeakRss( void )
{
	FILE* file = fopen( "/proc/self/clear_refs", "w" );
	if ( file == NULL )
	{
		return false;
	}
	bool ok = fputs( "5", file ) >= 0;
	ok = fclose( file ) == 0 && ok;
	return ok;
}

static long tbBench_MaxRssKb( void )
{
	struct rusage usage;
	getrusage( RUSAGE_SELF, &usage );
	return usage.ru_maxrss;
}

typedef struct tbBenchMemory
{
	bool peakReset;
	long baseKb;
} tbBenchMemory;

static tbBenchMemory tbBench_BeginMemory( void )
{
	tbBenchMemory memory;
#if defined( __GLIBC__ )
	malloc_trim( 0 );
#endif
	memory.peakReset = tbBench_ResetPeakRss();
	memory.baseKb = memory.peakReset ? tbBench_ReadStatusKb( "VmRSS" ) : tbBench_MaxRssKb();
	return memory;
}

static double tbBench_EndMemoryMb( const tbBenchMemory* memory )
{
	long peakKb = memory->peakReset ? tbBench_ReadStatusKb( "VmHWM" ) : tbBench_MaxRssKb();
	long growthKb = peakKb - memory->baseKb;
	return growthKb > 0 ? (double)growthKb / 1024.0 : 0.0;
}

// Running one scene in one engine -------------------------------------------------------------------

static int tbBench_CompareDouble( const void* a, const void* b )
{
	double x = *(const double*)a;
	double y = *(const double*)b;
	return ( x > y ) - ( x < y );
}

static double tbBench_Median( double* values, int count )
{
	if ( count <= 0 )
	{
		return 0.0;
	}
	qsort( values, (size_t)count, sizeof( double ), tbBench_CompareDouble );
	return ( count % 2 == 1 ) ? values[count / 2] : 0.5 * ( values[count / 2 - 1] + values[count / 2] );
}

static void tbBench_AddHeader( tbBenchFields* fields, const char* engine, const tbBenchScene* scene, int steps )
{
	fields->count = 0;
	tbBench_AddField( fields, "engine", "%s", engine );
	tbBench_AddField( fields, "scene", "%s", scene->name );
	tbBench_AddField( fields, "bodies", "%d", scene->bodyCount );
	tbBench_AddField( fields, "statics", "%d", scene->staticCount );
	tbBench_AddField( fields, "joints", "%d", scene->jointCount );
	tbBench_AddField( fields, "steps", "%d", steps );
}

static void tbBench_PrintLine( FILE* file, const tbBenchFields* fields )
{
	for ( int i = 0; i < fields->count; ++i )
	{
		fprintf( file, "%s%s=%s", i > 0 ? " " : "", fields->items[i].key, fields->items[i].value );
	}
	fputc( '\n', file );
	fflush( file );
}

static void tbBench_ReadPoses( const tbBenchEngine* engine, void* handle, int count, tbVec3* positions,
							   tbQuat* rotations )
{
	for ( int i = 0; i < count; ++i )
	{
		engine->getPose( handle, i, positions + i, rotations + i );
	}
}

static void tbBench_Run( tbBenchRun* run, const tbBenchEngine* engine, const tbBenchScene* scene,
						 const tbBenchOptions* options, int runIndex, int runCount )
{
	int steps = options->steps > 0 ? options->steps : scene->steps;
	tbBenchSettings settings;
	settings.iterations = options->iterations > 0 ? options->iterations : TB_BENCH_DEFAULT_ITERATIONS;
	settings.iterationsSet = options->iterations > 0;
	settings.threads = options->threads;
	settings.subSteps = options->subSteps;
	settings.jointHertz = options->jointHertz;
	settings.solverMode = options->solverMode;
	settings.globalMethod = options->globalMethod;

	memset( run, 0, sizeof( *run ) );
	snprintf( run->scene, sizeof( run->scene ), "%s", scene->name );
	run->engine = engine->name;
	tbBenchFields* fields = &run->fields;
	tbBench_AddHeader( fields, engine->name, scene, steps );

	fprintf( stderr, "bench: [%d/%d] %s %s, %d steps ... ", runIndex + 1, runCount, engine->name, scene->name, steps );
	fflush( stderr );

	tbBenchMemory memory = tbBench_BeginMemory();
	const char* skipReason = NULL;
	void* handle = engine->create( scene, &settings, &skipReason );
	if ( handle == NULL )
	{
		run->skipped = true;
		tbBench_AddField( fields, "skipped", "%s", skipReason != NULL ? skipReason : "create_failed" );
		fprintf( stderr, "skipped (%s)\n", skipReason != NULL ? skipReason : "create failed" );
		return;
	}

	int bodyCount = scene->bodyCount > 0 ? scene->bodyCount : 1;
	double* times = malloc( (size_t)( steps > 0 ? steps : 1 ) * sizeof( double ) );
	tbVec3* positions = calloc( (size_t)bodyCount, sizeof( tbVec3 ) );
	tbQuat* rotations = calloc( (size_t)bodyCount, sizeof( tbQuat ) );
	if ( times == NULL || positions == NULL || rotations == NULL )
	{
		fprintf( stderr, "bench: out of memory\n" );
		exit( 1 );
	}
	tbBenchTrackNeed need = tbBench_GetTrackNeed( scene );
	tbBenchTracker tracker;
	tbBench_InitTracker( &tracker );
	// The deepest contact over every step (outside the timed region): a pile's worst overlap is
	// while it forms, not at the end.
	const bool collision = tbBench_SceneHasCollision( scene );
	const bool trackPenetration = collision && options->runMaxPenetration;
	float runMaxPenetration = 0.0f;

	for ( int step = 0; step < steps; ++step )
	{
		double start = tbBench_Now();
		engine->step( handle );
		times[step] = 1000.0 * ( tbBench_Now() - start );

		// Poses for per-step metrics are read outside the timed region, only as far as needed.
		if ( need == tbBenchTrack_topBody )
		{
			engine->getPose( handle, scene->topBody, positions + scene->topBody, rotations + scene->topBody );
		}
		else if ( need == tbBenchTrack_all )
		{
			tbBench_ReadPoses( engine, handle, scene->bodyCount, positions, rotations );
		}
		if ( need != tbBenchTrack_none )
		{
			tbBench_TrackStep( &tracker, scene, step, positions, rotations );
		}
		if ( trackPenetration )
		{
			runMaxPenetration = fmaxf( runMaxPenetration, engine->maxContactPenetration( handle ) );
		}
	}

	double totalMs = 0.0;
	double maxMs = 0.0;
	for ( int step = 0; step < steps; ++step )
	{
		totalMs += times[step];
		maxMs = times[step] > maxMs ? times[step] : maxMs;
	}
	// Short runs (--steps <= 100) have no steps past the warm-up: their median covers every step.
	int timingStart = steps > TB_BENCH_TIMING_START ? TB_BENCH_TIMING_START : 0;
	double medianMs = tbBench_Median( times + timingStart, steps - timingStart );
	double meanMs = steps > 0 ? totalMs / steps : 0.0;

	tbBench_ReadPoses( engine, handle, scene->bodyCount, positions, rotations );
	tbBench_AddField( fields, "iters", "%d", engine->getIterations( handle ) );
	tbBench_AddField( fields, "timing_steps", "%d-%d", timingStart, steps );
	tbBench_AddField( fields, "ms_per_step_median", "%.4f", medianMs );
	tbBench_AddField( fields, "ms_per_step_mean", "%.4f", meanMs );
	tbBench_AddField( fields, "ms_per_step_max", "%.4f", maxMs );
	tbBench_AddField( fields, "total_s", "%.3f", totalMs / 1000.0 );
	tbBench_AddMetrics( fields, scene, &tracker, positions, rotations );
	if ( collision )
	{
		tbBench_AddField( fields, "max_contact_pen", "%.5f", engine->maxContactPenetration( handle ) );
		if ( trackPenetration )
		{
			tbBench_AddField( fields, "run_max_contact_pen", "%.5f", runMaxPenetration );
		}
		else
		{
			tbBench_AddField( fields, "run_max_contact_pen", "na" );
		}
	}
	else
	{
		tbBench_AddField( fields, "max_contact_pen", "na" );
		tbBench_AddField( fields, "run_max_contact_pen", "na" );
	}
	engine->addFields( handle, scene, fields );
	run->peakRssMb = tbBench_EndMemoryMb( &memory );
	tbBench_AddField( fields, "peak_rss_mb", "%.1f", run->peakRssMb );
	run->medianMs = medianMs;

	engine->destroy( handle );
	free( times );
	free( positions );
	free( rotations );
	fprintf( stderr, "%.4f ms/step median, %.1f s\n", medianMs, totalMs / 1000.0 );
}

// Output -------------------------------------------------------------------------------------------

static const tbBenchRun* tbBench_FindRun( const tbBenchRun* runs, int runCount, const char* scene, const char* engine )
{
	for ( int i = 0; i < runCount; ++i )
	{
		if ( strcmp( runs[i].scene, scene ) == 0 && strcmp( runs[i].engine, engine ) == 0 )
		{
			return runs + i;
		}
	}
	return NULL;
}

static void tbBench_FormatMs( char* buffer, size_t size, const tbBenchRun* run )
{
	if ( run == NULL )
	{
		snprintf( buffer, size, "-" );
	}
	else if ( run->skipped )
	{
		snprintf( buffer, size, "skipped" );
	}
	else
	{
		snprintf( buffer, size, "%.4f", run->medianMs );
	}
}

static void tbBench_FormatRatio( char* buffer, size_t size, const tbBenchRun* tumble, const tbBenchRun* peer )
{
	if ( tumble == NULL || peer == NULL || tumble->skipped || peer->skipped || peer->medianMs <= 0.0 )
	{
		snprintf( buffer, size, "-" );
	}
	else
	{
		snprintf( buffer, size, "%.2f", tumble->medianMs / peer->medianMs );
	}
}

static void tbBench_FormatRss( char* buffer, size_t size, const tbBenchRun* run )
{
	if ( run == NULL || run->skipped )
	{
		snprintf( buffer, size, "-" );
	}
	else
	{
		snprintf( buffer, size, "%.1f", run->peakRssMb );
	}
}

static void tbBench_PrintSummary( const tbBenchRun* runs, int runCount, const tbBenchOptions* options )
{
	printf( "\nsummary: ms/step median over each run's timing_steps; ratio = tumble / peer (below 1: tumble "
			"faster); rss = peak RSS growth of the run, MB\n" );
	printf( "%-12s %10s %10s %10s %11s %14s %10s %10s %10s\n", "scene", "tumble", "ode", "bullet", "tumble/ode",
			"tumble/bullet", "rss_tumble", "rss_ode", "rss_bullet" );
	for ( int s = 0; s < options->sceneCount; ++s )
	{
		const char* scene = options->scenes[s];
		const tbBenchRun* tumble = tbBench_FindRun( runs, runCount, scene, "tumble" );
		const tbBenchRun* ode = tbBench_FindRun( runs, runCount, scene, "ode" );
		const tbBenchRun* bullet = tbBench_FindRun( runs, runCount, scene, "bullet" );
		char t[16], o[16], b[16], ro[16], rb[16], mt[16], mo[16], mb[16];
		tbBench_FormatMs( t, sizeof( t ), tumble );
		tbBench_FormatMs( o, sizeof( o ), ode );
		tbBench_FormatMs( b, sizeof( b ), bullet );
		tbBench_FormatRatio( ro, sizeof( ro ), tumble, ode );
		tbBench_FormatRatio( rb, sizeof( rb ), tumble, bullet );
		tbBench_FormatRss( mt, sizeof( mt ), tumble );
		tbBench_FormatRss( mo, sizeof( mo ), ode );
		tbBench_FormatRss( mb, sizeof( mb ), bullet );
		printf( "%-12s %10s %10s %10s %11s %14s %10s %10s %10s\n", scene, t, o, b, ro, rb, mt, mo, mb );
	}
	fflush( stdout );
}

// CSV columns are the union of every run's keys in first-seen order; a run without a key leaves
// its cell empty. No value contains a comma.
static bool tbBench_WriteCsv( const char* path, const tbBenchRun* runs, int runCount )
{
	FILE* file = fopen( path, "w" );
	if ( file == NULL )
	{
		fprintf( stderr, "bench: cannot write %s: %s\n", path, strerror( errno ) );
		return false;
	}
	enum
	{
		maxColumns = 256
	};
	const char* columns[maxColumns];
	int columnCount = 0;
	for ( int r = 0; r < runCount; ++r )
	{
		for ( int i = 0; i < runs[r].fields.count; ++i )
		{
			const char* key = runs[r].fields.items[i].key;
			bool found = false;
			for ( int c = 0; c < columnCount && !found; ++c )
			{
				found = strcmp( columns[c], key ) == 0;
			}
			if ( !found && columnCount < maxColumns )
			{
				columns[columnCount++] = key;
			}
		}
	}
	for ( int c = 0; c < columnCount; ++c )
	{
		fprintf( file, "%s%s", c > 0 ? "," : "", columns[c] );
	}
	fputc( '\n', file );
	for ( int r = 0; r < runCount; ++r )
	{
		for ( int c = 0; c < columnCount; ++c )
		{
			const char* value = tbBench_FindField( &runs[r].fields, columns[c] );
			fprintf( file, "%s%s", c > 0 ? "," : "", value != NULL ? value : "" );
		}
		fputc( '\n', file );
	}
	return fclose( file ) == 0;
}

// Command line ---------------------------------------------------------------------------------------

static void tbBench_Usage( FILE* file )
{
	int count = 0;
	const tbBenchSceneEntry* table = tbBench_GetSceneTable( &count );
	fprintf( file, "usage: tumble_bench [options] [SCENE ...] [steps=N] [iters=N]\n"
				   "  --scene NAME[,NAME]   scene to run (repeatable; default: all named scenes)\n"
				   "  --engine NAME         tumble, ode or bullet (repeatable; default: all)\n"
				   "  --steps N             steps per scene (default: the scene's own)\n"
				   "  --iters N             solver iterations (default 10; Tumble keeps its own unless given)\n"
				   "  --threads N           worker threads (Tumble only)\n"
				   "  --substeps N          Tumble soft-mode sub-steps per step (default: Tumble's own)\n"
				   "  --joint-hertz HZ      Tumble soft joint stiffness (default: Tumble's own)\n"
				   "  --solver MODE         Tumble's solver: soft, split, baumgarte, global (Gauss-Seidel),\n"
				   "                        global-jacobi or global-iterative (no direct solve of joint\n"
				   "                        trees) (default: Tumble's own)\n"
				   "  --simd LEVEL          Tumble's wide joint path: auto, none, sse2 or avx2 (default auto)\n"
				   "  --run-max-pen on|off  measure the deepest contact of every step (default on; off for\n"
				   "                        instruction counts of the steps alone)\n"
				   "  --csv FILE            also write every run as a CSV row\n"
				   "scenes:" );
	for ( int i = 0; i < count; ++i )
	{
		fprintf( file, " %s", table[i].name );
	}
	fprintf( file, "\n  families for scaling: pyramidN, stackN, chainsN\n" );
}

// --solver: a Tumble solver mode; "global-jacobi" and "global-iterative" pick the global mode's
// Jacobi sweeps or its sweeps without the direct solve of joint trees.
static bool tbBench_ParseSolver( const char* value, tbBenchOptions* options )
{
	static const char* names[] = { "baumgarte", "split", "soft", "global" };
	if ( value == NULL )
	{
		return false;
	}
	if ( strcmp( value, "global-jacobi" ) == 0 )
	{
		options->solverMode = tbSolver_global + 1;
		options->globalMethod = tbGlobal_jacobi + 1;
		return true;
	}
	if ( strcmp( value, "global-iterative" ) == 0 )
	{
		options->solverMode = tbSolver_global + 1;
		options->globalMethod = -1;
		return true;
	}
	for ( int i = 0; i < 4; ++i )
	{
		if ( strcmp( value, names[i] ) == 0 )
		{
			options->solverMode = i + 1;
			return true;
		}
	}
	return false;
}

static bool tbBench_ParseHertz( const char* text, float* value )
{
	char* end = NULL;
	double parsed = strtod( text, &end );
	if ( end == text || *end != '\0' || !( parsed > 0.0 && parsed <= 1.0e4 ) )
	{
		fprintf( stderr, "bench: expected a stiffness in Hz above 0 and at most 10000, got '%s'\n", text );
		return false;
	}
	*value = (float)parsed;
	return true;
}

static bool tbBench_ParseSimd( const char* text )
{
	static const char* names[] = { "auto", "none", "sse2", "avx2" };
	static const tbSimdLevel levels[] = { tbSimd_auto, tbSimd_none, tbSimd_sse2, tbSimd_avx2 };
	for ( int i = 0; i < 4; ++i )
	{
		if ( strcmp( text, names[i] ) == 0 )
		{
			tbSimdLevel used = tbSetSimdLevel( levels[i] );
			if ( levels[i] == tbSimd_avx2 && used != tbSimd_avx2 )
			{
				fprintf( stderr, "bench: this CPU has no AVX2 and FMA; the joints run on SSE2\n" );
			}
			return true;
		}
	}
	fprintf( stderr, "bench: expected --simd auto, none, sse2 or avx2, got '%s'\n", text );
	return false;
}

static bool tbBench_ParseInt( const char* text, int* value )
{
	char* end = NULL;
	long parsed = strtol( text, &end, 10 );
	if ( end == text || *end != '\0' || parsed <= 0 || parsed > 100000000 )
	{
		fprintf( stderr, "bench: expected a positive integer, got '%s'\n", text );
		return false;
	}
	*value = (int)parsed;
	return true;
}

// Split a comma list in place into the scene list.
static bool tbBench_AddScenes( tbBenchOptions* options, char* list )
{
	for ( char* name = strtok( list, "," ); name != NULL; name = strtok( NULL, "," ) )
	{
		if ( options->sceneCount >= TB_BENCH_MAX_SCENES )
		{
			fprintf( stderr, "bench: too many scenes\n" );
			return false;
		}
		options->scenes[options->sceneCount++] = name;
	}
	return true;
}

static bool tbBench_AddEngines( tbBenchOptions* options, char* list )
{
	for ( char* name = strtok( list, "," ); name != NULL; name = strtok( NULL, "," ) )
	{
		const tbBenchEngine* engine = tbBench_FindEngine( name );
		if ( engine == NULL && strcmp( name, "tumble" ) == 0 )
		{
			fprintf( stderr, "bench: this build has no Tumble engine (built with TB_BENCH_NO_TUMBLE)\n" );
			return false;
		}
		if ( engine == NULL )
		{
			fprintf( stderr, "bench: unknown engine '%s' (tumble, ode, bullet)\n", name );
			return false;
		}
		bool duplicate = false;
		for ( int i = 0; i < options->engineCount; ++i )
		{
			duplicate = duplicate || options->engines[i] == engine;
		}
		if ( !duplicate && options->engineCount < TB_BENCH_MAX_ENGINES )
		{
			options->engines[options->engineCount++] = engine;
		}
	}
	return true;
}

static bool tbBench_ParseOptions( tbBenchOptions* options, int argc, char** argv )
{
	memset( options, 0, sizeof( *options ) );
	options->threads = 1;
	options->runMaxPenetration = true;
	for ( int i = 1; i < argc; ++i )
	{
		char* arg = argv[i];
		// --name VALUE or --name=VALUE
		char* value = NULL;
		if ( strncmp( arg, "--", 2 ) == 0 )
		{
			char* equals = strchr( arg, '=' );
			if ( equals != NULL )
			{
				*equals = '\0';
				value = equals + 1;
			}
			else if ( strcmp( arg, "--help" ) != 0 && i + 1 < argc )
			{
				value = argv[++i];
			}
		}
		bool ok = true;
		if ( strcmp( arg, "--help" ) == 0 || strcmp( arg, "-h" ) == 0 )
		{
			tbBench_Usage( stdout );
			exit( 0 );
		}
		else if ( strncmp( arg, "--", 2 ) == 0 && value == NULL )
		{
			fprintf( stderr, "bench: %s needs a value\n", arg );
			ok = false;
		}
		else if ( strcmp( arg, "--scene" ) == 0 )
		{
			ok = tbBench_AddScenes( options, value );
		}
		else if ( strcmp( arg, "--engine" ) == 0 )
		{
			ok = tbBench_AddEngines( options, value );
		}
		else if ( strcmp( arg, "--steps" ) == 0 )
		{
			ok = tbBench_ParseInt( value, &options->steps );
		}
		else if ( strcmp( arg, "--iters" ) == 0 )
		{
			ok = tbBench_ParseInt( value, &options->iterations );
		}
		else if ( strcmp( arg, "--threads" ) == 0 )
		{
			ok = tbBench_ParseInt( value, &options->threads );
		}
		else if ( strcmp( arg, "--substeps" ) == 0 )
		{
			ok = tbBench_ParseInt( value, &options->subSteps ) && options->subSteps <= 64;
		}
		else if ( strcmp( arg, "--solver" ) == 0 )
		{
			ok = tbBench_ParseSolver( value, options );
		}
		else if ( strcmp( arg, "--joint-hertz" ) == 0 )
		{
			ok = tbBench_ParseHertz( value, &options->jointHertz );
		}
		else if ( strcmp( arg, "--simd" ) == 0 )
		{
			ok = tbBench_ParseSimd( value );
		}
		else if ( strcmp( arg, "--run-max-pen" ) == 0 )
		{
			ok = strcmp( value, "on" ) == 0 || strcmp( value, "off" ) == 0;
			options->runMaxPenetration = strcmp( value, "on" ) == 0;
		}
		else if ( strcmp( arg, "--csv" ) == 0 )
		{
			options->csvPath = value;
		}
		else if ( strncmp( arg, "steps=", 6 ) == 0 )
		{
			ok = tbBench_ParseInt( arg + 6, &options->steps );
		}
		else if ( strncmp( arg, "iters=", 6 ) == 0 )
		{
			ok = tbBench_ParseInt( arg + 6, &options->iterations );
		}
		else if ( arg[0] != '-' )
		{
			ok = tbBench_AddScenes( options, arg );
		}
		else
		{
			fprintf( stderr, "bench: unknown option '%s'\n", arg );
			ok = false;
		}
		if ( !ok )
		{
			tbBench_Usage( stderr );
			return false;
		}
	}
	if ( options->sceneCount == 0 )
	{
		int count = 0;
		const tbBenchSceneEntry* table = tbBench_GetSceneTable( &count );
		for ( int i = 0; i < count && i < TB_BENCH_MAX_SCENES; ++i )
		{
			options->scenes[options->sceneCount++] = table[i].name;
		}
	}
	if ( options->engineCount == 0 )
	{
		static const char* defaults[] = { "tumble", "ode", "bullet" };
		for ( int i = 0; i < 3; ++i )
		{
			const tbBenchEngine* engine = tbBench_FindEngine( defaults[i] );
			if ( engine != NULL )
			{
				options->engines[options->engineCount++] = engine;
			}
		}
	}
	return true;
}

int main( int argc, char** argv )
{
	tbBenchOptions options;
	if ( !tbBench_ParseOptions( &options, argc, argv ) )
	{
		return 2;
	}
	for ( int s = 0; s < options.sceneCount; ++s )
	{
		tbBenchScene probe;
		if ( !tbBench_BuildScene( &probe, options.scenes[s] ) )
		{
			fprintf( stderr, "bench: unknown scene '%s'\n", options.scenes[s] );
			tbBench_Usage( stderr );
			return 2;
		}
		tbBench_DestroyScene( &probe );
	}

	int runCount = options.sceneCount * options.engineCount;
	tbBenchRun* runs = calloc( (size_t)runCount, sizeof( tbBenchRun ) );
	if ( runs == NULL )
	{
		fprintf( stderr, "bench: out of memory\n" );
		return 1;
	}
	int runIndex = 0;
	for ( int s = 0; s < options.sceneCount; ++s )
	{
		tbBenchScene scene;
		tbBench_BuildScene( &scene, options.scenes[s] );
		for ( int e = 0; e < options.engineCount; ++e )
		{
			tbBenchRun* run = runs + runIndex;
			tbBench_Run( run, options.engines[e], &scene, &options, runIndex, runCount );
			tbBench_PrintLine( stdout, &run->fields );
			runIndex += 1;
		}
		tbBench_DestroyScene( &scene );
	}

	tbBench_PrintSummary( runs, runCount, &options );
	int status = 0;
	if ( options.csvPath != NULL && !tbBench_WriteCsv( options.csvPath, runs, runCount ) )
	{
		status = 1;
	}
	free( runs );
	return status;
}
