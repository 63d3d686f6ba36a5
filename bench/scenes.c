// Tumble benchmark: the scenes of SCENES.md, built once in an engine-neutral form.
// SPDX-License-Identifier: MIT
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The bench is a program, not the library: it allocates with malloc so that Tumble's own
// allocation counter only sees Tumble's allocations.
static void* tbBench_Grow( void* array, int* capacity, int count, size_t itemSize )
{
	if ( count < *capacity )
	{
		return array;
	}
	int newCapacity = *capacity < 16 ? 16 : 2 * *capacity;
	void* grown = realloc( array, (size_t)newCapacity * itemSize );
	if ( grown == NULL )
	{
		fprintf( stderr, "bench: out of memory\n" );
		exit( 1 );
	}
	*capacity = newCapacity;
	return grown;
}

static tbBenchBody* tbBench_AddBody( tbBenchScene* scene )
{
	scene->bodies = tbBench_Grow( scene->bodies, &scene->bodyCapacity, scene->bodyCount, sizeof( tbBenchBody ) );
	tbBenchBody* body = scene->bodies + scene->bodyCount;
	scene->bodyCount += 1;
	memset( body, 0, sizeof( *body ) );
	body->rotation = tb_quatIdentity;
	return body;
}

// Solid box of half extents (a, b, c): I_xx = m (b^2 + c^2) / 3, and so on (SCENES.md).
static void tbBench_AddBox( tbBenchScene* scene, tbVec3 halfExtents, float mass, tbVec3 position, tbQuat rotation )
{
	tbBenchBody* body = tbBench_AddBody( scene );
	float a2 = halfExtents.x * halfExtents.x;
	float b2 = halfExtents.y * halfExtents.y;
	float c2 = halfExtents.z * halfExtents.z;
	body->shape = tbBenchShape_box;
	body->halfExtents = halfExtents;
	body->mass = mass;
	body->inertia = tbMakeVec3( mass * ( b2 + c2 ) / 3.0f, mass * ( a2 + c2 ) / 3.0f, mass * ( a2 + b2 ) / 3.0f );
	body->position = position;
	body->rotation = rotation;
}

static void tbBench_AddSphere( tbBenchScene* scene, float radius, float mass, tbVec3 position )
{
	tbBenchBody* body = tbBench_AddBody( scene );
	float inertia = 0.4f * mass * radius * radius;
	body->shape = tbBenchShape_sphere;
	body->radius = radius;
	body->mass = mass;
	body->inertia = tbMakeVec3( inertia, inertia, inertia );
	body->position = position;
}

// Capsule = cylinder (length L = 2 half_len) + two hemispheres of one density. About the centre:
// cylinder I_zz = m_c r^2 / 2, I_xx = m_c (r^2/4 + L^2/12); the two caps together are a sphere
// about their own axis (2/5 m_h r^2), and about x each cap's centroid sits 3r/8 from its flat face,
// which with the parallel-axis theorem gives m_h (2r^2/5 + L^2/4 + 3Lr/8). Computed in double.
static void tbBench_AddCapsule( tbBenchScene* scene, float radius, float halfLength, float mass, tbVec3 position,
								tbQuat rotation )
{
	tbBenchBody* body = tbBench_AddBody( scene );
	double r = radius;
	double l = 2.0 * halfLength;
	double pi = 3.14159265358979323846;
	double rho = mass / ( pi * r * r * l + 4.0 / 3.0 * pi * r * r * r );
	double mc = rho * pi * r * r * l;
	double mh = rho * 4.0 / 3.0 * pi * r * r * r;
	double izz = mc * r * r / 2.0 + mh * 2.0 * r * r / 5.0;
	double ixx = mc * ( r * r / 4.0 + l * l / 12.0 ) + mh * ( 2.0 * r * r / 5.0 + l * l / 4.0 + 3.0 * l * r / 8.0 );
	body->shape = tbBenchShape_capsule;
	body->radius = radius;
	body->halfLength = halfLength;
	body->mass = mass;
	body->inertia = tbMakeVec3( (float)ixx, (float)ixx, (float)izz );
	body->position = position;
	body->rotation = rotation;
}

