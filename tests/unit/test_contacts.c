// Contact tests of what a user sees at once: a cube dropped flat lands where it was dropped.
#include "world_helpers.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

static const tbSolverMode s_modes[] = { tbSolver_soft, tbSolver_split, tbSolver_baumgarte };
static const char* s_modeNames[] = { "soft", "split", "baumgarte" };

// Angle of a rotation from the identity, degrees.
static float rotation_degrees( tbQuat q )
{
	float w = fminf( fabsf( q.w ), 1.0f );
	return 2.0f * acosf( w ) * 180.0f / TB_PI;
}

// The README's example: a unit cube dropped flat from 3 m (and from 10 m) comes to rest on the
// ground within 1 mm of where it was dropped and within 0.05 deg of its orientation, in every mode.
// One Gauss-Seidel sweep over the four corners at impact used to leave it 11 mm off and 0.18 deg
// turned in soft mode (docs/SOLVER.md, "Impacts").
static void flat_drop_lands_in_place( void** state )
{
	(void)state;
	const float heights[] = { 3.0f, 10.0f };
	for ( int m = 0; m < 3; ++m )
	{
		for ( int k = 0; k < 2; ++k )
		{
			tbWorldId world = th_makeWorld( s_modes[m], true );
			th_addGround( world, 0.5f );
			tbBodyId box = th_addBox( world, tbMakeVec3( 0.0f, 0.0f, heights[k] ), tbMakeVec3( 0.5f, 0.5f, 0.5f ), 1.0f, 0.5f );
			th_run( world, 240 );
			tbVec3 p = tbBody_GetPosition( box );
			float offset = sqrtf( p.x * p.x + p.y * p.y );
			float turn = rotation_degrees( tbBody_GetRotation( box ) );
			printf( "flat drop %s from %.0f m: %.4f mm off, turned %.5f deg, z %.4f m\n", s_modeNames[m], heights[k],
					1000.0f * offset, turn, p.z );
			assert_true( offset < 0.001f );
			assert_true( turn < 0.05f );
			assert_true( fabsf( p.z - 0.5f ) < 0.005f );
			tbDestroyWorld( world );
		}
	}
}

int main( void )
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test( flat_drop_lands_in_place ),
	};
	return cmocka_run_group_tests( tests, NULL, NULL );
}
