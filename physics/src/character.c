// Tumble physics: the character controller (move-and-slide with shape casts).
// SPDX-License-Identifier: MIT
//
// Behaviour follows Jolt's CharacterVirtual: the character is not simulated, it is moved by casts
// of its capsule, and a kinematic body follows it so the rest of the world feels it. Each move:
// carry by the ground's velocity, then walk the remaining displacement in up to
// TB_SLIDE_ITERATIONS straight casts, each stopping TB_CHARACTER_SKIN short of what it hits and
// sliding the rest along the surface (a walkable surface as it is, a wall or steep slope as a
// vertical plane, so it is never climbed); a blocking hit low enough tries a step up (cast up,
// forward, down onto walkable ground). Last, a probe down finds the ground and snaps onto it.
#include "core.h"

#include "tumble/tumble.h"

#include <string.h>

/// Gap kept between the capsule and what it touches, m: casts start outside every surface, so
/// a touching start (fraction 0 at the next cast) means a real obstacle, not rounding.
#define TB_CHARACTER_SKIN 0.005f
/// Casts (and slides) per move.
#define TB_SLIDE_ITERATIONS 4
/// How far above the feet (m) a contact at the start of a cast still counts as under them.
#define TB_STEP_TOLERANCE 0.02f
/// How fast a push dies away on the ground (the feet's friction), m/s^2.
#define TB_PUSH_DECELERATION 10.0f
/// Ground probe below the feet while airborne or jumping, m.
#define TB_GROUND_PROBE 0.02f

tbCharacterDef tbDefaultCharacterDef( void )
{
	tbCharacterDef def;
	memset( &def, 0, sizeof( def ) );
	def.radius = 0.3f;
	def.height = 1.8f;
	def.crouchHeight = 1.0f;
	def.stepHeight = 0.3f;
	def.maxSlope = 0.25f * TB_PI;
	def.jumpSpeed = 5.0f;
	def.maxPushForce = 500.0f;
	def.mass = 70.0f;
	def.filter = tbDefaultQueryFilter();
	def.categoryBits = 1;
	def.internalValue = TB_SECRET_COOKIE;
	return def;
}

// The capsule's segment ends about its centre for a height.
static void tbCapsuleSegment( float radius, float height, tbVec3 points[2] )
{
	float half = 0.5f * height - radius;
	points[0] = tbMakeVec3( 0.0f, 0.0f, -half );
	points[1] = tbMakeVec3( 0.0f, 0.0f, half );
}

static tbVec3 tbCenterOf( const tbCharacter* c, tbVec3 feet )
{
	return tbMakeVec3( feet.x, feet.y, feet.z + 0.5f * c->height );
}

// The closest hit of a cast that counts for the character: not its own body, not a sensor, and not
// a surface it starts touching while moving away from it.
typedef struct tbCharacterHit
{
	tbBodyId self;
	tbVec3 direction;
	tbVec3 feet;
	tbRayResult best;
} tbCharacterHit;

// One-way bodies (tbBody_SetOneWay) hold the character as they hold bodies: only a surface facing
// their one-way side (within 60 degrees), and, for a capsule that starts in contact, only at its
// feet: one that a platform cuts through higher up is passing through it.
static bool tbPassesOneWay( const tbCharacterHit* h, tbBodyId body, tbVec3 point, tbVec3 normal, float fraction )
{
	tbVec3 side = tbBody_GetOneWay( body );
	if ( tbLengthSquared( side ) == 0.0f )
	{
		return false;
	}
	return tbDot( normal, side ) < 0.5f || ( fraction == 0.0f && tbDot( tbSub( point, h->feet ), side ) > TB_STEP_TOLERANCE );
}

