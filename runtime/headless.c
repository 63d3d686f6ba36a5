// Tumble runtime: the headless runner. Batch mode steps a scene N times and prints one JSON
// report on stdout; live/watch mode runs in real time, reloads on save, and prints a summary line.
// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 200809L

#include "app.h"
#include "joint_error.h"
#include "json.h"
#include "watch.h"

#include "tumble/tumble.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TB_DEFAULT_HEADLESS_STEPS 600
#define TB_MAX_WATCHED_FILES 256

static volatile sig_atomic_t s_interrupted = 0;

// Ctrl-C in live mode: the first stops the loop cleanly (report, cleanup); a second one, for a
// script stuck in a loop, terminates the program.
static void tbOnSignal( int signal )
{
	if ( s_interrupted != 0 )
	{
		struct sigaction action;
		memset( &action, 0, sizeof( action ) );
		action.sa_handler = SIG_DFL;
		sigaction( signal, &action, NULL );
		raise( signal );
		return;
	}
	s_interrupted = 1;
}

static double tbNowSeconds( void )
{
	struct timespec t;
	clock_gettime( CLOCK_MONOTONIC, &t );
	return (double)t.tv_sec + 1.0e-9 * (double)t.tv_nsec;
}

static void tbSleepSeconds( double seconds )
{
	if ( seconds <= 0.0 )
	{
		return;
	}
	struct timespec t;
	t.tv_sec = (time_t)seconds;
	t.tv_nsec = (long)( ( seconds - (double)t.tv_sec ) * 1.0e9 );
	while ( nanosleep( &t, &t ) != 0 && errno == EINTR && s_interrupted == 0 )
	{
	}
}

static int tbCompareFloats( const void* a, const void* b )
{
	float x = *(const float*)a;
	float y = *(const float*)b;
	return ( x > y ) - ( x < y );
}

// Timing and contact figures gathered while stepping.
typedef struct tbRunStats
{
	float* stepMs; ///< per step: the core's own step time, or wall time if the core reports none
	int count;
	int capacity;
	float maxPenetration;
} tbRunStats;

static void tbRecordStep( tbRunStats* stats, tbWorldId world, double wallMs )
{
	tbWorldCounters c = tbWorld_GetCounters( world );
	float ms = c.stepMs > 0.0f ? c.stepMs : (float)wallMs;
	if ( stats->count == stats->capacity )
	{
		int capacity = stats->capacity > 0 ? 2 * stats->capacity : 1024;
		float* grown = realloc( stats->stepMs, (size_t)capacity * sizeof( float ) );
		if ( grown == NULL )
		{
			return;
		}
		stats->stepMs = grown;
		stats->capacity = capacity;
	}
	stats->stepMs[stats->count++] = ms;
	if ( c.maxPenetration > stats->maxPenetration )
	{
		stats->maxPenetration = c.maxPenetration;
	}
}

// Soak statistics (TB_SOAK_STATS=N in the environment): the figures a long run is judged by
// (docs/RELIABILITY.md "Soak"). Energy and finiteness are checked every step, the rest (memory,
// joint errors) sampled every N steps into the report's "soak" object.
typedef struct tbSoakSample
{
	long long step;
	float kinetic;		  ///< J, dynamic bodies: translation about the centre of mass plus rotation
	float potential;	  ///< J, -m g . c over dynamic bodies (zero at the origin's level)
	long rssKb;			  ///< resident set of the process, KiB
	long allocations;	  ///< the physics library's allocation counter (cumulative)
	float jointPosError;  ///< largest position error of an intact joint, m
	float jointAngleError; ///< largest angular error of an intact joint, rad
	int brokenJoints;
	int bodies;
	int fallen; ///< dynamic bodies below TB_SOAK_FLOOR
} tbSoakSample;

// A body whose centre of mass is below this height has left the ground of the shipped scenes
// (their ground tops are at z = 0, so a body resting on one has its centre above 0) and falls for
// ever: its kinetic energy grows to the speed clamp and is not a sign of a blow-up, so it is left
// out of the kinetic figure (the total energy still counts it). The showcase's 4-tonne sphere
// rolls off its 80 m ground after about 160 s.
#define TB_SOAK_FLOOR -1.0f

