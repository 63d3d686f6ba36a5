// Cast-wheel vehicles: the wheel cast and the suspension at rest, engine and brakes, lateral grip
// on a circle, handbrake, anti-roll bars, a vehicle on a dynamic body, input checks, steady-state
// allocation.
#include "world_helpers.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#define DT ( 1.0f / 60.0f )
#define CAR_MASS 1200.0f
#define GRAVITY 10.0f

// A car: a 4 x 1.8 x 0.5 m box of 1200 kg, its centre 0.8 m above the ground, with four wheels
// of radius 0.35 m whose suspension is attached 0.1 m under the box's centre (0.4 m long at
// most). The rear wheels are driven and have the handbrake, the front ones steer by 0.5 rad.
static tbVehicleId makeCar( tbWorldId world, tbVec3 position, float stiffness, float antiRoll )
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_dynamic;
	bd.position = position;
	tbBodyId chassis = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = CAR_MASS / ( 4.0f * 1.8f * 0.5f );
	tbCreateBoxShape( chassis, &sd, tbMakeVec3( 2.0f, 0.9f, 0.25f ), tb_transformIdentity, NULL );

	tbWheelDef wheels[4];
	for ( int i = 0; i < 4; ++i )
	{
		bool front = i < 2;
		bool leftSide = ( i % 2 ) == 0;
		wheels[i] = tbDefaultWheelDef();
		wheels[i].position = tbMakeVec3( front ? 1.4f : -1.4f, leftSide ? 0.8f : -0.8f, -0.1f );
		wheels[i].maxLength = 0.4f;
		wheels[i].restLength = 0.4f;
		wheels[i].stiffness = stiffness;
		wheels[i].damping = 4000.0f;
		wheels[i].maxSteerAngle = front ? 0.5f : 0.0f;
		wheels[i].driven = !front;
		wheels[i].maxHandbrakeTorque = front ? 0.0f : 4000.0f;
	}
	tbAntiRollBarDef bars[2] = { { 0, 1, antiRoll }, { 2, 3, antiRoll } };
	tbVehicleDef vd = tbDefaultVehicleDef();
	vd.chassis = chassis;
	vd.wheels = wheels;
	vd.wheelCount = 4;
	vd.antiRollBars = bars;
	vd.antiRollBarCount = antiRoll > 0.0f ? 2 : 0;
	vd.maxEngineTorque = 2000.0f;
	tbResult result;
	tbVehicleId id = tbCreateVehicle( world, &vd, &result );
	assert_int_equal( result, tbResult_ok );
	assert_true( tbVehicle_IsValid( id ) );
	return id;
}

static void drive( tbWorldId world, tbVehicleId car, float throttle, float steer, float brake, float handbrake, int steps )
{
	assert_int_equal( tbVehicle_SetInput( car, throttle, steer, brake, handbrake ), tbResult_ok );
	th_run( world, steps );
}

// At rest each wheel's ray finds the ground, each suspension force is k times its compression and
// the four forces carry the car's weight (within 2 %); the chassis hangs at the height that
// compression gives.
static void suspension_carries_the_weight( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 1.0f );
	float k = 30000.0f;
	tbVehicleId car = makeCar( world, tbMakeVec3( 0.0f, 0.0f, 0.9f ), k, 0.0f );
	th_run( world, 180 );
	float total = 0.0f;
	for ( int i = 0; i < 4; ++i )
	{
		tbWheelState s = tbVehicle_GetWheelState( car, i );
		assert_true( s.inContact );
		assert_float_equal( s.contactPoint.z, 0.0f, 1e-4f );                    // on the ground, m
		assert_float_equal( s.contactNormal.z, 1.0f, 1e-4f );
		assert_float_equal( s.suspensionForce, k * s.compression, 0.01f * k * s.compression ); // N
		assert_float_equal( s.compression, CAR_MASS * GRAVITY / 4.0f / k, 0.005f );  // m, 0.1 m sag
		total += s.suspensionForce;
	}
	printf( "suspension at rest: wheel forces add up to %.2f N (m g = %.0f N), compression %.5f m (m g / 4k = %.5f)\n",
			(double)total, (double)( CAR_MASS * GRAVITY ), (double)tbVehicle_GetWheelState( car, 0 ).compression,
			(double)( CAR_MASS * GRAVITY / 4.0f / k ) );
	assert_float_equal( total, CAR_MASS * GRAVITY, 0.02f * CAR_MASS * GRAVITY ); // N
	// Attachment 0.1 m under the centre, length 0.4 - 0.1, wheel radius 0.35 to the ground.
	tbVec3 p = tbBody_GetPosition( tbVehicle_GetChassis( car ) );
	assert_float_equal( p.z, 0.1f + 0.3f + 0.35f, 0.005f );
	// Standing still: no tyre force, no drift.
	assert_float_equal( p.x, 0.0f, 0.01f );
	assert_float_equal( p.y, 0.0f, 0.01f );
	tbDestroyWorld( world );
}

