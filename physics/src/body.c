// Tumble physics: bodies.
// SPDX-License-Identifier: MIT
#include "body.h"

#include "contact.h"
#include "core.h"
#include "island.h"
#include "joint.h"
#include "shape.h"
#include "world.h"
#include "tumble/tumble.h"

#include <float.h>
#include <string.h>

tbBodyDef tbDefaultBodyDef( void )
{
	tbBodyDef def;
	memset( &def, 0, sizeof( def ) );
	def.type = tbBody_static;
	def.rotation = tb_quatIdentity;
	def.gravityScale = 1.0f;
	def.sleepThreshold = 0.05f;
	def.enableSleep = true;
	def.isAwake = true;
	def.internalValue = TB_SECRET_COOKIE;
	return def;
}

tbBody* tbGetBodyFromId( tbWorld* world, tbBodyId id )
{
	if ( world == NULL || id.index1 < 1 || id.index1 > world->bodies.count )
	{
		return NULL;
	}
	tbBody* body = world->bodies.data + ( id.index1 - 1 );
	if ( body->id < 0 || body->generation != id.generation )
	{
		return NULL;
	}
	return body;
}

tbBody* tbGetBodyChecked( tbBodyId id, tbWorld** worldOut )
{
	tbWorld* world = tbGetWorldFromTag( id.world0 );
	tbBody* body = tbGetBodyFromId( world, id );
	if ( worldOut != NULL )
	{
		*worldOut = world;
	}
	return body;
}

tbBodyId tbMakeBodyId( const tbWorld* world, const tbBody* body )
{
	tbBodyId id = { body->id + 1, world->worldTag, body->generation };
	return id;
}

// Look up a body for a mutating call: checks the id and the world lock.
static tbResult tbGetMutableBody( tbBodyId id, tbWorld** worldOut, tbBody** bodyOut )
{
	tbWorld* world = NULL;
	tbBody* body = tbGetBodyChecked( id, &world );
	*worldOut = world;
	*bodyOut = body;
	if ( body == NULL )
	{
		return tbResult_invalidId;
	}
	if ( world->locked )
	{
		return tbResult_worldLocked;
	}
	return tbResult_ok;
}

void tbUpdateInertiaWorld( tbBody* body )
{
	if ( body->invMass == 0.0f || body->fixedRotation )
	{
		body->invWorldInertia = tb_mat3Zero;
		return;
	}
	body->invWorldInertia = tbRotateInertia( body->transform.q, body->invLocalInertia );
}

static bool tbIsValidDef( const tbBodyDef* def )
{
	return def != NULL && def->internalValue == TB_SECRET_COOKIE && (unsigned)def->type < (unsigned)tbBody_typeCount &&
		   tbIsBoundedVec3( def->position, TB_MAX_POSITION ) && tbIsValidQuat( def->rotation ) &&
		   tbIsBoundedVec3( def->linearVelocity, TB_MAX_SPEED ) &&
		   tbIsBoundedVec3( def->angularVelocity, TB_MAX_ANGULAR_SPEED ) &&
		   tbIsInRange( def->linearDamping, 0.0f, TB_MAX_DAMPING ) && tbIsInRange( def->angularDamping, 0.0f, TB_MAX_DAMPING ) &&
		   tbIsInRange( def->gravityScale, -TB_MAX_GRAVITY_SCALE, TB_MAX_GRAVITY_SCALE ) && tbIsInRange( def->sleepThreshold, 0.0f, TB_MAX_SPEED ) &&
		   tbIsBoundedVec3( def->oneWayNormal, TB_MAX_FORCE );
}

// The one-way normal is kept in the body frame so it turns with the body; zero is a solid body.
static void tbSetOneWayNormal( tbBody* body, tbVec3 normal )
{
	float length = tbLength( normal );
	body->oneWayNormal = length > 1.0e-6f ? tbInvRotate( body->transform.q, tbMulSV( 1.0f / length, normal ) ) : tb_vec3_zero;
}

