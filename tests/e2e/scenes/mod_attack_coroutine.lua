-- The budget runs out inside a coroutine (whose hook then fires at every instruction); the main
-- thread, whose own hook still counts in steps of 1000, swallows it with pcall in a loop.
return {
	update = function(world, dt, t)
		coroutine.resume(coroutine.create(function() while true do end end))
		while true do pcall(function() for i = 1, 100 do end end) end
	end,
}