typedef struct tbSoakStats
{
	int interval; ///< sample every interval steps; 0: off
	tbSoakSample* samples;
	int count;
	int capacity;
	tbBodyId* bodies; ///< scratch for the body list
	int bodyCapacity;
	tbJointId* joints; ///< scratch for one body's joints
	int jointCapacity;
	float initialKinetic;
	float initialPotential;
	float maxKinetic; ///< over the bodies above TB_SOAK_FLOOR
	long long maxKineticStep;
	float maxEnergy; ///< kinetic plus potential, every body, after the first step
	long long maxEnergyStep;
	int maxFallen;
	long long firstNonFiniteStep; ///< -1 while every pose and velocity is finite
	float maxJointPosError;
	float maxJointAngleError;
} tbSoakStats;

static bool tbSoakGrowBodies( tbSoakStats* soak, tbWorldId world, int* count )
{
	tbBodyId probe;
	int n = tbWorld_GetBodies( world, &probe, 0 );
	if ( n > soak->bodyCapacity )
	{
		tbBodyId* grown = realloc( soak->bodies, (size_t)n * sizeof( tbBodyId ) );
		if ( grown == NULL )
		{
			return false;
		}
		soak->bodies = grown;
		soak->bodyCapacity = n;
	}
	*count = tbWorld_GetBodies( world, soak->bodies, n );
	return true;
}

// Kinetic energy of the dynamic bodies above TB_SOAK_FLOOR, potential energy of all dynamic bodies
// and their total energy; false if a pose or velocity is not finite.
static bool tbSoakEnergy( tbSoakStats* soak, tbWorldId world, float* kinetic, float* potential, float* total,
						  int* fallen )
{
	*kinetic = 0.0f;
	*potential = 0.0f;
	*total = 0.0f;
	*fallen = 0;
	int count = 0;
	if ( tbSoakGrowBodies( soak, world, &count ) == false )
	{
		return true;
	}
	tbVec3 gravity = tbWorld_GetGravity( world );
	bool finite = true;
	// Sums in double: 100 bodies of 1e4 J and of 1e-3 J in one float lose the small ones.
	double ke = 0.0;
	double keFallen = 0.0;
	double pe = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		tbBodyId body = soak->bodies[i];
		tbTransform xf = tbBody_GetTransform( body );
		tbVec3 v = tbBody_GetLinearVelocity( body );
		tbVec3 w = tbBody_GetAngularVelocity( body );
		if ( tbIsValidVec3( xf.p ) == false || tbIsValidQuat( xf.q ) == false || tbIsValidVec3( v ) == false ||
			 tbIsValidVec3( w ) == false )
		{
			finite = false;
			continue;
		}
		if ( tbBody_GetType( body ) != tbBody_dynamic )
		{
			continue;
		}
		float mass = tbBody_GetMass( body );
		// Rotational energy in body axes, where the inertia is the principal one.
		tbVec3 wLocal = tbInvRotate( xf.q, w );
		tbVec3 iw = tbMulMV( tbBody_GetLocalInertia( body ), wLocal );
		double energy = 0.5 * (double)mass * (double)tbDot( v, v ) + 0.5 * (double)tbDot( wLocal, iw );
		tbVec3 centre = tbBody_GetWorldCenterOfMass( body );
		if ( centre.z < TB_SOAK_FLOOR )
		{
			keFallen += energy;
			*fallen += 1;
		}
		else
		{
			ke += energy;
		}
		pe -= (double)mass * (double)tbDot( gravity, centre );
	}
	*kinetic = (float)ke;
	*potential = (float)pe;
	*total = (float)( ke + keFallen + pe );
	return finite;
}

static long tbResidentKb( void )
{
	FILE* f = fopen( "/proc/self/statm", "r" );
	if ( f == NULL )
	{
		return -1;
	}
	long size = 0;
	long resident = -1;
	if ( fscanf( f, "%ld %ld", &size, &resident ) != 2 )
	{
		resident = -1;
	}
	fclose( f );
	return resident < 0 ? -1 : resident * ( sysconf( _SC_PAGESIZE ) / 1024 );
}

