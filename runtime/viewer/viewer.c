// Tumble viewer: the window, the main loop hosting a scene, keys and mouse, overlays.
// SPDX-License-Identifier: MIT
#define _XOPEN_SOURCE 700

#include "viewer.h"

#include "watch.h"

#include <glad/gl.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define TB_MAX_WATCHED 256
// Real time may outrun the simulation (a slow step, a debugger pause): at most this many steps per
// frame, the rest of the debt is dropped, so the viewer slows down instead of freezing.
#define TB_MAX_STEPS_PER_FRAME 4
// Widths of the stats panel (left) and the controls (right) at UI scale 1, pixels; the camera's
// automatic fit keeps the scene between them.
#define TB_STATS_WIDTH 236.0f
#define TB_CONTROLS_WIDTH 170.0f

// Command line ---------------------------------------------------------------------------------

static tbViewerSettings s_settings = { NULL, NULL, 0, 1280, 720, 0u, false, false, -1 };

static int tbOptionError( const char* option, const char* what, const char* value )
{
	fprintf( stderr, "tumble: %s %s, got %s\nTry 'tumble --help'.\n", option, what, value != NULL ? value : "nothing" );
	return -1;
}

static bool tbParseDebugList( const char* list, unsigned* flags )
{
	unsigned result = 0u;
	const char* p = list;
	while ( *p != '\0' )
	{
		const char* end = strchr( p, ',' );
		size_t n = end != NULL ? (size_t)( end - p ) : strlen( p );
		bool known = false;
		if ( n == 3 && strncmp( p, "all", 3 ) == 0 )
		{
			result |= tbDebug_all;
			known = true;
		}
		for ( int i = 0; i < tbDebug_flagCount && known == false; ++i )
		{
			const char* name = tbDebugDrawName( i );
			if ( strlen( name ) == n && strncmp( p, name, n ) == 0 )
			{
				result |= 1u << i;
				known = true;
			}
		}
		if ( known == false )
		{
			return false;
		}
		p = end != NULL ? end + 1 : p + n;
	}
	*flags = result;
	return true;
}

int tbViewer_ParseOption( int argc, char** argv, int index )
{
	const char* arg = argv[index];
	const char* value = index + 1 < argc ? argv[index + 1] : NULL;
	if ( strcmp( arg, "--screenshot" ) == 0 )
	{
		if ( value == NULL )
		{
			return tbOptionError( arg, "needs a PNG file name", value );
		}
		s_settings.screenshotPath = value;
		return 2;
	}
	if ( strcmp( arg, "--script-input" ) == 0 )
	{
		if ( value == NULL )
		{
			return tbOptionError( arg, "needs a file", value );
		}
		s_settings.scriptPath = value;
		return 2;
	}
	if ( strcmp( arg, "--frames" ) == 0 )
	{
		char* end = NULL;
		errno = 0;
		long n = value != NULL ? strtol( value, &end, 10 ) : -1;
		if ( value == NULL || errno != 0 || *end != '\0' || n < 1 || n > INT_MAX )
		{
			return tbOptionError( arg, "needs a positive number of frames", value );
		}
		s_settings.frames = (int)n;
		return 2;
	}
	if ( strcmp( arg, "--window" ) == 0 )
	{
		int w = 0;
		int h = 0;
		char extra = 0;
		if ( value == NULL || sscanf( value, "%dx%d%c", &w, &h, &extra ) != 2 || w < 64 || h < 64 || w > 16384 ||
			 h > 16384 )
		{
			return tbOptionError( arg, "needs a size WIDTHxHEIGHT (64 to 16384 each)", value );
		}
		s_settings.width = w;
		s_settings.height = h;
		return 2;
	}
	if ( strcmp( arg, "--debug-draw" ) == 0 )
	{
		if ( value == NULL || tbParseDebugList( value, &s_settings.debugFlags ) == false )
		{
			return tbOptionError(
				arg, "needs a list of contacts,joints,aabbs,centers,velocities,sleep,tree (or all)", value );
		}
		return 2;
	}
	if ( strcmp( arg, "--no-ui" ) == 0 )
	{
		s_settings.hideUi = true;
		return 1;
	}
	if ( strcmp( arg, "--no-shadows" ) == 0 )
	{
		s_settings.noShadows = true;
		return 1;
	}
	if ( strcmp( arg, "--render-profile" ) == 0 )
	{
		static const char* const names[3] = { "auto", "full", "software" };
		for ( int i = 0; i < 3; ++i )
		{
			if ( value != NULL && strcmp( value, names[i] ) == 0 )
			{
				s_settings.renderProfile = i - 1;
				return 2;
			}
		}
		return tbOptionError( arg, "needs auto, full or software", value );
	}
	return 0;
}

// The options tbViewer_ParseOption reads, for tumble --help (and so the man page).
void tbViewer_PrintOptions( FILE* out )
{
	fputs( "  --screenshot FILE    run the steps (--steps, default 0) as fast as possible, render\n"
		   "                       one frame offscreen, write FILE (PNG) and exit\n"
		   "  --window WxH         window size in screen points (default 1280x720)\n"
		   "  --debug-draw LIST    start with these layers on: contacts,joints,aabbs,centers,\n"
		   "                       velocities,sleep,tree or all\n"
		   "  --no-ui              start with the panels hidden\n"
		   "  --no-shadows         start without the shadows (F2 toggles them)\n"
		   "  --render-profile P   auto (default: software on Mesa's llvmpipe or softpipe, else\n"
		   "                       full), full, or software: a smaller shadow map, low-detail\n"
		   "                       round meshes, the 3D view at half resolution, no\n"
		   "                       multisampling (F4 switches at run time)\n"
		   "  --frames N           quit after N frames (with --screenshot: capture after them)\n"
		   "  --script-input FILE  inject input events from FILE, one physics step per frame\n"
		   "                       (docs/VIEWER.md)\n",
		   out );
}

// Small helpers ----------------------------------------------------------------------------------

