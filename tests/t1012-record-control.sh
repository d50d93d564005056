#!/bin/bash
# mperf record -D/--delay and --control=fifo:CTL[,ACK] / fd:CTL[,ACK], as
# perf 6.1 takes them: a benchmark starts disabled, enables the recording
# after its warm-up and disables it after the measured run, each command
# acknowledged with perf's "ack\n\0"; ping, snapshot, evlist, stop; an
# unknown command is not acknowledged; -D MS starts the events late while
# the side band (COMM, MMAP2) is kept from the start.

. "$(dirname "$0")/lib.sh"

# samples FILE TOOL: the "# Samples: N" of the first event's report.
samples () {
	if test "$2" = perf
	then
		"$PERF" report --stdio -i "$1" 2>/dev/null
	else
		"$MPERF" report -i "$1"
	fi | sed -n "1,/^# Samples/s/^# Samples: \([0-9]*\).*/\1/p" | head -n 1
}

# get_ack FD: the next five bytes on FD, as od prints them, within 10 s.
get_ack () {
	timeout 10 head -c 5 <&"$1" | od -An -c | tr -s " "
}

test_expect_success SETUP 'setup: the control FIFOs' '
	mkfifo ctl ack
'

test_expect_success SETUP 'a benchmark enables the recording after its warm-up, disables it after' '
	"$MPERF" record -F 1000 -e cpu-clock -D -1 --control=fifo:ctl,ack -o c.data \
		"$TWOPHASE" 0.3 0.6 ctl ack 2>c.err &&
	grep -q "^twophase: 2 acks of 2$" c.err &&
	grep "Events" c.err >events &&
	printf "mperf record: Events %s\n" disabled enabled disabled >expect &&
	diff -u expect events &&
	syms c.data mperf >c.syms &&
	grep -qx measured c.syms &&
	! grep -qx warmup c.syms
'

test_expect_success PERF 'perf reads it: the measured phase, no sample of the warm-up, the same count' '
	syms c.data perf >p.syms &&
	grep -qx measured p.syms &&
	! grep -qx warmup p.syms &&
	n=$(samples c.data perf) && test "$n" -gt 0 &&
	test "$n" = "$(samples c.data mperf)"
'

test_expect_success 'without the commands the warm-up is sampled (the workload is not at fault)' '
	"$MPERF" record -q -F 1000 -e cpu-clock -o all.data "$TWOPHASE" 0.3 0.3 &&
	syms all.data mperf >all.syms &&
	grep -qx warmup all.syms && grep -qx measured all.syms
'

test_expect_success 'a harness: ping, evlist, snapshot acknowledged; an unknown command not; stop ends it' '
	exec 8<>ack 9<>ctl
	{ "$MPERF" record -e cpu-clock -D -1 --control=fifo:ctl,ack -o h.data "$NOPLOOP" 60 2>h.err || echo $? >h.rc; } &
	echo ping >&9 && test "$(get_ack 8)" = " a c k \n \0" &&
	echo evlist >&9 && test "$(get_ack 8)" = " a c k \n \0" &&
	echo snapshot >&9 && test "$(get_ack 8)" = " a c k \n \0" &&
	echo "enable cpu-clock" >&9 && test "$(get_ack 8)" = " a c k \n \0" &&
	echo "enable nosuch" >&9 && test "$(get_ack 8)" = " a c k \n \0" &&
	echo bogus >&9 &&
	echo stop >&9 && test "$(get_ack 8)" = " a c k \n \0" &&
	wait && exec 8<&- 9>&- &&
	test "$(cat h.rc)" = 143 &&
	grep -q "^mperf record: Event cpu-clock enabled$" h.err &&
	grep -q "^mperf record: failed: can.t find .nosuch. event$" h.err &&
	grep -q "^mperf record: warning: unknown control command .bogus." h.err &&
	grep -q "^mperf record: dummy:HG$" h.err &&
	grep -q "Captured and wrote .* h.data" h.err &&
	"$MPERF" report -D -i h.data >h.dump &&
	grep -q "PERF_RECORD_COMM.*noploop" h.dump
'

test_expect_success 'fd:CTL,ACK: descriptors the caller opened' '
	exec 7<>ctl 8<>ack &&
	"$MPERF" record -q -F 1000 -e cpu-clock -D -1 --control=fd:7,8 -o fd.data \
		"$TWOPHASE" 0.3 0.3 ctl ack 2>fd.err &&
	exec 7<&- 8<&- &&
	grep -q "^twophase: 2 acks of 2$" fd.err &&
	syms fd.data mperf >fd.syms &&
	grep -qx measured fd.syms && ! grep -qx warmup fd.syms
'

test_expect_success '-D MS: no sample before the delay, the side band from the start' '
	"$MPERF" record -F 1000 -e cpu-clock -D 600000 -o d.data "$CPUSPIN" 0.3 2>d.err &&
	grep -q "(0 samples)" d.err &&
	! grep -q "Events enabled" d.err &&
	"$MPERF" report -D -i d.data >d.dump &&
	grep -q "PERF_RECORD_COMM.*cpuspin" d.dump &&
	grep -q "PERF_RECORD_MMAP2.*cpuspin" d.dump &&
	"$MPERF" record -F 1000 -e cpu-clock -D 1 -o d1.data "$CPUSPIN" 0.3 2>d1.err &&
	grep -q "^mperf record: Events enabled$" d1.err &&
	! grep -q "(0 samples)" d1.err
'

test_expect_success 'bad --control and -D: one line, usage status; a missing FIFO: 125' '
	test_expect_code 129 "$MPERF" record --control=pipe:x true 2>e1 &&
	grep -q "invalid --control .pipe:x. (fifo:CTL\[,ACK\] or fd:CTL\[,ACK\])" e1 &&
	test_expect_code 129 "$MPERF" record --control=fd:x true 2>e2 &&
	test_expect_code 129 "$MPERF" record -D -2 true 2>e3 &&
	grep -q "invalid -D/--delay .-2." e3 &&
	test_expect_code 125 "$MPERF" record -o m.data --control=fifo:nosuch true 2>e4 &&
	grep -q "cannot open the control FIFO .nosuch.: No such file or directory" e4 &&
	test_line_count = 1 e4
'

test_done
