// Tumble physics: generic row constraint (custom joint).
//
// The callback supplies up to six rows once per step (optionally once per sub-step), in the role of
// the book's PreSolve (000 ch. 7): a 1x12 Jacobian J over (vA, wA, vB, wB), a velocity target ("bias"), the position error
// C and impulse bounds. Each row is the book's generic constraint: lambda = -(J v - target +
// beta C) / (J M^-1 J^T), accumulated and clamped to [lower, upper] (projected Gauss-Seidel,
// 000 ch. 5), warm started (000 ch. 10). The rows of one joint are swept a few times per pass so a
// coupled set (three rows of a point constraint) converges like a block solve.
// The Jacobian is fixed for the step (it came from the callback), so the error is carried through
// the sub-steps to first order: C(t) = C0 + J dx, with dx the bodies' motion since the step began
// (dp, and the rotation vector of dq). Rows are solved hard; the error is removed with the
// world's bias rate (soft or Baumgarte) and not at all in the relax pass, like every joint.
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "body.h"
#include "core.h"
#include "world.h"

#include <float.h>
#include <string.h>

// Gauss-Seidel sweeps over the joint's rows per solve call.
#define TB_CUSTOM_SWEEPS 4

tbCustomJointDef tbDefaultCustomJointDef( void )
{
	tbCustomJointDef def;
	def.base = tbMakeDefaultJointDef();
	def.rowsFcn = NULL;
	def.context = NULL;
	def.everySubStep = false;
	return def;
}

tbJointId tbCreateCustomJoint( tbWorldId worldId, const tbCustomJointDef* def, tbResult* result )
{
	if ( def == NULL || def->rowsFcn == NULL )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_custom, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	joint->custom = tbAlloc( sizeof( tbCustomJointData ) );
	if ( joint->custom == NULL )
	{
		tbDestroyJointInternal( world, joint, false );
		return tbFailJointCreation( result, tbResult_outOfMemory );
	}
	memset( joint->custom, 0, sizeof( tbCustomJointData ) );
	joint->custom->rowsFcn = def->rowsFcn;
	joint->custom->context = def->context;
	joint->custom->everySubStep = def->everySubStep;
	return tbMakeJointId( world, joint );
}

static tbJointRow tbRowFromFloats( const float* J )
{
	tbJointRow row = {
		{ J[0], J[1], J[2] },
		{ J[3], J[4], J[5] },
		{ J[6], J[7], J[8] },
		{ J[9], J[10], J[11] },
	};
	return row;
}

static bool tbIsValidRow( const tbCustomRow* row )
{
	for ( int i = 0; i < 12; ++i )
	{
		if ( !tbIsFinite( row->J[i] ) )
		{
			return false;
		}
	}
	return tbIsFinite( row->bias ) && tbIsFinite( row->positionError ) && !isnan( row->lower ) &&
		   !isnan( row->upper ) && row->lower <= row->upper;
}

// Rotation vector (axis * angle) of a unit quaternion.
static tbVec3 tbRotationVector( tbQuat q )
{
	if ( q.w < 0.0f )
	{
		q.x = -q.x;
		q.y = -q.y;
		q.z = -q.z;
		q.w = -q.w;
	}
	tbVec3 v = { q.x, q.y, q.z };
	float s = tbLength( v );
	if ( s < 1.0e-7f )
	{
		return tbMulSV( 2.0f, v );
	}
	return tbMulSV( 2.0f * atan2f( s, q.w ) / s, v );
}

// The rows' effective masses with the bodies' inertia of this sub-step. The solver turns a body's
// inverse inertia every sub-step; on a fast-turning body with a light axis a mass from the step
// start over-relaxes its row many times over and Gauss-Seidel diverges (fuzz finding 44).
static void tbUpdateCustomMasses( tbCustomJointData* c, const tbJointMotion* m )
{
	for ( int i = 0; i < c->rowCount; ++i )
	{
		tbJointRow J = tbRowFromFloats( c->rows[i].J );
		float k = tbRowCoupling( m, &J, &J );
		c->masses[i] = k > FLT_MIN ? 1.0f / k : 0.0f;
	}
}

