// Tumble physics: GJK closest points, linear shape cast and sweep interpolation.
// SPDX-License-Identifier: MIT
#include "core.h"
#include "distance_internal.h"

#include <float.h>

// GJK after Gilbert, Johnson and Keerthi (1988). The closest point of each simplex is found from
// barycentric coordinates (Johnson's sub-algorithm restated as region tests, Ericson, "Real-Time
// Collision Detection" 5.1 and 9.5): the simplex is cut down to the vertices with positive
// weights. Termination follows van den Bergen; the warm-start cache follows Box2D's
// b2ShapeDistance. All work is done in the frame of proxy A.

/// A triangle counts as degenerate (collinear) when |n|^2 <= this * (longest edge)^4, and a
/// tetrahedron face gives no inside/outside verdict when the opposite vertex's height is below
/// sqrt(this) times its distance: a sine of about 1e-5, where float barycentric coordinates stop
/// being trustworthy. The degenerate path searches the sub-simplices, which is always a correct
/// (if possibly not minimal) answer.
#define TB_DEGENERATE_SINE_SQUARED 1.0e-10f

/// GJK stops when |v|^2 - v.w <= this * |v|^2: the lower bound v.w/|v| on the distance is within
/// this relative amount of the upper bound |v| (van den Bergen's termination test).
#define TB_GJK_RELATIVE_TOLERANCE 1.0e-6f

/// Steps that leave |v|^2 unchanged within rounding that GJK tolerates before stopping.
#define TB_GJK_MAX_STALLS 3

/// Shape cast: iteration cap and the gap above radiusA + radiusB at which B counts as touching.
#define TB_CAST_MAX_ITERATIONS 32
#define TB_CAST_TOLERANCE 1.0e-5f

int tbFindProxySupport( const tbShapeProxy* proxy, tbVec3 direction )
{
	TB_ASSERT( proxy->count > 0 );
	int bestIndex = 0;
	float bestValue = tbDot( proxy->points[0], direction );
	for ( int i = 1; i < proxy->count; ++i )
	{
		float value = tbDot( proxy->points[i], direction );
		if ( value > bestValue )
		{
			bestIndex = i;
			bestValue = value;
		}
	}
	return bestIndex;
}

static tbSimplexVertex tbMakeVertex( const tbShapeProxy* proxyA, const tbShapeProxy* proxyB, tbTransform xfB,
									 int indexA, int indexB )
{
	tbSimplexVertex vertex;
	vertex.wA = proxyA->points[indexA];
	vertex.wB = tbTransformPoint( xfB, proxyB->points[indexB] );
	vertex.w = tbSub( vertex.wB, vertex.wA );
	vertex.a = 1.0f;
	vertex.indexA = indexA;
	vertex.indexB = indexB;
	return vertex;
}

// The disk part of a support point along d (the proxy's frame): radius times the unit part of d
// across the axis. Along the axis every cap point is a support point; the centre is kept.
static tbVec3 tbDiskSupport( const tbShapeProxy* proxy, tbVec3 d )
{
	tbVec3 across = tbMulSub( d, tbDot( d, proxy->diskAxis ), proxy->diskAxis );
	float length = tbLength( across );
	return length > 1.0e-6f * tbLength( d ) ? tbMulSV( proxy->diskRadius / length, across ) : tb_vec3_zero;
}

tbVec3 tbProxySupportPoint( const tbShapeProxy* proxy, tbVec3 direction )
{
	tbVec3 point = proxy->points[tbFindProxySupport( proxy, direction )];
	return proxy->diskRadius > 0.0f ? tbAdd( point, tbDiskSupport( proxy, direction ) ) : point;
}

tbSimplexVertex tbMakeSupportVertex( const tbShapeProxy* proxyA, const tbShapeProxy* proxyB, tbTransform xfB,
									 tbVec3 direction )
{
	// The support of B - A along d pairs the support of B along d with the support of A along -d.
	tbVec3 dA = tbNeg( direction );
	tbVec3 dB = tbInvRotate( xfB.q, direction );
	int indexA = tbFindProxySupport( proxyA, dA );
	int indexB = tbFindProxySupport( proxyB, dB );
	tbSimplexVertex vertex = tbMakeVertex( proxyA, proxyB, xfB, indexA, indexB );
	if ( proxyA->diskRadius > 0.0f || proxyB->diskRadius > 0.0f )
	{
		// A disk's support point moves continuously with d: its index names no single point, so
		// it is made negative and never counts as a repeat (tbSimplexHasVertex).
		if ( proxyA->diskRadius > 0.0f )
		{
			vertex.wA = tbAdd( vertex.wA, tbDiskSupport( proxyA, dA ) );
			vertex.indexA = -1 - indexA;
		}
		if ( proxyB->diskRadius > 0.0f )
		{
			vertex.wB = tbAdd( vertex.wB, tbRotate( xfB.q, tbDiskSupport( proxyB, dB ) ) );
			vertex.indexB = -1 - indexB;
		}
		vertex.w = tbSub( vertex.wB, vertex.wA );
	}
	return vertex;
}

