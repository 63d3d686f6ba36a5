// Tumble viewer: a small immediate-mode UI on the renderer's 2D layer.
// SPDX-License-Identifier: MIT
#include "ui.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const tbRgba tb_panelColor = { 18, 20, 26, 215 };
static const tbRgba tb_textColor = { 232, 234, 240, 255 };
static const tbRgba tb_dimText = { 160, 166, 180, 255 };
static const tbRgba tb_headingColor = { 255, 196, 90, 255 };
static const tbRgba tb_widgetColor = { 58, 64, 80, 255 };
static const tbRgba tb_widgetHot = { 78, 88, 112, 255 };
static const tbRgba tb_accentColor = { 90, 150, 240, 255 };

float tbUi_LineHeight( const tbUi* ui )
{
	return tbRenderer_LineHeight( ui->scale );
}

float tbUi_Padding( const tbUi* ui )
{
	return 3.0f * ui->scale;
}

// Widget ids hash the label with the panel, as Dear ImGui does: equal labels in one panel share
// state, which the scene avoids by naming its widgets differently.
static uint32_t tbHashString( uint32_t seed, const char* s )
{
	uint32_t h = seed ^ 2166136261u;
	for ( ; *s != '\0'; ++s )
	{
		h = ( h ^ (unsigned char)*s ) * 16777619u;
	}
	return h != 0 ? h : 1u;
}

void tbUi_BeginFrame( tbUi* ui, tbRenderer* renderer, float scale, float mouseX, float mouseY, bool down,
					  bool pressed, bool released )
{
	ui->renderer = renderer;
	ui->scale = scale;
	ui->mouseX = mouseX;
	ui->mouseY = mouseY;
	ui->mouseDown = down;
	ui->mousePressed = pressed;
	ui->mouseReleased = released;
	ui->rectCount = 0;
	ui->inPanel = false;
}

void tbUi_EndFrame( tbUi* ui )
{
	// A widget that owned the mouse but was not drawn this frame cannot see the release.
	if ( ui->mouseDown == false )
	{
		ui->active = 0;
	}
	memcpy( ui->lastRects, ui->rects, sizeof( ui->rects ) );
	ui->lastRectCount = ui->rectCount;
}

bool tbUi_WantsMouse( const tbUi* ui, float x, float y )
{
	if ( ui->active != 0 )
	{
		return true;
	}
	for ( int i = 0; i < ui->lastRectCount; ++i )
	{
		const float* r = ui->lastRects[i];
		if ( x >= r[0] && x < r[0] + r[2] && y >= r[1] && y < r[1] + r[3] )
		{
			return true;
		}
	}
	return false;
}

void tbUi_BeginPanel( tbUi* ui, const char* title, float x, float y, float width )
{
	ui->inPanel = true;
	ui->panelX = x;
	ui->panelY = y;
	ui->panelWidth = width;
	ui->panelSeed = tbHashString( 0u, title );
	ui->panelMark = tbRenderer_Mark2D( ui->renderer );
	ui->cursorY = y + tbUi_Padding( ui );
	ui->widest = x;
	if ( title[0] != '\0' )
	{
		tbUi_Heading( ui, title );
	}
}

void tbUi_IdScope( tbUi* ui, const char* name )
{
	ui->panelSeed = tbHashString( ui->panelSeed, name );
}

float tbUi_EndPanel( tbUi* ui )
{
	return tbUi_EndPanelColored( ui, tb_panelColor );
}

float tbUi_EndPanelColored( tbUi* ui, tbRgba background )
{
	float bottom = ui->cursorY + tbUi_Padding( ui );
	float height = bottom - ui->panelY;
	// Sized to its content: never narrower than asked, wide enough for its longest line.
	ui->panelWidth = fmaxf( ui->panelWidth, ui->widest + 2.0f * tbUi_Padding( ui ) - ui->panelX );
	tbRenderer_InsertRect2D( ui->renderer, ui->panelMark, ui->panelX, ui->panelY, ui->panelWidth, height,
							 background );
	if ( ui->rectCount < TB_UI_MAX_PANELS )
	{
		float* r = ui->rects[ui->rectCount++];
		r[0] = ui->panelX;
		r[1] = ui->panelY;
		r[2] = ui->panelWidth;
		r[3] = height;
	}
	ui->inPanel = false;
	return bottom;
}

static float tbRowHeight( const tbUi* ui )
{
	return tbUi_LineHeight( ui ) + 2.0f * ui->scale;
}

static float tbContentX( const tbUi* ui )
{
	return ui->panelX + 2.0f * tbUi_Padding( ui );
}

