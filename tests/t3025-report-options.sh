#!/usr/bin/env bash
# report's options beyond the keys and filters: -T/--threads (perf's
# per-thread READ counts), --tasks and --mmaps (its task tree),
# --inline/--no-inline, --ignore-callees, each as perf report --stdio 6.1 prints it,
# line for line, on files recorded here (by perf and by mperf) and on the
# corpus; each one's bad uses are one line and exit 129.
. "$(dirname "$0")/lib.sh"

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

test_expect_success SETUP '-T without READ records: the header line alone' '
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
	"$PERF" record --no-bpf-event -q -s -e cpu-clock -o - sh -c "$two_tasks" >pipe.data 2>/dev/null &&
	"$PERF" report --stdio -T -i - <pipe.data 2>/dev/null | report_filter >perf.out &&
	"$MPERF" report -T -i - <pipe.data | report_filter >mperf.out &&
	grep -q "^# *PID  *TID  cpu-clock\$" mperf.out &&
	diff -u perf.out mperf.out
'

test_expect_success '--tasks: the shell the root, its two children under it' '
	"$MPERF" report -i s.data --tasks >t.out &&
	head -n 1 t.out >got &&
	echo "#      pid      tid     ppid  comm" >want &&
	diff -u want got &&
	grep -q "^         0        0       -1 |swapper\$" t.out &&
	sh_tid=$(sed -n "s/^ *\([0-9]*\) *[0-9]* *-1 |sh\$/\1/p" t.out) &&
	test -n "$sh_tid" &&
	test "$(grep -c "^ *[0-9]* *[0-9]* *$sh_tid | noploop\$" t.out)" = 2
'

test_expect_success '--mmaps: each thread'"'"'s maps under it, by address' '
	"$MPERF" report -i s.data --mmaps >m.out &&
	grep -q "^  *[0-9a-f]*-[0-9a-f]* r-xp [0-9a-f]\{8\} [0-9]* .*/noploop\$" m.out &&
	grep -q "^  *[0-9a-f]*-[0-9a-f]* r-xp 00000000 0 \[vdso\]\$" m.out &&
	grep -v "^ *[0-9a-f]*-[0-9a-f]* " m.out >tree &&
	diff -u t.out tree
'

test_expect_success '--tasks with a view or --json: refused in one line' '
	for o in -D --stats --json -n "--sort pid"; do
		test_expect_code 129 "$MPERF" report -i s.data --tasks $o 2>err &&
		grep -q "cannot be used with" err || exit 1
	done
'

test_expect_success PERF '--tasks and --mmaps: as perf, on files recorded by perf and mperf' '
	perf_record -a -g -o a.data "$NOPLOOP" 0.1 &&
	perf_record --call-graph dwarf -o d.data "$NOPLOOP" 0.05 &&
	perf_record -g -o g.data "$NOPLOOP" 0.05 &&
	"$MPERF" record -q -a -o ma.data "$NOPLOOP" 0.1 &&
	for f in a.data d.data ps.data ma.data s.data; do
		for o in --tasks --mmaps; do
			"$PERF" report -i $f $o 2>/dev/null >perf.out &&
			"$MPERF" report -i $f $o >mperf.out &&
			test -s mperf.out &&
			diff -u perf.out mperf.out >diff.out || { echo "$f $o"; head -n 20 diff.out; exit 1; }
		done || exit 1
	done
'

# perf.data.piped.extrabyte-3.4 ends in a torn record, which perf takes
# for the stream's end: the same tree and table.
test_expect_success PERF,CORPUS '--tasks, --mmaps and -T on the corpus, as perf' '
	for f in perf.data.forkexit-3.8 perf.data.systemwide.0-3.8 perf.data.singleprocess-3.4 \
		 perf.data.piped.target-3.8 perf.data.callgraph_and_branch-3.8 perf.data.branch_stack_hw_index \
		 perf.data.remmap-3.2 perf.data.group_desc-4.14; do
		for o in --tasks --mmaps -T; do
			"$PERF" report --stdio -i "$CORPUS/$f" $o 2>/dev/null | report_filter >perf.out &&
			"$MPERF" report -i "$CORPUS/$f" $o 2>/dev/null | report_filter >mperf.out &&
			test -s mperf.out &&
			diff -u perf.out mperf.out >diff.out || { echo "$f $o"; head -n 20 diff.out; exit 1; }
		done || exit 1
	done
'

test_expect_success SETUP '--no-inline: the dwarf chains without (inlined) frames, the rest the same' '
	"$MPERF" record -q --call-graph dwarf -o dw.data "$NOPLOOP" 0.1 &&
	"$MPERF" report -i dw.data --no-children -g caller >inl.out &&
	"$MPERF" report -i dw.data --no-children -g caller --no-inline >noinl.out &&
	"$MPERF" report -i dw.data --no-children -g caller --inline >inl2.out &&
	diff -u inl.out inl2.out &&
	! grep -q "(inlined)" noinl.out &&
	grep -v "(inlined)" inl.out | grep "^ *[0-9.]*%" >want &&
	grep "^ *[0-9.]*%" noinl.out >got &&
	diff -u want got
'

test_expect_success PERF '--inline and --no-inline: as perf, dwarf and frame pointers' '
	for f in d.data dw.data g.data; do
		for o in --no-inline --inline "--no-inline --no-children" "--no-inline -G"; do
			same_report $f $o || { echo "$f $o"; exit 1; }
		done || exit 1
	done
'

test_expect_success '--ignore-callees: the matching frame takes the sample, callees dropped' '
	"$MPERF" record -q -g -e cpu-clock -o cp.data "$CALLPATHS" 0.3 &&
	"$MPERF" report -i cp.data --no-children --sort sym -q >plain.out &&
	"$MPERF" report -i cp.data --no-children --sort sym -q --ignore-callees "^main\$" >ic.out &&
	grep -q "\] main\$" ic.out &&
	main=$(sed -n "s/^ *\([0-9.]*\)%.*\] main\$/\1/p" ic.out) &&
	awk -v m="$main" "BEGIN { exit !(m > 90) }" &&
	! diff -q plain.out ic.out >/dev/null &&
	test_expect_code 129 "$MPERF" report -i cp.data --ignore-callees "(" 2>err &&
	grep -q "invalid --ignore-callees regex" err
'

test_expect_success PERF '--ignore-callees: as perf, Children and Self, both orders' '
	for f in a.data g.data d.data; do
		for re in "^do_" schedule main; do
			same_report $f --ignore-callees "$re" &&
			same_report $f --ignore-callees "$re" --no-children &&
			same_report $f --ignore-callees "$re" -G || { echo "$f $re"; exit 1; }
		done || exit 1
	done
'

test_done
