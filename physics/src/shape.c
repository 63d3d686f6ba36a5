// Tumble physics: shapes attached to bodies.
// SPDX-License-Identifier: MIT
#include "shape.h"

#include "body.h"
#include "contact.h"
#include "core.h"
#include "heightfield.h"
#include "mesh.h"
#include "world.h"
#include "tumble/tumble.h"

#include <float.h>
#include <string.h>

tbShapeDef tbDefaultShapeDef( void )
{
	tbShapeDef def;
	memset( &def, 0, sizeof( def ) );
	def.density = 1000.0f;
	def.friction = 0.5f;
	def.restitution = 0.0f;
	def.categoryBits = 1;
	def.maskBits = UINT64_MAX;
	def.enableContactEvents = true;
	def.updateBodyMass = true;
	def.internalValue = TB_SECRET_COOKIE;
	return def;
}

tbShape* tbGetShapeFromId( tbWorld* world, tbShapeId id )
{
	if ( world == NULL || id.index1 < 1 || id.index1 > world->shapes.count )
	{
		return NULL;
	}
	tbShape* shape = world->shapes.data + ( id.index1 - 1 );
	if ( shape->id < 0 || shape->generation != id.generation )
	{
		return NULL;
	}
	return shape;
}

static tbShape* tbGetShapeChecked( tbShapeId id, tbWorld** worldOut )
{
	tbWorld* world = tbGetWorldFromTag( id.world0 );
	if ( worldOut != NULL )
	{
		*worldOut = world;
	}
	return tbGetShapeFromId( world, id );
}

tbShapeId tbMakeShapeId( const tbWorld* world, const tbShape* shape )
{
	tbShapeId id = { shape->id + 1, world->worldTag, shape->generation };
	return id;
}

tbAABB tbComputeShapeAABB( const tbShape* shape, tbTransform xf )
{
	switch ( shape->type )
	{
		case tbShape_sphere:
			return tbComputeSphereAABB( &shape->sphere, xf );
		case tbShape_capsule:
			return tbComputeCapsuleAABB( &shape->capsule, xf );
		case tbShape_mesh:
			return tbComputeMeshAABB( shape->mesh, xf );
		case tbShape_heightfield:
			return tbComputeHeightfieldAABB( shape->heightfield, xf );
		case tbShape_cylinder:
			return tbComputeCylinderAABB( &shape->cylinder, xf );
		default:
			return tbComputeHullAABB( shape->hull, xf );
	}
}

tbMassData tbComputeShapeMass( const tbShape* shape )
{
	switch ( shape->type )
	{
		case tbShape_sphere:
			return tbComputeSphereMass( &shape->sphere, shape->density );
		case tbShape_capsule:
			return tbComputeCapsuleMass( &shape->capsule, shape->density );
		case tbShape_cylinder:
			return tbComputeCylinderMass( &shape->cylinder, shape->density );
		case tbShape_mesh:
		case tbShape_heightfield:
		{
			// Meshes and heightfields live on static bodies only: no mass.
			tbMassData none = { 0.0f, tb_vec3_zero, tb_mat3Zero };
			return none;
		}
		default:
			return tbComputeHullMass( shape->hull, shape->density );
	}
}

tbShapeProxy tbMakeShapeDistanceProxy( const tbShape* shape )
{
	switch ( shape->type )
	{
		case tbShape_sphere:
			return tbMakeSphereProxy( &shape->sphere );
		case tbShape_capsule:
			return tbMakeCapsuleProxy( &shape->capsule );
		case tbShape_cylinder:
			return tbMakeCylinderProxy( &shape->cylinder );
		case tbShape_mesh:
		{
			// A mesh is not convex: callers test its triangles (mesh.h); this proxy is only its
			// first vertex so that nothing reading it goes out of bounds.
			tbShapeProxy proxy = { .points = shape->mesh->vertices, .count = 1 };
			return proxy;
		}
		case tbShape_heightfield:
		{
			// The same for a heightfield: one of its grid points.
			tbShapeProxy proxy = { .points = &shape->heightfield->firstPoint, .count = 1 };
			return proxy;
		}
		default:
			return tbMakeHullProxy( shape->hull );
	}
}

