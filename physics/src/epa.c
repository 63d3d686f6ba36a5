// Tumble physics: penetration depth by the expanding polytope algorithm (EPA).
// SPDX-License-Identifier: MIT
#include "core.h"
#include "distance_internal.h"

#include <float.h>

// EPA (van den Bergen, "Proximity Queries and Penetration Depth Computation on 3D Game Objects",
// GDC 2001): when the cores overlap the origin lies inside M = B - A, and the penetration depth is
// the distance from the origin to M's boundary. Starting from a tetrahedron inside M that contains
// the origin, repeatedly take the polytope face closest to the origin, add M's support point along
// its normal and re-hull, until the support point adds (almost) nothing beyond that face.
// If that face has outward normal n at distance d, B translated by t separates once the origin
// leaves M + t, i.e. -t reaches M's boundary: the shortest such t is -d n. So the A-to-B normal
// reported to the user (move B by depth * normal to separate) is -n.

/// Caps keep the polytope on the stack: every iteration adds one vertex.
#define TB_EPA_MAX_ITERATIONS 64
#define TB_EPA_MAX_VERTICES ( TB_EPA_MAX_ITERATIONS + 4 )
#define TB_EPA_MAX_FACES 256

/// Convergence: the support point is at most this far beyond the closest face, relative to the
/// polytope's size (1e-5 of a metre-sized shape is well inside TB_LINEAR_SLOP).
#define TB_EPA_RELATIVE_TOLERANCE 1.0e-5f

/// GJK core distances below this (m) go to EPA rather than trusting the GJK normal: the closest
/// point vector is then too short for a reliable direction.
#define TB_EPA_GJK_SWITCH_DISTANCE 1.0e-5f

typedef struct tbEPAFace
{
	int i[3];		///< vertex indices, counter-clockwise seen from outside
	tbVec3 normal;	///< outward unit normal (zero for a sliver face)
	float distance; ///< signed distance of the origin to the face plane; FLT_MAX for slivers
} tbEPAFace;

typedef struct tbPolytope
{
	tbSimplexVertex vertices[TB_EPA_MAX_VERTICES];
	tbEPAFace faces[TB_EPA_MAX_FACES];
	int vertexCount;
	int faceCount;
	tbVec3 interior; ///< a point strictly inside: the initial tetrahedron's centroid
} tbPolytope;

static tbEPAFace tbMakeFace( const tbPolytope* polytope, int i0, int i1, int i2 )
{
	tbEPAFace face;
	face.i[0] = i0;
	face.i[1] = i1;
	face.i[2] = i2;

	tbVec3 w0 = polytope->vertices[i0].w;
	tbVec3 e1 = tbSub( polytope->vertices[i1].w, w0 );
	tbVec3 e2 = tbSub( polytope->vertices[i2].w, w0 );
	tbVec3 n = tbCross( e1, e2 );
	float nn = tbDot( n, n );
	if ( nn <= 1.0e-12f * tbDot( e1, e1 ) * tbDot( e2, e2 ) || nn <= FLT_MIN )
	{
		// A sliver has no trustworthy plane. It stays in the topology (its edges are shared) but is
		// never the closest face and never visible, so it is simply left behind.
		face.normal = tb_vec3_zero;
		face.distance = FLT_MAX;
		return face;
	}
	n = tbMulSV( 1.0f / sqrtf( nn ), n );

	// The winding is kept outward by construction; the interior point guards against rounding.
	if ( tbDot( n, tbSub( w0, polytope->interior ) ) < 0.0f )
	{
		n = tbNeg( n );
	}
	face.normal = n;
	face.distance = tbDot( n, w0 );
	return face;
}

static int tbFindClosestFace( const tbPolytope* polytope )
{
	int best = 0;
	for ( int i = 1; i < polytope->faceCount; ++i )
	{
		if ( polytope->faces[i].distance < polytope->faces[best].distance )
		{
			best = i;
		}
	}
	return best;
}

