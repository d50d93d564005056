#!/usr/bin/env bash
# mperf diff against perf diff 6.1 on the same two files, recorded by perf
# and by mperf from two builds of one program whose hot functions' shares
# differ (shares: f 70% / g 25% / old_only 5% against f 40% / g 55% /
# new_only 5%): the same text, byte for byte, with perf's options; the
# JSON document's deltas are the text's, the largest moves first; errors
# are one line with perf's usage status.
. "$(dirname "$0")/lib.sh"

test -x "$SHARES_OLD" && test -x "$SHARES_NEW" || {
	echo "1..0 # SKIP $SHARES_OLD or $SHARES_NEW not built (run make)"
	exit 0
}

same_diff () {	# same_diff OLD NEW [OPTIONS...]
	local old=$1 new=$2
	shift 2
	"$PERF" diff "$@" "$old" "$new" 2>/dev/null >perf.out &&
	"$MPERF" diff "$@" "$old" "$new" 2>mperf.err >mperf.out &&
	test_must_be_empty mperf.err &&
	test -s perf.out &&
	diff -u perf.out mperf.out >diff.out || { echo "options: $*"; head -n 40 diff.out; return 1; }
}

# row_delta FILE SYMBOL: the Delta column of SYMBOL's row in a default diff.
row_delta () {
	awk -v s="$2" '$NF == s && $(NF-1) == "[.]" { for (i = 1; i <= NF; i++) if ($i ~ /^[+-][0-9.]+%$/) { sub("%", "", $i); print $i } }' "$1"
}

test_expect_success PERF 'perf files: the same text as perf diff' '
	perf_record -e cpu-clock -o p.old "$SHARES_OLD" 0.5 &&
	perf_record -e cpu-clock -o p.new "$SHARES_NEW" 0.5 &&
	same_diff p.old p.new &&
	head -n 3 mperf.out >head &&
	grep -qx "# Event '\''cpu-clock'\''" head &&
	grep -q "^# Baseline  Delta Abs  Shared Object  *Symbol" head &&
	g=$(row_delta mperf.out g) && f=$(row_delta mperf.out f) &&
	echo "g $g f $f" &&
	awk -v g="$g" -v f="$f" "BEGIN { exit !(g > 15 && f < -15) }" &&
	grep -q "^  *+[0-9.]*%  shares  *\[\.\] new_only$" mperf.out &&
	grep -q "^  *[0-9.]*%  *shares  *\[\.\] old_only$" mperf.out
'

test_expect_success PERF 'mperf files: the same text as perf diff on them' '
	"$MPERF" record -q -e cpu-clock -o m.old "$SHARES_OLD" 0.5 &&
	"$MPERF" record -q -e cpu-clock -o m.new "$SHARES_NEW" 0.5 &&
	same_diff m.old m.new &&
	same_diff p.old m.new &&
	same_diff m.old p.new
'

test_expect_success PERF 'the computations, orders and columns of perf diff' '
	pair="p.old p.new" &&
	for opts in "-c delta" "-c delta-abs" "-c ratio" "-c wdiff:1,2" "-c wdiff:-3,7" \
		"-o 0" "-o 0 -c ratio" "-o 0 -c delta" "-p" "-F" "-F -c ratio" "-F -c wdiff:2,3" \
		"-p -F -c delta" "-b" "-b -F" "-q"; do
		# the perf files and the mperf files in turn: each computation against perf once
		same_diff $pair $opts || exit 1
		test "$pair" = "p.old p.new" && pair="m.old m.new" || pair="p.old p.new"
	done
'

# Sort keys are matched as perf matches them: a prefix, any case, a repeated key ignored.
test_expect_success PERF 'sort keys, filters and --percentage' '
	pair="p.old p.new" &&
	for opts in "-s dso" "-s sym" "-s symbol,dso" "-s comm,dso,symbol" "-s comm" "-s pid" "-s SYM,D" "-s dso,dso" \
		"-d shares" "-d shares --percentage relative" "-C shares -d shares,libc.so.6" \
		"-d shares,libc.so.6 --percentage relative -p -F" "-b --percentage relative -d shares"; do
		same_diff $pair $opts || exit 1
		test "$pair" = "p.old p.new" && pair="m.old p.new" || pair="p.old p.new"
	done
'

test_expect_success PERF 'several events: a block per baseline event, as perf' '
	perf_record -e cpu-clock,task-clock -o pm.old "$SHARES_OLD" 0.3 &&
	"$MPERF" record -q -e cpu-clock,task-clock -o mm.new "$SHARES_NEW" 0.3 &&
	same_diff pm.old mm.new &&
	test "$(grep -c "^# Event " mperf.out)" = 2 &&
	grep -qx "# Event '\''task-clock'\''" mperf.out &&
	same_diff mm.new pm.old -c ratio &&
	same_diff pm.old p.new &&
	test "$(grep -c "^# Event " mperf.out)" = 2 &&
	same_diff p.old mm.new &&
	test "$(grep -c "^# Event " mperf.out)" = 1
'

