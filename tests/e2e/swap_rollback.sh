#!/usr/bin/env bash
# A swap reload that fails half-way leaves the running world as it was: the running scene's world is
# saved (a snapshot) before the new script's world settings and attach() run, and restored when the
# reload fails. The broken edit changes gravity, adds bodies and a joint, destroys the crate, then
# raises; the last good scene must keep running in the untouched world, and a later good edit
# must find it so.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"

scene="$SCRATCH/swap.lua"

# write_scene VERSION ATTACH: a swap scene printing "state version=V bodies=N joints=J gz=G crate=C"
# twice a second; ATTACH is the body of its attach(world).
write_scene()
{
	cat >"$scene.tmp" <<LUA
local scene = { reload = "swap", world = { gravity = $3 } }
function scene.setup(world)
	world:add_box{ name = "ground", size = { 20, 20, 1 }, pos = { 0, 0, -0.5 }, static = true }
	world:add_box{ name = "crate", pos = { 0, 0, 0.5 } }
end
function scene.attach(world)
	$2
end
function scene.update(world, dt, t)
	if world.step_count % 30 == 0 then
		local crate = world:body("crate")
		print(("state version=$1 bodies=%d joints=%d gz=%.2f crate=%s"):format(world.body_count, #world:joints(),
			world.gravity[3], tostring(crate ~= nil and crate:is_valid())))
	end
end
return scene
LUA
	mv "$scene.tmp" "$scene"
}

write_scene 1 "" "{ 0, 0, -10 }"
"$TUMBLE" --headless --watch "$scene" --steps 300 --report none >"$SCRATCH/out.log" 2>"$SCRATCH/err.log" &
pid=$!
sleep 1.2
write_scene 2 "world:add_sphere{ pos = { 0, 0, 3 } } world:add_sphere{ pos = { 1, 0, 3 } }
	world:ball{ a = world:body('crate'), anchor = { 0, 0, 1 } }
	world:body('crate'):destroy()
	error('attach fails half-way')" "{ 0, 0, -1 }"
sleep 1.2
write_scene 3 "" "{ 0, 0, -10 }"
wait "$pid"
status=$?

check "exit 0" test "$status" = 0
check "the failed swap is reported with its line" contains "$SCRATCH/err.log" "swap.lua:10: attach fails half-way"
check_states()
{
	python3 - "$SCRATCH/err.log" <<'PY'
import re, sys
events = []
for line in open(sys.argv[1]):
    m = re.match(r"state version=(\d+) bodies=(\d+) joints=(\d+) gz=(-?[\d.]+) crate=(\w+)", line)
    if m:
        events.append((int(m.group(1)), int(m.group(2)), int(m.group(3)), float(m.group(4)), m.group(5)))
    elif "reload failed" in line:
        events.append(("failed",))
def fail(message):
    print("      " + message)
    for e in events:
        print("      | %r" % (e,))
    sys.exit(1)
if ("failed",) not in events:
    fail("no failed reload")
after = events[events.index(("failed",)) + 1:]
states = [e for e in after if e != ("failed",)]
if not any(e[0] == 1 for e in states) or not any(e[0] == 3 for e in states):
    fail("expected version 1 to keep running after the failure, then version 3")
for e in states:
    if e[1:] != (2, 0, -10.0, "true"):
        fail("the world changed: %r (expected 2 bodies, 0 joints, gravity -10, the crate)" % (e,))
PY
}
check "after the failed swap the world is as before: 2 bodies, no joint, gravity -10, the crate" check_states

finish
