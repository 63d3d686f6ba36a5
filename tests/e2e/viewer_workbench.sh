#!/usr/bin/env bash
# The viewer as a first-time user meets it: Esc closes help and never quits (Ctrl+Q does), the
# header's speed is the measured one, the joint-error figure ignores broken and disabled joints.
# Each run ends with the --frames summary line on stderr, which the checks read.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"
start_xvfb

# A box on the ground that reports its step count.
cat >"$SCRATCH/box.lua" <<'LUA'
return {
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		world:add_box{ size = { 1, 1, 1 }, pos = { 0, 0, 0.5 } }
	end,
	update = function(world) print("step " .. world.step_count) end,
}
LUA

# Esc with the help overlay open closes it, and the run goes on to its last frame.
cat >"$SCRATCH/esc.input" <<'IN'
5 key f1
10 screenshot help.png
12 key escape
15 screenshot closed.png
20 key escape
IN
check "Esc closes help: the run continues to its end" expect_status 0 bash -c \
	'cd "$1" && exec "$2" --window 800x450 box.lua --script-input esc.input --frames 60' _ \
	"$SCRATCH" "$( cd "$( dirname "$TUMBLE" )" && pwd )/$( basename "$TUMBLE" )"
check "Esc did not quit: the scene stepped on to the last frame" contains "$SCRATCH/err" "step 59"
png_json esc diff "$SCRATCH/help.png" "$SCRATCH/closed.png" --region 0.3 0.05 0.7 0.6
check "the help overlay was on screen, and gone after Esc" json_check "$SCRATCH/esc.json" '
assert r["changed_fraction"] > 0.2, "help vs closed: %r" % r'

# Ctrl+Q quits at once (well before the 600 frames asked for), with status 0.
cat >"$SCRATCH/quit.input" <<'IN'
10 keydown left ctrl
11 key q
IN
check "Ctrl+Q quits with status 0" viewer 0 "$SCRATCH/box.lua" --script-input "$SCRATCH/quit.input" --frames 600
check "Ctrl+Q quit before the last frame" bash -c '! grep -q "^step 100$" "$1" && grep -q "^step 5$" "$1"' _ "$SCRATCH/err"

# A scene whose update burns at least 40 ms of CPU a step runs at most 1/60 s per 40 ms of wall
# time: the speed the viewer reports must say so (x0.42 or less), not x1. (CPU time cannot exceed
# wall time, so the bound holds however fast the machine is.)
cat >"$SCRATCH/slow.lua" <<'LUA'
return {
	setup = function(world) world:add_sphere{ radius = 0.5, pos = { 0, 0, 2 } } end,
	update = function()
		local start = os.clock()
		while os.clock() - start < 0.04 do end
	end,
}
LUA
check "a slow scene runs" viewer 0 "$SCRATCH/slow.lua" --frames 40
speed_of() { sed -n 's/.*speed shown x\([0-9.]*\).*/\1/p' "$SCRATCH/err" | tail -n 1; }
check "the speed shown is the real one (x0.42 or less)" bash -c \
	'v="$1"; [ -n "$v" ] && awk -v v="$v" "BEGIN { exit !(v > 0 && v <= 0.42) }" || { echo "      speed shown: ${v:-none}"; exit 1; }' _ "$( speed_of )"

# Two pairs of balls whose anchors are 1 m apart on joints of length 0.2 m: one joint disabled, the
# other broken at once. Neither gap is an error of the solver, so the figure stays near zero
# (counted, it would be 0.8 m).
cat >"$SCRATCH/broken.lua" <<'LUA'
return {
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		local a = world:add_sphere{ radius = 0.3, pos = { -1.5, 0, 0.3 } }
		local b = world:add_sphere{ radius = 0.3, pos = { 1.5, 0, 0.3 } }
		local rope = world:distance{ a = a, b = b, anchor_a = { -1.5, 0, 0.3 }, anchor_b = { -0.5, 0, 0.3 }, length = 0.2 }
		rope.enabled = false
		local c = world:add_sphere{ radius = 0.3, pos = { 0, 3, 0.3 } }
		local d = world:add_sphere{ radius = 0.3, pos = { 0, 6, 0.3 } }
		world:distance{ a = c, b = d, anchor_a = { 0, 3, 0.3 }, anchor_b = { 0, 4, 0.3 }, length = 0.2, break_force = 1e-3 }
	end,
}
LUA
check "a scene with a disabled and a broken joint runs" viewer 0 "$SCRATCH/broken.lua" --frames 30
check "max joint error skips the broken and disabled joints" bash -c \
	'v="$( sed -n "s/.*max joint error \([0-9.]*\) m.*/\1/p" "$1" )"; awk -v v="$v" "BEGIN { exit !(v != \"\" && v < 0.01) }" || { echo "      max joint error: ${v:-none}"; exit 1; }' _ "$SCRATCH/err"

