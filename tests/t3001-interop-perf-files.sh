#!/usr/bin/env bash
# mperf reads perf's files: for files perf recorded, every line of
# `mperf report -D` before the stats equals `perf report -D`'s, and the
# per-event SAMPLE totals match.  Skipped without perf.
. "$(dirname "$0")/lib.sh"

# perf report -D up to the stats, with perf's random vdso temp file name
# (pipe mode) written as [vdso], which is what mperf prints.
dump_body () { sed '/^Aggregated stats:/,$d; s#/tmp/perf-vdso\.so-[A-Za-z0-9]*#[vdso]#g'; }
event_samples () { awk '/^Aggregated stats:/{a=1;next} a&&/ stats:$/{e=1;next} e&&/SAMPLE events:/{printf "%s ",$3;e=0}' "$1"; }

# same_dump FILE: perf and mperf dumps of FILE agree.
same_dump () {
	"$PERF" report -D -i "$1" >perf.out 2>/dev/null &&
	"$MPERF" report -D -i "$1" >mperf.out &&
	dump_body <perf.out >perf.body && dump_body <mperf.out >mperf.body &&
	test "$(wc -l <perf.body)" -gt 100 &&
	diff -u perf.body mperf.body >diff.out || { head -n 40 diff.out; return 1; }
	test -n "$(event_samples perf.out)" &&
	test "$(event_samples perf.out)" = "$(event_samples mperf.out)" ||
		{ echo "perf: $(event_samples perf.out) mperf: $(event_samples mperf.out)"; return 1; }
}

perf_record () { "$PERF" record --no-bpf-event -q "$@" >/dev/null 2>perf-record.err; }

test_expect_success PERF 'the seed events: cycles x3 (cpu-clock where there is no PMU)' '
	perf_record -o seed.data -e cycles,cycles,cycles "$CPUSPIN" 0.5 &&
	same_dump seed.data &&
	test "$(event_samples mperf.out | wc -w)" = 3
'

test_expect_success PERF '-F 1000' '
	perf_record -o F.data -F 1000 -e cpu-clock "$CPUSPIN" 0.3 && same_dump F.data
'

test_expect_success PERF '-c 100000' '
	perf_record -o c.data -c 100000 -e cpu-clock "$CPUSPIN" 0.3 && same_dump c.data &&
	grep -q " period: 100000 addr: 0$" mperf.out
'

test_expect_success PERF 'a mix of software events' '
	perf_record -o mix.data -e cpu-clock,task-clock,page-faults,context-switches "$CPUSPIN" 0.3 &&
	same_dump mix.data
'

test_expect_success PERF 'callchains (-g) and a forked child' '
	perf_record -o g.data -g -e cpu-clock sh -c "\"$CPUSPIN\" 0.2 & \"$CPUSPIN\" 0.2; wait" &&
	same_dump g.data
'

test_expect_success PERF 'system-wide with switch events (-a --switch-events)' '
	perf_record -o a.data -a --switch-events -e cpu-clock sleep 0.2 && same_dump a.data
'

test_expect_success PERF 'leader sampling group ({a,b}:S: read values per event)' '
	perf_record -o grp.data -e "{cpu-clock,task-clock}:S" "$CPUSPIN" 0.2 && same_dump grp.data
'

test_expect_success PERF 'per-thread counts (-s): READ records with their four lines' '
	perf_record -o s.data -s -e cpu-clock,task-clock sh -c "\"$CPUSPIN\" 0.1 & \"$CPUSPIN\" 0.1; wait" &&
	same_dump s.data &&
	grep -q "^\.\.\. time enabled : " mperf.out && grep -q "^\.\.\. lost         : " mperf.out
'

test_expect_success PERF 'a pipe-mode file (perf record -o -)' '
	"$PERF" record --no-bpf-event -q -o - -e cpu-clock,task-clock "$CPUSPIN" 0.3 >pipe.data 2>/dev/null &&
	same_dump pipe.data &&
	grep -q "^0@pipe \[" mperf.out
