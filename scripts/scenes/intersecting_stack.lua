-- The intersecting stack of 001 (section 10.2): five 2.4 m cubes start overlapping one another by
-- 0.4 m (centres 2 m apart) and the lowest sinks 1.2 m into the ground. The "split" solver pushes
-- them apart without leaving velocity behind (the paper's single-frame push factor), so they
-- separate and stop instead of flying apart.
local build = require "builders"
local expect = require "expect"

local EDGE = 2.4

local scene = {
	title = "Intersecting stack",
	description = "Five cubes start deep inside one another and the ground; the split solver pushes them apart without making them fly.",
	-- Sleep off: bodies at rest but still overlapping must keep being pushed apart.
	world = { gravity = { 0, 0, -10 }, solver = "split", sleep = false },
	steps = 300,
}

function scene.setup(world)
	build.ground(world)
	scene.cubes = {}
	for i = 1, 5 do
		scene.cubes[i] = world:add_box{ name = "cube" .. i, size = { EDGE, EDGE, EDGE }, mass = 1.2,
		                                pos = { 0, 0, 2 * (i - 1) } }
	end
	scene.highest = 0
	scene.fastest_late = 0
end

function scene.update(world, dt, t)
	local _, _, top = scene.cubes[5]:position()
	scene.highest = math.max(scene.highest, top)
	if t > 1 then
		for _, cube in ipairs(scene.cubes) do
			local vx, vy, vz = cube:velocity()
			scene.fastest_late = math.max(scene.fastest_late, math.sqrt(vx * vx + vy * vy + vz * vz))
		end
	end
end

function scene.finish(world)
	print(("intersecting_stack: top cube rose to %.3f m (rest %.1f m), fastest cube after 1 s %.3f m/s"):format(
		scene.highest, EDGE / 2 + 4 * EDGE, scene.fastest_late))
	for i, cube in ipairs(scene.cubes) do
		local _, _, z = cube:position()
		expect.near(z, EDGE / 2 + EDGE * (i - 1), 0.05, "cube" .. i .. " height once separated (m)")
	end
	-- Pushed apart, not launched: the top cube never rises far above its resting height.
	expect.below(scene.highest, EDGE / 2 + 4 * EDGE + 0.5, "highest point of the top cube (m)")
	expect.below(scene.fastest_late, 0.1, "fastest cube after 1 s (m/s)")
end

return scene
