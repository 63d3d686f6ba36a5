// Tumble physics: the world API. Include this one header to use the library.
// SPDX-License-Identifier: MIT
#pragma once

#include "base.h"
#include "collision.h"
#include "id.h"
#include "math_functions.h"
#include "types.h"
#include "joints.h"
#include "character.h"
#include "vehicle.h"

// World ------------------------------------------------------------------------------------------

/// Create a world. Up to TB_MAX_WORLDS worlds can exist at once. Returns a null id for an invalid
/// def (tbCreateWorldChecked: tbResult_invalidArgument), for a full world table or when an
/// allocation was refused (tbResult_outOfMemory, nothing left allocated).
#define TB_MAX_WORLDS 128
TB_API tbWorldId tbCreateWorld( const tbWorldDef* def );
TB_API tbResult tbCreateWorldChecked( const tbWorldDef* def, tbWorldId* outId );
TB_API void tbDestroyWorld( tbWorldId worldId );
TB_API bool tbWorld_IsValid( tbWorldId worldId );
/// The number of worlds that exist now (at most TB_MAX_WORLDS).
TB_API int tbGetWorldCount( void );

/// Advance the world by timeStep seconds (one solver step; soft mode sub-steps inside).
/// tbResult_outOfMemory when the allocator refused memory during the step: the step was taken as
/// far as memory allowed (tbWorldCounters.allocationFailures says what was dropped) and the world
/// stays valid, steppable and destroyable.
TB_API tbResult tbWorld_Step( tbWorldId worldId, float timeStep );

TB_API tbResult tbWorld_SetGravity( tbWorldId worldId, tbVec3 gravity );
TB_API tbVec3 tbWorld_GetGravity( tbWorldId worldId );
/// Change solver settings while running (iterations, mode, coefficients). Def cookie not required.
TB_API tbResult tbWorld_SetSolver( tbWorldId worldId, const tbWorldDef* settings );
TB_API tbWorldDef tbWorld_GetSettings( tbWorldId worldId );
TB_API void tbWorld_EnableSleeping( tbWorldId worldId, bool flag );
TB_API bool tbWorld_IsLocked( tbWorldId worldId );
TB_API tbWorldCounters tbWorld_GetCounters( tbWorldId worldId );
/// What the last step of tbSolver_global did (zeros before the first one; kept through steps in other modes).
TB_API tbSolverReport tbWorld_GetSolverReport( tbWorldId worldId );
/// The last global step's convergence per sweep: residuals[i] = |A lambda - b| of the unclamped
/// rows after sweep i, complementarity[i] the error of the clamped rows (m/s); either may be NULL.
/// Writes min(count, capacity) values and returns the sweep count.
TB_API int tbWorld_GetSolverResiduals( tbWorldId worldId, float* residuals, float* complementarity, int capacity );

/// Called once per node of the broad phase's AABB trees (one tree per body type): its fattened box,
/// its depth below the tree's root (root 0) and whether it is a leaf (one shape). Return false to stop.
typedef bool tbTreeNodeFcn( tbAABB box, int depth, bool isLeaf, tbBodyType tree, void* context );
/// Visit every node of the broad-phase trees, for debug drawing. Allocates nothing; O(n log n).
/// tbResult_invalidId for a bad world; the callback must not change the world.
TB_API tbResult tbWorld_VisitBroadPhase( tbWorldId worldId, tbTreeNodeFcn* fcn, void* context );

/// Contact begin/end events of the last step, and the end events of contacts removed since with
/// their bodies or shapes (which the next step reports again with its own). Valid until the next
/// step.
TB_API tbContactEvents tbWorld_GetContactEvents( tbWorldId worldId );
TB_API tbSensorEvents tbWorld_GetSensorEvents( tbWorldId worldId );

/// Joints that broke during the last step. Valid until the next step.
TB_API tbJointBreakEvents tbWorld_GetJointBreakEvents( tbWorldId worldId );

/// Copy up to capacity touching contacts (manifolds with points) into out; returns the total count.
TB_API int tbWorld_GetContacts( tbWorldId worldId, tbContactData* out, int capacity );

/// Queries. The world is locked while their callbacks run: creating or destroying objects from a
/// callback returns tbResult_worldLocked (collect what to change, change it after the query).
/// Closest hit along origin -> origin + translation.
TB_API tbRayResult tbWorld_CastRayClosest( tbWorldId worldId, tbVec3 origin, tbVec3 translation, tbQueryFilter filter );
/// Every hit: fcn returns the new max fraction (0 stops; fraction clips; 1 goes on for all).
typedef float tbCastResultFcn( tbShapeId shapeId, tbVec3 point, tbVec3 normal, float fraction, void* context );
TB_API void tbWorld_CastRay( tbWorldId worldId, tbVec3 origin, tbVec3 translation, tbQueryFilter filter,
							 tbCastResultFcn* fcn, void* context );
