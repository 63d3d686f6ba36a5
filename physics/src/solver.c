// Tumble physics: the solver step: integrate, solve joints and contacts, finalize bodies, and
// continuous collision for fast bodies.
// SPDX-License-Identifier: MIT
#include "solver.h"

#include "body.h"
#include "contact.h"
#include "body_wide.h"
#include "contact_solver.h"
#include "core.h"
#include "global_solver.h"
#include "joint.h"
#include "mesh.h"
#include "shape.h"
#include "world.h"
#include "tumble/tumble.h"

#include <math.h>
#include <string.h>

tbSoftness tbMakeSoft( float hertz, float zeta, float h )
{
	if ( hertz == 0.0f )
	{
		tbSoftness s = { 0.0f, 1.0f, 0.0f };
		return s;
	}
	// Any finite stiffness and damping are accepted, but (omega h)^2 overflows float past ~1e18 Hz
	// and 2 zeta past ~1e38, and the coefficients become inf / inf (fuzz findings 32: a distance
	// spring of 2.5e30 Hz, and 37: a mouse joint). Past omega h ~ 6e6 a spring is rigid to float
	// precision (massScale = 1 - 1e-13), so the caps change nothing else.
	hertz = tbMinFloat( hertz, 1.0e6f / h );
	zeta = tbMinFloat( zeta, 1.0e30f );
	float omega = 2.0f * TB_PI * hertz;
	float a1 = 2.0f * zeta + h * omega;
	if ( !( a1 > 0.0f ) )
	{
		// An undamped spring so weak that h omega underflows (fuzz: 1.4e-45 Hz gave omega / 0): the
		// limit of the coefficients as the stiffness goes to zero, a spring that applies nothing.
		tbSoftness none = { 1.0f / h, 0.0f, 1.0f };
		return none;
	}
	float a2 = h * omega * a1;
	float a3 = 1.0f / ( 1.0f + a2 );
	tbSoftness s = { omega / a1, a2 * a3, a3 };
	return s;
}

tbSoftness tbMakeRigid( float biasRate )
{
	tbSoftness s = { biasRate, 1.0f, 0.0f };
	return s;
}

// Gather awake non-static bodies into the solver arrays (plus one static slot at the end). False
// when the step's arena cannot hold them.
static bool tbPrepareBodies( tbWorld* world, tbStepContext* ctx )
{
	int n = 0;
	for ( int i = 0; i < world->bodies.count; ++i )
	{
		tbBody* body = world->bodies.data + i;
		body->solverIndex = -1;
		if ( body->id >= 0 && body->awake && body->type != tbBody_static )
		{
			n += 1;
		}
	}
	ctx->bodyCount = n;
	// Not cleared by the arena: the loop below writes every field of the awake bodies' slots, and
	// the static slot is cleared alone (clearing all of them was 2 % of a chains step).
	ctx->states = TB_ARENA_ARRAY_RAW( ctx->arena, tbBodyState, n + 1 );
	ctx->bodies = TB_ARENA_ARRAY_RAW( ctx->arena, tbSolverBody, n + 1 );
	if ( ctx->states == NULL || ctx->bodies == NULL )
	{
		return false;
	}
	memset( ctx->states + n, 0, sizeof( tbBodyState ) );
	memset( ctx->bodies + n, 0, sizeof( tbSolverBody ) );
	int k = 0;
	for ( int i = 0; i < world->bodies.count; ++i )
	{
		tbBody* body = world->bodies.data + i;
		if ( body->id < 0 || body->awake == false || body->type == tbBody_static )
		{
			continue;
		}
		body->solverIndex = k;
		body->center0 = body->center;
		body->rotation0 = body->transform.q;
		tbBodyState* state = ctx->states + k;
		state->v = body->linearVelocity;
		state->w = body->angularVelocity;
		state->dp = tb_vec3_zero;
		state->dq = tb_quatIdentity;
		tbSolverBody* sb = ctx->bodies + k;
		sb->invMass = body->invMass;
		sb->invLocalInertia = body->invLocalInertia;
		sb->invInertia = body->invWorldInertia;
		sb->center0 = body->center;
		sb->q0 = body->transform.q;
		sb->bodyId = body->id;
		sb->isKinematic = body->type == tbBody_kinematic;
		sb->turnsInertia = body->invMass > 0.0f && tbIsScaledIdentity( body->invLocalInertia ) == false;
		// What the sub-steps' velocity integration adds and scales by, the same every sub-step.
		const float h = ctx->h;
		tbVec3 linearAccel = tbAdd( tbMulSV( body->gravityScale, world->def.gravity ), tbMulSV( body->invMass, body->force ) );
		sb->deltaV = tbMulSV( h, linearAccel );
		sb->linearDamping = 1.0f / ( 1.0f + h * body->linearDamping );
		sb->angularDamping = 1.0f / ( 1.0f + h * body->angularDamping );
		sb->hasTorque = body->torque.x != 0.0f || body->torque.y != 0.0f || body->torque.z != 0.0f;
		sb->fixedRotation = body->fixedRotation;
		sb->gyroscopic = tbIsScaledIdentity( body->localInertia ) == false;
		k += 1;
	}
	// The static slot: zero velocity, zero inverse mass, identity motion.
	ctx->states[n].dq = tb_quatIdentity;
	ctx->bodies[n].q0 = tb_quatIdentity;
	ctx->bodies[n].bodyId = -1;
	return tbPackBodyLanes( ctx );
}

