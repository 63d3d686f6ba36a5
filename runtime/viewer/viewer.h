// Tumble viewer: the window that hosts a scene (SDL2 + OpenGL 3.3 core). Internal to runtime/viewer/.
// SPDX-License-Identifier: MIT
//
// The entry point is tbViewer_Run (declared in runtime/app.h). main.c hands every command-line
// option it does not know to tbViewer_ParseOption first, so the viewer's own options (screenshot,
// debug draw, scripted input) live here and the shared tbAppOptions stays the same for both front
// ends.
#pragma once

#include "app.h"
#include "camera.h"
#include "render.h"
#include "ui.h"
#include "world_draw.h"

#include <SDL.h>

#include <stdbool.h>
#include <stdio.h>

/// Options only the viewer reads (filled by tbViewer_ParseOption).
typedef struct tbViewerSettings
{
	const char* screenshotPath; ///< --screenshot FILE: run the steps, render one frame, write a PNG, exit
	const char* scriptPath;		///< --script-input FILE: events injected frame by frame (tests)
	int frames;					///< --frames N: quit after N frames (0: run until closed)
	int width, height;			///< --window WxH, window size in screen points
	unsigned debugFlags;		///< --debug-draw LIST: tbDebugDrawFlags enabled at start
	bool hideUi;				///< --no-ui: start with the panels hidden
	bool noShadows;				///< --no-shadows: start without the shadows (F2 toggles)
	int renderProfile;			///< --render-profile: -1 auto (software on llvmpipe, else full), or a tbRenderProfile
} tbViewerSettings;

/// Parse the viewer option at argv[index]. Returns how many arguments it used (1 or 2), 0 when the
/// option is not a viewer option, -1 after printing an error for a malformed one.
int tbViewer_ParseOption( int argc, char** argv, int index );

/// Print the options tbViewer_ParseOption reads, one "  --name ARG   text" line each (tumble --help).
void tbViewer_PrintOptions( FILE* out );

/// What a mouse drag is doing.
typedef enum tbDragMode
{
	tbDrag_none = 0,
	tbDrag_orbit,
	tbDrag_pan,
	tbDrag_body, ///< a mouse joint pulls the picked body
	tbDrag_ui,	 ///< the press started on a panel: the UI owns it until release
} tbDragMode;

#define TB_VIEWER_PLOT_SAMPLES 240
#define TB_VIEWER_MAX_PLOTS 16

/// A named series of recent values for the plot panel.
typedef struct tbPlot
{
	char name[32];
	float values[TB_VIEWER_PLOT_SAMPLES]; ///< ring buffer
	double times[TB_VIEWER_PLOT_SAMPLES]; ///< simulated time of each sample, s
	int next;							  ///< write position
	int count;							  ///< valid samples (<= TB_VIEWER_PLOT_SAMPLES)
	int lastFrame;						  ///< frame of the last sample: user plots not fed for a while disappear
	bool warnedUnfit;					  ///< said once that it did not fit in the window
} tbPlot;

/// Rewind (history.c): world snapshots of the last seconds, newest last.
#define TB_HISTORY_CAPACITY 600

typedef struct tbHistoryEntry
{
	struct tbSnapshot* snapshot;
	long long stepCount;
	double time;
} tbHistoryEntry;

typedef struct tbHistory
{
	tbHistoryEntry entries[TB_HISTORY_CAPACITY]; ///< ring buffer
	int first;	///< oldest entry
	int count;
	int cursor; ///< entry on screen after a rewind (0 = oldest), -1 while live
	int stride; ///< record every stride-th step, so the ring stays within the memory budget
	int skipped;
	size_t bytes;
} tbHistory;

/// The scene picker (picker.c).
#define TB_PICKER_MAX 256

typedef struct tbPickerEntry
{
	char path[4096]; ///< absolute
	char name[64];	 ///< file name without .lua
	char title[96];	 ///< the file's `title = "..."`, else the name
	int group;		 ///< 0: the current scene's folder, 1: the shipped scenes
} tbPickerEntry;

typedef struct tbPicker
{
	bool open;
	tbPickerEntry entries[TB_PICKER_MAX];
	int count;
	int highlight;	 ///< entry Enter opens
	int scroll;		 ///< first entry shown
	int visibleRows; ///< rows that fit the window (last drawn)
	bool follow;	 ///< scroll to keep the highlight in view (keys), not after the wheel
} tbPicker;

