#!/bin/bash
# Exit statuses a CI job can tell apart: the workload's own status passed
# through (record, stat), mperf's failures 125 (as timeout(1) and env(1)),
# usage errors 129, a reader that went away 141.

. "$(dirname "$0")/lib.sh"

test_expect_success 'record: the workload'\''s 1 is 1, a failure of mperf is 125' '
	test_expect_code 1 "$MPERF" record -q -e cpu-clock -o a.data false &&
	test_expect_code 125 "$MPERF" record -q -e cpu-clock -o no/such/dir/a.data true 2>err &&
	test_line_count = 1 err &&
	grep -q "no/such/dir/a.data" err
'

test_expect_success 'record: a workload'\''s own 125 passes through, with nothing said' '
	test_expect_code 125 "$MPERF" record -q -e cpu-clock -o b.data sh -c "exit 125" 2>err &&
	test_must_be_empty err &&
	test -s b.data
'

test_expect_success 'stat: the workload'\''s status, or 125 for a failure of mperf' '
	test_expect_code 1 "$MPERF" stat -e task-clock false 2>err &&
	test_expect_code 42 "$MPERF" stat -e task-clock sh -c "exit 42" 2>err &&
	test_expect_code 125 "$MPERF" stat -e task-clock -p 2147483646 2>err &&
	test_line_count = 1 err
'

test_expect_success 'report: an unreadable input is 125, a usage error 129' '
	test_expect_code 125 "$MPERF" report -D -i no-such.data 2>err &&
	test_line_count = 1 err &&
	grep -q "no-such.data" err &&
	test_expect_code 129 "$MPERF" report --no-such-option 2>err
'

test_expect_success 'a command that is not found is 127, as the shell says' '
	test_expect_code 127 "$MPERF" record -q -e cpu-clock -o c.data ./no-such-command 2>err &&
	test_expect_code 127 "$MPERF" stat -e task-clock ./no-such-command 2>err
'

# --- statuses that cannot collide ----------------------------------------------

test_expect_success '--check-status: 1 to 124, else a usage error' '
	"$MPERF" record -q -e cpu-clock -o whole.data "$CPUSPIN" 0.3 &&
	for bad in 0 125 255 -1 x; do
		for c in "record --check-status $bad true" "stat --check-status $bad true" \
			"report --check-status $bad -i whole.data"; do
			test_expect_code 129 "$MPERF" $c 2>err &&
			test_line_count = 2 err &&
			grep -q "invalid --check-status .$bad. (an exit status, 1 to 124)" err || exit 1
		done
	done &&
	test_expect_code 0 "$MPERF" report --check --check-status 124 -i whole.data
'

test_expect_success 'record: a workload'\''s 3 and a failed check told apart by --check-status' '
	test_expect_code 3 "$MPERF" record -q --check --check-status 99 -e cpu-clock -o w3.data -- sh -c "exit 3" &&
	rc=0 &&
	"$MPERF" record -q --check --check-status 99 -m 1 -c 20000 -e cpu-clock,cpu-clock,cpu-clock \
		-o lossy.data "$CPUSPIN" 0.5 2>err || rc=$? &&
	if grep -q "^mperf record: check: " err; then test $rc = 99; else test $rc = 0; fi
'

# A killed recorder leaves data size 0 in the header: made by hand from a whole one.
test_expect_success 'report --check: an unfinished recording fails the check; report alone warns' '
	python3 -c "import sys, struct; b = bytearray(open(sys.argv[1], \"rb\").read()); struct.pack_into(\"<Q\", b, 48, 0); open(sys.argv[2], \"wb\").write(b)" whole.data killed.data &&
	test_expect_code 0 "$MPERF" report --check -i whole.data 2>err &&
	test_must_be_empty err &&
	test_expect_code 3 "$MPERF" report --check -i killed.data 2>err &&
	grep -q "^mperf report: check: .killed.data. is an unfinished recording (data size 0 in its header" err &&
	test_expect_code 99 "$MPERF" report --check --check-status 99 -i killed.data 2>err &&
	test_expect_code 0 "$MPERF" report -i killed.data >/dev/null 2>err &&
	grep -q "warning: .killed.data.: the data size field is 0" err
'

test_expect_success 'a recorder killed with SIGKILL: report --check fails' '
	"$MPERF" record -q -e cpu-clock -o sigkill.data sh -c "echo \$\$ >wl.pid; exec \"\$0\" 30" "$CPUSPIN" &
	pid=$! &&
	for i in $(seq 100); do test -s sigkill.data && break; sleep 0.1; done &&
	sleep 0.5 && kill -KILL $pid && { wait $pid || true; } &&
	kill -KILL "$(cat wl.pid)" &&	# the workload outlives its recorder
	rc=0 && "$MPERF" report --check -i sigkill.data 2>err || rc=$? &&
	cat err &&
	test $rc = 3 || test $rc = 1
