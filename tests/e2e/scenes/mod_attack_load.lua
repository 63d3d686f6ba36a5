-- Long C calls between the count hook's checks: each load parses a megabyte in one VM instruction.
local text = "return " .. string.rep("1 + ", 250000) .. "1"
return { update = function(world, dt, t) while true do load(text) end end }
