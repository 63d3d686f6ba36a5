-- A loop of snapshots: each one copies the world in C, so the budget counts the copy.
return {
	setup = function(world)
		for i = 1, 200 do
			world:add_box{ pos = { 0, 0, 2 * i } }
		end
		local keep = {}
		while true do
			keep[#keep % 10 + 1] = world:snapshot()
		end
	end,
}
