#!/bin/bash
# Event groups on every kind of target: a group's leader is opened per
# thread (-p, -t) or per CPU (-a), its members on the leader's fd, all
# writing into the one buffer of their CPU.  A group on a running
# process once recorded no sample at all ({cpu-clock,task-clock} -p PID),
# where the same group of a workload or of -a did: each member of each
# group here samples the busy task, as perf records it.
. "$(dirname "$0")/lib.sh"

# counts ERR: each event's samples from record's summary lines, one a line.
counts () {
	sed -n "s/^\[ mperf record: event .*: \([0-9]*\) samples, .*/\1/p" "$1"
}

# sampled ERR N: N events in the summary, each with 20 samples or more
# (0.5 s of a busy task at 4000 Hz: 2000 on an idle machine).
sampled () {
	counts "$1" >n &&
	test "$(wc -l <n)" = "$2" &&
	! awk '$1 < 20 { bad = 1 } END { exit !bad }' n || { cat "$1"; return 1; }
}

test_expect_success 'a group of two and of three on -p PID: every member samples the task' '
	spin_bg 30 &&
	pid=$(cat spin.pid) &&
	"$MPERF" record -e "{cpu-clock,task-clock}" -p $pid -o p2.data -- sleep 0.5 2>p2.err &&
	sampled p2.err 2 &&
	"$MPERF" record -e "{cpu-clock,task-clock,cpu-clock}" -p $pid -o p3.data -- sleep 0.5 2>p3.err &&
	sampled p3.err 3 &&
	"$MPERF" report -i p2.data --stdio >p2.out &&
	grep -q "^# Samples: .* of events .anon group { cpu-clock, task-clock }." p2.out &&
	grep -q "^ *[0-9.]*%  *[0-9.]*%  cpuspin  *cpuspin  *\[\.\] spin$" p2.out
'

test_expect_success 'the same group on -t TID, on -a and on a workload' '
	pid=$(cat spin.pid) &&
	"$MPERF" record -e "{cpu-clock,task-clock}" -t $pid -o t.data -- sleep 0.5 2>t.err &&
	sampled t.err 2 &&
	"$MPERF" record -e "{cpu-clock,task-clock}" -a -o a.data -- sleep 0.5 2>a.err &&
	sampled a.err 2 &&
	stop_spin &&
	"$MPERF" record -e "{cpu-clock,task-clock}" -o w.data "$CPUSPIN" 0.2 2>w.err &&
	sampled w.err 2
'

test_done
