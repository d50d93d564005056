#!/bin/bash
# Flame graphs of a -g file of about 300k samples, one run each, side by
# side: `mperf report --format=svg` against perf's way to the same picture,
# `perf script | stackcollapse-perf.pl | flamegraph.pl` when those scripts
# are on PATH (else `perf script` alone, the part perf does); and
# `mperf report --format=folded` against perf report's own folded chains
# (--no-children --sort comm -g folded,0,caller,count), and --format=pprof
# for the record.  Prints wall time, peak RSS and perf/mperf; asserts
# nothing.
#
# The file is recorded by perf unless it exists: perf record -g -F 10000
# -e cpu-clock of callpaths burning SECS of CPU on every CPU (10k samples
# per CPU second: 300k in 15 s on 2 CPUs).
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/export-vs-perf.sh [-t SECS] [-f FILE]

	    -t, --time SECS  CPU seconds of callpaths per CPU when recording (default: 15)
	    -f, --file FILE  the -g file, recorded first if missing
	                     (default: \${TMPDIR:-/tmp}/mperf-bench-export.perf.data)
	EOF
	exit 129
}

tmpbase=${TMPDIR:-/tmp}
secs=15
file=$tmpbase/mperf-bench-export.perf.data
while test $# -gt 0; do
	case $1 in
	-t|--time) test $# -ge 2 || usage; secs=$2; shift 2 ;;
	-f|--file) test $# -ge 2 || usage; file=$2; shift 2 ;;
	*) usage ;;
	esac
done

cd "$(dirname "${BASH_SOURCE[0]}")/.."
test -x ./mperf && test -x ./build/workloads/callpaths || make >&2
MPERF=$PWD/mperf
CALLPATHS=$PWD/build/workloads/callpaths
PERF=${PERF:-perf}
if ! command -v "$PERF" >/dev/null 2>&1 || ! "$PERF" --version >/dev/null 2>&1; then
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
	echo "recording $file: perf record -g -F 10000 -e cpu-clock, $(nproc) x callpaths $secs s" >&2
	"$PERF" record -q -g -F 10000 -e cpu-clock -o "$file" -- sh -c "${loop}wait" 2>/dev/null
fi

# run OUT CMD...: CMD's stdout to OUT; prints "MS KB" (wall ms, peak RSS
# KB when /usr/bin/time is there, else -).
run () {
	local out=$1 t0 t1 kb=-
	shift
	t0=$(date +%s%N)
	if test -x /usr/bin/time; then
		/usr/bin/time -f %M -o "$tmp/rss" "$@" >"$out" 2>/dev/null
		kb=$(tail -n 1 "$tmp/rss")
	else
		"$@" >"$out" 2>/dev/null
	fi
	t1=$(date +%s%N)
	echo "$(( (t1 - t0) / 1000000 )) $kb"
}

ratio () {
	awk -v p="$1" -v m="$2" 'BEGIN { if (m > 0) printf "%.1fx", p / m; else print "-" }'
}

row () {	# row LABEL "MS KB" "MS KB"
	local m=($2) p=($3)
	printf '  %-30s mperf %7s ms %8s KB   perf %7s ms %8s KB   perf/mperf %s\n' \
		"$1" "${m[0]}" "${m[1]}" "${p[0]}" "${p[1]}" "$(ratio "${p[0]}" "${m[0]}")"
}

n=$("$MPERF" report --stats -i "$file" 2>/dev/null | awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }')
echo "exports of $file ($n samples, $(du -h "$file" | cut -f1)), one run each:"

m=$(run "$tmp/m.svg" "$MPERF" report -i "$file" --format=svg)
if command -v stackcollapse-perf.pl >/dev/null 2>&1 && command -v flamegraph.pl >/dev/null 2>&1; then
	p=$(run "$tmp/p.svg" sh -c '"$0" script -i "$1" | stackcollapse-perf.pl | flamegraph.pl' "$PERF" "$file")
	row "svg: script|collapse|flamegraph" "$m" "$p"
else
	p=$(run "$tmp/p.txt" "$PERF" script -i "$file")
	row "svg: perf script alone" "$m" "$p"
	echo "  (stackcollapse-perf.pl and flamegraph.pl are not on PATH: perf's side is perf script only)"
fi
m=$(run "$tmp/m.folded" "$MPERF" report -i "$file" --format=folded)
p=$(run "$tmp/p.folded" "$PERF" report --stdio -i "$file" --no-children --sort comm -g folded,0,caller,count)
row "folded: report -g folded,0" "$m" "$p"
m=$(run "$tmp/m.pb.gz" "$MPERF" report -i "$file" --format=pprof)
printf '  %-30s mperf %7s ms %8s KB   (%s bytes)\n' "pprof" ${m} "$(wc -c <"$tmp/m.pb.gz")"
printf '  svg %s bytes, folded %s lines\n' "$(wc -c <"$tmp/m.svg")" "$(grep -vc '^#' "$tmp/m.folded")"
