-- The API description bindings/api.lua against what the bindings register, both ways: every
-- registered type, method and field (read and write) is described and everything described is
-- registered; described constructor fields are known to the constructors; the tables the API
-- returns have the described fields; and types/tumble.lua and the generated tables of
-- docs/LUA_API.md are what bindings/gen_api.lua makes from the description.
local tb = require "tumble"
local check = require "lib.check"

-- The repository root, from this file's path (tests/lua/test_api.lua).
local root = debug.getinfo(1, "S").source:match("^@(.-)tests/lua/test_api%.lua$")
assert(root, "test_api.lua: cannot tell the repository root from " .. debug.getinfo(1, "S").source)
local api = dofile(root .. "bindings/api.lua")
local gen = dofile(root .. "bindings/gen_api.lua")

local scene = { steps = 1 }

local function keys(t)
	local list = {}
	for k in pairs(t) do
		list[#list + 1] = tostring(k)
	end
	table.sort(list)
	return list
end

local function names(entries, filter)
	local list = {}
	for _, e in ipairs(entries or {}) do
		if filter == nil or filter(e) then
			list[#list + 1] = e[1]
		end
	end
	table.sort(list)
	return list
end

-- Both ways: what is registered but not described, and what is described but not registered.
local function same(registered, described, what)
	local inRegistered, inDescribed = {}, {}
	for _, k in ipairs(registered) do inRegistered[k] = true end
	for _, k in ipairs(described) do inDescribed[k] = true end
	local missing, extra = {}, {}
	for _, k in ipairs(registered) do
		if not inDescribed[k] then missing[#missing + 1] = k end
	end
	for _, k in ipairs(described) do
		if not inRegistered[k] then extra[#extra + 1] = k end
	end
	check.eq(table.concat(missing, ", "), "", what .. ": registered by the bindings but not in bindings/api.lua")
	check.eq(table.concat(extra, ", "), "", what .. ": in bindings/api.lua but not registered by the bindings")
end

local function class(name)
	for _, c in ipairs(api.classes) do
		if c.name == name or gen.luaClass(c) == name then
			return c
		end
	end
	error("bindings/api.lua has no class " .. name, 2)
end

-- Every field of a record class and of its parents.
local function allFields(c)
	local list = {}
	while c ~= nil do
		for _, f in ipairs(c.fields) do
			list[#list + 1] = f
		end
		c = c.parent and class(c.parent)
	end
	return list
end

local function module_and_input()
	local m = class("tumble")
	local described = names(m.functions)
	for _, n in ipairs(names(m.fields)) do
		described[#described + 1] = n
	end
	same(keys(tb), described, "module tumble")
	same(keys(tb.input), names(class("tumble.Input").functions), "tb.input")
end

-- tbLua_RegisterType (bindings/l_tumble.c) puts each type's metatable in the registry under
-- "tumble.<Name>"; its __index and __newindex closures share the upvalues tbUp_*: the methods, the
-- getters and the setters (1-3), the name, and for a type with kinds (Joint: one per joint type)
-- the kinds' descriptor and their tables (5, 6). Those hold each kind's methods, getters and
-- setters three by three, and after the last kind the three of all kinds together.
local function userdata_types()
	local registered = {}
	for key, meta in pairs(debug.getregistry()) do
		-- Internal holders (a hull being built, freed by __gc) have no __index: not handles.
		if type(key) == "string" and key:match("^tumble%.") and type(meta) == "table" and meta.__name ~= nil
			and type(meta.__index) == "function" then
			registered[#registered + 1] = meta.__name
		end
	end
	table.sort(registered)
	local described = {}
	for _, c in ipairs(api.classes) do
		if c.kind == "userdata" then
			described[#described + 1] = c.name
		end
	end
	table.sort(described)
	same(registered, described, "userdata types")

	for _, name in ipairs(registered) do
		local c = class(name)
		local meta = debug.getregistry()["tumble." .. name]
		local _, methods = debug.getupvalue(meta.__index, 1)
		local _, getters = debug.getupvalue(meta.__index, 2)
		local _, setters = debug.getupvalue(meta.__newindex, 3)
		check.truthy(type(methods) == "table" and type(getters) == "table" and type(setters) == "table",
			name .. ": the metatable's __index and __newindex carry the method, getter and setter tables")
		local _, kinds = debug.getupvalue(meta.__index, 6)
		if kinds ~= nil then
			local all = #kinds - 3
			local function merged(own, slot)
				local t = {}
				for k, v in pairs(own) do t[k] = v end
				for k, v in pairs(kinds[all + slot]) do t[k] = v end
				return t
			end
			methods, getters, setters = merged(methods, 1), merged(getters, 2), merged(setters, 3)
		end
		same(keys(methods), names(c.methods), name .. " methods")
		same(keys(getters), names(c.fields), name .. " fields")
		same(keys(setters), names(c.fields, function(f) return f[3] == "rw" end), name .. " settable fields")
	end
end

-- A value no constructor field accepts: the field's reader raises a message about it, while a field
-- no reader looks at ends in "unknown field 'x'" (tbDef_Finish).
local nothing = coroutine.create(function() end)

local function constructor_fields()
	local world = tb.world{}
	local body = world:add_box{ kinematic = true }
	local mover = world:mover{ body = body }
	local callers = {
		{ "tumble.WorldDef", function(t) return tb.world(t) end },
		{ "tumble.MoverDef", function(t) return world:mover(t) end },
		{ "tumble.PathDef", function(t) return mover:follow(t) end },
		{ "tumble.TargetDef", function(t) return mover:move_to(t) end },
		{ "tumble.CompoundShape", function(t) return world:add_compound{ shapes = { t } } end },
	}
	for _, m in ipairs(class("World").methods) do
		local def = m.table and m[2]:match("^def: (tumble%.%w+)$")
		if def and def ~= "tumble.MoverDef" then
			callers[#callers + 1] = { def, function(t) return world[m[1]](world, t) end }
		end
	end
	local checked = 0
	for _, caller in ipairs(callers) do
		for _, f in ipairs(allFields(class(caller[1]))) do
			local ok, err = pcall(caller[2], { [f[1]] = nothing })
			local unknown = not ok and tostring(err):find("unknown field '" .. f[1] .. "'", 1, true)
			check.truthy(not unknown, caller[1] .. "." .. f[1] .. " is described but the constructor does not know it: " .. tostring(err))
			checked = checked + 1
		end
	end
	check.truthy(checked > 150, "constructor fields checked: " .. checked)
	world:destroy()
end

local function returned_tables()
	local world = tb.world{}
	world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	world:add_box{ pos = { 0, 0, 0.49 } }
	world:step(1 / 60)
	same(keys(world:stats()), names(class("tumble.Stats").fields), "world:stats()")
	local contacts = world:contacts()
	check.truthy(#contacts > 0, "a resting box has contacts")
	same(keys(contacts[1]), names(class("tumble.Contact").fields), "world:contacts()[1]")
	local hit = world:raycast({ 0, 0, 5 }, { 0, 0, -5 })
	same(keys(hit), names(class("tumble.RayHit").fields), "world:raycast()")
	world:destroy()
end

local function read(path)
	local f = assert(io.open(root .. path, "rb"))
	local text = f:read("a")
	f:close()
	return text
end

local function generated_files()
	local chunk, err = load(gen.definitions(api), "=types/tumble.lua")
	check.truthy(chunk ~= nil, "types/tumble.lua is valid Lua: " .. tostring(err))
	check.truthy(gen.definitions(api) == read("types/tumble.lua"),
		"types/tumble.lua is what bindings/api.lua makes (run lua5.4 bindings/gen_api.lua)")
	local doc = read("docs/LUA_API.md")
	check.truthy(gen.document(api, doc) == doc,
		"the generated tables of docs/LUA_API.md are what bindings/api.lua makes (run lua5.4 bindings/gen_api.lua)")
end

function scene.setup(world)
	module_and_input()
	userdata_types()
	constructor_fields()
	returned_tables()
	generated_files()
end

return scene
