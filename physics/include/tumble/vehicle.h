// Tumble physics: cast-wheel vehicles: a dynamic chassis body held up by wheels that are ray casts
// with a spring-damper suspension, tyres with longitudinal and lateral friction, engine torque,
// brakes, a handbrake, steering and anti-roll bars. The world updates its vehicles at the start of
// every step, before the solver.
// SPDX-License-Identifier: MIT
#pragma once

#include "base.h"
#include "id.h"
#include "math_functions.h"
#include "types.h"

/// Most wheels a vehicle has (kept inline in the vehicle, so a step allocates nothing for them).
#define TB_MAX_VEHICLE_WHEELS 8
/// Most anti-roll bars a vehicle has.
#define TB_MAX_ANTI_ROLL_BARS 4

/// Vehicle id.
typedef struct tbVehicleId
{
	int32_t index1;
	uint16_t world0;
	uint16_t generation;
} tbVehicleId;

static const tbVehicleId tb_nullVehicleId = { 0, 0, 0 };

/// One wheel. Positions and directions are in the chassis body's frame. The suspension runs from
/// its attachment point along its direction; the wheel centre is suspension length away from the
/// attachment point, the length staying within [minLength, maxLength] (the bump stop holds the
/// chassis at minLength; at maxLength the wheel hangs).
typedef struct tbWheelDef
{
	tbVec3 position;     ///< suspension attachment point, chassis frame, m
	tbVec3 direction;    ///< suspension direction (towards the ground), chassis frame, default (0, 0, -1)
	float radius;        ///< m, (0, TB_MAX_SHAPE_SIZE], default 0.35
	float width;         ///< m, for drawing only, default 0.2
	float minLength;     ///< shortest suspension (bump stop), m, >= 0, default 0.05
	float maxLength;     ///< longest suspension (wheel hanging), m, >= minLength, default 0.35
	float restLength;    ///< the spring's unloaded length, m, in [minLength, maxLength], default maxLength
	float stiffness;     ///< suspension spring, N/m, [0, TB_MAX_FORCE], default 30000
	float damping;       ///< suspension damper, N s/m, [0, TB_MAX_FORCE], default 3000
	float friction;      ///< tyre friction coefficient along the wheel's rolling direction, [0, TB_MAX_FRICTION], default 1.2
	float lateralFriction; ///< tyre friction coefficient across it, [0, TB_MAX_FRICTION], default 1.2
	float inertia;       ///< moment of inertia about the axle, kg m^2, > 0, default 1
	float maxSteerAngle; ///< steering angle at full steer input, rad, [-pi/2, pi/2] (negative: steers the other way), default 0
	float maxBrakeTorque; ///< at full brake input, N m, [0, TB_MAX_FORCE], default 1500
	float maxHandbrakeTorque; ///< at full handbrake input, N m, [0, TB_MAX_FORCE], default 0 (no handbrake on this wheel)
	bool driven;         ///< the engine drives this wheel, default false
} tbWheelDef;

TB_API tbWheelDef tbDefaultWheelDef( void );

/// A bar that loads the wheel on one side as the other's suspension compresses, against body roll.
typedef struct tbAntiRollBarDef
{
	int leftWheel;   ///< wheel index
	int rightWheel;  ///< wheel index, another wheel
	float stiffness; ///< N/m of compression difference, [0, TB_MAX_FORCE]
} tbAntiRollBarDef;

/// Vehicle settings.
typedef struct tbVehicleDef
{
	tbBodyId chassis;          ///< a dynamic body of the same world
	const tbWheelDef* wheels;  ///< copied
	int wheelCount;            ///< 1..TB_MAX_VEHICLE_WHEELS
	tbVec3 forward;            ///< chassis frame, unit, default (1, 0, 0)
	tbVec3 up;                 ///< chassis frame, unit, perpendicular to forward, default (0, 0, 1)
	float maxEngineTorque;     ///< at full throttle, shared evenly by the driven wheels, N m, [0, TB_MAX_FORCE], default 1000
	float maxSpeed;            ///< the engine's torque falls linearly to zero at this wheel rim speed, m/s, (0, TB_MAX_SPEED], default 40
	const tbAntiRollBarDef* antiRollBars; ///< copied, may be NULL
	int antiRollBarCount;      ///< 0..TB_MAX_ANTI_ROLL_BARS
	tbQueryFilter filter;      ///< what the wheels stand on, default everything
	int internalValue;
} tbVehicleDef;

