-- Hinges (000 ch. 17-18, 22): the quaternion hinge with limits, a velocity motor and a servo.
--   paddle: a 10 kg paddle on a limited hinge (+-0.6 rad) starts level and falls onto its limit,
--           which then holds the 100 N m of its weight
--   arm:    a servo drives an arm that gravity pulls down to 0.8 rad and holds it there
--   wheel:  a velocity motor spins a wheel at 3 rad/s
-- Keys (viewer): space flips the servo target.
local build = require "builders"
local expect = require "expect"

local LIMIT, SERVO, SPEED = 0.6, 0.8, 3

local scene = {
	title = "Hinges: limit, servo, motor",
	description = "A paddle falls onto its hinge limit, a servo holds an arm against gravity, and a motor spins a wheel at 3 rad/s.",
	keys = { { "space", "flip the servo's target angle" } },
	world = { gravity = { 0, 0, -10 } },
	steps = 360,
}

function scene.setup(world)
	build.ground(world)
	-- Hinge axes along +y: a positive angle turns +x towards -z, i.e. the free end falls.
	world:add_box{ name = "post", size = { 0.3, 0.3, 4 }, pos = { -0.3, 0, 2 }, static = true }
	local paddle = world:add_box{ name = "paddle", size = { 2, 0.2, 0.5 }, pos = { 1, 0, 3.5 }, mass = 10 }
	scene.paddle = world:hinge{ name = "paddle_hinge", b = paddle, anchor = { 0, 0, 3.5 }, axis = { 0, 1, 0 },
	                            limits = { -LIMIT, LIMIT } }

	world:add_box{ name = "tower", size = { 0.3, 0.3, 4 }, pos = { -0.3, 4, 2 }, static = true }
	local arm = world:add_box{ name = "arm", size = { 1.5, 0.2, 0.2 }, pos = { 0.75, 4, 3.5 }, mass = 5 }
	scene.arm = world:hinge{ name = "arm_servo", b = arm, anchor = { 0, 4, 3.5 }, axis = { 0, 1, 0 },
	                         servo = { angle = SERVO, max_torque = 200 } }

	local wheel = world:add_sphere{ name = "wheel", radius = 0.5, pos = { 0, -4, 2 }, mass = 2 }
	scene.wheel = world:hinge{ name = "wheel_axle", b = wheel, anchor = { 0, -4, 2 }, axis = { 1, 0, 0 },
	                           motor = { speed = SPEED, max_torque = 50 } }
	scene.worst_limit = 0
end

function scene.update(world)
	scene.worst_limit = math.max(scene.worst_limit, math.abs(scene.paddle.angle) - LIMIT)
end

function scene.keypressed(key)
	if key == "space" then
		scene.arm.servo_angle = -scene.arm.servo_angle
	end
end

function scene.finish(world)
	print(("hinge: paddle at %.4f rad (limit %.2f, worst excess %.3f deg), arm at %.4f rad (servo %.2f), wheel %.4f rad/s")
		:format(scene.paddle.angle, LIMIT, math.deg(scene.worst_limit), scene.arm.angle, SERVO, scene.wheel.speed))
	expect.near(scene.paddle.angle, LIMIT, math.rad(1), "paddle resting on its limit (rad)")
	expect.below(scene.worst_limit, math.rad(1), "paddle beyond its limit at any step (rad)")
	expect.near(scene.arm.angle, SERVO, math.rad(1), "servo arm angle (rad)")
	expect.near(scene.wheel.speed, SPEED, 0.02 * SPEED, "motor wheel speed (rad/s)")
	expect.joints_hold({ scene.paddle, scene.arm, scene.wheel }, 0.005, "hinges")
end

return scene
