#!/usr/bin/env bash
# perf's branch view (perf report of a file recorded with -b): mperf report
# against perf report --stdio, whole but for perf's tip line, on files
# synth-samples.py writes with branch stacks between the functions of the
# callpaths workload (this machine has no LBR to record them), in several
# views: the default one, --no-branch-stack, branch sort keys, -n.  The
# seeds give different mixes of flags, so that the keys that only say
# "differs" (mispredict, in_tx, abort) merge branches as perf's trees do.
# Skipped without perf.
. "$(dirname "$0")/lib.sh"

# synth FILE SEED [OPTIONS...]: a file with branch stacks between callpaths' functions.
synth () {
	local f=$1 seed=$2
	shift 2
	synth_branches "$f" "$seed" "$CALLPATHS" "$@"
}

test_expect_success SETUP 'synthesized files with branch stacks' '
	for seed in 1 2 3; do
		synth b$seed.data $seed &&
		synth n$seed.data $seed --no-cycles || exit 1
	done &&
	synth nofeat.data 1 --no-feature
'

test_expect_success PERF 'perf reads them' '
	"$PERF" report --stdio -i b1.data 2>/dev/null | grep -q "^# Overhead  Command  Source Shared Object  Source Symbol "
'

# perf 6.1 crashes on the branches' cycle counts when it shows its IPC
# column (a --sort list that names a symbol key): those views are compared
# on the files without them (n*.data).
test_expect_success PERF 'the default branch view, -n and --percent-limit' '
	for seed in 1 2 3; do
		same_report b$seed.data &&
		same_report n$seed.data &&
		same_report b$seed.data -n &&
		same_report b$seed.data --percent-limit 0.4 &&
		"$PERF" report --stdio -q -i b$seed.data >perf.out 2>/dev/null &&
		"$MPERF" report -q -i b$seed.data >mperf.out &&
		diff -u perf.out mperf.out || exit 1
	done &&
	grep -q "^ *[0-9.]*%  synth    callpaths             \[\.\] [a-z_]* *\[\.\] [a-z_]* *[-0-9] *$" mperf.out
'

test_expect_success PERF '--no-branch-stack: the usual view' '
	for seed in 1 2 3; do
		same_report b$seed.data --no-branch-stack || exit 1
	done &&
	grep -q "^# Overhead  Command  Shared Object  *Symbol" mperf.out
'

test_expect_success PERF '--sort dso_from,dso_to and the flag keys' '
	for seed in 1 2 3; do
		same_report b$seed.data --sort dso_from,dso_to &&
		same_report b$seed.data --sort mispredict,in_tx,abort,cycles &&
		same_report b$seed.data --sort abort,pid,mispredict,dso_to &&
		same_report b$seed.data --sort in_tx,comm,dso_from,mispredict -n || exit 1
	done &&
	grep -q "^# Overhead       Samples  Branch in transaction  Command" mperf.out
'

test_expect_success PERF '--sort symbol_from,symbol_to and the IPC column' '
	for seed in 1 2 3; do
		same_report n$seed.data --sort symbol_from,symbol_to &&
		same_report n$seed.data --sort symbol_from &&
		same_report n$seed.data --sort mispredict,symbol_from &&
		same_report n$seed.data --sort comm,abort,symbol_to,mispredict || exit 1
	done &&
	grep -q "IPC   \[IPC Coverage\]$" mperf.out &&
	grep -q "0\.00  \[  0\.0%\]      $" mperf.out
'

# -F in the branch view: its keys and overhead, sample, period; merged by
# the --sort keys alone; the IPC column compared before the fields.
test_expect_success PERF '-F/--fields in the branch view' '
	for seed in 1 2; do
		same_report n$seed.data -F overhead,symbol_to &&
		same_report b$seed.data -F +sample,mispredict &&
		same_report b$seed.data -F comm,symbol_from,period -n &&
		same_report n$seed.data -F dso_to,symbol_from --sort symbol_from &&
		same_report b$seed.data -F abort,comm,dso_to || exit 1
	done &&
	grep -q "^# Transaction abort  Command  Target Shared Object\$" mperf.out
'

