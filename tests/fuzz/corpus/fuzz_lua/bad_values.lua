local tb = require "tumble"
local scene = {}
function scene.setup(world)
	local b = world:add_box{ pos = { 0, 0, 1 } }
	for _, v in ipairs{ 0/0, 1/0, -1/0, 1e308, -0.0, 1e-310, "x", {}, true } do
		pcall(b.set_position, b, { v, 0, 0 })
		pcall(b.set_velocity, b, v, v, v)
		pcall(b.set_mass, b, v)
		pcall(b.set_rotation, b, { v, 0, 0, 0 })
		pcall(function() b.friction = v end)
		pcall(function() world:add_sphere{ radius = v } end)
		pcall(function() world:step(v) end)
	end
	b:destroy()
	pcall(b.position, b)
end
return scene
