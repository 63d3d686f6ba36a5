// Tumble physics: joint storage, creation checks, body edge lists, step dispatch, breaking, and
// the row algebra shared by every joint type (see joint.h for the conventions).
// SPDX-License-Identifier: MIT
#include "joint.h"
#include "joint_wide.h"

#include "body.h"
#include "contact.h"
#include "core.h"
#include "jobs.h"
#include "mover.h"
#include "solver.h"
#include "world.h"
#include "tumble/tumble.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

// The book's guard against huge one-step impulses (000 ch. 10.1): a violent collision can leave a
// joint with an accumulated impulse that, replayed as next step's warm start, throws the bodies
// apart. Warm-start impulses are scaled down so that on their own they would not change the
// relative velocity of the two bodies by more than these (and NaN/inf clears them).
#define TB_WARM_START_MAX_SPEED 50.0f          // m/s
#define TB_WARM_START_MAX_ANGULAR_SPEED 100.0f // rad/s

static const tbJointClass* tbGetJointClass( tbJointType type )
{
	switch ( type )
	{
		case tbJoint_distance:
			return &tb_distanceJointClass;
		case tbJoint_ball:
			return &tb_ballJointClass;
		case tbJoint_hinge:
			return &tb_hingeJointClass;
		case tbJoint_cone:
			return &tb_coneJointClass;
		case tbJoint_fixed:
			return &tb_fixedJointClass;
		case tbJoint_slider:
			return &tb_sliderJointClass;
		case tbJoint_sixDof:
			return &tb_sixDofJointClass;
		case tbJoint_motor:
			return &tb_motorJointClass;
		case tbJoint_mouse:
			return &tb_mouseJointClass;
		case tbJoint_custom:
			return &tb_customJointClass;
		default:
			return NULL;
	}
}

static const char* const tb_jointTypeNames[tbJoint_typeCount] = {
	"distance", "ball", "hinge", "cone", "fixed", "slider", "six_dof", "motor", "mouse", "custom",
};

const char* tbJointTypeName( tbJointType type )
{
	if ( (unsigned)type >= (unsigned)tbJoint_typeCount )
	{
		return NULL;
	}
	return tb_jointTypeNames[type];
}

tbJointType tbJointTypeFromName( const char* name )
{
	if ( name == NULL )
	{
		return tbJoint_typeCount;
	}
	for ( int i = 0; i < tbJoint_typeCount; ++i )
	{
		if ( strcmp( name, tb_jointTypeNames[i] ) == 0 )
		{
			return (tbJointType)i;
		}
	}
	return tbJoint_typeCount;
}

// Ids and lookup ----------------------------------------------------------------------------------

tbJointId tbMakeJointId( const tbWorld* world, const tbJoint* joint )
{
	tbJointId id = { joint->id + 1, world->worldTag, joint->generation };
	return id;
}

static tbJoint* tbGetJointFromId( tbWorld* world, tbJointId id )
{
	if ( world == NULL || id.index1 < 1 || id.index1 > world->joints.count )
	{
		return NULL;
	}
	tbJoint* joint = world->joints.data + ( id.index1 - 1 );
	if ( joint->id < 0 || joint->generation != id.generation )
	{
		return NULL;
	}
	return joint;
}

tbJoint* tbGetJointChecked( tbJointId id, tbJointType type, tbWorld** worldOut )
{
	tbWorld* world = tbGetWorldFromTag( id.world0 );
	tbJoint* joint = tbGetJointFromId( world, id );
	if ( joint != NULL && type != tbJoint_typeCount && joint->type != type )
	{
		joint = NULL;
	}
	if ( worldOut != NULL )
	{
		*worldOut = world;
	}
	return joint;
}

tbResult tbGetMutableJoint( tbJointId id, tbJointType type, tbWorld** worldOut, tbJoint** jointOut )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( id, type, &world );
	*jointOut = joint;
	if ( worldOut != NULL )
	{
		*worldOut = world;
	}
	if ( joint == NULL )
	{
		return tbResult_invalidId;
	}
	if ( world->locked )
	{
		return tbResult_worldLocked;
	}
	return tbResult_ok;
}

tbJoint* tbGetJointByKey( tbWorld* world, int jointKey )
{
	if ( jointKey < 0 || ( jointKey >> 1 ) >= world->joints.count )
	{
		return NULL;
	}
	return world->joints.data + ( jointKey >> 1 );
}

int tbGetBodyJointIds( tbWorld* world, const tbBody* body, tbJointId* out, int capacity )
{
	int n = 0;
	for ( int key = body->headJointKey; key >= 0; )
	{
		tbJoint* joint = world->joints.data + ( key >> 1 );
		if ( n < capacity && out != NULL )
		{
			out[n] = tbMakeJointId( world, joint );
		}
		n += 1;
		key = joint->edges[key & 1].nextKey;
	}
	return n;
}

int tbGetJointOtherBody( tbWorld* world, tbJointId jointId, int bodyId )
{
	tbJoint* joint = tbGetJointFromId( world, jointId );
	if ( joint == NULL )
	{
		return -1;
	}
	if ( joint->edges[0].bodyId == bodyId )
	{
		return joint->edges[1].bodyId;
	}
	if ( joint->edges[1].bodyId == bodyId )
	{
		return joint->edges[0].bodyId;
	}
	return -1;
}

// Edge lists --------------------------------------------------------------------------------------

static void tbLinkJointEdge( tbWorld* world, tbJoint* joint, int edgeIndex, int bodyId )
{
	tbJointEdge* edge = joint->edges + edgeIndex;
	edge->bodyId = bodyId;
	edge->prevKey = -1;
	edge->nextKey = -1;
	if ( bodyId < 0 )
	{
		return;
	}
	tbBody* body = world->bodies.data + bodyId;
	int key = ( joint->id << 1 ) | edgeIndex;
	edge->nextKey = body->headJointKey;
	if ( body->headJointKey >= 0 )
	{
		tbJoint* head = world->joints.data + ( body->headJointKey >> 1 );
		head->edges[body->headJointKey & 1].prevKey = key;
	}
	body->headJointKey = key;
	body->jointCount += 1;
}

static void tbUnlinkJointEdge( tbWorld* world, tbJoint* joint, int edgeIndex )
{
	tbJointEdge* edge = joint->edges + edgeIndex;
	if ( edge->bodyId < 0 )
	{
		return;
	}
	tbBody* body = world->bodies.data + edge->bodyId;
	if ( edge->prevKey >= 0 )
	{
		world->joints.data[edge->prevKey >> 1].edges[edge->prevKey & 1].nextKey = edge->nextKey;
	}
	else
	{
		body->headJointKey = edge->nextKey;
	}
	if ( edge->nextKey >= 0 )
	{
		world->joints.data[edge->nextKey >> 1].edges[edge->nextKey & 1].prevKey = edge->prevKey;
	}
	body->jointCount -= 1;
	edge->bodyId = -1;
	edge->prevKey = -1;
	edge->nextKey = -1;
}

// Parameter calls ---------------------------------------------------------------------------------

static tbResult tbSetJointBytes( tbJointId id, tbJointType type, size_t field0, const void* value0, size_t field1,
								 const void* value1, size_t size, bool valid )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( id, type, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !valid )
	{
		return tbResult_invalidArgument;
	}
	memcpy( (char*)joint + field0, value0, size );
	if ( value1 != NULL )
	{
		memcpy( (char*)joint + field1, value1, size );
	}
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

tbResult tbSetJointBool( tbJointId id, tbJointType type, size_t field, bool value )
{
	return tbSetJointBytes( id, type, field, &value, 0, NULL, sizeof( value ), true );
}

tbResult tbSetJointFloat( tbJointId id, tbJointType type, size_t field, float value, bool valid )
{
	return tbSetJointBytes( id, type, field, &value, 0, NULL, sizeof( value ), valid );
}

tbResult tbSetJointFloats( tbJointId id, tbJointType type, size_t field0, float value0, size_t field1, float value1,
						   bool valid )
{
	return tbSetJointBytes( id, type, field0, &value0, field1, &value1, sizeof( value0 ), valid );
}

bool tbGetJointBool( tbJointId id, tbJointType type, size_t field )
{
	bool value = false;
	tbJoint* joint = tbGetJointChecked( id, type, NULL );
	if ( joint != NULL )
	{
		memcpy( &value, (const char*)joint + field, sizeof( value ) );
	}
	return value;
}

float tbGetJointFloat( tbJointId id, tbJointType type, size_t field )
{
	float value = 0.0f;
	tbJoint* joint = tbGetJointChecked( id, type, NULL );
	if ( joint != NULL )
	{
		memcpy( &value, (const char*)joint + field, sizeof( value ) );
	}
	return value;
}

void tbWakeJointBodies( tbWorld* world, tbJoint* joint )
{
	for ( int i = 0; i < 2; ++i )
	{
		int bodyId = joint->edges[i].bodyId;
		if ( bodyId >= 0 )
		{
			tbWakeBody( world, world->bodies.data + bodyId );
		}
	}
}

// Contacts between the two bodies exist only while collideConnected allows them.
static void tbDestroyContactsBetween( tbWorld* world, int bodyIdA, int bodyIdB )
{
	if ( bodyIdA < 0 || bodyIdB < 0 )
	{
		return;
	}
	tbBody* bodyA = world->bodies.data + bodyIdA;
	for ( int key = bodyA->headContactKey; key >= 0; )
	{
		tbContact* contact = world->contacts.data + ( key >> 1 );
		int edge = key & 1;
		key = contact->edges[edge].nextKey;
		if ( contact->edges[edge ^ 1].bodyId == bodyIdB )
		{
			tbDestroyContact( world, contact, false );
		}
	}
}

// Moving the proxies makes the broad phase look for pairs again, so contacts between the two
// bodies come back once no joint forbids them.
static void tbRefreshBodyPairs( tbWorld* world, int bodyIdA, int bodyIdB )
{
	if ( bodyIdA < 0 || bodyIdB < 0 )
	{
		return;
	}
	tbUpdateBodyShapes( world, world->bodies.data + bodyIdA, true );
}

// Frames ------------------------------------------------------------------------------------------

