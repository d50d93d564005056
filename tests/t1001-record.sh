#!/bin/bash
# mperf record: the seed's command, perf reading mperf's files, exit status,
# output naming, -c, lost samples, software events and SIGINT.

# (leaks checked in the sanitizer pass too: see tests/lib.sh)
MPERF_TEST_LEAKS=1
. "$(dirname "$0")/lib.sh"

# fallback_lines FILE: the lines of FILE that announce the cycles fallback.
fallback_lines () {
	grep -i 'cycles.*cpu-clock\|cpu-clock.*cycles' "$1" || true
}

# mperf_counts FILE: "NAME SAMPLES LOST" for each per-event line of mperf's
# stderr in FILE, in order.
mperf_counts () {
	sed -n "s/^\[ mperf record: event '\(.*\)': \([0-9][0-9]*\) samples, \([0-9][0-9]*\) lost \]\$/\1 \2 \3/p" "$1"
}

# mperf_total FILE: N from "Captured and wrote X MB FILE (N samples)".
mperf_total () {
	sed -n 's/^\[ mperf record: Captured and wrote .* (\([0-9][0-9]*\) samples) \]$/\1/p' "$1"
}

# perf_counts DUMP: "NAME SAMPLES" for each "NAME stats:" block at the end of
# a perf report -D output (0 when the block has no SAMPLE line).
perf_counts () {
	awk '
		/ stats:$/ && !/^Aggregated stats:/ {
			if (name != "") print name, 0
			name = $0; sub(/ stats:$/, "", name); next
		}
		name != "" && $1 == "SAMPLE" && $2 == "events:" {
			print name, $3; name = ""
		}
		END { if (name != "") print name, 0 }
	' "$1"
}

# u64_at FILE OFFSET: the little-endian u64 at OFFSET, in decimal.
u64_at () {
	od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '
}

# check_perf_file FILE: FILE is a finished perf.data: magic, a patched data
# size, and feature sections after the data.
check_perf_file () {
	local magic hsize doff dsize fsize feat
	magic=$(head -c 8 "$1")
	test "$magic" = PERFILE2 ||
		{ fail "$1: magic is '$magic', not PERFILE2"; return 1; }
	hsize=$(u64_at "$1" 8)
	test "$hsize" = 104 ||
		{ fail "$1: header size $hsize, expected 104"; return 1; }
	doff=$(u64_at "$1" 40)
	dsize=$(u64_at "$1" 48)
	fsize=$(stat -c %s "$1")
	test "$dsize" -gt 0 ||
		{ fail "$1: data size is 0 (header not patched)"; return 1; }
	test $((doff + dsize)) -lt "$fsize" ||
		{ fail "$1: data ends at $((doff + dsize)) of $fsize bytes: no features"; return 1; }
	feat=$(od -An -t x8 -j 72 -N 32 "$1" | tr -d ' 0\n')
	test -n "$feat" || { fail "$1: empty feature bitmap"; return 1; }
}

# perf_reads FILE: perf report -D reads FILE without a word on stderr; the
# dump is left in FILE.dump.
perf_reads () {
	test_expect_code 0 "$PERF" report -D -i "$1" >"$1.dump" 2>"$1.perr" &&
	test_must_be_empty "$1.perr"
}

# --- the seed ----------------------------------------------------------------

# The seed's events on a workload of 2 s of CPU time (noploop's 2 s of wall
# time are fewer on a busy machine), so that the counts can be predicted.
test_expect_success SETUP 'record the seed: three cycles events' '
	test_expect_code 0 "$MPERF" record -e cycles,cycles,cycles -o s.data \
		"$CPUSPIN" 2 2>s.err &&
	cat s.err
'

test_expect_success NOPMU 'the cycles fallback is announced once' '
	fallback_lines s.err >fb &&
	test_line_count = 1 fb &&
	grep -i "fall" fb
'

test_expect_success NOPMU 'with -q the fallback line is silenced too: nothing is said' '
	test_expect_code 0 "$MPERF" record -q -e cycles,cycles,cycles -o q.data \
		"$NOPLOOP" 0.5 2>q.err &&
	test_must_be_empty q.err &&
	"$MPERF" report --header-only -i q.data | grep -q "^# event : name = cpu-clock,"
'

