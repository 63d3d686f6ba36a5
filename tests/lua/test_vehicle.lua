-- Lua API: vehicles (world:vehicle{...}, the Vehicle type): a car stands on its suspension, drives,
-- brakes and turns, its wheels report their state and pose, settings change while running, and
-- bad input is refused with the field, the range and what was given.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }
local DT = 1 / 60
local MASS, G, K = 1200, 10, 30000

local function step(w, n)
	for _ = 1, n do
		w:step(DT)
	end
end

local function makeCar(w, chassis)
	local function wheel(x, y, front)
		return { pos = { x, y, -0.1 }, max_length = 0.4, stiffness = K, damping = 4000,
		         steer = front and 0.5 or 0, driven = not front, handbrake_torque = front and 0 or 4000 }
	end
	return w:vehicle{ chassis = chassis, engine_torque = 2000,
		wheels = { wheel(1.4, 0.8, true), wheel(1.4, -0.8, true), wheel(-1.4, 0.8), wheel(-1.4, -0.8) },
		anti_roll = { { 1, 2, 10000 }, { 3, 4, 10000 } } }
end

local function driving()
	local w = tb.world{ sleep = false }
	local ground = w:add_box{ size = { 400, 400, 1 }, pos = { 0, 0, -0.5 }, static = true, friction = 1 }
	local body = w:add_box{ size = { 4, 1.8, 0.5 }, pos = { 0, 0, 0.9 }, mass = MASS }
	local car = makeCar(w, body)
	check.eq(tostring(car), "Vehicle (4 wheels)", "tostring")
	check.eq(car.wheel_count, 4, "wheel_count")
	check.eq(car.chassis, body, "chassis")
	check.eq(car.throttle, 0, "no throttle at first")
	check.eq(car:is_valid(), true, "valid")

	-- At rest the suspension carries the weight: each wheel's force is k times its compression.
	step(w, 180)
	local total = 0
	for i = 1, 4 do
		local s = car:wheel(i)
		check.eq(s.in_contact, true, "wheel " .. i .. " on the ground")
		check.eq(s.ground, ground, "stands on the ground body")
		check.vec({ 0, 0, 1 }, 1e-4, "ground normal", table.unpack(s.normal))
		check.near(s.contact[3], 0, 1e-4, "contact point on the ground (m)")
		check.near(s.force, K * s.compression, 0.01 * K * s.compression, "force = k * compression (N)")
		check.near(s.length, 0.4 - s.compression, 1e-5, "length = rest length - compression (m)")
		total = total + s.force
	end
	check.near(total, MASS * G, 0.02 * MASS * G, "the four wheels carry m g (N)")
	local x, y, z = car:wheel_pose(1)
	check.vec({ 1.4, 0.8, 0.35 }, 0.01, "wheel 1's centre, one radius above the ground (m)", x, y, z)

	-- Throttle: it accelerates forwards and its wheels roll.
	car.throttle = 1
	check.eq(car.throttle, 1, "throttle set")
	step(w, 120)
	local speed = car:speed()
	check.truthy(speed > 4.8 and speed < 9.6, "2 s at full throttle: 4.8 to 9.6 m/s (" .. speed .. ")")
	check.near(car:wheel(3).spin * 0.35, speed, 0.05 * speed, "the driven wheel rolls (m/s)")
	check.truthy(car:wheel(3).longitudinal_force > 0, "the tyre pushes forwards")
	local angle = car:wheel(3).angle
	check.truthy(angle >= 0 and angle < 2 * math.pi, "spin angle in [0, 2 pi)")

	-- Steering turns it left (positive steer, x forward, z up).
	-- Braked to about 4 m/s first (a hard turn at 8 m/s lifts the inner wheels).
	car.throttle = 0
	car.brake = 0.3
	step(w, 40)
	car.brake = 0
	car.throttle = 0.1
	car.steer = 0.5
	step(w, 60)
	check.near(car:wheel(1).steer, 0.25, 1e-6, "front wheel steered by half its angle (rad)")
	check.eq(car:wheel(3).steer, 0, "rear wheel not steered")
	local _, _, wz = body:angular_velocity()
	check.truthy(wz > 0.2, "turning left (" .. wz .. " rad/s)")
	-- The tyres hold it on the circle: their sideways forces add up to the centripetal force m v w
	-- (the front ones, steered by 0.25 rad, count by cos 0.25).
	local sideways = 0
	for i = 1, 4 do
		local wheel = car:wheel(i)
		check.eq(wheel.in_contact, true, "wheel " .. i .. " on the ground in the turn")
		sideways = sideways + wheel.lateral_force * math.cos(wheel.steer)
	end
	_, _, wz = body:angular_velocity()
	check.near(sideways, MASS * car:speed() * wz, 0.1 * MASS * car:speed() * wz, "lateral forces = m v w (N)")
	check.truthy(car:wheel(3).lateral_force > 0 and car:wheel(4).lateral_force > 0, "the rear tyres push to the left")

	-- Brakes stop it.
	car.steer = 0
	car.throttle = 0
	car.brake = 1
	step(w, 240)
	check.near(car:speed(), 0, 0.05, "stopped (m/s)")
	check.near(car:wheel(1).spin, 0, 0.05, "wheels stopped (rad/s)")

	-- Settings change while running: a stiffer spring compresses less.
	car:set_wheel(1, { stiffness = 2 * K })
	check.eq(car:wheel_settings(1).stiffness, 2 * K, "stiffness set")
	check.near(car:wheel_settings(1).max_length, 0.4, 1e-6, "other settings kept")
	check.eq(car:wheel_settings(3).driven, true, "wheel_settings: driven")
	car.brake = 0
	step(w, 120)
	check.truthy(car:wheel(1).compression < car:wheel(2).compression, "the stiffer wheel compresses less")

	car:destroy()
	check.eq(car:is_valid(), false, "destroyed")
	check.eq(tostring(car), "Vehicle (destroyed)", "tostring of a destroyed vehicle")
	check.fails(function() return car:speed() end, "attempt to use a destroyed Vehicle")
	w:destroy()
