// World-level physics tests: resting contact, stacking, restitution, friction, sleeping, queries.
#include "world_helpers.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

static const tbSolverMode s_modes[] = { tbSolver_soft, tbSolver_split, tbSolver_baumgarte };
static const char* s_modeNames[] = { "soft", "split", "baumgarte" };

// A unit box dropped from 1.5 m settles on the ground: penetration < 5 mm, 4 contact points.
static void box_drop_settles( void** state )
{
	(void)state;
	for ( int m = 0; m < 3; ++m )
	{
		tbWorldId world = th_makeWorld( s_modes[m], false );
		th_addGround( world, 0.5f );
		tbBodyId box = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 2.0f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
		th_run( world, 180 );
		tbVec3 p = tbBody_GetPosition( box );
		float penetration = 0.5f - p.z;
		printf( "box drop %s: z = %.5f, penetration %.5f m\n", s_modeNames[m], p.z, penetration );
		assert_true( penetration < 0.005f );
		assert_true( penetration > -0.005f );
		tbContactData contacts[4];
		int n = tbWorld_GetContacts( world, contacts, 4 );
		assert_int_equal( n, 1 );
		assert_int_equal( contacts[0].manifold.pointCount, 4 );
		tbVec3 v = tbBody_GetLinearVelocity( box );
		assert_true( tbLength( v ) < 0.01f );
		tbDestroyWorld( world );
	}
}

// A box placed exactly on the ground gets 4 points on its very first step.
static void resting_box_full_manifold_first_step( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 0.5f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbWorld_Step( world, 1.0f / 60.0f );
	tbContactData contacts[2];
	assert_int_equal( tbWorld_GetContacts( world, contacts, 2 ), 1 );
	assert_int_equal( contacts[0].manifold.pointCount, 4 );
	tbDestroyWorld( world );
}

// SCENES.md stack20 and pyramid20 at 10 iterations, 60 Hz, friction 0.5, no sleeping.
static void build_stack( tbWorldId world, int n, tbBodyId* bodies )
{
	for ( int i = 0; i < n; ++i )
	{
		bodies[i] = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 0.5f + (float)i ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	}
}

static void stack20_stands( void** state )
{
	(void)state;
	// The default (soft) mode must hold it: top drift < 1 cm over 1200 steps.
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	tbBodyId bodies[20];
	build_stack( world, 20, bodies );
	tbVec3 start = tbBody_GetPosition( bodies[19] );
	th_run( world, 1200 );
	tbVec3 top = tbBody_GetPosition( bodies[19] );
	printf( "stack20 soft: top drift xy %.5f m, z %.5f m\n", th_horizontal( top, start ), top.z - start.z );
	// standing: the top moved less than 1 cm sideways; the z drift is the soft contacts' resting
	// compression summed over 20 contacts (about 0.5 mm each)
	assert_true( th_horizontal( top, start ) < 0.01f );
	assert_true( top.z - start.z > -0.015f && top.z - start.z < 0.001f );
	tbDestroyWorld( world );
}

