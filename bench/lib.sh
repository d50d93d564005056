# shellcheck shell=bash
# Sourced by the bench/*.sh scripts: what they share to set up and to time
# mperf and perf side by side.  bench_init first, from the script's own
# directory; it leaves the shell at the repository's top.

# bench_init PROGRAM...: build what is missing of mperf and PROGRAM (test
# workloads, in build/workloads), set MPERF, PERF, have_perf (perf runs
# here), have_time (GNU time gives the peak RSS) and tmp, a scratch
# directory removed at exit.
bench_init () {
	local p
	cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
	test -x ./mperf || make >&2
	for p in "$@"; do
		test -x "./build/workloads/$p" || { make >&2; break; }
	done
	MPERF=$PWD/mperf
	PERF=${PERF:-perf}
	have_perf=
	if command -v "$PERF" >/dev/null 2>&1 && "$PERF" --version >/dev/null 2>&1; then
		have_perf=1
	fi
	have_time=
	if test -x /usr/bin/time && /usr/bin/time -f %M true >/dev/null 2>&1; then
		have_time=1
	fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/mperf-bench.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
}

# Microseconds since the epoch; bash 5 has it without a fork.
now_us () {
	if test -n "${EPOCHREALTIME:-}"; then
		local t=${EPOCHREALTIME/[.,]/}
		echo "$t"
	else
		echo $(( $(date +%s%N) / 1000 ))
	fi
}

# time_us CMD [ARGS]: run CMD with its output to /dev/null and print its
# wall time in microseconds; a failing CMD shows its stderr and fails.
time_us () {
	local t0 t1
	t0=$(now_us)
	if ! "$@" >/dev/null 2>"$tmp/err"; then
		echo "failed: $*" >&2
		head -n 5 "$tmp/err" >&2
		return 1
	fi
	t1=$(now_us)
	echo $((t1 - t0))
}

# run_us OUT CMD [ARGS]: the same with CMD's output kept in OUT, to compare.
run_us () {
	local out=$1 t0 t1
	shift
	t0=$(now_us)
	"$@" >"$out" 2>/dev/null
	t1=$(now_us)
	echo $((t1 - t0))
}

# median_ms [DECIMALS]: the median of the microsecond values on stdin, in ms.
median_ms () {
	sort -n | awk -v d="${1:-1}" '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.*f\n", d, m / 1000 }'
}

# peak_rss_kb CMD [ARGS]: the peak RSS of one run of CMD in KB, or "-".
peak_rss_kb () {
	if test -z "$have_time"; then
		echo -
		return
	fi
	/usr/bin/time -f %M -o "$tmp/rss" "$@" >/dev/null 2>/dev/null
	tail -n 1 "$tmp/rss"
}

# count_samples FILE: the SAMPLE total of FILE, read by perf if it is here.
count_samples () {
	if test -n "$have_perf"; then
		"$PERF" report --stats -i "$1" 2>/dev/null |
			awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }'
	else
		"$MPERF" report -D -i "$1" 2>/dev/null |
			awk '/^Aggregated stats:/ { agg = 1 }
			     agg && $1 == "SAMPLE" && $2 == "events:" { print $3; exit }'
	fi
}

# ratio P M: P / M to one decimal (0 when M is 0).
ratio () {
	awk -v p="$1" -v m="$2" 'BEGIN { printf "%.1f", (m > 0) ? p / m : 0 }'
}

# bench_startup WHAT GOAL: time the commands in the arrays mperf_cmd and
# perf_cmd alternately, $runs times each after one untimed run, and print
# the medians and perf/mperf against GOAL.
# shellcheck disable=SC2154  # mperf_cmd, perf_cmd and runs are the caller's
bench_startup () {
	local what=$1 goal=$2 i m p
	"${mperf_cmd[@]}" >/dev/null 2>&1
	test -z "$have_perf" || "${perf_cmd[@]}" >/dev/null 2>&1
	: >"$tmp/m.us"
	: >"$tmp/p.us"
	for ((i = 0; i < runs; i++)); do
		time_us "${mperf_cmd[@]}" >>"$tmp/m.us"
		test -z "$have_perf" || time_us "${perf_cmd[@]}" >>"$tmp/p.us"
	done
	m=$(median_ms 2 <"$tmp/m.us")
	echo "$what, $runs runs each, median wall time:"
	printf '  mperf: %8s ms\n' "$m"
	if test -z "$have_perf"; then
		echo "  perf:  not installed, no comparison"
		return 0
	fi
	p=$(median_ms 2 <"$tmp/p.us")
	printf '  perf:  %8s ms\n' "$p"
	echo "  perf/mperf: $(ratio "$p" "$m")x (goal: $goal)"
}
