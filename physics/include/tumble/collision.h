// Tumble physics: shape geometry, mass properties, GJK/EPA, ray and shape casts, time of impact,
// contact manifolds and the dynamic AABB tree. Everything here is usable without a world.
// SPDX-License-Identifier: MIT
#pragma once

#include "base.h"
#include "math_functions.h"

// Input limits. Values outside them are refused with tbResult_invalidArgument: beyond them float
// arithmetic in the step (volumes ~ size^3, inertia ~ size^5, impulses ~ mass * speed) overflows
// or loses all precision, and a sandbox must not be able to poison a world with them.
/// Largest |coordinate| of a body position, m.
#define TB_MAX_POSITION 1.0e6f
/// Largest |component| of a query's ray origin and translation or shape position, m: ten times the
/// world's extent. Floats there are 1 m apart; further out a hit point rounds onto the shape's
/// centre (a zero normal from 1e8 m) and squares overflow (NaN from 3.4e38 m). Past it, no hit.
#define TB_MAX_QUERY_COORDINATE 1.0e7f
/// Largest shape dimension or local offset, m.
#define TB_MAX_SHAPE_SIZE 1.0e4f
/// Smallest shape radius / half extent / hull extent, m.
#define TB_MIN_SHAPE_SIZE 1.0e-3f
/// Density range, kg/m^3 (0 is also accepted: a shape that adds no mass).
#define TB_MIN_DENSITY 1.0e-6f
#define TB_MAX_DENSITY 1.0e6f
/// Largest linear speed given to a body, m/s, and angular speed, rad/s.
#define TB_MAX_SPEED 1.0e5f
#define TB_MAX_ANGULAR_SPEED 1.0e4f
/// Largest force / impulse / torque accepted, N (N s, N m).
#define TB_MAX_FORCE 1.0e12f
/// Largest |gravity scale| of a body.
#define TB_MAX_GRAVITY_SCALE 1.0e6f
/// Mass range of a dynamic body, kg: lighter bodies are made this heavy (tiny densities).
#define TB_MIN_MASS 1.0e-6f
#define TB_MAX_MASS 1.0e12f
/// Largest |component| of the world's gravity, m/s^2 (a thousand g).
#define TB_MAX_GRAVITY 1.0e4f
/// Largest friction and restitution coefficients of a shape (real materials are below 2 and 1).
#define TB_MAX_FRICTION 1.0e3f
#define TB_MAX_RESTITUTION 1.0e3f
/// Largest linear or angular damping of a body, 1/s (damps a velocity to nothing in a microsecond).
#define TB_MAX_DAMPING 1.0e6f
/// Largest stiffness of a soft constraint (contacts, joints, springs), Hz: past it a constraint is
/// rigid to float precision at any time step the world accepts.
#define TB_MAX_HERTZ 1.0e6f

/// Largest number of input points accepted by the hull builder.
#define TB_MAX_HULL_POINTS 1024
/// Largest number of points in a contact manifold.
#define TB_MAX_MANIFOLD_POINTS 4
/// Collision margin used by the narrow phase and the solver: a contact becomes active once the
/// shapes are closer than this (speculative contact), in metres.
#define TB_SPECULATIVE_DISTANCE 0.02f
/// Fattening added to tree AABBs so small motion does not re-insert proxies, in metres.
#define TB_AABB_MARGIN 0.05f
/// Distances below this are treated as touching, in metres.
#define TB_LINEAR_SLOP 0.005f

// Primitive shapes -------------------------------------------------------------------------------
// All geometry is in the body's local frame: a shape never carries a transform of its own. A box
// or hull placed off-centre in a compound has its vertices transformed when it is built.

/// Solid sphere.
typedef struct tbSphere
{
	tbVec3 center; ///< metres, body frame
	float radius;  ///< metres, > 0
} tbSphere;

/// Solid capsule: the points within radius of the segment center1-center2.
typedef struct tbCapsule
{
	tbVec3 center1, center2; ///< metres, body frame
	float radius;            ///< metres, > 0
} tbCapsule;