static tbResult tbGetFrameBody( tbBodyId bodyId, tbTransform* xf )
{
	if ( TB_IS_NULL( bodyId ) )
	{
		*xf = tb_transformIdentity;
		return tbResult_ok;
	}
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	if ( body == NULL )
	{
		return tbResult_invalidId;
	}
	*xf = body->transform;
	return tbResult_ok;
}

tbResult tbJointFramesFromWorldFrame( tbBodyId bodyA, tbBodyId bodyB, tbTransform worldFrame, tbJointDef* def )
{
	if ( def == NULL || !tbIsValidVec3( worldFrame.p ) || !tbIsValidQuat( worldFrame.q ) )
	{
		return tbResult_invalidArgument;
	}
	tbTransform xfA, xfB;
	tbResult r = tbGetFrameBody( bodyA, &xfA );
	if ( r != tbResult_ok )
	{
		return r;
	}
	r = tbGetFrameBody( bodyB, &xfB );
	if ( r != tbResult_ok )
	{
		return r;
	}
	worldFrame.q = tbNormalizeQ( worldFrame.q );
	def->bodyA = bodyA;
	def->bodyB = bodyB;
	def->localFrameA = tbInvMulTransforms( xfA, worldFrame );
	def->localFrameB = tbInvMulTransforms( xfB, worldFrame );
	return tbResult_ok;
}

tbResult tbJointFramesFromWorld( tbBodyId bodyA, tbBodyId bodyB, tbVec3 worldAnchor, tbVec3 worldAxis,
								 tbJointDef* def )
{
	float length;
	tbVec3 x = tbGetLengthAndNormalize( &length, worldAxis );
	if ( !tbIsValidVec3( worldAxis ) || !tbIsValidVec3( worldAnchor ) || length < 1.0e-6f )
	{
		return tbResult_invalidArgument;
	}
	tbVec3 y = tbNormalize( tbPerpendicular( x ) );
	tbVec3 z = tbCross( x, y );
	tbTransform frame = { worldAnchor, tbMakeQuatFromMatrix( tbMakeMat3( x, y, z ) ) };
	return tbJointFramesFromWorldFrame( bodyA, bodyB, frame, def );
}

// Creation and destruction ------------------------------------------------------------------------

// Frames are body-local (or world, for the static side): within the world's coordinate range.
static bool tbIsValidFrame( tbTransform xf )
{
	return tbIsBoundedVec3( xf.p, TB_MAX_POSITION ) && tbIsValidQuat( xf.q );
}

static bool tbIsValidBreakLimit( float x )
{
	return !isnan( x ) && x >= 0.0f;
}

static tbResult tbResolveJointBody( tbWorld* world, tbBodyId id, int* bodyIdOut )
{
	*bodyIdOut = -1;
	if ( TB_IS_NULL( id ) )
	{
		return tbResult_ok;
	}
	if ( id.world0 != world->worldTag )
	{
		return tbResult_invalidArgument;
	}
	tbBody* body = tbGetBodyFromId( world, id );
	if ( body == NULL )
	{
		return tbResult_invalidId;
	}
	*bodyIdOut = body->id;
	return tbResult_ok;
}

tbJoint* tbCreateJointInternal( tbWorldId worldId, const tbJointDef* def, tbJointType type, tbResult* result,
								tbWorld** worldOut )
{
	tbResult dummy;
	if ( result == NULL )
	{
		result = &dummy;
	}
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( worldOut != NULL )
	{
		*worldOut = world;
	}
	if ( world == NULL )
	{
		*result = tbResult_invalidId;
		return NULL;
	}
	if ( world->locked )
	{
		*result = tbResult_worldLocked;
		return NULL;
	}
	if ( def == NULL || def->internalValue != TB_SECRET_COOKIE || !tbIsValidFrame( def->localFrameA ) ||
		 !tbIsValidFrame( def->localFrameB ) || !tbIsValidBreakLimit( def->breakForce ) ||
		 !tbIsValidBreakLimit( def->breakTorque ) )
	{
		*result = tbResult_invalidArgument;
		return NULL;
	}

	int bodyIdA, bodyIdB;
	tbResult r = tbResolveJointBody( world, def->bodyA, &bodyIdA );
	if ( r == tbResult_ok )
	{
		r = tbResolveJointBody( world, def->bodyB, &bodyIdB );
	}
	if ( r != tbResult_ok )
	{
		*result = r;
		return NULL;
	}
	// The mouse joint may have no body A; every other joint needs at least one body, and never
	// the same body twice.
	if ( ( bodyIdA < 0 && bodyIdB < 0 ) || ( bodyIdA >= 0 && bodyIdA == bodyIdB ) ||
		 ( type == tbJoint_mouse && bodyIdB < 0 ) )
	{
		*result = tbResult_invalidArgument;
		return NULL;
	}

	int index;
	TB_POOL_ALLOC( world->joints, tbJoint, index );
	tbJoint* joint = world->joints.data + index;
	uint16_t generation = joint->generation;
	memset( joint, 0, sizeof( *joint ) );
	joint->generation = generation;
	joint->id = index;
	joint->nextFree = -1;
	joint->type = type;
	joint->localFrameA = def->localFrameA;
	joint->localFrameA.q = tbNormalizeQ( joint->localFrameA.q );
	joint->localFrameB = def->localFrameB;
	joint->localFrameB.q = tbNormalizeQ( joint->localFrameB.q );
	if ( def->name != NULL )
	{
		strncpy( joint->name, def->name, TB_JOINT_NAME_LENGTH - 1 );
	}
	joint->userData = def->userData;
	joint->breakForce = def->breakForce;
	joint->breakTorque = def->breakTorque;
	joint->collideConnected = def->collideConnected;
	joint->enabled = true;
	joint->broken = false;
	tbLinkJointEdge( world, joint, 0, bodyIdA );
	tbLinkJointEdge( world, joint, 1, bodyIdB );

	if ( joint->collideConnected == false )
	{
		tbDestroyContactsBetween( world, bodyIdA, bodyIdB );
	}
	tbWakeJointBodies( world, joint );
	*result = tbResult_ok;
	return joint;
}

void tbDestroyJointInternal( tbWorld* world, tbJoint* joint, bool wakeBodies )
{
	if ( wakeBodies )
	{
		tbWakeJointBodies( world, joint );
	}
	tbUnlinkJointEdge( world, joint, 0 );
	tbUnlinkJointEdge( world, joint, 1 );
	TB_POOL_FREE( world->joints, joint->id );
}

tbResult tbDestroyJoint( tbJointId jointId )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_typeCount, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	int bodyIdA = joint->edges[0].bodyId;
	int bodyIdB = joint->edges[1].bodyId;
	bool refresh = joint->collideConnected == false;
	tbDestroyJointInternal( world, joint, true );
	if ( refresh )
	{
		tbRefreshBodyPairs( world, bodyIdA, bodyIdB );
	}
	return tbResult_ok;
}

void tbDestroyAllJoints( tbWorld* world )
{
	tbDestroyMovers( world );
	for ( int i = 0; i < world->joints.count; ++i )
	{
		tbJoint* joint = world->joints.data + i;
		if ( joint->id >= 0 )
		{
			tbDestroyJointInternal( world, joint, false );
		}
	}
	tbFree( world->joints.data, sizeof( tbJoint ) * (size_t)world->joints.capacity );
	world->joints.data = NULL;
	world->joints.count = 0;
	world->joints.capacity = 0;
	world->joints.freeList = -1;
	world->joints.liveCount = 0;
}

// Common getters and setters ----------------------------------------------------------------------

bool tbJoint_IsValid( tbJointId jointId )
{
	return tbGetJointChecked( jointId, tbJoint_typeCount, NULL ) != NULL;
}

tbJointType tbJoint_GetType( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL ? joint->type : tbJoint_typeCount;
}

tbWorldId tbJoint_GetWorld( tbJointId jointId )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, &world );
	if ( joint == NULL )
	{
		return tb_nullWorldId;
	}
	tbWorldId id = { (uint16_t)( world->worldId + 1 ), world->generation };
	return id;
}

static tbBodyId tbJointBodyId( tbJointId jointId, int edgeIndex )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, &world );
	if ( joint == NULL || joint->edges[edgeIndex].bodyId < 0 )
	{
		return tb_nullBodyId;
	}
	return tbMakeBodyId( world, world->bodies.data + joint->edges[edgeIndex].bodyId );
}

tbBodyId tbJoint_GetBodyA( tbJointId jointId )
{
	return tbJointBodyId( jointId, 0 );
}

tbBodyId tbJoint_GetBodyB( tbJointId jointId )
{
	return tbJointBodyId( jointId, 1 );
}

tbTransform tbJoint_GetLocalFrameA( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL ? joint->localFrameA : tb_transformIdentity;
}

tbTransform tbJoint_GetLocalFrameB( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL ? joint->localFrameB : tb_transformIdentity;
}

tbResult tbJoint_SetLocalFrames( tbJointId jointId, tbTransform localFrameA, tbTransform localFrameB )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_typeCount, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsValidFrame( localFrameA ) || !tbIsValidFrame( localFrameB ) )
	{
		return tbResult_invalidArgument;
	}
	joint->localFrameA = localFrameA;
	joint->localFrameA.q = tbNormalizeQ( localFrameA.q );
	joint->localFrameB = localFrameB;
	joint->localFrameB.q = tbNormalizeQ( localFrameB.q );
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

static tbTransform tbJointWorldFrame( tbWorld* world, const tbJoint* joint, int edgeIndex )
{
	tbTransform local = edgeIndex == 0 ? joint->localFrameA : joint->localFrameB;
	int bodyId = joint->edges[edgeIndex].bodyId;
	if ( bodyId < 0 )
	{
		return local;
	}
	return tbMulTransforms( world->bodies.data[bodyId].transform, local );
}

tbTransform tbJoint_GetWorldFrameA( tbJointId jointId )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, &world );
	return joint != NULL ? tbJointWorldFrame( world, joint, 0 ) : tb_transformIdentity;
}

tbTransform tbJoint_GetWorldFrameB( tbJointId jointId )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, &world );
	return joint != NULL ? tbJointWorldFrame( world, joint, 1 ) : tb_transformIdentity;
}

