// Tumble physics: the parts every joint type is built from, with their equations: equality,
// limit, motor and spring rows, the point block, angular blocks (free axes and prepared ones),
// quaternion rows, twist and swing angles (joint.h states the conventions they share).
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "core.h"
#include "solver.h"

#include <float.h>
#include <math.h>

// Row solvers -------------------------------------------------------------------------------------

tbSoftness tbJointSoftness( const tbStepContext* ctx, bool useBias )
{
	if ( useBias == false )
	{
		tbSoftness none = { 0.0f, 1.0f, 0.0f };
		return none;
	}
	if ( ctx->mode == tbSolver_soft )
	{
		return ctx->jointSoftness;
	}
	// Baumgarte (000 ch. 11): a fraction beta of the error per step. Split mode feeds joint
	// drift back the same way (only contacts are split).
	return tbMakeRigid( ctx->baumgarte * ctx->inv_h );
}

static float tbInverseOrZero( float k )
{
	return k > 0.0f ? 1.0f / k : 0.0f;
}

float tbSolveEqualityRow( tbJointMotion* m, const tbJointRow* J, float C, tbSoftness soft, float* accumulated )
{
	float mass = tbInverseOrZero( tbRowCoupling( m, J, J ) );
	float cdot = tbRowVelocity( m, J );
	float lambda = -soft.massScale * mass * ( cdot + tbClampCorrection( soft.biasRate * C ) ) - soft.impulseScale * *accumulated;
	*accumulated += lambda;
	tbRowApply( m, J, lambda );
	return lambda;
}

// Bias velocity and softness of an inequality row C >= 0.
static float tbLimitBias( const tbStepContext* ctx, float C, bool useBias, tbSoftness* soft )
{
	tbSoftness hard = { 0.0f, 1.0f, 0.0f };
	*soft = hard;
	if ( C > 0.0f )
	{
		// Speculative: allow the approach that closes the gap within this sub-step, no more.
		return tbMinFloat( C, TB_MAX_JOINT_LENGTH ) * ctx->inv_h;
	}
	if ( useBias )
	{
		*soft = tbJointSoftness( ctx, true );
		return tbClampCorrection( soft->biasRate * C );
	}
	return 0.0f;
}

void tbSolveLimitRow( const tbStepContext* ctx, tbJointMotion* m, const tbJointRow* J, float C, bool useBias,
					  float* accumulated )
{
	tbSoftness soft;
	float bias = tbLimitBias( ctx, C, useBias, &soft );
	float mass = tbInverseOrZero( tbRowCoupling( m, J, J ) );
	float cdot = tbRowVelocity( m, J );
	float lambda = -soft.massScale * mass * ( cdot + bias ) - soft.impulseScale * *accumulated;
	float newImpulse = tbMaxFloat( *accumulated + lambda, 0.0f );
	lambda = newImpulse - *accumulated;
	*accumulated = newImpulse;
	tbRowApply( m, J, lambda );
}

void tbSolveMotorRow( tbJointMotion* m, const tbJointRow* J, float speed, float maxSpeed, float maxImpulse,
					  float* accumulated )
{
	float mass = tbInverseOrZero( tbRowCoupling( m, J, J ) );
	float cdot = tbRowVelocity( m, J );
	speed = tbClampMotorSpeed( speed, maxSpeed );
	float lambda = -mass * ( cdot - speed );
	float newImpulse = tbClampFloat( *accumulated + lambda, -maxImpulse, maxImpulse );
	lambda = newImpulse - *accumulated;
	*accumulated = newImpulse;
	tbRowApply( m, J, lambda );
}

void tbSolveSpringRow( tbJointMotion* m, const tbJointRow* J, float C, tbSoftness soft, float maxImpulse,
					   float* accumulated )
{
	float mass = tbInverseOrZero( tbRowCoupling( m, J, J ) );
	float cdot = tbRowVelocity( m, J );
	float lambda = -soft.massScale * mass * ( cdot + soft.biasRate * C ) - soft.impulseScale * *accumulated;
	float newImpulse = tbClampFloat( *accumulated + lambda, -maxImpulse, maxImpulse );
	lambda = newImpulse - *accumulated;
	*accumulated = newImpulse;
	tbRowApply( m, J, lambda );
}

