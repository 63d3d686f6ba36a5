-- Bodies past the physics budget, every refusal caught by pcall (in a host run without --sandbox
-- a mod had no cap at all: 100,002 bodies in 20 steps). Refused at the limit: the world keeps at
-- most 1,000 bodies and the run goes on.
local mod = { made = 0 }
function mod.update(world, dt, t)
	for i = 1, 5000 do
		local k = mod.made
		local ok, err = pcall(world.add_sphere, world,
			{ radius = 0.1, pos = { 20 + (k % 40) * 0.5, (k // 40) * 0.5, 0.1 }, static = true })
		if not ok then
			if t == 0 then print(string.format("mod_attack_bodies: made %d, then: %s", mod.made, err)) end
			break
		end
		mod.made = mod.made + 1
	end
end
return mod
