# Shared by tests/e2e/*.sh: finds the program, makes a scratch directory, reports failures.
# TUMBLE (the program) and TB_BUILD_DIR come from tests/run_tests.sh; defaults suit a manual run.
set -uo pipefail

cd "$( dirname "${BASH_SOURCE[0]}" )/../../.." || exit 1
TB_BUILD_DIR="${TB_BUILD_DIR:-build/sanitize}"
TUMBLE="${TUMBLE:-$TB_BUILD_DIR/tumble}"
[ -x "$TUMBLE" ] || { echo "e2e: $TUMBLE is not built" >&2; exit 1; }

SCRATCH="$( mktemp -d "${TMPDIR:-/tmp}/tumble-e2e.XXXXXX" )"
trap '[ -n "${TB_KEEP_SCRATCH:-}" ] || rm -rf "$SCRATCH"' EXIT

FAILURES=0
CHECKS=0

# check NAME COMMAND...: runs a check and counts it.
check()
{
	local name="$1"
	shift
	CHECKS=$(( CHECKS + 1 ))
	if "$@"; then
		echo "ok    $name"
	else
		FAILURES=$(( FAILURES + 1 ))
		echo "FAIL  $name"
	fi
}

# expect_status WANT COMMAND...: the command's exit status is WANT (stdout/stderr to $SCRATCH/out, err).
# Each command gets at most TB_E2E_TIMEOUT seconds (default 120), so a hang fails one check only.
expect_status()
{
	local want="$1"
	shift
	timeout --kill-after=5 "${TB_E2E_TIMEOUT:-120}" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
	local status=$?
	if [ "$status" -ne "$want" ]; then
		echo "      exit status $status, expected $want: $*"
		sed 's/^/      | /' "$SCRATCH/err" | tail -n 30
		return 1
	fi
	return 0
}

# contains FILE TEXT: FILE contains TEXT (fixed string).
contains()
{
	if ! grep -qF -- "$2" "$1"; then
		echo "      '$2' not found in $1:"
		sed 's/^/      | /' "$1" | tail -n 30
		return 1
	fi
}

# json_check FILE PYTHON: runs PYTHON with `r` bound to the parsed JSON of FILE; assertion errors fail.
json_check()
{
	python3 - "$1" "$2" <<'PY'
import json, math, sys
with open(sys.argv[1]) as f:
    text = f.read()
try:
    r = json.loads(text)
except Exception as e:
    print("      not one JSON object: %s\n      | %s" % (e, text[:400]))
    sys.exit(1)
def near(a, b, tol, what):
    assert a is not None and abs(a - b) <= tol, "%s: expected %g +- %g, got %r" % (what, b, tol, a)
def body(name):
    for b in r["bodies"]:
        if b["name"] == name:
            return b
    raise AssertionError("no body named %r in the report" % name)
try:
    exec(sys.argv[2])
except AssertionError as e:
    print("      " + str(e))
    sys.exit(1)
PY
}

# The library version MAJOR.MINOR.REVISION of physics/include/tumble/base.h (TB_VERSION_*).
tumble_version()
{
	local part
	for part in MAJOR MINOR REVISION; do
		sed -n "s/^#define TB_VERSION_$part \([0-9]\+\)$/\1/p" physics/include/tumble/base.h
	done | paste -sd. -
}

finish()
{
	echo "$CHECKS checks, $FAILURES failed"
	[ "$FAILURES" -eq 0 ]
}
