// Tumble viewer: drawing a world's bodies, the ground grid and the debug layers.
// SPDX-License-Identifier: MIT
#include "world_draw.h"

#include "joint_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// How a hull shape is drawn: boxes (the common case) as the instanced unit cube placed by a local
// frame and scaled by half extents; any other hull as its own triangle mesh, shared by every shape
// with the same geometry.
typedef struct tbShapeVisual
{
	tbShapeId id; ///< key; index1 == 0 marks an empty slot
	int mesh;
	tbTransform local; ///< in the body frame
	tbVec3 scale;
} tbShapeVisual;

typedef struct tbHullMesh
{
	uint64_t hash; ///< of the hull's vertices and faces
	int mesh;
} tbHullMesh;

struct tbWorldDraw
{
	tbShapeVisual* slots; // open addressing, power-of-two capacity
	int capacity;
	int count;
	tbHullMesh* hullMeshes;
	int hullMeshCount;
	int hullMeshCapacity;

	tbBodyId* bodies;
	int bodyCapacity;
	tbShapeId* shapes;
	int shapeCapacity;
	tbJointId* joints;
	int jointCapacity;
	tbContactData* contacts;
	int contactCapacity;
	tbMeshVertex* scratch; // hull triangulation
	int scratchCapacity;
};

static const char* const tb_debugNames[tbDebug_flagCount] = {
	"contacts", "joints", "aabbs", "centers", "velocities", "sleep", "tree",
};

const char* tbDebugDrawName( int i )
{
	return i >= 0 && i < tbDebug_flagCount ? tb_debugNames[i] : "";
}

// Buffers ----------------------------------------------------------------------------------------

// Grows *buffer to hold count items; false when out of memory.
static bool tbReserve( void** buffer, int* capacity, int count, size_t itemSize )
{
	if ( count <= *capacity )
	{
		return true;
	}
	int grown = *capacity > 0 ? *capacity : 64;
	while ( grown < count )
	{
		grown *= 2;
	}
	void* data = realloc( *buffer, (size_t)grown * itemSize );
	if ( data == NULL )
	{
		return false;
	}
	*buffer = data;
	*capacity = grown;
	return true;
}

tbWorldDraw* tbWorldDraw_Create( void )
{
	return calloc( 1, sizeof( tbWorldDraw ) );
}

void tbWorldDraw_Destroy( tbWorldDraw* draw )
{
	if ( draw == NULL )
	{
		return;
	}
	free( draw->slots );
	free( draw->hullMeshes );
	free( draw->bodies );
	free( draw->shapes );
	free( draw->joints );
	free( draw->contacts );
	free( draw->scratch );
	free( draw );
}

void tbWorldDraw_Reset( tbWorldDraw* draw, tbRenderer* renderer )
{
	if ( draw->slots != NULL )
	{
		memset( draw->slots, 0, (size_t)draw->capacity * sizeof( tbShapeVisual ) );
	}
	draw->count = 0;
	draw->hullMeshCount = 0;
	tbRenderer_ClearMeshes( renderer );
}

// Shape cache ------------------------------------------------------------------------------------

static uint32_t tbHashShapeId( tbShapeId id )
{
	uint32_t h = (uint32_t)id.index1 * 2654435761u;
	h ^= ( (uint32_t)id.generation << 16 ) ^ (uint32_t)id.world0;
	h ^= h >> 15;
	return h;
}

static tbShapeVisual* tbFindSlot( tbShapeVisual* slots, int capacity, tbShapeId id )
{
	uint32_t mask = (uint32_t)capacity - 1u;
	uint32_t i = tbHashShapeId( id ) & mask;
	while ( slots[i].id.index1 != 0 && TB_ID_EQUALS( slots[i].id, id ) == false )
	{
		i = ( i + 1u ) & mask;
	}
	return slots + i;
}

static bool tbGrowSlots( tbWorldDraw* draw )
{
	int capacity = draw->capacity > 0 ? 2 * draw->capacity : 1024;
	tbShapeVisual* slots = calloc( (size_t)capacity, sizeof( tbShapeVisual ) );
	if ( slots == NULL )
	{
		return false;
	}
	for ( int i = 0; i < draw->capacity; ++i )
	{
		if ( draw->slots[i].id.index1 != 0 )
		{
			*tbFindSlot( slots, capacity, draw->slots[i].id ) = draw->slots[i];
		}
	}
	free( draw->slots );
	draw->slots = slots;
	draw->capacity = capacity;
	return true;
}

// FNV-1a over the geometry: identical hulls (a pile of equal diamonds) share one mesh.
static uint64_t tbHashHull( const tbHull* hull )
{
	uint64_t h = 14695981039346656037ull;
	const unsigned char* bytes = (const unsigned char*)hull->vertices;
	size_t n = (size_t)hull->vertexCount * sizeof( tbVec3 );
	for ( size_t i = 0; i < n; ++i )
	{
		h = ( h ^ bytes[i] ) * 1099511628211ull;
	}
	h = ( h ^ (uint64_t)hull->faceCount ) * 1099511628211ull;
	return h;
}

