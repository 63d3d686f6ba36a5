# Shared by tests/e2e/viewer_*.sh (after lib/common.sh): a private X server and a `viewer` runner.
#
# Real rendering: Xvfb with Mesa's software OpenGL (llvmpipe), no mocks. One Xvfb per test script
# (started with -displayfd, so no fixed display number and no xvfb-run temp-dir races).
#
# AddressSanitizer's leak check is off for viewer runs only: SDL (libdbus) and Mesa keep memory
# until exit and Mesa's driver is unloaded before LeakSanitizer reports, so its stacks are
# unreadable and cannot be suppressed by name. Every other ASan/UBSan check stays on. The headless
# tests keep the leak check on for the code the viewer shares (scene, bindings, physics).

PNG_CHECK="python3 tests/e2e/lib/png_check.py"
XVFB_PID=""

stop_xvfb()
{
	if [ -n "$XVFB_PID" ]; then
		kill "$XVFB_PID" 2>/dev/null
		wait "$XVFB_PID" 2>/dev/null
		XVFB_PID=""
	fi
}
trap 'stop_xvfb; rm -rf "$SCRATCH"' EXIT

start_xvfb()
{
	command -v Xvfb >/dev/null 2>&1 || { echo "e2e: Xvfb is missing (./build.sh deps installs xvfb)" >&2; exit 1; }
	local display_file="$SCRATCH/xvfb.display"
	: >"$display_file"
	Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp 3>"$display_file" >"$SCRATCH/xvfb.log" 2>&1 &
	XVFB_PID=$!
	local i
	for i in $( seq 1 100 ); do
		if [ -s "$display_file" ]; then
			break
		fi
		sleep 0.1
	done
	[ -s "$display_file" ] || { echo "e2e: Xvfb did not start:" >&2; cat "$SCRATCH/xvfb.log" >&2; exit 1; }
	export DISPLAY=":$( head -n 1 "$display_file" )"
	export SDL_VIDEODRIVER=x11
	export LIBGL_ALWAYS_SOFTWARE=1
	export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
	# The viewer remembers its last scene and view under XDG_STATE_HOME: the tests' own, never the
	# user's.
	export XDG_STATE_HOME="$SCRATCH/state"
}

# viewer WANT_STATUS ARGS...: runs the viewer in an 800x450 window (UI scale 1, fast on llvmpipe).
viewer()
{
	local want="$1"
	shift
	expect_status "$want" "$TUMBLE" --window 800x450 "$@"
}

# png_json NAME COMMAND...: the checker's JSON for a command into $SCRATCH/NAME.json.
png_json()
{
	local name="$1"
	shift
	$PNG_CHECK "$@" >"$SCRATCH/$name.json"
}

# no_gl_errors: the last viewer run reported no OpenGL error.
no_gl_errors()
{
	if grep -q "OpenGL error" "$SCRATCH/err"; then
		grep "OpenGL" "$SCRATCH/err" | sed 's/^/      | /'
		return 1
	fi
}
