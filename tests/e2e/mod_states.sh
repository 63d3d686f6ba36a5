#!/usr/bin/env bash
# Each mod in a lua_State of its own (docs/RELIABILITY.md, "Isolation: a state per mod"): what a mod
# does to its globals, library tables, module table and handles stays in its state; a mod at its
# memory cap leaves the scene's memory as it was and its own state is freed; a mod's handler runs on
# its own budget; mods go on working across swap and rebuild reloads.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

scenes=tests/e2e/scenes

# The wall: the attacker rewrites everything it can reach, the scene and the other mod check every
# step that none of it reached them.
check "wall: the run ends well" expect_status 0 "$TUMBLE" --headless "$scenes/wall_scene.lua" \
	--mod "$scenes/mod_wall_attacker.lua" --mod "$scenes/mod_wall_victim.lua" --mod "$scenes/mod_constraint.lua"
cp "$SCRATCH/out" "$SCRATCH/wall.json"
cp "$SCRATCH/err" "$SCRATCH/wall.err"
check "wall: the attacker's changes held in its own state" contains "$SCRATCH/wall.err" \
	"mod_wall_attacker: own state changed at step 20"
check "wall: the scene saw none of them" contains "$SCRATCH/wall.err" "wall_scene: clean for 30 steps, 2 contact events"
check "wall: the scene's constraint kept its rows function" contains "$SCRATCH/wall.err" "KB of Lua memory, 30 rows calls"
check "wall: the other mod saw none of them, nor a forged event" contains "$SCRATCH/wall.err" \
	"mod_wall_victim: clean for 30 steps, 2 contact events"
check "wall: every mod still runs, each holding a state of its own" json_check "$SCRATCH/wall.json" '
for m in r["mods"]:
    assert m["error"] is None, m
    assert 30000 < m["memory"] < 1000000, m
'
check "wall: the victim's drawing is in the view the scene shows" contains "$SCRATCH/wall.err" \
	"wall_scene: the view holds 1 items"
check "wall: a mod's constraint on the scene's world is refused" contains "$SCRATCH/wall.err" \
	"mod_constraint: scene's world: constraint: a mod may give rows functions only to constraints of the worlds it made"
check "wall: on a world of its own it is made" contains "$SCRATCH/wall.err" "mod_constraint: own world: true"

# stopped FILE MOD PREFIX OTHER: in the report FILE the mod MOD (a file name) was stopped with an
# error starting with PREFIX and its state freed (its memory 0), and the mod OTHER still runs.
stopped()
{
	json_check "$1" "
mods = {m['path'].rsplit('/', 1)[-1]: m for m in r['mods']}
assert mods['$2']['error'] is not None and mods['$2']['error'].startswith('''$3'''), mods['$2']
assert mods['$2']['memory'] == 0, mods['$2']
assert mods['$4']['error'] is None and mods['$4']['memory'] > 30000, mods['$4']
"
}

# A mod may step only the worlds it made: stepping the scene's stops it, and the scene's world
# makes its 30 steps, each with the scene's constraint rows.
check "step: the run ends well" expect_status 0 "$TUMBLE" --headless "$scenes/wall_scene.lua" \
	--mod "$scenes/mod_wall_victim.lua" --mod "$scenes/mod_stepper.lua"
check "step: the stepper is stopped, the error names it" stopped "$SCRATCH/out" mod_stepper.lua \
	"$scenes/mod_stepper.lua:6: step: a mod may step only the worlds it made" mod_wall_victim.lua
check "step: the scene's world made 30 steps" contains "$SCRATCH/err" "the world made 30 steps, t = 0.5000"
check "step: each with the scene's rows" contains "$SCRATCH/err" "KB of Lua memory, 30 rows calls"

# Memory: a mod eating memory until its cap (64 MiB) is stopped, its state closed (its figure 0);
# the scene's own Lua memory, largest over the run, is what it is without that mod, and the scene
# can still hold 40 MiB of its own.
worst_kb()
{
	sed -n 's/^wall_scene: clean .* at most \([0-9]*\) KB of Lua memory, .*$/\1/p' "$1"
}
check "memory: the scene alone" expect_status 0 "$TUMBLE" --headless "$scenes/wall_scene.lua" --memory 64 \
	--mod "$scenes/mod_good.lua"
alone_kb=$( worst_kb "$SCRATCH/err" )
check "memory: beside a mod at its cap" expect_status 0 env WALL_SCENE_SPEND=1 "$TUMBLE" --headless \
	"$scenes/wall_scene.lua" --memory 64 --mod "$scenes/mod_bomb.lua" --mod "$scenes/mod_good.lua"
cp "$SCRATCH/out" "$SCRATCH/bomb.json"
cp "$SCRATCH/err" "$SCRATCH/bomb.err"
bomb_kb=$( worst_kb "$SCRATCH/bomb.err" )
echo "      the scene's largest Lua memory: ${alone_kb:-?} KB alone, ${bomb_kb:-?} KB beside the bomb"
check "memory: the bomb is stopped, named, and its state freed" stopped "$SCRATCH/bomb.json" mod_bomb.lua \
	"$scenes/mod_bomb.lua: not enough memory (the script's memory cap of 64 MiB is reached" mod_good.lua
check "memory: the good mod's ball kept its speed" json_check "$SCRATCH/bomb.json" \
	"near(body('mod_ball')['vel'][0], 1.0, 0.05, 'mod_ball vx (m/s)')"
check "memory: a mod at its cap in a handler" expect_status 0 "$TUMBLE" --headless "$scenes/wall_scene.lua" --memory 16 \
	--mod "$scenes/mod_handler_hoard.lua" --mod "$scenes/mod_wall_victim.lua"
