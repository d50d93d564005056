#!/usr/bin/env bash
# The branch view's srcline_from, srcline_to, addr_from and addr_to keys,
# -v and --hierarchy there, against perf report --stdio, on files
# synth-samples.py writes with branch stacks between the functions of
# callpaths (no line table: file:0 from its symbol table) and of
# callpaths-nofp (built with -g: real lines), and on the corpus' files
# recorded with LBR.  Files without cycle counts (--no-cycles) where a
# key list names a symbol key: perf 6.1 crashes on them there (t3013).
# Skipped without perf.
. "$(dirname "$0")/lib.sh"

test_expect_success SETUP 'synthesized files with branch stacks' '
	for seed in 1 2; do
		synth_branches b$seed.data $seed "$CALLPATHS" &&
		synth_branches n$seed.data $seed "$CALLPATHS" --no-cycles &&
		synth_branches g$seed.data $seed "$CALLPATHS_NOFP" --no-cycles || exit 1
	done
'

test_expect_success PERF 'addr_from, addr_to: sym+0xoffset or the address, the sample'"'"'s level' '
	for f in b1 n1; do
		same_report $f.data --sort addr_from,addr_to &&
		same_report $f.data --sort addr_to,comm,addr_from -n &&
		same_report $f.data --sort mispredict,addr_to,dso_from || exit 1
	done &&
	same_report n2.data --sort addr_from,symbol_to &&
	grep -q "^ *[0-9.]*%  \[\.\] [a-z_]*+0x4 *\[\.\] [a-z_]*" mperf.out &&
	grep -q "\[\.\] 0x0000000000000040  " mperf.out
'

test_expect_success PERF,CORPUS 'addr_from, addr_to: perf files (kernel, modules, no map)' '
	for f in perf.data.branch_stack_hw_index perf.data.branch-4.14; do
		corpus_report $f --sort addr_from,addr_to >/dev/null &&
		corpus_report $f --sort dso_to,addr_from >/dev/null || exit 1
	done &&
	grep -q "\[k\] " mperf.out
'

test_expect_success PERF 'srcline_from, srcline_to: a line table'"'"'s lines, file:0, dso[addr], ??:0' '
	for f in n1 g1; do
		same_report $f.data --sort srcline_from,srcline_to &&
		same_report $f.data --sort comm,srcline_to -n || exit 1
	done &&
	grep -q "callpaths\.c:[1-9][0-9]* *\$" mperf.out &&
	same_report g1.data --sort srcline_from &&
	grep -q "callpaths-nofp\[40\]" mperf.out &&
	grep -q "^ *[0-9.]*%  ??:0 *\$" mperf.out
'

# perf finds a line only when a comparison needs it: a row that none
# compared by it shows "(null)", and its width does not count.
test_expect_success PERF 'srcline keys after others: perf'"'"'s (null) where no comparison asked' '
	for f in n2 g2; do
		same_report $f.data --sort symbol_from,srcline_to &&
		same_report $f.data --sort mispredict,srcline_from,in_tx &&
		same_report $f.data --sort addr_from,addr_to,srcline_from || exit 1
	done &&
	grep -q "(null)" mperf.out
'

test_expect_success PERF '-F and +KEYS with the new keys' '
	same_report g1.data -F overhead,srcline_from,addr_to &&
	same_report g2.data -F addr_from,sample --sort srcline_to &&
	same_report n1.data -F +srcline_to &&
	same_report b1.data --sort +addr_to &&
	grep -q "Basic Block Cycles  Target Address *\$" mperf.out
'

# -v: the dso keys by long name, each symbol after its end's address in
# its dso and the letter of where its symbols came from; a srcline's
# dso[addr] keeps the short name.
test_expect_success PERF '-v in the branch view' '
	for f in g1; do
		same_report $f.data -v &&
		same_report $f.data -v --sort symbol_from,symbol_to &&
		same_report $f.data -v --sort srcline_from,srcline_to &&
		same_report $f.data -v --sort dso_from,dso_to,addr_to -n || exit 1
	done &&
	same_report b1.data -v &&
	grep -q "^ *[0-9.]*%  synth    /.*/callpaths  *0x[0-9a-f]*  *[!a-zA-Z] \[\.\] " mperf.out
'

test_expect_success PERF,CORPUS '-v in the branch view: perf files (the kernel, unresolved ends)' '
	corpus_report perf.data.branch_stack_spec -v >/dev/null &&
	corpus_report perf.data.branch-4.14 -v >/dev/null &&
	corpus_report perf.data.branch_stack_hw_index -v --sort symbol_to,dso_to >/dev/null &&
	grep -q "0x[0-9a-f]*  *! \[\.\] 0x0000" mperf.out
