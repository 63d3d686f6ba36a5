// Tumble benchmark: engine-neutral scene description, engine adapter interface and metrics.
// Scenes are specified in ../shared/bench/SCENES.md; this header is shared by the C adapters
// (Tumble, ODE) and the one C++ adapter (Bullet), so it is plain C with C linkage.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/math_functions.h"

#include <stdbool.h>

// The adapters are C and C++; every function has C linkage (like TB_API in tumble/base.h).
#ifdef __cplusplus
#define TB_BENCH_API extern "C"
#else
#define TB_BENCH_API extern
#endif

/// Fixed time step of every scene, s (SCENES.md: 60 Hz, one solver step per frame).
#define TB_BENCH_TIME_STEP ( 1.0f / 60.0f )
/// Gravity along z, m/s^2.
#define TB_BENCH_GRAVITY_Z ( -10.0f )
/// Solver iterations of the reference engines unless --iters says otherwise.
#define TB_BENCH_DEFAULT_ITERATIONS 10
/// Body index meaning "the static world" in a joint.
#define TB_BENCH_WORLD ( -1 )

// Scene description ------------------------------------------------------------------------------

typedef enum tbBenchShapeType
{
	tbBenchShape_none = 0, ///< no collision shape (chains): never collides with anything
	tbBenchShape_box,
	tbBenchShape_sphere,
	tbBenchShape_capsule, ///< segment along the body's local z axis
} tbBenchShapeType;

/// A dynamic body. The centre of mass is the shape's geometric centre, at the body origin.
typedef struct tbBenchBody
{
	tbBenchShapeType shape;
	tbVec3 halfExtents; ///< box, m
	float radius;		///< sphere, capsule, m
	float halfLength;	///< capsule: half the inner segment length, m
	float mass;			///< kg
	tbVec3 inertia;		///< principal moments about the centre, body axes, kg m^2
	tbVec3 position;	///< m
	tbQuat rotation;
} tbBenchBody;

/// A static box other than the ground (the rain walls).
typedef struct tbBenchStatic
{
	tbVec3 halfExtents;
	tbVec3 position;
} tbBenchStatic;

typedef enum tbBenchJointType
{
	tbBenchJoint_hinge = 0,
	tbBenchJoint_coneTwist, ///< spherical joint with a swing cone and a twist range
} tbBenchJointType;

/// A joint between body A (the parent, or TB_BENCH_WORLD) and body B (the child). Every vector is
/// in its body's local frame; for the world, pivotA and axisA are in the world frame.
typedef struct tbBenchJoint
{
	tbBenchJointType type;
	int bodyA;
	int bodyB;
	tbVec3 pivotA, pivotB; ///< m
	tbVec3 axisA, axisB;   ///< hinge axis, or cone-twist twist axis (unit)
	tbVec3 refA, refB;	   ///< cone-twist reference perpendicular to the twist axis (unit)
	float swingLimit;	   ///< cone half angle, rad
	float twistLimit;	   ///< twist range +-twistLimit, rad
} tbBenchJoint;

/// Which stability fields a scene reports (SCENES.md, per scene).
typedef enum tbBenchMetricSet
{
	tbBenchMetrics_tower = 0, ///< pyramidN, stackN: top body, standing, fell_at_step, drift
	tbBenchMetrics_chains,	  ///< joint anchor and axis errors, lowest body
	tbBenchMetrics_rain,	  ///< ground penetration, escaped bodies, pile height
	tbBenchMetrics_ragdolls,  ///< joint errors, swing/twist limit excess, ground penetration
	tbBenchMetrics_pyramid3d, ///< pyramid1240: highest cube, horizontal displacement
} tbBenchMetricSet;

/// One scene, engine-neutral. Built once, then handed to every engine adapter read-only.
typedef struct tbBenchScene
{
	char name[32];
	tbBenchBody* bodies;
	int bodyCount, bodyCapacity;
	tbBenchStatic* statics;
	int staticCount, staticCapacity;
	tbBenchJoint* joints;
	int jointCount, jointCapacity;
	bool hasGround; ///< the half-space z <= 0
	float friction; ///< effective Coulomb coefficient of every contact pair
	int steps;		///< default step count
	tbBenchMetricSet metrics;
	int topBody;	 ///< tower: the body whose height decides standing
	float standingZ; ///< tower: standing while the top body's z > standingZ, m
} tbBenchScene;

/// Builds a scene; param is the scene family's size (pyramid base, stack height, chain count).
typedef void tbBenchBuildFcn( tbBenchScene* scene, int param );

/// One row of the scene table.
typedef struct tbBenchSceneEntry
{
	const char* name;
	tbBenchBuildFcn* build;
	int param;
	int steps;
} tbBenchSceneEntry;

/// The named scenes of SCENES.md, in default run order; count in *count.
TB_BENCH_API const tbBenchSceneEntry* tbBench_GetSceneTable( int* count );

/// Build a scene by name: a table entry, or a family name with a size suffix (pyramid7, stack50,
/// chains4). Returns false for an unknown name.
TB_BENCH_API bool tbBench_BuildScene( tbBenchScene* scene, const char* name );