test_expect_success !NOPMU 'with a PMU, cycles is recorded as cycles, without a word with -q' '
	! fallback_lines s.err | grep . &&
	mperf_counts s.err | cut -d" " -f1 | sort -u >names &&
	echo cycles >expect &&
	diff expect names &&
	test_expect_code 0 "$MPERF" record -q -e cycles,cycles,cycles -o q.data \
		"$NOPLOOP" 0.5 2>q.err &&
	test_must_be_empty q.err
'

# The starved event of the seed's bug got about 37% of the samples of the
# others: the three must stay within 2% of each other.
test_expect_success 'three events of one kind with matching sample counts' '
	mperf_counts s.err >counts &&
	cat counts &&
	test_line_count = 3 counts &&
	test "$(cut -d" " -f1 counts | sort -u | wc -l)" = 1 &&
	set -- $(cut -d" " -f2 counts) &&
	test_within_pct 2 "$@" &&
	test "$(mperf_total s.err)" = $(($1 + $2 + $3))
'

# cpu-clock at the default 4000 Hz is one sample per 250 us of CPU time.
test_expect_success NOPMU 'the fallback cpu-clock events sample 2 s of CPU time at 4000 Hz' '
	test "$(cut -d" " -f1 counts | sort -u)" = cpu-clock &&
	for n in $(cut -d" " -f2 counts); do
		test_cpu_samples $n 2000 250000 || exit 1
	done
'

# A hardware event at -F 4000 has its period tuned as it runs, so its
# count is only roughly 4000 per second of CPU time.
test_expect_success !NOPMU 'cycles at 4000 Hz gives roughly 4000 samples per CPU second' '
	for n in $(cut -d" " -f2 counts); do
		test_between 4000 12000 $n "samples of 2 s of CPU time" || exit 1
	done
'

test_expect_success 'the file is a finished perf.data' '
	check_perf_file s.data
'

test_expect_success PERF 'perf evlist shows the three events mperf recorded' '
	test_expect_code 0 "$PERF" evlist -i s.data >evlist 2>err &&
	test_must_be_empty err &&
	mperf_counts s.err | cut -d" " -f1 >expect &&
	test_line_count = 3 expect &&
	diff expect evlist
'

test_expect_success PERF 'perf script reads every sample' '
	test_expect_code 0 "$PERF" script -i s.data >script 2>err &&
	test_must_be_empty err &&
	test_line_count = "$(mperf_total s.err)" script
'

test_expect_success PERF 'perf report -D agrees with the counts mperf printed' '
	perf_reads s.data &&
	perf_counts s.data.dump >actual &&
	mperf_counts s.err | cut -d" " -f1,2 >expect &&
	diff expect actual
'

# Both record the same 2 s of CPU time, however busy the machine.  Each
# count is held to that CPU time, not to the other's: a loaded VM delivers
# a different share of the timer's periods in each run (93.5% against 99%
# has been seen).
test_expect_success PERF 'perf record on the same workload: the same events, each count the CPU time'"'"'s' '
	test_expect_code 0 "$PERF" record -e cycles,cycles,cycles -o p.data \
		"$CPUSPIN" 2 2>p.err &&
	perf_reads p.data &&
	perf_counts p.data.dump >pcounts &&
	mperf_counts s.err | cut -d" " -f1,2 >mcounts &&
	echo "perf:" $(cat pcounts) "mperf:" $(cat mcounts) &&
	test_line_count = 3 pcounts &&
	cut -d" " -f1 pcounts >pnames &&
	cut -d" " -f1 mcounts >mnames &&
	diff pnames mnames &&
	for n in $(cut -d" " -f2 pcounts mcounts); do
		if test "$(sort -u pnames)" = cpu-clock; then
			test_cpu_samples $n 2000 250000 || exit 1
		else
			test_between 4000 12000 $n "samples of 2 s of CPU time" || exit 1
		fi
	done
'

# --- exit status ---------------------------------------------------------------

test_expect_success SETUP 'the workload exit status is passed on' '
	test_expect_code 3 "$MPERF" record -o e3.data sh -c "exit 3" &&
	check_perf_file e3.data
'

test_expect_success SETUP 'a workload killed by a signal gives 128+signal' '
	test_expect_code 137 "$MPERF" record -o k.data sh -c "kill -9 \$\$" &&
	check_perf_file k.data
'

