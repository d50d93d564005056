#!/usr/bin/env bash
# mperf top's live browser, in a real terminal (tmux at 120x40, tui-lib.sh):
# report's histogram of a spinning task refreshed in place every -d
# seconds, top's keys (f freezes the view, z zeroes each refresh, h's help
# names them), -g on a group (read as it comes, as the plain case), the
# event menu of two events, and the terminal as it was after q and after
# Ctrl-C.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIRECTORY/tui-lib.sh"

# samples: the title's sample count on the screen now.
samples () { screen | sed -n "1s/^Samples: \([^ ]*\) of event.*/\1/p"; }

test_expect_success TMUX 'the histogram of -p, spin its top entry, perf top'\''s title with the lost samples' '
	spin_bg 60 &&
	start "stty -g >stty.before; sh -c '\''echo \$\$ >top.pid; exec \"$MPERF\" top -d 1 -e cpu-clock -p $(cat spin.pid)'\'' 2>err; echo status \$?; stty -g >stty.after" &&
	wait_for "^Samples: .* of event .cpu-clock., Event count \(approx.\): [0-9]+, lost: 0$" &&
	wait_for "^  Overhead  Shared Object" &&
	sed -n 3p screen | grep -q "^ *[0-9.]*%  cpuspin  *\[\.\] spin$"
'

# memfd SIZE ALLOCATED: top's stream in memory, its length and the bytes it holds.
memfd () {
	local fd
	fd=$(ls -l /proc/"$(cat top.pid)"/fd | sed -n "s/.* \([0-9]*\) -> .memfd:mperf-top.*/\1/p" | head -n 1) &&
	stat -L -c "%s %b" /proc/"$(cat top.pid)"/fd/"$fd" | { read -r size blocks && echo "$size $((blocks * 512))"; }
}

test_expect_success TMUX 'a: the entry'\''s symbol annotated from the samples so far; i: the header' '
	tm send-keys -t t a &&
	wait_for "^Annotate spin \(cpu-clock\)$" &&
	grep -qE "Disassembly of cpuspin for cpu-clock \([1-9][0-9]* samples" screen &&
	grep -qE "^ +[0-9.]+ : +[0-9a-f]+: " screen &&
	tm send-keys -t t q &&
	wait_for "^  Overhead" &&
	tm send-keys -t t i &&
	wait_for "^Header of the samples" &&
	grep -q "^# event : name = cpu-clock" screen &&
	tm send-keys -t t q &&
	wait_for "^  Overhead"
'

test_expect_success TMUX 'the samples read are handed back: the stream holds far less than its length' '
	i=0 && while set -- $(memfd) && test "$1" -lt 163840 && test $i -lt 100; do sleep 0.1; i=$((i + 1)); done &&
	test "$1" -ge 163840 &&
	# handed back at each refresh: on a slow run (the sanitizer pass) at a later one
	i=0 && while set -- $(memfd) && test "$2" -ge $(($1 / 2)) && test $i -lt 100; do sleep 0.1; i=$((i + 1)); done &&
	echo "stream $1 bytes, $2 held" &&
	test "$2" -lt $(($1 / 2))
'

test_expect_success TMUX 'each refresh redrawn in place; f freezes the view, f again refreshes it' '
	a=$(samples) && i=0 &&
	while test "$(samples)" = "$a" && test $i -lt 50; do sleep 0.1; i=$((i + 1)); done &&
	test "$(samples)" != "$a" &&
	tm send-keys -t t f &&
	wait_for "Press .f. again" &&
	sleep 1.5 && a=$(samples) && sleep 2.3 &&
	test "$(samples)" = "$a" &&
	tm send-keys -t t f &&
	i=0 && while test "$(samples)" = "$a" && test $i -lt 50; do sleep 0.1; i=$((i + 1)); done &&
	test "$(samples)" != "$a"
'

test_expect_success TMUX 'z: each refresh the samples since the last one; h names top'\''s keys' '
	tm send-keys -t t z &&
	wait_for "^z: each refresh shows the samples since the last one" &&
	tm send-keys -t t h &&
	wait_for "^  z  " &&
	grep -q "^  f  *freeze the view" screen &&
	tm send-keys -t t q &&
	wait_for "^  Overhead"
'

test_expect_success TMUX 'q: the sampling ends, status 0, the terminal as it was' '
	tm send-keys -t t q &&
	wait_for "^status [0-9]+$" &&
	grep -q "^status 0$" screen &&
	wait_for "^[$]$" &&
	cmp stty.before stty.after &&
	test_must_be_empty err
'

test_expect_success TMUX '-g on a group: a column per member, + shows the chain, a annotates, the samples read handed back' '
	start "sh -c '\''echo \$\$ >top.pid; exec \"$MPERF\" top -d 1 -g -e \"{cpu-clock,task-clock}\" -p $(cat spin.pid)'\'' 2>err; echo status \$?" &&
	wait_for "^Samples: .* of events .anon group \{ cpu-clock, task-clock \}., Event count" &&
	wait_for "^ *[0-9.]+%  *[0-9.]+%  cpuspin  *\[\.\] spin$" &&
	sed -n 3p screen | grep -q "^ *[0-9.]*%  *[0-9.]*%  cpuspin  *\[\.\] spin$" &&
	tm send-keys -t t + &&
	wait_for "^ +---spin$" &&
	tm send-keys -t t a &&
	wait_for "^Annotate spin \(cpu-clock\)$" &&
	tm send-keys -t t q &&
	wait_for "^ +---spin$" &&
	i=0 && while set -- $(memfd) && test "$1" -lt 163840 && test $i -lt 100; do sleep 0.1; i=$((i + 1)); done &&
	i=0 && while set -- $(memfd) && test "$2" -ge $(($1 / 2)) && test $i -lt 100; do sleep 0.1; i=$((i + 1)); done &&
	echo "stream $1 bytes, $2 held" &&
	test "$1" -ge 163840 &&
	test "$2" -lt $(($1 / 2)) &&
	tm send-keys -t t q &&
	wait_for "^status [0-9]+$" &&
	grep -q "^status 0$" screen &&
	test_must_be_empty err
'

test_expect_success TMUX 'two events: the menu of both with their samples; Enter, Tab; Ctrl-C restores the terminal' '
	start "stty -g >stty.before; \"$MPERF\" top -d 1 -e cpu-clock,task-clock -p $(cat spin.pid) 2>err; stty -g >stty.after; echo after-top" &&
	wait_for "^Available samples" &&
	wait_for "^ *[1-9][0-9]* samples  *0 lost  task-clock$" &&
	grep -q "^ *[1-9][0-9]* samples  *0 lost  cpu-clock$" screen &&
	tm send-keys -t t Enter &&
	wait_for "^Samples: .* of event .cpu-clock." &&
	tm send-keys -t t Tab &&
	wait_for "^Samples: .* of event .task-clock." &&
	wait_for "cpuspin  *\[\.\] spin$" &&
	tm send-keys -t t C-c &&
	wait_for "^after-top" &&
	cmp stty.before stty.after &&
	test_must_be_empty err &&
	stop_spin
'

test_expect_success TMUX 'no such process: the error on the terminal, no browser, 125' '
	start "\"$MPERF\" top -p 999999999; echo status \$?" &&
	wait_for "^status " &&
	grep -q "^status 125$" screen &&
	grep -q "^mperf top: " screen
'

test_done
