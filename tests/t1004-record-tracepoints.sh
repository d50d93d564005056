#!/bin/bash
# mperf record of tracepoints, read by perf: the file carries TRACING_DATA
# as perf 6.1 writes it, so perf script prints the fields of each sample
# (the same fields, in the same order, as on perf's own recording of the
# same events), perf report reads it without a word, and mperf report -D
# prints what perf report -D does.  --filter as perf's: it applies to the
# -e before it, its field names are checked against the event's format,
# and what it cannot set is refused in one line.  Counts differ from run
# to run: the tests compare event names and field names, never counts.

. "$(dirname "$0")/lib.sh"

have_sched () {
	for e in sched_switch sched_wakeup sched_process_exec sched_process_exit; do
		test -e /sys/kernel/tracing/events/sched/$e/id ||
		test -e /sys/kernel/debug/tracing/events/sched/$e/id || return 1
	done
}

# shape FILE: for each kind of perf script line, the event's name and the
# names of its fields in order ("sched:sched_switch prev_comm= ... ==>
# next_comm= ..."), once each, sorted.
shape () {
	sed -n 's/^.* [0-9][0-9]*\.[0-9]*: *\([A-Za-z0-9_]*:[A-Za-z0-9_]*\): /\1 /p' "$1" |
	awk '{ s = $1; for (i = 2; i <= NF; i++) if ($i == "==>" || match($i, /^[a-z_]+=/)) s = s " " ($i == "==>" ? $i : substr($i, 1, RLENGTH)); print s }' |
	sort -u
}

# script_both NAME ARGS...: perf and mperf record cpuspin 0.3 with ARGS into
# NAME.perf.data and NAME.mperf.data; perf script of each into .out, and
# perf script must say nothing on stderr about mperf's file.
script_both () {
	local name=$1
	shift
	"$PERF" record --no-bpf-event -q "$@" -o "$name.perf.data" "$CPUSPIN" 0.3 >/dev/null 2>"$name.perf.err" &&
	"$MPERF" record -q "$@" -o "$name.mperf.data" "$CPUSPIN" 0.3 >/dev/null 2>"$name.mperf.err" &&
	"$PERF" script -i "$name.perf.data" >"$name.perf.out" 2>/dev/null &&
	"$PERF" script -i "$name.mperf.data" >"$name.mperf.out" 2>"$name.script.err" &&
	test_must_be_empty "$name.script.err" &&
	shape "$name.perf.out" >"$name.perf.shape" &&
	shape "$name.mperf.out" >"$name.mperf.shape" &&
	cat "$name.mperf.shape"
}

# same_shape NAME EVENT...: each EVENT is in both recordings, with the same
# fields; and every event of mperf's has perf's fields.
same_shape () {
	local name=$1 e
	shift
	for e; do
		grep -q "^$e " "$name.mperf.shape" || fail "no $e in mperf's file" || return 1
		grep -q "^$e " "$name.perf.shape" || fail "no $e in perf's file" || return 1
	done
	while read -r e rest; do
		grep -q "^$e " "$name.perf.shape" || continue
		grep -qxF "$e $rest" "$name.perf.shape" || fail "$e: fields $rest" || return 1
	done <"$name.mperf.shape"
}

# same_dump FILE: mperf report -D prints what perf report -D prints, up to
# the stats (t3001's comparison), and perf says nothing on stderr.
same_dump () {
	"$PERF" report -D -i "$1" >perf.dump 2>perf.dump.err &&
	test_must_be_empty perf.dump.err &&
	"$MPERF" report -D -i "$1" >mperf.dump &&
	sed '/^Aggregated stats:/,$d' perf.dump >perf.body &&
	sed '/^Aggregated stats:/,$d' mperf.dump >mperf.body &&
	test "$(wc -l <perf.body)" -gt 50 &&
	diff -u perf.body mperf.body >dump.diff || { head -n 40 dump.diff; return 1; }
}

test_expect_success PERF,TRACEFS,SCHED 'sched:sched_switch: perf script prints its fields, as on perf'"'"'s file' '
	script_both sw -e sched:sched_switch &&
	same_shape sw sched:sched_switch &&
	grep -q "sched:sched_switch: prev_comm=cpuspin prev_pid=[0-9]* .* ==> next_comm=" sw.mperf.out
'

