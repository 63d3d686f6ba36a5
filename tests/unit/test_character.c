// The character controller's rules: sliding along walls, steps, the walkable slope, ground
// snapping, riding a mover, pushing a crate with a bounded force, jumping and crouching.
#include "world_helpers.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#define DT ( 1.0f / 60.0f )

static tbBodyId addStaticBox( tbWorldId world, tbVec3 center, tbVec3 half, tbQuat q )
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = center;
	bd.rotation = q;
	tbBodyId body = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbCreateBoxShape( body, &sd, half, tb_transformIdentity, NULL );
	return body;
}

static tbCharacter makeCharacter( tbWorldId world, tbVec3 feet )
{
	tbCharacterDef def = tbDefaultCharacterDef();
	def.position = feet;
	tbCharacter c;
	assert_int_equal( tbCreateCharacter( world, &def, &c ), tbResult_ok );
	return c;
}

// Move, then step the world, n times; returns the lowest feet height seen while on the ground.
static void walk( tbWorldId world, tbCharacter* c, tbVec3 velocity, int steps )
{
	for ( int i = 0; i < steps; ++i )
	{
		assert_int_equal( tbCharacter_Move( c, velocity, DT ), tbResult_ok );
		tbWorld_Step( world, DT );
	}
}

// Dropped from 0.5 m it lands and stands on the ground, its body following its feet.
static void lands_and_stands( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	tbCharacter c = makeCharacter( world, tbMakeVec3( 0.0f, 0.0f, 0.5f ) );
	walk( world, &c, tb_vec3_zero, 60 );
	assert_true( c.onGround );
	assert_float_equal( c.position.z, 0.0f, 0.006f );
	assert_float_equal( c.groundNormal.z, 1.0f, 1e-4f );
	// The body's centre is half the height above the feet.
	assert_float_equal( tbBody_GetPosition( c.bodyId ).z, c.position.z + 0.9f, 1e-4f );
	tbDestroyCharacter( &c );
	assert_false( tbBody_IsValid( c.bodyId ) );
	tbDestroyWorld( world );
}

// Walking diagonally into a wall keeps the motion along it and stops at the skin from its face.
static void slides_along_walls( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	addStaticBox( world, tbMakeVec3( 2.5f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 10.0f, 1.0f ), tb_quatIdentity );
	tbCharacter c = makeCharacter( world, tbMakeVec3( 0.0f, 0.0f, 0.0f ) );
	walk( world, &c, tbMakeVec3( 2.0f, 1.0f, 0.0f ), 120 );
	// Against the face x = 2: radius 0.3 and the 5 mm skin.
	assert_float_equal( c.position.x, 2.0f - 0.3f - 0.005f, 1e-3f );
	// Along the wall at the full 1 m/s for 2 s (less the one step the first move takes to land).
	assert_float_equal( c.position.y, 2.0f, 0.05f );
	assert_true( c.onGround );
	tbDestroyWorld( world );
}

// A 0.25 m step is climbed, a 0.4 m one stops it (step height 0.3 m).
static void steps_up_to_step_height( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	// Low step from x = 1 on, top 0.25; high step from x = 1 on at y = 5, top 0.4.
	addStaticBox( world, tbMakeVec3( 3.0f, 0.0f, 0.125f ), tbMakeVec3( 2.0f, 1.0f, 0.125f ), tb_quatIdentity );
	addStaticBox( world, tbMakeVec3( 3.0f, 5.0f, 0.2f ), tbMakeVec3( 2.0f, 1.0f, 0.2f ), tb_quatIdentity );
	tbCharacter low = makeCharacter( world, tbMakeVec3( 0.0f, 0.0f, 0.0f ) );
	tbCharacter high = makeCharacter( world, tbMakeVec3( 0.0f, 5.0f, 0.0f ) );
	for ( int i = 0; i < 90; ++i )
	{
		tbCharacter_Move( &low, tbMakeVec3( 2.0f, 0.0f, 0.0f ), DT );
		tbCharacter_Move( &high, tbMakeVec3( 2.0f, 0.0f, 0.0f ), DT );
		tbWorld_Step( world, DT );
	}
	assert_true( low.onGround );
	assert_float_equal( low.position.z, 0.25f, 0.006f );
	assert_true( low.position.x > 2.5f );
	assert_float_equal( high.position.z, 0.0f, 0.006f );
	assert_float_equal( high.position.x, 1.0f - 0.3f - 0.005f, 1e-3f );

	// Walking off the low step the other way it snaps down: on the ground at every move.
	bool alwaysGrounded = true;
	for ( int i = 0; i < 120; ++i )
	{
		tbCharacter_Move( &low, tbMakeVec3( -2.0f, 0.0f, 0.0f ), DT );
		alwaysGrounded = alwaysGrounded && low.onGround;
		tbWorld_Step( world, DT );
	}
	assert_true( alwaysGrounded );
	assert_float_equal( low.position.z, 0.0f, 0.006f );
	assert_true( low.position.x < 0.0f );
	tbDestroyWorld( world );
}

