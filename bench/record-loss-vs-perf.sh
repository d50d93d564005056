#!/bin/bash
# Samples lost under load, mperf against perf, run alternately in one go:
# `record -e cpu-clock,cpu-clock,cpu-clock -F 20000 -a -- sleep 3` (with
# -m PAGES and -t/--threads ARG given to both) while -s N cpuspins (default
# 2, each two threads half busy) keep both CPUs busy.  Each run prints the
# load, and for each tool its "Woken up" count, the events its file's LOST
# records say were lost and the recorder's own CPU seconds (user+sys, by
# GNU time; "-" without it).  -b MPERF runs another build of mperf as well
# (an older one: what a change to the drain costs).  The last lines sum up
# each tool's runs.
# Goal: mperf loses no more than perf, for no more CPU.
set -euo pipefail

usage () {
	echo "usage: bench/record-loss-vs-perf.sh [-n RUNS] [-m PAGES] [-t|--threads ARG] [-s SPINNERS] [-b MPERF]" >&2
	exit 129
}

runs=5
spinners=2
base=
extra=()
while test $# -gt 0; do
	case $1 in
	-n|--runs) test $# -ge 2 || usage; runs=$2; shift 2 ;;
	-t|--threads) test $# -ge 2 || usage; extra+=(--threads="$2"); shift 2 ;;
	-m) test $# -ge 2 || usage; extra+=(-m "$2"); shift 2 ;;
	-s|--spinners) test $# -ge 2 || usage; spinners=$2; shift 2 ;;
	-b|--baseline) test $# -ge 2 || usage; base=$(realpath "$2"); shift 2 ;;
	-h|--help) usage ;;
	*) usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) usage ;; esac
case $spinners in ''|*[!0-9]*) usage ;; esac
test -z "$base" || test -x "$base" || usage

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

# one FILE TOOL [OPTION...]: record with TOOL, print "woken/lost/cpu".
one () {
	local out=$1 tool=$2 w cpu=- timed=()
	shift 2
	test -z "$have_time" || timed=(/usr/bin/time -f '%U %S' -o "$tmp/time")
	${timed[@]+"${timed[@]}"} "$tool" record "$@" -e cpu-clock,cpu-clock,cpu-clock -F 20000 -a \
		${extra[@]+"${extra[@]}"} -o "$out" -- sleep 3 2>"$tmp/err" >/dev/null ||
		{ cat "$tmp/err" >&2; return 1; }
	w=$(sed -n 's/.*Woken up \([0-9]*\) times.*/\1/p' "$tmp/err" | head -n 1)
	test -z "$have_time" || cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/time")
	echo "${w:-?}/$(lost "$out")/$cpu"
	rm -rf "$out"
}

spin=()
for _ in $(seq "$spinners"); do
	./build/workloads/cpuspin 1000 2 50 &
	spin+=($!)
done
trap 'kill ${spin[@]+"${spin[@]}"} 2>/dev/null; rm -rf "$tmp"' EXIT
names=(mperf perf)
test -z "$base" || names+=(-b)
printf '%-4s %-6s' run load
for n in "${names[@]}"; do
	printf ' %20s' "$n woken/lost/cpu"
done
echo
for r in $(seq "$runs"); do
	row=("$(one "$tmp/m.data" "$MPERF")" "$(one "$tmp/p.data" "$PERF" --no-bpf-event)")
	test -z "$base" || row+=("$(one "$tmp/b.data" "$base")")
	printf '%-4s %-6s' "$r" "$(cut -d' ' -f1 /proc/loadavg)"
	printf ' %20s' "${row[@]}"
	echo
	echo "${row[*]}" >>"$tmp/rows"
done
# Each tool's runs summed: how many lost, what they lost, the CPU they took.
for c in $(seq "${#names[@]}"); do
	awk -v c="$c" -v name="${names[c - 1]}" '
		{ split($c, f, "/"); if (f[2] > 0) n++; lost += f[2]; cpu += f[3] }
		END { printf "%-6s %d of %d runs lost, %d in all; recorder CPU %.2f s a run\n", name, n, NR, lost, cpu / NR }
	' "$tmp/rows"
done
