// Tumble physics: movers.
//
// 000 ch. 23: "the simplest way [to get a reliable moving platform] is to directly set the
// velocity of an object with infinite mass", and designers will want "to lay down a spline and
// add custom commands". A mover is a kinematic body whose velocity is set at the start of every
// step so that integrating it over the step lands it exactly where its script wants it:
//     v = (x(t + dt) - x(t)) / dt,   w = rotation vector of q(t + dt) conj(q(t)) / dt.
// Using the body's actual pose for x(t) removes any drift from rotation integration. The contact
// solver then carries bodies resting on it by friction, and its infinite mass means nothing
// pushes it. Path speed changes are limited by the path's acceleration so riders do not slip
// (friction can supply at most mu g).
//
// Movers are kept per world in a table indexed by the world slot (the world struct has no field
// for them); tbDestroyAllJoints frees them at world teardown.
// SPDX-License-Identifier: MIT
#include "mover.h"

#include "body.h"
#include "core.h"
#include "world.h"
#include "tumble/tumble.h"

#include <float.h>
#include <string.h>

// Arc-length samples per path segment.
#define TB_PATH_SAMPLES 32
// A stop closer than this is reached, m.
#define TB_PATH_EPSILON 1.0e-5f

typedef struct tbMover
{
	int id; ///< own index, -1 when free
	int nextFree;
	uint16_t generation;
	int bodyIndex;
	uint16_t bodyGeneration;
	tbMoverMode mode;
	bool paused;
	bool finished;

	// Velocity mode: velocity of the body origin, rad/s.
	tbVec3 linearVelocity;
	tbVec3 angularVelocity;

	// Path mode.
	tbVec3* points;
	float* waits;
	float* arc;       ///< cumulative arc length at each sample, segmentCount * TB_PATH_SAMPLES + 1
	int pointCount;
	int segmentCount;
	tbPathInterpolation interpolation;
	tbPathEnd end;
	float speed, acceleration;
	float length;     ///< one pass
	float s;          ///< arc position on the pass
	float direction;  ///< +1 or -1 (ping-pong)
	float currentSpeed;
	float waitTimer;
	int nextStop;     ///< index of the next point in the travel direction
	float travelled;
	int laps;
	bool approaching; ///< straight leg from the start pose to the first point
	tbQuat holdRotation;

	// Target mode.
	tbVec3 startPosition, targetPosition;
	tbQuat startRotation, targetRotation;
	float duration, time;
} tbMover;

typedef struct tbMoverSet
{
	tbMover* data;
	int count;
	int capacity;
	int freeList;
	uint16_t worldGeneration;
	bool used;
} tbMoverSet;

static tbMoverSet s_moverSets[TB_MAX_WORLDS];

static void tbFreeMoverPath( tbMover* mover )
{
	tbFree( mover->points, sizeof( tbVec3 ) * (size_t)mover->pointCount );
	tbFree( mover->waits, sizeof( float ) * (size_t)mover->pointCount );
	tbFree( mover->arc, sizeof( float ) * (size_t)( mover->segmentCount * TB_PATH_SAMPLES + 1 ) );
	mover->points = NULL;
	mover->waits = NULL;
	mover->arc = NULL;
	mover->pointCount = 0;
	mover->segmentCount = 0;
	mover->length = 0.0f;
}

void tbDestroyMovers( tbWorld* world )
{
	tbMoverSet* set = s_moverSets + world->worldId;
	for ( int i = 0; i < set->count; ++i )
	{
		if ( set->data[i].id >= 0 )
		{
			tbFreeMoverPath( set->data + i );
		}
	}
	tbFree( set->data, sizeof( tbMover ) * (size_t)set->capacity );
	memset( set, 0, sizeof( *set ) );
}

// The world's movers, or NULL when it has none (a set left by an older world in the slot is
// ignored: worlds are destroyed through tbDestroyAllJoints, which clears it).
static tbMoverSet* tbGetMoverSet( tbWorld* world )
{
	tbMoverSet* set = s_moverSets + world->worldId;
	if ( set->used == false || set->worldGeneration != world->generation )
	{
		return NULL;
	}
	return set;
}

static void tbFreeMover( tbMoverSet* set, tbMover* mover )
{
	tbFreeMoverPath( mover );
	int index = mover->id;
	mover->id = -1;
	mover->generation += 1;
	mover->nextFree = set->freeList;
	set->freeList = index;
}

static tbBody* tbGetMoverBody( tbWorld* world, const tbMover* mover )
{
	if ( mover->bodyIndex < 0 || mover->bodyIndex >= world->bodies.count )
	{
		return NULL;
	}
	tbBody* body = world->bodies.data + mover->bodyIndex;
	if ( body->id != mover->bodyIndex || body->generation != mover->bodyGeneration )
	{
		return NULL;
	}
	return body;
}

