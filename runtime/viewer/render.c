// Tumble viewer: OpenGL 3.3 core renderer.
// SPDX-License-Identifier: MIT
#include "render.h"

#include "font.h"

#include <glad/gl.h>
#include <stb_easy_font.h>

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Per-instance data of a solid: 44 bytes, so 5000 bodies cost 220 kB of upload per frame.
typedef struct tbInstanceData
{
	float position[3];
	float rotation[4]; ///< quaternion x y z w
	float scale[3];
	tbRgba color;
} tbInstanceData;

typedef struct tbLineVertex
{
	float position[3];
	tbRgba color;
} tbLineVertex;

typedef struct tbVertex2D
{
	float x, y;
	float u, v; ///< in the glyph atlas; solid shapes use its opaque texel (0, 0)
	tbRgba color;
} tbVertex2D;

// The glyph atlas: 8-bit coverage, large enough for the UI font at 4x (about 50 pixels tall).
#define TB_ATLAS_WIDTH 1024
#define TB_ATLAS_HEIGHT 1024

typedef struct tbMeshRange
{
	int first; ///< first vertex in the shared mesh buffer
	int count;
	float lower[3], upper[3]; ///< bounds of the vertices, for fitting the shadow map
	bool closed;			  ///< counter-clockwise seen from outside: back faces can be culled
	int pointFirst;			  ///< closed meshes but the round built-ins: their distinct vertex positions,
	int pointCount;			  ///< float triples in tbRenderer::meshPoints (their heights once turned)
} tbMeshRange;

/// An instance's place in the draw order: the distance from the eye sorts solids front to back.
typedef struct tbDrawKey
{
	float distanceSquared;
	int index;
} tbDrawKey;

// A growable array of fixed-size items (malloc'd; the runtime does not use the physics allocator).
typedef struct tbArray
{
	void* data;
	int count;
	int capacity;
	int itemSize;
} tbArray;

static void* tbArray_Push( tbArray* a, int n )
{
	if ( a->count + n > a->capacity )
	{
		int capacity = a->capacity > 0 ? a->capacity : 256;
		while ( capacity < a->count + n )
		{
			capacity *= 2;
		}
		void* grown = realloc( a->data, (size_t)capacity * (size_t)a->itemSize );
		if ( grown == NULL )
		{
			return NULL;
		}
		a->data = grown;
		a->capacity = capacity;
	}
	void* item = (char*)a->data + (size_t)a->count * (size_t)a->itemSize;
	a->count += n;
	return item;
}

// The solids' uniforms, for each of the two mesh programs (with and without the shadow lookup).
typedef struct tbMeshUniforms
{
	GLuint program;
	GLint viewProjection, lightDirection, eye, shadowMatrix, normalOffset, shadowMap;
} tbMeshUniforms;

struct tbRenderer
{
	tbMeshUniforms lit, shadowed; // solids without and with shadows
	GLuint depthProgram, lineProgram, program2D, skyProgram;
	GLint depthViewProjection;
	GLint skyForward, skyRight, skyUp;
	bool shadows; // shadow map on, default on
	tbRenderProfile profile;
	GLint lineViewProjection, lineEye, linePull;
	GLint screenSize2D;

	// The software profile draws the window's 3D view into this smaller target, then scales it up.
	GLuint sceneFramebuffer, sceneColor, sceneDepth;
	int sceneWidth, sceneHeight;
	GLuint upscaleProgram;
	GLint upscaleImage;

	// The shadow map: depth seen from the light, an orthographic box fitted to the view each frame.
	GLuint shadowFramebuffer, shadowTexture;
	int shadowSize; ///< texels a side of the texture allocated, 0 before the first shadowed frame

	GLuint meshVao, meshVbo, instanceVbo;
	GLuint lineVao, lineVbo;
	GLuint vao2D, vbo2D;
	GLuint skyVao; // no attributes: the sky's vertex shader makes its triangle from gl_VertexID

	tbArray meshVertices; // tbMeshVertex, every mesh back to back
	tbArray meshes;		  // tbMeshRange
	tbArray meshPoints;	  // float[3]: the distinct positions of closed meshes (tbMeshRange::pointFirst)
	int builtinVertexCount;
	int builtinPointCount;
	bool meshesDirty;
	int uploadedMeshVertices;

	tbArray instances;	   // tbInstanceData
	tbArray instanceMeshes; // int, mesh of each instance
	tbArray drawKeys;		// tbDrawKey per instance
	tbArray sorted;			// tbInstanceData grouped by mesh, front to back within a mesh
	tbArray meshCounts;	   // int per mesh
	tbArray casterCounts;   // int per mesh: the shadow casters' runs, after the sorted instances
	tbArray heights;		// float per sorted instance: its top (tbSelectCasters)

	tbArray depthLines; // tbLineVertex pairs
	tbArray topLines;
	tbArray points;
	tbArray vertices2D; // tbVertex2D triangles

	char* textScratch; // stb_easy_font output
	int textScratchSize;

	// TrueType text (font.h): the atlas holds the font baked at one pixel height at a time.
	GLuint atlas;
	GLint atlas2D;
	unsigned char* atlasPixels;
	tbGlyph glyphs[TB_FONT_COUNT];
	float bakedHeight; ///< pixel height baked in the atlas, 0 when none
};

static const tbRgba tb_background = { 40, 44, 52, 255 };

tbRgba tbRenderer_GetBackground( void )
{
	return tb_background;
}

// Shaders ----------------------------------------------------------------------------------------

// Rotation of a vector by a unit quaternion (x y z w), as tbRotate does it.
#define TB_ROTATE_GLSL                                                                                                 \
	"vec3 rotate(vec4 q, vec3 v)\n"                                                                                    \
	"{\n"                                                                                                              \
	"	vec3 t = 2.0 * cross(q.xyz, v);\n"                                                                               \
	"	return v + q.w * t + cross(q.xyz, t);\n"                                                                         \
	"}\n"

// Corner gl_VertexID of one triangle that covers the whole screen, in device coordinates (drawn
// with no vertex attributes).
#define TB_SCREEN_TRIANGLE_GLSL                                                                                        \
	"#define SCREEN_TRIANGLE vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0)\n"

// The solids' per-vertex and per-instance inputs (tbMeshVertex, tbInstanceData).
#define TB_INSTANCE_INPUTS_GLSL                                                                                        \
	"layout(location = 0) in vec3 aPosition;\n"                                                                        \
	"layout(location = 1) in vec3 aNormal;\n"                                                                          \
	"layout(location = 2) in float aShade;\n"                                                                          \
	"layout(location = 3) in vec3 iPosition;\n"                                                                        \
	"layout(location = 4) in vec4 iRotation;\n"                                                                        \
	"layout(location = 5) in vec3 iScale;\n"                                                                           \
	"layout(location = 6) in vec4 iColor;\n"

// The sky seen along a unit direction: a gradient from a pale horizon up to a darker zenith, and
// below the horizon a haze about the tone of the lit grey ground (static bodies are 138, 140, 146),
// so that a scene never floats in a void and a ground's far edge fades into it.
// The solids' fog fades towards the same colour, so far geometry melts into the sky behind it.
// Every colour is a grey with channels at most 25 apart: bodies are the only saturated pixels.
#define TB_SKY_GLSL                                                                                                    \
	"vec3 skyColor(vec3 d)\n"                                                                                          \
	"{\n"                                                                                                              \
	"	vec3 zenith = vec3(0.27, 0.31, 0.37);\n"                                                                         \
	"	vec3 horizon = vec3(0.60, 0.62, 0.65);\n"                                                                        \
	"	vec3 ground = vec3(0.50, 0.51, 0.54);\n"                                                                         \
	"	if (d.z >= 0.0) return mix(horizon, zenith, sqrt(min(1.5 * d.z, 1.0)));\n"                                       \
	"	return mix(horizon, ground, min(-4.0 * d.z, 1.0));\n"                                                            \
	"}\n"

static const char* tb_meshVertexShader =
	"#version 330 core\n" TB_INSTANCE_INPUTS_GLSL "uniform mat4 uViewProjection;\n"
	"uniform mat4 uShadowMatrix;\n"
	"uniform float uNormalOffset;\n"
	"out vec3 vNormal;\n"
	"out vec3 vWorld;\n"
	"out vec4 vColor;\n"
	"out vec3 vShadow;\n" TB_ROTATE_GLSL "void main()\n"
	"{\n"
	"	vec3 world = iPosition + rotate(iRotation, aPosition * iScale);\n"
	// Normals transform by the inverse transpose: for rotation * scale that is rotation / scale.
	"	vNormal = rotate(iRotation, aNormal / iScale);\n"
	"	vWorld = world;\n"
	"	vColor = vec4(iColor.rgb * aShade, iColor.a);\n"
	// The shadow map is read a little outside the surface (normal offset, about a texel): a surface
	// then never shadows itself where the map's texels are coarser than its slope.
	"	vShadow = (uShadowMatrix * vec4(world + normalize(vNormal) * uNormalOffset, 1.0)).xyz;\n"
	"	gl_Position = uViewProjection * vec4(world, 1.0);\n"
	"}\n";

// Compiled twice, with SHADOWS 0 and 1, so the unshadowed program has no texture read at all. No
// discard: llvmpipe then tests depth before shading and skips hidden fragments (early z).
static const char* tb_meshFragmentShader =
	"in vec3 vNormal;\n"
	"in vec3 vWorld;\n"
	"in vec4 vColor;\n"
	"in vec3 vShadow;\n"
	"uniform vec3 uLightDirection;\n"
	"uniform vec3 uEye;\n"
	"uniform sampler2DShadow uShadowMap;\n"
	"out vec4 fragColor;\n" TB_SKY_GLSL "void main()\n"
	"{\n"
	"	vec3 n = normalize(vNormal);\n"
	"	if (!gl_FrontFacing) n = -n;\n"
	"	vec3 toEye = uEye - vWorld;\n"
	"	float distance = length(toEye);\n"
	"	toEye /= distance;\n"
	"	float light = max(dot(n, uLightDirection), 0.0);\n"
	"#if SHADOWS\n"
	// One linear-filtered comparison: 2x2 texels, a soft edge a texel wide. Outside the map the
	// border depth (1) compares as lit.
	"	light *= texture(uShadowMap, vec3(vShadow.xy, min(vShadow.z, 1.0)));\n"
	"#endif\n"
	// Hemisphere ambient: sky from above, ground bounce from below.
	"	vec3 ambient = mix(vec3(0.20, 0.19, 0.18), vec3(0.36, 0.38, 0.44), 0.5 + 0.5 * n.z);\n"
	"	vec3 h = normalize(uLightDirection + toEye);\n"
	"	float specular = pow(max(dot(n, h), 0.0), 32.0) * 0.25 * step(0.001, light);\n"
	"	vec3 color = vColor.rgb * (ambient + 0.75 * light) + vec3(specular);\n"
	"	float fog = clamp((distance - 80.0) / 400.0, 0.0, 0.85);\n"
	"	fragColor = vec4(mix(color, skyColor(-toEye), fog), vColor.a);\n"
	"}\n";

