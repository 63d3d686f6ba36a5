// Tumble Lua bindings: helpers shared by the binding files (not part of the host API).
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble_lua.h"

#include <lauxlib.h>

// Type registration ------------------------------------------------------------------------------

/// A readable (get) and/or settable (set) field of a userdata type. Getters are called with the
/// stack (self, key), setters with (self, key, value); both run in the metamethod's own frame, so
/// luaL_error reports the script line that touched the field.
typedef struct tbLuaProperty
{
	const char* name;
	lua_CFunction get;
	lua_CFunction set;
} tbLuaProperty;

/// The methods and properties that only some objects of a type have (one joint type's).
typedef struct tbLuaKind
{
	const luaL_Reg* methods;		 ///< NULL-terminated, may be NULL
	const tbLuaProperty* properties; ///< NULL-terminated, may be NULL
} tbLuaKind;

/// For a type whose objects do not all have the same members (Joint: each joint type has its own):
/// the kinds, and how to tell which one an object is.
typedef struct tbLuaKinds
{
	int count;
	/// The members of kind i, 0 <= i < count.
	const tbLuaKind* ( *get )( int kind );
	/// The kind of the object at index 1 (a userdata of the type).
	int ( *of )( lua_State* L );
	/// Raises for a property that only other kinds have: the stack is (self, key) when it is read
	/// and (self, key, value) when it is set. (A method of another kind is returned all the same:
	/// like every method, it checks the object it is called on.)
	void ( *refuse )( lua_State* L, bool set );
} tbLuaKinds;

/// Everything the shared helper needs to build a type's metatable.
typedef struct tbLuaType
{
	const char* name;				 ///< shown to users ("Body"): the metatable's __name; registry key "tumble.<name>"
	const luaL_Reg* methods;		 ///< NULL-terminated
	const tbLuaProperty* properties; ///< NULL-terminated, may be NULL
	lua_CFunction gc;				 ///< may be NULL
	lua_CFunction tostring;			 ///< may be NULL
	const tbLuaKinds* kinds;		 ///< NULL when every object has the same members
} tbLuaType;

/// Create the metatable in the registry under type->name (once per lua_State): __index serves
/// methods first, then property getters, then (with kinds) the methods and getters of the object's
/// kind; __newindex calls property setters (the type's, then the kind's); unknown names are errors
/// (a typo such as body.frition is reported, not silently ignored).
void tbLua_RegisterType( lua_State* L, const tbLuaType* type );

/// Metatable registry keys ("tumble.World", ...). One object each, so the address is a key too:
/// tbLua_TestUdata finds the metatable by address (lua_rawgetp) rather than by name.
extern const char tb_luaWorldType[];
extern const char tb_luaBodyType[];
extern const char tb_luaJointType[];
extern const char tb_luaMoverType[];
#define TB_LUA_WORLD tb_luaWorldType
#define TB_LUA_BODY tb_luaBodyType
#define TB_LUA_JOINT tb_luaJointType
#define TB_LUA_MOVER tb_luaMoverType

/// luaL_testudata for the four types above (typeName must be one of TB_LUA_*): the userdata at
/// index if its metatable is that type's, else NULL. A registry lookup by address instead of by
/// string: every method call checks its self argument, so this is on the hot path of update().
void* tbLua_TestUdata( lua_State* L, int index, const char* typeName );

// Messages ---------------------------------------------------------------------------------------

/// A short description of the value at index for "got ..." in messages: 3, 'abc', {1, 0, 1}, nil,
/// a function. Writes into buffer (truncated to size) and returns it.
const char* tbLua_Describe( lua_State* L, int index, char* buffer, size_t size );

// Reading definition tables ----------------------------------------------------------------------
// Every field of every constructor table goes through these, so all messages share one form:
//   file:line: add_box: size must be 3 positive numbers, got {1, 0, 1}
// Each reader returns false when the field is absent (nil) and leaves *value untouched.

/// Range checks for numbers. Every number must be finite (NaN and inf are always refused).
typedef enum tbLuaCheck
{
	tbCheck_finite = 0,	 ///< any finite number
	tbCheck_positive,	 ///< > 0
	tbCheck_nonNegative, ///< >= 0
	tbCheck_unit,		 ///< in [0, 1]
	tbCheck_nonZero,	 ///< vectors only: finite and not (nearly) zero length
	// The core's supported ranges (collision.h, joints.h), said in the error:
	tbCheck_material,	  ///< friction, restitution: [0, TB_MAX_FRICTION]
	tbCheck_damping,	  ///< [0, TB_MAX_DAMPING], 1/s
	tbCheck_hertz,		  ///< [0, TB_MAX_HERTZ], Hz (0: a spring that is off)
	tbCheck_stiffness,	  ///< (0, TB_MAX_HERTZ], Hz: a soft constraint's stiffness
	tbCheck_angularSpeed, ///< [-TB_MAX_ANGULAR_SPEED, TB_MAX_ANGULAR_SPEED], rad/s
	tbCheck_gravity,	  ///< [-TB_MAX_GRAVITY, TB_MAX_GRAVITY] (each component), m/s^2
} tbLuaCheck;

