// Tumble benchmark: the ODE adapter (Open Dynamics Engine, Debian libode-dev, C API).
// Settings from SCENES.md: dWorldQuickStep with 10 iterations, contacts with dContactApprox1 and
// mu from the scene, otherwise ODE's default contact and world parameters, auto-disable off, a
// plane for the ground, capsules along local z, cone-twist as ball + Euler AMotor.
// SPDX-License-Identifier: MIT

// Debian builds libode with double precision (pkg-config ode: precision=dDOUBLE); the headers
// default to it too, and tbOde_Create checks it at run time.
#ifndef dDOUBLE
#define dDOUBLE
#endif
#include "bench.h"

#include <ode/ode.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Largest number of contacts ODE may generate per geom pair (dCollide culls to this many). 4 is the
// manifold size of Bullet and Tumble (TB_MAX_MANIFOLD_POINTS), and it reproduces the ODE reference
// outcomes of SCENES.md best (stack20 falls at step 200 here vs 198 there, pyramid20 at 500 vs 507;
// 8 contacts give 214 and 485). Both towers are chaotic: any change of contact order moves them.
#define TB_ODE_MAX_CONTACTS 4

typedef struct tbOdeWorld
{
	dWorldID world;
	dSpaceID space;
	dJointGroupID contactGroup;
	dBodyID* bodies;
	int bodyCount;
	dJointID* motors; ///< one Euler AMotor per cone-twist joint (scene joint order), else NULL
	int motorCount;
	int odeJointCount;
	int iterations;
	float friction;
	bool filterConnected; ///< skip pairs joined by a joint (only scenes with joints pay for the check)
	bool measuring;		  ///< collide without creating contact joints, recording the deepest depth
	dReal maxDepth;
} tbOdeWorld;

static int s_odeInitialised = 0;

static void tbOde_NearCallback( void* data, dGeomID geom1, dGeomID geom2 )
{
	tbOdeWorld* w = (tbOdeWorld*)data;
	dBodyID body1 = dGeomGetBody( geom1 );
	dBodyID body2 = dGeomGetBody( geom2 );
	if ( body1 == NULL && body2 == NULL )
	{
		return;
	}
	if ( w->filterConnected && body1 != NULL && body2 != NULL &&
		 dAreConnectedExcluding( body1, body2, dJointTypeContact ) )
	{
		return;
	}
	dContactGeom contacts[TB_ODE_MAX_CONTACTS];
	int count = dCollide( geom1, geom2, TB_ODE_MAX_CONTACTS, contacts, sizeof( dContactGeom ) );
	if ( w->measuring )
	{
		for ( int i = 0; i < count; ++i )
		{
			w->maxDepth = contacts[i].depth > w->maxDepth ? contacts[i].depth : w->maxDepth;
		}
		return;
	}
	for ( int i = 0; i < count; ++i )
	{
		dContact contact;
		memset( &contact, 0, sizeof( contact ) );
		contact.surface.mode = dContactApprox1;
		contact.surface.mu = w->friction;
		contact.geom = contacts[i];
		dJointID joint = dJointCreateContact( w->world, w->contactGroup, &contact );
		dJointAttach( joint, body1, body2 );
	}
}

static void tbOde_SetRotation( dBodyID body, tbQuat q )
{
	dQuaternion odeQ = { q.w, q.x, q.y, q.z };
	dBodySetQuaternion( body, odeQ );
}

static void tbOde_CreateConeTwist( tbOdeWorld* w, const tbBenchJoint* joint, const tbBenchScene* scene, int index )
{
	dBodyID parent = w->bodies[joint->bodyA];
	dBodyID child = w->bodies[joint->bodyB];
	tbVec3 pA = scene->bodies[joint->bodyA].position;
	tbQuat qA = scene->bodies[joint->bodyA].rotation;
	tbQuat qB = scene->bodies[joint->bodyB].rotation;
	tbVec3 pivot = tbAdd( pA, tbRotate( qA, joint->pivotA ) );

	dJointID ball = dJointCreateBall( w->world, 0 );
	dJointAttach( ball, parent, child );
	dJointSetBallAnchor( ball, pivot.x, pivot.y, pivot.z );

	// ODE has no cone limit: an Euler AMotor with axis 0 fixed in the parent (its reference
	// axis, local x) and axis 2 fixed in the child (its twist axis, local z); stops +-swing on
	// Euler angles 0 and 1, +-twist on angle 2 (SCENES.md, engine mapping).
	tbVec3 axis0 = tbRotate( qA, joint->refA );
	tbVec3 axis2 = tbRotate( qB, joint->axisB );
	dJointID motor = dJointCreateAMotor( w->world, 0 );
	dJointAttach( motor, parent, child );
	dJointSetAMotorMode( motor, dAMotorEuler );
	dJointSetAMotorAxis( motor, 0, 1, axis0.x, axis0.y, axis0.z );
	dJointSetAMotorAxis( motor, 2, 2, axis2.x, axis2.y, axis2.z );
	dJointSetAMotorParam( motor, dParamLoStop, -joint->swingLimit );
	dJointSetAMotorParam( motor, dParamHiStop, joint->swingLimit );
	dJointSetAMotorParam( motor, dParamLoStop2, -joint->swingLimit );
	dJointSetAMotorParam( motor, dParamHiStop2, joint->swingLimit );
	dJointSetAMotorParam( motor, dParamLoStop3, -joint->twistLimit );
	dJointSetAMotorParam( motor, dParamHiStop3, joint->twistLimit );
	w->motors[index] = motor;
	w->motorCount += 1;
	w->odeJointCount += 2;
}

