// Tumble physics: the global solver mode (tbSolver_global).
//
// The system (001 sec. 6): every constraint row i has a Jacobian J_i on two bodies (2 x 6 floats:
// linear and angular part of each side), so that J_i v is the row's velocity. With M^-1 the
// bodies' inverse masses and inertias, A = J M^-1 J^T and
//   b = target - J (v1 + h M^-1 f_ext),
// where v1 + h M^-1 f_ext is the velocity after gravity and forces (the integrated velocity), and
// target is 001's push factor: the Baumgarte bias -beta / h (C + slop) of a penetrating contact
// (000 ch. 11; the same as tbSolver_baumgarte), the speculative -C / h of a gap, a joint's
// -beta / h C, a motor's speed, plus the restitution bounce -e v_n (001 sec. 8.2; see
// tbContactTarget for the bounce of a point still apart). Overlap is removed by 001 sec. 8.1's
// single-frame push, after the velocities (tbContactTarget says why). Here lambda is
// an impulse (001's force lambda times h), so A lambda - b is a velocity, in m/s. A lambda = b is
// solved with lambda clamped to [c_min, c_max] after every row update (001 sec. 6.2.3, 7): normal
// rows [0, inf), friction rows [-mu lambda_n, mu lambda_n] with lambda_n the current impulse of
// their point's normal row (001 sec. 5.4 with the normal impulse in place of m g), joint limits
// [0, inf), motors [-max, max]; a mouse joint's three rows share a bound on their impulse's length,
// maxForce h (tbSolveMouse's), applied by scaling the three back after each update.
//
// A is never formed: each row keeps J_i and W_i = M^-1 J_i^T, and the velocities
// v = v_ext + M^-1 J^T lambda are kept current, so (A lambda)_i - b_i = J_i v - target_i costs one
// 12-float dot product. A sweep of projected Gauss-Seidel updates lambda_i by
// (target_i - J_i v) / A_ii and v by W_i times the change, row after row (001 sec. 7.2); projected
// Jacobi computes every row's update from the velocities of the previous sweep, then applies them
// all (001 sec. 7.1). Assembled, A has a nonzero 12-float product per pair of rows sharing a body:
// a contact of 4 points has 12 rows, each coupled to the 24 of its two bodies' neighbours, so one
// product of A with lambda costs several times the two passes over J and W here.
//
// Jacobi's update divides by D'_ii = the sum over row i's moving bodies b and the rows j on b of
// |J_ib M_b^-1 J_jb^T|, which bounds sum_j |A_ij| (the rows sharing both bodies are counted per
// body). By Gershgorin's theorem every eigenvalue of D'^-1 A (real: it is similar to the symmetric
// D'^-1/2 A D'^-1/2) then lies in [0, 1], and x += omega D'^-1 (b - A x) converges for
// 0 < omega < 2 (globalRelaxation). Plain Jacobi (D' = diag A, omega 1) diverges on a stack: a
// box's 4 normal rows on one manifold share its mass, so A's largest eigenvalue is several times
// its diagonal. Friction and normal rows at a point are orthogonal in their linear parts, which
// keeps this bound well below the count of rows on a body (a splitting by that count, also
// convergent, left a 10-box stack toppling).

// Warm starting: lambda starts from the contacts' and joints' stored impulses of the last step.
//
// Every joint type exports its rows here from its record: the rows its own solve visits (the joint
// files; the row geometry of the types without prepared rows comes from their files, joint.h),
// with the same Jacobians, targets and bounds, in the order of that solve. Where the sequential
// solve takes a block (a 2 x 2 or 3 x 3 equality block) the rows come one by one: Gauss-Seidel
// converges to the same impulses. Springs and the mouse joint are soft rows, the sequential
// solver's soft constraint (solver.h): its update
//   lambda += -massScale K^-1 (Cdot + bias) - impulseScale lambda
// stops changing where J v + C lambda = target, with C = (impulseScale / massScale) K and K the
// row's effective inverse mass (the mouse joint's 3 x 3 point block: its three rows share C). So a
// soft row is a row of A + C (symmetric, positive semi-definite), and its Gauss-Seidel update
// (target - J v - C lambda) / (A_ii + C_ii) is, for a row alone, the sequential update. An unbounded
// soft row (a spring) is an equality and joins the direct solve with C in its block.
//
// Joint trees (enableDirectSolve): the equality rows of joints whose graph over the moving bodies
// has no loop are solved exactly in every sweep, before the projected rows (block Gauss-Seidel:
// the tree given the other impulses, then the inequality rows given the tree). The system
//   [ M   J^T ] [  v      ]   [ M v* ]
//   [ J   0   ] [ -lambda ] = [ t    ],   v* = v - M^-1 J_eq^T lambda_eq,
// has the sparsity of the tree of bodies and joints (bodies and two-body joints are its nodes;
// static, kinematic and sleeping bodies are not, so anchoring a chain at both ends makes no loop,
// and a joint to one of them joins its body's node: tbBuildTrees says why). Eliminating the nodes
// leaves first causes no fill: each node's block is reduced by its children's and passes one
// update to its parent, so factoring and solving take time linear in the number of joints
// (Baraff, "Linear-Time Dynamics using Lagrange Multipliers", SIGGRAPH 96). Blocks are at most
// 12 x 12 (a body's 6 velocities and up to 6 anchor rows; a joint's up to 6 rows), in double.
// Loops (and bodies anchored by more than 6 rows) fall back to the sweeps.
// SPDX-License-Identifier: MIT
#include "global_solver.h"

#include "body.h"
#include "body_wide.h"
#include "contact_solver.h"
#include "core.h"
#include "joint.h"
#include "tumble/tumble.h"
#include "world.h"

#include <float.h>
#include <math.h>
#include <string.h>

/// Most rows a joint exports (six-dof: every axis limited with a motor, 3 rows each; cone: 10;
/// hinge: 10; custom: 6).
#define TB_GLOBAL_JOINT_ROWS 18
/// Most rows that share a compliance block (the mouse joint's point rows).
#define TB_GLOBAL_SOFT_ROWS 3
/// Largest equality block of a joint (fixed: 3 point + 3 rotation rows; custom: 6), and the most
/// anchor rows a body node of a joint tree takes.
#define TB_GLOBAL_BLOCK_ROWS 6
/// Largest block of a joint tree node: a body's 6 velocities and its anchor rows.
#define TB_TREE_MAX_SIZE ( 6 + TB_GLOBAL_BLOCK_ROWS )

typedef struct tbGlobalRow
{
	tbVec3 linA, angA, linB, angB;		   ///< J: row velocity = linA.vA + angA.wA + linB.vB + angB.wB
	tbVec3 mLinA, mAngA, mLinB, mAngB;	   ///< W = M^-1 J^T, the velocity change per unit impulse
	float target;						   ///< J v aims at this, m/s or rad/s
	float lower, upper;					   ///< c_min, c_max, N s (friction: times lambda of its normal)
	float invDiag;						   ///< 1 / A_ii
	float invSplit;						   ///< 1 / D'_ii (Jacobi: a Gershgorin bound of row i of A)
	float friction;						   ///< mu for a friction row
	float bounce;						   ///< a contact apart at the step start: its bounce after the positions, m/s
	int normal;							   ///< friction row: its point's normal row; -1 otherwise
	int mirror;							   ///< a reversed sweep visits row i + mirror in place of row i
	int a, b;							   ///< state indices (the static slot for a side that does not move)
	int block;							   ///< joint tree node solving this row exactly, -1: projected
	bool equality;						   ///< unbounded joint row (a candidate for the direct solve)
	bool ball;							   ///< its soft group's impulse is bounded in length by upper (mouse)
	int softIndex;						   ///< its place in its soft group (consecutive rows of one joint)
	int softCount;						   ///< rows of its soft group, 0 for a rigid row
	float compliance[TB_GLOBAL_SOFT_ROWS]; ///< C_ik for the rows k of its soft group, m/s per N s
	float* store;						   ///< the contact point's or joint's impulse this row warm starts from
} tbGlobalRow;

// Direct solve: a node of a joint tree, a body (6 unknowns) or a joint (its k equality rows).
typedef struct tbJointTreeNode
{
	int parent; ///< node index, -1 for a root
	int size;	///< unknowns: 6 + the anchor rows for a body node, the rows for a joint node
	int body;	///< state index of a body node, -1 for a joint node
	int rowCount;
	int rows[TB_GLOBAL_BLOCK_ROWS]; ///< a joint node's rows; a body node's anchor rows
	int ends[2];					///< a joint node's body nodes on sides A and B
	int tree;						///< which tree
	double* dinv;					///< size x size: D^-1 after the children's elimination
	double* h;						///< size x parent size: H_cp
	double* g;						///< size x parent size: D^-1 H_cp
	double* r;						///< right-hand side, then D^-1 r
	double* x;						///< solution
} tbJointTreeNode;

typedef struct tbGlobal
{
	tbStepContext* ctx;
	tbWorld* world;
	tbGlobalRow* rows;
	float* lambda;
	float* delta; ///< Jacobi's updates of one sweep
	int rowCount, contactRows, jointRows;
	/// The rows the sweeps visit, in order: every row not solved by a tree (a chain's rows are all
	/// in its tree, and skipping them row by row was 2 % of its step).
	int* swept;
	int sweptCount;
	tbJointTreeNode* nodes; ///< in elimination order: every node after its children
	int nodeCount;
	int directRows, treeCount, loopCount;
	/// Per tree: some row outside the tree (a contact, a limit, a joint that is swept) acts on one
	/// of its bodies. A tree without one is exact after its first solve and is not solved again.
	bool* treeCoupled;
} tbGlobal;

static inline int tbStateIndex( const tbStepContext* ctx, int solverIndex )
{
	return solverIndex >= 0 ? solverIndex : ctx->bodyCount;
}

static inline float tbGlobalRowVelocity( const tbStepContext* ctx, const tbGlobalRow* row )
{
	const tbBodyState* a = ctx->states + row->a;
	const tbBodyState* b = ctx->states + row->b;
	return tbDot( row->linA, a->v ) + tbDot( row->angA, a->w ) + tbDot( row->linB, b->v ) + tbDot( row->angB, b->w );
}

static inline void tbGlobalRowApply( tbStepContext* ctx, const tbGlobalRow* row, float impulse )
{
	tbBodyState* a = ctx->states + row->a;
	tbBodyState* b = ctx->states + row->b;
	a->v = tbMulAdd( a->v, impulse, row->mLinA );
	a->w = tbMulAdd( a->w, impulse, row->mAngA );
	b->v = tbMulAdd( b->v, impulse, row->mLinB );
	b->w = tbMulAdd( b->w, impulse, row->mAngB );
}