// Paths -------------------------------------------------------------------------------------------

static tbVec3 tbPathPoint( const tbMover* mover, int i )
{
	int n = mover->pointCount;
	if ( mover->end == tbPath_loop )
	{
		return mover->points[( ( i % n ) + n ) % n];
	}
	// Open path: reflect the end points so the spline leaves and arrives along the end segments.
	if ( i < 0 )
	{
		return tbSub( tbMulSV( 2.0f, mover->points[0] ), mover->points[1] );
	}
	if ( i >= n )
	{
		return tbSub( tbMulSV( 2.0f, mover->points[n - 1] ), mover->points[n - 2] );
	}
	return mover->points[i];
}

// Position on segment i (from point i to point i + 1) at parameter t in [0, 1].
static tbVec3 tbEvaluateSegment( const tbMover* mover, int i, float t )
{
	tbVec3 p1 = tbPathPoint( mover, i );
	tbVec3 p2 = tbPathPoint( mover, i + 1 );
	if ( mover->interpolation == tbPath_linear )
	{
		return tbLerp( p1, p2, t );
	}
	// Uniform Catmull-Rom: the cubic through p1, p2 with tangents (p2 - p0) / 2 and (p3 - p1) / 2.
	tbVec3 p0 = tbPathPoint( mover, i - 1 );
	tbVec3 p3 = tbPathPoint( mover, i + 2 );
	float t2 = t * t;
	float t3 = t2 * t;
	tbVec3 a = tbMulSV( 2.0f, p1 );
	tbVec3 b = tbSub( p2, p0 );
	tbVec3 c = tbAdd( tbSub( tbMulSV( 2.0f, p0 ), tbMulSV( 5.0f, p1 ) ), tbSub( tbMulSV( 4.0f, p2 ), p3 ) );
	tbVec3 d = tbAdd( tbSub( tbMulSV( 3.0f, p1 ), p0 ), tbSub( p3, tbMulSV( 3.0f, p2 ) ) );
	tbVec3 r = tbAdd( tbAdd( a, tbMulSV( t, b ) ), tbAdd( tbMulSV( t2, c ), tbMulSV( t3, d ) ) );
	return tbMulSV( 0.5f, r );
}

static void tbBuildArcTable( tbMover* mover )
{
	int samples = mover->segmentCount * TB_PATH_SAMPLES;
	mover->arc[0] = 0.0f;
	tbVec3 prev = tbEvaluateSegment( mover, 0, 0.0f );
	for ( int k = 1; k <= samples; ++k )
	{
		int seg = ( k - 1 ) / TB_PATH_SAMPLES;
		float t = (float)( k - seg * TB_PATH_SAMPLES ) / (float)TB_PATH_SAMPLES;
		tbVec3 p = tbEvaluateSegment( mover, seg, t );
		mover->arc[k] = mover->arc[k - 1] + tbDistance( prev, p );
		prev = p;
	}
	mover->length = mover->arc[samples];
}

// Arc length at path point i (points are at segment boundaries).
static float tbPointArc( const tbMover* mover, int i )
{
	return mover->arc[i * TB_PATH_SAMPLES];
}

// Position at arc length s on the pass.
static tbVec3 tbPathPosition( const tbMover* mover, float s )
{
	int samples = mover->segmentCount * TB_PATH_SAMPLES;
	s = tbClampFloat( s, 0.0f, mover->length );
	int lo = 0, hi = samples;
	while ( hi - lo > 1 )
	{
		int mid = ( lo + hi ) / 2;
		if ( mover->arc[mid] <= s )
		{
			lo = mid;
		}
		else
		{
			hi = mid;
		}
	}
	float span = mover->arc[hi] - mover->arc[lo];
	float f = span > 0.0f ? ( s - mover->arc[lo] ) / span : 0.0f;
	int seg = tbMinInt( lo / TB_PATH_SAMPLES, mover->segmentCount - 1 );
	float t = ( (float)( lo - seg * TB_PATH_SAMPLES ) + f ) / (float)TB_PATH_SAMPLES;
	return tbEvaluateSegment( mover, seg, t );
}

static float tbWaitAt( const tbMover* mover, int i )
{
	return mover->waits != NULL ? mover->waits[i % mover->pointCount] : 0.0f;
}

