// Tumble physics: the wide joint path.
//
// The joints of a colour share no written body, so any of them can be solved side by side. Ball
// joints, hinges without motor or servo and cone joints with cone and twist limits, the joints of
// chains and ragdolls, are packed eight to a group (tbJointLanes, structure of arrays) and solved
// one joint per SIMD lane: 8 lanes at a time with AVX2 on CPUs that have it, 4 with SSE2 otherwise
// (tbSetSimdLevel). The rows are those of the scalar joints, case for case: the point block
// (tbSolvePoint), the hinge's two quaternion rows (tbSolvePreparedAngularBlock), the twist and
// cone limit rows (tbSolveAngularLimit), rebuilt every sub-step from the bodies' motion, with the
// same correction clamp and the same bounds on what a pass asks for. What differs is that the
// point block's effective mass is formed and inverted in float, where the scalar rows use double
// (tbInvertPointMass, finding 34): a joint enters the lanes only when its point block is well
// conditioned (tbIsWideJoint), and the rest stay on the scalar rows with the joint types the lanes
// do not cover.
// Per joint a group holds 373 bytes: the definition the step needs, the sub-step's rows and the
// accumulated impulses, which tbUnpackWideJoints writes back into the joint records.
// SPDX-License-Identifier: MIT
#include "joint_wide.h"

#include "core.h"
#include "joint.h"
#include "world.h"

#include "lanes.h"

#include <string.h>

#define TB_JOINT_LANES TB_GROUP_LANES

typedef struct tbJointLanes
{
	// What every pass reads, together: the bodies' rows, the masses and the sub-step's rows of the
	// point block and the hinge. A pass over the chains' 2000 joints then reads about 175 bytes a
	// joint (with the isotropic inertias), with the bodies' rows near the size of a 512 KiB L2
	// cache (docs/SOLVER.md, "Joint lanes, second round"); the definition and the limits' rows
	// follow apart.

	/// Each side's tbBodyState as floats: v, w where the lanes read them (the static slot for the
	/// world, static and sleeping bodies), and where they write them back: the same for awake
	/// dynamic sides, the group's sink for the sides the joint only reads.
	float* readA[TB_JOINT_LANES];
	float* readB[TB_JOINT_LANES];
	float* writeA[TB_JOINT_LANES];
	float* writeB[TB_JOINT_LANES];
	/// Which rows the group's lanes have: a group skips the rows none of its lanes has (the packing
	/// puts joints of one kind together).
	bool anyHinge, anyTwist, anyCone;
	/// Per half of 4 lanes (index 0 alone for 8 lanes): every side's inverse inertia is s 1, set by
	/// the refresh.
	bool isotropic[2];
	/// No written side's inverse inertia turns in the step (isotropic or fixed-rotation bodies), so
	/// the inverse inertias the first refresh of a half gathered (inertiaStored) hold for the step.
	bool inertiaFixed;
	bool inertiaStored[2];
	float mA[TB_JOINT_LANES], mB[TB_JOINT_LANES]; ///< inverse masses, 0 for sides the joint does not move
	/// Inverse inertias, component k (xx xy xz yy yz zz) of side A then B: the isotropic lanes'
	/// xx of both sides share a cache line.
	float invI[6][2][TB_JOINT_LANES];
	float rA[3][TB_JOINT_LANES], rB[3][TB_JOINT_LANES]; ///< lever arms
	float d[3][TB_JOINT_LANES];							///< anchor B - anchor A
	float pointInvK[6][TB_JOINT_LANES];
	float linearImpulse[3][TB_JOINT_LANES];
	float C[2][TB_JOINT_LANES]; ///< hinge errors qRel.y, qRel.z
	float axis0[3][TB_JOINT_LANES], axis1[3][TB_JOINT_LANES];
	float angularInvK[3][TB_JOINT_LANES]; ///< 00 01 11
	float angularImpulse[2][TB_JOINT_LANES];

	// The limits' rows.
	float twist[TB_JOINT_LANES], swing[TB_JOINT_LANES]; ///< angles of the last pose measured, rad
	float lower[TB_JOINT_LANES], upper[TB_JOINT_LANES]; ///< twist range, rad
	float coneAngle[TB_JOINT_LANES];					///< rad
	float twistAxis[3][TB_JOINT_LANES], swingAxis[3][TB_JOINT_LANES]; ///< swingAxis: towards less swing
	float twistMass[TB_JOINT_LANES], swingMass[TB_JOINT_LANES];
	float lowerImpulse[TB_JOINT_LANES], upperImpulse[TB_JOINT_LANES], coneImpulse[TB_JOINT_LANES];

	// What the refresh and the packing read: the definition the step needs.
	float sink[8];
	int jointIds[TB_JOINT_LANES]; ///< -1: an empty lane (no mass, never written)
	int indexA[TB_JOINT_LANES];	  ///< solver state index; the static slot for the world, static or asleep bodies
	int indexB[TB_JOINT_LANES];
	float hinge[TB_JOINT_LANES];	  ///< 1: the hinge's two quaternion rows
	float twistLimit[TB_JOINT_LANES]; ///< 1: twist limit rows (a hinge's angle limit, a cone's twist range)
	float coneLimit[TB_JOINT_LANES];  ///< 1: the cone limit row
	float anchorA[3][TB_JOINT_LANES]; ///< centre to anchor at the start of the step (tbJointSide.anchor0)
	float anchorB[3][TB_JOINT_LANES];
	float frameA[4][TB_JOINT_LANES]; ///< joint frame at the start of the step, x y z w
	float frameB[4][TB_JOINT_LANES];
	float deltaCenter[3][TB_JOINT_LANES];
} tbJointLanes;

