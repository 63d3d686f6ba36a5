local tb = require "tumble"
local scene = { reload = "swap" }
function scene.setup(world)
	scene.ball = world:add_sphere{ name = "ball", pos = { 0, 0, 2 } }
	scene.count = 0
	scene.nested = { a = { b = { scene.ball } } }
end
function scene.attach(world)
	world:on("contact_begin", function(ev) scene.count = scene.count + 1 end)
end
function scene.update(world, dt, t)
	if t > 0.02 then scene.ball:apply_impulse({ 0, 0, 1 }) end
end
return scene