void tbSolveEqualityBlock( tbJointMotion* m, const tbJointRow* J, const float* C, int n, tbSoftness soft,
						   float* accumulated )
{
	TB_ASSERT( n == 2 || n == 3 );
	// Effective mass K = J M^-1 J^T (symmetric); a 2x2 block is padded with a unit third row.
	float k[3][3] = { { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f } };
	float rhs[3] = { 0.0f, 0.0f, 0.0f };
	for ( int i = 0; i < n; ++i )
	{
		for ( int j = i; j < n; ++j )
		{
			k[i][j] = tbRowCoupling( m, J + i, J + j );
			k[j][i] = k[i][j];
		}
		rhs[i] = tbRowVelocity( m, J + i ) + tbClampCorrection( soft.biasRate * C[i] );
	}
	tbMat3 K = { { k[0][0], k[1][0], k[2][0] }, { k[0][1], k[1][1], k[2][1] }, { k[0][2], k[1][2], k[2][2] } };
	tbVec3 x = tbSolve3( K, tbMakeVec3( rhs[0], rhs[1], rhs[2] ) );
	float lambda[3] = { x.x, x.y, x.z };
	for ( int i = 0; i < n; ++i )
	{
		float l = -soft.massScale * lambda[i] - soft.impulseScale * accumulated[i];
		accumulated[i] += l;
		tbRowApply( m, J + i, l );
	}
}

// No point-joint pass asks for more than reversing the fastest relative anchor motion the speed
// clamps allow. Within the passes velocities are not clamped: joints that disagree on a body with a
// light axis and a 500 m lever fed each other's passes until r x P overflowed (fuzz findings 50,
// fixed joints, and 51, a motor joint). Normal scenes never come near the bound. Clamping the spin
// each pass stores instead (one place for all joint types) was worse: a clamped velocity no longer
// matches the accumulated impulses, which then grow (test_joints disagreeing_joints_on_a_light_axis).
static tbVec3 tbBoundPointRhs( tbVec3 rhs, tbVec3 rA, tbVec3 rB )
{
	// The lever arms' lengths (two square roots) only when the lever-free part of the bound is passed.
	if ( tbLengthSquared( rhs ) <= 4.0f * TB_MAX_SPEED * TB_MAX_SPEED )
	{
		return rhs;
	}
	return tbClampLength( rhs, 2.0f * ( TB_MAX_SPEED + TB_MAX_ANGULAR_SPEED * ( tbLength( rA ) + tbLength( rB ) ) ) );
}

// The same for an angular block: at most twice the fastest relative spin the clamps allow. A fixed
// joint's angular block on a body whose inertia spans eight orders of magnitude (a 1 km capsule of
// 5 cm radius) meets the growth of findings 50 and 51 through its ill-conditioned 3x3 inverse
// (fuzz finding 52).
static tbVec3 tbBoundAngularRhs( tbVec3 rhs )
{
	return tbClampLength( rhs, 4.0f * TB_MAX_ANGULAR_SPEED );
}

void tbApplyPointImpulse( tbJointMotion* m, const tbJointPose* p, tbVec3 impulse )
{
	m->vA = tbMulSub( m->vA, m->mA, impulse );
	m->wA = tbSub( m->wA, tbMulMV( *m->iA, tbCross( p->rA, impulse ) ) );
	m->vB = tbMulAdd( m->vB, m->mB, impulse );
	m->wB = tbAdd( m->wB, tbMulMV( *m->iB, tbCross( p->rB, impulse ) ) );
}

static void tbInvertPointMass( double invK[3][3], float mA, const tbMat3* iA, tbVec3 rA, float mB, const tbMat3* iB,
							   tbVec3 rB );
static tbVec3 tbMulPointInvMass( const double* invK, tbVec3 v );

