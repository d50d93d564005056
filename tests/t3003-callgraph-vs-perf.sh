#!/usr/bin/env bash
# Call graphs: mperf report against perf report --stdio on -g files of the
# callpaths workload (main -> a -> b -> leaf, a helper shared by a and c,
# recursion), recorded by perf and by mperf: the whole output, byte for
# byte but for perf's tip line, in the default Children view and in the
# other modes and orders.  perf reads mperf's -g file with the same
# chains, and -D agrees on both.  Skipped without perf.
. "$(dirname "$0")/lib.sh"

# Compared through lib.sh's report_filter: all but perf's random tip, and
# the remainder line of fractal mode, which perf 6.1 names with a symbol
# it leaves uninitialised ("[...]", or "[...] (inlined)" as its heap has it).

# The views the tests compare, each a set of report options.  Thresholds
# stay at perf's 0.5% or above: below, chains of a sample or two often
# tie, and perf orders tied siblings of different DSOs by the addresses of
# its DSO objects, which mperf models by the order perf made them in (the
# header's BUILD_ID list, then the mmaps: 'tied chains of two DSOs' below)
# and which its heap could still place otherwise (same_chains compares those).
VIEWS=(
	""
	"--no-children"
	"-G"
	"--no-children -G"
	"-g folded"
	"--no-children -g folded"
	"-g caller"
	"-g callee"
	"--no-children -g caller"
	"-g flat"
	"-g fractal"
	"--no-children -g fractal,0.1,callee"
	"-g graph,2"
	"-g folded,0.5,period"
	"-g count"
	"-g none"
	"--sort sym"
	"--sort dso,sym -g folded"
	"--sort dso"
	"--sort comm,dso"
)

# same_chains FILE [OPTIONS...]: the same chains with the same values,
# in any order among equals (-g folded,0: every chain).
same_chains () {
	local f=$1
	shift
	"$PERF" report --stdio -i "$f" -g folded,0 "$@" 2>/dev/null | report_filter | sort >perf.out &&
	"$MPERF" report -i "$f" -g folded,0 "$@" 2>mperf.err | report_filter | sort >mperf.out &&
	test_must_be_empty mperf.err &&
	grep -q "^[0-9.]*% " mperf.out &&
	diff -u perf.out mperf.out >diff.out || { head -n 40 diff.out; return 1; }
}

all_views () {	# all_views FILE: every view equals perf's
	local v
	for v in "${VIEWS[@]}"; do
		# shellcheck disable=SC2086
		same_report "$1" $v || { echo "# view: $v"; return 1; }
	done
}

test_expect_success PERF 'perf -g file: every view equals perf'"'"'s' '
	"$PERF" record --no-bpf-event -q -g -e cpu-clock -o p.data "$CALLPATHS" 0.6 >/dev/null 2>&1 &&
	all_views p.data &&
	"$MPERF" report -i p.data | grep -q "^# Children      Self" &&
	same_chains p.data &&
	same_chains p.data --no-children
'

test_expect_success PERF 'the Children view shows the known call paths' '
	"$MPERF" report -i p.data >out &&
	grep -q "^ *[0-9.]*% *[0-9.]*%  callpaths  callpaths  *\[\.\] leaf$" out &&
	"$MPERF" report -i p.data -g folded,0 >folded &&
	grep -q "^[0-9.]*% __libc_start_call_main;main;spin;a;b;leaf$" folded &&
	grep -q "^[0-9.]*% __libc_start_call_main;main;spin;a;helper;leaf$" folded &&
	grep -q "^[0-9.]*% __libc_start_call_main;main;spin;c;helper;leaf$" folded &&
	grep -q "^[0-9.]*% __libc_start_call_main;main;spin;rec;rec;rec;rec;leaf$" folded &&
	"$MPERF" report -i p.data --no-children -g folded,0 >callee &&
	grep -q "^[0-9.]*% leaf;helper;c;spin;main;__libc_start_call_main$" callee
'

test_expect_success PERF 'mperf -g file: every view equals perf'"'"'s' '
	"$MPERF" record -q -g -e cpu-clock -o m.data "$CALLPATHS" 0.6 &&
	all_views m.data &&
	same_chains m.data &&
	same_chains m.data -g callee
'

test_expect_success PERF 'perf reads mperf'"'"'s -g file without a word, with the same chains' '
	"$PERF" report --stdio -i m.data -g folded,0 >perf.out 2>perf.err &&
	test_must_be_empty perf.err &&
	"$MPERF" report -i m.data -g folded,0 >mperf.out &&
	grep "^[0-9.]*% " perf.out | sort >perf.chains &&
	grep "^[0-9.]*% " mperf.out | sort >mperf.chains &&
	test -s mperf.chains &&
	diff -u perf.chains mperf.chains
