// Tumble physics: contact manifolds of cylinders, against spheres, capsules, hulls, cylinders and
// mesh triangles.
//
// A cylinder has flat caps, a curved side and sharp rims, so neither the closest-point geometry of
// spheres and capsules nor the face SAT of hulls covers it. Its manifold is built in two steps:
// 1. GJK (EPA when the cores overlap) on the proxies gives the signed distance s and the normal n:
//    exact for any convex pair, which no case analysis of rims against edges would be.
// 2. A face of either shape that separates them along its own normal about as well as n does (within
//    the hull SAT's hysteresis) becomes the reference: a hull face, a triangle, or, when neither of
//    those qualifies, a cylinder cap (a regular polygon inscribed in the rim). The other shape's
//    feature facing it (a face, a cap polygon, the side line of a cylinder or capsule lying along it,
//    or one point) is clipped to the reference face's side planes, and each clipped point's
//    separation is measured along the face normal, exactly as for hull pairs. A cylinder standing
//    on a box gets its rim points (4 after reduction), one lying on it the two ends of its bottom
//    line, with ids fixed to the rim vertex or line end, so warm starting carries over while it
//    slides, spins or rolls.
// Without such a face (a rim on an edge, crossed sides) the contact is step 1's closest-point pair,
// or, for two side lines nearly parallel (cylinders or a capsule side by side), the two ends of
// their overlap.
// SPDX-License-Identifier: MIT
#include "cylinder.h"

#include "core.h"
#include "distance_internal.h"
#include "shape.h"

#include <float.h>
#include <math.h>
#include <string.h>

/// Vertices of a cap polygon: the inscribed 16-gon's edges come within r (1 - cos(pi / 16)), 1.9 %
/// of the radius, of the rim, so a cylinder standing on a face is held 98 % as far out as a true disk.
#define TB_CAP_VERTICES 16

/// A cap faces a direction when the axis is within 10 degrees of it. The polygon's lowest vertex is
/// then within r (1 - cos(pi / 16)) sin(10 deg) = 0.3 % of r of the true lowest rim point; tilted
/// further, the rim touches at the single support point (exact).
#define TB_CAP_COSINE 0.985f

/// A side line faces a direction within about 14.5 degrees of square to the axis (|cos| < 0.25, as
/// for a capsule lying on a face): a steeper line's upper end is dropped by the speculative test.
#define TB_SIDE_COSINE 0.25f

/// Two side lines are parallel enough for a two-point contact below this sine (about 5.7 degrees,
/// as for two capsules).
#define TB_PARALLEL_SINE 0.1f

/// Side planes of a reference face are pushed out by this, so an incident point exactly on one (a
/// cylinder flush with a box's edge) is kept. Metres.
#define TB_SIDE_TOLERANCE ( 0.1f * TB_LINEAR_SLOP )

// First words of the feature ids.
enum
{
	tbCylinderKey_face = 0x4000,
	tbCylinderKey_triangle = 0x4100,
	tbCylinderKey_capsule = 0x4200,
	tbCylinderKey_cap = 0x5000,
	tbCylinderKey_side = 0x5200,
	tbCylinderKey_point = 0x5300,
	tbCylinderKey_parallel = 0x5400,
	tbCylinderKey_closest = 0x5500,
	tbCylinderKey_sidePlane = 0x5600,
};

tbSolid tbMakeSolid( tbShapeType type, const void* geometry, tbTransform xf )
{
	tbSolid solid;
	memset( &solid, 0, sizeof( solid ) );
	solid.type = type;
	solid.geometry = geometry;
	solid.xf = xf;
	switch ( type )
	{
		case tbShape_sphere:
			solid.proxy = tbMakeSphereProxy( geometry );
			break;
		case tbShape_capsule:
			solid.proxy = tbMakeCapsuleProxy( geometry );
			break;
		case tbShape_cylinder:
			solid.proxy = tbMakeCylinderProxy( geometry );
			break;
		default:
			solid.proxy = tbMakeHullProxy( geometry );
			break;
	}
	return solid;
}

tbSolid tbMakeTriangleSolid( const tbVec3 vertices[3], tbVec3 normal )
{
	tbSolid solid;
	memset( &solid, 0, sizeof( solid ) );
	solid.type = tbShape_mesh;
	solid.xf = tb_transformIdentity;
	for ( int i = 0; i < 3; ++i )
	{
		solid.triangle[i] = vertices[i];
	}
	solid.normal = normal;
	solid.proxy.count = 3;
	return solid;
}

