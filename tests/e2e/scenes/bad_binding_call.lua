-- A bad binding call in setup: the error names this file and line.
return {
	setup = function(world)
		world:add_box{ size = { 1, 0, 1 } } -- line 4
	end,
}
