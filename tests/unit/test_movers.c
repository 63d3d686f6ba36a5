// Mover tests: kinematic bodies driven by velocity, paths with commands, target poses, and riders
// carried by friction (000 ch. 23).
#include "tumble/tumble.h"
#include "world_helpers.h"

#include "mover.h"
#include "world.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#define DT ( 1.0f / 60.0f )

static tbWorldId makeWorld( void )
{
	tbWorldDef def = tbDefaultWorldDef();
	def.enableSleep = false;
	return tbCreateWorld( &def );
}

static tbBodyId addKinematic( tbWorldId world, tbVec3 position, tbVec3 half, float friction )
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_kinematic;
	bd.position = position;
	tbBodyId body = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = friction;
	tbCreateBoxShape( body, &sd, half, tb_transformIdentity, NULL );
	return body;
}

static void step( tbWorldId world, int n )
{
	for ( int i = 0; i < n; ++i )
	{
		assert_int_equal( tbWorld_Step( world, DT ), tbResult_ok );
	}
}

// A constant velocity moves the body exactly v t, and turns it by w t.
static void mover_velocity( void** state )
{
	(void)state;
	tbWorldId world = makeWorld();
	tbBodyId body = addKinematic( world, tbMakeVec3( 0.0f, 0.0f, 2.0f ), tbMakeVec3( 1.0f, 1.0f, 0.1f ), 0.5f );
	tbResult r;
	tbMoverId mover = tbCreateMover( body, &r );
	assert_int_equal( r, tbResult_ok );
	assert_int_equal( tbMover_GetMode( mover ), tbMover_idle );
	assert_int_equal( tbMover_SetVelocity( mover, tbMakeVec3( 1.0f, -0.5f, 0.0f ), tbMakeVec3( 0.0f, 0.0f, 0.5f ) ),
					  tbResult_ok );
	step( world, 60 );
	tbVec3 p = tbBody_GetPosition( body );
	float angle = 2.0f * atan2f( tbBody_GetRotation( body ).z, tbBody_GetRotation( body ).w );
	printf( "velocity mover: position %.5f %.5f %.5f after 1 s (expected 1, -0.5, 2), angle %.5f (0.5)\n", p.x, p.y, p.z,
			angle );
	assert_true( tbDistance( p, tbMakeVec3( 1.0f, -0.5f, 2.0f ) ) < 1.0e-3f );
	assert_true( fabsf( angle - 0.5f ) < 1.0e-3f );
	tbMover_Stop( mover );
	step( world, 30 );
	assert_true( tbDistance( tbBody_GetPosition( body ), p ) < 1.0e-5f );
	tbDestroyWorld( world );
}

// A linear path run once, with a 1 s wait at the middle point: the body stands still while
// waiting and ends exactly at the last point.
static void mover_path_once_with_wait( void** state )
{
	(void)state;
	tbWorldId world = makeWorld();
	tbBodyId body = addKinematic( world, tbMakeVec3( 0.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.1f ), 0.5f );
	tbMoverId mover = tbCreateMover( body, NULL );
	tbVec3 points[3] = { { 0.0f, 0.0f, 1.0f }, { 2.0f, 0.0f, 1.0f }, { 2.0f, 3.0f, 1.0f } };
	float waits[3] = { 0.0f, 1.0f, 0.0f };
	tbMoverPathDef def = tbDefaultMoverPathDef();
	def.points = points;
	def.pointCount = 3;
	def.waits = waits;
	def.speed = 1.0f;
	assert_int_equal( tbMover_SetPath( mover, &def ), tbResult_ok );
	assert_true( fabsf( tbMover_GetPathLength( mover ) - 5.0f ) < 1.0e-3f );

	// 2 s to the middle point.
	step( world, 121 );
	tbVec3 atMiddle = tbBody_GetPosition( body );
	printf( "path: at 2 s %.4f %.4f (middle point 2, 0)\n", atMiddle.x, atMiddle.y );
	assert_true( tbDistance( atMiddle, points[1] ) < 1.0e-3f );
	// Waits 1 s there.
	step( world, 50 );
	assert_true( tbDistance( tbBody_GetPosition( body ), points[1] ) < 1.0e-4f );
	assert_false( tbMover_IsFinished( mover ) );
	// Then 3 s to the end, and stops there.
	step( world, 60 * 3 + 30 );
	tbVec3 end = tbBody_GetPosition( body );
	printf( "path: end %.5f %.5f %.5f, finished %d\n", end.x, end.y, end.z, tbMover_IsFinished( mover ) );
	assert_true( tbMover_IsFinished( mover ) );
	assert_true( tbDistance( end, points[2] ) < 1.0e-3f );
	assert_true( tbLength( tbBody_GetLinearVelocity( body ) ) < 1.0e-4f );
	assert_true( fabsf( tbMover_GetPathDistance( mover ) - 5.0f ) < 1.0e-3f );
	tbDestroyWorld( world );
}

