#!/usr/bin/env bash
# Lua-side costs of the tumble program (issue 6), measured on the release build:
#   1. update() overhead: bench/lua/touch1000.lua (1000 boxes) without update(), with an update()
#      that reads every body's position, and with one that makes three calls per body (position,
#      velocity, a zero force); runs alternate so machine noise hits all alike. Reports the median
#      step time of each and the overheads in percent.
#   2. reload time: the same scene in headless watch mode, touched RELOADS times; the program
#      prints each reload's time (tbScene_Reload: new Lua state, setup, 1000 bodies).
# Usage: bench/lua_bench.sh [--steps N] [--runs N] [--reloads N]     (defaults 600, 3, 5)
# The program: $TUMBLE, else build/release/tumble.
set -euo pipefail
cd "$( dirname "$0" )/.."
steps=600
runs=3
reloads=5
while [ $# -gt 0 ]; do
	case "$1" in
		--steps) steps="$2"; shift 2 ;;
		--runs) runs="$2"; shift 2 ;;
		--reloads) reloads="$2"; shift 2 ;;
		*) echo "lua_bench.sh: unknown option '$1' (--steps N, --runs N, --reloads N)" >&2; exit 2 ;;
	esac
done
tumble="${TUMBLE:-build/release/tumble}"
[ -x "$tumble" ] || { echo "lua_bench.sh: $tumble not built (./build.sh build release)" >&2; exit 1; }
scene=bench/lua/touch1000.lua
scratch=$( mktemp -d )
trap 'rm -rf "$scratch"' EXIT

median_of()
{
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : 0.5 * (v[NR / 2] + v[NR / 2 + 1]) }'
}

: >"$scratch/touch0"
: >"$scratch/touch1"
: >"$scratch/touch3"
for run in $( seq 1 "$runs" ); do
	for calls in 0 1 3; do
		echo "lua_bench: run $run/$runs, $calls calls per body, $steps steps ..." >&2
		TB_TOUCH=$calls "$tumble" --headless "$scene" --steps "$steps" |
			python3 -c 'import json, sys; print(json.load(sys.stdin)["stats"]["step_ms_median"])' >>"$scratch/touch$calls"
	done
done
plain=$( median_of <"$scratch/touch0" )
touch1=$( median_of <"$scratch/touch1" )
touch3=$( median_of <"$scratch/touch3" )

# Reloads: a copy of the scene that finds the helper library, watched in real time.
copy="$scratch/touch1000.lua"
{
	printf 'package.path = "%s/scripts/lib/?.lua;" .. package.path\n' "$PWD"
	cat "$scene"
} >"$copy"
"$tumble" --headless --watch "$copy" >/dev/null 2>"$scratch/watch.err" &
watcher=$!
sleep 2
for i in $( seq 1 "$reloads" ); do
	echo "lua_bench: reload $i/$reloads ..." >&2
	touch "$copy"
	sleep 1.5
done
kill -INT "$watcher" 2>/dev/null || true
wait "$watcher" 2>/dev/null || true
grep -o 'in [0-9.]* ms' "$scratch/watch.err" | awk '{ print $2 }' >"$scratch/reloads"
count=$( wc -l <"$scratch/reloads" )
[ "$count" -gt 0 ] || { echo "lua_bench.sh: no reload was reported:" >&2; cat "$scratch/watch.err" >&2; exit 1; }
reload_median=$( median_of <"$scratch/reloads" )
reload_max=$( sort -g "$scratch/reloads" | tail -1 )

printf '\nscene: %s (1000 boxes + ground), %s steps x %s runs each, release build\n' "$scene" "$steps" "$runs"
printf '%-40s %10s\n' "step ms median, no update()" "$plain"
printf '%-40s %10s\n' "step ms median, update(): 1 call/body" "$touch1"
printf '%-40s %10s\n' "step ms median, update(): 3 calls/body" "$touch3"
awk -v a="$plain" -v b="$touch1" -v c="$touch3" 'BEGIN {
	printf "%-40s %9.1f%%   (target < 5%%)\n", "update() overhead, 1 call/body", 100 * (b - a) / a
	printf "%-40s %9.1f%%\n", "update() overhead, 3 calls/body", 100 * (c - a) / a }'
printf '%-40s %10s   (%s reloads, max %s ms; target < 50 ms)\n' "reload ms median" "$reload_median" "$count" "$reload_max"
