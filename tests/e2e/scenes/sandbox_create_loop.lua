-- A creation loop: refused once the world is at the physics budget (it used to run until the
-- instruction budget, gigabytes later).
return {
	setup = function(world)
		local def = { pos = { 0, 0, 0 } }
		while true do world:add_box(def) end
	end,
}
