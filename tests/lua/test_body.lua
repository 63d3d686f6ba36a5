-- Lua API: world:add_* constructors and every Body method and property, with their errors.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

local pi = math.pi

-- A world without gravity: velocities change only through what the test applies.
local function space()
	return tb.world{ gravity = { 0, 0, 0 }, sleep = false }
end

local function constructors()
	local w = space()
	local b = w:add_box{ name = "crate", size = { 1, 2, 3 }, pos = { 1, 2, 3 }, rot = { 1, 0, 0, 0 }, mass = 2,
		friction = 0.3, restitution = 0.1, vel = { 1, 0, 0 }, angvel = { 0, 0, 1 }, static = false, kinematic = false,
		ccd = true, sensor = false, layer = 1, mask = 0xffff, group = 0, linear_damping = 0, angular_damping = 0,
		gravity_scale = 1, fixed_rotation = false, can_sleep = true, awake = true }
	check.vec({ 1, 2, 3 }, 1e-6, "position", b:position())
	check.vec({ 1, 0, 0, 0 }, 1e-6, "rotation", b:rotation())
	check.vec({ 1, 0, 0 }, 1e-6, "velocity", b:velocity())
	check.vec({ 0, 0, 1 }, 1e-6, "angular velocity", b:angular_velocity())
	check.near(b:mass(), 2, 1e-4, "mass given directly (kg)")
	-- Solid box: I_xx = m (b^2 + c^2) / 12 about the centre.
	check.vec({ 2 * (4 + 9) / 12, 2 * (1 + 9) / 12, 2 * (1 + 4) / 12 }, 1e-4, "box inertia (kg m^2)", b:inertia())
	check.near(b.friction, 0.3, 1e-6, "friction")
	check.near(b.restitution, 0.1, 1e-6, "restitution")
	check.eq(b.name, "crate", "name")
	check.eq(b.type, "dynamic", "type")
	check.eq(b.ccd, true, "ccd")
	check.eq(b.world, w, "body.world is its World")
	check.eq(w:body("crate"), b, "world:body(name) gives the same handle")
	check.eq(w:body("nobody"), nil, "unknown name")
	check.eq(w:bodies()[1], b, "world:bodies()")
	check.eq(b.shape_count, 1, "shape_count")
	check.truthy(math.type(b.id) == "integer", "id")
	check.eq(tostring(b), "Body 'crate' (dynamic)", "tostring")

	-- Density (kg/m^3) times volume.
	check.near(w:add_box{ size = { 1, 2, 3 }, density = 10 }:mass(), 60, 1e-3, "box mass from density")
	check.near(w:add_sphere{ radius = 0.5, density = 1000 }:mass(), 1000 * 4 / 3 * pi * 0.125, 0.5, "sphere mass")
	local capsule = w:add_capsule{ radius = 0.2, half_length = 0.5, density = 1000 }
	check.near(capsule:mass(), 1000 * (pi * 0.04 * 1.0 + 4 / 3 * pi * 0.008), 0.5, "capsule mass")
	-- Capsule axis is the local z axis: its bounds are tallest in z.
	local x0, y0, z0, x1, y1, z1 = capsule:aabb()
	check.near(z1 - z0, 1.4, 0.06, "capsule height along z (2 half_length + 2 radius, m)")
	check.near(x1 - x0, 0.4, 0.06, "capsule width along x (m)")
	check.truthy(y1 > y0, "aabb")
	-- Octahedron |x|/r + |y|/r + |z|/h <= 1 has volume (4/3) r^2 h.
	local diamond = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1.5 }, { 0, 0, -1.5 } }
	check.near(w:add_hull{ points = diamond, density = 3 }:mass(), 3 * 4 / 3 * 1.5, 1e-3, "hull mass")
	check.eq(w:add_sphere{ radius = 1, static = true }.type, "static", "static = true")
	check.eq(w:add_sphere{ radius = 1, kinematic = true }.type, "kinematic", "kinematic = true")
	check.eq(w:add_sphere{ radius = 1, type = "kinematic" }.type, "kinematic", "type = 'kinematic'")
	check.eq(w:add_box{}.type, "dynamic", "default type")

	-- Compound: two unit cubes 1 m either side of the origin; the centre of mass is between them.
	local pair = w:add_compound{ name = "pair", pos = { 0, 0, 5 }, density = 1, shapes = {
		{ type = "box", size = { 1, 1, 1 }, pos = { -1, 0, 0 } },
		{ type = "box", size = { 1, 1, 1 }, pos = { 1, 0, 0 }, rot = tb.axis_angle({ 0, 0, 1 }, 0.3) } } }
	check.near(pair:mass(), 2, 1e-4, "compound mass")
	check.vec({ 0, 0, 5 }, 1e-4, "compound centre of mass", pair:center_of_mass())
	check.eq(pair.shape_count, 2, "compound shape_count")
	local mixed = w:add_compound{ mass = 5, shapes = { { type = "sphere", radius = 0.5, pos = { 0, 0, 1 }, friction = 0.9 },
		{ type = "capsule", radius = 0.1, half_length = 0.4, density = 500 }, { type = "hull", points = diamond, pos = { 3, 0, 0 } } } }
	check.near(mixed:mass(), 5, 1e-3, "compound with mass given")

	-- The quaternion order is {w, x, y, z} in and out.
	local turned = w:add_box{ pos = { 1, 0, 0 }, rot = tb.axis_angle({ 0, 0, 1 }, pi / 2) }
	check.vec({ math.sqrt(0.5), 0, 0, math.sqrt(0.5) }, 1e-6, "rotation w, x, y, z", turned:rotation())
	check.vec({ 1, 1, 0 }, 1e-6, "to_world of local x after a quarter turn about z", turned:to_world(1, 0, 0))
	check.vec({ 1, 0, 0 }, 1e-6, "to_local inverts to_world", turned:to_local(1, 1, 0))
	-- Quaternions are normalised.
	check.vec({ 1, 0, 0, 0 }, 1e-6, "rot {2, 0, 0, 0} normalised", w:add_box{ rot = { 2, 0, 0, 0 } }:rotation())
	w:destroy()