tbCastOutput tbRayCastShape( const tbShape* shape, tbTransform xf, tbVec3 origin, tbVec3 translation, float maxFraction )
{
	// Cast in the body frame, then bring the hit back to the world frame.
	tbRayCastInput input = { tbInvTransformPoint( xf, origin ), tbInvRotate( xf.q, translation ), maxFraction };
	tbCastOutput out;
	switch ( shape->type )
	{
		case tbShape_sphere:
			out = tbRayCastSphere( &input, &shape->sphere );
			break;
		case tbShape_capsule:
			out = tbRayCastCapsule( &input, &shape->capsule );
			break;
		case tbShape_mesh:
			out = tbRayCastMesh( &input, shape->mesh, NULL );
			break;
		case tbShape_heightfield:
			out = tbRayCastHeightfield( &input, shape->heightfield, NULL );
			break;
		case tbShape_cylinder:
			out = tbRayCastCylinder( &input, &shape->cylinder );
			break;
		default:
			out = tbRayCastHull( &input, shape->hull );
			break;
	}
	if ( out.hit )
	{
		out.point = tbTransformPoint( xf, out.point );
		out.normal = tbRotate( xf.q, out.normal );
	}
	return out;
}

float tbComputeShapeExtent( const tbShape* shape, tbVec3 localCenter )
{
	switch ( shape->type )
	{
		case tbShape_sphere:
			return tbDistance( shape->sphere.center, localCenter ) + shape->sphere.radius;
		case tbShape_capsule:
			return tbMaxFloat( tbDistance( shape->capsule.center1, localCenter ),
							   tbDistance( shape->capsule.center2, localCenter ) ) +
				   shape->capsule.radius;
		case tbShape_cylinder:
			// A rim point is at most the radius further than its cap's centre (a bound: the extent
			// only sizes margins).
			return tbMaxFloat( tbDistance( shape->cylinder.center1, localCenter ),
							   tbDistance( shape->cylinder.center2, localCenter ) ) +
				   shape->cylinder.radius;
		case tbShape_mesh:
		case tbShape_heightfield:
		{
			tbAABB b = shape->type == tbShape_mesh ? shape->mesh->bounds : shape->heightfield->bounds;
			return tbLength( tbMaxVec( tbAbsVec( tbSub( b.lowerBound, localCenter ) ), tbAbsVec( tbSub( b.upperBound, localCenter ) ) ) );
		}
		default:
		{
			float extent = 0.0f;
			for ( int i = 0; i < shape->hull->vertexCount; ++i )
			{
				extent = tbMaxFloat( extent, tbDistance( shape->hull->vertices[i], localCenter ) );
			}
			return extent;
		}
	}
}

float tbComputeShapeMinExtent( const tbShape* shape )
{
	switch ( shape->type )
	{
		case tbShape_sphere:
			return shape->sphere.radius;
		case tbShape_capsule:
			return shape->capsule.radius;
		case tbShape_cylinder:
			return tbMinFloat( shape->cylinder.radius, 0.5f * tbDistance( shape->cylinder.center1, shape->cylinder.center2 ) );
		case tbShape_mesh:
			return 0.5f * tbLength( tbSub( shape->mesh->bounds.upperBound, shape->mesh->bounds.lowerBound ) );
		case tbShape_heightfield:
			return 0.5f * tbLength( tbSub( shape->heightfield->bounds.upperBound, shape->heightfield->bounds.lowerBound ) );
		default:
			return shape->hull->innerRadius;
	}
}

bool tbShouldShapesCollide( const tbShape* a, const tbShape* b )
{
	if ( a->groupIndex == b->groupIndex && a->groupIndex != 0 )
	{
		return a->groupIndex > 0;
	}
	return ( a->maskBits & b->categoryBits ) != 0 && ( a->categoryBits & b->maskBits ) != 0;
}

