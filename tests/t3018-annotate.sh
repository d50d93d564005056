#!/usr/bin/env bash
# mperf annotate: perf annotate --stdio's listing, disassembled by
# capstone.  The shares of a symbol's instructions add up to 100%, its
# samples (-n) to the header's count, which is report -n's row; a file
# with two events in one listing (--group) has two columns; and, beside
# perf, the samples per instruction address and the hottest instruction
# are perf annotate's (the text differs: objdump's and capstone's).
# (leaks checked in the sanitizer pass too: see tests/lib.sh)
MPERF_TEST_LEAKS=1
. "$(dirname "$0")/lib.sh"

# rows FILE: "address count..." of each instruction line
rows () {
	sed -n 's/^ *\([0-9. ]*[0-9]\) : *\([0-9a-f]*\):.*/\2 \1/p' "$1"
}

# A kernel image to annotate with: binutils, and kallsyms' addresses shown.
have_kimage () {
	command -v as && command -v ld &&
		awk '$3 == "_text" { found = 1; exit $1 ~ /^0+$/ } END { exit !found }' /proc/kallsyms
}
# A vmlinux of the running kernel, where perf looks for one.
have_vmlinux () {
	local r; r=$(uname -r)
	test -r "/usr/lib/debug/boot/vmlinux-$r" || test -r "/boot/vmlinux-$r" ||
		test -r "/usr/lib/debug/lib/modules/$r/vmlinux" || test -r "/lib/modules/$r/build/vmlinux"
}

# fake_vmlinux DATA SYM: ./vmlinux, an image with DATA's kernel build id,
# _text where kallsyms has it and SYM alone in its .text, SYM's size of
# nops (this machine has no /proc/kcore to copy the code from): where
# the samples fall in it is the recording's, whatever the code.
fake_vmlinux () {
	local id at next text
	id=$("$MPERF" buildid-list -i "$1" | awk '$2 == "[kernel.kallsyms]" { print $1 }') &&
	at=$(awk -v s="$2" '$3 == s { print $1; exit }' /proc/kallsyms) &&
	next=$(awk -v a="$at" '$1 > a && (n == "" || $1 < n) { n = $1 } END { print n }' /proc/kallsyms) &&
	text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms) &&
	test -n "$id" && test -n "$next" &&
	printf '\t.text\n\t.globl %s\n\t.type %s, @function\n%s:\n\t.fill %d, 1, 0x90\n\t.size %s, %d\n' \
		"$2" "$2" "$2" $((0x$next - 0x$at)) "$2" $((0x$next - 0x$at)) >v.s &&
	as -o v.o v.s &&
	ld -o vmlinux -e "$2" -Ttext="0x$at" --defsym=_text="0x$text" --defsym=_stext="0x$text" \
		--build-id="0x$id" v.o
}

# ksym DATA: the hottest kernel symbol of DATA (a plain C name), or nothing
ksym () {
	"$MPERF" report -i "$1" --stdio --sort dso,sym 2>/dev/null |
		sed -n 's/.*\[kernel\.kallsyms\] *\[k\] \([A-Za-z_][A-Za-z0-9_]*\)$/\1/p' | head -n 1
}

test_expect_success SETUP 'record noploop' '
	"$MPERF" record -q -o one.data "$NOPLOOP" 1 &&
	"$MPERF" record -q -e cpu-clock,task-clock -o two.data "$NOPLOOP" 1
'

test_expect_success 'main: the shares add up to 100%, hottest first' '
	"$MPERF" annotate -i one.data --stdio main >out &&
	head -n 1 out | grep -q "Source code & Disassembly of noploop for cpu-clock.* samples, percent: local period)" &&
	grep -q "<main>:$" out &&
	rows out | awk "{ s += \$2 } END { exit !(s > 99.5 && s < 100.5) }" &&
	"$MPERF" annotate -i one.data --stdio >all &&
	head -n 1 all | grep -q "Disassembly of noploop "
'

test_expect_success 'main: -n sums to the header, which is report -n'"'"'s row' '
	"$MPERF" annotate -i one.data --stdio -n main >out &&
	n=$(sed -n "1s/.*(\([0-9]*\) samples.*/\1/p" out) &&
	test "$(rows out | awk "{ s += \$2 } END { print s }")" = "$n" &&
	"$MPERF" report -i one.data --stdio -n --sort dso,sym >rep &&
	grep -E "^ +[0-9.]+% +$n +noploop +\[\.\] main$" rep
'

