#!/usr/bin/env bash
# mperf report --format: folded stacks, flame graphs and pprof profiles of
# -g files of the callpaths workload (main -> spin -> a -> b -> leaf, a
# helper shared by a and c, recursion), recorded by perf and by mperf (two
# events), and of a --call-graph dwarf one: the expected paths, counts
# that add up to each event's samples, leaves that agree with report's
# Self view, and the chains perf report prints itself.
. "$(dirname "$0")/lib.sh"

have_python () { command -v python3 >/dev/null 2>&1; }

test_expect_success 'mperf records callpaths with -g, two events; and with --call-graph dwarf' '
	"$MPERF" record -q -e cpu-clock,task-clock -g -o mperf.data "$CALLPATHS" 0.6 &&
	"$MPERF" record -q -e cpu-clock --call-graph dwarf -o dwarf.data "$CALLPATHS_NOFP" 0.3
'

test_expect_success PERF 'perf records callpaths with -g' '
	"$PERF" record -q -e cpu-clock -g -o perf.data "$CALLPATHS" 0.6 2>err &&
	test -s perf.data
'

# files: the recordings made above
files () {
	local f
	for f in mperf.data perf.data dwarf.data; do
		test -s $f && echo $f
	done
	return 0
}

test_expect_success 'folded: one block per event, the paths of callpaths in it' '
	for f in $(files); do
		"$MPERF" report -i $f --format=folded >$f.folded 2>err &&
		test_must_be_empty err &&
		grep "^# event: cpu-clock$" $f.folded &&
		for p in "spin;a;b;leaf" "spin;a;helper;leaf" "spin;c;helper;leaf" "spin;rec;rec;rec;rec;leaf"; do
			grep -q "^callpaths;.*main;$p [0-9]*$" $f.folded ||
			grep -q "^callpaths-nofp;.*main;$p [0-9]*$" $f.folded || { fail "$f: no $p"; exit 1; }
		done
	done &&
	test "$(grep -c "^# event: " mperf.data.folded)" = 2 &&
	grep "^# event: task-clock$" mperf.data.folded
'

test_expect_success 'folded: sorted, one line per path, the same output twice' '
	for f in $(files); do
		grep -v "^#" $f.folded | sed "s/ [0-9]*$//" >paths &&
		awk "/^# event:/ { n++ } !/^#/ { print n \" \" \$0 }" $f.folded | sed "s/ [0-9]*$//" >keyed &&
		LC_ALL=C sort -c keyed &&
		test -z "$(sort keyed | uniq -d)" &&
		"$MPERF" report -i $f --format=folded >again &&
		cmp $f.folded again || exit 1
	done
'

test_expect_success PYTHON 'folded: the counts add up to each event samples, the leaves to report --no-children --sort sym' '
	for f in $(files); do
		"$MPERF" report -i $f --stats --json >$f.stats &&
		"$MPERF" report -i $f --no-children --sort sym --json >$f.sym &&
		python3 - $f <<-\PY || exit 1
		import json, sys
		f = sys.argv[1]
		stats = {e["name"]: e["samples"] for e in json.load(open(f + ".stats"))["events"]}
		syms = {e["name"]: e for e in json.load(open(f + ".sym"))["events"]}
		blocks = {}
		ev = None
		for line in open(f + ".folded"):
		    line = line.rstrip("\n")
		    if line.startswith("# event: "):
		        ev = line[9:]
		        blocks[ev] = []
		        continue
		    stack, n = line.rsplit(" ", 1)
		    blocks[ev].append((stack.split(";"), int(n)))
		assert set(blocks) == {n for n, s in stats.items() if s}, (blocks.keys(), stats)
		for ev, lines in blocks.items():
		    total = sum(n for _, n in lines)
		    assert total == stats[ev] == syms[ev]["samples"], (f, ev, total, stats[ev])
		    leaves = {}
		    for frames, n in lines:
		        leaves[frames[-1]] = leaves.get(frames[-1], 0) + n
		    want = {}
		    for r in syms[ev]["rows"]:
		        name = r["symbol"] if r["symbol"] is not None else "[unknown]"
		        want[name] = want.get(name, 0) + r["samples"]
		    # A dwarf leaf is the innermost of its inline frames, as the chains of report name it,
		    # where Self has the symbol: the leaves are compared for fp chains.
		    if not f.startswith("dwarf"):
		        assert leaves == want, (f, ev, sorted(set(leaves.items()) ^ set(want.items())))
		    # the hot function of callpaths is its leaf
		    assert max(leaves, key=leaves.get) == "leaf", (f, ev, leaves)
		PY
		:
	done
