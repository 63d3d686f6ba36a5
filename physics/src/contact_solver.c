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

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

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

static bool tbPrepareWideContacts( tbStepContext* ctx );

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
			cp->rows[0] = tbMakeRow( mA, mB, &sbA->invInertia, &sbB->invInertia, cp->rA, cp->rB, c->normal );
			cp->rows[1] = tbMakeRow( mA, mB, &sbA->invInertia, &sbB->invInertia, cp->rA, cp->rB, c->tangent1 );
			cp->rows[2] = tbMakeRow( mA, mB, &sbA->invInertia, &sbB->invInertia, cp->rA, cp->rB, c->tangent2 );
			tbVec3 dv = tbSub( tbAdd( vB, tbCross( wB, cp->rB ) ), tbAdd( vA, tbCross( wA, cp->rA ) ) );
			// The speed a bounce restores, within what a body may reach: a spinning shape of 1e38 m
			// (any finite size is accepted) gave an infinite approach speed and a NaN bounce.
			float vn = tbDot( c->normal, dv );
			cp->relativeVelocity = tbIsValidFloat( vn ) ? tbClampFloat( vn, -TB_MAX_SPEED, TB_MAX_SPEED ) : 0.0f;
		}
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
		 tbPrepareWideContacts( ctx ) )
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

