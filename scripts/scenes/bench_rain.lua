-- Benchmark scene `rain` (shared/bench/SCENES.md): 1000 cubes and spheres (mass 1) fall in ten
-- layers into a 10 x 10 m area walled by four static boxes. Sleeping off, 10 iterations,
-- friction 0.5, 900 steps.
local tb = require "tumble"

local scene = {
	title = "Benchmark: rain of 1000 bodies",
	description = "1000 cubes and spheres fall in ten layers into a walled 10 x 10 m pit.",
	world = { gravity = { 0, 0, -10 }, iterations = 10, sleep = false },
	steps = 900,
}

function scene.setup(world)
	world:add_box{ name = "ground", size = { 400, 400, 2 }, pos = { 0, 0, -1 }, static = true, friction = 0.5 }
	local axis = { 1, 2, 3 }
	for i = 0, 999 do
		local layer = i // 100
		local j = i % 100
		local gx, gy = j % 10, j // 10
		local shift = 0.2 * ((layer % 3) - 1)
		local pos = { 0.9 * (gx - 4.5) + shift, 0.9 * (gy - 4.5) + shift, 5 + layer * 50 / 9 }
		if (gx + gy + layer) % 2 == 0 then
			world:add_box{ size = { 0.5, 0.5, 0.5 }, mass = 1, friction = 0.5, pos = pos,
			               rot = tb.axis_angle(axis, 0.5 * i) }
		else
			world:add_sphere{ radius = 0.25, mass = 1, friction = 0.5, pos = pos }
		end
	end
	-- Walls 4 m high with their inner faces at x = +-5 and y = +-5.
	for _, wall in ipairs{
		{ name = "wall_px", size = { 1, 12, 4 }, pos = { 5.5, 0, 2 } },
		{ name = "wall_nx", size = { 1, 12, 4 }, pos = { -5.5, 0, 2 } },
		{ name = "wall_py", size = { 12, 1, 4 }, pos = { 0, 5.5, 2 } },
		{ name = "wall_ny", size = { 12, 1, 4 }, pos = { 0, -5.5, 2 } },
	} do
		world:add_box{ name = wall.name, size = wall.size, pos = wall.pos, static = true, friction = 0.5 }
	end
end

return scene
