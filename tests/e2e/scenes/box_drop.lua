-- A unit box dropped from 2 m onto a ground whose top face is at z = 0, and an unnamed ball.
return {
	steps = 120,
	setup = function(world)
		world:add_box{ name = "ground", size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		world:add_box{ name = "box", size = { 1, 1, 1 }, pos = { 0, 0, 2.5 } }
		world:add_sphere{ radius = 0.5, pos = { 4, 0, 1 } }
	end,
}
