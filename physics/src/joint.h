// Tumble physics: joint storage and the interface the step uses to solve joints.
//
// Every joint type lives in its own file (distance_joint.c, hinge_joint.c, ...) and fills a
// tbJointClass: prepare once per step, warm start and solve per sub-step, plus the reaction and
// error it reports, and its name. The files around them:
// - joint.c: the type table, storage, body edge lists, creation checks, the public calls shared by
//   every type, and the world's interface (islands, collision filtering);
// - joint_solver.c: the step: sides, colouring, the stages per colour, breaking, poses;
// - joint_rows.c: the parts joints are built from (point block, angular blocks, quaternion rows,
//   limits, motors, springs), each with its equations;
// - joint_wide.c, joint_lanes.h: the same rows for hinge, ball and cone joints in SIMD lanes.
//
// Conventions shared by every type (the generic constraint framework of 000 ch. 7 and 004 sec. 3):
// - A row has a Jacobian J = (linear A, angular A, linear B, angular B) so that Cdot = J v, and an
//   accumulated impulse lambda applied as P = J^T lambda. Rows are solved with projected
//   Gauss-Seidel (000 ch. 5) with their accumulated impulses clamped, warm started (000 ch. 10);
//   coupled equality rows are solved together as 2x2 / 3x3 blocks (004 sec. 3.5).
// - The current error is measured from the sub-step motion (dp, dq) of the bodies, not from the
//   pose at the start of the step, so sub-stepping converges: anchors are rotated by dq and the
//   joint frames are dq * frame0.
// - Position error becomes a velocity bias per the world's solver mode (tbJointSoftness): soft
//   constraints in soft mode, beta / h * C (000 ch. 11) in baumgarte and split modes.
// - Inequality rows (limits) use a speculative bias C / h while inside the limit, so a body
//   arriving at a limit stops there within the sub-step instead of overshooting.
// - Accumulated impulses are per sub-step: the reaction force is lambda / h.
// SPDX-License-Identifier: MIT
#pragma once

#include "solver.h"
#include "tumble/joints.h"
#include "tumble/types.h"

#include <stddef.h>

typedef struct tbWorld tbWorld;
typedef struct tbBody tbBody;

/// Link of a joint into one body's joint list (key = jointId << 1 | edge index).
typedef struct tbJointEdge
{
	int bodyId; ///< -1 for the static world
	int prevKey;
	int nextKey;
} tbJointEdge;

#define TB_JOINT_NAME_LENGTH 32

/// One side of a joint for the current step.
typedef struct tbJointSide
{
	int solverIndex; ///< -1: the static world, a static body, or a body asleep this step
	float invMass;
	tbMat3 invI;     ///< world inverse inertia at the last refresh (once per sub-step, joint.h prepared rows)
	tbVec3 anchor0;  ///< centre of mass to the anchor, world frame, at the start of the step
	tbQuat frame0;   ///< world orientation of the joint frame at the start of the step
	tbVec3 center0;  ///< world centre of mass at the start of the step
} tbJointSide;

/// Velocities and sub-step motion of the two bodies, loaded for one warm start or solve.
typedef struct tbJointMotion
{
	tbVec3 vA, wA, vB, wB;
	tbVec3 dpA, dpB;
	tbQuat dqA, dqB;
	float mA, mB;            ///< inverse masses
	const tbMat3 *iA, *iB;   ///< world inverse inertias of the sub-step (the joint sides' invI)
} tbJointMotion;

/// Current joint geometry.
typedef struct tbJointPose
{
	tbVec3 rA, rB; ///< centres of mass to the anchors, world frame
	tbVec3 d;      ///< anchor B - anchor A, world frame
	tbQuat qA, qB; ///< world orientation of the joint frames
	tbQuat qRel;   ///< conj(qA) qB, sign chosen so that w >= 0: frame B relative to frame A
	/// Twist and swing angles of qRel, computed on first use (tbPoseTwist, tbPoseSwing): a limited
	/// joint reads them in every pass, and each is an atan2.
	float twist, swing;
	unsigned anglesKnown; ///< bit 0: twist, bit 1: swing
} tbJointPose;

/// A constraint row's Jacobian (see the header comment).
typedef struct tbJointRow
{
	tbVec3 linearA, angularA, linearB, angularB;
} tbJointRow;

/// A pure rotation row prepared once per step: Cdot = axis . (wB - wA). The axis and the effective
/// mass stay fixed through the sub-steps (like the contact rows); only C is measured again.
typedef struct tbAngularAxis
{
	tbVec3 axis; ///< world frame, from the pose at the start of the step
	float mass;  ///< 1 / (axis . (IA^-1 + IB^-1) axis), 0 when neither body can turn about it
} tbAngularAxis;