// (C lambda)_i of a soft row, 0 for a rigid one: the row's error is J v + C lambda - target.
static inline float tbSoftTerm( const tbGlobal* g, const tbGlobalRow* row, int i )
{
	const float* l = g->lambda + i - row->softIndex;
	float s = 0.0f;
	for ( int k = 0; k < row->softCount; ++k )
	{
		s += row->compliance[k] * l[k];
	}
	return s;
}

// Fill J, W and the diagonal; false for a row no body can move along (A_ii = 0), which is left out.
static bool tbMakeGlobalRow( tbGlobalRow* row, tbVec3 linA, tbVec3 angA, tbVec3 linB, tbVec3 angB, int a, float mA,
							 const tbMat3* iA, int b, float mB, const tbMat3* iB )
{
	row->linA = linA;
	row->angA = angA;
	row->linB = linB;
	row->angB = angB;
	row->mLinA = tbMulSV( mA, linA );
	row->mAngA = tbMulMV( *iA, angA );
	row->mLinB = tbMulSV( mB, linB );
	row->mAngB = tbMulMV( *iB, angB );
	float k =
		tbDot( linA, row->mLinA ) + tbDot( angA, row->mAngA ) + tbDot( linB, row->mLinB ) + tbDot( angB, row->mAngB );
	if ( !( k > FLT_MIN ) || !tbIsValidFloat( k ) )
	{
		return false;
	}
	row->invDiag = 1.0f / k;
	row->invSplit = row->invDiag;
	row->a = a;
	row->b = b;
	row->normal = -1;
	row->mirror = 0;
	row->friction = 0.0f;
	row->bounce = 0.0f;
	row->block = -1;
	row->equality = false;
	row->ball = false;
	row->softIndex = 0;
	row->softCount = 0;
	row->lower = -FLT_MAX;
	row->upper = FLT_MAX;
	row->target = 0.0f;
	row->store = NULL;
	return true;
}

// Contacts ----------------------------------------------------------------------------------------

// The normal row's target: tbSolver_baumgarte's bias (speculative approach of a gap, Baumgarte push
// beyond the slop, capped), plus the bounce of 001 sec. 8.2 for an impact faster than the
// restitution threshold that closes within the step.
static float tbContactTarget( const tbStepContext* ctx, const tbContactConstraint* c,
							  const tbContactConstraintPoint* cp, float* deferred )
{
	*deferred = 0.0f;
	float s = cp->separation0;
	float target;
	if ( s > 0.0f )
	{
		target = -s * ctx->inv_h;
	}
	else
	{
		// 001 has two ways to remove overlap: the push factor in b (sec. 6.1.4, Baumgarte), and the
		// single-frame push (sec. 8.1), a second solve on positions that leaves no velocity. With
		// position passes (positionIterations > 0, the default) overlap is removed by the latter, after
		// the velocities, as in split mode: the push in b adds velocity up along a stack (seed 001's
		// intersecting stack threw its top cube 13 m up) and, next to the position passes, keeps a
		// resting stack jittering (0.38 m/s after 1 s). Without them, b carries the push.
		float push = -ctx->baumgarte * ctx->inv_h * tbMinFloat( 0.0f, s + ctx->linearSlop );
		target = ctx->world->def.positionIterations > 0 ? 0.0f : tbMinFloat( push, ctx->maxBiasVelocity );
	}
	// A point still apart closes its gap in this step and bounces after the position update (as
	// tbApplyRestitution does): with the bounce in b it left from the height of the gap, and a ball
	// dropped from 2 m with e = 0.5 rose 10 % higher than e^2 h.
	float vn = cp->relativeVelocity;
	if ( c->restitution > 0.0f && vn < -ctx->restitutionThreshold && s + vn * ctx->h <= 0.0f )
	{
		// The prepare's bounce is in the integrator's terms (the pull of one velocity update taken
		// into account, contact_solver.c), so a drop rebounds to e^2 of its height.
		float bounce = cp->bounce < 0.0f ? -cp->bounce : tbMinFloat( -c->restitution * vn, TB_MAX_SPEED );
		if ( s > 0.0f )
		{
			*deferred = bounce;
		}
		else
		{
			target += bounce;
		}
	}
	return target;
}

static void tbAddContactRows( tbGlobal* g )
{
	tbStepContext* ctx = g->ctx;
	// In the colours' order, the order tbSolveContacts visits them in (constraint_graph.c).
	const tbConstraintGraph* graph = &ctx->graph;
	int count = graph->colorStarts[TB_GRAPH_COLOR_COUNT + 1];
	for ( int k = 0; k < count; ++k )
	{
		tbContactConstraint* c = ctx->contacts + graph->order[k];
		tbMakeContactRows( ctx, c );
		int a = tbStateIndex( ctx, c->indexA );
		int b = tbStateIndex( ctx, c->indexB );
		const tbSolverBody* sa = tbGetSolverBody( ctx, c->indexA );
		const tbSolverBody* sb = tbGetSolverBody( ctx, c->indexB );
		int normals[TB_MAX_MANIFOLD_POINTS];
		// Normal rows of the manifold, then its friction rows: the order tbSolveContact visits them.
		for ( int p = 0; p < c->pointCount; ++p )
		{
			tbContactConstraintPoint* cp = c->points + p;
			tbGlobalRow* row = g->rows + g->rowCount;
			normals[p] = -1;
			const tbContactRow* r = cp->rows + 0;
			if ( tbMakeGlobalRow( row, tbNeg( c->normal ), tbNeg( r->angA ), c->normal, r->angB, a, c->invMassA,
								  &sa->invInertia, b, c->invMassB, &sb->invInertia ) == false )
			{
				continue;
			}
			row->target = tbContactTarget( ctx, c, cp, &row->bounce );
			row->lower = 0.0f;
			row->store = &cp->normalImpulse;
			normals[p] = g->rowCount++;
		}
		// Every other sweep visits the manifold's normal rows in reverse, as tbSolveContacts does
		// (symmetric Gauss-Seidel: the point solved first takes more, and a box always solved in one
		// order tips towards it; the book's offset 5-box stack, box_stack.lua, rocked and walked 13 cm
		// in 10 s).
		int first = g->rowCount - 1, added = 0;
		for ( int p = 0; p < c->pointCount; ++p )
		{
			first = normals[p] >= 0 ? tbMinInt( first, normals[p] ) : first;
			added += normals[p] >= 0 ? 1 : 0;
		}
		for ( int k = 0; k < added; ++k )
		{
			g->rows[first + k].mirror = added - 1 - 2 * k;
		}
		for ( int p = 0; p < c->pointCount; ++p )
		{
			tbContactConstraintPoint* cp = c->points + p;
			if ( normals[p] < 0 )
			{
				continue;
			}
			for ( int t = 0; t < 2; ++t )
			{
				tbVec3 dir = t == 0 ? c->tangent1 : c->tangent2;
				const tbContactRow* r = cp->rows + 1 + t;
				tbGlobalRow* row = g->rows + g->rowCount;
				if ( tbMakeGlobalRow( row, tbNeg( dir ), tbNeg( r->angA ), dir, r->angB, a, c->invMassA,
									  &sa->invInertia, b, c->invMassB, &sb->invInertia ) == false )
				{
					continue;
				}
				row->normal = normals[p];
				row->friction = c->friction;
				row->store = cp->tangentImpulse + t;
				g->rowCount += 1;
			}
		}
	}
	g->contactRows = g->rowCount;
}

// Joints ------------------------------------------------------------------------------------------

typedef struct tbJointRowMaker
{
	tbGlobal* g;
	tbJoint* joint;
	const tbJointMotion* m; ///< the bodies' masses (the springs' softness is stated in them)
	int a, b;
	float biasRate;
} tbJointRowMaker;

static tbGlobalRow* tbAddJointRow( tbJointRowMaker* mk, const tbJointRow* J, float* store )
{
	tbGlobal* g = mk->g;
	const tbJoint* j = mk->joint;
	tbGlobalRow* row = g->rows + g->rowCount;
	if ( tbMakeGlobalRow( row, J->linearA, J->angularA, J->linearB, J->angularB, mk->a, j->sideA.invMass,
						  &j->sideA.invI, mk->b, j->sideB.invMass, &j->sideB.invI ) == false )
	{
		return NULL;
	}
	row->store = store;
	g->rowCount += 1;
	return row;
}

// An equality row C = 0 (tbSolveEqualityRow): J v aims at the clamped Baumgarte correction.
static void tbAddEqualityRow( tbJointRowMaker* mk, const tbJointRow* J, float C, float* store )
{
	tbGlobalRow* row = tbAddJointRow( mk, J, store );
	if ( row != NULL )
	{
		row->target = -tbClampCorrection( mk->biasRate * C );
		row->equality = true;
	}
}

// A limit C >= 0 (tbSolveLimitRow): speculative while inside, Baumgarte beyond.
static void tbAddLimitRow( tbJointRowMaker* mk, const tbJointRow* J, float C, float* store )
{
	const tbStepContext* ctx = mk->g->ctx;
	tbGlobalRow* row = tbAddJointRow( mk, J, store );
	if ( row != NULL )
	{
		row->target =
			C > 0.0f ? -tbMinFloat( C, TB_MAX_JOINT_LENGTH ) * ctx->inv_h : -tbClampCorrection( mk->biasRate * C );
		row->lower = 0.0f;
	}
}

// A velocity row (tbSolveMotorRow): J v aims at the speed, within what a body may reach.
static void tbAddMotorRow( tbJointRowMaker* mk, const tbJointRow* J, float speed, float maxSpeed, float maxImpulse,
						   float* store )
{
	tbGlobalRow* row = tbAddJointRow( mk, J, store );
	if ( row != NULL )
	{
		row->target = tbClampMotorSpeed( speed, maxSpeed );
		row->lower = -maxImpulse;
		row->upper = maxImpulse;
	}
}

// The rows [first, first + count) share one soft constraint (header comment): C = s K with
// s = impulseScale / massScale and K their block of A (the rows lie on the same two bodies).
static void tbMakeSoftGroup( tbGlobal* g, int first, int count, tbSoftness soft )
{
	TB_ASSERT( count <= TB_GLOBAL_SOFT_ROWS );
	float s = soft.impulseScale / soft.massScale;
	for ( int i = 0; i < count; ++i )
	{
		tbGlobalRow* row = g->rows + first + i;
		for ( int k = 0; k < count; ++k )
		{
			const tbGlobalRow* other = g->rows + first + k;
			float K = tbDot( row->linA, other->mLinA ) + tbDot( row->angA, other->mAngA ) +
					  tbDot( row->linB, other->mLinB ) + tbDot( row->angB, other->mAngB );
			row->compliance[k] = s * K;
		}
		row->softIndex = i;
		row->softCount = count;
	}
	for ( int i = 0; i < count; ++i )
	{
		tbGlobalRow* row = g->rows + first + i;
		row->invDiag = 1.0f / ( 1.0f / row->invDiag + row->compliance[i] );
		row->invSplit = row->invDiag;
	}
}

