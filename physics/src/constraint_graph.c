// Tumble physics: greedy graph colouring of contact constraints.
//
// Each moving body keeps a bit set of the colours its constraints took so far; a constraint takes
// the lowest colour free on both of its bodies. Visiting the constraints in index order makes the
// colouring (and so the solver's Gauss-Seidel order) a function of the constraint list alone,
// independent of how many threads solve it.
// SPDX-License-Identifier: MIT
#include "constraint_graph.h"

#include "contact_solver.h"
#include "core.h"

#include <stdint.h>

_Static_assert( TB_GRAPH_COLOR_COUNT <= 32, "colour sets are 32-bit masks" );

static inline bool tbIsMoving( const tbSolverBody* bodies, int index )
{
	return index >= 0 && bodies[index].isKinematic == false;
}

bool tbColorContactConstraints( tbConstraintGraph* graph, tbArena* arena, const tbContactConstraint* contacts,
								int count, const tbSolverBody* bodies, int bodyCount )
{
	uint32_t* bodyColors = TB_ARENA_ARRAY( arena, uint32_t, bodyCount > 0 ? bodyCount : 1 );
	uint8_t* colorOf = TB_ARENA_ARRAY( arena, uint8_t, count > 0 ? count : 1 );
	graph->order = TB_ARENA_ARRAY( arena, int, count > 0 ? count : 1 );
	if ( bodyColors == NULL || colorOf == NULL || graph->order == NULL )
	{
		return false;
	}
	int counts[TB_GRAPH_COLOR_COUNT + 1] = { 0 };
	const uint32_t allColors = TB_GRAPH_COLOR_COUNT == 32 ? UINT32_MAX : ( ( 1u << TB_GRAPH_COLOR_COUNT ) - 1u );

	for ( int i = 0; i < count; ++i )
	{
		const tbContactConstraint* c = contacts + i;
		bool movingA = tbIsMoving( bodies, c->indexA );
		bool movingB = tbIsMoving( bodies, c->indexB );
		uint32_t taken = ( movingA ? bodyColors[c->indexA] : 0u ) | ( movingB ? bodyColors[c->indexB] : 0u );
		// As in Box2D v3, contacts against static or kinematic bodies skip colour 0: it fills up
		// with body-body contacts first, which keeps the pile's colours balanced.
		uint32_t free = ~taken & allColors & ( movingA && movingB ? allColors : ~1u );
		int color = TB_GRAPH_COLOR_COUNT;
		if ( free != 0u )
		{
			color = __builtin_ctz( free );
			uint32_t bit = 1u << color;
			if ( movingA )
			{
				bodyColors[c->indexA] |= bit;
			}
			if ( movingB )
			{
				bodyColors[c->indexB] |= bit;
			}
		}
		colorOf[i] = (uint8_t)color;
		counts[color] += 1;
	}

	// Counting sort by colour; a stable pass keeps increasing constraint index within a colour.
	int offset = 0;
	graph->activeColorCount = 0;
	for ( int color = 0; color <= TB_GRAPH_COLOR_COUNT; ++color )
	{
		graph->colorStarts[color] = offset;
		offset += counts[color];
		if ( color < TB_GRAPH_COLOR_COUNT && counts[color] > 0 )
		{
			graph->activeColorCount += 1;
		}
	}
	graph->colorStarts[TB_GRAPH_COLOR_COUNT + 1] = offset;
	int fill[TB_GRAPH_COLOR_COUNT + 1];
	for ( int color = 0; color <= TB_GRAPH_COLOR_COUNT; ++color )
	{
		fill[color] = graph->colorStarts[color];
	}
	for ( int i = 0; i < count; ++i )
	{
		graph->order[fill[colorOf[i]]++] = i;
	}
	return true;
}