// Ping-pong between two points 3 m apart at 1.5 m/s with 0.5 m/s^2 starts and stops: back at the
// start after a round trip, every speed within the cruise speed.
static void mover_path_ping_pong( void** state )
{
	(void)state;
	tbWorldId world = makeWorld();
	tbBodyId body = addKinematic( world, tbMakeVec3( 0.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.1f ), 0.5f );
	tbMoverId mover = tbCreateMover( body, NULL );
	tbVec3 points[2] = { { 0.0f, 0.0f, 1.0f }, { 3.0f, 0.0f, 1.0f } };
	tbMoverPathDef def = tbDefaultMoverPathDef();
	def.points = points;
	def.pointCount = 2;
	def.end = tbPath_pingPong;
	def.speed = 1.5f;
	def.acceleration = 0.5f;
	tbMover_SetPath( mover, &def );
	float maxSpeed = 0.0f, maxX = 0.0f, prevSpeed = 0.0f, maxAccel = 0.0f;
	int steps = 0;
	while ( tbMover_GetLapCount( mover ) < 2 && steps < 60 * 30 )
	{
		step( world, 1 );
		steps += 1;
		float speed = tbLength( tbBody_GetLinearVelocity( body ) );
		maxSpeed = tbMaxFloat( maxSpeed, speed );
		maxAccel = tbMaxFloat( maxAccel, fabsf( speed - prevSpeed ) / DT );
		prevSpeed = speed;
		maxX = tbMaxFloat( maxX, tbBody_GetPosition( body ).x );
	}
	tbVec3 p = tbBody_GetPosition( body );
	// Trapezoid: accelerate 3 s over 2.25 m... a 3 m leg never reaches 1.5 m/s with 0.5 m/s^2:
	// triangle profile, 2 * sqrt(3 / 0.5) = 4.9 s per leg.
	printf( "ping-pong: back after %.2f s at x = %.5f, max x %.5f, max speed %.4f, max accel %.3f\n", (float)steps * DT,
			p.x, maxX, maxSpeed, maxAccel );
	assert_true( fabsf( p.x ) < 1.0e-3f );
	assert_true( fabsf( maxX - 3.0f ) < 1.0e-3f );
	assert_true( maxSpeed < 1.5f + 1.0e-3f );
	assert_true( maxAccel < 0.5f * 1.1f + 0.05f );
	assert_true( fabsf( (float)steps * DT - 2.0f * 2.0f * sqrtf( 3.0f / 0.5f ) ) < 0.3f );
	tbDestroyWorld( world );
}