'

test_expect_success PERF '--max-stack N: chains cut where perf cuts them, in each view' '
	for v in "--max-stack 1" "--max-stack 3" "--max-stack 3 --no-children" "--max-stack 2 -g folded" \
		"--max-stack 4 -G" "--max-stack 500"; do
		# shellcheck disable=SC2086
		same_report p.data $v && same_report m.data $v || { echo "# view: $v"; exit 1; }
	done &&
	"$MPERF" report -i p.data --max-stack 2 --no-children -g folded,0 >folded &&
	! grep -q ";.*;" folded &&
	test_expect_code 129 "$MPERF" report -i p.data --max-stack 0 2>err &&
	test_line_count = 2 err && grep -q "invalid --max-stack .0." err
'

test_expect_success PERF 'several events: the chains of each' '
	"$PERF" record --no-bpf-event -q -g -e cpu-clock,task-clock -o two.data "$CALLPATHS" 0.4 >/dev/null 2>&1 &&
	same_report two.data &&
	test "$(grep -c "^# Samples:" mperf.out)" = 2 &&
	same_report two.data --no-children -g folded &&
	"$MPERF" record -q -g -e cpu-clock,task-clock -o mtwo.data "$CALLPATHS" 0.4 &&
	same_report mtwo.data &&
	same_report mtwo.data -G
'

# The per-event stats that end -D are left out, as t3001 leaves them out:
# on a single-event file perf counts only SAMPLEs there, where mperf also
# counts the side-band records (with or without -g, an older difference).
# Several processes: entries of equal Children compare by their chains'
# depth only within one thread, so the order is the one perf's output
# tree gives; and filters hide an entry as its first sample was hidden.
# With --buildid-all, as lib.sh's perf_record: every DSO is in the
# BUILD_ID feature, so perf makes them in its order (tied chains of two
# DSOs follow it), not as its heap has room mid-session.
test_expect_success PERF 'a shell and its children: perf'"'"'s order, and the filters' '
	"$PERF" record --no-bpf-event --buildid-all -q -g -e cpu-clock -o fork.data \
		sh -c "\"$CALLPATHS\" 0.3 & \"$CALLPATHS\" 0.3; ls / >/dev/null; wait" >/dev/null 2>&1 &&
	same_report fork.data &&
	same_report fork.data -g callee &&
	same_report fork.data --sort pid &&
	same_report fork.data --dsos callpaths &&
	same_report fork.data --comms sh &&
	same_report fork.data --no-children --dsos libc.so.6 &&
	pid=$("$PERF" report --stdio -i fork.data --sort pid -g none 2>/dev/null |
		sed -n "s/^ *[0-9.]*% *[0-9.]*% *\([0-9]*\):callpaths *$/\1/p" | head -n 1) &&
	test -n "$pid" &&
	same_report fork.data --pid "$pid" &&
	same_report fork.data --tid "$pid" --sort pid -g folded &&
	same_report fork.data --percent-limit 2 &&
	same_report fork.data -g folded --percent-limit 2 &&
	# relative: the chains keep shares of every sample, their threshold is
	# of what is shown.  Only the samples of the workload: a lower threshold
	# shows the rare chains of the shell, whose ties perf orders by the
	# addresses of its objects (match_chain_dso_addresses compares dso pointers).
	same_report fork.data --comms callpaths --percentage relative &&
	same_report fork.data --no-children --dsos callpaths --percentage relative &&
	same_report fork.data --pid "$pid" --percentage relative -g fractal &&
	same_report fork.data --comms callpaths --percentage relative -g flat &&
	# -S: the samples in these symbols, with their chains (and the Children of their callers)
	same_report fork.data -S leaf &&
	same_report fork.data -S leaf,main --no-children &&
	same_report fork.data --symbols helper,leaf -g folded --percentage relative
'

