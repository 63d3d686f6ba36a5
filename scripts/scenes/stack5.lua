-- Five unit cubes stacked on the ground: the 5-box stack of the reference reading (000, 001).
-- A good solver keeps it standing and asleep within a few seconds.
local build = require "builders"

local scene = {
	title = "Stack of five",
	description = "Five unit cubes stacked on the ground: a good solver keeps them standing and asleep.",
	world = { gravity = { 0, 0, -10 } },
	steps = 300,
}

function scene.setup(world)
	build.ground(world)
	-- Named box1 (bottom) .. box5 (top), so reports and tests can find them.
	build.stack(world, { count = 5, size = 1, prefix = "box" })
end

return scene