// Distance to the next point where the mover must stand still (a wait, or an end of the path),
// and that point's index; FLT_MAX when it runs on forever.
static float tbDistanceToStop( const tbMover* mover, int* stopIndex )
{
	int n = mover->pointCount;
	if ( mover->direction > 0.0f )
	{
		int last = mover->end == tbPath_loop ? n : n - 1;
		for ( int i = mover->nextStop; i <= last; ++i )
		{
			bool isEnd = i == last && mover->end != tbPath_loop;
			if ( isEnd || tbWaitAt( mover, i ) > 0.0f )
			{
				*stopIndex = i;
				return tbMaxFloat( tbPointArc( mover, i ) - mover->s, 0.0f );
			}
		}
		if ( mover->end == tbPath_loop )
		{
			// Look past the seam once.
			for ( int i = 1; i <= n; ++i )
			{
				if ( tbWaitAt( mover, i ) > 0.0f )
				{
					*stopIndex = i + n;
					return mover->length - mover->s + tbPointArc( mover, i );
				}
			}
		}
		*stopIndex = -1;
		return FLT_MAX;
	}
	for ( int i = mover->nextStop; i >= 0; --i )
	{
		if ( i == 0 || tbWaitAt( mover, i ) > 0.0f )
		{
			*stopIndex = i;
			return tbMaxFloat( mover->s - tbPointArc( mover, i ), 0.0f );
		}
	}
	*stopIndex = 0;
	return mover->s;
}

// Speed for the next step: accelerate towards the cruise speed at most a dt per step, and never
// faster than allows stopping at the next stop. Travelling v' dt this step and braking at a after
// it needs v'^2 / (2 a) <= d - v' dt, so v' <= sqrt((a dt)^2 + 2 a d) - a dt.
static float tbNextSpeed( const tbMover* mover, float distance, float dt )
{
	float a = mover->acceleration;
	float target = mover->paused ? 0.0f : mover->speed;
	if ( a >= FLT_MAX )
	{
		return distance < FLT_MAX ? tbMinFloat( target, distance / dt ) : target;
	}
	if ( distance < FLT_MAX )
	{
		float adt = a * dt;
		target = tbMinFloat( target, sqrtf( adt * adt + 2.0f * a * distance ) - adt );
		target = tbMinFloat( target, distance / dt );
	}
	float v = mover->currentSpeed;
	if ( target > v )
	{
		return tbMinFloat( v + a * dt, target );
	}
	if ( mover->paused )
	{
		return tbMaxFloat( v - a * dt, target );
	}
	return target;
}

// Advance along the path by one step; returns the position of the body origin at the end.
static tbVec3 tbAdvancePath( tbMover* mover, tbVec3 current, float dt )
{
	if ( mover->approaching )
	{
		tbVec3 goal = mover->points[0];
		float remaining = tbDistance( current, goal );
		float v = tbNextSpeed( mover, remaining, dt );
		mover->currentSpeed = v;
		float step = v * dt;
		if ( step >= remaining - TB_PATH_EPSILON )
		{
			mover->approaching = false;
			mover->currentSpeed = 0.0f;
			mover->waitTimer = tbWaitAt( mover, 0 );
			return goal;
		}
		return tbMulAdd( current, step / remaining, tbSub( goal, current ) );
	}

	if ( mover->waitTimer > 0.0f )
	{
		if ( mover->paused == false )
		{
			mover->waitTimer -= dt;
		}
		return tbPathPosition( mover, mover->s );
	}

	int stopIndex;
	float distance = tbDistanceToStop( mover, &stopIndex );
	float v = tbNextSpeed( mover, distance, dt );
	mover->currentSpeed = v;
	float step = v * dt;
	if ( step <= 0.0f )
	{
		return tbPathPosition( mover, mover->s );
	}
	mover->travelled += step;

	if ( distance < FLT_MAX && step >= distance - TB_PATH_EPSILON )
	{
		// Arrive at the stop exactly.
		int n = mover->pointCount;
		float s = mover->direction > 0.0f ? mover->s + distance : mover->s - distance;
		mover->currentSpeed = 0.0f;
		int index = stopIndex % n;
		mover->waitTimer = tbWaitAt( mover, index );
		bool atEnd = ( mover->direction > 0.0f && stopIndex == n - 1 && mover->end != tbPath_loop ) ||
					 ( mover->direction < 0.0f && stopIndex == 0 );
		if ( mover->end == tbPath_loop && s >= mover->length )
		{
			s -= mover->length;
			mover->laps += 1;
		}
		mover->s = s;
		if ( atEnd )
		{
			if ( mover->end == tbPath_once )
			{
				mover->finished = true;
				return tbPathPosition( mover, mover->s );
			}
			// Ping-pong: turn around.
			mover->direction = -mover->direction;
			mover->laps += 1;
		}
		mover->nextStop = mover->direction > 0.0f ? index + 1 : index - 1;
		if ( mover->end == tbPath_loop && mover->nextStop > n )
		{
			mover->nextStop -= n;
		}
		return tbPathPosition( mover, mover->s );
	}

	float s = mover->s + mover->direction * step;
	if ( mover->end == tbPath_loop && s >= mover->length )
	{
		s -= mover->length;
		mover->laps += 1;
		mover->nextStop = 1;
	}
	mover->s = s;
	// Points passed without stopping.
	if ( mover->direction > 0.0f )
	{
		while ( mover->nextStop < mover->pointCount && tbPointArc( mover, mover->nextStop ) <= mover->s )
		{
			mover->nextStop += 1;
		}
	}
	else
	{
		while ( mover->nextStop > 0 && tbPointArc( mover, mover->nextStop ) >= mover->s )
		{
			mover->nextStop -= 1;
		}
	}
	return tbPathPosition( mover, mover->s );
}

