// Tumble physics: the cylinder's contacts (cylinder.c), shared with the mesh triangles.
// SPDX-License-Identifier: MIT
#pragma once

#include "mesh.h"

/// A convex shape placed in a working frame (shape A's body frame, or a mesh's frame): a sphere,
/// capsule, hull or cylinder, or one triangle (type tbShape_mesh).
typedef struct tbSolid
{
	tbShapeType type;
	const void* geometry; ///< tbSphere, tbCapsule, tbHull or tbCylinder; NULL for a triangle
	tbTransform xf;       ///< the shape's body frame into the working frame
	tbShapeProxy proxy;   ///< in the body frame (a triangle's points are set where it is used)
	tbVec3 triangle[3];   ///< working frame
	tbVec3 normal;        ///< the triangle's unit face normal
} tbSolid;

tbSolid tbMakeSolid( tbShapeType type, const void* geometry, tbTransform xf );
tbSolid tbMakeTriangleSolid( const tbVec3 vertices[3], tbVec3 normal );

/// Contact points of two solids, one of which should be a cylinder (see cylinder.c), in the working
/// frame, with *normal from A to B. faceOfA: A's face (a triangle's) is the reference whatever the
/// closest features are, and no points come back if B is not over it (a mesh's inactive edges).
/// out holds TB_MESH_CLIP_CAPACITY points; at most TB_MAX_MANIFOLD_POINTS are written.
int tbCollideSolids( const tbSolid* a, const tbSolid* b, float speculativeDistance, bool faceOfA, tbVec3* normal,
					 tbLocalPoint* out );
