-- Benchmark scene `pyramid20` (shared/bench/SCENES.md): a 2D pyramid of 210 unit cubes, mass 1,
-- rows touching face to face with zero gap. Sleeping off, 10 iterations, friction 0.5, 600 steps.
local scene = {
	title = "Benchmark: 2D pyramid of 210 cubes",
	description = "A flat pyramid of 210 unit cubes, rows touching face to face: friction and stacking under load.",
	world = { gravity = { 0, 0, -10 }, iterations = 10, sleep = false },
	steps = 600,
}

function scene.setup(world)
	-- The ground: top face at z = 0, as the reference engines' static box.
	world:add_box{ name = "ground", size = { 400, 400, 2 }, pos = { 0, 0, -1 }, static = true, friction = 0.5 }
	for row = 0, 19 do
		local n = 20 - row
		for i = 0, n - 1 do
			world:add_box{ name = row == 19 and "top" or nil, size = { 1, 1, 1 }, mass = 1, friction = 0.5,
			               pos = { i - (n - 1) / 2, 0, 0.5 + row } }
		end
	end
end

return scene