// Step -------------------------------------------------------------------------------------------

static float tbSmoothStep( float u )
{
	u = tbClampFloat( u, 0.0f, 1.0f );
	return u * u * ( 3.0f - 2.0f * u );
}

static tbQuat tbSlerp( tbQuat a, tbQuat b, float t )
{
	float cosTheta = tbDotQ( a, b );
	if ( cosTheta < 0.0f )
	{
		b.x = -b.x;
		b.y = -b.y;
		b.z = -b.z;
		b.w = -b.w;
		cosTheta = -cosTheta;
	}
	float wa, wb;
	if ( cosTheta > 0.9995f )
	{
		wa = 1.0f - t;
		wb = t;
	}
	else
	{
		float theta = acosf( cosTheta );
		float s = sinf( theta );
		wa = sinf( ( 1.0f - t ) * theta ) / s;
		wb = sinf( t * theta ) / s;
	}
	tbQuat q = { wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w };
	return tbNormalizeQ( q );
}

// Angular velocity that turns q into target over dt.
static tbVec3 tbAngularVelocityTo( tbQuat q, tbQuat target, float dt )
{
	tbQuat d = tbMulQQ( target, tbConjugate( q ) );
	if ( d.w < 0.0f )
	{
		d.x = -d.x;
		d.y = -d.y;
		d.z = -d.z;
		d.w = -d.w;
	}
	tbVec3 v = { d.x, d.y, d.z };
	float s = tbLength( v );
	if ( s < 1.0e-9f )
	{
		return tbMulSV( 2.0f / dt, v );
	}
	return tbMulSV( 2.0f * atan2f( s, d.w ) / ( s * dt ), v );
}

// Set the body's velocities so that in dt its origin moves to position and it turns to rotation.
static void tbDriveBody( tbWorld* world, tbBody* body, tbVec3 position, tbQuat rotation, float dt )
{
	tbVec3 w = tbAngularVelocityTo( body->transform.q, rotation, dt );
	tbVec3 vOrigin = tbMulSV( 1.0f / dt, tbSub( position, body->transform.p ) );
	// The solver integrates the centre of mass, which goes from o0 + R0 c to o1 + R1 c
	// (c = local centre): v_c = v_o + (R1 c - R0 c) / dt.
	tbVec3 turn = tbSub( tbRotate( rotation, body->localCenter ), tbRotate( body->transform.q, body->localCenter ) );
	tbVec3 vCenter = tbMulAdd( vOrigin, 1.0f / dt, turn );
	body->linearVelocity = vCenter;
	body->angularVelocity = w;
	if ( body->awake == false && ( tbLengthSquared( vCenter ) > 0.0f || tbLengthSquared( w ) > 0.0f ) )
	{
		tbWakeBody( world, body );
	}
}

static void tbUpdateMover( tbWorld* world, tbMover* mover, tbBody* body, float dt )
{
	switch ( mover->mode )
	{
		case tbMover_velocity:
		{
			tbVec3 position = tbMulAdd( body->transform.p, dt, mover->linearVelocity );
			tbQuat rotation = tbIntegrateRotation( body->transform.q, mover->angularVelocity, dt );
			if ( mover->paused )
			{
				position = body->transform.p;
				rotation = body->transform.q;
			}
			tbDriveBody( world, body, position, rotation, dt );
			// Keep the requested angular velocity exactly (the quaternion round trip is approximate).
			if ( mover->paused == false )
			{
				body->angularVelocity = mover->angularVelocity;
			}
			break;
		}
		case tbMover_path:
		{
			if ( mover->finished )
			{
				tbDriveBody( world, body, body->transform.p, mover->holdRotation, dt );
				break;
			}
			tbVec3 position = tbAdvancePath( mover, body->transform.p, dt );
			tbDriveBody( world, body, position, mover->holdRotation, dt );
			break;
		}
		case tbMover_target:
		{
			if ( mover->paused == false && mover->finished == false )
			{
				mover->time += dt;
			}
			// Finished within half a step of the duration (the sum of float steps is inexact).
			if ( mover->time + 0.5f * dt >= mover->duration )
			{
				mover->finished = true;
			}
			float u = mover->finished ? 1.0f : tbSmoothStep( mover->time / mover->duration );
			tbVec3 position = tbLerp( mover->startPosition, mover->targetPosition, u );
			tbQuat rotation = tbSlerp( mover->startRotation, mover->targetRotation, u );
			tbDriveBody( world, body, position, rotation, dt );
			break;
		}
		default:
			body->linearVelocity = tb_vec3_zero;
			body->angularVelocity = tb_vec3_zero;
			break;
	}
}

