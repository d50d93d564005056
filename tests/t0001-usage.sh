#!/bin/bash
# Command line: the dispatcher and record's option parsing.

. "$(dirname "$0")/lib.sh"

test_expect_success 'mperf without a command is a usage error' '
	test_expect_code 129 "$MPERF" >out 2>err &&
	grep "usage: mperf" err
'

test_expect_success 'mperf --help lists the commands' '
	test_expect_code 0 "$MPERF" --help >out 2>err &&
	grep "^ *record " out &&
	grep "^ *report " out
'

test_expect_success 'mperf --version' '
	test_expect_code 0 "$MPERF" --version >out &&
	grep "[0-9]\.[0-9]" out
'

test_expect_success 'an unknown command is a usage error' '
	test_expect_code 129 "$MPERF" bogus >out 2>err &&
	grep "bogus" err
'

test_expect_success 'record -h shows the options' '
	test_expect_code 0 "$MPERF" record -h >out 2>err &&
	grep "usage: mperf record" out &&
	grep -- "-e" out
'

test_expect_success 'record: an unknown event is a usage error that names it' '
	test_expect_code 129 "$MPERF" record -e nosuchevent true 2>err &&
	grep "nosuchevent" err &&
	! test -e perf.data
'

test_expect_success 'record: an unknown event inside a list' '
	test_expect_code 129 "$MPERF" record -e cpu-clock,nosuchevent true 2>err &&
	grep "nosuchevent" err
'

# 65 valid names: only the limit of 64 events can refuse them.
test_expect_success 'record: more events than mperf records is a usage error' '
	list=cpu-clock$(printf ",cpu-clock%.0s" $(seq 64)) &&
	test_expect_code 129 "$MPERF" record -e "$list" true 2>err &&
	grep "too many events" err &&
	! test -e perf.data
'

test_expect_success 'record: -F with -c is a usage error' '
	test_expect_code 129 "$MPERF" record -F 100 -c 100 true 2>err &&
	test -s err
'

test_expect_success 'record: no command is a usage error' '
	test_expect_code 129 "$MPERF" record 2>err &&
	test -s err
'

test_expect_success 'record: an -m that is neither pages nor a size is a usage error' '
	test_expect_code 129 "$MPERF" record -m 3X true 2>err &&
	grep -- "invalid argument for -m/--mmap-pages: '\''3X'\''" err &&
	! test -e perf.data
'

test_done
