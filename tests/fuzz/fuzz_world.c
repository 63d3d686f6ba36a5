// Fuzz target: random sequences of world API calls.
// SPDX-License-Identifier: MIT
//
// The input is a program: one byte picks an operation (create or destroy a body, shape, joint,
// mover or world, set a property, apply a force, step, query, read state), the following bytes are
// its arguments. Values are mostly sane (so the simulation gets somewhere) and about one in eight
// is odd (NaN, infinities, zero, negative, huge, denormal, unnormalised quaternions). Ids are
// mostly live, sometimes stale (destroyed, or of a destroyed world), null, or made up.
//
// Properties checked:
//   - nothing crashes, hangs, leaks or trips a sanitizer;
//   - a NaN/inf argument, a bad enum or a negative size is refused with an error code, and a
//     destroyed body's id with tbResult_invalidId (never ok);
//   - ids of destroyed bodies and of destroyed worlds stay invalid;
//   - mutating calls from a custom joint callback (inside the step) get tbResult_worldLocked;
//   - after every step each body's position, rotation and velocities are finite, and the
//     world's body count matches the bodies created minus those destroyed.
#include "fuzz_common.h"

#define TB_FW_MAX_BODIES 24
#define TB_FW_MAX_SHAPES 48
#define TB_FW_MAX_JOINTS 16
#define TB_FW_MAX_MOVERS 8
#define TB_FW_MAX_STEPS 24
#define TB_FW_MAX_OPS 400

typedef struct tbFuzzWorld
{
	tbFuzzInput* in;
	tbWorldId world;
	int worldCount; ///< worlds created so far (the current one included)

	tbBodyId bodies[TB_FW_MAX_BODIES];
	bool bodyLive[TB_FW_MAX_BODIES];
	int bodyCount; ///< slots used (live or dead)
	int liveBodies;

	tbShapeId shapes[TB_FW_MAX_SHAPES];
	int shapeCount;
	tbJointId joints[TB_FW_MAX_JOINTS];
	int jointCount;
	tbMoverId movers[TB_FW_MAX_MOVERS];
	int moverCount;

	// Ids of bodies of destroyed worlds: they must never become valid again.
	tbBodyId oldWorldBodies[TB_FW_MAX_BODIES];
	int oldWorldBodyCount;

	int steps;
	tbResult lastResult; ///< the last error of a body call (tbOpBodySetters)
	// A finite value beyond 1e3 (m, m/s, kg, N, ...) was passed somewhere: overflow later on is a
	// known class of its own (check "finite-after-step-extreme").
	bool extreme;
	// Custom joint callback behaviour, set from the input when the joint is made.
	int customRows;
	uint32_t rowSeed;
	bool callbackMutates;
	bool inStep;
	// Query callbacks: what they return and whether they try to destroy a body.
	float castReturn;
	bool queryMutates;
	bool queryDestroyed; ///< a query callback destroyed a body during this query
	int queryCalls;
} tbFuzzWorld;

// Trace -------------------------------------------------------------------------------------------
// With TB_FUZZ_TRACE set, every call and its arguments are logged and printed when a check fails,
// so a reproducer reads as the program of API calls it stands for.

static char tb_trace[1 << 16];
static size_t tb_traceLength;
static int tb_traceOn = -1;

static void tbTrace( const char* format, ... ) __attribute__( ( format( printf, 1, 2 ) ) );

static void tbTrace( const char* format, ... )
{
	if ( tb_traceOn < 0 )
	{
		tb_traceOn = getenv( "TB_FUZZ_TRACE" ) != NULL;
	}
	if ( tb_traceOn == 0 || tb_traceLength >= sizeof( tb_trace ) - 1 )
	{
		return;
	}
	va_list args;
	va_start( args, format );
	int n = vsnprintf( tb_trace + tb_traceLength, sizeof( tb_trace ) - tb_traceLength, format, args );
	va_end( args );
	if ( n > 0 )
	{
		tb_traceLength += (size_t)n;
		if ( tb_traceLength > sizeof( tb_trace ) - 1 )
		{
			tb_traceLength = sizeof( tb_trace ) - 1;
		}
	}
}

static void tbDescribeTrace( FILE* out, const void* context )
{
	(void)context;
	if ( tb_traceOn <= 0 )
	{
		fprintf( out, "(run with TB_FUZZ_TRACE=1 to see the calls that led here)\n" );
		return;
	}
	fprintf( out, "calls:\n%s", tb_trace );
}

#define TB_V3( v ) (double)( v ).x, (double)( v ).y, (double)( v ).z
#define TB_Q4( q ) (double)( q ).x, (double)( q ).y, (double)( q ).z, (double)( q ).w

// Values ------------------------------------------------------------------------------------------

/// Mostly in [lo, hi]; one time in eight an odd float.
// Finite values beyond 1e3 are where the open findings of this target live (overflowing bounds,
// poses, inertia inverses). TB_FUZZ_KNOWN=extreme-values clamps them to +-10, and tiny-values
// raises non-zero magnitudes below 1e-3 to 1e-3, so a long campaign can look elsewhere; without
// them they are generated (and huge ones noted).
static float tbNoteExtreme( tbFuzzWorld* w, float x )
{
	static int clamp = -1;
	if ( clamp < 0 )
	{
		clamp = tbFuzz_IsKnown( "extreme-values" );
	}
	if ( clamp && isfinite( x ) && fabsf( x ) > 10.0f )
	{
		return copysignf( 10.0f, x );
	}
	static int raise = -1;
	if ( raise < 0 )
	{
		raise = tbFuzz_IsKnown( "tiny-values" );
	}
	if ( raise && x != 0.0f && fabsf( x ) < 1.0e-3f )
	{
		return copysignf( 1.0e-3f, x ); // open finding: near-zero densities and masses overflow forces
	}
	if ( isfinite( x ) && fabsf( x ) > 1.0e3f )
	{
		w->extreme = true;
	}
	return x;
}

static float tbValue( tbFuzzWorld* w, float lo, float hi )
{
	if ( ( tbFuzz_Byte( w->in ) & 7 ) == 0 )
	{
		return tbNoteExtreme( w, tbFuzz_OddFloat( w->in ) );
	}
	return tbFuzz_FloatIn( w->in, lo, hi );
}

static tbVec3 tbVecValue( tbFuzzWorld* w, float lo, float hi )
{
	if ( ( tbFuzz_Byte( w->in ) & 7 ) == 0 )
	{
		tbVec3 v = tbFuzz_OddVec3( w->in );
		v.x = tbNoteExtreme( w, v.x );
		v.y = tbNoteExtreme( w, v.y );
		v.z = tbNoteExtreme( w, v.z );
		return v;
	}
	return tbFuzz_Vec3In( w->in, lo, hi );
}

static tbQuat tbQuatValue( tbFuzzWorld* w )
{
	if ( ( tbFuzz_Byte( w->in ) & 7 ) == 0 )
	{
		return tbFuzz_OddQuat( w->in );
	}
	return tbFuzz_UnitQuat( w->in );
}

static bool tbFinite( float x )
{
	return isfinite( x ) != 0;
}

static bool tbFiniteQuat( tbQuat q )
{
	return tbFuzz_IsFiniteQuat( q );
}

// A name of up to 47 bytes (the API copies up to 31), or NULL.
static const char* tbNameValue( tbFuzzWorld* w, char* buffer )
{
	uint8_t n = tbFuzz_Byte( w->in );
	if ( n < 32 )
	{
		return NULL;
	}
	int length = n % 48;
	for ( int i = 0; i < length; ++i )
	{
		buffer[i] = (char)( 'a' + tbFuzz_Byte( w->in ) % 26 );
	}
	buffer[length] = '\0';
	return buffer;
}

// Ids ---------------------------------------------------------------------------------------------

/// A tracked body (live or dead), the null id, a body of a destroyed world, or a made-up id.
static tbBodyId tbPickBody( tbFuzzWorld* w, int* slot )
{
	uint8_t s = tbFuzz_Byte( w->in );
	*slot = -1;
	if ( s < 8 || w->bodyCount == 0 )
	{
		if ( s < 2 )
		{
			return tb_nullBodyId;
		}
		if ( s < 4 && w->oldWorldBodyCount > 0 )
		{
			return w->oldWorldBodies[tbFuzz_Byte( w->in ) % w->oldWorldBodyCount];
		}
		tbBodyId made;
		made.index1 = (int32_t)tbFuzz_U32( w->in );
		made.world0 = tbFuzz_U16( w->in );
		made.generation = tbFuzz_U16( w->in );
		return made;
	}
	*slot = s % w->bodyCount;
	return w->bodies[*slot];
}

static tbShapeId tbPickShape( tbFuzzWorld* w )
{
	uint8_t s = tbFuzz_Byte( w->in );
	if ( s < 8 || w->shapeCount == 0 )
	{
		tbShapeId made;
		made.index1 = s < 2 ? 0 : (int32_t)tbFuzz_U32( w->in );
		made.world0 = tbFuzz_U16( w->in );
		made.generation = tbFuzz_U16( w->in );
		return made;
	}
	return w->shapes[s % w->shapeCount];
}

static tbJointId tbPickJoint( tbFuzzWorld* w )
{
	uint8_t s = tbFuzz_Byte( w->in );
	if ( s < 8 || w->jointCount == 0 )
	{
		tbJointId made;
		made.index1 = s < 2 ? 0 : (int32_t)tbFuzz_U32( w->in );
		made.world0 = tbFuzz_U16( w->in );
		made.generation = tbFuzz_U16( w->in );
		return made;
	}
	return w->joints[s % w->jointCount];
}

static tbMoverId tbPickMover( tbFuzzWorld* w )
{
	uint8_t s = tbFuzz_Byte( w->in );
	if ( s < 8 || w->moverCount == 0 )
	{
		tbMoverId made;
		made.index1 = s < 2 ? 0 : (int32_t)tbFuzz_U32( w->in );
		made.world0 = tbFuzz_U16( w->in );
		made.generation = tbFuzz_U16( w->in );
		return made;
	}
	return w->movers[s % w->moverCount];
}

static void tbTrackBody( tbFuzzWorld* w, tbBodyId id )
{
	int slot = w->bodyCount < TB_FW_MAX_BODIES ? w->bodyCount++ : tbFuzz_Byte( w->in ) % TB_FW_MAX_BODIES;
	if ( w->bodyLive[slot] )
	{
		// Forgetting a live body is fine: the world still owns it, the count stays right.
		w->bodyLive[slot] = false;
	}
	w->bodies[slot] = id;
	w->bodyLive[slot] = true;
	w->liveBodies += 1;
}

