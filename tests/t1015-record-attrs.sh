#!/bin/bash
# perf record's attr options (-k, --sample-cpu, -R, --all-user,
# --all-kernel), set as perf 6.1 sets them: perf evlist -v of mperf's file
# and of perf's of the same command print the same attrs.
# -k/--clockid also writes the CLOCKID and CLOCK_DATA features perf writes,
# and the samples' times come from that clock.  --timestamp-filename
# renames the finished file as perf does.

. "$(dirname "$0")/lib.sh"

# same_attrs ARGS...: record `ARGS -- true` with both, with --no-bpf-event
# (perf otherwise waits about a second for its side-band thread as it
# ends; that bit is compared once, below); perf evlist -v of the two files
# agree.  same_attrs_as_given: without it.
same_attrs () { same_attrs_as_given --no-bpf-event "$@"; }
same_attrs_as_given () {
	"$PERF" record -q -o p.data "$@" -- true >/dev/null 2>&1 &&
	"$MPERF" record -q -o m.data "$@" -- true >/dev/null 2>&1 &&
	"$PERF" evlist -v -i p.data 2>/dev/null | sed "s/^cpu-clock:ppp:/cycles:P:/" >perf.attrs &&
	"$PERF" evlist -v -i m.data 2>/dev/null | sed "s/^cpu-clock:ppp:/cycles:P:/" >mperf.attrs &&
	test -s perf.attrs &&
	diff -u perf.attrs mperf.attrs
}

test_expect_success PERF '-k: the attrs of perf'"'"'s, for each clock name and alias' '
	for c in monotonic monotonic_raw realtime boottime tai mono raw real boot CLOCK_MONOTONIC 7; do
		same_attrs -k "$c" || { echo "# -k $c"; exit 1; }
	done &&
	grep -q "use_clockid: 1" mperf.attrs && grep -q "clockid: 7" mperf.attrs
'

test_expect_success PERF '-k on -a: every event, the tracking dummy too' '
	same_attrs -a -k boottime &&
	test "$(grep -c "use_clockid: 1.*clockid: 7" mperf.attrs)" = 2
'

test_expect_success PERF '--no-bpf-event: the attrs of perf'"'"'s, alone and on -a (its tracking dummy)' '
	same_attrs_as_given --no-bpf-event &&
	grep -q "ksymbol: 1" mperf.attrs && ! grep -q "bpf_event" mperf.attrs &&
	same_attrs_as_given -a --no-bpf-event &&
	test "$(grep -c "ksymbol: 1" mperf.attrs)" = 1 && ! grep -q "bpf_event" mperf.attrs &&
	same_attrs_as_given -a &&
	grep -q "bpf_event: 1" mperf.attrs
'

test_expect_success SETUP '-k: the CLOCKID and CLOCK_DATA features; neither without it' '
	"$MPERF" record -q -k realtime -o m.data -- true &&
	"$MPERF" report --header-only -i m.data >hdr &&
	grep -q "^# clockid frequency: [0-9]* MHz$" hdr &&
	grep -q "^# clockid: realtime (0)$" hdr &&
	grep -q "^# reference time: .* (TOD) = [0-9]*\.[0-9]* (realtime)$" hdr &&
	"$MPERF" record -q -o n.data -- true &&
	"$MPERF" report --header-only -i n.data >nhdr &&
	grep "^# missing features: .* CLOCKID .* CLOCK_DATA " nhdr &&
	! grep "clockid\|reference time" nhdr
'

test_expect_success PERF '-k: perf reads the features as mperf does, and its own file has the same' '
	"$PERF" report --header-only -i m.data 2>/dev/null | grep -E "^# (clockid|reference time|missing)" >perf.hdr &&
	grep -E "^# (clockid|reference time|missing)" hdr >mperf.hdr &&
	test_line_count = 4 perf.hdr &&
	diff -u perf.hdr mperf.hdr &&
	"$PERF" record -q -k realtime -o p.data -- true >/dev/null 2>&1 &&
	"$PERF" report --header-only -i p.data 2>/dev/null | grep "^# missing features" >p.missing &&
	grep "^# missing features" hdr | diff -u p.missing -
