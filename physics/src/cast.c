// Tumble physics: shape casts against the world: a convex shape swept along a straight line,
// through the broad-phase trees, against every convex shape and mesh triangle its swept box meets.
// SPDX-License-Identifier: MIT
#include "body.h"
#include "core.h"
#include "mesh.h"
#include "shape.h"
#include "world.h"

#include "tumble/tumble.h"

#include <string.h>

// First contact of the moving proxy B with the still proxy A. The normal points out of A (towards
// B), the point lies on A's surface. A cast that starts touching or overlapping reports fraction 0;
// GJK's cast has no normal when the cores overlap, so EPA gives the direction that separates the
// shapes fastest. A triangle has no volume for EPA: its face normal, turned towards B, stands in.
static tbCastOutput tbCastProxies( const tbShapeProxy* proxyA, tbTransform xfA, const tbShapeProxy* proxyB,
								   tbTransform xfB, tbVec3 translation, float maxFraction )
{
	tbShapeCastPairInput input = { *proxyA, *proxyB, xfA, xfB, translation, maxFraction };
	tbCastOutput out = tbShapeCast( &input );
	if ( out.hit == false || out.fraction > 0.0f || tbLengthSquared( out.normal ) > 0.0f )
	{
		return out;
	}
	if ( proxyA->count == 3 && proxyA->radius == 0.0f )
	{
		tbVec3 a = tbTransformPoint( xfA, proxyA->points[0] );
		tbVec3 n = tbCross( tbSub( tbTransformPoint( xfA, proxyA->points[1] ), a ),
							tbSub( tbTransformPoint( xfA, proxyA->points[2] ), a ) );
		tbVec3 towardsB = tbSub( tbTransformPoint( xfB, proxyB->points[0] ), a );
		out.normal = tbNormalize( tbDot( n, towardsB ) < 0.0f ? tbNeg( n ) : n );
		return out;
	}
	tbDistanceInput distance = { *proxyA, *proxyB, xfA, xfB, true };
	tbPenetrationOutput pen = tbShapePenetration( &distance );
	if ( pen.valid )
	{
		out.normal = pen.normal;
		out.point = pen.pointA;
	}
	return out;
}

typedef struct tbShapeCastContext
{
	tbWorld* world;
	tbQueryFilter filter;
	tbCastResultFcn* fcn;
	void* userContext;
	tbShapeProxy proxy;
	tbTransform transform;
	tbVec3 translation;
	tbAABB sweptBox;
	int ignoreBody; ///< index of a body whose shapes are not reported, or -1
	float maxFraction;
} tbShapeCastContext;

typedef struct tbTriangleCastContext
{
	tbShapeCastContext* cast;
	const tbShape* shape;
	tbTransform xf;
	tbCastOutput best;
} tbTriangleCastContext;

static bool tbCastTriangle( int triangleIndex, void* context )
{
	tbTriangleCastContext* tc = context;
	tbShapeCastContext* sc = tc->cast;
	tbTriangle tri;
	tbGetSourceTriangle( tbShapeTriangles( tc->shape ), triangleIndex, &tri );
	tbShapeProxy triangle = { .points = tri.v, .count = 3, .radius = 0.0f };
	float limit = tc->best.hit ? tc->best.fraction : sc->maxFraction;
	tbCastOutput out = tbCastProxies( &triangle, tc->xf, &sc->proxy, sc->transform, sc->translation, limit );
	if ( out.hit && ( tc->best.hit == false || out.fraction < tc->best.fraction ) )
	{
		tc->best = out;
	}
	return true;
}

static bool tbShapeCastCallback( int32_t proxyId, int32_t shapeId, void* context )
{
	TB_UNUSED( proxyId );
	tbShapeCastContext* sc = context;
	tbWorld* world = sc->world;
	tbShape* shape = world->shapes.data + shapeId;
	if ( shape->bodyId == sc->ignoreBody || ( shape->categoryBits & sc->filter.maskBits ) == 0 ||
		 ( shape->maskBits & sc->filter.categoryBits ) == 0 )
	{
		return true;
	}
	tbTransform xf = world->bodies.data[shape->bodyId].transform;
	tbCastOutput out;
	if ( tbIsTriangleShapeType( shape->type ) )
	{
		tbTriangleCastContext tc;
		memset( &tc, 0, sizeof( tc ) );
		tc.cast = sc;
		tc.shape = shape;
		tc.xf = xf;
		tbQuerySourceTriangles( tbShapeTriangles( shape ), tbWorldBoxToMesh( sc->sweptBox, xf ), tbCastTriangle, &tc );
		out = tc.best;
	}
	else
	{
		tbShapeProxy target = tbMakeShapeDistanceProxy( shape );
		out = tbCastProxies( &target, xf, &sc->proxy, sc->transform, sc->translation, sc->maxFraction );
	}
	if ( out.hit == false )
	{
		return true;
	}
	float limit = sc->fcn( tbMakeShapeId( world, shape ), out.point, out.normal, out.fraction, sc->userContext );
	sc->maxFraction = tbMinFloat( sc->maxFraction, limit );
	return sc->maxFraction > 0.0f;
}

