#!/bin/bash
# mperf stat's perf modes: -I (text, -x, -j) with --interval-count and
# --summary, -j's JSON lines, -A and --per-core/socket/die/node/thread,
# --timeout, -n.  Values are checked as relations (the intervals sum to the
# total); shapes against perf stat of the same command (PERF).

. "$(dirname "$0")/lib.sh"

# one_error FILE CMD TEXT: FILE is one error line (and the hint).
one_error () {
	head -n 1 "$1" | grep -q "^mperf $2: $3" || fail "not the error line: $3" || return 1
	n=$(wc -l <"$1")
	test "$n" = 1 || { test "$n" = 2 && tail -n 1 "$1" | grep -q "^hint: see "; } ||
		fail "more than the line and a hint"
}

# same FILE1 FILE2: equal, or the difference shown.
same () {
	diff -u "$1" "$2" || fail "$2 differs from $1"
}

# shape FILE: the lines with every number made N and blanks squeezed, each shape once.
# A rate's prefix (K/sec against /sec) follows the value, not the shape.
shape () {
	sed -E 's/[0-9][0-9.,]*/N/g; s/ +/ /g; s/([N ",])[KMG]\/sec/\1\/sec/g' "$1" | sort -u
}

test_expect_success '-I -x, --summary: the intervals sum to the total within 1%' '
	"$MPERF" stat -I 100 --summary -x, -e task-clock,context-switches "$CPUSPIN" 0.5 2>out &&
	test "$(grep -c ",task-clock," out)" -ge 4 &&
	grep -q "^         summary,[0-9.]*,msec,task-clock," out &&
	awk -F, "\$4 == \"task-clock\" && \$1 != \"         summary\" { sum += \$2; if (\$1 + 0 <= last) bad = 1; last = \$1 + 0 }
		 \$1 == \"         summary\" && \$4 == \"task-clock\" { total = \$2 }
		 END { d = sum - total; if (d < 0) d = -d; if (bad || !total || d > total / 100) { print sum, total, bad; exit 1 } }" out
'

test_expect_success '-I text: perf'\''s header, then each row after its time' '
	"$MPERF" stat -I 100 -e task-clock,page-faults "$CPUSPIN" 0.3 2>out &&
	head -n 1 out >first &&
	echo "#           time             counts unit events" >expect &&
	same expect first &&
	grep -q "^ *[0-9]*\.[0-9]\{9\} *[0-9.,]* msec task-clock  *# *[0-9.]* CPUs utilized" out &&
	! grep -q "Performance counter stats" out
'

test_expect_success '-I -j: JSON lines, each with its interval; --json is -j' '
	"$MPERF" stat -I 100 -j -e task-clock,cycles "$CPUSPIN" 0.25 2>out &&
	"$MPERF" stat --json -e task-clock true 2>plain &&
	python3 -c "
