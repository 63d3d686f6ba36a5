// Fuzz target: narrow phase on arbitrary pairs of shapes and poses.
// SPDX-License-Identifier: MIT
//
// Two shapes (sphere, capsule, box, hull of a few points) of one size scale 2^-10 .. 2^13 m (radii
// and half extents kept within TB_MIN_SHAPE_SIZE .. TB_MAX_SHAPE_SIZE), at positions up to 5e5 m, with rotations biased
// towards exact quarter turns and near-identities, offset from each other on a lattice of quarter sizes (exact
// touching, exactly parallel faces) or anywhere nearby. Everything is finite: the world API refuses NaN before it
// reaches the narrow phase, so finite input is the contract here.
//
// Properties checked, with tolerances scaled to the shapes' size and the coordinates' magnitude:
//   - manifolds (the function matching the pair; A/B swapped when needed): at most 4 points, unit
//     normal, finite points, separations below the speculative distance and above minus the
//     shapes' combined size, anchors equal to point - origin, distinct feature ids, the same
//     result when the hull pair's SAT cache is reused;
//   - a pair closer than the speculative distance (GJK) or overlapping (EPA) has a manifold point,
//     and the deepest point is about as deep as EPA says;
//   - tbShapeDistance: finite, >= 0, points that far apart, symmetric in A/B, unchanged by a warm
//     cache; tbShapePenetration agrees with it while separated;
//   - tbShapeCast and tbTimeOfImpact: fractions in range, and no overlap at sampled times before
//     the reported fraction (no tunnelling) or along the whole sweep when nothing was hit.
#include "fuzz_common.h"

enum
{
	tbKind_sphere,
	tbKind_capsule,
	tbKind_hull
};

typedef struct tbFuzzShape
{
	int kind;
	tbSphere sphere;
	tbCapsule capsule;
	tbHull* hull;
	tbShapeProxy proxy;
	float extent; ///< bounding radius about the body origin, m
} tbFuzzShape;

static float tbPointsExtent( const tbVec3* points, int count, float radius )
{
	float e = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		e = tbMaxFloat( e, tbLength( points[i] ) );
	}
	return e + radius;
}

// A radius or half extent: a fraction of the scale, kept inside the input limits the world
// enforces (collision.h), since those are the shapes the narrow phase has to handle.
static float tbDimension( tbFuzzInput* in, float size )
{
	return tbClampFloat( size * tbFuzz_FloatIn( in, 1.0e-3f, 1.0f ), TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE );
}

static void tbReadShape( tbFuzzInput* in, float size, tbFuzzShape* shape )
{
	memset( shape, 0, sizeof( *shape ) );
	uint8_t kind = tbFuzz_Byte( in ) % 4;
	if ( kind == 0 )
	{
		shape->kind = tbKind_sphere;
		shape->sphere.center = tbFuzz_Bool( in ) ? tb_vec3_zero : tbFuzz_Vec3In( in, -size, size );
		shape->sphere.radius = tbDimension( in, size );
		shape->proxy = tbMakeSphereProxy( &shape->sphere );
	}
	else if ( kind == 1 )
	{
		shape->kind = tbKind_capsule;
		shape->capsule.center1 = tbFuzz_Vec3In( in, -size, size );
		// Sometimes a zero-length segment: the world accepts it.
		shape->capsule.center2 = tbFuzz_Byte( in ) < 16 ? shape->capsule.center1 : tbFuzz_Vec3In( in, -size, size );
		shape->capsule.radius = tbDimension( in, size );
		shape->proxy = tbMakeCapsuleProxy( &shape->capsule );
	}
	else
	{
		shape->kind = tbKind_hull;
		if ( kind == 3 )
		{
			tbVec3 points[16];
			int count = 4 + tbFuzz_Byte( in ) % 13;
			for ( int i = 0; i < count; ++i )
			{
				uint8_t mode = tbFuzz_Byte( in );
				if ( mode & 1 )
				{
					// Lattice of quarter sizes: coplanar points and parallel faces.
					uint8_t a = tbFuzz_Byte( in ), b = tbFuzz_Byte( in );
					points[i] = tbMulSV( 0.25f * size, tbMakeVec3( (float)( a & 7 ) - 4.0f, (float)( a >> 5 ) - 4.0f,
																   (float)( b & 7 ) - 4.0f ) );
				}
				else
				{
					points[i] = tbFuzz_Vec3In( in, -size, size );
				}
			}
			shape->hull = tbComputeHull( points, count, NULL );
		}
		if ( shape->hull == NULL )
		{
			tbVec3 half = { tbDimension( in, size ), tbDimension( in, size ), tbDimension( in, size ) };
			tbTransform local = tb_transformIdentity;
			if ( tbFuzz_Bool( in ) )
			{
				local.p = tbFuzz_Vec3In( in, -size, size );
				local.q = tbFuzz_UnitQuat( in );
			}
			shape->hull = tbMakeBoxHull( half, local );
		}
		shape->proxy = tbMakeHullProxy( shape->hull );
	}
	shape->extent = tbPointsExtent( shape->proxy.points, shape->proxy.count, shape->proxy.radius );
}

