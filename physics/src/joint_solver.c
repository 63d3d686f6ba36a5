// Tumble physics: the joints' part of the step: the sides of every awake joint, the joint graph's
// colours, the stages (prepare, warm start, biased and relax passes) run colour by colour on the
// scalar rows here and on the wide lanes (joint_wide.c), reactions and breaking, and the joint
// poses the rows measure.
// SPDX-License-Identifier: MIT
#include "joint.h"
#include "joint_wide.h"

#include "body.h"
#include "constraint_graph.h"
#include "core.h"
#include "jobs.h"
#include "solver.h"
#include "tumble/tumble.h"
#include "world.h"

#include <float.h>
#include <string.h>

// The book's guard against huge one-step impulses (000 ch. 10.1): a violent collision can leave a
// joint with an accumulated impulse that, replayed as next step's warm start, throws the bodies
// apart. Warm-start impulses are scaled down so that on their own they would not change the
// relative velocity of the two bodies by more than these (and NaN/inf clears them).
#define TB_WARM_START_MAX_SPEED 50.0f		   // m/s
#define TB_WARM_START_MAX_ANGULAR_SPEED 100.0f // rad/s

// Step --------------------------------------------------------------------------------------------

static void tbPrepareJointSide( tbStepContext* ctx, int bodyId, tbTransform localFrame, tbJointSide* side )
{
	if ( bodyId < 0 )
	{
		// The static world: the frame is in world coordinates; put the "centre" on the anchor.
		side->solverIndex = -1;
		side->invMass = 0.0f;
		side->invI = tb_mat3Zero;
		side->center0 = localFrame.p;
		side->anchor0 = tb_vec3_zero;
		side->frame0 = localFrame.q;
		return;
	}
	tbBody* body = ctx->world->bodies.data + bodyId;
	tbQuat q0;
	if ( body->solverIndex >= 0 && body->solverIndex < ctx->bodyCount )
	{
		tbSolverBody* sb = ctx->bodies + body->solverIndex;
		side->solverIndex = body->solverIndex;
		side->invMass = body->type == tbBody_dynamic ? sb->invMass : 0.0f;
		side->invI = body->type == tbBody_dynamic ? sb->invInertia : tb_mat3Zero;
		side->center0 = sb->center0;
		q0 = sb->q0;
	}
	else
	{
		// Static, or asleep this step: it does not move during the step.
		side->solverIndex = -1;
		side->invMass = 0.0f;
		side->invI = tb_mat3Zero;
		side->center0 = body->center;
		q0 = body->transform.q;
	}
	side->anchor0 = tbRotate( q0, tbSub( localFrame.p, body->localCenter ) );
	side->frame0 = tbNormalizeQ( tbMulQQ( q0, localFrame.q ) );
}

// Warm-start guard (000 ch. 10.1) and time-step change: the accumulated impulses are per sub-step,
// so a new sub-step length rescales them; NaN clears them; a replay that alone would change the
// relative velocity by more than TB_WARM_START_MAX_SPEED is scaled down.
static void tbGuardWarmStart( tbStepContext* ctx, tbJoint* joint, const tbJointClass* cls )
{
	if ( ctx->enableWarmStarting == false || joint->impulseH <= 0.0f )
	{
		cls->scaleImpulses( joint, 0.0f );
		return;
	}
	float scale = ctx->h / joint->impulseH;
	tbVec3 linear, angular;
	cls->getReaction( joint, &linear, &angular );
	if ( !tbIsValidVec3( linear ) || !tbIsValidVec3( angular ) )
	{
		cls->scaleImpulses( joint, 0.0f );
		return;
	}
	float invMass = joint->sideA.invMass + joint->sideB.invMass;
	float dv = scale * invMass * tbLength( linear );
	if ( dv > TB_WARM_START_MAX_SPEED )
	{
		scale *= TB_WARM_START_MAX_SPEED / dv;
	}
	float norm = tbMaxRowSum( tbAddMM( joint->sideA.invI, joint->sideB.invI ) );
	float dw = scale * norm * tbLength( angular );
	if ( dw > TB_WARM_START_MAX_ANGULAR_SPEED )
	{
		scale *= TB_WARM_START_MAX_ANGULAR_SPEED / dw;
	}
	if ( scale != 1.0f )
	{
		cls->scaleImpulses( joint, scale );
	}
}

