#!/usr/bin/env bash
# Mods that try to run without bound (docs/RELIABILITY.md, "The sandbox's limits"): each attack mod
# runs beside a well-behaved one; the attack must be stopped within 1 s of CPU past its limit with
# an error naming its file, and the scene and the good mod must run all their steps.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

scenes=tests/e2e/scenes
# 2 million instructions per script per host step; the CPU-time limit is then its floor, 1 s.
budget=2000000
limit_s=1.0

# cpu_run OUT COMMAND...: runs the command like expect_status 0 and writes its CPU seconds (user +
# system) to OUT.
cpu_run()
{
	local out="$1"
	shift
	/usr/bin/time -f "%U %S" -o "$SCRATCH/time" timeout --kill-after=5 "${TB_E2E_TIMEOUT:-120}" "$@" \
		>"$SCRATCH/out" 2>"$SCRATCH/err"
	local status=$?
	awk '/^[0-9.]+ [0-9.]+$/ { printf "%.2f\n", $1 + $2 }' "$SCRATCH/time" >"$out"
	if [ "$status" -ne 0 ]; then
		echo "      exit status $status, expected 0: $*"
		sed 's/^/      | /' "$SCRATCH/err" | tail -n 20
		return 1
	fi
}

run_mods()
{
	cpu_run "$1" "$TUMBLE" --headless "$scenes/mod_base.lua" --steps 30 --budget "$budget" --memory 64 \
		--mod "$scenes/mod_good.lua" "${@:2}"
}

check "baseline: the scene and the good mod alone" run_mods "$SCRATCH/base.cpu"
base_s=$( cat "$SCRATCH/base.cpu" )

# attack FILE EXPECTED: the mod FILE is disabled with an error containing EXPECTED, within 1 s of
# CPU past the limit; the scene ran its 30 steps and the good mod's ball kept rolling.
attack()
{
	local file="$1" expected="$2"
	local name
	name=$( basename "$file" )
	check "$name: the host goes on" run_mods "$SCRATCH/$name.cpu" --mod "$scenes/$file"
	cp "$SCRATCH/out" "$SCRATCH/$name.json"
	check "$name: stopped, the error names the file" json_check "$SCRATCH/$name.json" "
mods = {m['path'].rsplit('/', 1)[-1]: m['error'] for m in r['mods']}
assert mods['$name'] is not None, 'the attack mod was not stopped'
assert '$name' in mods['$name'], mods['$name']
assert '''$expected''' in mods['$name'], mods['$name']
assert mods['mod_good.lua'] is None, mods['mod_good.lua']
assert r['steps'] == 30, r['steps']
near(body('mod_ball')['vel'][0], 1.0, 0.05, 'mod_ball vx (m/s)')
"
	local cpu
	cpu=$( cat "$SCRATCH/$name.cpu" )
	local extra
	extra=$( awk -v c="$cpu" -v b="$base_s" 'BEGIN { printf "%.2f", c - b }' )
	echo "      $name: $cpu s of CPU, $extra s more than without it (limit ${limit_s} s)"
	check "$name: at most 1 s of CPU past the limit" awk -v e="$extra" -v l="$limit_s" 'BEGIN { exit !( e <= l + 1.0 ) }'
}

attack mod_attack_gc.lua "__gc"
attack mod_attack_xpcall.lua "budget exceeded"
attack mod_attack_coroutine.lua "budget exceeded"
attack mod_attack_rep.lua "string.rep: the result would be 2199023255552 bytes, more than the memory cap"
attack mod_attack_move.lua "table.move"
attack mod_attack_pattern.lua "pattern"
attack mod_attack_load.lua "budget exceeded"
attack mod_attack_scan.lua "time budget exceeded"
attack mod_attack_concat.lua "time budget exceeded"
attack mod_attack_fanout.lua "budget exceeded"
attack mod_attack_nest.lua "handlers nested more than 16 deep"

# Bodies: a mod in a host run without --sandbox is held to the sandbox's physics budget, and a
# refusal caught by pcall leaves no extra body.
check "mod_attack_bodies.lua: the host goes on" run_mods "$SCRATCH/bodies.cpu" --mod "$scenes/mod_attack_bodies.lua"
check "mod_attack_bodies.lua: 997 bodies made beside the scene's 3, then refused" contains "$SCRATCH/err" \
	"mod_attack_bodies: made 997, then: add_sphere: sandbox physics budget reached: 1000 bodies"
