#!/bin/bash
# Wall time and peak RSS of the call-graph report, mperf against perf, run
# alternately on the same -g file: perf record -g -F 10000 of callpaths
# burning SECS of CPU on every CPU (about 10k samples per CPU second).
# Prints the medians, perf/mperf, and whether the outputs are the same
# (but for perf's tip line).
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

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init callpaths
CALLPATHS=$PWD/build/workloads/callpaths
if test -z "$have_perf"; then
	echo "perf is not installed: nothing to compare with" >&2
	exit 0
fi

if ! test -s "$file"; then
	loop=""
	for ((c = 0; c < $(nproc); c++)); do
		loop="$loop\"$CALLPATHS\" $secs & "
	done
	echo "recording $file: perf record -g -F 10000, $(nproc) x callpaths $secs s" >&2
	"$PERF" record -q -g -F 10000 -e cpu-clock -o "$file" -- sh -c "${loop}wait" 2>/dev/null
fi

# perf's tip line.
norm () {
	grep -v '^# (Tip:'
}

n=$(count_samples "$file")
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
	mr=$(peak_rss_kb "$MPERF" report -i "$file" $view)
	# shellcheck disable=SC2086
	pr=$(peak_rss_kb "$PERF" report --stdio -i "$file" $view)
	same=differs
	cmp -s <(norm <"$tmp/m.out") <(norm <"$tmp/p.out") && same=same
	printf '  %-14s mperf %8s ms %8s KB   perf %8s ms %8s KB   perf/mperf %5.1fx   output %s\n' \
		"${view:-(default)}" "$m" "$mr" "$p" "$pr" "$(ratio "$p" "$m")" "$same"
done
