// Tumble physics: time of impact by conservative advancement.
// SPDX-License-Identifier: MIT
#include "core.h"
#include "distance_internal.h"

#include <float.h>

// Conservative advancement (Mirtich 1996; Catto, "Continuous Collision", GDC 2013): at time t the
// separation s(t) is measured by GJK. Its rate of change is the relative velocity of the closest
// points along the normal, which is at most |dv . n| + |wA| rA + |wB| rB, where dv is the relative
// velocity of the centres of mass (per unit of sweep fraction) and rA, rB the largest distance of a
// core point from its body's centre of mass. Advancing by (s - target) / bound therefore cannot skip
// the moment s reaches target, and repeating converges on it from above.
//
// The bound uses the normal at the current time. As the normal turns during the step the bound can
// be exceeded (a sphere sliding round a corner); that shows up as a separation below the target at
// the new time, and the root is then bracketed and found by bisection, so the returned fraction
// still never lies past the first contact that the advancement can see.

#define TB_TOI_MAX_ITERATIONS 50
#define TB_TOI_MAX_ROOT_ITERATIONS 30

/// The separation aimed at is raised to at least this (m), so a zero target still stops short of
/// contact rather than at a float-noise distance around it.
#define TB_TOI_MIN_TARGET 1.0e-4f

static float tbProxyExtent( const tbShapeProxy* proxy, tbVec3 localCenter )
{
	float extentSquared = 0.0f;
	for ( int i = 0; i < proxy->count; ++i )
	{
		extentSquared = tbMaxFloat( extentSquared, tbDistanceSquared( proxy->points[i], localCenter ) );
	}
	// A disk (cylinder) reaches at most its radius further than its centres.
	return sqrtf( extentSquared ) + proxy->diskRadius;
}

// Largest angular speed (rad per unit fraction) of nlerp between q1 and q2. With cos(phi) =
// |q1.q2|, the interpolant sweeps the 4D angle alpha(t) = atan(t sin(phi) / (1 - t + t cos(phi))),
// whose rate sin(phi) / |(1 - t) q1 + t q2|^2 peaks at t = 1/2 with 2 tan(phi / 2). A body's
// angular speed is twice the quaternion's: 4 tan(phi / 2) = 4 sin(phi) / (1 + cos(phi)).
static float tbMaxAngularSpeed( tbQuat q1, tbQuat q2 )
{
	float c = tbMinFloat( tbAbsFloat( tbDotQ( tbNormalizeQ( q1 ), tbNormalizeQ( q2 ) ) ), 1.0f );
	return 4.0f * sqrtf( 1.0f - c * c ) / ( 1.0f + c );
}

// Separation of the rounded shapes at fraction t (negative when they overlap; when the cores
// overlap it is only known to be at most -radius). Writes the A-to-B normal, world frame.
static float tbSeparationAt( const tbTOIInput* input, float t, tbSimplexCache* cache, tbVec3* normal )
{
	tbTransform xfA = tbGetSweepTransform( &input->sweepA, t );
	tbTransform xfB = tbGetSweepTransform( &input->sweepB, t );
	tbSimplex simplex;
	tbGJKResult gjk = tbGJK( &input->proxyA, &input->proxyB, tbInvMulTransforms( xfA, xfB ), cache, &simplex );
	*normal = tbRotate( xfA.q, gjk.normal );
	return gjk.distance - ( input->proxyA.radius + input->proxyB.radius );
}

tbTOIOutput tbTimeOfImpact( const tbTOIInput* input )
{
	tbTOIOutput output;
	output.state = tbTOIState_unknown;
	output.fraction = 0.0f;

	float tMax = tbClampFloat( input->maxFraction, 0.0f, 1.0f );
	float target = tbMaxFloat( input->target, TB_TOI_MIN_TARGET );
	float tolerance = 0.25f * target;

	const tbSweep* sweepA = &input->sweepA;
	const tbSweep* sweepB = &input->sweepB;
	tbVec3 dv = tbSub( tbSub( sweepB->c2, sweepB->c1 ), tbSub( sweepA->c2, sweepA->c1 ) );
	float angularBound =
		tbMaxAngularSpeed( sweepA->q1, sweepA->q2 ) * tbProxyExtent( &input->proxyA, sweepA->localCenter ) +
		tbMaxAngularSpeed( sweepB->q1, sweepB->q2 ) * tbProxyExtent( &input->proxyB, sweepB->localCenter );

	tbSimplexCache cache = { 0 };
	float t = 0.0f;
	float tPrevious = 0.0f;
	for ( int iteration = 0; iteration < TB_TOI_MAX_ITERATIONS; ++iteration )
	{
		tbVec3 normal;
		float separation = tbSeparationAt( input, t, &cache, &normal );

		if ( iteration == 0 )
		{
			if ( separation < 0.0f )
			{
				output.state = tbTOIState_overlapped;
				output.fraction = 0.0f;
				return output;
			}
			if ( separation < target + tolerance )
			{
				output.state = tbTOIState_hit;
				output.fraction = 0.0f;
				return output;
			}
		}
		else if ( separation < target - tolerance )
		{
			// Overshot (the bound was beaten by a turning normal): s(tPrevious) > target + tolerance
			// and s(t) < target - tolerance bracket the crossing. Bisect, keeping the safe side.
			float lower = tPrevious;
			float upper = t;
			for ( int k = 0; k < TB_TOI_MAX_ROOT_ITERATIONS; ++k )
			{
				float middle = 0.5f * ( lower + upper );
				float s = tbSeparationAt( input, middle, &cache, &normal );
				if ( tbAbsFloat( s - target ) <= tolerance )
				{
					lower = middle;
					break;
				}
				if ( s > target )
				{
					lower = middle;
				}
				else
				{
					upper = middle;
				}
			}
			output.state = tbTOIState_hit;
			output.fraction = lower;
			return output;
		}
		else if ( separation < target + tolerance )
		{
			output.state = tbTOIState_hit;
			output.fraction = t;
			return output;
		}

		if ( t >= tMax )
		{
			output.state = tbTOIState_separated;
			output.fraction = tMax;
			return output;
		}

		float closingBound = tbAbsFloat( tbDot( dv, normal ) ) + angularBound;
		if ( closingBound <= FLT_EPSILON * ( separation + 1.0f ) )
		{
			// No relative motion: the separation cannot change.
			output.state = tbTOIState_separated;
			output.fraction = tMax;
			return output;
		}

		tPrevious = t;
		t = tbMinFloat( t + ( separation - target ) / closingBound, tMax );
	}

	// Out of iterations: the last fraction whose separation was checked is still safe.
	output.state = tbTOIState_failed;
	output.fraction = tPrevious;
	return output;
}
