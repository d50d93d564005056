#!/bin/bash
# Time to the first screen of the report browser, mperf against perf's TUI,
# on the same -g file (callgraph-vs-perf.sh's, recorded first if missing):
# each tool runs in a tmux terminal of 120x40, and the clock stops when the
# screen shows the title line and the first entry's row.  Alternate runs,
# medians.
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/tui-startup-vs-perf.sh [-n RUNS] [-f FILE]

	    -n, --runs N     timed runs of each tool (default: 5)
	    -f, --file FILE  the -g file (default: callgraph-vs-perf.sh's,
	                     \${TMPDIR:-/tmp}/mperf-bench-callgraph.perf.data)
	EOF
	exit 129
}

runs=5
file=${TMPDIR:-/tmp}/mperf-bench-callgraph.perf.data
while test $# -gt 0; do
	case $1 in
	-n|--runs) test $# -ge 2 || usage; runs=$2; shift 2 ;;
	-f|--file) test $# -ge 2 || usage; file=$2; shift 2 ;;
	*) usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) usage ;; esac

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init callpaths
if test -z "$have_perf"; then
	echo "perf is not installed: nothing to compare with" >&2
	exit 0
fi
if ! command -v tmux >/dev/null 2>&1; then
	echo "tmux is not installed: no terminal to time the browsers in" >&2
	exit 0
fi
test -s "$file" || bench/callgraph-vs-perf.sh -n 1 -f "$file" >/dev/null
sock=$tmp/tmux
trap 'tmux -S "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT

# first_screen_us CMD...: microseconds from the start of CMD in a fresh
# 120x40 terminal to a screen with the title and a row with a percentage.
first_screen_us () {
	local t0 t1
	tmux -S "$sock" -f /dev/null new-session -d -x 120 -y 40 -s b "sleep 0.5; exec $*"
	sleep 0.45
	t0=$(now_us)
	until tmux -S "$sock" capture-pane -p -t b 2>/dev/null | grep -q '^Samples: ' &&
	      tmux -S "$sock" capture-pane -p -t b | grep -qE '^[ +]+[0-9]+\.[0-9]+%'; do
		sleep 0.01	# polled, not spun: the tools get the CPUs
	done
	t1=$(now_us)
	tmux -S "$sock" send-keys -t b q
	while tmux -S "$sock" has-session -t b 2>/dev/null; do sleep 0.05; done
	# The command starts 0.5 s after the session; t0 was taken 0.05 s before that.
	echo $((t1 - t0 - 50000))
}

n=$(count_samples "$file")
echo "first screen of the report browser on $file ($n samples), 120x40 tmux, $runs runs each:"
: >"$tmp/m"
: >"$tmp/p"
for ((i = 0; i < runs; i++)); do
	first_screen_us "$MPERF" report -i "$file" >>"$tmp/m"
	first_screen_us "$PERF" report -i "$file" >>"$tmp/p"
done
m=$(median_ms 0 <"$tmp/m")
p=$(median_ms 0 <"$tmp/p")
echo "  mperf report: ${m} ms (runs: $(tr '\n' ' ' <"$tmp/m"| sed 's/ $//') us)"
echo "  perf report:  ${p} ms (runs: $(tr '\n' ' ' <"$tmp/p"| sed 's/ $//') us)"
awk -v m="$m" -v p="$p" 'BEGIN { if (m > 0) printf "  perf/mperf: %.1fx\n", p / m }'