static bool tbPolytopeHasVertex( const tbPolytope* polytope, int indexA, int indexB )
{
	// Negative: a disk's support point (tbMakeSupportVertex), which no index repeats.
	if ( indexA < 0 || indexB < 0 )
	{
		return false;
	}
	for ( int i = 0; i < polytope->vertexCount; ++i )
	{
		if ( polytope->vertices[i].indexA == indexA && polytope->vertices[i].indexB == indexB )
		{
			return true;
		}
	}
	return false;
}

// The face that owns the directed edge b -> a (the twin of a -> b), or -1.
static int tbFindTwinFace( const tbPolytope* polytope, int a, int b )
{
	for ( int j = 0; j < polytope->faceCount; ++j )
	{
		const int* i = polytope->faces[j].i;
		if ( ( i[0] == b && i[1] == a ) || ( i[1] == b && i[2] == a ) || ( i[2] == b && i[0] == a ) )
		{
			return j;
		}
	}
	return -1;
}

static bool tbIsFaceVisible( const tbPolytope* polytope, int faceIndex, tbVec3 point, float epsilon )
{
	const tbEPAFace* face = polytope->faces + faceIndex;
	return tbDot( face->normal, tbSub( point, polytope->vertices[face->i[0]].w ) ) > epsilon;
}

typedef struct tbEPAResult
{
	tbVec3 normal;	///< outward normal of M's closest face, A's frame
	float distance; ///< core penetration depth, m
	tbVec3 pointA;
	tbVec3 pointB;
} tbEPAResult;