typedef struct tbPair
{
	const tbFuzzShape* a;
	const tbFuzzShape* b;
	tbTransform xfA, xfB;
	float tolerance; ///< absolute, m
	float scale;	 ///< combined extent, m
} tbPair;

// The manifold function for the pair. swapped: the function was called as (B, A), so the caller
// must read the normal reversed.
static tbManifold tbCollide( const tbPair* p, float speculative, tbSATCache* cache, bool* swapped )
{
	const tbFuzzShape* a = p->a;
	const tbFuzzShape* b = p->b;
	*swapped = false;
	if ( a->kind == tbKind_sphere && b->kind == tbKind_sphere )
	{
		return tbCollideSpheres( &a->sphere, p->xfA, &b->sphere, p->xfB, speculative );
	}
	if ( a->kind == tbKind_capsule && b->kind == tbKind_sphere )
	{
		return tbCollideCapsuleAndSphere( &a->capsule, p->xfA, &b->sphere, p->xfB, speculative );
	}
	if ( a->kind == tbKind_sphere && b->kind == tbKind_capsule )
	{
		*swapped = true;
		return tbCollideCapsuleAndSphere( &b->capsule, p->xfB, &a->sphere, p->xfA, speculative );
	}
	if ( a->kind == tbKind_capsule && b->kind == tbKind_capsule )
	{
		return tbCollideCapsules( &a->capsule, p->xfA, &b->capsule, p->xfB, speculative );
	}
	if ( a->kind == tbKind_hull && b->kind == tbKind_sphere )
	{
		return tbCollideHullAndSphere( a->hull, p->xfA, &b->sphere, p->xfB, speculative );
	}
	if ( a->kind == tbKind_sphere && b->kind == tbKind_hull )
	{
		*swapped = true;
		return tbCollideHullAndSphere( b->hull, p->xfB, &a->sphere, p->xfA, speculative );
	}
	if ( a->kind == tbKind_hull && b->kind == tbKind_capsule )
	{
		return tbCollideHullAndCapsule( a->hull, p->xfA, &b->capsule, p->xfB, speculative );
	}
	if ( a->kind == tbKind_capsule && b->kind == tbKind_hull )
	{
		*swapped = true;
		return tbCollideHullAndCapsule( b->hull, p->xfB, &a->capsule, p->xfA, speculative );
	}
	return tbCollideHulls( a->hull, p->xfA, b->hull, p->xfB, speculative, cache );
}

static const char* tbKindName( int kind )
{
	return kind == tbKind_sphere ? "sphere" : ( kind == tbKind_capsule ? "capsule" : "hull" );
}

