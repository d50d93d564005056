#!/bin/bash
# record --threads and perf's directory format, against perf 6.1: perf reads
# mperf's directory with the samples of each event that mperf said it
# wrote, and its header says the directory format; mperf reads perf's
# directory with perf's report and perf's -D, record for record.
# Skipped without perf.

. "$(dirname "$0")/lib.sh"

# stats_samples TOOL FILE: "EVENT N" per event, from report --stats.
stats_samples () {
	if test "$1" = perf
	then
		"$PERF" report --stats -i "$2" 2>/dev/null
	else
		"$MPERF" report --stats -i "$2"
	fi | awk '/^Aggregated stats:/ { a = 1; next } a && / stats:$/ { ev = $1; next }
		  a && ev != "" && /SAMPLE events:/ { print ev, $3; ev = "" }'
}

# dump TOOL FILE: -D up to the stats.
dump () {
	if test "$1" = perf
	then
		"$PERF" report -D -i "$2" 2>/dev/null
	else
		"$MPERF" report -D -i "$2"
	fi | sed '/^Aggregated stats:/,$d'
}

test_expect_success SETUP 'mperf and perf record --threads of a busy machine' '
	"$MPERF" record -q --threads -e cpu-clock,task-clock -F 2000 -a -g -o m.data "$CPUSPIN" 0.4 2 &&
	test -d m.data &&
	if have_perf; then
		"$PERF" record --no-bpf-event -q --no-bpf-event --threads -e cpu-clock -F 2000 -a -g -o p.data "$CPUSPIN" 0.4 2 >/dev/null 2>&1 &&
		test -s p.data/data
	fi
'

test_expect_success PERF 'perf reads mperf'"'"'s directory: the samples of each event' '
	stats_samples perf m.data >perf.n &&
	stats_samples mperf m.data >mperf.n &&
	test_line_count = 2 perf.n &&
	diff -u perf.n mperf.n &&
	test "$("$PERF" report -D -i m.data 2>/dev/null | grep -c "PERF_RECORD_SAMPLE(")" = \
	     "$("$MPERF" report -D -i m.data | grep -c "PERF_RECORD_SAMPLE(")" &&
	"$PERF" report --header-only -i m.data 2>/dev/null >h.out &&
	grep -qx "# directory data version : 1" h.out &&
	"$PERF" evlist -i m.data 2>/dev/null >ev.out &&
	grep -qx "cpu-clock" ev.out && grep -qx "task-clock" ev.out
'

test_expect_success PERF 'perf'"'"'s -D of mperf'"'"'s directory is mperf'"'"'s' '
	dump perf m.data >perf.d &&
	dump mperf m.data >mperf.d &&
	{ diff -u perf.d mperf.d >d.diff || { head -n 40 d.diff; exit 1; }; }
'

test_expect_success PERF 'mperf reads perf'"'"'s directory: the same report and -D' '
	"$PERF" report --stdio -i p.data 2>/dev/null | grep -v "^# (Tip:" >perf.r &&
	"$MPERF" report --stdio -i p.data | grep -v "^# (Tip:" >mperf.r &&
	grep -q "^# Samples: " perf.r &&
	diff -u perf.r mperf.r &&
	dump perf p.data >perf.d &&
	dump mperf p.data >mperf.d &&
	grep -q "@p\.data/data\.[0-9]* \[" perf.d &&
	{ diff -u perf.d mperf.d >d.diff || { head -n 40 d.diff; exit 1; }; } &&
	"$PERF" report --header-only -i p.data 2>/dev/null >perf.h &&
	"$MPERF" report --header-only -i p.data >mperf.h &&
	diff -u perf.h mperf.h
'

test_done
