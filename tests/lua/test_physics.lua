-- Physical outcomes through the runtime's own world: things dropped onto the ground (top at z = 0)
-- come to rest one half-height above it, and fall asleep.
local check = require "lib.check"

local scene = {
	world = { gravity = { 0, 0, -10 } },
	steps = 240, -- 4 s at 60 Hz
}

function scene.setup(world)
	world:add_box{ name = "ground", size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	world:add_box{ name = "box", size = { 1, 1, 1 }, pos = { 0, 0, 3 } }
	world:add_sphere{ name = "ball", radius = 0.3, pos = { 3, 0, 2 } }
	world:add_capsule{ name = "capsule", radius = 0.2, half_length = 0.5, pos = { -3, 0, 2 } }
end

function scene.update(world, dt, t)
	-- Free fall before the first impact (z = 3 - g t^2 / 2 until the box's bottom reaches 0).
	if t > 0 and t < 0.6 then
		local _, _, z = world:body("box"):position()
		-- Integrators differ from the exact parabola by at most about g t dt.
		check.near(z, 3 - 5 * t * t, 10 * t * dt + 0.002, ("box height in free fall at t = %.3f s (m)"):format(t))
	end
end

function scene.finish(world)
	check.vec({ 0, 0, 0.5 }, 0.01, "box at rest (m)", world:body("box"):position())
	check.vec({ 3, 0, 0.3 }, 0.01, "ball at rest (m)", world:body("ball"):position())
	-- The upright capsule stands on its end: centre at half_length + radius.
	local _, _, z = world:body("capsule"):position()
	check.truthy(z > 0.15 and z < 0.75, "capsule on the ground: z = " .. z)
	check.vec({ 0, 0, 0 }, 0.01, "box velocity at rest (m/s)", world:body("box"):velocity())
	check.eq(world:body("box").sleeping, true, "the box fell asleep")
end

return scene