// Checks one manifold; returns its smallest separation (FLT_MAX without points).
static float tbCheckManifold( const tbPair* p, const tbManifold* m, bool swapped, float speculative )
{
	TB_FUZZ_CHECK( m->pointCount >= 0 && m->pointCount <= TB_MAX_MANIFOLD_POINTS, "pointCount %d", m->pointCount );
	float smallest = FLT_MAX;
	if ( m->pointCount == 0 )
	{
		return smallest;
	}
	// Named so that a campaign can look past an open NaN-normal finding (23); never in known.txt.
	bool unit = tbFuzz_IsUnit( m->normal, 1.0e-3f );
	TB_FUZZ_EXPECT( "nan-normal", unit, "%s-%s manifold normal (%g, %g, %g) is not unit", tbKindName( p->a->kind ),
					tbKindName( p->b->kind ), (double)m->normal.x, (double)m->normal.y, (double)m->normal.z );
	if ( unit == false )
	{
		return smallest;
	}
	tbVec3 originA = swapped ? p->xfB.p : p->xfA.p;
	tbVec3 originB = swapped ? p->xfA.p : p->xfB.p;
	for ( int i = 0; i < m->pointCount; ++i )
	{
		const tbManifoldPoint* mp = m->points + i;
		TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( mp->point ) && isfinite( mp->separation ), "point %d not finite", i );
		TB_FUZZ_CHECK( mp->separation < speculative + p->tolerance,
					   "%s-%s point %d separation %g is not below the speculative distance %g",
					   tbKindName( p->a->kind ), tbKindName( p->b->kind ), i, (double)mp->separation,
					   (double)speculative );
		TB_FUZZ_CHECK( mp->separation >= -2.0f * p->scale - p->tolerance,
					   "%s-%s point %d separation %g is deeper than the shapes are large (%g)",
					   tbKindName( p->a->kind ), tbKindName( p->b->kind ), i, (double)mp->separation,
					   (double)p->scale );
		// Midway between the surfaces: within the other shape's reach plus the gap of each origin.
		float reach = p->scale + fabsf( mp->separation ) + p->tolerance;
		TB_FUZZ_EXPECT(
			"manifold-point-far",
			tbDistance( mp->point, p->xfA.p ) <= p->a->extent + reach &&
				tbDistance( mp->point, p->xfB.p ) <= p->b->extent + reach,
			"%s-%s point %d (%g, %g, %g) separation %g is far from the shapes at (%g, %g, %g) and (%g, %g, %g) "
			"with extents %g and %g (normal %g, %g, %g)",
			tbKindName( p->a->kind ), tbKindName( p->b->kind ), i, (double)mp->point.x, (double)mp->point.y,
			(double)mp->point.z, (double)mp->separation, (double)p->xfA.p.x, (double)p->xfA.p.y, (double)p->xfA.p.z,
			(double)p->xfB.p.x, (double)p->xfB.p.y, (double)p->xfB.p.z, (double)p->a->extent, (double)p->b->extent,
			(double)m->normal.x, (double)m->normal.y, (double)m->normal.z );
		TB_FUZZ_CHECK( tbDistance( mp->anchorA, tbSub( mp->point, originA ) ) <= p->tolerance &&
						   tbDistance( mp->anchorB, tbSub( mp->point, originB ) ) <= p->tolerance,
					   "point %d anchors are not point - origin", i );
		for ( int j = 0; j < i; ++j )
		{
			TB_FUZZ_CHECK( m->points[j].id != mp->id, "%s-%s points %d and %d share the feature id %u",
						   tbKindName( p->a->kind ), tbKindName( p->b->kind ), j, i, (unsigned)mp->id );
		}
		smallest = tbMinFloat( smallest, mp->separation );
	}
	return smallest;
}

static tbDistanceInput tbDistanceInputOf( const tbPair* p, bool useRadii )
{
	tbDistanceInput d;
	d.proxyA = p->a->proxy;
	d.proxyB = p->b->proxy;
	d.transformA = p->xfA;
	d.transformB = p->xfB;
	d.useRadii = useRadii;
	return d;
}

