// Tumble physics: static triangle meshes: validation, active edges, the bounding volume tree and
// ray casts.
// SPDX-License-Identifier: MIT
#include "mesh.h"

#include "core.h"
#include "heightfield.h"
#include "shape.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// Leaves hold up to this many triangles: 4 keeps the tree shallow (20 levels for 2^20 triangles)
// while a leaf's triangle tests stay cheap next to the node tests they save.
#define TB_MESH_LEAF_SIZE 4

// Deepest tree a median split can build: ceil(log2(TB_MAX_MESH_TRIANGLES / 1)) + 1 = 21 levels;
// the traversal stack holds one pending sibling per level.
#define TB_MESH_STACK_SIZE 64

static size_t tbAlignSize( size_t size )
{
	return ( size + 15u ) & ~(size_t)15u;
}

void tbGetMeshTriangle( const tbMesh* mesh, int t, tbVec3 v[3] )
{
	const int32_t* idx = mesh->indices + 3 * t;
	v[0] = mesh->vertices[idx[0]];
	v[1] = mesh->vertices[idx[1]];
	v[2] = mesh->vertices[idx[2]];
}

static tbAABB tbCornersBox( const tbVec3 v[3] )
{
	tbAABB box = { tbMinVec( v[0], tbMinVec( v[1], v[2] ) ), tbMaxVec( v[0], tbMaxVec( v[1], v[2] ) ) };
	return box;
}

static tbAABB tbTriangleBox( const tbMesh* mesh, int t )
{
	tbVec3 v[3];
	tbGetMeshTriangle( mesh, t, v );
	return tbCornersBox( v );
}

// Tree building --------------------------------------------------------------------------------

typedef struct tbMeshBuilder
{
	tbMesh* mesh;
	tbVec3* centroids; ///< per triangle
	tbMeshNode* nodes;
	int nodeCount;
} tbMeshBuilder;

// Partition order[lo..hi) so the element at k has the k-th smallest centroid coordinate
// (quickselect, middle pivot; ties broken by triangle index so the tree is deterministic).
static bool tbCentroidLess( const tbMeshBuilder* b, int axis, int32_t t1, int32_t t2 )
{
	float a = ( &b->centroids[t1].x )[axis];
	float c = ( &b->centroids[t2].x )[axis];
	return a < c || ( a == c && t1 < t2 );
}

static void tbSelect( tbMeshBuilder* b, int32_t* order, int lo, int hi, int k, int axis )
{
	while ( hi - lo > 1 )
	{
		int32_t pivot = order[lo + ( hi - lo ) / 2];
		int i = lo, j = hi - 1;
		while ( i <= j )
		{
			while ( tbCentroidLess( b, axis, order[i], pivot ) )
			{
				i += 1;
			}
			while ( tbCentroidLess( b, axis, pivot, order[j] ) )
			{
				j -= 1;
			}
			if ( i <= j )
			{
				int32_t tmp = order[i];
				order[i] = order[j];
				order[j] = tmp;
				i += 1;
				j -= 1;
			}
		}
		if ( k <= j )
		{
			hi = j + 1;
		}
		else if ( k >= i )
		{
			lo = i;
		}
		else
		{
			return;
		}
	}
}

// Median split on the longest axis of the centroids' box: a balanced tree, built in O(n log n).
static int tbBuildNode( tbMeshBuilder* b, int start, int count )
{
	int index = b->nodeCount++;
	int32_t* order = b->mesh->order;
	tbAABB box = tbTriangleBox( b->mesh, order[start] );
	tbVec3 lo = b->centroids[order[start]];
	tbVec3 hi = lo;
	for ( int i = start + 1; i < start + count; ++i )
	{
		box = tbAABB_Union( box, tbTriangleBox( b->mesh, order[i] ) );
		lo = tbMinVec( lo, b->centroids[order[i]] );
		hi = tbMaxVec( hi, b->centroids[order[i]] );
	}
	b->nodes[index].aabb = box;
	if ( count <= TB_MESH_LEAF_SIZE )
	{
		b->nodes[index].start = start;
		b->nodes[index].count = count;
		return index;
	}
	tbVec3 d = tbSub( hi, lo );
	int axis = d.x >= d.y && d.x >= d.z ? 0 : ( d.y >= d.z ? 1 : 2 );
	int half = count / 2;
	tbSelect( b, order, start, start + count, start + half, axis );
	b->nodes[index].count = 0;
	tbBuildNode( b, start, half );
	int second = tbBuildNode( b, start + half, count - half );
	b->nodes[index].start = second;
	return index;
}