// The lane instances (joint_lanes.h) ---------------------------------------------------------------

#include "lanes_w4.h"
#include "joint_lanes.h"

#if TB_X86
#include "lanes_w8.h"
#include "joint_lanes.h"
#endif

// The SIMD level ----------------------------------------------------------------------------------

static bool tbCpuHasAvx2( void )
{
#if TB_X86
	return __builtin_cpu_supports( "avx2" ) && __builtin_cpu_supports( "fma" );
#else
	return false;
#endif
}

static tbSimdLevel s_simdLevel = tbSimd_auto;

tbSimdLevel tbSetSimdLevel( tbSimdLevel level )
{
	if ( level == tbSimd_none )
	{
		s_simdLevel = tbSimd_none;
	}
	else
	{
		s_simdLevel = ( level == tbSimd_avx2 || level == tbSimd_auto ) && tbCpuHasAvx2() ? tbSimd_avx2 : tbSimd_sse2;
	}
	return s_simdLevel;
}

// Reads only: worlds stepping on several threads at once all call it.
tbSimdLevel tbGetSimdLevel( void )
{
	if ( s_simdLevel == tbSimd_auto )
	{
		return tbCpuHasAvx2() ? tbSimd_avx2 : tbSimd_sse2;
	}
	return s_simdLevel;
}

// Packing -----------------------------------------------------------------------------------------

// The joints the lanes take: ball joints, hinges without motor or servo, cone joints with cone and
// twist limits (not the pyramid limit, not a locked twist). Breakable joints track their peak
// reaction per sub-step and stay scalar. The point block's K = (mA + mB) E + angular
// terms ~ |r|^2 |I^-1| is inverted in float, which keeps about 7 digits: a ratio of angular to
// linear terms up to 1e4 (a lever arm 30 times the body's radius of gyration) leaves 3 of them,
// plenty for a Gauss-Seidel pass; past it the scalar rows' double inverse is needed (finding 34's
// lever had 1e9). The inverse masses are held within 1e-9..1e9 so that K's cofactors (cubes of
// its entries) stay inside float range. The lever arms keep their length through the step; the
// inertia norm bounds every rotation of it.
static bool tbIsWideJoint( const tbJoint* joint )
{
	if ( tbGetSimdLevel() == tbSimd_none )
	{
		return false;
	}
	if ( joint->breakForce < FLT_MAX || joint->breakTorque < FLT_MAX )
	{
		return false;
	}
	switch ( joint->type )
	{
		case tbJoint_ball:
			break;
		case tbJoint_hinge:
			if ( joint->hinge.enableMotor || joint->hinge.enableServo )
			{
				return false;
			}
			break;
		case tbJoint_cone: {
			const tbConeJointData* c = &joint->cone;
			if ( c->enablePyramidLimit || tbIsConeTwistLocked( c ) )
			{
				return false;
			}
			break;
		}
		default:
			return false;
	}
	float mSum = joint->sideA.invMass + joint->sideB.invMass;
	if ( !( mSum >= 1.0e-9f && mSum <= 1.0e9f ) )
	{
		return false;
	}
	float angular = tbLengthSquared( joint->sideA.anchor0 ) * tbMaxRowSum( joint->sideA.invI ) +
					tbLengthSquared( joint->sideB.anchor0 ) * tbMaxRowSum( joint->sideB.invI );
	return angular <= 1.0e4f * mSum;
}