// Runs EPA from a tetrahedron (four vertices of M enclosing the origin, possibly on its boundary).
static tbEPAResult tbExpandPolytope( const tbShapeProxy* proxyA, const tbShapeProxy* proxyB, tbTransform xfB,
									 const tbSimplexVertex tetrahedron[4] )
{
	tbPolytope polytope;
	polytope.vertexCount = 4;
	float scale = 0.0f;
	for ( int i = 0; i < 4; ++i )
	{
		polytope.vertices[i] = tetrahedron[i];
		scale = tbMaxFloat( scale, tbLength( tetrahedron[i].w ) );
	}
	float tolerance = TB_EPA_RELATIVE_TOLERANCE * tbMaxFloat( scale, 1.0f );
	float visibleEpsilon = 0.01f * tolerance;

	// Make the tetrahedron negatively oriented, det(w1-w0, w2-w0, w3-w0) < 0, so that the faces
	// (0,1,2), (0,3,1), (0,2,3), (1,3,2) are all counter-clockwise seen from outside.
	tbVec3 w0 = polytope.vertices[0].w;
	float det = tbDot( tbCross( tbSub( polytope.vertices[1].w, w0 ), tbSub( polytope.vertices[2].w, w0 ) ),
					   tbSub( polytope.vertices[3].w, w0 ) );
	if ( det > 0.0f )
	{
		tbSimplexVertex temp = polytope.vertices[1];
		polytope.vertices[1] = polytope.vertices[2];
		polytope.vertices[2] = temp;
	}
	polytope.interior = tbMulSV( 0.25f, tbAdd( tbAdd( polytope.vertices[0].w, polytope.vertices[1].w ),
											   tbAdd( polytope.vertices[2].w, polytope.vertices[3].w ) ) );
	polytope.faces[0] = tbMakeFace( &polytope, 0, 1, 2 );
	polytope.faces[1] = tbMakeFace( &polytope, 0, 3, 1 );
	polytope.faces[2] = tbMakeFace( &polytope, 0, 2, 3 );
	polytope.faces[3] = tbMakeFace( &polytope, 1, 3, 2 );
	polytope.faceCount = 4;

	bool visible[TB_EPA_MAX_FACES];
	int stack[TB_EPA_MAX_FACES];
	int horizon[TB_EPA_MAX_FACES][2];

	for ( int iteration = 0; iteration < TB_EPA_MAX_ITERATIONS; ++iteration )
	{
		int closest = tbFindClosestFace( &polytope );
		const tbEPAFace* face = polytope.faces + closest;
		if ( face->distance == FLT_MAX || polytope.vertexCount == TB_EPA_MAX_VERTICES )
		{
			break;
		}

		tbSimplexVertex vertex = tbMakeSupportVertex( proxyA, proxyB, xfB, face->normal );
		if ( tbDot( vertex.w, face->normal ) - face->distance <= tolerance )
		{
			break;
		}
		if ( tbPolytopeHasVertex( &polytope, vertex.indexA, vertex.indexB ) )
		{
			break;
		}

		// Faces that see the new point form a disc on the convex polytope; flood-fill it from the
		// closest face (which sees the point by the test above) so rounding cannot remove a face
		// that is not connected to it. Edges from a visible to a hidden face form the horizon.
		for ( int j = 0; j < polytope.faceCount; ++j )
		{
			visible[j] = false;
		}
		int stackCount = 1;
		int horizonCount = 0;
		int visibleCount = 1;
		bool overflow = false;
		stack[0] = closest;
		visible[closest] = true;
		while ( stackCount > 0 && overflow == false )
		{
			int current = stack[--stackCount];
			for ( int k = 0; k < 3; ++k )
			{
				int a = polytope.faces[current].i[k];
				int b = polytope.faces[current].i[( k + 1 ) % 3];
				int twin = tbFindTwinFace( &polytope, a, b );
				if ( twin >= 0 && visible[twin] )
				{
					continue;
				}
				if ( twin >= 0 && tbIsFaceVisible( &polytope, twin, vertex.w, visibleEpsilon ) )
				{
					visible[twin] = true;
					stack[stackCount++] = twin;
					visibleCount += 1;
					continue;
				}
				if ( horizonCount == TB_EPA_MAX_FACES )
				{
					overflow = true;
					break;
				}
				horizon[horizonCount][0] = a;
				horizon[horizonCount][1] = b;
				horizonCount += 1;
			}
		}

		if ( overflow || horizonCount < 3 || polytope.faceCount - visibleCount + horizonCount > TB_EPA_MAX_FACES )
		{
			break;
		}

		int newIndex = polytope.vertexCount;
		polytope.vertices[newIndex] = vertex;
		polytope.vertexCount += 1;

		int kept = 0;
		for ( int j = 0; j < polytope.faceCount; ++j )
		{
			if ( visible[j] == false )
			{
				polytope.faces[kept++] = polytope.faces[j];
			}
		}
		polytope.faceCount = kept;

		// A horizon edge a -> b ran counter-clockwise on a removed face, so (a, b, new) keeps the
		// outward winding and shares the edge b -> a with the hidden neighbour.
		for ( int h = 0; h < horizonCount; ++h )
		{
			polytope.faces[polytope.faceCount++] = tbMakeFace( &polytope, horizon[h][0], horizon[h][1], newIndex );
		}
	}

	int closest = tbFindClosestFace( &polytope );
	const tbEPAFace* face = polytope.faces + closest;

	tbEPAResult result;
	result.normal = face->normal;
	result.distance = face->distance;

	// Contact points: barycentric coordinates of the origin's nearest point on the closest face
	// carry over to the support points of A and B that made its vertices.
	tbSimplex simplex;
	simplex.count = 3;
	for ( int k = 0; k < 3; ++k )
	{
		simplex.v[k] = polytope.vertices[face->i[k]];
	}
	tbSolveSimplex( &simplex );
	tbComputeWitnessPoints( &simplex, &result.pointA, &result.pointB );
	return result;
}

// Passes of tbBlowUpSimplex: a clean run needs at most 3 (point -> segment -> triangle ->
// tetrahedron); each collapse of a nearly collinear triangle costs one more. Past the cap the
// simplex is taken as degenerate (fuzz finding 14: rounding made a triangle and its collapse
// alternate forever).
#define TB_EPA_BLOW_UP_PASSES 12

