-- Benchmark scene `chains10` (shared/bench/SCENES.md): the 10-chain (1000 body) variant of `chains`,
-- as published in 004 (section 5.2).
local scene = require("benchmarks").chains(10)
scene.title = "Benchmark: 10 chains"
scene.description = "10 chains of 100 hinged cubes each (1000 bodies): the published variant of the chains benchmark."
return scene
