-- Movers (000 ch. 23): kinematic platforms that scripts drive and that nothing pushes back. The
-- first follows a path back and forth (ping-pong, 0.5 s wait at the ends, gentle starts); the
-- second is the book's platform, whose velocity the script sets every step (v = 2 sin(t / 2) m/s, so
-- it starts from rest: the book's cosine starts at full speed and the rider slides at first).
-- A box rides on each, carried by friction, and is still where it stood after a full cycle.
local build = require "builders"
local movers = require "movers"
local expect = require "expect"

local scene = {
	title = "Movers",
	description = "Kinematic platforms driven by scripts: one follows a path back and forth, one is moved by velocity; bodies resting on them ride along.",
	world = { gravity = { 0, 0, -10 } },
	steps = 780, -- 13 s: one round trip of each platform
}

local function offset(box, platform)
	local bx, by, bz = box:position()
	local px, py, pz = platform:position()
	return { bx - px, by - py, bz - pz }
end

function scene.setup(world)
	build.ground(world)
	scene.path_platform, scene.path_mover = movers.platform(world, {
		name = "path_platform", size = { 3, 3, 0.5 }, path = { { -4, -4, 1 }, { 4, -4, 1 } }, speed = 2,
		acceleration = 2, mode = "pingpong", wait = 0.5,
	})
	scene.path_box = world:add_box{ name = "path_rider", size = { 1, 1, 1 }, pos = { -4, -4, 1.75 }, friction = 0.9 }

	local platform = world:add_box{ name = "book_platform", kinematic = true, size = { 3, 3, 0.5 }, pos = { 0, 4, 1 },
	                                friction = 0.9 }
	scene.book_platform = platform
	scene.book_mover = world:mover{ body = platform, velocity = { 0, 0, 0 } }
	scene.book_box = world:add_box{ name = "book_rider", size = { 1, 1, 1 }, pos = { 0, 4, 1.75 }, friction = 0.9 }
	scene.farthest = 0
end

function scene.update(world, dt, t)
	-- Set at the start of the step: the velocity holds over the step, t + dt / 2 centres it.
	scene.book_mover:set_velocity({ 2 * math.sin((t + dt / 2) / 2), 0, 0 })
	if t < 0.5 * dt then
		scene.start_path = offset(scene.path_box, scene.path_platform)
		scene.start_book = offset(scene.book_box, scene.book_platform)
	end
	local x = scene.path_platform:position()
	scene.farthest = math.max(scene.farthest, x)
end

local function drift(a, b)
	return math.sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2 + (a[3] - b[3]) ^ 2)
end

function scene.finish(world)
	local path_drift = drift(offset(scene.path_box, scene.path_platform), scene.start_path)
	local book_drift = drift(offset(scene.book_box, scene.book_platform), scene.start_book)
	local bx = scene.book_platform:position()
	print(("mover: riders moved %.4f m (path) and %.4f m (book) on their platforms; path laps %d"):format(
		path_drift, book_drift, scene.path_mover.laps))
	expect.near(scene.farthest, 4, 0.01, "the path platform reached its far end (x, m)")
	expect.above(scene.path_mover.laps, 0, "ping-pong laps")
	expect.below(path_drift, 0.02, "rider drift on the path platform (m)")
	expect.below(book_drift, 0.02, "rider drift on the book's platform (m)")
	-- x = 4 (1 - cos(t / 2)).
	expect.near(bx, 4 * (1 - math.cos(world.time / 2)), 0.01, "the book's platform follows its velocity (x, m)")
end

return scene
