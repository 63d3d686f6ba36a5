-- The book's stack (000 ch. 11-14): five unit boxes, every other one shifted by 7.5 cm in x and y,
-- dropped from 2 cm above one another. Contact caching and warm starting keep it standing.
local build = require "builders"
local expect = require "expect"

local scene = {
	title = "Offset box stack",
	description = "Five unit boxes, each shifted 7.5 cm from the one below, dropped onto one another: warm starting keeps the stack standing.",
	world = { gravity = { 0, 0, -10 } },
	steps = 600,
}

function scene.setup(world)
	build.ground(world)
	scene.boxes = {}
	for i = 1, 5 do
		local shift = (i % 2 == 0) and 0.075 or 0
		scene.boxes[i] = world:add_box{ name = "box" .. i, size = { 1, 1, 1 }, pos = { shift, shift, 0.52 + (i - 1) * 1.02 },
		                                friction = 0.5, restitution = 0.5 }
	end
end

function scene.finish(world)
	for i, box in ipairs(scene.boxes) do
		local shift = (i % 2 == 0) and 0.075 or 0
		local x, y, z = box:position()
		expect.near(z, 0.5 + (i - 1), 0.05, "box" .. i .. " height (m)")
		expect.near(x, shift, 0.05, "box" .. i .. " x (m)")
		expect.near(y, shift, 0.05, "box" .. i .. " y (m)")
	end
end

return scene
