-- Chains of bodies linked by joints: the book's chain of distance constraints (000 ch. 9), hinge
-- chains (004's 100-cube chains and SCENES.md's `chains`), ropes of balls.
local chain = {}

local function add(a, b, s)
	return { a[1] + s * b[1], a[2] + s * b[2], a[3] + s * b[3] }
end

--- Builds `count` links whose centres start at `start` and step by `step` (a vector, m).
-- opts:
--   count, start = {x, y, z}, step = {dx, dy, dz}
--   shape = "box" (size = {sx, sy, sz}) | "sphere" (radius) | "capsule" (radius, half_length)
--   mass (kg per link, default 1), friction, collide = true|false (links touch each other),
--   layer, mask (collision bits of the links; mask = 0 for links without collisions)
--   joint = "hinge" (default, axis = {x, y, z}, limits) | "ball" | "distance" (rods between centres)
--   fixed = "first" (default: link 1 hangs from the static world half a step before it) | "none"
--         | "both" (the last link is attached to the world too, half a step after it)
--   motor = { speed, max_torque } on the first hinge (to the world)
--   name = prefix (links name1..nameN, joints name_j1..), ids = true: name the links anyway
-- Returns { links = {Body...}, joints = {Joint...} }.
function chain.build(world, opts)
	local count = opts.count or 5
	local start = opts.start or { 0, 0, 10 }
	local step = opts.step or { 1, 0, 0 }
	local kind = opts.joint or "hinge"
	local fixed = opts.fixed or "first"
	local links, joints = {}, {}
	for i = 1, count do
		local fields = {
			pos = add(start, step, i - 1),
			mass = opts.mass or 1,
			friction = opts.friction,
			layer = opts.layer,
			mask = opts.mask,
			name = opts.name and (opts.name .. i) or nil,
		}
		local shape = opts.shape or "box"
		if shape == "sphere" then
			fields.radius = opts.radius or 0.25
			links[i] = world:add_sphere(fields)
		elseif shape == "capsule" then
			fields.radius = opts.radius or 0.1
			fields.half_length = opts.half_length or 0.3
			fields.rot = opts.rot
			links[i] = world:add_capsule(fields)
		else
			fields.size = opts.size or { 0.5, 0.5, 0.5 }
			fields.rot = opts.rot
			links[i] = world:add_box(fields)
		end
	end

	local function join(a, b, anchor, anchor_b, index)
		local name = opts.name and (opts.name .. "_j" .. index) or nil
		if kind == "distance" then
			-- A rod from centre to centre (or to the world point).
			local pa = a and { a:position() } or anchor
			local pb = b and { b:position() } or anchor_b
			return world:distance{ a = a, b = b, anchor_a = pa, anchor_b = pb, name = name, collide = opts.collide }
		elseif kind == "ball" then
			return world:ball{ a = a, b = b, anchor = anchor, name = name, collide = opts.collide }
		end
		return world:hinge{ a = a, b = b, anchor = anchor, axis = opts.axis or { 0, 1, 0 }, limits = opts.limits,
		                    name = name, collide = opts.collide, motor = index == 1 and opts.motor or nil }
	end

	local n = 0
	if fixed ~= "none" then
		n = n + 1
		local pivot = add(start, step, -0.5)
		joints[n] = join(nil, links[1], pivot, pivot, n)
	end
	for i = 2, count do
		n = n + 1
		local mid = add(start, step, i - 1.5)
		joints[n] = join(links[i - 1], links[i], mid, nil, n)
	end
	if fixed == "both" then
		n = n + 1
		local pivot = add(start, step, count - 0.5)
		joints[n] = join(links[count], nil, pivot, pivot, n)
	end
	return { links = links, joints = joints }
end

--- Total length (m) along the chain: the sum of the distances between consecutive joint anchors
-- carried by the links, for checking that a chain does not stretch.
function chain.stretch(links)
	local total = 0
	for i = 2, #links do
		local ax, ay, az = links[i - 1]:position()
		local bx, by, bz = links[i]:position()
		total = total + math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2 + (bz - az) ^ 2)
	end
	return total
end

return chain