// The proxy with its points in place (a triangle's live in the solid, which may have been copied).
static tbShapeProxy tbSolidProxy( const tbSolid* s )
{
	tbShapeProxy proxy = s->proxy;
	if ( s->type == tbShape_mesh )
	{
		proxy.points = s->triangle;
	}
	return proxy;
}

// The point of the solid's surface furthest along d (working frame).
static tbVec3 tbSolidSupport( const tbSolid* s, tbVec3 d )
{
	tbShapeProxy proxy = tbSolidProxy( s );
	tbVec3 local = tbInvRotate( s->xf.q, d );
	tbVec3 p = tbProxySupportPoint( &proxy, local );
	if ( proxy.radius > 0.0f )
	{
		p = tbMulAdd( p, proxy.radius, tbNormalize( local ) );
	}
	return tbTransformPoint( s->xf, p );
}

// A cylinder in the working frame: cap centres, unit axis u and two unit tangents with
// (t1, t2, u) right-handed, fixed to the body so that rim vertex ids follow the body.
typedef struct tbPlacedCylinder
{
	tbVec3 c1, c2, u, t1, t2;
	float r;
} tbPlacedCylinder;

static tbPlacedCylinder tbPlaceCylinder( const tbSolid* s )
{
	const tbCylinder* cylinder = s->geometry;
	tbPlacedCylinder c;
	tbVec3 axis = s->proxy.diskAxis;
	tbVec3 t1 = tbPerpendicular( axis );
	c.c1 = tbTransformPoint( s->xf, cylinder->center1 );
	c.c2 = tbTransformPoint( s->xf, cylinder->center2 );
	c.u = tbRotate( s->xf.q, axis );
	c.t1 = tbRotate( s->xf.q, t1 );
	c.t2 = tbCross( c.u, c.t1 );
	c.r = cylinder->radius;
	return c;
}

// A face: its vertices counter-clockwise about its outward unit normal.
typedef struct tbFace
{
	tbClipVertex v[TB_MESH_CLIP_CAPACITY];
	int count;
	tbVec3 normal;
	bool isCap;
} tbFace;

static void tbCapFace( const tbPlacedCylinder* c, bool top, tbFace* face )
{
	tbVec3 center = top ? c->c2 : c->c1;
	face->normal = top ? c->u : tbNeg( c->u );
	face->isCap = true;
	face->count = TB_CAP_VERTICES;
	// Increasing angles turn counter-clockwise about u; the bottom cap's normal is -u.
	float step = ( top ? 2.0f : -2.0f ) * TB_PI / (float)TB_CAP_VERTICES;
	for ( int k = 0; k < TB_CAP_VERTICES; ++k )
	{
		float angle = step * (float)k;
		tbVec3 radial = tbAdd( tbMulSV( cosf( angle ), c->t1 ), tbMulSV( sinf( angle ), c->t2 ) );
		face->v[k].p = tbMulAdd( center, c->r, radial );
		face->v[k].id = tbMeshHash( tbCylinderKey_cap + ( top ? 1u : 0u ), (uint32_t)k );
	}
}

// The face whose outward normal is closest to d: a hull face, the triangle's side towards d, or a
// cap. False for spheres and capsules.
static bool tbSolidFace( const tbSolid* s, tbVec3 d, tbFace* face )
{
	face->isCap = false;
	switch ( s->type )
	{
		case tbShape_cylinder:
		{
			tbPlacedCylinder c = tbPlaceCylinder( s );
			tbCapFace( &c, tbDot( c.u, d ) >= 0.0f, face );
			return true;
		}
		case tbShape_hull:
		{
			const tbHull* hull = s->geometry;
			int best = tbFindHullFace( hull, tbInvRotate( s->xf.q, d ) );
			face->normal = tbRotate( s->xf.q, hull->planes[best].normal );
			face->count = 0;
			int first = hull->faces[best].edge;
			int e = first;
			do
			{
				int vertex = hull->edges[e].origin;
				face->v[face->count].p = tbTransformPoint( s->xf, hull->vertices[vertex] );
				face->v[face->count].id = tbMeshHash( tbCylinderKey_face, (uint32_t)vertex );
				face->count += 1;
				e = hull->edges[e].next;
			} while ( e != first && face->count < TB_MESH_CLIP_CAPACITY );
			return true;
		}
		case tbShape_mesh:
		{
			// Two-sided: the front is counter-clockwise about the normal, the back reversed.
			bool front = tbDot( s->normal, d ) >= 0.0f;
			face->normal = front ? s->normal : tbNeg( s->normal );
			face->count = 3;
			for ( int i = 0; i < 3; ++i )
			{
				int k = front ? i : ( 3 - i ) % 3;
				face->v[i].p = s->triangle[k];
				face->v[i].id = tbMeshHash( tbCylinderKey_triangle, (uint32_t)k );
			}
			return true;
		}
		default:
			return false;
	}
}

