-- Handler fan-out: 2,000 handlers, each well within a budget per call, together 200 times past it.
return {
	setup = function(world)
		for i = 1, 2000 do
			world:on("contact_begin", function(ev) for k = 1, 100000 do end end)
		end
	end,
}