// A 30 degree slope is walked up, a 55 degree one stops it (max slope 45 degrees).
static void walkable_slope_limit( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	// Ramps: boxes turned about y so their top faces rise along +x, the lower edge at x = 2 on
	// the ground (the box sinks into the ground there).
	float angles[2] = { TB_PI / 6.0f, 55.0f * TB_PI / 180.0f };
	float ys[2] = { 0.0f, 6.0f };
	tbCharacter c[2];
	for ( int k = 0; k < 2; ++k )
	{
		float a = angles[k];
		// Top face centre at (2 + 2 cos a, y, 2 sin a): a 4 m long face from (2, 0) upwards.
		tbVec3 top = tbMakeVec3( 2.0f + 2.0f * cosf( a ), ys[k], 2.0f * sinf( a ) );
		tbVec3 down = tbMakeVec3( sinf( a ), 0.0f, -cosf( a ) );
		tbQuat q = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 1.0f, 0.0f ), -a );
		addStaticBox( world, tbMulAdd( top, 0.5f, down ), tbMakeVec3( 2.0f, 1.0f, 0.5f ), q );
		c[k] = makeCharacter( world, tbMakeVec3( 0.0f, ys[k], 0.0f ) );
	}
	for ( int i = 0; i < 180; ++i )
	{
		tbCharacter_Move( &c[0], tbMakeVec3( 1.5f, 0.0f, 0.0f ), DT );
		tbCharacter_Move( &c[1], tbMakeVec3( 1.5f, 0.0f, 0.0f ), DT );
		tbWorld_Step( world, DT );
	}
	printf( "30 deg: feet (%.3f, %.3f), 55 deg: feet (%.3f, %.3f)\n", c[0].position.x, c[0].position.z, c[1].position.x,
			c[1].position.z );
	// Up the 30 degree ramp: on it, its feet r (1 / cos 30 - 1) above the surface z = (x - 2) tan 30
	// (the round bottom touches the slope off the axis), plus the skin.
	assert_true( c[0].onGround );
	assert_true( c[0].position.x > 3.5f );
	float surface = ( c[0].position.x - 2.0f ) * tanf( angles[0] );
	float lift = 0.3f * ( 1.0f / cosf( angles[0] ) - 1.0f );
	assert_float_equal( c[0].position.z, surface + lift, 0.01f );
	assert_float_equal( c[0].groundNormal.z, cosf( angles[0] ), 1e-3f );
	// The 55 degree ramp: stopped at its foot, still on the ground below.
	assert_true( c[1].position.z < 0.01f );
	assert_true( c[1].position.x < 2.0f );
	tbDestroyWorld( world );
}

