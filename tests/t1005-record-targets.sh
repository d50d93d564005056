#!/bin/bash
# mperf record's targets, as perf's: -p and -t (tasks already running,
# described from /proc so that report names their samples), -a and -C
# (every task of the CPUs, with perf's dummy:HG tracking event),
# --per-thread, and no command (until the tasks end or a signal).  For each
# command line perf evlist -v shows the attrs perf sets for the same one,
# and perf reads mperf's file without a warning.

. "$(dirname "$0")/lib.sh"

# spin_bg SECS THREADS [DUTY]: start cpuspin in the background; its pid in
# spin.pid.  The targets a test stops itself spin 20% of the time: busy
# enough to be sampled, and the CPUs left to the commands under test.
spin_bg () {
	"$CPUSPIN" "$1" "$2" ${3:-} &
	echo $! >spin.pid
}

stop_spin () {
	kill "$(cat spin.pid)" 2>/dev/null || true
	wait "$(cat spin.pid)" 2>/dev/null || true
}

# perf_reads FILE: perf report -D reads FILE without a word on stderr.
perf_reads () {
	test_expect_code 0 "$PERF" report -D -i "$1" >"$1.dump" 2>"$1.perr" &&
	test_must_be_empty "$1.perr"
}

# dump_body FILE: mperf's or perf's -D up to the stats block.
same_dump () {
	"$PERF" report -D -i "$1" 2>/dev/null | sed '/^Aggregated stats:/,$d' >"$1.pd" &&
	"$MPERF" report -D -i "$1" | sed '/^Aggregated stats:/,$d' >"$1.md" &&
	diff "$1.pd" "$1.md" >"$1.ddiff" || { head -20 "$1.ddiff"; return 1; }
}

# --- the attrs, against perf's -------------------------------------------------------

# Each line: the options of one command line.  @PID@ is a running 2-thread
# cpuspin.  The workload (sleep) only says how long to record.
cat >cases <<'EOF'
-p @PID@
-p @PID@ -e cpu-clock,task-clock,page-faults
-p @PID@ --per-thread
-p @PID@ --per-thread -T -s
-p @PID@ --no-inherit
-p @PID@ -s
-t @TID@
-t @TID@ -e {cpu-clock,task-clock}:S
-a
-a -e cpu-clock,task-clock
-a -s
-a -d --switch-events
-a -W --namespaces -e cpu-clock,page-faults
-a -c 100000
-a -F 1000
-a --no-inherit
-C 0
-C 0 -e {cpu-clock,task-clock}:S
-C 0-1 -T
EOF

# compare_cases FILE: for each line of FILE, perf and mperf record the same
# command line, and their perf evlist -v agree.  Both with --no-bpf-event
# (t1015 compares that bit alone): perf otherwise waits about a second for
# its side-band thread as it ends, while the target spins.  The target
# spins 5% of the time: only its attrs are compared.
compare_cases () {
	spin_bg 60 2 5 &&
	pid=$(cat spin.pid) &&
	while test "$(ls /proc/$pid/task | wc -l)" -lt 2; do sleep 0.05; done &&
	tid=$(ls /proc/$pid/task | sort -n | tail -1) &&
	while read -r line; do
		opts=$(echo "$line" | sed "s/@PID@/$pid/; s/@TID@/$tid/") &&
		"$PERF" record -q --no-bpf-event -e cpu-clock $opts -o p.data -- sleep 0.1 2>/dev/null &&
		"$MPERF" record -q --no-bpf-event -e cpu-clock $opts -o m.data -- sleep 0.1 &&
		"$PERF" evlist -v -i p.data >p.v 2>/dev/null &&
		"$PERF" evlist -v -i m.data >m.v 2>m.err &&
		test_must_be_empty m.err &&
		diff p.v m.v &&
		perf_reads m.data || { stop_spin; fail "with: $opts"; return 1; }
	done <"$1" &&
	stop_spin
}

test_expect_success PERF 'perf evlist -v: the attrs perf sets for each target, and perf reads the file' '
	compare_cases cases
'

# Tracepoints need tracefs: mounted here when we are root and it is not.
have_tracefs () {
	test -e /sys/kernel/tracing/events/sched/sched_switch/id || {
		test "$(id -u)" = 0 && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
		test -e /sys/kernel/tracing/events/sched/sched_switch/id
	}
}

cat >tp-cases <<'EOF'
-C 0 -e sched:sched_switch
-a -e sched:sched_switch --filter prev_pid!=0
-a -e sched:sched_process_*
-p @PID@ -e sched:sched_switch,sched:sched_wakeup
-t @TID@ -e sched:sched_switch
EOF

test_expect_success PERF,TRACEFS 'tracepoints with each target: perf'"'"'s attrs, and files perf reads' '
	compare_cases tp-cases
'

# --- -p and -t ----------------------------------------------------------------------

