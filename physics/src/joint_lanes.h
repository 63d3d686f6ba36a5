// Tumble physics: the lane arithmetic of the wide joint rows (joint_wide.c says what they are).
//
// A template (lanes.h), included by joint_wide.c once after lanes_w4.h (4-lane SSE2 vectors) and,
// on x86, once after lanes_w8.h (8-lane vectors in functions compiled for AVX2 and FMA), the one
// chosen at run time. It undefines the instance's parameters at its end. A group holds
// TB_JOINT_LANES (8) joints: the 4-lane instance solves it as two halves, lanes [lane0, lane0 + TB_W).

#include "lanes_math.h"

#define tbL TB_NAME( L )

// tbAtan2 lane-wise, operation for operation, so the lanes' angles are the scalar rows' angles.
TB_FN TB_VF TB_NAME( Atan2 )( TB_VF y, TB_VF x )
{
	TB_VF zero = TB_NAME( Splat )( 0.0f );
	TB_VF one = TB_NAME( Splat )( 1.0f );
	TB_VI magnitude = ~(TB_VI)TB_NAME( Splat )( -0.0f );
	TB_VF ax = (TB_VF)( (TB_VI)x & magnitude );
	TB_VF ay = (TB_VF)( (TB_VI)y & magnitude );
	TB_VI swap = ay > ax;
	TB_VF num = TB_NAME( Select )( swap, ax, ay );
	TB_VF den = TB_NAME( Select )( swap, ay, ax );
	TB_VF t = num / TB_NAME( Select )( den > zero, den, one );
	TB_VI shift = t > TB_NAME( Splat )( TB_ATAN_SHIFT );
	TB_VF u = TB_NAME( Select )( shift, ( t - one ) / ( t + one ), t );
	TB_VF z = u * u;
	TB_VF p = ( ( ( TB_NAME( Splat )( TB_ATAN_C0 ) * z + TB_NAME( Splat )( TB_ATAN_C1 ) ) * z +
				  TB_NAME( Splat )( TB_ATAN_C2 ) ) *
					z +
				TB_NAME( Splat )( TB_ATAN_C3 ) ) *
				  z * u +
			  u;
	TB_VF r = TB_NAME( Select )( shift, p + TB_NAME( Splat )( TB_QUARTER_PI ), p );
	r = TB_NAME( Select )( swap, TB_NAME( Splat )( TB_HALF_PI ) - r, r );
	r = TB_NAME( Select )( x < zero, TB_NAME( Splat )( TB_PI ) - r, r );
	return TB_NAME( Select )( y < zero, -r, r );
}

// The bodies' velocities or sub-step motion, one body per lane.
typedef struct tbL
{
	tbV3 vA, wA, vB, wB;
} tbL;

#define tbLI TB_NAME( LI )

// A side's world inverse inertia, xx xy xz yy yz zz, one body per lane. Isotropic when every lane
// of the group half has s 1 on both sides (cubes, spheres, read-only sides): then only m[0] is
// loaded and I^-1 v is s v, which is MulSym's value with its zero products dropped.
typedef struct tbLI
{
	TB_VF m[6];
	bool isotropic;
} tbLI;

TB_FN tbV3 TB_NAME( MulI )( const tbLI* I, tbV3 v )
{
	return I->isotropic ? TB_NAME( Scale )( I->m[0], v ) : TB_NAME( MulSym )( I->m, v );
}

TB_FN void TB_NAME( GatherVelocities )( tbJointLanes* g, int lane0, tbL* m )
{
	TB_NAME( LoadBodyVelocities )( g->readA + lane0, &m->vA, &m->wA );
	TB_NAME( LoadBodyVelocities )( g->readB + lane0, &m->vB, &m->wB );
}

// Velocities back to the bodies (the sides the joints only read write into the group's sink).
TB_FN void TB_NAME( ScatterVelocities )( tbJointLanes* g, int lane0, const tbL* m )
{
	TB_NAME( StoreBodyVelocities )( g->writeA + lane0, m->vA, m->wA );
	TB_NAME( StoreBodyVelocities )( g->writeB + lane0, m->vB, m->wB );
	TB_KEEP_STORES();
}