// Standing on a kinematic platform moving at a steady velocity, then at one that changes at every
// step (as a mover's) while it turns, it rides along within a centimetre of it.
static void rides_moving_platform( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_kinematic;
	bd.position = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	bd.linearVelocity = tbMakeVec3( 1.0f, 0.5f, 0.2f );
	tbBodyId platform = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbCreateBoxShape( platform, &sd, tbMakeVec3( 1.5f, 1.5f, 0.1f ), tb_transformIdentity, NULL );
	tbCharacter c = makeCharacter( world, tbMakeVec3( 0.0f, 0.0f, 1.1f ) );
	float worst = 0.0f;
	for ( int i = 0; i < 240; ++i )
	{
		tbCharacter_Move( &c, tb_vec3_zero, DT );
		if ( i >= 120 )
		{
			// As a mover does it: the velocity changes after the character's move, at the step.
			float t = ( i - 120 ) * DT;
			tbBody_SetLinearVelocity( platform, tbMakeVec3( 1.0f + sinf( 3.0f * t ), 0.5f + 1.5f * sinf( 2.0f * t ), 0.2f * cosf( 5.0f * t ) ) );
			tbBody_SetAngularVelocity( platform, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
		}
		tbWorld_Step( world, DT );
		tbVec3 p = tbBody_GetPosition( platform );
		// It stands on the platform's centre, which turning does not move.
		worst = tbMaxFloat( worst, tbAbsFloat( c.position.z - ( p.z + 0.1f ) ) );
		worst = tbMaxFloat( worst, tbAbsFloat( c.position.x - p.x ) );
		worst = tbMaxFloat( worst, tbAbsFloat( c.position.y - p.y ) );
	}
	printf( "riding: worst offset %.4f m\n", worst );
	assert_true( c.onGround );
	assert_true( TB_ID_EQUALS( c.groundBody, platform ) );
	assert_true( worst < 0.01f );
	tbDestroyWorld( world );
}

// Walking into a 20 kg crate pushes it along; with a 50 N cap, less than the crate's friction
// (0.5 * 20 kg * 10 m/s^2 = 100 N), it does not move it.
static void pushes_crates_with_bounded_force( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	tbBodyId crate = th_addBox( world, tbMakeVec3( 1.5f, 0.0f, 0.5f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 20.0f, 0.5f );
	tbBodyId heavy = th_addBox( world, tbMakeVec3( 1.5f, 5.0f, 0.5f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 20.0f, 0.5f );
	tbCharacter strong = makeCharacter( world, tbMakeVec3( 0.0f, 0.0f, 0.0f ) );
	tbCharacterDef weakDef = tbDefaultCharacterDef();
	weakDef.position = tbMakeVec3( 0.0f, 5.0f, 0.0f );
	weakDef.maxPushForce = 50.0f;
	tbCharacter weak;
	assert_int_equal( tbCreateCharacter( world, &weakDef, &weak ), tbResult_ok );
	int pushes = 0;
	for ( int i = 0; i < 120; ++i )
	{
		tbCharacter_Move( &strong, tbMakeVec3( 1.5f, 0.0f, 0.0f ), DT );
		tbCharacter_Move( &weak, tbMakeVec3( 1.5f, 0.0f, 0.0f ), DT );
		pushes += strong.pushCount;
		tbWorld_Step( world, DT );
	}
	printf( "pushed crate to x = %.3f, heavy to x = %.3f (%d pushes)\n", tbBody_GetPosition( crate ).x,
			tbBody_GetPosition( heavy ).x, pushes );
	assert_true( pushes > 30 );
	assert_true( tbBody_GetPosition( crate ).x > 2.5f );
	assert_float_equal( tbBody_GetPosition( heavy ).x, 1.5f, 0.01f );
	// The weak one is held by the crate it cannot move.
	assert_true( weak.position.x < 1.0f - 0.3f + 0.01f );
	tbDestroyWorld( world );
}

// A 50 kg box sliding at 4 m/s into a standing 70 kg character pushes it along: the impulse that
// stopped the box (and sent it back at vb) over 70 kg, v0 = 50 (4 - vb) / 70, which the feet's
// 10 m/s^2 brake takes away over v0^2 / 20 m (less half a step at v0: the brake acts from the
// first move). With mass 0 it is never pushed.
static void is_pushed_by_bodies( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	tbCharacter c[2];
	tbBodyId boxes[2];
	for ( int k = 0; k < 2; ++k )
	{
		boxes[k] = th_addBox( world, tbMakeVec3( -3.0f, 4.0f * k, 0.5f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 50.0f, 0.0f );
		tbBody_SetLinearVelocity( boxes[k], tbMakeVec3( 4.0f, 0.0f, 0.0f ) );
		tbCharacterDef def = tbDefaultCharacterDef();
		def.position = tbMakeVec3( 0.0f, 4.0f * k, 0.0f );
		def.mass = k == 0 ? 70.0f : 0.0f;
		assert_int_equal( tbCreateCharacter( world, &def, c + k ), tbResult_ok );
	}
	for ( int i = 0; i < 90; ++i )
	{
		tbCharacter_Move( c + 0, tb_vec3_zero, DT );
		tbCharacter_Move( c + 1, tb_vec3_zero, DT );
		tbWorld_Step( world, DT );
	}
	float v0 = 50.0f * ( 4.0f - tbBody_GetLinearVelocity( boxes[0] ).x ) / 70.0f;
	float expected = v0 * v0 / 20.0f - 0.5f * v0 * DT;
	printf( "pushed by a box: %.4f m (expected %.4f m); mass 0: %.4f m\n", c[0].position.x, expected, c[1].position.x );
	assert_float_equal( c[0].position.x, expected, 0.01f );
	assert_float_equal( c[1].position.x, 0.0f, 0.0f );
	tbDestroyWorld( world );
}

// A jump at 5 m/s rises v^2 / 2g = 1.25 m and comes back down to the ground.
static void jumps( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	tbCharacter c = makeCharacter( world, tbMakeVec3( 0.0f, 0.0f, 0.0f ) );
	walk( world, &c, tb_vec3_zero, 5 );
	assert_true( c.onGround );
	tbCharacter_Jump( &c );
	float highest = 0.0f;
	for ( int i = 0; i < 90; ++i )
	{
		tbCharacter_Move( &c, tb_vec3_zero, DT );
		tbWorld_Step( world, DT );
		highest = tbMaxFloat( highest, c.position.z );
	}
	printf( "jump: highest %.4f m\n", highest );
	// Semi-implicit steps of 1/60 s fall short of the continuous apex by v dt / 2.
	assert_float_equal( highest, 1.25f, 0.05f );
	assert_true( c.onGround );
	assert_float_equal( c.position.z, 0.0f, 0.006f );
	tbDestroyWorld( world );
}

// A jump at 6 m/s (1.8 m) goes up through a one-way platform whose top is at 1.5 m and lands on
// it; the same platform solid stops the jump under it.
static void jumps_through_one_way_platforms( void** state )
{
	(void)state;
	for ( int oneWay = 1; oneWay >= 0; --oneWay )
	{
		tbWorldId world = th_makeWorld( tbSolver_soft, false );
		th_addGround( world, 0.5f );
		tbBodyId platform = addStaticBox( world, tbMakeVec3( 0.0f, 0.0f, 1.4f ), tbMakeVec3( 2.0f, 2.0f, 0.1f ), tb_quatIdentity );
		if ( oneWay )
		{
			tbBody_SetOneWay( platform, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
		}
		tbCharacterDef def = tbDefaultCharacterDef();
		def.jumpSpeed = 6.0f;
		def.height = 1.0f;
		tbCharacter c;
		assert_int_equal( tbCreateCharacter( world, &def, &c ), tbResult_ok );
		tbCharacter_Jump( &c );
		float highest = 0.0f;
		walk( world, &c, tb_vec3_zero, 1 );
		for ( int i = 0; i < 120; ++i )
		{
			walk( world, &c, tb_vec3_zero, 1 );
			highest = tbMaxFloat( highest, c.position.z );
		}
		printf( "%s platform: highest feet %.3f m, rests at %.4f m\n", oneWay ? "one-way" : "solid", highest, c.position.z );
		assert_true( c.onGround );
		if ( oneWay )
		{
			assert_true( highest > 1.6f );
			assert_float_equal( c.position.z, 1.5f, 0.006f );
			assert_true( TB_ID_EQUALS( c.groundBody, platform ) );
		}
		else
		{
			// The 1 m capsule's head meets the platform's underside at 1.3 m: feet at 0.3 m at most.
			assert_true( highest < 0.31f );
			assert_float_equal( c.position.z, 0.0f, 0.006f );
		}
		tbDestroyWorld( world );
	}
}

// Crouched under a 1.4 m ceiling it cannot stand; it walks out from under it and then can.
static void crouches_when_there_is_room( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	addStaticBox( world, tbMakeVec3( 0.0f, 0.0f, 1.5f ), tbMakeVec3( 1.0f, 1.0f, 0.1f ), tb_quatIdentity );
	tbCharacter c = makeCharacter( world, tbMakeVec3( 3.0f, 0.0f, 0.0f ) );
	walk( world, &c, tb_vec3_zero, 5 );
	// Standing (1.8 m) it cannot walk under: the ceiling's edge stops it.
	walk( world, &c, tbMakeVec3( -2.0f, 0.0f, 0.0f ), 60 );
	assert_true( c.position.x > 1.0f );
	assert_true( tbCharacter_SetCrouched( &c, true ) );
	assert_float_equal( c.height, 1.0f, 0.0f );
	walk( world, &c, tbMakeVec3( -2.0f, 0.0f, 0.0f ), 60 );
	assert_true( c.position.x < 0.5f );
	assert_false( tbCharacter_SetCrouched( &c, false ) );
	assert_true( c.crouched );
	walk( world, &c, tbMakeVec3( -2.0f, 0.0f, 0.0f ), 60 );
	assert_true( c.position.x < -1.5f );
	assert_true( tbCharacter_SetCrouched( &c, false ) );
	assert_float_equal( c.height, 1.8f, 0.0f );
	tbDestroyWorld( world );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( lands_and_stands ),
		cmocka_unit_test( slides_along_walls ),
		cmocka_unit_test( steps_up_to_step_height ),
		cmocka_unit_test( walkable_slope_limit ),
		cmocka_unit_test( rides_moving_platform ),
		cmocka_unit_test( pushes_crates_with_bounded_force ),
		cmocka_unit_test( is_pushed_by_bodies ),
		cmocka_unit_test( jumps ),
		cmocka_unit_test( crouches_when_there_is_room ),
		cmocka_unit_test( jumps_through_one_way_platforms ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
