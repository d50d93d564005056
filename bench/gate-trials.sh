#!/bin/bash
# The CI gate's trials: how often `mperf diff --check` (three runs a side) and
# `mperf stat -r 10 --baseline` / `--baseline-cmd` flag a real slowdown, and
# how often they flag a build measured against itself, on this machine as it
# is (its load is printed beside the counts).  Counts only, never a timed
# assertion: the exit status is 0 whatever the counts (1 when a run fails).
#
#   diff:  SHARES_SLOW (15% more work everywhere) against SHARES_BASE, SIDE
#          (3) recordings a side, interleaved, TRIALS times (expected: fails each
#          time); the base build against itself, PAIRS times (expected: passes
#          >= PAIRS - 1).
#   stat:  base -n ROUNDS*1.1 (10% more work) against base -n ROUNDS, -r 10,
#          at --alpha 0.01, TRIALS times (expected: flagged >= TRIALS - 1); the
#          same against itself at --alpha 0.05, PAIRS times (expected: flagged
#          <= 1 of 20); each with --baseline FILE (the baseline's runs first,
#          then the candidate's) and --baseline-cmd (interleaved, --warmup 1).
#
# Under each count, the reasons diff gave, and each stat trial's shift(p).
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/gate-trials.sh [-w ROUNDS] [-t TRIALS] [-p PAIRS] [-r RUNS] [-s SIDE] [-F HZ] [diff|stat]

	    -w, --work ROUNDS  shares -n ROUNDS a run (default: 900, about 0.1 s of CPU)
	    -t, --trials N     trials of a slower build (default: 10)
	    -p, --pairs N      trials of the same build against itself (default: 20)
	    -r, --runs N       stat -r N (default: 10)
	    -s, --side N       diff's recordings a side (default: 3)
	    -F, --freq HZ      diff's recordings at HZ samples a second (default: record's)
	    diff, stat         only diff's trials, or only stat's
	EOF
	exit 129
}

ROUNDS=900
TRIALS=10
PAIRS=20
RUNS=10
SIDE=3
FREQ=()
only=
while test $# -gt 0; do
	case $1 in
	-w|--work) test $# -ge 2 || usage; ROUNDS=$2; shift 2 ;;
	-t|--trials) test $# -ge 2 || usage; TRIALS=$2; shift 2 ;;
	-p|--pairs) test $# -ge 2 || usage; PAIRS=$2; shift 2 ;;
	-r|--runs) test $# -ge 2 || usage; RUNS=$2; shift 2 ;;
	-s|--side) test $# -ge 2 || usage; SIDE=$2; shift 2 ;;
	-F|--freq) test $# -ge 2 || usage; FREQ=(-F "$2"); shift 2 ;;
	diff|stat) only=$1; shift ;;
	*) usage ;;
	esac
done
for n in "$ROUNDS" "$TRIALS" "$PAIRS" "$RUNS" "$SIDE" "${FREQ[@]:1}"; do
	case $n in ''|*[!0-9]*|0) usage ;; esac
done

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init base/shares slow/shares

BASE=$PWD/build/workloads/base/shares
SLOW=$PWD/build/workloads/slow/shares
SLOWER=$((ROUNDS * 11 / 10))

# tally STATUS: count a gate's verdict (0 passed, 3 failed), or stop.
tally () {
	case $1 in
	0) passed=$((passed + 1)) ;;
	3) failed=$((failed + 1)) ;;
	*)
		echo "gate-trials: unexpected status $1:" >&2
		cat "$tmp/err" >&2
		exit 1 ;;
	esac
}

