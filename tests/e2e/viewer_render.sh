#!/usr/bin/env bash
# The viewer renders for real (Xvfb + Mesa llvmpipe) and its screenshots show what they should:
#   - the showcase at step 0 and step 120: both non-blank; they differ only where bodies moved;
#   - debug drawing on vs off changes the image (contact points appear; the broad-phase tree appears);
#   - the scene's ui(ui) tweak panel is drawn (sliders, checkbox, button, label) and ui.plot plots.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"
start_xvfb

showcase=scripts/scenes/showcase.lua

# --- step 0 and step 120 (panels hidden, so only the world can change) -----------------------------
check "showcase step 0 renders" viewer 0 "$showcase" --no-ui --screenshot "$SCRATCH/step0.png" --steps 0
check "showcase step 120 renders" viewer 0 "$showcase" --no-ui --screenshot "$SCRATCH/step120.png" --steps 120
check "no OpenGL errors" no_gl_errors
for image in step0 step120; do
	png_json "$image" stats "$SCRATCH/$image.png"
	# Shaded solids, a grid and a fog gradient give hundreds of colours; a blank or single-colour
	# frame has a handful. The ground and the bodies cover well over a third of the frame.
	check "$image is not blank" json_check "$SCRATCH/$image.json" '
assert r["width"] == 800 and r["height"] == 450, "size %dx%d" % (r["width"], r["height"])
assert r["colours"] > 300, "only %d colours" % r["colours"]
assert r["foreground_fraction"] > 0.35, "foreground %.3f" % r["foreground_fraction"]
assert r["red_fraction"] < 0.001, "red (error overlay?) %.4f" % r["red_fraction"]'
	# The centre, where the scene's bodies are, is not just ground: many distinct shades.
	png_json "$image.centre" stats "$SCRATCH/$image.png" --region 0.3 0.2 0.7 0.9
	# Shaded bodies give well over a thousand colours there; an empty ground with its grid about 200.
	check "$image shows bodies in the centre" json_check "$SCRATCH/$image.centre.json" '
assert r["colours"] > 800, "only %d colours in the centre" % r["colours"]'
done

png_json moved diff "$SCRATCH/step0.png" "$SCRATCH/step120.png"
png_json corners diff "$SCRATCH/step0.png" "$SCRATCH/step120.png" --region 0 0 0.15 0.3
# The camera is placed once, from the scene as built (its authored view), so the frames differ
# only where bodies moved: a small share of the image, inside the scene's footprint, none in the
# empty sky corner. The view spans the whole ground, so the wheel crossing the back comes near the
# sides, but a camera that moved would change the outermost columns too.
check "step 0 and step 120 differ where bodies moved" json_check "$SCRATCH/moved.json" '
assert 0.002 < r["changed_fraction"] < 0.25, "changed %.4f" % r["changed_fraction"]
x0, y0, x1, y1 = r["changed_box"]
assert x0 > 0.03 and x1 < 0.97, "change box %r reaches the sides" % r["changed_box"]'
check "the sky corner did not change" json_check "$SCRATCH/corners.json" '
assert r["changed_fraction"] == 0.0, "changed %.4f" % r["changed_fraction"]'

# --- debug drawing ------------------------------------------------------------------------------------
check "debug draw off" viewer 0 "$showcase" --no-ui --screenshot "$SCRATCH/plain.png" --steps 60
check "debug draw all" viewer 0 "$showcase" --no-ui --screenshot "$SCRATCH/debug.png" --steps 60 --debug-draw all
check "debug draw contacts only" viewer 0 "$showcase" --no-ui --screenshot "$SCRATCH/contacts.png" --steps 60 \
	--debug-draw contacts
check "unknown debug layer is a usage error" viewer 2 "$showcase" --screenshot "$SCRATCH/x.png" --debug-draw nope
png_json debug_diff diff "$SCRATCH/plain.png" "$SCRATCH/debug.png"
check "debug draw changes the image" json_check "$SCRATCH/debug_diff.json" '
assert r["changed_fraction"] > 0.01, "changed %.4f" % r["changed_fraction"]'
# Contact points are opaque squares of (255, 235, 60), or (255, 60, 40) when penetrating.
for image in plain contacts; do
	png_json "$image.yellow" count "$SCRATCH/$image.png" 255 235 60 12
