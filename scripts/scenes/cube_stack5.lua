-- The stack test of 001 (section 10.1): five cubes of 2.4 m and 1.2 kg, their centres 3 m apart
-- (0.6 m gaps), the lowest 2 m above the ground, under g = 10 m/s^2 at 60 Hz with 25 iterations and
-- Baumgarte k = 0.2 as in the paper. They drop onto one another and the stack must stand.
local build = require "builders"
local expect = require "expect"

local EDGE = 2.4

local scene = {
	title = "Five falling cubes",
	description = "Five 2.4 m cubes drop through 0.6 m gaps onto one another; the stack must stand.",
	world = { gravity = { 0, 0, -10 }, solver = "baumgarte", baumgarte = 0.2, iterations = 25 },
	steps = 900,
}

function scene.setup(world)
	build.ground(world)
	scene.cubes = {}
	for i = 1, 5 do
		scene.cubes[i] = world:add_box{ name = "cube" .. i, size = { EDGE, EDGE, EDGE }, mass = 1.2,
		                                pos = { 0, 0, 2 + 3 * (i - 1) } }
	end
end

function scene.finish(world)
	for i, cube in ipairs(scene.cubes) do
		local x, y, z = cube:position()
		expect.near(z, EDGE / 2 + EDGE * (i - 1), 0.05, "cube" .. i .. " height (m)")
		expect.below(math.sqrt(x * x + y * y), 0.05, "cube" .. i .. " sideways drift (m)")
	end
end

return scene
