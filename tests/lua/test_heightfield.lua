-- Lua API: world:add_heightfield (terrain from a grid of heights, with holes): both ways to give
-- the heights, physics and queries on it, holes, and every error message.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

-- A plane rising 0.25 m per metre along x, at 1 m cells: heights of point (i, j) (1-based).
local function plane_height(i, j)
	return 0.25 * (i - 1)
end

local function happy_path()
	local w = tb.world{ gravity = { 0, 0, -10 } }
	check.truthy(table.concat(tb.shape_types, ","):find("heightfield"), "tb.shape_types lists heightfield")

	-- Rows: heights[j][i] is the point at x = (i - 1) sx, y = (j - 1) sy. 9 x 7 points, 1 m cells,
	-- one hole in cell (5, 3): x in [4, 5], y in [2, 3].
	local rows = {}
	for j = 1, 7 do
		rows[j] = {}
		for i = 1, 9 do
			rows[j][i] = plane_height(i, j)
		end
	end
	local ground = w:add_heightfield{ heights = rows, cell_size = 1, holes = { { 5, 3 } }, name = "ground",
	                                  friction = 0.8, pos = { -4, -3, 0 } }
	check.eq(ground.type, "static", "a heightfield body is static")
	check.eq(ground.name, "ground", "name")
	check.near(ground.friction, 0.8, 1e-6, "friction")
	check.fails_with(function() ground.type = "dynamic" end, "invalid argument")

	-- A ray straight down meets the plane at its analytic height; through the hole it misses.
	local hit = w:raycast({ -1.3, 0.2, 5 }, { -1.3, 0.2, -5 })
	check.eq(hit.body, ground, "ray hits the heightfield")
	check.near(hit.point[3], 0.25 * (-1.3 + 4), 1e-4, "at the plane's height")
	check.vec({ -0.25 / math.sqrt(1.0625), 0, 1 / math.sqrt(1.0625) }, 1e-5, "normal", table.unpack(hit.normal))
	check.eq(w:raycast({ 0.5, -0.5, 5 }, { 0.5, -0.5, -5 }), nil, "no hit through the hole")
	local x1, y1, z1, x2, y2, z2 = ground:aabb()
	check.vec({ -4, -3, 0 }, 1e-5, "aabb low corner", x1, y1, z1)
	check.vec({ 4, 3, 2 }, 1e-5, "aabb high corner", x2, y2, z2)

	-- A flat list (row-major) with count_x; count_y follows from the length. Cells of 0.5 x 0.25 m.
	local flat = {}
	for k = 1, 5 * 9 do
		flat[k] = 2
	end
	local pad = w:add_heightfield{ heights = flat, count_x = 5, cell_size = { 0.5, 0.25 }, pos = { 10, 0, 0 } }
	local px1, py1, pz1, px2, py2, pz2 = pad:aabb()
	check.vec({ 12, 2, 2 }, 1e-5, "flat list: 4 x 8 cells of 0.5 x 0.25 m", px2, py2, pz2)

	-- A ball on the pad rests at its radius above it; one over the hole falls through.
	local ball = w:add_sphere{ radius = 0.3, pos = { 11, 1, 3 } }
	local faller = w:add_sphere{ radius = 0.2, pos = { 0.5, -0.5, 3 } }
	for _ = 1, 120 do
		w:step(1 / 60)
	end
	local _, _, z = ball:position()
	check.near(z, 2.3, 0.001, "ball rests on the pad at its radius")
	local _, _, zf = faller:position()
	check.truthy(zf < -1, "a ball over the hole falls through it")

	-- A sphere cast down onto the plane touches it where the normal through its centre meets it:
	-- 0.5 m up the slope's normal (-0.25, 0, 1) / |.| from the point of contact.
	local c = w:cast{ shape = "sphere", radius = 0.5, from = { 2, 1, 5 }, to = { 2, 1, -5 } }
	check.eq(c.body, ground, "cast hits the heightfield")
	local px = 2 + 0.5 * 0.25 / math.sqrt(1.0625)
	check.vec({ px, 1, 0.25 * (px + 4) }, 1e-3, "contact point on the plane", table.unpack(c.point))

	ground:destroy()
	check.eq(w:raycast({ -1.3, 0.2, 5 }, { -1.3, 0.2, -5 }), nil, "a destroyed heightfield is not hit")
	w:destroy()
end

