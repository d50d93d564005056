#!/bin/bash
# The speed table, mperf against perf in one go: report --stdio of a file
# without call chains and of a -g (frame pointer) file, report -D, record
# -- true and the report of a --call-graph dwarf file, each run alternately
# RUNS times after an untimed run.  Prints for each tool the min and the
# median of the wall time and of the CPU time (user+sys, from the shell's
# `times`: what other work on the machine takes least from), the peak RSS
# of one run (GNU time) and perf/mperf of the medians; the load before and
# after.  The files are the other scripts' (report-vs-perf.sh,
# callgraph-vs-perf.sh, dwarf-vs-perf.sh), recorded by them when missing.
# The recorder's own CPU is record-loss-vs-perf.sh's; inline frames
# inline-vs-perf.sh's.
set -euo pipefail

usage () {
	echo "usage: bench/table-vs-perf.sh [-n RUNS] [-b MPERF]" >&2
	exit 129
}

runs=5
base=
while test $# -gt 0; do
	case $1 in
	-n|--runs) test $# -ge 2 || usage; runs=$2; shift 2 ;;
	-b) test $# -ge 2 || usage; base=$(realpath "$2"); shift 2 ;;
	-h|--help) usage ;;
	*) usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) usage ;; esac

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init
if test -z "$have_perf"; then
	echo "perf is needed: nothing to compare" >&2
	exit 0
fi
t=${TMPDIR:-/tmp}
rfile=$t/mperf-bench-report.perf.data
gfile=$t/mperf-bench-callgraph.perf.data
dfile=$t/mperf-bench-dwarf.perf.data
test -s "$rfile" || bench/report-vs-perf.sh -n 1 >&2
test -s "$gfile" || bench/callgraph-vs-perf.sh -n 1 >&2
test -s "$dfile" || bench/dwarf-vs-perf.sh >&2

# cpu_us FILE: the children's CPU (user+sys) in `times`'s output FILE, in
# microseconds.  `times` runs in this shell, not a subshell (whose children
# would be its own), and nothing runs between a command and its two reads.
cpu_us () {
	tail -n 1 "$1" | awk '{ s = 0
		for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] }
		printf "%d\n", s * 1e6 }'
}

# timed OUT CMD...: one run; appends "wall_us cpu_us" to OUT.
timed () {
	local out=$1 t0 t1
	shift
	times >"$tmp/c0"
	t0=$(now_us)
	"$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
	t1=$(now_us)
	times >"$tmp/c1"
	echo "$((t1 - t0)) $(($(cpu_us "$tmp/c1") - $(cpu_us "$tmp/c0")))" >>"$out"
}

# stats FILE COLUMN: "min median" of the column, in ms.
stats () {
	awk -v c="$2" '{ print $c }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%.1f %.1f\n", v[1] / 1000, m / 1000 }'
}

# row WHAT ARGS...: the command line after the tool's name, "-o F" where
# the tool writes a file (F: the tool's own).
row () {
	local what=$1 tool i w c rss pw pc
	local -a names=(mperf perf) cmds
	shift
	test -z "$base" || names+=(base)
	for tool in "${names[@]}"; do : >"$tmp/$tool.t"; done
	for ((i = 0; i <= runs; i++)); do
		for tool in "${names[@]}"; do
			case $tool in mperf) cmds=("$MPERF") ;; perf) cmds=("$PERF") ;; base) cmds=("$base") ;; esac
			cmds+=("${@//@F@/$tmp/$tool.data}")
			if test "$i" = 0; then
				"${cmds[@]}" >/dev/null 2>&1 || true
			else
				timed "$tmp/$tool.t" "${cmds[@]}"
			fi
		done
	done
	echo "$what ($runs runs each; ms, min and median):"
	for tool in "${names[@]}"; do
		case $tool in mperf) cmds=("$MPERF") ;; perf) cmds=("$PERF") ;; base) cmds=("$base") ;; esac
		cmds+=("${@//@F@/$tmp/$tool.data}")
		read -r w1 w <<<"$(stats "$tmp/$tool.t" 1)"
		read -r c1 c <<<"$(stats "$tmp/$tool.t" 2)"
		rss=$(peak_rss_kb "${cmds[@]}")
		printf '  %-5s wall %8s %8s   cpu %8s %8s   peak RSS %7s KB\n' "$tool" "$w1" "$w" "$c1" "$c" "$rss"
		test "$tool" != mperf || { pw=$w; pc=$c; }
		test "$tool" != perf || echo "  perf/mperf: wall $(ratio "$w" "$pw")x, cpu $(ratio "$c" "$pc")x"
	done
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
row "report --stdio, $(count_samples "$rfile") samples, no call chains" report --stdio -i "$rfile"
row "report --stdio, $(count_samples "$gfile") samples, -g (frame pointers), Children view" report --stdio -i "$gfile"
row "report -D, $(count_samples "$rfile") samples" report -D -i "$rfile"
row "record -q -o F -- true" record -q -o @F@ -- true
row "report --stdio, $(count_samples "$dfile") samples, --call-graph dwarf" report --stdio -i "$dfile"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
