-- The scene of the isolation test: its contact handler (registered in its first update, after the
-- mod's) must keep running and see events no mod changed, its world must outlive the mod, and its
-- tb.input must be its own.
local tb = require "tumble"
local scene = { steps = 60, seen = 0 }

function scene.setup(world)
	world:add_box{ name = "ground", size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	world:add_box{ name = "crate", pos = { 0, 0, 2 } }
end

function scene.update(world, dt, t)
	assert(tb.input.down("w") == false)
	if t == 0 then
		world:on("contact_begin", function(ev)
			assert(ev.a ~= "forged" and ev.b ~= "forged", "the event's bodies were forged")
			assert(ev.normal[3] ~= 99, "the event's normal was forged")
			scene.seen = scene.seen + 1
		end)
	end
end

function scene.finish(world)
	assert(scene.seen >= 1, "the scene's contact handler did not run")
	print(string.format("isolation_scene: saw %d contact events", scene.seen))
end

return scene