test_expect_success PERF,CORPUS '-F/--fields in the branch view: perf files' '
	f="$CORPUS/perf.data.callgraph_and_branch-3.8" &&
	for o in "comm,pid,symbol_to,mispredict" "+period" "dso_from,symbol_from,overhead --sort dso_to"; do
		"$PERF" report --stdio -i "$f" -F $o 2>/dev/null | report_filter >perf.out &&
		"$MPERF" report -i "$f" -F $o 2>/dev/null | report_filter >mperf.out &&
		grep -q "^# Samples" mperf.out &&
		diff -u perf.out mperf.out >/dev/null || exit 1
	done
'

test_expect_success PERF '-b: without the feature, and from a pipe-mode stream' '
	same_report nofeat.data &&
	grep -q "^# Overhead  Command  Shared Object  *Symbol" mperf.out &&
	same_report nofeat.data -b &&
	grep -q "Source Shared Object" mperf.out &&
	"$PERF" inject -i b1.data -o - >b1.pipe 2>/dev/null &&
	"$PERF" report --stdio -i - -b <b1.pipe 2>/dev/null | report_filter >perf.out &&
	"$MPERF" report -i - -b <b1.pipe | report_filter >mperf.out &&
	diff -u perf.out mperf.out &&
	"$PERF" report --stdio -i - <b1.pipe 2>/dev/null | report_filter >perf.out &&
	"$MPERF" report -i - <b1.pipe | report_filter >mperf.out &&
	diff -u perf.out mperf.out
'

test_expect_success PERF '--json: the rows carry both ends of the branch' '
	"$MPERF" report --json -i b1.data >out.json &&
	python3 -c "
import json, sys
d = json.load(open(\"out.json\"))
assert d[\"branch\"] is True and d[\"sort\"] == [\"comm\", \"dso_from\", \"symbol_from\", \"symbol_to\", \"cycles\"]
ev = d[\"events\"][0]
assert ev[\"samples\"] == ev[\"event-count\"] == sum(r[\"period\"] for r in ev[\"rows\"])
r = ev[\"rows\"][0]
for side in (\"from\", \"to\"):
    assert set(r[side]) == {\"dso\", \"level\", \"symbol\", \"address\", \"ip\", \"dso-address\"}, r
assert any(r[\"to\"][\"symbol\"] == \"a\" for r in ev[\"rows\"])
assert any(r[\"from\"][\"dso\"] == \"[unknown]\" and r[\"from\"][\"level\"] == \"H\" for r in ev[\"rows\"])
"
'

test_expect_success 'the keys of one view refused in the other, -b without branch stacks' '
	test_expect_code 129 "$MPERF" report -i b1.data --sort dso >out 2>err &&
	test_line_count = 1 err && grep -q "sort key .dso. is not one of the branch view" err &&
	test_expect_code 129 "$MPERF" report -i b1.data --sort symbol_to,sample >out 2>err &&
	test_line_count = 1 err && grep -q "sort key .sample. is not one of the branch view" err &&
	test_expect_code 129 "$MPERF" report -i b1.data -F overhead,dso >out 2>err &&
	test_line_count = 1 err && grep -q "field .dso. is not the branch view" err &&
	test_expect_code 129 "$MPERF" report -i b1.data --no-branch-stack -F symbol_to >out 2>err &&
	test_line_count = 1 err && grep -q "field .symbol_to. is the branch view" err &&
	"$MPERF" report -i b1.data -F sample,symbol_to >out &&
	grep -q "^#  *Samples  Target Symbol *\$" out &&
	test_expect_code 129 "$MPERF" report -i b1.data --no-branch-stack --sort dso_from 2>err &&
	test_line_count = 1 err && grep -q "sort key .dso_from. is the branch view" err &&
	python3 "$MPERF_ROOT/tests/synth-samples.py" plain.data "$CALLPATHS" 0x555555554000 0x1000 &&
	test_expect_code 129 "$MPERF" report -i plain.data -b 2>err &&
	test_line_count = 1 err && grep -q "has no branch stacks for -b" err &&
	test_expect_code 129 "$MPERF" report -i b1.data --comms synth 2>err &&
	test_line_count = 1 err && grep -q "branch view does not take --comms" err &&
	test_expect_code 129 "$MPERF" report -i b1.data --sort nope 2>err &&
	grep -q "unknown sort key .nope." err
'

test_done
