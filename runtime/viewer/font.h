// Tumble viewer: the UI's TrueType font (stb_truetype, Debian's libstb-dev; DejaVu Sans from
// fonts-dejavu-core). Loaded once per process; the renderer bakes it into its glyph atlas at the
// UI's pixel size and draws anti-aliased text from that.
// SPDX-License-Identifier: MIT
#pragma once

#include <stdbool.h>

/// The printable ASCII range that is baked: 32 (space) to 126 (~).
#define TB_FONT_FIRST 32
#define TB_FONT_COUNT 95

/// One baked glyph: its box in the atlas (pixels), its offset from the pen and its advance.
typedef struct tbGlyph
{
	unsigned short x0, y0, x1, y1;
	float xoff, yoff, xadvance;
} tbGlyph;

/// Load the font file (the first of the known paths that exists; TUMBLE_FONT overrides). false
/// when none could be read: text then falls back to stb_easy_font.
bool tbFont_Load( void );
bool tbFont_IsLoaded( void );
/// Width of the widest line of text at a pixel height (font ascent to descent), pixels.
float tbFont_TextWidth( const char* text, float pixelHeight );
/// Distance from the top of a line to its baseline at a pixel height.
float tbFont_Ascent( float pixelHeight );
/// Bake the glyphs at pixelHeight into an 8-bit coverage bitmap of width x height (zeroed first).
/// Texel (0, 0) is left fully opaque: solid shapes sample it. false when the glyphs do not fit.
bool tbFont_Bake( float pixelHeight, unsigned char* pixels, int width, int height, tbGlyph glyphs[TB_FONT_COUNT] );
