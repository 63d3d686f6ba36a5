// Tests of the benchmark's engine-neutral parts (scene construction against SCENES.md, inertia,
// metrics) and of the ODE and Bullet adapters (poses round-trip, a few steps stay physical).
// Not part of tumble_bench (it has its own main): build it from bench/scenes.c, bench/metrics.c,
// bench/engine_ode.c and bench/engine_bullet.cpp, linked with -lcmocka -lode -lBulletDynamics
// -lBulletCollision -lLinearMath -lstdc++ -lm.
// SPDX-License-Identifier: MIT
#include "bench.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static tbBenchScene tbTest_Build( const char* name )
{
	tbBenchScene scene;
	bool built = tbBench_BuildScene( &scene, name );
	assert_true( built );
	return scene;
}

static float tbTest_FieldFloat( const tbBenchFields* fields, const char* key )
{
	const char* value = tbBench_FindField( fields, key );
	assert_non_null( value );
	return strtof( value, NULL );
}

// Scene sizes and key bodies, straight from SCENES.md.
static void test_sceneCounts( void** state )
{
	(void)state;
	struct
	{
		const char* name;
		int bodies, statics, joints, steps;
		bool ground;
	} expected[] = {
		{ "pyramid20", 210, 0, 0, 600, true },	  { "stack20", 20, 0, 0, 1200, true },
		{ "chains", 2000, 0, 2000, 600, false },  { "chains10", 1000, 0, 1000, 600, false },
		{ "rain", 1000, 4, 0, 900, true },		  { "ragdolls", 1100, 0, 1000, 600, true },
		{ "pyramid1240", 1240, 0, 0, 500, true }, { "pyramid5", 15, 0, 0, 600, true },
	};
	for ( size_t i = 0; i < sizeof( expected ) / sizeof( expected[0] ); ++i )
	{
		tbBenchScene scene = tbTest_Build( expected[i].name );
		assert_int_equal( scene.bodyCount, expected[i].bodies );
		assert_int_equal( scene.staticCount, expected[i].statics );
		assert_int_equal( scene.jointCount, expected[i].joints );
		assert_int_equal( scene.steps, expected[i].steps );
		assert_int_equal( scene.hasGround, expected[i].ground );
		tbBench_DestroyScene( &scene );
	}
	tbBenchScene unknown;
	assert_false( tbBench_BuildScene( &unknown, "pyramid" ) );
	assert_false( tbBench_BuildScene( &unknown, "nosuchscene" ) );
}

static void test_towerLayout( void** state )
{
	(void)state;
	tbBenchScene scene = tbTest_Build( "pyramid20" );
	// Body 209 is the top cube at z = 19.5; the bottom row spans x = -9.5 .. 9.5.
	assert_int_equal( scene.topBody, 209 );
	assert_float_equal( scene.bodies[209].position.z, 19.5f, 1.0e-6f );
	assert_float_equal( scene.bodies[0].position.x, -9.5f, 1.0e-6f );
	assert_float_equal( scene.bodies[19].position.x, 9.5f, 1.0e-6f );
	assert_float_equal( scene.standingZ, 19.0f, 0.0f );
	// Unit cube, m = 1: I = 1/6.
	assert_float_equal( scene.bodies[0].inertia.x, 1.0f / 6.0f, 1.0e-7f );
	assert_float_equal( scene.bodies[0].inertia.z, 1.0f / 6.0f, 1.0e-7f );
	tbBench_DestroyScene( &scene );

	scene = tbTest_Build( "pyramid1240" );
	// The Jolt pyramid: 8000 kg cubes, top layer (i = 14) a single cube at z = 36.
	float topZ = 0.0f;
	for ( int i = 0; i < scene.bodyCount; ++i )
	{
		topZ = tbMaxFloat( topZ, scene.bodies[i].position.z );
		assert_float_equal( scene.bodies[i].mass, 8000.0f, 0.0f );
	}
	assert_float_equal( topZ, 36.0f, 1.0e-5f );
	assert_float_equal( scene.friction, 0.2f, 0.0f );
	tbBench_DestroyScene( &scene );
}