// The shadow map's pass: depth only, no fragment work beyond the fixed function.
static const char* tb_depthVertexShader =
	"#version 330 core\n" TB_INSTANCE_INPUTS_GLSL "uniform mat4 uViewProjection;\n" TB_ROTATE_GLSL "void main()\n"
	"{\n"
	"	vec3 world = iPosition + rotate(iRotation, aPosition * iScale);\n"
	"	gl_Position = uViewProjection * vec4(world, 1.0);\n"
	"}\n";

static const char* tb_depthFragmentShader = "#version 330 core\n"
											"void main()\n"
											"{\n"
											"}\n";

// The sky: one triangle covering the screen at the far plane (depth 1), drawn after the solids so
// that only the pixels they left empty are shaded. The view ray of a corner is forward plus its
// device coordinates times the right and up vectors scaled by the half field of view; rays
// interpolate linearly across the screen (noperspective, exact since w is 1 at every corner).
static const char* tb_skyVertexShader = "#version 330 core\n" TB_SCREEN_TRIANGLE_GLSL "uniform vec3 uForward;\n"
										"uniform vec3 uRight;\n"
										"uniform vec3 uUp;\n"
										"noperspective out vec3 vRay;\n"
										"void main()\n"
										"{\n"
										"	vec2 p = SCREEN_TRIANGLE;\n"
										"	vRay = uForward + p.x * uRight + p.y * uUp;\n"
										"	gl_Position = vec4(p, 1.0, 1.0);\n"
										"}\n";

// The 3D view drawn at reduced resolution, stretched over the window (bilinear). The screen
// triangle's w is 1 at every corner, so interpolating without the perspective divide gives the same
// coordinates; llvmpipe then skips a divide per pixel (5 % of the pass's instructions).
static const char* tb_upscaleVertexShader =
	"#version 330 core\n" TB_SCREEN_TRIANGLE_GLSL "noperspective out vec2 vUv;\n"
	"void main()\n"
	"{\n"
	"	vec2 p = SCREEN_TRIANGLE;\n"
	"	vUv = 0.5 * p + 0.5;\n"
	"	gl_Position = vec4(p, 0.0, 1.0);\n"
	"}\n";

static const char* tb_upscaleFragmentShader = "#version 330 core\n"
											  "noperspective in vec2 vUv;\n"
											  "uniform sampler2D uImage;\n"
											  "out vec4 fragColor;\n"
											  "void main()\n"
											  "{\n"
											  "	fragColor = vec4(texture(uImage, vUv).rgb, 1.0);\n"
											  "}\n";

static const char* tb_skyFragmentShader = "#version 330 core\n"
										  "noperspective in vec3 vRay;\n"
										  "out vec4 fragColor;\n" TB_SKY_GLSL "void main()\n"
										  "{\n"
										  "	fragColor = vec4(skyColor(normalize(vRay)), 1.0);\n"
										  "}\n";

static const char* tb_lineVertexShader =
	"#version 330 core\n"
	"layout(location = 0) in vec3 aPosition;\n"
	"layout(location = 1) in vec4 aColor;\n"
	"uniform mat4 uViewProjection;\n"
	"uniform vec3 uEye;\n"
	"uniform float uPull;\n"
	"out vec4 vColor;\n"
	"void main()\n"
	"{\n"
	// Pulling by a fraction of the distance keeps the offset the same in depth-buffer terms at any
	// range, unlike a constant clip-space bias.
	"	vec3 p = aPosition + (uEye - aPosition) * uPull;\n"
	"	vColor = aColor;\n"
	"	gl_Position = uViewProjection * vec4(p, 1.0);\n"
	"}\n";

static const char* tb_lineFragmentShader = "#version 330 core\n"
										   "in vec4 vColor;\n"
										   "out vec4 fragColor;\n"
										   "void main()\n"
										   "{\n"
										   "	fragColor = vColor;\n"
										   "}\n";

static const char* tb_vertexShader2D = "#version 330 core\n"
									   "layout(location = 0) in vec2 aPosition;\n"
									   "layout(location = 1) in vec4 aColor;\n"
									   "layout(location = 2) in vec2 aUv;\n"
									   "uniform vec2 uScreenSize;\n"
									   "noperspective out vec4 vColor;\n"
									   "noperspective out vec2 vUv;\n"
									   "void main()\n"
									   "{\n"
									   "	vColor = aColor;\n"
									   "	vUv = aUv;\n"
									   "	vec2 ndc = aPosition / uScreenSize * 2.0 - 1.0;\n"
									   "	gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);\n"
									   "}\n";

// Glyphs are coverage in the atlas's red channel; everything else samples its opaque texel. The 2D
// layer's w is 1, so its inputs interpolate without the perspective divide (noperspective).
static const char* tb_fragmentShader2D = "#version 330 core\n"
										 "noperspective in vec4 vColor;\n"
										 "noperspective in vec2 vUv;\n"
										 "uniform sampler2D uAtlas;\n"
										 "out vec4 fragColor;\n"
										 "void main()\n"
										 "{\n"
										 "	fragColor = vec4(vColor.rgb, vColor.a * texture(uAtlas, vUv).r);\n"
										 "}\n";

// sources are concatenated (a version and defines line before a shared body).
static GLuint tbCompileShader( GLenum type, const char* const* sources, int count, char* error, int errorSize )
{
	GLuint shader = glCreateShader( type );
	glShaderSource( shader, count, sources, NULL );
	glCompileShader( shader );
	GLint ok = GL_FALSE;
	glGetShaderiv( shader, GL_COMPILE_STATUS, &ok );
	if ( ok == GL_FALSE )
	{
		char log[1024];
		glGetShaderInfoLog( shader, sizeof( log ), NULL, log );
		snprintf( error, (size_t)errorSize, "shader compilation failed: %s", log );
		glDeleteShader( shader );
		return 0;
	}
	return shader;
}

static GLuint tbLinkProgramParts( const char* vertexSource, const char* const* fragmentSources, int fragmentCount,
								  char* error, int errorSize )
{
	GLuint vs = tbCompileShader( GL_VERTEX_SHADER, &vertexSource, 1, error, errorSize );
	if ( vs == 0 )
	{
		return 0;
	}
	GLuint fs = tbCompileShader( GL_FRAGMENT_SHADER, fragmentSources, fragmentCount, error, errorSize );
	if ( fs == 0 )
	{
		glDeleteShader( vs );
		return 0;
	}
	GLuint program = glCreateProgram();
	glAttachShader( program, vs );
	glAttachShader( program, fs );
	glLinkProgram( program );
	glDeleteShader( vs );
	glDeleteShader( fs );
	GLint ok = GL_FALSE;
	glGetProgramiv( program, GL_LINK_STATUS, &ok );
	if ( ok == GL_FALSE )
	{
		char log[1024];
		glGetProgramInfoLog( program, sizeof( log ), NULL, log );
		snprintf( error, (size_t)errorSize, "shader link failed: %s", log );
		glDeleteProgram( program );
		return 0;
	}
	return program;
}

static GLuint tbLinkProgram( const char* vertexSource, const char* fragmentSource, char* error, int errorSize )
{
	return tbLinkProgramParts( vertexSource, &fragmentSource, 1, error, errorSize );
}

// Built-in meshes --------------------------------------------------------------------------------

static void tbPushTriangle( tbArray* out, tbVec3 a, tbVec3 b, tbVec3 c, tbVec3 na, tbVec3 nb, tbVec3 nc, float shade )
{
	tbMeshVertex* v = tbArray_Push( out, 3 );
	if ( v == NULL )
	{
		return;
	}
	tbVec3 p[3] = { a, b, c };
	tbVec3 n[3] = { na, nb, nc };
	for ( int i = 0; i < 3; ++i )
	{
		v[i].position[0] = p[i].x;
		v[i].position[1] = p[i].y;
		v[i].position[2] = p[i].z;
		v[i].normal[0] = n[i].x;
		v[i].normal[1] = n[i].y;
		v[i].normal[2] = n[i].z;
		v[i].shade = shade;
	}
}

static tbVec3 tbSpherePoint( int ring, int rings, int segment, int segments )
{
	float theta = TB_PI * (float)ring / (float)rings; // from +Z down
	float phi = 2.0f * TB_PI * (float)segment / (float)segments;
	return tbMakeVec3( sinf( theta ) * cosf( phi ), sinf( theta ) * sinf( phi ), cosf( theta ) );
}

// The octant pattern makes rolling visible. segments is a multiple of 4 and rings of 2, so no
// triangle straddles an octant boundary and every triangle takes one shade.
static void tbBuildSphere( tbArray* out, int rings, int segments )
{
	for ( int r = 0; r < rings; ++r )
	{
		for ( int s = 0; s < segments; ++s )
		{
			tbVec3 a = tbSpherePoint( r, rings, s, segments );
			tbVec3 b = tbSpherePoint( r + 1, rings, s, segments );
			tbVec3 c = tbSpherePoint( r + 1, rings, s + 1, segments );
			tbVec3 d = tbSpherePoint( r, rings, s + 1, segments );
			tbVec3 mid = tbSpherePoint( 2 * r + 1, 2 * rings, 2 * s + 1, 2 * segments );
			float shade = mid.x * mid.y * mid.z > 0.0f ? 1.0f : 0.72f;
			if ( r > 0 )
			{
				tbPushTriangle( out, a, b, d, a, b, d, shade );
			}
			if ( r < rings - 1 )
			{
				tbPushTriangle( out, d, b, c, d, b, c, shade );
			}
		}
	}
}

