-- Lua API: the module table and the World type (settings, properties, step, stats, lifetime).
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 2 }

local function module_functions()
	check.truthy(type(tb.version) == "string" and tb.version:match("^%d+%.%d+%.%d+$"), "tb.version is x.y.z")
	check.eq(table.concat(tb.solvers, ","), "baumgarte,split,soft,global", "tb.solvers")
	check.eq(table.concat(tb.body_types, ","), "static,kinematic,dynamic", "tb.body_types")
	check.eq(table.concat(tb.shape_types, ","), "box,sphere,capsule,hull,mesh,heightfield,cylinder", "tb.shape_types")
	check.eq(tb.events[1], "contact_begin", "tb.events[1]")

	-- A quarter turn about z, {w, x, y, z}.
	local q = tb.axis_angle({ 0, 0, 1 }, math.pi / 2)
	check.near(q[1], math.sqrt(0.5), 1e-6, "w")
	check.near(q[4], math.sqrt(0.5), 1e-6, "z")
	check.vec({ 0, 0 }, 1e-6, "x, y", q[2], q[3])
	check.vec({ 0, 1, 0 }, 1e-6, "rotate x by a quarter turn about z", tb.rotate(q, { 1, 0, 0 }))
	local half = tb.quat_multiply(q, q)
	check.vec({ -1, 0, 0 }, 1e-6, "two quarter turns", tb.rotate(half, { 1, 0, 0 }))
	check.fails(function() tb.axis_angle({ 0, 0, 0 }, 1) end, "axis_angle: axis must be a table of 3 finite numbers, not all zero, got {0, 0, 0}")
	check.fails(function() tb.axis_angle({ 0, 0, 1 }, 0 / 0) end, "axis_angle: angle must be a finite number, got nan")
	check.fails(function() tb.rotate({ 0, 0, 0, 0 }, { 1, 0, 0 }) end, "rotate: q must not be a zero quaternion")

	check.eq(tb.input.down("w"), false, "no key is down headless")
	local keys = "input.down: key must be a key name: a-z, 0-9, -=[];',./`\\, or one of space, return, escape, tab, backspace, delete, insert, home, end, pageup, pagedown, left, right, up, down, left shift, right shift, left ctrl, right ctrl, left alt, right alt, f1-f12; got "
	check.fails(function() tb.input.down(3) end, keys .. "3")
	-- A misspelt name is an error headless too, naming the keys (it used to be a key never down).
	check.fails(function() tb.input.down("spacebar") end, keys .. "'spacebar'")
	check.eq(tb.input.down("Left Shift"), false, "SDL's names, any case")
end

