// Tumble physics: the wide contact path.
//
// The contact constraints of one colour share no moving body, so any of them can be solved side
// by side. They are packed eight to a group (tbContactLanes, structure of arrays, in the colour's
// order) and solved one manifold per SIMD lane: 8 lanes at a time with AVX2 on CPUs that have it,
// 4 with SSE2 otherwise (tbGetSimdLevel). A manifold's points are visited in turn; lanes with
// fewer points than the group's most have zero rows there, which apply nothing. The packing
// copies each constraint's anchors, directions and impulses into the lanes and builds the rows
// there, eight (or four) at a time (BuildContactRows), as the scalar constraints do
// (contact_solver.c, tbMakeRow); the lanes carry the accumulated impulses through the passes and
// hand them back (tbUnpackWideContacts). The scalar constraints solve the overflow colour and the
// position and restitution passes, with rows of their own built when first needed.
// SPDX-License-Identifier: MIT
#include "contact_wide.h"

#include "contact_solver.h"
#include "core.h"
#include "lanes.h"

#include <float.h>
#include <string.h>

/// One Jacobian row of every lane (tbContactRow), components by lane.
typedef struct tbContactLaneRow
{
	float angA[3][TB_GROUP_LANES];
	float angB[3][TB_GROUP_LANES];
	float impA[3][TB_GROUP_LANES];
	float impB[3][TB_GROUP_LANES];
	float mass[TB_GROUP_LANES];
} tbContactLaneRow;

/// One point of every lane's manifold (tbContactConstraintPoint).
typedef struct tbContactLanePoint
{
	tbContactLaneRow rows[3]; ///< normal, tangent 1, tangent 2
	float rA[3][TB_GROUP_LANES];
	float rB[3][TB_GROUP_LANES];
	float adjustedSeparation[TB_GROUP_LANES];
	float separation0[TB_GROUP_LANES];
	float normalImpulse[TB_GROUP_LANES];
	float tangentImpulse1[TB_GROUP_LANES];
	float tangentImpulse2[TB_GROUP_LANES];
	float maxNormalImpulse[TB_GROUP_LANES];
	float stepNormalImpulse[TB_GROUP_LANES];
	/// The separation a soft sub-step's relax pass measured, which the next sub-step's biased pass
	/// uses: the bodies do not move in between (contact_lanes.h, SolveContacts).
	float separation[TB_GROUP_LANES];
} tbContactLanePoint;

_Static_assert( sizeof( tbContactLanePoint ) % 32 == 0, "points on a cache line keep every lane array on 32 bytes" );

typedef struct tbContactLanes
{
	int constraintIndex[TB_GROUP_LANES]; ///< scalar constraint of each lane, -1: an empty lane
	/// Each side's tbBodyState as floats: where the lanes read v, w, dp, dq (the static slot for
	/// static bodies), and where they write v, w back: the same for moving bodies, the group's sink
	/// for static and kinematic ones.
	float* readA[TB_GROUP_LANES];
	float* readB[TB_GROUP_LANES];
	float* writeA[TB_GROUP_LANES];
	float* writeB[TB_GROUP_LANES];
	float sink[8];
	int pointCount;		  ///< most points of the group's lanes
	int halfPointCount[2]; ///< most points of lanes 0-3 and 4-7 (the 4-lane instance's halves)
	float invMassA[TB_GROUP_LANES], invMassB[TB_GROUP_LANES];
	float normal[3][TB_GROUP_LANES], tangent1[3][TB_GROUP_LANES], tangent2[3][TB_GROUP_LANES];
	float friction[TB_GROUP_LANES];
	float biasRate[TB_GROUP_LANES], massScale[TB_GROUP_LANES], impulseScale[TB_GROUP_LANES]; ///< tbSoftness
	float impactSubStep[TB_GROUP_LANES]; ///< tbContactConstraint::impactSubStep (TB_NO_IMPACT: an empty lane)
	tbContactLanePoint* points;			 ///< pointCount of them, right after the previous group's
} tbContactLanes;

// The lane instances (contact_lanes.h) -------------------------------------------------------------

#include "lanes_w4.h"
#include "contact_lanes.h"

#if TB_X86
#include "lanes_w8.h"
#include "contact_lanes.h"
#endif

// Packing -------------------------------------------------------------------------------------------

static void tbSetLaneVec3( float ( *lanes )[TB_GROUP_LANES], int l, tbVec3 v )
{
	lanes[0][l] = v.x;
	lanes[1][l] = v.y;
	lanes[2][l] = v.z;
}

