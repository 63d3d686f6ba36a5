-- A well-behaved mod: adds a ball in setup, gives it a constant sideways speed in update, and
-- counts contact events of its own.
local mod = { contacts = 0 }

function mod.setup(world)
	world:add_sphere{ name = "mod_ball", radius = 0.25, pos = { 3, 0, 0.25 } }
	world:on("contact_begin", function(ev) mod.contacts = mod.contacts + 1 end)
end

function mod.update(world, dt, t)
	local ball = world:body("mod_ball")
	local _, _, vz = ball:velocity()
	ball:set_velocity(1, 0, vz)
end

return mod
