// Tumble viewer: scripted input for tests. A text file of commands, one a line:
//
//   FRAME COMMAND ARGUMENTS        # FRAME counts from 0, the first frame after the scene loads
//
//   key NAME              key press and release (SDL key names: space, r, f5, left shift; also
//                         period, comma, minus, plus, equals, slash)
//   keydown NAME / keyup NAME
//   mousedown BUTTON X Y  BUTTON is left, middle or right; X Y are fractions of the window (0..1)
//   mousemove X Y
//   mouseup BUTTON X Y
//   wheel STEPS           positive zooms in
//   screenshot FILE       write this frame as a PNG
//   copy FROM TO          replace TO by a copy of FROM (an editor saving: triggers hot reload)
//   quit
//
// Events go through SDL's queue (SDL_PushEvent), so they take the same path as a user's.
// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 200809L

#include "viewer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum tbScriptOp
{
	tbOp_key,
	tbOp_keyDown,
	tbOp_keyUp,
	tbOp_mouseDown,
	tbOp_mouseUp,
	tbOp_mouseMove,
	tbOp_wheel,
	tbOp_screenshot,
	tbOp_copy,
	tbOp_quit,
} tbScriptOp;

typedef struct tbScriptCommand
{
	int frame;
	tbScriptOp op;
	SDL_Keycode key;
	int button;
	float x, y;
	char text[2][256];
} tbScriptCommand;

struct tbInputScript
{
	tbScriptCommand* commands;
	int count;
	int next;
	float mouseX, mouseY; // last injected position, screen points
	Uint32 buttons;		  // SDL_BUTTON_*MASK held
};

static const char* tbSkipSpace( const char* s )
{
	while ( *s == ' ' || *s == '\t' )
	{
		++s;
	}
	return s;
}

