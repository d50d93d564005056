#!/usr/bin/env bash
# The header features perf 6.1 record writes, written by mperf record with
# this machine's values: perf report --header-only -I of mperf's file and of
# perf's file of the same command list the same features with the same
# values, up to what differs between two recordings (times, sizes, the tool,
# its command line, ids, free memory); perf's --sort socket,cpu reads the
# CPUs' sockets from mperf's file.  Skipped without perf.
. "$(dirname "$0")/lib.sh"

# What two recordings of one command may differ in.
recording_free () {
	grep -Ev '^# (captured on|data size|feat offset|perf version|cmdline|time of (first|last) sample|sample duration|event) ' |
	sed -E 's/free = [0-9]+ kB/free = N kB/'
}

same_features () {	# ARGS...: record ARGS with both, compare their headers
	"$PERF" record -q -o p.data "$@" >/dev/null 2>&1 &&
	"$MPERF" record -q -o m.data "$@" >/dev/null 2>&1 &&
	"$PERF" report --header-only -I -i p.data 2>/dev/null | recording_free >perf.hdr &&
	"$PERF" report --header-only -I -i m.data 2>/dev/null | recording_free >mperf.hdr &&
	grep -q "^# missing features: " perf.hdr &&
	diff -u perf.hdr mperf.hdr
}

test_expect_success 'mperf writes the machine features this machine has' '
	"$MPERF" record -q -o m.data -- true &&
	"$MPERF" report --header-only -i m.data >hdr &&
	missing=$(grep "^# missing features: " hdr) &&
	for feat in PMU_MAPPINGS SAMPLE_TIME BPF_PROG_INFO BPF_BTF PMU_CAPS; do
		case "$missing " in *" $feat "*) echo "# $feat missing"; exit 1;; esac
	done &&
	if test -r /sys/devices/system/cpu/present && test -r /sys/devices/system/cpu/online; then
		grep -q "^# CPU_TOPOLOGY info available" hdr
	fi &&
	if test -r /sys/devices/system/node/online; then
		grep -q "^# NUMA_TOPOLOGY info available" hdr
	fi
'

test_expect_success PERF 'the same features as perf'"'"'s, of a workload' '
	same_features -- true
'

test_expect_success PERF 'the same features as perf'"'"'s, of -a' '
	same_features -a -- sleep 0.1
'

test_expect_success PERF 'the same features as perf'"'"'s, of three events' '
	same_features -e cycles,cycles,cycles -- true
'

test_expect_success PERF 'the same features as perf'"'"'s, in a stream (no CACHE, SAMPLE_TIME zero, the end mark)' '
	"$PERF" record -q -o - -- true 2>/dev/null >p.pipe &&
	"$MPERF" record -q -o - -- true 2>/dev/null >m.pipe &&
	"$PERF" report --header-only -I -i - <p.pipe 2>/dev/null | recording_free >perf.hdr &&
	"$PERF" report --header-only -I -i - <m.pipe 2>/dev/null | recording_free >mperf.hdr &&
	diff -u perf.hdr mperf.hdr &&
	"$MPERF" report --header-only -i - <m.pipe >mperf.out &&
	"$PERF" report --header-only -i - <m.pipe >perf.out 2>/dev/null &&
	diff -u perf.out mperf.out &&
	"$PERF" report -D -i - <p.pipe 2>/dev/null | grep -a -c ": PERF_RECORD_FEATURE$" >perf.n &&
	"$PERF" report -D -i - <m.pipe 2>/dev/null | grep -a -c ": PERF_RECORD_FEATURE$" >mperf.n &&
	diff -u perf.n mperf.n && test "$(cat mperf.n)" -gt 10
'

test_expect_success PERF 'mperf report --header-only, and with -I, prints the new features as perf does' '
	"$MPERF" record -q -o m.data -a -- sleep 0.1 &&
	"$PERF" record -q -o p.data -a -- sleep 0.1 &&
	for f in m.data p.data; do
		for opt in "" -I; do
			"$PERF" report --header-only $opt -i $f >perf.out 2>/dev/null &&
			"$MPERF" report --header-only $opt -i $f >mperf.out &&
			diff -u perf.out mperf.out || exit 1
		done
	done &&
	grep -q "^# CPU 0: Core ID " mperf.out
'

test_expect_success PERF 'perf --sort socket,cpu of mperf'"'"'s -a file: each CPU'"'"'s own socket' '
	"$MPERF" record -q -o a.data -a -- "$CPUSPIN" 0.3 &&
	"$PERF" report --stdio --sort socket,cpu -i a.data 2>/dev/null | grep -E "^ +[0-9.]+%" >rows &&
	test -s rows &&
	while read -r pct socket cpu; do
		want=$(cat /sys/devices/system/cpu/cpu$((10#$cpu))/topology/physical_package_id) &&
		test "$((10#$socket))" = "$want" || { echo "# cpu $cpu: socket $socket, sysfs $want"; exit 1; }
	done <rows
'

test_done
