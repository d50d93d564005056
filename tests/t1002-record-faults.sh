#!/usr/bin/env bash
# mperf record when things go wrong: a full disk, signals to mperf, a
# crashing workload, too few file descriptors.
. "$(dirname "$0")/lib.sh"

samples_in () { "$MPERF" report -D -i "$1" 2>/dev/null | grep -c "PERF_RECORD_SAMPLE(IP"; }

have_tmpfs_mount () {
	mkdir -p "$TRASH_DIRECTORY/small" &&
	mount -t tmpfs -o size=96k tmpfs "$TRASH_DIRECTORY/small" 2>/dev/null &&
	umount "$TRASH_DIRECTORY/small"
}

test_expect_success 'output on /dev/full: one line naming the file and ENOSPC, exit 125' '
	test_expect_code 125 "$MPERF" record -q -e cpu-clock -o /dev/full "$NOPLOOP" 0.2 2>err &&
	test_line_count = 1 err &&
	grep -q "cannot write '\''/dev/full'\'': No space left on device" err &&
	test -c /dev/full
'

test_expect_success TMPFS_MOUNT 'a disk that fills up mid-record: 125, workload reaped, what fit kept readable' '
	mount -t tmpfs -o size=96k tmpfs small &&
	rc=0 && "$MPERF" record -q -e cpu-clock -c 100000 -o small/x.data sh -c "echo \$\$ >pid; exec \"$CPUSPIN\" 3" 2>err || rc=$? &&
	n=$(samples_in small/x.data) &&
	umount small &&
	test "$rc" = 125 &&
	test_line_count = 1 err &&
	grep -q "^mperf record: the disk is full: .small/x.data. keeps the first $n samples (0\.[0-9]* MB), readable$" err &&
	test "$n" -gt 0 &&
	! kill -0 "$(cat pid)" 2>/dev/null
'

# The final drain, exactly: mperf is stopped (SIGSTOP) once the workload
# has used 0.2 s of CPU; the workload runs 1 s more of CPU (counted, not
# slept) while mperf cannot drain; only then is the signal sent, with
# SIGCONT.  That second's samples reach the file only through the drains
# after the signal.  cpu-clock at 4000 Hz gives 4 samples per ms of CPU:
# the file must hold more than the first 0.2 s can give at 125% of that,
# plus half of the second.  (With those drains removed, 802 samples against
# 3380 wanted.)  -m 256 holds the second's samples in the buffer.
# Under nohup SIGHUP is ignored, and mperf keeps an ignored SIGHUP
# ignored, as perf does: that test needs it delivered.
have_sighup () {
	local ign
	ign=$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status) && test $(( 0x$ign & 1 )) = 0
}
have_sigterm () { :; }

for sig in TERM HUP; do
	test_expect_success SIG$sig "SIG$sig to mperf mid-record: the final drain writes what the buffer holds" '
		rm -f '$sig'.pid || exit 1
		"$MPERF" record -q -m 256 -e cpu-clock -o '$sig'.data sh -c "echo \$\$ >'$sig'.pid; exec \"$NOPLOOP\" 60" 2>err &
		pid=$! &&
		c1=$(wait_cpu_ms '$sig'.pid 200) || { kill -KILL $pid; exit 1; } &&
		kill -STOP $pid &&
		c1=$(cpu_ms "$(cat '$sig'.pid)") || { kill -KILL $pid; kill -CONT $pid; exit 1; } &&
		c2=$(wait_cpu_ms '$sig'.pid $((c1 + 1000))) || { kill -KILL $pid; kill -CONT $pid; exit 1; } &&
		kill -'$sig' $pid && kill -CONT $pid &&
		rc=0 && wait $pid || rc=$? &&
		echo "exit status $rc" &&
		test "$rc" = $((128 + $(kill -l '$sig'))) &&
		n=$(samples_in '$sig'.data) &&
		want=$((c1 * 4 * 125 / 100 + (c2 - c1) * 2)) &&
		echo "$n samples: stopped after $c1 ms of CPU, signal after $c2 ms; want more than $want" &&
		test "$n" -gt "$want" &&
		if have_perf; then "$PERF" report -D -i '$sig'.data >/dev/null 2>perr && test_must_be_empty perr; fi
	'
done

test_expect_success 'a workload that crashes: complete file, 128+SIGSEGV' '
	test_expect_code 139 "$MPERF" record -q -e cpu-clock -o segv.data sh -c "\"$CPUSPIN\" 0.3; kill -SEGV \$\$" &&
	test_cpu_samples "$(samples_in segv.data)" 300 250000 &&
	if have_perf; then "$PERF" report -D -i segv.data >/dev/null 2>perr && test_must_be_empty perr; fi
'

test_expect_success 'a workload that fails: its exit status, complete file' '
	test_expect_code 7 "$MPERF" record -q -e cpu-clock -o fail.data sh -c "\"$CPUSPIN\" 0.2; exit 7" &&
	test_cpu_samples "$(samples_in fail.data)" 200 250000
'

# 16 events need 16 descriptors per CPU: over a limit of 12 on a machine
# with a single CPU too.
test_expect_success 'too few file descriptors: the message names the limit' '
	rc=0 && (ulimit -n 12 && exec "$MPERF" record -q -e cpu-clock$(printf ",cpu-clock%.0s" $(seq 15)) -o fd.data true) 2>err || rc=$? &&
	test "$rc" = 125 &&
	test_line_count = 1 err &&
	grep -q "too many open files.*ulimit -n" err
	! test -e fd.data
'

test_done