static void tbFillLane( tbStepContext* ctx, tbJointLanes* g, int l, const tbJoint* joint )
{
	const tbJointSide* sides[2] = { &joint->sideA, &joint->sideB };
	g->jointIds[l] = joint->id;
	for ( int s = 0; s < 2; ++s )
	{
		const tbJointSide* side = sides[s];
		int index = side->solverIndex >= 0 ? side->solverIndex : ctx->bodyCount;
		bool write = side->solverIndex >= 0 && side->invMass > 0.0f;
		float( *anchor )[TB_JOINT_LANES] = s == 0 ? g->anchorA : g->anchorB;
		float( *frame )[TB_JOINT_LANES] = s == 0 ? g->frameA : g->frameB;
		float* row = (float*)( ctx->states + index );
		*( s == 0 ? &g->indexA[l] : &g->indexB[l] ) = index;
		*( s == 0 ? &g->readA[l] : &g->readB[l] ) = row;
		*( s == 0 ? &g->writeA[l] : &g->writeB[l] ) = write ? row : g->sink;
		*( s == 0 ? &g->mA[l] : &g->mB[l] ) = side->invMass;
		g->inertiaFixed = g->inertiaFixed && ( write == false || ctx->bodies[index].turnsInertia == false );
		anchor[0][l] = side->anchor0.x;
		anchor[1][l] = side->anchor0.y;
		anchor[2][l] = side->anchor0.z;
		frame[0][l] = side->frame0.x;
		frame[1][l] = side->frame0.y;
		frame[2][l] = side->frame0.z;
		frame[3][l] = side->frame0.w;
	}
	g->deltaCenter[0][l] = joint->deltaCenter.x;
	g->deltaCenter[1][l] = joint->deltaCenter.y;
	g->deltaCenter[2][l] = joint->deltaCenter.z;
	// The rows of the kinds the lane is not: zero (the group's memory is not cleared).
	g->hinge[l] = 0.0f;
	g->twistLimit[l] = 0.0f;
	g->coneLimit[l] = 0.0f;
	g->lower[l] = g->upper[l] = g->coneAngle[l] = 0.0f;
	g->angularImpulse[0][l] = g->angularImpulse[1][l] = 0.0f;
	g->lowerImpulse[l] = g->upperImpulse[l] = g->coneImpulse[l] = 0.0f;
	tbVec3 linear = tb_vec3_zero;
	switch ( joint->type )
	{
		case tbJoint_hinge: {
			const tbHingeJointData* h = &joint->hinge;
			linear = h->linearImpulse;
			g->hinge[l] = 1.0f;
			g->angularImpulse[0][l] = h->angularImpulse[0];
			g->angularImpulse[1][l] = h->angularImpulse[1];
			g->twistLimit[l] = h->enableLimit ? 1.0f : 0.0f;
			g->lower[l] = h->lowerAngle;
			g->upper[l] = h->upperAngle;
			g->lowerImpulse[l] = h->lowerImpulse;
			g->upperImpulse[l] = h->upperImpulse;
			g->anyHinge = true;
			g->anyTwist = g->anyTwist || h->enableLimit;
			break;
		}
		case tbJoint_cone: {
			const tbConeJointData* c = &joint->cone;
			linear = c->linearImpulse;
			g->twistLimit[l] = c->enableTwistLimit ? 1.0f : 0.0f;
			g->lower[l] = c->lowerTwist;
			g->upper[l] = c->upperTwist;
			g->lowerImpulse[l] = c->twistLowerImpulse;
			g->upperImpulse[l] = c->twistUpperImpulse;
			g->coneLimit[l] = c->enableConeLimit ? 1.0f : 0.0f;
			g->coneAngle[l] = c->coneAngle;
			g->coneImpulse[l] = c->coneImpulse;
			g->anyTwist = g->anyTwist || c->enableTwistLimit;
			g->anyCone = g->anyCone || c->enableConeLimit;
			break;
		}
		default:
			linear = joint->ball.linearImpulse;
			break;
	}
	g->linearImpulse[0][l] = linear.x;
	g->linearImpulse[1][l] = linear.y;
	g->linearImpulse[2][l] = linear.z;
}

// An empty lane: the static slot on both sides, no mass, identity frames (finite rows that apply
// nothing).
static void tbFillEmptyLane( tbStepContext* ctx, tbJointLanes* g, int l )
{
	g->jointIds[l] = -1;
	g->indexA[l] = ctx->bodyCount;
	g->indexB[l] = ctx->bodyCount;
	g->readA[l] = (float*)( ctx->states + ctx->bodyCount );
	g->readB[l] = g->readA[l];
	g->writeA[l] = g->sink;
	g->writeB[l] = g->sink;
	g->frameA[3][l] = 1.0f;
	g->frameB[3][l] = 1.0f;
}