static void tbBench_AddStatic( tbBenchScene* scene, tbVec3 halfExtents, tbVec3 position )
{
	scene->statics =
		tbBench_Grow( scene->statics, &scene->staticCapacity, scene->staticCount, sizeof( tbBenchStatic ) );
	tbBenchStatic* box = scene->statics + scene->staticCount;
	scene->staticCount += 1;
	box->halfExtents = halfExtents;
	box->position = position;
}

static tbBenchJoint* tbBench_AddJoint( tbBenchScene* scene )
{
	scene->joints = tbBench_Grow( scene->joints, &scene->jointCapacity, scene->jointCount, sizeof( tbBenchJoint ) );
	tbBenchJoint* joint = scene->joints + scene->jointCount;
	scene->jointCount += 1;
	memset( joint, 0, sizeof( *joint ) );
	return joint;
}

// 1. pyramidN: rows of N, N-1, ... 1 unit cubes in the XZ plane, touching with zero gap.
static void tbBench_BuildPyramid( tbBenchScene* scene, int base )
{
	tbVec3 half = { 0.5f, 0.5f, 0.5f };
	for ( int row = 0; row < base; ++row )
	{
		int n = base - row;
		for ( int i = 0; i < n; ++i )
		{
			float x = (float)i - 0.5f * (float)( n - 1 );
			tbBench_AddBox( scene, half, 1.0f, tbMakeVec3( x, 0.0f, 0.5f + (float)row ), tb_quatIdentity );
		}
	}
	scene->hasGround = true;
	scene->friction = 0.5f;
	scene->metrics = tbBenchMetrics_tower;
	scene->topBody = scene->bodyCount - 1;
	scene->standingZ = (float)( base - 1 );
}

// 2. stackN: one column of unit cubes.
static void tbBench_BuildStack( tbBenchScene* scene, int height )
{
	tbVec3 half = { 0.5f, 0.5f, 0.5f };
	for ( int i = 0; i < height; ++i )
	{
		tbBench_AddBox( scene, half, 1.0f, tbMakeVec3( 0.0f, 0.0f, 0.5f + (float)i ), tb_quatIdentity );
	}
	scene->hasGround = true;
	scene->friction = 0.5f;
	scene->metrics = tbBenchMetrics_tower;
	scene->topBody = scene->bodyCount - 1;
	scene->standingZ = (float)( height - 1 );
}

// 3. chainsN: N horizontal hinge chains of 100 shapeless cubes, link 0 hinged to the world.
static void tbBench_BuildChains( tbBenchScene* scene, int chainCount )
{
	const int links = 100;
	const float half = 0.25f;
	const float z = 60.0f;
	float inertia = 1.0f / 24.0f;
	tbVec3 axis = { 0.0f, 1.0f, 0.0f };
	for ( int c = 0; c < chainCount; ++c )
	{
		float y = (float)( 2 * c - ( chainCount - 1 ) );
		for ( int k = 0; k < links; ++k )
		{
			tbBenchBody* body = tbBench_AddBody( scene );
			body->shape = tbBenchShape_none;
			body->halfExtents = tbMakeVec3( half, half, half );
			body->mass = 1.0f;
			body->inertia = tbMakeVec3( inertia, inertia, inertia );
			body->position = tbMakeVec3( half + 2.0f * half * (float)k, y, z );
		}
	}
	for ( int c = 0; c < chainCount; ++c )
	{
		float y = (float)( 2 * c - ( chainCount - 1 ) );
		for ( int k = 0; k < links; ++k )
		{
			tbBenchJoint* joint = tbBench_AddJoint( scene );
			joint->type = tbBenchJoint_hinge;
			joint->bodyB = links * c + k;
			joint->pivotB = tbMakeVec3( -half, 0.0f, 0.0f );
			joint->axisA = axis;
			joint->axisB = axis;
			if ( k == 0 )
			{
				joint->bodyA = TB_BENCH_WORLD;
				joint->pivotA = tbMakeVec3( 0.0f, y, z );
			}
			else
			{
				joint->bodyA = links * c + k - 1;
				joint->pivotA = tbMakeVec3( half, 0.0f, 0.0f );
			}
		}
	}
	scene->hasGround = false;
	scene->friction = 0.5f;
	scene->metrics = tbBenchMetrics_chains;
}

