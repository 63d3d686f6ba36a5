// Tumble physics: cast-wheel vehicles.
// SPDX-License-Identifier: MIT
//
// A vehicle is a dynamic chassis body and up to TB_MAX_VEHICLE_WHEELS wheels that are not bodies:
// each wheel is a ray cast along its suspension (the classic "raycast vehicle"; Jolt's
// VehicleConstraint with a WheeledVehicleController works the same way in its solver). At the start
// of each step, before the solver, every wheel is cast and the chassis gets impulses directly:
//
// - Suspension, along the ground normal n, as a force the solver integrates with gravity in every
//   sub-step (so a car at rest starts each step at rest): the spring k (restLength - length), so at
//   rest the force is exactly k times the compression and the wheels' forces add up to m g; the
//   damper c u / (1 + dt c K_n), u the approach speed of the chassis point and K_n its inverse
//   effective mass along n: the implicit step, so no damping coefficient reverses the motion it
//   damps. The total is never negative (a tyre does not pull the ground). Below minLength a bump
//   stop (an impulse) removes the approach speed and pushes back by a fifth of the overlap a step.
// - Anti-roll bars: stiffness times the compression difference of a pair, added to the
//   compressed side and taken from the other.
// - Engine and brakes act on each wheel's spin (its own inertia about the axle): the engine's
//   torque, shared by the driven wheels, falls linearly to zero at maxSpeed of rim speed; a brake
//   is an angular impulse of at most torque dt that stops the spin.
// - Tyres: two rows at the contact point, along the steered rolling direction f (in the ground
//   plane) and across it, s = n x f. The longitudinal row drives the slip v.f - w R to zero with
//   the effective mass of the chassis point and the wheel's spin together (1 / (K_f + R^2 / I)),
//   so the wheel and the car meet at rolling; the lateral row drives v.s to zero. Their
//   accumulated impulses stay in the friction ellipse (J_f / (mu_f N dt))^2 + (J_s / (mu_s N dt))^2
//   <= 1, N the suspension load: the wheel spins or slides once the tyre's grip is used up. A
//   braked wheel is held by its brake while the brake's torque suffices (the tyre then acts on
//   the chassis alone), since a wheel is light against the car and solving the two one after the
//   other converges slowly. Brakes and tyre rows are solved TB_VEHICLE_ITERATIONS times, wheel
//   after wheel, with accumulated clamped impulses (sequential impulses, as the contact solver
//   does), against the chassis's velocity predicted to the end of the step (gravity and forces),
//   and given to it as forces (impulse / dt) integrated with gravity in every sub-step: a braked
//   car on a 15 degree slope moves 0.2 mm in 3 s (test_vehicle).
//
// Impulses a wheel gives the chassis it also gives, reversed, to a dynamic body it stands on. The
// update is serial in vehicle and wheel order (deterministic) and allocates nothing.
#include "body.h"
#include "core.h"
#include "shape.h"
#include "world.h"

#include "tumble/tumble.h"

#include <math.h>
#include <string.h>

/// Passes over the brakes and tyre rows of a vehicle per step.
#define TB_VEHICLE_ITERATIONS 8
/// Softness of the lateral tyre rows, relative to their inverse effective mass.
#define TB_TYRE_SOFTNESS 1.0f
/// Fraction of the bump-stop overlap removed per step.
#define TB_BUMP_STOP_BETA 0.2f

tbWheelDef tbDefaultWheelDef( void )
{
	tbWheelDef def;
	memset( &def, 0, sizeof( def ) );
	def.direction = tbMakeVec3( 0.0f, 0.0f, -1.0f );
	def.radius = 0.35f;
	def.width = 0.2f;
	def.minLength = 0.05f;
	def.maxLength = 0.35f;
	def.restLength = 0.35f;
	def.stiffness = 30000.0f;
	def.damping = 3000.0f;
	def.friction = 1.2f;
	def.lateralFriction = 1.2f;
	def.inertia = 1.0f;
	def.maxBrakeTorque = 1500.0f;
	return def;
}

tbVehicleDef tbDefaultVehicleDef( void )
{
	tbVehicleDef def;
	memset( &def, 0, sizeof( def ) );
	def.forward = tbMakeVec3( 1.0f, 0.0f, 0.0f );
	def.up = tbMakeVec3( 0.0f, 0.0f, 1.0f );
	def.maxEngineTorque = 1000.0f;
	def.maxSpeed = 40.0f;
	def.filter = tbDefaultQueryFilter();
	def.internalValue = TB_SECRET_COOKIE;
	return def;
}

