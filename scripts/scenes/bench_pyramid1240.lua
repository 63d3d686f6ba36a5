-- Benchmark scene `pyramid1240` (shared/bench/SCENES.md; the Jolt Physics performance scene, Z up):
-- 15 layers of 2 m cubes (8000 kg each, 1240 in all) that start 0.5 m apart and drop onto each
-- other into a stepped 3D pyramid. Friction 0.2, sleeping off, 10 iterations, 500 steps. The top
-- cube ideally rests at z = 29 (Jolt: 28.78). Shorter runs (--steps N) check only that nothing
-- sank through the ground or went non-finite.
local expect = require "expect"

local scene = {
	title = "Benchmark: pyramid of 1240 cubes",
	description = "15 layers of 2 m cubes drop onto each other into a stepped pyramid (Jolt's performance scene). Heavy on purpose.",
	world = { gravity = { 0, 0, -10 }, iterations = 10, sleep = false },
	steps = 500,
}

function scene.setup(world)
	world:add_box{ name = "ground", size = { 400, 400, 2 }, pos = { 0, 0, -1 }, static = true, friction = 0.2 }
	scene.cubes = {}
	for i = 0, 14 do
		local shift = (i % 2 == 1) and 1 or 0
		for j = i // 2, 15 - (i + 1) // 2 - 1 do
			for k = i // 2, 15 - (i + 1) // 2 - 1 do
				scene.cubes[#scene.cubes + 1] = world:add_box{ size = { 2, 2, 2 }, density = 1000, friction = 0.2,
				                                               pos = { -15 + 2 * j + shift, -15 + 2 * k + shift, 1 + 2.5 * i } }
			end
		end
	end
	scene.cubes[#scene.cubes].name = "top"
end

function scene.finish(world)
	local lowest, spread = math.huge, 0
	for _, cube in ipairs(scene.cubes) do
		local x, y, z = cube:position()
		lowest = math.min(lowest, z)
		spread = math.max(spread, math.abs(x), math.abs(y))
	end
	local _, _, top = world:body("top"):position()
	print(("pyramid1240: %d cubes, after %d steps top cube at z %.3f m (ideal 29, Jolt 28.78), lowest centre %.3f m, "
		.. "widest %.2f m"):format(#scene.cubes, world.step_count, top, lowest, spread))
	expect.near(#scene.cubes, 1240, 0, "cubes")
	expect.above(lowest, 0.9, "lowest cube centre (z, m)")
	expect.below(spread, 17, "no cube slid out of the pyramid's footprint (|x|, |y|, m)")
	if world.step_count >= scene.steps then
		expect.near(top, 29, 0.5, "top cube at rest on the pyramid (z, m)")
	end
end

return scene
