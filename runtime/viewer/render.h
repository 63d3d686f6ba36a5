// Tumble viewer: OpenGL 3.3 core renderer. Solid meshes drawn instanced, lines and points for grids
// and debug drawing, and a 2D layer (rectangles, lines, stb_easy_font text) for the UI. Callers
// queue everything during a frame; tbRenderer_Flush draws it in one pass and empties the queues.
// SPDX-License-Identifier: MIT
#pragma once

#include "camera.h"

#include <stdbool.h>
#include <stdint.h>

/// 8-bit colour, straight alpha.
typedef struct tbRgba
{
	uint8_t r, g, b, a;
} tbRgba;

static inline tbRgba tbMakeRgba( int r, int g, int b, int a )
{
	tbRgba c = { (uint8_t)r, (uint8_t)g, (uint8_t)b, (uint8_t)a };
	return c;
}

/// Meshes every renderer has. Unit sizes, centred at the origin: the instance scale sizes them.
typedef enum tbBuiltinMesh
{
	tbMesh_sphere = 0, ///< radius 1
	tbMesh_cylinder,   ///< radius 1 about Z, z in [-1, 1], open ends (capsules close them with spheres); back faces culled
	tbMesh_cube,	   ///< [-1, 1]^3: boxes use their half extents as scale
	tbMesh_sphereLow,  ///< the sphere with a quarter of the triangles, for bodies far away
	tbMesh_cylinderLow,
	tbMesh_solidCylinder,    ///< tbMesh_cylinder with its ends closed by flat caps (cylinder shapes)
	tbMesh_solidCylinderLow,
	tbMesh_builtinCount
} tbBuiltinMesh;

/// Vertex of a solid mesh. shade darkens a triangle (a pattern that makes spinning visible).
typedef struct tbMeshVertex
{
	float position[3];
	float normal[3];
	float shade;
} tbMeshVertex;

typedef struct tbRenderer tbRenderer;

/// What the renderer spends per frame. The software profile suits a CPU rasterizer (Mesa's
/// llvmpipe): a 1024-texel shadow map instead of 2048, every sphere and cylinder from the
/// low-detail meshes, the window's 3D view drawn at half its width and height and stretched (the
/// 2D layer and screenshots keep every pixel); the viewer also opens its window without
/// multisampling for it.
typedef enum tbRenderProfile
{
	tbRenderProfile_full = 0,
	tbRenderProfile_software,
} tbRenderProfile;

/// Needs a current OpenGL 3.3 core context. NULL on failure, with the reason in error.
tbRenderer* tbRenderer_Create( char* error, int errorSize );
void tbRenderer_Destroy( tbRenderer* renderer );
/// Shadows from a shadow map (every solid shadows every other), on by default.
void tbRenderer_SetShadows( tbRenderer* renderer, bool on );
bool tbRenderer_GetShadows( const tbRenderer* renderer );
/// The profile (full by default); it applies from the next frame.
void tbRenderer_SetProfile( tbRenderer* renderer, tbRenderProfile profile );
tbRenderProfile tbRenderer_GetProfile( const tbRenderer* renderer );
/// The 3D view's resolution in the window as a fraction of the window's (1 or 0.5).
float tbRenderer_GetRenderScale( const tbRenderer* renderer );
/// Texels a side of the shadow map in the current profile.
int tbRenderer_GetShadowMapSize( const tbRenderer* renderer );
/// The current context's GL_RENDERER string, and whether it names a CPU rasterizer (llvmpipe,
/// softpipe).
const char* tbRenderer_GetDeviceName( void );
bool tbRenderer_IsSoftwareDevice( const char* deviceName );

/// Register a mesh (triangle list, copied), drawn two-sided. Returns its index for tbRenderer_Instance.
int tbRenderer_AddMesh( tbRenderer* renderer, const tbMeshVertex* vertices, int count );
/// Register a closed mesh whose triangles are counter-clockwise seen from outside: its back faces
/// are culled.
int tbRenderer_AddClosedMesh( tbRenderer* renderer, const tbMeshVertex* vertices, int count );
/// Forget every mesh added with tbRenderer_AddMesh (the built-in meshes stay).
void tbRenderer_ClearMeshes( tbRenderer* renderer );
int tbRenderer_GetMeshVertexTotal( const tbRenderer* renderer );

/// Queue one instance of a mesh: scaled per axis in its own frame, rotated, then translated.
void tbRenderer_Instance( tbRenderer* renderer, int mesh, tbVec3 position, tbQuat rotation, tbVec3 scale,
						  tbRgba color );

/// Queue a 3D line. onTop lines ignore depth (debug drawing); others are depth tested and pulled a
/// little towards the eye so they sit on the surfaces they are drawn on (the ground grid).
void tbRenderer_Line( tbRenderer* renderer, tbVec3 a, tbVec3 b, tbRgba color, bool onTop );
/// Queue the 12 edges of a box (centre, half extents, turned by rotation) as lines on top.
void tbRenderer_WireBox( tbRenderer* renderer, tbVec3 center, tbVec3 halfExtents, tbQuat rotation, tbRgba color );
/// Queue a 3D point drawn on top as a square of a few pixels.
void tbRenderer_Point( tbRenderer* renderer, tbVec3 p, tbRgba color );

/// 2D layer, in pixels with the origin at the top-left of the viewport.
void tbRenderer_Rect2D( tbRenderer* renderer, float x, float y, float w, float h, tbRgba color );
void tbRenderer_Line2D( tbRenderer* renderer, float x0, float y0, float x1, float y1, float width, tbRgba color );
/// Draw text (ASCII, '\n' breaks lines) with its top-left at (x, y); scale 1 is stb_easy_font's
/// native size (about 7 pixels tall). Returns the width drawn, pixels.
float tbRenderer_Text2D( tbRenderer* renderer, float x, float y, const char* text, float scale, tbRgba color );
float tbRenderer_TextWidth( const char* text, float scale );
/// Height of one line of text, pixels.
float tbRenderer_LineHeight( float scale );

/// Position in the 2D vertex queue, and a rectangle inserted there: a panel draws its background
/// behind widgets it has already queued, once their total height is known.
int tbRenderer_Mark2D( const tbRenderer* renderer );
void tbRenderer_InsertRect2D( tbRenderer* renderer, int mark, float x, float y, float w, float h, tbRgba color );

/// Draw everything queued into the bound framebuffer (width x height pixels) and empty the queues.
/// Into the window (framebuffer 0) the 3D view is drawn at the profile's render scale.
void tbRenderer_Flush( tbRenderer* renderer, const tbCamera* camera, int width, int height );

/// The clear colour (tests look for pixels that differ from it).
tbRgba tbRenderer_GetBackground( void );
