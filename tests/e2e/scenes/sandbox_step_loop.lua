-- A loop of world steps: few VM instructions per iteration, so the budget counts the step's work
-- itself (this loop used to run for minutes). The host's own steps are not charged: 30 of them run
-- before update starts the loop, although a step of this world counts as more than the budget the
-- test gives (--budget 15000; the error says what a step counts as). The 60 boxes are made 12 per
-- update, as each creation counts too.
return {
	setup = function(world)
		world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	end,
	update = function(world, dt, t)
		if world.step_count < 5 then
			for i = 1, 12 do
				local n = 12 * world.step_count + i
				world:add_box{ pos = { (n % 8) * 1.5 - 6, (n // 8) * 1.5 - 6, 0.5 } }
			end
		elseif world.step_count == 30 then
			while true do
				world:step(1 / 60)
			end
		end
	end,
}
