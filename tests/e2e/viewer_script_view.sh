#!/usr/bin/env bash
# Scripts drive the view (tb.camera, tb.draw, tb.input) in the real viewer: a camera that follows a
# moving body keeps its target on it, look_at places the eye, draw() shapes appear on screen in
# their colour, and keys and mouse buttons reach the script as pressed / released exactly once.
# The headless side of the same calls is tests/lua/test_view.lua.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"
start_xvfb

# A kinematic cart moving at 3 m/s along x, followed rigidly; the script prints the camera's
# target and the cart's position every step, and what the keys and the mouse did.
cat >"$SCRATCH/follow.lua" <<'LUA'
local tb = require "tumble"
local scene = {}
function scene.setup(world)
	world:add_box{ size = { 80, 10, 1 }, pos = { 0, 0, -0.5 }, static = true }
	scene.cart = world:add_box{ size = { 1, 1, 1 }, pos = { -10, 0, 0.5 }, kinematic = true, vel = { 3, 0, 0 } }
	tb.camera.look_at({ -10, -8, 4 }, { -10, 0, 0.5 })
end
function scene.update(world)
	local ex, ey, ez, tx, ty, tz = tb.camera.get()
	local x = scene.cart:position()
	print(("step %d cart %.3f target %.3f %.3f %.3f eye %.3f %.3f %.3f"):format(world.step_count, x, tx, ty, tz, ex, ey, ez))
	if world.step_count == 30 then tb.camera.follow(scene.cart, { smoothing = 0 }) end
	for _, key in ipairs { "x" } do
		if tb.input.pressed(key) then print("pressed " .. key .. " at " .. world.step_count) end
		if tb.input.released(key) then print("released " .. key .. " at " .. world.step_count) end
	end
	if tb.input.mouse_pressed("right") then
		local mx, my = tb.input.mouse()
		local _, _, _, dx, dy, dz = tb.input.mouse_ray()
		print(("mouse pressed at %.1f %.1f ray %.3f %.3f %.3f"):format(mx, my, dx, dy, dz))
	end
	if tb.input.mouse_released("right") then print("mouse released at " .. world.step_count) end
end
return scene
LUA
cat >"$SCRATCH/follow.input" <<'IN'
10 keydown x
14 keyup x
20 mousedown right 0.5 0.5
23 mouseup right 0.5 0.5
IN
check "a scene that drives the camera runs" viewer 0 "$SCRATCH/follow.lua" --script-input "$SCRATCH/follow.input" --frames 90
cp "$SCRATCH/err" "$SCRATCH/follow.log"
python3 - "$SCRATCH/follow.log" >"$SCRATCH/follow.json" <<'PY'
import json, re, sys
steps = {}
events = []
for line in open(sys.argv[1]):
    m = re.match(r"step (\d+) cart ([-\d.]+) target ([-\d.]+) ([-\d.]+) ([-\d.]+) eye ([-\d.]+) ([-\d.]+) ([-\d.]+)", line)
    if m:
        steps[int(m.group(1))] = [float(v) for v in m.groups()[1:]]
    elif line.startswith(("pressed", "released", "mouse")):
        events.append(line.strip())
print(json.dumps({"steps": steps, "events": events}))
PY
# The view applies look_at at the first frame: from then on get() reads the eye and target shown.
check "look_at placed the eye and the target" json_check "$SCRATCH/follow.json" '
s = r["steps"]["5"]
for got, want in zip(s[1:], [-10, 0, 0.5, -10, -8, 4]):
    near(got, want, 1e-3, "camera at step 5")'
# The update of step n prints the camera of the frame before (after step n - 1 moved the cart).
check "the followed cart stays under the camera's target" json_check "$SCRATCH/follow.json" '
for n in (40, 60, 89):
    cart = r["steps"][str(n - 1)][0] + 3.0 / 60.0
    near(r["steps"][str(n)][1], cart, 1e-3, "target x at step %d" % n)
assert r["steps"]["89"][0] > -6, "the cart moved over 4 m: %r" % r["steps"]["89"]'
check "before follow the target stayed put" json_check "$SCRATCH/follow.json" '
near(r["steps"]["25"][1], -10, 1e-3, "target x at step 25")'
check "a key press and release are each seen by one step" json_check "$SCRATCH/follow.json" '
e = r["events"]
assert [x for x in e if x.startswith("pressed")] == ["pressed x at 10"], e
assert [x for x in e if x.startswith("released")] == ["released x at 14"], e'
check "the mouse: position, world ray, press and release" json_check "$SCRATCH/follow.json" '
e = [x for x in r["events"] if x.startswith("mouse")]
assert len(e) == 2 and e[1] == "mouse released at 23", e
m = e[0].split()
near(float(m[3]), 400, 0.5, "mouse x (window points)"); near(float(m[4]), 225, 0.5, "mouse y")
dx, dy, dz = float(m[6]), float(m[7]), float(m[8])
near(dx * dx + dy * dy + dz * dz, 1, 1e-3, "ray length")
assert dz < 0 and dy > 0, "the ray through the centre looks down and forward: %r" % e[0]'

# draw(): a yellow wire box and a magenta sphere, every frame, over an empty ground. The same
# scene without draw() has no such pixels.
for variant in with without; do
	cat >"$SCRATCH/draw_$variant.lua" <<LUA
local tb = require "tumble"
local scene = { camera = { eye = { 0, -8, 4 }, target = { 0, 0, 1 } } }
function scene.setup(world)
	world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
end
if "$variant" == "with" then
	function scene.draw()
		tb.draw.box({ -1.5, 0, 1 }, { 2, 2, 2 }, { 1, 1, 0 })
		tb.draw.sphere({ 1.5, 0, 1 }, 1, { 1, 0, 1 })
		tb.draw.arrow({ 0, 0, 0 }, { 0, 0, 2.5 }, { 0, 1, 1 })
		tb.draw.text({ 0, 0, 2.8 }, "label", { 1, 1, 0 })
	end
end
return scene
LUA
	check "draw scene ($variant draw)" viewer 0 "$SCRATCH/draw_$variant.lua" --no-ui --frames 3 --screenshot "$SCRATCH/draw_$variant.png"
	png_json "yellow_$variant" count "$SCRATCH/draw_$variant.png" 255 255 0 40
	png_json "magenta_$variant" count "$SCRATCH/draw_$variant.png" 255 0 255 40
done
check "the box is drawn in yellow" json_check "$SCRATCH/yellow_with.json" 'assert r["count"] > 300, r'
check "the sphere is drawn in magenta" json_check "$SCRATCH/magenta_with.json" 'assert r["count"] > 300, r'
check "without draw() neither colour shows" bash -c 'grep -q "\"count\": 0" "$1" && grep -q "\"count\": 0" "$2"' _ \
	"$SCRATCH/yellow_without.json" "$SCRATCH/magenta_without.json"

finish
