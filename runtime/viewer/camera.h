// Tumble viewer: orbit camera, Z up.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/math_functions.h"

#include <stdbool.h>

/// An orbit camera: it looks at target from distance along the direction given by yaw (about Z,
/// from +X) and pitch (above the XY plane).
typedef struct tbCamera
{
	tbVec3 target;	///< m
	float yaw;		///< rad
	float pitch;	///< rad, kept inside (-pi/2, pi/2) so the view never flips over the pole
	float distance; ///< m
	float fovY;		///< vertical field of view, rad
	int width;		///< viewport, pixels
	int height;
} tbCamera;

/// The default view: looking at the origin from the front (-Y), slightly from the left and above.
void tbCamera_Reset( tbCamera* camera );

/// Frame a box: keep the direction, move the target to its centre and back off until it fits.
void tbCamera_Fit( tbCamera* camera, tbVec3 lower, tbVec3 upper );

/// Frame a box inside the part of the view between left and right (fractions of the width; the
/// rest is behind panels): keep the direction, find the nearest distance at which every corner
/// shows inside, and slide the target so the box's centre shows in the middle of that part.
void tbCamera_FitRegion( tbCamera* camera, tbVec3 lower, tbVec3 upper, float left, float right );

/// Look at target from eye (the pitch is kept inside the camera's limits).
void tbCamera_LookAt( tbCamera* camera, tbVec3 eye, tbVec3 target );

tbVec3 tbCamera_GetEye( const tbCamera* camera );

/// Unit vectors: forward (eye to target), right and up of the view.
void tbCamera_GetBasis( const tbCamera* camera, tbVec3* forward, tbVec3* right, tbVec3* up );

/// Column-major projection * view matrix for OpenGL.
void tbCamera_GetViewProjection( const tbCamera* camera, float out[16] );

/// Unit direction of the ray from the eye through a viewport point (pixels, origin top-left).
tbVec3 tbCamera_GetRay( const tbCamera* camera, float px, float py );

/// Viewport pixel of a world point; false when it is behind the eye.
bool tbCamera_Project( const tbCamera* camera, tbVec3 point, float* px, float* py );

/// Mouse motion in pixels: orbit rotates about the target, pan slides the target in the view plane
/// (so the point under the cursor stays under it), zoom scales the distance.
void tbCamera_Orbit( tbCamera* camera, float dx, float dy );
void tbCamera_Pan( tbCamera* camera, float dx, float dy );
void tbCamera_Zoom( tbCamera* camera, float wheelSteps );

/// Fly: move the target (and the eye with it) by a velocity in view axes (right, forward, world up).
void tbCamera_Fly( tbCamera* camera, tbVec3 localVelocity, float seconds );