TB_API tbVehicleDef tbDefaultVehicleDef( void );

/// What a wheel did in the last step (read after the step, e.g. to draw it).
typedef struct tbWheelState
{
	tbVec3 contactPoint;      ///< on the ground, world frame, m (valid when inContact)
	tbVec3 contactNormal;     ///< of the ground, world frame
	tbBodyId groundBody;      ///< null when not in contact
	float suspensionLength;   ///< attachment point to wheel centre, m: the measured length, below
							  ///< minLength only while the bump stop is pushing the chassis back
	float compression;        ///< restLength - suspensionLength, m (negative: extended past rest)
	float suspensionForce;    ///< spring, damper and anti-roll bar along the contact normal, N (>= 0)
	float angularVelocity;    ///< spin about the axle, rad/s, positive rolling forwards
	float angle;              ///< spin angle, rad, in [0, 2 pi)
	float steerAngle;         ///< rad, about the chassis up axis
	float longitudinalForce;  ///< tyre force along the rolling direction, N
	float lateralForce;       ///< tyre force across it, N
	bool inContact;
} tbWheelState;

/// Create a vehicle on a chassis body. tbResult_invalidArgument (with *result) for a bad def or a
/// chassis that already carries a vehicle (one vehicle a body: vehicles never outnumber bodies);
/// returns a null id then. Destroying the chassis leaves the vehicle inert (it does nothing) until
/// tbDestroyVehicle.
TB_API tbVehicleId tbCreateVehicle( tbWorldId worldId, const tbVehicleDef* def, tbResult* result );
TB_API tbResult tbDestroyVehicle( tbVehicleId vehicleId );
TB_API bool tbVehicle_IsValid( tbVehicleId vehicleId );
TB_API tbBodyId tbVehicle_GetChassis( tbVehicleId vehicleId );
/// The vehicle a body carries as its chassis, or the null id.
TB_API tbVehicleId tbBody_GetVehicle( tbBodyId bodyId );
TB_API int tbVehicle_GetWheelCount( tbVehicleId vehicleId );

/// Driver input, kept until changed: throttle in [-1, 1] (negative drives backwards), steer in
/// [-1, 1] (positive turns each wheel by its maxSteerAngle, to the left for a positive angle with
/// z up and x forward), brake and handbrake in [0, 1]. Wakes the chassis when the input changes.
TB_API tbResult tbVehicle_SetInput( tbVehicleId vehicleId, float throttle, float steer, float brake, float handbrake );
/// The input (any pointer may be NULL).
TB_API void tbVehicle_GetInput( tbVehicleId vehicleId, float* throttle, float* steer, float* brake, float* handbrake );
/// Change one wheel's settings while running (the same checks as at creation).
TB_API tbResult tbVehicle_SetWheelDef( tbVehicleId vehicleId, int wheel, const tbWheelDef* def );
TB_API tbWheelDef tbVehicle_GetWheelDef( tbVehicleId vehicleId, int wheel );
/// State of a wheel after the last step (zeroed for a bad id or index).
TB_API tbWheelState tbVehicle_GetWheelState( tbVehicleId vehicleId, int wheel );
/// The wheel's pose for drawing: its centre at the current suspension length (within
/// [minLength, maxLength]) and its rotation (chassis rotation, then steering about the chassis up
/// axis, then spin about the axle). The axle is the wheel frame's y axis when forward is x and up z.
TB_API tbTransform tbVehicle_GetWheelTransform( tbVehicleId vehicleId, int wheel );
/// The speed of the chassis along its forward axis, m/s.
TB_API float tbVehicle_GetForwardSpeed( tbVehicleId vehicleId );