void tbSolvePointBlock( tbJointMotion* m, const tbJointPose* p, tbSoftness soft, tbVec3* accumulated )
{
	// C = pB - pA (004 sec. 3.7.2), Cdot = vB + wB x rB - vA - wA x rA.
	double invK[3][3];
	tbInvertPointMass( invK, m->mA, m->iA, p->rA, m->mB, m->iB, p->rB );
	tbVec3 cdot = tbSub( tbAdd( m->vB, tbCross( m->wB, p->rB ) ), tbAdd( m->vA, tbCross( m->wA, p->rA ) ) );
	tbVec3 rhs = tbBoundPointRhs( tbAdd( cdot, tbClampCorrectionVec( tbMulSV( soft.biasRate, p->d ) ) ), p->rA, p->rB );
	tbVec3 impulse = tbMulSV( -soft.massScale, tbMulPointInvMass( &invK[0][0], rhs ) );
	impulse = tbMulSub( impulse, soft.impulseScale, *accumulated );
	*accumulated = tbAdd( *accumulated, impulse );
	tbApplyPointImpulse( m, p, impulse );
}

void tbSolveAngularBlock( tbJointMotion* m, const tbVec3* axes, const float* C, int n, tbSoftness soft,
						  float* accumulated )
{
	TB_ASSERT( n == 2 || n == 3 );
	tbMat3 I = tbAddMM( *m->iA, *m->iB );
	tbVec3 dw = tbSub( m->wB, m->wA );
	tbVec3 Ia0 = tbMulMV( I, axes[0] );
	tbVec3 Ia1 = tbMulMV( I, axes[1] );
	float k00 = tbDot( axes[0], Ia0 ), k01 = tbDot( axes[0], Ia1 ), k11 = tbDot( axes[1], Ia1 );
	tbVec3 r = { tbDot( axes[0], dw ) + tbClampCorrection( soft.biasRate * C[0] ),
				 tbDot( axes[1], dw ) + tbClampCorrection( soft.biasRate * C[1] ), 0.0f };
	if ( n == 3 )
	{
		r.z = tbDot( axes[2], dw ) + tbClampCorrection( soft.biasRate * C[2] );
	}
	r = tbBoundAngularRhs( r );
	float r0 = r.x, r1 = r.y, r2 = r.z;
	float lambda[3];
	if ( n == 2 )
	{
		// Near a half turn from the rest pose the quaternion rows turn parallel and the block is
		// singular: skip it rather than apply an unbounded impulse (relative threshold, so tiny
		// and huge inertias behave alike).
		float det = k00 * k11 - k01 * k01;
		float inv = det > 1.0e-5f * k00 * k11 ? 1.0f / det : 0.0f;
		lambda[0] = inv * ( k11 * r0 - k01 * r1 );
		lambda[1] = inv * ( k00 * r1 - k01 * r0 );
	}
	else
	{
		tbVec3 Ia2 = tbMulMV( I, axes[2] );
		float k02 = tbDot( axes[0], Ia2 ), k12 = tbDot( axes[1], Ia2 ), k22 = tbDot( axes[2], Ia2 );
		tbMat3 K = { { k00, k01, k02 }, { k01, k11, k12 }, { k02, k12, k22 } };
		// the same guard as the 2x2 case: a (near) singular block applies nothing
		float det = tbDeterminant( K );
		tbVec3 x = det > 1.0e-5f * k00 * k11 * k22 ? tbSolve3( K, tbMakeVec3( r0, r1, r2 ) ) : tb_vec3_zero;
		lambda[0] = x.x;
		lambda[1] = x.y;
		lambda[2] = x.z;
	}
	tbVec3 total = tb_vec3_zero;
	for ( int i = 0; i < n; ++i )
	{
		float l = -soft.massScale * lambda[i] - soft.impulseScale * accumulated[i];
		accumulated[i] += l;
		total = tbMulAdd( total, l, axes[i] );
	}
	m->wA = tbSub( m->wA, tbMulMV( *m->iA, total ) );
	m->wB = tbAdd( m->wB, tbMulMV( *m->iB, total ) );
}