tbResult tbJoint_GetError( tbJointId jointId, float* posError, float* angleError )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, &world );
	float linear = 0.0f, angular = 0.0f;
	if ( joint != NULL )
	{
		tbJointPose pose;
		tbComputeJointBodyPose( world, joint, &pose );
		tbGetJointClass( joint->type )->getError( joint, &pose, &linear, &angular );
	}
	if ( posError != NULL )
	{
		*posError = linear;
	}
	if ( angleError != NULL )
	{
		*angleError = angular;
	}
	return joint != NULL ? tbResult_ok : tbResult_invalidId;
}

bool tbJoint_IsBroken( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL && joint->broken;
}

static void tbClearJointImpulses( tbJoint* joint )
{
	tbGetJointClass( joint->type )->scaleImpulses( joint, 0.0f );
	joint->impulseH = 0.0f;
	joint->force = tb_vec3_zero;
	joint->torque = tb_vec3_zero;
}

tbResult tbJoint_SetEnabled( tbJointId jointId, bool enabled )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_typeCount, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	bool wasActive = joint->enabled && !joint->broken;
	joint->enabled = enabled;
	if ( enabled )
	{
		joint->broken = false;
	}
	bool isActive = joint->enabled && !joint->broken;
	if ( wasActive != isActive )
	{
		tbClearJointImpulses( joint );
		if ( joint->collideConnected == false )
		{
			if ( isActive )
			{
				tbDestroyContactsBetween( world, joint->edges[0].bodyId, joint->edges[1].bodyId );
			}
			else
			{
				tbRefreshBodyPairs( world, joint->edges[0].bodyId, joint->edges[1].bodyId );
			}
		}
	}
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

bool tbJoint_IsEnabled( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL && joint->enabled && !joint->broken;
}

tbResult tbJoint_SetBreakForce( tbJointId jointId, float force )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_typeCount, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsValidBreakLimit( force ) )
	{
		return tbResult_invalidArgument;
	}
	joint->breakForce = force;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbJoint_GetBreakForce( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL ? joint->breakForce : 0.0f;
}

tbResult tbJoint_SetBreakTorque( tbJointId jointId, float torque )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_typeCount, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsValidBreakLimit( torque ) )
	{
		return tbResult_invalidArgument;
	}
	joint->breakTorque = torque;
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

float tbJoint_GetBreakTorque( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL ? joint->breakTorque : 0.0f;
}

tbVec3 tbJoint_GetConstraintForce( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL ? joint->force : tb_vec3_zero;
}

tbVec3 tbJoint_GetConstraintTorque( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL ? joint->torque : tb_vec3_zero;
}

tbResult tbJoint_SetCollideConnected( tbJointId jointId, bool collide )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_typeCount, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( joint->collideConnected == collide )
	{
		return tbResult_ok;
	}
	joint->collideConnected = collide;
	if ( collide )
	{
		tbRefreshBodyPairs( world, joint->edges[0].bodyId, joint->edges[1].bodyId );
	}
	else if ( joint->enabled && !joint->broken )
	{
		tbDestroyContactsBetween( world, joint->edges[0].bodyId, joint->edges[1].bodyId );
	}
	tbWakeJointBodies( world, joint );
	return tbResult_ok;
}

bool tbJoint_GetCollideConnected( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL && joint->collideConnected;
}

const char* tbJoint_GetName( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL ? joint->name : NULL;
}

tbResult tbJoint_SetName( tbJointId jointId, const char* name )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_typeCount, &world, &joint );
	if ( r != tbResult_ok )
	{
		return r;
	}
	memset( joint->name, 0, sizeof( joint->name ) );
	if ( name != NULL )
	{
		strncpy( joint->name, name, TB_JOINT_NAME_LENGTH - 1 );
	}
	return tbResult_ok;
}

void* tbJoint_GetUserData( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	return joint != NULL ? joint->userData : NULL;
}

void tbJoint_SetUserData( tbJointId jointId, void* userData )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	if ( joint != NULL )
	{
		joint->userData = userData;
	}
}

tbResult tbJoint_WakeBodies( tbJointId jointId )
{
	tbWorld* world;
	tbJoint* joint;
	tbResult r = tbGetMutableJoint( jointId, tbJoint_typeCount, &world, &joint );
	if ( r == tbResult_ok )
	{
		tbWakeJointBodies( world, joint );
	}
	return r;
}

// World interface ---------------------------------------------------------------------------------

static bool tbIsAwakeDynamic( const tbBody* body )
{
	return body != NULL && body->type == tbBody_dynamic && body->awake;
}

static bool tbIsMovingKinematic( const tbBody* body )
{
	return body != NULL && body->type == tbBody_kinematic && body->awake &&
		   ( tbLengthSquared( body->linearVelocity ) > 0.0f || tbLengthSquared( body->angularVelocity ) > 0.0f );
}

int tbCollectAwakeJoints( tbWorld* world, int* outIds )
{
	int n = 0;
	for ( int i = 0; i < world->joints.count; ++i )
	{
		tbJoint* joint = world->joints.data + i;
		if ( joint->id < 0 || joint->enabled == false || joint->broken )
		{
			continue;
		}
		tbBody* bodyA = joint->edges[0].bodyId >= 0 ? world->bodies.data + joint->edges[0].bodyId : NULL;
		tbBody* bodyB = joint->edges[1].bodyId >= 0 ? world->bodies.data + joint->edges[1].bodyId : NULL;
		bool awakeA = tbIsAwakeDynamic( bodyA );
		bool awakeB = tbIsAwakeDynamic( bodyB );
		// An awake body (or a moving mover) pulls its sleeping partner awake; it takes part from
		// the next step on (this step's solver arrays are already built).
		if ( ( awakeA || tbIsMovingKinematic( bodyA ) ) && bodyB != NULL && bodyB->type == tbBody_dynamic &&
			 bodyB->awake == false )
		{
			tbWakeBody( world, bodyB );
		}
		if ( ( awakeB || tbIsMovingKinematic( bodyB ) ) && bodyA != NULL && bodyA->type == tbBody_dynamic &&
			 bodyA->awake == false )
		{
			tbWakeBody( world, bodyA );
		}
		bool solvableA = awakeA && bodyA->solverIndex >= 0;
		bool solvableB = awakeB && bodyB->solverIndex >= 0;
		if ( solvableA || solvableB )
		{
			outIds[n++] = i;
		}
	}
	return n;
}

void tbLinkJoints( tbWorld* world, tbJointLinkFcn* fcn )
{
	for ( int i = 0; i < world->joints.count; ++i )
	{
		tbJoint* joint = world->joints.data + i;
		if ( joint->id < 0 || joint->enabled == false || joint->broken )
		{
			continue;
		}
		if ( joint->edges[0].bodyId >= 0 && joint->edges[1].bodyId >= 0 )
		{
			fcn( world, joint->edges[0].bodyId, joint->edges[1].bodyId );
		}
	}
}

bool tbShouldJointedBodiesCollide( tbWorld* world, int bodyIdA, int bodyIdB )
{
	if ( bodyIdA < 0 || bodyIdB < 0 )
	{
		return true;
	}
	tbBody* bodyA = world->bodies.data + bodyIdA;
	tbBody* bodyB = world->bodies.data + bodyIdB;
	// Walk the shorter list.
	int self = bodyIdA, other = bodyIdB;
	int key = bodyA->headJointKey;
	if ( bodyB->jointCount < bodyA->jointCount )
	{
		self = bodyIdB;
		other = bodyIdA;
		key = bodyB->headJointKey;
	}
	TB_UNUSED( self );
	while ( key >= 0 )
	{
		tbJoint* joint = world->joints.data + ( key >> 1 );
		int edge = key & 1;
		if ( joint->edges[edge ^ 1].bodyId == other && joint->collideConnected == false && joint->enabled &&
			 joint->broken == false )
		{
			return false;
		}
		key = joint->edges[edge].nextKey;
	}
	return true;
}

// Step --------------------------------------------------------------------------------------------

static void tbPrepareJointSide( tbStepContext* ctx, int bodyId, tbTransform localFrame, tbJointSide* side )
{
	if ( bodyId < 0 )
	{
		// The static world: the frame is in world coordinates; put the "centre" on the anchor.
		side->solverIndex = -1;
		side->invMass = 0.0f;
		side->invI = tb_mat3Zero;
		side->center0 = localFrame.p;
		side->anchor0 = tb_vec3_zero;
		side->frame0 = localFrame.q;
		return;
	}
	tbBody* body = ctx->world->bodies.data + bodyId;
	tbQuat q0;
	if ( body->solverIndex >= 0 && body->solverIndex < ctx->bodyCount )
	{
		tbSolverBody* sb = ctx->bodies + body->solverIndex;
		side->solverIndex = body->solverIndex;
		side->invMass = body->type == tbBody_dynamic ? sb->invMass : 0.0f;
		side->invI = body->type == tbBody_dynamic ? sb->invInertia : tb_mat3Zero;
		side->center0 = sb->center0;
		q0 = sb->q0;
	}
	else
	{
		// Static, or asleep this step: it does not move during the step.
		side->solverIndex = -1;
		side->invMass = 0.0f;
		side->invI = tb_mat3Zero;
		side->center0 = body->center;
		q0 = body->transform.q;
	}
	side->anchor0 = tbRotate( q0, tbSub( localFrame.p, body->localCenter ) );
	side->frame0 = tbNormalizeQ( tbMulQQ( q0, localFrame.q ) );
}

