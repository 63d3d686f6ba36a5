local tb = require "tumble"
local build = require "builders"
local scene = { world = { solver = "split", iterations = 8 } }
function scene.setup(world)
	build.ground(world)
	world:add_sphere{ radius = 0.3, pos = { 1, 0, 4 }, restitution = 0.6, vel = { 0, 2, 0 } }
	world:add_capsule{ radius = 0.2, half_length = 0.5, pos = { 0, 2, 1 }, rot = tb.axis_angle({ 1, 0, 0 }, math.pi / 2) }
	world:add_hull{ points = { {1,0,0}, {-1,0,0}, {0,1,0}, {0,-1,0}, {0,0,1.5}, {0,0,-1.5} }, pos = { 3, 0, 2 } }
	world:add_compound{ pos = { 0, -5, 1 }, shapes = {
		{ type = "box", size = { 2, 1.2, 0.1 }, pos = { 0, 0, 0.85 } },
		{ type = "sphere", radius = 0.2, pos = { 0.8, 0.5, 0.4 }, friction = 1 },
	} }
end
return scene
