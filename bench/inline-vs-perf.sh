#!/bin/bash
# Inline frames and source lines on a C++ program with debug info, mperf
# against perf, one run each, side by side: the program (inline-gen.sh:
# 8 units of 256 functions, templates inlined three deep, -O2 -g, frame
# pointers kept) recorded by perf with -g and with --call-graph dwarf;
# then, on each file, report with inline frames, script (which prints
# them) and --sort srcline, and perf's escape, --no-inline, against
# mperf with the inline frames.  perf 6.1 asks addr2line for every
# address, which is where its users wait; mperf reads the DWARF itself.
# Prints wall, CPU and peak RSS of each, the ratios and whether both
# printed the same.  Goals: 20x on each, 4x against perf's --no-inline.
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/inline-vs-perf.sh [-t SECS] [-F FREQ] [-d DIR] [-T TIMEOUT]

	    -t, --time SECS        CPU seconds of the program when recording (default: 1)
	    -F, --freq FREQ        sampling frequency of the recordings (default: 1000)
	    -d, --dir DIR          where the program and the files are made, once
	                           (default: \${TMPDIR:-/tmp}/mperf-bench-inline)
	    -T, --timeout SECS     longest wait for one perf command (default: 900)
	EOF
	exit 129
}

secs=1 freq=1000 limit=900
dir=${TMPDIR:-/tmp}/mperf-bench-inline
while test $# -gt 0; do
	case $1 in
	-t|--time) test $# -ge 2 || usage; secs=$2; shift 2 ;;
	-F|--freq) test $# -ge 2 || usage; freq=$2; shift 2 ;;
	-d|--dir) test $# -ge 2 || usage; dir=$2; shift 2 ;;
	-T|--timeout) test $# -ge 2 || usage; limit=$2; shift 2 ;;
	-h|--help) usage ;;
	*) usage ;;
	esac
done
case $freq$limit in ''|*[!0-9]*) usage ;; esac

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init
if test -z "$have_perf" || test -z "$have_time"; then
	echo "perf and /usr/bin/time (GNU time) are needed: nothing to compare" >&2
	exit 0
fi
command -v "${CXX:-g++}" >/dev/null || { echo "no C++ compiler (${CXX:-g++}): nothing to profile" >&2; exit 0; }

# The program, built once per version of the generator.
build () {
	local stamp o objs=()
	stamp=$(cksum <bench/inline-gen.sh)
	test -x "$dir/prog" && test "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" && return
	echo "building $dir/prog: 8 units of 256 functions, -O2 -g" >&2
	rm -rf "$dir/src"
	bench/inline-gen.sh "$dir/src" 8 256
	for f in "$dir"/src/*.cpp; do
		o=${f%.cpp}.o
		"${CXX:-g++}" -O2 -g -fno-omit-frame-pointer -c "$f" -o "$o"
		objs+=("$o")
	done
	"${CXX:-g++}" -o "$dir/prog" "${objs[@]}"
	rm -f "$dir"/*.data
	echo "$stamp" >"$dir/stamp"
}

# record NAME ARGS...: $dir/NAME.data by perf record ARGS, once.
record () {
	local name=$1
	shift
	test -s "$dir/$name.data" && return
	echo "recording $dir/$name.data: perf record $* -F $freq, $secs s" >&2
	"$PERF" record -q --no-bpf-event "$@" -F "$freq" -o "$dir/$name.data" -- "$dir/prog" "$secs" >/dev/null 2>&1
}

# run NAME CMD...: one run under GNU time (perf's limited to $limit s);
# NAME.out the output; prints wall and CPU seconds and peak RSS in KB.
run () {
	local name=$1
	shift
	if ! timeout "$limit" /usr/bin/time -f '%e %U %S %M' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>/dev/null; then
		echo "$limit 0 0"
		return
	fi
	tail -n 1 "$tmp/$name.time" | awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }'
}

# row LABEL WALL CPU RSS [MWALL MCPU MRSS]: one line of the table, with
# the ratios to mperf's figures when they are given.
row () {
	printf '  %-34s %8.2f s %7.2f s %8d KB' "$1" "$2" "$3" "$4"
	test $# -gt 4 && awk -v w="$2" -v c="$3" -v r="$4" -v mw="$5" -v mc="$6" -v mr="$7" 'BEGIN {
		printf "  %6.1fx %6.1fx %5.1fx", (mw > 0 ? w / mw : 0), (mc > 0 ? c / mc : 0), (mr > 0 ? r / mr : 0) }'
	echo
}

# view FILE LABEL MPERF-ARGS -- PERF-ARGS: mperf CMD, then perf the same
# way and with --no-inline; whether the two printed the same.
view () {
	local file=$1 label=$2 margs=() pargs=() mw mc mr pw pc pr nw nc nr same=differs
	shift 2
	while test "$1" != --; do margs+=("$1"); shift; done
	shift
	pargs=("$@")
	read -r mw mc mr < <(run m "$MPERF" "${margs[@]}" -i "$file")
	read -r pw pc pr < <(run p "$PERF" "${pargs[@]}" -i "$file")
	cmp -s <(grep -v '^# (Tip:' "$tmp/m.out") <(grep -v '^# (Tip:' "$tmp/p.out") && same=same
	echo "$label: mperf ${margs[*]}, perf ${pargs[*]} (output: $same)"
	row "mperf" "$mw" "$mc" "$mr"
	row "perf" "$pw" "$pc" "$pr" "$mw" "$mc" "$mr"
	if test "${pargs[0]}" != report || test "${pargs[*]}" = "${pargs[*]/srcline/}"; then
		read -r nw nc nr < <(run n "$PERF" "${pargs[@]}" --no-inline -i "$file")
		row "perf --no-inline" "$nw" "$nc" "$nr" "$mw" "$mc" "$mr"
	fi
}

build
record fp -g
record dwarf --call-graph dwarf
for f in fp dwarf; do
	file=$dir/$f.data
	cat "$file" >/dev/null
	echo "== $file: $(count_samples "$file") samples, $(du -h "$file" | cut -f1); one run each"
	printf '  %-34s %10s %9s %11s  %7s %7s %6s\n' "" wall CPU "peak RSS" "wall" "CPU" "RSS"
	view "$file" "report, inline frames" report --stdio --inline -- report --stdio --inline
	view "$file" "script" script -- script
	view "$file" "--sort srcline" report --stdio --sort srcline -- report --stdio --sort srcline
done
