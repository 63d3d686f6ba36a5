#!/usr/bin/env bash
# The test command's share of valgrind memcheck (./build.sh valgrind runs everything on a debug
# build): tests/run_valgrind.sh --quick on the release build (-O2 with debug information; memcheck
# cannot run the ASan build): test_math, test_table, test_mass, test_bad_input, test_snapshot and
# the showcase's 600 steps in the sandbox, each with no memcheck error and no definite or
# indirect leak. About a minute on one core.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

release_dir="${TB_RELEASE_DIR:-build/release}"
if [ ! -x "$release_dir/tumble" ]; then
	echo "valgrind: $release_dir/tumble missing: ./build.sh build release"
	./build.sh build release >"$SCRATCH/build.log" 2>&1 || { tail -n 30 "$SCRATCH/build.log"; exit 1; }
fi
check "memcheck: quick set on $release_dir" bash tests/run_valgrind.sh "$release_dir" --quick
finish