'

# perf's own folded chains: perf report --no-children --sort comm -g
# folded,0,caller,count prints each comm's chains with their counts;
# unresolved frames are addresses there, "[unknown]" in --format=folded.
perf_folded () {
	"$PERF" report --stdio --no-children --sort comm -g folded,0,caller,count -i "$1" 2>/dev/null | awk '
	/^# Samples: / { ev = $NF; gsub(/\x27/, "", ev); next }
	/^#/ || /^$/ { next }
	/^ +[0-9.]+%/ { comm = $2; for (i = 3; i <= NF; i++) comm = comm " " $i; next }
	{ n = $1; $1 = ""; sub(/^ /, ""); k = split($0, fr, ";"); s = comm
	  for (i = 1; i <= k; i++) s = s ";" (fr[i] ~ /^(0|0x[0-9a-f]+)$/ ? "[unknown]" : fr[i])
	  print ev " " s " " n }' | sort
}

test_expect_success PERF 'folded: the chains and counts perf report gives each comm, for perf, mperf and dwarf files' '
	for f in $(files); do
		perf_folded $f >perf.out &&
		awk "/^# event: / { ev = \$3; next } { print ev \" \" \$0 }" $f.folded | sort >mperf.out &&
		test -s perf.out &&
		diff -u perf.out mperf.out >diff.out || { head -n 40 diff.out; exit 1; }
	done
'

test_expect_success 'folded: a file without chains has one frame per sample' '
	"$MPERF" record -q -e cpu-clock -o flat.data "$CALLPATHS" 0.2 &&
	"$MPERF" report -i flat.data --format=folded >flat.folded &&
	grep "^callpaths;leaf [0-9]*$" flat.folded &&
	test -z "$(grep -v "^#" flat.folded | grep ";.*;")" &&
	"$MPERF" report -i flat.data --stats --json >flat.stats &&
	test "$(grep -v "^#" flat.folded | awk "{ s += \$NF } END { print s }")" = \
	     "$(sed -n "s/.*\"name\": \"cpu-clock\".*\"samples\": \([0-9]*\).*/\1/p" flat.stats)"
'

test_expect_success 'folded: a pipe-mode stream gives the file mode lines' '
	"$MPERF" record -q -e cpu-clock -g -o - "$CALLPATHS" 0.2 >p.data &&
	"$MPERF" report -i - --format=folded <p.data >pipe.folded 2>err &&
	test_must_be_empty err &&
	grep -q "spin;a;b;leaf" pipe.folded &&
	"$MPERF" report -i p.data --format=folded >file.folded &&
	cmp pipe.folded file.folded
'

test_expect_success '--format and -o: bad values and conflicts are usage errors' '
	test_expect_code 129 "$MPERF" report -i mperf.data --format=png 2>err &&
	grep "folded, svg, pprof" err && test_line_count = 2 err &&
	for o in -D --json --stdio --stats --header --header-only --check "--sort sym" --no-children -g "--comms x"; do
		test_expect_code 129 "$MPERF" report -i mperf.data --format=folded $o 2>err &&
		grep -- "--format cannot be used with" err || exit 1
	done &&
	test_expect_code 129 "$MPERF" report -i mperf.data -o out.txt 2>err &&
	grep -- "-o/--output goes with --format" err
'

test_expect_success '-o writes the file whole, and leaves nothing behind a failure' '
	"$MPERF" report -i mperf.data --format=folded -o out.folded &&
	cmp out.folded mperf.data.folded &&
	test_expect_code 125 "$MPERF" report -i nosuch.data --format=folded -o bad.folded 2>err &&
	! test -e bad.folded &&
	test -z "$(ls | grep "\.tmp\.")" &&
	head -c 3000 mperf.data >cut.data &&
	test_expect_code 125 "$MPERF" report -i cut.data --format=folded -o cut.folded 2>err &&
	! test -e cut.folded &&
	test -z "$(ls | grep "\.tmp\.")"
'

test_done
