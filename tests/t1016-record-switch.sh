#!/bin/bash
# mperf record --switch-output (a size, a time, SIGUSR2), --switch-max-files
# and --overwrite, as perf 6.1 takes them: each file whole and read alone
# by mperf and perf (its header, the kernel map, the workload's comm and
# maps), named OUTPUT.<timestamp> and said as perf says it; the files'
# samples sum to the run's; the flight recorder keeps the last part of
# the run, at the end and on SIGUSR2.

. "$(dirname "$0")/lib.sh"

# total FILE: N from "Captured and wrote ... (N samples) ]" of record's stderr.
total () {
	sed -n 's/^\[ mperf record: Captured and wrote .* (\([0-9][0-9]*\) samples) \]$/\1/p' "$1"
}

# nsamples FILE TOOL: the SAMPLE records -D shows.
nsamples () {
	if test "$2" = perf
	then
		"$PERF" report --stdio -D -i "$1" 2>/dev/null
	else
		"$MPERF" report -D -i "$1"
	fi | grep -c "PERF_RECORD_SAMPLE("
}

# dumped ERR: the files record said it switched to, then the last one.
dumped () {
	sed -n 's/^\[ mperf record: Dump \(.*\) \]$/\1/p' "$1"
}

# wait_for COND...: until the command succeeds, up to 30 s.
wait_for () {
	local i=0
	until "$@"; do
		i=$((i + 1))
		test $i -lt 600 || return 1
		sleep 0.05
	done
}

