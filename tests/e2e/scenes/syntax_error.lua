-- Does not compile.
return {
	setup = function(world)
		world:add_box{ size = { 1, 1, 1 } ]
	end,
}