static void tbBuildCylinder( tbArray* out, int segments )
{
	for ( int s = 0; s < segments; ++s )
	{
		float a0 = 2.0f * TB_PI * (float)s / (float)segments;
		float a1 = 2.0f * TB_PI * (float)( s + 1 ) / (float)segments;
		tbVec3 n0 = tbMakeVec3( cosf( a0 ), sinf( a0 ), 0.0f );
		tbVec3 n1 = tbMakeVec3( cosf( a1 ), sinf( a1 ), 0.0f );
		tbVec3 p0 = tbMakeVec3( n0.x, n0.y, -1.0f );
		tbVec3 p1 = tbMakeVec3( n1.x, n1.y, -1.0f );
		tbVec3 p2 = tbMakeVec3( n1.x, n1.y, 1.0f );
		tbVec3 p3 = tbMakeVec3( n0.x, n0.y, 1.0f );
		// Quarter stripes, matching the sphere caps' octants.
		float shade = ( ( s * 4 / segments ) % 2 ) == 0 ? 1.0f : 0.72f;
		tbPushTriangle( out, p0, p1, p2, n0, n1, n1, shade );
		tbPushTriangle( out, p0, p2, p3, n0, n1, n0, shade );
	}
}

// Flat caps at z = -1 and z = 1 for tbBuildCylinder's side, counter-clockwise seen from outside,
// in the side's quarter shades.
static void tbBuildCylinderCaps( tbArray* out, int segments )
{
	for ( int s = 0; s < segments; ++s )
	{
		float a0 = 2.0f * TB_PI * (float)s / (float)segments;
		float a1 = 2.0f * TB_PI * (float)( s + 1 ) / (float)segments;
		float shade = ( ( s * 4 / segments ) % 2 ) == 0 ? 1.0f : 0.72f;
		for ( int side = -1; side <= 1; side += 2 )
		{
			float z = (float)side;
			tbVec3 n = tbMakeVec3( 0.0f, 0.0f, z );
			tbVec3 c = tbMakeVec3( 0.0f, 0.0f, z );
			tbVec3 p0 = tbMakeVec3( cosf( a0 ), sinf( a0 ), z );
			tbVec3 p1 = tbMakeVec3( cosf( a1 ), sinf( a1 ), z );
			if ( side > 0 )
			{
				tbPushTriangle( out, c, p0, p1, n, n, n, shade );
			}
			else
			{
				tbPushTriangle( out, c, p1, p0, n, n, n, shade );
			}
		}
	}
}

static void tbBuildCube( tbArray* out )
{
	for ( int axis = 0; axis < 3; ++axis )
	{
		for ( int sign = -1; sign <= 1; sign += 2 )
		{
			float n[3] = { 0.0f, 0.0f, 0.0f };
			n[axis] = (float)sign;
			tbVec3 normal = tbMakeVec3( n[0], n[1], n[2] );
			int u = ( axis + 1 ) % 3;
			int v = ( axis + 2 ) % 3;
			tbVec3 corners[4];
			static const float uv[4][2] = { { -1.0f, -1.0f }, { 1.0f, -1.0f }, { 1.0f, 1.0f }, { -1.0f, 1.0f } };
			for ( int k = 0; k < 4; ++k )
			{
				float p[3];
				p[axis] = (float)sign;
				p[u] = uv[k][0];
				p[v] = sign > 0 ? uv[k][1] : -uv[k][1];
				corners[k] = tbMakeVec3( p[0], p[1], p[2] );
			}
			tbPushTriangle( out, corners[0], corners[1], corners[2], normal, normal, normal, 1.0f );
			tbPushTriangle( out, corners[0], corners[2], corners[3], normal, normal, normal, 1.0f );
		}
	}
}

// Creation ---------------------------------------------------------------------------------------

static void tbInitArray( tbArray* a, int itemSize )
{
	memset( a, 0, sizeof( *a ) );
	a->itemSize = itemSize;
}

static void tbFreeArray( tbArray* a )
{
	free( a->data );
	memset( a, 0, sizeof( *a ) );
}

static void tbFloatAttribute( GLuint index, int size, int stride, size_t offset, bool normalizedBytes, int divisor )
{
	glEnableVertexAttribArray( index );
	if ( normalizedBytes )
	{
		glVertexAttribPointer( index, size, GL_UNSIGNED_BYTE, GL_TRUE, stride, (const void*)offset );
	}
	else
	{
		glVertexAttribPointer( index, size, GL_FLOAT, GL_FALSE, stride, (const void*)offset );
	}
	glVertexAttribDivisor( index, (GLuint)divisor );
}

static bool tbLinkMeshProgram( tbMeshUniforms* u, bool shadows, char* error, int errorSize )
{
	const char* fragment[2] = { shadows ? "#version 330 core\n#define SHADOWS 1\n"
										: "#version 330 core\n#define SHADOWS 0\n",
								tb_meshFragmentShader };
	u->program = tbLinkProgramParts( tb_meshVertexShader, fragment, 2, error, errorSize );
	if ( u->program == 0 )
	{
		return false;
	}
	u->viewProjection = glGetUniformLocation( u->program, "uViewProjection" );
	u->lightDirection = glGetUniformLocation( u->program, "uLightDirection" );
	u->eye = glGetUniformLocation( u->program, "uEye" );
	u->shadowMatrix = glGetUniformLocation( u->program, "uShadowMatrix" );
	u->normalOffset = glGetUniformLocation( u->program, "uNormalOffset" );
	u->shadowMap = glGetUniformLocation( u->program, "uShadowMap" );
	return true;
}

tbRenderer* tbRenderer_Create( char* error, int errorSize )
{
	tbRenderer* r = calloc( 1, sizeof( tbRenderer ) );
	if ( r == NULL )
	{
		snprintf( error, (size_t)errorSize, "out of memory" );
		return NULL;
	}
	tbInitArray( &r->meshVertices, sizeof( tbMeshVertex ) );
	tbInitArray( &r->meshes, sizeof( tbMeshRange ) );
	tbInitArray( &r->meshPoints, 3 * sizeof( float ) );
	tbInitArray( &r->instances, sizeof( tbInstanceData ) );
	tbInitArray( &r->instanceMeshes, sizeof( int ) );
	tbInitArray( &r->drawKeys, sizeof( tbDrawKey ) );
	tbInitArray( &r->sorted, sizeof( tbInstanceData ) );
	tbInitArray( &r->meshCounts, sizeof( int ) );
	tbInitArray( &r->casterCounts, sizeof( int ) );
	tbInitArray( &r->heights, sizeof( float ) );
	tbInitArray( &r->depthLines, sizeof( tbLineVertex ) );
	tbInitArray( &r->topLines, sizeof( tbLineVertex ) );
	tbInitArray( &r->points, sizeof( tbLineVertex ) );
	tbInitArray( &r->vertices2D, sizeof( tbVertex2D ) );

	r->textScratchSize = 300 * 1024;
	r->textScratch = malloc( (size_t)r->textScratchSize );

	bool linked = tbLinkMeshProgram( &r->lit, false, error, errorSize ) &&
				  tbLinkMeshProgram( &r->shadowed, true, error, errorSize );
	r->depthProgram = linked ? tbLinkProgram( tb_depthVertexShader, tb_depthFragmentShader, error, errorSize ) : 0;
	r->skyProgram =
		r->depthProgram != 0 ? tbLinkProgram( tb_skyVertexShader, tb_skyFragmentShader, error, errorSize ) : 0;
	r->lineProgram =
		r->skyProgram != 0 ? tbLinkProgram( tb_lineVertexShader, tb_lineFragmentShader, error, errorSize ) : 0;
	r->program2D = r->lineProgram != 0 ? tbLinkProgram( tb_vertexShader2D, tb_fragmentShader2D, error, errorSize ) : 0;
	r->upscaleProgram =
		r->program2D != 0 ? tbLinkProgram( tb_upscaleVertexShader, tb_upscaleFragmentShader, error, errorSize ) : 0;
	if ( r->upscaleProgram == 0 || r->textScratch == NULL )
	{
		tbRenderer_Destroy( r );
		return NULL;
	}
	r->depthViewProjection = glGetUniformLocation( r->depthProgram, "uViewProjection" );
	r->upscaleImage = glGetUniformLocation( r->upscaleProgram, "uImage" );
	r->skyForward = glGetUniformLocation( r->skyProgram, "uForward" );
	r->skyRight = glGetUniformLocation( r->skyProgram, "uRight" );
	r->skyUp = glGetUniformLocation( r->skyProgram, "uUp" );
	r->shadows = true;
	r->profile = tbRenderProfile_full;
	r->lineViewProjection = glGetUniformLocation( r->lineProgram, "uViewProjection" );
	r->lineEye = glGetUniformLocation( r->lineProgram, "uEye" );
	r->linePull = glGetUniformLocation( r->lineProgram, "uPull" );
	r->screenSize2D = glGetUniformLocation( r->program2D, "uScreenSize" );
	r->atlas2D = glGetUniformLocation( r->program2D, "uAtlas" );

	// The atlas starts with only its opaque texel; the font is baked at the first text's size.
	r->atlasPixels = calloc( (size_t)TB_ATLAS_WIDTH * TB_ATLAS_HEIGHT, 1 );
	if ( r->atlasPixels == NULL )
	{
		snprintf( error, (size_t)errorSize, "out of memory" );
		tbRenderer_Destroy( r );
		return NULL;
	}
	r->atlasPixels[0] = 255;
	tbFont_Load();
	glGenTextures( 1, &r->atlas );
	glBindTexture( GL_TEXTURE_2D, r->atlas );
	glPixelStorei( GL_UNPACK_ALIGNMENT, 1 );
	glTexImage2D( GL_TEXTURE_2D, 0, GL_R8, TB_ATLAS_WIDTH, TB_ATLAS_HEIGHT, 0, GL_RED, GL_UNSIGNED_BYTE,
				  r->atlasPixels );
	// Nearest: glyph quads sit on whole pixels, so each texel lands on one pixel, unblurred.
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE );
	glBindTexture( GL_TEXTURE_2D, 0 );

	// Solids: per-vertex attributes 0-2 from the mesh buffer, per-instance 3-6 re-pointed per batch.
	glGenVertexArrays( 1, &r->meshVao );
	glGenBuffers( 1, &r->meshVbo );
	glGenBuffers( 1, &r->instanceVbo );
	glBindVertexArray( r->meshVao );
	glBindBuffer( GL_ARRAY_BUFFER, r->meshVbo );
	tbFloatAttribute( 0, 3, sizeof( tbMeshVertex ), offsetof( tbMeshVertex, position ), false, 0 );
	tbFloatAttribute( 1, 3, sizeof( tbMeshVertex ), offsetof( tbMeshVertex, normal ), false, 0 );
	tbFloatAttribute( 2, 1, sizeof( tbMeshVertex ), offsetof( tbMeshVertex, shade ), false, 0 );

	glGenVertexArrays( 1, &r->lineVao );
	glGenBuffers( 1, &r->lineVbo );
	glBindVertexArray( r->lineVao );
	glBindBuffer( GL_ARRAY_BUFFER, r->lineVbo );
	tbFloatAttribute( 0, 3, sizeof( tbLineVertex ), offsetof( tbLineVertex, position ), false, 0 );
	tbFloatAttribute( 1, 4, sizeof( tbLineVertex ), offsetof( tbLineVertex, color ), true, 0 );

	glGenVertexArrays( 1, &r->skyVao );
	glGenVertexArrays( 1, &r->vao2D );
	glGenBuffers( 1, &r->vbo2D );
	glBindVertexArray( r->vao2D );
	glBindBuffer( GL_ARRAY_BUFFER, r->vbo2D );
	tbFloatAttribute( 0, 2, sizeof( tbVertex2D ), offsetof( tbVertex2D, x ), false, 0 );
	tbFloatAttribute( 1, 4, sizeof( tbVertex2D ), offsetof( tbVertex2D, color ), true, 0 );
	tbFloatAttribute( 2, 2, sizeof( tbVertex2D ), offsetof( tbVertex2D, u ), false, 0 );
	glBindVertexArray( 0 );

	tbArray builtin;
	tbInitArray( &builtin, sizeof( tbMeshVertex ) );
	// In tbBuiltinMesh order; the low-detail versions keep the octant pattern (multiples of 4 and 2).
	int ends[tbMesh_builtinCount];
	tbBuildSphere( &builtin, 12, 24 );
	ends[tbMesh_sphere] = builtin.count;
	tbBuildCylinder( &builtin, 24 );
	ends[tbMesh_cylinder] = builtin.count;
	tbBuildCube( &builtin );
	ends[tbMesh_cube] = builtin.count;
	tbBuildSphere( &builtin, 6, 12 );
	ends[tbMesh_sphereLow] = builtin.count;
	tbBuildCylinder( &builtin, 12 );
	ends[tbMesh_cylinderLow] = builtin.count;
	tbBuildCylinder( &builtin, 32 );
	tbBuildCylinderCaps( &builtin, 32 );
	ends[tbMesh_solidCylinder] = builtin.count;
	tbBuildCylinder( &builtin, 12 );
	tbBuildCylinderCaps( &builtin, 12 );
	ends[tbMesh_solidCylinderLow] = builtin.count;
	const tbMeshVertex* v = builtin.data;
	for ( int m = 0; m < tbMesh_builtinCount; ++m )
	{
		int first = m > 0 ? ends[m - 1] : 0;
		tbRenderer_AddClosedMesh( r, v + first, ends[m] - first );
	}
	tbFreeArray( &builtin );
	if ( r->meshes.count != tbMesh_builtinCount )
	{
		snprintf( error, (size_t)errorSize, "out of memory building meshes" );
		tbRenderer_Destroy( r );
		return NULL;
	}
	r->builtinVertexCount = r->meshVertices.count;
	r->builtinPointCount = r->meshPoints.count;
	stb_easy_font_spacing( 0.0f );
	return r;
}