// Full throttle accelerates the car (rear-wheel drive, 2000 N m on 0.35 m wheels: at most
// 5700 N, 4.8 m/s^2 for 1200 kg, less the tyres' grip); full brakes stop it within the distance
// that its tyres' grip allows.
static void engine_accelerates_and_brakes_stop( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 1.0f );
	tbVehicleId car = makeCar( world, tbMakeVec3( 0.0f, 0.0f, 0.8f ), 30000.0f, 0.0f );
	tbBodyId chassis = tbVehicle_GetChassis( car );
	th_run( world, 60 );
	drive( world, car, 1.0f, 0.0f, 0.0f, 0.0f, 120 );
	float speed = tbVehicle_GetForwardSpeed( car );
	// 2 s at no more than 4.8 m/s^2 and no less than half that.
	assert_true( speed > 4.8f );
	assert_true( speed < 9.6f );
	tbWheelState rear = tbVehicle_GetWheelState( car, 2 );
	assert_true( rear.longitudinalForce > 0.0f );
	// The wheel rolls: rim speed matches the road within 5 %.
	assert_float_equal( rear.angularVelocity * 0.35f, speed, 0.05f * speed );
	// Straight ahead: no sideways motion.
	assert_float_equal( tbBody_GetPosition( chassis ).y, 0.0f, 0.05f );

	float x0 = tbBody_GetPosition( chassis ).x;
	drive( world, car, 0.0f, 0.0f, 1.0f, 0.0f, 180 );
	assert_float_equal( tbVehicle_GetForwardSpeed( car ), 0.0f, 0.05f ); // m/s
	// 1500 N m a wheel on 0.35 m wheels is 17 kN for 1200 kg, more than the grip (mu g = 12 m/s^2):
	// stops within v^2 / (2 * 12 * 0.8) allowing a fifth less grip.
	float distance = tbBody_GetPosition( chassis ).x - x0;
	printf( "engine: %.3f m/s after 2 s at full throttle; brakes: stopped in %.3f m (limit %.3f m)\n", (double)speed,
			(double)distance, (double)( speed * speed / ( 2.0f * 12.0f * 0.8f ) + 0.2f ) );
	assert_true( distance > 0.0f );
	assert_true( distance < speed * speed / ( 2.0f * 12.0f * 0.8f ) + 0.2f );
	assert_float_equal( tbVehicle_GetWheelState( car, 0 ).angularVelocity, 0.0f, 0.05f );
	tbDestroyWorld( world );
}

