#!/usr/bin/env bash
# Edit storm: `tumble --headless --watch --sandbox` keeps running while the scene file is rewritten
# TB_STORM_EDITS times (default 1000) with random valid and invalid edits: syntax errors, errors in
# setup and update, missing functions, infinite loops and memory bombs (stopped by the sandbox).
# The program must keep running, every failure it reports must name the file (and the line for Lua
# errors), and the final valid edit must recover.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

edits="${TB_STORM_EDITS:-1000}"
interval=0.05  # longer than the watcher's 30 ms settle time, so edits are not merged
scene="$SCRATCH/storm.lua"
printf 'return { setup = function(world) world:add_box{ pos = {0, 0, 1} } end }\n' >"$scene"
# Real time (60 steps per second) for up to 20 minutes: the test stops it once the last edit runs.
"$TUMBLE" --headless --watch --sandbox "$scene" --steps 72000 --report none --budget 200000 \
	>"$SCRATCH/storm.out" 2>"$SCRATCH/storm.err" &
pid=$!

python3 - "$scene" "$edits" "$interval" <<'PY'
import os, random, sys, time
path, edits, interval = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
rng = random.Random(20261121)
body = "world:add_box{ name = 'crate', pos = {0, 0, 1} }"
kinds = {
    "valid": "local V = %d\nreturn { setup = function(world) " + body + " end,\n  update = function(world, dt, t) end }\n",
    "syntax": "local V = %d\nreturn { setup = function(world) world:add_box{ ] end }\n",
    "setup_error": "local V = %d\nreturn { setup = function(world) error('setup fails ' .. V) end }\n",
    "update_error": "local V = %d\nreturn { setup = function(world) " + body + " end,\n  update = function(world, dt, t) if t > 0.02 then error('update fails') end end }\n",
    "missing": "local V = %d\nreturn {}\n",
    "bad_field": "local V = %d\nreturn { setup = function(world) world:add_box{ size = {1, 0, 1} } end }\n",
    "loop": "local V = %d\nreturn { setup = function(world) while true do end end }\n",
    "memory": "local V = %d\nreturn { setup = function(world) local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(1000) .. i end end }\n",
    "not_a_table": "local V = %d\nreturn 42\n",
}
names = sorted(kinds)
time.sleep(0.5)
for i in range(edits):
    kind = "valid" if i == edits - 1 else rng.choice(names)
    text = kinds[kind] % i
    if i == edits - 1:
        text = text.replace("end }\n", "end,\n  finish = function(world) print('storm-final') end }\n").replace(
            "update = function(world, dt, t) end", "update = function(world, dt, t) if math.floor(t * 2) ~= math.floor((t - dt) * 2) then print('storm-final-tick') end end")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)  # editors save by renaming over the file
    time.sleep(interval)
PY
# Wait (at most 60 s) for the last, valid edit to run.
for _ in $( seq 600 ); do
	grep -qF "storm-final-tick" "$SCRATCH/storm.err" && break
	sleep 0.1
done
alive=no
kill -0 "$pid" 2>/dev/null && alive=yes
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null

check "the program is still running after the storm" test "$alive" = yes
check "the last edit recovered (its update runs)" contains "$SCRATCH/storm.err" "storm-final-tick"
check "failed reloads were reported" contains "$SCRATCH/storm.err" "reload failed"
# Every reported failure names the scene file with a line number.
check_errors()
{
	python3 - "$SCRATCH/storm.err" <<'PY'
import re, sys
lines = open(sys.argv[1], errors="replace").read().splitlines()
failures = [i for i, l in enumerate(lines) if "reload failed" in l or "halted" in l]
bad = []
for i in failures:
    window = "\n".join(lines[i:i + 3])
    # Lua errors carry file:line; a chunk that returns a non-table has no line to name: the file.
    if not re.search(r"storm\.lua:(\d+:| a scene must return a table)", window):
        bad.append(window)
print("      %d failures reported, %d without file:line" % (len(failures), len(bad)))
for b in bad[:5]:
    print("      | " + b.replace("\n", "\n      | "))
sys.exit(1 if bad or not failures else 0)
PY
}
check "every failure names storm.lua (and the line for Lua errors)" check_errors

finish
