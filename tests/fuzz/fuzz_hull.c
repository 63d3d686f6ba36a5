// Fuzz target: tbComputeHull on arbitrary point clouds.
// SPDX-License-Identifier: MIT
//
// Input layout (tests/fuzz/README.md): one byte scale exponent, an offset (three odd floats), then
// point operations until the input ends or TB_MAX_HULL_POINTS + 8 points exist. Operations build
// the clouds that break hull builders: exact and near duplicates, coplanar and collinear points,
// lattices, dense spheres, NaN and infinities, coordinates near the float limits.
//
// Properties checked:
//   - bad input (NaN/inf, fewer than 4 points, too many) gives NULL and the documented result;
//   - a cloud with a clearly non-flat tetrahedron gives a hull;
//   - a hull passes tbValidateHull, has Euler characteristic 2, contains every input point (plane
//     distance within a tolerance scaled to the cloud), and its vertices lie in the input's box;
//   - its mass properties (density 1) are finite, the mass and inertia positive, the centre of
//     mass inside;
//   - a clone is valid, the AABB holds every vertex, a ray through the centroid hits the surface.
#include "fuzz_common.h"

#define TB_FUZZ_MAX_POINTS ( TB_MAX_HULL_POINTS + 8 )

typedef struct tbCloud
{
	tbVec3 points[TB_FUZZ_MAX_POINTS];
	int count;
} tbCloud;

static void tbAddPoint( tbCloud* cloud, tbVec3 p )
{
	if ( cloud->count < TB_FUZZ_MAX_POINTS )
	{
		cloud->points[cloud->count] = p;
		cloud->count += 1;
	}
}

static tbVec3 tbPickPoint( tbFuzzInput* in, const tbCloud* cloud )
{
	if ( cloud->count == 0 )
	{
		return tb_vec3_zero;
	}
	return cloud->points[tbFuzz_U16( in ) % (unsigned)cloud->count];
}