done
check "contact points drawn only with the contacts layer" python3 - "$SCRATCH/plain.yellow.json" "$SCRATCH/contacts.yellow.json" <<'PY'
import json, sys
plain = json.load(open(sys.argv[1]))["count"]
contacts = json.load(open(sys.argv[2]))["count"]
# The showcase has dozens of touching contacts after 60 steps (stack, pyramid, table, pile).
assert contacts > 200 and contacts > 5 * plain + 100, "contact pixels: %d with the layer, %d without" % (contacts, plain)
PY

# Planar shadows: on by default; --no-shadows removes them, and only darkens nothing else.
check "shadows off" viewer 0 "$showcase" --no-ui --screenshot "$SCRATCH/noshadow.png" --steps 60 --no-shadows
png_json shadow_diff diff "$SCRATCH/noshadow.png" "$SCRATCH/plain.png"
check "shadows change the image" json_check "$SCRATCH/shadow_diff.json" '
assert r["changed_fraction"] > 0.003, "changed %.4f" % r["changed_fraction"]'
# Shadows darken the ground; nothing should get clearly brighter (a few edge pixels may, from multisampling).
check "shadows only darken" json_check "$SCRATCH/shadow_diff.json" '
assert r["darker"] > 2000 and r["brighter"] < r["darker"] / 50, "darker %d, brighter %d" % (r["darker"], r["brighter"])'

# A scene's camera field sets the first view: the same scene from two cameras gives two images.
for cam in "{ eye = { 0, -12, 4 }, target = { 0, 0, 1 } }" "{ eye = { 12, 0, 8 }, target = { 0, 0, 1 } }"; do
	n=$(( ${n:-0} + 1 ))
	printf 'return { camera = %s, setup = function(world)\n world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }\n world:add_box{ size = { 4, 1, 1 }, pos = { 0, 0, 0.5 } }\nend }\n' "$cam" >"$SCRATCH/cam$n.lua"
	check "scene camera $n renders" viewer 0 "$SCRATCH/cam$n.lua" --no-ui --screenshot "$SCRATCH/cam$n.png" --steps 1
done
png_json cam_diff diff "$SCRATCH/cam1.png" "$SCRATCH/cam2.png"
check "the scene's camera field moves the view" json_check "$SCRATCH/cam_diff.json" '
assert r["changed_fraction"] > 0.02, "changed %.4f" % r["changed_fraction"]'

# A cylinder seen straight down its axis shows its flat cap: the centre of the frame differs from
# the same view without it over most of the cap (an open tube would show only its rim, edge on).
for n in with without; do
	shape=""
	[ "$n" = with ] && shape="world:add_cylinder{ radius = 1, half_height = 0.5, pos = { 0, 0, 0.5 }, static = true }"
	printf 'return { camera = { eye = { 0, 0.01, 12 }, target = { 0, 0, 0 } }, setup = function(world)\n world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }\n %s\nend }\n' "$shape" >"$SCRATCH/top_$n.lua"
	check "cylinder view $n renders" viewer 0 "$SCRATCH/top_$n.lua" --no-ui --screenshot "$SCRATCH/top_$n.png" --steps 1
done
png_json cap_diff diff "$SCRATCH/top_without.png" "$SCRATCH/top_with.png" --region 0.45 0.4 0.55 0.6
check "a cylinder is drawn with its cap" json_check "$SCRATCH/cap_diff.json" '
assert r["changed_fraction"] > 0.3, "changed %.4f" % r["changed_fraction"]'

# The tree layer draws inner nodes of the broad-phase trees in six opaque hues by depth; count two of them.
check "debug draw tree only" viewer 0 "$showcase" --no-ui --screenshot "$SCRATCH/tree.png" --steps 60 --debug-draw tree
for image in plain tree; do
	png_json "$image.depth1" count "$SCRATCH/$image.png" 255 190 60 12
	png_json "$image.depth2" count "$SCRATCH/$image.png" 200 255 80 12
done
check "broad-phase tree drawn only with the tree layer" python3 - "$SCRATCH"/plain.depth1.json "$SCRATCH"/plain.depth2.json \
	"$SCRATCH"/tree.depth1.json "$SCRATCH"/tree.depth2.json <<'PY'
import json, sys
plain, tree = [sum(json.load(open(f))["count"] for f in sys.argv[i:i + 2]) for i in (1, 3)]
# The showcase has about a hundred dynamic bodies: their tree has a few levels of boxes around the piles.
assert tree > 300 and tree > 5 * plain + 100, "tree-hue pixels: %d with the layer, %d without" % (tree, plain)
PY

