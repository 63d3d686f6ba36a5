-- Three joints: an intact hinge, a disabled ball joint whose ball falls 4.8 m from its anchor, and
-- a weak distance joint that breaks under its ball. The largest joint error figure (the viewer's
-- plot, the soak report) must count the hinge only.
return {
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		local arm = world:add_box{ size = { 1, 0.2, 0.2 }, pos = { 0.5, 0, 3 } }
		world:hinge{ name = "hinge", a = arm, anchor = { 0, 0, 3 }, axis = { 0, 1, 0 } }
		local loose = world:add_sphere{ radius = 0.2, pos = { 3, 0, 5 } }
		world:ball{ name = "disabled", a = loose, anchor = { 3, 0, 5 }, enabled = false }
		local heavy = world:add_sphere{ radius = 0.2, pos = { -3, 0, 5 }, mass = 50 }
		world:distance{ name = "weak", a = heavy, anchor_a = { -3, 0, 5 }, anchor_b = { -3, 0, 6 }, break_force = 10 }
	end,
}
