// Tumble physics: the lane arithmetic of the bodies' integration (body_wide.c says what it is).
//
// A template (lanes.h), included by body_wide.c once after lanes_w4.h (4-lane SSE2 vectors) and,
// on x86, once after lanes_w8.h (8-lane vectors in functions compiled for AVX2 and FMA), the one
// chosen at run time. It undefines the instance's parameters at its end. A group holds
// TB_GROUP_LANES (8) bodies: the 4-lane instance integrates it as two halves. The arithmetic per
// lane is tbIntegrateBodyVelocity's and tbIntegrateBodyPosition's (solver.c), operation for
// operation, for the bodies the group takes (tbPackBodyLanes).

#include "lanes_math.h"

// Lanes of v past limit through tbClampLength; the others as they are.
TB_FN tbV3 TB_NAME( ClampSpeed )( tbV3 v, float limit )
{
	const float limitSq = limit * limit;
	if ( TB_ANY( TB_NAME( Dot )( v, v ) > TB_NAME( Splat )( limitSq ) ) )
	{
		float limits[TB_W];
		for ( int l = 0; l < TB_W; ++l )
		{
			limits[l] = limit;
		}
		v = TB_NAME( ClampLanes )( v, limits );
	}
	return v;
}

// v' = linearDamping (v + deltaV), w' = angularDamping w, both clamped.
TB_FN void TB_NAME( IntegrateVelocities )( const tbStepContext* ctx, tbBodyLanes* g, int lane0 )
{
	tbV3 v, w;
	TB_NAME( LoadBodyVelocities )( g->rows + lane0, &v, &w );
	tbV3 deltaV = TB_NAME( Load3 )( g->deltaV, lane0 );
	v = TB_NAME( Scale )( TB_NAME( Load )( g->linearDamping + lane0 ), TB_NAME( Add )( v, deltaV ) );
	w = TB_NAME( Scale )( TB_NAME( Load )( g->angularDamping + lane0 ), w );
	v = TB_NAME( ClampSpeed )( v, ctx->world->def.maxLinearSpeed );
	w = TB_NAME( ClampSpeed )( w, TB_MAX_ANGULAR_SPEED );
	TB_NAME( StoreBodyVelocities )( g->rows + lane0, v, w );
}

// dp' = dp + h v, dq' = normalize(dq + h/2 (w, 0) dq), and R D R^T for the lanes whose inertia
// turns (tbRotateInertia's diagonal case).
TB_FN void TB_NAME( IntegratePositions )( const tbStepContext* ctx, tbBodyLanes* g, int lane0 )
{
	const float h = ctx->h;
	TB_VF a[6], b[7];
	TB_NAME( LoadVelocities )( g->rows + lane0, a );
	TB_NAME( LoadMotion )( g->rows + lane0, b );
	tbV3 v = TB_NAME( ClampSpeed )( ( tbV3 ){ a[0], a[1], a[2] }, ctx->world->def.maxLinearSpeed );
	tbV3 w = TB_NAME( ClampSpeed )( ( tbV3 ){ a[3], a[4], a[5] }, TB_MAX_SUBSTEP_ROTATION / h );
	TB_VF hv = TB_NAME( Splat )( h );
	tbV3 dp = TB_NAME( Add )( ( tbV3 ){ b[0], b[1], b[2] }, TB_NAME( Scale )( hv, v ) );
	tbQ4 dq = { b[3], b[4], b[5], b[6] };
	TB_VF zero = TB_NAME( Splat )( 0.0f );
	tbQ4 d = TB_NAME( MulQQ )( ( tbQ4 ){ w.x, w.y, w.z, zero }, dq );
	TB_VF halfH = TB_NAME( Splat )( 0.5f * h );
	tbQ4 r = { dq.x + halfH * d.x, dq.y + halfH * d.y, dq.z + halfH * d.z, dq.w + halfH * d.w };
	TB_VF len = TB_NAME( Sqrt )( r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w );
	TB_VI degenerate = len < TB_NAME( Splat )( 1.0e-20f );
	TB_VF inv = TB_NAME( Splat )( 1.0f ) / TB_NAME( Select )( degenerate, TB_NAME( Splat )( 1.0f ), len );
	TB_VF one = TB_NAME( Splat )( 1.0f );
	dq.x = TB_NAME( Select )( degenerate, zero, inv * r.x );
	dq.y = TB_NAME( Select )( degenerate, zero, inv * r.y );
	dq.z = TB_NAME( Select )( degenerate, zero, inv * r.z );
	dq.w = TB_NAME( Select )( degenerate, one, inv * r.w );

	TB_NAME( StoreBodyVelocities )( g->rows + lane0, v, w );
	float motion[7][TB_W];
	TB_VF m[7] = { dp.x, dp.y, dp.z, dq.x, dq.y, dq.z, dq.w };
	for ( int k = 0; k < 7; ++k )
	{
		TB_NAME( Store )( motion[k], m[k] );
	}
	for ( int l = 0; l < TB_W; ++l )
	{
		float* row = g->rows[lane0 + l];
		for ( int k = 0; k < 7; ++k )
		{
			row[6 + k] = motion[k][l];
		}
	}
	if ( g->anyTurns == false )
	{
		return;
	}

	// q = dq q0, and R D R^T with R = tbMakeMatFromQuat(q), summed as tbRotateInertia sums it.
	tbQ4 q = TB_NAME( MulQQ )( dq, TB_NAME( Load4 )( g->q0, lane0 ) );
	TB_VF two = TB_NAME( Splat )( 2.0f );
	TB_VF xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
	TB_VF xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
	TB_VF wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
	tbV3 cx = { one - two * ( yy + zz ), two * ( xy + wz ), two * ( xz - wy ) };
	tbV3 cy = { two * ( xy - wz ), one - two * ( xx + zz ), two * ( yz + wx ) };
	tbV3 cz = { two * ( xz + wy ), two * ( yz - wx ), one - two * ( xx + yy ) };
	tbV3 sa = TB_NAME( Scale )( TB_NAME( Load )( g->invLocal[0] + lane0 ), cx );
	tbV3 sb = TB_NAME( Scale )( TB_NAME( Load )( g->invLocal[1] + lane0 ), cy );
	tbV3 sc = TB_NAME( Scale )( TB_NAME( Load )( g->invLocal[2] + lane0 ), cz );
	float e[6][TB_W];
	TB_NAME( Store )( e[0], sa.x * cx.x + sb.x * cy.x + sc.x * cz.x );
	TB_NAME( Store )( e[1], sa.x * cx.y + sb.x * cy.y + sc.x * cz.y );
	TB_NAME( Store )( e[2], sa.x * cx.z + sb.x * cy.z + sc.x * cz.z );
	TB_NAME( Store )( e[3], sa.y * cx.y + sb.y * cy.y + sc.y * cz.y );
	TB_NAME( Store )( e[4], sa.y * cx.z + sb.y * cy.z + sc.y * cz.z );
	TB_NAME( Store )( e[5], sa.z * cx.z + sb.z * cy.z + sc.z * cz.z );
	for ( int l = 0; l < TB_W; ++l )
	{
		tbMat3* inertia = g->inertia[lane0 + l];
		if ( inertia != NULL )
		{
			*inertia = ( tbMat3 ){ { e[0][l], e[1][l], e[2][l] }, { e[1][l], e[3][l], e[4][l] }, { e[2][l], e[4][l], e[5][l] } };
		}
	}
}

// The instance's parameters end with it, so the next instance defines its own.
#include "lanes_end.h"
