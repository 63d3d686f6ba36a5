local scene = { steps = 3 }
function scene.setup(world)
	local t = {}
	for i = 1, 1e9 do t[i] = string.rep("x", 100) end
end
function scene.update(world)
	while true do end
end
return scene
