-- An unprotected memory bomb in setup.
return {
	setup = function(world)
		local parts = {}
		for i = 1, 1e9 do
			parts[i] = string.rep("x", 1e6) .. i
		end
	end,
}
