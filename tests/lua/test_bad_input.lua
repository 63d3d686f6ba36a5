-- Lua API bad-input audit (docs/RELIABILITY.md "Bad input"): every method and writable field of
-- World, Body, Joint and Mover is called with NaN, infinities, numbers past float range, zero,
-- negative values and wrong types. Each refused call must raise an error that names the call AND
-- leave the world unchanged: its state hash and its counters are compared before and after. Also
-- stale handles of every kind, handles of a destroyed world, and calls from inside a step (a Lua
-- constraint's rows function runs while the world is locked). The exact messages of many of these
-- are checked in test_body.lua, test_joints.lua and test_world.lua.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

local nan, inf = 0 / 0, math.huge
local odd_numbers = { nan, inf, -inf, 1e300, -1e300 }

local function fingerprint(w)
	local s = w:stats()
	return ("%d|%d|%d|%d|%d"):format(w:state_hash(), s.bodies, s.shapes, s.joints, s.steps)
end

local function show(v)
	if type(v) == "table" then
		local parts = {}
		for i = 1, #v do
			parts[i] = tostring(v[i])
		end
		return "{" .. table.concat(parts, ", ") .. "}"
	end
	return tostring(v)
end

-- fn must raise an error containing `name` (the method or field, as the message names it) and
-- leave w as it was.
local function refused(w, name, fn, value)
	local before = fingerprint(w)
	local ok, err = pcall(fn)
	if ok then
		error(("%s(%s) was accepted"):format(name, show(value)), 2)
	end
	if not tostring(err):find(name, 1, true) then
		error(("%s(%s): the error does not name the call: %s"):format(name, show(value), tostring(err)), 2)
	end
	local after = fingerprint(w)
	if after ~= before then
		error(("%s(%s) was refused but changed the world (%s -> %s)"):format(name, show(value), before, after), 2)
	end
end

local function make_world()
	local w = tb.world{ gravity = { 0, 0, -10 }, sleep = false }
	w:add_box{ name = "ground", size = { 40, 40, 1 }, pos = { 0, 0, -0.5 }, static = true }
	local box = w:add_box{ name = "box", pos = { 0, 0, 0.5 } }
	local ball = w:add_sphere{ name = "ball", radius = 0.25, pos = { 3, 0, 2 } }
	local paddle = w:add_box{ name = "paddle", size = { 1, 0.2, 1 }, pos = { -3, 0, 2 } }
	local platform = w:add_box{ name = "platform", size = { 2, 2, 0.2 }, pos = { 0, 6, 1 }, kinematic = true }
	local rope = w:distance{ b = ball, anchor_a = { 3, 0, 4 } }
	local hinge = w:hinge{ b = paddle, anchor = { -3, 0, 2.5 }, axis = { 0, 1, 0 }, limits = { -0.5, 0.5 } }
	local mover = w:mover{ body = platform, path = { { 0, 6, 1 }, { 4, 6, 1 } }, speed = 1 }
	w:step(1 / 60)
	return w, { box = box, ball = ball, paddle = paddle, platform = platform, rope = rope, hinge = hinge,
		mover = mover }
end

local function world_calls()
	local w = make_world()
	for _, x in ipairs(odd_numbers) do
		refused(w, "step", function() w:step(x) end, x)
		refused(w, "gravity", function() w.gravity = { 0, 0, x } end, x)
		refused(w, "raycast", function() w:raycast({ 0, 0, x }, { 0, 0, -1 }) end, x)
		refused(w, "overlap_sphere", function() w:overlap_sphere({ 0, 0, 0 }, x) end, x)
		refused(w, "overlap_box", function() w:overlap_box({ x, 0, 0 }, { 1, 1, 1 }) end, x)
	end
	refused(w, "step", function() w:step(-1 / 60) end, -1 / 60)
	refused(w, "step", function() w:step("fast") end, "fast")
	refused(w, "iterations", function() w.iterations = 0 end, 0)
	refused(w, "iterations", function() w.iterations = 1.5 end, 1.5)
	refused(w, "solver", function() w.solver = "magic" end, "magic")
	refused(w, "time", function() w.time = 5 end, 5)
	refused(w, "overlap_sphere", function() w:overlap_sphere({ 0, 0, 0 }, -1) end, -1)
	refused(w, "on", function() w:on("explosion", function() end) end, "explosion")
	refused(w, "on", function() w:on("contact_begin", 5) end, 5)
	-- World settings at creation: nothing is made.
	for _, x in ipairs(odd_numbers) do
		local ok = pcall(tb.world, { gravity = { x, 0, 0 } })
		check.eq(ok, false, "tb.world{ gravity = {" .. tostring(x) .. ", 0, 0} } refused")
	end
	check.eq(pcall(tb.world, { solver = "magic" }), false, "tb.world{ solver = 'magic' } refused")
	check.eq(pcall(tb.world, { iterations = -1 }), false, "tb.world{ iterations = -1 } refused")
end

local function body_calls()
	local w, o = make_world()
	local b = o.box
	for _, x in ipairs(odd_numbers) do
		refused(w, "set_position", function() b:set_position(x, 0, 0) end, x)
		refused(w, "set_rotation", function() b:set_rotation(x, 0, 0, 1) end, x)
		refused(w, "set_velocity", function() b:set_velocity(0, x, 0) end, x)
		refused(w, "set_angular_velocity", function() b:set_angular_velocity(0, 0, x) end, x)
		refused(w, "apply_impulse", function() b:apply_impulse({ x, 0, 0 }) end, x)
		refused(w, "apply_impulse", function() b:apply_impulse({ 1, 0, 0 }, { 0, x, 0 }) end, x)
		refused(w, "apply_angular_impulse", function() b:apply_angular_impulse({ x, 0, 0 }) end, x)
		refused(w, "apply_force", function() b:apply_force({ 0, 0, x }) end, x)
		refused(w, "apply_torque", function() b:apply_torque({ 0, 0, x }) end, x)
		refused(w, "set_mass", function() b:set_mass(x) end, x)
		refused(w, "set_damping", function() b:set_damping(x) end, x)
		refused(w, "set_damping", function() b:set_damping(0, x) end, x)
		refused(w, "friction", function() b.friction = x end, x)
		refused(w, "restitution", function() b.restitution = x end, x)
		refused(w, "gravity_scale", function() b.gravity_scale = x end, x)
		-- Constructors: nothing is added.
		refused(w, "add_box", function() w:add_box{ size = { 1, x, 1 } } end, x)
		refused(w, "add_box", function() w:add_box{ pos = { 0, 0, x } } end, x)
		refused(w, "add_sphere", function() w:add_sphere{ radius = x } end, x)
		refused(w, "add_capsule", function() w:add_capsule{ half_length = x } end, x)
		refused(w, "add_cylinder", function() w:add_cylinder{ half_height = x } end, x)
		refused(w, "add_cylinder", function() w:add_cylinder{ radius = x } end, x)
		refused(w, "add_hull", function() w:add_hull{ points = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, x } } } end, x)
		refused(w, "add_box", function() w:add_box{ mass = x } end, x)
		refused(w, "add_box", function() w:add_box{ vel = { x, 0, 0 } } end, x)
	end
	for _, x in ipairs{ 0, -1, -1e-30 } do
		refused(w, "set_mass", function() b:set_mass(x) end, x)
		refused(w, "add_box", function() w:add_box{ size = { x, 1, 1 } } end, x)
		refused(w, "add_sphere", function() w:add_sphere{ radius = x } end, x)
		refused(w, "add_capsule", function() w:add_capsule{ radius = x } end, x)
		refused(w, "add_cylinder", function() w:add_cylinder{ half_height = x } end, x)
		refused(w, "add_box", function() w:add_box{ density = x } end, x)
	end
	refused(w, "set_damping", function() b:set_damping(-1) end, -1)
	refused(w, "friction", function() b.friction = -0.5 end, -0.5)
	refused(w, "type", function() b.type = "ghost" end, "ghost")
	refused(w, "set_rotation", function() b:set_rotation(0, 0, 0, 0) end, "zero quaternion")
	refused(w, "set_position", function() b:set_position("here") end, "here")
	refused(w, "add_hull", function() w:add_hull{ points = { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 } } } end,
		"collinear points")
	refused(w, "add_compound", function() w:add_compound{ shapes = {} } end, "no shapes")
	-- Past the core's limits (collision.h): 1e6 m positions, 1e4 m shapes, 1e5 m/s.
	refused(w, "set_position", function() b:set_position(2e6, 0, 0) end, 2e6)
	refused(w, "add_box", function() w:add_box{ size = { 3e4, 1, 1 } } end, 3e4)
	refused(w, "set_velocity", function() b:set_velocity(2e5, 0, 0) end, 2e5)