static void tbReadCloud( tbFuzzInput* in, tbCloud* cloud )
{
	// 2^-64 .. 2^63.5 with 2^0 at byte 128: from atom-sized clouds to far past TB_MAX_POSITION.
	float scale = ldexpf( 1.0f, (int)tbFuzz_Byte( in ) / 2 - 64 );
	tbVec3 offset = tbFuzz_OddVec3( in );
	int first = 0;
	while ( tbFuzz_Done( in ) == false && cloud->count < TB_FUZZ_MAX_POINTS )
	{
		uint8_t op = tbFuzz_Byte( in );
		first = cloud->count;
		switch ( op % 10 )
		{
			case 0:
			case 1: // any point
				tbAddPoint( cloud, tbFuzz_OddVec3( in ) );
				break;
			case 2: { // integer lattice point in [-8, 7]^3: exact coplanarity and duplicates
				uint8_t a = tbFuzz_Byte( in ), b = tbFuzz_Byte( in );
				tbAddPoint(
					cloud, tbMakeVec3( (float)( a & 15 ) - 8.0f, (float)( a >> 4 ) - 8.0f, (float)( b & 15 ) - 8.0f ) );
				break;
			}
			case 3: // exact duplicate of an earlier point
				tbAddPoint( cloud, tbPickPoint( in, cloud ) );
				break;
			case 4: { // near duplicate: 2^-8 .. 2^-39 away
				tbVec3 p = tbPickPoint( in, cloud );
				float e = ldexpf( 1.0f, -8 - tbFuzz_Byte( in ) % 32 );
				tbVec3 d = tbFuzz_Vec3In( in, -1.0f, 1.0f );
				tbAddPoint( cloud, tbMulAdd( p, e, d ) );
				break;
			}
			case 5: { // on the plane of three earlier points (affine weights, possibly outside)
				tbVec3 a = tbPickPoint( in, cloud );
				tbVec3 b = tbPickPoint( in, cloud );
				tbVec3 c = tbPickPoint( in, cloud );
				float u = tbFuzz_FloatIn( in, -2.0f, 3.0f );
				float v = tbFuzz_FloatIn( in, -2.0f, 3.0f );
				tbAddPoint( cloud, tbAdd( a, tbAdd( tbMulSV( u, tbSub( b, a ) ), tbMulSV( v, tbSub( c, a ) ) ) ) );
				break;
			}
			case 6: { // on the line through two earlier points
				tbVec3 a = tbPickPoint( in, cloud );
				tbVec3 b = tbPickPoint( in, cloud );
				float t = tbFuzz_FloatIn( in, -2.0f, 3.0f );
				tbAddPoint( cloud, tbLerp( a, b, t ) );
				break;
			}
			case 7: { // a dense cloud on (or in) a sphere: many faces, many nearly coplanar ones
				int n = 1 + tbFuzz_Byte( in ) + ( tbFuzz_Byte( in ) & 3 ) * 256;
				uint32_t seed = tbFuzz_U32( in );
				tbVec3 center = tbFuzz_Vec3In( in, -4.0f, 4.0f );
				float radius = tbFuzz_Magnitude( in, -20, 20 );
				bool surface = tbFuzz_Bool( in );
				for ( int i = 0; i < n && cloud->count < TB_FUZZ_MAX_POINTS; ++i )
				{
					tbVec3 d = { tbFuzz_RandomSigned( &seed ), tbFuzz_RandomSigned( &seed ),
								 tbFuzz_RandomSigned( &seed ) };
					if ( surface )
					{
						d = tbNormalize( d );
					}
					tbAddPoint( cloud, tbMulAdd( center, radius, d ) );
				}
				break;
			}
			case 8: { // a block of lattice points with spacing s
				int nx = 1 + tbFuzz_Byte( in ) % 8, ny = 1 + tbFuzz_Byte( in ) % 8, nz = 1 + tbFuzz_Byte( in ) % 8;
				float s = tbFuzz_Magnitude( in, -30, 30 );
				tbVec3 base = tbPickPoint( in, cloud );
				for ( int i = 0; i < nx; ++i )
				{
					for ( int j = 0; j < ny; ++j )
					{
						for ( int k = 0; k < nz; ++k )
						{
							tbAddPoint( cloud, tbAdd( base, tbMakeVec3( s * (float)i, s * (float)j, s * (float)k ) ) );
						}
					}
				}
				break;
			}
			default: { // the corners of a box, then jitter one of them
				tbVec3 h = tbFuzz_Vec3In( in, 0.0f, 4.0f );
				for ( int i = 0; i < 8; ++i )
				{
					tbAddPoint( cloud,
								tbMakeVec3( ( i & 1 ) ? h.x : -h.x, ( i & 2 ) ? h.y : -h.y, ( i & 4 ) ? h.z : -h.z ) );
				}
				if ( cloud->count > first )
				{
					int k = first + tbFuzz_Byte( in ) % ( cloud->count - first );
					cloud->points[k] = tbAdd( cloud->points[k], tbMulSV( 1.0e-3f, tbFuzz_OddVec3( in ) ) );
				}
				break;
			}
		}
	}
	for ( int i = 0; i < cloud->count; ++i )
	{
		cloud->points[i] = tbMulAdd( offset, scale, cloud->points[i] );
	}
}

// Doubles for the reference geometry, so the oracle is more precise than the code under test.
typedef struct tbD3
{
	double x, y, z;
} tbD3;

static tbD3 tbD( tbVec3 v )
{
	tbD3 d = { v.x, v.y, v.z };
	return d;
}

static tbD3 tbDSub3( tbD3 a, tbD3 b )
{
	tbD3 d = { a.x - b.x, a.y - b.y, a.z - b.z };
	return d;
}