// Steered at a constant speed the car drives round a circle: the lateral tyre force holds it. The
// radius is about the wheelbase over tan(steer angle) (2.8 m / tan 0.25 = 11 m) at low speed.
static void lateral_friction_keeps_a_circle( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 1.0f );
	tbVehicleId car = makeCar( world, tbMakeVec3( 0.0f, 0.0f, 0.8f ), 30000.0f, 10000.0f );
	tbBodyId chassis = tbVehicle_GetChassis( car );
	th_run( world, 30 );
	drive( world, car, 0.3f, 0.0f, 0.0f, 0.0f, 90 );
	// Hold about 5 m/s with the throttle, steering half (0.25 rad).
	float minR = 1e9f, maxR = 0.0f;
	tbVec3 center = tb_vec3_zero;
	for ( int i = 0; i < 900; ++i )
	{
		float speed = tbVehicle_GetForwardSpeed( car );
		float throttle = tbClampFloat( 0.5f * ( 5.0f - speed ), -1.0f, 1.0f );
		assert_int_equal( tbVehicle_SetInput( car, throttle, 0.5f, 0.0f, 0.0f ), tbResult_ok );
		tbWorld_Step( world, DT );
		if ( i == 600 )
		{
			// After two thirds of the run (more than a full turn) the centre of the circle is
			// where the lateral acceleration points; take it from the velocity and the turn rate.
			tbVec3 v = tbBody_GetLinearVelocity( chassis );
			float w = tbBody_GetAngularVelocity( chassis ).z;
			float r = tbLength( v ) / w;
			tbVec3 toCenter = tbNormalize( tbCross( tbMakeVec3( 0.0f, 0.0f, 1.0f ), v ) );
			center = tbMulAdd( tbBody_GetPosition( chassis ), r, toCenter );
		}
		if ( i > 600 )
		{
			float r = th_horizontal( tbBody_GetPosition( chassis ), center );
			minR = tbMinFloat( minR, r );
			maxR = tbMaxFloat( maxR, r );
		}
	}
	printf( "circle at 5 m/s, steer 0.25 rad: radius %.3f to %.3f m\n", (double)minR, (double)maxR );
	// A circle of radius 9..13 m, held within 0.5 m.
	assert_true( minR > 9.0f );
	assert_true( maxR < 13.0f );
	assert_true( maxR - minR < 0.5f );
	// Turning left (positive steer), upright.
	assert_true( tbBody_GetAngularVelocity( chassis ).z > 0.3f );
	tbVec3 up = tbRotate( tbBody_GetRotation( chassis ), tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	assert_true( up.z > 0.98f );
	tbDestroyWorld( world );
}

// The handbrake locks the rear wheels: rolling at 8 m/s, the car stops in a straight line and its
// rear wheels stop turning first.
static void handbrake_locks_the_rear_wheels( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 1.0f );
	tbVehicleId car = makeCar( world, tbMakeVec3( 0.0f, 0.0f, 0.8f ), 30000.0f, 0.0f );
	tbBodyId chassis = tbVehicle_GetChassis( car );
	th_run( world, 30 );
	drive( world, car, 1.0f, 0.0f, 0.0f, 0.0f, 120 );
	drive( world, car, 0.0f, 0.0f, 0.0f, 1.0f, 6 );
	assert_float_equal( tbVehicle_GetWheelState( car, 2 ).angularVelocity, 0.0f, 0.01f );
	assert_true( tbVehicle_GetWheelState( car, 0 ).angularVelocity > 5.0f );
	th_run( world, 300 );
	assert_float_equal( tbVehicle_GetForwardSpeed( car ), 0.0f, 0.05f );
	assert_float_equal( tbBody_GetPosition( chassis ).y, 0.0f, 0.1f );
	tbDestroyWorld( world );
}

// In a steady turn the anti-roll bars hold the chassis flatter than without them.
static float rollInTurn( float antiRoll )
{
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 1.0f );
	tbVehicleId car = makeCar( world, tbMakeVec3( 0.0f, 0.0f, 0.8f ), 30000.0f, antiRoll );
	th_run( world, 30 );
	for ( int i = 0; i < 400; ++i )
	{
		float speed = tbVehicle_GetForwardSpeed( car );
		float throttle = tbClampFloat( 0.5f * ( 8.0f - speed ), -1.0f, 1.0f );
		tbVehicle_SetInput( car, throttle, i > 150 ? 0.5f : 0.0f, 0.0f, 0.0f );
		tbWorld_Step( world, DT );
	}
	tbBodyId chassis = tbVehicle_GetChassis( car );
	tbVec3 side = tbRotate( tbBody_GetRotation( chassis ), tbMakeVec3( 0.0f, 1.0f, 0.0f ) );
	float roll = asinf( fabsf( side.z ) );
	tbDestroyWorld( world );
	return roll;
}

