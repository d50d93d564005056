#!/bin/bash
# The CPU time and the peak memory of mperf top against perf top: both
# --stdio, -a at the same rate, started together (the same machine, the
# same load: each samples the other too) and stopped together with SIGINT
# after SECS seconds.  Each one's user+system time is read from
# /proc/PID/stat before the signal, its peak RSS from VmHWM; the load
# average is printed beside.
set -euo pipefail

usage () {
	cat >&2 <<-EOF
	usage: bench/top-vs-perf.sh [-n RUNS] [-s SECS] [-F HZ] [-g]

	    -n, --runs N     rounds (default: 3)
	    -s, --secs SECS  seconds each round (default: 20)
	    -F, --freq HZ    the rate, -F of both (default: 4000)
	    -g               call chains, both
	EOF
	exit 129
}

runs=3
secs=20
freq=4000
g=
while test $# -gt 0; do
	case $1 in
	-n|--runs) test $# -ge 2 || usage; runs=$2; shift 2 ;;
	-s|--secs) test $# -ge 2 || usage; secs=$2; shift 2 ;;
	-F|--freq) test $# -ge 2 || usage; freq=$2; shift 2 ;;
	-g) g=-g; shift ;;
	*) usage ;;
	esac
done
for v in "$runs" "$secs" "$freq"; do
	case $v in ''|*[!0-9]*|0) usage ;; esac
done

# shellcheck source=bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init
if test -z "$have_perf"; then
	echo "perf is not installed: nothing to compare with" >&2
	exit 0
fi
tick=$(getconf CLK_TCK)

# cpu_ms PID: the user and system time of PID so far, in ms.
cpu_ms () { awk -v t="$tick" '{ print int(($14 + $15) * 1000 / t) }' "/proc/$1/stat"; }
# hwm_mb PID: its peak RSS, in MB.
hwm_mb () { awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

printf '%-5s %14s %14s %9s %6s  %s\n' round "mperf CPU-ms" "perf CPU-ms" "mperf/perf" "" "peak RSS mperf, perf (MB); load"
for r in $(seq 1 "$runs"); do
	# shellcheck disable=SC2086
	"$MPERF" top -a -F "$freq" $g --stdio -d 2 </dev/null >/dev/null 2>"$tmp/m.err" &
	m=$!
	# shellcheck disable=SC2086
	"$PERF" top -a -F "$freq" $g --stdio -d 2 </dev/null >/dev/null 2>"$tmp/p.err" &
	p=$!
	sleep "$secs"
	mc=$(cpu_ms $m) pc=$(cpu_ms $p) mh=$(hwm_mb $m) ph=$(hwm_mb $p)
	kill -INT $m $p
	wait $m $p || true
	printf '%-5s %14s %14s %9.2f %6s  %s, %s; %s\n' "$r" "$mc" "$pc" "$(awk -v a="$mc" -v b="$pc" 'BEGIN { print b ? a / b : 0 }')" "" "$mh" "$ph" \
		"$(cut -d' ' -f1-3 /proc/loadavg)"
done
