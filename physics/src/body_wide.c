// Tumble physics: the bodies' integration in SIMD lanes.
//
// Every sub-step integrates every awake body twice (velocities, then positions), and with the
// joints and contacts in lanes that scalar loop was a sixth of a ragdoll step. The solver bodies
// are taken eight at a time in solver order (tbBodyLanes) and integrated one per lane, 8 lanes at
// a time with AVX2 or two halves of 4 with SSE2 (tbGetSimdLevel), with the scalar step's
// operations in its order (body_lanes.h), so the results are the same bit for bit. A group whose
// bodies need what the lanes leave out (kinematic motion, fixed rotation, an applied torque, the
// gyroscopic sub-step, a non-diagonal inertia that turns) takes the scalar step body by body.
// SPDX-License-Identifier: MIT
#include "body_wide.h"

#include "core.h"
#include "lanes.h"
#include "world.h"

typedef struct tbBodyLanes
{
	float* rows[TB_GROUP_LANES];	  ///< each lane's tbBodyState; the group's sink for lanes past the last body
	tbMat3* inertia[TB_GROUP_LANES]; ///< where a lane's turned inverse inertia goes; NULL: it does not turn
	float deltaV[3][TB_GROUP_LANES];
	float linearDamping[TB_GROUP_LANES], angularDamping[TB_GROUP_LANES];
	float q0[4][TB_GROUP_LANES];
	float invLocal[3][TB_GROUP_LANES]; ///< the diagonal of the inverse local inertia
	int start, count;				  ///< the group's solver bodies
	bool wideVelocities;			  ///< the lanes integrate the velocities (but for the gyroscopic sub-step)
	bool widePositions;				  ///< the lanes integrate the positions
	bool anyGyroscopic;
	bool anyTurns;
	tbBodyState sink; ///< zero velocity and motion: what the empty lanes read and write
} tbBodyLanes;

#include "lanes_w4.h"
#include "body_lanes.h"

#if TB_X86
#include "lanes_w8.h"
#include "body_lanes.h"
#endif

bool tbPackBodyLanes( tbStepContext* ctx )
{
	int groupCount = tbBlockCount( ctx->bodyCount, TB_GROUP_LANES );
	ctx->bodyLaneCount = groupCount;
	ctx->bodyLanes = TB_ARENA_ARRAY_RAW( ctx->arena, tbBodyLanes, groupCount > 0 ? groupCount : 1 );
	if ( ctx->bodyLanes == NULL )
	{
		return false;
	}
	for ( int gi = 0; gi < groupCount; ++gi )
	{
		tbBodyLanes* g = ctx->bodyLanes + gi;
		g->start = gi * TB_GROUP_LANES;
		g->count = tbMinInt( TB_GROUP_LANES, ctx->bodyCount - g->start );
		g->wideVelocities = true;
		g->widePositions = true;
		g->anyGyroscopic = false;
		g->anyTurns = false;
		memset( &g->sink, 0, sizeof( g->sink ) );
		g->sink.dq = tb_quatIdentity;
		for ( int l = 0; l < TB_GROUP_LANES; ++l )
		{
			const bool body = l < g->count;
			const tbSolverBody* sb = ctx->bodies + ( body ? g->start + l : ctx->bodyCount );
			g->rows[l] = body ? (float*)( ctx->states + g->start + l ) : (float*)&g->sink;
			g->inertia[l] = body && sb->turnsInertia ? &ctx->bodies[g->start + l].invInertia : NULL;
			g->deltaV[0][l] = body ? sb->deltaV.x : 0.0f;
			g->deltaV[1][l] = body ? sb->deltaV.y : 0.0f;
			g->deltaV[2][l] = body ? sb->deltaV.z : 0.0f;
			g->linearDamping[l] = body ? sb->linearDamping : 1.0f;
			g->angularDamping[l] = body ? sb->angularDamping : 1.0f;
			g->q0[0][l] = sb->q0.x;
			g->q0[1][l] = sb->q0.y;
			g->q0[2][l] = sb->q0.z;
			g->q0[3][l] = sb->q0.w;
			g->invLocal[0][l] = sb->invLocalInertia.cx.x;
			g->invLocal[1][l] = sb->invLocalInertia.cy.y;
			g->invLocal[2][l] = sb->invLocalInertia.cz.z;
			if ( body == false )
			{
				continue;
			}
			g->wideVelocities = g->wideVelocities && sb->isKinematic == false && sb->fixedRotation == false && sb->hasTorque == false;
			g->widePositions = g->widePositions && sb->isKinematic == false &&
							   ( sb->turnsInertia == false || tbIsDiagonal( sb->invLocalInertia ) );
			g->anyGyroscopic = g->anyGyroscopic || sb->gyroscopic;
			g->anyTurns = g->anyTurns || sb->turnsInertia;
		}
	}
	return true;
}

typedef struct tbBodyLaneTask
{
	tbStepContext* ctx;
	bool positions;
	bool avx2;
} tbBodyLaneTask;

static void tbBodyLaneBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	const tbBodyLaneTask* task = context;
	tbStepContext* ctx = task->ctx;
	for ( int gi = start; gi < end; ++gi )
	{
		tbBodyLanes* g = ctx->bodyLanes + gi;
		bool wide = task->positions ? g->widePositions
									: g->wideVelocities && ( ctx->gyroscopicH == 0.0f || g->anyGyroscopic == false );
		if ( wide == false )
		{
			for ( int i = g->start; i < g->start + g->count; ++i )
			{
				if ( task->positions )
				{
					tbIntegrateBodyPosition( ctx, i );
				}
				else
				{
					tbIntegrateBodyVelocity( ctx, i );
				}
			}
			continue;
		}
#if TB_X86
		if ( task->avx2 )
		{
			if ( task->positions )
			{
				tbLanes8IntegratePositions( ctx, g, 0 );
			}
			else
			{
				tbLanes8IntegrateVelocities( ctx, g, 0 );
			}
			continue;
		}
#endif
		for ( int lane0 = 0; lane0 < TB_GROUP_LANES; lane0 += 4 )
		{
			if ( task->positions )
			{
				tbLanes4IntegratePositions( ctx, g, lane0 );
			}
			else
			{
				tbLanes4IntegrateVelocities( ctx, g, lane0 );
			}
		}
	}
}

/// Groups per parallel-for block (fixed: results must not depend on the thread count).
#define TB_BODY_GROUP_BLOCK_SIZE 8

void tbIntegrateBodyLanes( tbStepContext* ctx, bool positions )
{
	tbBodyLaneTask task = { ctx, positions, tbGetSimdLevel() == tbSimd_avx2 };
	tbParallelFor( ctx->jobs, ctx->bodyLaneCount, TB_BODY_GROUP_BLOCK_SIZE, tbBodyLaneBlock, &task );
}