static void pyramid20_stands( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	th_addGround( world, 0.5f );
	tbBodyId bodies[210];
	int k = 0;
	for ( int row = 0; row < 20; ++row )
	{
		int n = 20 - row;
		for ( int i = 0; i < n; ++i )
		{
			float x = (float)i - 0.5f * (float)( n - 1 );
			bodies[k++] = th_addBox( world, tbMakeVec3( x, 0.0f, 0.5f + (float)row ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
		}
	}
	tbVec3 start = tbBody_GetPosition( bodies[209] );
	tbVec3 starts[210];
	for ( int i = 0; i < 210; ++i )
	{
		starts[i] = tbBody_GetPosition( bodies[i] );
	}
	th_run( world, 600 );
	tbVec3 top = tbBody_GetPosition( bodies[209] );
	float maxDisp = 0.0f;
	for ( int i = 0; i < 210; ++i )
	{
		maxDisp = fmaxf( maxDisp, tbDistance( tbBody_GetPosition( bodies[i] ), starts[i] ) );
	}
	printf( "pyramid20 soft: top drift xy %.5f m, z %.5f m, max_disp %.5f m\n", th_horizontal( top, start ),
			top.z - start.z, maxDisp );
	assert_true( th_horizontal( top, start ) < 0.01f );
	assert_true( fabsf( top.z - start.z ) < 0.01f );
	tbDestroyWorld( world );
}

// Seed 001's 5-cube stack: cubes 2.4 m, 1.2 kg, 0.6 m gaps, bottom centre 2 m up; after 10
// simulated minutes every cube still rests on the one below (within 2 cm of its resting height,
// centred on it within a tenth of the cube size).
static void seed001_five_cube_stack( void** state )
{
	(void)state;
	for ( int m = 0; m < 3; ++m )
	{
		tbWorldId world = th_makeWorld( s_modes[m], false );
		th_addGround( world, 0.5f );
		tbBodyId bodies[5];
		for ( int i = 0; i < 5; ++i )
		{
			bodies[i] = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 2.0f + 3.0f * (float)i ), tbMakeVec3( 1.2f, 1.2f, 1.2f ), 1.2f, 0.5f );
		}
		th_run( world, 60 * 600 );
		float worstOffset = 0.0f, worstHeight = 0.0f;
		for ( int i = 0; i < 5; ++i )
		{
			tbVec3 p = tbBody_GetPosition( bodies[i] );
			worstHeight = fmaxf( worstHeight, fabsf( p.z - ( 1.2f + 2.4f * (float)i ) ) );
			if ( i > 0 )
			{
				worstOffset = fmaxf( worstOffset, th_horizontal( p, tbBody_GetPosition( bodies[i - 1] ) ) );
			}
		}
		tbVec3 top = tbBody_GetPosition( bodies[4] );
		printf( "5-cube stack %s after 600 s: top at (%.4f, %.4f, %.4f), worst offset on the cube below %.4f m, "
				"worst height error %.4f m\n",
				s_modeNames[m], top.x, top.y, top.z, worstOffset, worstHeight );
		assert_true( worstHeight < 0.02f );
		assert_true( worstOffset < 0.24f );
		tbDestroyWorld( world );
	}
}

// Seed 001's intersecting stack: overlapping cubes separate without flying apart.
static void seed001_intersecting_stack( void** state )
{
	(void)state;
	for ( int m = 0; m < 2; ++m )
	{
		tbWorldId world = th_makeWorld( s_modes[m], false );
		th_addGround( world, 0.5f );
		tbBodyId bodies[5];
		for ( int i = 0; i < 5; ++i )
		{
			bodies[i] = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, 2.0f * (float)i ), tbMakeVec3( 1.2f, 1.2f, 1.2f ), 1.2f, 0.5f );
		}
		th_run( world, 30 );
		float maxSpeed = 0.0f;
		for ( int i = 0; i < 5; ++i )
		{
			maxSpeed = fmaxf( maxSpeed, tbLength( tbBody_GetLinearVelocity( bodies[i] ) ) );
		}
		printf( "intersecting stack %s: max speed after 0.5 s = %.4f m/s\n", s_modeNames[m], maxSpeed );
		assert_true( maxSpeed < 0.5f );
		tbDestroyWorld( world );
	}
}

// A sphere dropped from 5 m with e = 0.5 bounces to 1.25 m (+-3%).
static void restitution_bounce_height( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, false );
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = tbMakeVec3( 0.0f, 0.0f, -1.0f );
	tbBodyId ground = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.restitution = 0.5f;
	tbCreateBoxShape( ground, &sd, tbMakeVec3( 50.0f, 50.0f, 1.0f ), tb_transformIdentity, NULL );
	float r = 0.25f;
	tbBodyId ball = th_addSphere( world, tbMakeVec3( 0.0f, 0.0f, 5.0f + r ), r, 1.0f );
	tbShapeId shape;
	tbBody_GetShapes( ball, &shape, 1 );
	tbShape_SetRestitution( shape, 0.5f );
	// Fall (about 1 s) then track the highest point after the first bounce.
	float peak = 0.0f;
	bool bounced = false;
	for ( int i = 0; i < 240; ++i )
	{
		tbWorld_Step( world, 1.0f / 60.0f );
		float vz = tbBody_GetLinearVelocity( ball ).z;
		float z = tbBody_GetPosition( ball ).z - r;
		if ( vz > 0.0f )
		{
			bounced = true;
		}
		if ( bounced )
		{
			peak = fmaxf( peak, z );
		}
		if ( bounced && vz < -1.0f )
		{
			break;
		}
	}
	printf( "bounce peak %.4f m (expected 1.25)\n", peak );
	assert_true( fabsf( peak - 1.25f ) < 0.03f * 1.25f );
	tbDestroyWorld( world );
}

