-- tb.camera, tb.draw and tb.input headless: every call is accepted with good arguments, recorded
-- (the camera's look_at reads back, drawn shapes are counted and dropped at the next step), and
-- refused with an exact message for bad ones. Without a window no key or button is down and the
-- mouse functions return nothing. The viewer side (what gets drawn, the camera following a body,
-- keys and mouse reaching the script) is tests/e2e/viewer_script_view.sh.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 3 }

local function count(...)
	return select("#", ...)
end

function scene.setup(world)
	local ball = world:add_sphere{ radius = 0.5, pos = { 0, 0, 3 } }
	scene.ball = ball

	-- Camera: nothing known before a look_at; then exactly what was set.
	check.eq(count(tb.camera.get()), 0, "camera.get before any look_at")
	tb.camera.look_at({ 4, -6, 3 }, { 0, 0, 1 })
	check.vec({ 4, -6, 3, 0, 0, 1 }, 0, "camera.get after look_at", tb.camera.get())
	tb.camera.follow(ball)
	tb.camera.follow(ball, { offset = { -5, -5, 3 }, smoothing = 0.3 })
	tb.camera.follow(nil)
	local gone = world:add_box{ size = { 1, 1, 1 } }
	gone:destroy()
	check.fails(function() tb.camera.follow(gone) end, "camera.follow: the Body was destroyed")
	check.fails(function() tb.camera.look_at({ 1, 1, 1 }, { 1, 1, 1 }) end,
		"camera.look_at: eye and target must be at least 1 mm apart")
	check.fails(function() tb.camera.look_at({ 1, 1 }, { 0, 0, 0 }) end,
		"camera.look_at: eye must be a table of 3 finite numbers, got {1, 1}")
	check.fails(function() tb.camera.follow(5) end, "camera.follow: body must be a Body or nil, got 5")
	check.fails(function() tb.camera.follow(ball, { smoothing = -1 }) end,
		"camera.follow: smoothing must be a number >= 0, got -1")
	check.fails(function() tb.camera.follow(ball, { ofset = { 1, 0, 0 } }) end, "camera.follow: unknown field 'ofset'")

	-- Drawing: each call adds one shape.
	check.eq(tb.draw.count(), 0, "shapes before drawing")
	tb.draw.line({ 0, 0, 0 }, { 1, 0, 0 })
	tb.draw.line({ 0, 0, 0 }, { 0, 1, 0 }, { 0, 1, 0 })
	tb.draw.arrow({ 0, 0, 0 }, { 0, 0, 1 }, { 0, 0, 1, 0.5 })
	tb.draw.point({ 1, 1, 1 }, { 1, 0, 0 })
	tb.draw.box({ 0, 0, 1 }, { 1, 2, 3 }, { 1, 1, 0 }, tb.axis_angle({ 0, 0, 1 }, 0.3))
	tb.draw.box({ 0, 0, 1 }, { 1, 1, 1 })
	tb.draw.sphere({ 2, 0, 1 }, 0.5, { 0, 1, 1 })
	tb.draw.text({ 0, 0, 2 }, "label")
	tb.draw.text({ 0, 0, 2 }, 42, { 1, 1, 1 })
	check.eq(tb.draw.count(), 9, "shapes after nine calls")
	check.fails(function() tb.draw.line({ 0, 0, 0 }, { 1, 0, 0 }, { 1, 2, 0 }) end,
		"draw.line: color must be {r, g, b} or {r, g, b, a} with numbers in [0, 1], got {1, 2, 0}")
	check.fails(function() tb.draw.point({ 0, 0, 0 }, "red") end,
		"draw.point: color must be {r, g, b} or {r, g, b, a} with numbers in [0, 1], got 'red'")
	check.fails(function() tb.draw.box({ 0, 0, 0 }, { 1, 0, 1 }) end,
		"draw.box: size must be a table of 3 positive numbers, got {1, 0, 1}")
	check.fails(function() tb.draw.sphere({ 0, 0, 0 }, -1) end, "draw.sphere: radius must be a positive number, got -1")
	check.fails(function() tb.draw.text({ 0, 0, 0 }, nil) end, "draw.text: text must be a string, got nil")
	check.fails(function() tb.draw.arrow({ 0, 0, 0 / 0 }, { 1, 0, 0 }) end,
		"draw.arrow: from must be a table of 3 finite numbers, got {0, 0, nan}")
	check.eq(tb.draw.count(), 9, "refused calls add nothing")

	-- Input without a window.
	for _, key in ipairs { "space", "w", "left" } do
		check.eq(tb.input.down(key), false, "input.down " .. key)
		check.eq(tb.input.pressed(key), false, "input.pressed " .. key)
		check.eq(tb.input.released(key), false, "input.released " .. key)
	end
	for _, button in ipairs { "left", "middle", "right" } do
		check.eq(tb.input.mouse_down(button), false, "input.mouse_down " .. button)
		check.eq(tb.input.mouse_pressed(button), false, "input.mouse_pressed " .. button)
		check.eq(tb.input.mouse_released(button), false, "input.mouse_released " .. button)
	end
	check.eq(count(tb.input.mouse()), 0, "input.mouse headless")
	check.eq(count(tb.input.mouse_ray()), 0, "input.mouse_ray headless")
	local names = "a-z, 0-9, -=[];',./`\\, or one of space, return, escape, tab, backspace, delete, insert, home, end, "
		.. "pageup, pagedown, left, right, up, down, left shift, right shift, left ctrl, right ctrl, left alt, "
		.. "right alt, f1-f12"
	check.fails(function() tb.input.pressed(3) end, "input.pressed: key must be a key name: " .. names .. "; got 3")
	check.fails(function() tb.input.released("spacebar") end,
		"input.released: key must be a key name: " .. names .. "; got 'spacebar'")
	check.fails(function() tb.input.mouse_down("centre") end, "input.mouse_down: invalid mouse button 'centre'")
end

-- Every step starts with an empty list: what update draws is what the step shows.
function scene.update(world)
	check.eq(tb.draw.count(), 0, ("shapes at the start of step %d"):format(world.step_count))
	tb.draw.point({ 0, 0, 0 })
	tb.draw.point({ 0, 0, 1 })
	scene.drawn = tb.draw.count()
end

function scene.finish(world)
	check.eq(scene.drawn, 2, "shapes drawn in the last update")
	check.eq(world.step_count, 3, "steps run")
	-- The camera request is kept across steps (headless nothing applies it).
	check.vec({ 4, -6, 3, 0, 0, 1 }, 0, "camera.get at the end", tb.camera.get())
end

return scene