// Semi-implicit Euler for velocities, with the gyroscopic term solved implicitly in body frame:
// one Newton step on f(w) = I (w - w0) + h w x (I w) = 0, Jacobian I + h (Skew(w) I - Skew(I w))
// (Catto, "Numerical Methods", GDC 2015). Explicit integration of the gyroscopic term gains
// energy; the implicit step keeps a spinning T-handle flipping with bounded energy.
// The lanes (body_lanes.h) do the same for groups of bodies without torque, gyroscopic sub-step,
// kinematic or fixed rotation; this is every body's step, and theirs lane by lane.
void tbIntegrateBodyVelocity( tbStepContext* ctx, int i )
{
	tbSolverBody* sb = ctx->bodies + i;
	if ( sb->isKinematic )
	{
		return;
	}
	tbWorld* world = ctx->world;
	tbBodyState* state = ctx->states + i;
	tbVec3 v = tbMulSV( sb->linearDamping, tbAdd( state->v, sb->deltaV ) );

	tbVec3 w = state->w;
	if ( sb->fixedRotation == false )
	{
		// An isotropic body (I = s 1) has w x I w = 0: no gyroscopic torque to integrate.
		if ( ctx->gyroscopicH > 0.0f && sb->gyroscopic )
		{
			const float hg = ctx->gyroscopicH;
			tbMat3 I = world->bodies.data[sb->bodyId].localInertia;
			tbQuat q = tbNormalizeQ( tbMulQQ( state->dq, sb->q0 ) );
			tbVec3 wb = tbInvRotate( q, w );
			tbVec3 Iw = tbMulMV( I, wb );
			tbVec3 f = tbMulSV( hg, tbCross( wb, Iw ) );
			tbMat3 J = tbAddMM( I, tbMulSM( hg, tbSubMM( tbMulMM( tbSkew( wb ), I ), tbSkew( Iw ) ) ) );
			wb = tbSub( wb, tbSolve3( J, f ) );
			// An inertia near the float range with the spin at its cap overflows I w (a fuzz_world
			// finding): keep the spin as it was rather than turn it into NaN.
			if ( tbIsValidVec3( wb ) )
			{
				w = tbRotate( q, wb );
			}
		}
		if ( sb->hasTorque )
		{
			tbVec3 torque = world->bodies.data[sb->bodyId].torque;
			w = tbAdd( w, tbMulSV( ctx->h, tbMulMV( sb->invInertia, torque ) ) );
		}
		w = tbMulSV( sb->angularDamping, w );
	}
	else
	{
		w = tb_vec3_zero;
	}

	v = tbClampLength( v, world->def.maxLinearSpeed );
	// Angular speed is bounded too, so the gyroscopic term (~ w^2) stays finite.
	w = tbClampLength( w, TB_MAX_ANGULAR_SPEED );
	state->v = v;
	state->w = w;
}

