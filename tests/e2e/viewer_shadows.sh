#!/usr/bin/env bash
# The viewer's shadow map, sky and render profile (Xvfb + Mesa llvmpipe):
#   - on llvmpipe the software profile is picked by itself and said on stderr; --render-profile
#     overrides it, F4 switches it at run time;
#   - a box above the ground darkens the ground where the light puts its shadow, and nowhere else;
#   - a box shadows another box (a raised platform with nothing under it: a shadow on the plane
#     z = 0 would be hidden there);
#   - a box above nothing casts no shadow into the void (shadows on and off give the same image);
#   - the top of the frame is sky: greys brightening towards the horizon, not the clear colour.
# The light comes from (0.45, -0.35, 0.82): a point h above a receiver shadows the point
# (-0.549 h, +0.427 h) from below it, up and to the left in these top-down views (+y is up).
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"
start_xvfb

# --- the render profile --------------------------------------------------------------------------
cat >"$SCRATCH/ground.lua" <<'LUA'
return {
	camera = { eye = { 0, -1, 14 }, target = { 0, 0, 0 } },
	world = { gravity = { 0, 0, 0 } },
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		world:add_box{ size = { 1, 1, 1 }, pos = { 0, 0, 2 }, static = true }
	end,
}
LUA
check "the viewer runs with the automatic profile" viewer 0 "$SCRATCH/ground.lua" --frames 3
check "llvmpipe gets the software profile, and says so" contains "$SCRATCH/err" \
	"software profile (shadow map 1024, low-detail round meshes, 3D at half resolution, no multisampling); --render-profile or F4 changes it"
check "the renderer's name is llvmpipe" contains "$SCRATCH/err" "tumble: renderer llvmpipe"
check "--render-profile full overrides it" viewer 0 "$SCRATCH/ground.lua" --frames 3 --render-profile full
check "the full profile is used" contains "$SCRATCH/err" "full profile (shadow map 2048, full-detail round meshes, 3D at full resolution"
check "an unknown profile is refused" viewer 2 "$SCRATCH/ground.lua" --render-profile fast
check "the refusal names the choices" contains "$SCRATCH/err" "--render-profile needs auto, full or software"
# F4 switches the profile at run time, both ways.
printf '3 key f4\n6 key f4\n' >"$SCRATCH/f4.input"
check "F4 switches the profile" viewer 0 "$SCRATCH/ground.lua" --script-input "$SCRATCH/f4.input" --frames 10
check "F4: to the full profile" contains "$SCRATCH/err" "tumble: full render profile (shadow map 2048)"
check "F4: and back to the software one" contains "$SCRATCH/err" "tumble: software render profile (shadow map 1024)"
check "no OpenGL errors" no_gl_errors

# shadow_pair NAME SCENE: screenshots of SCENE with and without shadows, and their difference.
shadow_pair()
{
	viewer 0 "$2" --no-ui --screenshot "$SCRATCH/$1.on.png" &&
		viewer 0 "$2" --no-ui --no-shadows --screenshot "$SCRATCH/$1.off.png" &&
		no_gl_errors &&
		png_json "$1" diff "$SCRATCH/$1.off.png" "$SCRATCH/$1.on.png"
}

# shadow_up_left NAME: between shadows off and on, 0.3% to 2% of the view changed, at least 90%
# of the changed pixels got darker (at most 2% brighter), and all lie up and left of the centre,
# where the light puts the shadow of a box above the target.
shadow_up_left()
{
	json_check "$SCRATCH/$1.json" '
changed = r["changed_fraction"] * r["pixels"]
assert 0.003 < r["changed_fraction"] < 0.02, "changed %.4f" % r["changed_fraction"]
assert r["darker"] >= 0.9 * changed and r["brighter"] <= 0.02 * changed, "darker %d brighter %d of %d" % (r["darker"], r["brighter"], changed)
x0, y0, x1, y1 = r["changed_box"]
assert x1 <= 0.51 and y1 <= 0.51, "changed box %r" % r["changed_box"]'
}

# --- a box above the ground -----------------------------------------------------------------------
# Its shadow spans x -1.87..-0.32 m and y 0.14..1.57 m: about 2 m^2 of the roughly 300 m^2 in view
# (0.7%).
check "ground: shadows on and off render" shadow_pair ground "$SCRATCH/ground.lua"
check "ground: the box's shadow darkens the ground up and left of it, and nothing else" shadow_up_left ground

# --- a box shadows another box, with no ground under either -----------------------------------------
cat >"$SCRATCH/raised.lua" <<'LUA'
return {
	camera = { eye = { 0, -1, 15 }, target = { 0, 0, 1 } },
	world = { gravity = { 0, 0, 0 } },
	setup = function(world)
		world:add_box{ size = { 6, 6, 1 }, pos = { 0, 0, 0.5 }, static = true }
		world:add_box{ size = { 1, 1, 1 }, pos = { 0, 0, 3 }, static = true }
	end,
}
LUA
check "raised: shadows on and off render" shadow_pair raised "$SCRATCH/raised.lua"
check "raised: the upper box's shadow darkens the platform's top" shadow_up_left raised

# --- a box above nothing --------------------------------------------------------------------------
cat >"$SCRATCH/void.lua" <<'LUA'
return {
	camera = { eye = { 0, -1, 14 }, target = { 0, 0, 0 } },
	world = { gravity = { 0, 0, 0 } },
	setup = function(world)
		world:add_box{ size = { 1, 1, 1 }, pos = { 0, 0, 2 }, static = true }
	end,
}
LUA
check "void: shadows on and off render" shadow_pair void "$SCRATCH/void.lua"
check "void: no shadow falls into the void (nor on the box itself)" json_check "$SCRATCH/void.json" '
assert r["changed_fraction"] < 0.0005, "changed %.4f" % r["changed_fraction"]'

# --- the horizon ----------------------------------------------------------------------------------
# A level view from 1.5 m: the horizon is the middle row. Above it the sky, from a darker zenith
# to a pale horizon; all greys (channels at most 25 apart), none the clear colour (40, 44, 52).
cat >"$SCRATCH/level.lua" <<'LUA'
return {
	camera = { eye = { 0, -14, 1.5 }, target = { 0, 0, 1.5 } },
	world = { gravity = { 0, 0, 0 } },
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		world:add_box{ size = { 1, 1, 1 }, pos = { 0, 0, 0.5 }, static = true }
	end,
}
LUA
check "level view renders" viewer 0 "$SCRATCH/level.lua" --no-ui --screenshot "$SCRATCH/level.png"
png_json top stats "$SCRATCH/level.png" --region 0 0 1 0.06
png_json near stats "$SCRATCH/level.png" --region 0 0.40 0.3 0.47
check "the top rows are sky, not the clear colour" json_check "$SCRATCH/top.json" '
assert r["background_fraction"] < 0.01, "clear colour in %.3f of the top rows" % r["background_fraction"]
assert r["saturated_fraction"] < 0.001, "saturated %.4f" % r["saturated_fraction"]
red, green, blue = r["mean"]
assert blue > red + 10 and 60 < (red + green + blue) / 3 < 140, "top rows mean %r" % r["mean"]'
check "the sky brightens towards the horizon" bash -c 'python3 - "$1" "$2" <<'"'PY'"'
import json, sys
top = json.load(open(sys.argv[1]))["mean"]
near = json.load(open(sys.argv[2]))["mean"]
assert sum(near) > sum(top) + 3 * 25, "top %r, near the horizon %r" % (top, near)
PY' _ "$SCRATCH/top.json" "$SCRATCH/near.json"

finish