// A box is a hull with 8 vertices and 6 faces in three opposite pairs with orthogonal normals.
// Plane i: n . x = d; its opposite: -n . x = d', so the box spans [-d', d] along n.
static bool tbDetectBox( const tbHull* hull, tbTransform* local, tbVec3* halfExtents )
{
	if ( hull->vertexCount != 8 || hull->faceCount != 6 )
	{
		return false;
	}
	tbVec3 axes[3];
	float centers[3];
	float halves[3];
	int axisCount = 0;
	bool used[6] = { false, false, false, false, false, false };
	for ( int i = 0; i < 6; ++i )
	{
		if ( used[i] )
		{
			continue;
		}
		int opposite = -1;
		for ( int j = i + 1; j < 6; ++j )
		{
			if ( used[j] == false && tbDot( hull->planes[i].normal, hull->planes[j].normal ) < -0.9999f )
			{
				opposite = j;
				break;
			}
		}
		if ( opposite < 0 || axisCount == 3 )
		{
			return false;
		}
		used[i] = used[opposite] = true;
		float d = hull->planes[i].offset;
		float dOpposite = hull->planes[opposite].offset;
		axes[axisCount] = hull->planes[i].normal;
		centers[axisCount] = 0.5f * ( d - dOpposite );
		halves[axisCount] = 0.5f * ( d + dOpposite );
		axisCount += 1;
	}
	if ( axisCount != 3 || tbAbsFloat( tbDot( axes[0], axes[1] ) ) > 1.0e-3f ||
		 tbAbsFloat( tbDot( axes[0], axes[2] ) ) > 1.0e-3f || tbAbsFloat( tbDot( axes[1], axes[2] ) ) > 1.0e-3f )
	{
		return false;
	}
	tbVec3 center = tbMulSV( centers[0], axes[0] );
	center = tbMulAdd( center, centers[1], axes[1] );
	center = tbMulAdd( center, centers[2], axes[2] );
	// The frame must be right-handed to be a rotation; flipping an axis leaves the box the same.
	if ( tbDot( tbCross( axes[0], axes[1] ), axes[2] ) < 0.0f )
	{
		axes[2] = tbNeg( axes[2] );
	}
	local->p = center;
	local->q = tbMakeQuatFromMatrix( tbMakeMat3( axes[0], axes[1], axes[2] ) );
	*halfExtents = tbMakeVec3( halves[0], halves[1], halves[2] );
	return true;
}

// Fan-triangulate each (convex) face; faces are counter-clockwise seen from outside.
static int tbBuildHullMesh( tbWorldDraw* draw, tbRenderer* renderer, const tbHull* hull )
{
	int triangles = 0;
	for ( int f = 0; f < hull->faceCount; ++f )
	{
		int sides = 0;
		int e = hull->faces[f].edge;
		do
		{
			sides += 1;
			e = hull->edges[e].next;
		} while ( e != hull->faces[f].edge && sides <= hull->edgeCount );
		triangles += sides - 2;
	}
	if ( triangles <= 0 || tbReserve( (void**)&draw->scratch, &draw->scratchCapacity, 3 * triangles,
									   sizeof( tbMeshVertex ) ) == false )
	{
		return tbMesh_cube;
	}
	int n = 0;
	for ( int f = 0; f < hull->faceCount; ++f )
	{
		tbVec3 normal = hull->planes[f].normal;
		int first = hull->faces[f].edge;
		tbVec3 v0 = hull->vertices[hull->edges[first].origin];
		int e = hull->edges[first].next;
		int guard = 0;
		while ( hull->edges[e].next != first && guard++ <= hull->edgeCount && n + 3 <= 3 * triangles )
		{
			tbVec3 corners[3] = { v0, hull->vertices[hull->edges[e].origin],
								  hull->vertices[hull->edges[hull->edges[e].next].origin] };
			for ( int k = 0; k < 3; ++k )
			{
				tbMeshVertex* v = draw->scratch + n++;
				v->position[0] = corners[k].x;
				v->position[1] = corners[k].y;
				v->position[2] = corners[k].z;
				v->normal[0] = normal.x;
				v->normal[1] = normal.y;
				v->normal[2] = normal.z;
				v->shade = 1.0f;
			}
			e = hull->edges[e].next;
		}
	}
	return tbRenderer_AddClosedMesh( renderer, draw->scratch, n );
}

// Past these, the cache is dropped and rebuilt from the live shapes (a scene that keeps creating
// and destroying distinct hulls would otherwise grow it forever).
#define TB_MAX_CACHED_SHAPES ( 1 << 20 )
#define TB_MAX_RENDER_MESH_VERTICES ( 4 << 20 )

// Three renderer vertices of one flat-shaded triangle.
static void tbPutTriangle( tbMeshVertex* out, const tbVec3 corners[3], tbVec3 normal, float shade )
{
	for ( int k = 0; k < 3; ++k )
	{
		out[k].position[0] = corners[k].x;
		out[k].position[1] = corners[k].y;
		out[k].position[2] = corners[k].z;
		out[k].normal[0] = normal.x;
		out[k].normal[1] = normal.y;
		out[k].normal[2] = normal.z;
		out[k].shade = shade;
	}
}

