// Tumble runtime: watching script files for hot reload.
// SPDX-License-Identifier: MIT
#define _POSIX_C_SOURCE 200809L

#include "watch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined( __linux__ )
#include <sys/inotify.h>
#define TB_HAS_INOTIFY 1
#else
#define TB_HAS_INOTIFY 0
#endif

typedef struct tbWatchedFile
{
	char* path;
	char* dir;			   ///< directory watched by inotify (editors often replace files by renaming)
	char* name;			   ///< file name within dir
	int wd;				   ///< inotify watch descriptor of dir, -1 when none
	struct timespec mtime; ///< polling fallback
	long long size;
	bool exists;
} tbWatchedFile;

struct tbWatch
{
	int fd; ///< inotify descriptor or -1 (polling)
	tbWatchedFile* files;
	int count;
};

static char* tbCopyString( const char* s, size_t n )
{
	char* copy = malloc( n + 1 );
	if ( copy != NULL )
	{
		memcpy( copy, s, n );
		copy[n] = '\0';
	}
	return copy;
}

static void tbStatFile( tbWatchedFile* file )
{
	struct stat st;
	if ( stat( file->path, &st ) == 0 )
	{
		file->exists = true;
		file->mtime = st.st_mtim;
		file->size = (long long)st.st_size;
	}
	else
	{
		file->exists = false;
		file->size = -1;
		memset( &file->mtime, 0, sizeof( file->mtime ) );
	}
}

tbWatch* tbWatch_Create( void )
{
	tbWatch* watch = calloc( 1, sizeof( tbWatch ) );
	if ( watch == NULL )
	{
		return NULL;
	}
	watch->fd = -1;
#if TB_HAS_INOTIFY
	// TUMBLE_WATCH_POLL=1 forces the polling fallback (used by the tests to exercise it).
	const char* forcePolling = getenv( "TUMBLE_WATCH_POLL" );
	if ( forcePolling == NULL || forcePolling[0] == '\0' || strcmp( forcePolling, "0" ) == 0 )
	{
		watch->fd = inotify_init1( IN_NONBLOCK | IN_CLOEXEC );
	}
#endif
	return watch;
}

static void tbClearFiles( tbWatch* watch )
{
	for ( int i = 0; i < watch->count; ++i )
	{
#if TB_HAS_INOTIFY
		if ( watch->fd >= 0 && watch->files[i].wd >= 0 )
		{
			// A directory shared by several files has one descriptor: remove it once.
			bool first = true;
			for ( int j = 0; j < i && first; ++j )
			{
				first = watch->files[j].wd != watch->files[i].wd;
			}
			if ( first )
			{
				inotify_rm_watch( watch->fd, watch->files[i].wd );
			}
		}
#endif
		free( watch->files[i].path );
		free( watch->files[i].dir );
		free( watch->files[i].name );
	}
	free( watch->files );
	watch->files = NULL;
	watch->count = 0;
}

void tbWatch_Destroy( tbWatch* watch )
{
	if ( watch == NULL )
	{
		return;
	}
	tbClearFiles( watch );
	if ( watch->fd >= 0 )
	{
		close( watch->fd );
	}
	free( watch );
}

void tbWatch_SetFiles( tbWatch* watch, const char* const* paths, int count )
{
	tbClearFiles( watch );
	if ( count <= 0 )
	{
		return;
	}
	watch->files = calloc( (size_t)count, sizeof( tbWatchedFile ) );
	if ( watch->files == NULL )
	{
		return;
	}
	for ( int i = 0; i < count; ++i )
	{
		tbWatchedFile* file = watch->files + watch->count;
		const char* slash = strrchr( paths[i], '/' );
		file->path = tbCopyString( paths[i], strlen( paths[i] ) );
		file->dir = slash != NULL ? tbCopyString( paths[i], slash == paths[i] ? 1 : (size_t)( slash - paths[i] ) )
								  : tbCopyString( ".", 1 );
		file->name =
			tbCopyString( slash != NULL ? slash + 1 : paths[i], strlen( slash != NULL ? slash + 1 : paths[i] ) );
		file->wd = -1;
		if ( file->path == NULL || file->dir == NULL || file->name == NULL )
		{
			free( file->path );
			free( file->dir );
			free( file->name );
			continue;
		}
		tbStatFile( file );
#if TB_HAS_INOTIFY
		if ( watch->fd >= 0 )
		{
			// Watching the directory (not the file) survives editors that save by writing a new file
			// and renaming it over the old one. inotify returns the same descriptor for a directory
			// already watched.
			file->wd = inotify_add_watch( watch->fd, file->dir,
										  IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY );
		}
#endif
		watch->count += 1;
	}
}

static bool tbPollInotify( tbWatch* watch )
{
	bool changed = false;
#if TB_HAS_INOTIFY
	// Aligned for struct inotify_event.
	_Alignas( struct inotify_event ) char buffer[4096];
	for ( ;; )
	{
		ssize_t n = read( watch->fd, buffer, sizeof( buffer ) );
		if ( n <= 0 )
		{
			break;
		}
		for ( char* p = buffer; p < buffer + n; )
		{
			const struct inotify_event* event = (const struct inotify_event*)p;
			if ( event->len > 0 )
			{
				for ( int i = 0; i < watch->count && changed == false; ++i )
				{
					changed = watch->files[i].wd == event->wd && strcmp( watch->files[i].name, event->name ) == 0;
				}
			}
			p += sizeof( struct inotify_event ) + event->len;
		}
	}
#else
	(void)watch;
#endif
	return changed;
}

static bool tbPollStat( tbWatch* watch )
{
	bool changed = false;
	for ( int i = 0; i < watch->count; ++i )
	{
		tbWatchedFile* file = watch->files + i;
		tbWatchedFile before = *file;
		tbStatFile( file );
		if ( before.exists != file->exists || before.size != file->size || before.mtime.tv_sec != file->mtime.tv_sec ||
			 before.mtime.tv_nsec != file->mtime.tv_nsec )
		{
			changed = true;
		}
	}
	return changed;
}

bool tbWatch_Poll( tbWatch* watch )
{
	if ( watch == NULL )
	{
		return false;
	}
	if ( watch->fd >= 0 )
	{
		bool changed = tbPollInotify( watch );
		// Keep the stat snapshot current too (cheap), so a switch to polling would not misfire.
		tbPollStat( watch );
		return changed;
	}
	return tbPollStat( watch );
}

static void tbSleepMs( int ms )
{
	struct timespec t = { ms / 1000, (long)( ms % 1000 ) * 1000000L };
	while ( nanosleep( &t, &t ) != 0 && errno == EINTR )
	{
	}
}

void tbWatch_Settle( tbWatch* watch, int quietMs, int maxMs )
{
	int waited = 0;
	int quiet = 0;
	const int tick = 10;
	while ( quiet < quietMs && waited < maxMs )
	{
		tbSleepMs( tick );
		waited += tick;
		quiet = tbWatch_Poll( watch ) ? 0 : quiet + tick;
	}
}

bool tbWatch_UsesInotify( const tbWatch* watch )
{
	return watch != NULL && watch->fd >= 0;
}
