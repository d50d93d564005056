#!/bin/bash
# Errors in the user's terms: one line "mperf CMD: ...", then at most one
# line of hint, never the whole usage; conflicting options refused.

. "$(dirname "$0")/lib.sh"

# one_error FILE CMD PATTERN: FILE is the error line (matching PATTERN)
# and, for a usage error, one hint line; no usage text, no errno text for
# what the message says in words.
one_error () {
	cat "$1"
	head -n 1 "$1" | grep -q "^mperf $2: $3" || fail "not the error line: $3" || return 1
	n=$(wc -l <"$1")
	test "$n" = 1 || { test "$n" = 2 && tail -n 1 "$1" | grep -q "^hint: see "; } ||
		fail "more than the line and a hint" || return 1
	! grep -q "^usage:\|^ *-e, --event" "$1" || fail "the usage is printed"
}

test_expect_success 'setup: a recording' '
	"$MPERF" record -q -e cpu-clock -o f.data true
'

test_expect_success 'an unknown event' '
	test_expect_code 129 "$MPERF" record -e nosuchevent true 2>err &&
	one_error err record "unknown event .nosuchevent.$" &&
	grep -q "^hint: see .mperf list." err &&
	! test -e perf.data
'

test_expect_success 'a bad modifier' '
	test_expect_code 129 "$MPERF" record -e cycles:z true 2>err &&
	one_error err record "bad modifier .z. in .cycles:z." &&
	grep -q "^hint: see .mperf record -h.$" err
'

test_expect_success 'a bad -m' '
	test_expect_code 129 "$MPERF" record -m 3X true 2>err &&
	one_error err record "invalid argument for -m/--mmap-pages: .3X."
'

test_expect_success 'a bad -F' '
	test_expect_code 129 "$MPERF" record -F abc true 2>err &&
	one_error err record "invalid frequency .abc. for -F/--freq"
'

test_expect_success 'a bad -c' '
	test_expect_code 129 "$MPERF" record -c 0 true 2>err &&
	one_error err record "invalid period .0. for -c/--count"
'

test_expect_success 'a missing file' '
	test_expect_code 125 "$MPERF" report -i nofile.data 2>err &&
	one_error err report "cannot open .nofile.data.: No such file or directory$"
'

test_expect_success 'a directory as the file: its header file dir/data, as perf reads it' '
	mkdir dir &&
	test_expect_code 125 "$MPERF" report -i dir 2>err &&
	one_error err report "cannot open .dir/data.: No such file or directory$"
'

test_expect_success 'a file-mode file on a pipe: named as given, not stdin' '
	test_expect_code 125 "$MPERF" report -i <(cat f.data) 2>err &&
	one_error err report "./dev/fd/[0-9]*.: a file-mode perf.data cannot be read from a pipe" &&
	! grep -q stdin err
'

test_expect_success 'on standard input it is stdin' '
	cat f.data | test_expect_code 125 "$MPERF" report -i - 2>err &&
	one_error err report ".stdin.: a file-mode perf.data cannot be read from a pipe"
'

test_expect_success 'conflicting options are refused: --json with -D, --header (with --stats it is the stats as JSON)' '
	"$MPERF" report -i f.data --json --stats >out &&
	grep -q "\"version\"" out &&
	for o in -D --header --header-only; do
		test_expect_code 129 "$MPERF" report -i f.data --json $o >out 2>err &&
		test_must_be_empty out &&
		one_error err report "--json cannot be used with" || { echo "for $o"; exit 1; }
	done
'

test_expect_success 'conflicting options are refused: -D with --stats, -s with -D' '
	test_expect_code 129 "$MPERF" report -i f.data -D --stats 2>err &&
	one_error err report "-D and --stats cannot be used together" &&
	test_expect_code 129 "$MPERF" report -i f.data -s dso --stats 2>err &&
	one_error err report "-s/--sort cannot be used with --stats" &&
	test_expect_code 129 "$MPERF" report -i f.data -D --comms true 2>err &&
	one_error err report "--comms cannot be used with -D"
'