// A static triangle mesh as one renderer mesh in its body frame: flat face normals, every other
// triangle a little darker so the tessellation of level geometry reads at a glance. Culling is off,
// so both sides show.
static int tbBuildTriangleMesh( tbWorldDraw* draw, tbRenderer* renderer, const tbMesh* mesh )
{
	int triangles = mesh->triangleCount - mesh->degenerateCount;
	if ( triangles <= 0 ||
		 tbReserve( (void**)&draw->scratch, &draw->scratchCapacity, 3 * triangles, sizeof( tbMeshVertex ) ) == false )
	{
		return -1;
	}
	int n = 0;
	for ( int t = 0; t < mesh->triangleCount && n + 3 <= 3 * triangles; ++t )
	{
		tbVec3 normal = mesh->normals[t];
		if ( tbLengthSquared( normal ) == 0.0f )
		{
			continue;
		}
		const int32_t* idx = mesh->indices + 3 * t;
		tbVec3 corners[3] = { mesh->vertices[idx[0]], mesh->vertices[idx[1]], mesh->vertices[idx[2]] };
		tbPutTriangle( draw->scratch + n, corners, normal, ( t & 1 ) ? 0.9f : 1.0f );
		n += 3;
	}
	return tbRenderer_AddMesh( renderer, draw->scratch, n );
}

// A heightfield as one renderer mesh in its body frame, drawn as the mesh of its triangles would
// be (holes left open). A field of more than half the renderer's vertex budget (about 350,000
// cells) is not drawn: it would leave no room for the rest and reset the cache every frame.
static int tbBuildHeightfieldMesh( tbWorldDraw* draw, tbRenderer* renderer, const tbHeightfield* hf )
{
	int nx = hf->countX - 1, ny = hf->countY - 1;
	long cells = (long)nx * (long)ny - hf->holeCount;
	if ( cells <= 0 || 6 * cells > TB_MAX_RENDER_MESH_VERTICES / 2 ||
		 tbReserve( (void**)&draw->scratch, &draw->scratchCapacity, (int)( 6 * cells ), sizeof( tbMeshVertex ) ) == false )
	{
		return -1;
	}
	int n = 0;
	for ( int j = 0; j < ny; ++j )
	{
		for ( int i = 0; i < nx; ++i )
		{
			if ( hf->cellFlags[j * nx + i] & TB_HEIGHTFIELD_HOLE )
			{
				continue;
			}
			tbVec3 p[4];
			for ( int k = 0; k < 4; ++k )
			{
				int pi = i + ( k & 1 ), pj = j + ( k >> 1 );
				p[k] = tbMakeVec3( (float)pi * hf->cellX, (float)pj * hf->cellY, hf->heights[pj * hf->countX + pi] );
			}
			// The cell's two triangles, cut along the diagonal from (i, j) to (i + 1, j + 1).
			tbVec3 first[3] = { p[0], p[1], p[3] };
			tbVec3 second[3] = { p[0], p[3], p[2] };
			tbVec3 n0 = tbNormalize( tbCross( tbSub( p[1], p[0] ), tbSub( p[3], p[0] ) ) );
			tbVec3 n1 = tbNormalize( tbCross( tbSub( p[3], p[0] ), tbSub( p[2], p[0] ) ) );
			tbPutTriangle( draw->scratch + n, first, n0, 1.0f );
			tbPutTriangle( draw->scratch + n + 3, second, n1, 0.9f );
			n += 6;
		}
	}
	return tbRenderer_AddMesh( renderer, draw->scratch, n );
}

// The cache slot of a shape: found (its visual is ready) or empty (the caller fills it and counts
// it); NULL when the table cannot grow. Resets the cache when it is full.
static tbShapeVisual* tbGetVisualSlot( tbWorldDraw* draw, tbRenderer* renderer, tbShapeId id, bool* found )
{
	if ( draw->count >= TB_MAX_CACHED_SHAPES || tbRenderer_GetMeshVertexTotal( renderer ) >= TB_MAX_RENDER_MESH_VERTICES )
	{
		tbWorldDraw_Reset( draw, renderer );
	}
	if ( 2 * ( draw->count + 1 ) > draw->capacity && tbGrowSlots( draw ) == false )
	{
		return NULL;
	}
	tbShapeVisual* slot = tbFindSlot( draw->slots, draw->capacity, id );
	*found = slot->id.index1 != 0;
	if ( *found == false )
	{
		slot->id = id;
		slot->local = tb_transformIdentity;
		slot->scale = tbMakeVec3( 1.0f, 1.0f, 1.0f );
		slot->mesh = -1;
		draw->count += 1;
	}
	return slot;
}

static const tbShapeVisual* tbGetHullVisual( tbWorldDraw* draw, tbRenderer* renderer, tbShapeId id,
											 const tbHull* hull )
{
	bool found = false;
	tbShapeVisual* slot = tbGetVisualSlot( draw, renderer, id, &found );
	if ( slot == NULL || found )
	{
		return slot;
	}
	if ( tbDetectBox( hull, &slot->local, &slot->scale ) )
	{
		slot->mesh = tbMesh_cube;
		return slot;
	}
	uint64_t hash = tbHashHull( hull );
	for ( int i = 0; i < draw->hullMeshCount; ++i )
	{
		if ( draw->hullMeshes[i].hash == hash )
		{
			slot->mesh = draw->hullMeshes[i].mesh;
			return slot;
		}
	}
	slot->mesh = tbBuildHullMesh( draw, renderer, hull );
	if ( tbReserve( (void**)&draw->hullMeshes, &draw->hullMeshCapacity, draw->hullMeshCount + 1, sizeof( tbHullMesh ) ) )
	{
		draw->hullMeshes[draw->hullMeshCount].hash = hash;
		draw->hullMeshes[draw->hullMeshCount].mesh = slot->mesh;
		draw->hullMeshCount += 1;
	}
	return slot;
}

