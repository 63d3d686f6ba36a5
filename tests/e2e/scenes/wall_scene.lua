-- The scene of the mod-state tests (tests/e2e/mod_states.sh): trusted, it checks every step that
-- nothing a mod did to its own globals, library tables, module table or the handles it was given
-- reached the scene; it records the most Lua memory it saw (collectgarbage counts its own state
-- only) over its first 9 steps, and can hold 40 MiB for a moment at step 10 while a mod beside it
-- is at its cap.
local tb = require "tumble"
local scene = { steps = 30, seen = 0, worst_kb = 0, contacts = 0 }
local format = string.format

function scene.setup(world)
	world:add_box{ name = "ground", size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	world:add_box{ name = "crate", pos = { 0, 0, 0.6 } }
	-- A constraint with no rows: its rows function (a closure over the scene) must stay the scene's.
	local bob = world:add_sphere{ radius = 0.2, pos = { 5, 0, 3 }, gravity_scale = 0 }
	world:constraint{ name = "scene_rows", a = bob, rows = function(c, dt)
		scene.rows_calls = (scene.rows_calls or 0) + 1
		return {}
	end }
	world:on("contact_begin", function(ev)
		-- The scene is trusted: 2 million instructions, a mod's whole budget in the budget run.
		local x = 0
		for k = 1, 1000000 do x = x + k end
		scene.contacts = scene.contacts + 1
	end)
end

function scene.update(world, dt, t)
	assert(string.x == nil and rawget(_G, "hijacked") == nil, "a mod's globals reached the scene")
	assert(string.format == format and format("%d", 7) == "7", "a mod replaced the scene's string.format")
	assert(table.insert ~= nil and math.floor(2.5) == 2, "a mod changed the scene's library tables")
	assert(type(tb.world) == "function" and tb.input.down("w") == false, "a mod changed the scene's tumble module")
	local crate = world:body("crate")
	assert(crate == world:body("crate"), "one handle per body within a state")
	local x, y, z = crate:position()
	assert(type(world.step) == "function" and z > 0, "a mod changed the scene's World or Body methods")
	scene.seen = scene.seen + 1
	if scene.seen < 10 then
		scene.worst_kb = math.max(scene.worst_kb, collectgarbage("count"))
	elseif scene.seen == 10 and os.getenv("WALL_SCENE_SPEND") then
		local held, block = {}, string.rep("s", (4 << 20) - 32)
		for i = 1, 10 do held[i] = block .. i end
		print(format("wall_scene: held %d MiB", #held * 4))
	end
end

function scene.finish(world)
	print(format("wall_scene: the view holds %d items; the world made %d steps, t = %.4f", tb.draw.count(),
		world.step_count, world.time))
	print(format("wall_scene: clean for %d steps, %d contact events, at most %.0f KB of Lua memory, %d rows calls",
		scene.seen, scene.contacts, scene.worst_kb, scene.rows_calls or 0))
end

return scene