// Active edges ---------------------------------------------------------------------------------

typedef struct tbEdgeRef
{
	uint64_t key;  ///< smaller vertex index << 32 | larger
	int32_t slot;  ///< 3 * triangle + edge
} tbEdgeRef;

static int tbCompareEdgeRefs( const void* a, const void* b )
{
	const tbEdgeRef* x = a;
	const tbEdgeRef* y = b;
	if ( x->key != y->key )
	{
		return x->key < y->key ? -1 : 1;
	}
	return x->slot < y->slot ? -1 : ( x->slot > y->slot ? 1 : 0 );
}

// An edge shared by exactly two triangles is inactive when the surface is flat or concave there
// (seen from the first triangle's front): a contact on it can take the face normal without letting
// anything through. A convex crease sharper than TB_MESH_ACTIVE_EDGE_ANGLE stays active, so a ball
// rolls round a ridge with the edge's own normal.
bool tbIsSharedEdgeActive( tbVec3 n1, tbVec3 n2, tbVec3 edgePoint, tbVec3 apex2 )
{
	bool convex = tbDot( n1, tbSub( apex2, edgePoint ) ) < 0.0f;
	return convex && tbDot( n1, n2 ) < cosf( TB_MESH_ACTIVE_EDGE_ANGLE );
}

static bool tbIsEdgeActive( const tbMesh* mesh, int slot1, int slot2 )
{
	int t1 = slot1 / 3, e1 = slot1 % 3;
	int t2 = slot2 / 3, e2 = slot2 % 3;
	const int32_t* i1 = mesh->indices + 3 * t1;
	const int32_t* i2 = mesh->indices + 3 * t2;
	tbVec3 n1 = mesh->normals[t1];
	tbVec3 n2 = mesh->normals[t2];
	// Consistent winding runs the shared edge in opposite directions; if not, one triangle faces
	// the other way and its normal is turned round for the comparison.
	if ( i1[e1] == i2[e2] )
	{
		n2 = tbNeg( n2 );
	}
	return tbIsSharedEdgeActive( n1, n2, mesh->vertices[i1[e1]], mesh->vertices[i2[( e2 + 2 ) % 3]] );
}

static bool tbComputeActiveEdges( tbMesh* mesh )
{
	int n = mesh->triangleCount;
	size_t size = sizeof( tbEdgeRef ) * (size_t)( 3 * n );
	tbEdgeRef* refs = tbAlloc( size );
	if ( refs == NULL )
	{
		return false;
	}
	int count = 0;
	for ( int t = 0; t < n; ++t )
	{
		mesh->edgeFlags[t] = 0;
		if ( tbLengthSquared( mesh->normals[t] ) == 0.0f )
		{
			continue;
		}
		for ( int e = 0; e < 3; ++e )
		{
			uint32_t a = (uint32_t)mesh->indices[3 * t + e];
			uint32_t b = (uint32_t)mesh->indices[3 * t + ( e + 1 ) % 3];
			refs[count].key = a < b ? ( (uint64_t)a << 32 | b ) : ( (uint64_t)b << 32 | a );
			refs[count].slot = 3 * t + e;
			count += 1;
		}
	}
	qsort( refs, (size_t)count, sizeof( tbEdgeRef ), tbCompareEdgeRefs );
	for ( int i = 0; i < count; )
	{
		int j = i + 1;
		while ( j < count && refs[j].key == refs[i].key )
		{
			j += 1;
		}
		if ( j - i == 2 )
		{
			int s1 = refs[i].slot, s2 = refs[i + 1].slot;
			if ( tbIsEdgeActive( mesh, s1, s2 ) )
			{
				mesh->edgeFlags[s1 / 3] |= (uint8_t)( 1u << ( s1 % 3 ) );
			}
			if ( tbIsEdgeActive( mesh, s2, s1 ) )
			{
				mesh->edgeFlags[s2 / 3] |= (uint8_t)( 1u << ( s2 % 3 ) );
			}
		}
		else
		{
			// Boundary or non-manifold: nothing else covers the space past it.
			for ( int k = i; k < j; ++k )
			{
				mesh->edgeFlags[refs[k].slot / 3] |= (uint8_t)( 1u << ( refs[k].slot % 3 ) );
			}
		}
		i = j;
	}
	tbFree( refs, size );
	return true;
}