// Move to a pose in a given time.
static void mover_move_to( void** state )
{
	(void)state;
	tbWorldId world = makeWorld();
	tbBodyId body = addKinematic( world, tbMakeVec3( 1.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.3f, 0.1f ), 0.5f );
	tbMoverId mover = tbCreateMover( body, NULL );
	tbVec3 target = { 4.0f, -2.0f, 3.0f };
	tbQuat rotation = tbMakeQuatAxisAngle( tbNormalize( tbMakeVec3( 1.0f, 2.0f, 3.0f ) ), 1.2f );
	assert_int_equal( tbMover_MoveTo( mover, target, rotation, 2.0f ), tbResult_ok );
	step( world, 60 );
	assert_false( tbMover_IsFinished( mover ) );
	tbVec3 half = tbBody_GetPosition( body );
	// Smooth start and stop: halfway in time is halfway in space.
	assert_true( tbDistance( half, tbLerp( tbMakeVec3( 1.0f, 0.0f, 1.0f ), target, 0.5f ) ) < 0.01f );
	step( world, 60 );
	assert_true( tbMover_IsFinished( mover ) );
	step( world, 30 );
	tbVec3 p = tbBody_GetPosition( body );
	float angleError = tbQuatAngle( tbInvMulQQ( rotation, tbBody_GetRotation( body ) ) );
	printf( "move to: position error %.6f m, rotation error %.5f deg\n", tbDistance( p, target ),
			angleError * 180.0f / TB_PI );
	assert_true( tbDistance( p, target ) < 1.0e-3f );
	assert_true( angleError < 0.1f * TB_PI / 180.0f );
	assert_true( tbLength( tbBody_GetLinearVelocity( body ) ) < 1.0e-4f );
	tbDestroyWorld( world );
}

// A box resting on a platform that follows a closed Catmull-Rom loop stays where it is on the
// platform: drift < 1 cm over one loop.
static void mover_carries_rider( void** state )
{
	(void)state;
	tbWorldId world = makeWorld();
	tbVec3 start = { 0.0f, 0.0f, 1.0f };
	tbBodyId platform = addKinematic( world, start, tbMakeVec3( 1.5f, 1.5f, 0.1f ), 0.8f );
	tbBodyId rider = th_addBox( world, tbMakeVec3( 0.3f, -0.2f, 1.35f ), tbMakeVec3( 0.25f, 0.25f, 0.25f ), 2.0f, 0.8f );
	// Let the rider settle first.
	step( world, 60 );
	tbVec3 local0 = tbInvTransformPoint( tbBody_GetTransform( platform ), tbBody_GetPosition( rider ) );

	tbMoverId mover = tbCreateMover( platform, NULL );
	tbVec3 points[4] = { { 0.0f, 0.0f, 1.0f }, { 5.0f, 0.0f, 1.5f }, { 5.0f, 5.0f, 1.0f }, { 0.0f, 5.0f, 2.0f } };
	tbMoverPathDef def = tbDefaultMoverPathDef();
	def.points = points;
	def.pointCount = 4;
	def.interpolation = tbPath_catmullRom;
	def.end = tbPath_loop;
	def.speed = 1.5f;
	def.acceleration = 1.0f;
	tbMover_SetPath( mover, &def );
	float length = tbMover_GetPathLength( mover );
	int steps = 0;
	float maxDrift = 0.0f;
	while ( tbMover_GetLapCount( mover ) < 1 && steps < 60 * 60 )
	{
		step( world, 1 );
		steps += 1;
		tbVec3 local = tbInvTransformPoint( tbBody_GetTransform( platform ), tbBody_GetPosition( rider ) );
		maxDrift = tbMaxFloat( maxDrift, tbDistance( local, local0 ) );
	}
	tbVec3 local = tbInvTransformPoint( tbBody_GetTransform( platform ), tbBody_GetPosition( rider ) );
	float drift = tbDistance( local, local0 );
	printf( "rider: loop of %.2f m in %.2f s, drift on the platform %.5f m at the end, %.5f m max\n", length,
			(float)steps * DT, drift, maxDrift );
	assert_int_equal( tbMover_GetLapCount( mover ), 1 );
	assert_true( drift < 0.01f );
	assert_true( maxDrift < 0.01f );
	// The platform is back at its start.
	assert_true( tbDistance( tbBody_GetPosition( platform ), start ) < 0.02f );
	tbDestroyWorld( world );
}

