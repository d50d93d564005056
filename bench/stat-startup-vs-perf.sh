#!/bin/bash
# Wall time of `stat -x, -e task-clock,context-switches,page-faults true`, mperf against
# perf, run alternately in one go; prints the medians and perf/mperf.
# Goal: mperf takes less wall time than perf (a CI job runs stat -r often).
set -euo pipefail

usage () {
	echo "usage: bench/stat-startup-vs-perf.sh [-n RUNS]" >&2
	exit 129
}

runs=10
while test $# -gt 0; do
	case $1 in
	-n|--runs) test $# -ge 2 || usage; runs=$2; shift 2 ;;
	-h|--help) usage ;;
	*) usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) usage ;; esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."
test -x ./mperf || make mperf >&2
MPERF=$PWD/mperf
PERF=${PERF:-perf}
have_perf=
if command -v "$PERF" >/dev/null 2>&1 && "$PERF" --version >/dev/null 2>&1; then
	have_perf=1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mperf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Microseconds since the epoch; bash 5 has it without a fork.
now_us () {
	if test -n "${EPOCHREALTIME:-}"; then
		local t=${EPOCHREALTIME/[.,]/}
		echo "$t"
	else
		echo $(( $(date +%s%N) / 1000 ))
	fi
}

# time_us CMD [ARGS]: run CMD quietly, print its wall time in microseconds.
time_us () {
	local t0 t1
	t0=$(now_us)
	"$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
	t1=$(now_us)
	echo $((t1 - t0))
}

# median_ms: the median of the microsecond values on stdin, in ms.
median_ms () {
	sort -n | awk '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.2f\n", m / 1000 }'
}

mperf_cmd=("$MPERF" stat -x, -e task-clock,context-switches,page-faults true)
perf_cmd=("$PERF" stat -x, -e task-clock,context-switches,page-faults true)

# One untimed run each: the page cache.
"${mperf_cmd[@]}" >/dev/null 2>&1
test -z "$have_perf" || "${perf_cmd[@]}" >/dev/null 2>&1

: >"$tmp/m.us"
: >"$tmp/p.us"
for ((i = 0; i < runs; i++)); do
	time_us "${mperf_cmd[@]}" >>"$tmp/m.us"
	test -z "$have_perf" || time_us "${perf_cmd[@]}" >>"$tmp/p.us"
done

m=$(median_ms <"$tmp/m.us")
echo "stat -x, -e task-clock,context-switches,page-faults true, $runs runs each, median wall time:"
printf '  mperf: %8s ms\n' "$m"
if test -z "$have_perf"; then
	echo "  perf:  not installed, no comparison"
	exit 0
fi
p=$(median_ms <"$tmp/p.us")
printf '  perf:  %8s ms\n' "$p"
awk -v p="$p" -v m="$m" 'BEGIN { printf "  perf/mperf: %.1fx (goal: above 1x)\n", (m > 0) ? p / m : 0 }'
