#!/usr/bin/env bash
# The one entry point for building, running, testing and benchmarking Tumble on Debian 12.
# It installs packages, generates makefiles with premake and calls make; the source files and flags
# live in premake5.lua, the package list in vendor/packages.txt.
set -euo pipefail

cd "$( dirname "${BASH_SOURCE[0]}" )"

readonly DEFAULT_SCENE="scripts/scenes/showcase.lua"
readonly CONFIGS="debug release sanitize"

usage()
{
	cat <<EOF
usage: ./build.sh COMMAND [ARGS]

  deps                 install the Debian packages of vendor/packages.txt that are missing
  build [CONFIG]       deps, generate makefiles, build CONFIG (debug, release or sanitize; default release)
  run [SCENE] [ARGS]   build release and open SCENE in the viewer (default $DEFAULT_SCENE)
  test                 build release and sanitize (ASan + UBSan) and run the whole test suite, with a
                       replay of the fuzz corpora and a seeded libFuzzer run per target (clang
                       build; seed TB_FUZZ_SEED, default 1, or 'random'; a fixed number of
                       executions, at most TB_FUZZ_SECONDS, default 60; 0 turns it off)
  fuzz [SECONDS]       build the fuzz targets with clang and libFuzzer, run each for SECONDS
                       (default 60); see tests/fuzz/README.md
  valgrind [--quick]   build debug and run the unit tests, the showcase and a Lua test under
                       valgrind memcheck (tests/run_valgrind.sh; about 30 min on 2 cores; --quick:
                       the subset the test command runs, about a minute)
  bench [ARGS]         build release and run build/release/tumble_bench ARGS
  clean                remove build/ (binaries, objects, makefiles, generated GL loader)

Environment: CC and CXX pick the compilers (e.g. CC=clang CXX=clang++), VERBOSE=1 shows compile commands.
EOF
}

die()
{
	echo "build.sh: error: $*" >&2
	exit 1
}

note()
{
	echo "build.sh: $*"
}

# Package names from vendor/packages.txt without comments and blanks.
read_packages()
{
	sed -e 's/#.*//' -e 's/[[:space:]]\+//g' vendor/packages.txt | grep -v '^$'
}

cmd_deps()
{
	[ -f vendor/packages.txt ] || die "vendor/packages.txt is missing"
	local packages=()
	mapfile -t packages < <( read_packages )

	# Fast path: no apt at all when dpkg already has every package.
	local installed
	installed=$( dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null |
		awk '$NF == "installed" { print $1 }' || true )
	local missing=()
	local p
	for p in "${packages[@]}"; do
		if ! grep -qxF "$p" <<<"$installed"; then
			missing+=( "$p" )
		fi
	done
	if [ ${#missing[@]} -eq 0 ]; then
		return 0
	fi

	note "installing missing Debian packages: ${missing[*]}"
	local sudo=()
	if [ "$( id -u )" -ne 0 ]; then
		command -v sudo >/dev/null 2>&1 ||
			die "not root and no sudo: install these packages first: ${missing[*]}"
		sudo=( sudo )
	fi
	command -v apt-get >/dev/null 2>&1 ||
		die "apt-get not found: this build expects Debian 12; install the equivalents of: ${missing[*]}"
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update ||
		die "apt-get update failed"
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" ||
		die "apt-get install failed for: ${missing[*]}"
}

generate()
{
	# premake5 is used when someone has it; Debian 12 has premake4, which reads the same file.
	# premake prints its errors on stdout, so its output is kept and shown only when it fails.
	local premake
	if command -v premake5 >/dev/null 2>&1; then
		local action=gmake2
		premake5 --help 2>/dev/null | grep -q ' gmake2 ' || action=gmake
		premake=( premake5 --file=premake5.lua "$action" )
	elif command -v premake4 >/dev/null 2>&1; then
		premake=( premake4 --file=premake5.lua gmake )
	else
		die "neither premake5 nor premake4 found (./build.sh deps installs premake4)"
	fi
	local output
	if ! output=$( "${premake[@]}" 2>&1 ); then
		printf '%s\n' "$output" >&2
		die "${premake[*]} failed"
	fi
	[ -f build/Makefile ] || die "premake did not write build/Makefile"
}

cmd_build()
{
	local config="${1:-release}"
	case " $CONFIGS " in
		*" $config "*) ;;
		*) die "unknown configuration '$config' (one of: $CONFIGS)" ;;
	esac
	cmd_deps
	generate
	local jobs
	jobs=$( nproc 2>/dev/null || echo 2 )
	local verbose=()
	if [ -n "${VERBOSE:-}" ]; then
		verbose=( verbose=1 )
	fi
	note "building $config with $jobs jobs"
	make --no-print-directory -C build config="$config" -j"$jobs" "${verbose[@]}" ||
		die "build of '$config' failed (see the compiler messages above)"
}