static tbDistanceOutput tbCheckDistance( const tbPair* p, bool useRadii )
{
	tbDistanceInput d = tbDistanceInputOf( p, useRadii );
	tbSimplexCache cache = { 0 };
	tbDistanceOutput out = tbShapeDistance( &d, &cache );
	TB_FUZZ_CHECK( isfinite( out.distance ) && out.distance >= 0.0f, "distance %g", (double)out.distance );
	TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( out.pointA ) && tbFuzz_IsFiniteVec3( out.pointB ) &&
					   tbFuzz_IsFiniteVec3( out.normal ),
				   "distance output not finite" );
	if ( out.distance > p->tolerance )
	{
		TB_FUZZ_CHECK( tbFuzz_IsUnit( out.normal, 1.0e-3f ), "separated (%g) but the normal is not unit",
					   (double)out.distance );
		float gap = tbDistance( out.pointA, out.pointB );
		TB_FUZZ_CHECK( fabsf( gap - out.distance ) <= p->tolerance,
					   "%s-%s distance %g but the witness points are %g apart (useRadii %d)", tbKindName( p->a->kind ),
					   tbKindName( p->b->kind ), (double)out.distance, (double)gap, (int)useRadii );
	}

	// Warm started from the cache the answer must not change.
	tbDistanceOutput warm = tbShapeDistance( &d, &cache );
	TB_FUZZ_CHECK( fabsf( warm.distance - out.distance ) <= p->tolerance, "cold distance %g, warm %g",
				   (double)out.distance, (double)warm.distance );

	// Nor when A and B trade places.
	tbDistanceInput swapped = d;
	swapped.proxyA = d.proxyB;
	swapped.proxyB = d.proxyA;
	swapped.transformA = d.transformB;
	swapped.transformB = d.transformA;
	tbSimplexCache cold = { 0 };
	tbDistanceOutput back = tbShapeDistance( &swapped, &cold );
	TB_FUZZ_CHECK( fabsf( back.distance - out.distance ) <= p->tolerance,
				   "%s-%s distance %g, but %g with A and B swapped (useRadii %d)", tbKindName( p->a->kind ),
				   tbKindName( p->b->kind ), (double)out.distance, (double)back.distance, (int)useRadii );
	return out;
}

// Signed separation of the pair at the given transforms (negative: overlap depth), from EPA.
static float tbSeparation( const tbPair* p, tbTransform xfA, tbTransform xfB, bool* valid )
{
	tbPair moved = *p;
	moved.xfA = xfA;
	moved.xfB = xfB;
	tbDistanceInput d = tbDistanceInputOf( &moved, true );
	tbPenetrationOutput pen = tbShapePenetration( &d );
	*valid = pen.valid;
	return -pen.depth;
}

static void tbCheckCast( const tbPair* p, tbFuzzInput* in )
{
	float size = p->scale;
	tbShapeCastPairInput c;
	c.proxyA = p->a->proxy;
	c.proxyB = p->b->proxy;
	c.transformA = p->xfA;
	c.transformB = p->xfB;
	c.translationB = tbFuzz_Vec3In( in, -8.0f * size, 8.0f * size );
	c.maxFraction = tbFuzz_FloatIn( in, 0.0f, 1.0f );
	tbCastOutput out = tbShapeCast( &c );
	TB_FUZZ_CHECK( out.iterations >= 0, "cast iterations %d", out.iterations );
	float end = c.maxFraction;
	if ( out.hit )
	{
		TB_FUZZ_CHECK( isfinite( out.fraction ) && out.fraction >= 0.0f && out.fraction <= c.maxFraction,
					   "cast fraction %g outside [0, %g]", (double)out.fraction, (double)c.maxFraction );
		TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( out.point ) && tbFuzz_IsFiniteVec3( out.normal ), "cast hit not finite" );
		if ( out.fraction > 0.0f )
		{
			TB_FUZZ_CHECK( tbFuzz_IsUnit( out.normal, 1.0e-3f ), "cast normal (%g, %g, %g) is not unit",
						   (double)out.normal.x, (double)out.normal.y, (double)out.normal.z );
		}
		end = out.fraction;
	}
	// No overlap before the reported fraction (or anywhere along a miss).
	for ( int k = 0; k <= 8; ++k )
	{
		float t = end * (float)k / 8.0f;
		tbTransform xfB = p->xfB;
		xfB.p = tbMulAdd( xfB.p, t, c.translationB );
		bool valid = false;
		float separation = tbSeparation( p, p->xfA, xfB, &valid );
		if ( k == 0 && separation < p->tolerance )
		{
			return; // touching at the start: a cast reports fraction 0 or nothing, both fine
		}
		TB_FUZZ_CHECK( valid == false || separation >= -p->tolerance - TB_LINEAR_SLOP,
					   "%s-%s cast (hit %d, fraction %g of %g) passes through: overlap %g at t = %g",
					   tbKindName( p->a->kind ), tbKindName( p->b->kind ), (int)out.hit, (double)out.fraction,
					   (double)c.maxFraction, (double)-separation, (double)t );
	}
}