check "a sandboxed scene at the body cap inside pcall goes on" expect_status 0 "$TUMBLE" --headless --sandbox \
	"$scenes/sandbox_cap_pcall.lua" --all
check "the world kept 1000 bodies and ran its steps" json_check "$SCRATCH/out" '
assert len(r["bodies"]) == 1000, len(r["bodies"])
assert r["steps"] == 5, r["steps"]
'

# Worlds and threads: outside the memory cap, so counted.
check "mod_attack_worlds.lua: the host goes on" run_mods "$SCRATCH/worlds.cpu" --mod "$scenes/mod_attack_worlds.lua"
check "mod_attack_worlds.lua: 16 worker threads refused" contains "$SCRATCH/err" \
	"mod_attack_worlds: 16 threads: world: a sandboxed script's world may have at most 4 worker threads, got 16"
check "mod_attack_worlds.lua: also on the scene's world" contains "$SCRATCH/err" \
	"mod_attack_worlds.lua:8: World.threads: a sandboxed script's world may have at most 4 worker threads, got 16"
check "mod_attack_worlds.lua: 31 worlds beside the scene's, then refused" contains "$SCRATCH/err" \
	"mod_attack_worlds: made 31 worlds, then: world: sandbox budget reached: 32 worlds exist"

# Memory: each script has its own account under --memory (64 MiB here): its Lua memory and the
# bodies and joints it made. A hoarding mod is stopped at its own cap with an error naming it, and
# a mod beside it still gets 40 MiB when the hoarder holds 40 (a shared cap refused it).
check "mod_attack_hoard.lua: the host goes on" run_mods "$SCRATCH/hoard.cpu" --mod "$scenes/mod_attack_hoard.lua" \
	--mod "$scenes/mod_spender.lua"
check "mod_attack_hoard.lua: stopped at its own cap, the other mods not" json_check "$SCRATCH/out" "
mods = {m['path'].rsplit('/', 1)[-1]: m['error'] for m in r['mods']}
assert mods['mod_attack_hoard.lua'] is not None, 'the hoarder was not stopped'
assert mods['mod_attack_hoard.lua'].startswith('$scenes/mod_attack_hoard.lua: not enough memory (the script\\'s memory cap of 64 MiB is reached; it holds '), mods['mod_attack_hoard.lua']
assert mods['mod_spender.lua'] is None, mods['mod_spender.lua']
assert mods['mod_good.lua'] is None, mods['mod_good.lua']
assert r['steps'] == 30, r['steps']
near(body('mod_ball')['vel'][0], 1.0, 0.05, 'mod_ball vx (m/s)')
"
check "mod_spender.lua: held 40 MiB beside the hoarder" contains "$SCRATCH/err" "mod_spender: held 40 MiB"
# Meshes of 1,250 triangles in a loop: their bytes are counted, so the mod stops at 8 MiB (it used
# to go on to the 1,000-body limit, about 100 MiB of meshes).
check "mod_attack_meshes.lua: the host goes on" expect_status 0 "$TUMBLE" --headless "$scenes/mod_base.lua" --steps 5 \
	--budget 100000000 --memory 8 --mod "$scenes/mod_good.lua" --mod "$scenes/mod_attack_meshes.lua"
check "mod_attack_meshes.lua: stopped by its cap, most of it in bodies" json_check "$SCRATCH/out" "
import re
mods = {m['path'].rsplit('/', 1)[-1]: m['error'] for m in r['mods']}
error = mods['mod_attack_meshes.lua']
assert error is not None and error.startswith('$scenes/mod_attack_meshes.lua'), error
m = re.search(r'memory cap of 8 MiB.* ([0-9.]+) MiB of bodies and joints', error)
assert m is not None, error
assert float(m.group(1)) > 6.0, error
assert mods['mod_good.lua'] is None, mods['mod_good.lua']
assert r['steps'] == 5, r['steps']
"

# Isolation: a mod's world:off removes only its own handlers, each handler gets its own event
# table, and a mod cannot destroy the scene's world.
check "isolation: the scene runs to its end" expect_status 0 "$TUMBLE" --headless "$scenes/isolation_scene.lua" \
	--mod "$scenes/mod_isolation.lua" --report none
check "isolation: the scene's handler ran and saw no forged event" contains "$SCRATCH/err" "isolation_scene: saw 1 contact events"
check "isolation: the mod could not destroy the scene's world" contains "$SCRATCH/err" \
	"mod_isolation: destroy refused: destroy: a mod may destroy only the worlds it made"

finish