static void tbTrackShape( tbFuzzWorld* w, tbShapeId id )
{
	int slot = w->shapeCount < TB_FW_MAX_SHAPES ? w->shapeCount++ : tbFuzz_Byte( w->in ) % TB_FW_MAX_SHAPES;
	w->shapes[slot] = id;
}

static void tbTrackJoint( tbFuzzWorld* w, tbJointId id )
{
	int slot = w->jointCount < TB_FW_MAX_JOINTS ? w->jointCount++ : tbFuzz_Byte( w->in ) % TB_FW_MAX_JOINTS;
	w->joints[slot] = id;
}

// Expectations ------------------------------------------------------------------------------------

// A call on body `slot` returned r; bad says whether the arguments were invalid.
static void tbExpectBodyResult( tbFuzzWorld* w, int slot, bool bad, tbResult r, const char* call )
{
	if ( r != tbResult_ok )
	{
		w->lastResult = r;
	}
	tbTrace( "  %s(body slot %d%s) -> %s\n", call, slot, bad ? ", bad arguments" : "", tbResultString( r ) );
	TB_FUZZ_CHECK( r >= tbResult_ok && r < tbResult_count, "%s returned %d", call, (int)r );
	if ( slot >= 0 && w->bodyLive[slot] == false )
	{
		// Arguments may be checked first (against the input limits of collision.h too), so an
		// invalid-argument answer is as good as invalid-id; success is not.
		TB_FUZZ_CHECK( r == tbResult_invalidId || r == tbResult_invalidArgument, "%s on a destroyed body returned %s",
					   call, tbResultString( r ) );
	}
	else if ( bad )
	{
		TB_FUZZ_CHECK( r != tbResult_ok, "%s accepted an invalid argument", call );
	}
}

static void tbExpectRejected( bool bad, tbResult r, const char* call )
{
	tbTrace( "  %s(%s) -> %s\n", call, bad ? "bad arguments" : "", tbResultString( r ) );
	TB_FUZZ_CHECK( r >= tbResult_ok && r < tbResult_count, "%s returned %d", call, (int)r );
	if ( bad )
	{
		TB_FUZZ_CHECK( r != tbResult_ok, "%s accepted an invalid argument", call );
	}
}

static void tbCheckWorldState( tbFuzzWorld* w, const char* when, bool afterStep )
{
	static tbBodyId ids[TB_FW_MAX_OPS + 1];
	int count = tbWorld_GetBodies( w->world, ids, TB_FW_MAX_OPS + 1 );
	TB_FUZZ_CHECK( count == w->liveBodies, "%s: the world has %d bodies, %d were created and not destroyed", when,
				   count, w->liveBodies );
	for ( int i = 0; i < count && i <= TB_FW_MAX_OPS; ++i )
	{
		tbTransform xf = tbBody_GetTransform( ids[i] );
		tbVec3 v = tbBody_GetLinearVelocity( ids[i] );
		tbVec3 omega = tbBody_GetAngularVelocity( ids[i] );
		TB_FUZZ_EXPECT( w->extreme ? "finite-after-step-extreme" : "finite-after-step",
						tbFuzz_IsFiniteVec3( xf.p ) && tbFuzz_IsFiniteQuat( xf.q ) && tbFuzz_IsFiniteVec3( v ) &&
							tbFuzz_IsFiniteVec3( omega ),
						"%s (step %d): body %d has position (%g, %g, %g), rotation (%g, %g, %g, %g), velocity (%g, %g, "
						"%g), angular velocity (%g, %g, %g)",
						when, w->steps, i, (double)xf.p.x, (double)xf.p.y, (double)xf.p.z, (double)xf.q.x,
						(double)xf.q.y, (double)xf.q.z, (double)xf.q.w, (double)v.x, (double)v.y, (double)v.z,
						(double)omega.x, (double)omega.y, (double)omega.z );
	}
	// The documented speed clamp (tbWorldDef.maxLinearSpeed), with slack, on the velocity a step
	// ends with. Between steps a body may be given any speed up to TB_MAX_SPEED (creation, setters),
	// kinematic bodies move as they are told, and a sleeping body (created asleep) is not stepped.
	float maxSpeed = tbWorld_GetSettings( w->world ).maxLinearSpeed;
	for ( int i = 0; i < count && i <= TB_FW_MAX_OPS && afterStep; ++i )
	{
		if ( tbBody_GetType( ids[i] ) != tbBody_dynamic || tbBody_IsAwake( ids[i] ) == false )
		{
			continue;
		}
		float speed = tbLength( tbBody_GetLinearVelocity( ids[i] ) );
		TB_FUZZ_EXPECT( "speed-clamp", !( speed > 2.0f * maxSpeed ),
						"%s (step %d): body %d moves at %g m/s, the clamp is %g", when, w->steps, i, (double)speed,
						(double)maxSpeed );
	}
	for ( int i = 0; i < w->bodyCount; ++i )
	{
		if ( w->bodyLive[i] == false )
		{
			TB_FUZZ_CHECK( tbBody_IsValid( w->bodies[i] ) == false, "a destroyed body's id is valid again" );
		}
	}
	for ( int i = 0; i < w->oldWorldBodyCount; ++i )
	{
		TB_FUZZ_EXPECT( "stale-world-ids", tbBody_IsValid( w->oldWorldBodies[i] ) == false,
						"the id of a body of a destroyed world is valid in world %d", w->worldCount );
	}
}

// World -------------------------------------------------------------------------------------------

// *bad: a value is invalid; *badCookie: the def was not made by tbDefaultWorldDef.
static tbWorldDef tbReadWorldDef( tbFuzzWorld* w, bool* bad, bool* badCookie )
{
	tbWorldDef def = tbDefaultWorldDef();
	*bad = false;
	*badCookie = false;
	uint8_t mask = tbFuzz_Byte( w->in );
	if ( mask & 1 )
	{
		def.gravity = tbVecValue( w, -30.0f, 30.0f );
		*bad = *bad || !tbFuzz_IsFiniteVec3( def.gravity );
	}
	if ( mask & 2 )
	{
		def.iterations = tbFuzz_IntIn( w->in, -1, 40 );
		def.subSteps = tbFuzz_IntIn( w->in, -1, 16 );
		def.positionIterations = tbFuzz_IntIn( w->in, -1, 8 );
		*bad = *bad || def.iterations < 1 || def.subSteps < 1 || def.positionIterations < 0;
	}
	if ( mask & 4 )
	{
		def.solverMode = (tbSolverMode)tbFuzz_IntIn( w->in, 0, 4 );
		*bad = *bad || def.solverMode >= tbSolver_modeCount;
	}
	if ( mask & 8 )
	{
		def.baumgarte = tbValue( w, 0.0f, 1.0f );
		def.linearSlop = tbValue( w, 0.0f, 0.05f );
		def.maxCorrectionSpeed = tbValue( w, 0.0f, 20.0f );
		*bad = *bad || !( def.baumgarte >= 0.0f && def.baumgarte <= 1.0f ) || !( def.linearSlop >= 0.0f ) ||
			   !tbFinite( def.linearSlop ) || !( def.maxCorrectionSpeed >= 0.0f ) ||
			   !tbFinite( def.maxCorrectionSpeed );
	}
	if ( mask & 16 )
	{
		def.contactHertz = tbValue( w, 1.0f, 500.0f );
		def.contactDampingRatio = tbValue( w, 0.0f, 20.0f );
		def.jointHertz = tbValue( w, 1.0f, 500.0f );
		def.jointDampingRatio = tbValue( w, 0.0f, 20.0f );
		*bad = *bad || !( def.contactHertz > 0.0f ) || !tbFinite( def.contactHertz ) ||
			   !( def.contactDampingRatio >= 0.0f ) || !tbFinite( def.contactDampingRatio ) ||
			   !( def.jointHertz > 0.0f ) || !tbFinite( def.jointHertz ) || !( def.jointDampingRatio >= 0.0f ) ||
			   !tbFinite( def.jointDampingRatio );
	}
	if ( mask & 32 )
	{
		def.restitutionThreshold = tbValue( w, 0.0f, 10.0f );
		def.frictionMix = (tbMixRule)tbFuzz_IntIn( w->in, 0, 6 );
		def.restitutionMix = (tbMixRule)tbFuzz_IntIn( w->in, 0, 6 );
		def.maxLinearSpeed = tbValue( w, 0.0f, 1000.0f );
		*bad = *bad || !tbFinite( def.restitutionThreshold ) || def.frictionMix >= tbMix_ruleCount ||
			   def.restitutionMix >= tbMix_ruleCount || !( def.maxLinearSpeed <= TB_MAX_SPEED );
	}
	if ( mask & 64 )
	{
		uint8_t flags = tbFuzz_Byte( w->in );
		def.enableSleep = flags & 1;
		def.enableContinuous = ( flags & 2 ) != 0;
		def.enableWarmStarting = ( flags & 4 ) != 0;
	}
	if ( mask == 0xFF )
	{
		def.internalValue = 0; // an uninitialised def
		*badCookie = true;
	}
	return def;
}

static void tbCreateFuzzWorld( tbFuzzWorld* w )
{
	bool bad = false, badCookie = false;
	tbWorldDef def = tbReadWorldDef( w, &bad, &badCookie );
	tbTrace( "world gravity (%g, %g, %g) iterations %d sub-steps %d position iterations %d solver %d baumgarte %g "
			 "slop %g max correction %g contact %g Hz %g joint %g Hz %g restitution threshold %g mix %d %d max "
			 "speed %g sleep %d continuous %d warm starting %d",
			 (double)def.gravity.x, (double)def.gravity.y, (double)def.gravity.z, def.iterations, def.subSteps,
			 def.positionIterations, (int)def.solverMode, (double)def.baumgarte, (double)def.linearSlop,
			 (double)def.maxCorrectionSpeed, (double)def.contactHertz, (double)def.contactDampingRatio,
			 (double)def.jointHertz, (double)def.jointDampingRatio, (double)def.restitutionThreshold,
			 (int)def.frictionMix, (int)def.restitutionMix, (double)def.maxLinearSpeed, (int)def.enableSleep,
			 (int)def.enableContinuous, (int)def.enableWarmStarting );
	tbWorldId id = tb_nullWorldId;
	tbResult r = tbCreateWorldChecked( &def, &id );
	tbExpectRejected( bad || badCookie, r, "tbCreateWorldChecked" );
	if ( r != tbResult_ok )
	{
		TB_FUZZ_CHECK( TB_IS_NULL( id ), "a failed tbCreateWorldChecked returned an id" );
		tbWorldDef plain = tbDefaultWorldDef();
		r = tbCreateWorldChecked( &plain, &id );
		TB_FUZZ_CHECK( r == tbResult_ok, "the default world def was refused: %s", tbResultString( r ) );
	}
	w->world = id;
	w->worldCount += 1;
}

