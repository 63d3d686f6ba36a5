// Tumble physics: contact constraints (non-penetration and friction rows).
//
// Each contact point gives one normal row and two friction rows. With relative velocity
// dv = vB + wB x rB - vA - wA x rA, the normal row's Jacobian applied to the velocities is
// dot(n, dv) and its effective mass is 1 / (mA + mB + (rA x n).IA(rA x n) + (rB x n).IB(rB x n))
// (reference 000, "penetration constraint"). Accumulated impulses are clamped (normal >= 0,
// friction inside the cone |f| <= mu * normal) and carried to the next step (warm starting).
// SPDX-License-Identifier: MIT
#include "contact_solver.h"

#include "body.h"
#include "contact.h"
#include "contact_wide.h"
#include "core.h"
#include "shape.h"
#include "world.h"
#include "tumble/tumble.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

// The lane path builds the same rows with the same operations in the same order
// (tbLanes8BuildContactRows, contact_lanes.h), so a constraint's lanes and its scalar rows agree
// bit for bit.
static tbContactRow tbMakeRow( float mA, float mB, const tbMat3* iA, const tbMat3* iB, tbVec3 rA, tbVec3 rB, tbVec3 dir )
{
	tbContactRow row;
	row.angA = tbCross( rA, dir );
	row.angB = tbCross( rB, dir );
	row.impA = tbMulMV( *iA, row.angA );
	row.impB = tbMulMV( *iB, row.angB );
	float k = mA + mB + tbDot( row.angA, row.impA ) + tbDot( row.angB, row.impB );
	row.mass = k > 0.0f ? 1.0f / k : 0.0f;
	return row;
}

// The inverse inertia a body had when the step began, which the lanes built their rows with: the
// solver's copy turns with the body over the sub-steps, the body's record only when the step ends
// (tbFinalizeBodies).
static const tbMat3* tbStepStartInertia( tbStepContext* ctx, int index )
{
	tbSolverBody* sb = tbGetSolverBody( ctx, index );
	return index >= 0 ? &ctx->world->bodies.data[sb->bodyId].invWorldInertia : &sb->invInertia;
}

// Building the scalar rows of every contact in the prepare as well as the lanes' was 8 % of the
// rain scene's step.
void tbMakeContactRows( tbStepContext* ctx, tbContactConstraint* c )
{
	if ( c->rowsBuilt )
	{
		return;
	}
	c->rowsBuilt = true;
	const tbMat3* iA = tbStepStartInertia( ctx, c->indexA );
	const tbMat3* iB = tbStepStartInertia( ctx, c->indexB );
	for ( int p = 0; p < c->pointCount; ++p )
	{
		tbContactConstraintPoint* cp = c->points + p;
		cp->rows[0] = tbMakeRow( c->invMassA, c->invMassB, iA, iB, cp->rA, cp->rB, c->normal );
		cp->rows[1] = tbMakeRow( c->invMassA, c->invMassB, iA, iB, cp->rA, cp->rB, c->tangent1 );
		cp->rows[2] = tbMakeRow( c->invMassA, c->invMassB, iA, iB, cp->rA, cp->rB, c->tangent2 );
	}
}

typedef struct tbPrepareTask
{
	tbWorld* world;
	tbStepContext* ctx;
	const int* contactIds;
} tbPrepareTask;

