-- A bumpy valley made of one static triangle mesh (a heightfield built here in Lua): balls, boxes
-- and a capsule tumble down the slope over the bumps and gather in the basin at the bottom. Every
-- body must stay on the surface (checked with a ray cast down to the mesh) and end lower than it
-- started.
local expect = require "expect"

local scene = {
	title = "Terrain",
	description = "Balls, boxes and a capsule tumble down a bumpy valley made of one triangle mesh and gather in the basin.",
	world = { gravity = { 0, 0, -10 } },
	steps = 600,
	-- Look down the valley from above its upper end (the fitted view would be side-on to a wall).
	camera = { eye = { -16, -9, 17 }, target = { -9, -0.5, 11 } },
}

local X0, X1, Y0, Y1 = -15, 15, -8, 8 -- extent, m
local CELL = 1                        -- grid spacing, m

-- Height of the valley floor: a 24 degree slope down towards +x, bumps, a basin past x = 6 and
-- side walls past |y| = 5.
local function height(x, y)
	local h = 0.45 * (X1 - x) + 0.25 * math.sin(1.1 * x + 0.3) * math.cos(0.8 * y)
	h = h + 0.2 * math.max(0, x - 6) ^ 2 + 0.4 * math.max(0, math.abs(y) - 5) ^ 2
	return h
end

local function build_terrain(world)
	local nx, ny = (X1 - X0) // CELL, (Y1 - Y0) // CELL
	local vertices, triangles = {}, {}
	for j = 0, ny do
		for i = 0, nx do
			local x, y = X0 + i * CELL, Y0 + j * CELL
			vertices[#vertices + 1] = { x, y, height(x, y) }
		end
	end
	-- Two triangles per cell, counter-clockwise seen from above (1-based indices).
	for j = 0, ny - 1 do
		for i = 0, nx - 1 do
			local a = j * (nx + 1) + i + 1
			local b, c = a + 1, a + nx + 1
			local d = c + 1
			triangles[#triangles + 1] = { a, b, d }
			triangles[#triangles + 1] = { a, d, c }
		end
	end
	return world:add_mesh{ name = "ground", vertices = vertices, triangles = triangles, friction = 0.5 }
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
end

function scene.finish(world)
	local worst, dropped = math.huge, math.huge
	for _, item in ipairs(scene.bodies) do
		local x, y, z = item.body:position()
		-- The ray starts inside the body (which it ignores) and must find the mesh below.
		local hit = world:raycast({ x, y, z }, { x, y, z - 30 })
		expect.truthy(hit and hit.body == scene.ground, item.body.name .. " has the mesh below it")
		worst = math.min(worst, (z - hit.point[3]) - item.clearance)
		dropped = math.min(dropped, item.start - z)
		expect.truthy(x > X0 and x < X1 and y > Y0 and y < Y1, item.body.name .. " stayed on the terrain")
	end
	print(("terrain: smallest clearance over the mesh %.4f m, smallest drop %.2f m"):format(worst, dropped))
	expect.above(worst, -0.02, "smallest clearance of a body over the mesh (m)")
	expect.above(dropped, 2, "smallest height a body came down (m)")
end

return scene
