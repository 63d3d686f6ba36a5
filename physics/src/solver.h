// Tumble physics: the step context shared by the contact and joint solvers.
// SPDX-License-Identifier: MIT
#pragma once

#include "arena.h"
#include "constraint_graph.h"
#include "jobs.h"
#include "tumble/math_functions.h"
#include "tumble/types.h"

#include <math.h>

typedef struct tbWorld tbWorld;
typedef struct tbContactConstraint tbContactConstraint;

/// Velocity state of an awake body, indexed by solver index. dp and dq are the position and
/// rotation change since the start of the step, so constraints can measure their current error
/// without recomputing transforms (sub-stepping, soft step).
typedef struct tbBodyState
{
	tbVec3 v;  ///< linear velocity of the centre of mass
	tbVec3 w;  ///< angular velocity, world frame
	tbVec3 dp; ///< centre of mass displacement since the step began
	tbQuat dq; ///< rotation since the step began (world frame: q = dq * q0)
} tbBodyState;

/// Mass data of an awake body for the solver.
typedef struct tbSolverBody
{
	float invMass;
	tbMat3 invInertia; ///< world frame, updated as the body rotates
	tbVec3 center0;    ///< centre of mass at the start of the step
	tbQuat q0;         ///< orientation at the start of the step
	tbMat3 invLocalInertia;
	int bodyId;
	bool isKinematic;
	/// The world inverse inertia turns with the body: dynamic and not isotropic (R s 1 R^T = s 1).
	bool turnsInertia;
	bool fixedRotation;
	bool hasTorque;  ///< an applied torque this step
	bool gyroscopic; ///< not isotropic: w x I w can be nonzero
	/// Per sub-step, from the step's gravity, force and damping: v' = linearDamping (v + deltaV).
	tbVec3 deltaV;
	float linearDamping, angularDamping; ///< 1 / (1 + h c)
} tbSolverBody;

/// Soft constraint coefficients (Catto, "Solver2D"/soft step): for stiffness hertz and damping
/// ratio zeta over time step h, omega = 2 pi hertz, a1 = 2 zeta + h omega, a2 = h omega a1,
/// a3 = 1 / (1 + a2): biasRate = omega / a1, massScale = a2 a3, impulseScale = a3.
typedef struct tbSoftness
{
	float biasRate;
	float massScale;
	float impulseScale;
} tbSoftness;

tbSoftness tbMakeSoft( float hertz, float zeta, float h );
/// A rigid (hard) softness: massScale 1, impulseScale 0, biasRate given.
tbSoftness tbMakeRigid( float biasRate );

/// Colours of the joint graph: the joints of one colour share no moving body and are solved in
/// parallel (a chain of links needs 2).
#define TB_JOINT_COLOR_COUNT 12