static void tbDestroyFuzzWorld( tbFuzzWorld* w )
{
	tbDestroyWorld( w->world );
	TB_FUZZ_CHECK( tbWorld_IsValid( w->world ) == false, "a destroyed world is valid" );
	for ( int i = 0; i < w->bodyCount; ++i )
	{
		if ( w->bodyLive[i] && w->oldWorldBodyCount < TB_FW_MAX_BODIES )
		{
			w->oldWorldBodies[w->oldWorldBodyCount++] = w->bodies[i];
		}
	}
	w->bodyCount = 0;
	w->liveBodies = 0;
	memset( w->bodyLive, 0, sizeof( w->bodyLive ) );
	w->shapeCount = 0;
	w->jointCount = 0;
	w->moverCount = 0;
	w->world = tb_nullWorldId;
}

// Bodies and shapes -------------------------------------------------------------------------------

static void tbOpCreateBody( tbFuzzWorld* w )
{
	tbBodyDef def = tbDefaultBodyDef();
	bool bad = false;
	uint8_t mask = tbFuzz_Byte( w->in );
	def.type = (tbBodyType)( tbFuzz_Byte( w->in ) % 8 == 7 ? 5 : tbFuzz_Byte( w->in ) % 3 );
	if ( ( tbFuzz_Byte( w->in ) & 3 ) != 0 )
	{
		def.type = tbBody_dynamic;
	}
	bad = bad || (unsigned)def.type >= (unsigned)tbBody_typeCount;
	def.position = tbVecValue( w, -10.0f, 10.0f );
	bad = bad || !tbFuzz_IsFiniteVec3( def.position );
	if ( mask & 1 )
	{
		def.rotation = tbQuatValue( w );
		bad = bad || !tbIsValidQuat( def.rotation );
	}
	if ( mask & 2 )
	{
		def.linearVelocity = tbVecValue( w, -50.0f, 50.0f );
		def.angularVelocity = tbVecValue( w, -50.0f, 50.0f );
		bad = bad || !tbFuzz_IsFiniteVec3( def.linearVelocity ) || !tbFuzz_IsFiniteVec3( def.angularVelocity );
	}
	if ( mask & 4 )
	{
		def.linearDamping = tbValue( w, 0.0f, 5.0f );
		def.angularDamping = tbValue( w, 0.0f, 5.0f );
		def.gravityScale = tbValue( w, -2.0f, 2.0f );
		def.sleepThreshold = tbValue( w, 0.0f, 1.0f );
		bad = bad || !( def.linearDamping >= 0.0f ) || !tbFinite( def.linearDamping ) ||
			  !( def.angularDamping >= 0.0f ) || !tbFinite( def.angularDamping ) || !tbFinite( def.gravityScale ) ||
			  !( def.sleepThreshold >= 0.0f ) || !tbFinite( def.sleepThreshold );
	}
	char name[64];
	if ( mask & 8 )
	{
		def.name = tbNameValue( w, name );
	}
	if ( mask & 16 )
	{
		uint8_t flags = tbFuzz_Byte( w->in );
		def.enableSleep = flags & 1;
		def.isAwake = ( flags & 2 ) != 0;
		def.fixedRotation = ( flags & 4 ) != 0;
		def.isBullet = ( flags & 8 ) != 0;
	}
	if ( mask == 0xFF )
	{
		def.internalValue = 12345; // not made by tbDefaultBodyDef
		bad = true;
	}

	tbWorldId target = w->world;
	if ( ( mask & 0xE0 ) == 0xE0 )
	{
		// A made-up world id: only one world exists at a time, so it is the current one or invalid.
		tbWorldId made = { tbFuzz_U16( w->in ), tbFuzz_U16( w->in ) };
		target = made;
		bad = bad || tbWorld_IsValid( target ) == false;
	}
	tbTrace( "tbCreateBody type %d pos (%g, %g, %g) rot (%g, %g, %g, %g) v (%g, %g, %g) w (%g, %g, %g) damping %g %g "
			 "gravity scale %g sleep %g flags %d%d%d%d\n",
			 (int)def.type, TB_V3( def.position ), TB_Q4( def.rotation ), TB_V3( def.linearVelocity ),
			 TB_V3( def.angularVelocity ), (double)def.linearDamping, (double)def.angularDamping,
			 (double)def.gravityScale, (double)def.sleepThreshold, (int)def.enableSleep, (int)def.isAwake,
			 (int)def.fixedRotation, (int)def.isBullet );
	tbBodyId id = tb_nullBodyId;
	tbResult r = tbCreateBodyChecked( target, &def, &id );
	tbExpectRejected( bad, r, "tbCreateBodyChecked" );
	if ( r == tbResult_ok )
	{
		TB_FUZZ_CHECK( tbBody_IsValid( id ), "a new body's id is not valid" );
		if ( target.index1 == w->world.index1 && target.generation == w->world.generation )
		{
			tbTrackBody( w, id );
		}
	}
	else
	{
		TB_FUZZ_CHECK( TB_IS_NULL( id ), "a refused body has an id" );
	}
}

static tbShapeDef tbReadShapeDef( tbFuzzWorld* w, bool* bad )
{
	tbShapeDef def = tbDefaultShapeDef();
	uint8_t mask = tbFuzz_Byte( w->in );
	tbTrace( "shape def mask %d: ", (int)mask );
	if ( mask & 1 )
	{
		def.density = tbValue( w, 0.0f, 5000.0f );
		*bad = *bad || !( def.density >= 0.0f ) || !tbFinite( def.density );
	}
	if ( mask & 2 )
	{
		def.friction = tbValue( w, 0.0f, 2.0f );
		def.restitution = tbValue( w, 0.0f, 1.5f );
		*bad = *bad || !( def.friction >= 0.0f ) || !tbFinite( def.friction ) || !( def.restitution >= 0.0f ) ||
			   !tbFinite( def.restitution );
	}
	if ( mask & 4 )
	{
		def.categoryBits = (uint64_t)tbFuzz_U32( w->in ) << ( tbFuzz_Byte( w->in ) % 33 );
		def.maskBits = ~(uint64_t)tbFuzz_U16( w->in );
		def.groupIndex = (int8_t)tbFuzz_Byte( w->in );
	}
	if ( mask & 8 )
	{
		uint8_t flags = tbFuzz_Byte( w->in );
		def.isSensor = flags & 1;
		def.enableContactEvents = ( flags & 2 ) != 0;
		def.updateBodyMass = ( flags & 4 ) == 0;
	}
	if ( mask == 0xFF )
	{
		def.internalValue = 0;
		*bad = true;
	}
	return def;
}

static void tbFinishShapeCreate( tbFuzzWorld* w, int slot, bool bad, tbShapeId id, tbResult r, const char* call )
{
	tbExpectBodyResult( w, slot, bad, r, call );
	if ( r == tbResult_ok )
	{
		TB_FUZZ_CHECK( tbShape_IsValid( id ), "%s: a new shape's id is not valid", call );
		tbTrackShape( w, id );
	}
	else
	{
		TB_FUZZ_CHECK( TB_IS_NULL( id ), "%s: a refused shape has an id", call );
	}
}

static void tbOpCreateShape( tbFuzzWorld* w, int kind )
{
	int slot;
	tbBodyId body = tbPickBody( w, &slot );
	bool bad = tbBody_IsValid( body ) == false;
	tbShapeDef def = tbReadShapeDef( w, &bad );
	tbResult r = tbResult_count;
	tbShapeId id = tb_nullShapeId;
	const char* call = "";
	if ( kind == 0 )
	{
		tbSphere sphere = { tbVecValue( w, -1.0f, 1.0f ), tbValue( w, 0.05f, 2.0f ) };
		bad = bad || !tbFuzz_IsFiniteVec3( sphere.center ) || !( sphere.radius > 0.0f ) || !tbFinite( sphere.radius );
		tbTrace( "sphere (%g, %g, %g) r %g density %g\n", TB_V3( sphere.center ), (double)sphere.radius,
				 (double)def.density );
		id = tbCreateSphereShape( body, &def, &sphere, &r );
		call = "tbCreateSphereShape";
	}
	else if ( kind == 1 )
	{
		tbCapsule capsule = { tbVecValue( w, -1.0f, 1.0f ), tbVecValue( w, -1.0f, 1.0f ), tbValue( w, 0.05f, 1.0f ) };
		bad = bad || !tbFuzz_IsFiniteVec3( capsule.center1 ) || !tbFuzz_IsFiniteVec3( capsule.center2 ) ||
			  !( capsule.radius > 0.0f ) || !tbFinite( capsule.radius );
		tbTrace( "capsule (%g, %g, %g)-(%g, %g, %g) r %g density %g\n", TB_V3( capsule.center1 ),
				 TB_V3( capsule.center2 ), (double)capsule.radius, (double)def.density );
		id = tbCreateCapsuleShape( body, &def, &capsule, &r );
		call = "tbCreateCapsuleShape";
	}
	else if ( kind == 2 )
	{
		tbVec3 half = tbVecValue( w, 0.05f, 2.0f );
		tbTransform local = tb_transformIdentity;
		if ( tbFuzz_Bool( w->in ) )
		{
			local.p = tbVecValue( w, -1.0f, 1.0f );
			local.q = tbQuatValue( w );
		}
		bad = bad || !( half.x > 0.0f ) || !( half.y > 0.0f ) || !( half.z > 0.0f ) || !tbFuzz_IsFiniteVec3( half ) ||
			  !tbFuzz_IsFiniteVec3( local.p ) || !tbIsValidQuat( local.q );
		tbTrace( "box half (%g, %g, %g) at (%g, %g, %g) q (%g, %g, %g, %g) density %g\n", TB_V3( half ),
				 TB_V3( local.p ), TB_Q4( local.q ), (double)def.density );
		id = tbCreateBoxShape( body, &def, half, local, &r );
		call = "tbCreateBoxShape";
	}
	else
	{
		tbVec3 points[12];
		int count = tbFuzz_IntIn( w->in, 0, 12 );
		for ( int i = 0; i < count; ++i )
		{
			points[i] = tbVecValue( w, -1.0f, 1.0f );
		}
		tbHull* hull = tbComputeHull( points, count, NULL );
		tbTrace( "hull of %d points:", count );
		for ( int i = 0; i < count; ++i )
		{
			tbTrace( " (%g, %g, %g)", TB_V3( points[i] ) );
		}
		tbTrace( " -> %d vertices, density %g\n", hull != NULL ? hull->vertexCount : 0, (double)def.density );
		bad = bad || hull == NULL;
		id = tbCreateHullShape( body, &def, hull, &r );
		call = "tbCreateHullShape";
		tbDestroyHull( hull );
	}
	tbFinishShapeCreate( w, slot, bad, id, r, call );
}