static float tbContentWidth( const tbUi* ui )
{
	return ui->panelWidth - 4.0f * tbUi_Padding( ui );
}

static bool tbMouseIn( const tbUi* ui, float x, float y, float w, float h )
{
	return ui->mouseX >= x && ui->mouseX < x + w && ui->mouseY >= y && ui->mouseY < y + h;
}

// Text baseline offset inside a row, so glyphs sit centred in widgets.
static float tbTextOffset( const tbUi* ui )
{
	return 2.0f * ui->scale;
}

static int tbCountLines( const char* text )
{
	int lines = 1;
	for ( ; *text != '\0'; ++text )
	{
		lines += *text == '\n';
	}
	return lines;
}

// Text drawn in the panel, remembered for its width.
static void tbPanelText( tbUi* ui, float x, float y, const char* text, tbRgba color )
{
	float w = tbRenderer_Text2D( ui->renderer, x, y, text, ui->scale, color );
	ui->widest = fmaxf( ui->widest, x + w );
}

void tbUi_ColoredLabel( tbUi* ui, const char* text, tbRgba color )
{
	tbPanelText( ui, tbContentX( ui ), ui->cursorY + tbTextOffset( ui ), text, color );
	ui->cursorY += (float)tbCountLines( text ) * tbUi_LineHeight( ui ) + 2.0f * ui->scale;
}

void tbUi_Label( tbUi* ui, const char* text )
{
	tbUi_ColoredLabel( ui, text, tb_textColor );
}

void tbUi_Heading( tbUi* ui, const char* text )
{
	tbUi_ColoredLabel( ui, text, tb_headingColor );
}

void tbUi_Wrapped( tbUi* ui, const char* text, tbRgba color )
{
	float width = tbContentWidth( ui );
	char line[256];
	const char* p = text;
	while ( *p != '\0' )
	{
		// The longest run of whole words that fits; a word wider than the panel is cut.
		size_t fit = 0;
		size_t n = 0;
		while ( p[n] != '\0' && p[n] != '\n' && n + 1 < sizeof( line ) )
		{
			line[n] = p[n];
			line[n + 1] = '\0';
			if ( tbRenderer_TextWidth( line, ui->scale ) > width )
			{
				break;
			}
			++n;
			if ( p[n] == ' ' || p[n] == '\0' || p[n] == '\n' )
			{
				fit = n;
			}
		}
		if ( fit == 0 )
		{
			fit = n > 0 ? n : 1;
		}
		snprintf( line, sizeof( line ), "%.*s", (int)fit, p );
		tbUi_ColoredLabel( ui, line, color );
		p += fit;
		while ( *p == ' ' )
		{
			++p;
		}
		if ( *p == '\n' )
		{
			++p;
		}
	}
}

void tbUi_Columns( tbUi* ui, const char* left, const char* right, float split )
{
	float y = ui->cursorY + tbTextOffset( ui );
	tbPanelText( ui, tbContentX( ui ), y, left, tb_headingColor );
	tbPanelText( ui, tbContentX( ui ) + split, y, right, tb_textColor );
	ui->cursorY += tbUi_LineHeight( ui ) + 2.0f * ui->scale;
}

void tbUi_Separator( tbUi* ui )
{
	float y = ui->cursorY + 2.0f * ui->scale;
	tbRenderer_Rect2D( ui->renderer, tbContentX( ui ), y, tbContentWidth( ui ), fmaxf( 1.0f, 0.5f * ui->scale ),
					   tb_widgetColor );
	ui->cursorY += 5.0f * ui->scale;
}

// Press-release logic shared by buttons and checkboxes: the click counts when the mouse goes up
// over the widget that it went down on (so a drag that strays off cancels).
static bool tbClickBehaviour( tbUi* ui, uint32_t id, float x, float y, float w, float h, bool* hot )
{
	bool inside = tbMouseIn( ui, x, y, w, h );
	*hot = inside && ( ui->active == 0 || ui->active == id );
	if ( ui->mousePressed && inside && ui->active == 0 )
	{
		ui->active = id;
	}
	bool clicked = false;
	if ( ui->active == id && ui->mouseReleased )
	{
		clicked = inside;
		ui->active = 0;
	}
	return clicked;
}

// A full-width row that clicks (buttons, list entries): its box, whether the mouse is over it
// (hot), and whether it was clicked this frame.
typedef struct tbRow
{
	uint32_t id;
	float x, y, w, h;
	bool hot, clicked;
} tbRow;

static tbRow tbClickRow( tbUi* ui, const char* idText )
{
	tbRow row = { tbHashString( ui->panelSeed, idText ), tbContentX( ui ), ui->cursorY, tbContentWidth( ui ),
				  tbRowHeight( ui ), false, false };
	row.clicked = tbClickBehaviour( ui, row.id, row.x, row.y, row.w, row.h, &row.hot );
	return row;
}

