-- A sandboxed scene well inside its instruction budget (about 12,000 of 200,000) piles 1,200
-- boxes onto one spot: the next step has ~720,000 overlapping pairs and takes seconds even in
-- a release build. Nothing in the sandbox bounds the physics work a script can cause.
local scene = {}
function scene.setup(world)
	for i = 1, 1200 do world:add_box{ pos = { 0, 0, 0 } } end
end
return scene
