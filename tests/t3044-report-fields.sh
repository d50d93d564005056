#!/usr/bin/env bash
# report -F/--fields: perf 6.1's output fields (its value columns and the
# sort keys), alone, added to the default (+), and mixed with --sort, -n
# and the filters' elision; and --hierarchy, perf's tree of the keys: as
# perf report --stdio prints them, line for line (headers, widths, order,
# chains), on files recorded here by perf (flat and -g) and on the
# corpus; what they do not take refused in one line.
. "$(dirname "$0")/lib.sh"

test_expect_success PERF 'files recorded by perf: flat and -g' '
	perf_files 0.2
'

# A file without chains: the fields alone (one entry per key), their
# order, the value columns perf has, Children's N/A; + after the default.
# (perf report reads kallsyms each time: few runs of it here.)
test_expect_success PERF '-F on a flat file: value columns and keys, as perf' '
	same_report f.data -F overhead,sample,period,comm &&
	grep -q "^# Overhead       Samples        Period  Command\$" mperf.out &&
	same_report f.data -F overhead_sys,overhead_us,overhead_children,dso &&
	grep -q "^#      sys       usr  Children  Shared Object *\$" mperf.out &&
	grep -q "^ *[0-9.]*% *[0-9.]*%  *N/A  " mperf.out &&
	same_report f.data -F +period &&
	grep -q "^# Overhead        Period  Command  Shared Object  *Symbol *\$" mperf.out
'

# The Children view: Overhead is Self only beside the default Children;
# chains as perf prints them under -F (no first frame elided); the --sort
# keys shown after the fields, the fields compared after them; elision.
test_expect_success PERF '-F with chains, --sort and a filter, as perf' '
	same_report g.data -F overhead,sym &&
	grep -q "^# Overhead  Symbol *\$" mperf.out &&
	same_report g.data -F +sample -g caller &&
	grep -q "^# Children      Self       Samples  Command" mperf.out &&
	same_report g.data -F sym -s symbol &&
	same_report g.data -F overhead,sym -s comm -g none &&
	grep -q "^# Overhead  Symbol  *Command\$" mperf.out &&
	same_report g.data -F dso,comm --comms cpuspin -g none &&
	grep -q "^# comm: cpuspin\$" mperf.out
'

test_expect_success PERF,CORPUS '-F on the corpus: a group, system-wide, chains' '
	for f in perf.data.group_desc-4.14 perf.data.systemwide.0-3.8 perf.data.callgraph-3.8; do
		for F in overhead,sym +sample,period overhead_sys,overhead_us,overhead_guest_sys,overhead_guest_us,comm,dso \
			 "dso,overhead -n" "o,s -s comm"; do
			"$PERF" report --stdio -i "$CORPUS/$f" -F $F 2>/dev/null | report_filter >perf.out &&
			"$MPERF" report -i "$CORPUS/$f" -F $F 2>/dev/null | report_filter >mperf.out &&
			grep -q "^# Samples" mperf.out &&
			diff -u perf.out mperf.out || exit 1
		done
	done
'

# --sort with perf's value keys: each sorts where it comes and is shown
# after the default columns; Overhead first unless the text names it;
# overhead_children sorts but is not shown on a file without chains.
test_expect_success PERF '--sort with the value keys, as perf' '
	same_report f.data --sort overhead_sys,dso &&
	grep -q "^# Overhead       sys  Shared Object *\$" mperf.out &&
	same_report f.data --sort dso,period,sample -n &&
	same_report f.data --sort overhead_children,comm,dso &&
	grep -q "^# Overhead  Command  Shared Object *\$" mperf.out &&
	same_report g.data --sort sample,sym -F +period &&
	same_report g.data --sort comm,overhead_us,overhead --no-children &&
	same_report g.data --sort period -g caller
'

test_expect_success PERF,CORPUS '--sort with the value keys on the corpus: a group' '
	f=perf.data.group_desc-4.14 &&
	for o in "--sort overhead_sys,sym -n" "--sort overhead_us,pid -F overhead,sym"; do
		"$PERF" report --stdio -i "$CORPUS/$f" $o 2>/dev/null | report_filter >perf.out &&
		"$MPERF" report -i "$CORPUS/$f" $o 2>/dev/null | report_filter >mperf.out &&
		grep -q "^# Samples" mperf.out &&
		diff -u perf.out mperf.out || exit 1
	done
'

# --symbol-filter in the Children view: each entry is kept by its own
# symbol, a frame of a chain whose sample has another too.
test_expect_success PERF '--symbol-filter with chains, as perf' '
	same_report g.data --symbol-filter spin &&
	same_report g.data --symbol-filter get --comms ls
