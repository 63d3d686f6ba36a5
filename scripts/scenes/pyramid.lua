-- A pyramid of 36 unit boxes (8 in the bottom row): a classic stacking test for friction and
-- warm starting. The top box is named "top".
local build = require "builders"

local scene = {
	title = "Pyramid of 36 boxes",
	description = "A pyramid of 36 unit boxes: a classic test of stacking, friction and warm starting.",
	steps = 600,
}

function scene.setup(world)
	build.ground(world)
	build.pyramid(world, { base = 8, size = 1, spacing = 0.05, top_name = "top" })
end

return scene