// A spring (tbSolveSpringRow, unbounded): J v + C lambda aims at -biasRate C_position. A softness
// with no mass scale (a spring too weak for float) applies nothing: the row is left out.
static void tbAddSpringRow( tbJointRowMaker* mk, const tbJointRow* J, float C, tbSoftness soft, float* store )
{
	if ( !( soft.massScale > 0.0f ) )
	{
		*store = 0.0f;
		return;
	}
	tbGlobalRow* row = tbAddJointRow( mk, J, store );
	if ( row != NULL )
	{
		row->target = -soft.biasRate * C;
		row->equality = true;
		tbMakeSoftGroup( mk->g, (int)( row - mk->g->rows ), 1, soft );
	}
}

// The anchors coincide (ball_joint.c): one row per world axis e, Cdot = e . (vB + wB x rB - vA - wA x rA),
// aiming at -bias (the clamped Baumgarte correction of the gap for a rigid joint, as tbSolvePoint).
static void tbAddPointRows( tbJointRowMaker* mk, tbVec3* impulse, tbVec3 bias )
{
	const tbJoint* j = mk->joint;
	float* store[3] = { &impulse->x, &impulse->y, &impulse->z };
	float C[3] = { bias.x, bias.y, bias.z };
	for ( int k = 0; k < 3; ++k )
	{
		tbVec3 e = tb_vec3_zero;
		( &e.x )[k] = 1.0f;
		tbJointRow J = { tbNeg( e ), tbNeg( tbCross( j->rA, e ) ), e, tbCross( j->rB, e ) };
		tbGlobalRow* row = tbAddJointRow( mk, &J, store[k] );
		if ( row != NULL )
		{
			row->target = -C[k];
			row->equality = true;
		}
	}
}

static void tbAddRigidPointRows( tbJointRowMaker* mk, tbVec3* impulse )
{
	tbAddPointRows( mk, impulse, tbClampCorrectionVec( tbMulSV( mk->biasRate, mk->joint->pose.d ) ) );
}

static void tbAddAngularEquality( tbJointRowMaker* mk, tbVec3 axis, float C, float* store )
{
	tbJointRow J = tbAngularRow( axis );
	tbAddEqualityRow( mk, &J, C, store );
}

static void tbAddAngularLimit( tbJointRowMaker* mk, tbVec3 axis, float sign, float C, float* store )
{
	tbJointRow J = tbAngularRow( tbMulSV( sign, axis ) );
	tbAddLimitRow( mk, &J, C, store );
}

static void tbAddAngularMotor( tbJointRowMaker* mk, tbVec3 axis, float speed, float maxImpulse, float* store )
{
	tbJointRow J = tbAngularRow( axis );
	tbAddMotorRow( mk, &J, speed, TB_MAX_ANGULAR_SPEED, maxImpulse, store );
}

// Two quaternion rows C_i = qRel.y, qRel.z on their axes, left out where tbSolveAngularBlock skips
// them: near a half turn the axes turn parallel and the 2 x 2 block is singular.
static void tbAddQuatRows( tbJointRowMaker* mk, const tbVec3 axes[2], const tbJointPose* p, float* store )
{
	const tbJoint* j = mk->joint;
	tbMat3 I = tbAddMM( j->sideA.invI, j->sideB.invI );
	tbVec3 Ia0 = tbMulMV( I, axes[0] ), Ia1 = tbMulMV( I, axes[1] );
	float k00 = tbDot( axes[0], Ia0 ), k01 = tbDot( axes[0], Ia1 ), k11 = tbDot( axes[1], Ia1 );
	if ( k00 * k11 - k01 * k01 > 1.0e-5f * k00 * k11 )
	{
		tbAddAngularEquality( mk, axes[0], p->qRel.y, store + 0 );
		tbAddAngularEquality( mk, axes[1], p->qRel.z, store + 1 );
	}
}

// A limited translation or rotation on a row (slider, wheel, six-dof, distance): C = x - lower >= 0
// on J and upper - x >= 0 on -J.
static void tbAddRangeRows( tbJointRowMaker* mk, const tbJointRow* J, float x, float lower, float upper,
							float* lowerStore, float* upperStore )
{
	tbAddLimitRow( mk, J, x - lower, lowerStore );
	tbJointRow K = tbNegateRow( *J );
	tbAddLimitRow( mk, &K, upper - x, upperStore );
}

static tbVec3 tbCustomVec( const float* f )
{
	return tbMakeVec3( f[0], f[1], f[2] );
}

static void tbAddHingeRows( tbJointRowMaker* mk, tbHingeJointData* h )
{
	// tbSolveHinge's order: motor, servo, limits, then the quaternion rows and the anchors.
	const tbStepContext* ctx = mk->g->ctx;
	tbJointPose* p = &mk->joint->pose;
	if ( h->enableLimit || h->enableMotor || h->enableServo )
	{
		float angle = tbPoseTwist( p );
		if ( h->enableMotor )
		{
			tbAddAngularMotor( mk, h->twist.axis, h->motorSpeed, tbMaxImpulse( h->maxMotorTorque, ctx->h ),
							   &h->motorImpulse );
		}
		if ( h->enableServo )
		{
			float error = tbWrapAngle( h->servoAngle - angle );
			float speed = tbClampFloat( h->servoGain * error, -h->maxServoSpeed, h->maxServoSpeed );
			tbAddAngularMotor( mk, h->twist.axis, speed, tbMaxImpulse( h->maxServoTorque, ctx->h ), &h->servoImpulse );
		}
		if ( h->enableLimit )
		{
			tbAddAngularLimit( mk, h->twist.axis, 1.0f, angle - h->lowerAngle, &h->lowerImpulse );
			tbAddAngularLimit( mk, h->twist.axis, -1.0f, h->upperAngle - angle, &h->upperImpulse );
		}
	}
	// A singular quaternion block (near a half turn) is left out, as tbSolvePreparedAngularBlock does.
	if ( h->block.invK.cx.x != 0.0f || h->block.invK.cy.y != 0.0f )
	{
		tbAddAngularEquality( mk, h->block.axes[0], p->qRel.y, h->angularImpulse + 0 );
		tbAddAngularEquality( mk, h->block.axes[1], p->qRel.z, h->angularImpulse + 1 );
	}
	tbAddRigidPointRows( mk, &h->linearImpulse );
}

static void tbAddConeRows( tbJointRowMaker* mk, tbConeJointData* c )
{
	// tbSolveCone's order: twist, pyramid and cone limits, then the anchors.
	tbJointPose* p = &mk->joint->pose;
	if ( c->enableTwistLimit )
	{
		float angle = tbPoseTwist( p );
		if ( tbIsConeTwistLocked( c ) )
		{
			float target = 0.5f * ( c->lowerTwist + c->upperTwist );
			tbAddAngularEquality( mk, c->twist.axis, tbWrapAngle( angle - target ), &c->twistImpulse );
		}
		else
		{
			tbAddAngularLimit( mk, c->twist.axis, 1.0f, angle - c->lowerTwist, &c->twistLowerImpulse );
			tbAddAngularLimit( mk, c->twist.axis, -1.0f, c->upperTwist - angle, &c->twistUpperImpulse );
		}
	}
	if ( c->enablePyramidLimit )
	{
		float limits[2] = { sinf( 0.5f * c->maxSwingY ), sinf( 0.5f * c->maxSwingZ ) };
		float comps[2] = { p->qRel.y, p->qRel.z };
		for ( int i = 0; i < 2; ++i )
		{
			tbAddAngularLimit( mk, c->pyramid[i].axis, 1.0f, comps[i] + limits[i], c->pyramidLowerImpulse + i );
			tbAddAngularLimit( mk, c->pyramid[i].axis, -1.0f, limits[i] - comps[i], c->pyramidUpperImpulse + i );
		}
	}
	if ( c->enableConeLimit )
	{
		tbAddAngularLimit( mk, c->swing.axis, 1.0f, c->coneAngle - tbPoseSwing( p ), &c->coneImpulse );
	}
	tbAddRigidPointRows( mk, &c->linearImpulse );
}

static void tbAddCustomRows( tbJointRowMaker* mk, tbCustomJointData* c )
{
	// The callback's rows (made in the prepare, bounds already per step of one sub-step):
	// J v = bias - correction(C), C the error at the step start (nothing has moved yet).
	for ( int i = 0; i < c->rowCount; ++i )
	{
		const tbCustomRow* r = c->rows + i;
		tbJointRow J = { tbCustomVec( r->J ), tbCustomVec( r->J + 3 ), tbCustomVec( r->J + 6 ),
						 tbCustomVec( r->J + 9 ) };
		tbGlobalRow* row = tbAddJointRow( mk, &J, c->impulses + i );
		if ( row != NULL )
		{
			row->target = r->bias - tbClampCorrection( mk->biasRate * r->positionError );
			row->lower = r->lower;
			row->upper = r->upper;
			row->equality = r->lower <= -FLT_MAX && r->upper >= FLT_MAX;
		}
	}
}

static void tbAddDistanceRows( tbJointRowMaker* mk, tbDistanceJointData* d )
{
	// tbSolveDistance: the point rows of a zero-length rod, the rod's row, or the spring then the limits.
	const tbStepContext* ctx = mk->g->ctx;
	tbJointPose* p = &mk->joint->pose;
	if ( tbDistanceIsPointMode( d ) )
	{
		tbAddRigidPointRows( mk, &d->pointImpulse );
		return;
	}
	float length;
	tbVec3 n = tbDistanceAxis( mk->joint, p, &length );
	tbJointRow J = tbDistanceRow( p, n );
	if ( tbDistanceIsRigid( d ) )
	{
		tbAddEqualityRow( mk, &J, length - tbDistanceRodLength( d ), &d->impulse );
		return;
	}
	if ( tbDistanceHasSpringForce( d ) )
	{
		tbSoftness soft = tbDistanceSpringSoftness( ctx, d, mk->m, &J );
		float stretch = tbClampFloat( length - d->length, -d->maxSpringError, d->maxSpringError );
		tbAddSpringRow( mk, &J, stretch, soft, &d->impulse );
	}
	if ( d->enableLimit )
	{
		if ( d->minLength > 0.0f )
		{
			tbAddLimitRow( mk, &J, length - d->minLength, &d->lowerImpulse );
		}
		if ( d->maxLength < FLT_MAX )
		{
			tbJointRow K = tbNegateRow( J );
			tbAddLimitRow( mk, &K, d->maxLength - length, &d->upperImpulse );
		}
	}
}

