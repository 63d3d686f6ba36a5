// Tumble physics: enums and definition structs. Every def has a default function; change only the
// fields you need. SI units throughout: m, kg, s, rad, N.
// SPDX-License-Identifier: MIT
#pragma once

#include "base.h"
#include "collision.h"
#include "id.h"
#include "math_functions.h"

/// Value the default functions put in a def's internalValue, so an uninitialised def is caught.
#define TB_SECRET_COOKIE 0x7B1E5EED

/// How a body moves.
typedef enum tbBodyType
{
	tbBody_static = 0,    ///< never moves, infinite mass
	tbBody_kinematic = 1, ///< moved by its velocity only (movers); infinite mass, pushes dynamic bodies
	tbBody_dynamic = 2,   ///< moved by forces, contacts and joints
	tbBody_typeCount
} tbBodyType;

/// How the solver removes position error (penetration, joint drift).
typedef enum tbSolverMode
{
	tbSolver_baumgarte = 0, ///< velocity bias beta * C / h beyond a slop (reference 000 ch. 11)
	tbSolver_split = 1,     ///< single-frame push: position correction in a separate pass, no velocity left (001)
	tbSolver_soft = 2,      ///< sub-stepped soft constraints with relaxation (default: measured best)
	/// One system of every row (001 sec. 6-7: A = J M^-1 J^T, lambda in [c_min, c_max]) solved by
	/// projected Gauss-Seidel or Jacobi (globalMethod), joint trees directly (enableDirectSolve);
	/// Baumgarte bias as tbSolver_baumgarte, one step of iterations, no sub-steps (docs/SOLVER.md)
	tbSolver_global = 3,
	tbSolver_modeCount
} tbSolverMode;

/// How tbSolver_global iterates on its system.
typedef enum tbGlobalMethod
{
	tbGlobal_gaussSeidel = 0, ///< projected Gauss-Seidel: each row uses the rows before it in the same sweep (001 sec. 7)
	tbGlobal_jacobi = 1,      ///< projected Jacobi: every row from the last sweep's lambdas, relaxed (globalRelaxation)
	tbGlobal_methodCount
} tbGlobalMethod;

/// How the friction (or restitution) coefficients of two shapes combine.
typedef enum tbMixRule
{
	tbMix_geometricMean = 0, ///< sqrt(a * b): the default for friction
	tbMix_average,
	tbMix_minimum,
	tbMix_maximum,
	tbMix_multiply,
	tbMix_ruleCount
} tbMixRule;

/// Shape kinds.
typedef enum tbShapeType
{
	tbShape_sphere = 0,
	tbShape_capsule,
	tbShape_hull, ///< boxes are hulls too
	tbShape_mesh, ///< static triangle mesh (level geometry); static bodies only
	tbShape_heightfield, ///< static grid of heights with holes (terrain); static bodies only
	tbShape_cylinder, ///< true cylinder (tbCylinder): flat caps, round side
	tbShape_typeCount
} tbShapeType;

/// Largest tbWorldDef::workerCount.
#define TB_MAX_WORKER_COUNT 16

/// World settings.
typedef struct tbWorldDef
{
	tbVec3 gravity;          ///< m/s^2, default (0, 0, -10)
	int iterations;          ///< velocity iterations per step (baumgarte and split modes), default 10
	int subSteps;            ///< soft mode: sub-steps per step, each one biased + one relax pass, default 8
	int positionIterations;  ///< split and global modes (and soft, for deep overlap): position passes per step, default 3
	tbSolverMode solverMode; ///< default tbSolver_soft
	float baumgarte;         ///< beta for tbSolver_baumgarte and tbSolver_global, default 0.2
	tbGlobalMethod globalMethod; ///< tbSolver_global: default tbGlobal_gaussSeidel
	/// tbSolver_global with Jacobi: relaxation omega in (0, 2), default 1.5
	/// (docs/SOLVER.md: convergence is guaranteed below 2)
	float globalRelaxation;
	/// tbSolver_global: joint trees' equality rows solved exactly (Baraff's linear-time method) inside
	/// the iterations, default true
	bool enableDirectSolve;
	float linearSlop;        ///< penetration left uncorrected (baumgarte, split), m, default 0.002
	float maxCorrectionSpeed; ///< cap on push-out velocity, m/s, default 3
	float contactHertz;      ///< soft contact stiffness, Hz, default 100 (capped at a quarter of the sub-step rate)
	float contactDampingRatio; ///< soft contact damping ratio, default 1
	float jointHertz;        ///< soft joint stiffness, Hz, default 120
	float jointDampingRatio; ///< soft joint damping ratio, default 5
	float restitutionThreshold; ///< m/s: slower impacts do not bounce, default 1
	tbMixRule frictionMix;    ///< default geometric mean
	tbMixRule restitutionMix; ///< default maximum
	bool enableSleep;         ///< default true
	bool enableContinuous;    ///< CCD for fast bodies, default true
	bool enableWarmStarting;  ///< default true
	bool enableContactReuse;  ///< remeasure a resting hull pair's face contact instead of recomputing it, default true
	float maxLinearSpeed;     ///< m/s clamp (> 0, at most TB_MAX_SPEED), default 400
	int workerCount;          ///< threads that run a step, the caller included: 1 (default) .. TB_MAX_WORKER_COUNT; same results for any count
	int internalValue;        ///< set by tbDefaultWorldDef; catches uninitialised defs
} tbWorldDef;

