-- Lua API: world:add_cylinder{...} and cylinders in compounds: mass, inertia, bounds, rays, shape
-- casts, resting and rolling, and the constructor's errors.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

local pi = math.pi

local function constructors()
	local w = tb.world{ gravity = { 0, 0, 0 }, sleep = false }
	check.truthy(table.concat(tb.shape_types, ","):find("cylinder", 1, true), "tb.shape_types lists cylinder")

	-- m = rho pi r^2 L; Ixx = Iyy = m (3 r^2 + L^2) / 12, Izz = m r^2 / 2 (axis along z).
	local r, h, rho = 0.3, 0.5, 700
	local c = w:add_cylinder{ radius = r, half_height = h, density = rho, pos = { 1, 2, 3 } }
	local m = rho * pi * r * r * 2 * h
	check.near(c:mass(), m, 1e-5 * m, "cylinder mass (kg)")
	local across = m * (3 * r * r + 4 * h * h) / 12
	check.vec({ across, across, m * r * r / 2 }, 1e-5 * across, "cylinder inertia (kg m^2)", c:inertia())
	local x0, y0, z0, x1, y1, z1 = c:aabb()
	check.near(z1 - z0, 2 * h, 1e-5, "height along z (2 half_height, m)")
	check.near(x1 - x0, 2 * r, 1e-5, "width along x (2 radius, m)")
	check.near(y1 - y0, 2 * r, 1e-5, "width along y (2 radius, m)")

	-- Defaults: radius 0.5, half height 0.5.
	local d = w:add_cylinder{ density = 1 }
	check.near(d:mass(), pi * 0.25, 1e-5, "default cylinder: pi r^2 L at density 1")

	-- In a compound, turned to lie along x: the bounds are 2 half_height long in x.
	local wheel = w:add_compound{ pos = { 0, 10, 0 }, shapes = {
		{ type = "cylinder", radius = 0.4, half_height = 0.1, rot = tb.axis_angle({ 0, 1, 0 }, pi / 2), density = 1 } } }
	x0, y0, z0, x1, y1, z1 = wheel:aabb()
	check.near(x1 - x0, 0.2, 1e-4, "compound cylinder along x (m)")
	check.near(z1 - z0, 0.8, 1e-4, "compound cylinder diameter in z (m)")
	check.near(wheel:mass(), pi * 0.16 * 0.2, 1e-5, "compound cylinder mass")

	-- Rays hit the side and the caps at their exact distances.
	local hit = w:raycast({ 1, 10, 3.2 }, { 1, 2, 3.2 })
	check.eq(hit.body, c, "ray across the side hits the cylinder")
	check.near(hit.point[2], 2 + r, 1e-5, "side hit at y = 2 + r")
	check.vec({ 0, 1, 0 }, 1e-5, "side normal", table.unpack(hit.normal))
	hit = w:raycast({ 1.1, 2.1, 10 }, { 1.1, 2.1, 3 })
	check.eq(hit.body, c, "ray from above hits the top cap")
	check.near(hit.point[3], 3 + h, 1e-5, "cap hit at z = 3 + half_height")
	check.eq(w:raycast({ 1 + r + 0.01, 2, 10 }, { 1 + r + 0.01, 2, -10 }), nil, "a ray just past the rim misses")

	-- A box cast down onto the top cap stops on it.
	hit = w:cast{ shape = "box", size = { 0.2, 0.2, 0.2 }, from = { 1, 2, 6 }, to = { 1, 2, 3 } }
	check.eq(hit.body, c, "box cast lands on the cylinder")
	check.near(6 - hit.fraction * 3, 3 + h + 0.1, 1e-3, "box centre on the cap (m)")
	w:destroy()
end

local function motion()
	-- Upright on the ground: it rests on its cap, half_height above the ground.
	local w = tb.world{}
	w:add_box{ size = { 40, 40, 2 }, pos = { 0, 0, -1 }, static = true }
	local upright = w:add_cylinder{ radius = 0.4, half_height = 0.3, pos = { 0, 0, 0.5 } }
	-- Lying across a 10 degree slope (rising along +x): it rolls down at 2/3 g sin(10 deg).
	local slope = tb.axis_angle({ 0, 1, 0 }, -10 * pi / 180)
	w:add_box{ size = { 100, 10, 2 }, pos = { 0, 20, 0 }, rot = slope, static = true }
	local s, c = math.sin(10 * pi / 180), math.cos(10 * pi / 180)
	local r = 0.3
	-- 5 m up the slope (along (c, 0, s)) and 1 m (the half thickness) + r above its centre line
	-- (along (-s, 0, c)).
	local lift = 1 + r + 0.001
	local start = { 5 * c - lift * s, 20, 5 * s + lift * c }
	local roller = w:add_cylinder{ radius = r, half_height = 0.4, pos = start, rot = tb.axis_angle({ 1, 0, 0 }, pi / 2), friction = 0.8 }
	for _ = 1, 30 do w:step(1 / 60) end
	local v0x, _, v0z = roller:velocity()
	for _ = 1, 60 do w:step(1 / 60) end
	local v1x, _, v1z = roller:velocity()
	local a = ((v1x * c + v1z * s) - (v0x * c + v0z * s)) / 1.0
	check.near(a, -2 / 3 * 10 * s, 0.05 * 2 / 3 * 10 * s, "rolling acceleration along the slope (m/s^2)")
	local _, _, z = upright:position()
	check.near(z, 0.3, 1e-3, "upright cylinder rests on its cap (m)")
	local ux, uy, uz = upright:to_world(0, 0, 1)
	local px, py, pz = upright:position()
	check.near(uz - pz, 1, 1e-4, "and stays upright (axis z)")
	check.near(ux - px, 0, 1e-2, "axis x")
	check.near(uy - py, 0, 1e-2, "axis y")
	w:destroy()
end

local function errors()
	local w = tb.world{}
	check.fails(function() w:add_cylinder{ radius = 0 } end, "add_cylinder: radius must be a positive number, got 0")
	check.fails(function() w:add_cylinder{ half_height = -1 } end, "add_cylinder: half_height must be a positive number, got -1")
	check.fails(function() w:add_cylinder{ half_height = 0 / 0 } end, "add_cylinder: half_height must be a positive number, got nan")
	check.fails(function() w:add_cylinder{ radius = "wide" } end, "add_cylinder: radius must be a positive number, got 'wide'")
	check.fails(function() w:add_cylinder{ radius = 1e5 } end, "add_cylinder: could not create the cylinder shape: invalid argument")
	check.fails(function() w:add_cylinder{ half_height = 1e-4 } end, "add_cylinder: could not create the cylinder shape: invalid argument")
	check.fails(function() w:add_compound{ shapes = { { type = "cylinder", radius = -2 } } } end,
		"add_compound: shapes[1].radius must be a positive number, got -2")
	check.eq(#w:bodies(), 0, "nothing was added")
	w:destroy()
end

function scene.setup(world)
	constructors()
	motion()
	errors()
end

return scene
