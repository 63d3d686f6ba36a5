// Tumble benchmark: the Tumble adapter, on the public C API (tumble/tumble.h).
// SPDX-License-Identifier: MIT
#include "bench.h"

#include "tumble/tumble.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct tbTumbleWorld
{
	tbWorldId worldId;
	tbBodyId* bodies; ///< dynamic bodies in scene order
	int bodyCount;
	int threads;
	tbContactData* contacts; ///< scratch for the final penetration measurement
	int contactCapacity;
} tbTumbleWorld;

static tbBodyId tbTumble_AddStaticBox( tbWorldId worldId, tbVec3 halfExtents, tbVec3 position, float friction )
{
	tbBodyDef bodyDef = tbDefaultBodyDef();
	bodyDef.type = tbBody_static;
	bodyDef.position = position;
	tbBodyId bodyId = tbCreateBody( worldId, &bodyDef );
	tbShapeDef shapeDef = tbDefaultShapeDef();
	shapeDef.friction = friction;
	shapeDef.restitution = 0.0f;
	tbCreateBoxShape( bodyId, &shapeDef, halfExtents, tb_transformIdentity, NULL );
	return bodyId;
}

// Tumble's joint frames put the joint axis on x and the reference on y, like the bench's
// description: hinge axis = frame x; cone twist axis = frame x, reference = frame y.
static bool tbTumble_CreateJoints( tbTumbleWorld* w, const tbBenchScene* scene )
{
	for ( int i = 0; i < scene->jointCount; ++i )
	{
		const tbBenchJoint* joint = scene->joints + i;
		tbBodyId bodyA = joint->bodyA == TB_BENCH_WORLD ? tb_nullBodyId : w->bodies[joint->bodyA];
		tbBodyId bodyB = w->bodies[joint->bodyB];
		tbJointId jointId = tb_nullJointId;
		if ( joint->type == tbBenchJoint_hinge )
		{
			tbHingeJointDef def = tbDefaultHingeJointDef();
			// Any reference perpendicular to the axis will do for an unlimited hinge.
			tbVec3 ref =
				fabsf( joint->axisA.x ) < 0.9f ? tbMakeVec3( 1.0f, 0.0f, 0.0f ) : tbMakeVec3( 0.0f, 1.0f, 0.0f );
			ref = tbNormalize( tbSub( ref, tbMulSV( tbDot( ref, joint->axisA ), joint->axisA ) ) );
			tbQuat frameA = tbMakeQuatFromMatrix( tbMakeMat3( joint->axisA, ref, tbCross( joint->axisA, ref ) ) );
			def.base.bodyA = bodyA;
			def.base.bodyB = bodyB;
			def.base.localFrameA = tbMakeTransform( joint->pivotA, frameA );
			// Frame B in B's local axes, equal to frame A in the world at the start pose.
			tbQuat qA = joint->bodyA == TB_BENCH_WORLD ? tb_quatIdentity : scene->bodies[joint->bodyA].rotation;
			tbQuat qB = scene->bodies[joint->bodyB].rotation;
			def.base.localFrameB = tbMakeTransform( joint->pivotB, tbInvMulQQ( qB, tbMulQQ( qA, frameA ) ) );
			jointId = tbCreateHingeJoint( w->worldId, &def, NULL );
		}
		else
		{
			tbConeJointDef def = tbDefaultConeJointDef();
			def.base.bodyA = bodyA;
			def.base.bodyB = bodyB;
			def.base.localFrameA =
				tbMakeTransform( joint->pivotA, tbMakeQuatFromMatrix( tbMakeMat3( joint->axisA, joint->refA, tbCross( joint->axisA, joint->refA ) ) ) );
			def.base.localFrameB =
				tbMakeTransform( joint->pivotB, tbMakeQuatFromMatrix( tbMakeMat3( joint->axisB, joint->refB, tbCross( joint->axisB, joint->refB ) ) ) );
			def.enableConeLimit = true;
			def.coneAngle = joint->swingLimit;
			def.enableTwistLimit = true;
			def.lowerTwist = -joint->twistLimit;
			def.upperTwist = joint->twistLimit;
			jointId = tbCreateConeJoint( w->worldId, &def, NULL );
		}
		if ( TB_IS_NULL( jointId ) )
		{
			return false;
		}
	}
	return true;
}

