#!/bin/bash
# Wall time and peak RSS of the report of a --call-graph dwarf file, mperf
# against perf, one run each, side by side: perf record --call-graph dwarf
# of callpaths-nofp (no frame pointers) burning SECS of CPU in a thread per
# CPU, about 4000 samples per CPU second of 8 KB of stack each.  One
# process: perf's libunwind often stops at __libc_start_call_main in
# processes a shell forked, which would spare it most of the work.  perf unwinds
# with libunwind and a new unwinding session per sample; mperf with
# libdw, one session per process.  Prints both, the ratios perf/mperf,
# and whether the outputs are the same (but for perf's tip line).
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/dwarf-vs-perf.sh [-t SECS] [-f FILE] [-- REPORT-OPTIONS]

	    -t, --time SECS  CPU seconds of callpaths-nofp when recording
	                     (default: 12.5, about 50k samples)
	    -f, --file FILE  the dwarf file, recorded first if missing
	                     (default: \${TMPDIR:-/tmp}/mperf-bench-dwarf.perf.data)
	EOF
	exit 129
}

tmpbase=${TMPDIR:-/tmp}
secs=12.5
file=$tmpbase/mperf-bench-dwarf.perf.data
while test $# -gt 0; do
	case $1 in
	-t|--time) test $# -ge 2 || usage; secs=$2; shift 2 ;;
	-f|--file) test $# -ge 2 || usage; file=$2; shift 2 ;;
	--) shift; break ;;
	*) usage ;;
	esac
done

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init callpaths-nofp
WORK=$PWD/build/workloads/callpaths-nofp
if test -z "$have_perf"; then
	echo "perf is not installed: nothing to compare with" >&2
	exit 0
fi
if test -z "$have_time"; then
	echo "/usr/bin/time (GNU time) is needed for the peak RSS" >&2
	exit 0
fi

if ! test -s "$file"; then
	echo "recording $file: perf record --call-graph dwarf, callpaths-nofp $secs s in $(nproc) threads" >&2
	"$PERF" record -q --call-graph dwarf -m 1024 -e cpu-clock -o "$file" -- "$WORK" "$secs" "$(nproc)" 2>/dev/null
fi

# run NAME CMD...: one run under GNU time; NAME.out the output; prints wall
# seconds, CPU seconds (user + system) and peak RSS in KB
run () {
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>/dev/null
	tail -n 1 "$tmp/$name.time" | awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }'
}

n=$(count_samples "$file")
echo "report of $file ($n samples, $(du -h "$file" | cut -f1)), one run each:"
# Read once first, so that both tools find the file in the page cache.
cat "$file" >/dev/null
read -r mt mc mr < <(run m "$MPERF" report -i "$file" "$@")
read -r pt pc pr < <(run p "$PERF" report --stdio -i "$file" "$@")
same=differs
cmp -s <(grep -v '^# (Tip:' "$tmp/m.out") <(grep -v '^# (Tip:' "$tmp/p.out") && same=same
printf '                   wall      CPU   peak RSS\n'
printf '  mperf report  %6.2f s %6.2f s %8d KB\n' "$mt" "$mc" "$mr"
printf '  perf report   %6.2f s %6.2f s %8d KB\n' "$pt" "$pc" "$pr"
awk -v mt="$mt" -v pt="$pt" -v mc="$mc" -v pc="$pc" -v mr="$mr" -v pr="$pr" 'BEGIN {
	printf "  perf/mperf    %7.1fx %7.1fx %10.1fx\n", (mt > 0 ? pt / mt : 0), (mc > 0 ? pc / mc : 0), (mr > 0 ? pr / mr : 0) }'
echo "  output        $same"