bool tbCreateShapeProxy( tbWorld* world, tbShape* shape, const tbBody* body )
{
	shape->aabb = tbComputeShapeAABB( shape, body->transform );
	float margin = body->type == tbBody_static ? 0.0f : TB_AABB_MARGIN;
	tbVec3 m = { margin, margin, margin };
	tbAABB fat = { tbSub( shape->aabb.lowerBound, m ), tbAdd( shape->aabb.upperBound, m ) };
	shape->fatAABB = fat;
	// Static shapes added after the first step must still find the dynamic bodies resting on them.
	shape->proxyKey = tbBroadPhase_CreateProxy( &world->broadPhase, fat, shape->categoryBits, shape->id, body->type, true );
	return shape->proxyKey != TB_NULL_PROXY;
}

static bool tbIsValidShapeDef( const tbShapeDef* def )
{
	// Density is 0 (a massless shape) or at least TB_MIN_DENSITY: denormal densities make masses
	// that underflow to zero in the inertia products.
	return def != NULL && def->internalValue == TB_SECRET_COOKIE &&
		   ( def->density == 0.0f || tbIsInRange( def->density, TB_MIN_DENSITY, TB_MAX_DENSITY ) ) &&
		   tbIsInRange( def->friction, 0.0f, TB_MAX_FRICTION ) && tbIsInRange( def->restitution, 0.0f, TB_MAX_RESTITUTION );
}

// A shape heavier than TB_MAX_MASS (a 4 km sphere of rock) would overflow the solver's products.
static bool tbIsMassInRange( tbShapeType type, const void* geometry, float density )
{
	tbShape probe;
	memset( &probe, 0, sizeof( probe ) );
	probe.type = type;
	probe.density = density;
	if ( type == tbShape_sphere )
	{
		probe.sphere = *(const tbSphere*)geometry;
	}
	else if ( type == tbShape_capsule )
	{
		probe.capsule = *(const tbCapsule*)geometry;
	}
	else if ( type == tbShape_cylinder )
	{
		probe.cylinder = *(const tbCylinder*)geometry;
	}
	else if ( type == tbShape_mesh || type == tbShape_heightfield )
	{
		return true;
	}
	else
	{
		probe.hull = (tbHull*)geometry;
	}
	float mass = tbComputeShapeMass( &probe ).mass;
	return tbIsValidFloat( mass ) && mass <= TB_MAX_MASS;
}

// Shared part of every tbCreate*Shape: validate, take a slot, fill the common fields, link to the body.
static tbShape* tbCreateShapeInternal( tbBodyId bodyId, const tbShapeDef* def, tbShapeType type, const void* geometry,
									   tbResult* result, tbWorld** worldOut )
{
	tbWorld* world;
	tbBody* body = tbGetBodyChecked( bodyId, &world );
	tbResult r = tbResult_ok;
	if ( body == NULL )
	{
		r = tbResult_invalidId;
	}
	else if ( world->locked )
	{
		r = tbResult_worldLocked;
	}
	else if ( !tbIsValidShapeDef( def ) || !tbIsMassInRange( type, geometry, def->density ) )
	{
		r = tbResult_invalidArgument;
	}
	if ( result != NULL )
	{
		*result = r;
	}
	if ( r != tbResult_ok )
	{
		return NULL;
	}

	int index;
	TB_POOL_ALLOC( world->shapes, tbShape, index );
	if ( index < 0 )
	{
		if ( result != NULL )
		{
			*result = tbResult_outOfMemory;
		}
		return NULL;
	}
	tbShape* shape = world->shapes.data + index;
	uint16_t generation = shape->generation;
	memset( shape, 0, sizeof( *shape ) );
	shape->id = index;
	shape->generation = generation;
	shape->nextFree = -1;
	shape->bodyId = body->id;
	shape->type = type;
	shape->density = def->density;
	shape->friction = def->friction;
	shape->restitution = def->restitution;
	shape->categoryBits = def->categoryBits;
	shape->maskBits = def->maskBits;
	shape->groupIndex = def->groupIndex;
	shape->userData = def->userData;
	shape->isSensor = def->isSensor;
	shape->enableContactEvents = def->enableContactEvents;
	shape->enablePreSolveEvents = def->enablePreSolveEvents;
	shape->proxyKey = -1;
	shape->nextShapeId = body->headShapeId;
	body->headShapeId = index;
	body->shapeCount += 1;
	*worldOut = world;
	return shape;
}