static bool tbIsUnit( tbVec3 v )
{
	return tbIsValidVec3( v ) && tbAbsFloat( tbLength( v ) - 1.0f ) < 1.0e-3f;
}

static bool tbIsInRangeFinite( float x, float lo, float hi )
{
	return tbIsValidFloat( x ) && x >= lo && x <= hi;
}

static bool tbIsValidWheelDef( const tbWheelDef* d )
{
	return tbIsBoundedVec3( d->position, TB_MAX_SHAPE_SIZE ) && tbIsUnit( d->direction ) &&
		   tbIsInRangeFinite( d->radius, 1.0e-4f, TB_MAX_SHAPE_SIZE ) && d->radius > 0.0f &&
		   tbIsInRangeFinite( d->width, 0.0f, TB_MAX_SHAPE_SIZE ) &&
		   tbIsInRangeFinite( d->minLength, 0.0f, TB_MAX_SHAPE_SIZE ) &&
		   tbIsInRangeFinite( d->maxLength, d->minLength, TB_MAX_SHAPE_SIZE ) &&
		   tbIsInRangeFinite( d->restLength, d->minLength, d->maxLength ) &&
		   tbIsInRangeFinite( d->stiffness, 0.0f, TB_MAX_FORCE ) && tbIsInRangeFinite( d->damping, 0.0f, TB_MAX_FORCE ) &&
		   tbIsInRangeFinite( d->friction, 0.0f, TB_MAX_FRICTION ) &&
		   tbIsInRangeFinite( d->lateralFriction, 0.0f, TB_MAX_FRICTION ) &&
		   tbIsInRangeFinite( d->inertia, 1.0e-6f, TB_MAX_MASS ) &&
		   tbIsInRangeFinite( d->maxSteerAngle, -0.5f * TB_PI, 0.5f * TB_PI ) &&
		   tbIsInRangeFinite( d->maxBrakeTorque, 0.0f, TB_MAX_FORCE ) &&
		   tbIsInRangeFinite( d->maxHandbrakeTorque, 0.0f, TB_MAX_FORCE );
}

static tbVehicle* tbGetVehicle( tbVehicleId id, tbWorld** worldOut )
{
	tbWorld* world = tbGetWorldFromTag( id.world0 );
	if ( worldOut != NULL )
	{
		*worldOut = world;
	}
	if ( world == NULL || id.index1 < 1 || id.index1 > world->vehicles.count )
	{
		return NULL;
	}
	tbVehicle* v = world->vehicles.data + ( id.index1 - 1 );
	return v->id >= 0 && v->generation == id.generation ? v : NULL;
}

static tbBody* tbGetChassis( tbWorld* world, const tbVehicle* v )
{
	if ( v->chassis.world0 != world->worldTag )
	{
		return NULL;
	}
	tbBody* body = tbGetBodyFromId( world, v->chassis );
	return body != NULL && body->type == tbBody_dynamic ? body : NULL;
}

// The live vehicle whose chassis is this body, or NULL.
static tbVehicle* tbFindVehicleOf( tbWorld* world, tbBodyId chassis )
{
	for ( int i = 0; i < world->vehicles.count; ++i )
	{
		tbVehicle* v = world->vehicles.data + i;
		if ( v->id >= 0 && TB_ID_EQUALS( v->chassis, chassis ) )
		{
			return v;
		}
	}
	return NULL;
}

tbVehicleId tbBody_GetVehicle( tbBodyId bodyId )
{
	tbWorld* world = tbGetWorldFromTag( bodyId.world0 );
	tbVehicle* v = world != NULL && tbGetBodyFromId( world, bodyId ) != NULL ? tbFindVehicleOf( world, bodyId ) : NULL;
	if ( v == NULL )
	{
		return tb_nullVehicleId;
	}
	tbVehicleId id = { v->id + 1, world->worldTag, v->generation };
	return id;
}

