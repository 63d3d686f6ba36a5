// Tumble physics: joints, motors, movers and custom constraints.
//
// Every joint links body A to body B (either may be the null id: the static world) through two
// local frames. A frame is an anchor point plus an orientation whose x axis is the joint axis
// (hinge axis, slider axis, twist axis) and whose y axis is the reference perpendicular (zero
// angle). Frames are given relative to each body's origin (or in world coordinates for the null
// body). When both frames coincide in the world the joint is at rest: zero angle, zero
// translation. tbJointFramesFromWorld builds both frames from one world anchor and axis.
//
// Joints are solved by the world's sequential-impulse solver, interleaved with contacts and warm
// started. Every parameter can be changed while the simulation runs; setters wake the bodies.
// During a step the world is locked and mutating calls return tbResult_worldLocked.
// SI units: m, kg, s, rad, N, N m. docs/JOINTS.md lists every joint and the reference it follows.
// SPDX-License-Identifier: MIT
#pragma once

#include "base.h"
#include "id.h"
#include "math_functions.h"
#include "types.h"

#include <float.h>

/// Joint kinds.
typedef enum tbJointType
{
	tbJoint_distance = 0, ///< rod, rope (min/max length) or spring between two anchors
	tbJoint_ball,         ///< ball-and-socket: anchors coincide, rotation free
	tbJoint_hinge,        ///< revolute about the frame x axis: limits, motor, servo
	tbJoint_cone,         ///< constant-velocity / cone-twist: swing cone, pyramid and twist limits
	tbJoint_fixed,        ///< weld: no relative motion
	tbJoint_slider,       ///< prismatic along the frame x axis: limits, motor
	tbJoint_sixDof,       ///< configurable: each of x y z rx ry rz free, limited or fixed, motor per axis
	tbJoint_motor,        ///< rotary motor: holds the anchor and axis, drives the speed about the axis
	tbJoint_mouse,        ///< soft drag of body B's anchor to a target point (viewer picking)
	tbJoint_custom,       ///< up to 6 rows supplied by a callback once per step
	tbJoint_wheel,        ///< wheel on a suspension: free spin about frame x, spring along frame A's z, motor
	tbJoint_typeCount
} tbJointType;

/// Fields every joint def shares. Set by each tbDefault*JointDef function.
typedef struct tbJointDef
{
	tbBodyId bodyA;            ///< null id = the static world
	tbBodyId bodyB;            ///< null id = the static world (not both null)
	tbTransform localFrameA;   ///< joint frame in body A's frame (world frame when A is null)
	tbTransform localFrameB;   ///< joint frame in body B's frame (world frame when B is null)
	bool collideConnected;     ///< let the two bodies collide with each other, default false
	float breakForce;          ///< N: the joint breaks when its constraint force exceeds this, default FLT_MAX
	float breakTorque;         ///< N m: the same for the constraint torque, default FLT_MAX
	const char* name;          ///< optional, copied (up to 31 bytes; a longer name is cut before the first UTF-8 character that does not fit)
	void* userData;
	int internalValue;         ///< set by the default functions; catches uninitialised defs
} tbJointDef;

/// Distance joint. Without a spring it is a rigid rod of `length`, unless enableLimit is set:
/// then it is a rope that is slack between minLength and maxLength (rigid when they are equal).
/// With a spring it pulls towards `length` and the limits (when enabled) still hold.
/// A rigid zero length makes it a point constraint (the book's distance constraint, 000 ch. 8).
/// length and minLength are at most TB_MAX_JOINT_LENGTH (larger values are refused); maxLength may
/// be anything from minLength up (FLT_MAX: no upper limit).
typedef struct tbDistanceJointDef
{
	tbJointDef base;
	float length;       ///< rest length, m (0 .. TB_MAX_JOINT_LENGTH), default 1
	bool enableSpring;  ///< default false
	/// spring stiffness as a frequency, Hz (>= 0; 0 = no spring force), default 0. The frequency is
	/// that of the joint's effective mass along its axis, 1 / (J M^-1 J^T): for a body hanging from
	/// the world at its centre of mass, its mass; between two such bodies, m1 m2 / (m1 + m2). So
	/// the stiffness k = m (2 pi hz)^2 changes with the bodies; give stiffness for a fixed one.
	float hertz;
	float dampingRatio; ///< spring damping ratio (>= 0), default 0
	float stiffness;    ///< > 0: the spring is k in N/m (hertz and dampingRatio unused), default 0
	float damping;      ///< with stiffness: the damper, N s/m (>= 0), default 0
	bool enableLimit;   ///< rope limits, default false
	float minLength;    ///< m (0 .. TB_MAX_JOINT_LENGTH), default 0
	float maxLength;    ///< m, default FLT_MAX
} tbDistanceJointDef;

/// Largest rest or minimum length of a distance joint, m: the world's coordinate range
/// (TB_MAX_POSITION). A longer rod could never be satisfied and its error overflows the solver.
/// Largest |servo angle| a hinge accepts, rad (it is wrapped into [-pi, pi]; past this the float
/// has lost the fraction of a turn).
#define TB_MAX_SERVO_ANGLE 1.0e3f
#define TB_MAX_JOINT_LENGTH 1.0e6f

