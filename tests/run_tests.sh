#!/usr/bin/env bash
# Runs the whole test suite against one build directory (normally build/sanitize):
#   1. the unit test program BUILD_DIR/test_X of every tests/unit/test_X.c (cmocka)
#   2. every tests/lua/*.lua with BUILD_DIR/tumble --headless   (files in subfolders are helpers)
#   3. every tests/e2e/*.sh                              (with TUMBLE and TB_BUILD_DIR set)
#   4. every fuzz target tests/fuzz/fuzz_X.c: BUILD_DIR/fuzz_X replays its corpus and crash
#      reproducers; with TB_FUZZ_BUILD_DIR set (./build.sh test sets build/fuzz) the libFuzzer build
#      also fuzzes it: a reproducible run with seed TB_FUZZ_SEED (default 1) and a fixed number of
#      executions, at most TB_FUZZ_SECONDS seconds (tests/fuzz/run_fuzz.sh)
# Prints one line per test program or script and ends with exactly "N passed, N failed".
# Exit status is non-zero when any failed or when nothing ran.
# TB_TEST_TIMEOUT (seconds, default 900) bounds each one, so a hang fails instead of stalling CI.
# TB_CI_START (epoch seconds, set by .ci/run) adds the elapsed CI time above the summary line.
set -uo pipefail

cd "$( dirname "${BASH_SOURCE[0]}" )/.." || exit 1

build_dir="${1:-build/sanitize}"
build_dir="${build_dir%/}"
[ -d "$build_dir" ] || { echo "run_tests.sh: no build directory '$build_dir' (run ./build.sh build sanitize)" >&2; exit 1; }

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Absolute, so scripts that change directory can still find the programs.
TB_BUILD_DIR="$( cd "$build_dir" && pwd )"
export TB_BUILD_DIR
export TUMBLE="$TB_BUILD_DIR/tumble"
timeout_s="${TB_TEST_TIMEOUT:-900}"

log_dir="$build_dir/test-logs"
rm -rf "$log_dir"
mkdir -p "$log_dir"

passed=0
failed=0
failed_names=()

# run NAME COMMAND...: runs the command with its output in a log; on failure shows the log's tail.
run()
{
	local name="$1"
	shift
	local log="$log_dir/${name//\//_}.log"
	local start end status
	start=$( date +%s.%N )
	timeout --kill-after=10 "$timeout_s" "$@" </dev/null >"$log" 2>&1
	status=$?
	end=$( date +%s.%N )
	local seconds
	seconds=$( awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }' )
	# cmocka's summary, when the program is a cmocka test: "[==========] 7 test(s) run."
	local detail
	detail=$( sed -n 's/^\[=\+\] \([0-9]\+\) test(s) run\./\1 cases, /p' "$log" | tail -n 1 )
	# libFuzzer's summary, when the program is a fuzz run: "Done 123456 runs in 30 second(s)".
	if [ -z "$detail" ]; then
		detail=$( sed -n 's/^fuzz: Done \([0-9]\+\) runs in .*/\1 runs, /p' "$log" | tail -n 1 )
	fi
	if [ "$status" -eq 0 ]; then
		passed=$(( passed + 1 ))
		printf 'PASS  %-40s (%s%ss)\n' "$name" "$detail" "$seconds"
	else
		failed=$(( failed + 1 ))
		failed_names+=( "$name" )
		local why="exit status $status"
		if [ "$status" -eq 124 ]; then
			why="timed out after ${timeout_s}s"
		elif [ "$status" -gt 128 ]; then
			why="killed by signal $(( status - 128 ))"
		fi
		printf 'FAIL  %-40s (%s, %ss; log %s)\n' "$name" "$why" "$seconds" "$log"
		tail -n 60 "$log" | sed 's/^/      | /'
	fi
}

shopt -s nullglob

# Driven by the sources, so a stale program of a removed test does not run and a test that was
# not built counts as failed.
for source in tests/unit/test_*.c; do
	name="$( basename "$source" .c )"
	if [ -x "$build_dir/$name" ]; then
		run "$name" "$build_dir/$name"
	else
		failed=$(( failed + 1 ))
		failed_names+=( "$name" )
		printf 'FAIL  %-40s (%s was not built)\n' "$name" "$build_dir/$name"
	fi
done

lua_tests=( tests/lua/*.lua )
if [ ${#lua_tests[@]} -gt 0 ]; then
	if [ -x "$TUMBLE" ]; then
		for test in "${lua_tests[@]}"; do
			run "$test" "$TUMBLE" --headless "$test"
		done
	else
		for test in "${lua_tests[@]}"; do
			failed=$(( failed + 1 ))
			failed_names+=( "$test" )
			printf 'FAIL  %-40s (%s was not built)\n' "$test" "$TUMBLE"
		done
	fi
fi

for test in tests/e2e/*.sh; do
	run "$test" bash "$test"
done

# Fuzz targets (tests/fuzz/README.md): a replay of the committed inputs, then a short libFuzzer run.
# Checks with known, open findings (tests/fuzz/known.txt) are skipped unless TB_FUZZ_KNOWN is set.
if [ -z "${TB_FUZZ_KNOWN+set}" ]; then
	TB_FUZZ_KNOWN=$( sed -e 's/#.*//' -e 's/[[:space:]]//g' tests/fuzz/known.txt | grep -v '^$' | paste -sd, - )
	export TB_FUZZ_KNOWN
fi
fuzz_run=()
if [ -n "${TB_FUZZ_BUILD_DIR:-}" ]; then
	# A reproducible run (fixed seed and execution count, run_fuzz.sh): CI fails only on a finding
	# that every run of the commit finds. TB_FUZZ_SEED=random fuzzes at random instead.
	fuzz_run=( --fuzz "$TB_FUZZ_BUILD_DIR" --seconds "${TB_FUZZ_SECONDS:-60}" )
	if [ "${TB_FUZZ_SEED:-1}" != random ]; then
		fuzz_run+=( --seed "${TB_FUZZ_SEED:-1}" )
	fi
fi
for source in tests/fuzz/fuzz_*.c; do
	name="$( basename "$source" .c )"
	run "tests/fuzz/$name" bash tests/fuzz/run_fuzz.sh --replay "$build_dir" "${fuzz_run[@]}" "$name"
done

echo
if [ -n "${TB_CI_START:-}" ]; then
	elapsed=$(( $( date +%s ) - TB_CI_START ))
	echo "elapsed since CI start: $(( elapsed / 60 ))m $(( elapsed % 60 ))s"
fi
if [ ${#failed_names[@]} -gt 0 ]; then
	echo "failed: ${failed_names[*]}"
fi
if [ $(( passed + failed )) -eq 0 ]; then
	echo "run_tests.sh: no tests found in $build_dir, tests/lua or tests/e2e" >&2
	echo "0 passed, 0 failed"
	exit 1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
