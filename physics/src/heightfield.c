// Tumble physics: static heightfields (terrain). The grid is its own spatial index: a box or a ray
// maps to cell indices by division, so there is no tree to build, store or walk, and the triangles
// are made from four heights when a query reaches them. One byte per cell holds the holes and the
// active edges (the same rule as a mesh's, so contacts behave the same).
// SPDX-License-Identifier: MIT
#include "heightfield.h"

#include "core.h"

#include <float.h>
#include <math.h>
#include <string.h>

// A cull margin, m, for the cheap height-range test of a cell before its exact triangle tests: far
// above float rounding at TB_MAX_POSITION-sized terrain heights over a ray's length.
#define TB_HEIGHTFIELD_CULL_MARGIN 1.0e-3f

static size_t tbAlignSize( size_t size )
{
	return ( size + 15u ) & ~(size_t)15u;
}

static float tbHeightAt( const tbHeightfield* hf, int i, int j )
{
	return hf->heights[(size_t)j * (size_t)hf->countX + (size_t)i];
}

static tbVec3 tbGridPoint( const tbHeightfield* hf, int i, int j )
{
	tbVec3 p = { (float)i * hf->cellX, (float)j * hf->cellY, tbHeightAt( hf, i, j ) };
	return p;
}

// Corners of triangle k (0 or 1) of cell (i, j), counter-clockwise seen from above.
static void tbCellTriangle( const tbHeightfield* hf, int i, int j, int k, tbVec3 v[3] )
{
	v[0] = tbGridPoint( hf, i, j );
	v[1] = k == 0 ? tbGridPoint( hf, i + 1, j ) : tbGridPoint( hf, i + 1, j + 1 );
	v[2] = k == 0 ? tbGridPoint( hf, i + 1, j + 1 ) : tbGridPoint( hf, i, j + 1 );
}

// Never degenerate: (e1 x e2).z = cellX cellY > 0.
static tbVec3 tbFaceNormal( const tbVec3 v[3] )
{
	return tbNormalize( tbCross( tbSub( v[1], v[0] ), tbSub( v[2], v[0] ) ) );
}

static bool tbIsHole( const tbHeightfield* hf, int i, int j )
{
	return ( hf->cellFlags[(size_t)j * (size_t)( hf->countX - 1 ) + (size_t)i] & TB_HEIGHTFIELD_HOLE ) != 0;
}

void tbGetHeightfieldCorners( const tbHeightfield* hf, int t, tbVec3 v[3] )
{
	int cell = t >> 1;
	int nx = hf->countX - 1;
	tbCellTriangle( hf, cell % nx, cell / nx, t & 1, v );
}

void tbGetHeightfieldTriangle( const tbHeightfield* hf, int t, tbTriangle* tri )
{
	tbGetHeightfieldCorners( hf, t, tri->v );
	tri->n = tbFaceNormal( tri->v );
	tri->active = (uint8_t)( ( hf->cellFlags[t >> 1] >> ( 3 * ( t & 1 ) ) ) & 7u );
}

// Active edges ---------------------------------------------------------------------------------

// Edge e of triangle k in cell (i, j) and the triangle across it. Triangle 0's edges run bottom,
// right, diagonal; triangle 1's diagonal, top, left. Across a grid edge lies the neighbour cell's
// other triangle; across the diagonal, this cell's other triangle. False at the border or a hole.
static bool tbAcrossEdge( const tbHeightfield* hf, int i, int j, int k, int e, int* ni, int* nj, int* ne )
{
	static const int di[2][3] = { { 0, 1, 0 }, { 0, 0, -1 } };
	static const int dj[2][3] = { { -1, 0, 0 }, { 0, 1, 0 } };
	*ni = i + di[k][e];
	*nj = j + dj[k][e];
	// The neighbour's index of the same edge: triangle 0's edge e is triangle 1's edge e + 1, and
	// triangle 1's edge e is triangle 0's edge e + 2 (mod 3).
	*ne = k == 0 ? ( e + 1 ) % 3 : ( e + 2 ) % 3;
	return *ni >= 0 && *nj >= 0 && *ni < hf->countX - 1 && *nj < hf->countY - 1 && tbIsHole( hf, *ni, *nj ) == false;
}