// The current lever arms and the anchor gap d of every lane, and the relative frame qRel (w >= 0),
// from the bodies' sub-step motion (tbComputeJointPose).
TB_FN void TB_NAME( MeasurePose )( tbJointLanes* g, int lane0, bool storeArms, tbQ4* qAOut, tbQ4* qBOut, tbQ4* qRelOut )
{
	TB_VF a[7], b[7];
	TB_NAME( LoadMotion )( g->readA + lane0, a );
	TB_NAME( LoadMotion )( g->readB + lane0, b );
	tbV3 dpA = { a[0], a[1], a[2] };
	tbQ4 dqA = { a[3], a[4], a[5], a[6] };
	tbV3 dpB = { b[0], b[1], b[2] };
	tbQ4 dqB = { b[3], b[4], b[5], b[6] };

	tbV3 rA = TB_NAME( Rotate )( dqA, TB_NAME( Load3 )( g->anchorA, lane0 ) );
	tbV3 rB = TB_NAME( Rotate )( dqB, TB_NAME( Load3 )( g->anchorB, lane0 ) );
	tbV3 d = TB_NAME( Add )( TB_NAME( Add )( TB_NAME( Sub )( dpB, dpA ), TB_NAME( Sub )( rB, rA ) ),
							 TB_NAME( Load3 )( g->deltaCenter, lane0 ) );
	if ( storeArms )
	{
		TB_NAME( Store3 )( g->rA, lane0, rA );
		TB_NAME( Store3 )( g->rB, lane0, rB );
	}
	TB_NAME( Store3 )( g->d, lane0, d );

	tbQ4 qA = TB_NAME( MulQQ )( dqA, TB_NAME( Load4 )( g->frameA, lane0 ) );
	tbQ4 qB = TB_NAME( MulQQ )( dqB, TB_NAME( Load4 )( g->frameB, lane0 ) );
	tbQ4 conjA = { -qA.x, -qA.y, -qA.z, qA.w };
	tbQ4 q = TB_NAME( MulQQ )( conjA, qB );
	// The sign with w >= 0 (tbRelativeQuat): flip the lanes whose w is negative.
	TB_VI negative = q.w < TB_NAME( Splat )( 0.0f );
	TB_VI sign = negative & (TB_VI)TB_NAME( Splat )( -0.0f );
	q.x = (TB_VF)( (TB_VI)q.x ^ sign );
	q.y = (TB_VF)( (TB_VI)q.y ^ sign );
	q.z = (TB_VF)( (TB_VI)q.z ^ sign );
	q.w = (TB_VF)( (TB_VI)q.w ^ sign );
	TB_NAME( Store )( g->C[0] + lane0, q.y );
	TB_NAME( Store )( g->C[1] + lane0, q.z );
	// The twist and swing angles (tbTwistAngle, tbSwingAngle) the group's rows read.
	if ( g->anyTwist )
	{
		TB_VF two = TB_NAME( Splat )( 2.0f );
		TB_VI degenerate = q.x * q.x + q.w * q.w < TB_NAME( Splat )( 1.0e-12f );
		TB_VF twist = TB_NAME( Select )( degenerate, TB_NAME( Splat )( 0.0f ), two * TB_NAME( Atan2 )( q.x, q.w ) );
		TB_NAME( Store )( g->twist + lane0, twist );
	}
	if ( g->anyCone )
	{
		TB_VF sinHalf = TB_NAME( Sqrt )( q.y * q.y + q.z * q.z );
		TB_VF cosHalf = TB_NAME( Sqrt )( q.w * q.w + q.x * q.x );
		TB_NAME( Store )( g->swing + lane0, TB_NAME( Splat )( 2.0f ) * TB_NAME( Atan2 )( sinHalf, cosHalf ) );
	}
	*qAOut = qA;
	*qBOut = qB;
	*qRelOut = q;
}

// tbQuatRowAxis lane-wise: R(qA) (1/2 local / |local|), zero where |local| < 1e-20.
TB_FN tbV3 TB_NAME( QuatRowAxis )( tbQ4 qA, tbV3 local )
{
	TB_VF length = TB_NAME( Sqrt )( TB_NAME( Dot )( local, local ) );
	TB_VF zero = TB_NAME( Splat )( 0.0f );
	TB_VF s = TB_NAME( Select )( length < TB_NAME( Splat )( 1.0e-20f ), zero, TB_NAME( Splat )( 0.5f ) / length );
	return TB_NAME( Rotate )( qA, TB_NAME( Scale )( s, local ) );
}

// 1 / (a . (IA^-1 + IB^-1) a), 0 where no body can turn about a (tbMakeAngularAxis).
TB_FN TB_VF TB_NAME( AxisMass )( const TB_VF* iSum, tbV3 a )
{
	TB_VF k = TB_NAME( Dot )( a, TB_NAME( MulSym )( iSum, a ) );
	TB_VF zero = TB_NAME( Splat )( 0.0f );
	return TB_NAME( Select )( k > zero, TB_NAME( Splat )( 1.0f ) / TB_NAME( Max )( k, TB_NAME( Splat )( FLT_MIN ) ),
							  zero );
}