static void tbOpDestroyBody( tbFuzzWorld* w )
{
	int slot;
	tbBodyId body = tbPickBody( w, &slot );
	tbResult r = tbDestroyBody( body );
	tbExpectBodyResult( w, slot, slot < 0 && tbBody_IsValid( body ) == false, r, "tbDestroyBody" );
	if ( slot >= 0 && r == tbResult_ok )
	{
		TB_FUZZ_CHECK( w->bodyLive[slot], "a destroyed body was destroyed again" );
		w->bodyLive[slot] = false;
		w->liveBodies -= 1;
		TB_FUZZ_CHECK( tbBody_IsValid( body ) == false, "a destroyed body is still valid" );
	}
	else if ( slot < 0 && r == tbResult_ok )
	{
		// A made-up id that happened to name a tracked live body.
		for ( int i = 0; i < w->bodyCount; ++i )
		{
			if ( w->bodyLive[i] && TB_ID_EQUALS( w->bodies[i], body ) )
			{
				w->bodyLive[i] = false;
				w->liveBodies -= 1;
			}
		}
	}
}

// Bit-exact state of a body, to check that a refused call left it alone (NaN equals NaN here).
typedef struct tbBodyState
{
	tbTransform xf;
	tbVec3 v, w;
	float mass;
	int type;
} tbBodyState;

static tbBodyState tbGetBodyState( tbBodyId body )
{
	tbBodyState s;
	memset( &s, 0, sizeof( s ) );
	s.xf = tbBody_GetTransform( body );
	s.v = tbBody_GetLinearVelocity( body );
	s.w = tbBody_GetAngularVelocity( body );
	s.mass = tbBody_GetMass( body );
	s.type = (int)tbBody_GetType( body );
	return s;
}

static void tbBodySetters( tbFuzzWorld* w, uint8_t which, int slot, tbBodyId body );

static void tbOpBodySetters( tbFuzzWorld* w, uint8_t which )
{
	int slot;
	tbBodyId body = tbPickBody( w, &slot );
	bool live = tbBody_IsValid( body );
	tbBodyState before = tbGetBodyState( body );
	w->lastResult = tbResult_ok;
	tbBodySetters( w, which, slot, body );
	if ( live && w->lastResult != tbResult_ok )
	{
		tbBodyState after = tbGetBodyState( body );
		TB_FUZZ_EXPECT( "refused-call-changed-body", memcmp( &before, &after, sizeof( before ) ) == 0,
						"a call refused with %s changed the body's pose, velocity, mass or type",
						tbResultString( w->lastResult ) );
	}
}

static void tbBodySetters( tbFuzzWorld* w, uint8_t which, int slot, tbBodyId body )
{
	switch ( which % 12 )
	{
		case 0: {
			tbVec3 p = tbVecValue( w, -20.0f, 20.0f );
			tbQuat q = tbQuatValue( w );
			tbTrace( "set transform (%g, %g, %g) (%g, %g, %g, %g)\n", TB_V3( p ), TB_Q4( q ) );
			tbResult r = tbBody_SetTransform( body, p, q );
			tbExpectBodyResult( w, slot, !tbFuzz_IsFiniteVec3( p ) || !tbIsValidQuat( q ), r, "tbBody_SetTransform" );
			break;
		}
		case 1: {
			tbVec3 v = tbVecValue( w, -100.0f, 100.0f );
			tbTrace( "set v (%g, %g, %g)\n", TB_V3( v ) );
			tbResult r = tbBody_SetLinearVelocity( body, v );
			tbExpectBodyResult( w, slot, !tbFuzz_IsFiniteVec3( v ), r, "tbBody_SetLinearVelocity" );
			break;
		}
		case 2: {
			tbVec3 v = tbVecValue( w, -100.0f, 100.0f );
			tbTrace( "set w (%g, %g, %g)\n", TB_V3( v ) );
			tbResult r = tbBody_SetAngularVelocity( body, v );
			tbExpectBodyResult( w, slot, !tbFuzz_IsFiniteVec3( v ), r, "tbBody_SetAngularVelocity" );
			break;
		}
		case 3: {
			tbBodyMass mass = { tbValue( w, 0.01f, 100.0f ), tbVecValue( w, -1.0f, 1.0f ),
								tbVecValue( w, 0.01f, 10.0f ) };
			bool bad = !( mass.mass > 0.0f ) || !tbFinite( mass.mass ) || !tbFuzz_IsFiniteVec3( mass.center ) ||
					   !tbFuzz_IsFiniteVec3( mass.inertia ) || !( mass.inertia.x > 0.0f ) ||
					   !( mass.inertia.y > 0.0f ) || !( mass.inertia.z > 0.0f );
			tbTrace( "mass %g center (%g, %g, %g) inertia (%g, %g, %g)\n", (double)mass.mass, TB_V3( mass.center ),
					 TB_V3( mass.inertia ) );
			tbResult r = tbBody_SetMassData( body, mass );
			tbExpectBodyResult( w, slot, bad, r, "tbBody_SetMassData" );
			break;
		}
		case 4: {
			tbResult r = tbBody_ApplyMassFromShapes( body );
			tbExpectBodyResult( w, slot, false, r, "tbBody_ApplyMassFromShapes" );
			break;
		}
		case 5: {
			tbVec3 f = tbVecValue( w, -1000.0f, 1000.0f );
			tbVec3 p = tbVecValue( w, -10.0f, 10.0f );
			bool wake = tbFuzz_Bool( w->in );
			bool bad = !tbFuzz_IsFiniteVec3( f ) || !tbFuzz_IsFiniteVec3( p );
			if ( bad && tbFuzz_IsKnown( "apply-nan" ) )
			{
				break; // open finding: refused forces and impulses are applied anyway
			}
			tbTrace( "force/impulse (%g, %g, %g) at (%g, %g, %g)\n", TB_V3( f ), TB_V3( p ) );
			switch ( tbFuzz_Byte( w->in ) % 5 )
			{
				case 0:
					tbExpectBodyResult( w, slot, bad, tbBody_ApplyForce( body, f, p, wake ), "tbBody_ApplyForce" );
					break;
				case 1:
					tbExpectBodyResult( w, slot, !tbFuzz_IsFiniteVec3( f ), tbBody_ApplyForceToCenter( body, f, wake ),
										"tbBody_ApplyForceToCenter" );
					break;
				case 2:
					tbExpectBodyResult( w, slot, !tbFuzz_IsFiniteVec3( f ), tbBody_ApplyTorque( body, f, wake ),
										"tbBody_ApplyTorque" );
					break;
				case 3:
					tbExpectBodyResult( w, slot, bad, tbBody_ApplyLinearImpulse( body, f, p, wake ),
										"tbBody_ApplyLinearImpulse" );
					break;
				default:
					tbExpectBodyResult( w, slot, !tbFuzz_IsFiniteVec3( f ), tbBody_ApplyAngularImpulse( body, f, wake ),
										"tbBody_ApplyAngularImpulse" );
					break;
			}
			break;
		}
		case 6: {
			float a = tbValue( w, 0.0f, 5.0f );
			bool bad = !( a >= 0.0f ) || !tbFinite( a );
			tbTrace( "damping %g\n", (double)a );
			if ( tbFuzz_Bool( w->in ) )
			{
				tbExpectBodyResult( w, slot, bad, tbBody_SetLinearDamping( body, a ), "tbBody_SetLinearDamping" );
			}
			else
			{
				tbExpectBodyResult( w, slot, bad, tbBody_SetAngularDamping( body, a ), "tbBody_SetAngularDamping" );
			}
			break;
		}
		case 7: {
			float s = tbValue( w, -3.0f, 3.0f );
			tbTrace( "gravity scale %g\n", (double)s );
			tbExpectBodyResult( w, slot, !tbFinite( s ), tbBody_SetGravityScale( body, s ), "tbBody_SetGravityScale" );
			break;
		}
		case 8: {
			tbBodyType type = (tbBodyType)tbFuzz_IntIn( w->in, 0, 4 );
			tbTrace( "set type %d\n", (int)type );
			tbExpectBodyResult( w, slot, type >= tbBody_typeCount, tbBody_SetType( body, type ), "tbBody_SetType" );
			break;
		}
		case 9: {
			uint8_t flags = tbFuzz_Byte( w->in );
			tbExpectBodyResult( w, slot, false, tbBody_SetAwake( body, flags & 1 ), "tbBody_SetAwake" );
			tbExpectBodyResult( w, slot, false, tbBody_EnableSleep( body, ( flags & 2 ) != 0 ), "tbBody_EnableSleep" );
			tbExpectBodyResult( w, slot, false, tbBody_SetBullet( body, ( flags & 4 ) != 0 ), "tbBody_SetBullet" );
			break;
		}
		case 10: {
			char name[64];
			const char* text = tbNameValue( w, name );
			tbResult r = tbBody_SetName( body, text );
			TB_FUZZ_CHECK( r >= tbResult_ok && r < tbResult_count, "tbBody_SetName returned %d", (int)r );
			if ( r == tbResult_ok && text != NULL && text[0] != '\0' )
			{
				tbBodyId found = tbWorld_FindBody( w->world, tbBody_GetName( body ) );
				TB_FUZZ_CHECK( TB_IS_NON_NULL( found ), "tbWorld_FindBody did not find a body by its new name" );
			}
			break;
		}
		default: {
			tbShapeId shapes[8];
			tbJointId joints[8];
			int n = tbBody_GetShapes( body, shapes, 8 );
			int m = tbBody_GetJoints( body, joints, 8 );
			TB_FUZZ_CHECK( n >= 0 && m >= 0, "negative shape or joint count" );
			for ( int i = 0; i < n && i < 8; ++i )
			{
				TB_FUZZ_CHECK( tbShape_IsValid( shapes[i] ), "tbBody_GetShapes returned an invalid shape" );
				TB_FUZZ_CHECK( TB_ID_EQUALS( tbShape_GetBody( shapes[i] ), body ), "a shape's body is not its body" );
			}
			tbAABB box = tbBody_ComputeAABB( body );
			(void)box;
			break;
		}
	}
}