bool tbUi_Button( tbUi* ui, const char* label )
{
	tbRow row = tbClickRow( ui, label );
	tbRgba color = ui->active == row.id ? tb_accentColor : ( row.hot ? tb_widgetHot : tb_widgetColor );
	tbRenderer_Rect2D( ui->renderer, row.x, row.y, row.w, row.h, color );
	float textWidth = tbRenderer_TextWidth( label, ui->scale );
	tbRenderer_Text2D( ui->renderer, row.x + 0.5f * ( row.w - textWidth ), row.y + tbTextOffset( ui ), label,
					   ui->scale, tb_textColor );
	ui->cursorY += row.h + 2.0f * ui->scale;
	return row.clicked;
}

bool tbUi_Selectable( tbUi* ui, const char* idText, const char* label, bool selected )
{
	tbRow row = tbClickRow( ui, idText );
	if ( selected || row.hot )
	{
		tbRenderer_Rect2D( ui->renderer, row.x, row.y, row.w, row.h,
						   selected ? tbMakeRgba( 60, 90, 150, 255 ) : tb_widgetHot );
	}
	tbRenderer_Text2D( ui->renderer, row.x + 3.0f * ui->scale, row.y + tbTextOffset( ui ), label, ui->scale,
					   tb_textColor );
	ui->cursorY += row.h + 2.0f * ui->scale;
	return row.clicked;
}

bool tbUi_Checkbox( tbUi* ui, const char* label, bool* value )
{
	uint32_t id = tbHashString( ui->panelSeed, label );
	float x = tbContentX( ui );
	float y = ui->cursorY;
	float h = tbRowHeight( ui );
	bool hot = false;
	bool clicked = tbClickBehaviour( ui, id, x, y, tbContentWidth( ui ), h, &hot );
	if ( clicked )
	{
		*value = !*value;
	}
	float box = h - 2.0f * ui->scale;
	tbRenderer_Rect2D( ui->renderer, x, y + ui->scale, box, box, hot ? tb_widgetHot : tb_widgetColor );
	if ( *value )
	{
		float inset = 0.25f * box;
		tbRenderer_Rect2D( ui->renderer, x + inset, y + ui->scale + inset, box - 2.0f * inset, box - 2.0f * inset,
						   tb_accentColor );
	}
	tbRenderer_Text2D( ui->renderer, x + box + 3.0f * ui->scale, y + tbTextOffset( ui ), label, ui->scale,
					   tb_textColor );
	ui->cursorY += h + 2.0f * ui->scale;
	return clicked;
}

// Compact number: enough digits to read a tweak, never wider than the slider.
static void tbFormatValue( char* out, size_t size, float v )
{
	float a = fabsf( v );
	if ( a != 0.0f && ( a >= 1.0e5f || a < 1.0e-3f ) )
	{
		snprintf( out, size, "%.3g", (double)v );
	}
	else if ( a >= 100.0f )
	{
		snprintf( out, size, "%.1f", (double)v );
	}
	else
	{
		snprintf( out, size, "%.3f", (double)v );
	}
}

bool tbUi_Slider( tbUi* ui, const char* label, float* value, float min, float max )
{
	uint32_t id = tbHashString( ui->panelSeed, label );
	float x = tbContentX( ui );
	float y = ui->cursorY;
	float w = 0.6f * tbContentWidth( ui );
	float h = tbRowHeight( ui );
	bool inside = tbMouseIn( ui, x, y, w, h );
	if ( ui->mousePressed && inside && ui->active == 0 )
	{
		ui->active = id;
	}
	bool changed = false;
	if ( ui->active == id && max > min )
	{
		float t = tbClampFloat( ( ui->mouseX - x ) / w, 0.0f, 1.0f );
		float v = min + t * ( max - min );
		if ( v != *value )
		{
			*value = v;
			changed = true;
		}
		if ( ui->mouseReleased )
		{
			ui->active = 0;
		}
	}
	bool hot = inside && ( ui->active == 0 || ui->active == id );
	tbRenderer_Rect2D( ui->renderer, x, y, w, h, hot ? tb_widgetHot : tb_widgetColor );
	float t = max > min ? tbClampFloat( ( *value - min ) / ( max - min ), 0.0f, 1.0f ) : 0.0f;
	float knob = 3.0f * ui->scale;
	tbRenderer_Rect2D( ui->renderer, x, y, t * w, h, tbMakeRgba( 60, 90, 150, 255 ) );
	tbRenderer_Rect2D( ui->renderer, x + t * ( w - knob ), y, knob, h, tb_accentColor );
	char text[32];
	tbFormatValue( text, sizeof( text ), *value );
	float textWidth = tbRenderer_TextWidth( text, ui->scale );
	tbRenderer_Text2D( ui->renderer, x + 0.5f * ( w - textWidth ), y + tbTextOffset( ui ), text, ui->scale,
					   tb_textColor );
	tbRenderer_Text2D( ui->renderer, x + w + 3.0f * ui->scale, y + tbTextOffset( ui ), label, ui->scale,
					   tb_textColor );
	ui->cursorY += h + 2.0f * ui->scale;
	return changed;
}