tbVehicleId tbCreateVehicle( tbWorldId worldId, const tbVehicleDef* def, tbResult* result )
{
	tbResult dummy;
	result = result != NULL ? result : &dummy;
	*result = tbResult_invalidArgument;
	tbWorld* world = tbGetWorldFromId( worldId );
	if ( world == NULL )
	{
		*result = tbResult_invalidId;
		return tb_nullVehicleId;
	}
	if ( world->locked )
	{
		*result = tbResult_worldLocked;
		return tb_nullVehicleId;
	}
	if ( def == NULL || def->internalValue != TB_SECRET_COOKIE || def->chassis.world0 != world->worldTag )
	{
		return tb_nullVehicleId;
	}
	tbBody* chassis = tbGetBodyFromId( world, def->chassis );
	if ( chassis == NULL || chassis->type != tbBody_dynamic || tbFindVehicleOf( world, def->chassis ) != NULL ||
		 def->wheels == NULL || def->wheelCount < 1 ||
		 def->wheelCount > TB_MAX_VEHICLE_WHEELS || def->antiRollBarCount < 0 ||
		 def->antiRollBarCount > TB_MAX_ANTI_ROLL_BARS || ( def->antiRollBarCount > 0 && def->antiRollBars == NULL ) ||
		 !tbIsUnit( def->forward ) || !tbIsUnit( def->up ) || tbAbsFloat( tbDot( def->forward, def->up ) ) > 1.0e-3f ||
		 !tbIsInRangeFinite( def->maxEngineTorque, 0.0f, TB_MAX_FORCE ) ||
		 !tbIsInRangeFinite( def->maxSpeed, 0.0f, TB_MAX_SPEED ) || def->maxSpeed <= 0.0f )
	{
		return tb_nullVehicleId;
	}
	for ( int i = 0; i < def->wheelCount; ++i )
	{
		if ( tbIsValidWheelDef( def->wheels + i ) == false )
		{
			return tb_nullVehicleId;
		}
	}
	for ( int i = 0; i < def->antiRollBarCount; ++i )
	{
		const tbAntiRollBarDef* bar = def->antiRollBars + i;
		if ( bar->leftWheel < 0 || bar->leftWheel >= def->wheelCount || bar->rightWheel < 0 ||
			 bar->rightWheel >= def->wheelCount || bar->leftWheel == bar->rightWheel ||
			 !tbIsInRangeFinite( bar->stiffness, 0.0f, TB_MAX_FORCE ) )
		{
			return tb_nullVehicleId;
		}
	}

	int index;
	TB_POOL_ALLOC( world->vehicles, tbVehicle, index );
	if ( index < 0 )
	{
		*result = tbResult_outOfMemory;
		return tb_nullVehicleId;
	}
	tbVehicle* v = world->vehicles.data + index;
	uint16_t generation = v->generation;
	memset( v, 0, sizeof( *v ) );
	v->id = index;
	v->nextFree = -1;
	v->generation = generation;
	v->chassis = def->chassis;
	v->forward = def->forward;
	v->up = def->up;
	v->maxEngineTorque = def->maxEngineTorque;
	v->maxSpeed = def->maxSpeed;
	v->filter = def->filter;
	v->wheelCount = def->wheelCount;
	memcpy( v->wheels, def->wheels, sizeof( tbWheelDef ) * (size_t)def->wheelCount );
	for ( int i = 0; i < def->wheelCount; ++i )
	{
		v->states[i].suspensionLength = v->wheels[i].maxLength;
		v->states[i].compression = v->wheels[i].restLength - v->wheels[i].maxLength;
	}
	v->antiRollBarCount = def->antiRollBarCount;
	if ( def->antiRollBarCount > 0 )
	{
		memcpy( v->antiRollBars, def->antiRollBars, sizeof( tbAntiRollBarDef ) * (size_t)def->antiRollBarCount );
	}
	*result = tbResult_ok;
	tbVehicleId id = { index + 1, world->worldTag, v->generation };
	return id;
}

tbResult tbDestroyVehicle( tbVehicleId vehicleId )
{
	tbWorld* world;
	tbVehicle* v = tbGetVehicle( vehicleId, &world );
	if ( v == NULL )
	{
		return tbResult_invalidId;
	}
	if ( world->locked )
	{
		return tbResult_worldLocked;
	}
	TB_POOL_FREE( world->vehicles, v->id );
	return tbResult_ok;
}

bool tbVehicle_IsValid( tbVehicleId vehicleId )
{
	return tbGetVehicle( vehicleId, NULL ) != NULL;
}

tbBodyId tbVehicle_GetChassis( tbVehicleId vehicleId )
{
	tbVehicle* v = tbGetVehicle( vehicleId, NULL );
	return v != NULL ? v->chassis : tb_nullBodyId;
}

int tbVehicle_GetWheelCount( tbVehicleId vehicleId )
{
	tbVehicle* v = tbGetVehicle( vehicleId, NULL );
	return v != NULL ? v->wheelCount : 0;
}