// Largest error of the intact joints, and how many are broken (each joint counted once: with its
// body A, or body B when A is the static world).
static void tbSoakJoints( tbSoakStats* soak, tbWorldId world, tbSoakSample* sample )
{
	int bodyCount = 0;
	if ( tbSoakGrowBodies( soak, world, &bodyCount ) == false )
	{
		return;
	}
	for ( int i = 0; i < bodyCount; ++i )
	{
		tbJointId probe;
		int count = tbBody_GetJoints( soak->bodies[i], &probe, 0 );
		if ( count > soak->jointCapacity )
		{
			tbJointId* grown = realloc( soak->joints, (size_t)count * sizeof( tbJointId ) );
			if ( grown == NULL )
			{
				return;
			}
			soak->joints = grown;
			soak->jointCapacity = count;
		}
		count = tbBody_GetJoints( soak->bodies[i], soak->joints, count );
		for ( int k = 0; k < count; ++k )
		{
			tbJointId joint = soak->joints[k];
			tbBodyId a = tbJoint_GetBodyA( joint );
			if ( TB_ID_EQUALS( a, soak->bodies[i] ) == false && TB_IS_NON_NULL( a ) && tbBody_IsValid( a ) )
			{
				continue;
			}
			if ( tbJoint_IsBroken( joint ) )
			{
				sample->brokenJoints += 1;
				continue;
			}
			if ( tbJointCountsForError( joint ) == false )
			{
				continue;
			}
			float posError = 0.0f;
			float angleError = 0.0f;
			tbJoint_GetError( joint, &posError, &angleError );
			sample->jointPosError = tbMaxFloat( sample->jointPosError, posError );
			sample->jointAngleError = tbMaxFloat( sample->jointAngleError, angleError );
		}
	}
}

static void tbSoakSampleNow( tbSoakStats* soak, tbWorldId world, long long step, float kinetic, float potential,
							 int fallen )
{
	if ( soak->count == soak->capacity )
	{
		int capacity = soak->capacity > 0 ? 2 * soak->capacity : 256;
		tbSoakSample* grown = realloc( soak->samples, (size_t)capacity * sizeof( tbSoakSample ) );
		if ( grown == NULL )
		{
			return;
		}
		soak->samples = grown;
		soak->capacity = capacity;
	}
	tbSoakSample* sample = soak->samples + soak->count++;
	memset( sample, 0, sizeof( *sample ) );
	sample->step = step;
	sample->kinetic = kinetic;
	sample->potential = potential;
	sample->fallen = fallen;
	sample->rssKb = tbResidentKb();
	tbWorldCounters c = tbWorld_GetCounters( world );
	sample->allocations = c.allocationCount;
	sample->bodies = c.bodyCount;
	tbSoakJoints( soak, world, sample );
	soak->maxJointPosError = tbMaxFloat( soak->maxJointPosError, sample->jointPosError );
	soak->maxJointAngleError = tbMaxFloat( soak->maxJointAngleError, sample->jointAngleError );
}

// After step `step` (0: the state before the first step).
static void tbSoakRecord( tbSoakStats* soak, tbWorldId world, long long step )
{
	if ( soak->interval <= 0 || TB_IS_NULL( world ) )
	{
		return;
	}
	float kinetic = 0.0f;
	float potential = 0.0f;
	float total = 0.0f;
	int fallen = 0;
	bool finite = tbSoakEnergy( soak, world, &kinetic, &potential, &total, &fallen );
	if ( finite == false && soak->firstNonFiniteStep < 0 )
	{
		soak->firstNonFiniteStep = step;
	}
	if ( step == 0 )
	{
		soak->initialKinetic = kinetic;
		soak->initialPotential = potential;
	}
	if ( kinetic > soak->maxKinetic || isfinite( kinetic ) == false )
	{
		soak->maxKinetic = kinetic;
		soak->maxKineticStep = step;
	}
	if ( step > 0 && ( total > soak->maxEnergy || step == 1 || isfinite( total ) == false ) )
	{
		soak->maxEnergy = total;
		soak->maxEnergyStep = step;
	}
	soak->maxFallen = fallen > soak->maxFallen ? fallen : soak->maxFallen;
	if ( step % soak->interval == 0 )
	{
		tbSoakSampleNow( soak, world, step, kinetic, potential, fallen );
	}
}

static void tbSoakFree( tbSoakStats* soak )
{
	free( soak->samples );
	free( soak->bodies );
	free( soak->joints );
}