// 4. rain: 10 layers of 10 x 10 cubes and spheres (checkerboard) dropped into a walled 10 x 10 m
// area.
static void tbBench_BuildRain( tbBenchScene* scene, int param )
{
	(void)param;
	// Rotation axis (1, 2, 3) / sqrt(14) of the cubes.
	double norm = sqrt( 14.0 );
	tbVec3 axis = { (float)( 1.0 / norm ), (float)( 2.0 / norm ), (float)( 3.0 / norm ) };
	for ( int i = 0; i < 1000; ++i )
	{
		int layer = i / 100;
		int j = i % 100;
		int gx = j % 10;
		int gy = j / 10;
		double shift = 0.2 * ( ( layer % 3 ) - 1 );
		double x = 0.9 * ( gx - 4.5 ) + shift;
		double y = 0.9 * ( gy - 4.5 ) + shift;
		double z = 5.0 + layer * 50.0 / 9.0;
		tbVec3 position = { (float)x, (float)y, (float)z };
		if ( ( gx + gy + layer ) % 2 == 0 )
		{
			double angle = 0.5 * i;
			double s = sin( 0.5 * angle );
			tbQuat q = { (float)( s * axis.x ), (float)( s * axis.y ), (float)( s * axis.z ),
						 (float)cos( 0.5 * angle ) };
			tbBench_AddBox( scene, tbMakeVec3( 0.25f, 0.25f, 0.25f ), 1.0f, position, tbNormalizeQ( q ) );
		}
		else
		{
			tbBench_AddSphere( scene, 0.25f, 1.0f, position );
		}
	}
	tbBench_AddStatic( scene, tbMakeVec3( 0.5f, 6.0f, 2.0f ), tbMakeVec3( 5.5f, 0.0f, 2.0f ) );
	tbBench_AddStatic( scene, tbMakeVec3( 0.5f, 6.0f, 2.0f ), tbMakeVec3( -5.5f, 0.0f, 2.0f ) );
	tbBench_AddStatic( scene, tbMakeVec3( 6.0f, 0.5f, 2.0f ), tbMakeVec3( 0.0f, 5.5f, 2.0f ) );
	tbBench_AddStatic( scene, tbMakeVec3( 6.0f, 0.5f, 2.0f ), tbMakeVec3( 0.0f, -5.5f, 2.0f ) );
	scene->hasGround = true;
	scene->friction = 0.5f;
	scene->metrics = tbBenchMetrics_rain;
}

// 5. ragdolls: 100 ragdolls of 11 capsules in 4 layers of 5 x 5.
typedef struct tbBenchRagdollPart
{
	float radius, halfLength, mass;
	float x, y, z;
} tbBenchRagdollPart;

typedef struct tbBenchRagdollJoint
{
	int parent, child;
	float x, y, z;
	float swing, twist;
} tbBenchRagdollJoint;

static const tbBenchRagdollPart tb_ragdollParts[11] = {
	{ 0.13f, 0.05f, 12.0f, 0.0f, 0.0f, 1.00f },	 // pelvis
	{ 0.15f, 0.12f, 20.0f, 0.0f, 0.0f, 1.40f },	 // torso
	{ 0.11f, 0.03f, 5.0f, 0.0f, 0.0f, 1.83f },	 // head
	{ 0.07f, 0.16f, 8.0f, 0.0f, 0.10f, 0.70f },	 // upper leg L
	{ 0.06f, 0.17f, 4.0f, 0.0f, 0.10f, 0.25f },	 // lower leg L
	{ 0.07f, 0.16f, 8.0f, 0.0f, -0.10f, 0.70f }, // upper leg R
	{ 0.06f, 0.17f, 4.0f, 0.0f, -0.10f, 0.25f }, // lower leg R
	{ 0.05f, 0.12f, 2.5f, 0.0f, 0.24f, 1.42f },	 // upper arm L
	{ 0.04f, 0.11f, 1.5f, 0.0f, 0.24f, 1.10f },	 // lower arm L
	{ 0.05f, 0.12f, 2.5f, 0.0f, -0.24f, 1.42f }, // upper arm R
	{ 0.04f, 0.11f, 1.5f, 0.0f, -0.24f, 1.10f }, // lower arm R
};

