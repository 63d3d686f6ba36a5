local tb = require "tumble"
local scene = {}
function scene.setup(world)
	world:add_box{ size = { 10, 10, 1 }, pos = { 0, 0, -0.5 }, static = true }
	local b = world:add_box{ pos = { 0, 0, 0.6 }, vel = { 0, 0, -5 } }
	world:on("contact_begin", function(ev)
		if ev.b and ev.b:is_valid() then ev.b:destroy() end
		world:add_sphere{ pos = { 0, 0, 3 } }
	end)
	world:on("contact_end", function(ev) error("handler failure") end)
end
function scene.update(world, dt, t)
	local hit = world:raycast({ 0, 0, 10 }, { 0, 0, -10 })
	for _, c in ipairs(world:contacts()) do local _ = c.impulse end
	local list = world:overlap_sphere({ 0, 0, 0 }, 2)
	world.gravity = { 0, 0, -9.81 }
end
return scene