'

# Cut in the middle of its data: every view says it the same way.
test_expect_success 'a cut file is 1 in every view, after one error line' '
	python3 -c "import sys, struct; b = open(sys.argv[1], \"rb\").read(); o, n = struct.unpack_from(\"<QQ\", b, 40); open(sys.argv[2], \"wb\").write(b[:o + n // 2 + 3])" whole.data cut.data &&
	for view in "report" "report -D" "report --stats" "report --stats --json" "report --check" \
		"report --json" "report --format=folded" "script" "buildid-list"; do
		test_expect_code 1 "$MPERF" $view -i cut.data >out 2>err &&
		test_line_count = 1 err &&
		grep -q "file is truncated" err || { echo "# $view" >&2; exit 1; }
	done &&
	test_expect_code 1 "$MPERF" report --format=folded -o cut.folded -i cut.data 2>err &&
	! test -e cut.folded &&
	test_expect_code 1 "$MPERF" diff whole.data cut.data >out 2>err &&
	test_line_count = 1 err &&
	test_expect_code 1 "$MPERF" diff cut.data whole.data >out 2>err &&
	test_line_count = 1 err
'

count_runs () {
	# a workload that counts its runs in file runs, and exits $1 on run $2
	echo "n=\$(cat runs 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >runs; test \$n = $2 && exit $1; exit 0"
}

test_expect_success 'stat -r: a failing run ends the runs with its status, not averaged in' '
	rm -f runs &&
	test_expect_code 7 "$MPERF" stat -r 5 -x, -e task-clock -- sh -c "$(count_runs 7 2)" 2>err &&
	test "$(cat runs)" = 2 &&
	grep -q "^mperf stat: run 2 of 5: the workload exited with status 7: stopped; the counts are of the 1 run before it$" err &&
	rm -f runs &&
	test_expect_code 7 "$MPERF" stat -r 3 --mperf-json -o s.json -e task-clock -- sh -c "$(count_runs 7 3)" 2>err &&
	python3 -c "import json; d = json.load(open(\"s.json\")); assert (d[\"runs\"], d[\"workload-status\"], d[\"workload-statuses\"]) == (2, 7, [0, 0, 7]), d" &&
	rm -f runs &&
	test_expect_code 7 "$MPERF" stat -r 3 --mperf-json -o s.json -e task-clock -- sh -c "$(count_runs 7 1)" 2>err &&
	grep -q "^mperf stat: run 1 of 3: the workload exited with status 7: stopped; the counts are of that run$" err &&
	python3 -c "import json; d = json.load(open(\"s.json\")); assert (d[\"runs\"], d[\"workload-statuses\"]) == (1, [7]), d" &&
	test_expect_code 137 "$MPERF" stat -r 3 -e task-clock -- sh -c "kill -KILL \$\$" 2>err &&
	grep -q "run 1 of 3: the workload was killed by signal 9" err &&
	rm -f runs &&
	test_expect_code 0 "$MPERF" stat -r 3 --mperf-json -o ok.json -e task-clock -- sh -c "$(count_runs 7 9)" &&
	python3 -c "import json; d = json.load(open(\"ok.json\")); assert (d[\"runs\"], d[\"workload-status\"], d[\"workload-statuses\"]) == (3, 0, [0, 0, 0]), d"
'

test_expect_success NOBODY 'stat -o and record --json-summary: an unwritable file fails before the workload runs' '
	mkdir ro && chmod 555 ro && chmod 777 . &&
	test_expect_code 125 as_nobody "$MPERF" stat -r 3 -o ro/s.txt -e task-clock -- sh -c "echo ran >>ran" 2>err &&
	test_line_count = 1 err &&
	grep -q "^mperf stat: cannot create .ro/s.txt.: Permission denied$" err &&
	! test -e ran &&
	test_expect_code 125 "$MPERF" stat -o ro -e task-clock -- sh -c "echo ran >>ran" 2>err &&
	! test -e ran &&
	test_expect_code 125 as_nobody "$MPERF" record -q -o ro.data --json-summary ro/j.json -e cpu-clock \
		-- sh -c "echo ran >>ran" 2>err &&
	! test -e ran && ! test -e ro.data &&
	test_expect_code 125 "$MPERF" report --format=folded -o ro -i whole.data 2>err &&
	test_line_count = 1 err
'

test_expect_success 'stat -o: written whole under its name, no temporary left' '
	"$MPERF" stat -o counts.txt -x, -e task-clock true &&
	grep -q ",task-clock," counts.txt &&
	test "$(ls | grep -c "counts.txt")" = 1
'

test_done