static void tbLoadMotion( tbStepContext* ctx, const tbJoint* joint, tbJointMotion* m );

// The inverse inertia of a side as the solver has it now (it turns the bodies' inertia every
// sub-step).
static void tbRefreshSideInertia( tbStepContext* ctx, tbJointSide* side )
{
	if ( side->solverIndex >= 0 && side->invMass > 0.0f )
	{
		side->invI = ctx->bodies[side->solverIndex].invInertia;
	}
}

// Rebuild the joint's rows for the current sub-step from the loaded motion (joint.h, prepared rows).
static void tbRefreshJoint( tbStepContext* ctx, tbJoint* joint, const tbJointClass* cls, const tbJointMotion* m )
{
	tbRefreshSideInertia( ctx, &joint->sideA );
	tbRefreshSideInertia( ctx, &joint->sideB );
	if ( cls->refresh == NULL )
	{
		return;
	}
	tbComputeJointPose( joint, m, &joint->pose );
	joint->rA = joint->pose.rA;
	joint->rB = joint->pose.rB;
	cls->refresh( ctx, joint, &joint->pose );
}

// Joint graph colouring ---------------------------------------------------------------------------

// A side the solver writes: an awake dynamic body (kinematic and static sides are only read).
static bool tbIsWrittenSide( const tbJointSide* side )
{
	return side->solverIndex >= 0 && side->invMass > 0.0f;
}

// The joints take the contacts' colouring (tbColorConstraints) on their own graph: a joint takes the
// lowest colour free on both of its written bodies. Custom joints call back into user code (a Lua
// state is single-threaded), so they go to the overflow set with the joints that found no colour.
// The graph is the joints' own, not shared with the contacts, because the passes are: a sub-step
// runs three sweeps of every joint colour for one of the contacts', and each sweep must take the
// colours in turn, so a colour's joints and contacts never run in one batch.
static void tbWrittenBodies( const tbJoint* joint, int* written )
{
	if ( joint->type == tbJoint_custom )
	{
		written[0] = written[1] = TB_COLOR_OVERFLOW;
		return;
	}
	written[0] = tbIsWrittenSide( &joint->sideA ) ? joint->sideA.solverIndex : -1;
	written[1] = tbIsWrittenSide( &joint->sideB ) ? joint->sideB.solverIndex : -1;
}

// Colours the joints from their written bodies and puts jointIds, and kinds with them, in colour
// order.
static bool tbColorJoints( tbStepContext* ctx, const int* written, uint8_t* kinds )
{
	int count = ctx->jointCount;
	int* order = TB_ARENA_ARRAY_RAW( ctx->arena, int, count > 0 ? count : 1 );
	int* sortedIds = TB_ARENA_ARRAY_RAW( ctx->arena, int, count > 0 ? count : 1 );
	uint8_t* sortedKinds = TB_ARENA_ARRAY_RAW( ctx->arena, uint8_t, count > 0 ? count : 1 );
	if ( order == NULL || sortedIds == NULL || sortedKinds == NULL ||
		 tbColorConstraints( ctx->arena, written, count, ctx->bodyCount, TB_JOINT_COLOR_COUNT, false, order,
							 ctx->jointColorStarts ) == false )
	{
		return false;
	}
	for ( int i = 0; i < count; ++i )
	{
		sortedIds[i] = ctx->jointIds[order[i]];
		sortedKinds[i] = kinds[order[i]];
	}
	memcpy( ctx->jointIds, sortedIds, sizeof( int ) * (size_t)count );
	memcpy( kinds, sortedKinds, (size_t)count );
	return true;
}

static void tbLoadSide( tbStepContext* ctx, const tbJointSide* side, tbVec3* v, tbVec3* w, tbVec3* dp, tbQuat* dq,
						float* invMass, const tbMat3** invI )
{
	if ( side->solverIndex >= 0 )
	{
		const tbBodyState* s = ctx->states + side->solverIndex;
		*v = s->v;
		*w = s->w;
		*dp = s->dp;
		*dq = s->dq;
	}
	else
	{
		*v = tb_vec3_zero;
		*w = tb_vec3_zero;
		*dp = tb_vec3_zero;
		*dq = tb_quatIdentity;
	}
	// The inertia of the step start, the one the prepared effective masses were built with: the
	// rows and their masses must use the same M^-1 or Gauss-Seidel over-/under-relaxes.
	*invI = &side->invI;
	*invMass = side->invMass;
}

