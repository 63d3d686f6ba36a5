#!/usr/bin/env bash
# ./build.sh install and uninstall into a temporary PREFIX (and a DESTDIR stage), used from another
# folder the way a user of the installed tree would: plain lua5.4 requires "tumble" and
# "tumble.ragdolls", the program runs shipped scenes with their helper libraries, a C program builds
# with `pkg-config --cflags --libs tumble` (shared and static) and checks free fall; uninstall then
# leaves nothing behind.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

prefix="$SCRATCH/prefix"
elsewhere="$SCRATCH/elsewhere"
mkdir -p "$elsewhere"
manifest=share/tumble/install-manifest
version=$( tumble_version )

# install builds release first: a no-op under ./build.sh test, a whole build when run alone.
TB_E2E_TIMEOUT=900 check "install into $prefix" expect_status 0 ./build.sh install "$prefix"

# every_listed_exists ROOT: each line of ROOT's manifest names a file or folder that is there.
every_listed_exists()
{
	local kind path missing=0
	while read -r kind path; do
		if { [ "$kind" = f ] && [ ! -e "$1/$path" ] && [ ! -L "$1/$path" ]; } ||
			{ [ "$kind" = d ] && [ ! -d "$1/$path" ]; }; then
			echo "      listed but missing: $kind $path"
			missing=1
		fi
	done <"$1/$manifest"
	[ "$missing" -eq 0 ]
}
# nothing_unlisted ROOT: every file and folder under ROOT is in the manifest.
nothing_unlisted()
{
	local extra
	extra=$( cd "$1" && comm -23 <( find . -mindepth 1 | sed 's|^\./||' | sort ) \
		<( sed 's/^[fd] //' "$manifest" | sort ) )
	[ -z "$extra" ] || { echo "      not in the manifest:"; sed 's/^/      | /' <<<"$extra"; return 1; }
}
# empty DIR: DIR has nothing left in it.
empty()
{
	local left
	left=$( find "$1" -mindepth 1 )
	[ -z "$left" ] || { echo "      left behind:"; sed 's/^/      | /' <<<"$left"; return 1; }
}

check "the manifest lists what is there" every_listed_exists "$prefix"
check "the manifest lists all that is there" nothing_unlisted "$prefix"
check "the layout" test -x "$prefix/bin/tumble" -a -f "$prefix/lib/lua/5.4/tumble.so" \
	-a -f "$prefix/share/lua/5.4/tumble/ragdolls.lua" -a -f "$prefix/share/tumble/scenes/showcase.lua" \
	-a -f "$prefix/include/tumble/tumble.h" -a -f "$prefix/lib/libtumble.a" -a -L "$prefix/lib/libtumble.so" \
	-a -f "$prefix/lib/pkgconfig/tumble.pc" -a -f "$prefix/share/man/man1/tumble.1" \
	-a -f "$prefix/share/tumble/types/tumble.lua"
check "the man page has the viewer's options" contains "$prefix/share/man/man1/tumble.1" '\-\-screenshot'

cd "$elsewhere" || exit 1
lua_env=( env "LUA_CPATH=$prefix/lib/lua/5.4/?.so;;" "LUA_PATH=$prefix/share/lua/5.4/?.lua;;" )
check "lua5.4: require \"tumble\".version" expect_status 0 "${lua_env[@]}" lua5.4 -e 'print(require "tumble".version)'
check "lua5.4: the version is $version" contains "$SCRATCH/out" "$version"
check "lua5.4: require \"tumble.ragdolls\" and \"tumble.benchmarks\" (which requires tumble.expect)" \
	expect_status 0 "${lua_env[@]}" lua5.4 -e '
		local ragdolls = require "tumble.ragdolls"
		assert(type(ragdolls) == "table", "tumble.ragdolls is a " .. type(ragdolls))
		local scene = require("tumble.benchmarks").chains(1)
		assert(type(scene.setup) == "function")
		print(package.searchpath("tumble.ragdolls", package.path))'
check "lua5.4: tumble.ragdolls from the prefix" contains "$SCRATCH/out" "$prefix/share/lua/5.4/tumble/ragdolls.lua"

# A shipped scene by name, and one of the user's that requires the helpers by both names.
check "tumble ragdoll --headless (found among the shipped scenes)" \
	expect_status 0 "$prefix/bin/tumble" ragdoll --headless
