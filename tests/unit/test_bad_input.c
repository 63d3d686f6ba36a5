// Tumble tests: bad input to the public C API (issue 7, docs/RELIABILITY.md "Bad input"). Every
// refused call must return its error AND leave the world as it was: the tests compare the world's
// state hash (tbWorld_GetStateHash) and the counters before and after. Also the degenerate shape
// pairs the narrow phase met in fuzzing (EPA on flat Minkowski differences).
// SPDX-License-Identifier: MIT
#include "tumble/tumble.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <string.h>

#define ASSERT_NEAR( a, b, tol )                                                                                       \
	do                                                                                                                 \
	{                                                                                                                  \
		float a_ = ( a ), b_ = ( b );                                                                                  \
		if ( !( fabsf( a_ - b_ ) <= ( tol ) ) )                                                                        \
		{                                                                                                              \
			fail_msg( "%s = %.9g, expected %.9g (tolerance %g)", #a, (double)a_, (double)b_, (double)( tol ) );        \
		}                                                                                                              \
	} while ( 0 )

// EPA on degenerate pairs ---------------------------------------------------------------------------

// Fuzz finding 14 (tests/fuzz/crashes/fuzz_collide/hang-epa-blow-up-simplex-capsules, decoded with
// TB_FUZZ_DESCRIBE=1): capsule A has a zero-length segment at P = (128, 128, 128), radius 24.633;
// capsule B runs from Q = (128, -125.99, -127.96) to P, radius 128. Their cores touch at P only, so
// the Minkowski difference of the cores is a segment with the origin at one end and
// tbShapePenetration looped forever growing it to a tetrahedron. The true answer: the cores touch
// (depth 0), so the penetration is the sum of the radii, along any direction that does not point
// back along the segment; moving B by depth * normal must leave the cores exactly touching.
static void test_epa_capsules_sharing_an_end( void** state )
{
	(void)state;
	const tbVec3 p = { 128.0f, 128.0f, 128.0f };
	const tbVec3 q = { 128.0f, -125.992157f, -127.960938f };
	const float radiusA = 24.6331425f;
	const float radiusB = 128.0f;
	tbVec3 pointsA[2] = { p, p };
	tbVec3 pointsB[2] = { q, p };
	// The fuzzer's rotation, a near identity that is not quite unit length, as decoded.
	tbQuat rotation = { 1.90734863e-06f, 0.0f, 0.0f, 1.0f };

	tbDistanceInput input;
	input.proxyA = ( tbShapeProxy ){ .points = pointsA, .count = 2, .radius = radiusA };
	input.proxyB = ( tbShapeProxy ){ .points = pointsB, .count = 2, .radius = radiusB };
	input.transformA = ( tbTransform ){ tb_vec3_zero, rotation };
	input.transformB = input.transformA;
	input.useRadii = true;

	tbPenetrationOutput out = tbShapePenetration( &input );
	assert_true( out.valid );
	assert_true( tbIsValidVec3( out.normal ) && tbIsValidVec3( out.pointA ) && tbIsValidVec3( out.pointB ) );
	assert_true( isfinite( out.depth ) );
	ASSERT_NEAR( tbLength( out.normal ), 1.0f, 1.0e-4f );
	// Float resolution at 360 m is ~3e-5 m; 1 mm is well above it and far below any wrong answer.
	ASSERT_NEAR( out.depth, radiusA + radiusB, 1.0e-3f );
	// The normal must not point back along B's segment (from P towards Q), or moving B along it
	// would push B's core through A's.
	tbVec3 along = tbNormalize( tbSub( q, p ) );
	assert_true( tbDot( out.normal, along ) <= 1.0e-3f );

	// Moved by depth * normal, the shapes touch: their distance with radii is 0 (to 1 mm).
	tbDistanceInput moved = input;
	moved.transformB.p = tbMulAdd( input.transformB.p, out.depth, out.normal );
	tbSimplexCache cache = { 0 };
	tbDistanceOutput apart = tbShapeDistance( &moved, &cache );
	ASSERT_NEAR( apart.distance, 0.0f, 1.0e-3f );
	moved.transformB.p = tbMulAdd( input.transformB.p, out.depth + 0.01f, out.normal );
	cache = ( tbSimplexCache ){ 0 };
	apart = tbShapeDistance( &moved, &cache );
	ASSERT_NEAR( apart.distance, 0.01f, 1.0e-3f );
}

// The same kind of pair at other scales and with B's segment along other axes: each call must
// return (the loop is bounded) with the radii as the depth.
static void test_epa_point_against_segment_end_scales( void** state )
{
	(void)state;
	const float scales[] = { 1.0e-3f, 1.0f, 37.0f, 1000.0f, 1.0e5f };
	const tbVec3 directions[] = { { 0.0f, -253.992157f, -255.960938f }, { 1.0f, 0.0f, 0.0f }, { 3.0f, -7.0f, 1.0e-3f } };
	for ( size_t i = 0; i < sizeof( scales ) / sizeof( scales[0] ); ++i )
	{
		for ( size_t k = 0; k < sizeof( directions ) / sizeof( directions[0] ); ++k )
		{
			float s = scales[i];
			tbVec3 p = tbMulSV( s, tbMakeVec3( 1.0f, 1.0f, 1.0f ) );
			tbVec3 q = tbMulAdd( p, 2.0f * s, tbNormalize( directions[k] ) );
			tbVec3 pointsA[2] = { p, p };
			tbVec3 pointsB[2] = { q, p };
			tbDistanceInput input;
			input.proxyA = ( tbShapeProxy ){ .points = pointsA, .count = 2, .radius = 0.2f * s };
			input.proxyB = ( tbShapeProxy ){ .points = pointsB, .count = 2, .radius = 0.5f * s };
			input.transformA = tb_transformIdentity;
			input.transformB = tb_transformIdentity;
			input.useRadii = true;
			tbPenetrationOutput out = tbShapePenetration( &input );
			assert_true( out.valid );
			// Relative tolerance: 1e-5 of the pair's size is the narrow phase's own tolerance.
			ASSERT_NEAR( out.depth, 0.7f * s, 1.0e-4f * s );
			ASSERT_NEAR( tbLength( out.normal ), 1.0f, 1.0e-4f );
		}
	}
}

// World API: a fixture and its fingerprint ---------------------------------------------------------

// A small world with one of each kind of object: ground, a resting box, a sphere on a distance
// joint, a hinged paddle, a kinematic mover. Stepped once so contacts and warm starts exist.
typedef struct Fixture
{
	tbWorldId world;
	tbBodyId ground;
	tbBodyId box;
	tbBodyId sphere;
	tbBodyId paddle;
	tbBodyId platform;
	tbShapeId boxShape;
	tbJointId rope;
	tbJointId hinge;
	tbMoverId mover;
} Fixture;

// Everything a refused call could have changed: the state hash covers poses, velocities and the
// contacts' impulses; the rest is read back through the getters.
typedef struct Fingerprint
{
	uint64_t hash;
	// The counters one by one (not a tbWorldCounters, whose padding memcmp would read); no timing or
	// allocation counts.
	int counts[9];
	float maxPenetration;
	float boxMass;
	tbVec3 boxInertia;
	float gravityScale;
	float friction;
	float density;
	float ropeLength;
	float hingeLower;
	float hingeUpper;
	float hingeSpeed;
	float breakForce;
	tbVec3 gravity;
	tbTransform frameA;
} Fingerprint;
_Static_assert( sizeof( Fingerprint ) == 136, "no padding: assertUnchanged compares Fingerprints with memcmp" );

// The fixture as set up, to put it back after a call that was (wrongly) accepted.
static tbSnapshot* s_snapshot = NULL;

static const float odd[] = { NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, 1.0e30f, -1.0e30f };
#define ODD_COUNT ( (int)( sizeof( odd ) / sizeof( odd[0] ) ) )

static tbBodyId addBody( tbWorldId world, tbBodyType type, tbVec3 position )
{
	tbBodyDef def = tbDefaultBodyDef();
	def.type = type;
	def.position = position;
	def.enableSleep = false;
	return tbCreateBody( world, &def );
}

static int setupFixture( void** state )
{
	static Fixture f;
	tbWorldDef wd = tbDefaultWorldDef();
	wd.enableSleep = false;
	f.world = tbCreateWorld( &wd );
	tbShapeDef sd = tbDefaultShapeDef();
	f.ground = addBody( f.world, tbBody_static, tbMakeVec3( 0.0f, 0.0f, -1.0f ) );
	tbCreateBoxShape( f.ground, &sd, tbMakeVec3( 20.0f, 20.0f, 1.0f ), tb_transformIdentity, NULL );
	f.box = addBody( f.world, tbBody_dynamic, tbMakeVec3( 0.0f, 0.0f, 0.5f ) );
	f.boxShape = tbCreateBoxShape( f.box, &sd, tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity, NULL );
	f.sphere = addBody( f.world, tbBody_dynamic, tbMakeVec3( 3.0f, 0.0f, 2.0f ) );
	tbSphere ball = { { 0.0f, 0.0f, 0.0f }, 0.25f };
	tbCreateSphereShape( f.sphere, &sd, &ball, NULL );
	f.paddle = addBody( f.world, tbBody_dynamic, tbMakeVec3( -3.0f, 0.0f, 2.0f ) );
	tbCreateBoxShape( f.paddle, &sd, tbMakeVec3( 0.5f, 0.1f, 0.5f ), tb_transformIdentity, NULL );
	f.platform = addBody( f.world, tbBody_kinematic, tbMakeVec3( 0.0f, 6.0f, 1.0f ) );
	tbCreateBoxShape( f.platform, &sd, tbMakeVec3( 1.0f, 1.0f, 0.1f ), tb_transformIdentity, NULL );

	tbDistanceJointDef rope = tbDefaultDistanceJointDef();
	rope.base.bodyB = f.sphere;
	rope.base.localFrameA.p = tbMakeVec3( 3.0f, 0.0f, 4.0f );
	rope.length = 2.0f;
	f.rope = tbCreateDistanceJoint( f.world, &rope, NULL );
	tbHingeJointDef hinge = tbDefaultHingeJointDef();
	tbJointFramesFromWorld( tb_nullBodyId, f.paddle, tbMakeVec3( -3.0f, 0.0f, 2.5f ), tbMakeVec3( 0.0f, 1.0f, 0.0f ),
							&hinge.base );
	hinge.enableLimit = true;
	hinge.lowerAngle = -0.5f;
	hinge.upperAngle = 0.5f;
	f.hinge = tbCreateHingeJoint( f.world, &hinge, NULL );
	f.mover = tbCreateMover( f.platform, NULL );
	tbMover_SetVelocity( f.mover, tbMakeVec3( 0.5f, 0.0f, 0.0f ), tb_vec3_zero );

	if ( TB_IS_NULL( f.box ) || TB_IS_NULL( f.rope ) || TB_IS_NULL( f.hinge ) || TB_IS_NULL( f.mover ) ||
		 TB_IS_NULL( f.boxShape ) )
	{
		return -1;
	}
	tbWorld_Step( f.world, 1.0f / 60.0f );
	s_snapshot = tbWorld_TakeSnapshot( f.world );
	*state = &f;
	return s_snapshot != NULL ? 0 : -1;
}

static int teardownFixture( void** state )
{
	Fixture* f = *state;
	tbDestroySnapshot( s_snapshot );
	tbDestroyWorld( f->world );
	return 0;
}

static Fingerprint fingerprint( const Fixture* f )
{
	Fingerprint p;
	memset( &p, 0, sizeof( p ) );
	p.hash = tbWorld_GetStateHash( f->world );
	tbWorldCounters c = tbWorld_GetCounters( f->world );
	int counts[9] = { c.bodyCount, c.awakeBodyCount, c.shapeCount, c.contactCount, c.reusedContactCount,
					  c.pairCount,  c.jointCount,     c.islandCount, c.treeHeight };
	memcpy( p.counts, counts, sizeof( counts ) );
	p.maxPenetration = c.maxPenetration;
	p.boxMass = tbBody_GetMass( f->box );
	tbMat3 inertia = tbBody_GetLocalInertia( f->box );
	p.boxInertia = tbMakeVec3( inertia.cx.x, inertia.cy.y, inertia.cz.z );
	p.gravityScale = tbBody_GetGravityScale( f->box );
	p.friction = tbShape_GetFriction( f->boxShape );
	p.density = tbShape_GetDensity( f->boxShape );
	p.ropeLength = tbDistanceJoint_GetLength( f->rope );
	p.hingeLower = tbHingeJoint_GetLowerLimit( f->hinge );
	p.hingeUpper = tbHingeJoint_GetUpperLimit( f->hinge );
	p.hingeSpeed = tbHingeJoint_GetMotorSpeed( f->hinge );
	p.breakForce = tbJoint_GetBreakForce( f->hinge );
	p.gravity = tbWorld_GetGravity( f->world );
	p.frameA = tbJoint_GetLocalFrameA( f->rope );
	return p;
}

static void assertUnchanged( const Fixture* f, const Fingerprint* before, const char* what, int k )
{
	Fingerprint after = fingerprint( f );
	if ( memcmp( before, &after, sizeof( after ) ) != 0 )
	{
		fail_msg( "%s with odd value #%d (%g) was refused but changed the world", what, k,
				  k >= 0 && k < ODD_COUNT ? (double)odd[k] : 0.0 );
	}
}

// Calls the audit found accepted although their value is out of range. Each is listed in
// docs/RELIABILITY.md ("Bad input") with what happens next; an accepted call not on this list
// fails the test, and so does a listed one that starts being refused (update the list and the doc).
static const char* const knownAccepted[] = {
	// Findings 22, 24 and 25 (distance length, gravity scale, mover target) are fixed: those
	// values are refused now, and so are mover velocities beyond TB_MAX_SPEED. Issue 16 gave
	// gravity, friction, restitution, damping, stiffnesses, hinge motor speeds and servo angles
	// their ranges (TB_MAX_GRAVITY ... in collision.h): refused now too.
	// Accepted huge finite values that stay finite for 60 steps (clamped by the speed limits, or
	// meaning "no limit"): not refused, but harmless; RELIABILITY.md lists them.
	"SetDensity out of range #100", // density 0: a massless shape
	"SetLengthRange #1",
	"SetLengthRange #3",
	"SetLengthRange #5",
	"hinge SetMaxMotorTorque #1",
	"hinge SetMaxMotorTorque #3",
	"hinge SetMaxMotorTorque #5",
	"mover MoveTo duration #3",
	"mover MoveTo duration #5",
	NULL,
};

static bool isKnownAccepted( const char* what, int k )
{
	char key[128];
	snprintf( key, sizeof( key ), "%s #%d", what, k );
	for ( int i = 0; knownAccepted[i] != NULL; ++i )
	{
		if ( strcmp( knownAccepted[i], key ) == 0 )
		{
			return true;
		}
	}
	return false;
}

static int s_unexpected = 0;

static bool worldIsFinite( tbWorldId world )
{
	tbBodyId bodies[32];
	int count = tbWorld_GetBodies( world, bodies, 32 );
	for ( int i = 0; i < count && i < 32; ++i )
	{
		tbTransform xf = tbBody_GetTransform( bodies[i] );
		if ( tbIsValidVec3( xf.p ) == false || tbIsValidQuat( xf.q ) == false ||
			 tbIsValidVec3( tbBody_GetLinearVelocity( bodies[i] ) ) == false ||
			 tbIsValidVec3( tbBody_GetAngularVelocity( bodies[i] ) ) == false )
		{
			return false;
		}
	}
	return true;
}

// An accepted value: how many steps (of 60) keep every body finite; 60 when all do.
static int stepsFinite( const Fixture* f )
{
	for ( int i = 0; i < 60; ++i )
	{
		if ( tbWorld_Step( f->world, 1.0f / 60.0f ) != tbResult_ok || worldIsFinite( f->world ) == false )
		{
			return i;
		}
	}
	return 60;
}

// After an accepted odd value: put the fixture back as it was set up.
static void restoreFixture( const Fixture* f )
{
	tbWorld_RestoreSnapshot( f->world, s_snapshot );
	tbWorld_SetGravity( f->world, tbMakeVec3( 0.0f, 0.0f, -10.0f ) );
}

// A refused call: the expected error, nothing changed.
#define EXPECT_REFUSED( f, expected, call, what, k )                                                                  \
	do                                                                                                                 \
	{                                                                                                                  \
		Fingerprint before_ = fingerprint( f );                                                                        \
		tbResult result_ = ( call );                                                                                   \
		bool known_ = isKnownAccepted( what, k );                                                                      \
		if ( result_ == tbResult_ok && known_ )                                                                        \
		{                                                                                                              \
			restoreFixture( f );                                                                                       \
		}                                                                                                              \
		else if ( result_ != ( expected ) || known_ )                                                                  \
		{                                                                                                              \
			int finite_ = result_ == tbResult_ok ? stepsFinite( f ) : -1;                                             \
			print_error( "%s #%d (%g): result %d (%s), expected %d%s; finite steps after it: %d\n", what, k,           \
						 k >= 0 && k < ODD_COUNT ? (double)odd[k] : 0.0, (int)result_, tbResultString( result_ ),      \
						 (int)( expected ), known_ ? " (listed as accepted: update knownAccepted)" : "", finite_ );    \
			s_unexpected += 1;                                                                                         \
			restoreFixture( f );                                                                                       \
		}                                                                                                              \
		else                                                                                                           \
		{                                                                                                              \
			assertUnchanged( f, &before_, what, k );                                                                   \
		}                                                                                                              \
	} while ( 0 )

#define EXPECT_NO_SURPRISES()                                                                                          \
	do                                                                                                                 \
	{                                                                                                                  \
		int n_ = s_unexpected;                                                                                         \
		s_unexpected = 0;                                                                                              \
		if ( n_ > 0 )                                                                                                  \
		{                                                                                                              \
			fail_msg( "%d calls with bad input were not refused as expected (listed above)", n_ );                    \
		}                                                                                                              \
	} while ( 0 )

// Non-finite and out-of-range values ------------------------------------------------------------------

static void test_world_calls_refuse_odd_values( void** state )
{
	Fixture* f = *state;
	for ( int k = 0; k < ODD_COUNT; ++k )
	{
		float x = odd[k];
		tbVec3 v = tbMakeVec3( 0.0f, x, 0.0f );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbWorld_Step( f->world, x ), "tbWorld_Step", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbWorld_SetGravity( f->world, v ), "tbWorld_SetGravity", k );
		tbWorldDef settings = tbWorld_GetSettings( f->world );
		settings.contactHertz = x;
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbWorld_SetSolver( f->world, &settings ),
						"tbWorld_SetSolver contactHertz", k );
		settings = tbWorld_GetSettings( f->world );
		settings.maxLinearSpeed = x;
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbWorld_SetSolver( f->world, &settings ),
						"tbWorld_SetSolver maxLinearSpeed", k );
	}
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbWorld_Step( f->world, -1.0f / 60.0f ), "tbWorld_Step negative", -1 );
	tbWorldDef settings = tbWorld_GetSettings( f->world );
	settings.iterations = -3;
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbWorld_SetSolver( f->world, &settings ), "iterations -3", -1 );
	settings = tbWorld_GetSettings( f->world );
	settings.solverMode = (tbSolverMode)99;
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbWorld_SetSolver( f->world, &settings ), "solver mode 99", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbWorld_SetSolver( f->world, NULL ), "tbWorld_SetSolver NULL", -1 );

	// World definitions: a refused def creates nothing.
	for ( int k = 0; k < ODD_COUNT; ++k )
	{
		tbWorldDef def = tbDefaultWorldDef();
		def.gravity = tbMakeVec3( odd[k], 0.0f, 0.0f );
		tbWorldId id = tb_nullWorldId;
		assert_int_equal( tbCreateWorldChecked( &def, &id ), tbResult_invalidArgument );
		assert_true( TB_IS_NULL( id ) );
	}
	tbWorldDef raw;
	memset( &raw, 0, sizeof( raw ) );
	tbWorldId id = tb_nullWorldId;
	assert_int_not_equal( tbCreateWorldChecked( &raw, &id ), tbResult_ok );
	assert_true( TB_IS_NULL( id ) );
	assert_int_not_equal( tbCreateWorldChecked( NULL, &id ), tbResult_ok );
	EXPECT_NO_SURPRISES();
}

