-- The funnel of 001 (section 10.3): 20 balls poured into an inverted pyramid made of 4 planes
-- (here large static slabs whose top faces are the planes), tilted 45 degrees and meeting at a point
-- at the bottom. They settle into a stable heap: none sinks through a plane or escapes.
local tb = require "tumble"
local expect = require "expect"

local ALPHA = math.rad(45) -- tilt of each plane
local RADIUS = 0.5
local COUNT = 20

local scene = {
	title = "Funnel",
	description = "20 balls poured into a funnel of four tilted slabs settle into a heap: none sinks through or escapes.",
	camera = { eye = { 3, -8, 14 }, target = { 0, 0, 3 } },
	world = { gravity = { 0, 0, -10 } },
	steps = 600,
}

-- Inward normals of the four planes through the apex (0, 0, 0).
local function planes()
	local list = {}
	for k = 0, 3 do
		local phi = k * math.pi / 2
		list[#list + 1] = { -math.sin(ALPHA) * math.cos(phi), -math.sin(ALPHA) * math.sin(phi), math.cos(ALPHA) }
	end
	return list
end

function scene.setup(world)
	for k, n in ipairs(planes()) do
		local phi = (k - 1) * math.pi / 2
		-- A slab whose top face contains the apex: turned by -ALPHA about y, then by phi about z;
		-- its centre is 6 m up the slope and half its thickness below the plane.
		local rot = tb.quat_multiply(tb.axis_angle({ 0, 0, 1 }, phi), tb.axis_angle({ 0, 1, 0 }, -ALPHA))
		local along = { math.cos(ALPHA) * math.cos(phi), math.cos(ALPHA) * math.sin(phi), math.sin(ALPHA) }
		local center = {}
		for i = 1, 3 do
			center[i] = 6 * along[i] - 0.5 * n[i]
		end
		world:add_box{ name = "plane" .. k, size = { 14, 14, 1 }, pos = center, rot = rot, static = true, friction = 0.5 }
	end
	scene.balls = {}
	for i = 1, COUNT do
		-- A loose column of 2 x 2 layers, 1.1 m apart, starting 3 m above the apex.
		local layer = (i - 1) // 4
		local slot = (i - 1) % 4
		local x = (slot % 2 == 0) and -0.55 or 0.55
		local y = (slot < 2) and -0.55 or 0.55
		scene.balls[i] = world:add_sphere{ name = "ball" .. i, radius = RADIUS, mass = 1, friction = 0.5,
		                                   pos = { x + 0.05 * layer, y, 3 + 1.1 * layer } }
		scene.balls[i]:set_damping(0.1, 0.5)
	end
end

function scene.finish(world)
	local deepest, fastest = -math.huge, 0
	for _, ball in ipairs(scene.balls) do
		local p = { ball:position() }
		for _, n in ipairs(planes()) do
			-- Penetration of the ball into the plane through the apex.
			local distance = p[1] * n[1] + p[2] * n[2] + p[3] * n[3]
			deepest = math.max(deepest, RADIUS - distance)
		end
		local vx, vy, vz = ball:velocity()
		fastest = math.max(fastest, math.sqrt(vx * vx + vy * vy + vz * vz))
	end
	print(("funnel: deepest ball penetration into a plane %.4f m, fastest ball %.4f m/s"):format(deepest, fastest))
	expect.below(deepest, 0.02, "deepest penetration of a ball into a plane (m)")
	expect.below(fastest, 0.05, "fastest ball at the end (m/s)")
end

return scene