static void tbLoadMotion( tbStepContext* ctx, const tbJoint* joint, tbJointMotion* m )
{
	tbLoadSide( ctx, &joint->sideA, &m->vA, &m->wA, &m->dpA, &m->dqA, &m->mA, &m->iA );
	tbLoadSide( ctx, &joint->sideB, &m->vB, &m->wB, &m->dpB, &m->dqB, &m->mB, &m->iB );
}

static void tbStoreMotion( tbStepContext* ctx, const tbJoint* joint, const tbJointMotion* m )
{
	// Bodies with zero inverse mass (kinematic) keep their velocity untouched.
	if ( joint->sideA.solverIndex >= 0 && joint->sideA.invMass > 0.0f )
	{
		tbBodyState* s = ctx->states + joint->sideA.solverIndex;
		s->v = m->vA;
		s->w = m->wA;
	}
	if ( joint->sideB.solverIndex >= 0 && joint->sideB.invMass > 0.0f )
	{
		tbBodyState* s = ctx->states + joint->sideB.solverIndex;
		s->v = m->vB;
		s->w = m->wB;
	}
}

// Gauss-Seidel passes over the joints per solve call. The soft step solves each sub-step once
// (plus one relax pass). With stiff joints relative to the sub-step (omega h near pi, e.g. 120 Hz
// at 4 sub-steps of 1/240 s) one pass leaves a light link between two stiff joints ringing, and a
// light chain holding a heavy load oscillates with growing amplitude (1 kg links holding 100 kg);
// three passes settle it at its soft equilibrium. In soft mode the passes are therefore the world's
// velocity iteration budget spread over the sub-steps, round(iterations / subSteps), and at least
// three when omega h > 2. Baumgarte and split modes call the joints once per iteration already.
static int tbJointPasses( const tbStepContext* ctx )
{
	if ( ctx->mode != tbSolver_soft || ctx->subStepCount <= 0 )
	{
		return 1;
	}
	int passes = tbMaxInt( 1, ( ctx->iterations + ctx->subStepCount / 2 ) / ctx->subStepCount );
	// Recover omega h from the softness: massScale = a2 / (1 + a2) with a2 = (omega h)(2 zeta +
	// omega h), and biasRate h = omega h / (2 zeta + omega h), so (omega h)^2 = a2 biasRate h.
	tbSoftness soft = ctx->jointSoftness;
	if ( soft.massScale < 1.0f )
	{
		float a2 = soft.massScale / ( 1.0f - soft.massScale );
		float omegaH = sqrtf( a2 * soft.biasRate * ctx->h );
		if ( omegaH > 2.0f )
		{
			passes = tbMaxInt( passes, 3 );
		}
	}
	return passes;
}

static bool tbIsBreakable( const tbJoint* joint )
{
	return joint->breakForce < FLT_MAX || joint->breakTorque < FLT_MAX;
}

// Reaction force and torque of the sub-step just solved, N and N m (the impulses are per sub-step).
static void tbSubStepReaction( const tbStepContext* ctx, const tbJoint* joint, const tbJointClass* cls, tbVec3* force,
							   tbVec3* torque )
{
	tbVec3 linear, angular;
	cls->getReaction( joint, &linear, &angular );
	*force = tbMulSV( ctx->inv_h, linear );
	*torque = tbMulSV( ctx->inv_h, angular );
}

static void tbTrackPeakReaction( const tbStepContext* ctx, tbJoint* joint, const tbJointClass* cls )
{
	tbVec3 force, torque;
	tbSubStepReaction( ctx, joint, cls, &force, &torque );
	joint->peakForce = tbMaxFloat( joint->peakForce, tbLength( force ) );
	joint->peakTorque = tbMaxFloat( joint->peakTorque, tbLength( torque ) );
}

// Joint stages run colour by colour: the joints of a colour share no written body, so blocks of
// them run on any thread; the overflow set runs on the calling thread, in order.
typedef enum tbJointStage
{
	tbJointStage_prepare,
	tbJointStage_refresh,
	tbJointStage_warmStart,
	tbJointStage_solve,
} tbJointStage;

