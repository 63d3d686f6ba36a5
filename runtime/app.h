// Tumble runtime: the program's options and its two front ends (headless runner, viewer).
// SPDX-License-Identifier: MIT
#pragma once

#include "scene.h"

#include <stdbool.h>

/// What the command line asked for (filled by main.c).
typedef struct tbAppOptions
{
	const char* scenePath; ///< scene file to run
	bool sceneDefault;	   ///< no scene was named: the viewer may reopen the last one instead
	const char* scenesDir; ///< the shipped scenes' folder (the viewer's picker), NULL when not found
	tbSceneOptions scene;  ///< sandbox, mods, limits, scripts/lib directory
	float dt;			   ///< fixed time step, s, default 1/60
	int threads;		   ///< --threads: worker threads of the scene's worlds (viewer: 2 on 2+ cores; headless: 1)
	int steps;			   ///< steps to run; -1: the scene's `steps` field, else 600 (headless) / unbounded (live)
	bool headless;		   ///< --headless
	bool watch;			   ///< --watch: keep running in real time and reload on change
	bool live;			   ///< real time with a one-line summary on stderr (set when no viewer exists)
	bool report;		   ///< print the JSON report on stdout at the end (headless)
	bool all;			   ///< --all: report every body, not only named ones
} tbAppOptions;

/// Headless runner (headless.c): batch run with a JSON report, or the real-time watch loop.
/// Returns the process exit status (0 success, 1 script error).
int tbHeadless_Run( const tbAppOptions* options );

/// The viewer (runtime/viewer/): opens the window, hosts the scene through the scene.h API, and
/// returns the exit status. main.c declares it weak, so the program links and falls back to the
/// live headless loop while the viewer is not part of the build.
int tbViewer_Run( const tbAppOptions* options );
