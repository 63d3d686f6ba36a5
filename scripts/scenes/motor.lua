-- Rotary motors (000 ch. 22). A 100 kg beam hangs 1 m below a fixed hub and is driven about the
-- vertical at 2 rad/s by an unlimited motor, as in the book. Beside it a 50 kg flywheel is spun up
-- by a motor limited to 10 N m: it accelerates at torque / inertia until it reaches its speed.
local build = require "builders"
local expect = require "expect"

local BEAM_SPEED = 2            -- rad/s
local WHEEL_TORQUE = 10         -- N m
local WHEEL_MASS, WHEEL_EDGE = 50, 2
local WHEEL_INERTIA = WHEEL_MASS * (WHEEL_EDGE ^ 2 + WHEEL_EDGE ^ 2) / 12 -- about z, kg m^2

local scene = {
	title = "Rotary motors",
	description = "A 100 kg beam driven about the vertical at 2 rad/s, and a flywheel spun up by a motor limited to 10 N m.",
	world = { gravity = { 0, 0, -10 } },
	steps = 300,
}

function scene.setup(world)
	build.ground(world)
	world:add_box{ name = "hub", size = { 0.4, 0.4, 0.4 }, pos = { 0, 0, 3 }, static = true }
	local beam = world:add_box{ name = "beam", size = { 4, 0.4, 0.4 }, pos = { 0, 0, 2 }, mass = 100 }
	scene.beam_motor = world:motor{ name = "beam_motor", a = nil, b = beam, anchor = { 0, 0, 3 }, axis = { 0, 0, 1 },
	                                speed = BEAM_SPEED }
	local wheel = world:add_box{ name = "flywheel", size = { WHEEL_EDGE, WHEEL_EDGE, 0.2 }, pos = { 6, 0, 1 },
	                             mass = WHEEL_MASS }
	scene.wheel_motor = world:motor{ name = "flywheel_motor", b = wheel, anchor = { 6, 0, 1 }, axis = { 0, 0, 1 },
	                                 speed = 3, max_torque = WHEEL_TORQUE }
	scene.beam, scene.wheel = beam, wheel
end

function scene.finish(world)
	local _, _, beam_w = scene.beam:angular_velocity()
	local _, _, wheel_w = scene.wheel:angular_velocity()
	local t = world.time
	local spun_up = math.min(WHEEL_TORQUE / WHEEL_INERTIA * t, 3)
	print(("motor: beam %.4f rad/s (motor %g), flywheel %.4f rad/s after %.2f s (torque / inertia * t = %.4f)"):format(
		beam_w, BEAM_SPEED, wheel_w, t, spun_up))
	expect.near(beam_w, BEAM_SPEED, 0.02 * BEAM_SPEED, "beam angular speed about z (rad/s)")
	expect.near(wheel_w, spun_up, 0.02 * spun_up, "flywheel angular speed under a 10 N m motor (rad/s)")
	expect.near(scene.wheel_motor.motor_torque, WHEEL_TORQUE, 0.02 * WHEEL_TORQUE, "flywheel motor torque (N m)")
	expect.joints_hold({ scene.beam_motor, scene.wheel_motor }, 0.005, "motor anchors")
	local _, _, z = scene.beam:position()
	expect.near(z, 2, 0.01, "the beam hangs 1 m below the hub (z, m)")
end

return scene
