// Tumble viewer: drawing a world's bodies, the ground grid and the debug layers.
// SPDX-License-Identifier: MIT
#pragma once

#include "render.h"

#include "tumble/tumble.h"

/// Debug layers, each toggled on its own.
typedef enum tbDebugDrawFlags
{
	tbDebug_contacts = 1u << 0,	  ///< contact points (red when penetrating) and normals
	tbDebug_joints = 1u << 1,	  ///< joint frames (x red, y green, z blue), links to the bodies, limits
	tbDebug_aabbs = 1u << 2,	  ///< shape bounding boxes
	tbDebug_centers = 1u << 3,	  ///< centres of mass
	tbDebug_velocities = 1u << 4, ///< linear (cyan, 0.25 s of travel) and angular (magenta) velocity
	tbDebug_sleep = 1u << 5,	  ///< colour bodies by state: awake normal, sleeping blue
	tbDebug_tree = 1u << 6,		  ///< broad-phase tree nodes, coloured by depth (leaves faint)
	tbDebug_flagCount = 7,
	tbDebug_all = ( 1u << 7 ) - 1u,
} tbDebugDrawFlags;

/// Name of debug layer i (bit 1 << i) as used by --debug-draw and the panel.
const char* tbDebugDrawName( int i );

/// Figures gathered while drawing, for the stats overlay and plots.
typedef struct tbWorldDrawStats
{
	int bodyCount;
	int jointCount;
	float kineticEnergy; ///< J, of dynamic bodies
	float maxJointError; ///< m, largest joint position error
} tbWorldDrawStats;

typedef struct tbWorldDraw tbWorldDraw;

tbWorldDraw* tbWorldDraw_Create( void );
void tbWorldDraw_Destroy( tbWorldDraw* draw );

/// Forget the shape cache (a new world: shape ids start over). Also clears the renderer's meshes.
void tbWorldDraw_Reset( tbWorldDraw* draw, tbRenderer* renderer );

/// Queue every body of the world and the debug layers in flags. selected is highlighted. Round
/// shapes far from the eye (relative to their size) use the low-detail meshes.
void tbWorldDraw_Draw( tbWorldDraw* draw, tbRenderer* renderer, tbWorldId world, unsigned flags,
					   tbBodyId selected, tbVec3 eye, tbWorldDrawStats* stats );

/// The ground grid on z = 0 around a point (1 m lines, every 5th brighter).
void tbWorldDraw_Grid( tbRenderer* renderer, tbVec3 around, float extent );

/// Bounds of the world's moving bodies (of all bodies when none moves). false when it has none.
bool tbWorldDraw_GetBounds( tbWorldId world, tbVec3* lower, tbVec3* upper );

/// Colour of a body as drawn (palette by body index; static grey; sleeping dimmed).
tbRgba tbWorldDraw_BodyColor( tbBodyId body, unsigned flags );