static const tbBenchRagdollJoint tb_ragdollJoints[10] = {
	{ 0, 1, 0.0f, 0.0f, 1.16f, 0.5f, 0.3f },	// waist
	{ 1, 2, 0.0f, 0.0f, 1.66f, 0.6f, 0.6f },	// neck
	{ 0, 3, 0.0f, 0.10f, 0.90f, 0.8f, 0.3f },	// hip L
	{ 3, 4, 0.0f, 0.10f, 0.475f, 0.6f, 0.1f },	// knee L
	{ 0, 5, 0.0f, -0.10f, 0.90f, 0.8f, 0.3f },	// hip R
	{ 5, 6, 0.0f, -0.10f, 0.475f, 0.6f, 0.1f }, // knee R
	{ 1, 7, 0.0f, 0.24f, 1.58f, 1.2f, 0.5f },	// shoulder L
	{ 7, 8, 0.0f, 0.24f, 1.26f, 1.0f, 0.1f },	// elbow L
	{ 1, 9, 0.0f, -0.24f, 1.58f, 1.2f, 0.5f },	// shoulder R
	{ 9, 10, 0.0f, -0.24f, 1.26f, 1.0f, 0.1f }, // elbow R
};

static void tbBench_BuildRagdolls( tbBenchScene* scene, int count )
{
	tbVec3 unitX = { 1.0f, 0.0f, 0.0f };
	tbVec3 unitZ = { 0.0f, 0.0f, 1.0f };
	for ( int k = 0; k < count; ++k )
	{
		int layer = k / 25;
		int j = k % 25;
		int gx = j % 5;
		int gy = j / 5;
		float off = 0.5f * (float)( layer % 2 );
		double yaw = 0.7 * k;
		tbQuat q = { 0.0f, 0.0f, (float)sin( 0.5 * yaw ), (float)cos( 0.5 * yaw ) };
		tbVec3 origin = { (float)( gx - 2 ) + off, (float)( gy - 2 ) + off, 0.05f + 2.2f * (float)layer };
		for ( int p = 0; p < 11; ++p )
		{
			const tbBenchRagdollPart* part = tb_ragdollParts + p;
			tbVec3 local = { part->x, part->y, part->z };
			tbBench_AddCapsule( scene, part->radius, part->halfLength, part->mass,
								tbAdd( origin, tbRotate( q, local ) ), q );
		}
	}
	for ( int k = 0; k < count; ++k )
	{
		for ( int i = 0; i < 10; ++i )
		{
			const tbBenchRagdollJoint* def = tb_ragdollJoints + i;
			const tbBenchRagdollPart* parent = tb_ragdollParts + def->parent;
			const tbBenchRagdollPart* child = tb_ragdollParts + def->child;
			tbVec3 pivot = { def->x, def->y, def->z };
			tbBenchJoint* joint = tbBench_AddJoint( scene );
			joint->type = tbBenchJoint_coneTwist;
			joint->bodyA = 11 * k + def->parent;
			joint->bodyB = 11 * k + def->child;
			// Parts share the ragdoll frame's orientation, so ragdoll-frame offsets are local offsets.
			joint->pivotA = tbSub( pivot, tbMakeVec3( parent->x, parent->y, parent->z ) );
			joint->pivotB = tbSub( pivot, tbMakeVec3( child->x, child->y, child->z ) );
			joint->axisA = unitZ;
			joint->axisB = unitZ;
			joint->refA = unitX;
			joint->refB = unitX;
			joint->swingLimit = def->swing;
			joint->twistLimit = def->twist;
		}
	}
	scene->hasGround = true;
	scene->friction = 0.5f;
	scene->metrics = tbBenchMetrics_ragdolls;
}