// The swing direction of the lanes whose frames' x axes are (anti)parallel (tbSwingDirection): the
// swing rotation axis of qRel, or frame A's y axis. Rare, so lane by lane.
TB_FN tbV3 TB_NAME( ParallelSwingDirection )( tbQ4 qA, tbQ4 q, TB_VI parallel, tbV3 dir )
{
	float a[4][TB_W], y[TB_W], z[TB_W], out[3][TB_W];
	int32_t mask[TB_W];
	TB_NAME( Store )( a[0], qA.x );
	TB_NAME( Store )( a[1], qA.y );
	TB_NAME( Store )( a[2], qA.z );
	TB_NAME( Store )( a[3], qA.w );
	TB_NAME( Store )( y, q.y );
	TB_NAME( Store )( z, q.z );
	TB_NAME( Store )( out[0], dir.x );
	TB_NAME( Store )( out[1], dir.y );
	TB_NAME( Store )( out[2], dir.z );
	memcpy( mask, &parallel, sizeof( mask ) );
	for ( int l = 0; l < TB_W; ++l )
	{
		if ( mask[l] == 0 )
		{
			continue;
		}
		tbQuat ql = { a[0][l], a[1][l], a[2][l], a[3][l] };
		tbVec3 local = { 0.0f, y[l], z[l] };
		tbVec3 d = tbLengthSquared( local ) < 1.0e-12f ? tbRotate( ql, tbMakeVec3( 0.0f, 1.0f, 0.0f ) )
													   : tbRotate( ql, tbNormalize( local ) );
		out[0][l] = d.x;
		out[1][l] = d.y;
		out[2][l] = d.z;
	}
	tbV3 v = { TB_NAME( Load )( out[0] ), TB_NAME( Load )( out[1] ), TB_NAME( Load )( out[2] ) };
	return v;
}