/// Shapes whose AABB overlaps aabb: fcn returns false to stop.
typedef bool tbOverlapResultFcn( tbShapeId shapeId, void* context );
TB_API void tbWorld_OverlapAABB( tbWorldId worldId, tbAABB aabb, tbQueryFilter filter, tbOverlapResultFcn* fcn,
								 void* context );
/// Shapes that actually overlap a convex shape (GJK): proxy points in the shape's frame, placed by
/// transform. Build the proxy with tbMakeSphereProxy/tbMakeCapsuleProxy/tbMakeHullProxy/tbMakeCylinderProxy.
TB_API void tbWorld_OverlapShape( tbWorldId worldId, const tbShapeProxy* proxy, tbTransform transform,
								  tbQueryFilter filter, tbOverlapResultFcn* fcn, void* context );
/// Shape casts: a convex shape (proxy points in its own frame, placed by transform, as for
/// tbWorld_OverlapShape) swept along translation without turning. Each shape it would touch is
/// reported to fcn (as for rays: it returns the new max fraction, 0 stops) with the fraction of
/// the translation at first contact, the contact point on the shape hit and the normal out of that
/// shape (against the motion). A shape already touching or overlapping the cast shape at its start
/// is reported at fraction 0 with the normal that separates them fastest (penetration direction;
/// a mesh triangle's face normal, turned towards the cast shape). Mesh shapes report their first
/// triangle hit. Sensors are reported as for rays; filter as for rays. Same limits as
/// tbWorld_OverlapShape (a proxy of more than TB_MAX_HULL_POINTS points, or points beyond
/// TB_MAX_SHAPE_SIZE, casts nothing).
TB_API void tbWorld_CastShape( tbWorldId worldId, const tbShapeProxy* proxy, tbTransform transform, tbVec3 translation,
							   tbQueryFilter filter, tbCastResultFcn* fcn, void* context );
/// The first hit of a shape cast (hit false when none).
TB_API tbRayResult tbWorld_CastShapeClosest( tbWorldId worldId, const tbShapeProxy* proxy, tbTransform transform,
											 tbVec3 translation, tbQueryFilter filter );
/// Cast every convex shape of a body from its current pose along translation, skipping the body's
/// own shapes: each (shape of the body, shape hit) pair is reported as by tbWorld_CastShape.
TB_API void tbWorld_CastBody( tbBodyId bodyId, tbVec3 translation, tbQueryFilter filter, tbCastResultFcn* fcn,
							  void* context );
TB_API tbRayResult tbWorld_CastBodyClosest( tbBodyId bodyId, tbVec3 translation, tbQueryFilter filter );
/// Shapes that actually overlap a sphere (exact test).
TB_API void tbWorld_OverlapSphere( tbWorldId worldId, tbVec3 center, float radius, tbQueryFilter filter,
								   tbOverlapResultFcn* fcn, void* context );

/// Push dynamic bodies away from def->position: a body whose nearest shape surface is d from the
/// centre gets impulse * s along (centre of mass - position), with s = 1 for d <= radius, falling
/// linearly to 0 at radius + falloff; velocity changes by that over its mass (no spin). Wakes the
/// bodies. Returns how many were pushed, or -1 for a bad world or def, or a locked world.
TB_API int tbWorld_Explode( tbWorldId worldId, const tbExplosionDef* def );

/// Install (or remove, with NULL) the pre-solve callback (see tbPreSolveFcn).
TB_API tbResult tbWorld_SetPreSolveCallback( tbWorldId worldId, tbPreSolveFcn* fcn, void* context );

/// Number of live bodies; fill ids (in creation order) up to capacity; returns the count.
TB_API int tbWorld_GetBodies( tbWorldId worldId, tbBodyId* out, int capacity );
/// First body with this name, or null.
TB_API tbBodyId tbWorld_FindBody( tbWorldId worldId, const char* name );

/// Hash of the complete simulation state (positions, velocities, contacts' impulses): equal
/// hashes mean bit-identical states. For determinism tests.
TB_API uint64_t tbWorld_GetStateHash( tbWorldId worldId );