test_expect_success PERF 'perf reads the files of failed workloads' '
	perf_reads e3.data &&
	perf_reads k.data
'

test_expect_success 'a command that does not exist gives 127 and no file' '
	test_expect_code 127 "$MPERF" record -o x.data /nonexistent/cmd 2>err &&
	grep "command not found" err &&
	! test -e x.data
'

test_expect_success 'a file that is not executable gives 126' '
	echo "echo hello" >notexec &&
	chmod 644 notexec &&
	test_expect_code 126 "$MPERF" record -o n.data ./notexec 2>err &&
	grep "notexec" err
'

# --- output ------------------------------------------------------------------

# sig_bit MASK N: whether signal N is set in a /proc/PID/status mask (hex).
sig_bit () {
	test $(( (0x$1 >> ($2 - 1)) & 1 )) = 1
}

test_expect_success 'the workload runs with the signals mperf was given, not mperf'"'"'s' '
	(trap "" HUP && "$MPERF" record -q -o sig.data -- sh -c "grep -E \"^Sig(Ign|Blk):\" /proc/self/status") \
		>sig.out 2>sig.err &&
	ign=$(sed -n "s/^SigIgn:[[:space:]]*//p" sig.out) &&
	blk=$(sed -n "s/^SigBlk:[[:space:]]*//p" sig.out) &&
	test -n "$ign" && test -n "$blk" &&
	{ sig_bit "$ign" 1 || fail "SIGHUP, ignored by the caller (nohup), is not ignored in the workload: $ign"; } &&
	{ ! sig_bit "$ign" 13 || fail "SIGPIPE is ignored in the workload: $ign"; } &&
	{ test $((0x$blk)) = 0 || fail "the workload starts with blocked signals: $blk"; }
'

test_expect_success 'a workload writing into a closed pipe dies of SIGPIPE, as it would without mperf' '
	"$MPERF" record -q -o pipe.data -- \
		sh -c "(yes; echo \$? >yes.status) | head -n 1 >/dev/null; kill -l \$(cat yes.status)" \
		>pipe.out 2>/dev/null &&
	grep -qx PIPE pipe.out || fail "yes did not die of SIGPIPE: $(cat pipe.out)"
'

test_expect_success 'an existing perf.data becomes perf.data.old' '
	mkdir default &&
	cd default &&
	echo old >perf.data &&
	test_expect_code 0 "$MPERF" record -q true 2>err &&
	test "$(cat perf.data.old)" = old &&
	check_perf_file perf.data
'

# --- sampling period and frequency --------------------------------------------

test_expect_success SETUP 'record -c 1000000: one sample per ms of CPU time' '
	test_expect_code 0 "$MPERF" record -e cpu-clock -c 1000000 -o c.data \
		"$CPUSPIN" 1 2>c.err &&
	test_cpu_samples "$(mperf_total c.err)" 1000 1000000
'

test_expect_success PERF 'perf sees period 1000000 in every sample' '
	perf_reads c.data &&
	grep "PERF_RECORD_SAMPLE" c.data.dump >samples &&
	test_line_count = "$(mperf_total c.err)" samples &&
	! grep -v "period: 1000000 " samples
'

# The kernel turns a cpu-clock frequency into the period 1 s / HZ.
test_expect_success 'record -F 1000: one sample per ms of CPU time' '
	test_expect_code 0 "$MPERF" record -e cpu-clock -F 1000 -o f.data \
		"$CPUSPIN" 1 2>f.err &&
	test_cpu_samples "$(mperf_total f.err)" 1000 1000000
'

test_expect_success PERF 'without -e, the event perf records by default (cycles:P), with its attr' '
	"$PERF" record -q -o pdef.data "$CPUSPIN" 0.05 2>/dev/null &&
	"$MPERF" record -q -o mdef.data "$CPUSPIN" 0.05 2>/dev/null &&
	"$PERF" evlist -v -i pdef.data >pdef.v 2>/dev/null &&
	"$PERF" evlist -v -i mdef.data >mdef.v 2>/dev/null &&
	diff pdef.v mdef.v
'

# header_event FILE: the event lines of mperf's --header-only for FILE.
header_event () { "$MPERF" report --header-only -i "$1" | grep "^# event : "; }

