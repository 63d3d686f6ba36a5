// Tumble physics: the lane arithmetic of the wide contact rows (contact_wide.c says what they are).
//
// A template (lanes.h), included by contact_wide.c once after lanes_w4.h (4-lane SSE2 vectors)
// and, on x86, once after lanes_w8.h (8-lane vectors in functions compiled for AVX2 and FMA), the
// one chosen at run time. It undefines the instance's parameters at its end. A group holds
// TB_GROUP_LANES (8) contact constraints: the 4-lane instance solves it as two halves, lanes
// [lane0, lane0 + TB_W). The arithmetic per lane is the scalar rows' (contact_solver.c,
// tbWarmStartContact and tbSolveContact), case for case.

#include "lanes_math.h"

#define tbCB TB_NAME( ContactBodies )

/// The lanes' two bodies: velocities, and for the solve the sub-step motion (dq = (u, qw)).
typedef struct tbCB
{
	tbV3 vA, wA, vB, wB;
	tbV3 dpA, dpB;
	tbQ4 dqA, dqB;
} tbCB;

// Points the half [lane0, lane0 + TB_W) has: lanes past a constraint's points are zero rows.
TB_FN int TB_NAME( ContactPointCount )( const tbContactLanes* g, int lane0 )
{
	return TB_W == TB_GROUP_LANES ? g->pointCount : g->halfPointCount[lane0 / TB_W];
}

TB_FN void TB_NAME( GatherContactBodies )( tbContactLanes* g, int lane0, bool motion, tbCB* m )
{
	TB_NAME( LoadBodyVelocities )( g->readA + lane0, &m->vA, &m->wA );
	TB_NAME( LoadBodyVelocities )( g->readB + lane0, &m->vB, &m->wB );
	if ( motion )
	{
		TB_VF ma[7], mb[7];
		TB_NAME( LoadMotion )( g->readA + lane0, ma );
		TB_NAME( LoadMotion )( g->readB + lane0, mb );
		m->dpA = ( tbV3 ){ ma[0], ma[1], ma[2] };
		m->dqA = ( tbQ4 ){ ma[3], ma[4], ma[5], ma[6] };
		m->dpB = ( tbV3 ){ mb[0], mb[1], mb[2] };
		m->dqB = ( tbQ4 ){ mb[3], mb[4], mb[5], mb[6] };
	}
}

// TB_KEEP_STORES (lanes.h): GCC 12.2 deleted such stores from the inlined lane code.
TB_FN void TB_NAME( ScatterContactBodies )( tbContactLanes* g, int lane0, const tbCB* m )
{
	TB_NAME( StoreBodyVelocities )( g->writeA + lane0, m->vA, m->wA );
	TB_NAME( StoreBodyVelocities )( g->writeB + lane0, m->vB, m->wB );
	TB_KEEP_STORES();
}

// Velocity along a row: dot(d, vB - vA) + dot(angB, wB) - dot(angA, wA).
TB_FN TB_VF TB_NAME( ContactRowVelocity )( tbContactLaneRow* row, int lane0, tbV3 dir, const tbCB* m )
{
	tbV3 angA = TB_NAME( Load3 )( row->angA, lane0 );
	tbV3 angB = TB_NAME( Load3 )( row->angB, lane0 );
	return TB_NAME( Dot )( dir, TB_NAME( Sub )( m->vB, m->vA ) ) + TB_NAME( Dot )( angB, m->wB ) -
		   TB_NAME( Dot )( angA, m->wA );
}

// An impulse L along a row: vA -= mA L d, wA -= L impA, vB += mB L d, wB += L impB.
TB_FN void TB_NAME( ApplyContactRow )( tbContactLaneRow* row, int lane0, tbV3 dir, TB_VF L, TB_VF mA, TB_VF mB,
									   tbCB* m )
{
	tbV3 impA = TB_NAME( Load3 )( row->impA, lane0 );
	tbV3 impB = TB_NAME( Load3 )( row->impB, lane0 );
	m->vA = TB_NAME( Sub )( m->vA, TB_NAME( Scale )( mA * L, dir ) );
	m->wA = TB_NAME( Sub )( m->wA, TB_NAME( Scale )( L, impA ) );
	m->vB = TB_NAME( Add )( m->vB, TB_NAME( Scale )( mB * L, dir ) );
	m->wB = TB_NAME( Add )( m->wB, TB_NAME( Scale )( L, impB ) );
}