// Creation -------------------------------------------------------------------------------------

static tbMesh* tbFail( tbResult* result, tbResult code )
{
	if ( result != NULL )
	{
		*result = code;
	}
	return NULL;
}

tbMesh* tbCreateMesh( const tbVec3* vertices, int vertexCount, const int32_t* indices, int triangleCount, tbResult* result )
{
	if ( vertices == NULL || indices == NULL || vertexCount < 3 || triangleCount < 1 )
	{
		return tbFail( result, tbResult_invalidArgument );
	}
	if ( vertexCount > TB_MAX_MESH_VERTICES || triangleCount > TB_MAX_MESH_TRIANGLES )
	{
		return tbFail( result, tbResult_tooManyPoints );
	}
	for ( int i = 0; i < vertexCount; ++i )
	{
		if ( !tbIsBoundedVec3( vertices[i], TB_MAX_POSITION ) )
		{
			return tbFail( result, tbResult_invalidArgument );
		}
	}
	for ( int i = 0; i < 3 * triangleCount; ++i )
	{
		if ( indices[i] < 0 || indices[i] >= vertexCount )
		{
			return tbFail( result, tbResult_invalidArgument );
		}
	}

	// One block: header, vertices, indices, normals, order, nodes, edge flags. The node count is
	// known only after building, so the tree is built into scratch and copied.
	int n = triangleCount;
	size_t nodeScratchSize = sizeof( tbMeshNode ) * (size_t)( 2 * n );
	tbMeshNode* scratchNodes = tbAlloc( nodeScratchSize );
	size_t centroidSize = sizeof( tbVec3 ) * (size_t)n;
	tbVec3* centroids = tbAlloc( centroidSize );
	size_t headerSize = tbAlignSize( sizeof( tbMesh ) );
	size_t vertexSize = tbAlignSize( sizeof( tbVec3 ) * (size_t)vertexCount );
	size_t indexSize = tbAlignSize( sizeof( int32_t ) * (size_t)( 3 * n ) );
	size_t normalSize = tbAlignSize( sizeof( tbVec3 ) * (size_t)n );
	size_t orderSize = tbAlignSize( sizeof( int32_t ) * (size_t)n );
	size_t flagSize = tbAlignSize( (size_t)n );
	size_t baseSize = headerSize + vertexSize + indexSize + normalSize + orderSize + flagSize;
	// The block is allocated once the node count is known; until then the arrays live in a
	// provisional block of the same layout without nodes.
	char* block = tbAlloc( baseSize );
	if ( scratchNodes == NULL || centroids == NULL || block == NULL )
	{
		tbFree( scratchNodes, nodeScratchSize );
		tbFree( centroids, centroidSize );
		tbFree( block, baseSize );
		return tbFail( result, tbResult_outOfMemory );
	}
	tbMesh* mesh = (tbMesh*)block;
	memset( mesh, 0, sizeof( *mesh ) );
	mesh->vertexCount = vertexCount;
	mesh->triangleCount = n;
	mesh->vertices = (tbVec3*)( block + headerSize );
	mesh->indices = (int32_t*)( block + headerSize + vertexSize );
	mesh->normals = (tbVec3*)( block + headerSize + vertexSize + indexSize );
	mesh->order = (int32_t*)( block + headerSize + vertexSize + indexSize + normalSize );
	mesh->edgeFlags = (uint8_t*)( block + headerSize + vertexSize + indexSize + normalSize + orderSize );
	memcpy( mesh->vertices, vertices, sizeof( tbVec3 ) * (size_t)vertexCount );
	memcpy( mesh->indices, indices, sizeof( int32_t ) * (size_t)( 3 * n ) );

	// Zero-area triangles have no normal and are left out of the tree. The test is relative to the
	// longest edge (|e1 x e2| <= 1e-6 |e|^2: a sliver whose height is under a millionth of its
	// length) so it means the same at every scale.
	int leafCount = 0;
	for ( int t = 0; t < n; ++t )
	{
		tbVec3 v[3];
		tbGetMeshTriangle( mesh, t, v );
		tbVec3 e1 = tbSub( v[1], v[0] );
		tbVec3 e2 = tbSub( v[2], v[0] );
		tbVec3 e3 = tbSub( v[2], v[1] );
		float longest = tbMaxFloat( tbLengthSquared( e1 ), tbMaxFloat( tbLengthSquared( e2 ), tbLengthSquared( e3 ) ) );
		tbVec3 c = tbCross( e1, e2 );
		float area2 = tbLength( c );
		if ( !( area2 > 1.0e-6f * longest ) || area2 < 1.0e-12f )
		{
			mesh->normals[t] = tb_vec3_zero;
			mesh->degenerateCount += 1;
			continue;
		}
		mesh->normals[t] = tbMulSV( 1.0f / area2, c );
		centroids[t] = tbMulSV( 1.0f / 3.0f, tbAdd( v[0], tbAdd( v[1], v[2] ) ) );
		mesh->order[leafCount++] = t;
	}
	mesh->leafTriangleCount = leafCount;
	if ( leafCount == 0 || tbComputeActiveEdges( mesh ) == false )
	{
		tbFree( scratchNodes, nodeScratchSize );
		tbFree( centroids, centroidSize );
		tbFree( block, baseSize );
		return tbFail( result, leafCount == 0 ? tbResult_invalidArgument : tbResult_outOfMemory );
	}

	tbMeshBuilder builder = { mesh, centroids, scratchNodes, 0 };
	tbBuildNode( &builder, 0, leafCount );

	size_t nodeSize = sizeof( tbMeshNode ) * (size_t)builder.nodeCount;
	size_t totalSize = baseSize + nodeSize;
	char* final = tbAlloc( totalSize );
	if ( final == NULL )
	{
		tbFree( scratchNodes, nodeScratchSize );
		tbFree( centroids, centroidSize );
		tbFree( block, baseSize );
		return tbFail( result, tbResult_outOfMemory );
	}
	memcpy( final, block, baseSize );
	memcpy( final + baseSize, scratchNodes, nodeSize );
	tbFree( scratchNodes, nodeScratchSize );
	tbFree( centroids, centroidSize );
	tbFree( block, baseSize );

	mesh = (tbMesh*)final;
	mesh->vertices = (tbVec3*)( final + headerSize );
	mesh->indices = (int32_t*)( final + headerSize + vertexSize );
	mesh->normals = (tbVec3*)( final + headerSize + vertexSize + indexSize );
	mesh->order = (int32_t*)( final + headerSize + vertexSize + indexSize + normalSize );
	mesh->edgeFlags = (uint8_t*)( final + headerSize + vertexSize + indexSize + normalSize + orderSize );
	mesh->nodes = (tbMeshNode*)( final + baseSize );
	mesh->nodeCount = builder.nodeCount;
	mesh->bounds = mesh->nodes[0].aabb;
	mesh->byteCount = totalSize;
	mesh->refCount = 1;
	if ( result != NULL )
	{
		*result = tbResult_ok;
	}
	return mesh;
}