end

local function bad_input()
	local w = tb.world{}
	local static = w:add_box{ size = { 10, 10, 1 }, static = true }
	local body = w:add_box{ size = { 4, 1.8, 0.5 }, pos = { 0, 0, 2 }, mass = 1000 }
	local one = { { pos = { 0, 0, 0 } } }
	check.fails(function() w:vehicle{ wheels = one } end, "vehicle: chassis must be a dynamic Body (required), got nil")
	check.fails(function() w:vehicle{ chassis = static, wheels = one } end, "vehicle: chassis must be a dynamic Body of this world, got a Body")
	check.fails(function() w:vehicle{ chassis = 3, wheels = one } end, "vehicle: chassis must be a dynamic Body of this world, got 3")
	check.fails(function() w:vehicle{ chassis = body } end, "vehicle: wheels must be a list of 1 to 8 wheel tables (required), got nil")
	check.fails(function() w:vehicle{ chassis = body, wheels = {} } end, "vehicle: wheels must be a list of 1 to 8 wheel tables, got {}")
	check.fails(function() w:vehicle{ chassis = body, wheels = { 3 } } end, "vehicle: expected a table of fields for wheels[1], got 3")
	check.fails(function() w:vehicle{ chassis = body, wheels = { { radius = 0 } } } end, "vehicle: wheels[1].radius must be a number in [0.0001, 10000] (m), got 0")
	check.fails(function() w:vehicle{ chassis = body, wheels = { {}, { stiffness = -1 } } } end, "vehicle: wheels[2].stiffness must be a number in [0, 1e+12] (N/m), got -1")
	check.fails(function() w:vehicle{ chassis = body, wheels = { { damping = 0 / 0 } } } end, "vehicle: wheels[1].damping must be a finite number, got nan")
	check.fails(function() w:vehicle{ chassis = body, wheels = { { min_length = 0.5 } } } end, "vehicle: wheels[1].min_length must be at most max_length (0.35 m), got 0.5")
	check.fails(function() w:vehicle{ chassis = body, wheels = { { max_length = 0.3, rest_length = 0.4 } } } end, "vehicle: wheels[1].rest_length must be in [min_length, max_length] ([0.05, 0.3] m), got 0.4")
	check.fails(function() w:vehicle{ chassis = body, wheels = { { steer = 2 } } } end, "vehicle: wheels[1].steer must be a number in [-1.5708, 1.5708] (rad), got 2")
	check.fails(function() w:vehicle{ chassis = body, wheels = { { direction = { 0, 0, 0 } } } } end, "vehicle: wheels[1].direction must be 3 finite numbers, not all zero, got {0, 0, 0}")
	check.fails(function() w:vehicle{ chassis = body, wheels = { { spring = 3 } } } end, "vehicle: unknown field 'wheels[1].spring'")
	check.fails(function() w:vehicle{ chassis = body, wheels = one, up = { 1, 0, 0 } } end, "vehicle: up must be perpendicular to forward, got {1, 0, 0}")
	check.fails(function() w:vehicle{ chassis = body, wheels = one, engine_torque = -5 } end, "vehicle: engine_torque must be a number in [0, 1e+12] (N m), got -5")
	check.fails(function() w:vehicle{ chassis = body, wheels = one, anti_roll = { { 1, 1, 10 } } } end, "vehicle: anti_roll must be a list of {left wheel, right wheel, stiffness N/m}: two wheel numbers in 1..1 that differ, a stiffness >= 0 (bar 1), got {{...}}")
	check.fails(function() w:vehicle{ chassis = body, wheels = one, horsepower = 3 } end, "vehicle: unknown field 'horsepower'")

	local car = w:vehicle{ chassis = body, wheels = { {}, {} } }
	check.fails(function() w:vehicle{ chassis = body, wheels = one } end, "vehicle: chassis must be a Body that carries no vehicle yet (one vehicle a body), got a Body")
	check.fails(function() car.throttle = 2 end, "Vehicle.throttle: value must be a number in [-1, 1], got 2")
	check.fails(function() car.brake = -0.5 end, "Vehicle.brake: value must be a number in [0, 1], got -0.5")
	check.fails(function() car.steer = "left" end, "Vehicle.steer: value must be a finite number, got 'left'")
	check.fails(function() car.wheel_count = 3 end, "Vehicle.wheel_count is read-only")
	check.fails(function() car:wheel(3) end, "wheel: wheel must be an integer in 1..2, got 3")
	check.fails(function() car:wheel_pose(1.5) end, "wheel_pose: wheel must be an integer in 1..2, got 1.5")
	check.fails(function() car:set_wheel(1, { friction = -1 }) end, "set_wheel: friction must be a number in [0, 1000] (tyre friction coefficient), got -1")
	check.fails(function() car.speed(3) end, "speed: expected a Vehicle (call it as car:speed(...)), got 3")
	check.fails(function() return car.horn end, "Vehicle has no field 'horn'")
	-- Destroying the chassis leaves the vehicle inert: it still answers, with no chassis.
	body:destroy()
	step(w, 2)
	check.eq(car:is_valid(), true, "still valid without its chassis")
	check.eq(car.chassis, nil, "no chassis")
	w:destroy()
	check.eq(car:is_valid(), false, "not valid once its world is destroyed")