typedef struct tbWideTask
{
	tbStepContext* ctx;
	tbJointLanes* groups; ///< the colour's first group
	tbWideJointStage stage;
	tbSoftness soft;
	bool measure;
	bool avx2;
} tbWideTask;

static void tbWideStageBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	const tbWideTask* task = context;
#if TB_X86
	if ( task->avx2 )
	{
		tbLanes8RunStage( task->ctx, task->groups, start, end, task->stage, task->soft, task->measure );
		return;
	}
#endif
	tbLanes4RunStage( task->ctx, task->groups, start, end, task->stage, task->soft, task->measure );
}

/// Groups per parallel-for block (fixed: results must not depend on the thread count).
#define TB_LANE_GROUP_BLOCK_SIZE 4

static void tbRunWideGroups( tbStepContext* ctx, int first, int count, tbWideJointStage stage, tbSoftness soft,
							 bool measure )
{
	if ( count == 0 )
	{
		return;
	}
	tbWideTask task = { ctx, ctx->jointLanes + first, stage, soft, measure, tbGetSimdLevel() == tbSimd_avx2 };
	tbParallelFor( ctx->jobs, count, TB_LANE_GROUP_BLOCK_SIZE, tbWideStageBlock, &task );
}

// Lane kinds, which have different rows: point (and hinge) rows only, twist limits, cone limits;
// and the joints that stay scalar, after them.
enum
{
	tbLaneKind_point,
	tbLaneKind_twist,
	tbLaneKind_cone,
	tbLaneKind_scalar,
	tbLaneKind_count,
};

uint8_t tbWideJointKind( const tbJoint* joint )
{
	if ( tbIsWideJoint( joint ) == false )
	{
		return tbLaneKind_scalar;
	}
	if ( joint->type == tbJoint_cone )
	{
		return tbLaneKind_cone;
	}
	return joint->type == tbJoint_hinge && joint->hinge.enableLimit ? tbLaneKind_twist : tbLaneKind_point;
}

bool tbSortWideJoints( tbStepContext* ctx, const uint8_t* kindOf )
{
	int count = ctx->jointCount;
	int* order = TB_ARENA_ARRAY_RAW( ctx->arena, int, count > 0 ? count : 1 );
	uint8_t* kinds = TB_ARENA_ARRAY_RAW( ctx->arena, uint8_t, count > 0 ? count : 1 );
	if ( order == NULL || kinds == NULL )
	{
		return false;
	}
	int groupCount = 0;
	for ( int color = 0; color <= TB_JOINT_COLOR_COUNT; ++color )
	{
		int start = ctx->jointColorStarts[color];
		int end = ctx->jointColorStarts[color + 1];
		for ( int i = start; i < end; ++i )
		{
			// The overflow set shares bodies between its joints: it stays serial and scalar.
			kinds[i] = color < TB_JOINT_COLOR_COUNT ? kindOf[i] : tbLaneKind_scalar;
		}
		// The lanes' joints first, by kind, so that a group has the rows of one kind; the scalar ones
		// after them; each part in its old order. Within a colour the order changes nothing: its
		// joints touch disjoint bodies.
		int k = start;
		for ( int kind = 0; kind < tbLaneKind_count; ++kind )
		{
			if ( kind == tbLaneKind_scalar )
			{
				ctx->jointScalarStarts[color] = k;
			}
			for ( int i = start; i < end; ++i )
			{
				if ( kinds[i] == kind )
				{
					order[k++] = ctx->jointIds[i];
				}
			}
		}
		memcpy( ctx->jointIds + start, order + start, sizeof( int ) * (size_t)( end - start ) );
		int n = ctx->jointScalarStarts[color] - start;
		ctx->jointLaneStarts[color] = groupCount;
		groupCount += ( n + TB_JOINT_LANES - 1 ) / TB_JOINT_LANES;
	}
	ctx->jointLaneStarts[TB_JOINT_COLOR_COUNT + 1] = groupCount;
	return true;
}