static tbSweep tbReadSweep( tbFuzzInput* in, tbTransform xf, float size )
{
	tbSweep s;
	s.localCenter = tbFuzz_Bool( in ) ? tb_vec3_zero : tbFuzz_Vec3In( in, -size, size );
	s.c1 = tbTransformPoint( xf, s.localCenter );
	s.c2 = tbAdd( s.c1, tbFuzz_Vec3In( in, -16.0f * size, 16.0f * size ) );
	s.q1 = xf.q;
	uint8_t mode = tbFuzz_Byte( in ) % 4;
	if ( mode == 0 )
	{
		s.q2 = s.q1;
	}
	else if ( mode == 1 )
	{
		// The same rotation written as -q: a sweep must not spin a full turn for it.
		s.q2 = tbMakeQuat( -s.q1.w, -s.q1.x, -s.q1.y, -s.q1.z );
	}
	else
	{
		s.q2 = tbFuzz_UnitQuat( in );
	}
	return s;
}

static void tbCheckTimeOfImpact( const tbPair* p, tbFuzzInput* in )
{
	tbTOIInput t;
	t.proxyA = p->a->proxy;
	t.proxyB = p->b->proxy;
	t.sweepA = tbReadSweep( in, p->xfA, p->scale );
	t.sweepB = tbReadSweep( in, p->xfB, p->scale );
	t.maxFraction = tbFuzz_FloatIn( in, 0.0f, 1.0f );
	t.target = tbFuzz_Bool( in ) ? TB_LINEAR_SLOP : tbFuzz_FloatIn( in, 0.0f, 0.1f * p->scale );
	tbTOIOutput out = tbTimeOfImpact( &t );
	TB_FUZZ_CHECK( out.state >= tbTOIState_unknown && out.state <= tbTOIState_separated, "TOI state %d",
				   (int)out.state );
	TB_FUZZ_CHECK( isfinite( out.fraction ) && out.fraction >= 0.0f && out.fraction <= t.maxFraction,
				   "TOI fraction %g outside [0, %g] (state %d)", (double)out.fraction, (double)t.maxFraction,
				   (int)out.state );
	if ( out.state != tbTOIState_hit && out.state != tbTOIState_separated && out.state != tbTOIState_failed )
	{
		return;
	}
	for ( int k = 0; k <= 8; ++k )
	{
		float time = out.fraction * (float)k / 8.0f;
		tbTransform xfA = tbGetSweepTransform( &t.sweepA, time );
		tbTransform xfB = tbGetSweepTransform( &t.sweepB, time );
		TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( xfA.p ) && tbFuzz_IsFiniteQuat( xfA.q ) && tbFuzz_IsFiniteVec3( xfB.p ) &&
						   tbFuzz_IsFiniteQuat( xfB.q ),
					   "sweep transform at %g is not finite", (double)time );
		bool valid = false;
		float separation = tbSeparation( p, xfA, xfB, &valid );
		if ( k == 0 && separation < p->tolerance )
		{
			return; // touching or overlapping at the start: nothing to tunnel through
		}
		TB_FUZZ_CHECK( valid == false || separation >= -p->tolerance - TB_LINEAR_SLOP,
					   "%s-%s TOI state %d fraction %g (max %g): overlap %g at t = %g, before the reported impact",
					   tbKindName( p->a->kind ), tbKindName( p->b->kind ), (int)out.state, (double)out.fraction,
					   (double)t.maxFraction, (double)-separation, (double)time );
	}
}

