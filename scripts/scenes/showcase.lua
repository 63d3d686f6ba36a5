-- The showcase: the final scene of the reference book (000) and a bit of everything else Tumble
-- does, on one ground. Around the middle, clockwise from the front left:
--   hinge paddle and servo arm, CV-joint shafts, the motor-driven beam, a moving platform with a
--   box riding it, the slider cannon, a pile of mixed solids, the 5-link chain, a sphere with a
--   diamond dropped on it, a box pyramid, the 5-box stack, a slope with an orientation-locked box,
--   a ragdoll thrown over a wall, and a self-driving wheel crossing the back. The 100 m/s sphere
--   and diamond ("teleportation") fly in a walled pen at the front edge of the ground, behind the
--   default camera.
-- Keys (viewer): b drops a ball on the pile, c fires the cannon again, l launches the 100 m/s
-- pair again, j / k steer the wheel's motor (the viewer keeps space, f, t and the arrows for itself).
-- The scene's panel has the same as buttons and a slider.
local tb = require "tumble"
local build = require "builders"
local chains = require "chains"
local ragdolls = require "ragdolls"
local movers = require "movers"
local expect = require "expect"

local scene = {
	title = "Showcase",
	description = "A bit of everything on one ground: hinges, a CV joint, a 100 m/s collision, motors, a mover, the slider cannon, a pile, a chain, stacks, a ragdoll and a self-driving wheel.",
	camera = { eye = { -3, -28, 19 }, target = { -3, 3, 2 } },
	keys = { { "b", "drop a ball on the pile" }, { "c", "fire the cannon again" }, { "l", "launch the 100 m/s pair again" }, { "j, k", "slow down, speed up the wheel" } },
	world = { gravity = { 0, 0, -10 }, sleep = true },
	steps = 600,
}

local parts = {}

function parts.stack(world)
	build.stack(world, { count = 5, size = 1, pos = { -8, 0 }, prefix = "stack" })
	build.pyramid(world, { base = 5, size = 1, pos = { -8, 6 }, top_name = "pyramid_top" })
end

function parts.chain(world)
	world:add_box{ name = "chain_anchor", size = { 0.4, 0.4, 0.4 }, pos = { -14, 6, 8 }, static = true }
	scene.chain = chains.build(world, { count = 5, start = { -13, 6, 8 }, step = { 1, 0, 0 }, joint = "distance",
	                                    size = { 0.4, 0.4, 0.4 }, name = "chain" })
	scene.chain.joints[1]:destroy()
	scene.chain.joints[1] = world:distance{ b = scene.chain.links[1], anchor_a = { -14, 6, 8 } }
end

function parts.sphere_and_diamond(world)
	world:add_sphere{ name = "big_sphere", radius = 1, pos = { -4, 12, 1 }, restitution = 0.5 }
	world:add_hull{ name = "dropped_diamond", points = build.diamond_points(0.5, 0.8), pos = { -4, 12, 6 },
	                rot = tb.axis_angle({ 1, 1, 0 }, 0.3) }
end

function parts.pile(world)
	build.pile(world, { count = 12, pos = { 2, 8 }, height = 1 })
end

function parts.ragdoll(world)
	world:add_box{ name = "ragdoll_wall", size = { 0.4, 3, 0.8 }, pos = { 0.3, 0, 0.4 }, static = true }
	scene.ragdoll = ragdolls.build(world, { pos = { 0, 0, 1.2 }, vel = { 2, 0, 0 }, name = "doll_" })
end

function parts.motor(world)
	world:add_box{ name = "motor_hub", size = { 0.4, 0.4, 0.4 }, pos = { 6, 0, 3 }, static = true }
	local beam = world:add_box{ name = "motor_beam", size = { 4, 0.4, 0.4 }, pos = { 6, 0, 2 }, mass = 100 }
	scene.motor = world:motor{ name = "motor", b = beam, anchor = { 6, 0, 3 }, axis = { 0, 0, 1 }, speed = 2 }
end

