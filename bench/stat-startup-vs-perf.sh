#!/bin/bash
# Wall time of `stat -x, -e task-clock,context-switches,page-faults true`, mperf against
# perf, run alternately in one go; prints the medians and perf/mperf.
# Goal: mperf takes less wall time than perf (a CI job runs stat -r often).
set -euo pipefail

usage () {
	echo "usage: bench/stat-startup-vs-perf.sh [-n RUNS]" >&2
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

mperf_cmd=("$MPERF" stat -x, -e task-clock,context-switches,page-faults true)
perf_cmd=("$PERF" stat -x, -e task-clock,context-switches,page-faults true)
bench_startup "stat -x, -e task-clock,context-switches,page-faults true" "above 1x"