// Grow the final GJK simplex (which holds the origin, or nearly) to a tetrahedron of M. Returns
// the dimension reached: 3 on success; 0, 1 or 2 when M itself is a point, a segment or flat
// (within epsilon), with *flatDirection the segment direction (1) or plane normal (2).
static int tbBlowUpSimplex( const tbShapeProxy* proxyA, const tbShapeProxy* proxyB, tbTransform xfB, tbSimplex* s,
							float epsilon, tbVec3* flatDirection )
{
	static const tbVec3 axes[6] = { { 1.0f, 0.0f, 0.0f },  { -1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f },
									{ 0.0f, -1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f },  { 0.0f, 0.0f, -1.0f } };

	for ( int pass = 0; pass < TB_EPA_BLOW_UP_PASSES && s->count < 4; ++pass )
	{
		tbVec3 w0 = s->v[0].w;
		if ( s->count == 1 )
		{
			// Any other point of M spans a segment through w0 (which is the origin).
			tbSimplexVertex best = s->v[0];
			float bestDistance = 0.0f;
			for ( int k = 0; k < 6; ++k )
			{
				tbSimplexVertex vertex = tbMakeSupportVertex( proxyA, proxyB, xfB, axes[k] );
				float distance = tbDistance( w0, vertex.w );
				if ( distance > bestDistance )
				{
					bestDistance = distance;
					best = vertex;
				}
			}
			if ( bestDistance <= epsilon )
			{
				*flatDirection = tb_vec3_zero;
				return 0;
			}
			s->v[1] = best;
			s->count = 2;
		}
		else if ( s->count == 2 )
		{
			float length;
			tbVec3 u = tbGetLengthAndNormalize( &length, tbSub( s->v[1].w, w0 ) );
			if ( length <= epsilon )
			{
				s->count = 1;
				continue;
			}
			// The caller's epsilon is relative to the GJK simplex, which can sit at the origin
			// (scale 1) while M spans hundreds of metres: the perpendicular offsets below then carry
			// a rounding error of a few ulps of the segment's size, more than epsilon, and a
			// "triangle" found from rounding alone collapses again below. Keep the tolerance above
			// that error: 1e-5 of the segment's reach, as the caller does for its scale.
			epsilon = tbMaxFloat( epsilon, 1.0e-5f * ( length + tbLength( w0 ) ) );
			// Six directions around the segment, 60 degrees apart: M is convex, so if none leaves
			// the line by more than epsilon, M is a segment (to that accuracy).
			tbVec3 t1, t2;
			tbComputeBasis( u, &t1, &t2 );
			tbSimplexVertex best = s->v[0];
			float bestDistance = 0.0f;
			for ( int k = 0; k < 6; ++k )
			{
				float angle = (float)k * ( TB_PI / 3.0f );
				tbVec3 direction = tbAdd( tbMulSV( cosf( angle ), t1 ), tbMulSV( sinf( angle ), t2 ) );
				tbSimplexVertex vertex = tbMakeSupportVertex( proxyA, proxyB, xfB, direction );
				tbVec3 offset = tbSub( vertex.w, w0 );
				float distance = tbLength( tbMulSub( offset, tbDot( offset, u ), u ) );
				if ( distance > bestDistance )
				{
					bestDistance = distance;
					best = vertex;
				}
			}
			if ( bestDistance <= epsilon )
			{
				*flatDirection = u;
				return 1;
			}
			s->v[2] = best;
			s->count = 3;
		}
		else
		{
			tbVec3 e1 = tbSub( s->v[1].w, w0 );
			tbVec3 e2 = tbSub( s->v[2].w, w0 );
			float area;
			tbVec3 n = tbGetLengthAndNormalize( &area, tbCross( e1, e2 ) );
			if ( area <= 0.5f * epsilon * tbLength( e1 ) || area <= FLT_MIN )
			{
				// Nearly collinear: drop the apex and search again from the segment. The
				// replacement is more than epsilon off the line, so this cannot repeat forever.
				s->count = 2;
				continue;
			}
			tbSimplexVertex above = tbMakeSupportVertex( proxyA, proxyB, xfB, n );
			tbSimplexVertex below = tbMakeSupportVertex( proxyA, proxyB, xfB, tbNeg( n ) );
			float heightAbove = tbDot( tbSub( above.w, w0 ), n );
			float heightBelow = -tbDot( tbSub( below.w, w0 ), n );
			if ( tbMaxFloat( heightAbove, heightBelow ) <= epsilon )
			{
				*flatDirection = n;
				return 2;
			}
			s->v[3] = heightAbove >= heightBelow ? above : below;
			s->count = 4;
		}
	}
	if ( s->count == 4 )
	{
		return 3;
	}

	// Out of passes: M is flat to rounding but the tests above disagree about it. Report the
	// lowest dimension that is certain, a segment along v0 v1 (or a point), so the caller gives a
	// touching contact (depth = the radii) instead of running EPA on a polytope with no volume.
	float length = 0.0f;
	tbVec3 u = s->count >= 2 ? tbGetLengthAndNormalize( &length, tbSub( s->v[1].w, s->v[0].w ) ) : tb_vec3_zero;
	s->count = length > 0.0f ? 2 : 1;
	*flatDirection = u;
	return length > 0.0f ? 1 : 0;
}