static uint8_t tbCellEdgeFlags( const tbHeightfield* hf, int i, int j )
{
	uint8_t flags = 0;
	for ( int k = 0; k < 2; ++k )
	{
		tbVec3 v[3];
		tbCellTriangle( hf, i, j, k, v );
		tbVec3 n = tbFaceNormal( v );
		for ( int e = 0; e < 3; ++e )
		{
			int ni, nj, ne;
			bool active = true;
			if ( tbAcrossEdge( hf, i, j, k, e, &ni, &nj, &ne ) )
			{
				tbVec3 w[3];
				tbCellTriangle( hf, ni, nj, 1 - k, w );
				active = tbIsSharedEdgeActive( n, tbFaceNormal( w ), v[e], w[( ne + 2 ) % 3] );
			}
			flags |= active ? (uint8_t)( 1u << ( 3 * k + e ) ) : 0u;
		}
	}
	return flags;
}

// Creation -------------------------------------------------------------------------------------

static bool tbIsValidGrid( const float* heights, int countX, int countY, float cellX, float cellY )
{
	if ( heights == NULL || countX < TB_MIN_HEIGHTFIELD_COUNT || countY < TB_MIN_HEIGHTFIELD_COUNT ||
		 countX > TB_MAX_HEIGHTFIELD_COUNT || countY > TB_MAX_HEIGHTFIELD_COUNT ||
		 !tbIsInRange( cellX, TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE ) ||
		 !tbIsInRange( cellY, TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE ) ||
		 (float)( countX - 1 ) * cellX > TB_MAX_POSITION || (float)( countY - 1 ) * cellY > TB_MAX_POSITION )
	{
		return false;
	}
	size_t pointCount = (size_t)countX * (size_t)countY;
	for ( size_t i = 0; i < pointCount; ++i )
	{
		if ( !tbIsInRange( heights[i], -TB_MAX_POSITION, TB_MAX_POSITION ) )
		{
			return false;
		}
	}
	return true;
}

tbHeightfield* tbCreateHeightfield( const float* heights, int countX, int countY, float cellX, float cellY,
									const uint8_t* holes, tbResult* result )
{
	bool valid = tbIsValidGrid( heights, countX, countY, cellX, cellY );
	size_t pointCount = valid ? (size_t)countX * (size_t)countY : 0;
	size_t cellCount = valid ? (size_t)( countX - 1 ) * (size_t)( countY - 1 ) : 0;
	size_t headerSize = tbAlignSize( sizeof( tbHeightfield ) );
	size_t heightSize = tbAlignSize( sizeof( float ) * pointCount );
	size_t totalSize = headerSize + heightSize + tbAlignSize( cellCount );
	char* block = valid ? tbAlloc( totalSize ) : NULL;
	if ( block == NULL )
	{
		if ( result != NULL )
		{
			*result = valid ? tbResult_outOfMemory : tbResult_invalidArgument;
		}
		return NULL;
	}
	float lo = FLT_MAX, hi = -FLT_MAX;
	for ( size_t i = 0; i < pointCount; ++i )
	{
		lo = tbMinFloat( lo, heights[i] );
		hi = tbMaxFloat( hi, heights[i] );
	}
	tbHeightfield* hf = (tbHeightfield*)block;
	memset( hf, 0, sizeof( *hf ) );
	hf->countX = countX;
	hf->countY = countY;
	hf->cellX = cellX;
	hf->cellY = cellY;
	hf->heights = (float*)( block + headerSize );
	hf->cellFlags = (uint8_t*)( block + headerSize + heightSize );
	memcpy( hf->heights, heights, sizeof( float ) * pointCount );
	for ( size_t c = 0; c < cellCount; ++c )
	{
		bool hole = holes != NULL && holes[c] != 0;
		hf->cellFlags[c] = hole ? (uint8_t)TB_HEIGHTFIELD_HOLE : 0u;
		hf->holeCount += hole;
	}
	for ( int j = 0; j < countY - 1; ++j )
	{
		for ( int i = 0; i < countX - 1; ++i )
		{
			if ( tbIsHole( hf, i, j ) == false )
			{
				hf->cellFlags[(size_t)j * (size_t)( countX - 1 ) + (size_t)i] = tbCellEdgeFlags( hf, i, j );
			}
		}
	}
	hf->bounds.lowerBound = tbMakeVec3( 0.0f, 0.0f, lo );
	hf->bounds.upperBound = tbMakeVec3( (float)( countX - 1 ) * cellX, (float)( countY - 1 ) * cellY, hi );
	hf->firstPoint = tbGridPoint( hf, 0, 0 );
	hf->byteCount = totalSize;
	hf->refCount = 1;
	if ( result != NULL )
	{
		*result = tbResult_ok;
	}
	return hf;
}

