-- The pendulum of the reference book (000 ch. 8): a ball on a rigid distance constraint to a fixed
-- point, released 0.1 rad from the vertical. With small swings it keeps the period of the ideal
-- pendulum, T = 2 pi sqrt(L / g), and the rod keeps its length.
local build = require "builders"
local expect = require "expect"

local L, G, ANGLE = 2.0, 10.0, 0.1 -- rod length (m), gravity (m/s^2), release angle (rad)
local PIVOT = { 0, 0, 4 }

local scene = {
	title = "Pendulum",
	description = "A ball on a rigid rod swings with the period of the ideal pendulum, T = 2 pi sqrt(L / g).",
	camera = { eye = { 0.8, -2.2, 3.1 }, target = { 0.12, 0, 2.95 } },
	world = { gravity = { 0, 0, -G } },
	steps = 720, -- 12 s: four periods
}

function scene.setup(world)
	build.ground(world)
	world:add_box{ name = "pivot", size = { 0.2, 0.2, 0.2 }, pos = PIVOT, static = true }
	local bob = world:add_sphere{ name = "bob", radius = 0.1, mass = 1,
	                              pos = { PIVOT[1] + L * math.sin(ANGLE), 0, PIVOT[3] - L * math.cos(ANGLE) } }
	scene.rod = world:distance{ name = "rod", b = bob, anchor_a = PIVOT }
	scene.bob = bob
	scene.crossings = {} -- times (s) the bob crossed x = 0 going towards -x
	scene.last_x = nil
	scene.max_stretch = 0
end

function scene.update(world, dt, t)
	local x = scene.bob:position()
	if scene.last_x and scene.last_x > 0 and x <= 0 then
		-- Linear interpolation between the two samples gives the crossing time within the step.
		local crossing = t - dt + dt * scene.last_x / (scene.last_x - x)
		scene.crossings[#scene.crossings + 1] = crossing
	end
	scene.last_x = x
	scene.max_stretch = math.max(scene.max_stretch, math.abs(scene.rod.current_length - L))
end

function scene.finish(world)
	local c = scene.crossings
	expect.above(#c, 2, "crossings of the vertical in the same direction")
	local period = (c[#c] - c[1]) / (#c - 1)
	-- Small-angle period with the first finite-amplitude correction (1 + angle^2 / 16).
	local analytic = 2 * math.pi * math.sqrt(L / G) * (1 + ANGLE * ANGLE / 16)
	print(("pendulum: period %.4f s (analytic %.4f s), largest rod error %.2g m"):format(period, analytic,
		scene.max_stretch))
	expect.near(period, analytic, 0.02 * analytic, "pendulum period (s)")
	expect.below(scene.max_stretch, 0.001, "largest rod length error during the run (m)")
end

return scene
