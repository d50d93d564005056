#!/bin/bash
# Wall time (and peak RSS) of `report -D` and of the histogram report
# (`report --stdio`), mperf against perf, run alternately on the same file
# of about 300k samples; prints the medians and perf/mperf.  Goals: mperf
# at least 5x faster for -D, 3x for the histograms, with less memory.
#
# The file is recorded by perf (three cpu-clock events at -c 20000 while
# noploop spins on every CPU) unless it exists already; with -m the same is
# done with a file recorded by mperf, and both files are measured.
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/report-vs-perf.sh [-n RUNS] [-s SAMPLES] [-f PERF_FILE] [-m [MPERF_FILE]]

	    -n, --runs N           timed runs of each tool per file (default: 5)
	    -s, --samples N        samples to aim for when recording (default: 300000)
	    -f, --file FILE        file recorded by perf, recorded first if missing
	                           (default: \${TMPDIR:-/tmp}/mperf-bench-report.perf.data)
	    -m, --mperf-file [FILE]
	                           also measure a file recorded by mperf, recorded first
	                           if missing (default: \${TMPDIR:-/tmp}/mperf-bench-report.mperf.data)
	EOF
	exit 129
}

tmpbase=${TMPDIR:-/tmp}
runs=5
target=300000
perf_file=$tmpbase/mperf-bench-report.perf.data
mperf_file=
while test $# -gt 0; do
	case $1 in
	-n|--runs) test $# -ge 2 || usage; runs=$2; shift 2 ;;
	-s|--samples) test $# -ge 2 || usage; target=$2; shift 2 ;;
	-f|--file) test $# -ge 2 || usage; perf_file=$2; shift 2 ;;
	-m|--mperf-file)
		if test $# -ge 2 && case $2 in -*) false ;; esac; then
			mperf_file=$2
			shift 2
		else
			mperf_file=$tmpbase/mperf-bench-report.mperf.data
			shift
		fi
		;;
	-h|--help) usage ;;
	*) usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) usage ;; esac
case $target in ''|*[!0-9]*|0) usage ;; esac

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init noploop
NOPLOOP=$PWD/build/workloads/noploop

# record FILE TOOL: record TOOL's file of about $target samples.  Three
# cpu-clock events at a 20 us period give 150k samples/s on each busy CPU;
# up to two more runs correct the duration when the VM gives much fewer.
record () {
	local file=$1 tool=$2 ncpu secs n i
	ncpu=$(nproc)
	secs=$(awk -v t="$target" -v c="$ncpu" 'BEGIN { printf "%.2f", t / (150000 * c) }')
	for i in 1 2 3; do
		local loop=""
		for ((c = 0; c < ncpu; c++)); do
			loop="$loop\"$NOPLOOP\" $secs & "
		done
		echo "recording $file with $tool: $ncpu x noploop $secs s" >&2
		"$tool" record -q -e cpu-clock,cpu-clock,cpu-clock -c 20000 \
			-o "$tmp/rec.data" -- sh -c "${loop}wait" 2>/dev/null
		n=$(count_samples "$tmp/rec.data")
		test -n "$n" && test "$n" -gt 0 || {
			echo "cannot count the samples of the $tool recording" >&2
			return 1
		}
		test "$n" -lt $((target * 9 / 10)) || break
		secs=$(awk -v s="$secs" -v t="$target" -v n="$n" 'BEGIN { printf "%.2f", s * t / n }')
	done
	mv "$tmp/rec.data" "$file"
}

# bench FILE ORIGIN WHAT GOAL MPERF_ARG PERF_ARG: time both tools on FILE,
# alternately, as `report MPERF_ARG` and `report PERF_ARG`.
bench () {
	local file=$1 origin=$2 what=$3 goal=$4 marg=$5 parg=$6 n m p mrss prss i
	n=$(count_samples "$file")
	: >"$tmp/m.us"
	: >"$tmp/p.us"
	# Untimed run: page cache, and a first failure shows up here.
	time_us "$MPERF" report $marg -i "$file" >/dev/null
	test -z "$have_perf" || time_us "$PERF" report $parg -i "$file" >/dev/null
	for ((i = 0; i < runs; i++)); do
		time_us "$MPERF" report $marg -i "$file" >>"$tmp/m.us"
		test -z "$have_perf" || time_us "$PERF" report $parg -i "$file" >>"$tmp/p.us"
	done
	m=$(median_ms <"$tmp/m.us")
	mrss=$(peak_rss_kb "$MPERF" report $marg -i "$file")
	echo "$what -i $file ($origin, $n samples, $(du -h "$file" | cut -f1)), $runs runs each:"
	printf '  mperf report %-6s %9s ms median   peak RSS %8s KB\n' "$marg" "$m" "$mrss"
	if test -z "$have_perf"; then
		echo "  perf:  not installed, no comparison"
		return
	fi
	p=$(median_ms <"$tmp/p.us")
	prss=$(peak_rss_kb "$PERF" report $parg -i "$file")
	printf '  perf report  %-6s %9s ms median   peak RSS %8s KB\n' "$parg" "$p" "$prss"
	echo "  perf/mperf: $(ratio "$p" "$m")x (goal: at least ${goal}x)"
}

bench_both () {
	bench "$1" "$2" "report -D" 5 -D -D
	bench "$1" "$2" "histograms" 3 --stdio --stdio
}

if test -n "$have_perf"; then
	test -s "$perf_file" || record "$perf_file" "$PERF"
	bench_both "$perf_file" "recorded by perf"
else
	echo "perf is not installed: no perf file, no comparison" >&2
	test -n "$mperf_file" || mperf_file=$tmpbase/mperf-bench-report.mperf.data
fi
if test -n "$mperf_file"; then
	test -s "$mperf_file" || record "$mperf_file" "$MPERF"
	bench_both "$mperf_file" "recorded by mperf"
fi