TB_BENCH_API void tbBench_DestroyScene( tbBenchScene* scene );

/// True when some body has a collision shape (max_contact_pen is "na" otherwise).
TB_BENCH_API bool tbBench_SceneHasCollision( const tbBenchScene* scene );

// Output fields ----------------------------------------------------------------------------------

#define TB_BENCH_MAX_FIELDS 64

typedef struct tbBenchField
{
	char key[32];
	char value[48];
} tbBenchField;

/// An ordered list of key=value pairs: one output line, one CSV row.
typedef struct tbBenchFields
{
	tbBenchField items[TB_BENCH_MAX_FIELDS];
	int count;
} tbBenchFields;

/// Append key=value, the value formatted printf-style.
TB_BENCH_API void tbBench_AddField( tbBenchFields* fields, const char* key, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 3, 4 ) ) )
#endif
	;

/// The value of key, or NULL.
TB_BENCH_API const char* tbBench_FindField( const tbBenchFields* fields, const char* key );

// Engine adapters --------------------------------------------------------------------------------

/// Run settings handed to every adapter.
typedef struct tbBenchSettings
{
	int iterations;		///< solver iterations (TB_BENCH_DEFAULT_ITERATIONS unless --iters)
	bool iterationsSet; ///< --iters given: engines with another default (Tumble) use it too
	int threads;		///< worker threads (Tumble only; the reference engines run one)
	int subSteps;		///< Tumble soft-mode sub-steps; 0 keeps Tumble's default (--substeps)
	float jointHertz;	///< Tumble soft joint stiffness, Hz; 0 keeps Tumble's default (--joint-hertz)
	int solverMode;		///< Tumble's tbSolverMode + 1; 0 keeps Tumble's default (--solver)
	int globalMethod;	///< Tumble's tbGlobalMethod + 1 for the global mode; 0 keeps the default (--solver global-jacobi)
} tbBenchSettings;

/// The same C interface for every engine. Only step() is timed.
typedef struct tbBenchEngine
{
	const char* name;
	/// Build the scene. Returns NULL with *skipReason set (a key=value-safe word) when the engine
	/// cannot run the scene, or NULL with *skipReason NULL on failure.
	void* ( *create )( const tbBenchScene* scene, const tbBenchSettings* settings, const char** skipReason );
	/// Advance one frame of TB_BENCH_TIME_STEP: everything the engine does for a frame.
	void ( *step )( void* handle );
	/// Pose of dynamic body `index` (scene order): centre of mass position and orientation.
	void ( *getPose )( void* handle, int index, tbVec3* position, tbQuat* rotation );
	/// Deepest penetration (m, >= 0) found by the engine's own narrow phase run once more at the
	/// current poses, with the same pair filter as the simulation.
	float ( *maxContactPenetration )( void* handle );
	/// Solver iterations actually used (the iters= field).
	int ( *getIterations )( void* handle );
	/// Append engine-specific fields (lib=, precision=, ...).
	void ( *addFields )( void* handle, const tbBenchScene* scene, tbBenchFields* fields );
	void ( *destroy )( void* handle );
} tbBenchEngine;

TB_BENCH_API const tbBenchEngine* tbBench_GetTumbleEngine( void );
TB_BENCH_API const tbBenchEngine* tbBench_GetOdeEngine( void );
TB_BENCH_API const tbBenchEngine* tbBench_GetBulletEngine( void );

// Metrics ----------------------------------------------------------------------------------------

/// Which poses the per-step tracker needs after each step (read outside the timed region).
typedef enum tbBenchTrackNeed
{
	tbBenchTrack_none = 0,
	tbBenchTrack_topBody, ///< only scene->topBody
	tbBenchTrack_all,
} tbBenchTrackNeed;

/// Quantities observed during the run, not just at its end.
typedef struct tbBenchTracker
{
	int fellAtStep;			///< steps taken when the top body was first at or below standingZ (1-based); -1: never
	float runMaxJointError; ///< largest pivot separation of any joint after any step, m
} tbBenchTracker;

TB_BENCH_API tbBenchTrackNeed tbBench_GetTrackNeed( const tbBenchScene* scene );
TB_BENCH_API void tbBench_InitTracker( tbBenchTracker* tracker );
/// Update after step `stepIndex` (0-based). Poses are indexed by body; for tbBenchTrack_topBody
/// only the top body's entry must be valid.
TB_BENCH_API void tbBench_TrackStep( tbBenchTracker* tracker, const tbBenchScene* scene, int stepIndex,
									 const tbVec3* positions, const tbQuat* rotations );
/// Append the scene's stability fields computed from the final poses.
TB_BENCH_API void tbBench_AddMetrics( tbBenchFields* fields, const tbBenchScene* scene, const tbBenchTracker* tracker,
									  const tbVec3* positions, const tbQuat* rotations );

/// Pivot separation of a joint at the given poses, m.
TB_BENCH_API float tbBench_JointError( const tbBenchJoint* joint, const tbVec3* positions, const tbQuat* rotations );
