#!/bin/bash
# mperf stat: counting mode in perf stat 6.1's shapes (the text table,
# -x's CSV fields, -r's noise, the elapsed and user/sys lines), on record's
# targets, and mperf's JSON document.  Counts are checked against the
# workload's CPU time (cpuspin) and against perf stat of the same command,
# never against a wall-clock loop.

# (leaks checked in the sanitizer pass too: see tests/lib.sh)
MPERF_TEST_LEAKS=1
. "$(dirname "$0")/lib.sh"

# The fields of perf stat -x's line: count, unit, event, [noise,] run time,
# running percentage, metric value, metric unit.
test_expect_success 'stat -x, gives perf stat -x fields for each event, in order' '
	"$MPERF" stat -x, -e task-clock,context-switches,page-faults "$CPUSPIN" 0.3 2>out &&
	test_line_count = 3 out &&
	awk -F, "NF != 7 { print \"fields:\", NF, \$0; bad = 1 } END { exit bad }" out &&
	test "$(cut -d, -f3 out | tr "\n" " ")" = "task-clock context-switches page-faults " &&
	test "$(cut -d, -f2 out | tr "\n" " ")" = "msec   " &&
	grep -q "^[0-9]*\.[0-9][0-9],msec,task-clock,[0-9]*,100.00,[0-9]*\.[0-9][0-9][0-9],CPUs utilized$" out &&
	grep -q "^[0-9]*,,page-faults,[0-9]*,100.00,[0-9.]*,[KMG]\{0,1\}/sec$" out &&
	ms=$(awk -F, "\$3 == \"task-clock\" { printf \"%d\", \$1 }" out) &&
	# 85%: on a loaded machine task-clock was seen 6% under the CPU time cpuspin reads
	test_between 255 375 "$ms" "task-clock of 300 ms of CPU (ms)"
'