static void* tbTumble_Create( const tbBenchScene* scene, const tbBenchSettings* settings, const char** skipReason )
{
	*skipReason = NULL;

	tbWorldDef worldDef = tbDefaultWorldDef();
	worldDef.gravity = tbMakeVec3( 0.0f, 0.0f, TB_BENCH_GRAVITY_Z );
	worldDef.enableSleep = false;
	// The friction of a pair is the geometric mean of the shapes' coefficients: equal shape
	// coefficients give exactly the scene's effective coefficient.
	worldDef.frictionMix = tbMix_geometricMean;
	if ( settings->iterationsSet )
	{
		worldDef.iterations = settings->iterations;
	}
	if ( settings->subSteps > 0 )
	{
		worldDef.subSteps = settings->subSteps;
	}
	if ( settings->jointHertz > 0.0f )
	{
		worldDef.jointHertz = settings->jointHertz;
	}
	if ( settings->solverMode > 0 )
	{
		worldDef.solverMode = (tbSolverMode)( settings->solverMode - 1 );
	}
	if ( settings->globalMethod > 0 )
	{
		worldDef.globalMethod = (tbGlobalMethod)( settings->globalMethod - 1 );
	}
	// -1: the global mode's sweeps alone, without the direct solve of joint trees.
	worldDef.enableDirectSolve = settings->globalMethod >= 0;
	// Results are bit-identical for any worker count; only the time changes.
	worldDef.workerCount = settings->threads;

	tbTumbleWorld* w = calloc( 1, sizeof( tbTumbleWorld ) );
	w->worldId = tbCreateWorld( &worldDef );
	w->bodies = calloc( (size_t)( scene->bodyCount > 0 ? scene->bodyCount : 1 ), sizeof( tbBodyId ) );
	w->bodyCount = scene->bodyCount;
	w->threads = settings->threads;

	if ( scene->hasGround )
	{
		// The half-space z <= 0 as the same static box Bullet uses.
		tbTumble_AddStaticBox( w->worldId, tbMakeVec3( 200.0f, 200.0f, 1.0f ), tbMakeVec3( 0.0f, 0.0f, -1.0f ),
							   scene->friction );
	}
	for ( int i = 0; i < scene->staticCount; ++i )
	{
		tbTumble_AddStaticBox( w->worldId, scene->statics[i].halfExtents, scene->statics[i].position, scene->friction );
	}

	for ( int i = 0; i < scene->bodyCount; ++i )
	{
		const tbBenchBody* def = scene->bodies + i;
		tbBodyDef bodyDef = tbDefaultBodyDef();
		bodyDef.type = tbBody_dynamic;
		bodyDef.position = def->position;
		bodyDef.rotation = def->rotation;
		bodyDef.enableSleep = false;
		bodyDef.linearDamping = 0.0f;
		bodyDef.angularDamping = 0.0f;
		// Scene index + 1, so that static bodies (user data NULL) are told apart.
		bodyDef.userData = (void*)(intptr_t)( i + 1 );
		tbBodyId bodyId = tbCreateBody( w->worldId, &bodyDef );
		w->bodies[i] = bodyId;

		tbShapeDef shapeDef = tbDefaultShapeDef();
		shapeDef.friction = scene->friction;
		shapeDef.restitution = 0.0f;
		shapeDef.updateBodyMass = false;
		switch ( def->shape )
		{
			case tbBenchShape_box:
				tbCreateBoxShape( bodyId, &shapeDef, def->halfExtents, tb_transformIdentity, NULL );
				break;
			case tbBenchShape_sphere: {
				tbSphere sphere = { { 0.0f, 0.0f, 0.0f }, def->radius };
				tbCreateSphereShape( bodyId, &shapeDef, &sphere, NULL );
				break;
			}
			case tbBenchShape_capsule: {
				tbCapsule capsule = { { 0.0f, 0.0f, -def->halfLength }, { 0.0f, 0.0f, def->halfLength }, def->radius };
				tbCreateCapsuleShape( bodyId, &shapeDef, &capsule, NULL );
				break;
			}
			case tbBenchShape_none:
				break;
		}
		tbBodyMass mass = { def->mass, { 0.0f, 0.0f, 0.0f }, def->inertia };
		tbBody_SetMassData( bodyId, mass );
	}
	if ( tbTumble_CreateJoints( w, scene ) == false )
	{
		*skipReason = "joint_creation_failed";
		tbDestroyWorld( w->worldId );
		free( w->bodies );
		free( w );
		return NULL;
	}
	return w;
}

static void tbTumble_Step( void* handle )
{
	tbTumbleWorld* w = handle;
	tbWorld_Step( w->worldId, TB_BENCH_TIME_STEP );
}

static void tbTumble_GetPose( void* handle, int index, tbVec3* position, tbQuat* rotation )
{
	tbTumbleWorld* w = handle;
	tbTransform xf = tbBody_GetTransform( w->bodies[index] );
	// The centre of mass is at the body origin in every scene.
	*position = xf.p;
	*rotation = xf.q;
}