static tbVec3 tbProxyCentroid( const tbShapeProxy* proxy )
{
	tbVec3 sum = tb_vec3_zero;
	for ( int i = 0; i < proxy->count; ++i )
	{
		sum = tbAdd( sum, proxy->points[i] );
	}
	return tbMulSV( 1.0f / (float)proxy->count, sum );
}

// Largest distance of a proxy's surface from its centroid (points plus radius), m.
static float tbProxyReach( const tbShapeProxy* proxy )
{
	tbVec3 centroid = tbProxyCentroid( proxy );
	float reach = 0.0f;
	for ( int i = 0; i < proxy->count; ++i )
	{
		reach = tbMaxFloat( reach, tbDistance( proxy->points[i], centroid ) );
	}
	return reach + proxy->radius + proxy->diskRadius;
}

// Deterministic sign for a normal whose direction is free (a flat or degenerate difference with no
// centre offset to go by): prefer world +Z, then +X, then +Y.
static tbVec3 tbPreferUp( tbVec3 worldNormal )
{
	float components[3] = { worldNormal.z, worldNormal.x, worldNormal.y };
	for ( int k = 0; k < 3; ++k )
	{
		if ( tbAbsFloat( components[k] ) > 1.0e-4f )
		{
			return components[k] < 0.0f ? tbNeg( worldNormal ) : worldNormal;
		}
	}
	return worldNormal;
}