# The scene picker: F3 lists the scenes of this folder and the shipped ones; Down and Enter open
# the next one in the running window. At exit the viewer writes the scene and its view to the
# state file, and `tumble` without a scene reopens both.
mkdir -p "$SCRATCH/scenes"
for name in alpha beta; do
	cat >"$SCRATCH/scenes/$name.lua" <<LUA
return {
	title = "The $name scene",
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		world:add_box{ size = { 1, 1, 1 }, pos = { 0, 0, 0.5 } }
	end,
	update = function(world) print("$name step " .. world.step_count) end,
}
LUA
done
cat >"$SCRATCH/picker.input" <<'IN'
5 key f3
8 screenshot picker.png
10 key down
11 key return
15 screenshot beta.png
20 mousedown right 0.5 0.5
21 mousemove 0.6 0.45
22 mouseup right 0.6 0.45
IN
check "the picker run ends normally" expect_status 0 bash -c \
	'cd "$1" && exec "$2" --window 800x450 scenes/alpha.lua --script-input picker.input --frames 30' _ \
	"$SCRATCH" "$( cd "$( dirname "$TUMBLE" )" && pwd )/$( basename "$TUMBLE" )"
cp "$SCRATCH/err" "$SCRATCH/picker.log"
check "Down and Enter in the picker opened the next scene" contains "$SCRATCH/picker.log" "opened beta.lua"
check "the new scene runs in the same window" contains "$SCRATCH/picker.log" "beta step 10"
check "the old scene stopped" bash -c '! grep -q "^alpha step 12$" "$1"' _ "$SCRATCH/picker.log"
png_json picker diff "$SCRATCH/picker.png" "$SCRATCH/beta.png" --region 0.1 0.02 0.9 0.9
check "the picker was drawn over the scene" json_check "$SCRATCH/picker.json" '
assert r["changed_fraction"] > 0.1, "picker vs after: %r" % r'
state="$SCRATCH/state/tumble/viewer.state"
check "the state file names the last scene" contains "$state" "scene $( cd "$SCRATCH" && pwd -P )/scenes/beta.lua"
camera_line="$( grep '^camera ' "$state" )"
check "tumble without a scene reopens the last one" viewer 0 --frames 3
check "... which ran" contains "$SCRATCH/err" "beta step 2"
check "... with the view it had (not a new fit)" contains "$state" "$camera_line"