// Lane-wise mask ? a : b of 3-vectors.
TB_FN tbV3 TB_NAME( Select3 )( TB_VI mask, tbV3 a, tbV3 b )
{
	return ( tbV3 ){ TB_NAME( Select )( mask, a.x, b.x ), TB_NAME( Select )( mask, a.y, b.y ),
					 TB_NAME( Select )( mask, a.z, b.z ) };
}

// One normal row towards -bias: the accumulated impulse clamped at zero, the largest step kept.
// Returns the new accumulated impulse.
TB_FN TB_VF TB_NAME( SolveNormalRow )( tbContactLanePoint* cp, int lane0, tbV3 n, TB_VF bias, TB_VF massScale,
									  TB_VF impulseScale, TB_VF mA, TB_VF mB, tbCB* m )
{
	const TB_VF zero = TB_NAME( Splat )( 0.0f );
	tbContactLaneRow* row = cp->rows + 0;
	TB_VF accumulated = TB_NAME( Load )( cp->normalImpulse + lane0 );
	TB_VF vn = TB_NAME( ContactRowVelocity )( row, lane0, n, m );
	TB_VF impulse = zero - TB_NAME( Load )( row->mass + lane0 ) * massScale * ( vn + bias );
	impulse = impulse - impulseScale * accumulated;
	TB_VF newImpulse = TB_NAME( Max )( accumulated + impulse, zero );
	impulse = newImpulse - accumulated;
	TB_NAME( Store )( cp->normalImpulse + lane0, newImpulse );
	TB_VF maxImpulse = TB_NAME( Load )( cp->maxNormalImpulse + lane0 );
	TB_NAME( Store )( cp->maxNormalImpulse + lane0, TB_NAME( Max )( maxImpulse, impulse ) );
	TB_NAME( ApplyContactRow )( row, lane0, n, impulse, mA, mB, m );
	return newImpulse;
}

TB_FN void TB_NAME( WarmStartContacts )( tbContactLanes* g, int lane0 )
{
	tbCB m;
	TB_NAME( GatherContactBodies )( g, lane0, false, &m );
	const TB_VF mA = TB_NAME( Load )( g->invMassA + lane0 );
	const TB_VF mB = TB_NAME( Load )( g->invMassB + lane0 );
	const tbV3 n = TB_NAME( Load3 )( g->normal, lane0 );
	const tbV3 t1 = TB_NAME( Load3 )( g->tangent1, lane0 );
	const tbV3 t2 = TB_NAME( Load3 )( g->tangent2, lane0 );
	const int count = TB_NAME( ContactPointCount )( g, lane0 );
	for ( int p = 0; p < count; ++p )
	{
		tbContactLanePoint* cp = g->points + p;
		TB_NAME( ApplyContactRow )( cp->rows + 0, lane0, n, TB_NAME( Load )( cp->normalImpulse + lane0 ), mA, mB, &m );
		TB_NAME( ApplyContactRow )( cp->rows + 1, lane0, t1, TB_NAME( Load )( cp->tangentImpulse1 + lane0 ), mA, mB, &m );
		TB_NAME( ApplyContactRow )( cp->rows + 2, lane0, t2, TB_NAME( Load )( cp->tangentImpulse2 + lane0 ), mA, mB, &m );
	}
	TB_NAME( ScatterContactBodies )( g, lane0, &m );
}

// Where a pass's separations come from. The bodies move (dp, dq) only in tbIntegratePositions,
// which a soft sub-step runs between its biased pass and its relax pass, and no mode runs between
// a relax pass and the next sub-step's biased pass. So the passes before any motion (every
// velocity pass of the other modes, the first sub-step's biased pass) measure with no motion; the
// relax pass measures with the bodies' motion and keeps what it found; the next sub-step's biased
// pass reads that, the same numbers, without gathering the motion again.
typedef enum TB_NAME( SeparationSource )
{
	TB_NAME( Separation_still ),
	TB_NAME( Separation_measured ),
	TB_NAME( Separation_kept ),
} TB_NAME( SeparationSource );

