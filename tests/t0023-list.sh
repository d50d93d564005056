#!/bin/bash
# mperf list: this machine's events in perf list's shape, and its filters.

. "$(dirname "$0")/lib.sh"

have_tracefs () {
	test -r /sys/kernel/tracing/events/sched/sched_switch/id ||
	test -r /sys/kernel/debug/tracing/events/sched/sched_switch/id
}

test_expect_success 'every line is perf list'\''s: two spaces, the name to column 52, [kind]' '
	"$MPERF" list >all &&
	test -s all &&
	! grep -v "^  [^ ].* \[[A-Za-z ,-]*\]$" all &&
	awk "length(\$0) < 53 || substr(\$0, 53, 1) != \"[\" && substr(\$0, 52, 1) != \" \" { print; bad = 1 } END { exit bad }" all
'

test_expect_success 'the software events, each name once, aliases after OR' '
	"$MPERF" list sw >sw &&
	grep -q "^  cpu-clock  *\[Software event\]$" sw &&
	grep -q "^  context-switches OR cs  *\[Software event\]$" sw &&
	grep -q "^  page-faults OR faults  *\[Software event\]$" sw &&
	grep -q "^  duration_time  *\[Tool event\]$" sw &&
	! grep -v "\[Software event\]$\|\[Tool event\]$" sw
'

test_expect_success PERF 'the software and tool events are perf list sw'\''s' '
	"$PERF" list sw 2>/dev/null | grep "\[Software event\]\|\[Tool event\]" >expect &&
	"$MPERF" list sw >actual &&
	diff expect actual
'

test_expect_success PERF,TRACEFS 'the tracepoints are perf list tracepoint'\''s' '
	"$PERF" list tracepoint 2>/dev/null >expect &&
	"$MPERF" list tracepoint >actual &&
	diff expect actual
'

test_expect_success NOPMU 'without a PMU: cycles is listed with its fallback, no other hardware event' '
	"$MPERF" list hw >hw &&
	echo "  cpu-cycles OR cycles                               [Hardware event, falls back to cpu-clock here]" >expect &&
	diff expect hw &&
	"$MPERF" list cache >cache &&
	test_must_be_empty cache
'

test_expect_success 'the sections are in perf list'\''s order' '
	sed "s/.*\[\(.*\)\]$/\1/; s/,.*//" all | uniq >kinds &&
	grep -v "Raw hardware\|Hardware breakpoint" kinds >order &&
	awk "{ r[\"Hardware event\"]=1; r[\"Software event\"]=2; r[\"Tool event\"]=2.5; r[\"Hardware cache event\"]=3;
	       r[\"Kernel PMU event\"]=4; r[\"Tracepoint event\"]=6;
	       if (r[\$0] < last) { print \"out of order: \" \$0; exit 1 } last = r[\$0] }" order
'

test_expect_success 'a PMU event of sysfs: PMU/EVENT/' '
	for d in /sys/bus/event_source/devices/*/events/*; do
		test -e "$d" || continue
		case $d in *.*) continue ;; esac
		pmu=${d#/sys/bus/event_source/devices/} &&
		pmu=${pmu%%/*} &&
		grep -q "^  $pmu/${d##*/}/  *\[Kernel PMU event\]$" all || { echo "$pmu/${d##*/}/"; exit 1; }
		break
	done
'

test_expect_success TRACEFS 'a glob matches anywhere in the name, as perf'\''s' '
	"$MPERF" list sched_switch >g &&
	grep -q "^  sched:sched_switch  *\[Tracepoint event\]$" g &&
	! grep -v sched_switch g
'

test_expect_success 'a glob that matches nothing prints nothing and succeeds' '
	"$MPERF" list no_such_event_anywhere >out &&
	test_must_be_empty out
'

# Parsed, not opened (a counting-only PMU event cannot sample): the
# unknown option after -e is refused only once -e has parsed.
test_expect_success 'every event mperf list names is one mperf record -e parses (but a tool event, stat'\''s)' '
	grep -v "Raw hardware\|Hardware breakpoint\|Tool event" all |
		sed "s/^  \([^ ]*\).*/\1/" | awk "NR <= 40 || NR % 50 == 0" >names &&
	while read -r e; do
		test_expect_code 129 "$MPERF" record -e "$e" --no-such-option true 2>err &&
		grep -q "unknown option .--no-such-option." err || { echo "$e:"; cat err; exit 1; }
	done <names &&
	test_expect_code 129 "$MPERF" record -e duration_time true 2>err &&
	grep -q "^mperf record: .duration_time. is a tool event" err
'

test_expect_success 'two filters are a usage error, in one line and a hint' '
	test_expect_code 129 "$MPERF" list hw sw 2>err &&
	test_line_count = 2 err &&
	grep -q "^mperf list: one filter at a time" err
'

test_done