void tbIntegrateBodyPosition( tbStepContext* ctx, int i )
{
	const float h = ctx->h;
	tbBodyState* state = ctx->states + i;
	tbSolverBody* sb = ctx->bodies + i;
	// The speed clamp again, after the passes: joints that disagree (a slider against a fixed
	// joint, fuzz findings 29 and 43) can add far more than the clamp allowed at the start of
	// the sub-step, and a body that moves 1e19 m in a step overflows its joints' rows.
	if ( sb->isKinematic == false )
	{
		state->v = tbClampLength( state->v, ctx->world->def.maxLinearSpeed );
	}
	// Inf-safe like the speed clamp: joints pulling on a body's light axis (a 1 km capsule of
	// 5 cm radius, fuzz finding 47) can overflow the spin, and inf * (limit / inf) is NaN.
	state->w = tbClampLength( state->w, TB_MAX_SUBSTEP_ROTATION / h );
	state->dp = tbMulAdd( state->dp, h, state->v );
	state->dq = tbIntegrateRotation( state->dq, state->w, h );
	if ( sb->turnsInertia )
	{
		tbQuat q = tbMulQQ( state->dq, sb->q0 );
		sb->invInertia = tbRotateInertia( q, sb->invLocalInertia );
	}
}

// Bodies per parallel-for block (fixed: results must not depend on the thread count).
#define TB_BODY_BLOCK_SIZE 64

static void tbIntegrateVelocities( tbStepContext* ctx )
{
	tbIntegrateBodyLanes( ctx, false );
}

static void tbIntegratePositions( tbStepContext* ctx )
{
	ctx->jointRowsCurrent = false;
	tbIntegrateBodyLanes( ctx, true );
}

// Write the solver state back to the bodies (the broad-phase boxes are refreshed afterwards, on one
// thread, since the tree is shared).
static void tbFinalizeBodiesBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	tbStepContext* ctx = context;
	tbWorld* world = ctx->world;
	for ( int i = start; i < end; ++i )
	{
		tbSolverBody* sb = ctx->bodies + i;
		tbBodyState* state = ctx->states + i;
		tbBody* body = world->bodies.data + sb->bodyId;
		// The relax passes (soft mode) come after the last position update and can leave more
		// than the clamp in the velocity the next step starts from.
		body->linearVelocity = sb->isKinematic ? state->v : tbClampLength( state->v, world->def.maxLinearSpeed );
		body->angularVelocity = sb->isKinematic ? state->w : tbClampLength( state->w, TB_MAX_ANGULAR_SPEED );
		body->center = tbAdd( sb->center0, state->dp );
		body->transform.q = tbNormalizeQ( tbMulQQ( state->dq, sb->q0 ) );
		body->transform.p = tbSub( body->center, tbRotate( body->transform.q, body->localCenter ) );
		body->invWorldInertia = body->type == tbBody_dynamic && !body->fixedRotation
									? tbRotateInertia( body->transform.q, body->invLocalInertia )
									: tb_mat3Zero;
		body->force = tb_vec3_zero;
		body->torque = tb_vec3_zero;
	}
}

static void tbFinalizeBodies( tbStepContext* ctx )
{
	tbParallelFor( ctx->jobs, ctx->bodyCount, TB_BODY_BLOCK_SIZE, tbFinalizeBodiesBlock, ctx );
}

