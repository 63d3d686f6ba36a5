-- The pendulum wave of 001 (section 10.3): 50 balls, each on a distance constraint from a fixed
-- point above it. Pendulum k (0..49) has the length that makes it swing 30 + k times in 60 s,
-- L_k = g (60 / (2 pi (30 + k)))^2, so released together they drift out of phase into travelling
-- waves and come back in step after 60 s. Each keeps the period of the ideal pendulum.
local build = require "builders"
local expect = require "expect"

local COUNT, G, CYCLE, BASE = 50, 10, 60, 30
local ANGLE = 0.15                 -- release angle, rad
local TOP, SPACING, RADIUS = 3, 0.12, 0.05

local scene = {
	title = "Pendulum wave",
	description = "50 pendulums whose lengths make them swing 30 to 79 times a minute drift out of phase into travelling waves.",
	camera = { eye = { 2.4, -3.2, 2.9 }, target = { 0.2, -0.3, 2.45 } },
	world = { gravity = { 0, 0, -G } },
	steps = 600, -- 10 s
}

local function length(k)
	return G * (CYCLE / (2 * math.pi * (BASE + k))) ^ 2
end

function scene.setup(world)
	build.ground(world)
	scene.balls, scene.crossings, scene.last_x = {}, {}, {}
	for k = 0, COUNT - 1 do
		local L = length(k)
		local y = (k - (COUNT - 1) / 2) * SPACING
		local ball = world:add_sphere{ name = "ball" .. k, radius = RADIUS, mass = 0.1,
		                               pos = { L * math.sin(ANGLE), y, TOP - L * math.cos(ANGLE) } }
		world:distance{ b = ball, anchor_a = { 0, y, TOP } }
		scene.balls[k + 1] = ball
		scene.crossings[k + 1] = {}
	end
end

function scene.update(world, dt, t)
	for i, ball in ipairs(scene.balls) do
		local x = ball:position()
		local last = scene.last_x[i]
		if last and last > 0 and x <= 0 then
			local list = scene.crossings[i]
			list[#list + 1] = t - dt + dt * last / (last - x)
		end
		scene.last_x[i] = x
	end
end

function scene.finish(world)
	local worst = 0
	for i, list in ipairs(scene.crossings) do
		local k = i - 1
		expect.above(#list, 2, "crossings of pendulum " .. k)
		local period = (list[#list] - list[1]) / (#list - 1)
		local analytic = CYCLE / (BASE + k) * (1 + ANGLE * ANGLE / 16)
		worst = math.max(worst, math.abs(period / analytic - 1))
	end
	print(("pendulum_wave: worst period error %.3f %% over %d pendulums"):format(100 * worst, COUNT))
	expect.below(worst, 0.02, "largest relative period error")
end

return scene