void tbUpdateMovers( tbWorld* world, float dt )
{
	tbMoverSet* set = tbGetMoverSet( world );
	if ( set == NULL || dt <= 0.0f )
	{
		return;
	}
	for ( int i = 0; i < set->count; ++i )
	{
		tbMover* mover = set->data + i;
		if ( mover->id < 0 )
		{
			continue;
		}
		tbBody* body = tbGetMoverBody( world, mover );
		if ( body == NULL )
		{
			// The body was destroyed: its mover goes with it.
			tbFreeMover( set, mover );
			continue;
		}
		if ( body->type != tbBody_kinematic )
		{
			continue;
		}
		tbUpdateMover( world, mover, body, dt );
	}
}

// API --------------------------------------------------------------------------------------------

static tbMoverId tbMakeMoverId( const tbWorld* world, const tbMover* mover )
{
	tbMoverId id = { mover->id + 1, world->worldTag, mover->generation };
	return id;
}

static tbMover* tbGetMover( tbMoverId id, tbWorld** worldOut )
{
	tbWorld* world = tbGetWorldFromTag( id.world0 );
	if ( worldOut != NULL )
	{
		*worldOut = world;
	}
	if ( world == NULL )
	{
		return NULL;
	}
	tbMoverSet* set = tbGetMoverSet( world );
	if ( set == NULL || id.index1 < 1 || id.index1 > set->count )
	{
		return NULL;
	}
	tbMover* mover = set->data + ( id.index1 - 1 );
	if ( mover->id < 0 || mover->generation != id.generation || tbGetMoverBody( world, mover ) == NULL )
	{
		return NULL;
	}
	return mover;
}

static tbResult tbGetMutableMover( tbMoverId id, tbWorld** worldOut, tbMover** moverOut )
{
	tbWorld* world;
	tbMover* mover = tbGetMover( id, &world );
	*moverOut = mover;
	if ( worldOut != NULL )
	{
		*worldOut = world;
	}
	if ( mover == NULL )
	{
		return tbResult_invalidId;
	}
	if ( world->locked )
	{
		return tbResult_worldLocked;
	}
	return tbResult_ok;
}

tbMoverPathDef tbDefaultMoverPathDef( void )
{
	tbMoverPathDef def;
	memset( &def, 0, sizeof( def ) );
	def.interpolation = tbPath_linear;
	def.end = tbPath_once;
	def.speed = 1.0f;
	def.acceleration = FLT_MAX;
	def.internalValue = TB_SECRET_COOKIE;
	return def;
}

tbMoverId tbCreateMover( tbBodyId bodyId, tbResult* result )
{
	tbResult dummy;
	if ( result == NULL )
	{
		result = &dummy;
	}
	tbWorld* world;
	tbBody* body = tbGetBodyChecked( bodyId, &world );
	if ( body == NULL )
	{
		*result = tbResult_invalidId;
		return tb_nullMoverId;
	}
	if ( world->locked )
	{
		*result = tbResult_worldLocked;
		return tb_nullMoverId;
	}
	if ( body->type != tbBody_kinematic )
	{
		*result = tbResult_invalidArgument;
		return tb_nullMoverId;
	}
	tbMoverSet* set = s_moverSets + world->worldId;
	if ( set->used == false || set->worldGeneration != world->generation )
	{
		// A fresh world in this slot (the previous one freed its set at teardown).
		memset( set, 0, sizeof( *set ) );
		set->used = true;
		set->worldGeneration = world->generation;
		set->freeList = -1;
	}
	for ( int i = 0; i < set->count; ++i )
	{
		tbMover* other = set->data + i;
		if ( other->id >= 0 && tbGetMoverBody( world, other ) == body )
		{
			*result = tbResult_invalidArgument;
			return tb_nullMoverId;
		}
	}

	int index;
	if ( set->freeList >= 0 )
	{
		index = set->freeList;
		set->freeList = set->data[index].nextFree;
	}
	else
	{
		void* data = set->data;
		if ( tbEnsureCapacity( &data, set->count, &set->capacity, sizeof( tbMover ) ) == false )
		{
			*result = tbResult_outOfMemory;
			return tb_nullMoverId;
		}
		set->data = data;
		index = set->count++;
		set->data[index].generation = 0;
	}
	tbMover* mover = set->data + index;
	uint16_t generation = mover->generation;
	memset( mover, 0, sizeof( *mover ) );
	mover->id = index;
	mover->nextFree = -1;
	mover->generation = generation;
	mover->bodyIndex = body->id;
	mover->bodyGeneration = body->generation;
	mover->mode = tbMover_idle;
	mover->direction = 1.0f;
	mover->holdRotation = body->transform.q;
	*result = tbResult_ok;
	return tbMakeMoverId( world, mover );
}

