// Tumble Lua bindings: the module `tumble` and the few C entry points a host program needs.
// SPDX-License-Identifier: MIT
//
// The module is self-contained (no dependency on runtime/): plain lua5.4 loads it as tumble.so via
// `require "tumble"`, and the program `tumble` links it statically. A host (the runtime) uses the
// functions below to wrap an existing world into a fresh lua_State (hot reload that keeps the world),
// to attribute event handlers to owners (sandboxed mods) and to feed keyboard input.
#pragma once

#include "tumble/tumble.h"

#include <lua.h>

/// Open the module: pushes the module table. Registered by `require "tumble"`.
int luaopen_tumble( lua_State* L );

/// Push a World userdata for an existing world. When owned is true the world is destroyed when the
/// userdata is collected or world:destroy() is called; otherwise the host keeps ownership.
void tbLua_PushWorld( lua_State* L, tbWorldId worldId, bool owned );

/// The worlds this state owns (made by tb.world, or handed over with tbLua_SetWorldOwned) and has
/// not destroyed.
int tbLua_GetOwnedWorldCount( lua_State* L );

/// The world id of the World userdata at index, or a null id when the value is not a live World.
tbWorldId tbLua_ToWorld( lua_State* L, int index );

/// Set whether the World userdata at index destroys its world when collected. A host moving a
/// world to a fresh lua_State (hot reload that keeps the world) clears it on the old userdata and
/// sets it on the new one, so closing the old state leaves the world alive.
void tbLua_SetWorldOwned( lua_State* L, int index, bool owned );

/// Simulated time (s) and step count of the World userdata at index (kept across adoption).
void tbLua_GetWorldClock( lua_State* L, int index, double* time, long long* stepCount );
void tbLua_SetWorldClock( lua_State* L, int index, double time, long long stepCount );

/// Push the Body userdata for bodyId of the World at worldIndex (one userdata per body, so handles
/// compare equal), or nil when the id is not a live body of that world.
void tbLua_PushBody( lua_State* L, int worldIndex, tbBodyId bodyId );

/// The body id of the Body userdata at index; false when the value is not a Body.
bool tbLua_ToBody( lua_State* L, int index, tbBodyId* bodyId );

/// Push the Joint userdata for jointId of the World at worldIndex (one userdata per joint), or nil
/// when the id is not a live joint of that world.
void tbLua_PushJoint( lua_State* L, int worldIndex, tbJointId jointId );

/// The joint id of the Joint userdata at index; false when the value is not a Joint.
bool tbLua_ToJoint( lua_State* L, int index, tbJointId* jointId );

/// Push the Mover userdata for moverId of the World at worldIndex, or nil when it is not live.
void tbLua_PushMover( lua_State* L, int worldIndex, tbMoverId moverId );

/// The mover id of the Mover userdata at index; false when the value is not a Mover.
bool tbLua_ToMover( lua_State* L, int index, tbMoverId* moverId );

/// Apply world settings from the table at tableIndex (same fields as tb.world{...}) to the live
/// World at worldIndex. Raises a Lua error for a bad field.
void tbLua_ApplyWorldSettings( lua_State* L, int worldIndex, int tableIndex );
/// Worker threads of worlds created without a `threads` setting (1..TB_MAX_WORKER_COUNT, default 1).
void tbLua_SetDefaultWorkerCount( int workerCount );
/// Every world made or configured from now on uses this solver mode (a name of tb.solvers),
/// whatever its settings say (the runtime's --solver, for running scenes in another mode); false
/// for an unknown name, which changes nothing. The `solver` property still switches it live.
bool tbLua_SetForcedSolver( const char* name );
/// The mode tbLua_SetForcedSolver set, NULL when worlds keep their settings' mode.
const char* tbLua_GetForcedSolver( void );

/// What a host guard is asked about (tbLuaHost.guard).
typedef enum tbLuaGuard
{
	tbLuaGuard_stepBefore, ///< world:step, before the physics step
	tbLuaGuard_stepAfter,  ///< world:step, after the physics step (before the event handlers)
	tbLuaGuard_copy,       ///< world:snapshot and world:restore, before the copy
	tbLuaGuard_create,     ///< a constructor (add_*, joints, mover), before it builds anything
	tbLuaGuard_created,    ///< a body or joint constructor, after it built: the new Body or Joint at the stack top
	tbLuaGuard_world,      ///< tb.world, before it creates a world: its worker count at the stack top
	tbLuaGuard_threads,    ///< world.threads = n (the World at index 1): n at the stack top
} tbLuaGuard;

/// Host hooks for event handlers registered with world:on, and a guard of the World calls that do
/// C work. Every handler belongs to the owner that was current (tbLua_SetOwner) when it was
/// registered; owner 0 is the scene itself.
typedef struct tbLuaHost
{
	/// Called before every handler call (e.g. to switch to the owner's sandbox budget). Returns false,
	/// with an error message pushed, to refuse the call: the handler then fails with that message
	/// and endCall is not called. May be NULL.
	bool ( *beginCall )( lua_State* L, int owner, void* context );
	/// Called after every handler call that beginCall allowed (restore what it changed). May be NULL.
	void ( *endCall )( lua_State* L, int owner, void* context );
	/// Called when a handler of a non-zero owner fails. Return true when the host dealt with it (the
	/// owner's handlers are then removed); false keeps the error to be raised after the step.
	bool ( *handlerError )( lua_State* L, int owner, const char* message, void* context );
	/// Called by the binding itself (so luaL_error there reports the script's line), with the World
	/// at index 1 and the call's arguments after it; fn names the call ("step", "add_box", ...).
	/// It may raise to refuse or stop the call (a sandbox's budgets). May be NULL.
	void ( *guard )( lua_State* L, tbLuaGuard what, const char* fn, void* context );
	/// Called by world:step after this state's own handlers ran, with the World at worldIndex: a host
	/// whose other lua_States hold the same world (each mod in its own state) runs their handlers
	/// here (tbLua_DispatchEvents) and gives them the world's clock. May be NULL.
	void ( *stepped )( lua_State* L, int worldIndex, void* context );
	void* context;
} tbLuaHost;

