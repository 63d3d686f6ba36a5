-- The book's "teleportation" test (000, final scene): a sphere and a diamond-shaped hull rush at
-- each other at 100 m/s each, the diamond spinning. Without continuous collision they would pass
-- through each other within one step (200 m/s * 1/60 s = 3.3 m, more than their sizes). Continuous
-- collision finds the impact time, so they collide and bounce apart.
local build = require "builders"
local expect = require "expect"

local scene = {
	title = "100 m/s collision",
	description = "A sphere and a spinning diamond meet at 100 m/s each; continuous collision makes them bounce instead of passing through.",
	camera = { eye = { -16, -4, 4.2 }, target = { -5, 0, 3 } },
	world = { gravity = { 0, 0, -10 }, continuous = true },
	steps = 60,
}

function scene.setup(world)
	build.ground(world, { size = { 60, 20 } })
	scene.sphere = world:add_sphere{ name = "sphere", radius = 0.5, pos = { 10, 0, 3 }, vel = { -100, 0, 0 }, mass = 1,
	                                 restitution = 0.5, ccd = true }
	scene.diamond = world:add_hull{ name = "diamond", points = build.diamond_points(0.5, 0.8), pos = { -10, 0, 3 },
	                                vel = { 100, 0, 0 }, angvel = { 0, 10, 0 }, mass = 1, restitution = 0.5, ccd = true }
	scene.closest = math.huge
	scene.met = false
end

function scene.update(world)
	local sx = scene.sphere:position()
	local dx = scene.diamond:position()
	-- The sphere starts on the +x side: it must stay there.
	scene.closest = math.min(scene.closest, sx - dx)
end

function scene.finish(world)
	local sx = scene.sphere:position()
	local dx = scene.diamond:position()
	local svx = scene.sphere:velocity()
	local dvx = scene.diamond:velocity()
	print(("teleport: closest centre distance %.3f m; final velocities sphere %.2f, diamond %.2f m/s"):format(
		scene.closest, svx, dvx))
	expect.above(sx - dx, 0, "the sphere is still on its side of the diamond (m)")
	-- Never on the wrong side at any step: they did not pass through each other. (The centres get
	-- closer than the touching distance for a step: the impact is caught, but the soft contact lets
	-- them overlap while it stops 200 m/s of closing speed.)
	expect.above(scene.closest, 0, "closest approach of the centres along x (m)")
	expect.above(svx, 0, "the sphere bounced back (vx, m/s)")
	expect.below(dvx, 0, "the diamond bounced back (vx, m/s)")
end

return scene