typedef struct tbJointStageTask
{
	tbStepContext* ctx;
	const int* jointIds; ///< the colour's joints
	tbJointStage stage;
	bool useBias;
	bool refresh;	  ///< prepare, warm start: build the rows first (prepare: the scalar joints)
	bool computePose; ///< solve: measure the pose first (the relax call's first pass)
	bool trackPeak;	  ///< solve: the sub-step's last pass, record breakable joints' reactions
} tbJointStageTask;

/// Joints per parallel-for block (fixed: results must not depend on the thread count).
#define TB_JOINT_BLOCK_SIZE 32

static void tbJointStageBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	const tbJointStageTask* task = context;
	tbStepContext* ctx = task->ctx;
	tbWorld* world = ctx->world;
	for ( int i = start; i < end; ++i )
	{
		tbJoint* joint = world->joints.data + task->jointIds[i];
		const tbJointClass* cls = tbGetJointClass( joint->type );
		if ( task->stage == tbJointStage_prepare )
		{
			cls->prepare( ctx, joint );
		}
		// The lanes' joints build no scalar rows in the prepare, so need no motion there.
		tbJointMotion m;
		if ( task->stage != tbJointStage_prepare || task->refresh )
		{
			tbLoadMotion( ctx, joint, &m );
		}
		switch ( task->stage )
		{
			case tbJointStage_prepare:
				// The rows first: the guard measures the warm-start impulses along them. The lanes'
				// joints are measured along the rows they ended the last step with (tbUnpackWideJoints);
				// their rows are built in the lanes.
				if ( task->refresh )
				{
					tbRefreshJoint( ctx, joint, cls, &m );
				}
				tbGuardWarmStart( ctx, joint, cls );
				break;
			case tbJointStage_refresh:
				tbRefreshJoint( ctx, joint, cls, &m );
				break;
			case tbJointStage_warmStart:
				// A new sub-step begins here when the bodies have moved since the rows were built.
				if ( task->refresh )
				{
					tbRefreshJoint( ctx, joint, cls, &m );
				}
				cls->warmStart( ctx, joint, &m );
				tbStoreMotion( ctx, joint, &m );
				break;
			case tbJointStage_solve:
				// Only the relax call follows a position update (the sub-step's tbIntegratePositions);
				// the biased calls see the pose of the refresh just before them.
				if ( task->computePose && cls->refresh != NULL )
				{
					tbComputeJointPose( joint, &m, &joint->pose );
				}
				cls->solve( ctx, joint, &m, task->useBias );
				tbStoreMotion( ctx, joint, &m );
				if ( task->trackPeak && tbIsBreakable( joint ) )
				{
					tbTrackPeakReaction( ctx, joint, cls );
				}
				break;
		}
	}
}

// The wide stage that goes with a scalar one (joint_wide.c); the prepare has none, it runs scalar
// for every joint before the lanes are packed.
static void tbRunWideStage( tbStepContext* ctx, const tbJointStageTask* task, int color )
{
	switch ( task->stage )
	{
		case tbJointStage_prepare:
			break;
		case tbJointStage_refresh:
			tbRunWideJoints( ctx, color, tbWideJointStage_refresh, ctx->jointSoftness, false );
			break;
		case tbJointStage_warmStart:
			tbRunWideJoints( ctx, color, task->refresh ? tbWideJointStage_refreshWarmStart : tbWideJointStage_warmStart,
							 ctx->jointSoftness, false );
			break;
		case tbJointStage_solve:
			tbRunWideJoints( ctx, color, tbWideJointStage_solve, tbJointSoftness( ctx, task->useBias ),
							 task->computePose );
			break;
	}
}