/// Largest velocity a joint's position correction asks for: m/s on linear rows, rad/s on angular
/// ones. A joint created (or teleported) far from its rest pose pulls its bodies back at this speed
/// instead of with an impulse that grows with the error (a fixed joint 141 km from its rest pose
/// threw its body to NaN). Springs are force laws and are not capped.
#define TB_JOINT_MAX_CORRECTION_SPEED 50.0f

/// Ball-and-socket joint: only the anchors (the frame origins) matter.
typedef struct tbBallJointDef
{
	tbJointDef base;
} tbBallJointDef;

/// Hinge about the frame x axis, in the quaternion formulation of 000 ch. 17 (no mirror-image
/// solution). The angle is that of frame B's y axis about x relative to frame A, in [-pi, pi].
typedef struct tbHingeJointDef
{
	tbJointDef base;
	bool enableLimit;     ///< default false
	float lowerAngle;     ///< rad, in [-pi, pi], lower <= upper
	float upperAngle;     ///< rad, in [-pi, pi]
	bool enableMotor;     ///< velocity motor, default false
	float motorSpeed;     ///< target relative angular speed, rad/s
	float maxMotorTorque; ///< N m (>= 0), default 0
	bool enableServo;     ///< drive the angle to servoAngle, default false
	float servoAngle;     ///< rad, wrapped into [-pi, pi]; |angle| at most TB_MAX_SERVO_ANGLE
	float maxServoTorque; ///< N m (>= 0), default 0
	float servoGain;      ///< 1/s (> 0): the servo drives the speed to gain * (servoAngle - angle), default 10
	float maxServoSpeed;  ///< rad/s (> 0): cap on that speed, default 2 pi
} tbHingeJointDef;

/// Constant-velocity / cone-twist joint (000 ch. 19-20). Swing is the rotation that tilts frame
/// B's x axis (the twist axis) away from frame A's; twist is the remaining rotation about it
/// (swing-twist decomposition). With the default twist limit [0, 0] it is the book's CV joint.
typedef struct tbConeJointDef
{
	tbJointDef base;
	bool enableConeLimit;    ///< default false
	float coneAngle;         ///< largest swing angle between the twist axes, rad, in (0, pi], default pi/4
	bool enablePyramidLimit; ///< default false: the book's pyramid limit (000 ch. 20)
	float maxSwingY;         ///< rad, in (0, pi]: rotation about the frame y axis, default pi/4
	float maxSwingZ;         ///< rad, in (0, pi]: rotation about the frame z axis, default pi/4
	bool enableTwistLimit;   ///< default true
	float lowerTwist;        ///< rad, in [-pi, pi], default 0
	float upperTwist;        ///< rad, in [-pi, pi], default 0
} tbConeJointDef;

/// Fixed (weld) joint: the point constraint plus the quaternion orientation lock (000 ch. 16).
typedef struct tbFixedJointDef
{
	tbJointDef base;
} tbFixedJointDef;

/// Slider (prismatic) along the frame x axis, rotation locked (004 sec. 3.7.4). Translation is
/// the offset of frame B's origin from frame A's along A's x axis.
typedef struct tbSliderJointDef
{
	tbJointDef base;
	bool enableLimit;       ///< default false
	float lowerTranslation; ///< m, lower <= upper
	float upperTranslation; ///< m
	bool enableMotor;       ///< default false
	float motorSpeed;       ///< m/s
	float maxMotorForce;    ///< N (>= 0), default 0
} tbSliderJointDef;

/// Wheel joint, for a wheel that is a body (body B) on a chassis (body A). Body B spins freely
/// about frame B's x axis (the axle), which stays parallel to frame A's x axis (no camber, no
/// steering: turn frame A to steer); frame B's origin stays on the line through frame A's origin
/// along frame A's z axis (the suspension axis), where a spring holds it at translation 0 (both
/// frames together) between optional limits. An optional motor drives the spin. The suspension
/// translation is the offset of frame B's origin from frame A's along A's z axis.
typedef struct tbWheelJointDef
{
	tbJointDef base;
	bool enableSpring;      ///< default true (false: the suspension slides freely between the limits)
	/// Spring stiffness, N/m (0 .. TB_MAX_FORCE): > 0 uses stiffness and damping; 0 uses hertz and
	/// dampingRatio, default 0
	float stiffness;
	float damping;          ///< with stiffness: the damper, N s/m (0 .. TB_MAX_FORCE), default 0
	/// Spring as a frequency, Hz (0 .. TB_MAX_HERTZ), of the suspension row's effective mass (for a
	/// wheel on a chassis fixed in the world, the wheel's mass), default 4
	float hertz;
	float dampingRatio;     ///< with hertz (0 .. TB_MAX_DAMPING), default 0.7
	bool enableLimit;       ///< default false
	float lowerTranslation; ///< m along the suspension axis, lower <= upper, within TB_MAX_JOINT_LENGTH
	float upperTranslation; ///< m
	bool enableMotor;       ///< default false
	float motorSpeed;       ///< spin of B relative to A about the axle, rad/s (within TB_MAX_ANGULAR_SPEED)
	float maxMotorTorque;   ///< N m (>= 0; FLT_MAX: no cap), default 0
} tbWheelJointDef;