'

# --hierarchy: a level per key, perf's indents, titles and dots, its
# order at each level, chains under the leaves, "no entry" under a node
# whose nodes --percent-limit hides.
test_expect_success PERF '--hierarchy, flat and -g, with -n, --sort, --percent-limit, as perf' '
	same_report f.data --hierarchy -n --sort pid,sym &&
	grep -q "^#    Overhead       Samples  Pid:Command / Symbol\$" mperf.out &&
	same_report g.data --hierarchy &&
	grep -q "^#       Overhead  Command / Shared Object / Symbol\$" mperf.out &&
	grep -q "^          [ 0-9][0-9].[0-9][0-9]%        \[.\] spin\$" mperf.out &&
	same_report g.data --hierarchy --percent-limit 1 --sort comm,dso,symbol -g none &&
	grep -q "^  *no entry >= 1.00%\$" mperf.out
'

# The filters in the tree: a node counts every sample under it; one of
# the filter's key is hidden as its first sample was, another inherits;
# widths from the shown nodes' first samples; relative shares of the
# shown top nodes.
test_expect_success PERF '--hierarchy with the filters, as perf' '
	same_report f.data --hierarchy --dsos cpuspin,libc.so.6 &&
	grep -q "^    [ 0-9][0-9].[0-9][0-9]%        cpuspin\$" mperf.out &&
	same_report f.data --hierarchy --dsos libc.so.6 --sort comm,sym &&
	test "$(grep -c "%" mperf.out)" = 0 &&
	same_report f.data --hierarchy --comms ls --sort dso,comm,sym &&
	same_report g.data --hierarchy --symbols spin,getxattr -n &&
	same_report g.data --hierarchy --percentage relative --comms ls,sh &&
	same_report g.data --hierarchy -x -p "^do_|^sys_" --sort comm,dso &&
	same_report g.data --hierarchy --tid 1 --sort pid,sym
'

test_expect_success PERF,CORPUS '--hierarchy on the corpus: a group, system-wide, chains' '
	for f in perf.data.group_desc-4.14 perf.data.systemwide.0-3.8 perf.data.callgraph-3.8; do
		for o in "" "-n --sort dso,sym" "--show-total-period --comms perf" \
			 "--percentage relative --dsos [kernel.kallsyms],libc-2.19.so --sort sym,dso"; do
			"$PERF" report --stdio -i "$CORPUS/$f" --hierarchy $o 2>/dev/null | report_filter >perf.out &&
			"$MPERF" report -i "$CORPUS/$f" --hierarchy $o 2>/dev/null | report_filter >mperf.out &&
			grep -q "^# Samples" mperf.out &&
			diff -u perf.out mperf.out || exit 1
		done
	done
'

test_expect_success '-F and --hierarchy refused: unknown or no field, +, --json, --tui, filters' '
	"$MPERF" record -q -o m.data "$CPUSPIN" 0.05 &&
	for F in foo + "" ,; do
		test_expect_code 129 "$MPERF" report -i m.data -F "$F" >out 2>err &&
		test_must_be_empty out &&
		test "$(grep -c "^mperf report: " err)" = 1 || exit 1
	done &&
	test_expect_code 129 "$MPERF" report -i m.data -F foo 2>err &&
	grep -q "^mperf report: unknown -F/--fields field .foo. (fields: overhead, overhead_sys," err &&
	test_expect_code 129 "$MPERF" report -i m.data -F sym --json 2>err &&
	grep -q "^mperf report: -F/--fields cannot be used with --json" err &&
	"$MPERF" report -i m.data -F sample,sym >out &&
	grep -q "^# *Samples  Symbol *\$" out &&
	"$MPERF" report -i m.data --hierarchy --comms cpuspin --dsos cpuspin >out &&
	grep -q "^ *[0-9.]*%  *cpuspin *\$" out && grep -q "\[\.\] spin\$" out &&
	"$MPERF" report -i m.data --sort sample >out &&
	grep -q "^# Overhead       Samples\$" out &&
	test "$(grep -c "^ *100.00%  *[0-9][0-9]*\$" out)" = 1 &&
	for o in "-F sym" --tui --json "--symbol-filter x" "--sort sample,comm"; do
		test_expect_code 129 "$MPERF" report -i m.data --hierarchy $o >out 2>err &&
		test_must_be_empty out &&
		test "$(grep -c "^mperf report: " err)" = 1 || exit 1
	done
'

test_done