function parts.mover(world)
	scene.platform, scene.platform_mover = movers.platform(world, {
		name = "platform", size = { 3, 3, 0.5 }, path = { { 12, -4, 1 }, { 12, 4, 1 } }, speed = 2, acceleration = 2,
		mode = "pingpong", wait = 0.5,
	})
	scene.rider = world:add_box{ name = "rider", size = { 1, 1, 1 }, pos = { 12, -4, 1.75 }, friction = 0.9 }
end

function parts.hinge(world)
	world:add_box{ name = "paddle_post", size = { 0.3, 0.3, 4 }, pos = { -2.3, -6, 2 }, static = true }
	local paddle = world:add_box{ name = "paddle", size = { 2, 0.2, 0.5 }, pos = { -1, -6, 3.5 }, mass = 10 }
	scene.paddle = world:hinge{ name = "paddle_hinge", b = paddle, anchor = { -2, -6, 3.5 }, axis = { 0, 1, 0 },
	                            limits = { -0.6, 0.6 } }
	local arm = world:add_box{ name = "servo_arm", size = { 1.5, 0.2, 0.2 }, pos = { -1.25, -8, 3.5 }, mass = 5 }
	world:add_box{ name = "servo_post", size = { 0.3, 0.3, 4 }, pos = { -2.3, -8, 2 }, static = true }
	scene.servo = world:hinge{ name = "servo", b = arm, anchor = { -2, -8, 3.5 }, axis = { 0, 1, 0 },
	                           servo = { angle = 0.8, max_torque = 200 } }
end

function parts.cv(world)
	local tilt = math.rad(30)
	local d = { math.cos(tilt), 0, math.sin(tilt) }
	local c = { 4, -7, 3 }
	local driver = world:add_box{ name = "cv_driver", size = { 2, 0.3, 0.3 }, pos = { c[1] - 1.1, c[2], c[3] }, mass = 2 }
	local driven = world:add_box{ name = "cv_driven", size = { 2, 0.3, 0.3 }, mass = 2,
	                              pos = { c[1] + 1.1 * d[1], c[2], c[3] + 1.1 * d[3] },
	                              rot = tb.axis_angle({ 0, 1, 0 }, -tilt) }
	world:hinge{ b = driver, anchor = { c[1] - 1.1, c[2], c[3] }, axis = { 1, 0, 0 }, motor = { speed = 3, max_torque = 100 } }
	world:hinge{ b = driven, anchor = { c[1] + 1.1 * d[1], c[2], c[3] + 1.1 * d[3] }, axis = d }
	scene.cv = world:cone{ name = "cv", a = driver, b = driven, anchor = c, axis = { 1, 0, 0 }, axis_b = d }
	scene.cv_axis = d
end

local function launch_pair(world)
	-- The impact leaves both spinning at 100 rad/s or more; angular damping (1/s) bleeds that off
	-- so they do not cartwheel out of their pen afterwards.
	scene.bullet_sphere = world:add_sphere{ name = "fast_sphere", radius = 0.5, pos = { 10, -34, 3 }, vel = { -100, 0, 0 },
	                                        restitution = 0.5, ccd = true, mass = 1, angular_damping = 1 }
	scene.bullet_diamond = world:add_hull{ name = "fast_diamond", points = build.diamond_points(0.5, 0.8),
	                                       pos = { -10, -34, 3 }, vel = { 100, 0, 0 }, angvel = { 0, 10, 0 },
	                                       restitution = 0.5, ccd = true, mass = 1, angular_damping = 1 }
end

function parts.teleport(world)
	-- Backstops: whatever way the pair bounces off each other, it stays on the ground. They must be
	-- tall (at 4.5 m the diamond bounced over them), so the pen stands at the front edge of the
	-- ground, behind the default camera: at the back of the scene its 12 m walls filled the first
	-- view with grey. Orbit round (or look from above) to watch it; l launches the pair again.
	for _, x in ipairs{ -16, 16 } do
		world:add_box{ size = { 1, 6, 12 }, pos = { x, -34, 6 }, static = true }
	end
	for _, y in ipairs{ -37, -31 } do
		world:add_box{ size = { 33, 1, 12 }, pos = { 0, y, 6 }, static = true }
	end
	launch_pair(world)
end

