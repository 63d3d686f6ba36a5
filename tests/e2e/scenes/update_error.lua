-- Fails in update at the third step.
return {
	setup = function(world)
		world:add_box{ name = "box" }
	end,
	update = function(world, dt, t)
		if world.step_count == 2 then
			local missing = nil
			return missing.field -- line 9
		end
	end,
}