// The solver works on copies of the two bodies' states and writes back only bodies it moves:
// static and kinematic states are shared by constraints of one colour (solved in parallel), and
// their zero inverse mass means the copies are unchanged anyway.
static inline bool tbIsMovingBody( const tbStepContext* ctx, int index )
{
	return index >= 0 && ctx->bodies[index].isKinematic == false;
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

// Separation of a point now, from the bodies' motion since the step began.
static inline float tbCurrentSeparation( const tbContactConstraint* c, const tbContactConstraintPoint* cp,
										 const tbBodyState* a, const tbBodyState* b )
{
	tbVec3 prA = tbRotate( a->dq, cp->rA );
	tbVec3 prB = tbRotate( b->dq, cp->rB );
	tbVec3 d = tbAdd( tbSub( b->dp, a->dp ), tbSub( prB, prA ) );
	return tbDot( c->normal, d ) + cp->adjustedSeparation;
}

static void tbSolveContact( tbStepContext* ctx, tbContactConstraint* c, bool useBias, bool reverse )
{
	const float inv_h = ctx->inv_h;
	const float maxBias = ctx->maxBiasVelocity;
	const tbSolverMode mode = ctx->mode;
	tbBodyState a = *tbGetState( ctx, c->indexA );
	tbBodyState b = *tbGetState( ctx, c->indexB );

	for ( int k = 0; k < c->pointCount; ++k )
	{
		int p = reverse ? c->pointCount - 1 - k : k;
		tbContactConstraintPoint* cp = c->points + p;
		float s = tbCurrentSeparation( c, cp, &a, &b );
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

		float vn = tbRowVelocity( cp->rows + 0, c->normal, &a, &b );
		float impulse = -cp->rows[0].mass * massScale * ( vn + bias ) - impulseScale * cp->normalImpulse;
		float newImpulse = tbMaxFloat( cp->normalImpulse + impulse, 0.0f );
		impulse = newImpulse - cp->normalImpulse;
		cp->normalImpulse = newImpulse;
		cp->maxNormalImpulse = tbMaxFloat( cp->maxNormalImpulse, impulse );
		// A soft sub-step ends with its one relax pass: what the point holds then is the impulse
		// of that sub-step (the next one starts from it again by warm starting).
		cp->stepNormalImpulse += mode == tbSolver_soft && useBias == false ? newImpulse : 0.0f;
		tbApplyRow( c, cp->rows + 0, c->normal, impulse, &a, &b );
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
static void tbSolveContactPosition( tbStepContext* ctx, tbContactConstraint* c )
{
	const bool soft = ctx->mode == tbSolver_soft;
	const float beta = soft ? 0.5f : ctx->baumgarte;
	const float slop = ctx->linearSlop;
	const float activation = soft ? -TB_SOFT_RANGE : -ctx->linearSlop;
	const float maxCorrection = TB_MAX_LINEAR_CORRECTION;
	tbBodyState a = *tbGetState( ctx, c->indexA );
	tbBodyState b = *tbGetState( ctx, c->indexB );

	// Most contacts are nowhere near the activation depth: bound every point's current separation
	// from below without rotating its anchors, and skip the contact when no point can activate.
	// s = separation0 + n.(dpB - dpA) + n.(R_B rB - rB) - n.(R_A rA - rA), and a rotation by the unit
	// quaternion q moves r by |R r - r| = 2 sin(theta / 2) |r_perp| <= 2 |q.xyz| |r|. The margin
	// covers float rounding in tbCurrentSeparation, so a skip never changes the result.
	float reach = 2.0f * ( tbLength( tbMakeVec3( a.dq.x, a.dq.y, a.dq.z ) ) * c->maxLeverA +
						   tbLength( tbMakeVec3( b.dq.x, b.dq.y, b.dq.z ) ) * c->maxLeverB );
	float shift = tbDot( c->normal, tbSub( b.dp, a.dp ) );
	float margin = 1.0e-4f + 1.0e-5f * ( c->maxLeverA + c->maxLeverB + tbAbsFloat( shift ) + tbAbsFloat( c->minSeparation0 ) );
	if ( c->minSeparation0 + shift - reach - margin >= activation )
	{
		return;
	}

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
	}
}

static void tbApplyContactRestitution( tbStepContext* ctx, tbContactConstraint* c )
{
	const float threshold = ctx->restitutionThreshold;
	if ( c->restitution == 0.0f )
	{
		return;
	}
	tbBodyState a = *tbGetState( ctx, c->indexA );
	tbBodyState b = *tbGetState( ctx, c->indexB );
	for ( int p = 0; p < c->pointCount; ++p )
	{
		tbContactConstraintPoint* cp = c->points + p;
		// Only impacts faster than the threshold that actually pushed this step bounce.
		if ( cp->relativeVelocity > -threshold || cp->maxNormalImpulse == 0.0f )
		{
			continue;
		}
		float vn = tbRowVelocity( cp->rows + 0, c->normal, &a, &b );
		// The bounce speed within what a body may reach: any finite restitution is accepted, and
		// 3.4e38 times the approach speed is -inf (fuzz finding 49).
		float bounce = tbMaxFloat( c->restitution * cp->relativeVelocity, -TB_MAX_SPEED );
		float impulse = -cp->rows[0].mass * ( vn + bounce );
		float newImpulse = tbMaxFloat( cp->normalImpulse + impulse, 0.0f );
		impulse = newImpulse - cp->normalImpulse;
		cp->normalImpulse = newImpulse;
		cp->maxNormalImpulse = tbMaxFloat( cp->maxNormalImpulse, impulse );
		cp->stepNormalImpulse += impulse;
		tbApplyRow( c, cp->rows + 0, c->normal, impulse, &a, &b );
	}
	tbStoreStates( ctx, c, &a, &b );
}

// Wide solver ----------------------------------------------------------------------------------------
//
// The constraints of one colour share no moving body, so four of them can be solved side by side,
// one per SIMD lane (lanes = manifolds; a manifold's points are visited in turn, lanes with fewer
// points have zero-mass points that apply nothing). The arithmetic per lane is that of the scalar
// tbSolveContact above, which still solves the overflow set.

#if defined( __SSE2__ )
#include <emmintrin.h>

typedef __m128 tbFloatW;

static inline tbFloatW tbSplatW( float a ) { return _mm_set1_ps( a ); }
static inline tbFloatW tbZeroW( void ) { return _mm_setzero_ps(); }
static inline tbFloatW tbAddW( tbFloatW a, tbFloatW b ) { return _mm_add_ps( a, b ); }
static inline tbFloatW tbSubW( tbFloatW a, tbFloatW b ) { return _mm_sub_ps( a, b ); }
static inline tbFloatW tbMulW( tbFloatW a, tbFloatW b ) { return _mm_mul_ps( a, b ); }
static inline tbFloatW tbDivW( tbFloatW a, tbFloatW b ) { return _mm_div_ps( a, b ); }
static inline tbFloatW tbMaxW( tbFloatW a, tbFloatW b ) { return _mm_max_ps( a, b ); }
static inline tbFloatW tbMinW( tbFloatW a, tbFloatW b ) { return _mm_min_ps( a, b ); }
static inline tbFloatW tbSqrtW( tbFloatW a ) { return _mm_sqrt_ps( a ); }
/// All bits set in lanes where a > b.
static inline tbFloatW tbGreaterW( tbFloatW a, tbFloatW b ) { return _mm_cmpgt_ps( a, b ); }
static inline tbFloatW tbLessW( tbFloatW a, tbFloatW b ) { return _mm_cmplt_ps( a, b ); }
/// b where mask is set, else 0.
static inline tbFloatW tbAndW( tbFloatW mask, tbFloatW b ) { return _mm_and_ps( mask, b ); }
/// mask ? b : a, lane by lane.
static inline tbFloatW tbBlendW( tbFloatW a, tbFloatW b, tbFloatW mask )
{
	return _mm_or_ps( _mm_and_ps( mask, b ), _mm_andnot_ps( mask, a ) );
}
static inline tbFloatW tbLoadW( const float* p ) { return _mm_loadu_ps( p ); }
static inline void tbStoreW( float* p, tbFloatW a ) { _mm_storeu_ps( p, a ); }
static inline void tbTransposeW( tbFloatW* a, tbFloatW* b, tbFloatW* c, tbFloatW* d ) { _MM_TRANSPOSE4_PS( *a, *b, *c, *d ); }

#else

// Scalar fallback with the same interface (targets without SSE2).
typedef struct tbFloatW
{
	float f[4];
} tbFloatW;

#define TB_LANEWISE( expr )                                                                                            \
	tbFloatW r;                                                                                                        \
	for ( int i = 0; i < 4; ++i )                                                                                      \
	{                                                                                                                  \
		r.f[i] = ( expr );                                                                                             \
	}                                                                                                                  \
	return r

static inline tbFloatW tbSplatW( float a ) { TB_LANEWISE( a ); }
static inline tbFloatW tbZeroW( void ) { TB_LANEWISE( 0.0f ); }
static inline tbFloatW tbAddW( tbFloatW a, tbFloatW b ) { TB_LANEWISE( a.f[i] + b.f[i] ); }
static inline tbFloatW tbSubW( tbFloatW a, tbFloatW b ) { TB_LANEWISE( a.f[i] - b.f[i] ); }
static inline tbFloatW tbMulW( tbFloatW a, tbFloatW b ) { TB_LANEWISE( a.f[i] * b.f[i] ); }
static inline tbFloatW tbDivW( tbFloatW a, tbFloatW b ) { TB_LANEWISE( a.f[i] / b.f[i] ); }
static inline tbFloatW tbMaxW( tbFloatW a, tbFloatW b ) { TB_LANEWISE( a.f[i] > b.f[i] ? a.f[i] : b.f[i] ); }
static inline tbFloatW tbMinW( tbFloatW a, tbFloatW b ) { TB_LANEWISE( a.f[i] < b.f[i] ? a.f[i] : b.f[i] ); }
static inline tbFloatW tbSqrtW( tbFloatW a ) { TB_LANEWISE( sqrtf( a.f[i] ) ); }
// Masks are 1.0f (true) or 0.0f (false) in the fallback.
static inline tbFloatW tbGreaterW( tbFloatW a, tbFloatW b ) { TB_LANEWISE( a.f[i] > b.f[i] ? 1.0f : 0.0f ); }
static inline tbFloatW tbLessW( tbFloatW a, tbFloatW b ) { TB_LANEWISE( a.f[i] < b.f[i] ? 1.0f : 0.0f ); }
static inline tbFloatW tbAndW( tbFloatW mask, tbFloatW b ) { TB_LANEWISE( mask.f[i] != 0.0f ? b.f[i] : 0.0f ); }
static inline tbFloatW tbBlendW( tbFloatW a, tbFloatW b, tbFloatW mask ) { TB_LANEWISE( mask.f[i] != 0.0f ? b.f[i] : a.f[i] ); }
static inline tbFloatW tbLoadW( const float* p ) { TB_LANEWISE( p[i] ); }
static inline void tbStoreW( float* p, tbFloatW a )
{
	for ( int i = 0; i < 4; ++i )
	{
		p[i] = a.f[i];
	}
}
static inline void tbTransposeW( tbFloatW* a, tbFloatW* b, tbFloatW* c, tbFloatW* d )
{
	tbFloatW* rows[4] = { a, b, c, d };
	for ( int i = 0; i < 4; ++i )
	{
		for ( int j = i + 1; j < 4; ++j )
		{
			float t = rows[i]->f[j];
			rows[i]->f[j] = rows[j]->f[i];
			rows[j]->f[i] = t;
		}
	}
}
#undef TB_LANEWISE

#endif

typedef struct tbVec3W
{
	tbFloatW x, y, z;
} tbVec3W;

static inline tbFloatW tbDotW( tbVec3W a, tbVec3W b )
{
	return tbAddW( tbAddW( tbMulW( a.x, b.x ), tbMulW( a.y, b.y ) ), tbMulW( a.z, b.z ) );
}

static inline tbVec3W tbAddVW( tbVec3W a, tbVec3W b )
{
	return ( tbVec3W ){ tbAddW( a.x, b.x ), tbAddW( a.y, b.y ), tbAddW( a.z, b.z ) };
}

static inline tbVec3W tbSubVW( tbVec3W a, tbVec3W b )
{
	return ( tbVec3W ){ tbSubW( a.x, b.x ), tbSubW( a.y, b.y ), tbSubW( a.z, b.z ) };
}

/// a + s b
static inline tbVec3W tbMulAddVW( tbVec3W a, tbFloatW s, tbVec3W b )
{
	return ( tbVec3W ){ tbAddW( a.x, tbMulW( s, b.x ) ), tbAddW( a.y, tbMulW( s, b.y ) ), tbAddW( a.z, tbMulW( s, b.z ) ) };
}

/// a - s b
static inline tbVec3W tbMulSubVW( tbVec3W a, tbFloatW s, tbVec3W b )
{
	return ( tbVec3W ){ tbSubW( a.x, tbMulW( s, b.x ) ), tbSubW( a.y, tbMulW( s, b.y ) ), tbSubW( a.z, tbMulW( s, b.z ) ) };
}

static inline tbVec3W tbCrossW( tbVec3W a, tbVec3W b )
{
	return ( tbVec3W ){ tbSubW( tbMulW( a.y, b.z ), tbMulW( a.z, b.y ) ), tbSubW( tbMulW( a.z, b.x ), tbMulW( a.x, b.z ) ),
						tbSubW( tbMulW( a.x, b.y ), tbMulW( a.y, b.x ) ) };
}

/// Four bodies' states, one per lane. dq is (x, y, z) = u and w.
typedef struct tbBodyStateW
{
	tbVec3W v, w, dp, u;
	tbFloatW qw;
} tbBodyStateW;

// v' = v + 2 qw (u x v) + u x (2 u x v), as tbRotate.
static inline tbVec3W tbRotateW( const tbBodyStateW* s, tbVec3W v )
{
	tbFloatW two = tbSplatW( 2.0f );
	tbVec3W c = tbCrossW( s->u, v );
	tbVec3W t = { tbMulW( two, c.x ), tbMulW( two, c.y ), tbMulW( two, c.z ) };
	return tbAddVW( tbMulAddVW( v, s->qw, t ), tbCrossW( s->u, t ) );
}

typedef struct tbContactRowW
{
	tbVec3W angA, angB, impA, impB;
	tbFloatW mass;
} tbContactRowW;

typedef struct tbContactPointW
{
	tbContactRowW rows[3];
	tbVec3W rA, rB;
	tbFloatW adjustedSeparation;
	tbFloatW separation0;
	tbFloatW normalImpulse;
	tbFloatW tangentImpulse1, tangentImpulse2;
	tbFloatW maxNormalImpulse;
	tbFloatW stepNormalImpulse;
} tbContactPointW;

typedef struct tbContactConstraintW
{
	int constraintIndex[4]; ///< scalar constraint of each lane, -1: empty lane
	int indexA[4];          ///< state to read: solver index, or the static slot
	int indexB[4];
	bool writeA[4]; ///< the lane's body A is moved by the solver (not static or kinematic)
	bool writeB[4];
	int pointCount; ///< most points of the four lanes
	tbFloatW invMassA, invMassB;
	tbVec3W normal, tangent1, tangent2;
	tbFloatW friction;
	tbFloatW biasRate, massScale, impulseScale;
	tbContactPointW points[TB_MAX_MANIFOLD_POINTS];
} tbContactConstraintW;

// Lane-wise packing through a float[4] staging buffer (prepare only; not hot).
typedef struct tbLanes
{
	float f[4];
} tbLanes;

static inline tbVec3W tbLoadVec3W( const tbLanes* x, const tbLanes* y, const tbLanes* z )
{
	return ( tbVec3W ){ tbLoadW( x->f ), tbLoadW( y->f ), tbLoadW( z->f ) };
}

// The state layout the transposes below rely on: v, w, dp, then dq as (x, y, z, w), 13 floats.
_Static_assert( sizeof( tbBodyState ) == 13 * sizeof( float ), "tbBodyState is 13 packed floats" );
_Static_assert( offsetof( tbBodyState, dq ) == 9 * sizeof( float ), "dq follows v, w, dp" );

// Load four states as rows of 4 floats and transpose them into lanes: floats 0-3, 4-7, 8-11 and
// 9-12 (the last overlaps so no load runs past a state).
static inline void tbGatherStatesW( tbBodyStateW* out, const tbBodyState* states, const int* index )
{
	const float* p0 = (const float*)( states + index[0] );
	const float* p1 = (const float*)( states + index[1] );
	const float* p2 = (const float*)( states + index[2] );
	const float* p3 = (const float*)( states + index[3] );
	tbFloatW a0 = tbLoadW( p0 ), a1 = tbLoadW( p1 ), a2 = tbLoadW( p2 ), a3 = tbLoadW( p3 );
	tbTransposeW( &a0, &a1, &a2, &a3 );
	tbFloatW b0 = tbLoadW( p0 + 4 ), b1 = tbLoadW( p1 + 4 ), b2 = tbLoadW( p2 + 4 ), b3 = tbLoadW( p3 + 4 );
	tbTransposeW( &b0, &b1, &b2, &b3 );
	tbFloatW c0 = tbLoadW( p0 + 8 ), c1 = tbLoadW( p1 + 8 ), c2 = tbLoadW( p2 + 8 ), c3 = tbLoadW( p3 + 8 );
	tbTransposeW( &c0, &c1, &c2, &c3 );
	tbFloatW d0 = tbLoadW( p0 + 9 ), d1 = tbLoadW( p1 + 9 ), d2 = tbLoadW( p2 + 9 ), d3 = tbLoadW( p3 + 9 );
	tbTransposeW( &d0, &d1, &d2, &d3 );
	out->v = ( tbVec3W ){ a0, a1, a2 };
	out->w = ( tbVec3W ){ a3, b0, b1 };
	out->dp = ( tbVec3W ){ b2, b3, c0 };
	out->u = ( tbVec3W ){ c1, c2, c3 };
	out->qw = d3;
}

// Write the velocities (floats 0-7: v, w and dp.x, dp.y unchanged) of the lanes whose body moves.
static inline void tbScatterVelocitiesW( const tbBodyStateW* in, tbBodyState* states, const int* index, const bool* write )
{
	tbFloatW a0 = in->v.x, a1 = in->v.y, a2 = in->v.z, a3 = in->w.x;
	tbTransposeW( &a0, &a1, &a2, &a3 );
	tbFloatW b0 = in->w.y, b1 = in->w.z, b2 = in->dp.x, b3 = in->dp.y;
	tbTransposeW( &b0, &b1, &b2, &b3 );
	tbFloatW rowsA[4] = { a0, a1, a2, a3 };
	tbFloatW rowsB[4] = { b0, b1, b2, b3 };
	for ( int lane = 0; lane < 4; ++lane )
	{
		if ( write[lane] )
		{
			float* p = (float*)( states + index[lane] );
			tbStoreW( p, rowsA[lane] );
			tbStoreW( p + 4, rowsB[lane] );
		}
	}
}

// Velocity along a row: dot(d, vB - vA) + dot(angB, wB) - dot(angA, wA).
static inline tbFloatW tbRowVelocityW( const tbContactRowW* row, tbVec3W dir, const tbBodyStateW* a, const tbBodyStateW* b )
{
	return tbSubW( tbAddW( tbDotW( dir, tbSubVW( b->v, a->v ) ), tbDotW( row->angB, b->w ) ), tbDotW( row->angA, a->w ) );
}

static inline void tbApplyRowW( const tbContactConstraintW* c, const tbContactRowW* row, tbVec3W dir, tbFloatW L,
								tbBodyStateW* a, tbBodyStateW* b )
{
	a->v = tbMulSubVW( a->v, tbMulW( c->invMassA, L ), dir );
	a->w = tbMulSubVW( a->w, L, row->impA );
	b->v = tbMulAddVW( b->v, tbMulW( c->invMassB, L ), dir );
	b->w = tbMulAddVW( b->w, L, row->impB );
}

static void tbPackWide( tbStepContext* ctx, tbContactConstraintW* wc, const int* order, int count )
{
	const int staticSlot = ctx->bodyCount;
	tbLanes invMassA = { { 0 } }, invMassB = { { 0 } }, friction = { { 0 } };
	tbLanes biasRate = { { 0 } }, massScale = { { 1, 1, 1, 1 } }, impulseScale = { { 0 } };
	tbLanes n[3] = { { { 0 } } }, t1[3] = { { { 0 } } }, t2[3] = { { { 0 } } };
	wc->pointCount = 0;
	for ( int lane = 0; lane < 4; ++lane )
	{
		wc->constraintIndex[lane] = lane < count ? order[lane] : -1;
		wc->indexA[lane] = staticSlot;
		wc->indexB[lane] = staticSlot;
		wc->writeA[lane] = false;
		wc->writeB[lane] = false;
		if ( lane >= count )
		{
			continue;
		}
		const tbContactConstraint* c = ctx->contacts + order[lane];
		wc->indexA[lane] = c->indexA >= 0 ? c->indexA : staticSlot;
		wc->indexB[lane] = c->indexB >= 0 ? c->indexB : staticSlot;
		wc->writeA[lane] = tbIsMovingBody( ctx, c->indexA );
		wc->writeB[lane] = tbIsMovingBody( ctx, c->indexB );
		wc->pointCount = c->pointCount > wc->pointCount ? c->pointCount : wc->pointCount;
		invMassA.f[lane] = c->invMassA;
		invMassB.f[lane] = c->invMassB;
		friction.f[lane] = c->friction;
		biasRate.f[lane] = c->softness.biasRate;
		massScale.f[lane] = c->softness.massScale;
		impulseScale.f[lane] = c->softness.impulseScale;
		n[0].f[lane] = c->normal.x, n[1].f[lane] = c->normal.y, n[2].f[lane] = c->normal.z;
		t1[0].f[lane] = c->tangent1.x, t1[1].f[lane] = c->tangent1.y, t1[2].f[lane] = c->tangent1.z;
		t2[0].f[lane] = c->tangent2.x, t2[1].f[lane] = c->tangent2.y, t2[2].f[lane] = c->tangent2.z;
	}
	wc->invMassA = tbLoadW( invMassA.f );
	wc->invMassB = tbLoadW( invMassB.f );
	wc->friction = tbLoadW( friction.f );
	wc->biasRate = tbLoadW( biasRate.f );
	wc->massScale = tbLoadW( massScale.f );
	wc->impulseScale = tbLoadW( impulseScale.f );
	wc->normal = tbLoadVec3W( n + 0, n + 1, n + 2 );
	wc->tangent1 = tbLoadVec3W( t1 + 0, t1 + 1, t1 + 2 );
	wc->tangent2 = tbLoadVec3W( t2 + 0, t2 + 1, t2 + 2 );

	for ( int p = 0; p < wc->pointCount; ++p )
	{
		// A missing point (or lane) is all zeros: zero mass and impulses, so it applies nothing.
		// Full groups (the common case: four box manifolds of four points) fill every entry.
		tbLanes f[52];
		bool full = count == 4;
		for ( int lane = 0; lane < count && full; ++lane )
		{
			full = p < ctx->contacts[order[lane]].pointCount;
		}
		if ( full == false )
		{
			memset( f, 0, sizeof( f ) );
		}
		for ( int lane = 0; lane < count; ++lane )
		{
			const tbContactConstraint* c = ctx->contacts + order[lane];
			if ( p >= c->pointCount )
			{
				continue;
			}
			const tbContactConstraintPoint* cp = c->points + p;
			int k = 0;
			for ( int r = 0; r < 3; ++r )
			{
				const tbContactRow* row = cp->rows + r;
				const tbVec3* vecs[4] = { &row->angA, &row->angB, &row->impA, &row->impB };
				for ( int v = 0; v < 4; ++v )
				{
					f[k++].f[lane] = vecs[v]->x;
					f[k++].f[lane] = vecs[v]->y;
					f[k++].f[lane] = vecs[v]->z;
				}
				f[k++].f[lane] = row->mass;
			}
			f[k++].f[lane] = cp->rA.x, f[k++].f[lane] = cp->rA.y, f[k++].f[lane] = cp->rA.z;
			f[k++].f[lane] = cp->rB.x, f[k++].f[lane] = cp->rB.y, f[k++].f[lane] = cp->rB.z;
			f[k++].f[lane] = cp->adjustedSeparation;
			f[k++].f[lane] = cp->separation0;
			f[k++].f[lane] = cp->normalImpulse;
			f[k++].f[lane] = cp->tangentImpulse[0];
			f[k++].f[lane] = cp->tangentImpulse[1];
			f[k++].f[lane] = cp->maxNormalImpulse;
			f[k++].f[lane] = cp->stepNormalImpulse;
		}
		tbContactPointW* wp = wc->points + p;
		int k = 0;
		for ( int r = 0; r < 3; ++r )
		{
			tbContactRowW* row = wp->rows + r;
			tbVec3W* vecs[4] = { &row->angA, &row->angB, &row->impA, &row->impB };
			for ( int v = 0; v < 4; ++v )
			{
				*vecs[v] = tbLoadVec3W( f + k, f + k + 1, f + k + 2 );
				k += 3;
			}
			row->mass = tbLoadW( f[k++].f );
		}
		wp->rA = tbLoadVec3W( f + k, f + k + 1, f + k + 2 );
		k += 3;
		wp->rB = tbLoadVec3W( f + k, f + k + 1, f + k + 2 );
		k += 3;
		wp->adjustedSeparation = tbLoadW( f[k++].f );
		wp->separation0 = tbLoadW( f[k++].f );
		wp->normalImpulse = tbLoadW( f[k++].f );
		wp->tangentImpulse1 = tbLoadW( f[k++].f );
		wp->tangentImpulse2 = tbLoadW( f[k++].f );
		wp->maxNormalImpulse = tbLoadW( f[k++].f );
		wp->stepNormalImpulse = tbLoadW( f[k++].f );
		TB_ASSERT( k == 52 );
	}
}

// Copy the lanes' accumulated impulses back to the scalar constraints (restitution and the warm
// start of the next step read them there).
static void tbUnpackWideImpulses( tbStepContext* ctx, const tbContactConstraintW* wc )
{
	for ( int p = 0; p < wc->pointCount; ++p )
	{
		const tbContactPointW* wp = wc->points + p;
		tbLanes normal, t1, t2, maxNormal, stepNormal;
		tbStoreW( normal.f, wp->normalImpulse );
		tbStoreW( t1.f, wp->tangentImpulse1 );
		tbStoreW( t2.f, wp->tangentImpulse2 );
		tbStoreW( maxNormal.f, wp->maxNormalImpulse );
		tbStoreW( stepNormal.f, wp->stepNormalImpulse );
		for ( int lane = 0; lane < 4; ++lane )
		{
			int index = wc->constraintIndex[lane];
			if ( index < 0 || p >= ctx->contacts[index].pointCount )
			{
				continue;
			}
			tbContactConstraintPoint* cp = ctx->contacts[index].points + p;
			cp->normalImpulse = normal.f[lane];
			cp->tangentImpulse[0] = t1.f[lane];
			cp->tangentImpulse[1] = t2.f[lane];
			cp->maxNormalImpulse = maxNormal.f[lane];
			cp->stepNormalImpulse = stepNormal.f[lane];
		}
	}
}

static void tbWarmStartWide( tbStepContext* ctx, tbContactConstraintW* c )
{
	tbBodyStateW a, b;
	tbGatherStatesW( &a, ctx->states, c->indexA );
	tbGatherStatesW( &b, ctx->states, c->indexB );
	for ( int p = 0; p < c->pointCount; ++p )
	{
		tbContactPointW* cp = c->points + p;
		tbApplyRowW( c, cp->rows + 0, c->normal, cp->normalImpulse, &a, &b );
		tbApplyRowW( c, cp->rows + 1, c->tangent1, cp->tangentImpulse1, &a, &b );
		tbApplyRowW( c, cp->rows + 2, c->tangent2, cp->tangentImpulse2, &a, &b );
	}
	tbScatterVelocitiesW( &a, ctx->states, c->indexA, c->writeA );
	tbScatterVelocitiesW( &b, ctx->states, c->indexB, c->writeB );
}

static void tbSolveWide( tbStepContext* ctx, tbContactConstraintW* c, bool useBias, bool reverse )
{
	const tbSolverMode mode = ctx->mode;
	const tbFloatW zero = tbZeroW();
	const tbFloatW one = tbSplatW( 1.0f );
	const tbFloatW inv_h = tbSplatW( ctx->inv_h );
	const tbFloatW minBias = tbSplatW( -ctx->maxBiasVelocity );
	const tbFloatW softRange = tbSplatW( -TB_SOFT_RANGE );
	const tbFloatW baumgarteRate = tbSplatW( ctx->baumgarte * ctx->inv_h );
	const tbFloatW slop = tbSplatW( ctx->linearSlop );
	tbBodyStateW a, b;
	tbGatherStatesW( &a, ctx->states, c->indexA );
	tbGatherStatesW( &b, ctx->states, c->indexB );

	const int pointCount = c->pointCount;
	for ( int k = 0; k < pointCount; ++k )
	{
		// Reversing over the padded points visits each lane's real points in reverse too: the
		// zero-mass padding in between applies nothing.
		int p = reverse ? pointCount - 1 - k : k;
		tbContactPointW* cp = c->points + p;

		// Current separation from the motion since the step began (tbCurrentSeparation).
		tbVec3W prA = tbRotateW( &a, cp->rA );
		tbVec3W prB = tbRotateW( &b, cp->rB );
		tbVec3W d = tbAddVW( tbSubVW( b.dp, a.dp ), tbSubVW( prB, prA ) );
		tbFloatW s = tbAddW( tbDotW( c->normal, d ), cp->adjustedSeparation );

		// The scalar solver's cases, selected lane by lane.
		tbFloatW positive = tbGreaterW( s, zero );
		tbFloatW speculative = tbMulW( s, inv_h );
		tbFloatW bias = zero;
		tbFloatW massScale = one;
		tbFloatW impulseScale = zero;
		if ( useBias )
		{
			tbFloatW overlapBias = zero;
			if ( mode == tbSolver_soft )
			{
				tbFloatW inRange = tbGreaterW( s, softRange );
				overlapBias = tbAndW( inRange, tbMaxW( tbMulW( c->biasRate, s ), minBias ) );
				massScale = tbBlendW( c->massScale, one, positive );
				impulseScale = tbBlendW( c->impulseScale, zero, positive );
			}
			else if ( mode == tbSolver_baumgarte )
			{
				overlapBias = tbMaxW( tbMulW( baumgarteRate, tbMinW( zero, tbAddW( s, slop ) ) ), minBias );
			}
			bias = tbBlendW( overlapBias, speculative, positive );
		}
		else
		{
			tbFloatW speculativeBias = speculative;
			if ( mode == tbSolver_soft )
			{
				// Relax: points pushed clear this step are held at zero relative velocity.
				speculativeBias = tbBlendW( speculative, zero, tbLessW( cp->separation0, zero ) );
			}
			bias = tbAndW( positive, speculativeBias );
		}

		tbContactRowW* row = cp->rows + 0;
		tbFloatW vn = tbRowVelocityW( row, c->normal, &a, &b );
		tbFloatW impulse = tbSubW( tbZeroW(), tbMulW( tbMulW( row->mass, massScale ), tbAddW( vn, bias ) ) );
		impulse = tbSubW( impulse, tbMulW( impulseScale, cp->normalImpulse ) );
		tbFloatW newImpulse = tbMaxW( tbAddW( cp->normalImpulse, impulse ), zero );
		impulse = tbSubW( newImpulse, cp->normalImpulse );
		cp->normalImpulse = newImpulse;
		cp->maxNormalImpulse = tbMaxW( cp->maxNormalImpulse, impulse );
		if ( mode == tbSolver_soft && useBias == false )
		{
			cp->stepNormalImpulse = tbAddW( cp->stepNormalImpulse, newImpulse );
		}
		tbApplyRowW( c, row, c->normal, impulse, &a, &b );
	}

	// Friction after the normal rows, clamped to the cone (circle) of this pass's normal impulse.
	for ( int p = 0; p < pointCount; ++p )
	{
		tbContactPointW* cp = c->points + p;
		tbContactRowW* row1 = cp->rows + 1;
		tbContactRowW* row2 = cp->rows + 2;
		tbFloatW l1 = tbSubW( cp->tangentImpulse1, tbMulW( row1->mass, tbRowVelocityW( row1, c->tangent1, &a, &b ) ) );
		tbFloatW l2 = tbSubW( cp->tangentImpulse2, tbMulW( row2->mass, tbRowVelocityW( row2, c->tangent2, &a, &b ) ) );
		tbFloatW maxFriction = tbMulW( c->friction, cp->normalImpulse );
		tbFloatW lenSq = tbAddW( tbMulW( l1, l1 ), tbMulW( l2, l2 ) );
		tbFloatW outside = tbGreaterW( lenSq, tbMulW( maxFriction, maxFriction ) );
		// lenSq > 0 wherever outside is set; elsewhere the quotient is discarded.
		tbFloatW scale = tbDivW( maxFriction, tbSqrtW( tbMaxW( lenSq, tbSplatW( FLT_MIN ) ) ) );
		scale = tbBlendW( one, scale, outside );
		l1 = tbMulW( l1, scale );
		l2 = tbMulW( l2, scale );
		tbFloatW d1 = tbSubW( l1, cp->tangentImpulse1 );
		tbFloatW d2 = tbSubW( l2, cp->tangentImpulse2 );
		cp->tangentImpulse1 = l1;
		cp->tangentImpulse2 = l2;
		tbApplyRowW( c, row1, c->tangent1, d1, &a, &b );
		tbApplyRowW( c, row2, c->tangent2, d2, &a, &b );
	}

	tbScatterVelocitiesW( &a, ctx->states, c->indexA, c->writeA );
	tbScatterVelocitiesW( &b, ctx->states, c->indexB, c->writeB );
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
				tbSolveContactPosition( ctx, c );
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

typedef struct tbWideTask
{
	tbStepContext* ctx;
	tbContactConstraintW* wide; ///< first wide constraint of the colour
	tbContactStage stage;
	bool useBias;
	bool reverse;
} tbWideTask;

static void tbWideBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	tbWideTask* task = context;
	for ( int i = start; i < end; ++i )
	{
		if ( task->stage == tbStage_warmStart )
		{
			tbWarmStartWide( task->ctx, task->wide + i );
		}
		else
		{
			tbSolveWide( task->ctx, task->wide + i, task->useBias, task->reverse );
		}
	}
}

// One pass over every contact: colour after colour, each colour in parallel (its constraints share
// no moving body, so their order does not matter), then the overflow set on this thread. Velocity
// stages run on the wide constraints, the others on the scalar ones.
static void tbRunColoredStage( tbStepContext* ctx, tbContactStage stage, bool useBias, bool reverse )
{
	const tbConstraintGraph* graph = &ctx->graph;
	bool wide = stage == tbStage_warmStart || stage == tbStage_solve;
	tbStageTask task = { ctx, NULL, stage, useBias, reverse };
	tbWideTask wideTask = { ctx, NULL, stage, useBias, reverse };
	for ( int color = 0; color < TB_GRAPH_COLOR_COUNT; ++color )
	{
		if ( wide )
		{
			int first = ctx->wideStarts[color];
			int count = ctx->wideStarts[color + 1] - first;
			if ( count > 0 )
			{
				wideTask.wide = ctx->wideContacts + first;
				tbParallelFor( ctx->jobs, count, TB_WIDE_BLOCK_SIZE, tbWideBlock, &wideTask );
			}
			continue;
		}
		int first = graph->colorStarts[color];
		int count = graph->colorStarts[color + 1] - first;
		if ( count > 0 )
		{
			task.order = graph->order + first;
			tbParallelFor( ctx->jobs, count, TB_CONTACT_BLOCK_SIZE, tbStageBlock, &task );
		}
	}
	int first = graph->colorStarts[TB_GRAPH_COLOR_COUNT];
	task.order = graph->order + first;
	tbRunStage( &task, 0, graph->colorStarts[TB_GRAPH_COLOR_COUNT + 1] - first );
}

typedef struct tbPackTask
{
	tbStepContext* ctx;
	bool unpack;
} tbPackTask;

// Wide constraint i belongs to the colour whose wide range holds it; its lanes are the colour's
// constraints 4 (i - wideStart) onwards.
static void tbPackBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	tbPackTask* task = context;
	tbStepContext* ctx = task->ctx;
	const tbConstraintGraph* graph = &ctx->graph;
	int color = 0;
	for ( int i = start; i < end; ++i )
	{
		if ( task->unpack )
		{
			tbUnpackWideImpulses( ctx, ctx->wideContacts + i );
			continue;
		}
		while ( i >= ctx->wideStarts[color + 1] )
		{
			color += 1;
		}
		int offset = 4 * ( i - ctx->wideStarts[color] );
		int count = graph->colorStarts[color + 1] - graph->colorStarts[color] - offset;
		tbPackWide( ctx, ctx->wideContacts + i, graph->order + graph->colorStarts[color] + offset, count < 4 ? count : 4 );
	}
}

static bool tbPrepareWideContacts( tbStepContext* ctx )
{
	int total = 0;
	for ( int color = 0; color < TB_GRAPH_COLOR_COUNT; ++color )
	{
		ctx->wideStarts[color] = total;
		total += tbBlockCount( ctx->graph.colorStarts[color + 1] - ctx->graph.colorStarts[color], 4 );
	}
	ctx->wideStarts[TB_GRAPH_COLOR_COUNT] = total;
	// Not zeroed: tbPackWide writes every lane of the points up to the group's point count.
	ctx->wideContacts = TB_ARENA_ARRAY_RAW( ctx->arena, tbContactConstraintW, total > 0 ? total : 1 );
	if ( ctx->wideContacts == NULL )
	{
		return false;
	}
	tbPackTask task = { ctx, false };
	tbParallelFor( ctx->jobs, total, TB_WIDE_BLOCK_SIZE, tbPackBlock, &task );
	return true;
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

void tbSolveContactPositions( tbStepContext* ctx )
{
	tbRunColoredStage( ctx, tbStage_positions, false, false );
}

void tbApplyRestitution( tbStepContext* ctx )
{
	tbPackTask task = { ctx, true };
	int wideCount = ctx->wideStarts[TB_GRAPH_COLOR_COUNT];
	tbParallelFor( ctx->jobs, wideCount, TB_WIDE_BLOCK_SIZE, tbPackBlock, &task );
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
			m->points[p].maxNormalImpulse = c->points[p].maxNormalImpulse;
			m->points[p].stepNormalImpulse =
				task->ctx->mode == tbSolver_soft ? c->points[p].stepNormalImpulse : c->points[p].normalImpulse;
			m->points[p].normalVelocity = c->points[p].relativeVelocity;
		}
	}
}

void tbStoreContactImpulses( tbWorld* world, tbStepContext* ctx )
{
	tbStoreTask task = { world, ctx };
	tbParallelFor( ctx->jobs, ctx->contactCount, TB_CONTACT_BLOCK_SIZE, tbStoreBlock, &task );
}
