-- Handlers nested deeper than the host's saved call states: a contact handler of world w[i] steps
-- world w[i + 1], 24 levels deep; then the outermost handler loops (the levels past the 16th were
-- not saved but restored, which left the outer levels with the trusted scene's unlimited state).
local mod = {}
local tb = require "tumble"
local depth = 24
function mod.setup(world)
	local worlds = { world }
	for i = 2, depth do
		local w = tb.world{}
		w:add_box{ size = { 4, 4, 1 }, pos = { 0, 0, -0.5 }, static = true }
		w:add_box{ pos = { 0, 0, 0.45 } }
		worlds[i] = w
	end
	world:add_box{ name = "nest_box", pos = { 6, 0, 0.45 } }
	for i = 1, depth do
		worlds[i]:on("contact_begin", function(ev)
			if i < depth then worlds[i + 1]:step(1 / 60) end
			if i == 1 then while true do end end
		end)
	end
	mod.worlds = worlds
end
return mod