/// List the scenes of the current scene's folder and of shippedDir (either may be NULL) and open.
void tbPicker_Open( tbPicker* picker, const char* shippedDir, const char* currentScene );
/// Navigation keys (Up, Down, Page Up/Down, Home, End, Enter). Returns true when the key was the
/// picker's; *chosen is the scene Enter opened, else NULL.
bool tbPicker_Key( tbPicker* picker, SDL_Keycode key, const char** chosen );
/// Mouse wheel over the list: positive scrolls up.
void tbPicker_Scroll( tbPicker* picker, int rows );
/// Draw the list as a panel centred at the top. Returns the path of a clicked scene, else NULL.
const char* tbPicker_Draw( tbPicker* picker, tbUi* ui, float viewWidth, float viewHeight );

/// What the viewer remembers between runs (state.c): the last scene and the camera it had.
typedef struct tbViewerState
{
	char scene[4096]; ///< absolute path, empty when none
	bool hasCamera;
	tbCamera camera; ///< target, yaw, pitch, distance
} tbViewerState;

/// The state file: $XDG_STATE_HOME/tumble/viewer.state, else ~/.local/state/tumble/viewer.state.
/// false (and path empty) when neither variable is set.
bool tbViewerState_Path( char* path, size_t size );
/// Read the state; false when there is none or it is unreadable (state cleared).
bool tbViewerState_Load( tbViewerState* state );
/// Write the state (creating the folders); false with a message on stderr on failure.
bool tbViewerState_Save( const tbViewerState* state );

/// Everything the viewer keeps between frames.
typedef struct tbViewer
{
	const tbAppOptions* app;
	tbViewerSettings settings;

	SDL_Window* window;
	tbRenderProfile profile; ///< chosen at start from the device (or --render-profile); F4 switches
	bool multisampled;		 ///< the window has 4x multisampling
	SDL_GLContext context;
	int windowWidth, windowHeight;	   ///< screen points (mouse coordinates)
	int drawableWidth, drawableHeight; ///< pixels
	float pixelRatio;				   ///< pixels per point (high-DPI displays)
	float displayDpi;				   ///< the display's physical density, 0 when unknown

	tbScene* scene;
	struct tbWatch* watch;
	tbWorldId world; ///< the world drawn last frame: a change means a rebuild (caches are dropped)

	tbRenderer* renderer;
	tbCamera camera;
	tbUi ui;
	tbWorldDraw* worldDraw;
	unsigned debugFlags;
	bool showUi;
	bool showHelp;
	float controlsScroll;	  ///< pixels the controls panel is scrolled up (when taller than the window)
	float controlsRect[4];	  ///< where the controls panel was drawn last: x, y, width, height (pixels)
	tbPicker picker;
	const char* startPath;	///< the scene opened at start (the one named, or the last one)
	bool restoreCamera;		///< the first world takes the camera of the state file
	tbViewerState state;	///< as read at start; written back at exit

	// Simulation control
	bool paused;
	bool slowMotion;   ///< x0.25
	float speed;	   ///< time scale on top of slow motion (keys + and -)
	int stepRequests;  ///< single steps asked for while paused
	double accumulator; ///< s of simulated time owed to real time
	bool lockstep;	   ///< exactly one step per frame (scripted runs): results do not depend on speed
	bool cameraFitted; ///< the camera was fitted to the first scene that loaded

	// Errors
	char* errorText;   ///< message and traceback shown in the overlay, or NULL
	char status[160];  ///< short notice shown for a few seconds (reloaded, screenshot saved)
	double statusUntil;

	// Mouse
	tbDragMode drag;
	int dragButton;
	float mouseX, mouseY; ///< last position, screen points
	bool keyDown[SDL_NUM_SCANCODES];
	bool keyPressed[SDL_NUM_SCANCODES];	 ///< went down since the last step (tb.input.pressed)
	bool keyReleased[SDL_NUM_SCANCODES]; ///< went up since the last step
	unsigned mouseButtons;				 ///< held, bit 0 left, 1 middle, 2 right (tb.input)
	unsigned mousePressed, mouseReleased; ///< since the last step; presses on panels never count
	tbBodyId selected;	 ///< highlighted body (F focuses on it)
	tbJointId mouseJoint; ///< drag joint, null when not dragging
	tbVec3 dragPlanePoint; ///< the target moves in the plane through this point facing the camera
	tbVec3 dragPlaneNormal;
	tbVec3 dragTarget;

	// Timing and statistics
	int frame;
	double frameMs;
	double stepMs;	 ///< wall time of the last tbScene_Step (scripts + physics), ms
	int stepsThisFrame;
	double realTimeFactor; ///< measured simulated seconds per wall second, -1 until measured
	double speedWindow[2]; ///< simulated and wall seconds accumulated towards the next measurement
	double wallSeconds;	   ///< wall time of the frames run so far (the --frames summary)
	/// TUMBLE_FRAME_PHASES=1: glFinish after drawing and after the swap, and the wall time of each
	/// phase of the frames summed here (steps, queueing the scene and UI, GL drawing, swap).
	bool timePhases;
	double phaseSeconds[4];
	tbWorldDrawStats lastStats; ///< figures of the last frame drawn
	tbHistory history;
	tbPlot plots[TB_VIEWER_MAX_PLOTS];
	int plotCount;
	bool warnedPlotLimit; ///< said once that a plot past TB_VIEWER_MAX_PLOTS is not shown
	bool uiOpen; ///< inside the scene's ui(ui) call: ui.* widgets draw into the scene panel
	int glErrors;
	char screenshotRequest[512]; ///< written at the end of this frame when not empty
	bool quit;
	int exitStatus;
} tbViewer;

