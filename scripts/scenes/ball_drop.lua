-- A ball dropped from 5 m onto the ground: it bounces a little (restitution 0.3) and comes to rest
-- with its centre one radius above the ground.
local build = require "builders"

local scene = {
	title = "Ball drop",
	description = "A ball dropped from 5 m bounces a little (restitution 0.3) and comes to rest on the ground.",
	steps = 300,
}

function scene.setup(world)
	build.ground(world)
	world:add_sphere{ name = "ball", radius = 0.5, pos = { 0, 0, 5 }, restitution = 0.3, density = 1000 }
end

return scene
