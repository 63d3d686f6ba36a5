-- Makes the Lua Language Server definitions (types/tumble.lua) and the reference tables of
-- docs/LUA_API.md from the description bindings/api.lua.
--
--   lua5.4 bindings/gen_api.lua           write both (from the repository root)
--   lua5.4 bindings/gen_api.lua --check   exit 1, naming the file, when either is not up to date
--
-- As a module (tests/lua/test_api.lua): require returns { definitions = fn(api) -> text,
-- document = fn(api, markdown) -> markdown with every generated table replaced }.
-- In docs/LUA_API.md a generated table sits between
--   <!-- api NAME: generated from bindings/api.lua -->   and   <!-- api end -->
-- where NAME is one of the tables of `sections` below.

local gen = {}

local HEADER = "Generated from bindings/api.lua by bindings/gen_api.lua: edit those, not this file."

-- "a: T, b?: fun(x: U, y: V): W" -> { {name = "a", type = "T"}, {name = "b", type = ..., optional = true} }
local function splitList( text )
	local items, depth, start = {}, 0, 1
	for i = 1, #text do
		local c = text:sub( i, i )
		if c == "(" or c == "<" or c == "{" then
			depth = depth + 1
		elseif c == ")" or c == ">" or c == "}" then
			depth = depth - 1
		elseif c == "," and depth == 0 then
			table.insert( items, text:sub( start, i - 1 ) )
			start = i + 1
		end
	end
	if text:find( "%S" ) then
		table.insert( items, text:sub( start ) )
	end
	for i, item in ipairs( items ) do
		items[i] = item:match( "^%s*(.-)%s*$" )
	end
	return items
end

-- "a: T, b?: U" -> { {name = "a", type = "T"}, {name = "b", type = "U", optional = true} }. Returns
-- may also be bare types ("T" -> { {type = "T"} }); parameters must be named.
local function parseList( text, bareTypes )
	local list = {}
	for _, item in ipairs( splitList( text or "" ) ) do
		local name, optional, type = item:match( "^([%w_]+)(%??):%s*(.+)$" )
		assert( name or bareTypes, "bindings/api.lua: a parameter must read 'name: type', got '" .. item .. "'" )
		table.insert( list, name and { name = name, type = type, optional = optional == "?" } or { type = item } )
	end
	return list
end

local function parseParams( text )
	return parseList( text, false )
end

local function parseReturns( text )
	return parseList( text, true )
end

-- The LuaLS class of a description class: userdata types carry their __name ("World").
local function luaClass( c )
	return c.kind == "userdata" and "tumble." .. c.name or c.name
end
gen.luaClass = luaClass

local function comment( lines, text )
	if text ~= nil and text ~= "" then
		table.insert( lines, "---" .. text )
	end
end

-- Definitions ------------------------------------------------------------------------------------

local function defineFunction( lines, c, local_, f, colon )
	comment( lines, f[4] )
	local params = parseParams( f[2] )
	local names = {}
	for _, p in ipairs( params ) do
		table.insert( lines, ( "---@param %s%s %s" ):format( p.name, p.optional and "?" or "", p.type ) )
		table.insert( names, p.name )
	end
	for _, r in ipairs( parseReturns( f[3] ) ) do
		table.insert( lines, ( "---@return %s%s" ):format( r.type, r.name and " " .. r.name or "" ) )
	end
	for _, overload in ipairs( f.overloads or {} ) do
		local args = {}
		if colon then
			table.insert( args, "self: " .. luaClass( c ) )
		end
		for _, p in ipairs( parseParams( overload ) ) do
			table.insert( args, ( "%s%s: %s" ):format( p.name, p.optional and "?" or "", p.type ) )
		end
		table.insert( lines, ( "---@overload fun(%s)" ):format( table.concat( args, ", " ) ) )
	end
	table.insert( lines, ( "function %s%s%s(%s) end" ):format( local_, colon and ":" or ".", f[1],
		table.concat( names, ", " ) ) )
	table.insert( lines, "" )
end