static void tbOpShapeSetters( tbFuzzWorld* w )
{
	tbShapeId shape = tbPickShape( w );
	bool live = tbShape_IsValid( shape );
	float value = tbValue( w, 0.0f, 3.0f );
	bool bad = !( value >= 0.0f ) || !tbFinite( value );
	tbTrace( "shape setter value %g\n", (double)value );
	tbResult r;
	switch ( tbFuzz_Byte( w->in ) % 6 )
	{
		case 0:
			r = tbShape_SetFriction( shape, value );
			break;
		case 1:
			r = tbShape_SetRestitution( shape, value );
			break;
		case 2:
			r = tbShape_SetDensity( shape, value * 1000.0f, tbFuzz_Bool( w->in ) );
			break;
		case 3:
			r = tbShape_SetFilter( shape, tbFuzz_U32( w->in ), ~(uint64_t)tbFuzz_Byte( w->in ),
								   (int8_t)tbFuzz_Byte( w->in ) );
			bad = false;
			break;
		case 4: {
			r = tbDestroyShape( shape, tbFuzz_Bool( w->in ) );
			bad = false;
			if ( live )
			{
				TB_FUZZ_CHECK( r == tbResult_ok, "tbDestroyShape of a live shape: %s", tbResultString( r ) );
				TB_FUZZ_CHECK( tbShape_IsValid( shape ) == false, "a destroyed shape is still valid" );
			}
			break;
		}
		default: {
			tbVec3 origin = tbVecValue( w, -10.0f, 10.0f );
			tbVec3 translation = tbVecValue( w, -20.0f, 20.0f );
			tbCastOutput out = tbShape_RayCast( shape, origin, translation );
			tbTrace(
				"shape ray cast from (%.9g, %.9g, %.9g) by (%.9g, %.9g, %.9g): hit %d fraction %.9g point (%g, %g, %g) "
				"normal (%g, %g, %g)\n",
				origin.x, origin.y, origin.z, translation.x, translation.y, translation.z, out.hit, out.fraction,
				out.point.x, out.point.y, out.point.z, out.normal.x, out.normal.y, out.normal.z );
			if ( out.hit )
			{
				TB_FUZZ_CHECK( isfinite( out.fraction ) && tbFuzz_IsFiniteVec3( out.point ) &&
								   tbFuzz_IsFiniteVec3( out.normal ),
							   "tbShape_RayCast hit is not finite" );
			}
			(void)tbShape_GetAABB( shape );
			(void)tbShape_GetType( shape );
			(void)tbShape_GetFriction( shape );
			(void)tbShape_GetDensity( shape );
			(void)tbShape_IsSensor( shape );
			return;
		}
	}
	TB_FUZZ_CHECK( r >= tbResult_ok && r < tbResult_count, "shape setter returned %d", (int)r );
	if ( live == false )
	{
		TB_FUZZ_CHECK( r != tbResult_ok, "a shape setter accepted a dead shape" );
	}
	else if ( bad )
	{
		TB_FUZZ_CHECK( r != tbResult_ok, "a shape setter accepted %g", (double)value );
	}
}

// Steps and queries -------------------------------------------------------------------------------

static void tbOpStep( tbFuzzWorld* w )
{
	if ( w->steps >= TB_FW_MAX_STEPS )
	{
		return;
	}
	float dt;
	uint8_t s = tbFuzz_Byte( w->in );
	if ( s < 160 )
	{
		dt = 1.0f / 60.0f;
	}
	else if ( s < 224 )
	{
		dt = tbFuzz_FloatIn( w->in, 0.0f, 1.0f );
	}
	else
	{
		dt = tbFuzz_OddFloat( w->in );
	}
	if ( dt > 0.0f && dt < 1.0e-6f && tbFuzz_IsKnown( "tiny-dt" ) )
	{
		dt = 0.0f; // open finding: spring joints turn NaN for a denormal time step
	}
	bool bad = !( dt >= 0.0f && dt <= 1.0f );
	tbTrace( "step %d dt %g\n", w->steps, (double)dt );
	w->inStep = true;
	tbResult r = tbWorld_Step( w->world, dt );
	w->inStep = false;
	tbExpectRejected( bad, r, "tbWorld_Step" );
	w->steps += 1;
	TB_FUZZ_CHECK( tbWorld_IsLocked( w->world ) == false, "the world is still locked after a step" );
	// A refused step, or one under 1e-6 s (tbWorld_Step only advances the clock), moves nothing, so
	// the speed clamp has not acted.
	tbCheckWorldState( w, "after a step", r == tbResult_ok && dt >= 1.0e-6f );

	tbContactEvents events = tbWorld_GetContactEvents( w->world );
	TB_FUZZ_CHECK( events.beginCount >= 0 && events.endCount >= 0, "negative event counts" );
	for ( int i = 0; i < events.beginCount; ++i )
	{
		TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( events.beginEvents[i].point ) &&
						   tbFuzz_IsFiniteVec3( events.beginEvents[i].normal ),
					   "contact begin event not finite" );
	}
	tbContactData contacts[8];
	int n = tbWorld_GetContacts( w->world, contacts, 8 );
	for ( int i = 0; i < n && i < 8; ++i )
	{
		TB_FUZZ_CHECK( contacts[i].manifold.pointCount >= 0 && contacts[i].manifold.pointCount <= 4,
					   "a contact has %d points", contacts[i].manifold.pointCount );
	}
	(void)tbWorld_GetSensorEvents( w->world );
	(void)tbWorld_GetJointBreakEvents( w->world );
	tbWorldCounters counters = tbWorld_GetCounters( w->world );
	TB_FUZZ_CHECK( counters.bodyCount == w->liveBodies, "counters.bodyCount %d, expected %d", counters.bodyCount,
				   w->liveBodies );
	(void)tbWorld_GetStateHash( w->world );
}

static float tbCastCallback( tbShapeId shapeId, tbVec3 point, tbVec3 normal, float fraction, void* context )
{
	tbFuzzWorld* w = context;
	TB_FUZZ_EXPECT( w->queryDestroyed ? "query-mutation" : "query-invalid-shape", tbShape_IsValid( shapeId ),
					"ray callback with an invalid shape%s",
					w->queryDestroyed ? " after the callback destroyed a body during the query" : "" );
	TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( point ) && tbFuzz_IsFiniteVec3( normal ) && isfinite( fraction ),
				   "ray callback with non-finite values" );
	w->queryCalls += 1;
	if ( w->queryMutates && w->queryCalls == 1 )
	{
		tbBodyId body = tbShape_GetBody( shapeId );
		tbResult r = tbDestroyBody( body );
		tbTrace( "  tbDestroyBody from a ray callback -> %s\n", tbResultString( r ) );
		if ( r == tbResult_ok )
		{
			w->queryDestroyed = true;
			for ( int i = 0; i < w->bodyCount; ++i )
			{
				if ( w->bodyLive[i] && TB_ID_EQUALS( w->bodies[i], body ) )
				{
					w->bodyLive[i] = false;
					w->liveBodies -= 1;
				}
			}
		}
	}
	return w->queryCalls > 64 ? 0.0f : w->castReturn;
}

static bool tbOverlapCallback( tbShapeId shapeId, void* context )
{
	tbFuzzWorld* w = context;
	TB_FUZZ_EXPECT( w->queryDestroyed ? "query-mutation" : "query-invalid-shape", tbShape_IsValid( shapeId ),
					"overlap callback with an invalid shape%s",
					w->queryDestroyed ? " after the callback destroyed a body during the query" : "" );
	w->queryCalls += 1;
	if ( w->queryMutates && w->queryCalls == 1 )
	{
		tbBodyId body = tbShape_GetBody( shapeId );
		tbResult r = tbDestroyBody( body );
		tbTrace( "  tbDestroyBody from an overlap callback -> %s\n", tbResultString( r ) );
		if ( r == tbResult_ok )
		{
			w->queryDestroyed = true;
			for ( int i = 0; i < w->bodyCount; ++i )
			{
				if ( w->bodyLive[i] && TB_ID_EQUALS( w->bodies[i], body ) )
				{
					w->bodyLive[i] = false;
					w->liveBodies -= 1;
				}
			}
		}
	}
	return w->queryCalls < 64 && ( w->castReturn > 0.5f );
}

static void tbOpQuery( tbFuzzWorld* w )
{
	tbQueryFilter filter = tbDefaultQueryFilter();
	if ( tbFuzz_Bool( w->in ) )
	{
		filter.categoryBits = tbFuzz_U32( w->in );
		filter.maskBits = tbFuzz_U32( w->in );
	}
	tbVec3 origin = tbVecValue( w, -20.0f, 20.0f );
	tbVec3 translation = tbVecValue( w, -40.0f, 40.0f );
	w->castReturn = tbValue( w, -0.5f, 1.5f );
	// Destroying a body from inside a query callback: either refused, or safe.
	w->queryMutates = tbFuzz_Byte( w->in ) < 16 && tbFuzz_IsKnown( "query-mutation" ) == false;
	w->queryDestroyed = false;
	w->queryCalls = 0;
	uint8_t kind = tbFuzz_Byte( w->in ) % 4;
	tbTrace( "query %d from (%g, %g, %g) by (%g, %g, %g), callback returns %g%s\n", (int)kind, TB_V3( origin ),
			 TB_V3( translation ), (double)w->castReturn, w->queryMutates ? ", destroys a body" : "" );
	switch ( kind )
	{
		case 0: {
			tbRayResult hit = tbWorld_CastRayClosest( w->world, origin, translation, filter );
			if ( hit.hit )
			{
				TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( origin ) && tbFuzz_IsFiniteVec3( translation ),
							   "a ray with NaN/inf hit something" );
				TB_FUZZ_CHECK( isfinite( hit.fraction ) && hit.fraction >= 0.0f && hit.fraction <= 1.0f,
							   "closest ray fraction %g", (double)hit.fraction );
				TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( hit.point ) && tbFuzz_IsUnit( hit.normal, 1.0e-3f ),
							   "closest ray hit point/normal" );
				TB_FUZZ_CHECK( tbShape_IsValid( hit.shapeId ) && tbBody_IsValid( hit.bodyId ),
							   "closest ray hit an invalid shape or body" );
			}
			break;
		}
		case 1:
			tbWorld_CastRay( w->world, origin, translation, filter, tbCastCallback, w );
			break;
		case 2: {
			tbAABB box = { origin, tbAdd( origin, translation ) };
			tbWorld_OverlapAABB( w->world, box, filter, tbOverlapCallback, w );
			break;
		}
		default:
			tbWorld_OverlapSphere( w->world, origin, tbValue( w, 0.0f, 10.0f ), filter, tbOverlapCallback, w );
			break;
	}
	w->queryMutates = false;
}