// What a pass's normal rows aim at: the pass's constants of the scalar solver's cases, and what
// the separations are measured with (tbSeparationFrame): the normal turned back by each body's
// rotation since the step began, and the normal part of their displacement.
typedef struct TB_NAME( ContactAims )
{
	tbSolverMode mode;
	bool useBias;
	TB_NAME( SeparationSource ) source;
	TB_VF inv_h, minBias, softRange, baumgarteRate, slop;
	TB_VF biasRate, softMassScale, softImpulseScale; ///< the lanes' tbSoftness
	tbV3 nA, nB;
	TB_VF shift;
} TB_NAME( ContactAims );

// tbInvRotate lane-wise: the rotation by the conjugate.
TB_FN tbV3 TB_NAME( InvRotate )( tbQ4 q, tbV3 v )
{
	tbQ4 c = { -q.x, -q.y, -q.z, q.w };
	return TB_NAME( Rotate )( c, v );
}

// A point's bias, mass scale and impulse scale this pass, from its current separation (tbSolveContact).
TB_FN void TB_NAME( NormalAim )( const TB_NAME( ContactAims ) * aims, tbContactLanePoint* cp, int lane0,
								  TB_VF* biasOut, TB_VF* massScaleOut, TB_VF* impulseScaleOut )
{
	const TB_VF zero = TB_NAME( Splat )( 0.0f );
	const TB_VF one = TB_NAME( Splat )( 1.0f );
	// Current separation from the motion since the step began (tbPointSeparation). With no motion
	// nA = nB = n and shift = 0 give the numbers the rotations by the identity give.
	TB_VF s;
	if ( aims->source == TB_NAME( Separation_kept ) )
	{
		s = TB_NAME( Load )( cp->separation + lane0 );
	}
	else
	{
		tbV3 rA = TB_NAME( Load3 )( cp->rA, lane0 );
		tbV3 rB = TB_NAME( Load3 )( cp->rB, lane0 );
		s = TB_NAME( Dot )( aims->nB, rB ) - TB_NAME( Dot )( aims->nA, rA ) + aims->shift +
			TB_NAME( Load )( cp->adjustedSeparation + lane0 );
		if ( aims->source == TB_NAME( Separation_measured ) )
		{
			TB_NAME( Store )( cp->separation + lane0, s );
		}
	}

	// The scalar solver's cases, selected lane by lane.
	TB_VI positive = s > zero;
	TB_VF speculative = s * aims->inv_h;
	TB_VF bias = zero;
	TB_VF massScale = one;
	TB_VF impulseScale = zero;
	if ( aims->useBias )
	{
		TB_VF overlapBias = zero;
		if ( aims->mode == tbSolver_soft )
		{
			overlapBias =
				TB_NAME( Select )( s > aims->softRange, TB_NAME( Max )( aims->biasRate * s, aims->minBias ), zero );
			massScale = TB_NAME( Select )( positive, one, aims->softMassScale );
			impulseScale = TB_NAME( Select )( positive, zero, aims->softImpulseScale );
		}
		else if ( aims->mode == tbSolver_baumgarte )
		{
			overlapBias = TB_NAME( Max )( aims->baumgarteRate * TB_NAME( Min )( zero, s + aims->slop ), aims->minBias );
		}
		bias = TB_NAME( Select )( positive, speculative, overlapBias );
	}
	else
	{
		TB_VF speculativeBias = speculative;
		if ( aims->mode == tbSolver_soft )
		{
			// Relax: points pushed clear this step are held at zero relative velocity.
			TB_VF separation0 = TB_NAME( Load )( cp->separation0 + lane0 );
			speculativeBias = TB_NAME( Select )( separation0 < zero, zero, speculative );
		}
		bias = TB_NAME( Select )( positive, speculativeBias, zero );
	}
	*biasOut = bias;
	*massScaleOut = massScale;
	*impulseScaleOut = impulseScale;
}

