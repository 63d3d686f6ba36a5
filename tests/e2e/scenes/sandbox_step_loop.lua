-- A loop of world steps: few VM instructions per iteration, so the budget counts the step's work
-- itself (this loop used to run for minutes). The host's own steps are not charged: 30 of them run
-- before update starts the loop, although one step of this world counts as more than the budget
-- the test gives (--budget 15000; the step reports what it counts as).
return {
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
		for i = 1, 60 do
			world:add_box{ pos = { (i % 8) * 1.5 - 6, (i // 8) * 1.5 - 6, 0.5 } }
		end
	end,
	update = function(world, dt, t)
		if world.step_count == 30 then
			while true do
				world:step(1 / 60)
			end
		end
	end,
}