/// Solid cylinder: the points within radius of the axis segment center1-center2, cut off by the
/// planes through the two centres perpendicular to it (flat caps, sharp rims).
typedef struct tbCylinder
{
	tbVec3 center1, center2; ///< cap centres, metres, body frame; at least 2 TB_MIN_SHAPE_SIZE apart
	float radius;            ///< metres, > 0
} tbCylinder;

/// A cylinder about center with its axis along rotation's z (the capsule's convention).
TB_INLINE tbCylinder tbMakeCylinder( tbVec3 center, tbQuat rotation, float radius, float halfHeight )
{
	tbVec3 axis = tbRotate( rotation, tbMakeVec3( 0.0f, 0.0f, halfHeight ) );
	tbCylinder cylinder = { tbSub( center, axis ), tbAdd( center, axis ), radius };
	return cylinder;
}

/// Half-edge of a convex hull. Indices refer to the hull's own arrays.
typedef struct tbHullHalfEdge
{
	uint16_t next;   ///< next half-edge around the same face, counter-clockwise seen from outside
	uint16_t twin;   ///< the opposite half-edge (same edge, neighbouring face)
	uint16_t origin; ///< vertex index this half-edge starts at
	uint16_t face;   ///< face this half-edge belongs to
} tbHullHalfEdge;

/// Face of a convex hull: one of its half-edges. The face plane is planes[faceIndex].
typedef struct tbHullFace
{
	uint16_t edge;
} tbHullFace;

/// Convex polyhedron with half-edge topology. One allocation holds the header and every array;
/// the array pointers point into that same block, so a hull is copied with tbCloneHull only.
/// Faces are merged polygons (coplanar triangles fused), so a box has 6 faces, 12 edges (24
/// half-edges) and 8 vertices.
typedef struct tbHull
{
	int vertexCount;
	int edgeCount; ///< number of half-edges (twice the number of edges)
	int faceCount;
	int byteCount; ///< size of the whole allocation
	tbVec3 centroid;   ///< volume centroid, body frame
	float innerRadius; ///< radius of a sphere about the centroid that fits inside
	tbAABB bounds;     ///< local bounds
	tbVec3* vertices;
	tbHullHalfEdge* edges;
	tbHullFace* faces;
	tbPlane* planes; ///< outward face planes, one per face
} tbHull;

/// Build the convex hull of a point cloud (quickhull). Returns NULL and sets *result on failure:
/// tbResult_invalidArgument for NaN/inf or count < 4, tbResult_degenerateHull for coplanar,
/// collinear or coincident input (within a tolerance scaled to the cloud's size),
/// tbResult_tooManyPoints past TB_MAX_HULL_POINTS. Never hangs or crashes on any input.
/// Coplanar faces are merged and near-duplicate points welded.
TB_API tbHull* tbComputeHull( const tbVec3* points, int count, tbResult* result );

/// A box hull with the given half extents (metres, > 0), placed by the local transform.
TB_API tbHull* tbMakeBoxHull( tbVec3 halfExtents, tbTransform localTransform );

/// A deep copy of a hull (one allocation).
TB_API tbHull* tbCloneHull( const tbHull* hull );

/// Free a hull made by any function above.
TB_API void tbDestroyHull( tbHull* hull );

/// Check topology and convexity (for tests and TB_VALIDATE builds).
TB_API bool tbValidateHull( const tbHull* hull );

// Mass -------------------------------------------------------------------------------------------

/// Mass properties of a solid of uniform density.
typedef struct tbMassData
{
	float mass;            ///< kg
	tbVec3 center;         ///< centre of mass, body frame, m
	tbMat3 rotationalInertia; ///< about the centre of mass, body axes, kg m^2
} tbMassData;

TB_API tbMassData tbComputeSphereMass( const tbSphere* shape, float density );
TB_API tbMassData tbComputeCapsuleMass( const tbCapsule* shape, float density );
/// Exact for the polyhedron (integration over tetrahedra from the centroid).
TB_API tbMassData tbComputeHullMass( const tbHull* shape, float density );
/// m = density pi r^2 L, about the axis m r^2 / 2, across it m (3 r^2 + L^2) / 12 (L = the length).
TB_API tbMassData tbComputeCylinderMass( const tbCylinder* shape, float density );