function parts.orientation_lock(world)
	world:add_box{ name = "slope", size = { 8, 6, 0.5 }, pos = { -16, -6, 2 }, rot = tb.axis_angle({ 0, 1, 0 }, math.rad(20)),
	               static = true, friction = 0.2 }
	scene.lock_rot = tb.axis_angle({ 0, 0, 1 }, math.rad(30))
	local locked = world:add_box{ name = "locked", size = { 1, 1, 1 }, pos = { -17, -6, 5 }, rot = scene.lock_rot,
	                              friction = 0.2 }
	scene.lock = world:six_dof{ name = "lock", b = locked, axes = { x = "free", y = "free", z = "free" } }
end

local function load_cannon(world)
	local px, py, pz = scene.piston:position()
	local d = scene.cannon_dir
	scene.projectile = world:add_box{ size = { 0.4, 0.4, 0.4 }, mass = 1, rot = scene.cannon_rot,
	                                  pos = { px + 0.45 * d[1], py + 0.45 * d[2], pz + 0.45 * d[3] } }
	scene.weld = world:fixed{ a = scene.piston, b = scene.projectile, break_force = 400,
	                          anchor = { px + 0.25 * d[1], py + 0.25 * d[2], pz + 0.25 * d[3] } }
end

function parts.cannon(world)
	-- Fires along -y and 30 degrees up from the right front corner.
	local e = math.rad(30)
	scene.cannon_dir = { 0, -math.cos(e), math.sin(e) }
	scene.cannon_rot = tb.quat_multiply(tb.axis_angle({ 0, 0, 1 }, -math.pi / 2), tb.axis_angle({ 0, 1, 0 }, -e))
	local origin = { 20, 10, 1 }
	scene.piston = world:add_box{ name = "piston", size = { 0.5, 0.5, 0.5 }, mass = 2, pos = origin, rot = scene.cannon_rot }
	scene.cannon = world:slider{ name = "cannon", b = scene.piston, anchor = origin, axis = scene.cannon_dir,
	                             limits = { 0, 1.5 }, motor = { speed = 0, max_force = 500 } }
	load_cannon(world)
	scene.cannon_state, scene.cannon_timer = "aim", 0
end

function parts.wheel(world)
	local center = { -10, 16, 1.1 }
	-- It drives back and forth across the back of the ground (see update).
	local hub = world:add_box{ name = "wheel_hub", size = { 0.3, 0.8, 0.3 }, pos = center, mass = 4, group = -1 }
	local n, r = 16, 1
	for k = 0, n - 1 do
		local theta = 2 * math.pi * k / n
		local plank = world:add_box{ size = { 2 * r * math.sin(math.pi / n) + 0.02, 0.6, 0.08 }, mass = 0.5, group = -1,
		                             friction = 0.9, rot = tb.axis_angle({ 0, 1, 0 }, -(theta + math.pi / 2)),
		                             pos = { center[1] + r * math.cos(math.pi / n) * math.cos(theta), center[2],
		                                     center[3] + r * math.cos(math.pi / n) * math.sin(theta) } }
		world:fixed{ a = hub, b = plank, anchor = center }
	end
	local pendulum = world:add_box{ size = { 0.25, 0.25, 0.7 }, mass = 10, group = -1,
	                                pos = { center[1], center[2], center[3] - 0.45 } }
	scene.wheel = world:hinge{ name = "wheel_drive", a = pendulum, b = hub, anchor = center, axis = { 0, 1, 0 },
	                           motor = { speed = 2, max_torque = 40 } }
	-- A planar guide keeps the wheel in its lane and upright; it rolls on its own. The 6-DOF frame's
	-- x axis (the one that turns freely, rx) is the axle, world y; its y and z are world z and x.
	world:six_dof{ name = "wheel_guide", b = hub, axis = { 0, 1, 0 }, ref = { 0, 0, 1 },
	               axes = { y = "free", z = "free", rx = "free" } }
	scene.wheel_hub = hub
end

function scene.setup(world)
	build.ground(world, { size = { 80, 80 } })
	for _, name in ipairs{ "stack", "chain", "sphere_and_diamond", "pile", "ragdoll", "motor", "mover", "hinge", "cv",
	                       "teleport", "orientation_lock", "cannon", "wheel" } do
		parts[name](world)
	end
	scene.drops = 0
end

function scene.attach(world)
	scene.world_ref = world
