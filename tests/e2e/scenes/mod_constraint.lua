-- A custom constraint's rows run in the state that steps the world: refused on the scene's world,
-- made on a world of the mod's own.
local tb = require "tumble"
return {
	setup = function(world)
		local a = world:add_sphere{ radius = 0.2, pos = { 0, 3, 2 } }
		local ok, err = pcall(world.constraint, world, { a = a, rows = function(c, dt) return {} end })
		print("mod_constraint: scene's world: " .. (ok and "made" or err))
		local own = tb.world{}
		local b = own:add_sphere{ radius = 0.2, pos = { 0, 0, 2 } }
		local j = own:constraint{ a = b, rows = function(c, dt) return {} end }
		print("mod_constraint: own world: " .. tostring(j:is_valid()))
	end,
}
