-- A bumpy valley of one static heightfield (hills from a formula, 1 m cells): balls, boxes and a
-- capsule tumble down the slope over the bumps and gather in the basin at the bottom, and a ball
-- dropped over a hole in the side slope falls through it onto a catch pad below. Every body on the
-- terrain must stay on its surface (checked with a ray cast down to it) and end lower than it
-- started.
local expect = require "expect"

local scene = {
	title = "Terrain",
	description = "Balls, boxes and a capsule tumble down a bumpy heightfield valley into the basin; a ball drops through a hole in the slope.",
	world = { gravity = { 0, 0, -10 } },
	steps = 600,
	-- Look down the valley from above its upper end, the hole in the left slope in view (the fitted
	-- view would be side-on to a wall).
	camera = { eye = { -24, -2, 24 }, target = { -4, 1, 5 } },
}

local X0, X1, Y0, Y1 = -15, 15, -8, 8 -- extent, m
local CELL = 1                        -- grid spacing, m
-- The hole: grid cells (1-based) spanning x in [-4, -2], y in [5, 7], up the side slope where no
-- body rolls.
local HOLE_I, HOLE_J = { 12, 13 }, { 14, 15 }

-- Height of the valley floor: a 24 degree slope down towards +x, bumps, a basin past x = 6 and
-- side walls past |y| = 5.
local function height(x, y)
	local h = 0.45 * (X1 - x) + 0.25 * math.sin(1.1 * x + 0.3) * math.cos(0.8 * y)
	h = h + 0.2 * math.max(0, x - 6) ^ 2 + 0.4 * math.max(0, math.abs(y) - 5) ^ 2
	return h
end

local function build_terrain(world)
	local nx, ny = (X1 - X0) // CELL + 1, (Y1 - Y0) // CELL + 1
	local rows = {}
	for j = 1, ny do
		local row = {}
		for i = 1, nx do
			row[i] = height(X0 + (i - 1) * CELL, Y0 + (j - 1) * CELL)
		end
		rows[j] = row
	end
	local holes = {}
	for _, i in ipairs(HOLE_I) do
		for _, j in ipairs(HOLE_J) do
			holes[#holes + 1] = { i, j }
		end
	end
	return world:add_heightfield{ name = "ground", heights = rows, cell_size = CELL, holes = holes,
	                              pos = { X0, Y0, 0 }, friction = 0.5 }
end

function scene.setup(world)
	scene.ground = build_terrain(world)
	scene.bodies = {}
	local function add(body, clearance)
		local x, y, z = body:position()
		scene.bodies[#scene.bodies + 1] = { body = body, clearance = clearance, start = z }
	end
	for i = 1, 6 do
		local x, y = -12 + 0.6 * i, -3 + 1.1 * i
		add(world:add_sphere{ name = "ball" .. i, radius = 0.35, pos = { x, y, height(x, y) + 1 }, density = 500,
		                      friction = 0.6 }, 0.35)
	end
	for i = 1, 4 do
		local x, y = -10 + 0.8 * i, 3.5 - 2 * i
		add(world:add_box{ name = "box" .. i, size = { 0.6, 0.6, 0.6 }, pos = { x, y, height(x, y) + 1.5 },
		                   density = 400, friction = 0.2 }, 0.3)
	end
	local x, y = -13, 0.5
	add(world:add_capsule{ name = "capsule", radius = 0.25, half_length = 0.6, pos = { x, y, height(x, y) + 1 },
	                       rot = { math.sqrt(0.5), math.sqrt(0.5), 0, 0 }, density = 500, friction = 0.6 }, 0.25)

	-- Under the hole (its middle is at x = -3, y = 6), a pad 1 m up catches what falls through.
	world:add_box{ name = "pad", size = { 3, 3, 1 }, pos = { -3, 6, 0.5 }, static = true }
	scene.diver = world:add_sphere{ name = "diver", radius = 0.3, pos = { -3, 6, height(-3, 6) + 1 }, density = 500 }
end

function scene.finish(world)
	local worst, dropped = math.huge, math.huge
	for _, item in ipairs(scene.bodies) do
		local x, y, z = item.body:position()
		-- The ray starts inside the body (which it ignores) and must find the terrain below.
		local hit = world:raycast({ x, y, z }, { x, y, z - 30 })
		expect.truthy(hit and hit.body == scene.ground, item.body.name .. " has the terrain below it")
		worst = math.min(worst, (z - hit.point[3]) - item.clearance)
		dropped = math.min(dropped, item.start - z)
		expect.truthy(x > X0 and x < X1 and y > Y0 and y < Y1, item.body.name .. " stayed on the terrain")
	end
	print(("terrain: smallest clearance over the terrain %.4f m, smallest drop %.2f m"):format(worst, dropped))
	expect.above(worst, -0.02, "smallest clearance of a body over the terrain (m)")
	expect.above(dropped, 2, "smallest height a body came down (m)")
	-- The diver went through the hole and rests on the pad (top at 1 m), 7 m under the surface.
	local x, y, z = scene.diver:position()
	print(("terrain: the diver rests at %.3f %.3f %.3f under the hole"):format(x, y, z))
	expect.near(z, 1.3, 0.01, "the diver's height on the pad under the hole (m)")
	expect.above(height(x, y) - z, 5, "depth of the diver under the terrain (m)")
end

return scene
