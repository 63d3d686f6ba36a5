-- Benchmark scene `ragdolls` (shared/bench/SCENES.md): 100 ragdolls of 11 capsules (the table of
-- scripts/lib/ragdolls.lua) in 4 layers of 5 x 5, each turned by 0.7 k rad, dropped into a pile.
-- Sleeping off, 10 iterations, friction 0.5, 600 steps. Metrics: joint gaps, swing and twist limit
-- excess, bodies below the ground. Shorter runs (--steps N) check the same at that point.
local ragdolls = require "ragdolls"
local expect = require "expect"

local scene = {
	title = "Benchmark: 100 ragdolls",
	description = "100 ragdolls of 11 capsules dropped into a pile: joint gaps and limits under many contacts.",
	world = { gravity = { 0, 0, -10 }, iterations = 10, sleep = false },
	steps = 600,
}

function scene.setup(world)
	world:add_box{ name = "ground", size = { 400, 400, 2 }, pos = { 0, 0, -1 }, static = true, friction = 0.5 }
	scene.dolls, scene.joints = {}, {}
	for k = 0, 99 do
		local layer, j = k // 25, k % 25
		local gx, gy = j % 5, j // 5
		local off = 0.5 * (layer % 2)
		local doll = ragdolls.build(world, { pos = { gx - 2 + off, gy - 2 + off, 0.05 + 2.2 * layer }, yaw = 0.7 * k,
		                                    friction = 0.5 })
		scene.dolls[k + 1] = doll
		for _, joint in ipairs(doll.joints) do
			scene.joints[#scene.joints + 1] = joint
		end
	end
	scene.run_max = 0
end

function scene.update(world)
	scene.run_max = math.max(scene.run_max, (expect.joint_errors(scene.joints)))
end

function scene.finish(world)
	local gap = expect.joint_errors(scene.joints)
	local swing, twist = 0, 0
	local below, top = 0, 0
	for _, doll in ipairs(scene.dolls) do
		local s, t = ragdolls.limit_excess(doll)
		swing, twist = math.max(swing, s), math.max(twist, t)
		for _, part in ipairs(doll.parts) do
			local _, _, z = part:position()
			below = below + (z < 0 and 1 or 0)
			top = math.max(top, z)
		end
	end
	print(("ragdolls: after %d steps joint gap %.4f m (during the run %.4f m), swing excess %.2f deg, twist excess "
		.. "%.2f deg, %d centres below the ground, pile top %.2f m (Bullet: 0.043 m, 5 deg)"):format(world.step_count,
		gap, scene.run_max, math.deg(swing), math.deg(twist), below, top))
	-- Any point of the run, even while layers land on one another: attached, nothing through the
	-- ground. (The largest gap over a full run is about 0.16 m, at the impacts.)
	expect.below(gap, 0.25, "largest joint gap (m)")
	expect.below(scene.run_max, 0.25, "largest joint gap during the run (m)")
	expect.near(below, 0, 0, "part centres below the ground")
	if world.step_count >= scene.steps then
		-- Settled: tighter than the reference engines (Bullet 0.043 m and 5 deg, ODE 0.063 m and 13.6 deg).
		expect.below(gap, 0.02, "largest joint gap at the end (m)")
		expect.below(math.deg(swing), 3, "largest swing limit excess at the end (deg)")
		expect.below(math.deg(twist), 3, "largest twist limit excess at the end (deg)")
		expect.below(top, 3, "the ragdolls piled up and settled (highest centre z, m)")
	end
end

return scene
