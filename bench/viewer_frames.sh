#!/usr/bin/env bash
# The viewer's frame times (issue 18's bars): the showcase at 1280x720 for 300 frames and
# pyramid1240 for 200, each run a whole process under its own Xvfb (start-up included), with the
# default options (on llvmpipe: the software profile, shadows, sky and panels on).
#   ms a frame = the run's wall time / frames, as the issue's bars count it.
# With --baseline DIR (a release build of another commit, for example the commit an issue was
# filed at, built in a worktree), that build's runs alternate with this one's, so a drift of the
# machine hits both alike; the summary gives each scene's median ratio, this build over the
# baseline. A bar stated against a figure the baseline had on an earlier day carries over as that
# figure times the ratio.
# With --instructions, it also counts the instructions of a showcase frame with callgrind (the
# whole process: every thread and llvmpipe's compiled shaders), as the difference between runs of
# 30 and 60 frames over 30, so start-up and shader compilation drop out. That takes about 5 minutes
# a build; the count does not move with the machine's speed.
# Usage: bench/viewer_frames.sh [--runs N] [--baseline DIR] [--instructions]   (default 4 runs)
# The program: $TUMBLE, else build/release/tumble. Needs xvfb-run (package xvfb), and valgrind for
# --instructions.
set -euo pipefail
cd "$( dirname "$0" )/.."
runs=4
baseline=""
instructions=0
while [ $# -gt 0 ]; do
	case "$1" in
		--runs) runs="${2-}"; shift $(( $# > 1 ? 2 : 1 )) ;;
		--baseline) baseline="${2-}"; shift $(( $# > 1 ? 2 : 1 )) ;;
		--instructions) instructions=1; shift ;;
		*) echo "viewer_frames.sh: unknown option '$1' (--runs N, --baseline DIR, --instructions)" >&2; exit 2 ;;
	esac
done
case "$runs" in
	'' | *[!0-9]* | 0) echo "viewer_frames.sh: --runs expects a whole number of at least 1, got '$runs'" >&2; exit 2 ;;
esac
tumble="${TUMBLE:-build/release/tumble}"
[ -x "$tumble" ] || { echo "viewer_frames.sh: $tumble not built (./build.sh build release)" >&2; exit 1; }
# Runs happen in each build's own tree, so the program is named by its absolute path.
case "$tumble" in
	/*) ;;
	*) tumble="$( pwd )/$tumble" ;;
esac
command -v xvfb-run >/dev/null || { echo "viewer_frames.sh: xvfb-run not found (apt-get install xvfb)" >&2; exit 1; }
if [ "$instructions" = 1 ] && ! command -v valgrind >/dev/null; then
	echo "viewer_frames.sh: --instructions needs valgrind (apt-get install valgrind)" >&2
	exit 1
fi
builds=( "$( pwd )" )
if [ -n "$baseline" ]; then
	baseline="$( cd "$baseline" && pwd )"
	[ -x "$baseline/build/release/tumble" ] || {
		echo "viewer_frames.sh: --baseline $baseline has no build/release/tumble" >&2
		exit 1
	}
	builds+=( "$baseline" )
fi
scratch=$( mktemp -d )
trap 'rm -rf "$scratch"' EXIT

median_of()
{
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : 0.5 * (v[NR / 2] + v[NR / 2 + 1]) }'
}

# One run: prints ms a frame (wall / frames) and the CPU seconds (user + system); fails when the
# viewer does (GNU time says so before its own line).
run_scene()
{
	local program="$1" tree="$2" scene="$3" frames="$4"
	( cd "$tree" && xvfb-run -a -s "-screen 0 1920x1080x24" /usr/bin/time -f "TB_TIME %e %U %S" \
		"$program" "scripts/scenes/$scene.lua" --window 1280x720 --frames "$frames" ) 2>&1 >/dev/null |
		awk -v frames="$frames" '/^TB_TIME / { printf "%.2f %.2f\n", 1000 * $2 / frames, $3 + $4; found = 1 }
			/^Command exited with non-zero status/ { failed = 1 }
			END { if (!found || failed) exit 1 }'
}

# The program of build index: this build's, or the baseline tree's release build.
program_of()
{
	[ "$1" -eq 0 ] && echo "$tumble" || echo "${builds[$1]}/build/release/tumble"
}

# Instructions of one showcase run of N frames: the sum of callgrind's totals of the process.
count_instructions()
{
	local program="$1" tree="$2" frames="$3"
	( cd "$tree" && xvfb-run -a -s "-screen 0 1920x1080x24" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		--smc-check=all-non-file "$program" scripts/scenes/showcase.lua --window 1280x720 --frames "$frames" ) 2>&1 |
		awk '/Collected :/ { total += $4; found = 1 } END { if (!found) exit 1; printf "%.0f\n", total }'
}

scenes=( "showcase 300" "bench_pyramid1240 200" )
printf "%-6s %-9s %-18s %12s %8s\n" run build scene "ms a frame" "CPU s"
for run in $( seq 1 "$runs" ); do
	for index in "${!builds[@]}"; do
		tree="${builds[$index]}"
		name=$( [ "$index" -eq 0 ] && echo this || echo baseline )
		program=$( program_of "$index" )
		for entry in "${scenes[@]}"; do
			set -- $entry
			echo "viewer_frames: run $run/$runs, $name, $1 ..." >&2
			result=$( run_scene "$program" "$tree" "$1" "$2" ) || {
				echo "viewer_frames.sh: $name's $1 did not finish (run it by hand to see why)" >&2
				exit 1
			}
			echo "$result" >>"$scratch/$name.$1"
			printf "%-6s %-9s %-18s %12s %8s\n" "$run" "$name" "$1" $result
		done
	done
done

echo
for entry in "${scenes[@]}"; do
	set -- $entry
	for name in this baseline; do
		[ -f "$scratch/$name.$1" ] || continue
		cut -d' ' -f1 "$scratch/$name.$1" | sort -g >"$scratch/sorted"
		printf "%-9s %-18s ms a frame: %s to %s, median %.2f\n" "$name" "$1" "$( head -1 "$scratch/sorted" )" \
			"$( tail -1 "$scratch/sorted" )" "$( median_of <"$scratch/sorted" )"
	done
	if [ -f "$scratch/baseline.$1" ]; then
		paste -d' ' "$scratch/this.$1" "$scratch/baseline.$1" | awk '{ print $1 / $3 }' >"$scratch/ratios"
		printf "%-9s %-18s this / baseline, per run (sorted): %s, median %s\n" ratio "$1" \
			"$( sort -g "$scratch/ratios" | awk '{ printf "%s%.2f", (NR > 1 ? " " : ""), $1 }' )" \
			"$( median_of <"$scratch/ratios" | awk '{ printf "%.2f", $1 }' )"
	fi
done

if [ "$instructions" = 1 ]; then
	echo
	for index in "${!builds[@]}"; do
		tree="${builds[$index]}"
		name=$( [ "$index" -eq 0 ] && echo this || echo baseline )
		program=$( program_of "$index" )
		echo "viewer_frames: $name, callgrind over 30 and 60 showcase frames ..." >&2
		short=$( count_instructions "$program" "$tree" 30 ) && long=$( count_instructions "$program" "$tree" 60 ) || {
			echo "viewer_frames.sh: $name's showcase did not run under callgrind" >&2
			exit 1
		}
		awk -v name="$name" -v a="$short" -v b="$long" \
			'BEGIN { printf "%-9s showcase           instructions a frame (frames 30 to 60): %.1f M\n", name, (b - a) / 30 / 1e6 }'
	done
fi
