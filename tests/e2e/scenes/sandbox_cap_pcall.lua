-- A sandboxed scene reaching the body cap inside pcall: body 1001 is not made, and the scene goes on
-- ("the program and the world go on").
return {
	steps = 5,
	setup = function(world)
		local made = 0
		while pcall(world.add_box, world, { pos = { (made % 40) * 2, (made // 40) * 2, 0 }, static = true }) do
			made = made + 1
		end
		assert(made == 1000, made)
	end,
}