// Shared tail: proxy and mass once the geometry is in place.
// Without a proxy (the tree could not grow) the shape is taken out again, its geometry with it.
static tbShapeId tbFinishShape( tbWorld* world, tbShape* shape, const tbShapeDef* def, tbResult* result )
{
	tbBody* body = world->bodies.data + shape->bodyId;
	if ( tbCreateShapeProxy( world, shape, body ) == false )
	{
		tbDestroyShapeInternal( world, shape );
		if ( result != NULL )
		{
			*result = tbResult_outOfMemory;
		}
		return tb_nullShapeId;
	}
	if ( def->updateBodyMass )
	{
		tbUpdateBodyMass( world, body );
	}
	else
	{
		float extent = tbComputeShapeExtent( shape, body->localCenter );
		body->maxExtent = tbMaxFloat( body->maxExtent, extent );
	}
	return tbMakeShapeId( world, shape );
}

// A shape dimension (radius, half extent) inside the supported range.
static bool tbIsPositive( float x )
{
	return tbIsInRange( x, TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE );
}

tbShapeId tbCreateSphereShape( tbBodyId bodyId, const tbShapeDef* def, const tbSphere* sphere, tbResult* result )
{
	if ( sphere == NULL || !tbIsBoundedVec3( sphere->center, TB_MAX_SHAPE_SIZE ) || !tbIsPositive( sphere->radius ) )
	{
		if ( result != NULL )
		{
			*result = tbResult_invalidArgument;
		}
		return tb_nullShapeId;
	}
	tbWorld* world;
	tbShape* shape = tbCreateShapeInternal( bodyId, def, tbShape_sphere, sphere, result, &world );
	if ( shape == NULL )
	{
		return tb_nullShapeId;
	}
	shape->sphere = *sphere;
	return tbFinishShape( world, shape, def, result );
}

tbShapeId tbCreateCapsuleShape( tbBodyId bodyId, const tbShapeDef* def, const tbCapsule* capsule, tbResult* result )
{
	if ( capsule == NULL || !tbIsBoundedVec3( capsule->center1, TB_MAX_SHAPE_SIZE ) ||
		 !tbIsBoundedVec3( capsule->center2, TB_MAX_SHAPE_SIZE ) || !tbIsPositive( capsule->radius ) )
	{
		if ( result != NULL )
		{
			*result = tbResult_invalidArgument;
		}
		return tb_nullShapeId;
	}
	tbWorld* world;
	tbShape* shape = tbCreateShapeInternal( bodyId, def, tbShape_capsule, capsule, result, &world );
	if ( shape == NULL )
	{
		return tb_nullShapeId;
	}
	shape->capsule = *capsule;
	return tbFinishShape( world, shape, def, result );
}

tbShapeId tbCreateCylinderShape( tbBodyId bodyId, const tbShapeDef* def, const tbCylinder* cylinder, tbResult* result )
{
	if ( cylinder == NULL || !tbIsBoundedVec3( cylinder->center1, TB_MAX_SHAPE_SIZE ) ||
		 !tbIsBoundedVec3( cylinder->center2, TB_MAX_SHAPE_SIZE ) || !tbIsPositive( cylinder->radius ) ||
		 !tbIsPositive( 0.5f * tbDistance( cylinder->center1, cylinder->center2 ) ) )
	{
		if ( result != NULL )
		{
			*result = tbResult_invalidArgument;
		}
		return tb_nullShapeId;
	}
	tbWorld* world;
	tbShape* shape = tbCreateShapeInternal( bodyId, def, tbShape_cylinder, cylinder, result, &world );
	if ( shape == NULL )
	{
		return tb_nullShapeId;
	}
	shape->cylinder = *cylinder;
	return tbFinishShape( world, shape, def, result );
}