static double tbNow( void )
{
	return (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency();
}

static void tbSetStatus( tbViewer* v, const char* text )
{
	size_t n = strlen( text );
	n = n < sizeof( v->status ) - 1 ? n : sizeof( v->status ) - 1;
	memcpy( v->status, text, n );
	v->status[n] = '\0';
	v->statusUntil = tbNow() + 3.0;
}

static void tbSetError( tbViewer* v, const char* text )
{
	free( v->errorText );
	v->errorText = NULL;
	if ( text != NULL )
	{
		size_t n = strlen( text );
		v->errorText = malloc( n + 1 );
		if ( v->errorText != NULL )
		{
			memcpy( v->errorText, text, n + 1 );
		}
	}
}

// A scene function failed: show the error in the overlay and print it.
static void tbReportSceneError( tbViewer* v, const char* what )
{
	const char* error = tbScene_GetError( v->scene );
	tbSetError( v, error != NULL ? error : what );
	fprintf( stderr, "tumble: script error in %s, the scene is halted until a file is saved (or F6):\n%s\n", what,
			 v->errorText != NULL ? v->errorText : what );
}

static const char* tbBaseName( const char* path )
{
	const char* slash = strrchr( path, '/' );
	return slash != NULL ? slash + 1 : path;
}

void tbViewer_Plot( tbViewer* v, const char* name, float value )
{
	tbPlot* plot = NULL;
	for ( int i = 0; i < v->plotCount; ++i )
	{
		if ( strncmp( v->plots[i].name, name, sizeof( v->plots[i].name ) - 1 ) == 0 )
		{
			plot = v->plots + i;
			break;
		}
	}
	if ( plot == NULL )
	{
		if ( v->plotCount == TB_VIEWER_MAX_PLOTS )
		{
			if ( v->warnedPlotLimit == false )
			{
				v->warnedPlotLimit = true;
				fprintf( stderr, "tumble: warning: plot '%s' is not shown: at most %d plots at once (said once)\n", name,
						 TB_VIEWER_MAX_PLOTS );
			}
			return;
		}
		plot = v->plots + v->plotCount++;
		memset( plot, 0, sizeof( *plot ) );
		snprintf( plot->name, sizeof( plot->name ), "%s", name );
	}
	plot->values[plot->next] = value;
	plot->times[plot->next] = tbScene_GetTime( v->scene );
	plot->next = ( plot->next + 1 ) % TB_VIEWER_PLOT_SAMPLES;
	plot->count = plot->count < TB_VIEWER_PLOT_SAMPLES ? plot->count + 1 : plot->count;
	plot->lastFrame = v->frame;
}

// Scene hosting ----------------------------------------------------------------------------------

static const char* tbScenePath( const tbViewer* v )
{
	const char* path = tbScene_GetPath( v->scene );
	return path != NULL ? path : v->startPath;
}

static void tbWatchFiles( tbViewer* v )
{
	const char* files[TB_MAX_WATCHED];
	int count = tbScene_GetFiles( v->scene, files, TB_MAX_WATCHED );
	count = count < TB_MAX_WATCHED ? count : TB_MAX_WATCHED;
	if ( count == 0 )
	{
		// A first load that failed early still has a file to fix.
		files[0] = tbScenePath( v );
		count = 1;
	}
	tbWatch_SetFiles( v->watch, files, count );
}

typedef enum tbLoadKind
{
	tbLoad_first,  ///< at start
	tbLoad_reset,  ///< R: rebuild from the file
	tbLoad_reload, ///< a saved file or F5: the reload mode the file asks for (rebuild or swap)
} tbLoadKind;

static void tbLoadScene( tbViewer* v, tbLoadKind kind )
{
	double start = tbNow();
	bool reload = kind == tbLoad_reload;
	bool ok = reload && tbScene_IsLoaded( v->scene ) ? tbScene_Reload( v->scene )
												  : tbScene_Load( v->scene, tbScenePath( v ) );
	double ms = 1000.0 * ( tbNow() - start );
	if ( ok )
	{
		tbSetError( v, NULL );
		char text[160];
		static const char* const verbs[] = { "loaded", "reset", "reloaded" };
		snprintf( text, sizeof( text ), "%s %s (%s) in %.1f ms", verbs[kind], tbBaseName( tbScenePath( v ) ),
				  tbScene_GetReloadMode( v->scene ) == tbSceneReload_swap ? "swap" : "rebuild", ms );
		tbSetStatus( v, text );
		fprintf( stderr, "tumble: %s\n", text );
	}
	else
	{
		const char* error = tbScene_GetError( v->scene );
		tbSetError( v, error != NULL ? error : "unknown error" );
		fprintf( stderr, "tumble: %s failed%s:\n%s\n", reload ? "reload" : "load",
				 tbScene_IsLoaded( v->scene ) ? ", the last good scene keeps running" : "", v->errorText );
	}
	tbWatchFiles( v );
	v->accumulator = 0.0;
}

static bool tbKeyProvider( const char* key, tbLuaKeyQuery query, void* context )
{
	tbViewer* v = context;
	SDL_Keycode code = SDL_GetKeyFromName( key );
	if ( code == SDLK_UNKNOWN )
	{
		return false;
	}
	SDL_Scancode scancode = SDL_GetScancodeFromKey( code );
	if ( scancode <= SDL_SCANCODE_UNKNOWN || scancode >= SDL_NUM_SCANCODES )
	{
		return false;
	}
	const bool* state = query == tbLuaKey_pressed ? v->keyPressed
											   : ( query == tbLuaKey_released ? v->keyReleased : v->keyDown );
	return state[scancode];
}

static float tbUiScale( const tbViewer* v )
{
	// The panels take about the same share of the window at any size: scale 1 (12-pixel text) up
	// to 600 pixels tall, 1.8 at 1080, 3.6 at 2160; and at least the display's density over the
	// usual 96 dpi, so a small window on a dense screen stays readable. Quarter steps, so resizing
	// re-bakes the font at a few sizes only.
	float scale = tbMaxFloat( 1.0f, (float)v->drawableHeight / 600.0f );
	if ( v->displayDpi >= 120.0f )
	{
		scale = tbMaxFloat( scale, v->displayDpi / 96.0f );
	}
	return tbMinFloat( floorf( 4.0f * scale ) / 4.0f, 4.0f );
}

static void tbFitCamera( tbViewer* v )
{
	tbVec3 lower, upper;
	tbCamera_Reset( &v->camera );
	float eye[3], target[3];
	if ( tbScene_GetCamera( v->scene, eye, target ) )
	{
		tbCamera_LookAt( &v->camera, tbMakeVec3( eye[0], eye[1], eye[2] ), tbMakeVec3( target[0], target[1], target[2] ) );
		return;
	}
	tbWorldId world = tbScene_GetWorld( v->scene );
	if ( tbWorld_IsValid( world ) && tbWorldDraw_GetBounds( world, &lower, &upper ) )
	{
		// Bodies above the ground will fall onto it: frame the ground under them too.
		if ( lower.z > 0.0f && lower.z < 20.0f )
		{
			lower.z = 0.0f;
		}
		// Frame at least a 3 m wide region: a lone small body should not fill the window.
		tbVec3 center = tbMulSV( 0.5f, tbAdd( lower, upper ) );
		tbVec3 minimum = tbMakeVec3( 1.5f, 1.5f, 1.5f );
		lower = tbMinVec( lower, tbSub( center, minimum ) );
		upper = tbMaxVec( upper, tbAdd( center, minimum ) );
		// Keep clear of the side panels: the stats on the left, the controls on the right.
		float left = 0.0f;
		float right = 1.0f;
		if ( v->showUi && v->drawableWidth > 0 )
		{
			float s = tbUiScale( v );
			left = tbMinFloat( ( TB_STATS_WIDTH + 16.0f ) * s / (float)v->drawableWidth, 0.4f );
			right = tbMaxFloat( 1.0f - ( TB_CONTROLS_WIDTH + 16.0f ) * s / (float)v->drawableWidth, 0.6f );
		}
		tbCamera_FitRegion( &v->camera, lower, upper, left, right );
	}
}

// A rebuild made a new world: handles and cached meshes of the old one are gone.
static void tbCheckWorld( tbViewer* v )
{
	tbWorldId world = tbScene_GetWorld( v->scene );
	if ( world.index1 == v->world.index1 && world.generation == v->world.generation )
	{
		return;
	}
	tbViewer_ForgetWorld( v );
	tbWorldDraw_Reset( v->worldDraw, v->renderer );
	tbHistory_Clear( &v->history );
	v->world = world;
	if ( v->cameraFitted == false && tbWorld_IsValid( world ) )
	{
		tbFitCamera( v );
		if ( v->restoreCamera )
		{
			// The view the last run ended with (tbViewer_Run decided it applies to this scene).
			v->camera.target = v->state.camera.target;
			v->camera.yaw = v->state.camera.yaw;
			v->camera.pitch = v->state.camera.pitch;
			v->camera.distance = v->state.camera.distance;
			v->restoreCamera = false;
		}
		v->cameraFitted = true;
	}
}

static void tbStepScene( tbViewer* v )
{
	if ( v->drag == tbDrag_body )
	{
		tbViewer_UpdateBodyDrag( v, v->mouseX, v->mouseY );
	}
	double start = tbNow();
	bool ok = tbScene_Step( v->scene, v->app->dt );
	v->stepMs = 1000.0 * ( tbNow() - start );
	v->stepsThisFrame += 1;
	if ( ok == false )
	{
		tbReportSceneError( v, "a step" );
	}
	else
	{
		tbHistory_Record( v );
	}
	// Each press and release is seen by one step's update (tb.input.pressed / released).
	memset( v->keyPressed, 0, sizeof( v->keyPressed ) );
	memset( v->keyReleased, 0, sizeof( v->keyReleased ) );
	v->mousePressed = 0u;
	v->mouseReleased = 0u;
}

static void tbSimulate( tbViewer* v, double frameSeconds )
{
	v->stepsThisFrame = 0;
	if ( tbScene_IsLoaded( v->scene ) == false || tbScene_IsHalted( v->scene ) )
	{
		v->accumulator = 0.0;
		v->stepRequests = 0;
		return;
	}
	double dt = v->app->dt;
	double scale = v->speed * ( v->slowMotion ? 0.25 : 1.0 );
	int steps = 0;
	if ( v->paused )
	{
		v->accumulator = 0.0;
	}
	else
	{
		// Lockstep (scripted runs) owes one step of time per frame whatever the wall clock says, so
		// a test gives the same result on a slow machine.
		v->accumulator += ( v->lockstep ? dt : tbMinFloat( (float)frameSeconds, 0.1f ) ) * scale;
		steps = (int)( v->accumulator / dt );
		v->accumulator -= steps * dt;
		if ( steps > TB_MAX_STEPS_PER_FRAME )
		{
			steps = TB_MAX_STEPS_PER_FRAME;
			v->accumulator = 0.0;
		}
	}
	steps += v->stepRequests;
	v->stepRequests = 0;
	for ( int i = 0; i < steps && tbScene_IsHalted( v->scene ) == false; ++i )
	{
		tbStepScene( v );
	}
}

static bool tbIsFile( const char* path )
{
	struct stat st;
	return path != NULL && stat( path, &st ) == 0 && S_ISREG( st.st_mode );
}

// Open another scene in this window (picker, dropped file): a fresh world, fitted camera and plots.
// On failure the running scene stays and the overlay shows why.
static void tbOpenScene( tbViewer* v, const char* path )
{
	char copy[PATH_MAX];
	snprintf( copy, sizeof( copy ), "%s", path );
	if ( tbScene_Load( v->scene, copy ) )
	{
		tbSetError( v, NULL );
		v->cameraFitted = false;
		v->plotCount = 0;
		v->realTimeFactor = -1.0;
		char text[160];
		snprintf( text, sizeof( text ), "opened %.140s", tbBaseName( copy ) );
		tbSetStatus( v, text );
		fprintf( stderr, "tumble: %s\n", text );
		char title[300];
		snprintf( title, sizeof( title ), "tumble - %.280s", tbBaseName( copy ) );
		SDL_SetWindowTitle( v->window, title );
	}
	else
	{
		const char* error = tbScene_GetError( v->scene );
		tbSetError( v, error != NULL ? error : "unknown error" );
		fprintf( stderr, "tumble: cannot open %s:\n%s\n", copy, v->errorText != NULL ? v->errorText : "" );
	}
	tbWatchFiles( v );
	v->accumulator = 0.0;
}

// Write the scene on screen and its view to the state file, for the next `tumble` without a scene.
static void tbRememberScene( tbViewer* v )
{
	const char* path = tbScene_GetPath( v->scene );
	char resolved[PATH_MAX];
	if ( tbScene_IsLoaded( v->scene ) == false || path == NULL || realpath( path, resolved ) == NULL )
	{
		return;
	}
	snprintf( v->state.scene, sizeof( v->state.scene ), "%s", resolved );
	v->state.hasCamera = true;
	v->state.camera = v->camera;
	tbViewerState_Save( &v->state );
}

// Panels and overlays that take the mouse: the panels unless hidden, the picker and help always.
static bool tbPanelsShown( const tbViewer* v )
{
	return v->showUi || v->picker.open || v->showHelp;
}

// Simulated seconds per wall second over the last half second or more (-1 until measured).
static void tbMeasureSpeed( tbViewer* v, double frameSeconds )
{
	v->speedWindow[0] += v->stepsThisFrame * (double)v->app->dt;
	v->speedWindow[1] += frameSeconds;
	if ( v->speedWindow[1] >= 0.5 )
	{
		v->realTimeFactor = v->speedWindow[0] / v->speedWindow[1];
		v->speedWindow[0] = 0.0;
		v->speedWindow[1] = 0.0;
	}
}

// Keys and mouse ---------------------------------------------------------------------------------

// The F1 overlay: key, what it does. docs/VIEWER.md has the same list.
static const char* const tb_help[][2] = {
	{ "Esc", "close help, picker, error" },
	{ "Ctrl+Q", "quit (or close the window)" },
	{ "Space, P", "pause / resume" },
	{ "Period, N", "single step" },
	{ "R", "reset: rebuild from the file" },
	{ "F5", "reload now (the scene's mode)" },
	{ "F6", "resume after a script error" },
	{ "T", "slow motion x0.25" },
	{ "+  -", "speed x2, x0.5" },
	{ "Left  Right", "rewind, forward (Shift: 1 s)" },
	{ "1 - 7", "debug layers (see the panel)" },
	{ "F2", "shadows on / off" },
	{ "F3", "scene picker (Up Down Enter)" },
	{ "F4", "render profile: full / software" },
	{ "W A S D Q E", "fly (Shift: faster)" },
	{ "F", "focus on the selected body" },
	{ "Home", "reset the camera" },
	{ "Tab", "hide / show the panels" },
	{ "F12", "save a screenshot (PNG)" },
	{ "Drag a body", "pull it (mouse joint)" },
	{ "Shift + click", "push it (impulse)" },
	{ "Drag elsewhere", "orbit (also right drag)" },
	{ "Middle drag", "pan (also Shift + right drag)" },
	{ "Wheel", "zoom" },
	{ "Other keys", "go to the scene's keypressed" },
};

static void tbRequestScreenshot( tbViewer* v )
{
	char name[64];
	time_t now = time( NULL );
	struct tm local;
	localtime_r( &now, &local );
	strftime( name, sizeof( name ), "tumble-%Y%m%d-%H%M%S.png", &local );
	snprintf( v->screenshotRequest, sizeof( v->screenshotRequest ), "%s", name );
}

static void tbFocusSelected( tbViewer* v )
{
	if ( tbBody_IsValid( v->selected ) == false )
	{
		tbSetStatus( v, "nothing selected: click a body first" );
		return;
	}
	tbAABB box = tbBody_ComputeAABB( v->selected );
	float yaw = v->camera.yaw;
	float pitch = v->camera.pitch;
	tbCamera_Fit( &v->camera, box.lowerBound, box.upperBound );
	v->camera.distance = tbMaxFloat( v->camera.distance, 3.0f );
	v->camera.yaw = yaw;
	v->camera.pitch = pitch;
}

// SDL's name of a key in lower case ("left shift", "space"): what scenes see and claim.
static void tbKeyName( SDL_Keycode key, char* name, size_t size )
{
	snprintf( name, size, "%s", SDL_GetKeyName( key ) );
	for ( char* c = name; *c != '\0'; ++c )
	{
		*c = (char)tolower( (unsigned char)*c );
	}
}

// The scene's `keys` claim this key, so the viewer's own use of it (pause, rewind, fly) gives way.
// Esc and the F-keys stay the viewer's whatever the scene says.
static bool tbSceneClaims( const tbViewer* v, SDL_Keycode key )
{
	if ( key == SDLK_ESCAPE || ( key >= SDLK_F1 && key <= SDLK_F12 ) || tbScene_IsLoaded( v->scene ) == false )
	{
		return false;
	}
	char name[64];
	tbKeyName( key, name, sizeof( name ) );
	return tbScene_ClaimsKey( v->scene, name );
}

static void tbForwardKey( tbViewer* v, SDL_Keycode key )
{
	char name[64];
	tbKeyName( key, name, sizeof( name ) );
	if ( name[0] == '\0' )
	{
		return;
	}
	if ( tbScene_IsLoaded( v->scene ) && tbScene_IsHalted( v->scene ) == false &&
		 tbScene_KeyPressed( v->scene, name ) == false )
	{
		tbReportSceneError( v, "keypressed" );
	}
}

static bool tbShiftHeld( const tbViewer* v )
{
	return v->keyDown[SDL_SCANCODE_LSHIFT] || v->keyDown[SDL_SCANCODE_RSHIFT];
}

static bool tbCtrlHeld( const tbViewer* v )
{
	return v->keyDown[SDL_SCANCODE_LCTRL] || v->keyDown[SDL_SCANCODE_RCTRL];
}

// Esc: the topmost open thing closes (help, the picker, the error overlay, then the selection).
static void tbCloseOverlays( tbViewer* v )
{
	if ( v->showHelp )
	{
		v->showHelp = false;
	}
	else if ( v->picker.open )
	{
		v->picker.open = false;
	}
	else if ( v->errorText != NULL )
	{
		tbSetError( v, NULL );
	}
	else
	{
		v->selected = tb_nullBodyId;
	}
}

static void tbHandleKey( tbViewer* v, const SDL_KeyboardEvent* e )
{
	SDL_Keycode key = e->keysym.sym;
	if ( key == SDLK_q && tbCtrlHeld( v ) )
	{
		v->quit = true;
		return;
	}
	// The open picker takes its navigation keys (Up, Down, Enter, ...) before anyone else.
	const char* chosen = NULL;
	if ( v->picker.open && tbPicker_Key( &v->picker, key, &chosen ) )
	{
		if ( chosen != NULL )
		{
			tbOpenScene( v, chosen );
		}
		return;
	}
	if ( tbSceneClaims( v, key ) )
	{
		if ( e->repeat == 0 )
		{
			tbForwardKey( v, key );
		}
		return;
	}
	if ( e->repeat && key != SDLK_PERIOD && key != SDLK_n && key != SDLK_LEFT && key != SDLK_RIGHT &&
		 key != SDLK_BACKSPACE )
	{
		return;
	}
	switch ( key )
	{
		case SDLK_ESCAPE:
			// Esc only ever closes things: a stray press must not lose the session.
			tbCloseOverlays( v );
			break;
		case SDLK_SPACE:
		case SDLK_p:
			v->paused = !v->paused;
			break;
		case SDLK_PERIOD:
		case SDLK_n:
			v->paused = true;
			v->stepRequests += 1;
			break;
		case SDLK_r:
			tbLoadScene( v, tbLoad_reset );
			break;
		case SDLK_F5:
			tbLoadScene( v, tbLoad_reload );
			break;
		case SDLK_F6:
			tbScene_Resume( v->scene );
			tbSetError( v, NULL );
			break;
		case SDLK_t:
			v->slowMotion = !v->slowMotion;
			break;
		case SDLK_LEFT:
		case SDLK_BACKSPACE:
			// Back through the recorded past: one snapshot, or a second with Shift.
			tbHistory_Rewind( v, tbShiftHeld( v ) ? -60 / tbMaxInt( v->history.stride, 1 ) : -1 );
			break;
		case SDLK_RIGHT:
			tbHistory_Rewind( v, tbShiftHeld( v ) ? 60 / tbMaxInt( v->history.stride, 1 ) : 1 );
			break;
		case SDLK_PLUS:
		case SDLK_EQUALS:
		case SDLK_KP_PLUS:
			v->speed = tbMinFloat( v->speed * 2.0f, 8.0f );
			break;
		case SDLK_MINUS:
		case SDLK_KP_MINUS:
			v->speed = tbMaxFloat( v->speed * 0.5f, 1.0f / 16.0f );
			break;
		case SDLK_f:
			tbFocusSelected( v );
			break;
		case SDLK_HOME:
			tbFitCamera( v );
			break;
		case SDLK_TAB:
			v->showUi = !v->showUi;
			break;
		case SDLK_F1:
			v->showHelp = !v->showHelp;
			break;
		case SDLK_F2:
			tbRenderer_SetShadows( v->renderer, !tbRenderer_GetShadows( v->renderer ) );
			break;
		case SDLK_F4: {
			tbRenderProfile next = tbRenderer_GetProfile( v->renderer ) == tbRenderProfile_full
									   ? tbRenderProfile_software
									   : tbRenderProfile_full;
			tbRenderer_SetProfile( v->renderer, next );
			char text[120];
			snprintf( text, sizeof( text ), "%s render profile (shadow map %d)",
					  next == tbRenderProfile_full ? "full" : "software", tbRenderer_GetShadowMapSize( v->renderer ) );
			tbSetStatus( v, text );
			fprintf( stderr, "tumble: %s\n", text );
			break;
		}
		case SDLK_F3:
			if ( v->picker.open )
			{
				v->picker.open = false;
			}
			else
			{
				tbPicker_Open( &v->picker, v->app->scenesDir, tbScenePath( v ) );
			}
			break;
		case SDLK_F12:
		case SDLK_PRINTSCREEN:
			tbRequestScreenshot( v );
			break;
		case SDLK_1:
		case SDLK_2:
		case SDLK_3:
		case SDLK_4:
		case SDLK_5:
		case SDLK_6:
		case SDLK_7:
			v->debugFlags ^= 1u << ( key - SDLK_1 );
			break;
		default:
			tbForwardKey( v, key );
			break;
	}
}

typedef struct tbMouseFrame
{
	bool down, pressed, released; // left button, for the UI
} tbMouseFrame;

static void tbHandleMouseDown( tbViewer* v, const SDL_MouseButtonEvent* e, tbMouseFrame* mouse )
{
	float x = (float)e->x;
	float y = (float)e->y;
	v->mouseX = x;
	v->mouseY = y;
	if ( v->drag != tbDrag_none )
	{
		return;
	}
	v->dragButton = e->button;
	if ( tbPanelsShown( v ) && tbUi_WantsMouse( &v->ui, x * v->pixelRatio, y * v->pixelRatio ) )
	{
		if ( e->button == SDL_BUTTON_LEFT )
		{
			v->drag = tbDrag_ui;
			mouse->pressed = true;
			mouse->down = true;
		}
		return;
	}
	if ( e->button == SDL_BUTTON_LEFT )
	{
		if ( tbShiftHeld( v ) )
		{
			tbViewer_ApplyImpulse( v, x, y );
			return;
		}
		tbBodyId body;
		tbVec3 point;
		if ( tbViewer_PickBody( v, x, y, &body, &point ) )
		{
			v->selected = body;
			if ( tbBody_GetType( body ) == tbBody_dynamic )
			{
				tbViewer_BeginBodyDrag( v, body, point );
				if ( TB_IS_NON_NULL( v->mouseJoint ) )
				{
					v->drag = tbDrag_body;
					return;
				}
			}
		}
		v->drag = tbDrag_orbit;
	}
	else if ( e->button == SDL_BUTTON_RIGHT )
	{
		v->drag = tbShiftHeld( v ) ? tbDrag_pan : tbDrag_orbit;
	}
	else if ( e->button == SDL_BUTTON_MIDDLE )
	{
		v->drag = tbDrag_pan;
	}
}

static void tbHandleMouseUp( tbViewer* v, const SDL_MouseButtonEvent* e, tbMouseFrame* mouse )
{
	v->mouseX = (float)e->x;
	v->mouseY = (float)e->y;
	if ( v->drag == tbDrag_none || e->button != v->dragButton )
	{
		return;
	}
	if ( v->drag == tbDrag_body )
	{
		tbViewer_EndBodyDrag( v );
	}
	if ( v->drag == tbDrag_ui )
	{
		mouse->released = true;
		mouse->down = false;
	}
	v->drag = tbDrag_none;
}

static void tbHandleMotion( tbViewer* v, const SDL_MouseMotionEvent* e )
{
	// Deltas from positions rather than xrel: injected events and warped pointers stay consistent.
	float dx = ( (float)e->x - v->mouseX ) * v->pixelRatio;
	float dy = ( (float)e->y - v->mouseY ) * v->pixelRatio;
	v->mouseX = (float)e->x;
	v->mouseY = (float)e->y;
	switch ( v->drag )
	{
		case tbDrag_orbit:
			tbCamera_Orbit( &v->camera, dx, dy );
			break;
		case tbDrag_pan:
			tbCamera_Pan( &v->camera, dx, dy );
			break;
		case tbDrag_body:
			tbViewer_UpdateBodyDrag( v, v->mouseX, v->mouseY );
			break;
		default:
			break;
	}
}

static void tbUpdateSizes( tbViewer* v )
{
	SDL_GetWindowSize( v->window, &v->windowWidth, &v->windowHeight );
	SDL_GL_GetDrawableSize( v->window, &v->drawableWidth, &v->drawableHeight );
	// Physical density of the window's display (pixels per inch), 0 when SDL cannot tell.
	float dpi = 0.0f;
	int display = SDL_GetWindowDisplayIndex( v->window );
	if ( display < 0 || SDL_GetDisplayDPI( display, &dpi, NULL, NULL ) != 0 || !( dpi > 0.0f && dpi < 1000.0f ) )
	{
		dpi = 0.0f;
	}
	v->displayDpi = dpi;
	v->pixelRatio = v->windowWidth > 0 ? (float)v->drawableWidth / (float)v->windowWidth : 1.0f;
	v->camera.width = v->drawableWidth;
	v->camera.height = v->drawableHeight;
}

static bool tbInRect( const float rect[4], float x, float y )
{
	return x >= rect[0] && x < rect[0] + rect[2] && y >= rect[1] && y < rect[1] + rect[3];
}

static void tbHandleEvents( tbViewer* v, tbMouseFrame* mouse )
{
	SDL_Event e;
	while ( SDL_PollEvent( &e ) )
	{
		switch ( e.type )
		{
			case SDL_QUIT:
				v->quit = true;
				break;
			case SDL_WINDOWEVENT:
				if ( e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED || e.window.event == SDL_WINDOWEVENT_RESIZED )
				{
					tbUpdateSizes( v );
				}
				break;
			case SDL_KEYDOWN:
				if ( e.key.keysym.scancode > SDL_SCANCODE_UNKNOWN && e.key.keysym.scancode < SDL_NUM_SCANCODES )
				{
					v->keyDown[e.key.keysym.scancode] = true;
					v->keyPressed[e.key.keysym.scancode] |= e.key.repeat == 0;
				}
				tbHandleKey( v, &e.key );
				break;
			case SDL_KEYUP:
				if ( e.key.keysym.scancode > SDL_SCANCODE_UNKNOWN && e.key.keysym.scancode < SDL_NUM_SCANCODES )
				{
					v->keyDown[e.key.keysym.scancode] = false;
					v->keyReleased[e.key.keysym.scancode] = true;
				}
				break;
			case SDL_MOUSEBUTTONDOWN:
				tbHandleMouseDown( v, &e.button, mouse );
				if ( v->drag != tbDrag_ui && e.button.button >= SDL_BUTTON_LEFT && e.button.button <= SDL_BUTTON_RIGHT )
				{
					v->mouseButtons |= 1u << ( e.button.button - SDL_BUTTON_LEFT );
					v->mousePressed |= 1u << ( e.button.button - SDL_BUTTON_LEFT );
				}
				break;
			case SDL_MOUSEBUTTONUP:
				if ( e.button.button >= SDL_BUTTON_LEFT && e.button.button <= SDL_BUTTON_RIGHT &&
					 ( v->mouseButtons & ( 1u << ( e.button.button - SDL_BUTTON_LEFT ) ) ) )
				{
					v->mouseButtons &= ~( 1u << ( e.button.button - SDL_BUTTON_LEFT ) );
					v->mouseReleased |= 1u << ( e.button.button - SDL_BUTTON_LEFT );
				}
				tbHandleMouseUp( v, &e.button, mouse );
				break;
			case SDL_MOUSEMOTION:
				tbHandleMotion( v, &e.motion );
				break;
			case SDL_MOUSEWHEEL:
				if ( v->picker.open )
				{
					tbPicker_Scroll( &v->picker, e.wheel.y );
				}
				else if ( v->showUi && tbInRect( v->controlsRect, v->mouseX * v->pixelRatio, v->mouseY * v->pixelRatio ) )
				{
					// Clamped to the overflow when the panel is next drawn.
					v->controlsScroll -= 3.0f * tbRenderer_LineHeight( v->ui.scale ) * (float)e.wheel.y;
				}
				else if ( tbPanelsShown( v ) == false ||
					 tbUi_WantsMouse( &v->ui, v->mouseX * v->pixelRatio, v->mouseY * v->pixelRatio ) == false )
				{
					tbCamera_Zoom( &v->camera, (float)e.wheel.y );
				}
				break;
			case SDL_DROPFILE:
				// Dropping a .lua file on the window opens it.
				if ( e.drop.file != NULL )
				{
					tbOpenScene( v, e.drop.file );
					SDL_free( e.drop.file );
				}
				break;
			default:
				break;
		}
	}
}

// A fly key held and not claimed by the scene (a scene that drives with W A S D keeps the camera).
static int tbFlyKey( const tbViewer* v, SDL_Scancode code )
{
	return v->keyDown[code] && tbSceneClaims( v, SDL_GetKeyFromScancode( code ) ) == false;
}

static void tbFly( tbViewer* v, double seconds )
{
	if ( tbCtrlHeld( v ) )
	{
		return;
	}
	tbVec3 velocity = tbMakeVec3( (float)( tbFlyKey( v, SDL_SCANCODE_D ) - tbFlyKey( v, SDL_SCANCODE_A ) ),
								  (float)( tbFlyKey( v, SDL_SCANCODE_W ) - tbFlyKey( v, SDL_SCANCODE_S ) ),
								  (float)( tbFlyKey( v, SDL_SCANCODE_E ) - tbFlyKey( v, SDL_SCANCODE_Q ) ) );
	if ( tbLengthSquared( velocity ) == 0.0f )
	{
		return;
	}
	// Speed scales with the distance to the target, so flying feels the same close up and far away.
	float speed = tbMaxFloat( 2.0f, 0.8f * v->camera.distance ) * ( tbShiftHeld( v ) ? 3.0f : 1.0f );
	tbCamera_Fly( &v->camera, tbMulSV( speed, velocity ), (float)tbMinFloat( (float)seconds, 0.1f ) );
}

// Overlays ---------------------------------------------------------------------------------------


// What the scene says it is: its description and the keys it claims, under the header.
static void tbDrawSceneInfo( tbViewer* v )
{
	tbUi* ui = &v->ui;
	const char* description = tbScene_GetDescription( v->scene );
	if ( description != NULL )
	{
		tbUi_Wrapped( ui, description, tbMakeRgba( 190, 196, 210, 255 ) );
	}
	const tbSceneKey* keys = NULL;
	int count = tbScene_GetKeys( v->scene, &keys );
	for ( int i = 0; i < count; ++i )
	{
		tbUi_Columns( ui, keys[i].names, keys[i].text, tbRenderer_TextWidth( "left, right ", ui->scale ) );
	}
	if ( description != NULL || count > 0 )
	{
		tbUi_Separator( ui );
	}
}

static void tbDrawStats( tbViewer* v, const tbWorldDrawStats* drawStats )
{
	tbUi* ui = &v->ui;
	float s = ui->scale;
	tbUi_BeginPanel( ui, "", 8.0f * s, 8.0f * s, TB_STATS_WIDTH * s );
	char line[256];
	const char* title = tbScene_GetTitle( v->scene );
	snprintf( line, sizeof( line ), "%s  %s", title != NULL ? title : "tumble", tbBaseName( tbScenePath( v ) ) );
	tbUi_Heading( ui, line );
	tbDrawSceneInfo( v );
	tbWorldId world = tbScene_GetWorld( v->scene );
	// The speed shown is the one measured (simulated seconds per wall second); the one asked for
	// follows only when the steps cannot keep up with it.
	double asked = v->speed * ( v->slowMotion ? 0.25 : 1.0 );
	char speed[64];
	if ( v->paused || v->realTimeFactor < 0.0 || fabs( v->realTimeFactor - asked ) <= 0.05 * asked )
	{
		snprintf( speed, sizeof( speed ), "x%.2g", asked );
	}
	else
	{
		snprintf( speed, sizeof( speed ), "x%.2f (asked x%.2g)", v->realTimeFactor, asked );
	}
	bool halted = tbScene_IsLoaded( v->scene ) && tbScene_IsHalted( v->scene );
	snprintf( line, sizeof( line ), "t %.2f s  step %lld  %s%s%s", tbScene_GetTime( v->scene ),
			  tbScene_GetStepCount( v->scene ), speed, v->slowMotion ? " slow" : "",
			  halted ? "  HALTED" : ( v->paused ? "  PAUSED" : "" ) );
	tbUi_Label( ui, line );
	if ( v->history.cursor >= 0 )
	{
		snprintf( line, sizeof( line ), "REWOUND %.2f s: stepping resumes from here", tbHistory_GetOffset( &v->history ) );
		tbUi_ColoredLabel( ui, line, tbMakeRgba( 255, 196, 90, 255 ) );
	}
	tbWorldCounters c;
	memset( &c, 0, sizeof( c ) );
	if ( tbWorld_IsValid( world ) )
	{
		c = tbWorld_GetCounters( world );
	}
	snprintf( line, sizeof( line ), "frame %.1f ms  step %.2f ms (physics %.2f)", v->frameMs, v->stepMs,
			  (double)c.stepMs );
	tbUi_Label( ui, line );
	snprintf( line, sizeof( line ), "bodies %d  awake %d  contacts %d  joints %d", c.bodyCount, c.awakeBodyCount,
			  c.contactCount, drawStats->jointCount );
	tbUi_Label( ui, line );
	tbUi_ColoredLabel( ui, "F1 keys  Tab panels", tbMakeRgba( 150, 156, 170, 255 ) );
	tbUi_EndPanel( ui );
}

// The selected body: what it is and what it does now, under the stats.
static void tbDrawInspector( tbViewer* v, float top )
{
	tbBodyId body = v->selected;
	if ( tbBody_IsValid( body ) == false )
	{
		return;
	}
	tbUi* ui = &v->ui;
	float s = ui->scale;
	char line[160];
	const char* name = tbBody_GetName( body );
	if ( name != NULL && name[0] != '\0' )
	{
		snprintf( line, sizeof( line ), "Selected: %s", name );
	}
	else
	{
		snprintf( line, sizeof( line ), "Selected: body %d", (int)body.index1 );
	}
	tbUi_BeginPanel( ui, line, 8.0f * s, top + 6.0f * s, TB_STATS_WIDTH * s );
	static const char* const types[] = { "static", "kinematic", "dynamic" };
	tbBodyType type = tbBody_GetType( body );
	tbVec3 velocity = tbBody_GetLinearVelocity( body );
	tbVec3 spin = tbBody_GetAngularVelocity( body );
	if ( type == tbBody_dynamic )
	{
		snprintf( line, sizeof( line ), "%s  mass %.4g kg  %s", types[type], (double)tbBody_GetMass( body ),
				  tbBody_IsAwake( body ) ? "awake" : "sleeping" );
	}
	else
	{
		snprintf( line, sizeof( line ), "%s  %s", types[(int)type < 3 ? type : 0],
				  tbBody_IsAwake( body ) ? "awake" : "sleeping" );
	}
	tbUi_Label( ui, line );
	snprintf( line, sizeof( line ), "v %.2f m/s (%.2f %.2f %.2f)", (double)tbLength( velocity ), (double)velocity.x,
			  (double)velocity.y, (double)velocity.z );
	tbUi_Label( ui, line );
	snprintf( line, sizeof( line ), "w %.2f rad/s", (double)tbLength( spin ) );
	tbUi_Label( ui, line );
	tbJointId joints[8];
	int count = tbBody_GetJoints( body, joints, 8 );
	snprintf( line, sizeof( line ), "joints %d", count );
	tbUi_Label( ui, line );
	for ( int i = 0; i < count && i < 8; ++i )
	{
		const char* jointName = tbJoint_GetName( joints[i] );
		float gap = 0.0f;
		tbJoint_GetError( joints[i], &gap, NULL );
		snprintf( line, sizeof( line ), "  %s%s%s%s  gap %.3g m", tbJointTypeName( tbJoint_GetType( joints[i] ) ),
				  jointName != NULL && jointName[0] != '\0' ? " " : "", jointName != NULL ? jointName : "",
				  tbJoint_IsBroken( joints[i] ) ? " (broken)" : "", (double)gap );
		tbUi_ColoredLabel( ui, line, tbMakeRgba( 190, 196, 210, 255 ) );
	}
	if ( count > 8 )
	{
		snprintf( line, sizeof( line ), "  and %d more", count - 8 );
		tbUi_ColoredLabel( ui, line, tbMakeRgba( 190, 196, 210, 255 ) );
	}
	tbUi_EndPanel( ui );
}

// The selection's outline (its bounding box) and, while dragging, the spring as a coil from the
// grab point to the cursor's target.
static void tbDrawSelection( tbViewer* v )
{
	if ( tbBody_IsValid( v->selected ) )
	{
		tbAABB box = tbBody_ComputeAABB( v->selected );
		tbRenderer_WireBox( v->renderer, tbMulSV( 0.5f, tbAdd( box.lowerBound, box.upperBound ) ),
							tbMulSV( 0.5f, tbSub( box.upperBound, box.lowerBound ) ), tb_quatIdentity,
							tbMakeRgba( 255, 255, 255, 230 ) );
	}
	if ( tbJoint_IsValid( v->mouseJoint ) )
	{
		tbVec3 anchor = tbJoint_GetWorldFrameB( v->mouseJoint ).p;
		tbVec3 d = tbSub( v->dragTarget, anchor );
		float length = tbLength( d );
		tbRgba color = tbMakeRgba( 255, 220, 60, 255 );
		tbVec3 forward, right, up;
		tbCamera_GetBasis( &v->camera, &forward, &right, &up );
		tbVec3 side = length > 1.0e-4f ? tbCross( tbMulSV( 1.0f / length, d ), forward ) : tb_vec3_zero;
		float amplitude = tbClampFloat( 0.06f * length, 0.02f, 0.15f );
		side = tbLengthSquared( side ) > 1.0e-8f ? tbMulSV( amplitude, tbNormalize( side ) ) : tb_vec3_zero;
		tbVec3 previous = anchor;
		for ( int i = 1; i <= 16; ++i )
		{
			float t = (float)i / 16.0f;
			float offset = i == 16 ? 0.0f : ( ( i & 1 ) ? 1.0f : -1.0f );
			tbVec3 p = tbMulAdd( tbMulAdd( anchor, t, d ), offset, side );
			tbRenderer_Line( v->renderer, previous, p, color, true );
			previous = p;
		}
		tbRenderer_Point( v->renderer, v->dragTarget, color );
	}
}

static int tbPushViewerUi( lua_State* L, void* context )
{
	return tbUiLua_Push( L, context );
}

static void tbDrawControls( tbViewer* v )
{
	tbUi* ui = &v->ui;
	float s = ui->scale;
	float width = TB_CONTROLS_WIDTH * s;
	// Taller than the window (a scene with many tweaks): the wheel over it scrolls it up.
	float top = 8.0f * s - v->controlsScroll;
	tbUi_BeginPanel( ui, "Controls", (float)v->drawableWidth - width - 8.0f * s, top, width );
	tbUi_Checkbox( ui, "pause (space)", &v->paused );
	if ( tbUi_Button( ui, "step (.)" ) )
	{
		v->paused = true;
		v->stepRequests += 1;
	}
	if ( tbUi_Button( ui, "reset (R)" ) )
	{
		tbLoadScene( v, tbLoad_reset );
	}
	tbUi_Checkbox( ui, "slow motion (T)", &v->slowMotion );
	tbUi_Slider( ui, "speed", &v->speed, 0.0625f, 4.0f );
	v->speed = tbMaxFloat( v->speed, 0.0625f );
	// Scrub the recorded past: 0 is now, -span the oldest snapshot. Always drawn, so the panel's
	// layout does not jump when the first snapshots arrive.
	float span = tbMaxFloat( (float)tbHistory_GetSpan( &v->history ), 1.0e-3f );
	float offset = (float)tbHistory_GetOffset( &v->history );
	float back = offset > 0.0f ? -offset : 0.0f;
	if ( tbUi_Slider( ui, "rewind s", &back, -span, 0.0f ) )
	{
		tbHistory_Scrub( v, (double)-back );
	}
	for ( int i = 0; i < tbDebug_flagCount; ++i )
	{
		bool on = ( v->debugFlags & ( 1u << i ) ) != 0;
		char label[48];
		snprintf( label, sizeof( label ), "%s (%d)", tbDebugDrawName( i ), i + 1 );
		if ( tbUi_Checkbox( ui, label, &on ) )
		{
			v->debugFlags ^= 1u << i;
		}
	}

	// The scene's own tweaks.
	tbUi_Separator( ui );
	tbUi_Heading( ui, "Scene" );
	tbUi_IdScope( ui, "scene" );
	if ( tbScene_IsLoaded( v->scene ) && tbScene_IsHalted( v->scene ) == false )
	{
		v->uiOpen = true;
		bool ok = tbScene_Call( v->scene, "ui", tbPushViewerUi, v );
		v->uiOpen = false;
		if ( ok == false )
		{
			tbReportSceneError( v, "ui" );
		}
	}
	for ( int i = 0; i < tbScene_GetModCount( v->scene ); ++i )
	{
		const char* error = tbScene_GetModError( v->scene, i );
		if ( error != NULL )
		{
			char line[160];
			snprintf( line, sizeof( line ), "mod %s disabled", tbBaseName( tbScene_GetModPath( v->scene, i ) ) );
			tbUi_ColoredLabel( ui, line, tbMakeRgba( 255, 110, 100, 255 ) );
		}
	}
	float bottom = tbUi_EndPanel( ui );
	float overflow = bottom + v->controlsScroll - ( (float)v->drawableHeight - 8.0f * s );
	v->controlsScroll = tbClampFloat( v->controlsScroll, 0.0f, tbMaxFloat( overflow, 0.0f ) );
	if ( overflow > 0.0f && v->controlsScroll < overflow )
	{
		// Say that there is more below, at the window's bottom edge.
		tbRenderer_Rect2D( v->renderer, ui->panelX, (float)v->drawableHeight - tbRenderer_LineHeight( s ) - 6.0f * s,
						   ui->panelWidth, tbRenderer_LineHeight( s ) + 6.0f * s, tbMakeRgba( 60, 90, 150, 255 ) );
		tbRenderer_Text2D( v->renderer, ui->panelX + 6.0f * s, (float)v->drawableHeight - tbRenderer_LineHeight( s ) - 3.0f * s,
						   "more below: scroll the wheel here", s, tbMakeRgba( 232, 234, 240, 255 ) );
	}
	v->controlsRect[0] = ui->panelX;
	v->controlsRect[1] = top;
	v->controlsRect[2] = ui->panelWidth;
	v->controlsRect[3] = bottom - top;
}

static void tbDrawPlots( tbViewer* v, float top )
{
	tbUi* ui = &v->ui;
	float s = ui->scale;
	int visible = 0;
	for ( int i = 0; i < v->plotCount; ++i )
	{
		visible += v->plots[i].count > 1;
	}
	if ( visible == 0 )
	{
		return;
	}
	tbUi_BeginPanel( ui, "Plots", 8.0f * s, top + 6.0f * s, 150.0f * s );
	float bottomLimit = (float)v->drawableHeight - 8.0f * s;
	int shown = 0;
	int hidden = 0;
	for ( int i = 0; i < v->plotCount; ++i )
	{
		tbPlot* p = v->plots + i;
		if ( p->count <= 1 )
		{
			continue;
		}
		// Each plot takes a label, three lines of graph and its scale; the ones that would run off
		// the window are counted on the panel and named once on stderr, not dropped in silence.
		if ( ui->cursorY + 7.0f * tbUi_LineHeight( ui ) < bottomLimit )
		{
			int last = ( p->next - 1 + TB_VIEWER_PLOT_SAMPLES ) % TB_VIEWER_PLOT_SAMPLES;
			int first = ( p->next - p->count + TB_VIEWER_PLOT_SAMPLES ) % TB_VIEWER_PLOT_SAMPLES;
			tbUi_Plot( ui, p->name, p->values, TB_VIEWER_PLOT_SAMPLES, p->count, p->next,
					   (float)( p->times[last] - p->times[first] ) );
			shown += 1;
			continue;
		}
		hidden += 1;
		if ( p->warnedUnfit == false )
		{
			p->warnedUnfit = true;
			fprintf( stderr,
					 "tumble: warning: plot '%s' does not fit in the window (%d plots shown); a taller window "
					 "shows it\n",
					 p->name, shown );
		}
	}
	if ( hidden > 0 )
	{
		char line[64];
		snprintf( line, sizeof( line ), "%d more (a taller window shows them)", hidden );
		tbUi_ColoredLabel( ui, line, tbMakeRgba( 255, 196, 90, 255 ) );
	}
	tbUi_EndPanel( ui );
}

// Word-wraps nothing: long lines are cut at the box, which keeps a traceback's columns readable.
static void tbDrawErrorOverlay( tbViewer* v )
{
	tbRenderer* r = v->renderer;
	float s = v->ui.scale;
	float lineHeight = tbRenderer_LineHeight( s );
	float width = tbMinFloat( (float)v->drawableWidth - 16.0f * s, 520.0f * s );
	float x = 0.5f * ( (float)v->drawableWidth - width );
	int maxLines = 22;
	char text[8192];
	snprintf( text, sizeof( text ), "%s", v->errorText );
	int maxChars = (int)( ( width - 12.0f * s ) / ( 6.0f * s ) );

	int lines = 0;
	for ( const char* p = text; *p != '\0' && lines < maxLines; ++lines )
	{
		const char* end = strchr( p, '\n' );
		p = end != NULL ? end + 1 : p + strlen( p );
	}
	float height = ( (float)lines + 2.6f ) * lineHeight + 8.0f * s;
	float y = (float)v->drawableHeight - height - 10.0f * s;
	tbRenderer_Rect2D( r, x, y, width, height, tbMakeRgba( 150, 20, 24, 235 ) );
	tbRenderer_Rect2D( r, x, y, width, 2.0f * s, tbMakeRgba( 255, 90, 80, 255 ) );
	const char* title = tbScene_IsLoaded( v->scene )
							? ( tbScene_IsHalted( v->scene ) ? "Script error: the scene is halted. Save a fix (or F6)."
															 : "Script error: the last good scene keeps running." )
							: "Script error: no scene loaded. Save a fix to retry.";
	tbRenderer_Text2D( r, x + 6.0f * s, y + 5.0f * s, title, s, tbMakeRgba( 255, 230, 120, 255 ) );
	float lineY = y + 5.0f * s + 1.6f * lineHeight;
	const char* p = text;
	for ( int i = 0; i < lines; ++i )
	{
		const char* end = strchr( p, '\n' );
		int n = end != NULL ? (int)( end - p ) : (int)strlen( p );
		char line[512];
		snprintf( line, sizeof( line ), "%.*s", n < maxChars ? n : maxChars, p );
		tbRenderer_Text2D( r, x + 6.0f * s, lineY, line, s, tbMakeRgba( 255, 255, 255, 255 ) );
		lineY += lineHeight;
		p = end != NULL ? end + 1 : p + n;
	}
}

static void tbDrawHelp( tbViewer* v )
{
	tbUi* ui = &v->ui;
	float s = ui->scale;
	float width = 258.0f * s;
	float x = tbMaxFloat( 0.5f * ( (float)v->drawableWidth - width ), 0.0f );
	tbUi_BeginPanel( ui, "Keys and mouse (F1 or Esc closes)", x, 8.0f * s, width );
	const tbSceneKey* keys = NULL;
	int count = tbScene_GetKeys( v->scene, &keys );
	for ( int i = 0; i < count; ++i )
	{
		tbUi_Columns( ui, keys[i].names, keys[i].text, 90.0f * s );
	}
	if ( count > 0 )
	{
		tbUi_Wrapped( ui, "The scene's keys above; the viewer's own uses of them give way.",
					  tbMakeRgba( 150, 156, 170, 255 ) );
		tbUi_Separator( ui );
	}
	for ( size_t i = 0; i < sizeof( tb_help ) / sizeof( tb_help[0] ); ++i )
	{
		tbUi_Columns( ui, tb_help[i][0], tb_help[i][1], 90.0f * s );
	}
	tbUi_EndPanelColored( ui, tbMakeRgba( 18, 20, 26, 255 ) );
}

static void tbDrawStatus( tbViewer* v )
{
	if ( v->status[0] == '\0' || tbNow() > v->statusUntil )
	{
		return;
	}
	float s = v->ui.scale;
	float w = tbRenderer_TextWidth( v->status, s );
	float x = 0.5f * ( (float)v->drawableWidth - w );
	float y = 10.0f * s;
	tbRenderer_Rect2D( v->renderer, x - 6.0f * s, y - 3.0f * s, w + 12.0f * s, tbRenderer_LineHeight( s ) + 4.0f * s,
					   tbMakeRgba( 18, 20, 26, 215 ) );
	tbRenderer_Text2D( v->renderer, x, y, v->status, s, tbMakeRgba( 160, 230, 160, 255 ) );
}

// One frame ----------------------------------------------------------------------------------------

static void tbCheckGlErrors( tbViewer* v, const char* where )
{
	GLenum error;
	int guard = 0;
	while ( ( error = glGetError() ) != GL_NO_ERROR && guard++ < 16 )
	{
		v->glErrors += 1;
		if ( v->glErrors <= 10 )
		{
			fprintf( stderr, "tumble: OpenGL error 0x%04x in %s (frame %d)\n", error, where, v->frame );
		}
	}
}

// Builds the UI, steps the scene (unless simulate is false), draws and presents (or captures).
static void tbFrame( tbViewer* v, double frameSeconds, const tbMouseFrame* mouse, bool simulate )
{
	tbCheckWorld( v );
	tbUi_BeginFrame( &v->ui, v->renderer, tbUiScale( v ), v->mouseX * v->pixelRatio, v->mouseY * v->pixelRatio,
					 mouse->down, mouse->pressed, mouse->released );

	// The panels run before the step so a tweak applies to this frame's steps.
	if ( v->showUi )
	{
		tbDrawControls( v );
	}
	else if ( tbScene_IsLoaded( v->scene ) && tbScene_IsHalted( v->scene ) == false )
	{
		// Hidden panel: the scene's ui still runs (it may drive parameters), drawing nothing.
		if ( tbScene_Call( v->scene, "ui", tbPushViewerUi, v ) == false )
		{
			tbReportSceneError( v, "ui" );
		}
	}
	tbScriptView_Feed( v );
	double phaseStart = tbNow();
	if ( simulate )
	{
		tbSimulate( v, frameSeconds );
		tbMeasureSpeed( v, frameSeconds );
	}
	double stepsEnd = tbNow();
	v->phaseSeconds[0] += stepsEnd - phaseStart;
	tbCheckWorld( v );
	// The scene's draw() runs every frame, after the steps, so what it draws matches the bodies.
	if ( tbScene_IsLoaded( v->scene ) && tbScene_IsHalted( v->scene ) == false )
	{
		tbLua_BeginFrameDrawing( tbScene_GetLuaState( v->scene ) );
		if ( tbScene_Call( v->scene, "draw", NULL, NULL ) == false )
		{
			tbReportSceneError( v, "draw" );
		}
	}
	tbScriptView_ApplyCamera( v, v->lockstep ? v->app->dt : frameSeconds );

	tbWorldDrawStats stats;
	tbWorldId world = tbScene_GetWorld( v->scene );
	tbWorldDraw_Draw( v->worldDraw, v->renderer, world, v->debugFlags, v->selected, tbCamera_GetEye( &v->camera ),
					  &stats );
	v->lastStats = stats;
	tbWorldDraw_Grid( v->renderer, v->camera.target, 40.0f );
	tbScriptView_Draw( v );
	tbDrawSelection( v );
	if ( v->stepsThisFrame > 0 && tbWorld_IsValid( world ) )
	{
		tbViewer_Plot( v, "step ms", (float)tbWorld_GetCounters( world ).stepMs );
		tbViewer_Plot( v, "kinetic energy J", stats.kineticEnergy );
		if ( stats.jointCount > 0 )
		{
			tbViewer_Plot( v, "max joint error m", stats.maxJointError );
		}
	}

	if ( v->showUi )
	{
		tbDrawStats( v, &stats );
		tbDrawInspector( v, v->ui.rects[v->ui.rectCount - 1][1] + v->ui.rects[v->ui.rectCount - 1][3] );
		tbDrawPlots( v, v->ui.rectCount > 0 ? v->ui.rects[v->ui.rectCount - 1][1] + v->ui.rects[v->ui.rectCount - 1][3]
											 : 0.0f );
	}
	if ( v->picker.open )
	{
		const char* chosen = tbPicker_Draw( &v->picker, &v->ui, (float)v->drawableWidth, (float)v->drawableHeight );
		if ( chosen != NULL )
		{
			tbOpenScene( v, chosen );
		}
	}
	if ( v->showHelp )
	{
		tbDrawHelp( v );
	}
	tbDrawStatus( v );
	if ( v->errorText != NULL )
	{
		tbDrawErrorOverlay( v );
	}
	tbUi_EndFrame( &v->ui );

	if ( v->screenshotRequest[0] != '\0' )
	{
		tbOffscreen* offscreen = tbOffscreen_Create( v->drawableWidth, v->drawableHeight );
		if ( offscreen == NULL )
		{
			fprintf( stderr, "tumble: cannot create an offscreen framebuffer for the screenshot\n" );
			glBindFramebuffer( GL_FRAMEBUFFER, 0 );
			tbRenderer_Flush( v->renderer, &v->camera, v->drawableWidth, v->drawableHeight );
		}
		else
		{
			tbOffscreen_Bind( offscreen );
			tbRenderer_Flush( v->renderer, &v->camera, v->drawableWidth, v->drawableHeight );
			char text[600];
			if ( tbOffscreen_WritePng( offscreen, v->screenshotRequest ) )
			{
				snprintf( text, sizeof( text ), "saved %s", v->screenshotRequest );
			}
			else
			{
				snprintf( text, sizeof( text ), "could not write %s", v->screenshotRequest );
				v->exitStatus = 1;
			}
			fprintf( stderr, "tumble: %s\n", text );
			tbSetStatus( v, text );
			tbOffscreen_Destroy( offscreen );
		}
		v->screenshotRequest[0] = '\0';
		tbCheckGlErrors( v, "screenshot" );
		// The window keeps last frame's image for this one frame: the capture went offscreen.
	}
	else
	{
		double queued = tbNow();
		glBindFramebuffer( GL_FRAMEBUFFER, 0 );
		tbRenderer_Flush( v->renderer, &v->camera, v->drawableWidth, v->drawableHeight );
		if ( v->timePhases )
		{
			glFinish();
		}
		double drawn = tbNow();
		tbCheckGlErrors( v, "frame" );
		SDL_GL_SwapWindow( v->window );
		if ( v->timePhases )
		{
			glFinish();
		}
		v->phaseSeconds[1] += queued - stepsEnd;
		v->phaseSeconds[2] += drawn - queued;
		v->phaseSeconds[3] += tbNow() - drawn;
	}
	v->frame += 1;
}

// Setup and the loop -----------------------------------------------------------------------------

static GLADapiproc tbGetProcAddress( const char* name )
{
	// SDL returns an object pointer; ISO C has no cast from it to a function pointer, memcpy does it.
	void* address = SDL_GL_GetProcAddress( name );
	GLADapiproc function;
	memcpy( &function, &address, sizeof( function ) );
	return function;
}

// A window and its OpenGL 3.3 core context, current, with GL loaded; multisampled if asked and the
// driver has it.
static bool tbCreateWindow( tbViewer* v, const char* title, Uint32 flags, bool multisample )
{
	for ( int attempt = multisample ? 0 : 1; attempt < 2 && v->window == NULL; ++attempt )
	{
		SDL_GL_SetAttribute( SDL_GL_MULTISAMPLEBUFFERS, attempt == 0 ? 1 : 0 );
		SDL_GL_SetAttribute( SDL_GL_MULTISAMPLESAMPLES, attempt == 0 ? 4 : 0 );
		v->window = SDL_CreateWindow( title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, v->settings.width,
									  v->settings.height, flags );
		if ( v->window != NULL )
		{
			v->context = SDL_GL_CreateContext( v->window );
			if ( v->context == NULL )
			{
				SDL_DestroyWindow( v->window );
				v->window = NULL;
			}
		}
		v->multisampled = attempt == 0;
	}
	if ( v->window == NULL )
	{
		fprintf( stderr, "tumble: cannot open an OpenGL 3.3 core window: %s\n", SDL_GetError() );
		return false;
	}
	SDL_GL_MakeCurrent( v->window, v->context );
	int version = gladLoadGL( tbGetProcAddress );
	if ( version == 0 || GLAD_VERSION_MAJOR( version ) * 10 + GLAD_VERSION_MINOR( version ) < 33 )
	{
		fprintf( stderr, "tumble: OpenGL 3.3 is required (the loader found %d.%d)\n", GLAD_VERSION_MAJOR( version ),
				 GLAD_VERSION_MINOR( version ) );
		return false;
	}
	return true;
}

static bool tbOpenWindow( tbViewer* v, bool hidden )
{
	if ( SDL_Init( SDL_INIT_VIDEO ) != 0 )
	{
		fprintf( stderr, "tumble: cannot start SDL video: %s\n(no display? try --headless, or xvfb-run)\n",
				 SDL_GetError() );
		return false;
	}
	SDL_GL_SetAttribute( SDL_GL_CONTEXT_MAJOR_VERSION, 3 );
	SDL_GL_SetAttribute( SDL_GL_CONTEXT_MINOR_VERSION, 3 );
	SDL_GL_SetAttribute( SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE );
	SDL_GL_SetAttribute( SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG );
	SDL_GL_SetAttribute( SDL_GL_DOUBLEBUFFER, 1 );
	SDL_GL_SetAttribute( SDL_GL_DEPTH_SIZE, 24 );
	SDL_GL_SetAttribute( SDL_GL_STENCIL_SIZE, 8 );
	// Hidden until the profile is known, so that a window reopened for it does not flash.
	Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI | SDL_WINDOW_HIDDEN;
	char title[300];
	snprintf( title, sizeof( title ), "tumble - %s", tbBaseName( v->startPath ) );

	// 4x multisampling for smooth edges where the driver has it; without it otherwise. Scripted runs
	// skip it: their frames are never looked at (screenshots are multisampled offscreen either way).
	if ( tbCreateWindow( v, title, flags,
						 v->lockstep == false && v->settings.renderProfile != tbRenderProfile_software ) == false )
	{
		return false;
	}
	// The profile follows the device unless --render-profile names one. A CPU rasterizer pays for
	// every sample of a multisampled window, so the software profile reopens it without.
	const char* device = tbRenderer_GetDeviceName();
	bool software = tbRenderer_IsSoftwareDevice( device );
	v->profile = v->settings.renderProfile >= 0 ? (tbRenderProfile)v->settings.renderProfile
												: ( software ? tbRenderProfile_software : tbRenderProfile_full );
	if ( v->profile == tbRenderProfile_software && v->multisampled )
	{
		SDL_GL_DeleteContext( v->context );
		SDL_DestroyWindow( v->window );
		v->context = NULL;
		v->window = NULL;
		if ( tbCreateWindow( v, title, flags, false ) == false )
		{
			return false;
		}
	}
	if ( hidden == false )
	{
		SDL_ShowWindow( v->window );
	}
	// Vsync in interactive use; scripted and screenshot runs go as fast as they can.
	SDL_GL_SetSwapInterval( v->lockstep ? 0 : 1 );
	tbUpdateSizes( v );
	return true;
}

static void tbCloseWindow( tbViewer* v )
{
	if ( v->context != NULL )
	{
		SDL_GL_DeleteContext( v->context );
	}
	if ( v->window != NULL )
	{
		SDL_DestroyWindow( v->window );
	}
	SDL_Quit();
}

static int tbFinalStatus( const tbViewer* v, bool automated )
{
	if ( v->glErrors > 0 )
	{
		fprintf( stderr, "tumble: %d OpenGL errors\n", v->glErrors );
		return 1;
	}
	if ( v->exitStatus != 0 )
	{
		return v->exitStatus;
	}
	// A scripted run or a screenshot of a broken scene reports the script error like --headless.
	return automated && v->errorText != NULL ? 1 : 0;
}

int tbViewer_Run( const tbAppOptions* options )
{
	tbViewer* v = calloc( 1, sizeof( tbViewer ) );
	if ( v == NULL )
	{
		fprintf( stderr, "tumble: out of memory\n" );
		return 1;
	}
	v->app = options;
	v->settings = s_settings;
	v->speed = 1.0f;
	v->realTimeFactor = -1.0;
	v->history.cursor = -1;
	v->history.stride = 1;
	v->debugFlags = v->settings.debugFlags;
	v->showUi = v->settings.hideUi == false;
	// --screenshot alone: steps, one frame, exit. With --frames or --script-input: the capture is
	// taken after the run.
	bool screenshotOnly =
		v->settings.screenshotPath != NULL && v->settings.scriptPath == NULL && v->settings.frames == 0;
	bool automated = v->settings.screenshotPath != NULL || v->settings.scriptPath != NULL || v->settings.frames > 0;
	v->lockstep = automated;
	const char* phases = getenv( "TUMBLE_FRAME_PHASES" );
	v->timePhases = phases != NULL && strcmp( phases, "1" ) == 0;
	tbCamera_Reset( &v->camera );
	v->startPath = options->scenePath;
	// `tumble` alone reopens the last scene with its view; a named scene opens as its file says.
	if ( tbViewerState_Load( &v->state ) && options->sceneDefault && tbIsFile( v->state.scene ) )
	{
		v->startPath = v->state.scene;
		v->restoreCamera = v->state.hasCamera;
	}

	tbInputScript* script = NULL;
	if ( v->settings.scriptPath != NULL )
	{
		char error[512];
		script = tbInputScript_Load( v->settings.scriptPath, error, sizeof( error ) );
		if ( script == NULL )
		{
			fprintf( stderr, "tumble: --script-input: %s\n", error );
			free( v );
			return 2;
		}
	}

	int status = 1;
	char error[1024];
	if ( tbOpenWindow( v, screenshotOnly ) == false )
	{
		tbCloseWindow( v );
		tbInputScript_Destroy( script );
		free( v );
		return 1;
	}
	v->renderer = tbRenderer_Create( error, sizeof( error ) );
	v->worldDraw = tbWorldDraw_Create();
	v->scene = tbScene_Create( &options->scene );
	v->watch = tbWatch_Create();
	if ( v->renderer == NULL || v->worldDraw == NULL || v->scene == NULL || v->watch == NULL )
	{
		fprintf( stderr, "tumble: cannot start the viewer: %s\n", v->renderer == NULL ? error : "out of memory" );
		goto cleanup;
	}
	tbRenderer_SetShadows( v->renderer, v->settings.noShadows == false );
	tbRenderer_SetProfile( v->renderer, v->profile );
	// Said once at start, so that a cheaper picture is never a mystery (the tests read this line).
	fprintf( stderr, "tumble: renderer %s: %s profile (shadow map %d, %s round meshes, 3D at %s resolution, %s)%s\n",
			 tbRenderer_GetDeviceName(), v->profile == tbRenderProfile_full ? "full" : "software",
			 tbRenderer_GetShadowMapSize( v->renderer ),
			 v->profile == tbRenderProfile_full ? "full-detail" : "low-detail",
			 tbRenderer_GetRenderScale( v->renderer ) < 1.0f ? "half" : "full",
			 v->multisampled ? "4x multisampling" : "no multisampling",
			 v->settings.renderProfile < 0 ? "; --render-profile or F4 changes it" : "" );
	tbScene_SetKeyProvider( v->scene, tbKeyProvider, v );
	tbLoadScene( v, tbLoad_first );
	v->status[0] = '\0';
	// Fit the camera to the scene as built, before any step (screenshots of step 0 and step N match).
	tbCheckWorld( v );

	if ( screenshotOnly )
	{
		// --screenshot: N steps as fast as possible, then one frame captured offscreen.
		int steps = options->steps > 0 ? options->steps : 0;
		for ( int i = 0; i < steps && tbScene_IsLoaded( v->scene ) && tbScene_IsHalted( v->scene ) == false; ++i )
		{
			tbStepScene( v );
		}
		snprintf( v->screenshotRequest, sizeof( v->screenshotRequest ), "%s", v->settings.screenshotPath );
		tbMouseFrame mouse = { false, false, false };
		v->mouseX = -1.0f;
		v->mouseY = -1.0f;
		tbFrame( v, 0.0, &mouse, false );
		status = tbFinalStatus( v, true );
		goto cleanup;
	}

	double last = tbNow();
	while ( v->quit == false )
	{
		double start = tbNow();
		double frameSeconds = start - last;
		last = start;
		if ( script != NULL )
		{
			tbInputScript_Run( script, v, v->frame );
		}
		tbMouseFrame mouse = { v->drag == tbDrag_ui, false, false };
		tbHandleEvents( v, &mouse );
		tbFly( v, v->lockstep ? v->app->dt : frameSeconds );
		if ( tbWatch_Poll( v->watch ) )
		{
			tbWatch_Settle( v->watch, 30, 500 );
			tbLoadScene( v, tbLoad_reload );
		}
		tbFrame( v, frameSeconds, &mouse, true );
		v->frameMs = 1000.0 * ( tbNow() - start );
		v->wallSeconds += v->frameMs / 1000.0;
		if ( v->settings.frames > 0 && v->frame >= v->settings.frames )
		{
			v->quit = true;
		}
		if ( v->settings.screenshotPath != NULL && v->settings.frames == 0 && script != NULL &&
			 tbInputScript_IsDone( script ) )
		{
			v->quit = true;
		}
	}
	if ( v->settings.screenshotPath != NULL )
	{
		snprintf( v->screenshotRequest, sizeof( v->screenshotRequest ), "%s", v->settings.screenshotPath );
		tbMouseFrame mouse = { false, false, false };
		tbFrame( v, 0.0, &mouse, false );
	}
	if ( v->settings.frames > 0 )
	{
		// What a timed run measured (docs/VIEWER.md records these figures).
		fprintf( stderr,
				 "tumble: %d frames in %.2f s (%.2f ms a frame), simulated %.2f s, speed shown x%.2f, max joint "
				 "error %.4f m\n",
				 v->frame, v->wallSeconds, 1000.0 * v->wallSeconds / tbMaxInt( v->frame, 1 ),
				 tbScene_GetTime( v->scene ), v->realTimeFactor, (double)v->lastStats.maxJointError );
		if ( v->timePhases )
		{
			double perFrame = 1000.0 / tbMaxInt( v->frame, 1 );
			fprintf( stderr, "tumble: ms a frame: steps %.2f, queueing %.2f, drawing %.2f, swap %.2f\n",
					 perFrame * v->phaseSeconds[0], perFrame * v->phaseSeconds[1], perFrame * v->phaseSeconds[2],
					 perFrame * v->phaseSeconds[3] );
		}
	}
	status = tbFinalStatus( v, automated );
	tbRememberScene( v );

cleanup:
	tbHistory_Clear( &v->history );
	if ( v->scene != NULL )
	{
		tbViewer_EndBodyDrag( v );
		tbScene_Destroy( v->scene );
	}
	if ( v->watch != NULL )
	{
		tbWatch_Destroy( v->watch );
	}
	tbWorldDraw_Destroy( v->worldDraw );
	tbRenderer_Destroy( v->renderer );
	tbInputScript_Destroy( script );
	tbCloseWindow( v );
	free( v->errorText );
	free( v );
	return status;
}
