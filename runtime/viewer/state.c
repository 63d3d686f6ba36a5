// Tumble viewer: what it remembers between runs, in a small text file under the XDG state folder
// ($XDG_STATE_HOME, default ~/.local/state: "data that should persist between restarts but is not
// important enough for the data folder", which a last-opened file and view are). Lines:
//
//   scene /absolute/path/to/scene.lua
//   camera TX TY TZ YAW PITCH DISTANCE
//
// Unknown lines are skipped, so a later version can add some without breaking this one.
// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 200809L

#include "viewer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool tbViewerState_Path( char* path, size_t size )
{
	const char* xdg = getenv( "XDG_STATE_HOME" );
	const char* home = getenv( "HOME" );
	int n = -1;
	// The XDG rule: a relative XDG_STATE_HOME is invalid and ignored.
	if ( xdg != NULL && xdg[0] == '/' )
	{
		n = snprintf( path, size, "%s/tumble/viewer.state", xdg );
	}
	else if ( home != NULL && home[0] == '/' )
	{
		n = snprintf( path, size, "%s/.local/state/tumble/viewer.state", home );
	}
	if ( n < 0 || (size_t)n >= size )
	{
		path[0] = '\0';
		return false;
	}
	return true;
}

bool tbViewerState_Load( tbViewerState* state )
{
	memset( state, 0, sizeof( *state ) );
	char path[4096];
	if ( tbViewerState_Path( path, sizeof( path ) ) == false )
	{
		return false;
	}
	FILE* f = fopen( path, "r" );
	if ( f == NULL )
	{
		return false;
	}
	char line[4200];
	while ( fgets( line, sizeof( line ), f ) != NULL )
	{
		line[strcspn( line, "\n" )] = '\0';
		float c[6];
		if ( strncmp( line, "scene ", 6 ) == 0 )
		{
			snprintf( state->scene, sizeof( state->scene ), "%.4095s", line + 6 );
		}
		else if ( sscanf( line, "camera %f %f %f %f %f %f", c, c + 1, c + 2, c + 3, c + 4, c + 5 ) == 6 )
		{
			bool finite = true;
			for ( int i = 0; i < 6; ++i )
			{
				finite = finite && isfinite( c[i] );
			}
			if ( finite && c[5] > 0.0f )
			{
				state->hasCamera = true;
				state->camera.target = tbMakeVec3( c[0], c[1], c[2] );
				state->camera.yaw = c[3];
				state->camera.pitch = c[4];
				state->camera.distance = c[5];
			}
		}
	}
	fclose( f );
	return state->scene[0] != '\0';
}

// mkdir -p for the folders above path.
static bool tbMakeParents( const char* path )
{
	char dir[4096];
	snprintf( dir, sizeof( dir ), "%s", path );
	for ( char* p = dir + 1; *p != '\0'; ++p )
	{
		if ( *p == '/' )
		{
			*p = '\0';
			if ( mkdir( dir, 0700 ) != 0 && errno != EEXIST )
			{
				return false;
			}
			*p = '/';
		}
	}
	return true;
}

bool tbViewerState_Save( const tbViewerState* state )
{
	char path[4096];
	if ( tbViewerState_Path( path, sizeof( path ) ) == false )
	{
		return false;
	}
	char temp[4200];
	snprintf( temp, sizeof( temp ), "%s.tmp", path );
	FILE* f = NULL;
	if ( tbMakeParents( path ) )
	{
		f = fopen( temp, "w" );
	}
	if ( f == NULL )
	{
		fprintf( stderr, "tumble: cannot write the viewer state %s: %s\n", path, strerror( errno ) );
		return false;
	}
	fprintf( f, "scene %s\n", state->scene );
	if ( state->hasCamera )
	{
		const tbCamera* c = &state->camera;
		fprintf( f, "camera %.6g %.6g %.6g %.6g %.6g %.6g\n", (double)c->target.x, (double)c->target.y,
				 (double)c->target.z, (double)c->yaw, (double)c->pitch, (double)c->distance );
	}
	// Written whole then renamed: two viewers closing at once leave one state or the other, not a mix.
	bool ok = fclose( f ) == 0 && rename( temp, path ) == 0;
	if ( ok == false )
	{
		fprintf( stderr, "tumble: cannot write the viewer state %s: %s\n", path, strerror( errno ) );
		remove( temp );
	}
	return ok;
}
