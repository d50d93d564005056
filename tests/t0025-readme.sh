#!/bin/bash
# README.md's claims, run as a reader would run them: the demo's command
# lines by hand (shorter), the fallback line it quotes, the CI block's
# commands on a short workload, and a command for each row of its table.

. "$(dirname "$0")/lib.sh"

README=$MPERF_ROOT/README.md

# The indented lines of README.md that start with PREFIX.
readme_lines () {
	sed -n "s|^    \\($1.*\\)|\\1|p" "$README"
}

test_expect_success 'the demo by hand: the three commands, from the root' '
	readme_lines "./mperf " >cmds &&
	test_line_count = 3 cmds &&
	sed "s|noploop 3|noploop 0.3|; s|/tmp/demo.data|$TRASH_DIRECTORY/demo.data|" cmds >run.sh &&
	(cd "$MPERF_ROOT" && bash -e "$TRASH_DIRECTORY/run.sh") >out 2>err &&
	grep -q "^Aggregated stats:" out &&
	test "$(grep -c "^[a-z-]* stats:$" out)" = 3 &&
	grep -q "^# Samples: " out
'

test_expect_success NOPMU 'the demo: its first line is the one README quotes' '
	readme_lines "mperf record: .cycles. is not supported" >want &&
	test_line_count = 1 want &&
	(cd "$MPERF_ROOT" && ./mperf record -e cycles,cycles,cycles -o "$TRASH_DIRECTORY/d.data" "$NOPLOOP" 0.1) 2>err >/dev/null &&
	head -n 1 err >have &&
	diff -u want have
'

test_expect_success 'For CI jobs: each command runs on a short workload' '
	readme_lines "mperf " | grep -v "^mperf record: " >cmds &&
	test_line_count = 6 cmds &&
	sed "s#^mperf #\"\$MPERF\" #; s#\\./bench-binary#\"\$CPUSPIN\" 0.2#; s#  *\\#.*##" cmds >ci.sh &&
	"$MPERF" record -q -o baseline.data "$CPUSPIN" 0.2 &&
	rc=0 && bash -e ci.sh >out 2>err || rc=$? &&
	case $rc in 0|3) ;; *) cat err; exit 1 ;; esac &&
	for j in summary.json stats.json diff.json; do
		python3 -c "import json,sys; json.load(open(sys.argv[1]))" $j || exit 1
	done &&
	if test $rc = 0; then
		python3 -c "import json,sys; json.load(open(sys.argv[1]))" base.json &&
		python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1])]" lines.json
	fi
'

test_expect_success 'the table of commands: each row is a command with -h' '
	sed -n "s/^| \`\\([a-z-]*\\)\` |.*/\\1/p" "$README" >rows &&
	test_line_count -ge 10 rows &&
	while read -r c; do
		if test "$c" = help; then set -- record; else set -- -h; fi
		"$MPERF" "$c" "$@" >h.out 2>&1 || { echo "mperf $c $* failed"; exit 1; }
		test -s h.out || exit 1
	done <rows
'

test_done