// Segment: the origin projects onto w0 + t (w1 - w0) at t = -w0.e / e.e. Comparing the numerator
// with e.e before dividing keeps a zero-length segment from dividing by zero.
static tbVec3 tbSolveSegment( tbSimplex* s )
{
	tbVec3 w0 = s->v[0].w;
	tbVec3 e = tbSub( s->v[1].w, w0 );
	float ee = tbDot( e, e );
	float numerator = -tbDot( w0, e );
	if ( numerator <= 0.0f || ee <= 0.0f )
	{
		s->v[0].a = 1.0f;
		s->count = 1;
		return w0;
	}
	if ( numerator >= ee )
	{
		s->v[0] = s->v[1];
		s->v[0].a = 1.0f;
		s->count = 1;
		return s->v[0].w;
	}
	float t = numerator / ee;
	s->v[0].a = 1.0f - t;
	s->v[1].a = t;
	s->count = 2;
	return tbMulAdd( w0, t, e );
}

static tbVec3 tbSolveTriangle( tbSimplex* s );

// Closest point over several sub-simplices (edges of a triangle or faces of a tetrahedron) of s;
// s becomes the winner. Every candidate is a subset of s's hull, so the minimum is never worse
// than the true answer and equals it when the candidates cover the region the origin faces.
static tbVec3 tbSolveBestSubset( tbSimplex* s, const int subsets[][3], int subsetCount, int subsetSize )
{
	tbSimplex best = *s;
	tbVec3 bestPoint = tb_vec3_zero;
	float bestDistanceSquared = FLT_MAX;
	for ( int i = 0; i < subsetCount; ++i )
	{
		tbSimplex candidate;
		candidate.count = subsetSize;
		for ( int k = 0; k < subsetSize; ++k )
		{
			candidate.v[k] = s->v[subsets[i][k]];
		}
		tbVec3 point = subsetSize == 2 ? tbSolveSegment( &candidate ) : tbSolveTriangle( &candidate );
		float distanceSquared = tbLengthSquared( point );
		if ( distanceSquared < bestDistanceSquared )
		{
			bestDistanceSquared = distanceSquared;
			bestPoint = point;
			best = candidate;
		}
	}
	*s = best;
	return bestPoint;
}

// Normal of triangle (a, b, c), counter-clockwise, from the two edges meeting opposite the longest
// one: the rounding error of a cross product grows with the edge lengths, so this is the most
// accurate of the three equivalent choices (as in Jolt's closest-point code).
static tbVec3 tbTriangleNormal( tbVec3 a, tbVec3 b, tbVec3 c )
{
	tbVec3 ab = tbSub( b, a );
	tbVec3 bc = tbSub( c, b );
	tbVec3 ca = tbSub( a, c );
	float abab = tbDot( ab, ab );
	float bcbc = tbDot( bc, bc );
	float caca = tbDot( ca, ca );
	if ( bcbc >= abab && bcbc >= caca )
	{
		return tbCross( ab, tbNeg( ca ) );
	}
	if ( caca >= abab )
	{
		return tbCross( bc, tbNeg( ab ) );
	}
	return tbCross( ca, tbNeg( bc ) );
}