check "memory: the handler's mod is stopped, named, and its state freed" stopped "$SCRATCH/out" \
	mod_handler_hoard.lua "$scenes/mod_handler_hoard.lua: not enough memory (the script's memory cap of 16 MiB is reached" \
	mod_wall_victim.lua
check "memory: the other mod's handler ran in the same step" contains "$SCRATCH/err" \
	"mod_wall_victim: clean for 30 steps, 1 contact events"
check "memory: the scene held 40 MiB of its own" contains "$SCRATCH/bomb.err" "wall_scene: held 40 MiB"
# The scene's own figure does not include the 40 MiB it let go (collected by then): within 10 % or
# 64 KB of the run without the bomb (collection points differ a little between two runs).
check "memory: the scene's largest figure is the same with the bomb" awk -v a="${alone_kb:-0}" -v b="${bomb_kb:-1e9}" \
	'BEGIN { d = b - a; if ( d < 0 ) d = -d; exit !( a > 0 && ( d <= 64 || d <= 0.1 * a ) ) }'

# Budget: the spinner's contact handler spends its 2 million instructions and is stopped; in the same
# dispatch the worker's handler runs 1.2 million of its own, and the trusted scene's 2 million.
check "budget: the run ends well" expect_status 0 "$TUMBLE" --headless "$scenes/wall_scene.lua" --budget 2000000 \
	--mod "$scenes/mod_budget_spin.lua" --mod "$scenes/mod_budget_worker.lua"
cp "$SCRATCH/out" "$SCRATCH/budget.json"
check "budget: the spinner is stopped by its budget, the error names it" stopped "$SCRATCH/budget.json" \
	mod_budget_spin.lua "$scenes/mod_budget_spin.lua:5: instruction budget exceeded (2000000 instructions" \
	mod_budget_worker.lua
check "budget: the worker's handler ran on its own budget" contains "$SCRATCH/err" "mod_budget_worker: handler ran 1 times"
check "budget: the scene's handlers ran" contains "$SCRATCH/err" "wall_scene: clean for 30 steps, 2 contact events"

# Reload: a scene edited under --watch, swap then rebuild, with a mod beside it. The mod is loaded
# again in a new state each time; it must see the world (its ball) and keep being called.
dir="$SCRATCH/reload"
mkdir -p "$dir"
write_scene()
{
	cat >"$dir/scene.lua.tmp" <<LUA
local scene = { reload = "$1" }
function scene.setup(world)
	world:add_box{ name = "ground", size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
end
function scene.update(world, dt, t)
	if world.step_count % 30 == 0 then print(("scene version=$2 t=%.2f"):format(t)) end
end
return scene
LUA
	mv "$dir/scene.lua.tmp" "$dir/scene.lua"
}
cat >"$dir/mod.lua" <<'LUA'
local mod = { calls = 0 }
function mod.setup(world)
	world:add_sphere{ name = "mod_ball", radius = 0.25, pos = { 3, 0, 0.25 } }
end
function mod.update(world, dt, t)
	mod.calls = mod.calls + 1
	local ball = assert(world:body("mod_ball"), "the mod's ball")
	if world.step_count % 30 == 0 then print(("mod calls=%d t=%.2f"):format(mod.calls, world.time)) end
end
return mod
LUA
run_reload()
{
	write_scene "$1" 1
	"$TUMBLE" --headless --watch "$dir/scene.lua" --mod "$dir/mod.lua" --steps 240 --report json \
		>"$SCRATCH/reload_$1.json" 2>"$SCRATCH/reload_$1.err" &
	local pid=$!
	sleep 1.5
	write_scene "$1" 2
	wait "$pid"
}
# first_mod_call FILE: "CALLS T" of the mod's first tick after the scene's version 2 appeared.
first_mod_call()
{
	python3 - "$1" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
after = [i for i, l in enumerate(lines) if l.startswith("scene version=2")]
calls = [re.match(r"mod calls=(\d+) t=([0-9.]+)", l) for l in lines[after[0]:]] if after else []
calls = [m for m in calls if m]
print("%s %s" % (calls[0].group(1), calls[0].group(2)) if calls else "none")
PY
}
# reload_check MODE NAME CONDITION: a --watch run in reload MODE; the scene was reloaded, the mod's first tick
# after that (its call count c, its world's clock t) meets the awk CONDITION, and the mod has no error.
reload_check()
{
	local mode="$1" name="$2" condition="$3" calls t
	run_reload "$mode"
	check "reload $mode: the scene was reloaded" contains "$SCRATCH/reload_$mode.err" "scene version=2"
	read -r calls t <<<"$( first_mod_call "$SCRATCH/reload_$mode.err" )"
	echo "      $mode: the mod's first tick after the reload: call ${calls:-none}, t = ${t:-none} s"
	check "reload $mode: $name" awk -v c="${calls:-0}" -v t="${t:--1}" "BEGIN { exit !( $condition ) }"
	check "reload $mode: the mod reports no error" json_check "$SCRATCH/reload_$mode.json" \
		'assert r["mods"][0]["error"] is None, r["mods"]'
}
# Swap: a new state (its count started again) on the kept world, whose clock went on.
reload_check swap "the mod, reloaded, is called again on the kept world" "c >= 1 && c <= 31 && t > 1.0"
# Rebuild: a fresh world, its clock from 0; the mod made its ball in it (its update asserts that).
reload_check rebuild "the mod is called on the new world" "c >= 1 && t >= 0 && t < 0.1"

finish