// A closed loop with a wait at one corner: the body stops there every lap.
static void mover_loop_with_wait( void** state )
{
	(void)state;
	tbWorldId world = makeWorld();
	tbBodyId body = addKinematic( world, tbMakeVec3( 0.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.1f ), 0.5f );
	tbMoverId mover = tbCreateMover( body, NULL );
	tbVec3 points[3] = { { 0.0f, 0.0f, 1.0f }, { 2.0f, 0.0f, 1.0f }, { 2.0f, 2.0f, 1.0f } };
	float waits[3] = { 0.0f, 0.5f, 0.0f };
	tbMoverPathDef def = tbDefaultMoverPathDef();
	def.points = points;
	def.pointCount = 3;
	def.waits = waits;
	def.end = tbPath_loop;
	def.speed = 2.0f;
	tbMover_SetPath( mover, &def );
	float length = tbMover_GetPathLength( mover ); // 2 + 2 + 2.83
	int stillAtCorner = 0, steps = 0;
	while ( tbMover_GetLapCount( mover ) < 2 && steps < 60 * 20 )
	{
		step( world, 1 );
		steps += 1;
		if ( tbDistance( tbBody_GetPosition( body ), points[1] ) < 1.0e-4f )
		{
			stillAtCorner += 1;
		}
	}
	float expected = 2.0f * ( length / 2.0f + 0.5f );
	printf( "loop with wait: length %.3f m, 2 laps in %.3f s (expected %.3f), %d steps at the corner (about 2 x 30)\n",
			length, (float)steps * DT, expected, stillAtCorner );
	assert_int_equal( tbMover_GetLapCount( mover ), 2 );
	assert_true( fabsf( (float)steps * DT - expected ) < 0.1f );
	assert_true( stillAtCorner >= 2 * 29 && stillAtCorner <= 2 * 32 );
	assert_true( tbDistance( tbBody_GetPosition( body ), points[0] ) < 0.05f );
	tbDestroyWorld( world );
}

