// Tumble physics: contacts against static triangle meshes and heightfields (both called "mesh"
// here: a heightfield's cells give the same triangles, made on demand).
//
// The broad phase pairs a convex shape with a whole mesh; that pair becomes a parent contact
// (tbContact_meshParent) that is never solved. Before the narrow phase, this serial pass gives the
// parent one child contact (tbContact_meshChild) per triangle within reach of the convex shape, and
// drops children whose triangle moved out of reach. Children are ordinary contacts to the narrow
// phase, the solver, warm starting, islands and snapshots; only their pair-set key differs (it
// names the parent and the triangle). After the narrow phase the parents turn their children's
// touching states into one begin/end event per (shape, mesh) pair.
// SPDX-License-Identifier: MIT
#include "body.h"
#include "contact.h"
#include "core.h"
#include "mesh.h"
#include "shape.h"
#include "world.h"
#include "tumble/tumble.h"

typedef struct tbChildQuery
{
	tbWorld* world;
	int parentId;
} tbChildQuery;

static bool tbAddChild( int triangleIndex, void* context )
{
	tbChildQuery* q = context;
	if ( tbContainsKey( &q->world->pairSet, TB_MESH_CHILD_KEY( q->parentId, triangleIndex ) ) == false )
	{
		tbCreateMeshChildContact( q->world, q->parentId, triangleIndex );
	}
	return true;
}

static void tbUpdateParent( tbWorld* world, int parentId, float timeStep )
{
	tbContact* parent = world->contacts.data + parentId;
	tbShape* shapeA = world->shapes.data + parent->shapeIdA;
	tbShape* shapeB = world->shapes.data + parent->shapeIdB;
	bool meshIsA = tbIsTriangleShapeType( shapeA->type );
	tbShape* meshShape = meshIsA ? shapeA : shapeB;
	tbShape* convex = meshIsA ? shapeB : shapeA;
	tbBody* body = world->bodies.data + convex->bodyId;
	tbBody* meshBody = world->bodies.data + meshShape->bodyId;
	if ( tbIsTriangleShapeType( convex->type ) || body->type != tbBody_dynamic || body->awake == false )
	{
		return;
	}

	// Reach: the shape's box grown by the speculative margin tbUpdateContact will use (the
	// distance the body can close in this step), so every triangle that can get a speculative
	// point has a child. Children are kept until their triangle is a fat margin past that.
	float closing = tbLength( body->linearVelocity ) + tbLength( body->angularVelocity ) * body->maxExtent;
	float reach = TB_SPECULATIVE_DISTANCE + tbMinFloat( closing * timeStep, TB_MAX_SPECULATIVE_DISTANCE );
	tbAABB shapeBox = tbComputeShapeAABB( convex, body->transform );
	tbVec3 r = { reach, reach, reach };
	tbAABB queryBox = { tbSub( shapeBox.lowerBound, r ), tbAdd( shapeBox.upperBound, r ) };
	tbAABB localQuery = tbWorldBoxToMesh( queryBox, meshBody->transform );
	tbVec3 m = { TB_AABB_MARGIN, TB_AABB_MARGIN, TB_AABB_MARGIN };
	tbAABB localKeep = { tbSub( localQuery.lowerBound, m ), tbAdd( localQuery.upperBound, m ) };
	tbTriangleSource source = tbShapeTriangles( meshShape );

	for ( int key = body->headContactKey; key >= 0; )
	{
		tbContact* child = world->contacts.data + ( key >> 1 );
		key = child->edges[key & 1].nextKey;
		if ( ( child->flags & tbContact_meshChild ) && child->parentId == parentId &&
			 tbAABB_Overlaps( tbSourceTriangleBounds( source, child->triangleIndex ), localKeep ) == false )
		{
			tbDestroyContact( world, child, false );
		}
	}

	tbChildQuery q = { world, parentId };
	tbQuerySourceTriangles( source, localQuery, tbAddChild, &q );
}

int tbUpdateMeshContacts( tbWorld* world, float timeStep )
{
	// Children created here land in free slots or past the end; both are children and skipped.
	int count = world->contacts.count;
	int parents = 0;
	for ( int i = 0; i < count; ++i )
	{
		tbContact* contact = world->contacts.data + i;
		if ( contact->id < 0 )
		{
			continue;
		}
		if ( contact->flags & tbContact_meshChild )
		{
			// Every path that destroys a parent destroys its children with it (they share shapes
			// and bodies); this keeps a stray child from reading a reused slot if that ever breaks.
			const tbContact* parent = world->contacts.data + contact->parentId;
			if ( parent->id < 0 || ( parent->flags & tbContact_meshParent ) == 0 || parent->shapeIdA != contact->shapeIdA ||
				 parent->shapeIdB != contact->shapeIdB )
			{
				tbDestroyContact( world, contact, false );
			}
			continue;
		}
		parents += ( contact->flags & tbContact_meshParent ) != 0;
		if ( ( contact->flags & tbContact_meshParent ) == 0 || ( contact->flags & tbContact_sensor ) )
		{
			continue;
		}
		tbUpdateParent( world, i, timeStep );
	}
	return parents;
}

void tbFinishMeshContacts( tbWorld* world )
{
	for ( int i = 0; i < world->contacts.count; ++i )
	{
		tbContact* contact = world->contacts.data + i;
		if ( contact->id >= 0 && ( contact->flags & tbContact_meshParent ) )
		{
			contact->eventChildId = -1;
		}
	}
	for ( int i = 0; i < world->contacts.count; ++i )
	{
		tbContact* contact = world->contacts.data + i;
		if ( contact->id >= 0 && ( contact->flags & tbContact_meshChild ) && ( contact->flags & tbContact_touching ) )
		{
			tbContact* parent = world->contacts.data + contact->parentId;
			if ( parent->eventChildId < 0 )
			{
				parent->eventChildId = i;
			}
		}
	}
	for ( int i = 0; i < world->contacts.count; ++i )
	{
		tbContact* parent = world->contacts.data + i;
		if ( parent->id < 0 || ( parent->flags & tbContact_meshParent ) == 0 || ( parent->flags & tbContact_sensor ) )
		{
			continue;
		}
		bool wasTouching = ( parent->flags & tbContact_meshTouching ) != 0;
		bool isTouching = parent->eventChildId >= 0;
		if ( isTouching == wasTouching )
		{
			continue;
		}
		parent->flags = isTouching ? ( parent->flags | tbContact_meshTouching ) : ( parent->flags & ~(uint32_t)tbContact_meshTouching );
		if ( ( parent->flags & tbContact_enableEvents ) == 0 )
		{
			continue;
		}
		tbShape* shapeA = world->shapes.data + parent->shapeIdA;
		tbShape* shapeB = world->shapes.data + parent->shapeIdB;
		tbShapeId idA = tbMakeShapeId( world, shapeA );
		tbShapeId idB = tbMakeShapeId( world, shapeB );
		if ( isTouching )
		{
			const tbManifold* m = &world->contacts.data[parent->eventChildId].manifold;
			tbReportContactBegin( world, shapeA, shapeB, m->normal, m->points[0].point );
		}
		else
		{
			tbContactEndEvent ev = { idA, idB };
			tbPushContactEnd( world, &ev );
		}
	}
}
