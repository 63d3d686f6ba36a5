#!/usr/bin/env bash
# Runs one fuzz target: replays its committed inputs, then (optionally) fuzzes it for a while.
#
#   tests/fuzz/run_fuzz.sh [--replay DIR] [--fuzz DIR --seconds N [--seed S]] TARGET
#
#   --replay DIR   DIR/TARGET is a replay build (any configuration but fuzz): it runs every file of
#                  tests/fuzz/corpus/TARGET and tests/fuzz/crashes/TARGET once.
#   --fuzz DIR     DIR/TARGET is a libFuzzer build (build/fuzz): it fuzzes for --seconds N starting
#                  from the committed corpus and reproducers. New inputs and artifacts go to a
#                  scratch directory, $TB_FUZZ_SCRATCH/TARGET (default build/fuzz-runs/TARGET),
#                  emptied first; nothing is written into the repository.
#   --seed S       a reproducible run: libFuzzer's -seed=S and a fixed number of executions per
#                  target (fuzz_runs below, about 20 s each on the 2-core CI machines), with
#                  --seconds as an upper bound only. The same commit then fuzzes the same inputs on
#                  every machine, so the test command never fails by luck; without --seed the run
#                  is random and time-limited (campaigns, ./build.sh fuzz).
#
# Prints a short summary with libFuzzer's "Done N runs in S second(s)" line, and on a finding the
# report, the saved input and how to reproduce it. Exit status non-zero on any finding (crash,
# failed check, sanitizer report, leak, timeout, out of memory) or when a program is missing.
# Per-target libFuzzer options live in fuzz_options() below; TB_FUZZ_ARGS adds more. Checks named
# in tests/fuzz/known.txt are skipped unless TB_FUZZ_KNOWN is set (README.md).
set -uo pipefail

cd "$( dirname "${BASH_SOURCE[0]}" )/../.." || exit 1

usage()
{
	sed -n '2,/^set /s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
	exit 2
}

replay_dir=""
fuzz_dir=""
seconds=60
seed=""
target=""
while [ $# -gt 0 ]; do
	case "$1" in
		--replay) replay_dir="${2:-}"; shift 2 ;;
		--fuzz) fuzz_dir="${2:-}"; shift 2 ;;
		--seconds) seconds="${2:-}"; shift 2 ;;
		--seed) seed="${2:-}"; shift 2 ;;
		-h | --help) usage ;;
		-*) echo "run_fuzz.sh: unknown option '$1'" >&2; usage ;;
		*) target="$1"; shift ;;
	esac
done
[ -n "$target" ] || usage
[ -n "$replay_dir" ] || [ -n "$fuzz_dir" ] || usage
case "$seconds" in
	'' | *[!0-9]*) echo "run_fuzz.sh: --seconds needs a whole number, got '$seconds'" >&2; exit 2 ;;
esac
case "$seed" in
	*[!0-9]*) echo "run_fuzz.sh: --seed needs a whole number, got '$seed'" >&2; exit 2 ;;
esac

corpus="tests/fuzz/corpus/$target"
crashes="tests/fuzz/crashes/$target"

# Named checks of known, open findings (tests/fuzz/known.txt) are skipped unless TB_FUZZ_KNOWN is
# set (to anything, empty included), as in tests/run_tests.sh.
if [ -z "${TB_FUZZ_KNOWN+set}" ] && [ -f tests/fuzz/known.txt ]; then
	TB_FUZZ_KNOWN=$( sed -e 's/#.*//' -e 's/[[:space:]]//g' tests/fuzz/known.txt | grep -v '^$' | paste -sd, - )
	export TB_FUZZ_KNOWN
fi
[ -n "${TB_FUZZ_KNOWN:-}" ] && echo "known open findings, checks skipped: $TB_FUZZ_KNOWN"

# libFuzzer options per target. -timeout is per input (a hang is a finding); fuzz_lua's scripts print
# to stderr, which -close_fd_mask=2 silences (reports still get through).
fuzz_options()
{
	local common=( -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 )
	case "$1" in
		fuzz_hull) echo "${common[@]}" -max_len=8192 ;;
		fuzz_collide) echo "${common[@]}" -max_len=512 ;;
		fuzz_world) echo "${common[@]}" -max_len=2048 ;;
		fuzz_lua*) echo -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 -max_len=4096 -close_fd_mask=2 \
			-dict=tests/fuzz/fuzz_lua.dict ;;
		*) echo "${common[@]}" ;;
	esac
}

