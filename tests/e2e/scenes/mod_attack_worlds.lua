-- Worlds and worker threads are outside the memory cap: a mod asking for 127 worlds of 16 threads
-- each (1,905 threads) gets its threads refused, then its worlds stopped at the sandbox's 32.
local tb = require "tumble"
local mod = { worlds = {} }
function mod.setup(world)
	local ok, err = pcall(tb.world, { threads = 16 })
	print("mod_attack_worlds: 16 threads: " .. (ok and "made" or err))
	ok, err = pcall(function() world.threads = 16 end)
	print("mod_attack_worlds: world.threads = 16: " .. (ok and "set" or err))
	for i = 1, 127 do
		ok, err = pcall(tb.world, { threads = 4 })
		if not ok then
			print(string.format("mod_attack_worlds: made %d worlds, then: %s", #mod.worlds, err))
			break
		end
		mod.worlds[i] = err
	end
end
return mod
