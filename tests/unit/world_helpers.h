// Shared scene builders for the world-level tests (header-only, static functions).
#pragma once

#include "tumble/tumble.h"

#include <math.h>

static inline tbWorldId th_makeWorld( tbSolverMode mode, bool sleep )
{
	tbWorldDef def = tbDefaultWorldDef();
	def.solverMode = mode;
	def.enableSleep = sleep;
	return tbCreateWorld( &def );
}

/// Static ground box whose top face is at z = 0.
static inline tbBodyId th_addGround( tbWorldId world, float friction )
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.position = tbMakeVec3( 0.0f, 0.0f, -1.0f );
	tbBodyId ground = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = friction;
	tbCreateBoxShape( ground, &sd, tbMakeVec3( 200.0f, 200.0f, 1.0f ), tb_transformIdentity, NULL );
	return ground;
}

/// Dynamic box of the given half extents and mass.
static inline tbBodyId th_addBox( tbWorldId world, tbVec3 pos, tbVec3 half, float mass, float friction )
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_dynamic;
	bd.position = pos;
	tbBodyId body = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = mass / ( 8.0f * half.x * half.y * half.z );
	sd.friction = friction;
	tbCreateBoxShape( body, &sd, half, tb_transformIdentity, NULL );
	return body;
}

static inline tbBodyId th_addSphere( tbWorldId world, tbVec3 pos, float radius, float mass )
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_dynamic;
	bd.position = pos;
	tbBodyId body = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.density = mass / ( 4.0f / 3.0f * TB_PI * radius * radius * radius );
	tbSphere s = { { 0.0f, 0.0f, 0.0f }, radius };
	tbCreateSphereShape( body, &sd, &s, NULL );
	return body;
}

// A capsule along its body's x axis, friction 0.6.
static inline tbBodyId th_addCapsuleX( tbWorldId world, tbVec3 pos, tbQuat q, float halfLength, float radius )
{
	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_dynamic;
	bd.position = pos;
	bd.rotation = q;
	tbBodyId body = tbCreateBody( world, &bd );
	tbShapeDef sd = tbDefaultShapeDef();
	sd.friction = 0.6f;
	tbCapsule c = { { -halfLength, 0.0f, 0.0f }, { halfLength, 0.0f, 0.0f }, radius };
	tbCreateCapsuleShape( body, &sd, &c, NULL );
	return body;
}

static inline void th_run( tbWorldId world, int steps )
{
	for ( int i = 0; i < steps; ++i )
	{
		tbWorld_Step( world, 1.0f / 60.0f );
	}
}

static inline float th_horizontal( tbVec3 a, tbVec3 b )
{
	return sqrtf( ( a.x - b.x ) * ( a.x - b.x ) + ( a.y - b.y ) * ( a.y - b.y ) );
}
