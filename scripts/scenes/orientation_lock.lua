-- Orientation locks (000 ch. 16). A box whose rotation is locked to the world (a 6-DOF joint with
-- free translation and fixed rotation: the book's orientation constraint on its own) drops onto a
-- 20-degree slope and slides down it without tipping over; it keeps the orientation it started
-- with. Beside it an L-shaped pair of boxes welded by a fixed joint (the lock plus the point
-- constraint) tumbles down the same slope as one piece.
local tb = require "tumble"
local build = require "builders"
local expect = require "expect"

local SLOPE = math.rad(20)

local scene = {
	title = "Orientation locks",
	description = "A box whose rotation is locked slides down a slope without tipping; beside it two boxes welded into an L fall as one.",
	world = { gravity = { 0, 0, -10 } },
	steps = 240,
}

function scene.setup(world)
	build.ground(world)
	world:add_box{ name = "slope", size = { 8, 8, 0.5 }, pos = { 0, 0, 2 }, rot = tb.axis_angle({ 0, 1, 0 }, SLOPE),
	               static = true, friction = 0.2 }
	scene.start_rot = tb.axis_angle({ 0, 0, 1 }, math.rad(30))
	local locked = world:add_box{ name = "locked", size = { 1, 1, 1 }, pos = { -1, -2, 5 }, rot = scene.start_rot,
	                              friction = 0.2 }
	scene.lock = world:six_dof{ name = "lock", b = locked, axes = { x = "free", y = "free", z = "free" } }
	scene.locked = locked

	local a = world:add_box{ name = "weld_a", size = { 1.2, 0.4, 0.4 }, pos = { -1, 2, 5 }, mass = 2 }
	local b = world:add_box{ name = "weld_b", size = { 0.4, 0.4, 1.2 }, pos = { -0.2, 2, 5.4 }, mass = 2 }
	scene.weld = world:fixed{ name = "weld", a = a, b = b, anchor = { -0.4, 2, 5 } }
	scene.start_x = -1
	scene.worst_lock = 0
end

-- Angle (rad) between two unit quaternions {w, x, y, z}.
local function angle_between(q, w, x, y, z)
	local d = math.abs(q[1] * w + q[2] * x + q[3] * y + q[4] * z)
	return 2 * math.acos(math.min(d, 1))
end

function scene.update(world)
	scene.worst_lock = math.max(scene.worst_lock, angle_between(scene.start_rot, scene.locked:rotation()))
end

function scene.finish(world)
	local x = scene.locked:position()
	local _, weld_angle = scene.weld:error()
	print(("orientation_lock: locked box slid %.3f m, turned at most %.3f deg; weld angle error %.3f deg"):format(
		x - scene.start_x, math.deg(scene.worst_lock), math.deg(weld_angle)))
	expect.below(scene.worst_lock, math.rad(1), "largest rotation of the locked box (rad)")
	expect.above(x - scene.start_x, 1, "the locked box slid down the slope (m)")
	expect.joints_hold({ scene.weld }, 0.005, "weld")
	expect.below(weld_angle, math.rad(1), "weld angle error (rad)")
	local wx = world:body("weld_a"):position()
	expect.above(wx - scene.start_x, 1, "the welded pair went down the slope (m)")
end

return scene