test_expect_success 'a sort key twice is taken once, as perf takes it' '
	"$MPERF" report -i f.data -s comm >want &&
	"$MPERF" report -i f.data -s comm,comm >out 2>err &&
	test_must_be_empty err &&
	cmp want out &&
	"$MPERF" report -i f.data -s C,Comm >out &&
	cmp want out
'

test_expect_success 'record: -F with -c, -q with -v' '
	test_expect_code 129 "$MPERF" record -F 100 -c 100 true 2>err &&
	one_error err record "-F and -c cannot be used together" &&
	test_expect_code 129 "$MPERF" record -q -v true 2>err &&
	one_error err record "-q and -v cannot be used together"
'

test_expect_success 'an unknown command' '
	test_expect_code 129 "$MPERF" recrod 2>err &&
	cat err &&
	grep -q "^mperf: .recrod. is not a mperf command; did you mean .record.?$" err &&
	test_line_count = 2 err
'

test_expect_success 'an unknown option' '
	test_expect_code 129 "$MPERF" record --evnt cycles true 2>err &&
	one_error err record "unknown option .--evnt.; did you mean .--event.?$"
'

test_expect_success 'an unknown option of report, and an argument report does not take' '
	test_expect_code 129 "$MPERF" report --jsn 2>err &&
	one_error err report "unknown option .--jsn.; did you mean .--json.?$" &&
	test_expect_code 129 "$MPERF" report f.data 2>err &&
	one_error err report "unexpected argument .f.data. (the input is given with -i)$"
'

# Every command mperf --help lists, through its option table: an unknown
# option is one line and the hint, exit 129, never getopt's words or the
# whole usage.
for cmd in $("$MPERF" --help | sed -n "s/^   \([a-z][a-z-]*\) .*/\1/p"); do
	test_expect_success "an unknown option of $cmd: one line and the hint" '
		test_expect_code 129 "$MPERF" '$cmd' -Z 2>err &&
		one_error err '$cmd' "unknown option .-Z.$" &&
		test_line_count = 2 err &&
		test_expect_code 129 "$MPERF" '$cmd' --no-such-option 2>err &&
		one_error err '$cmd' "unknown option .--no-such-option.$" &&
		test_line_count = 2 err
	'
done

test_expect_success 'script -j (an unknown letter): one line, no usage' '
	test_expect_code 129 "$MPERF" script -j -i f.data 2>err &&
	one_error err script "unknown option .-j.$" &&
	test_line_count = 2 err &&
	! grep -q "invalid option" err
'

test_expect_success 'script: a near long option is named, a missing value said' '
	test_expect_code 129 "$MPERF" script --inpt f.data 2>err &&
	one_error err script "unknown option .--inpt.; did you mean .--input.?$" &&
	test_expect_code 129 "$MPERF" script -i 2>err &&
	one_error err script "option .-i. needs a value$" &&
	test_expect_code 129 "$MPERF" script -i f.data extra 2>err &&
	one_error err script "unexpected argument .extra.$" &&
	test_line_count = 2 err
'

test_expect_success 'stat: a near long option, a missing value, a bad value' '
	test_expect_code 129 "$MPERF" stat --evnt cycles true 2>err &&
	one_error err stat "unknown option .--evnt.; did you mean .--event.?$" &&
	test_expect_code 129 "$MPERF" stat -e 2>err &&
	one_error err stat "option .-e. needs a value$" &&
	test_expect_code 129 "$MPERF" stat --json=1 true 2>err &&
	one_error err stat "option .--json. takes no value$" &&
	test_expect_code 129 "$MPERF" stat -r 0 true 2>err &&
	one_error err stat "invalid repeat count .0.$" &&
	test_expect_code 129 "$MPERF" stat -e nosuchevent true 2>err &&
	one_error err stat "unknown event .nosuchevent.$" &&
	grep -q "^hint: see .mperf list." err
'

test_expect_success 'diff: --json and a text option, the first named; a bad -o' '
	test_expect_code 129 "$MPERF" diff --json -p -q f.data f.data 2>err &&
	one_error err diff "--json cannot be used with -q/--quiet: " &&
	test_expect_code 129 "$MPERF" diff -F -c ratio --json f.data f.data 2>err &&
	one_error err diff "--json cannot be used with -F/--formula: " &&
	test_expect_code 129 "$MPERF" diff -o 3 f.data f.data 2>err &&
	one_error err diff "invalid order .3. for -o" &&
	test_expect_code 129 "$MPERF" diff --perod f.data f.data 2>err &&
	one_error err diff "unknown option .--perod.; did you mean .--period.?$"
