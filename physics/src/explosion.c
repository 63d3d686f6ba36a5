// Tumble physics: radial impulses (explosions).
// SPDX-License-Identifier: MIT
#include "body.h"
#include "core.h"
#include "shape.h"
#include "world.h"

#include "tumble/tumble.h"

#include <float.h>

tbExplosionDef tbDefaultExplosionDef( void )
{
	tbExplosionDef def = { { 0.0f, 0.0f, 0.0f }, 1.0f, 0.0f, 0.0f, UINT64_MAX };
	return def;
}

// Distance from point to the nearest of the body's shapes (their surfaces; 0 inside one).
static float tbBodyDistance( tbWorld* world, const tbBody* body, tbVec3 point )
{
	tbShapeProxy pointProxy = { .points = &point, .count = 1, .radius = 0.0f };
	float best = FLT_MAX;
	for ( int s = body->headShapeId; s >= 0; s = world->shapes.data[s].nextShapeId )
	{
		const tbShape* shape = world->shapes.data + s;
		tbDistanceInput input = { tbMakeShapeDistanceProxy( shape ), pointProxy, body->transform, tb_transformIdentity, true };
		tbSimplexCache cache = { 0 };
		best = tbMinFloat( best, tbShapeDistance( &input, &cache ).distance );
	}
	return best;
}

int tbWorld_Explode( tbWorldId worldId, const tbExplosionDef* def )
{
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL || def == NULL || world->locked || !tbIsBoundedVec3( def->position, TB_MAX_QUERY_COORDINATE ) ||
		 !tbIsValidFloat( def->radius ) || def->radius < 0.0f || !tbIsValidFloat( def->falloff ) ||
		 def->falloff < 0.0f || !tbIsValidFloat( def->impulse ) || tbAbsFloat( def->impulse ) > TB_MAX_FORCE )
	{
		return -1;
	}
	float reach = def->radius + def->falloff;
	tbVec3 r = { reach, reach, reach };
	tbAABB box = { tbSub( def->position, r ), tbAdd( def->position, r ) };
	int count = 0;
	// Bodies in index order, so the result does not depend on the tree's layout.
	for ( int i = 0; i < world->bodies.count; ++i )
	{
		tbBody* body = world->bodies.data + i;
		if ( body->id < 0 || body->type != tbBody_dynamic || body->headShapeId < 0 )
		{
			continue;
		}
		bool inBox = false;
		bool onLayer = false;
		for ( int s = body->headShapeId; s >= 0; s = world->shapes.data[s].nextShapeId )
		{
			inBox = inBox || tbAABB_Overlaps( world->shapes.data[s].aabb, box );
			onLayer = onLayer || ( world->shapes.data[s].categoryBits & def->maskBits ) != 0;
		}
		if ( inBox == false || onLayer == false )
		{
			continue;
		}
		float distance = tbBodyDistance( world, body, def->position );
		float scale = distance <= def->radius ? 1.0f : ( def->falloff > 0.0f ? 1.0f - ( distance - def->radius ) / def->falloff : 0.0f );
		if ( scale <= 0.0f )
		{
			continue;
		}
		// Away from the centre through the centre of mass, so the impulse adds no spin; a body
		// centred on the explosion is thrown upwards (against gravity's usual direction).
		tbVec3 direction = tbSub( body->center, def->position );
		direction = tbLengthSquared( direction ) > 1.0e-12f ? tbNormalize( direction ) : tbMakeVec3( 0.0f, 0.0f, 1.0f );
		body->linearVelocity = tbMulAdd( body->linearVelocity, body->invMass * def->impulse * scale, direction );
		tbWakeBody( world, body );
		count += 1;
	}
	return count;
}
