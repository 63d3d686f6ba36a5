#!/usr/bin/env bash
# --sandbox and --mod: escapes, instruction budget, memory cap and deep recursion are stopped with
# a clear error while the program survives; a failing mod is disabled and the others keep running.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

scenes=tests/e2e/scenes

check "escapes are blocked and the script goes on" expect_status 0 "$TUMBLE" --headless --sandbox --memory 64 --budget 200000000 "$scenes/sandbox_escapes.lua"
check "escapes: the world still works" json_check "$SCRATCH/out" 'body("survivor")'

check "infinite loop: exit 1" expect_status 1 "$TUMBLE" --headless --sandbox --budget 1000000 "$scenes/sandbox_loop.lua" --steps 5
check "infinite loop: budget message" contains "$SCRATCH/err" "instruction budget exceeded"
check "infinite loop: names the line" contains "$SCRATCH/err" "sandbox_loop.lua:"
check "loop catching the budget error: exit 1" expect_status 1 "$TUMBLE" --headless --sandbox --budget 1000000 "$scenes/sandbox_loop_pcall.lua" --steps 5
check "loop catching the budget error: message" contains "$SCRATCH/err" "instruction budget exceeded"
check "loop of world steps: exit 1" expect_status 1 "$TUMBLE" --headless --sandbox --budget 15000 "$scenes/sandbox_step_loop.lua" --steps 60
check "loop of world steps: the budget counts each step" contains "$SCRATCH/err" "sandbox_step_loop.lua:18: instruction budget exceeded (15000 instructions per script per step; a step of this world counts as"
check "loop of world steps: the host's own 30 steps (each counted above the budget) were not charged" contains "$SCRATCH/err" "error at step 31 "
check "loop of snapshots: exit 1" expect_status 1 "$TUMBLE" --headless --sandbox "$scenes/sandbox_snapshot_loop.lua" --steps 5
check "loop of snapshots: the budget counts each copy" contains "$SCRATCH/err" "sandbox_snapshot_loop.lua:9: instruction budget exceeded (20000000 instructions per script per step; a snapshot of this world counts as"
check "loop of queries: exit 1" expect_status 1 "$TUMBLE" --headless --sandbox --budget 1000000 "$scenes/sandbox_query_loop.lua" --steps 5
check "loop of queries: stopped by the CPU-time limit" contains "$SCRATCH/err" "sandbox_query_loop.lua:10: time budget exceeded (1.0 s of CPU per script per step, for a budget of 1000000 instructions)"
check "loop of creations: stopped at the physics budget" expect_status 1 "$TUMBLE" --headless --sandbox "$scenes/sandbox_create_loop.lua" --steps 5
check "loop of creations: message" contains "$SCRATCH/err" "sandbox_create_loop.lua:6: add_box: sandbox physics budget reached: 1000 bodies"
check "loop in coroutines: exit 1" expect_status 1 "$TUMBLE" --headless --sandbox --budget 1000000 "$scenes/sandbox_loop_coroutine.lua" --steps 5
check "loop in coroutines: message" contains "$SCRATCH/err" "instruction budget exceeded"

check "memory bomb: exit 1" expect_status 1 "$TUMBLE" --headless --sandbox --memory 64 "$scenes/sandbox_bomb.lua" --steps 5
check "memory bomb: message" contains "$SCRATCH/err" "not enough memory"

# The same scripts without --sandbox are trusted: the escapes scene fails its first assertion.
check "without --sandbox the environment is the full one" expect_status 1 "$TUMBLE" --headless "$scenes/sandbox_escapes.lua"
check "without --sandbox: io is visible" contains "$SCRATCH/err" "io is visible"

# Mods: one good, four failing in different ways.
check "mods: exit 0" expect_status 0 "$TUMBLE" --headless "$scenes/mod_base.lua" --steps 60 \
	--mod "$scenes/mod_good.lua" --mod "$scenes/mod_loop.lua" --mod "$scenes/mod_bomb.lua" \
	--mod "$scenes/mod_handler.lua" --mod "$scenes/mod_escape.lua" --memory 64 --budget 5000000
cp "$SCRATCH/out" "$SCRATCH/mods.json"
cp "$SCRATCH/err" "$SCRATCH/mods.err"
check "mods: errors reported per mod" json_check "$SCRATCH/mods.json" '
mods = {m["path"].rsplit("/", 1)[-1]: m["error"] for m in r["mods"]}
assert mods["mod_good.lua"] is None, mods["mod_good.lua"]
assert "instruction budget exceeded" in mods["mod_loop.lua"], mods["mod_loop.lua"]
assert "not enough memory" in mods["mod_bomb.lua"], mods["mod_bomb.lua"]
assert "handler mod failed on purpose" in mods["mod_handler.lua"], mods["mod_handler.lua"]
assert "mod_escape.lua:2:" in mods["mod_escape.lua"], mods["mod_escape.lua"]
'
check "mods: the scene ran all its steps" json_check "$SCRATCH/mods.json" 'assert r["steps"] == 60, r["steps"]'
check "mods: the good mod kept running (its ball rolled at 1 m/s for 1 s)" json_check "$SCRATCH/mods.json" '
b = body("mod_ball")
near(b["pos"][0], 3 + 1.0, 0.1, "mod_ball x (m)")
near(b["vel"][0], 1.0, 0.05, "mod_ball vx (m/s)")
body("crate")
'
check "mods: disabling is announced on stderr" contains "$SCRATCH/mods.err" "tumble: mod tests/e2e/scenes/mod_loop.lua disabled"

# A file whose loading runs out of memory: the error names it (scene and mod).
python3 -c "print('return {' + ','.join('{%d,%d,%d}' % (i, i, i) for i in range(400000)) + '}')" >"$SCRATCH/big.lua"
check "a scene too big to load under the cap: exit 1" expect_status 1 "$TUMBLE" --headless --sandbox --memory 8 "$SCRATCH/big.lua" --steps 1
check "the memory error names the scene file" contains "$SCRATCH/err" "big.lua: not enough memory (the script's memory cap of 8 MiB is reached; it holds"
check "a mod too big to load: the scene goes on" expect_status 0 "$TUMBLE" --headless "$scenes/mod_base.lua" --memory 8 --mod "$SCRATCH/big.lua" --steps 1
check "the memory error names the mod file" json_check "$SCRATCH/out" '
assert "big.lua: not enough memory (the script\x27s memory cap of 8 MiB is reached; it holds" in r["mods"][0]["error"], r["mods"]
'

finish