tbResult tbCreateBodyChecked( tbWorldId worldId, const tbBodyDef* def, tbBodyId* outId )
{
	*outId = tb_nullBodyId;
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		return tbResult_invalidId;
	}
	if ( world->locked )
	{
		return tbResult_worldLocked;
	}
	if ( !tbIsValidDef( def ) )
	{
		return tbResult_invalidArgument;
	}

	int index;
	TB_POOL_ALLOC( world->bodies, tbBody, index );
	if ( index < 0 )
	{
		return tbResult_outOfMemory;
	}
	tbBody* body = world->bodies.data + index;
	uint16_t generation = body->generation;
	memset( body, 0, sizeof( *body ) );
	body->id = index;
	body->generation = generation;
	body->nextFree = -1;
	tbCopyName( body->name, TB_NAME_LENGTH, def->name );
	body->userData = def->userData;
	body->type = def->type;
	body->headShapeId = -1;
	body->headContactKey = -1;
	body->headJointKey = -1;
	body->transform.p = def->position;
	body->transform.q = tbNormalizeQ( def->rotation );
	body->center = def->position;
	body->center0 = def->position;
	body->rotation0 = body->transform.q;
	if ( def->type != tbBody_static )
	{
		body->linearVelocity = def->linearVelocity;
		body->angularVelocity = def->angularVelocity;
	}
	body->linearDamping = def->linearDamping;
	body->angularDamping = def->angularDamping;
	body->gravityScale = def->gravityScale;
	body->sleepThreshold = def->sleepThreshold;
	body->enableSleep = def->enableSleep;
	body->awake = def->type == tbBody_static ? false : ( def->isAwake || !def->enableSleep );
	body->fixedRotation = def->fixedRotation;
	body->isBullet = def->isBullet;
	tbSetOneWayNormal( body, def->oneWayNormal );
	body->solverIndex = -1;
	body->islandParent = -1;
	tbUpdateBodyMass( world, body );
	*outId = tbMakeBodyId( world, body );
	return tbResult_ok;
}

tbBodyId tbCreateBody( tbWorldId worldId, const tbBodyDef* def )
{
	tbBodyId id;
	tbCreateBodyChecked( worldId, def, &id );
	return id;
}

tbResult tbDestroyBody( tbBodyId bodyId )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r != tbResult_ok )
	{
		return r;
	}

	// Joints first (they wake their other body), then contacts, then shapes.
	while ( body->headJointKey >= 0 )
	{
		tbJoint* joint = tbGetJointByKey( world, body->headJointKey );
		tbDestroyJointInternal( world, joint, true );
	}
	while ( body->headContactKey >= 0 )
	{
		tbContact* contact = world->contacts.data + ( body->headContactKey >> 1 );
		tbDestroyContact( world, contact, true );
	}
	int shapeId = body->headShapeId;
	while ( shapeId >= 0 )
	{
		tbShape* shape = world->shapes.data + shapeId;
		int next = shape->nextShapeId;
		tbDestroyShapeInternal( world, shape );
		shapeId = next;
	}
	TB_POOL_FREE( world->bodies, body->id );
	return tbResult_ok;
}

bool tbBody_IsValid( tbBodyId bodyId )
{
	return tbGetBodyChecked( bodyId, NULL ) != NULL;
}

// Mass -------------------------------------------------------------------------------------------

static void tbSetInverseMass( tbBody* body )
{
	if ( body->type != tbBody_dynamic || body->mass <= 0.0f )
	{
		body->invMass = 0.0f;
		body->invLocalInertia = tb_mat3Zero;
	}
	else
	{
		body->invMass = 1.0f / body->mass;
		body->invLocalInertia = body->fixedRotation ? tb_mat3Zero : tbInvert( body->localInertia );
	}
	body->center = tbTransformPoint( body->transform, body->localCenter );
	tbUpdateInertiaWorld( body );
}