// Warm-start guard (000 ch. 10.1) and time-step change: the accumulated impulses are per sub-step,
// so a new sub-step length rescales them; NaN clears them; a replay that alone would change the
// relative velocity by more than TB_WARM_START_MAX_SPEED is scaled down.
static void tbGuardWarmStart( tbStepContext* ctx, tbJoint* joint, const tbJointClass* cls )
{
	if ( ctx->enableWarmStarting == false || joint->impulseH <= 0.0f )
	{
		cls->scaleImpulses( joint, 0.0f );
		return;
	}
	float scale = ctx->h / joint->impulseH;
	tbVec3 linear, angular;
	cls->getReaction( joint, &linear, &angular );
	if ( !tbIsValidVec3( linear ) || !tbIsValidVec3( angular ) )
	{
		cls->scaleImpulses( joint, 0.0f );
		return;
	}
	float invMass = joint->sideA.invMass + joint->sideB.invMass;
	float dv = scale * invMass * tbLength( linear );
	if ( dv > TB_WARM_START_MAX_SPEED )
	{
		scale *= TB_WARM_START_MAX_SPEED / dv;
	}
	// Largest row sum of the summed inverse inertia bounds its largest eigenvalue.
	tbMat3 invI = tbAddMM( joint->sideA.invI, joint->sideB.invI );
	tbMat3 t = tbTranspose( invI );
	float norm = tbMaxFloat( tbAbsFloat( t.cx.x ) + tbAbsFloat( t.cx.y ) + tbAbsFloat( t.cx.z ),
							 tbMaxFloat( tbAbsFloat( t.cy.x ) + tbAbsFloat( t.cy.y ) + tbAbsFloat( t.cy.z ),
										 tbAbsFloat( t.cz.x ) + tbAbsFloat( t.cz.y ) + tbAbsFloat( t.cz.z ) ) );
	float dw = scale * norm * tbLength( angular );
	if ( dw > TB_WARM_START_MAX_ANGULAR_SPEED )
	{
		scale *= TB_WARM_START_MAX_ANGULAR_SPEED / dw;
	}
	if ( scale != 1.0f )
	{
		cls->scaleImpulses( joint, scale );
	}
}

static void tbLoadMotion( tbStepContext* ctx, const tbJoint* joint, tbJointMotion* m );

// The inverse inertia of a side as the solver has it now (it turns the bodies' inertia every
// sub-step).
static void tbRefreshSideInertia( tbStepContext* ctx, tbJointSide* side )
{
	if ( side->solverIndex >= 0 && side->invMass > 0.0f )
	{
		side->invI = ctx->bodies[side->solverIndex].invInertia;
	}
}

// Rebuild the joint's rows for the current sub-step from the loaded motion (joint.h, prepared rows).
static void tbRefreshJoint( tbStepContext* ctx, tbJoint* joint, const tbJointClass* cls, const tbJointMotion* m )
{
	tbRefreshSideInertia( ctx, &joint->sideA );
	tbRefreshSideInertia( ctx, &joint->sideB );
	if ( cls->refresh == NULL )
	{
		return;
	}
	tbComputeJointPose( joint, m, &joint->pose );
	joint->rA = joint->pose.rA;
	joint->rB = joint->pose.rB;
	cls->refresh( ctx, joint, &joint->pose );
}

// Joint graph colouring ---------------------------------------------------------------------------

_Static_assert( TB_JOINT_COLOR_COUNT <= 16, "joint colour sets are 16-bit masks" );

// A side the solver writes: an awake dynamic body (kinematic and static sides are only read).
static bool tbIsWrittenSide( const tbJointSide* side )
{
	return side->solverIndex >= 0 && side->invMass > 0.0f;
}

// Greedy colouring of the step's joints (as the contacts', constraint_graph.c): a joint takes the
// lowest colour free on both of its moving bodies. Visiting the joints in jointIds order makes the
// colours, and so the Gauss-Seidel order, a function of the joint list alone: the result is the same
// for any thread count. Custom joints call back into user code (a Lua state is single-threaded),
// so they go to the overflow set with the joints that found no colour.
static void tbColorJoints( tbStepContext* ctx )
{
	tbWorld* world = ctx->world;
	int count = ctx->jointCount;
	uint16_t* bodyColors = TB_ARENA_ARRAY( ctx->arena, uint16_t, ctx->bodyCount > 0 ? ctx->bodyCount : 1 );
	uint8_t* colorOf = TB_ARENA_ARRAY_RAW( ctx->arena, uint8_t, count > 0 ? count : 1 );
	int* sorted = TB_ARENA_ARRAY_RAW( ctx->arena, int, count > 0 ? count : 1 );
	int counts[TB_JOINT_COLOR_COUNT + 1] = { 0 };
	const unsigned allColors = ( 1u << TB_JOINT_COLOR_COUNT ) - 1u;
	for ( int i = 0; i < count; ++i )
	{
		tbJoint* joint = world->joints.data + ctx->jointIds[i];
		int color = TB_JOINT_COLOR_COUNT;
		if ( joint->type != tbJoint_custom )
		{
			bool writeA = tbIsWrittenSide( &joint->sideA );
			bool writeB = tbIsWrittenSide( &joint->sideB );
			unsigned taken = ( writeA ? bodyColors[joint->sideA.solverIndex] : 0u ) |
							 ( writeB ? bodyColors[joint->sideB.solverIndex] : 0u );
			unsigned free = ~taken & allColors;
			if ( free != 0u )
			{
				color = __builtin_ctz( free );
				if ( writeA )
				{
					bodyColors[joint->sideA.solverIndex] |= (uint16_t)( 1u << color );
				}
				if ( writeB )
				{
					bodyColors[joint->sideB.solverIndex] |= (uint16_t)( 1u << color );
				}
			}
		}
		colorOf[i] = (uint8_t)color;
		counts[color] += 1;
	}
	int offset = 0;
	int fill[TB_JOINT_COLOR_COUNT + 1];
	for ( int color = 0; color <= TB_JOINT_COLOR_COUNT; ++color )
	{
		ctx->jointColorStarts[color] = offset;
		fill[color] = offset;
		offset += counts[color];
	}
	ctx->jointColorStarts[TB_JOINT_COLOR_COUNT + 1] = offset;
	for ( int i = 0; i < count; ++i )
	{
		sorted[fill[colorOf[i]]++] = ctx->jointIds[i];
	}
	memcpy( ctx->jointIds, sorted, sizeof( int ) * (size_t)count );
}

static void tbLoadSide( tbStepContext* ctx, const tbJointSide* side, tbVec3* v, tbVec3* w, tbVec3* dp, tbQuat* dq,
						float* invMass, const tbMat3** invI )
{
	if ( side->solverIndex >= 0 )
	{
		const tbBodyState* s = ctx->states + side->solverIndex;
		*v = s->v;
		*w = s->w;
		*dp = s->dp;
		*dq = s->dq;
	}
	else
	{
		*v = tb_vec3_zero;
		*w = tb_vec3_zero;
		*dp = tb_vec3_zero;
		*dq = tb_quatIdentity;
	}
	// The inertia of the step start, the one the prepared effective masses were built with: the
	// rows and their masses must use the same M^-1 or Gauss-Seidel over-/under-relaxes.
	*invI = &side->invI;
	*invMass = side->invMass;
}

static void tbLoadMotion( tbStepContext* ctx, const tbJoint* joint, tbJointMotion* m )
{
	tbLoadSide( ctx, &joint->sideA, &m->vA, &m->wA, &m->dpA, &m->dqA, &m->mA, &m->iA );
	tbLoadSide( ctx, &joint->sideB, &m->vB, &m->wB, &m->dpB, &m->dqB, &m->mB, &m->iB );
}

static void tbStoreMotion( tbStepContext* ctx, const tbJoint* joint, const tbJointMotion* m )
{
	// Bodies with zero inverse mass (kinematic) keep their velocity untouched.
	if ( joint->sideA.solverIndex >= 0 && joint->sideA.invMass > 0.0f )
	{
		tbBodyState* s = ctx->states + joint->sideA.solverIndex;
		s->v = m->vA;
		s->w = m->wA;
	}
	if ( joint->sideB.solverIndex >= 0 && joint->sideB.invMass > 0.0f )
	{
		tbBodyState* s = ctx->states + joint->sideB.solverIndex;
		s->v = m->vB;
		s->w = m->wB;
	}
}

// Gauss-Seidel passes over the joints per solve call. The soft step solves each sub-step once
// (plus one relax pass). With stiff joints relative to the sub-step (omega h near pi, e.g. 120 Hz
// at 4 sub-steps of 1/240 s) one pass leaves a light link between two stiff joints ringing, and a
// light chain holding a heavy load oscillates with growing amplitude (1 kg links holding 100 kg);
// three passes settle it at its soft equilibrium. In soft mode the passes are therefore the world's
// velocity iteration budget spread over the sub-steps, round(iterations / subSteps), and at least
// three when omega h > 2. Baumgarte and split modes call the joints once per iteration already.
static int tbJointPasses( const tbStepContext* ctx )
{
	if ( ctx->mode != tbSolver_soft || ctx->subStepCount <= 0 )
	{
		return 1;
	}
	int passes = tbMaxInt( 1, ( ctx->iterations + ctx->subStepCount / 2 ) / ctx->subStepCount );
	// Recover omega h from the softness: massScale = a2 / (1 + a2) with a2 = (omega h)(2 zeta +
	// omega h), and biasRate h = omega h / (2 zeta + omega h), so (omega h)^2 = a2 biasRate h.
	tbSoftness soft = ctx->jointSoftness;
	if ( soft.massScale < 1.0f )
	{
		float a2 = soft.massScale / ( 1.0f - soft.massScale );
		float omegaH = sqrtf( a2 * soft.biasRate * ctx->h );
		if ( omegaH > 2.0f )
		{
			passes = tbMaxInt( passes, 3 );
		}
	}
	return passes;
}

static bool tbIsBreakable( const tbJoint* joint )
{
	return joint->breakForce < FLT_MAX || joint->breakTorque < FLT_MAX;
}

// Reaction force and torque of the sub-step just solved, N and N m (the impulses are per sub-step).
static void tbSubStepReaction( const tbStepContext* ctx, const tbJoint* joint, const tbJointClass* cls,
							   tbVec3* force, tbVec3* torque )
{
	tbVec3 linear, angular;
	cls->getReaction( joint, &linear, &angular );
	*force = tbMulSV( ctx->inv_h, linear );
	*torque = tbMulSV( ctx->inv_h, angular );
}

static void tbTrackPeakReaction( const tbStepContext* ctx, tbJoint* joint, const tbJointClass* cls )
{
	tbVec3 force, torque;
	tbSubStepReaction( ctx, joint, cls, &force, &torque );
	joint->peakForce = tbMaxFloat( joint->peakForce, tbLength( force ) );
	joint->peakTorque = tbMaxFloat( joint->peakTorque, tbLength( torque ) );
}