// The rows of the sub-step (joint.h, prepared rows): pose, the inverse inertias the bodies have
// now, the point block's inverse effective mass, and the rows of the kinds the group has (the
// hinge's quaternion rows and their block, the twist axis, the cone row).
TB_FN void TB_NAME( Refresh )( const tbStepContext* ctx, tbJointLanes* g, int lane0 )
{
	tbQ4 qA, qB, q;
	TB_NAME( MeasurePose )( g, lane0, true, &qA, &qB, &q );

	// The inverse inertias of the written sides as the solver has them now (tbRefreshSideInertia);
	// read-only sides have none. Gathered once a step where none of them turns.
	TB_VF iA[6], iB[6], iSum[6];
	bool* stored = &g->inertiaStored[lane0 / TB_W];
	if ( *stored )
	{
		for ( int k = 0; k < 6; ++k )
		{
			iA[k] = TB_NAME( Load )( g->invI[k][0] + lane0 );
			iB[k] = TB_NAME( Load )( g->invI[k][1] + lane0 );
			iSum[k] = iA[k] + iB[k];
		}
	}
	else
	{
		float in[12][TB_W];
		for ( int l = 0; l < TB_W; ++l )
		{
			const tbMat3 zero = tb_mat3Zero;
			const tbMat3* mA = g->writeA[lane0 + l] != g->sink ? &ctx->bodies[g->indexA[lane0 + l]].invInertia : &zero;
			const tbMat3* mB = g->writeB[lane0 + l] != g->sink ? &ctx->bodies[g->indexB[lane0 + l]].invInertia : &zero;
			in[0][l] = mA->cx.x, in[1][l] = mA->cy.x, in[2][l] = mA->cz.x;
			in[3][l] = mA->cy.y, in[4][l] = mA->cz.y, in[5][l] = mA->cz.z;
			in[6][l] = mB->cx.x, in[7][l] = mB->cy.x, in[8][l] = mB->cz.x;
			in[9][l] = mB->cy.y, in[10][l] = mB->cz.y, in[11][l] = mB->cz.z;
		}
		for ( int k = 0; k < 6; ++k )
		{
			iA[k] = TB_NAME( Load )( in[k] );
			iB[k] = TB_NAME( Load )( in[6 + k] );
			iSum[k] = iA[k] + iB[k];
			TB_NAME( Store )( g->invI[k][0] + lane0, iA[k] );
			TB_NAME( Store )( g->invI[k][1] + lane0, iB[k] );
		}
		*stored = g->inertiaFixed;
	}
	TB_VF zeroI = TB_NAME( Splat )( 0.0f );
	TB_VI offDiagonal = ( iA[1] != zeroI ) | ( iA[2] != zeroI ) | ( iA[4] != zeroI ) | ( iB[1] != zeroI ) |
						( iB[2] != zeroI ) | ( iB[4] != zeroI );
	TB_VI unequal = ( iA[0] != iA[3] ) | ( iA[0] != iA[5] ) | ( iB[0] != iB[3] ) | ( iB[0] != iB[5] );
	g->isotropic[lane0 / TB_W] = TB_ANY( offDiagonal | unequal ) == false;

	// Point block: K = (mA + mB) E + [rA]^T IA^-1 [rA] + [rB]^T IB^-1 [rB] (tbAddAngularMass), in
	// float: the lanes take only joints whose K is well conditioned (joint_wide.c).
	TB_VF mSum = TB_NAME( Load )( g->mA + lane0 ) + TB_NAME( Load )( g->mB + lane0 );
	TB_VF k[6] = { mSum, TB_NAME( Splat )( 0.0f ), TB_NAME( Splat )( 0.0f ), mSum, TB_NAME( Splat )( 0.0f ), mSum };
	for ( int side = 0; side < 2; ++side )
	{
		const TB_VF* I = side == 0 ? iA : iB;
		tbV3 r = side == 0 ? TB_NAME( Load3 )( g->rA, lane0 ) : TB_NAME( Load3 )( g->rB, lane0 );
		TB_VF xx = I[0], xy = I[1], xz = I[2], yy = I[3], yz = I[4], zz = I[5];
		TB_VF x = r.x, y = r.y, z = r.z;
		TB_VF m0[3] = { xy * z - xz * y, yy * z - yz * y, yz * z - zz * y };
		TB_VF m1[3] = { xz * x - xx * z, yz * x - xy * z, zz * x - xz * z };
		TB_VF m2[3] = { xx * y - xy * x, xy * y - yy * x, xz * y - yz * x };
		k[0] += z * m0[1] - y * m0[2];
		k[1] += z * m1[1] - y * m1[2];
		k[2] += z * m2[1] - y * m2[2];
		k[3] += x * m1[2] - z * m1[0];
		k[4] += x * m2[2] - z * m2[0];
		k[5] += y * m2[0] - x * m2[1];
	}
	// The inverse by cofactors; K is positive definite when mA + mB > 0, which the lanes require.
	TB_VF c[6] = { k[3] * k[5] - k[4] * k[4], k[2] * k[4] - k[1] * k[5], k[1] * k[4] - k[2] * k[3],
				   k[0] * k[5] - k[2] * k[2], k[1] * k[2] - k[0] * k[4], k[0] * k[3] - k[1] * k[1] };
	TB_VF det = k[0] * c[0] + k[1] * c[1] + k[2] * c[2];
	TB_VF zero = TB_NAME( Splat )( 0.0f );
	TB_VF inv = TB_NAME( Select )( det > zero, TB_NAME( Splat )( 1.0f ) / det, zero );
	for ( int i = 0; i < 6; ++i )
	{
		TB_NAME( Store )( g->pointInvK[i] + lane0, c[i] * inv );
	}

	if ( g->anyHinge )
	{
		// The hinge's quaternion row axes and their block (tbPrepareAngularBlock, n = 2), zero in
		// the lanes of other joints.
		tbV3 local0 = { -q.z, q.w, q.x };
		tbV3 local1 = { q.y, -q.x, q.w };
		tbV3 a0 = TB_NAME( QuatRowAxis )( qA, local0 );
		tbV3 a1 = TB_NAME( QuatRowAxis )( qA, local1 );
		TB_NAME( Store3 )( g->axis0, lane0, a0 );
		TB_NAME( Store3 )( g->axis1, lane0, a1 );
		tbV3 Ia0 = TB_NAME( MulSym )( iSum, a0 );
		tbV3 Ia1 = TB_NAME( MulSym )( iSum, a1 );
		TB_VF k00 = TB_NAME( Dot )( a0, Ia0 ), k01 = TB_NAME( Dot )( a0, Ia1 ), k11 = TB_NAME( Dot )( a1, Ia1 );
		TB_VF adet = k00 * k11 - k01 * k01;
		TB_VF ainv =
			TB_NAME( Select )( adet > TB_NAME( Splat )( 1.0e-5f ) * k00 * k11, TB_NAME( Splat )( 1.0f ) / adet, zero );
		ainv = ainv * TB_NAME( Load )( g->hinge + lane0 );
		TB_NAME( Store )( g->angularInvK[0] + lane0, ainv * k11 );
		TB_NAME( Store )( g->angularInvK[1] + lane0, -ainv * k01 );
		TB_NAME( Store )( g->angularInvK[2] + lane0, ainv * k00 );
	}

	TB_VF one = TB_NAME( Splat )( 1.0f );
	if ( g->anyTwist )
	{
		// tbTwistAxis: d(twist)/dt = R(qA) (1, (w z + x y) / s, (x z - w y) / s) . (wB - wA), s = w^2 + x^2.
		TB_VF sq = TB_NAME( Max )( q.w * q.w + q.x * q.x, TB_NAME( Splat )( 1.0e-6f ) );
		TB_VF invSq = one / sq;
		tbV3 local = { one, ( q.w * q.z + q.x * q.y ) * invSq, ( q.x * q.z - q.w * q.y ) * invSq };
		tbV3 axis = TB_NAME( Rotate )( qA, local );
		axis = TB_NAME( Scale )( TB_NAME( Load )( g->twistLimit + lane0 ), axis );
		TB_NAME( Store3 )( g->twistAxis, lane0, axis );
		TB_NAME( Store )( g->twistMass + lane0, TB_NAME( AxisMass )( iSum, axis ) );
	}
	if ( g->anyCone )
	{
		// tbSwingDirection: xA x xB normalised; the row pushes back along its opposite.
		tbV3 ex = { one, zero, zero };
		tbV3 n = TB_NAME( Cross )( TB_NAME( Rotate )( qA, ex ), TB_NAME( Rotate )( qB, ex ) );
		TB_VF length = TB_NAME( Sqrt )( TB_NAME( Dot )( n, n ) );
		TB_VI parallel = length < TB_NAME( Splat )( 1.0e-6f );
		tbV3 dir = TB_NAME( Scale )( one / TB_NAME( Max )( length, TB_NAME( Splat )( 1.0e-6f ) ), n );
		if ( TB_ANY( parallel ) )
		{
			dir = TB_NAME( ParallelSwingDirection )( qA, q, parallel, dir );
		}
		tbV3 axis = TB_NAME( Scale )( -TB_NAME( Load )( g->coneLimit + lane0 ), dir );
		TB_NAME( Store3 )( g->swingAxis, lane0, axis );
		TB_NAME( Store )( g->swingMass + lane0, TB_NAME( AxisMass )( iSum, axis ) );
	}
}

