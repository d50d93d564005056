#!/bin/bash
# mperf record --max-size: the recording stops once the data reaches the
# size, the file finished and readable, as perf 6.1 stops.  A full disk
# (a 1 MB tmpfs): the file keeps the whole records that fit, finished and
# readable by mperf and perf, said in one line; the exit status is 125.

. "$(dirname "$0")/lib.sh"

# total FILE: N from "Captured and wrote ... (N samples) ]" of record's stderr.
total () {
	sed -n 's/^\[ mperf record: Captured and wrote .* (\([0-9][0-9]*\) samples) \]$/\1/p' "$1"
}

test_expect_success SETUP '--max-size: stops at the size, the workload ended, the file whole' '
	test_expect_code 143 "$MPERF" record -F 4000 -e cpu-clock --max-size=48K -o m.data "$CPUSPIN" 30 2>m.err &&
	grep -q "^\[ mperf record: perf size limit reached ([0-9]* KB), stopping session \]$" m.err &&
	kb=$(sed -n "s/.*limit reached (\([0-9]*\) KB).*/\1/p" m.err) &&
	test "$kb" -ge 48 && test "$kb" -lt 1024 &&
	n=$(total m.err) && test "$n" -gt 0 &&
	"$MPERF" report -D -i m.data >m.dump &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" m.dump)" = "$n"
'

test_expect_success PERF 'perf reads the file: every sample' '
	"$PERF" report --stdio -D -i m.data 2>/dev/null >p.dump &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" p.dump)" = "$(total m.err)"
'

test_expect_success '--max-size: a bad size is a usage error' '
	test_expect_code 129 "$MPERF" record --max-size=12Q true 2>e1 &&
	grep -q "invalid --max-size .12Q." e1 &&
	test_expect_code 129 "$MPERF" record --max-size=0 true
'

test_expect_success TMPFS,SETUP 'a full disk: the whole records that fit, a finished file, one line, 125' '
	test_expect_code 125 "$MPERF" record -F 4000 -e cpu-clock -o tiny/f.data "$CPUSPIN" 60 2>f.err &&
	test_line_count = 1 f.err &&
	grep -q "^mperf record: the disk is full: .tiny/f.data. keeps the first [0-9]* samples (0\.[0-9]* MB), readable$" f.err &&
	n=$(sed -n "s/.* keeps the first \([0-9]*\) samples.*/\1/p" f.err) && test "$n" -gt 1000 &&
	"$MPERF" report -D -i tiny/f.data >f.dump &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" f.dump)" = "$n" &&
	"$MPERF" report -i tiny/f.data >f.rep &&
	grep -q "cpuspin" f.rep
'

test_expect_success TMPFS,PERF 'perf reads the file left on the full disk: every sample said' '
	"$PERF" report --stdio -D -i tiny/f.data 2>/dev/null >pf.dump &&
	n=$(sed -n "s/.* keeps the first \([0-9]*\) samples.*/\1/p" f.err) &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" pf.dump)" = "$n"
'

test_expect_success TMPFS,SETUP 'the tmpfs unmounted' '
	umount "$TRASH_DIRECTORY/tiny"
'

test_done