// Joint stages run colour by colour: the joints of a colour share no written body, so blocks of
// them run on any thread; the overflow set runs on the calling thread, in order.
typedef enum tbJointStage
{
	tbJointStage_prepare,
	tbJointStage_refresh,
	tbJointStage_warmStart,
	tbJointStage_solve,
} tbJointStage;

typedef struct tbJointStageTask
{
	tbStepContext* ctx;
	const int* jointIds; ///< the colour's joints
	tbJointStage stage;
	bool useBias;
	bool refresh;     ///< prepare, warm start: build the rows first (prepare: the scalar joints)
	bool computePose; ///< solve: measure the pose first (the relax call's first pass)
	bool trackPeak;   ///< solve: the sub-step's last pass, record breakable joints' reactions
} tbJointStageTask;

/// Joints per parallel-for block (fixed: results must not depend on the thread count).
#define TB_JOINT_BLOCK_SIZE 32

static void tbJointStageBlock( int start, int end, int blockIndex, void* context )
{
	TB_UNUSED( blockIndex );
	const tbJointStageTask* task = context;
	tbStepContext* ctx = task->ctx;
	tbWorld* world = ctx->world;
	for ( int i = start; i < end; ++i )
	{
		tbJoint* joint = world->joints.data + task->jointIds[i];
		const tbJointClass* cls = tbGetJointClass( joint->type );
		if ( task->stage == tbJointStage_prepare )
		{
			cls->prepare( ctx, joint );
		}
		tbJointMotion m;
		tbLoadMotion( ctx, joint, &m );
		switch ( task->stage )
		{
			case tbJointStage_prepare:
				// The rows first: the guard measures the warm-start impulses along them. The lanes'
				// joints are measured along the rows they ended the last step with (tbUnpackWideJoints);
				// their rows are built in the lanes.
				if ( task->refresh )
				{
					tbRefreshJoint( ctx, joint, cls, &m );
				}
				tbGuardWarmStart( ctx, joint, cls );
				break;
			case tbJointStage_refresh:
				tbRefreshJoint( ctx, joint, cls, &m );
				break;
			case tbJointStage_warmStart:
				// A new sub-step begins here when the bodies have moved since the rows were built.
				if ( task->refresh )
				{
					tbRefreshJoint( ctx, joint, cls, &m );
				}
				cls->warmStart( ctx, joint, &m );
				tbStoreMotion( ctx, joint, &m );
				break;
			case tbJointStage_solve:
				// Only the relax call follows a position update (the sub-step's tbIntegratePositions);
				// the biased calls see the pose of the refresh just before them.
				if ( task->computePose && cls->refresh != NULL )
				{
					tbComputeJointPose( joint, &m, &joint->pose );
				}
				cls->solve( ctx, joint, &m, task->useBias );
				tbStoreMotion( ctx, joint, &m );
				if ( task->trackPeak && tbIsBreakable( joint ) )
				{
					tbTrackPeakReaction( ctx, joint, cls );
				}
				break;
		}
	}
}

// The wide stage that goes with a scalar one (joint_wide.c); the prepare has none, it runs scalar
// for every joint before the lanes are packed.
static void tbRunWideStage( tbStepContext* ctx, const tbJointStageTask* task, int color )
{
	switch ( task->stage )
	{
		case tbJointStage_prepare:
			break;
		case tbJointStage_refresh:
			tbRunWideJoints( ctx, color, tbWideJointStage_refresh, ctx->jointSoftness, false );
			break;
		case tbJointStage_warmStart:
			if ( task->refresh )
			{
				tbRunWideJoints( ctx, color, tbWideJointStage_refresh, ctx->jointSoftness, false );
			}
			tbRunWideJoints( ctx, color, tbWideJointStage_warmStart, ctx->jointSoftness, false );
			break;
		case tbJointStage_solve:
			tbRunWideJoints( ctx, color, tbWideJointStage_solve, tbJointSoftness( ctx, task->useBias ),
							 task->computePose );
			break;
	}
}

static void tbRunJointStage( tbStepContext* ctx, tbJointStageTask task )
{
	task.ctx = ctx;
	for ( int color = 0; color <= TB_JOINT_COLOR_COUNT; ++color )
	{
		int start = ctx->jointColorStarts[color];
		if ( task.stage == tbJointStage_prepare )
		{
			// The lanes' joints are prepared here too, without their scalar rows.
			int wideCount = ctx->jointScalarStarts[color] - start;
			if ( wideCount > 0 )
			{
				tbJointStageTask wideTask = task;
				wideTask.jointIds = ctx->jointIds + start;
				wideTask.refresh = false;
				tbParallelFor( ctx->jobs, wideCount, TB_JOINT_BLOCK_SIZE, tbJointStageBlock, &wideTask );
			}
			task.refresh = true;
			start = ctx->jointScalarStarts[color];
		}
		else if ( color < TB_JOINT_COLOR_COUNT )
		{
			tbRunWideStage( ctx, &task, color );
			start = ctx->jointScalarStarts[color];
		}
		int count = ctx->jointColorStarts[color + 1] - start;
		if ( count == 0 )
		{
			continue;
		}
		task.jointIds = ctx->jointIds + start;
		if ( color < TB_JOINT_COLOR_COUNT )
		{
			tbParallelFor( ctx->jobs, count, TB_JOINT_BLOCK_SIZE, tbJointStageBlock, &task );
		}
		else
		{
			tbJointStageBlock( 0, count, 0, &task );
		}
	}
}

void tbWarmStartJoints( tbStepContext* ctx )
{
	tbJointStageTask task = { 0 };
	task.stage = tbJointStage_warmStart;
	// The first sub-step's rows are the prepare's: nothing has moved since.
	task.refresh = ctx->jointRowsCurrent == false;
	tbRunJointStage( ctx, task );
	ctx->jointRowsCurrent = true;
}

void tbPrepareJoints( tbStepContext* ctx )
{
	tbWorld* world = ctx->world;
	for ( int i = 0; i < ctx->jointCount; ++i )
	{
		tbJoint* joint = world->joints.data + ctx->jointIds[i];
		tbPrepareJointSide( ctx, joint->edges[0].bodyId, joint->localFrameA, &joint->sideA );
		tbPrepareJointSide( ctx, joint->edges[1].bodyId, joint->localFrameB, &joint->sideB );
		joint->deltaCenter = tbSub( joint->sideB.center0, joint->sideA.center0 );
		joint->peakForce = 0.0f;
		joint->peakTorque = 0.0f;
	}
	// The colours need the sides; each joint's prepare writes only that joint, so it runs by colour
	// too (custom joints, which call user code, on this thread).
	tbColorJoints( ctx );
	tbSortWideJoints( ctx );
	tbJointStageTask task = { 0 };
	task.stage = tbJointStage_prepare;
	tbRunJointStage( ctx, task );
	tbPackWideJoints( ctx );
	ctx->jointRowsCurrent = true;
}

void tbSolveJoints( tbStepContext* ctx, bool useBias )
{
	// Without warm starting the sub-step's first call is its biased solve: refresh the rows there.
	// Baumgarte and split modes have one sub-step, prepared by tbPrepareJoints.
	if ( useBias && ctx->mode == tbSolver_soft && ctx->enableWarmStarting == false && ctx->jointRowsCurrent == false )
	{
		tbJointStageTask task = { 0 };
		task.stage = tbJointStage_refresh;
		tbRunJointStage( ctx, task );
		ctx->jointRowsCurrent = true;
	}
	int passes = tbJointPasses( ctx );
	for ( int pass = 0; pass < passes; ++pass )
	{
		tbJointStageTask task = { 0 };
		task.stage = tbJointStage_solve;
		task.useBias = useBias;
		task.computePose = pass == 0 && useBias == false;
		// The relax call ends a sub-step (soft mode): its accumulated impulses are that sub-step's
		// reaction. Breakable joints keep the largest over the step (tbFinalizeJoints).
		task.trackPeak = pass == passes - 1 && useBias == false;
		tbRunJointStage( ctx, task );
	}
}

// Breaking compares the largest reaction over the step's sub-steps with the limits: an impact
// resolved within one sub-step would escape a test of the last sub-step only. The reported
// constraint force and torque stay those of the last sub-step (the joint's state at the end of the
// step); the break event carries the peaks that broke it.
void tbFinalizeJoints( tbStepContext* ctx )
{
	tbUnpackWideJoints( ctx );
	tbWorld* world = ctx->world;
	for ( int i = 0; i < ctx->jointCount; ++i )
	{
		tbJoint* joint = world->joints.data + ctx->jointIds[i];
		const tbJointClass* cls = tbGetJointClass( joint->type );
		tbSubStepReaction( ctx, joint, cls, &joint->force, &joint->torque );
		joint->impulseH = ctx->h;
		float force = tbMaxFloat( joint->peakForce, tbLength( joint->force ) );
		float torque = tbMaxFloat( joint->peakTorque, tbLength( joint->torque ) );
		if ( joint->broken == false && ( force > joint->breakForce || torque > joint->breakTorque ) )
		{
			joint->broken = true;
			cls->scaleImpulses( joint, 0.0f );
			joint->impulseH = 0.0f;
			tbJointBreakEvent ev;
			ev.jointId = tbMakeJointId( world, joint );
			ev.force = force;
			ev.torque = torque;
			tbPushJointBreak( world, &ev );
		}
	}
}

// Poses -------------------------------------------------------------------------------------------

static tbQuat tbRelativeQuat( tbQuat qA, tbQuat qB )
{
	tbQuat q = tbInvMulQQ( qA, qB );
	if ( q.w < 0.0f )
	{
		q.x = -q.x;
		q.y = -q.y;
		q.z = -q.z;
		q.w = -q.w;
	}
	return q;
}

void tbComputeJointPose( const tbJoint* joint, const tbJointMotion* m, tbJointPose* p )
{
	p->rA = tbRotate( m->dqA, joint->sideA.anchor0 );
	p->rB = tbRotate( m->dqB, joint->sideB.anchor0 );
	p->d = tbAdd( tbAdd( tbSub( m->dpB, m->dpA ), tbSub( p->rB, p->rA ) ), joint->deltaCenter );
	// dq and frame0 are unit quaternions, so are their products (to rounding, rebuilt every step).
	p->qA = tbMulQQ( m->dqA, joint->sideA.frame0 );
	p->qB = tbMulQQ( m->dqB, joint->sideB.frame0 );
	p->qRel = tbRelativeQuat( p->qA, p->qB );
	p->anglesKnown = 0u;
}

