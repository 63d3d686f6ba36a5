-- Runs out of memory inside a contact handler, which the scene's step runs in the mod's state: the
-- mod is stopped with its file and what it holds in the error, its state freed at the step's end.
local mod = {}
function mod.setup(world)
	world:on("contact_begin", function(ev)
		local t = { "y" }
		while true do t[#t + 1] = t[#t] .. t[#t] end
	end)
end
return mod