static void tbWriteSoak( tbJson* json, const tbSoakStats* soak )
{
	tbJson_Key( json, "soak" );
	tbJson_BeginObject( json );
	tbJson_Key( json, "interval" );
	tbJson_Integer( json, soak->interval );
	tbJson_Key( json, "initial_kinetic" );
	tbJson_Number( json, soak->initialKinetic );
	tbJson_Key( json, "initial_potential" );
	tbJson_Number( json, soak->initialPotential );
	tbJson_Key( json, "max_kinetic" );
	tbJson_Number( json, soak->maxKinetic );
	tbJson_Key( json, "max_kinetic_step" );
	tbJson_Integer( json, soak->maxKineticStep );
	tbJson_Key( json, "max_energy" );
	tbJson_Number( json, soak->maxEnergy );
	tbJson_Key( json, "max_energy_step" );
	tbJson_Integer( json, soak->maxEnergyStep );
	tbJson_Key( json, "max_fallen" );
	tbJson_Integer( json, soak->maxFallen );
	tbJson_Key( json, "floor" );
	tbJson_Number( json, TB_SOAK_FLOOR );
	tbJson_Key( json, "first_non_finite_step" );
	tbJson_Integer( json, soak->firstNonFiniteStep );
	tbJson_Key( json, "max_joint_pos_error" );
	tbJson_Number( json, soak->maxJointPosError );
	tbJson_Key( json, "max_joint_angle_error" );
	tbJson_Number( json, soak->maxJointAngleError );
	tbJson_Key( json, "samples" );
	tbJson_BeginArray( json );
	for ( int i = 0; i < soak->count; ++i )
	{
		const tbSoakSample* s = soak->samples + i;
		tbJson_BeginObject( json );
		tbJson_Key( json, "step" );
		tbJson_Integer( json, s->step );
		tbJson_Key( json, "kinetic" );
		tbJson_Number( json, s->kinetic );
		tbJson_Key( json, "potential" );
		tbJson_Number( json, s->potential );
		tbJson_Key( json, "rss_kb" );
		tbJson_Integer( json, s->rssKb );
		tbJson_Key( json, "allocations" );
		tbJson_Integer( json, s->allocations );
		tbJson_Key( json, "joint_pos_error" );
		tbJson_Number( json, s->jointPosError );
		tbJson_Key( json, "joint_angle_error" );
		tbJson_Number( json, s->jointAngleError );
		tbJson_Key( json, "broken_joints" );
		tbJson_Integer( json, s->brokenJoints );
		tbJson_Key( json, "bodies" );
		tbJson_Integer( json, s->bodies );
		tbJson_Key( json, "fallen" );
		tbJson_Integer( json, s->fallen );
		tbJson_EndObject( json );
	}
	tbJson_EndArray( json );
	tbJson_EndObject( json );
}

static void tbJsonVec3( tbJson* json, const char* key, tbVec3 v )
{
	tbJson_Key( json, key );
	tbJson_BeginArray( json );
	tbJson_Number( json, v.x );
	tbJson_Number( json, v.y );
	tbJson_Number( json, v.z );
	tbJson_EndArray( json );
}

// Every joint once: each is listed with its body A, or with body B when A is the static world.
static void tbWriteJoints( tbJson* json, tbWorldId world, bool all )
{
	tbBodyId probe;
	int bodyCount = tbWorld_GetBodies( world, &probe, 0 );
	tbBodyId* bodies = malloc( (size_t)( bodyCount > 0 ? bodyCount : 1 ) * sizeof( tbBodyId ) );
	if ( bodies == NULL )
	{
		return;
	}
	bodyCount = tbWorld_GetBodies( world, bodies, bodyCount );
	int capacity = 0;
	tbJointId* joints = NULL;
	for ( int i = 0; i < bodyCount; ++i )
	{
		tbJointId jointProbe;
		int count = tbBody_GetJoints( bodies[i], &jointProbe, 0 );
		if ( count > capacity )
		{
			tbJointId* grown = realloc( joints, (size_t)count * sizeof( tbJointId ) );
			if ( grown == NULL )
			{
				break;
			}
			joints = grown;
			capacity = count;
		}
		count = tbBody_GetJoints( bodies[i], joints, count );
		for ( int k = 0; k < count; ++k )
		{
			tbBodyId a = tbJoint_GetBodyA( joints[k] );
			if ( TB_ID_EQUALS( a, bodies[i] ) == false && TB_IS_NON_NULL( a ) && tbBody_IsValid( a ) )
			{
				continue;
			}
			const char* name = tbJoint_GetName( joints[k] );
			bool named = name != NULL && name[0] != '\0';
			if ( named == false && all == false )
			{
				continue;
			}
			float posError = 0.0f;
			float angleError = 0.0f;
			tbJoint_GetError( joints[k], &posError, &angleError );
			tbJson_BeginObject( json );
			tbJson_Key( json, "name" );
			tbJson_String( json, named ? name : NULL );
			tbJson_Key( json, "type" );
			tbJson_String( json, tbJointTypeName( tbJoint_GetType( joints[k] ) ) );
			tbJson_Key( json, "pos_error" );
			tbJson_Number( json, posError );
			tbJson_Key( json, "angle_error" );
			tbJson_Number( json, angleError );
			tbJson_Key( json, "broken" );
			tbJson_Bool( json, tbJoint_IsBroken( joints[k] ) );
			tbJson_EndObject( json );
		}
	}
	free( joints );
	free( bodies );
}

