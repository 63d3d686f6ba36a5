-- The configurable 6-DOF joint (002): every axis free, limited or fixed.
--   slider:    only x moves, limited to [-1, 1] m; launched at 3 m/s it stops at +1
--   swing:     only the rotation about y moves, limited to +-0.5 rad; spun, it stops at a limit
--   puck:      x, y and the turn about z are free, the rest fixed: it glides in its plane
--   turntable: everything fixed but the turn about z, driven by the axis motor at 2 rad/s
local build = require "builders"
local expect = require "expect"

local scene = {
	title = "Configurable 6-DOF joint",
	description = "Every axis free, limited or fixed: a limited slider, a limited swing, a puck gliding in its plane.",
	world = { gravity = { 0, 0, -10 } },
	steps = 180,
}

function scene.setup(world)
	build.ground(world)
	local slider = world:add_box{ name = "slider", size = { 0.6, 0.6, 0.6 }, pos = { 0, 0, 3 }, vel = { 3, 0, 0 } }
	scene.slider = world:six_dof{ name = "slider_joint", b = slider, axes = { x = { -1, 1 } } }

	-- Turning at 3 rad/s about the pivot 0.8 m above its centre: enough to reach the limit.
	local swing = world:add_box{ name = "swing", size = { 0.3, 0.3, 1.6 }, pos = { 3, 0, 3 }, angvel = { 0, 3, 0 },
	                             vel = { -2.4, 0, 0 } }
	scene.swing = world:six_dof{ name = "swing_joint", b = swing, anchor = { 3, 0, 3.8 },
	                             axes = { ry = { -0.5, 0.5 } } }

	local puck = world:add_box{ name = "puck", size = { 0.8, 0.8, 0.2 }, pos = { 6, 0, 3 }, vel = { 1, 1, 0 },
	                            angvel = { 0, 0, 2 } }
	scene.puck = world:six_dof{ name = "puck_joint", b = puck, axes = { x = "free", y = "free", rz = "free" } }

	local table_top = world:add_box{ name = "turntable", size = { 1.5, 1.5, 0.1 }, pos = { 9, 0, 1 } }
	scene.turntable = world:six_dof{ name = "turntable_joint", b = table_top, axes = { rz = "free" },
	                                 motors = { rz = { speed = 2, max_force = 100 } } }
	scene.max = { slider = 0, swing = 0 }
end

function scene.update(world)
	scene.max.slider = math.max(scene.max.slider, math.abs(scene.slider:axis_position("x")))
	scene.max.swing = math.max(scene.max.swing, math.abs(scene.swing:axis_position("ry")))
end

function scene.finish(world)
	local s, sw, p = scene.slider, scene.swing, scene.puck
	print(("six_dof: slider reached %.4f m (limit 1), swing reached %.4f rad (limit 0.5), puck at x %.3f y %.3f rz %.3f,"
		.. " turntable %.4f rad/s"):format(scene.max.slider, scene.max.swing, p:axis_position("x"),
		p:axis_position("y"), p:axis_position("rz"), select(3, world:body("turntable"):angular_velocity())))
	-- Limited axes: at their limits, never beyond by more than 1 mm / 1 degree.
	expect.near(scene.max.slider, 1, 0.001, "slider's largest |x| (m)")
	expect.near(scene.max.swing, 0.5, math.rad(1), "swing's largest |ry| (rad)")
	-- Fixed axes stay put under gravity.
	for _, axis in ipairs{ "y", "z" } do
		expect.near(s:axis_position(axis), 0, 0.001, "slider " .. axis .. " (m)")
	end
	expect.near(p:axis_position("z"), 0, 0.001, "puck z (m)")
	for _, axis in ipairs{ "rx", "rz" } do
		expect.near(sw:axis_position(axis), 0, math.rad(1), "swing " .. axis .. " (rad)")
	end
	expect.near(p:axis_position("rx"), 0, math.rad(1), "puck tilt rx (rad)")
	expect.near(p:axis_position("ry"), 0, math.rad(1), "puck tilt ry (rad)")
	-- Free axes move freely: 3 s at 1 m/s and 2 rad/s.
	expect.near(p:axis_position("x"), 3, 0.05, "puck x travel (m)")
	expect.near(p:axis_position("y"), 3, 0.05, "puck y travel (m)")
	local _, _, wz = world:body("turntable"):angular_velocity()
	expect.near(wz, 2, 0.04, "turntable speed (rad/s)")
	expect.joints_hold({ s, sw, p, scene.turntable }, 0.005, "6-DOF joints")
end

return scene