// Continuous collision ---------------------------------------------------------------------------

typedef struct tbContinuousContext
{
	tbWorld* world;
	tbBody* fastBody;
	tbShape* fastShape;
	tbSweep sweep;
	float fraction;
} tbContinuousContext;

static tbSweep tbMakeBodySweep( const tbBody* body )
{
	tbSweep s;
	s.localCenter = body->localCenter;
	s.c1 = body->center0;
	s.c2 = body->center;
	s.q1 = body->rotation0;
	s.q2 = body->transform.q;
	return s;
}

static bool tbContinuousQuery( int32_t proxyId, int32_t shapeId, void* context )
{
	TB_UNUSED( proxyId );
	tbContinuousContext* cc = context;
	tbWorld* world = cc->world;
	tbShape* shape = world->shapes.data + shapeId;
	if ( shape->bodyId == cc->fastBody->id || shape->isSensor || cc->fastShape->isSensor ||
		 !tbShouldShapesCollide( shape, cc->fastShape ) )
	{
		return true;
	}
	tbBody* other = world->bodies.data + shape->bodyId;
	if ( tbShouldJointedBodiesCollide( world, cc->fastBody->id, other->id ) == false ||
		 tbMayDisableContact( world, shape, cc->fastShape ) )
	{
		return true;
	}

	if ( shape->type == tbShape_mesh || shape->type == tbShape_heightfield )
	{
		// Swept against the triangles near the path (meshes and heightfields are static: other's
		// sweep is a point).
		cc->fraction = tbTrianglesTimeOfImpact( tbShapeTriangles( shape ), other->transform, cc->fastShape, &cc->sweep,
												cc->fraction );
		return true;
	}

	tbTOIInput input;
	input.proxyA = tbMakeShapeDistanceProxy( shape );
	input.proxyB = tbMakeShapeDistanceProxy( cc->fastShape );
	input.sweepA = tbMakeBodySweep( other );
	input.sweepB = cc->sweep;
	input.maxFraction = cc->fraction;
	input.target = TB_LINEAR_SLOP;

	// Skip pairs already touching at the start of the step: the speculative contact handles them.
	tbDistanceInput din;
	din.proxyA = input.proxyA;
	din.proxyB = input.proxyB;
	din.transformA = tbGetSweepTransform( &input.sweepA, 0.0f );
	din.transformB = tbGetSweepTransform( &input.sweepB, 0.0f );
	din.useRadii = true;
	tbSimplexCache cache = { 0 };
	tbDistanceOutput start = tbShapeDistance( &din, &cache );
	if ( start.distance < TB_SPECULATIVE_DISTANCE )
	{
		return true;
	}

	tbTOIOutput out = tbTimeOfImpact( &input );
	// A failed search (iteration cap) still reports a fraction known to be clear of contact.
	bool usable = out.state == tbTOIState_hit || out.state == tbTOIState_failed;
	if ( usable && out.fraction < cc->fraction )
	{
		cc->fraction = out.fraction;
	}
	return true;
}

