-- Lua overhead benchmark (bench/lua_bench.sh): 1000 boxes in a 10 x 10 x 10 grid fall onto the
-- ground and settle. TB_TOUCH in the environment selects what update() does to every body every
-- step: 0 (or unset) no update() at all; 1 reads its position (one binding call); 3 reads its
-- position and velocity and applies a zero force (three calls). The physics is the same in all
-- three (sleep is off, so the zero force wakes nothing): the difference in step time is the cost
-- of the Lua side.
local build = require "builders"

local touch = tonumber(os.getenv("TB_TOUCH") or "0") or 0
local scene = { steps = 600, world = { sleep = false } }
local bodies = {}
local zero = { 0, 0, 0 }

function scene.setup(world)
	build.ground(world)
	bodies = {}
	for i = 0, 9 do
		for j = 0, 9 do
			for k = 0, 9 do
				bodies[#bodies + 1] = world:add_box{ size = { 0.8, 0.8, 0.8 },
					pos = { (i - 4.5) * 1.2, (j - 4.5) * 1.2, 0.6 + k * 1.0 } }
			end
		end
	end
end

if touch == 1 then
	function scene.update(world, dt, t)
		for n = 1, #bodies do
			local x, y, z = bodies[n]:position()
		end
	end
elseif touch == 3 then
	function scene.update(world, dt, t)
		for n = 1, #bodies do
			local b = bodies[n]
			local x, y, z = b:position()
			local vx, vy, vz = b:velocity()
			b:apply_force(zero)
		end
	end
end

return scene
