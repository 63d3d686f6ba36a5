-- A mod reaching for the scene: every step it removes "all" contact_begin handlers and adds its
-- own, which rewrites the event it is given; it also tries to destroy the scene's world.
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