static float tbKeepCharacterHit( tbShapeId shapeId, tbVec3 point, tbVec3 normal, float fraction, void* context )
{
	tbCharacterHit* h = context;
	tbBodyId body = tbShape_GetBody( shapeId );
	if ( TB_ID_EQUALS( body, h->self ) || tbShape_IsSensor( shapeId ) ||
		 ( fraction == 0.0f && tbDot( normal, h->direction ) >= 0.0f ) || tbPassesOneWay( h, body, point, normal, fraction ) )
	{
		return 1.0f;
	}
	if ( h->best.hit && fraction >= h->best.fraction )
	{
		return h->best.fraction;
	}
	h->best = ( tbRayResult ){ shapeId, body, point, normal, fraction, true };
	return fraction;
}

// Sweep the capsule (of this height, feet at feet) along translation: returns how much of it is
// free, stopping TB_CHARACTER_SKIN short of the first hit, and that hit in *hit (hit->hit false
// when nothing is within the translation and the skin). The cast reaches a skin further than asked,
// so an obstacle right at the end is kept a skin away too.
static float tbSweepCapsule( const tbCharacter* c, float height, tbVec3 feet, tbVec3 translation, tbRayResult* hit )
{
	float length = tbLength( translation );
	memset( hit, 0, sizeof( *hit ) );
	if ( length < 1.0e-9f )
	{
		return 1.0f;
	}
	tbVec3 reach = tbMulSV( 1.0f + TB_CHARACTER_SKIN / length, translation );
	tbVec3 segment[2];
	tbCapsuleSegment( c->def.radius, height, segment );
	tbShapeProxy proxy = { .points = segment, .count = 2, .radius = c->def.radius };
	tbTransform xf = { { feet.x, feet.y, feet.z + 0.5f * height }, tb_quatIdentity };
	tbCharacterHit h;
	memset( &h, 0, sizeof( h ) );
	h.self = c->bodyId;
	h.direction = translation;
	h.feet = feet;
	tbWorld_CastShape( tbBody_GetWorld( c->bodyId ), &proxy, xf, reach, c->def.filter, tbKeepCharacterHit, &h );
	*hit = h.best;
	if ( h.best.hit == false )
	{
		return 1.0f;
	}
	float free = h.best.fraction * ( length + TB_CHARACTER_SKIN ) - TB_CHARACTER_SKIN;
	return tbClampFloat( free / length, 0.0f, 1.0f );
}

static bool tbIsWalkable( const tbCharacter* c, tbVec3 normal )
{
	return normal.z >= cosf( c->def.maxSlope );
}

// Probe down by depth: on walkable ground (and not rising), stand on it (the feet moved down onto
// it) and remember it; else in the air. Returns the feet.
static tbVec3 tbFindGround( tbCharacter* c, tbVec3 feet, float depth )
{
	tbVec3 probe = tbMakeVec3( 0.0f, 0.0f, -depth );
	tbRayResult ground;
	float free = tbSweepCapsule( c, c->height, feet, probe, &ground );
	if ( ground.hit && tbIsWalkable( c, ground.normal ) == false )
	{
		// The round bottom rests on an edge (walking off a step): standing all the same when there
		// is walkable ground right below the feet, within the probe and a radius.
		tbVec3 below = tbMakeVec3( 0.0f, 0.0f, -( depth + c->def.radius ) );
		tbRayResult floor = tbWorld_CastRayClosest( tbBody_GetWorld( c->bodyId ), feet, below, c->def.filter );
		if ( floor.hit && TB_ID_EQUALS( floor.bodyId, c->bodyId ) == false && tbIsWalkable( c, floor.normal ) )
		{
			ground.normal = floor.normal;
		}
	}
	c->onGround = ground.hit && tbIsWalkable( c, ground.normal ) && c->velocity.z <= 0.0f;
	if ( c->onGround )
	{
		feet = tbMulAdd( feet, free, probe );
		c->groundNormal = ground.normal;
		c->groundPoint = ground.point;
		c->groundBody = ground.bodyId;
		c->velocity.z = 0.0f;
	}
	else
	{
		c->groundNormal = tb_vec3_zero;
		c->groundBody = tb_nullBodyId;
	}
	return feet;
}