tbShapeId tbCreateHullShape( tbBodyId bodyId, const tbShapeDef* def, const tbHull* hull, tbResult* result )
{
	tbVec3 extent = hull != NULL ? tbSub( hull->bounds.upperBound, hull->bounds.lowerBound ) : tb_vec3_zero;
	float size = tbMaxFloat( extent.x, tbMaxFloat( extent.y, extent.z ) );
	if ( hull == NULL || hull->vertexCount < 4 || hull->faceCount < 4 || !tbIsBoundedVec3( hull->bounds.lowerBound, TB_MAX_SHAPE_SIZE ) ||
		 !tbIsBoundedVec3( hull->bounds.upperBound, TB_MAX_SHAPE_SIZE ) || !( size >= 2.0f * TB_MIN_SHAPE_SIZE ) )
	{
		if ( result != NULL )
		{
			*result = tbResult_invalidArgument;
		}
		return tb_nullShapeId;
	}
	tbHull* copy = tbCloneHull( hull );
	if ( copy == NULL )
	{
		if ( result != NULL )
		{
			*result = tbResult_outOfMemory;
		}
		return tb_nullShapeId;
	}
	tbWorld* world;
	tbShape* shape = tbCreateShapeInternal( bodyId, def, tbShape_hull, copy, result, &world );
	if ( shape == NULL )
	{
		tbDestroyHull( copy );
		return tb_nullShapeId;
	}
	shape->hull = copy;
	shape->isBox = tbGetBoxHull( copy, &shape->box );
	return tbFinishShape( world, shape, def, result );
}

tbShapeId tbCreateBoxShape( tbBodyId bodyId, const tbShapeDef* def, tbVec3 halfExtents, tbTransform local,
							tbResult* result )
{
	if ( !tbIsPositive( halfExtents.x ) || !tbIsPositive( halfExtents.y ) || !tbIsPositive( halfExtents.z ) ||
		 !tbIsBoundedVec3( local.p, TB_MAX_SHAPE_SIZE ) || !tbIsValidQuat( local.q ) )
	{
		if ( result != NULL )
		{
			*result = tbResult_invalidArgument;
		}
		return tb_nullShapeId;
	}
	local.q = tbNormalizeQ( local.q );
	tbHull* box = tbMakeBoxHull( halfExtents, local );
	if ( box == NULL )
	{
		if ( result != NULL )
		{
			*result = tbResult_outOfMemory;
		}
		return tb_nullShapeId;
	}
	tbWorld* world;
	tbShape* shape = tbCreateShapeInternal( bodyId, def, tbShape_hull, box, result, &world );
	if ( shape == NULL )
	{
		tbDestroyHull( box );
		return tb_nullShapeId;
	}
	shape->hull = box;
	shape->isBox = tbGetBoxHull( box, &shape->box );
	return tbFinishShape( world, shape, def, result );
}

// Meshes and heightfields have no inside and no mass: only static bodies may carry them.
static bool tbRefuseNonStaticBody( tbBodyId bodyId, tbResult* result )
{
	tbBody* body = tbGetBodyChecked( bodyId, NULL );
	if ( body != NULL && body->type != tbBody_static )
	{
		if ( result != NULL )
		{
			*result = tbResult_invalidArgument;
		}
		return true;
	}
	return false;
}

static void tbSetSharedGeometry( tbShape* shape, tbShapeType type, void* geometry )
{
	shape->type = type;
	if ( type == tbShape_mesh )
	{
		shape->mesh = geometry;
	}
	else
	{
		shape->heightfield = geometry;
	}
}

// A new mesh or heightfield (its one reference) becomes the shape's; when the shape cannot be made
// the reference is dropped, which frees it.
static tbShapeId tbAttachSharedGeometry( tbBodyId bodyId, const tbShapeDef* def, tbShapeType type, void* geometry,
										 tbResult* result )
{
	tbWorld* world;
	tbShape* shape = tbCreateShapeInternal( bodyId, def, type, geometry, result, &world );
	if ( shape == NULL )
	{
		tbShape owner;
		memset( &owner, 0, sizeof( owner ) );
		tbSetSharedGeometry( &owner, type, geometry );
		tbReleaseSharedGeometry( &owner );
		return tb_nullShapeId;
	}
	tbSetSharedGeometry( shape, type, geometry );
	return tbFinishShape( world, shape, def, result );
}

tbShapeId tbCreateMeshShape( tbBodyId bodyId, const tbShapeDef* def, const tbVec3* vertices, int vertexCount,
							 const int32_t* indices, int triangleCount, tbResult* result )
{
	if ( tbRefuseNonStaticBody( bodyId, result ) )
	{
		return tb_nullShapeId;
	}
	tbMesh* mesh = tbCreateMesh( vertices, vertexCount, indices, triangleCount, result );
	return mesh != NULL ? tbAttachSharedGeometry( bodyId, def, tbShape_mesh, mesh, result ) : tb_nullShapeId;
}