TB_FN void TB_NAME( LoadInertia )( tbJointLanes* g, int lane0, tbLI* iA, tbLI* iB )
{
	bool isotropic = g->isotropic[lane0 / TB_W];
	iA->isotropic = isotropic;
	iB->isotropic = isotropic;
	for ( int k = 0; k < ( isotropic ? 1 : 6 ); ++k )
	{
		iA->m[k] = TB_NAME( Load )( g->invI[k][0] + lane0 );
		iB->m[k] = TB_NAME( Load )( g->invI[k][1] + lane0 );
	}
}

// P at the anchors: vA -= mA P, wA -= IA^-1 (rA x P), and the opposite on B.
TB_FN void TB_NAME( ApplyPoint )( tbJointLanes* g, int lane0, const tbLI* iA, const tbLI* iB, tbV3 P, tbL* m )
{
	tbV3 rA = TB_NAME( Load3 )( g->rA, lane0 );
	tbV3 rB = TB_NAME( Load3 )( g->rB, lane0 );
	TB_VF mA = TB_NAME( Load )( g->mA + lane0 ), mB = TB_NAME( Load )( g->mB + lane0 );
	m->vA = TB_NAME( Sub )( m->vA, TB_NAME( Scale )( mA, P ) );
	m->wA = TB_NAME( Sub )( m->wA, TB_NAME( MulI )( iA, TB_NAME( Cross )( rA, P ) ) );
	m->vB = TB_NAME( Add )( m->vB, TB_NAME( Scale )( mB, P ) );
	m->wB = TB_NAME( Add )( m->wB, TB_NAME( MulI )( iB, TB_NAME( Cross )( rB, P ) ) );
}

TB_FN void TB_NAME( ApplyAngular )( const tbLI* iA, const tbLI* iB, tbV3 L, tbL* m )
{
	m->wA = TB_NAME( Sub )( m->wA, TB_NAME( MulI )( iA, L ) );
	m->wB = TB_NAME( Add )( m->wB, TB_NAME( MulI )( iB, L ) );
}