static void tbPrepareContactBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	tbPrepareTask* task = context;
	tbWorld* world = task->world;
	tbStepContext* ctx = task->ctx;
	for ( int n = start; n < end; ++n )
	{
		tbContact* contact = world->contacts.data + task->contactIds[n];
		tbBody* bodyA = world->bodies.data + contact->edges[0].bodyId;
		tbBody* bodyB = world->bodies.data + contact->edges[1].bodyId;
		tbContactConstraint* c = ctx->contacts + n;
		c->contactId = contact->id;
		c->indexA = bodyA->solverIndex;
		c->indexB = bodyB->solverIndex;
		c->normal = contact->manifold.normal;
		tbComputeBasis( c->normal, &c->tangent1, &c->tangent2 );
		c->friction = contact->friction;
		c->restitution = contact->restitution;
		bool rigidPartner = bodyA->type != tbBody_dynamic || bodyB->type != tbBody_dynamic;
		c->softness = rigidPartner ? ctx->staticSoftness : ctx->contactSoftness;
		c->pointCount = contact->manifold.pointCount;

		tbSolverBody* sbA = tbGetSolverBody( ctx, c->indexA );
		tbSolverBody* sbB = tbGetSolverBody( ctx, c->indexB );
		float mA = sbA->invMass, mB = sbB->invMass;
		c->invMassA = mA;
		c->invMassB = mB;
		tbVec3 offsetA = tbSub( bodyA->center, bodyA->transform.p );
		tbVec3 offsetB = tbSub( bodyB->center, bodyB->transform.p );
		tbVec3 vA = bodyA->linearVelocity, wA = bodyA->angularVelocity;
		tbVec3 vB = bodyB->linearVelocity, wB = bodyB->angularVelocity;

		c->minSeparation0 = FLT_MAX;
		float fastestApproach = 0.0f;
		// What one velocity integration adds to the approach (gravity, forces), for the bounce;
		// a pull beyond what a body may reach is no pull a step can show.
		tbVec3 pullA = mA > 0.0f ? sbA->deltaV : tb_vec3_zero;
		tbVec3 pullB = mB > 0.0f ? sbB->deltaV : tb_vec3_zero;
		float gain = -tbDot( c->normal, tbSub( pullB, pullA ) );
		gain = tbIsValidFloat( gain ) ? tbClampFloat( gain, 0.0f, TB_MAX_SPEED ) : 0.0f;
		c->maxLeverA = 0.0f;
		c->maxLeverB = 0.0f;
		for ( int p = 0; p < c->pointCount; ++p )
		{
			const tbManifoldPoint* mp = contact->manifold.points + p;
			tbContactConstraintPoint* cp = c->points + p;
			cp->rA = tbSub( mp->anchorA, offsetA );
			cp->rB = tbSub( mp->anchorB, offsetB );
			cp->adjustedSeparation = mp->separation - tbDot( tbSub( cp->rB, cp->rA ), c->normal );
			cp->separation0 = mp->separation;
			c->minSeparation0 = tbMinFloat( c->minSeparation0, mp->separation );
			c->maxLeverA = tbMaxFloat( c->maxLeverA, tbLength( cp->rA ) );
			c->maxLeverB = tbMaxFloat( c->maxLeverB, tbLength( cp->rB ) );

			if ( ctx->enableWarmStarting )
			{
				cp->normalImpulse = mp->normalImpulse;
				cp->tangentImpulse[0] = mp->tangentImpulse[0];
				cp->tangentImpulse[1] = mp->tangentImpulse[1];
			}
			else
			{
				cp->normalImpulse = 0.0f;
				cp->tangentImpulse[0] = 0.0f;
				cp->tangentImpulse[1] = 0.0f;
			}
			cp->maxNormalImpulse = 0.0f;
			cp->stepNormalImpulse = 0.0f;
			tbVec3 dv = tbSub( tbAdd( vB, tbCross( wB, cp->rB ) ), tbAdd( vA, tbCross( wA, cp->rA ) ) );
			// The speed a bounce restores, within what a body may reach: a spinning shape of 1e38 m
			// (any finite size is accepted) gave an infinite approach speed and a NaN bounce.
			float vn = tbDot( c->normal, dv );
			cp->relativeVelocity = tbIsValidFloat( vn ) ? tbClampFloat( vn, -TB_MAX_SPEED, TB_MAX_SPEED ) : 0.0f;
			fastestApproach = tbMinFloat( fastestApproach, cp->relativeVelocity );
			cp->impactImpulse = 0.0f;
			cp->bounce = 0.0f;
			if ( c->restitution != 0.0f && cp->relativeVelocity <= -ctx->restitutionThreshold )
			{
				// The impact speed and the bounce in the integrator's terms. A body under a steady
				// pull that gains g h along the normal every (sub-)step of length h follows, with
				// the velocity-then-position update, the exact path of a body whose speed is
				// g h / 2 more when falling and g h / 2 less when rising. So the speed the body
				// meets the surface with is that of v0 + g h / 2 over the rest of the fall (the
				// gap s0 at the step's start), and it must leave with e times it plus g h / 2 to
				// climb back to e^2 of the drop: dropped from 0.5 m onto the ground at e = 0.5
				// (split mode), the plain e v0 reached 0.80 of e^2 h, this 0.99.
				float approach = -cp->relativeVelocity + 0.5f * gain;
				float fall = 2.0f * gain * ctx->inv_h * tbMaxFloat( mp->separation, 0.0f );
				float impactSpeed = sqrtf( approach * approach + fall );
				// The bounce speed within what a body may reach: any finite restitution is
				// accepted, and 3.4e38 times the approach speed is -inf (fuzz finding 49).
				cp->bounce = tbMaxFloat( -( c->restitution * impactSpeed + 0.5f * gain ), -TB_MAX_SPEED );
			}
		}
		// One row is settled by one sweep. Against a static or kinematic body only: sweeping a
		// dynamic pair's impact let a 20 kg crate dropped on a 5 kg plank hung on ropes fall
		// through it (suspension_bridge.lua); the cause is not found yet. The closing sub-step is
		// bounded before the conversion (a far point over a slow approach is any large number).
		c->impactSubStep = TB_NO_IMPACT;
		if ( ctx->mode == tbSolver_soft && rigidPartner && fastestApproach < -TB_IMPACT_SPEED && c->pointCount > 1 )
		{
			float closing = tbMaxFloat( c->minSeparation0, 0.0f ) * ctx->inv_h / -fastestApproach;
			c->impactSubStep = (int)tbMinFloat( closing, (float)ctx->subStepCount );
		}
		c->rowsBuilt = false;
		c->positionTestedAt = -1;
	}
}

bool tbPrepareContacts( tbWorld* world, tbStepContext* ctx )
{
	// Which contacts become constraints is decided serially (cheap); the constraints are then
	// filled in parallel, each block writing its own slots.
	int capacity = world->contacts.liveCount;
	// Not zeroed: tbPrepareContactBlock writes every field of the used constraints and points.
	ctx->contacts = TB_ARENA_ARRAY_RAW( ctx->arena, tbContactConstraint, capacity > 0 ? capacity : 1 );
	int* contactIds = TB_ARENA_ARRAY_RAW( ctx->arena, int, capacity > 0 ? capacity : 1 );
	if ( ctx->contacts == NULL || contactIds == NULL )
	{
		return false;
	}
	int n = 0;
	for ( int i = 0; i < world->contacts.count; ++i )
	{
		tbContact* contact = world->contacts.data + i;
		contact->constraintIndex = -1;
		if ( contact->id < 0 || ( contact->flags & tbContact_touching ) == 0 || ( contact->flags & tbContact_sensor ) ||
			 contact->manifold.pointCount == 0 )
		{
			continue;
		}
		tbBody* bodyA = world->bodies.data + contact->edges[0].bodyId;
		tbBody* bodyB = world->bodies.data + contact->edges[1].bodyId;
		if ( bodyA->solverIndex < 0 && bodyB->solverIndex < 0 )
		{
			continue;
		}
		// A contact with only kinematic bodies in the solver has nothing to move.
		if ( bodyA->type != tbBody_dynamic && bodyB->type != tbBody_dynamic )
		{
			continue;
		}
		contact->constraintIndex = n;
		contactIds[n] = i;
		n += 1;
	}
	ctx->contactCount = n;

	tbPrepareTask task = { world, ctx, contactIds };
	tbParallelFor( ctx->jobs, n, TB_CONTACT_BLOCK_SIZE, tbPrepareContactBlock, &task );
	if ( tbColorContactConstraints( &ctx->graph, ctx->arena, ctx->contacts, n, ctx->bodies, ctx->bodyCount ) &&
		 tbPackWideContacts( ctx ) )
	{
		return true;
	}
	for ( int i = 0; i < n; ++i )
	{
		world->contacts.data[contactIds[i]].constraintIndex = -1;
	}
	return false;
}