/// Coupled pure rotation rows (n = 2 or 3) prepared once per step, with the block's effective
/// mass inverted once.
typedef struct tbAngularBlock
{
	tbVec3 axes[3];
	tbMat3 invK; ///< (A^T (IA^-1 + IB^-1) A)^-1; zero when the block is (near) singular
	int n;
} tbAngularBlock;

// Per-type parameters and accumulated impulses ---------------------------------------------------

typedef struct tbDistanceJointData
{
	float length, minLength, maxLength;
	float hertz, dampingRatio;
	float stiffness, damping; ///< N/m, N s/m: the spring's own form when stiffness > 0
	bool enableSpring, enableLimit;
	float impulse;      ///< rigid rod or spring, along the axis
	float lowerImpulse; ///< >= 0: pushes apart at minLength
	float upperImpulse; ///< >= 0: pulls together at maxLength
	tbVec3 pointImpulse; ///< zero-length rigid rod = point constraint
	tbSoftness springSoftness;
	float maxSpringError; ///< m: the stretch at which the spring asks for the world's maxLinearSpeed
	tbVec3 axis;         ///< last axis used (fallback when the anchors coincide)
} tbDistanceJointData;

typedef struct tbBallJointData
{
	tbVec3 linearImpulse;
} tbBallJointData;

typedef struct tbHingeJointData
{
	bool enableLimit, enableMotor, enableServo;
	float lowerAngle, upperAngle;
	float motorSpeed, maxMotorTorque;
	float servoAngle, maxServoTorque, servoGain, maxServoSpeed;
	tbVec3 linearImpulse;
	float angularImpulse[2]; ///< about frame y and z (quaternion rows, 000 ch. 17)
	float lowerImpulse, upperImpulse, motorImpulse, servoImpulse;
	tbAngularBlock block; ///< step data: the quaternion rows
	tbAngularAxis twist;  ///< step data: limit, motor and servo row
} tbHingeJointData;

typedef struct tbConeJointData
{
	bool enableConeLimit, enablePyramidLimit, enableTwistLimit;
	float coneAngle, maxSwingY, maxSwingZ, lowerTwist, upperTwist;
	tbVec3 linearImpulse;
	float coneImpulse;
	float pyramidLowerImpulse[2], pyramidUpperImpulse[2];
	float twistImpulse; ///< equality twist lock (lower == upper)
	float twistLowerImpulse, twistUpperImpulse;
	tbAngularAxis twist;      ///< step data: twist rows
	tbAngularAxis swing;      ///< step data: cone limit row (axis = -swing direction)
	tbAngularAxis pyramid[2]; ///< step data: pyramid rows (quaternion rows y, z)
} tbConeJointData;

/// A cone joint's twist range narrower than this is locked with one equality row, rad.
#define TB_TWIST_LOCK_RANGE 1.0e-4f

static inline bool tbIsConeTwistLocked( const tbConeJointData* c )
{
	return c->enableTwistLimit && c->upperTwist - c->lowerTwist < TB_TWIST_LOCK_RANGE;
}

typedef struct tbFixedJointData
{
	tbVec3 linearImpulse;
	tbVec3 angularImpulse;
	tbAngularBlock block; ///< step data: the orientation lock rows
} tbFixedJointData;

typedef struct tbSliderJointData
{
	bool enableLimit, enableMotor;
	float lowerTranslation, upperTranslation;
	float motorSpeed, maxMotorForce;
	float linearImpulse[2]; ///< along frame y and z
	tbVec3 angularImpulse;
	float lowerImpulse, upperImpulse, motorImpulse;
} tbSliderJointData;

typedef struct tbSixDofJointData
{
	tbAxisMode mode[tbSixDof_axisCount];
	float lower[tbSixDof_axisCount], upper[tbSixDof_axisCount];
	bool enableMotor[tbSixDof_axisCount];
	float motorSpeed[tbSixDof_axisCount], maxMotorForce[tbSixDof_axisCount];
	float fixedImpulse[tbSixDof_axisCount];
	float lowerImpulse[tbSixDof_axisCount], upperImpulse[tbSixDof_axisCount];
	float motorImpulse[tbSixDof_axisCount];
} tbSixDofJointData;

typedef struct tbMotorJointData
{
	float motorSpeed, maxMotorTorque;
	tbVec3 linearImpulse;
	float angularImpulse[2];
	float motorImpulse;
} tbMotorJointData;

