// Tumble physics: static heightfields (terrain): building, cell visits and triangles.
// SPDX-License-Identifier: MIT
#pragma once

#include "mesh.h"

/// Build a heightfield (refCount 1). NULL and *result on bad input (see tbCreateHeightfieldShape).
tbHeightfield* tbCreateHeightfield( const float* heights, int countX, int countY, float cellX, float cellY,
									const uint8_t* holes, tbResult* result );
/// Reference counting: the shape and every snapshot that holds the heightfield own one reference.
void tbRetainHeightfield( tbHeightfield* heightfield );
void tbReleaseHeightfield( tbHeightfield* heightfield );

/// The corners of triangle t (2 per cell, see tbHeightfield), body frame.
void tbGetHeightfieldCorners( const tbHeightfield* heightfield, int t, tbVec3 v[3] );
/// Triangle t with its normal and active edges, body frame.
void tbGetHeightfieldTriangle( const tbHeightfield* heightfield, int t, tbTriangle* tri );

/// Visit the triangles (holes left out) whose box overlaps box (body frame), cell by cell over the
/// cells under the box; return false to stop.
void tbQueryHeightfield( const tbHeightfield* heightfield, tbAABB box, tbMeshQueryFcn* fcn, void* context );

/// World box of the heightfield under xf.
tbAABB tbComputeHeightfieldAABB( const tbHeightfield* heightfield, tbTransform xf );