// Velocity along a row.
static inline float tbRowVelocity( const tbContactRow* row, tbVec3 dir, const tbBodyState* a, const tbBodyState* b )
{
	return tbDot( dir, tbSub( b->v, a->v ) ) + tbDot( row->angB, b->w ) - tbDot( row->angA, a->w );
}

// Apply an impulse L along a row: A gets -L, B gets +L.
static inline void tbApplyRow( const tbContactConstraint* c, const tbContactRow* row, tbVec3 dir, float L, tbBodyState* a,
							   tbBodyState* b )
{
	a->v = tbMulSub( a->v, c->invMassA * L, dir );
	a->w = tbMulSub( a->w, L, row->impA );
	b->v = tbMulAdd( b->v, c->invMassB * L, dir );
	b->w = tbMulAdd( b->w, L, row->impB );
}

static inline void tbStoreStates( tbStepContext* ctx, const tbContactConstraint* c, const tbBodyState* a,
								  const tbBodyState* b )
{
	if ( tbIsMovingBody( ctx, c->indexA ) )
	{
		ctx->states[c->indexA] = *a;
	}
	if ( tbIsMovingBody( ctx, c->indexB ) )
	{
		ctx->states[c->indexB] = *b;
	}
}

static void tbWarmStartContact( tbStepContext* ctx, tbContactConstraint* c )
{
	tbMakeContactRows( ctx, c );
	tbBodyState a = *tbGetState( ctx, c->indexA );
	tbBodyState b = *tbGetState( ctx, c->indexB );
	for ( int p = 0; p < c->pointCount; ++p )
	{
		tbContactConstraintPoint* cp = c->points + p;
		tbApplyRow( c, cp->rows + 0, c->normal, cp->normalImpulse, &a, &b );
		tbApplyRow( c, cp->rows + 1, c->tangent1, cp->tangentImpulse[0], &a, &b );
		tbApplyRow( c, cp->rows + 2, c->tangent2, cp->tangentImpulse[1], &a, &b );
	}
	tbStoreStates( ctx, c, &a, &b );
}

// The separation of a point now is adjustedSeparation + n.(dpB - dpA) + n.(R_B rB) - n.(R_A rA), with
// dp, R each body's motion since the step began. n.(R r) = (R^T n).r: the normal turned back once
// per body serves every point of the manifold (and every sweep of a pass) with two dot products,
// where turning each point's arms cost two rotations a point.
typedef struct tbSeparationFrame
{
	tbVec3 nA, nB; ///< R_A^T n, R_B^T n
	float shift;   ///< n.(dpB - dpA)
} tbSeparationFrame;

static inline tbSeparationFrame tbMakeSeparationFrame( tbVec3 normal, const tbBodyState* a, const tbBodyState* b )
{
	tbSeparationFrame f = { tbInvRotate( a->dq, normal ), tbInvRotate( b->dq, normal ),
							tbDot( normal, tbSub( b->dp, a->dp ) ) };
	return f;
}

// The lanes (contact_lanes.h, NormalAim) sum the same terms in the same order.
static inline float tbPointSeparation( const tbSeparationFrame* f, const tbContactConstraintPoint* cp )
{
	return tbDot( f->nB, cp->rB ) - tbDot( f->nA, cp->rA ) + f->shift + cp->adjustedSeparation;
}

static inline float tbCurrentSeparation( const tbContactConstraint* c, const tbContactConstraintPoint* cp,
										 const tbBodyState* a, const tbBodyState* b )
{
	tbSeparationFrame f = tbMakeSeparationFrame( c->normal, a, b );
	return tbPointSeparation( &f, cp );
}

// One normal row towards -bias: the accumulated impulse clamped at zero, the largest step kept.
static inline void tbSolveNormalRow( const tbContactConstraint* c, tbContactConstraintPoint* cp, float bias, float massScale,
									 float impulseScale, tbBodyState* a, tbBodyState* b )
{
	float vn = tbRowVelocity( cp->rows + 0, c->normal, a, b );
	float impulse = -cp->rows[0].mass * massScale * ( vn + bias ) - impulseScale * cp->normalImpulse;
	float newImpulse = tbMaxFloat( cp->normalImpulse + impulse, 0.0f );
	impulse = newImpulse - cp->normalImpulse;
	cp->normalImpulse = newImpulse;
	cp->maxNormalImpulse = tbMaxFloat( cp->maxNormalImpulse, impulse );
	tbApplyRow( c, cp->rows + 0, c->normal, impulse, a, b );
}

