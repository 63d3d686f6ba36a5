-- Makes static meshes of 1,250 triangles (few Lua bytes each: the vertex and triangle lists are
-- shared) until its memory cap refuses one: the bodies a mod makes count against its cap.
local mod = {}

function mod.setup(world)
	local vertices, triangles = {}, {}
	local n = 25
	for j = 0, n do
		for i = 0, n do
			vertices[#vertices + 1] = { i, j, -20 - 0.1 * ((i + j) % 2) }
		end
	end
	for j = 0, n - 1 do
		for i = 0, n - 1 do
			local a = j * (n + 1) + i + 1
			triangles[#triangles + 1] = { a, a + 1, a + n + 2 }
			triangles[#triangles + 1] = { a, a + n + 2, a + n + 1 }
		end
	end
	local made = 0
	while true do
		local ok, err = pcall(world.add_mesh, world, { vertices = vertices, triangles = triangles, pos = { 30 + made, 0, 0 } })
		if not ok then
			print(string.format("mod_attack_meshes: made %d meshes, then: %s", made, err))
			break
		end
		made = made + 1
	end
	mod.made = made
end

return mod
