-- Lua API: world:snapshot() and world:restore(s) (issue 7): the restored world repeats its
-- trajectory bit for bit, objects made after the snapshot go, destroyed ones come back, the clock
-- follows, and bad calls are refused with a message.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

-- A small world with contacts, a hinge chain, a Lua floor row and a mover: the state a snapshot
-- must carry (warm-start impulses, joints, movers, sleep).
local function build()
	local w = tb.world{}
	w:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	for i = 1, 4 do
		w:add_box{ name = "crate" .. i, pos = { 0.05 * i, 0, 0.5 + 1.02 * (i - 1) } }
	end
	local prev
	for i = 1, 3 do
		local link = w:add_box{ size = { 0.6, 0.2, 0.2 }, pos = { 3 + 0.7 * i, 0, 3 } }
		w:hinge{ a = prev, b = link, anchor = { 3 + 0.7 * i - 0.35, 0, 3 }, axis = { 0, 1, 0 } }
		prev = link
	end
	local floating = w:add_sphere{ name = "floating", radius = 0.3, pos = { -3, 0, 2 } }
	w:constraint{ b = floating, rows = function(c, dt)
		local z = c.center_b[3]
		return { { J = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }, error = math.min(z - 1, 0),
		           bias = -math.max(z - 1, 0) / dt, min = 0, max = math.huge } }
	end }
	local platform = w:add_box{ name = "platform", size = { 2, 2, 0.2 }, pos = { 0, 4, 1 }, kinematic = true }
	w:mover{ body = platform, path = { { 0, 4, 1 }, { 2, 4, 1 }, { 2, 6, 1 } }, speed = 1, mode = "loop" }
	return w
end

local function run(w, n)
	for _ = 1, n do w:step(1 / 60) end
end

local function repeats_trajectory()
	local w = build()
	run(w, 60)
	local s = w:snapshot()
	check.eq(s.step_count, 60, "Snapshot.step_count")
	check.near(s.time, 1, 1e-6, "Snapshot.time (s)")
	check.truthy(s.bytes > 1000, "Snapshot.bytes: " .. s.bytes)
	check.truthy(tostring(s):match("^Snapshot %(t = 1%.000 s, step 60, %d+ bytes%)$"), "tostring: " .. tostring(s))
	run(w, 120)
	local hash, time = w:state_hash(), w.time
	local _, _, zFloating = w:body("floating"):position()

	w:restore(s)
	check.eq(w.step_count, 60, "step_count after restore")
	check.eq(w.time, s.time, "time after restore (s)")
	run(w, 120)
	check.eq(w:state_hash(), hash, "state hash 120 steps after the restore equals the original's")
	check.eq(w.time, time, "time 120 steps after the restore (s)")
	-- The Lua floor row still works after the restore: the sphere rests on it (z = 1 m).
	local _, _, z = w:body("floating"):position()
	check.near(z, zFloating, 0, "constraint-held sphere at the same height")
	check.near(z, 1, 0.002, "constraint-held sphere on its Lua floor row (m)")

	-- A snapshot restores as often as asked.
	w:restore(s)
	run(w, 120)
	check.eq(w:state_hash(), hash, "state hash after a second restore")
	w:destroy()
end

local function objects_come_and_go()
	local w = build()
	run(w, 10)
	local crate = w:body("crate4")
	local s = w:snapshot()
	local later = w:add_sphere{ name = "later", pos = { 5, 5, 5 } }
	crate:destroy()
	check.eq(w:body("crate4"), nil, "crate4 destroyed")
	-- Drop the handles of the destroyed constraint's world too: the restored custom joint must not
	-- reach freed memory (the rows function is found by joint id, not through a stale pointer).
	for _, j in ipairs(w:joints()) do
		if j.type == "custom" then j:destroy() end
	end
	collectgarbage()
	collectgarbage()
	w:restore(s)
	check.eq(later:is_valid(), false, "a body made after the snapshot is gone")
	check.eq(w:body("later"), nil, "world:body finds no body made after the snapshot")
	check.eq(crate:is_valid(), true, "a body destroyed after the snapshot is back, same handle")
	check.eq(w:body("crate4").name, "crate4", "world:body finds it again")
	local customs = 0
	for _, j in ipairs(w:joints()) do
		if j.type == "custom" then customs = customs + 1 end
	end
	check.eq(customs, 1, "the destroyed custom joint is back")
	-- Its Joint handle was dropped with its rows function: it steps without rows, and the sphere
	-- it held falls freely.
	local _, _, z0 = w:body("floating"):position()
	run(w, 30)
	local _, _, z1 = w:body("floating"):position()
	check.truthy(z1 < z0 - 1, string.format("the sphere falls without its rows: %.3f -> %.3f m", z0, z1))
	w:destroy()
end

local function refused()
	local w = build()
	local other = tb.world{}
	local s = w:snapshot()
	check.fails(function() other:restore(s) end, "restore: the snapshot was taken from another world")
	check.fails(function() w:restore(nil) end, "restore: expected a Snapshot (from world:snapshot()), got nil")
	check.fails(function() w:restore(w) end, "restore: expected a Snapshot (from world:snapshot()), got a World")
	check.fails(function() return s.size end, "Snapshot has no field 'size'")
	-- Not from inside a step: a Lua row function tries.
	local tried
	w:constraint{ b = w:body("crate1"), rows = function()
		tried = { pcall(w.snapshot, w) }
		tried[3] = select(2, pcall(w.restore, w, s))
		return nil
	end }
	w:step(1 / 60)
	check.eq(tried[1], false, "snapshot during a step fails")
	check.truthy(tostring(tried[2]):find("snapshot: the world is locked during a step", 1, true), tostring(tried[2]))
	check.truthy(tostring(tried[3]):find("restore: the world is locked during a step", 1, true), tostring(tried[3]))
	-- Nor after destroy.
	w:destroy()
	check.fails(function() w:snapshot() end, "attempt to use a destroyed World")
	check.fails(function() w:restore(s) end, "attempt to use a destroyed World")
	other:destroy()
end

-- Snapshots are counted as Lua memory (their size rides along as a Lua block), so the collector
-- frees the ones a loop drops and the Lua heap reflects what they hold.
local function memory()
	local w = build()
	collectgarbage()
	local before = collectgarbage("count")
	local s = w:snapshot()
	local grown = (collectgarbage("count") - before) * 1024
	check.truthy(grown >= s.bytes, string.format("Lua heap grew by %d bytes for a %d-byte snapshot", grown, s.bytes))
	s = nil
	for _ = 1, 200 do w:snapshot() end
	-- Two cycles: the first runs the finalizers, the second frees the blocks.
	collectgarbage()
	collectgarbage()
	local after = (collectgarbage("count") - before) * 1024
	check.truthy(after < 50000, string.format("200 dropped snapshots leave %d bytes", after))
	w:destroy()
end

function scene.setup()
	repeats_trajectory()
	objects_come_and_go()
	refused()
	memory()
end

return scene