void tbRetainMesh( tbMesh* mesh )
{
	if ( mesh != NULL )
	{
		mesh->refCount += 1;
	}
}

void tbReleaseMesh( tbMesh* mesh )
{
	if ( mesh == NULL )
	{
		return;
	}
	TB_ASSERT( mesh->refCount > 0 );
	mesh->refCount -= 1;
	if ( mesh->refCount == 0 )
	{
		tbFree( mesh, mesh->byteCount );
	}
}

// Queries --------------------------------------------------------------------------------------

void tbQueryMesh( const tbMesh* mesh, tbAABB box, tbMeshQueryFcn* fcn, void* context )
{
	int stack[TB_MESH_STACK_SIZE];
	int top = 0;
	stack[top++] = 0;
	while ( top > 0 )
	{
		const tbMeshNode* node = mesh->nodes + stack[--top];
		if ( tbAABB_Overlaps( node->aabb, box ) == false )
		{
			continue;
		}
		if ( node->count > 0 )
		{
			for ( int i = 0; i < node->count; ++i )
			{
				int t = mesh->order[node->start + i];
				if ( tbAABB_Overlaps( tbTriangleBox( mesh, t ), box ) && fcn( t, context ) == false )
				{
					return;
				}
			}
			continue;
		}
		TB_ASSERT( top + 2 <= TB_MESH_STACK_SIZE );
		int first = (int)( node - mesh->nodes ) + 1;
		stack[top++] = node->start;
		stack[top++] = first;
	}
}

tbAABB tbComputeMeshAABB( const tbMesh* mesh, tbTransform xf )
{
	return tbTransformBox( mesh->bounds, xf );
}