TB_FN void TB_NAME( SolveContacts )( const tbStepContext* ctx, tbContactLanes* g, int lane0, bool useBias, bool reverse )
{
	const tbSolverMode mode = ctx->mode;
	const TB_VF one = TB_NAME( Splat )( 1.0f );
	TB_NAME( ContactAims ) aims;
	aims.mode = mode;
	aims.useBias = useBias;
	aims.inv_h = TB_NAME( Splat )( ctx->inv_h );
	aims.minBias = TB_NAME( Splat )( -ctx->maxBiasVelocity );
	aims.softRange = TB_NAME( Splat )( -TB_SOFT_RANGE );
	aims.baumgarteRate = TB_NAME( Splat )( ctx->baumgarte * ctx->inv_h );
	aims.slop = TB_NAME( Splat )( ctx->linearSlop );
	aims.biasRate = TB_NAME( Load )( g->biasRate + lane0 );
	aims.softMassScale = TB_NAME( Load )( g->massScale + lane0 );
	aims.softImpulseScale = TB_NAME( Load )( g->impulseScale + lane0 );
	if ( mode != tbSolver_soft || ( useBias && ctx->subStepIndex == 0 ) )
	{
		aims.source = TB_NAME( Separation_still );
	}
	else
	{
		aims.source = useBias ? TB_NAME( Separation_kept ) : TB_NAME( Separation_measured );
	}
	tbCB m;
	TB_NAME( GatherContactBodies )( g, lane0, aims.source == TB_NAME( Separation_measured ), &m );
	const TB_VF mA = TB_NAME( Load )( g->invMassA + lane0 );
	const TB_VF mB = TB_NAME( Load )( g->invMassB + lane0 );
	const tbV3 n = TB_NAME( Load3 )( g->normal, lane0 );
	aims.nA = n;
	aims.nB = n;
	aims.shift = TB_NAME( Splat )( 0.0f );
	if ( aims.source == TB_NAME( Separation_measured ) )
	{
		aims.nA = TB_NAME( InvRotate )( m.dqA, n );
		aims.nB = TB_NAME( InvRotate )( m.dqB, n );
		aims.shift = TB_NAME( Dot )( n, TB_NAME( Sub )( m.dpB, m.dpA ) );
	}
	const bool stepImpulse = mode == tbSolver_soft && useBias == false;

	const int count = TB_NAME( ContactPointCount )( g, lane0 );
	for ( int k = 0; k < count; ++k )
	{
		// Reversing over the padded points visits each lane's real points in reverse too: the
		// zero-mass padding in between applies nothing.
		int p = reverse ? count - 1 - k : k;
		tbContactLanePoint* cp = g->points + p;
		TB_VF bias, massScale, impulseScale;
		TB_NAME( NormalAim )( &aims, cp, lane0, &bias, &massScale, &impulseScale );
		TB_VF newImpulse = TB_NAME( SolveNormalRow )( cp, lane0, n, bias, massScale, impulseScale, mA, mB, &m );
		if ( stepImpulse )
		{
			// A soft sub-step ends with its one relax pass: what the point holds then is the
			// impulse of that sub-step (tbSolveContact).
			TB_VF step = TB_NAME( Load )( cp->stepNormalImpulse + lane0 );
			TB_NAME( Store )( cp->stepNormalImpulse + lane0, step + newImpulse );
		}
	}

	// Impact lanes (tbContactConstraint::impactSubStep) sweep their normal rows again, alternating the
	// order, so that the rows settle together instead of the first point taking most of the
	// impact; other lanes keep exactly what one sweep gave them. An impact has two points or more,
	// so a half whose lanes have one point at most has none: both lane widths sweep the same lanes.
	// Rare, so the aims are worked out again rather than kept from the first sweep.
	const TB_VF subStep = TB_NAME( Splat )( (float)ctx->subStepIndex );
	const TB_VF impactSubStep = TB_NAME( Load )( g->impactSubStep + lane0 );
	// tbIsImpactSubStep, lane by lane.
	const TB_VI impact = impactSubStep == subStep;
	if ( count > 1 && TB_ANY( impact ) )
	{
		TB_VF firstImpulse[TB_MAX_MANIFOLD_POINTS];
		for ( int p = 0; p < count; ++p )
		{
			firstImpulse[p] = TB_NAME( Load )( g->points[p].normalImpulse + lane0 );
		}
		for ( int sweep = 1; sweep < TB_IMPACT_SWEEPS; ++sweep )
		{
			bool backwards = ( ( sweep & 1 ) != 0 ) != reverse;
			for ( int k = 0; k < count; ++k )
			{
				int p = backwards ? count - 1 - k : k;
				tbContactLanePoint* cp = g->points + p;
				TB_VF bias, massScale, impulseScale;
				TB_NAME( NormalAim )( &aims, cp, lane0, &bias, &massScale, &impulseScale );
				TB_VF oldImpulse = TB_NAME( Load )( cp->normalImpulse + lane0 );
				TB_VF oldMax = TB_NAME( Load )( cp->maxNormalImpulse + lane0 );
				tbCB swept = m;
				TB_VF newImpulse = TB_NAME( SolveNormalRow )( cp, lane0, n, bias, massScale, impulseScale, mA, mB, &swept );
				TB_NAME( Store )( cp->normalImpulse + lane0, TB_NAME( Select )( impact, newImpulse, oldImpulse ) );
				TB_NAME( Store )( cp->maxNormalImpulse + lane0,
								  TB_NAME( Select )( impact, TB_NAME( Load )( cp->maxNormalImpulse + lane0 ), oldMax ) );
				m.vA = TB_NAME( Select3 )( impact, swept.vA, m.vA );
				m.wA = TB_NAME( Select3 )( impact, swept.wA, m.wA );
				m.vB = TB_NAME( Select3 )( impact, swept.vB, m.vB );
				m.wB = TB_NAME( Select3 )( impact, swept.wB, m.wB );
			}
		}
		if ( stepImpulse )
		{
			// The sub-step's impulse is what the sweeps ended with.
			for ( int p = 0; p < count; ++p )
			{
				tbContactLanePoint* cp = g->points + p;
				TB_VF step = TB_NAME( Load )( cp->stepNormalImpulse + lane0 );
				TB_VF change = TB_NAME( Load )( cp->normalImpulse + lane0 ) - firstImpulse[p];
				TB_NAME( Store )( cp->stepNormalImpulse + lane0, TB_NAME( Select )( impact, step + change, step ) );
			}
		}
	}

	// Friction after the normal rows, clamped to the cone (circle) of this pass's normal impulse.
	const tbV3 t1 = TB_NAME( Load3 )( g->tangent1, lane0 );
	const tbV3 t2 = TB_NAME( Load3 )( g->tangent2, lane0 );
	const TB_VF friction = TB_NAME( Load )( g->friction + lane0 );
	const TB_VF tiny = TB_NAME( Splat )( FLT_MIN );
	for ( int p = 0; p < count; ++p )
	{
		tbContactLanePoint* cp = g->points + p;
		tbContactLaneRow* row1 = cp->rows + 1;
		tbContactLaneRow* row2 = cp->rows + 2;
		TB_VF old1 = TB_NAME( Load )( cp->tangentImpulse1 + lane0 );
		TB_VF old2 = TB_NAME( Load )( cp->tangentImpulse2 + lane0 );
		TB_VF l1 = old1 - TB_NAME( Load )( row1->mass + lane0 ) * TB_NAME( ContactRowVelocity )( row1, lane0, t1, &m );
		TB_VF l2 = old2 - TB_NAME( Load )( row2->mass + lane0 ) * TB_NAME( ContactRowVelocity )( row2, lane0, t2, &m );
		TB_VF maxFriction = friction * TB_NAME( Load )( cp->normalImpulse + lane0 );
		TB_VF lenSq = l1 * l1 + l2 * l2;
		// lenSq > 0 wherever outside is set; elsewhere the quotient is discarded.
		TB_VF scale = maxFriction / TB_NAME( Sqrt )( TB_NAME( Max )( lenSq, tiny ) );
		scale = TB_NAME( Select )( lenSq > maxFriction * maxFriction, scale, one );
		l1 = l1 * scale;
		l2 = l2 * scale;
		TB_NAME( Store )( cp->tangentImpulse1 + lane0, l1 );
		TB_NAME( Store )( cp->tangentImpulse2 + lane0, l2 );
		TB_NAME( ApplyContactRow )( row1, lane0, t1, l1 - old1, mA, mB, &m );
		TB_NAME( ApplyContactRow )( row2, lane0, t2, l2 - old2, mA, mB, &m );
	}
	TB_NAME( ScatterContactBodies )( g, lane0, &m );
}

