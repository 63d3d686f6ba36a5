-- The ragdoll of shared/bench/SCENES.md: 11 capsules (69 kg) joined by 10 cone joints, each with a
-- swing (cone) limit and a twist limit about the bone. Built standing in a local frame (feet at
-- z = 0, facing +x, left = +y) that is turned by `yaw` about +z and placed at `pos`.
local tb = require "tumble"

local ragdoll = {}

-- name, radius, half_length (of the inner segment, along the part's local z), mass, centre.
ragdoll.parts = {
	{ "pelvis", 0.13, 0.05, 12, { 0, 0, 1.00 } },
	{ "torso", 0.15, 0.12, 20, { 0, 0, 1.40 } },
	{ "head", 0.11, 0.03, 5, { 0, 0, 1.83 } },
	{ "upper_leg_l", 0.07, 0.16, 8, { 0, 0.10, 0.70 } },
	{ "lower_leg_l", 0.06, 0.17, 4, { 0, 0.10, 0.25 } },
	{ "upper_leg_r", 0.07, 0.16, 8, { 0, -0.10, 0.70 } },
	{ "lower_leg_r", 0.06, 0.17, 4, { 0, -0.10, 0.25 } },
	{ "upper_arm_l", 0.05, 0.12, 2.5, { 0, 0.24, 1.42 } },
	{ "lower_arm_l", 0.04, 0.11, 1.5, { 0, 0.24, 1.10 } },
	{ "upper_arm_r", 0.05, 0.12, 2.5, { 0, -0.24, 1.42 } },
	{ "lower_arm_r", 0.04, 0.11, 1.5, { 0, -0.24, 1.10 } },
}

-- name, parent, child (1-based part indices), pivot, swing limit (rad), twist limit (+- rad).
ragdoll.joints = {
	{ "waist", 1, 2, { 0, 0, 1.16 }, 0.5, 0.3 },
	{ "neck", 2, 3, { 0, 0, 1.66 }, 0.6, 0.6 },
	{ "hip_l", 1, 4, { 0, 0.10, 0.90 }, 0.8, 0.3 },
	{ "knee_l", 4, 5, { 0, 0.10, 0.475 }, 0.6, 0.1 },
	{ "hip_r", 1, 6, { 0, -0.10, 0.90 }, 0.8, 0.3 },
	{ "knee_r", 6, 7, { 0, -0.10, 0.475 }, 0.6, 0.1 },
	{ "shoulder_l", 2, 8, { 0, 0.24, 1.58 }, 1.2, 0.5 },
	{ "elbow_l", 8, 9, { 0, 0.24, 1.26 }, 1.0, 0.1 },
	{ "shoulder_r", 2, 10, { 0, -0.24, 1.58 }, 1.2, 0.5 },
	{ "elbow_r", 10, 11, { 0, -0.24, 1.26 }, 1.0, 0.1 },
}

--- Builds one ragdoll. opts: pos = {x, y, z} (origin of the ragdoll frame, default 0), yaw (rad
-- about +z), name (prefix: parts and joints are named prefix .. part name; default unnamed),
-- friction, vel = {x, y, z} (initial velocity of every part).
-- Returns { parts = {Body...} (in the table's order), joints = {Joint...}, by_name = {...} }.
function ragdoll.build(world, opts)
	opts = opts or {}
	local origin = opts.pos or { 0, 0, 0 }
	local rot = tb.axis_angle({ 0, 0, 1 }, opts.yaw or 0)
	local function place(p)
		local x, y, z = tb.rotate(rot, p)
		return { origin[1] + x, origin[2] + y, origin[3] + z }
	end
	local prefix = opts.name
	local doll = { parts = {}, joints = {}, by_name = {} }
	for i, part in ipairs(ragdoll.parts) do
		local body = world:add_capsule{
			name = prefix and (prefix .. part[1]) or nil,
			radius = part[2], half_length = part[3], mass = part[4],
			pos = place(part[5]), rot = rot, friction = opts.friction, vel = opts.vel,
		}
		doll.parts[i] = body
		doll.by_name[part[1]] = body
	end
	-- Twist axis = the bones' local z, reference = their local x: here both parts share the
	-- ragdoll's orientation, so these are the ragdoll frame's z and x axes in the world.
	local axis = { tb.rotate(rot, { 0, 0, 1 }) }
	local ref = { tb.rotate(rot, { 1, 0, 0 }) }
	for i, j in ipairs(ragdoll.joints) do
		local joint = world:cone{
			name = prefix and (prefix .. j[1]) or nil,
			a = doll.parts[j[2]], b = doll.parts[j[3]],
			anchor = place(j[4]), axis = axis, ref = ref,
			swing = j[5], twist = { -j[6], j[6] },
		}
		doll.joints[i] = joint
		doll.by_name[j[1]] = joint
	end
	return doll
end

--- The largest amount (rad) by which any joint of the ragdoll exceeds its swing and twist limits.
function ragdoll.limit_excess(doll)
	local swing, twist = 0, 0
	for i, j in ipairs(doll.joints) do
		local spec = ragdoll.joints[i]
		swing = math.max(swing, j.swing_angle - spec[5])
		twist = math.max(twist, math.abs(j.twist_angle) - spec[6])
	end
	return swing, twist
end

return ragdoll
