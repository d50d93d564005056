#!/bin/bash
# disasm-vs-objdump.sh [ELF...]: the share of instruction lines whose text
# `mperf annotate --stdio` prints differently from `objdump -d
# -l -S -C --no-show-raw-insn` (AT&T, as perf annotate runs it; -S reads
# a separate debug file's symbols as perf's objdump does), over every
# function of each ELF (default: libc, the test workloads, perf and a few
# /usr/bin programs).  Each function gets one synthetic sample
# (tests/synth-samples.py), so annotate lists them all; lines are matched
# by address.  Prints the totals per file, then the commonest differences
# (objdump's text, then mperf's), 0 differing lines being the goal; "text"
# counts the lines that differ besides the <sym+off> names.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
test -x ./mperf || make >&2
MPERF=$PWD/mperf
SYNTH=$PWD/tests/synth-samples.py
if [ $# = 0 ]; then
	set -- /lib/x86_64-linux-gnu/libc.so.6 build/workloads/callpaths build/workloads/new/shares \
		"$(readlink -f "$(command -v perf)")" /usr/bin/bash /usr/bin/python3 /usr/bin/gdb
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mperf-disasm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# names: the line without its <sym+off>
names () { sed 's/ <[^\t]*>\t/\t/; s/ <[^\t]*>$//' "$@"; }
printf '%-24s %9s %9s %7s %9s %7s\n' file lines differ share text share
for elf in "$@"; do
	test -r "$elf" || continue
	elf=$(readlink -f "$elf")
	b=$tmp/$(basename "$elf")
	# functions (the static symbols, else the dynamic ones): their file offsets
	{ nm -S --defined-only "$elf" 2>/dev/null || true; } | awk 'NF == 4 && $3 ~ /^[TtWi]$/ && $2 !~ /^0+$/ { print $1 }' >"$b.sym"
	test -s "$b.sym" || nm -D -S --defined-only "$elf" | awk 'NF == 4 && $3 ~ /^[TtWi]$/ && $2 !~ /^0+$/ { print $1 }' >"$b.sym"
	readelf -lW "$elf" | awk '$1 == "LOAD" && / E / { print $2, $3, $5 }' >"$b.seg"
	python3 -c 'import sys
seg = [[int(x, 16) for x in l.split()] for l in open(sys.argv[1])]
for l in open(sys.argv[2]):
    a = int(l, 16)
    for o, v, s in seg:
        if v <= a < v + s:
            print(hex(a - v + o))
            break' "$b.seg" "$b.sym" | sort -u >"$b.off"
	python3 "$SYNTH" "$b.data" "$elf" 0x7f0000000000 $(cat "$b.off")
	"$MPERF" annotate -i "$b.data" --stdio 2>/dev/null |
		sed -n 's/^ *[0-9.]* : *\([0-9a-f]*\):[ ]*\(.*\)/\1\t\2/p' | sort -u -k1,1 >"$b.m"
	objdump -d -C -l -S --no-show-raw-insn "$elf" | sed -n 's/^ *\([0-9a-f]*\):\t\(.*\)/\1\t\2/p' |
		sed 's/ *$//' | sort -u -k1,1 >"$b.o"
	join -t "$(printf '\t')" "$b.o" "$b.m" | awk -F'\t' '$2 != $3' >"$b.diff"
	join -t "$(printf '\t')" "$b.o" "$b.m" >"$b.both"
	names "$b.diff" | awk -F'\t' '$2 != $3' >"$b.text"
	n=$(wc -l <"$b.both") d=$(wc -l <"$b.diff") t=$(wc -l <"$b.text")
	awk -v f="$(basename "$elf")" -v n="$n" -v d="$d" -v t="$t" \
		'BEGIN { printf "%-24s %9d %9d %6.2f%% %9d %6.2f%%\n", f, n, d, n ? 100 * d / n : 0, t, n ? 100 * t / n : 0 }'
	cat "$b.diff" >>"$tmp/all.diff"
	cat "$b.both" >>"$tmp/all.both"
	cat "$b.text" >>"$tmp/all.text"
done
touch "$tmp/all.diff" "$tmp/all.text"
awk -v n="$(wc -l <"$tmp/all.both")" -v d="$(wc -l <"$tmp/all.diff")" -v t="$(wc -l <"$tmp/all.text")" \
	'BEGIN { printf "%-24s %9d %9d %6.2f%% %9d %6.2f%%\n", "all", n, d, n ? 100 * d / n : 0, t, n ? 100 * t / n : 0 }'
# the commonest differences, by objdump's mnemonic and mperf's
awk -F'\t' '{ split($2, o, " "); split($3, m, " "); print o[1] " / " m[1] }' "$tmp/all.diff" |
	sort | uniq -c | sort -rn | head -n "${TOP:-25}"
if [ -n "${KEEP:-}" ]; then cp "$tmp/all.diff" "$KEEP"; fi
