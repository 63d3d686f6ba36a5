-- Lua API of the global solver: the mode's settings and their errors, the live switch, the
-- world:solver_report() table, and a physical outcome in each method.
local tb = require "tumble"
local check = require "lib.check"

local scene = { steps = 1 }

local function settings_and_errors()
	local w = tb.world{ solver = "global", global_method = "jacobi", global_relaxation = 1.2, direct_solve = false }
	check.eq(w.solver, "global", "solver")
	check.eq(w.global_method, "jacobi", "global_method")
	w.global_method = "gauss_seidel"
	check.eq(w.global_method, "gauss_seidel", "global_method set live")
	check.truthy(#tb.solvers == 4 and tb.solvers[4] == "global", "tb.solvers lists global")

	check.fails(function() tb.world{ solver = "global", global_method = "newton" } end,
		"world: global_method must be \"gauss_seidel\" or \"jacobi\", got 'newton'")
	check.fails(function() tb.world{ global_method = 3 } end, "world: global_method must be a string of at most 32 bytes, got 3")
	check.fails(function() tb.world{ global_relaxation = 2 } end, "world: global_relaxation must be a number in (0, 2), got 2")
	check.fails(function() tb.world{ global_relaxation = 0 } end, "world: global_relaxation must be a positive number, got 0")
	check.fails(function() tb.world{ direct_solve = "yes" } end, "world: direct_solve must be true or false, got 'yes'")
	check.fails(function() tb.world{ solver = "pgs" } end, "world: invalid solver 'pgs'")
	check.fails(function() w.global_method = "sor" end, "World.global_method: must be \"gauss_seidel\" or \"jacobi\", got 'sor'")
	check.fails(function() w.global_method = nil end, "World.global_method: must be \"gauss_seidel\" or \"jacobi\", got nil")
	w:destroy()
end

-- A 1 kg ball resting on the ground, switched live from soft to global Gauss-Seidel, Jacobi, and
-- back: it stays on the ground (within 5 mm), and the report describes the system (one contact:
-- a normal and two friction rows).
local function report_and_live_switch()
	local w = tb.world{ gravity = { 0, 0, -10 }, sleep = false }
	w:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	local ball = w:add_sphere{ radius = 0.5, pos = { 0, 0, 0.5 }, mass = 1 }
	for _ = 1, 10 do w:step(1 / 60) end
	local empty = w:solver_report()
	check.eq(empty.iterations, 0, "no global step yet")
	check.eq(#empty.residuals, 0, "no residuals yet")

	for _, method in ipairs({ "gauss_seidel", "jacobi" }) do
		w.solver = "global"
		w.global_method = method
		for _ = 1, 30 do w:step(1 / 60) end
		local r = w:solver_report()
		check.eq(r.method, method, "report method")
		check.eq(r.iterations, 10, "sweeps: the world's iterations")
		check.eq(r.rows, 3, method .. ": rows")
		check.eq(r.contact_rows, 3, method .. ": contact rows")
		check.eq(r.joint_rows, 0, method .. ": joint rows")
		check.eq(#r.residuals, 10, method .. ": one residual per sweep")
		check.eq(#r.complementarity_errors, 10, method .. ": one complementarity error per sweep")
		check.truthy(r.residual >= 0 and r.residual < 1e-3, method .. ": resting residual below 1 mm/s")
		local _, _, z = ball:position()
		check.near(z, 0.5, 0.005, method .. ": ball on the ground (m)")
	end
	w.solver = "soft"
	for _ = 1, 30 do w:step(1 / 60) end
	local _, _, z = ball:position()
	check.near(z, 0.5, 0.005, "back in soft mode: ball on the ground (m)")
	w:destroy()
end

-- Five 1 kg links hanging by ball joints from the world, holding a 100 kg ball: the direct solve
-- takes the tree (15 rows) and the chain holds its length within 0.1 %; without it the rows are
-- swept like the others and stretch far more.
local function direct_solve_chain()
	local lengths = {}
	for _, direct in ipairs({ true, false }) do
		local w = tb.world{ gravity = { 0, 0, -10 }, sleep = false, solver = "global", direct_solve = direct }
		local prev
		local last
		for i = 1, 6 do
			local b = w:add_sphere{ radius = 0.1, pos = { 0, 0, 10 - 0.5 * i }, mass = i == 6 and 100 or 1 }
			w:ball{ a = prev, b = b, anchor = { 0, 0, 10 - 0.5 * (i - 1) } }
			prev, last = b, b
		end
		for _ = 1, 120 do w:step(1 / 60) end
		local r = w:solver_report()
		check.eq(r.direct_rows, direct and 18 or 0, "direct rows")
		check.eq(r.trees, direct and 1 or 0, "trees")
		local _, _, z = last:position()
		lengths[direct] = 10 - z
		w:destroy()
	end
	check.near(lengths[true], 3, 0.003, "chain length with the direct solve (m)")
	check.truthy(lengths[false] - 3 > 10 * math.abs(lengths[true] - 3), "the sweeps alone stretch the chain more")
end

-- A ball joint written in Lua (docs/LUA_API.md's example) holds a pendulum bob like the built-in
-- one in global mode: its three unbounded rows are assembled and solved directly as a tree, and
-- after 2 s the two bobs are within 1 mm of each other.
local function custom_rows()
	local function cross(a, b) return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] } end
	local bobs, reports = {}, {}
	for k, custom in ipairs({ true, false }) do
		local w = tb.world{ gravity = { 0, 0, -10 }, sleep = false, solver = "global" }
		local bob = w:add_sphere{ radius = 0.2, mass = 1, pos = { 1, 0, 5 } }
		if custom then
			w:constraint{ b = bob, anchor = { 0, 0, 5 }, rows = function(c)
				local ra = { c.anchor_a[1] - c.center_a[1], c.anchor_a[2] - c.center_a[2], c.anchor_a[3] - c.center_a[3] }
				local rb = { c.anchor_b[1] - c.center_b[1], c.anchor_b[2] - c.center_b[2], c.anchor_b[3] - c.center_b[3] }
				local rows = {}
				for i = 1, 3 do
					local e = { 0, 0, 0 }
					e[i] = 1
					local ja, jb = cross(e, ra), cross(rb, e)
					rows[i] = { J = { -e[1], -e[2], -e[3], ja[1], ja[2], ja[3], e[1], e[2], e[3], jb[1], jb[2], jb[3] },
					            error = c.anchor_b[i] - c.anchor_a[i] }
				end
				return rows
			end }
		else
			w:ball{ b = bob, anchor = { 0, 0, 5 } }
		end
		for _ = 1, 120 do w:step(1 / 60) end
		bobs[k] = { bob:position() }
		reports[k] = w:solver_report()
	end
	check.eq(reports[1].joint_rows, 3, "custom rows assembled")
	check.eq(reports[1].direct_rows, 3, "custom rows solved directly")
	local d = math.sqrt((bobs[1][1] - bobs[2][1]) ^ 2 + (bobs[1][2] - bobs[2][2]) ^ 2 + (bobs[1][3] - bobs[2][3]) ^ 2)
	check.truthy(d < 0.001, ("Lua ball joint and built-in ball joint agree within 1 mm, got %.4g m"):format(d))
end

settings_and_errors()
custom_rows()
report_and_live_switch()
direct_solve_chain()

return scene
