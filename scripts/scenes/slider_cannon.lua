-- The slider cannon of 004 (fig. 5.3): a piston on a slider joint, driven by the slider's motor,
-- throws a projectile that a breakable fixed joint holds on its face. The motor accelerates piston
-- and projectile together at 170 m/s^2 (the weld holds: 400 N break force). Near the end of the
-- travel the script drops the weld's break force to zero, so it breaks at the end of that step (a
-- "joint_break" event) while both still cruise at 12 m/s; the piston stops at its limit and the
-- projectile flies off on a ballistic arc. (A weld left to break at the stop itself would transmit
-- the stopping impulse of its last step: a joint breaks after the step that overloaded it.)
-- Keys (viewer): space reloads and fires again.
local tb = require "tumble"
local build = require "builders"
local expect = require "expect"

local ELEVATION = math.rad(30)
local SPEED, TRAVEL = 12, 1.5       -- muzzle speed (m/s), piston travel (m)
local BREAK_FORCE = 400             -- N: well above the 170 N of the launch, well below the stop
local ORIGIN = { -6, 0, 1 }

local scene = {
	title = "Slider cannon",
	description = "A slider motor throws a projectile held by a breakable weld; the weld breaks and the projectile flies off on a ballistic arc.",
	keys = { { "space", "reload and fire again" } },
	world = { gravity = { 0, 0, -10 } },
	steps = 180,
}

local dir = { math.cos(ELEVATION), 0, math.sin(ELEVATION) }

local function along(s, lift)
	return { ORIGIN[1] + s * dir[1] - (lift or 0) * dir[3], ORIGIN[2], ORIGIN[3] + s * dir[3] + (lift or 0) * dir[1] }
end

-- A projectile on the piston's face, welded to it.
local function load(world)
	local px, py, pz = scene.piston:position()
	local p = { px + 0.45 * dir[1], py, pz + 0.45 * dir[3] }
	scene.shots = scene.shots + 1
	scene.projectile = world:add_box{ name = "projectile" .. scene.shots, size = { 0.4, 0.4, 0.4 }, mass = 1, pos = p,
	                                  rot = scene.rot }
	scene.weld = world:fixed{ name = "weld" .. scene.shots, a = scene.piston, b = scene.projectile,
	                          anchor = { px + 0.25 * dir[1], py, pz + 0.25 * dir[3] }, break_force = BREAK_FORCE }
	scene.launch = { p[1], p[2], p[3] }
end

function scene.setup(world)
	build.ground(world)
	scene.rot = tb.axis_angle({ 0, 1, 0 }, -ELEVATION)
	-- The barrel: a static rail under the piston's path.
	world:add_box{ name = "rail", size = { 2.4, 0.8, 0.1 }, pos = along(1.0, -0.3), rot = scene.rot, static = true }
	scene.piston = world:add_box{ name = "piston", size = { 0.5, 0.5, 0.5 }, mass = 2, pos = along(0), rot = scene.rot }
	scene.slider = world:slider{ name = "barrel", b = scene.piston, anchor = along(0), axis = dir, limits = { 0, TRAVEL },
	                             motor = { speed = 0, max_force = 500 } }
	scene.shots = 0
	scene.breaks = 0
	load(world)
	scene.state, scene.timer = "aim", 0
end

function scene.attach(world)
	world:on("joint_break", function(ev)
		scene.breaks = scene.breaks + 1
		scene.broken_force = ev.force
	end)
	scene.world_ref = world
end

function scene.update(world, dt, t)
	scene.timer = scene.timer + dt
	if scene.state == "aim" and scene.timer > 0.5 then
		scene.slider.motor_speed = SPEED
		scene.state = "firing"
	elseif scene.state == "firing" and scene.slider.translation + 2 * SPEED * dt > TRAVEL then
		-- Two steps before the stop: it breaks at the end of this step, while still cruising.
		scene.weld.break_force = 0
		scene.state = "fired"
	elseif scene.state == "reload" and scene.slider.translation < 0.01 then
		load(world)
		scene.state, scene.timer = "aim", 0
	end
end

function scene.keypressed(key)
	if key == "space" and scene.state == "fired" then
		scene.slider.motor_speed = -3
		scene.state = "reload"
	end
end

function scene.finish(world)
	local x, _, z = scene.projectile:position()
	local flown = x - scene.launch[1]
	print(("slider_cannon: weld broke %d time(s) at %.0f N (break force %d N); projectile flew %.2f m, now at z %.2f m")
		:format(scene.breaks, scene.broken_force or 0, BREAK_FORCE, flown, z))
	expect.truthy(scene.weld:is_broken(), "the weld broke when the piston stopped")
	expect.near(scene.breaks, 1, 0, "joint_break events")
	expect.above(flown, 5, "horizontal distance flown by the projectile (m)")
	expect.near(scene.slider.translation, TRAVEL, 0.01, "the piston stopped at the end of its travel (m)")
end

return scene
