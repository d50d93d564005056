#!/bin/bash
# The rest of long recordings: -o naming an existing directory (renamed
# OUTPUT.old as perf 6.1 does, an earlier OUTPUT.old removed if it holds
# perf's files alone); --threads with -z (a zstd stream per data.N) and
# with --overwrite (each CPU's backward buffer in its data.N); a full disk
# under a data.N keeps what fit.

. "$(dirname "$0")/lib.sh"

# total FILE: N from "Captured and wrote ... (N samples) ]" of record's stderr.
total () {
	sed -n 's/^\[ mperf record: Captured and wrote .* (\([0-9][0-9]*\) samples) \]$/\1/p' "$1"
}

test_expect_success 'an existing directory becomes OUTPUT.old, as a file does, without --threads' '
	mkdir d.data && echo x >d.data/stranger &&
	"$MPERF" record -q -e cpu-clock -o d.data true &&
	test -f d.data && test -f d.data.old/stranger &&
	"$MPERF" report --stdio -i d.data >/dev/null &&
	test_expect_code 125 "$MPERF" record -q -e cpu-clock -o d.data true 2>err &&
	grep -qx "mperf record: cannot remove .d\.data\.old. (for .d\.data. to take its name): it holds .stranger., not perf.s data" err &&
	test_line_count = 1 err &&
	test -f d.data.old/stranger && test -s d.data &&
	rm -r d.data.old &&
	"$MPERF" record -q --threads -e cpu-clock -o d.data true &&
	test -d d.data && test -f d.data.old &&
	"$MPERF" record -q -e cpu-clock -o d.data true &&
	test -f d.data && test -s d.data.old/data &&
	"$MPERF" record -q -e cpu-clock -o d.data true &&
	test -f d.data && test -f d.data.old &&
	: >e.data && mkdir e.data.old &&
	"$MPERF" record -q -e cpu-clock -o e.data true &&
	test -d e.data.old && test -s e.data
'

# first_type FILE: the type of the first record of FILE (a data.N: records from its first byte).
first_type () {
	od -A n -t u4 -N 4 "$1" | tr -d " "
}

# part_samples DUMP: "data.N COUNT" for each data.N whose SAMPLE records -D reads.
part_samples () {
	sed -n "s/^0x[0-9a-f]*@[^ ]*\/\(data\.[0-9]*\) \[0x[0-9a-f]*\]: event: 9$/\1/p" "$1" | sort | uniq -c
}

test_expect_success SETUP '--threads -z: every data.N a zstd stream of COMPRESSED records; every sample read back' '
	"$MPERF" record --threads -z -F 2000 -e cpu-clock -a -o z.data "$CPUSPIN" 0.3 2 2>z.err &&
	grep -q "compressed (original .* MB, ratio is [0-9.]*) ([0-9]* samples) \]$" z.err &&
	n=$(total z.err) && test "$n" -gt 100 &&
	for f in z.data/data.[0-9]*; do
		test "$(first_type $f)" = 81 || exit 1
	done &&
	"$MPERF" report --header-only -i z.data >z.hdr &&
	grep -q "^# compressed : Zstd, level = 1, ratio = [1-9][0-9]*$" z.hdr &&
	grep -qx "# directory data version : 1" z.hdr &&
	"$MPERF" report -D -i z.data >z.dump &&
	test "$(sed -n "s/^ *COMPRESSED events: *\([0-9]*\).*/\1/p" z.dump)" -gt 0 &&
	test "$(grep -c "PERF_RECORD_SAMPLE(" z.dump)" = "$n" &&
	"$MPERF" report --stdio -i z.data >z.rep &&
	grep -q "cpuspin" z.rep
'

test_expect_success SETUP '--threads --overwrite: each CPU'"'"'s flight recorder in its own data.N' '
	"$MPERF" record --threads --overwrite -F 2000 -e cpu-clock -a -o o.data "$CPUSPIN" 0.3 2 2>o.err &&
	n=$(total o.err) && test "$n" -gt 100 &&
	ls o.data >files &&
	test "$(grep -c "^data\.[0-9]*$" files)" = "$(getconf _NPROCESSORS_ONLN)" &&
	"$MPERF" report -D -i o.data >o.dump &&
	test "$(grep -c "PERF_RECORD_SAMPLE(" o.dump)" = "$n" &&
	part_samples o.dump >parts &&
	test_line_count = "$(getconf _NPROCESSORS_ONLN)" parts &&
	! grep -q "^0x[0-9a-f]*@o\.data/data \[0x[0-9a-f]*\]: event: 9$" o.dump &&
	"$MPERF" report --stdio --sort comm -i o.data >o.rep &&
	grep -q "cpuspin" o.rep
'

test_expect_success TMPFS,SETUP '--threads on a full disk: every data.N keeps its whole records, one line, 125' '
	test_expect_code 125 "$MPERF" record --threads -F 10000 -g -e cpu-clock -o tiny/f.data "$CPUSPIN" 60 2 2>f.err &&
	test_line_count = 1 f.err &&
	grep -q "^mperf record: the disk is full: .tiny/f.data. keeps the first [0-9]* samples (0\.[0-9]* MB), readable$" f.err &&
	n=$(sed -n "s/.* keeps the first \([0-9]*\) samples.*/\1/p" f.err) && test "$n" -gt 1000 &&
	# which CPU writer the full disk stops first is up to the scheduler:
	# on a busy machine one data.N may have kept nothing
	find tiny/f.data -name "data.[0-9]*" -size +0 >kept &&
	test_line_count -ge 1 kept &&
	"$MPERF" report -D -i tiny/f.data >f.dump &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" f.dump)" = "$n" &&
	"$MPERF" report --header-only -i tiny/f.data >f.hdr &&
	grep -q "^# sample duration : " f.hdr &&
	"$MPERF" report --stdio -i tiny/f.data >f.rep &&
	grep -q "cpuspin" f.rep
'

test_expect_success TMPFS,PERF 'perf reads the directory left on the full disk: every sample said' '
	"$PERF" report -D -i tiny/f.data 2>/dev/null >pf.dump &&
	n=$(sed -n "s/.* keeps the first \([0-9]*\) samples.*/\1/p" f.err) &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" pf.dump)" = "$n"
'

test_expect_success TMPFS,SETUP 'the tmpfs unmounted' '
	umount "$TRASH_DIRECTORY/tiny"
'

test_done