tbAABB tbTransformBox( tbAABB local, tbTransform xf )
{
	// Box of the rotated local box: centre moved, extents through |R|. Looser than the vertices'
	// box under rotation, but O(1); meshes are static so this runs once per shape.
	tbVec3 c = tbTransformPoint( xf, tbAABB_Center( local ) );
	tbVec3 e = tbAABB_Extents( local );
	tbMat3 r = tbMakeMat3( tbRotate( xf.q, tbMakeVec3( 1.0f, 0.0f, 0.0f ) ), tbRotate( xf.q, tbMakeVec3( 0.0f, 1.0f, 0.0f ) ),
						   tbRotate( xf.q, tbMakeVec3( 0.0f, 0.0f, 1.0f ) ) );
	tbVec3 ext = { tbAbsFloat( r.cx.x ) * e.x + tbAbsFloat( r.cy.x ) * e.y + tbAbsFloat( r.cz.x ) * e.z,
				   tbAbsFloat( r.cx.y ) * e.x + tbAbsFloat( r.cy.y ) * e.y + tbAbsFloat( r.cz.y ) * e.z,
				   tbAbsFloat( r.cx.z ) * e.x + tbAbsFloat( r.cy.z ) * e.y + tbAbsFloat( r.cz.z ) * e.z };
	tbAABB box = { tbSub( c, ext ), tbAdd( c, ext ) };
	return box;
}

// A conservative box (mesh frame) of a world box.
tbAABB tbWorldBoxToMesh( tbAABB box, tbTransform xfMesh )
{
	tbVec3 c = tbInvTransformPoint( xfMesh, tbAABB_Center( box ) );
	tbVec3 e = tbAABB_Extents( box );
	tbVec3 ext = tb_vec3_zero;
	tbVec3 axes[3] = { { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f } };
	const float* ee = &e.x;
	for ( int i = 0; i < 3; ++i )
	{
		ext = tbAdd( ext, tbMulSV( ee[i], tbAbsVec( tbInvRotate( xfMesh.q, axes[i] ) ) ) );
	}
	tbAABB out = { tbSub( c, ext ), tbAdd( c, ext ) };
	return out;
}

typedef struct tbTriangleCount
{
	int count;
	int limit;
} tbTriangleCount;

static bool tbCountTriangle( int triangleIndex, void* context )
{
	TB_UNUSED( triangleIndex );
	tbTriangleCount* c = context;
	c->count += 1;
	return c->count < c->limit;
}

static int tbCountSourceTriangles( tbTriangleSource source, tbTransform xf, tbAABB box, int limit )
{
	tbTriangleCount c = { 0, limit };
	if ( ( source.mesh != NULL || source.heightfield != NULL ) && limit > 0 )
	{
		tbQuerySourceTriangles( source, tbWorldBoxToMesh( box, xf ), tbCountTriangle, &c );
	}
	return c.count;
}

int tbCountMeshTriangles( const tbMesh* mesh, tbTransform xf, tbAABB box, int limit )
{
	tbTriangleSource source = { mesh, NULL };
	return tbCountSourceTriangles( source, xf, box, limit );
}

int tbCountHeightfieldTriangles( const tbHeightfield* heightfield, tbTransform xf, tbAABB box, int limit )
{
	tbTriangleSource source = { NULL, heightfield };
	return tbCountSourceTriangles( source, xf, box, limit );
}

// Ray casts ------------------------------------------------------------------------------------

// Moeller-Trumbore, two-sided: returns the fraction or -1.
float tbRayTriangle( tbVec3 origin, tbVec3 d, const tbVec3 v[3] )
{
	tbVec3 e1 = tbSub( v[1], v[0] );
	tbVec3 e2 = tbSub( v[2], v[0] );
	tbVec3 p = tbCross( d, e2 );
	float det = tbDot( e1, p );
	// det = d . (e1 x e2): zero for a ray in the triangle's plane (a grazing ray hits nothing).
	if ( tbAbsFloat( det ) < 1.0e-12f * tbLength( d ) * tbLength( tbCross( e1, e2 ) ) + 1.0e-30f )
	{
		return -1.0f;
	}
	float inv = 1.0f / det;
	tbVec3 s = tbSub( origin, v[0] );
	float u = tbDot( s, p ) * inv;
	if ( u < 0.0f || u > 1.0f )
	{
		return -1.0f;
	}
	tbVec3 q = tbCross( s, e1 );
	float w = tbDot( d, q ) * inv;
	if ( w < 0.0f || u + w > 1.0f )
	{
		return -1.0f;
	}
	return tbDot( e2, q ) * inv;
}