static void test_body_calls_refuse_odd_values( void** state )
{
	Fixture* f = *state;
	tbBodyId b = f->box;
	tbVec3 p = tbBody_GetPosition( b );
	tbQuat q = tbBody_GetRotation( b );
	for ( int k = 0; k < ODD_COUNT; ++k )
	{
		float x = odd[k];
		tbVec3 v = tbMakeVec3( x, 0.0f, 0.0f );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetTransform( b, v, q ), "SetTransform position", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetTransform( b, p, ( tbQuat ){ x, 0.0f, 0.0f, 1.0f } ),
						"SetTransform rotation", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetLinearVelocity( b, v ), "SetLinearVelocity", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetAngularVelocity( b, v ), "SetAngularVelocity", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_ApplyForce( b, v, p, true ), "ApplyForce force", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_ApplyForce( b, tbMakeVec3( 1.0f, 0.0f, 0.0f ), v, true ),
						"ApplyForce point", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_ApplyForceToCenter( b, v, true ), "ApplyForceToCenter", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_ApplyTorque( b, v, true ), "ApplyTorque", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_ApplyLinearImpulse( b, v, p, true ), "ApplyLinearImpulse", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_ApplyAngularImpulse( b, v, true ), "ApplyAngularImpulse", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetLinearDamping( b, x ), "SetLinearDamping", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetAngularDamping( b, x ), "SetAngularDamping", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetGravityScale( b, x ), "SetGravityScale", k );
		tbBodyMass mass = { 2.0f, tb_vec3_zero, { 1.0f, 1.0f, 1.0f } };
		mass.mass = x;
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetMassData( b, mass ), "SetMassData mass", k );
		mass.mass = 2.0f;
		mass.inertia.y = x;
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetMassData( b, mass ), "SetMassData inertia", k );
		mass.inertia.y = 1.0f;
		mass.center = v;
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetMassData( b, mass ), "SetMassData centre", k );
	}
	// Zero and negative where only positive values mean something.
	const float nonPositive[] = { 0.0f, -1.0f, -1.0e-30f };
	for ( int k = 0; k < 3; ++k )
	{
		tbBodyMass mass = { nonPositive[k], tb_vec3_zero, { 1.0f, 1.0f, 1.0f } };
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetMassData( b, mass ), "SetMassData mass <= 0", -1 );
		mass = ( tbBodyMass ){ 1.0f, tb_vec3_zero, { 1.0f, nonPositive[k], 1.0f } };
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetMassData( b, mass ), "SetMassData inertia <= 0", -1 );
	}
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetLinearDamping( b, -1.0f ), "SetLinearDamping -1", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetType( b, (tbBodyType)7 ), "SetType 7", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetType( b, (tbBodyType)-1 ), "SetType -1", -1 );
	// A rotation that is not a unit quaternion, and the zero quaternion.
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetTransform( b, p, ( tbQuat ){ 0.0f, 0.0f, 0.0f, 0.0f } ),
					"SetTransform zero quaternion", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetTransform( b, p, ( tbQuat ){ 0.0f, 0.0f, 0.0f, 3.0f } ),
					"SetTransform quaternion of length 3", -1 );
	// Past the documented limits (collision.h), though finite.
	EXPECT_REFUSED( f, tbResult_invalidArgument,
					tbBody_SetTransform( b, tbMakeVec3( 2.0f * TB_MAX_POSITION, 0.0f, 0.0f ), q ),
					"SetTransform beyond TB_MAX_POSITION", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument,
					tbBody_SetLinearVelocity( b, tbMakeVec3( 0.0f, 2.0f * TB_MAX_SPEED, 0.0f ) ),
					"SetLinearVelocity beyond TB_MAX_SPEED", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument,
					tbBody_SetAngularVelocity( b, tbMakeVec3( 0.0f, 2.0f * TB_MAX_ANGULAR_SPEED, 0.0f ) ),
					"SetAngularVelocity beyond TB_MAX_ANGULAR_SPEED", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument,
					tbBody_ApplyForceToCenter( b, tbMakeVec3( 0.0f, 0.0f, 2.0f * TB_MAX_FORCE ), true ),
					"ApplyForceToCenter beyond TB_MAX_FORCE", -1 );
	tbBodyMass heavy = { 2.0f * TB_MAX_MASS, tb_vec3_zero, { 1.0f, 1.0f, 1.0f } };
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbBody_SetMassData( b, heavy ), "SetMassData beyond TB_MAX_MASS", -1 );
	EXPECT_NO_SURPRISES();
}