end

local function constructor_errors()
	local w = space()
	check.fails(function() w:add_box{ size = { 1, 0, 1 } } end, "add_box: size must be 3 positive numbers, got {1, 0, 1}")
	check.fails(function() w:add_box{ size = { 1, 1 } } end, "add_box: size must be 3 positive numbers, got {1, 1}")
	check.fails(function() w:add_box{ size = 1 } end, "add_box: size must be 3 positive numbers, got 1")
	check.fails(function() w:add_box{ pos = { 0 / 0, 0, 0 } } end, "add_box: pos must be 3 finite numbers, got {nan, 0, 0}")
	check.fails(function() w:add_box{ pos = { 0, -math.huge, 0 } } end, "add_box: pos must be 3 finite numbers, got {0, -inf, 0}")
	check.fails(function() w:add_box{ pos = { 0, 0, 1e300 } } end, "add_box: pos must be 3 finite numbers, got {0, 0, 1e+300}")
	check.fails(function() w:add_box{ pos = { x = 1 } } end, "add_box: pos must be 3 finite numbers, got {x = 1}")
	check.fails(function() w:add_box{ vel = { 0, 0, "fast" } } end, "add_box: vel must be 3 finite numbers, got {0, 0, 'fast'}")
	check.fails(function() w:add_box{ angvel = true } end, "add_box: angvel must be 3 finite numbers, got true")
	check.fails(function() w:add_box{ rot = { 0, 0, 0, 0 } } end, "add_box: rot must be a quaternion {w, x, y, z} of 4 finite numbers, not all zero, got {0, 0, 0, 0}")
	check.fails(function() w:add_box{ rot = { 1, 0, 0 } } end, "add_box: rot must be a quaternion {w, x, y, z} of 4 finite numbers, not all zero, got {1, 0, 0}")
	check.fails(function() w:add_box{ mass = 0 } end, "add_box: mass must be a positive number, got 0")
	check.fails(function() w:add_box{ mass = 0 / 0 } end, "add_box: mass must be a positive number, got nan")
	check.fails(function() w:add_box{ density = -1 } end, "add_box: density must be a positive number, got -1")
	check.fails(function() w:add_box{ mass = 1, density = 1 } end, "add_box: give mass or density, not both")
	check.fails(function() w:add_box{ mass = 1, static = true } end, "add_box: mass is only for dynamic bodies (this one is static)")
	check.fails(function() w:add_box{ friction = -0.5 } end, "add_box: friction must be a number in [0, 1000], got -0.5")
	check.fails(function() w:add_box{ restitution = "bouncy" } end, "add_box: restitution must be a number in [0, 1000], got 'bouncy'")
	check.fails(function() w:add_box{ name = 5 } end, "add_box: name must be a string of at most 31 bytes, got 5")
	check.fails(function() w:add_box{ name = ("x"):rep(32) } end, "add_box: name must be a string of at most 31 bytes, got '" .. ("x"):rep(32) .. "'")
	check.fails(function() w:add_box{ static = "yes" } end, "add_box: static must be true or false, got 'yes'")
	check.fails(function() w:add_box{ static = true, kinematic = true } end, "add_box: a body cannot be both static and kinematic")
	check.fails(function() w:add_box{ type = "dynamc" } end, "add_box: invalid body type 'dynamc'")
	check.fails(function() w:add_box{ type = "static", static = true } end, "add_box: give either type or static/kinematic, not both")
	check.fails(function() w:add_box{ layer = 1.5 } end, "add_box: layer must be an integer in [-9223372036854775808, 9223372036854775807], got 1.5")
	check.fails(function() w:add_box{ sise = { 1, 1, 1 } } end, "add_box: unknown field 'sise'")
	check.fails(function() w:add_box() end, "add_box: expected a table of fields, got nil")
	check.fails(function() w:add_box{ radius = 1 } end, "add_box: unknown field 'radius'")
	check.fails(function() w.add_box{ size = { 1, 1, 1 } } end, "add_box: expected a World (call it as world:add_box(...)), got {size = {...}}")
	check.fails(function() w:add_sphere{ radius = -1 } end, "add_sphere: radius must be a positive number, got -1")
	check.fails(function() w:add_sphere{ radius = 0 / 0 } end, "add_sphere: radius must be a positive number, got nan")
	check.fails(function() w:add_capsule{ half_length = 0 } end, "add_capsule: half_length must be a positive number, got 0")
	check.fails(function() w:add_hull{} end, "add_hull: points must be a list of 4 to 1024 points {x, y, z}, got nil")
	check.fails(function() w:add_hull{ points = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 } } } end, "add_hull: points must be a list of 4 to 1024 points {x, y, z}, got {{...}, {...}, {...}}")
	check.fails(function() w:add_hull{ points = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 } } } end, "add_hull: points must span a volume (they are coplanar, collinear or coincident)")
	check.fails(function() w:add_hull{ points = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 0 / 0 } } } end, "add_hull: points[4] must be a table of 3 finite numbers, got {0, 0, nan}")
	check.fails(function() w:add_compound{} end, "add_compound: shapes must be a list of shape tables, got nil")
	check.fails(function() w:add_compound{ shapes = {} } end, "add_compound: shapes must be a list of 1 to 256 shape tables, got {}")
	check.fails(function() w:add_compound{ shapes = { { size = { 1, 1, 1 } } } } end, "add_compound: shapes[1].type must be one of 'box', 'sphere', 'capsule', 'hull', 'cylinder', got nil")
	check.fails(function() w:add_compound{ shapes = { { type = "box" }, { type = "cone" } } } end, "add_compound: invalid shape type 'cone' (shapes[2].type)")
	check.fails(function() w:add_compound{ shapes = { { type = "mesh" } } } end, "add_compound: shapes[1].type must be one of 'box', 'sphere', 'capsule', 'hull', 'cylinder' (a mesh is a static body of its own: world:add_mesh), got 'mesh'")
	check.fails(function() w:add_compound{ shapes = { { type = "box", sise = { 1, 1, 1 } } } } end, "add_compound: unknown field 'shapes[1].sise'")
	check.fails(function() w:add_compound{ shapes = { { type = "box", size = { 1, -1, 1 } } } } end, "add_compound: shapes[1].size must be 3 positive numbers, got {1, -1, 1}")
	check.fails(function() w:add_compound{ shapes = { { type = "box" }, { type = "hull", points = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { "a", 0, 1 } } } } } end, "add_compound: shapes[2].points[4] must be a table of 3 finite numbers, got {'a', 0, 1}")
	check.fails(function() w:add_compound{ shapes = { 5 } } end, "add_compound: expected a table of fields for shapes[1], got 5")
	-- Nothing half-made was left behind by the failed calls.
	check.eq(w.body_count, 0, "bodies after failed constructors")
	w:destroy()
