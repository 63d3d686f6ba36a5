-- The cost of terrain: 100 spheres dropped on rolling hills of 128 x 128 points (0.5 m cells),
-- built as a heightfield or, with TB_TERRAIN=mesh, as a mesh of the same triangles. Measured by
-- bench/terrain_cost.sh (instructions of the steps under callgrind); the two must end alike.
local scene = { steps = 300, world = { gravity = { 0, 0, -10 } } }

local N, CELL = 128, 0.5

-- Hills in a wide bowl (4 m higher at the edges than in the middle), so no ball rolls off.
local function height(x, y)
	local bowl = 0.004 * ((x - 32) ^ 2 + (y - 32) ^ 2)
	return bowl + 0.8 * math.sin(0.23 * x) * math.cos(0.19 * y) + 0.3 * math.sin(0.7 * x + 0.4 * y)
end

function scene.setup(world)
	local asMesh = os.getenv("TB_TERRAIN") == "mesh"
	if asMesh then
		local vertices, triangles = {}, {}
		for j = 0, N - 1 do
			for i = 0, N - 1 do
				vertices[#vertices + 1] = { i * CELL, j * CELL, height(i * CELL, j * CELL) }
			end
		end
		for j = 0, N - 2 do
			for i = 0, N - 2 do
				local a = j * N + i + 1
				local b, c, d = a + 1, a + N, a + N + 1
				for _, k in ipairs{ a, b, d, a, d, c } do
					triangles[#triangles + 1] = k
				end
			end
		end
		world:add_mesh{ name = "ground", vertices = vertices, triangles = triangles, friction = 0.6 }
	else
		local rows = {}
		for j = 1, N do
			rows[j] = {}
			for i = 1, N do
				rows[j][i] = height((i - 1) * CELL, (j - 1) * CELL)
			end
		end
		world:add_heightfield{ name = "ground", heights = rows, cell_size = CELL, friction = 0.6 }
	end
	scene.balls = {}
	for k = 0, 99 do
		local x, y = 7 + 5.5 * (k % 10), 7 + 5.5 * (k // 10)
		scene.balls[#scene.balls + 1] = world:add_sphere{ radius = 0.4, pos = { x, y, height(x, y) + 1.5 }, friction = 0.6 }
	end
end

function scene.finish(world)
	-- Both runs must keep every ball on the surface: the smallest gap under a ball (a ray from its
	-- centre down, less its radius) is about zero, never a fall through.
	local sum, gap = 0, math.huge
	for _, ball in ipairs(scene.balls) do
		local x, y, z = ball:position()
		sum = sum + z
		local hit = world:raycast({ x, y, z }, { x, y, z - 10 })
		gap = math.min(gap, hit and (z - hit.point[3] - 0.4) or -math.huge)
	end
	print(("terrain100 (%s): mean ball height %.4f m, smallest gap under a ball %.4f m"):format(
		os.getenv("TB_TERRAIN") or "heightfield", sum / #scene.balls, gap))
end

return scene
