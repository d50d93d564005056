#!/usr/bin/env bash
# report --sort with perf 6.1's keys of the sample itself: time (and
# --time-quantum), addr, cgroup, cgroup_id, and parent with -p/--parent
# and -x/--exclude-other; each as perf report --stdio prints it, line for
# line, on files recorded here by perf (flat, -g, -a with cgroups and
# namespaces) and on the corpus (the branch view's time and addr too).
. "$(dirname "$0")/lib.sh"

test_expect_success PERF 'files recorded by perf: flat and -g' '
	perf_files 0.1
'

test_expect_success PERF '--sort time, --time-quantum: slices, their order and cells, as perf' '
	same_report f.data --sort time &&
	grep -q "^ *[0-9.]*%  [0-9]*\.[0-9]00000\$" mperf.out &&
	same_report f.data --sort comm,time -n --time-quantum 10ms &&
	same_report g.data --sort time,comm -g none
'

# perf's chain entries take the frame's address mapped out of its map once
# more: a user frame's Children entry is not its sample's Self entry.
test_expect_success PERF '--sort addr: the addresses, Self and Children, as perf' '
	same_report f.data --sort comm,addr -n &&
	grep -q "^ *[0-9.]*%  *[0-9]*  [a-z]* *0xffffffff[0-9a-f]*\$" mperf.out &&
	same_report g.data --sort addr -g none &&
	same_report g.data --sort sym,addr --no-children -g caller
'

test_expect_success PERF 'parent: --sort parent, -p REGEX, -x, as perf' '
	same_report g.data --sort comm,parent -g caller &&
	same_report g.data -p do_syscall -g none --no-children &&
	grep -q "  do_syscall_64 *\$" mperf.out &&
	same_report g.data -p "^__x64_sys_|^ksys_" -x --sort dso -g none &&
	! grep -q "\[other\]" mperf.out &&
	"$MPERF" report -i g.data -x -g none --no-children >x.out &&
	grep -q "^# Overhead  Command  Shared Object  Symbol\$" x.out &&
	! grep -q "^ *[0-9.]*%" x.out
'

test_expect_success PERF 'parent without chains, bad -p and --time-quantum: one line, exit 129' '
	test_expect_code 129 "$MPERF" report -i f.data --sort parent >out 2>err &&
	test_must_be_empty out &&
	grep -q "no call chains for the parent key" err &&
	test_line_count = 1 err &&
	test_expect_code 129 "$MPERF" report -i g.data -p "(" 2>err &&
	grep -q "^mperf report: invalid -p/--parent regex" err &&
	for q in 0 10xs -5 ""; do
		test_expect_code 129 "$MPERF" report -i f.data --sort time --time-quantum "$q" 2>err &&
		grep -q "invalid --time-quantum" err || exit 1
	done
'

test_expect_success PERF '-a with --all-cgroups --namespaces: cgroup and cgroup_id, as perf' '
	if ! perf_record -o cg.data -a -g --all-cgroups --namespaces -e cpu-clock "$CPUSPIN" 0.1; then
		echo "# perf cannot record cgroups here: the cgroup keys on f.data alone" &&
		same_report f.data --sort cgroup,cgroup_id,comm && exit 0
	fi &&
	same_report cg.data --sort cgroup,cgroup_id,comm --no-children &&
	same_report cg.data --sort cgroup_id,cgroup -g none &&
	same_report f.data --sort cgroup,cgroup_id,comm &&
	grep -q "  N/A     0/0x0  " mperf.out
'

test_expect_success PERF,CORPUS 'the corpus: time and addr in both views' '
	for f in perf.data.callgraph-3.8 perf.data.branch-4.14 perf.data.ctx_switch_namespaces-4.14; do
		for s in comm,time addr; do
			"$PERF" report --stdio -i "$CORPUS/$f" --sort $s 2>/dev/null | report_filter >perf.out &&
			"$MPERF" report -i "$CORPUS/$f" --sort $s 2>/dev/null | report_filter >mperf.out &&
			diff -u perf.out mperf.out >/dev/null || { echo "$f --sort $s"; diff -u perf.out mperf.out | head -20; exit 1; }
		done
	done
'

test_expect_success CORPUS '--json: the keys'"'"' fields' '
	"$MPERF" report -i "$CORPUS/perf.data.callgraph-3.8" --sort time,addr,cgroup,cgroup_id,parent --json >k.json 2>/dev/null &&
	python3 -c "
import json
d = json.load(open(\"k.json\"))
e = d[\"events\"][0][\"rows\"][0]
for k in (\"time\", \"addr\", \"cgroup\", \"cgroup-dev\", \"parent\"):
    assert k in e, k
"
'

test_done
