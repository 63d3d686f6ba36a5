-- Long VM instructions: each concatenation copies 16 MB.
local mod = {}
function mod.setup(world) mod.text = string.rep("a", 8 << 20) end
function mod.update(world, dt, t) while true do local s = mod.text .. mod.text end end
return mod