// Snapshots --------------------------------------------------------------------------------------

/// A copy of a world's whole simulation state: bodies, shapes, contacts with their warm-start
/// impulses, joints with theirs, movers, the broad phase, sleep state. Stepping after a restore gives a
/// bit-identical trajectory to stepping the original. Movers (paths, timers) are included.
typedef struct tbSnapshot tbSnapshot;

/// Take a snapshot (allocates). NULL for an invalid or locked world, or when an allocation was
/// refused (then nothing is left allocated).
TB_API tbSnapshot* tbWorld_TakeSnapshot( tbWorldId worldId );
/// Put the world back in the snapshot's state. Objects created after the snapshot are gone (their
/// ids become stale); objects destroyed since are back with their old ids. The snapshot must come
/// from this world. tbResult_outOfMemory, the world unchanged, when an allocation was refused.
TB_API tbResult tbWorld_RestoreSnapshot( tbWorldId worldId, const tbSnapshot* snapshot );
TB_API void tbDestroySnapshot( tbSnapshot* snapshot );
/// Memory held by the snapshot, bytes.
TB_API size_t tbSnapshot_GetByteCount( const tbSnapshot* snapshot );

// Body -------------------------------------------------------------------------------------------

/// Create a body. Returns a null id if the def is invalid (NaN, bad type); *result says why.
TB_API tbBodyId tbCreateBody( tbWorldId worldId, const tbBodyDef* def );
TB_API tbResult tbCreateBodyChecked( tbWorldId worldId, const tbBodyDef* def, tbBodyId* outId );
/// Destroys the body, its shapes and its joints.
TB_API tbResult tbDestroyBody( tbBodyId bodyId );
TB_API bool tbBody_IsValid( tbBodyId bodyId );

TB_API tbBodyType tbBody_GetType( tbBodyId bodyId );
TB_API tbResult tbBody_SetType( tbBodyId bodyId, tbBodyType type );
TB_API tbVec3 tbBody_GetPosition( tbBodyId bodyId );
TB_API tbQuat tbBody_GetRotation( tbBodyId bodyId );
TB_API tbTransform tbBody_GetTransform( tbBodyId bodyId );
/// Teleport (wakes the body).
TB_API tbResult tbBody_SetTransform( tbBodyId bodyId, tbVec3 position, tbQuat rotation );
/// World centre of mass.
TB_API tbVec3 tbBody_GetWorldCenterOfMass( tbBodyId bodyId );
TB_API tbVec3 tbBody_GetLocalCenterOfMass( tbBodyId bodyId );
/// Velocity of the centre of mass, m/s.
TB_API tbVec3 tbBody_GetLinearVelocity( tbBodyId bodyId );
TB_API tbVec3 tbBody_GetAngularVelocity( tbBodyId bodyId );
TB_API tbResult tbBody_SetLinearVelocity( tbBodyId bodyId, tbVec3 v );
TB_API tbResult tbBody_SetAngularVelocity( tbBodyId bodyId, tbVec3 w );
/// Velocity of a world point attached to the body.
TB_API tbVec3 tbBody_GetPointVelocity( tbBodyId bodyId, tbVec3 worldPoint );
/// Force (N) at a world point, applied over the next step. Wakes the body when wake is true.
TB_API tbResult tbBody_ApplyForce( tbBodyId bodyId, tbVec3 force, tbVec3 point, bool wake );
TB_API tbResult tbBody_ApplyForceToCenter( tbBodyId bodyId, tbVec3 force, bool wake );
TB_API tbResult tbBody_ApplyTorque( tbBodyId bodyId, tbVec3 torque, bool wake );
/// Impulse (N s) at a world point, changing velocity immediately.
TB_API tbResult tbBody_ApplyLinearImpulse( tbBodyId bodyId, tbVec3 impulse, tbVec3 point, bool wake );
TB_API tbResult tbBody_ApplyAngularImpulse( tbBodyId bodyId, tbVec3 impulse, bool wake );

TB_API float tbBody_GetMass( tbBodyId bodyId );
/// Principal inertia about the centre of mass, body axes.
TB_API tbMat3 tbBody_GetLocalInertia( tbBodyId bodyId );
/// Override the shapes' mass properties.
TB_API tbResult tbBody_SetMassData( tbBodyId bodyId, tbBodyMass massData );
/// Recompute mass from the shapes' densities.
TB_API tbResult tbBody_ApplyMassFromShapes( tbBodyId bodyId );