end

local function joint_and_mover_calls()
	local w, o = make_world()
	for _, x in ipairs(odd_numbers) do
		refused(w, "length", function() o.rope.length = x end, x)
		refused(w, "motor_speed", function() o.hinge.motor_speed = x end, x)
		refused(w, "limits", function() o.hinge.limits = { x, 0.5 } end, x)
		refused(w, "break_force", function() o.hinge.break_force = x ~= x and x or -math.abs(x) end, x)
		refused(w, "hinge", function() w:hinge{ b = o.box, anchor = { 0, x, 0 } } end, x)
		refused(w, "distance", function() w:distance{ b = o.box, length = x } end, x)
		refused(w, "speed", function() o.mover.speed = x end, x)
		refused(w, "mover", function() w:mover{ body = o.platform, path = { { 0, 6, 1 }, { x, 6, 1 } } } end, x)
	end
	refused(w, "limits", function() o.hinge.limits = { 0.5, -0.5 } end, "swapped")
	refused(w, "length", function() o.rope.length = -1 end, -1)
	refused(w, "ball", function() w:ball{ a = o.box, b = o.box } end, "same body twice")
	refused(w, "ball", function() w:ball{} end, "no bodies")
	refused(w, "hinge", function() w:hinge{ b = "door" } end, "door")
	refused(w, "mover", function() w:mover{ body = o.box, path = { { 0, 0, 0 } } } end, "dynamic body, one point")
