-- The 5 x 5 pendulum grid of 001 (section 10.3): 25 balls, each hanging by its own rod (a distance
-- constraint) from a fixed point 2 m above it, side by side like a bed of balls. A crate dropped on
-- top is held up by the grid: the rods are not linked to one another, only the contacts between
-- the balls and the crate spread its weight.
local build = require "builders"
local expect = require "expect"

local N, RADIUS, SPACING, ROD = 5, 0.5, 1.02, 2
local TOP = 3 -- height of the ball centres, m

local scene = {
	title = "Pendulum grid",
	description = "25 balls, each on its own rod, hang side by side like a bed; a crate dropped on top is held up by their contacts.",
	world = { gravity = { 0, 0, -10 } },
	steps = 300,
}

function scene.setup(world)
	build.ground(world)
	scene.rods = {}
	for i = 0, N - 1 do
		for j = 0, N - 1 do
			local x, y = (i - (N - 1) / 2) * SPACING, (j - (N - 1) / 2) * SPACING
			local ball = world:add_sphere{ name = ("ball_%d_%d"):format(i, j), radius = RADIUS, mass = 1,
			                               pos = { x, y, TOP } }
			scene.rods[#scene.rods + 1] = world:distance{ b = ball, anchor_a = { x, y, TOP + ROD } }
		end
	end
	scene.crate = world:add_box{ name = "crate", size = { 2, 2, 0.5 }, pos = { 0.3, -0.2, TOP + 2 }, mass = 5 }
end

function scene.finish(world)
	local _, _, z = scene.crate:position()
	local worst = 0
	for _, rod in ipairs(scene.rods) do
		worst = math.max(worst, math.abs(rod.current_length - ROD))
	end
	print(("pendulum_grid: crate at z = %.3f m (resting on the balls: %.3f), worst rod length error %.4f m"):format(z,
		TOP + RADIUS + 0.25, worst))
	expect.near(z, TOP + RADIUS + 0.25, 0.1, "crate resting on top of the grid (z, m)")
	expect.below(worst, 0.01 * ROD, "largest rod length error (m)")
end

return scene