void tbRetainHeightfield( tbHeightfield* hf )
{
	if ( hf != NULL )
	{
		hf->refCount += 1;
	}
}

void tbReleaseHeightfield( tbHeightfield* hf )
{
	if ( hf == NULL )
	{
		return;
	}
	TB_ASSERT( hf->refCount > 0 );
	hf->refCount -= 1;
	if ( hf->refCount == 0 )
	{
		tbFree( hf, hf->byteCount );
	}
}

tbAABB tbComputeHeightfieldAABB( const tbHeightfield* hf, tbTransform xf )
{
	return tbTransformBox( hf->bounds, xf );
}

// Queries --------------------------------------------------------------------------------------

// The cell (0..cells-1) holding coordinate x / cell size; NaN and anything outside clamp to the
// border cells (the caller has already checked that the box or ray meets the bounds).
static int tbCellIndex( float scaled, int cells )
{
	if ( !( scaled >= 0.0f ) )
	{
		return 0;
	}
	return scaled >= (float)cells ? cells - 1 : (int)scaled;
}

void tbQueryHeightfield( const tbHeightfield* hf, tbAABB box, tbMeshQueryFcn* fcn, void* context )
{
	if ( tbAABB_Overlaps( hf->bounds, box ) == false )
	{
		return;
	}
	int nx = hf->countX - 1, ny = hf->countY - 1;
	int i0 = tbCellIndex( box.lowerBound.x / hf->cellX, nx ), i1 = tbCellIndex( box.upperBound.x / hf->cellX, nx );
	int j0 = tbCellIndex( box.lowerBound.y / hf->cellY, ny ), j1 = tbCellIndex( box.upperBound.y / hf->cellY, ny );
	for ( int j = j0; j <= j1; ++j )
	{
		for ( int i = i0; i <= i1; ++i )
		{
			int cell = j * nx + i;
			if ( hf->cellFlags[cell] & TB_HEIGHTFIELD_HOLE )
			{
				continue;
			}
			// Both triangles span the cell's x and y ranges: only their height ranges can miss.
			float h00 = tbHeightAt( hf, i, j ), h11 = tbHeightAt( hf, i + 1, j + 1 );
			float corner[2] = { tbHeightAt( hf, i + 1, j ), tbHeightAt( hf, i, j + 1 ) };
			for ( int k = 0; k < 2; ++k )
			{
				float lo = tbMinFloat( h00, tbMinFloat( h11, corner[k] ) );
				float hi = tbMaxFloat( h00, tbMaxFloat( h11, corner[k] ) );
				if ( lo <= box.upperBound.z && hi >= box.lowerBound.z && fcn( 2 * cell + k, context ) == false )
				{
					return;
				}
			}
		}
	}
}

// Ray cast -------------------------------------------------------------------------------------

// The part [*t0, *t1] of the ray inside the box, false if none.
static bool tbClipRayToBox( const float o[3], const float d[3], tbAABB box, float* t0, float* t1 )
{
	const float* lo = &box.lowerBound.x;
	const float* hi = &box.upperBound.x;
	for ( int a = 0; a < 3; ++a )
	{
		if ( d[a] == 0.0f )
		{
			if ( o[a] < lo[a] || o[a] > hi[a] )
			{
				return false;
			}
			continue;
		}
		float ta = ( lo[a] - o[a] ) / d[a];
		float tb = ( hi[a] - o[a] ) / d[a];
		*t0 = tbMaxFloat( *t0, tbMinFloat( ta, tb ) );
		*t1 = tbMinFloat( *t1, tbMaxFloat( ta, tb ) );
	}
	return *t0 <= *t1;
}

// Where the ray leaves cell index `cell` along one axis (FLT_MAX when it does not move along it).
static float tbCellExit( float o, float d, int cell, float size )
{
	if ( d > 0.0f )
	{
		return ( (float)( cell + 1 ) * size - o ) / d;
	}
	if ( d < 0.0f )
	{
		return ( (float)cell * size - o ) / d;
	}
	return FLT_MAX;
}