// The shapes' farthest and nearest extents about the body's centre of mass (localCenter), which
// continuous collision and the contact pairs' distance test (tbUpdateContact) rely on.
static void tbUpdateBodyExtents( tbWorld* world, tbBody* body )
{
	body->maxExtent = 0.0f;
	body->minExtent = FLT_MAX;
	int shapeId = body->headShapeId;
	while ( shapeId >= 0 )
	{
		tbShape* shape = world->shapes.data + shapeId;
		body->maxExtent = tbMaxFloat( body->maxExtent, tbComputeShapeExtent( shape, body->localCenter ) );
		body->minExtent = tbMinFloat( body->minExtent, tbComputeShapeMinExtent( shape ) );
		shapeId = shape->nextShapeId;
	}
	if ( body->minExtent == FLT_MAX )
	{
		body->minExtent = 0.0f;
	}
}

void tbUpdateBodyMass( tbWorld* world, tbBody* body )
{
	body->mass = 0.0f;
	body->localCenter = tb_vec3_zero;
	body->localInertia = tb_mat3Zero;

	if ( body->type == tbBody_dynamic && body->massOverridden == false )
	{
		// Sum masses and first moments, then shift every shape's inertia to the common centre
		// with the parallel axis theorem: I = Ic + m (|d|^2 E - d d^T).
		tbVec3 weighted = tb_vec3_zero;
		int shapeId = body->headShapeId;
		while ( shapeId >= 0 )
		{
			tbShape* shape = world->shapes.data + shapeId;
			if ( shape->density > 0.0f )
			{
				tbMassData md = tbComputeShapeMass( shape );
				body->mass += md.mass;
				weighted = tbMulAdd( weighted, md.mass, md.center );
			}
			shapeId = shape->nextShapeId;
		}
		if ( body->mass > 0.0f )
		{
			body->localCenter = tbMulSV( 1.0f / body->mass, weighted );
			shapeId = body->headShapeId;
			while ( shapeId >= 0 )
			{
				tbShape* shape = world->shapes.data + shapeId;
				if ( shape->density > 0.0f )
				{
					tbMassData md = tbComputeShapeMass( shape );
					tbVec3 d = tbSub( md.center, body->localCenter );
					float dd = tbDot( d, d );
					tbMat3 shift = tbSubMM( tbMulSM( dd, tb_mat3Identity ),
											tbMakeMat3( tbMulSV( d.x, d ), tbMulSV( d.y, d ), tbMulSV( d.z, d ) ) );
					body->localInertia = tbAddMM( body->localInertia, tbAddMM( md.rotationalInertia, tbMulSM( md.mass, shift ) ) );
				}
				shapeId = shape->nextShapeId;
			}
		}
		else
		{
			// A dynamic body without mass behaves as a unit mass so it still falls.
			body->mass = 1.0f;
			body->localInertia = tbMakeDiagonal( tbMakeVec3( 1.0f, 1.0f, 1.0f ) );
		}
	}
	else if ( body->type == tbBody_dynamic )
	{
		body->mass = body->inertia.x > 0.0f ? body->mass : 0.0f;
	}

	tbUpdateBodyExtents( world, body );
	if ( body->type == tbBody_dynamic && body->mass > 0.0f && body->mass < TB_MIN_MASS )
	{
		// A tiny density would make the inverse mass overflow under any force: scale up to the
		// smallest mass, keeping the shape of the inertia tensor.
		float scale = TB_MIN_MASS / body->mass;
		body->mass = TB_MIN_MASS;
		body->localInertia = tbMulSM( scale, body->localInertia );
	}
	tbSetInverseMass( body );
}

