#!/usr/bin/env bash
# Without -i, report, script and buildid-list read standard input when it
# is a pipe, as perf does (perf record -o - ./x | mperf script), and
# perf.data otherwise (a regular file on stdin is not a pipe).
. "$(dirname "$0")/lib.sh"

test_expect_success 'a pipe-mode stream, and the same as a file' '
	"$MPERF" record -q -o - "$NOPLOOP" 0.2 >stream.pipe &&
	"$MPERF" record -q -o perf.data "$NOPLOOP" 0.1
'

for cmd in "report" "report --sort dso" "script" "buildid-list"; do
	test_expect_success "$cmd: a pipe on stdin is read as -i - reads it" '
		"$MPERF" '"$cmd"' -i - <stream.pipe >want &&
		cat stream.pipe | "$MPERF" '"$cmd"' >got &&
		test -s want && cmp want got
	'
done

test_expect_success 'mperf record -o - | mperf script: the samples, not perf.data' '
	"$MPERF" record -q -o - "$NOPLOOP" 0.2 | "$MPERF" script >out &&
	grep -q "noploop" out &&
	"$MPERF" script -i perf.data >file.out &&
	! cmp -s out file.out
'

test_expect_success 'a regular file on stdin is not a pipe: perf.data is read' '
	"$MPERF" script <stream.pipe >got &&
	"$MPERF" script -i perf.data >want &&
	cmp want got
'

test_expect_success 'no perf.data and stdin not a pipe: the one-line error' '
	mkdir empty && (cd empty && test_expect_code 125 "$MPERF" report </dev/null 2>../err) &&
	grep -q "perf.data" err && test $(wc -l <err) = 1
'

test_expect_success PERF 'perf record -o - | mperf script and | mperf report: as perf reads it' '
	"$PERF" record --no-bpf-event -q -o - "$NOPLOOP" 0.2 2>/dev/null >perf.pipe &&
	cat perf.pipe | "$PERF" script 2>/dev/null >want.script &&
	cat perf.pipe | "$MPERF" script >got.script &&
	cmp want.script got.script &&
	cat perf.pipe | "$PERF" report --stdio 2>/dev/null | grep -v "^# (Tip:" >want.report &&
	cat perf.pipe | "$MPERF" report | grep -v "^# (Tip:" >got.report &&
	cmp want.report got.report
'

test_done