/// Axes of the 6-DOF joint: translations along and rotations about frame A's axes.
typedef enum tbSixDofAxis
{
	tbSixDof_x = 0,
	tbSixDof_y,
	tbSixDof_z,
	tbSixDof_rx,
	tbSixDof_ry,
	tbSixDof_rz,
	tbSixDof_axisCount
} tbSixDofAxis;

/// What a 6-DOF axis allows.
typedef enum tbAxisMode
{
	tbAxis_free = 0, ///< unconstrained
	tbAxis_limited,  ///< between lower and upper (m, or rad for rotations)
	tbAxis_fixed,    ///< locked at zero
	tbAxis_modeCount
} tbAxisMode;

/// Configurable 6-DOF joint (002). Positions are measured along frame A's axes. Rotations split
/// the relative rotation into swing * twist: rx is the twist about x (rad, [-pi, pi]), ry and rz
/// are 2 asin of the swing's y and z components (rad; exact for a rotation about one axis), so ry
/// and rz keep their meaning while rx turns freely. Motors drive the translation rates along the
/// axes, the twist rate, and the relative angular velocity about y and z.
typedef struct tbSixDofJointDef
{
	tbJointDef base;
	tbAxisMode mode[tbSixDof_axisCount]; ///< default all fixed
	float lower[tbSixDof_axisCount];     ///< m or rad (rotations in [-pi, pi])
	float upper[tbSixDof_axisCount];     ///< m or rad
	bool enableMotor[tbSixDof_axisCount];
	float motorSpeed[tbSixDof_axisCount];    ///< m/s or rad/s
	float maxMotorForce[tbSixDof_axisCount]; ///< N or N m (>= 0)
} tbSixDofJointDef;

/// Rotary motor (000 ch. 22): holds the anchors together and frame B's x axis on frame A's, and
/// drives the relative angular speed about it, with at most maxMotorTorque.
typedef struct tbMotorJointDef
{
	tbJointDef base;
	float motorSpeed;     ///< rad/s, default 0
	float maxMotorTorque; ///< N m (>= 0), default FLT_MAX (the book's unlimited motor)
} tbMotorJointDef;

/// Mouse (drag) joint: a soft spring from body B's anchor (localFrameB origin) to a world target.
/// Body A is ignored (use the null id).
typedef struct tbMouseJointDef
{
	tbJointDef base;
	tbVec3 target;      ///< world point, m
	float hertz;        ///< Hz (> 0), default 5
	float dampingRatio; ///< default 0.7
	float maxForce;     ///< N (>= 0), default 1000
} tbMouseJointDef;

/// Largest number of rows a custom joint can supply.
#define TB_MAX_CUSTOM_ROWS 6

/// What a custom joint's callback sees, once per step before solving: world joint frames, centres
/// of mass and velocities at the start of the step. A null body has an identity pose (frames in
/// world coordinates) and zero velocity.
typedef struct tbCustomRowsInput
{
	tbTransform frameA;      ///< world pose of frame A
	tbTransform frameB;      ///< world pose of frame B
	tbVec3 centerA, centerB; ///< world centres of mass, m
	tbVec3 linearVelocityA, angularVelocityA; ///< m/s, rad/s
	tbVec3 linearVelocityB, angularVelocityB;
	float timeStep;          ///< s, the whole step
	float subStep;           ///< s, the sub-step (soft mode; equal to timeStep otherwise)
	int subStepIndex;        ///< 0 for the call at the start of the step
} tbCustomRowsInput;

/// One constraint row. The row solves J v = bias - correction(positionError) with the world's
/// position correction (soft, Baumgarte or split), keeping the accumulated impulse in
/// [lower, upper]. It is solved hard (no softness) and warm started by row index: keep the order.
typedef struct tbCustomRow
{
	float J[12];         ///< linear A, angular A, linear B, angular B (world frame, about the centres of mass)
	float bias;          ///< target of J v, m/s or rad/s (e.g. a motor speed); 0 for a plain constraint
	float positionError; ///< C, m or rad, at the step start; the solver removes it and tracks it through sub-steps
	float lower;         ///< impulse bound over one step, N s (-FLT_MAX: unbounded)
	float upper;         ///< N s (FLT_MAX: unbounded)
} tbCustomRow;

/// Fill up to TB_MAX_CUSTOM_ROWS rows; return how many. Called once per step while the world is
/// locked (mutating calls are refused).
typedef int tbCustomRowsFcn( tbJointId jointId, const tbCustomRowsInput* input, tbCustomRow rows[TB_MAX_CUSTOM_ROWS],
							 void* context );