bool tbUi_Collapsing( tbUi* ui, const char* label, bool* open )
{
	uint32_t id = tbHashString( ui->panelSeed, label );
	float x = tbContentX( ui );
	float y = ui->cursorY;
	float h = tbRowHeight( ui );
	bool hot = false;
	if ( tbClickBehaviour( ui, id, x, y, tbContentWidth( ui ), h, &hot ) )
	{
		*open = !*open;
	}
	char text[96];
	snprintf( text, sizeof( text ), "%s %s", *open ? "-" : "+", label );
	if ( hot )
	{
		tbRenderer_Rect2D( ui->renderer, x, y, tbContentWidth( ui ), h, tb_widgetHot );
	}
	tbPanelText( ui, x, y + tbTextOffset( ui ), text, tb_headingColor );
	ui->cursorY += h + 2.0f * ui->scale;
	return *open;
}

void tbUi_Plot( tbUi* ui, const char* label, const float* ring, int capacity, int count, int next, float span )
{
	float lo = 0.0f;
	float hi = 0.0f;
	float latest = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		float v = ring[( next - count + i + capacity ) % capacity];
		lo = i == 0 ? v : fminf( lo, v );
		hi = i == 0 ? v : fmaxf( hi, v );
		latest = v;
	}
	char line[96];
	char value[32];
	tbFormatValue( value, sizeof( value ), latest );
	snprintf( line, sizeof( line ), "%s  %s", label, value );
	tbUi_ColoredLabel( ui, line, tb_dimText );

	float x = tbContentX( ui );
	float y = ui->cursorY;
	float w = tbContentWidth( ui );
	float h = 3.0f * tbUi_LineHeight( ui );
	tbRenderer_Rect2D( ui->renderer, x, y, w, h, tbMakeRgba( 30, 34, 44, 255 ) );
	float dataLo = lo;
	float dataHi = hi;
	// The zero line when the range crosses it; the range always includes zero so bars read true.
	lo = fminf( lo, 0.0f );
	hi = fmaxf( hi, 0.0f );
	if ( hi - lo < 1.0e-9f )
	{
		hi = lo + 1.0f;
	}
	float zeroY = y + h - ( 0.0f - lo ) / ( hi - lo ) * h;
	tbRenderer_Rect2D( ui->renderer, x, zeroY, w, 1.0f, tbMakeRgba( 90, 96, 110, 255 ) );
	float previousX = 0.0f;
	float previousY = 0.0f;
	for ( int i = 0; i < count; ++i )
	{
		float v = ring[( next - count + i + capacity ) % capacity];
		float px = x + w * (float)i / (float)( capacity > 1 ? capacity - 1 : 1 );
		float py = y + h - ( v - lo ) / ( hi - lo ) * h;
		if ( i > 0 )
		{
			tbRenderer_Line2D( ui->renderer, previousX, previousY, px, py, 1.5f * ui->scale,
							   tbMakeRgba( 120, 220, 140, 255 ) );
		}
		previousX = px;
		previousY = py;
	}
	ui->cursorY += h + 1.0f * ui->scale;
	// The samples' smallest and largest values, and the time the graph's width stands for. A plot
	// still filling up draws its samples over the left part of the width, at the spacing a full
	// one has, so the width stands for (capacity - 1) sample intervals, not the samples' own span.
	char low[32];
	char high[32];
	tbFormatValue( low, sizeof( low ), dataLo );
	tbFormatValue( high, sizeof( high ), dataHi );
	float widthSpan = count > 1 ? span * (float)( capacity - 1 ) / (float)( count - 1 ) : 0.0f;
	if ( widthSpan > 0.0f )
	{
		snprintf( line, sizeof( line ), "min %s  max %s  %.1f s", low, high, (double)widthSpan );
	}
	else
	{
		snprintf( line, sizeof( line ), "min %s  max %s", low, high );
	}
	tbUi_ColoredLabel( ui, line, tbMakeRgba( 120, 126, 140, 255 ) );
}
