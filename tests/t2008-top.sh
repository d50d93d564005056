#!/bin/bash
# mperf top: record's sampling into a stream in memory, report's histograms
# of it every -d seconds.  --stdio against a known workload (cpuspin: its
# spinning symbol on top of every refresh, of every event), -E, -z,
# --percent-limit, the exit statuses (the task gone, SIGINT, a closed
# pipe, bad options).  The browser on a terminal is t2009's.
# (leaks checked in the sanitizer pass too: see tests/lib.sh)
MPERF_TEST_LEAKS=1
. "$(dirname "$0")/lib.sh"

# firsts FILE: the first entry line of each event's block of each refresh.
firsts () {
	awk '/^   PerfTop:/ { want = 1; next } /^---/ || /^$/ { next } want { print; want = 0 }' "$1"
}

test_expect_success '-p: spin is the top entry of every refresh; top ends with the task, 0' '
	spin_bg 2 &&
	test_expect_code 0 "$MPERF" top --stdio -d 1 -e cpu-clock -p "$(cat spin.pid)" >out 2>err &&
	test "$(grep -c "^   PerfTop:" out)" -ge 1 &&
	grep -q "^   PerfTop: *[0-9]* irqs/sec  lost: 0/0 \[4000Hz cpu-clock\],  (target pid, [0-9]* CPUs*)$" out &&
	firsts out >first &&
	test -s first &&
	! grep -v "cpuspin  *\[\.\] spin$" first &&
	test_must_be_empty err
'

test_expect_success 'two events: a line each with its lost samples, spin on top of both' '
	spin_bg 2 &&
	"$MPERF" top --stdio -d 1 -e cpu-clock,task-clock -p "$(cat spin.pid)" >out 2>err &&
	grep -c "^   PerfTop:.*\[4000Hz cpu-clock\]" out >n1 &&
	grep -c "^   PerfTop:.*\[4000Hz task-clock\]" out >n2 &&
	test "$(cat n1)" -ge 1 && test "$(cat n1)" = "$(cat n2)" &&
	firsts out >first &&
	test "$(wc -l <first)" = $(($(cat n1) * 2)) &&
	! grep -v "cpuspin  *\[\.\] spin$" first
'

test_expect_success 'a group on -p, -g: one line, a column per member, spin on top of each refresh, its chain' '
	spin_bg 2 &&
	"$MPERF" top --stdio -d 1 -g -e "{cpu-clock,task-clock}" -p "$(cat spin.pid)" >out 2>err &&
	test "$(grep -c "^   PerfTop:.*\[4000Hz cpu-clock\]" out)" -ge 1 &&
	! grep -q "task-clock\]" out &&
	firsts out >first &&
	test -s first &&
	! grep -v "^ *[0-9.]*%  *[0-9.]*%  cpuspin  *\[\.\] spin$" first &&
	grep -q -- "---spin$" out &&
	test_must_be_empty err
'

test_expect_success '-E 1: one entry an event; --percent-limit 50 -z: spin alone' '
	spin_bg 2 &&
	"$MPERF" top --stdio -d 1 -e cpu-clock -E 1 -p "$(cat spin.pid)" >out &&
	test "$(grep -c "%" out)" = "$(grep -c "^   PerfTop:" out)" &&
	spin_bg 2 &&
	"$MPERF" top --stdio -d 1 -z --percent-limit 50 -e cpu-clock -p "$(cat spin.pid)" >out &&
	grep "%" out >entries &&
	test -s entries &&
	! grep -v "cpuspin  *\[\.\] spin$" entries
'

test_expect_success '-g: the entries carry their chains, as report -g prints them' '
	spin_bg 2 &&
	"$MPERF" top --stdio -d 1 -g -e cpu-clock -p "$(cat spin.pid)" >out &&
	grep -q "^ *[0-9.]*%  cpuspin  *\[\.\] spin$" out &&
	grep -q -- "---spin$" out
'

test_expect_success '-a until SIGINT: exit 0, the refreshes whole' '
	spin_bg 30 &&
	{ "$MPERF" top --stdio -d 1 -E 3 -e cpu-clock >out 2>err & } &&
	pid=$! &&
	i=0 && while ! grep -q "^   PerfTop:.*(all, " out && test $i -lt 300; do sleep 0.1; i=$((i + 1)); done &&
	kill -INT $pid &&
	rc=0 && wait $pid || rc=$? &&
	stop_spin &&
	test $rc = 0 &&
	grep -q "cpuspin  *\[\.\] spin$" out &&
	test_must_be_empty err
'

test_expect_success 'a reader that goes away: 141, quietly' '
	rc=0 &&
	{ "$MPERF" top --stdio -d 1 -e cpu-clock 2>err; echo $? >rc; } | head -n 1 >/dev/null &&
	test "$(cat rc)" = 141 &&
	test_must_be_empty err
'

while read -r args; do
	test_expect_success "bad usage: mperf top $args: 129, one line and the hint" '
		test_expect_code 129 "$MPERF" top '"$args"' >out 2>err &&
		test_must_be_empty out &&
		test "$(wc -l <err)" = 2 &&
		grep -q "^mperf top: " err &&
		grep -q "^hint: " err
	'
done <<'EOF2'
-d 0
-d x
-F 10 -c 3
-K -U
-p 1 -a
-t 1 -C 0
--sort foo
-E 0
--percent-limit 200
--call-graph dwarf
-e nosuchevent
ls
--nosuchoption
EOF2

test_expect_success 'no such process: 125, one line' '
	test_expect_code 125 "$MPERF" top --stdio -p 999999999 >out 2>err &&
	test "$(wc -l <err)" = 1 &&
	grep -q "^mperf top: " err
'

test_done