static void test_body_and_shape_creation_refuse_odd_values( void** state )
{
	Fixture* f = *state;
	for ( int k = 0; k < ODD_COUNT; ++k )
	{
		float x = odd[k];
		tbBodyDef def = tbDefaultBodyDef();
		def.type = tbBody_dynamic;
		def.position = tbMakeVec3( 0.0f, 0.0f, x );
		tbBodyId id = tb_nullBodyId;
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbCreateBodyChecked( f->world, &def, &id ), "body position", k );
		assert_true( TB_IS_NULL( id ) );
		def = tbDefaultBodyDef();
		def.linearVelocity = tbMakeVec3( x, 0.0f, 0.0f );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbCreateBodyChecked( f->world, &def, &id ), "body velocity", k );
		def = tbDefaultBodyDef();
		def.rotation = ( tbQuat ){ 0.0f, x, 0.0f, 1.0f };
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbCreateBodyChecked( f->world, &def, &id ), "body rotation", k );
		def = tbDefaultBodyDef();
		def.gravityScale = x;
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbCreateBodyChecked( f->world, &def, &id ), "body gravity scale", k );

		// Shapes on the existing box: nothing is added and its mass stays.
		tbResult result = tbResult_ok;
		tbShapeDef sd = tbDefaultShapeDef();
		tbSphere sphere = { { 0.0f, 0.0f, 0.0f }, x };
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						( tbCreateSphereShape( f->box, &sd, &sphere, &result ), result ), "sphere radius", k );
		sphere = ( tbSphere ){ { x, 0.0f, 0.0f }, 0.5f };
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						( tbCreateSphereShape( f->box, &sd, &sphere, &result ), result ), "sphere centre", k );
		tbCapsule capsule = { { 0.0f, 0.0f, -0.5f }, { 0.0f, 0.0f, x }, 0.2f };
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						( tbCreateCapsuleShape( f->box, &sd, &capsule, &result ), result ), "capsule point", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						( tbCreateBoxShape( f->box, &sd, tbMakeVec3( 0.5f, x, 0.5f ), tb_transformIdentity, &result ),
						  result ),
						"box half extents", k );
		tbTransform local = { { 0.0f, x, 0.0f }, { 0.0f, 0.0f, 0.0f, 1.0f } };
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						( tbCreateBoxShape( f->box, &sd, tbMakeVec3( 0.5f, 0.5f, 0.5f ), local, &result ), result ),
						"box local transform", k );
		sd.density = x;
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						( tbCreateBoxShape( f->box, &sd, tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity, &result ),
						  result ),
						"shape density", k );
		sd = tbDefaultShapeDef();
		sd.friction = x;
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						( tbCreateBoxShape( f->box, &sd, tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity, &result ),
						  result ),
						"shape friction", k );

		// Shape setters.
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbShape_SetFriction( f->boxShape, x ), "SetFriction", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbShape_SetRestitution( f->boxShape, x ), "SetRestitution", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbShape_SetDensity( f->boxShape, x, true ), "SetDensity", k );
	}
	// Zero, negative, below and above the size limits.
	const float sizes[] = { 0.0f, -0.5f, 0.5f * TB_MIN_SHAPE_SIZE, 2.0f * TB_MAX_SHAPE_SIZE };
	for ( int k = 0; k < 4; ++k )
	{
		tbResult result = tbResult_ok;
		tbShapeDef sd = tbDefaultShapeDef();
		tbSphere sphere = { { 0.0f, 0.0f, 0.0f }, sizes[k] };
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						( tbCreateSphereShape( f->box, &sd, &sphere, &result ), result ), "sphere radius size", -1 );
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						( tbCreateBoxShape( f->box, &sd, tbMakeVec3( sizes[k], 0.5f, 0.5f ), tb_transformIdentity,
											&result ),
						  result ),
						"box size", -1 );
		tbCapsule capsule = { { 0.0f, 0.0f, -0.5f }, { 0.0f, 0.0f, 0.5f }, sizes[k] };
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						( tbCreateCapsuleShape( f->box, &sd, &capsule, &result ), result ), "capsule radius size", -1 );
	}
	const float densities[] = { 0.0f, -1000.0f, 0.5f * TB_MIN_DENSITY, 2.0f * TB_MAX_DENSITY, 1.0e-44f };
	for ( int k = 0; k < 5; ++k )
	{
		// Index 100 + k: this list, not odd[].
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbShape_SetDensity( f->boxShape, densities[k], true ),
						"SetDensity out of range", 100 + k );
	}
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbShape_SetFriction( f->boxShape, -0.1f ), "SetFriction -0.1", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbShape_SetRestitution( f->boxShape, -0.1f ), "SetRestitution -0.1",
					-1 );
	tbResult result = tbResult_ok;
	tbShapeDef sd = tbDefaultShapeDef();
	EXPECT_REFUSED( f, tbResult_invalidArgument, ( tbCreateHullShape( f->box, &sd, NULL, &result ), result ),
					"hull NULL", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument, ( tbCreateSphereShape( f->box, &sd, NULL, &result ), result ),
					"sphere NULL", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument,
					( tbCreateBoxShape( f->box, NULL, tbMakeVec3( 1.0f, 1.0f, 1.0f ), tb_transformIdentity, &result ),
					  result ),
					"shape def NULL", -1 );
	tbBodyId id = tb_nullBodyId;
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbCreateBodyChecked( f->world, NULL, &id ), "body def NULL", -1 );
	tbBodyDef def = tbDefaultBodyDef();
	def.type = (tbBodyType)5;
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbCreateBodyChecked( f->world, &def, &id ), "body type 5", -1 );
	EXPECT_NO_SURPRISES();
}