local function world_settings()
	check.fails(function() tb.world{ solver = "sfot" } end, "world: invalid solver 'sfot'")
	check.fails(function() tb.world{ solver = 3 } end, "world: solver must be a string naming a solver, got 3")
	check.fails(function() tb.world{ gravity = { 0, 0, 0 / 0 } } end, "world: gravity must be 3 numbers in [-1e4, 1e4], got {0, 0, nan}")
	check.fails(function() tb.world{ gravity = { 0, 0, math.huge } } end, "world: gravity must be 3 numbers in [-1e4, 1e4], got {0, 0, inf}")
	check.fails(function() tb.world{ gravity = { 0, 0 } } end, "world: gravity must be 3 numbers in [-1e4, 1e4], got {0, 0}")
	check.fails(function() tb.world{ gravity = "down" } end, "world: gravity must be 3 numbers in [-1e4, 1e4], got 'down'")
	check.fails(function() tb.world{ iterations = 0 } end, "world: iterations must be an integer in [1, 1000], got 0")
	check.fails(function() tb.world{ iterations = 2.5 } end, "world: iterations must be an integer in [1, 1000], got 2.5")
	check.fails(function() tb.world{ sub_steps = 0 } end, "world: sub_steps must be an integer in [1, 64], got 0")
	check.fails(function() tb.world{ sub_steps = 65 } end, "world: sub_steps must be an integer in [1, 64], got 65")
	-- Two sub-steps still land a dropped box on the ground (z = 0.5 +- 1 cm).
	local coarse = tb.world{ sub_steps = 2 }
	coarse:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	local box = coarse:add_box{ pos = { 0, 0, 2 } }
	for _ = 1, 120 do coarse:step(1 / 60) end
	local _, _, z = box:position()
	check.near(z, 0.5, 0.01, "box on the ground with 2 sub-steps")
	check.fails(function() tb.world{ sleep = "yes" } end, "world: sleep must be true or false, got 'yes'")
	check.fails(function() tb.world{ baumgarte = 2 } end, "world: baumgarte must be a number in [0, 1], got 2")
	check.fails(function() tb.world{ friction_mix = "median" } end, "world: invalid mix rule 'median'")
	check.fails(function() tb.world{ max_linear_speed = 1.28e30 } end, "world: max_linear_speed must be a number in (0, 100000] (m/s), got 1.28e+30")
	check.fails(function() tb.world{ gravty = { 0, 0, -10 } } end, "world: unknown field 'gravty'")
	check.fails(function() tb.world{ 1, 2 } end, "world: unexpected entry [1] in the table of fields")
	check.fails(function() tb.world(5) end, "world: expected a table of fields, got 5")

	local w = tb.world{ gravity = { 0, 0, -9.81 }, iterations = 8, solver = "split", sleep = false }
	check.eq(w.solver, "split", "solver")
	check.eq(w.iterations, 8, "iterations")
	check.eq(w.sleep, false, "sleep")
	local g = w.gravity
	check.vec({ 0, 0, -9.81 }, 1e-6, "gravity", g[1], g[2], g[3])

	w.solver = "baumgarte"
	check.eq(w.solver, "baumgarte", "solver after set")
	w.iterations = 20
	check.eq(w.iterations, 20, "iterations after set")
	w.sleep = true
	check.eq(w.sleep, true, "sleep after set")
	w.gravity = { 0, 0, -1 }
	check.near(w.gravity[3], -1, 1e-6, "gravity after set")

	check.fails(function() w.solver = "x" end, "World.solver: invalid solver 'x'")
	check.fails(function() w.iterations = -1 end, "World.iterations: must be an integer in [1, 1000], got -1")
	check.fails(function() w.gravity = { 1, 2, 0 / 0 } end, "World.gravity: value must be a table of 3 numbers in [-1e4, 1e4], got {1, 2, nan}")
	check.fails(function() w.sleep = 1 end, "World.sleep: value must be true or false, got 1")
	check.fails(function() w.time = 3 end, "World.time is read-only")
	check.fails(function() w.colour = "red" end, "World has no settable field 'colour'")
	check.fails(function() return w.colour end, "World has no field 'colour'")

	-- Every setting tb.world accepts.
	local full = tb.world{ gravity = { 0, 0, -10 }, iterations = 4, position_iterations = 2, solver = "soft",
		baumgarte = 0.2, slop = 0.005, max_correction_speed = 3, contact_hertz = 30, contact_damping = 10,
		joint_hertz = 60, joint_damping = 2, restitution_threshold = 1, friction_mix = "geometric_mean",
		restitution_mix = "maximum", sleep = true, continuous = true, warm_starting = true, contact_reuse = false, max_linear_speed = 400 }
	check.eq(full.solver, "soft", "full settings")
	full:destroy()
	return w
end

local function stepping(w)
	check.fails(function() w:step(0) end, "step: dt must be a positive number, got 0")
	check.fails(function() w:step(-1) end, "step: dt must be a positive number, got -1")
	check.fails(function() w:step(0 / 0) end, "step: dt must be a positive number, got nan")
	check.fails(function() w:step() end, "step: dt must be a positive number, got nil")
	check.fails(function() w.step(5, 1 / 60) end, "step: expected a World (call it as world:step(...)), got 5")
	check.fails(function() w.step() end, "step: expected a World (call it as world:step(...)), got nil")

	check.eq(w.step_count, 0, "step_count before")
	w:step(1 / 60)
	w:step(1 / 60)
	check.eq(w.step_count, 2, "step_count")
	check.near(w.time, 2 / 60, 1e-6, "time (dt is stepped as a float)")
	check.eq(w.body_count, 0, "body_count")
	check.eq(w.locked, false, "locked outside a step")

	local stats = w:stats()
	for _, key in ipairs{ "bodies", "awake_bodies", "shapes", "contacts", "pairs", "joints", "islands", "tree_height",
		"allocations", "steps", "step_ms", "max_penetration", "time" } do
		check.truthy(type(stats[key]) == "number", "stats." .. key .. " is a number")
	end
	check.eq(stats.steps, 2, "stats.steps")
	check.truthy(math.type(w:state_hash()) == "integer", "state_hash is an integer")
	check.truthy(tostring(w):match("^World %(0 bodies"), "tostring(world): " .. tostring(w))
