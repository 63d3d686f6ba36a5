-- Lua API: the Character type (world:character{...}): walking, steps, jumping, crouching, riding,
-- pushing, settings and errors.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

local DT = 1 / 60

local function walk(w, ch, v, steps)
	for _ = 1, steps do
		ch:move(v, DT)
		w:step(DT)
	end
end

local function walking()
	local w = tb.world{}
	w:add_box{ size = { 40, 40, 2 }, pos = { 0, 0, -1 }, static = true }
	-- A 0.25 m step from x = 2 on.
	w:add_box{ size = { 4, 2, 0.25 }, pos = { 4, 0, 0.125 }, static = true }
	local ch = w:character{ pos = { 0, 0, 0 }, name = "hero" }
	check.eq(ch.on_ground, true, "on the ground from the start")
	check.vec({ 0, 0, 1 }, 1e-4, "ground normal", table.unpack(ch.ground_normal))
	check.eq(ch.body.name, "hero", "its body carries the name")
	check.eq(ch.body.type, "kinematic", "its body is kinematic")
	check.near(ch.height, 1.8, 1e-6, "default height")
	check.near(ch.step_height, 0.3, 1e-6, "default step height")

	walk(w, ch, { 2, 0, 0 }, 90)
	local x, y, z = ch:position()
	check.truthy(x > 3, "walked onto the step (x = " .. x .. ")")
	check.near(z, 0.25, 0.006, "feet on the step (m)")
	check.eq(ch.on_ground, true, "standing on it")
	check.vec({ 2, 0, 0 }, 1e-3, "walking velocity (m/s)", ch:velocity())
	local bx, by, bz = ch.body:position()
	check.near(bz, z + 0.9, 1e-4, "the body follows the feet (m)")

	-- A jump at 5 m/s: up about 1.25 m, and back on the step.
	ch:jump()
	local highest = 0
	for _ = 1, 90 do
		ch:move({ 0, 0, 0 }, DT)
		w:step(DT)
		highest = math.max(highest, select(3, ch:position()))
	end
	check.near(highest - 0.25, 1.25, 0.06, "jump height (m)")
	check.eq(ch.on_ground, true, "landed")

	ch.crouched = true
	check.eq(ch.crouched, true, "crouched")
	check.near(ch.height, 1.0, 1e-6, "crouched height")
	ch.crouched = false
	check.eq(ch.crouched, false, "stood up: room above")

	ch.jump_speed = 3
	ch.max_slope = 0.5
	ch.push_force = 10
	ch.step_height = 0.1
	check.near(ch.jump_speed, 3, 0, "jump_speed set")
	check.near(ch.max_slope, 0.5, 1e-7, "max_slope set")
	check.near(ch.push_force, 10, 0, "push_force set")
	check.near(ch.step_height, 0.1, 1e-7, "step_height set")
	check.fails(function() ch.max_slope = 2 end, "Character.max_slope: value must be at most 1.5708, got 2")
	check.fails(function() ch.jump_speed = -1 end, "Character.jump_speed: value must be a number >= 0, got -1")
	check.fails(function() ch:move({ 1, 0 }, DT) end, "move: velocity must be a table of 3 finite numbers, got {1, 0}")
	check.fails(function() ch:move({ 1, 0, 0 }, 0) end, "move: dt must be a positive number, got 0")
	check.fails(function() ch:move({ 1, 0, 0 }, 2) end, "move: dt must be in (0, 1] s, got 2")
	check.fails(function() ch.on_ground = false end, "Character.on_ground is read-only")
	ch:destroy()
	check.eq(ch:is_valid(), false, "destroyed")
	check.fails(function() ch:position() end, "attempt to use a destroyed Character")
	w:destroy()
end

local function riding_and_pushing()
	local w = tb.world{}
	w:add_box{ size = { 40, 40, 2 }, pos = { 0, 0, -1 }, static = true }
	local platform = w:add_box{ size = { 3, 3, 0.2 }, pos = { 0, 5, 1 }, kinematic = true }
	local mover = w:mover{ body = platform, path = { { 0, 5, 1 }, { 4, 5, 1 } }, speed = 1, mode = "pingpong", acceleration = 2 }
	local rider = w:character{ pos = { 0, 5, 1.1 } }
	check.eq(rider.ground_body, platform, "stands on the platform")
	local crate = w:add_box{ size = { 1, 1, 1 }, pos = { 1.5, 0, 0.5 }, mass = 20 }
	local pusher = w:character{ pos = { 0, 0, 0 } }
	local worst, pushes = 0, 0
	for _ = 1, 300 do
		rider:move({ 0, 0, 0 }, DT)
		pusher:move({ 1.5, 0, 0 }, DT)
		pushes = pushes + pusher.pushed
		w:step(DT)
		local px, py, pz = platform:position()
		local x, y, z = rider:position()
		worst = math.max(worst, math.abs(x - px), math.abs(y - py), math.abs(z - (pz + 0.1)))
	end
	check.truthy(mover.laps >= 1, "the platform went there and back")
	check.truthy(worst < 0.01, "rode within 1 cm of the platform (" .. worst .. " m)")
	check.truthy(pushes > 30, "pushed the crate (" .. pushes .. " moves)")
	check.truthy(crate:position() > 3, "the crate moved along")

	check.fails(function() w:character{ radius = 0.5, height = 0.8 } end, "character: height must be more than twice the radius (1 m), got 0.8")
	check.fails(function() w:character{ crouch_height = 2 } end, "character: crouch_height must be more than twice the radius and at most the height (1.8 m), got 2")
	check.fails(function() w:character{ max_slope = 3 } end, "character: max_slope must be an angle in [0, pi/2] (rad), got 3")
	check.fails(function() w:character{ speed = 3 } end, "character: unknown field 'speed'")
	w:destroy()
end

function scene.setup(world)
	walking()
	riding_and_pushing()
end

return scene
