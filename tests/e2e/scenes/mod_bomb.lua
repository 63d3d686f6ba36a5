-- A mod that tries to eat all memory in setup.
return {
	setup = function(world)
		local t = {}
		for i = 1, 1e9 do
			t[i] = ("y"):rep(1e5) .. i
		end
	end,
}