// Bodies moving more than a fraction of their size in one step are swept against the other
// shapes; on a hit the body is moved back to the time of impact (velocity kept), so the next
// step's speculative contact stops it. Bodies that are bullets or fast relative to their size
// only; cheap for the rest.
static void tbSolveContinuous( tbWorld* world, tbStepContext* ctx )
{
	for ( int i = 0; i < ctx->bodyCount; ++i )
	{
		tbBody* body = world->bodies.data + ctx->bodies[i].bodyId;
		if ( body->isFast == false )
		{
			continue;
		}

		tbContinuousContext cc;
		cc.world = world;
		cc.fastBody = body;
		cc.sweep = tbMakeBodySweep( body );
		cc.fraction = 1.0f;
		for ( int id = body->headShapeId; id >= 0; id = world->shapes.data[id].nextShapeId )
		{
			tbShape* shape = world->shapes.data + id;
			cc.fastShape = shape;
			tbAABB box1 = tbComputeShapeAABB( shape, tbGetSweepTransform( &cc.sweep, 0.0f ) );
			tbAABB box2 = tbComputeShapeAABB( shape, tbGetSweepTransform( &cc.sweep, 1.0f ) );
			tbAABB swept = tbAABB_Union( box1, box2 );
			for ( int t = 0; t < tbBody_typeCount; ++t )
			{
				tbDynamicTree_Query( &world->broadPhase.trees[t], swept, shape->maskBits, tbContinuousQuery, &cc );
			}
		}
		if ( cc.fraction < 1.0f )
		{
			tbTransform xf = tbGetSweepTransform( &cc.sweep, cc.fraction );
			body->transform = xf;
			body->center = tbTransformPoint( xf, body->localCenter );
			body->invWorldInertia = tbRotateInertia( xf.q, body->invLocalInertia );
			for ( int id = body->headShapeId; id >= 0; id = world->shapes.data[id].nextShapeId )
			{
				world->shapes.data[id].aabb = tbComputeShapeAABB( world->shapes.data + id, xf );
			}
		}
	}
}

// Bodies that moved more than a quarter of their smallest size (or bullets) this step.
static bool tbIsFastBody( const tbWorld* world, const tbBody* body )
{
	if ( world->def.enableContinuous == false || body->type != tbBody_dynamic || body->headShapeId < 0 )
	{
		return false;
	}
	float motion = tbDistance( body->center0, body->center );
	float angular = tbQuatAngle( tbInvMulQQ( body->rotation0, body->transform.q ) ) * body->maxExtent;
	float threshold = 0.25f * tbMaxFloat( body->minExtent, TB_LINEAR_SLOP );
	return body->isBullet || motion + angular >= threshold;
}