test_expect_success 'libcapstone is loaded by the disassembly alone, not at start-up' '
	LD_DEBUG=files "$MPERF" report -i one.data --stdio >/dev/null 2>ld.out &&
	grep -q "calling init" ld.out &&
	! grep -q libcapstone ld.out &&
	LD_DEBUG=files "$MPERF" annotate -i one.data --stdio main >/dev/null 2>ld.out &&
	grep -q "file=libcapstone" ld.out
'

test_expect_success 'two events, --group: two columns, each summing to its samples' '
	"$MPERF" annotate -i two.data --stdio --group -n main >out &&
	head -n 1 out | grep -q "for cpu-clock, task-clock (" &&
	rows out | awk "NF != 3 { exit 1 } { a += \$2; b += \$3 } END { exit !(a > 0 && b > 0) }" &&
	"$MPERF" annotate -i two.data --stdio -n main >sep &&
	test "$(grep -c "Source code & Disassembly" sep)" = 2
'

test_expect_success 'jump targets are named <sym+off>; -M intel; --asm-raw' '
	"$MPERF" annotate -i one.data --stdio main >out &&
	grep -Eq ":   j[a-z]+ +[0-9a-f]+ <main\+0x[0-9a-f]+>$" out &&
	"$MPERF" annotate -i one.data --stdio -M intel main >intel &&
	! grep -q "%r" intel &&
	"$MPERF" annotate -i one.data --stdio --asm-raw main >raw &&
	grep -Eq ":  +([0-9a-f]{2} )+ +[a-z]" raw
'

test_expect_success PYTHON '--json: the counts of each instruction are the text ones and sum to the symbol ones; file:line' '
	"$MPERF" annotate -i two.data --json --group main >doc.json &&
	"$MPERF" annotate -i two.data --stdio --group -n main >out &&
	rows out >text.rows &&
	"$MPERF" record -q -o g.data "$CALLPATHS_NOFP" 0.3 &&
	"$MPERF" annotate -i g.data --json >g.json &&
	python3 - doc.json text.rows g.json <<-\EOF
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["schema"] == "mperf-annotate/1" and d["version"] == 1, d["schema"]
	assert d["percent-type"] == "local-period"
	assert [e["name"] for e in d["events"]] == ["cpu-clock", "task-clock"], d["events"]
	(s,) = d["symbols"]
	assert s["symbol"] == "main" and s["events"] == ["cpu-clock", "task-clock"]
	for m in range(2):
	    assert sum(i["samples"][m] for i in s["instructions"]) == s["samples"][m] > 0
	    assert abs(sum(i["percent"][m] for i in s["instructions"]) - 100) < 0.01
	text = {}
	for l in open(sys.argv[2]):
	    a, x, y = l.split()
	    text[int(a, 16)] = [int(x), int(y)]
	assert {int(i["address"], 16): i["samples"] for i in s["instructions"]} == text
	g = json.load(open(sys.argv[3]))
	lines = [i for s in g["symbols"] if s["instructions"] for i in s["instructions"] if i["line"]]
	assert any(i["file"].endswith("callpaths.c") for i in lines), "no line of callpaths.c"
	assert all(s["instructions"] is None for s in g["symbols"] if s["kernel"])
	EOF
'

test_expect_success KIMAGE,!VMLINUX 'a kernel symbol: from an image with the recorded build id; without one, one line' '
	"$MPERF" record -q -o k.data -- dd if=/dev/zero of=/dev/null bs=1 count=200000 2>/dev/null &&
	sym=$(ksym k.data) && test -n "$sym" &&
	"$MPERF" annotate -i k.data --stdio -n "$sym" >none 2>err &&
	test_must_be_empty none &&
	test "$(wc -l <err)" = 1 &&
	grep -E "cannot annotate $sym: no vmlinux with build id [0-9a-f]{40} was found: give one with -k/--vmlinux" err &&
	fake_vmlinux k.data "$sym" &&
	mv vmlinux image &&
	"$MPERF" annotate -i k.data --stdio -n -k image "$sym" >out &&
	n=$(sed -n "1s/.*Disassembly of image for .*(\([0-9]*\) samples.*/\1/p" out) &&
	test "$(rows out | awk "{ s += \$2 } END { print s }")" = "$n" &&
	"$MPERF" report -i k.data -k image --stdio -n --sort sym >rep &&
	grep -E "^ +[0-9.]+% +$n +\[k\] $sym$" rep &&
	at=$(awk -v s="$sym" "\$3 == s { print \$1; exit }" /proc/kallsyms) &&
	grep -q "^ *: 5 *$at <$sym>:$" out &&
	test "$(rows out | head -n 1 | cut -d" " -f1)" = "$at" &&
	test "$(rows out | wc -l)" = "$(grep -c ": *nop$" out)" &&
	"$MPERF" annotate -i k.data --json -k image "$sym" >k.json &&
	grep -q "\"kernel\": true" k.json && ! grep -q "\"instructions\": null" k.json