static void tbDescribeShape( FILE* out, const char* name, const tbFuzzShape* s, tbTransform xf )
{
	fprintf( out, "  %s: %s at (%.9g, %.9g, %.9g) q (%.9g, %.9g, %.9g, %.9g) extent %.9g\n", name,
			 tbKindName( s->kind ), (double)xf.p.x, (double)xf.p.y, (double)xf.p.z, (double)xf.q.x, (double)xf.q.y,
			 (double)xf.q.z, (double)xf.q.w, (double)s->extent );
	for ( int i = 0; i < s->proxy.count; ++i )
	{
		fprintf( out, "    point %d: (%.9g, %.9g, %.9g)\n", i, (double)s->proxy.points[i].x,
				 (double)s->proxy.points[i].y, (double)s->proxy.points[i].z );
	}
	fprintf( out, "    radius %.9g\n", (double)s->proxy.radius );
}

static void tbDescribePair( FILE* out, const void* context )
{
	const tbPair* p = context;
	fprintf( out, "pair (tolerance %g, combined extent %g):\n", (double)p->tolerance, (double)p->scale );
	tbDescribeShape( out, "A", p->a, p->xfA );
	tbDescribeShape( out, "B", p->b, p->xfB );
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	tbFuzz_InstallHandlers();
	tbFuzzInput in = tbFuzz_MakeInput( data, size );
	float scale = ldexpf( 1.0f, -10 + tbFuzz_Byte( &in ) % 24 );
	tbFuzzShape shapeA, shapeB;
	tbReadShape( &in, scale, &shapeA );
	tbReadShape( &in, scale, &shapeB );

	tbPair p;
	p.a = &shapeA;
	p.b = &shapeB;
	p.xfA.p = tbFuzz_Bool( &in ) ? tb_vec3_zero : tbFuzz_Vec3In( &in, -1.0f, 1.0f );
	p.xfA.p = tbMulSV( tbFuzz_Magnitude( &in, -10, 18 ), p.xfA.p ); // within TB_MAX_POSITION
	p.xfA.q = tbFuzz_UnitQuat( &in );
	tbVec3 delta;
	if ( tbFuzz_Bool( &in ) )
	{
		uint8_t a = tbFuzz_Byte( &in ), b = tbFuzz_Byte( &in );
		delta = tbMulSV( 0.25f * scale,
						 tbMakeVec3( (float)( a & 15 ) - 8.0f, (float)( a >> 4 ) - 8.0f, (float)( b & 15 ) - 8.0f ) );
	}
	else
	{
		delta = tbFuzz_Vec3In( &in, -4.0f * scale, 4.0f * scale );
	}
	p.xfB.p = tbAdd( p.xfA.p, delta );
	p.xfB.q = tbFuzz_UnitQuat( &in );
	p.scale = shapeA.extent + shapeB.extent;
	float magnitude = tbMaxFloat( tbLength( p.xfA.p ), tbLength( p.xfB.p ) ) + p.scale;
	p.tolerance = 1.0e-3f * p.scale + 64.0f * FLT_EPSILON * magnitude;

	tbFuzz_SetDescription( tbDescribePair, &p );
	tbFuzz_DescribeIfAsked();

	float speculative = TB_SPECULATIVE_DISTANCE;
	switch ( tbFuzz_Byte( &in ) % 4 )
	{
		case 1:
			speculative = 0.0f;
			break;
		case 2:
			speculative = 0.1f * scale;
			break;
		case 3:
			speculative = tbFuzz_FloatIn( &in, 0.0f, scale );
			break;
		default:
			break;
	}

	tbSATCache cache = { 0 };
	bool swapped = false;
	tbManifold m = tbCollide( &p, speculative, &cache, &swapped );
	float smallest = tbCheckManifold( &p, &m, swapped, speculative );
	if ( shapeA.kind == tbKind_hull && shapeB.kind == tbKind_hull )
	{
		// Frame coherence: the cached axis must give an equally valid answer.
		tbManifold again = tbCollide( &p, speculative, &cache, &swapped );
		float smallestAgain = tbCheckManifold( &p, &again, swapped, speculative );
		TB_FUZZ_CHECK( ( again.pointCount > 0 ) == ( m.pointCount > 0 ) &&
						   ( m.pointCount == 0 || fabsf( smallestAgain - smallest ) <= p.tolerance + TB_LINEAR_SLOP ),
					   "hull-hull with the SAT cache: %d points (deepest %g), without: %d points (deepest %g)",
					   again.pointCount, (double)smallestAgain, m.pointCount, (double)smallest );
	}

	tbDistanceOutput distance = tbCheckDistance( &p, true );
	tbDistanceOutput core = tbCheckDistance( &p, false );
	TB_FUZZ_CHECK( core.distance + p.tolerance >= distance.distance, "core distance %g < rounded distance %g",
				   (double)core.distance, (double)distance.distance );

	tbDistanceInput d = tbDistanceInputOf( &p, true );
	tbPenetrationOutput pen = tbShapePenetration( &d );
	TB_FUZZ_CHECK( isfinite( pen.depth ) && tbFuzz_IsFiniteVec3( pen.pointA ) && tbFuzz_IsFiniteVec3( pen.pointB ) &&
					   tbFuzz_IsFiniteVec3( pen.normal ),
				   "penetration output not finite" );
	if ( pen.valid )
	{
		TB_FUZZ_CHECK( tbFuzz_IsUnit( pen.normal, 1.0e-3f ), "penetration normal is not unit" );
		if ( distance.distance > p.tolerance )
		{
			TB_FUZZ_CHECK( fabsf( pen.depth + distance.distance ) <= p.tolerance,
						   "separated by %g (GJK) but the penetration depth is %g", (double)distance.distance,
						   (double)pen.depth );
		}
	}

	// A pair within the speculative distance, or overlapping, must produce contact points: a
	// missing manifold is a body falling through another.
	float margin = p.tolerance + TB_LINEAR_SLOP;
	bool overlapping = pen.valid && pen.depth > margin;
	TB_FUZZ_EXPECT( "overlap-points", overlapping == false || m.pointCount > 0,
					"%s-%s: no contact points although they overlap by %g", tbKindName( shapeA.kind ),
					tbKindName( shapeB.kind ), (double)pen.depth );
	bool close = distance.distance + margin < speculative;
	TB_FUZZ_EXPECT( "speculative-points", close == false || m.pointCount > 0,
					"%s-%s: no contact points although the distance %g is below the speculative distance %g",
					tbKindName( shapeA.kind ), tbKindName( shapeB.kind ), (double)distance.distance,
					(double)speculative );
	// For shallow overlaps (what the solver sees) the deepest point is as deep as EPA says. Deep
	// interpenetration is left out: clipping then legitimately reports points deeper than the
	// minimal axis.
	if ( m.pointCount > 0 && pen.valid && pen.depth > margin && pen.depth < 0.1f * p.scale )
	{
		float slack = 0.02f * p.scale + margin;
		TB_FUZZ_EXPECT( "manifold-depth", fabsf( smallest + pen.depth ) <= slack,
						"%s-%s: the deepest manifold point has separation %g but the penetration depth is %g",
						tbKindName( shapeA.kind ), tbKindName( shapeB.kind ), (double)smallest, (double)pen.depth );
	}

	tbCheckCast( &p, &in );
	tbCheckTimeOfImpact( &p, &in );

	tbFuzz_SetDescription( NULL, NULL );
	tbDestroyHull( shapeA.hull );
	tbDestroyHull( shapeB.hull );
	return 0;
}
