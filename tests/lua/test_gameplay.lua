-- Lua API: gameplay settings changed while running (layer, mask, group, sensor, fixed_rotation),
-- explosions and one-way bodies.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

local function step(w, n)
	for _ = 1, n do
		w:step(1 / 60)
	end
end

local function runtime_changes()
	local w = tb.world{}
	w:add_box{ size = { 40, 40, 2 }, pos = { 0, 0, -1 }, static = true }
	local crate = w:add_box{ pos = { 0, 0, 0.5 } }
	local ghost = w:add_box{ pos = { 3, 0, 3 }, mask = 0 }
	check.eq(crate.layer, 1, "default layer")
	check.eq(crate.mask, -1, "default mask: all bits")
	check.eq(ghost.mask, 0, "mask given")
	check.eq(crate.group, 0, "default group")
	check.eq(crate.sensor, false, "not a sensor")
	check.eq(crate.fixed_rotation, false, "rotates")

	-- The ghost (mask 0) falls; given the ground's layer back on the way down, it lands.
	step(w, 20)
	ghost.mask = 1
	check.eq(ghost.mask, 1, "mask set")
	step(w, 120)
	check.near(select(3, ghost:position()), 0.5, 0.01, "the ghost landed (m)")

	-- The crate's mask stops leaving out the ground: it falls through.
	crate.mask = ~1
	step(w, 60)
	check.truthy(select(3, crate:position()) < -1, "the crate fell through the ground")

	ghost.layer = 4
	check.eq(ghost.layer, 4, "layer set")
	ghost.group = -2
	check.eq(ghost.group, -2, "group set")
	ghost.sensor = true
	check.eq(ghost.sensor, true, "sensor set")
	step(w, 60)
	check.truthy(select(3, ghost:position()) < -1, "a sensor falls through the ground")

	ghost.fixed_rotation = true
	check.eq(ghost.fixed_rotation, true, "fixed_rotation set")
	ghost:apply_impulse({ 0, 100, 0 }, { ghost:to_world(0.5, 0, 0) })
	check.vec({ 0, 0, 0 }, 0, "no spin with fixed rotation", ghost:angular_velocity())

	check.fails(function() ghost.mask = 1.5 end, "Body.mask: must be an integer of layer bits, got 1.5")
	check.fails(function() ghost.group = 2 ^ 40 end, "Body.group: must be an integer in [-2^31, 2^31 - 1], got 1099511627776")
	check.fails(function() ghost.sensor = 1 end, "Body.sensor: value must be true or false, got 1")
	check.fails(function() ghost.fixed_rotation = "yes" end, "Body.fixed_rotation: value must be true or false, got 'yes'")
	w:destroy()
end

local function explosions()
	local w = tb.world{ gravity = { 0, 0, 0 } }
	-- Masses 2 kg and 4 kg: radius 0.5, density chosen by mass.
	local banded = w:add_sphere{ radius = 0.5, pos = { 3, 0, 0 }, mass = 2 }
	local inside = w:add_sphere{ radius = 0.5, pos = { 0, 1.5, 0 }, mass = 4 }
	local far = w:add_sphere{ radius = 0.5, pos = { 0, 0, -4 }, mass = 1 }
	local wall = w:add_box{ pos = { -1.5, 0, 0 }, static = true }
	check.eq(w:explode{ center = { 0, 0, 0 }, impulse = 10, radius = 2, falloff = 1 }, 2, "bodies pushed")
	check.vec({ 2.5, 0, 0 }, 1e-5, "half of 10 N s on 2 kg (m/s)", banded:velocity())
	check.vec({ 0, 2.5, 0 }, 1e-5, "all of 10 N s on 4 kg (m/s)", inside:velocity())
	check.vec({ 0, 0, 0 }, 0, "out of reach", far:velocity())
	check.vec({ 0, 0, 0 }, 0, "static bodies stay", wall:velocity())
	check.eq(w:explode{ center = { 0, 0, 0 }, impulse = 10, radius = 10, mask = 2 }, 0, "no body on layer 2")
	check.fails(function() w:explode{ impulse = 1 } end, "explode: center must be 3 finite numbers, got nil")
	check.fails(function() w:explode{ center = { 0, 0, 0 } } end, "explode: impulse must be a finite number (N s), got nil")
	check.fails(function() w:explode{ center = { 0, 0, 0 }, impulse = 1, radius = -1 } end, "explode: radius must be a number >= 0, got -1")
	w:destroy()