check "tumble ragdoll: the installed scene ran" contains "$SCRATCH/out" "\"scene\": \"$prefix/share/tumble/scenes/ragdoll.lua\""
cat >"$elsewhere/my_scene.lua" <<'LUA'
local build = require "builders"
local ragdolls = require "tumble.ragdolls"
print("builders from " .. package.searchpath("builders", package.path))
return {
	steps = 30,
	setup = function(world)
		build.ground(world)
		assert(type(ragdolls) == "table")
	end,
}
LUA
check "tumble my_scene.lua --headless (a user's scene requiring the helpers)" \
	expect_status 0 "$prefix/bin/tumble" my_scene.lua --headless --report none
check "tumble my_scene.lua: the helpers came from the prefix" contains "$SCRATCH/err" \
	"builders from $prefix/share/lua/5.4/tumble/builders.lua"

# exports_api: the shared library exports the functions the installed headers declare TB_API, and
# nothing else (the core is built with hidden visibility).
exports_api()
{
	local diff
	diff=$( comm -3 <( nm -D --defined-only "$prefix/lib/libtumble.so" | awk '$2 == "T" { print $3 }' | sort -u ) \
		<( grep -ho 'TB_API [^(]*(' "$prefix"/include/tumble/*.h | sed 's/ *($//; s/.*[ *]//' | sort -u ) )
	[ -z "$diff" ] || { echo "      exported but not TB_API (left), TB_API but not exported (right):"; sed 's/^/      | /' <<<"$diff"; return 1; }
}
check "libtumble.so exports exactly the TB_API functions" exports_api

pc=( env "PKG_CONFIG_PATH=$prefix/lib/pkgconfig" pkg-config )
check "pkg-config --modversion tumble" expect_status 0 "${pc[@]}" --modversion tumble
check "pkg-config: version $version" contains "$SCRATCH/out" "$version"
flags=$( "${pc[@]}" --cflags --libs tumble )
source_file="$OLDPWD/tests/e2e/lib/free_fall.c"
# shellcheck disable=SC2086 # the flags are words
check "cc free_fall.c \$(pkg-config --cflags --libs tumble)" \
	expect_status 0 cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$source_file" -o free_fall $flags
check "free_fall (shared library) runs" expect_status 0 env "LD_LIBRARY_PATH=$prefix/lib" ./free_fall
check "free_fall (shared library): uses the installed libtumble.so.0" \
	expect_status 0 sh -c "LD_LIBRARY_PATH='$prefix/lib' ldd ./free_fall | grep -F '$prefix/lib/libtumble.so.0'"
# shellcheck disable=SC2086
check "cc free_fall.c against libtumble.a" \
	expect_status 0 cc -std=c11 -Werror "$source_file" -o free_fall_static $( "${pc[@]}" --cflags tumble ) \
	-L"$prefix/lib" -Wl,-Bstatic -ltumble -Wl,-Bdynamic -lm
check "free_fall (static library) runs" expect_status 0 ./free_fall_static
cd "$OLDPWD" || exit 1

check "install again over the first" expect_status 0 ./build.sh install "$prefix"
check "install again: one manifest, nothing stale" nothing_unlisted "$prefix"
check "uninstall" expect_status 0 ./build.sh uninstall "$prefix"
check "uninstall left nothing" empty "$prefix"
check "uninstall again fails: nothing installed" expect_status 1 ./build.sh uninstall "$prefix"
check "uninstall again: says why" contains "$SCRATCH/err" "no install found"

# DESTDIR stages an install for PREFIX elsewhere: tumble.pc names PREFIX, the staged program runs.
stage="$SCRATCH/stage"
check "DESTDIR install" expect_status 0 env "DESTDIR=$stage" ./build.sh install /opt/tumble-test
check "DESTDIR: tumble.pc names PREFIX" contains "$stage/opt/tumble-test/lib/pkgconfig/tumble.pc" "prefix=/opt/tumble-test"
check "DESTDIR: the staged program runs a shipped scene" \
	expect_status 0 "$stage/opt/tumble-test/bin/tumble" ball_drop --headless --report none
check "DESTDIR: nothing under the real PREFIX" test ! -e /opt/tumble-test
echo "-- mine" >"$stage/opt/tumble-test/share/tumble/scenes/mine.lua"
check "DESTDIR uninstall" expect_status 0 env "DESTDIR=$stage" ./build.sh uninstall /opt/tumble-test
check "DESTDIR uninstall keeps a file it did not put, and its folders" \
	test -f "$stage/opt/tumble-test/share/tumble/scenes/mine.lua"
rm "$stage/opt/tumble-test/share/tumble/scenes/mine.lua"
rmdir "$stage/opt/tumble-test/share/tumble/scenes" "$stage/opt/tumble-test/share/tumble" \
	"$stage/opt/tumble-test/share"
check "DESTDIR uninstall removed the rest" empty "$stage/opt/tumble-test"

finish
