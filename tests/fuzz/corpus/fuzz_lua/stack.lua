local tb = require "tumble"
local scene = { world = { gravity = { 0, 0, -10 } }, steps = 60 }
function scene.setup(world)
	world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	for i = 1, 5 do
		world:add_box{ name = "box" .. i, pos = { 0, 0, i - 0.5 }, friction = 0.6 }
	end
end
function scene.finish(world)
	local x, y, z = world:body("box5"):position()
	assert(z > 3)
end
return scene