/// Custom row joint: the rows come from the callback, once per step. The Jacobian is then fixed
/// for the step; in soft mode the bodies turn during the sub-steps, so rows whose geometry turns
/// with the bodies (anchors) drift by O(w^2 r h^2) per step. everySubStep calls the callback again
/// before every sub-step with the current poses, which removes that drift at the cost of
/// subSteps calls per step.
typedef struct tbCustomJointDef
{
	tbJointDef base;
	tbCustomRowsFcn* rowsFcn; ///< required
	void* context;            ///< passed to rowsFcn
	bool everySubStep;        ///< default false: once per step
} tbCustomJointDef;

TB_API tbDistanceJointDef tbDefaultDistanceJointDef( void );
TB_API tbBallJointDef tbDefaultBallJointDef( void );
TB_API tbHingeJointDef tbDefaultHingeJointDef( void );
TB_API tbConeJointDef tbDefaultConeJointDef( void );
TB_API tbFixedJointDef tbDefaultFixedJointDef( void );
TB_API tbSliderJointDef tbDefaultSliderJointDef( void );
TB_API tbSixDofJointDef tbDefaultSixDofJointDef( void );
TB_API tbMotorJointDef tbDefaultMotorJointDef( void );
TB_API tbMouseJointDef tbDefaultMouseJointDef( void );
TB_API tbCustomJointDef tbDefaultCustomJointDef( void );
TB_API tbWheelJointDef tbDefaultWheelJointDef( void );

/// Fill def->bodyA, def->bodyB and both local frames from a world anchor (m) and a world axis
/// (any length > 0): frame x = axis, frame y = a fixed perpendicular. The bodies' current poses
/// define the rest pose. Returns invalidId for stale bodies, invalidArgument for NaN or a zero axis.
TB_API tbResult tbJointFramesFromWorld( tbBodyId bodyA, tbBodyId bodyB, tbVec3 worldAnchor, tbVec3 worldAxis,
										tbJointDef* def );
/// The same from a complete world frame (anchor + orientation: x = joint axis, y = reference).
TB_API tbResult tbJointFramesFromWorldFrame( tbBodyId bodyA, tbBodyId bodyB, tbTransform worldFrame, tbJointDef* def );

/// Create joints. A null id is returned (and *result set when not NULL) for bad input: NaN,
/// unnormalisable frames, the same body twice, both bodies null, stale ids, bodies of another
/// world, lower > upper, negative forces, a locked world.
TB_API tbJointId tbCreateDistanceJoint( tbWorldId worldId, const tbDistanceJointDef* def, tbResult* result );
TB_API tbJointId tbCreateBallJoint( tbWorldId worldId, const tbBallJointDef* def, tbResult* result );
TB_API tbJointId tbCreateHingeJoint( tbWorldId worldId, const tbHingeJointDef* def, tbResult* result );
TB_API tbJointId tbCreateConeJoint( tbWorldId worldId, const tbConeJointDef* def, tbResult* result );
TB_API tbJointId tbCreateFixedJoint( tbWorldId worldId, const tbFixedJointDef* def, tbResult* result );
TB_API tbJointId tbCreateSliderJoint( tbWorldId worldId, const tbSliderJointDef* def, tbResult* result );
TB_API tbJointId tbCreateSixDofJoint( tbWorldId worldId, const tbSixDofJointDef* def, tbResult* result );
TB_API tbJointId tbCreateMotorJoint( tbWorldId worldId, const tbMotorJointDef* def, tbResult* result );
TB_API tbJointId tbCreateMouseJoint( tbWorldId worldId, const tbMouseJointDef* def, tbResult* result );
TB_API tbJointId tbCreateCustomJoint( tbWorldId worldId, const tbCustomJointDef* def, tbResult* result );
TB_API tbJointId tbCreateWheelJoint( tbWorldId worldId, const tbWheelJointDef* def, tbResult* result );

