#!/usr/bin/env bash
# The headless runner: JSON report contents and physical outcome, options, exit statuses, messages.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

scene=tests/e2e/scenes/box_drop.lua

check "box drop: exit 0" expect_status 0 "$TUMBLE" --headless "$scene" --steps 180 --report json
cp "$SCRATCH/out" "$SCRATCH/report.json"
cp "$SCRATCH/err" "$SCRATCH/report.err"
check "box drop: report fields" json_check "$SCRATCH/report.json" '
assert set(r) >= {"scene", "steps", "dt", "time", "bodies", "joints", "stats"}, sorted(r)
assert r["scene"] == "tests/e2e/scenes/box_drop.lua", r["scene"]
assert r["steps"] == 180, r["steps"]
near(r["dt"], 1 / 60, 1e-7, "dt")
near(r["time"], 3.0, 1e-4, "time (s)")
assert r["joints"] == [], r["joints"]
s = r["stats"]
for key in ("step_ms_median", "step_ms_max", "contacts", "max_penetration"):
    assert isinstance(s[key], (int, float)), key
assert 0 <= s["step_ms_median"] <= s["step_ms_max"], s
assert s["contacts"] >= 1, s
for b in r["bodies"]:
    assert set(b) >= {"name", "pos", "rot", "vel", "angvel", "sleeping"}, sorted(b)
    assert len(b["pos"]) == 3 and len(b["rot"]) == 4 and len(b["vel"]) == 3 and len(b["angvel"]) == 3
    assert isinstance(b["sleeping"], bool)
'
check "box drop: the box rests on the ground top at z = 0.5 +- 0.01 m" json_check "$SCRATCH/report.json" '
b = body("box")
near(b["pos"][2], 0.5, 0.01, "box z (m)")
near(b["pos"][0], 0.0, 0.01, "box x (m)")
near(b["pos"][1], 0.0, 0.01, "box y (m)")
near(abs(b["rot"][0]), 1.0, 1e-3, "box stays upright: |w|")
for v in b["vel"] + b["angvel"]:
    near(v, 0.0, 0.01, "box velocity at rest")
near(r["stats"]["max_penetration"], 0.0, 0.05, "max penetration (m)")
'
check "box drop: only named bodies without --all" json_check "$SCRATCH/report.json" '
assert sorted(b["name"] for b in r["bodies"]) == ["box", "ground"], [b["name"] for b in r["bodies"]]
'
check "box drop: no progress bar when stderr is not a terminal" bash -c "! grep -q 'step 1' '$SCRATCH/report.err'"

check "--all lists unnamed bodies (name null)" expect_status 0 "$TUMBLE" --headless "$scene" --steps 10 --all
check "--all: three bodies" json_check "$SCRATCH/out" '
names = [b["name"] for b in r["bodies"]]
assert len(names) == 3 and names.count(None) == 1, names
'

check "--dt and --steps" expect_status 0 "$TUMBLE" --headless "$scene" --steps 50 --dt 0.02
check "--dt 0.02 x 50 steps = 1 s" json_check "$SCRATCH/out" '
assert r["steps"] == 50
near(r["dt"], 0.02, 1e-9, "dt")
near(r["time"], 1.0, 1e-5, "time")
'
check "default steps come from the scene's steps field" expect_status 0 "$TUMBLE" --headless "$scene"
check "scene steps = 120" json_check "$SCRATCH/out" 'assert r["steps"] == 120, r["steps"]'
check "--report none prints nothing on stdout" expect_status 0 "$TUMBLE" --headless "$scene" --steps 5 --report none
check "--report none: empty stdout" test ! -s "$SCRATCH/out"

check "names needing JSON escapes" expect_status 0 "$TUMBLE" --headless tests/e2e/scenes/odd_names.lua
check "names round-trip through the JSON" json_check "$SCRATCH/out" '
names = sorted(b["name"] for b in r["bodies"])
assert names == sorted(["say \"hi\"", "back\\slash\ttab\nline", "grüße"]), names
'