// Meshes and heightfields (one of the two given) are cached per shape like hulls (never shared:
// two are rarely equal).
static const tbShapeVisual* tbGetTriangleMeshVisual( tbWorldDraw* draw, tbRenderer* renderer, tbShapeId id,
													 const tbMesh* mesh, const tbHeightfield* hf )
{
	bool found = false;
	tbShapeVisual* slot = tbGetVisualSlot( draw, renderer, id, &found );
	if ( slot != NULL && found == false )
	{
		slot->mesh = mesh != NULL ? tbBuildTriangleMesh( draw, renderer, mesh ) : tbBuildHeightfieldMesh( draw, renderer, hf );
	}
	return slot;
}

// Colours ----------------------------------------------------------------------------------------

static tbRgba tbHsv( float h, float s, float v )
{
	float r = fabsf( fmodf( h * 6.0f + 0.0f, 6.0f ) - 3.0f ) - 1.0f;
	float g = 2.0f - fabsf( fmodf( h * 6.0f, 6.0f ) - 2.0f );
	float b = 2.0f - fabsf( fmodf( h * 6.0f, 6.0f ) - 4.0f );
	r = tbClampFloat( r, 0.0f, 1.0f );
	g = tbClampFloat( g, 0.0f, 1.0f );
	b = tbClampFloat( b, 0.0f, 1.0f );
	float k = v * 255.0f;
	return tbMakeRgba( (int)( k * ( 1.0f - s + s * r ) ), (int)( k * ( 1.0f - s + s * g ) ),
					   (int)( k * ( 1.0f - s + s * b ) ), 255 );
}

static tbRgba tbMix( tbRgba a, tbRgba b, float t )
{
	return tbMakeRgba( (int)( a.r + t * ( b.r - a.r ) ), (int)( a.g + t * ( b.g - a.g ) ),
					   (int)( a.b + t * ( b.b - a.b ) ), (int)( a.a + t * ( b.a - a.a ) ) );
}

tbRgba tbWorldDraw_BodyColor( tbBodyId body, unsigned flags )
{
	tbBodyType type = tbBody_GetType( body );
	if ( type == tbBody_static )
	{
		return tbMakeRgba( 138, 140, 146, 255 );
	}
	if ( type == tbBody_kinematic )
	{
		return tbMakeRgba( 96, 150, 214, 255 );
	}
	// Golden-ratio steps round the hue circle keep neighbouring indices far apart in colour.
	float hue = fmodf( (float)body.index1 * 0.618034f + 0.08f, 1.0f );
	tbRgba color = tbHsv( hue, 0.55f, 0.92f );
	if ( tbBody_IsAwake( body ) == false )
	{
		if ( flags & tbDebug_sleep )
		{
			return tbMakeRgba( 70, 82, 168, 255 );
		}
		return tbMix( color, tbMakeRgba( 90, 92, 100, 255 ), 0.55f );
	}
	return color;
}

// Debug shapes -----------------------------------------------------------------------------------

static void tbDrawBox( tbRenderer* r, tbAABB box, tbRgba color )
{
	tbRenderer_WireBox( r, tbMulSV( 0.5f, tbAdd( box.lowerBound, box.upperBound ) ),
						tbMulSV( 0.5f, tbSub( box.upperBound, box.lowerBound ) ), tb_quatIdentity, color );
}

static void tbDrawFrame( tbRenderer* r, tbTransform frame, float size, int alpha )
{
	tbVec3 o = frame.p;
	tbRenderer_Line( r, o, tbMulAdd( o, size, tbRotate( frame.q, tbMakeVec3( 1, 0, 0 ) ) ),
					 tbMakeRgba( 255, 70, 60, alpha ), true );
	tbRenderer_Line( r, o, tbMulAdd( o, size, tbRotate( frame.q, tbMakeVec3( 0, 1, 0 ) ) ),
					 tbMakeRgba( 80, 230, 80, alpha ), true );
	tbRenderer_Line( r, o, tbMulAdd( o, size, tbRotate( frame.q, tbMakeVec3( 0, 0, 1 ) ) ),
					 tbMakeRgba( 80, 140, 255, alpha ), true );
}

// Arc about frame x from angle a0 to a1, measured from frame y towards frame z.
static void tbDrawArc( tbRenderer* r, tbTransform frame, float radius, float a0, float a1, tbRgba color )
{
	const int segments = 24;
	tbVec3 y = tbRotate( frame.q, tbMakeVec3( 0, 1, 0 ) );
	tbVec3 z = tbRotate( frame.q, tbMakeVec3( 0, 0, 1 ) );
	tbVec3 previous = tb_vec3_zero;
	for ( int i = 0; i <= segments; ++i )
	{
		float a = a0 + ( a1 - a0 ) * (float)i / (float)segments;
		tbVec3 p = tbMulAdd( tbMulAdd( frame.p, radius * cosf( a ), y ), radius * sinf( a ), z );
		if ( i > 0 )
		{
			tbRenderer_Line( r, previous, p, color, true );
		}
		previous = p;
	}
	tbRenderer_Line( r, frame.p, tbMulAdd( tbMulAdd( frame.p, radius * cosf( a0 ), y ), radius * sinf( a0 ), z ),
					 color, true );
	tbRenderer_Line( r, frame.p, tbMulAdd( tbMulAdd( frame.p, radius * cosf( a1 ), y ), radius * sinf( a1 ), z ),
					 color, true );
}