/// Destroy a joint (wakes its bodies).
TB_API tbResult tbDestroyJoint( tbJointId jointId );
TB_API bool tbJoint_IsValid( tbJointId jointId );
/// Type of a valid joint; tbJoint_typeCount for an invalid id.
TB_API tbJointType tbJoint_GetType( tbJointId jointId );
/// Lower-case name of a joint type ("hinge"), or NULL for a bad value.
TB_API const char* tbJointTypeName( tbJointType type );
/// Joint type from its name; tbJoint_typeCount when unknown.
TB_API tbJointType tbJointTypeFromName( const char* name );
TB_API tbWorldId tbJoint_GetWorld( tbJointId jointId );
TB_API tbBodyId tbJoint_GetBodyA( tbJointId jointId );
TB_API tbBodyId tbJoint_GetBodyB( tbJointId jointId );
TB_API tbTransform tbJoint_GetLocalFrameA( tbJointId jointId );
TB_API tbTransform tbJoint_GetLocalFrameB( tbJointId jointId );
/// Move the frames while running (the rest pose changes; impulses are kept).
TB_API tbResult tbJoint_SetLocalFrames( tbJointId jointId, tbTransform localFrameA, tbTransform localFrameB );
/// Current world poses of the two joint frames (for drawing).
TB_API tbTransform tbJoint_GetWorldFrameA( tbJointId jointId );
TB_API tbTransform tbJoint_GetWorldFrameB( tbJointId jointId );
/// Current constraint violation, from the bodies' poses: posError (m) is the length of the
/// violated linear part (anchor gap, rope stretch, limit excess), angleError (rad) the angular part.
/// Either pointer may be NULL.
TB_API tbResult tbJoint_GetError( tbJointId jointId, float* posError, float* angleError );
TB_API bool tbJoint_IsBroken( tbJointId jointId );
/// Disable or enable a joint. Enabling a broken joint repairs it.
TB_API tbResult tbJoint_SetEnabled( tbJointId jointId, bool enabled );
TB_API bool tbJoint_IsEnabled( tbJointId jointId );
TB_API tbResult tbJoint_SetBreakForce( tbJointId jointId, float force );
TB_API float tbJoint_GetBreakForce( tbJointId jointId );
TB_API tbResult tbJoint_SetBreakTorque( tbJointId jointId, float torque );
TB_API float tbJoint_GetBreakTorque( tbJointId jointId );
/// Force (N) and torque (N m) the joint applied to body B during the last step (world frame).
TB_API tbVec3 tbJoint_GetConstraintForce( tbJointId jointId );
TB_API tbVec3 tbJoint_GetConstraintTorque( tbJointId jointId );
TB_API tbResult tbJoint_SetCollideConnected( tbJointId jointId, bool collide );
TB_API bool tbJoint_GetCollideConnected( tbJointId jointId );
TB_API const char* tbJoint_GetName( tbJointId jointId );
TB_API tbResult tbJoint_SetName( tbJointId jointId, const char* name );
TB_API void* tbJoint_GetUserData( tbJointId jointId );
/// Bytes the joint holds in its world (its record; a custom joint's rows data too). 0 for an
/// invalid id.
TB_API size_t tbJoint_GetMemorySize( tbJointId jointId );
TB_API void tbJoint_SetUserData( tbJointId jointId, void* userData );
TB_API tbResult tbJoint_WakeBodies( tbJointId jointId );

// Distance joint ---------------------------------------------------------------------------------
TB_API tbResult tbDistanceJoint_SetLength( tbJointId jointId, float length );
TB_API float tbDistanceJoint_GetLength( tbJointId jointId );
TB_API tbResult tbDistanceJoint_EnableLimit( tbJointId jointId, bool enable );
TB_API bool tbDistanceJoint_IsLimitEnabled( tbJointId jointId );
TB_API tbResult tbDistanceJoint_SetLengthRange( tbJointId jointId, float minLength, float maxLength );
TB_API float tbDistanceJoint_GetMinLength( tbJointId jointId );
TB_API float tbDistanceJoint_GetMaxLength( tbJointId jointId );
TB_API tbResult tbDistanceJoint_EnableSpring( tbJointId jointId, bool enable );
TB_API bool tbDistanceJoint_IsSpringEnabled( tbJointId jointId );
TB_API tbResult tbDistanceJoint_SetSpringHertz( tbJointId jointId, float hertz );
TB_API float tbDistanceJoint_GetSpringHertz( tbJointId jointId );
TB_API tbResult tbDistanceJoint_SetSpringDampingRatio( tbJointId jointId, float dampingRatio );
TB_API float tbDistanceJoint_GetSpringDampingRatio( tbJointId jointId );
/// The spring in N/m and N s/m (stiffness 0 goes back to the hertz form).
TB_API tbResult tbDistanceJoint_SetSpringStiffness( tbJointId jointId, float stiffness, float damping );
TB_API float tbDistanceJoint_GetSpringStiffness( tbJointId jointId );
TB_API float tbDistanceJoint_GetSpringDamping( tbJointId jointId );
/// Current distance between the anchors, m.
TB_API float tbDistanceJoint_GetCurrentLength( tbJointId jointId );