static tbD3 tbDCross3( tbD3 a, tbD3 b )
{
	tbD3 d = { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
	return d;
}

static double tbDDot3( tbD3 a, tbD3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

static double tbDLen3( tbD3 a )
{
	return sqrt( tbDDot3( a, a ) );
}

// True when the cloud holds a tetrahedron whose every height is at least `fraction` of the cloud
// size: greedy (farthest point from p0, from the line, from the plane), so it only ever
// under-reports. A hull builder must succeed on such a cloud.
static bool tbHasSolidTetrahedron( const tbCloud* cloud, double size, double fraction )
{
	int n = cloud->count;
	tbD3 p0 = tbD( cloud->points[0] );
	int i1 = 0;
	double best = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		double d = tbDLen3( tbDSub3( tbD( cloud->points[i] ), p0 ) );
		if ( d > best )
		{
			best = d;
			i1 = i;
		}
	}
	if ( best < fraction * size )
	{
		return false;
	}
	tbD3 p1 = tbD( cloud->points[i1] );
	tbD3 axis = tbDSub3( p1, p0 );
	int i2 = 0;
	best = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		double d = tbDLen3( tbDCross3( axis, tbDSub3( tbD( cloud->points[i] ), p0 ) ) ) / tbDLen3( axis );
		if ( d > best )
		{
			best = d;
			i2 = i;
		}
	}
	if ( best < fraction * size )
	{
		return false;
	}
	tbD3 normal = tbDCross3( axis, tbDSub3( tbD( cloud->points[i2] ), p0 ) );
	double normalLength = tbDLen3( normal );
	best = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		double d = fabs( tbDDot3( normal, tbDSub3( tbD( cloud->points[i] ), p0 ) ) ) / normalLength;
		best = d > best ? d : best;
	}
	return best >= fraction * size;
}

