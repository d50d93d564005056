#!/usr/bin/env bash
# The pager: report, script and diff page their text when standard output
# is a terminal (script(1) gives them one), never into a pipe; --no-pager
# and PAGER=cat turn it off, MPERF_PAGER and PERF_PAGER come before PAGER.
. "$(dirname "$0")/lib.sh"

have_script () { command -v script >/dev/null 2>&1; }

# on_tty CMD...: CMD with its standard output on a pseudo-terminal.
on_tty () {
	script -qec "$*" /dev/null </dev/null
}

test_expect_success 'a recording, and a pager that says it ran' '
	"$MPERF" record -q -e cpu-clock -o p.data "$NOPLOOP" 0.2 &&
	cat >pg.sh <<-\EOF &&
	#!/bin/sh
	echo "LESS=$LESS" >>pager.ran
	cat >pager.out
	EOF
	chmod +x pg.sh
'

test_expect_success SCRIPT 'report on a terminal: its text goes through $PAGER' '
	rm -f pager.ran pager.out &&
	PAGER=./pg.sh on_tty "\"$MPERF\" report --stdio -i p.data" >tty.out &&
	test -s pager.ran &&
	grep -q "^LESS=FRSX$" pager.ran &&
	"$MPERF" report --stdio -i p.data >expect &&
	cmp expect pager.out
'

test_expect_success SCRIPT 'report into a pipe: no pager' '
	rm -f pager.ran &&
	PAGER=./pg.sh "$MPERF" report --stdio -i p.data >out &&
	test -s out &&
	test ! -e pager.ran
'

test_expect_success SCRIPT '--no-pager, PAGER=cat and an empty PAGER: no pager' '
	rm -f pager.ran &&
	PAGER=./pg.sh on_tty "\"$MPERF\" --no-pager report --stdio -i p.data" >tty.out &&
	test ! -e pager.ran &&
	grep -q "Samples:" tty.out &&
	PAGER=cat MPERF_PAGER= PERF_PAGER= on_tty "\"$MPERF\" report --stdio -i p.data" >tty.out &&
	grep -q "Samples:" tty.out &&
	PAGER= on_tty "\"$MPERF\" report --stdio -i p.data" >tty.out &&
	grep -q "Samples:" tty.out
'

test_expect_success SCRIPT 'MPERF_PAGER, then PERF_PAGER, then PAGER' '
	rm -f pager.ran &&
	MPERF_PAGER=./pg.sh PERF_PAGER=false PAGER=false on_tty "\"$MPERF\" report --stdio -i p.data" &&
	test -s pager.ran && rm pager.ran &&
	PERF_PAGER=./pg.sh PAGER=false on_tty "\"$MPERF\" report --stdio -i p.data" &&
	test -s pager.ran
'

test_expect_success SCRIPT 'script and diff page too; --paginate pages into a pipe' '
	rm -f pager.ran &&
	PAGER=./pg.sh on_tty "\"$MPERF\" script -i p.data" >/dev/null &&
	test -s pager.ran && rm pager.ran &&
	"$MPERF" script -i p.data >expect &&
	cmp expect pager.out &&
	PAGER=./pg.sh on_tty "\"$MPERF\" diff p.data p.data" >/dev/null &&
	test -s pager.ran && rm pager.ran &&
	PAGER=./pg.sh "$MPERF" --paginate report --stdio -i p.data >out &&
	test -s pager.ran &&
	test ! -s out
'

test_expect_success SCRIPT 'an error before the output is not paged; the status is the command'\''s' '
	rm -f pager.ran &&
	test_expect_code 125 env PAGER=./pg.sh script -qec "\"$MPERF\" report --stdio -i nothere.data" /dev/null </dev/null >tty.out &&
	grep -q "nothere.data" tty.out &&
	test ! -e pager.ran
'

test_done
