// Tumble viewer: the scene picker (F3). It lists the shipped scenes and the scenes beside the
// current one, each with the title its file declares, and opens the one chosen in the running
// window. Titles are read from the file's text (`title = "..."`), never by running it: listing a
// folder must not execute every script in it (nor, with --sandbox, outside the sandbox).
// SPDX-License-Identifier: MIT
#define _XOPEN_SOURCE 700

#include "viewer.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The value of the first `title = "..."` (or '...') in the first 16 KB of a scene file; the file
// name when there is none.
static void tbReadTitle( const char* path, const char* name, char* title, size_t size )
{
	snprintf( title, size, "%s", name );
	FILE* f = fopen( path, "rb" );
	if ( f == NULL )
	{
		return;
	}
	char text[16384];
	size_t n = fread( text, 1, sizeof( text ) - 1, f );
	fclose( f );
	text[n] = '\0';
	for ( const char* p = strstr( text, "title" ); p != NULL; p = strstr( p + 5, "title" ) )
	{
		// A whole word: not "subtitle" nor "title_font".
		bool wordStart = p == text || ( p[-1] != '_' && ( p[-1] < 'a' || p[-1] > 'z' ) && ( p[-1] < 'A' || p[-1] > 'Z' ) );
		const char* q = p + 5;
		while ( *q == ' ' || *q == '\t' )
		{
			++q;
		}
		if ( wordStart == false || *q != '=' )
		{
			continue;
		}
		++q;
		while ( *q == ' ' || *q == '\t' )
		{
			++q;
		}
		if ( *q != '"' && *q != '\'' )
		{
			continue;
		}
		const char* end = strchr( q + 1, *q );
		const char* newline = strchr( q + 1, '\n' );
		if ( end != NULL && ( newline == NULL || end < newline ) )
		{
			snprintf( title, size, "%.*s", (int)( end - q - 1 ), q + 1 );
			return;
		}
	}
}

static int tbCompareEntries( const void* a, const void* b )
{
	const tbPickerEntry* x = a;
	const tbPickerEntry* y = b;
	return x->group != y->group ? x->group - y->group : strcmp( x->name, y->name );
}

static bool tbHasEntry( const tbPicker* picker, const char* path )
{
	for ( int i = 0; i < picker->count; ++i )
	{
		if ( strcmp( picker->entries[i].path, path ) == 0 )
		{
			return true;
		}
	}
	return false;
}

static void tbAddFolder( tbPicker* picker, const char* dir, int group )
{
	DIR* d = opendir( dir );
	if ( d == NULL )
	{
		return;
	}
	struct dirent* e;
	while ( ( e = readdir( d ) ) != NULL && picker->count < TB_PICKER_MAX )
	{
		size_t n = strlen( e->d_name );
		if ( n < 5 || strcmp( e->d_name + n - 4, ".lua" ) != 0 || e->d_name[0] == '.' )
		{
			continue;
		}
		char path[PATH_MAX];
		char resolved[PATH_MAX];
		snprintf( path, sizeof( path ), "%s/%s", dir, e->d_name );
		if ( realpath( path, resolved ) == NULL || tbHasEntry( picker, resolved ) )
		{
			continue;
		}
		tbPickerEntry* entry = picker->entries + picker->count++;
		snprintf( entry->path, sizeof( entry->path ), "%s", resolved );
		snprintf( entry->name, sizeof( entry->name ), "%.*s", (int)( n - 4 ), e->d_name );
		entry->group = group;
		tbReadTitle( resolved, entry->name, entry->title, sizeof( entry->title ) );
	}
	closedir( d );
}

