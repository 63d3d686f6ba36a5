// Tumble viewer: a small immediate-mode UI on the renderer's 2D layer (stb_easy_font text).
// Widgets are functions called every frame; they draw themselves and return what the user did.
// docs/VIEWER.md explains why this instead of Dear ImGui.
// SPDX-License-Identifier: MIT
#pragma once

#include "render.h"

#include <stdbool.h>
#include <stdint.h>

#define TB_UI_MAX_PANELS 8

typedef struct tbUi
{
	tbRenderer* renderer;
	float scale; ///< text scale; every size derives from it

	// Mouse, in viewport pixels, for the frame being built
	float mouseX, mouseY;
	bool mouseDown;
	bool mousePressed;	///< went down this frame
	bool mouseReleased; ///< went up this frame

	uint32_t active; ///< widget that owns the mouse (pressed on it), 0 when none

	// Current panel
	bool inPanel;
	float panelX, panelY, panelWidth;
	float cursorY;
	float widest; ///< right edge of the widest text drawn in the panel: the panel grows to it
	int panelMark;
	uint32_t panelSeed;

	// Panel rectangles of this frame and the last (the viewer asks before the UI is built)
	float rects[TB_UI_MAX_PANELS][4];
	int rectCount;
	float lastRects[TB_UI_MAX_PANELS][4];
	int lastRectCount;
} tbUi;

/// Start a frame. The mouse state is this frame's (pressed/released: edges since the last frame).
void tbUi_BeginFrame( tbUi* ui, tbRenderer* renderer, float scale, float mouseX, float mouseY, bool down,
					  bool pressed, bool released );
void tbUi_EndFrame( tbUi* ui );

/// True when (x, y) is over a panel drawn last frame, or a widget is being dragged.
bool tbUi_WantsMouse( const tbUi* ui, float x, float y );

/// Panels stack widgets top to bottom; the background is sized at tbUi_EndPanel.
void tbUi_BeginPanel( tbUi* ui, const char* title, float x, float y, float width );
/// Returns the bottom edge of the panel, pixels.
float tbUi_EndPanel( tbUi* ui );
/// The same with a background colour of its own (an opaque overlay).
float tbUi_EndPanelColored( tbUi* ui, tbRgba background );

/// Start a new id scope inside the panel: widgets after it never share state with the ones before,
/// even with equal labels (the scene's widgets below the viewer's own).
void tbUi_IdScope( tbUi* ui, const char* name );

void tbUi_Label( tbUi* ui, const char* text );
void tbUi_ColoredLabel( tbUi* ui, const char* text, tbRgba color );
void tbUi_Heading( tbUi* ui, const char* text );
/// Text broken into lines at spaces so it fits the panel's width ('\n' also breaks).
void tbUi_Wrapped( tbUi* ui, const char* text, tbRgba color );
/// One row of two columns: left text, and right text starting split pixels into the content.
void tbUi_Columns( tbUi* ui, const char* left, const char* right, float split );
void tbUi_Separator( tbUi* ui );
/// True on the frame the button is clicked (released over it after a press on it).
bool tbUi_Button( tbUi* ui, const char* label );
/// A left-aligned row of a list, highlighted when selected; true on the frame it is clicked. id
/// names it (labels of a list may repeat).
bool tbUi_Selectable( tbUi* ui, const char* id, const char* label, bool selected );
/// Toggles *value on click; true when it changed.
bool tbUi_Checkbox( tbUi* ui, const char* label, bool* value );
/// Drag to set *value in [min, max]; true when it changed.
bool tbUi_Slider( tbUi* ui, const char* label, float* value, float min, float max );
/// A line graph of count samples of a ring buffer (oldest at next), with the latest value, the
/// minimum and maximum shown, and the time the graph's width stands for, from the time the samples
/// span (span, seconds; nothing shown when <= 0).
void tbUi_Plot( tbUi* ui, const char* label, const float* ring, int capacity, int count, int next, float span );
/// A heading that opens and closes the section below it on click; returns *open.
bool tbUi_Collapsing( tbUi* ui, const char* label, bool* open );

/// Sizes, for layout outside panels.
float tbUi_LineHeight( const tbUi* ui );
float tbUi_Padding( const tbUi* ui );