static void tbDrawCone( tbRenderer* r, tbTransform frame, float length, float angle, tbRgba color )
{
	const int segments = 24;
	tbVec3 x = tbRotate( frame.q, tbMakeVec3( 1, 0, 0 ) );
	tbVec3 y = tbRotate( frame.q, tbMakeVec3( 0, 1, 0 ) );
	tbVec3 z = tbRotate( frame.q, tbMakeVec3( 0, 0, 1 ) );
	tbVec3 previous = tb_vec3_zero;
	for ( int i = 0; i <= segments; ++i )
	{
		float phi = 2.0f * TB_PI * (float)i / (float)segments;
		tbVec3 side = tbAdd( tbMulSV( cosf( phi ), y ), tbMulSV( sinf( phi ), z ) );
		tbVec3 d = tbAdd( tbMulSV( cosf( angle ), x ), tbMulSV( sinf( angle ), side ) );
		tbVec3 p = tbMulAdd( frame.p, length, d );
		if ( i > 0 )
		{
			tbRenderer_Line( r, previous, p, color, true );
		}
		if ( i % 6 == 0 )
		{
			tbRenderer_Line( r, frame.p, p, color, true );
		}
		previous = p;
	}
}

// True when p lies within 1 cm of the box of one of the body's shapes.
static bool tbNearBodyShapes( tbBodyId body, tbVec3 p )
{
	tbShapeId shapes[8];
	int count = tbBody_GetShapes( body, shapes, 8 );
	if ( count > 8 )
	{
		// A compound of many parts: taken as reaching its anchors.
		return true;
	}
	for ( int i = 0; i < count; ++i )
	{
		tbAABB box = tbShape_GetAABB( shapes[i] );
		const float margin = 0.01f;
		if ( p.x >= box.lowerBound.x - margin && p.x <= box.upperBound.x + margin && p.y >= box.lowerBound.y - margin &&
			 p.y <= box.upperBound.y + margin && p.z >= box.lowerBound.z - margin && p.z <= box.upperBound.z + margin )
		{
			return true;
		}
	}
	return false;
}

// Joints drawn always as links (the frames and limits are the debug layer), so that a pendulum is
// not a floating ball: a distance joint as the rod or rope between its anchors; any other joint as
// a rod from a body's centre of mass to its anchor where the anchor lies away from the body's
// shapes (a ball or hinge joint holding a bob from a pivot). Joints whose anchors lie on or in
// their bodies, as in chains of touching links and ragdolls, draw nothing: a pin or strut there
// would only cover small bodies (a chain of 1000 cubes turned white with them).
static void tbDrawJointLink( tbRenderer* r, tbJointId joint )
{
	tbJointType type = tbJoint_GetType( joint );
	if ( type == tbJoint_mouse || tbJoint_IsBroken( joint ) || tbJoint_IsEnabled( joint ) == false )
	{
		return;
	}
	const tbRgba color = tbMakeRgba( 225, 228, 235, 255 );
	tbVec3 anchorA = tbJoint_GetWorldFrameA( joint ).p;
	tbVec3 anchorB = tbJoint_GetWorldFrameB( joint ).p;
	if ( type == tbJoint_distance )
	{
		tbRenderer_Line( r, anchorA, anchorB, color, false );
		return;
	}
	tbBodyId bodies[2] = { tbJoint_GetBodyA( joint ), tbJoint_GetBodyB( joint ) };
	tbVec3 anchors[2] = { anchorA, anchorB };
	for ( int side = 0; side < 2; ++side )
	{
		if ( TB_IS_NON_NULL( bodies[side] ) && tbNearBodyShapes( bodies[side], anchors[side] ) == false )
		{
			tbRenderer_Line( r, tbBody_GetWorldCenterOfMass( bodies[side] ), anchors[side], color, false );
		}
	}
}