static void test_joint_calls_refuse_odd_values( void** state )
{
	Fixture* f = *state;
	for ( int k = 0; k < ODD_COUNT; ++k )
	{
		float x = odd[k];
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbDistanceJoint_SetLength( f->rope, x ), "SetLength", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbDistanceJoint_SetLengthRange( f->rope, 0.5f, x ),
						"SetLengthRange", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbDistanceJoint_SetSpringHertz( f->rope, x ), "SetSpringHertz", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbHingeJoint_SetLimits( f->hinge, x, 0.5f ), "hinge SetLimits", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbHingeJoint_SetMotorSpeed( f->hinge, x ), "hinge SetMotorSpeed",
						k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbHingeJoint_SetMaxMotorTorque( f->hinge, x ),
						"hinge SetMaxMotorTorque", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbHingeJoint_SetServoAngle( f->hinge, x ), "hinge SetServoAngle",
						k );
		EXPECT_REFUSED( f, tbResult_invalidArgument, tbJoint_SetBreakForce( f->hinge, x < 0.0f || x != x ? x : -x ),
						"SetBreakForce negative or NaN", k );
		tbTransform frame = tbJoint_GetLocalFrameA( f->rope );
		frame.p.y = x;
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						tbJoint_SetLocalFrames( f->rope, frame, tbJoint_GetLocalFrameB( f->rope ) ), "SetLocalFrames", k );

		tbDistanceJointDef rope = tbDefaultDistanceJointDef();
		rope.base.bodyB = f->box;
		rope.base.localFrameA.p = tbMakeVec3( 0.0f, x, 3.0f );
		tbResult result = tbResult_ok;
		EXPECT_REFUSED( f, tbResult_invalidArgument, ( tbCreateDistanceJoint( f->world, &rope, &result ), result ),
						"distance joint frame", k );
		rope = tbDefaultDistanceJointDef();
		rope.base.bodyB = f->box;
		rope.length = x;
		EXPECT_REFUSED( f, tbResult_invalidArgument, ( tbCreateDistanceJoint( f->world, &rope, &result ), result ),
						"distance joint length", k );
		tbHingeJointDef hinge = tbDefaultHingeJointDef();
		hinge.base.bodyB = f->box;
		hinge.motorSpeed = x;
		EXPECT_REFUSED( f, tbResult_invalidArgument, ( tbCreateHingeJoint( f->world, &hinge, &result ), result ),
						"hinge motor speed", k );

		EXPECT_REFUSED( f, tbResult_invalidArgument,
						tbMover_SetVelocity( f->mover, tbMakeVec3( x, 0.0f, 0.0f ), tb_vec3_zero ), "mover velocity", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						tbMover_MoveTo( f->mover, tbMakeVec3( 0.0f, x, 1.0f ), tb_quatIdentity, 1.0f ), "mover MoveTo", k );
		EXPECT_REFUSED( f, tbResult_invalidArgument,
						tbMover_MoveTo( f->mover, tbMakeVec3( 0.0f, 6.0f, 1.0f ), tb_quatIdentity, x ),
						"mover MoveTo duration", k );
	}
	// Lower above upper, a joint between a body and itself, both sides the static world.
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbHingeJoint_SetLimits( f->hinge, 0.5f, -0.5f ), "hinge limits swapped",
					-1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbDistanceJoint_SetLengthRange( f->rope, 2.0f, 1.0f ),
					"length range swapped", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument, tbDistanceJoint_SetLength( f->rope, -1.0f ), "SetLength -1", -1 );
	tbResult result = tbResult_ok;
	tbBallJointDef ball = tbDefaultBallJointDef();
	ball.base.bodyA = f->box;
	ball.base.bodyB = f->box;
	EXPECT_REFUSED( f, tbResult_invalidArgument, ( tbCreateBallJoint( f->world, &ball, &result ), result ),
					"joint of a body with itself", -1 );
	ball = tbDefaultBallJointDef();
	EXPECT_REFUSED( f, tbResult_invalidArgument, ( tbCreateBallJoint( f->world, &ball, &result ), result ),
					"joint with two static sides", -1 );
	EXPECT_REFUSED( f, tbResult_invalidArgument, ( tbCreateBallJoint( f->world, NULL, &result ), result ),
					"joint def NULL", -1 );
	// A joint of another type is not a joint of this one: invalidId, as for a stale id.
	EXPECT_REFUSED( f, tbResult_invalidId, tbSixDofJoint_SetAxisMode( f->hinge, tbSixDof_x, tbAxis_free ),
					"six-dof call on a hinge", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbSliderJoint_SetLimits( f->hinge, 0.0f, 1.0f ), "slider call on a hinge",
					-1 );
	EXPECT_NO_SURPRISES();
}