static void tbOpWorldSettings( tbFuzzWorld* w )
{
	switch ( tbFuzz_Byte( w->in ) % 3 )
	{
		case 0: {
			tbVec3 g = tbVecValue( w, -30.0f, 30.0f );
			tbExpectRejected( !tbFuzz_IsFiniteVec3( g ), tbWorld_SetGravity( w->world, g ), "tbWorld_SetGravity" );
			break;
		}
		case 1: {
			// The cookie is not required here: only the values count.
			bool bad = false, badCookie = false;
			tbWorldDef def = tbReadWorldDef( w, &bad, &badCookie );
			tbExpectRejected( bad, tbWorld_SetSolver( w->world, &def ), "tbWorld_SetSolver" );
			break;
		}
		default:
			tbWorld_EnableSleeping( w->world, tbFuzz_Bool( w->in ) );
			break;
	}
}

// Joints ------------------------------------------------------------------------------------------

static int tbCustomRows( tbJointId jointId, const tbCustomRowsInput* input, tbCustomRow rows[TB_MAX_CUSTOM_ROWS],
						 void* context )
{
	tbFuzzWorld* w = context;
	TB_FUZZ_CHECK( tbJoint_IsValid( jointId ), "custom rows callback for an invalid joint" );
	TB_FUZZ_CHECK( isfinite( input->timeStep ) && isfinite( input->subStep ), "custom rows input time not finite" );
	if ( w->callbackMutates && w->inStep )
	{
		tbBodyDef def = tbDefaultBodyDef();
		tbBodyId id = tb_nullBodyId;
		tbResult r = tbCreateBodyChecked( w->world, &def, &id );
		TB_FUZZ_CHECK( r == tbResult_worldLocked, "tbCreateBody during a step returned %s", tbResultString( r ) );
		if ( w->bodyCount > 0 )
		{
			r = tbDestroyBody( w->bodies[0] );
			TB_FUZZ_CHECK( r == tbResult_worldLocked || r == tbResult_invalidId,
						   "tbDestroyBody during a step returned %s", tbResultString( r ) );
		}
		r = tbWorld_Step( w->world, 1.0f / 60.0f );
		TB_FUZZ_CHECK( r == tbResult_worldLocked, "tbWorld_Step during a step returned %s", tbResultString( r ) );
	}
	int count = w->customRows;
	for ( int i = 0; i < TB_MAX_CUSTOM_ROWS; ++i )
	{
		for ( int k = 0; k < 12; ++k )
		{
			rows[i].J[k] = tbFuzz_RandomSigned( &w->rowSeed );
		}
		rows[i].bias = tbFuzz_RandomSigned( &w->rowSeed );
		rows[i].positionError = 0.1f * tbFuzz_RandomSigned( &w->rowSeed );
		rows[i].lower = -FLT_MAX;
		rows[i].upper = FLT_MAX;
		uint32_t odd = tbFuzz_NextRandom( &w->rowSeed ) % 16;
		if ( odd == 0 )
		{
			rows[i].J[odd % 12] = NAN;
		}
		else if ( odd == 1 )
		{
			rows[i].lower = 1.0f;
			rows[i].upper = -1.0f; // an empty impulse range
		}
		else if ( odd == 2 )
		{
			memset( rows[i].J, 0, sizeof( rows[i].J ) ); // a zero Jacobian (zero effective mass)
		}
		else if ( odd == 3 )
		{
			rows[i].bias = INFINITY;
		}
	}
	return count;
}

static void tbFillJointBase( tbFuzzWorld* w, tbJointDef* base, bool* bad )
{
	int slotA, slotB;
	base->bodyA = tbPickBody( w, &slotA );
	base->bodyB = tbPickBody( w, &slotB );
	bool validA = TB_IS_NULL( base->bodyA ) || tbBody_IsValid( base->bodyA );
	bool validB = TB_IS_NULL( base->bodyB ) || tbBody_IsValid( base->bodyB );
	*bad = *bad || !validA || !validB || ( TB_IS_NULL( base->bodyA ) && TB_IS_NULL( base->bodyB ) ) ||
		   ( TB_IS_NON_NULL( base->bodyA ) && TB_ID_EQUALS( base->bodyA, base->bodyB ) );
	if ( tbFuzz_Bool( w->in ) )
	{
		tbVec3 anchor = tbVecValue( w, -10.0f, 10.0f );
		tbVec3 axis = tbVecValue( w, -1.0f, 1.0f );
		tbResult r = tbJointFramesFromWorld( base->bodyA, base->bodyB, anchor, axis, base );
		bool badFrames = !tbFuzz_IsFiniteVec3( anchor ) || !tbFuzz_IsFiniteVec3( axis ) || !validA || !validB;
		tbExpectRejected( badFrames, r, "tbJointFramesFromWorld" );
	}
	else
	{
		base->localFrameA.p = tbVecValue( w, -2.0f, 2.0f );
		base->localFrameA.q = tbQuatValue( w );
		base->localFrameB.p = tbVecValue( w, -2.0f, 2.0f );
		base->localFrameB.q = tbQuatValue( w );
		*bad = *bad || !tbFuzz_IsFiniteVec3( base->localFrameA.p ) || !tbFuzz_IsFiniteVec3( base->localFrameB.p ) ||
			   !tbFiniteQuat( base->localFrameA.q ) || !tbFiniteQuat( base->localFrameB.q );
	}
	tbTrace(
		"joint bodies slots %d %d (null %d %d) frameA (%g, %g, %g) (%g, %g, %g, %g) frameB (%g, %g, %g) (%g, %g, %g, "
		"%g)\n",
		slotA, slotB, (int)TB_IS_NULL( base->bodyA ), (int)TB_IS_NULL( base->bodyB ), TB_V3( base->localFrameA.p ),
		TB_Q4( base->localFrameA.q ), TB_V3( base->localFrameB.p ), TB_Q4( base->localFrameB.q ) );
	uint8_t flags = tbFuzz_Byte( w->in );
	base->collideConnected = flags & 1;
	if ( flags & 2 )
	{
		base->breakForce = tbValue( w, 0.0f, 1.0e4f );
		base->breakTorque = tbValue( w, 0.0f, 1.0e4f );
		*bad = *bad || !( base->breakForce >= 0.0f ) || !( base->breakTorque >= 0.0f ) || isnan( base->breakForce ) ||
			   isnan( base->breakTorque );
	}
	if ( flags == 0xFF )
	{
		base->internalValue = 0;
		*bad = true;
	}
}