TB_API tbResult tbBody_SetLinearDamping( tbBodyId bodyId, float damping );
TB_API tbResult tbBody_SetAngularDamping( tbBodyId bodyId, float damping );
TB_API tbResult tbBody_SetGravityScale( tbBodyId bodyId, float scale );
TB_API float tbBody_GetGravityScale( tbBodyId bodyId );
TB_API bool tbBody_IsAwake( tbBodyId bodyId );
TB_API tbResult tbBody_SetAwake( tbBodyId bodyId, bool awake );
TB_API tbResult tbBody_EnableSleep( tbBodyId bodyId, bool enable );
TB_API tbResult tbBody_SetBullet( tbBodyId bodyId, bool flag );
/// Lock or free the body's rotation (infinite inertia; locking also stops its spin). Wakes it.
TB_API tbResult tbBody_SetFixedRotation( tbBodyId bodyId, bool flag );
TB_API bool tbBody_IsFixedRotation( tbBodyId bodyId );
/// Make the body one-way (a platform jumped through from below): it blocks other bodies only on the
/// side its normal points to (world frame now, turning with the body). Each contact takes its side
/// when its first points appear: a body arriving from that side (the contact normal, from this
/// body to the other, within 60 degrees of the normal) is held; any other passes through until
/// the two are apart again (no points within the speculative distance). A zero normal makes the
/// body solid again.
TB_API tbResult tbBody_SetOneWay( tbBodyId bodyId, tbVec3 normal );
/// The one-way normal in the world frame, zero for a solid body.
TB_API tbVec3 tbBody_GetOneWay( tbBodyId bodyId );
TB_API bool tbBody_IsBullet( tbBodyId bodyId );
TB_API const char* tbBody_GetName( tbBodyId bodyId );
TB_API tbResult tbBody_SetName( tbBodyId bodyId, const char* name );
TB_API void* tbBody_GetUserData( tbBodyId bodyId );
TB_API void tbBody_SetUserData( tbBodyId bodyId, void* userData );
TB_API tbWorldId tbBody_GetWorld( tbBodyId bodyId );
/// Number of shapes; fills up to capacity ids.
TB_API int tbBody_GetShapes( tbBodyId bodyId, tbShapeId* out, int capacity );
/// Number of joints; fills up to capacity ids.
TB_API int tbBody_GetJoints( tbBodyId bodyId, tbJointId* out, int capacity );
/// The body's touching contacts (with points) after the last step, as tbWorld_GetContacts gives
/// them: copies up to capacity into out, returns the count. The manifold normal points from shape A
/// to shape B; the points' normalImpulse is what the solver applied along it.
TB_API int tbBody_GetContactData( tbBodyId bodyId, tbContactData* out, int capacity );
/// World AABB of all shapes.
TB_API tbAABB tbBody_ComputeAABB( tbBodyId bodyId );
/// Bytes the body holds in its world: its record, its shapes' records and broad-phase nodes, and
/// their hulls and meshes (a mesh shared with a snapshot counted whole). 0 for an invalid id. For
/// hosts that account memory per script (the runtime's --memory of a mod).
TB_API size_t tbBody_GetMemorySize( tbBodyId bodyId );

// Shape ------------------------------------------------------------------------------------------

/// Attach shapes to a body. Geometry is in the body frame and is copied (hulls are cloned).
/// Invalid geometry (radius <= 0, NaN) gives a null id and *result (when not NULL).
TB_API tbShapeId tbCreateSphereShape( tbBodyId bodyId, const tbShapeDef* def, const tbSphere* sphere, tbResult* result );
TB_API tbShapeId tbCreateCapsuleShape( tbBodyId bodyId, const tbShapeDef* def, const tbCapsule* capsule,
									   tbResult* result );
TB_API tbShapeId tbCreateHullShape( tbBodyId bodyId, const tbShapeDef* def, const tbHull* hull, tbResult* result );
/// A cylinder (tbMakeCylinder): radius and half height (half the cap centres' distance) each in
/// [TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE], finite centres; otherwise tbResult_invalidArgument.
TB_API tbShapeId tbCreateCylinderShape( tbBodyId bodyId, const tbShapeDef* def, const tbCylinder* cylinder,
										tbResult* result );
/// A box of half extents (m), placed by a local transform in the body frame.
TB_API tbShapeId tbCreateBoxShape( tbBodyId bodyId, const tbShapeDef* def, tbVec3 halfExtents, tbTransform local,
								   tbResult* result );