// The part of the surface that faces d, for clipping against a reference face: a face (polygon), a
// side line (2 points) or a single support point. Returns the vertex count written to out.
static int tbSolidFeature( const tbSolid* s, tbVec3 d, tbClipVertex* out )
{
	tbVec3 unit = tbNormalize( d );
	if ( s->type == tbShape_hull || s->type == tbShape_mesh )
	{
		tbFace face;
		tbSolidFace( s, d, &face );
		memcpy( out, face.v, (size_t)face.count * sizeof( tbClipVertex ) );
		return face.count;
	}
	if ( s->type == tbShape_capsule )
	{
		const tbCapsule* capsule = s->geometry;
		tbVec3 p1 = tbTransformPoint( s->xf, capsule->center1 );
		tbVec3 p2 = tbTransformPoint( s->xf, capsule->center2 );
		float length;
		tbVec3 axis = tbGetLengthAndNormalize( &length, tbSub( p2, p1 ) );
		if ( length > 0.0f && tbAbsFloat( tbDot( axis, unit ) ) < TB_SIDE_COSINE )
		{
			out[0].p = tbMulAdd( p1, capsule->radius, unit );
			out[1].p = tbMulAdd( p2, capsule->radius, unit );
			out[0].id = tbMeshHash( tbCylinderKey_capsule, 0 );
			out[1].id = tbMeshHash( tbCylinderKey_capsule, 1 );
			return 2;
		}
	}
	if ( s->type == tbShape_cylinder )
	{
		tbPlacedCylinder c = tbPlaceCylinder( s );
		float cosine = tbDot( c.u, unit );
		if ( tbAbsFloat( cosine ) >= TB_CAP_COSINE )
		{
			tbFace face;
			tbCapFace( &c, cosine > 0.0f, &face );
			memcpy( out, face.v, (size_t)face.count * sizeof( tbClipVertex ) );
			return face.count;
		}
		if ( tbAbsFloat( cosine ) <= TB_SIDE_COSINE )
		{
			tbVec3 radial = tbNormalize( tbMulSub( unit, cosine, c.u ) );
			out[0].p = tbMulAdd( c.c1, c.r, radial );
			out[1].p = tbMulAdd( c.c2, c.r, radial );
			out[0].id = tbMeshHash( tbCylinderKey_side, 0 );
			out[1].id = tbMeshHash( tbCylinderKey_side, 1 );
			return 2;
		}
	}
	out[0].p = tbSolidSupport( s, unit );
	out[0].id = tbMeshHash( tbCylinderKey_point, 0 );
	return 1;
}

