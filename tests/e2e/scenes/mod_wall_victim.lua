-- The other mod of the wall test: checks every step that the attacker beside it changed nothing it
-- sees, that its own handles are one per object, that its World has the scene's clock, and that its
-- event handler gets bodies of its own.
local tb = require "tumble"
local mod = { clean = 0, contacts = 0 }
local format = string.format

function mod.setup(world)
	mod.ground = world:body("ground")
	world:on("contact_begin", function(ev)
		assert(ev.a ~= "forged" and ev.normal[3] ~= 99, "the attacker's handler forged the victim's event")
		assert(ev.a == mod.ground or ev.b == mod.ground or ev.a == world:body("attacker_ball")
			or ev.b == world:body("attacker_ball"), "event bodies are the mod's own handles")
		mod.contacts = mod.contacts + 1
	end)
end

function mod.update(world, dt, t)
	assert(rawget(_G, "hijacked") == nil and rawget(_G, "hijacked_raw") == nil and string.x == nil)
	assert(string.format == format and table.insert ~= nil and math.floor(2.5) == 2)
	assert(type(tb.world) == "function" and tb.input.down("w") == false)
	assert(world:body("crate") == world:body("crate") and world:body("ground") == mod.ground)
	assert(world.time == t, "the mod's World has the scene's clock")
	mod.clean = mod.clean + 1
	-- Drawn into the view it shares with the scene (the scene counts it in finish).
	tb.draw.line({ 0, 0, 0 }, { 0, 0, 1 })
	if world.step_count == 29 then
		print(format("mod_wall_victim: clean for %d steps, %d contact events", mod.clean, mod.contacts))
	end
end

return mod