# Script errors: exit 1, file:line and a traceback on stderr, nothing on stdout.
check "error in update: exit 1" expect_status 1 "$TUMBLE" --headless tests/e2e/scenes/update_error.lua --steps 10
check "error in update: file:line" contains "$SCRATCH/err" "update_error.lua:9:"
check "error in update: traceback" contains "$SCRATCH/err" "stack traceback:"
check "error in update: step number" contains "$SCRATCH/err" "error at step 3"
check "error in update: no report" test ! -s "$SCRATCH/out"
check "syntax error: exit 1" expect_status 1 "$TUMBLE" --headless tests/e2e/scenes/syntax_error.lua
check "syntax error: file:line" contains "$SCRATCH/err" "syntax_error.lua:4:"
check "scene not a table: exit 1" expect_status 1 "$TUMBLE" --headless tests/e2e/scenes/not_a_table.lua
check "scene not a table: message" contains "$SCRATCH/err" "not_a_table.lua: a scene must return a table, got a number"
check "bad binding call: exit 1" expect_status 1 "$TUMBLE" --headless tests/e2e/scenes/bad_binding_call.lua
check "bad binding call: message" contains "$SCRATCH/err" "bad_binding_call.lua:4: add_box: size must be 3 positive numbers, got {1, 0, 1}"

printf 'return { world = { solver = "sfot" } }\n' >"$SCRATCH/bad_settings.lua"
check "bad world settings: exit 1" expect_status 1 "$TUMBLE" --headless "$SCRATCH/bad_settings.lua"
check "bad world settings: message" contains "$SCRATCH/err" "bad_settings.lua: world settings: world: invalid solver 'sfot'"
printf 'return { update = 5 }\n' >"$SCRATCH/bad_field.lua"
check "badly typed scene field: exit 1" expect_status 1 "$TUMBLE" --headless "$SCRATCH/bad_field.lua"
check "badly typed scene field: message" contains "$SCRATCH/err" "bad_field.lua: the scene's field 'update' must be a function, got a number"
printf 'return { reload = "hot" }\n' >"$SCRATCH/bad_reload.lua"
check "unknown reload mode: exit 1" expect_status 1 "$TUMBLE" --headless "$SCRATCH/bad_reload.lua"
check "unknown reload mode: message" contains "$SCRATCH/err" "invalid reload mode 'hot' (expected 'rebuild' or 'swap')"

# Bad usage: exit 2 with a hint.
check "unknown option: exit 2" expect_status 2 "$TUMBLE" --headless "$scene" --frobnicate
check "unknown option: message" contains "$SCRATCH/err" "unknown option --frobnicate"
check "--steps needs a number: exit 2" expect_status 2 "$TUMBLE" --headless "$scene" --steps many
check "--dt must be positive: exit 2" expect_status 2 "$TUMBLE" --headless "$scene" --dt 0
check "--report xml: exit 2" expect_status 2 "$TUMBLE" --headless "$scene" --report xml
check "missing scene file: exit 2" expect_status 2 "$TUMBLE" --headless tests/e2e/scenes/no_such_scene.lua
check "two scenes: exit 2" expect_status 2 "$TUMBLE" --headless "$scene" "$scene"
check "--mod of a missing file: exit 2" expect_status 2 "$TUMBLE" --headless "$scene" --mod nope.lua
check "--help: exit 0" expect_status 0 "$TUMBLE" --help
check "--help: usage on stdout" contains "$SCRATCH/out" "Usage: tumble"

# The scene's camera field (used by the viewer) is checked at load, headless too.
printf 'return { camera = { eye = { 0, 0, 1 }, target = { 0, 0, 1 } }, setup = function(world) end }\n' >"$SCRATCH/badcam.lua"
check "camera with eye = target: exit 1" expect_status 1 "$TUMBLE" --headless "$SCRATCH/badcam.lua" --steps 1
check "camera with eye = target: the message names the field" contains "$SCRATCH/err" \
	"the scene's field 'camera' must be { eye = {x, y, z}, target = {x, y, z} }"
