// Tumble viewer: the UI's TrueType font (font.h).
// SPDX-License-Identifier: MIT
#include "font.h"

#include <stb_truetype.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char* s_data;
static stbtt_fontinfo s_font;

// Debian's fonts-dejavu-core puts DejaVu Sans here (vendor/packages.txt).
static const char* const tb_fontPaths[] = {
	"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
	"/usr/share/fonts/dejavu/DejaVuSans.ttf",
	NULL,
};

static unsigned char* tbReadFile( const char* path )
{
	FILE* f = fopen( path, "rb" );
	if ( f == NULL )
	{
		return NULL;
	}
	unsigned char* data = NULL;
	if ( fseek( f, 0, SEEK_END ) == 0 )
	{
		long size = ftell( f );
		if ( size > 0 && size < ( 64L << 20 ) && fseek( f, 0, SEEK_SET ) == 0 )
		{
			data = malloc( (size_t)size );
			if ( data != NULL && fread( data, 1, (size_t)size, f ) != (size_t)size )
			{
				free( data );
				data = NULL;
			}
		}
	}
	fclose( f );
	return data;
}

bool tbFont_Load( void )
{
	if ( s_data != NULL )
	{
		return true;
	}
	const char* custom = getenv( "TUMBLE_FONT" );
	for ( int i = custom != NULL && custom[0] != '\0' ? -1 : 0; tb_fontPaths[i < 0 ? 0 : i] != NULL; ++i )
	{
		const char* path = i < 0 ? custom : tb_fontPaths[i];
		unsigned char* data = tbReadFile( path );
		if ( data != NULL && stbtt_InitFont( &s_font, data, stbtt_GetFontOffsetForIndex( data, 0 ) ) )
		{
			s_data = data;
			return true;
		}
		free( data );
	}
	return false;
}

bool tbFont_IsLoaded( void )
{
	return s_data != NULL;
}

float tbFont_TextWidth( const char* text, float pixelHeight )
{
	float scale = stbtt_ScaleForPixelHeight( &s_font, pixelHeight );
	int advance = 0;
	int widest = 0;
	for ( const unsigned char* c = (const unsigned char*)text; *c != '\0'; ++c )
	{
		if ( *c == '\n' )
		{
			advance = 0;
			continue;
		}
		// As drawn: tabs as spaces, anything outside printable ASCII as '?'.
		int code = *c == '\t' ? ' ' : ( *c >= TB_FONT_FIRST && *c < TB_FONT_FIRST + TB_FONT_COUNT ? *c : '?' );
		int width = 0;
		int bearing = 0;
		stbtt_GetCodepointHMetrics( &s_font, code, &width, &bearing );
		advance += width;
		widest = advance > widest ? advance : widest;
	}
	return scale * (float)widest;
}

float tbFont_Ascent( float pixelHeight )
{
	int ascent = 0;
	int descent = 0;
	int gap = 0;
	stbtt_GetFontVMetrics( &s_font, &ascent, &descent, &gap );
	return stbtt_ScaleForPixelHeight( &s_font, pixelHeight ) * (float)ascent;
}

bool tbFont_Bake( float pixelHeight, unsigned char* pixels, int width, int height, tbGlyph glyphs[TB_FONT_COUNT] )
{
	stbtt_bakedchar baked[TB_FONT_COUNT];
	// Rows start at y = 1 and x = 1, so texel (0, 0) stays free for the opaque texel.
	int result = stbtt_BakeFontBitmap( s_data, stbtt_GetFontOffsetForIndex( s_data, 0 ), pixelHeight, pixels, width,
									   height, TB_FONT_FIRST, TB_FONT_COUNT, baked );
	pixels[0] = 255;
	if ( result <= 0 )
	{
		return false;
	}
	for ( int i = 0; i < TB_FONT_COUNT; ++i )
	{
		glyphs[i].x0 = baked[i].x0;
		glyphs[i].y0 = baked[i].y0;
		glyphs[i].x1 = baked[i].x1;
		glyphs[i].y1 = baked[i].y1;
		glyphs[i].xoff = baked[i].xoff;
		glyphs[i].yoff = baked[i].yoff;
		glyphs[i].xadvance = baked[i].xadvance;
	}
	return true;
}