tbResult tbBody_SetMassData( tbBodyId bodyId, tbBodyMass massData )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r != tbResult_ok )
	{
		return r;
	}
	const float maxInertia = TB_MAX_MASS * TB_MAX_SHAPE_SIZE * TB_MAX_SHAPE_SIZE;
	const float minInertia = TB_MIN_MASS * TB_MIN_SHAPE_SIZE * TB_MIN_SHAPE_SIZE;
	if ( !tbIsInRange( massData.mass, TB_MIN_MASS, TB_MAX_MASS ) || !tbIsBoundedVec3( massData.center, TB_MAX_SHAPE_SIZE ) ||
		 !tbIsInRange( massData.inertia.x, minInertia, maxInertia ) ||
		 !tbIsInRange( massData.inertia.y, minInertia, maxInertia ) ||
		 !tbIsInRange( massData.inertia.z, minInertia, maxInertia ) )
	{
		return tbResult_invalidArgument;
	}
	body->massOverridden = true;
	tbUpdateBodyMass( world, body );
	body->mass = massData.mass;
	body->inertia = massData.inertia;
	body->localCenter = massData.center;
	body->localInertia = tbMakeDiagonal( massData.inertia );
	tbUpdateBodyExtents( world, body );
	tbSetInverseMass( body );
	return tbResult_ok;
}

tbResult tbBody_ApplyMassFromShapes( tbBodyId bodyId )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r != tbResult_ok )
	{
		return r;
	}
	body->massOverridden = false;
	tbUpdateBodyMass( world, body );
	return tbResult_ok;
}

float tbBody_GetMass( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL && body->type == tbBody_dynamic ? body->mass : 0.0f;
}

tbMat3 tbBody_GetLocalInertia( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL && body->type == tbBody_dynamic ? body->localInertia : tb_mat3Zero;
}

// Type and pose ----------------------------------------------------------------------------------

tbBodyType tbBody_GetType( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->type : tbBody_static;
}

tbResult tbBody_SetType( tbBodyId bodyId, tbBodyType type )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( (unsigned)type >= (unsigned)tbBody_typeCount )
	{
		return tbResult_invalidArgument;
	}
	if ( body->type == type )
	{
		return tbResult_ok;
	}
	// A mesh or heightfield has no inside and no mass: its body stays static.
	for ( int id = body->headShapeId; id >= 0; id = world->shapes.data[id].nextShapeId )
	{
		if ( world->shapes.data[id].type == tbShape_mesh || world->shapes.data[id].type == tbShape_heightfield )
		{
			return tbResult_invalidArgument;
		}
	}
	// The new tree must hold every shape's proxy before anything changes: a type change either
	// happens whole or not at all.
	if ( tbDynamicTree_Reserve( world->broadPhase.trees + type, body->shapeCount ) == false )
	{
		return tbResult_outOfMemory;
	}
	// Contacts depend on the type (static/static pairs do not exist): drop them and let the broad
	// phase find the pairs again.
	while ( body->headContactKey >= 0 )
	{
		tbDestroyContact( world, world->contacts.data + ( body->headContactKey >> 1 ), true );
	}
	body->type = type;
	if ( type == tbBody_static )
	{
		body->linearVelocity = tb_vec3_zero;
		body->angularVelocity = tb_vec3_zero;
		body->awake = false;
	}
	tbUpdateBodyMass( world, body );
	tbRecreateBodyProxies( world, body );
	if ( type != tbBody_static )
	{
		tbWakeBody( world, body );
	}
	return tbResult_ok;
}

tbVec3 tbBody_GetPosition( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->transform.p : tb_vec3_zero;
}

tbQuat tbBody_GetRotation( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->transform.q : tb_quatIdentity;
}

tbTransform tbBody_GetTransform( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->transform : tb_transformIdentity;
}

tbResult tbBody_SetTransform( tbBodyId bodyId, tbVec3 position, tbQuat rotation )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsBoundedVec3( position, TB_MAX_POSITION ) || !tbIsValidQuat( rotation ) )
	{
		return tbResult_invalidArgument;
	}
	body->transform.p = position;
	body->transform.q = tbNormalizeQ( rotation );
	body->center = tbTransformPoint( body->transform, body->localCenter );
	body->center0 = body->center;
	body->rotation0 = body->transform.q;
	tbUpdateInertiaWorld( body );
	tbUpdateBodyShapes( world, body, true );
	if ( body->type != tbBody_static )
	{
		tbWakeBody( world, body );
	}
	return tbResult_ok;
}

tbVec3 tbBody_GetWorldCenterOfMass( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->center : tb_vec3_zero;
}

