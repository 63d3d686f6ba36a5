// Tumble physics: tbSolver_global, the assembled system of reference 001 (sections 6 and 7): every
// contact, friction and joint row of the awake bodies in one block-sparse Jacobian, solved for all
// impulses at once by projected Gauss-Seidel or Jacobi, with the equality rows of joint trees
// solved exactly (002 "Simultaneous Solving"; Baraff's linear-time method).
// SPDX-License-Identifier: MIT
#pragma once

#include "solver.h"

/// Iterations a report keeps (the world's iteration count is at most this).
#define TB_GLOBAL_MAX_ITERATIONS 1000

/// The last global step's convergence, kept in the world (no allocation per step).
typedef struct tbGlobalReport
{
	tbSolverReport summary;
	float residuals[TB_GLOBAL_MAX_ITERATIONS];		 ///< |A lambda - b| of the unclamped rows, m/s
	float complementarity[TB_GLOBAL_MAX_ITERATIONS]; ///< wrong-signed A lambda - b of the clamped rows, m/s
} tbGlobalReport;

/// The velocity solve and the position update of a global step, after tbPrepareJoints and
/// tbPrepareContacts: integrate velocities, assemble, warm start, iterate, store the impulses in
/// the contact constraints and joint records, integrate positions. Restitution is part of the
/// rows' targets (001 sec. 8.2), so tbApplyRestitution is not called after it. False when the
/// step's arena cannot hold the system (nothing has moved then).
bool tbSolveGlobal( tbStepContext* ctx );