'

test_expect_success KIMAGE,PERF 'a kernel symbol beside perf -k: the same listing' '
	"$PERF" record --no-bpf-event -q -o kp.data -- dd if=/dev/zero of=/dev/null bs=1 count=200000 2>/dev/null &&
	sym=$(ksym kp.data) && test -n "$sym" &&
	fake_vmlinux kp.data "$sym" &&
	"$PERF" annotate -i kp.data -k vmlinux --stdio -n "$sym" 2>/dev/null >p &&
	"$MPERF" annotate -i kp.data -k vmlinux --stdio -n "$sym" >m &&
	diff p m
'

test_expect_success VMLINUX,PERF 'this kernel'"'"'s vmlinux: the samples at each address of a kernel symbol, as perf' '
	"$PERF" record --no-bpf-event -q -o kv.data -- dd if=/dev/zero of=/dev/null bs=1 count=200000 2>/dev/null &&
	sym=$(ksym kv.data) && test -n "$sym" &&
	"$PERF" annotate -i kv.data --stdio -n "$sym" 2>/dev/null >p &&
	"$MPERF" annotate -i kv.data --stdio -n "$sym" >m &&
	rows p | awk "\$2 > 0" >pr &&
	rows m | awk "\$2 > 0" >mr &&
	test -s pr && diff pr mr
'

test_expect_success '--symfs: the binary under DIR, where it is looked for' '
	here=$(pwd -P) &&
	mkdir bin && cp "$CALLPATHS" bin/callpaths &&
	"$MPERF" record -q -N -o s.data bin/callpaths 0.3 &&
	mkdir -p "sym$here/bin" && mv bin/callpaths "sym$here/bin/" &&
	"$MPERF" annotate -i s.data --stdio -d callpaths >none 2>err &&
	test_must_be_empty none &&
	grep -q "cannot annotate the [0-9]* samples in $here/bin/callpaths: the file with build id" err &&
	"$MPERF" annotate -i s.data --stdio -n -d callpaths --symfs sym >out &&
	grep -q "Disassembly of callpaths for" out &&
	n=$(sed -n "1s/.*(\([0-9]*\) samples.*/\1/p" out) &&
	test "$n" -gt 0 &&
	"$MPERF" annotate -i s.data --stdio -n -d callpaths --symfs sym/ >out2 &&
	cmp out out2
'

test_expect_success '-v: where each symbol'"'"'s code was read' '
	"$MPERF" annotate -i one.data --stdio -v main >out 2>err &&
	grep -q "main: [0-9]* bytes at 0x[0-9a-f]* of $NOPLOOP, disassembled by capstone" err &&
	"$MPERF" annotate -i one.data --stdio main >out2 2>err2 &&
	cmp out out2 && ! grep -q "disassembled by" err2
'

test_expect_success 'bad values are usage errors' '
	test_expect_code 129 "$MPERF" annotate -i one.data -M foo &&
	test_expect_code 129 "$MPERF" annotate -i one.data --percent-type foo &&
	test_expect_code 129 "$MPERF" annotate -i one.data -n --show-total-period &&
	test_expect_code 129 "$MPERF" annotate -i one.data --stdio --json
'

test_expect_success CORPUS 'corpus files: a missing binary, an arch capstone is not asked for: one line each' '
	"$MPERF" annotate --stdio -i "$CORPUS/multi-event-single-process.perf.data" >out 2>err &&
	grep -E "cannot annotate the [0-9]+ samples in /.*: the file with build id [0-9a-f]{40} is neither here" err &&
	test_expect_code 125 "$MPERF" annotate --stdio -i "$CORPUS/perf.data.armv7-3.4" >out 2>err &&
	test "$(wc -l <err)" = 1 && grep -q "cannot disassemble armv7l code" err
'

test_expect_success PERF 'beside perf: the same samples at each address, the same hottest instruction' '
	"$PERF" record --no-bpf-event -q -o perf.data "$NOPLOOP" 1 2>/dev/null &&
	"$PERF" annotate -i perf.data --stdio -n main 2>/dev/null >p &&
	"$MPERF" annotate -i perf.data --stdio -n main >m &&
	rows p | awk "\$2 > 0" >pr &&
	rows m | awk "\$2 > 0" >mr &&
	test -s pr &&
	diff pr mr &&
	test "$(sort -k2 -n -r pr | head -n 1 | cut -d" " -f1)" = "$(sort -k2 -n -r mr | head -n 1 | cut -d" " -f1)"
'

test_done