TB_API tbWorldDef tbDefaultWorldDef( void );

/// What the last step of tbSolver_global did (tbWorld_GetSolverReport); zeros before the first one.
/// Residuals are velocities (the rows' A lambda - b, with lambda an impulse), m/s.
typedef struct tbSolverReport
{
	int iterations;        ///< sweeps made (the world's iterations)
	int rowCount;          ///< rows in the system
	int contactRowCount;   ///< of which contact normal and friction rows
	int jointRowCount;     ///< of which joint rows
	int directRowCount;    ///< joint equality rows solved exactly (joint trees)
	int treeCount;         ///< joint trees solved directly
	int loopCount;         ///< joint groups with a loop (their rows are iterated)
	float residual;        ///< |A lambda - b| over the unclamped rows after the last sweep, m/s
	float complementarity; ///< error of the clamped rows after the last sweep, m/s
} tbSolverReport;

/// Body definition.
typedef struct tbBodyDef
{
	tbBodyType type;         ///< default static
	tbVec3 position;         ///< world position of the body origin, m
	tbQuat rotation;         ///< default identity
	tbVec3 linearVelocity;   ///< of the origin... of the centre of mass, m/s
	tbVec3 angularVelocity;  ///< rad/s, world frame
	float linearDamping;     ///< 1/s, default 0
	float angularDamping;    ///< 1/s, default 0
	float gravityScale;      ///< default 1
	float sleepThreshold;    ///< m/s below which the body may sleep, default 0.05
	const char* name;        ///< optional, copied (up to 31 bytes; a longer name is cut before the first UTF-8 character that does not fit)
	void* userData;
	bool enableSleep;        ///< default true
	bool isAwake;            ///< default true
	bool fixedRotation;      ///< no rotation (infinite inertia)
	bool isBullet;           ///< always use continuous collision against all bodies
	tbVec3 oneWayNormal;     ///< non-zero: a one-way body that blocks only from this side (world frame; tbBody_SetOneWay)
	int internalValue;
} tbBodyDef;

TB_API tbBodyDef tbDefaultBodyDef( void );

/// Shape definition (the geometry is passed separately to the tbCreate*Shape functions).
typedef struct tbShapeDef
{
	float density;        ///< kg/m^3, default 1000
	float friction;       ///< Coulomb coefficient, default 0.5
	float restitution;    ///< default 0
	uint64_t categoryBits; ///< layer bits, default 1
	uint64_t maskBits;     ///< collides with shapes whose category & mask != 0, default all
	int32_t groupIndex;    ///< same positive group always collides, same negative never; default 0
	bool isSensor;         ///< events only, no response
	bool enableContactEvents; ///< default true
	bool enablePreSolveEvents; ///< the world's pre-solve callback sees this shape's contacts, default false
	bool updateBodyMass;   ///< recompute the body's mass from its shapes, default true
	void* userData;
	int internalValue;
} tbShapeDef;

TB_API tbShapeDef tbDefaultShapeDef( void );

/// Explicit mass properties for a body (overrides the shapes').
typedef struct tbBodyMass
{
	float mass;         ///< kg, > 0 for dynamic bodies
	tbVec3 center;      ///< local centre of mass, m
	tbVec3 inertia;     ///< principal moments about the centre, body axes, kg m^2 (> 0)
} tbBodyMass;