static void tbSolveContact( tbStepContext* ctx, tbContactConstraint* c, bool useBias, bool reverse )
{
	tbMakeContactRows( ctx, c );
	const float inv_h = ctx->inv_h;
	const float maxBias = ctx->maxBiasVelocity;
	const tbSolverMode mode = ctx->mode;
	tbBodyState a = *tbGetState( ctx, c->indexA );
	tbBodyState b = *tbGetState( ctx, c->indexB );

	float pointBias[TB_MAX_MANIFOLD_POINTS], pointMassScale[TB_MAX_MANIFOLD_POINTS];
	float pointImpulseScale[TB_MAX_MANIFOLD_POINTS];
	// The velocity rows leave dp and dq alone: one frame for the pass.
	const tbSeparationFrame frame = tbMakeSeparationFrame( c->normal, &a, &b );
	for ( int k = 0; k < c->pointCount; ++k )
	{
		int p = reverse ? c->pointCount - 1 - k : k;
		tbContactConstraintPoint* cp = c->points + p;
		float s = tbPointSeparation( &frame, cp );
		float bias = 0.0f;
		float massScale = 1.0f;
		float impulseScale = 0.0f;
		if ( s > 0.0f )
		{
			// Speculative: allow the approach that closes the gap this sub-step, no more. A
			// point that was penetrating when the step began and has just been pushed clear
			// is held at zero relative velocity in the relax pass instead, so the push-out
			// velocity is taken back rather than left to fly the bodies apart.
			bias = ( useBias == false && mode == tbSolver_soft && cp->separation0 < 0.0f ) ? 0.0f : s * inv_h;
		}
		else if ( useBias )
		{
			if ( mode == tbSolver_soft )
			{
				// The soft spring acts on the first TB_SOFT_RANGE of overlap only; deeper overlap
				// is removed by the position pass at the end of the step, without velocity.
				bias = s > -TB_SOFT_RANGE ? tbMaxFloat( c->softness.biasRate * s, -maxBias ) : 0.0f;
				massScale = c->softness.massScale;
				impulseScale = c->softness.impulseScale;
			}
			else if ( mode == tbSolver_baumgarte )
			{
				// Baumgarte with slop (reference 000 ch. 11): only error beyond the slop is fed back.
				bias = tbMaxFloat( ctx->baumgarte * inv_h * tbMinFloat( 0.0f, s + ctx->linearSlop ), -maxBias );
			}
		}

		pointBias[p] = bias;
		pointMassScale[p] = massScale;
		pointImpulseScale[p] = impulseScale;
		tbSolveNormalRow( c, cp, bias, massScale, impulseScale, &a, &b );
		// A soft sub-step ends with its one relax pass: what the point holds then is the impulse
		// of that sub-step (the next one starts from it again by warm starting).
		cp->stepNormalImpulse += mode == tbSolver_soft && useBias == false ? cp->normalImpulse : 0.0f;
	}

	// An impact: one sweep leaves the points unequal (the first one solved stops its corner alone,
	// and the later ones take less), which turns a box landing flat by 0.2 deg and, through
	// friction, shifts it 11 mm (a unit cube from 3 m, soft mode). Sweeping the normal rows again,
	// in alternating order, with the same targets (positions do not move within a pass) lets the
	// points settle together: 4 sweeps in the sub-step the impact closes in leave it within 0.7 mm
	// and 1e-5 deg, dropped from 0.1 to 10 m (docs/SOLVER.md, "Impacts"). Soft mode
	// only: the other modes' passes already alternate 10 times over the points (they land within
	// 0.02 mm), and in baumgarte mode sweeping a rocking stack's rows to convergence every pass fed
	// its rocking (seed 001's 5-cube stack walked 0.7 m in 10 minutes).
	if ( tbIsImpactSubStep( c->impactSubStep, ctx->subStepIndex ) )
	{
		float firstImpulse[TB_MAX_MANIFOLD_POINTS];
		for ( int p = 0; p < c->pointCount; ++p )
		{
			firstImpulse[p] = c->points[p].normalImpulse;
		}
		for ( int sweep = 1; sweep < TB_IMPACT_SWEEPS; ++sweep )
		{
			bool backwards = ( ( sweep & 1 ) != 0 ) != reverse;
			for ( int k = 0; k < c->pointCount; ++k )
			{
				int p = backwards ? c->pointCount - 1 - k : k;
				tbSolveNormalRow( c, c->points + p, pointBias[p], pointMassScale[p], pointImpulseScale[p], &a, &b );
			}
		}
		for ( int p = 0; mode == tbSolver_soft && useBias == false && p < c->pointCount; ++p )
		{
			c->points[p].stepNormalImpulse += c->points[p].normalImpulse - firstImpulse[p];
		}
	}

	// Friction after the normal rows, so it is bounded by this pass's normal impulses.
	for ( int p = 0; p < c->pointCount; ++p )
	{
		tbContactConstraintPoint* cp = c->points + p;
		float l1 = cp->tangentImpulse[0] - cp->rows[1].mass * tbRowVelocity( cp->rows + 1, c->tangent1, &a, &b );
		float l2 = cp->tangentImpulse[1] - cp->rows[2].mass * tbRowVelocity( cp->rows + 2, c->tangent2, &a, &b );
		// Clamp to the friction cone (circle), not the box, so friction is isotropic.
		float maxFriction = c->friction * cp->normalImpulse;
		float lenSq = l1 * l1 + l2 * l2;
		if ( lenSq > maxFriction * maxFriction )
		{
			float scale = lenSq > 0.0f ? maxFriction / sqrtf( lenSq ) : 0.0f;
			l1 *= scale;
			l2 *= scale;
		}
		float d1 = l1 - cp->tangentImpulse[0];
		float d2 = l2 - cp->tangentImpulse[1];
		cp->tangentImpulse[0] = l1;
		cp->tangentImpulse[1] = l2;
		tbApplyRow( c, cp->rows + 1, c->tangent1, d1, &a, &b );
		tbApplyRow( c, cp->rows + 2, c->tangent2, d2, &a, &b );
	}
	tbStoreStates( ctx, c, &a, &b );
}