void tbRenderer_Destroy( tbRenderer* r )
{
	if ( r == NULL )
	{
		return;
	}
	glDeleteProgram( r->lit.program );
	glDeleteProgram( r->shadowed.program );
	glDeleteProgram( r->depthProgram );
	glDeleteProgram( r->skyProgram );
	glDeleteProgram( r->upscaleProgram );
	glDeleteFramebuffers( 1, &r->sceneFramebuffer );
	glDeleteTextures( 1, &r->sceneColor );
	glDeleteRenderbuffers( 1, &r->sceneDepth );
	glDeleteProgram( r->lineProgram );
	glDeleteProgram( r->program2D );
	glDeleteVertexArrays( 1, &r->meshVao );
	glDeleteVertexArrays( 1, &r->lineVao );
	glDeleteVertexArrays( 1, &r->vao2D );
	glDeleteVertexArrays( 1, &r->skyVao );
	glDeleteBuffers( 1, &r->meshVbo );
	glDeleteBuffers( 1, &r->instanceVbo );
	glDeleteBuffers( 1, &r->lineVbo );
	glDeleteBuffers( 1, &r->vbo2D );
	glDeleteFramebuffers( 1, &r->shadowFramebuffer );
	glDeleteTextures( 1, &r->shadowTexture );
	tbFreeArray( &r->meshVertices );
	tbFreeArray( &r->meshes );
	tbFreeArray( &r->meshPoints );
	tbFreeArray( &r->instances );
	tbFreeArray( &r->instanceMeshes );
	tbFreeArray( &r->drawKeys );
	tbFreeArray( &r->sorted );
	tbFreeArray( &r->meshCounts );
	tbFreeArray( &r->casterCounts );
	tbFreeArray( &r->heights );
	tbFreeArray( &r->depthLines );
	tbFreeArray( &r->topLines );
	tbFreeArray( &r->points );
	tbFreeArray( &r->vertices2D );
	free( r->textScratch );
	free( r->atlasPixels );
	glDeleteTextures( 1, &r->atlas );
	free( r );
}

// Meshes and instances ---------------------------------------------------------------------------

static int tbAddMesh( tbRenderer* r, const tbMeshVertex* vertices, int count, bool closed )
{
	int first = r->meshVertices.count;
	tbMeshVertex* dst = tbArray_Push( &r->meshVertices, count );
	tbMeshRange* range = tbArray_Push( &r->meshes, 1 );
	if ( dst == NULL || range == NULL )
	{
		return tbMesh_cube; // out of memory: draw something sensible rather than nothing
	}
	memcpy( dst, vertices, (size_t)count * sizeof( tbMeshVertex ) );
	range->first = first;
	range->count = count;
	range->closed = closed;
	range->pointFirst = r->meshPoints.count;
	range->pointCount = 0;
	// The round built-ins have their heights in closed form (tbInstanceHeight); a hull's triangles
	// repeat each of its few corners, which are kept once.
	int index = r->meshes.count - 1;
	bool round = index < tbMesh_builtinCount && index != tbMesh_cube;
	for ( int i = 0; closed && round == false && i < count; ++i )
	{
		const float* p = vertices[i].position;
		const float* points = r->meshPoints.data;
		points += 3 * range->pointFirst;
		bool seen = false;
		for ( int k = 0; k < range->pointCount && seen == false; ++k )
		{
			seen = memcmp( points + 3 * k, p, 3 * sizeof( float ) ) == 0;
		}
		float* point = seen ? NULL : tbArray_Push( &r->meshPoints, 1 );
		if ( seen == false && point == NULL )
		{
			// Out of memory: without all its corners the mesh's heights fall back to its box.
			r->meshPoints.count = range->pointFirst;
			range->pointCount = 0;
			break;
		}
		if ( point != NULL )
		{
			memcpy( point, p, 3 * sizeof( float ) );
			range->pointCount += 1;
		}
	}
	for ( int k = 0; k < 3; ++k )
	{
		range->lower[k] = count > 0 ? FLT_MAX : 0.0f;
		range->upper[k] = count > 0 ? -FLT_MAX : 0.0f;
		for ( int i = 0; i < count; ++i )
		{
			range->lower[k] = fminf( range->lower[k], vertices[i].position[k] );
			range->upper[k] = fmaxf( range->upper[k], vertices[i].position[k] );
		}
	}
	r->meshesDirty = true;
	return r->meshes.count - 1;
}

int tbRenderer_AddMesh( tbRenderer* r, const tbMeshVertex* vertices, int count )
{
	return tbAddMesh( r, vertices, count, false );
}

int tbRenderer_AddClosedMesh( tbRenderer* r, const tbMeshVertex* vertices, int count )
{
	return tbAddMesh( r, vertices, count, true );
}

void tbRenderer_ClearMeshes( tbRenderer* r )
{
	r->meshes.count = tbMesh_builtinCount;
	r->meshVertices.count = r->builtinVertexCount;
	r->meshPoints.count = r->builtinPointCount;
	r->meshesDirty = true;
	// Queued instances may name meshes that are gone: drop them (one frame misses some bodies).
	r->instances.count = 0;
	r->instanceMeshes.count = 0;
}

int tbRenderer_GetMeshVertexTotal( const tbRenderer* r )
{
	return r->meshVertices.count;
}

void tbRenderer_Instance( tbRenderer* r, int mesh, tbVec3 position, tbQuat rotation, tbVec3 scale, tbRgba color )
{
	if ( mesh < 0 || mesh >= r->meshes.count )
	{
		return;
	}
	tbInstanceData* d = tbArray_Push( &r->instances, 1 );
	int* m = tbArray_Push( &r->instanceMeshes, 1 );
	if ( d == NULL || m == NULL )
	{
		return;
	}
	d->position[0] = position.x;
	d->position[1] = position.y;
	d->position[2] = position.z;
	d->rotation[0] = rotation.x;
	d->rotation[1] = rotation.y;
	d->rotation[2] = rotation.z;
	d->rotation[3] = rotation.w;
	d->scale[0] = scale.x;
	d->scale[1] = scale.y;
	d->scale[2] = scale.z;
	d->color = color;
	*m = mesh;
}

// Lines and points -------------------------------------------------------------------------------

static void tbPushLineVertex( tbLineVertex* v, tbVec3 p, tbRgba c )
{
	v->position[0] = p.x;
	v->position[1] = p.y;
	v->position[2] = p.z;
	v->color = c;
}

void tbRenderer_Line( tbRenderer* r, tbVec3 a, tbVec3 b, tbRgba color, bool onTop )
{
	tbLineVertex* v = tbArray_Push( onTop ? &r->topLines : &r->depthLines, 2 );
	if ( v != NULL )
	{
		tbPushLineVertex( v, a, color );
		tbPushLineVertex( v + 1, b, color );
	}
}

void tbRenderer_Point( tbRenderer* r, tbVec3 p, tbRgba color )
{
	tbLineVertex* v = tbArray_Push( &r->points, 1 );
	if ( v != NULL )
	{
		tbPushLineVertex( v, p, color );
	}
}

