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

test_done
