#!/usr/bin/env bash
# Mods in the viewer, each in a Lua state of its own: a mod's draw() reaches the view the viewer
# shows (the states share one), its ui(ui) gets a ui table of its own state, and a failing mod is
# stopped (its state closed) while the scene and the other mod keep being drawn.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"
start_xvfb

cat >"$SCRATCH/scene.lua" <<'LUA'
return {
	camera = { eye = { 0, -8, 4 }, target = { 0, 0, 1 } },
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	end,
}
LUA
cat >"$SCRATCH/mod_draw.lua" <<'LUA'
local tb = require "tumble"
local mod = { ui_calls = 0 }
function mod.draw()
	tb.draw.sphere({ 1.5, 0, 1 }, 1, { 1, 0, 1 })
end
function mod.ui(ui)
	ui.label("mod_draw")
	mod.ui_calls = mod.ui_calls + 1
	if mod.ui_calls == 5 then print("mod_draw: ui called 5 times") end
end
return mod
LUA
cat >"$SCRATCH/mod_fail.lua" <<'LUA'
return {
	update = function(world, dt, t)
		if world.step_count == 2 then error("mod_fail failed on purpose") end
	end,
}
LUA

check "scene with two mods: runs" viewer 0 "$SCRATCH/scene.lua" --mod "$SCRATCH/mod_draw.lua" \
	--mod "$SCRATCH/mod_fail.lua" --frames 30 --screenshot "$SCRATCH/mods.png"
check "the failing mod is stopped, named" contains "$SCRATCH/err" "mod_fail.lua:3: mod_fail failed on purpose"
check "the drawing mod's ui ran" contains "$SCRATCH/err" "mod_draw: ui called 5 times"
check "no sanitizer report" bash -c '! grep -qE "AddressSanitizer|runtime error:" "$1"' _ "$SCRATCH/err"
check "no OpenGL error" no_gl_errors
png_json magenta count "$SCRATCH/mods.png" 255 0 255 40
check "the mod's sphere is drawn in magenta" json_check "$SCRATCH/magenta.json" 'assert r["count"] > 300, r'

finish
