// Tumble physics: graph colouring of the step's constraints (contacts and joints), so that
// constraints of one colour share no body the solver moves and can be solved in parallel (and side
// by side in SIMD lanes) with the same result as one after the other.
// SPDX-License-Identifier: MIT
#pragma once

#include "arena.h"

#include <stdbool.h>

/// Colours tried per constraint; constraints that find none free go to the overflow set, which
/// the calling thread solves after the colours. A pile of boxes needs about a dozen colours (a box
/// touches up to ~10 neighbours), so 24 leave room for denser piles.
#define TB_GRAPH_COLOR_COUNT 24

typedef struct tbSolverBody tbSolverBody;
typedef struct tbContactConstraint tbContactConstraint;

/// Constraint indices grouped by colour. Colour c holds order[colorStarts[c] .. colorStarts[c + 1])
/// in increasing constraint index; the overflow set is the last group, c = TB_GRAPH_COLOR_COUNT.
typedef struct tbConstraintGraph
{
	int* order;
	int colorStarts[TB_GRAPH_COLOR_COUNT + 2];
	int activeColorCount; ///< colours with at least one constraint
} tbConstraintGraph;

/// Colours a colouring may use at most: a body's taken colours are a 32-bit mask.
#define TB_COLOR_LIMIT 32

/// In a constraint's written bodies: it takes no colour and goes to the overflow set.
#define TB_COLOR_OVERFLOW ( -2 )

/// The colouring both kinds of constraint share. written[2 i] and [2 i + 1] hold the solver indices of
/// the bodies constraint i writes, -1 for a side the solver only reads, or TB_COLOR_OVERFLOW first. Visited in
/// index order (so the colours, and the Gauss-Seidel order, are a function of the list alone,
/// whatever the thread count), each takes the lowest of colorCount (<= TB_COLOR_LIMIT) colours that neither of
/// its written bodies has taken, or colorCount, the overflow set, when none is free; with
/// spareFirst, one that does not write two bodies skips colour 0. order[starts[c] ..
/// starts[c + 1]) then lists colour c's constraints in increasing index, c = colorCount being the
/// overflow set (starts has colorCount + 2 entries). Scratch from the arena; false when it has none.
bool tbColorConstraints( tbArena* arena, const int* written, int count, int bodyCount, int colorCount, bool spareFirst,
						 int* order, int* starts );

/// Colour count constraints greedily, in index order (deterministic): each takes the lowest colour
/// that neither of its moving bodies has taken. Static and kinematic bodies (solver index -1 or
/// isKinematic) take no colour: the solver never writes them. Scratch memory comes from the arena;
/// false when it has none left (the graph is then not filled).
bool tbColorContactConstraints( tbConstraintGraph* graph, tbArena* arena, const tbContactConstraint* contacts,
								int count, const tbSolverBody* bodies, int bodyCount );