test_expect_success 'the /sec figure is the count over the clock, as perf derives it' '
	"$MPERF" stat -x, -e task-clock,page-faults "$CPUSPIN" 0.2 2>out &&
	awk -F, "
		\$3 == \"task-clock\" { ms = \$1 }
		\$3 == \"page-faults\" { n = \$1; rate = \$6; if (\$7 == \"K/sec\") rate *= 1000 }
		END { want = n / (ms / 1000); d = rate - want; if (d < 0) d = -d;
		      if (!n || d > want / 100) { print \"rate\", rate, \"want\", want; exit 1 } }" out
'

test_expect_success '-x takes any separator' '
	"$MPERF" stat -x";" -e task-clock "$CPUSPIN" 0.1 2>out &&
	grep -q "^[0-9.]*;msec;task-clock;[0-9]*;100.00;[0-9.]*;CPUs utilized$" out
'

test_expect_success 'the text table: counts, msec, the # column, elapsed, user and sys' '
	"$MPERF" stat -e task-clock,page-faults,minor-faults "$CPUSPIN" 0.1 2>out &&
	grep -q "^ Performance counter stats for '\''$CPUSPIN 0.1'\'':$" out &&
	grep -q "^ *[0-9]*\.[0-9][0-9] msec task-clock  *#  *[0-9.]* CPUs utilized  *$" out &&
	grep -q "^ *[0-9]*      page-faults  *#  *[0-9.]* [KMG]\{0,1\}/sec  *$" out &&
	grep -q "^ *[0-9]*\.[0-9]\{9\} seconds time elapsed$" out &&
	grep -q "^ *[0-9]*\.[0-9]\{9\} seconds user$" out &&
	grep -q "^ *[0-9]*\.[0-9]\{9\} seconds sys$" out &&
	! grep -q "[(]" out
'

test_expect_success 'no clock counted: no /sec figure, as perf' '
	"$MPERF" stat -e page-faults "$CPUSPIN" 0.1 2>out &&
	grep "page-faults" out >line &&
	! grep -q "#" line
'

test_expect_success '-r N: the mean, +- noise, and the elapsed time with its stddev' '
	"$MPERF" stat -r 3 -e task-clock "$CPUSPIN" 0.1 2>out &&
	grep -q "^ Performance counter stats for '\''$CPUSPIN 0.1'\'' (3 runs):$" out &&
	grep -q "CPUs utilized  *( +- *[0-9.]*% )$" out &&
	grep -q "^ *[0-9.]* +- [0-9.]* seconds time elapsed" out &&
	! grep -q "seconds user" out &&
	"$MPERF" stat -r 3 -x, -e task-clock,major-faults "$CPUSPIN" 0.1 2>csv &&
	awk -F, "NF != 8 || \$4 !~ /%\$/ { print; bad = 1 } END { exit bad }" csv
'

# Each line of perf's output and of ours with its numbers replaced and its
# blanks squeezed: the same lines in the same order (the noise column,
# absent when a count did not vary, is left out).
shape () {
	sed -e 's/( +- *[0-9.]*% )//' -e 's/[0-9][0-9.,]*/N/g' -e 's/[KMG]\/sec/\/sec/' -e 's/  */ /g' \
		-e 's/ $//' -e "s|$CPUSPIN|CMD|" "$1"
}

test_expect_success PERF 'the same lines as perf stat -r 5 of the same command' '
	"$PERF" stat -e task-clock,context-switches,page-faults -r 5 "$CPUSPIN" 0.1 2>p.out &&
	"$MPERF" stat -e task-clock,context-switches,page-faults -r 5 "$CPUSPIN" 0.1 2>m.out &&
	shape p.out >p.shape && shape m.out >m.shape &&
	diff p.shape m.shape
'

test_expect_success PERF 'the same line widths as perf stat (one run, with <not supported>)' '
	"$PERF" stat -e task-clock,page-faults,major-faults,cycles "$CPUSPIN" 0.1 2>p.out &&
	"$MPERF" stat -e task-clock,page-faults,major-faults,cycles "$CPUSPIN" 0.1 2>m.out &&
	awk "{ print length(\$0) }" p.out >p.len && awk "{ print length(\$0) }" m.out >m.len &&
	diff p.len m.len
'

test_expect_success PERF 'counts agree with perf stat -x, of the same command' '
	"$PERF" stat -x, -e task-clock,page-faults,cpu-clock "$CPUSPIN" 0.3 2>p.csv &&
	"$MPERF" stat -x, -e task-clock,page-faults,cpu-clock "$CPUSPIN" 0.3 2>m.csv &&
	test "$(cut -d, -f2,3,5 p.csv)" = "$(cut -d, -f2,3,5 m.csv)" &&
	for ev in task-clock cpu-clock page-faults; do
		p=$(awk -F, -v e=$ev "\$3 == e { printf \"%d\", \$1 }" p.csv) &&
		m=$(awk -F, -v e=$ev "\$3 == e { printf \"%d\", \$1 }" m.csv) &&
		test_within_pct 20 "$p" "$m" || exit 1
	done
'

test_expect_success 'the default events are perf stat'\''s' '
	"$MPERF" stat -x, "$CPUSPIN" 0.1 2>out &&
	test "$(cut -d, -f3 out | tr "\n" " ")" = "task-clock context-switches cpu-migrations page-faults cycles instructions branches branch-misses "
'

test_expect_success NOPMU 'events this machine lacks are <not supported>, as perf says' '
	"$MPERF" stat -x, -e task-clock,cycles "$CPUSPIN" 0.1 2>out &&
	grep -q "^<not supported>,,cycles,0,100.00,,$" out
'

test_expect_success 'the workload'\''s exit status is passed through' '
	test_expect_code 0 "$MPERF" stat -e task-clock true 2>out &&
	test_expect_code 1 "$MPERF" stat -e task-clock false 2>out &&
	grep -q "task-clock" out &&
	test_expect_code 3 "$MPERF" stat -e task-clock sh -c "exit 3" 2>out &&
	test_expect_code 127 "$MPERF" stat -e task-clock ./no-such-command 2>out &&
	grep -q "no-such-command" out
'

test_expect_success 'usage errors are 129' '
	test_expect_code 129 "$MPERF" stat 2>err &&
	grep -q "^mperf stat: no command given to run" err &&
	grep -q "^hint: see .mperf stat -h.$" err &&
	test_line_count = 2 err &&
	test_expect_code 129 "$MPERF" stat -r 0 true 2>err &&
	test_expect_code 129 "$MPERF" stat -e nosuchevent true 2>err &&
	grep -q nosuchevent err &&
	test_expect_code 0 "$MPERF" stat -h >out &&
	grep -q "usage: mperf stat" out
'

test_expect_success '-o FILE: the counts go to FILE' '
	"$MPERF" stat -o counts -x, -e task-clock "$CPUSPIN" 0.1 2>err &&
	test_must_be_empty err &&
	grep -q ",task-clock," counts
'

# The issue this answers: three events, two of them the same, are three
# entries, by index; an event that counted 0 is there too.
test_expect_success '--json: one document, a version, every event by index' '
	"$MPERF" stat --mperf-json -e cpu-clock,major-faults,cpu-clock "$CPUSPIN" 0.1 2>out &&
	python3 - out <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["version"] == 1, d
	assert d["runs"] == 1 and d["elapsed-ns"] > 0 and "user-ns" in d
	ev = d["events"]
	assert [e["index"] for e in ev] == [0, 1, 2], ev
	assert [e["event"] for e in ev] == ["cpu-clock", "major-faults", "cpu-clock"], ev
	for e in ev:
	    assert e["supported"] and e["counted"], e
	    assert e["event-runtime"] <= e["event-enabled"], e
	assert ev[0]["unit"] == "msec" and ev[0]["metric-unit"] == "CPUs utilized"
	assert ev[1]["counter-value"] == 0 and ev[1]["metric-unit"].endswith("/sec")
	EOF
'

test_expect_success '-a counts every CPU: the system wide header' '
	"$MPERF" stat -a -e task-clock "$CPUSPIN" 0.2 2>out &&
	grep -q "^ Performance counter stats for '\''system wide'\'':$" out &&
	! grep -q "seconds user" out &&
	"$MPERF" stat -C 0 -x, -e task-clock "$CPUSPIN" 0.1 2>csv &&
	grep -q ",msec,task-clock," csv
'

test_expect_success '-p without a command: counts until the process exits' '
	"$CPUSPIN" 0.5 &
	pid=$! &&
	"$MPERF" stat -x, -p $pid -e task-clock 2>out &&
	wait $pid &&
	ms=$(awk -F, "{ printf \"%d\", \$1 }" out) &&
	test_between 1 600 "$ms" "task-clock of the rest of 500 ms (ms)"
'

test_expect_success 'SIGINT ends a count of -a: the counts, then death by SIGINT' '
	"$MPERF" stat -a -x, -e task-clock 2>out &
	pid=$! &&
	sleep 0.5 &&
	# Again until the counts are out: one sent before mperf took SIGINT is
	# lost (a background job starts with SIGINT ignored).
	for i in $(seq 100); do
		kill -INT $pid 2>/dev/null || true
		sleep 0.2
		! grep -q task-clock out || break
	done &&
	rc=0 &&
	{ wait $pid || rc=$?; } &&
	test "$rc" = 130 &&
	grep -q ",msec,task-clock," out
'

# --- quiet and clean: another user at perf_event_paranoid 2 ----------------------

# The kernel is refused to that user: events fall back to user space, a notice.
have_unprivileged () {
	have_nobody && test "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2
}

test_expect_success UNPRIVILEGED 'the paranoid notice: said once for stat -r, not at all with -q' '
	mkdir -p nobody && chmod 777 nobody && cd nobody &&
	as_nobody "$MPERF" stat -r 3 -x, -e task-clock true 2>err &&
	test "$(grep -c "counting user space only" err)" = 1 &&
	as_nobody "$MPERF" stat -q -r 3 -x, -e task-clock,cycles true 2>err &&
	! grep -v "^[0-9.]*,\|^<not" err &&
	test "$(grep -c "task-clock:u" err)" = 1 &&
	as_nobody "$MPERF" record -q -e cycles -o q.data true 2>err &&
	test_must_be_empty err
'

test_expect_success UNPRIVILEGED 'stat --mperf-json 2>file: nothing but the JSON document in the file' '
	cd nobody &&
	as_nobody sh -c "\"\$MPERF\" stat --mperf-json -r 10 -e task-clock,cycles true 2>s.json" &&
	python3 -c "import json; d = json.load(open(\"s.json\")); assert d[\"runs\"] == 10 and d[\"events\"][0][\"event\"] == \"task-clock:u\", d" &&
	test_expect_code 7 as_nobody sh -c "\"\$MPERF\" stat --mperf-json --check -e task-clock,task-clock -- sh -c \"exit 7\" 2>f.json" &&
	python3 -c "import json; d = json.load(open(\"f.json\")); assert d[\"workload-status\"] == 7 and d[\"check\"][\"tolerance-pct\"] == 5, d"
'

test_expect_success UNPRIVILEGED '-a as another user: the hint names the level -a needs' '
	test_expect_code 125 as_nobody "$MPERF" stat -a -e cpu-clock true 2>err &&
	test_line_count = 1 err &&
	grep -q "kernel.perf_event_paranoid is [0-9]*, and every task of a CPU (-a, -C) needs 0 or less" err &&
	grep -q "sysctl kernel.perf_event_paranoid=0" err &&
	test_expect_code 125 as_nobody "$MPERF" record -a -e cpu-clock -o /dev/null true 2>err &&
	test_line_count = 1 err &&
	grep -q "every task of a CPU (-a, -C) needs 0 or less" err
'

test_done