#define TB_LUA_MAX_DEF_KEYS 48

typedef struct tbLuaDef
{
	lua_State* L;
	int table;							   ///< absolute stack index of the table
	const char* fn;						   ///< function name used in messages
	const char* prefix;					   ///< field path prefix for nested tables ("shapes[2].") or ""
	const char* keys[TB_LUA_MAX_DEF_KEYS]; ///< every key looked at, for the unknown-field check
	int keyCount;
} tbLuaDef;

/// Start reading the table at index (raises "fn: expected a table of fields, got ..." otherwise).
void tbDef_Begin( tbLuaDef* def, lua_State* L, int index, const char* fn, const char* prefix );
/// Declare a key as known without reading it.
void tbDef_Known( tbLuaDef* def, const char* key );
bool tbDef_Number( tbLuaDef* def, const char* key, float* value, tbLuaCheck check );
bool tbDef_Integer( tbLuaDef* def, const char* key, lua_Integer* value, lua_Integer min, lua_Integer max );
bool tbDef_Bool( tbLuaDef* def, const char* key, bool* value );
/// Strings are valid while the table is on the stack.
bool tbDef_String( tbLuaDef* def, const char* key, const char** value, size_t maxLength );
/// names is NULL-terminated; *value is the index of the name. Unknown: "invalid <what> 'x'".
bool tbDef_Enum( tbLuaDef* def, const char* key, const char* const* names, int* value, const char* what );
bool tbDef_Vec3( tbLuaDef* def, const char* key, tbVec3* value, tbLuaCheck check );
/// A quaternion {w, x, y, z}; normalised; a (nearly) zero quaternion is refused.
bool tbDef_Quat( tbLuaDef* def, const char* key, tbQuat* value );
/// Two numbers {lo, hi} with lo <= hi.
bool tbDef_Range( tbLuaDef* def, const char* key, float* lo, float* hi );
/// A table of exactly count numbers that pass check ("must be <count> finite numbers").
bool tbDef_Floats( tbLuaDef* def, const char* key, float* values, int count, tbLuaCheck check );
/// Raise "fn: <prefix>key must be <expected>, got <the field's value>" (for checks a reader cannot do).
int tbDef_FieldError( tbLuaDef* def, const char* key, const char* expected );
/// The <expected> of an input limit (collision.h): "a number in (0, LIMIT] (UNIT)" for a count of 1,
/// else "3 finite numbers within +-LIMIT (UNIT)". Writes into buffer and returns it.
const char* tbLua_LimitText( char* buffer, size_t size, int count, float limit, const char* unit );
/// Pushes the table when present (caller pops).
bool tbDef_Table( tbLuaDef* def, const char* key );
/// Pushes the function when present (caller pops).
bool tbDef_Function( tbLuaDef* def, const char* key );
/// Any value the caller checks itself: pushes it when not nil (caller pops).
bool tbDef_Value( tbLuaDef* def, const char* key );
/// Raise "fn: unknown field 'x'" for a string key that no reader looked at.
void tbDef_Finish( tbLuaDef* def );

// Reading arguments ------------------------------------------------------------------------------

/// A number argument: "fn: <what> must be a positive number, got ...".
float tbLua_CheckNumber( lua_State* L, int index, const char* fn, const char* what, tbLuaCheck check );
/// A vector argument given as a table {x, y, z}.
tbVec3 tbLua_CheckVec3( lua_State* L, int index, const char* fn, const char* what, tbLuaCheck check );
/// A vector given either as a table at index or as three numbers index, index+1, index+2.
tbVec3 tbLua_CheckVec3Args( lua_State* L, int index, const char* fn, const char* what );
/// A quaternion given either as a table {w, x, y, z} at index or as four numbers; normalised.
tbQuat tbLua_CheckQuatArgs( lua_State* L, int index, const char* fn, const char* what );
/// Reads a table of exactly count numbers passing check at index; false (nothing raised) otherwise.
bool tbLua_ReadFloats( lua_State* L, int index, float* values, int count, tbLuaCheck check );
/// A string argument from a NULL-terminated list: "invalid <what> 'x'".
int tbLua_CheckEnum( lua_State* L, int index, const char* const* names, const char* fn, const char* what );
bool tbLua_CheckBool( lua_State* L, int index, const char* fn, const char* what );