# Keys a scene claims are the scene's: space does not pause, Left does not rewind, W does not fly;
# they reach keypressed and tb.input.down.
cat >"$SCRATCH/claim.lua" <<'LUA'
local tb = require "tumble"
return {
	title = "Claims keys",
	world = { sleep = false }, -- a box falling asleep would dim and change the view by itself
	keys = { { "space", "jump" }, { "left, right", "steer" }, { "w", "forward" } },
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		world:add_box{ size = { 1, 1, 1 }, pos = { 0, 0, 0.5 } }
	end,
	update = function(world)
		local held = {}
		for _, k in ipairs { "left", "w" } do
			if tb.input.down(k) then held[#held + 1] = k end
		end
		print(("step %d held %s"):format(world.step_count, table.concat(held, ",")))
	end,
	keypressed = function(key) print("key " .. key) end,
}
LUA
cat >"$SCRATCH/claim.input" <<'IN'
10 key space
15 keydown left
20 keyup left
24 screenshot before_w.png
25 keydown w
35 keyup w
36 screenshot after_w.png
IN
check "a scene that claims keys runs" expect_status 0 bash -c \
	'cd "$1" && exec "$2" --window 800x450 claim.lua --script-input claim.input --frames 50' _ \
	"$SCRATCH" "$( cd "$( dirname "$TUMBLE" )" && pwd )/$( basename "$TUMBLE" )"
cp "$SCRATCH/err" "$SCRATCH/claim.log"
check "claimed keys reach keypressed" bash -c 'grep -qx "key space" "$1" && grep -qx "key left" "$1" && grep -qx "key w" "$1"' _ "$SCRATCH/claim.log"
check "claimed keys reach tb.input.down" bash -c 'grep -q "held left" "$1" && grep -q "held w" "$1"' _ "$SCRATCH/claim.log"
check "space did not pause and Left did not rewind: one step a frame throughout" bash -c \
	'[ "$( sed -n "s/^step \([0-9]*\) held.*/\1/p" "$1" | tr "\n" " " )" = "$( seq 0 49 | tr "\n" " " )" ]' _ "$SCRATCH/claim.log"
# The view between the panels, below the status line (the screenshot notice) and the plots.
png_json claim diff "$SCRATCH/before_w.png" "$SCRATCH/after_w.png" --region 0.32 0.1 0.76 1
check "W did not fly the camera" json_check "$SCRATCH/claim.json" '
assert r["changed_fraction"] < 0.01, "the view changed while W was held: %r" % r'

# The shipped scenes whose keys the viewer used to take: space in hinge and slider_cannon, the
# arrows in self_driving_wheel. 60 lockstep frames simulate 1 s unless a key paused or rewound.
printf '10 key space\n' >"$SCRATCH/space.input"
printf '10 keydown right\n30 keyup right\n35 keydown left\n40 keyup left\n' >"$SCRATCH/arrows.input"
for run in "hinge space" "slider_cannon space" "self_driving_wheel arrows"; do
	set -- $run
	check "$1: its keys go to the scene" viewer 0 "scripts/scenes/$1.lua" --script-input "$SCRATCH/$2.input" --frames 60
	check "$1: the viewer neither paused nor rewound" contains "$SCRATCH/err" "simulated 1.00 s"
done

# The inspector: a click on the crate selects it; its panel appears under the stats (name, type,
# mass, velocity, sleep state, joints) and its outline is drawn in white around it.
cat >"$SCRATCH/inspect.lua" <<'LUA'
return {
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		local crate = world:add_box{ name = "crate", size = { 1, 1, 1 }, pos = { 0, 0, 0.5 } }
		local ball = world:add_sphere{ name = "ball", radius = 0.4, pos = { 0, 0, 2.5 } }
		world:distance{ name = "rope", a = crate, b = ball }
	end,
}
LUA
cat >"$SCRATCH/inspect.input" <<'IN'
3 screenshot none.png
5 mousedown left 0.541 0.62
6 mouseup left 0.541 0.62
20 screenshot selected.png
IN
check "selecting a body" expect_status 0 bash -c \
	'cd "$1" && exec "$2" --window 800x450 inspect.lua --script-input inspect.input --frames 25' _ \
	"$SCRATCH" "$( cd "$( dirname "$TUMBLE" )" && pwd )/$( basename "$TUMBLE" )"
png_json inspector diff "$SCRATCH/none.png" "$SCRATCH/selected.png" --region 0.01 0.2 0.3 0.38
check "the inspector panel appears under the stats" json_check "$SCRATCH/inspector.json" '
assert r["changed_fraction"] > 0.08, "inspector region: %r" % r'
png_json outline_before count "$SCRATCH/none.png" 255 255 255 40 --region 0.4 0.4 0.7 0.9
png_json outline_after count "$SCRATCH/selected.png" 255 255 255 40 --region 0.4 0.4 0.7 0.9
check "the selection is outlined in white" python3 -c '
import json, sys
before, after = (json.load(open(f))["count"] for f in sys.argv[1:])
assert after > before + 200, "white pixels around the crate: %d before, %d after" % (before, after)' \
	"$SCRATCH/outline_before.json" "$SCRATCH/outline_after.json"

# A scene panel taller than the window: the controls say there is more below, and the wheel over
# them scrolls them up (the scene's last label comes into view).
cat >"$SCRATCH/tall.lua" <<'LUA'
return {
	setup = function(world) world:add_sphere{ radius = 0.5, pos = { 0, 0, 0.5 } } end,
	ui = function(ui)
		for i = 1, 40 do ui.label(("tweak %d"):format(i)) end
	end,
}
LUA
cat >"$SCRATCH/tall.input" <<'IN'
3 mousemove 0.9 0.5
4 screenshot tall_top.png
5 wheel -40
8 screenshot tall_scrolled.png
IN
check "a tall scene panel" expect_status 0 bash -c \
	'cd "$1" && exec "$2" --window 800x450 tall.lua --script-input tall.input --frames 10' _ \
	"$SCRATCH" "$( cd "$( dirname "$TUMBLE" )" && pwd )/$( basename "$TUMBLE" )"
png_json tall_strip count "$SCRATCH/tall_top.png" 60 90 150 4 --region 0.78 0.93 0.99 1
check "the controls say there is more below" json_check "$SCRATCH/tall_strip.json" '
assert r["fraction"] > 0.3, "the strip at the bottom of the controls: %r" % r'
png_json tall diff "$SCRATCH/tall_top.png" "$SCRATCH/tall_scrolled.png" --region 0.78 0 1 1
check "the wheel over the controls scrolls them" json_check "$SCRATCH/tall.json" '
assert r["changed_fraction"] > 0.1, "controls before and after the wheel: %r" % r'
png_json tall_end count "$SCRATCH/tall_scrolled.png" 60 90 150 4 --region 0.78 0.93 0.99 1
check "scrolled to the end, the strip is gone" json_check "$SCRATCH/tall_end.json" '
assert r["fraction"] < 0.1, "the strip after scrolling: %r" % r'

# Text: anti-aliased TrueType (many shades of grey along the glyphs' edges, where the 5x7 bitmap
# font had two), with the UI scale following the window: at 1920x1080 the header's text covers
# about the same share of the window as at 800x450 (scale 1.75 against 1; with a fixed scale it
# would be (450 / 1080)^2 = 0.17 of it).
cat >"$SCRATCH/text.lua" <<'LUA'
return {
	title = "Text at two sizes",
	description = "A scene whose header has a title, a description and keys, to measure the text.",
	keys = { { "space", "nothing at all" } },
	setup = function(world) world:add_sphere{ radius = 0.5, pos = { 0, 0, 0.5 } } end,
}
LUA
for size in 800x450 1920x1080; do
	check "text at $size" expect_status 0 "$TUMBLE" --window "$size" "$SCRATCH/text.lua" --screenshot "$SCRATCH/text_$size.png"
	png_json "text_$size" stats "$SCRATCH/text_$size.png" --region 0.01 0.02 0.2 0.2
	png_json "glyphs_$size" count "$SCRATCH/text_$size.png" 210 212 218 70 --region 0.01 0.02 0.2 0.2
done
check "the header's text is anti-aliased" json_check "$SCRATCH/text_800x450.json" '
assert r["colours"] > 60, "only %d colours in the header" % r["colours"]'
check "the text grows with the window" python3 -c '
import json, sys
small, large = (json.load(open(f)) for f in sys.argv[1:])
ratio = large["fraction"] / max(small["fraction"], 1e-9)
assert small["count"] > 300 and 0.35 < ratio < 1.5, "text share at 1920x1080 / 800x450: %.2f (%r, %r)" % (ratio, small, large)' \
	"$SCRATCH/glyphs_800x450.json" "$SCRATCH/glyphs_1920x1080.json"

# Joints are drawn by default: a ball on a 2 m rod under a pivot shows its rod (the same scene with
# the ball held in place by being static, and no joint, has none), with the debug layers off; so
# does a ball held by a ball joint at the pivot (a link from its centre to the far anchor).
for variant in rod ball none; do
	cat >"$SCRATCH/rod_$variant.lua" <<LUA
return {
	camera = { eye = { 0, -5, 2.5 }, target = { 0, 0, 2.5 } },
	setup = function(world)
		local pivot = world:add_box{ size = { 0.2, 0.2, 0.2 }, pos = { 0, 0, 4 }, static = true }
		local ball = world:add_sphere{ radius = 0.2, pos = { 0, 0, 2 }, static = "$variant" == "none" }
		if "$variant" == "rod" then world:distance{ a = pivot, b = ball } end
		if "$variant" == "ball" then world:ball{ a = pivot, b = ball, anchor = { 0, 0, 4 } } end
	end,
}
LUA
	check "pendulum ($variant)" viewer 0 "$SCRATCH/rod_$variant.lua" --no-ui --screenshot "$SCRATCH/rod_$variant.png"
done
png_json rod diff "$SCRATCH/rod_none.png" "$SCRATCH/rod_rod.png" --region 0.45 0.25 0.55 0.5
check "the rod is drawn between the pivot and the ball" json_check "$SCRATCH/rod.json" '
assert r["brighter"] > 60, "rod pixels: %r" % r'
png_json link diff "$SCRATCH/rod_none.png" "$SCRATCH/rod_ball.png" --region 0.45 0.25 0.55 0.5
check "a ball joint's far anchor is linked to its ball" json_check "$SCRATCH/link.json" '
assert r["brighter"] > 60, "link pixels: %r" % r'

finish
