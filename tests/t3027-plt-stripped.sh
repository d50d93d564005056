#!/usr/bin/env bash
# perf synthesizes a binary's PLT symbols ("strcmp@plt") only when its
# symbol table (.symtab, else .dynsym) gave it symbols: in a stripped
# program whose .dynsym defines none (binutils' addr2line on Debian), a
# sample at a PLT entry is [unknown] in perf, and so it must be here.  A
# sample at every PLT address of such a program, and of one with a
# symbol table, named as perf script names them.
. "$(dirname "$0")/lib.sh"

# The address's symbol of every sample, as perf script and mperf script print it.
same_syms () {
	"$PERF" script -i "$1" -F ip,sym >perf.out 2>/dev/null &&
	"$MPERF" script -i "$1" -F ip,sym >mperf.out &&
	diff -u perf.out mperf.out
}

# a sample every 4 bytes from 16 before .plt to 1 KB into it
plt_samples () {
	local plt
	plt=$(readelf -SW "$2" | awk '$2 == ".plt" { print "0x" $5 }') &&
	test -n "$plt" &&
	python3 "$MPERF_ROOT/tests/synth-samples.py" "$1" "$2" 0x555555554000 \
		$(seq $((plt - 16)) 4 $((plt + 0x400)) | xargs printf "0x%x ")
}

have_stripped () {
	local f
	f=$(readlink -f "$(command -v addr2line 2>/dev/null)" 2>/dev/null) &&
	test -n "$f" && ! readelf -SW "$f" | grep -q " \.symtab " &&
	readelf -SW "$f" | grep -q " \.plt " &&
	! readelf --dyn-syms -W "$f" | awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && $5 != "LOCAL"' | grep -q .
}

test_expect_success PERF,STRIPPED 'a stripped program whose .dynsym defines nothing: no PLT symbols, as perf' '
	plt_samples a2l.data "$(readlink -f "$(command -v addr2line)")" &&
	same_syms a2l.data &&
	! grep -q "@plt" mperf.out &&
	grep -q "\[unknown\]\$" mperf.out
'

test_expect_success PERF 'a program with a symbol table: its PLT symbols, as perf' '
	plt_samples cp.data "$CALLPATHS_NOFP" &&
	same_syms cp.data &&
	grep -q "@plt\$" mperf.out
'

test_done