test_expect_success '-c is decimal, as in perf: 0100000 is a hundred thousand' '
	"$MPERF" record -q -c 0100000 -e cpu-clock -o c8.data true &&
	header_event c8.data | grep -q "{ sample_period, sample_freq } = 100000," ||
		fail "period: $(header_event c8.data)" &&
	{ header_event c8.data | grep -q "sample_type = IP|TID|TIME," ||
		fail "a fixed period needs no PERIOD in the samples (perf leaves it out): $(header_event c8.data)"; }
'

test_expect_success '-F above kernel.perf_event_max_sample_rate is throttled to it, with perf'"'"'s warning' '
	max=$(cat /proc/sys/kernel/perf_event_max_sample_rate) &&
	"$MPERF" record -F $((max * 2)) -e cpu-clock -o fmax.data true 2>fmax.err &&
	grep -q "^warning: Maximum frequency rate ($max Hz) exceeded, throttling from $((max * 2)) Hz to $max Hz\.$" fmax.err &&
	header_event fmax.data | grep -q "{ sample_period, sample_freq } = $max,.* freq = 1" &&
	"$MPERF" record -F MAX -e cpu-clock -o fmax2.data true 2>fmax2.err &&
	grep -q "^info: Using a maximum frequency rate of $max Hz$" fmax2.err &&
	header_event fmax2.data | grep -q "{ sample_period, sample_freq } = $max,"
'

test_expect_success '--strict-freq refuses a rate above the limit, and writes nothing' '
	max=$(cat /proc/sys/kernel/perf_event_max_sample_rate) &&
	test_expect_code 129 "$MPERF" record --strict-freq -F $((max + 1)) -e cpu-clock -o strict.data true 2>strict.err &&
	grep -q "Maximum frequency rate ($max Hz) exceeded" strict.err &&
	! test -e strict.data
'

test_expect_success '-m rounds up to a power of two of pages and takes sizes, as perf' '
	pg=$(getconf PAGESIZE) &&
	"$MPERF" record -m 3 -e cpu-clock -o m3.data true 2>m3.err &&
	grep -q "^rounding mmap pages size to $((4 * pg / 1024))K (4 pages)$" m3.err &&
	"$MPERF" record -m 16M -e cpu-clock -o m16.data true 2>m16.err &&
	! grep -q rounding m16.err &&
	"$MPERF" record -q -m 8,8 -e cpu-clock -o m88.data true &&
	test_expect_code 129 "$MPERF" record -m abc -e cpu-clock -o mbad.data true 2>/dev/null &&
	test_expect_code 129 "$MPERF" record -m 1,x -e cpu-clock -o mbad.data true 2>/dev/null
'

test_expect_success 'the header'"'"'s cmdline has the word record, as perf writes it' '
	"$MPERF" report --header-only -i c8.data | grep -q "^# cmdline : /.*mperf record -q -c 0100000 -e cpu-clock -o c8.data true $"
'

# --- perf's attr options --------------------------------------------------------------

# For each option set, perf evlist -v shows the same attrs for mperf's file
# as for perf's own recording of the same command, and perf reads mperf's.
test_expect_success PERF 'attr options (-s -d -W --switch-events --namespaces --no-inherit -T -N): perf'"'"'s attrs' '
	for opts in "" "-s" "-d" "-W" "--switch-events" "--namespaces" "--no-inherit" "-T -N" \
		"-s -d -W --switch-events --namespaces"; do
		"$PERF" record -q $opts -e cpu-clock,task-clock -o popt.data "$CPUSPIN" 0.05 2>/dev/null &&
		"$MPERF" record -q $opts -e cpu-clock,task-clock -o mopt.data "$CPUSPIN" 0.05 &&
		"$PERF" evlist -v -i popt.data >popt.v 2>/dev/null &&
		"$PERF" evlist -v -i mopt.data >mopt.v 2>mopt.err &&
		test_must_be_empty mopt.err &&
		diff popt.v mopt.v &&
		"$PERF" report -D -i mopt.data >/dev/null 2>mopt.rerr &&
		test_must_be_empty mopt.rerr || { echo "with options: $opts"; exit 1; }
	done
'

test_expect_success '-s: READ records with the times and the lost count, per exiting thread' '
	"$MPERF" record -q -s -e cpu-clock -o stat.data sh -c "\"$CPUSPIN\" 0.1 & \"$CPUSPIN\" 0.1; wait" &&
	"$MPERF" report -D -i stat.data >stat.dump &&
	test "$(grep -c "PERF_RECORD_READ: " stat.dump)" -ge 3 &&
	grep -q "^\.\.\. time enabled : " stat.dump && grep -q "^\.\.\. lost         : " stat.dump