static void tbAddSliderRows( tbJointRowMaker* mk, tbSliderJointData* s )
{
	// tbSolveSlider's order: motor, limits, the rotation lock, the two translation rows.
	const tbStepContext* ctx = mk->g->ctx;
	const tbJointPose* p = &mk->joint->pose;
	tbSliderRows rows;
	tbMakeSliderRows( p, &rows );
	float translation = tbDot( rows.axis, p->d );
	if ( s->enableMotor )
	{
		tbAddMotorRow( mk, &rows.axial, s->motorSpeed, TB_MAX_SPEED, tbMaxImpulse( s->maxMotorForce, ctx->h ),
					   &s->motorImpulse );
	}
	if ( s->enableLimit )
	{
		tbAddRangeRows( mk, &rows.axial, translation, s->lowerTranslation, s->upperTranslation, &s->lowerImpulse,
						&s->upperImpulse );
	}
	tbVec3 lock = tbRotationLockError( p );
	tbAddAngularEquality( mk, rows.lock[0], lock.x, &s->angularImpulse.x );
	tbAddAngularEquality( mk, rows.lock[1], lock.y, &s->angularImpulse.y );
	tbAddAngularEquality( mk, rows.lock[2], lock.z, &s->angularImpulse.z );
	for ( int i = 0; i < 2; ++i )
	{
		tbAddEqualityRow( mk, rows.normal + i, tbDot( rows.normal[i].linearB, p->d ), s->linearImpulse + i );
	}
}

static void tbAddSixDofRows( tbJointRowMaker* mk, tbSixDofJointData* s )
{
	// tbSolveSixDof's order: motors, limits, the fixed rotations, the fixed translations.
	const tbStepContext* ctx = mk->g->ctx;
	tbSixDofRows r;
	tbMakeSixDofRows( &mk->joint->pose, &r );
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		if ( s->enableMotor[i] && s->mode[i] != tbAxis_fixed )
		{
			float maxSpeed = i < tbSixDof_rx ? TB_MAX_SPEED : TB_MAX_ANGULAR_SPEED;
			tbAddMotorRow( mk, r.motor + i, s->motorSpeed[i], maxSpeed, tbMaxImpulse( s->maxMotorForce[i], ctx->h ),
						   s->motorImpulse + i );
		}
	}
	for ( int i = 0; i < tbSixDof_axisCount; ++i )
	{
		if ( s->mode[i] == tbAxis_limited )
		{
			tbAddRangeRows( mk, r.row + i, r.position[i], tbSixDofAxisLimit( i, s->lower[i] ),
							tbSixDofAxisLimit( i, s->upper[i] ), s->lowerImpulse + i, s->upperImpulse + i );
		}
	}
	const int order[tbSixDof_axisCount] = { tbSixDof_rx, tbSixDof_ry, tbSixDof_rz, tbSixDof_x, tbSixDof_y, tbSixDof_z };
	for ( int k = 0; k < tbSixDof_axisCount; ++k )
	{
		int i = order[k];
		if ( s->mode[i] == tbAxis_fixed )
		{
			tbAddEqualityRow( mk, r.row + i, r.position[i], s->fixedImpulse + i );
		}
	}
}

static void tbAddMotorJointRows( tbJointRowMaker* mk, tbMotorJointData* d )
{
	// tbSolveMotor's order: the twist motor, the quaternion rows, the anchors.
	const tbStepContext* ctx = mk->g->ctx;
	const tbJointPose* p = &mk->joint->pose;
	tbAddAngularMotor( mk, tbTwistAxis( p ), d->motorSpeed, tbMaxImpulse( d->maxMotorTorque, ctx->h ),
					   &d->motorImpulse );
	tbVec3 axes[2] = { tbQuatRowAxis( p, 1 ), tbQuatRowAxis( p, 2 ) };
	tbAddQuatRows( mk, axes, p, d->angularImpulse );
	tbAddRigidPointRows( mk, &d->linearImpulse );
}

static void tbAddMouseRows( tbJointRowMaker* mk, tbMouseJointData* d )
{
	// tbSolveMouse: one soft 3 x 3 point block (its softness, its bias unclamped), the impulse's
	// length within maxForce h.
	tbGlobal* g = mk->g;
	tbSoftness soft = d->softness;
	if ( !( soft.massScale > 0.0f ) )
	{
		d->linearImpulse = tb_vec3_zero;
		return;
	}
	int first = g->rowCount;
	tbAddPointRows( mk, &d->linearImpulse, tbMulSV( soft.biasRate, mk->joint->pose.d ) );
	float maxImpulse = tbMaxImpulse( d->maxForce, g->ctx->h );
	tbMakeSoftGroup( g, first, g->rowCount - first, soft );
	for ( int i = first; i < g->rowCount; ++i )
	{
		tbGlobalRow* row = g->rows + i;
		row->ball = true;
		row->lower = -maxImpulse;
		row->upper = maxImpulse;
		row->equality = maxImpulse >= FLT_MAX;
	}
}

static void tbAddWheelRows( tbJointRowMaker* mk, tbWheelJointData* w )
{
	// tbSolveWheel's order: motor, spring, limits, the axle's quaternion rows, the suspension line.
	const tbStepContext* ctx = mk->g->ctx;
	const tbJointPose* p = &mk->joint->pose;
	tbWheelRows rows;
	tbMakeWheelRows( p, &rows );
	float translation = tbDot( rows.suspension, p->d );
	if ( w->enableMotor )
	{
		tbAddAngularMotor( mk, rows.twist, w->motorSpeed, tbMaxImpulse( w->maxMotorTorque, ctx->h ), &w->motorImpulse );
	}
	if ( tbWheelHasSpring( w ) )
	{
		tbSoftness soft = tbWheelSpringSoftness( ctx, w, mk->m, &rows.travel );
		tbAddSpringRow( mk, &rows.travel, translation, soft, &w->springImpulse );
	}
	if ( w->enableLimit )
	{
		tbAddRangeRows( mk, &rows.travel, translation, w->lowerTranslation, w->upperTranslation, &w->lowerImpulse,
						&w->upperImpulse );
	}
	tbAddQuatRows( mk, rows.angular, p, w->angularImpulse );
	tbAddEqualityRow( mk, rows.line + 0, tbDot( rows.axle, p->d ), w->linearImpulse + 0 );
	tbAddEqualityRow( mk, rows.line + 1, tbDot( rows.line[1].linearB, p->d ), w->linearImpulse + 1 );
}

// The rows of a joint, in the order of its own solve.
static void tbAddJointRows( tbGlobal* g, tbJoint* joint, const tbJointMotion* m )
{
	tbStepContext* ctx = g->ctx;
	tbJointRowMaker mk = { g,
						   joint,
						   m,
						   tbStateIndex( ctx, joint->sideA.solverIndex ),
						   tbStateIndex( ctx, joint->sideB.solverIndex ),
						   ctx->baumgarte * ctx->inv_h };
	switch ( joint->type )
	{
		case tbJoint_ball:
			tbAddRigidPointRows( &mk, &joint->ball.linearImpulse );
			break;
		case tbJoint_hinge:
			tbAddHingeRows( &mk, &joint->hinge );
			break;
		case tbJoint_cone:
			tbAddConeRows( &mk, &joint->cone );
			break;
		case tbJoint_fixed: {
			tbFixedJointData* f = &joint->fixed;
			tbVec3 lock = tbRotationLockError( &joint->pose );
			tbAddAngularEquality( &mk, f->block.axes[0], lock.x, &f->angularImpulse.x );
			tbAddAngularEquality( &mk, f->block.axes[1], lock.y, &f->angularImpulse.y );
			tbAddAngularEquality( &mk, f->block.axes[2], lock.z, &f->angularImpulse.z );
			tbAddRigidPointRows( &mk, &f->linearImpulse );
			break;
		}
		case tbJoint_custom:
			tbAddCustomRows( &mk, joint->custom );
			break;
		case tbJoint_distance:
			tbAddDistanceRows( &mk, &joint->distance );
			break;
		case tbJoint_slider:
			tbAddSliderRows( &mk, &joint->slider );
			break;
		case tbJoint_sixDof:
			tbAddSixDofRows( &mk, &joint->sixDof );
			break;
		case tbJoint_motor:
			tbAddMotorJointRows( &mk, &joint->motor );
			break;
		case tbJoint_mouse:
			tbAddMouseRows( &mk, &joint->mouse );
			break;
		case tbJoint_wheel:
			tbAddWheelRows( &mk, &joint->wheel );
			break;
		default:
			TB_ASSERT( false );
			break;
	}
}

static void tbLoadGlobalMotion( tbStepContext* ctx, const tbJoint* joint, tbJointMotion* m )
{
	const tbJointSide* sides[2] = { &joint->sideA, &joint->sideB };
	tbVec3* v[2] = { &m->vA, &m->vB };
	tbVec3* w[2] = { &m->wA, &m->wB };
	tbVec3* dp[2] = { &m->dpA, &m->dpB };
	tbQuat* dq[2] = { &m->dqA, &m->dqB };
	for ( int k = 0; k < 2; ++k )
	{
		const tbBodyState* s = ctx->states + tbStateIndex( ctx, sides[k]->solverIndex );
		*v[k] = s->v;
		*w[k] = s->w;
		*dp[k] = s->dp;
		*dq[k] = s->dq;
	}
	m->mA = joint->sideA.invMass;
	m->mB = joint->sideB.invMass;
	m->iA = &joint->sideA.invI;
	m->iB = &joint->sideB.invI;
}

// Direct solve of joint trees -------------------------------------------------------------------------

// A body the tree can hold: moving, with a full mass matrix (M is formed from M^-1).
static bool tbIsTreeBody( const tbStepContext* ctx, int solverIndex )
{
	if ( solverIndex < 0 )
	{
		return false;
	}
	const tbSolverBody* sb = ctx->bodies + solverIndex;
	// The determinant finite too: an inverse inertia near the float range (a 1 mm body) overflows
	// it, and M's angular block would come out zero.
	float det = tbDeterminant( sb->invInertia );
	return sb->invMass > 0.0f && sb->isKinematic == false && sb->fixedRotation == false && tbIsValidFloat( det ) &&
		   det > 0.0f;
}

// A side that moves during the step (a tree node must then be a tree body).
static bool tbIsMovingSide( const tbStepContext* ctx, int solverIndex )
{
	return solverIndex >= 0 && ctx->bodies[solverIndex].invMass > 0.0f;
}