// Triangle: project the origin onto the plane, P = n (n.w0) / n.n, then the barycentric coordinate
// of each vertex is the signed area of the sub-triangle P makes with the opposite edge over the
// whole area, n.((wj - P) x (wk - P)) / n.n. Working relative to P keeps the vectors short when
// the origin is near the triangle (where precision matters). A negative coordinate means the
// origin faces the opposite edge, and the closest point lies on one of those edges.
static tbVec3 tbSolveTriangle( tbSimplex* s )
{
	static const int edges[3][3] = { { 1, 2, 0 }, { 2, 0, 0 }, { 0, 1, 0 } };

	tbVec3 w0 = s->v[0].w;
	tbVec3 w1 = s->v[1].w;
	tbVec3 w2 = s->v[2].w;
	tbVec3 e1 = tbSub( w1, w0 );
	tbVec3 e2 = tbSub( w2, w0 );
	tbVec3 n = tbTriangleNormal( w0, w1, w2 );
	float nn = tbDot( n, n );
	float longest = tbMaxFloat( tbMaxFloat( tbDot( e1, e1 ), tbDot( e2, e2 ) ), tbDistanceSquared( w1, w2 ) );
	if ( nn <= TB_DEGENERATE_SINE_SQUARED * longest * longest || nn <= FLT_MIN )
	{
		return tbSolveBestSubset( s, edges, 3, 2 );
	}

	float inv = 1.0f / nn;
	tbVec3 p = tbMulSV( tbDot( n, w0 ) * inv, n );
	tbVec3 q0 = tbSub( w0, p );
	tbVec3 q1 = tbSub( w1, p );
	tbVec3 q2 = tbSub( w2, p );
	const float weights[3] = {
		tbDot( n, tbCross( q1, q2 ) ) * inv,
		tbDot( n, tbCross( q2, q0 ) ) * inv,
		tbDot( n, tbCross( q0, q1 ) ) * inv,
	};
	if ( weights[0] >= 0.0f && weights[1] >= 0.0f && weights[2] >= 0.0f )
	{
		// Rescale so the weights sum to one exactly (they do up to rounding).
		float sum = weights[0] + weights[1] + weights[2];
		float scale = sum > 0.0f ? 1.0f / sum : 0.0f;
		for ( int i = 0; i < 3; ++i )
		{
			s->v[i].a = weights[i] * scale;
		}
		s->count = 3;
		// P keeps its direction exact even when tiny (touching shapes), unlike the weighted sum.
		return p;
	}

	int candidates[3][3];
	int candidateCount = 0;
	for ( int i = 0; i < 3; ++i )
	{
		if ( weights[i] < 0.0f )
		{
			candidates[candidateCount][0] = edges[i][0];
			candidates[candidateCount][1] = edges[i][1];
			candidates[candidateCount][2] = 0;
			++candidateCount;
		}
	}
	return tbSolveBestSubset( s, (const int( * )[3])candidates, candidateCount, 2 );
}

// Tetrahedron, face by face (Ericson 5.1.6): with n the normal of the face opposite vertex d, the
// origin's barycentric coordinate for d is n.(0 - a) / n.(d - a), the ratio of the origin's and
// d's heights over that face. Each coordinate uses its own face's plane, so a needle-shaped
// tetrahedron (long edges, small but resolvable thickness) is judged on its well-shaped faces
// instead of on one ill-conditioned determinant. A face whose opposite vertex lies in its plane
// (to float resolution) gives no verdict and is simply searched. If the origin is beyond no face
// it is enclosed; otherwise the closest point lies on a face it is beyond.
static tbVec3 tbSolveTetrahedron( tbSimplex* s )
{
	static const int faces[4][3] = { { 1, 2, 3 }, { 0, 3, 2 }, { 0, 1, 3 }, { 0, 2, 1 } };

	float weights[4];
	bool beyond[4];
	bool anyBeyond = false;
	for ( int i = 0; i < 4; ++i )
	{
		tbVec3 a = s->v[faces[i][0]].w;
		tbVec3 b = s->v[faces[i][1]].w;
		tbVec3 c = s->v[faces[i][2]].w;
		tbVec3 d = s->v[i].w;
		tbVec3 n = tbTriangleNormal( a, b, c );
		tbVec3 ad = tbSub( d, a );
		float heightD = tbDot( n, ad );
		float heightOrigin = -tbDot( n, a );
		float nn = tbDot( n, n );
		if ( heightD * heightD <= TB_DEGENERATE_SINE_SQUARED * nn * tbDot( ad, ad ) || nn <= FLT_MIN )
		{
			weights[i] = 0.0f;
			beyond[i] = true;
		}
		else
		{
			weights[i] = heightOrigin / heightD;
			beyond[i] = weights[i] < 0.0f;
		}
		anyBeyond = anyBeyond || beyond[i];
	}

	if ( anyBeyond == false )
	{
		float sum = weights[0] + weights[1] + weights[2] + weights[3];
		float scale = sum > 0.0f ? 1.0f / sum : 0.0f;
		for ( int i = 0; i < 4; ++i )
		{
			s->v[i].a = weights[i] * scale;
		}
		s->count = 4;
		return tb_vec3_zero;
	}

	int candidates[4][3];
	int candidateCount = 0;
	for ( int i = 0; i < 4; ++i )
	{
		if ( beyond[i] )
		{
			candidates[candidateCount][0] = faces[i][0];
			candidates[candidateCount][1] = faces[i][1];
			candidates[candidateCount][2] = faces[i][2];
			++candidateCount;
		}
	}
	return tbSolveBestSubset( s, (const int( * )[3])candidates, candidateCount, 3 );
}

