#!/bin/bash
# Wall time of `record -q -e cycles,cycles,cycles -o FILE true`, mperf against
# perf, run alternately in one go; prints the medians and perf/mperf.
# Goal: mperf takes at least 10x less wall time than perf.
set -euo pipefail

usage () {
	echo "usage: bench/record-startup-vs-perf.sh [-n RUNS]" >&2
	exit 129
}

runs=10
while test $# -gt 0; do
	case $1 in
	-n|--runs) test $# -ge 2 || usage; runs=$2; shift 2 ;;
	-h|--help) usage ;;
	*) usage ;;
	esac
done
case $runs in ''|*[!0-9]*|0) usage ;; esac

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init

mperf_cmd=("$MPERF" record -q -e cycles,cycles,cycles -o "$tmp/m.data" true)
perf_cmd=("$PERF" record -q -e cycles,cycles,cycles -o "$tmp/p.data" true)
# The untimed run warms the page cache, and perf builds its caches in its first.
bench_startup "record -q -e cycles,cycles,cycles true" "at least 10x"
