-- A mod whose contact handler fails: disabled, the others keep running.
return {
	setup = function(world)
		world:add_sphere{ name = "handler_ball", radius = 0.25, pos = { -3, 0, 1 } }
		world:on("contact_begin", function(ev) error("handler mod failed on purpose") end)
	end,
}