// Lane l of a matrix's columns cx, cy, cz (tbLanes8MulColumns).
static void tbSetLaneColumns( float ( *lanes )[TB_GROUP_LANES], int l, const tbMat3* m )
{
	tbSetLaneVec3( lanes + 0, l, m->cx );
	tbSetLaneVec3( lanes + 3, l, m->cy );
	tbSetLaneVec3( lanes + 6, l, m->cz );
}

// Lane l of a point: the constraint's point, or zeros (no impulse) where it has none. Its rows
// are built after (BuildContactRows).
static void tbSetLanePoint( tbContactLanePoint* lp, int l, const tbContactConstraintPoint* cp )
{
	static const tbContactConstraintPoint none = { 0 };
	if ( cp == NULL )
	{
		cp = &none;
	}
	tbSetLaneVec3( lp->rA, l, cp->rA );
	tbSetLaneVec3( lp->rB, l, cp->rB );
	lp->adjustedSeparation[l] = cp->adjustedSeparation;
	lp->separation0[l] = cp->separation0;
	lp->normalImpulse[l] = cp->normalImpulse;
	lp->tangentImpulse1[l] = cp->tangentImpulse[0];
	lp->tangentImpulse2[l] = cp->tangentImpulse[1];
	lp->maxNormalImpulse[l] = cp->maxNormalImpulse;
	lp->stepNormalImpulse[l] = cp->stepNormalImpulse;
}

// Lanes [0, count) take the constraints order[0 .. count); the rest are empty: the static slot on
// both sides, no mass.
static void tbPackContactGroup( tbStepContext* ctx, tbContactLanes* g, const int* order, int count, bool avx2 )
{
	float* staticRow = (float*)( ctx->states + ctx->bodyCount );
	// Each side's inverse inertia by columns and each lane's point count, for the rows.
	float invIA[9][TB_GROUP_LANES] = { { 0 } }, invIB[9][TB_GROUP_LANES] = { { 0 } };
	float points[TB_GROUP_LANES] = { 0 };
	g->halfPointCount[0] = 0;
	g->halfPointCount[1] = 0;
	for ( int l = 0; l < TB_GROUP_LANES; ++l )
	{
		const tbContactConstraint* c = l < count ? ctx->contacts + order[l] : NULL;
		g->constraintIndex[l] = c != NULL ? order[l] : -1;
		g->readA[l] = staticRow;
		g->readB[l] = staticRow;
		g->writeA[l] = g->sink;
		g->writeB[l] = g->sink;
		if ( c == NULL )
		{
			g->invMassA[l] = g->invMassB[l] = 0.0f;
			tbSetLaneVec3( g->normal, l, tb_vec3_zero );
			tbSetLaneVec3( g->tangent1, l, tb_vec3_zero );
			tbSetLaneVec3( g->tangent2, l, tb_vec3_zero );
			g->friction[l] = g->biasRate[l] = g->impulseScale[l] = 0.0f;
			g->impactSubStep[l] = (float)TB_NO_IMPACT;
			g->massScale[l] = 1.0f;
			continue;
		}
		if ( c->indexA >= 0 )
		{
			g->readA[l] = (float*)( ctx->states + c->indexA );
			g->writeA[l] = tbIsMovingBody( ctx, c->indexA ) ? g->readA[l] : g->sink;
		}
		if ( c->indexB >= 0 )
		{
			g->readB[l] = (float*)( ctx->states + c->indexB );
			g->writeB[l] = tbIsMovingBody( ctx, c->indexB ) ? g->readB[l] : g->sink;
		}
		int* half = g->halfPointCount + l / 4;
		*half = c->pointCount > *half ? c->pointCount : *half;
		points[l] = (float)c->pointCount;
		tbSetLaneColumns( invIA, l, &tbGetSolverBody( ctx, c->indexA )->invInertia );
		tbSetLaneColumns( invIB, l, &tbGetSolverBody( ctx, c->indexB )->invInertia );
		g->invMassA[l] = c->invMassA;
		g->invMassB[l] = c->invMassB;
		tbSetLaneVec3( g->normal, l, c->normal );
		tbSetLaneVec3( g->tangent1, l, c->tangent1 );
		tbSetLaneVec3( g->tangent2, l, c->tangent2 );
		g->friction[l] = c->friction;
		g->biasRate[l] = c->softness.biasRate;
		g->massScale[l] = c->softness.massScale;
		g->impulseScale[l] = c->softness.impulseScale;
		g->impactSubStep[l] = (float)c->impactSubStep;
	}
	g->pointCount = tbMaxInt( g->halfPointCount[0], g->halfPointCount[1] );
	for ( int p = 0; p < g->pointCount; ++p )
	{
		for ( int l = 0; l < TB_GROUP_LANES; ++l )
		{
			const tbContactConstraint* c = l < count ? ctx->contacts + order[l] : NULL;
			tbSetLanePoint( g->points + p, l, c != NULL && p < c->pointCount ? c->points + p : NULL );
		}
	}
#if TB_X86
	if ( avx2 )
	{
		tbLanes8BuildContactRows( g, 0, invIA, invIB, points );
		return;
	}
#endif
	TB_UNUSED( avx2 );
	tbLanes4BuildContactRows( g, 0, invIA, invIB, points );
	tbLanes4BuildContactRows( g, 4, invIA, invIB, points );
}