// Pushing results --------------------------------------------------------------------------------

/// Push x, y, z (three values).
void tbLua_PushVec3( lua_State* L, tbVec3 v );
/// Push w, x, y, z (four values).
void tbLua_PushQuat( lua_State* L, tbQuat q );
/// Push a new table {x, y, z}.
void tbLua_PushVec3Table( lua_State* L, tbVec3 v );
/// Push a new table {w, x, y, z}.
void tbLua_PushQuatTable( lua_State* L, tbQuat q );

// Enum names (indexed by the C enum values) ------------------------------------------------------

extern const char* const tb_solverNames[];	 ///< "baumgarte", "split", "soft", "global"
extern const char* const tb_globalMethodNames[]; ///< "gauss_seidel", "jacobi" (tbGlobalMethod)
extern const char* const tb_bodyTypeNames[]; ///< "static", "kinematic", "dynamic"
extern const char* const tb_mixRuleNames[];	 ///< "geometric_mean", "average", "minimum", "maximum", "multiply"
/// "contact_begin", "contact_end", "sensor_begin", "sensor_end", "joint_break"
extern const char* const tb_eventNames[];

// World and Body userdata ------------------------------------------------------------------------

/// The World userdata. User values: 1 = body cache (index1 -> Body), 2 = event handlers,
/// 3 = joint cache (index1 -> Joint), 4 = mover cache (index1 -> Mover).
typedef struct tbLuaWorld
{
	tbWorldId id;
	bool owned;		  ///< destroy the world with the userdata
	bool destroyed;	  ///< world:destroy() was called (or ownership moved away)
	bool dispatching; ///< event handlers are running: world:step is refused
	int owner;		  ///< the owner (tbLua_SetOwner) that made it; a mod may destroy only its own
	double time;	  ///< simulated seconds
	long long stepCount;
	/// While world:step runs the physics step: the stepping thread and the World's stack index in
	/// it, so callbacks called from inside the step (custom joint rows) can run Lua under
	/// lua_pcall. NULL outside a step.
	lua_State* stepL;
	int stepWorldIndex;
	/// Stack index (in stepL) of the first error raised by such a callback during this step, or 0.
	int stepError;
} tbLuaWorld;

/// The Body userdata. User value 1 = its World userdata, so the world outlives every handle.
typedef struct tbLuaBody
{
	tbBodyId id;
	tbLuaWorld* world;
} tbLuaBody;

/// The live world at index, or raises "fn: expected a World, got ..." / "attempt to use a destroyed World".
tbLuaWorld* tbLua_CheckWorld( lua_State* L, int index, const char* fn );
/// Raises "fn: the world is locked during a step" for a mutating call made during a step.
void tbLua_CheckUnlocked( lua_State* L, tbLuaWorld* world, const char* fn );
/// The live body at index, or raises "attempt to use a destroyed Body".
tbLuaBody* tbLua_CheckBody( lua_State* L, int index, const char* fn );
/// Forget the cached userdata of a destroyed body (world at worldIndex).
void tbLua_UncacheBody( lua_State* L, int worldIndex, tbBodyId bodyId );
/// Push the Body userdata for the body owning shapeId, or nil.
void tbLua_PushShapeBody( lua_State* L, int worldIndex, tbShapeId shapeId );

// Methods implemented by the per-type files and gathered into the World's method table.

int tbLuaWorld_AddBox( lua_State* L );
int tbLuaWorld_AddSphere( lua_State* L );
int tbLuaWorld_AddCapsule( lua_State* L );
int tbLuaWorld_AddHull( lua_State* L );
int tbLuaWorld_AddCylinder( lua_State* L );
int tbLuaWorld_AddCompound( lua_State* L );
/// world:add_mesh{...} (l_shape.c)
int tbLuaWorld_AddMesh( lua_State* L );
/// world:add_heightfield{...} (l_shape.c)
int tbLuaWorld_AddHeightfield( lua_State* L );
/// world:raycast, world:raycast_all, world:cast{...} (l_query.c)
int tbLuaWorld_RayCast( lua_State* L );
int tbLuaWorld_RayCastAll( lua_State* L );
int tbLuaWorld_Cast( lua_State* L );
/// world:explode{...} (l_gameplay.c)
int tbLuaWorld_Explode( lua_State* L );
/// world:character{...} (l_character.c)
int tbLuaWorld_Character( lua_State* L );
/// Register the Character type (called by luaopen_tumble).
void tbLua_OpenCharacter( lua_State* L );
/// world:vehicle{...} (l_vehicle.c)
int tbLuaWorld_Vehicle( lua_State* L );
/// Register the Vehicle type (called by luaopen_tumble).
void tbLua_OpenVehicle( lua_State* L );