tbShapeId tbCreateHeightfieldShape( tbBodyId bodyId, const tbShapeDef* def, const float* heights, int countX,
									int countY, float cellX, float cellY, const uint8_t* holes, tbResult* result )
{
	if ( tbRefuseNonStaticBody( bodyId, result ) )
	{
		return tb_nullShapeId;
	}
	tbHeightfield* hf = tbCreateHeightfield( heights, countX, countY, cellX, cellY, holes, result );
	return hf != NULL ? tbAttachSharedGeometry( bodyId, def, tbShape_heightfield, hf, result ) : tb_nullShapeId;
}

void tbRetainSharedGeometry( const tbShape* shape )
{
	if ( shape->type == tbShape_mesh )
	{
		tbRetainMesh( shape->mesh );
	}
	else if ( shape->type == tbShape_heightfield )
	{
		tbRetainHeightfield( shape->heightfield );
	}
}

void tbReleaseSharedGeometry( const tbShape* shape )
{
	if ( shape->type == tbShape_mesh )
	{
		tbReleaseMesh( shape->mesh );
	}
	else if ( shape->type == tbShape_heightfield )
	{
		tbReleaseHeightfield( shape->heightfield );
	}
}

void tbDestroyShapeInternal( tbWorld* world, tbShape* shape )
{
	tbBody* body = world->bodies.data + shape->bodyId;

	// Destroy contacts that use this shape.
	int key = body->headContactKey;
	while ( key >= 0 )
	{
		tbContact* contact = world->contacts.data + ( key >> 1 );
		key = contact->edges[key & 1].nextKey;
		if ( contact->shapeIdA == shape->id || contact->shapeIdB == shape->id )
		{
			tbDestroyContact( world, contact, true );
		}
	}

	// Unlink from the body's shape list.
	int* link = &body->headShapeId;
	while ( *link >= 0 && *link != shape->id )
	{
		link = &world->shapes.data[*link].nextShapeId;
	}
	if ( *link == shape->id )
	{
		*link = shape->nextShapeId;
		body->shapeCount -= 1;
	}

	if ( shape->proxyKey >= 0 )
	{
		tbBroadPhase_DestroyProxy( &world->broadPhase, shape->proxyKey );
	}
	if ( shape->type == tbShape_hull )
	{
		tbDestroyHull( shape->hull );
		shape->hull = NULL;
	}
	else
	{
		tbReleaseSharedGeometry( shape );
	}
	TB_POOL_FREE( world->shapes, shape->id );
}

tbResult tbDestroyShape( tbShapeId shapeId, bool updateBodyMass )
{
	tbWorld* world;
	tbShape* shape = tbGetShapeChecked( shapeId, &world );
	if ( shape == NULL )
	{
		return tbResult_invalidId;
	}
	if ( world->locked )
	{
		return tbResult_worldLocked;
	}
	tbBody* body = world->bodies.data + shape->bodyId;
	tbDestroyShapeInternal( world, shape );
	if ( updateBodyMass )
	{
		tbUpdateBodyMass( world, body );
	}
	return tbResult_ok;
}

bool tbShape_IsValid( tbShapeId shapeId )
{
	return tbGetShapeChecked( shapeId, NULL ) != NULL;
}

tbShapeType tbShape_GetType( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL ? shape->type : tbShape_sphere;
}

tbBodyId tbShape_GetBody( tbShapeId shapeId )
{
	tbWorld* world;
	tbShape* shape = tbGetShapeChecked( shapeId, &world );
	if ( shape == NULL )
	{
		return tb_nullBodyId;
	}
	return tbMakeBodyId( world, world->bodies.data + shape->bodyId );
}

const tbSphere* tbShape_GetSphere( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL && shape->type == tbShape_sphere ? &shape->sphere : NULL;
}

const tbCapsule* tbShape_GetCapsule( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL && shape->type == tbShape_capsule ? &shape->capsule : NULL;
}

const tbCylinder* tbShape_GetCylinder( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL && shape->type == tbShape_cylinder ? &shape->cylinder : NULL;
}