static void tbCheckHull( const tbCloud* cloud, const tbHull* hull, float size, float magnitude, float lo[3],
						 float hi[3] )
{
	TB_FUZZ_CHECK( tbValidateHull( hull ), "tbValidateHull failed: %d vertices, %d half-edges, %d faces",
				   hull->vertexCount, hull->edgeCount, hull->faceCount );
	TB_FUZZ_CHECK( hull->vertexCount >= 4 && hull->faceCount >= 4 && hull->edgeCount >= 12,
				   "too small: %d vertices, %d half-edges, %d faces", hull->vertexCount, hull->edgeCount,
				   hull->faceCount );
	TB_FUZZ_CHECK( hull->vertexCount <= cloud->count, "%d vertices from %d points", hull->vertexCount, cloud->count );
	TB_FUZZ_CHECK( hull->edgeCount % 2 == 0, "odd half-edge count %d", hull->edgeCount );
	TB_FUZZ_CHECK( hull->vertexCount - hull->edgeCount / 2 + hull->faceCount == 2,
				   "Euler characteristic V - E + F = %d - %d + %d != 2", hull->vertexCount, hull->edgeCount / 2,
				   hull->faceCount );

	// Welding moves nothing (the first point of a cell is kept) but plane offsets carry the
	// rounding of coordinates of this magnitude, and merged faces are flat within ~2e-5 of the size.
	float tolerance = 1.0e-4f * size + 64.0f * FLT_EPSILON * magnitude;
	for ( int v = 0; v < hull->vertexCount; ++v )
	{
		tbVec3 p = hull->vertices[v];
		TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( p ), "vertex %d is not finite", v );
		float c[3] = { p.x, p.y, p.z };
		for ( int k = 0; k < 3; ++k )
		{
			TB_FUZZ_CHECK( c[k] >= lo[k] - tolerance && c[k] <= hi[k] + tolerance,
						   "vertex %d coordinate %d = %g outside the input's range [%g, %g]", v, k, (double)c[k],
						   (double)lo[k], (double)hi[k] );
		}
		TB_FUZZ_CHECK( p.x >= hull->bounds.lowerBound.x - tolerance && p.x <= hull->bounds.upperBound.x + tolerance &&
						   p.y >= hull->bounds.lowerBound.y - tolerance &&
						   p.y <= hull->bounds.upperBound.y + tolerance &&
						   p.z >= hull->bounds.lowerBound.z - tolerance && p.z <= hull->bounds.upperBound.z + tolerance,
					   "vertex %d outside hull->bounds", v );
	}
	for ( int f = 0; f < hull->faceCount; ++f )
	{
		tbPlane plane = hull->planes[f];
		TB_FUZZ_CHECK( tbFuzz_IsUnit( plane.normal, 1.0e-3f ) && isfinite( plane.offset ),
					   "plane %d is not unit/finite", f );
		for ( int i = 0; i < cloud->count; ++i )
		{
			float distance = tbDot( plane.normal, cloud->points[i] ) - plane.offset;
			TB_FUZZ_CHECK( distance <= tolerance,
						   "input point %d (%g, %g, %g) is %g outside face %d (tolerance %g, %d points, %d faces)", i,
						   (double)cloud->points[i].x, (double)cloud->points[i].y, (double)cloud->points[i].z,
						   (double)distance, f, (double)tolerance, cloud->count, hull->faceCount );
		}
		float centroidDistance = tbDot( plane.normal, hull->centroid ) - plane.offset;
		TB_FUZZ_CHECK( centroidDistance <= tolerance, "the centroid is %g outside face %d", (double)centroidDistance,
					   f );
	}
	TB_FUZZ_CHECK( isfinite( hull->innerRadius ) && hull->innerRadius >= 0.0f, "innerRadius %g",
				   (double)hull->innerRadius );

	// Density 1: the mass is the volume (m^3) and the inertia ~ size^5, so both must fit a float
	// for every cloud the builder accepts.
	tbMassData mass = tbComputeHullMass( hull, 1.0f );
	tbMat3 I = mass.rotationalInertia;
	bool massFits = isfinite( mass.mass ) && mass.mass > 0.0f && tbFuzz_IsFiniteVec3( I.cx ) &&
					tbFuzz_IsFiniteVec3( I.cy ) && tbFuzz_IsFiniteVec3( I.cz ) && I.cx.x > 0.0f && I.cy.y > 0.0f &&
					I.cz.z > 0.0f;
	TB_FUZZ_EXPECT( "hull-mass-range", massFits,
					"mass %g, inertia diagonal %g %g %g (density 1) for a hull of size %g at magnitude %g: not "
					"finite and positive",
					(double)mass.mass, (double)I.cx.x, (double)I.cy.y, (double)I.cz.z, (double)size,
					(double)magnitude );
	if ( massFits )
	{
		TB_FUZZ_CHECK( tbFuzz_IsFiniteVec3( mass.center ), "centre of mass not finite" );
		for ( int f = 0; f < hull->faceCount; ++f )
		{
			float distance = tbDot( hull->planes[f].normal, mass.center ) - hull->planes[f].offset;
			TB_FUZZ_CHECK( distance <= tolerance, "the centre of mass is %g outside face %d", (double)distance, f );
		}
	}

	tbHull* clone = tbCloneHull( hull );
	TB_FUZZ_CHECK( clone != NULL && tbValidateHull( clone ), "clone invalid" );
	TB_FUZZ_CHECK( clone->vertexCount == hull->vertexCount && clone->faceCount == hull->faceCount,
				   "clone differs from the original" );
	tbDestroyHull( clone );

	tbAABB box = tbComputeHullAABB( hull, tb_transformIdentity );
	for ( int v = 0; v < hull->vertexCount; ++v )
	{
		tbVec3 p = hull->vertices[v];
		TB_FUZZ_CHECK( p.x >= box.lowerBound.x && p.y >= box.lowerBound.y && p.z >= box.lowerBound.z &&
						   p.x <= box.upperBound.x && p.y <= box.upperBound.y && p.z <= box.upperBound.z,
					   "vertex %d outside tbComputeHullAABB", v );
	}
}

