-- Assertions for a scene's finish(world): each failed check raises an error naming the scene line
-- that made it, so `tumble --headless scene.lua` exits with 1 and says what went wrong.
local expect = {}

--- |actual - expected| <= tolerance (in the caller's units: m, rad, s, m/s).
function expect.near(actual, expected, tolerance, what)
	if type(actual) ~= "number" or not (math.abs(actual - expected) <= tolerance) then
		error(("%s: expected %.6g +- %.3g, got %s"):format(what, expected, tolerance, tostring(actual)), 2)
	end
end

--- actual < limit.
function expect.below(actual, limit, what)
	if type(actual) ~= "number" or not (actual < limit) then
		error(("%s: expected below %.6g, got %s"):format(what, limit, tostring(actual)), 2)
	end
end

--- actual > limit.
function expect.above(actual, limit, what)
	if type(actual) ~= "number" or not (actual > limit) then
		error(("%s: expected above %.6g, got %s"):format(what, limit, tostring(actual)), 2)
	end
end

function expect.truthy(value, what)
	if not value then
		error(what .. ": expected true, got " .. tostring(value), 2)
	end
end

--- The p-th percentile (0 < p <= 100, nearest rank) of a list of numbers; the list is not changed.
function expect.percentile(values, p)
	local sorted = {}
	for i, v in ipairs(values) do
		sorted[i] = v
	end
	if #sorted == 0 then
		error("expect.percentile: no values", 2)
	end
	table.sort(sorted)
	return sorted[math.max(1, math.ceil(#sorted * p / 100))]
end

--- The largest position error (m) and angle error (rad) over a list of joints, and the first
-- broken joint (or nil).
function expect.joint_errors(joints)
	local pos, angle, broken = 0, 0, nil
	for _, j in ipairs(joints) do
		local p, a = j:error()
		pos, angle = math.max(pos, p), math.max(angle, a)
		if not broken and j:is_broken() then
			broken = j
		end
	end
	return pos, angle, broken
end

--- Every joint of the list holds: position error below max_gap (m), none broken.
function expect.joints_hold(joints, max_gap, what)
	local pos, _, broken = expect.joint_errors(joints)
	if broken then
		error(("%s: %s broke"):format(what, tostring(broken)), 2)
	end
	if not (pos < max_gap) then
		error(("%s: largest joint gap %.4g m, expected below %.4g m"):format(what, pos, max_gap), 2)
	end
end

return expect
