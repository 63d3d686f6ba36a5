// Gameplay pieces of the world API: filter, sensor and fixed-rotation changes while running,
// radial impulses, and contacts disabled before the solver (pre-solve hook, one-way bodies).
#include "world_helpers.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

static tbShapeId th_firstShape( tbBodyId body )
{
	tbShapeId shape;
	assert_int_equal( tbBody_GetShapes( body, &shape, 1 ), 1 );
	return shape;
}

// A mask that leaves out the ground's layer stops the contact (the resting, sleeping box falls
// through); putting the layer back starts it (a falling box lands).
static void mask_change_stops_and_starts_contacts( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	th_addGround( world, 0.5f );
	tbBodyId resting = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 0.5f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbBodyId falling = th_addBox( world, tbMakeVec3( 5.0f, 0.0f, 3.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbShapeId fallingShape = th_firstShape( falling );
	assert_int_equal( tbShape_SetFilter( fallingShape, 1, 0, 0 ), tbResult_ok );
	th_run( world, 120 );
	assert_false( tbBody_IsAwake( resting ) );
	// Masked out from the start, the second box fell through the ground.
	assert_true( tbBody_GetPosition( falling ).z < -1.0f );

	uint64_t category, mask;
	int32_t group;
	assert_int_equal( tbShape_GetFilter( fallingShape, &category, &mask, &group ), tbResult_ok );
	assert_true( category == 1 && mask == 0 && group == 0 );

	assert_int_equal( tbShape_SetFilter( th_firstShape( resting ), 1, ~(uint64_t)1, 0 ), tbResult_ok );
	assert_true( tbBody_IsAwake( resting ) );
	tbWorld_Step( world, 1.0f / 60.0f );
	tbContactEvents events = tbWorld_GetContactEvents( world );
	assert_int_equal( events.endCount, 1 );
	th_run( world, 60 );
	assert_true( tbBody_GetPosition( resting ).z < -1.0f );

	// Starts: a box dropped from 3 m with mask 0 is given the ground's layer back on the way down.
	tbBodyId late = th_addBox( world, tbMakeVec3( -5.0f, 0.0f, 3.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	assert_int_equal( tbShape_SetFilter( th_firstShape( late ), 1, 0, 0 ), tbResult_ok );
	th_run( world, 20 );
	assert_true( tbBody_GetPosition( late ).z > 1.0f );
	assert_int_equal( tbShape_SetFilter( th_firstShape( late ), 1, UINT64_MAX, 0 ), tbResult_ok );
	th_run( world, 120 );
	assert_float_equal( tbBody_GetPosition( late ).z, 0.5f, 0.01f );
	tbDestroyWorld( world );
}

// Same negative group set on two stacked boxes: the upper one sinks into the lower one.
static void group_change_and_sensor_change( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	tbBodyId lower = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 0.5f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbBodyId upper = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 1.5f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	th_run( world, 60 );
	assert_float_equal( tbBody_GetPosition( upper ).z, 1.5f, 0.01f );
	assert_int_equal( tbShape_SetFilter( th_firstShape( lower ), 1, UINT64_MAX, -3 ), tbResult_ok );
	assert_int_equal( tbShape_SetFilter( th_firstShape( upper ), 1, UINT64_MAX, -3 ), tbResult_ok );
	th_run( world, 120 );
	assert_float_equal( tbBody_GetPosition( upper ).z, 0.5f, 0.01f );

	// A sensor gets no response: the lower box turned into one falls through the ground, with a
	// contact_end for its ground contact; turned solid again on the way it stops falling where the
	// ground's contact catches it (it has sunk in, so it is pushed back out to rest on top).
	assert_int_equal( tbShape_SetSensor( th_firstShape( lower ), true ), tbResult_ok );
	assert_true( tbShape_IsSensor( th_firstShape( lower ) ) );
	th_run( world, 6 );
	float sunk = tbBody_GetPosition( lower ).z;
	assert_true( sunk < 0.45f );
	assert_int_equal( tbShape_SetSensor( th_firstShape( lower ), false ), tbResult_ok );
	th_run( world, 120 );
	assert_float_equal( tbBody_GetPosition( lower ).z, 0.5f, 0.01f );
	tbDestroyWorld( world );
}

// Fixed rotation set while spinning stops the spin and keeps an off-centre impulse from turning
// the body; freed again, the same impulse turns it.
static void fixed_rotation_change( void** state )
{
	(void)state;
	tbWorldDef def = tbDefaultWorldDef();
	def.gravity = tb_vec3_zero;
	tbWorldId world = tbCreateWorld( &def );
	tbBodyId box = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 0.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbBody_SetAngularVelocity( box, tbMakeVec3( 0.0f, 0.0f, 3.0f ) );
	assert_int_equal( tbBody_SetFixedRotation( box, true ), tbResult_ok );
	assert_true( tbBody_IsFixedRotation( box ) );
	assert_float_equal( tbLength( tbBody_GetAngularVelocity( box ) ), 0.0f, 0.0f );
	tbBody_ApplyLinearImpulse( box, tbMakeVec3( 0.0f, 1.0f, 0.0f ), tbMakeVec3( 0.5f, 0.0f, 0.0f ), true );
	th_run( world, 10 );
	assert_float_equal( tbLength( tbBody_GetAngularVelocity( box ) ), 0.0f, 0.0f );
	assert_float_equal( tbBody_GetLinearVelocity( box ).y, 1.0f, 1e-5f );

	// Free: a 1 N s impulse 0.5 m off the centre of a 1 kg unit cube (I = 1/6 kg m^2) spins it at 3 rad/s.
	assert_int_equal( tbBody_SetFixedRotation( box, false ), tbResult_ok );
	tbBody_ApplyLinearImpulse( box, tbMakeVec3( 0.0f, 1.0f, 0.0f ), tbMakeVec3( 0.5f, 0.0f, 0.0f ), true );
	assert_float_equal( tbBody_GetAngularVelocity( box ).z, 3.0f, 1e-4f );
	tbDestroyWorld( world );
}

// The exact velocity change of spheres inside the radius, in the falloff band and out of reach.
static void explosion_impulse( void** state )
{
	(void)state;
	tbWorldDef def = tbDefaultWorldDef();
	def.gravity = tb_vec3_zero;
	tbWorldId world = tbCreateWorld( &def );
	// Surface 2.5 m from the centre: halfway through a 1 m falloff band after a 2 m radius.
	tbBodyId banded = th_addSphere( world, tbMakeVec3( 3.0f, 0.0f, 0.0f ), 0.5f, 2.0f );
	// Surface 1 m away, inside the radius: the whole impulse.
	tbBodyId inside = th_addSphere( world, tbMakeVec3( 0.0f, 1.5f, 0.0f ), 0.5f, 4.0f );
	// Surface 3.5 m away: out of reach.
	tbBodyId far = th_addSphere( world, tbMakeVec3( 0.0f, 0.0f, -4.0f ), 0.5f, 1.0f );
	tbExplosionDef blast = tbDefaultExplosionDef();
	blast.radius = 2.0f;
	blast.falloff = 1.0f;
	blast.impulse = 10.0f;
	assert_int_equal( tbWorld_Explode( world, &blast ), 2 );
	tbVec3 v = tbBody_GetLinearVelocity( banded );
	assert_float_equal( v.x, 0.5f * 10.0f / 2.0f, 1e-5f );
	assert_float_equal( v.y, 0.0f, 1e-6f );
	assert_float_equal( v.z, 0.0f, 1e-6f );
	v = tbBody_GetLinearVelocity( inside );
	assert_float_equal( v.y, 10.0f / 4.0f, 1e-5f );
	assert_float_equal( tbLength( tbBody_GetAngularVelocity( inside ) ), 0.0f, 0.0f );
	assert_float_equal( tbLength( tbBody_GetLinearVelocity( far ) ), 0.0f, 0.0f );

	// Layers: a mask without the spheres' layer pushes nothing; a bad def is refused.
	blast.maskBits = 2;
	assert_int_equal( tbWorld_Explode( world, &blast ), 0 );
	blast.radius = -1.0f;
	assert_int_equal( tbWorld_Explode( world, &blast ), -1 );
	tbDestroyWorld( world );
}

// A ball launched up from under a one-way platform passes through it and lands on it; with a solid
// platform it bounces off the underside and ends on the ground.
static float launchUnderPlatform( bool oneWay, float* highest )
{
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = tbMakeVec3( 0.0f, 0.0f, 2.0f );
	tbBodyId platform = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbCreateBoxShape( platform, &sd, tbMakeVec3( 2.0f, 2.0f, 0.1f ), tb_transformIdentity, NULL );
	if ( oneWay )
	{
		assert_int_equal( tbBody_SetOneWay( platform, tbMakeVec3( 0.0f, 0.0f, 2.0f ) ), tbResult_ok );
		tbVec3 n = tbBody_GetOneWay( platform );
		assert_float_equal( n.z, 1.0f, 1e-6f );
	}
	tbBodyId ball = th_addSphere( world, tbMakeVec3( 0.0f, 0.0f, 0.25f ), 0.25f, 1.0f );
	// 8 m/s up: 3.2 m of rise, the centre would reach 3.45 m.
	tbBody_SetLinearVelocity( ball, tbMakeVec3( 0.0f, 0.0f, 8.0f ) );
	*highest = 0.0f;
	for ( int i = 0; i < 240; ++i )
	{
		tbWorld_Step( world, 1.0f / 60.0f );
		*highest = tbMaxFloat( *highest, tbBody_GetPosition( ball ).z );
	}
	float z = tbBody_GetPosition( ball ).z;
	assert_true( tbLength( tbBody_GetLinearVelocity( ball ) ) < 0.01f );
	tbDestroyWorld( world );
	return z;
}

static void one_way_platform( void** state )
{
	(void)state;
	float highest;
	float z = launchUnderPlatform( true, &highest );
	printf( "one-way: highest %.3f m, rests at %.4f m\n", highest, z );
	assert_true( highest > 3.3f );
	// On the platform's top (2.1 m) plus the radius.
	assert_float_equal( z, 2.35f, 0.01f );
	z = launchUnderPlatform( false, &highest );
	printf( "solid: highest %.3f m, rests at %.4f m\n", highest, z );
	assert_true( highest < 1.9f );
	assert_float_equal( z, 0.25f, 0.01f );
}

typedef struct PreSolveLog
{
	tbShapeId refused;
	int calls;
} PreSolveLog;

static bool refuseOneShape( tbShapeId shapeA, tbShapeId shapeB, const tbManifold* manifold, void* context )
{
	PreSolveLog* log = context;
	assert_true( manifold->pointCount > 0 );
	// Counted without a lock: this test steps with one worker.
	log->calls += 1;
	return TB_ID_EQUALS( shapeA, log->refused ) == false && TB_ID_EQUALS( shapeB, log->refused ) == false;
}

// The pre-solve callback sees only the contacts of shapes that ask for it, and a false return
// disables the contact: the refused box falls through the ground, the other one rests on it.
static void pre_solve_callback( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	tbBodyId ground = th_addGround( world, 0.5f );
	tbBodyId refused = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbBodyId kept = th_addBox( world, tbMakeVec3( 3.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbBodyId unseen = th_addBox( world, tbMakeVec3( -3.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	PreSolveLog log = { th_firstShape( refused ), 0 };
	assert_int_equal( tbWorld_SetPreSolveCallback( world, refuseOneShape, &log ), tbResult_ok );
	assert_int_equal( tbShape_EnablePreSolveEvents( th_firstShape( refused ), true ), tbResult_ok );
	assert_int_equal( tbShape_EnablePreSolveEvents( th_firstShape( kept ), true ), tbResult_ok );
	th_run( world, 90 );
	assert_true( tbBody_GetPosition( refused ).z < -1.0f );
	assert_float_equal( tbBody_GetPosition( kept ).z, 0.5f, 0.01f );
	assert_float_equal( tbBody_GetPosition( unseen ).z, 0.5f, 0.01f );
	// The kept box's ground contact is seen every step once it touches; the unseen box's never.
	assert_true( log.calls > 60 );
	int seenBefore = log.calls;
	assert_int_equal( tbShape_EnablePreSolveEvents( th_firstShape( kept ), false ), tbResult_ok );
	th_run( world, 10 );
	assert_int_equal( log.calls, seenBefore );
	(void)ground;
	tbDestroyWorld( world );
}

// A body on a distance spring given in N/m from the world at its centre of mass.
static tbJointId hangOnSpring( tbWorldId world, tbBodyId body, float stiffness, float damping )
{
	tbDistanceJointDef def = tbDefaultDistanceJointDef();
	def.base.bodyB = body;
	def.base.localFrameA.p = tbMakeVec3( 0.0f, 0.0f, 0.0f );
	def.length = 1.0f;
	def.enableSpring = true;
	def.hertz = 50.0f; // ignored: the stiffness is given
	def.stiffness = stiffness;
	def.damping = damping;
	tbResult r;
	tbJointId joint = tbCreateDistanceJoint( world, &def, &r );
	assert_int_equal( r, tbResult_ok );
	return joint;
}

// Springs in N/m: the period 2 pi sqrt(m / k) follows the mass (3 kg and 12 kg on 300 N/m: 0.628 s
// and 1.257 s), and under gravity a critically damped 200 N/m spring holding 2 kg stretches by
// m g / k = 0.1 m.
static void spring_in_newtons_per_metre( void** state )
{
	(void)state;
	float masses[2] = { 3.0f, 12.0f };
	for ( int k = 0; k < 2; ++k )
	{
		tbWorldDef wd = tbDefaultWorldDef();
		wd.gravity = tb_vec3_zero;
		tbWorldId world = tbCreateWorld( &wd );
		tbBodyId body = th_addSphere( world, tbMakeVec3( 1.2f, 0.0f, 0.0f ), 0.1f, masses[k] );
		tbJointId spring = hangOnSpring( world, body, 300.0f, 0.0f );
		assert_float_equal( tbDistanceJoint_GetSpringStiffness( spring ), 300.0f, 0.0f );
		float prev = 0.2f, t = 0.0f, first = -1.0f, last = 0.0f;
		int crossings = 0;
		for ( int i = 0; i < 60 * 5; ++i )
		{
			tbWorld_Step( world, 1.0f / 60.0f );
			t += 1.0f / 60.0f;
			float x = tbDistanceJoint_GetCurrentLength( spring ) - 1.0f;
			if ( ( prev > 0.0f ) != ( x > 0.0f ) )
			{
				float tc = t - ( 1.0f / 60.0f ) * x / ( x - prev );
				first = first < 0.0f ? tc : first;
				last = tc;
				crossings += 1;
			}
			prev = x;
		}
		float period = 2.0f * ( last - first ) / (float)( crossings - 1 );
		float expected = 2.0f * TB_PI * sqrtf( masses[k] / 300.0f );
		printf( "%g kg on 300 N/m: period %.4f s (expected %.4f s)\n", (double)masses[k], period, expected );
		assert_float_equal( period, expected, 0.03f * expected );
		tbDestroyWorld( world );
	}

	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	tbBodyId body = th_addSphere( world, tbMakeVec3( 0.0f, 0.0f, -1.0f ), 0.1f, 2.0f );
	tbJointId spring = hangOnSpring( world, body, 200.0f, 2.0f * sqrtf( 200.0f * 2.0f ) );
	th_run( world, 180 );
	printf( "2 kg on 200 N/m: stretch %.5f m\n", tbDistanceJoint_GetCurrentLength( spring ) - 1.0f );
	assert_float_equal( tbDistanceJoint_GetCurrentLength( spring ) - 1.0f, 0.1f, 0.001f );
	// Back to the hertz form: 50 Hz on 2 kg is k = 2 (2 pi 50)^2 = 197 kN/m, a 0.1 mm stretch.
	assert_int_equal( tbDistanceJoint_SetSpringStiffness( spring, 0.0f, 0.0f ), tbResult_ok );
	th_run( world, 180 );
	assert_float_equal( tbDistanceJoint_GetCurrentLength( spring ) - 1.0f, 0.0f, 0.001f );
	assert_int_equal( tbDistanceJoint_SetSpringStiffness( spring, -1.0f, 0.0f ), tbResult_invalidArgument );
	tbDestroyWorld( world );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( mask_change_stops_and_starts_contacts ),
		cmocka_unit_test( group_change_and_sensor_change ),
		cmocka_unit_test( fixed_rotation_change ),
		cmocka_unit_test( explosion_impulse ),
		cmocka_unit_test( one_way_platform ),
		cmocka_unit_test( pre_solve_callback ),
		cmocka_unit_test( spring_in_newtons_per_metre ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
