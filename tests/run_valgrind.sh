#!/usr/bin/env bash
# Memcheck over a build without sanitizers (valgrind and ASan do not mix):
#   tests/run_valgrind.sh BUILD_DIR           every unit test, a Lua test and a headless showcase run
#   tests/run_valgrind.sh BUILD_DIR --quick   the subset the test command runs (tests/e2e/valgrind.sh)
# Each program runs under `valgrind --error-exitcode=99 --leak-check=full`, with definite and
# indirect leaks counted as errors; one line per program, then "N passed, N failed".
# Memcheck is 20 to 100 times slower than a native run: the full set takes tens of minutes on 2
# cores (test_world alone ~10 min), the quick set about a minute.
set -uo pipefail

cd "$( dirname "${BASH_SOURCE[0]}" )/.." || exit 1

build_dir="${1:-build/debug}"
build_dir="${build_dir%/}"
quick=false
[ "${2:-}" = "--quick" ] && quick=true
command -v valgrind >/dev/null 2>&1 || { echo "run_valgrind.sh: valgrind not found (./build.sh deps installs it)" >&2; exit 1; }
[ -x "$build_dir/tumble" ] || { echo "run_valgrind.sh: $build_dir/tumble is not built" >&2; exit 1; }

log_dir="$build_dir/valgrind-logs"
rm -rf "$log_dir"
mkdir -p "$log_dir"
passed=0
failed=0

memcheck()
{
	local name="$1"
	shift
	local log="$log_dir/${name//\//_}.log"
	local start end status
	start=$( date +%s )
	# --errors-for-leak-kinds: "possible" leaks come from Lua's and glibc's own pools at exit.
	timeout --kill-after=10 "${TB_VALGRIND_TIMEOUT:-1800}" valgrind -q --error-exitcode=99 --leak-check=full \
		--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect "$@" </dev/null >"$log" 2>&1
	status=$?
	end=$( date +%s )
	if [ "$status" -eq 0 ]; then
		passed=$(( passed + 1 ))
		printf 'PASS  %-40s (%ss)\n' "$name" "$(( end - start ))"
	else
		failed=$(( failed + 1 ))
		printf 'FAIL  %-40s (exit status %s, %ss; log %s)\n' "$name" "$status" "$(( end - start ))" "$log"
		grep -E '^==[0-9]+==' "$log" | head -n 40 | sed 's/^/      | /'
	fi
}

shopt -s nullglob
if $quick; then
	# The fast unit tests (a few seconds each under memcheck) and a short run of the showcase:
	# the physics core, hulls, joints in a full scene, the Lua bindings and the scene host.
	units=( test_math test_table test_mass test_bad_input test_snapshot )
else
	units=()
	for source in tests/unit/test_*.c; do
		units+=( "$( basename "$source" .c )" )
	done
fi
for name in "${units[@]}"; do
	if [ -x "$build_dir/$name" ]; then
		memcheck "$name" "$build_dir/$name"
	else
		failed=$(( failed + 1 ))
		printf 'FAIL  %-40s (%s was not built)\n' "$name" "$build_dir/$name"
	fi
done
# The showcase's own 600 steps: its finish() checks need them (the cannon fires after 1.5 s).
memcheck "showcase sandboxed (600 steps)" "$build_dir/tumble" --headless --sandbox scripts/scenes/showcase.lua --report none
if ! $quick; then
	memcheck "showcase (600 steps)" "$build_dir/tumble" --headless scripts/scenes/showcase.lua --report none
	memcheck "tests/lua/test_world.lua" "$build_dir/tumble" --headless tests/lua/test_world.lua
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
