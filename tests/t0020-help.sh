#!/bin/bash
# -h, help, --version and "did you mean": the synopsis each -h prints is
# its man page's SYNOPSIS, word for word (as git's t0450 checks its docs).

. "$(dirname "$0")/lib.sh"

have_mandoc () {
	command -v mandoc >/dev/null 2>&1 && command -v col >/dev/null 2>&1
}

# man_synopsis PAGE: the SYNOPSIS of man/PAGE.1 as plain text, whitespace squeezed.
man_synopsis () {
	printf "%s\n" "$(mandoc -Tascii -O width=400 "$MPERF_ROOT/man/$1.1" | col -b |
		sed -n '/^SYNOPSIS/,/^[A-Z]/p' | sed '1d;$d' | tr -s ' \t\n' '   ' |
		sed 's/^ //;s/ $//')"
}

# help_synopsis ARGS...: the usage lines of `mperf ARGS -h` (up to the
# first blank line), without "usage:" and "or:", whitespace squeezed.
help_synopsis () {
	printf "%s\n" "$("$MPERF" "$@" | sed '/^$/q' | sed 's/^ *usage: //;s/^ *or: //' | tr -s ' \t\n' '   ' |
		sed 's/^ //;s/ $//')"
}

# The commands mperf --help lists: one added later gets these tests, and
# needs its page, at once.
commands=$("$MPERF" --help | sed -n "s/^   \([a-z][a-z-]*\) .*/\1/p" | tr "\n" " ")
export commands

test_expect_success 'mperf --help lists record, report and list' '
	test -n "$commands" &&
	for c in record report list; do
		case " $commands " in *" $c "*) ;; *) exit 1 ;; esac
	done
'

for cmd in $commands; do
	test_expect_success MANDOC,PLAIN "mperf $cmd -h: its synopsis is mperf-$cmd(1)'s" '
		man_synopsis mperf-'$cmd' >expect &&
		help_synopsis '$cmd' -h >actual &&
		cat expect actual &&
		test -s expect &&
		diff expect actual
	'
	test_expect_success "mperf help $cmd is mperf $cmd -h" '
		"$MPERF" '$cmd' -h >expect &&
		"$MPERF" help '$cmd' >actual &&
		diff expect actual
	'
done

test_expect_success MANDOC,PLAIN 'mperf -h: its synopsis is mperf(1)'\''s' '
	man_synopsis mperf >expect &&
	help_synopsis -h >actual &&
	cat expect actual &&
	diff expect actual
'

test_expect_success 'mperf help is mperf --help' '
	"$MPERF" help >a &&
	"$MPERF" --help >b &&
	diff a b
'

# roff_name NAME: NAME as a man page writes it, each hyphen escaped.
roff_name () {
	printf "%s\n" "$1" | sed "s/-/\\\\-/g"
}

test_expect_success 'every command has a man page, and mperf(1) names it' '
	for c in $commands; do
		test -f "$MPERF_ROOT/man/mperf-$c.1" &&
		grep -qF ".BR mperf\\-$(roff_name $c) (1)" "$MPERF_ROOT/man/mperf.1" || { echo "mperf-$c"; exit 1; }
	done
'

test_expect_success 'mperf --version: the Makefile version, and git describe in a checkout' '
	"$MPERF" --version >out &&
	v=$(sed -n "s/^VERSION := *//p" "$MPERF_ROOT/Makefile") &&
	grep -q "^mperf version $v" out
'

test_expect_success 'an unknown command: the nearest one, in one line and a hint' '
	test_expect_code 129 "$MPERF" recrod 2>err &&
	cat err &&
	test_line_count = 2 err &&
	grep -q "^mperf: .recrod. is not a mperf command; did you mean .record.?$" err &&
	grep -q "^hint: see .mperf --help.$" err
'

test_expect_success 'an unknown command nothing is near: no suggestion' '
	test_expect_code 129 "$MPERF" frobnicate 2>err &&
	grep -q "^mperf: .frobnicate. is not a mperf command$" err
'

test_expect_success 'mperf help of an unknown command' '
	test_expect_code 129 "$MPERF" help reprot 2>err &&
	grep -q "^mperf help: .reprot. is not a mperf command; did you mean .report.?$" err
'

test_expect_success 'an unknown long option: the nearest, one line and a hint' '
	test_expect_code 129 "$MPERF" record --evnt cycles true 2>err &&
	cat err &&
	test_line_count = 2 err &&
	grep -q "^mperf record: unknown option .--evnt.; did you mean .--event.?$" err &&
	grep -q "^hint: see .mperf record -h.$" err &&
	test_expect_code 129 "$MPERF" report --jsn 2>err &&
	grep -q "^mperf report: unknown option .--jsn.; did you mean .--json.?$" err
'

test_expect_success 'an unknown short option, a missing value, a value for a flag, an ambiguous prefix' '
	test_expect_code 129 "$MPERF" record -Y true 2>err &&
	grep -q "^mperf record: unknown option .-Y.$" err &&
	test_expect_code 129 "$MPERF" record -e 2>err &&
	grep -q "^mperf record: option .-e. needs a value$" err &&
	test_expect_code 129 "$MPERF" report --input 2>err &&
	grep -q "^mperf report: option .--input. needs a value$" err &&
	test_expect_code 129 "$MPERF" record --quiet=1 true 2>err &&
	grep -q "^mperf record: option .--quiet. takes no value$" err &&
	test_expect_code 129 "$MPERF" report --s 2>err &&
	grep -q "^mperf report: option .--s. is ambiguous: " err
'

test_done