// The incident feature clipped to the prism over the reference face (its side planes), with each
// point's separation along the face normal. Points are placed midway between the surfaces.
static int tbClipToFace( const tbFace* ref, const tbClipVertex* incident, int incidentCount, float speculativeDistance,
						 tbLocalPoint* out )
{
	tbVec3 m = ref->normal;
	tbClipVertex bufferA[TB_MESH_CLIP_CAPACITY], bufferB[TB_MESH_CLIP_CAPACITY];
	tbClipVertex* in = bufferA;
	tbClipVertex* next = bufferB;
	int count = incidentCount;
	memcpy( in, incident, (size_t)count * sizeof( tbClipVertex ) );
	float lower = 0.0f, upper = 1.0f;
	tbVec3 p0 = incident[0].p;
	tbVec3 segment = incidentCount == 2 ? tbSub( incident[1].p, p0 ) : tb_vec3_zero;
	for ( int i = 0; i < ref->count && count > 0; ++i )
	{
		tbVec3 a = ref->v[i].p;
		tbVec3 b = ref->v[( i + 1 ) % ref->count].p;
		// Counter-clockwise about m: the interior is left of each edge, so edge x m points out.
		tbVec3 outward = tbNormalize( tbCross( tbSub( b, a ), m ) );
		float offset = tbDot( outward, a ) + TB_SIDE_TOLERANCE;
		if ( incidentCount >= 3 )
		{
			count = tbClipPolygon( in, count, outward, offset, tbCylinderKey_sidePlane + (uint32_t)i, next );
			tbClipVertex* t = in;
			in = next;
			next = t;
			continue;
		}
		// A segment (or a point: segment zero) as p0 + t segment, t in [lower, upper].
		float d0 = tbDot( outward, p0 ) - offset;
		float dd = tbDot( outward, segment );
		if ( tbAbsFloat( dd ) < 1.0e-12f )
		{
			count = d0 > 0.0f ? 0 : count;
		}
		else if ( dd > 0.0f )
		{
			upper = tbMinFloat( upper, -d0 / dd );
		}
		else
		{
			lower = tbMaxFloat( lower, -d0 / dd );
		}
		if ( lower > upper )
		{
			count = 0;
		}
	}
	if ( incidentCount == 2 && count > 0 )
	{
		// A segment standing on the face clips to one point twice: keep it once.
		in[0].p = tbMulAdd( p0, lower, segment );
		in[1].p = tbMulAdd( p0, upper, segment );
		count = ( upper - lower ) * tbLength( segment ) > 1.0e-6f ? 2 : 1;
	}

	float planeOffset = tbDot( m, ref->v[0].p );
	int n = 0;
	for ( int i = 0; i < count; ++i )
	{
		float separation = tbDot( m, in[i].p ) - planeOffset;
		if ( separation < speculativeDistance )
		{
			out[n].p = tbMulSub( in[i].p, 0.5f * separation, m );
			out[n].separation = separation;
			out[n].id = in[i].id;
			n += 1;
		}
	}
	return tbReduceLocalPoints( out, n, m );
}

// Two side lines (segments) nearly parallel and across the normal n: the two ends of their overlap
// along A's line. Returns 0 when they are not such lines or overlap by less than the slop.
static int tbParallelLines( const tbClipVertex* lineA, const tbClipVertex* lineB, tbVec3 n, float speculativeDistance,
							tbLocalPoint* out )
{
	float lengthA, lengthB;
	tbVec3 uA = tbGetLengthAndNormalize( &lengthA, tbSub( lineA[1].p, lineA[0].p ) );
	tbVec3 uB = tbGetLengthAndNormalize( &lengthB, tbSub( lineB[1].p, lineB[0].p ) );
	if ( lengthA <= TB_LINEAR_SLOP || lengthB <= TB_LINEAR_SLOP || tbLength( tbCross( uA, uB ) ) >= TB_PARALLEL_SINE )
	{
		return 0;
	}
	float b0 = tbDot( tbSub( lineB[0].p, lineA[0].p ), uA );
	float b1 = tbDot( tbSub( lineB[1].p, lineA[0].p ), uA );
	float lower = tbMaxFloat( 0.0f, tbMinFloat( b0, b1 ) );
	float upper = tbMinFloat( lengthA, tbMaxFloat( b0, b1 ) );
	if ( upper - lower <= TB_LINEAR_SLOP )
	{
		return 0;
	}
	float ends[2] = { lower, upper };
	int count = 0;
	for ( int k = 0; k < 2; ++k )
	{
		tbVec3 pA = tbMulAdd( lineA[0].p, ends[k], uA );
		// B's point at the same place along A's line (b0 != b1: the overlap has length).
		tbVec3 pB = tbLerp( lineB[0].p, lineB[1].p, ( ends[k] - b0 ) / ( b1 - b0 ) );
		float separation = tbDot( n, tbSub( pB, pA ) );
		if ( separation < speculativeDistance )
		{
			out[count].p = tbMulAdd( pA, 0.5f * separation, n );
			out[count].separation = separation;
			out[count].id = tbMeshHash( tbCylinderKey_parallel, (uint32_t)k );
			count += 1;
		}
	}
	return count;
}

