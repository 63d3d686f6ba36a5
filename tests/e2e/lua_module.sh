#!/usr/bin/env bash
# The module as tumble.so for plain Debian lua5.4: require "tumble" and run a small simulation.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

module="$TB_BUILD_DIR/tumble.so"
check "tumble.so was built" test -f "$module"

# A sanitizer build of the module needs the sanitizer runtimes loaded first into the plain
# interpreter (which is not instrumented).
preload=()
if nm -D "$module" 2>/dev/null | grep __asan_init >/dev/null; then
	preload=( env "LD_PRELOAD=$( gcc -print-file-name=libasan.so ) $( gcc -print-file-name=libubsan.so )"
		"ASAN_OPTIONS=detect_leaks=0:${ASAN_OPTIONS:-}" )
fi

cat >"$SCRATCH/plain.lua" <<'LUA'
package.cpath = arg[1] .. "/?.so;" .. package.cpath
local tb = require "tumble"
assert(type(tb.version) == "string")
local world = tb.world{ gravity = { 0, 0, -10 } }
world:add_box{ size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
local box = world:add_box{ name = "box", pos = { 0, 0, 2.5 } }
for _ = 1, 180 do
	world:step(1 / 60)
end
local x, y, z = box:position()
assert(math.abs(z - 0.5) < 0.01, "box at rest at z = 0.5, got " .. z)
local ok, err = pcall(function() world:add_box{ size = { 1, 0, 1 } } end)
assert(not ok and err:find("plain.lua:12: add_box: size must be 3 positive numbers, got {1, 0, 1}", 1, true), err)
print("plain lua ok", z)
LUA
check "plain lua5.4 requires tumble.so and simulates" expect_status 0 "${preload[@]}" lua5.4 "$SCRATCH/plain.lua" "$TB_BUILD_DIR"
check "plain lua5.4: output" contains "$SCRATCH/out" "plain lua ok"

finish