end

local function lifetime(w)
	check.eq(w:is_valid(), true, "is_valid")
	w:destroy()
	check.eq(w:is_valid(), false, "is_valid after destroy")
	check.eq(tostring(w), "World (destroyed)", "tostring after destroy")
	check.fails(function() w:step(1 / 60) end, "attempt to use a destroyed World")
	check.fails(function() w:add_box{} end, "attempt to use a destroyed World")
	check.fails(function() return w.gravity end, "attempt to use a destroyed World")
	check.fails(function() w:destroy() end, "attempt to use a destroyed World")

	-- Worlds left to the garbage collector are destroyed by it: far more than TB_MAX_WORLDS (128)
	-- can be made one after the other.
	for _ = 1, 300 do
		tb.world{}
		collectgarbage()
	end

	-- A body keeps its world alive.
	local body
	do
		local lonely = tb.world{ gravity = { 0, 0, 0 } }
		body = lonely:add_sphere{ radius = 1, pos = { 1, 2, 3 } }
	end
	collectgarbage()
	collectgarbage()
	check.vec({ 1, 2, 3 }, 1e-6, "body of a world only the body references", body:position())
	check.truthy(body.world:is_valid(), "world reached through its body")
end

-- Same scene, same steps: bit-identical states.
local function determinism()
	local function run()
		local w = tb.world{}
		w:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		for i = 1, 4 do
			w:add_box{ pos = { 0.1 * i, 0, 0.6 + 1.1 * i }, rot = tb.axis_angle({ 1, 1, 0 }, 0.3 * i) }
		end
		for _ = 1, 60 do
			w:step(1 / 60)
		end
		return w:state_hash()
	end
	check.eq(run(), run(), "state hash of two identical runs")
end

-- world:stats().islands counts the awake groups of touching or jointed bodies, with sleeping on
-- or off; setting gravity wakes the bodies that slept under the old one.
local function islands_and_gravity()
	for _, sleep in ipairs{ true, false } do
		local w = tb.world{ sleep = sleep }
		w:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		for _, x in ipairs{ -4, 0, 4 } do
			w:add_box{ pos = { x, 0, 0.5 } }
			w:add_box{ pos = { x, 0, 1.5 } }
		end
		w:step(1 / 60)
		check.eq(w:stats().islands, 3, "islands of three stacks of two boxes (sleep " .. tostring(sleep) .. ")")
		w:destroy()
	end
	local w = tb.world{}
	w:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	local box = w:add_box{ pos = { 0, 0, 0.5 } }
	for _ = 1, 240 do
		w:step(1 / 60)
	end
	check.truthy(box.sleeping, "the box fell asleep on the ground")
	w.gravity = { 0, 0, 10 }
	check.truthy(box.awake, "setting gravity woke it")
	for _ = 1, 30 do
		w:step(1 / 60)
	end
	local _, _, z = box:position()
	check.truthy(z > 1.5, "it rises under the new gravity (z = " .. z .. " m after 0.5 s; 1.75 m expected)")
	w:destroy()
end

function scene.setup(world)
	check.truthy(world:is_valid(), "the runtime passes a live world to setup")
	islands_and_gravity()
	module_functions()
	local w = world_settings()
	stepping(w)
	lifetime(w)
	determinism()
end

function scene.update(world, dt, t)
	check.near(dt, 1 / 60, 1e-7, "dt passed to update")
	check.near(t, world.time, 1e-9, "t passed to update is the world time before the step")
end

function scene.finish(world)
	check.eq(world.step_count, 2, "the runtime stepped the scene's world")
end

return scene