// Queries and events -----------------------------------------------------------------------------

/// A ray or shape hit in the world.
typedef struct tbRayResult
{
	tbShapeId shapeId;
	tbBodyId bodyId;
	tbVec3 point;
	tbVec3 normal;
	float fraction;
	bool hit;
} tbRayResult;

/// A radial impulse (tbWorld_Explode).
typedef struct tbExplosionDef
{
	tbVec3 position; ///< centre, m
	float radius;    ///< dynamic bodies whose shapes come this close get the whole impulse, m (default 1)
	float falloff;   ///< beyond radius the impulse falls linearly to zero over this distance, m (default 0)
	float impulse;   ///< N s given to each body in reach, away from the centre through its centre of mass
	uint64_t maskBits; ///< only bodies with a shape on these layers (default all)
} tbExplosionDef;

TB_API tbExplosionDef tbDefaultExplosionDef( void );

/// Pre-solve callback (tbWorld_SetPreSolveCallback): called in the narrow phase for every contact
/// with points of a shape that enables pre-solve events, with the manifold just computed (normal from
/// shape A to shape B). Return false to disable the contact for this step (no response, no events).
/// It runs on the step's worker threads, several at once: it must only read the world (no API call
/// that changes anything) and keep its own data thread-safe.
typedef bool tbPreSolveFcn( tbShapeId shapeA, tbShapeId shapeB, const tbManifold* manifold, void* context );

/// Filter for queries.
typedef struct tbQueryFilter
{
	uint64_t categoryBits;
	uint64_t maskBits;
} tbQueryFilter;

TB_API tbQueryFilter tbDefaultQueryFilter( void );

/// Contact began between two shapes (buffered, read after the step).
typedef struct tbContactBeginEvent
{
	tbShapeId shapeA, shapeB;
	tbVec3 point;
	tbVec3 normal; ///< A to B
	float approachSpeed; ///< relative normal speed at first contact, m/s
} tbContactBeginEvent;

typedef struct tbContactEndEvent
{
	tbShapeId shapeA, shapeB;
} tbContactEndEvent;

/// A joint broke this step.
typedef struct tbJointBreakEvent
{
	tbJointId jointId;
	float force;  ///< N, the force that broke it
	float torque; ///< N m
} tbJointBreakEvent;

typedef struct tbJointBreakEvents
{
	const tbJointBreakEvent* events;
	int count;
} tbJointBreakEvents;

typedef struct tbContactEvents
{
	const tbContactBeginEvent* beginEvents;
	const tbContactEndEvent* endEvents;
	int beginCount;
	int endCount;
} tbContactEvents;

/// Sensor overlap events: visitor shape entered or left a sensor shape.
typedef struct tbSensorEvent
{
	tbShapeId sensorShape, visitorShape;
} tbSensorEvent;

typedef struct tbSensorEvents
{
	const tbSensorEvent* beginEvents;
	const tbSensorEvent* endEvents;
	int beginCount;
	int endCount;
} tbSensorEvents;

/// A contact's data as reported after the step (copied: safe to keep).
typedef struct tbContactData
{
	tbShapeId shapeA, shapeB;
	tbManifold manifold;
} tbContactData;

/// Per-step statistics.
typedef struct tbWorldCounters
{
	int bodyCount;
	int awakeBodyCount;
	int shapeCount;
	int contactCount;      ///< contacts with at least one point
	int reusedContactCount; ///< of those, manifolds remeasured, not recomputed, in the last step (contact reuse)
	int pairCount;         ///< broad-phase pairs
	int jointCount;
	int islandCount;
	int treeHeight;
	float stepMs;          ///< wall time of the last step, ms
	float maxPenetration;  ///< deepest contact point after the last step, m
	long allocationCount;  ///< library allocations so far
	/// Allocations refused during the last step (the allocator returned NULL). The step then
	/// drops what they would have held: new pairs and contacts (found again when a proxy next
	/// moves), events, wake-ups, or, without memory for the solver's arrays, the whole solve (every
	/// body keeps its pose and velocity for that step). tbWorld_Step returns tbResult_outOfMemory.
	int allocationFailures;
} tbWorldCounters;
