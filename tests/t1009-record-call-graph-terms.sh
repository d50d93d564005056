#!/usr/bin/env bash
# perf 6.1's per-event call graph terms: -e 'cpu-clock/call-graph=dwarf,
# stack-size=4096/', call-graph=fp and no, max-stack=N, on generic events,
# PMU events and tracepoints, alone and under -g or --call-graph.  For
# each command line perf and mperf record the same workload and the whole
# of perf evlist -v agrees (sample_type, the sample id, sample_regs_user,
# sample_stack_user, exclude_callchain_user, sample_max_stack, mmap_data);
# perf reads mperf's files without a word, mperf report -D of the files
# whose events sample differently equals perf report -D up to the stats,
# and the chains are what the terms asked for.  Bad terms are one-line
# usage errors (perf falls back to the global setting for an unknown
# call-graph= word, and takes 0 as "not given": mperf says what is wrong).
. "$(dirname "$0")/lib.sh"

have_sched_switch () {
	test -e /sys/kernel/tracing/events/sched/sched_switch/id ||
	test -e /sys/kernel/debug/tracing/events/sched/sched_switch/id
}

# evlist FILE: perf evlist -v, without its random tip; its stderr into FILE.err.
evlist () {
	"$PERF" evlist -v -i "$1" 2>"$1.err" | grep -v '^# Tip:'
}

# both NAME ARGS...: perf and mperf record "$CPUSPIN" 0.05 with ARGS into
# NAME.perf.data and NAME.mperf.data; their perf evlist -v are the same,
# and perf reads mperf's file (evlist, report) without a word on stderr.
# 2 MB buffers (-m 512): stack copies on a busy machine would lose samples
# in the default ones, which perf report would then warn about.  Both
# with --no-bpf-event: perf otherwise waits about a second for its
# side-band thread as it ends (t1015 compares that bit).
both () {
	local name=$1
	shift
	"$PERF" record -q --no-bpf-event -m 512 "$@" -o "$name.perf.data" "$CPUSPIN" 0.05 >/dev/null 2>"$name.perf.rec" ||
		{ cat "$name.perf.rec"; fail "perf record $*"; return 1; }
	"$MPERF" record -q --no-bpf-event -m 512 "$@" -o "$name.mperf.data" "$CPUSPIN" 0.05 >/dev/null ||
		{ fail "mperf record $*"; return 1; }
	evlist "$name.perf.data" >"$name.perf.ev" &&
	evlist "$name.mperf.data" >"$name.mperf.ev" &&
	test_must_be_empty "$name.mperf.data.err" &&
	test -s "$name.perf.ev" &&
	diff -u "$name.perf.ev" "$name.mperf.ev" &&
	# perf reads the file without a word (its inline frames not resolved:
	# perf 6.1 spun in its addr2line reading for 12 minutes here once)
	"$PERF" report --stdio --no-inline -i "$name.mperf.data" >/dev/null 2>"$name.report.err" &&
	test_must_be_empty "$name.report.err"
}

# same_dump FILE: perf report -D and mperf report -D of FILE agree up to the stats.
dump_body () { sed '/^Aggregated stats:/,$d'; }
same_dump () {
	"$PERF" report -D -i "$1" 2>/dev/null | dump_body >perf.dump &&
	"$MPERF" report -D -i "$1" | dump_body >mperf.dump &&
	test "$(wc -l <perf.dump)" -gt 100 &&
	diff -u perf.dump mperf.dump >dump.diff || { head -n 40 dump.diff; return 1; }
}

test_expect_success PERF 'call-graph=dwarf,stack-size=4096: perf'"'"'s dwarf attrs with that size' '
	both dw -e "cpu-clock/call-graph=dwarf,stack-size=4096/" &&
	grep -q "^cpu-clock/call-graph=dwarf,stack-size=4096/: .*sample_type: IP|TID|TIME|ADDR|CALLCHAIN|PERIOD|REGS_USER|STACK_USER|DATA_SRC," dw.mperf.ev &&
	grep -q "mmap_data: 1, .*exclude_callchain_user: 1, .*sample_regs_user: 0xff0fff, sample_stack_user: 4096$" dw.mperf.ev
'