/// Picking and dragging (picking.c). Coordinates are screen points.
bool tbViewer_PickBody( tbViewer* viewer, float x, float y, tbBodyId* body, tbVec3* point );
void tbViewer_BeginBodyDrag( tbViewer* viewer, tbBodyId body, tbVec3 point );
void tbViewer_UpdateBodyDrag( tbViewer* viewer, float x, float y );
void tbViewer_EndBodyDrag( tbViewer* viewer );
void tbViewer_ApplyImpulse( tbViewer* viewer, float x, float y );
/// Drop handles that belonged to a previous world (after a rebuild).
void tbViewer_ForgetWorld( tbViewer* viewer );

/// Rewind (history.c). Record after every step; Rewind moves the cursor (delta entries, negative is
/// back) and restores that state; the next step from a rewound state drops the newer entries.
void tbHistory_Clear( tbHistory* history );
void tbHistory_Record( tbViewer* viewer );
bool tbHistory_Rewind( tbViewer* viewer, int delta );
/// Seconds of simulated time recorded, and how far back the cursor is (0 while live).
double tbHistory_GetSpan( const tbHistory* history );
double tbHistory_GetOffset( const tbHistory* history );
/// Restore the entry closest to offset seconds before the newest (scrubbing with a slider).
bool tbHistory_Scrub( tbViewer* viewer, double offset );

/// Scripted input (input_script.c): a text file of timed events, pushed into SDL's queue.
typedef struct tbInputScript tbInputScript;
tbInputScript* tbInputScript_Load( const char* path, char* error, int errorSize );
void tbInputScript_Destroy( tbInputScript* script );
/// Push this frame's events. Commands that are not events (screenshot, copy, quit) act on viewer.
void tbInputScript_Run( tbInputScript* script, tbViewer* viewer, int frame );
/// True once every command has run.
bool tbInputScript_IsDone( const tbInputScript* script );

/// Screenshots (screenshot.c): renders through an offscreen framebuffer, then writes a PNG.
typedef struct tbOffscreen tbOffscreen;
tbOffscreen* tbOffscreen_Create( int width, int height );
void tbOffscreen_Destroy( tbOffscreen* offscreen );
/// Bind for drawing (the frame is drawn into it instead of the window).
void tbOffscreen_Bind( tbOffscreen* offscreen );
/// Resolve, read back, flip rows and write path as an RGB PNG. Returns false on failure.
bool tbOffscreen_WritePng( tbOffscreen* offscreen, const char* path );

/// The Lua side of the tweak panel (ui_lua.c): pushes the `ui` table for scene.ui(ui). Matches
/// tbScenePushArgsFcn; context is the tbViewer.
int tbUiLua_Push( lua_State* L, void* context );

/// The view as scripts drive it (script_view.c): hand the scene the mouse (before the steps), apply
/// its camera requests, draw its tb.draw shapes (after them).
void tbScriptView_Feed( tbViewer* viewer );
void tbScriptView_ApplyCamera( tbViewer* viewer, double seconds );
void tbScriptView_Draw( tbViewer* viewer );

/// Add a sample to the plot called name (created on first use; at most TB_VIEWER_MAX_PLOTS).
void tbViewer_Plot( tbViewer* viewer, const char* name, float value );
