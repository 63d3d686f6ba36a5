// Tumble physics: the character controller: an upright capsule moved by a desired velocity with
// move-and-slide against the world (shape casts), steps, a walkable slope limit, ground snapping,
// riding moving bodies, pushing dynamic bodies, jumping and crouching.
// SPDX-License-Identifier: MIT
#pragma once

#include "base.h"
#include "id.h"
#include "math_functions.h"
#include "types.h"

/// Character settings. Z is up.
typedef struct tbCharacterDef
{
	tbVec3 position;     ///< feet: the bottom of the capsule, m
	float radius;        ///< m, default 0.3
	float height;        ///< standing height, feet to top, m, default 1.8 (more than 2 radius)
	float crouchHeight;  ///< crouched height, m, default 1.0 (at least 2 radius, at most height)
	float stepHeight;    ///< highest step it walks up (and snaps down), m, default 0.3
	float maxSlope;      ///< steepest walkable ground, rad from horizontal, default 45 deg
	float jumpSpeed;     ///< upwards speed of a jump, m/s, default 5
	float maxPushForce;  ///< most force it pushes dynamic bodies with, N, default 500
	float mass;          ///< how hard it is to push: the impulse its body took from dynamic bodies in the
						 ///< last step, over this mass, becomes its push velocity, kg, default 70; 0: never pushed
	tbQueryFilter filter; ///< what it collides with (its casts' filter), default everything
	uint64_t categoryBits; ///< its body's layer, default 1
	const char* name;    ///< its body's name, optional
	int internalValue;
} tbCharacterDef;

TB_API tbCharacterDef tbDefaultCharacterDef( void );

/// A character: plain data owned by the caller. Its kinematic capsule body stands for it in the
/// world (dynamic bodies bump into it, rays and casts find it); the controller moves that body by
/// its velocity, so it arrives where tbCharacter_Move put the character during the next step.
typedef struct tbCharacter
{
	tbBodyId bodyId;       ///< the kinematic capsule body
	tbCharacterDef def;
	tbVec3 position;       ///< feet, after the last move (where the body arrives in the next step), m
	tbVec3 velocity;       ///< its own velocity over the last move: walking, falling, jumping, m/s
	tbVec3 groundNormal;   ///< of the ground it stands on (zero in the air)
	tbVec3 groundPoint;    ///< m
	tbVec3 groundVelocity; ///< of the ground point (riding), m/s
	tbVec3 groundAnchor;   ///< the ground point under the feet, in the ground body's frame (riding)
	tbVec3 pushVelocity;   ///< given by bodies that ran into it; dies away at 10 m/s^2 on the ground
	tbBodyId groundBody;   ///< null in the air
	float height;          ///< current height (standing or crouched), m
	bool onGround;         ///< on walkable ground
	bool crouched;
	bool jumpRequested;    ///< tbCharacter_Jump was called; the next move on the ground jumps
	int pushCount;         ///< dynamic bodies it pushed in the last move
} tbCharacter;

/// Create the character's body and fill *character. tbResult_invalidArgument for a bad def.
TB_API tbResult tbCreateCharacter( tbWorldId worldId, const tbCharacterDef* def, tbCharacter* character );
/// Destroy its body.
TB_API void tbDestroyCharacter( tbCharacter* character );

/// Move by a desired horizontal velocity (m/s; its z is ignored) over dt seconds: call once before
/// each world step with that step's dt. It walks along walkable ground (slopes up to maxSlope),
/// slides along walls, climbs steps up to stepHeight and snaps down them, falls under the world's
/// gravity in the air, is carried by the ground it stands on (a mover, a dynamic platform), and
/// pushes the dynamic bodies it walks into with at most maxPushForce, and is pushed by those that
/// run into it (see tbCharacterDef::mass; its body itself is kinematic: they bounce off it). One-way
/// bodies (tbBody_SetOneWay) hold it only on their one-way side: it jumps up through them.
TB_API tbResult tbCharacter_Move( tbCharacter* character, tbVec3 desiredVelocity, float dt );
/// Jump at the next move if it is on the ground then.
TB_API void tbCharacter_Jump( tbCharacter* character );
/// Crouch (the capsule shrinks to crouchHeight, feet kept) or stand up. Standing up waits for room:
/// returns whether the character is now in the state asked for.
TB_API bool tbCharacter_SetCrouched( tbCharacter* character, bool crouched );