static void tbRunJointStage( tbStepContext* ctx, tbJointStageTask task )
{
	task.ctx = ctx;
	for ( int color = 0; color <= TB_JOINT_COLOR_COUNT; ++color )
	{
		int start = ctx->jointColorStarts[color];
		if ( task.stage == tbJointStage_prepare )
		{
			// The lanes' joints are prepared here too, without their scalar rows.
			int wideCount = ctx->jointScalarStarts[color] - start;
			if ( wideCount > 0 )
			{
				tbJointStageTask wideTask = task;
				wideTask.jointIds = ctx->jointIds + start;
				wideTask.refresh = false;
				tbParallelFor( ctx->jobs, wideCount, TB_JOINT_BLOCK_SIZE, tbJointStageBlock, &wideTask );
			}
			task.refresh = true;
			start = ctx->jointScalarStarts[color];
		}
		else if ( color < TB_JOINT_COLOR_COUNT )
		{
			tbRunWideStage( ctx, &task, color );
			start = ctx->jointScalarStarts[color];
		}
		int count = ctx->jointColorStarts[color + 1] - start;
		if ( count == 0 )
		{
			continue;
		}
		task.jointIds = ctx->jointIds + start;
		if ( color < TB_JOINT_COLOR_COUNT )
		{
			tbParallelFor( ctx->jobs, count, TB_JOINT_BLOCK_SIZE, tbJointStageBlock, &task );
		}
		else
		{
			tbJointStageBlock( 0, count, 0, &task );
		}
	}
}

void tbWarmStartJoints( tbStepContext* ctx )
{
	tbJointStageTask task = { 0 };
	task.stage = tbJointStage_warmStart;
	// The first sub-step's rows are the prepare's: nothing has moved since.
	task.refresh = ctx->jointRowsCurrent == false;
	tbRunJointStage( ctx, task );
	ctx->jointRowsCurrent = true;
}

bool tbPrepareJoints( tbStepContext* ctx )
{
	tbWorld* world = ctx->world;
	int count = ctx->jointCount;
	int* written = TB_ARENA_ARRAY_RAW( ctx->arena, int, count > 0 ? 2 * count : 1 );
	uint8_t* kinds = TB_ARENA_ARRAY_RAW( ctx->arena, uint8_t, count > 0 ? count : 1 );
	if ( written == NULL || kinds == NULL )
	{
		return false;
	}
	for ( int i = 0; i < count; ++i )
	{
		tbJoint* joint = world->joints.data + ctx->jointIds[i];
		tbPrepareJointSide( ctx, joint->edges[0].bodyId, joint->localFrameA, &joint->sideA );
		tbPrepareJointSide( ctx, joint->edges[1].bodyId, joint->localFrameB, &joint->sideB );
		joint->deltaCenter = tbSub( joint->sideB.center0, joint->sideA.center0 );
		joint->peakForce = 0.0f;
		joint->peakTorque = 0.0f;
		// What the colouring and the lanes' sort need of the joint, while its record is at hand:
		// each pass over 2000 joint records (1.5 MB) comes from beyond the L2 cache.
		tbWrittenBodies( joint, written + 2 * i );
		kinds[i] = tbWideJointKind( joint );
	}
	// The colours need the sides; each joint's prepare writes only that joint, so it runs by colour
	// too (custom joints, which call user code, on this thread).
	if ( tbColorJoints( ctx, written, kinds ) == false || tbSortWideJoints( ctx, kinds ) == false )
	{
		return false;
	}
	tbJointStageTask task = { 0 };
	task.stage = tbJointStage_prepare;
	tbRunJointStage( ctx, task );
	if ( tbPackWideJoints( ctx ) == false )
	{
		return false;
	}
	ctx->jointRowsCurrent = true;
	return true;
}

void tbSolveJoints( tbStepContext* ctx, bool useBias )
{
	// Without warm starting the sub-step's first call is its biased solve: refresh the rows there.
	// Baumgarte and split modes have one sub-step, prepared by tbPrepareJoints.
	if ( useBias && ctx->mode == tbSolver_soft && ctx->enableWarmStarting == false && ctx->jointRowsCurrent == false )
	{
		tbJointStageTask task = { 0 };
		task.stage = tbJointStage_refresh;
		tbRunJointStage( ctx, task );
		ctx->jointRowsCurrent = true;
	}
	int passes = tbJointPasses( ctx );
	for ( int pass = 0; pass < passes; ++pass )
	{
		tbJointStageTask task = { 0 };
		task.stage = tbJointStage_solve;
		task.useBias = useBias;
		task.computePose = pass == 0 && useBias == false;
		// The relax call ends a sub-step (soft mode): its accumulated impulses are that sub-step's
		// reaction. Breakable joints keep the largest over the step (tbFinalizeJoints).
		task.trackPeak = pass == passes - 1 && useBias == false;
		tbRunJointStage( ctx, task );
	}
}