void tbApplyAngularImpulse( tbJointMotion* m, tbVec3 impulse )
{
	m->wA = tbSub( m->wA, tbMulMV( *m->iA, impulse ) );
	m->wB = tbAdd( m->wB, tbMulMV( *m->iB, impulse ) );
}

// Prepared rows -----------------------------------------------------------------------------------

// K_ij += (r x e_i) . I^-1 (r x e_j) for a side that moves, in double. The columns r x e_i have two
// non-zero entries each and I^-1 is symmetric, so it is written out: M = I^-1 [r]x, then
// K += [r]x^T M (six distinct entries).
static void tbAddAngularMass( double K[3][3], float invMass, const tbMat3* I, tbVec3 r )
{
	if ( invMass <= 0.0f )
	{
		return;
	}
	double xx = I->cx.x, xy = I->cy.x, xz = I->cz.x, yy = I->cy.y, yz = I->cz.y, zz = I->cz.z;
	double x = r.x, y = r.y, z = r.z;
	// Columns of M: I^-1 (r x e_x) with r x e_x = (0, z, -y), r x e_y = (-z, 0, x), r x e_z = (y, -x, 0).
	double m0[3] = { xy * z - xz * y, yy * z - yz * y, yz * z - zz * y };
	double m1[3] = { xz * x - xx * z, yz * x - xy * z, zz * x - xz * z };
	double m2[3] = { xx * y - xy * x, xy * y - yy * x, xz * y - yz * x };
	double k00 = z * m0[1] - y * m0[2];
	double k11 = x * m1[2] - z * m1[0];
	double k22 = y * m2[0] - x * m2[1];
	double k01 = z * m1[1] - y * m1[2];
	double k02 = z * m2[1] - y * m2[2];
	double k12 = x * m2[2] - z * m2[0];
	K[0][0] += k00;
	K[1][1] += k11;
	K[2][2] += k22;
	K[0][1] += k01;
	K[1][0] += k01;
	K[0][2] += k02;
	K[2][0] += k02;
	K[1][2] += k12;
	K[2][1] += k12;
}

// The point rows' inverse effective mass: K = (mA + mB) 1 + the sides' angular terms, formed and
// inverted in double. With a lever arm r long against the body the angular part is ~|r|^2 / I and
// the linear part 1 / m: finding 34 (a fixed joint 141 km from a 2e6 kg sphere's centre) had 400
// against 5e-7, so float rounding of K (400 x 6e-8) wiped out the small eigenvalue along r, K
// turned indefinite and the passes diverged (x350 per pass). The inverse stays in double too: its
// entries along r (~2e6) would otherwise swamp the 1/400 across it. tbInvert3d's relative
// singularity test gives zero for a pair that cannot move (both kinematic): the rows then apply
// nothing.
static void tbInvertPointMass( double invK[3][3], float mA, const tbMat3* iA, tbVec3 rA, float mB, const tbMat3* iB,
							   tbVec3 rB )
{
	double mSum = (double)mA + (double)mB;
	double K[3][3] = { { mSum, 0.0, 0.0 }, { 0.0, mSum, 0.0 }, { 0.0, 0.0, mSum } };
	tbAddAngularMass( K, mA, iA, rA );
	tbAddAngularMass( K, mB, iB, rB );
	tbInvert3d( K, invK );
}

// invK * v for a row-major 3x3 inverse (a flat pointer: C before C23 will not pass a double[3][3]
// where a const one is expected).
static tbVec3 tbMulPointInvMass( const double* invK, tbVec3 v )
{
	double x = v.x, y = v.y, z = v.z;
	tbVec3 r = { (float)( invK[0] * x + invK[1] * y + invK[2] * z ), (float)( invK[3] * x + invK[4] * y + invK[5] * z ),
				 (float)( invK[6] * x + invK[7] * y + invK[8] * z ) };
	return r;
}

void tbPreparePoint( tbJoint* joint )
{
	tbInvertPointMass( joint->pointInvK, joint->sideA.invMass, &joint->sideA.invI, joint->rA, joint->sideB.invMass,
					   &joint->sideB.invI, joint->rB );
}

