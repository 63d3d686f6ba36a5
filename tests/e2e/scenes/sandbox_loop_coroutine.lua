-- An infinite loop hidden in coroutines whose errors are swallowed by coroutine.resume.
return {
	update = function(world, dt, t)
		while true do
			coroutine.resume(coroutine.create(function() while true do end end))
		end
	end,
}
