-- Assertions for the Lua API tests (tests/lua/*.lua). A test is a scene: it checks in setup,
-- update and finish, and any failed check raises an error, so `tumble --headless` exits with 1.
local check = {}

local function fail(message, level)
	error(message, level + 1)
end

--- fn() must raise exactly "<this file>:<line of the check.fails call>: <expected>". Write the
-- call that errs on the same line as check.fails, so the binding's file:line prefix is tested too.
function check.fails(fn, expected)
	local info = debug.getinfo(2, "Sl")
	local ok, err = pcall(fn)
	if ok then
		fail(("expected the error '%s', but the call succeeded"):format(expected), 2)
	end
	local want = ("%s:%d: %s"):format(info.short_src, info.currentline, expected)
	if err ~= want then
		fail(("wrong error message\n  expected: %s\n  got:      %s"):format(want, tostring(err)), 2)
	end
end

--- fn() must raise an error whose message contains `text` (plain substring).
function check.fails_with(fn, text)
	local ok, err = pcall(fn)
	if ok then
		fail(("expected an error containing '%s', but the call succeeded"):format(text), 2)
	end
	if not tostring(err):find(text, 1, true) then
		fail(("wrong error message\n  expected to contain: %s\n  got: %s"):format(text, tostring(err)), 2)
	end
end

function check.eq(actual, expected, what)
	if actual ~= expected then
		fail(("%s: expected %s, got %s"):format(what or "value", tostring(expected), tostring(actual)), 2)
	end
end

--- |actual - expected| <= tolerance (units are the caller's: metres, m/s, kg, ...).
function check.near(actual, expected, tolerance, what)
	if type(actual) ~= "number" or not (math.abs(actual - expected) <= tolerance) then
		fail(("%s: expected %.6g +- %.3g, got %s"):format(what or "value", expected, tolerance, tostring(actual)), 2)
	end
end

--- The values after `what` (three numbers, e.g. straight from body:position()) near expected
-- {x, y, z} (or {w, x, y, z} for a rotation). Varargs come last so a call's results all land there.
function check.vec(expected, tolerance, what, ...)
	local actual = { ... }
	for i = 1, #expected do
		local v = actual[i]
		if type(v) ~= "number" or not (math.abs(v - expected[i]) <= tolerance) then
			local e, a = {}, {}
			for j = 1, #expected do
				e[j] = ("%.6g"):format(expected[j])
				a[j] = tostring(actual[j])
			end
			fail(("%s: expected {%s} +- %.3g, got {%s}"):format(what, table.concat(e, ", "), tolerance,
				table.concat(a, ", ")), 2)
		end
	end
end

function check.truthy(value, what)
	if not value then
		fail((what or "condition") .. " is false", 2)
	end
end

return check
