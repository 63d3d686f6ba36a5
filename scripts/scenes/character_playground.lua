-- A playground for the character controller (world:character): stairs of 0.25 m steps, a 0.4 m
-- step, ramps of 30 and 55 degrees, a moving platform and crates. Six characters walk a lane each
-- (they show what the controller does, and finish() checks it): one climbs the stairs, one is
-- stopped by the 0.4 m step (the step height is 0.3 m), one walks up the 30 degree ramp, one is
-- stopped by the 55 degree one (the walkable limit is 45 degrees), one rides the platform and one
-- pushes a crate. The hero in the middle is yours in the viewer, and the camera follows it.
-- Keys (viewer): W A S D walk, space jumps, C crouches.
local tb = require "tumble"
local build = require "builders"
local movers = require "movers"
local expect = require "expect"

local scene = {
	world = { gravity = { 0, 0, -10 } },
	steps = 600,
	camera = { eye = { -12, -18, 12 }, target = { 3, 0, 0 } },
	title = "Character playground",
	description = "Characters walk stairs, a step too high, a walkable and a too-steep ramp, ride a platform and push a crate. The hero in the middle is yours; the camera follows it.",
	keys = {
		{ "w", "walk along +x" },
		{ "s", "walk along -x" },
		{ "a", "walk along +y" },
		{ "d", "walk along -y" },
		{ "space", "jump" },
		{ "c", "crouch" },
	},
}

local SPEED = 1.5 -- m/s, every walker

-- A ramp rising along +x from x = x0 on the ground, `angle` rad steep, 4 m long, 2 m wide.
local function ramp(world, x0, y, angle, name)
	local top = { x0 + 2 * math.cos(angle), y, 2 * math.sin(angle) }
	local down = { math.sin(angle), 0, -math.cos(angle) }
	world:add_box{
		name = name, static = true, size = { 4, 2, 1 }, rot = tb.axis_angle({ 0, 1, 0 }, -angle),
		pos = { top[1] + 0.5 * down[1], y, top[3] + 0.5 * down[3] },
	}
end