tbVec3 tbBody_GetLocalCenterOfMass( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->localCenter : tb_vec3_zero;
}

// Velocity and forces ----------------------------------------------------------------------------

tbVec3 tbBody_GetLinearVelocity( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->linearVelocity : tb_vec3_zero;
}

tbVec3 tbBody_GetAngularVelocity( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->angularVelocity : tb_vec3_zero;
}

tbVec3 tbBody_GetPointVelocity( tbBodyId bodyId, tbVec3 worldPoint )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	if ( body == NULL )
	{
		return tb_vec3_zero;
	}
	return tbAdd( body->linearVelocity, tbCross( body->angularVelocity, tbSub( worldPoint, body->center ) ) );
}

static tbResult tbSetVelocity( tbBodyId bodyId, tbVec3 v, bool angular )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsBoundedVec3( v, angular ? TB_MAX_ANGULAR_SPEED : TB_MAX_SPEED ) )
	{
		return tbResult_invalidArgument;
	}
	if ( body->type == tbBody_static )
	{
		return tbResult_ok;
	}
	if ( angular )
	{
		body->angularVelocity = body->fixedRotation ? tb_vec3_zero : v;
	}
	else
	{
		body->linearVelocity = v;
	}
	if ( tbLengthSquared( v ) > 0.0f )
	{
		tbWakeBody( world, body );
	}
	return tbResult_ok;
}

tbResult tbBody_SetLinearVelocity( tbBodyId bodyId, tbVec3 v )
{
	return tbSetVelocity( bodyId, v, false );
}

tbResult tbBody_SetAngularVelocity( tbBodyId bodyId, tbVec3 w )
{
	return tbSetVelocity( bodyId, w, true );
}

// Shared checks of the force and impulse functions: a valid dynamic body and finite inputs.
static tbResult tbGetDynamicBody( tbBodyId bodyId, tbVec3 a, tbVec3 b, bool wake, tbBody** bodyOut )
{
	tbWorld* world;
	tbResult r = tbGetMutableBody( bodyId, &world, bodyOut );
	if ( r != tbResult_ok )
	{
		return r;
	}
	// a is the force/impulse/torque, b the point of application (or zero)
	if ( !tbIsBoundedVec3( a, TB_MAX_FORCE ) || !tbIsBoundedVec3( b, 2.0f * TB_MAX_POSITION ) )
	{
		*bodyOut = NULL; // the callers apply only through a non-null body
		return tbResult_invalidArgument;
	}
	tbBody* body = *bodyOut;
	if ( body->type != tbBody_dynamic )
	{
		*bodyOut = NULL;
		return tbResult_ok;
	}
	if ( wake && body->awake == false )
	{
		tbWakeBody( world, body );
	}
	if ( body->awake == false )
	{
		*bodyOut = NULL;
	}
	return tbResult_ok;
}

tbResult tbBody_ApplyForce( tbBodyId bodyId, tbVec3 force, tbVec3 point, bool wake )
{
	tbBody* body;
	tbResult r = tbGetDynamicBody( bodyId, force, point, wake, &body );
	if ( body != NULL )
	{
		body->force = tbAdd( body->force, force );
		body->torque = tbAdd( body->torque, tbCross( tbSub( point, body->center ), force ) );
	}
	return r;
}

tbResult tbBody_ApplyForceToCenter( tbBodyId bodyId, tbVec3 force, bool wake )
{
	tbBody* body;
	tbResult r = tbGetDynamicBody( bodyId, force, tb_vec3_zero, wake, &body );
	if ( body != NULL )
	{
		body->force = tbAdd( body->force, force );
	}
	return r;
}

tbResult tbBody_ApplyTorque( tbBodyId bodyId, tbVec3 torque, bool wake )
{
	tbBody* body;
	tbResult r = tbGetDynamicBody( bodyId, torque, tb_vec3_zero, wake, &body );
	if ( body != NULL )
	{
		body->torque = tbAdd( body->torque, torque );
	}
	return r;
}

