-- Needs 40 MiB for a moment at step 10, when the hoarding mod beside it holds about 40 MiB: within
-- its own cap of 64 MiB, past a cap shared with the hoarder.
local mod = { steps = 0 }

function mod.update(world, dt, t)
	mod.steps = mod.steps + 1
	if mod.steps == 10 then
		local held = {}
		local block = string.rep("s", (4 << 20) - 32)
		for i = 1, 10 do
			held[i] = block .. i
		end
		print(string.format("mod_spender: held %d MiB", #held * 4))
	end
end

return mod