void tbPicker_Open( tbPicker* picker, const char* shippedDir, const char* currentScene )
{
	picker->count = 0;
	picker->open = true;
	picker->scroll = 0;
	picker->highlight = 0;
	char current[PATH_MAX];
	if ( currentScene == NULL || realpath( currentScene, current ) == NULL )
	{
		current[0] = '\0';
	}
	// The current scene's folder first (the scenes a user is working on), then the shipped ones.
	if ( current[0] != '\0' )
	{
		char dir[PATH_MAX];
		snprintf( dir, sizeof( dir ), "%s", current );
		char* slash = strrchr( dir, '/' );
		if ( slash != NULL )
		{
			*slash = '\0';
			char shipped[PATH_MAX];
			bool isShipped = shippedDir != NULL && realpath( shippedDir, shipped ) != NULL && strcmp( shipped, dir ) == 0;
			if ( isShipped == false )
			{
				tbAddFolder( picker, dir, 0 );
			}
		}
	}
	if ( shippedDir != NULL )
	{
		tbAddFolder( picker, shippedDir, 1 );
	}
	qsort( picker->entries, (size_t)picker->count, sizeof( tbPickerEntry ), tbCompareEntries );
	for ( int i = 0; i < picker->count; ++i )
	{
		if ( strcmp( picker->entries[i].path, current ) == 0 )
		{
			picker->highlight = i;
		}
	}
}

bool tbPicker_Key( tbPicker* picker, SDL_Keycode key, const char** chosen )
{
	*chosen = NULL;
	int page = tbMaxInt( picker->visibleRows - 1, 1 );
	switch ( key )
	{
		case SDLK_UP:
			picker->highlight -= 1;
			break;
		case SDLK_DOWN:
			picker->highlight += 1;
			break;
		case SDLK_PAGEUP:
			picker->highlight -= page;
			break;
		case SDLK_PAGEDOWN:
			picker->highlight += page;
			break;
		case SDLK_HOME:
			picker->highlight = 0;
			break;
		case SDLK_END:
			picker->highlight = picker->count - 1;
			break;
		case SDLK_RETURN:
		case SDLK_KP_ENTER:
			if ( picker->count > 0 )
			{
				*chosen = picker->entries[picker->highlight].path;
				picker->open = false;
			}
			return true;
		default:
			return false;
	}
	picker->highlight = tbMaxInt( tbMinInt( picker->highlight, picker->count - 1 ), 0 );
	picker->follow = true;
	return true;
}

void tbPicker_Scroll( tbPicker* picker, int rows )
{
	picker->scroll -= rows;
	picker->follow = false;
}

const char* tbPicker_Draw( tbPicker* picker, tbUi* ui, float viewWidth, float viewHeight )
{
	float s = ui->scale;
	float width = tbMinFloat( 330.0f * s, viewWidth - 16.0f * s );
	float x = 0.5f * ( viewWidth - width );
	float top = 8.0f * s;
	// Rows that fit between the heading and the bottom of the window; the list scrolls past them.
	float row = tbUi_LineHeight( ui ) + 4.0f * s;
	picker->visibleRows = tbMaxInt( (int)( ( viewHeight - top - 3.0f * row - 8.0f * s ) / row ), 1 );
	if ( picker->follow )
	{
		if ( picker->highlight < picker->scroll )
		{
			picker->scroll = picker->highlight;
		}
		if ( picker->highlight >= picker->scroll + picker->visibleRows )
		{
			picker->scroll = picker->highlight - picker->visibleRows + 1;
		}
	}
	picker->scroll = tbMaxInt( tbMinInt( picker->scroll, picker->count - picker->visibleRows ), 0 );

	char heading[96];
	snprintf( heading, sizeof( heading ), "Scenes  %d-%d of %d  (Enter opens, Esc closes)",
			  picker->count > 0 ? picker->scroll + 1 : 0, tbMinInt( picker->scroll + picker->visibleRows, picker->count ),
			  picker->count );
	tbUi_BeginPanel( ui, heading, x, top, width );
	const char* chosen = NULL;
	for ( int i = picker->scroll; i < picker->count && i < picker->scroll + picker->visibleRows; ++i )
	{
		const tbPickerEntry* e = picker->entries + i;
		char label[200];
		if ( strcmp( e->title, e->name ) == 0 )
		{
			snprintf( label, sizeof( label ), "%s", e->name );
		}
		else
		{
			snprintf( label, sizeof( label ), "%s  (%s)", e->title, e->name );
		}
		if ( tbUi_Selectable( ui, e->path, label, i == picker->highlight ) )
		{
			chosen = e->path;
			picker->highlight = i;
			picker->open = false;
		}
	}
	if ( picker->count == 0 )
	{
		tbUi_Label( ui, "no scenes found" );
	}
	tbUi_EndPanelColored( ui, tbMakeRgba( 18, 20, 26, 250 ) );
	return chosen;
}
