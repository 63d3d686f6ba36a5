-- The showcase: a bit of everything Tumble does, on one ground. It grows as features land
-- (joints: chain, ragdoll, hinge, motor, mover, CV joint and the 100 m/s pair come next).
--   left: a 5-box stack            right: a 15-box pyramid
--   back: a pile of mixed solids   front: a compound table, a rolling ball
-- Keys (viewer): space drops a ball on the pile.
local tb = require "tumble"
local build = require "builders"

local scene = {
	world = { gravity = { 0, 0, -10 }, sleep = true },
	steps = 600,
}

function scene.setup(world)
	build.ground(world, { size = { 60, 60 } })
	build.stack(world, { count = 5, size = 1, pos = { -6, 0 }, prefix = "stack" })
	build.pyramid(world, { base = 5, size = 1, pos = { 6, 0 }, top_name = "pyramid_top" })
	build.pile(world, { count = 12, pos = { 0, 6 }, height = 1 })

	-- A table: one body, five boxes (a top and four legs), each placed in the body frame.
	local legs = {}
	for _, corner in ipairs{ { -0.8, -0.5 }, { 0.8, -0.5 }, { -0.8, 0.5 }, { 0.8, 0.5 } } do
		legs[#legs + 1] = { type = "box", size = { 0.1, 0.1, 0.8 }, pos = { corner[1], corner[2], 0.4 } }
	end
	table.insert(legs, { type = "box", size = { 2, 1.2, 0.1 }, pos = { 0, 0, 0.85 } })
	world:add_compound{ name = "table", shapes = legs, pos = { 0, -5, 0.2 } }

	world:add_sphere{ name = "roller", radius = 0.4, pos = { -3, -5, 0.4 }, vel = { 3, 0, 0 }, friction = 0.8 }
	world:add_capsule{ name = "capsule", radius = 0.25, half_length = 0.5, pos = { 3, -5, 0.3 },
	                   rot = tb.axis_angle({ 0, 1, 0 }, math.pi / 2) }
	scene.drops = 0
end

function scene.keypressed(key)
	if key == "space" and scene.world_ref then
		scene.drops = scene.drops + 1
		scene.world_ref:add_sphere{ radius = 0.3, pos = { 0, 6, 8 }, restitution = 0.4 }
	end
end

function scene.attach(world)
	scene.world_ref = world
end

return scene
