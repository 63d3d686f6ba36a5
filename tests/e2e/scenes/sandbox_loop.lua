-- An infinite loop in update: stopped by the instruction budget.
return {
	update = function(world, dt, t)
		local n = 0
		while true do
			n = n + 1
		end
	end,
}