local function errors()
	local w = tb.world{}
	local h4 = { 0, 0, 0, 0 }
	local rows = { { 0, 0 }, { 0, 0 } }
	check.fails(function() w:add_heightfield{ count_x = 2 } end, "add_heightfield: heights must be a list of count_x * count_y numbers or a list of rows, got nil")
	check.fails(function() w:add_heightfield{ heights = 5 } end, "add_heightfield: heights must be a table, got 5")
	check.fails(function() w:add_heightfield{ heights = h4 } end, "add_heightfield: count_x must be given with a flat list of heights, got nil")
	check.fails(function() w:add_heightfield{ heights = h4, count_x = 1 } end, "add_heightfield: count_x must be an integer from 2 to 4096, got 1")
	check.fails(function() w:add_heightfield{ heights = h4, count_x = 2, count_y = 5000 } end, "add_heightfield: count_y must be an integer from 2 to 4096, got 5000")
	check.fails(function() w:add_heightfield{ heights = h4, count_x = 1 << 40 } end, "add_heightfield: count_x must be an integer from 2 to 4096, got 1099511627776")
	check.fails(function() w:add_heightfield{ heights = h4, count_x = 3 } end, "add_heightfield: heights must hold count_x * count_y numbers (count_x = 3, count_y from 2 to 4096), got 4")
	check.fails(function() w:add_heightfield{ heights = h4, count_x = 2, count_y = 3 } end, "add_heightfield: heights must hold count_x * count_y numbers (count_x = 2, count_y from 2 to 4096), got 4")
	check.fails(function() w:add_heightfield{ heights = { 0, 0 / 0, 0, 0 }, count_x = 2 } end, "add_heightfield: heights[2] must be a finite number within +-1e6 m, got nan")
	check.fails(function() w:add_heightfield{ heights = { 0, 0, 2e6, 0 }, count_x = 2 } end, "add_heightfield: heights[3] must be a finite number within +-1e6 m, got 2000000")
	check.fails(function() w:add_heightfield{ heights = { 0, 0, "x", 0 }, count_x = 2 } end, "add_heightfield: heights[3] must be a finite number within +-1e6 m, got 'x'")
	check.fails(function() w:add_heightfield{ heights = { { 0, 0 }, { 0, 1 / 0 } } } end, "add_heightfield: heights[2][2] must be a finite number within +-1e6 m, got inf")
	check.fails(function() w:add_heightfield{ heights = { { 0, 0 }, { 0 } } } end, "add_heightfield: heights[2] must be a row of 2 numbers, got {0}")
	check.fails(function() w:add_heightfield{ heights = { { 0, 0 } } } end, "add_heightfield: the number of rows of heights must be an integer from 2 to 4096, got 1")
	check.fails(function() w:add_heightfield{ heights = { { 0 }, { 0 } } } end, "add_heightfield: the length of heights[1] must be an integer from 2 to 4096, got 1")
	check.fails(function() w:add_heightfield{ heights = rows, count_y = 3 } end, "add_heightfield: heights must hold count_y = 3 rows, got 2")
	check.fails(function() w:add_heightfield{ heights = rows, count_x = 3 } end, "add_heightfield: heights[1] must hold count_x = 3 numbers, got 2")
	local long = {}
	for k = 1, 400 do
		long[k] = 0
	end
	check.fails(function() w:add_heightfield{ heights = long, count_x = 200, cell_size = 9000 } end, "add_heightfield: the grid must be at most 1e6 m long per side, got 1791000.0 x 9000.0 m")
	check.fails(function() w:add_heightfield{ heights = rows, cell_size = 0 } end, "add_heightfield: cell_size must be a number or 2 numbers {sx, sy} in [0.001, 10000] (m), got 0")
	check.fails(function() w:add_heightfield{ heights = rows, cell_size = { 1, -1 } } end, "add_heightfield: cell_size must be a number or 2 numbers {sx, sy} in [0.001, 10000] (m), got {1, -1}")
	check.fails(function() w:add_heightfield{ heights = rows, cell_size = "big" } end, "add_heightfield: cell_size must be a number or 2 numbers {sx, sy} in [0.001, 10000] (m), got 'big'")
	check.fails(function() w:add_heightfield{ heights = rows, holes = { { 2, 1 } } } end, "add_heightfield: holes[1] must be a cell {i, j} with i from 1 to 1 and j from 1 to 1, got {2, 1}")
	check.fails(function() w:add_heightfield{ heights = rows, holes = { 1 } } end, "add_heightfield: holes[1] must be a cell {i, j} with i from 1 to 1 and j from 1 to 1, got 1")
	check.fails(function() w:add_heightfield{ heights = rows, static = false } end, "add_heightfield: static must be true (heightfields are static level geometry), got false")
	check.fails(function() w:add_heightfield{ heights = rows, density = 1 } end, "add_heightfield: density is not allowed: heightfields are static (no mass, no motion)")
	check.fails(function() w:add_heightfield{ heights = rows, friction = -1 } end, "add_heightfield: friction must be a number in [0, 1000], got -1")
	check.fails(function() w:add_heightfield{ heights = rows, hieghts = 1 } end, "add_heightfield: unknown field 'hieghts'")
	check.fails(function() w:add_heightfield(3) end, "add_heightfield: expected a table of fields, got 3")
	check.fails(function() w:add_compound{ shapes = { { type = "heightfield" } } } end, "add_compound: shapes[1].type must be one of 'box', 'sphere', 'capsule', 'hull', 'cylinder' (a heightfield is a static body of its own: world:add_heightfield), got 'heightfield'")
	-- The smallest field: 2 x 2 points, one cell.
	check.eq(w:add_heightfield{ heights = rows }.type, "static", "one cell")
	w:destroy()
	check.fails(function() w:add_heightfield{ heights = rows } end, "attempt to use a destroyed World")
end

function scene.setup(world)
	happy_path()
	errors()
end

return scene