/// Install host hooks (copied). NULL removes them.
void tbLua_SetHost( lua_State* L, const tbLuaHost* host );

/// Handlers registered from now on belong to this owner (0 = the scene).
void tbLua_SetOwner( lua_State* L, int owner );

/// Remove every event handler of an owner from the World at worldIndex.
void tbLua_RemoveOwnerHandlers( lua_State* L, int worldIndex, int owner );

/// Run the handlers registered in this state on the World at worldIndex for the events of the
/// world's last step, as world:step does for its own state (the host hooks of this state apply).
/// For a host whose other states step a world this state also holds. Protected: returns LUA_OK, or
/// an error status with the first error of an owner-0 handler pushed. Nothing runs while this
/// World's handlers are already running.
int tbLua_DispatchEvents( lua_State* L, int worldIndex );

/// Push a copy of the table at index (raw reads); its table values are copied too, down to depth
/// levels (0: a shallow copy). Metatables are not copied.
void tbLua_PushTableCopy( lua_State* L, int index, int depth );

/// What tb.input asks about a key.
typedef enum tbLuaKeyQuery
{
	tbLuaKey_down,	   ///< held now
	tbLuaKey_pressed,  ///< went down since the last step
	tbLuaKey_released, ///< went up since the last step
} tbLuaKeyQuery;

/// Keyboard state for tb.input.down / pressed / released(key). Key names are SDL-style lower-case
/// names ("w", "space", "left"). Without a provider no key is ever down.
typedef bool tbLuaKeyFcn( const char* key, tbLuaKeyQuery query, void* context );
void tbLua_SetKeyProvider( lua_State* L, tbLuaKeyFcn* fcn, void* context );

// The view: what scripts ask of the camera and draw (tb.camera, tb.draw), and the mouse a host with
// a window feeds to tb.input. Every lua_State with the module has one; without a host the requests
// are recorded and nothing reads them.

typedef enum tbLuaDrawKind
{
	tbLuaDraw_line,	  ///< a to b
	tbLuaDraw_arrow,  ///< a to b, head at b
	tbLuaDraw_point,  ///< at a
	tbLuaDraw_box,	  ///< centre a, half extents b, rotated by rotation
	tbLuaDraw_sphere, ///< centre a, radius
	tbLuaDraw_text,	  ///< at a; the label is text + textOffset in tbLuaView
} tbLuaDrawKind;

typedef struct tbLuaDrawItem
{
	tbLuaDrawKind kind;
	tbVec3 a, b;
	tbQuat rotation;
	float radius;
	float color[4]; ///< r, g, b, a in [0, 1]
	int textOffset;
} tbLuaDrawItem;

#define TB_LUA_MAX_DRAW_ITEMS 65536
#define TB_LUA_MAX_LABEL 200

/// The mouse as the host last saw it (buttons: bit 0 left, 1 middle, 2 right).
typedef struct tbLuaMouse
{
	bool valid;	 ///< false without a window: tb.input.mouse() returns nothing
	float x, y;	 ///< window points from the top left
	unsigned down;
	unsigned pressed;  ///< went down since the last step
	unsigned released; ///< went up since the last step
	tbVec3 rayOrigin, rayDirection; ///< the world ray under the cursor (unit direction)
} tbLuaMouse;

typedef struct tbLuaView
{
	// Camera: look_at sets eye and target (lookAt stays true until the host applies it); the host
	// writes back the camera it shows, so tb.camera.get() reads it. follow: a body to track.
	bool lookAt;
	bool cameraKnown;
	tbVec3 eye, target;
	tbBodyId follow;		///< null when not following
	tbVec3 followOffset;	///< eye = body + offset, when followHasOffset
	bool followHasOffset;
	float followSmoothing;	///< s: time constant of the camera's approach (0: rigid)
	// Drawing since the last step, then this frame's.
	tbLuaDrawItem* items;
	int count, capacity;
	char* text;
	int textUsed, textCapacity;
	int stepMark, stepTextMark; ///< -1: no frame since the last step
	// Input
	tbLuaKeyFcn* keyFcn;
	void* keyContext;
	tbLuaMouse mouse;
} tbLuaView;

/// Make L use the view of `from` (its drawing, camera requests and input) instead of one of its
/// own: call before the module is opened in L; `from` must outlive L. A host running one scene in
/// several states (the scene's and each mod's) shows one view.
void tbLua_ShareView( lua_State* L, lua_State* from );
/// The view of the state L (NULL when the module is not open in it).
tbLuaView* tbLua_GetView( lua_State* L );
/// Start of a step: forget everything drawn (what update draws next is what the frame shows).
void tbLua_BeginStepDrawing( lua_State* L );
/// Start of a frame's draw(): drop what earlier frames' draw() added, keep what the step drew.
void tbLua_BeginFrameDrawing( lua_State* L );
