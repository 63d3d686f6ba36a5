-- The constant-velocity joint (000 ch. 19): a driver shaft turned at 3 rad/s by a hinge motor
-- drives a second shaft that runs in a bearing tilted 30 degrees up. A cone joint with its twist
-- locked links them at the point where their axes meet. Unlike a Cardan (universal) joint, whose
-- output speed swings between cos(30) and 1 / cos(30) of the input every turn, the CV joint turns
-- the driven shaft at exactly the driver's speed at every instant.
local build = require "builders"
local expect = require "expect"

local SPEED, TILT = 3, math.rad(30)
local CENTER = { 0, 0, 3 }

local scene = {
	title = "Constant-velocity joint",
	description = "A driven shaft turns a second shaft tilted 30 degrees up through a cone joint with its twist locked: the output turns at the input speed all the way round.",
	world = { gravity = { 0, 0, -10 } },
	steps = 300,
}

function scene.setup(world)
	build.ground(world)
	local d = { math.cos(TILT), 0, math.sin(TILT) }
	local driver = world:add_box{ name = "driver", size = { 2, 0.3, 0.3 }, pos = { CENTER[1] - 1.1, 0, CENTER[3] },
	                              mass = 2 }
	local driven = world:add_box{ name = "driven", size = { 2, 0.3, 0.3 }, mass = 2,
	                              pos = { CENTER[1] + 1.1 * d[1], 0, CENTER[3] + 1.1 * d[3] },
	                              rot = require("tumble").axis_angle({ 0, 1, 0 }, -TILT) }
	scene.motor = world:hinge{ name = "driver_bearing", b = driver, anchor = { CENTER[1] - 1.1, 0, CENTER[3] },
	                           axis = { 1, 0, 0 }, motor = { speed = SPEED, max_torque = 100 } }
	scene.bearing = world:hinge{ name = "driven_bearing", b = driven, axis = d,
	                             anchor = { CENTER[1] + 1.1 * d[1], 0, CENTER[3] + 1.1 * d[3] } }
	-- Twist locked (the default {0, 0}): the CV joint; no swing limit.
	scene.cv = world:cone{ name = "cv", a = driver, b = driven, anchor = CENTER, axis = { 1, 0, 0 }, axis_b = d }
	scene.d = d
	scene.worst_ratio = 0
end

-- Angular speed of a body about a world axis (rad/s).
local function spin(body, axis)
	local wx, wy, wz = body:angular_velocity()
	return wx * axis[1] + wy * axis[2] + wz * axis[3]
end

function scene.update(world, dt, t)
	if t > 1 then
		local ratio = spin(world:body("driven"), scene.d) / spin(world:body("driver"), { 1, 0, 0 })
		scene.worst_ratio = math.max(scene.worst_ratio, math.abs(ratio - 1))
	end
end

function scene.finish(world)
	local w_in = spin(world:body("driver"), { 1, 0, 0 })
	local w_out = spin(world:body("driven"), scene.d)
	print(("cv_joint: driver %.4f rad/s, driven %.4f rad/s, largest speed ratio error after 1 s %.4f (Cardan: %.3f)")
		:format(w_in, w_out, scene.worst_ratio, 1 / math.cos(TILT) - 1))
	expect.near(w_in, SPEED, 0.02 * SPEED, "driver speed (rad/s)")
	expect.near(w_out, SPEED, 0.02 * SPEED, "driven shaft speed (rad/s)")
	expect.below(scene.worst_ratio, 0.02, "largest |driven / driver - 1| after 1 s")
	expect.joints_hold({ scene.motor, scene.bearing, scene.cv }, 0.005, "bearings and CV joint")
end

return scene
