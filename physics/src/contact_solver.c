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
#include "core.h"
#include "shape.h"
#include "world.h"
#include "tumble/tumble.h"

#include <math.h>

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

void tbPrepareContacts( tbWorld* world, tbStepContext* ctx )
{
	int capacity = world->contacts.liveCount;
	ctx->contacts = TB_ARENA_ARRAY( ctx->arena, tbContactConstraint, capacity > 0 ? capacity : 1 );
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

		tbContactConstraint* c = ctx->contacts + n;
		contact->constraintIndex = n;
		n += 1;
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

		for ( int p = 0; p < c->pointCount; ++p )
		{
			const tbManifoldPoint* mp = contact->manifold.points + p;
			tbContactConstraintPoint* cp = c->points + p;
			cp->rA = tbSub( mp->anchorA, offsetA );
			cp->rB = tbSub( mp->anchorB, offsetB );
			cp->adjustedSeparation = mp->separation - tbDot( tbSub( cp->rB, cp->rA ), c->normal );
			cp->separation0 = mp->separation;

			if ( ctx->enableWarmStarting )
			{
				cp->normalImpulse = mp->normalImpulse;
				cp->tangentImpulse[0] = mp->tangentImpulse[0];
				cp->tangentImpulse[1] = mp->tangentImpulse[1];
			}
			cp->maxNormalImpulse = 0.0f;
			cp->rows[0] = tbMakeRow( mA, mB, &sbA->invInertia, &sbB->invInertia, cp->rA, cp->rB, c->normal );
			cp->rows[1] = tbMakeRow( mA, mB, &sbA->invInertia, &sbB->invInertia, cp->rA, cp->rB, c->tangent1 );
			cp->rows[2] = tbMakeRow( mA, mB, &sbA->invInertia, &sbB->invInertia, cp->rA, cp->rB, c->tangent2 );
			tbVec3 dv = tbSub( tbAdd( vB, tbCross( wB, cp->rB ) ), tbAdd( vA, tbCross( wA, cp->rA ) ) );
			cp->relativeVelocity = tbDot( c->normal, dv );
		}
	}
	ctx->contactCount = n;
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

void tbWarmStartContacts( tbStepContext* ctx )
{
	for ( int i = 0; i < ctx->contactCount; ++i )
	{
		tbContactConstraint* c = ctx->contacts + i;
		tbBodyState* a = tbGetState( ctx, c->indexA );
		tbBodyState* b = tbGetState( ctx, c->indexB );
		for ( int p = 0; p < c->pointCount; ++p )
		{
			tbContactConstraintPoint* cp = c->points + p;
			tbApplyRow( c, cp->rows + 0, c->normal, cp->normalImpulse, a, b );
			tbApplyRow( c, cp->rows + 1, c->tangent1, cp->tangentImpulse[0], a, b );
			tbApplyRow( c, cp->rows + 2, c->tangent2, cp->tangentImpulse[1], a, b );
		}
	}
}

// Separation of a point now, from the bodies' motion since the step began.
static inline float tbCurrentSeparation( const tbContactConstraint* c, const tbContactConstraintPoint* cp,
										 const tbBodyState* a, const tbBodyState* b )
{
	tbVec3 prA = tbRotate( a->dq, cp->rA );
	tbVec3 prB = tbRotate( b->dq, cp->rB );
	tbVec3 d = tbAdd( tbSub( b->dp, a->dp ), tbSub( prB, prA ) );
	return tbDot( c->normal, d ) + cp->adjustedSeparation;
}

void tbSolveContacts( tbStepContext* ctx, bool useBias )
{
	const float inv_h = ctx->inv_h;
	const float maxBias = ctx->maxBiasVelocity;
	const tbSolverMode mode = ctx->mode;
	// Symmetric Gauss-Seidel: every other pass visits a manifold's points in reverse, so the order
	// of the points does not bias the impulse distribution (a box would otherwise tip towards
	// the point solved first, which shows as drift at the top of a tall stack).
	const bool reverse = ( ctx->passIndex++ & 1 ) != 0;
	for ( int i = 0; i < ctx->contactCount; ++i )
	{
		tbContactConstraint* c = ctx->contacts + i;
		tbBodyState* a = tbGetState( ctx, c->indexA );
		tbBodyState* b = tbGetState( ctx, c->indexB );

		for ( int k = 0; k < c->pointCount; ++k )
		{
			int p = reverse ? c->pointCount - 1 - k : k;
			tbContactConstraintPoint* cp = c->points + p;
			float s = tbCurrentSeparation( c, cp, a, b );
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

			float vn = tbRowVelocity( cp->rows + 0, c->normal, a, b );
			float impulse = -cp->rows[0].mass * massScale * ( vn + bias ) - impulseScale * cp->normalImpulse;
			float newImpulse = tbMaxFloat( cp->normalImpulse + impulse, 0.0f );
			impulse = newImpulse - cp->normalImpulse;
			cp->normalImpulse = newImpulse;
			cp->maxNormalImpulse = tbMaxFloat( cp->maxNormalImpulse, impulse );
			tbApplyRow( c, cp->rows + 0, c->normal, impulse, a, b );
		}

		// Friction after the normal rows, so it is bounded by this pass's normal impulses.
		for ( int p = 0; p < c->pointCount; ++p )
		{
			tbContactConstraintPoint* cp = c->points + p;
			float l1 = cp->tangentImpulse[0] - cp->rows[1].mass * tbRowVelocity( cp->rows + 1, c->tangent1, a, b );
			float l2 = cp->tangentImpulse[1] - cp->rows[2].mass * tbRowVelocity( cp->rows + 2, c->tangent2, a, b );
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
			tbApplyRow( c, cp->rows + 1, c->tangent1, d1, a, b );
			tbApplyRow( c, cp->rows + 2, c->tangent2, d2, a, b );
		}
	}
}