static void anti_roll_bars_reduce_roll( void** state )
{
	(void)state;
	float free = rollInTurn( 0.0f );
	float held = rollInTurn( 30000.0f );
	printf( "roll in a steady turn at 8 m/s: %.4f rad without anti-roll bars, %.4f rad with\n", (double)free, (double)held );
	assert_true( free > 0.01f );      // rad: it does roll in the turn
	assert_true( held < 0.7f * free ); // the bars take away at least 30 %
}

// A car parked on a dynamic plank pushes the plank down with its weight (the wheels' impulses go
// to the body under them), and the plank carries it up when it rises.
static void presses_on_a_dynamic_body( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 1.0f );
	tbBodyId plank = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 0.1f ), tbMakeVec3( 3.0f, 2.0f, 0.1f ), 500.0f, 1.0f );
	tbVehicleId car = makeCar( world, tbMakeVec3( 0.0f, 0.0f, 1.0f ), 30000.0f, 0.0f );
	th_run( world, 120 );
	tbWheelState s = tbVehicle_GetWheelState( car, 0 );
	assert_true( s.inContact );
	assert_true( TB_ID_EQUALS( s.groundBody, plank ) );
	// The plank rests on the ground under the car's weight: its contacts carry car and plank.
	tbContactData contacts[8];
	int n = tbBody_GetContactData( plank, contacts, 8 );
	float normal = 0.0f;
	for ( int i = 0; i < n && i < 8; ++i )
	{
		for ( int j = 0; j < contacts[i].manifold.pointCount; ++j )
		{
			normal += contacts[i].manifold.points[j].stepNormalImpulse;
		}
	}
	assert_float_equal( normal / DT, ( CAR_MASS + 500.0f ) * GRAVITY, 0.05f * ( CAR_MASS + 500.0f ) * GRAVITY );
	assert_float_equal( tbBody_GetPosition( tbVehicle_GetChassis( car ) ).z, 0.2f + 0.1f + 0.3f + 0.35f, 0.01f );
	tbDestroyWorld( world );
}

