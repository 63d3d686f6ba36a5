-- Newton's cradle: five steel-like balls (restitution 1, no friction) hang in a row, touching, each
-- on two rods to a V of pivots so they swing in one plane. The first is pulled aside and let go; it
-- stops dead on the row and the last one flies off at its speed, swings back, and hands the speed
-- back down the row. The impact travels through the touching balls one contact after another
-- (docs/SOLVER.md, "Restitution").
local build = require "builders"
local expect = require "expect"

local COUNT = 5
local RADIUS = 0.15         -- m
local DROP = 1.2            -- m: pivot axis above the balls' centres
local SPREAD = 0.5          -- m: the two pivots of a ball, either side of its swing plane
local HEIGHT = 2.4          -- m: pivot axis height
local ANGLE = math.rad(35)  -- release angle of the first ball

local scene = {
	title = "Newton's cradle",
	description = "Five touching balls of restitution 1: the first swings in, stops dead, and the last flies off at its speed.",
	camera = { eye = { 0.6, -3.6, 1.9 }, target = { 0.6, 0, 1.2 } },
	world = { gravity = { 0, 0, -10 }, sleep = false },
	steps = 240, -- 4 s: the impact and its way back
}

function scene.setup(world)
	build.ground(world)
	scene.balls = {}
	for i = 1, COUNT do
		local x = 2 * RADIUS * (i - 1)
		local angle = i == 1 and ANGLE or 0
		local pos = { x - DROP * math.sin(angle), 0, HEIGHT - DROP * math.cos(angle) }
		local ball = world:add_sphere{ name = "ball" .. i, radius = RADIUS, mass = 1, pos = pos,
		                               restitution = 1, friction = 0 }
		world:add_box{ name = "pivot" .. i, size = { 0.04, 2 * SPREAD + 0.04, 0.04 }, pos = { x, 0, HEIGHT },
		               static = true }
		for _, side in ipairs({ -1, 1 }) do
			world:distance{ name = ("rod%d%s"):format(i, side < 0 and "a" or "b"), b = ball,
			                anchor_a = { x, side * SPREAD, HEIGHT } }
		end
		scene.balls[i] = ball
	end
	scene.first_speed = 0 -- fastest the first ball went before it met the row (m/s)
	scene.last_speed = 0  -- fastest the last ball went while the first was still stopped (m/s)
	scene.others = 0      -- fastest any middle ball went in that time (m/s)
	scene.hit = false
end

function scene.update(world, dt, t)
	local first = scene.balls[1]
	local vx = first:velocity()
	local x = first:position()
	if not scene.hit then
		scene.first_speed = math.max(scene.first_speed, vx)
		-- Within a ball's width of its resting place, moving slower than half its top speed: it has
		-- met the row.
		scene.hit = x > -RADIUS and vx < 0.5 * scene.first_speed
	end
	if scene.hit and x > -RADIUS then
		local last = scene.balls[COUNT]:velocity()
		scene.last_speed = math.max(scene.last_speed, last)
		for i = 2, COUNT - 1 do
			scene.others = math.max(scene.others, math.abs((scene.balls[i]:velocity())))
		end
	end
end

function scene.finish(world)
	print(("newtons_cradle: first ball in at %.3f m/s, last ball out at %.3f m/s, middle balls at most %.3f m/s")
		:format(scene.first_speed, scene.last_speed, scene.others))
	expect.above(scene.first_speed, 1, "speed of the first ball as it meets the row (m/s)")
	expect.above(scene.last_speed, 0.95 * scene.first_speed, "speed the last ball leaves with (m/s)")
	expect.below(scene.others, 0.05 * scene.first_speed, "speed of the middle balls (m/s)")
end

return scene
