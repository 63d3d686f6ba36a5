#!/usr/bin/env bash
# Script errors in the viewer: the red overlay with the message and traceback, a clean exit, and
# hot reload that keeps the last good scene running and recovers when the file is fixed.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"
start_xvfb

# red_overlay IMAGE: the error box (saturated red) covers much of the bottom middle of the frame.
red_overlay()
{
	png_json overlay stats "$1" --region 0.2 0.8 0.8 1.0
	json_check "$SCRATCH/overlay.json" '
assert r["red_fraction"] > 0.3, "red %.3f in the overlay region" % r["red_fraction"]'
}

no_red()
{
	png_json no_red stats "$1"
	json_check "$SCRATCH/no_red.json" '
assert r["red_fraction"] < 0.001, "red %.4f: an error overlay is showing" % r["red_fraction"]'
}

clean_exit()
{
	! grep -qE "AddressSanitizer|runtime error:|OpenGL error" "$SCRATCH/err"
}

# --- a scene that does not compile: no scene runs, the overlay says why, exit status 1 ----------------
scenes=tests/e2e/scenes
check "syntax error: exit status 1" viewer 1 "$scenes/syntax_error.lua" --screenshot "$SCRATCH/syntax.png"
check "syntax error: message names the file and line" contains "$SCRATCH/err" "syntax_error.lua:4:"
check "syntax error: clean exit" clean_exit
check "syntax error: the PNG was written" test -s "$SCRATCH/syntax.png"
check "syntax error: red overlay" red_overlay "$SCRATCH/syntax.png"

# --- an error in update at step 2: the scene halts, its bodies stay drawn ------------------------------
check "update error: exit status 1" viewer 1 "$scenes/update_error.lua" --screenshot "$SCRATCH/update.png" --steps 10
check "update error: traceback names the line" contains "$SCRATCH/err" "update_error.lua:9:"
check "update error: clean exit" clean_exit
check "update error: red overlay" red_overlay "$SCRATCH/update.png"
png_json update_centre stats "$SCRATCH/update.png" --region 0.4 0.3 0.6 0.7
check "update error: the halted scene is still drawn" json_check "$SCRATCH/update_centre.json" '
assert r["saturated_fraction"] > 0.03, "no coloured body in the centre: %r" % r'

# --- an error inside ui(ui) -----------------------------------------------------------------------------
cat >"$SCRATCH/ui_error.lua" <<'LUA'
local scene = {}
function scene.setup(world)
	world:add_box{ size = { 1, 1, 1 }, pos = { 0, 0, 0.5 } }
end
function scene.ui(ui)
	ui.slider("broken", "not a number", 0, 1) -- line 6
end
return scene
LUA
check "ui error: exit status 1" viewer 1 "$SCRATCH/ui_error.lua" --screenshot "$SCRATCH/ui_error.png"
check "ui error: message says what was wrong" contains "$SCRATCH/err" "ui_error.lua:6: ui.slider: value must be a number, got string"
check "ui error: red overlay" red_overlay "$SCRATCH/ui_error.png"

# --- hot reload: break the file while it runs, then fix it -----------------------------------------------
# Lockstep runs one step per frame. The script replaces the scene file as an editor would (rename).
write_version()
{
	cat >"$1" <<LUA
local scene = {}
function scene.setup(world)
	world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	world:add_box{ size = { 1, 1, 1 }, pos = { 0, 0, 2 } }
end
function scene.update(world, dt, t)
	if world.step_count % 5 == 0 then print("$2 step " .. world.step_count) end
end
return scene
LUA
}
write_version "$SCRATCH/live.lua" v1
write_version "$SCRATCH/good.lua" v2
printf 'return { setup = function(world) world:add_box{ ] end }\n' >"$SCRATCH/bad.lua"
cat >"$SCRATCH/reload.input" <<EOF2
5 copy $SCRATCH/bad.lua $SCRATCH/live.lua
15 screenshot $SCRATCH/broken.png
20 copy $SCRATCH/good.lua $SCRATCH/live.lua
EOF2
check "hot reload session: exit status 0" viewer 0 "$SCRATCH/live.lua" --script-input "$SCRATCH/reload.input" \
	--frames 40 --screenshot "$SCRATCH/fixed.png"
check "hot reload session: clean exit" clean_exit
check "the broken save is reported" contains "$SCRATCH/err" "reload failed, the last good scene keeps running"
check "the last good scene kept running" contains "$SCRATCH/err" "v1 step 15"
check "the fix reloaded the scene" contains "$SCRATCH/err" "v2 step 10"
check "overlay while the file is broken" red_overlay "$SCRATCH/broken.png"
check "no overlay once fixed" no_red "$SCRATCH/fixed.png"

finish