// Non-linear Gauss-Seidel on positions: the "single-frame push" of reference 001. Each point's
// remaining penetration beyond the slop is removed by a position/rotation change along the
// normal, through the same effective mass as the velocity row, and no velocity is added.
// In soft mode only points deeper than the soft range are moved here (back to the slop); in
// split mode every point deeper than the slop.
// Returns whether the contact moved its bodies.
static bool tbSolveContactPosition( tbStepContext* ctx, tbContactConstraint* c )
{
	const bool soft = ctx->mode == tbSolver_soft;
	const float beta = soft ? 0.5f : ctx->baumgarte;
	const float slop = ctx->linearSlop;
	const float activation = soft ? -TB_SOFT_RANGE : -ctx->linearSlop;
	const float maxCorrection = TB_MAX_LINEAR_CORRECTION;
	// The outcome is a function of the two bodies' motion alone: a contact measured after both
	// last moved would find what it found then, nothing to move (a contact that moved its bodies
	// moved them at its own stage). A pile's later passes measure only the contacts around what
	// the earlier ones moved (ragdolls: every step takes all three passes).
	int* movedAt = ctx->positionMovedAt;
	int tested = c->positionTestedAt;
	if ( movedAt != NULL && tested >= 0 && ( c->indexA < 0 || movedAt[c->indexA] < tested ) &&
		 ( c->indexB < 0 || movedAt[c->indexB] < tested ) )
	{
		return false;
	}
	c->positionTestedAt = ctx->positionStage;
	const tbBodyState* sa = tbGetState( ctx, c->indexA );
	const tbBodyState* sb = tbGetState( ctx, c->indexB );

	// Most contacts are nowhere near the activation depth: bound every point's current separation
	// from below without rotating its anchors, and skip the contact when no point can activate.
	// s = separation0 + n.(dpB - dpA) + n.(R_B rB - rB) - n.(R_A rA - rA), and a rotation by the unit
	// quaternion q moves r by |R r - r| = 2 sin(theta / 2) |r_perp| <= 2 |q.xyz| |r|. The margin
	// covers float rounding in tbCurrentSeparation, so a skip never changes the result.
	float reach = 2.0f * ( tbLength( tbMakeVec3( sa->dq.x, sa->dq.y, sa->dq.z ) ) * c->maxLeverA +
						   tbLength( tbMakeVec3( sb->dq.x, sb->dq.y, sb->dq.z ) ) * c->maxLeverB );
	float shift = tbDot( c->normal, tbSub( sb->dp, sa->dp ) );
	float margin = 1.0e-4f + 1.0e-5f * ( c->maxLeverA + c->maxLeverB + tbAbsFloat( shift ) + tbAbsFloat( c->minSeparation0 ) );
	if ( c->minSeparation0 + shift - reach - margin >= activation )
	{
		return false;
	}
	tbBodyState a = *sa;
	tbBodyState b = *sb;

	bool moved = false;
	for ( int p = 0; p < c->pointCount; ++p )
	{
		tbContactConstraintPoint* cp = c->points + p;
		float s = tbCurrentSeparation( c, cp, &a, &b );
		if ( s >= activation )
		{
			continue;
		}
		float C = tbClampFloat( beta * ( s + slop ), -maxCorrection, 0.0f );
		tbMakeContactRows( ctx, c );
		const tbContactRow* row = cp->rows + 0;
		float impulse = -row->mass * C;
		a.dp = tbMulSub( a.dp, c->invMassA * impulse, c->normal );
		b.dp = tbMulAdd( b.dp, c->invMassB * impulse, c->normal );
		a.dq = tbIntegrateRotation( a.dq, tbMulSV( -impulse, row->impA ), 1.0f );
		b.dq = tbIntegrateRotation( b.dq, tbMulSV( impulse, row->impB ), 1.0f );
		moved = true;
	}
	if ( moved )
	{
		tbStoreStates( ctx, c, &a, &b );
		// Only the bodies stored: a static or kinematic side is shared within a colour.
		if ( movedAt != NULL && tbIsMovingBody( ctx, c->indexA ) )
		{
			movedAt[c->indexA] = ctx->positionStage;
		}
		if ( movedAt != NULL && tbIsMovingBody( ctx, c->indexB ) )
		{
			movedAt[c->indexB] = ctx->positionStage;
		}
	}
	return moved;
}

// Restitution -----------------------------------------------------------------------------------------
//
// A bounce is a velocity target on the normal row: after an impact approaching at v (normal
// velocity, negative) the points leave at -e v. Two passes apply it:
// - tbPropagateImpacts, before the solve, for contacts in touch with a body that touches another
//   (a row of balls, a ball on a box on the ground). The simultaneous solve would share an impact out
//   over every touching contact at once: five touching balls of restitution 1, the first at 3 m/s,
//   came out at -0.38 -0.38 0.46 1.65 1.65 m/s. Taken one contact at a time instead, each with the
//   approach speed it has when the impact reaches it, the first ball stops and hands its speed on,
//   and so on down the row: 0 0 0 0 3, as two-body impacts in quick succession give.
// - tbApplyContactRestitution, after the solve, for a lone impact (a ball or a box on the ground):
//   the speculative rows stop the bodies at contact, then the bounce is set.
// Both sweep a manifold's bouncing points together (alternating their order), so a box that lands
// flat leaves flat: one pass over the points spun a box bouncing at e = 0.5 at 1.3 rad/s.

/// Sweeps over a manifold's bouncing points (a single point needs one).
#define TB_BOUNCE_SWEEPS 8

