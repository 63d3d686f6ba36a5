// Tumble Lua bindings: what the joint files share. l_joint.c holds the Joint type (handles, the
// members every joint has, the table of joint types) and the helpers below; each joint type has
// its own file, l_joint_<type>.c, with its constructor and its own properties and methods, and a
// tbLuaJointClass that l_joint.c's table points at.
// SPDX-License-Identifier: MIT
#pragma once

#include "l_common.h"

// Longest joint name the core keeps, in bytes (tbJointDef.name is copied up to 31 bytes).
#define TB_LUA_MAX_NAME 31
#define TB_LUA_PI 3.14159265358979f

/// Each joint type's Lua side, one in each l_joint_<type>.c, gathered in tb_luaJointClasses.
extern const tbLuaJointClass tb_luaDistanceJointClass;
extern const tbLuaJointClass tb_luaBallJointClass;
extern const tbLuaJointClass tb_luaHingeJointClass;
extern const tbLuaJointClass tb_luaConeJointClass;
extern const tbLuaJointClass tb_luaFixedJointClass;
extern const tbLuaJointClass tb_luaSliderJointClass;
extern const tbLuaJointClass tb_luaSixDofJointClass;
extern const tbLuaJointClass tb_luaMotorJointClass;
extern const tbLuaJointClass tb_luaMouseJointClass;
extern const tbLuaJointClass tb_luaCustomJointClass;
extern const tbLuaJointClass tb_luaWheelJointClass;

// Checks ------------------------------------------------------------------------------------------

/// The live joint at index 1 in an unlocked world (for setters and mutating methods).
tbLuaJoint* tbLuaJoint_CheckMutable( lua_State* L, const char* fn );
/// For a joint type's methods, which may be called on any joint (f(joint)): the joint at index 1
/// when it is of that type, else "fn: not available on a <type> joint".
tbLuaJoint* tbLuaJoint_CheckType( lua_State* L, const char* fn, tbJointType type, bool mutating );
/// Raises "fn: <the result>" unless result is ok.
void tbLuaJoint_CheckResult( lua_State* L, tbResult result, const char* fn );

// Properties --------------------------------------------------------------------------------------
// The bodies of the simple getters and setters: the joint is at index 1 and a new value at 3; fn
// names the property in messages ("Joint.angle"). A type's property table only holds the type's
// own accessors, so they do not check the joint's type.

int tbLuaJoint_GetFloat( lua_State* L, const char* fn, float ( *get )( tbJointId ) );
int tbLuaJoint_GetBool( lua_State* L, const char* fn, bool ( *get )( tbJointId ) );
/// A force or torque cap: FLT_MAX is pushed as math.huge.
int tbLuaJoint_GetCap( lua_State* L, const char* fn, float ( *get )( tbJointId ) );
/// {lower, upper} when enabled, else nil.
int tbLuaJoint_GetRange( lua_State* L, const char* fn, bool ( *enabled )( tbJointId ), float ( *lower )( tbJointId ),
						 float ( *upper )( tbJointId ) );
int tbLuaJoint_SetFloat( lua_State* L, const char* fn, tbLuaCheck check, tbResult ( *set )( tbJointId, float ) );
int tbLuaJoint_SetBool( lua_State* L, const char* fn, tbResult ( *set )( tbJointId, bool ) );
int tbLuaJoint_SetCap( lua_State* L, const char* fn, tbResult ( *set )( tbJointId, float ) );
/// A range ({lower, upper} within +-bound, angles: in [-pi, pi]) sets and enables it; nil disables it.
int tbLuaJoint_SetRange( lua_State* L, const char* fn, bool angles, tbResult ( *set )( tbJointId, float, float ),
						 tbResult ( *enable )( tbJointId, bool ) );

/// The new value (index 3) as a force or torque cap: a number >= 0, math.huge for none.
float tbLuaJoint_CheckCap( lua_State* L, const char* fn );
/// The new value (index 3) as a range: false for nil (remove it), else *lo and *hi.
bool tbLuaJoint_CheckRange( lua_State* L, const char* fn, bool angles, float* lo, float* hi );
/// Push a force or torque cap: FLT_MAX as math.huge.
void tbLuaJoint_PushCap( lua_State* L, float value );
/// Push {lower, upper} when enabled, else nil.
void tbLuaJoint_PushRange( lua_State* L, bool enabled, float lo, float hi );

// Values -------------------------------------------------------------------------------------------

/// "a number >= 0 (math.huge: no limit)"
extern const char* const tb_luaCapText;
/// A force or torque cap at index: a number >= 0, or math.huge for "no cap" (stored as FLT_MAX).
bool tbLuaJoint_ReadCap( lua_State* L, int index, float* value );
/// {lower, upper} with lower <= upper, each within [-bound, bound].
bool tbLuaJoint_ReadRange( lua_State* L, int index, float bound, float* lo, float* hi );

// Constructors ------------------------------------------------------------------------------------

/// Which frame fields a constructor accepts.
enum
{
	tbFrame_anchor = 1, ///< anchor = {x, y, z}, world; default: b's origin (a's when b is nil)
	tbFrame_axis = 2,	///< axis = {x, y, z} and ref = {x, y, z}, world; default axis +x
};

/// Every constructor starts the same way: the World (index 1), the lock, the table of fields.
tbLuaWorld* tbLuaJoint_Begin( lua_State* L, const char* fn, tbLuaDef* def );
/// Reads a, b, name, collide, break_force, break_torque and, per flags (tbFrame_*), the frame
/// fields; fills the base def (bodies and frames). *enabled receives the `enabled` field (default true).
void tbLuaJoint_ReadBase( tbLuaDef* def, tbLuaWorld* world, tbJointDef* base, unsigned flags, bool* enabled );
/// A body field: a Body of this world, or nil (the null id); expected is the message's "must be ...".
tbBodyId tbLuaJoint_DefBody( tbLuaDef* def, tbLuaWorld* world, const char* key, const char* expected );
/// A cap field (tbLuaJoint_ReadCap). False when absent.
bool tbLuaJoint_DefCap( tbLuaDef* def, const char* key, float* value );
/// A range field (tbLuaJoint_ReadRange; angles: in [-pi, pi]). False when absent.
bool tbLuaJoint_DefRange( tbLuaDef* def, const char* key, bool angles, float* lo, float* hi );
/// Reads a nested table field `key` as its own def (prefix "key."). Returns false when absent;
/// otherwise the nested table stays on the stack until tbLuaJoint_EndNested.
bool tbLuaJoint_BeginNested( tbLuaDef* def, const char* key, char* prefix, size_t prefixSize, tbLuaDef* nested );
void tbLuaJoint_EndNested( tbLuaDef* nested );
/// A spring table (distance and wheel joints): { hz, damping } (a frequency and damping ratio of
/// the row's effective mass) or { stiffness, damper } (N/m and N s/m), not both.
void tbLuaJoint_ReadSpring( tbLuaDef* def, float* hz, float* ratio, float* stiffness, float* damper );
/// Pushes the new joint's handle (the World is at index 1) and returns it, or raises with the
/// core's reason when id is null.
tbLuaJoint* tbLuaJoint_Finish( lua_State* L, const char* fn, tbJointId id, tbResult result, bool enabled );

/// Custom joints (l_joint_custom.c): stop calling into this lua_State from the joint's rows when
/// its handle is collected (the joint may outlive it, in a world kept by a swap reload).
void tbLuaJoint_ReleaseRows( tbLuaJoint* joint );
