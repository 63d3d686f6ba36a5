// Tumble physics: movers, kinematic bodies whose velocity is set by a script each step.
// SPDX-License-Identifier: MIT
#pragma once

#include <stdbool.h>

typedef struct tbWorld tbWorld;

/// Set the velocity of every mover's kinematic body so that integrating it over dt lands it where
/// its mode wants it (path, target pose, constant velocity). Called by the world at the start of
/// every step, before the solver, while the world is locked.
void tbUpdateMovers( tbWorld* world, float dt );

/// Free the world's movers (world teardown; called from tbDestroyAllJoints).
void tbDestroyMovers( tbWorld* world );

/// World snapshots: movers live in a table beside the world (tbWorld has no field for them), so
/// a snapshot takes a deep copy here. NULL when the world has no movers, or when an allocation was
/// refused: then *ok is false and nothing is left allocated.
typedef struct tbMoverSnapshot tbMoverSnapshot;
tbMoverSnapshot* tbSnapshotMovers( tbWorld* world, bool* ok );
/// A deep copy of a mover snapshot (NULL for NULL), with *ok as for tbSnapshotMovers.
tbMoverSnapshot* tbCopyMoverSnapshot( const tbMoverSnapshot* snapshot, bool* ok );
/// Replace the world's movers with the snapshot's, taking it over (NULL: no movers). Allocates
/// nothing, so a restore can stage its copies first and then install them without a failure.
void tbAdoptMovers( tbWorld* world, tbMoverSnapshot* snapshot );
/// Replace the world's movers with a copy of the snapshot's (NULL: no movers). False, the movers
/// unchanged, when the copy could not be allocated.
bool tbRestoreMovers( tbWorld* world, const tbMoverSnapshot* snapshot );
void tbFreeMoverSnapshot( tbMoverSnapshot* snapshot );