typedef struct tbPackTask
{
	tbStepContext* ctx;
	bool unpack;
	bool avx2;
} tbPackTask;

// Group i belongs to the colour whose group range holds it; its lanes are the colour's
// constraints 8 (i - first group) onwards.
static void tbPackBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	tbPackTask* task = context;
	tbStepContext* ctx = task->ctx;
	const tbConstraintGraph* graph = &ctx->graph;
	int color = 0;
	for ( int i = start; i < end; ++i )
	{
		tbContactLanes* g = ctx->contactLanes + i;
		if ( task->unpack )
		{
			for ( int l = 0; l < TB_GROUP_LANES; ++l )
			{
				if ( g->constraintIndex[l] < 0 )
				{
					continue;
				}
				tbContactConstraint* c = ctx->contacts + g->constraintIndex[l];
				for ( int p = 0; p < c->pointCount; ++p )
				{
					const tbContactLanePoint* lp = g->points + p;
					c->points[p].normalImpulse = lp->normalImpulse[l];
					c->points[p].tangentImpulse[0] = lp->tangentImpulse1[l];
					c->points[p].tangentImpulse[1] = lp->tangentImpulse2[l];
					c->points[p].maxNormalImpulse = lp->maxNormalImpulse[l];
					c->points[p].stepNormalImpulse = lp->stepNormalImpulse[l];
				}
			}
			continue;
		}
		while ( i >= ctx->contactLaneStarts[color + 1] )
		{
			color += 1;
		}
		int offset = TB_GROUP_LANES * ( i - ctx->contactLaneStarts[color] );
		int count = graph->colorStarts[color + 1] - graph->colorStarts[color] - offset;
		tbPackContactGroup( ctx, g, graph->order + graph->colorStarts[color] + offset, tbMinInt( count, TB_GROUP_LANES ),
							task->avx2 );
	}
}

/// Lane groups per parallel-for block (fixed: results must not depend on the thread count).
#define TB_CONTACT_GROUP_BLOCK_SIZE 2

// Each colour's constraints in order of point count, fewest first, the order otherwise kept. A group
// solves as many points as its fullest lane has, so a colour of mixed manifolds (rain: four in five
// are one sphere point, the rest up to four box points) packed as it comes leaves most lanes
// solving padding. The constraints of one colour share no moving body, so their order changes no
// result.
static bool tbSortColorsByPoints( tbStepContext* ctx )
{
	tbConstraintGraph* graph = &ctx->graph;
	int n = graph->colorStarts[TB_GRAPH_COLOR_COUNT];
	int* sorted = TB_ARENA_ARRAY_RAW( ctx->arena, int, n > 0 ? n : 1 );
	if ( sorted == NULL )
	{
		return false;
	}
	for ( int color = 0; color < TB_GRAPH_COLOR_COUNT; ++color )
	{
		int start = graph->colorStarts[color], end = graph->colorStarts[color + 1];
		int fill[TB_MAX_MANIFOLD_POINTS + 2] = { 0 };
		for ( int k = start; k < end; ++k )
		{
			fill[ctx->contacts[graph->order[k]].pointCount + 1] += 1;
		}
		fill[0] = start;
		for ( int p = 1; p <= TB_MAX_MANIFOLD_POINTS + 1; ++p )
		{
			fill[p] += fill[p - 1];
		}
		for ( int k = start; k < end; ++k )
		{
			sorted[fill[ctx->contacts[graph->order[k]].pointCount]++] = graph->order[k];
		}
	}
	memcpy( graph->order, sorted, sizeof( int ) * (size_t)n );
	return true;
}

