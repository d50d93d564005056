#!/bin/bash
# Samples lost under load, mperf against perf, run alternately in one go:
# `record -e cpu-clock,cpu-clock,cpu-clock -F 20000 -a -- sleep 3` (with
# -m PAGES and -t/--threads ARG given to both) while cpuspin keeps both
# CPUs half busy.  Each run prints the load, each tool's "Woken up" count
# and the events its file's LOST records say were lost.
# Goal: mperf loses no more than perf.
set -euo pipefail

usage () {
	echo "usage: bench/record-loss-vs-perf.sh [-n RUNS] [-m PAGES] [-t|--threads ARG]" >&2
	exit 129
}

runs=5
extra=()
while test $# -gt 0; do
	case $1 in
	-n|--runs) test $# -ge 2 || usage; runs=$2; shift 2 ;;
	-t|--threads) test $# -ge 2 || usage; extra+=(--threads="$2"); shift 2 ;;
	-m) test $# -ge 2 || usage; extra+=(-m "$2"); shift 2 ;;
	-h|--help) usage ;;
	*) usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) usage ;; esac

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init cpuspin
if test -z "$have_perf"; then
	echo "perf is not installed: nothing to compare with" >&2
	exit 0
fi

# lost FILE: the sum of the file's LOST records, as perf's -D shows them.
lost () {
	"$PERF" report -D -i "$1" 2>/dev/null |
		awk '/PERF_RECORD_LOST:/ { for (i = 1; i <= NF; i++) if ($i ~ /^lost:/) s += substr($i, 6) } END { print s + 0 }'
}

# one FILE TOOL [OPTION...]: record with TOOL, print "woken lost".
one () {
	local out=$1 tool=$2 w
	shift 2
	"$tool" record "$@" -e cpu-clock,cpu-clock,cpu-clock -F 20000 -a ${extra[@]+"${extra[@]}"} \
		-o "$out" -- sleep 3 2>"$tmp/err" >/dev/null || { cat "$tmp/err" >&2; return 1; }
	w=$(sed -n 's/.*Woken up \([0-9]*\) times.*/\1/p' "$tmp/err" | head -n 1)
	echo "${w:-?} $(lost "$out")"
}

./build/workloads/cpuspin 100 2 50 &
spin=$!
trap 'kill $spin 2>/dev/null; rm -rf "$tmp"' EXIT
printf '%-4s %-6s %14s %14s\n' run load "mperf woken/lost" "perf woken/lost"
for r in $(seq "$runs"); do
	load=$(cut -d' ' -f1 /proc/loadavg)
	m=$(one "$tmp/m.data" "$MPERF")
	p=$(one "$tmp/p.data" "$PERF" --no-bpf-event)
	printf '%-4s %-6s %14s %14s\n' "$r" "$load" "${m/ //}" "${p/ //}"
done