import json, sys
rows = [json.loads(l) for l in open(\"out\")]
assert len(rows) >= 4, rows
for r in rows:
    assert list(r)[:2] == [\"interval\", \"counter-value\"], r
    assert r[\"event\"] in (\"task-clock\", \"cycles\"), r
plain = [json.loads(l) for l in open(\"plain\")]
assert list(plain[0]) == [\"counter-value\", \"unit\", \"event\", \"event-runtime\", \"pcnt-running\", \"metric-value\", \"metric-unit\"], plain
"
'

test_expect_success '--interval-count 2: two intervals, the command stopped, exit 0' '
	"$MPERF" stat -I 100 --interval-count 2 -x, -e task-clock "$CPUSPIN" 3 2>out &&
	test_line_count = 2 out
'

test_expect_success '--timeout: the command stopped before its end, its counts, exit 0' '
	"$MPERF" stat --timeout 200 -e task-clock "$CPUSPIN" 3 2>out &&
	ms=$(sed -n "s/^ *\([0-9.,]*\) msec task-clock.*/\1/p" out | tr -d ,) &&
	el=$(sed -n "s/^ *\([0-9.]*\) seconds time elapsed/\1/p" out) &&
	awk -v ms="$ms" -v el="$el" "BEGIN { exit !(ms > 0 && ms < 3000 && el >= 0.2) }" ||
		fail "task-clock $ms ms, elapsed $el s: not stopped at 200 ms"
'

test_expect_success '-A, --per-core, --per-socket -a: a row per CPU, core, socket' '
	n=$(getconf _NPROCESSORS_ONLN) &&
	"$MPERF" stat -a -A -x, -e task-clock,context-switches sleep 0.1 2>a &&
	test_line_count = $((2 * n)) a &&
	grep -q "^CPU0,[0-9.]*,msec,task-clock," a &&
	"$MPERF" stat -a --per-core -x, -e task-clock sleep 0.1 2>c &&
	grep -q "^S[0-9]*-D[0-9]*-C[0-9]*,1,[0-9.]*,msec,task-clock," c &&
	"$MPERF" stat -a --per-socket -j -e task-clock sleep 0.1 2>s &&
	grep -q "^{\"socket\" : \"S0\", \"aggregate-number\" : [0-9]*, \"counter-value\"" s &&
	"$MPERF" stat -a --per-node -e task-clock sleep 0.1 2>t &&
	grep -q "^N0  *[0-9]  *[0-9.,]* msec task-clock" t
'

test_expect_success '--per-thread -p: the thread, by name and id' '
	"$CPUSPIN" 3 & pid=$! &&
	"$MPERF" stat -p $pid --per-thread -x, -e task-clock sleep 0.2 2>out;
	kill $pid &&
	grep -q "^cpuspin-$pid,[0-9.]*,msec,task-clock," out
'

test_expect_success '-n: the elapsed time alone' '
	"$MPERF" stat -n true 2>out &&
	grep -q "seconds time elapsed" out &&
	! grep -q "task-clock" out
'

test_expect_success 'tool events: duration_time, user_time in ns, beside the clock' '
	"$MPERF" stat -x, -e duration_time,user_time,task-clock "$CPUSPIN" 0.3 2>out &&
	grep -q "^[0-9]*,ns,duration_time,[0-9]*,100.00," out &&
	awk -F, "\$3 == \"duration_time\" { d = \$1 } \$3 == \"user_time\" { u = \$1 } \$3 == \"task-clock\" { t = \$1 * 1e6 }
		 END { if (!(t > 0 && t <= d * 1.01 && u <= d * 1.01)) { print d, u, t; exit 1 } }" out &&
	"$MPERF" stat -I 100 -x, -e duration_time sleep 0.25 2>iv &&
	awk -F, "{ sum += \$2; end = \$1 } END { d = sum / 1e9 - end; if (d < 0) d = -d; if (d > end / 100) { print sum, end; exit 1 } }" iv &&
	test_expect_code 129 "$MPERF" stat -I 100 -e user_time true 2>err &&
	test_expect_code 129 "$MPERF" stat -a -A -e duration_time true 2>err
'

test_expect_success '--table -r 3: a row per run, its bar, the final result' '
	"$MPERF" stat -r 3 --table -e task-clock "$CPUSPIN" 0.05 2>out &&
	grep -q "^ *# Table of individual measurements:$" out &&
	test "$(grep -c "^ *[0-9]*\.[0-9]* ([-+][0-9]*\.[0-9]*) #*$" out)" = 3 &&
	grep -A1 "# Final result:" out | grep -q "seconds time elapsed" &&
	test_expect_code 129 "$MPERF" stat --table true 2>err &&
	one_error err stat "--table needs -r"
'

test_expect_success '-D: the events start late, the elapsed time from then' '
	"$MPERF" stat -D 100 -x, -e task-clock,duration_time "$CPUSPIN" 0.3 2>out &&
	grep -q "^mperf stat: Events disabled$" out &&
	grep -q "^mperf stat: Events enabled$" out &&
	awk -F, "\$3 == \"task-clock\" { t = \$1 * 1e6 } \$3 == \"duration_time\" { d = \$1 }
		 END { if (!(t > 0 && t <= d * 1.01)) { print t, d; exit 1 } }" out &&
	"$MPERF" stat -D 600000 -x, -e task-clock true 2>never &&
	grep -q "^<not counted>,msec,task-clock," never &&
	! grep -q "Events enabled" never
'

test_expect_success '-d, -dd, -ddd: perf'\''s detailed events after the others' '
	"$MPERF" stat -d -x, true 2>d &&
	test_line_count = 12 d &&
	sed -n "5p;9p;12p" d | cut -d, -f3 >names &&
	printf "%s\n" cycles L1-dcache-loads LLC-load-misses >expect &&
	same expect names &&
	"$MPERF" stat -ddd -e task-clock -x, true 2>ddd &&
	test_line_count = 13 ddd &&
	test "$(sed -n "13p" ddd | cut -d, -f3)" = L1-dcache-prefetch-misses &&
	"$MPERF" stat -d -d -e task-clock -x, true 2>dd &&
	test_line_count = 11 dd
'

test_expect_success '--metric-only: a column per figure perf shows, none for /sec' '
	"$MPERF" stat --metric-only -x, -e task-clock,page-faults,duration_time true 2>m &&
	printf "\n\n" >expect &&
	same expect m &&
	"$MPERF" stat --metric-only -j -e task-clock,L1-dcache-loads,iTLB-loads true 2>j &&
	printf "{}\n{\"metric-value\" : \"\"}{\"metric-value\" : \"\"}\n" >expect &&
	same expect j &&
	"$MPERF" stat -I 100 --interval-count 2 --metric-only -x, -e task-clock,L1-dcache-loads "$CPUSPIN" 1 2>iv &&
	test_line_count = 3 iv &&
	head -n 1 iv >first && echo " time," >expect && same expect first &&
	test "$(grep -c "^ *[0-9]*\.[0-9]\{9\},,$" iv)" = 2 &&
	test_expect_code 129 "$MPERF" stat --metric-only -r 2 true 2>err &&
	one_error err stat "--metric-only is not supported with -r" &&
	test_expect_code 129 "$MPERF" stat --metric-only -a -A true 2>err &&
	one_error err stat "--metric-only is not supported with -A"
'

# get_ack FD: the next five bytes on FD, as od prints them, within 10 s.
get_ack () {
	timeout 10 head -c 5 <&"$1" | od -An -c | tr -s " "
}

test_expect_success '--control -D -1: a benchmark counts its measured phase alone, each command acknowledged' '
	mkfifo ctl ack &&
	"$MPERF" stat -D -1 --control=fifo:ctl,ack -x, -e task-clock "$TWOPHASE" 0.4 0.4 ctl ack 2>out &&
	grep -q "^twophase: 2 acks of 2$" out &&
	grep -q "^mperf stat: Events disabled$" out &&
	test "$(grep -c "^mperf stat: Events \(enabled\|disabled\)$" out)" = 3 &&
	ms=$(sed -n "s/^\([0-9.]*\),msec,task-clock,.*/\1/p" out) &&
	awk -v ms="$ms" "BEGIN { exit !(ms >= 390 && ms < 700) }" ||
		fail "task-clock $ms ms: not the measured phase (400 ms of CPU) alone"
'

test_expect_success '--control: ping, evlist acknowledged, stop too (and stat goes on, as perf stat), fd:' '
	exec 8<>ack 9<>ctl &&
	{ "$MPERF" stat --control=fifo:ctl,ack -x, -e task-clock,page-faults "$CPUSPIN" 0.5 2>h.err & } &&
	echo ping >&9 && test "$(get_ack 8)" = " a c k \n \0" &&
	echo evlist >&9 && test "$(get_ack 8)" = " a c k \n \0" &&
	echo "disable page-faults" >&9 && test "$(get_ack 8)" = " a c k \n \0" &&
	echo stop >&9 && test "$(get_ack 8)" = " a c k \n \0" &&
	wait &&
	grep -q "^mperf stat: page-faults$" h.err &&
	grep -q "^mperf stat: Event page-faults disabled$" h.err &&
	grep -q ",msec,task-clock," h.err &&
	"$MPERF" stat -D -1 --control=fd:9,8 -x, -e task-clock "$TWOPHASE" 0.1 0.2 ctl ack 2>fd.err &&
	exec 8<&- 9>&- &&
	grep -q "^twophase: 2 acks of 2$" fd.err &&
	"$MPERF" stat -D -1 -x, -e task-clock true 2>never &&
	grep -q "^<not counted>,msec,task-clock," never &&
	test_expect_code 129 "$MPERF" stat --control=pipe:x true 2>err &&
	head -n 1 err | grep -q "^mperf stat: invalid --control .pipe:x."
'

test_expect_success 'the modes refuse what they cannot do, in one line' '
	test_expect_code 129 "$MPERF" stat --interval-count 2 true 2>err &&
	one_error err stat "--interval-count needs -I$" &&
	test_expect_code 129 "$MPERF" stat -A true 2>err &&
	one_error err stat "-A needs -a or -C" &&
	test_expect_code 129 "$MPERF" stat -j -x, true 2>err &&
	one_error err stat "-j and -x cannot be used together" &&
	test_expect_code 129 "$MPERF" stat -I 100 -r 2 true 2>err &&
	test_expect_code 129 "$MPERF" stat -I 5 true 2>err &&
	test_expect_code 129 "$MPERF" stat -A --per-core -a true 2>err &&
	test_expect_code 129 "$MPERF" stat --per-thread true 2>err
'

test_expect_success '--baseline given -j lines says so' '
	"$MPERF" stat -j -r 2 -e task-clock -o l.json true &&
	test_expect_code 125 "$MPERF" stat -r 2 -e task-clock --baseline l.json true 2>err &&
	grep -q "perf.s -j JSON lines, not mperf.s document" err
'

# ---- against perf stat ----

test_expect_success PERF '-I 100 text, -x, -j: the shapes of perf stat'\''s' '
	for fmt in "" "-x," "-j"; do
		"$MPERF" stat -I 100 $fmt -e task-clock,context-switches,cycles "$NOPLOOP" 0.5 2>m &&
		"$PERF" stat -I 100 $fmt -e task-clock,context-switches,cycles "$NOPLOOP" 0.5 2>p &&
		# an interval the busy machine gave the workload no time in is <not counted>, in both
		shape m | grep -v "not counted" >m.shape && shape p | grep -v "not counted" >p.shape &&
		same p.shape m.shape || exit 1
	done &&
	"$MPERF" stat -I 100 -e task-clock "$NOPLOOP" 0.3 2>m &&
	"$PERF" stat -I 100 -e task-clock "$NOPLOOP" 0.3 2>p &&
	test "$(awk "NR == 2 { print index(\$0, \"msec task-clock\") }" m)" = \
	     "$(awk "NR == 2 { print index(\$0, \"msec task-clock\") }" p)"
'

test_expect_success PERF '-A, --per-core/socket/die/node -a: the shapes of perf stat'\''s' '
	for mode in -A --per-core --per-socket --per-die --per-node; do
		for fmt in "" "-x," "-j"; do
			"$MPERF" stat -a $mode $fmt -e task-clock,cycles sleep 0.1 2>m &&
			"$PERF" stat -a $mode $fmt -e task-clock,cycles sleep 0.1 2>p &&
			shape m >m.shape && shape p >p.shape &&
			same p.shape m.shape || exit 1
		done
	done
'

test_expect_success PERF 'duration_time, text, -x, -j: the shapes of perf stat'\''s' '
	for fmt in "" "-x," "-j"; do
		"$MPERF" stat $fmt -e duration_time,task-clock "$NOPLOOP" 0.1 2>m &&
		"$PERF" stat $fmt -e duration_time,task-clock "$NOPLOOP" 0.1 2>p &&
		shape m >m.shape && shape p >p.shape &&
		same p.shape m.shape || exit 1
	done
'

test_expect_success PERF '-d, -dd, -ddd, text, -x, -j: perf stat'\''s rows' '
	for d in -d -dd -ddd; do
		for fmt in "" "-x," "-j"; do
			"$MPERF" stat $d $fmt "$NOPLOOP" 0.05 2>m &&
			"$PERF" stat $d $fmt "$NOPLOOP" 0.05 2>p &&
			shape m >m.shape && shape p >p.shape &&
			same p.shape m.shape || exit 1
		done
	done &&
	"$MPERF" stat -dd -e task-clock -x, true 2>m && "$PERF" stat -dd -e task-clock -x, true 2>p &&
	cut -d, -f3 m >m.names && cut -d, -f3 p >p.names &&
	same p.names m.names
'

test_expect_success PERF '--metric-only, text, -x, -j, with and without -I: perf stat'\''s bytes' '
	for fmt in "" "-x," "-j"; do
		"$MPERF" stat --metric-only $fmt "$NOPLOOP" 0.05 2>m &&
		"$PERF" stat --metric-only $fmt "$NOPLOOP" 0.05 2>p &&
		sed -E "s/[0-9]+\.[0-9]+/N/" m >m.n && sed -E "s/[0-9]+\.[0-9]+/N/" p >p.n &&
		same p.n m.n || exit 1
		"$MPERF" stat -I 100 --metric-only $fmt -e task-clock,cycles,L1-dcache-loads "$NOPLOOP" 0.25 2>m &&
		"$PERF" stat -I 100 --metric-only $fmt -e task-clock,cycles,L1-dcache-loads "$NOPLOOP" 0.25 2>p &&
		sed -E "s/[0-9]+\.[0-9]+/N/" m | sort -u >m.n && sed -E "s/[0-9]+\.[0-9]+/N/" p | sort -u >p.n &&
		same p.n m.n || exit 1
	done
'

test_expect_success PERF '--control -D -1: the lines of perf stat'\''s' '
	test -p ctl || mkfifo ctl ack &&
	"$MPERF" stat -D -1 --control=fifo:ctl,ack -e task-clock "$TWOPHASE" 0.1 0.2 ctl ack 2>m &&
	"$PERF" stat -D -1 --control=fifo:ctl,ack -e task-clock "$TWOPHASE" 0.1 0.2 ctl ack 2>p &&
	sed "s/^mperf stat: //" m | grep -v "seconds user\|seconds sys" >m.s && grep -v "seconds user\|seconds sys" p >p.s &&
	shape m.s >m.shape && shape p.s >p.shape &&
	same p.shape m.shape
'

test_expect_success PERF '-r 3 --table: the shape of perf stat'\''s' '
	"$MPERF" stat -r 3 --table -e task-clock "$NOPLOOP" 0.05 2>m &&
	"$PERF" stat -r 3 --table -e task-clock "$NOPLOOP" 0.05 2>p &&
	sed -E "s/[0-9][0-9.,]*/N/g; s/#+/#/g; s/ +/ /g; s/\([-+]N\)/(N)/" m >m.shape &&
	sed -E "s/[0-9][0-9.,]*/N/g; s/#+/#/g; s/ +/ /g; s/\([-+]N\)/(N)/" p >p.shape &&
	same p.shape m.shape
'

test_expect_success PERF '-j -r 2: the shape of perf stat'\''s' '
	"$MPERF" stat -j -r 2 -e task-clock,page-faults,cycles "$NOPLOOP" 0.1 2>m &&
	"$PERF" stat -j -r 2 -e task-clock,page-faults,cycles "$NOPLOOP" 0.1 2>p &&
	shape m >m.shape && shape p >p.shape &&
	same p.shape m.shape
'

test_expect_success PERF '--per-thread -p: the shape of perf stat'\''s' '
	{ "$NOPLOOP" 3 & } &&
	pid=$! &&
	{ "$MPERF" stat -p $pid --per-thread -e task-clock,cycles sleep 0.2 2>m; rc1=$?; } &&
	{ "$PERF" stat -p $pid --per-thread -e task-clock,cycles sleep 0.2 2>p; rc2=$?; } &&
	kill $pid &&
	test $rc1 = 0 && test $rc2 = 0 &&
	sed -n "4,5p" m >m4 && sed -n "4,5p" p >p4 &&
	grep -q "noploop-$pid" m4 &&
	shape m4 >m.shape && shape p4 >p.shape &&
	same p.shape m.shape
'

test_done