# diff_trial OLD NEW: record OLD and NEW SIDE times each, interleaved, and
# tally diff --check's verdict over them; the reasons go to $tmp/why.
diff_trial () {
	local i st=0 a=() b=()
	for ((i = 1; i <= SIDE; i++)); do
		"$MPERF" record -q "${FREQ[@]}" -o "$tmp/a$i.data" -- "$1" -n "$ROUNDS" 2>"$tmp/err" || tally 125
		"$MPERF" record -q "${FREQ[@]}" -o "$tmp/b$i.data" -- "$2" -n "$ROUNDS" 2>"$tmp/err" || tally 125
		a+=("$tmp/a$i.data")
		b+=("$tmp/b$i.data")
	done
	"$MPERF" diff --check "${a[@]}" -- "${b[@]}" >/dev/null 2>"$tmp/err" || st=$?
	tally $st
	sed 's/^mperf diff: check failed: [^ ]*: //; s/ [0-9.]*%* -> .* breaks/ breaks/; s/ (p [^)]*)$//' \
		"$tmp/err" >>"$tmp/why"
}

# stat_trial ALPHA FORM NEW-ROUNDS: one stat -r RUNS --check of base -n
# NEW-ROUNDS against base -n ROUNDS, FORM file (a baseline document first)
# or cmd (--baseline-cmd, interleaved); tally it and keep its change and p.
stat_trial () {
	local st=0 against
	if test "$2" = file; then
		"$MPERF" stat --mperf-json -q -r "$RUNS" -e task-clock -o "$tmp/base.json" \
			"$BASE" -n "$ROUNDS" 2>"$tmp/err" || tally 125
		against=(--baseline "$tmp/base.json")
	else
		against=(--warmup 1 --baseline-cmd "$BASE -n $ROUNDS")
	fi
	"$MPERF" stat -r "$RUNS" -e task-clock "${against[@]}" --check --alpha "$1" \
		"$BASE" -n "$3" >/dev/null 2>"$tmp/err" || st=$?
	tally $st
	awk '/ task-clock \(/ { for (i = 2; i <= NF; i++) if ($i ~ /^p=/) p = $i
		printf "%s(%s)\n", $1, p }' "$tmp/err" >>"$tmp/changes"
}

# trials N TITLE EXPECT CMD...: run CMD N times, print the counts.
trials () {
	local n=$1 title=$2 expect=$3 i
	shift 3
	passed=0 failed=0
	: >"$tmp/why"
	: >"$tmp/changes"
	for ((i = 0; i < n; i++)); do
		"$@"
	done
	printf '%-58s %2d failed/flagged, %2d passed of %2d  (expected: %s)\n' \
		"$title" "$failed" "$passed" "$n" "$expect"
	sort "$tmp/why" | uniq -c | sort -rn | head -n 4 | sed 's/^ */      /'
	test -s "$tmp/changes" && fold -s -w 100 <(paste -sd ' ' "$tmp/changes") | sed 's/^/      /'
	return 0
}

echo "mperf gate trials, $(date -u '+%F %H:%M UTC'), $(nproc) CPUs, shares -n $ROUNDS (slower: -n $SLOWER)${FREQ[*]:+, record ${FREQ[*]}}"
echo "load before: $(uptime | sed 's/.*load average/load average/')"
if test "$only" != stat; then
	echo
	trials "$TRIALS" "diff --check, $SIDE runs a side: slow vs base" "failed $TRIALS" \
		diff_trial "$BASE" "$SLOW"
	trials "$PAIRS" "diff --check, $SIDE runs a side: base vs base" "passed >= $((PAIRS - 1))" \
		diff_trial "$BASE" "$BASE"
fi
if test "$only" != diff; then
	echo
	trials "$TRIALS" "stat -r $RUNS --baseline FILE, +10% work, p < 0.01" "flagged >= $((TRIALS - 1))" \
		stat_trial 0.01 file "$SLOWER"
	trials "$PAIRS" "stat -r $RUNS --baseline FILE, same, p < 0.05" "flagged <= 1" \
		stat_trial 0.05 file "$ROUNDS"
	trials "$TRIALS" "stat -r $RUNS --baseline-cmd (interleaved), +10%, p < 0.01" "flagged >= $((TRIALS - 1))" \
		stat_trial 0.01 cmd "$SLOWER"
	trials "$PAIRS" "stat -r $RUNS --baseline-cmd (interleaved), same, p < 0.05" "flagged <= 1" \
		stat_trial 0.05 cmd "$ROUNDS"
fi
echo
echo "load after: $(uptime | sed 's/.*load average/load average/')"