static void tbOde_CreateHinge( tbOdeWorld* w, const tbBenchJoint* joint, const tbBenchScene* scene )
{
	// The anchor and axis are given in world coordinates at the start pose, where both sides agree.
	tbVec3 pivot, axis;
	if ( joint->bodyA == TB_BENCH_WORLD )
	{
		pivot = joint->pivotA;
		axis = joint->axisA;
	}
	else
	{
		const tbBenchBody* a = scene->bodies + joint->bodyA;
		pivot = tbAdd( a->position, tbRotate( a->rotation, joint->pivotA ) );
		axis = tbRotate( a->rotation, joint->axisA );
	}
	dJointID hinge = dJointCreateHinge( w->world, 0 );
	if ( joint->bodyA == TB_BENCH_WORLD )
	{
		dJointAttach( hinge, w->bodies[joint->bodyB], 0 );
	}
	else
	{
		dJointAttach( hinge, w->bodies[joint->bodyA], w->bodies[joint->bodyB] );
	}
	dJointSetHingeAnchor( hinge, pivot.x, pivot.y, pivot.z );
	dJointSetHingeAxis( hinge, axis.x, axis.y, axis.z );
	w->odeJointCount += 1;
}

static void* tbOde_Create( const tbBenchScene* scene, const tbBenchSettings* settings, const char** skipReason )
{
	*skipReason = NULL;
	if ( s_odeInitialised == 0 )
	{
		dInitODE2( 0 );
		s_odeInitialised = 1;
	}
	if ( dCheckConfiguration( "ODE_double_precision" ) == 0 )
	{
		fprintf( stderr, "bench: libode is not double precision but the adapter is built with dDOUBLE\n" );
		return NULL;
	}

	// QuickStep shuffles its constraint order with ODE's global random generator: reseed it so a
	// run does not depend on the runs before it in this process.
	dRandSetSeed( 0 );

	tbOdeWorld* w = calloc( 1, sizeof( tbOdeWorld ) );
	w->bodies = calloc( (size_t)( scene->bodyCount > 0 ? scene->bodyCount : 1 ), sizeof( dBodyID ) );
	w->motors = calloc( (size_t)( scene->jointCount > 0 ? scene->jointCount : 1 ), sizeof( dJointID ) );
	w->bodyCount = scene->bodyCount;
	w->iterations = settings->iterations;
	w->friction = scene->friction;
	w->filterConnected = scene->jointCount > 0;

	w->world = dWorldCreate();
	dWorldSetGravity( w->world, 0.0, 0.0, TB_BENCH_GRAVITY_Z );
	dWorldSetQuickStepNumIterations( w->world, settings->iterations );
	dWorldSetAutoDisableFlag( w->world, 0 );
	dWorldSetLinearDamping( w->world, 0.0 );
	dWorldSetAngularDamping( w->world, 0.0 );
	w->space = dHashSpaceCreate( 0 );
	w->contactGroup = dJointGroupCreate( 0 );

	if ( scene->hasGround )
	{
		dCreatePlane( w->space, 0.0, 0.0, 1.0, 0.0 );
	}
	for ( int i = 0; i < scene->staticCount; ++i )
	{
		const tbBenchStatic* box = scene->statics + i;
		dGeomID geom =
			dCreateBox( w->space, 2.0 * box->halfExtents.x, 2.0 * box->halfExtents.y, 2.0 * box->halfExtents.z );
		dGeomSetPosition( geom, box->position.x, box->position.y, box->position.z );
	}

	for ( int i = 0; i < scene->bodyCount; ++i )
	{
		const tbBenchBody* def = scene->bodies + i;
		dBodyID body = dBodyCreate( w->world );
		dBodySetPosition( body, def->position.x, def->position.y, def->position.z );
		tbOde_SetRotation( body, def->rotation );
		dMass mass;
		dMassSetZero( &mass );
		dMassSetParameters( &mass, def->mass, 0.0, 0.0, 0.0, def->inertia.x, def->inertia.y, def->inertia.z, 0.0, 0.0,
							0.0 );
		dBodySetMass( body, &mass );
		dBodySetAutoDisableFlag( body, 0 );
		w->bodies[i] = body;

		dGeomID geom = NULL;
		switch ( def->shape )
		{
			case tbBenchShape_box:
				geom = dCreateBox( w->space, 2.0 * def->halfExtents.x, 2.0 * def->halfExtents.y,
								   2.0 * def->halfExtents.z );
				break;
			case tbBenchShape_sphere:
				geom = dCreateSphere( w->space, def->radius );
				break;
			case tbBenchShape_capsule:
				// ODE capsules lie along the geom's local z; length is the inner segment.
				geom = dCreateCapsule( w->space, def->radius, 2.0 * def->halfLength );
				break;
			case tbBenchShape_none:
				break;
		}
		if ( geom != NULL )
		{
			dGeomSetBody( geom, body );
		}
	}

	for ( int i = 0; i < scene->jointCount; ++i )
	{
		const tbBenchJoint* joint = scene->joints + i;
		if ( joint->type == tbBenchJoint_hinge )
		{
			tbOde_CreateHinge( w, joint, scene );
		}
		else
		{
			tbOde_CreateConeTwist( w, joint, scene, i );
		}
	}
	return w;
}