// finishError: the failure of the scene's finish(), reported as "finish_error" (the report is
// written anyway: the state it failed on is what one wants to see).
static void tbWriteReport( tbScene* scene, const tbAppOptions* options, const tbRunStats* stats, long long steps,
						   const tbSoakStats* soak, const char* finishError )
{
	tbWorldId world = tbScene_GetWorld( scene );
	tbJson json;
	tbJson_Init( &json, stdout );
	tbJson_BeginObject( &json );
	tbJson_Key( &json, "scene" );
	tbJson_String( &json, options->scenePath );
	tbJson_Key( &json, "steps" );
	tbJson_Integer( &json, steps );
	tbJson_Key( &json, "dt" );
	tbJson_Number( &json, options->dt );
	tbJson_Key( &json, "threads" );
	tbJson_Integer( &json, options->threads );
	tbJson_Key( &json, "time" );
	tbJson_Number( &json, tbScene_GetTime( scene ) );

	tbJson_Key( &json, "bodies" );
	tbJson_BeginArray( &json );
	int bodyCount = 0;
	if ( TB_IS_NON_NULL( world ) )
	{
		tbBodyId probe;
		bodyCount = tbWorld_GetBodies( world, &probe, 0 );
		tbBodyId* ids = malloc( (size_t)( bodyCount > 0 ? bodyCount : 1 ) * sizeof( tbBodyId ) );
		int count = ids != NULL ? tbWorld_GetBodies( world, ids, bodyCount ) : 0;
		for ( int i = 0; i < count && i < bodyCount; ++i )
		{
			const char* name = tbBody_GetName( ids[i] );
			bool named = name != NULL && name[0] != '\0';
			if ( named == false && options->all == false )
			{
				continue;
			}
			tbQuat q = tbBody_GetRotation( ids[i] );
			tbJson_BeginObject( &json );
			tbJson_Key( &json, "name" );
			tbJson_String( &json, named ? name : NULL );
			tbJsonVec3( &json, "pos", tbBody_GetPosition( ids[i] ) );
			tbJson_Key( &json, "rot" );
			tbJson_BeginArray( &json );
			tbJson_Number( &json, q.w );
			tbJson_Number( &json, q.x );
			tbJson_Number( &json, q.y );
			tbJson_Number( &json, q.z );
			tbJson_EndArray( &json );
			tbJsonVec3( &json, "vel", tbBody_GetLinearVelocity( ids[i] ) );
			tbJsonVec3( &json, "angvel", tbBody_GetAngularVelocity( ids[i] ) );
			tbJson_Key( &json, "sleeping" );
			tbJson_Bool( &json, tbBody_IsAwake( ids[i] ) == false );
			tbJson_EndObject( &json );
		}
		free( ids );
	}
	tbJson_EndArray( &json );

	tbJson_Key( &json, "joints" );
	tbJson_BeginArray( &json );
	if ( TB_IS_NON_NULL( world ) )
	{
		tbWriteJoints( &json, world, options->all );
	}
	tbJson_EndArray( &json );

	float median = 0.0f;
	float maximum = 0.0f;
	if ( stats->count > 0 )
	{
		float* sorted = malloc( (size_t)stats->count * sizeof( float ) );
		if ( sorted != NULL )
		{
			memcpy( sorted, stats->stepMs, (size_t)stats->count * sizeof( float ) );
			qsort( sorted, (size_t)stats->count, sizeof( float ), tbCompareFloats );
			int n = stats->count;
			median = n % 2 == 1 ? sorted[n / 2] : 0.5f * ( sorted[n / 2 - 1] + sorted[n / 2] );
			maximum = sorted[n - 1];
			free( sorted );
		}
	}
	tbWorldCounters counters = TB_IS_NON_NULL( world ) ? tbWorld_GetCounters( world ) : ( tbWorldCounters ){ 0 };
	tbJson_Key( &json, "stats" );
	tbJson_BeginObject( &json );
	tbJson_Key( &json, "step_ms_median" );
	tbJson_Number( &json, median );
	tbJson_Key( &json, "step_ms_max" );
	tbJson_Number( &json, maximum );
	tbJson_Key( &json, "contacts" );
	tbJson_Integer( &json, counters.contactCount );
	tbJson_Key( &json, "max_penetration" );
	tbJson_Number( &json, stats->maxPenetration );
	tbJson_Key( &json, "body_count" );
	tbJson_Integer( &json, bodyCount );
	tbJson_EndObject( &json );

	if ( soak != NULL && soak->interval > 0 )
	{
		tbWriteSoak( &json, soak );
	}

	int modCount = tbScene_GetModCount( scene );
	if ( modCount > 0 )
	{
		tbJson_Key( &json, "mods" );
		tbJson_BeginArray( &json );
		for ( int i = 0; i < modCount; ++i )
		{
			tbJson_BeginObject( &json );
			tbJson_Key( &json, "path" );
			tbJson_String( &json, tbScene_GetModPath( scene, i ) );
			tbJson_Key( &json, "error" );
			tbJson_String( &json, tbScene_GetModError( scene, i ) );
			tbJson_Key( &json, "memory" );
			tbJson_Integer( &json, (long long)tbScene_GetModMemory( scene, i ) );
			tbJson_EndObject( &json );
		}
		tbJson_EndArray( &json );
	}
	if ( finishError != NULL )
	{
		tbJson_Key( &json, "finish_error" );
		tbJson_String( &json, finishError );
	}
	tbJson_EndObject( &json );
	fputc( '\n', stdout );
	fflush( stdout );
}

