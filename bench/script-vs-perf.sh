#!/bin/bash
# Wall time and peak RSS of `mperf script` against `perf script` on the
# same file of about 300k samples, one run each, side by side; prints
# perf/mperf, and how many lines of the two outputs differ (0 is the goal:
# the same lines, faster).
#
# The file is recorded by perf (cpu-clock and task-clock at -F 10000 while
# noploop spins on every CPU) unless it exists already.
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/script-vs-perf.sh [-s SAMPLES] [-f FILE]

	    -s, --samples N   samples to aim for when recording (default: 300000)
	    -f, --file FILE   the file, recorded by perf first if missing
	                      (default: \${TMPDIR:-/tmp}/mperf-bench-script.perf.data)
	EOF
	exit 129
}

tmpbase=${TMPDIR:-/tmp}
target=300000
file=$tmpbase/mperf-bench-script.perf.data
while test $# -gt 0; do
	case $1 in
	-s|--samples) test $# -ge 2 || usage; target=$2; shift 2 ;;
	-f|--file) test $# -ge 2 || usage; file=$2; shift 2 ;;
	*) usage ;;
	esac
done
case $target in ''|*[!0-9]*|0) usage ;; esac

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init noploop
NOPLOOP=$PWD/build/workloads/noploop
if test -z "$have_perf"; then
	echo "perf is not installed: nothing to compare with" >&2
	exit 0
fi
test -n "$have_time" || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }

# Two events at 10 kHz on every busy CPU: 20k samples/s per CPU, if the
# kernel allows the rate; up to two more runs correct the duration.
record () {
	local ncpu secs n i c loop
	ncpu=$(nproc)
	secs=$(awk -v t="$target" -v c="$ncpu" 'BEGIN { printf "%.2f", t / (20000 * c) }')
	for i in 1 2 3; do
		loop=""
		for ((c = 0; c < ncpu; c++)); do
			loop="$loop\"$NOPLOOP\" $secs & "
		done
		echo "recording $file: $ncpu x noploop $secs s" >&2
		"$PERF" record -q -F 10000 -e cpu-clock,task-clock -o "$tmp/rec.data" -- sh -c "${loop}wait" \
			>/dev/null 2>&1
		n=$(count_samples "$tmp/rec.data")
		test -n "$n" && test "$n" -gt 0 || { echo "cannot count the samples of the recording" >&2; return 1; }
		test "$n" -lt $((target * 9 / 10)) || break
		secs=$(awk -v s="$secs" -v t="$target" -v n="$n" 'BEGIN { printf "%.2f", s * t / n }')
	done
	mv "$tmp/rec.data" "$file"
}

test -s "$file" || record
n=$(count_samples "$file")
# One untimed run of each: the page cache, and kallsyms warm for both.
"$MPERF" script -i "$file" >/dev/null 2>&1
"$PERF" script -i "$file" >/dev/null 2>&1
/usr/bin/time -f "%e %M" -o "$tmp/m.time" "$MPERF" script -i "$file" >"$tmp/m.out" 2>/dev/null
/usr/bin/time -f "%e %M" -o "$tmp/p.time" "$PERF" script -i "$file" >"$tmp/p.out" 2>/dev/null
read -r ms mk <"$tmp/m.time"
read -r ps pk <"$tmp/p.time"
lines=$(wc -l <"$tmp/p.out")
differ=$(diff "$tmp/p.out" "$tmp/m.out" | grep -c '^>' || true)
echo "script -i $file ($n samples, $(du -h "$file" | cut -f1), $lines lines), one run each:"
printf '  mperf script  %8s s   peak RSS %8s KB\n' "$ms" "$mk"
printf '  perf script   %8s s   peak RSS %8s KB\n' "$ps" "$pk"
echo "  perf/mperf: $(ratio "$ps" "$ms")x"
echo "  lines that differ: $differ"
