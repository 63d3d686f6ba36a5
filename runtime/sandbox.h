// Tumble runtime: Lua states with a memory cap and an instruction budget, and sandboxed
// environments for untrusted scripts (--sandbox, --mod).
// SPDX-License-Identifier: MIT
#pragma once

#include "tumble/tumble.h"
#include "tumble_lua.h"

#include <lua.h>

#include <stdbool.h>
#include <stddef.h>

/// Create a Lua state for one script (the scene, or one mod) whose allocations are refused past
/// memoryLimit bytes (0: no limit; Lua then raises "not enough memory" in the script, and the host
/// goes on). The state's account holds its Lua memory plus the bytes of the bodies and joints its
/// script made while limited that still exist (tbBody_GetMemorySize, tbJoint_GetMemorySize). The
/// state also carries an instruction counter (see tbSandbox_SetBudget). Returns NULL on failure.
lua_State* tbSandbox_NewState( size_t memoryLimit );

/// Close a state made by tbSandbox_NewState and free its accounting.
void tbSandbox_CloseState( lua_State* L );

/// Bytes of Lua memory the state holds, and its limit (0 = none).
size_t tbSandbox_GetMemoryUsed( lua_State* L );
size_t tbSandbox_GetMemoryLimit( lua_State* L );
/// Bytes of the bodies and joints in the state's account (counted again now).
void tbSandbox_GetPhysicsMemory( lua_State* L, size_t* physics );

/// Install the instruction counter. The state's script has an account per host step
/// (tbSandbox_BeginHostStep): its limited calls in one host step (update, every event handler,
/// keypressed, ...) together may run `budget` VM instructions (plus the charges of C work, see
/// tbSandbox_Guard and the library wrappers) and use max(1 s, budget x 200 ns) of their thread's
/// CPU time. Past either, the account is tripped: "instruction budget exceeded" or "time budget
/// exceeded" is raised at once and again at every later instruction of the state in any thread, so
/// pcall, xpcall and coroutines cannot swallow it, until the next host step. budget 0 turns both
/// limits off.
void tbSandbox_SetBudget( lua_State* L, long budget );

/// A new host step (a frame, a key press, a load): the account starts from zero.
void tbSandbox_BeginHostStep( lua_State* L );

/// What tbSandbox_BeginCall replaced, for tbSandbox_EndCall.
typedef struct tbSandboxCall
{
	bool limited;
} tbSandboxCall;

/// Run code of the state, limited (drawing from its account) or unlimited (trusted code, or a
/// script paused while another state's runs: its CPU time span is closed). Returns what it
/// replaced, so a nested call can give the outer one its mode back with tbSandbox_EndCall.
tbSandboxCall tbSandbox_BeginCall( lua_State* L, bool limited );
void tbSandbox_EndCall( lua_State* L, tbSandboxCall previous );

/// What ran out when the state's account is spent in this host step ("instruction budget exceeded
/// (...)"), else NULL. Once spent, the script's large allocations are refused too, so a "not enough
/// memory" error of a spent script should be reported with this instead.
const char* tbSandbox_GetTrip( lua_State* L );

/// Push a fresh environment table for an untrusted chunk: the safe base functions, copies of
/// string/table/math/utf8/coroutine, os.clock/os.time/os.date, load (text chunks only, this
/// environment by default), print (to stderr), and a require that accepts "tumble" and Lua files
/// found in the given directories (loaded as text into the same environment). No io, debug,
/// package, dofile, loadfile or C modules. searchPath is a Lua path template list ("dir/?.lua;...");
/// libraryPath is the one that "tumble.NAME" is looked up in as NAME (see tbLibraryModuleName).
void tbSandbox_PushEnvironment( lua_State* L, const char* searchPath, const char* libraryPath );

/// NAME when name is "tumble.NAME", else NULL. The helper libraries of scripts/lib are installed as
/// share/lua/5.4/tumble/NAME.lua, where plain Lua finds them as "tumble.NAME"; the runtime accepts
/// both that name and the bare NAME, in a checkout and installed alike.
const char* tbLibraryModuleName( const char* name );

/// Make the string metatable unreachable from scripts (getmetatable("") returns false), so a
/// sandboxed script cannot patch string methods used by others. Call once per state.
void tbSandbox_ProtectStrings( lua_State* L );

/// print() replacement writing to stderr (stdout carries the headless JSON report).
int tbSandbox_Print( lua_State* L );

/// Load a Lua file as a text chunk (bytecode refused) with the table at envIndex as its _ENV
/// (envIndex 0 keeps the globals). Pushes the chunk or an error message; returns the lua_load status
/// (LUA_ERRFILE for a file that cannot be opened or is not a regular file: a FIFO put in a
/// script's place must not block the program, so the file is opened without blocking first).
int tbSandbox_LoadFile( lua_State* L, const char* path, int envIndex );

/// True for a regular file that can be opened for reading (checked without blocking).
bool tbSandbox_IsRegularFile( const char* path );

/// Physics budget of a sandboxed scene (fuzz finding 19): the instruction budget bounds the Lua a
/// script runs, not the physics it causes (1,200 boxes made on one spot in 12,000 instructions
/// cost seconds per step). The scene host refuses a load, reload or step whose world is past one
/// of these; the error names the limit. A 1,000-body scene of touching boxes has about 13 pairs
/// per body at most (the 26 neighbours of a cubic lattice, each pair counted once).
#define TB_SANDBOX_MAX_BODIES 1000
#define TB_SANDBOX_MAX_SHAPES 2000
#define TB_SANDBOX_MAX_JOINTS 1000
#define TB_SANDBOX_MAX_PAIRS 20000
/// Sandboxed code may create a world while the scene and its mods hold fewer than this many (the
/// scene's included), each with at most TB_SANDBOX_MAX_THREADS worker threads.
#define TB_SANDBOX_MAX_WORLDS 32
#define TB_SANDBOX_MAX_THREADS 4

/// Check a sandboxed world against the physics budget. The broad phase's own pair count of the last
/// step is always checked; `predict` also counts the pairs of shapes whose bounding boxes overlap
/// now (one tree query per non-static shape, stopped at the limit): the work of the next step,
/// before it runs. Returns true within the budget; otherwise false with a message naming the
/// limit in `message`.
bool tbSandbox_CheckPhysics( tbWorldId world, bool predict, char* message, size_t capacity );

/// The sandbox's guard of the World calls (tbLuaHost.guard; L holds the World at index 1 and the
/// call's arguments): world:step is refused on a world past the physics budget, before and after
/// the physics step, so a sandboxed script cannot step a piled world itself; constructors are
/// refused on a world at the budget; and steps, snapshots, restores and constructors charge their
/// C work to the instruction budget (a loop of them runs few VM instructions per iteration). A body
/// or joint just made (tbLuaGuard_created) goes to the state's memory account; one that
/// would take it past its cap is destroyed again and refused. heldWorlds: for tbLuaGuard_world, the
/// worlds the script's scene and its mods hold over all their states (a new one is refused from
/// TB_SANDBOX_MAX_WORLDS on).
void tbSandbox_Guard( lua_State* L, tbLuaGuard what, const char* fn, int heldWorlds );
/// While set, the next world:step call is the scene host's own frame step: not charged to the
/// budget. The host sets it just before that call and clears it after.
void tbSandbox_SetHostStep( lua_State* L, bool hostStep );