static void tbDrawJoint( tbRenderer* r, tbJointId joint )
{
	tbTransform frameA = tbJoint_GetWorldFrameA( joint );
	tbTransform frameB = tbJoint_GetWorldFrameB( joint );
	tbBodyId bodyA = tbJoint_GetBodyA( joint );
	tbBodyId bodyB = tbJoint_GetBodyB( joint );
	tbRgba link = tbMakeRgba( 200, 200, 200, 150 );
	if ( TB_IS_NON_NULL( bodyA ) )
	{
		tbRenderer_Line( r, tbBody_GetPosition( bodyA ), frameA.p, link, true );
	}
	if ( TB_IS_NON_NULL( bodyB ) )
	{
		tbRenderer_Line( r, tbBody_GetPosition( bodyB ), frameB.p, link, true );
	}
	tbJointType type = tbJoint_GetType( joint );
	if ( type == tbJoint_mouse )
	{
		tbRenderer_Line( r, frameB.p, tbMouseJoint_GetTarget( joint ), tbMakeRgba( 255, 220, 60, 255 ), true );
		return;
	}
	tbRenderer_Line( r, frameA.p, frameB.p, tbMakeRgba( 255, 160, 40, 255 ), true );
	tbDrawFrame( r, frameA, 0.35f, 255 );
	tbDrawFrame( r, frameB, 0.25f, 160 );
	tbRgba limit = tbMakeRgba( 255, 230, 90, 220 );
	if ( type == tbJoint_hinge && tbHingeJoint_IsLimitEnabled( joint ) )
	{
		tbDrawArc( r, frameA, 0.3f, tbHingeJoint_GetLowerLimit( joint ), tbHingeJoint_GetUpperLimit( joint ), limit );
	}
	else if ( type == tbJoint_slider && tbSliderJoint_IsLimitEnabled( joint ) )
	{
		tbVec3 x = tbRotate( frameA.q, tbMakeVec3( 1, 0, 0 ) );
		tbVec3 lo = tbMulAdd( frameA.p, tbSliderJoint_GetLowerLimit( joint ), x );
		tbVec3 hi = tbMulAdd( frameA.p, tbSliderJoint_GetUpperLimit( joint ), x );
		tbRenderer_Line( r, lo, hi, limit, true );
		tbRenderer_Point( r, lo, limit );
		tbRenderer_Point( r, hi, limit );
	}
	else if ( type == tbJoint_wheel && tbWheelJoint_IsLimitEnabled( joint ) )
	{
		// The suspension's travel, along frame A's z axis.
		tbVec3 z = tbRotate( frameA.q, tbMakeVec3( 0, 0, 1 ) );
		tbVec3 lo = tbMulAdd( frameA.p, tbWheelJoint_GetLowerLimit( joint ), z );
		tbVec3 hi = tbMulAdd( frameA.p, tbWheelJoint_GetUpperLimit( joint ), z );
		tbRenderer_Line( r, lo, hi, limit, true );
		tbRenderer_Point( r, lo, limit );
		tbRenderer_Point( r, hi, limit );
	}
	else if ( type == tbJoint_cone && tbConeJoint_IsConeLimitEnabled( joint ) )
	{
		tbDrawCone( r, frameA, 0.4f, tbConeJoint_GetConeAngle( joint ), limit );
	}
}

// Drawing ----------------------------------------------------------------------------------------

// Past this distance per metre of radius a sphere spans few enough pixels (about 20 at 720 pixels
// and a 50 degree view) that 72 triangles look the same as 288.
#define TB_LOW_DETAIL_RATIO 40.0f

static bool tbFar( tbVec3 eye, tbVec3 p, float radius )
{
	float limit = TB_LOW_DETAIL_RATIO * radius;
	return tbDistanceSquared( eye, p ) > limit * limit;
}

static void tbDrawShape( tbWorldDraw* draw, tbRenderer* r, tbShapeId shape, tbTransform xf, tbRgba color,
						 tbVec3 eye )
{
	switch ( tbShape_GetType( shape ) )
	{
		case tbShape_sphere:
		{
			const tbSphere* s = tbShape_GetSphere( shape );
			if ( s != NULL )
			{
				tbVec3 p = tbTransformPoint( xf, s->center );
				tbRenderer_Instance( r, tbFar( eye, p, s->radius ) ? tbMesh_sphereLow : tbMesh_sphere, p, xf.q,
									 tbMakeVec3( s->radius, s->radius, s->radius ), color );
			}
			break;
		}
		case tbShape_capsule:
		{
			const tbCapsule* c = tbShape_GetCapsule( shape );
			if ( c == NULL )
			{
				break;
			}
			tbVec3 axis = tbSub( c->center2, c->center1 );
			float length = 0.0f;
			tbVec3 direction = tbGetLengthAndNormalize( &length, axis );
			tbQuat local = length > 0.0f ? tbQuatFromTo( tbMakeVec3( 0, 0, 1 ), direction ) : tb_quatIdentity;
			tbQuat q = tbMulQQ( xf.q, local );
			tbVec3 radius = tbMakeVec3( c->radius, c->radius, c->radius );
			tbVec3 mid = tbTransformPoint( xf, tbMulSV( 0.5f, tbAdd( c->center1, c->center2 ) ) );
			bool far = tbFar( eye, mid, c->radius + 0.5f * length );
			tbRenderer_Instance( r, far ? tbMesh_cylinderLow : tbMesh_cylinder, mid, q,
								 tbMakeVec3( c->radius, c->radius, tbMaxFloat( 0.5f * length, 1.0e-4f ) ), color );
			int cap = far ? tbMesh_sphereLow : tbMesh_sphere;
			tbRenderer_Instance( r, cap, tbTransformPoint( xf, c->center1 ), q, radius, color );
			tbRenderer_Instance( r, cap, tbTransformPoint( xf, c->center2 ), q, radius, color );
			break;
		}
		case tbShape_cylinder:
		{
			const tbCylinder* c = tbShape_GetCylinder( shape );
			if ( c == NULL )
			{
				break;
			}
			float length = 0.0f;
			tbVec3 direction = tbGetLengthAndNormalize( &length, tbSub( c->center2, c->center1 ) );
			tbQuat q = tbMulQQ( xf.q, tbQuatFromTo( tbMakeVec3( 0, 0, 1 ), direction ) );
			tbVec3 mid = tbTransformPoint( xf, tbMulSV( 0.5f, tbAdd( c->center1, c->center2 ) ) );
			bool far = tbFar( eye, mid, tbMaxFloat( c->radius, 0.5f * length ) );
			tbRenderer_Instance( r, far ? tbMesh_solidCylinderLow : tbMesh_solidCylinder, mid, q,
								 tbMakeVec3( c->radius, c->radius, 0.5f * length ), color );
			break;
		}
		case tbShape_mesh:
		case tbShape_heightfield:
		{
			const tbMesh* mesh = tbShape_GetMesh( shape );
			const tbHeightfield* hf = tbShape_GetHeightfield( shape );
			const tbShapeVisual* visual = mesh != NULL || hf != NULL ? tbGetTriangleMeshVisual( draw, r, shape, mesh, hf ) : NULL;
			if ( visual != NULL && visual->mesh >= 0 )
			{
				tbRenderer_Instance( r, visual->mesh, xf.p, xf.q, visual->scale, color );
			}
			break;
		}
		case tbShape_hull:
		{
			const tbHull* hull = tbShape_GetHull( shape );
			const tbShapeVisual* visual = hull != NULL ? tbGetHullVisual( draw, r, shape, hull ) : NULL;
			if ( visual != NULL )
			{
				tbTransform world = tbMulTransforms( xf, visual->local );
				tbRenderer_Instance( r, visual->mesh, world.p, world.q, visual->scale, color );
			}
			break;
		}
		default:
			break;
	}
}

