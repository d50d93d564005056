#!/bin/bash
# record --threads with -z and with --overwrite, against perf 6.1: perf
# reads mperf's compressed directory (a zstd stream per data.N) and its
# flight recorder's directory with mperf's samples and mperf's -D; mperf
# reads perf's compressed directory with perf's report and -D.
# Skipped without perf.

. "$(dirname "$0")/lib.sh"

# dump TOOL FILE: -D up to the stats; perf's name of a vdso it extracted is mperf's.
dump () {
	if test "$1" = perf
	then
		"$PERF" report -D -i "$2" 2>/dev/null
	else
		"$MPERF" report -D -i "$2"
	fi | sed -e '/^Aggregated stats:/,$d' -e 's|dso: /tmp/perf-vdso\.so-[A-Za-z0-9]*$|dso: [vdso]|'
}

# same_dump FILE: perf's -D of FILE is mperf's.
same_dump () {
	dump perf "$1" >perf.d &&
	dump mperf "$1" >mperf.d &&
	grep -q "PERF_RECORD_SAMPLE(" perf.d &&
	{ diff -u perf.d mperf.d >d.diff || { head -n 40 d.diff; exit 1; }; }
}

test_expect_success SETUP 'mperf and perf record --threads -z; mperf --threads --overwrite' '
	"$MPERF" record -q --threads -z -e cpu-clock -F 1000 -a -o mz.data "$CPUSPIN" 0.3 2 &&
	"$MPERF" record -q --threads --overwrite -e cpu-clock -F 1000 -a -o mo.data "$CPUSPIN" 0.3 2 &&
	if have_perf; then
		"$PERF" record --no-bpf-event -q --no-bpf-event --threads -z -e cpu-clock -F 1000 -a -o pz.data \
			"$CPUSPIN" 0.3 2 >/dev/null 2>&1 &&
		test -s pz.data/data
	fi
'

test_expect_success PERF 'perf reads mperf'"'"'s compressed directory: its header, its -D' '
	"$PERF" report --header-only -i mz.data 2>/dev/null >h.out &&
	grep -q "^# compressed : Zstd, level = 1, ratio = [1-9][0-9]*$" h.out &&
	grep -qx "# directory data version : 1" h.out &&
	"$PERF" report --stats -i mz.data 2>/dev/null >s.out &&
	grep -q "COMPRESSED events: *[1-9]" s.out &&
	same_dump mz.data
'

test_expect_success PERF 'mperf reads perf'"'"'s compressed directory: the same report and -D' '
	"$PERF" report --stdio -i pz.data 2>/dev/null | grep -v "^# (Tip:" >perf.r &&
	"$MPERF" report --stdio -i pz.data | grep -v "^# (Tip:" >mperf.r &&
	grep -q "^# Samples: " perf.r &&
	diff -u perf.r mperf.r &&
	same_dump pz.data
'

test_expect_success PERF 'perf reads mperf'"'"'s flight recorder in every data.N: its -D' '
	same_dump mo.data &&
	test "$(grep -c "^0x[0-9a-f]*@mo\.data/data\.[0-9]* \[0x[0-9a-f]*\]: event: 9$" perf.d)" = \
	     "$(grep -c "PERF_RECORD_SAMPLE(" perf.d)"
'

test_done