// Stale ids and calls after destroy ----------------------------------------------------------------

static void test_stale_ids_are_refused( void** state )
{
	Fixture* f = *state;
	// Make a body, shape, joint and mover and destroy them: their ids must stay invalid even after
	// new objects take their slots.
	tbBodyId body = addBody( f->world, tbBody_dynamic, tbMakeVec3( 5.0f, 5.0f, 1.0f ) );
	tbShapeDef sd = tbDefaultShapeDef();
	tbShapeId shape = tbCreateBoxShape( body, &sd, tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity, NULL );
	tbBallJointDef ball = tbDefaultBallJointDef();
	ball.base.bodyB = body;
	ball.base.localFrameA.p = tbMakeVec3( 5.0f, 5.0f, 2.0f );
	ball.base.localFrameB.p = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	tbJointId joint = tbCreateBallJoint( f->world, &ball, NULL );
	tbBodyId moverBody = addBody( f->world, tbBody_kinematic, tbMakeVec3( -5.0f, 5.0f, 1.0f ) );
	tbMoverId mover = tbCreateMover( moverBody, NULL );
	assert_true( TB_IS_NON_NULL( joint ) && TB_IS_NON_NULL( mover ) && TB_IS_NON_NULL( shape ) );
	assert_int_equal( tbDestroyBody( body ), tbResult_ok );
	assert_int_equal( tbDestroyBody( moverBody ), tbResult_ok );
	tbBodyId reuse = addBody( f->world, tbBody_dynamic, tbMakeVec3( 5.0f, 5.0f, 1.0f ) );
	tbCreateBoxShape( reuse, &sd, tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity, NULL );
	tbWorld_Step( f->world, 1.0f / 60.0f );

	assert_false( tbBody_IsValid( body ) );
	assert_false( tbShape_IsValid( shape ) );
	assert_false( tbJoint_IsValid( joint ) );
	assert_false( tbMover_IsValid( mover ) );
	tbVec3 one = { 1.0f, 0.0f, 0.0f };
	EXPECT_REFUSED( f, tbResult_invalidId, tbDestroyBody( body ), "destroy a destroyed body", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbBody_SetLinearVelocity( body, one ), "SetLinearVelocity stale", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbBody_ApplyForceToCenter( body, one, true ), "ApplyForce stale", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbBody_SetTransform( body, one, tb_quatIdentity ), "SetTransform stale", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbBody_SetType( body, tbBody_static ), "SetType stale", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbShape_SetFriction( shape, 0.1f ), "SetFriction stale", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbDestroyShape( shape, true ), "destroy a destroyed shape", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbDestroyJoint( joint ), "destroy a destroyed joint", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbJoint_SetBreakForce( joint, 10.0f ), "SetBreakForce stale", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbMover_SetVelocity( mover, one, one ), "mover stale", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbDestroyMover( mover ), "destroy a destroyed mover", -1 );
	tbResult result = tbResult_ok;
	EXPECT_REFUSED( f, tbResult_invalidId,
					( tbCreateBoxShape( body, &sd, tbMakeVec3( 1.0f, 1.0f, 1.0f ), tb_transformIdentity, &result ), result ),
					"shape on a destroyed body", -1 );
	ball.base.bodyB = body;
	EXPECT_REFUSED( f, tbResult_invalidId, ( tbCreateBallJoint( f->world, &ball, &result ), result ),
					"joint to a destroyed body", -1 );
	// Made-up ids: index past the end, generation never issued, all bits set.
	tbBodyId madeUp = reuse;
	madeUp.generation = (uint16_t)( madeUp.generation + 7 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbBody_SetLinearVelocity( madeUp, one ), "made-up generation", -1 );
	madeUp = reuse;
	madeUp.index1 = 1000000;
	EXPECT_REFUSED( f, tbResult_invalidId, tbBody_SetLinearVelocity( madeUp, one ), "made-up index", -1 );
	EXPECT_REFUSED( f, tbResult_invalidId, tbBody_SetLinearVelocity( tb_nullBodyId, one ), "null body id", -1 );
	// Getters of stale ids return neutral values instead of reading freed slots.
	tbVec3 position = tbBody_GetPosition( body );
	assert_true( tbIsValidVec3( position ) );
	assert_true( tbBody_GetMass( body ) == 0.0f );
	assert_int_equal( tbBody_GetShapes( body, NULL, 0 ), 0 );
	assert_true( tbJoint_GetName( joint ) == NULL || tbJoint_GetName( joint )[0] == '\0' );
	tbDestroyBody( reuse );
	EXPECT_NO_SURPRISES();
}

