#!/usr/bin/env bash
# record under a lowered kernel.perf_event_max_sample_rate.  The setting is
# the whole machine's: these tests run only when asked (MPERF_TEST_SYSCTL=1,
# as .ci/run does, alone, after the suite that runs in parallel), so that no
# test running beside them is throttled too.
. "$(dirname "$0")/lib.sh"

# The kernel throttles an event that samples more per tick than
# kernel.perf_event_max_sample_rate allows: lowered to 1000 for one
# recording (and put back), cpu-clock every 10 us is throttled.  The
# setting is the whole machine's, so that a suite running beside this one
# is not throttled too, this runs only when asked (MPERF_TEST_SYSCTL=1,
# as .ci/run does).
have_sample_rate_sysctl () {
	test "${MPERF_TEST_SYSCTL:-}" = 1 && test -w /proc/sys/kernel/perf_event_max_sample_rate
}

test_expect_success SAMPLE_RATE_SYSCTL 'a kernel limit below 4000 Hz lowers the default rate, as perf does' '
	old=$(cat /proc/sys/kernel/perf_event_max_sample_rate) &&
	echo 1000 >/proc/sys/kernel/perf_event_max_sample_rate &&
	{ "$MPERF" record -e cpu-clock -o low.data "$CPUSPIN" 0.1 2>low.err; rc=$?; } &&
	echo "$old" >/proc/sys/kernel/perf_event_max_sample_rate &&
	cat low.err &&
	test $rc = 0 &&
	grep -q "^info: Lowering default frequency rate from 4000 to 1000\.$" low.err &&
	"$MPERF" report --header-only -i low.data | grep -q "{ sample_period, sample_freq } = 1000, .* freq = 1,"
'

test_expect_success SAMPLE_RATE_SYSCTL 'throttling: the summary names the event and its THROTTLE count, as the stats' '
	old=$(cat /proc/sys/kernel/perf_event_max_sample_rate) &&
	echo 1000 >/proc/sys/kernel/perf_event_max_sample_rate &&
	{ "$MPERF" record -e cpu-clock -c 10000 -o thr.data \
		"$CPUSPIN" 0.1 2>thr.err; rc=$?; } &&
	echo "$old" >/proc/sys/kernel/perf_event_max_sample_rate &&
	test $rc = 0 &&
	cat thr.err &&
	n=$(sed -n "s/^\[ mperf record: event .cpu-clock. was throttled \([0-9]*\) times: .*/\1/p" thr.err) &&
	test "$n" -gt 0 &&
	"$MPERF" report --stats -i thr.data >thr.stats &&
	sed -n "/^cpu-clock stats:/,\$p" thr.stats | grep -q "THROTTLE events: *$n$"
'

test_done
