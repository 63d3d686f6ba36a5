#!/usr/bin/env bash
# The helper libraries of scripts/lib are required by their name ("builders") or by their installed
# name ("tumble.builders"), in a plain scene, a sandboxed one and a mod; "tumble.NAME" looks only
# among the helpers, and a missing one is an error naming it.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

# A scene next to which a "builders.lua" of its own shadows the bare name but not "tumble.builders".
mkdir -p "$SCRATCH/scene"
echo 'return { mine = true }' >"$SCRATCH/scene/builders.lua"
cat >"$SCRATCH/scene/both_names.lua" <<'LUA'
local own = require "builders"
local helper = require "tumble.builders"
assert(own.mine, "the bare name finds the scene's own builders.lua first")
assert(type(helper.ground) == "function", "tumble.builders is scripts/lib/builders.lua")
assert(require "tumble.builders" == helper, "a second require returns the same module")
local expect = require "tumble.expect"
return {
	steps = 5,
	setup = function(world)
		helper.ground(world)
		world:add_box{ name = "box", pos = { 0, 0, 0.5 } }
	end,
	finish = function(world)
		local _, _, z = world:body("box"):position()
		expect.near(z, 0.5, 0.01, "box z (m)")
		print("both names ok")
	end,
}
LUA
check "plain scene: both names" expect_status 0 "$TUMBLE" --headless --report none "$SCRATCH/scene/both_names.lua"
check "plain scene: finish ran" contains "$SCRATCH/err" "both names ok"
check "sandboxed scene: both names" expect_status 0 "$TUMBLE" --headless --report none --sandbox "$SCRATCH/scene/both_names.lua"
check "sandboxed scene: finish ran" contains "$SCRATCH/err" "both names ok"

cat >"$SCRATCH/scene/mod_helpers.lua" <<'LUA'
local chains = require "tumble.chains"
local mod = {}
function mod.setup(world)
	assert(type(chains.build) == "function")
	print("mod helpers ok")
end
return mod
LUA
check "mod: tumble.chains" expect_status 0 "$TUMBLE" --headless --report none --mod "$SCRATCH/scene/mod_helpers.lua" tests/e2e/scenes/box_drop.lua
check "mod: its setup ran" contains "$SCRATCH/err" "mod helpers ok"

echo 'require "tumble.nope"' >"$SCRATCH/scene/missing.lua"
check "missing helper: exit 1" expect_status 1 "$TUMBLE" --headless --report none "$SCRATCH/scene/missing.lua"
check "missing helper: names it" contains "$SCRATCH/err" "module 'tumble.nope' not found"
check "missing helper, sandboxed: exit 1" expect_status 1 "$TUMBLE" --headless --report none --sandbox "$SCRATCH/scene/missing.lua"
check "missing helper, sandboxed: names it" contains "$SCRATCH/err" "module 'tumble.nope' not found in the sandbox"

finish