static void test_calls_after_world_destroy( void** state )
{
	(void)state;
	tbWorldDef wd = tbDefaultWorldDef();
	tbWorldId world = tbCreateWorld( &wd );
	tbBodyId body = addBody( world, tbBody_dynamic, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	tbShapeDef sd = tbDefaultShapeDef();
	tbShapeId shape = tbCreateBoxShape( body, &sd, tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity, NULL );
	tbDestroyWorld( world );
	// A new world may take the same slot: the old ids must not name its objects.
	tbWorldId next = tbCreateWorld( &wd );
	tbBodyId nextBody = addBody( next, tbBody_dynamic, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	tbCreateBoxShape( nextBody, &sd, tbMakeVec3( 0.5f, 0.5f, 0.5f ), tb_transformIdentity, NULL );
	uint64_t hash = tbWorld_GetStateHash( next );

	assert_false( tbWorld_IsValid( world ) );
	assert_false( tbBody_IsValid( body ) );
	assert_false( tbShape_IsValid( shape ) );
	assert_int_equal( tbWorld_Step( world, 1.0f / 60.0f ), tbResult_invalidId );
	assert_int_equal( tbWorld_SetGravity( world, tb_vec3_zero ), tbResult_invalidId );
	tbBodyDef def = tbDefaultBodyDef();
	tbBodyId id = tb_nullBodyId;
	assert_int_equal( tbCreateBodyChecked( world, &def, &id ), tbResult_invalidId );
	assert_true( TB_IS_NULL( id ) );
	assert_int_equal( tbBody_SetLinearVelocity( body, tbMakeVec3( 1.0f, 0.0f, 0.0f ) ), tbResult_invalidId );
	assert_int_equal( tbShape_SetFriction( shape, 0.1f ), tbResult_invalidId );
	assert_int_equal( tbDestroyBody( body ), tbResult_invalidId );
	assert_null( tbWorld_TakeSnapshot( world ) );
	assert_int_equal( tbWorld_GetBodies( world, NULL, 0 ), 0 );
	tbDestroyWorld( world ); // a second destroy is harmless
	assert_true( tbWorld_GetStateHash( next ) == hash );
	assert_int_equal( tbWorld_GetCounters( next ).bodyCount, 1 );
	tbDestroyWorld( next );
}

// Calls during a step --------------------------------------------------------------------------------

typedef struct LockedProbe
{
	Fixture* f;
	int calls;
	tbResult results[12];
} LockedProbe;

static bool tryMutations( tbShapeId shapeId, void* context )
{
	(void)shapeId;
	LockedProbe* probe = context;
	if ( probe->calls > 0 )
	{
		return false;
	}
	Fixture* f = probe->f;
	tbBodyDef def = tbDefaultBodyDef();
	tbBodyId id = tb_nullBodyId;
	tbResult result = tbResult_ok;
	tbShapeDef sd = tbDefaultShapeDef();
	tbBallJointDef ball = tbDefaultBallJointDef();
	ball.base.bodyB = f->box;
	int n = 0;
	probe->results[n++] = tbCreateBodyChecked( f->world, &def, &id );
	probe->results[n++] = tbDestroyBody( f->sphere );
	probe->results[n++] = tbWorld_Step( f->world, 1.0f / 60.0f );
	probe->results[n++] =
		( tbCreateBoxShape( f->box, &sd, tbMakeVec3( 1.0f, 1.0f, 1.0f ), tb_transformIdentity, &result ), result );
	probe->results[n++] = tbDestroyShape( f->boxShape, true );
	probe->results[n++] = ( tbCreateBallJoint( f->world, &ball, &result ), result );
	probe->results[n++] = tbDestroyJoint( f->rope );
	probe->results[n++] = tbBody_SetType( f->box, tbBody_static );
	probe->results[n++] = tbDestroyMover( f->mover );
	probe->results[n++] = tbWorld_RestoreSnapshot( f->world, NULL );
	probe->calls = n;
	return false;
}

static void test_calls_while_locked( void** state )
{
	Fixture* f = *state;
	Fingerprint before = fingerprint( f );
	LockedProbe probe = { f, 0, { tbResult_ok } };
	tbAABB everything = { { -100.0f, -100.0f, -100.0f }, { 100.0f, 100.0f, 100.0f } };
	tbWorld_OverlapAABB( f->world, everything, tbDefaultQueryFilter(), tryMutations, &probe );
	assert_int_equal( probe.calls, 10 );
	for ( int i = 0; i < probe.calls; ++i )
	{
		if ( probe.results[i] != tbResult_worldLocked )
		{
			fail_msg( "call %d from inside a query callback: %s, expected worldLocked", i,
					  tbResultString( probe.results[i] ) );
		}
	}
	assertUnchanged( f, &before, "calls while locked", -1 );
	assert_false( tbWorld_IsLocked( f->world ) );
}

// After all of the above, the fixture still steps to finite states.
static void test_fixture_still_steps( void** state )
{
	Fixture* f = *state;
	for ( int i = 0; i < 120; ++i )
	{
		assert_int_equal( tbWorld_Step( f->world, 1.0f / 60.0f ), tbResult_ok );
	}
	tbBodyId bodies[16];
	int count = tbWorld_GetBodies( f->world, bodies, 16 );
	for ( int i = 0; i < count; ++i )
	{
		assert_true( tbIsValidVec3( tbBody_GetPosition( bodies[i] ) ) );
		assert_true( tbIsValidVec3( tbBody_GetLinearVelocity( bodies[i] ) ) );
	}
	// The box rests on the ground top (z = 0) with its centre 0.5 m up.
	ASSERT_NEAR( tbBody_GetPosition( f->box ).z, 0.5f, 0.02f );
}

int main( void )
{
	const struct CMUnitTest epa[] = {
		cmocka_unit_test( test_epa_capsules_sharing_an_end ),
		cmocka_unit_test( test_epa_point_against_segment_end_scales ),
		cmocka_unit_test( test_calls_after_world_destroy ),
	};
	// One fixture for the group: every refused call must leave it as it was, and it must still
	// step normally at the end.
	const struct CMUnitTest world[] = {
		cmocka_unit_test( test_world_calls_refuse_odd_values ),
		cmocka_unit_test( test_body_calls_refuse_odd_values ),
		cmocka_unit_test( test_body_and_shape_creation_refuse_odd_values ),
		cmocka_unit_test( test_joint_calls_refuse_odd_values ),
		cmocka_unit_test( test_stale_ids_are_refused ),
		cmocka_unit_test( test_calls_while_locked ),
		cmocka_unit_test( test_fixture_still_steps ),
	};
	int failed = cmocka_run_group_tests( epa, NULL, NULL );
	failed += cmocka_run_group_tests( world, setupFixture, teardownFixture );
	return failed;
}
