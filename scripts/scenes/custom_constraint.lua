-- A constraint written in Lua: world:constraint{ rows = function(c, dt) ... end } returns the
-- Jacobian rows of a ball-and-socket joint (the book's point constraint, 000 ch. 8 and 15): three
-- rows, one per world axis e, J = (-e, -(rA x e), e, rB x e) over (vA, wA, vB, wB), with the anchor
-- gap along e as the position error. The solver treats the rows like its own joints' rows.
-- Beside it, the same spinning pendulum on the built-in ball joint: the two move alike.
local build = require "builders"
local expect = require "expect"

local scene = {
	title = "A constraint written in Lua",
	description = "A ball-and-socket joint whose Jacobian rows come from a Lua function: the solver treats them like its own.",
	world = { gravity = { 0, 0, -10 } },
	steps = 300,
}

local function sub(a, b)
	return { a[1] - b[1], a[2] - b[2], a[3] - b[3] }
end

local function cross(a, b)
	return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] }
end

-- The rows of a point constraint between the two joint anchors.
local function ball_rows(c)
	local ra, rb = sub(c.anchor_a, c.center_a), sub(c.anchor_b, c.center_b)
	local gap = sub(c.anchor_b, c.anchor_a)
	local rows = {}
	for i = 1, 3 do
		local e = { 0, 0, 0 }
		e[i] = 1
		local ja, jb = cross(e, ra), cross(rb, e) -- -(rA x e) = e x rA
		rows[i] = { J = { -e[1], -e[2], -e[3], ja[1], ja[2], ja[3], e[1], e[2], e[3], jb[1], jb[2], jb[3] },
		            error = gap[i] }
	end
	return rows
end

-- A box 0.97 m below and 0.25 m beside its pivot, thrown sideways and spinning: it traces a cone.
local function pendulum(world, name, y)
	return world:add_box{ name = name, size = { 0.4, 0.2, 0.6 }, mass = 2, pos = { 0.25, y, 5 - 0.97 },
	                      vel = { 0, 0.6, 0 }, angvel = { 0.3, 0, 0.5 } }
end

function scene.setup(world)
	build.ground(world)
	local builtin = pendulum(world, "builtin", -1)
	local custom = pendulum(world, "custom", 1)
	scene.ball = world:ball{ name = "ball", b = builtin, anchor = { 0, -1, 5 } }
	-- every_substep: the rows follow the bodies through the soft solver's sub-steps, as the
	-- built-in joints do (once per step is enough for the single-step solvers).
	scene.lua = world:constraint{ name = "lua_ball", b = custom, anchor = { 0, 1, 5 }, rows = ball_rows,
	                              every_substep = true }
	scene.builtin, scene.custom = builtin, custom
	scene.worst = 0
end

function scene.update(world)
	local ax, ay, az = scene.builtin:position()
	local bx, by, bz = scene.custom:position()
	-- Same motion 2 m apart in y.
	scene.worst = math.max(scene.worst, math.sqrt((bx - ax) ^ 2 + (by - ay - 2) ^ 2 + (bz - az) ^ 2))
end

function scene.finish(world)
	local gap = scene.lua:error()
	local x = scene.custom:position()
	print(("custom_constraint: Lua rows vs built-in ball joint: largest position difference %.6f m over %d steps, "
		.. "anchor gap %.6f m, %d rows"):format(scene.worst, world.step_count, gap, scene.lua.row_count))
	expect.near(scene.lua.row_count, 3, 0, "rows used in the last step")
	expect.below(gap, 0.001, "anchor gap of the Lua ball joint (m)")
	expect.below(scene.worst, 0.001, "largest position difference from the built-in ball joint (m)")
	expect.above(math.abs(x - 0.25), 0.05, "the pendulum swung (x travel, m)")
end

return scene
