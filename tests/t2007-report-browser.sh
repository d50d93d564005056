#!/usr/bin/env bash
# report's browser, driven in a real terminal: tmux at 120x40 (send-keys,
# capture-pane).  The event menu of a three-event file, the histogram's
# rows against --stdio's, a call chain expanded against --stdio's, the
# zooms, the filter, P, a's annotation against annotate --stdio's, and the
# terminal as it was after q.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIRECTORY/tui-lib.sh"

# rows N FILE: the first N entry lines of a --stdio text's first
# histogram (after its column lines), cut at 120 columns.
rows () {
	awk '/^# \.\.\./ { on = 1; next } on && /^#/ { next } on && /^$/ { exit } on' "$2" | head -n "$1" |
		cut -c1-120 | sed 's/ *$//'
}

test_expect_success 'a file of three events, and one with call chains' '
	"$MPERF" record -q -e cpu-clock/period=250000/,task-clock/period=500000/,cpu-clock/period=1000000/ \
		-o three.data "$NOPLOOP" 0.5 &&
	"$MPERF" record -q -o one.data "$NOPLOOP" 0.5 &&
	"$MPERF" record -q -g -o g.data "$CALLPATHS" 0.5
'

test_expect_success TMUX 'the menu lists the three events with their samples and lost samples' '
	"$MPERF" report --stats --json -i three.data >stats.json &&
	python3 -c "import json; [print(\"%12d samples %10d lost  %s\" % (e[\"samples\"], e[\"lost\"], e[\"name\"])) for e in json.load(open(\"stats.json\"))[\"events\"]]" >expect &&
	test $(wc -l <expect) = 3 &&
	start "\"$MPERF\" report -i three.data" &&
	wait_for "^Available samples" &&
	sed -n "2,4p" screen >actual &&
	diff expect actual
'

test_expect_success TMUX 'Enter: the first event'\''s histogram, its first rows as --stdio prints them' '
	tm send-keys -t t Enter &&
	wait_for "^Samples: .* of event .cpu-clock/period=250000/." &&
	"$MPERF" report --stdio -i three.data >stdio &&
	rows 10 stdio >expect &&
	test $(wc -l <expect) -ge 3 &&
	sed -n "3,$((2 + $(wc -l <expect)))p" screen >actual &&
	diff expect actual &&
	grep -q "^  Overhead  Command" screen
'

test_expect_success TMUX 'Tab: the next event; q back to the menu, q again quits' '
	tm send-keys -t t Tab &&
	wait_for "^Samples: .* of event .task-clock/period=500000/." &&
	tm send-keys -t t q &&
	wait_for "^Available samples" &&
	tm send-keys -t t Home Down Down Enter &&
	wait_for "^Samples: .* of event .cpu-clock/period=1000000/." &&
	tm send-keys -t t Escape &&
	wait_for "^Available samples" &&
	tm send-keys -t t q &&
	wait_for "^[$]\$"
'

test_expect_success TMUX 'a menu longer than the terminal scrolls: End shows the last event, Home the first' '
	start "\"$MPERF\" report -i three.data" &&
	wait_for "^Available samples" &&
	tm resize-window -t t -x 120 -y 4 &&
	wait_for "^Enter: open" &&
	test "$(sed -n 2,3p screen | grep -c " samples ")" = 2 &&
	grep -q "cpu-clock/period=250000/$" screen &&
	tm send-keys -t t End &&
	wait_for "cpu-clock/period=1000000/$" &&
	! grep -q "cpu-clock/period=250000/$" screen &&
	tm send-keys -t t PageUp &&
	wait_for "cpu-clock/period=250000/$" &&
	tm send-keys -t t q &&
	wait_for "^[$]\$"
'

test_expect_success TMUX '+ on the top entry of a -g file: its chain as --stdio prints it' '
	"$MPERF" report --stdio -i g.data >stdio &&
	awk "/^# \\.\\.\\./ { on = 1; next } on && /^#/ { next } on && /^ *[0-9.]+%/ { n++ } n == 1 { print } n == 2 { exit }" stdio |
		sed "s/ *$//" | head -n 36 >expect &&
	grep -q -- "---" expect &&
	start "\"$MPERF\" report -i g.data" &&
	wait_for "^  Children      Self" &&
	tm send-keys -t t + &&
	wait_for "[-][-][-]" &&
	sed -n "3,$((2 + $(wc -l <expect)))p" screen >actual &&
	diff expect actual &&
	tm send-keys -t t C &&
	wait_for "^  Children" &&
	! grep -q -- "---" screen
'

test_expect_success TMUX '/ keeps the symbols containing a text; d zooms into a DSO, again out' '
	tm send-keys -t t / l e a f Enter &&
	wait_for "Symbol filter: leaf" &&
	sed -n "3,39p" screen | grep -v "^$" >rows &&
	test $(wc -l <rows) -ge 1 &&
	! grep -v "leaf" rows &&
	tm send-keys -t t / BSpace BSpace BSpace BSpace Enter Home d &&
	wait_for "DSO: " &&
	dso=$(sed -n "s/.*DSO: //p" screen) &&
	sed -n "3,39p" screen | grep -v "^$" >rows &&
	! grep -v " $dso " rows &&
	tm send-keys -t t d &&
	wait_for "^Samples: [^,]*, Event count \\(approx.\\): [0-9]+$"
