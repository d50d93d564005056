#!/usr/bin/env bash
# The file of a source line where a DWARF 5 line table's file 1 is a
# header: a unit whose first function comes from spin.h, so that the
# sequence of spin (a section of its own) never sets its file.  libdw
# reads such rows as file 1 (spin.h), binutils 2.40's addr2line and
# objdump -l as file 0 (main.c), and perf 6.1 prints binutils' answer (as
# for glibc's handle_amd in ld.so: dl-get-cpu-features.c, not
# dl-cacheinfo.h).  report --sort srcline and srcfile name, for every
# sampled address of spin, the file and line addr2line gives.
. "$(dirname "$0")/lib.sh"

have_binutils () { command -v cc && command -v addr2line && command -v nm; } >/dev/null 2>&1

test_expect_success BINUTILS 'a DWARF 5 unit whose file 1 is a header, recorded' '
	cat >spin.h <<-\EOF &&
	__attribute__((noinline)) unsigned long spin(unsigned long n)
	{
		unsigned long x = 0;

		for (unsigned long k = 0; k < n; k++)
			x = x * 2654435761u + k;
		return x;
	}
	EOF
	cat >main.c <<-\EOF &&
	#include <stdlib.h>
	#include "spin.h"

	int main(int argc, char **argv)
	{
		return (int)(spin(strtoul(argv[1], NULL, 0)) & 1);
	}
	EOF
	cc -O1 -g -gdwarf-5 -ffunction-sections -o prog main.c &&
	"$MPERF" record -q -e cpu-clock -o p.data ./prog 60000000
'

test_expect_success BINUTILS 'srcline and srcfile: addr2line'"'"'s file and line at each sampled address' '
	base=$(nm prog | awk "\$3 == \"spin\" { print \$1 }") &&
	"$MPERF" script -i p.data -F ip,sym,symoff >script.out &&
	sed -n "s/.* spin+0x\([0-9a-f]*\)$/\1/p" script.out | sort -u >offs &&
	test -s offs &&
	while read -r o; do
		addr2line -e prog "$(printf %x $((0x$base + 0x$o)))" || exit 1
	done <offs | sed "s,.*/,,; s/ (discriminator [0-9]*)//" | sort -u >expect &&
	grep -q "^main\.c:[1-9]" expect &&
	"$MPERF" report -i p.data --sort srcline,sym >report.out &&
	awk "\$NF == \"spin\" { print \$2 }" report.out | sort -u >got &&
	diff -u expect got &&
	"$MPERF" report -i p.data --sort srcfile,sym >srcfile.out &&
	awk "\$NF == \"spin\" { print \$2 }" srcfile.out >got &&
	echo main.c >expect &&
	diff -u expect got
'

test_done