printf 'return { camera = { eye = { 5, -9, 4 }, target = { 0, 0, 1 } }, setup = function(world) end }\n' >"$SCRATCH/goodcam.lua"
check "a valid camera field loads" expect_status 0 "$TUMBLE" --headless "$SCRATCH/goodcam.lua" --steps 1
# What a scene says it is (title, description, keys): checked at load, headless too.
printf 'return { title = 5, setup = function(world) end }\n' >"$SCRATCH/badtitle.lua"
check "a title that is not a string: exit 1" expect_status 1 "$TUMBLE" --headless "$SCRATCH/badtitle.lua" --steps 1
check "a title that is not a string: message" contains "$SCRATCH/err" \
	"badtitle.lua: the scene's field 'title' must be a string, got a number"
printf 'return { keys = { { "space" } }, setup = function(world) end }\n' >"$SCRATCH/badkeys.lua"
check "a keys entry without its text: exit 1" expect_status 1 "$TUMBLE" --headless "$SCRATCH/badkeys.lua" --steps 1
check "a keys entry without its text: message" contains "$SCRATCH/err" \
	"the scene's field 'keys' must be a list of { \"key, key\", \"what they do\" } pairs (at most 63 and 95 characters); entry 1 is not"
printf 'return { keys = { { "space, f1", "jump" } }, setup = function(world) end }\n' >"$SCRATCH/claimf1.lua"
check "claiming an F-key: exit 1" expect_status 1 "$TUMBLE" --headless "$SCRATCH/claimf1.lua" --steps 1
check "claiming an F-key: message" contains "$SCRATCH/err" \
	"claimf1.lua: the scene's field 'keys' claims 'f1', which the viewer keeps (Esc and the F-keys)"
printf 'return { title = "Jump", description = "A box.", keys = { { "space, w", "jump" } }, setup = function(world) end }\n' >"$SCRATCH/goodkeys.lua"
check "a scene with a title, a description and keys loads" expect_status 0 "$TUMBLE" --headless "$SCRATCH/goodkeys.lua" --steps 1
# A failing finish() still gets its report, with the failure in it, and exit status 1.
cat >"$SCRATCH/finish_fails.lua" <<'LUA'
return {
	setup = function(world) world:add_sphere{ name = "ball", pos = { 0, 0, 5 } } end,
	finish = function(world) error("the ball did not land") end,
}
LUA
check "failing finish: exit 1" expect_status 1 "$TUMBLE" --headless "$SCRATCH/finish_fails.lua" --steps 10
check "failing finish: the report is written, with the failure" json_check "$SCRATCH/out" '
assert r["steps"] == 10, r["steps"]
body("ball")
assert "the ball did not land" in r["finish_error"], r["finish_error"]
'
check "failing finish, the scene's own solver mode: no word of --solver" \
	bash -c '! grep -q -- "--solver" "$1"' _ "$SCRATCH/err"
# Under --solver the failure also says that the checks were written for the scene's own mode.
check "failing finish under --solver split: exit 1" expect_status 1 "$TUMBLE" --headless "$SCRATCH/finish_fails.lua" \
	--steps 10 --solver split
check "failing finish under --solver split: the message names the override" contains "$SCRATCH/err" \
	"the scene's checks were written for the solver mode of its own settings; --solver split overrides that mode"

# Misspelled scene functions would never run: a warning names the file, the line and the likely name.
cat >"$SCRATCH/misspelled.lua" <<'LUA'
local scene = { steps = 2, counter = 0 }
function scene.udpate(world, dt, t) end
function scene.finsh(world) end
function scene.helper() end
return scene
LUA
check "misspelled functions: the scene runs" expect_status 0 "$TUMBLE" --headless "$SCRATCH/misspelled.lua" --report none
check "misspelled functions: 'udpate' is named with its line" contains "$SCRATCH/err" \
	"misspelled.lua:2: the scene's function 'udpate' is never called (did you mean 'update'?)"
check "misspelled functions: 'finsh' too" contains "$SCRATCH/err" "misspelled.lua:3: the scene's function 'finsh' is never called (did you mean 'finish'?)"
check "misspelled functions: a helper is not warned about" bash -c "! grep -q helper '$SCRATCH/err'"

finish