// A 3x3 matrix given by its columns cx, cy, cz (9 lane arrays in that order) times v, as
// tbMulMV sums it: v.x cx + v.y cy, then + v.z cz.
TB_FN tbV3 TB_NAME( MulColumns )( float ( *m )[TB_GROUP_LANES], int lane0, tbV3 v )
{
	TB_VF c[9];
	for ( int i = 0; i < 9; ++i )
	{
		c[i] = TB_NAME( Load )( m[i] + lane0 );
	}
	tbV3 r = { v.x * c[0] + v.y * c[3] + v.z * c[6], v.x * c[1] + v.y * c[4] + v.z * c[7],
			   v.x * c[2] + v.y * c[5] + v.z * c[8] };
	return r;
}

// The three rows of every point of the half [lane0, lane0 + TB_W) from the packed anchors and
// directions and each side's inverse inertia (invIA, invIB: columns as in MulColumns): the scalar
// tbMakeRow's operations in its order, so the lanes hold the rows the scalar constraint would. A
// lane past its constraint's points (points[l] of them) gets a row of no mass, which applies nothing.
TB_FN void TB_NAME( BuildContactRows )( tbContactLanes* g, int lane0, float ( *invIA )[TB_GROUP_LANES],
										float ( *invIB )[TB_GROUP_LANES], const float* points )
{
	const TB_VF zero = TB_NAME( Splat )( 0.0f );
	const TB_VF one = TB_NAME( Splat )( 1.0f );
	const TB_VF mA = TB_NAME( Load )( g->invMassA + lane0 );
	const TB_VF mB = TB_NAME( Load )( g->invMassB + lane0 );
	const TB_VF laneCount = TB_NAME( Load )( points + lane0 );
	tbV3 dirs[3] = { TB_NAME( Load3 )( g->normal, lane0 ), TB_NAME( Load3 )( g->tangent1, lane0 ),
					 TB_NAME( Load3 )( g->tangent2, lane0 ) };
	const int count = TB_NAME( ContactPointCount )( g, lane0 );
	for ( int p = 0; p < count; ++p )
	{
		tbContactLanePoint* cp = g->points + p;
		const TB_VI present = TB_NAME( Splat )( (float)p ) < laneCount;
		const tbV3 rA = TB_NAME( Load3 )( cp->rA, lane0 );
		const tbV3 rB = TB_NAME( Load3 )( cp->rB, lane0 );
		for ( int r = 0; r < 3; ++r )
		{
			tbContactLaneRow* row = cp->rows + r;
			tbV3 angA = TB_NAME( Cross )( rA, dirs[r] );
			tbV3 angB = TB_NAME( Cross )( rB, dirs[r] );
			tbV3 impA = TB_NAME( MulColumns )( invIA, lane0, angA );
			tbV3 impB = TB_NAME( MulColumns )( invIB, lane0, angB );
			TB_VF k = mA + mB + TB_NAME( Dot )( angA, impA ) + TB_NAME( Dot )( angB, impB );
			// The quotient is discarded where k is not positive (an empty lane: 0 / 0).
			TB_VF mass = TB_NAME( Select )( present & ( k > zero ), one / k, zero );
			TB_NAME( Store3 )( row->angA, lane0, angA );
			TB_NAME( Store3 )( row->angB, lane0, angB );
			TB_NAME( Store3 )( row->impA, lane0, impA );
			TB_NAME( Store3 )( row->impB, lane0, impB );
			TB_NAME( Store )( row->mass + lane0, mass );
		}
	}
}

// The warm start or one pass over the groups [start, end) of one colour, every half of a group in
// turn.
TB_FN void TB_NAME( RunContactStage )( const tbStepContext* ctx, tbContactLanes* groups, int start, int end,
									   bool warmStart, bool useBias, bool reverse )
{
	for ( int i = start; i < end; ++i )
	{
		tbContactLanes* g = groups + i;
		for ( int lane0 = 0; lane0 < TB_GROUP_LANES; lane0 += TB_W )
		{
			if ( warmStart )
			{
				TB_NAME( WarmStartContacts )( g, lane0 );
			}
			else
			{
				TB_NAME( SolveContacts )( ctx, g, lane0, useBias, reverse );
			}
		}
	}
}

// The instance's parameters end with it, so the next instance defines its own.
#undef tbCB
#include "lanes_end.h"