'

test_expect_success PERF 'a pipe-mode stream on stdin' '
	"$PERF" record --no-bpf-event -q -o - -e cpu-clock "$CPUSPIN" 0.2 2>/dev/null |
		"$MPERF" report -D -i - >stdin.out &&
	"$PERF" report -D -i - <pipe.data >/dev/null 2>&1 &&
	grep -q "^cpu-clock stats:$" stdin.out &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" stdin.out)" -gt 100
'

test_expect_success PERF 'perf record -z: the records inside COMPRESSED, each at its offset' '
	perf_record -z -o z.data -e cpu-clock "$CPUSPIN" 0.3 && same_dump z.data &&
	grep -q "^      COMPRESSED events: " mperf.out &&
	"$PERF" report --header-only -i z.data >perf.hdr 2>/dev/null &&
	"$MPERF" report --header-only -i z.data >mperf.hdr &&
	diff -u perf.hdr mperf.hdr && grep -q "^# compressed : Zstd, level = " mperf.hdr
'

# set_arch FILE ARCH: the ARCH feature's string rewritten in place (it is
# padded to 64 bytes: any name that short fits).
set_arch () {
	perl -e '
		my ($f, $arch) = @ARGV;
		open(my $h, "+<:raw", $f) or die; local $/; my $d = <$h>;
		my ($doff, $dsize) = unpack("Q<Q<", substr($d, 40, 16));
		my $bits = unpack("Q<", substr($d, 72, 8));
		my $t = $doff + $dsize; my $i = 0;
		for my $b (0 .. 63) {
			next unless ($bits >> $b) & 1;
			my ($o) = unpack("Q<", substr($d, $t + 16 * $i++, 8));
			next unless $b == 6;
			my $n = unpack("L<", substr($d, $o, 4));
			seek($h, $o + 4, 0); print $h pack("a$n", $arch);
		}' "$@"
}

test_expect_success PERF 'user registers named by the file'"'"'s arch (x86_64, i686, aarch64, armv7l)' '
	perf_record -o regs.data --user-regs=AX,BX,SP,IP,R15 -e cpu-clock "$CPUSPIN" 0.1 &&
	same_dump regs.data && grep -q "^\.\.\.\. AX    0x" mperf.out &&
	for a in i686 aarch64 armv7l; do
		cp regs.data regs-$a.data && set_arch regs-$a.data $a && same_dump regs-$a.data || exit 1
	done &&
	grep -q "^\.\.\.\. r0    0x" mperf.out &&
	same_dump regs-aarch64.data && grep -q "^\.\.\.\. x23   0x" mperf.out
'

# A stream without EVENT_DESC and EVENT_UPDATE (older perf): the
# tracepoint is named from the tracing data, as perf names it.
# strip_names <IN >OUT: the stream without its EVENT_UPDATE records and its EVENT_DESC feature.
strip_names () {
	perl -e '
		local $/; my $d = <STDIN>; my $o = substr($d, 0, 16); my $p = 16;
		while ($p + 8 <= length($d)) {
			my ($t, $m, $s) = unpack("L<S<S<", substr($d, $p, 8));
			last if $s < 8;
			my $skip = $t == 66 ? unpack("L<", substr($d, $p + 8, 4)) : 0;
			my $drop = $t == 78 || ($t == 80 && unpack("Q<", substr($d, $p + 8, 8)) == 12);
			$o .= substr($d, $p, $s + $skip) unless $drop;
			$p += $s + $skip;
		}
		print $o;'
}

test_expect_success PERF 'a stream that names no event: tracepoints named from TRACING_DATA' '
	"$PERF" record --no-bpf-event -q -o - -e sched:sched_process_exec -e cpu-clock "$CPUSPIN" 0.05 >tp.pipe 2>/dev/null &&
	strip_names <tp.pipe >tp-noname.pipe &&
	same_dump tp-noname.pipe &&
	grep -q "^sched:sched_process_exec stats:$" mperf.out
'

test_done