bool tbSolve( tbWorld* world, tbStepContext* ctx )
{
	const tbWorldDef* def = &world->def;
	ctx->jobs = world->jobs;
	ctx->mode = def->solverMode;
	ctx->subStepCount = def->solverMode == tbSolver_soft ? def->subSteps : 1;
	ctx->iterations = def->iterations;
	ctx->h = ctx->dt / (float)ctx->subStepCount;
	ctx->inv_h = 1.0f / ctx->h;
	ctx->subStepIndex = 0;
	// Without memory for the step's solver data the step is not solved: every body keeps its pose
	// and velocity (the world stands still for one step) and contacts and joints keep their
	// impulses. The caller reports it.
	if ( tbPrepareBodies( world, ctx ) == false )
	{
		return false;
	}

	// Soft contacts stiffer than a quarter of the sub-step rate ring; cap them there.
	float contactHertz = tbMinFloat( def->contactHertz, 0.25f * ctx->inv_h );
	ctx->contactSoftness = tbMakeSoft( contactHertz, def->contactDampingRatio, ctx->h );
	// Contacts against static or kinematic bodies are twice as stiff (only one body moves), within
	// the same quarter-of-the-sub-step-rate cap: past it a resting stack jitters.
	ctx->staticSoftness = tbMakeSoft( tbMinFloat( 2.0f * contactHertz, 0.25f * ctx->inv_h ), def->contactDampingRatio, ctx->h );
	ctx->jointSoftness = tbMakeSoft( tbMinFloat( def->jointHertz, 0.25f * ctx->inv_h ) * 2.0f, def->jointDampingRatio, ctx->h );
	ctx->maxBiasVelocity = def->maxCorrectionSpeed;
	ctx->baumgarte = def->baumgarte;
	ctx->linearSlop = def->linearSlop;
	ctx->restitutionThreshold = def->restitutionThreshold;
	ctx->enableWarmStarting = def->enableWarmStarting;

	int jointCapacity = world->joints.liveCount;
	ctx->jointIds = TB_ARENA_ARRAY( ctx->arena, int, jointCapacity > 0 ? jointCapacity : 1 );
	if ( ctx->jointIds == NULL )
	{
		return false;
	}
	ctx->jointCount = tbCollectAwakeJoints( world, ctx->jointIds );

	if ( tbPrepareJoints( ctx ) == false || tbPrepareContacts( world, ctx ) == false )
	{
		return false;
	}
	tbPropagateImpacts( ctx );

	if ( ctx->mode == tbSolver_global )
	{
		// 001's assembled system (global_solver.c); restitution is part of its rows' targets.
		if ( tbSolveGlobal( ctx ) == false )
		{
			return false;
		}
	}
	else if ( ctx->mode == tbSolver_soft )
	{
		for ( int sub = 0; sub < ctx->subStepCount; ++sub )
		{
			ctx->subStepIndex = sub;
			// The gyroscopic term once a step, over the whole step, in the first sub-step: the
			// implicit step is stable for any h, and the T-handle and ragdoll figures hold
			// (docs/SOLVER.md), at an eighth of the cost.
			ctx->gyroscopicH = sub == 0 ? ctx->dt : 0.0f;
			tbIntegrateVelocities( ctx );
			if ( ctx->enableWarmStarting )
			{
				tbWarmStartJoints( ctx );
				tbWarmStartContacts( ctx );
			}
			tbSolveJoints( ctx, true );
			tbSolveContacts( ctx, true );
			tbIntegratePositions( ctx );
			tbSolveJoints( ctx, false );
			tbSolveContacts( ctx, false );
		}
		// Deep overlap (spawned inside each other, teleported) is moved out by position passes,
		// not by velocity: soft push-out velocity would add up along a stack and throw it.
		// A pass that moved nothing leaves the states as they were, so the next would repeat it.
		ctx->splitPass = true;
		for ( int it = 0; it < def->positionIterations; ++it )
		{
			if ( tbSolveContactPositions( ctx ) == false )
			{
				break;
			}
		}
		ctx->splitPass = false;
	}
	else
	{
		ctx->gyroscopicH = ctx->h;
		tbIntegrateVelocities( ctx );
		if ( ctx->enableWarmStarting )
		{
			tbWarmStartJoints( ctx );
			tbWarmStartContacts( ctx );
		}
		bool bias = ctx->mode == tbSolver_baumgarte;
		for ( int it = 0; it < ctx->iterations; ++it )
		{
			// Split mode still feeds joint drift back as velocity; only contacts are split.
			tbSolveJoints( ctx, true );
			tbSolveContacts( ctx, bias );
		}
		tbIntegratePositions( ctx );
		if ( ctx->mode == tbSolver_split )
		{
			ctx->splitPass = true;
			for ( int it = 0; it < def->positionIterations; ++it )
			{
				if ( tbSolveContactPositions( ctx ) == false )
				{
					break;
				}
			}
			ctx->splitPass = false;
		}
	}

	if ( ctx->mode != tbSolver_global )
	{
		tbApplyRestitution( ctx );
	}
	tbStoreContactImpulses( world, ctx );
	tbFinalizeJoints( ctx );
	tbFinalizeBodies( ctx );

	// Broad-phase boxes. A fast body's box covers its whole sweep, so that continuous collision
	// finds it from another fast body's sweep too (two bodies flying at each other).
	for ( int i = 0; i < ctx->bodyCount; ++i )
	{
		tbBody* body = world->bodies.data + ctx->bodies[i].bodyId;
		body->isFast = tbIsFastBody( world, body );
		if ( body->isFast )
		{
			tbUpdateBodyShapesSwept( world, body );
		}
		else
		{
			tbUpdateBodyShapes( world, body, false );
		}
	}
	tbSolveContinuous( world, ctx );
	world->counters.awakeBodyCount = ctx->bodyCount;
	return true;
}
