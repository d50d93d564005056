#!/usr/bin/env bash
# report's options beyond the keys and filters: -T/--threads (perf's
# per-thread READ counts), ... each as perf report --stdio 6.1 prints it,
# line for line, on files recorded here (by perf and by mperf) and on the
# corpus; each one's bad uses are one line and exit 129.
. "$(dirname "$0")/lib.sh"

perf_record () { "$PERF" record -q "$@" >/dev/null 2>&1; }
two_tasks="\"$NOPLOOP\" 0.05; \"$NOPLOOP\" 0.05"

test_expect_success SETUP 'mperf record -s: READ records of two tasks and two events' '
	"$MPERF" record -q -s -e cpu-clock,task-clock -o s.data sh -c "$two_tasks" &&
	"$MPERF" report -D -i s.data | grep -q "PERF_RECORD_READ"
'

test_expect_success '-T: a row per thread, a column per event, the values summed' '
	"$MPERF" report -i s.data -T >t.out &&
	grep -q "^# *PID  *TID  cpu-clock  task-clock\$" t.out &&
	test "$(sed -n "/^# *PID  *TID/,\$p" t.out | grep -c "^  *[0-9][0-9]*  *[0-9][0-9]*  *[0-9][0-9]*  *[0-9][0-9]*\$")" -ge 2 &&
	"$MPERF" report -D -i s.data | sed -n "s/.*PERF_RECORD_READ: [0-9]* [0-9]* task-clock //p" |
		awk "{ s += \$1 } END { print s }" >want &&
	sed -n "/^# *PID  *TID/,\$p" t.out | awk "NR > 1 { s += \$4 } END { print s }" >got &&
	diff -u want got &&
	"$MPERF" report -i s.data --threads -q | tail -n 1 | grep -q "^  *[0-9]"
'

test_expect_success '-T without READ records: the header line alone' '
	"$MPERF" record -q -o n.data "$NOPLOOP" 0.05 &&
	"$MPERF" report -i n.data -T | tail -n 1 >got &&
	echo "# PID  TID" >want &&
	diff -u want got
'

test_expect_success '-T and --json: refused in one line' '
	test_expect_code 129 "$MPERF" report -i s.data -T --json 2>err &&
	test_line_count = 2 err &&
	grep -q "cannot be used with --json" err
'

test_expect_success PERF '-T: as perf, on perf'"'"'s files and mperf'"'"'s' '
	perf_record -s -e cpu-clock,task-clock -o ps.data sh -c "$two_tasks" &&
	perf_record -s -o ps1.data "$NOPLOOP" 0.05 &&
	for f in ps.data ps1.data s.data n.data; do
		same_report $f -T &&
		same_report $f -T --no-children -n &&
		same_report $f --threads --sort pid || { echo $f; cat diff.out mperf.err; exit 1; }
	done &&
	"$PERF" record -q -s -e cpu-clock -o - sh -c "$two_tasks" >pipe.data 2>/dev/null &&
	"$PERF" report --stdio -T -i - <pipe.data 2>/dev/null | report_filter >perf.out &&
	"$MPERF" report -T -i - <pipe.data | report_filter >mperf.out &&
	grep -q "^# *PID  *TID  cpu-clock\$" mperf.out &&
	diff -u perf.out mperf.out
'

test_done