end

local function one_way()
	local w = tb.world{ sleep = false }
	w:add_box{ size = { 40, 40, 2 }, pos = { 0, 0, -1 }, static = true }
	local ledge = w:add_box{ size = { 4, 4, 0.2 }, pos = { 0, 0, 2 }, static = true, one_way = { 0, 0, 3 } }
	check.vec({ 0, 0, 1 }, 1e-6, "one_way is the unit normal", table.unpack(ledge.one_way))
	local ball = w:add_sphere{ radius = 0.25, pos = { 0, 0, 0.25 }, vel = { 0, 0, 8 } }
	local highest = 0
	for _ = 1, 240 do
		w:step(1 / 60)
		highest = math.max(highest, select(3, ball:position()))
	end
	check.truthy(highest > 3.3, "rose through the ledge (" .. highest .. " m)")
	check.near(select(3, ball:position()), 2.35, 0.01, "landed on the ledge (m)")

	-- Solid again: a second ball launched from below bounces off its underside.
	ledge.one_way = nil
	check.eq(ledge.one_way, nil, "solid")
	local other = w:add_sphere{ radius = 0.25, pos = { 1, 1, 0.25 }, vel = { 0, 0, 8 } }
	highest = 0
	for _ = 1, 240 do
		w:step(1 / 60)
		highest = math.max(highest, select(3, other:position()))
	end
	check.truthy(highest < 1.9, "stopped under the ledge (" .. highest .. " m)")
	ledge.one_way = { 0, 0, 1 }
	ledge.one_way = false
	check.eq(ledge.one_way, nil, "false is solid too")
	check.fails(function() ledge.one_way = { 0, 0, 0 } end, "Body.one_way: value must be a table of 3 finite numbers, not all zero, got {0, 0, 0}")
	check.fails(function() w:add_box{ one_way = { 0, 0 } } end, "add_box: one_way must be 3 finite numbers, not all zero, got {0, 0}")
	w:destroy()
end

-- Springs in N/m: 3 kg hung from the world on 300 N/m, critically damped, stretches m g / k = 0.1 m;
-- 12 kg on the same spring 0.4 m (a frequency in Hz would stretch both alike).
local function springs()
	local w = tb.world{ sleep = false }
	local light = w:add_sphere{ radius = 0.1, pos = { 0, 0, 4 }, mass = 3 }
	local heavy = w:add_sphere{ radius = 0.1, pos = { 3, 0, 4 }, mass = 12 }
	local a = w:distance{ b = light, anchor_a = { 0, 0, 5 }, length = 1, spring = { stiffness = 300, damper = 2 * math.sqrt(300 * 3) } }
	local b = w:distance{ b = heavy, anchor_a = { 3, 0, 5 }, length = 1, spring = { stiffness = 300, damper = 2 * math.sqrt(300 * 12) } }
	check.near(a.spring.stiffness, 300, 0, "spring.stiffness")
	check.near(a.spring.damper, 2 * math.sqrt(900), 1e-4, "spring.damper")
	check.eq(a.spring.hz, nil, "no hz in the N/m form")
	for _ = 1, 240 do
		w:step(1 / 60)
	end
	check.near(a.current_length - 1, 0.1, 0.001, "3 kg stretch (m)")
	check.near(b.current_length - 1, 0.4, 0.002, "12 kg stretch (m)")
	a.spring = { hz = 3, damping = 1 }
	check.near(a.spring.hz, 3, 1e-6, "back to the hz form")
	check.eq(a.spring.stiffness, nil, "no stiffness in the hz form")
	a.spring = { stiffness = 100 }
	check.near(a.spring.stiffness, 100, 0, "stiffness set")
	check.fails(function() a.spring = { hz = 3, stiffness = 100 } end, "Joint.spring: give hz and damping or stiffness and damper, not both")
	check.fails(function() a.spring = { damper = 3 } end, "Joint.spring: stiffness must be a positive number (N/m) with damper, got nil")
	check.fails(function() w:distance{ b = light, anchor_a = { 0, 0, 5 }, spring = { stiffness = -5 } } end, "distance: spring.stiffness must be a positive number, got -5")
	w:destroy()
end

function scene.setup(world)
	springs()
	one_way()
	runtime_changes()
	explosions()
end

return scene