void tbApplyPreparedPointImpulse( tbJointMotion* m, const tbJoint* joint, tbVec3 impulse )
{
	m->vA = tbMulSub( m->vA, m->mA, impulse );
	m->wA = tbSub( m->wA, tbMulMV( *m->iA, tbCross( joint->rA, impulse ) ) );
	m->vB = tbMulAdd( m->vB, m->mB, impulse );
	m->wB = tbAdd( m->wB, tbMulMV( *m->iB, tbCross( joint->rB, impulse ) ) );
}

void tbSolvePoint( tbJointMotion* m, const tbJoint* joint, tbVec3 d, tbSoftness soft, tbVec3* accumulated )
{
	// C = pB - pA (004 sec. 3.7.2), Cdot = vB + wB x rB - vA - wA x rA with the sub-step's lever arms.
	tbVec3 rA = joint->rA;
	tbVec3 rB = joint->rB;
	tbVec3 cdot = tbSub( tbAdd( m->vB, tbCross( m->wB, rB ) ), tbAdd( m->vA, tbCross( m->wA, rA ) ) );
	tbVec3 rhs = tbBoundPointRhs( tbAdd( cdot, tbClampCorrectionVec( tbMulSV( soft.biasRate, d ) ) ), rA, rB );
	tbVec3 impulse = tbMulSV( -soft.massScale, tbMulPointInvMass( &joint->pointInvK[0][0], rhs ) );
	impulse = tbMulSub( impulse, soft.impulseScale, *accumulated );
	*accumulated = tbAdd( *accumulated, impulse );
	tbApplyPreparedPointImpulse( m, joint, impulse );
}

tbAngularAxis tbMakeAngularAxis( const tbJoint* joint, tbVec3 axis )
{
	tbAngularAxis row;
	row.axis = axis;
	float k = tbDot( axis, tbMulMV( joint->sideA.invI, axis ) ) + tbDot( axis, tbMulMV( joint->sideB.invI, axis ) );
	row.mass = tbInverseOrZero( k );
	return row;
}

void tbPrepareAngularBlock( const tbJoint* joint, tbAngularBlock* block )
{
	int n = block->n;
	TB_ASSERT( n == 2 || n == 3 );
	tbMat3 I = tbAddMM( joint->sideA.invI, joint->sideB.invI );
	tbVec3 Ia[3];
	for ( int i = 0; i < n; ++i )
	{
		Ia[i] = tbMulMV( I, block->axes[i] );
	}
	float k00 = tbDot( block->axes[0], Ia[0] ), k01 = tbDot( block->axes[0], Ia[1] );
	float k11 = tbDot( block->axes[1], Ia[1] );
	if ( n == 2 )
	{
		// Near a half turn from the rest pose the quaternion rows turn parallel and the block is
		// singular: leave it out rather than apply an unbounded impulse (relative threshold, so tiny
		// and huge inertias behave alike). The 2x2 inverse sits in the upper left of invK.
		float det = k00 * k11 - k01 * k01;
		float inv = det > 1.0e-5f * k00 * k11 ? 1.0f / det : 0.0f;
		block->invK = tb_mat3Zero;
		block->invK.cx.x = inv * k11;
		block->invK.cy.y = inv * k00;
		block->invK.cx.y = -inv * k01;
		block->invK.cy.x = -inv * k01;
		return;
	}
	float k02 = tbDot( block->axes[0], Ia[2] ), k12 = tbDot( block->axes[1], Ia[2] );
	float k22 = tbDot( block->axes[2], Ia[2] );
	tbMat3 K = { { k00, k01, k02 }, { k01, k11, k12 }, { k02, k12, k22 } };
	float det = tbDeterminant( K );
	block->invK = det > 1.0e-5f * k00 * k11 * k22 ? tbInvert( K ) : tb_mat3Zero;
}

tbVec3 tbAngularBlockImpulse( const tbAngularBlock* block, const float* accumulated )
{
	tbVec3 total = tbMulSV( accumulated[0], block->axes[0] );
	for ( int i = 1; i < block->n; ++i )
	{
		total = tbMulAdd( total, accumulated[i], block->axes[i] );
	}
	return total;
}

