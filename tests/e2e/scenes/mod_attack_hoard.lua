-- Holds 4 MiB more Lua memory every step until its own memory cap refuses it. Its hoard must not
-- make the other mods fail: each script has its own cap (--memory).
local mod = { keep = {} }

function mod.update(world, dt, t)
	mod.keep[#mod.keep + 1] = string.rep("h", (4 << 20) - 32) .. #mod.keep
end

return mod