// Capsule inertia against a midpoint-rule volume integral of the solid (independent of the
// closed form): r = 0.15, half_len = 0.12, m = 20 (the torso).
static void test_capsuleInertia( void** state )
{
	(void)state;
	tbBenchScene scene = tbTest_Build( "ragdolls" );
	const tbBenchBody* torso = scene.bodies + 1;
	double r = torso->radius;
	double h = torso->halfLength;
	const int n = 120;
	double cell = 2.0 * r / n;
	double cellZ = 2.0 * ( h + r ) / n;
	double volume = 0.0, ixx = 0.0, izz = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		double x = -r + ( i + 0.5 ) * cell;
		for ( int j = 0; j < n; ++j )
		{
			double y = -r + ( j + 0.5 ) * cell;
			for ( int k = 0; k < n; ++k )
			{
				double z = -h - r + ( k + 0.5 ) * cellZ;
				double dz = fabs( z ) > h ? fabs( z ) - h : 0.0;
				if ( x * x + y * y + dz * dz <= r * r )
				{
					double dv = cell * cell * cellZ;
					volume += dv;
					ixx += ( y * y + z * z ) * dv;
					izz += ( x * x + y * y ) * dv;
				}
			}
		}
	}
	double density = torso->mass / volume;
	assert_float_equal( torso->inertia.x, (float)( density * ixx ), 0.01f * torso->inertia.x );
	assert_float_equal( torso->inertia.y, (float)( density * ixx ), 0.01f * torso->inertia.y );
	assert_float_equal( torso->inertia.z, (float)( density * izz ), 0.01f * torso->inertia.z );

	// One ragdoll weighs 69 kg.
	float mass = 0.0f;
	for ( int i = 0; i < 11; ++i )
	{
		mass += scene.bodies[i].mass;
	}
	assert_float_equal( mass, 69.0f, 1.0e-4f );
	tbBench_DestroyScene( &scene );
}

static void tbTest_StartPoses( const tbBenchScene* scene, tbVec3* positions, tbQuat* rotations )
{
	for ( int i = 0; i < scene->bodyCount; ++i )
	{
		positions[i] = scene->bodies[i].position;
		rotations[i] = scene->bodies[i].rotation;
	}
}

// At the start pose every joint is closed and unbent: both pivots coincide, swing and twist are 0.
static void test_jointsConsistentAtStart( void** state )
{
	(void)state;
	const char* names[] = { "chains", "ragdolls" };
	for ( int n = 0; n < 2; ++n )
	{
		tbBenchScene scene = tbTest_Build( names[n] );
		tbVec3* positions = calloc( (size_t)scene.bodyCount, sizeof( tbVec3 ) );
		tbQuat* rotations = calloc( (size_t)scene.bodyCount, sizeof( tbQuat ) );
		tbTest_StartPoses( &scene, positions, rotations );
		for ( int i = 0; i < scene.jointCount; ++i )
		{
			assert_true( tbBench_JointError( scene.joints + i, positions, rotations ) < 1.0e-5f );
		}
		tbBenchTracker tracker;
		tbBench_InitTracker( &tracker );
		tbBenchFields fields = { .count = 0 };
		tbBench_AddMetrics( &fields, &scene, &tracker, positions, rotations );
		if ( scene.metrics == tbBenchMetrics_ragdolls )
		{
			// Nothing bent: the largest excess is minus the smallest limit (0.5 rad swing, 0.1 twist).
			assert_float_equal( tbTest_FieldFloat( &fields, "max_swing_excess_deg" ), -0.5f * 180.0f / TB_PI, 0.01f );
			assert_float_equal( tbTest_FieldFloat( &fields, "max_twist_excess_deg" ), -0.1f * 180.0f / TB_PI, 0.01f );
			// The lowest layer's feet are 7 cm above the ground (foot = lower leg bottom, 0.25 - 0.17 - 0.06 + 0.05).
			assert_float_equal( tbTest_FieldFloat( &fields, "max_ground_pen" ), -0.07f, 1.0e-4f );
		}
		else
		{
			assert_float_equal( tbTest_FieldFloat( &fields, "max_axis_err_deg" ), 0.0f, 1.0e-3f );
			assert_float_equal( tbTest_FieldFloat( &fields, "min_z" ), 60.0f, 1.0e-4f );
		}
		free( positions );
		free( rotations );
		tbBench_DestroyScene( &scene );
	}
}