end

function scene.update(world, dt, t)
	if t < 0.3 then
		-- Around the impact of the 100 m/s pair (t = 0.1 s): the sphere stays on its +x side.
		local sx = scene.bullet_sphere:position()
		local dx = scene.bullet_diamond:position()
		scene.pair_gap = math.min(scene.pair_gap or math.huge, sx - dx)
	end
	scene.cannon_timer = scene.cannon_timer + dt
	local slider = scene.cannon
	if scene.cannon_state == "aim" and scene.cannon_timer > 1 then
		slider.motor_speed = 12
		scene.cannon_state = "firing"
	elseif scene.cannon_state == "firing" and slider.translation + 24 * dt > 1.5 then
		scene.weld.break_force = 0 -- breaks at the end of this step, while still cruising
		scene.cannon_state = "fired"
	elseif scene.cannon_state == "reload" and slider.translation < 0.01 then
		load_cannon(world)
		scene.cannon_state, scene.cannon_timer = "aim", 0
	end
	if tb.input.down("k") then
		scene.wheel.motor_speed = math.min(scene.wheel.motor_speed + 0.05, 6)
	elseif tb.input.down("j") then
		scene.wheel.motor_speed = math.max(scene.wheel.motor_speed - 0.05, -6)
	end
	-- Turn back at the ends of the lane.
	local x = scene.wheel_hub:position()
	local speed = scene.wheel.motor_speed
	if (x > 20 and speed > 0) or (x < -26 and speed < 0) then
		scene.wheel.motor_speed = -speed
	end
end

-- The demos a key or a button of the scene's panel starts again.
local actions = {
	drop = function(world)
		scene.drops = scene.drops + 1
		world:add_sphere{ radius = 0.3, pos = { 2, 8, 8 }, restitution = 0.4 }
	end,
	fire = function()
		if scene.cannon_state == "fired" then
			scene.cannon.motor_speed = -3
			scene.cannon_state = "reload"
		end
	end,
	launch = function(world)
		for _, b in ipairs{ scene.bullet_sphere, scene.bullet_diamond } do
			if b:is_valid() then
				b:destroy()
			end
		end
		launch_pair(world)
	end,
}

local action_keys = { b = "drop", c = "fire", l = "launch" }

function scene.keypressed(key)
	local world = scene.world_ref
	if world ~= nil and action_keys[key] then
		actions[action_keys[key]](world)
	end
end

-- The viewer's panel: the keys' demos as buttons, and the wheel's motor speed as a slider.
function scene.ui(ui)
	local world = scene.world_ref
	if world == nil then
		return
	end
	if ui.button("drop a ball (b)") then
		actions.drop(world)
	end
	if ui.button("fire the cannon (c)") then
		actions.fire(world)
	end
	if ui.button("launch the pair (l)") then
		actions.launch(world)
	end
	scene.wheel.motor_speed = ui.slider("wheel rad/s", scene.wheel.motor_speed, -6, 6)
end

function scene.finish(world)
	local _, _, stack_top = world:body("stack5"):position()
	expect.near(stack_top, 4.5, 0.1, "stack top (z, m)")
	expect.joints_hold(scene.ragdoll.joints, 0.01, "ragdoll joints")
	expect.joints_hold(scene.chain.joints, 0.01, "chain rods")
	local _, _, beam_w = world:body("motor_beam"):angular_velocity()
	expect.near(beam_w, 2, 0.04, "motor beam speed (rad/s)")
	expect.near(scene.paddle.angle, 0.6, math.rad(1), "paddle on its hinge limit (rad)")
	expect.near(scene.servo.angle, 0.8, math.rad(1), "servo arm (rad)")
	expect.above(scene.pair_gap, 0, "the 100 m/s pair did not pass through each other (m)")
	local rx, ry = scene.rider:position()
	local px, py = scene.platform:position()
	expect.below(math.sqrt((rx - px) ^ 2 + (ry - py) ^ 2), 0.05, "rider still on the platform (m)")
	expect.above(select(1, scene.wheel_hub:position()) + 10, 2, "distance the wheel drove (m)")
	expect.truthy(scene.weld:is_broken(), "the cannon fired")
end

return scene