const tbHull* tbShape_GetHull( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL && shape->type == tbShape_hull ? shape->hull : NULL;
}

const tbMesh* tbShape_GetMesh( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL && shape->type == tbShape_mesh ? shape->mesh : NULL;
}

const tbHeightfield* tbShape_GetHeightfield( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL && shape->type == tbShape_heightfield ? shape->heightfield : NULL;
}

float tbShape_GetFriction( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL ? shape->friction : 0.0f;
}

float tbShape_GetRestitution( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL ? shape->restitution : 0.0f;
}

float tbShape_GetDensity( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL ? shape->density : 0.0f;
}

// Shared checks of the material setters.
static tbShape* tbGetMutableShape( tbShapeId shapeId, float value, tbResult* result, tbWorld** worldOut )
{
	tbWorld* world;
	tbShape* shape = tbGetShapeChecked( shapeId, &world );
	*result = tbResult_ok;
	if ( shape == NULL )
	{
		*result = tbResult_invalidId;
	}
	else if ( world->locked )
	{
		*result = tbResult_worldLocked;
	}
	else if ( !tbIsValidFloat( value ) || value < 0.0f )
	{
		*result = tbResult_invalidArgument;
	}
	*worldOut = world;
	return *result == tbResult_ok ? shape : NULL;
}

tbResult tbShape_SetFriction( tbShapeId shapeId, float friction )
{
	tbResult r;
	tbWorld* world;
	tbShape* shape = tbGetMutableShape( shapeId, friction, &r, &world );
	if ( shape != NULL && friction > TB_MAX_FRICTION )
	{
		return tbResult_invalidArgument;
	}
	if ( shape != NULL )
	{
		shape->friction = friction;
		tbRefreshContactMaterials( world, shape );
	}
	return r;
}

tbResult tbShape_SetRestitution( tbShapeId shapeId, float restitution )
{
	tbResult r;
	tbWorld* world;
	tbShape* shape = tbGetMutableShape( shapeId, restitution, &r, &world );
	if ( shape != NULL && restitution > TB_MAX_RESTITUTION )
	{
		return tbResult_invalidArgument;
	}
	if ( shape != NULL )
	{
		shape->restitution = restitution;
		tbRefreshContactMaterials( world, shape );
	}
	return r;
}

tbResult tbShape_SetDensity( tbShapeId shapeId, float density, bool updateBodyMass )
{
	tbResult r;
	tbWorld* world;
	tbShape* shape = tbGetMutableShape( shapeId, density, &r, &world );
	if ( shape != NULL )
	{
		const void* geometry = shape->type == tbShape_sphere
								   ? (const void*)&shape->sphere
								   : ( shape->type == tbShape_capsule ? (const void*)&shape->capsule
																	  : ( tbIsTriangleShapeType( shape->type ) ? (const void*)shape->mesh
																									  : (const void*)shape->hull ) );
		geometry = shape->type == tbShape_cylinder ? (const void*)&shape->cylinder : geometry;
		if ( ( density != 0.0f && !tbIsInRange( density, TB_MIN_DENSITY, TB_MAX_DENSITY ) ) ||
			 !tbIsMassInRange( shape->type, geometry, density ) )
		{
			return tbResult_invalidArgument;
		}
		shape->density = density;
		if ( updateBodyMass )
		{
			tbUpdateBodyMass( world, world->bodies.data + shape->bodyId );
		}
	}
	return r;
}

// Drop the shape's contacts (their end events name what they were) before its filter or sensor
// flag changes.
static void tbDropShapeContacts( tbWorld* world, tbShape* shape )
{
	tbBody* body = world->bodies.data + shape->bodyId;
	int key = body->headContactKey;
	while ( key >= 0 )
	{
		tbContact* contact = world->contacts.data + ( key >> 1 );
		key = contact->edges[key & 1].nextKey;
		if ( contact->shapeIdA == shape->id || contact->shapeIdB == shape->id )
		{
			tbDestroyContact( world, contact, true );
		}
	}
}