'

# --- perf_event_paranoid ------------------------------------------------------------

# Another user, at perf_event_paranoid 2 or more: the kernel is refused to it.
have_unprivileged () {
	have_nobody &&
	test "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2
}

test_expect_success UNPRIVILEGED 'paranoid 2, another user: events fall back to user space (NAME:u), said once' '
	mkdir -p nobody && chmod 777 nobody &&
	(cd nobody && as_nobody "$MPERF" record -e cpu-clock,page-faults -o u.data "$CPUSPIN" 0.2) 2>u.err &&
	test "$(grep -c "recording user space only" u.err)" = 1 &&
	mperf_counts u.err | cut -d" " -f1 >names &&
	printf "cpu-clock:u\npage-faults:u\n" >expect &&
	diff expect names &&
	"$MPERF" report --header-only -i nobody/u.data | grep "^# event : name = cpu-clock:u," | grep -q "exclude_kernel = 1"
'

test_expect_success UNPRIVILEGED 'paranoid 2: modifiers are kept and u added after them (cpu-clock:Hu), as perf names it' '
	(cd nobody && as_nobody "$MPERF" record -e cpu-clock:H,page-faults -o h.data "$CPUSPIN" 0.1) 2>h.err &&
	mperf_counts h.err | cut -d" " -f1 >names &&
	printf "cpu-clock:Hu\npage-faults:u\n" >expect &&
	diff expect names
'

test_expect_success UNPRIVILEGED 'paranoid 2: an event for the kernel alone (:k) fails, it is not turned into another' '
	(cd nobody && test_expect_code 125 as_nobody "$MPERF" record -e cpu-clock:k -o k.data "$CPUSPIN" 0.1) 2>k.err &&
	grep -q "no permission to open event .cpu-clock:k. on cpu [0-9]*: kernel.perf_event_paranoid is" k.err
'

# --- pipe mode (-o -) -------------------------------------------------------------

test_expect_success '-o - streams pipe mode: mperf report -D reads it, with every sample' '
	"$MPERF" record -e cpu-clock,task-clock -o - "$CPUSPIN" 0.3 >stream.data 2>stream.err &&
	test "$(head -c 8 stream.data)" = PERFILE2 &&
	test "$(u64_at stream.data 8)" = 16 &&
	mperf_counts stream.err | cut -d" " -f1,2 >expect &&
	"$MPERF" report -D -i - <stream.data >stream.dump &&
	perf_counts stream.dump >actual &&
	diff expect actual &&
	grep -q "PERF_RECORD_ATTR" stream.dump && grep -q "PERF_RECORD_FEATURE" stream.dump
'

test_expect_success PERF 'perf reads the stream from a pipe: no warning, the same counts and names' '
	"$MPERF" record -e cpu-clock,task-clock -o - "$CPUSPIN" 0.3 2>pstream.err |
		"$PERF" report -D -i - >pstream.dump 2>pstream.perr &&
	test_must_be_empty pstream.perr &&
	mperf_counts pstream.err | cut -d" " -f1,2 >expect &&
	perf_counts pstream.dump >actual &&
	diff expect actual
'

test_expect_success PERF 'with -o -, the workload'"'"'s standard output goes to standard error, not into the stream' '
	"$MPERF" record -q -e cpu-clock -o - sh -c "echo hello-from-workload; \"$CPUSPIN\" 0.1" 2>say.err >say.data &&
	grep -q "^hello-from-workload$" say.err &&
	"$PERF" report -D -i - <say.data >/dev/null 2>say.perr &&
	test_must_be_empty say.perr
'

test_expect_success '-o - into a regular file: a failed recording removes nothing (not even a file named -)' '
	echo precious >./- &&
	test_expect_code 127 "$MPERF" record -q -o - ./no-such-command >dash.data 2>/dev/null &&
	test "$(cat ./-)" = precious
'

