// Tumble viewer: OpenGL 3.3 core renderer.
// SPDX-License-Identifier: MIT
#include "render.h"

#include "font.h"

#include <glad/gl.h>
#include <stb_easy_font.h>

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
} tbMeshRange;

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

struct tbRenderer
{
	GLuint meshProgram, lineProgram, program2D;
	GLint meshViewProjection, meshLightDirection, meshEye, meshFogColor, meshShadow;
	bool shadows; // planar shadows on z = 0, default on
	GLint lineViewProjection, lineEye, linePull;
	GLint screenSize2D;

	GLuint meshVao, meshVbo, instanceVbo;
	GLuint lineVao, lineVbo;
	GLuint vao2D, vbo2D;

	tbArray meshVertices; // tbMeshVertex, every mesh back to back
	tbArray meshes;		  // tbMeshRange
	int builtinVertexCount;
	bool meshesDirty;
	int uploadedMeshVertices;

	tbArray instances;	   // tbInstanceData
	tbArray instanceMeshes; // int, mesh of each instance
	tbArray sorted;		   // tbInstanceData grouped by mesh
	tbArray meshCounts;	   // int per mesh

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

static const char* tb_meshVertexShader =
	"#version 330 core\n"
	"layout(location = 0) in vec3 aPosition;\n"
	"layout(location = 1) in vec3 aNormal;\n"
	"layout(location = 2) in float aShade;\n"
	"layout(location = 3) in vec3 iPosition;\n"
	"layout(location = 4) in vec4 iRotation;\n"
	"layout(location = 5) in vec3 iScale;\n"
	"layout(location = 6) in vec4 iColor;\n"
	"uniform mat4 uViewProjection;\n"
	"uniform vec3 uLightDirection;\n"
	"uniform float uShadow;\n"
	"out vec3 vNormal;\n"
	"out vec3 vWorld;\n"
	"out vec4 vColor;\n"
	"out float vHeight;\n"
	"vec3 rotate(vec4 q, vec3 v)\n"
	"{\n"
	"	vec3 t = 2.0 * cross(q.xyz, v);\n"
	"	return v + q.w * t + cross(q.xyz, t);\n"
	"}\n"
	"void main()\n"
	"{\n"
	"	vec3 world = iPosition + rotate(iRotation, aPosition * iScale);\n"
	"	vHeight = world.z;\n"
	// Shadow pass: slide the point along the light onto the ground plane z = 0 (just above it, so
	// the shadow wins the depth test against a ground box whose top is at z = 0).
	"	if (uShadow > 0.5)\n"
	"	{\n"
	"		float h = max(world.z, 0.0);\n"
	"		world = vec3(world.xy - uLightDirection.xy * (h / uLightDirection.z), 0.004);\n"
	"	}\n"
	// Normals transform by the inverse transpose: for rotation * scale that is rotation / scale.
	"	vNormal = rotate(iRotation, aNormal / iScale);\n"
	"	vWorld = world;\n"
	"	vColor = vec4(iColor.rgb * aShade, iColor.a);\n"
	"	gl_Position = uViewProjection * vec4(world, 1.0);\n"
	"}\n";

static const char* tb_meshFragmentShader =
	"#version 330 core\n"
	"in vec3 vNormal;\n"
	"in vec3 vWorld;\n"
	"in vec4 vColor;\n"
	"in float vHeight;\n"
	"uniform vec3 uLightDirection;\n"
	"uniform float uShadow;\n"
	"uniform vec3 uEye;\n"
	"uniform vec3 uFogColor;\n"
	"out vec4 fragColor;\n"
	"void main()\n"
	"{\n"
	// Shadow pass: only what stands above the plane casts (the ground's own top face would shade
	// the whole ground otherwise), as a translucent dark fragment, once per pixel (stencil).
	"	if (uShadow > 0.5)\n"
	"	{\n"
	"		if (vHeight < 0.01) discard;\n"
	"		fragColor = vec4(0.0, 0.0, 0.02, 0.32);\n"
	"		return;\n"
	"	}\n"
	"	vec3 n = normalize(vNormal);\n"
	"	if (!gl_FrontFacing) n = -n;\n"
	"	vec3 toEye = normalize(uEye - vWorld);\n"
	"	float diffuse = max(dot(n, uLightDirection), 0.0);\n"
	// Hemisphere ambient: sky from above, ground bounce from below.
	"	vec3 ambient = mix(vec3(0.20, 0.19, 0.18), vec3(0.36, 0.38, 0.44), 0.5 + 0.5 * n.z);\n"
	"	vec3 h = normalize(uLightDirection + toEye);\n"
	"	float specular = pow(max(dot(n, h), 0.0), 32.0) * 0.25;\n"
	"	vec3 color = vColor.rgb * (ambient + 0.75 * diffuse) + vec3(specular);\n"
	"	float fog = clamp((length(uEye - vWorld) - 80.0) / 400.0, 0.0, 0.85);\n"
	"	fragColor = vec4(mix(color, uFogColor, fog), vColor.a);\n"
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
									   "out vec4 vColor;\n"
									   "out vec2 vUv;\n"
									   "void main()\n"
									   "{\n"
									   "	vColor = aColor;\n"
									   "	vUv = aUv;\n"
									   "	vec2 ndc = aPosition / uScreenSize * 2.0 - 1.0;\n"
									   "	gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);\n"
									   "}\n";

// Glyphs are coverage in the atlas's red channel; everything else samples its opaque texel.
static const char* tb_fragmentShader2D = "#version 330 core\n"
										 "in vec4 vColor;\n"
										 "in vec2 vUv;\n"
										 "uniform sampler2D uAtlas;\n"
										 "out vec4 fragColor;\n"
										 "void main()\n"
										 "{\n"
										 "	fragColor = vec4(vColor.rgb, vColor.a * texture(uAtlas, vUv).r);\n"
										 "}\n";

static GLuint tbCompileShader( GLenum type, const char* source, char* error, int errorSize )
{
	GLuint shader = glCreateShader( type );
	glShaderSource( shader, 1, &source, NULL );
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

static GLuint tbLinkProgram( const char* vertexSource, const char* fragmentSource, char* error, int errorSize )
{
	GLuint vs = tbCompileShader( GL_VERTEX_SHADER, vertexSource, error, errorSize );
	if ( vs == 0 )
	{
		return 0;
	}
	GLuint fs = tbCompileShader( GL_FRAGMENT_SHADER, fragmentSource, error, errorSize );
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
	tbInitArray( &r->instances, sizeof( tbInstanceData ) );
	tbInitArray( &r->instanceMeshes, sizeof( int ) );
	tbInitArray( &r->sorted, sizeof( tbInstanceData ) );
	tbInitArray( &r->meshCounts, sizeof( int ) );
	tbInitArray( &r->depthLines, sizeof( tbLineVertex ) );
	tbInitArray( &r->topLines, sizeof( tbLineVertex ) );
	tbInitArray( &r->points, sizeof( tbLineVertex ) );
	tbInitArray( &r->vertices2D, sizeof( tbVertex2D ) );

	r->textScratchSize = 300 * 1024;
	r->textScratch = malloc( (size_t)r->textScratchSize );

	r->meshProgram = tbLinkProgram( tb_meshVertexShader, tb_meshFragmentShader, error, errorSize );
	r->lineProgram = tbLinkProgram( tb_lineVertexShader, tb_lineFragmentShader, error, errorSize );
	r->program2D = tbLinkProgram( tb_vertexShader2D, tb_fragmentShader2D, error, errorSize );
	if ( r->meshProgram == 0 || r->lineProgram == 0 || r->program2D == 0 || r->textScratch == NULL )
	{
		tbRenderer_Destroy( r );
		return NULL;
	}
	r->meshViewProjection = glGetUniformLocation( r->meshProgram, "uViewProjection" );
	r->meshLightDirection = glGetUniformLocation( r->meshProgram, "uLightDirection" );
	r->meshEye = glGetUniformLocation( r->meshProgram, "uEye" );
	r->meshFogColor = glGetUniformLocation( r->meshProgram, "uFogColor" );
	r->meshShadow = glGetUniformLocation( r->meshProgram, "uShadow" );
	r->shadows = true;
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
		tbRenderer_AddMesh( r, v + first, ends[m] - first );
	}
	tbFreeArray( &builtin );
	if ( r->meshes.count != tbMesh_builtinCount )
	{
		snprintf( error, (size_t)errorSize, "out of memory building meshes" );
		tbRenderer_Destroy( r );
		return NULL;
	}
	r->builtinVertexCount = r->meshVertices.count;
	stb_easy_font_spacing( 0.0f );
	return r;
}

void tbRenderer_Destroy( tbRenderer* r )
{
	if ( r == NULL )
	{
		return;
	}
	glDeleteProgram( r->meshProgram );
	glDeleteProgram( r->lineProgram );
	glDeleteProgram( r->program2D );
	glDeleteVertexArrays( 1, &r->meshVao );
	glDeleteVertexArrays( 1, &r->lineVao );
	glDeleteVertexArrays( 1, &r->vao2D );
	glDeleteBuffers( 1, &r->meshVbo );
	glDeleteBuffers( 1, &r->instanceVbo );
	glDeleteBuffers( 1, &r->lineVbo );
	glDeleteBuffers( 1, &r->vbo2D );
	tbFreeArray( &r->meshVertices );
	tbFreeArray( &r->meshes );
	tbFreeArray( &r->instances );
	tbFreeArray( &r->instanceMeshes );
	tbFreeArray( &r->sorted );
	tbFreeArray( &r->meshCounts );
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

int tbRenderer_AddMesh( tbRenderer* r, const tbMeshVertex* vertices, int count )
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
	r->meshesDirty = true;
	return r->meshes.count - 1;
}

void tbRenderer_ClearMeshes( tbRenderer* r )
{
	r->meshes.count = tbMesh_builtinCount;
	r->meshVertices.count = r->builtinVertexCount;
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

// One instanced draw per mesh; counts[m] is the end of mesh m's run in the sorted instance buffer.
static void tbDrawMeshRuns( tbRenderer* r, const int* counts, int meshCount )
{
	const tbMeshRange* ranges = r->meshes.data;
	int start = 0;
	for ( int m = 0; m < meshCount; ++m )
	{
		int end = counts[m];
		int n = end - start;
		if ( n > 0 )
		{
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
}

static void tbDrawInstances( tbRenderer* r, const float viewProjection[16], tbVec3 eye )
{
	int meshCount = r->meshes.count;
	r->meshCounts.count = 0;
	int* counts = tbArray_Push( &r->meshCounts, meshCount + 1 );
	r->sorted.count = 0;
	if ( counts == NULL || tbArray_Push( &r->sorted, r->instances.count ) == NULL )
	{
		return;
	}
	memset( counts, 0, (size_t)( meshCount + 1 ) * sizeof( int ) );

	// Counting sort by mesh, so each mesh is one instanced draw.
	const int* meshOf = r->instanceMeshes.data;
	for ( int i = 0; i < r->instances.count; ++i )
	{
		counts[meshOf[i] + 1] += 1;
	}
	for ( int m = 0; m < meshCount; ++m )
	{
		counts[m + 1] += counts[m];
	}
	tbInstanceData* sorted = r->sorted.data;
	const tbInstanceData* instances = r->instances.data;
	for ( int i = 0; i < r->instances.count; ++i )
	{
		sorted[counts[meshOf[i]]++] = instances[i];
	}
	// counts[m] is now the end of mesh m's run, which is where mesh m + 1 starts.

	if ( r->meshesDirty )
	{
		glBindBuffer( GL_ARRAY_BUFFER, r->meshVbo );
		glBufferData( GL_ARRAY_BUFFER, (GLsizeiptr)( (size_t)r->meshVertices.count * sizeof( tbMeshVertex ) ),
					  r->meshVertices.data, GL_STATIC_DRAW );
		r->meshesDirty = false;
	}
	tbUploadStream( r->instanceVbo, sorted, (size_t)r->instances.count * sizeof( tbInstanceData ) );

	glUseProgram( r->meshProgram );
	glUniformMatrix4fv( r->meshViewProjection, 1, GL_FALSE, viewProjection );
	tbVec3 light = tbNormalize( tbMakeVec3( 0.45f, -0.35f, 0.82f ) );
	glUniform3f( r->meshLightDirection, light.x, light.y, light.z );
	glUniform3f( r->meshEye, eye.x, eye.y, eye.z );
	tbRgba bg = tb_background;
	glUniform3f( r->meshFogColor, bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f );
	glBindVertexArray( r->meshVao );
	glBindBuffer( GL_ARRAY_BUFFER, r->instanceVbo );

	glUniform1f( r->meshShadow, 0.0f );
	tbDrawMeshRuns( r, counts, meshCount );
	if ( r->shadows )
	{
		// Planar shadows: every body again, flattened onto z = 0 along the light, blended dark.
		// The stencil lets each pixel darken once where shadows overlap; depth is tested (bodies
		// hide the shadows behind them) but not written.
		glEnable( GL_BLEND );
		glBlendFunc( GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA );
		glDepthMask( GL_FALSE );
		glEnable( GL_STENCIL_TEST );
		glStencilFunc( GL_EQUAL, 0, 0xff );
		glStencilOp( GL_KEEP, GL_KEEP, GL_INCR );
		glUniform1f( r->meshShadow, 1.0f );
		tbDrawMeshRuns( r, counts, meshCount );
		glDisable( GL_STENCIL_TEST );
		glDepthMask( GL_TRUE );
		glDisable( GL_BLEND );
	}
	glBindVertexArray( 0 );
}

void tbRenderer_SetShadows( tbRenderer* r, bool on )
{
	r->shadows = on;
}

bool tbRenderer_GetShadows( const tbRenderer* r )
{
	return r->shadows;
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
	glViewport( 0, 0, width, height );
	tbRgba bg = tb_background;
	glClearColor( bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f, 1.0f );
	glClearDepth( 1.0 );
	glClearStencil( 0 );
	glDepthMask( GL_TRUE );
	glStencilMask( 0xff );
	glClear( GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT );

	float viewProjection[16];
	tbCamera_GetViewProjection( camera, viewProjection );
	tbVec3 eye = tbCamera_GetEye( camera );

	glEnable( GL_DEPTH_TEST );
	glDepthFunc( GL_LEQUAL );
	glDisable( GL_BLEND );
	glDisable( GL_CULL_FACE );
	if ( r->instances.count > 0 )
	{
		tbDrawInstances( r, viewProjection, eye );
	}

	glEnable( GL_BLEND );
	glBlendFunc( GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA );
	glUseProgram( r->lineProgram );
	glUniformMatrix4fv( r->lineViewProjection, 1, GL_FALSE, viewProjection );
	glUniform3f( r->lineEye, eye.x, eye.y, eye.z );
	glDepthMask( GL_FALSE );
	tbDrawLines( r, &r->depthLines, GL_LINES, 0.002f );
	glDisable( GL_DEPTH_TEST );
	tbDrawLines( r, &r->topLines, GL_LINES, 0.0f );
	glPointSize( 5.0f );
	tbDrawLines( r, &r->points, GL_POINTS, 0.0f );

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