function gen.definitions( api )
	local lines = {
		"---@meta tumble",
		"-- " .. HEADER,
		"-- Lua Language Server definitions of the module `tumble` (docs/LUA_API.md): add this folder to",
		"-- the workspace.library setting (the repository's .luarc.json does) for completion and checks.",
		"",
	}
	for _, a in ipairs( api.aliases ) do
		comment( lines, a[3] )
		table.insert( lines, ( "---@alias %s %s" ):format( a[1], a[2] ) )
		table.insert( lines, "" )
	end
	for _, c in ipairs( api.classes ) do
		local local_ = luaClass( c ):gsub( "%.", "_" )
		comment( lines, c.doc )
		table.insert( lines, ( "---@class %s%s" ):format( luaClass( c ), c.parent and " : " .. c.parent or "" ) )
		for _, f in ipairs( c.fields or {} ) do
			local doc = f[4]
			if c.kind ~= "record" and f[3] == "r" then
				doc = "(read only) " .. doc
			end
			if f.joints and f.joints ~= "all" then
				doc = doc .. " (" .. f.joints .. ")"
			end
			local line = ( "---@field %s%s %s %s" ):format( f[1], c.optional and "?" or "", f[2], doc )
			table.insert( lines, ( line:gsub( "%s+$", "" ) ) )
		end
		table.insert( lines, ( "local %s = {}" ):format( local_ ) )
		table.insert( lines, "" )
		for _, f in ipairs( c.functions or {} ) do
			defineFunction( lines, c, local_, f, false )
		end
		for _, m in ipairs( c.methods or {} ) do
			defineFunction( lines, c, local_, m, true )
		end
	end
	table.insert( lines, "return tumble" )
	return table.concat( lines, "\n" ) .. "\n"
end

-- Markdown tables --------------------------------------------------------------------------------

local function callText( prefix, f )
	if f.table then
		return ( "`%s%s{...}`" ):format( prefix, f[1] )
	end
	local function args( params )
		local text = ""
		for i, p in ipairs( params ) do
			local sep = i > 1 and ", " or ""
			text = text .. ( p.optional and ( " [" .. sep .. p.name .. "]" ) or ( sep .. p.name ) )
		end
		return text
	end
	local text = ( "`%s%s(%s)`" ):format( prefix, f[1], args( parseParams( f[2] ) ) )
	for _, overload in ipairs( f.overloads or {} ) do
		text = text .. ( " or `(%s)`" ):format( args( parseParams( overload ) ) )
	end
	return text
end

local function escape( text )
	return ( text:gsub( "\n", " " ) )
end

local function access( f )
	return f[3] == "rw" and "read/write" or "read"
end

local function find( api, name )
	for _, c in ipairs( api.classes ) do
		if c.name == name then
			return c
		end
	end
	error( "bindings/api.lua: no class " .. name )
end

local function methodRows( rows, c, prefix )
	for _, m in ipairs( c.methods or {} ) do
		table.insert( rows, ( "| %s | %s |" ):format( callText( prefix, m ), escape( m[4] ) ) )
	end
end

local function fieldTable( api, name )
	local c = find( api, name )
	local rows = { "| field | access | meaning |", "|---|---|---|" }
	for _, f in ipairs( c.fields ) do
		table.insert( rows, ( "| `%s.%s` | %s | %s |" ):format( c.var, f[1], access( f ), escape( f[4] ) ) )
	end
	return rows
end

local function methodTable( api, name )
	local c = find( api, name )
	local rows = { "| method | result |", "|---|---|" }
	methodRows( rows, c, c.var .. ":" )
	return rows
end

