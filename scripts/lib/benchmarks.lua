-- Scene tables for the benchmark scenes of shared/bench/SCENES.md that come in several sizes.
-- By its installed name, which the runtime also accepts in a checkout: plain lua5.4 with the
-- installed tree on its path finds it too, where the bare "expect" is not on the path.
local expect = require "tumble.expect"

local benchmarks = {}

--- `chainsN`: n chains of 100 cubes (half extent 0.25 m, 1 kg) joined by hinges about +y, hanging
-- from the static world at z = 60 and released horizontally. No collision shapes, no ground,
-- sleeping off, 10 iterations, 600 steps. Shorter runs (--steps N) check the joints at that point.
function benchmarks.chains(n)
	local scene = {
		world = { gravity = { 0, 0, -10 }, iterations = 10, sleep = false },
		steps = 600,
	}

	function scene.setup(world)
		scene.joints = {}
		for c = 0, n - 1 do
			local y = 2 * c - (n - 1)
			local previous = nil -- link 0 hangs from the static world
			for k = 0, 99 do
				-- layer = 0, mask = 0: the broad phase never pairs them (the spec's "no collision shape").
				local link = world:add_box{ size = { 0.5, 0.5, 0.5 }, mass = 1, pos = { 0.25 + 0.5 * k, y, 60 },
				                            layer = 0, mask = 0, name = (k == 99) and ("tail" .. c) or nil }
				scene.joints[#scene.joints + 1] = world:hinge{ a = previous, b = link, anchor = { 0.5 * k, y, 60 },
				                                               axis = { 0, 1, 0 } }
				previous = link
			end
		end
		scene.run_max = 0
	end

	function scene.update(world)
		scene.run_max = math.max(scene.run_max, (expect.joint_errors(scene.joints)))
	end

	function scene.finish(world)
		local gap = expect.joint_errors(scene.joints)
		local lowest = math.huge
		for c = 0, n - 1 do
			local _, _, z = world:body("tail" .. c):position()
			lowest = math.min(lowest, z)
		end
		print(("chains%d: after %d steps max anchor gap %.4f m, during the run %.4f m (Bullet 2.87 m, ODE 3.16 m "
			.. "for 20 chains), lowest chain end z %.2f m"):format(n, world.step_count, gap, scene.run_max, lowest))
		expect.below(gap, 0.05, "largest anchor gap at the end (m)")
		expect.below(scene.run_max, 0.5, "largest anchor gap during the run (m)")
		-- A 50 m chain hanging from z = 60 reaches no lower than z = 10.
		expect.above(lowest, 9.9, "lowest chain end (z, m)")
	end

	return scene
end

return benchmarks