typedef struct tbMouseJointData
{
	tbVec3 target;
	float hertz, dampingRatio, maxForce;
	tbVec3 linearImpulse;
	tbSoftness softness;
} tbMouseJointData;

typedef struct tbWheelJointData
{
	bool enableSpring, enableLimit, enableMotor;
	float stiffness, damping, hertz, dampingRatio;
	float lowerTranslation, upperTranslation;
	float motorSpeed, maxMotorTorque;
	float linearImpulse[2];  ///< along frame A's x and y: B's anchor on the suspension line
	float angularImpulse[2]; ///< quaternion rows y and z: the axles parallel
	float springImpulse, lowerImpulse, upperImpulse, motorImpulse;
	tbSoftness springSoftness; ///< step data: the hertz form's softness
} tbWheelJointData;

typedef struct tbCustomJointData
{
	tbCustomRowsFcn* rowsFcn;
	void* context;
	bool everySubStep;
	int subStepIndex;
	tbVec3 motion0[4];                    ///< dpA, rotation A, dpB, rotation B when the rows were made
	int rowCount;
	tbCustomRow rows[TB_MAX_CUSTOM_ROWS]; ///< bounds converted to sub-step impulses in prepare
	float impulses[TB_MAX_CUSTOM_ROWS];
	float masses[TB_MAX_CUSTOM_ROWS];     ///< 1 / (J M^-1 J^T) of this sub-step, 0 for an empty row
	tbVec3 anchorB0;                      ///< for the torque about the anchor
	float stepScale;                      ///< dt / h of the last step
} tbCustomJointData;

/// A joint slot in the world's pool.
typedef struct tbJoint
{
	int id; ///< own index, -1 when the slot is free
	int nextFree;
	uint16_t generation;
	tbJointType type;
	tbJointEdge edges[2]; ///< edges[0]: body A, edges[1]: body B

	tbTransform localFrameA; ///< relative to body A's origin (world frame for the static world)
	tbTransform localFrameB;
	char name[TB_JOINT_NAME_LENGTH];
	void* userData;
	float breakForce, breakTorque;
	tbVec3 force, torque; ///< reaction on body B in the last solved step, N and N m
	float impulseH;       ///< sub-step the accumulated impulses belong to (0: none yet)
	bool collideConnected;
	bool enabled;
	bool broken;

	// Step data, filled by tbPrepareJoints.
	tbJointSide sideA, sideB;
	tbVec3 deltaCenter; ///< centre B - centre A at the start of the step
	tbVec3 rA, rB;      ///< centres of mass to the anchors at the last refresh (the sub-step's lever arms)
	/// Inverse effective mass of the point rows at the last refresh, kept in double: with a lever
	/// arm long against the body (finding 34: 141 km) K's eigenvalues differ by 1e9 and a float
	/// K or K^-1 loses the small one (tbInvertPointMass, joint_rows.c).
	double pointInvK[3][3];
	/// Current pose for joints with prepared rows: the bodies move only in tbIntegratePositions, so
	/// it is measured at the refresh and again once per relax call, not in every pass.
	tbJointPose pose;
	float peakForce, peakTorque; ///< largest reaction over the step's sub-steps (breakable joints)

	union
	{
		tbDistanceJointData distance;
		tbBallJointData ball;
		tbHingeJointData hinge;
		tbConeJointData cone;
		tbFixedJointData fixed;
		tbSliderJointData slider;
		tbSixDofJointData sixDof;
		tbMotorJointData motor;
		tbMouseJointData mouse;
		tbWheelJointData wheel;
		/// Its own allocation (528 bytes, four times any other type's), so the common record
		/// stays small for the solver's passes over it; owned by the joint, cloned by snapshots.
		tbCustomJointData* custom;
	};
} tbJoint;

/// What each joint type provides.
typedef struct tbJointClass
{
	/// Once per step after the sides are set: softness, callbacks, reset disabled parts.
	void ( *prepare )( tbStepContext* ctx, tbJoint* joint );
	void ( *warmStart )( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m );
	void ( *solve )( tbStepContext* ctx, tbJoint* joint, tbJointMotion* m, bool useBias );
	/// Multiply every accumulated impulse by scale (0 clears them).
	void ( *scaleImpulses )( tbJoint* joint, float scale );
	/// Accumulated linear and angular impulse applied to body B (world frame; angular about the anchor).
	void ( *getReaction )( const tbJoint* joint, tbVec3* linear, tbVec3* angular );
	/// Constraint violation at a pose: linear (m) and angular (rad), both >= 0.
	void ( *getError )( const tbJoint* joint, const tbJointPose* pose, float* linear, float* angular );
	/// Optional: rebuild the rows' Jacobians and effective masses from the current pose (joint->rA,
	/// rB and the sides' invI are already current). Called once per sub-step (joint.h, prepared rows).
	void ( *refresh )( tbStepContext* ctx, tbJoint* joint, const tbJointPose* pose );
	/// The type's name in the C API (tbJointTypeName), the Lua module and the runtime's reports.
	const char* name;
} tbJointClass;

