-- 50 meshes on one spot under 10 boxes: each box is paired with every triangle within reach of each
-- mesh (about 50 per mesh), 25,000 pairs, though only 500 (box, mesh) pairs overlap.
local cells_x, cells_y, size = 40, 8, 0.25
local vertices, triangles = {}, {}
for j = 0, cells_y do
	for i = 0, cells_x do
		vertices[#vertices + 1] = { (i - cells_x / 2) * size, (j - cells_y / 2) * size, 0 }
	end
end
for j = 0, cells_y - 1 do
	for i = 0, cells_x - 1 do
		local a = j * (cells_x + 1) + i + 1
		triangles[#triangles + 1] = { a, a + 1, a + cells_x + 2 }
		triangles[#triangles + 1] = { a, a + cells_x + 2, a + cells_x + 1 }
	end
end
return {
	setup = function(world)
		for _ = 1, 50 do
			world:add_mesh{ vertices = vertices, triangles = triangles }
		end
		for k = 1, 10 do
			world:add_box{ pos = { k - 5.5, 0, 0.5 } }
		end
	end,
}