end

local function stale_handles()
	local w, o = make_world()
	local b = w:add_box{ pos = { 5, 5, 1 } }
	local j = w:ball{ b = b, anchor = { 5, 5, 2 } }
	local k = w:add_box{ pos = { -5, 5, 1 }, kinematic = true }
	local m = w:mover{ body = k, path = { { -5, 5, 1 }, { -5, 8, 1 } }, speed = 1 }
	b:destroy()
	k:destroy()
	-- New objects may take the freed slots: the old handles must stay dead.
	w:add_box{ pos = { 5, 5, 1 } }
	w:add_box{ pos = { -5, 5, 1 }, kinematic = true }
	check.eq(j:is_valid(), false, "a joint dies with its body")
	check.eq(m:is_valid(), false, "a mover dies with its body")
	refused(w, "destroyed", function() b:set_velocity(1, 0, 0) end, "stale body")
	refused(w, "destroyed", function() j.break_force = 10 end, "stale joint")
	refused(w, "destroyed", function() j:destroy() end, "stale joint")
	refused(w, "destroyed", function() m.speed = 2 end, "stale mover")
	refused(w, "destroyed", function() w:ball{ a = b, b = o.box } end, "joint to a stale body")
	refused(w, "destroyed", function() w:mover{ body = k, path = { { 0, 0, 0 }, { 1, 0, 0 } } } end, "stale body")

	-- A destroyed world: every handle of it refuses, and other worlds are untouched.
	local other = make_world()
	local before = fingerprint(other)
	w:destroy()
	check.eq(w:is_valid(), false, "world:is_valid after destroy")
	for _, call in ipairs{
		function() w:step(1 / 60) end,
		function() w:add_box{} end,
		function() o.box:position() end,
		function() o.rope.length = 2 end,
		function() o.mover.speed = 1 end,
		function() return w.gravity end,
	} do
		local ok, err = pcall(call)
		check.eq(ok, false, "a call on a destroyed world fails")
		check.truthy(tostring(err):find("destroyed", 1, true), "the error says destroyed: " .. tostring(err))
	end
	check.eq(fingerprint(other), before, "destroying a world leaves the others as they were")
end

-- From inside the step: a Lua constraint's rows function runs while the world is locked. Every
-- mutation from there is refused with "locked"; the step itself goes on.
local function calls_while_locked()
	local w, o = make_world()
	local tried, errors = 0, {}
	local mutations = {
		function() w:add_box{} end,
		function() o.box:destroy() end,
		function() w:step(1 / 60) end,
		function() w:ball{ b = o.box } end,
		function() o.rope:destroy() end,
		function() o.box.type = "static" end,
		function() w:mover{ body = o.platform, path = { { 0, 6, 1 }, { 1, 6, 1 } } } end,
		function() w:destroy() end,
	}
	w:constraint{ b = o.ball, anchor = { 3, 0, 2 }, rows = function(c, dt)
		if tried == 0 then
			for i, fn in ipairs(mutations) do
				local ok, err = pcall(fn)
				errors[i] = (not ok) and tostring(err) or "accepted"
			end
		end
		tried = tried + 1
		return {}
	end }
	local stats = w:stats()
	w:step(1 / 60)
	check.truthy(tried >= 1, "the rows function ran during the step")
	for i = 1, #mutations do
		check.truthy(errors[i] ~= "accepted" and errors[i]:find("locked", 1, true),
			"mutation " .. i .. " from inside the step is refused as locked: " .. tostring(errors[i]))
	end
	local after = w:stats()
	check.eq(after.bodies, stats.bodies, "no body added or removed from inside the step")
	check.eq(after.joints, stats.joints, "no joint added or removed from inside the step")
	check.eq(w:is_valid(), true, "the world survives a destroy from inside its step")
	check.eq(w.locked, false, "unlocked after the step")
	w:step(1 / 60)
end

function scene.setup(world)
	world_calls()
	body_calls()
	joint_and_mover_calls()
	stale_handles()
	calls_while_locked()
end

return scene