/// The class of a joint type (the table in joint.c), NULL for an invalid type.
const tbJointClass* tbGetJointClass( tbJointType type );

extern const tbJointClass tb_distanceJointClass;
extern const tbJointClass tb_ballJointClass;
extern const tbJointClass tb_hingeJointClass;
extern const tbJointClass tb_coneJointClass;
extern const tbJointClass tb_fixedJointClass;
extern const tbJointClass tb_sliderJointClass;
extern const tbJointClass tb_sixDofJointClass;
extern const tbJointClass tb_motorJointClass;
extern const tbJointClass tb_mouseJointClass;
extern const tbJointClass tb_customJointClass;
extern const tbJointClass tb_wheelJointClass;

// Interface with the world and the solver (keep these signatures) --------------------------------

/// Free a joint slot and unlink it (world.c calls this when a body is destroyed).
void tbDestroyJointInternal( tbWorld* world, tbJoint* joint, bool wakeBodies );

/// Step interface, called by the solver for every awake enabled joint, in this order:
/// prepare once per step, then per sub-step warm start and solve(useBias), relax = solve(false).
/// False when the step's arena could not hold the colouring or the lanes: the step is then not
/// solved.
bool tbPrepareJoints( tbStepContext* ctx );
void tbWarmStartJoints( tbStepContext* ctx );
void tbSolveJoints( tbStepContext* ctx, bool useBias );
/// After the solve: reaction force and torque, break joints over their limits (one event each).
void tbFinalizeJoints( tbStepContext* ctx );

/// Enabled, unbroken joints with at least one awake dynamic body (the other awake, static,
/// kinematic or the world); a sleeping body on the other side is woken. Returns the count.
int tbCollectAwakeJoints( tbWorld* world, int* outIds );

/// Union-find links for islands: calls fcn(bodyIdA, bodyIdB) for every enabled, unbroken joint
/// between two bodies (joints to the static world link nothing and are skipped).
typedef void tbJointLinkFcn( tbWorld* world, int bodyIdA, int bodyIdB );
void tbLinkJoints( tbWorld* world, tbJointLinkFcn* fcn );

/// Sets the sleep timer of the bodies of every enabled, unbroken joint whose motor is set to a speed
/// with force to reach it: a weak motor accelerates its bodies slowly, and they would fall asleep
/// below the sleep threshold before reaching speed. A motor stalled at a limit keeps its island
/// awake too.
void tbKeepDrivenBodiesAwake( tbWorld* world );

/// False when bodies a and b are connected by an enabled joint with collideConnected == false.
bool tbShouldJointedBodiesCollide( tbWorld* world, int bodyIdA, int bodyIdB );

/// Destroy every joint and mover and free the joint pool (world teardown).
void tbDestroyAllJoints( tbWorld* world );

// Used by body.c (lead): keep these.
/// The joint behind an edge key (jointId << 1 | edge index).
tbJoint* tbGetJointByKey( tbWorld* world, int jointKey );
/// Fill up to capacity ids of the body's joints; returns the count.
int tbGetBodyJointIds( tbWorld* world, const tbBody* body, tbJointId* out, int capacity );
/// The body at the other end of a joint from bodyId (-1: the static world or invalid joint).
int tbGetJointOtherBody( tbWorld* world, tbJointId jointId, int bodyId );

// Shared by the joint type files ------------------------------------------------------------------

