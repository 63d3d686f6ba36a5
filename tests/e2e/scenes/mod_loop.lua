-- A mod stuck in an infinite loop in update: disabled by the instruction budget.
return {
	update = function(world, dt, t)
		while true do end
	end,
}