/// Local bounding boxes under a transform.
TB_API tbAABB tbComputeSphereAABB( const tbSphere* shape, tbTransform xf );
TB_API tbAABB tbComputeCapsuleAABB( const tbCapsule* shape, tbTransform xf );
TB_API tbAABB tbComputeHullAABB( const tbHull* shape, tbTransform xf );
/// Exact: each cap disk reaches r sqrt(1 - u_i^2) along world axis i (u the unit axis).
TB_API tbAABB tbComputeCylinderAABB( const tbCylinder* shape, tbTransform xf );

// Ray casts --------------------------------------------------------------------------------------

/// A ray from origin along translation; hits are reported for fractions in [0, maxFraction].
typedef struct tbRayCastInput
{
	tbVec3 origin;
	tbVec3 translation;
	float maxFraction;
} tbRayCastInput;

/// Result of a ray or shape cast.
typedef struct tbCastOutput
{
	tbVec3 normal; ///< surface normal at the hit, pointing against the ray
	tbVec3 point;  ///< hit point
	float fraction;
	int iterations;
	bool hit;
} tbCastOutput;

/// How far inside a surface (m) a ray's origin may be and still count as on it.
#define TB_RAY_SURFACE_TOLERANCE 1.0e-4f

/// Ray casts against shapes in their local frame (transform the ray into the body frame first).
/// A ray starting inside a solid reports no hit; one starting on its surface (up to
/// TB_RAY_SURFACE_TOLERANCE inside) and heading into it reports a hit at fraction 0, with the
/// normal of the surface it starts on.
TB_API tbCastOutput tbRayCastSphere( const tbRayCastInput* input, const tbSphere* shape );
TB_API tbCastOutput tbRayCastCapsule( const tbRayCastInput* input, const tbCapsule* shape );
TB_API tbCastOutput tbRayCastHull( const tbRayCastInput* input, const tbHull* shape );
/// Exact: the side (a quadratic) and the flat caps.
TB_API tbCastOutput tbRayCastCylinder( const tbRayCastInput* input, const tbCylinder* shape );

// Triangle meshes --------------------------------------------------------------------------------

/// Largest number of triangles and vertices of a mesh. Beyond these the tree and the index
/// arrays (about 70 bytes per triangle) stop being reasonable level geometry.
#define TB_MAX_MESH_TRIANGLES ( 1 << 20 )
#define TB_MAX_MESH_VERTICES ( 1 << 21 )

/// Node of a mesh's bounding volume hierarchy (built once, top down, never changed).
typedef struct tbMeshNode
{
	tbAABB aabb;   ///< body frame
	int32_t start; ///< inner node: index of the second child (the first is the next node); leaf: first slot in order[]
	int32_t count; ///< triangles in a leaf, 0 for an inner node
} tbMeshNode;

/// Bit i of tbMesh::edgeFlags[t]: edge i of triangle t (vertex i to vertex i + 1) is active: a
/// boundary edge, a non-manifold edge or a convex crease sharper than TB_MESH_ACTIVE_EDGE_ANGLE.
/// Contacts on inactive edges (flat or concave) take the face normal, so nothing catches on the
/// seams of a tessellated surface.
#define TB_MESH_ACTIVE_EDGE_ANGLE 0.0872665f

/// Static triangle mesh: shared, read-only geometry in the body frame. One allocation holds the
/// header and every array. Triangles are two-sided; the face normal follows the right-hand rule
/// (counter-clockwise seen from the front), and edge convexity is judged from the front side.
typedef struct tbMesh
{
	int vertexCount;
	int triangleCount;   ///< as given, including skipped degenerate triangles
	int degenerateCount; ///< zero-area triangles: kept in indices but never collided or hit
	int nodeCount;
	int leafTriangleCount; ///< triangles in the tree (triangleCount - degenerateCount)
	int refCount;          ///< owners (shape, snapshots); internal
	size_t byteCount;      ///< size of the whole allocation
	tbAABB bounds;         ///< body frame
	tbVec3* vertices;
	int32_t* indices;   ///< 3 per triangle, 0-based
	tbVec3* normals;    ///< unit face normal per triangle (zero for degenerate ones)
	uint8_t* edgeFlags; ///< active edges, see TB_MESH_ACTIVE_EDGE_ANGLE
	int32_t* order;     ///< triangle indices in tree order
	tbMeshNode* nodes;
} tbMesh;