tbResult tbBody_ApplyLinearImpulse( tbBodyId bodyId, tbVec3 impulse, tbVec3 point, bool wake )
{
	tbBody* body;
	tbResult r = tbGetDynamicBody( bodyId, impulse, point, wake, &body );
	if ( body != NULL )
	{
		body->linearVelocity = tbMulAdd( body->linearVelocity, body->invMass, impulse );
		tbVec3 angular = tbCross( tbSub( point, body->center ), impulse );
		body->angularVelocity = tbAdd( body->angularVelocity, tbMulMV( body->invWorldInertia, angular ) );
	}
	return r;
}

tbResult tbBody_ApplyAngularImpulse( tbBodyId bodyId, tbVec3 impulse, bool wake )
{
	tbBody* body;
	tbResult r = tbGetDynamicBody( bodyId, impulse, tb_vec3_zero, wake, &body );
	if ( body != NULL )
	{
		body->angularVelocity = tbAdd( body->angularVelocity, tbMulMV( body->invWorldInertia, impulse ) );
	}
	return r;
}

// Settings ---------------------------------------------------------------------------------------

static tbResult tbSetNonNegative( tbBodyId bodyId, float value, float* ( *field )( tbBody* ), bool allowNegative,
								  float maximum )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsValidFloat( value ) || ( value < 0.0f && !allowNegative ) || tbAbsFloat( value ) > maximum )
	{
		return tbResult_invalidArgument;
	}
	*field( body ) = value;
	return tbResult_ok;
}

static float* tbLinearDampingField( tbBody* body ) { return &body->linearDamping; }
static float* tbAngularDampingField( tbBody* body ) { return &body->angularDamping; }
static float* tbGravityScaleField( tbBody* body ) { return &body->gravityScale; }

tbResult tbBody_SetLinearDamping( tbBodyId bodyId, float damping )
{
	return tbSetNonNegative( bodyId, damping, tbLinearDampingField, false, TB_MAX_DAMPING );
}

tbResult tbBody_SetAngularDamping( tbBodyId bodyId, float damping )
{
	return tbSetNonNegative( bodyId, damping, tbAngularDampingField, false, TB_MAX_DAMPING );
}

tbResult tbBody_SetGravityScale( tbBodyId bodyId, float scale )
{
	// The same bound as tbBodyDef.gravityScale: a finite but huge scale (3e38) would make the
	// first step's velocity infinite.
	return tbSetNonNegative( bodyId, scale, tbGravityScaleField, true, TB_MAX_GRAVITY_SCALE );
}

float tbBody_GetGravityScale( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->gravityScale : 0.0f;
}

bool tbBody_IsAwake( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL && body->awake;
}

tbResult tbBody_SetAwake( tbBodyId bodyId, bool awake )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( body->type == tbBody_static )
	{
		return tbResult_ok;
	}
	if ( awake )
	{
		tbWakeBody( world, body );
	}
	else
	{
		tbSleepBody( body );
	}
	return tbResult_ok;
}

tbResult tbBody_EnableSleep( tbBodyId bodyId, bool enable )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r != tbResult_ok )
	{
		return r;
	}
	body->enableSleep = enable;
	if ( !enable && body->type != tbBody_static )
	{
		tbWakeBody( world, body );
	}
	return tbResult_ok;
}

tbResult tbBody_SetBullet( tbBodyId bodyId, bool flag )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r == tbResult_ok )
	{
		body->isBullet = flag;
	}
	return r;
}

tbResult tbBody_SetFixedRotation( tbBodyId bodyId, bool flag )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r == tbResult_ok && body->fixedRotation != flag )
	{
		body->fixedRotation = flag;
		tbSetInverseMass( body );
		if ( flag )
		{
			body->angularVelocity = tb_vec3_zero;
		}
		if ( body->type != tbBody_static )
		{
			tbWakeBody( world, body );
		}
	}
	return r;
}

bool tbBody_IsFixedRotation( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL && body->fixedRotation;
}