// Swing-twist metric on a known relative rotation: child = parent * swing(axis in xy, s) * twist(z, t).
static void test_swingTwistMetric( void** state )
{
	(void)state;
	tbBenchScene scene = tbTest_Build( "ragdolls" );
	// Keep only the first ragdoll's waist joint (limits 0.5 swing, 0.3 twist).
	scene.bodyCount = 11;
	scene.jointCount = 1;
	tbVec3 positions[11];
	tbQuat rotations[11];
	tbTest_StartPoses( &scene, positions, rotations );
	const float swing = 0.9f;
	const float twist = 0.45f;
	tbVec3 swingAxis = { cosf( 0.3f ), sinf( 0.3f ), 0.0f };
	tbQuat relative =
		tbMulQQ( tbMakeQuatAxisAngle( swingAxis, swing ), tbMakeQuatAxisAngle( tbMakeVec3( 0, 0, 1 ), twist ) );
	rotations[1] = tbMulQQ( rotations[0], relative );
	// Move the child so the pivots still coincide: the metric must see no separation.
	const tbBenchJoint* joint = scene.joints;
	tbVec3 pivot = tbAdd( positions[0], tbRotate( rotations[0], joint->pivotA ) );
	positions[1] = tbSub( pivot, tbRotate( rotations[1], joint->pivotB ) );

	tbBenchTracker tracker;
	tbBench_InitTracker( &tracker );
	tbBenchFields fields = { .count = 0 };
	tbBench_AddMetrics( &fields, &scene, &tracker, positions, rotations );
	float toDeg = 180.0f / TB_PI;
	assert_float_equal( tbTest_FieldFloat( &fields, "max_swing_excess_deg" ), ( swing - 0.5f ) * toDeg, 0.01f );
	assert_float_equal( tbTest_FieldFloat( &fields, "max_twist_excess_deg" ), ( twist - 0.3f ) * toDeg, 0.01f );
	assert_float_equal( tbTest_FieldFloat( &fields, "max_joint_err" ), 0.0f, 1.0e-5f );
	scene.bodyCount = 1100;
	scene.jointCount = 1000;
	tbBench_DestroyScene( &scene );
}

// Ground penetration from the exact lowest point: a 0.5 m cube tilted 45 degrees about x reaches
// 0.25 * sqrt(2) below its centre; a sphere r below; a lying capsule r below.
static void test_groundPenetration( void** state )
{
	(void)state;
	tbBenchScene scene = tbTest_Build( "rain" );
	tbVec3* positions = calloc( (size_t)scene.bodyCount, sizeof( tbVec3 ) );
	tbQuat* rotations = calloc( (size_t)scene.bodyCount, sizeof( tbQuat ) );
	tbTest_StartPoses( &scene, positions, rotations );
	// Body 0 is a cube ((0 + 0 + 0) even), body 1 a sphere.
	assert_int_equal( scene.bodies[0].shape, tbBenchShape_box );
	assert_int_equal( scene.bodies[1].shape, tbBenchShape_sphere );
	positions[0] = tbMakeVec3( 0.0f, 0.0f, 0.3f );
	rotations[0] = tbMakeQuatAxisAngle( tbMakeVec3( 1, 0, 0 ), 0.25f * TB_PI );
	tbBenchTracker tracker;
	tbBench_InitTracker( &tracker );
	tbBenchFields fields = { .count = 0 };
	tbBench_AddMetrics( &fields, &scene, &tracker, positions, rotations );
	assert_float_equal( tbTest_FieldFloat( &fields, "max_ground_pen" ), 0.25f * sqrtf( 2.0f ) - 0.3f, 1.0e-4f );
	assert_int_equal( atoi( tbBench_FindField( &fields, "escaped" ) ), 0 );

	positions[1] = tbMakeVec3( 5.2f, 0.0f, 0.15f ); // outside the wall, 10 cm into the ground
	fields.count = 0;
	tbBench_AddMetrics( &fields, &scene, &tracker, positions, rotations );
	assert_float_equal( tbTest_FieldFloat( &fields, "max_ground_pen" ), 0.1f, 1.0e-4f );
	assert_int_equal( atoi( tbBench_FindField( &fields, "escaped" ) ), 1 );
	assert_float_equal( tbTest_FieldFloat( &fields, "pile_top_z" ), 55.0f, 1.0e-3f );
	free( positions );
	free( rotations );
	tbBench_DestroyScene( &scene );
}

static void test_fellAtStep( void** state )
{
	(void)state;
	tbBenchScene scene = tbTest_Build( "stack5" );
	tbVec3 positions[5];
	tbQuat rotations[5];
	tbTest_StartPoses( &scene, positions, rotations );
	tbBenchTracker tracker;
	tbBench_InitTracker( &tracker );
	for ( int step = 0; step < 10; ++step )
	{
		// The top (z = 4.5, standing above 4) drops 0.1 m per step: at or below 4 after the 5th step.
		positions[4].z = 4.5f - 0.1f * (float)( step + 1 ) - 1.0e-4f;
		tbBench_TrackStep( &tracker, &scene, step, positions, rotations );
	}
	assert_int_equal( tracker.fellAtStep, 5 );
	tbBench_DestroyScene( &scene );
}