test_expect_success SETUP '-p without a command: every thread sampled until the process exits, exit 0' '
	spin_bg 1.5 3 &&
	pid=$(cat spin.pid) &&
	while test "$(ls /proc/$pid/task | wc -l)" -lt 3; do sleep 0.05; done &&
	ls /proc/$pid/task | sort -n >tids &&
	test_expect_code 0 "$MPERF" record -p $pid -e cpu-clock -o p3.data 2>p3.err &&
	cat p3.err &&
	wait $pid &&
	"$MPERF" report -i p3.data --stdio --sort pid >p3.pid &&
	sed -n "s/^ *[0-9.]*% *\([0-9]*\):cpuspin *$/\1/p" p3.pid | sort -n >seen &&
	diff tids seen
'

test_expect_success '-p: the samples are named from /proc (comm, the binary, its symbol)' '
	"$MPERF" report -i p3.data --stdio --sort comm,dso,sym >p3.rep &&
	grep -q "% *cpuspin *cpuspin *\[\.\] spin$" p3.rep ||
		{ cat p3.rep; fail "no cpuspin/cpuspin/spin entry"; }
'

# By comm and DSO: what the synthesized COMM and MMAP2 records decide.
# (Symbols are the report's business; a sample in a PLT stub is still
# named differently from perf at times.)
test_expect_success PERF '-p: perf reads the file, and reports what mperf reports' '
	perf_reads p3.data &&
	same_dump p3.data &&
	"$PERF" report -i p3.data --stdio --sort comm,dso 2>/dev/null | grep "^ *[0-9.]*%" >p3.prep &&
	"$MPERF" report -i p3.data --stdio --sort comm,dso | grep "^ *[0-9.]*%" >p3.mrep &&
	diff p3.prep p3.mrep
'

test_expect_success '-p with a command: recording ends with the command, the target runs on' '
	spin_bg 60 1 20 &&
	pid=$(cat spin.pid) &&
	test_expect_code 3 "$MPERF" record -q -p $pid -e cpu-clock -o pc.data sh -c "sleep 0.3; exit 3" &&
	kill -0 $pid &&
	stop_spin &&
	n=$("$MPERF" report -D -i pc.data | grep -c "PERF_RECORD_SAMPLE") &&
	test "$n" -gt 0
'

test_expect_success '-t: only that thread is sampled (and not its siblings)' '
	spin_bg 60 3 20 &&
	pid=$(cat spin.pid) &&
	while test "$(ls /proc/$pid/task | wc -l)" -lt 3; do sleep 0.05; done &&
	tid=$(ls /proc/$pid/task | sort -n | tail -1) &&
	"$MPERF" record -q -t $tid -e cpu-clock -o t.data -- sleep 0.3 &&
	stop_spin &&
	"$MPERF" report -i t.data --stdio --sort pid | sed -n "s/^ *[0-9.]*% *\([0-9]*\):.*/\1/p" >seen &&
	echo $tid >want &&
	diff want seen
'

test_expect_success 'unknown or malformed targets: one line each, and no file' '
	test_expect_code 125 "$MPERF" record -p 2147483646 -o bad.data 2>bad.err &&
	grep -q "^mperf record: no such process: 2147483646$" bad.err &&
	test_line_count = 1 bad.err &&
	test_expect_code 125 "$MPERF" record -t 2147483646 -o bad.data 2>bad.err &&
	grep -q "^mperf record: no such thread: 2147483646$" bad.err &&
	test_expect_code 125 "$MPERF" record -p 12x -o bad.data 2>bad.err &&
	grep -q "^mperf record: invalid pid list .12x.$" bad.err &&
	test_expect_code 125 "$MPERF" record -C 4095 -o bad.data true 2>bad.err &&
	grep -q "^mperf record: -C .4095.: cpu 4095 is not online$" bad.err &&
	test_expect_code 125 "$MPERF" record -C 0-x -o bad.data true 2>bad.err &&
	grep -q "^mperf record: invalid CPU list .0-x." bad.err &&
	test_expect_code 129 "$MPERF" record -o bad.data 2>bad.err &&
	grep -q "no command given to run, and no target" bad.err &&
	! test -e bad.data
'

test_expect_success 'perf'"'"'s overrides: -p wins over -C and -a, saying so' '
	spin_bg 60 1 20 &&
	pid=$(cat spin.pid) &&
	"$MPERF" record -p $pid -C 0 -e cpu-clock -o o1.data -- sleep 0.1 2>o1.err &&
	"$MPERF" record -p $pid -a -e cpu-clock -o o2.data -- sleep 0.1 2>o2.err &&
	stop_spin &&
	grep -q "PID/TID switch overriding CPU" o1.err &&
	grep -q "PID/TID switch overriding SYSTEM" o2.err
'

# --- -a and -C ----------------------------------------------------------------------

test_expect_success SETUP '-a: the workload and other tasks are sampled; dummy:HG is not in the summary' '
	"$MPERF" record -a -e cpu-clock,task-clock -o a.data "$CPUSPIN" 0.3 2>a.err &&
	cat a.err &&
	! grep -q dummy a.err &&
	grep -q "event .cpu-clock.:" a.err &&
	"$MPERF" report -i a.data --stdio --sort comm >a.rep &&
	grep -q "% *cpuspin *$" a.rep &&
	test "$(grep -c "^ *[0-9.]*%" a.rep)" -ge 4	# cpuspin and others, in two events
