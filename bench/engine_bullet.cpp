// Tumble benchmark: the Bullet adapter (Bullet Physics 2.x API of Debian libbullet-dev, C++),
// exposing the bench's C interface. Settings from SCENES.md: btDiscreteDynamicsWorld with
// btSequentialImpulseConstraintSolver and 10 iterations, every body with friction sqrt(mu)
// (Bullet multiplies the two coefficients), restitution 0, no damping, DISABLE_DEACTIVATION,
// stepSimulation(dt, 0) for exactly one internal step; the ground is a static box.
// SPDX-License-Identifier: MIT
#include "bench.h"

#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace
{

struct tbBulletWorld
{
	btDefaultCollisionConfiguration* configuration = nullptr;
	btCollisionDispatcher* dispatcher = nullptr;
	btBroadphaseInterface* broadphase = nullptr;
	btSequentialImpulseConstraintSolver* solver = nullptr;
	btDiscreteDynamicsWorld* world = nullptr;
	std::vector<btCollisionShape*> shapes;
	std::vector<btRigidBody*> bodies;  ///< dynamic bodies in scene order
	std::vector<btRigidBody*> statics; ///< ground and static boxes
	std::vector<btTypedConstraint*> constraints;
	int iterations = 0;
};

btVector3 tbToBt( tbVec3 v )
{
	return btVector3( v.x, v.y, v.z );
}

btQuaternion tbToBt( tbQuat q )
{
	// btQuaternion's constructor takes (x, y, z, w).
	return btQuaternion( q.x, q.y, q.z, q.w );
}

btRigidBody* tbBullet_AddStatic( tbBulletWorld* w, btCollisionShape* shape, btVector3 position, btScalar friction )
{
	btRigidBody::btRigidBodyConstructionInfo info( 0.0f, nullptr, shape, btVector3( 0.0f, 0.0f, 0.0f ) );
	info.m_startWorldTransform.setIdentity();
	info.m_startWorldTransform.setOrigin( position );
	info.m_friction = friction;
	info.m_restitution = 0.0f;
	btRigidBody* body = new btRigidBody( info );
	w->world->addRigidBody( body );
	w->statics.push_back( body );
	return body;
}

btCollisionShape* tbBullet_MakeShape( const tbBenchBody* def )
{
	switch ( def->shape )
	{
		case tbBenchShape_box:
		case tbBenchShape_none:
			// Shapeless bodies (chains) still need a collision object; they get a box and a
			// collision mask of 0 so the broad phase never pairs them.
			return new btBoxShape( tbToBt( def->halfExtents ) );
		case tbBenchShape_sphere:
			return new btSphereShape( def->radius );
		case tbBenchShape_capsule:
			// btCapsuleShapeZ(radius, height): height is the inner segment length, along local z.
			return new btCapsuleShapeZ( def->radius, 2.0f * def->halfLength );
	}
	return nullptr;
}

// Joint frames for btConeTwistConstraint: origin at the local pivot, X axis = twist axis,
// Y axis = reference axis, Z = X x Y. btMatrix3x3 takes rows; its columns are the frame axes.
btTransform tbBullet_ConeFrame( tbVec3 pivot, tbVec3 twist, tbVec3 reference )
{
	btVector3 x = tbToBt( twist );
	btVector3 y = tbToBt( reference );
	btVector3 z = x.cross( y );
	btMatrix3x3 basis( x.x(), y.x(), z.x(), x.y(), y.y(), z.y(), x.z(), y.z(), z.z() );
	return btTransform( basis, tbToBt( pivot ) );
}

void* tbBullet_Create( const tbBenchScene* scene, const tbBenchSettings* settings, const char** skipReason )
{
	*skipReason = nullptr;
	tbBulletWorld* w = new tbBulletWorld;
	w->iterations = settings->iterations;
	w->configuration = new btDefaultCollisionConfiguration();
	w->dispatcher = new btCollisionDispatcher( w->configuration );
	w->broadphase = new btDbvtBroadphase();
	w->solver = new btSequentialImpulseConstraintSolver();
	w->world = new btDiscreteDynamicsWorld( w->dispatcher, w->broadphase, w->solver, w->configuration );
	// Gravity before adding bodies: addRigidBody copies the world's gravity into each body.
	w->world->setGravity( btVector3( 0.0f, 0.0f, TB_BENCH_GRAVITY_Z ) );
	w->world->getSolverInfo().m_numIterations = settings->iterations;

	btScalar friction = std::sqrt( scene->friction );
	if ( scene->hasGround )
	{
		btCollisionShape* ground = new btBoxShape( btVector3( 200.0f, 200.0f, 1.0f ) );
		w->shapes.push_back( ground );
		tbBullet_AddStatic( w, ground, btVector3( 0.0f, 0.0f, -1.0f ), friction );
	}
	for ( int i = 0; i < scene->staticCount; ++i )
	{
		btCollisionShape* box = new btBoxShape( tbToBt( scene->statics[i].halfExtents ) );
		w->shapes.push_back( box );
		tbBullet_AddStatic( w, box, tbToBt( scene->statics[i].position ), friction );
	}

	w->bodies.reserve( (size_t)scene->bodyCount );
	for ( int i = 0; i < scene->bodyCount; ++i )
	{
		const tbBenchBody* def = scene->bodies + i;
		btCollisionShape* shape = tbBullet_MakeShape( def );
		w->shapes.push_back( shape );
		btRigidBody::btRigidBodyConstructionInfo info( def->mass, nullptr, shape, tbToBt( def->inertia ) );
		info.m_startWorldTransform = btTransform( tbToBt( def->rotation ), tbToBt( def->position ) );
		info.m_friction = friction;
		info.m_restitution = 0.0f;
		info.m_linearDamping = 0.0f;
		info.m_angularDamping = 0.0f;
		btRigidBody* body = new btRigidBody( info );
		body->setActivationState( DISABLE_DEACTIVATION );
		if ( def->shape == tbBenchShape_none )
		{
			w->world->addRigidBody( body, btBroadphaseProxy::DefaultFilter, 0 );
		}
		else
		{
			w->world->addRigidBody( body );
		}
		w->bodies.push_back( body );
	}

	for ( int i = 0; i < scene->jointCount; ++i )
	{
		const tbBenchJoint* joint = scene->joints + i;
		btTypedConstraint* constraint = nullptr;
		btRigidBody* bodyB = w->bodies[(size_t)joint->bodyB];
		if ( joint->type == tbBenchJoint_hinge )
		{
			if ( joint->bodyA == TB_BENCH_WORLD )
			{
				// The one-body hinge fixes the pivot and axis where they are in the world now.
				constraint = new btHingeConstraint( *bodyB, tbToBt( joint->pivotB ), tbToBt( joint->axisB ) );
			}
			else
			{
				btRigidBody* bodyA = w->bodies[(size_t)joint->bodyA];
				constraint = new btHingeConstraint( *bodyA, *bodyB, tbToBt( joint->pivotA ), tbToBt( joint->pivotB ),
													tbToBt( joint->axisA ), tbToBt( joint->axisB ) );
			}
		}
		else
		{
			btRigidBody* bodyA = w->bodies[(size_t)joint->bodyA];
			btTransform frameA = tbBullet_ConeFrame( joint->pivotA, joint->axisA, joint->refA );
			btTransform frameB = tbBullet_ConeFrame( joint->pivotB, joint->axisB, joint->refB );
			btConeTwistConstraint* cone = new btConeTwistConstraint( *bodyA, *bodyB, frameA, frameB );
			// Softness 1, bias 0.3, relaxation 1 are the defaults.
			cone->setLimit( joint->swingLimit, joint->swingLimit, joint->twistLimit );
			constraint = cone;
		}
		// true: bodies joined by a joint never collide with each other.
		w->world->addConstraint( constraint, true );
		w->constraints.push_back( constraint );
	}
	return w;
}

void tbBullet_Step( void* handle )
{
	tbBulletWorld* w = static_cast<tbBulletWorld*>( handle );
	// maxSubSteps = 0: one internal step of exactly dt, no fixed-step accumulator, no interpolation.
	w->world->stepSimulation( TB_BENCH_TIME_STEP, 0 );
}

void tbBullet_GetPose( void* handle, int index, tbVec3* position, tbQuat* rotation )
{
	tbBulletWorld* w = static_cast<tbBulletWorld*>( handle );
	const btTransform& xf = w->bodies[(size_t)index]->getWorldTransform();
	btVector3 p = xf.getOrigin();
	btQuaternion q = xf.getRotation();
	*position = tbMakeVec3( p.x(), p.y(), p.z() );
	*rotation = tbMakeQuat( q.w(), q.x(), q.y(), q.z() );
}

float tbBullet_MaxContactPenetration( void* handle )
{
	tbBulletWorld* w = static_cast<tbBulletWorld*>( handle );
	w->world->performDiscreteCollisionDetection();
	btScalar deepest = 0.0f;
	int manifoldCount = w->dispatcher->getNumManifolds();
	for ( int i = 0; i < manifoldCount; ++i )
	{
		btPersistentManifold* manifold = w->dispatcher->getManifoldByIndexInternal( i );
		for ( int j = 0; j < manifold->getNumContacts(); ++j )
		{
			btScalar distance = manifold->getContactPoint( j ).getDistance();
			deepest = -distance > deepest ? -distance : deepest;
		}
	}
	return deepest;
}

int tbBullet_GetIterations( void* handle )
{
	tbBulletWorld* w = static_cast<tbBulletWorld*>( handle );
	return w->iterations;
}

void tbBullet_AddFields( void* handle, const tbBenchScene* scene, tbBenchFields* fields )
{
	(void)handle;
	(void)scene;
	int version = btGetVersion();
	tbBench_AddField( fields, "lib", "bullet-%d.%02d", version / 100, version % 100 );
	tbBench_AddField( fields, "precision", "%s", sizeof( btScalar ) == 8 ? "double" : "single" );
	tbBench_AddField( fields, "broadphase", "dbvt" );
}

void tbBullet_Destroy( void* handle )
{
	tbBulletWorld* w = static_cast<tbBulletWorld*>( handle );
	for ( btTypedConstraint* constraint : w->constraints )
	{
		w->world->removeConstraint( constraint );
		delete constraint;
	}
	for ( btRigidBody* body : w->bodies )
	{
		w->world->removeRigidBody( body );
		delete body;
	}
	for ( btRigidBody* body : w->statics )
	{
		w->world->removeRigidBody( body );
		delete body;
	}
	for ( btCollisionShape* shape : w->shapes )
	{
		delete shape;
	}
	delete w->world;
	delete w->solver;
	delete w->broadphase;
	delete w->dispatcher;
	delete w->configuration;
	delete w;
}

const tbBenchEngine tb_bulletEngine = {
	"bullet",
	tbBullet_Create,
	tbBullet_Step,
	tbBullet_GetPose,
	tbBullet_MaxContactPenetration,
	tbBullet_GetIterations,
	tbBullet_AddFields,
	tbBullet_Destroy,
};

} // namespace

extern "C" const tbBenchEngine* tbBench_GetBulletEngine( void )
{
	return &tb_bulletEngine;
}