test_expect_success 'a reader of -o - that goes away: mperf ends quietly (141), the workload too' '
	rc=0 &&
	{ "$MPERF" record -q -e cpu-clock -o - sh -c "echo \$\$ >gone.pid; exec \"$NOPLOOP\" 30" 2>gone.err; echo $? >gone.rc; } |
		head -c 64 >/dev/null &&
	n=0 && while ! test -s gone.rc && test $n -lt 300; do sleep 0.1; n=$((n + 1)); done &&
	test "$(cat gone.rc)" = 141 &&
	! grep -v "cycles\|cpu-clock" gone.err | grep . &&
	! kill -0 "$(cat gone.pid)" 2>/dev/null
'

# --- no lost samples ------------------------------------------------------------

# record_lost_test OUT: the recording of the lost-samples test, into OUT.data
# and OUT.err; checks that nothing was lost and that each event has the
# samples its 2 x 3 s of CPU time imply.
record_lost_test () {
	test_expect_code 0 "$MPERF" record -e cpu-clock,cpu-clock,cpu-clock \
		-c 50000 -o "$1.data" \
		sh -c "\"$CPUSPIN\" 3 & \"$CPUSPIN\" 3; wait" 2>"$1.err" || return 1
	cat "$1.err"
	mperf_counts "$1.err" >"$1.counts"
	test_line_count = 3 "$1.counts" || return 1
	test "$(cut -d" " -f3 "$1.counts" | sort -u)" = 0 ||
		{ fail "samples lost"; return 1; }
	! grep -i "lost" "$1.err" | grep -v "samples, 0 lost \]\$" || return 1
	set -- $(cut -d" " -f2 "$1.counts")
	for n in "$@"; do test_cpu_samples $n 6000 50000 || return 1; done
}

test_expect_success SETUP 'no samples lost: 3 events at -c 50000 on two busy workloads' '
	record_lost_test l
'

# At 20 kHz per event the kernel's cpu-clock timers drift a little apart
# (perf record shows the same spread on the same command), so this bound
# is looser than the seed's 2% at 4 kHz: it catches starvation, the
# failure the seed is about (about 3,700 samples instead of 10,000 for two
# of three events), not timer jitter.
test_expect_success 'no event of the lost-samples test is starved (within 10%)' '
	test_within_pct 10 $(cut -d" " -f2 l.counts)
'

test_expect_success PERF 'perf finds no LOST records and the same counts' '
	perf_reads l.data &&
	! grep "LOST" l.data.dump &&
	perf_counts l.data.dump >actual &&
	mperf_counts l.err | cut -d" " -f1,2 >expect &&
	diff expect actual
'

# stats_lost FILE: "LOST" per event block of `report --stats` output in FILE
# (0 when the block has no LOST_SAMPLES line), in order.
stats_lost () {
	awk '
		/ stats:$/ && !/^Aggregated stats:/ { if (n) print lost; n = 1; lost = 0; next }
		n && $1 == "LOST_SAMPLES" && $2 == "events:" { lost = $3 }
		END { if (n) print lost }
	' "$1"
}

# A one-page buffer at 50 kHz x 3 drops samples on most machines; when it
# does, each event's loss must be its own, the same in the summary, in
# mperf's stats and in perf's.
test_expect_success 'lost samples per event: the summary, report --stats and perf agree' '
	"$MPERF" record -m 1 -c 20000 -e cpu-clock,cpu-clock,cpu-clock -o loss.data \
		"$CPUSPIN" 0.5 2>loss.err &&
	mperf_counts loss.err | cut -d" " -f3 >summary &&
	test "$(wc -l <summary)" = 3 &&
	"$MPERF" report --stats -i loss.data >mstats &&
	stats_lost mstats >mine &&
	diff summary mine &&
	if test_have_prereq PERF
	then
		"$PERF" report --stats -i loss.data >pstats 2>/dev/null &&
		stats_lost pstats >perfs &&
		diff summary perfs
	fi &&
	echo "# lost per event: $(tr "\n" " " <summary)" >&2
'

# --- software events --------------------------------------------------------------

test_expect_success SETUP 'record a mix of software events' '
	test_expect_code 0 "$MPERF" record -e cpu-clock,task-clock,page-faults \
		-o mix.data "$NOPLOOP" 0.5 2>mix.err &&
	! fallback_lines mix.err | grep . &&
	printf "cpu-clock\ntask-clock\npage-faults\n" >expect &&
	mperf_counts mix.err | cut -d" " -f1 >actual &&
	diff expect actual &&
	check_perf_file mix.data
