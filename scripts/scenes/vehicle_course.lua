-- A car (world:vehicle) on a course along +x: eight bumps 0.15 m high, a ramp up to a 1 m
-- plateau and down again, and a slalom round four pylons, to a finish line at x = 125 m. A scripted
-- driver steers it round the course (headless, and in the viewer until you take the wheel);
-- finish() checks that it got there in time, never tipped past 60 degrees, passed the pylons on
-- alternate sides and that the suspension held the chassis within its travel all the way.
-- Keys (viewer): W S or up down for throttle and reverse, A D or left right to steer, space for
-- the handbrake; the camera follows the car.
local tb = require "tumble"
local expect = require "expect"

local scene = {
	world = { gravity = { 0, 0, -10 }, sleep = false },
	steps = 1800,
	camera = { eye = { -14, -14, 8 }, target = { 0, 0, 0.5 } },
	title = "Vehicle course",
	description = "A car on cast wheels (suspension, tyres, engine, brakes, steering, anti-roll bars) drives over bumps, a ramp and a slalom. It drives itself until you take the wheel.",
	keys = {
		{ "w, up", "throttle" },
		{ "s, down", "brake, then reverse" },
		{ "a, left", "steer left" },
		{ "d, right", "steer right" },
		{ "space", "handbrake" },
	},
}

local FINISH_X = 125     -- m
local TIME_LIMIT = 28    -- s
local PYLONS = { 70, 82, 94, 106 } -- x of the slalom's pylons, all at y = 0
local SLALOM = { 64, 112 }         -- where the driver weaves (x, m)
local WEAVE = 3.2                  -- how far to either side of the pylons it passes (m)
local MIN_LENGTH, MAX_LENGTH = 0.08, 0.45

-- Height of the course at x: the bumps (x 15 to 35) and the ramp (45 to 59); flat elsewhere.
local function height(x)
	if x >= 15 and x <= 35 then
		return 0.15 * 0.5 * (1 - math.cos(2 * math.pi * (x - 15) / 2.5))
	elseif x >= 45 and x < 51 then
		return (x - 45) / 6
	elseif x >= 51 and x < 53 then
		return 1
	elseif x >= 53 and x <= 59 then
		return (59 - x) / 6
	end
	return 0
end

