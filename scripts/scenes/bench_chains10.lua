-- Benchmark scene `chains10` (shared/bench/SCENES.md): the 10-chain (1000 body) variant of `chains`,
-- as published in 004 (section 5.2).
return require("benchmarks").chains(10)