end

local function methods()
	local w = space()
	local b = w:add_box{ name = "b", mass = 2 }
	b:set_position(1, 2, 3)
	check.vec({ 1, 2, 3 }, 1e-6, "set_position(x, y, z)", b:position())
	b:set_position{ 4, 5, 6 }
	check.vec({ 4, 5, 6 }, 1e-6, "set_position{...}", b:position())
	b:set_rotation(0, 1, 0, 0)
	check.vec({ 0, 1, 0, 0 }, 1e-6, "set_rotation(w, x, y, z)", b:rotation())
	b:set_rotation{ 1, 0, 0, 0 }
	check.vec({ 1, 0, 0, 0 }, 1e-6, "set_rotation{...}", b:rotation())
	check.vec({ 4, 5, 6 }, 1e-6, "set_rotation keeps the position", b:position())
	b:set_velocity(1, 0, 0)
	check.vec({ 1, 0, 0 }, 1e-6, "set_velocity", b:velocity())
	b:set_angular_velocity{ 0, 0, 2 }
	check.vec({ 0, 0, 2 }, 1e-6, "set_angular_velocity", b:angular_velocity())

	-- Impulse J at the centre of mass: dv = J / m.
	b:set_velocity(0, 0, 0)
	b:set_angular_velocity(0, 0, 0)
	b:apply_impulse{ 2, 0, 0 }
	check.vec({ 1, 0, 0 }, 1e-5, "velocity after a central impulse (m/s)", b:velocity())
	check.vec({ 0, 0, 0 }, 1e-5, "no spin from a central impulse", b:angular_velocity())
	-- Off-centre impulse: also spins the box, dw = I^-1 (r x J).
	b:apply_impulse({ 0, 1, 0 }, { 4.5, 5, 6 })
	local _, _, wz = b:angular_velocity()
	check.near(wz, 0.5 * 1 / (2 * 2 / 12), 1e-4, "spin from an off-centre impulse (rad/s)")
	b:set_velocity(0, 0, 0)
	b:set_angular_velocity(0, 0, 0)
	b:apply_angular_impulse{ 0, 0, 1 }
	check.near(select(3, b:angular_velocity()), 1 / (2 * 2 / 12), 1e-4, "angular impulse (rad/s)")

	-- Force F over one step dt: dv = F dt / m.
	b:set_angular_velocity(0, 0, 0)
	b:set_velocity(0, 0, 0)
	b:apply_force{ 0, 0, 12 }
	w:step(0.5)
	check.near(select(3, b:velocity()), 12 * 0.5 / 2, 1e-3, "velocity after a force (m/s)")
	b:set_velocity(0, 0, 0)
	b:apply_force({ 0, 0, 12 }, { b:center_of_mass() })
	w:step(0.5)
	check.near(select(3, b:velocity()), 12 * 0.5 / 2, 1e-3, "force at the centre of mass")
	b:set_velocity(0, 0, 0)
	b:apply_torque{ 0, 0, 1 }
	w:step(0.5)
	check.near(select(3, b:angular_velocity()), 0.5 / (2 * 2 / 12), 1e-3, "spin after a torque (rad/s)")

	-- Velocity of a point: v + w x r.
	b:set_velocity(1, 0, 0)
	b:set_angular_velocity(0, 0, 1)
	local cx, cy, cz = b:center_of_mass()
	check.vec({ 1, 1, 0 }, 1e-5, "point velocity", b:point_velocity(cx + 1, cy, cz))

	b:set_mass(4)
	check.near(b:mass(), 4, 1e-4, "set_mass")
	b:set_damping(0.1, 0.2)
	b:set_damping(0.3)

	-- Properties.
	b.friction = 0.7
	check.near(b.friction, 0.7, 1e-6, "friction set")
	b.restitution = 0.5
	check.near(b.restitution, 0.5, 1e-6, "restitution set")
	b.name = "renamed"
	check.eq(b.name, "renamed", "name set")
	check.eq(w:body("renamed"), b, "found by the new name")
	b.name = nil
	check.eq(b.name, nil, "name cleared")
	b.gravity_scale = 0.5
	check.near(b.gravity_scale, 0.5, 1e-6, "gravity_scale")
	b.ccd = true
	check.eq(b.ccd, true, "ccd")
	b.type = "kinematic"
	check.eq(b.type, "kinematic", "type set")
	b.type = "dynamic"
	-- Sleeping needs a world that allows it.
	local sleepy = tb.world{ gravity = { 0, 0, 0 }, sleep = true }
	local s = sleepy:add_box{}
	s.sleeping = true
	check.eq(s.sleeping, true, "sleeping set")
	check.eq(s.awake, false, "awake follows sleeping")
	s.awake = true
	check.eq(s.sleeping, false, "awake set")
	sleepy:destroy()

	-- Method and property errors name the call and what was expected.
	check.fails(function() b:set_position("a") end, "set_position: position must be 3 finite numbers x, y, z or a table {x, y, z}, got 'a' as argument 1")
	check.fails(function() b:set_position(1, 2) end, "set_position: position must be 3 finite numbers x, y, z or a table {x, y, z}, got nil as argument 3")
	check.fails(function() b:set_position{ 1, 2, 0 / 0 } end, "set_position: position must be a table of 3 finite numbers, got {1, 2, nan}")
	check.fails(function() b:set_rotation(0, 0, 0, 0) end, "set_rotation: rotation must not be a zero quaternion")
	check.fails(function() b:set_rotation{ 1, 0, 0 } end, "set_rotation: rotation must be a quaternion {w, x, y, z} of 4 finite numbers, got {1, 0, 0}")
	check.fails(function() b:set_velocity(math.huge, 0, 0) end, "set_velocity: velocity must be 3 finite numbers x, y, z or a table {x, y, z}, got inf as argument 1")
	check.fails(function() b:apply_impulse() end, "apply_impulse: impulse must be a table of 3 finite numbers, got nil")
	check.fails(function() b:apply_impulse({ 1, 0, 0 }, 5) end, "apply_impulse: point must be a table of 3 finite numbers, got 5")
	check.fails(function() b:apply_force{ 0 / 0, 0, 0 } end, "apply_force: force must be a table of 3 finite numbers, got {nan, 0, 0}")
	check.fails(function() b:apply_torque(1, 2, 3) end, "apply_torque: torque must be a table of 3 finite numbers, got 1")
	check.fails(function() b:set_mass(-1) end, "set_mass: mass must be a positive number, got -1")
	check.fails(function() b:set_damping(-1) end, "set_damping: linear must be a number in [0, 1e6], got -1")
	check.fails(function() b.position() end, "position: expected a Body (call it as body:position(...)), got nil")
	check.fails(function() b.position(w) end, "position: expected a Body (call it as body:position(...)), got a World")
	check.fails(function() b.friction = -1 end, "Body.friction: value must be a number in [0, 1000], got -1")
	check.fails(function() b.friction = 0 / 0 end, "Body.friction: value must be a number in [0, 1000], got nan")
	-- The supported ranges (docs/RELIABILITY.md, "Supported input ranges"): values far outside any
	-- physical use are refused with the range, not accepted and left to the solver.
	check.fails(function() b.friction = 1e30 end, "Body.friction: value must be a number in [0, 1000], got 1e+30")
	check.fails(function() b.restitution = 2000 end, "Body.restitution: value must be a number in [0, 1000], got 2000")
	check.fails(function() b:set_damping(1, 1e7) end, "set_damping: angular must be a number in [0, 1e6], got 10000000")
	check.fails(function() w:add_sphere{ linear_damping = 1e30 } end, "add_sphere: linear_damping must be a number in [0, 1e6], got 1e+30")
	check.fails(function() w.gravity = { 0, 0, -1e5 } end, "World.gravity: value must be a table of 3 numbers in [-1e4, 1e4], got {0, 0, -100000}")
	check.fails(function() tb.world{ contact_hertz = 1e30 } end, "world: contact_hertz must be a number in (0, 1e6], got 1e+30")
	check.fails(function() tb.world{ joint_hertz = 0 } end, "world: joint_hertz must be a number in (0, 1e6], got 0")
	local hinge = w:hinge{ b = b, anchor = { 0, 0, 0 } }
	check.fails(function() hinge.motor_speed = 2e4 end, "Joint.motor_speed: value must be a number in [-1e4, 1e4], got 20000")
	hinge:destroy()
	check.fails(function() b.name = 3 end, "Body.name: must be a string of at most 31 bytes or nil, got 3")
	check.fails(function() b.type = "flying" end, "Body.type: invalid body type 'flying'")
	check.fails(function() b.sleeping = "no" end, "Body.sleeping: value must be true or false, got 'no'")
	check.fails(function() b.id = 3 end, "Body.id is read-only")
	check.fails(function() b.frition = 1 end, "Body has no settable field 'frition'")
	check.fails(function() return b.frition end, "Body has no field 'frition'")
	check.fails(function() return b[1] end, "Body has no field 1")
	local static = w:add_box{ static = true }
	check.fails(function() static:set_mass(1) end, "set_mass: mass is only for dynamic bodies")

	-- Destroyed handles raise, never crash.
	b:destroy()
	check.eq(b:is_valid(), false, "is_valid after destroy")
	check.eq(tostring(b), "Body (destroyed)", "tostring after destroy")
	check.fails(function() b:position() end, "attempt to use a destroyed Body")
	check.fails(function() b:set_velocity(1, 0, 0) end, "attempt to use a destroyed Body")
	check.fails(function() b:apply_impulse{ 1, 0, 0 } end, "attempt to use a destroyed Body")
	check.fails(function() b:destroy() end, "attempt to use a destroyed Body")
	check.fails(function() return b.friction end, "attempt to use a destroyed Body")
	check.fails(function() b.friction = 1 end, "attempt to use a destroyed Body")
	check.eq(w:body("b"), nil, "a destroyed body is not found")
	-- A new body reusing the slot gets a new handle; the old one stays dead.
	local c = w:add_box{ name = "c" }
	check.truthy(c ~= b, "new handle")
	check.eq(b:is_valid(), false, "old handle still dead")
	-- Destroying the world kills every handle of it.
	w:destroy()
	check.eq(c:is_valid(), false, "body of a destroyed world")
	check.fails(function() c:position() end, "attempt to use a destroyed Body")
end

function scene.setup(world)
	constructors()
	constructor_errors()
	methods()
end

return scene
