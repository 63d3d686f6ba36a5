// Tumble physics: body storage.
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/types.h"

typedef struct tbWorld tbWorld;

#define TB_NAME_LENGTH 32

typedef struct tbBody
{
	char name[TB_NAME_LENGTH];
	void* userData;

	int id;              ///< own index, or -1 when the slot is free (next free slot in nextFree)
	int nextFree;
	uint16_t generation;
	tbBodyType type;

	// Shapes: singly linked through tbShape::nextShapeId.
	int headShapeId;
	int shapeCount;

	// Contacts and joints: doubly linked edge lists (key = id << 1 | edge index).
	int headContactKey;
	int contactCount;
	int headJointKey;
	int jointCount;

	tbTransform transform; ///< body origin
	tbVec3 center;         ///< world centre of mass
	tbVec3 localCenter;
	tbVec3 center0;        ///< centre of mass at the start of the step (continuous collision)
	tbQuat rotation0;

	tbVec3 linearVelocity;  ///< of the centre of mass
	tbVec3 angularVelocity; ///< world frame
	tbVec3 force;
	tbVec3 torque;

	float mass, invMass;
	tbVec3 inertia;      ///< principal moments, body axes (mass given explicitly) or from shapes
	tbMat3 localInertia; ///< full tensor about the centre, body axes
	tbMat3 invLocalInertia;
	tbMat3 invWorldInertia;

	float linearDamping;
	float angularDamping;
	float gravityScale;
	float sleepThreshold;
	float sleepTime;
	float maxExtent; ///< farthest shape point from the centre of mass (continuous collision)
	float minExtent; ///< smallest shape half size (continuous collision trigger)

	int solverIndex; ///< index in the step's awake-body arrays, -1 otherwise
	int islandParent; ///< union-find parent during island building

	tbVec3 oneWayNormal; ///< one-way body: the side it blocks from, body frame, unit; zero otherwise

	bool awake;
	bool enableSleep;
	bool fixedRotation;
	bool isBullet;
	bool massOverridden;
	bool isMarked;
	bool isFast; ///< moved far for its size this step: swept by continuous collision
} tbBody;

tbBody* tbGetBodyFromId( tbWorld* world, tbBodyId id );
tbBody* tbGetBodyChecked( tbBodyId id, tbWorld** worldOut );
tbBodyId tbMakeBodyId( const tbWorld* world, const tbBody* body );
void tbUpdateBodyMass( tbWorld* world, tbBody* body );
void tbUpdateInertiaWorld( tbBody* body );
/// Wake this body and every sleeping body connected to it by touching contacts or joints.
void tbWakeBody( tbWorld* world, tbBody* body );
/// Put a body to sleep (velocities zeroed).
void tbSleepBody( tbBody* body );
/// Recompute the world AABBs of the body's shapes and move their broad-phase proxies if needed.
void tbUpdateBodyShapes( tbWorld* world, tbBody* body, bool forceMove );
/// Like tbUpdateBodyShapes, but the broad-phase boxes cover the whole motion of the step, from
/// the pose at the step start to the current one (fast bodies, for continuous collision).
void tbUpdateBodyShapesSwept( tbWorld* world, tbBody* body );
/// Destroy and re-create the broad-phase proxies of the body's shapes (after a type change).
void tbRecreateBodyProxies( tbWorld* world, tbBody* body );