tbResult tbVehicle_SetInput( tbVehicleId vehicleId, float throttle, float steer, float brake, float handbrake )
{
	tbWorld* world;
	tbVehicle* v = tbGetVehicle( vehicleId, &world );
	if ( v == NULL )
	{
		return tbResult_invalidId;
	}
	if ( world->locked )
	{
		return tbResult_worldLocked;
	}
	if ( !tbIsInRangeFinite( throttle, -1.0f, 1.0f ) || !tbIsInRangeFinite( steer, -1.0f, 1.0f ) ||
		 !tbIsInRangeFinite( brake, 0.0f, 1.0f ) || !tbIsInRangeFinite( handbrake, 0.0f, 1.0f ) )
	{
		return tbResult_invalidArgument;
	}
	bool changed = throttle != v->throttle || steer != v->steer || brake != v->brake || handbrake != v->handbrake;
	v->throttle = throttle;
	v->steer = steer;
	v->brake = brake;
	v->handbrake = handbrake;
	tbBody* chassis = tbGetChassis( world, v );
	if ( changed && chassis != NULL )
	{
		tbWakeBody( world, chassis );
	}
	return tbResult_ok;
}

void tbVehicle_GetInput( tbVehicleId vehicleId, float* throttle, float* steer, float* brake, float* handbrake )
{
	tbVehicle* v = tbGetVehicle( vehicleId, NULL );
	float values[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
	if ( v != NULL )
	{
		values[0] = v->throttle;
		values[1] = v->steer;
		values[2] = v->brake;
		values[3] = v->handbrake;
	}
	float* outs[4] = { throttle, steer, brake, handbrake };
	for ( int i = 0; i < 4; ++i )
	{
		if ( outs[i] != NULL )
		{
			*outs[i] = values[i];
		}
	}
}

tbResult tbVehicle_SetWheelDef( tbVehicleId vehicleId, int wheel, const tbWheelDef* def )
{
	tbWorld* world;
	tbVehicle* v = tbGetVehicle( vehicleId, &world );
	if ( v == NULL )
	{
		return tbResult_invalidId;
	}
	if ( world->locked )
	{
		return tbResult_worldLocked;
	}
	if ( wheel < 0 || wheel >= v->wheelCount || def == NULL || tbIsValidWheelDef( def ) == false )
	{
		return tbResult_invalidArgument;
	}
	v->wheels[wheel] = *def;
	tbBody* chassis = tbGetChassis( world, v );
	if ( chassis != NULL )
	{
		tbWakeBody( world, chassis );
	}
	return tbResult_ok;
}

tbWheelDef tbVehicle_GetWheelDef( tbVehicleId vehicleId, int wheel )
{
	tbVehicle* v = tbGetVehicle( vehicleId, NULL );
	if ( v == NULL || wheel < 0 || wheel >= v->wheelCount )
	{
		return tbDefaultWheelDef();
	}
	return v->wheels[wheel];
}

tbWheelState tbVehicle_GetWheelState( tbVehicleId vehicleId, int wheel )
{
	tbVehicle* v = tbGetVehicle( vehicleId, NULL );
	if ( v == NULL || wheel < 0 || wheel >= v->wheelCount )
	{
		tbWheelState none;
		memset( &none, 0, sizeof( none ) );
		return none;
	}
	return v->states[wheel];
}

tbTransform tbVehicle_GetWheelTransform( tbVehicleId vehicleId, int wheel )
{
	tbWorld* world;
	tbVehicle* v = tbGetVehicle( vehicleId, &world );
	tbBody* chassis = v != NULL ? tbGetChassis( world, v ) : NULL;
	if ( chassis == NULL || wheel < 0 || wheel >= v->wheelCount )
	{
		return tb_transformIdentity;
	}
	const tbWheelDef* d = v->wheels + wheel;
	const tbWheelState* s = v->states + wheel;
	float length = tbClampFloat( s->suspensionLength, d->minLength, d->maxLength );
	tbTransform xf = chassis->transform;
	tbVec3 local = tbMulAdd( d->position, length, d->direction );
	// Wheel frame in the chassis frame: steering about up, then spin about the axle (up x forward,
	// which is +y for x forward and z up; a positive spin rolls forwards, so it turns about it).
	tbVec3 axle = tbCross( v->up, v->forward );
	tbQuat steer = tbMakeQuatAxisAngle( v->up, s->steerAngle );
	tbQuat spin = tbMakeQuatAxisAngle( axle, s->angle );
	tbTransform out = { tbTransformPoint( xf, local ), tbNormalizeQ( tbMulQQ( xf.q, tbMulQQ( steer, spin ) ) ) };
	return out;
}

float tbVehicle_GetForwardSpeed( tbVehicleId vehicleId )
{
	tbWorld* world;
	tbVehicle* v = tbGetVehicle( vehicleId, &world );
	tbBody* chassis = v != NULL ? tbGetChassis( world, v ) : NULL;
	if ( chassis == NULL )
	{
		return 0.0f;
	}
	return tbDot( chassis->linearVelocity, tbRotate( chassis->transform.q, v->forward ) );
}

// The step -----------------------------------------------------------------------------------------

// The closest hit of a wheel's ray that it can stand on: not its own chassis, not a sensor.
typedef struct tbWheelCast
{
	const tbWorld* world;
	int chassisIndex;
	tbRayResult best;
} tbWheelCast;

static float tbWheelCastCallback( tbShapeId shapeId, tbVec3 point, tbVec3 normal, float fraction, void* context )
{
	tbWheelCast* wc = context;
	const tbShape* shape = wc->world->shapes.data + ( shapeId.index1 - 1 );
	if ( shape->bodyId == wc->chassisIndex || shape->isSensor )
	{
		return wc->best.hit ? wc->best.fraction : 1.0f;
	}
	return tbKeepClosestHit( shapeId, point, normal, fraction, &wc->best );
}

// Inverse effective mass of a body point r (from the centre of mass) along a unit direction.
static float tbInverseMassAlong( const tbBody* body, tbVec3 r, tbVec3 direction )
{
	tbVec3 rn = tbCross( r, direction );
	return body->invMass + tbDot( rn, tbMulMV( body->invWorldInertia, rn ) );
}

static void tbApplyImpulseAt( tbBody* body, tbVec3 impulse, tbVec3 point )
{
	body->linearVelocity = tbMulAdd( body->linearVelocity, body->invMass, impulse );
	tbVec3 r = tbSub( point, body->center );
	body->angularVelocity = tbAdd( body->angularVelocity, tbMulMV( body->invWorldInertia, tbCross( r, impulse ) ) );
}

// A force for the coming step: the solver integrates it in every sub-step together with gravity,
// so a car at rest starts each step at rest and its dampers see no motion.
static void tbApplyForceAt( tbBody* body, tbVec3 force, tbVec3 point )
{
	body->force = tbAdd( body->force, force );
	body->torque = tbAdd( body->torque, tbCross( tbSub( point, body->center ), force ) );
}

static tbVec3 tbPointVelocity( const tbBody* body, tbVec3 point )
{
	return tbAdd( body->linearVelocity, tbCross( body->angularVelocity, tbSub( point, body->center ) ) );
}

// The chassis's velocity during the tyre solve (predicted to the end of the step), and the
// impulse the tyres gave it.
typedef struct tbChassisMotion
{
	tbVec3 v, w;
	tbVec3 center;
	float invMass;
	tbMat3 invI;
	tbVec3 linearImpulse;  ///< N s
	tbVec3 angularImpulse; ///< about the centre of mass, N m s
} tbChassisMotion;

static void tbMotionApplyImpulse( tbChassisMotion* m, tbVec3 impulse, tbVec3 point )
{
	tbVec3 angular = tbCross( tbSub( point, m->center ), impulse );
	m->v = tbMulAdd( m->v, m->invMass, impulse );
	m->w = tbAdd( m->w, tbMulMV( m->invI, angular ) );
	m->linearImpulse = tbAdd( m->linearImpulse, impulse );
	m->angularImpulse = tbAdd( m->angularImpulse, angular );
}

// Per wheel, for this step only (on the stack: TB_MAX_VEHICLE_WHEELS of them).
typedef struct tbWheelStep
{
	tbBody* ground;     ///< a dynamic body under the wheel, else NULL
	tbVec3 groundVelocity; ///< of the contact point, for a static or kinematic ground
	tbVec3 r;           ///< contact point from the chassis centre of mass
	tbVec3 f, s;        ///< rolling and lateral directions in the ground plane
	float Kf, Ks;       ///< inverse effective masses of the chassis point along f and s
	float limitF, limitS; ///< friction impulse limits, N s
	float brakeLimit;   ///< angular impulse, N m s
	float brakeImpulse, impulseF, impulseS; ///< accumulated
} tbWheelStep;

static tbVec3 tbRelativeVelocity( const tbBody* chassis, const tbWheelStep* ws, tbVec3 point )
{
	tbVec3 ground = ws->ground != NULL ? tbPointVelocity( ws->ground, point ) : ws->groundVelocity;
	return tbSub( tbPointVelocity( chassis, point ), ground );
}

static tbVec3 tbMotionRelativeVelocity( const tbChassisMotion* m, const tbWheelStep* ws, tbVec3 point )
{
	tbVec3 ground = ws->ground != NULL ? tbPointVelocity( ws->ground, point ) : ws->groundVelocity;
	tbVec3 own = tbAdd( m->v, tbCross( m->w, tbSub( point, m->center ) ) );
	return tbSub( own, ground );
}

static void tbUpdateVehicle( tbWorld* world, tbVehicle* v, float dt )
{
	tbBody* chassis = tbGetChassis( world, v );
	if ( chassis == NULL || chassis->awake == false )
	{
		return;
	}
	tbTransform xf = chassis->transform;
	tbVec3 up = tbRotate( xf.q, v->up );
	tbVec3 forward = tbRotate( xf.q, v->forward );
	tbVec3 left = tbCross( up, forward );
	tbWorldId worldId = { (uint16_t)( world->worldId + 1 ), world->generation };
	tbWheelStep steps[TB_MAX_VEHICLE_WHEELS];
	float approach[TB_MAX_VEHICLE_WHEELS];

	// Casts: where each wheel stands and how fast its suspension is being compressed.
	for ( int w = 0; w < v->wheelCount; ++w )
	{
		const tbWheelDef* d = v->wheels + w;
		tbWheelState* s = v->states + w;
		tbWheelStep* ws = steps + w;
		memset( ws, 0, sizeof( *ws ) );
		s->steerAngle = v->steer * d->maxSteerAngle;
		s->longitudinalForce = 0.0f;
		s->lateralForce = 0.0f;
		s->suspensionForce = 0.0f;
		approach[w] = 0.0f;

		tbVec3 origin = tbTransformPoint( xf, d->position );
		tbVec3 direction = tbRotate( xf.q, d->direction );
		float castLength = d->maxLength + d->radius;
		tbWheelCast wc;
		memset( &wc, 0, sizeof( wc ) );
		wc.world = world;
		wc.chassisIndex = chassis->id;
		tbWorld_CastRay( worldId, origin, tbMulSV( castLength, direction ), v->filter, tbWheelCastCallback, &wc );
		// Ground seen from below (the ray started inside it) cannot hold the wheel up.
		if ( wc.best.hit == false || tbDot( wc.best.normal, direction ) >= 0.0f )
		{
			s->inContact = false;
			s->groundBody = tb_nullBodyId;
			s->suspensionLength = d->maxLength;
			s->compression = d->restLength - d->maxLength;
			continue;
		}
		s->inContact = true;
		s->contactPoint = wc.best.point;
		s->contactNormal = wc.best.normal;
		s->groundBody = wc.best.bodyId;
		s->suspensionLength = wc.best.fraction * castLength - d->radius;
		s->compression = d->restLength - s->suspensionLength;

		tbBody* ground = tbGetBodyFromId( world, wc.best.bodyId );
		if ( ground != NULL && ground->type == tbBody_dynamic )
		{
			ws->ground = ground;
		}
		else if ( ground != NULL )
		{
			ws->groundVelocity = tbPointVelocity( ground, s->contactPoint );
		}
		ws->r = tbSub( s->contactPoint, chassis->center );
		approach[w] = -tbDot( tbRelativeVelocity( chassis, ws, s->contactPoint ), s->contactNormal );
	}

	// Suspension: spring, damper and anti-roll bars along the ground normal.
	float springForce[TB_MAX_VEHICLE_WHEELS];
	for ( int w = 0; w < v->wheelCount; ++w )
	{
		springForce[w] = v->wheels[w].stiffness * v->states[w].compression;
	}
	for ( int b = 0; b < v->antiRollBarCount; ++b )
	{
		const tbAntiRollBarDef* bar = v->antiRollBars + b;
		const tbWheelState* l = v->states + bar->leftWheel;
		const tbWheelState* r = v->states + bar->rightWheel;
		if ( l->inContact || r->inContact )
		{
			// A hanging wheel counts as fully extended: its bar still loads the other side.
			float force = bar->stiffness * ( l->compression - r->compression );
			springForce[bar->leftWheel] += force;
			springForce[bar->rightWheel] -= force;
		}
	}
	for ( int w = 0; w < v->wheelCount; ++w )
	{
		const tbWheelDef* d = v->wheels + w;
		tbWheelState* s = v->states + w;
		tbWheelStep* ws = steps + w;
		if ( s->inContact == false )
		{
			continue;
		}
		tbVec3 n = s->contactNormal;
		float Kn = tbInverseMassAlong( chassis, ws->r, n ) + ( ws->ground != NULL ? tbInverseMassAlong( ws->ground, tbSub( s->contactPoint, ws->ground->center ), n ) : 0.0f );
		float damper = dt * d->damping * approach[w] / ( 1.0f + dt * d->damping * Kn );
		float force = tbMaxFloat( springForce[w] + damper / dt, 0.0f );
		tbApplyForceAt( chassis, tbMulSV( force, n ), s->contactPoint );
		if ( ws->ground != NULL )
		{
			tbApplyForceAt( ws->ground, tbMulSV( -force, n ), s->contactPoint );
		}
		float impulse = force * dt;
		if ( s->suspensionLength < d->minLength )
		{
			// The bump stop: after the spring's impulse the point may still approach; stop it and
			// push out a fraction of the overlap.
			float speed = tbDot( tbRelativeVelocity( chassis, ws, s->contactPoint ), n ) + impulse * Kn;
			float target = TB_BUMP_STOP_BETA * ( d->minLength - s->suspensionLength ) / dt;
			float stop = tbMaxFloat( ( target - speed ) / Kn, 0.0f );
			tbApplyImpulseAt( chassis, tbMulSV( stop, n ), s->contactPoint );
			if ( ws->ground != NULL )
			{
				tbApplyImpulseAt( ws->ground, tbMulSV( -stop, n ), s->contactPoint );
			}
			impulse += stop;
		}
		s->suspensionForce = impulse / dt;

		// Tyre directions: the steered rolling direction laid into the ground plane.
		float c = cosf( s->steerAngle ), sn = sinf( s->steerAngle );
		tbVec3 rolling = tbAdd( tbMulSV( c, forward ), tbMulSV( sn, left ) );
		tbVec3 f = tbMulSub( rolling, tbDot( rolling, n ), n );
		if ( tbLengthSquared( f ) < 1.0e-6f )
		{
			// Standing on a wall: no rolling direction, no tyre force.
			continue;
		}
		ws->f = tbNormalize( f );
		ws->s = tbCross( n, ws->f );
		ws->Kf = tbInverseMassAlong( chassis, ws->r, ws->f );
		ws->Ks = tbInverseMassAlong( chassis, ws->r, ws->s );
		ws->limitF = d->friction * impulse;
		ws->limitS = d->lateralFriction * impulse;
	}

	// Engine and brakes on the wheels' spin.
	int drivenCount = 0;
	for ( int w = 0; w < v->wheelCount; ++w )
	{
		drivenCount += v->wheels[w].driven ? 1 : 0;
	}
	for ( int w = 0; w < v->wheelCount; ++w )
	{
		const tbWheelDef* d = v->wheels + w;
		tbWheelState* s = v->states + w;
		if ( d->driven && v->throttle != 0.0f )
		{
			float rimSpeed = ( v->throttle > 0.0f ? 1.0f : -1.0f ) * s->angularVelocity * d->radius;
			float fade = tbMaxFloat( 1.0f - tbMaxFloat( rimSpeed, 0.0f ) / v->maxSpeed, 0.0f );
			float torque = v->throttle * v->maxEngineTorque / (float)drivenCount * fade;
			s->angularVelocity += dt * torque / d->inertia;
		}
		steps[w].brakeLimit = dt * ( v->brake * d->maxBrakeTorque + v->handbrake * d->maxHandbrakeTorque );
	}

	// Brakes and tyres, sequential impulses, on the chassis's velocity as it will be at the end of
	// the step under gravity and its forces (suspension included): their impulses then hold it
	// against what the step adds, and they are applied as forces (impulse / dt), integrated in
	// every sub-step with gravity, so a braked car on a slope does not creep.
	tbChassisMotion motion;
	motion.center = chassis->center;
	motion.invMass = chassis->invMass;
	motion.invI = chassis->invWorldInertia;
	tbVec3 acceleration = tbMulAdd( tbMulSV( chassis->gravityScale, world->def.gravity ), chassis->invMass, chassis->force );
	motion.v = tbMulAdd( chassis->linearVelocity, dt, acceleration );
	motion.w = tbMulAdd( chassis->angularVelocity, dt, tbMulMV( chassis->invWorldInertia, chassis->torque ) );
	motion.linearImpulse = tb_vec3_zero;
	motion.angularImpulse = tb_vec3_zero;
	for ( int iteration = 0; iteration < TB_VEHICLE_ITERATIONS; ++iteration )
	{
		for ( int w = 0; w < v->wheelCount; ++w )
		{
			const tbWheelDef* d = v->wheels + w;
			tbWheelState* s = v->states + w;
			tbWheelStep* ws = steps + w;
			float B = ws->brakeLimit;
			if ( s->inContact == false || ( ws->limitF <= 0.0f && ws->limitS <= 0.0f ) )
			{
				if ( B > 0.0f )
				{
					float old = ws->brakeImpulse;
					ws->brakeImpulse = tbClampFloat( old - s->angularVelocity * d->inertia, -B, B );
					s->angularVelocity += ( ws->brakeImpulse - old ) / d->inertia;
				}
				continue;
			}
			tbVec3 velocity = tbMotionRelativeVelocity( &motion, ws, s->contactPoint );
			float forward = tbDot( velocity, ws->f );
			float slip = forward - s->angularVelocity * d->radius;
			float wheelK = d->radius * d->radius / d->inertia;
			// Longitudinal: with a brake, first try holding the wheel (the brake stops its spin, the
			// tyre stops the road under it: the chassis alone takes the tyre's impulse). A wheel is
			// light against the car (1 kg m^2 on a 0.35 m radius is 8 kg at the rim), so solving
			// the brake and the tyre one after the other would move the car by a few per cent an
			// iteration. Past the brake's torque it turns, and the tyre drives the slip to zero
			// with the saturated brake in it.
			float dF;
			if ( B > 0.0f )
			{
				dF = -forward / ws->Kf;
				float brake = ws->brakeImpulse + dF * d->radius - s->angularVelocity * d->inertia;
				if ( tbAbsFloat( brake ) > B )
				{
					float dB = tbClampFloat( brake, -B, B ) - ws->brakeImpulse;
					dF = ( dB * d->radius / d->inertia - slip ) / ( ws->Kf + wheelK );
				}
			}
			else
			{
				dF = -slip / ( ws->Kf + wheelK );
			}
			float impulseF = ws->impulseF + dF;
			// Softened by TB_TYRE_SOFTNESS (constraint force mixing): wheels side by side on a rigid
			// chassis are redundant across the car, and rigid rows solved a few times from zero
			// would leave the first wheel with most of the force and its neighbour pushing back.
			// The soft row shares it out (least squares) and leaves a slip of softness times the
			// impulse: for 2 kN on a 1200 kg car at 60 Hz, under a centimetre a second.
			float softness = TB_TYRE_SOFTNESS * ws->Ks;
			float impulseS = ws->impulseS - ( tbDot( velocity, ws->s ) + softness * ws->impulseS ) / ( ws->Ks + softness );
			// The friction ellipse.
			float ef = ws->limitF > 0.0f ? impulseF / ws->limitF : 0.0f;
			float es = ws->limitS > 0.0f ? impulseS / ws->limitS : 0.0f;
			impulseF = ws->limitF > 0.0f ? impulseF : 0.0f;
			impulseS = ws->limitS > 0.0f ? impulseS : 0.0f;
			float e = ef * ef + es * es;
			if ( e > 1.0f )
			{
				float scale = 1.0f / sqrtf( e );
				impulseF *= scale;
				impulseS *= scale;
			}
			dF = impulseF - ws->impulseF;
			float dS = impulseS - ws->impulseS;
			ws->impulseF = impulseF;
			ws->impulseS = impulseS;
			tbVec3 impulse = tbAdd( tbMulSV( dF, ws->f ), tbMulSV( dS, ws->s ) );
			tbMotionApplyImpulse( &motion, impulse, s->contactPoint );
			if ( ws->ground != NULL )
			{
				tbApplyForceAt( ws->ground, tbMulSV( -1.0f / dt, impulse ), s->contactPoint );
			}
			// The ground pushing the tyre forwards slows a forward spin; the brake holds the wheel
			// against it when it can (its spin relative to the chassis back to zero).
			float dB = 0.0f;
			if ( B > 0.0f )
			{
				float brake = tbClampFloat( ws->brakeImpulse + dF * d->radius - s->angularVelocity * d->inertia, -B, B );
				dB = brake - ws->brakeImpulse;
				ws->brakeImpulse = brake;
			}
			s->angularVelocity += ( dB - dF * d->radius ) / d->inertia;
		}
	}
	tbApplyForceAt( chassis, tbMulSV( 1.0f / dt, motion.linearImpulse ), chassis->center );
	chassis->torque = tbMulAdd( chassis->torque, 1.0f / dt, motion.angularImpulse );

	for ( int w = 0; w < v->wheelCount; ++w )
	{
		tbWheelState* s = v->states + w;
		s->longitudinalForce = steps[w].impulseF / dt;
		s->lateralForce = steps[w].impulseS / dt;
		float angle = s->angle + s->angularVelocity * dt;
		angle = fmodf( angle, 2.0f * TB_PI );
		s->angle = angle < 0.0f ? angle + 2.0f * TB_PI : angle;
		if ( steps[w].ground != NULL )
		{
			tbWakeBody( world, steps[w].ground );
		}
	}
}

void tbUpdateVehicles( tbWorld* world, float dt )
{
	for ( int i = 0; i < world->vehicles.count; ++i )
	{
		if ( world->vehicles.data[i].id >= 0 )
		{
			tbUpdateVehicle( world, world->vehicles.data + i, dt );
		}
	}
}