// The adapters must hand back exactly the pose they were given (quaternion order, frames), and a
// few steps of a resting stack must keep it resting.
static void tbTest_EngineRoundTrip( const tbBenchEngine* engine )
{
	const char* names[] = { "rain", "ragdolls", "chains10", "stack20" };
	tbBenchSettings settings = { TB_BENCH_DEFAULT_ITERATIONS, false, 1 };
	for ( int n = 0; n < 4; ++n )
	{
		tbBenchScene scene = tbTest_Build( names[n] );
		const char* skip = NULL;
		void* handle = engine->create( &scene, &settings, &skip );
		assert_non_null( handle );
		for ( int i = 0; i < scene.bodyCount; ++i )
		{
			tbVec3 p;
			tbQuat q;
			engine->getPose( handle, i, &p, &q );
			assert_true( tbDistance( p, scene.bodies[i].position ) < 1.0e-5f );
			// q and -q are the same rotation.
			assert_true( fabsf( tbDotQ( q, scene.bodies[i].rotation ) ) > 1.0f - 1.0e-6f );
		}
		assert_int_equal( engine->getIterations( handle ), TB_BENCH_DEFAULT_ITERATIONS );
		for ( int step = 0; step < 10; ++step )
		{
			engine->step( handle );
		}
		tbVec3* positions = calloc( (size_t)scene.bodyCount, sizeof( tbVec3 ) );
		tbQuat* rotations = calloc( (size_t)scene.bodyCount, sizeof( tbQuat ) );
		for ( int i = 0; i < scene.bodyCount; ++i )
		{
			engine->getPose( handle, i, positions + i, rotations + i );
			assert_true( tbIsValidVec3( positions[i] ) );
		}
		if ( strcmp( names[n], "stack20" ) == 0 )
		{
			// Resting on the ground for 1/6 s. The peers' contacts are soft (the stack settles by
			// up to 25 cm in ODE), so only gross errors are caught: still standing, no sideways
			// drift, no contact deeper than 5 cm.
			assert_true( positions[19].z > 19.0f );
			tbVec3 drift = tbSub( positions[19], scene.bodies[19].position );
			assert_true( sqrtf( drift.x * drift.x + drift.y * drift.y ) < 0.01f );
			assert_true( engine->maxContactPenetration( handle ) < 0.05f );
		}
		if ( strcmp( names[n], "rain" ) == 0 )
		{
			// The top layer (55 m up) is in free fall: with symplectic Euler the drop after n steps is
			// g h^2 n (n + 1) / 2 = 10 / 3600 * 55 = 0.1528 m for n = 10.
			float drop = scene.bodies[999].position.z - positions[999].z;
			assert_float_equal( drop, 10.0f / 3600.0f * 55.0f, 0.005f );
			assert_float_equal( positions[999].x, scene.bodies[999].position.x, 1.0e-5f );
		}
		if ( scene.jointCount > 0 )
		{
			// Ten steps into the swing or fall the joints hold within 5 cm.
			for ( int i = 0; i < scene.jointCount; ++i )
			{
				assert_true( tbBench_JointError( scene.joints + i, positions, rotations ) < 0.05f );
			}
		}
		tbBenchFields fields = { .count = 0 };
		engine->addFields( handle, &scene, &fields );
		assert_non_null( tbBench_FindField( &fields, "lib" ) );
		free( positions );
		free( rotations );
		engine->destroy( handle );
		tbBench_DestroyScene( &scene );
	}
}

static void test_odeAdapter( void** state )
{
	(void)state;
	tbTest_EngineRoundTrip( tbBench_GetOdeEngine() );
}

static void test_bulletAdapter( void** state )
{
	(void)state;
	tbTest_EngineRoundTrip( tbBench_GetBulletEngine() );
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( test_sceneCounts ),	   cmocka_unit_test( test_towerLayout ),
		cmocka_unit_test( test_capsuleInertia ),   cmocka_unit_test( test_jointsConsistentAtStart ),
		cmocka_unit_test( test_swingTwistMetric ), cmocka_unit_test( test_groundPenetration ),
		cmocka_unit_test( test_fellAtStep ),	   cmocka_unit_test( test_odeAdapter ),
		cmocka_unit_test( test_bulletAdapter ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