void tbRenderer_WireBox( tbRenderer* r, tbVec3 center, tbVec3 halfExtents, tbQuat rotation, tbRgba color )
{
	tbVec3 c[8];
	for ( int i = 0; i < 8; ++i )
	{
		tbVec3 local = tbMakeVec3( ( i & 1 ) ? halfExtents.x : -halfExtents.x, ( i & 2 ) ? halfExtents.y : -halfExtents.y,
								   ( i & 4 ) ? halfExtents.z : -halfExtents.z );
		c[i] = tbAdd( center, tbRotate( rotation, local ) );
	}
	// The edges join the corners that differ in one coordinate (one bit of the index).
	for ( int i = 0; i < 8; ++i )
	{
		for ( int bit = 1; bit < 8; bit <<= 1 )
		{
			if ( ( i & bit ) == 0 )
			{
				tbRenderer_Line( r, c[i], c[i | bit], color, true );
			}
		}
	}
}

// 2D ---------------------------------------------------------------------------------------------

static void tbSet2D( tbVertex2D* v, float x, float y, tbRgba c )
{
	v->x = x;
	v->y = y;
	// The centre of the atlas's opaque texel.
	v->u = 0.5f / (float)TB_ATLAS_WIDTH;
	v->v = 0.5f / (float)TB_ATLAS_HEIGHT;
	v->color = c;
}

static void tbQuad2D( tbVertex2D* v, float x0, float y0, float x1, float y1, float x2, float y2, float x3, float y3,
					  tbRgba c )
{
	tbSet2D( v + 0, x0, y0, c );
	tbSet2D( v + 1, x1, y1, c );
	tbSet2D( v + 2, x2, y2, c );
	tbSet2D( v + 3, x0, y0, c );
	tbSet2D( v + 4, x2, y2, c );
	tbSet2D( v + 5, x3, y3, c );
}

void tbRenderer_Rect2D( tbRenderer* r, float x, float y, float w, float h, tbRgba color )
{
	tbVertex2D* v = tbArray_Push( &r->vertices2D, 6 );
	if ( v != NULL )
	{
		tbQuad2D( v, x, y, x + w, y, x + w, y + h, x, y + h, color );
	}
}

void tbRenderer_Line2D( tbRenderer* r, float x0, float y0, float x1, float y1, float width, tbRgba color )
{
	float dx = x1 - x0;
	float dy = y1 - y0;
	float length = sqrtf( dx * dx + dy * dy );
	if ( length < 1.0e-6f )
	{
		return;
	}
	// A quad of the given width around the segment.
	float nx = -dy / length * 0.5f * width;
	float ny = dx / length * 0.5f * width;
	tbVertex2D* v = tbArray_Push( &r->vertices2D, 6 );
	if ( v != NULL )
	{
		tbQuad2D( v, x0 + nx, y0 + ny, x1 + nx, y1 + ny, x1 - nx, y1 - ny, x0 - nx, y0 - ny, color );
	}
}

int tbRenderer_Mark2D( const tbRenderer* r )
{
	return r->vertices2D.count;
}

void tbRenderer_InsertRect2D( tbRenderer* r, int mark, float x, float y, float w, float h, tbRgba color )
{
	if ( tbArray_Push( &r->vertices2D, 6 ) == NULL || mark < 0 || mark > r->vertices2D.count - 6 )
	{
		return;
	}
	tbVertex2D* base = r->vertices2D.data;
	memmove( base + mark + 6, base + mark, (size_t)( r->vertices2D.count - 6 - mark ) * sizeof( tbVertex2D ) );
	tbQuad2D( base + mark, x, y, x + w, y, x + w, y + h, x, y + h, color );
}

// stb_easy_font emits quads of 4 vertices (x, y, z floats and 4 colour bytes) relative to the
// position it is given; each becomes two triangles, scaled.
#define TB_MAX_TEXT_LINE 1000

// The font's pixel height (ascent to descent) at a UI scale: it fills the 12-pixel line of scale 1.
static float tbFontPixels( float scale )
{
	return 12.0f * scale;
}

// Bake the font at pixelHeight unless the atlas holds it already. false: no TrueType text.
static bool tbEnsureBaked( tbRenderer* r, float pixelHeight )
{
	if ( tbFont_IsLoaded() == false )
	{
		return false;
	}
	if ( r->bakedHeight == pixelHeight )
	{
		return true;
	}
	memset( r->atlasPixels, 0, (size_t)TB_ATLAS_WIDTH * TB_ATLAS_HEIGHT );
	if ( tbFont_Bake( pixelHeight, r->atlasPixels, TB_ATLAS_WIDTH, TB_ATLAS_HEIGHT, r->glyphs ) == false )
	{
		return false;
	}
	glBindTexture( GL_TEXTURE_2D, r->atlas );
	glPixelStorei( GL_UNPACK_ALIGNMENT, 1 );
	glTexSubImage2D( GL_TEXTURE_2D, 0, 0, 0, TB_ATLAS_WIDTH, TB_ATLAS_HEIGHT, GL_RED, GL_UNSIGNED_BYTE, r->atlasPixels );
	glBindTexture( GL_TEXTURE_2D, 0 );
	r->bakedHeight = pixelHeight;
	return true;
}

// One line of anti-aliased text from the atlas, its top-left at (x, y). Returns its width.
static float tbTrueTypeLine( tbRenderer* r, float x, float y, const char* line, size_t length, float pixelHeight,
							 tbRgba color )
{
	float pen = x;
	float baseline = roundf( y + tbFont_Ascent( pixelHeight ) );
	for ( size_t i = 0; i < length; ++i )
	{
		unsigned char ch = (unsigned char)line[i];
		int index = ch == '\t' ? ' ' - TB_FONT_FIRST : ( ch < TB_FONT_FIRST || ch > 126 ? '?' : ch ) - TB_FONT_FIRST;
		const tbGlyph* g = r->glyphs + index;
		if ( g->x1 > g->x0 )
		{
			tbVertex2D* v = tbArray_Push( &r->vertices2D, 6 );
			if ( v != NULL )
			{
				float x0 = roundf( pen + g->xoff );
				float y0 = baseline + g->yoff;
				float x1 = x0 + (float)( g->x1 - g->x0 );
				float y1 = y0 + (float)( g->y1 - g->y0 );
				tbQuad2D( v, x0, y0, x1, y0, x1, y1, x0, y1, color );
				float u0 = (float)g->x0 / (float)TB_ATLAS_WIDTH;
				float u1 = (float)g->x1 / (float)TB_ATLAS_WIDTH;
				float v0 = (float)g->y0 / (float)TB_ATLAS_HEIGHT;
				float v1 = (float)g->y1 / (float)TB_ATLAS_HEIGHT;
				const float uv[6][2] = { { u0, v0 }, { u1, v0 }, { u1, v1 }, { u0, v0 }, { u1, v1 }, { u0, v1 } };
				for ( int k = 0; k < 6; ++k )
				{
					v[k].u = uv[k][0];
					v[k].v = uv[k][1];
				}
			}
		}
		pen += g->xadvance;
	}
	return pen - x;
}

float tbRenderer_Text2D( tbRenderer* r, float x, float y, const char* text, float scale, tbRgba color )
{
	if ( tbEnsureBaked( r, tbFontPixels( scale ) ) )
	{
		float widest = 0.0f;
		float lineY = y;
		for ( const char* line = text; line != NULL && *line != '\0'; )
		{
			const char* end = strchr( line, '\n' );
			size_t length = end != NULL ? (size_t)( end - line ) : strlen( line );
			float w = tbTrueTypeLine( r, roundf( x ), lineY, line, length, tbFontPixels( scale ), color );
			widest = w > widest ? w : widest;
			lineY += tbRenderer_LineHeight( scale );
			line = end != NULL ? end + 1 : NULL;
		}
		return widest;
	}
	float widest = 0.0f;
	float lineY = y;
	const char* line = text;
	while ( line != NULL && *line != '\0' )
	{
		const char* end = strchr( line, '\n' );
		size_t length = end != NULL ? (size_t)( end - line ) : strlen( line );
		char buffer[TB_MAX_TEXT_LINE + 1];
		size_t n = length < TB_MAX_TEXT_LINE ? length : TB_MAX_TEXT_LINE;
		for ( size_t i = 0; i < n; ++i )
		{
			// stb_easy_font draws only printable ASCII; tabs become spaces.
			unsigned char ch = (unsigned char)line[i];
			buffer[i] = ch == '\t' ? ' ' : ( ch < 32 || ch > 126 ? '?' : (char)ch );
		}
		buffer[n] = '\0';
		int quads = stb_easy_font_print( 0.0f, 0.0f, buffer, NULL, r->textScratch, r->textScratchSize );
		tbVertex2D* v = tbArray_Push( &r->vertices2D, 6 * quads );
		if ( v != NULL )
		{
			const char* q = r->textScratch;
			for ( int i = 0; i < quads; ++i )
			{
				float p[4][2];
				for ( int k = 0; k < 4; ++k )
				{
					float xyz[3];
					memcpy( xyz, q + ( 4 * i + k ) * 16, sizeof( xyz ) );
					p[k][0] = x + xyz[0] * scale;
					p[k][1] = lineY + xyz[1] * scale;
				}
				tbQuad2D( v + 6 * i, p[0][0], p[0][1], p[1][0], p[1][1], p[2][0], p[2][1], p[3][0], p[3][1], color );
			}
		}
		float w = (float)stb_easy_font_width( buffer ) * scale;
		widest = w > widest ? w : widest;
		lineY += tbRenderer_LineHeight( scale );
		line = end != NULL ? end + 1 : NULL;
	}
	return widest;
}

float tbRenderer_TextWidth( const char* text, float scale )
{
	if ( tbFont_IsLoaded() )
	{
		return tbFont_TextWidth( text, tbFontPixels( scale ) );
	}
	char buffer[TB_MAX_TEXT_LINE + 1];
	snprintf( buffer, sizeof( buffer ), "%s", text );
	return (float)stb_easy_font_width( buffer ) * scale;
}

float tbRenderer_LineHeight( float scale )
{
	// stb_easy_font_height gives 12 for one line: glyphs 7 tall plus descenders and leading.
	return (float)stb_easy_font_height( (char*)"A" ) * scale;
}

// Drawing ----------------------------------------------------------------------------------------

static void tbUploadStream( GLuint buffer, const void* data, size_t bytes )
{
	glBindBuffer( GL_ARRAY_BUFFER, buffer );
	// Orphan the old storage so the driver does not wait for last frame's draws.
	glBufferData( GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_DRAW );
	glBufferSubData( GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, data );
}

