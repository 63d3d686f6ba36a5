-- Benchmark scene `chains` (shared/bench/SCENES.md): 20 chains x 100 hinged cubes, joints only.
-- The scene itself is built by scripts/lib/benchmarks.lua.
return require("benchmarks").chains(20)