// A 100 kg box thrown at a moving platform does not push it off its course.
static void mover_not_pushed( void** state )
{
	(void)state;
	tbWorldId world = makeWorld();
	tbBodyId wall = addKinematic( world, tbMakeVec3( 0.0f, 0.0f, 2.0f ), tbMakeVec3( 0.2f, 2.0f, 2.0f ), 0.5f );
	tbMoverId mover = tbCreateMover( wall, NULL );
	tbMover_SetVelocity( mover, tbMakeVec3( 0.5f, 0.0f, 0.0f ), tb_vec3_zero );
	tbBodyId box = th_addBox( world, tbMakeVec3( 3.0f, 0.0f, 2.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 100.0f, 0.5f );
	tbBody_SetLinearVelocity( box, tbMakeVec3( -10.0f, 0.0f, 0.0f ) );
	step( world, 120 );
	tbVec3 p = tbBody_GetPosition( wall );
	tbVec3 b = tbBody_GetPosition( box );
	printf( "not pushed: wall at x = %.5f (expected 1.0), box at x = %.3f\n", p.x, b.x );
	assert_true( fabsf( p.x - 1.0f ) < 1.0e-3f && fabsf( p.y ) < 1.0e-4f && fabsf( p.z - 2.0f ) < 1.0e-4f );
	assert_true( b.x > p.x ); // bounced off, did not pass through
	tbDestroyWorld( world );
}

// The movers' state is copied for world snapshots: restoring it (and the body's pose) repeats the
// motion exactly.
static void mover_snapshot( void** state )
{
	(void)state;
	tbWorldId worldId = makeWorld();
	tbBodyId body = addKinematic( worldId, tbMakeVec3( 0.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.1f ), 0.5f );
	tbMoverId mover = tbCreateMover( body, NULL );
	tbVec3 points[3] = { { 0.0f, 0.0f, 1.0f }, { 2.0f, 0.0f, 1.0f }, { 2.0f, 2.0f, 1.0f } };
	float waits[3] = { 0.0f, 0.3f, 0.0f };
	tbMoverPathDef def = tbDefaultMoverPathDef();
	def.points = points;
	def.pointCount = 3;
	def.waits = waits;
	def.interpolation = tbPath_catmullRom;
	def.end = tbPath_pingPong;
	def.acceleration = 2.0f;
	tbMover_SetPath( mover, &def );
	step( worldId, 30 );
	tbWorld* world = tbGetWorldFromId( worldId );
	bool made = false;
	tbMoverSnapshot* snapshot = tbSnapshotMovers( world, &made );
	assert_true( made );
	assert_non_null( snapshot );
	tbTransform pose = tbBody_GetTransform( body );
	step( worldId, 200 );
	tbVec3 first = tbBody_GetPosition( body );
	assert_true( tbRestoreMovers( world, snapshot ) );
	tbBody_SetTransform( body, pose.p, pose.q );
	assert_true( tbMover_IsValid( mover ) );
	step( worldId, 200 );
	tbVec3 second = tbBody_GetPosition( body );
	printf( "mover snapshot: %.6f %.6f %.6f, replay %.6f %.6f %.6f\n", first.x, first.y, first.z, second.x, second.y,
			second.z );
	assert_true( tbDistance( first, second ) < 1.0e-5f );
	tbFreeMoverSnapshot( snapshot );
	tbDestroyWorld( worldId );
}

static void mover_api( void** state )
{
	(void)state;
	tbWorldId world = makeWorld();
	tbBodyId dynamicBody = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 5.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbBodyId body = addKinematic( world, tbMakeVec3( 3.0f, 0.0f, 1.0f ), tbMakeVec3( 0.5f, 0.5f, 0.1f ), 0.5f );
	tbResult r;
	assert_false( tbMover_IsValid( tbCreateMover( dynamicBody, &r ) ) );
	assert_int_equal( r, tbResult_invalidArgument );
	tbMoverId mover = tbCreateMover( body, &r );
	assert_true( tbMover_IsValid( mover ) );
	assert_true( TB_ID_EQUALS( tbMover_GetBody( mover ), body ) );
	assert_false( tbMover_IsValid( tbCreateMover( body, &r ) ) ); // one per body
	assert_int_equal( r, tbResult_invalidArgument );

	tbVec3 points[2] = { { 0.0f, 0.0f, 1.0f }, { 1.0f, 0.0f, 1.0f } };
	tbMoverPathDef def = tbDefaultMoverPathDef();
	def.points = points;
	def.pointCount = 1;
	assert_int_equal( tbMover_SetPath( mover, &def ), tbResult_invalidArgument );
	def.pointCount = 2;
	def.speed = -1.0f;
	assert_int_equal( tbMover_SetPath( mover, &def ), tbResult_invalidArgument );
	def.speed = 1.0f;
	points[1].y = NAN;
	assert_int_equal( tbMover_SetPath( mover, &def ), tbResult_invalidArgument );
	points[1].y = 0.0f;
	assert_int_equal( tbMover_SetPath( mover, &def ), tbResult_ok );
	assert_int_equal( tbMover_GetMode( mover ), tbMover_path );
	assert_int_equal( tbMover_MoveTo( mover, tbMakeVec3( 0, 0, 0 ), tb_quatIdentity, 0.0f ), tbResult_invalidArgument );
	assert_int_equal( tbMover_SetVelocity( mover, tbMakeVec3( INFINITY, 0, 0 ), tb_vec3_zero ), tbResult_invalidArgument );
	step( world, 10 );

	// Pausing holds the body where it is.
	tbMover_SetPaused( mover, true );
	step( world, 1 );
	tbVec3 p = tbBody_GetPosition( body );
	step( world, 20 );
	assert_true( tbDistance( p, tbBody_GetPosition( body ) ) < 1.0e-5f );
	tbMover_SetPaused( mover, false );

	// The mover dies with its body.
	assert_int_equal( tbDestroyBody( body ), tbResult_ok );
	step( world, 1 );
	assert_false( tbMover_IsValid( mover ) );
	assert_int_equal( tbDestroyMover( mover ), tbResult_invalidId );
	tbDestroyWorld( world );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( mover_velocity ),
		cmocka_unit_test( mover_path_once_with_wait ),
		cmocka_unit_test( mover_path_ping_pong ),
		cmocka_unit_test( mover_move_to ),
		cmocka_unit_test( mover_loop_with_wait ),
		cmocka_unit_test( mover_carries_rider ),
		cmocka_unit_test( mover_not_pushed ),
		cmocka_unit_test( mover_snapshot ),
		cmocka_unit_test( mover_api ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