// A box on a 20 degree slope: stays with mu = 0.5, slides with mu = 0.2 at g (sin - mu cos).
static void friction_slope( void** state )
{
	(void)state;
	float angle = 20.0f * TB_PI / 180.0f;
	tbQuat q = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 1.0f, 0.0f ), -angle );
	tbVec3 down = tbRotate( q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) ); // along the slope, pointing down-hill
	if ( down.z > 0.0f )
	{
		down = tbNeg( down );
	}
	tbVec3 up = tbRotate( q, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
	float mus[2] = { 0.5f, 0.2f };
	for ( int k = 0; k < 2; ++k )
	{
		float mu = mus[k];
		tbWorldId world = th_makeWorld( tbSolver_soft, false );
		tbBodyDef bd = tbDefaultBodyDef();
		bd.rotation = q;
		tbBodyId slope = tbCreateBody( world, &bd );
		tbShapeDef sd = tbDefaultShapeDef();
		sd.friction = mu;
		// slope top face passes through the origin
		tbTransform local = { { 0.0f, 0.0f, -0.5f }, { 0.0f, 0.0f, 0.0f, 1.0f } };
		tbCreateBoxShape( slope, &sd, tbMakeVec3( 50.0f, 5.0f, 0.5f ), local, NULL );
		tbBodyDef bb = tbDefaultBodyDef();
		bb.type = tbBody_dynamic;
		bb.rotation = q;
		bb.position = tbMulSV( 0.25f, up );
		tbBodyId box = tbCreateBody( world, &bb );
		tbCreateBoxShape( box, &sd, tbMakeVec3( 0.25f, 0.25f, 0.25f ), tb_transformIdentity, NULL );
		// settle one step, then measure
		th_run( world, 10 );
		tbVec3 p0 = tbBody_GetPosition( box );
		float v0 = tbDot( tbBody_GetLinearVelocity( box ), down );
		int steps = k == 0 ? 300 : 60;
		th_run( world, steps );
		tbVec3 p1 = tbBody_GetPosition( box );
		float t = (float)steps / 60.0f;
		float travelled = tbDot( tbSub( p1, p0 ), down );
		if ( k == 0 )
		{
			printf( "slope mu 0.5: drift %.6f m in 5 s\n", travelled );
			assert_true( fabsf( travelled ) < 0.001f );
		}
		else
		{
			float a = 10.0f * ( sinf( angle ) - mu * cosf( angle ) );
			float expected = v0 * t + 0.5f * a * t * t;
			printf( "slope mu 0.2: travelled %.4f m, expected %.4f m\n", travelled, expected );
			assert_true( fabsf( travelled - expected ) < 0.03f * expected );
		}
		tbDestroyWorld( world );
	}
}

// A settled pile goes to sleep, and a body dropped on it wakes it.
static void sleeping_and_waking( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	th_addGround( world, 0.5f );
	tbBodyId bodies[3];
	build_stack( world, 3, bodies );
	th_run( world, 240 );
	for ( int i = 0; i < 3; ++i )
	{
		assert_false( tbBody_IsAwake( bodies[i] ) );
	}
	tbWorldCounters c = tbWorld_GetCounters( world );
	assert_int_equal( c.awakeBodyCount, 0 );
	tbBodyId ball = th_addSphere( world, tbMakeVec3( 0.2f, 0.0f, 5.0f ), 0.3f, 5.0f );
	th_run( world, 60 );
	assert_true( tbBody_IsAwake( bodies[0] ) || tbBody_IsAwake( bodies[2] ) );
	(void)ball;
	tbDestroyWorld( world );
}