tbResult tbBody_SetOneWay( tbBodyId bodyId, tbVec3 normal )
{
	tbWorld* world;
	tbBody* body;
	tbResult r = tbGetMutableBody( bodyId, &world, &body );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsBoundedVec3( normal, TB_MAX_FORCE ) )
	{
		return tbResult_invalidArgument;
	}
	tbSetOneWayNormal( body, normal );
	return tbResult_ok;
}

tbVec3 tbBody_GetOneWay( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? tbRotate( body->transform.q, body->oneWayNormal ) : tb_vec3_zero;
}

bool tbBody_IsBullet( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL && body->isBullet;
}

const char* tbBody_GetName( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->name : "";
}

tbResult tbBody_SetName( tbBodyId bodyId, const char* name )
{
	tbWorld* world;
	tbBody* body = tbGetBodyChecked( bodyId, &world );
	if ( body == NULL )
	{
		return tbResult_invalidId;
	}
	tbCopyName( body->name, TB_NAME_LENGTH, name );
	return tbResult_ok;
}

void* tbBody_GetUserData( tbBodyId bodyId )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	return body != NULL ? body->userData : NULL;
}

void tbBody_SetUserData( tbBodyId bodyId, void* userData )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	if ( body != NULL )
	{
		body->userData = userData;
	}
}

tbWorldId tbBody_GetWorld( tbBodyId bodyId )
{
	tbWorld* world;
	tbBody* body = tbGetBodyChecked( bodyId, &world );
	if ( body == NULL )
	{
		return tb_nullWorldId;
	}
	tbWorldId id = { (uint16_t)( world->worldId + 1 ), world->generation };
	return id;
}

int tbBody_GetShapes( tbBodyId bodyId, tbShapeId* out, int capacity )
{
	tbWorld* world;
	tbBody* body = tbGetBodyChecked( bodyId, &world );
	if ( body == NULL )
	{
		return 0;
	}
	int n = 0;
	for ( int id = body->headShapeId; id >= 0; id = world->shapes.data[id].nextShapeId )
	{
		if ( n < capacity && out != NULL )
		{
			out[n] = tbMakeShapeId( world, world->shapes.data + id );
		}
		n += 1;
	}
	return n;
}

size_t tbBody_GetMemorySize( tbBodyId bodyId )
{
	tbWorld* world;
	tbBody* body = tbGetBodyChecked( bodyId, &world );
	if ( body == NULL )
	{
		return 0;
	}
	size_t bytes = sizeof( tbBody );
	for ( int id = body->headShapeId; id >= 0; id = world->shapes.data[id].nextShapeId )
	{
		const tbShape* shape = world->shapes.data + id;
		// A proxy is a leaf of its tree and, on average, one inner node above it.
		bytes += sizeof( tbShape ) + 2 * sizeof( tbTreeNode );
		if ( shape->type == tbShape_hull )
		{
			bytes += (size_t)shape->hull->byteCount;
		}
		else if ( shape->type == tbShape_mesh )
		{
			bytes += shape->mesh->byteCount;
		}
		else if ( shape->type == tbShape_heightfield )
		{
			bytes += shape->heightfield->byteCount;
		}
	}
	return bytes;
}

int tbBody_GetJoints( tbBodyId bodyId, tbJointId* out, int capacity )
{
	tbWorld* world;
	tbBody* body = tbGetBodyChecked( bodyId, &world );
	if ( body == NULL )
	{
		return 0;
	}
	return tbGetBodyJointIds( world, body, out, capacity );
}

int tbBody_GetContactData( tbBodyId bodyId, tbContactData* out, int capacity )
{
	tbWorld* world;
	tbBody* body = tbGetBodyChecked( bodyId, &world );
	if ( body == NULL )
	{
		return 0;
	}
	int n = 0;
	for ( int key = body->headContactKey; key >= 0; )
	{
		const tbContact* contact = world->contacts.data + ( key >> 1 );
		key = contact->edges[key & 1].nextKey;
		n = tbAppendContactData( world, contact, out, n, capacity );
	}
	return n;
}

