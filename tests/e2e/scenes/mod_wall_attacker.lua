-- A mod that breaks everything it can reach: its globals, its library tables and the string
-- methods, its tumble module and tb.input, its World and Body handles, the event tables it is
-- given and the scene's constraint. Each change must hold in its own state (checked, so the attack is real) and nowhere else.
local tb = require "tumble"
local mod = {}

local function attack(world)
	hijacked = true
	rawset(_G, "hijacked_raw", true)
	string.x = 1
	string.format = function() return "hijacked" end
	table.insert = nil
	math.floor = function() return -1 end
	tb.world = nil
	tb.input.down = function() while true do end end
	-- Metatables are locked (getmetatable gives the type's name); the attempt must fail here too.
	assert(getmetatable(world) == "World" and getmetatable("") == false, "metatables are locked")
	assert(pcall(function() getmetatable(world).__index.step = nil end) == false)
	assert(pcall(setmetatable, world, {}) == false)
	world:on("contact_begin", function(ev) ev.a, ev.normal[3] = "forged", 99 end)
	-- The scene's constraint: its handle here is the mod's own, without the scene's rows function,
	-- and the mod may not give it one of its own.
	local j = assert(world:joint("scene_rows"), "the scene's constraint")
	assert(j.rows == nil, "the scene's rows function reached the mod")
	local ok, err = pcall(function() j.rows = function(c, dt) return {} end end)
	assert(not ok and err:find("rows functions only to constraints of the worlds it made", 1, true), err)
end

function mod.setup(world)
	attack(world)
	world:add_sphere{ name = "attacker_ball", radius = 0.25, pos = { -3, 0, 1 } }
end

function mod.update(world, dt, t)
	-- The attack took in this state.
	assert(hijacked and string.x == 1 and string.format() == "hijacked" and table.insert == nil)
	assert(math.floor(2.5) == -1 and tb.world == nil)
	if world.step_count == 20 then
		print("mod_wall_attacker: own state changed at step 20")
	end
end

return mod
