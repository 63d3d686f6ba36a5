-- A cone joint whose anchor is 1e30 m away is accepted: the joint frames are not held to the
-- input limits, and the first step turns both bodies NaN.
local scene = {}
function scene.setup(world)
	local a = world:add_sphere{ pos = { 3, 3, 3 }, radius = 1 }
	local b = world:add_sphere{ pos = { 0, 0, 3 }, radius = 1 }
	world:cone{ a = a, b = b, anchor = { -1e30, -2.5, -2.3 }, axis = { -3, -2, -6.7 } }
end
return scene
