-- Benchmark scene `chains` (shared/bench/SCENES.md): 20 chains x 100 hinged cubes, joints only.
-- The scene itself is built by scripts/lib/benchmarks.lua.
local scene = require("benchmarks").chains(20)
scene.title = "Benchmark: 20 chains"
scene.description = "20 chains of 100 hinged cubes each: joints only, no contacts. A benchmark scene: heavy on purpose."
return scene