tbAABB tbBody_ComputeAABB( tbBodyId bodyId )
{
	tbWorld* world;
	tbBody* body = tbGetBodyChecked( bodyId, &world );
	tbAABB box = { body != NULL ? body->transform.p : tb_vec3_zero, body != NULL ? body->transform.p : tb_vec3_zero };
	if ( body == NULL )
	{
		return box;
	}
	bool first = true;
	for ( int id = body->headShapeId; id >= 0; id = world->shapes.data[id].nextShapeId )
	{
		tbAABB a = tbComputeShapeAABB( world->shapes.data + id, body->transform );
		box = first ? a : tbAABB_Union( box, a );
		first = false;
	}
	return box;
}

// Shapes' broad-phase proxies --------------------------------------------------------------------

void tbUpdateBodyShapes( tbWorld* world, tbBody* body, bool forceMove )
{
	for ( int id = body->headShapeId; id >= 0; id = world->shapes.data[id].nextShapeId )
	{
		tbShape* shape = world->shapes.data + id;
		shape->aabb = tbComputeShapeAABB( shape, body->transform );
		if ( shape->proxyKey < 0 )
		{
			continue;
		}
		if ( forceMove || tbAABB_Contains( shape->fatAABB, shape->aabb ) == false )
		{
			// Enlarge by a margin plus the motion of the last step so a moving body is not
			// re-inserted every step, and so that it meets what it will reach next step while the
			// pair can still get a speculative contact: a ball falling 4 to 7 cm a step (below the
			// quarter of its size that makes it fast and swept) found the ground only once inside
			// it, 1.7 cm deep, and bounced 7 % short.
			float margin = body->type == tbBody_static ? 0.0f : TB_AABB_MARGIN;
			tbVec3 m = { margin, margin, margin };
			tbAABB fat = { tbSub( shape->aabb.lowerBound, m ), tbAdd( shape->aabb.upperBound, m ) };
			if ( body->type != tbBody_static && forceMove == false )
			{
				tbVec3 motion = tbSub( body->center, body->center0 );
				fat.lowerBound = tbMinVec( fat.lowerBound, tbAdd( shape->aabb.lowerBound, motion ) );
				fat.upperBound = tbMaxVec( fat.upperBound, tbAdd( shape->aabb.upperBound, motion ) );
			}
			shape->fatAABB = fat;
			tbBroadPhase_MoveProxy( &world->broadPhase, shape->proxyKey, fat );
		}
	}
}

void tbUpdateBodyShapesSwept( tbWorld* world, tbBody* body )
{
	tbTransform start;
	start.q = body->rotation0;
	start.p = tbSub( body->center0, tbRotate( start.q, body->localCenter ) );
	for ( int id = body->headShapeId; id >= 0; id = world->shapes.data[id].nextShapeId )
	{
		tbShape* shape = world->shapes.data + id;
		shape->aabb = tbComputeShapeAABB( shape, body->transform );
		tbAABB swept = tbAABB_Union( shape->aabb, tbComputeShapeAABB( shape, start ) );
		if ( shape->proxyKey >= 0 && tbAABB_Contains( shape->fatAABB, swept ) == false )
		{
			tbVec3 m = { TB_AABB_MARGIN, TB_AABB_MARGIN, TB_AABB_MARGIN };
			tbAABB fat = { tbSub( swept.lowerBound, m ), tbAdd( swept.upperBound, m ) };
			shape->fatAABB = fat;
			tbBroadPhase_MoveProxy( &world->broadPhase, shape->proxyKey, fat );
		}
	}
}

void tbRecreateBodyProxies( tbWorld* world, tbBody* body )
{
	for ( int id = body->headShapeId; id >= 0; id = world->shapes.data[id].nextShapeId )
	{
		tbShape* shape = world->shapes.data + id;
		if ( shape->proxyKey >= 0 )
		{
			tbBroadPhase_DestroyProxy( &world->broadPhase, shape->proxyKey );
			shape->proxyKey = -1;
		}
		tbCreateShapeProxy( world, shape, body );
	}
}
