#!/usr/bin/env bash
# mperf reads perf's files: for files perf recorded, every line of
# `mperf report -D` before the stats equals `perf report -D`'s, and the
# per-event SAMPLE totals match.  Skipped without perf.
. "$(dirname "$0")/lib.sh"

# perf report -D up to the stats, with perf's random vdso temp file name
# (pipe mode) written as [vdso], which is what mperf prints.
dump_body () { sed '/^Aggregated stats:/,$d; s#/tmp/perf-vdso\.so-[A-Za-z0-9]*#[vdso]#g'; }
event_samples () { awk '/^Aggregated stats:/{a=1;next} a&&/ stats:$/{e=1;next} e&&/SAMPLE events:/{printf "%s ",$3;e=0}' "$1"; }

# same_dump FILE: perf and mperf dumps of FILE agree.
same_dump () {
	"$PERF" report -D -i "$1" >perf.out 2>/dev/null &&
	"$MPERF" report -D -i "$1" >mperf.out &&
	dump_body <perf.out >perf.body && dump_body <mperf.out >mperf.body &&
	test "$(wc -l <perf.body)" -gt 100 &&
	diff -u perf.body mperf.body >diff.out || { head -n 40 diff.out; return 1; }
	test -n "$(event_samples perf.out)" &&
	test "$(event_samples perf.out)" = "$(event_samples mperf.out)" ||
		{ echo "perf: $(event_samples perf.out) mperf: $(event_samples mperf.out)"; return 1; }
}

perf_record () { "$PERF" record -q "$@" >/dev/null 2>perf-record.err; }

test_expect_success PERF 'the seed events: cycles x3 (cpu-clock where there is no PMU)' '
	perf_record -o seed.data -e cycles,cycles,cycles "$CPUSPIN" 0.5 &&
	same_dump seed.data &&
	test "$(event_samples mperf.out | wc -w)" = 3
'

test_expect_success PERF '-F 1000' '
	perf_record -o F.data -F 1000 -e cpu-clock "$CPUSPIN" 0.3 && same_dump F.data
'

test_expect_success PERF '-c 100000' '
	perf_record -o c.data -c 100000 -e cpu-clock "$CPUSPIN" 0.3 && same_dump c.data &&
	grep -q " period: 100000 addr: 0$" mperf.out
'

test_expect_success PERF 'a mix of software events' '
	perf_record -o mix.data -e cpu-clock,task-clock,page-faults,context-switches "$CPUSPIN" 0.3 &&
	same_dump mix.data
'

test_expect_success PERF 'callchains (-g) and a forked child' '
	perf_record -o g.data -g -e cpu-clock sh -c "\"$CPUSPIN\" 0.2 & \"$CPUSPIN\" 0.2; wait" &&
	same_dump g.data
'

test_expect_success PERF 'system-wide with switch events (-a --switch-events)' '
	perf_record -o a.data -a --switch-events -e cpu-clock sleep 0.2 && same_dump a.data
'

test_expect_success PERF 'leader sampling group ({a,b}:S: read values per event)' '
	perf_record -o grp.data -e "{cpu-clock,task-clock}:S" "$CPUSPIN" 0.2 && same_dump grp.data
'

test_expect_success PERF 'per-thread counts (-s): READ records with their four lines' '
	perf_record -o s.data -s -e cpu-clock,task-clock sh -c "\"$CPUSPIN\" 0.1 & \"$CPUSPIN\" 0.1; wait" &&
	same_dump s.data &&
	grep -q "^\.\.\. time enabled : " mperf.out && grep -q "^\.\.\. lost         : " mperf.out
'

test_expect_success PERF 'a pipe-mode file (perf record -o -)' '
	"$PERF" record -q -o - -e cpu-clock,task-clock "$CPUSPIN" 0.3 >pipe.data 2>/dev/null &&
	same_dump pipe.data &&
	grep -q "^0@pipe \[" mperf.out
'

test_expect_success PERF 'a pipe-mode stream on stdin' '
	"$PERF" record -q -o - -e cpu-clock "$CPUSPIN" 0.2 2>/dev/null |
		"$MPERF" report -D -i - >stdin.out &&
	"$PERF" report -D -i - <pipe.data >/dev/null 2>&1 &&
	grep -q "^cpu-clock stats:$" stdin.out &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" stdin.out)" -gt 100
'

test_done
