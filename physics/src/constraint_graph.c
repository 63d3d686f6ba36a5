// Tumble physics: greedy graph colouring of the step's constraints, contacts and joints.
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

_Static_assert( TB_GRAPH_COLOR_COUNT <= TB_COLOR_LIMIT, "colour sets are 32-bit masks" );

static inline bool tbIsMoving( const tbSolverBody* bodies, int index )
{
	return index >= 0 && bodies[index].isKinematic == false;
}

bool tbColorConstraints( tbArena* arena, const int* written, int count, int bodyCount, int colorCount, bool spareFirst,
						 int* order, int* starts )
{
	TB_ASSERT( colorCount >= 1 && colorCount <= TB_COLOR_LIMIT );
	uint32_t* bodyColors = TB_ARENA_ARRAY( arena, uint32_t, bodyCount > 0 ? bodyCount : 1 );
	uint8_t* colorOf = TB_ARENA_ARRAY_RAW( arena, uint8_t, count > 0 ? count : 1 );
	if ( bodyColors == NULL || colorOf == NULL )
	{
		return false;
	}
	int counts[TB_COLOR_LIMIT + 1] = { 0 };
	const uint32_t allColors = colorCount == TB_COLOR_LIMIT ? UINT32_MAX : ( ( 1u << colorCount ) - 1u );
	for ( int i = 0; i < count; ++i )
	{
		int a = written[2 * i], b = written[2 * i + 1];
		int color = colorCount;
		if ( a != TB_COLOR_OVERFLOW )
		{
			uint32_t taken = ( a >= 0 ? bodyColors[a] : 0u ) | ( b >= 0 ? bodyColors[b] : 0u );
			uint32_t free = ~taken & allColors & ( spareFirst && ( a < 0 || b < 0 ) ? ~1u : allColors );
			if ( free != 0u )
			{
				color = __builtin_ctz( free );
				uint32_t bit = 1u << color;
				if ( a >= 0 )
				{
					bodyColors[a] |= bit;
				}
				if ( b >= 0 )
				{
					bodyColors[b] |= bit;
				}
			}
		}
		colorOf[i] = (uint8_t)color;
		counts[color] += 1;
	}

	// Counting sort by colour; a stable pass keeps increasing constraint index within a colour.
	int fill[TB_COLOR_LIMIT + 1];
	int offset = 0;
	for ( int color = 0; color <= colorCount; ++color )
	{
		starts[color] = offset;
		fill[color] = offset;
		offset += counts[color];
	}
	starts[colorCount + 1] = offset;
	for ( int i = 0; i < count; ++i )
	{
		order[fill[colorOf[i]]++] = i;
	}
	return true;
}

bool tbColorContactConstraints( tbConstraintGraph* graph, tbArena* arena, const tbContactConstraint* contacts,
								int count, const tbSolverBody* bodies, int bodyCount )
{
	int* written = TB_ARENA_ARRAY_RAW( arena, int, count > 0 ? 2 * count : 1 );
	graph->order = TB_ARENA_ARRAY_RAW( arena, int, count > 0 ? count : 1 );
	if ( written == NULL || graph->order == NULL )
	{
		return false;
	}
	for ( int i = 0; i < count; ++i )
	{
		const tbContactConstraint* c = contacts + i;
		written[2 * i] = tbIsMoving( bodies, c->indexA ) ? c->indexA : -1;
		written[2 * i + 1] = tbIsMoving( bodies, c->indexB ) ? c->indexB : -1;
	}
	// As in Box2D v3, contacts against static or kinematic bodies skip colour 0: it fills up with
	// body-body contacts first, which keeps the pile's colours balanced.
	if ( tbColorConstraints( arena, written, count, bodyCount, TB_GRAPH_COLOR_COUNT, true, graph->order,
							 graph->colorStarts ) == false )
	{
		return false;
	}
	graph->activeColorCount = 0;
	for ( int color = 0; color < TB_GRAPH_COLOR_COUNT; ++color )
	{
		if ( graph->colorStarts[color + 1] > graph->colorStarts[color] )
		{
			graph->activeColorCount += 1;
		}
	}
	return true;
}