/// A live joint of the given type (or any type when type == tbJoint_typeCount); NULL otherwise.
/// worldOut may be NULL.
tbJoint* tbGetJointChecked( tbJointId id, tbJointType type, tbWorld** worldOut );
/// The same for setters: also refuses a locked world. Returns ok, invalidId or worldLocked.
tbResult tbGetMutableJoint( tbJointId id, tbJointType type, tbWorld** worldOut, tbJoint** jointOut );
/// Parameter calls shared by the joint types: a field of tbJoint by offset (TB_JOINT_FLOAT, _BOOL), set
/// on a live joint of the type in an unlocked world when valid (then the bodies wake). Return ok,
/// invalidId, worldLocked or invalidArgument; the getters return false / 0 for an invalid id.
/// The field's offset, only for a field of that type: a float setter handed a bool field (or the
/// reverse) does not compile.
#define TB_JOINT_FLOAT( member ) _Generic( ( (tbJoint*)0 )->member, float: offsetof( tbJoint, member ) )
#define TB_JOINT_BOOL( member ) _Generic( ( (tbJoint*)0 )->member, bool: offsetof( tbJoint, member ) )
tbResult tbSetJointBool( tbJointId id, tbJointType type, size_t field, bool value );
tbResult tbSetJointFloat( tbJointId id, tbJointType type, size_t field, float value, bool valid );
/// Two floats at once (a range, or a value and its cap).
tbResult tbSetJointFloats( tbJointId id, tbJointType type, size_t field0, float value0, size_t field1, float value1,
						   bool valid );
bool tbGetJointBool( tbJointId id, tbJointType type, size_t field );
float tbGetJointFloat( tbJointId id, tbJointType type, size_t field );
/// Wake both bodies (setters call this).
void tbWakeJointBodies( tbWorld* world, tbJoint* joint );
/// Common creation: validates the base def, allocates and links the joint. The type fills its
/// data afterwards. Returns NULL and sets *result on failure.
tbJoint* tbCreateJointInternal( tbWorldId worldId, const tbJointDef* def, tbJointType type, tbResult* result,
								tbWorld** worldOut );
tbJointId tbMakeJointId( const tbWorld* world, const tbJoint* joint );
/// Pose of the joint from the bodies' current transforms (getters, errors).
void tbComputeJointBodyPose( tbWorld* world, const tbJoint* joint, tbJointPose* pose );
/// Pose of the joint during the step from the loaded motion.
void tbComputeJointPose( const tbJoint* joint, const tbJointMotion* m, tbJointPose* pose );
/// Pose at the start of the step (prepared sides, no motion): axes for reporting reactions.
void tbComputeJointStartPose( const tbJoint* joint, tbJointPose* pose );
/// Current velocities (and masses) of the two bodies from the body store, zero for the world.
void tbLoadJointBodyMotion( tbWorld* world, const tbJoint* joint, tbJointMotion* m );
/// Along a frame-A axis (joint frame coordinates), of a joint of the given type: the anchors' offset
/// and its rate now (slider and wheel getters); 0 for a stale id.
float tbJointAxisTranslation( tbJointId jointId, tbJointType type, tbVec3 localAxis );
float tbJointAxisSpeed( tbJointId jointId, tbJointType type, tbVec3 localAxis );
/// Base def defaults shared by every tbDefault*JointDef.
tbJointDef tbMakeDefaultJointDef( void );
/// Store r in *result when result is not NULL and return the null id.
tbJointId tbFailJointCreation( tbResult* result, tbResult r );
/// x wrapped into [-pi, pi].
float tbWrapAngle( float x );
static inline int tbClampInt( int x, int lo, int hi )
{
	return x < lo ? lo : ( x > hi ? hi : x );
}
/// True for a finite float (not NaN or inf).
static inline bool tbIsFinite( float x )
{
	return tbIsValidFloat( x );
}
/// Largest row sum of |m|: a bound on the largest eigenvalue of an inverse inertia (the warm-start
/// guard, and which joints the lanes take).
static inline float tbMaxRowSum( tbMat3 m )
{
	tbMat3 t = tbTranspose( m );
	return tbMaxFloat( tbAbsFloat( t.cx.x ) + tbAbsFloat( t.cx.y ) + tbAbsFloat( t.cx.z ),
					   tbMaxFloat( tbAbsFloat( t.cy.x ) + tbAbsFloat( t.cy.y ) + tbAbsFloat( t.cy.z ),
								   tbAbsFloat( t.cz.x ) + tbAbsFloat( t.cz.y ) + tbAbsFloat( t.cz.z ) ) );
}
/// Bias and mass coefficients for equality rows: soft constraint, Baumgarte, or none (relax).
tbSoftness tbJointSoftness( const tbStepContext* ctx, bool useBias );

// Row algebra -------------------------------------------------------------------------------------

static inline float tbRowVelocity( const tbJointMotion* m, const tbJointRow* J )
{
	return tbDot( J->linearA, m->vA ) + tbDot( J->angularA, m->wA ) + tbDot( J->linearB, m->vB ) +
		   tbDot( J->angularB, m->wB );
}

