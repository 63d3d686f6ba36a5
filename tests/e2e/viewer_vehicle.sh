#!/usr/bin/env bash
# The vehicle_course scene in the real viewer: its claimed keys reach it (W and D held: the driver
# hands over and the car drives off turning right), and the follow camera keeps its target on the
# car. The headless side (the scripted driver, finish() checks) is in tests/e2e/scenes.sh.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"
start_xvfb

# The shipped scene, with a line a step: the car's position and heading, who drives, and the
# camera's target (of the frame before).
cat >"$SCRATCH/drive.lua" <<'LUA'
local tb = require "tumble"
local scene = dofile("scripts/scenes/vehicle_course.lua")
local update = scene.update
function scene.update(world, dt, t)
	update(world, dt, t)
	local x, y, z = scene.body:position()
	local fx, fy = tb.rotate({ scene.body:rotation() }, { 1, 0, 0 })
	local _, _, _, tx, ty, tz = tb.camera.get()
	print(("step %d car %.3f %.3f %.3f heading %.4f manual %s target %s %s %s"):format(world.step_count, x, y, z,
		math.atan(fy, fx), tostring(scene.manual), tostring(tx), tostring(ty), tostring(tz)))
end
return scene
LUA
cat >"$SCRATCH/drive.input" <<'IN'
20 keydown w
20 keydown d
IN
check "vehicle_course runs in the viewer with scripted keys" viewer 0 "$SCRATCH/drive.lua" --script-input "$SCRATCH/drive.input" --frames 150
cp "$SCRATCH/err" "$SCRATCH/drive.log"
python3 - "$SCRATCH/drive.log" >"$SCRATCH/drive.json" <<'PY'
import json, re, sys
steps = {}
for line in open(sys.argv[1]):
    m = re.match(r"step (\d+) car (\S+) (\S+) (\S+) heading (\S+) manual (\w+) target (\S+) (\S+) (\S+)", line)
    if m:
        g = m.groups()
        target = None if g[6] == "nil" else [float(v) for v in g[6:9]]
        steps[int(g[0])] = {"car": [float(v) for v in g[1:4]], "heading": float(g[4]), "manual": g[5] == "true", "target": target}
print(json.dumps({"steps": steps}))
PY
check "the scripted driver drives until a key is pressed" json_check "$SCRATCH/drive.json" '
s = r["steps"]
assert s["10"]["manual"] is False, s["10"]
assert s["30"]["manual"] is True, s["30"]
near(s["19"]["heading"], 0, 0.01, "heading before the keys (rad)")'
check "W and D drive it forwards and to the right" json_check "$SCRATCH/drive.json" '
s = r["steps"]
last = s[str(max(int(k) for k in s))]
assert last["car"][0] > s["20"]["car"][0] + 2, "it drove on: %r" % last
assert last["heading"] < -0.1, "it turned right (negative heading, rad): %r" % last
assert last["car"][1] < -0.2, "it went right (y, m): %r" % last'
check "the camera follows the car" json_check "$SCRATCH/drive.json" '
s = r["steps"]
last = max(int(k) for k in s)
for n in (last - 20, last):
    car, target = s[str(n - 1)]["car"], s[str(n)]["target"]
    assert target is not None, s[str(n)]
    # smoothing 0.3 s: the target trails the car by about its speed times 0.3 s
    assert math.dist(car, target) < 3.0, "target %r, car %r at step %d" % (target, car, n)'

finish