cmd_run()
{
	local scene="${1:-$DEFAULT_SCENE}"
	if [ $# -gt 0 ]; then
		shift
	fi
	cmd_build release
	[ -x build/release/tumble ] ||
		die "build/release/tumble was not built: runtime/ has no sources yet, so there is no program to run"
	[ -f "$scene" ] || die "scene '$scene' not found"
	exec build/release/tumble "$scene" "$@"
}

# Fuzz targets: the `fuzz` configuration of premake5.lua, built with clang (libFuzzer) whatever CC
# says, and only the fuzz_* programs (the other projects are not meant for it).
build_fuzzers()
{
	command -v clang >/dev/null 2>&1 ||
		die "clang not found: the fuzz targets need clang's libFuzzer (./build.sh deps installs clang)"
	cmd_deps
	generate
	local targets=()
	mapfile -t targets < <( sed -n 's/^PROJECTS := //p' build/Makefile | tr ' ' '\n' | grep '^fuzz_' )
	[ ${#targets[@]} -gt 0 ] || die "premake5.lua declared no fuzz_* projects (tests/fuzz/fuzz_*.c)"
	local jobs
	jobs=$( nproc 2>/dev/null || echo 2 )
	local verbose=()
	if [ -n "${VERBOSE:-}" ]; then
		verbose=( verbose=1 )
	fi
	note "building fuzz targets with clang: ${targets[*]}"
	make --no-print-directory -C build config=fuzz CC=clang CXX=clang++ -j"$jobs" "${verbose[@]}" "${targets[@]}" ||
		die "build of the fuzz targets failed (see the compiler messages above)"
}

cmd_test()
{
	# The soak and memcheck tests (tests/e2e/soak.sh, valgrind.sh) run the release build: keep it
	# current (a no-op in CI, which has just built it).
	cmd_build release
	cmd_build sanitize
	# The committed corpora and reproducers are always replayed; then each target is fuzzed for a
	# fixed number of executions with seed TB_FUZZ_SEED (default 1), at most TB_FUZZ_SECONDS seconds
	# (default 60; 0 turns the libFuzzer run off). Seeded, so every run of a commit fuzzes nearly the
	# same inputs and CI does not fail by luck; a code change still explores new ones, so run the
	# suite before committing (docs/RELIABILITY.md). Campaigns (./build.sh fuzz) explore at random.
	local seconds="${TB_FUZZ_SECONDS:-60}"
	case "$seconds" in
		'' | *[!0-9]*) die "test: TB_FUZZ_SECONDS must be a whole number, got '$seconds'" ;;
	esac
	if [ "$seconds" -gt 0 ]; then
		build_fuzzers
		TB_FUZZ_BUILD_DIR=build/fuzz TB_FUZZ_SECONDS="$seconds" bash tests/run_tests.sh build/sanitize
	else
		bash tests/run_tests.sh build/sanitize
	fi
}

cmd_fuzz()
{
	local seconds="${1:-60}"
	case "$seconds" in
		'' | *[!0-9]*) die "fuzz: SECONDS must be a whole number, got '$seconds'" ;;
	esac
	build_fuzzers
	local failed=()
	local target
	for target in $( sed -n 's/^PROJECTS := //p' build/Makefile | tr ' ' '\n' | grep '^fuzz_' ); do
		echo "== $target"
		bash tests/fuzz/run_fuzz.sh --fuzz build/fuzz --seconds "$seconds" "$target" || failed+=( "$target" )
	done
	if [ ${#failed[@]} -gt 0 ]; then
		die "fuzz: findings in ${failed[*]} (inputs saved under build/fuzz-runs/)"
	fi
	note "fuzz: no findings"
}

cmd_valgrind()
{
	cmd_build debug
	bash tests/run_valgrind.sh build/debug "$@"
}

cmd_bench()
{
	cmd_build release
	[ -x build/release/tumble_bench ] ||
		die "build/release/tumble_bench was not built: bench/ has no sources yet"
	exec build/release/tumble_bench "$@"
}

cmd_clean()
{
	rm -rf build
	note "removed build/"
}

command="${1:-}"
if [ $# -gt 0 ]; then
	shift
fi
case "$command" in
	deps) cmd_deps ;;
	build) cmd_build "$@" ;;
	run) cmd_run "$@" ;;
	test) cmd_test ;;
	fuzz) cmd_fuzz "$@" ;;
	valgrind) cmd_valgrind "$@" ;;
	bench) cmd_bench "$@" ;;
	clean) cmd_clean ;;
	-h | --help | help) usage ;;
	"")
		usage >&2
		exit 2
		;;
	*)
		echo "build.sh: unknown command '$command'" >&2
		usage >&2
		exit 2
		;;
esac