'

test_expect_success TMUX 'P writes the view to perf.hist.0; i shows the header; q quits' '
	tm send-keys -t t P &&
	wait_for "perf.hist.0 written" &&
	test -s perf.hist.0 &&
	grep -q "^Samples: " perf.hist.0 &&
	tm send-keys -t t i &&
	wait_for "^# captured on" &&
	tm send-keys -t t q &&
	wait_for "^  Children" &&
	tm send-keys -t t q &&
	wait_for "^[$]\$"
'

test_expect_success TMUX 'a on the hottest entry: its symbol as annotate --stdio -s prints it, on its hottest line; q back' '
	"$MPERF" report --stdio -i one.data >stdio &&
	sym=$(rows 1 stdio | sed "s/.*\] //") &&
	test -n "$sym" &&
	"$MPERF" annotate --stdio -i one.data -s "$sym" >ann &&
	expand ann | cut -c1-120 | sed "s/ *$//" | head -n 30 >expect &&
	test $(wc -l <expect) = 30 &&
	start "\"$MPERF\" report -i one.data" &&
	wait_for "^  Overhead  Command" &&
	tm send-keys -t t a &&
	wait_for "^Annotate $sym \(cpu-clock" &&
	sed -n "2,31p" screen >actual &&
	diff expect actual &&
	hot=$(awk "/^ *[0-9.]+ :/ && \$1 + 0 > m { m = \$1 + 0; h = \$1 } END { print h }" ann) &&
	test -n "$hot" &&
	tm capture-pane -e -p -t t | grep "$(printf "\033")\[7m" >cursor &&
	grep -q "^[^ ]* *$hot :" cursor &&
	tm send-keys -t t q &&
	wait_for "^  Overhead  Command" &&
	rows 3 stdio >expect &&
	sed -n "3,5p" screen >actual &&
	diff expect actual &&
	tm send-keys -t t q &&
	wait_for "^[$]\$"
'

test_expect_success TMUX 'a in the second event: that event'"'"'s listing alone' '
	start "\"$MPERF\" report -i three.data" &&
	wait_for "^Available samples" &&
	tm send-keys -t t Down Enter &&
	wait_for "^Samples: .* of event .task-clock/period=500000/." &&
	tm send-keys -t t Home a &&
	wait_for "^Annotate .* \(task-clock/period=500000/\)" &&
	grep -q "Disassembly of .* for task-clock/period=500000/" screen &&
	! grep -q "for cpu-clock" screen &&
	tm send-keys -t t q q q &&
	wait_for "^[$]\$"
'

test_expect_success TMUX 'q leaves the terminal as it was: its modes, and the screen before it' '
	start "echo before-the-browser; stty -g >stty.before; \"$MPERF\" report -i g.data; stty -g >stty.after; echo after-the-browser" &&
	wait_for "^  Children      Self" &&
	! grep -q before-the-browser screen &&
	tm send-keys -t t q &&
	wait_for "^after-the-browser" &&
	grep -q "^before-the-browser" screen &&
	cmp stty.before stty.after
'

test_expect_success TMUX 'Ctrl-C restores the terminal too' '
	start "(trap \"\" INT; stty -g >stty.before; \"$MPERF\" report -i g.data; echo status \$?; stty -g >stty.after; echo after-the-browser)" &&
	wait_for "^  Children      Self" &&
	tm send-keys -t t C-c &&
	wait_for "^after-the-browser" &&
	grep -q "^status 130" screen &&
	cmp stty.before stty.after
'

test_expect_success TMUX 'a resized terminal is redrawn' '
	start "\"$MPERF\" report -i g.data" &&
	wait_for "^  Children      Self" &&
	tm resize-window -t t -x 60 -y 20 &&
	wait_for "^Samples: .{0,60}$" &&
	tm send-keys -t t q
'

test_expect_success TMUX '--stdio, and an output that is not a terminal: the text, no browser' '
	start "\"$MPERF\" --no-pager report --stdio -i three.data | head -n 3; \"$MPERF\" report -i three.data | grep -c \"^# Samples\"; echo done" &&
	wait_for "^done" &&
	grep -q "^# To display the perf.data header" screen &&
	grep -qx 3 screen &&
	! grep -q "Available samples" screen
'

test_expect_success TMUX 'TERM=dumb: the text through the pager, no browser' '
	start "TERM=dumb PAGER=cat \"$MPERF\" report -i three.data | head -n 1; TERM=dumb PAGER=cat \"$MPERF\" report -i three.data >/dev/tty; echo done" &&
	wait_for "^done" &&
	grep -q "^# Samples:" screen &&
	! grep -q "Available samples" screen
'

test_expect_success 'usage: --tui is refused with the text views' '
	test_expect_code 129 "$MPERF" report --tui --stdio -i three.data 2>err &&
	grep -q "^mperf report: --tui cannot be used with --stdio" err &&
	test_expect_code 129 "$MPERF" report --tui -D -i three.data 2>err &&
	test_expect_code 129 "$MPERF" report --tui --json -i three.data 2>err
'

test_done