/// Ray cast against a mesh in its local frame: the closest triangle hit from either side. The
/// normal is the triangle's face normal turned against the ray. triangleIndex (may be NULL)
/// receives the hit triangle or -1.
TB_API tbCastOutput tbRayCastMesh( const tbRayCastInput* input, const tbMesh* mesh, int* triangleIndex );

/// The number of triangles of a mesh (at xf) whose boxes overlap a world box, counted up to limit:
/// a convex shape in that box is paired with each of them by the step.
TB_API int tbCountMeshTriangles( const tbMesh* mesh, tbTransform xf, tbAABB box, int limit );

// Heightfields -----------------------------------------------------------------------------------

/// Grid points per side of a heightfield: at least one cell, at most 4096 points (33.5 million
/// triangles, whose index still fits a mesh child contact's key).
#define TB_MIN_HEIGHTFIELD_COUNT 2
#define TB_MAX_HEIGHTFIELD_COUNT 4096

/// tbHeightfield::cellFlags: bits 0-2 are the active edges of a cell's first triangle, bits 3-5
/// those of its second (as tbMesh::edgeFlags), and this bit marks a hole.
#define TB_HEIGHTFIELD_HOLE 0x40u

/// Static terrain: a grid of heights in the body frame, z up. Grid point (i, j) sits at
/// (i cellX, j cellY, heights[j countX + i]). Cell (i, j) spans points i..i+1, j..j+1 and is cut
/// along its diagonal from (i, j) to (i + 1, j + 1) into two triangles, counter-clockwise seen from
/// above: triangle 2 c = (i,j) (i+1,j) (i+1,j+1) and triangle 2 c + 1 = (i,j) (i+1,j+1) (i,j+1), with
/// c = j (countX - 1) + i. A hole cell has neither. Shared, read-only, one allocation.
typedef struct tbHeightfield
{
	int countX, countY; ///< grid points per side
	float cellX, cellY; ///< cell size, m
	int holeCount;
	int refCount;       ///< owners (shape, snapshots); internal
	size_t byteCount;   ///< size of the whole allocation
	tbAABB bounds;      ///< body frame
	tbVec3 firstPoint;  ///< grid point (0, 0), handed out where any one point of a shape is asked for
	float* heights;     ///< countX * countY, row-major (x fastest), m
	uint8_t* cellFlags; ///< (countX - 1) * (countY - 1), row-major
} tbHeightfield;

/// Ray cast against a heightfield in its local frame (two-sided, cells walked along the ray): the
/// closest hit, with the hit triangle's normal turned against the ray. triangleIndex (may be NULL)
/// receives the hit triangle or -1.
TB_API tbCastOutput tbRayCastHeightfield( const tbRayCastInput* input, const tbHeightfield* heightfield, int* triangleIndex );

/// As tbCountMeshTriangles: the heightfield's triangles (at xf) whose boxes overlap a world box.
TB_API int tbCountHeightfieldTriangles( const tbHeightfield* heightfield, tbTransform xf, tbAABB box, int limit );

// GJK / EPA --------------------------------------------------------------------------------------

/// A convex shape for GJK: the hull of the points, inflated by radius. Spheres are one point,
/// capsules two, hulls their vertices. The points are not copied.
/// A cylinder is the segment between its cap centres swept by a disk: its proxy is those two points
/// with diskRadius and diskAxis set, and its support along d adds diskRadius times the unit part of
/// d across the axis. Leave diskRadius 0 (as a designated initialiser without it does) for
/// every other shape. Pairs with a disk are not warm started (the cache keeps vertex indices, and
/// one index stands for a whole rim).
typedef struct tbShapeProxy
{
	const tbVec3* points;
	int count;
	float radius;
	float diskRadius; ///< m, >= 0
	tbVec3 diskAxis;  ///< unit, shape frame; read only when diskRadius > 0
} tbShapeProxy;

