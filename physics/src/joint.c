// Tumble physics: the joint type table, joint storage, creation checks, body edge lists, the public
// calls every joint type shares, and the world's interface (islands, collision filtering). The
// step is joint_solver.c, the rows joint_rows.c (joint.h lists the files).
// SPDX-License-Identifier: MIT
#include "joint.h"

#include "body.h"
#include "contact.h"
#include "core.h"
#include "mover.h"
#include "world.h"
#include "tumble/tumble.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

// The joint types, by tbJointType. Adding a type: its file with a tbJointClass and its create and
// parameter calls (joints.h), one entry here, its Lua file bindings/l_joint_<type>.c with one
// entry in bindings/l_joint.c, then docs/JOINTS.md and tests (docs/ARCHITECTURE.md, "Adding a
// joint type").
static const tbJointClass* const tb_jointClasses[tbJoint_typeCount] = {
	[tbJoint_distance] = &tb_distanceJointClass,
	[tbJoint_ball] = &tb_ballJointClass,
	[tbJoint_hinge] = &tb_hingeJointClass,
	[tbJoint_cone] = &tb_coneJointClass,
	[tbJoint_fixed] = &tb_fixedJointClass,
	[tbJoint_slider] = &tb_sliderJointClass,
	[tbJoint_sixDof] = &tb_sixDofJointClass,
	[tbJoint_motor] = &tb_motorJointClass,
	[tbJoint_mouse] = &tb_mouseJointClass,
	[tbJoint_custom] = &tb_customJointClass,
	[tbJoint_wheel] = &tb_wheelJointClass,
};

const tbJointClass* tbGetJointClass( tbJointType type )
{
	return (unsigned)type < (unsigned)tbJoint_typeCount ? tb_jointClasses[type] : NULL;
}

const char* tbJointTypeName( tbJointType type )
{
	const tbJointClass* cls = tbGetJointClass( type );
	return cls != NULL ? cls->name : NULL;
}

tbJointType tbJointTypeFromName( const char* name )
{
	if ( name == NULL )
	{
		return tbJoint_typeCount;
	}
	for ( int i = 0; i < tbJoint_typeCount; ++i )
	{
		if ( strcmp( name, tb_jointClasses[i]->name ) == 0 )
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
	if ( index < 0 )
	{
		*result = tbResult_outOfMemory;
		return NULL;
	}
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
	tbCopyName( joint->name, TB_JOINT_NAME_LENGTH, def->name );
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
	if ( joint->type == tbJoint_custom )
	{
		tbFree( joint->custom, sizeof( tbCustomJointData ) );
		joint->custom = NULL;
	}
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
	tbCopyName( joint->name, TB_JOINT_NAME_LENGTH, name );
	return tbResult_ok;
}

size_t tbJoint_GetMemorySize( tbJointId jointId )
{
	tbJoint* joint = tbGetJointChecked( jointId, tbJoint_typeCount, NULL );
	if ( joint == NULL )
	{
		return 0;
	}
	return sizeof( tbJoint ) + ( joint->type == tbJoint_custom ? sizeof( tbCustomJointData ) : 0 );
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

static bool tbJointDrives( const tbJoint* joint )
{
	switch ( joint->type )
	{
		case tbJoint_hinge:
			return joint->hinge.enableMotor && joint->hinge.motorSpeed != 0.0f && joint->hinge.maxMotorTorque > 0.0f;
		case tbJoint_slider:
			return joint->slider.enableMotor && joint->slider.motorSpeed != 0.0f && joint->slider.maxMotorForce > 0.0f;
		case tbJoint_motor:
			return joint->motor.motorSpeed != 0.0f && joint->motor.maxMotorTorque > 0.0f;
		case tbJoint_wheel:
			return joint->wheel.enableMotor && joint->wheel.motorSpeed != 0.0f && joint->wheel.maxMotorTorque > 0.0f;
		case tbJoint_sixDof:
			for ( int i = 0; i < tbSixDof_axisCount; ++i )
			{
				if ( joint->sixDof.enableMotor[i] && joint->sixDof.motorSpeed[i] != 0.0f &&
					 joint->sixDof.maxMotorForce[i] > 0.0f )
				{
					return true;
				}
			}
			return false;
		default:
			return false;
	}
}

void tbKeepDrivenBodiesAwake( tbWorld* world )
{
	for ( int i = 0; i < world->joints.count; ++i )
	{
		tbJoint* joint = world->joints.data + i;
		if ( joint->id < 0 || joint->enabled == false || joint->broken || tbJointDrives( joint ) == false )
		{
			continue;
		}
		for ( int k = 0; k < 2; ++k )
		{
			if ( joint->edges[k].bodyId >= 0 )
			{
				world->bodies.data[joint->edges[k].bodyId].sleepTime = 0.0f;
			}
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

float tbJointAxisTranslation( tbJointId jointId, tbJointType type, tbVec3 localAxis )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, type, &world );
	if ( joint == NULL )
	{
		return 0.0f;
	}
	tbJointPose p;
	tbComputeJointBodyPose( world, joint, &p );
	return tbDot( tbRotate( p.qA, localAxis ), p.d );
}

float tbJointAxisSpeed( tbJointId jointId, tbJointType type, tbVec3 localAxis )
{
	tbWorld* world;
	tbJoint* joint = tbGetJointChecked( jointId, type, &world );
	if ( joint == NULL )
	{
		return 0.0f;
	}
	tbJointPose p;
	tbComputeJointBodyPose( world, joint, &p );
	tbJointMotion m;
	tbLoadJointBodyMotion( world, joint, &m );
	tbJointRow J = tbLinearAxisRow( &p, tbRotate( p.qA, localAxis ) );
	return tbRowVelocity( &m, &J );
}