// The points every lane group needs, as many as its fullest lane has (its last: each colour is
// sorted by point count), in group order. With points not NULL, each group's points are set to
// follow the previous group's from there.
static int tbPlaceGroupPoints( tbStepContext* ctx, tbContactLanePoint* points )
{
	const tbConstraintGraph* graph = &ctx->graph;
	int total = 0;
	int group = 0;
	for ( int color = 0; color < TB_GRAPH_COLOR_COUNT; ++color )
	{
		int start = graph->colorStarts[color], end = graph->colorStarts[color + 1];
		for ( int k = start; k < end; k += TB_GROUP_LANES )
		{
			if ( points != NULL )
			{
				ctx->contactLanes[group].points = points + total;
			}
			group += 1;
			int last = tbMinInt( k + TB_GROUP_LANES, end ) - 1;
			total += ctx->contacts[graph->order[last]].pointCount;
		}
	}
	return total;
}

bool tbPackWideContacts( tbStepContext* ctx )
{
	if ( tbSortColorsByPoints( ctx ) == false )
	{
		return false;
	}
	int total = 0;
	for ( int color = 0; color < TB_GRAPH_COLOR_COUNT; ++color )
	{
		ctx->contactLaneStarts[color] = total;
		total += tbBlockCount( ctx->graph.colorStarts[color + 1] - ctx->graph.colorStarts[color], TB_GROUP_LANES );
	}
	ctx->contactLaneStarts[TB_GRAPH_COLOR_COUNT] = total;
	// Not zeroed: the packing writes every lane of the points up to a group's point count.
	ctx->contactLanes = TB_ARENA_ARRAY_RAW( ctx->arena, tbContactLanes, total > 0 ? total : 1 );
	if ( ctx->contactLanes == NULL )
	{
		return false;
	}
	// A group's points follow the previous group's (tbPlaceGroupPoints), so that a pass reads the
	// groups' headers and their points as two unbroken streams the hardware prefetches. Groups
	// holding room for four points (6.6 KiB) put most of a pile's one-point groups a page apart:
	// rain ran 6 % slower.
	int pointTotal = tbPlaceGroupPoints( ctx, NULL );
	// One point more, to start on a cache line: a point is 1696 bytes, so every lane array of
	// every point then starts on 32 bytes and no 8-lane load splits a line.
	char* bytes = tbArenaAllocRaw( ctx->arena, sizeof( tbContactLanePoint ) * (size_t)( pointTotal + 1 ) );
	if ( bytes == NULL )
	{
		return false;
	}
	tbPlaceGroupPoints( ctx, (tbContactLanePoint*)( bytes + ( ( 64 - ( (uintptr_t)bytes & 63 ) ) & 63 ) ) );
	tbPackTask task = { ctx, false, tbGetSimdLevel() == tbSimd_avx2 };
	tbParallelFor( ctx->jobs, total, TB_CONTACT_GROUP_BLOCK_SIZE, tbPackBlock, &task );
	return true;
}

void tbUnpackWideContacts( tbStepContext* ctx )
{
	tbPackTask task = { ctx, true, false };
	tbParallelFor( ctx->jobs, ctx->contactLaneStarts[TB_GRAPH_COLOR_COUNT], TB_CONTACT_GROUP_BLOCK_SIZE, tbPackBlock, &task );
}

// Passes ---------------------------------------------------------------------------------------------

typedef struct tbLaneTask
{
	tbStepContext* ctx;
	tbContactLanes* groups; ///< the colour's first group
	bool warmStart;
	bool useBias;
	bool reverse;
	bool avx2;
} tbLaneTask;

static void tbLaneBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	const tbLaneTask* task = context;
#if TB_X86
	if ( task->avx2 )
	{
		tbLanes8RunContactStage( task->ctx, task->groups, start, end, task->warmStart, task->useBias, task->reverse );
		return;
	}
#endif
	tbLanes4RunContactStage( task->ctx, task->groups, start, end, task->warmStart, task->useBias, task->reverse );
}

void tbRunWideContacts( tbStepContext* ctx, int color, bool warmStart, bool useBias, bool reverse )
{
	int first = ctx->contactLaneStarts[color];
	int count = ctx->contactLaneStarts[color + 1] - first;
	if ( count == 0 )
	{
		return;
	}
	tbLaneTask task = { ctx, ctx->contactLanes + first, warmStart, useBias, reverse, tbGetSimdLevel() == tbSimd_avx2 };
	tbParallelFor( ctx->jobs, count, TB_CONTACT_GROUP_BLOCK_SIZE, tbLaneBlock, &task );
}