// Remember the ground point that the step brings under the feet: where they are now, less the
// ground's motion over the step that they were sent ahead by (riding).
static void tbAnchorToGround( tbCharacter* c, tbVec3 prediction )
{
	if ( c->onGround )
	{
		c->groundAnchor = tbInvTransformPoint( tbBody_GetTransform( c->groundBody ), tbSub( c->position, prediction ) );
	}
}

tbResult tbCreateCharacter( tbWorldId worldId, const tbCharacterDef* def, tbCharacter* character )
{
	if ( def == NULL || character == NULL || def->internalValue != TB_SECRET_COOKIE ||
		 !tbIsBoundedVec3( def->position, TB_MAX_POSITION ) || !tbIsInRange( def->radius, TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE ) ||
		 !tbIsInRange( def->height, 2.0f * def->radius + TB_MIN_SHAPE_SIZE, TB_MAX_SHAPE_SIZE ) ||
		 !tbIsInRange( def->crouchHeight, 2.0f * def->radius + TB_MIN_SHAPE_SIZE, def->height ) ||
		 !tbIsInRange( def->stepHeight, 0.0f, def->height ) || !tbIsInRange( def->maxSlope, 0.0f, 0.5f * TB_PI ) ||
		 !tbIsInRange( def->jumpSpeed, 0.0f, TB_MAX_SPEED ) || !tbIsInRange( def->maxPushForce, 0.0f, TB_MAX_FORCE ) ||
		 !tbIsInRange( def->mass, 0.0f, TB_MAX_MASS ) )
	{
		return tbResult_invalidArgument;
	}
	memset( character, 0, sizeof( *character ) );
	character->def = *def;
	character->height = def->height;
	character->position = def->position;

	tbBodyDef bd = tbDefaultBodyDef();
	bd.type = tbBody_kinematic;
	bd.position = tbCenterOf( character, def->position );
	bd.name = def->name;
	bd.enableSleep = false;
	tbResult r = tbCreateBodyChecked( worldId, &bd, &character->bodyId );
	if ( r != tbResult_ok )
	{
		return r;
	}
	tbShapeDef sd = tbDefaultShapeDef();
	sd.categoryBits = def->categoryBits;
	sd.maskBits = def->filter.maskBits;
	tbVec3 segment[2];
	tbCapsuleSegment( def->radius, def->height, segment );
	tbCapsule capsule = { segment[0], segment[1], def->radius };
	tbCreateCapsuleShape( character->bodyId, &sd, &capsule, &r );
	if ( r != tbResult_ok )
	{
		tbDestroyBody( character->bodyId );
		character->bodyId = tb_nullBodyId;
		return r;
	}
	// Standing on something from the start: the first move is carried by it already.
	character->position = tbFindGround( character, def->position, TB_GROUND_PROBE );
	tbAnchorToGround( character, tb_vec3_zero );
	tbBody_SetTransform( character->bodyId, tbCenterOf( character, character->position ), tb_quatIdentity );
	return r;
}

void tbDestroyCharacter( tbCharacter* character )
{
	if ( character != NULL && tbBody_IsValid( character->bodyId ) )
	{
		tbDestroyBody( character->bodyId );
	}
	if ( character != NULL )
	{
		character->bodyId = tb_nullBodyId;
	}
}

void tbCharacter_Jump( tbCharacter* character )
{
	if ( character != NULL )
	{
		character->jumpRequested = true;
	}
}

/// Contacts of the character's body read per move for pushes.
#define TB_CHARACTER_MAX_PUSHERS 16