/// J M^-1 K^T for two rows (the entry of the effective mass matrix).
static inline float tbRowCoupling( const tbJointMotion* m, const tbJointRow* J, const tbJointRow* K )
{
	return m->mA * tbDot( J->linearA, K->linearA ) + tbDot( J->angularA, tbMulMV( *m->iA, K->angularA ) ) +
		   m->mB * tbDot( J->linearB, K->linearB ) + tbDot( J->angularB, tbMulMV( *m->iB, K->angularB ) );
}

/// Apply P = J^T lambda.
static inline void tbRowApply( tbJointMotion* m, const tbJointRow* J, float lambda )
{
	m->vA = tbMulAdd( m->vA, m->mA * lambda, J->linearA );
	m->wA = tbMulAdd( m->wA, lambda, tbMulMV( *m->iA, J->angularA ) );
	m->vB = tbMulAdd( m->vB, m->mB * lambda, J->linearB );
	m->wB = tbMulAdd( m->wB, lambda, tbMulMV( *m->iB, J->angularB ) );
}

/// A pure relative-rotation row: Cdot = axis . (wB - wA).
static inline tbJointRow tbAngularRow( tbVec3 axis )
{
	tbJointRow J = { tb_vec3_zero, tbNeg( axis ), tb_vec3_zero, axis };
	return J;
}

/// A translation row along a world axis n that turns with body A (002 position axis constraint,
/// 004 sec. 3.7.4): C = n . d, Cdot = n . (vB + wB x rB - vA - wA x rA) + (wA x n) . d, so the
/// angular part of A is taken about the point of B's anchor, (rA + d) x n.
static inline tbJointRow tbLinearAxisRow( const tbJointPose* p, tbVec3 n )
{
	tbJointRow J = { tbNeg( n ), tbNeg( tbCross( tbAdd( p->rA, p->d ), n ) ), n, tbCross( p->rB, n ) };
	return J;
}

// Position correction capped at TB_JOINT_MAX_CORRECTION_SPEED (joints.h). Normal errors stay far
// below it: the chains' worst whip, 12 cm at the default 115 /s bias rate, asks for 14 m/s. Springs
// are force laws and are not capped.
static inline float tbClampCorrection( float bias )
{
	return tbClampFloat( bias, -TB_JOINT_MAX_CORRECTION_SPEED, TB_JOINT_MAX_CORRECTION_SPEED );
}

static inline tbVec3 tbClampCorrectionVec( tbVec3 bias )
{
	float lengthSquared = tbLengthSquared( bias );
	const float max = TB_JOINT_MAX_CORRECTION_SPEED;
	return lengthSquared > max * max ? tbMulSV( max / sqrtf( lengthSquared ), bias ) : bias;
}

// A motor's target speed within what a body may reach (TB_MAX_SPEED m/s for a translation row,
// TB_MAX_ANGULAR_SPEED rad/s for a rotation row): any finite target is accepted, but a motor of unlimited torque (the motor joint's default)
// driven at 1e38 rad/s gave an infinite velocity in one pass (a fuzz_world finding).
static inline float tbClampMotorSpeed( float speed, float limit )
{
	return tbClampFloat( speed, -limit, limit );
}

/// Equality row: lambda = -massScale K^-1 (Cdot + biasRate C) - impulseScale * accumulated.
float tbSolveEqualityRow( tbJointMotion* m, const tbJointRow* J, float C, tbSoftness soft, float* accumulated );
/// Inequality row C >= 0 with a non-negative accumulated impulse (limits). Speculative when C > 0.
void tbSolveLimitRow( const tbStepContext* ctx, tbJointMotion* m, const tbJointRow* J, float C, bool useBias,
					  float* accumulated );
/// Velocity row driving Cdot to speed with |accumulated| <= maxImpulse (motors).
void tbSolveMotorRow( tbJointMotion* m, const tbJointRow* J, float speed, float maxSpeed, float maxImpulse,
					  float* accumulated );
/// Soft row towards C = 0 with given softness and |accumulated| <= maxImpulse (springs, servos).
void tbSolveSpringRow( tbJointMotion* m, const tbJointRow* J, float C, tbSoftness soft, float maxImpulse,
					   float* accumulated );
/// Coupled equality rows (n = 2 or 3) solved as one block (004 sec. 3.5).
void tbSolveEqualityBlock( tbJointMotion* m, const tbJointRow* J, const float* C, int n, tbSoftness soft,
						   float* accumulated );