test_expect_success PERF 'call-graph=fp next to a plain event: chains on one, IDENTIFIER on both' '
	both fp -e "task-clock/call-graph=fp/,cpu-clock" &&
	grep -q "^task-clock/call-graph=fp/: .*sample_type: IP|TID|TIME|CALLCHAIN|PERIOD|IDENTIFIER," fp.mperf.ev &&
	grep -q "^cpu-clock: .*sample_type: IP|TID|TIME|PERIOD|IDENTIFIER," fp.mperf.ev &&
	same_dump fp.mperf.data
'

test_expect_success PERF 'call-graph=no under -g: the other event keeps its chains' '
	both no -g -e "cpu-clock/call-graph=no/,task-clock" &&
	grep -q "^cpu-clock/call-graph=no/: .*sample_type: IP|TID|TIME|PERIOD|IDENTIFIER," no.mperf.ev &&
	grep -q "^task-clock: .*CALLCHAIN" no.mperf.ev &&
	same_dump no.mperf.data
'

test_expect_success PERF 'two events, two call graphs (fp and dwarf): perf'"'"'s attrs, the same dump' '
	both two -e "cpu-clock/call-graph=fp/,task-clock/call-graph=dwarf,stack-size=1024/" &&
	grep -q "^task-clock/call-graph=dwarf,stack-size=1024/: .*REGS_USER|STACK_USER|IDENTIFIER|DATA_SRC, .*sample_stack_user: 1024$" two.mperf.ev &&
	same_dump two.mperf.data
'

# Under -g both events sample the same fields: ID, not IDENTIFIER.
test_expect_success PERF 'max-stack=N: frame pointers, sample_max_stack N; alone and under -g' '
	both ms -e "cpu-clock/max-stack=3/" &&
	grep -q "sample_type: IP|TID|TIME|CALLCHAIN|PERIOD, .*sample_max_stack: 3$" ms.mperf.ev &&
	both msg -g -e "cpu-clock/max-stack=3/,task-clock" &&
	test "$(grep -c "sample_type: IP|TID|TIME|CALLCHAIN|ID|PERIOD," msg.mperf.ev)" = 2
'

test_expect_success PERF 'max-stack=3: the kernel records at most 3 frames for that event only' '
	"$MPERF" record -q -e "cpu-clock/max-stack=3/,task-clock/call-graph=fp/" -o depth.data "$CALLPATHS" 0.3 &&
	"$PERF" script -i depth.data -F event,ip 2>/dev/null >depth.out &&
	awk "/^ *[a-z]/ { ev = \$1; next } NF { n[ev]++ } !NF { if (n[ev] > max[ev]) max[ev] = n[ev]; n[ev] = 0 }
	     END { for (e in max) print e, max[e] }" depth.out | sort >depth.max &&
	cat depth.max &&
	grep -q "^cpu-clock/max-stack=3/: 3$" depth.max &&
	awk "/^task-clock/ { exit !(\$2 > 3) }" depth.max
'

# The global call graph's sample bits go, its other attr fields stay, as perf leaves them.
test_expect_success PERF 'terms under --call-graph dwarf: call-graph=fp, stack-size alone, --user-regs' '
	both dfp --call-graph dwarf -e "cpu-clock/call-graph=fp/,task-clock" &&
	grep -q "^cpu-clock/call-graph=fp/: .*sample_type: IP|TID|TIME|ADDR|CALLCHAIN|PERIOD|IDENTIFIER|DATA_SRC, .*exclude_callchain_user: 1, .*sample_stack_user: 8192$" dfp.mperf.ev &&
	same_dump dfp.mperf.data &&
	both dsz --call-graph dwarf,1024 -e "cpu-clock/stack-size=2048/,task-clock" &&
	grep -q "^cpu-clock/stack-size=2048/: .*sample_type: IP|TID|TIME|ADDR|PERIOD|IDENTIFIER|DATA_SRC, .*sample_stack_user: 1024$" dsz.mperf.ev &&
	both dregs --user-regs=ax --call-graph dwarf -e "cpu-clock/call-graph=fp/" &&
	both ddw --call-graph dwarf,1024 -e "cpu-clock/call-graph=dwarf/,task-clock/call-graph=no/"
'