# System-wide: kernel threads, idle (its chains through start_kernel, in
# init text past the kernel's map, which perf stretches to its last
# symbol), code without frame pointers.  Among the many tied entries of a
# sample or two, a few may come in another order than perf's (it compares
# some keys by its objects' addresses): the same lines, sorted.  Only our
# workload and idle: whatever else runs may be C++, which perf demangles
# and mperf does not yet.
test_expect_success PERF 'system-wide (-a -g): the same entries and chains as perf' '
	"$PERF" record --no-bpf-event -q -a -g -e cpu-clock -o sys.data -- \
		sh -c "echo \$\$ >pid; exec \"$CALLPATHS\" 0.3" >/dev/null 2>&1 &&
	# this callpaths only: another test on the machine may run one too
	only="--comms callpaths,swapper --pid $(cat pid),0" &&
	for v in "-g folded" "--no-children -g folded,0"; do
		"$PERF" report --stdio -i sys.data $only $v 2>/dev/null | report_filter | sort >perf.out &&
		"$MPERF" report -i sys.data $only $v 2>mperf.err | report_filter | sort >mperf.out &&
		test_must_be_empty mperf.err &&
		diff -u perf.out mperf.out >diff.out || { head -n 40 diff.out; exit 1; }
	done &&
	grep -q "^[0-9.]*% leaf;b;a;spin;main;" mperf.out
'

test_expect_success PERF 'threads of one process: perf'"'"'s order, per thread' '
	"$PERF" record --no-bpf-event -q -g -e cpu-clock -o thr.data "$CALLPATHS" 0.6 3 >/dev/null 2>&1 &&
	same_report thr.data &&
	same_report thr.data -g callee &&
	same_report thr.data --sort pid &&
	same_report thr.data --sort pid,sym -G &&
	"$MPERF" record -q -g -e cpu-clock -o mthr.data "$CALLPATHS" 0.6 3 &&
	same_report mthr.data &&
	same_report mthr.data --sort pid
'

test_expect_success PERF '-D equals perf'"'"'s on both -g files' '
	for f in p.data m.data; do
		"$PERF" report -D -i $f 2>/dev/null | sed "/^cpu-clock stats:/,\$d" >perf.dump &&
		"$MPERF" report -D -i $f | sed "/^cpu-clock stats:/,\$d" >mperf.dump &&
		grep -q "FP chain: nr:" mperf.dump &&
		grep -q "^Aggregated stats:" mperf.dump &&
		diff -u perf.dump mperf.dump >diff.out || { head -n 40 diff.out; exit 1; }
	done
'

# perf decides on the Children view before a stream's events arrive: a
# stream gets the Self view, with the caller graph --children implies.
test_expect_success PERF 'a pipe-mode -g stream: perf'"'"'s Self view and graph' '
	"$MPERF" record -q -g -e cpu-clock -o - "$CALLPATHS" 0.3 >pipe.data &&
	for v in "" "-g folded" "--no-children" "-g callee"; do
		"$PERF" report --stdio -i - $v <pipe.data 2>/dev/null | report_filter >perf.out &&
		"$MPERF" report -i - $v <pipe.data 2>mperf.err | report_filter >mperf.out &&
		test_must_be_empty mperf.err &&
		grep -q "^# Overhead" mperf.out &&
		diff -u perf.out mperf.out || exit 1
	done &&
	"$MPERF" report -i - --children <pipe.data >out 2>err &&
	test_line_count = 1 err &&
	grep -q "pipe-mode stream: perf shows it without --children" err
'

test_expect_success PERF '-g on a file without chains: refused in one line, as perf refuses it' '
	"$MPERF" record -q -e cpu-clock -o flat.data "$CPUSPIN" 0.1 &&
	test -s flat.data &&
	{ rc=0 && "$MPERF" report -i flat.data -g >out 2>err || rc=$?; } &&
	test $rc = 125 &&
	test_line_count = 1 err &&
	grep -q "has no call chains to show (-g): was it recorded without -g?" err &&
	{ rc=0 && "$MPERF" report -i flat.data -g folded >out 2>err || rc=$?; } &&
	test $rc = 125
'

test_expect_success PERF '--children or -G on a file without chains: said in one line, then the Self view' '
	"$MPERF" report -i flat.data --children >out 2>err &&
	test_line_count = 1 err &&
	grep -q "no call chains: --children shows the Self overhead only" err &&
	grep -q "^# Overhead" out &&
	"$MPERF" report -i flat.data -G >out 2>err &&
	test_line_count = 1 err &&
	grep -q "no call chains: -G shows none" err &&
	"$MPERF" report -i flat.data -g none >out 2>err &&
	test_must_be_empty err
'

test_expect_success PERF 'a --call-graph dwarf file: its user stacks are unwound, without a word' '
	"$PERF" record --no-bpf-event -q --call-graph dwarf -e cpu-clock -o dw.data "$CALLPATHS" 0.1 >/dev/null 2>&1 &&
	"$MPERF" report -i dw.data -g folded,0 >out 2>err &&
	test_must_be_empty err &&
	grep -q "^[0-9.]*% .*;main;spin;a;b;leaf$" out