void tbSolveContactPositions( tbStepContext* ctx )
{
	// Non-linear Gauss-Seidel on positions: the "single-frame push" of reference 001. Each point's
	// remaining penetration beyond the slop is removed by a position/rotation change along the
	// normal, through the same effective mass as the velocity row, and no velocity is added.
	// In soft mode only points deeper than the soft range are moved here (back to the slop); in
	// split mode every point deeper than the slop.
	const bool soft = ctx->mode == tbSolver_soft;
	const float beta = soft ? 0.5f : ctx->baumgarte;
	const float slop = ctx->linearSlop;
	const float activation = soft ? -TB_SOFT_RANGE : -ctx->linearSlop;
	const float maxCorrection = TB_MAX_LINEAR_CORRECTION;
	for ( int i = 0; i < ctx->contactCount; ++i )
	{
		tbContactConstraint* c = ctx->contacts + i;
		tbBodyState* a = tbGetState( ctx, c->indexA );
		tbBodyState* b = tbGetState( ctx, c->indexB );
		for ( int p = 0; p < c->pointCount; ++p )
		{
			tbContactConstraintPoint* cp = c->points + p;
			float s = tbCurrentSeparation( c, cp, a, b );
			if ( s >= activation )
			{
				continue;
			}
			float C = tbClampFloat( beta * ( s + slop ), -maxCorrection, 0.0f );
			const tbContactRow* row = cp->rows + 0;
			float impulse = -row->mass * C;
			a->dp = tbMulSub( a->dp, c->invMassA * impulse, c->normal );
			b->dp = tbMulAdd( b->dp, c->invMassB * impulse, c->normal );
			a->dq = tbIntegrateRotation( a->dq, tbMulSV( -impulse, row->impA ), 1.0f );
			b->dq = tbIntegrateRotation( b->dq, tbMulSV( impulse, row->impB ), 1.0f );
		}
	}
}

void tbApplyRestitution( tbStepContext* ctx )
{
	const float threshold = ctx->restitutionThreshold;
	for ( int i = 0; i < ctx->contactCount; ++i )
	{
		tbContactConstraint* c = ctx->contacts + i;
		if ( c->restitution == 0.0f )
		{
			continue;
		}
		tbBodyState* a = tbGetState( ctx, c->indexA );
		tbBodyState* b = tbGetState( ctx, c->indexB );
		for ( int p = 0; p < c->pointCount; ++p )
		{
			tbContactConstraintPoint* cp = c->points + p;
			// Only impacts faster than the threshold that actually pushed this step bounce.
			if ( cp->relativeVelocity > -threshold || cp->maxNormalImpulse == 0.0f )
			{
				continue;
			}
			float vn = tbRowVelocity( cp->rows + 0, c->normal, a, b );
			float impulse = -cp->rows[0].mass * ( vn + c->restitution * cp->relativeVelocity );
			float newImpulse = tbMaxFloat( cp->normalImpulse + impulse, 0.0f );
			impulse = newImpulse - cp->normalImpulse;
			cp->normalImpulse = newImpulse;
			cp->maxNormalImpulse = tbMaxFloat( cp->maxNormalImpulse, impulse );
			tbApplyRow( c, cp->rows + 0, c->normal, impulse, a, b );
		}
	}
}

void tbStoreContactImpulses( tbWorld* world, tbStepContext* ctx )
{
	for ( int i = 0; i < ctx->contactCount; ++i )
	{
		tbContactConstraint* c = ctx->contacts + i;
		tbManifold* m = &world->contacts.data[c->contactId].manifold;
		for ( int p = 0; p < c->pointCount; ++p )
		{
			m->points[p].normalImpulse = c->points[p].normalImpulse;
			m->points[p].tangentImpulse[0] = c->points[p].tangentImpulse[0];
			m->points[p].tangentImpulse[1] = c->points[p].tangentImpulse[1];
			m->points[p].maxNormalImpulse = c->points[p].maxNormalImpulse;
			m->points[p].normalVelocity = c->points[p].relativeVelocity;
		}
	}
}