// Hinge joint ------------------------------------------------------------------------------------
TB_API tbResult tbHingeJoint_EnableLimit( tbJointId jointId, bool enable );
TB_API bool tbHingeJoint_IsLimitEnabled( tbJointId jointId );
TB_API tbResult tbHingeJoint_SetLimits( tbJointId jointId, float lowerAngle, float upperAngle );
TB_API float tbHingeJoint_GetLowerLimit( tbJointId jointId );
TB_API float tbHingeJoint_GetUpperLimit( tbJointId jointId );
TB_API tbResult tbHingeJoint_EnableMotor( tbJointId jointId, bool enable );
TB_API bool tbHingeJoint_IsMotorEnabled( tbJointId jointId );
TB_API tbResult tbHingeJoint_SetMotorSpeed( tbJointId jointId, float speed );
TB_API float tbHingeJoint_GetMotorSpeed( tbJointId jointId );
TB_API tbResult tbHingeJoint_SetMaxMotorTorque( tbJointId jointId, float torque );
TB_API float tbHingeJoint_GetMaxMotorTorque( tbJointId jointId );
/// Torque the motor applied in the last step, N m.
TB_API float tbHingeJoint_GetMotorTorque( tbJointId jointId );
TB_API tbResult tbHingeJoint_EnableServo( tbJointId jointId, bool enable );
TB_API bool tbHingeJoint_IsServoEnabled( tbJointId jointId );
TB_API tbResult tbHingeJoint_SetServoAngle( tbJointId jointId, float angle );
TB_API float tbHingeJoint_GetServoAngle( tbJointId jointId );
TB_API tbResult tbHingeJoint_SetMaxServoTorque( tbJointId jointId, float torque );
TB_API float tbHingeJoint_GetMaxServoTorque( tbJointId jointId );
/// Servo response: speed = gain * angle error (1/s, > 0), capped at maxSpeed (rad/s, > 0).
TB_API tbResult tbHingeJoint_SetServoGain( tbJointId jointId, float gain, float maxSpeed );
TB_API float tbHingeJoint_GetServoGain( tbJointId jointId );
TB_API float tbHingeJoint_GetMaxServoSpeed( tbJointId jointId );
/// Current hinge angle, rad in [-pi, pi].
TB_API float tbHingeJoint_GetAngle( tbJointId jointId );
/// Current relative angular speed about the hinge axis, rad/s.
TB_API float tbHingeJoint_GetSpeed( tbJointId jointId );

// Cone (CV) joint --------------------------------------------------------------------------------
TB_API tbResult tbConeJoint_EnableConeLimit( tbJointId jointId, bool enable );
TB_API bool tbConeJoint_IsConeLimitEnabled( tbJointId jointId );
TB_API tbResult tbConeJoint_SetConeAngle( tbJointId jointId, float angle );
TB_API float tbConeJoint_GetConeAngle( tbJointId jointId );
TB_API tbResult tbConeJoint_EnablePyramidLimit( tbJointId jointId, bool enable );
TB_API bool tbConeJoint_IsPyramidLimitEnabled( tbJointId jointId );
TB_API tbResult tbConeJoint_SetPyramidLimits( tbJointId jointId, float maxSwingY, float maxSwingZ );
TB_API float tbConeJoint_GetMaxSwingY( tbJointId jointId );
TB_API float tbConeJoint_GetMaxSwingZ( tbJointId jointId );
TB_API tbResult tbConeJoint_EnableTwistLimit( tbJointId jointId, bool enable );
TB_API bool tbConeJoint_IsTwistLimitEnabled( tbJointId jointId );
TB_API tbResult tbConeJoint_SetTwistLimits( tbJointId jointId, float lowerTwist, float upperTwist );
TB_API float tbConeJoint_GetLowerTwist( tbJointId jointId );
TB_API float tbConeJoint_GetUpperTwist( tbJointId jointId );
/// Current swing (angle between the twist axes, rad in [0, pi]) and twist (rad in [-pi, pi]).
TB_API float tbConeJoint_GetSwingAngle( tbJointId jointId );
TB_API float tbConeJoint_GetTwistAngle( tbJointId jointId );

// Slider joint -----------------------------------------------------------------------------------
TB_API tbResult tbSliderJoint_EnableLimit( tbJointId jointId, bool enable );
TB_API bool tbSliderJoint_IsLimitEnabled( tbJointId jointId );
TB_API tbResult tbSliderJoint_SetLimits( tbJointId jointId, float lower, float upper );
TB_API float tbSliderJoint_GetLowerLimit( tbJointId jointId );
TB_API float tbSliderJoint_GetUpperLimit( tbJointId jointId );
TB_API tbResult tbSliderJoint_EnableMotor( tbJointId jointId, bool enable );
TB_API bool tbSliderJoint_IsMotorEnabled( tbJointId jointId );
TB_API tbResult tbSliderJoint_SetMotorSpeed( tbJointId jointId, float speed );
TB_API float tbSliderJoint_GetMotorSpeed( tbJointId jointId );
TB_API tbResult tbSliderJoint_SetMaxMotorForce( tbJointId jointId, float force );
TB_API float tbSliderJoint_GetMaxMotorForce( tbJointId jointId );
/// Force the motor applied in the last step, N.
TB_API float tbSliderJoint_GetMotorForce( tbJointId jointId );
/// Current translation along the axis, m, and its rate, m/s.
TB_API float tbSliderJoint_GetTranslation( tbJointId jointId );
TB_API float tbSliderJoint_GetSpeed( tbJointId jointId );