'

test_expect_success PERF '-g on a file where one event has no chains: said for that event' '
	"$PERF" record --no-bpf-event -q -e cpu-clock -e task-clock/call-graph=fp/ -o mixed.data "$CALLPATHS" 0.1 >/dev/null 2>&1 &&
	"$MPERF" report -i mixed.data -g >out 2>err &&
	test_line_count = 1 err &&
	grep -q "event '"'"'cpu-clock'"'"' has no call chains (-g): its entries show none" err
'

test_expect_success 'report -g: words perf does not know, and keys not supported yet, are refused' '
	"$MPERF" record -q -g -e cpu-clock -o q.data "$CPUSPIN" 0.1 &&
	test -s q.data &&
	{ rc=0 && "$MPERF" report -i q.data -g bogus >out 2>err || rc=$?; } &&
	test $rc = 129 &&
	grep -q "invalid -g argument" err &&
	{ rc=0 && "$MPERF" report -i q.data -g address >out 2>err || rc=$?; } &&
	test $rc = 129 &&
	grep -q "not supported yet" err
'

# Sibling chains of equal share in two DSOs: perf orders them by the
# addresses of its DSO objects, made first for the BUILD_ID feature's
# entries in the header's order, then for the other DSOs as the mmaps name
# them.  A recording lists the DSOs its samples' ips hit, so a DSO only a
# chain passes through (ld.so, the vdso) comes after those: here each of
# two files names in its header the DSO it maps second.
test_expect_success PERF 'tied chains of two DSOs: in the order perf made its DSO objects' '
	leaf=$(nm "$CALLPATHS" | awk "\$3 == \"leaf\" { print \"0x\" \$1 }") &&
	main=$(nm "$CPUSPIN" | awk "\$3 == \"main\" { print \"0x\" \$1 }") &&
	python3 "$MPERF_ROOT/tests/synth-samples.py" --recorded-first "$CPUSPIN" $((main + 4)) \
		first.data "$CALLPATHS" 0x555555554000 $((leaf + 4)) &&
	python3 "$MPERF_ROOT/tests/synth-samples.py" --recorded-first "$CALLPATHS" $((leaf + 4)) \
		second.data "$CPUSPIN" 0x555555554000 $((main + 4)) &&
	for f in first.data second.data; do
		for v in "--sort comm" "--sort comm -g folded" "--no-children --sort comm -g caller"; do
			# shellcheck disable=SC2086
			same_report $f $v || { echo "# $f, view: $v"; exit 1; }
		done
	done &&
	"$MPERF" report -i second.data --sort comm -g folded >out &&
	grep -A1 "^ *100.00%" out | tail -n 1 | grep -q "^50.00% main$"
'

have_json_parser () { command -v python3 >/dev/null 2>&1; }

test_expect_success PERF,JSON_PARSER '--json: the Children share and the chains of -g folded, row by row' '
	"$MPERF" report -i p.data --json >out.json &&
	"$MPERF" report -i p.data -g folded >out.txt &&
	python3 - <<-\PY
	import json, re
	d = json.load(open("out.json"))
	assert d["children"] is True and d["call-graph"] == {"order": "caller", "threshold": 0.5}, d
	text = open("out.txt").read().split("\n")
	rows, cur = [], None
	for line in text:
	    m = re.match(r"^ +([0-9.]+)% +([0-9.]+)%  ", line)
	    if m:
	        cur = [float(m.group(1)), float(m.group(2)), []]
	        rows.append(cur)
	    elif cur is not None and re.match(r"^[0-9.]+% ", line):
	        cur[2].append(line)
	jrows = d["events"][0]["rows"]
	assert len(rows) == len(jrows), (len(rows), len(jrows))
	for (acc, self, chains), j in zip(rows, jrows):
	    assert abs(acc - j["children-overhead"]) < 0.006 and abs(self - j["overhead"]) < 0.006, (acc, self, j)
	    got = [(c["overhead"], ";".join(f["symbol"] or f["address"] for f in c["frames"])) for c in j["callchains"]]
	    want = [(float(c.split("% ", 1)[0]), c.split("% ", 1)[1]) for c in chains]
	    assert [g[1] for g in got] == [w[1] for w in want], (got, want)
	    assert all(abs(g[0] - w[0]) < 0.006 for g, w in zip(got, want)), (got, want)
	PY
'

test_done