static void tbBodyFrame( tbWorld* world, int bodyId, tbTransform local, tbVec3* center, tbVec3* anchor, tbQuat* q )
{
	if ( bodyId < 0 )
	{
		*center = local.p;
		*anchor = local.p;
		*q = local.q;
		return;
	}
	tbBody* body = world->bodies.data + bodyId;
	*center = body->center;
	*anchor = tbTransformPoint( body->transform, local.p );
	*q = tbNormalizeQ( tbMulQQ( body->transform.q, local.q ) );
}

void tbComputeJointBodyPose( tbWorld* world, const tbJoint* joint, tbJointPose* p )
{
	tbVec3 cA, cB, aA, aB;
	tbBodyFrame( world, joint->edges[0].bodyId, joint->localFrameA, &cA, &aA, &p->qA );
	tbBodyFrame( world, joint->edges[1].bodyId, joint->localFrameB, &cB, &aB, &p->qB );
	p->rA = tbSub( aA, cA );
	p->rB = tbSub( aB, cB );
	p->d = tbSub( aB, aA );
	p->qRel = tbRelativeQuat( p->qA, p->qB );
	p->anglesKnown = 0u;
}

// Row solvers -------------------------------------------------------------------------------------

tbSoftness tbJointSoftness( const tbStepContext* ctx, bool useBias )
{
	if ( useBias == false )
	{
		tbSoftness none = { 0.0f, 1.0f, 0.0f };
		return none;
	}
	if ( ctx->mode == tbSolver_soft )
	{
		return ctx->jointSoftness;
	}
	// Baumgarte (000 ch. 11): a fraction beta of the error per step. Split mode feeds joint
	// drift back the same way (only contacts are split).
	return tbMakeRigid( ctx->baumgarte * ctx->inv_h );
}

static float tbInverseOrZero( float k )
{
	return k > 0.0f ? 1.0f / k : 0.0f;
}

float tbSolveEqualityRow( tbJointMotion* m, const tbJointRow* J, float C, tbSoftness soft, float* accumulated )
{
	float mass = tbInverseOrZero( tbRowCoupling( m, J, J ) );
	float cdot = tbRowVelocity( m, J );
	float lambda = -soft.massScale * mass * ( cdot + tbClampCorrection( soft.biasRate * C ) ) - soft.impulseScale * *accumulated;
	*accumulated += lambda;
	tbRowApply( m, J, lambda );
	return lambda;
}

// Bias velocity and softness of an inequality row C >= 0.
static float tbLimitBias( const tbStepContext* ctx, float C, bool useBias, tbSoftness* soft )
{
	tbSoftness hard = { 0.0f, 1.0f, 0.0f };
	*soft = hard;
	if ( C > 0.0f )
	{
		// Speculative: allow the approach that closes the gap within this sub-step, no more.
		return tbMinFloat( C, TB_MAX_JOINT_LENGTH ) * ctx->inv_h;
	}
	if ( useBias )
	{
		*soft = tbJointSoftness( ctx, true );
		return tbClampCorrection( soft->biasRate * C );
	}
	return 0.0f;
}

void tbSolveLimitRow( const tbStepContext* ctx, tbJointMotion* m, const tbJointRow* J, float C, bool useBias,
					  float* accumulated )
{
	tbSoftness soft;
	float bias = tbLimitBias( ctx, C, useBias, &soft );
	float mass = tbInverseOrZero( tbRowCoupling( m, J, J ) );
	float cdot = tbRowVelocity( m, J );
	float lambda = -soft.massScale * mass * ( cdot + bias ) - soft.impulseScale * *accumulated;
	float newImpulse = tbMaxFloat( *accumulated + lambda, 0.0f );
	lambda = newImpulse - *accumulated;
	*accumulated = newImpulse;
	tbRowApply( m, J, lambda );
}

void tbSolveMotorRow( tbJointMotion* m, const tbJointRow* J, float speed, float maxSpeed, float maxImpulse,
					  float* accumulated )
{
	float mass = tbInverseOrZero( tbRowCoupling( m, J, J ) );
	float cdot = tbRowVelocity( m, J );
	speed = tbClampMotorSpeed( speed, maxSpeed );
	float lambda = -mass * ( cdot - speed );
	float newImpulse = tbClampFloat( *accumulated + lambda, -maxImpulse, maxImpulse );
	lambda = newImpulse - *accumulated;
	*accumulated = newImpulse;
	tbRowApply( m, J, lambda );
}

void tbSolveSpringRow( tbJointMotion* m, const tbJointRow* J, float C, tbSoftness soft, float maxImpulse,
					   float* accumulated )
{
	float mass = tbInverseOrZero( tbRowCoupling( m, J, J ) );
	float cdot = tbRowVelocity( m, J );
	float lambda = -soft.massScale * mass * ( cdot + soft.biasRate * C ) - soft.impulseScale * *accumulated;
	float newImpulse = tbClampFloat( *accumulated + lambda, -maxImpulse, maxImpulse );
	lambda = newImpulse - *accumulated;
	*accumulated = newImpulse;
	tbRowApply( m, J, lambda );
}

void tbSolveEqualityBlock( tbJointMotion* m, const tbJointRow* J, const float* C, int n, tbSoftness soft,
						   float* accumulated )
{
	TB_ASSERT( n == 2 || n == 3 );
	// Effective mass K = J M^-1 J^T (symmetric); a 2x2 block is padded with a unit third row.
	float k[3][3] = { { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f } };
	float rhs[3] = { 0.0f, 0.0f, 0.0f };
	for ( int i = 0; i < n; ++i )
	{
		for ( int j = i; j < n; ++j )
		{
			k[i][j] = tbRowCoupling( m, J + i, J + j );
			k[j][i] = k[i][j];
		}
		rhs[i] = tbRowVelocity( m, J + i ) + tbClampCorrection( soft.biasRate * C[i] );
	}
	tbMat3 K = { { k[0][0], k[1][0], k[2][0] }, { k[0][1], k[1][1], k[2][1] }, { k[0][2], k[1][2], k[2][2] } };
	tbVec3 x = tbSolve3( K, tbMakeVec3( rhs[0], rhs[1], rhs[2] ) );
	float lambda[3] = { x.x, x.y, x.z };
	for ( int i = 0; i < n; ++i )
	{
		float l = -soft.massScale * lambda[i] - soft.impulseScale * accumulated[i];
		accumulated[i] += l;
		tbRowApply( m, J + i, l );
	}
}

// No point-joint pass asks for more than reversing the fastest relative anchor motion the speed
// clamps allow. Within the passes velocities are not clamped: joints that disagree on a body with a
// light axis and a 500 m lever fed each other's passes until r x P overflowed (fuzz findings 50,
// fixed joints, and 51, a motor joint). Normal scenes never come near the bound. Clamping the spin
// each pass stores instead (one place for all joint types) was worse: a clamped velocity no longer
// matches the accumulated impulses, which then grow (test_joints disagreeing_joints_on_a_light_axis).
static tbVec3 tbBoundPointRhs( tbVec3 rhs, tbVec3 rA, tbVec3 rB )
{
	// The lever arms' lengths (two square roots) only when the lever-free part of the bound is passed.
	if ( tbLengthSquared( rhs ) <= 4.0f * TB_MAX_SPEED * TB_MAX_SPEED )
	{
		return rhs;
	}
	return tbClampLength( rhs, 2.0f * ( TB_MAX_SPEED + TB_MAX_ANGULAR_SPEED * ( tbLength( rA ) + tbLength( rB ) ) ) );
}

// The same for an angular block: at most twice the fastest relative spin the clamps allow. A fixed
// joint's angular block on a body whose inertia spans eight orders of magnitude (a 1 km capsule of
// 5 cm radius) meets the growth of findings 50 and 51 through its ill-conditioned 3x3 inverse
// (fuzz finding 52).
static tbVec3 tbBoundAngularRhs( tbVec3 rhs )
{
	return tbClampLength( rhs, 4.0f * TB_MAX_ANGULAR_SPEED );
}

void tbApplyPointImpulse( tbJointMotion* m, const tbJointPose* p, tbVec3 impulse )
{
	m->vA = tbMulSub( m->vA, m->mA, impulse );
	m->wA = tbSub( m->wA, tbMulMV( *m->iA, tbCross( p->rA, impulse ) ) );
	m->vB = tbMulAdd( m->vB, m->mB, impulse );
	m->wB = tbAdd( m->wB, tbMulMV( *m->iB, tbCross( p->rB, impulse ) ) );
}

static void tbInvertPointMass( double invK[3][3], float mA, const tbMat3* iA, tbVec3 rA, float mB, const tbMat3* iB,
							   tbVec3 rB );
static tbVec3 tbMulPointInvMass( const double* invK, tbVec3 v );

void tbSolvePointBlock( tbJointMotion* m, const tbJointPose* p, tbSoftness soft, tbVec3* accumulated )
{
	// C = pB - pA (004 sec. 3.7.2), Cdot = vB + wB x rB - vA - wA x rA.
	double invK[3][3];
	tbInvertPointMass( invK, m->mA, m->iA, p->rA, m->mB, m->iB, p->rB );
	tbVec3 cdot = tbSub( tbAdd( m->vB, tbCross( m->wB, p->rB ) ), tbAdd( m->vA, tbCross( m->wA, p->rA ) ) );
	tbVec3 rhs = tbBoundPointRhs( tbAdd( cdot, tbClampCorrectionVec( tbMulSV( soft.biasRate, p->d ) ) ), p->rA, p->rB );
	tbVec3 impulse = tbMulSV( -soft.massScale, tbMulPointInvMass( &invK[0][0], rhs ) );
	impulse = tbMulSub( impulse, soft.impulseScale, *accumulated );
	*accumulated = tbAdd( *accumulated, impulse );
	tbApplyPointImpulse( m, p, impulse );
}