// Signed separation of two shapes at their bodies' current transforms, by Tumble's own manifold
// functions (the narrow phase of the step). The manifold functions take the lower shape type
// first; the returned points are symmetric, so the order does not change the depth.
static float tbTumble_ShapeSeparation( tbShapeId shapeA, tbShapeId shapeB )
{
	tbShapeType typeA = tbShape_GetType( shapeA );
	tbShapeType typeB = tbShape_GetType( shapeB );
	if ( typeA > typeB )
	{
		tbShapeId t = shapeA;
		shapeA = shapeB;
		shapeB = t;
		tbShapeType tt = typeA;
		typeA = typeB;
		typeB = tt;
	}
	tbTransform xfA = tbBody_GetTransform( tbShape_GetBody( shapeA ) );
	tbTransform xfB = tbBody_GetTransform( tbShape_GetBody( shapeB ) );
	tbManifold m;
	m.pointCount = 0;
	const float speculative = 0.0f;
	if ( typeA == tbShape_sphere && typeB == tbShape_sphere )
	{
		m = tbCollideSpheres( tbShape_GetSphere( shapeA ), xfA, tbShape_GetSphere( shapeB ), xfB, speculative );
	}
	else if ( typeA == tbShape_sphere && typeB == tbShape_capsule )
	{
		m = tbCollideCapsuleAndSphere( tbShape_GetCapsule( shapeB ), xfB, tbShape_GetSphere( shapeA ), xfA,
									   speculative );
	}
	else if ( typeA == tbShape_sphere && typeB == tbShape_hull )
	{
		m = tbCollideHullAndSphere( tbShape_GetHull( shapeB ), xfB, tbShape_GetSphere( shapeA ), xfA, speculative );
	}
	else if ( typeA == tbShape_capsule && typeB == tbShape_capsule )
	{
		m = tbCollideCapsules( tbShape_GetCapsule( shapeA ), xfA, tbShape_GetCapsule( shapeB ), xfB, speculative );
	}
	else if ( typeA == tbShape_capsule && typeB == tbShape_hull )
	{
		m = tbCollideHullAndCapsule( tbShape_GetHull( shapeB ), xfB, tbShape_GetCapsule( shapeA ), xfA, speculative );
	}
	else if ( typeA == tbShape_hull && typeB == tbShape_hull )
	{
		m = tbCollideHulls( tbShape_GetHull( shapeA ), xfA, tbShape_GetHull( shapeB ), xfB, speculative, NULL );
	}
	float separation = 0.0f;
	for ( int i = 0; i < m.pointCount; ++i )
	{
		separation = tbMinFloat( separation, m.points[i].separation );
	}
	return separation;
}

// The pairs are the ones Tumble's broad phase and contact list hold after the last step
// (tbWorld_GetContacts); each is collided again at the final poses, as SCENES.md asks.
static float tbTumble_MaxContactPenetration( void* handle )
{
	tbTumbleWorld* w = handle;
	int count = tbWorld_GetContacts( w->worldId, w->contacts, w->contactCapacity );
	if ( count > w->contactCapacity )
	{
		free( w->contacts );
		w->contactCapacity = count;
		w->contacts = calloc( (size_t)count, sizeof( tbContactData ) );
		count = tbWorld_GetContacts( w->worldId, w->contacts, w->contactCapacity );
	}
	float deepest = 0.0f;
	for ( int i = 0; i < count && i < w->contactCapacity; ++i )
	{
		float separation = tbTumble_ShapeSeparation( w->contacts[i].shapeA, w->contacts[i].shapeB );
		deepest = tbMaxFloat( deepest, -separation );
	}
	return deepest;
}

static int tbTumble_GetIterations( void* handle )
{
	tbTumbleWorld* w = handle;
	return tbWorld_GetSettings( w->worldId ).iterations;
}

static void tbTumble_AddFields( void* handle, const tbBenchScene* scene, tbBenchFields* fields )
{
	(void)scene;
	tbTumbleWorld* w = handle;
	tbWorldDef settings = tbWorld_GetSettings( w->worldId );
	static const char* modeNames[] = { "baumgarte", "split", "soft", "global" };
	tbVersion version = tbGetVersion();
	tbBench_AddField( fields, "lib", "tumble-%d.%d.%d", version.major, version.minor, version.revision );
	tbBench_AddField( fields, "precision", "single" );
	tbBench_AddField( fields, "solver", "%s",
					  (int)settings.solverMode >= 0 && settings.solverMode < tbSolver_modeCount
						  ? modeNames[settings.solverMode]
						  : "unknown" );
	tbBench_AddField( fields, "threads", "%d", w->threads );
	static const char* simdNames[] = { "auto", "none", "sse2", "avx2" };
	tbBench_AddField( fields, "simd", "%s", simdNames[tbGetSimdLevel()] );
	// Touching contacts after the last step, and how many of them were remeasured, not recomputed.
	tbWorldCounters counters = tbWorld_GetCounters( w->worldId );
	tbBench_AddField( fields, "contacts", "%d", counters.contactCount );
	tbBench_AddField( fields, "reused_contacts", "%d", counters.reusedContactCount );
}

static void tbTumble_Destroy( void* handle )
{
	tbTumbleWorld* w = handle;
	tbDestroyWorld( w->worldId );
	free( w->contacts );
	free( w->bodies );
	free( w );
}

static const tbBenchEngine tb_tumbleEngine = {
	"tumble",
	tbTumble_Create,
	tbTumble_Step,
	tbTumble_GetPose,
	tbTumble_MaxContactPenetration,
	tbTumble_GetIterations,
	tbTumble_AddFields,
	tbTumble_Destroy,
};

const tbBenchEngine* tbBench_GetTumbleEngine( void )
{
	return &tb_tumbleEngine;
}