// Bad definitions and inputs are refused; destroying the chassis leaves the vehicle inert.
static void refuses_bad_input( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	tbBodyId ground = th_addGround( world, 1.0f );
	tbVehicleId car = makeCar( world, tbMakeVec3( 0.0f, 0.0f, 0.8f ), 30000.0f, 0.0f );
	tbWheelDef wheel = tbDefaultWheelDef();
	tbVehicleDef vd = tbDefaultVehicleDef();
	vd.chassis = ground; // static
	vd.wheels = &wheel;
	vd.wheelCount = 1;
	tbResult result;
	assert_true( TB_IS_NULL( tbCreateVehicle( world, &vd, &result ) ) );
	assert_int_equal( result, tbResult_invalidArgument );
	// One vehicle a chassis.
	vd.chassis = tbVehicle_GetChassis( car );
	assert_true( TB_ID_EQUALS( tbBody_GetVehicle( vd.chassis ), car ) );
	assert_true( TB_IS_NULL( tbBody_GetVehicle( ground ) ) );
	assert_true( TB_IS_NULL( tbCreateVehicle( world, &vd, &result ) ) );
	assert_int_equal( result, tbResult_invalidArgument );
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_dynamic;
	vd.chassis = tbCreateBody( world, &bd );
	vd.wheelCount = TB_MAX_VEHICLE_WHEELS + 1;
	assert_true( TB_IS_NULL( tbCreateVehicle( world, &vd, &result ) ) );
	vd.wheelCount = 1;
	wheel.restLength = wheel.maxLength + 0.1f;
	assert_true( TB_IS_NULL( tbCreateVehicle( world, &vd, &result ) ) );
	wheel = tbDefaultWheelDef();
	wheel.stiffness = NAN;
	assert_true( TB_IS_NULL( tbCreateVehicle( world, &vd, &result ) ) );
	wheel = tbDefaultWheelDef();
	wheel.direction = tbMakeVec3( 0.0f, 0.0f, -2.0f );
	assert_true( TB_IS_NULL( tbCreateVehicle( world, &vd, &result ) ) );
	wheel = tbDefaultWheelDef();
	vd.forward = tbMakeVec3( 0.0f, 0.0f, 1.0f ); // along up
	assert_true( TB_IS_NULL( tbCreateVehicle( world, &vd, &result ) ) );
	vd.forward = tbMakeVec3( 1.0f, 0.0f, 0.0f );
	tbAntiRollBarDef bar = { 0, 0, 1000.0f };
	vd.antiRollBars = &bar;
	vd.antiRollBarCount = 1;
	assert_true( TB_IS_NULL( tbCreateVehicle( world, &vd, &result ) ) );

	assert_int_equal( tbVehicle_SetInput( car, 1.5f, 0.0f, 0.0f, 0.0f ), tbResult_invalidArgument );
	assert_int_equal( tbVehicle_SetInput( car, 0.0f, NAN, 0.0f, 0.0f ), tbResult_invalidArgument );
	assert_int_equal( tbVehicle_SetInput( car, 0.0f, 0.0f, -0.1f, 0.0f ), tbResult_invalidArgument );
	assert_int_equal( tbVehicle_SetWheelDef( car, 4, &wheel ), tbResult_invalidArgument );
	assert_int_equal( tbVehicle_SetWheelDef( car, 0, &wheel ), tbResult_ok );

	tbDestroyBody( tbVehicle_GetChassis( car ) );
	th_run( world, 2 );
	assert_true( tbVehicle_IsValid( car ) );
	assert_int_equal( tbDestroyVehicle( car ), tbResult_ok );
	assert_false( tbVehicle_IsValid( car ) );
	assert_int_equal( tbVehicle_SetInput( car, 0.0f, 0.0f, 0.0f, 0.0f ), tbResult_invalidId );
	tbDestroyWorld( world );
}

// A driving, steering car's steps allocate nothing from the system heap, and the wheel pose
// follows the suspension.
static void steady_state_does_not_allocate( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 1.0f );
	tbVehicleId car = makeCar( world, tbMakeVec3( 0.0f, 0.0f, 0.8f ), 30000.0f, 10000.0f );
	drive( world, car, 0.5f, 0.3f, 0.0f, 0.0f, 120 );
	long before = tbGetAllocationCount();
	drive( world, car, 0.5f, 0.3f, 0.0f, 0.0f, 120 );
	assert_int_equal( tbGetAllocationCount(), before );
	tbTransform wheel = tbVehicle_GetWheelTransform( car, 0 );
	tbWheelState s = tbVehicle_GetWheelState( car, 0 );
	assert_float_equal( wheel.p.z, 0.35f, 0.02f ); // its centre one radius above the ground, m
	assert_float_equal( s.steerAngle, 0.15f, 1e-6f );
	tbDestroyWorld( world );
}