void tbSolvePreparedAngularBlock( tbJointMotion* m, const tbAngularBlock* block, const float* C, tbSoftness soft,
								  float* accumulated )
{
	tbVec3 dw = tbSub( m->wB, m->wA );
	tbVec3 rhs = { tbDot( block->axes[0], dw ) + tbClampCorrection( soft.biasRate * C[0] ),
				   tbDot( block->axes[1], dw ) + tbClampCorrection( soft.biasRate * C[1] ), 0.0f };
	if ( block->n == 3 )
	{
		rhs.z = tbDot( block->axes[2], dw ) + tbClampCorrection( soft.biasRate * C[2] );
	}
	tbVec3 x = tbMulMV( block->invK, tbBoundAngularRhs( rhs ) );
	float lambda[3] = { x.x, x.y, x.z };
	tbVec3 total = tb_vec3_zero;
	for ( int i = 0; i < block->n; ++i )
	{
		float l = -soft.massScale * lambda[i] - soft.impulseScale * accumulated[i];
		accumulated[i] += l;
		total = tbMulAdd( total, l, block->axes[i] );
	}
	tbApplyAngularImpulse( m, total );
}

static void tbApplyAngularRow( tbJointMotion* m, tbVec3 axis, float lambda )
{
	tbApplyAngularImpulse( m, tbMulSV( lambda, axis ) );
}

void tbSolveAngularLimit( const tbStepContext* ctx, tbJointMotion* m, const tbAngularAxis* row, float sign, float C,
						  bool useBias, float* accumulated )
{
	tbSoftness soft;
	float bias = tbLimitBias( ctx, C, useBias, &soft );
	tbVec3 axis = tbMulSV( sign, row->axis );
	float cdot = tbDot( axis, tbSub( m->wB, m->wA ) );
	float lambda = -soft.massScale * row->mass * ( cdot + bias ) - soft.impulseScale * *accumulated;
	float newImpulse = tbMaxFloat( *accumulated + lambda, 0.0f );
	lambda = newImpulse - *accumulated;
	*accumulated = newImpulse;
	tbApplyAngularRow( m, axis, lambda );
}

void tbSolveAngularMotor( tbJointMotion* m, const tbAngularAxis* row, float speed, float maxImpulse,
						  float* accumulated )
{
	float cdot = tbDot( row->axis, tbSub( m->wB, m->wA ) );
	speed = tbClampMotorSpeed( speed, TB_MAX_ANGULAR_SPEED );
	float lambda = -row->mass * ( cdot - speed );
	float newImpulse = tbClampFloat( *accumulated + lambda, -maxImpulse, maxImpulse );
	lambda = newImpulse - *accumulated;
	*accumulated = newImpulse;
	tbApplyAngularRow( m, row->axis, lambda );
}

void tbSolveAngularEquality( tbJointMotion* m, const tbAngularAxis* row, float C, tbSoftness soft,
							 float* accumulated )
{
	float cdot = tbDot( row->axis, tbSub( m->wB, m->wA ) );
	float lambda = -soft.massScale * row->mass * ( cdot + tbClampCorrection( soft.biasRate * C ) ) - soft.impulseScale * *accumulated;
	*accumulated += lambda;
	tbApplyAngularRow( m, row->axis, lambda );
}

// Quaternion geometry -----------------------------------------------------------------------------

tbVec3 tbQuatRowAxis( const tbJointPose* p, int i )
{
	tbQuat q = p->qRel;
	tbVec3 local;
	// w e_i + v x e_i in frame A; its length is sqrt(1 - v_i^2) for a unit qRel (joint.h).
	switch ( i )
	{
		case 0:
			local = tbMakeVec3( q.w, q.z, -q.y );
			break;
		case 1:
			local = tbMakeVec3( -q.z, q.w, q.x );
			break;
		default:
			local = tbMakeVec3( q.y, -q.x, q.w );
			break;
	}
	float length = tbLength( local );
	if ( length < 1.0e-20f )
	{
		return tb_vec3_zero;
	}
	return tbRotate( p->qA, tbMulSV( 0.5f / length, local ) );
}