# Executions of a reproducible (--seed) run per target: about 20 s each on the CI machines (their
# rates in docs/RELIABILITY.md).
fuzz_runs()
{
	case "$1" in
		fuzz_collide) echo 100000 ;;
		fuzz_world) echo 40000 ;;
		fuzz_hull) echo 10000 ;;
		fuzz_lua*) echo 1000 ;;
		*) echo 10000 ;;
	esac
}

status=0

if [ -n "$replay_dir" ]; then
	program="$replay_dir/$target"
	if [ ! -x "$program" ]; then
		echo "replay: $program was not built"
		exit 1
	fi
	inputs=( "$corpus" )
	[ -d "$crashes" ] && inputs+=( "$crashes" )
	echo "replay: $program ${inputs[*]}"
	if ! "$program" "${inputs[@]}"; then
		echo "replay: FAILED: an input above crashed or failed a check (its name is printed just before the report)"
		status=1
	fi
fi

if [ -n "$fuzz_dir" ] && [ "$seconds" -gt 0 ]; then
	program="$fuzz_dir/$target"
	if [ ! -x "$program" ]; then
		echo "fuzz: $program was not built (./build.sh fuzz builds it; it needs clang)"
		exit 1
	fi
	scratch="${TB_FUZZ_SCRATCH:-build/fuzz-runs}/$target"
	rm -rf "$scratch"
	mkdir -p "$scratch/corpus"
	log="$scratch/libfuzzer.log"
	read -r -a options <<<"$( fuzz_options "$target" )"
	read -r -a extra <<<"${TB_FUZZ_ARGS:-}"
	if [ -n "$seed" ]; then
		# -use_cmp=0: libFuzzer otherwise feeds the operands of traced comparisons back into its
		# mutations, pointer comparisons among them, and with address randomisation two runs of one
		# seed then part ways within seconds (same seeds, same machine: 5055 and 5120 edges covered
		# after 40,000 fuzz_world runs). Without them a seeded run is the same run everywhere.
		extra+=( -seed="$seed" -runs="$( fuzz_runs "$target" )" -reload=0 -use_cmp=0 )
	fi
	inputs=( "$corpus" )
	[ -d "$crashes" ] && inputs+=( "$crashes" )
	echo "fuzz: $program for ${seconds}s on ${inputs[*]} (scratch $scratch)${seed:+, seed $seed, $( fuzz_runs "$target" ) runs}"
	if [ -n "$seed" ]; then
		# libFuzzer takes a directory's files in the order the file system lists them, and that order
		# differs between two clones of one commit (ext4 orders by a per-disk name hash). Given as a
		# list sorted by name instead, the seeds load in the same order everywhere, so a seeded run
		# is the same run on every machine.
		find "${inputs[@]}" -type f | LC_ALL=C sort | paste -sd, - >"$scratch/seeds"
		inputs=( -seed_inputs=@"$scratch/seeds" )
	fi
	"$program" "$scratch/corpus" "${inputs[@]}" -max_total_time="$seconds" -artifact_prefix="$scratch/" \
		"${options[@]}" "${extra[@]}" >"$log" 2>&1
	fuzz_status=$?
	grep -E '^(Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | sed 's/^/fuzz: /'
	echo "fuzz: corpus grew to $( find "$scratch/corpus" -type f | wc -l ) new inputs (not kept in the repository)"
	if [ "$fuzz_status" -ne 0 ]; then
		status=1
		echo "fuzz: FINDING (libFuzzer exit status $fuzz_status):"
		grep -E -A 2 "fuzz check failed|tumble assertion failed|^check '|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:" \
			"$log" | head -n 12 | sed 's/^/  > /'
		echo "fuzz: the end of its report:"
		grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|RELOAD|INITED)' "$log" | tail -n 60 | sed 's/^/  | /'
		for artifact in "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* "$scratch"/oom-* "$scratch"/slow-unit-*; do
			[ -f "$artifact" ] || continue
			echo "fuzz: saved input $artifact ($( wc -c <"$artifact" ) bytes), base64:"
			base64 -w 100 "$artifact" | head -n 40 | sed 's/^/  /'
			echo "fuzz: reproduce with: $program $artifact"
			echo "fuzz: keep it as a regression input: cp $artifact $crashes/<short-name>"
		done
	fi
fi

exit "$status"