end

-- world:wheel{...}: a 10 kg wheel on a 2000 N/m suspension sags by m g / k = 5 cm, its motor
-- spins it about the axle, limits stop the travel; bad input is refused.
local function wheel_joint()
	local w = tb.world{ sleep = false }
	local post = w:add_box{ size = { 0.2, 0.2, 0.2 }, pos = { 0, 0, 2 }, static = true }
	local hub = w:add_sphere{ radius = 0.3, pos = { 0, 0.5, 2 }, mass = 10 }
	local j = w:wheel{ a = post, b = hub, axis = { 0, 1, 0 }, suspension = { 0, 0, 1 },
	                   spring = { stiffness = 2000, damper = 200 }, name = "hub" }
	check.eq(j.type, "wheel", "type")
	check.eq(j.spring.stiffness, 2000, "spring stiffness")
	check.eq(j.spring.damper, 200, "spring damper")
	check.eq(j.limits, nil, "no limits")
	check.eq(j.motor_enabled, false, "no motor")
	step(w, 180)
	check.near(j.translation, -0.05, 0.001, "sag m g / k (m)")
	check.near(j.spring_force, 100, 2, "spring carries m g (N)")
	check.near(select(3, hub:position()), 1.95, 0.001, "the hub 5 cm down (m)")
	check.near(j.speed, 0, 0.01, "at rest on its spring (m/s)")

	j.motor_speed = 8
	j.max_torque = 30
	check.eq(j.motor_enabled, true, "setting a speed turns the motor on")
	step(w, 60)
	check.near(j.spin_speed, 8, 0.1, "spun up to the motor's speed (rad/s)")
	local _, wy = hub:angular_velocity()
	check.near(wy, 8, 0.1, "about the axle, world y (rad/s)")
	check.truthy(math.abs(j.motor_torque) < 30 + 1e-3, "motor torque within its cap")
	local x = hub:position()
	check.near(x, 0, 0.001, "on the suspension line (m)")

	j.limits = { -0.02, 0.02 }
	step(w, 120)
	check.near(j.translation, -0.02, 0.002, "held at the lower limit (m)")
	j.limits = nil
	j.spring = { hz = 3, damping = 1 }
	check.eq(j.spring.hz, 3, "spring in hz")
	j.spring = nil
	check.eq(j.spring, nil, "no spring")
	step(w, 30)
	check.truthy(j.translation < -0.05, "without its spring the wheel drops")

	check.fails(function() w:wheel{ a = post, b = hub, axis = { 0, 0, 1 } } end, "wheel: axis must be a direction not parallel to suspension ({0, 0, 1}), got {0, 0, 1}")
	check.fails(function() w:wheel{ a = post, b = hub, suspension = { 1, 0, 0 } } end, "wheel: suspension must be a direction not parallel to axis, got {1, 0, 0}")
	check.fails(function() w:wheel{ a = post, b = hub, ref = { 0, 1, 0 } } end, "wheel: ref is not used by a wheel: give suspension (the direction the wheel travels along)")
	check.fails(function() w:wheel{ a = post, b = hub, spring = { stiffness = -5 } } end, "wheel: spring.stiffness must be a positive number, got -5")
	check.fails(function() w:wheel{ a = post, b = hub, spring = { stiffness = 5, hz = 2 } } end, "wheel: spring.give hz and damping or stiffness and damper, not both")
	check.fails(function() w:wheel{ a = post, b = hub, spring = true } end, "wheel: spring must be a table { stiffness =, damper = } or { hz =, damping = }, or false, got true")
	check.fails(function() w:wheel{ a = post, b = hub, limits = { 1, -1 } } end, "wheel: limits must be {lower, upper} with lower <= upper, got {1, -1}")
	check.fails(function() w:wheel{ a = post, b = hub, motor = { speed = 1e9 } } end, "wheel: motor.speed must be a number in [-1e4, 1e4], got 1000000000")
	check.fails(function() j.motor_speed = 0 / 0 end, "Joint.motor_speed: value must be a number in [-1e4, 1e4], got nan")
	check.fails(function() j.spring = { damper = -1 } end, "Joint.spring: damper must be a number >= 0, got -1")
	check.fails(function() j.spin_speed = 3 end, "Joint.spin_speed is read-only")
	w:destroy()
end

function scene.setup(world)
	driving()
	bad_input()
	wheel_joint()
end

return scene
