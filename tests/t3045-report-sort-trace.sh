#!/usr/bin/env bash
# report --sort trace: a tracepoint's fields as its print format has them,
# N/A for other events, as perf report --stdio prints them, line for line,
# on files recorded here by perf (-g and flat) and on the corpus; with
# perf's width rule for the column (an entry's output is made, and widens
# the column, only when perf compares it: a lone sample's is cut to the
# title's width), checked on several recordings.
. "$(dirname "$0")/lib.sh"

work="ls -l /usr/lib >/dev/null; ls / | cat >/dev/null"

test_expect_success PERF,TRACEFS '--sort trace with chains: fields, N/A for the others, as perf' '
	perf_record -o tp.data -g -e sched:sched_switch -e syscalls:sys_enter_write -e cpu-clock sh -c "$work" &&
	same_report tp.data --sort trace &&
	grep -q "  prev_comm=.* ==> next_comm=" mperf.out &&
	grep -q "^ *[0-9.]*%  *[0-9.]*%  N/A\$" mperf.out &&
	same_report tp.data --sort pid,trace &&
	same_report tp.data --sort comm,trace -n --no-children &&
	same_report tp.data --sort trace,sym -g none
'

# A lone exec sample: perf never compares its entry, its width stays the
# title's and its cell is cut to it; the same event in the Children view
# (its chain is compared with it) or with a second sample is whole.
test_expect_success PERF,TRACEFS '--sort trace: perf'"'"'s width rule, on three flat recordings' '
	for i in 1 2 3; do
		perf_record -o fl$i.data -e sched:sched_switch -e syscalls:sys_enter_write \
			-e sched:sched_process_exec -e cpu-clock sh -c "/bin/true; $work" &&
		same_report fl$i.data --sort trace &&
		same_report fl$i.data --sort comm,trace -n || exit 1
	done &&
	perf_record -o one.data -e sched:sched_process_exec -e cpu-clock /bin/true &&
	same_report one.data --sort trace &&
	grep -q "^ *100.00%  filename=/bi\$" mperf.out &&
	grep -q "^# Overhead  Trace output\$" mperf.out
'

test_expect_success PERF,CORPUS '--sort trace on the corpus, both views' '
	for f in perf.data.callgraph-3.8 perf.data.branch-4.14 perf.data.ctx_switch_namespaces-4.14; do
		"$PERF" report --stdio -i "$CORPUS/$f" --sort trace 2>/dev/null | report_filter >perf.out &&
		"$MPERF" report -i "$CORPUS/$f" --sort trace 2>/dev/null | report_filter >mperf.out &&
		diff -u perf.out mperf.out || exit 1
	done
'

test_expect_success '--sort trace --json: the text, null for another event' '
	"$MPERF" record -q -o m.data "$CPUSPIN" 0.05 &&
	"$MPERF" report -i m.data --sort trace --json >t.json &&
	grep -q "\"sort\": \[\"trace\"\]" t.json &&
	grep -q "\"trace\": null" t.json
'

test_done
