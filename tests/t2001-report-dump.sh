#!/usr/bin/env bash
# mperf report -D on mperf's own files: the dump, the stats block, and one
# clear line (exit 125; 1 for damage inside the data) for every kind of broken file.
# (leaks checked in the sanitizer pass too: see tests/lib.sh)
MPERF_TEST_LEAKS=1
. "$(dirname "$0")/lib.sh"

# Little-endian u64 at a byte offset: read and overwrite.
peek64 () { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
poke64 () {
	printf "$(printf '%016x' "$3" | sed -E 's/(..)(..)(..)(..)(..)(..)(..)(..)/\\x\8\\x\7\\x\6\\x\5\\x\4\\x\3\\x\2\\x\1/')" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# The N-th "X stats:" block's SAMPLE count, and the aggregated one.
event_samples () { awk '/^Aggregated stats:/{a=1;next} a&&/ stats:$/{e=1;next} e&&/SAMPLE events:/{print $3;e=0}' "$1"; }
aggr_samples () { awk '/^Aggregated stats:/{a=1;next} a&&/ stats:$/{exit} a&&/ SAMPLE events:/{print $3}' "$1"; }

test_expect_success 'record three events for the dump tests' '
	"$MPERF" record -q -e cpu-clock,cpu-clock,task-clock -o three.data "$CPUSPIN" 0.5 &&
	"$MPERF" record -q -e cpu-clock -o ok.data "$CPUSPIN" 0.2
'

test_expect_success 'report -D prints the prologue, every record, and the stats' '
	"$MPERF" report -D -i three.data >out 2>err &&
	test_must_be_empty err &&
	head -n 2 out >head &&
	printf "%s\n" "# To display the perf.data header info, please use --header/--header-only options." "#" >expect &&
	cmp expect head &&
	grep -q "^Aggregated stats:$" out &&
	test "$(grep -c "PERF_RECORD_SAMPLE(IP" out)" = "$(aggr_samples out)"
'

test_expect_success 'one stats block per event, with a TOTAL row, adding up to the aggregate' '
	"$MPERF" report -D -i three.data >out &&
	test "$(grep -c "^cpu-clock stats:$" out)" = 2 &&
	test "$(grep -c "^task-clock stats:$" out)" = 1 &&
	sed -n "/^cpu-clock stats:/,\$p" out | grep -q "^           TOTAL events:" &&
	sum=0 && for n in $(event_samples out); do sum=$((sum + n)); done &&
	test "$sum" = "$(aggr_samples out)" &&
	test "$(event_samples out | wc -l)" = 3
'

test_expect_success 'side-band records are attributed to the event that carried them' '
	"$MPERF" report -D -i three.data >out &&
	sed -n "/^cpu-clock stats:/,/^cpu-clock stats:/p" out >first &&
	grep -q " COMM events:" first && grep -q " MMAP2 events:" first
'

test_expect_success 'samples come out in time order' '
	"$MPERF" report -D -i three.data >out &&
	awk "/PERF_RECORD_SAMPLE/ { if (\$1 < last) { print \"out of order: \" \$0; bad=1 } last=\$1 } END { exit bad }" out
'

test_expect_success 'the hex dump covers each record exactly' '
	"$MPERF" report -D -i ok.data >out &&
	grep -A 6 "^0x.*@ok.data \[0x28\]: event: 9$" out | head -n 7 >rec &&
	sed -n 2p rec | grep -q "^\.$" &&
	sed -n 3p rec | grep -q "^\. \.\.\. raw event: size 40 bytes$" &&
	test "$(grep -c "^\.  00[0-2]0:" rec)" = 3 &&
	sed -n 7p rec | grep -q "^$"
'

test_expect_success 'a pipe-mode stream on stdin (-i -) is read' '
	{ printf "PERFILE2"; printf "\020\0\0\0\0\0\0\0"; } >pipe.data &&
	"$MPERF" report -D -i - <pipe.data >out &&
	grep -q "TOTAL events:          0" out
'

test_expect_success 'report without -D or --stats prints the histograms' '
	"$MPERF" report -i three.data >out &&
	test "$(grep -c "^# Samples: .* of event " out)" = 3 &&
	grep -q "^# Overhead  Command  Shared Object  *Symbol" out
'

test_expect_success '--stats prints the end block of -D, alone' '
	"$MPERF" report -D -i three.data | sed -n "/^Aggregated stats:/,\$p" >expect &&
	"$MPERF" report --stats -i three.data >actual &&
	cmp expect actual
'

# Broken files: exactly one line on stderr naming the problem, exit 125
# (or RC: 1 for damage inside the data, after the records before it).
check_broken () {
	test_expect_code "${RC:-125}" "$MPERF" report -D -i "$1" >/dev/null 2>err &&
	test_line_count = 1 err &&
	grep -F -q -- "$2" err
}

test_expect_success 'a missing file' '
	check_broken nope.data "cannot open '\''nope.data'\'': No such file or directory"
'

test_expect_success 'an empty file' '
	: >empty.data &&
	check_broken empty.data "'\''empty.data'\'': not a perf.data file: too short for a header"
'

test_expect_success 'wrong magic' '
	printf "NOTPERF!xxxxxxxxxxxxxxxxxxxxxxxxx" >magic.data &&
	check_broken magic.data "not a perf.data file: bad magic at offset 0"
'

test_expect_success 'a truncated header' '
	head -c 60 ok.data >trunc.data &&
	check_broken trunc.data "file is truncated: header needs 104 bytes, file has 60"
'

test_expect_success 'attr_size 0' '
	cp ok.data as0.data && poke64 as0.data 16 0 &&
	check_broken as0.data "attr_size is 0 in the header at offset 0x10"
'

test_expect_success 'attrs section past the end of the file' '
	cp ok.data attrs.data && poke64 attrs.data 24 99999999 &&
	check_broken attrs.data "attrs section [0x5f5e0ff, +0x90) runs past the end of the file"
'

test_expect_success 'data section past the end of the file' '
	d=$(peek64 ok.data 40) &&
	head -c $((d + 100)) ok.data >dtrunc.data &&
	RC=1 check_broken dtrunc.data "file is truncated: data section [$(printf %#x "$d"), +"
'

test_expect_success 'a record of size 0' '
	d=$(peek64 ok.data 40) &&
	cp ok.data rs0.data &&
	printf "\0\0" | dd of=rs0.data bs=1 seek=$((d + 6)) conv=notrunc status=none &&
	RC=1 check_broken rs0.data "record at offset $(printf %#x "$d") has size 0, smaller than its header"
'

test_expect_success 'a record running past the end of the data' '
	ds=$(peek64 ok.data 48) &&
	cp ok.data past.data && poke64 past.data 48 $((ds - 12)) && poke64 past.data 72 0 &&
	RC=1 check_broken past.data "runs past the end of the data at"
'

test_expect_success 'data size 0 (recorder killed): read to the end with a warning' '
	cp ok.data ds0.data && poke64 ds0.data 48 0 &&
	"$MPERF" report -D -i ds0.data >out 2>err &&
	test_line_count = 1 err &&
	grep -q "warning: .ds0.data.: the data size field is 0" err &&
	"$MPERF" report -D -i ok.data >good &&
	test "$(aggr_samples out)" = "$(aggr_samples good)"
'

test_expect_success 'a broken pipe-mode stream on stdin' '
	printf "NOTPERF!xxxxxxxx" | test_expect_code 125 "$MPERF" report -D -i - >/dev/null 2>err &&
	grep -q "'\''stdin'\'': not a perf.data file: bad magic" err
'

test_expect_success 'a reader that goes away: quiet exit 141' '
	rc=0 && { "$MPERF" report -D -i three.data 2>err; echo $? >rc; } | head -n 1 >/dev/null &&
	test "$(cat rc)" = 141 &&
	test_must_be_empty err
'

test_expect_success 'a full output device: one line naming the error, exit 125' '
	test_expect_code 125 "$MPERF" report -D -i three.data >/dev/full 2>err &&
	test_line_count = 1 err &&
	grep -q "No space left on device" err
'

test_done
