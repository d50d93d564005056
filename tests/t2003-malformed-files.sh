#!/usr/bin/env bash
# Malformed perf.data files, one table: each broken file gets exactly one
# line on stderr, the expected one, and exit status 125 (1 where the damage
# is inside the data: the records before it are printed), or, where the damage
# leaves the records readable (a broken optional feature, an unknown record
# type, data.size 0), a warning and exit 0.  Never a crash: under
# `make check SANITIZE=address,undefined` a sanitizer report fails too.
. "$(dirname "$0")/lib.sh"

peek64 () { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
le_bytes () {	# le_bytes WIDTH VALUE: VALUE as WIDTH little-endian bytes
	local i out=
	for ((i = 0; i < $1; i++)); do out+=$(printf '\\x%02x' $(( ($2 >> (8 * i)) & 255 ))); done
	printf '%b' "$out"
}
poke () {	# poke FILE OFFSET WIDTH VALUE
	le_bytes "$3" "$4" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
hex () { printf '%#x' "$1"; }
# Offset (decimal) of the N-th record of type T in the dump of base.data.
# How many SAMPLE records lie before offset $1 (decimal) of base.data.
samples_before () {
	awk -v o="$1" '
		function hexval(s,   i, v) { v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
		/@base.data \[0x[0-9a-f]+\]: event: 9$/ { x = $1; sub(/@.*/, "", x); if (hexval(x) < o) n++ }
		END { print n + 0 }' base.dump
}
record_off () {
	local x
	x=$(awk -v t="$1" -v n="${2:-1}" '$0 ~ "@base.data \\[0x[0-9a-f]+\\]: event: " t "$" { if (++k == n) { sub(/@.*/, ""); sub(/^0x/, ""); print; exit } }' base.dump)
	test -n "$x" && echo $((16#$x))
}

check () {	# check FILE 'expected message': exit 125 (or RC)
	test_expect_code "${RC:-125}" "$MPERF" report -D -i "$1" >/dev/null 2>err &&
	test_line_count = 1 err &&
	{ grep -F -q -- "$2" err || { echo "expected: $2"; cat err; false; }; } &&
	! grep -q -E "Sanitizer|runtime error" err
}

test_expect_success 'a recording with three events to break' '
	"$MPERF" record -q -e cpu-clock,cpu-clock,cpu-clock -o base.data "$CPUSPIN" 0.2 &&
	"$MPERF" report -D -i base.data >base.dump &&
	test "$(record_off 9)" -gt 0 && test "$(record_off 68)" -gt 0
'

test_expect_success 'wrong magic' '
	cp base.data f && printf "PERFILE3" | dd of=f conv=notrunc status=none &&
	check f "'\''f'\'': not a perf.data file: bad magic at offset 0"
'

test_expect_success 'truncated header' '
	head -c 90 base.data >f &&
	check f "'\''f'\'': file is truncated: header needs 104 bytes, file has 90"
'

test_expect_success 'attr_size 0' '
	cp base.data f && poke f 16 8 0 &&
	check f "'\''f'\'': attr_size is 0 in the header at offset 0x10"
'

test_expect_success 'attrs section past EOF' '
	cp base.data f && poke f 32 8 1000000 &&
	check f "'\''f'\'': attrs section [$(hex "$(peek64 base.data 24)"), +0xf4240) runs past the end of the file"
'

test_expect_success 'data section past EOF' '
	cp base.data f && poke f 48 8 100000000 &&
	RC=1 check f "'\''f'\'': file is truncated: data section [$(hex "$(peek64 base.data 40)"), +0x5f5e100) runs past the end of the file"
'

test_expect_success 'overlapping sections (attrs over data)' '
	cp base.data f && poke f 24 8 "$(peek64 base.data 40)" &&
	check f "overlaps the data section at $(hex "$(peek64 base.data 40)")"
'

test_expect_success 'ids section past EOF' '
	a=$(peek64 base.data 24) && cp base.data f && poke f $((a + 128)) 8 99999999 &&
	check f "'\''f'\'': ids section [0x5f5e0ff, +0x10) of event 0 runs past the end of the file"
'

test_expect_success 'record size 0' '
	o=$(record_off 9) && cp base.data f && poke f $((o + 6)) 2 0 &&
	RC=1 check f "'\''f'\'': record at offset $(hex "$o") has size 0, smaller than its header"
'

test_expect_success 'record size not a multiple of 8' '
	o=$(record_off 9) && cp base.data f && poke f $((o + 6)) 2 44 &&
	RC=1 check f "'\''f'\'': record at offset $(hex "$o") has size 0x2c, not a multiple of 8"
'

test_expect_success 'record past the end of the data' '
	cp base.data f && poke f 48 8 $(( $(peek64 base.data 48) - 12 )) && poke f 72 8 0 &&
	RC=1 check f "runs past the end of the data at"
'

# A sample cut to 0x28 bytes, its last word turned into a FINISHED_ROUND
# header so that the stream stays in step.
test_expect_success 'sample shorter than its sample_type says' '
	o=$(record_off 9 5) && cp base.data f && poke f $((o + 6)) 2 40 &&
	poke f $((o + 40)) 4 68 && poke f $((o + 44)) 4 $((8 << 16)) &&
	RC=1 check f "'\''f'\'': SAMPLE record at offset $(hex "$o") (size 0x28): period runs past the end of the record"
'

# sample_type IP|TID|TIME|ID|CALLCHAIN: the period word is read as the
# callchain length, far more entries than the record holds.
test_expect_success 'callchain nr larger than the record' '
	a=$(peek64 base.data 24) && cp base.data f &&
	for i in 0 1 2; do poke f $((a + i * 144 + 24)) 8 $((0x67)) || exit 1; done &&
	RC=1 check f "callchain runs past the end of the record"
'

# An optional feature that does not parse costs that feature only: one
# warning names it, the records are all read (exit 0).
warned () {	# warned FILE 'expected warning': exit 0, one line, every sample read
	"$MPERF" report -D -i "$1" >out 2>err &&
	test_line_count = 1 err &&
	{ grep -F -q -- "warning: $2" err || { echo "expected: $2"; cat err; false; }; } &&
	test "$(grep -c "PERF_RECORD_SAMPLE" out)" = "$(grep -c "PERF_RECORD_SAMPLE" base.dump)"
}

test_expect_success 'string without NUL in a feature (HOSTNAME): skipped with a warning' '
	t=$(( $(peek64 base.data 40) + $(peek64 base.data 48) )) &&
	h=$(peek64 base.data $((t + 16))) && cp base.data f &&
	len=$(od -An -t u4 -j "$h" -N 4 base.data | tr -d " ") &&
	head -c "$len" /dev/zero | tr "\0" x | dd of=f bs=1 seek=$((h + 4)) conv=notrunc status=none &&
	warned f "'\''f'\'': feature HOSTNAME at $(hex "$h"): string 0 has no NUL within its length or runs past the section: skipped" &&
	"$MPERF" report --header-only -i f >hdr 2>err &&
	grep -q "^# hostname : (null)$" hdr && grep -q "^# os release : " hdr
'

# The armv7 file of perf 3.14 has an empty CPUDESC section; perf prints (null).
test_expect_success 'empty CPUDESC section: (null) in --header-only, the dump whole' '
	t=$(( $(peek64 base.data 40) + $(peek64 base.data 48) )) && cp base.data f &&
	n=0 && for b in 1 2 3 4 5 6 7; do test $(( ($(peek64 base.data 72) >> b) & 1 )) = 1 && n=$((n + 1)); done &&
	poke f $((t + 16 * n + 8)) 8 0 &&
	warned f "'\''f'\'': feature CPUDESC at" &&
	"$MPERF" report --header-only -i f >hdr &&
	grep -q "^# cpudesc : (null)$" hdr && grep -q "^# total memory : [1-9]" hdr
'

test_expect_success 'feature table past EOF: features skipped with a warning' '
	t=$(( $(peek64 base.data 40) + $(peek64 base.data 48) )) &&
	head -c $((t + 8)) base.data >f &&
	warned f "'\''f'\'': feature table at $(hex "$t")"
'

# Every feature bit set (a mutation a reliability check makes), sections of
# zeros: BRANCH_STACK says branch stacks, no event samples them.  Not a usage
# error (no -b was given): the usual view of every sample, one line naming
# the damage, exit 1.
test_expect_success 'every feature bit set: the usual view, the damaged header named, exit 1' '
	cp base.data f && le_bytes 8 -1 >ones && cat ones ones ones ones | dd of=f bs=1 seek=72 conv=notrunc status=none &&
	head -c 8192 /dev/zero >>f &&
	test_expect_code 1 "$MPERF" report --stdio -i f >out 2>err &&
	grep -F -q "'\''f'\'': damaged header: its BRANCH_STACK feature is set, but no event samples branch stacks; showing the usual view" err &&
	! grep -q "for -b" err &&
	"$MPERF" report --stdio -i base.data >base.out 2>/dev/null &&
	test "$(grep "^# Samples" out)" = "$(grep "^# Samples" base.out)" &&
	test_expect_code 129 "$MPERF" report --stdio -b -i f >/dev/null 2>err &&
	grep -q "has no branch stacks for -b" err
'

# A file cut inside its data section: every whole record is printed, then
# one error says where reading stopped (exit 1).
test_expect_success 'data cut mid-record: the records before the cut, then one error' '
	o=$(record_off 9 40) && head -c $((o + 20)) base.data >f &&
	test_expect_code 1 "$MPERF" report -D -i f >out 2>err &&
	test_line_count = 1 err &&
	grep -q "'\''f'\'': file is truncated: data section \[$(hex "$(peek64 base.data 40)"), +$(hex "$(peek64 base.data 48)")) runs past the end of the file ($(hex $((o + 20))) bytes); read the records up to offset $(hex "$o")" err &&
	test "$(grep -c "^[0-9].*PERF_RECORD_SAMPLE" out)" = "$(samples_before "$o")" &&
	! grep -q "Aggregated stats" out
'

test_expect_success 'data cut at a record boundary: all of it, then the error' '
	o=$(record_off 9 40) && head -c "$o" base.data >f &&
	test_expect_code 1 "$MPERF" report -D -i f >out 2>err &&
	test_line_count = 1 err && grep -q "read the records up to offset $(hex "$o")" err &&
	test "$(grep -c "^[0-9].*PERF_RECORD_SAMPLE" out)" = "$(samples_before "$o")"
'

# whole_records CUT FILE OFFSET: FILE up to OFFSET as a file of its own,
# its data section those whole records, without features.
whole_records () {
	head -c "$3" "$1" >"$2" &&
	poke "$2" 48 8 $(($3 - $(peek64 "$1" 40))) &&
	for b in 72 80 88 96; do poke "$2" $b 8 0; done
}
no_tip () { grep -v '^# (Tip:\|^# (Cannot load tips'; }

# mperf report of a file cut mid-record: the histograms of every sample
# before the cut (those of a file that holds just the whole records, as
# perf prints them), then the one error line, exit 1.
test_expect_success 'report: data cut mid-record, the histograms of the samples before the cut, one error' '
	o=$(record_off 9 40) && head -c $((o + 20)) base.data >f &&
	whole_records base.data w "$o" &&
	"$MPERF" report -i w >w.out 2>w.err &&
	test_must_be_empty w.err &&
	test_expect_code 1 "$MPERF" report -i f >out 2>err &&
	test_line_count = 1 err &&
	grep -q "'\''f'\'': file is truncated: .* read the records up to offset $(hex "$o")$" err &&
	diff -u w.out out &&
	grep -q "^# Samples: [0-9]" out && grep -q "^ *[0-9.]*%  *cpuspin " out &&
	"$MPERF" report --json -i w >w.json &&
	test_expect_code 1 "$MPERF" report --json -i f >out.json 2>err &&
	test_line_count = 1 err &&
	diff -u <(sed "/\"command-line\"/s/\"w\"\]/\"f\"]/" w.json) out.json
'

test_expect_success PERF 'report: a recording with call chains cut mid-record reads as perf reads its whole records' '
	"$MPERF" record -q -g -e cpu-clock -o g.data "$CALLPATHS" 0.3 &&
	"$MPERF" report -D -i g.data >g.dump &&
	n=$(grep -c "^[0-9].*PERF_RECORD_SAMPLE" g.dump) && test "$n" -gt 20 &&
	x=$(grep "^[0-9].*PERF_RECORD_SAMPLE" g.dump | sed -n "$((n / 2))p" | sed "s/^[0-9]* \(0x[0-9a-f]*\) .*/\1/") &&
	o=$((x)) && head -c $((o + 12)) g.data >gf &&
	whole_records g.data gw "$o" &&
	test_expect_code 1 "$MPERF" report -i gf >out 2>err &&
	test_line_count = 1 err &&
	grep -q "read the records up to offset $(hex "$o")$" err &&
	"$PERF" report --stdio -i gw 2>/dev/null | no_tip >perf.out &&
	no_tip <out >mperf.out &&
	diff -u perf.out mperf.out &&
	grep -q "leaf" mperf.out &&
	"$PERF" report --stdio --no-children -i gw 2>/dev/null | no_tip >perf.out &&
	test_expect_code 1 "$MPERF" report --no-children -i gf >out 2>/dev/null &&
	no_tip <out >mperf.out &&
	diff -u perf.out mperf.out
'

test_expect_success PERF 'report: a stream cut mid-record, the histograms of what was read (as perf), one error' '
	"$MPERF" record -q -e cpu-clock -o - "$CALLPATHS" 0.3 >s.pipe &&
	x=$(python3 -c "
import struct, sys
b = open(sys.argv[1], \"rb\").read()
o = 16	# the pipe header; then records end to end: the first SAMPLE past the middle
while o + 8 <= len(b):
	t, _, n = struct.unpack_from(\"<IHH\", b, o)
	if t == 9 and o > len(b) // 2:
		break
	o += n
print(o)" s.pipe) &&
	# (a stream'\''s offsets, as perf'\''s, start after its header: the error says x - 16)
	head -c $((x + 12)) s.pipe >scut.pipe &&
	"$PERF" report --stdio -i - <scut.pipe 2>/dev/null | no_tip >perf.out &&
	test_expect_code 1 "$MPERF" report -i - <scut.pipe >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^mperf report: .stdin.: record at offset $(hex $((x - 16))) (size 0x[0-9a-f]*) runs past the end of the stream$" err &&
	no_tip <out >mperf.out &&
	diff -u perf.out mperf.out &&
	grep -q "^# Samples: [0-9]" mperf.out
'

test_expect_success 'a sample id in no ids section' '
	o=$(record_off 9 3) && cp base.data f && poke f $((o + 32)) 8 987654321 &&
	RC=1 check f "'\''f'\'': sample at offset $(hex "$o") has an id that is in no ids section"
'

test_expect_success 'unknown record type: counted as UNKNOWN, said once, read on (exit 0)' '
	o1=$(record_off 68 1) && o2=$(record_off 68 2) && cp base.data f &&
	poke f "$o1" 4 100 && poke f "$o2" 4 100 &&
	"$MPERF" report -D -i f >out 2>err &&
	test_line_count = 1 err &&
	grep -q "warning: unknown record type 100 at offset $(hex "$o1"): counted as UNKNOWN" err &&
	grep -q "^         UNKNOWN events:          2" out &&
	test "$(grep -c "PERF_RECORD_SAMPLE" out)" = "$(grep -c "PERF_RECORD_SAMPLE" base.dump)"
'

test_expect_success 'data.size 0 (recorder killed): read to EOF with a warning (exit 0)' '
	cp base.data f && poke f 48 8 0 &&
	"$MPERF" report -D -i f >out 2>err &&
	test_line_count = 1 err &&
	grep -q "warning: .f.: the data size field is 0" err &&
	test "$(grep -c "PERF_RECORD_SAMPLE" out)" = "$(grep -c "PERF_RECORD_SAMPLE" base.dump)"
'

test_done
