-- True cylinders: a stack of three drums stands on its flat caps, a wheel lying across a 10 degree
-- ramp rolls down it (a round side, not a polygon's), and a coin dropped leaning falls flat.
local tb = require "tumble"
local build = require "builders"
local expect = require "expect"

local scene = {
	title = "Cylinders",
	description = "Three drums stacked on their caps stand; a wheel rolls down a 10 degree ramp; a tilted coin falls flat.",
	world = { gravity = { 0, 0, -10 } },
	steps = 240,
	camera = { eye = { -8, -4, 5 }, target = { 2, 0.5, 1 } },
}

local ALPHA = math.rad(10)
local R, H = 0.35, 0.25 -- drum radius and half height, m

function scene.setup(world)
	build.ground(world)
	for i = 1, 3 do
		world:add_cylinder{ name = "drum" .. i, radius = R, half_height = H, pos = { -3, 0, H + 2 * H * (i - 1) + 0.01 * i } }
	end
	-- The ramp rises along +x; the wheel's axis lies along y, across it.
	local c, s = math.cos(ALPHA), math.sin(ALPHA)
	world:add_box{ name = "ramp", size = { 12, 3, 0.4 }, pos = { 4, 0, 1.2 }, rot = tb.axis_angle({ 0, 1, 0 }, -ALPHA), static = true }
	local lift = 0.2 + 0.4 + 0.005
	scene.wheel = world:add_cylinder{ name = "wheel", radius = 0.4, half_height = 0.15, friction = 0.9,
		pos = { 4 + 4 * c - lift * s, 0, 1.2 + 4 * s + lift * c }, rot = tb.axis_angle({ 1, 0, 0 }, math.pi / 2) }
	scene.start = { scene.wheel:position() }
	world:add_cylinder{ name = "coin", radius = 0.3, half_height = 0.03, pos = { 0, 3, 1 }, rot = tb.axis_angle({ 1, 0, 0 }, 0.4) }
end

function scene.finish(world)
	for i = 1, 3 do
		local x, y, z = world:body("drum" .. i):position()
		expect.near(z, H + 2 * H * (i - 1), 0.005, "drum" .. i .. " height (m)")
		expect.near(x, -3, 0.01, "drum" .. i .. " x (m)")
		expect.near(y, 0, 0.01, "drum" .. i .. " y (m)")
	end
	-- The wheel left the 8 m ramp within the 4 s: rolling from rest at 2/3 g sin(alpha) = 1.16 m/s^2
	-- it covers 4 m along the ramp in 2.6 s. Its axis stayed across the slope.
	local x = scene.wheel:position()
	expect.below(x, scene.start[1] - 3, "wheel rolled down the ramp (x, m)")
	local _, ay = scene.wheel:to_world(0, 0, 1)
	local _, py = scene.wheel:position()
	expect.near(math.abs(ay - py), 1, 0.05, "wheel axis stays along y")
	local cx, cy, cz = world:body("coin"):position()
	local _, _, uz = world:body("coin"):to_world(0, 0, 1)
	expect.near(math.abs(uz - cz), 1, 1e-3, "coin lies flat (axis vertical)")
	expect.near(cz, 0.03, 2e-3, "coin rests on its face (m)")
	print(("cylinders: wheel at x %.2f, coin at (%.2f, %.2f, %.4f)"):format(x, cx, cy, cz))
end

return scene