test_expect_success PERF,TRACEFS,SCHED 'two events in one -e: each with its own fields' '
	script_both two -e sched:sched_switch,sched:sched_wakeup &&
	same_shape two sched:sched_switch
'

test_expect_success PERF,TRACEFS,SCHED 'a glob (sched:sched_process_*): exec and exit with their fields' '
	script_both glob -e "sched:sched_process_*" &&
	same_shape glob sched:sched_process_exec sched:sched_process_exit &&
	grep -q "sched:sched_process_exec: filename=.*cpuspin pid=" glob.mperf.out
'

test_expect_success PERF,TRACEFS,SCHED 'perf report reads mperf'"'"'s file without a warning' '
	"$PERF" report --stdio -i two.mperf.data >report.out 2>report.err &&
	test_must_be_empty report.err &&
	grep -q "sched:sched_switch" report.out
'

test_expect_success PERF,TRACEFS,SCHED 'mperf report -D equals perf report -D, on mperf'"'"'s file and perf'"'"'s' '
	same_dump sw.mperf.data && same_dump two.mperf.data && same_dump glob.mperf.data &&
	same_dump sw.perf.data && same_dump two.perf.data
'

# tracing_data FILE: the TRACING_DATA section of a file-mode FILE, without
# its last part (saved_cmdlines, which tracing by anyone else may change
# between two recordings), on stdout.
tracing_data () {
	perl -e '
		open(my $f, "<:raw", $ARGV[0]) or die; local $/; my $d = <$f>;
		my ($doff, $dsz) = unpack("Q<Q<", substr($d, 40, 16));
		my @bits = unpack("Q<4", substr($d, 72, 32));
		(($bits[0] >> 1) & 1) or die "no TRACING_DATA\n";
		# bit 1 is the first feature: its section is the first of the table
		my ($off, $size) = unpack("Q<Q<", substr($d, $doff + $dsz, 16));
		my $t = substr($d, $off, $size); my $p = 10;
		my $cstr = sub { my $e = index($t, "\0", $p); my $s = substr($t, $p, $e - $p); $p = $e + 1; $s };
		my $u32 = sub { my $v = unpack("L<", substr($t, $p, 4)); $p += 4; $v };
		my $u64 = sub { my $v = unpack("Q<", substr($t, $p, 8)); $p += 8; $v };
		$cstr->() eq "0.6" or die "version\n"; $p += 6;
		for (1 .. 2) { $cstr->(); $p += $u64->(); }
		my $n = $u32->(); $p += $u64->() for 1 .. $n;
		my $nsys = $u32->();
		for (1 .. $nsys) { $cstr->(); my $k = $u32->(); $p += $u64->() for 1 .. $k; }
		$p += $u32->() for 1 .. 2;
		$p + 8 + unpack("Q<", substr($t, $p, 8)) == length($t) or die "size\n";
		print substr($t, 0, $p);
	' "$1"
}

test_expect_success PERF,TRACEFS,SCHED 'TRACING_DATA holds the bytes perf writes for the same events' '
	tracing_data two.perf.data >perf.td &&
	tracing_data two.mperf.data >mperf.td &&
	test "$(wc -c <mperf.td)" -gt 1000 &&
	cmp perf.td mperf.td &&
	"$PERF" report --header-only -i two.mperf.data >hdr.out 2>hdr.err &&
	test_must_be_empty hdr.err &&
	! grep -q "missing features:.*TRACING_DATA" hdr.out
'

test_expect_success PERF,TRACEFS,SCHED 'pipe mode: perf script -i - decodes the fields' '
	"$MPERF" record -q -e sched:sched_switch,sched:sched_wakeup -o - "$CPUSPIN" 0.3 >pipe.data 2>pipe.err &&
	test_must_be_empty pipe.err &&
	"$PERF" script -i - <pipe.data >pipe.out 2>pipe.script.err &&
	test_must_be_empty pipe.script.err &&
	grep -q "sched:sched_switch: prev_comm=cpuspin .* ==> next_comm=" pipe.out &&
	"$MPERF" record -q -e sched:sched_switch -o - "$CPUSPIN" 0.2 2>/dev/null |
		"$PERF" script -i - >pipe2.out 2>pipe2.err &&
	test_must_be_empty pipe2.err &&
	grep -q "prev_comm=cpuspin" pipe2.out &&
	same_dump pipe.data && grep -q "PERF_RECORD_TRACING_DATA" mperf.dump