// Ray casts hit the right body at the right distance, and report misses.
static void ray_casts( void** state )
{
	(void)state;
	tbWorldId world = th_makeWorld( tbSolver_soft, true );
	th_addGround( world, 0.5f );
	tbBodyId box = th_addBox( world, tbMakeVec3( 3.0f, 0.0f, 0.5f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbBodyId ball = th_addSphere( world, tbMakeVec3( -3.0f, 0.0f, 1.0f ), 1.0f, 1.0f );
	tbQueryFilter filter = tbDefaultQueryFilter();

	tbRayResult r = tbWorld_CastRayClosest( world, tbMakeVec3( 0.0f, 0.0f, 0.5f ), tbMakeVec3( 10.0f, 0.0f, 0.0f ), filter );
	assert_true( r.hit );
	assert_true( TB_ID_EQUALS( r.bodyId, box ) );
	assert_float_equal( r.point.x, 2.5f, 1e-4f );
	assert_float_equal( r.normal.x, -1.0f, 1e-4f );

	r = tbWorld_CastRayClosest( world, tbMakeVec3( 0.0f, 0.0f, 1.0f ), tbMakeVec3( -10.0f, 0.0f, 0.0f ), filter );
	assert_true( r.hit );
	assert_true( TB_ID_EQUALS( r.bodyId, ball ) );
	assert_float_equal( r.point.x, -2.0f, 1e-4f );

	r = tbWorld_CastRayClosest( world, tbMakeVec3( 0.0f, 0.0f, 5.0f ), tbMakeVec3( 0.0f, 0.0f, -10.0f ), filter );
	assert_true( r.hit );
	assert_float_equal( r.point.z, 0.0f, 1e-4f );
	assert_float_equal( r.fraction, 0.5f, 1e-4f );

	r = tbWorld_CastRayClosest( world, tbMakeVec3( 0.0f, 0.0f, 5.0f ), tbMakeVec3( 0.0f, 0.0f, 10.0f ), filter );
	assert_false( r.hit );

	// Far rays (fuzz finding 45). From the edge of the world (1e6 m) the hit is as exact as floats
	// at that distance allow (0.06 m apart), and still a hit with a unit normal from
	// TB_MAX_QUERY_COORDINATE (1e7 m). Past it rays hit nothing: from 1e8 m the point rounded onto
	// the sphere's centre with a zero normal, and from 3.4e38 m it was NaN.
	tbShapeId ballShape;
	assert_int_equal( tbBody_GetShapes( ball, &ballShape, 1 ), 1 );
	tbCastOutput far =
		tbShape_RayCast( ballShape, tbMakeVec3( -3.0f, 1.0e6f, 1.0f ), tbMakeVec3( 0.0f, -2.0e6f, 0.0f ) );
	assert_true( far.hit );
	assert_float_equal( far.point.y, 1.0f, 0.25f );
	assert_float_equal( far.normal.y, 1.0f, 1e-4f );
	r = tbWorld_CastRayClosest( world, tbMakeVec3( -3.0f, 1.0e6f, 1.0f ), tbMakeVec3( 0.0f, -2.0e6f, 0.0f ), filter );
	assert_true( r.hit && TB_ID_EQUALS( r.bodyId, ball ) );
	assert_float_equal( r.point.y, 1.0f, 0.25f );
	far = tbShape_RayCast( ballShape, tbMakeVec3( -3.0f, 1.0e7f, 1.0f ), tbMakeVec3( 0.0f, -1.0e7f, 0.0f ) );
	assert_true( far.hit );
	assert_float_equal( far.point.y, 1.0f, 4.0f );
	assert_float_equal( far.normal.y, 1.0f, 1e-4f );
	far = tbShape_RayCast( ballShape, tbMakeVec3( -3.0f, 1.0e8f, 1.0f ), tbMakeVec3( 0.0f, -2.0e8f, 0.0f ) );
	assert_false( far.hit );
	far = tbShape_RayCast( ballShape, tbMakeVec3( -3.0f, FLT_MAX, 1.0f ), tbMakeVec3( -2.1f, 20.0f, -1.7f ) );
	assert_false( far.hit );
	r = tbWorld_CastRayClosest( world, tbMakeVec3( -3.0f, FLT_MAX, 1.0f ), tbMakeVec3( 0.0f, -FLT_MAX, 0.0f ), filter );
	assert_false( r.hit );
	tbDestroyWorld( world );
}

// Fuzz finding 49 (nan-restitution-3.4e38): any finite restitution was accepted, and a bounce of
// 3.4e38 times the approach speed was -inf, then NaN. The bounce is held to TB_MAX_SPEED, and the
// speed clamp does the rest; since issue 16 restitution is refused past TB_MAX_RESTITUTION. A ball
// dropped on the ground with the largest restitution accepted flies off at the world's speed limit
// and stays finite, in every solver mode.
static void huge_restitution_stays_finite( void** state )
{
	(void)state;
	const tbSolverMode modes[3] = { tbSolver_soft, tbSolver_split, tbSolver_baumgarte };
	for ( int m = 0; m < 3; ++m )
	{
		tbWorldId world = th_makeWorld( modes[m], false );
		th_addGround( world, 0.5f );
		tbBodyId ball = th_addSphere( world, tbMakeVec3( 0.0f, 0.0f, 2.0f ), 0.5f, 1.0f );
		tbShapeId shape;
		assert_int_equal( tbBody_GetShapes( ball, &shape, 1 ), 1 );
		assert_int_equal( tbShape_SetRestitution( shape, FLT_MAX ), tbResult_invalidArgument );
		assert_int_equal( tbShape_SetRestitution( shape, TB_MAX_RESTITUTION ), tbResult_ok );
		tbBody_SetLinearVelocity( ball, tbMakeVec3( 0.0f, 0.0f, -5.0f ) );
		float fastest = 0.0f;
		for ( int i = 0; i < 60; ++i )
		{
			tbWorld_Step( world, 1.0f / 60.0f );
			tbVec3 v = tbBody_GetLinearVelocity( ball );
			assert_true( tbIsValidVec3( tbBody_GetPosition( ball ) ) && tbIsValidVec3( v ) );
			assert_true( tbIsValidVec3( tbBody_GetAngularVelocity( ball ) ) );
			fastest = fmaxf( fastest, tbLength( v ) );
		}
		printf( "restitution %g, mode %d: finite, fastest %.1f m/s\n", (double)TB_MAX_RESTITUTION, m, fastest );
		assert_true( fastest <= 1.01f * tbDefaultWorldDef().maxLinearSpeed );
		assert_true( fastest > 100.0f ); // it did bounce, at the limit
		tbDestroyWorld( world );
	}
}

// Contact reuse (contact.h): a resting pair keeps its points and remeasures them; anything that
// moves more than 1 mm or 1 degree against its partner is recomputed. Each scene runs with and
// without reuse: a tower of 5 boxes at rest, a box sliding at 3 m/s, and a box tipping over from an
// edge (slow at first, so its first steps are remeasured).
typedef struct reuse_run
{
	tbVec3 positions[7];
	tbQuat rotations[7];
	int reusedAtRest;   ///< reused contacts after the tower settled
	int contactsAtRest;
	int reusedSliding;  ///< reused contacts while the slider moves fast
	int reusedTipping;  ///< steps of the tipping box's first 10 with its ground contact reused
} reuse_run;

static void run_reuse_scenes( bool reuse, reuse_run* out )
{
	tbWorldDef def = tbDefaultWorldDef();
	def.enableSleep = false;
	def.enableContactReuse = reuse;
	tbWorldId world = tbCreateWorld( &def );
	th_addGround( world, 0.5f );
	tbBodyId bodies[7];
	for ( int i = 0; i < 5; ++i )
	{
		bodies[i] = th_addBox( world, tbMakeVec3( 0.01f * (float)i, 0.0f, 0.5f + (float)i ), tbMakeVec3( 0.5f, 0.5f, 0.5f ),
							   1.0f, 0.5f );
	}
	th_run( world, 120 );
	tbWorldCounters c = tbWorld_GetCounters( world );
	out->reusedAtRest = c.reusedContactCount;
	out->contactsAtRest = c.contactCount;

	bodies[5] = th_addBox( world, tbMakeVec3( 10.0f, 0.0f, 0.5f ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	th_run( world, 2 );
	tbBody_SetLinearVelocity( bodies[5], tbMakeVec3( 3.0f, 0.0f, 0.0f ) );
	th_run( world, 3 );
	c = tbWorld_GetCounters( world );
	// The tower's 5 contacts may be reused; the slider's ground contact may not.
	out->reusedSliding = c.reusedContactCount - out->reusedAtRest;

	// Standing on one edge, 10 degrees past balance: it starts slowly and falls over.
	tbQuat tilt = tbMakeQuatAxisAngle( tbMakeVec3( 0.0f, 1.0f, 0.0f ), 0.25f * TB_PI + 10.0f * TB_PI / 180.0f );
	tbVec3 corner = tbRotate( tilt, tbMakeVec3( 0.5f, 0.0f, -0.5f ) ); // the lowest edge
	bodies[6] = th_addBox( world, tbSub( tbMakeVec3( -10.0f, 0.0f, 0.0f ), corner ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
	tbBody_SetTransform( bodies[6], tbBody_GetPosition( bodies[6] ), tilt );
	out->reusedTipping = 0;
	for ( int i = 0; i < 10; ++i )
	{
		tbWorld_Step( world, 1.0f / 60.0f );
		out->reusedTipping += tbWorld_GetCounters( world ).reusedContactCount > out->reusedAtRest ? 1 : 0;
	}
	th_run( world, 110 );
	for ( int i = 0; i < 7; ++i )
	{
		out->positions[i] = tbBody_GetPosition( bodies[i] );
		out->rotations[i] = tbBody_GetRotation( bodies[i] );
	}
	tbDestroyWorld( world );
}

static void contact_reuse_matches_recomputing( void** state )
{
	(void)state;
	reuse_run on, off;
	run_reuse_scenes( true, &on );
	run_reuse_scenes( false, &off );
	printf( "reuse: tower %d of %d contacts reused at rest; slider %d; tipping box reused in %d of its first 10 steps\n",
			on.reusedAtRest, on.contactsAtRest, on.reusedSliding, on.reusedTipping );
	assert_int_equal( on.contactsAtRest, 5 );
	assert_int_equal( on.reusedAtRest, 5 );
	assert_int_equal( off.reusedAtRest, 0 );
	assert_int_equal( on.reusedSliding, 0 );
	assert_true( on.reusedTipping >= 1 );
	float maxDistance = 0.0f, maxAngle = 0.0f;
	for ( int i = 0; i < 7; ++i )
	{
		maxDistance = tbMaxFloat( maxDistance, tbDistance( on.positions[i], off.positions[i] ) );
		maxAngle = tbMaxFloat( maxAngle, tbQuatAngle( tbInvMulQQ( on.rotations[i], off.rotations[i] ) ) );
	}
	printf( "reuse vs recompute after 235 steps: largest position difference %.5f m, rotation %.5f rad\n", maxDistance,
			maxAngle );
	assert_true( maxDistance < 0.005f ); // m
	assert_true( maxAngle < 0.02f );	 // rad
}

// Rounded pairs are remeasured too (contact.c tbStoreReuse): a pile of three capsules (two side by
// side on the ground, one in the groove on top), and a rail of two capsules with a sphere in its
// groove that is then rolled along it at 2 m/s. At rest the pile's three capsule-capsule contacts
// are remeasured (the ground contacts, a rounded shape on a hull, never are); the rolling sphere
// turns 1 degree in far less than a step, so its contacts are not; the runs with and without reuse
// roll the sphere the same distance within 1 mm, and after 300 steps their capsules agree within
// 1 mm and 0.01 rad (the sphere has rolled off the rail's end by then).
static void run_rounded_reuse( bool reuse, tbVec3* positions, tbQuat* rotations, int* reusedAtRest, int* contactsAtRest,
							   int* mostReusedRolling, float* rolled )
{
	tbWorldDef def = tbDefaultWorldDef();
	def.enableSleep = false;
	def.enableContactReuse = reuse;
	tbWorldId world = tbCreateWorld( &def );
	th_addGround( world, 0.6f );
	tbBodyId bodies[6];
	bodies[0] = th_addCapsuleX( world, tbMakeVec3( 0.0f, -0.1f, 0.1f ), tb_quatIdentity, 0.5f, 0.1f );
	bodies[1] = th_addCapsuleX( world, tbMakeVec3( 0.0f, 0.1f, 0.1f ), tb_quatIdentity, 0.5f, 0.1f );
	bodies[2] = th_addCapsuleX( world, tbMakeVec3( 0.0f, 0.0f, 0.1f + 0.17320508f ), tb_quatIdentity, 0.5f, 0.1f );
	bodies[3] = th_addCapsuleX( world, tbMakeVec3( 0.0f, 4.88f, 0.1f ), tb_quatIdentity, 2.0f, 0.1f );
	bodies[4] = th_addCapsuleX( world, tbMakeVec3( 0.0f, 5.12f, 0.1f ), tb_quatIdentity, 2.0f, 0.1f );
	// Two rails 4 cm apart; the sphere touches both: 0.25 m from each axis, 0.12 m to the side, so
	// 0.219 m above them.
	bodies[5] = th_addSphere( world, tbMakeVec3( -1.5f, 5.0f, 0.1f + 0.21931712f ), 0.15f, 1.0f );
	th_run( world, 180 );
	tbWorldCounters c = tbWorld_GetCounters( world );
	*reusedAtRest = c.reusedContactCount;
	*contactsAtRest = c.contactCount;

	// Rolling on the two contact points 0.132 m below its centre. The first step measures the pose
	// the rest ended in, so it may still remeasure; the rolling steps after it may not.
	float x0 = tbBody_GetPosition( bodies[5] ).x;
	tbBody_SetLinearVelocity( bodies[5], tbMakeVec3( 2.0f, 0.0f, 0.0f ) );
	tbBody_SetAngularVelocity( bodies[5], tbMakeVec3( 0.0f, 2.0f / 0.1316f, 0.0f ) );
	*mostReusedRolling = 0;
	for ( int i = 0; i < 20; ++i )
	{
		tbWorld_Step( world, 1.0f / 60.0f );
		if ( i > 0 )
		{
			*mostReusedRolling = tbMaxInt( *mostReusedRolling, tbWorld_GetCounters( world ).reusedContactCount );
		}
	}
	*rolled = tbBody_GetPosition( bodies[5] ).x - x0;
	th_run( world, 100 );
	for ( int i = 0; i < 6; ++i )
	{
		positions[i] = tbBody_GetPosition( bodies[i] );
		rotations[i] = tbBody_GetRotation( bodies[i] );
	}
	tbDestroyWorld( world );
}

static void rounded_contact_reuse_matches_recomputing( void** state )
{
	(void)state;
	tbVec3 pOn[6], pOff[6];
	tbQuat qOn[6], qOff[6];
	int reusedOn, contactsOn, rollingOn, reusedOff, contactsOff, rollingOff;
	float rolledOn, rolledOff;
	run_rounded_reuse( true, pOn, qOn, &reusedOn, &contactsOn, &rollingOn, &rolledOn );
	run_rounded_reuse( false, pOff, qOff, &reusedOff, &contactsOff, &rollingOff, &rolledOff );
	float maxDistance = 0.0f, maxAngle = 0.0f;
	for ( int i = 0; i < 5; ++i )
	{
		maxDistance = tbMaxFloat( maxDistance, tbDistance( pOn[i], pOff[i] ) );
		maxAngle = tbMaxFloat( maxAngle, tbQuatAngle( tbInvMulQQ( qOn[i], qOff[i] ) ) );
	}
	printf( "rounded reuse: %d of %d contacts reused at rest, at most %d while the sphere rolls %.4f m (%.4f m "
			"without reuse); after 300 steps the capsules %.5f m, %.5f rad apart\n",
			reusedOn, contactsOn, rollingOn, rolledOn, rolledOff, maxDistance, maxAngle );
	// 2 + 2 capsules on the ground, 3 capsule-capsule in the pile, the sphere on its 2 rails.
	assert_int_equal( contactsOn, 9 );
	assert_true( reusedOn >= 3 );
	assert_int_equal( reusedOff, 0 );
	// At most the pile's 3 while the sphere rolls, and it does roll (no stale manifold holds it).
	assert_true( rollingOn <= 3 );
	assert_true( rolledOn > 0.5f );
	assert_true( fabsf( rolledOn - rolledOff ) < 0.001f );
	assert_true( maxDistance < 0.001f ); // m
	assert_true( maxAngle < 0.01f );	 // rad
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( box_drop_settles ),
		cmocka_unit_test( resting_box_full_manifold_first_step ),
		cmocka_unit_test( stack20_stands ),
		cmocka_unit_test( pyramid20_stands ),
		cmocka_unit_test( contact_reuse_matches_recomputing ),
		cmocka_unit_test( rounded_contact_reuse_matches_recomputing ),
		cmocka_unit_test( seed001_five_cube_stack ),
		cmocka_unit_test( seed001_intersecting_stack ),
		cmocka_unit_test( restitution_bounce_height ),
		cmocka_unit_test( friction_slope ),
		cmocka_unit_test( sleeping_and_waking ),
		cmocka_unit_test( ray_casts ),
		cmocka_unit_test( huge_restitution_stays_finite ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