tbVec3 tbSolveSimplex( tbSimplex* simplex )
{
	switch ( simplex->count )
	{
		case 1:
			simplex->v[0].a = 1.0f;
			return simplex->v[0].w;
		case 2:
			return tbSolveSegment( simplex );
		case 3:
			return tbSolveTriangle( simplex );
		case 4:
			return tbSolveTetrahedron( simplex );
		default:
			TB_ASSERT( false );
			return tb_vec3_zero;
	}
}

void tbComputeWitnessPoints( const tbSimplex* simplex, tbVec3* pointA, tbVec3* pointB )
{
	tbVec3 a = tb_vec3_zero;
	tbVec3 b = tb_vec3_zero;
	for ( int i = 0; i < simplex->count; ++i )
	{
		a = tbMulAdd( a, simplex->v[i].a, simplex->v[i].wA );
		b = tbMulAdd( b, simplex->v[i].a, simplex->v[i].wB );
	}
	*pointA = a;
	*pointB = b;
}

static bool tbSimplexHasVertex( const tbSimplex* simplex, int indexA, int indexB )
{
	if ( indexA < 0 || indexB < 0 )
	{
		return false;
	}
	for ( int i = 0; i < simplex->count; ++i )
	{
		if ( simplex->v[i].indexA == indexA && simplex->v[i].indexB == indexB )
		{
			return true;
		}
	}
	return false;
}

tbGJKResult tbGJK( const tbShapeProxy* proxyA, const tbShapeProxy* proxyB, tbTransform xfB, tbSimplexCache* cache,
				   tbSimplex* simplex )
{
	TB_ASSERT( proxyA->count > 0 && proxyB->count > 0 );

	tbGJKResult result;
	result.iterations = 0;
	result.overlap = false;

	// Warm start from the cached vertex indices. A cache from a different pair (or a stale one
	// after a shape change) can hold indices past the proxies' ends: ignore it then.
	simplex->count = 0;
	bool disk = proxyA->diskRadius > 0.0f || proxyB->diskRadius > 0.0f;
	if ( cache != NULL && cache->count >= 1 && cache->count <= 4 && disk == false )
	{
		bool valid = true;
		for ( int i = 0; i < cache->count; ++i )
		{
			if ( cache->indexA[i] >= proxyA->count || cache->indexB[i] >= proxyB->count )
			{
				valid = false;
			}
		}
		if ( valid )
		{
			for ( int i = 0; i < cache->count; ++i )
			{
				if ( tbSimplexHasVertex( simplex, cache->indexA[i], cache->indexB[i] ) == false )
				{
					simplex->v[simplex->count] =
						tbMakeVertex( proxyA, proxyB, xfB, cache->indexA[i], cache->indexB[i] );
					simplex->count += 1;
				}
			}
		}
	}
	if ( simplex->count == 0 )
	{
		simplex->v[0] = tbMakeVertex( proxyA, proxyB, xfB, 0, 0 );
		simplex->count = 1;
	}

	tbVec3 v = tbSolveSimplex( simplex );
	float vv = tbLengthSquared( v );
	int stalls = 0;
	while ( result.iterations < TB_GJK_MAX_ITERATIONS )
	{
		if ( simplex->count == 4 || vv < TB_GJK_OVERLAP_SQUARED )
		{
			break;
		}

		// Search along -v: the support point that most reduces the distance to the origin.
		tbSimplexVertex vertex = tbMakeSupportVertex( proxyA, proxyB, xfB, tbNeg( v ) );
		result.iterations += 1;

		// A repeated support point cannot enlarge the simplex: converged (exactly, for polytopes).
		if ( tbSimplexHasVertex( simplex, vertex.indexA, vertex.indexB ) )
		{
			break;
		}

		// Progress test. The second term is the rounding noise of v.w itself (w can be much longer
		// than v): below it the apparent progress is not real.
		float gap = vv - tbDot( v, vertex.w );
		if ( gap <= TB_GJK_RELATIVE_TOLERANCE * vv || gap <= 8.0f * FLT_EPSILON * sqrtf( vv ) * tbLength( vertex.w ) )
		{
			break;
		}

		tbSimplex saved = *simplex;
		simplex->v[simplex->count] = vertex;
		simplex->count += 1;
		tbVec3 newV = tbSolveSimplex( simplex );
		float newVV = tbLengthSquared( newV );

		// In exact arithmetic |v| strictly decreases. In float a step can improve the direction of
		// v while |v|^2 stays put within its rounding noise (large shapes, far support points), so
		// such a step is kept, a few times at most; a clear increase is noise gone wrong, and the
		// previous simplex is the better answer.
		if ( newVV >= vv && simplex->count < 4 )
		{
			float longest = 0.0f;
			for ( int i = 0; i < simplex->count; ++i )
			{
				longest = tbMaxFloat( longest, tbLengthSquared( simplex->v[i].w ) );
			}
			float noise = 8.0f * FLT_EPSILON * sqrtf( vv * longest );
			stalls += 1;
			if ( newVV > vv + noise || stalls > TB_GJK_MAX_STALLS )
			{
				*simplex = saved;
				break;
			}
		}
		v = newV;
		vv = newVV;
	}

	result.overlap = simplex->count == 4 || vv < TB_GJK_OVERLAP_SQUARED;
	tbComputeWitnessPoints( simplex, &result.pointA, &result.pointB );
	if ( result.overlap )
	{
		result.distance = 0.0f;
		result.normal = tb_vec3_zero;
	}
	else
	{
		result.distance = sqrtf( vv );
		result.normal = tbMulSV( 1.0f / result.distance, v );
	}

	if ( cache != NULL && disk )
	{
		cache->count = 0;
	}
	else if ( cache != NULL )
	{
		cache->count = (uint16_t)simplex->count;
		for ( int i = 0; i < simplex->count; ++i )
		{
			cache->indexA[i] = (uint16_t)simplex->v[i].indexA;
			cache->indexB[i] = (uint16_t)simplex->v[i].indexB;
		}
	}
	return result;
}

