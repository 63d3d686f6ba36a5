-- Benchmark scene `stack20` (shared/bench/SCENES.md): one column of 20 touching unit cubes, mass 1.
-- Sleeping off, 10 iterations, friction 0.5, 1200 steps. The top cube is named "top".
local scene = {
	title = "Benchmark: stack of 20",
	description = "One column of 20 touching unit cubes that must stand.",
	world = { gravity = { 0, 0, -10 }, iterations = 10, sleep = false },
	steps = 1200,
}

function scene.setup(world)
	world:add_box{ name = "ground", size = { 400, 400, 2 }, pos = { 0, 0, -1 }, static = true, friction = 0.5 }
	for i = 0, 19 do
		world:add_box{ name = i == 19 and "top" or nil, size = { 1, 1, 1 }, mass = 1, friction = 0.5,
		               pos = { 0, 0, 0.5 + i } }
	end
end

return scene