// A ray from outside aimed through the centroid must hit the surface between its start and the
// centroid, on the surface, with a unit normal facing the ray.
static void tbCheckRay( const tbHull* hull, tbVec3 direction, float size, float magnitude )
{
	direction = tbNormalize( direction );
	if ( tbLengthSquared( direction ) < 0.5f )
	{
		return;
	}
	tbRayCastInput ray;
	ray.origin = tbMulAdd( hull->centroid, 2.0f * size, direction );
	ray.translation = tbMulSV( -4.0f * size, direction );
	ray.maxFraction = 1.0f;
	tbCastOutput out = tbRayCastHull( &ray, hull );
	float tolerance = 1.0e-4f * size + 64.0f * FLT_EPSILON * magnitude;
	TB_FUZZ_EXPECT( "hull-ray", out.hit, "a ray through the centroid missed the hull (size %g at magnitude %g)",
					(double)size, (double)magnitude );
	if ( out.hit == false )
	{
		return;
	}
	TB_FUZZ_CHECK( isfinite( out.fraction ) && out.fraction >= 0.0f &&
					   out.fraction <= 0.5f + tolerance / ( 4.0f * size ),
				   "ray fraction %g: the hit is not between the ray start and the centroid", (double)out.fraction );
	TB_FUZZ_CHECK( tbFuzz_IsUnit( out.normal, 1.0e-3f ), "ray hit normal (%g, %g, %g) is not unit",
				   (double)out.normal.x, (double)out.normal.y, (double)out.normal.z );
	TB_FUZZ_CHECK( tbDot( out.normal, ray.translation ) <= 0.0f, "ray hit normal faces away from the ray" );
	float outside = -FLT_MAX;
	for ( int f = 0; f < hull->faceCount; ++f )
	{
		outside = tbMaxFloat( outside, tbDot( hull->planes[f].normal, out.point ) - hull->planes[f].offset );
	}
	// The hit point is on the surface: on one plane, inside the others. The fraction is measured
	// along a ray 4 sizes long, so allow its rounding too.
	float pointTolerance = 2.0f * tolerance + 8.0f * FLT_EPSILON * ( 4.0f * size + magnitude );
	TB_FUZZ_CHECK( fabsf( outside ) <= pointTolerance, "ray hit point is %g from the surface (tolerance %g)",
				   (double)outside, (double)pointTolerance );
}