local sections = {
	module = function( api )
		local rows = { "| function | result |", "|---|---|" }
		for _, name in ipairs { "tumble", "tumble.Input", "tumble.Camera", "tumble.Draw" } do
			local c = find( api, name )
			for _, f in ipairs( c.functions ) do
				table.insert( rows, ( "| %s | %s |" ):format( callText( c.var .. ".", f ), escape( f[4] ) ) )
			end
		end
		for _, f in ipairs( find( api, "tumble" ).fields ) do
			if f[1] ~= "input" and f[1] ~= "camera" and f[1] ~= "draw" then
				table.insert( rows, ( "| `tb.%s` | %s |" ):format( f[1], escape( f[4] ) ) )
			end
		end
		return rows
	end,
	world_methods = function( api ) return methodTable( api, "World" ) end,
	world_fields = function( api ) return fieldTable( api, "World" ) end,
	body_methods = function( api ) return methodTable( api, "Body" ) end,
	body_fields = function( api ) return fieldTable( api, "Body" ) end,
	joint_methods = function( api ) return methodTable( api, "Joint" ) end,
	joint_fields = function( api )
		local rows = { "| field | types | access | meaning |", "|---|---|---|---|" }
		for _, f in ipairs( find( api, "Joint" ).fields ) do
			table.insert( rows, ( "| `%s` | %s | %s | %s |" ):format( f[1], f.joints, access( f ), escape( f[4] ) ) )
		end
		return rows
	end,
	mover = function( api )
		local c = find( api, "Mover" )
		local rows = { "| method / field | result |", "|---|---|" }
		methodRows( rows, c, "m:" )
		for _, f in ipairs( c.fields ) do
			table.insert( rows, ( "| `m.%s` | %s: %s |" ):format( f[1], access( f ), escape( f[4] ) ) )
		end
		return rows
	end,
	snapshot_fields = function( api ) return fieldTable( api, "Snapshot" ) end,
	vehicle = function( api )
		local c = find( api, "Vehicle" )
		local rows = { "| method / field | result |", "|---|---|" }
		methodRows( rows, c, "car:" )
		for _, f in ipairs( c.fields ) do
			table.insert( rows, ( "| `car.%s` | %s: %s |" ):format( f[1], access( f ), escape( f[4] ) ) )
		end
		return rows
	end,
	character = function( api )
		local c = find( api, "Character" )
		local rows = { "| method / field | result |", "|---|---|" }
		methodRows( rows, c, "ch:" )
		for _, f in ipairs( c.fields ) do
			table.insert( rows, ( "| `ch.%s` | %s: %s |" ):format( f[1], access( f ), escape( f[4] ) ) )
		end
		return rows
	end,
}
gen.sections = sections

-- markdown with the text between each pair of markers replaced by its generated table. Raises
-- when a marker names no known table, or a table of `sections` has no marker.
function gen.document( api, markdown )
	local seen = {}
	local out = markdown:gsub( "(<!%-%- api ([%w_]+): generated from bindings/api%.lua %-%->\n)(.-)(<!%-%- api end %-%->)",
		function( open, name, _, close )
			local make = sections[name]
			assert( make, "docs/LUA_API.md: unknown generated table '" .. name .. "'" )
			seen[name] = true
			return open .. table.concat( make( api ), "\n" ) .. "\n" .. close
		end )
	for name in pairs( sections ) do
		assert( seen[name], "docs/LUA_API.md has no marker for the generated table '" .. name .. "'" )
	end
	return out
end

-- Command line -----------------------------------------------------------------------------------

local function read( path )
	local f = io.open( path, "rb" )
	if f == nil then
		return nil
	end
	local text = f:read( "a" )
	f:close()
	return text
end

local function main( args )
	local check = args[1] == "--check"
	local api = dofile( "bindings/api.lua" )
	local outputs = {
		{ "types/tumble.lua", gen.definitions( api ) },
		{ "docs/LUA_API.md", gen.document( api, assert( read( "docs/LUA_API.md" ), "run from the repository root" ) ) },
	}
	local stale = 0
	for _, o in ipairs( outputs ) do
		local path, text = o[1], o[2]
		if read( path ) ~= text then
			if check then
				io.stderr:write( path .. " is not what bindings/api.lua makes: run lua5.4 bindings/gen_api.lua\n" )
				stale = stale + 1
			else
				local f = assert( io.open( path, "wb" ) )
				f:write( text )
				f:close()
				print( "wrote " .. path )
			end
		end
	end
	os.exit( stale == 0 and 0 or 1 )
end

-- Run as the main chunk of lua5.4 (there is no caller four levels up), not loaded by another file.
if not pcall( debug.getlocal, 4, 1 ) then
	main( arg )
end

return gen