-- A walker: a character that walks along +x at SPEED until it reaches `stop` (x, m).
local function walker(world, name, pos, stop)
	local ch = world:character{ name = name, pos = pos }
	scene.walkers[#scene.walkers + 1] = { ch = ch, stop = stop, highest = pos[3] }
	return ch
end

function scene.setup(world)
	build.ground(world)
	scene.walkers = {}

	-- Stairs (y = -6): four 0.25 m steps, 0.6 m deep, up to a landing at 1 m.
	for k = 1, 4 do
		local x0 = 2 + 0.6 * (k - 1)
		world:add_box{ name = "stair" .. k, static = true, size = { 10 - x0, 2, 0.25 * k }, pos = { (x0 + 10) / 2, -6, 0.125 * k } }
	end
	scene.climber = walker(world, "climber", { 0, -6, 0 }, 8)

	-- A 0.4 m step (y = -2), its face at x = 3.
	world:add_box{ name = "high_step", static = true, size = { 3, 2, 0.4 }, pos = { 4.5, -2, 0.2 } }
	scene.blocked = walker(world, "blocked", { 0, -2, 0 }, 8)

	-- Ramps from x = 2: 30 degrees (y = 2) and 55 degrees (y = 6).
	ramp(world, 2, 2, math.rad(30), "ramp30")
	ramp(world, 2, 6, math.rad(55), "ramp55")
	scene.hiker = walker(world, "hiker", { 0, 2, 0 }, 4.5)
	scene.slipper = walker(world, "slipper", { 0, 6, 0 }, 8)

	-- A platform (y = 11) going back and forth along x, and a rider standing on it.
	scene.platform, scene.platform_mover = movers.platform(world, {
		name = "platform", size = { 3, 3, 0.2 }, path = { { -4, 11, 1 }, { 4, 11, 1 } }, speed = SPEED,
		acceleration = 2, mode = "pingpong", wait = 0.5,
	})
	scene.rider = world:character{ name = "rider", pos = { -4, 11, 1.1 } }
	scene.ride_error = 0

	-- Crates (y = -10): a 20 kg crate to push.
	scene.crate = world:add_box{ name = "crate", size = { 1, 1, 1 }, pos = { 2, -10, 0.5 }, mass = 20, friction = 0.5 }
	scene.pusher = walker(world, "pusher", { 0, -10, 0 }, 8)
	world:add_box{ name = "crate2", size = { 0.8, 0.8, 0.8 }, pos = { -3, -3, 0.4 }, mass = 10 }

	scene.hero = world:character{ name = "hero", pos = { -6, 0, 0 } }
	tb.camera.follow(scene.hero.body, { offset = { -8, -10, 6 }, smoothing = 0.3 })
end

function scene.update(world, dt, t)
	for _, w in ipairs(scene.walkers) do
		local x = w.ch:position()
		w.ch:move({ x < w.stop and SPEED or 0, 0, 0 }, dt)
		w.highest = math.max(w.highest, select(3, w.ch:position()))
	end

	-- Where the rider stands after the last step, against where the platform is: it started on
	-- the platform's centre, on its top.
	local px, py, pz = scene.platform:position()
	local x, y, z = scene.rider:position()
	scene.ride_error = math.max(scene.ride_error, math.abs(x - px), math.abs(y - py), math.abs(z - (pz + 0.1)))
	scene.rider:move({ 0, 0, 0 }, dt)

	local v = { 0, 0, 0 }
	local down = tb.input.down
	if down("w") then v[1] = v[1] + 3 end
	if down("s") then v[1] = v[1] - 3 end
	if down("a") then v[2] = v[2] + 3 end
	if down("d") then v[2] = v[2] - 3 end
	if down("space") then scene.hero:jump() end
	scene.hero.crouched = down("c")
	scene.hero:move(v, dt)
end

function scene.finish(world)
	local cx, _, cz = scene.climber:position()
	local bx, _, bz = scene.blocked:position()
	local hx, _, hz = scene.hiker:position()
	local sx, _, sz = scene.slipper:position()
	local crate_x = scene.crate:position()
	print(("character_playground: climber at (%.3f, %.3f), blocked at (%.3f, %.3f), hiker at (%.3f, %.3f), "
		.. "slipper at (%.3f, %.3f), rider off by %.4f m, crate at x = %.3f"):format(cx, cz, bx, bz, hx, hz, sx, sz,
		scene.ride_error, crate_x))
	-- Climbs the 0.25 m steps: up on the 1 m landing.
	expect.near(cz, 1.0, 0.01, "climber's feet on the landing (m)")
	expect.truthy(scene.climber.on_ground, "climber on the ground")
	expect.above(cx, 3.8, "climber past the last step (x, m)")
	-- Stopped by the 0.4 m step: at its face (x = 3) less the radius, never above the floor.
	expect.below(scene.walkers[2].highest, 0.01, "blocked walker's highest feet (m)")
	expect.near(bx, 3 - 0.3, 0.01, "blocked walker at the step's face (x, m)")
	-- Up the 30 degree ramp, stopped by the 55 degree one.
	expect.above(hz, 1.3, "hiker's feet up the 30 degree ramp (m)")
	expect.truthy(scene.hiker.on_ground, "hiker standing on the ramp")
	expect.below(scene.walkers[4].highest, 0.01, "slipper's highest feet at the 55 degree ramp (m)")
	expect.below(sx, 2, "slipper at the 55 degree ramp's foot (x, m)")
	-- Rides the platform within 1 cm, all the way to its far end.
	expect.above(scene.platform_mover.laps, 0, "platform laps")
	expect.below(scene.ride_error, 0.01, "rider's largest offset from the platform (m)")
	-- Pushes the crate.
	expect.above(crate_x, 4, "crate pushed along (x, m)")
end

return scene