/// Point constraint block: anchors coincide (004 sec. 3.7.2), K = (mA + mB) E - [rA] IA^-1 [rA] - [rB] IB^-1 [rB].
void tbSolvePointBlock( tbJointMotion* m, const tbJointPose* p, tbSoftness soft, tbVec3* accumulated );
/// Coupled pure rotation rows (n = 2 or 3) with world axes a_i (J = (0, -a_i, 0, a_i)) as one block.
void tbSolveAngularBlock( tbJointMotion* m, const tbVec3* axes, const float* C, int n, tbSoftness soft,
						  float* accumulated );
/// Apply an angular impulse (on B; the opposite on A).
void tbApplyAngularImpulse( tbJointMotion* m, tbVec3 impulse );

// Rows prepared once per sub-step ------------------------------------------------------------------
// A joint's Jacobians and effective masses (3x3 and 2x2 blocks inverted once) are rebuilt at the
// start of every sub-step (tbJointClass.refresh: from tbPrepareJoints, then from the warm start, or
// the sub-step's first biased solve when warm starting is off) and reused by all of its passes,
// biased and relax (6 per sub-step with the default stiff joints). Only the position error C is
// measured again in every pass, from the bodies' dp and dq, which soft stepping needs.
// Why not once per step like the contact rows: a whipping chain turns its links by up to ~0.5 rad
// in a 1/60 s step, and lever arms that stale made the 20 x 100 chains explode (3 m gaps); within
// a sub-step (1/480 s) they turn by < 0.06 rad.

/// The point rows' inverse effective mass into joint->pointInvK, from joint->rA, rB and the sides' invI.
void tbPreparePoint( tbJoint* joint );
/// Point constraint with the prepared lever arms; d = current anchor B - anchor A.
void tbSolvePoint( tbJointMotion* m, const tbJoint* joint, tbVec3 d, tbSoftness soft, tbVec3* accumulated );
/// Apply a point impulse at the prepared lever arms (warm start).
void tbApplyPreparedPointImpulse( tbJointMotion* m, const tbJoint* joint, tbVec3 impulse );
/// A rotation row about a world axis with its effective mass for this sub-step.
tbAngularAxis tbMakeAngularAxis( const tbJoint* joint, tbVec3 axis );
/// Fill block->invK for the block->n axes already in block->axes.
void tbPrepareAngularBlock( const tbJoint* joint, tbAngularBlock* block );
/// Equality block on prepared axes: C[i] is the current error of row i.
void tbSolvePreparedAngularBlock( tbJointMotion* m, const tbAngularBlock* block, const float* C, tbSoftness soft,
								  float* accumulated );
/// sum accumulated[i] axes[i]: the block's angular impulse.
tbVec3 tbAngularBlockImpulse( const tbAngularBlock* block, const float* accumulated );
/// Single rotation rows on a prepared axis (sign = +1 or -1 flips the row).
void tbSolveAngularLimit( const tbStepContext* ctx, tbJointMotion* m, const tbAngularAxis* row, float sign, float C,
						  bool useBias, float* accumulated );
void tbSolveAngularMotor( tbJointMotion* m, const tbAngularAxis* row, float speed, float maxImpulse,
						  float* accumulated );
void tbSolveAngularEquality( tbJointMotion* m, const tbAngularAxis* row, float C, tbSoftness soft,
							 float* accumulated );
/// Apply a point impulse at the anchors (warm start).
void tbApplyPointImpulse( tbJointMotion* m, const tbJointPose* p, tbVec3 impulse );

// Quaternion constraint geometry (000 ch. 15-20) --------------------------------------------------

