#!/usr/bin/env bash
# Soak: the showcase (scripts/scenes/showcase.lua) for TB_SOAK_STEPS steps (default 100,000, 28
# simulated minutes) headless, with the soak statistics of the JSON report (TB_SOAK_STATS=N:
# energy every step, memory and joints every N steps; runtime/headless.c). Checked:
#   - every pose and velocity finite at every step;
#   - memory: the physics library allocates nothing between step 10,000 and the end (its allocation
#     counter is flat), and the resident set grows by at most 1 MiB over that span (the report's
#     own per-step timing array takes 4 B a step: 352 KiB for 90,000 steps);
#   - energy: kinetic + potential never exceeds its initial value by more than 1% (the motors' work:
#     the beam, wheel, shafts and cannon together put in under 1 kJ of the 708 kJ; everything else
#     only loses energy), and the kinetic energy of the bodies still on the ground stays below the
#     initial kinetic + potential energy (potential measured from z = 0, the ground's top: all the
#     energy the scene has without motors);
#   - joints: no joint breaks after the cannon's weld (broken on purpose in the first 2 s), and
#     every intact joint stays within 0.1 m and 0.1 rad of its constraint at every sample.
# Runs the release build (build/release, built if missing: a 100,000-step sanitize run would take
# ~15 minutes); about 50 s on one core. The scene's finish() checks are for its own 600 steps and
# are left out.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

steps="${TB_SOAK_STEPS:-100000}"
interval="${TB_SOAK_INTERVAL:-500}"
release_dir="${TB_RELEASE_DIR:-build/release}"
if [ ! -x "$release_dir/tumble" ]; then
	echo "soak: $release_dir/tumble missing: ./build.sh build release"
	./build.sh build release >"$SCRATCH/build.log" 2>&1 || { tail -n 30 "$SCRATCH/build.log"; exit 1; }
fi

cat >"$SCRATCH/soak_showcase.lua" <<LUA
local scene = dofile("$PWD/scripts/scenes/showcase.lua")
scene.finish = nil
return scene
LUA

export TB_SOAK_STATS="$interval"
export TB_E2E_TIMEOUT=1800
start=$( date +%s )
check "showcase: $steps steps headless (release)" \
	expect_status 0 "$release_dir/tumble" --headless "$SCRATCH/soak_showcase.lua" --steps "$steps"
echo "      $(( $( date +%s ) - start )) s; stderr:"
sed 's/^/      | /' "$SCRATCH/err" | tail -n 12
cp "$SCRATCH/out" "$SCRATCH/soak.json"

check "soak figures" json_check "$SCRATCH/soak.json" '
s = r["soak"]
S = s["samples"]
steps = r["steps"]
assert S[-1]["step"] == steps, (S[-1]["step"], steps)
assert s["first_non_finite_step"] == -1, "a pose or velocity was not finite after step %d" % s["first_non_finite_step"]

late = [x for x in S if x["step"] >= min(10000, steps // 10)]
first, last = late[0], late[-1]
print("      memory: resident %d KiB at step %d, %d KiB at step %d; library allocations %d -> %d" % (
    first["rss_kb"], first["step"], last["rss_kb"], last["step"], first["allocations"], last["allocations"]))
assert last["allocations"] == first["allocations"], "the library allocated %d times after step %d" % (
    last["allocations"] - first["allocations"], first["step"])
assert last["rss_kb"] - first["rss_kb"] <= 1024, "resident set grew %d KiB" % (last["rss_kb"] - first["rss_kb"])

e0 = s["initial_kinetic"] + s["initial_potential"]
print("      energy: initial kinetic %.0f J + potential %.0f J = %.0f J; max total %.0f J (step %d); "
      "max kinetic on the ground %.0f J (step %d); bodies fallen off the ground: %d" % (
    s["initial_kinetic"], s["initial_potential"], e0, s["max_energy"], s["max_energy_step"],
    s["max_kinetic"], s["max_kinetic_step"], s["max_fallen"]))
assert s["max_energy"] <= 1.01 * e0, "total energy %.0f J at step %d above 1.01 x %.0f J" % (
    s["max_energy"], s["max_energy_step"], e0)
assert s["max_kinetic"] <= e0, "kinetic energy %.0f J at step %d above %.0f J" % (s["max_kinetic"], s["max_kinetic_step"], e0)

broken = [x["broken_joints"] for x in S if x["step"] >= 600]
pos = max(x["joint_pos_error"] for x in S)
ang = max(x["joint_angle_error"] for x in S)
print("      joints: broken %s after step 600; max error %.4f m, %.4f rad" % (sorted(set(broken)), pos, ang))
assert set(broken) == {1}, "broken joints after the cannon fired: %s (only its weld may break)" % sorted(set(broken))
assert pos <= 0.1 and ang <= 0.1, "joint error %.3f m / %.3f rad" % (pos, ang)
'
finish