// The accumulated impulses of the step so far, applied again at the start of a sub-step (the
// hinge's angular impulse first, as tbWarmStartHinge does).
TB_FN void TB_NAME( WarmStart )( tbJointLanes* g, int lane0 )
{
	tbL m;
	TB_NAME( GatherVelocities )( g, lane0, &m );
	tbLI iA, iB;
	TB_NAME( LoadInertia )( g, lane0, &iA, &iB );
	TB_VF zero = TB_NAME( Splat )( 0.0f );
	tbV3 angular = { zero, zero, zero };
	if ( g->anyHinge )
	{
		tbV3 a0 = TB_NAME( Load3 )( g->axis0, lane0 ), a1 = TB_NAME( Load3 )( g->axis1, lane0 );
		TB_VF l0 = TB_NAME( Load )( g->angularImpulse[0] + lane0 );
		TB_VF l1 = TB_NAME( Load )( g->angularImpulse[1] + lane0 );
		angular = TB_NAME( Add )( TB_NAME( Scale )( l0, a0 ), TB_NAME( Scale )( l1, a1 ) );
	}
	if ( g->anyTwist )
	{
		TB_VF twist = TB_NAME( Load )( g->lowerImpulse + lane0 ) - TB_NAME( Load )( g->upperImpulse + lane0 );
		angular = TB_NAME( Add )( angular, TB_NAME( Scale )( twist, TB_NAME( Load3 )( g->twistAxis, lane0 ) ) );
	}
	if ( g->anyCone )
	{
		TB_VF cone = TB_NAME( Load )( g->coneImpulse + lane0 );
		angular = TB_NAME( Add )( angular, TB_NAME( Scale )( cone, TB_NAME( Load3 )( g->swingAxis, lane0 ) ) );
	}
	TB_NAME( ApplyAngular )( &iA, &iB, angular, &m );
	TB_NAME( ApplyPoint )( g, lane0, &iA, &iB, TB_NAME( Load3 )( g->linearImpulse, lane0 ), &m );
	TB_NAME( ScatterVelocities )( g, lane0, &m );
}

// An inequality row C >= 0 about a world axis (tbSolveAngularLimit): speculative while C > 0 (the
// approach that closes the gap within the sub-step, no more), soft past it in a biased pass, hard
// in a relax pass. The accumulated impulse stays >= 0.
TB_FN void TB_NAME( SolveLimit )( const tbStepContext* ctx, const tbLI* iA, const tbLI* iB, tbV3 axis, TB_VF mass,
								  TB_VF C, tbSoftness soft, float* accumulated, tbL* m )
{
	TB_VF zero = TB_NAME( Splat )( 0.0f );
	TB_VF maxCorrection = TB_NAME( Splat )( TB_JOINT_MAX_CORRECTION_SPEED );
	TB_VI speculative = C > zero;
	TB_VF gapBias = TB_NAME( Min )( C, TB_NAME( Splat )( TB_MAX_JOINT_LENGTH ) ) * ctx->inv_h;
	TB_VF softBias = TB_NAME( Max )( TB_NAME( Min )( soft.biasRate * C, maxCorrection ), -maxCorrection );
	TB_VF bias = TB_NAME( Select )( speculative, gapBias, softBias );
	TB_VF massScale = TB_NAME( Select )( speculative, TB_NAME( Splat )( 1.0f ), TB_NAME( Splat )( soft.massScale ) );
	TB_VF impulseScale = TB_NAME( Select )( speculative, zero, TB_NAME( Splat )( soft.impulseScale ) );
	TB_VF cdot = TB_NAME( Dot )( axis, TB_NAME( Sub )( m->wB, m->wA ) );
	TB_VF old = TB_NAME( Load )( accumulated );
	TB_VF lambda = -massScale * mass * ( cdot + bias ) - impulseScale * old;
	TB_VF total = TB_NAME( Max )( old + lambda, zero );
	TB_NAME( Store )( accumulated, total );
	TB_NAME( ApplyAngular )( iA, iB, TB_NAME( Scale )( total - old, axis ), m );
}

