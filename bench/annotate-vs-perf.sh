#!/bin/bash
# Wall time and peak RSS of `mperf annotate --stdio` against `perf annotate
# --stdio` (which runs objdump once per symbol) on the same file of about
# 100k samples (tests/workloads/shares.c, cpu-clock every 50 us, as
# bench/diff-vs-perf.sh records it), every symbol with samples, one run
# each, side by side; prints perf/mperf and how many instruction rows with
# samples differ by address and share (0 is the goal).
set -euo pipefail

dir=${1:-${TMPDIR:-/tmp}/mperf-bench-diff}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
test -x ./mperf && test -x build/workloads/new/shares || make >&2
MPERF=$PWD/mperf
PERF=${PERF:-perf}
if ! command -v "$PERF" >/dev/null 2>&1 || ! "$PERF" --version >/dev/null 2>&1; then
	echo "perf is not installed: nothing to compare with" >&2
	exit 0
fi
test -x /usr/bin/time || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mperf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir"
f=$dir/new.data
test -s "$f" || "$PERF" record -q -e cpu-clock -c 50000 -o "$f" build/workloads/new/shares 5 >/dev/null 2>&1

# One untimed run of each: the page cache warm for both.
"$MPERF" annotate --stdio -i "$f" >/dev/null 2>&1
"$PERF" annotate --stdio -i "$f" >/dev/null 2>&1
/usr/bin/time -f "%e %M" -o "$tmp/m.time" "$MPERF" annotate --stdio -i "$f" >"$tmp/m.out" 2>/dev/null
/usr/bin/time -f "%e %M" -o "$tmp/p.time" "$PERF" annotate --stdio -i "$f" >"$tmp/p.out" 2>/dev/null
read -r ms mk <"$tmp/m.time"
read -r ps pk <"$tmp/p.time"
# "address share" of each instruction row with samples
rows () { sed -n 's/^ *\([0-9.]*\) : *\([0-9a-f]*\):.*/\2 \1/p' "$1" | awk '$2 + 0 > 0' | sort; }
differ=$(diff <(rows "$tmp/p.out") <(rows "$tmp/m.out") | grep -c '^[<>]' || true)
echo "annotate --stdio $f, every symbol, one run each:"
printf '  mperf annotate  %8s s   peak RSS %8s KB\n' "$ms" "$mk"
printf '  perf annotate   %8s s   peak RSS %8s KB\n' "$ps" "$pk"
awk -v p="$ps" -v m="$ms" 'BEGIN { printf "  perf/mperf: %.1fx wall\n", (m > 0) ? p / m : 0 }'
echo "  instruction rows with samples that differ (address, share): $differ"
