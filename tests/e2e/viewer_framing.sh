#!/usr/bin/env bash
# Every shipped scene opens framed: in its first frame (step 0, panels shown, an 800x450 window)
# its bodies cover a meaningful share of the view between the side panels. Its authored `camera`
# or the automatic fit (moving bodies, the ground below them, clear of the panels) must put them
# there. Body pixels are told by colour (tests/e2e/lib/png_check.py: body_fraction): the palette
# colours of bodies, in patches, not the greys of ground, sky, shadows and panels nor the thin
# grid axes. The bar, 0.5% of the region, is over ten times what the grid axes alone give
# (0.03% measured), and what a 0.1 m pendulum bob framed with its 2 m rod reaches.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"
start_xvfb

# The view between the stats panel (252 px at UI scale 1) and the controls (186 px).
region="0.315 0 0.7675 1"
for scene in scripts/scenes/*.lua; do
	name="$( basename "$scene" .lua )"
	check "$name: first frame" viewer 0 "$scene" --screenshot "$SCRATCH/$name.png"
	png_json "$name" stats "$SCRATCH/$name.png" --region $region
	check "$name: bodies cover at least 0.5% of the free view" json_check "$SCRATCH/$name.json" '
assert r["body_fraction"] >= 0.005, "body pixels: %.4f of the view between the panels" % r["body_fraction"]'
done

finish