// Copies the next word of *s into out and advances; false when there is none.
static bool tbNextWord( const char** s, char* out, size_t size )
{
	const char* p = tbSkipSpace( *s );
	size_t n = 0;
	while ( *p != '\0' && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' )
	{
		if ( n + 1 < size )
		{
			out[n++] = *p;
		}
		++p;
	}
	out[n] = '\0';
	*s = p;
	return n > 0;
}

static int tbParseButton( const char* word )
{
	if ( strcmp( word, "left" ) == 0 )
	{
		return SDL_BUTTON_LEFT;
	}
	if ( strcmp( word, "middle" ) == 0 )
	{
		return SDL_BUTTON_MIDDLE;
	}
	if ( strcmp( word, "right" ) == 0 )
	{
		return SDL_BUTTON_RIGHT;
	}
	return 0;
}

static bool tbParseLine( const char* line, tbScriptCommand* c, char* error, int errorSize )
{
	char word[256];
	const char* s = line;
	memset( c, 0, sizeof( *c ) );
	if ( tbNextWord( &s, word, sizeof( word ) ) == false )
	{
		snprintf( error, (size_t)errorSize, "missing frame number" );
		return false;
	}
	char* end = NULL;
	long frame = strtol( word, &end, 10 );
	if ( *end != '\0' || frame < 0 || frame > 100000000L )
	{
		snprintf( error, (size_t)errorSize, "bad frame number '%.60s'", word );
		return false;
	}
	c->frame = (int)frame;
	char op[32];
	if ( tbNextWord( &s, op, sizeof( op ) ) == false )
	{
		snprintf( error, (size_t)errorSize, "missing command" );
		return false;
	}

	if ( strcmp( op, "key" ) == 0 || strcmp( op, "keydown" ) == 0 || strcmp( op, "keyup" ) == 0 )
	{
		c->op = op[3] == '\0' ? tbOp_key : ( op[3] == 'd' ? tbOp_keyDown : tbOp_keyUp );
		// The rest of the line is the name: SDL names may have spaces ("left shift").
		snprintf( c->text[0], sizeof( c->text[0] ), "%s", tbSkipSpace( s ) );
		size_t n = strlen( c->text[0] );
		while ( n > 0 && isspace( (unsigned char)c->text[0][n - 1] ) )
		{
			c->text[0][--n] = '\0';
		}
		// SDL names punctuation by the character itself; words read better in a script.
		static const char* const aliases[][2] = {
			{ "period", "." }, { "comma", "," }, { "minus", "-" }, { "plus", "+" }, { "equals", "=" }, { "slash", "/" },
		};
		for ( size_t i = 0; i < sizeof( aliases ) / sizeof( aliases[0] ); ++i )
		{
			if ( strcmp( c->text[0], aliases[i][0] ) == 0 )
			{
				snprintf( c->text[0], sizeof( c->text[0] ), "%s", aliases[i][1] );
			}
		}
		c->key = SDL_GetKeyFromName( c->text[0] );
		if ( c->key == SDLK_UNKNOWN )
		{
			snprintf( error, (size_t)errorSize, "unknown key name '%.60s'", c->text[0] );
			return false;
		}
		return true;
	}
	if ( strcmp( op, "mousedown" ) == 0 || strcmp( op, "mouseup" ) == 0 || strcmp( op, "mousemove" ) == 0 )
	{
		c->op = strcmp( op, "mousedown" ) == 0 ? tbOp_mouseDown : ( strcmp( op, "mouseup" ) == 0 ? tbOp_mouseUp : tbOp_mouseMove );
		if ( c->op != tbOp_mouseMove )
		{
			tbNextWord( &s, word, sizeof( word ) );
			c->button = tbParseButton( word );
			if ( c->button == 0 )
			{
				snprintf( error, (size_t)errorSize, "bad mouse button '%.60s' (left, middle or right)", word );
				return false;
			}
		}
		char xs[64], ys[64];
		if ( tbNextWord( &s, xs, sizeof( xs ) ) == false || tbNextWord( &s, ys, sizeof( ys ) ) == false )
		{
			snprintf( error, (size_t)errorSize, "%s needs X Y (fractions of the window)", op );
			return false;
		}
		c->x = strtof( xs, NULL );
		c->y = strtof( ys, NULL );
		return true;
	}
	if ( strcmp( op, "wheel" ) == 0 )
	{
		c->op = tbOp_wheel;
		tbNextWord( &s, word, sizeof( word ) );
		c->y = strtof( word, NULL );
		return true;
	}
	if ( strcmp( op, "screenshot" ) == 0 )
	{
		c->op = tbOp_screenshot;
		if ( tbNextWord( &s, c->text[0], sizeof( c->text[0] ) ) == false )
		{
			snprintf( error, (size_t)errorSize, "screenshot needs a file" );
			return false;
		}
		return true;
	}
	if ( strcmp( op, "copy" ) == 0 )
	{
		c->op = tbOp_copy;
		if ( tbNextWord( &s, c->text[0], sizeof( c->text[0] ) ) == false ||
			 tbNextWord( &s, c->text[1], sizeof( c->text[1] ) ) == false )
		{
			snprintf( error, (size_t)errorSize, "copy needs FROM and TO" );
			return false;
		}
		return true;
	}
	if ( strcmp( op, "quit" ) == 0 )
	{
		c->op = tbOp_quit;
		return true;
	}
	snprintf( error, (size_t)errorSize, "unknown command '%.30s'", op );
	return false;
}

static int tbCompareFrames( const void* a, const void* b )
{
	const tbScriptCommand* ca = a;
	const tbScriptCommand* cb = b;
	if ( ca->frame != cb->frame )
	{
		return ca->frame < cb->frame ? -1 : 1;
	}
	return ca < cb ? -1 : ( ca > cb ? 1 : 0 ); // qsort is not stable: keep file order within a frame
}

tbInputScript* tbInputScript_Load( const char* path, char* error, int errorSize )
{
	FILE* file = fopen( path, "r" );
	if ( file == NULL )
	{
		snprintf( error, (size_t)errorSize, "cannot open %s", path );
		return NULL;
	}
	tbInputScript* script = calloc( 1, sizeof( tbInputScript ) );
	if ( script == NULL )
	{
		fclose( file );
		snprintf( error, (size_t)errorSize, "out of memory" );
		return NULL;
	}
	int capacity = 0;
	char line[1024];
	int lineNumber = 0;
	bool ok = true;
	while ( ok && fgets( line, sizeof( line ), file ) != NULL )
	{
		lineNumber += 1;
		char* hash = strchr( line, '#' );
		if ( hash != NULL )
		{
			*hash = '\0';
		}
		if ( *tbSkipSpace( line ) == '\0' || *tbSkipSpace( line ) == '\n' || *tbSkipSpace( line ) == '\r' )
		{
			continue;
		}
		if ( script->count == capacity )
		{
			capacity = capacity > 0 ? 2 * capacity : 64;
			tbScriptCommand* grown = realloc( script->commands, (size_t)capacity * sizeof( tbScriptCommand ) );
			if ( grown == NULL )
			{
				snprintf( error, (size_t)errorSize, "out of memory" );
				ok = false;
				break;
			}
			script->commands = grown;
		}
		char why[256];
		if ( tbParseLine( line, script->commands + script->count, why, sizeof( why ) ) == false )
		{
			snprintf( error, (size_t)errorSize, "%.200s:%d: %s", path, lineNumber, why );
			ok = false;
			break;
		}
		script->count += 1;
	}
	fclose( file );
	if ( ok == false )
	{
		tbInputScript_Destroy( script );
		return NULL;
	}
	if ( script->count > 1 )
	{
		qsort( script->commands, (size_t)script->count, sizeof( tbScriptCommand ), tbCompareFrames );
	}
	return script;
}

void tbInputScript_Destroy( tbInputScript* script )
{
	if ( script != NULL )
	{
		free( script->commands );
		free( script );
	}
}

bool tbInputScript_IsDone( const tbInputScript* script )
{
	return script->next >= script->count;
}

static bool tbCopyFile( const char* from, const char* to )
{
	FILE* in = fopen( from, "rb" );
	if ( in == NULL )
	{
		return false;
	}
	char tmp[600];
	snprintf( tmp, sizeof( tmp ), "%s.tmp", to );
	FILE* out = fopen( tmp, "wb" );
	if ( out == NULL )
	{
		fclose( in );
		return false;
	}
	char buffer[4096];
	size_t n;
	bool ok = true;
	while ( ( n = fread( buffer, 1, sizeof( buffer ), in ) ) > 0 )
	{
		ok = ok && fwrite( buffer, 1, n, out ) == n;
	}
	fclose( in );
	ok = fclose( out ) == 0 && ok;
	// Replace by rename, as editors do, so the watcher sees one complete change.
	return ok && rename( tmp, to ) == 0;
}

static void tbPushKey( tbViewer* viewer, SDL_Keycode key, bool down )
{
	SDL_Event e;
	memset( &e, 0, sizeof( e ) );
	e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
	e.key.windowID = SDL_GetWindowID( viewer->window );
	e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
	e.key.keysym.sym = key;
	e.key.keysym.scancode = SDL_GetScancodeFromKey( key );
	SDL_PushEvent( &e );
}

void tbInputScript_Run( tbInputScript* script, tbViewer* viewer, int frame )
{
	while ( script->next < script->count && script->commands[script->next].frame <= frame )
	{
		const tbScriptCommand* c = script->commands + script->next++;
		SDL_Event e;
		memset( &e, 0, sizeof( e ) );
		Uint32 window = SDL_GetWindowID( viewer->window );
		float x = c->x * (float)viewer->windowWidth;
		float y = c->y * (float)viewer->windowHeight;
		switch ( c->op )
		{
			case tbOp_key:
				tbPushKey( viewer, c->key, true );
				tbPushKey( viewer, c->key, false );
				break;
			case tbOp_keyDown:
			case tbOp_keyUp:
				tbPushKey( viewer, c->key, c->op == tbOp_keyDown );
				break;
			case tbOp_mouseMove:
			case tbOp_mouseDown:
			case tbOp_mouseUp:
				// Every button event is preceded by a motion to its position, as with a real mouse.
				e.type = SDL_MOUSEMOTION;
				e.motion.windowID = window;
				e.motion.x = (Sint32)x;
				e.motion.y = (Sint32)y;
				e.motion.xrel = (Sint32)( x - script->mouseX );
				e.motion.yrel = (Sint32)( y - script->mouseY );
				e.motion.state = script->buttons;
				SDL_PushEvent( &e );
				script->mouseX = x;
				script->mouseY = y;
				if ( c->op != tbOp_mouseMove )
				{
					memset( &e, 0, sizeof( e ) );
					bool down = c->op == tbOp_mouseDown;
					e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
					e.button.windowID = window;
					e.button.button = (Uint8)c->button;
					e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
					e.button.clicks = 1;
					e.button.x = (Sint32)x;
					e.button.y = (Sint32)y;
					if ( down )
					{
						script->buttons |= SDL_BUTTON( c->button );
					}
					else
					{
						script->buttons &= ~SDL_BUTTON( c->button );
					}
					SDL_PushEvent( &e );
				}
				break;
			case tbOp_wheel:
				e.type = SDL_MOUSEWHEEL;
				e.wheel.windowID = window;
				e.wheel.y = (Sint32)c->y;
				e.wheel.direction = SDL_MOUSEWHEEL_NORMAL;
				SDL_PushEvent( &e );
				break;
			case tbOp_screenshot:
				snprintf( viewer->screenshotRequest, sizeof( viewer->screenshotRequest ), "%s", c->text[0] );
				break;
			case tbOp_copy:
				if ( tbCopyFile( c->text[0], c->text[1] ) == false )
				{
					fprintf( stderr, "tumble: script input: cannot copy %s to %s\n", c->text[0], c->text[1] );
				}
				break;
			case tbOp_quit:
				viewer->quit = true;
				break;
		}
	}
}