test_expect_success PERF 'no file argument: perf.data.old and perf.data; one: the new file' '
	mkdir dflt && cp p.old dflt/perf.data.old && cp m.new dflt/perf.data && cp m.new dflt/other &&
	(cd dflt && "$PERF" diff 2>/dev/null >../perf.out && "$MPERF" diff >../mperf.out) &&
	diff -u perf.out mperf.out &&
	(cd dflt && "$PERF" diff other 2>/dev/null >../perf.out && "$MPERF" diff other >../mperf.out) &&
	diff -u perf.out mperf.out
'

# The JSON rows as "symbol delta only", one a line, in their order.
json_rows () {
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for e in d['events']:
    for r in e['entries']:
        print(r['dso'], r['symbol'] or r['address'], '%.6f' % r['delta'], r['only'] or 'both',
              'null' if r['baseline'] is None else '%.6f' % r['baseline'])
" "$1"
}

test_expect_success 'JSON: the deltas of the text, largest moves first, one-file entries marked' '
	if ! test -f m.old; then
		"$MPERF" record -q -e cpu-clock -o m.old "$SHARES_OLD" 0.5 &&
		"$MPERF" record -q -e cpu-clock -o m.new "$SHARES_NEW" 0.5
	fi &&
	"$MPERF" diff m.old m.new >text &&
	"$MPERF" diff --json m.old m.new >json &&
	json_rows json >rows &&
	cat rows &&
	grep -q "^shares old_only -[0-9.]* baseline " rows &&
	grep -q "^shares new_only [0-9.]* new null$" rows &&
	# every delta the text shows is the JSON one, within the text'"'"'s
	# rounding (%+.2f) and JSON'"'"'s (%.6f): never rounded a second time
	awk "\$4 != \"baseline\" { print \$1, \$2, \$3 }" rows | sort >from-json &&
	awk "/^#/ || !NF { next } { d = \"\"; for (i = 1; i <= NF; i++) if (\$i ~ /^[+-][0-9.]+%\$/) d = \$i }
	     d != \"\" { sub(/%\$/, \"\", d); print \$(NF-2), \$NF, d }" text | sort >from-text &&
	test "$(cut -d" " -f1,2 from-text)" = "$(cut -d" " -f1,2 from-json)" &&
	paste -d" " from-text from-json | awk "{ d = \$3 - \$6; if (d < 0) d = -d; if (d > 0.005001) { print \"text and JSON differ: \" \$0; bad = 1 } } END { exit bad }" &&
	test "$(wc -l <from-text)" -ge 3 &&
	# the largest moves first
	awk "{ a = \$3 < 0 ? -\$3 : \$3; if (NR > 1 && a > last + 1e-9) { print \"out of order: \" \$0; exit 1 } last = a }" rows &&
	head -n 2 rows | grep -q "^shares [fg] " &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert d[\"schema\"] == \"mperf-diff/3\"; assert d[\"new-only-events\"] == []" json
'

test_expect_success 'JSON: an event only the new file has is named, the baseline'\''s alone has "new": null' '
	"$MPERF" record -q -e cpu-clock,task-clock -o two.data "$SHARES_NEW" 0.2 &&
	"$MPERF" diff --json m.old two.data >a.json &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert d[\"new-only-events\"] == [\"task-clock\"], d[\"new-only-events\"]" a.json &&
	"$MPERF" diff --json two.data m.old >b.json &&
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e[\"name\"]: e for e in d[\"events\"]}
assert ev[\"task-clock\"][\"new\"] is None
assert all(r[\"only\"] == \"baseline\" for r in ev[\"task-clock\"][\"entries\"])
assert ev[\"cpu-clock\"][\"new\"][\"samples\"] > 0
" b.json
'

# one_line_error STATUS CMD...: CMD fails with STATUS and says why in one
# line, then at most a hint.
one_line_error () {
	local want=$1
	shift
	test_expect_code "$want" "$@" >out 2>err &&
	test_must_be_empty out &&
	cat err &&
	head -n 1 err | grep -q "^mperf diff: " &&
	test "$(grep -vc "^hint: see 'mperf diff -h'\$" err)" = 1
}

test_expect_success 'a missing or unreadable file: one line, mperf'\''s status 125' '
	one_line_error 125 "$MPERF" diff nope m.new &&
	grep -q "nope" err &&
	one_line_error 125 "$MPERF" diff m.old nope &&
	: >empty &&
	one_line_error 125 "$MPERF" diff empty m.new &&
	mkdir none && (cd none && one_line_error 125 "$MPERF" diff) &&
	grep -q "perf.data.old" none/err
'

test_expect_success 'bad options and arguments: one line and a hint, status 129' '
	for args in "--bogus" "-c bogus" "-c wdiff" "-c wdiff:0,1" "-c delta:x" "-c cycles" "-o 2" "-o x" \
		"-s nope" "-s dso_from" "--percentage x" "-s" "--json -p" "--json -c ratio" "--json -q" \
		"a b c" "- -"; do
		one_line_error 129 "$MPERF" diff $args || { echo "args: $args"; exit 1; }
	done
'

test_expect_success PERF 'perf diff refuses the same options with 129' '
	for args in "--bogus" "-c bogus" "-c wdiff" "-s bogus" "--percentage x"; do
		test_expect_code 129 "$PERF" diff $args p.old p.new >/dev/null 2>&1 || { echo "args: $args"; exit 1; }
	done
'

test_done