static void tbOde_Step( void* handle )
{
	tbOdeWorld* w = handle;
	dSpaceCollide( w->space, w, tbOde_NearCallback );
	dWorldQuickStep( w->world, TB_BENCH_TIME_STEP );
	dJointGroupEmpty( w->contactGroup );
}

static void tbOde_GetPose( void* handle, int index, tbVec3* position, tbQuat* rotation )
{
	tbOdeWorld* w = handle;
	const dReal* p = dBodyGetPosition( w->bodies[index] );
	const dReal* q = dBodyGetQuaternion( w->bodies[index] );
	*position = tbMakeVec3( (float)p[0], (float)p[1], (float)p[2] );
	*rotation = tbMakeQuat( (float)q[0], (float)q[1], (float)q[2], (float)q[3] );
}

static float tbOde_MaxContactPenetration( void* handle )
{
	tbOdeWorld* w = handle;
	w->measuring = true;
	w->maxDepth = 0.0;
	dSpaceCollide( w->space, w, tbOde_NearCallback );
	w->measuring = false;
	return (float)w->maxDepth;
}

static int tbOde_GetIterations( void* handle )
{
	tbOdeWorld* w = handle;
	return w->iterations;
}

static void tbOde_AddFields( void* handle, const tbBenchScene* scene, tbBenchFields* fields )
{
	tbOdeWorld* w = handle;
	if ( w->motorCount > 0 )
	{
		// The AMotor caches its Euler angles when the step starts (getInfo1), so this is the state
		// at the start of the last step, measured against the box of stops ODE actually enforces.
		float maxExcess = -INFINITY;
		for ( int i = 0; i < scene->jointCount; ++i )
		{
			if ( w->motors[i] == NULL )
			{
				continue;
			}
			const tbBenchJoint* joint = scene->joints + i;
			for ( int a = 0; a < 3; ++a )
			{
				float limit = a < 2 ? joint->swingLimit : joint->twistLimit;
				float angle = (float)dJointGetAMotorAngle( w->motors[i], a );
				maxExcess = tbMaxFloat( maxExcess, fabsf( angle ) - limit );
			}
		}
		tbBench_AddField( fields, "ode_max_euler_excess_deg", "%.2f", maxExcess * 180.0f / TB_PI );
	}
	if ( scene->jointCount > 0 )
	{
		tbBench_AddField( fields, "ode_joints", "%d", w->odeJointCount );
	}
#ifdef TB_BENCH_ODE_VERSION
	tbBench_AddField( fields, "lib", "ode-%s", TB_BENCH_ODE_VERSION );
#else
	tbBench_AddField( fields, "lib", "ode" );
#endif
	tbBench_AddField( fields, "precision", "%s", sizeof( dReal ) == 8 ? "double" : "single" );
	tbBench_AddField( fields, "space", "hash" );
	tbBench_AddField( fields, "max_contacts_per_pair", "%d", TB_ODE_MAX_CONTACTS );
}

static void tbOde_Destroy( void* handle )
{
	tbOdeWorld* w = handle;
	dJointGroupDestroy( w->contactGroup );
	// The space owns its geoms (cleanup mode on by default); the world owns bodies and joints.
	dSpaceDestroy( w->space );
	dWorldDestroy( w->world );
	free( w->bodies );
	free( w->motors );
	free( w );
}

static const tbBenchEngine tb_odeEngine = {
	"ode",			 tbOde_Create,	tbOde_Step, tbOde_GetPose, tbOde_MaxContactPenetration, tbOde_GetIterations,
	tbOde_AddFields, tbOde_Destroy,
};

const tbBenchEngine* tbBench_GetOdeEngine( void )
{
	return &tb_odeEngine;
}
