#!/usr/bin/env bash
# The viewer survives 300 frames of scripted input (SDL events pushed into its queue, the same path
# as a user's) with glGetError checked every frame, and each action does what it should:
# drag a body up with the mouse joint, pause, single-step, resume, reset, click and drag tweak-panel
# widgets, shift-click impulse, keys forwarded to the scene and to tb.input.down, debug toggles,
# help and panels, slow motion, zoom, orbit, pan, fly, focus, F5 and hot reload, F12 screenshot.
# Scripted runs are lockstep (one physics step per frame), so step counts are exact.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"
start_xvfb

# The program and the scene by absolute path: the viewer runs in $SCRATCH, where F12 writes.
tumble_abs="$( cd "$( dirname "$TUMBLE" )" && pwd )/$( basename "$TUMBLE" )"
scene="$SCRATCH/live.lua"

write_version()
{
	cat >"$1" <<LUA
local tb = require "tumble"
local scene = { speed = 2, kicks = 0 }
function scene.setup(world)
	world:add_box{ size = { 30, 30, 1 }, pos = { 0, 0, -0.5 }, static = true }
	-- A 2 m box at the origin: the camera is fitted to it, so it sits in the middle of the view
	-- between the panels: x 0.541 of the window (docs/VIEWER.md, the automatic fit).
	scene.box = world:add_box{ name = "box", size = { 2, 2, 2 }, pos = { 0, 0, 1 } }
end
function scene.update(world, dt, t)
	local _, _, z = scene.box:position()
	local vx, vy, vz = scene.box:velocity()
	print(("$2 step %d z=%.3f speed=%.3f"):format(world.step_count, z, math.sqrt(vx * vx + vy * vy + vz * vz)))
	if tb.input.down("j") then print("j held") end
end
function scene.keypressed(key)
	print("key " .. key)
end
function scene.ui(ui)
	if ui.button("kick") then
		scene.kicks = scene.kicks + 1
		print("kick clicked " .. scene.kicks)
	end
	local speed = ui.slider("speed", scene.speed, 0, 10)
	if speed ~= scene.speed then print(("slider %.2f"):format(speed)) end
	scene.speed = speed
end
return scene
LUA
}
write_version "$scene" v1
write_version "$SCRATCH/v2.lua" v2

# Panel layout at UI scale 1 (an 800x450 window), from runtime/viewer/ui.c and viewer.c: the
# Controls panel spans x 622..792; the scene's first widget (the kick button) is the row at
# y 252..266 and the slider the row at y 268..282, track x 628..723 (below the seven debug layers).
{
	echo "10 mousedown left 0.541 0.5"
	for f in $( seq 11 40 ); do
		echo "$f mousemove 0.541 $( awk -v f="$f" 'BEGIN { printf "%.4f", 0.5 - 0.45 * (f - 10) / 30 }' )"
	done
	echo "70 mouseup left 0.541 0.05"
	echo "80 key space"
	# Rewind five recorded steps while paused (one snapshot per step at this size).
	for i in 1 2 3 4 5; do echo "90 key left"; done
	echo "100 key period"
	echo "100 key period"
	echo "100 key period"
	echo "110 key space"
	echo "120 key k"
	for k in 1 2 3 4 5 6; do echo "$(( 129 + k )) key $k"; done
	echo "140 key f1"
	echo "145 key tab"
	echo "146 key tab"
	echo "147 key f1"
	echo "150 key r"
	echo "155 mousedown left 0.88375 0.5756"
	echo "156 mouseup left 0.88375 0.5756"
	echo "160 mousedown left 0.80 0.6111"
	for f in $( seq 161 170 ); do
		echo "$f mousemove $( awk -v f="$f" 'BEGIN { printf "%.4f", 0.80 + 0.09 * (f - 160) / 10 }' ) 0.6111"
	done
	echo "171 mouseup left 0.89 0.6111"
	echo "175 keydown left shift"
	echo "176 mousedown left 0.541 0.5"
	echo "177 mouseup left 0.541 0.5"
	echo "178 keyup left shift"
	echo "185 key t"
	echo "195 key t"
	echo "200 keydown j"
	echo "205 keyup j"
	echo "210 wheel 3"
	echo "212 wheel -2"
	echo "215 mousedown right 0.3 0.3"
	for f in $( seq 216 225 ); do echo "$f mousemove 0.$(( 30 + f - 215 )) 0.3"; done
	echo "226 mouseup right 0.4 0.3"
	echo "230 mousedown middle 0.3 0.3"
	for f in $( seq 231 239 ); do echo "$f mousemove 0.3 0.$(( 30 + f - 230 ))"; done
	echo "240 mouseup middle 0.3 0.39"
	echo "245 keydown w"
	echo "255 keyup w"
	echo "258 mousedown left 0.541 0.5"
	echo "259 mouseup left 0.541 0.5"
	echo "260 key f"
	echo "262 key home"
	echo "265 key f5"
	echo "270 copy $SCRATCH/v2.lua $scene"
	echo "280 key f12"
	echo "285 screenshot $SCRATCH/input_end.png"
} >"$SCRATCH/session.input"