// Breaking compares the largest reaction over the step's sub-steps with the limits: an impact
// resolved within one sub-step would escape a test of the last sub-step only. The reported
// constraint force and torque stay those of the last sub-step (the joint's state at the end of the
// step); the break event carries the peaks that broke it.
void tbFinalizeJoints( tbStepContext* ctx )
{
	tbUnpackWideJoints( ctx );
	tbWorld* world = ctx->world;
	for ( int i = 0; i < ctx->jointCount; ++i )
	{
		tbJoint* joint = world->joints.data + ctx->jointIds[i];
		const tbJointClass* cls = tbGetJointClass( joint->type );
		tbSubStepReaction( ctx, joint, cls, &joint->force, &joint->torque );
		joint->impulseH = ctx->h;
		float force = tbMaxFloat( joint->peakForce, tbLength( joint->force ) );
		float torque = tbMaxFloat( joint->peakTorque, tbLength( joint->torque ) );
		if ( joint->broken == false && ( force > joint->breakForce || torque > joint->breakTorque ) )
		{
			joint->broken = true;
			cls->scaleImpulses( joint, 0.0f );
			joint->impulseH = 0.0f;
			tbJointBreakEvent ev;
			ev.jointId = tbMakeJointId( world, joint );
			ev.force = force;
			ev.torque = torque;
			tbPushJointBreak( world, &ev );
		}
	}
}

// Poses -------------------------------------------------------------------------------------------

static tbQuat tbRelativeQuat( tbQuat qA, tbQuat qB )
{
	tbQuat q = tbInvMulQQ( qA, qB );
	if ( q.w < 0.0f )
	{
		q.x = -q.x;
		q.y = -q.y;
		q.z = -q.z;
		q.w = -q.w;
	}
	return q;
}

void tbComputeJointPose( const tbJoint* joint, const tbJointMotion* m, tbJointPose* p )
{
	p->rA = tbRotate( m->dqA, joint->sideA.anchor0 );
	p->rB = tbRotate( m->dqB, joint->sideB.anchor0 );
	p->d = tbAdd( tbAdd( tbSub( m->dpB, m->dpA ), tbSub( p->rB, p->rA ) ), joint->deltaCenter );
	// dq and frame0 are unit quaternions, so are their products (to rounding, rebuilt every step).
	p->qA = tbMulQQ( m->dqA, joint->sideA.frame0 );
	p->qB = tbMulQQ( m->dqB, joint->sideB.frame0 );
	p->qRel = tbRelativeQuat( p->qA, p->qB );
	p->anglesKnown = 0u;
}

static void tbBodyFrame( tbWorld* world, int bodyId, tbTransform local, tbVec3* center, tbVec3* anchor, tbQuat* q )
{
	if ( bodyId < 0 )
	{
		*center = local.p;
		*anchor = local.p;
		*q = local.q;
		return;
	}
	tbBody* body = world->bodies.data + bodyId;
	*center = body->center;
	*anchor = tbTransformPoint( body->transform, local.p );
	*q = tbNormalizeQ( tbMulQQ( body->transform.q, local.q ) );
}

void tbComputeJointBodyPose( tbWorld* world, const tbJoint* joint, tbJointPose* p )
{
	tbVec3 cA, cB, aA, aB;
	tbBodyFrame( world, joint->edges[0].bodyId, joint->localFrameA, &cA, &aA, &p->qA );
	tbBodyFrame( world, joint->edges[1].bodyId, joint->localFrameB, &cB, &aB, &p->qB );
	p->rA = tbSub( aA, cA );
	p->rB = tbSub( aB, cB );
	p->d = tbSub( aB, aA );
	p->qRel = tbRelativeQuat( p->qA, p->qB );
	p->anglesKnown = 0u;
}

void tbComputeJointStartPose( const tbJoint* joint, tbJointPose* pose )
{
	tbJointMotion m;
	memset( &m, 0, sizeof( m ) );
	m.dqA = tb_quatIdentity;
	m.dqB = tb_quatIdentity;
	tbComputeJointPose( joint, &m, pose );
}
