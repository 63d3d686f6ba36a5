-- Fixed (gravity scale now bounded by TB_MAX_GRAVITY_SCALE). Found by the bad-input audit: a gravity scale of 3e38 (finite,
-- inside float range) is accepted by tbBody_SetGravityScale; the first step gives the body an
-- infinite velocity and trips tbAABB_IsValid in tbDynamicTree_MoveProxy (NaN pose in release).
local scene = {}
function scene.setup(world)
	local b = world:add_box{ pos = { 0, 0, 1 } }
	b.gravity_scale = 3e38
end
return scene
