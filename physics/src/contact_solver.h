// Tumble physics: contact constraints for the sequential-impulse solver.
// SPDX-License-Identifier: MIT
#pragma once

#include "solver.h"

/// Soft mode: overlap handled by the soft spring (m); deeper overlap is moved out by position passes.
#define TB_SOFT_RANGE 0.005f
/// Constraints per parallel-for block (fixed: results must not depend on the thread count).
#define TB_CONTACT_BLOCK_SIZE 16
/// Largest position correction of one point in one position pass (m).
#define TB_MAX_LINEAR_CORRECTION 0.2f
/// Soft mode: a manifold against a static or kinematic body whose points approach faster than this
/// when the step begins (m/s) is an impact; its normal rows are swept TB_IMPACT_SWEEPS times a pass in the sub-step it closes in
/// (see tbSolveContact).
#define TB_IMPACT_SPEED 2.0f
#define TB_IMPACT_SWEEPS 4
/// tbContactConstraint::impactSubStep of a manifold that is not an impact.
#define TB_NO_IMPACT ( -100 )

/// One Jacobian row of a contact point along a direction d (the normal or a tangent). The
/// row's velocity is dot(d, vB - vA) + dot(angB, wB) - dot(angA, wA); an impulse L along it
/// changes wA by -L * impA and wB by +L * impB. Precomputing these once per step keeps matrix
/// products out of the iterations.
typedef struct tbContactRow
{
	tbVec3 angA; ///< rA x d
	tbVec3 angB; ///< rB x d
	tbVec3 impA; ///< invIA (rA x d)
	tbVec3 impB; ///< invIB (rB x d)
	float mass;  ///< 1 / (mA + mB + angA.impA + angB.impB)
} tbContactRow;

typedef struct tbContactConstraintPoint
{
	tbContactRow rows[3];     ///< normal, tangent 1, tangent 2; built when rowsBuilt
	tbVec3 rA, rB;            ///< anchors relative to the centres of mass, world frame, fixed for the step
	float adjustedSeparation; ///< separation - dot(rB - rA, n): current separation = this + dot(n, dB - dA)
	float separation0;        ///< separation at the start of the step
	float normalImpulse;
	float tangentImpulse[2];
	float relativeVelocity; ///< normal velocity before the solve (restitution)
	/// What the restitution pass aims the normal velocity at, negated (the bounce speed, see
	/// tbPrepareContactBlock), for an impact faster than the threshold that the impact propagation
	/// did not take; 0 for none (tbApplyRestitution)
	float bounce;
	float impactImpulse; ///< the impact propagation's impulse this step (tbPropagateImpacts)
	float maxNormalImpulse;
	float stepNormalImpulse; ///< soft mode: the sub-steps' impulses added up, plus the restitution's
} tbContactConstraintPoint;

typedef struct tbContactConstraint
{
	int contactId;
	int indexA, indexB; ///< solver indices (-1: static)
	float invMassA, invMassB;
	tbVec3 normal, tangent1, tangent2;
	float friction;
	float restitution;
	tbSoftness softness;
	int pointCount;
	bool rowsBuilt; ///< the points' rows are built (tbMakeContactRows, when a scalar pass first needs them)
	/// Soft mode, an impact (some point approached faster than TB_IMPACT_SPEED when the step
	/// began): the sub-step in which it closes at that speed; TB_NO_IMPACT otherwise.
	int impactSubStep;
	/// For skipping the position passes: the smallest separation0 of the points and the largest
	/// |rA|, |rB| (m). See tbSolveContactPosition.
	float minSeparation0, maxLeverA, maxLeverB;
	/// The position stage (tbStepContext::positionStage) that last measured the contact, -1 for none.
	int positionTestedAt;
	tbContactConstraintPoint points[TB_MAX_MANIFOLD_POINTS];
} tbContactConstraint;

// The solver works on copies of the two bodies' states and writes back only bodies it moves:
// static and kinematic states are shared by constraints of one colour (solved in parallel), and
// their zero inverse mass means the copies are unchanged anyway.
static inline bool tbIsMovingBody( const tbStepContext* ctx, int index )
{
	return index >= 0 && ctx->bodies[index].isKinematic == false;
}

/// An impact's extra sweeps run in the sub-step it closes in at its speed when the step began (the
/// next one too made a chaotic ragdoll pile's worst swing limit excess 4.3 deg against 0.2).
static inline bool tbIsImpactSubStep( int impactSubStep, int subStep )
{
	return impactSubStep == subStep;
}

/// Gather the touching contacts of awake bodies into ctx->contacts and compute their masses. False
/// when the step's arena could not hold them: no contact is then marked as a constraint.
bool tbPrepareContacts( tbWorld* world, tbStepContext* ctx );
/// The scalar rows of a constraint's points (tbContactConstraintPoint::rows), unless built already,
/// from the inertia the bodies had when the step began: the rows the lanes hold. The velocity
/// passes build their own in the lanes (tbPackWideContacts); whatever works on the scalar
/// constraints (the overflow colour, a deep point's position pass, a bounce, the global solver)
/// calls this first.
void tbMakeContactRows( tbStepContext* ctx, tbContactConstraint* c );
void tbWarmStartContacts( tbStepContext* ctx );
/// One Gauss-Seidel pass. useBias: push out penetration (per the solver mode); otherwise only the
/// speculative part (approach up to contact) is applied.
void tbSolveContacts( tbStepContext* ctx, bool useBias );
/// Split mode: move positions directly to remove penetration, leaving velocities alone.
bool tbSolveContactPositions( tbStepContext* ctx );
/// Before the velocity solve: resolves the impacts of bodies that touch others, one contact at a time
/// along the impact, so that a bounce travels through a row of touching bodies (Newton's cradle)
/// instead of being shared out by the simultaneous solve. See docs/SOLVER.md, "Restitution".
void tbPropagateImpacts( tbStepContext* ctx );
/// Also the end of the velocity solve: copies the wide constraints' impulses back to ctx->contacts
/// (tbStoreContactImpulses reads them there), so call it once after the last velocity pass.
void tbApplyRestitution( tbStepContext* ctx );
/// Copy the accumulated impulses back to the manifolds for the next step's warm start.
void tbStoreContactImpulses( tbWorld* world, tbStepContext* ctx );
