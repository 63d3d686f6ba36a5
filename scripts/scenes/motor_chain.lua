-- The motor-driven hinge chain of 004 (fig. 5.4): eight boxes joined by hinges hang from a hub
-- whose hinge has a motor. The motor turns the first link at 1.5 rad/s about the horizontal axle;
-- the rest of the chain is dragged round behind it, whipping over the top. Every hinge holds.
local build = require "builders"
local chains = require "chains"
local expect = require "expect"

local SPEED = 1.5

local scene = {
	title = "Motor-driven chain",
	description = "Eight boxes on hinges hang from a motor that turns the first link; the rest of the chain is dragged round over the top.",
	world = { gravity = { 0, 0, -10 } },
	steps = 480,
}

function scene.setup(world)
	build.ground(world)
	-- The hub sits behind the axle (y = -0.5) so the links never touch it.
	world:add_box{ name = "hub", size = { 0.4, 0.4, 0.4 }, pos = { 0, -0.5, 6 }, static = true }
	-- Hanging straight down from the hub, axles along y.
	scene.chain = chains.build(world, {
		count = 8, start = { 0, 0, 5.75 }, step = { 0, 0, -0.5 }, joint = "hinge", axis = { 0, 1, 0 },
		size = { 0.2, 0.2, 0.45 }, mass = 1, name = "link", motor = { speed = SPEED, max_torque = 500 },
	})
	scene.motor = scene.chain.joints[1]
	scene.worst_gap = 0
end

function scene.update(world)
	scene.worst_gap = math.max(scene.worst_gap, (expect.joint_errors(scene.chain.joints)))
end

function scene.finish(world)
	local _, wy = scene.chain.links[1]:angular_velocity()
	print(("motor_chain: first link %.4f rad/s (motor %.1f), motor torque %.1f N m, worst hinge gap %.4f m"):format(
		wy, SPEED, scene.motor.motor_torque, scene.worst_gap))
	expect.near(scene.motor.speed, SPEED, 0.02 * SPEED, "motor hinge speed (rad/s)")
	expect.below(scene.worst_gap, 0.02, "largest hinge gap during the run (m)")
	expect.joints_hold(scene.chain.joints, 0.01, "chain hinges at the end")
end

return scene