/// Proxies of the primitive shapes (pointing into the shape; keep the shape alive).
TB_API tbShapeProxy tbMakeSphereProxy( const tbSphere* shape );
TB_API tbShapeProxy tbMakeCapsuleProxy( const tbCapsule* shape );
TB_API tbShapeProxy tbMakeHullProxy( const tbHull* shape );
TB_API tbShapeProxy tbMakeCylinderProxy( const tbCylinder* shape );

/// GJK warm-start cache: the last simplex's vertex indices. Zero-initialise it for a cold start.
typedef struct tbSimplexCache
{
	uint16_t count;
	uint16_t indexA[4];
	uint16_t indexB[4];
} tbSimplexCache;

typedef struct tbDistanceInput
{
	tbShapeProxy proxyA;
	tbShapeProxy proxyB;
	tbTransform transformA;
	tbTransform transformB;
	bool useRadii; ///< false: distance between the core point hulls; true: subtract the radii
} tbDistanceInput;

typedef struct tbDistanceOutput
{
	tbVec3 pointA;  ///< closest point on A, world frame
	tbVec3 pointB;  ///< closest point on B, world frame
	tbVec3 normal;  ///< unit vector from A to B (zero if the cores overlap)
	float distance; ///< >= 0; 0 when overlapping
	int iterations;
	int simplexCount;
} tbDistanceOutput;

/// Closest points of two convex shapes (GJK, Johnson sub-algorithm with barycentric coordinates).
/// Iterations are capped; the result is always finite.
TB_API tbDistanceOutput tbShapeDistance( const tbDistanceInput* input, tbSimplexCache* cache );

typedef struct tbPenetrationOutput
{
	tbVec3 pointA; ///< deepest point of A inside B, world frame
	tbVec3 pointB; ///< deepest point of B inside A, world frame
	tbVec3 normal; ///< unit, from A to B: moving B by depth * normal separates them
	float depth;   ///< penetration depth, m (negative: separated by -depth)
	bool valid;    ///< false only if EPA could not produce a normal (degenerate input)
} tbPenetrationOutput;

/// Signed distance of two convex shapes including radii: GJK when separated, EPA (expanding
/// polytope) on the core hulls when the cores overlap. Iterations are capped.
TB_API tbPenetrationOutput tbShapePenetration( const tbDistanceInput* input );

/// Linear shape cast: B moves by translationB while A stays. Conservative advancement on GJK.
typedef struct tbShapeCastPairInput
{
	tbShapeProxy proxyA;
	tbShapeProxy proxyB;
	tbTransform transformA;
	tbTransform transformB;
	tbVec3 translationB;
	float maxFraction;
} tbShapeCastPairInput;

TB_API tbCastOutput tbShapeCast( const tbShapeCastPairInput* input );

/// Motion of a body over a step, for time of impact: centre of mass c1 -> c2, orientation
/// q1 -> q2, localCenter is the centre of mass in the body frame.
typedef struct tbSweep
{
	tbVec3 localCenter;
	tbVec3 c1, c2;
	tbQuat q1, q2;
} tbSweep;

/// Body transform at time t in [0, 1] of a sweep (linear in position, nlerp in rotation).
TB_API tbTransform tbGetSweepTransform( const tbSweep* sweep, float t );

typedef struct tbTOIInput
{
	tbShapeProxy proxyA;
	tbShapeProxy proxyB;
	tbSweep sweepA;
	tbSweep sweepB;
	float maxFraction; ///< in [0, 1]
	float target;      ///< the separation to stop at, m (e.g. TB_LINEAR_SLOP)
} tbTOIInput;

typedef enum tbTOIState
{
	tbTOIState_unknown,
	tbTOIState_failed,
	tbTOIState_overlapped,
	tbTOIState_hit,
	tbTOIState_separated
} tbTOIState;

typedef struct tbTOIOutput
{
	tbTOIState state;
	float fraction; ///< time of impact as a fraction of the sweep
} tbTOIOutput;

/// Time of impact by conservative advancement (bounds linear and angular motion), capped in
/// iterations; never returns a fraction past the first contact at `target` separation.
TB_API tbTOIOutput tbTimeOfImpact( const tbTOIInput* input );

// Contact manifolds ------------------------------------------------------------------------------

