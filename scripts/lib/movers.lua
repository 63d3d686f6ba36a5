-- Moving platforms: a kinematic box driven by a path mover, and paths to give it.
local movers = {}

--- A kinematic box platform that follows a path (see world:mover). opts: size = {sx, sy, sz}
-- (default 3 x 3 x 0.5), path (list of points; the platform starts at the first), speed (m/s),
-- acceleration (m/s^2: gentle starts let riders keep their footing), mode ("loop", "pingpong",
-- "once"), wait (s at each point), smooth, friction (default 0.9), name.
-- Returns the platform Body and its Mover.
function movers.platform(world, opts)
	local path = opts.path
	local body = world:add_box{
		name = opts.name, kinematic = true, size = opts.size or { 3, 3, 0.5 }, pos = path[1],
		friction = opts.friction or 0.9,
	}
	local mover = world:mover{ body = body, path = path, speed = opts.speed or 1, mode = opts.mode or "pingpong",
	                           acceleration = opts.acceleration, wait = opts.wait, smooth = opts.smooth }
	return body, mover
end

--- n points on a horizontal circle of the given centre {x, y, z} and radius (m), counter-clockwise.
function movers.circle(center, radius, n)
	local points = {}
	for i = 0, n - 1 do
		local a = 2 * math.pi * i / n
		points[#points + 1] = { center[1] + radius * math.cos(a), center[2] + radius * math.sin(a), center[3] }
	end
	return points
end

--- A rectangle path (closed with mode = "loop") of half sizes hx, hy around centre.
function movers.rectangle(center, hx, hy)
	local x, y, z = center[1], center[2], center[3]
	return { { x - hx, y - hy, z }, { x + hx, y - hy, z }, { x + hx, y + hy, z }, { x - hx, y + hy, z } }
end

return movers