bool tbPackWideJoints( tbStepContext* ctx )
{
	tbWorld* world = ctx->world;
	int groupCount = ctx->jointLaneStarts[TB_JOINT_COLOR_COUNT + 1];
	// Not cleared by the arena: every lane's definition and impulses are written below, and a
	// group's sub-step rows are built before they are read (those of a kind no lane has are never
	// read). A group with empty lanes is cleared whole, so they hold zeros.
	ctx->jointLanes = TB_ARENA_ARRAY_RAW( ctx->arena, tbJointLanes, groupCount > 0 ? groupCount : 1 );
	if ( ctx->jointLanes == NULL )
	{
		return false;
	}

	for ( int color = 0; color < TB_JOINT_COLOR_COUNT; ++color )
	{
		int start = ctx->jointColorStarts[color];
		int n = ctx->jointScalarStarts[color] - start;
		tbJointLanes* groups = ctx->jointLanes + ctx->jointLaneStarts[color];
		for ( int i = 0; i < ( n + TB_JOINT_LANES - 1 ) / TB_JOINT_LANES * TB_JOINT_LANES; ++i )
		{
			tbJointLanes* g = groups + i / TB_JOINT_LANES;
			if ( i % TB_JOINT_LANES == 0 )
			{
				if ( n - i < TB_JOINT_LANES )
				{
					memset( g, 0, sizeof( *g ) );
				}
				g->anyHinge = g->anyTwist = g->anyCone = false;
				g->inertiaFixed = true;
				g->inertiaStored[0] = g->inertiaStored[1] = false;
			}
			if ( i < n )
			{
				tbFillLane( ctx, g, i % TB_JOINT_LANES, world->joints.data + ctx->jointIds[start + i] );
			}
			else
			{
				tbFillEmptyLane( ctx, g, i % TB_JOINT_LANES );
			}
		}
	}
	tbSoftness none = { 0.0f, 1.0f, 0.0f };
	tbRunWideGroups( ctx, 0, groupCount, tbWideJointStage_refresh, none, false );
	return true;
}

void tbRunWideJoints( tbStepContext* ctx, int color, tbWideJointStage stage, tbSoftness soft, bool measure )
{
	int first = ctx->jointLaneStarts[color];
	tbRunWideGroups( ctx, first, ctx->jointLaneStarts[color + 1] - first, stage, soft, measure );
}

void tbUnpackWideJoints( tbStepContext* ctx )
{
	tbWorld* world = ctx->world;
	int groupCount = ctx->jointLaneStarts[TB_JOINT_COLOR_COUNT + 1];
	for ( int i = 0; i < groupCount; ++i )
	{
		const tbJointLanes* g = ctx->jointLanes + i;
		for ( int l = 0; l < TB_JOINT_LANES; ++l )
		{
			if ( g->jointIds[l] < 0 )
			{
				continue;
			}
			tbJoint* joint = world->joints.data + g->jointIds[l];
			tbVec3 linear = { g->linearImpulse[0][l], g->linearImpulse[1][l], g->linearImpulse[2][l] };
			joint->rA = tbMakeVec3( g->rA[0][l], g->rA[1][l], g->rA[2][l] );
			joint->rB = tbMakeVec3( g->rB[0][l], g->rB[1][l], g->rB[2][l] );
			// The twist and swing rows exist only in groups with lanes of those kinds.
			tbVec3 twistAxis =
				g->anyTwist ? tbMakeVec3( g->twistAxis[0][l], g->twistAxis[1][l], g->twistAxis[2][l] ) : tb_vec3_zero;
			float twistMass = g->anyTwist ? g->twistMass[l] : 0.0f;
			switch ( joint->type )
			{
				case tbJoint_hinge: {
					tbHingeJointData* h = &joint->hinge;
					h->linearImpulse = linear;
					h->angularImpulse[0] = g->angularImpulse[0][l];
					h->angularImpulse[1] = g->angularImpulse[1][l];
					h->lowerImpulse = g->lowerImpulse[l];
					h->upperImpulse = g->upperImpulse[l];
					// The reaction (tbHingeAngularImpulse) reads the impulses along the last rows.
					h->block.n = 2;
					h->block.axes[0] = tbMakeVec3( g->axis0[0][l], g->axis0[1][l], g->axis0[2][l] );
					h->block.axes[1] = tbMakeVec3( g->axis1[0][l], g->axis1[1][l], g->axis1[2][l] );
					h->twist.axis = twistAxis;
					h->twist.mass = twistMass;
					break;
				}
				case tbJoint_cone: {
					tbConeJointData* c = &joint->cone;
					c->linearImpulse = linear;
					c->twistLowerImpulse = g->lowerImpulse[l];
					c->twistUpperImpulse = g->upperImpulse[l];
					c->coneImpulse = g->coneImpulse[l];
					c->twist.axis = twistAxis;
					c->twist.mass = twistMass;
					c->swing.axis = g->anyCone
										? tbMakeVec3( g->swingAxis[0][l], g->swingAxis[1][l], g->swingAxis[2][l] )
										: tb_vec3_zero;
					c->swing.mass = g->anyCone ? g->swingMass[l] : 0.0f;
					break;
				}
				default:
					joint->ball.linearImpulse = linear;
					break;
			}
		}
	}
}
