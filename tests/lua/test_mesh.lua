-- Lua API: world:add_mesh (static triangle meshes): the happy path, physics on a mesh, queries,
-- events, and every error message.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

-- A 4 x 4 m square of two triangles at height z.
local function square(z)
	return { { -2, -2, z }, { 2, -2, z }, { 2, 2, z }, { -2, 2, z } }
end

local function happy_path()
	local w = tb.world{ gravity = { 0, 0, -10 } }
	local floor = w:add_mesh{ vertices = square(0), triangles = { { 1, 2, 3 }, { 1, 3, 4 } }, name = "floor",
	                          friction = 0.7, restitution = 0.1, layer = 1, mask = 0xffff }
	check.eq(floor.type, "static", "a mesh body is static")
	check.eq(floor.name, "floor", "name")
	check.near(floor.friction, 0.7, 1e-6, "friction")
	check.near(floor.restitution, 0.1, 1e-6, "restitution")
	check.eq(w:body("floor"), floor, "lookup by name")

	-- A flat index list and a placement: the second floor is 5 m up and a quarter turn about z.
	local raised = w:add_mesh{ vertices = square(0), triangles = { 1, 2, 3, 1, 3, 4 }, pos = { 10, 0, 5 },
	                           rot = tb.axis_angle({ 0, 0, 1 }, math.pi / 2) }
	check.vec({ 10, 0, 5 }, 1e-6, "pos", raised:position())

	-- A ball comes to rest on the first floor at its radius.
	local ball = w:add_sphere{ radius = 0.5, pos = { 0.3, -0.4, 2 } }
	local begins, ends = 0, 0
	w:on("contact_begin", function(ev) begins = begins + 1 end)
	w:on("contact_end", function(ev) ends = ends + 1 end)
	for _ = 1, 120 do
		w:step(1 / 60)
	end
	local x, y, z = ball:position()
	check.near(z, 0.5, 0.005, "ball rests on the mesh")
	check.eq(begins, 1, "one contact_begin for the ball and the mesh")
	check.eq(ends, 0, "no contact_end while resting")
	local contacts = w:contacts()
	check.truthy(#contacts >= 1, "contacts() lists the mesh contact")
	check.truthy(contacts[1].a == floor or contacts[1].b == floor, "the contact names the mesh body")

	-- Ray casts hit the triangles with their normal (and the raised floor at its height).
	local hit = w:raycast({ 1, 1, 3 }, { 1, 1, -3 })
	check.eq(hit.body, floor, "ray hits the floor")
	check.vec({ 1, 1, 0 }, 1e-5, "hit point", table.unpack(hit.point))
	check.vec({ 0, 0, 1 }, 1e-5, "hit normal", table.unpack(hit.normal))
	hit = w:raycast({ 11, 1, 9 }, { 11, 1, 0 })
	check.eq(hit.body, raised, "ray hits the raised floor")
	check.near(hit.point[3], 5, 1e-5, "at its height")
	check.eq(w:raycast({ 5, 5, 3 }, { 5, 5, -3 }), nil, "no hit beside the meshes")

	-- A body of a mesh cannot be made dynamic.
	check.fails_with(function() floor.type = "dynamic" end, "invalid argument")
	ball:set_position(0, 0, 10)
	for _ = 1, 10 do
		w:step(1 / 60)
	end
	check.eq(ends, 1, "lifting the ball off the mesh ends the contact")
	floor:destroy()
	check.eq(w:raycast({ 1, 1, 3 }, { 1, 1, -3 }), nil, "a destroyed mesh is not hit")
	w:destroy()
end

local function errors()
	local w = tb.world{}
	local tri = { { 1, 2, 3 } }
	local v = square(0)
	check.fails(function() w:add_mesh{ triangles = tri } end, "add_mesh: vertices must be a list of at least 3 points {x, y, z}, got nil")
	check.fails(function() w:add_mesh{ vertices = v } end, "add_mesh: triangles must be a list of {i, j, k} vertex indices (or a flat list of them), got nil")
	check.fails(function() w:add_mesh{ vertices = { { 0, 0, 0 }, { 1, 0, 0 } }, triangles = tri } end, "add_mesh: vertices must be a list of 3 to 2097152 points {x, y, z}, got 2")
	check.fails(function() w:add_mesh{ vertices = 5, triangles = tri } end, "add_mesh: vertices must be a table, got 5")
	check.fails(function() w:add_mesh{ vertices = { { 0, 0, 0 }, { 1, 0 / 0, 0 }, { 0, 1, 0 } }, triangles = tri } end, "add_mesh: vertices[2] must be 3 finite numbers {x, y, z} within 1e6 m, got {1, nan, 0}")
	check.fails(function() w:add_mesh{ vertices = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 2e6, 0 } }, triangles = tri } end, "add_mesh: vertices[3] must be 3 finite numbers {x, y, z} within 1e6 m, got {0, 2000000, 0}")
	check.fails(function() w:add_mesh{ vertices = { { 0, 0, 0 }, "x", { 0, 1, 0 } }, triangles = tri } end, "add_mesh: vertices[2] must be 3 finite numbers {x, y, z} within 1e6 m, got 'x'")
	check.fails(function() w:add_mesh{ vertices = v, triangles = {} } end, "add_mesh: triangles must hold 1 to 1048576 triangles of 3 vertex indices, got 0 indices")
	check.fails(function() w:add_mesh{ vertices = v, triangles = { 1, 2, 3, 4 } } end, "add_mesh: triangles must hold 1 to 1048576 triangles of 3 vertex indices, got 4 indices")
	check.fails(function() w:add_mesh{ vertices = v, triangles = { { 1, 2, 5 } } } end, "add_mesh: triangles[1][3] must be a vertex index from 1 to 4, got 5")
	check.fails(function() w:add_mesh{ vertices = v, triangles = { { 1, 2, 3 }, { 0, 1, 2 } } } end, "add_mesh: triangles[2][1] must be a vertex index from 1 to 4, got 0")
	check.fails(function() w:add_mesh{ vertices = v, triangles = { 1, 2, 3, 1, 2.5, 3 } } end, "add_mesh: triangles[5] must be a vertex index from 1 to 4, got 2.5")
	check.fails(function() w:add_mesh{ vertices = v, triangles = { { 1, 2, 3 }, { 1, 2 } } } end, "add_mesh: triangles[2] must be 3 vertex indices {i, j, k}, got {1, 2}")
	check.fails(function() w:add_mesh{ vertices = v, triangles = { { 1, 2, 2 }, { 1, 1, 1 } } } end, "add_mesh: every triangle has zero area (2 given)")
	check.fails(function() w:add_mesh{ vertices = v, triangles = tri, static = false } end, "add_mesh: static must be true (meshes are static level geometry), got false")
	check.fails(function() w:add_mesh{ vertices = v, triangles = tri, kinematic = true } end, "add_mesh: kinematic must be false (meshes are static level geometry), got true")
	check.fails(function() w:add_mesh{ vertices = v, triangles = tri, mass = 1 } end, "add_mesh: mass is not allowed: meshes are static (no mass, no motion)")
	check.fails(function() w:add_mesh{ vertices = v, triangles = tri, density = 1000 } end, "add_mesh: density is not allowed: meshes are static (no mass, no motion)")
	check.fails(function() w:add_mesh{ vertices = v, triangles = tri, vel = { 1, 0, 0 } } end, "add_mesh: vel is not allowed: meshes are static (no mass, no motion)")
	check.fails(function() w:add_mesh{ vertices = v, triangles = tri, frition = 1 } end, "add_mesh: unknown field 'frition'")
	check.fails(function() w:add_mesh{ vertices = v, triangles = tri, friction = -1 } end, "add_mesh: friction must be a number in [0, 1000], got -1")
	check.fails(function() w:add_mesh(3) end, "add_mesh: expected a table of fields, got 3")
	-- static = true is accepted (it is what a mesh is anyway).
	check.eq(w:add_mesh{ vertices = v, triangles = tri, static = true }.type, "static", "static = true")
	w:destroy()
	check.fails(function() w:add_mesh{ vertices = v, triangles = tri } end, "attempt to use a destroyed World")
end

function scene.setup(world)
	happy_path()
	errors()
end

return scene