// One instanced draw per mesh; counts[m] is the end of mesh m's run in the instance buffer, whose
// runs begin at instance first. With cull, closed meshes lose their back faces (half their
// triangles never reach the rasterizer).
static void tbDrawMeshRuns( tbRenderer* r, int first, const int* counts, int meshCount, bool cull )
{
	const tbMeshRange* ranges = r->meshes.data;
	int start = first;
	for ( int m = 0; m < meshCount; ++m )
	{
		int end = counts[m];
		int n = end - start;
		if ( n > 0 )
		{
			if ( cull && ranges[m].closed )
			{
				glEnable( GL_CULL_FACE );
			}
			else
			{
				glDisable( GL_CULL_FACE );
			}
			// GL 3.3 has no base instance, so the instance attributes are re-pointed at this run.
			size_t base = (size_t)start * sizeof( tbInstanceData );
			int stride = sizeof( tbInstanceData );
			tbFloatAttribute( 3, 3, stride, base + offsetof( tbInstanceData, position ), false, 1 );
			tbFloatAttribute( 4, 4, stride, base + offsetof( tbInstanceData, rotation ), false, 1 );
			tbFloatAttribute( 5, 3, stride, base + offsetof( tbInstanceData, scale ), false, 1 );
			tbFloatAttribute( 6, 4, stride, base + offsetof( tbInstanceData, color ), true, 1 );
			glDrawArraysInstanced( GL_TRIANGLES, ranges[m].first, ranges[m].count, n );
		}
		start = end;
	}
	glDisable( GL_CULL_FACE );
}

static int tbCompareDrawKeys( const void* a, const void* b )
{
	float da = ( (const tbDrawKey*)a )->distanceSquared;
	float db = ( (const tbDrawKey*)b )->distanceSquared;
	return ( da > db ) - ( da < db );
}

// Groups the queued instances by mesh into r->sorted, nearest first within each mesh, so that each
// mesh is one instanced draw and near solids fill the depth buffer before the ones they hide
// (llvmpipe then skips shading the hidden fragments). Returns counts (the end of each mesh's run)
// or NULL when out of memory.
static int* tbSortInstances( tbRenderer* r, tbVec3 eye )
{
	int meshCount = r->meshes.count;
	int instanceCount = r->instances.count;
	r->meshCounts.count = 0;
	r->sorted.count = 0;
	r->drawKeys.count = 0;
	int* counts = tbArray_Push( &r->meshCounts, meshCount + 1 );
	tbDrawKey* keys = tbArray_Push( &r->drawKeys, instanceCount );
	if ( counts == NULL || keys == NULL || tbArray_Push( &r->sorted, instanceCount ) == NULL )
	{
		return NULL;
	}
	memset( counts, 0, (size_t)( meshCount + 1 ) * sizeof( int ) );
	int* meshOf = r->instanceMeshes.data;
	const tbInstanceData* instances = r->instances.data;
	for ( int i = 0; i < instanceCount; ++i )
	{
		// The software profile draws every sphere and cylinder with the low-detail meshes.
		if ( r->profile == tbRenderProfile_software )
		{
			meshOf[i] = meshOf[i] == tbMesh_sphere ? tbMesh_sphereLow
												   : ( meshOf[i] == tbMesh_cylinder ? tbMesh_cylinderLow : meshOf[i] );
		}
		const float* p = instances[i].position;
		tbVec3 d = tbMakeVec3( p[0] - eye.x, p[1] - eye.y, p[2] - eye.z );
		keys[i].distanceSquared = tbDot( d, d );
		keys[i].index = i;
		counts[meshOf[i] + 1] += 1;
	}
	qsort( keys, (size_t)instanceCount, sizeof( tbDrawKey ), tbCompareDrawKeys );
	for ( int m = 0; m < meshCount; ++m )
	{
		counts[m + 1] += counts[m];
	}
	// Counting sort by mesh, visiting the instances nearest first: stable, so each run stays sorted.
	tbInstanceData* sorted = r->sorted.data;
	for ( int k = 0; k < instanceCount; ++k )
	{
		int i = keys[k].index;
		sorted[counts[meshOf[i]]++] = instances[i];
	}
	// counts[m] is now the end of mesh m's run, which is where mesh m + 1 starts.
	return counts;
}

// The world box of one instance: its mesh's bounds, scaled, turned and placed.
static void tbInstanceBox( const tbInstanceData* d, const tbMeshRange* range, tbVec3* lower, tbVec3* upper )
{
	tbVec3 s = tbMakeVec3( d->scale[0], d->scale[1], d->scale[2] );
	tbVec3 center = tbMakeVec3( 0.5f * s.x * ( range->lower[0] + range->upper[0] ),
								0.5f * s.y * ( range->lower[1] + range->upper[1] ),
								0.5f * s.z * ( range->lower[2] + range->upper[2] ) );
	tbVec3 half = tbMakeVec3( 0.5f * fabsf( s.x ) * ( range->upper[0] - range->lower[0] ),
							  0.5f * fabsf( s.y ) * ( range->upper[1] - range->lower[1] ),
							  0.5f * fabsf( s.z ) * ( range->upper[2] - range->lower[2] ) );
	tbMat3 m = tbMakeMatFromQuat( tbMakeQuat( d->rotation[3], d->rotation[0], d->rotation[1], d->rotation[2] ) );
	tbVec3 c = tbAdd( tbMakeVec3( d->position[0], d->position[1], d->position[2] ), tbMulMV( m, center ) );
	// A turned box's extent along a world axis: its half extents weighted by |cos| of the angles.
	tbVec3 e = tbMakeVec3( fabsf( m.cx.x ) * half.x + fabsf( m.cy.x ) * half.y + fabsf( m.cz.x ) * half.z,
						   fabsf( m.cx.y ) * half.x + fabsf( m.cy.y ) * half.y + fabsf( m.cz.y ) * half.z,
						   fabsf( m.cx.z ) * half.x + fabsf( m.cy.z ) * half.y + fabsf( m.cz.z ) * half.z );
	*lower = tbSub( c, e );
	*upper = tbAdd( c, e );
}

// The world box of every queued instance.
static bool tbInstanceBounds( const tbRenderer* r, tbVec3* lower, tbVec3* upper )
{
	const tbInstanceData* instances = r->instances.data;
	const int* meshOf = r->instanceMeshes.data;
	const tbMeshRange* ranges = r->meshes.data;
	tbVec3 lo = tbMakeVec3( FLT_MAX, FLT_MAX, FLT_MAX );
	tbVec3 hi = tbMakeVec3( -FLT_MAX, -FLT_MAX, -FLT_MAX );
	for ( int i = 0; i < r->instances.count; ++i )
	{
		tbVec3 boxLower, boxUpper;
		tbInstanceBox( instances + i, ranges + meshOf[i], &boxLower, &boxUpper );
		lo = tbMinVec( lo, boxLower );
		hi = tbMaxVec( hi, boxUpper );
	}
	*lower = lo;
	*upper = hi;
	return r->instances.count > 0 && lo.x <= hi.x && isfinite( lo.x + lo.y + lo.z + hi.x + hi.y + hi.z );
}

// Towards the light; above the horizon (z > 0), which tbSelectCasters relies on.
static tbVec3 tbLightDirection( void )
{
	return tbNormalize( tbMakeVec3( 0.45f, -0.35f, 0.82f ) );
}

// A solid resting on another sinks a few millimetres into it. Bottoms up to this far below a solid's
// top still count as above it (tbSelectCasters): only points that deep inside it, where they are
// hidden, or about that close to its side, could lose a shadow by it.
#define TB_CASTER_SINK 0.05f

// The lowest and highest z of one instance, exact for closed meshes: a turned box around a rolling
// ball or tumbling hull would reach well below it (a ball's box corner dips 0.73 radii under it) and
// keep the ground casting. Open meshes give their box's.
static void tbInstanceHeight( const tbRenderer* r, const tbInstanceData* d, int mesh, float* bottom, float* top )
{
	const tbMeshRange* range = (const tbMeshRange*)r->meshes.data + mesh;
	float sx = fabsf( d->scale[0] );
	float sy = fabsf( d->scale[1] );
	float radius = sx > sy ? sx : sy;
	float half = -1.0f;
	if ( mesh == tbMesh_sphere || mesh == tbMesh_sphereLow )
	{
		// Unit vertices: the farthest is one scale from the centre.
		float sz = fabsf( d->scale[2] );
		half = radius > sz ? radius : sz;
	}
	else if ( mesh == tbMesh_cylinder || mesh == tbMesh_cylinderLow || mesh == tbMesh_solidCylinder ||
			  mesh == tbMesh_solidCylinderLow )
	{
		// A cylinder's extent along z: its half height times |cos| of its axis's tilt plus its
		// radius times the sine.
		tbQuat q = tbMakeQuat( d->rotation[3], d->rotation[0], d->rotation[1], d->rotation[2] );
		float axisZ = fabsf( tbRotate( q, tbMakeVec3( 0.0f, 0.0f, 1.0f ) ).z );
		half = fabsf( d->scale[2] ) * axisZ + radius * sqrtf( fmaxf( 0.0f, 1.0f - axisZ * axisZ ) );
	}
	if ( half >= 0.0f )
	{
		*bottom = d->position[2] - half;
		*top = d->position[2] + half;
		return;
	}
	if ( range->pointCount > 0 )
	{
		// The height of a corner: the rotation's bottom row, times the scale, dotted with it.
		tbQuat q = tbMakeQuat( d->rotation[3], d->rotation[0], d->rotation[1], d->rotation[2] );
		tbMat3 m = tbMakeMatFromQuat( q );
		float rx = m.cx.z * d->scale[0];
		float ry = m.cy.z * d->scale[1];
		float rz = m.cz.z * d->scale[2];
		const float* points = (const float*)r->meshPoints.data + 3 * range->pointFirst;
		float low = FLT_MAX;
		float high = -FLT_MAX;
		for ( int k = 0; k < range->pointCount; ++k )
		{
			float z = rx * points[3 * k] + ry * points[3 * k + 1] + rz * points[3 * k + 2];
			low = fminf( low, z );
			high = fmaxf( high, z );
		}
		*bottom = d->position[2] + low;
		*top = d->position[2] + high;
		return;
	}
	tbVec3 lower, upper;
	tbInstanceBox( d, range, &lower, &upper );
	*bottom = lower.z;
	*top = upper.z;
}