tbResult tbDestroyMover( tbMoverId moverId )
{
	tbWorld* world;
	tbMover* mover;
	tbResult r = tbGetMutableMover( moverId, &world, &mover );
	if ( r != tbResult_ok )
	{
		return r;
	}
	tbBody* body = tbGetMoverBody( world, mover );
	body->linearVelocity = tb_vec3_zero;
	body->angularVelocity = tb_vec3_zero;
	tbFreeMover( tbGetMoverSet( world ), mover );
	return tbResult_ok;
}

bool tbMover_IsValid( tbMoverId moverId )
{
	return tbGetMover( moverId, NULL ) != NULL;
}

tbBodyId tbMover_GetBody( tbMoverId moverId )
{
	tbWorld* world;
	tbMover* mover = tbGetMover( moverId, &world );
	if ( mover == NULL )
	{
		return tb_nullBodyId;
	}
	return tbMakeBodyId( world, tbGetMoverBody( world, mover ) );
}

tbMoverMode tbMover_GetMode( tbMoverId moverId )
{
	tbMover* mover = tbGetMover( moverId, NULL );
	return mover != NULL ? mover->mode : tbMover_idle;
}

static void tbResetMotion( tbMover* mover )
{
	tbFreeMoverPath( mover );
	mover->paused = false;
	mover->finished = false;
	mover->currentSpeed = 0.0f;
	mover->waitTimer = 0.0f;
	mover->travelled = 0.0f;
	mover->laps = 0;
	mover->s = 0.0f;
	mover->direction = 1.0f;
	mover->approaching = false;
	mover->time = 0.0f;
}

tbResult tbMover_Stop( tbMoverId moverId )
{
	tbWorld* world;
	tbMover* mover;
	tbResult r = tbGetMutableMover( moverId, &world, &mover );
	if ( r != tbResult_ok )
	{
		return r;
	}
	tbResetMotion( mover );
	mover->mode = tbMover_idle;
	return tbResult_ok;
}

tbResult tbMover_SetVelocity( tbMoverId moverId, tbVec3 linearVelocity, tbVec3 angularVelocity )
{
	tbWorld* world;
	tbMover* mover;
	tbResult r = tbGetMutableMover( moverId, &world, &mover );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsBoundedVec3( linearVelocity, TB_MAX_SPEED ) || !tbIsBoundedVec3( angularVelocity, TB_MAX_ANGULAR_SPEED ) )
	{
		return tbResult_invalidArgument;
	}
	if ( mover->mode != tbMover_velocity )
	{
		tbResetMotion( mover );
	}
	mover->mode = tbMover_velocity;
	mover->linearVelocity = linearVelocity;
	mover->angularVelocity = angularVelocity;
	tbWakeBody( world, tbGetMoverBody( world, mover ) );
	return tbResult_ok;
}