# dumps ERR N: record has said at least N files it switched away from (or the last).
dumps () {
	test "$(grep -c "^\[ mperf record: Dump " "$1")" -ge "$2"
}

# TASKSET: the workload can be held on one CPU, so that one buffer holds it all.
have_taskset () {
	command -v taskset >/dev/null && taskset -c 0 true
}

test_expect_success SETUP '--switch-output=64K: several files, each whole, named and said as perf' '
	"$MPERF" record -F 4000 -e cpu-clock -m 16 --switch-output=64K -o s.data "$CPUSPIN" 2 2>s.err &&
	! test -e s.data &&
	ls s.data.* >files &&
	test_line_count -ge 3 files &&
	dumped s.err >said &&
	diff -u files said &&
	grep -qx "s\.data\.[0-9]\{16\}" files &&
	test "$(grep -c "^\[ mperf record: dump data: Woken up [0-9]* times \]$" s.err)" = "$(($(wc -l <files) - 1))" &&
	grep -q "^\[ mperf record: Captured and wrote [0-9.]* MB s\.data\.<timestamp> ([0-9]* samples) \]$" s.err
'

test_expect_success SETUP 'the files samples sum to the run s, each file read alone' '
	sum=0 &&
	for f in $(cat files)
	do
		n=$(nsamples $f mperf) && test "$n" -gt 0 &&
		echo "$f $n" >>counts &&
		sum=$((sum + n)) || return 1
	done &&
	test "$sum" = "$(total s.err)" &&
	for f in $(cat files)
	do
		"$MPERF" report --sort comm,dso -i $f >$f.rep &&
		grep -q "cpuspin *cpuspin" $f.rep || return 1
	done
'

test_expect_success 'a later file begins with the kernel map, the workload s comm and maps, FINISHED_INIT' '
	f=$(sed -n 2p files) &&
	"$MPERF" report -D -i $f >later.dump &&
	grep "^0 0x[0-9a-f]* \[" later.dump | head -n 4 >head &&
	grep -q "PERF_RECORD_MMAP -1/0: .*\[kernel.kallsyms\]_text" head &&
	grep -q "PERF_RECORD_COMM: cpuspin:" head &&
	grep -q "PERF_RECORD_MMAP2 .*r-xp .*/cpuspin$" later.dump &&
	grep -q "PERF_RECORD_FINISHED_INIT" later.dump
'

test_expect_success PERF 'perf reads every file without an error, each with the same samples' '
	for f in $(cat files)
	do
		"$PERF" report --stdio -D -i $f >/dev/null 2>$f.perr &&
		! grep -i "error\|fail\|invalid" $f.perr &&
		test "$(nsamples $f perf)" = "$(grep "^$f " counts | cut -d" " -f2)" || return 1
	done
'

test_expect_success 'SIGUSR2 switches files (--switch-output: signal)' '
	# the workload runs until the two switches are done (a loaded machine
	# may take seconds for each), then ends: the third file is the last
	"$MPERF" record -F 1000 -e cpu-clock --switch-output -o g.data "$CPUSPIN" 60 2>g.err &
	pid=$! &&
	wait_for test -s g.data &&
	kill -USR2 $pid &&
	wait_for dumps g.err 1 &&
	kill -USR2 $pid &&
	wait_for dumps g.err 2 &&
	pkill -TERM -P $pid &&
	{ wait $pid || test $? = 143; } &&
	ls g.data.* >gfiles &&
	test_line_count = 3 gfiles &&
	dumped g.err >gsaid &&
	diff -u gfiles gsaid &&
	sum=0 &&
	for f in $(cat gfiles)
	do
		sum=$((sum + $(nsamples $f mperf))) || return 1
	done &&
	test "$sum" = "$(total g.err)"
'

test_expect_success 'without --switch-output SIGUSR2 is ignored, as perf ignores it' '
	"$MPERF" record -F 1000 -e cpu-clock -o u.data "$CPUSPIN" 1 2>u.err &
	pid=$! &&
	wait_for test -s u.data &&
	kill -USR2 $pid &&
	wait $pid &&
	! ls u.data.* &&
	test "$(nsamples u.data mperf)" = "$(total u.err)"
'

test_expect_success '--switch-output=1s: a file a second' '
	"$MPERF" record -F 1000 -e cpu-clock --switch-output=1s -o t.data "$CPUSPIN" 2.5 2>t.err &&
	ls t.data.* >tfiles &&
	test_line_count -ge 3 tfiles
'

test_expect_success '--switch-max-files=2 keeps the last two files' '
	"$MPERF" record -F 4000 -e cpu-clock -m 16 --switch-output=32K --switch-max-files=2 -o k.data "$CPUSPIN" 1.5 2>k.err &&
	dumped k.err >ksaid &&
	test_line_count -ge 3 ksaid &&
	ls k.data.* >kfiles &&
	tail -n 2 ksaid >klast &&
	diff -u klast kfiles
'

test_expect_success 'bad values are usage errors' '
	test_expect_code 129 "$MPERF" record --switch-output=12 true 2>e1 &&
	grep -q "invalid --switch-output .12." e1 &&
	test_expect_code 129 "$MPERF" record --switch-output=1x true &&
	test_expect_code 129 "$MPERF" record --switch-output=0M true &&
	test_expect_code 129 "$MPERF" record --switch-max-files=-1 --switch-output true &&
	test_expect_code 129 "$MPERF" record --switch-output -o - true 2>e2 &&
	grep -q "not with -o -" e2
'

test_expect_success TASKSET,SETUP '--overwrite keeps the last part of the run: the measured phase only' '
	taskset -c 0 "$MPERF" record -F 4000 -e cpu-clock -m 8 --overwrite -o o.data "$TWOPHASE" 0.5 1 2>o.err &&
	syms o.data mperf >o.syms &&
	grep -qx measured o.syms &&
	! grep -qx warmup o.syms &&
	n=$(nsamples o.data mperf) &&
	test "$n" = "$(total o.err)" &&
	test_between 100 700 "$n" "samples in 32 KiB"
'

test_expect_success TASKSET 'without --overwrite the same run keeps both phases' '
	taskset -c 0 "$MPERF" record -F 4000 -e cpu-clock -m 8 -o a.data "$TWOPHASE" 0.5 1 2>a.err &&
	syms a.data mperf >a.syms &&
	grep -qx measured a.syms &&
	grep -qx warmup a.syms
'

test_expect_success TASKSET,SETUP '--overwrite --switch-output: SIGUSR2 dumps the warm-up, the end the measured phase' '
	taskset -c 0 "$MPERF" record -F 4000 -e cpu-clock -m 8 --overwrite --switch-output -o w.data \
		"$TWOPHASE" 2 1 2>w.err &
	pid=$! &&
	wait_for test -s w.data &&
	sleep 0.5 &&
	kill -USR2 $pid &&
	wait $pid &&
	dumped w.err >wfiles &&
	test_line_count = 2 wfiles &&
	syms $(sed -n 1p wfiles) mperf >w1.syms &&
	grep -qx warmup w1.syms &&
	! grep -qx measured w1.syms &&
	syms $(sed -n 2p wfiles) mperf >w2.syms &&
	grep -qx measured w2.syms &&
	! grep -qx warmup w2.syms
'

test_expect_success PERF 'perf reads the flight recorder s files: the same symbols, the same samples' '
	syms o.data perf >po.syms &&
	diff -u o.syms po.syms &&
	test "$(nsamples o.data perf)" = "$(nsamples o.data mperf)" &&
	for f in $(cat wfiles)
	do
		"$PERF" report --stdio -D -i $f >/dev/null 2>$f.perr &&
		! grep -i "error\|fail\|invalid" $f.perr &&
		test "$(nsamples $f perf)" = "$(nsamples $f mperf)" || return 1
	done
'

test_done
