#!/usr/bin/env bash
# The physics budget of sandboxed scenes (runtime/sandbox.h, fuzz finding 19): too many bodies, or
# bodies piled into one spot, are refused with an error naming the limit, before any expensive
# step; the same scenes run unsandboxed; a legitimate scene (the showcase) runs sandboxed.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

pile=tests/fuzz/crashes/fuzz_lua/sandbox-physics-cost-pile.lua
check "1,200 boxes in a sandbox: refused at load" expect_status 1 "$TUMBLE" --headless --sandbox "$pile" --steps 3
check "the error names the body limit, at the call that would pass it" contains "$SCRATCH/err" "sandbox-physics-cost-pile.lua:6: add_box: sandbox physics budget reached: 1000 bodies"

cat >"$SCRATCH/spot.lua" <<'LUA'
-- 400 boxes on one spot: within the body limit, 79,800 overlapping pairs.
return { setup = function(world) for i = 1, 400 do world:add_box{ pos = { 0, 0, 0 } } end end }
LUA
check "400 boxes on one spot in a sandbox: refused at load" expect_status 1 "$TUMBLE" --headless --sandbox "$SCRATCH/spot.lua" --steps 1
check "the error names the pair limit" contains "$SCRATCH/err" "more than 20000 overlapping shape pairs"

cat >"$SCRATCH/later.lua" <<'LUA'
-- Piled up by update: the step that would take them is refused and the scene halts.
return { update = function(world, dt, t) if t > 0.05 then for i = 1, 400 do world:add_sphere{ radius = 0.5 } end end end }
LUA
check "piled in update: the step is refused" expect_status 1 "$TUMBLE" --headless --sandbox "$SCRATCH/later.lua" --steps 10
check "the step error says which step" contains "$SCRATCH/err" "error at step 4 (t = 0.0500 s):"

cat >"$SCRATCH/self_step.lua" <<'LUA'
-- The script steps the world itself (inside pcall) after piling it up: that step is refused too.
return { update = function(world, dt, t)
	if t == 0 then
		for i = 1, 400 do world:add_box{ pos = { 0, 0, 0 } } end
		local ok, err = pcall(world.step, world, 1 / 60)
		print(ok and "self step ran" or ("self step refused: " .. err))
	end
end }
LUA
check "a script's own world:step on a pile: refused" expect_status 1 "$TUMBLE" --headless --sandbox "$SCRATCH/self_step.lua" --steps 2
check "the script saw its step refused" contains "$SCRATCH/err" "self step refused: step: sandbox physics budget exceeded: more than 20000 overlapping shape pairs"

check "unsandboxed, the 400 boxes run" expect_status 0 "$TUMBLE" --headless "$SCRATCH/spot.lua" --steps 1 --report none
check "the showcase runs sandboxed within the budget" expect_status 0 "$TUMBLE" --headless --sandbox scripts/scenes/showcase.lua --steps 600 --report none

# A mesh pairs every shape within reach with each of its triangles, not once.
check "50 meshes under 10 boxes in a sandbox: refused at load" expect_status 1 "$TUMBLE" --headless --sandbox \
	tests/e2e/scenes/sandbox_mesh_pile.lua --steps 2
check "the mesh pile is refused at load, before any step" contains "$SCRATCH/err" "cannot load the scene:"
check "the mesh pile's error names the predicted pairs" contains "$SCRATCH/err" \
	"sandbox physics budget exceeded: more than 20000 overlapping shape pairs"

# A heightfield pairs like a mesh: the same pile of 50, as heightfields of the same cells.
cat >"$SCRATCH/hf_pile.lua" <<'LUA'
local rows = {}
for j = 1, 9 do
	rows[j] = {}
	for i = 1, 41 do rows[j][i] = 0 end
end
return { setup = function(world)
	for _ = 1, 50 do world:add_heightfield{ heights = rows, cell_size = 0.25, pos = { -5, -1, 0 } } end
	for k = 1, 10 do world:add_box{ pos = { k - 5.5, 0, 0.5 } } end
end }
LUA
check "50 heightfields under 10 boxes in a sandbox: refused at load" expect_status 1 "$TUMBLE" --headless --sandbox \
	"$SCRATCH/hf_pile.lua" --steps 2
check "the heightfield pile's error names the predicted pairs" contains "$SCRATCH/err" \
	"sandbox physics budget exceeded: more than 20000 overlapping shape pairs"
check "unsandboxed, the heightfield pile runs" expect_status 0 "$TUMBLE" --headless "$SCRATCH/hf_pile.lua" --steps 2 --report none

# A heightfield's heights are priced one by one, rows included: 600 rows of 600 are 360,000 heights.
cat >"$SCRATCH/hf_big.lua" <<'LUA'
local rows = {}
for j = 1, 600 do
	rows[j] = {}
	for i = 1, 600 do rows[j][i] = 0 end
end
return { setup = function(world) world:add_heightfield{ heights = rows } end }
LUA
check "a 600 x 600 heightfield in a sandbox: over the call's budget" expect_status 1 "$TUMBLE" --headless --sandbox \
	"$SCRATCH/hf_big.lua" --steps 1
check "the error prices every height" contains "$SCRATCH/err" "hf_big.lua:6: instruction budget exceeded (20000000 instructions per script per step; this call counts as 108001000)"

# A definition behind a proxy was priced as empty (the price is read raw, the binding reads through
# __index): refused.
cat >"$SCRATCH/proxy.lua" <<'LUA'
local v, t = {}, {}
for i = 1, 30000 do v[i] = { i * 0.001, (i % 7) * 0.001, 0 } end
for i = 1, 29998 do t[i] = { i, i + 1, i + 2 } end
return { setup = function(world)
	world:add_mesh(setmetatable({}, { __index = { vertices = v, triangles = t } }))
end }
LUA
check "a mesh definition through __index: refused" expect_status 1 "$TUMBLE" --headless --sandbox "$SCRATCH/proxy.lua" --steps 1
check "the proxy's error says why" contains "$SCRATCH/err" "proxy.lua:5: add_mesh: in the sandbox a definition must be a plain table (no metatable)"

finish