// Broad-phase tree layer: inner nodes cycle through six hues by depth so that siblings at one level
// share a colour; leaves (one shape's fattened box) are drawn faint, as the aabbs layer shows them.
static bool tbDrawTreeNode( tbAABB box, int depth, bool isLeaf, tbBodyType tree, void* context )
{
	static const tbRgba hues[6] = { { 255, 90, 90, 255 },	{ 255, 190, 60, 255 }, { 200, 255, 80, 255 },
									{ 70, 230, 200, 255 }, { 90, 150, 255, 255 }, { 220, 110, 255, 255 } };
	tbRenderer* r = context;
	tbRgba color = isLeaf ? tbMakeRgba( 200, 200, 200, 60 ) : hues[depth % 6];
	// The static tree's inner nodes are dimmer: they never change and would hide the moving ones.
	if ( isLeaf == false && tree == tbBody_static )
	{
		color.a = 110;
	}
	tbDrawBox( r, box, color );
	return true;
}

// Kinetic energy of a rigid body: translation of the centre of mass plus rotation about it, with the
// principal inertia in body axes (so the angular velocity is taken to body axes first).
static float tbKineticEnergy( tbBodyId body, tbQuat q )
{
	float mass = tbBody_GetMass( body );
	tbVec3 v = tbBody_GetLinearVelocity( body );
	tbVec3 w = tbInvRotate( q, tbBody_GetAngularVelocity( body ) );
	tbMat3 inertia = tbBody_GetLocalInertia( body );
	return 0.5f * mass * tbDot( v, v ) + 0.5f * tbDot( w, tbMulMV( inertia, w ) );
}

