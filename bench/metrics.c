// Tumble benchmark: stability metrics, computed once from poses so every engine is measured alike.
// SPDX-License-Identifier: MIT
#include "bench.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define TB_BENCH_RAD_TO_DEG ( 180.0f / TB_PI )

void tbBench_AddField( tbBenchFields* fields, const char* key, const char* format, ... )
{
	if ( fields->count >= TB_BENCH_MAX_FIELDS )
	{
		fprintf( stderr, "bench: too many fields, dropped %s\n", key );
		return;
	}
	tbBenchField* field = fields->items + fields->count;
	fields->count += 1;
	snprintf( field->key, sizeof( field->key ), "%s", key );
	va_list args;
	va_start( args, format );
	vsnprintf( field->value, sizeof( field->value ), format, args );
	va_end( args );
}

const char* tbBench_FindField( const tbBenchFields* fields, const char* key )
{
	for ( int i = 0; i < fields->count; ++i )
	{
		if ( strcmp( fields->items[i].key, key ) == 0 )
		{
			return fields->items[i].value;
		}
	}
	return NULL;
}

tbBenchTrackNeed tbBench_GetTrackNeed( const tbBenchScene* scene )
{
	if ( scene->metrics == tbBenchMetrics_tower && scene->topBody >= 0 )
	{
		return tbBenchTrack_topBody;
	}
	if ( scene->jointCount > 0 )
	{
		return tbBenchTrack_all;
	}
	return tbBenchTrack_none;
}

void tbBench_InitTracker( tbBenchTracker* tracker )
{
	tracker->fellAtStep = -1;
	tracker->runMaxJointError = 0.0f;
}

// World position of a joint's pivot as carried by one side (the fixed point for the world).
static tbVec3 tbBench_PivotWorld( int body, tbVec3 localPivot, const tbVec3* positions, const tbQuat* rotations )
{
	if ( body == TB_BENCH_WORLD )
	{
		return localPivot;
	}
	return tbAdd( positions[body], tbRotate( rotations[body], localPivot ) );
}

static tbVec3 tbBench_AxisWorld( int body, tbVec3 localAxis, const tbQuat* rotations )
{
	if ( body == TB_BENCH_WORLD )
	{
		return localAxis;
	}
	return tbRotate( rotations[body], localAxis );
}

// Angle between two unit vectors, rad; atan2 keeps small angles accurate where acos does not.
static float tbBench_Angle( tbVec3 a, tbVec3 b )
{
	return atan2f( tbLength( tbCross( a, b ) ), tbDot( a, b ) );
}

float tbBench_JointError( const tbBenchJoint* joint, const tbVec3* positions, const tbQuat* rotations )
{
	tbVec3 a = tbBench_PivotWorld( joint->bodyA, joint->pivotA, positions, rotations );
	tbVec3 b = tbBench_PivotWorld( joint->bodyB, joint->pivotB, positions, rotations );
	return tbDistance( a, b );
}

void tbBench_TrackStep( tbBenchTracker* tracker, const tbBenchScene* scene, int stepIndex, const tbVec3* positions,
						const tbQuat* rotations )
{
	if ( scene->metrics == tbBenchMetrics_tower && scene->topBody >= 0 )
	{
		if ( tracker->fellAtStep < 0 && positions[scene->topBody].z <= scene->standingZ )
		{
			tracker->fellAtStep = stepIndex + 1;
		}
	}
	for ( int i = 0; i < scene->jointCount; ++i )
	{
		float error = tbBench_JointError( scene->joints + i, positions, rotations );
		tracker->runMaxJointError = tbMaxFloat( tracker->runMaxJointError, error );
	}
}