# --- the tweak panel --------------------------------------------------------------------------------------
write_scene()
{
	local file="$1"
	local with_ui="$2"
	{
		cat <<'LUA'
local scene = { speed = 2.5, enabled = true, clicks = 0 }
function scene.setup(world)
	world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	scene.box = world:add_box{ size = { 1, 1, 1 }, pos = { 0, 0, 2.5 } }
end
LUA
		if [ "$with_ui" = yes ]; then
			cat <<'LUA'
function scene.ui(ui)
	scene.speed = ui.slider("motor speed", scene.speed, 0, 10)
	scene.enabled = ui.checkbox("motor on", scene.enabled)
	if ui.button("kick") then scene.clicks = scene.clicks + 1 end
	ui.label("clicks " .. scene.clicks)
	ui.plot("box height", select(3, scene.box:position()))
	-- A plot that keeps moving whatever the physics and the timing do: the lines check below
	-- counts its pixels with the others.
	scene.frames = (scene.frames or 0) + 1
	ui.plot("wave", math.sin(0.5 * scene.frames))
	if not scene.reported then
		scene.reported = true
		print(("ui called: speed=%.2f enabled=%s"):format(scene.speed, tostring(scene.enabled)))
	end
end
LUA
		fi
		echo 'return scene'
	} >"$file"
}
write_scene "$SCRATCH/with_ui.lua" yes
write_scene "$SCRATCH/without_ui.lua" no
check "scene with ui renders" viewer 0 "$SCRATCH/with_ui.lua" --screenshot "$SCRATCH/with_ui.png" --steps 10
check "ui(ui) ran with the scene's values" contains "$SCRATCH/err" "ui called: speed=2.50 enabled=true"
check "scene without ui renders" viewer 0 "$SCRATCH/without_ui.lua" --screenshot "$SCRATCH/without_ui.png" --steps 10
# The Controls panel is at the top right; the scene's widgets extend it downwards. Nothing else
# differs between the two scenes.
png_json panel diff "$SCRATCH/without_ui.png" "$SCRATCH/with_ui.png" --region 0.7 0 1 1
png_json rest diff "$SCRATCH/without_ui.png" "$SCRATCH/with_ui.png" --region 0 0 0.7 1
check "the tweak panel shows the scene's widgets" json_check "$SCRATCH/panel.json" '
assert r["changed_fraction"] > 0.02, "panel changed %.4f" % r["changed_fraction"]
x0, y0, x1, y1 = r["changed_box"]
assert y0 > 0.35, "scene widgets start at %.2f, above the viewer controls?" % y0'
check "nothing but the panel differs" json_check "$SCRATCH/rest.json" '
assert r["changed_fraction"] < 0.002, "changed %.4f outside the panel" % r["changed_fraction"]'
# Slider fill colour (60, 90, 150): the viewer's speed slider, plus the scene's at 25%.
png_json fill_with count "$SCRATCH/with_ui.png" 60 90 150 3 --region 0.7 0 1 1
png_json fill_without count "$SCRATCH/without_ui.png" 60 90 150 3 --region 0.7 0 1 1
check "the scene's slider is drawn" python3 - "$SCRATCH/fill_with.json" "$SCRATCH/fill_without.json" <<'PY'
import json, sys
with_ui = json.load(open(sys.argv[1]))["count"]
without = json.load(open(sys.argv[2]))["count"]
assert with_ui > without + 150, "slider fill pixels: %d with the scene's slider, %d without" % (with_ui, without)
PY

# Plots need frames: 40 frames in lockstep, then the capture. A single frame (the screenshot above)
# has one sample, which draws no plot. The panel sits at the left below the stats.
check "plots after 40 frames" viewer 0 "$SCRATCH/with_ui.lua" --frames 40 --screenshot "$SCRATCH/plots.png"
check "no OpenGL errors while running frames" no_gl_errors
png_json plot_panel diff "$SCRATCH/with_ui.png" "$SCRATCH/plots.png" --region 0 0.2 0.2 0.6
# Plot lines are (120, 220, 140), thin and antialiased, hence the loose tolerance.
png_json plot_lines count "$SCRATCH/plots.png" 120 220 140 40 --region 0 0.2 0.2 0.6
check "the plot panel appears" json_check "$SCRATCH/plot_panel.json" '
assert r["changed_fraction"] > 0.2, "plot region changed %.3f" % r["changed_fraction"]'
check "the plots have lines" json_check "$SCRATCH/plot_lines.json" '
assert r["count"] > 100, "only %d plot-line pixels" % r["count"]'

finish