static void tbOpCreateJoint( tbFuzzWorld* w )
{
	bool bad = false;
	tbResult r = tbResult_count;
	tbJointId id = tb_nullJointId;
	const char* call = "";
	switch ( tbFuzz_Byte( w->in ) % tbJoint_typeCount )
	{
		case tbJoint_distance: {
			tbDistanceJointDef def = tbDefaultDistanceJointDef();
			tbFillJointBase( w, &def.base, &bad );
			def.length = tbValue( w, 0.0f, 5.0f );
			def.enableSpring = tbFuzz_Bool( w->in );
			def.hertz = tbValue( w, 0.0f, 30.0f );
			def.dampingRatio = tbValue( w, 0.0f, 2.0f );
			def.enableLimit = tbFuzz_Bool( w->in );
			def.minLength = tbValue( w, 0.0f, 3.0f );
			def.maxLength = tbValue( w, 0.0f, 6.0f );
			bad = bad || !tbFinite( def.length ) || def.length < 0.0f || !tbFinite( def.hertz ) || def.hertz < 0.0f ||
				  !tbFinite( def.dampingRatio ) || def.dampingRatio < 0.0f || isnan( def.minLength ) ||
				  isnan( def.maxLength );
			tbTrace( "distance length %g spring %d hertz %g damping %g limit %d [%g, %g]\n", (double)def.length,
					 (int)def.enableSpring, (double)def.hertz, (double)def.dampingRatio, (int)def.enableLimit,
					 (double)def.minLength, (double)def.maxLength );
			id = tbCreateDistanceJoint( w->world, &def, &r );
			call = "tbCreateDistanceJoint";
			break;
		}
		case tbJoint_ball: {
			tbBallJointDef def = tbDefaultBallJointDef();
			tbFillJointBase( w, &def.base, &bad );
			id = tbCreateBallJoint( w->world, &def, &r );
			call = "tbCreateBallJoint";
			break;
		}
		case tbJoint_hinge: {
			tbHingeJointDef def = tbDefaultHingeJointDef();
			tbFillJointBase( w, &def.base, &bad );
			def.enableLimit = tbFuzz_Bool( w->in );
			def.lowerAngle = tbValue( w, -TB_PI, TB_PI );
			def.upperAngle = tbValue( w, -TB_PI, TB_PI );
			def.enableMotor = tbFuzz_Bool( w->in );
			def.motorSpeed = tbValue( w, -20.0f, 20.0f );
			def.maxMotorTorque = tbValue( w, 0.0f, 1000.0f );
			def.enableServo = tbFuzz_Bool( w->in );
			def.servoAngle = tbValue( w, -TB_PI, TB_PI );
			def.maxServoTorque = tbValue( w, 0.0f, 1000.0f );
			def.servoGain = tbValue( w, 0.1f, 50.0f );
			def.maxServoSpeed = tbValue( w, 0.1f, 20.0f );
			// +inf maxima are unlimited (see the slider below); NaN and negative ones are invalid.
			bad = bad || isnan( def.lowerAngle ) || isnan( def.upperAngle ) || !tbFinite( def.motorSpeed ) ||
				  isnan( def.maxMotorTorque ) || def.maxMotorTorque < 0.0f || isnan( def.servoAngle ) ||
				  isnan( def.maxServoTorque ) || def.maxServoTorque < 0.0f || !( def.servoGain > 0.0f ) ||
				  !( def.maxServoSpeed > 0.0f );
			id = tbCreateHingeJoint( w->world, &def, &r );
			call = "tbCreateHingeJoint";
			break;
		}
		case tbJoint_cone: {
			tbConeJointDef def = tbDefaultConeJointDef();
			tbFillJointBase( w, &def.base, &bad );
			def.enableConeLimit = tbFuzz_Bool( w->in );
			def.coneAngle = tbValue( w, 0.01f, TB_PI );
			def.enablePyramidLimit = tbFuzz_Bool( w->in );
			def.maxSwingY = tbValue( w, 0.01f, TB_PI );
			def.maxSwingZ = tbValue( w, 0.01f, TB_PI );
			def.enableTwistLimit = tbFuzz_Bool( w->in );
			def.lowerTwist = tbValue( w, -TB_PI, TB_PI );
			def.upperTwist = tbValue( w, -TB_PI, TB_PI );
			bad = bad || isnan( def.coneAngle ) || isnan( def.maxSwingY ) || isnan( def.maxSwingZ ) ||
				  isnan( def.lowerTwist ) || isnan( def.upperTwist );
			id = tbCreateConeJoint( w->world, &def, &r );
			call = "tbCreateConeJoint";
			break;
		}
		case tbJoint_fixed: {
			tbFixedJointDef def = tbDefaultFixedJointDef();
			tbFillJointBase( w, &def.base, &bad );
			id = tbCreateFixedJoint( w->world, &def, &r );
			call = "tbCreateFixedJoint";
			break;
		}
		case tbJoint_slider: {
			tbSliderJointDef def = tbDefaultSliderJointDef();
			tbFillJointBase( w, &def.base, &bad );
			def.enableLimit = tbFuzz_Bool( w->in );
			def.lowerTranslation = tbValue( w, -3.0f, 3.0f );
			def.upperTranslation = tbValue( w, -3.0f, 3.0f );
			def.enableMotor = tbFuzz_Bool( w->in );
			def.motorSpeed = tbValue( w, -10.0f, 10.0f );
			def.maxMotorForce = tbValue( w, 0.0f, 1000.0f );
			// A maximum force of +inf is an unlimited motor (slider_joint.c accepts it, as the
			// motor joint's FLT_MAX default); only NaN and negative maxima are invalid.
			bad = bad || isnan( def.lowerTranslation ) || isnan( def.upperTranslation ) ||
				  !tbFinite( def.motorSpeed ) || isnan( def.maxMotorForce ) || def.maxMotorForce < 0.0f;
			id = tbCreateSliderJoint( w->world, &def, &r );
			call = "tbCreateSliderJoint";
			break;
		}
		case tbJoint_sixDof: {
			tbSixDofJointDef def = tbDefaultSixDofJointDef();
			tbFillJointBase( w, &def.base, &bad );
			for ( int axis = 0; axis < tbSixDof_axisCount; ++axis )
			{
				def.mode[axis] = (tbAxisMode)tbFuzz_IntIn( w->in, 0, 3 );
				def.lower[axis] = tbValue( w, -2.0f, 2.0f );
				def.upper[axis] = tbValue( w, -2.0f, 2.0f );
				def.enableMotor[axis] = tbFuzz_Bool( w->in );
				def.motorSpeed[axis] = tbValue( w, -5.0f, 5.0f );
				def.maxMotorForce[axis] = tbValue( w, 0.0f, 500.0f );
				// +inf maxima are unlimited motors, as for the slider (six_dof_joint.c accepts them).
				bad = bad || def.mode[axis] >= tbAxis_modeCount || isnan( def.lower[axis] ) ||
					  isnan( def.upper[axis] ) || !tbFinite( def.motorSpeed[axis] ) ||
					  isnan( def.maxMotorForce[axis] ) || def.maxMotorForce[axis] < 0.0f;
			}
			id = tbCreateSixDofJoint( w->world, &def, &r );
			call = "tbCreateSixDofJoint";
			break;
		}
		case tbJoint_motor: {
			tbMotorJointDef def = tbDefaultMotorJointDef();
			tbFillJointBase( w, &def.base, &bad );
			def.motorSpeed = tbValue( w, -20.0f, 20.0f );
			if ( tbFuzz_Bool( w->in ) )
			{
				def.maxMotorTorque = tbValue( w, 0.0f, 1000.0f );
			}
			bad = bad || !tbFinite( def.motorSpeed ) || isnan( def.maxMotorTorque ) || def.maxMotorTorque < 0.0f;
			id = tbCreateMotorJoint( w->world, &def, &r );
			call = "tbCreateMotorJoint";
			break;
		}
		case tbJoint_mouse: {
			tbMouseJointDef def = tbDefaultMouseJointDef();
			tbFillJointBase( w, &def.base, &bad );
			def.target = tbVecValue( w, -10.0f, 10.0f );
			def.hertz = tbValue( w, 0.1f, 30.0f );
			def.dampingRatio = tbValue( w, 0.0f, 2.0f );
			def.maxForce = tbValue( w, 0.0f, 1.0e4f );
			bad = bad || !tbFuzz_IsFiniteVec3( def.target ) || !( def.hertz > 0.0f ) || !tbFinite( def.hertz ) ||
				  !tbFinite( def.dampingRatio ) || def.dampingRatio < 0.0f || isnan( def.maxForce ) ||
				  def.maxForce < 0.0f;
			id = tbCreateMouseJoint( w->world, &def, &r );
			call = "tbCreateMouseJoint";
			break;
		}
		case tbJoint_wheel: {
			tbWheelJointDef def = tbDefaultWheelJointDef();
			tbFillJointBase( w, &def.base, &bad );
			def.enableSpring = tbFuzz_Bool( w->in );
			def.stiffness = tbValue( w, 0.0f, 1.0e5f );
			def.damping = tbValue( w, 0.0f, 1.0e4f );
			def.hertz = tbValue( w, 0.0f, 30.0f );
			def.dampingRatio = tbValue( w, 0.0f, 2.0f );
			def.enableLimit = tbFuzz_Bool( w->in );
			def.lowerTranslation = tbValue( w, -3.0f, 3.0f );
			def.upperTranslation = tbValue( w, -3.0f, 3.0f );
			def.enableMotor = tbFuzz_Bool( w->in );
			def.motorSpeed = tbValue( w, -20.0f, 20.0f );
			def.maxMotorTorque = tbValue( w, 0.0f, 1000.0f );
			bad = bad || !tbFinite( def.stiffness ) || def.stiffness < 0.0f || !tbFinite( def.damping ) ||
				  def.damping < 0.0f || !tbFinite( def.hertz ) || def.hertz < 0.0f || !tbFinite( def.dampingRatio ) ||
				  def.dampingRatio < 0.0f || !tbFinite( def.lowerTranslation ) || !tbFinite( def.upperTranslation ) ||
				  !tbFinite( def.motorSpeed ) || !tbFinite( def.maxMotorTorque ) || def.maxMotorTorque < 0.0f;
			id = tbCreateWheelJoint( w->world, &def, &r );
			call = "tbCreateWheelJoint";
			break;
		}
		default: {
			tbCustomJointDef def = tbDefaultCustomJointDef();
			tbFillJointBase( w, &def.base, &bad );
			def.rowsFcn = tbFuzz_Byte( w->in ) < 8 ? NULL : tbCustomRows;
			def.context = w;
			def.everySubStep = tbFuzz_Bool( w->in );
			bad = bad || def.rowsFcn == NULL;
			w->customRows = tbFuzz_IntIn( w->in, -2, TB_MAX_CUSTOM_ROWS + 2 );
			w->rowSeed = tbFuzz_U32( w->in );
			w->callbackMutates = tbFuzz_Byte( w->in ) < 32;
			id = tbCreateCustomJoint( w->world, &def, &r );
			call = "tbCreateCustomJoint";
			break;
		}
	}
	tbTrace( "joint %s\n", call );
	// Some combinations the fuzzer cannot judge (limits in the wrong order, joint-specific ranges)
	// may be refused too; only accepting a clearly bad def is an error.
	tbExpectRejected( bad, r, call );
	if ( r == tbResult_ok )
	{
		TB_FUZZ_CHECK( tbJoint_IsValid( id ), "%s: a new joint's id is not valid", call );
		tbTrackJoint( w, id );
	}
	else
	{
		TB_FUZZ_CHECK( TB_IS_NULL( id ), "%s: a refused joint has an id", call );
	}
}

static void tbOpJointSetters( tbFuzzWorld* w )
{
	tbJointId joint = tbPickJoint( w );
	bool live = tbJoint_IsValid( joint );
	float a = tbValue( w, -3.0f, 3.0f );
	float b = tbValue( w, -3.0f, 3.0f );
	tbTrace( "joint setter a %g b %g\n", (double)a, (double)b );
	tbResult r = tbResult_ok;
	bool bad = !tbFinite( a ) || !tbFinite( b );
	switch ( tbFuzz_Byte( w->in ) % 16 )
	{
		case 0:
			r = tbDestroyJoint( joint );
			bad = false;
			if ( live )
			{
				TB_FUZZ_CHECK( r == tbResult_ok && tbJoint_IsValid( joint ) == false, "tbDestroyJoint failed" );
			}
			break;
		case 1:
			r = tbJoint_SetEnabled( joint, a > 0.0f );
			bad = false;
			break;
		case 2:
			r = tbJoint_SetBreakForce( joint, a * 1000.0f );
			bad = isnan( a ) || a < 0.0f;
			break;
		case 3: {
			tbTransform fa = { tbVecValue( w, -2.0f, 2.0f ), tbQuatValue( w ) };
			tbTransform fb = { tbVecValue( w, -2.0f, 2.0f ), tbQuatValue( w ) };
			r = tbJoint_SetLocalFrames( joint, fa, fb );
			bad = !tbFuzz_IsFiniteVec3( fa.p ) || !tbFuzz_IsFiniteVec3( fb.p ) || !tbFiniteQuat( fa.q ) ||
				  !tbFiniteQuat( fb.q );
			break;
		}
		case 4:
			r = tbDistanceJoint_SetLengthRange( joint, a, b );
			bad = isnan( a ) || isnan( b );
			break;
		case 5:
			r = tbDistanceJoint_SetSpringHertz( joint, a );
			bad = !tbFinite( a ) || a < 0.0f;
			break;
		case 6:
			r = tbHingeJoint_SetLimits( joint, a, b );
			bad = isnan( a ) || isnan( b );
			break;
		case 7:
			r = tbHingeJoint_SetMotorSpeed( joint, a * 10.0f );
			bad = !tbFinite( a );
			break;
		case 8:
			r = tbHingeJoint_SetServoGain( joint, a, b );
			bad = !( a > 0.0f ) || !( b > 0.0f ) || !tbFinite( a ) || !tbFinite( b );
			break;
		case 9:
			r = tbConeJoint_SetConeAngle( joint, a );
			bad = isnan( a );
			break;
		case 10:
			r = tbConeJoint_SetTwistLimits( joint, a, b );
			bad = isnan( a ) || isnan( b );
			break;
		case 11:
			r = tbSliderJoint_SetLimits( joint, a, b );
			bad = isnan( a ) || isnan( b );
			break;
		case 12: {
			tbSixDofAxis axis = (tbSixDofAxis)tbFuzz_IntIn( w->in, 0, 7 );
			tbAxisMode mode = (tbAxisMode)tbFuzz_IntIn( w->in, 0, 4 );
			r = tbSixDofJoint_SetAxisMode( joint, axis, mode );
			bad = axis >= tbSixDof_axisCount || mode >= tbAxis_modeCount;
			tbResult r2 = tbSixDofJoint_SetAxisLimits( joint, axis, a, b );
			TB_FUZZ_CHECK( r2 >= tbResult_ok && r2 < tbResult_count, "tbSixDofJoint_SetAxisLimits returned %d",
						   (int)r2 );
			(void)tbSixDofJoint_GetAxisPosition( joint, axis );
			break;
		}
		case 13:
			r = tbMouseJoint_SetTarget( joint, tbMakeVec3( a, b, a ) );
			break;
		case 14:
			r = tbMotorJoint_SetMaxMotorTorque( joint, a * 100.0f );
			bad = isnan( a ) || a < 0.0f;
			break;
		default: {
			float pos = 0.0f, angle = 0.0f;
			(void)tbJoint_GetError( joint, &pos, &angle );
			(void)tbJoint_GetConstraintForce( joint );
			(void)tbJoint_GetConstraintTorque( joint );
			(void)tbJoint_GetWorldFrameA( joint );
			(void)tbHingeJoint_GetAngle( joint );
			(void)tbConeJoint_GetSwingAngle( joint );
			(void)tbSliderJoint_GetTranslation( joint );
			(void)tbDistanceJoint_GetCurrentLength( joint );
			(void)tbCustomJoint_GetRowImpulse( joint, tbFuzz_IntIn( w->in, -2, 8 ) );
			r = tbJoint_WakeBodies( joint );
			bad = false;
			break;
		}
	}
	TB_FUZZ_CHECK( r >= tbResult_ok && r < tbResult_count, "joint setter returned %d", (int)r );
	if ( live == false )
	{
		TB_FUZZ_CHECK( r != tbResult_ok, "a joint setter accepted a dead or made-up joint" );
	}
	else if ( bad )
	{
		TB_FUZZ_CHECK( r != tbResult_ok, "a joint setter accepted an invalid value (%g, %g)", (double)a, (double)b );
	}
}