tbCastOutput tbRayCastHeightfield( const tbRayCastInput* input, const tbHeightfield* hf, int* triangleIndex )
{
	tbCastOutput out;
	memset( &out, 0, sizeof( out ) );
	if ( triangleIndex != NULL )
	{
		*triangleIndex = -1;
	}
	if ( input == NULL || hf == NULL || !tbIsValidVec3( input->origin ) || !tbIsValidVec3( input->translation ) ||
		 !tbIsValidFloat( input->maxFraction ) )
	{
		return out;
	}
	// An origin on a triangle (within TB_RAY_SURFACE_TOLERANCE) is a hit at 0, as for a mesh.
	float length = tbLength( input->translation );
	float onSurface = length > 0.0f ? -TB_RAY_SURFACE_TOLERANCE / length : 0.0f;
	const float o[3] = { input->origin.x, input->origin.y, input->origin.z };
	const float d[3] = { input->translation.x, input->translation.y, input->translation.z };
	tbVec3 grow = { TB_RAY_SURFACE_TOLERANCE, TB_RAY_SURFACE_TOLERANCE, TB_RAY_SURFACE_TOLERANCE };
	tbAABB bounds = { tbSub( hf->bounds.lowerBound, grow ), tbAdd( hf->bounds.upperBound, grow ) };
	float t = onSurface, tEnd = input->maxFraction;
	if ( tbClipRayToBox( o, d, bounds, &t, &tEnd ) == false )
	{
		return out;
	}

	// Walk the cells under the ray in order (a 2D digital differential analyser): the first cell
	// with a hit holds the closest one, since a triangle's hits lie in its cell's part of the ray.
	int nx = hf->countX - 1, ny = hf->countY - 1;
	int i = tbCellIndex( ( o[0] + t * d[0] ) / hf->cellX, nx );
	int j = tbCellIndex( ( o[1] + t * d[1] ) / hf->cellY, ny );
	float best = FLT_MAX;
	int bestTriangle = -1;
	for ( int step = 0; step <= nx + ny + 1; ++step )
	{
		float exitX = tbCellExit( o[0], d[0], i, hf->cellX );
		float exitY = tbCellExit( o[1], d[1], j, hf->cellY );
		float exit = tbMinFloat( tbMinFloat( exitX, exitY ), tEnd );
		int cell = j * nx + i;
		out.iterations += 1;
		if ( ( hf->cellFlags[cell] & TB_HEIGHTFIELD_HOLE ) == 0 )
		{
			float za = o[2] + t * d[2], zb = o[2] + exit * d[2];
			float h00 = tbHeightAt( hf, i, j ), h10 = tbHeightAt( hf, i + 1, j );
			float h01 = tbHeightAt( hf, i, j + 1 ), h11 = tbHeightAt( hf, i + 1, j + 1 );
			float lo = tbMinFloat( tbMinFloat( h00, h10 ), tbMinFloat( h01, h11 ) ) - TB_HEIGHTFIELD_CULL_MARGIN;
			float hi = tbMaxFloat( tbMaxFloat( h00, h10 ), tbMaxFloat( h01, h11 ) ) + TB_HEIGHTFIELD_CULL_MARGIN;
			if ( tbMaxFloat( za, zb ) >= lo && tbMinFloat( za, zb ) <= hi )
			{
				for ( int k = 0; k < 2; ++k )
				{
					tbVec3 v[3];
					tbCellTriangle( hf, i, j, k, v );
					float f = tbRayTriangle( input->origin, input->translation, v );
					f = f >= onSurface && f < 0.0f ? 0.0f : f;
					if ( f >= 0.0f && f <= input->maxFraction && f < best )
					{
						best = f;
						bestTriangle = 2 * cell + k;
					}
				}
			}
		}
		if ( bestTriangle >= 0 || exit >= tEnd )
		{
			break;
		}
		if ( exitX <= exitY )
		{
			i += d[0] > 0.0f ? 1 : -1;
		}
		else
		{
			j += d[1] > 0.0f ? 1 : -1;
		}
		if ( i < 0 || j < 0 || i >= nx || j >= ny )
		{
			break;
		}
		t = tbMaxFloat( t, exit );
	}
	if ( bestTriangle < 0 )
	{
		return out;
	}
	tbTriangle tri;
	tbGetHeightfieldTriangle( hf, bestTriangle, &tri );
	out.normal = tbDot( tri.n, input->translation ) > 0.0f ? tbNeg( tri.n ) : tri.n;
	out.point = tbMulAdd( input->origin, best, input->translation );
	out.fraction = best;
	out.hit = true;
	if ( triangleIndex != NULL )
	{
		*triangleIndex = bestTriangle;
	}
	return out;
}