// What bodies that ran into the character's body gave it in the last step: the solver stopped them
// with impulses at their contacts (the body is kinematic and does not move); the character takes
// the opposite impulse over its mass, horizontally.
static tbVec3 tbPushedVelocity( const tbCharacter* c )
{
	if ( c->def.mass <= 0.0f )
	{
		return tb_vec3_zero;
	}
	tbContactData contacts[TB_CHARACTER_MAX_PUSHERS];
	int count = tbBody_GetContactData( c->bodyId, contacts, TB_CHARACTER_MAX_PUSHERS );
	tbVec3 impulse = tb_vec3_zero;
	for ( int i = 0; i < count && i < TB_CHARACTER_MAX_PUSHERS; ++i )
	{
		const tbManifold* m = &contacts[i].manifold;
		bool selfIsA = TB_ID_EQUALS( tbShape_GetBody( contacts[i].shapeA ), c->bodyId );
		tbBodyId other = tbShape_GetBody( selfIsA ? contacts[i].shapeB : contacts[i].shapeA );
		if ( tbBody_GetType( other ) != tbBody_dynamic )
		{
			continue;
		}
		float j = 0.0f;
		for ( int p = 0; p < m->pointCount; ++p )
		{
			j += m->points[p].normalImpulse;
		}
		// The normal points from A to B and pushes B along it: the character gets its part.
		impulse = tbMulAdd( impulse, selfIsA ? -j : j, m->normal );
	}
	return tbMulSV( 1.0f / c->def.mass, tbMakeVec3( impulse.x, impulse.y, 0.0f ) );
}

// Give a dynamic body in the way what it needs to move out of the character's way at the
// character's speed, at most maxPushForce over dt, at the hit point.
static void tbPushBody( tbCharacter* c, const tbRayResult* hit, tbVec3 velocity, float dt )
{
	if ( tbBody_GetType( hit->bodyId ) != tbBody_dynamic )
	{
		return;
	}
	tbVec3 into = tbNeg( hit->normal );
	float closing = tbDot( tbSub( velocity, tbBody_GetPointVelocity( hit->bodyId, hit->point ) ), into );
	if ( closing <= 0.0f )
	{
		return;
	}
	float impulse = tbMinFloat( tbBody_GetMass( hit->bodyId ) * closing, c->def.maxPushForce * dt );
	tbBody_ApplyLinearImpulse( hit->bodyId, tbMulSV( impulse, into ), hit->point, true );
	c->pushCount += 1;
}

// Up by at most stepHeight, forward by the horizontal part of move, down onto walkable ground:
// the feet there, or false when the step is too high, too narrow, or not walkable on top.
static bool tbTryStep( const tbCharacter* c, tbVec3 feet, tbVec3 move, tbVec3 edge, tbVec3* stepped )
{
	tbVec3 forward = tbMakeVec3( move.x, move.y, 0.0f );
	if ( tbLengthSquared( forward ) < 1.0e-10f || c->def.stepHeight <= 0.0f )
	{
		return false;
	}
	tbVec3 up = tbMakeVec3( 0.0f, 0.0f, c->def.stepHeight );
	tbRayResult hit;
	tbVec3 raised = tbMulAdd( feet, tbSweepCapsule( c, c->height, feet, up, &hit ), up );
	// Far enough forward that the capsule's round bottom is over the step's edge and comes down
	// on its top, not on the edge: the axis past the edge point (at most a radius on).
	float over = tbLength( tbMakeVec3( edge.x - feet.x, edge.y - feet.y, 0.0f ) ) + TB_CHARACTER_SKIN;
	float length = tbLength( forward );
	forward = tbMulSV( tbMaxFloat( length, tbMinFloat( over, c->def.radius ) ) / length, forward );
	float along = tbSweepCapsule( c, c->height, raised, forward, &hit );
	if ( along * tbLength( forward ) < 1.0e-3f )
	{
		return false;
	}
	tbVec3 ahead = tbMulAdd( raised, along, forward );
	tbVec3 down = tbMakeVec3( 0.0f, 0.0f, feet.z - raised.z - TB_GROUND_PROBE );
	float fall = tbSweepCapsule( c, c->height, ahead, down, &hit );
	if ( hit.hit == false || tbIsWalkable( c, hit.normal ) == false )
	{
		return false;
	}
	*stepped = tbMulAdd( ahead, fall, down );
	return stepped->z > feet.z + 1.0e-4f;
}