void tbSolveAngularBlock( tbJointMotion* m, const tbVec3* axes, const float* C, int n, tbSoftness soft,
						  float* accumulated )
{
	TB_ASSERT( n == 2 || n == 3 );
	tbMat3 I = tbAddMM( *m->iA, *m->iB );
	tbVec3 dw = tbSub( m->wB, m->wA );
	tbVec3 Ia0 = tbMulMV( I, axes[0] );
	tbVec3 Ia1 = tbMulMV( I, axes[1] );
	float k00 = tbDot( axes[0], Ia0 ), k01 = tbDot( axes[0], Ia1 ), k11 = tbDot( axes[1], Ia1 );
	tbVec3 r = { tbDot( axes[0], dw ) + tbClampCorrection( soft.biasRate * C[0] ),
				 tbDot( axes[1], dw ) + tbClampCorrection( soft.biasRate * C[1] ), 0.0f };
	if ( n == 3 )
	{
		r.z = tbDot( axes[2], dw ) + tbClampCorrection( soft.biasRate * C[2] );
	}
	r = tbBoundAngularRhs( r );
	float r0 = r.x, r1 = r.y, r2 = r.z;
	float lambda[3];
	if ( n == 2 )
	{
		// Near a half turn from the rest pose the quaternion rows turn parallel and the block is
		// singular: skip it rather than apply an unbounded impulse (relative threshold, so tiny
		// and huge inertias behave alike).
		float det = k00 * k11 - k01 * k01;
		float inv = det > 1.0e-5f * k00 * k11 ? 1.0f / det : 0.0f;
		lambda[0] = inv * ( k11 * r0 - k01 * r1 );
		lambda[1] = inv * ( k00 * r1 - k01 * r0 );
	}
	else
	{
		tbVec3 Ia2 = tbMulMV( I, axes[2] );
		float k02 = tbDot( axes[0], Ia2 ), k12 = tbDot( axes[1], Ia2 ), k22 = tbDot( axes[2], Ia2 );
		tbMat3 K = { { k00, k01, k02 }, { k01, k11, k12 }, { k02, k12, k22 } };
		// the same guard as the 2x2 case: a (near) singular block applies nothing
		float det = tbDeterminant( K );
		tbVec3 x = det > 1.0e-5f * k00 * k11 * k22 ? tbSolve3( K, tbMakeVec3( r0, r1, r2 ) ) : tb_vec3_zero;
		lambda[0] = x.x;
		lambda[1] = x.y;
		lambda[2] = x.z;
	}
	tbVec3 total = tb_vec3_zero;
	for ( int i = 0; i < n; ++i )
	{
		float l = -soft.massScale * lambda[i] - soft.impulseScale * accumulated[i];
		accumulated[i] += l;
		total = tbMulAdd( total, l, axes[i] );
	}
	m->wA = tbSub( m->wA, tbMulMV( *m->iA, total ) );
	m->wB = tbAdd( m->wB, tbMulMV( *m->iB, total ) );
}

void tbApplyAngularImpulse( tbJointMotion* m, tbVec3 impulse )
{
	m->wA = tbSub( m->wA, tbMulMV( *m->iA, impulse ) );
	m->wB = tbAdd( m->wB, tbMulMV( *m->iB, impulse ) );
}

// Prepared rows -----------------------------------------------------------------------------------

// K_ij += (r x e_i) . I^-1 (r x e_j) for a side that moves, in double. The columns r x e_i have two
// non-zero entries each and I^-1 is symmetric, so it is written out: M = I^-1 [r]x, then
// K += [r]x^T M (six distinct entries).
static void tbAddAngularMass( double K[3][3], float invMass, const tbMat3* I, tbVec3 r )
{
	if ( invMass <= 0.0f )
	{
		return;
	}
	double xx = I->cx.x, xy = I->cy.x, xz = I->cz.x, yy = I->cy.y, yz = I->cz.y, zz = I->cz.z;
	double x = r.x, y = r.y, z = r.z;
	// Columns of M: I^-1 (r x e_x) with r x e_x = (0, z, -y), r x e_y = (-z, 0, x), r x e_z = (y, -x, 0).
	double m0[3] = { xy * z - xz * y, yy * z - yz * y, yz * z - zz * y };
	double m1[3] = { xz * x - xx * z, yz * x - xy * z, zz * x - xz * z };
	double m2[3] = { xx * y - xy * x, xy * y - yy * x, xz * y - yz * x };
	double k00 = z * m0[1] - y * m0[2];
	double k11 = x * m1[2] - z * m1[0];
	double k22 = y * m2[0] - x * m2[1];
	double k01 = z * m1[1] - y * m1[2];
	double k02 = z * m2[1] - y * m2[2];
	double k12 = x * m2[2] - z * m2[0];
	K[0][0] += k00;
	K[1][1] += k11;
	K[2][2] += k22;
	K[0][1] += k01;
	K[1][0] += k01;
	K[0][2] += k02;
	K[2][0] += k02;
	K[1][2] += k12;
	K[2][1] += k12;
}

// The point rows' inverse effective mass: K = (mA + mB) 1 + the sides' angular terms, formed and
// inverted in double. With a lever arm r long against the body the angular part is ~|r|^2 / I and
// the linear part 1 / m: finding 34 (a fixed joint 141 km from a 2e6 kg sphere's centre) had 400
// against 5e-7, so float rounding of K (400 x 6e-8) wiped out the small eigenvalue along r, K
// turned indefinite and the passes diverged (x350 per pass). The inverse stays in double too: its
// entries along r (~2e6) would otherwise swamp the 1/400 across it. tbInvert3d's relative
// singularity test gives zero for a pair that cannot move (both kinematic): the rows then apply
// nothing.
static void tbInvertPointMass( double invK[3][3], float mA, const tbMat3* iA, tbVec3 rA, float mB, const tbMat3* iB,
							   tbVec3 rB )
{
	double mSum = (double)mA + (double)mB;
	double K[3][3] = { { mSum, 0.0, 0.0 }, { 0.0, mSum, 0.0 }, { 0.0, 0.0, mSum } };
	tbAddAngularMass( K, mA, iA, rA );
	tbAddAngularMass( K, mB, iB, rB );
	tbInvert3d( K, invK );
}

// invK * v for a row-major 3x3 inverse (a flat pointer: C before C23 will not pass a double[3][3]
// where a const one is expected).
static tbVec3 tbMulPointInvMass( const double* invK, tbVec3 v )
{
	double x = v.x, y = v.y, z = v.z;
	tbVec3 r = { (float)( invK[0] * x + invK[1] * y + invK[2] * z ), (float)( invK[3] * x + invK[4] * y + invK[5] * z ),
				 (float)( invK[6] * x + invK[7] * y + invK[8] * z ) };
	return r;
}

void tbPreparePoint( tbJoint* joint )
{
	tbInvertPointMass( joint->pointInvK, joint->sideA.invMass, &joint->sideA.invI, joint->rA, joint->sideB.invMass,
					   &joint->sideB.invI, joint->rB );
}

void tbApplyPreparedPointImpulse( tbJointMotion* m, const tbJoint* joint, tbVec3 impulse )
{
	m->vA = tbMulSub( m->vA, m->mA, impulse );
	m->wA = tbSub( m->wA, tbMulMV( *m->iA, tbCross( joint->rA, impulse ) ) );
	m->vB = tbMulAdd( m->vB, m->mB, impulse );
	m->wB = tbAdd( m->wB, tbMulMV( *m->iB, tbCross( joint->rB, impulse ) ) );
}

void tbSolvePoint( tbJointMotion* m, const tbJoint* joint, tbVec3 d, tbSoftness soft, tbVec3* accumulated )
{
	// C = pB - pA (004 sec. 3.7.2), Cdot = vB + wB x rB - vA - wA x rA with the sub-step's lever arms.
	tbVec3 rA = joint->rA;
	tbVec3 rB = joint->rB;
	tbVec3 cdot = tbSub( tbAdd( m->vB, tbCross( m->wB, rB ) ), tbAdd( m->vA, tbCross( m->wA, rA ) ) );
	tbVec3 rhs = tbBoundPointRhs( tbAdd( cdot, tbClampCorrectionVec( tbMulSV( soft.biasRate, d ) ) ), rA, rB );
	tbVec3 impulse = tbMulSV( -soft.massScale, tbMulPointInvMass( &joint->pointInvK[0][0], rhs ) );
	impulse = tbMulSub( impulse, soft.impulseScale, *accumulated );
	*accumulated = tbAdd( *accumulated, impulse );
	tbApplyPreparedPointImpulse( m, joint, impulse );
}

tbAngularAxis tbMakeAngularAxis( const tbJoint* joint, tbVec3 axis )
{
	tbAngularAxis row;
	row.axis = axis;
	float k = tbDot( axis, tbMulMV( joint->sideA.invI, axis ) ) + tbDot( axis, tbMulMV( joint->sideB.invI, axis ) );
	row.mass = tbInverseOrZero( k );
	return row;
}

void tbPrepareAngularBlock( const tbJoint* joint, tbAngularBlock* block )
{
	int n = block->n;
	TB_ASSERT( n == 2 || n == 3 );
	tbMat3 I = tbAddMM( joint->sideA.invI, joint->sideB.invI );
	tbVec3 Ia[3];
	for ( int i = 0; i < n; ++i )
	{
		Ia[i] = tbMulMV( I, block->axes[i] );
	}
	float k00 = tbDot( block->axes[0], Ia[0] ), k01 = tbDot( block->axes[0], Ia[1] );
	float k11 = tbDot( block->axes[1], Ia[1] );
	if ( n == 2 )
	{
		// Near a half turn from the rest pose the quaternion rows turn parallel and the block is
		// singular: leave it out rather than apply an unbounded impulse (relative threshold, so tiny
		// and huge inertias behave alike). The 2x2 inverse sits in the upper left of invK.
		float det = k00 * k11 - k01 * k01;
		float inv = det > 1.0e-5f * k00 * k11 ? 1.0f / det : 0.0f;
		block->invK = tb_mat3Zero;
		block->invK.cx.x = inv * k11;
		block->invK.cy.y = inv * k00;
		block->invK.cx.y = -inv * k01;
		block->invK.cy.x = -inv * k01;
		return;
	}
	float k02 = tbDot( block->axes[0], Ia[2] ), k12 = tbDot( block->axes[1], Ia[2] );
	float k22 = tbDot( block->axes[2], Ia[2] );
	tbMat3 K = { { k00, k01, k02 }, { k01, k11, k12 }, { k02, k12, k22 } };
	float det = tbDeterminant( K );
	block->invK = det > 1.0e-5f * k00 * k11 * k22 ? tbInvert( K ) : tb_mat3Zero;
}

