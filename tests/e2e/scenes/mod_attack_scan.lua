-- Long C calls between the count hook's checks: each utf8.len scans 8 MB in one VM instruction, so
-- the 1000 instructions between two checks took seconds.
local mod = {}
function mod.setup(world) mod.text = string.rep("a", 8 << 20) end
function mod.update(world, dt, t) while true do utf8.len(mod.text) end end
return mod