// Walk the displacement: straight casts, sliding along what they hit.
static tbVec3 tbMoveAndSlide( tbCharacter* c, tbVec3 feet, tbVec3 move, float dt )
{
	tbVec3 velocity = tbMulSV( 1.0f / dt, move );
	for ( int i = 0; i < TB_SLIDE_ITERATIONS && tbLengthSquared( move ) > 1.0e-12f; ++i )
	{
		tbRayResult hit;
		float free = tbSweepCapsule( c, c->height, feet, move, &hit );
		feet = tbMulAdd( feet, free, move );
		if ( hit.hit == false )
		{
			break;
		}
		move = tbMulSV( 1.0f - free, move );
		tbPushBody( c, &hit, velocity, dt );
		tbVec3 n = hit.normal;
		if ( tbIsWalkable( c, n ) == false )
		{
			// Low enough to be a step: climb it. Else a wall or a steep slope: a vertical plane,
			// so sliding never lifts the character up it (falling still slides down it).
			float heightAboveFeet = hit.point.z - feet.z;
			tbVec3 stepped;
			if ( c->onGround && heightAboveFeet <= c->def.stepHeight && tbTryStep( c, feet, move, hit.point, &stepped ) )
			{
				feet = stepped;
				move = tb_vec3_zero;
				break;
			}
			if ( n.z > -0.1f && tbAbsFloat( n.z ) < 0.999f )
			{
				n = tbNormalize( tbMakeVec3( n.x, n.y, 0.0f ) );
			}
		}
		float into = tbDot( move, n );
		if ( into < 0.0f )
		{
			move = tbMulSub( move, into, n );
		}
		if ( hit.normal.z < -0.5f && c->velocity.z > 0.0f )
		{
			c->velocity.z = 0.0f; // head against a ceiling
		}
	}
	return feet;
}

