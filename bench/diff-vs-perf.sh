#!/bin/bash
# Wall time and peak RSS of `mperf diff` against `perf diff` on the same two
# files of about 100k samples each (the two builds of tests/workloads/shares.c,
# cpu-clock every 50 us), one run each, side by side, in one run of this
# script; prints perf/mperf, and how many lines of the two outputs differ (0
# is the goal).  The files are recorded by perf unless they exist already.
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/diff-vs-perf.sh [-s SAMPLES] [-d DIR]

	    -s, --samples N   samples per file to aim for when recording (default: 100000)
	    -d, --dir DIR     where the files are, recorded by perf first if missing
	                      (default: \${TMPDIR:-/tmp}/mperf-bench-diff)
	EOF
	exit 129
}

tmpbase=${TMPDIR:-/tmp}
target=100000
dir=$tmpbase/mperf-bench-diff
while test $# -gt 0; do
	case $1 in
	-s|--samples) test $# -ge 2 || usage; target=$2; shift 2 ;;
	-d|--dir) test $# -ge 2 || usage; dir=$2; shift 2 ;;
	*) usage ;;
	esac
done
case $target in ''|*[!0-9]*|0) usage ;; esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."
test -x ./mperf && test -x build/workloads/old/shares && test -x build/workloads/new/shares || make >&2
MPERF=$PWD/mperf
PERF=${PERF:-perf}
if ! command -v "$PERF" >/dev/null 2>&1 || ! "$PERF" --version >/dev/null 2>&1; then
	echo "perf is not installed: nothing to compare with" >&2
	exit 0
fi
test -x /usr/bin/time || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }

tmp=$(mktemp -d "$tmpbase/mperf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir"

# One sample per 50 us of the workload's CPU time: target / 20000 seconds.
secs=$(awk -v t="$target" 'BEGIN { printf "%.2f", t / 20000 }')
for which in old new; do
	test -s "$dir/$which.data" && continue
	echo "recording $dir/$which.data: shares ($which) $secs s of CPU" >&2
	"$PERF" record -q -e cpu-clock -c 50000 -o "$dir/$which.data" "build/workloads/$which/shares" "$secs" \
		>/dev/null 2>&1
done

count_samples () {
	"$PERF" report --stats -i "$1" 2>/dev/null |
		awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }'
}

old=$dir/old.data new=$dir/new.data
# One untimed run of each: the page cache, and kallsyms warm for both.
"$MPERF" diff "$old" "$new" >/dev/null 2>&1
"$PERF" diff "$old" "$new" >/dev/null 2>&1
/usr/bin/time -f "%e %M %U %S" -o "$tmp/m.time" "$MPERF" diff "$old" "$new" >"$tmp/m.out" 2>/dev/null
/usr/bin/time -f "%e %M %U %S" -o "$tmp/p.time" "$PERF" diff "$old" "$new" >"$tmp/p.out" 2>/dev/null
/usr/bin/time -f "%e %M %U %S" -o "$tmp/mj.time" "$MPERF" diff --json "$old" "$new" >/dev/null 2>&1
read -r ms mk mu msy <"$tmp/m.time"
read -r ps pk pu psy <"$tmp/p.time"
read -r js jk ju jsy <"$tmp/mj.time"
cpu () { awk -v u="$1" -v s="$2" 'BEGIN { printf "%.2f", u + s }'; }
lines=$(wc -l <"$tmp/p.out")
differ=$(diff "$tmp/p.out" "$tmp/m.out" | grep -c '^>' || true)
echo "diff $old ($(count_samples "$old") samples) $new ($(count_samples "$new") samples), $lines lines, one run each:"
printf '  mperf diff         %8s s  (CPU %s s)   peak RSS %8s KB\n' "$ms" "$(cpu "$mu" "$msy")" "$mk"
printf '  mperf diff --json  %8s s  (CPU %s s)   peak RSS %8s KB\n' "$js" "$(cpu "$ju" "$jsy")" "$jk"
printf '  perf diff          %8s s  (CPU %s s)   peak RSS %8s KB\n' "$ps" "$(cpu "$pu" "$psy")" "$pk"
awk -v p="$ps" -v m="$ms" 'BEGIN { printf "  perf/mperf: %.1fx wall", (m > 0) ? p / m : 0 }'
awk -v p="$(cpu "$pu" "$psy")" -v m="$(cpu "$mu" "$msy")" 'BEGIN { printf ", %.1fx CPU\n", (m > 0) ? p / m : 0 }'
echo "  lines that differ: $differ"
