#!/usr/bin/env bash
# The one entry point for building, running, testing and benchmarking Tumble on Debian 12.
# It installs packages, generates makefiles with premake and calls make; the source files and flags
# live in premake5.lua, the package list in vendor/packages.txt.
set -euo pipefail

cd "$( dirname "${BASH_SOURCE[0]}" )"

readonly DEFAULT_SCENE="scripts/scenes/showcase.lua"
readonly CONFIGS="debug release sanitize"
readonly DEFAULT_PREFIX="/usr/local"
# Under PREFIX: the list of what install put there, which uninstall removes.
readonly MANIFEST="share/tumble/install-manifest"

usage()
{
	cat <<EOF
usage: ./build.sh COMMAND [ARGS]

  deps                 install the Debian packages of vendor/packages.txt that are missing
  build [CONFIG]       deps, generate makefiles, build CONFIG (debug, release or sanitize; default release)
  run [SCENE] [ARGS]   build release and open SCENE in the viewer (default: the scene open when
                       the viewer last closed, $DEFAULT_SCENE the first time; F3 lists them)
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
  install [PREFIX]     build release and install under PREFIX (default $DEFAULT_PREFIX; DESTDIR
                       stages it): bin/tumble, the Lua module lib/lua/5.4/tumble.so, the helper
                       libraries as share/lua/5.4/tumble/*.lua ("tumble.NAME"), the scenes in
                       share/tumble/scenes, the editor definitions share/tumble/types/tumble.lua,
                       libtumble.a and libtumble.so with include/tumble/ and
                       lib/pkgconfig/tumble.pc, the man page share/man/man1/tumble.1; every file
                       and created folder is listed in PREFIX/$MANIFEST
  uninstall [PREFIX]   remove what install put under PREFIX, as its manifest lists it
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

# generate [OPTION...]: premake options (--fuzz-libs for the fuzz builds) go before the action.
generate()
{
	# premake5 is used when someone has it; Debian 12 has premake4, which reads the same file.
	# premake prints its errors on stdout, so its output is kept and shown only when it fails.
	local premake
	if command -v premake5 >/dev/null 2>&1; then
		local action=gmake2
		premake5 --help 2>/dev/null | grep -q ' gmake2 ' || action=gmake
		premake=( premake5 --file=premake5.lua "$@" "$action" )
	elif command -v premake4 >/dev/null 2>&1; then
		premake=( premake4 --file=premake5.lua "$@" gmake )
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
	cmd_build release
	[ -x build/release/tumble ] ||
		die "build/release/tumble was not built: runtime/ has no sources yet, so there is no program to run"
	# Without a scene the program opens the last one the viewer had (the showcase the first time).
	if [ $# -eq 0 ]; then
		exec build/release/tumble
	fi
	local scene="$1"
	shift
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
	# fuzz_lua's physics core without comparison tracing (premake5.lua, fuzzlib_physics).
	generate --fuzz-libs
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

# The version of physics/include/tumble/base.h as MAJOR.MINOR.REVISION.
read_version()
{
	local part version=""
	for part in MAJOR MINOR REVISION; do
		local number
		number=$( sed -n "s/^#define TB_VERSION_$part \([0-9]\+\)$/\1/p" physics/include/tumble/base.h )
		[ -n "$number" ] || die "physics/include/tumble/base.h has no TB_VERSION_$part"
		version="$version${version:+.}$number"
	done
	echo "$version"
}

# PREFIX for install and uninstall: absolute, without a trailing slash.
check_prefix()
{
	local prefix="$1"
	case "$prefix" in
		/?*) ;;
		*) die "PREFIX must be an absolute path other than /, got '$prefix'" ;;
	esac
	echo "${prefix%/}"
}

# When the shared library goes to a folder the dynamic loader is configured with, its cache must
# learn of it (or forget it). Only then: a plain `ldconfig DIR` would add a test's folder for good.
refresh_loader_cache()
{
	local libdir="$1"
	if [ -n "${DESTDIR:-}" ] || [ "$( id -u )" -ne 0 ] || ! command -v ldconfig >/dev/null 2>&1; then
		return 0
	fi
	if cat /etc/ld.so.conf /etc/ld.so.conf.d/*.conf 2>/dev/null | grep -qxF "$libdir"; then
		ldconfig
	fi
}

# Files install makes rather than copies, written to DIR: the man page and tumble.pc.
make_install_files()
{
	local dir="$1" prefix="$2" version="$3"
	rm -rf "$dir"
	mkdir -p "$dir"
	help2man --no-info --name="run Tumble physics scenes" --output="$dir/tumble.1" build/release/tumble ||
		die "help2man could not make the man page from build/release/tumble --help"
	cat >"$dir/tumble.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: tumble
Description: Tumble, a 3D rigid-body physics engine in C11
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -ltumble -lm
PC
}

cmd_install()
{
	local prefix
	prefix=$( check_prefix "${1:-$DEFAULT_PREFIX}" )
	local root="${DESTDIR:-}$prefix"
	cmd_build release
	local build=build/release
	local file
	for file in tumble tumble.so libtumble.so libtumble_physics.a; do
		[ -f "$build/$file" ] || die "$build/$file was not built"
	done
	command -v help2man >/dev/null 2>&1 || die "help2man not found (./build.sh deps installs it)"
	local version
	version=$( read_version )
	local major="${version%%.*}"
	# Made before anything is copied, so a failure there leaves no partial install.
	local generated=build/install
	make_install_files "$generated" "$prefix" "$version"

	# A second install replaces the first: what it had put goes, so nothing stale stays.
	if [ -f "$root/$MANIFEST" ]; then
		note "removing the earlier install under $root first"
		cmd_uninstall "$prefix"
	fi
	mkdir -p "$root" && [ -w "$root" ] || die "cannot write to $root (run as root or pick another PREFIX)"

	# Every file and every folder install creates, relative to PREFIX, in the order made.
	local manifest=()
	# put MODE SOURCE DEST: copies SOURCE to PREFIX/DEST, creating and listing missing folders.
	put()
	{
		local dir="${3%/*}"
		local missing=()
		while [ ! -d "$root/$dir" ]; do
			missing=( "$dir" "${missing[@]}" )
			[ "$dir" != "${dir%/*}" ] || break
			dir="${dir%/*}"
		done
		local d
		for d in "${missing[@]}"; do
			mkdir "$root/$d" || die "cannot create $root/$d"
			manifest+=( "d $d" )
		done
		install -m "$1" "$2" "$root/$3" || die "cannot install $root/$3"
		manifest+=( "f $3" )
	}
	# link TARGET DEST: a symbolic link PREFIX/DEST -> TARGET, in a folder put has made.
	link()
	{
		ln -sfn "$1" "$root/$2" || die "cannot link $root/$2"
		manifest+=( "f $2" )
	}

	put 755 "$build/tumble" bin/tumble
	put 644 "$generated/tumble.1" share/man/man1/tumble.1
	# lib/lua/5.4 is on Debian lua5.4's package.cpath for /usr/local and /usr (where luarocks puts
	# modules too).
	put 755 "$build/tumble.so" lib/lua/5.4/tumble.so
	for file in scripts/lib/*.lua; do
		put 644 "$file" "share/lua/5.4/tumble/${file##*/}"
	done
	for file in scripts/scenes/*.lua; do
		put 644 "$file" "share/tumble/scenes/${file##*/}"
	done
	# Lua Language Server definitions (bindings/api.lua): add the folder to workspace.library.
	put 644 types/tumble.lua share/tumble/types/tumble.lua
	for file in physics/include/tumble/*.h; do
		put 644 "$file" "include/tumble/${file##*/}"
	done
	put 644 "$build/libtumble_physics.a" lib/libtumble.a
	put 755 "$build/libtumble.so" "lib/libtumble.so.$version"
	link "libtumble.so.$version" "lib/libtumble.so.$major"
	link "libtumble.so.$major" lib/libtumble.so
	put 644 "$generated/tumble.pc" lib/pkgconfig/tumble.pc
	manifest+=( "f $MANIFEST" )
	printf '%s\n' "${manifest[@]}" >"$root/$MANIFEST" || die "cannot write $root/$MANIFEST"
	refresh_loader_cache "$prefix/lib"
	note "installed tumble $version under $root (listed in $root/$MANIFEST)"
}

