-- A mod that tries to eat all memory in setup: strings doubled by concatenation, all kept.
return {
	setup = function(world)
		local t = { "y" }
		while true do
			t[#t + 1] = t[#t] .. t[#t]
		end
	end,
}
