-- A ragdoll (the 11-capsule body of shared/bench/SCENES.md, 000 ch. 21) dropped across a low wall,
-- so it folds over it and slumps to the ground. Its cone joints keep the limbs attached and inside
-- their swing and twist limits.
local build = require "builders"
local ragdolls = require "ragdolls"
local expect = require "expect"

local scene = {
	title = "Ragdoll",
	description = "An 11-capsule ragdoll dropped across a low wall folds over it; its cone joints keep the limbs on and within their limits.",
	camera = { eye = { -2.5, -4, 2.2 }, target = { 0.3, 0, 0.8 } },
	world = { gravity = { 0, 0, -10 } },
	steps = 480,
}

function scene.setup(world)
	build.ground(world)
	world:add_box{ name = "wall", size = { 0.4, 3, 0.8 }, pos = { 0.3, 0, 0.4 }, static = true }
	-- Standing 1.2 m up and leaning on with 2 m/s: it hits the wall at the hips and folds over.
	scene.doll = ragdolls.build(world, { pos = { 0, 0, 1.2 }, name = "", vel = { 2, 0, 0 } })
	scene.worst_swing, scene.worst_twist, scene.worst_gap = 0, 0, 0
end

function scene.update(world)
	local swing, twist = ragdolls.limit_excess(scene.doll)
	scene.worst_swing = math.max(scene.worst_swing, swing)
	scene.worst_twist = math.max(scene.worst_twist, twist)
	scene.worst_gap = math.max(scene.worst_gap, (expect.joint_errors(scene.doll.joints)))
end

function scene.finish(world)
	local swing, twist = ragdolls.limit_excess(scene.doll)
	print(("ragdoll: at the end swing excess %.2f deg, twist excess %.2f deg; during the run %.2f / %.2f deg, "
		.. "joint gap %.4f m"):format(math.deg(swing), math.deg(twist), math.deg(scene.worst_swing),
		math.deg(scene.worst_twist), scene.worst_gap))
	expect.joints_hold(scene.doll.joints, 0.005, "ragdoll joints at the end")
	expect.below(math.deg(swing), 1, "swing limit excess at the end (deg)")
	expect.below(math.deg(twist), 1, "twist limit excess at the end (deg)")
	expect.below(scene.worst_gap, 0.05, "largest joint gap during the fall (m)")
	for i, part in ipairs(scene.doll.parts) do
		local x, _, z = part:position()
		expect.above(z, 0, ragdolls.parts[i][1] .. " above the ground (z, m)")
		local vx, vy, vz = part:velocity()
		expect.below(math.sqrt(vx * vx + vy * vy + vz * vz), 0.2, ragdolls.parts[i][1] .. " at rest (m/s)")
	end
	-- It went over the wall or hangs on it, not back where it came from.
	local x = scene.doll.by_name.pelvis:position()
	expect.above(x, -0.5, "pelvis x (m)")
end

return scene
