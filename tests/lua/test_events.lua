-- Lua API: contact and sensor events, handler errors, queries (raycast, overlaps) and contacts().
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

local function ground(w)
	return w:add_box{ name = "ground", size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
end

local function length(v)
	return math.sqrt(v[1] * v[1] + v[2] * v[2] + v[3] * v[3])
end

local function contact_events()
	local w = tb.world{}
	local floor = ground(w)
	-- Bottom face 1 m above the ground: it hits at sqrt(2 g h) = sqrt(20) m/s.
	local box = w:add_box{ name = "box", pos = { 0, 0, 1.5 } }
	local begins, ends = {}, {}
	local on_begin = w:on("contact_begin", function(ev) begins[#begins + 1] = ev end)
	check.eq(type(on_begin), "function", "on returns the handler")
	w:on("contact_end", function(ev) ends[#ends + 1] = ev end)
	for _ = 1, 90 do
		w:step(1 / 60)
	end
	check.truthy(#begins >= 1, "a contact began")
	local ev = begins[1]
	check.truthy((ev.a == box and ev.b == floor) or (ev.a == floor and ev.b == box), "event bodies are the handles")
	check.near(length(ev.normal), 1, 1e-4, "normal is a unit vector")
	check.near(math.abs(ev.normal[3]), 1, 0.01, "normal is vertical")
	check.near(ev.point[3], 0, 0.05, "contact point on the ground's top (m)")
	check.near(math.abs(ev.speed), math.sqrt(20), 0.5, "approach speed (m/s)")

	-- Lifting the box away ends the contact.
	box:set_position(0, 0, 5)
	box:set_velocity(0, 0, 0)
	w:step(1 / 60)
	check.truthy(#ends >= 1, "a contact ended")
	check.truthy(ends[#ends].a == box or ends[#ends].b == box, "the ended contact is the box's")

	-- off(event, fn) removes that handler; no new begin events are recorded.
	w:off("contact_begin", on_begin)
	local count = #begins
	for _ = 1, 90 do
		w:step(1 / 60)
	end
	check.eq(#begins, count, "no events after off")

	check.fails(function() w:on("contact_bgin", print) end, "on: invalid event 'contact_bgin'")
	check.fails(function() w:on("contact_begin", 5) end, "on: handler must be a function, got 5")
	check.fails(function() w:off("nope") end, "off: invalid event 'nope'")
	check.fails(function() w:off("contact_end", "x") end, "off: handler must be a function or nil, got 'x'")
	w:destroy()
end

local function handler_errors()
	local w = tb.world{}
	ground(w)
	local box = w:add_box{ pos = { 0, 0, 0.6 } }
	local calls = 0
	w:on("contact_begin", function() calls = calls + 1 error("boom") end)
	w:on("contact_begin", function() calls = calls + 1 end)
	local ok, err
	for _ = 1, 60 do
		ok, err = pcall(w.step, w, 1 / 60)
		if not ok then
			break
		end
	end
	check.eq(ok, false, "the handler's error is raised by step")
	check.truthy(tostring(err):find("boom", 1, true), "the first error is kept: " .. tostring(err))
	check.truthy(calls >= 2 and calls % 2 == 0, "every handler ran for every event despite the error")
	-- The world is fine afterwards.
	w:off("contact_begin")
	w:step(1 / 60)

	-- step from a handler is refused (reported after the step).
	w:on("contact_begin", function() w:step(1 / 60) end)
	box:set_position(0, 0, 3)
	w:step(1 / 60)
	ok, err = true, nil
	for _ = 1, 120 do
		ok, err = pcall(w.step, w, 1 / 60)
		if not ok then
			break
		end
	end
	check.truthy(not ok and tostring(err):find("step: cannot step the world from its own event handler", 1, true),
		"nested step refused: " .. tostring(err))
	w:off("contact_begin")

	-- A handler may destroy bodies; the other handlers still get their event tables.
	local seen
	w:on("contact_begin", function(ev) if ev.a:is_valid() and ev.a ~= w:body("ground") then ev.a:destroy() end if ev.b:is_valid() and ev.b ~= w:body("ground") then ev.b:destroy() end end)
	w:on("contact_begin", function(ev) seen = ev end)
	box:set_position(0, 0, 1)
	for _ = 1, 60 do
		w:step(1 / 60)
		if seen then
			break
		end
	end
	check.truthy(seen, "second handler ran")
	check.eq(box:is_valid(), false, "box destroyed by the first handler")
	w:destroy()
end

local function sensor_events()
	local w = tb.world{}
	ground(w)
	local gate = w:add_box{ name = "gate", size = { 2, 2, 0.2 }, pos = { 0, 0, 2 }, static = true, sensor = true }
	local ball = w:add_sphere{ radius = 0.25, pos = { 0, 0, 4 } }
	local entered, left
	w:on("sensor_begin", function(ev) entered = entered or ev end)
	w:on("sensor_end", function(ev) left = left or ev end)
	for _ = 1, 120 do
		w:step(1 / 60)
	end
	check.truthy(entered, "the ball entered the sensor")
	check.eq(entered.sensor, gate, "sensor body")
	check.eq(entered.visitor, ball, "visitor body")
	check.truthy(left, "the ball left the sensor")
	-- A sensor has no response: the ball fell through it onto the ground.
	check.near(select(3, ball:position()), 0.25, 0.02, "ball rests on the ground (m)")
	w:destroy()
end

local function queries()
	local w = tb.world{ gravity = { 0, 0, 0 } }
	local box = w:add_box{ size = { 2, 2, 2 }, static = true }
	local hit = w:raycast({ 0, 0, 10 }, { 0, 0, -10 })
	check.truthy(hit, "ray hits the box")
	check.eq(hit.body, box, "hit body")
	check.vec({ 0, 0, 1 }, 1e-4, "hit point on the top face (m)", table.unpack(hit.point))
	check.vec({ 0, 0, 1 }, 1e-4, "hit normal", table.unpack(hit.normal))
	check.near(hit.fraction, 9 / 20, 1e-4, "hit fraction")
	check.eq(w:raycast({ 5, 5, 10 }, { 5, 5, -10 }), nil, "a miss is nil")
	check.fails(function() w:raycast({ 0, 0 }, { 0, 0, 1 }) end, "raycast: from must be a table of 3 finite numbers, got {0, 0}")
	check.fails(function() w:raycast({ 0, 0, 0 }, { 0, 0, 0 / 0 }) end, "raycast: to must be a table of 3 finite numbers, got {0, 0, nan}")

	local near = w:overlap_sphere({ 0, 0, 1.5 }, 1)
	check.eq(#near, 1, "sphere overlap count")
	check.eq(near[1], box, "sphere overlap body")
	check.eq(#w:overlap_sphere({ 0, 0, 5 }, 1), 0, "sphere far away")
	check.eq(w:overlap_box({ -0.5, -0.5, -0.5 }, { 0.5, 0.5, 0.5 })[1], box, "box overlap")
	check.fails(function() w:overlap_sphere({ 0, 0, 0 }, 0) end, "overlap_sphere: radius must be a positive number, got 0")
	check.fails(function() w:overlap_box({ 1, 1, 1 }, { 0, 0, 0 }) end, "overlap_box: lower must be <= upper in x, y and z")
	w:destroy()
end

local function contacts()
	local w = tb.world{}
	local floor = ground(w)
	local box = w:add_box{ pos = { 0, 0, 0.5 } }
	for _ = 1, 30 do
		w:step(1 / 60)
	end
	local list = w:contacts()
	check.truthy(#list >= 3, "a resting box has a full manifold (" .. #list .. " points)")
	for _, c in ipairs(list) do
		check.truthy((c.a == box and c.b == floor) or (c.a == floor and c.b == box), "contact bodies")
		check.near(math.abs(c.normal[3]), 1, 0.01, "contact normal is vertical")
		check.near(c.point[3], 0, 0.05, "contact point height (m)")
		check.near(c.separation, 0, 0.02, "separation (m)")
		check.truthy(c.impulse >= 0, "normal impulse is a push")
	end
	w:destroy()

	-- The impulses are the whole step's: a resting box of mass m is held by m g dt in all (soft
	-- mode used to report one sub-step's, an eighth of it), in every solver mode.
	for _, solver in ipairs({ "soft", "baumgarte", "split" }) do
		local rest = tb.world{ solver = solver }
		local restFloor = ground(rest)
		local crate = rest:add_box{ pos = { 0, 0, 0.5 }, mass = 3 }
		local dt = 1 / 60
		for _ = 1, 120 do
			rest:step(dt)
		end
		local sum = 0
		for _, c in ipairs(rest:contacts()) do
			check.truthy((c.a == crate and c.b == restFloor) or (c.a == restFloor and c.b == crate), "contact bodies")
			sum = sum + c.impulse
		end
		check.near(sum, 3 * 10 * dt, 0.05 * 3 * 10 * dt, solver .. ": normal impulses of a resting 3 kg box over a step (N s)")
		rest:destroy()
	end
end

-- layer/mask/group reach the core: a body whose mask excludes the ground's layer falls through it.
local function filtering()
	local w = tb.world{}
	ground(w) -- layer 1
	local ghost = w:add_box{ pos = { 0, 0, 1 }, layer = 2, mask = 2 }
	local solid = w:add_box{ pos = { 3, 0, 1 }, layer = 2, mask = 1 }
	local loner = w:add_box{ pos = { -3, 0, 1 }, group = -1 }
	for _ = 1, 60 do
		w:step(1 / 60)
	end
	check.truthy(select(3, ghost:position()) < -1, "a body not colliding with layer 1 falls through the ground")
	check.near(select(3, solid:position()), 0.5, 0.02, "a body whose mask includes layer 1 lands (m)")
	check.near(select(3, loner:position()), 0.5, 0.02, "a negative group alone still collides with others (m)")
	w:destroy()
end

-- Bodies destroyed between steps: their contact_end and sensor_end events come with the next step
-- (they were dropped when the step cleared the buffers), the destroyed body nil, and only once.
local function ends_of_destroyed_bodies()
	local w = tb.world{}
	local floor = ground(w)
	local gate = w:add_box{ size = { 2, 2, 2 }, pos = { 5, 0, 1 }, static = true, sensor = true }
	local crate = w:add_box{ pos = { 0, 0, 0.5 } }
	local ball = w:add_sphere{ radius = 0.25, pos = { 5, 0, 1 }, gravity_scale = 0 }
	local ends, sensor_ends = {}, {}
	w:on("contact_end", function(ev) ends[#ends + 1] = ev end)
	w:on("sensor_end", function(ev) sensor_ends[#sensor_ends + 1] = ev end)
	for _ = 1, 10 do
		w:step(1 / 60)
	end
	check.eq(#ends + #sensor_ends, 0, "no end events while resting and inside")
	crate:destroy()
	ball:destroy()
	w:step(1 / 60)
	check.eq(#ends, 1, "contact_end of the destroyed crate")
	check.truthy(ends[1].a == nil and ends[1].b == floor or ends[1].b == nil and ends[1].a == floor,
		"the crate's side is nil, the other is the floor")
	check.eq(#sensor_ends, 1, "sensor_end of the destroyed ball")
	check.eq(sensor_ends[1].sensor, gate, "sensor body")
	check.eq(sensor_ends[1].visitor, nil, "the destroyed visitor is nil")
	w:step(1 / 60)
	check.eq(#ends + #sensor_ends, 2, "reported once")
	w:destroy()
end

function scene.setup(world)
	ends_of_destroyed_bodies()
	filtering()
	contact_events()
	handler_errors()
	sensor_events()
	queries()
	contacts()
end

return scene