// Movers ------------------------------------------------------------------------------------------

static void tbOpMover( tbFuzzWorld* w )
{
	uint8_t op = tbFuzz_Byte( w->in ) % 8;
	if ( op == 0 )
	{
		int slot;
		tbBodyId body = tbPickBody( w, &slot );
		tbResult r = tbResult_count;
		tbMoverId id = tbCreateMover( body, &r );
		tbTrace( "  tbCreateMover(body slot %d) -> %s\n", slot, tbResultString( r ) );
		TB_FUZZ_CHECK( r >= tbResult_ok && r < tbResult_count, "tbCreateMover result %d", (int)r );
		if ( r == tbResult_ok && w->moverCount < TB_FW_MAX_MOVERS )
		{
			w->movers[w->moverCount++] = id;
		}
		return;
	}
	tbMoverId mover = tbPickMover( w );
	tbResult r = tbResult_ok;
	bool bad = false;
	switch ( op )
	{
		case 1:
			r = tbDestroyMover( mover );
			break;
		case 2: {
			tbVec3 v = tbVecValue( w, -5.0f, 5.0f );
			tbVec3 omega = tbVecValue( w, -5.0f, 5.0f );
			r = tbMover_SetVelocity( mover, v, omega );
			tbTrace( "mover velocity (%g, %g, %g) angular (%g, %g, %g)\n", v.x, v.y, v.z, omega.x, omega.y, omega.z );
			bad = !tbIsBoundedVec3( v, TB_MAX_SPEED ) || !tbIsBoundedVec3( omega, TB_MAX_ANGULAR_SPEED );
			break;
		}
		case 3: {
			tbVec3 points[8];
			float waits[8];
			tbMoverPathDef def = tbDefaultMoverPathDef();
			def.pointCount = tbFuzz_IntIn( w->in, 0, 8 );
			for ( int i = 0; i < def.pointCount; ++i )
			{
				points[i] = tbVecValue( w, -10.0f, 10.0f );
				waits[i] = tbValue( w, 0.0f, 1.0f );
				bad = bad || !tbIsBoundedVec3( points[i], TB_MAX_POSITION );
			}
			def.points = points;
			def.waits = tbFuzz_Bool( w->in ) ? waits : NULL;
			def.interpolation = (tbPathInterpolation)tbFuzz_IntIn( w->in, 0, 3 );
			def.end = (tbPathEnd)tbFuzz_IntIn( w->in, 0, 4 );
			def.speed = tbValue( w, 0.1f, 10.0f );
			if ( tbFuzz_Bool( w->in ) )
			{
				def.acceleration = tbValue( w, 0.1f, 20.0f );
			}
			bad = bad || def.pointCount < 2 || def.interpolation >= tbPath_interpolationCount ||
				  def.end >= tbPath_endCount || !( def.speed > 0.0f ) || !( def.speed <= TB_MAX_SPEED ) ||
				  !( def.acceleration > 0.0f ) || isnan( def.acceleration );
			r = tbMover_SetPath( mover, &def );
			tbTrace( "mover path of %d points, interpolation %d end %d speed %g acceleration %g\n", def.pointCount,
					 (int)def.interpolation, (int)def.end, def.speed, def.acceleration );
			for ( int i = 0; i < def.pointCount; ++i )
			{
				tbTrace( "  point (%g, %g, %g) wait %g\n", points[i].x, points[i].y, points[i].z,
						 def.waits != NULL ? waits[i] : 0.0f );
			}
			break;
		}
		case 4: {
			float speed = tbValue( w, 0.1f, 10.0f );
			r = tbMover_SetPathSpeed( mover, speed );
			tbTrace( "mover path speed %g\n", speed );
			bad = !( speed > 0.0f ) || !( speed <= TB_MAX_SPEED );
			break;
		}
		case 5: {
			tbVec3 p = tbVecValue( w, -10.0f, 10.0f );
			tbQuat q = tbQuatValue( w );
			float duration = tbValue( w, 0.01f, 3.0f );
			r = tbMover_MoveTo( mover, p, q, duration );
			tbTrace( "mover move to (%g, %g, %g) rotation (%g, %g, %g, %g) in %g s\n", p.x, p.y, p.z, q.x, q.y, q.z,
					 q.w, duration );
			bad = !tbFuzz_IsFiniteVec3( p ) || !tbFiniteQuat( q ) || !( duration > 0.0f ) || !tbFinite( duration );
			break;
		}
		case 6:
			r = tbMover_SetPaused( mover, tbFuzz_Bool( w->in ) );
			break;
		default:
			r = tbMover_Stop( mover );
			(void)tbMover_GetPathDistance( mover );
			(void)tbMover_GetPathLength( mover );
			(void)tbMover_GetLapCount( mover );
			(void)tbMover_IsFinished( mover );
			break;
	}
	tbExpectRejected( bad && tbMover_IsValid( mover ), r, "mover call" );
}

// Reading state of arbitrary ids ------------------------------------------------------------------

static void tbOpInspect( tbFuzzWorld* w )
{
	int slot;
	tbBodyId body = tbPickBody( w, &slot );
	bool valid = tbBody_IsValid( body );
	if ( slot >= 0 )
	{
		TB_FUZZ_CHECK( valid == w->bodyLive[slot], "tbBody_IsValid %d for a body that is %s", (int)valid,
					   w->bodyLive[slot] ? "live" : "destroyed" );
	}
	tbTransform xf = tbBody_GetTransform( body );
	(void)tbBody_GetType( body );
	(void)tbBody_GetWorldCenterOfMass( body );
	(void)tbBody_GetLocalCenterOfMass( body );
	(void)tbBody_GetPointVelocity( body, tbVecValue( w, -5.0f, 5.0f ) );
	(void)tbBody_GetMass( body );
	(void)tbBody_GetLocalInertia( body );
	(void)tbBody_GetGravityScale( body );
	(void)tbBody_IsAwake( body );
	(void)tbBody_IsBullet( body );
	(void)tbBody_GetName( body );
	(void)tbBody_GetWorld( body );
	if ( valid )
	{
		TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( xf.p ) && tbFuzz_IsFiniteQuat( xf.q ), "a live body's pose is not finite" );
	}
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	tbFuzz_InstallHandlers();
	tbFuzzInput in = tbFuzz_MakeInput( data, size );
	static tbFuzzWorld w;
	memset( &w, 0, sizeof( w ) );
	w.in = &in;
	tb_traceLength = 0;
	tb_trace[0] = '\0';
	tbFuzz_SetDescription( tbDescribeTrace, NULL );
	tbCreateFuzzWorld( &w );

	for ( int op = 0; op < TB_FW_MAX_OPS && tbFuzz_Done( &in ) == false; ++op )
	{
		uint8_t code = tbFuzz_Byte( &in );
		switch ( code % 32 )
		{
			case 0:
			case 1:
			case 2:
				tbOpCreateBody( &w );
				break;
			case 3:
			case 4:
				tbOpCreateShape( &w, 0 );
				break;
			case 5:
				tbOpCreateShape( &w, 1 );
				break;
			case 6:
			case 7:
				tbOpCreateShape( &w, 2 );
				break;
			case 8:
				tbOpCreateShape( &w, 3 );
				break;
			case 9:
				tbOpDestroyBody( &w );
				break;
			case 10:
			case 11:
			case 12:
			case 13:
				tbOpBodySetters( &w, tbFuzz_Byte( &in ) );
				break;
			case 14:
				tbOpShapeSetters( &w );
				break;
			case 15:
			case 16:
			case 17:
			case 18:
			case 19:
				tbOpStep( &w );
				break;
			case 20:
			case 21:
				tbOpQuery( &w );
				break;
			case 22:
				tbOpWorldSettings( &w );
				break;
			case 23:
			case 24:
				tbOpCreateJoint( &w );
				break;
			case 25:
				tbOpJointSetters( &w );
				break;
			case 26:
				tbOpMover( &w );
				break;
			case 27:
			case 28:
				tbOpInspect( &w );
				break;
			case 29:
				if ( w.worldCount < 4 )
				{
					tbDestroyFuzzWorld( &w );
					tbCreateFuzzWorld( &w );
					tbCheckWorldState( &w, "after recreating the world", false );
				}
				break;
			default:
				tbCheckWorldState( &w, "between calls", false );
				break;
		}
	}

	tbFuzz_DescribeIfAsked();
	tbDestroyWorld( w.world );
	return 0;
}
