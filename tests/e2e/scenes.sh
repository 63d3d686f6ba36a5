#!/usr/bin/env bash
# Every shipped scene runs headless for its own length (its `steps` field) and ends physically
# plausible: nothing NaN, nothing fell through the ground, and each scene's own outcome holds.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

# Checks that apply to every scene (report with --all).
generic='
for b in r["bodies"]:
    for v in b["pos"] + b["rot"] + b["vel"] + b["angvel"]:
        assert v is not None and math.isfinite(v), "non-finite state in %r" % b
    if b["name"] != "ground":
        assert b["pos"][2] > -0.1, "a body fell through the ground: %r" % b
'

declare -A outcome
outcome[stack5]='
for i in range(1, 6):
    b = body("box%d" % i)
    near(b["pos"][2], 0.5 + (i - 1), 0.05, "box%d z (m)" % i)
    near(b["pos"][0], 0.0, 0.05, "box%d x (m)" % i)
    near(b["pos"][1], 0.0, 0.05, "box%d y (m)" % i)
'
outcome[ball_drop]='
b = body("ball")
near(b["pos"][2], 0.5, 0.01, "ball z (m)")
near(b["vel"][2], 0.0, 0.01, "ball vz (m/s)")
'
outcome[pyramid]='
b = body("top")
near(b["pos"][2], 7.5, 0.1, "top box z (m)")
near(b["pos"][0], 0.0, 0.1, "top box x (m)")
'
outcome[showcase]='
near(body("stack5")["pos"][2], 4.5, 0.1, "showcase stack top z (m)")
near(body("pyramid_top")["pos"][2], 4.5, 0.1, "showcase pyramid top z (m)")
t = body("table")
near(abs(t["rot"][0]), 1.0, 0.01, "the table stands upright: |w|")
'

# The benchmark scenes of shared/bench/SCENES.md (no joints yet): their stability figures.
outcome[bench_pyramid20]='
near(len([b for b in r["bodies"] if b["name"] is None]), 209, 0, "cubes besides the top one")
assert body("top")["pos"][2] > 19, "pyramid20 fell: top z = %g" % body("top")["pos"][2]
'
outcome[bench_stack20]='
t = body("top")["pos"]
assert t[2] > 19, "stack20 fell: top z = %g" % t[2]
assert math.hypot(t[0], t[1]) < 0.25, "stack20 top drifted %g m sideways" % math.hypot(t[0], t[1])
'
outcome[bench_rain]='
dynamic = [b for b in r["bodies"] if b["name"] is None]
assert len(dynamic) == 1000, len(dynamic)
escaped = [b["pos"] for b in dynamic if abs(b["pos"][0]) > 5 or abs(b["pos"][1]) > 5 or b["pos"][2] < 0]
assert not escaped, "%d bodies escaped the walls, e.g. %r" % (len(escaped), escaped[:3])
assert max(b["pos"][2] for b in dynamic) < 5, "the pile did not settle"
'

for scene in scripts/scenes/*.lua; do
	name="$( basename "$scene" .lua )"
	check "$name: runs headless" expect_status 0 "$TUMBLE" --headless "$scene" --all
	cp "$SCRATCH/out" "$SCRATCH/$name.json"
	check "$name: finite, above the ground" json_check "$SCRATCH/$name.json" "$generic"
	if [ -n "${outcome[$name]:-}" ]; then
		check "$name: outcome" json_check "$SCRATCH/$name.json" "${outcome[$name]}"
	else
		echo "      (no outcome check for $name yet)"
	fi
done

finish
