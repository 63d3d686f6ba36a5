#!/usr/bin/env bash
# bench/lua_bench.sh keeps working (a benchmark, not a test: no time is asserted). A few steps of
# each update() variant and one reload, with the build under test.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

check "lua_bench runs" bash -c "TUMBLE='$TUMBLE' bench/lua_bench.sh --steps 5 --runs 1 --reloads 1 >'$SCRATCH/out' 2>'$SCRATCH/err'"
for line in "step ms median, no update()" "update() overhead, 1 call/body" "update() overhead, 3 calls/body" \
	"reload ms median"; do
	check "report has '$line'" grep -qF "$line" "$SCRATCH/out"
done
# The three variants must simulate the same thing: the scene's bodies end where they end without update().
for calls in 0 3; do
	TB_TOUCH=$calls "$TUMBLE" --headless bench/lua/touch1000.lua --steps 30 --all >"$SCRATCH/touch$calls.json"
done
check "update() that only reads and applies zero force changes no body" python3 - "$SCRATCH/touch0.json" "$SCRATCH/touch3.json" <<'PY'
import json, sys
a, b = (json.load(open(f))["bodies"] for f in sys.argv[1:3])
assert len(a) == len(b) == 1001, (len(a), len(b))
worst = max(max(abs(p - q) for p, q in zip(x["pos"], y["pos"])) for x, y in zip(a, b))
assert worst == 0.0, "bodies differ by %g m" % worst
PY
finish