int tbCollideSolids( const tbSolid* a, const tbSolid* b, float speculativeDistance, bool faceOfA, tbVec3* normal,
					 tbLocalPoint* out )
{
	tbDistanceInput input = { tbSolidProxy( a ), tbSolidProxy( b ), a->xf, b->xf, true };
	tbPenetrationOutput pen = tbShapePenetration( &input );
	float separation = -pen.depth;
	if ( pen.valid == false || separation >= speculativeDistance )
	{
		return 0;
	}
	tbVec3 n = pen.normal;

	// The reference face: a face whose own normal separates the pair within the hysteresis of the
	// best axis n (the separation along any axis is at most the one along n). Hull and triangle
	// faces come before caps, so a cylinder on a box keeps the box's face (and the cylinder's rim
	// ids) while it tilts by tiny angles; between two faces of one kind A's is kept unless B's is
	// clearly better, as for hull pairs.
	tbFace faceA, faceB;
	bool hasA = tbSolidFace( a, n, &faceA );
	bool hasB = faceOfA == false && tbSolidFace( b, tbNeg( n ), &faceB );
	float tolerance = 0.1f * TB_LINEAR_SLOP + 0.05f * tbAbsFloat( separation );
	float sA = hasA ? tbDot( faceA.normal, tbSub( tbSolidSupport( b, tbNeg( faceA.normal ) ), faceA.v[0].p ) ) : -FLT_MAX;
	float sB = hasB ? tbDot( faceB.normal, tbSub( tbSolidSupport( a, tbNeg( faceB.normal ) ), faceB.v[0].p ) ) : -FLT_MAX;
	bool okA = hasA && ( faceOfA || sA >= separation - tolerance );
	bool okB = hasB && sB >= separation - tolerance;
	bool useA = okA;
	if ( okA && okB )
	{
		useA = faceA.isCap != faceB.isCap ? faceB.isCap : sB <= sA + tolerance;
	}
	else if ( okB )
	{
		useA = false;
	}

	tbClipVertex feature[TB_MESH_CLIP_CAPACITY];
	if ( okA || okB )
	{
		const tbFace* ref = useA ? &faceA : &faceB;
		int featureCount = tbSolidFeature( useA ? b : a, tbNeg( ref->normal ), feature );
		int count = tbClipToFace( ref, feature, featureCount, speculativeDistance, out );
		if ( count > 0 || faceOfA )
		{
			*normal = useA ? ref->normal : tbNeg( ref->normal );
			return count;
		}
	}

	*normal = n;
	tbClipVertex lineB[TB_MESH_CLIP_CAPACITY];
	if ( tbSolidFeature( a, n, feature ) == 2 && tbSolidFeature( b, tbNeg( n ), lineB ) == 2 )
	{
		int count = tbParallelLines( feature, lineB, n, speculativeDistance, out );
		if ( count > 0 )
		{
			return count;
		}
	}
	out[0].p = tbLerp( pen.pointA, pen.pointB, 0.5f );
	out[0].separation = separation;
	out[0].id = tbMeshHash( tbCylinderKey_closest, 0 );
	return 1;
}

// A cylinder (A) against any convex shape (B), in A's body frame.
static tbManifold tbCollideCylinderWith( const tbCylinder* cylinderA, tbTransform xfA, tbShapeType typeB,
										 const void* geometryB, tbTransform xfB, float speculativeDistance )
{
	tbSolid a = tbMakeSolid( tbShape_cylinder, cylinderA, tb_transformIdentity );
	tbSolid b = tbMakeSolid( typeB, geometryB, tbInvMulTransforms( xfA, xfB ) );
	tbLocalPoint points[TB_MESH_CLIP_CAPACITY];
	tbVec3 normal = tb_vec3_zero;
	int count = tbCollideSolids( &a, &b, speculativeDistance, false, &normal, points );
	return tbFinishManifold( normal, points, count, xfA, xfB, speculativeDistance );
}

tbManifold tbCollideCylinderAndSphere( const tbCylinder* cylinderA, tbTransform xfA, const tbSphere* sphereB,
									   tbTransform xfB, float speculativeDistance )
{
	return tbCollideCylinderWith( cylinderA, xfA, tbShape_sphere, sphereB, xfB, speculativeDistance );
}

tbManifold tbCollideCylinderAndCapsule( const tbCylinder* cylinderA, tbTransform xfA, const tbCapsule* capsuleB,
										tbTransform xfB, float speculativeDistance )
{
	return tbCollideCylinderWith( cylinderA, xfA, tbShape_capsule, capsuleB, xfB, speculativeDistance );
}

tbManifold tbCollideCylinderAndHull( const tbCylinder* cylinderA, tbTransform xfA, const tbHull* hullB, tbTransform xfB,
									 float speculativeDistance )
{
	return tbCollideCylinderWith( cylinderA, xfA, tbShape_hull, hullB, xfB, speculativeDistance );
}

tbManifold tbCollideCylinders( const tbCylinder* cylinderA, tbTransform xfA, const tbCylinder* cylinderB, tbTransform xfB,
							   float speculativeDistance )
{
	return tbCollideCylinderWith( cylinderA, xfA, tbShape_cylinder, cylinderB, xfB, speculativeDistance );
}
