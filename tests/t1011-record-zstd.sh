#!/bin/bash
# mperf record -z/--compression-level: the ring buffers' data as zstd
# COMPRESSED records with the COMPRESSED feature, as perf 6.1 writes them;
# read back by mperf and perf with every sample the recording counted;
# the level's bounds; --mmap-flush; a damaged compressed record.

. "$(dirname "$0")/lib.sh"

# total FILE: N from "Captured and wrote ... (N samples) ]" of record's stderr.
total () {
	sed -n 's/^\[ mperf record: Captured and wrote .* (\([0-9][0-9]*\) samples) \]$/\1/p' "$1"
}

# dump_samples DUMP: each event's SAMPLE count after "Aggregated stats:" of report -D.
dump_samples () {
	awk '/^Aggregated stats:/{a=1;next} a&&/ stats:$/{e=1;next} e&&/SAMPLE events:/{printf "%s ",$3;e=0}' "$1"
}

# aggregated DUMP: the record kinds of -D's totals, less COMPRESSED (its contents stay).
aggregated () {
	sed -n '/^Aggregated stats:/,/^[a-z]/p' "$1" | grep -v 'COMPRESSED\|TOTAL events\|^[a-z]'
}

# comp_feat FILE: the COMPRESSED feature's five u32 (version type level ratio mmap_len).
comp_feat () {
	perl -e '
		open(my $h, "<:raw", $ARGV[0]) or die; local $/; my $d = <$h>;
		my ($doff, $dsize) = unpack("Q<Q<", substr($d, 40, 16));
		my $bits = unpack("Q<", substr($d, 72, 8)); my $t = $doff + $dsize; my $i = 0;
		for my $b (0 .. 63) {
			next unless ($bits >> $b) & 1;
			my ($o, $s) = unpack("Q<Q<", substr($d, $t + 16 * $i++, 16));
			print join(" ", unpack("L<5", substr($d, $o, $s))), "\n" if $b == 27;
		}' "$1"
}

test_expect_success SETUP 'record -z: COMPRESSED records, the feature, every sample read back' '
	"$MPERF" record -z -F 2000 -e cpu-clock,task-clock -o z.data "$CPUSPIN" 0.5 2>z.err &&
	grep -q "compressed (original .* MB, ratio is [0-9.]*) ([0-9]* samples) \]$" z.err &&
	n=$(total z.err) && test "$n" -gt 200 &&
	"$MPERF" report --header-only -i z.data >z.hdr &&
	grep -q "^# compressed : Zstd, level = 1, ratio = [1-9][0-9]*$" z.hdr &&
	"$MPERF" report -D -i z.data >z.dump &&
	test "$(sed -n "s/^ *COMPRESSED events: *\([0-9]*\).*/\1/p" z.dump)" -gt 0 &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" z.dump)" = "$n" &&
	set -- $(dump_samples z.dump) && test $(($1 + $2)) = "$n" &&
	grep -q "^\[ mperf record: event .cpu-clock.: $1 samples, [0-9]* lost \]$" z.err &&
	grep -q "^\[ mperf record: event .task-clock.: $2 samples, [0-9]* lost \]$" z.err &&
	"$MPERF" report --stdio -i z.data >z.rep &&
	grep -q "^# Samples: .* of event .cpu-clock.$" z.rep && grep -q "cpuspin" z.rep
'

test_expect_success 'the same run uncompressed: the same records, a larger file' '
	"$MPERF" record -q -F 2000 -e cpu-clock,task-clock -o u.data "$CPUSPIN" 0.5 &&
	"$MPERF" report -D -i u.data >u.dump &&
	aggregated z.dump | sed "s/(.*//" | awk "{print \$1}" >z.kinds &&
	aggregated u.dump | sed "s/(.*//" | awk "{print \$1}" >u.kinds &&
	diff -u u.kinds z.kinds &&
	test "$(stat -c %s z.data)" -lt "$(stat -c %s u.data)"
'

