#!/usr/bin/env bash
# Reload and report findings of issue 16's audit (docs/RELIABILITY.md, "Reload and report"):
#   a swap reload carries over the scene's world only: a second world the scene keeps is left
#   behind with a warning, not merged into the main one; tables nested deeper than 32 levels are
#   cut with a warning naming the file; a FIFO put in the scene's place does not hang --watch; a
#   scene holding as many worlds as it may does not make the next reload fail; the JSON report
#   stays valid UTF-8; command-line numbers out of range are refused naming the range.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

dir="$SCRATCH/scenes"
mkdir -p "$dir"

# write FILE CONTENT: replaces FILE by renaming a new file over it, as editors save.
write()
{
	printf '%s\n' "$2" >"$1.tmp"
	mv "$1.tmp" "$1"
}

# --- swap: a second world and deep tables ----------------------------------------------------------
swap_scene()
{
	cat <<LUA
local scene = { reload = "swap" }
function scene.setup(world)
	world:add_box{ name = "ground", size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	world:add_box{ name = "crate", pos = { 0, 0, 0.5 } }
	scene.other = tumble.world{}
	scene.other:add_sphere{ name = "elsewhere", pos = { 0, 0, 5 } }
	scene.other:add_sphere{ pos = { 1, 0, 5 } }
	local deep = {}
	scene.deep = deep
	for i = 1, 40 do deep.next = { level = i } deep = deep.next end
end
function scene.update(world, dt, t)
	if world.step_count % 30 == 0 then
		print(("swapped version=$1 main=%d other=%s"):format(world.body_count,
			scene.other and tostring(scene.other.body_count) or "none"))
	end
end
return scene
LUA
}
swap="$dir/swap.lua"
write "$swap" "local tumble = require 'tumble'
$( swap_scene 1 )"
"$TUMBLE" --headless --watch "$swap" --steps 150 --report none >"$SCRATCH/swap.out" 2>"$SCRATCH/swap.err" &
pid=$!
sleep 1.2
write "$swap" "local tumble = require 'tumble'
$( swap_scene 2 )"
wait "$pid"
check "swap: exit 0" test "$?" = 0
check "swap: version 1 ran with its second world" contains "$SCRATCH/swap.err" "swapped version=1 main=2 other=2"
check "swap: version 2 keeps the scene's world and does not take the other for it" contains "$SCRATCH/swap.err" \
	"swapped version=2 main=2 other=none"
check "swap: the second world is said to be left behind" contains "$SCRATCH/swap.err" \
	"tumble: warning: $swap: swap reload: scene.other holds a world other than the scene's"
check "swap: the deep table is said to be cut" contains "$SCRATCH/swap.err" \
	"tumble: warning: $swap: swap reload: scene.deep nests tables deeper than 32 levels"

# --- a FIFO in the scene's place ---------------------------------------------------------------------
fifo_scene()
{
	printf 'return { update = function(world, dt, t) if world.step_count %% 30 == 0 then print("fifo version=%s") end end }' "$1"
}
fifo="$dir/fifo.lua"
write "$fifo" "$( fifo_scene 1 )"
"$TUMBLE" --headless --watch "$fifo" --steps 180 --report none >"$SCRATCH/fifo.out" 2>"$SCRATCH/fifo.err" &
pid=$!
sleep 1.2
rm -f "$fifo.pipe"
mkfifo "$fifo.pipe"
mv "$fifo.pipe" "$fifo"
sleep 1.2
write "$fifo" "$( fifo_scene 3 )"
# Well past the 3 s of steps: a hung program is killed here and fails the checks below.
timeout 20 tail --pid="$pid" -f /dev/null
kill "$pid" 2>/dev/null
wait "$pid"
check "fifo: exit 0 (not hung in open)" test "$?" = 0
check "fifo: the FIFO is refused as no regular file" contains "$SCRATCH/fifo.err" \
	"cannot open $fifo: not a regular file (a FIFO, device or directory cannot be a script)"
check "fifo: the next good file runs" contains "$SCRATCH/fifo.err" "fifo version=3"

# --- as many worlds as a scene may hold, then a reload ----------------------------------------------
worlds_scene()
{
	cat <<LUA
local tumble = require "tumble"
local scene = { worlds = {} }
function scene.setup(world)
	while true do
		local ok, w = pcall(tumble.world, {})
		if not ok then
			print(("worlds version=$1: made %d, then: %s"):format(#scene.worlds, w))
			break
		end
		scene.worlds[#scene.worlds + 1] = w
	end
end
function scene.update(world, dt, t)
	if world.step_count % 30 == 0 then print("worlds version=$1 running") end
end
return scene
LUA
}
worlds="$dir/worlds.lua"
write "$worlds" "$( worlds_scene 1 )"
"$TUMBLE" --headless --watch "$worlds" --steps 150 --report none >"$SCRATCH/worlds.out" 2>"$SCRATCH/worlds.err" &
pid=$!
sleep 1.2
write "$worlds" "$( worlds_scene 2 )"
wait "$pid"
check "worlds: exit 0" test "$?" = 0
check "worlds: 62 beside the scene's, then refused naming the limit" contains "$SCRATCH/worlds.err" \
	"worlds version=1: made 62, then: world: a scene and its mods may hold at most 63 worlds at once, and hold 63"
check "worlds: the reload builds the new scene" contains "$SCRATCH/worlds.err" "worlds version=2 running"
check "worlds: no reload failed" bash -c "! grep -q 'reload failed' '$SCRATCH/worlds.err'"

# --- the report stays valid UTF-8 -------------------------------------------------------------------
# A body named with bytes that are not UTF-8, and a mod whose error quotes a long name of 2-byte
# characters (cut at 37 bytes for the message: mid-character before).
printf 'return { setup = function(world) world:add_box{ name = "caf\\xe9 \\xff", pos = { 0, 0, 1 } } end }\n' >"$dir/latin1.lua"
printf 'return { setup = function(world) world:add_box{ name = ("\\xc3\\xa9"):rep(30) } end }\n' >"$dir/utf8_mod.lua"
check "utf-8: the run reports" expect_status 0 "$TUMBLE" --headless "$dir/latin1.lua" --steps 2 --mod "$dir/utf8_mod.lua"
check "utf-8: the report is valid UTF-8 JSON, bad bytes replaced, names cut on characters" python3 - "$SCRATCH/out" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
r = json.loads(raw.decode("utf-8"))  # strict: invalid UTF-8 raises
names = [b["name"] for b in r["bodies"]]
assert "caf\ufffd \ufffd" in names, names
error = r["mods"][0]["error"]
assert "name must be a string of at most 31 bytes, got '" + "\u00e9" * 18 + "...'" in error, error
PY

# --- numbers out of range on the command line -------------------------------------------------------
check "--budget past its range: refused" expect_status 2 "$TUMBLE" --headless "$dir/latin1.lua" --budget 4294967296000
check "--budget: the message names the range and the value" contains "$SCRATCH/err" \
	"--budget needs an instruction count from 1000 to 1000000000000, got 4294967296000"
check "--memory past its range: refused" expect_status 2 "$TUMBLE" --headless "$dir/latin1.lua" --memory 99999999999999999999
check "--memory: the message names the range and the value" contains "$SCRATCH/err" \
	"--memory needs a size in MiB from 1 to 1048576, got 99999999999999999999"

finish