tbResult tbMover_SetPath( tbMoverId moverId, const tbMoverPathDef* def )
{
	tbWorld* world;
	tbMover* mover;
	tbResult r = tbGetMutableMover( moverId, &world, &mover );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( def == NULL || def->internalValue != TB_SECRET_COOKIE || def->points == NULL || def->pointCount < 2 ||
		 (unsigned)def->interpolation >= (unsigned)tbPath_interpolationCount ||
		 (unsigned)def->end >= (unsigned)tbPath_endCount || !tbIsInRange( def->speed, 0.0f, TB_MAX_SPEED ) ||
		 def->speed <= 0.0f || isnan( def->acceleration ) || def->acceleration <= 0.0f )
	{
		return tbResult_invalidArgument;
	}
	for ( int i = 0; i < def->pointCount; ++i )
	{
		if ( !tbIsBoundedVec3( def->points[i], TB_MAX_POSITION ) ||
			 ( def->waits != NULL && ( !tbIsValidFloat( def->waits[i] ) || def->waits[i] < 0.0f ) ) )
		{
			return tbResult_invalidArgument;
		}
	}
	tbBody* body = tbGetMoverBody( world, mover );
	// The new path's arrays first: when one is refused the mover keeps its old motion.
	int n = def->pointCount;
	int segmentCount = def->end == tbPath_loop ? n : n - 1;
	size_t arcBytes = sizeof( float ) * (size_t)( segmentCount * TB_PATH_SAMPLES + 1 );
	tbVec3* points = tbAlloc( sizeof( tbVec3 ) * (size_t)n );
	float* waits = def->waits != NULL ? tbAlloc( sizeof( float ) * (size_t)n ) : NULL;
	float* arc = tbAlloc( arcBytes );
	if ( points == NULL || ( def->waits != NULL && waits == NULL ) || arc == NULL )
	{
		tbFree( points, sizeof( tbVec3 ) * (size_t)n );
		tbFree( waits, sizeof( float ) * (size_t)n );
		tbFree( arc, arcBytes );
		return tbResult_outOfMemory;
	}
	tbResetMotion( mover );
	mover->pointCount = n;
	mover->segmentCount = segmentCount;
	mover->points = points;
	memcpy( mover->points, def->points, sizeof( tbVec3 ) * (size_t)n );
	if ( def->waits != NULL )
	{
		mover->waits = waits;
		memcpy( mover->waits, def->waits, sizeof( float ) * (size_t)n );
	}
	mover->arc = arc;
	mover->interpolation = def->interpolation;
	mover->end = def->end;
	mover->speed = def->speed;
	mover->acceleration = def->acceleration;
	tbBuildArcTable( mover );
	mover->mode = tbMover_path;
	mover->nextStop = 1;
	mover->holdRotation = body->transform.q;
	mover->approaching = tbDistance( body->transform.p, def->points[0] ) > TB_PATH_EPSILON;
	if ( mover->approaching == false )
	{
		mover->waitTimer = tbWaitAt( mover, 0 );
	}
	tbWakeBody( world, body );
	return tbResult_ok;
}

tbResult tbMover_SetPathSpeed( tbMoverId moverId, float speed )
{
	tbWorld* world;
	tbMover* mover;
	tbResult r = tbGetMutableMover( moverId, &world, &mover );
	if ( r != tbResult_ok )
	{
		return r;
	}
	if ( !tbIsInRange( speed, 0.0f, TB_MAX_SPEED ) || speed <= 0.0f )
	{
		return tbResult_invalidArgument;
	}
	mover->speed = speed;
	return tbResult_ok;
}

tbResult tbMover_MoveTo( tbMoverId moverId, tbVec3 position, tbQuat rotation, float duration )
{
	tbWorld* world;
	tbMover* mover;
	tbResult r = tbGetMutableMover( moverId, &world, &mover );
	if ( r != tbResult_ok )
	{
		return r;
	}
	// The target is held to the body position limit (a target 3e38 m away made the body NaN).
	if ( !tbIsBoundedVec3( position, TB_MAX_POSITION ) || !tbIsValidQuat( rotation ) || !tbIsValidFloat( duration ) ||
		 duration <= 0.0f )
	{
		return tbResult_invalidArgument;
	}
	tbBody* body = tbGetMoverBody( world, mover );
	tbResetMotion( mover );
	mover->mode = tbMover_target;
	mover->startPosition = body->transform.p;
	mover->startRotation = body->transform.q;
	mover->targetPosition = position;
	mover->targetRotation = tbNormalizeQ( rotation );
	mover->duration = duration;
	mover->time = 0.0f;
	tbWakeBody( world, body );
	return tbResult_ok;
}

tbResult tbMover_SetPaused( tbMoverId moverId, bool paused )
{
	tbWorld* world;
	tbMover* mover;
	tbResult r = tbGetMutableMover( moverId, &world, &mover );
	if ( r != tbResult_ok )
	{
		return r;
	}
	mover->paused = paused;
	tbWakeBody( world, tbGetMoverBody( world, mover ) );
	return tbResult_ok;
}

bool tbMover_IsPaused( tbMoverId moverId )
{
	tbMover* mover = tbGetMover( moverId, NULL );
	return mover != NULL && mover->paused;
}

bool tbMover_IsFinished( tbMoverId moverId )
{
	tbMover* mover = tbGetMover( moverId, NULL );
	return mover != NULL && mover->finished;
}

float tbMover_GetPathDistance( tbMoverId moverId )
{
	tbMover* mover = tbGetMover( moverId, NULL );
	return mover != NULL ? mover->travelled : 0.0f;
}

float tbMover_GetPathLength( tbMoverId moverId )
{
	tbMover* mover = tbGetMover( moverId, NULL );
	return mover != NULL ? mover->length : 0.0f;
}

int tbMover_GetLapCount( tbMoverId moverId )
{
	tbMover* mover = tbGetMover( moverId, NULL );
	return mover != NULL ? mover->laps : 0;
}