// After the change: a new proxy makes the broad phase pair the shape again under its new settings
// in the next step, and the body is woken so a sleeping island sees the new pairs.
static void tbRepairShape( tbWorld* world, tbShape* shape )
{
	tbBody* body = world->bodies.data + shape->bodyId;
	if ( shape->proxyKey >= 0 )
	{
		tbBroadPhase_DestroyProxy( &world->broadPhase, shape->proxyKey );
	}
	tbCreateShapeProxy( world, shape, body );
	if ( body->type != tbBody_static )
	{
		tbWakeBody( world, body );
	}
}

tbResult tbShape_SetFilter( tbShapeId shapeId, uint64_t categoryBits, uint64_t maskBits, int32_t groupIndex )
{
	tbResult r;
	tbWorld* world;
	tbShape* shape = tbGetMutableShape( shapeId, 0.0f, &r, &world );
	if ( shape == NULL )
	{
		return r;
	}
	tbDropShapeContacts( world, shape );
	shape->categoryBits = categoryBits;
	shape->maskBits = maskBits;
	shape->groupIndex = groupIndex;
	tbRepairShape( world, shape );
	return tbResult_ok;
}

tbResult tbShape_GetFilter( tbShapeId shapeId, uint64_t* categoryBits, uint64_t* maskBits, int32_t* groupIndex )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	if ( shape == NULL )
	{
		return tbResult_invalidId;
	}
	*categoryBits = shape->categoryBits;
	*maskBits = shape->maskBits;
	*groupIndex = shape->groupIndex;
	return tbResult_ok;
}

tbResult tbShape_SetSensor( tbShapeId shapeId, bool isSensor )
{
	tbResult r;
	tbWorld* world;
	tbShape* shape = tbGetMutableShape( shapeId, 0.0f, &r, &world );
	if ( shape == NULL || shape->isSensor == isSensor )
	{
		return r;
	}
	tbDropShapeContacts( world, shape );
	shape->isSensor = isSensor;
	tbRepairShape( world, shape );
	return tbResult_ok;
}

tbResult tbShape_EnablePreSolveEvents( tbShapeId shapeId, bool flag )
{
	tbResult r;
	tbWorld* world;
	tbShape* shape = tbGetMutableShape( shapeId, 0.0f, &r, &world );
	if ( shape != NULL )
	{
		shape->enablePreSolveEvents = flag;
	}
	return r;
}

bool tbShape_IsSensor( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL && shape->isSensor;
}

tbAABB tbShape_GetAABB( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	tbAABB empty = { tb_vec3_zero, tb_vec3_zero };
	return shape != NULL ? shape->aabb : empty;
}

void* tbShape_GetUserData( tbShapeId shapeId )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	return shape != NULL ? shape->userData : NULL;
}

void tbShape_SetUserData( tbShapeId shapeId, void* userData )
{
	tbShape* shape = tbGetShapeChecked( shapeId, NULL );
	if ( shape != NULL )
	{
		shape->userData = userData;
	}
}

tbCastOutput tbShape_RayCast( tbShapeId shapeId, tbVec3 origin, tbVec3 translation )
{
	tbWorld* world;
	tbShape* shape = tbGetShapeChecked( shapeId, &world );
	tbCastOutput none;
	memset( &none, 0, sizeof( none ) );
	if ( shape == NULL || !tbIsBoundedVec3( origin, TB_MAX_QUERY_COORDINATE ) ||
		 !tbIsBoundedVec3( translation, TB_MAX_QUERY_COORDINATE ) )
	{
		return none;
	}
	return tbRayCastShape( shape, world->bodies.data[shape->bodyId].transform, origin, translation, 1.0f );
}

tbAABB tbComputeProxyAABB( const tbShapeProxy* proxy, tbTransform xf )
{
	tbAABB core = tbAABB_OfPoints( proxy->points, proxy->count, xf );
	if ( proxy->diskRadius > 0.0f && proxy->count == 2 )
	{
		tbCylinder cylinder = { proxy->points[0], proxy->points[1], proxy->diskRadius };
		core = tbComputeCylinderAABB( &cylinder, xf );
	}
	tbVec3 r = { proxy->radius, proxy->radius, proxy->radius };
	tbAABB box = { tbSub( core.lowerBound, r ), tbAdd( core.upperBound, r ) };
	return box;
}
