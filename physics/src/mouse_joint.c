// Tumble physics: mouse (drag) joint.
//
// A soft point constraint between body B's anchor and a world target: C = pB - target with
// Cdot = vB + wB x rB, so K = mB E - [rB] IB^-1 [rB] (the point block of ball_joint.c with no
// body A). Softness turns it into a damped spring of the given frequency and damping ratio,
// whatever the body's mass (soft constraints, see solver.h), and the accumulated impulse is
// clamped to maxForce h so a heavy body is dragged, not yanked. The target lives in localFrameA
// (the static world's frame is in world coordinates).
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "core.h"
#include "world.h"

#include <float.h>

tbMouseJointDef tbDefaultMouseJointDef( void )
{
	tbMouseJointDef def;
	def.base = tbMakeDefaultJointDef();
	def.target = tb_vec3_zero;
	def.hertz = 5.0f;
	def.dampingRatio = 0.7f;
	def.maxForce = 1000.0f;
	return def;
}

static bool tbIsValidSpring( float hertz, float dampingRatio )
{
	return tbIsFinite( hertz ) && hertz > 0.0f && tbIsFinite( dampingRatio ) && dampingRatio >= 0.0f;
}

tbJointId tbCreateMouseJoint( tbWorldId worldId, const tbMouseJointDef* def, tbResult* result )
{
	// Targets past TB_MAX_POSITION are refused like mover targets (finding 25): a target at -3.4e38 m
	// gave NaN in the first step (fuzz finding 38).
	if ( def == NULL || !tbIsBoundedVec3( def->target, TB_MAX_POSITION ) ||
		 !tbIsValidSpring( def->hertz, def->dampingRatio ) || isnan( def->maxForce ) || def->maxForce < 0.0f ||
		 TB_IS_NON_NULL( def->base.bodyA ) )
	{
		return tbFailJointCreation( result, tbResult_invalidArgument );
	}
	tbWorld* world;
	tbJoint* joint = tbCreateJointInternal( worldId, &def->base, tbJoint_mouse, result, &world );
	if ( joint == NULL )
	{
		return tb_nullJointId;
	}
	tbMouseJointData* d = &joint->mouse;
	d->target = def->target;
	d->hertz = def->hertz;
	d->dampingRatio = def->dampingRatio;
	d->maxForce = def->maxForce;
	joint->localFrameA.p = def->target;
	return tbMakeJointId( world, joint );
}

static void tbPrepareMouse( tbStepContext* ctx, tbJoint* joint )
{
	tbMouseJointData* d = &joint->mouse;
	d->softness = tbMakeSoft( d->hertz, d->dampingRatio, ctx->h );
}

static void tbWarmStartMouse( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m )
{
	TB_UNUSED( ctx );
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbApplyPointImpulse( m, &p, joint->mouse.linearImpulse );
}

static void tbSolveMouse( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias )
{
	TB_UNUSED( useBias );
	tbMouseJointData* d = &joint->mouse;
	tbJointPose p;
	tbComputeJointPose( joint, m, &p );
	tbSoftness soft = d->softness;
	tbMat3 sB = tbSkew( p.rB );
	tbMat3 K = tbMakeDiagonal( tbMakeVec3( m->mB, m->mB, m->mB ) );
	K = tbSubMM( K, tbMulMM( tbMulMM( sB, *m->iB ), sB ) );
	tbVec3 cdot = tbAdd( m->vB, tbCross( m->wB, p.rB ) );
	tbVec3 rhs = tbMulAdd( cdot, soft.biasRate, p.d );
	tbVec3 impulse = tbMulSV( -soft.massScale, tbSolve3( K, rhs ) );
	impulse = tbMulSub( impulse, soft.impulseScale, d->linearImpulse );
	tbVec3 total = tbAdd( d->linearImpulse, impulse );
	float maxImpulse = tbMaxImpulse( d->maxForce, ctx->h );
	float length = tbLength( total );
	if ( length > maxImpulse )
	{
		total = tbMulSV( maxImpulse / length, total );
	}
	impulse = tbSub( total, d->linearImpulse );
	d->linearImpulse = total;
	tbApplyPointImpulse( m, &p, impulse );
}

static void tbScaleMouse( tbJoint* joint, float scale )
{
	joint->mouse.linearImpulse = tbMulSV( scale, joint->mouse.linearImpulse );
}

static void tbReactionMouse( const tbJoint* joint, tbVec3* linear, tbVec3* angular )
{
	*linear = joint->mouse.linearImpulse;
	*angular = tb_vec3_zero;
}

static void tbErrorMouse( const tbJoint* joint, const tbJointPose* p, float* linear, float* angular )
{
	TB_UNUSED( joint );
	*linear = tbLength( p->d );
	*angular = 0.0f;
}

const tbJointClass tb_mouseJointClass = {
	tbPrepareMouse, tbWarmStartMouse, tbSolveMouse, tbScaleMouse, tbReactionMouse, tbErrorMouse, NULL, "mouse",
};

// Parameters --------------------------------------------------------------------------------------

tbResult tbMouseJoint_SetTarget( tbJointId jointId, tbVec3 target )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_mouse, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsBoundedVec3( target, TB_MAX_POSITION ) )
	{
		return tbResult_invalidArgument;
	}
	joint->mouse.target = target;
	joint->localFrameA.p = target;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

tbVec3 tbMouseJoint_GetTarget( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_mouse, NULL );
	return joint != NULL ? joint->mouse.target : tb_vec3_zero;
}

tbResult tbMouseJoint_SetSpring( tbJointId jointId, float hertz, float dampingRatio )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_mouse, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsValidSpring( hertz, dampingRatio ) )
	{
		return tbResult_invalidArgument;
	}
	joint->mouse.hertz = hertz;
	joint->mouse.dampingRatio = dampingRatio;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbMouseJoint_GetHertz( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_mouse, NULL );
	return joint != NULL ? joint->mouse.hertz : 0.0f;
}

float tbMouseJoint_GetDampingRatio( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_mouse, NULL );
	return joint != NULL ? joint->mouse.dampingRatio : 0.0f;
}

tbResult tbMouseJoint_SetMaxForce( tbJointId jointId, float force )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_mouse, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( isnan( force ) || force < 0.0f )
	{
		return tbResult_invalidArgument;
	}
	joint->mouse.maxForce = force;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbMouseJoint_GetMaxForce( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_mouse, NULL );
	return joint != NULL ? joint->mouse.maxForce : 0.0f;
}