# expect_status runs a program under timeout, so the directory change goes through bash -c.
check "300 frames of scripted input: exit status 0" expect_status 0 bash -c \
	'cd "$1" && exec "$2" --window 800x450 "$3" --script-input "$4" --frames 300' _ \
	"$SCRATCH" "$tumble_abs" "$scene" "$SCRATCH/session.input"
check "no OpenGL errors in 300 frames" no_gl_errors
check "no sanitizer reports" bash -c '! grep -qE "AddressSanitizer|runtime error:" "$1"' _ "$SCRATCH/err"
cp "$SCRATCH/err" "$SCRATCH/session.log"

python3 - "$SCRATCH/session.log" >"$SCRATCH/steps.json" <<'PY'
import json, re, sys
runs = []  # one list of (step, z, speed) per world (a reset starts a new one)
events = []
for line in open(sys.argv[1]):
    m = re.match(r"(v\d) step (\d+) z=([-\d.]+) speed=([-\d.]+)", line)
    if m:
        step = int(m.group(2))
        if not runs or step == 0:
            runs.append({"version": m.group(1), "steps": []})
        runs[-1]["steps"].append([step, float(m.group(3)), float(m.group(4))])
    else:
        events.append(line.strip())
print(json.dumps({"runs": runs, "events": events}))
PY