tbResult tbCharacter_Move( tbCharacter* c, tbVec3 desiredVelocity, float dt )
{
	if ( c == NULL || tbBody_IsValid( c->bodyId ) == false )
	{
		return tbResult_invalidId;
	}
	if ( !tbIsBoundedVec3( desiredVelocity, TB_MAX_SPEED ) || !tbIsValidFloat( dt ) || dt <= 0.0f || dt > 1.0f )
	{
		return tbResult_invalidArgument;
	}
	tbWorldId worldId = tbBody_GetWorld( c->bodyId );
	if ( tbWorld_IsLocked( worldId ) )
	{
		return tbResult_worldLocked;
	}
	tbVec3 feet = c->position;
	c->pushCount = 0;

	// Carried by the ground, without a cast (the ground moves the same way in the step): ahead by
	// its point's velocity over the coming step, so character and ground arrive together, plus
	// what the last prediction missed (the ground sped up, slowed or turned in the last step):
	// where the ground point under the feet went, less where the feet were sent.
	bool wasOnGround = c->onGround && tbBody_IsValid( c->groundBody );
	tbVec3 prediction = tb_vec3_zero;
	c->groundVelocity = tb_vec3_zero;
	if ( wasOnGround && tbBody_GetType( c->groundBody ) != tbBody_static )
	{
		tbTransform xf = tbBody_GetTransform( c->groundBody );
		tbVec3 missed = tbSub( tbTransformPoint( xf, c->groundAnchor ), feet );
		c->groundVelocity = tbBody_GetPointVelocity( c->groundBody, tbTransformPoint( xf, c->groundAnchor ) );
		prediction = tbMulSV( dt, c->groundVelocity );
		feet = tbAdd( feet, tbAdd( missed, prediction ) );
	}

	// Walking on the ground follows its slope; in the air gravity acts and the walk steers. Bodies
	// running into it push it along.
	c->pushVelocity = tbAdd( c->pushVelocity, tbPushedVelocity( c ) );
	float pushSpeed = tbLength( c->pushVelocity );
	if ( wasOnGround && pushSpeed > 0.0f )
	{
		c->pushVelocity = tbMulSV( tbMaxFloat( 0.0f, pushSpeed - TB_PUSH_DECELERATION * dt ) / pushSpeed, c->pushVelocity );
	}
	tbVec3 walk = tbMakeVec3( desiredVelocity.x + c->pushVelocity.x, desiredVelocity.y + c->pushVelocity.y, 0.0f );
	bool jumping = false;
	if ( wasOnGround )
	{
		c->velocity.z = 0.0f;
		if ( c->jumpRequested )
		{
			c->velocity.z = c->def.jumpSpeed;
			jumping = true;
		}
		else
		{
			tbVec3 n = c->groundNormal;
			walk = tbMulSub( walk, tbDot( walk, n ), n );
		}
	}
	else
	{
		c->velocity.z += tbWorld_GetGravity( worldId ).z * dt;
	}
	c->jumpRequested = false;
	tbVec3 move = tbMulSV( dt, tbMakeVec3( walk.x, walk.y, walk.z + c->velocity.z ) );
	tbVec3 start = feet;
	feet = tbMoveAndSlide( c, feet, move, dt );

	// Ground: a short probe, or, walking on ground and not jumping, far enough to snap down a step
	// or follow a slope down.
	bool snap = wasOnGround && jumping == false;
	feet = tbFindGround( c, feet, snap ? c->def.stepHeight + TB_GROUND_PROBE : TB_GROUND_PROBE );
	c->velocity.x = ( feet.x - start.x ) / dt;
	c->velocity.y = ( feet.y - start.y ) / dt;
	c->position = feet;
	tbAnchorToGround( c, prediction );

	// The body arrives there during the step (kinematic bodies move by their velocity).
	tbVec3 target = tbCenterOf( c, feet );
	tbBody_SetLinearVelocity( c->bodyId, tbMulSV( 1.0f / dt, tbSub( target, tbBody_GetPosition( c->bodyId ) ) ) );
	return tbResult_ok;
}

bool tbCharacter_SetCrouched( tbCharacter* c, bool crouched )
{
	if ( c == NULL || tbBody_IsValid( c->bodyId ) == false || tbWorld_IsLocked( tbBody_GetWorld( c->bodyId ) ) )
	{
		return false;
	}
	if ( c->crouched == crouched )
	{
		return true;
	}
	float height = crouched ? c->def.crouchHeight : c->def.height;
	if ( crouched == false )
	{
		// Room to stand: the standing capsule, cast a hair upwards from the feet, hits nothing.
		tbRayResult hit;
		tbSweepCapsule( c, height, tbMakeVec3( c->position.x, c->position.y, c->position.z + TB_CHARACTER_SKIN ),
				 tbMakeVec3( 0.0f, 0.0f, TB_CHARACTER_SKIN ), &hit );
		if ( hit.hit )
		{
			return false;
		}
	}
	tbShapeId old;
	if ( tbBody_GetShapes( c->bodyId, &old, 1 ) == 1 )
	{
		tbDestroyShape( old, false );
	}
	c->height = height;
	c->crouched = crouched;
	tbShapeDef sd = tbDefaultShapeDef();
	sd.categoryBits = c->def.categoryBits;
	sd.maskBits = c->def.filter.maskBits;
	tbVec3 segment[2];
	tbCapsuleSegment( c->def.radius, height, segment );
	tbCapsule capsule = { segment[0], segment[1], c->def.radius };
	tbCreateCapsuleShape( c->bodyId, &sd, &capsule, NULL );
	tbBody_SetTransform( c->bodyId, tbCenterOf( c, c->position ), tb_quatIdentity );
	return true;
}