'

test_expect_success PERF 'perf evlist shows the three software events' '
	test_expect_code 0 "$PERF" evlist -i mix.data >evlist 2>err &&
	test_must_be_empty err &&
	diff expect evlist
'

# --- SIGINT -------------------------------------------------------------------------

# The signal comes once the workload has used 0.3 s of CPU time, not after
# a sleep, so that there are samples to drain however busy the machine is:
# the file must hold at least what that CPU time implies.  The workload
# would run 60 s: a recorder that waited for it would miss the 10 s allowed,
# which are that many to leave room for a loaded machine.
test_expect_success SETUP 'SIGINT ends the recording within 10 s with a finished file' '
	"$MPERF" record -o i.data sh -c "echo \$\$ >i.pid; exec \"$NOPLOOP\" 60" 2>i.err &
	pid=$! &&
	cpu=$(wait_cpu_ms i.pid 300) || { kill -KILL $pid; exit 1; } &&
	child=$(cat i.pid) &&
	start=$(date +%s%N) &&
	kill -INT $pid &&
	n=0 &&
	while kill -0 $pid 2>/dev/null && test $n -lt 100; do
		sleep 0.1
		n=$((n + 1))
	done &&
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid $child 2>/dev/null || true
		fail "mperf still running 10 s after SIGINT"
	fi &&
	rc=0 && wait $pid || rc=$? &&
	ms=$(( ($(date +%s%N) - start) / 1000000 )) &&
	echo "exit $rc after $ms ms, signal after $cpu ms of CPU" &&
	test $rc -ne 0 &&
	test $ms -lt 10000 &&
	! kill -0 $child 2>/dev/null &&
	check_perf_file i.data &&
	n=$("$MPERF" report -D -i i.data | grep -c "PERF_RECORD_SAMPLE(IP") &&
	test $n -ge $((cpu * 4 * CPU_SAMPLES_PCT / 100)) ||
		fail "$n samples for $cpu ms of CPU time at 4000 Hz"
'

test_expect_success PERF 'perf reads the interrupted recording' '
	perf_reads i.data &&
	perf_counts i.data.dump >counts &&
	cat counts &&
	test "$(cut -d" " -f2 counts)" -gt 0
'

test_expect_success 'under nohup (SIGHUP ignored), a hangup does not end the recording' '
	rm -f hup.data || exit 1
	(trap "" HUP && exec "$MPERF" record -q -e cpu-clock -o hup.data "$CPUSPIN" 0.6) &
	pid=$! &&
	n=0 && while ! test -e hup.data && test $n -lt 300; do sleep 0.05; n=$((n + 1)); done &&
	kill -HUP $pid &&
	rc=0 && wait $pid || rc=$? &&
	test "$rc" = 0 &&
	test_cpu_samples "$("$MPERF" report -D -i hup.data | grep -c "PERF_RECORD_SAMPLE(IP")" 600 250000
'

# As perf: the first SIGINT ends the workload with SIGTERM and waits for it,
# sampling on; one that ignores SIGTERM runs on until a second SIGINT, which
# kills it.  mperf then finishes the file, prints its summary and dies of
# the SIGINT (130), as perf does, whatever the workload'"'"'s status.
test_expect_success 'a workload that ignores SIGTERM: a second SIGINT kills it; summary, file, exit 130' '
	"$MPERF" record -e cpu-clock -o t.data sh -c "trap \"\" TERM; echo \$\$ >t.pid; exec \"$NOPLOOP\" 60" 2>t.err &
	pid=$! &&
	cpu=$(wait_cpu_ms t.pid 200) || { kill -KILL $pid; exit 1; } &&
	child=$(cat t.pid) &&
	kill -INT $pid &&
	sleep 0.5 &&
	{ kill -0 $child || fail "the workload ignoring SIGTERM should still run after one SIGINT"; } &&
	kill -INT $pid &&
	rc=0 && wait $pid || rc=$? &&
	test "$rc" = 130 &&
	! kill -0 $child 2>/dev/null &&
	grep -q "SIGINT again: killing the workload" t.err &&
	grep -q "^\[ mperf record: Captured and wrote .* t.data" t.err &&
	check_perf_file t.data &&
	if test_have_prereq PERF; then perf_reads t.data; fi
'

test_done