'

test_expect_success '-k realtime: the samples'"'"' times are the time of day' '
	before=$(date +%s) &&
	"$MPERF" record -q -k realtime -e cpu-clock -o m.data -- "$NOPLOOP" 0.3 &&
	after=$(date +%s) &&
	"$MPERF" script -F time -i m.data | tr -d ": " >times &&
	test "$(wc -l <times)" -gt 0 &&
	awk -v lo="$before" -v hi="$((after + 1))" "\$1 < lo || \$1 > hi { print \"# out of range: \" \$1; bad = 1 } END { exit bad }" times
'

test_expect_success '-k: an unknown clock, or -k twice, is a usage error' '
	test_expect_code 129 "$MPERF" record -k sundial -o x.data -- true 2>e1 &&
	grep -q "unknown clockid .sundial. for -k/--clockid" e1 &&
	test_expect_code 129 "$MPERF" record -k mono --clockid=raw -o x.data -- true 2>e2 &&
	grep -q "given twice" e2 &&
	! test -e x.data
'

test_expect_success PERF '--sample-cpu, -R: the attrs of perf'"'"'s, alone, per thread, on -a' '
	for o in --sample-cpu -R "--sample-cpu --per-thread" "-R --per-thread" "-R -a" "-R -e cpu-clock,task-clock"; do
		same_attrs $o || { echo "# $o"; exit 1; }
	done &&
	test "$(grep -c "sample_type: IP|TID|TIME|ID|CPU|PERIOD|RAW," mperf.attrs)" = 2
'

test_expect_success PERF '--all-user, --all-kernel: the attrs of perf'"'"'s, over modifiers, on -a, in a group' '
	for o in --all-user --all-kernel "--all-user -e cpu-clock:k" "--all-kernel -e cpu-clock:u" \
		 "--all-kernel -a" "--all-user -a" "--all-user -e {cpu-clock,task-clock}:S"; do
		same_attrs $o || { echo "# $o"; exit 1; }
	done &&
	test "$(grep -c "exclude_kernel: 1" mperf.attrs)" = 2 &&
	! grep "exclude_user: 1" mperf.attrs
'

test_expect_success '--sample-cpu, -R: every sample says its CPU; report reads the raw data' '
	"$MPERF" record -q --sample-cpu -R -e cpu-clock -o m.data -- "$NOPLOOP" 0.2 &&
	"$MPERF" script -F cpu -i m.data >cpus &&
	test "$(wc -l <cpus)" -gt 0 &&
	! grep -v "^\[[0-9][0-9]*\]" cpus &&
	"$MPERF" report --stdio -i m.data >r &&
	grep -q " noploop " r
'

test_expect_success '--all-kernel: kernel samples only; --all-user with it is a usage error' '
	"$MPERF" record -q --all-kernel -e cpu-clock -o k.data -- "$NOPLOOP" 0.2 &&
	"$MPERF" report --stdio --sort dso -i k.data | grep "%" >dsos &&
	test "$(wc -l <dsos)" -gt 0 &&
	! grep -v "\[kernel" dsos &&
	test_expect_code 129 "$MPERF" record --all-user --all-kernel -o x.data -- true 2>e &&
	grep -q "^mperf record: --all-user and --all-kernel cannot be used together$" e &&
	! test -e x.data
'

test_expect_success '--timestamp-filename: the finished file renamed, said as perf says it' '
	"$MPERF" record --timestamp-filename -e cpu-clock -o t.data -- true 2>err &&
	! test -e t.data &&
	ls t.data.* >names &&
	test_line_count = 1 names &&
	name=$(cat names) &&
	echo "$name" | grep -q "^t\.data\.[0-9]\{16\}$" &&
	grep -q "^\[ mperf record: Dump $name \]$" err &&
	grep -q "^\[ mperf record: Captured and wrote .* t\.data\.<timestamp> (" err &&
	"$MPERF" report --stdio -i "$name" >/dev/null &&
	test_expect_code 129 "$MPERF" record --timestamp-filename -o - -- true >/dev/null 2>e &&
	grep -q "not with -o -" e
'

test_done
