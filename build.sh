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
  test                 build sanitize (ASan + UBSan) and run the whole test suite
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

cmd_test()
{
	cmd_build sanitize
	bash tests/run_tests.sh build/sanitize
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