// Snapshots ---------------------------------------------------------------------------------------

struct tbMoverSnapshot
{
	tbMoverSet set;
};

// Deep copy of one mover's path arrays. False when one could not be allocated; what was made is
// in dst, so tbFreeMoverPath frees it (dst carries src's counts).
static bool tbCopyMoverPath( tbMover* dst, const tbMover* src )
{
	dst->points = NULL;
	dst->waits = NULL;
	dst->arc = NULL;
	if ( src->id < 0 || src->pointCount == 0 )
	{
		return true;
	}
	size_t n = (size_t)src->pointCount;
	size_t samples = (size_t)( src->segmentCount * TB_PATH_SAMPLES + 1 );
	dst->points = tbAlloc( sizeof( tbVec3 ) * n );
	dst->waits = src->waits != NULL ? tbAlloc( sizeof( float ) * n ) : NULL;
	dst->arc = tbAlloc( sizeof( float ) * samples );
	if ( dst->points == NULL || ( src->waits != NULL && dst->waits == NULL ) || dst->arc == NULL )
	{
		return false;
	}
	memcpy( dst->points, src->points, sizeof( tbVec3 ) * n );
	if ( src->waits != NULL )
	{
		memcpy( dst->waits, src->waits, sizeof( float ) * n );
	}
	memcpy( dst->arc, src->arc, sizeof( float ) * samples );
	return true;
}

static void tbFreeMoverSet( tbMoverSet* set )
{
	for ( int i = 0; i < set->count; ++i )
	{
		if ( set->data[i].id >= 0 )
		{
			tbFreeMoverPath( set->data + i );
		}
	}
	tbFree( set->data, sizeof( tbMover ) * (size_t)set->capacity );
	memset( set, 0, sizeof( *set ) );
}

// False, with nothing left allocated in dst, when an allocation was refused.
static bool tbCopyMoverSet( tbMoverSet* dst, const tbMoverSet* src )
{
	*dst = *src;
	dst->data = NULL;
	if ( src->capacity == 0 )
	{
		return true;
	}
	dst->data = tbAlloc( sizeof( tbMover ) * (size_t)src->capacity );
	if ( dst->data == NULL )
	{
		memset( dst, 0, sizeof( *dst ) );
		return false;
	}
	memcpy( dst->data, src->data, sizeof( tbMover ) * (size_t)src->count );
	bool ok = true;
	for ( int i = 0; i < src->count; ++i )
	{
		ok = tbCopyMoverPath( dst->data + i, src->data + i ) && ok;
	}
	if ( ok == false )
	{
		tbFreeMoverSet( dst );
	}
	return ok;
}

// A snapshot holding a copy of set; NULL, nothing left allocated, and *ok false when refused.
static tbMoverSnapshot* tbNewMoverSnapshot( const tbMoverSet* set, bool* ok )
{
	tbMoverSnapshot* copy = tbAlloc( sizeof( tbMoverSnapshot ) );
	*ok = copy != NULL && tbCopyMoverSet( &copy->set, set );
	if ( *ok == false )
	{
		tbFree( copy, sizeof( tbMoverSnapshot ) );
		return NULL;
	}
	return copy;
}

tbMoverSnapshot* tbSnapshotMovers( tbWorld* world, bool* ok )
{
	*ok = true;
	tbMoverSet* set = tbGetMoverSet( world );
	return set != NULL ? tbNewMoverSnapshot( set, ok ) : NULL;
}

tbMoverSnapshot* tbCopyMoverSnapshot( const tbMoverSnapshot* snapshot, bool* ok )
{
	*ok = true;
	return snapshot != NULL ? tbNewMoverSnapshot( &snapshot->set, ok ) : NULL;
}

void tbAdoptMovers( tbWorld* world, tbMoverSnapshot* snapshot )
{
	tbDestroyMovers( world );
	if ( snapshot == NULL )
	{
		return;
	}
	tbMoverSet* set = s_moverSets + world->worldId;
	*set = snapshot->set;
	set->used = true;
	set->worldGeneration = world->generation;
	tbFree( snapshot, sizeof( tbMoverSnapshot ) );
}

bool tbRestoreMovers( tbWorld* world, const tbMoverSnapshot* snapshot )
{
	bool ok;
	tbMoverSnapshot* copy = tbCopyMoverSnapshot( snapshot, &ok );
	if ( ok )
	{
		tbAdoptMovers( world, copy );
	}
	return ok;
}

void tbFreeMoverSnapshot( tbMoverSnapshot* snapshot )
{
	if ( snapshot == NULL )
	{
		return;
	}
	tbFreeMoverSet( &snapshot->set );
	tbFree( snapshot, sizeof( tbMoverSnapshot ) );
}