// Wheel joint ------------------------------------------------------------------------------------
TB_API tbResult tbWheelJoint_EnableSpring( tbJointId jointId, bool enable );
TB_API bool tbWheelJoint_IsSpringEnabled( tbJointId jointId );
/// The spring in N/m and N s/m (stiffness > 0; 0 goes back to the hertz form).
TB_API tbResult tbWheelJoint_SetSpringStiffness( tbJointId jointId, float stiffness, float damping );
TB_API float tbWheelJoint_GetSpringStiffness( tbJointId jointId );
TB_API float tbWheelJoint_GetSpringDamping( tbJointId jointId );
/// The spring as a frequency and damping ratio (used while the stiffness is 0).
TB_API tbResult tbWheelJoint_SetSpringHertz( tbJointId jointId, float hertz, float dampingRatio );
TB_API float tbWheelJoint_GetSpringHertz( tbJointId jointId );
TB_API float tbWheelJoint_GetSpringDampingRatio( tbJointId jointId );
TB_API tbResult tbWheelJoint_EnableLimit( tbJointId jointId, bool enable );
TB_API bool tbWheelJoint_IsLimitEnabled( tbJointId jointId );
TB_API tbResult tbWheelJoint_SetLimits( tbJointId jointId, float lower, float upper );
TB_API float tbWheelJoint_GetLowerLimit( tbJointId jointId );
TB_API float tbWheelJoint_GetUpperLimit( tbJointId jointId );
TB_API tbResult tbWheelJoint_EnableMotor( tbJointId jointId, bool enable );
TB_API bool tbWheelJoint_IsMotorEnabled( tbJointId jointId );
TB_API tbResult tbWheelJoint_SetMotorSpeed( tbJointId jointId, float speed );
TB_API float tbWheelJoint_GetMotorSpeed( tbJointId jointId );
TB_API tbResult tbWheelJoint_SetMaxMotorTorque( tbJointId jointId, float torque );
TB_API float tbWheelJoint_GetMaxMotorTorque( tbJointId jointId );
/// Torque the motor applied in the last step, N m.
TB_API float tbWheelJoint_GetMotorTorque( tbJointId jointId );
/// Force the spring applied in the last step (along the suspension axis, on B), N.
TB_API float tbWheelJoint_GetSpringForce( tbJointId jointId );
/// Current suspension translation (m) and its rate (m/s).
TB_API float tbWheelJoint_GetTranslation( tbJointId jointId );
TB_API float tbWheelJoint_GetSpeed( tbJointId jointId );
/// Spin of B relative to A about the axle, rad/s.
TB_API float tbWheelJoint_GetSpinSpeed( tbJointId jointId );

// 6-DOF joint ------------------------------------------------------------------------------------
TB_API tbResult tbSixDofJoint_SetAxisMode( tbJointId jointId, tbSixDofAxis axis, tbAxisMode mode );
TB_API tbAxisMode tbSixDofJoint_GetAxisMode( tbJointId jointId, tbSixDofAxis axis );
TB_API tbResult tbSixDofJoint_SetAxisLimits( tbJointId jointId, tbSixDofAxis axis, float lower, float upper );
TB_API float tbSixDofJoint_GetAxisLower( tbJointId jointId, tbSixDofAxis axis );
TB_API float tbSixDofJoint_GetAxisUpper( tbJointId jointId, tbSixDofAxis axis );
TB_API tbResult tbSixDofJoint_EnableAxisMotor( tbJointId jointId, tbSixDofAxis axis, bool enable );
TB_API bool tbSixDofJoint_IsAxisMotorEnabled( tbJointId jointId, tbSixDofAxis axis );
TB_API tbResult tbSixDofJoint_SetAxisMotorSpeed( tbJointId jointId, tbSixDofAxis axis, float speed );
TB_API float tbSixDofJoint_GetAxisMotorSpeed( tbJointId jointId, tbSixDofAxis axis );
TB_API tbResult tbSixDofJoint_SetAxisMaxMotorForce( tbJointId jointId, tbSixDofAxis axis, float force );
TB_API float tbSixDofJoint_GetAxisMaxMotorForce( tbJointId jointId, tbSixDofAxis axis );
/// Current position on an axis: m along x y z, rad about rx ry rz.
TB_API float tbSixDofJoint_GetAxisPosition( tbJointId jointId, tbSixDofAxis axis );

// Motor joint ------------------------------------------------------------------------------------
TB_API tbResult tbMotorJoint_SetMotorSpeed( tbJointId jointId, float speed );
TB_API float tbMotorJoint_GetMotorSpeed( tbJointId jointId );
TB_API tbResult tbMotorJoint_SetMaxMotorTorque( tbJointId jointId, float torque );
TB_API float tbMotorJoint_GetMaxMotorTorque( tbJointId jointId );
/// Torque the motor applied in the last step about its axis, N m.
TB_API float tbMotorJoint_GetMotorTorque( tbJointId jointId );

// Mouse joint ------------------------------------------------------------------------------------
TB_API tbResult tbMouseJoint_SetTarget( tbJointId jointId, tbVec3 target );
TB_API tbVec3 tbMouseJoint_GetTarget( tbJointId jointId );
TB_API tbResult tbMouseJoint_SetSpring( tbJointId jointId, float hertz, float dampingRatio );
TB_API float tbMouseJoint_GetHertz( tbJointId jointId );
TB_API float tbMouseJoint_GetDampingRatio( tbJointId jointId );
TB_API tbResult tbMouseJoint_SetMaxForce( tbJointId jointId, float force );
TB_API float tbMouseJoint_GetMaxForce( tbJointId jointId );