typedef struct tbStepContext
{
	tbWorld* world;
	tbArena* arena;
	tbJobSystem* jobs; ///< NULL: one thread
	float dt;       ///< full step, s
	float inv_dt;
	float h;        ///< sub-step, s
	float inv_h;
	int subStepCount;
	int iterations;
	tbSolverMode mode;

	tbBodyState* states; ///< awake bodies, by solver index
	tbSolverBody* bodies;
	int bodyCount;
	struct tbBodyLanes* bodyLanes; ///< the bodies eight to a group, for their integration (body_wide.c)
	int bodyLaneCount;

	tbContactConstraint* contacts;
	int contactCount;
	tbConstraintGraph graph; ///< colours of the contacts
	struct tbContactLanes* contactLanes; ///< lane groups of eight constraints of one colour (contact_wide.c)
	int contactLaneStarts[TB_GRAPH_COLOR_COUNT + 1]; ///< first lane group of each colour; the last entry is the total

	int* jointIds; ///< awake, enabled joints solved this step, sorted by colour (joint_solver.c)
	int jointCount;
	/// First joint of each colour in jointIds; colour TB_JOINT_COLOR_COUNT is the overflow, solved on
	/// one thread; the last entry is jointCount.
	int jointColorStarts[TB_JOINT_COLOR_COUNT + 2];
	/// The joints of each colour that the wide path solves come first (joint_wide.c); the scalar
	/// ones start here (the overflow colour's start: it is all scalar).
	int jointScalarStarts[TB_JOINT_COLOR_COUNT + 1];
	struct tbJointLanes* jointLanes; ///< lane groups of eight wide joints, by colour
	/// First lane group of each colour; the last entry is the group count.
	int jointLaneStarts[TB_JOINT_COLOR_COUNT + 2];
	/// The joints' rows match the bodies' motion: nothing has moved since they were built (the
	/// warm start of the first sub-step follows the prepare with no position update between).
	bool jointRowsCurrent;
	/// Time step of the implicit gyroscopic term in this velocity integration, s (0: none).
	float gyroscopicH;

	tbSoftness contactSoftness;       ///< dynamic vs dynamic
	tbSoftness staticSoftness;        ///< dynamic vs static/kinematic (stiffer)
	tbSoftness jointSoftness;
	float maxBiasVelocity;    ///< m/s
	float baumgarte;
	float linearSlop;
	float restitutionThreshold;
	bool enableWarmStarting;
	/// true while solving position error in the split mode's pseudo-velocity pass
	bool splitPass;
	/// Position passes: the stage (a colour of a pass, counted over the step) in which each moving
	/// body was last moved, -1 for none (allocated by the first pass), and the stage being run.
	int* positionMovedAt;
	int positionStage;
	int passIndex;
	int subStepIndex; ///< soft mode: the sub-step being solved (0 in the other modes)
} tbStepContext;

/// The state of a body by solver index. Static bodies (index -1) share a dummy slot after the awake
/// bodies: zero velocity and no motion, and since their inverse mass is zero, solver writes to it
/// add nothing.
static inline tbBodyState* tbGetState( tbStepContext* ctx, int solverIndex )
{
	return ctx->states + ( solverIndex >= 0 ? solverIndex : ctx->bodyCount );
}

/// Mass data by solver index; the static slot has zero inverse mass and inertia.
static inline tbSolverBody* tbGetSolverBody( tbStepContext* ctx, int solverIndex )
{
	return ctx->bodies + ( solverIndex >= 0 ? solverIndex : ctx->bodyCount );
}

/// Run the solver for the step: velocities, positions, joints and contacts, per the world's mode.
/// False when the step's arena ran out of memory before anything moved: the step is not solved.
bool tbSolve( tbWorld* world, tbStepContext* ctx );

/// Rotation per sub-step is capped at a quarter turn (rad) so a wild spin cannot fold the
/// quaternion integration over (keeps the step well-behaved for any input).
#define TB_MAX_SUBSTEP_ROTATION ( 0.5f * TB_PI )

/// One body's sub-step (solver.c): velocities from gravity, forces, damping and the gyroscopic
/// term, clamped; positions from velocities, and its world inverse inertia turned with it.
void tbIntegrateBodyVelocity( tbStepContext* ctx, int solverIndex );
void tbIntegrateBodyPosition( tbStepContext* ctx, int solverIndex );

// v scaled down to a length of at most limit. A huge gravity or force (any finite value is
// accepted) can overflow a component to infinity, and inf * (limit / inf) is NaN (a fuzz_world
// finding: a gravity of 3.4e38 m/s^2): the components are clamped to the limit first. Used for
// the speed and spin clamps and to bound what a joint pass asks for (fuzz findings 50-52).
static inline tbVec3 tbClampLength( tbVec3 v, float limit )
{
	float speedSq = tbLengthSquared( v );
	if ( speedSq <= limit * limit )
	{
		return v;
	}
	if ( isinf( speedSq ) )
	{
		v = tbMakeVec3( tbClampFloat( v.x, -limit, limit ), tbClampFloat( v.y, -limit, limit ),
						tbClampFloat( v.z, -limit, limit ) );
		speedSq = tbLengthSquared( v );
	}
	return speedSq > limit * limit ? tbMulSV( limit / sqrtf( speedSq ), v ) : v;
}