'

# --hierarchy: a level per key (perf's IPC last where --sort names a
# symbol key), each level's nodes made and ordered as perf's trees do.
# Not with the srcline keys: perf 6.1 prints freed memory there.
test_expect_success PERF '--hierarchy in the branch view' '
	for f in n1; do
		same_report $f.data --hierarchy &&
		same_report $f.data --hierarchy --sort mispredict,dso_to -n &&
		same_report $f.data --hierarchy --sort addr_from,addr_to &&
		same_report $f.data --hierarchy --sort pid,abort,dso_to &&
		same_report $f.data --hierarchy --sort dso_from,symbol_to || exit 1
	done &&
	grep -q "^#  *Overhead  Source Shared Object / Target Symbol / IPC   \[IPC Coverage\]\$" mperf.out &&
	grep -q "^ *[0-9.]*%  *0\.00  \[  0\.0%\]" mperf.out &&
	same_report b1.data --hierarchy --sort mispredict,in_tx,abort,cycles &&
	same_report b2.data --hierarchy -v &&
	same_report b2.data --hierarchy --percent-limit 2 &&
	grep -q "^  *no entry >= 2\.00%\$" mperf.out &&
	"$PERF" report --stdio -q -i n1.data --hierarchy 2>/dev/null >perf.out &&
	"$MPERF" report -q -i n1.data --hierarchy >mperf.out &&
	diff -u perf.out mperf.out
'

test_expect_success PERF,CORPUS '--hierarchy in the branch view: perf files' '
	corpus_report perf.data.branch_stack_spec --hierarchy >/dev/null &&
	corpus_report perf.data.branch_stack_hw_index --hierarchy --sort symbol_to,comm --percent-limit 0.5 >/dev/null &&
	corpus_report perf.data.branch-4.14 --hierarchy --sort mispredict,addr_to >/dev/null
'

# perf's -F takes ipc_null ("-      -" in every row, entries apart by
# symbol: the target's in the branch view); its --sort refuses ipc_null
# and ipc_lbr, and its -F ipc_lbr prints uninitialized memory.
test_expect_success PERF '-F ipc_null in both views' '
	same_report n1.data --no-branch-stack -F overhead,ipc_null &&
	same_report n1.data --no-branch-stack -F i,comm --sort dso &&
	same_report n1.data --no-branch-stack -F +ipc_null &&
	same_report n1.data -F ipc_null,dso_from,overhead &&
	same_report b1.data -F +ipc_null &&
	grep -q "^ *[0-9.]*%  -      -      " mperf.out
'

test_expect_success PERF '--sort ipc_null, ipc_lbr: refused, as by perf' '
	for k in ipc_null ipc_lbr ipc; do
		{ "$PERF" report --stdio -i n1.data --sort $k >perf.out 2>&1 || :; } &&
		! grep -q "^# Samples" perf.out &&
		test_expect_code 129 "$MPERF" report -i n1.data --sort $k 2>err &&
		grep -q "unknown sort key" err || exit 1
	done
'

test_expect_success PYTHON '--json: each end'"'"'s ip, dso-address and, with a srcline key, its line' '
	"$MPERF" report --json -i g1.data --sort srcline_from,addr_to >out.json &&
	python3 -c "
import json
d = json.load(open(\"out.json\"))
assert d[\"sort\"] == [\"srcline_from\", \"addr_to\"], d[\"sort\"]
rows = d[\"events\"][0][\"rows\"]
for r in rows:
    for side in (\"from\", \"to\"):
        s = r[side]
        assert set(s) == {\"dso\", \"level\", \"symbol\", \"address\", \"ip\", \"dso-address\", \"srcline\"}, s
        if s[\"dso\"] == \"[unknown]\":
            assert s[\"srcline\"] == \"??:0\" and s[\"ip\"] == s[\"dso-address\"], s
assert any(r[\"from\"][\"srcline\"].startswith(\"callpaths.c:\") and not r[\"from\"][\"srcline\"].endswith(\":0\") for r in rows)
" &&
	"$MPERF" report --json -i g1.data >out.json &&
	! grep -q srcline out.json
'

test_expect_success 'the new keys are the branch view'"'"'s' '
	test_expect_code 129 "$MPERF" report -i n1.data --no-branch-stack --sort addr_from 2>err &&
	test_line_count = 1 err && grep -q "sort key .addr_from. is the branch view" err &&
	test_expect_code 129 "$MPERF" report -i n1.data --no-branch-stack -F srcline_to 2>err &&
	test_line_count = 1 err && grep -q "field .srcline_to. is the branch view" err
'

test_done
