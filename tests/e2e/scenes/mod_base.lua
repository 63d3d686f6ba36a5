-- A base scene for the mod tests: a ground and a named crate.
return {
	steps = 60,
	setup = function(world)
		world:add_box{ name = "ground", size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		world:add_box{ name = "crate", pos = { 0, 0, 0.5 } }
	end,
	update = function(world, dt, t)
		assert(world:body("crate"), "the crate exists")
	end,
}
