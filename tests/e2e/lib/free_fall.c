// A C program that uses Tumble the way an outside project does: #include <tumble/tumble.h>, built
// with `pkg-config --cflags --libs tumble` against an installed tree (tests/e2e/install.sh).
// A sphere dropped in a world without ground falls freely: after t seconds its height is
// z0 - g t^2 / 2. The soft solver integrates 8 sub-steps of h = dt / 8 with semi-implicit Euler,
// which after n sub-steps lands g h^2 n (n + 1) / 2 - g (h n)^2 / 2 = g h t / 2 = 0.0104 m below the
// closed form at t = 1 s; the tolerance of 0.02 m holds that and catches a world that does not fall,
// or falls at another rate (1 % of g is 0.05 m here).
// SPDX-License-Identifier: MIT
#include <tumble/tumble.h>

#include <math.h>
#include <stdio.h>

int main( void )
{
	const float gravity = 10.0f; // m/s^2
	const float z0 = 100.0f;	 // m
	const int steps = 60;
	const float dt = 1.0f / 60.0f; // s

	tbVersion v = tbGetVersion();
	if ( v.major != TB_VERSION_MAJOR || v.minor != TB_VERSION_MINOR || v.revision != TB_VERSION_REVISION )
	{
		fprintf( stderr, "library %d.%d.%d, headers %d.%d.%d\n", v.major, v.minor, v.revision, TB_VERSION_MAJOR,
				 TB_VERSION_MINOR, TB_VERSION_REVISION );
		return 1;
	}

	tbWorldDef worldDef = tbDefaultWorldDef();
	worldDef.gravity = tbMakeVec3( 0.0f, 0.0f, -gravity );
	tbWorldId world = tbCreateWorld( &worldDef );

	tbBodyDef bodyDef = tbDefaultBodyDef();
	bodyDef.type = tbBody_dynamic;
	bodyDef.position = tbMakeVec3( 0.0f, 0.0f, z0 );
	tbBodyId ball = tbCreateBody( world, &bodyDef );
	tbShapeDef shapeDef = tbDefaultShapeDef();
	tbSphere sphere = { tbMakeVec3( 0.0f, 0.0f, 0.0f ), 0.5f };
	tbResult result = tbResult_ok;
	tbCreateSphereShape( ball, &shapeDef, &sphere, &result );
	if ( result != tbResult_ok )
	{
		fprintf( stderr, "sphere: %s\n", tbResultString( result ) );
		return 1;
	}

	for ( int i = 0; i < steps; ++i )
	{
		tbWorld_Step( world, dt );
	}
	float t = (float)steps * dt;
	float expected = z0 - 0.5f * gravity * t * t;
	float z = tbBody_GetPosition( ball ).z;
	tbDestroyWorld( world );

	printf( "free fall: z = %.4f m after %.3f s, closed form %.4f m\n", z, t, expected );
	if ( fabsf( z - expected ) > 0.02f )
	{
		fprintf( stderr, "free fall: expected z = %.4f +- 0.02 m, got %.4f m\n", expected, z );
		return 1;
	}
	return 0;
}