/// Quaternion row i of qRel = conj(qA) qB = (w, v), for the error C = v_i (000 ch. 15-17): the book
/// takes the axis a_i = 1/2 R(qA) (w e_i + v x e_i) with d(v_i)/dt = a_i . (wB - wA) (from dqRel/dt
/// = 1/2 (conj(qA) (wB - wA) qA) qRel; its P L(q1*) R(q2 q0*) P^T e_i in the joint frame), whose
/// length is 1/2 sqrt(1 - v_i^2): it vanishes where v_i is extreme (a half turn about an axis
/// across e_i), and a bias there asks for an angular velocity ~ 1 / length (fuzz finding 36: a
/// hinge and a slider at a half turn, non-finite in two steps). Here the axis is divided by
/// sqrt(1 - v_i^2), which keeps it at its rest length 1/2 at every pose: the same row while the
/// joint holds, and the exact Jacobian of asin(v_i), which equals v_i to first order. The error
/// stays v_i, bounded by 1, so the bias stays bounded too. Zero at the exact extreme.
tbVec3 tbQuatRowAxis( const tbJointPose* p, int i );
/// Error of a full rotation lock whose rows are the world axes (Cdot = wB - wA): frame B's
/// rotation from frame A as a world rotation vector theta n, theta in [0, pi] (joint_rows.c says why the
/// quaternion rows are not used for it).
tbVec3 tbRotationLockError( const tbJointPose* p );
/// Twist angle of qRel about frame x (swing-twist decomposition), rad in [-pi, pi].
float tbTwistAngle( tbQuat qRel );
/// World axis with d(twist)/dt = axis . (wB - wA).
tbVec3 tbTwistAxis( const tbJointPose* p );
/// Angle between the two frames' x axes, rad in [0, pi].
float tbSwingAngle( tbQuat qRel );
/// tbTwistAngle( p->qRel ), cached in the pose until it is measured again.
float tbPoseTwist( tbJointPose* p );
/// tbSwingAngle( p->qRel ), cached in the pose until it is measured again.
float tbPoseSwing( tbJointPose* p );
/// The same row with the opposite sign (the upper side of a limit).
static inline tbJointRow tbNegateRow( tbJointRow J )
{
	tbJointRow K = { tbNeg( J.linearA ), tbNeg( J.angularA ), tbNeg( J.linearB ), tbNeg( J.angularB ) };
	return K;
}

// Row geometry of the types without prepared rows, shared by their solve and the global solver
// (global_solver.c assembles the same rows into its system) -----------------------------------------

/// Distance joint (distance_joint.c): a rigid rod when there is no spring and the limits leave no
/// slack; a point constraint when that rod is shorter than TB_MIN_ROD_LENGTH.
bool tbDistanceIsRigid( const tbDistanceJointData* d );
bool tbDistanceIsPointMode( const tbDistanceJointData* d );
float tbDistanceRodLength( const tbDistanceJointData* d );
bool tbDistanceHasSpringForce( const tbDistanceJointData* d );
/// The rod's axis at a pose and the current length (the last good axis when the anchors meet).
tbVec3 tbDistanceAxis( tbJoint* joint, const tbJointPose* p, float* length );
tbJointRow tbDistanceRow( const tbJointPose* p, tbVec3 n );
/// The spring's softness for a pass, with the row J whose effective mass the N/m form is stated in.
tbSoftness tbDistanceSpringSoftness( const tbStepContext* ctx, tbDistanceJointData* d, const tbJointMotion* m,
									 const tbJointRow* J );

/// Slider joint rows at a pose (slider_joint.c).
typedef struct tbSliderRows
{
	tbVec3 axis;
	tbJointRow axial;     ///< along the slider axis
	tbJointRow normal[2]; ///< along frame y and z
	tbVec3 lock[3];       ///< rotation lock rows: the world axes
} tbSliderRows;
void tbMakeSliderRows( const tbJointPose* p, tbSliderRows* rows );

/// Six-dof joint rows at a pose (six_dof_joint.c).
typedef struct tbSixDofRows
{
	tbVec3 axis[3];      ///< frame A axes, world
	tbJointRow row[6];   ///< constraint rows: 3 translations, twist, swing y, swing z
	tbJointRow motor[6]; ///< motor rows: translations as above, then rotation rates
	float position[6];   ///< e_i . d (m); twist angle (rad); swing y and z components
} tbSixDofRows;
void tbMakeSixDofRows( const tbJointPose* p, tbSixDofRows* r );
/// A limit in the units of axis i's C: metres, radians for the twist, sin(angle / 2) for the swings.
float tbSixDofAxisLimit( int axis, float value );

/// Wheel joint rows at a pose (wheel_joint.c).
typedef struct tbWheelRows
{
	tbVec3 axle, suspension;
	tbJointRow line[2]; ///< along frame A's x and y
	tbJointRow travel;  ///< along frame A's z
	tbVec3 angular[2];  ///< quaternion rows y and z
	tbVec3 twist;       ///< spin
} tbWheelRows;
void tbMakeWheelRows( const tbJointPose* p, tbWheelRows* rows );
bool tbWheelHasSpring( const tbWheelJointData* w );
/// The suspension spring's softness for a pass (the N/m form made a frequency of J's effective mass).
tbSoftness tbWheelSpringSoftness( const tbStepContext* ctx, const tbWheelJointData* w, const tbJointMotion* m,
								  const tbJointRow* J );

/// Sub-step impulse bound from a force or torque bound (FLT_MAX stays unbounded).
static inline float tbMaxImpulse( float maxForce, float h )
{
	return maxForce >= FLT_MAX ? FLT_MAX : maxForce * h;
}