// Full rotation lock (fixed and slider joints). The book's quaternion rows (000 ch. 16) have
// Cdot_i = a_i . (wB - wA) with a_i = 1/2 R(qA)(w e_i + v x e_i): near a half turn (w -> 0) all
// three turn perpendicular to the rotation axis, the block loses rank, and its accumulated
// impulses grow along the weak direction while their sum stays small. Fuzz finding 29 (a fixed
// joint created w = 4e-8 from a half turn: 2e9 rad/s in one sub-step) and finding 33 (a slider
// there: the next sub-step's warm start replayed those impulses along turned rows, 5e9 rad/s) both
// came from it. The world axes as rows (Cdot = wB - wA, K = IA^-1 + IB^-1, well conditioned at
// any pose) with the rotation vector as the error avoid it: a bias asks for at most biasRate pi.
tbVec3 tbRotationLockError( const tbJointPose* p )
{
	tbVec3 v = { p->qRel.x, p->qRel.y, p->qRel.z };
	float s = tbLength( v );
	if ( s == 0.0f )
	{
		return tb_vec3_zero;
	}
	// qRel.w >= 0 (tbRelativeQuat), so theta is in [0, pi]; v is in frame A.
	float theta = 2.0f * atan2f( s, p->qRel.w );
	return tbRotate( p->qA, tbMulSV( theta / s, v ) );
}

float tbTwistAngle( tbQuat q )
{
	// qRel = swing * twist with twist = (cos t/2, sin t/2 e_x): t = 2 atan2(x, w). With w >= 0
	// (tbRelativeQuat) the angle lies in [-pi, pi].
	if ( q.x * q.x + q.w * q.w < 1.0e-12f )
	{
		return 0.0f;
	}
	return 2.0f * tbAtan2( q.x, q.w );
}

tbVec3 tbTwistAxis( const tbJointPose* p )
{
	// Differentiating t = 2 atan2(x, w) with dq/dt = 1/2 omega_A q (omega_A = wB - wA in frame A):
	// dt/dt = omega_x + omega_y (w z + x y) / (w^2 + x^2) + omega_z (x z - w y) / (w^2 + x^2).
	// For a pure swing this is the bisector of the two twist axes, scaled by 1 / cos(swing / 2).
	tbQuat q = p->qRel;
	float s = q.w * q.w + q.x * q.x;
	if ( s < 1.0e-6f )
	{
		s = 1.0e-6f;
	}
	float inv = 1.0f / s;
	tbVec3 local = { 1.0f, ( q.w * q.z + q.x * q.y ) * inv, ( q.x * q.z - q.w * q.y ) * inv };
	return tbRotate( p->qA, local );
}

float tbSwingAngle( tbQuat q )
{
	// The swing part keeps |(w, x)| of qRel: swing = 2 acos(sqrt(w^2 + x^2)), computed with atan2
	// for accuracy near zero: tan(swing / 2) = sqrt(y^2 + z^2) / sqrt(w^2 + x^2).
	return 2.0f * tbAtan2( sqrtf( q.y * q.y + q.z * q.z ), sqrtf( q.w * q.w + q.x * q.x ) );
}

float tbPoseTwist( tbJointPose* p )
{
	if ( ( p->anglesKnown & 1u ) == 0u )
	{
		p->twist = tbTwistAngle( p->qRel );
		p->anglesKnown |= 1u;
	}
	return p->twist;
}

float tbPoseSwing( tbJointPose* p )
{
	if ( ( p->anglesKnown & 2u ) == 0u )
	{
		p->swing = tbSwingAngle( p->qRel );
		p->anglesKnown |= 2u;
	}
	return p->swing;
}

float tbWrapAngle( float x )
{
	if ( x > TB_PI || x < -TB_PI )
	{
		x = remainderf( x, 2.0f * TB_PI );
	}
	return x;
}

