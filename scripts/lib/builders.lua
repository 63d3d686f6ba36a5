-- Builders shared by the shipped scenes: ground, stacks, pyramids, piles and convex solids.
-- Every builder takes the world first and a table of options, and returns what it made.
local tb = require "tumble"

local builders = {}

--- A static ground box whose top face is at z = top (default 0).
-- opts: size = {sx, sy} (m, default 40 x 40), top, friction, name (default "ground").
function builders.ground(world, opts)
	opts = opts or {}
	local size = opts.size or { 40, 40 }
	local thickness = 1
	return world:add_box{
		name = opts.name or "ground",
		size = { size[1], size[2], thickness },
		pos = { 0, 0, (opts.top or 0) - thickness / 2 },
		static = true,
		friction = opts.friction or 0.6,
	}
end

--- A vertical stack of equal boxes resting on z = base.
-- opts: count, size (edge, m), pos = {x, y}, base, gap (m between boxes), prefix (names prefix1..N),
-- density, friction. Returns the list of boxes, bottom first.
function builders.stack(world, opts)
	local count = opts.count or 5
	local edge = opts.size or 1
	local x, y = (opts.pos or { 0, 0 })[1], (opts.pos or { 0, 0 })[2]
	local base = opts.base or 0
	local gap = opts.gap or 0
	local boxes = {}
	for i = 1, count do
		boxes[i] = world:add_box{
			name = opts.prefix and (opts.prefix .. i) or nil,
			size = { edge, edge, edge },
			pos = { x, y, base + edge / 2 + (i - 1) * (edge + gap) },
			density = opts.density,
			friction = opts.friction,
		}
	end
	return boxes
end

--- A pyramid of boxes in the x-z plane: `base` boxes in the bottom row, one fewer per row.
-- opts: base (count), size (edge, m), pos = {x, y}, spacing (extra m between neighbours), top_name.
-- Returns the list of boxes, the last one on top.
function builders.pyramid(world, opts)
	local rows = opts.base or 6
	local edge = opts.size or 1
	local spacing = opts.spacing or 0.05
	local x0, y0 = (opts.pos or { 0, 0 })[1], (opts.pos or { 0, 0 })[2]
	local boxes = {}
	for row = 0, rows - 1 do
		local n = rows - row
		local width = n * edge + (n - 1) * spacing
		for i = 0, n - 1 do
			local last = row == rows - 1
			boxes[#boxes + 1] = world:add_box{
				name = last and opts.top_name or nil,
				size = { edge, edge, edge },
				pos = { x0 - width / 2 + edge / 2 + i * (edge + spacing), y0, edge / 2 + row * edge },
				friction = opts.friction,
			}
		end
	end
	return boxes
end

--- Points of an octahedron ("diamond") of the given half height and radius, for add_hull.
function builders.diamond_points(radius, half_height)
	return {
		{ radius, 0, 0 }, { -radius, 0, 0 }, { 0, radius, 0 }, { 0, -radius, 0 },
		{ 0, 0, half_height }, { 0, 0, -half_height },
	}
end

--- A loose pile of mixed solids dropped above (x, y): spheres, boxes, capsules and diamonds.
-- opts: count, pos = {x, y}, height (m of the lowest one), seed. Returns the bodies.
function builders.pile(world, opts)
	local count = opts.count or 12
	local x0, y0 = (opts.pos or { 0, 0 })[1], (opts.pos or { 0, 0 })[2]
	local z = opts.height or 2
	-- A small linear congruential generator keeps the pile identical on every run and reload.
	local state = opts.seed or 7
	local function random()
		state = (state * 1103515245 + 12345) % 2147483648
		return state / 2147483648
	end
	local bodies = {}
	for i = 1, count do
		-- 1.2 m apart vertically: more than the largest two half-extents, so nothing starts overlapping.
		local pos = { x0 + (random() - 0.5) * 1.5, y0 + (random() - 0.5) * 1.5, z + (i - 1) * 1.2 }
		local rot = tb.axis_angle({ random() - 0.5, random() - 0.5, 1 }, random() * math.pi)
		local kind = i % 4
		if kind == 0 then
			bodies[i] = world:add_sphere{ radius = 0.3 + 0.2 * random(), pos = pos }
		elseif kind == 1 then
			bodies[i] = world:add_box{ size = { 0.6, 0.4 + 0.4 * random(), 0.5 }, pos = pos, rot = rot }
		elseif kind == 2 then
			bodies[i] = world:add_capsule{ radius = 0.2, half_length = 0.3, pos = pos, rot = rot }
		else
			bodies[i] = world:add_hull{ points = builders.diamond_points(0.4, 0.5), pos = pos, rot = rot }
		end
		-- Nothing resists rolling in a rigid-body model: a little damping (1/s) stands in for it, so
		-- balls and capsules deflected off the pile do not roll off the edge of the world.
		bodies[i]:set_damping(0.2, 1)
	end
	return bodies
end

return builders