static void tbApplyContactRestitution( tbStepContext* ctx, tbContactConstraint* c )
{
	if ( c->restitution == 0.0f )
	{
		return;
	}
	// Only impacts faster than the threshold (tbPrepareContactBlock) that actually pushed this step
	// bounce.
	int mask = 0, bouncing = 0;
	for ( int p = 0; p < c->pointCount; ++p )
	{
		if ( c->points[p].bounce < 0.0f && c->points[p].maxNormalImpulse != 0.0f )
		{
			mask |= 1 << p;
			bouncing += 1;
		}
	}
	if ( bouncing == 0 )
	{
		return;
	}
	tbMakeContactRows( ctx, c );
	tbBodyState a = *tbGetState( ctx, c->indexA );
	tbBodyState b = *tbGetState( ctx, c->indexB );
	int sweeps = bouncing > 1 ? TB_BOUNCE_SWEEPS : 1;
	for ( int sweep = 0; sweep < sweeps; ++sweep )
	{
		for ( int k = 0; k < c->pointCount; ++k )
		{
			int p = ( sweep & 1 ) != 0 ? c->pointCount - 1 - k : k;
			if ( ( mask & ( 1 << p ) ) == 0 )
			{
				continue;
			}
			tbContactConstraintPoint* cp = c->points + p;
			float vn = tbRowVelocity( cp->rows + 0, c->normal, &a, &b );
			float impulse = -cp->rows[0].mass * ( vn + cp->bounce );
			float newImpulse = tbMaxFloat( cp->normalImpulse + impulse, 0.0f );
			impulse = newImpulse - cp->normalImpulse;
			cp->normalImpulse = newImpulse;
			cp->maxNormalImpulse = tbMaxFloat( cp->maxNormalImpulse, impulse );
			cp->stepNormalImpulse += impulse;
			tbApplyRow( c, cp->rows + 0, c->normal, impulse, &a, &b );
		}
	}
	tbStoreStates( ctx, c, &a, &b );
}

// One contact of the impact propagation: if a point that is touching, or closes within the step at
// its speed now, approaches faster than the threshold, every such point of the manifold is given
// the bounce of its approach now, together (the impulses of this impact start from zero and stay
// pushing). Returns whether it bounced.
static bool tbBounceContact( tbStepContext* ctx, tbContactConstraint* c )
{
	tbMakeContactRows( ctx, c );
	const float threshold = ctx->restitutionThreshold;
	tbBodyState a = *tbGetState( ctx, c->indexA );
	tbBodyState b = *tbGetState( ctx, c->indexB );
	float target[TB_MAX_MANIFOLD_POINTS], lambda[TB_MAX_MANIFOLD_POINTS], slide[TB_MAX_MANIFOLD_POINTS][2];
	int mask = 0;
	bool fires = false;
	for ( int p = 0; p < c->pointCount; ++p )
	{
		tbContactConstraintPoint* cp = c->points + p;
		float vn = tbRowVelocity( cp->rows + 0, c->normal, &a, &b );
		if ( cp->separation0 + tbMinFloat( vn, 0.0f ) * ctx->dt > ctx->linearSlop )
		{
			continue;
		}
		mask |= 1 << p;
		fires = fires || vn < -threshold;
		// A slower point of the manifold only does not sink (the bounce turns nothing into it).
		target[p] = vn < -threshold ? -tbMaxFloat( c->restitution * vn, -TB_MAX_SPEED ) : 0.0f;
		lambda[p] = 0.0f;
		slide[p][0] = 0.0f;
		slide[p][1] = 0.0f;
	}
	if ( fires == false )
	{
		return false;
	}
	// With friction the rows depend on each other even for one point: always the full sweeps.
	for ( int sweep = 0; sweep < TB_BOUNCE_SWEEPS; ++sweep )
	{
		for ( int k = 0; k < c->pointCount; ++k )
		{
			int p = ( sweep & 1 ) != 0 ? c->pointCount - 1 - k : k;
			if ( ( mask & ( 1 << p ) ) == 0 )
			{
				continue;
			}
			tbContactConstraintPoint* cp = c->points + p;
			float vn = tbRowVelocity( cp->rows + 0, c->normal, &a, &b );
			float newLambda = tbMaxFloat( lambda[p] - cp->rows[0].mass * ( vn - target[p] ), 0.0f );
			float impulse = newLambda - lambda[p];
			lambda[p] = newLambda;
			tbApplyRow( c, cp->rows + 0, c->normal, impulse, &a, &b );
		}
		// Friction during the impact, within the cone of its normal impulse: the solve after sees
		// the contact separating and applies none, and a glancing impact would otherwise keep all
		// of its sliding (a 100 m/s sphere and diamond meeting off centre slid past each other).
		for ( int p = 0; p < c->pointCount; ++p )
		{
			if ( ( mask & ( 1 << p ) ) == 0 )
			{
				continue;
			}
			tbContactConstraintPoint* cp = c->points + p;
			float l1 = slide[p][0] - cp->rows[1].mass * tbRowVelocity( cp->rows + 1, c->tangent1, &a, &b );
			float l2 = slide[p][1] - cp->rows[2].mass * tbRowVelocity( cp->rows + 2, c->tangent2, &a, &b );
			float maxFriction = c->friction * lambda[p];
			float lenSq = l1 * l1 + l2 * l2;
			if ( lenSq > maxFriction * maxFriction )
			{
				float scale = lenSq > 0.0f ? maxFriction / sqrtf( lenSq ) : 0.0f;
				l1 *= scale;
				l2 *= scale;
			}
			tbApplyRow( c, cp->rows + 1, c->tangent1, l1 - slide[p][0], &a, &b );
			tbApplyRow( c, cp->rows + 2, c->tangent2, l2 - slide[p][1], &a, &b );
			slide[p][0] = l1;
			slide[p][1] = l2;
		}
	}
	for ( int p = 0; p < c->pointCount; ++p )
	{
		if ( mask & ( 1 << p ) )
		{
			c->points[p].impactImpulse += lambda[p];
		}
	}
	tbStoreStates( ctx, c, &a, &b );
	return true;
}

