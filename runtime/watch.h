// Tumble runtime: watching script files for hot reload (inotify on Linux, polling elsewhere).
// SPDX-License-Identifier: MIT
#pragma once

#include <stdbool.h>

typedef struct tbWatch tbWatch;

/// Create a watcher. Uses inotify when available, else polls modification times. NULL when out
/// of memory.
tbWatch* tbWatch_Create( void );
void tbWatch_Destroy( tbWatch* watch );

/// Replace the set of watched files (paths are copied). A file that does not exist yet is watched
/// for its creation.
void tbWatch_SetFiles( tbWatch* watch, const char* const* paths, int count );

/// Non-blocking: true when a watched file was written, replaced, created or deleted since the
/// last call. The main loop turns this into a reload (after tbWatch_Settle).
bool tbWatch_Poll( tbWatch* watch );

/// Wait until no change was seen for quietMs milliseconds (an editor saving in several writes),
/// at most maxMs in total.
void tbWatch_Settle( tbWatch* watch, int quietMs, int maxMs );

/// True when the watcher uses inotify (false: polling).
bool tbWatch_UsesInotify( const tbWatch* watch );