test_expect_success PERF 'terms in groups, with leader sampling, and with -a' '
	both grp -e "{cpu-clock/call-graph=dwarf/,task-clock}" &&
	both lead -e "{cpu-clock/call-graph=fp/,task-clock}:S" &&
	test "$(grep -c "sample_type: IP|TID|TIME|READ|CALLCHAIN|ID|PERIOD," lead.mperf.ev)" = 2 &&
	both lead2 -e "{cpu-clock,task-clock/call-graph=dwarf,period=100000/}:S" &&
	both sys -a -g -e "cpu-clock/call-graph=dwarf,stack-size=512/"
'

test_expect_success PERF,TRACEFS,SCHED_SWITCH 'a tracepoint'"'"'s terms: perf'"'"'s attrs and name, the same dump' '
	both tp -e "sched:sched_switch/call-graph=dwarf,max-stack=3/,cpu-clock" &&
	grep -q "^sched:sched_switch: .*sample_type: IP|TID|TIME|ADDR|CALLCHAIN|CPU|PERIOD|RAW|REGS_USER|STACK_USER|IDENTIFIER|DATA_SRC, .*sample_max_stack: 3$" tp.mperf.ev &&
	same_dump tp.mperf.data &&
	both tpk -e "sched:sched_switch/call-graph=fp/k"
'

test_expect_success PERF 'a per-event dwarf file: mperf report unwinds that event'"'"'s stacks' '
	"$MPERF" record -q -e "task-clock,cpu-clock/call-graph=dwarf,stack-size=8192/" -o unw.data \
		"$CALLPATHS_NOFP" 0.3 &&
	"$MPERF" report -i unw.data --no-children -g folded,0 >folded 2>err &&
	grep -q "event .task-clock. has no call chains" err &&
	grep -q "^[0-9.]*% leaf;b;a;spin;main;" folded
'

test_expect_success 'bad terms: one line and a hint, exit 129, no file' '
	for e in "cpu-clock/call-graph=bogus/" "cpu-clock/call-graph/" "cpu-clock/call-graph=dwarf,4096/" \
		 "cpu-clock/stack-size=0/" "cpu-clock/call-graph=dwarf,stack-size=65529/" \
		 "cpu-clock/max-stack=-1/" "cpu-clock/max-stack=0/" "cpu-clock/max-stack=65536/" \
		 "cpu-clock/call-graph=lbr/"; do
		test_expect_code 129 "$MPERF" record -q -e "$e" -o bad.data "$CPUSPIN" 0.01 2>err &&
		test_line_count = 2 err &&
		head -n 1 err | grep -q "^mperf record: " &&
		tail -n 1 err | grep -q "^hint: " &&
		! test -e bad.data || { echo "for $e:"; cat err; exit 1; }
	done &&
	test_expect_code 129 "$MPERF" record -e "cpu-clock/call-graph=bogus/" true 2>err &&
	grep -q "unknown call-graph mode .bogus. in .cpu-clock/call-graph=bogus/. (fp, dwarf or no)" err &&
	test_expect_code 129 "$MPERF" record -e "cpu-clock/stack-size=0/" true 2>err &&
	grep -q "incorrect stack dump size (max 65528): stack-size=0" err
'

test_expect_success TRACEFS,SCHED_SWITCH 'a tracepoint takes only the call graph terms' '
	test_expect_code 129 "$MPERF" record -e "sched:sched_switch/period=3/" true 2>err &&
	grep -q "unknown term .period. for tracepoint .sched:sched_switch. (valid: call-graph, stack-size, max-stack)" err
'

test_expect_success 'max-stack above kernel.perf_event_max_stack: the kernel refuses it, said in one line' '
	max=$(cat /proc/sys/kernel/perf_event_max_stack) &&
	if test "$max" -ge 65535; then echo "# perf_event_max_stack is $max: no deeper term"; exit 0; fi &&
	test_expect_code 125 "$MPERF" record -q -e "cpu-clock/max-stack=$((max + 1))/" -o deep.data true 2>err &&
	test_line_count = 1 err &&
	grep -q "kernel.perf_event_max_stack is $max" err &&
	! test -e deep.data
'

test_expect_success 'mperf stat refuses the call graph terms, as perf stat does' '
	test_expect_code 129 "$MPERF" stat -e "cpu-clock/call-graph=fp/" true 2>err &&
	grep -q "^mperf stat: .call-graph. is not usable in mperf stat" err &&
	test_expect_code 129 "$MPERF" stat -e "cpu-clock,task-clock/max-stack=4/" true 2>err &&
	grep -q "max-stack" err
'

test_done