// Ask the callback for rows at the current motion m and convert them for the solver.
static void tbMakeCustomRows( tbStepContext* ctx, tbJoint* joint, const tbJointMotion* m )
{
	tbCustomJointData* c = joint->custom;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbCustomRowsInput in;
	in.centerA = tbAdd( joint->sideA.center0, m->dpA );
	in.centerB = tbAdd( joint->sideB.center0, m->dpB );
	in.frameA = tbMakeTransform( tbAdd( in.centerA, p.rA ), p.qA );
	in.frameB = tbMakeTransform( tbAdd( in.centerB, p.rB ), p.qB );
	in.linearVelocityA = m->vA;
	in.angularVelocityA = m->wA;
	in.linearVelocityB = m->vB;
	in.angularVelocityB = m->wB;
	in.timeStep = ctx->dt;
	in.subStep = ctx->h;
	in.subStepIndex = c->subStepIndex;

	tbCustomRow rows[TB_MAX_CUSTOM_ROWS];
	memset( rows, 0, sizeof( rows ) );
	int count = c->rowsFcn( tbMakeJointId( ctx->world, joint ), &in, rows, c->context );
	count = tbClampInt( count, 0, TB_MAX_CUSTOM_ROWS );
	c->stepScale = ctx->dt * ctx->inv_h;

	// Impulse bounds are given per step; the accumulated impulses are per sub-step.
	float scale = ctx->h * ctx->inv_dt;
	for ( int i = 0; i < count; ++i )
	{
		tbCustomRow* row = rows + i;
		if ( tbIsValidRow( row ) == false )
		{
			memset( row, 0, sizeof( *row ) );
		}
		if ( row->lower > -FLT_MAX )
		{
			row->lower *= scale;
		}
		if ( row->upper < FLT_MAX )
		{
			row->upper *= scale;
		}
		c->rows[i] = *row;
		c->impulses[i] = tbClampFloat( c->impulses[i], row->lower, row->upper );
	}
	for ( int i = count; i < TB_MAX_CUSTOM_ROWS; ++i )
	{
		c->impulses[i] = 0.0f;
		c->masses[i] = 0.0f;
	}
	c->rowCount = count;
	tbUpdateCustomMasses( c, m );
	c->anchorB0 = p.rB;
	c->motion0[0] = m->dpA;
	c->motion0[1] = tbRotationVector( m->dqA );
	c->motion0[2] = m->dpB;
	c->motion0[3] = tbRotationVector( m->dqB );
}

static void tbPrepareCustom( tbStepContext* ctx, tbJoint* joint )
{
	// The motion at the start of the step: no displacement yet, the bodies' velocities.
	tbJointMotion m;
	memset( &m, 0, sizeof( m ) );
	m.dqA = tb_quatIdentity;
	m.dqB = tb_quatIdentity;
	m.mA = joint->sideA.invMass;
	m.mB = joint->sideB.invMass;
	m.iA = &joint->sideA.invI;
	m.iB = &joint->sideB.invI;
	if ( joint->sideA.solverIndex >= 0 )
	{
		m.vA = ctx->states[joint->sideA.solverIndex].v;
		m.wA = ctx->states[joint->sideA.solverIndex].w;
	}
	if ( joint->sideB.solverIndex >= 0 )
	{
		m.vB = ctx->states[joint->sideB.solverIndex].v;
		m.wB = ctx->states[joint->sideB.solverIndex].w;
	}
	joint->custom->subStepIndex = 0;
	tbMakeCustomRows( ctx, joint, &m );
}

static void tbWarmStartCustom( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	tbCustomJointData* c = joint->custom;
	// Warm starting runs once per sub-step: fresh rows for every sub-step after the first.
	if ( c->everySubStep && c->subStepIndex > 0 )
	{
		tbMakeCustomRows( ctx, joint, m );
	}
	c->subStepIndex += 1;
	for ( int i = 0; i < c->rowCount; ++i )
	{
		tbJointRow J = tbRowFromFloats( c->rows[i].J );
		tbRowApply( m, &J, c->impulses[i] );
	}
}