// Lowest point of a body's surface along z, exact for the pose: the support point in -z.
static float tbBench_LowestZ( const tbBenchBody* body, tbVec3 position, tbQuat rotation )
{
	switch ( body->shape )
	{
		case tbBenchShape_box: {
			// z extent of an oriented box = sum over local axes of |z component of the axis| * half extent.
			tbVec3 ax = tbRotate( rotation, tbMakeVec3( 1.0f, 0.0f, 0.0f ) );
			tbVec3 ay = tbRotate( rotation, tbMakeVec3( 0.0f, 1.0f, 0.0f ) );
			tbVec3 az = tbRotate( rotation, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
			float extent = fabsf( ax.z ) * body->halfExtents.x + fabsf( ay.z ) * body->halfExtents.y +
						   fabsf( az.z ) * body->halfExtents.z;
			return position.z - extent;
		}
		case tbBenchShape_sphere:
			return position.z - body->radius;
		case tbBenchShape_capsule: {
			tbVec3 az = tbRotate( rotation, tbMakeVec3( 0.0f, 0.0f, 1.0f ) );
			return position.z - fabsf( az.z ) * body->halfLength - body->radius;
		}
		case tbBenchShape_none:
		default:
			return position.z;
	}
}

static void tbBench_AddTowerMetrics( tbBenchFields* fields, const tbBenchScene* scene, const tbBenchTracker* tracker,
									 const tbVec3* positions )
{
	float maxDisp = 0.0f;
	for ( int i = 0; i < scene->bodyCount; ++i )
	{
		maxDisp = tbMaxFloat( maxDisp, tbDistance( positions[i], scene->bodies[i].position ) );
	}
	tbVec3 top = positions[scene->topBody];
	tbVec3 start = scene->bodies[scene->topBody].position;
	float driftXY = sqrtf( ( top.x - start.x ) * ( top.x - start.x ) + ( top.y - start.y ) * ( top.y - start.y ) );
	tbBench_AddField( fields, "max_disp", "%.4f", maxDisp );
	tbBench_AddField( fields, "top_z", "%.4f", top.z );
	tbBench_AddField( fields, "standing", "%d", top.z > scene->standingZ ? 1 : 0 );
	tbBench_AddField( fields, "fell_at_step", "%d", tracker->fellAtStep );
	tbBench_AddField( fields, "top_drift_xy", "%.4f", driftXY );
	tbBench_AddField( fields, "top_drift_z", "%.4f", top.z - start.z );
}

static void tbBench_AddChainMetrics( tbBenchFields* fields, const tbBenchScene* scene, const tbBenchTracker* tracker,
									 const tbVec3* positions, const tbQuat* rotations )
{
	float maxError = 0.0f;
	double sumError = 0.0;
	float maxAxisError = 0.0f;
	for ( int i = 0; i < scene->jointCount; ++i )
	{
		const tbBenchJoint* joint = scene->joints + i;
		float error = tbBench_JointError( joint, positions, rotations );
		maxError = tbMaxFloat( maxError, error );
		sumError += error;
		tbVec3 axisA = tbBench_AxisWorld( joint->bodyA, joint->axisA, rotations );
		tbVec3 axisB = tbBench_AxisWorld( joint->bodyB, joint->axisB, rotations );
		maxAxisError = tbMaxFloat( maxAxisError, tbBench_Angle( axisA, axisB ) );
	}
	float minZ = INFINITY;
	for ( int i = 0; i < scene->bodyCount; ++i )
	{
		minZ = tbMinFloat( minZ, positions[i].z );
	}
	double meanError = scene->jointCount > 0 ? sumError / scene->jointCount : 0.0;
	tbBench_AddField( fields, "max_anchor_err", "%.5f", maxError );
	tbBench_AddField( fields, "mean_anchor_err", "%.5f", meanError );
	tbBench_AddField( fields, "run_max_anchor_err", "%.5f", tracker->runMaxJointError );
	tbBench_AddField( fields, "max_axis_err_deg", "%.3f", maxAxisError * TB_BENCH_RAD_TO_DEG );
	tbBench_AddField( fields, "min_z", "%.4f", minZ );
}

// Ground penetration, bodies below the ground and pile height, shared by rain and ragdolls.
typedef struct tbBenchPileStats
{
	float maxGroundPen;
	int belowGround;
	int escaped;
	float topZ;
} tbBenchPileStats;

static tbBenchPileStats tbBench_ComputePile( const tbBenchScene* scene, const tbVec3* positions,
											 const tbQuat* rotations )
{
	tbBenchPileStats stats = { -INFINITY, 0, 0, -INFINITY };
	for ( int i = 0; i < scene->bodyCount; ++i )
	{
		tbVec3 p = positions[i];
		stats.maxGroundPen = tbMaxFloat( stats.maxGroundPen, -tbBench_LowestZ( scene->bodies + i, p, rotations[i] ) );
		stats.belowGround += p.z < 0.0f ? 1 : 0;
		// The rain walls' inner faces are at x, y = +-5.
		stats.escaped += ( fabsf( p.x ) > 5.0f || fabsf( p.y ) > 5.0f || p.z < 0.0f ) ? 1 : 0;
		stats.topZ = tbMaxFloat( stats.topZ, p.z );
	}
	return stats;
}

static void tbBench_AddRainMetrics( tbBenchFields* fields, const tbBenchScene* scene, const tbVec3* positions,
									const tbQuat* rotations )
{
	tbBenchPileStats stats = tbBench_ComputePile( scene, positions, rotations );
	tbBench_AddField( fields, "max_ground_pen", "%.5f", stats.maxGroundPen );
	tbBench_AddField( fields, "escaped", "%d", stats.escaped );
	tbBench_AddField( fields, "pile_top_z", "%.4f", stats.topZ );
}

// Swing = angle between the two twist axes. Twist = swing-twist decomposition: rotate B's
// reference axis by the shortest rotation that takes B's twist axis onto A's (undoing the swing),
// then measure the signed angle from A's reference axis about A's twist axis.
static void tbBench_SwingTwist( const tbBenchJoint* joint, const tbQuat* rotations, float* swing, float* twist )
{
	tbVec3 axisA = tbBench_AxisWorld( joint->bodyA, joint->axisA, rotations );
	tbVec3 axisB = tbBench_AxisWorld( joint->bodyB, joint->axisB, rotations );
	tbVec3 refA = tbBench_AxisWorld( joint->bodyA, joint->refA, rotations );
	tbVec3 refB = tbBench_AxisWorld( joint->bodyB, joint->refB, rotations );
	*swing = tbBench_Angle( axisA, axisB );
	tbVec3 unswung = tbRotate( tbQuatFromTo( axisB, axisA ), refB );
	*twist = atan2f( tbDot( tbCross( refA, unswung ), axisA ), tbDot( refA, unswung ) );
}

static void tbBench_AddRagdollMetrics( tbBenchFields* fields, const tbBenchScene* scene, const tbBenchTracker* tracker,
									   const tbVec3* positions, const tbQuat* rotations )
{
	float maxError = 0.0f;
	double sumError = 0.0;
	float maxSwingExcess = -INFINITY;
	float maxTwistExcess = -INFINITY;
	for ( int i = 0; i < scene->jointCount; ++i )
	{
		const tbBenchJoint* joint = scene->joints + i;
		float error = tbBench_JointError( joint, positions, rotations );
		maxError = tbMaxFloat( maxError, error );
		sumError += error;
		float swing, twist;
		tbBench_SwingTwist( joint, rotations, &swing, &twist );
		maxSwingExcess = tbMaxFloat( maxSwingExcess, swing - joint->swingLimit );
		maxTwistExcess = tbMaxFloat( maxTwistExcess, fabsf( twist ) - joint->twistLimit );
	}
	double meanError = scene->jointCount > 0 ? sumError / scene->jointCount : 0.0;
	tbBenchPileStats stats = tbBench_ComputePile( scene, positions, rotations );
	tbBench_AddField( fields, "max_joint_err", "%.5f", maxError );
	tbBench_AddField( fields, "mean_joint_err", "%.5f", meanError );
	tbBench_AddField( fields, "run_max_joint_err", "%.5f", tracker->runMaxJointError );
	tbBench_AddField( fields, "max_swing_excess_deg", "%.2f", maxSwingExcess * TB_BENCH_RAD_TO_DEG );
	tbBench_AddField( fields, "max_twist_excess_deg", "%.2f", maxTwistExcess * TB_BENCH_RAD_TO_DEG );
	tbBench_AddField( fields, "max_ground_pen", "%.5f", stats.maxGroundPen );
	tbBench_AddField( fields, "below_ground", "%d", stats.belowGround );
	tbBench_AddField( fields, "pile_top_z", "%.4f", stats.topZ );
}

// pyramid1240: top_z of the highest cube (29.0 when resting ideally); max_disp is horizontal.
static void tbBench_AddPyramid3dMetrics( tbBenchFields* fields, const tbBenchScene* scene, const tbVec3* positions )
{
	float topZ = -INFINITY;
	float maxDisp = 0.0f;
	for ( int i = 0; i < scene->bodyCount; ++i )
	{
		tbVec3 d = tbSub( positions[i], scene->bodies[i].position );
		topZ = tbMaxFloat( topZ, positions[i].z );
		maxDisp = tbMaxFloat( maxDisp, sqrtf( d.x * d.x + d.y * d.y ) );
	}
	tbBench_AddField( fields, "top_z", "%.4f", topZ );
	tbBench_AddField( fields, "max_disp", "%.4f", maxDisp );
}

void tbBench_AddMetrics( tbBenchFields* fields, const tbBenchScene* scene, const tbBenchTracker* tracker,
						 const tbVec3* positions, const tbQuat* rotations )
{
	switch ( scene->metrics )
	{
		case tbBenchMetrics_tower:
			tbBench_AddTowerMetrics( fields, scene, tracker, positions );
			break;
		case tbBenchMetrics_chains:
			tbBench_AddChainMetrics( fields, scene, tracker, positions, rotations );
			break;
		case tbBenchMetrics_rain:
			tbBench_AddRainMetrics( fields, scene, positions, rotations );
			break;
		case tbBenchMetrics_ragdolls:
			tbBench_AddRagdollMetrics( fields, scene, tracker, positions, rotations );
			break;
		case tbBenchMetrics_pyramid3d:
			tbBench_AddPyramid3dMetrics( fields, scene, positions );
			break;
	}
}
