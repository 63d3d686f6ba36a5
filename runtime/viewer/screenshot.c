// Tumble viewer: offscreen rendering and PNG screenshots.
//
// The frame is drawn into a framebuffer object rather than the window, so a screenshot does not
// depend on the window being visible or unobscured (the default framebuffer's pixels are undefined
// where the window is covered). A multisampled colour buffer is resolved into a plain one, read back
// with glReadPixels and written with stb_image_write (Debian's libstb).
// SPDX-License-Identifier: MIT
#include "viewer.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tbOffscreen
{
	int width, height, samples;
	GLuint framebuffer, color, depth; // drawn into (multisampled when samples > 0)
	GLuint resolveFramebuffer, resolveColor;
};

static bool tbCreateTargets( tbOffscreen* o )
{
	glGenFramebuffers( 1, &o->framebuffer );
	glGenRenderbuffers( 1, &o->color );
	glGenRenderbuffers( 1, &o->depth );
	glBindFramebuffer( GL_FRAMEBUFFER, o->framebuffer );
	glBindRenderbuffer( GL_RENDERBUFFER, o->color );
	glRenderbufferStorageMultisample( GL_RENDERBUFFER, o->samples, GL_RGBA8, o->width, o->height );
	glFramebufferRenderbuffer( GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, o->color );
	glBindRenderbuffer( GL_RENDERBUFFER, o->depth );
	glRenderbufferStorageMultisample( GL_RENDERBUFFER, o->samples, GL_DEPTH24_STENCIL8, o->width, o->height );
	glFramebufferRenderbuffer( GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, o->depth );
	bool ok = glCheckFramebufferStatus( GL_FRAMEBUFFER ) == GL_FRAMEBUFFER_COMPLETE;

	glGenFramebuffers( 1, &o->resolveFramebuffer );
	glGenRenderbuffers( 1, &o->resolveColor );
	glBindFramebuffer( GL_FRAMEBUFFER, o->resolveFramebuffer );
	glBindRenderbuffer( GL_RENDERBUFFER, o->resolveColor );
	glRenderbufferStorage( GL_RENDERBUFFER, GL_RGBA8, o->width, o->height );
	glFramebufferRenderbuffer( GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, o->resolveColor );
	ok = ok && glCheckFramebufferStatus( GL_FRAMEBUFFER ) == GL_FRAMEBUFFER_COMPLETE;
	glBindRenderbuffer( GL_RENDERBUFFER, 0 );
	glBindFramebuffer( GL_FRAMEBUFFER, 0 );
	return ok;
}

static void tbDeleteTargets( tbOffscreen* o )
{
	glDeleteFramebuffers( 1, &o->framebuffer );
	glDeleteFramebuffers( 1, &o->resolveFramebuffer );
	glDeleteRenderbuffers( 1, &o->color );
	glDeleteRenderbuffers( 1, &o->depth );
	glDeleteRenderbuffers( 1, &o->resolveColor );
	o->framebuffer = o->resolveFramebuffer = o->color = o->depth = o->resolveColor = 0;
}

tbOffscreen* tbOffscreen_Create( int width, int height )
{
	tbOffscreen* o = calloc( 1, sizeof( tbOffscreen ) );
	if ( o == NULL )
	{
		return NULL;
	}
	o->width = width > 0 ? width : 1;
	o->height = height > 0 ? height : 1;
	GLint maxSamples = 0;
	glGetIntegerv( GL_MAX_SAMPLES, &maxSamples );
	o->samples = maxSamples >= 4 ? 4 : 0;
	if ( tbCreateTargets( o ) == false )
	{
		// Some drivers refuse multisampled storage of this size: fall back to one sample.
		tbDeleteTargets( o );
		o->samples = 0;
		if ( tbCreateTargets( o ) == false )
		{
			tbDeleteTargets( o );
			free( o );
			return NULL;
		}
	}
	return o;
}

void tbOffscreen_Destroy( tbOffscreen* o )
{
	if ( o != NULL )
	{
		tbDeleteTargets( o );
		free( o );
	}
}

void tbOffscreen_Bind( tbOffscreen* o )
{
	glBindFramebuffer( GL_FRAMEBUFFER, o->framebuffer );
}

bool tbOffscreen_WritePng( tbOffscreen* o, const char* path )
{
	glBindFramebuffer( GL_READ_FRAMEBUFFER, o->framebuffer );
	glBindFramebuffer( GL_DRAW_FRAMEBUFFER, o->resolveFramebuffer );
	glBlitFramebuffer( 0, 0, o->width, o->height, 0, 0, o->width, o->height, GL_COLOR_BUFFER_BIT, GL_NEAREST );
	glBindFramebuffer( GL_FRAMEBUFFER, o->resolveFramebuffer );

	size_t rowBytes = (size_t)o->width * 3;
	unsigned char* pixels = malloc( rowBytes * (size_t)o->height );
	unsigned char* row = malloc( rowBytes );
	if ( pixels == NULL || row == NULL )
	{
		free( pixels );
		free( row );
		glBindFramebuffer( GL_FRAMEBUFFER, 0 );
		return false;
	}
	glPixelStorei( GL_PACK_ALIGNMENT, 1 );
	glReadBuffer( GL_COLOR_ATTACHMENT0 );
	glReadPixels( 0, 0, o->width, o->height, GL_RGB, GL_UNSIGNED_BYTE, pixels );
	glBindFramebuffer( GL_FRAMEBUFFER, 0 );

	// OpenGL's rows go bottom to top; PNG's top to bottom.
	for ( int y = 0; y < o->height / 2; ++y )
	{
		unsigned char* a = pixels + (size_t)y * rowBytes;
		unsigned char* b = pixels + (size_t)( o->height - 1 - y ) * rowBytes;
		memcpy( row, a, rowBytes );
		memcpy( a, b, rowBytes );
		memcpy( b, row, rowBytes );
	}
	int ok = stbi_write_png( path, o->width, o->height, 3, pixels, (int)rowBytes );
	free( row );
	free( pixels );
	return ok != 0;
}
