-- Runs after mod_budget_spin in the same dispatch, once: its handler needs about 1.2 million
-- instructions (two per iteration), within its own budget of 2 million, after the spinner spent all
-- of its.
local mod = { runs = 0 }
function mod.setup(world)
	world:on("contact_begin", function(ev)
		if mod.runs > 0 then return end
		local x = 0
		for k = 1, 600000 do x = x + k end
		mod.runs = mod.runs + 1
		print(string.format("mod_budget_worker: handler ran %d times, step %d", mod.runs, world.step_count))
	end)
end
return mod