-- The road: a strip 12 m wide from x = -10 to 140, as a mesh (0.25 m rows across the bumps).
local function road(world)
	local vertices, triangles = {}, {}
	local xs = {}
	for i = 0, 600 do
		xs[#xs + 1] = -10 + 0.25 * i
	end
	for i, x in ipairs(xs) do
		local z = height(x)
		vertices[#vertices + 1] = { x, -6, z }
		vertices[#vertices + 1] = { x, 6, z }
		if i > 1 then
			local a, b, c, d = 2 * i - 3, 2 * i - 2, 2 * i - 1, 2 * i
			triangles[#triangles + 1] = { a, c, d }
			triangles[#triangles + 1] = { a, d, b }
		end
	end
	world:add_mesh{ name = "road", vertices = vertices, triangles = triangles, friction = 1 }
end

-- The driver's line: straight along y = 0, weaving between the pylons in the slalom.
local function line(x)
	if x > SLALOM[1] and x < SLALOM[2] then
		return WEAVE * math.sin(math.pi * (x - SLALOM[1]) / 12)
	end
	return 0
end

local function wheel(x, y, front)
	return {
		pos = { x, y, -0.2 }, radius = 0.36, width = 0.25,
		min_length = MIN_LENGTH, max_length = MAX_LENGTH, rest_length = MAX_LENGTH,
		stiffness = 35000, damping = 4500, friction = 1.2, lateral_friction = 1.3,
		steer = front and 0.55 or 0, driven = not front, brake_torque = 2000,
		handbrake_torque = front and 0 or 4000,
	}
end

function scene.setup(world)
	-- Ground under and around the road, its top 1 cm under the road's.
	world:add_box{ name = "ground", size = { 400, 400, 1 }, pos = { 50, 0, -0.51 }, static = true }
	road(world)
	for i, x in ipairs(PYLONS) do
		world:add_box{ name = "pylon" .. i, size = { 0.4, 0.4, 1.2 }, pos = { x, 0, 0.6 }, static = true }
	end
	world:add_box{ name = "finish_post_left", size = { 0.3, 0.3, 3 }, pos = { FINISH_X, 6.5, 1.5 }, static = true }
	world:add_box{ name = "finish_post_right", size = { 0.3, 0.3, 3 }, pos = { FINISH_X, -6.5, 1.5 }, static = true }

	-- The car: a 4.2 x 1.8 x 0.5 m body of 1300 kg whose lower half is heavier (the centre of mass
	-- 0.1 m below the middle, as the engine and floor put it), on four wheels.
	local body = world:add_compound{
		name = "car", pos = { 0, 0, 1.0 },
		shapes = {
			{ type = "box", size = { 4.2, 1.8, 0.3 }, pos = { 0, 0, -0.1 }, density = 450 },
			{ type = "box", size = { 2.2, 1.6, 0.35 }, pos = { -0.3, 0, 0.22 }, density = 120 },
		},
	}
	scene.body = body
	scene.car = world:vehicle{
		chassis = body, engine_torque = 2400, max_speed = 30,
		wheels = { wheel(1.45, 0.8, true), wheel(1.45, -0.8, true), wheel(-1.45, 0.8), wheel(-1.45, -0.8) },
		anti_roll = { { 1, 2, 15000 }, { 3, 4, 10000 } },
	}
	scene.time = 0
	scene.finish_time = nil
	scene.max_tilt = 0
	scene.min_length, scene.max_length = math.huge, 0
	scene.pylon_y = {}
	scene.max_y = 0
	scene.manual = false
	tb.camera.follow(body, { offset = { -10, -4, 4 }, smoothing = 0.3 })
end

-- The scripted driver: aims at the line 5 m ahead, holds a speed for each part of the course and
-- stops past the finish line.
local function autopilot(car, body)
	local x, y = body:position()
	local speed = car:speed()
	local ahead = x + 5
	local tx, ty = ahead - x, line(ahead) - y
	-- Heading error in the chassis frame: the target's direction against the car's forward axis.
	local q = { body:rotation() }
	local fx, fy = tb.rotate(q, { 1, 0, 0 })
	local heading = math.atan(fy, fx)
	local want = math.atan(ty, tx)
	local err = (want - heading + math.pi) % (2 * math.pi) - math.pi
	local steer = math.max(-1, math.min(1, 3 * err / 0.55))
	local target = 13
	if x > 12 and x < 36 then
		target = 9   -- the bumps
	elseif x > 42 and x < 62 then
		target = 9   -- the ramp
	elseif x > SLALOM[1] - 8 and x < SLALOM[2] then
		target = 8.5 -- the slalom
	elseif x > FINISH_X then
		target = 0   -- past the finish line
	end
	local throttle, brake = 0, 0
	if speed < target then
		throttle = math.min(1, 0.6 * (target - speed))
	else
		brake = target == 0 and 1 or math.min(1, 0.3 * (speed - target))
	end
	return throttle, steer, brake
end

function scene.update(world, dt, t)
	local car, body = scene.car, scene.body
	local down = tb.input.down
	local forward = down("w") or down("up")
	local back = down("s") or down("down")
	local left = down("a") or down("left")
	local right = down("d") or down("right")
	if forward or back or left or right or down("space") then
		scene.manual = true
	end
	if scene.manual then
		local speed = car:speed()
		local throttle, brake = 0, 0
		if forward then throttle = 1 end
		if back then
			-- Brake while rolling forwards, then reverse.
			if speed > 0.5 then brake = 1 else throttle = -0.6 end
		end
		car.throttle = throttle
		car.brake = brake
		car.steer = (left and 1 or 0) - (right and 1 or 0)
		car.handbrake = down("space") and 1 or 0
	else
		local throttle, steer, brake = autopilot(car, body)
		car.throttle, car.steer, car.brake = throttle, steer, brake
	end

	-- What finish() checks, measured after every step.
	scene.time = t
	local x, y = body:position()
	if scene.finish_time == nil and x >= FINISH_X then
		scene.finish_time = t
	end
	local _, _, upz = tb.rotate({ body:rotation() }, { 0, 0, 1 })
	scene.max_tilt = math.max(scene.max_tilt, math.deg(math.acos(math.max(-1, math.min(1, upz)))))
	for i = 1, car.wheel_count do
		local w = car:wheel(i)
		if w.in_contact then
			scene.min_length = math.min(scene.min_length, w.length)
			scene.max_length = math.max(scene.max_length, w.length)
		end
	end
	for i, px in ipairs(PYLONS) do
		if scene.pylon_y[i] == nil and x >= px then
			scene.pylon_y[i] = y
		end
	end
	if x < FINISH_X then
		scene.max_y = math.max(scene.max_y, math.abs(y))
	end
end

-- The wheels as circles in their planes with a spoke that turns, and the suspension as a line.
function scene.draw()
	local car = scene.car
	for i = 1, car.wheel_count do
		local x, y, z, qw, qx, qy, qz = car:wheel_pose(i)
		local q = { qw, qx, qy, qz }
		local r = 0.36
		local prev
		for k = 0, 16 do
			local a = 2 * math.pi * k / 16
			local ox, oy, oz = tb.rotate(q, { r * math.cos(a), 0, r * math.sin(a) })
			local p = { x + ox, y + oy, z + oz }
			if prev then tb.draw.line(prev, p, { 0.1, 0.1, 0.1 }) end
			prev = p
		end
		local sx, sy, sz = tb.rotate(q, { r, 0, 0 })
		tb.draw.line({ x, y, z }, { x + sx, y + sy, z + sz }, { 0.9, 0.9, 0.2 })
		local w = car:wheel(i)
		if w.in_contact then
			tb.draw.point(w.contact, { 1, 0.4, 0.1 })
		end
	end
	local x, y, z = scene.body:position()
	tb.draw.text({ x, y, z + 1.5 }, ("%.1f m/s%s"):format(car:speed(), scene.manual and "" or "  (autopilot)"))
end

function scene.finish(world)
	local fx = scene.body:position()
	print(("vehicle_course: x = %.1f m, finished at %s s, steepest tilt %.1f deg, suspension %.3f to %.3f m, "
		.. "widest |y| %.2f m, y at the pylons %s"):format(fx, scene.finish_time and ("%.2f"):format(scene.finish_time) or "never",
		scene.max_tilt, scene.min_length, scene.max_length, scene.max_y,
		table.concat((function()
			local t = {}
			for i = 1, #PYLONS do t[i] = ("%.2f"):format(scene.pylon_y[i] or 0 / 0) end
			return t
		end)(), ", ")))
	expect.truthy(scene.finish_time ~= nil, "the car reached the finish line (x = 125 m)")
	expect.below(scene.finish_time, TIME_LIMIT, "time to the finish line (s)")
	expect.below(scene.max_tilt, 60, "steepest tilt of the chassis from upright (deg)")
	-- The suspension held the chassis: no wheel went more than 2 cm past its bump stop, none
	-- beyond its travel.
	expect.above(scene.min_length, MIN_LENGTH - 0.02, "shortest suspension on the ground (m)")
	expect.below(scene.max_length, MAX_LENGTH + 1e-4, "longest suspension on the ground (m)")
	-- Round the pylons on alternate sides, a metre clear of each (the car is 0.9 m wide a side).
	for i = 1, #PYLONS do
		local side = (i % 2 == 1) and 1 or -1
		expect.above(side * scene.pylon_y[i], 1.3, ("pylon %d passed on its %s side, clear of it (m)"):format(i, side > 0 and "left" or "right"))
	end
	expect.below(scene.max_y, 5, "stayed on the 12 m road (|y|, m)")
end

return scene