static void tbProgress( int done, int total )
{
	const int width = 30;
	int filled = total > 0 ? (int)( (long long)done * width / total ) : width;
	char bar[64];
	for ( int i = 0; i < width; ++i )
	{
		bar[i] = i < filled ? '#' : '.';
	}
	bar[width] = '\0';
	fprintf( stderr, "\r[%s] %3d%%  step %d/%d", bar, total > 0 ? (int)( 100LL * done / total ) : 100, done, total );
	fflush( stderr );
}

static int tbRunBatch( tbScene* scene, const tbAppOptions* options )
{
	int steps = options->steps;
	if ( steps < 0 )
	{
		steps = tbScene_GetDefaultSteps( scene ) > 0 ? tbScene_GetDefaultSteps( scene ) : TB_DEFAULT_HEADLESS_STEPS;
	}
	bool progress = isatty( STDERR_FILENO ) && steps > 1;
	tbRunStats stats = { NULL, 0, 0, 0.0f };
	tbSoakStats soak;
	memset( &soak, 0, sizeof( soak ) );
	soak.firstNonFiniteStep = -1;
	const char* soakInterval = getenv( "TB_SOAK_STATS" );
	if ( soakInterval != NULL && soakInterval[0] != '\0' )
	{
		soak.interval = atoi( soakInterval );
	}
	// Without a terminal a long soak run still says how far it got: a line every tenth of it.
	bool progressLines = progress == false && soak.interval > 0 && steps >= 10000;
	tbSoakRecord( &soak, tbScene_GetWorld( scene ), 0 );
	double lastProgress = 0.0;
	double startTime = tbNowSeconds();
	int status = 0;
	for ( int i = 0; i < steps; ++i )
	{
		double start = tbNowSeconds();
		if ( tbScene_Step( scene, options->dt ) == false )
		{
			if ( progress )
			{
				fputs( "\r\033[K", stderr );
			}
			fprintf( stderr, "tumble: error at step %d (t = %.4f s):\n%s\n", i + 1, tbScene_GetTime( scene ),
					 tbScene_GetError( scene ) );
			status = 1;
			break;
		}
		double end = tbNowSeconds();
		tbRecordStep( &stats, tbScene_GetWorld( scene ), 1000.0 * ( end - start ) );
		tbSoakRecord( &soak, tbScene_GetWorld( scene ), i + 1 );
		if ( progress && ( end - lastProgress > 0.1 || i + 1 == steps ) )
		{
			tbProgress( i + 1, steps );
			lastProgress = end;
		}
		if ( progressLines && ( i + 1 ) % ( steps / 10 ) == 0 )
		{
			fprintf( stderr, "tumble: step %d/%d (%.0f s)\n", i + 1, steps, end - startTime );
		}
	}
	if ( progress && status == 0 )
	{
		fputs( "\r\033[K", stderr );
	}
	bool finished = true;
	if ( status == 0 && tbScene_Finish( scene ) == false )
	{
		fprintf( stderr, "tumble: error in finish:\n%s\n", tbScene_GetError( scene ) );
		if ( tbLua_GetForcedSolver() != NULL )
		{
			// A scene's checks hold its figures to the solver mode it set up; another mode may not
			// reach them (the single-step modes stretch fast chains more than the soft one).
			fprintf( stderr,
					 "tumble: the scene's checks were written for the solver mode of its own settings; --solver "
					 "%s overrides that mode\n",
					 tbLua_GetForcedSolver() );
		}
		finished = false;
	}
	if ( status == 0 && options->report )
	{
		tbWriteReport( scene, options, &stats, stats.count, &soak, finished ? NULL : tbScene_GetError( scene ) );
	}
	status = finished ? status : 1;
	free( stats.stepMs );
	tbSoakFree( &soak );
	return status;
}