// 6. pyramid1240: the Jolt Physics performance scene, Z up: 15 layers of 2 m cubes, 0.5 m apart.
static void tbBench_BuildPyramid3d( tbBenchScene* scene, int param )
{
	(void)param;
	const int size = 15;
	const float half = 1.0f;
	float mass = 1000.0f * 8.0f * half * half * half;
	for ( int i = 0; i < size; ++i )
	{
		float odd = ( i % 2 == 1 ) ? 1.0f : 0.0f;
		for ( int j = i / 2; j < size - ( i + 1 ) / 2; ++j )
		{
			for ( int k = i / 2; k < size - ( i + 1 ) / 2; ++k )
			{
				tbVec3 position = { -15.0f + 2.0f * (float)j + odd, -15.0f + 2.0f * (float)k + odd,
									1.0f + 2.5f * (float)i };
				tbBench_AddBox( scene, tbMakeVec3( half, half, half ), mass, position, tb_quatIdentity );
			}
		}
	}
	scene->hasGround = true;
	scene->friction = 0.2f;
	scene->metrics = tbBenchMetrics_pyramid3d;
}

// Adding a scene is one row here.
static const tbBenchSceneEntry tb_sceneTable[] = {
	{ "pyramid20", tbBench_BuildPyramid, 20, 600 },
	{ "stack20", tbBench_BuildStack, 20, 1200 },
	{ "chains", tbBench_BuildChains, 20, 600 },
	{ "chains10", tbBench_BuildChains, 10, 600 },
	{ "rain", tbBench_BuildRain, 0, 900 },
	{ "ragdolls", tbBench_BuildRagdolls, 100, 600 },
	{ "pyramid1240", tbBench_BuildPyramid3d, 0, 500 },
};

// Families for scaling experiments: name prefix + size (pyramid7, stack50, chains4).
static const tbBenchSceneEntry tb_sceneFamilies[] = {
	{ "pyramid", tbBench_BuildPyramid, 0, 600 },
	{ "stack", tbBench_BuildStack, 0, 1200 },
	{ "chains", tbBench_BuildChains, 0, 600 },
};

const tbBenchSceneEntry* tbBench_GetSceneTable( int* count )
{
	*count = (int)( sizeof( tb_sceneTable ) / sizeof( tb_sceneTable[0] ) );
	return tb_sceneTable;
}

static bool tbBench_ParseSize( const char* text, int* size )
{
	if ( *text == '\0' )
	{
		return false;
	}
	long value = 0;
	for ( const char* c = text; *c != '\0'; ++c )
	{
		if ( *c < '0' || *c > '9' || value > 100000 )
		{
			return false;
		}
		value = 10 * value + ( *c - '0' );
	}
	*size = (int)value;
	return value > 0;
}

bool tbBench_BuildScene( tbBenchScene* scene, const char* name )
{
	const tbBenchSceneEntry* entry = NULL;
	int param = 0;
	int tableCount = (int)( sizeof( tb_sceneTable ) / sizeof( tb_sceneTable[0] ) );
	for ( int i = 0; i < tableCount && entry == NULL; ++i )
	{
		if ( strcmp( tb_sceneTable[i].name, name ) == 0 )
		{
			entry = tb_sceneTable + i;
			param = entry->param;
		}
	}
	int familyCount = (int)( sizeof( tb_sceneFamilies ) / sizeof( tb_sceneFamilies[0] ) );
	for ( int i = 0; i < familyCount && entry == NULL; ++i )
	{
		size_t length = strlen( tb_sceneFamilies[i].name );
		if ( strncmp( tb_sceneFamilies[i].name, name, length ) == 0 && tbBench_ParseSize( name + length, &param ) )
		{
			entry = tb_sceneFamilies + i;
		}
	}
	if ( entry == NULL || strlen( name ) >= sizeof( scene->name ) )
	{
		return false;
	}
	memset( scene, 0, sizeof( *scene ) );
	snprintf( scene->name, sizeof( scene->name ), "%s", name );
	scene->steps = entry->steps;
	scene->topBody = -1;
	entry->build( scene, param );
	return true;
}

void tbBench_DestroyScene( tbBenchScene* scene )
{
	free( scene->bodies );
	free( scene->statics );
	free( scene->joints );
	memset( scene, 0, sizeof( *scene ) );
}

bool tbBench_SceneHasCollision( const tbBenchScene* scene )
{
	for ( int i = 0; i < scene->bodyCount; ++i )
	{
		if ( scene->bodies[i].shape != tbBenchShape_none )
		{
			return true;
		}
	}
	return false;
}
