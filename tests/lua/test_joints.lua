-- Lua API: every joint constructor and property, movers, custom constraints, joint_break events,
-- with their error messages, destroyed handles and NaN.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

local pi = math.pi
local nan = 0 / 0

local function space(gravity)
	return tb.world{ gravity = gravity or { 0, 0, 0 }, sleep = false }
end

local function run(w, steps)
	for _ = 1, steps do
		w:step(1 / 60)
	end
end

-- Constructors and read-back ----------------------------------------------------------------------

local function constructors()
	local w = space()
	local a = w:add_box{ name = "a", pos = { 0, 0, 5 } }
	local b = w:add_box{ name = "b", pos = { 2, 0, 5 } }

	local d = w:distance{ a = a, b = b, name = "rod", collide = true, break_force = 1000, break_torque = math.huge,
	                      enabled = true }
	check.eq(d.type, "distance", "distance type")
	check.eq(d.name, "rod", "name")
	check.eq(d.a, a, "joint.a")
	check.eq(d.b, b, "joint.b")
	check.eq(d.world, w, "joint.world")
	check.near(d.length, 2, 1e-5, "default length: the distance between the anchors (m)")
	check.near(d.current_length, 2, 1e-5, "current_length (m)")
	check.eq(d.collide, true, "collide")
	check.near(d.break_force, 1000, 1e-3, "break_force (N)")
	check.eq(d.break_torque, math.huge, "break_torque math.huge")
	check.eq(d.enabled, true, "enabled")
	check.eq(d.broken, false, "broken")
	check.eq(d:is_broken(), false, "is_broken()")
	check.eq(d.limits, nil, "no rope limits")
	check.eq(d.spring, nil, "no spring")
	check.eq(tostring(d), "Joint 'rod' (distance)", "tostring")
	check.truthy(math.type(d.id) == "integer", "id")
	local rope = w:distance{ a = a, b = b, anchor_a = { 0, 0, 5.5 }, anchor_b = { 2, 0, 5.5 }, min = 1, max = 3,
	                         spring = { hz = 4, damping = 0.5 }, length = 2.5 }
	check.near(rope.length, 2.5, 1e-6, "length given")
	check.near(rope.limits[1], 1, 1e-6, "rope min (m)")
	check.near(rope.limits[2], 3, 1e-6, "rope max (m)")
	check.near(rope.spring.hz, 4, 1e-6, "spring hz")
	check.near(rope.spring.damping, 0.5, 1e-6, "spring damping")
	local ax, ay, az, bx, by, bz = rope:anchors()
	check.vec({ 0, 0, 5.5, 2, 0, 5.5 }, 1e-5, "anchors", ax, ay, az, bx, by, bz)
	local to_world = w:distance{ b = b, anchor_a = { 2, 0, 8 } }
	check.eq(to_world.a, nil, "a = nil is the static world")
	check.near(to_world.length, 3, 1e-5, "length to a world anchor (m)")

	local ball = w:ball{ a = a, b = b, anchor = { 1, 0, 5 } }
	check.eq(ball.type, "ball", "ball type")
	check.eq(tostring(ball):match("^Joint #%d+ %(ball%)$") ~= nil, true, "tostring of an unnamed joint")

	local hinge = w:hinge{ a = a, b = b, anchor = { 1, 0, 5 }, axis = { 0, 0, 2 }, ref = { 1, 0, 0 },
	                       limits = { -1, 1 }, motor = { speed = 2, max_torque = 50 } }
	check.eq(hinge.type, "hinge", "hinge type")
	check.near(hinge.limits[1], -1, 1e-6, "hinge lower limit")
	check.near(hinge.limits[2], 1, 1e-6, "hinge upper limit")
	check.near(hinge.motor_speed, 2, 1e-6, "motor_speed")
	check.near(hinge.max_torque, 50, 1e-6, "max_torque")
	check.eq(hinge.motor_enabled, true, "motor_enabled")
	check.eq(hinge.servo_enabled, false, "servo_enabled")
	check.near(hinge.angle, 0, 1e-6, "angle at rest")
	check.near(hinge.speed, 0, 1e-6, "speed at rest")
	local x1, y1, z1, x2, y2, z2 = hinge:axes_world()
	check.vec({ 0, 0, 1, 0, 0, 1 }, 1e-5, "hinge axes in the world", x1, y1, z1, x2, y2, z2)
	local servo = w:hinge{ b = b, anchor = { 2, 0, 6 }, servo = { angle = 0.5, max_torque = 20, gain = 5, max_speed = 3 } }
	check.eq(servo.servo_enabled, true, "servo enabled")
	check.near(servo.servo_angle, 0.5, 1e-6, "servo_angle")
	check.near(servo.max_torque, 20, 1e-6, "servo max_torque")
	check.near(servo.servo_gain, 5, 1e-6, "servo_gain")
	check.near(servo.servo_max_speed, 3, 1e-6, "servo_max_speed")
	check.eq(w:hinge{ b = b, motor = { speed = 1 } }.max_torque, math.huge, "a motor without max_torque is unlimited")

	local cone = w:cone{ a = a, b = b, anchor = { 1, 0, 5 }, axis = { 1, 0, 0 }, swing = 0.8, pyramid = { 0.5, 0.3 },
	                     twist = { -0.2, 0.2 } }
	check.near(cone.swing, 0.8, 1e-6, "swing")
	check.near(cone.pyramid[1], 0.5, 1e-6, "pyramid y")
	check.near(cone.pyramid[2], 0.3, 1e-6, "pyramid z")
	check.near(cone.twist[1], -0.2, 1e-6, "twist lower")
	check.near(cone.swing_angle, 0, 1e-5, "swing_angle at rest")
	check.near(cone.twist_angle, 0, 1e-5, "twist_angle at rest")
	local cv = w:cone{ a = a, b = b }
	check.eq(cv.swing, nil, "no swing limit by default")
	check.near(cv.twist[1], 0, 1e-6, "default twist locked: the CV joint")
	check.eq(w:cone{ a = a, b = b, twist = false }.twist, nil, "twist = false: free twist")
	-- axis_b: body B's twist axis at rest; the swing between them starts at their angle.
	local tilted = w:cone{ a = a, b = b, axis = { 1, 0, 0 }, axis_b = { 1, 0, 1 } }
	check.near(tilted.swing_angle, pi / 4, 1e-4, "axis_b sets B's twist axis (rad)")

	local fixed = w:fixed{ a = a, b = b }
	check.eq(fixed.type, "fixed", "fixed type")
	check.vec({ 0, 0 }, 1e-6, "fixed at rest: no error", fixed:error())

	local slider = w:slider{ a = a, b = b, axis = { 1, 0, 0 }, limits = { -1, 2 }, motor = { speed = 1, max_force = 100 } }
	check.near(slider.limits[2], 2, 1e-6, "slider upper limit")
	check.near(slider.max_force, 100, 1e-6, "slider max_force")
	check.near(slider.translation, 0, 1e-6, "translation at rest")

	local six = w:six_dof{ a = a, b = b, axes = { x = "free", y = "fixed", z = { -0.5, 0.5 }, rx = "fixed", ry = "free",
	                                              rz = { -0.3, 0.3 } }, motors = { x = { speed = 1, max_force = 10 } } }
	local axes = six.axes
	check.eq(axes.x, "free", "axes.x")
	check.eq(axes.y, "fixed", "axes.y")
	check.near(axes.z[2], 0.5, 1e-6, "axes.z upper")
	check.near(axes.rz[1], -0.3, 1e-6, "axes.rz lower")
	check.near(six:axis_position("x"), 0, 1e-6, "axis_position")

	local motor = w:motor{ a = a, b = b, axis = { 0, 0, 1 }, speed = 2, max_torque = 100 }
	check.near(motor.motor_speed, 2, 1e-6, "motor speed")
	check.near(motor.max_torque, 100, 1e-6, "motor max_torque")
	check.eq(w:motor{ b = b }.max_torque, math.huge, "unlimited motor by default")

	local mouse = w:mouse{ body = b, target = { 3, 0, 5 }, hz = 4, damping = 0.9, max_force = 500 }
	check.vec({ 3, 0, 5 }, 1e-6, "mouse target", table.unpack(mouse.target))
	check.near(mouse.hz, 4, 1e-6, "mouse hz")
	check.near(mouse.damping, 0.9, 1e-6, "mouse damping")
	check.near(mouse.max_force, 500, 1e-6, "mouse max_force")
	check.eq(mouse.a, nil, "the mouse joint pulls against the world")

	local custom = w:constraint{ a = a, b = b, rows = function() return nil end, every_substep = true }
	check.eq(custom.type, "custom", "constraint type")
	check.eq(type(custom.rows), "function", "rows")

	check.eq(w:joint("rod"), d, "world:joint(name)")
	check.eq(w:joint("nothing"), nil, "unknown joint name")
	check.eq(#w:joints(), 18, "world:joints() lists each joint once")
	check.eq(w:stats().joints, 18, "stats().joints")
	local disabled = w:ball{ a = a, b = b, enabled = false }
	check.eq(disabled.enabled, false, "enabled = false")
	check.eq(#tb.joint_types, 11, "tb.joint_types")
	w:destroy()
end

local function constructor_errors()
	local w = space()
	local a = w:add_box{ pos = { 0, 0, 5 } }
	local b = w:add_box{ pos = { 2, 0, 5 } }
	local other = space()
	local foreign = other:add_box{}
	local dead = w:add_box{}
	dead:destroy()

	check.fails(function() w:hinge{ a = 3, b = b } end, "hinge: a must be a Body or nil (the static world), got 3")
	check.fails(function() w:ball{ b = "b" } end, "ball: b must be a Body or nil (the static world), got 'b'")
	check.fails(function() w:hinge{} end, "hinge: a and b cannot both be nil (the static world): give at least one Body")
	check.fails(function() w:fixed{ a = a, b = a } end, "fixed: a and b must be two different Bodies")
	check.fails(function() w:ball{ a = a, b = foreign } end, "ball: b is a Body of another World")
	check.fails(function() w:ball{ a = dead, b = b } end, "attempt to use a destroyed Body")
	check.fails(function() w:ball{ b = b, anchor = { 0, nan, 0 } } end, "ball: anchor must be 3 finite numbers, got {0, nan, 0}")
	check.fails(function() w:ball{ b = b, anchor = { 0, 0, math.huge } } end, "ball: anchor must be 3 finite numbers, got {0, 0, inf}")
	check.fails(function() w:hinge{ b = b, axis = { 0, 0, 0 } } end, "hinge: axis must be 3 finite numbers, not all zero, got {0, 0, 0}")
	check.fails(function() w:hinge{ b = b, axis = { 1, 0, 0 }, ref = { 2, 0, 0 } } end, "hinge: ref must be a direction not parallel to axis, got {2, 0, 0}")
	check.fails(function() w:hinge{ b = b, limits = { 1, -1 } } end, "hinge: limits must be {lower, upper} in [-pi, pi] with lower <= upper, got {1, -1}")
	check.fails(function() w:hinge{ b = b, limits = { -4, 0 } } end, "hinge: limits must be {lower, upper} in [-pi, pi] with lower <= upper, got {-4, 0}")
	check.fails(function() w:hinge{ b = b, motor = { speed = nan } } end, "hinge: motor.speed must be a number in [-1e4, 1e4], got nan")
	check.fails(function() w:hinge{ b = b, motor = { max_torque = -1 } } end, "hinge: motor.max_torque must be a number >= 0 (math.huge: no limit), got -1")
	check.fails(function() w:hinge{ b = b, motor = { sped = 1 } } end, "hinge: unknown field 'motor.sped'")
	check.fails(function() w:hinge{ b = b, motor = 2 } end, "hinge: motor must be a table, got 2")
	check.fails(function() w:hinge{ b = b, motor = {}, servo = {} } end, "hinge: give motor or servo, not both")
	check.fails(function() w:hinge{ b = b, servo = { angle = 4 } } end, "hinge: servo.angle must be an angle in [-pi, pi], got 4")
	check.fails(function() w:hinge{ b = b, servo = { gain = 0 } } end, "hinge: servo.gain must be a positive number, got 0")
	check.fails(function() w:hinge{ b = b, limit = { 0, 1 } } end, "hinge: unknown field 'limit'")
	check.fails(function() w:hinge{ b = b, break_force = -1 } end, "hinge: break_force must be a number >= 0 (math.huge: no limit), got -1")
	check.fails(function() w:hinge{ b = b, break_torque = nan } end, "hinge: break_torque must be a number >= 0 (math.huge: no limit), got nan")
	check.fails(function() w:hinge{ b = b, name = ("j"):rep(32) } end, "hinge: name must be a string of at most 31 bytes, got '" .. ("j"):rep(32) .. "'")
	check.fails(function() w:hinge{ b = b, collide = 1 } end, "hinge: collide must be true or false, got 1")
	check.fails(function() w:hinge() end, "hinge: expected a table of fields, got nil")
	check.fails(function() w.hinge{ b = b } end, "hinge: expected a World (call it as world:hinge(...)), got {b = a Body}")
	check.fails(function() w:distance{ b = b } end, "distance: anchor_a is required when a is nil (the static world)")
	check.fails(function() w:distance{ a = a, b = b, min = 2, max = 1 } end, "distance: max must be a number >= min, got 1")
	check.fails(function() w:distance{ a = a, b = b, length = -1 } end, "distance: length must be a number >= 0, got -1")
	check.fails(function() w:distance{ a = a, b = b, spring = { hz = -1 } } end, "distance: spring.hz must be a number in [0, 1e6], got -1")
	check.fails(function() w:distance{ a = a, b = b, anchor = { 0, 0, 0 } } end, "distance: unknown field 'anchor'")
	check.fails(function() w:cone{ a = a, b = b, swing = 4 } end, "cone: swing must be an angle in (0, pi], got 4")
	check.fails(function() w:cone{ a = a, b = b, swing = 0 } end, "cone: swing must be a positive number, got 0")
	check.fails(function() w:cone{ a = a, b = b, pyramid = { 0.5 } } end, "cone: pyramid must be 2 positive numbers, got {0.5}")
	check.fails(function() w:cone{ a = a, b = b, pyramid = { 0.5, 4 } } end, "cone: pyramid must be 2 angles {y, z} in (0, pi], got {0.5, 4}")
	check.fails(function() w:cone{ a = a, b = b, twist = "x" } end, "cone: twist must be {lower, upper} in [-pi, pi] with lower <= upper, or false (free twist), got 'x'")
	check.fails(function() w:cone{ a = a, b = b, axis_b = { 0, 0, 0 } } end, "cone: axis_b must be 3 finite numbers, not all zero, got {0, 0, 0}")
	check.fails(function() w:slider{ a = a, b = b, limits = { 2, 1 } } end, "slider: limits must be {lower, upper} with lower <= upper, got {2, 1}")
	check.fails(function() w:slider{ a = a, b = b, motor = { max_force = -5 } } end, "slider: motor.max_force must be a number >= 0 (math.huge: no limit), got -5")
	check.fails(function() w:six_dof{ a = a, b = b, axes = { x = "frre" } } end, "six_dof: axes.x must be 'free', 'fixed' or {lower, upper}, got 'frre'")
	check.fails(function() w:six_dof{ a = a, b = b, axes = { rx = { -4, 0 } } } end, "six_dof: axes.rx must be 'free', 'fixed' or {lower, upper} in [-pi, pi], got {-4, 0}")
	check.fails(function() w:six_dof{ a = a, b = b, axes = { w = "free" } } end, "six_dof: unknown field 'axes.w'")
	check.fails(function() w:six_dof{ a = a, b = b, motors = { rz = { speed = nan } } } end, "six_dof: motors.rz.speed must be a finite number, got nan")
	check.fails(function() w:motor{ a = a, b = b, speed = nan } end, "motor: speed must be a finite number, got nan")
	check.fails(function() w:motor{ a = a, b = b, max_torque = -1 } end, "motor: max_torque must be a number >= 0 (math.huge: no limit), got -1")
	check.fails(function() w:mouse{} end, "mouse: body must be a Body, got nil")
	check.fails(function() w:mouse{ body = 3 } end, "mouse: body must be a Body, got 3")
	check.fails(function() w:mouse{ body = b, hz = 0 } end, "mouse: hz must be a positive number, got 0")
	check.fails(function() w:mouse{ body = b, target = { nan, 0, 0 } } end, "mouse: target must be 3 finite numbers, got {nan, 0, 0}")
	check.fails(function() w:mouse{ body = b, a = a } end, "mouse: unknown field 'a'")
	check.fails(function() w:constraint{ a = a, b = b } end, "constraint: rows must be a function(c, dt) returning a list of rows, got nil")
	check.fails(function() w:constraint{ a = a, b = b, rows = 3 } end, "constraint: rows must be a function, got 3")
	-- Nothing half-made was left behind by the failed calls.
	check.eq(#w:joints(), 0, "joints after failed constructors")
	other:destroy()
	w:destroy()
end

-- Live properties -----------------------------------------------------------------------------------

local function properties()
	local w = space()
	local a = w:add_box{ pos = { 0, 0, 5 } }
	local b = w:add_box{ pos = { 2, 0, 5 } }
	local h = w:hinge{ a = a, b = b, anchor = { 1, 0, 5 }, axis = { 0, 0, 1 } }
	h.limits = { -0.5, 0.5 }
	check.near(h.limits[1], -0.5, 1e-6, "limits set")
	h.limits = nil
	check.eq(h.limits, nil, "limits removed")
	h.motor_speed = 3
	check.eq(h.motor_enabled, true, "setting motor_speed turns the motor on")
	check.near(h.motor_speed, 3, 1e-6, "motor_speed set")
	h.max_torque = 40
	check.near(h.max_torque, 40, 1e-6, "max_torque set")
	h.servo_angle = 0.3
	check.eq(h.servo_enabled, true, "setting servo_angle turns the servo on")
	check.eq(h.motor_enabled, false, "... and the motor off")
	check.near(h.max_torque, 40, 1e-6, "max_torque caps the servo too")
	h.servo_gain = 7
	check.near(h.servo_gain, 7, 1e-6, "servo_gain set")
	h.servo_max_speed = 1.5
	check.near(h.servo_max_speed, 1.5, 1e-6, "servo_max_speed set")
	h.servo_enabled = false
	h.motor_enabled = true
	check.eq(h.servo_enabled, false, "servo off")
	h.break_force = 50
	check.near(h.break_force, 50, 1e-6, "break_force set")
	h.break_force = math.huge
	check.eq(h.break_force, math.huge, "break_force unlimited")
	h.break_torque = 10
	check.near(h.break_torque, 10, 1e-6, "break_torque set")
	h.collide = true
	check.eq(h.collide, true, "collide set")
	h.name = "door"
	check.eq(w:joint("door"), h, "renamed joint found")
	h.name = nil
	check.eq(h.name, nil, "name cleared")
	h.enabled = false
	check.eq(h.enabled, false, "disabled")
	h.enabled = true

	local s = w:slider{ a = a, b = b, axis = { 1, 0, 0 } }
	s.limits = { 0, 1 }
	check.near(s.limits[2], 1, 1e-6, "slider limits set")
	s.motor_speed = 0.5
	check.eq(s.motor_enabled, true, "slider motor on")
	s.max_force = 30
	check.near(s.max_force, 30, 1e-6, "slider max_force")
	check.near(s.motor_force, 0, 1e-6, "motor_force before any step")

	local d = w:distance{ a = a, b = b }
	d.length = 1.5
	check.near(d.length, 1.5, 1e-6, "length set")
	d.limits = { 1, 2 }
	check.near(d.limits[1], 1, 1e-6, "distance limits set")
	d.spring = { hz = 2, damping = 0.3 }
	check.near(d.spring.hz, 2, 1e-6, "spring set")
	d.spring = nil
	check.eq(d.spring, nil, "spring removed")

	local c = w:cone{ a = a, b = b }
	c.swing = 0.4
	check.near(c.swing, 0.4, 1e-6, "swing set")
	c.swing = nil
	check.eq(c.swing, nil, "swing removed")
	c.pyramid = { 0.2, 0.3 }
	check.near(c.pyramid[2], 0.3, 1e-6, "pyramid set")
	c.pyramid = nil
	c.twist = { -0.1, 0.1 }
	check.near(c.twist[2], 0.1, 1e-6, "twist set")
	c.twist = nil
	check.eq(c.twist, nil, "free twist")

	local six = w:six_dof{ a = a, b = b }
	six.axes = { rz = "free", z = { -1, 1 } }
	check.eq(six.axes.rz, "free", "axes.rz changed")
	check.near(six.axes.z[1], -1, 1e-6, "axes.z changed")
	check.eq(six.axes.x, "fixed", "other axes unchanged")
	six:set_axis_motor("rz", 2, 5)
	six:set_axis_motor("rz", false)

	local m = w:motor{ a = a, b = b }
	m.motor_speed = -1
	check.near(m.motor_speed, -1, 1e-6, "motor joint speed")
	m.max_torque = 3
	check.near(m.max_torque, 3, 1e-6, "motor joint torque")

	local mouse = w:mouse{ body = b }
	mouse.target = { 1, 2, 3 }
	check.vec({ 1, 2, 3 }, 1e-6, "mouse target set", table.unpack(mouse.target))
	mouse.hz = 8
	mouse.damping = 1
	mouse.max_force = 20
	check.near(mouse.hz, 8, 1e-6, "mouse hz set")

	local custom = w:constraint{ a = a, b = b, rows = function() end }
	local f = function() return {} end
	custom.rows = f
	check.eq(custom.rows, f, "rows replaced")
	check.eq(custom.row_count, 0, "row_count")
	check.near(custom:row_impulse(1), 0, 0, "row_impulse")

	-- Property errors name the property and what it takes.
	local ball = w:ball{ a = a, b = b }
	check.fails(function() ball.limits = { 0, 1 } end, "Joint.limits: not available on a ball joint")
	check.fails(function() return ball.motor_speed end, "Joint.motor_speed: not available on a ball joint")
	check.fails(function() return d.angle end, "Joint.angle: not available on a distance joint")
	check.fails(function() ball:axis_position("x") end, "axis_position: not available on a ball joint")
	-- Each type's members are its own: another type's property is refused by the name read, a
	-- method taken from one joint refuses a joint of another type, and read-only stays read-only.
	check.fails(function() return ball.motor_force end, "Joint.motor_force: not available on a ball joint")
	check.fails(function() s.angle = 1 end, "Joint.angle is read-only")
	check.fails(function() custom.row_impulse(h, 1) end, "row_impulse: not available on a hinge joint")
	check.eq(s.motor_force, s.motor_torque, "slider motor_force and motor_torque")
	check.fails(function() h.motor_speed = nan end, "Joint.motor_speed: value must be a number in [-1e4, 1e4], got nan")
	check.fails(function() h.motor_speed = "fast" end, "Joint.motor_speed: value must be a number in [-1e4, 1e4], got 'fast'")
	check.fails(function() h.max_torque = -1 end, "Joint.max_torque: value must be a number >= 0 (math.huge: no limit), got -1")
	check.fails(function() h.limits = { 1, -1 } end, "Joint.limits: value must be {lower, upper} in [-pi, pi] with lower <= upper, or nil to remove it, got {1, -1}")
	check.fails(function() s.limits = { 0 } end, "Joint.limits: value must be {lower, upper} with lower <= upper, or nil to remove it, got {0}")
	check.fails(function() d.limits = { -1, 1 } end, "Joint.limits: lengths must be >= 0, got -1.0")
	check.fails(function() h.servo_angle = 4 end, "Joint.servo_angle: value must be an angle in [-pi, pi], got 4")
	check.fails(function() h.servo_gain = 0 end, "Joint.servo_gain: value must be a positive number, got 0")
	check.fails(function() h.break_force = nan end, "Joint.break_force: value must be a number >= 0 (math.huge: no limit), got nan")
	check.fails(function() h.enabled = 1 end, "Joint.enabled: value must be true or false, got 1")
	check.fails(function() h.name = 3 end, "Joint.name: must be a string of at most 31 bytes or nil, got 3")
	check.fails(function() h.type = "ball" end, "Joint.type is read-only")
	check.fails(function() h.angle = 1 end, "Joint.angle is read-only")
	check.fails(function() h.frob = 1 end, "Joint has no settable field 'frob'")
	check.fails(function() return h.frob end, "Joint has no field 'frob'")
	check.fails(function() d.length = -1 end, "Joint.length: value must be a number >= 0, got -1")
	check.fails(function() d.spring = { hz = -1 } end, "Joint.spring: hz must be a number in [0, 1e6], got -1")
	check.fails(function() d.spring = 3 end, "Joint.spring: expected a table of fields, got 3")
	check.fails(function() c.swing = 0 end, "Joint.swing: value must be an angle in (0, pi], or nil to remove the limit, got 0")
	check.fails(function() c.pyramid = { 0, 1 } end, "Joint.pyramid: value must be 2 angles {y, z} in (0, pi], or nil to remove the limit, got {0, 1}")
	check.fails(function() c.twist = { 1, 0 } end, "Joint.twist: value must be {lower, upper} in [-pi, pi] with lower <= upper, or nil to remove it, got {1, 0}")
	check.fails(function() six.axes = { x = "bad" } end, "Joint.axes: x must be 'free', 'fixed' or {lower, upper}, got 'bad'")
	check.fails(function() six.axes = { q = "free" } end, "Joint.axes: unknown field 'q'")
	check.fails(function() six:axis_position("w") end, "axis_position: invalid 6-DOF axis 'w'")
	check.fails(function() six:set_axis_motor("x", 1, -1) end, "set_axis_motor: max_force must be a number >= 0 (math.huge: no limit), got -1")
	check.fails(function() six:set_axis_motor("x", nan, 1) end, "set_axis_motor: speed must be a finite number, got nan")
	check.fails(function() mouse.target = { nan, 0, 0 } end, "Joint.target: value must be a table of 3 finite numbers, got {nan, 0, 0}")
	check.fails(function() mouse.hz = 0 end, "Joint.hz: value must be a positive number, got 0")
	check.fails(function() custom.rows = 3 end, "Joint.rows: value must be a function(c, dt) returning a list of rows, got 3")
	check.fails(function() custom:row_impulse(7) end, "row_impulse: row must be an integer in [1, 6], got 7")
	check.fails(function() h.error() end, "error: expected a Joint (call it as joint:error(...)), got nil")
	check.fails(function() h.destroy(a) end, "destroy: expected a Joint (call it as joint:destroy(...)), got a Body")
	w:destroy()
end

-- Physics through the bindings -------------------------------------------------------------------------

local function physics()
	-- A hinge motor reaches its speed; a limit holds; error() reports the gaps.
	local w = space({ 0, 0, -10 })
	local wheel = w:add_box{ size = { 1, 1, 0.2 }, pos = { 0, 0, 3 }, mass = 2 }
	local axle = w:hinge{ b = wheel, anchor = { 0, 0, 3 }, axis = { 0, 0, 1 }, motor = { speed = 2, max_torque = 100 } }
	run(w, 60)
	check.near(axle.speed, 2, 0.04, "hinge motor speed (rad/s)")
	check.near(select(3, wheel:angular_velocity()), 2, 0.04, "wheel spin (rad/s)")
	local gap, angle = axle:error()
	check.truthy(gap < 0.001 and angle < 0.01, ("hinge error %g m, %g rad"):format(gap, angle))
	local fx, fy, fz = axle:force()
	-- The hinge carries the wheel's weight: 20 N up on it.
	check.near(fz, 20, 0.5, "hinge force on the wheel (N)")
	check.truthy(select("#", axle:torque()) == 3, "torque() gives 3 values")
	-- A live change of the motor takes effect.
	axle.motor_speed = -1
	run(w, 60)
	check.near(axle.speed, -1, 0.02, "retuned motor speed (rad/s)")

	-- A slider stops at its limit.
	local block = w:add_box{ pos = { 5, 0, 3 } }
	local rail = w:slider{ b = block, axis = { 1, 0, 0 }, limits = { 0, 0.5 }, motor = { speed = 1, max_force = 1000 } }
	run(w, 90)
	check.near(rail.translation, 0.5, 0.002, "slider at its upper limit (m)")

	-- joint_break: a joint overloaded past its break force breaks once and reports it.
	local events = {}
	w:on("joint_break", function(ev) events[#events + 1] = ev end)
	local weight = w:add_box{ pos = { 10, 0, 3 }, mass = 10 }
	local hook = w:ball{ name = "hook", b = weight, anchor = { 10, 0, 3.5 }, break_force = 50 }
	run(w, 10)
	check.eq(#events, 1, "one joint_break event")
	check.eq(events[1].joint, hook, "event.joint")
	check.eq(events[1].name, "hook", "event.name")
	check.eq(events[1].type, "ball", "event.type")
	check.truthy(events[1].force > 50, "event.force above the break force: " .. events[1].force)
	check.eq(hook:is_broken(), true, "is_broken()")
	check.eq(hook.broken, true, "broken")
	check.eq(hook.enabled, false, "a broken joint is not enabled")
	local _, _, z = weight:position()
	check.truthy(z < 2.9, "the weight fell once the hook broke: z = " .. z)
	-- Re-enabling repairs it (and it breaks again at once: the weight is too heavy).
	hook.break_force = math.huge
	hook.enabled = true
	check.eq(hook.broken, false, "repaired")
	run(w, 5)
	check.eq(#events, 1, "no more events without a break")
	w:destroy()
end

-- Custom constraints --------------------------------------------------------------------------------

local function custom_constraints()
	local w = space({ 0, 0, -10 })
	-- A one-row floor: z of the body's centre >= 1 (push only).
	local body = w:add_box{ pos = { 0, 0, 3 }, size = { 0.4, 0.4, 0.4 }, mass = 1 }
	local seen
	local floor = w:constraint{ b = body, rows = function(c, dt)
		seen = c
		local z = c.center_b[3]
		return { { J = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }, error = math.min(z - 1, 0),
		           bias = -math.max(z - 1, 0) / dt, min = 0, max = math.huge } }
	end }
	run(w, 120)
	check.near(select(3, body:position()), 1, 0.002, "resting on the Lua floor row (m)")
	check.near(floor:row_impulse(1), 10 / 60, 0.01 * 10 / 60, "floor row impulse: weight * dt (N s)")
	check.eq(floor.row_count, 1, "row_count")
	check.eq(seen.b, body, "c.b")
	check.eq(seen.a, nil, "c.a: the static world")
	check.eq(seen.joint, floor, "c.joint")
	check.near(seen.dt, 1 / 60, 1e-6, "c.dt")
	check.truthy(#seen.anchor_a == 3 and #seen.axis_b == 3 and #seen.rot_a == 4 and #seen.vel_b == 3, "c fields")

	-- An error inside rows is raised by world:step after the step, never through the solver.
	local calls, line = 0, nil
	local bad = w:constraint{ b = w:add_box{ pos = { 3, 0, 3 } }, rows = function()
		calls = calls + 1
		line = debug.getinfo(1, "l").currentline error("rows failed")
	end }
	local ok, err = pcall(w.step, w, 1 / 60)
	check.eq(ok, false, "world:step raised the rows error")
	check.eq(err, ("%s:%d: rows failed"):format(debug.getinfo(1, "S").short_src, line), "the rows error itself")
	check.eq(calls, 1, "the failing function ran once in that step")
	check.eq(w.locked, false, "the world is unlocked again")
	check.near(w.time, 2 + 1 / 60, 1e-6, "the step itself happened")
	-- The world keeps working once the rows are fixed.
	bad.rows = function() return nil end
	run(w, 2)

	-- What the function returns is checked; messages point at where it was defined.
	local here = debug.getinfo(1, "S").short_src
	local function fails_after_step(rows, expected)
		bad.rows = rows
		local defined = debug.getinfo(rows, "S").linedefined
		local ok2, err2 = pcall(w.step, w, 1 / 60)
		check.eq(ok2, false, "step raised")
		check.eq(err2, ("%s:%d: constraint rows: %s"):format(here, defined, expected), "rows error message")
	end
	fails_after_step(function() return 3 end, "must return a list of at most 6 rows (or nil), got 3")
	fails_after_step(function() return { {}, {}, {}, {}, {}, {}, {} } end, "must return a list of at most 6 rows (or nil), got {{...}, {...}, {...}, {...}, {...}, {...}, ...}")
	fails_after_step(function() return { { J = { 1, 2 } } } end, "rows[1].J must be 12 finite numbers, got {1, 2}")
	fails_after_step(function() return { { bias = 1 } } end, "rows[1].J must be 12 finite numbers, got nil")
	fails_after_step(function() return { { J = { 0, 0, 0, 0, 0, 0, 0, 0, nan, 0, 0, 0 } } } end, "rows[1].J must be 12 finite numbers, got {0, 0, 0, 0, 0, 0, ...}")
	fails_after_step(function() return { { J = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }, bias = nan } } end, "rows[1].bias must be a finite number, got nan")
	fails_after_step(function() return { { J = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }, min = nan } } end, "rows[1].min must be a number (N s; -math.huge or math.huge: unbounded), got nan")
	fails_after_step(function() return { { J = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }, min = 1, max = 0 } } end, "rows[1].min must be <= rows[1].max")
	fails_after_step(function() return { { J = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }, erorr = 1 } } end, "unknown field 'rows[1].erorr'")
	fails_after_step(function() return { 5 } end, "expected a table of fields for rows[1], got 5")
	-- The world is locked while rows run: a mutating call fails, and that error is raised after the step.
	local locked_line
	bad.rows = function(c)
		locked_line = debug.getinfo(1, "l").currentline c.b:set_velocity(0, 0, 1)
	end
	local ok3, err3 = pcall(w.step, w, 1 / 60)
	check.eq(ok3, false, "a mutating call inside rows fails")
	check.eq(err3, ("%s:%d: set_velocity: the world is locked during a step"):format(here, locked_line), "locked error")
	bad.rows = function() w:step(1 / 60) end
	local ok4, err4 = pcall(w.step, w, 1 / 60)
	check.eq(ok4, false, "stepping from inside rows fails")
	check.truthy(err4:find("step: the world is locked during a step", 1, true), "nested step: " .. tostring(err4))
	bad:destroy()
	run(w, 1)
	w:destroy()
end

-- Movers -----------------------------------------------------------------------------------------------

local function movers()
	local w = space({ 0, 0, -10 })
	local platform = w:add_box{ kinematic = true, size = { 2, 2, 0.2 }, pos = { 0, 0, 1 } }
	local m = w:mover{ body = platform, path = { { 0, 0, 1 }, { 3, 0, 1 } }, speed = 1.5, mode = "pingpong",
	                   wait = 0.5, smooth = false, acceleration = 10 }
	check.eq(m.mode, "path", "mode")
	check.eq(m.body, platform, "mover.body")
	check.near(m.length, 3, 1e-4, "path length (m)")
	check.eq(m.finished, false, "finished")
	check.eq(tostring(m):match("^Mover #%d+ %(path%)$") ~= nil, true, "tostring")
	run(w, 60)
	-- 0.5 s wait, 0.15 s speeding up at 10 m/s^2 (0.1125 m), 0.35 s at 1.5 m/s (0.525 m).
	check.near(m.distance, 0.6375, 0.02, "distance travelled in the first second (m)")
	m.speed = 3
	m.paused = true
	check.eq(m.paused, true, "paused")
	m.paused = false
	m:set_velocity({ 0, 1, 0 }, { 0, 0, 0.5 })
	check.eq(m.mode, "velocity", "velocity mode")
	local _, y0 = platform:position()
	run(w, 60)
	local _, y1 = platform:position()
	check.near(y1 - y0, 1, 0.01, "velocity mover moved 1 m in 1 s")
	m:move_to{ pos = { 0, 0, 2 }, time = 1 }
	check.eq(m.mode, "target", "target mode")
	run(w, 70)
	check.eq(m.finished, true, "move_to finished")
	check.vec({ 0, 0, 2 }, 1e-3, "move_to reached its target", platform:position())
	m:follow{ path = { { 0, 0, 2 }, { 1, 0, 2 }, { 1, 1, 2 } }, speed = 2, mode = "loop", wait = { 0, 0.1, 0 } }
	check.eq(m.mode, "path", "follow")
	m:stop()
	check.eq(m.mode, "idle", "stop")
	local v = w:add_box{ kinematic = true, pos = { 5, 0, 1 } }
	local vm = w:mover{ body = v, velocity = { 1, 0, 0 }, angular_velocity = { 0, 0, 1 } }
	check.eq(vm.mode, "velocity", "velocity mover")
	local t = w:add_box{ kinematic = true, pos = { 8, 0, 1 } }
	check.eq(w:mover{ body = t, target = { pos = { 8, 0, 3 }, rot = { 1, 0, 0, 0 }, time = 2 } }.mode, "target", "target mover")
	check.eq(w:mover{ body = w:add_box{ kinematic = true }, paused = true }.mode, "idle", "idle mover")

	check.fails(function() w:mover{} end, "mover: body must be a kinematic Body, got nil")
	check.fails(function() w:mover{ body = 1 } end, "mover: body must be a kinematic Body, got 1")
	check.fails(function() w:mover{ body = w:add_box{} } end, "mover: body must be a kinematic Body (add it with kinematic = true), got a dynamic Body")
	check.fails(function() w:mover{ body = platform } end, "mover: the body already has a mover")
	local k = w:add_box{ kinematic = true }
	check.fails(function() w:mover{ body = k, path = { { 0, 0, 0 } } } end, "mover: path must be a list of 2 to 4096 points {x, y, z}, got {{...}}")
	check.fails(function() w:mover{ body = k, path = { { 0, 0, 0 }, { 0, nan, 0 } } } end, "mover: path[2] must be 3 finite numbers within +-1e+06 (m), got {0, nan, 0}")
	check.fails(function() w:mover{ body = k, path = { { 0, 0, 0 }, { 1, 0, 0 } }, mode = "bounce" } end, "mover: invalid path mode 'bounce'")
	check.fails(function() w:mover{ body = k, path = { { 0, 0, 0 }, { 1, 0, 0 } }, wait = -1 } end, "mover: wait must be a number of seconds >= 0, or a list of 2 of them (one per point), got -1")
	check.fails(function() w:mover{ body = k, path = { { 0, 0, 0 }, { 1, 0, 0 } }, speed = 0 } end, "mover: speed must be a positive number, got 0")
	check.fails(function() w:mover{ body = k, path = { { 0, 0, 0 }, { 1, 0, 0 } }, velocity = { 1, 0, 0 } } end, "mover: give one of path, velocity (and angular_velocity) or target, not several")
	check.fails(function() w:mover{ body = k, speed = 2 } end, "mover: speed is a path setting: give it together with path = {...}")
	check.fails(function() w:mover{ body = k, velocity = { nan, 0, 0 } } end, "mover: velocity must be 3 finite numbers, got {nan, 0, 0}")
	check.fails(function() w:mover{ body = k, target = { time = 0 } } end, "mover: target.time must be a positive number, got 0")
	check.fails(function() w:mover{ body = k, target = { spot = 1 } } end, "mover: unknown field 'target.spot'")
	check.fails(function() w:mover{ body = k, paht = {} } end, "mover: unknown field 'paht'")
	check.fails(function() m.speed = 0 end, "Mover.speed: value must be a positive number, got 0")
	check.fails(function() vm.speed = 2 end, "Mover.speed: the mover is not following a path")
	check.fails(function() m.paused = "yes" end, "Mover.paused: value must be true or false, got 'yes'")
	check.fails(function() m.mode = "path" end, "Mover.mode is read-only")
	check.fails(function() m:follow{} end, "follow: path must be a list of points {x, y, z}, got nil")
	check.fails(function() m:move_to{ pos = { 0, 0, nan } } end, "move_to: pos must be 3 finite numbers, got {0, 0, nan}")
	check.fails(function() m:set_velocity(3) end, "set_velocity: velocity must be a table of 3 finite numbers, got 3")
	-- Past the input limits (fuzz finding 46: a path point at -1.8e38 m broke the broad phase).
	check.fails(function() m:set_velocity({ 2e5, 0, 0 }) end, "set_velocity: velocity must be 3 finite numbers within +-100000 (m/s)")
	check.fails(function() w:mover{ body = k, velocity = { 0, 0, 1e6 } } end, "mover: velocity must be 3 finite numbers within +-100000 (m/s), got {0, 0, 1000000}")
	check.fails(function() w:mover{ body = k, angular_velocity = { 0, 0, 2e4 } } end, "mover: angular_velocity must be 3 finite numbers within +-10000 (rad/s), got {0, 0, 20000}")
	check.fails(function() m:follow{ path = { { 0, 0, 1 }, { 0, -1.8e38, 1 } } } end, "follow: path[2] must be 3 finite numbers within +-1e+06 (m), got {0, -1.8e+38, 1}")
	check.fails(function() m:follow{ path = { { 0, 0, 1 }, { 0, 1, 1 } }, speed = 1e6 } end, "follow: speed must be a number in (0, 100000] (m/s), got 1000000")
	check.fails(function() m:move_to{ pos = { 2e6, 0, 0 } } end, "move_to: pos must be 3 finite numbers within +-1e+06 (m), got {2000000, 0, 0}")
	check.fails(function() m.stop() end, "stop: expected a Mover (call it as mover:stop(...)), got nil")
	-- Nothing half-made: k has no mover after the failures, so it can get one now.
	check.eq(w:mover{ body = k }.mode, "idle", "k's first mover")

	-- Destroyed handles.
	vm:destroy()
	check.eq(vm:is_valid(), false, "destroyed mover")
	check.fails(function() vm:stop() end, "attempt to use a destroyed Mover")
	check.fails(function() return vm.mode end, "attempt to use a destroyed Mover")
	platform:destroy()
	check.eq(m:is_valid(), false, "destroying the body destroys its mover")
	check.fails(function() m.paused = true end, "attempt to use a destroyed Mover")
	w:destroy()
	check.eq(tostring(m), "Mover (destroyed)", "tostring of a destroyed mover")
end

-- Destroyed handles ----------------------------------------------------------------------------------

local function destroyed()
	local w = space()
	local a = w:add_box{ pos = { 0, 0, 5 } }
	local b = w:add_box{ pos = { 2, 0, 5 } }
	local j = w:hinge{ a = a, b = b, name = "gone" }
	j:destroy()
	check.eq(j:is_valid(), false, "is_valid after destroy")
	check.eq(tostring(j), "Joint (destroyed)", "tostring after destroy")
	check.eq(w:joint("gone"), nil, "a destroyed joint is not found")
	check.fails(function() j:error() end, "attempt to use a destroyed Joint")
	check.fails(function() return j.motor_speed end, "attempt to use a destroyed Joint")
	check.fails(function() j.motor_speed = 1 end, "attempt to use a destroyed Joint")
	check.fails(function() j:destroy() end, "attempt to use a destroyed Joint")
	-- Destroying a body destroys its joints.
	local k = w:ball{ a = a, b = b }
	local c = w:constraint{ a = a, b = b, rows = function() return nil end }
	b:destroy()
	check.eq(k:is_valid(), false, "joint of a destroyed body")
	check.fails(function() k:is_broken() end, "attempt to use a destroyed Joint")
	check.fails(function() c.rows = function() end end, "attempt to use a destroyed Joint")
	-- A new joint reusing the slot gets a new handle; the old one stays dead.
	local n = w:ball{ b = a, anchor = { 0, 0, 6 } }
	check.truthy(n ~= k and n ~= j, "new handle")
	check.eq(k:is_valid(), false, "old handle still dead")
	run(w, 2)
	w:destroy()
	check.eq(n:is_valid(), false, "joint of a destroyed world")
	check.fails(function() n:error() end, "attempt to use a destroyed Joint")
end

-- A weak motor on a heavy body accelerates it below the sleep threshold for longer than the time
-- to sleep: the body must stay awake and reach alpha t (it fell asleep at rest after 0.5 s).
local function weak_motors_keep_bodies_awake()
	local w = tb.world{ gravity = { 0, 0, 0 } }
	-- 1,000 kg, 1 m cube: I = m (1 + 1) / 12 = 166.7 kg m^2; 1 N m gives alpha = 0.006 rad/s^2.
	local wheel = w:add_box{ size = { 1, 1, 1 }, density = 1000 }
	w:hinge{ b = wheel, anchor = { 0, 0, 0 }, axis = { 0, 0, 1 }, motor = { speed = 2, max_torque = 1 } }
	local cart = w:add_box{ size = { 1, 1, 1 }, pos = { 5, 0, 0 }, density = 1000 }
	w:slider{ b = cart, anchor = { 5, 0, 0 }, axis = { 1, 0, 0 }, motor = { speed = 2, max_force = 1 } }
	for _ = 1, 1200 do
		w:step(1 / 60)
	end
	local _, _, wz = wheel:angular_velocity()
	check.near(wz, 0.006 * 20, 0.003, "the hinge's wheel after 20 s (rad/s)")
	check.near(cart:velocity(), 1 / 1000 * 20, 0.001, "the slider's cart after 20 s (m/s)")
	check.eq(wheel.sleeping or cart.sleeping, false, "both awake")
	w:destroy()
end

function scene.setup(world)
	weak_motors_keep_bodies_awake()
	constructors()
	constructor_errors()
	properties()
	physics()
	custom_constraints()
	movers()
	destroyed()
	-- Joints work in the runtime's own world too, and are listed in its report.
	local bob = world:add_sphere{ name = "bob", radius = 0.1, pos = { 1, 0, 2 } }
	world:distance{ name = "rod", b = bob, anchor_a = { 0, 0, 2 } }
end

function scene.finish(world)
	check.eq(world:joint("rod").type, "distance", "runtime world joint")
end

return scene
