#!/bin/bash
# The man pages: lint-clean for mandoc and groff, and complete (every
# option of -h is in its page).

. "$(dirname "$0")/lib.sh"

have_mandoc () {
	command -v mandoc >/dev/null 2>&1
}

have_groff () {
	command -v groff >/dev/null 2>&1
}

test_expect_success MANDOC,PLAIN 'mandoc -Tlint: no message on any page' '
	mandoc -Tlint "$MPERF_ROOT"/man/*.1 >out 2>&1 || true &&
	test_must_be_empty out
'

test_expect_success GROFF,PLAIN 'groff -man -ww -z: no warning on any page' '
	for f in "$MPERF_ROOT"/man/*.1; do
		groff -man -ww -z "$f" 2>&1 || exit 1
	done >out &&
	test_must_be_empty out
'

# Every long option in a command's -h text is documented in its page.
for cmd in record report stat diff annotate; do
	test_expect_success MANDOC,PLAIN "every option of mperf $cmd -h is in mperf-$cmd(1)" '
		mandoc -Tascii "$MPERF_ROOT/man/mperf-'$cmd'.1" | col -b >page &&
		"$MPERF" '$cmd' -h | grep -o -- "--[a-z][a-z-]*" | sort -u >opts &&
		test -s opts &&
		while read -r o; do
			grep -q -- "$o" page || { echo "$o is not in mperf-'$cmd'(1)"; exit 1; }
		done <opts
	'
done

test_expect_success PLAIN 'the seed command is an example in mperf(1) and mperf-record(1)' '
	grep -q "^mperf record \\\\-e cycles,cycles,cycles ./noploop 10$" "$MPERF_ROOT/man/mperf.1" &&
	grep -q "^mperf record \\\\-e cycles,cycles,cycles ./noploop 10$" "$MPERF_ROOT/man/mperf-record.1"
'

# Every example of a JSON document in the pages (an .EX block that starts
# with '{') is JSON a parser takes, once roff's escapes are undone.
test_expect_success PLAIN 'every JSON example of the man pages parses' '
	python3 - "$MPERF_ROOT"/man/*.1 <<-\EOF
	import json, re, sys
	n = 0
	for path in sys.argv[1:]:
	    page = open(path).read()
	    for block in re.findall(r"^\.EX\n(.*?)^\.EE", page, re.S | re.M):
	        text = block.replace("\\-", "-").replace("\\(aq", "\x27").replace("\\(dq", "\"").replace("\\e", "\\")
	        if text.lstrip().startswith("{"):
	            n += 1
	            json.loads(text)
	assert n >= 6, n
	EOF
'

test_done
