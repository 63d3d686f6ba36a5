#!/usr/bin/env bash
# Every shipped scene runs headless for its own length (its `steps` field) and ends physically
# plausible. Each scene's finish(world) asserts its own physical outcome (a failed assertion makes
# the run exit with 1, which fails the "runs headless" check); this script adds the checks that
# apply to every scene (nothing NaN, nothing through the ground, joints reported with finite
# errors) and a few outcome checks read from the JSON report.
#
# The benchmark scenes with thousands of bodies run only the first steps here (a sanitizer build is
# 5-10 times slower); their finish() checks what must hold at any step and keeps the end-of-run
# checks for full runs. TB_SCENES_FULL=1 runs every scene for its full length.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

declare -A short_steps=(
	[bench_chains]=60
	[bench_chains10]=120
	[bench_ragdolls]=60
	[bench_pyramid1240]=20
)

# Checks that apply to every scene (report with --all).
generic='
for b in r["bodies"]:
    for v in b["pos"] + b["rot"] + b["vel"] + b["angvel"]:
        assert v is not None and math.isfinite(v), "non-finite state in %r" % b
    if b["name"] != "ground":
        assert b["pos"][2] > -0.1, "a body fell through the ground: %r" % b
for j in r["joints"]:
    assert j["type"] in ("distance", "ball", "hinge", "cone", "fixed", "slider", "six_dof", "motor", "mouse", "custom", "wheel"), j
    for v in (j["pos_error"], j["angle_error"]):
        assert v is not None and math.isfinite(v) and v >= 0, "bad joint error in %r" % j
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
outcome[terrain]='
for name in ["ball%d" % i for i in range(1, 7)] + ["box%d" % i for i in range(1, 5)] + ["capsule"]:
    p = body(name)["pos"]
    assert -15 < p[0] < 15 and -8 < p[1] < 8, "%s left the terrain: %r" % (name, p)
    assert p[0] > -6, "%s did not come down the slope: %r" % (name, p)
'
outcome[pyramid]='
b = body("top")
near(b["pos"][2], 7.5, 0.1, "top box z (m)")
near(b["pos"][0], 0.0, 0.1, "top box x (m)")
'
outcome[showcase]='
near(body("stack5")["pos"][2], 4.5, 0.1, "showcase stack top z (m)")
near(body("pyramid_top")["pos"][2], 4.5, 0.1, "showcase pyramid top z (m)")
for name in ("fast_sphere", "fast_diamond"):
    p = body(name)["pos"]
    assert abs(p[0]) < 16 and -37 < p[1] < -31, "%s left its pen: %r" % (name, p)
assert body("wheel_hub")["pos"][0] > -8, "the wheel did not drive"
joints = {j["name"]: j for j in r["joints"] if j["name"]}
for name in ("motor", "paddle_hinge", "servo", "cv", "lock", "cannon", "wheel_drive"):
    assert name in joints, "joint %s missing from the report" % name
    assert joints[name]["pos_error"] < 0.01, "joint %s gap %g m" % (name, joints[name]["pos_error"])
'

# Joint scenes: the report lists the named joints with their errors.
outcome[pendulum]='
rod = [j for j in r["joints"] if j["name"] == "rod"]
assert len(rod) == 1 and rod[0]["type"] == "distance", r["joints"]
assert rod[0]["pos_error"] < 0.001, "rod length error %g m" % rod[0]["pos_error"]
b = body("bob")
near(math.dist(b["pos"], [0, 0, 4]), 2.0, 0.001, "bob 2 m from the pivot (m)")
'
outcome[ragdoll]='
joints = [j for j in r["joints"] if j["type"] == "cone"]
assert len(joints) == 10, "10 ragdoll joints expected, got %d" % len(joints)
for j in joints:
    assert not j["broken"] and j["pos_error"] < 0.005, j
'
outcome[slider_cannon]='
weld = [j for j in r["joints"] if j["name"] == "weld1"]
assert len(weld) == 1 and weld[0]["broken"], "the weld should be reported broken: %r" % weld
assert body("projectile1")["pos"][0] - body("piston")["pos"][0] > 5, "the projectile did not fly"
'
outcome[self_driving_wheel]='
assert body("hub")["pos"][0] > 2, "the wheel drove %g m" % body("hub")["pos"][0]
'
outcome[suspension_bridge]='
ropes = [j for j in r["joints"] if j["type"] == "distance"]
assert len(ropes) == 26, len(ropes)
assert max(j["pos_error"] for j in ropes) < 0.01, "a rope is stretched"
'

# The benchmark scenes of shared/bench/SCENES.md: their stability figures.
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
outcome[bench_chains]='
assert len(r["joints"]) == 2000, len(r["joints"])
assert max(j["pos_error"] for j in r["joints"]) < 0.05, "a chain hinge came apart"
assert min(b["pos"][2] for b in r["bodies"]) > 9.9, "a chain hangs too low"
'
outcome[bench_chains10]='
assert len(r["joints"]) == 1000, len(r["joints"])
assert max(j["pos_error"] for j in r["joints"]) < 0.05, "a chain hinge came apart"
'
outcome[bench_ragdolls]='
assert len(r["joints"]) == 1000, len(r["joints"])
assert len(r["bodies"]) == 1101, len(r["bodies"])
'
outcome[vehicle_course]='
b = body("car")
assert b["pos"][0] > 125, "the car did not pass the finish line: %r" % b["pos"]
near(b["pos"][2], 0.93, 0.05, "car resting on its wheels past the finish (z, m)")
near(math.hypot(*b["vel"]), 0.0, 0.05, "car stopped (m/s)")
'

for scene in scripts/scenes/*.lua; do
	name="$( basename "$scene" .lua )"
	args=( --headless "$scene" --all )
	if [ -n "${short_steps[$name]:-}" ] && [ -z "${TB_SCENES_FULL:-}" ]; then
		args+=( --steps "${short_steps[$name]}" )
		echo "      ($name: first ${short_steps[$name]} steps only; TB_SCENES_FULL=1 runs all)"
	fi
	check "$name: runs headless, finish() holds" expect_status 0 "$TUMBLE" "${args[@]}"
	cp "$SCRATCH/out" "$SCRATCH/$name.json"
	# The scenes print their measured figures to stderr: keep them in the log.
	sed 's/^/      | /' "$SCRATCH/err" | grep -v '^      | $' | head -n 5
	check "$name: finite, above the ground" json_check "$SCRATCH/$name.json" "$generic"
	if [ -n "${outcome[$name]:-}" ]; then
		check "$name: outcome in the report" json_check "$SCRATCH/$name.json" "${outcome[$name]}"
	fi
done

# The scenes of the reference reading's global solver (001 sec. 10) run in the global mode too,
# with their own finish() checks (--solver overrides the scenes' solver setting), and the book's
# offset stack (000 ch. 11-14), which walked 13 cm in 10 s there while the sweeps visited a
# manifold's points in one order.
for name in cube_stack5 intersecting_stack funnel pendulum_grid pendulum_wave box_stack; do
	check "$name: runs headless in the global solver, finish() holds" expect_status 0 "$TUMBLE" --headless \
		"scripts/scenes/$name.lua" --all --solver global
	sed 's/^/      | /' "$SCRATCH/err" | grep -v '^      | $' | head -n 5
	check "$name (global): finite, above the ground" json_check "$SCRATCH/out" "$generic"
done

finish
