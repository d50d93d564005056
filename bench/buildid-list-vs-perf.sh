#!/bin/bash
# Wall time and peak RSS of `mperf buildid-list -H` against `perf
# buildid-list -H` on the same file of about 300k samples, one run each,
# side by side; prints perf/mperf, and whether the two lists are the same
# (perf's temporary vdso name read as [vdso]).  -H reads every record: the
# part of `perf archive` that takes time before tar.
#
# The file is the one bench/script-vs-perf.sh records (perf, cpu-clock and
# task-clock at -F 10000 while noploop spins on every CPU): that script is
# run first when the file is missing.  HOME is a scratch directory, so
# neither tool reads or fills the real ~/.debug.
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/buildid-list-vs-perf.sh [-f FILE]

	    -f, --file FILE   the file (default: \${TMPDIR:-/tmp}/mperf-bench-script.perf.data,
	                      recorded by bench/script-vs-perf.sh when missing)
	EOF
	exit 129
}

tmpbase=${TMPDIR:-/tmp}
file=$tmpbase/mperf-bench-script.perf.data
while test $# -gt 0; do
	case $1 in
	-f|--file) test $# -ge 2 || usage; file=$2; shift 2 ;;
	*) usage ;;
	esac
done

cd "$(dirname "${BASH_SOURCE[0]}")/.."
test -x ./mperf && test -x ./build/workloads/noploop || make >&2
MPERF=$PWD/mperf
PERF=${PERF:-perf}
if ! command -v "$PERF" >/dev/null 2>&1 || ! "$PERF" --version >/dev/null 2>&1; then
	echo "perf is not installed: nothing to compare with" >&2
	exit 0
fi
test -x /usr/bin/time || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }
test -s "$file" || bench/script-vs-perf.sh -f "$file" >/dev/null

tmp=$(mktemp -d "$tmpbase/mperf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
mkdir -p "$HOME"

# One untimed run of each: the page cache warm for both.
"$MPERF" buildid-list -H -i "$file" >/dev/null 2>&1
"$PERF" buildid-list -H -i "$file" >/dev/null 2>&1
/usr/bin/time -f "%e %M" -o "$tmp/m.time" "$MPERF" buildid-list -H -i "$file" >"$tmp/m.out" 2>/dev/null
/usr/bin/time -f "%e %M" -o "$tmp/p.time" "$PERF" buildid-list -H -i "$file" 2>/dev/null |
	sed 's#/tmp/perf-vdso\.so-[A-Za-z0-9]*$#[vdso]#' >"$tmp/p.out"
read -r ms mk <"$tmp/m.time"
read -r ps pk <"$tmp/p.time"
echo "buildid-list -H -i $file ($(du -h "$file" | cut -f1), $(wc -l <"$tmp/p.out") DSOs), one run each:"
printf '  mperf buildid-list -H  %8s s   peak RSS %8s KB\n' "$ms" "$mk"
printf '  perf buildid-list -H   %8s s   peak RSS %8s KB\n' "$ps" "$pk"
awk -v p="$ps" -v m="$ms" 'BEGIN { printf "  perf/mperf: %.1fx\n", (m > 0) ? p / m : 0 }'
if cmp -s "$tmp/p.out" "$tmp/m.out"; then echo "  the same list"; else echo "  the lists differ"; fi