tbVec3 tbAngularBlockImpulse( const tbAngularBlock* block, const float* accumulated )
{
	tbVec3 total = tbMulSV( accumulated[0], block->axes[0] );
	for ( int i = 1; i < block->n; ++i )
	{
		total = tbMulAdd( total, accumulated[i], block->axes[i] );
	}
	return total;
}

void tbSolvePreparedAngularBlock( tbJointMotion* m, const tbAngularBlock* block, const float* C, tbSoftness soft,
								  float* accumulated )
{
	tbVec3 dw = tbSub( m->wB, m->wA );
	tbVec3 rhs = { tbDot( block->axes[0], dw ) + tbClampCorrection( soft.biasRate * C[0] ),
				   tbDot( block->axes[1], dw ) + tbClampCorrection( soft.biasRate * C[1] ), 0.0f };
	if ( block->n == 3 )
	{
		rhs.z = tbDot( block->axes[2], dw ) + tbClampCorrection( soft.biasRate * C[2] );
	}
	tbVec3 x = tbMulMV( block->invK, tbBoundAngularRhs( rhs ) );
	float lambda[3] = { x.x, x.y, x.z };
	tbVec3 total = tb_vec3_zero;
	for ( int i = 0; i < block->n; ++i )
	{
		float l = -soft.massScale * lambda[i] - soft.impulseScale * accumulated[i];
		accumulated[i] += l;
		total = tbMulAdd( total, l, block->axes[i] );
	}
	tbApplyAngularImpulse( m, total );
}

static void tbApplyAngularRow( tbJointMotion* m, tbVec3 axis, float lambda )
{
	tbApplyAngularImpulse( m, tbMulSV( lambda, axis ) );
}

void tbSolveAngularLimit( const tbStepContext* ctx, tbJointMotion* m, const tbAngularAxis* row, float sign, float C,
						  bool useBias, float* accumulated )
{
	tbSoftness soft;
	float bias = tbLimitBias( ctx, C, useBias, &soft );
	tbVec3 axis = tbMulSV( sign, row->axis );
	float cdot = tbDot( axis, tbSub( m->wB, m->wA ) );
	float lambda = -soft.massScale * row->mass * ( cdot + bias ) - soft.impulseScale * *accumulated;
	float newImpulse = tbMaxFloat( *accumulated + lambda, 0.0f );
	lambda = newImpulse - *accumulated;
	*accumulated = newImpulse;
	tbApplyAngularRow( m, axis, lambda );
}

void tbSolveAngularMotor( tbJointMotion* m, const tbAngularAxis* row, float speed, float maxImpulse,
						  float* accumulated )
{
	float cdot = tbDot( row->axis, tbSub( m->wB, m->wA ) );
	speed = tbClampMotorSpeed( speed, TB_MAX_ANGULAR_SPEED );
	float lambda = -row->mass * ( cdot - speed );
	float newImpulse = tbClampFloat( *accumulated + lambda, -maxImpulse, maxImpulse );
	lambda = newImpulse - *accumulated;
	*accumulated = newImpulse;
	tbApplyAngularRow( m, row->axis, lambda );
}

void tbSolveAngularEquality( tbJointMotion* m, const tbAngularAxis* row, float C, tbSoftness soft,
							 float* accumulated )
{
	float cdot = tbDot( row->axis, tbSub( m->wB, m->wA ) );
	float lambda = -soft.massScale * row->mass * ( cdot + tbClampCorrection( soft.biasRate * C ) ) - soft.impulseScale * *accumulated;
	*accumulated += lambda;
	tbApplyAngularRow( m, row->axis, lambda );
}

// Quaternion geometry -----------------------------------------------------------------------------

tbVec3 tbQuatRowAxis( const tbJointPose* p, int i )
{
	tbQuat q = p->qRel;
	tbVec3 local;
	// w e_i + v x e_i in frame A; its length is sqrt(1 - v_i^2) for a unit qRel (joint.h).
	switch ( i )
	{
		case 0:
			local = tbMakeVec3( q.w, q.z, -q.y );
			break;
		case 1:
			local = tbMakeVec3( -q.z, q.w, q.x );
			break;
		default:
			local = tbMakeVec3( q.y, -q.x, q.w );
			break;
	}
	float length = tbLength( local );
	if ( length < 1.0e-20f )
	{
		return tb_vec3_zero;
	}
	return tbRotate( p->qA, tbMulSV( 0.5f / length, local ) );
}

// Full rotation lock (fixed and slider joints). The book's quaternion rows (000 ch. 16) have
// Cdot_i = a_i . (wB - wA) with a_i = 1/2 R(qA)(w e_i + v x e_i): near a half turn (w -> 0) all
// three turn perpendicular to the rotation axis, the block loses rank, and its accumulated
// impulses grow along the weak direction while their sum stays small. Fuzz finding 29 (a fixed
// joint created w = 4e-8 from a half turn: 2e9 rad/s in one sub-step) and finding 33 (a slider
// there: the next sub-step's warm start replayed those impulses along turned rows, 5e9 rad/s) both
// came from it. The world axes as rows (Cdot = wB - wA, K = IA^-1 + IB^-1, well conditioned at
// any pose) with the rotation vector as the error avoid it: a bias asks for at most biasRate pi.
tbVec3 tbRotationLockError( const tbJointPose* p )
{
	tbVec3 v = { p->qRel.x, p->qRel.y, p->qRel.z };
	float s = tbLength( v );
	if ( s == 0.0f )
	{
		return tb_vec3_zero;
	}
	// qRel.w >= 0 (tbRelativeQuat), so theta is in [0, pi]; v is in frame A.
	float theta = 2.0f * atan2f( s, p->qRel.w );
	return tbRotate( p->qA, tbMulSV( theta / s, v ) );
}

float tbTwistAngle( tbQuat q )
{
	// qRel = swing * twist with twist = (cos t/2, sin t/2 e_x): t = 2 atan2(x, w). With w >= 0
	// (tbRelativeQuat) the angle lies in [-pi, pi].
	if ( q.x * q.x + q.w * q.w < 1.0e-12f )
	{
		return 0.0f;
	}
	return 2.0f * atan2f( q.x, q.w );
}

tbVec3 tbTwistAxis( const tbJointPose* p )
{
	// Differentiating t = 2 atan2(x, w) with dq/dt = 1/2 omega_A q (omega_A = wB - wA in frame A):
	// dt/dt = omega_x + omega_y (w z + x y) / (w^2 + x^2) + omega_z (x z - w y) / (w^2 + x^2).
	// For a pure swing this is the bisector of the two twist axes, scaled by 1 / cos(swing / 2).
	tbQuat q = p->qRel;
	float s = q.w * q.w + q.x * q.x;
	if ( s < 1.0e-6f )
	{
		s = 1.0e-6f;
	}
	float inv = 1.0f / s;
	tbVec3 local = { 1.0f, ( q.w * q.z + q.x * q.y ) * inv, ( q.x * q.z - q.w * q.y ) * inv };
	return tbRotate( p->qA, local );
}

float tbSwingAngle( tbQuat q )
{
	// The swing part keeps |(w, x)| of qRel: swing = 2 acos(sqrt(w^2 + x^2)), computed with atan2
	// for accuracy near zero: tan(swing / 2) = sqrt(y^2 + z^2) / sqrt(w^2 + x^2).
	return 2.0f * atan2f( sqrtf( q.y * q.y + q.z * q.z ), sqrtf( q.w * q.w + q.x * q.x ) );
}

float tbPoseTwist( tbJointPose* p )
{
	if ( ( p->anglesKnown & 1u ) == 0u )
	{
		p->twist = tbTwistAngle( p->qRel );
		p->anglesKnown |= 1u;
	}
	return p->twist;
}

float tbPoseSwing( tbJointPose* p )
{
	if ( ( p->anglesKnown & 2u ) == 0u )
	{
		p->swing = tbSwingAngle( p->qRel );
		p->anglesKnown |= 2u;
	}
	return p->swing;
}

void tbComputeJointStartPose( const tbJoint* joint, tbJointPose* pose )
{
	tbJointMotion m;
	memset( &m, 0, sizeof( m ) );
	m.dqA = tb_quatIdentity;
	m.dqB = tb_quatIdentity;
	tbComputeJointPose( joint, &m, pose );
}

tbJointDef tbMakeDefaultJointDef( void )
{
	tbJointDef def;
	memset( &def, 0, sizeof( def ) );
	def.localFrameA = tb_transformIdentity;
	def.localFrameB = tb_transformIdentity;
	def.collideConnected = false;
	def.breakForce = FLT_MAX;
	def.breakTorque = FLT_MAX;
	def.internalValue = TB_SECRET_COOKIE;
	return def;
}

tbJointId tbFailJointCreation( tbResult* result, tbResult r )
{
	if ( result != NULL )
	{
		*result = r;
	}
	return tb_nullJointId;
}

float tbWrapAngle( float x )
{
	if ( x > TB_PI || x < -TB_PI )
	{
		x = remainderf( x, 2.0f * TB_PI );
	}
	return x;
}

void tbLoadJointBodyMotion( tbWorld* world, const tbJoint* joint, tbJointMotion* m )
{
	memset( m, 0, sizeof( *m ) );
	m->dqA = tb_quatIdentity;
	m->dqB = tb_quatIdentity;
	m->iA = &tb_mat3Zero;
	m->iB = &tb_mat3Zero;
	int a = joint->edges[0].bodyId;
	int b = joint->edges[1].bodyId;
	if ( a >= 0 )
	{
		const tbBody* body = world->bodies.data + a;
		m->vA = body->linearVelocity;
		m->wA = body->angularVelocity;
		m->mA = body->invMass;
		m->iA = &body->invWorldInertia;
	}
	if ( b >= 0 )
	{
		const tbBody* body = world->bodies.data + b;
		m->vB = body->linearVelocity;
		m->wB = body->angularVelocity;
		m->mB = body->invMass;
		m->iB = &body->invWorldInertia;
	}
}