// The shadow map's casters. The light is above the horizon, so the ray from a point towards it
// rises: a solid shadows only points lower than its top. Every closed mesh here is convex (the
// built-in shapes and hulls), and a convex solid does not shadow its own lit faces. So a closed
// solid whose top is at or below the bottom of every other solid shadows nothing, and the depth
// pass leaves it out. That is the ground slab under most scenes, which covers the whole map: the
// showcase's frame on llvmpipe takes 107.6 M instructions without it against 115.5 M with it.
// The casters are appended to r->sorted after the instances drawn, grouped by mesh like them, and
// the ends of their runs in it are returned, or NULL when every instance casts.
static const int* tbSelectCasters( tbRenderer* r, const int* counts )
{
	int total = r->sorted.count;
	int meshCount = r->meshes.count;
	const tbMeshRange* ranges = r->meshes.data;
	r->heights.count = 0;
	r->casterCounts.count = 0;
	float* heights = tbArray_Push( &r->heights, total );
	int* casterCounts = tbArray_Push( &r->casterCounts, meshCount );
	if ( total < 2 || heights == NULL || casterCounts == NULL || tbArray_Push( &r->sorted, total ) == NULL )
	{
		r->sorted.count = total;
		return NULL;
	}
	// Each instance's bottom and top, the lowest bottom of all, the instance it belongs to, and the
	// lowest bottom of the others.
	tbInstanceData* instances = r->sorted.data;
	float lowest = FLT_MAX;
	float secondLowest = FLT_MAX;
	int lowestIndex = -1;
	for ( int m = 0, i = 0; m < meshCount; ++m )
	{
		for ( ; i < counts[m]; ++i )
		{
			float bottom;
			tbInstanceHeight( r, instances + i, m, &bottom, heights + i );
			if ( bottom < lowest )
			{
				secondLowest = lowest;
				lowest = bottom;
				lowestIndex = i;
			}
			else if ( bottom < secondLowest )
			{
				secondLowest = bottom;
			}
		}
	}
	tbInstanceData* casters = instances + total;
	int casterCount = 0;
	for ( int m = 0, i = 0; m < meshCount; ++m )
	{
		for ( ; i < counts[m]; ++i )
		{
			float below = i == lowestIndex ? secondLowest : lowest;
			if ( ranges[m].closed == false || heights[i] > below + TB_CASTER_SINK )
			{
				casters[casterCount++] = instances[i];
			}
		}
		casterCounts[m] = total + casterCount;
	}
	r->sorted.count = casterCount < total ? total + casterCount : total;
	return casterCount < total ? casterCounts : NULL;
}

// The shadow map's orthographic box, seen along the light: it covers the scene's solids within
// 1.5 camera distances of the target (horizontally), a square in the light's view whose centre
// moves in whole texels (so shadow edges do not crawl while the camera pans). Casters outside its
// depth range still cast: the depth pass clamps them to its near plane. clip maps world points to
// the light's clip space; texture to the map's coordinates and depth (0 to 1). Returns the world
// size of a texel, or 0 when there is nothing to shadow.
static float tbFitShadowMap( const tbRenderer* r, const tbCamera* camera, float clip[16], float texture[16] )
{
	tbVec3 lower, upper;
	if ( tbInstanceBounds( r, &lower, &upper ) == false )
	{
		return 0.0f;
	}
	tbVec3 target = camera->target;
	float reach = tbMaxFloat( 4.0f, 1.5f * camera->distance );
	tbVec3 focusLower = tbMakeVec3( tbMaxFloat( lower.x, target.x - reach ), tbMaxFloat( lower.y, target.y - reach ),
									tbMaxFloat( lower.z, target.z - 2000.0f ) );
	tbVec3 focusUpper = tbMakeVec3( tbMinFloat( upper.x, target.x + reach ), tbMinFloat( upper.y, target.y + reach ),
									tbMinFloat( upper.z, target.z + 2000.0f ) );
	if ( focusLower.x >= focusUpper.x || focusLower.y >= focusUpper.y || focusLower.z >= focusUpper.z )
	{
		return 0.0f;
	}
	tbVec3 axisZ = tbLightDirection();
	tbVec3 axisX = tbNormalize( tbCross( tbMakeVec3( 0.0f, 0.0f, 1.0f ), axisZ ) );
	tbVec3 axisY = tbCross( axisZ, axisX );
	tbVec3 lo = tbMakeVec3( FLT_MAX, FLT_MAX, FLT_MAX );
	tbVec3 hi = tbMakeVec3( -FLT_MAX, -FLT_MAX, -FLT_MAX );
	for ( int i = 0; i < 8; ++i )
	{
		tbVec3 corner = tbMakeVec3( ( i & 1 ) ? focusUpper.x : focusLower.x, ( i & 2 ) ? focusUpper.y : focusLower.y,
									( i & 4 ) ? focusUpper.z : focusLower.z );
		tbVec3 l = tbMakeVec3( tbDot( corner, axisX ), tbDot( corner, axisY ), tbDot( corner, axisZ ) );
		lo = tbMinVec( lo, l );
		hi = tbMaxVec( hi, l );
	}
	float size = (float)r->shadowSize;
	float half = 0.5f * tbMaxFloat( hi.x - lo.x, hi.y - lo.y ) * ( 1.0f + 4.0f / size );
	float texel = 2.0f * half / size;
	float cx = texel * floorf( 0.5f * ( lo.x + hi.x ) / texel + 0.5f );
	float cy = texel * floorf( 0.5f * ( lo.y + hi.y ) / texel + 0.5f );
	float cz = 0.5f * ( lo.z + hi.z );
	float halfZ = 0.5f * ( hi.z - lo.z ) + 1.0f;
	// Rows of the matrix; the light looks along -axisZ, so nearer the light is smaller depth.
	const float rows[3][4] = {
		{ axisX.x / half, axisX.y / half, axisX.z / half, -cx / half },
		{ axisY.x / half, axisY.y / half, axisY.z / half, -cy / half },
		{ -axisZ.x / halfZ, -axisZ.y / halfZ, -axisZ.z / halfZ, cz / halfZ },
	};
	for ( int col = 0; col < 4; ++col )
	{
		for ( int row = 0; row < 3; ++row )
		{
			clip[4 * col + row] = rows[row][col];
			texture[4 * col + row] = 0.5f * rows[row][col] + ( col == 3 ? 0.5f : 0.0f );
		}
		clip[4 * col + 3] = col == 3 ? 1.0f : 0.0f;
		texture[4 * col + 3] = col == 3 ? 1.0f : 0.0f;
	}
	return texel;
}

static int tbShadowMapSize( tbRenderProfile profile )
{
	// 2048 texels over the 80 m showcase ground: 4 to 6 cm each. llvmpipe renders and filters every
	// texel on the CPU, so the software profile takes a quarter of them.
	return profile == tbRenderProfile_software ? 1024 : 2048;
}

static bool tbEnsureShadowMap( tbRenderer* r )
{
	int size = tbShadowMapSize( r->profile );
	if ( r->shadowSize == size )
	{
		return true;
	}
	if ( r->shadowFramebuffer == 0 )
	{
		glGenFramebuffers( 1, &r->shadowFramebuffer );
		glGenTextures( 1, &r->shadowTexture );
	}
	glBindTexture( GL_TEXTURE_2D, r->shadowTexture );
	glTexImage2D( GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size, size, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, NULL );
	// Linear filtering of a comparison: the four nearest texels compared and blended (2x2 PCF).
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL );
	// Outside the map: depth 1, the far plane, so whatever lies outside is lit.
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER );
	const float border[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
	glTexParameterfv( GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border );
	glBindTexture( GL_TEXTURE_2D, 0 );

	GLint previous = 0;
	glGetIntegerv( GL_DRAW_FRAMEBUFFER_BINDING, &previous );
	glBindFramebuffer( GL_FRAMEBUFFER, r->shadowFramebuffer );
	glFramebufferTexture2D( GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->shadowTexture, 0 );
	glDrawBuffer( GL_NONE );
	glReadBuffer( GL_NONE );
	bool complete = glCheckFramebufferStatus( GL_FRAMEBUFFER ) == GL_FRAMEBUFFER_COMPLETE;
	glBindFramebuffer( GL_FRAMEBUFFER, (GLuint)previous );
	r->shadowSize = complete ? size : 0;
	return complete;
}

// The depth of the casters seen from the light into the shadow map: the runs that end at counts,
// from instance first on. Polygon offset (a slope-scaled depth bias) and the receivers' normal
// offset keep lit surfaces from shadowing themselves.
static void tbDrawShadowMap( tbRenderer* r, int first, const int* counts, const float clip[16] )
{
	GLint previous = 0;
	glGetIntegerv( GL_DRAW_FRAMEBUFFER_BINDING, &previous );
	glBindFramebuffer( GL_FRAMEBUFFER, r->shadowFramebuffer );
	glViewport( 0, 0, r->shadowSize, r->shadowSize );
	glDepthMask( GL_TRUE );
	glClearDepth( 1.0 );
	glClear( GL_DEPTH_BUFFER_BIT );
	glEnable( GL_DEPTH_TEST );
	glDepthFunc( GL_LESS );
	glEnable( GL_DEPTH_CLAMP );
	glEnable( GL_POLYGON_OFFSET_FILL );
	glPolygonOffset( 1.5f, 2.0f );
	glUseProgram( r->depthProgram );
	glUniformMatrix4fv( r->depthViewProjection, 1, GL_FALSE, clip );
	glBindVertexArray( r->meshVao );
	glBindBuffer( GL_ARRAY_BUFFER, r->instanceVbo );
	tbDrawMeshRuns( r, first, counts, r->meshes.count, true );
	glBindVertexArray( 0 );
	glDisable( GL_POLYGON_OFFSET_FILL );
	glDisable( GL_DEPTH_CLAMP );
	glBindFramebuffer( GL_FRAMEBUFFER, (GLuint)previous );
}

// Sorts and uploads the queued solids and, with shadows on, draws the shadow map. Before the frame's
// framebuffer is cleared: the shadow pass has its own. Returns the run ends for tbDrawSolids.
static int* tbPrepareSolids( tbRenderer* r, const tbCamera* camera, float shadowTexture[16], float* shadowTexel )
{
	*shadowTexel = 0.0f;
	int* counts = tbSortInstances( r, tbCamera_GetEye( camera ) );
	if ( counts == NULL )
	{
		return NULL;
	}
	if ( r->meshesDirty )
	{
		glBindBuffer( GL_ARRAY_BUFFER, r->meshVbo );
		glBufferData( GL_ARRAY_BUFFER, (GLsizeiptr)( (size_t)r->meshVertices.count * sizeof( tbMeshVertex ) ),
					  r->meshVertices.data, GL_STATIC_DRAW );
		r->meshesDirty = false;
	}
	bool shadows = r->shadows && tbEnsureShadowMap( r );
	const int* casterCounts = shadows ? tbSelectCasters( r, counts ) : NULL;
	// One upload: the instances drawn, then the casters when they are fewer.
	tbUploadStream( r->instanceVbo, r->sorted.data, (size_t)r->sorted.count * sizeof( tbInstanceData ) );
	if ( shadows )
	{
		float clip[16];
		*shadowTexel = tbFitShadowMap( r, camera, clip, shadowTexture );
		if ( *shadowTexel > 0.0f )
		{
			if ( casterCounts != NULL )
			{
				tbDrawShadowMap( r, r->instances.count, casterCounts, clip );
			}
			else
			{
				tbDrawShadowMap( r, 0, counts, clip );
			}
		}
	}
	return counts;
}

