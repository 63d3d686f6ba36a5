-- A loop of queries over a big world: C work the instruction charges do not price, stopped by the
-- CPU-time limit of a call (max(3 s, budget x 200 ns)).
return {
	setup = function(world)
		for i = 1, 900 do
			world:add_box{ pos = { (i % 30) * 1.1, (i // 30) * 1.1, 0 }, static = true }
		end
		local lo, hi = { -1e3, -1e3, -1e3 }, { 1e3, 1e3, 1e3 }
		while true do
			world:overlap_box(lo, hi)
		end
	end,
}