'

test_expect_success PERF '-a: perf reads the file; mperf report -D equals perf'"'"'s' '
	perf_reads a.data &&
	same_dump a.data
'

test_expect_success PERF '-C 0: every sample is of cpu 0' '
	"$MPERF" record -q -C 0 -e cpu-clock -o c0.data "$CPUSPIN" 0.3 &&
	perf_reads c0.data &&
	"$PERF" script -F cpu -i c0.data 2>/dev/null | sort | uniq -c >cpus &&
	cat cpus &&
	test "$(wc -l <cpus)" = 1 &&
	grep -q "\[000\]" cpus &&
	same_dump c0.data
'

test_expect_success '--per-thread with a command: samples without times, one buffer per thread' '
	"$MPERF" record -q --per-thread -e cpu-clock -o pt.data "$CPUSPIN" 0.2 &&
	"$MPERF" report --header-only -i pt.data | grep "^# event : name = cpu-clock" >pt.h &&
	grep -q "sample_type = IP|TID|PERIOD," pt.h &&
	n=$("$MPERF" report -D -i pt.data | grep -c "PERF_RECORD_SAMPLE") &&
	test "$n" -gt 0
'

# --- signals, and -v ----------------------------------------------------------------

# interrupt SIG OPTS...: record OPTS without a command, send SIG once the
# recording has written its first samples; mperf must end within 10 s,
# dying of SIG, with a file perf reads.
interrupt () {
	local sig=$1 pid n=0
	shift
	rm -f int.data
	"$MPERF" record -q "$@" -e cpu-clock -o int.data &
	pid=$!
	while ! test -s int.data && test $n -lt 100; do sleep 0.1; n=$((n + 1)); done
	sleep 0.3
	kill -$sig $pid
	n=0
	while kill -0 $pid 2>/dev/null && test $n -lt 100; do sleep 0.1; n=$((n + 1)); done
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid
		fail "mperf $* still running 10 s after SIG$sig"
		return 1
	fi
	rc=0 && wait $pid || rc=$?
	echo "$* SIG$sig: exit $rc"
}

test_expect_success 'SIGINT and SIGTERM end -p, -t, -a and -C recordings with a finished file' '
	spin_bg 60 2 20 &&
	pid=$(cat spin.pid) &&
	interrupt INT -p $pid && test $rc = 130 && "$MPERF" report -D -i int.data >/dev/null &&
	interrupt TERM -t $pid && test $rc = 143 && "$MPERF" report -D -i int.data >/dev/null &&
	interrupt INT -a && test $rc = 130 && "$MPERF" report -D -i int.data >/dev/null &&
	interrupt INT -C 1 && test $rc = 130 && "$MPERF" report -D -i int.data >/dev/null &&
	interrupt INT --per-thread -p $pid && test $rc = 130 && "$MPERF" report -D -i int.data >/dev/null &&
	stop_spin
'

test_expect_success PERF 'perf reads each interrupted recording' '
	spin_bg 60 1 20 &&
	pid=$(cat spin.pid) &&
	for t in "-p $pid" "-a" "-C 0"; do
		interrupt INT $t && perf_reads int.data || { stop_spin; exit 1; }
	done &&
	stop_spin
'

test_expect_success '-v: each perf_event_open is shown' '
	"$MPERF" record -v -e cpu-clock,task-clock -o v.data true 2>v.err &&
	test "$(grep -c "sys_perf_event_open: .* pid [0-9]*  cpu [0-9]*  group_fd -1  flags 0x8 = [0-9]" v.err)" = \
		$(( 2 * $(getconf _NPROCESSORS_ONLN) ))
'

# --- pipe mode, and perf's own files ------------------------------------------------

test_expect_success PERF '-a -o -: a pipe-mode stream perf and mperf read, with the tasks described' '
	"$MPERF" record -q -a -e cpu-clock -o - "$CPUSPIN" 0.2 >a.pipe &&
	"$PERF" report -i - --stdio --sort comm <a.pipe >a.prep 2>a.perr &&
	test_must_be_empty a.perr &&
	grep -q "% *cpuspin *$" a.prep &&
	"$MPERF" report -i - --stdio --sort comm <a.pipe >a.mrep &&
	grep "^ *[0-9.]*%" a.prep >a.p && grep "^ *[0-9.]*%" a.mrep >a.m &&
	diff a.p a.m
'

test_expect_success PERF 'perf'"'"'s own -p, -t, -a, -C and --per-thread files: mperf report -D equals perf'"'"'s' '
	spin_bg 60 2 20 &&
	pid=$(cat spin.pid) &&
	for t in "-p $pid" "-t $pid" "-a" "-C 1" "--per-thread -p $pid"; do
		"$PERF" record -q --no-bpf-event $t -e cpu-clock -o perf.data -- sleep 0.2 2>/dev/null &&
		same_dump perf.data || { stop_spin; fail "perf record $t"; exit 1; }
	done &&
	stop_spin
'

test_done
