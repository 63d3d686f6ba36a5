-- A thin dynamic hull about 1e4 m long (inside the input limits) was NaN after one step: its inertia
-- overflowed the float determinant in tbInvert (math_functions.h); now inverted in double. Found by fuzz_lua.
local tb = require 'tumble'
local S = { reload = 'rebuild', world = { gravity = {0, 0, -10} } }
B = {}
function S.setup(world)
W = world
pcall(function() B[#B + 1] = W:add_hull{ pos = {-2.125, -2.9375, -2.1875}, points = {{0, -6.5, 1e4}, {-2.6875, -2.125, -2.9375}, {0.5, -2.3125, -3.0625}, {-2.1875, -1.9375, -2.6875}, {-2.9375, -2.125, -2.9375}, {-1.9375, -2.6875, 0}, {1e4, -2.3125, -2.0625}, } } end)
end
return S
