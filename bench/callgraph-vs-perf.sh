#!/bin/bash
# Wall time and peak RSS of the call-graph report, mperf against perf, run
# alternately on the same -g file: perf record -g -F 10000 of callpaths
# burning SECS of CPU on every CPU (about 10k samples per CPU second).
# Prints the medians, perf/mperf, and whether the outputs are the same
# (but for perf's tip line and its name for a .plt sample).
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/callgraph-vs-perf.sh [-n RUNS] [-t SECS] [-f FILE]

	    -n, --runs N     timed runs of each tool and view (default: 5)
	    -t, --time SECS  CPU seconds of callpaths per CPU when recording (default: 15)
	    -f, --file FILE  the -g file, recorded first if missing
	                     (default: \${TMPDIR:-/tmp}/mperf-bench-callgraph.perf.data)
	EOF
	exit 129
}

tmpbase=${TMPDIR:-/tmp}
runs=5
secs=15
file=$tmpbase/mperf-bench-callgraph.perf.data
while test $# -gt 0; do
	case $1 in
	-n|--runs) test $# -ge 2 || usage; runs=$2; shift 2 ;;
	-t|--time) test $# -ge 2 || usage; secs=$2; shift 2 ;;
	-f|--file) test $# -ge 2 || usage; file=$2; shift 2 ;;
	*) usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) usage ;; esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."
test -x ./mperf && test -x ./callpaths || make >&2
MPERF=$PWD/mperf
CALLPATHS=$PWD/callpaths
PERF=${PERF:-perf}
if ! command -v "$PERF" >/dev/null 2>&1; then
	echo "perf is not installed: nothing to compare with" >&2
	exit 0
fi
tmp=$(mktemp -d "$tmpbase/mperf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! test -s "$file"; then
	loop=""
	for ((c = 0; c < $(nproc); c++)); do
		loop="$loop\"$CALLPATHS\" $secs & "
	done
	echo "recording $file: perf record -g -F 10000, $(nproc) x callpaths $secs s" >&2
	"$PERF" record -q -g -F 10000 -e cpu-clock -o "$file" -- sh -c "${loop}wait" 2>/dev/null
fi

now_us () {
	local t=${EPOCHREALTIME/[.,]/}
	echo "$t"
}

median_ms () {
	sort -n | awk '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.1f\n", m / 1000 }'
}

run_us () {	# run_us OUT CMD...: time one run, output to OUT
	local out=$1 t0 t1
	shift
	t0=$(now_us)
	"$@" >"$out" 2>/dev/null
	t1=$(now_us)
	echo $((t1 - t0))
}

# The tip line, and a .plt sample, which perf names "x@plt" or "_init" as its symbol tree has it.
norm () {
	grep -v '^# (Tip:' | sed -E 's/\[\.\] (_init|[A-Za-z0-9_.]*@plt)$/[.] _init-or-plt/'
}

rss_kb () {
	if /usr/bin/time -f %M true >/dev/null 2>&1; then
		/usr/bin/time -f %M -o "$tmp/rss" "$@" >/dev/null 2>/dev/null
		tail -n 1 "$tmp/rss"
	else
		echo -
	fi
}

n=$("$PERF" report --stats -i "$file" 2>/dev/null | awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }')
echo "call graphs of $file ($n samples, $(du -h "$file" | cut -f1)), $runs runs each:"
for view in "" "--no-children" "-g folded"; do
	: >"$tmp/m.us"
	: >"$tmp/p.us"
	# shellcheck disable=SC2086
	for ((i = 0; i < runs; i++)); do
		run_us "$tmp/m.out" "$MPERF" report -i "$file" $view >>"$tmp/m.us"
		run_us "$tmp/p.out" "$PERF" report --stdio -i "$file" $view >>"$tmp/p.us"
	done
	m=$(median_ms <"$tmp/m.us")
	p=$(median_ms <"$tmp/p.us")
	# shellcheck disable=SC2086
	mr=$(rss_kb "$MPERF" report -i "$file" $view)
	# shellcheck disable=SC2086
	pr=$(rss_kb "$PERF" report --stdio -i "$file" $view)
	same=differs
	cmp -s <(norm <"$tmp/m.out") <(norm <"$tmp/p.out") && same=same
	printf '  %-14s mperf %8s ms %8s KB   perf %8s ms %8s KB   perf/mperf %5.1fx   output %s\n' \
		"${view:-(default)}" "$m" "$mr" "$p" "$pr" "$(awk -v p="$p" -v m="$m" 'BEGIN { print (m > 0) ? p / m : 0 }')" "$same"
done