static void tbWatchSceneFiles( tbWatch* watch, tbScene* scene )
{
	const char* files[TB_MAX_WATCHED_FILES];
	int count = tbScene_GetFiles( scene, files, TB_MAX_WATCHED_FILES );
	tbWatch_SetFiles( watch, files, count < TB_MAX_WATCHED_FILES ? count : TB_MAX_WATCHED_FILES );
}

static void tbSummary( tbScene* scene, double stepMs )
{
	tbWorldId world = tbScene_GetWorld( scene );
	if ( TB_IS_NULL( world ) )
	{
		fprintf( stderr, "\r\033[K(no scene running: waiting for a fix)" );
	}
	else
	{
		tbWorldCounters c = tbWorld_GetCounters( world );
		fprintf( stderr, "\r\033[Kt = %8.2f s  bodies %d (awake %d)  contacts %d  step %.3f ms%s",
				 tbScene_GetTime( scene ), c.bodyCount, c.awakeBodyCount, c.contactCount, stepMs,
				 tbScene_IsHalted( scene ) ? "  [halted by an error]" : "" );
	}
	fflush( stderr );
}

// What identifies one saved version of a file: a save by rename gives a new inode, an in-place
// write a new mtime or size.
typedef struct tbFileStamp
{
	dev_t device;
	ino_t inode;
	off_t size;
	struct timespec modified;
} tbFileStamp;

static tbFileStamp tbGetFileStamp( const char* path )
{
	tbFileStamp stamp;
	memset( &stamp, 0, sizeof( stamp ) );
	struct stat st;
	if ( stat( path, &st ) == 0 )
	{
		stamp.device = st.st_dev;
		stamp.inode = st.st_ino;
		stamp.size = st.st_size;
		stamp.modified = st.st_mtim;
	}
	return stamp;
}

static bool tbSameFileStamp( const tbFileStamp* a, const tbFileStamp* b )
{
	return a->device == b->device && a->inode == b->inode && a->size == b->size &&
		   a->modified.tv_sec == b->modified.tv_sec && a->modified.tv_nsec == b->modified.tv_nsec;
}