cmd_uninstall()
{
	local prefix
	prefix=$( check_prefix "${1:-$DEFAULT_PREFIX}" )
	local root="${DESTDIR:-}$prefix"
	[ -f "$root/$MANIFEST" ] || die "no install found under $root ($root/$MANIFEST is missing)"
	local entries=()
	mapfile -t entries <"$root/$MANIFEST"
	local entry
	for entry in "${entries[@]}"; do
		case "$entry" in
			"f "?* | "d "?*) ;;
			*) die "$root/$MANIFEST: unexpected line '$entry'" ;;
		esac
		case "/${entry#? }/" in
			*/../* | */./* | //*) die "$root/$MANIFEST: a path outside PREFIX: '$entry'" ;;
		esac
	done
	# Files first, then the folders install created, deepest first and only when empty: a file
	# someone added there since is kept, and its folder with it.
	for entry in "${entries[@]}"; do
		if [ "${entry%% *}" = f ]; then
			rm -f "$root/${entry#f }" || die "cannot remove $root/${entry#f }"
		fi
	done
	local i kept=()
	for (( i = ${#entries[@]} - 1; i >= 0; i-- )); do
		entry="${entries[i]}"
		if [ "${entry%% *}" = d ] && [ -d "$root/${entry#d }" ]; then
			rmdir "$root/${entry#d }" 2>/dev/null || kept+=( "$root/${entry#d }" )
		fi
	done
	refresh_loader_cache "$prefix/lib"
	if [ ${#kept[@]} -gt 0 ]; then
		note "kept folders holding files that install did not put: ${kept[*]}"
	fi
	note "uninstalled tumble from $root"
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
	install) cmd_install "$@" ;;
	uninstall) cmd_uninstall "$@" ;;
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
