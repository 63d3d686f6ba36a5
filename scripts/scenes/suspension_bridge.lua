-- The suspension bridge of 004 (fig. 5.6): twelve planks hang between two towers, each tied to the
-- next by two ropes (distance constraints with a maximum length, slack below it) at its corners.
-- The deck sags into a shallow curve; three crates dropped on it are held up, and every rope holds.
local build = require "builders"
local expect = require "expect"

local PLANKS, PLANK, GAP, ROPE = 12, 0.9, 0.1, 0.12 -- count, plank length (m), gap, rope length (m)
local WIDTH, HEIGHT = 2, 4

local scene = {
	title = "Suspension bridge",
	description = "Twelve planks tied by ropes between two towers sag into a curve; three crates dropped on it are held up.",
	world = { gravity = { 0, 0, -10 } },
	steps = 480,
}

function scene.setup(world)
	build.ground(world)
	local span = PLANKS * PLANK + (PLANKS + 1) * GAP
	local x0 = -span / 2
	for _, x in ipairs{ x0 - 0.5, -x0 + 0.5 } do
		world:add_box{ name = x < 0 and "tower_w" or "tower_e", size = { 1, WIDTH + 0.4, HEIGHT }, pos = { x, 0, HEIGHT / 2 },
		               static = true }
	end
	scene.ropes, scene.planks = {}, {}
	local previous = nil -- nil: the west tower (the static world)
	local previous_end = x0
	for i = 1, PLANKS + 1 do
		local plank = nil
		local start = previous_end + GAP
		if i <= PLANKS then
			-- A little damping (1/s) stands in for the ropes' internal friction: the deck settles.
			plank = world:add_box{ name = "plank" .. i, size = { PLANK, WIDTH, 0.1 }, mass = 5, friction = 0.9,
			                       linear_damping = 0.5, angular_damping = 0.5,
			                       pos = { start + PLANK / 2, 0, HEIGHT - 0.05 } }
			scene.planks[i] = plank
		end
		for _, y in ipairs{ -WIDTH / 2 + 0.05, WIDTH / 2 - 0.05 } do
			scene.ropes[#scene.ropes + 1] = world:distance{
				a = previous, b = plank, anchor_a = { previous_end, y, HEIGHT - 0.05 }, anchor_b = { start, y, HEIGHT - 0.05 },
				min = 0, max = ROPE,
			}
		end
		previous, previous_end = plank, start + PLANK
	end
	scene.crates = {}
	for k, x in ipairs{ -3, 0, 2.5 } do
		scene.crates[k] = world:add_box{ name = "crate" .. k, size = { 0.6, 0.6, 0.6 }, mass = 20, friction = 0.9,
		                                 pos = { x, 0, HEIGHT + 1 + k } }
	end
	scene.worst_stretch = 0
end

function scene.update(world)
	scene.worst_stretch = math.max(scene.worst_stretch, (expect.joint_errors(scene.ropes)))
end

function scene.finish(world)
	local _, _, mid = scene.planks[PLANKS // 2]:position()
	-- An inextensible cable of length span + slack hung over span sags about sqrt(3 span slack / 8)
	-- (shallow parabola); the deck is such a cable made of planks.
	local span = PLANKS * PLANK + (PLANKS + 1) * GAP
	local slack = (PLANKS + 1) * (ROPE - GAP)
	local sag = math.sqrt(3 * span * slack / 8)
	print(("suspension_bridge: middle of the deck sags %.3f m (shallow cable: %.3f m), worst rope stretch %.4f m")
		:format(HEIGHT - 0.05 - mid, sag, scene.worst_stretch))
	expect.joints_hold(scene.ropes, 0.01, "ropes at the end")
	expect.below(scene.worst_stretch, 0.03, "largest rope stretch during the run (m)")
	expect.near(HEIGHT - 0.05 - mid, sag, 0.3 * sag, "sag of the middle of the deck (m)")
	for k, crate in ipairs(scene.crates) do
		local _, _, z = crate:position()
		expect.above(z, HEIGHT - 1.5 * sag, ("crate%d held by the deck (z, m)"):format(k))
	end
end

return scene
