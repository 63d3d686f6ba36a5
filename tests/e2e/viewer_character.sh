#!/usr/bin/env bash
# The character_playground scene in the real viewer: its claimed keys reach the hero (W then A held:
# it walks along +x, then +y, on the ground) and the follow camera keeps its target on the hero.
# The headless side (the six walkers' finish() checks) is in tests/e2e/scenes.sh.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"
start_xvfb

# The shipped scene, with a line a step: the hero's position and the camera's target (of the
# frame before).
cat >"$SCRATCH/walk.lua" <<'LUA'
local tb = require "tumble"
local scene = dofile("scripts/scenes/character_playground.lua")
local update = scene.update
function scene.update(world, dt, t)
	update(world, dt, t)
	local x, y, z = scene.hero:position()
	local _, _, _, tx, ty, tz = tb.camera.get()
	print(("step %d hero %.3f %.3f %.3f ground %s target %s %s %s"):format(world.step_count, x, y, z,
		tostring(scene.hero.on_ground), tostring(tx), tostring(ty), tostring(tz)))
end
return scene
LUA
cat >"$SCRATCH/walk.input" <<'IN'
20 keydown w
80 keyup w
80 keydown a
140 keyup a
IN
check "character_playground runs in the viewer with scripted keys" viewer 0 "$SCRATCH/walk.lua" --script-input "$SCRATCH/walk.input" --frames 170
cp "$SCRATCH/err" "$SCRATCH/walk.log"
python3 - "$SCRATCH/walk.log" >"$SCRATCH/walk.json" <<'PY'
import json, re, sys
steps = {}
for line in open(sys.argv[1]):
    m = re.match(r"step (\d+) hero (\S+) (\S+) (\S+) ground (\w+) target (\S+) (\S+) (\S+)", line)
    if m:
        g = m.groups()
        target = None if g[5] == "nil" else [float(v) for v in g[5:8]]
        steps[int(g[0])] = {"hero": [float(v) for v in g[1:4]], "ground": g[4] == "true", "target": target}
print(json.dumps({"steps": steps}))
PY
check "the hero stands still until a key is pressed" json_check "$SCRATCH/walk.json" '
s = r["steps"]
near(s["15"]["hero"][0], -6, 0.01, "x before the keys (m)")
near(s["15"]["hero"][1], 0, 0.01, "y before the keys (m)")'
check "W walks it along +x, then A along +y, on the ground" json_check "$SCRATCH/walk.json" '
s = r["steps"]
# 3 m/s for about 60 steps (1 s) each way; the key events land on frame boundaries
dx = s["78"]["hero"][0] - s["22"]["hero"][0]
assert 2.0 < dx < 3.5, "walked %.3f m along x" % dx
near(s["78"]["hero"][1], 0, 0.01, "y while W is held (m)")
dy = s["138"]["hero"][1] - s["82"]["hero"][1]
assert 2.0 < dy < 3.5, "walked %.3f m along y" % dy
last = s[str(max(int(k) for k in s))]
assert last["ground"], last
near(last["hero"][2], 0, 0.02, "on the ground (z, m)")'
check "the camera follows the hero" json_check "$SCRATCH/walk.json" '
s = r["steps"]
last = max(int(k) for k in s)
for n in (last - 100, last):
    hero, target = s[str(n - 1)]["hero"], s[str(n)]["target"]
    assert target is not None, s[str(n)]
    # smoothing 0.3 s: the target trails the hero by about its speed (3 m/s) times 0.3 s
    assert math.dist(hero, target) < 2.0, "target %r, hero %r at step %d" % (target, hero, n)
far = s[str(last)]["target"]
assert math.dist(far, s["15"]["target"]) > 2.0, "the target moved with the hero: %r" % far'

finish