// Custom joint -----------------------------------------------------------------------------------
TB_API tbResult tbCustomJoint_SetCallback( tbJointId jointId, tbCustomRowsFcn* rowsFcn, void* context );
/// Rows used in the last step.
TB_API int tbCustomJoint_GetRowCount( tbJointId jointId );
/// Accumulated impulse of a row over the last step, N s (or N m s).
TB_API float tbCustomJoint_GetRowImpulse( tbJointId jointId, int row );

// Movers -----------------------------------------------------------------------------------------
// A mover drives a kinematic body by setting its velocity at the start of every step, so that
// integration lands the body where the script wants it (000 ch. 23). Bodies resting on it are
// carried by friction; nothing pushes a mover. A body has at most one mover. Destroying the body
// destroys its mover.

/// Mover id.
typedef struct tbMoverId
{
	int32_t index1;
	uint16_t world0;
	uint16_t generation;
} tbMoverId;

static const tbMoverId tb_nullMoverId = { 0, 0, 0 };

/// What a mover is doing.
typedef enum tbMoverMode
{
	tbMover_idle = 0, ///< zero velocity
	tbMover_velocity, ///< constant linear and angular velocity
	tbMover_path,     ///< following a path
	tbMover_target,   ///< moving to a target pose within a time
	tbMover_modeCount
} tbMoverMode;

/// How a path is interpolated between its points.
typedef enum tbPathInterpolation
{
	tbPath_linear = 0,
	tbPath_catmullRom, ///< uniform Catmull-Rom spline through every point
	tbPath_interpolationCount
} tbPathInterpolation;

/// What happens at the end of a path.
typedef enum tbPathEnd
{
	tbPath_once = 0, ///< stop at the last point
	tbPath_loop,     ///< closed path: the last point connects back to the first, forever
	tbPath_pingPong, ///< run back and forth, forever
	tbPath_endCount
} tbPathEnd;

/// Path for a mover. Points and waits are copied.
typedef struct tbMoverPathDef
{
	const tbVec3* points;    ///< world positions of the body origin, m (at least 2, within TB_MAX_POSITION)
	int pointCount;
	tbPathInterpolation interpolation; ///< default linear
	tbPathEnd end;           ///< default once
	float speed;             ///< cruise speed along the path, m/s (> 0, at most TB_MAX_SPEED), default 1
	float acceleration;      ///< m/s^2 (> 0) for starting and stopping, FLT_MAX = instant, default FLT_MAX
	const float* waits;      ///< optional: seconds to wait at each point (pointCount values), or NULL
	int internalValue;
} tbMoverPathDef;

TB_API tbMoverPathDef tbDefaultMoverPathDef( void );

/// Make a kinematic body a mover (idle). invalidArgument if the body is not kinematic or has one.
TB_API tbMoverId tbCreateMover( tbBodyId bodyId, tbResult* result );
TB_API tbResult tbDestroyMover( tbMoverId moverId );
TB_API bool tbMover_IsValid( tbMoverId moverId );
TB_API tbBodyId tbMover_GetBody( tbMoverId moverId );
TB_API tbMoverMode tbMover_GetMode( tbMoverId moverId );
/// Stop (idle): zero velocity from the next step.
TB_API tbResult tbMover_Stop( tbMoverId moverId );
/// Move with a constant velocity (m/s of the body origin, rad/s; components within TB_MAX_SPEED and
/// TB_MAX_ANGULAR_SPEED) until told otherwise.
TB_API tbResult tbMover_SetVelocity( tbMoverId moverId, tbVec3 linearVelocity, tbVec3 angularVelocity );
/// Follow a path from its first point (the body travels from where it is to the first point first).
/// tbResult_outOfMemory, the mover's motion unchanged, when the path's arrays cannot be allocated.
TB_API tbResult tbMover_SetPath( tbMoverId moverId, const tbMoverPathDef* def );
/// Change the cruise speed of the current path, m/s (> 0, at most TB_MAX_SPEED).
TB_API tbResult tbMover_SetPathSpeed( tbMoverId moverId, float speed );
/// Reach the pose (body origin, rotation) in duration seconds (> 0) with a smooth start and stop.
TB_API tbResult tbMover_MoveTo( tbMoverId moverId, tbVec3 position, tbQuat rotation, float duration );
/// Pause or resume the path or target motion (the body slows down at the path acceleration).
TB_API tbResult tbMover_SetPaused( tbMoverId moverId, bool paused );
TB_API bool tbMover_IsPaused( tbMoverId moverId );
/// True when a path with end = once or a MoveTo has completed.
TB_API bool tbMover_IsFinished( tbMoverId moverId );
/// Distance travelled along the current path since SetPath, m.
TB_API float tbMover_GetPathDistance( tbMoverId moverId );
/// Length of one pass of the current path, m (0 when there is none).
TB_API float tbMover_GetPathLength( tbMoverId moverId );
/// Number of times a looping path came back to its first point, or a ping-pong path to an end.
TB_API int tbMover_GetLapCount( tbMoverId moverId );
