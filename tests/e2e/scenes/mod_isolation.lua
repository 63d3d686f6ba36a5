-- A mod reaching for the scene: every step it removes "all" contact_begin handlers and adds its
-- own, which rewrites the event it is given; it tries to destroy the scene's world, and replaces
-- tb.input.down with a loop (which the trusted scene would run without a budget).
local tb = require "tumble"
tb.input.down = function(key) while true do end end
local function forge(ev)
	ev.a, ev.b = "forged", "forged"
	ev.normal[3] = 99
end

return {
	update = function(world, dt, t)
		world:off("contact_begin")
		world:on("contact_begin", forge)
		if t == 0 then
			local ok, err = pcall(world.destroy, world)
			print("mod_isolation: destroy " .. (ok and "ran" or ("refused: " .. err)))
		end
	end,
}
