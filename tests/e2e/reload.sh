#!/usr/bin/env bash
# Hot reload: `tumble --headless --watch` runs in real time while this test edits the scene file.
#   swap:    the world keeps running (time and run-time fields carry over), the functions change;
#   rebuild: a fresh world (time starts again);
#   a syntax error keeps the last good scene running, and fixing the file recovers by itself.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

dir="$SCRATCH/scenes"
mkdir -p "$dir"

# write_scene FILE MODE VERSION: a scene printing "tick version=V t=T counter=C crate=B" twice a second.
write_scene()
{
	local tmp="$1.tmp"
	cat >"$tmp" <<LUA
local VERSION = $3
local scene = { reload = "$2" }
function scene.setup(world)
	world:add_box{ name = "ground", size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	scene.crate = world:add_box{ name = "crate", pos = { 0, 0, 0.5 } }
	local bob = world:add_sphere{ radius = 0.2, pos = { 3, 0, 3 } }
	scene.hinge = world:hinge{ a = bob, anchor = { 3, 0, 4 }, axis = { 0, 1, 0 } }
	scene.counter = 0
end
function scene.update(world, dt, t)
	scene.counter = scene.counter + 1
	if world.step_count % 30 == 0 then
		print(("tick version=%d t=%.3f counter=%d crate=%s hinge=%s"):format(VERSION, t, scene.counter,
			tostring(scene.crate:is_valid()), tostring(scene.hinge ~= nil and scene.hinge:is_valid())))
	end
end
return scene
LUA
	# Editors save by renaming a new file over the old one; the watcher must see that too.
	mv "$tmp" "$1"
}

# run_session MODE: 5 s of real time; edits at ~1.2 s (version 2), ~2.4 s (syntax error), ~3.6 s (version 3).
run_session()
{
	local mode="$1"
	local scene="$dir/$mode.lua"
	write_scene "$scene" "$mode" 1
	"$TUMBLE" --headless --watch "$scene" --steps 300 --report json >"$SCRATCH/$mode.json" 2>"$SCRATCH/$mode.err" &
	local pid=$!
	sleep 1.2
	write_scene "$scene" "$mode" 2
	sleep 1.2
	printf 'return { setup = function(world) world:add_box{ ] end }\n' >"$scene"
	sleep 1.2
	write_scene "$scene" "$mode" 3
	wait "$pid"
	echo "$?" >"$SCRATCH/$mode.status"
}

run_session swap
run_session rebuild
# The polling fallback (used where inotify is missing), forced by TUMBLE_WATCH_POLL.
mkdir -p "$dir/polling"
write_scene "$dir/polling/scene.lua" swap 1
TUMBLE_WATCH_POLL=1 "$TUMBLE" --headless --watch "$dir/polling/scene.lua" --steps 120 --report none 2>"$SCRATCH/polling.err" &
poll_pid=$!
sleep 1
write_scene "$dir/polling/scene.lua" swap 2
wait "$poll_pid"
check "polling: the watcher says it polls" contains "$SCRATCH/polling.err" "(polling)"
check "polling: the change was seen" contains "$SCRATCH/polling.err" "tick version=2"

for mode in swap rebuild; do
	check "$mode: exit 0" test "$( cat "$SCRATCH/$mode.status" )" = 0
	check "$mode: reloaded in $mode mode" contains "$SCRATCH/$mode.err" "($mode) in"
	check "$mode: the syntax error is reported" contains "$SCRATCH/$mode.err" "reload failed, the last good scene keeps running"
	check "$mode: the syntax error names the line" contains "$SCRATCH/$mode.err" "$mode.lua:1:"
done

# Ordered checks on the log: python reads the ticks and reload messages in order.
check_log()
{
	python3 - "$1" "$2" <<'PY'
import re, sys
mode = sys.argv[2]
events = []
for line in open(sys.argv[1]):
    m = re.match(r"tick version=(\d+) t=([\d.]+) counter=(\d+) crate=(\w+) hinge=(\w+)", line)
    if m:
        events.append(("tick", int(m.group(1)), float(m.group(2)), int(m.group(3)), m.group(4), m.group(5)))
    elif "reload failed" in line:
        events.append(("failed",))
    elif line.startswith("tumble: reloaded"):
        events.append(("reloaded",))
def fail(message):
    print("      " + message)
    for e in events:
        print("      | %r" % (e,))
    sys.exit(1)
versions = [e[1] for e in events if e[0] == "tick"]
if not (1 in versions and 2 in versions and 3 in versions):
    fail("expected ticks of versions 1, 2 and 3")
if versions != sorted(versions):
    fail("versions out of order")
failed_at = next(i for i, e in enumerate(events) if e[0] == "failed")
if not any(e[0] == "tick" and e[1] == 2 for e in events[failed_at:]):
    fail("the last good scene (version 2) did not keep running after the failed reload")
first2 = next(e for e in events if e[0] == "tick" and e[1] == 2)
last1 = [e for e in events if e[0] == "tick" and e[1] == 1][-1]
if mode == "swap":
    # Same world: time and the run-time counter go on; the body handle made in setup survives.
    if not first2[2] > last1[2]:
        fail("swap: world time restarted (%.3f after %.3f)" % (first2[2], last1[2]))
    if not first2[3] > last1[3]:
        fail("swap: the run-time field counter restarted")
    if first2[4] != "true":
        fail("swap: the crate handle did not carry over")
    if first2[5] != "true":
        fail("swap: the hinge handle did not carry over")
else:
    if not first2[2] < last1[2]:
        fail("rebuild: world time did not restart (%.3f after %.3f)" % (first2[2], last1[2]))
    if not first2[3] <= 30:
        fail("rebuild: counter did not restart")
PY
}
check "swap: time, fields and handles carry over; errors keep the last good scene" check_log "$SCRATCH/swap.err" swap
check "rebuild: a fresh world; errors keep the last good scene" check_log "$SCRATCH/rebuild.err" rebuild
check "swap: final report names the crate" json_check "$SCRATCH/swap.json" 'body("crate")'

finish