void tbPropagateImpacts( tbStepContext* ctx )
{
	const int n = ctx->contactCount;
	const float slop = ctx->linearSlop;
	// Cheap way out for the common scenes: nothing bouncy approaches.
	bool any = false;
	for ( int i = 0; i < n && any == false; ++i )
	{
		const tbContactConstraint* c = ctx->contacts + i;
		for ( int p = 0; p < c->pointCount; ++p )
		{
			any = any || c->points[p].bounce < 0.0f;
		}
	}
	if ( any == false )
	{
		return;
	}

	// Touching contacts of each moving body (any restitution: a ball landing on a box that rests on
	// the ground is in a row as much as a ball hitting a ball).
	int bodyCount = ctx->bodyCount;
	int* starts = TB_ARENA_ARRAY( ctx->arena, int, bodyCount + 1 );
	int* candidates = TB_ARENA_ARRAY( ctx->arena, int, n );
	if ( starts == NULL || candidates == NULL )
	{
		// Without the memory every impact takes the restitution pass after the solve.
		return;
	}
	for ( int i = 0; i < n; ++i )
	{
		const tbContactConstraint* c = ctx->contacts + i;
		if ( c->minSeparation0 <= slop )
		{
			starts[c->indexA >= 0 ? c->indexA : bodyCount] += tbIsMovingBody( ctx, c->indexA ) ? 1 : 0;
			starts[c->indexB >= 0 ? c->indexB : bodyCount] += tbIsMovingBody( ctx, c->indexB ) ? 1 : 0;
		}
	}
	// The candidates: bouncy contacts that touch, or whose bodies touch something else.
	int candidateCount = 0;
	for ( int i = 0; i < n; ++i )
	{
		const tbContactConstraint* c = ctx->contacts + i;
		if ( c->restitution == 0.0f )
		{
			continue;
		}
		// In a row: a body of it touches something besides this contact. Two bodies that touch
		// nothing else (two balls, a ball on the ground, a pair caught at their time of impact) are
		// a lone impact, bounced after the solve.
		int self = c->minSeparation0 <= slop ? 1 : 0;
		bool inRow = ( tbIsMovingBody( ctx, c->indexA ) && starts[c->indexA] > self ) ||
					 ( tbIsMovingBody( ctx, c->indexB ) && starts[c->indexB] > self );
		if ( inRow )
		{
			candidates[candidateCount++] = i;
		}
	}
	if ( candidateCount == 0 )
	{
		return;
	}

	// Each moving body's candidates (compressed rows), and a queue in which a contact waits at most
	// once at a time: every candidate in constraint order first, then the contacts of the bodies a
	// bounce moved, in the order the impact reaches them.
	int* adjacency = TB_ARENA_ARRAY( ctx->arena, int, 2 * candidateCount );
	int* queue = TB_ARENA_ARRAY( ctx->arena, int, candidateCount );
	bool* queued = TB_ARENA_ARRAY( ctx->arena, bool, n );
	int* fill = TB_ARENA_ARRAY( ctx->arena, int, bodyCount + 1 );
	if ( adjacency == NULL || queue == NULL || queued == NULL || fill == NULL )
	{
		return;
	}
	memset( starts, 0, sizeof( int ) * (size_t)( bodyCount + 1 ) );
	for ( int k = 0; k < candidateCount; ++k )
	{
		const tbContactConstraint* c = ctx->contacts + candidates[k];
		starts[tbIsMovingBody( ctx, c->indexA ) ? c->indexA : bodyCount] += 1;
		starts[tbIsMovingBody( ctx, c->indexB ) ? c->indexB : bodyCount] += 1;
	}
	int total = 0;
	for ( int i = 0; i <= bodyCount; ++i )
	{
		int count = starts[i];
		starts[i] = total;
		fill[i] = total;
		total += count;
	}
	for ( int k = 0; k < candidateCount; ++k )
	{
		const tbContactConstraint* c = ctx->contacts + candidates[k];
		adjacency[fill[tbIsMovingBody( ctx, c->indexA ) ? c->indexA : bodyCount]++] = candidates[k];
		adjacency[fill[tbIsMovingBody( ctx, c->indexB ) ? c->indexB : bodyCount]++] = candidates[k];
	}
	for ( int k = 0; k < candidateCount; ++k )
	{
		queue[k] = candidates[k];
		queued[candidates[k]] = true;
	}

	// Restitution 1 between two walls would pass a bounce back and forth for ever: a bounded number
	// of contacts is taken, and the solve after shares out whatever is left.
	int head = 0, length = candidateCount;
	int budget = 4 * candidateCount + 64;
	while ( length > 0 && budget > 0 )
	{
		int i = queue[head];
		head = head + 1 < candidateCount ? head + 1 : 0;
		length -= 1;
		budget -= 1;
		queued[i] = false;
		tbContactConstraint* c = ctx->contacts + i;
		if ( tbBounceContact( ctx, c ) == false )
		{
			continue;
		}
		int sides[2] = { c->indexA, c->indexB };
		for ( int s = 0; s < 2; ++s )
		{
			if ( tbIsMovingBody( ctx, sides[s] ) == false )
			{
				continue;
			}
			for ( int e = starts[sides[s]]; e < starts[sides[s] + 1]; ++e )
			{
				int j = adjacency[e];
				if ( j != i && queued[j] == false )
				{
					int tail = head + length < candidateCount ? head + length : head + length - candidateCount;
					queue[tail] = j;
					queued[j] = true;
					length += 1;
				}
			}
		}
	}
	// The candidates' impacts are done: the restitution pass after the solve leaves them alone.
	for ( int k = 0; k < candidateCount; ++k )
	{
		tbContactConstraint* c = ctx->contacts + candidates[k];
		for ( int p = 0; p < c->pointCount; ++p )
		{
			c->points[p].bounce = 0.0f;
		}
	}
}

