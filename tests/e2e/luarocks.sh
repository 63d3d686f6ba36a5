#!/usr/bin/env bash
# The rockspec: `luarocks make` builds and installs the module into a temporary tree, from where
# plain lua5.4 in another folder requires "tumble" and "tumble.ragdolls" and simulates; the
# rockspec's version is the library's (TB_VERSION_* of physics/include/tumble/base.h).
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

version=$( tumble_version )
rockspecs=( rockspecs/tumble-*.rockspec )
rockspec="rockspecs/tumble-$version-1.rockspec"
check "one rockspec, for version $version (found ${rockspecs[*]})" test "${rockspecs[*]}" = "$rockspec"
check "the rockspec's version field" grep -qxF "version = \"$version-1\"" "$rockspec"

luarocks=( luarocks --lua-version 5.4 )
tree="$SCRATCH/tree"
check "luarocks lint" expect_status 0 "${luarocks[@]}" lint "$rockspec"
# rockspecs/rock.mk builds in build/rock; make runs two jobs, as the build does on this machine. A
# build from nothing takes longer than the usual command limit.
TB_E2E_TIMEOUT=900 check "luarocks make --tree $tree" expect_status 0 env MAKEFLAGS=-j2 "${luarocks[@]}" make "$rockspec" --tree "$tree"
check "luarocks list: tumble $version-1" expect_status 0 "${luarocks[@]}" list --tree "$tree" --porcelain
check "luarocks list: output" contains "$SCRATCH/out" "tumble	$version-1	installed"

mkdir -p "$SCRATCH/elsewhere"
cat >"$SCRATCH/elsewhere/use_rock.lua" <<'LUA'
local tb = require "tumble"
print("version " .. tb.version)
print("module " .. package.searchpath("tumble", package.cpath))
print("helpers " .. package.searchpath("tumble.ragdolls", package.path))
assert(type(require "tumble.ragdolls") == "table")
local world = tb.world{ gravity = { 0, 0, -10 } }
world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
local box = world:add_box{ pos = { 0, 0, 2.5 } }
for _ = 1, 180 do
	world:step(1 / 60)
end
local _, _, z = box:position()
assert(math.abs(z - 0.5) < 0.01, "box at rest at z = 0.5 m, got " .. z)
print("rock ok")
LUA
# What `eval "$(luarocks path --tree TREE)"` sets, without the user's own trees.
rock_env=( env "LUA_CPATH=$tree/lib/lua/5.4/?.so;;" "LUA_PATH=$tree/share/lua/5.4/?.lua;$tree/share/lua/5.4/?/init.lua;;" )
check "lua5.4 from another folder requires the rock and simulates" \
	expect_status 0 sh -c 'cd "$1" && shift && exec "$@"' sh "$SCRATCH/elsewhere" "${rock_env[@]}" lua5.4 use_rock.lua
check "the rock's version" contains "$SCRATCH/out" "version $version"
check "the module from the tree" contains "$SCRATCH/out" "module $tree/lib/lua/5.4/tumble.so"
check "the helpers from the tree" contains "$SCRATCH/out" "helpers $tree/share/lua/5.4/tumble/ragdolls.lua"
check "the simulation" contains "$SCRATCH/out" "rock ok"

check "luarocks remove" expect_status 0 "${luarocks[@]}" remove tumble --tree "$tree"
check "luarocks remove: the module is gone" test ! -e "$tree/lib/lua/5.4/tumble.so" -a ! -e "$tree/share/lua/5.4/tumble"

finish