tbDistanceOutput tbShapeDistance( const tbDistanceInput* input, tbSimplexCache* cache )
{
	tbTransform xfA = input->transformA;
	tbTransform xfB = tbInvMulTransforms( xfA, input->transformB );

	tbSimplex simplex;
	tbGJKResult gjk = tbGJK( &input->proxyA, &input->proxyB, xfB, cache, &simplex );

	tbVec3 pointA = gjk.pointA;
	tbVec3 pointB = gjk.pointB;
	float distance = gjk.distance;
	if ( input->useRadii )
	{
		float radiusA = input->proxyA.radius;
		float radiusB = input->proxyB.radius;
		if ( gjk.overlap == false )
		{
			// Move the points onto the surfaces even when the rounded shapes overlap (distance is
			// clamped to 0 then): they stay on the perimeters and move smoothly as the shapes pass
			// from apart to touching, as in Box2D v3.
			distance = tbMaxFloat( 0.0f, distance - radiusA - radiusB );
			pointA = tbMulAdd( pointA, radiusA, gjk.normal );
			pointB = tbMulSub( pointB, radiusB, gjk.normal );
		}
		else
		{
			// Overlapping cores have no closest points and no normal: report both points at the
			// midpoint of the core witness points.
			tbVec3 middle = tbLerp( pointA, pointB, 0.5f );
			pointA = middle;
			pointB = middle;
		}
	}

	tbDistanceOutput output;
	output.pointA = tbTransformPoint( xfA, pointA );
	output.pointB = tbTransformPoint( xfA, pointB );
	output.normal = tbRotate( xfA.q, gjk.normal );
	output.distance = distance;
	output.iterations = gjk.iterations;
	output.simplexCount = simplex.count;
	return output;
}

