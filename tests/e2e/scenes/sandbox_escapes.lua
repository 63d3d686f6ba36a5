-- Run with --sandbox: every escape is stopped with an error and the script (and host) go on.
local tb = require "tumble"

local function blocked(what, fn, ...)
	local ok, err = pcall(fn)
	if ok then
		error(what .. " was not blocked", 2)
	end
	for _, text in ipairs{ ... } do
		if tostring(err):find(text, 1, true) then
			return
		end
	end
	error(what .. ": unexpected error: " .. tostring(err), 2)
end

local scene = { steps = 3 }

function scene.setup(world)
	assert(io == nil, "io is visible")
	assert(debug == nil, "debug is visible")
	assert(package == nil, "package is visible")
	assert(dofile == nil and loadfile == nil, "dofile/loadfile are visible")
	assert(os.execute == nil and os.getenv == nil and os.remove == nil and os.exit == nil, "os is not trimmed")
	assert(type(os.clock()) == "number" and type(os.time()) == "number" and type(os.date()) == "string")
	assert(string.dump == nil, "string.dump is visible")
	assert(getmetatable("") == false, "the string metatable is reachable")
	assert(("").dump == nil, "string.dump is reachable through the string methods")
	assert(getmetatable(world) == "World", "the World metatable is reachable")

	blocked("io.open", function() return io.open("/etc/passwd") end, "attempt to index a nil value")
	blocked("os.execute", function() return os.execute("true") end, "attempt to call a nil value")
	blocked("require of a C module", function() return require "lpeg" end, "not found in the sandbox")
	blocked("require of a standard library", function() return require "io" end, "not found in the sandbox")
	blocked("require with a path", function() return require "../x" end, "invalid module name")
	blocked("a binary chunk", function() assert(load("\27Lua\84\0")) end, "attempt to load a binary chunk")
	blocked("collectgarbage('stop')", function() collectgarbage("stop") end, "not allowed in the sandbox")
	blocked("setmetatable on a World", function() setmetatable(world, {}) end, "table expected")
	-- Memory bombs hit the cap (--memory) and are reported as errors; the memory comes back.
	blocked("string.rep memory bomb", function() return string.rep("x", 1 << 30) end, "more than the memory cap")
	blocked("table memory bomb", function() local t = {} for i = 1, 1e9 do t[i] = i end end, "not enough memory")
	collectgarbage()
	blocked("deep recursion", function() local function f(n) return 1 + f(n + 1) end return f(1) end,
		"stack overflow", "not enough memory")
	-- load of text works and sees only the sandbox.
	assert(load("return io")() == nil, "load escapes the sandbox")
	-- Each script gets its own copy of the module table.
	tb.world = nil
	-- The script still works after all that.
	world:add_box{ name = "survivor", pos = { 0, 0, 1 } }
end

function scene.update(world, dt, t)
	assert(world:body("survivor"), "the world still works")
end

return scene