'

test_expect_success 'record: conflicting options, a missing value, a value for a flag' '
	test_expect_code 129 "$MPERF" record -F 100 -c 100 true 2>err &&
	one_error err record "-F and -c cannot be used together: " &&
	test_expect_code 129 "$MPERF" record -q -v true 2>err &&
	one_error err record "-q and -v cannot be used together$" &&
	test_expect_code 129 "$MPERF" record --filter 2>err &&
	one_error err record "option .--filter. needs a value$" &&
	test_expect_code 129 "$MPERF" record --strict-freq=1 true 2>err &&
	one_error err record "option .--strict-freq. takes no value$" &&
	test_expect_code 129 "$MPERF" record --call-graph bogus true 2>err &&
	one_error err record "unknown --call-graph mode .bogus." &&
	! test -e perf.data
'

test_expect_success 'report: each conflict names the options given, in one line' '
	test_expect_code 129 "$MPERF" report -i f.data -n --comm x -D 2>err &&
	one_error err report "-n/--show-nr-samples cannot be used with -D, which prints records" &&
	test_expect_code 129 "$MPERF" report -i f.data --dso x --stats 2>err &&
	one_error err report "--dsos cannot be used with --stats, which prints records" &&
	test_expect_code 129 "$MPERF" report -i f.data --format folded --header --json 2>err &&
	one_error err report "--format cannot be used with --json: " &&
	test_expect_code 129 "$MPERF" report -i f.data -o x 2>err &&
	one_error err report "-o/--output goes with --format " &&
	test_expect_code 129 "$MPERF" report -i f.data --kallsyms /proc/kallsyms --stats 2>err &&
	one_error err report "--kallsyms cannot be used with --stats, which names no symbols$" &&
	test_expect_code 129 "$MPERF" report -i f.data --check --json 2>err &&
	one_error err report "--check goes alone or with --stats --json " &&
	"$MPERF" report -i f.data --check --stats --json >/dev/null &&
	test_expect_code 129 "$MPERF" report -i f.data --comm 2>err &&
	one_error err report "option .--comm. needs a value$"
'

test_expect_success 'report: a bad -g or --check-tolerance is a usage error with its hint' '
	test_expect_code 129 "$MPERF" report -i f.data -g bogus 2>err &&
	one_error err report "invalid -g argument .bogus. (bogus)$" &&
	test_line_count = 2 err &&
	test_expect_code 129 "$MPERF" report -i f.data --check-tolerance 300 2>err &&
	one_error err report "invalid --check-tolerance .300. " &&
	test_line_count = 2 err
'

test_expect_success 'mperf: an unknown option and mperf help with two commands, one line and the hint' '
	test_expect_code 129 "$MPERF" --bogus 2>err &&
	grep -q "^mperf: unknown option .--bogus.$" err &&
	test_line_count = 2 err &&
	test_expect_code 129 "$MPERF" help record report 2>err &&
	grep -q "^mperf help: one command at a time$" err &&
	grep -q "^hint: see .mperf --help.$" err &&
	test_line_count = 2 err
'

test_expect_success NOPMU 'an event this machine lacks: not supported, no errno text' '
	test_expect_code 125 "$MPERF" record -e instructions -o i.data true 2>err &&
	one_error err record "event .instructions. is not supported on this machine (no hardware PMU" &&
	! grep -q "No such file or directory" err &&
	! test -e i.data
'

test_expect_success NOPMU 'cycles:u falls back, said in words' '
	"$MPERF" record -e cycles:u -o u.data true 2>all &&
	grep -v "^\[ mperf record: " all >err &&
	one_error err record ".cycles. is not supported on this machine (no hardware PMU.*falling back to .cpu-clock." &&
	! grep -q "No such file or directory" err
'

test_expect_success 'a PMU that does not exist' '
	test_expect_code 129 "$MPERF" record -e nopmu/config=1/ true 2>err &&
	one_error err record "no such PMU .nopmu. on this machine"
'

test_done