/// A static triangle mesh (level geometry) on a static body: vertices in the body frame, 3 0-based
/// vertex indices per triangle, copied. Refused (null id, *result) for a non-static body
/// (tbResult_invalidArgument), NaN/inf or |coordinate| > TB_MAX_POSITION, an index out of range,
/// no triangle, or more than TB_MAX_MESH_VERTICES / TB_MAX_MESH_TRIANGLES. Zero-area triangles
/// are skipped (tbMesh::degenerateCount); a mesh of only such triangles is refused. The body cannot
/// be made dynamic or kinematic while it has a mesh. Density is ignored (no mass).
TB_API tbShapeId tbCreateMeshShape( tbBodyId bodyId, const tbShapeDef* def, const tbVec3* vertices, int vertexCount,
									const int32_t* indices, int triangleCount, tbResult* result );
/// A heightfield (terrain, see tbHeightfield) on a static body: countX * countY heights, row-major,
/// copied; cellX, cellY the cell sizes; holes NULL or one byte per cell ((countX - 1) * (countY - 1),
/// row-major), non-zero for a hole. Refused (null id, *result tbResult_invalidArgument) for a
/// non-static body, a count outside TB_MIN_HEIGHTFIELD_COUNT..TB_MAX_HEIGHTFIELD_COUNT, a cell size
/// outside [TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE], a side longer than TB_MAX_POSITION, or a height
/// that is NaN, infinite or beyond +-TB_MAX_POSITION. Like a mesh: no mass, the body stays static.
TB_API tbShapeId tbCreateHeightfieldShape( tbBodyId bodyId, const tbShapeDef* def, const float* heights, int countX,
										   int countY, float cellX, float cellY, const uint8_t* holes, tbResult* result );
TB_API tbResult tbDestroyShape( tbShapeId shapeId, bool updateBodyMass );
TB_API bool tbShape_IsValid( tbShapeId shapeId );
TB_API tbShapeType tbShape_GetType( tbShapeId shapeId );
TB_API tbBodyId tbShape_GetBody( tbShapeId shapeId );
TB_API const tbSphere* tbShape_GetSphere( tbShapeId shapeId );
TB_API const tbCapsule* tbShape_GetCapsule( tbShapeId shapeId );
TB_API const tbHull* tbShape_GetHull( tbShapeId shapeId );
TB_API const tbCylinder* tbShape_GetCylinder( tbShapeId shapeId );
/// The mesh of a mesh shape (read-only, alive while the shape is), or NULL.
TB_API const tbMesh* tbShape_GetMesh( tbShapeId shapeId );
/// The heightfield of a heightfield shape (read-only, alive while the shape is), or NULL.
TB_API const tbHeightfield* tbShape_GetHeightfield( tbShapeId shapeId );
TB_API float tbShape_GetFriction( tbShapeId shapeId );
TB_API tbResult tbShape_SetFriction( tbShapeId shapeId, float friction );
TB_API float tbShape_GetRestitution( tbShapeId shapeId );
TB_API tbResult tbShape_SetRestitution( tbShapeId shapeId, float restitution );
TB_API float tbShape_GetDensity( tbShapeId shapeId );
TB_API tbResult tbShape_SetDensity( tbShapeId shapeId, float density, bool updateBodyMass );
/// Change the collision filter (see tbShapeDef) while running: the shape's contacts end (with end
/// events) and the broad phase pairs it again under the new filter in the next step; its body wakes.
TB_API tbResult tbShape_SetFilter( tbShapeId shapeId, uint64_t categoryBits, uint64_t maskBits, int32_t groupIndex );
TB_API tbResult tbShape_GetFilter( tbShapeId shapeId, uint64_t* categoryBits, uint64_t* maskBits, int32_t* groupIndex );
/// Make the shape a sensor (events only) or a solid again, as tbShape_SetFilter re-pairs it.
TB_API tbResult tbShape_SetSensor( tbShapeId shapeId, bool isSensor );
/// Let the world's pre-solve callback see (and disable) this shape's contacts.
TB_API tbResult tbShape_EnablePreSolveEvents( tbShapeId shapeId, bool flag );
TB_API bool tbShape_IsSensor( tbShapeId shapeId );
TB_API tbAABB tbShape_GetAABB( tbShapeId shapeId );
TB_API void* tbShape_GetUserData( tbShapeId shapeId );
TB_API void tbShape_SetUserData( tbShapeId shapeId, void* userData );
/// Ray cast against this one shape (world frame).
TB_API tbCastOutput tbShape_RayCast( tbShapeId shapeId, tbVec3 origin, tbVec3 translation );
