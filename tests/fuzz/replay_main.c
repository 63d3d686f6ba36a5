// Tumble fuzz targets: a main() that replays inputs when libFuzzer is not linked.
// SPDX-License-Identifier: MIT
//
// In the fuzz configuration (clang, -fsanitize=fuzzer) libFuzzer provides main() and TB_LIBFUZZER
// is defined. In every other configuration (gcc included) each fuzz target is linked with this
// file instead and becomes a replayer: `fuzz_hull DIR_OR_FILE...` runs every input once through
// LLVMFuzzerTestOneInput, so the committed corpus and crash reproducers are regression tests
// under gcc's sanitizers too.
#if !defined( TB_LIBFUZZER )

#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );
int LLVMFuzzerInitialize( int* argc, char*** argv ) __attribute__( ( weak ) );

// A hang is a finding too: each input gets TB_FUZZ_REPLAY_TIMEOUT seconds (default 60, like
// libFuzzer's -timeout), then the replay stops with an error naming the input.
static volatile sig_atomic_t tb_replayTimeout = 60;

static void tbOnAlarm( int signal )
{
	(void)signal;
	static const char message[] = "\nreplay: FAILED: the input above ran past the time limit (a hang)\n";
	ssize_t written = write( 2, message, sizeof( message ) - 1 );
	(void)written;
	_exit( 3 );
}

static int tbReplayFile( const char* path )
{
	FILE* file = fopen( path, "rb" );
	if ( file == NULL )
	{
		fprintf( stderr, "replay: cannot open %s\n", path );
		return 1;
	}
	size_t capacity = 4096;
	size_t size = 0;
	uint8_t* data = malloc( capacity );
	size_t n;
	while ( data != NULL && ( n = fread( data + size, 1, capacity - size, file ) ) > 0 )
	{
		size += n;
		if ( size == capacity )
		{
			capacity *= 2;
			uint8_t* grown = realloc( data, capacity );
			if ( grown == NULL )
			{
				free( data );
				data = NULL;
				break;
			}
			data = grown;
		}
	}
	fclose( file );
	if ( data == NULL )
	{
		fprintf( stderr, "replay: out of memory reading %s\n", path );
		return 1;
	}
	// The name goes out first, so a crash report follows the input that caused it.
	fprintf( stderr, "replay: %s (%zu bytes)\n", path, size );
	alarm( (unsigned)tb_replayTimeout );
	LLVMFuzzerTestOneInput( data, size );
	alarm( 0 );
	free( data );
	return 0;
}

static int tbCompareNames( const void* a, const void* b )
{
	return strcmp( *(char* const*)a, *(char* const*)b );
}

// Replays the regular files of a directory in name order (one level, dot files skipped).
static int tbReplayDirectory( const char* path, int* count )
{
	DIR* dir = opendir( path );
	if ( dir == NULL )
	{
		fprintf( stderr, "replay: cannot open directory %s\n", path );
		return 1;
	}
	char** names = NULL;
	size_t nameCount = 0;
	size_t nameCapacity = 0;
	struct dirent* entry;
	while ( ( entry = readdir( dir ) ) != NULL )
	{
		if ( entry->d_name[0] == '.' )
		{
			continue;
		}
		if ( nameCount == nameCapacity )
		{
			nameCapacity = nameCapacity == 0 ? 64 : 2 * nameCapacity;
			char** grown = realloc( names, nameCapacity * sizeof( char* ) );
			if ( grown == NULL )
			{
				break;
			}
			names = grown;
		}
		size_t length = strlen( path ) + strlen( entry->d_name ) + 2;
		names[nameCount] = malloc( length );
		if ( names[nameCount] == NULL )
		{
			break;
		}
		snprintf( names[nameCount], length, "%s/%s", path, entry->d_name );
		nameCount += 1;
	}
	closedir( dir );
	if ( nameCount > 0 )
	{
		qsort( names, nameCount, sizeof( char* ), tbCompareNames );
	}

	int failures = 0;
	for ( size_t i = 0; i < nameCount; ++i )
	{
		struct stat st;
		if ( stat( names[i], &st ) == 0 && S_ISREG( st.st_mode ) )
		{
			failures += tbReplayFile( names[i] );
			*count += 1;
		}
		free( names[i] );
	}
	free( names );
	return failures;
}

int main( int argc, char** argv )
{
	const char* limit = getenv( "TB_FUZZ_REPLAY_TIMEOUT" );
	if ( limit != NULL && atoi( limit ) > 0 )
	{
		tb_replayTimeout = atoi( limit );
	}
	signal( SIGALRM, tbOnAlarm );
	if ( LLVMFuzzerInitialize != NULL )
	{
		LLVMFuzzerInitialize( &argc, &argv );
	}
	if ( argc < 2 )
	{
		fprintf( stderr,
				 "usage: %s FILE_OR_DIRECTORY...\n"
				 "Runs every input once (this build has no libFuzzer; see tests/fuzz/README.md).\n",
				 argv[0] );
		return 2;
	}
	int count = 0;
	int failures = 0;
	for ( int i = 1; i < argc; ++i )
	{
		struct stat st;
		if ( stat( argv[i], &st ) != 0 )
		{
			// A missing directory (e.g. no crashes/<target>/ yet) is not an error.
			continue;
		}
		if ( S_ISDIR( st.st_mode ) )
		{
			failures += tbReplayDirectory( argv[i], &count );
		}
		else
		{
			failures += tbReplayFile( argv[i] );
			count += 1;
		}
	}
	printf( "replayed %d inputs, %d unreadable\n", count, failures );
	return failures == 0 ? 0 : 1;
}

#else

// Keeps the translation unit non-empty (ISO C) when libFuzzer supplies main().
typedef int tbReplayUnused;

#endif