static void tbDrawSolids( tbRenderer* r, const int* counts, const float viewProjection[16], tbVec3 eye,
						  const float shadowTexture[16], float shadowTexel )
{
	const tbMeshUniforms* u = shadowTexel > 0.0f ? &r->shadowed : &r->lit;
	glUseProgram( u->program );
	glUniformMatrix4fv( u->viewProjection, 1, GL_FALSE, viewProjection );
	tbVec3 light = tbLightDirection();
	glUniform3f( u->lightDirection, light.x, light.y, light.z );
	glUniform3f( u->eye, eye.x, eye.y, eye.z );
	if ( shadowTexel > 0.0f )
	{
		glUniformMatrix4fv( u->shadowMatrix, 1, GL_FALSE, shadowTexture );
		glUniform1f( u->normalOffset, shadowTexel );
		glActiveTexture( GL_TEXTURE1 );
		glBindTexture( GL_TEXTURE_2D, r->shadowTexture );
		glUniform1i( u->shadowMap, 1 );
		glActiveTexture( GL_TEXTURE0 );
	}
	glBindVertexArray( r->meshVao );
	glBindBuffer( GL_ARRAY_BUFFER, r->instanceVbo );
	tbDrawMeshRuns( r, 0, counts, r->meshes.count, true );
	glBindVertexArray( 0 );
}

// The sky where no solid was drawn (depth still at the cleared 1).
static void tbDrawSky( tbRenderer* r, const tbCamera* camera )
{
	tbVec3 forward, right, up;
	tbCamera_GetBasis( camera, &forward, &right, &up );
	float tanY = tanf( 0.5f * camera->fovY );
	float tanX = camera->height > 0 ? tanY * (float)camera->width / (float)camera->height : tanY;
	glUseProgram( r->skyProgram );
	glUniform3f( r->skyForward, forward.x, forward.y, forward.z );
	glUniform3f( r->skyRight, tanX * right.x, tanX * right.y, tanX * right.z );
	glUniform3f( r->skyUp, tanY * up.x, tanY * up.y, tanY * up.z );
	glDepthMask( GL_FALSE );
	glBindVertexArray( r->skyVao );
	glDrawArrays( GL_TRIANGLES, 0, 3 );
	glBindVertexArray( 0 );
	glDepthMask( GL_TRUE );
}

float tbRenderer_GetRenderScale( const tbRenderer* r )
{
	// llvmpipe's time goes mostly to shading pixels (the showcase at 640x360 takes about a third of
	// its time at 1280x720), so the software profile shades a quarter of them.
	return r->profile == tbRenderProfile_software ? 0.5f : 1.0f;
}

// The reduced-resolution target of the 3D view (colour texture and depth), reallocated when the
// window's size changes. Leaves it bound; false when the driver refuses it.
static bool tbBindSceneTarget( tbRenderer* r, int width, int height )
{
	if ( r->sceneFramebuffer == 0 )
	{
		glGenFramebuffers( 1, &r->sceneFramebuffer );
		glGenTextures( 1, &r->sceneColor );
		glGenRenderbuffers( 1, &r->sceneDepth );
	}
	glBindFramebuffer( GL_FRAMEBUFFER, r->sceneFramebuffer );
	if ( r->sceneWidth == width && r->sceneHeight == height )
	{
		return true;
	}
	glBindTexture( GL_TEXTURE_2D, r->sceneColor );
	glTexImage2D( GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE );
	glTexParameteri( GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE );
	glBindTexture( GL_TEXTURE_2D, 0 );
	glBindRenderbuffer( GL_RENDERBUFFER, r->sceneDepth );
	glRenderbufferStorage( GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height );
	glBindRenderbuffer( GL_RENDERBUFFER, 0 );
	glFramebufferTexture2D( GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, r->sceneColor, 0 );
	glFramebufferRenderbuffer( GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, r->sceneDepth );
	bool complete = glCheckFramebufferStatus( GL_FRAMEBUFFER ) == GL_FRAMEBUFFER_COMPLETE;
	r->sceneWidth = complete ? width : 0;
	r->sceneHeight = complete ? height : 0;
	return complete;
}

void tbRenderer_SetShadows( tbRenderer* r, bool on )
{
	r->shadows = on;
}

bool tbRenderer_GetShadows( const tbRenderer* r )
{
	return r->shadows;
}

void tbRenderer_SetProfile( tbRenderer* r, tbRenderProfile profile )
{
	r->profile = profile;
}

tbRenderProfile tbRenderer_GetProfile( const tbRenderer* r )
{
	return r->profile;
}

int tbRenderer_GetShadowMapSize( const tbRenderer* r )
{
	return tbShadowMapSize( r->profile );
}

const char* tbRenderer_GetDeviceName( void )
{
	const GLubyte* name = glGetString( GL_RENDERER );
	return name != NULL ? (const char*)name : "";
}

bool tbRenderer_IsSoftwareDevice( const char* deviceName )
{
	// Mesa's CPU rasterizers name themselves in GL_RENDERER ("llvmpipe (LLVM 15.0.6, 256 bits)").
	return strstr( deviceName, "llvmpipe" ) != NULL || strstr( deviceName, "softpipe" ) != NULL;
}

static void tbDrawLines( tbRenderer* r, tbArray* lines, GLenum mode, float pull )
{
	if ( lines->count == 0 )
	{
		return;
	}
	tbUploadStream( r->lineVbo, lines->data, (size_t)lines->count * sizeof( tbLineVertex ) );
	glUniform1f( r->linePull, pull );
	glBindVertexArray( r->lineVao );
	glDrawArrays( mode, 0, lines->count );
	glBindVertexArray( 0 );
}

void tbRenderer_Flush( tbRenderer* r, const tbCamera* camera, int width, int height )
{
	float viewProjection[16];
	tbCamera_GetViewProjection( camera, viewProjection );
	tbVec3 eye = tbCamera_GetEye( camera );
	float shadowTexture[16];
	float shadowTexel = 0.0f;
	int* counts = r->instances.count > 0 ? tbPrepareSolids( r, camera, shadowTexture, &shadowTexel ) : NULL;

	// The window's frames (not screenshots, which go to a framebuffer object) may draw the 3D view
	// smaller and stretch it; the 2D layer always gets every pixel, so text stays sharp.
	GLint target = 0;
	glGetIntegerv( GL_DRAW_FRAMEBUFFER_BINDING, &target );
	float scale = target == 0 ? tbRenderer_GetRenderScale( r ) : 1.0f;
	bool scaled = scale < 1.0f && tbBindSceneTarget( r, tbMaxInt( 1, (int)ceilf( scale * (float)width ) ),
													 tbMaxInt( 1, (int)ceilf( scale * (float)height ) ) );
	if ( scale < 1.0f && scaled == false )
	{
		glBindFramebuffer( GL_FRAMEBUFFER, (GLuint)target );
	}
	glViewport( 0, 0, scaled ? r->sceneWidth : width, scaled ? r->sceneHeight : height );
	tbRgba bg = tb_background;
	glClearColor( bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f, 1.0f );
	glClearDepth( 1.0 );
	glDepthMask( GL_TRUE );
	glClear( GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT );

	glEnable( GL_DEPTH_TEST );
	glDepthFunc( GL_LEQUAL );
	glDisable( GL_BLEND );
	if ( counts != NULL )
	{
		tbDrawSolids( r, counts, viewProjection, eye, shadowTexture, shadowTexel );
	}
	tbDrawSky( r, camera );

	glEnable( GL_BLEND );
	glBlendFunc( GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA );
	glUseProgram( r->lineProgram );
	glUniformMatrix4fv( r->lineViewProjection, 1, GL_FALSE, viewProjection );
	glUniform3f( r->lineEye, eye.x, eye.y, eye.z );
	glDepthMask( GL_FALSE );
	tbDrawLines( r, &r->depthLines, GL_LINES, 0.002f );
	glDisable( GL_DEPTH_TEST );
	tbDrawLines( r, &r->topLines, GL_LINES, 0.0f );
	glPointSize( scaled ? 3.0f : 5.0f );
	tbDrawLines( r, &r->points, GL_POINTS, 0.0f );

	if ( scaled )
	{
		glBindFramebuffer( GL_FRAMEBUFFER, (GLuint)target );
		glViewport( 0, 0, width, height );
		glDisable( GL_BLEND );
		glUseProgram( r->upscaleProgram );
		glActiveTexture( GL_TEXTURE0 );
		glBindTexture( GL_TEXTURE_2D, r->sceneColor );
		glUniform1i( r->upscaleImage, 0 );
		glBindVertexArray( r->skyVao );
		glDrawArrays( GL_TRIANGLES, 0, 3 );
		glBindVertexArray( 0 );
		glEnable( GL_BLEND );
	}

	if ( r->vertices2D.count > 0 )
	{
		tbUploadStream( r->vbo2D, r->vertices2D.data, (size_t)r->vertices2D.count * sizeof( tbVertex2D ) );
		glUseProgram( r->program2D );
		glUniform2f( r->screenSize2D, (float)width, (float)height );
		glActiveTexture( GL_TEXTURE0 );
		glBindTexture( GL_TEXTURE_2D, r->atlas );
		glUniform1i( r->atlas2D, 0 );
		glBindVertexArray( r->vao2D );
		glDrawArrays( GL_TRIANGLES, 0, r->vertices2D.count );
		glBindVertexArray( 0 );
	}
	glDepthMask( GL_TRUE );
	glUseProgram( 0 );

	r->instances.count = 0;
	r->instanceMeshes.count = 0;
	r->depthLines.count = 0;
	r->topLines.count = 0;
	r->points.count = 0;
	r->vertices2D.count = 0;
}
