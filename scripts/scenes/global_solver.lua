-- The global solver of the reference reading (001 sec. 6-7): every contact and friction row of a
-- 10-box stack in one system A lambda = b, solved by projected Gauss-Seidel in the world you see
-- and by projected Jacobi in a twin world stepped alongside (M swaps them). The plots show
-- log10 of the residual |A lambda - b| after each sweep of the last steps (world:solver_report()),
-- one curve a step: Gauss-Seidel uses each row's new impulse at once and falls faster per sweep;
-- Jacobi updates every row from the last sweep and needs more sweeps for the same residual.
local tb = require "tumble"
local build = require "builders"
local expect = require "expect"

local SWEEPS = 40
local BOXES = 10

local scene = {
	title = "Global solver: Gauss-Seidel and Jacobi",
	description = "A 10-box stack solved as one system (001's A lambda = b): Gauss-Seidel here, Jacobi in a twin world; the plots show the residual after each sweep.",
	keys = { { "m", "swap the methods of the shown and the twin world" } },
	world = { gravity = { 0, 0, -10 }, solver = "global", global_method = "gauss_seidel", iterations = SWEEPS,
	          sleep = false },
	steps = 600,
}

local function stack(world)
	local boxes = {}
	for i = 1, BOXES do
		boxes[i] = world:add_box{ name = "box" .. i, size = { 1, 1, 1 }, mass = 1, pos = { 0, 0, i - 0.5 } }
	end
	return boxes
end

function scene.setup(world)
	build.ground(world)
	scene.boxes = stack(world)
	-- The twin: the same stack, the other method, stepped with the shown world.
	scene.twin = tb.world{ gravity = { 0, 0, -10 }, solver = "global", global_method = "jacobi", iterations = SWEEPS,
	                       sleep = false }
	build.ground(scene.twin)
	scene.twin_boxes = stack(scene.twin)
	scene.worst = { gauss_seidel = 0, jacobi = 0 }
end

local function reports(world)
	local shown, twin = world:solver_report(), scene.twin:solver_report()
	if shown.method == "jacobi" then
		return twin, shown
	end
	return shown, twin
end

function scene.update(world, dt, t)
	scene.twin:step(dt)
	-- The residual once settled (after 2 s), per method.
	if t > 2 then
		local gs, jacobi = reports(world)
		scene.worst.gauss_seidel = math.max(scene.worst.gauss_seidel, gs.residual)
		scene.worst.jacobi = math.max(scene.worst.jacobi, jacobi.residual)
	end
end

function scene.keypressed(key)
	if key == "m" then
		local world = scene.boxes[1].world
		local shown = world.global_method
		world.global_method = scene.twin.global_method
		scene.twin.global_method = shown
	end
end

local function log10(x)
	return math.log(math.max(x, 1e-12), 10)
end

function scene.ui(ui)
	local gs, jacobi = reports(scene.boxes[1].world)
	ui.label(("shown: %s"):format(scene.boxes[1].world.global_method))
	ui.label(("%d rows, %d sweeps"):format(gs.rows, gs.iterations))
	ui.label(("GS %.1e m/s"):format(gs.residual))
	ui.label(("Jacobi %.1e m/s"):format(jacobi.residual))
	-- One sample per sweep: the plot's 240 samples are the last 6 steps' curves.
	for i = 1, #gs.residuals do
		ui.plot("GS log10 residual", log10(gs.residuals[i]))
	end
	for i = 1, #jacobi.residuals do
		ui.plot("Jacobi log10 residual", log10(jacobi.residuals[i]))
	end
end

function scene.finish(world)
	print(("global_solver: worst residual after 2 s: Gauss-Seidel %.2e m/s, Jacobi %.2e m/s"):format(
		scene.worst.gauss_seidel, scene.worst.jacobi))
	for name, boxes in pairs({ shown = scene.boxes, twin = scene.twin_boxes }) do
		local x, y, z = boxes[BOXES]:position()
		-- Resting height, less at most the 2 mm slop each of the 10 contacts keeps.
		expect.near(z, BOXES - 0.5 - 0.01, 0.015, name .. " top box height (m)")
		expect.below(math.sqrt(x * x + y * y), 0.01, name .. " top box sideways drift (m)")
	end
	-- Measured: 4.0e-3 and 5.7e-3 m/s at worst over the last 8 s (40 sweeps a step).
	expect.below(scene.worst.gauss_seidel, 0.01, "Gauss-Seidel residual once settled (m/s)")
	expect.below(scene.worst.jacobi, 0.05, "Jacobi residual once settled (m/s)")
end

return scene