// One Gauss-Seidel pass over the lanes, in the scalar joints' order: the limits
// (tbSolveAngularLimit), the hinge block (tbSolvePreparedAngularBlock), then the point block
// (tbSolvePoint), each with the same bounds as the scalar rows.
TB_FN void TB_NAME( Solve )( tbStepContext* ctx, tbJointLanes* g, int lane0, tbSoftness soft, bool measure )
{
	// After a position update only the limits' angles matter to a pass without bias: the hinge and
	// point rows scale C and d by a bias rate of zero, and the next refresh measures again.
	if ( measure && ( g->anyTwist || g->anyCone ) )
	{
		tbQ4 qA, qB, q;
		TB_NAME( MeasurePose )( g, lane0, false, &qA, &qB, &q );
	}
	tbL m;
	TB_NAME( GatherVelocities )( g, lane0, &m );
	tbLI iA, iB;
	TB_NAME( LoadInertia )( g, lane0, &iA, &iB );
	// A pass without bias (biasRate 0) reads neither the hinge errors nor the anchor gap, which
	// shortens what the relax passes stream through the cache.
	const bool biased = soft.biasRate != 0.0f;
	TB_VF biasRate = TB_NAME( Splat )( soft.biasRate );
	TB_VF massScale = TB_NAME( Splat )( soft.massScale );
	TB_VF impulseScale = TB_NAME( Splat )( soft.impulseScale );
	TB_VF maxCorrection = TB_NAME( Splat )( TB_JOINT_MAX_CORRECTION_SPEED );

	// The limits first, as the scalar joints solve them: the twist range, then the cone.
	if ( g->anyTwist )
	{
		tbV3 axis = TB_NAME( Load3 )( g->twistAxis, lane0 );
		TB_VF mass = TB_NAME( Load )( g->twistMass + lane0 );
		TB_VF twist = TB_NAME( Load )( g->twist + lane0 );
		TB_VF lowerC = twist - TB_NAME( Load )( g->lower + lane0 );
		TB_VF upperC = TB_NAME( Load )( g->upper + lane0 ) - twist;
		TB_NAME( SolveLimit )( ctx, &iA, &iB, axis, mass, lowerC, soft, g->lowerImpulse + lane0, &m );
		tbV3 reversed = TB_NAME( Scale )( TB_NAME( Splat )( -1.0f ), axis );
		TB_NAME( SolveLimit )( ctx, &iA, &iB, reversed, mass, upperC, soft, g->upperImpulse + lane0, &m );
	}
	if ( g->anyCone )
	{
		tbV3 axis = TB_NAME( Load3 )( g->swingAxis, lane0 );
		TB_VF C = TB_NAME( Load )( g->coneAngle + lane0 ) - TB_NAME( Load )( g->swing + lane0 );
		TB_NAME( SolveLimit )
		( ctx, &iA, &iB, axis, TB_NAME( Load )( g->swingMass + lane0 ), C, soft, g->coneImpulse + lane0, &m );
	}

	if ( g->anyHinge )
	{
		// Hinge rows: rhs_i = a_i . (wB - wA) + clamp(biasRate C_i).
		tbV3 a0 = TB_NAME( Load3 )( g->axis0, lane0 ), a1 = TB_NAME( Load3 )( g->axis1, lane0 );
		tbV3 dw = TB_NAME( Sub )( m.wB, m.wA );
		tbV3 rhs = { TB_NAME( Dot )( a0, dw ), TB_NAME( Dot )( a1, dw ), TB_NAME( Splat )( 0.0f ) };
		if ( biased )
		{
			TB_VF b0 = TB_NAME( Load )( g->C[0] + lane0 ) * biasRate;
			TB_VF b1 = TB_NAME( Load )( g->C[1] + lane0 ) * biasRate;
			rhs.x = rhs.x + TB_NAME( Max )( TB_NAME( Min )( b0, maxCorrection ), -maxCorrection );
			rhs.y = rhs.y + TB_NAME( Max )( TB_NAME( Min )( b1, maxCorrection ), -maxCorrection );
		}
		// tbBoundAngularRhs: at most twice the fastest relative spin the clamps allow.
		const float spinLimit = 4.0f * TB_MAX_ANGULAR_SPEED;
		if ( TB_ANY( TB_NAME( Dot )( rhs, rhs ) > TB_NAME( Splat )( spinLimit * spinLimit ) ) )
		{
			float limits[TB_W];
			for ( int l = 0; l < TB_W; ++l )
			{
				limits[l] = spinLimit;
			}
			rhs = TB_NAME( ClampLanes )( rhs, limits );
		}
		TB_VF k00 = TB_NAME( Load )( g->angularInvK[0] + lane0 );
		TB_VF k01 = TB_NAME( Load )( g->angularInvK[1] + lane0 );
		TB_VF k11 = TB_NAME( Load )( g->angularInvK[2] + lane0 );
		TB_VF acc0 = TB_NAME( Load )( g->angularImpulse[0] + lane0 );
		TB_VF acc1 = TB_NAME( Load )( g->angularImpulse[1] + lane0 );
		TB_VF l0 = -massScale * ( k00 * rhs.x + k01 * rhs.y ) - impulseScale * acc0;
		TB_VF l1 = -massScale * ( k01 * rhs.x + k11 * rhs.y ) - impulseScale * acc1;
		TB_NAME( Store )( g->angularImpulse[0] + lane0, acc0 + l0 );
		TB_NAME( Store )( g->angularImpulse[1] + lane0, acc1 + l1 );
		TB_NAME( ApplyAngular )( &iA, &iB, TB_NAME( Add )( TB_NAME( Scale )( l0, a0 ), TB_NAME( Scale )( l1, a1 ) ), &m );
	}

	// Point rows: rhs = Cdot + biasRate d (its length held to TB_JOINT_MAX_CORRECTION_SPEED).
	tbV3 rA = TB_NAME( Load3 )( g->rA, lane0 ), rB = TB_NAME( Load3 )( g->rB, lane0 );
	tbV3 cdot = TB_NAME( Sub )( TB_NAME( Add )( m.vB, TB_NAME( Cross )( m.wB, rB ) ),
								TB_NAME( Add )( m.vA, TB_NAME( Cross )( m.wA, rA ) ) );
	tbV3 prhs = cdot;
	if ( biased )
	{
		tbV3 bias = TB_NAME( Scale )( biasRate, TB_NAME( Load3 )( g->d, lane0 ) );
		TB_VF biasSq = TB_NAME( Dot )( bias, bias );
		TB_VI fast = biasSq > maxCorrection * maxCorrection;
		if ( TB_ANY( fast ) )
		{
			TB_VF s = TB_NAME( Select )( fast, maxCorrection / TB_SQRT( biasSq ), TB_NAME( Splat )( 1.0f ) );
			bias = TB_NAME( Scale )( s, bias );
		}
		prhs = TB_NAME( Add )( cdot, bias );
	}
	// tbBoundPointRhs: past 2 TB_MAX_SPEED, at most twice the fastest relative anchor motion.
	if ( TB_ANY( TB_NAME( Dot )( prhs, prhs ) > TB_NAME( Splat )( 4.0f * TB_MAX_SPEED * TB_MAX_SPEED ) ) )
	{
		float limits[TB_W];
		for ( int l = 0; l < TB_W; ++l )
		{
			tbVec3 a = { g->rA[0][lane0 + l], g->rA[1][lane0 + l], g->rA[2][lane0 + l] };
			tbVec3 b = { g->rB[0][lane0 + l], g->rB[1][lane0 + l], g->rB[2][lane0 + l] };
			limits[l] = 2.0f * ( TB_MAX_SPEED + TB_MAX_ANGULAR_SPEED * ( tbLength( a ) + tbLength( b ) ) );
		}
		prhs = TB_NAME( ClampLanes )( prhs, limits );
	}
	TB_VF ik[6];
	for ( int i = 0; i < 6; ++i )
	{
		ik[i] = TB_NAME( Load )( g->pointInvK[i] + lane0 );
	}
	tbV3 x = TB_NAME( MulSym )( ik, prhs );
	tbV3 acc = TB_NAME( Load3 )( g->linearImpulse, lane0 );
	tbV3 P = TB_NAME( Sub )( TB_NAME( Scale )( -massScale, x ), TB_NAME( Scale )( impulseScale, acc ) );
	TB_NAME( Store3 )( g->linearImpulse, lane0, TB_NAME( Add )( acc, P ) );
	TB_NAME( ApplyPoint )( g, lane0, &iA, &iB, P, &m );
	TB_NAME( ScatterVelocities )( g, lane0, &m );
}

// The stages over the groups [start, end) of one colour, every half of a group in turn.
TB_FN void TB_NAME( RunStage )( tbStepContext* ctx, tbJointLanes* groups, int start, int end, tbWideJointStage stage,
								tbSoftness soft, bool measure )
{
	for ( int i = start; i < end; ++i )
	{
		tbJointLanes* g = groups + i;
		for ( int lane0 = 0; lane0 < TB_JOINT_LANES; lane0 += TB_W )
		{
			switch ( stage )
			{
				case tbWideJointStage_refresh:
					TB_NAME( Refresh )( ctx, g, lane0 );
					break;
				case tbWideJointStage_warmStart:
					TB_NAME( WarmStart )( g, lane0 );
					break;
				case tbWideJointStage_refreshWarmStart:
					TB_NAME( Refresh )( ctx, g, lane0 );
					TB_NAME( WarmStart )( g, lane0 );
					break;
				case tbWideJointStage_solve:
					TB_NAME( Solve )( ctx, g, lane0, soft, measure );
					break;
			}
		}
	}
}

// The instance's parameters end with it, so the next instance defines its own.
#undef tbL
#undef tbLI
#include "lanes_end.h"