# Frames 0-79 step (update sees counts 0..79), frame 80 pauses, frame 90 rewinds five snapshots
# (back to the state after 75 steps), frame 100 single-steps three times (75, 76, 77), frame 110
# resumes and frames 110-149 step (78..117); then R rebuilds the world and counting restarts.
check "pause, rewind, single steps and resume: exact step counts" json_check "$SCRATCH/steps.json" '
first = [s[0] for s in r["runs"][0]["steps"]]
want = list(range(80)) + list(range(75, 118))
assert first == want, "steps before the reset: %r" % first[70:95]'
# update prints the state before each step: after the rewind, step 75 shows the recorded state.
check "rewind restores the recorded state" json_check "$SCRATCH/steps.json" '
steps = r["runs"][0]["steps"]
assert steps[75][0] == 75 and steps[80][0] == 75, "%r %r" % (steps[75], steps[80])
assert steps[75][1] == steps[80][1], "height at step 75: %.3f first, %.3f after the rewind" % (steps[75][1], steps[80][1])'
check "dragging lifted the box (mouse joint)" json_check "$SCRATCH/steps.json" '
steps = r["runs"][0]["steps"]
rest = steps[5][1]
lifted = max(z for step, z, speed in steps[10:75])
assert abs(rest - 1.0) < 0.05, "resting height %.3f" % rest
assert lifted > rest + 1.0, "highest %.3f during the drag, resting %.3f" % (lifted, rest)'
check "the box fell back after the release" json_check "$SCRATCH/steps.json" '
steps = r["runs"][0]["steps"]
peak = max(z for step, z, speed in steps)
# Down from the peak to at most a corner-up cube (sqrt(3) m): on the ground, maybe still tumbling.
assert steps[-1][1] < 1.75 and peak > 2.0, "height %.3f at the reset, peak %.3f" % (steps[-1][1], peak)'
check "shift-click pushed the box (impulse)" json_check "$SCRATCH/steps.json" '
second = r["runs"][1]["steps"]
before = [s[2] for s in second if s[0] < 25]
after = [s[2] for s in second if 25 <= s[0] <= 32]
assert max(before) < 0.2 and max(after) > 3.0, "speed before %.3f, after %.3f" % (max(before), max(after))'
check "keys the viewer does not use go to keypressed" contains "$SCRATCH/session.log" "key k"
check "viewer keys are not forwarded" bash -c '! grep -qE "^key (space|period|r|t|f|1|tab)$" "$1"' _ "$SCRATCH/session.log"
check "tb.input.down sees held keys" contains "$SCRATCH/session.log" "j held"
check "clicking the scene's button" contains "$SCRATCH/session.log" "kick clicked 1"
check "dragging the scene's slider" json_check "$SCRATCH/steps.json" '
values = [float(e.split()[1]) for e in r["events"] if e.startswith("slider ")]
assert values and max(values) > 8.0, "slider values %r" % values[-5:]'
# The scene's slider is called "speed" like the viewer's own: they must not move together. At one
# step per frame the reset world (frame 150) is at step 25 on frame 175.
check "the viewer's speed did not follow the scene's slider" json_check "$SCRATCH/steps.json" '
second = [s[0] for s in r["runs"][1]["steps"]]
assert second[:26] == list(range(26)), "steps after the reset: %r" % second[:30]'
check "R reset the scene" contains "$SCRATCH/session.log" "reset live.lua (rebuild)"
check "F5 reloaded the scene" contains "$SCRATCH/session.log" "reloaded live.lua (rebuild)"
check "saving a new version hot-reloaded it" json_check "$SCRATCH/steps.json" '
assert r["runs"][-1]["version"] == "v2", "last run is %s" % r["runs"][-1]["version"]'
check "F12 saved a screenshot" bash -c 'ls "$1"/tumble-*.png >/dev/null 2>&1' _ "$SCRATCH"
check "the scripted screenshot was saved" test -s "$SCRATCH/input_end.png"
png_json end stats "$SCRATCH/input_end.png"
check "the last frame is not blank" json_check "$SCRATCH/end.json" '
assert r["colours"] > 100 and r["foreground_fraction"] > 0.2 and r["red_fraction"] < 0.001, "%r" % r'

# The showcase's panel: its first button drops a ball on the pile, as the b key does. Panel layout
# at 1280x720 (runtime/viewer/ui.c): the button row is x 1108..1266, y 253..267.
showcase_abs="$( cd "$( dirname "$0" )/../../scripts/scenes" && pwd )/showcase.lua"
cat >"$SCRATCH/showcase_panel.lua" <<LUA
local scene = dofile("$showcase_abs")
local update = scene.update
function scene.update(world, dt, t)
	update(world, dt, t)
	if scene.drops > 0 and not scene.reported then
		print("drops " .. scene.drops .. " bodies " .. world:stats().bodies)
		scene.reported = true
	end
end
return scene
LUA
printf '20 mousedown left 0.927 0.361\n21 mouseup left 0.927 0.361\n' >"$SCRATCH/showcase.input"
check "the showcase's panel button runs" expect_status 0 bash -c \
	'cd "$1" && exec "$2" "$3" --script-input "$4" --frames 40' _ \
	"$SCRATCH" "$tumble_abs" "$SCRATCH/showcase_panel.lua" "$SCRATCH/showcase.input"
check "the showcase's drop button dropped a ball" contains "$SCRATCH/err" "drops 1 bodies 92"

finish