static bool tbIsValidProxy( const tbShapeProxy* proxy )
{
	if ( proxy == NULL || proxy->points == NULL || proxy->count < 1 || proxy->count > TB_MAX_HULL_POINTS ||
		 !tbIsValidFloat( proxy->radius ) || proxy->radius < 0.0f || proxy->radius > TB_MAX_SHAPE_SIZE ||
		 !tbIsValidFloat( proxy->diskRadius ) || proxy->diskRadius < 0.0f || proxy->diskRadius > TB_MAX_SHAPE_SIZE )
	{
		return false;
	}
	// A disk sweeps a cylinder's axis segment: two points and a unit axis.
	if ( proxy->diskRadius > 0.0f &&
		 ( proxy->count != 2 || !tbIsValidVec3( proxy->diskAxis ) || tbAbsFloat( tbLength( proxy->diskAxis ) - 1.0f ) > 1.0e-3f ) )
	{
		return false;
	}
	for ( int i = 0; i < proxy->count; ++i )
	{
		if ( !tbIsBoundedVec3( proxy->points[i], TB_MAX_SHAPE_SIZE ) )
		{
			return false;
		}
	}
	return true;
}

static void tbCastProxyInWorld( tbWorld* world, const tbShapeProxy* proxy, tbTransform transform, tbVec3 translation,
								tbQueryFilter filter, int ignoreBody, tbCastResultFcn* fcn, void* context )
{
	tbAABB start = tbComputeProxyAABB( proxy, transform );
	tbAABB end = { tbAdd( start.lowerBound, translation ), tbAdd( start.upperBound, translation ) };
	tbShapeCastContext sc = { world,	   filter, fcn, context, *proxy, transform, translation,
							  tbAABB_Union( start, end ), ignoreBody, 1.0f };
	// Locked as for rays: a callback that destroyed a body would pull shapes out of the tree walked.
	bool wasLocked = world->locked;
	world->locked = true;
	for ( int t = 0; t < tbBody_typeCount && sc.maxFraction > 0.0f; ++t )
	{
		tbDynamicTree_Query( &world->broadPhase.trees[t], sc.sweptBox, filter.maskBits, tbShapeCastCallback, &sc );
	}
	world->locked = wasLocked;
}

void tbWorld_CastShape( tbWorldId worldId, const tbShapeProxy* proxy, tbTransform transform, tbVec3 translation,
						tbQueryFilter filter, tbCastResultFcn* fcn, void* context )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || fcn == NULL || tbIsValidProxy( proxy ) == false ||
		 !tbIsBoundedVec3( transform.p, TB_MAX_QUERY_COORDINATE ) || !tbIsValidQuat( transform.q ) ||
		 !tbIsBoundedVec3( translation, TB_MAX_QUERY_COORDINATE ) )
	{
		return;
	}
	tbCastProxyInWorld( world, proxy, transform, translation, filter, -1, fcn, context );
}

tbRayResult tbWorld_CastShapeClosest( tbWorldId worldId, const tbShapeProxy* proxy, tbTransform transform,
									  tbVec3 translation, tbQueryFilter filter )
{
	tbRayResult result;
	memset( &result, 0, sizeof( result ) );
	tbWorld_CastShape( worldId, proxy, transform, translation, filter, tbKeepClosestHit, &result );
	return result;
}

void tbWorld_CastBody( tbBodyId bodyId, tbVec3 translation, tbQueryFilter filter, tbCastResultFcn* fcn, void* context )
{
	tbWorld* world;
	tbBody* body = tbGetBodyChecked( bodyId, &world );
	if ( body == NULL || fcn == NULL || !tbIsBoundedVec3( translation, TB_MAX_QUERY_COORDINATE ) )
	{
		return;
	}
	for ( int s = body->headShapeId; s >= 0; s = world->shapes.data[s].nextShapeId )
	{
		const tbShape* shape = world->shapes.data + s;
		if ( tbIsTriangleShapeType( shape->type ) )
		{
			continue;
		}
		tbShapeProxy proxy = tbMakeShapeDistanceProxy( shape );
		tbCastProxyInWorld( world, &proxy, body->transform, translation, filter, body->id, fcn, context );
	}
}

tbRayResult tbWorld_CastBodyClosest( tbBodyId bodyId, tbVec3 translation, tbQueryFilter filter )
{
	tbRayResult result;
	memset( &result, 0, sizeof( result ) );
	tbWorld_CastBody( bodyId, translation, filter, tbKeepClosestHit, &result );
	return result;
}
