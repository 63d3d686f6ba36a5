-- A contact handler that never returns: stopped by its own budget, in its own state.
return {
	setup = function(world)
		world:add_sphere{ name = "spin_ball", radius = 0.25, pos = { 2, 0, 0.5 } }
		world:on("contact_begin", function(ev) while true do end end)
	end,
}