// Coloured stages ----------------------------------------------------------------------------------

typedef enum tbContactStage
{
	tbStage_warmStart,
	tbStage_solve,
	tbStage_positions,
	tbStage_restitution,
} tbContactStage;

typedef struct tbStageTask
{
	tbStepContext* ctx;
	const int* order; ///< constraint indices of one colour
	tbContactStage stage;
	bool useBias;
	bool reverse;
	atomic_bool moved; ///< positions stage: some contact moved its bodies
} tbStageTask;

static void tbRunStage( tbStageTask* task, int start, int end )
{
	tbStepContext* ctx = task->ctx;
	for ( int i = start; i < end; ++i )
	{
		tbContactConstraint* c = ctx->contacts + task->order[i];
		switch ( task->stage )
		{
			case tbStage_warmStart:
				tbWarmStartContact( ctx, c );
				break;
			case tbStage_solve:
				tbSolveContact( ctx, c, task->useBias, task->reverse );
				break;
			case tbStage_positions:
				if ( tbSolveContactPosition( ctx, c ) )
				{
					atomic_store_explicit( &task->moved, true, memory_order_relaxed );
				}
				break;
			case tbStage_restitution:
				tbApplyContactRestitution( ctx, c );
				break;
		}
	}
}

static void tbStageBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	tbRunStage( context, start, end );
}

// One pass over every contact: colour after colour, each colour in parallel (its constraints share
// no moving body, so their order does not matter), then the overflow set on this thread. Velocity
// stages run on the wide constraints, the others on the scalar ones. Returns whether a position
// pass moved any body.
static bool tbRunColoredStage( tbStepContext* ctx, tbContactStage stage, bool useBias, bool reverse )
{
	const tbConstraintGraph* graph = &ctx->graph;
	bool wide = stage == tbStage_warmStart || stage == tbStage_solve;
	tbStageTask task = { ctx, NULL, stage, useBias, reverse, false };
	for ( int color = 0; color < TB_GRAPH_COLOR_COUNT; ++color )
	{
		if ( wide )
		{
			tbRunWideContacts( ctx, color, stage == tbStage_warmStart, useBias, reverse );
			continue;
		}
		int first = graph->colorStarts[color];
		int count = graph->colorStarts[color + 1] - first;
		if ( count > 0 )
		{
			ctx->positionStage += 1;
			task.order = graph->order + first;
			tbParallelFor( ctx->jobs, count, TB_CONTACT_BLOCK_SIZE, tbStageBlock, &task );
		}
	}
	ctx->positionStage += 1;
	int first = graph->colorStarts[TB_GRAPH_COLOR_COUNT];
	task.order = graph->order + first;
	tbRunStage( &task, 0, graph->colorStarts[TB_GRAPH_COLOR_COUNT + 1] - first );
	return atomic_load_explicit( &task.moved, memory_order_relaxed );
}

void tbWarmStartContacts( tbStepContext* ctx )
{
	tbRunColoredStage( ctx, tbStage_warmStart, false, false );
}

void tbSolveContacts( tbStepContext* ctx, bool useBias )
{
	// Symmetric Gauss-Seidel: every other pass visits a manifold's points in reverse, so the order
	// of the points does not bias the impulse distribution (a box would otherwise tip towards
	// the point solved first, which shows as drift at the top of a tall stack).
	const bool reverse = ( ctx->passIndex++ & 1 ) != 0;
	tbRunColoredStage( ctx, tbStage_solve, useBias, reverse );
}

bool tbSolveContactPositions( tbStepContext* ctx )
{
	if ( ctx->positionMovedAt == NULL )
	{
		// Without the memory every pass measures every contact.
		ctx->positionMovedAt = TB_ARENA_ARRAY_RAW( ctx->arena, int, ctx->bodyCount > 0 ? ctx->bodyCount : 1 );
		for ( int i = 0; ctx->positionMovedAt != NULL && i < ctx->bodyCount; ++i )
		{
			ctx->positionMovedAt[i] = -1;
		}
	}
	return tbRunColoredStage( ctx, tbStage_positions, false, false );
}

void tbApplyRestitution( tbStepContext* ctx )
{
	tbUnpackWideContacts( ctx );
	tbRunColoredStage( ctx, tbStage_restitution, false, false );
}

typedef struct tbStoreTask
{
	tbWorld* world;
	tbStepContext* ctx;
} tbStoreTask;

static void tbStoreBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	tbStoreTask* task = context;
	for ( int i = start; i < end; ++i )
	{
		tbContactConstraint* c = task->ctx->contacts + i;
		tbManifold* m = &task->world->contacts.data[c->contactId].manifold;
		for ( int p = 0; p < c->pointCount; ++p )
		{
			m->points[p].normalImpulse = c->points[p].normalImpulse;
			m->points[p].tangentImpulse[0] = c->points[p].tangentImpulse[0];
			m->points[p].tangentImpulse[1] = c->points[p].tangentImpulse[1];
			// The impact propagation's impulse is the step's too (events and the reported impulse).
			m->points[p].maxNormalImpulse = tbMaxFloat( c->points[p].maxNormalImpulse, c->points[p].impactImpulse );
			m->points[p].stepNormalImpulse =
				( task->ctx->mode == tbSolver_soft ? c->points[p].stepNormalImpulse : c->points[p].normalImpulse ) +
				c->points[p].impactImpulse;
			m->points[p].normalVelocity = c->points[p].relativeVelocity;
		}
	}
}

void tbStoreContactImpulses( tbWorld* world, tbStepContext* ctx )
{
	tbStoreTask task = { world, ctx };
	tbParallelFor( ctx->jobs, ctx->contactCount, TB_CONTACT_BLOCK_SIZE, tbStoreBlock, &task );
}