/// One contact point. Points are reported for separations below the speculative distance.
typedef struct tbManifoldPoint
{
	tbVec3 point;      ///< world frame, midway between the two surfaces
	tbVec3 anchorA;    ///< point - body A origin, world-oriented, m
	tbVec3 anchorB;    ///< point - body B origin, world-oriented, m
	float separation;  ///< negative when penetrating, m
	float normalImpulse;     ///< accumulated by the solver, N s (warm starting)
	float tangentImpulse[2]; ///< friction impulses along the manifold's tangents
	float maxNormalImpulse;  ///< largest normal impulse during the last step (events)
	/// Normal impulse over the whole last step, N s: the sum of its sub-steps' (soft mode; in the
	/// other modes the accumulated impulse) and the restitution's. A body of mass m resting on
	/// the ground under gravity g gets m g dt in all.
	float stepNormalImpulse;
	float normalVelocity;    ///< relative normal velocity before the solve (restitution)
	uint32_t id;       ///< feature key: equal ids on consecutive steps mean the same contact
	bool persisted;    ///< matched a point of the previous step's manifold
} tbManifoldPoint;

/// Contact manifold between two shapes: up to 4 points sharing one normal.
typedef struct tbManifold
{
	tbVec3 normal; ///< world frame, unit, points from shape A to shape B
	tbManifoldPoint points[TB_MAX_MANIFOLD_POINTS];
	int pointCount;
} tbManifold;

/// Separating-axis cache for hull pairs (frame coherence): what separated or touched last step.
typedef struct tbSATCache
{
	uint8_t type; ///< 0 none, 1 face of A, 2 face of B, 3 edge pair
	uint16_t indexA, indexB;
	float separation;
} tbSATCache;

// Manifold functions. Shapes are in their body's local frame, xfA/xfB are the body transforms.
// The normal points from A to B. Only points with separation < speculativeDistance are kept.
// Feature ids must stay equal for the same pair of features across steps so warm starting works.
// When more than 4 points survive clipping, the 4 kept are the deepest point plus the ones that
// span the largest area.
TB_API tbManifold tbCollideSpheres( const tbSphere* sphereA, tbTransform xfA, const tbSphere* sphereB, tbTransform xfB,
									float speculativeDistance );
TB_API tbManifold tbCollideCapsuleAndSphere( const tbCapsule* capsuleA, tbTransform xfA, const tbSphere* sphereB,
											 tbTransform xfB, float speculativeDistance );
TB_API tbManifold tbCollideCapsules( const tbCapsule* capsuleA, tbTransform xfA, const tbCapsule* capsuleB,
									 tbTransform xfB, float speculativeDistance );
TB_API tbManifold tbCollideHullAndSphere( const tbHull* hullA, tbTransform xfA, const tbSphere* sphereB, tbTransform xfB,
										  float speculativeDistance );
/// Up to 2 points (a capsule lying on a face gets both ends).
TB_API tbManifold tbCollideHullAndCapsule( const tbHull* hullA, tbTransform xfA, const tbCapsule* capsuleB,
										   tbTransform xfB, float speculativeDistance );
/// SAT over face normals and edge-pair axes, then reference/incident face clipping: a box resting
/// on a box gets its 4 corner points on the first frame. cache may be NULL.
TB_API tbManifold tbCollideHulls( const tbHull* hullA, tbTransform xfA, const tbHull* hullB, tbTransform xfB,
								  float speculativeDistance, tbSATCache* cache );
/// Cylinder pairs: GJK/EPA for the normal and depth, then a face of either shape close enough to
/// that normal as the reference and the other's feature facing it (a cap polygon, a side line, a
/// point) clipped to it: a cylinder standing on a face gets 4 rim points, one lying on it 2.
TB_API tbManifold tbCollideCylinderAndSphere( const tbCylinder* cylinderA, tbTransform xfA, const tbSphere* sphereB,
											  tbTransform xfB, float speculativeDistance );
TB_API tbManifold tbCollideCylinderAndCapsule( const tbCylinder* cylinderA, tbTransform xfA, const tbCapsule* capsuleB,
											   tbTransform xfB, float speculativeDistance );