tbCastOutput tbRayCastMesh( const tbRayCastInput* input, const tbMesh* mesh, int* triangleIndex )
{
	tbCastOutput out;
	memset( &out, 0, sizeof( out ) );
	if ( triangleIndex != NULL )
	{
		*triangleIndex = -1;
	}
	if ( input == NULL || mesh == NULL || !tbIsValidVec3( input->origin ) || !tbIsValidVec3( input->translation ) ||
		 !tbIsValidFloat( input->maxFraction ) )
	{
		return out;
	}
	float best = input->maxFraction;
	// An origin on a triangle (within TB_RAY_SURFACE_TOLERANCE) is a hit at 0.
	float length = tbLength( input->translation );
	float onSurface = length > 0.0f ? -TB_RAY_SURFACE_TOLERANCE / length : 0.0f;
	const float p[3] = { input->origin.x, input->origin.y, input->origin.z };
	const float d[3] = { input->translation.x, input->translation.y, input->translation.z };
	int bestTriangle = -1;
	int stack[TB_MESH_STACK_SIZE];
	int top = 0;
	stack[top++] = 0;
	while ( top > 0 )
	{
		const tbMeshNode* node = mesh->nodes + stack[--top];
		if ( tbSegmentOverlapsBox( p, d, best, node->aabb ) == false )
		{
			continue;
		}
		if ( node->count > 0 )
		{
			for ( int i = 0; i < node->count; ++i )
			{
				int t = mesh->order[node->start + i];
				tbVec3 v[3];
				tbGetMeshTriangle( mesh, t, v );
				float f = tbRayTriangle( input->origin, input->translation, v );
				f = f >= onSurface && f < 0.0f ? 0.0f : f;
				// Equal fractions (a ray through a shared edge) go to the lower index: the result
				// does not depend on the tree's layout.
				if ( f >= 0.0f && ( f < best || ( f == best && bestTriangle >= 0 && t < bestTriangle ) ) )
				{
					best = f;
					bestTriangle = t;
				}
			}
			continue;
		}
		out.iterations += 1;
		int first = (int)( node - mesh->nodes ) + 1;
		stack[top++] = node->start;
		stack[top++] = first;
	}
	if ( bestTriangle < 0 )
	{
		return out;
	}
	tbVec3 n = mesh->normals[bestTriangle];
	out.normal = tbDot( n, input->translation ) > 0.0f ? tbNeg( n ) : n;
	out.point = tbMulAdd( input->origin, best, input->translation );
	out.fraction = best;
	out.hit = true;
	if ( triangleIndex != NULL )
	{
		*triangleIndex = bestTriangle;
	}
	return out;
}

// Triangle sources -----------------------------------------------------------------------------

tbTriangleSource tbShapeTriangles( const tbShape* shape )
{
	tbTriangleSource source = { NULL, NULL };
	if ( shape->type == tbShape_mesh )
	{
		source.mesh = shape->mesh;
	}
	else if ( shape->type == tbShape_heightfield )
	{
		source.heightfield = shape->heightfield;
	}
	return source;
}

void tbGetSourceTriangle( tbTriangleSource source, int t, tbTriangle* tri )
{
	if ( source.heightfield != NULL )
	{
		tbGetHeightfieldTriangle( source.heightfield, t, tri );
		return;
	}
	tbGetMeshTriangle( source.mesh, t, tri->v );
	tri->n = source.mesh->normals[t];
	tri->active = source.mesh->edgeFlags[t];
}

tbAABB tbSourceTriangleBounds( tbTriangleSource source, int t )
{
	if ( source.mesh != NULL )
	{
		return tbTriangleBox( source.mesh, t );
	}
	tbVec3 v[3];
	tbGetHeightfieldCorners( source.heightfield, t, v );
	return tbCornersBox( v );
}

void tbQuerySourceTriangles( tbTriangleSource source, tbAABB box, tbMeshQueryFcn* fcn, void* context )
{
	if ( source.heightfield != NULL )
	{
		tbQueryHeightfield( source.heightfield, box, fcn, context );
	}
	else
	{
		tbQueryMesh( source.mesh, box, fcn, context );
	}
}