/// Register the World and Body types (called by luaopen_tumble).
void tbLua_OpenWorld( lua_State* L );
void tbLua_OpenBody( lua_State* L );
void tbLua_OpenJoint( lua_State* L );
void tbLua_OpenMover( lua_State* L );
/// Create the state's view (once) and set tb.camera, tb.draw and tb.input on the module table at
/// the top of the stack (l_view.c).
void tbLua_OpenView( lua_State* L );
/// tb.world{...}
int tbLua_NewWorld( lua_State* L );

// Shapes (l_shape.c) -----------------------------------------------------------------------------

/// Geometry of one shape, read from Lua and ready to attach.
typedef struct tbLuaShapeDesc
{
	int kind; ///< 0 box, 1 sphere, 2 capsule, 3 hull
	tbVec3 halfExtents;
	tbTransform local;
	tbSphere sphere;
	tbCapsule capsule;
	tbCylinder cylinder;
	const tbHull* hull; ///< owned by a holder userdata left on the Lua stack (freed by the GC)
	float density, friction, restitution;
	bool hasDensity, hasFriction, hasRestitution;
} tbLuaShapeDesc;

extern const char* const tb_shapeKindNames[]; ///< "box", "sphere", "capsule", "hull", "cylinder"

/// Read one shape's geometry fields of the given kind from def. With placement, pos/rot place the
/// shape in the body frame and per-shape density/friction/restitution are read too. A hull is
/// built here and pushed on the stack inside a holder userdata whose __gc frees it, so a later
/// Lua error cannot leak it; the caller pops the holder after attaching (or lets the error unwind).
/// Returns the number of values pushed (0 or 1).
int tbLuaShape_Read( tbLuaDef* def, int kind, bool placement, tbLuaShapeDesc* desc );
/// Attach to a body; returns a null id and sets *result on failure.
tbShapeId tbLuaShape_Attach( tbBodyId bodyId, const tbShapeDef* shapeDef, const tbLuaShapeDesc* desc,
							 tbResult* result );
/// Register the hull holder type (called by luaopen_tumble).
void tbLua_OpenShape( lua_State* L );

// Joints (l_joint.c, l_joint_<type>.c) and movers (l_mover.c) ------------------------------------

/// User value slots of the World userdata used by the joint and mover caches.
#define TB_LUA_WORLD_JOINTS 3
#define TB_LUA_WORLD_MOVERS 4

/// The Joint userdata. User value 1 = its World userdata, 2 = the rows function of a custom joint.
typedef struct tbLuaJoint
{
	tbJointId id;
	tbLuaWorld* world;
	tbJointType type;
} tbLuaJoint;

/// The Mover userdata. User value 1 = its World userdata.
typedef struct tbLuaMover
{
	tbMoverId id;
	tbLuaWorld* world;
} tbLuaMover;

/// The live joint at index, or raises "attempt to use a destroyed Joint".
tbLuaJoint* tbLua_CheckJoint( lua_State* L, int index, const char* fn );

/// Pushes the fields of a joint_break event table for the event (the World at worldIndex).
void tbLua_PushJointBreakEvent( lua_State* L, int worldIndex, const tbJointBreakEvent* event );

/// The Lua side of a joint type: its constructor, world:<constructor>{...} (world:hinge{...}), and
/// its own properties and methods, served after those every joint has. One per type, in the type's
/// file (l_joint_<type>.c).
typedef struct tbLuaJointClass
{
	const char* constructor;
	lua_CFunction create;
	tbLuaKind members;
} tbLuaJointClass;

/// The class of a joint type (l_joint.c's table, indexed by tbJointType), NULL for an invalid type.
const tbLuaJointClass* tbLua_GetJointClass( tbJointType type );

int tbLuaWorld_Joint( lua_State* L );
int tbLuaWorld_Joints( lua_State* L );
int tbLuaWorld_Mover( lua_State* L );

// Snapshots (l_snapshot.c) -----------------------------------------------------------------------

int tbLuaWorld_Snapshot( lua_State* L );
int tbLuaWorld_Restore( lua_State* L );
/// Register the Snapshot type (called by luaopen_tumble).
void tbLua_OpenSnapshot( lua_State* L );

/// The owner code now running belongs to (tbLua_SetOwner; 0: the scene, or plain Lua).
int tbLua_GetOwner( lua_State* L );

/// Ask the host's guard (tbLuaHost.guard) about a call; returns when it allows it.
void tbLua_Guard( lua_State* L, tbLuaGuard what, const char* fn );

/// The World being stepped by world:step on this thread (NULL outside a step). Custom joint rows
/// find their Lua state through it: a joint restored from a snapshot may have outlived the Joint
/// userdata its callback was installed with.
tbLuaWorld* tbLua_GetSteppingWorld( void );