'

test_expect_success PERF,TRACEFS,SCHED '--filter: only what it lets through is recorded' '
	"$MPERF" record -q -e sched:sched_switch --filter "prev_comm == \"cpuspin\"" -o f.data \
		sh -c "\"$CPUSPIN\" 0.3; sleep 0.05; true" 2>f.err &&
	test_must_be_empty f.err &&
	"$PERF" script -i f.data >f.out 2>/dev/null &&
	grep -q "prev_comm=cpuspin" f.out &&
	! grep -v "prev_comm=cpuspin " f.out
'

test_expect_success PERF,TRACEFS,SCHED '--filter applies to the events of the -e before it, as perf' '
	"$MPERF" record -q -e sched:sched_process_exit -e sched:sched_process_exec --filter "pid == 1" \
		-o last.data "$CPUSPIN" 0.1 &&
	"$PERF" script -i last.data >last.out 2>/dev/null &&
	grep -q "sched:sched_process_exit:" last.out &&
	! grep -q "sched:sched_process_exec:" last.out &&
	"$MPERF" record -q -e sched:sched_process_exit,sched:sched_process_exec --filter "pid == 1" \
		-o both.data "$CPUSPIN" 0.1 &&
	"$PERF" script -i both.data >both.out 2>/dev/null &&
	! grep -q "sched:sched_process_e" both.out
'

# filtered_exec NAME FILTER...: record sched_process_exec of cpuspin with a
# --filter for each FILTER; true when perf script shows the exec.
filtered_exec () {
	local name=$1 f args=()
	shift
	for f; do args+=(--filter "$f"); done
	"$MPERF" record -q -e sched:sched_process_exec "${args[@]}" -o "$name.data" "$CPUSPIN" 0.1 &&
	"$PERF" script -i "$name.data" >"$name.out" 2>/dev/null &&
	grep -q "sched:sched_process_exec:" "$name.out"
}

test_expect_success PERF,TRACEFS,SCHED 'two --filter options are combined: (a) && (b)' '
	filtered_exec and0 "pid != 1" "common_pid != 1" &&
	! filtered_exec and1 "pid == 1" "common_pid != 1" &&
	! filtered_exec and2 "pid != 1" "common_pid == 1" &&
	test -s and1.data && test -s and2.data
'

test_expect_success TRACEFS,SCHED '--filter naming a field the event lacks: refused in one line, before it runs' '
	test_expect_code 125 "$MPERF" record -q -e sched:sched_switch --filter "prev_pidd == 1" \
		-o unk.data sh -c "touch ran" 2>err &&
	test_line_count = 1 err &&
	grep -q "^mperf record: --filter '"'"'prev_pidd == 1'"'"': sched:sched_switch has no field '"'"'prev_pidd'"'"'$" err &&
	! test -e unk.data && ! test -e ran
'

test_expect_success TRACEFS,SCHED 'the common fields and the kernel'"'"'s generic ones are fields' '
	"$MPERF" record -q -e sched:sched_switch --filter "common_pid != 0 && (cpu >= 0 || COMM ~ \"x*\")" \
		-o gen.data "$CPUSPIN" 0.1 2>err &&
	test_must_be_empty err
'

test_expect_success TRACEFS,SCHED 'a filter the kernel refuses: one line, naming the filter and the event' '
	test_expect_code 125 "$MPERF" record -q -e sched:sched_switch --filter "prev_pid == " \
		-o einval.data "$CPUSPIN" 0.1 2>err &&
	test_line_count = 1 err &&
	grep -q "^mperf record: cannot set --filter '"'"'prev_pid == '"'"' on '"'"'sched:sched_switch'"'"': Invalid argument$" err &&
	! test -e einval.data
'

test_expect_success '--filter without a -e before it: refused in one line, as perf' '
	test_expect_code 129 "$MPERF" record --filter "prev_pid == 1" -e sched:sched_switch true 2>err &&
	test_line_count = 1 err &&
	grep -q "must follow a -e tracepoint option" err
'

test_expect_success '--filter after an event that is not a tracepoint: refused in one line' '
	test_expect_code 129 "$MPERF" record -e cpu-clock --filter "x == 1" true 2>err &&
	test_line_count = 1 err &&
	grep -q "'"'"'cpu-clock'"'"' is not a tracepoint" err
'

test_done
