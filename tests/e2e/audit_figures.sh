#!/usr/bin/env bash
# Figures and warnings of issue 16's audit: the largest joint error counts intact, enabled joints
# only (the showcase's plot showed 19 m from a broken weld), and plots that do not fit are named
# once on stderr instead of dropped without a word.
source "$( dirname "${BASH_SOURCE[0]}" )/lib/common.sh"
source "$( dirname "${BASH_SOURCE[0]}" )/lib/viewer_common.sh"

scenes=tests/e2e/scenes

# The soak report and the viewer's plot take the same rule (runtime/joint_error.h).
check "joint errors: the run reports" expect_status 0 env TB_SOAK_STATS=30 "$TUMBLE" --headless "$scenes/joint_error_figures.lua" --steps 180
check "joint errors: broken and disabled joints are 4.8 m off, and left out of the largest error" json_check "$SCRATCH/out" '
joints = {j["name"]: j for j in r["joints"]}
near(joints["disabled"]["pos_error"], 4.8, 0.05, "disabled joint error (m)")
assert joints["weak"]["broken"], "the weak joint broke"
near(joints["weak"]["pos_error"], 4.8, 0.05, "broken joint error (m)")
assert r["soak"]["max_joint_pos_error"] < 0.01, r["soak"]["max_joint_pos_error"]
'

start_xvfb
check "plots: the viewer runs 20 frames of 20 plots" viewer 0 "$scenes/plots_overflow.lua" --frames 20
check "plots: the 17th is named, once, as past the limit" bash -c "
	test \"\$( grep -c \"warning: plot 'series 17' is not shown: at most 16 plots at once\" '$SCRATCH/err' )\" = 1"
check "plots: those past the window's bottom are named, once each" python3 - "$SCRATCH/err" <<'PY'
import re, sys
names = re.findall(r"warning: plot '([^']+)' does not fit in the window", open(sys.argv[1]).read())
assert names, "no plot was said not to fit"
assert len(names) == len(set(names)), names
assert "series 16" in names, names
PY
check "plots: clean exit" bash -c "! grep -qE 'AddressSanitizer|runtime error:|OpenGL error' '$SCRATCH/err'"

finish
