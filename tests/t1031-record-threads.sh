#!/bin/bash
# mperf record --threads[=SPEC]: perf's directory format (OUTPUT/data, then
# OUTPUT/data.N per CPU buffer), the buffers drained by a thread per mask;
# mperf reads it back (report, -D, script, --header) with every sample
# record said it wrote; an old directory becomes OUTPUT.old; what perf
# refuses with --threads is refused in one line.

# (leaks checked in the sanitizer pass too: see tests/lib.sh)
MPERF_TEST_LEAKS=1
. "$(dirname "$0")/lib.sh"

# total FILE: N from "Captured and wrote ... (N samples) ]" of record's stderr.
total () {
	sed -n 's/^\[ mperf record: Captured and wrote .* (\([0-9][0-9]*\) samples) \]$/\1/p' "$1"
}

# TWOCPUS: a mask per CPU can be told from one for both.
have_twocpus () {
	test "$(getconf _NPROCESSORS_ONLN)" -ge 2
}

test_expect_success 'a directory: the header file and a data.N per CPU buffer' '
	"$MPERF" record --threads -F 2000 -e cpu-clock -a -o t.data "$CPUSPIN" 0.5 2 2>t.err &&
	test -d t.data &&
	test -s t.data/data &&
	ls t.data >files &&
	grep -qx "data\.0" files &&
	test "$(grep -c "^data\.[0-9]*$" files)" = "$(getconf _NPROCESSORS_ONLN)" &&
	test "$(grep -vc "^data\(\.[0-9]*\)\?$" files)" = 0 &&
	grep -q "Captured and wrote [0-9.]* MB t\.data (" t.err
'

test_expect_success 'mperf reads it: every sample record said it wrote, in time order' '
	n=$(total t.err) &&
	test "$n" -gt 100 &&
	"$MPERF" report -D -i t.data >d.out &&
	test "$(grep -c "PERF_RECORD_SAMPLE(" d.out)" = "$n" &&
	grep -q "^0@t\.data/data\.[0-9]* \[" d.out &&
	grep -q "^0x[0-9a-f]*@t\.data/data \[" d.out &&
	"$MPERF" script -F time -i t.data | tr -d " :" >times &&
	test_line_count = "$n" times &&
	sort -n times | diff -u - times &&
	"$MPERF" report --stdio -i t.data >r.out &&
	grep -q "^# Samples: [0-9][0-9.]*K* *of event .cpu-clock" r.out
'

test_expect_success 'the header says the directory format, as perf' '
	"$MPERF" report --header-only -i t.data >h.out &&
	grep -qx "# directory data version : 1" h.out &&
	! grep -q "missing features:.* DIR_FORMAT" h.out
'

test_expect_success 'a workload alone: its samples are in the files of the CPUs it ran on' '
	"$MPERF" record --threads=core -F 2000 -e cpu-clock -o w.data "$CPUSPIN" 0.3 2>w.err &&
	n=$(total w.err) &&
	test "$n" -gt 50 &&
	test "$("$MPERF" report -D -i w.data | grep -c "PERF_RECORD_SAMPLE(")" = "$n" &&
	"$MPERF" report --stdio --sort comm -i w.data >w.out &&
	grep -q "cpuspin" w.out
'

test_expect_success 'package, numa and user masks record as cpu does' '
	for s in package numa 0/0; do
		"$MPERF" record -q --threads=$s -F 1000 -e cpu-clock -C 0 -o m.data "$CPUSPIN" 0.1 &&
		test -s m.data/data.0 &&
		"$MPERF" report --stdio -i m.data >m.out &&
		grep -q "^# Samples: [1-9]" m.out || exit 1
	done
'

test_expect_success TWOCPUS 'a CPU buffer in no mask: one line, exit 125, nothing made' '
	test_expect_code 125 "$MPERF" record --threads=0/0 -e cpu-clock -a -o x.data true 2>err &&
	grep -qx "mperf record: --threads: the buffer of CPU 1 is in no mask" err &&
	test_line_count = 1 err &&
	! test -e x.data
'

test_expect_success 'an old directory becomes OUTPUT.old; a file too' '
	"$MPERF" record -q --threads -e cpu-clock -o o.data true &&
	"$MPERF" record -q --threads -e cpu-clock -o o.data true &&
	test -d o.data.old && test -s o.data.old/data &&
	"$MPERF" record -q --threads -e cpu-clock -o o.data true &&
	test -d o.data.old &&
	echo x >f.data &&
	"$MPERF" record -q --threads -e cpu-clock -o f.data true &&
	test -d f.data && test -f f.data.old
'

test_expect_success 'what perf refuses with --threads: one line, exit 129' '
	for o in "-o -" --per-thread --switch-output; do
		test_expect_code 129 "$MPERF" record --threads -o r.data $o true >/dev/null 2>err &&
		grep -q "^mperf record: .*--threads" err || exit 1
	done &&
	test_expect_code 129 "$MPERF" record --threads=bogus true 2>err &&
	grep -q "^mperf record: invalid --threads .bogus." err &&
	test_expect_code 129 "$MPERF" record --threads=0-1 true 2>err &&
	! test -e r.data
'

test_done