static int tbFindRoot( int* parent, int i )
{
	while ( parent[i] != i )
	{
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

// Gauss-Jordan inverse with partial pivoting of an n x n block (row-major), in place through a
// scratch of n x 2n; a body node's block [M J^T; J -eps] is indefinite but regular, which partial
// pivoting handles. A zero pivot leaves its row and column zero (that unknown is dropped rather
// than made infinite).
static void tbInvertBlock( const double* a, int n, double* out, double* m )
{
	int w = 2 * n;
	double scale = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		for ( int j = 0; j < n; ++j )
		{
			m[i * w + j] = a[i * n + j];
			m[i * w + n + j] = i == j ? 1.0 : 0.0;
			scale = fmax( scale, fabs( a[i * n + j] ) );
		}
	}
	bool dropped[TB_TREE_MAX_SIZE] = { false };
	for ( int col = 0; col < n; ++col )
	{
		int pivot = col;
		for ( int i = col + 1; i < n; ++i )
		{
			if ( fabs( m[i * w + col] ) > fabs( m[pivot * w + col] ) )
			{
				pivot = i;
			}
		}
		if ( !( fabs( m[pivot * w + col] ) > 1.0e-14 * scale ) )
		{
			dropped[col] = true;
			continue;
		}
		if ( pivot != col )
		{
			for ( int j = 0; j < w; ++j )
			{
				double t = m[col * w + j];
				m[col * w + j] = m[pivot * w + j];
				m[pivot * w + j] = t;
			}
		}
		double inv = 1.0 / m[col * w + col];
		for ( int j = 0; j < w; ++j )
		{
			m[col * w + j] *= inv;
		}
		for ( int i = 0; i < n; ++i )
		{
			double f = m[i * w + col];
			if ( i != col && f != 0.0 )
			{
				for ( int j = 0; j < w; ++j )
				{
					m[i * w + j] -= f * m[col * w + j];
				}
			}
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		for ( int j = 0; j < n; ++j )
		{
			out[i * n + j] = dropped[i] || dropped[j] ? 0.0 : m[i * w + n + j];
		}
	}
}

// A joint row's part on one body: its 6 columns (linear, angular).
static void tbRowPart( const tbGlobalRow* row, bool sideB, double out[6] )
{
	tbVec3 l = sideB ? row->linB : row->linA;
	tbVec3 w = sideB ? row->angB : row->angA;
	out[0] = l.x;
	out[1] = l.y;
	out[2] = l.z;
	out[3] = w.x;
	out[4] = w.y;
	out[5] = w.z;
}

// The side of a row that a body node's body is on.
static bool tbIsSideB( const tbGlobalRow* row, int body )
{
	return row->b == body;
}

// -C of a node's rows into its block from row and column first on (the block is zero there): each
// row's own compliance, that is a soft group's (header comment), plus on the diagonal 1e-10 of the
// row's A_ii, so that a dependent row stays finite while the solve stays exact to far below float
// precision (with 1e-7 a 1000 kg load on 1 kg links left 4e-3 m/s of residual).
static void tbSetNodeCompliance( const tbGlobal* g, tbJointTreeNode* node, int first )
{
	int n = node->size;
	for ( int k = 0; k < node->rowCount; ++k )
	{
		const tbGlobalRow* row = g->rows + node->rows[k];
		double* out = node->dinv + ( first + k ) * n + first;
		out[k] = -1.0e-10 / (double)row->invDiag;
		int group = node->rows[k] - row->softIndex;
		for ( int l = 0; row->softCount > 0 && l < node->rowCount; ++l )
		{
			int c = node->rows[l] - group;
			out[l] -= c >= 0 && c < row->softCount ? (double)row->compliance[c] : 0.0;
		}
	}
}

// Find the joint trees, order their nodes leaves first and factor them (once per step: J and M do
// not change within it). A joint with one moving side (an anchor to the world, a static, kinematic
// or sleeping body) would be a leaf with a zero block, which cannot be eliminated first: its rows
// join its body's node instead, as unknowns next to the body's velocity, whose block
// [M J^T; J 0] is regular. Two-body joints always lie between two body nodes, so they are eliminated
// after a body and their block is never zero. Returns false when the arena cannot hold them.
static bool tbBuildTrees( tbGlobal* g, const int* jointRowStart, const int* jointRowEnd )
{
	tbStepContext* ctx = g->ctx;
	tbArena* arena = ctx->arena;
	int bodyCount = ctx->bodyCount;
	int jointCount = ctx->jointCount;
	int* parent = TB_ARENA_ARRAY_RAW( arena, int, bodyCount + 1 );
	bool* loop = TB_ARENA_ARRAY( arena, bool, bodyCount + 1 );
	int* anchorRows = TB_ARENA_ARRAY( arena, int, bodyCount + 1 );
	uint8_t* kind = TB_ARENA_ARRAY( arena, uint8_t, jointCount + 1 ); // 1: a tree candidate, 2: in a tree
	if ( parent == NULL || loop == NULL || anchorRows == NULL || kind == NULL )
	{
		return false;
	}
	for ( int i = 0; i < bodyCount; ++i )
	{
		parent[i] = i;
	}
	// Candidates: exported joints with equality rows whose moving sides can be tree nodes. Union-find
	// over the bodies: a joint joining two bodies already connected closes a loop. A body anchored
	// by more rows than a node holds is treated as a loop too.
	for ( int i = 0; i < jointCount; ++i )
	{
		const tbJoint* joint = g->world->joints.data + ctx->jointIds[i];
		int sa = joint->sideA.solverIndex, sb = joint->sideB.solverIndex;
		int equalities = 0;
		for ( int r = jointRowStart[i]; r < jointRowEnd[i]; ++r )
		{
			equalities += g->rows[r].equality ? 1 : 0;
		}
		bool movesA = tbIsMovingSide( ctx, sa ), movesB = tbIsMovingSide( ctx, sb );
		if ( equalities == 0 || equalities > TB_GLOBAL_BLOCK_ROWS || ( movesA && !tbIsTreeBody( ctx, sa ) ) ||
			 ( movesB && !tbIsTreeBody( ctx, sb ) ) || ( !movesA && !movesB ) )
		{
			continue;
		}
		kind[i] = 1;
		if ( movesA && movesB )
		{
			int ra = tbFindRoot( parent, sa ), rb = tbFindRoot( parent, sb );
			if ( ra == rb )
			{
				loop[ra] = true;
			}
			else
			{
				parent[ra] = rb;
				loop[rb] = loop[rb] || loop[ra];
			}
		}
		else
		{
			int body = movesA ? sa : sb;
			anchorRows[body] += equalities;
		}
	}
	for ( int i = 0; i < bodyCount; ++i )
	{
		if ( anchorRows[i] > TB_GLOBAL_BLOCK_ROWS )
		{
			loop[tbFindRoot( parent, i )] = true;
		}
	}
	// Per body its tree joints (compressed rows).
	int* bodyStart = TB_ARENA_ARRAY( arena, int, bodyCount + 2 );
	int* bodyNode = TB_ARENA_ARRAY_RAW( arena, int, bodyCount + 1 );
	if ( bodyStart == NULL || bodyNode == NULL )
	{
		return false;
	}
	int treeJoints = 0;
	for ( int i = 0; i < jointCount; ++i )
	{
		if ( kind[i] == 0 )
		{
			continue;
		}
		const tbJoint* joint = g->world->joints.data + ctx->jointIds[i];
		int body =
			tbIsMovingSide( ctx, joint->sideA.solverIndex ) ? joint->sideA.solverIndex : joint->sideB.solverIndex;
		if ( loop[tbFindRoot( parent, body )] )
		{
			kind[i] = 0;
			continue;
		}
		kind[i] = 2;
		treeJoints += 1;
		for ( int k = 0; k < 2; ++k )
		{
			int s = k == 0 ? joint->sideA.solverIndex : joint->sideB.solverIndex;
			if ( tbIsMovingSide( ctx, s ) )
			{
				bodyStart[s + 1] += 1;
			}
		}
	}
	for ( int i = 0; i < bodyCount; ++i )
	{
		if ( loop[i] && parent[i] == i )
		{
			g->loopCount += 1;
		}
	}
	if ( treeJoints == 0 )
	{
		return true;
	}
	for ( int i = 0; i < bodyCount; ++i )
	{
		bodyStart[i + 1] += bodyStart[i];
	}
	int* adjacency = TB_ARENA_ARRAY_RAW( arena, int, bodyStart[bodyCount] + 1 );
	int* fill = TB_ARENA_ARRAY_RAW( arena, int, bodyCount + 1 );
	int* stack = TB_ARENA_ARRAY_RAW( arena, int, 2 * ( bodyCount + treeJoints ) + 2 );
	int* stackParent = stack + bodyCount + treeJoints + 1;
	bool* jointSeen = TB_ARENA_ARRAY( arena, bool, jointCount + 1 );
	g->nodes = TB_ARENA_ARRAY_RAW( arena, tbJointTreeNode, bodyCount + treeJoints );
	if ( adjacency == NULL || fill == NULL || stack == NULL || jointSeen == NULL || g->nodes == NULL )
	{
		return false;
	}
	memcpy( fill, bodyStart, sizeof( int ) * (size_t)bodyCount );
	for ( int i = 0; i < jointCount; ++i )
	{
		if ( kind[i] != 2 )
		{
			continue;
		}
		const tbJoint* joint = g->world->joints.data + ctx->jointIds[i];
		for ( int k = 0; k < 2; ++k )
		{
			int s = k == 0 ? joint->sideA.solverIndex : joint->sideB.solverIndex;
			if ( tbIsMovingSide( ctx, s ) )
			{
				adjacency[fill[s]++] = i;
			}
		}
	}
	for ( int i = 0; i < bodyCount; ++i )
	{
		bodyNode[i] = -1;
	}

	// Depth-first from every body with tree joints: the visit order has every node after its parent,
	// so its reverse eliminates every node after its children. Nodes are written in visit order.
	int count = 0;
	for ( int root = 0; root < bodyCount; ++root )
	{
		if ( bodyStart[root + 1] == bodyStart[root] || bodyNode[root] >= 0 )
		{
			continue;
		}
		g->treeCount += 1;
		int top = 0;
		stack[top] = root; // bodies as b, joints as -(joint index) - 2
		stackParent[top] = -1;
		top += 1;
		bodyNode[root] = -2;
		while ( top > 0 )
		{
			top -= 1;
			int item = stack[top];
			tbJointTreeNode* node = g->nodes + count;
			node->parent = stackParent[top];
			node->rowCount = 0;
			node->tree = g->treeCount - 1;
			int self = count++;
			if ( item >= 0 )
			{
				node->body = item;
				bodyNode[item] = self;
				for ( int e = bodyStart[item]; e < bodyStart[item + 1]; ++e )
				{
					int j = adjacency[e];
					if ( jointSeen[j] )
					{
						continue;
					}
					jointSeen[j] = true;
					const tbJoint* joint = g->world->joints.data + ctx->jointIds[j];
					bool anchor = !tbIsMovingSide( ctx, joint->sideA.solverIndex ) ||
								  !tbIsMovingSide( ctx, joint->sideB.solverIndex );
					if ( anchor )
					{
						// The anchor's rows become unknowns of this body's node.
						for ( int r = jointRowStart[j]; r < jointRowEnd[j]; ++r )
						{
							if ( g->rows[r].equality )
							{
								node->rows[node->rowCount++] = r;
							}
						}
						continue;
					}
					stack[top] = -j - 2;
					stackParent[top] = self;
					top += 1;
				}
				node->size = 6 + node->rowCount;
			}
			else
			{
				int j = -item - 2;
				node->body = -1;
				for ( int r = jointRowStart[j]; r < jointRowEnd[j]; ++r )
				{
					if ( g->rows[r].equality )
					{
						node->rows[node->rowCount++] = r;
					}
				}
				node->size = node->rowCount;
				const tbJoint* joint = g->world->joints.data + ctx->jointIds[j];
				for ( int k = 0; k < 2; ++k )
				{
					int s = k == 0 ? joint->sideA.solverIndex : joint->sideB.solverIndex;
					if ( bodyNode[s] == -1 )
					{
						bodyNode[s] = -2;
						stack[top] = s;
						stackParent[top] = self;
						top += 1;
					}
				}
			}
			g->directRows += node->rowCount;
		}
	}
	g->nodeCount = count;

	// Reverse the order (children before parents), renumber, and lay out the blocks.
	for ( int i = 0; i < count / 2; ++i )
	{
		tbJointTreeNode t = g->nodes[i];
		g->nodes[i] = g->nodes[count - 1 - i];
		g->nodes[count - 1 - i] = t;
	}
	size_t doubles = 0;
	for ( int i = 0; i < count; ++i )
	{
		tbJointTreeNode* node = g->nodes + i;
		node->parent = node->parent >= 0 ? count - 1 - node->parent : -1;
		if ( node->body >= 0 )
		{
			bodyNode[node->body] = i;
		}
	}
	for ( int i = 0; i < count; ++i )
	{
		tbJointTreeNode* node = g->nodes + i;
		int n = node->size;
		int m = node->parent >= 0 ? g->nodes[node->parent].size : 0;
		doubles += (size_t)( n * n + 2 * n * m + 2 * n );
		for ( int k = 0; k < node->rowCount; ++k )
		{
			g->rows[node->rows[k]].block = i;
		}
		if ( node->body < 0 )
		{
			const tbGlobalRow* first = g->rows + node->rows[0];
			node->ends[0] = bodyNode[first->a];
			node->ends[1] = bodyNode[first->b];
		}
	}
	double* pool = TB_ARENA_ARRAY_RAW( arena, double, doubles + 2 * TB_TREE_MAX_SIZE * TB_TREE_MAX_SIZE );
	g->treeCoupled = TB_ARENA_ARRAY( arena, bool, g->treeCount );
	if ( pool == NULL || g->treeCoupled == NULL )
	{
		return false;
	}
	for ( int i = 0; i < g->rowCount; ++i )
	{
		const tbGlobalRow* row = g->rows + i;
		if ( row->block >= 0 )
		{
			continue;
		}
		int ends[2] = { row->a, row->b };
		for ( int e = 0; e < 2; ++e )
		{
			if ( ends[e] < bodyCount && bodyNode[ends[e]] >= 0 )
			{
				g->treeCoupled[g->nodes[bodyNode[ends[e]]].tree] = true;
			}
		}
	}
	double* scratch = pool;
	double* block = pool + TB_TREE_MAX_SIZE * TB_TREE_MAX_SIZE;
	pool += 2 * TB_TREE_MAX_SIZE * TB_TREE_MAX_SIZE;
	for ( int i = 0; i < count; ++i )
	{
		tbJointTreeNode* node = g->nodes + i;
		int n = node->size;
		int m = node->parent >= 0 ? g->nodes[node->parent].size : 0;
		node->dinv = pool;
		pool += n * n;
		node->h = pool;
		pool += n * m;
		memset( node->dinv, 0, sizeof( double ) * (size_t)( n * n + n * m ) );
		node->g = pool;
		pool += n * m;
		node->r = pool;
		pool += n;
		node->x = pool;
		pool += n;
	}

	// H: a body node's diagonal block [M Ja^T; Ja -C] (Ja its anchor rows' part on the body, C their
	// compliance), a joint node's -C, and the coupling H_cp of each node to its parent: a joint's
	// rows' part on the body, whose anchor columns are zero. D starts as H_cc (kept in dinv until
	// it is inverted).
	for ( int i = 0; i < count; ++i )
	{
		tbJointTreeNode* node = g->nodes + i;
		int n = node->size;
		if ( node->body >= 0 )
		{
			const tbSolverBody* sb = ctx->bodies + node->body;
			double mass = 1.0 / (double)sb->invMass;
			tbMat3 I = sb->invInertia;
			double a[3][3] = { { I.cx.x, I.cy.x, I.cz.x }, { I.cx.y, I.cy.y, I.cz.y }, { I.cx.z, I.cy.z, I.cz.z } };
			double inertia[3][3];
			tbInvert3d( a, inertia );
			for ( int k = 0; k < 3; ++k )
			{
				node->dinv[k * n + k] = mass;
				for ( int l = 0; l < 3; ++l )
				{
					node->dinv[( 3 + k ) * n + 3 + l] = inertia[k][l];
				}
			}
			for ( int k = 0; k < node->rowCount; ++k )
			{
				const tbGlobalRow* row = g->rows + node->rows[k];
				double part[6];
				tbRowPart( row, tbIsSideB( row, node->body ), part );
				for ( int c = 0; c < 6; ++c )
				{
					node->dinv[( 6 + k ) * n + c] = part[c];
					node->dinv[c * n + 6 + k] = part[c];
				}
			}
			tbSetNodeCompliance( g, node, 6 );
		}
		else
		{
			tbSetNodeCompliance( g, node, 0 );
		}
		if ( node->parent < 0 )
		{
			continue;
		}
		const tbJointTreeNode* up = g->nodes + node->parent;
		int m = up->size;
		// One of the pair is a joint node: its rows' part on the other's body is the coupling.
		const tbJointTreeNode* jn = node->body < 0 ? node : up;
		const tbJointTreeNode* bn = node->body < 0 ? up : node;
		for ( int k = 0; k < jn->rowCount; ++k )
		{
			const tbGlobalRow* row = g->rows + jn->rows[k];
			double part[6];
			tbRowPart( row, tbIsSideB( row, bn->body ), part );
			for ( int c = 0; c < 6; ++c )
			{
				if ( node->body < 0 )
				{
					node->h[k * m + c] = part[c];
				}
				else
				{
					node->h[c * m + k] = part[c];
				}
			}
		}
	}

	// Factor, children first: D_c^-1, G_c = D_c^-1 H_cp, D_p -= H_cp^T G_c.
	for ( int i = 0; i < count; ++i )
	{
		tbJointTreeNode* node = g->nodes + i;
		int n = node->size;
		memcpy( block, node->dinv, sizeof( double ) * (size_t)( n * n ) );
		tbInvertBlock( block, n, node->dinv, scratch );
		if ( node->parent < 0 )
		{
			continue;
		}
		tbJointTreeNode* up = g->nodes + node->parent;
		int m = up->size;
		for ( int r = 0; r < n; ++r )
		{
			for ( int c = 0; c < m; ++c )
			{
				double s = 0.0;
				for ( int k = 0; k < n; ++k )
				{
					s += node->dinv[r * n + k] * node->h[k * m + c];
				}
				node->g[r * m + c] = s;
			}
		}
		for ( int r = 0; r < m; ++r )
		{
			for ( int c = 0; c < m; ++c )
			{
				double s = 0.0;
				for ( int k = 0; k < n; ++k )
				{
					s += node->h[k * m + r] * node->g[k * m + c];
				}
				up->dinv[r * m + c] -= s;
			}
		}
	}
	return true;
}

// Sides of an anchor row that are not tree nodes keep their velocity: their part moves to the right.
static double tbAnchorTarget( const tbStepContext* ctx, const tbGlobalRow* row, int body )
{
	double t = row->target;
	bool sideB = tbIsSideB( row, body );
	const tbBodyState* other = ctx->states + ( sideB ? row->a : row->b );
	tbVec3 l = sideB ? row->linA : row->linB;
	tbVec3 w = sideB ? row->angA : row->angB;
	return t - (double)( tbDot( l, other->v ) + tbDot( w, other->w ) );
}

// The trees' equality rows solved exactly given every other impulse (one block of block
// Gauss-Seidel): right-hand sides M v* (v* = v less the tree rows' own impulses) and the targets,
// then forward and back substitution.
static void tbSolveTrees( tbGlobal* g, bool first )
{
	tbStepContext* ctx = g->ctx;
	for ( int i = 0; i < g->nodeCount; ++i )
	{
		tbJointTreeNode* node = g->nodes + i;
		if ( first == false && g->treeCoupled[node->tree] == false )
		{
			continue;
		}
		if ( node->body >= 0 )
		{
			const tbBodyState* s = ctx->states + node->body;
			const tbSolverBody* sb = ctx->bodies + node->body;
			tbMat3 I = sb->invInertia;
			// M v from M^-1: the node's factor holds the reduced block, so I is inverted again here.
			double a[3][3] = { { I.cx.x, I.cy.x, I.cz.x }, { I.cx.y, I.cy.y, I.cz.y }, { I.cx.z, I.cy.z, I.cz.z } };
			double inertia[3][3];
			tbInvert3d( a, inertia );
			double mass = 1.0 / (double)sb->invMass;
			node->r[0] = mass * s->v.x;
			node->r[1] = mass * s->v.y;
			node->r[2] = mass * s->v.z;
			for ( int k = 0; k < 3; ++k )
			{
				node->r[3 + k] = inertia[k][0] * s->w.x + inertia[k][1] * s->w.y + inertia[k][2] * s->w.z;
			}
			for ( int k = 0; k < node->rowCount; ++k )
			{
				const tbGlobalRow* row = g->rows + node->rows[k];
				double part[6];
				tbRowPart( row, tbIsSideB( row, node->body ), part );
				double l = g->lambda[node->rows[k]];
				for ( int c = 0; c < 6; ++c )
				{
					node->r[c] -= part[c] * l;
				}
				node->r[6 + k] = tbAnchorTarget( ctx, row, node->body );
			}
		}
		else
		{
			for ( int k = 0; k < node->rowCount; ++k )
			{
				node->r[k] = g->rows[node->rows[k]].target;
			}
		}
	}
	// The two-body joints' current impulses leave M v* at both of their bodies.
	for ( int i = 0; i < g->nodeCount; ++i )
	{
		const tbJointTreeNode* node = g->nodes + i;
		if ( first == false && g->treeCoupled[node->tree] == false )
		{
			continue;
		}
		for ( int k = 0; node->body < 0 && k < node->rowCount; ++k )
		{
			const tbGlobalRow* row = g->rows + node->rows[k];
			double l = g->lambda[node->rows[k]];
			for ( int e = 0; e < 2; ++e )
			{
				tbJointTreeNode* bn = g->nodes + node->ends[e];
				double part[6];
				tbRowPart( row, e == 1, part );
				for ( int c = 0; c < 6; ++c )
				{
					bn->r[c] -= part[c] * l;
				}
			}
		}
	}
	// Forward: z_c = D_c^-1 r_c, r_p -= H_cp^T z_c.
	for ( int i = 0; i < g->nodeCount; ++i )
	{
		tbJointTreeNode* node = g->nodes + i;
		if ( first == false && g->treeCoupled[node->tree] == false )
		{
			continue;
		}
		int n = node->size;
		double z[TB_TREE_MAX_SIZE];
		for ( int r = 0; r < n; ++r )
		{
			double s = 0.0;
			for ( int k = 0; k < n; ++k )
			{
				s += node->dinv[r * n + k] * node->r[k];
			}
			z[r] = s;
		}
		memcpy( node->r, z, sizeof( double ) * (size_t)n );
		if ( node->parent >= 0 )
		{
			tbJointTreeNode* up = g->nodes + node->parent;
			int m = up->size;
			for ( int c = 0; c < m; ++c )
			{
				double s = 0.0;
				for ( int k = 0; k < n; ++k )
				{
					s += node->h[k * m + c] * z[k];
				}
				up->r[c] -= s;
			}
		}
	}
	// Back: x_c = z_c - G_c x_p, parents first; then v and lambda = -x from the unknowns.
	for ( int i = g->nodeCount - 1; i >= 0; --i )
	{
		tbJointTreeNode* node = g->nodes + i;
		if ( first == false && g->treeCoupled[node->tree] == false )
		{
			continue;
		}
		const double* xp = node->parent >= 0 ? g->nodes[node->parent].x : NULL;
		int m = node->parent >= 0 ? g->nodes[node->parent].size : 0;
		for ( int r = 0; r < node->size; ++r )
		{
			double s = node->r[r];
			for ( int c = 0; c < m; ++c )
			{
				s -= node->g[r * m + c] * xp[c];
			}
			node->x[r] = s;
		}
		int first = 0;
		if ( node->body >= 0 )
		{
			tbBodyState* s = ctx->states + node->body;
			s->v = tbMakeVec3( (float)node->x[0], (float)node->x[1], (float)node->x[2] );
			s->w = tbMakeVec3( (float)node->x[3], (float)node->x[4], (float)node->x[5] );
			first = 6;
		}
		for ( int k = 0; k < node->rowCount; ++k )
		{
			g->lambda[node->rows[k]] = -(float)node->x[first + k];
		}
	}
}

// Sweeps -------------------------------------------------------------------------------------------

static inline void tbRowBounds( const tbGlobal* g, const tbGlobalRow* row, float* lo, float* hi )
{
	if ( row->normal >= 0 )
	{
		float limit = row->friction * g->lambda[row->normal];
		*lo = -limit;
		*hi = limit;
		return;
	}
	*lo = row->lower;
	*hi = row->upper;
}

// A row's error (A lambda - b)_i, or (A lambda + C lambda - b)_i for a soft row: a velocity, m/s.
static inline float tbRowError( const tbGlobal* g, const tbGlobalRow* row, int i )
{
	float error = tbGlobalRowVelocity( g->ctx, row ) - row->target;
	return row->softCount == 0 ? error : error + tbSoftTerm( g, row, i );
}

// The mouse joint's bound (tbSolveMouse): its impulse vector scaled back to the length radius.
// Writes the group's new impulses to next (lambda + delta on entry).
static void tbProjectBall( float* next, int count, float radius )
{
	float lengthSquared = 0.0f;
	for ( int k = 0; k < count; ++k )
	{
		lengthSquared += next[k] * next[k];
	}
	if ( lengthSquared > radius * radius )
	{
		float scale = radius / sqrtf( lengthSquared );
		for ( int k = 0; k < count; ++k )
		{
			next[k] *= scale;
		}
	}
}

static void tbSweepGaussSeidel( tbGlobal* g, bool reverse )
{
	tbStepContext* ctx = g->ctx;
	for ( int k = 0; k < g->sweptCount; ++k )
	{
		int i = g->swept[k];
		i = reverse ? i + g->rows[i].mirror : i;
		const tbGlobalRow* row = g->rows + i;
		float lo, hi;
		tbRowBounds( g, row, &lo, &hi );
		float old = g->lambda[i];
		float next = tbClampFloat( old - tbRowError( g, row, i ) * row->invDiag, lo, hi );
		g->lambda[i] = next;
		tbGlobalRowApply( ctx, row, next - old );
		if ( row->ball )
		{
			int first = i - row->softIndex;
			float ball[TB_GLOBAL_SOFT_ROWS];
			memcpy( ball, g->lambda + first, sizeof( float ) * (size_t)row->softCount );
			tbProjectBall( ball, row->softCount, row->upper );
			for ( int k = 0; k < row->softCount; ++k )
			{
				tbGlobalRowApply( ctx, g->rows + first + k, ball[k] - g->lambda[first + k] );
				g->lambda[first + k] = ball[k];
			}
		}
	}
}

static void tbSweepJacobi( tbGlobal* g, float omega )
{
	tbStepContext* ctx = g->ctx;
	for ( int k = 0; k < g->sweptCount; ++k )
	{
		int i = g->swept[k];
		const tbGlobalRow* row = g->rows + i;
		float lo, hi;
		tbRowBounds( g, row, &lo, &hi );
		float old = g->lambda[i];
		float next = tbClampFloat( old - omega * tbRowError( g, row, i ) * row->invSplit, lo, hi );
		g->delta[i] = next - old;
	}
	// The mouse joint's bound on the group's updated impulse.
	for ( int k = 0; k < g->sweptCount; ++k )
	{
		int i = g->swept[k];
		const tbGlobalRow* row = g->rows + i;
		if ( row->ball && row->softIndex == 0 )
		{
			float ball[TB_GLOBAL_SOFT_ROWS];
			for ( int c = 0; c < row->softCount; ++c )
			{
				ball[c] = g->lambda[i + c] + g->delta[i + c];
			}
			tbProjectBall( ball, row->softCount, row->upper );
			for ( int c = 0; c < row->softCount; ++c )
			{
				g->delta[i + c] = ball[c] - g->lambda[i + c];
			}
		}
	}
	for ( int k = 0; k < g->sweptCount; ++k )
	{
		int i = g->swept[k];
		if ( g->delta[i] != 0.0f )
		{
			g->lambda[i] += g->delta[i];
			tbGlobalRowApply( ctx, g->rows + i, g->delta[i] );
		}
	}
}

// The error of a mouse joint's rows, added to free or clamped. Inside its bound each row is free;
// on it (|lambda| = radius) the optimality condition is r = -mu lambda with mu >= 0, and the part of
// r across lambda plus any part along it is the complementarity error.
static void tbMeasureBall( const tbGlobal* g, int first, double* free, double* clamped )
{
	const tbGlobalRow* row = g->rows + first;
	double r[TB_GLOBAL_SOFT_ROWS], lengthSquared = 0.0;
	for ( int k = 0; k < row->softCount; ++k )
	{
		r[k] = tbRowError( g, row + k, first + k );
		lengthSquared += (double)g->lambda[first + k] * g->lambda[first + k];
	}
	double radius = row->upper;
	if ( radius >= FLT_MAX || lengthSquared < radius * radius * ( 1.0 - 1.0e-5 ) )
	{
		for ( int k = 0; k < row->softCount; ++k )
		{
			*free += r[k] * r[k];
		}
		return;
	}
	if ( lengthSquared == 0.0 )
	{
		return;
	}
	double along = 0.0, total = 0.0;
	for ( int k = 0; k < row->softCount; ++k )
	{
		along += r[k] * g->lambda[first + k];
		total += r[k] * r[k];
	}
	along /= sqrt( lengthSquared );
	*clamped += fmax( total - along * along, 0.0 ) + ( along > 0.0 ? along * along : 0.0 );
}

// |A lambda - b| over the rows strictly inside their bounds, and the complementarity error of the
// clamped ones: at c_min the row may only separate faster than its target (A lambda - b >= 0), at
// c_max only slower; a row with c_min = c_max (friction without load) has none.
static void tbMeasure( const tbGlobal* g, float* residual, float* complementarity )
{
	double free = 0.0, clamped = 0.0;
	for ( int i = 0; i < g->rowCount; ++i )
	{
		const tbGlobalRow* row = g->rows + i;
		float r = tbGlobalRowVelocity( g->ctx, row ) - row->target;
		if ( row->softCount > 0 )
		{
			if ( row->ball )
			{
				if ( row->softIndex == 0 )
				{
					tbMeasureBall( g, i, &free, &clamped );
				}
				continue;
			}
			r += tbSoftTerm( g, row, i );
		}
		float lo, hi;
		tbRowBounds( g, row, &lo, &hi );
		float l = g->lambda[i];
		float tolerance = 1.0e-6f * tbMaxFloat( 1.0f, tbAbsFloat( l ) );
		bool atLower = lo > -FLT_MAX && l <= lo + tolerance;
		bool atUpper = hi < FLT_MAX && l >= hi - tolerance;
		if ( atLower && atUpper )
		{
			continue;
		}
		if ( atLower )
		{
			clamped += r < 0.0f ? (double)r * r : 0.0;
		}
		else if ( atUpper )
		{
			clamped += r > 0.0f ? (double)r * r : 0.0;
		}
		else
		{
			free += (double)r * r;
		}
	}
	*residual = (float)sqrt( free );
	*complementarity = (float)sqrt( clamped );
}

// Jacobi's denominators (header comment): for row i, the sum over its moving bodies b and the
// rows j on b of |J_ib M_b^-1 J_jb^T|, a bound on sum_j |A_ij|. Once per step, from per-body row
// lists. False when the arena cannot hold them.
static bool tbJacobiScale( tbGlobal* g )
{
	tbStepContext* ctx = g->ctx;
	int bodyCount = ctx->bodyCount;
	int* start = TB_ARENA_ARRAY( ctx->arena, int, bodyCount + 2 );
	int* list = TB_ARENA_ARRAY_RAW( ctx->arena, int, 2 * g->rowCount + 1 );
	int* fill = TB_ARENA_ARRAY_RAW( ctx->arena, int, bodyCount + 1 );
	if ( start == NULL || list == NULL || fill == NULL )
	{
		return false;
	}
	for ( int i = 0; i < g->rowCount; ++i )
	{
		const tbGlobalRow* row = g->rows + i;
		start[row->a + 1] += row->a < bodyCount ? 1 : 0;
		start[row->b + 1] += row->b < bodyCount ? 1 : 0;
	}
	for ( int b = 0; b < bodyCount; ++b )
	{
		start[b + 1] += start[b];
	}
	memcpy( fill, start, sizeof( int ) * (size_t)bodyCount );
	for ( int i = 0; i < g->rowCount; ++i )
	{
		const tbGlobalRow* row = g->rows + i;
		if ( row->a < bodyCount )
		{
			list[fill[row->a]++] = i;
		}
		if ( row->b < bodyCount )
		{
			list[fill[row->b]++] = i;
		}
	}
	for ( int i = 0; i < g->rowCount; ++i )
	{
		tbGlobalRow* row = g->rows + i;
		float sum = 0.0f;
		for ( int side = 0; side < 2; ++side )
		{
			int body = side == 0 ? row->a : row->b;
			if ( body >= bodyCount )
			{
				continue;
			}
			tbVec3 jl = side == 0 ? row->linA : row->linB;
			tbVec3 ja = side == 0 ? row->angA : row->angB;
			for ( int k = start[body]; k < start[body + 1]; ++k )
			{
				const tbGlobalRow* other = g->rows + list[k];
				bool otherB = other->b == body;
				tbVec3 wl = otherB ? other->mLinB : other->mLinA;
				tbVec3 wa = otherB ? other->mAngB : other->mAngA;
				sum += tbAbsFloat( tbDot( jl, wl ) + tbDot( ja, wa ) );
			}
		}
		// A soft row's row of C (the bound is then on the rows of A + C).
		for ( int k = 0; k < row->softCount; ++k )
		{
			sum += tbAbsFloat( row->compliance[k] );
		}
		row->invSplit = sum > 0.0f ? 1.0f / sum : 0.0f;
	}
	return true;
}

bool tbSolveGlobal( tbStepContext* ctx )
{
	tbWorld* world = ctx->world;
	const tbWorldDef* def = &world->def;
	tbGlobal g;
	memset( &g, 0, sizeof( g ) );
	g.ctx = ctx;
	g.world = world;

	int pointCount = 0;
	for ( int i = 0; i < ctx->contactCount; ++i )
	{
		pointCount += ctx->contacts[i].pointCount;
	}
	int capacity = 3 * pointCount + TB_GLOBAL_JOINT_ROWS * ctx->jointCount;
	g.rows = TB_ARENA_ARRAY_RAW( ctx->arena, tbGlobalRow, capacity + 1 );
	g.lambda = TB_ARENA_ARRAY_RAW( ctx->arena, float, capacity + 1 );
	g.delta = TB_ARENA_ARRAY_RAW( ctx->arena, float, capacity + 1 );
	int* jointRowStart = TB_ARENA_ARRAY_RAW( ctx->arena, int, ctx->jointCount + 1 );
	int* jointRowEnd = TB_ARENA_ARRAY_RAW( ctx->arena, int, ctx->jointCount + 1 );
	if ( g.rows == NULL || g.lambda == NULL || g.delta == NULL || jointRowStart == NULL || jointRowEnd == NULL )
	{
		return false;
	}

	// Rows: joints first, then contacts (tbSolve's sequential order: joints, then contacts, each pass).
	// The contact rows are made after the joints' but the joints' row indices are kept apart.
	tbAddContactRows( &g );
	int contactRows = g.rowCount;
	for ( int i = 0; i < ctx->jointCount; ++i )
	{
		tbJoint* joint = world->joints.data + ctx->jointIds[i];
		const tbJointClass* cls = tbGetJointClass( joint->type );
		tbJointMotion m;
		tbLoadGlobalMotion( ctx, joint, &m );
		tbComputeJointPose( joint, &m, &joint->pose );
		joint->rA = joint->pose.rA;
		joint->rB = joint->pose.rB;
		if ( cls->refresh != NULL )
		{
			cls->refresh( ctx, joint, &joint->pose );
		}
		jointRowStart[i] = g.rowCount;
		tbAddJointRows( &g, joint, &m );
		jointRowEnd[i] = g.rowCount;
	}
	g.contactRows = contactRows;
	g.jointRows = g.rowCount - contactRows;
	// Joint rows before contact rows: rotate the array so that [joints | contacts], fixing the
	// friction rows' normal indices.
	if ( contactRows > 0 && g.jointRows > 0 )
	{
		tbGlobalRow* rotated = TB_ARENA_ARRAY_RAW( ctx->arena, tbGlobalRow, g.rowCount );
		if ( rotated == NULL )
		{
			return false;
		}
		memcpy( rotated, g.rows + contactRows, sizeof( tbGlobalRow ) * (size_t)g.jointRows );
		memcpy( rotated + g.jointRows, g.rows, sizeof( tbGlobalRow ) * (size_t)contactRows );
		for ( int i = g.jointRows; i < g.rowCount; ++i )
		{
			rotated[i].normal = rotated[i].normal >= 0 ? rotated[i].normal + g.jointRows : -1;
		}
		g.rows = rotated;
		for ( int i = 0; i < ctx->jointCount; ++i )
		{
			jointRowStart[i] -= contactRows;
			jointRowEnd[i] -= contactRows;
		}
	}

	if ( def->enableDirectSolve && g.jointRows > 0 && tbBuildTrees( &g, jointRowStart, jointRowEnd ) == false )
	{
		return false;
	}
	g.swept = TB_ARENA_ARRAY_RAW( ctx->arena, int, g.rowCount + 1 );
	if ( g.swept == NULL )
	{
		return false;
	}
	for ( int i = 0; i < g.rowCount; ++i )
	{
		if ( g.rows[i].block < 0 )
		{
			g.swept[g.sweptCount++] = i;
		}
	}

	// Nothing has moved so far: from here on the step is solved.
	ctx->gyroscopicH = ctx->h;
	tbIntegrateBodyLanes( ctx, false );

	if ( def->globalMethod == tbGlobal_jacobi && tbJacobiScale( &g ) == false )
	{
		return false;
	}

	// Warm start: lambda from the stored impulses (already cleared when warm starting is off, and
	// within the joints' guard), applied once as v += M^-1 J^T lambda.
	for ( int i = 0; i < g.rowCount; ++i )
	{
		float l = g.rows[i].store != NULL ? *g.rows[i].store : 0.0f;
		g.lambda[i] = tbIsValidFloat( l ) ? l : 0.0f;
		if ( g.lambda[i] != 0.0f )
		{
			tbGlobalRowApply( ctx, g.rows + i, g.lambda[i] );
		}
	}

	tbGlobalReport* report = &world->globalReport;
	int iterations = tbMinInt( ctx->iterations, TB_GLOBAL_MAX_ITERATIONS );
	bool jacobi = def->globalMethod == tbGlobal_jacobi;
	for ( int it = 0; it < iterations; ++it )
	{
		if ( g.nodeCount > 0 )
		{
			tbSolveTrees( &g, it == 0 );
		}
		if ( jacobi )
		{
			tbSweepJacobi( &g, def->globalRelaxation );
		}
		else
		{
			tbSweepGaussSeidel( &g, ( it & 1 ) != 0 );
		}
		tbMeasure( &g, report->residuals + it, report->complementarity + it );
	}

	// The impulses back where the next step warm starts from and the reactions are read.
	for ( int i = 0; i < g.rowCount; ++i )
	{
		if ( g.rows[i].store != NULL )
		{
			*g.rows[i].store = g.lambda[i];
		}
	}
	for ( int i = 0; i < ctx->contactCount; ++i )
	{
		tbContactConstraint* c = ctx->contacts + i;
		for ( int p = 0; p < c->pointCount; ++p )
		{
			c->points[p].maxNormalImpulse = c->points[p].normalImpulse;
		}
	}
	// No joint was solved in the lanes: tbFinalizeJoints must not copy their packed impulses back.
	ctx->jointLaneStarts[TB_JOINT_COLOR_COUNT + 1] = 0;

	tbSolverReport* s = &report->summary;
	s->iterations = iterations;
	s->rowCount = g.rowCount;
	s->contactRowCount = g.contactRows;
	s->jointRowCount = g.jointRows;
	s->directRowCount = g.directRows;
	s->treeCount = g.treeCount;
	s->loopCount = g.loopCount;
	s->residual = iterations > 0 ? report->residuals[iterations - 1] : 0.0f;
	s->complementarity = iterations > 0 ? report->complementarity[iterations - 1] : 0.0f;

	ctx->jointRowsCurrent = false;
	tbIntegrateBodyLanes( ctx, true );
	// The deferred bounces of points that closed their gap in this step (tbContactTarget).
	for ( int i = g.jointRows; i < g.rowCount; ++i )
	{
		const tbGlobalRow* row = g.rows + i;
		if ( row->bounce > 0.0f && g.lambda[i] > 0.0f )
		{
			float old = g.lambda[i];
			float next = tbMaxFloat( old + ( row->bounce - tbGlobalRowVelocity( ctx, row ) ) * row->invDiag, 0.0f );
			g.lambda[i] = next;
			*row->store = next;
			tbGlobalRowApply( ctx, row, next - old );
		}
	}
	// 001 sec. 8.1, the single-frame push: what overlap is left is moved out by position passes.
	ctx->splitPass = true;
	for ( int it = 0; it < def->positionIterations; ++it )
	{
		if ( tbSolveContactPositions( ctx ) == false )
		{
			break;
		}
	}
	ctx->splitPass = false;
	return true;
}

tbSolverReport tbWorld_GetSolverReport( tbWorldId worldId )
{
	tbSolverReport report;
	memset( &report, 0, sizeof( report ) );
	tbWorld* world = tbGetWorldFromId( worldId );
	return world != NULL ? world->globalReport.summary : report;
}

int tbWorld_GetSolverResiduals( tbWorldId worldId, float* residuals, float* complementarity, int capacity )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		return 0;
	}
	const tbGlobalReport* report = &world->globalReport;
	int n = tbMinInt( report->summary.iterations, tbMaxInt( capacity, 0 ) );
	for ( int i = 0; i < n; ++i )
	{
		if ( residuals != NULL )
		{
			residuals[i] = report->residuals[i];
		}
		if ( complementarity != NULL )
		{
			complementarity[i] = report->complementarity[i];
		}
	}
	return report->summary.iterations;
}