test_expect_success '--compression-level=N: the level and the mapping'"'"'s length in the feature, as perf' '
	"$MPERF" record -q --compression-level=19 -m 16 -e cpu-clock -o z19.data "$NOPLOOP" 0.2 &&
	page=$(getconf PAGESIZE) &&
	set -- $(comp_feat z19.data) &&
	test "$1 $2 $3 $5" = "0 1 19 $((17 * page))" && test "$4" -ge 1 &&
	set -- $(comp_feat z.data) && test "$3 $5" = "1 $((129 * page))"
'

test_expect_success 'a level out of 1..22 is a usage error' '
	for l in 0 23 abc 1x ""; do
		test_expect_code 129 "$MPERF" record --compression-level=$l -o bad.data true 2>bad.err &&
		test_line_count = 2 bad.err && grep -q "compression level" bad.err || exit 1
	done &&
	! test -e bad.data
'

test_expect_success SETUP 'record -z -o -: a stream with the feature (ratio 0) and COMPRESSED records' '
	"$MPERF" record -z -e cpu-clock -o - "$NOPLOOP" 0.3 >zp.data 2>zp.err &&
	n=$(total zp.err) && test "$n" -gt 50 &&
	"$MPERF" report -D -i - <zp.data >zp.dump &&
	grep -q "^ *COMPRESSED events: " zp.dump &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" zp.dump)" = "$n" &&
	"$MPERF" report --header-only -i zp.data | grep -q "^# compressed : Zstd, level = 1, ratio = 0$"
'

test_expect_success '--mmap-flush: drained in bigger chunks, the last drain takes the rest' '
	"$MPERF" record -z --mmap-flush=1M -e cpu-clock -o f.data "$NOPLOOP" 0.3 2>f.err &&
	"$MPERF" report -D -i f.data >f.dump &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" f.dump)" = "$(total f.err)" &&
	"$MPERF" record -q --mmap-flush=4096 -e cpu-clock -o f2.data "$NOPLOOP" 0.1 &&
	test_expect_code 129 "$MPERF" record --mmap-flush=4X -o bad.data true 2>bad.err &&
	test_line_count = 2 bad.err && grep -q "mmap-flush" bad.err
'

# corrupt FILE: the first COMPRESSED record's zstd bytes overwritten (its frame header).
corrupt () {
	perl -e '
		open(my $h, "+<:raw", $ARGV[0]) or die; local $/; my $d = <$h>;
		my ($p, $size) = unpack("Q<Q<", substr($d, 40, 16)); my $end = $p + $size;
		while ($p < $end) {
			my ($type, $misc, $n) = unpack("L<S<S<", substr($d, $p, 8));
			if ($type == 81) { seek($h, $p + 8, 0); print $h "\377" x 8; exit 0; }
			die "record of size 0" unless $n; $p += $n;
		}
		die "no COMPRESSED record";' "$1"
}

test_expect_success 'a damaged compressed record: one clear error, no crash' '
	cp z.data bad-z.data && corrupt bad-z.data &&
	test_expect_code 1 "$MPERF" report -D -i bad-z.data >bad.out 2>bad.err &&
	grep -q "compressed record at offset 0x[0-9a-f]*: " bad.err &&
	test_line_count = 1 bad.err &&
	test_expect_code 1 "$MPERF" report --stdio -i bad-z.data >bad.out 2>bad.err &&
	grep -q "compressed record at offset" bad.err
'

test_expect_success PERF 'perf reads mperf'"'"'s -z file: the same -D, the same samples' '
	"$PERF" report -D -i z.data >perf.out 2>/dev/null &&
	sed "/^Aggregated stats:/,\$d" perf.out >perf.body &&
	sed "/^Aggregated stats:/,\$d" z.dump >mperf.body &&
	test "$(wc -l <perf.body)" -gt 100 &&
	diff -u perf.body mperf.body &&
	test "$(dump_samples perf.out)" = "$(dump_samples z.dump)" &&
	"$PERF" report --header-only -i z.data 2>/dev/null | grep -q "^# compressed : Zstd, level = 1, ratio = [1-9]" &&
	"$PERF" report -D -i zp.data >perfp.out 2>/dev/null &&
	test "$(dump_samples perfp.out)" = "$(dump_samples zp.dump)"
'

test_expect_success PERF 'perf report and mperf report agree on the -z file' '
	same_report z.data && same_report zp.data --sort comm,dso
'

test_done