// Real time: one step per dt of wall time, reload when a watched file changes.
static int tbRunLive( tbScene* scene, const tbAppOptions* options )
{
	tbWatch* watch = tbWatch_Create();
	if ( watch == NULL )
	{
		fprintf( stderr, "tumble: out of memory\n" );
		return 1;
	}
	tbWatchSceneFiles( watch, scene );
	bool tty = isatty( STDERR_FILENO );
	if ( options->live )
	{
		fprintf( stderr,
				 "tumble: the viewer is not built yet: running %s headless in real time with a live summary "
				 "(Ctrl-C to stop)\n",
				 options->scenePath );
	}
	fprintf( stderr, "tumble: watching %s and the files it requires (%s); saving reloads it\n", options->scenePath,
			 tbWatch_UsesInotify( watch ) ? "inotify" : "polling" );

	int steps = options->steps;
	if ( steps < 0 )
	{
		steps = 0; // unbounded
	}
	tbRunStats stats = { NULL, 0, 0, 0.0f };
	long long done = 0;
	double next = tbNowSeconds();
	double lastSummary = 0.0;
	double lastStepMs = 0.0;
	bool pending = false;
	while ( s_interrupted == 0 && ( steps == 0 || done < steps ) )
	{
		if ( tbWatch_Poll( watch ) || pending )
		{
			tbWatch_Settle( watch, 30, 500 );
			// The version about to be read; a save that lands while it loads (before the watches
			// are set again) would otherwise be missed.
			tbFileStamp loaded = tbGetFileStamp( options->scenePath );
			double start = tbNowSeconds();
			bool ok = tbScene_IsLoaded( scene ) ? tbScene_Reload( scene ) : tbScene_Load( scene, options->scenePath );
			double ms = 1000.0 * ( tbNowSeconds() - start );
			if ( tty )
			{
				fputs( "\r\033[K", stderr );
			}
			if ( ok )
			{
				fprintf( stderr, "tumble: reloaded %s (%s) in %.1f ms\n", options->scenePath,
						 tbScene_GetReloadMode( scene ) == tbSceneReload_swap ? "swap" : "rebuild", ms );
			}
			else
			{
				fprintf( stderr, "tumble: reload failed%s:\n%s\n",
						 tbScene_IsLoaded( scene ) ? ", the last good scene keeps running" : "",
						 tbScene_GetError( scene ) );
			}
			tbWatchSceneFiles( watch, scene );
			tbFileStamp now = tbGetFileStamp( options->scenePath );
			pending = tbSameFileStamp( &loaded, &now ) == false;
		}

		if ( tbScene_IsLoaded( scene ) && tbScene_IsHalted( scene ) == false )
		{
			double start = tbNowSeconds();
			if ( tbScene_Step( scene, options->dt ) )
			{
				lastStepMs = 1000.0 * ( tbNowSeconds() - start );
				tbRecordStep( &stats, tbScene_GetWorld( scene ), lastStepMs );
			}
			else
			{
				if ( tty )
				{
					fputs( "\r\033[K", stderr );
				}
				fprintf( stderr, "tumble: script error, the scene is halted until a file is saved:\n%s\n",
						 tbScene_GetError( scene ) );
			}
		}
		done += 1;

		double now = tbNowSeconds();
		if ( tty && now - lastSummary > 0.1 )
		{
			tbSummary( scene, lastStepMs );
			lastSummary = now;
		}
		next += options->dt;
		if ( next < now - 0.25 )
		{
			next = now; // fell behind (slow step or a reload): do not try to catch up
		}
		tbSleepSeconds( next - tbNowSeconds() );
	}
	if ( tty )
	{
		fputs( "\r\033[K", stderr );
	}
	if ( options->report && tbScene_IsLoaded( scene ) )
	{
		tbWriteReport( scene, options, &stats, stats.count, NULL, NULL );
	}
	free( stats.stepMs );
	tbWatch_Destroy( watch );
	return 0;
}

int tbHeadless_Run( const tbAppOptions* options )
{
	bool live = options->watch || options->live;
	if ( live )
	{
		struct sigaction action;
		memset( &action, 0, sizeof( action ) );
		action.sa_handler = tbOnSignal;
		sigemptyset( &action.sa_mask );
		sigaction( SIGINT, &action, NULL );
	}

	tbScene* scene = tbScene_Create( &options->scene );
	if ( scene == NULL )
	{
		fprintf( stderr, "tumble: out of memory\n" );
		return 1;
	}
	int status = 0;
	if ( tbScene_Load( scene, options->scenePath ) == false )
	{
		fprintf( stderr, "tumble: cannot load the scene:\n%s\n", tbScene_GetError( scene ) );
		status = 1;
	}
	if ( live )
	{
		// A scene that fails to load is watched anyway: fixing it starts it.
		status = tbRunLive( scene, options );
	}
	else if ( status == 0 )
	{
		status = tbRunBatch( scene, options );
	}
	tbScene_Destroy( scene );
	return status;
}