tbPenetrationOutput tbShapePenetration( const tbDistanceInput* input )
{
	const tbShapeProxy* proxyA = &input->proxyA;
	const tbShapeProxy* proxyB = &input->proxyB;
	tbTransform xfA = input->transformA;
	tbTransform xfB = tbInvMulTransforms( xfA, input->transformB );
	float radius = proxyA->radius + proxyB->radius;

	tbSimplex simplex;
	tbGJKResult gjk = tbGJK( proxyA, proxyB, xfB, NULL, &simplex );

	// Everything below is in A's frame; normal points from A to B.
	tbVec3 normal;
	tbVec3 pointA = gjk.pointA;
	tbVec3 pointB = gjk.pointB;
	float coreDepth;

	// The GJK direction is sound to a few ulps of the pair's size, so for pairs under a metre the
	// switch shrinks with them: two 3 mm hulls 9 um apart have a good GJK normal, while EPA on
	// their separated cores reported them 5 um apart (fuzz finding 28).
	float size = tbProxyReach( proxyA ) + tbProxyReach( proxyB );
	float switchDistance = TB_EPA_GJK_SWITCH_DISTANCE * tbMinFloat( 1.0f, size );
	if ( gjk.overlap == false && gjk.distance > switchDistance )
	{
		// Separated cores: the signed distance is the core distance less the radii.
		normal = gjk.normal;
		coreDepth = -gjk.distance;
	}
	else
	{
		float scale = 1.0f;
		for ( int i = 0; i < simplex.count; ++i )
		{
			scale = tbMaxFloat( scale, tbLength( simplex.v[i].w ) );
		}
		tbVec3 flatDirection = tb_vec3_zero;
		int dimension = tbBlowUpSimplex( proxyA, proxyB, xfB, &simplex, 1.0e-5f * scale, &flatDirection );
		if ( dimension == 3 )
		{
			tbEPAResult epa = tbExpandPolytope( proxyA, proxyB, xfB, simplex.v );
			normal = tbNeg( epa.normal );
			coreDepth = epa.distance;
			pointA = epa.pointA;
			pointB = epa.pointB;
		}
		else
		{
			// M is a point, a segment or flat, so the origin is on its boundary: the cores only
			// touch (depth 0) along any direction M has no extent in. Pick the one closest to the
			// line between the core centroids, which is what a user would expect to push along.
			tbVec3 centreOffset =
				tbSub( tbTransformPoint( xfB, tbProxyCentroid( proxyB ) ), tbProxyCentroid( proxyA ) );
			tbVec3 candidate = tb_vec3_zero;
			if ( dimension == 2 )
			{
				candidate = flatDirection;
				float side = tbDot( candidate, centreOffset );
				if ( tbAbsFloat( side ) > 1.0e-6f * scale )
				{
					candidate = side < 0.0f ? tbNeg( candidate ) : candidate;
				}
				else
				{
					candidate = tbInvRotate( xfA.q, tbPreferUp( tbRotate( xfA.q, candidate ) ) );
				}
			}
			else
			{
				// Remove the component along the segment (dimension 1); for a point keep all.
				tbVec3 worldUp = tbInvRotate( xfA.q, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
				tbVec3 worldX = tbInvRotate( xfA.q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
				const tbVec3 choices[3] = { centreOffset, worldUp, worldX };
				for ( int k = 0; k < 3; ++k )
				{
					tbVec3 c = tbMulSub( choices[k], tbDot( choices[k], flatDirection ), flatDirection );
					if ( dimension == 0 && k == 0 )
					{
						// Coincident points have no centre offset worth following.
						continue;
					}
					if ( tbLength( c ) > 1.0e-3f * tbMaxFloat( 1.0f, tbLength( choices[k] ) ) )
					{
						candidate = tbNormalize( c );
						break;
					}
				}
			}
			normal = candidate;
			coreDepth = 0.0f;
		}
	}

	tbPenetrationOutput output;
	output.pointA = tbTransformPoint( xfA, tbMulAdd( pointA, proxyA->radius, normal ) );
	output.pointB = tbTransformPoint( xfA, tbMulSub( pointB, proxyB->radius, normal ) );
	output.normal = tbRotate( xfA.q, normal );
	output.depth = coreDepth + radius;
	output.valid = true;

	bool finite = tbIsValidVec3( output.pointA ) && tbIsValidVec3( output.pointB ) && tbIsValidVec3( output.normal ) &&
				  tbIsValidFloat( output.depth ) && tbLengthSquared( output.normal ) > 0.5f;
	if ( finite == false )
	{
		// Only non-finite input gets here; report something finite rather than propagate NaN.
		output.pointA = tbIsValidVec3( xfA.p ) ? xfA.p : tb_vec3_zero;
		output.pointB = tbIsValidVec3( input->transformB.p ) ? input->transformB.p : tb_vec3_zero;
		output.normal = tbMakeVec3( 0.0f, 0.0f, 1.0f );
		output.depth = 0.0f;
		output.valid = false;
	}
	return output;
}