// Shape cast: GJK ray cast (van den Bergen, "Ray Casting against General Convex Objects with
// Application to Continuous Collision Detection", 2004) of the origin against B - A, with B
// translated by lambda r. Each support point w along -v gives a plane that bounds the translated
// difference: dot(n, x) >= n.w + lambda n.r (n = v/|v|). If that bound exceeds the summed radii the
// shapes are still apart at lambda, and lambda can safely advance to where the bound equals the
// radii. Lambda only ever moves to such planes, so it never passes the first contact.
tbCastOutput tbShapeCast( const tbShapeCastPairInput* input )
{
	const tbShapeProxy* proxyA = &input->proxyA;
	const tbShapeProxy* proxyB = &input->proxyB;
	tbTransform xfA = input->transformA;
	tbTransform xfB = tbInvMulTransforms( xfA, input->transformB );
	tbVec3 r = tbInvRotate( xfA.q, input->translationB );
	float radius = proxyA->radius + proxyB->radius;
	float maxFraction = input->maxFraction;

	tbCastOutput output;
	output.normal = tb_vec3_zero;
	output.point = tb_vec3_zero;
	output.fraction = 0.0f;
	output.iterations = 0;
	output.hit = false;

	tbSimplex simplex;
	simplex.v[0] = tbMakeVertex( proxyA, proxyB, xfB, 0, 0 );
	simplex.count = 1;

	float lambda = 0.0f;
	tbVec3 normal = tb_vec3_zero;
	tbVec3 v = simplex.v[0].w;
	bool overlap = false;
	int iteration = 0;
	while ( iteration < TB_CAST_MAX_ITERATIONS )
	{
		float vv = tbLengthSquared( v );
		if ( simplex.count == 4 || vv < TB_GJK_OVERLAP_SQUARED )
		{
			overlap = true;
			break;
		}
		float vLength = sqrtf( vv );
		if ( vLength - radius <= TB_CAST_TOLERANCE )
		{
			break;
		}

		tbVec3 n = tbMulSV( 1.0f / vLength, v );
		tbSimplexVertex vertex = tbMakeSupportVertex( proxyA, proxyB, xfB, tbNeg( n ) );
		iteration += 1;

		float nw = tbDot( n, vertex.w );
		float nr = tbDot( n, r );
		bool advanced = false;
		if ( nw + lambda * nr > radius )
		{
			if ( nr >= 0.0f )
			{
				// B moves away from (or parallel to) the separating plane: it never reaches A.
				output.iterations = iteration;
				return output;
			}
			float newLambda = ( radius - nw ) / nr;
			if ( newLambda > maxFraction )
			{
				output.iterations = iteration;
				return output;
			}
			tbVec3 shift = tbMulSV( newLambda - lambda, r );
			for ( int i = 0; i < simplex.count; ++i )
			{
				simplex.v[i].wB = tbAdd( simplex.v[i].wB, shift );
				simplex.v[i].w = tbAdd( simplex.v[i].w, shift );
			}
			lambda = newLambda;
			normal = n;
			advanced = true;
		}
		else if ( vLength - ( nw + lambda * nr ) <= TB_CAST_TOLERANCE )
		{
			// Lower and upper bounds on the distance at lambda agree and are within the radii.
			break;
		}

		vertex.wB = tbMulAdd( vertex.wB, lambda, r );
		vertex.w = tbMulAdd( vertex.w, lambda, r );
		if ( tbSimplexHasVertex( &simplex, vertex.indexA, vertex.indexB ) )
		{
			if ( advanced == false )
			{
				break;
			}
		}
		else
		{
			simplex.v[simplex.count] = vertex;
			simplex.count += 1;
		}
		v = tbSolveSimplex( &simplex );
	}

	// Reached by touching within tolerance, core overlap at lambda, or the iteration cap (lambda
	// is still a safe, early fraction then). Never having advanced means B started in contact.
	tbVec3 pointA, pointB;
	tbComputeWitnessPoints( &simplex, &pointA, &pointB );
	if ( overlap == false && tbLengthSquared( v ) > 0.0f )
	{
		normal = tbNormalize( v );
	}
	output.point = tbTransformPoint( xfA, tbMulAdd( pointA, proxyA->radius, normal ) );
	output.normal = tbRotate( xfA.q, normal );
	output.fraction = lambda;
	output.iterations = iteration;
	output.hit = true;
	return output;
}

tbTransform tbGetSweepTransform( const tbSweep* sweep, float t )
{
	tbVec3 c = tbLerp( sweep->c1, sweep->c2, t );

	// nlerp along the shorter arc: q and -q are the same rotation, so flip q2 into q1's hemisphere.
	tbQuat q1 = sweep->q1;
	tbQuat q2 = sweep->q2;
	if ( tbDotQ( q1, q2 ) < 0.0f )
	{
		q2 = tbMakeQuat( -q2.w, -q2.x, -q2.y, -q2.z );
	}
	float s = 1.0f - t;
	tbQuat q = { s * q1.x + t * q2.x, s * q1.y + t * q2.y, s * q1.z + t * q2.z, s * q1.w + t * q2.w };
	q = tbNormalizeQ( q );

	tbTransform xf;
	xf.q = q;
	xf.p = tbSub( c, tbRotate( q, sweep->localCenter ) );
	return xf;
}