static void tbDescribeCloud( FILE* out, const void* context )
{
	const tbCloud* cloud = context;
	fprintf( out, "cloud of %d points%s:\n", cloud->count, cloud->count > 64 ? " (first 64)" : "" );
	for ( int i = 0; i < cloud->count && i < 64; ++i )
	{
		fprintf( out, "  %d: (%.9g, %.9g, %.9g)\n", i, (double)cloud->points[i].x, (double)cloud->points[i].y,
				 (double)cloud->points[i].z );
	}
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	tbFuzz_InstallHandlers();
	static tbCloud cloud;
	cloud.count = 0;
	tbFuzzInput in = tbFuzz_MakeInput( data, size );
	tbReadCloud( &in, &cloud );
	bool useNullResult = cloud.count % 7 == 3;
	tbFuzz_SetDescription( tbDescribeCloud, &cloud );
	tbFuzz_DescribeIfAsked();

	bool finite = true;
	bool inRange = true;
	float lo[3] = { FLT_MAX, FLT_MAX, FLT_MAX };
	float hi[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
	float magnitude = 0.0f;
	for ( int i = 0; i < cloud.count; ++i )
	{
		tbVec3 p = cloud.points[i];
		if ( tbFuzz_IsFiniteVec3( p ) == false )
		{
			finite = false;
			continue;
		}
		float c[3] = { p.x, p.y, p.z };
		for ( int k = 0; k < 3; ++k )
		{
			lo[k] = tbMinFloat( lo[k], c[k] );
			hi[k] = tbMaxFloat( hi[k], c[k] );
			magnitude = tbMaxFloat( magnitude, fabsf( c[k] ) );
		}
	}
	// The input limits (collision.h): coordinates beyond TB_MAX_POSITION are refused like NaN, clouds
	// smaller than TB_MIN_SHAPE_SIZE across are degenerate.
	inRange = magnitude <= TB_MAX_POSITION;
	double sizeD = 0.0;
	for ( int k = 0; k < 3 && cloud.count > 0; ++k )
	{
		sizeD = fmax( sizeD, (double)hi[k] - (double)lo[k] );
	}
	float extent = (float)sizeD;

	tbResult result = tbResult_count;
	tbHull* hull = tbComputeHull( cloud.points, cloud.count, useNullResult ? NULL : &result );

	if ( hull == NULL )
	{
		if ( useNullResult )
		{
			return 0;
		}
		TB_FUZZ_CHECK( result != tbResult_ok && result < tbResult_count, "NULL hull with result %d", (int)result );
		if ( cloud.count < 4 )
		{
			TB_FUZZ_CHECK( result == tbResult_invalidArgument, "%d points: result %s, expected invalid argument",
						   cloud.count, tbResultString( result ) );
		}
		else if ( cloud.count > TB_MAX_HULL_POINTS )
		{
			TB_FUZZ_CHECK( result == tbResult_tooManyPoints, "%d points: result %s, expected too many points",
						   cloud.count, tbResultString( result ) );
		}
		else if ( finite == false || inRange == false )
		{
			TB_FUZZ_CHECK( result == tbResult_invalidArgument,
						   "NaN/inf or coordinates beyond %g: result %s, expected invalid argument",
						   (double)TB_MAX_POSITION, tbResultString( result ) );
		}
		else if ( result != tbResult_outOfMemory && sizeD >= 2.0 * TB_MIN_SHAPE_SIZE &&
				  sizeD > 1024.0 * FLT_EPSILON * (double)magnitude && tbHasSolidTetrahedron( &cloud, sizeD, 1.0e-2 ) )
		{
			TB_FUZZ_CHECK( false, "%d points spanning %g (magnitude %g) with a solid tetrahedron: %s", cloud.count,
						   sizeD, (double)magnitude, tbResultString( result ) );
		}
		return 0;
	}

	TB_FUZZ_CHECK( useNullResult || result == tbResult_ok, "hull returned with result %s", tbResultString( result ) );
	TB_FUZZ_CHECK( cloud.count >= 4 && cloud.count <= TB_MAX_HULL_POINTS, "hull from %d points", cloud.count );
	TB_FUZZ_CHECK( finite, "hull built from NaN/inf input" );
	TB_FUZZ_CHECK( inRange, "hull built from coordinates up to %g (limit %g)", (double)magnitude,
				   (double)TB_MAX_POSITION );
	TB_FUZZ_CHECK( extent >= TB_MIN_SHAPE_SIZE, "hull built from a cloud %g across (limit %g)", (double)extent,
				   (double)TB_MIN_SHAPE_SIZE );
	tbCheckHull( &cloud, hull, extent, magnitude, lo, hi );
	// The cloud used up the input: the ray directions come from its length instead.
	uint32_t seed = (uint32_t)size * 2654435761u;
	tbCheckRay( hull, tbMakeVec3( 1.0f, 0.3f, 0.1f ), extent, magnitude );
	tbCheckRay( hull, tbMakeVec3( -0.2f, 1.0f, 0.5f ), extent, magnitude );
	tbCheckRay( hull,
				tbMakeVec3( tbFuzz_RandomSigned( &seed ), tbFuzz_RandomSigned( &seed ), tbFuzz_RandomSigned( &seed ) ),
				extent, magnitude );
	tbDestroyHull( hull );
	return 0;
}