TB_API tbManifold tbCollideCylinderAndHull( const tbCylinder* cylinderA, tbTransform xfA, const tbHull* hullB,
											tbTransform xfB, float speculativeDistance );
TB_API tbManifold tbCollideCylinders( const tbCylinder* cylinderA, tbTransform xfA, const tbCylinder* cylinderB,
									  tbTransform xfB, float speculativeDistance );

// Dynamic AABB tree ------------------------------------------------------------------------------

#define TB_NULL_NODE ( -1 )

/// A node of the tree. Leaves hold a user proxy.
typedef struct tbTreeNode
{
	tbAABB aabb;
	uint64_t categoryBits;
	int32_t parent; ///< or the next free node when on the free list
	int32_t child1; ///< TB_NULL_NODE for a leaf
	int32_t child2;
	int32_t userData;
	int16_t height; ///< leaf = 0, free node = -1
	bool enlarged;
} tbTreeNode;

/// Incremental bounding volume hierarchy (surface-area heuristic insertion with rotations).
typedef struct tbDynamicTree
{
	tbTreeNode* nodes;
	int32_t root;
	int32_t nodeCount;
	int32_t nodeCapacity;
	int32_t freeList;
	int32_t proxyCount;
} tbDynamicTree;

/// An empty tree. When its first node block cannot be allocated, nodes is NULL (the tree is still
/// valid and empty; a later tbDynamicTree_CreateProxy tries again).
TB_API tbDynamicTree tbDynamicTree_Create( void );
TB_API void tbDynamicTree_Destroy( tbDynamicTree* tree );
/// Make room for proxyCount more proxies, so that many tbDynamicTree_CreateProxy calls cannot fail.
/// False, the tree unchanged, when the node array could not grow.
TB_API bool tbDynamicTree_Reserve( tbDynamicTree* tree, int32_t proxyCount );
/// Insert a leaf; returns its proxy id (a node index). The AABB is stored as given (callers fatten).
/// Returns TB_NULL_NODE, the tree unchanged, when the node array could not grow.
TB_API int32_t tbDynamicTree_CreateProxy( tbDynamicTree* tree, tbAABB aabb, uint64_t categoryBits, int32_t userData );
TB_API void tbDynamicTree_DestroyProxy( tbDynamicTree* tree, int32_t proxyId );
/// Remove and re-insert with a new AABB.
TB_API void tbDynamicTree_MoveProxy( tbDynamicTree* tree, int32_t proxyId, tbAABB aabb );
/// Grow a leaf's AABB in place (and its ancestors), without re-insertion.
TB_API void tbDynamicTree_EnlargeProxy( tbDynamicTree* tree, int32_t proxyId, tbAABB aabb );

/// Return false to stop the query.
typedef bool tbTreeQueryCallbackFcn( int32_t proxyId, int32_t userData, void* context );
/// Visit every leaf whose AABB overlaps aabb and whose categoryBits & maskBits != 0.
TB_API void tbDynamicTree_Query( const tbDynamicTree* tree, tbAABB aabb, uint64_t maskBits, tbTreeQueryCallbackFcn* fcn,
								 void* context );

/// Return the new max fraction: 0 stops, input->maxFraction continues unchanged, a hit fraction clips.
typedef float tbTreeRayCastCallbackFcn( const tbRayCastInput* input, int32_t proxyId, int32_t userData, void* context );
TB_API void tbDynamicTree_RayCast( const tbDynamicTree* tree, const tbRayCastInput* input, uint64_t maskBits,
								   tbTreeRayCastCallbackFcn* fcn, void* context );

TB_API int tbDynamicTree_GetHeight( const tbDynamicTree* tree );
/// Sum of node areas / root area: a quality figure.
TB_API float tbDynamicTree_GetAreaRatio( const tbDynamicTree* tree );
/// Check structure and bounds (tests).
TB_API bool tbDynamicTree_Validate( const tbDynamicTree* tree );
TB_INLINE tbAABB tbDynamicTree_GetAABB( const tbDynamicTree* tree, int32_t proxyId ) { return tree->nodes[proxyId].aabb; }
TB_INLINE int32_t tbDynamicTree_GetUserData( const tbDynamicTree* tree, int32_t proxyId ) { return tree->nodes[proxyId].userData; }