static void tbSolveCustom( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	tbCustomJointData* c = joint->custom;
	float biasRate = tbJointSoftness( ctx, useBias ).biasRate;
	// Motion since the rows were made.
	tbJointMotion dx;
	memset( &dx, 0, sizeof( dx ) );
	dx.vA = tbSub( m->dpA, c->motion0[0] );
	dx.wA = tbSub( tbRotationVector( m->dqA ), c->motion0[1] );
	dx.vB = tbSub( m->dpB, c->motion0[2] );
	dx.wB = tbSub( tbRotationVector( m->dqB ), c->motion0[3] );

	float C[TB_MAX_CUSTOM_ROWS];
	tbJointRow J[TB_MAX_CUSTOM_ROWS];
	for ( int i = 0; i < c->rowCount; ++i )
	{
		J[i] = tbRowFromFloats( c->rows[i].J );
		C[i] = c->rows[i].positionError + tbRowVelocity( &dx, J + i );
	}
	for ( int sweep = 0; sweep < TB_CUSTOM_SWEEPS; ++sweep )
	{
		for ( int i = 0; i < c->rowCount; ++i )
		{
			const tbCustomRow* row = c->rows + i;
			float cdot = tbRowVelocity( m, J + i );
			float lambda = -c->masses[i] * ( cdot - row->bias + tbClampCorrection( biasRate * C[i] ) );
			float newImpulse = tbClampFloat( c->impulses[i] + lambda, row->lower, row->upper );
			lambda = newImpulse - c->impulses[i];
			c->impulses[i] = newImpulse;
			tbRowApply( m, J + i, lambda );
		}
	}
}

// Once per sub-step, before warm starting: the masses with the bodies' turned inertia.
static void tbRefreshCustom( tbStepContext* ctx, tbJoint* joint, const tbJointPose* pose )
{
	TB_UNUSED( ctx );
	TB_UNUSED( pose );
	tbJointMotion m;
	memset( &m, 0, sizeof( m ) );
	m.mA = joint->sideA.invMass;
	m.mB = joint->sideB.invMass;
	m.iA = &joint->sideA.invI;
	m.iB = &joint->sideB.invI;
	tbUpdateCustomMasses( joint->custom, &m );
}

static void tbScaleCustom( tbJoint* joint, float scale )
{
	for ( int i = 0; i < TB_MAX_CUSTOM_ROWS; ++i )
	{
		joint->custom->impulses[i] *= scale;
	}
}

static void tbReactionCustom( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	const tbCustomJointData* c = joint->custom;
	tbVec3 f = tb_vec3_zero, t = tb_vec3_zero;
	for ( int i = 0; i < c->rowCount; ++i )
	{
		tbJointRow J = tbRowFromFloats( c->rows[i].J );
		f = tbMulAdd( f, c->impulses[i], J.linearB );
		t = tbMulAdd( t, c->impulses[i], J.angularB );
	}
	// Torque about the anchor rather than the centre of mass.
	*linear = f;
	*angular = tbSub( t, tbCross( c->anchorB0, f ) );
}

static void tbErrorCustom( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	TB_UNUSED( p );
	const tbCustomJointData* c = joint->custom;
	float lin = 0.0f, ang = 0.0f;
	for ( int i = 0; i < c->rowCount; ++i )
	{
		const float* J = c->rows[i].J;
		bool isLinear = J[0] != 0.0f || J[1] != 0.0f || J[2] != 0.0f || J[6] != 0.0f || J[7] != 0.0f || J[8] != 0.0f;
		float e = c->rows[i].positionError;
		if ( isLinear )
		{
			lin += e * e;
		}
		else
		{
			ang += e * e;
		}
	}
	*linear = sqrtf( lin );
	*angular = sqrtf( ang );
}

const tbJointClass tb_customJointClass = {
	tbPrepareCustom, tbWarmStartCustom, tbSolveCustom, tbScaleCustom, tbReactionCustom, tbErrorCustom, tbRefreshCustom, "custom",
};

// Parameters --------------------------------------------------------------------------------------

tbResult tbCustomJoint_SetCallback( tbJointId jointId, tbCustomRowsFcn* rowsFcn, void* context )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_custom, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( rowsFcn == NULL )
	{
		return tbResult_invalidArgument;
	}
	joint->custom->rowsFcn = rowsFcn;
	joint->custom->context = context;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

int tbCustomJoint_GetRowCount( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_custom, NULL );
	return joint != NULL ? joint->custom->rowCount : 0;
}

float tbCustomJoint_GetRowImpulse( tbJointId jointId, int row )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_custom, NULL );
	if ( joint == NULL || row < 0 || row >= joint->custom->rowCount )
	{
		return 0.0f;
	}
	// The accumulated impulse belongs to one sub-step; the step applied it once per sub-step.
	return joint->custom->impulses[row] * joint->custom->stepScale;
}