// On a 15 degree slope (the wheels' rays meet a tilted box): braked, the car stays put (tyre grip
// 1.2 > tan 15 deg = 0.27); released, it rolls down at g sin 15 / (1 + 4 I / (m R^2)), the four
// wheels' spin taking their share of the energy.
static void holds_and_rolls_on_a_slope( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	float angle = 15.0f * TB_PI / 180.0f;
	tbBodyDef gd = tbDefaultBodyDef();
	gd.rotation = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 1.0f, 0.0f ), -angle ); // rises along +x
	gd.position = tbMakeVec3( 0.0f, 0.0f, -1.0f );
	tbBodyId slope = tbCreateBody( world, &gd );
	tbShapeDef sd = tbDefaultShapeDef();
	tbCreateBoxShape( slope, &sd, tbMakeVec3( 100.0f, 20.0f, 1.0f ), tb_transformIdentity, NULL );
	tbVehicleId car = makeCar( world, tbMakeVec3( 0.0f, 0.0f, 0.9f ), 30000.0f, 0.0f );
	tbBodyId chassis = tbVehicle_GetChassis( car );
	tbBody_SetTransform( chassis, tbMakeVec3( 0.0f, 0.0f, 0.85f / cosf( angle ) ), gd.rotation );
	drive( world, car, 0.0f, 0.0f, 1.0f, 0.0f, 120 );
	tbVec3 parked = tbBody_GetPosition( chassis );
	th_run( world, 180 );
	float crept = tbDistance( parked, tbBody_GetPosition( chassis ) );
	printf( "slope 15 deg: braked, moved %.5f m in 3 s\n", (double)crept );
	assert_true( crept < 0.01f ); // m
	for ( int i = 0; i < 4; ++i )
	{
		tbWheelState s = tbVehicle_GetWheelState( car, i );
		assert_true( s.inContact );
		assert_float_equal( s.contactNormal.x, -sinf( angle ), 1e-3f ); // the slope's normal
	}

	drive( world, car, 0.0f, 0.0f, 0.0f, 0.0f, 30 );
	float v0 = tbVehicle_GetForwardSpeed( car );
	th_run( world, 60 );
	float a = ( tbVehicle_GetForwardSpeed( car ) - v0 ) / 1.0f;
	float expected = -GRAVITY * sinf( angle ) / ( 1.0f + 4.0f * 1.0f / ( CAR_MASS * 0.35f * 0.35f ) );
	printf( "slope 15 deg: released, %.4f m/s^2 along its axis (expected %.4f)\n", (double)a, (double)expected );
	assert_float_equal( a, expected, 0.05f * fabsf( expected ) );
	tbDestroyWorld( world );
}

// Snapshots keep vehicles: restored, a driving car repeats its run bit for bit (the wheels' spin
// comes back with it); a snapshot from before the car was made takes the car away.
static void snapshots_keep_vehicles( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 1.0f );
	tbSnapshot* empty = tbWorld_TakeSnapshot( world );
	tbVehicleId car = makeCar( world, tbMakeVec3( 0.0f, 0.0f, 0.8f ), 30000.0f, 10000.0f );
	tbBodyId chassis = tbVehicle_GetChassis( car );
	drive( world, car, 1.0f, 0.4f, 0.0f, 0.0f, 60 );
	tbSnapshot* snap = tbWorld_TakeSnapshot( world );
	drive( world, car, 0.5f, -0.4f, 0.0f, 0.0f, 60 );
	tbVec3 first = tbBody_GetPosition( chassis );
	float spin = tbVehicle_GetWheelState( car, 2 ).angularVelocity;
	assert_int_equal( tbWorld_RestoreSnapshot( world, snap ), tbResult_ok );
	assert_true( tbVehicle_IsValid( car ) );
	float throttle;
	tbVehicle_GetInput( car, &throttle, NULL, NULL, NULL );
	assert_float_equal( throttle, 1.0f, 0.0f );
	drive( world, car, 0.5f, -0.4f, 0.0f, 0.0f, 60 );
	tbVec3 second = tbBody_GetPosition( chassis );
	assert_true( first.x == second.x && first.y == second.y && first.z == second.z );
	assert_true( spin == tbVehicle_GetWheelState( car, 2 ).angularVelocity );
	assert_int_equal( tbWorld_RestoreSnapshot( world, empty ), tbResult_ok );
	assert_false( tbVehicle_IsValid( car ) );
	tbDestroySnapshot( snap );
	tbDestroySnapshot( empty );
	tbDestroyWorld( world );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( suspension_carries_the_weight ),
		cmocka_unit_test( engine_accelerates_and_brakes_stop ),
		cmocka_unit_test( lateral_friction_keeps_a_circle ),
		cmocka_unit_test( handbrake_locks_the_rear_wheels ),
		cmocka_unit_test( anti_roll_bars_reduce_roll ),
		cmocka_unit_test( presses_on_a_dynamic_body ),
		cmocka_unit_test( refuses_bad_input ),
		cmocka_unit_test( steady_state_does_not_allocate ),
		cmocka_unit_test( snapshots_keep_vehicles ),
		cmocka_unit_test( holds_and_rolls_on_a_slope ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
