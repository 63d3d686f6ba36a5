local scene = {}
local saved
function scene.setup(world)
	world:add_box{ size = { 10, 10, 1 }, pos = { 0, 0, -0.5 }, static = true }
	local ball = world:add_sphere{ name = "ball", pos = { 0, 0, 2 } }
	world:constraint{ b = ball, rows = function(c, dt)
		return { { J = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 }, error = math.min(c.center_b[3] - 1, 0), min = 0 } }
	end }
	saved = world:snapshot()
end
function scene.update(world, dt, t)
	if world.step_count % 7 == 3 then
		for _, j in ipairs(world:joints()) do j:destroy() end
		collectgarbage()
		world:restore(saved)
	elseif world.step_count % 5 == 1 then
		saved = world:snapshot()
		world:add_box{ pos = { 0, 0, 4 } }
	end
end
return scene