void tbWorldDraw_Draw( tbWorldDraw* draw, tbRenderer* r, tbWorldId world, unsigned flags, tbBodyId selected,
					   tbVec3 eye, tbWorldDrawStats* stats )
{
	memset( stats, 0, sizeof( *stats ) );
	if ( tbWorld_IsValid( world ) == false )
	{
		return;
	}
	int bodyCount = tbWorld_GetBodies( world, draw->bodies, draw->bodyCapacity );
	if ( bodyCount > draw->bodyCapacity )
	{
		if ( tbReserve( (void**)&draw->bodies, &draw->bodyCapacity, bodyCount, sizeof( tbBodyId ) ) == false )
		{
			return;
		}
		bodyCount = tbWorld_GetBodies( world, draw->bodies, draw->bodyCapacity );
	}
	stats->bodyCount = bodyCount;

	for ( int i = 0; i < bodyCount; ++i )
	{
		tbBodyId body = draw->bodies[i];
		tbTransform xf = tbBody_GetTransform( body );
		tbBodyType type = tbBody_GetType( body );
		tbRgba color = tbWorldDraw_BodyColor( body, flags );
		if ( TB_ID_EQUALS( body, selected ) )
		{
			color = tbMix( color, tbMakeRgba( 255, 255, 255, 255 ), 0.45f );
		}

		int shapeCount = tbBody_GetShapes( body, draw->shapes, draw->shapeCapacity );
		if ( shapeCount > draw->shapeCapacity )
		{
			if ( tbReserve( (void**)&draw->shapes, &draw->shapeCapacity, shapeCount, sizeof( tbShapeId ) ) == false )
			{
				continue;
			}
			shapeCount = tbBody_GetShapes( body, draw->shapes, draw->shapeCapacity );
		}
		for ( int s = 0; s < shapeCount; ++s )
		{
			tbDrawShape( draw, r, draw->shapes[s], xf, color, eye );
			if ( flags & tbDebug_aabbs )
			{
				tbDrawBox( r, tbShape_GetAABB( draw->shapes[s] ), tbMakeRgba( 120, 255, 160, 170 ) );
			}
		}

		if ( type == tbBody_dynamic )
		{
			stats->kineticEnergy += tbKineticEnergy( body, xf.q );
		}
		if ( type != tbBody_static && ( flags & ( tbDebug_centers | tbDebug_velocities ) ) )
		{
			tbVec3 c = tbBody_GetWorldCenterOfMass( body );
			if ( flags & tbDebug_centers )
			{
				tbDrawFrame( r, tbMakeTransform( c, xf.q ), 0.2f, 255 );
				tbRenderer_Point( r, c, tbMakeRgba( 255, 255, 255, 255 ) );
			}
			if ( flags & tbDebug_velocities )
			{
				// 0.25 s of travel (and of rotation, in rad, as an axis vector).
				tbRenderer_Line( r, c, tbMulAdd( c, 0.25f, tbBody_GetLinearVelocity( body ) ),
								 tbMakeRgba( 60, 230, 255, 255 ), true );
				tbRenderer_Line( r, c, tbMulAdd( c, 0.25f, tbBody_GetAngularVelocity( body ) ),
								 tbMakeRgba( 255, 80, 255, 255 ), true );
			}
		}

		// Each joint is listed by both its bodies: count it once, from its first non-null body.
		int jointCount = tbBody_GetJoints( body, draw->joints, draw->jointCapacity );
		if ( jointCount > draw->jointCapacity )
		{
			if ( tbReserve( (void**)&draw->joints, &draw->jointCapacity, jointCount, sizeof( tbJointId ) ) == false )
			{
				continue;
			}
			jointCount = tbBody_GetJoints( body, draw->joints, draw->jointCapacity );
		}
		for ( int j = 0; j < jointCount; ++j )
		{
			tbJointId joint = draw->joints[j];
			tbBodyId a = tbJoint_GetBodyA( joint );
			tbBodyId owner = TB_IS_NON_NULL( a ) ? a : tbJoint_GetBodyB( joint );
			if ( TB_ID_EQUALS( owner, body ) == false )
			{
				continue;
			}
			stats->jointCount += 1;
			float positionError = 0.0f;
			float angleError = 0.0f;
			if ( tbJointCountsForError( joint ) && tbJoint_GetError( joint, &positionError, &angleError ) == tbResult_ok )
			{
				stats->maxJointError = tbMaxFloat( stats->maxJointError, positionError );
			}
			if ( flags & tbDebug_joints )
			{
				tbDrawJoint( r, joint );
			}
			else
			{
				tbDrawJointLink( r, joint );
			}
		}
	}

	if ( flags & tbDebug_tree )
	{
		tbWorld_VisitBroadPhase( world, tbDrawTreeNode, r );
	}

	if ( flags & tbDebug_contacts )
	{
		int count = tbWorld_GetContacts( world, draw->contacts, draw->contactCapacity );
		if ( count > draw->contactCapacity &&
			 tbReserve( (void**)&draw->contacts, &draw->contactCapacity, count, sizeof( tbContactData ) ) )
		{
			count = tbWorld_GetContacts( world, draw->contacts, draw->contactCapacity );
		}
		count = tbMinInt( count, draw->contactCapacity );
		for ( int i = 0; i < count; ++i )
		{
			const tbManifold* m = &draw->contacts[i].manifold;
			for ( int k = 0; k < m->pointCount; ++k )
			{
				const tbManifoldPoint* p = m->points + k;
				bool deep = p->separation < -TB_LINEAR_SLOP;
				tbRgba color = deep ? tbMakeRgba( 255, 60, 40, 255 ) : tbMakeRgba( 255, 235, 60, 255 );
				tbRenderer_Point( r, p->point, color );
				tbRenderer_Line( r, p->point, tbMulAdd( p->point, 0.3f, m->normal ), tbMakeRgba( 255, 255, 255, 220 ),
								 true );
			}
		}
	}
}

void tbWorldDraw_Grid( tbRenderer* r, tbVec3 around, float extent )
{
	int half = (int)extent;
	float cx = floorf( around.x );
	float cy = floorf( around.y );
	for ( int i = -half; i <= half; ++i )
	{
		float x = cx + (float)i;
		float y = cy + (float)i;
		bool majorX = ( (int)x % 5 ) == 0;
		bool majorY = ( (int)y % 5 ) == 0;
		tbRgba colorX = x == 0.0f ? tbMakeRgba( 230, 90, 80, 150 ) : tbMakeRgba( 255, 255, 255, majorX ? 56 : 24 );
		tbRgba colorY = y == 0.0f ? tbMakeRgba( 110, 220, 110, 150 ) : tbMakeRgba( 255, 255, 255, majorY ? 56 : 24 );
		tbRenderer_Line( r, tbMakeVec3( x, cy - extent, 0.0f ), tbMakeVec3( x, cy + extent, 0.0f ), colorX, false );
		tbRenderer_Line( r, tbMakeVec3( cx - extent, y, 0.0f ), tbMakeVec3( cx + extent, y, 0.0f ), colorY, false );
	}
}

bool tbWorldDraw_GetBounds( tbWorldId world, tbVec3* lower, tbVec3* upper )
{
	int count = tbWorld_GetBodies( world, NULL, 0 );
	if ( count <= 0 )
	{
		return false;
	}
	tbBodyId* bodies = malloc( (size_t)count * sizeof( tbBodyId ) );
	if ( bodies == NULL )
	{
		return false;
	}
	count = tbWorld_GetBodies( world, bodies, count );
	bool found = false;
	tbAABB box = { tb_vec3_zero, tb_vec3_zero };
	// First pass moving bodies only (a large ground would dominate); then everything.
	for ( int pass = 0; pass < 2 && found == false; ++pass )
	{
		for ( int i = 0; i < count; ++i )
		{
			if ( pass == 0 && tbBody_GetType( bodies[i] ) == tbBody_static )
			{
				continue;
			}
			tbAABB b = tbBody_ComputeAABB( bodies[i] );
			if ( tbAABB_IsValid( b ) == false )
			{
				continue;
			}
			box = found ? tbAABB_Union( box, b ) : b;
			found = true;
		}
	}
	free( bodies );
	*lower = box.lowerBound;
	*upper = box.upperBound;
	return found;
}
