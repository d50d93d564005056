#!/usr/bin/env bash
# mperf annotate --stdio's source lines are perf 6.1's, line for line, on a
# -O2 -g program with a function inlined from a header and on the libc
# functions it calls (qsort's): perf reads objdump -l -S, whose file names
# are binutils' joins (./elf/./elf/rtld.c, ./stdlib/./stdlib/msort.c when
# libc's debug file is here), with " (discriminator N)"; an absolute
# file:line is not shown but numbers the source lines after it; the source
# lines are trimmed, tabs expanded, five lines of context before the first
# line of a file; symbols of equal period in perf's order (by name).
# Without -S (--no-source) a function the stripped file has no symbol for
# is labelled as objdump labels it (<mrand48_r@@GLIBC_2.2.5+0x20>:).
# -l's summary orders equal shares as perf (by path, the greatest first);
# --asm-raw has objdump's lines of an instruction's bytes past seven.
. "$(dirname "$0")/lib.sh"

have_cc () { command -v gcc >/dev/null 2>&1; }

cat >helper.h <<\EOF_C
static inline unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15ul;	/* a tab	inside */
	return x ^ (x >> 7);
}
EOF_C
cat >qs.c <<\EOF_C
#include <stdio.h>
#include <stdlib.h>
#include "helper.h"

static int cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static inline void step(unsigned long *acc, unsigned long i)
{
	for (int k = 0; k < 4; k++)
		acc[(i + k) & 63] += mix(i + k);
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], 0, 10) : 40, acc[64] = { 0 }, v[4096];

	for (unsigned long r = 0; r < rounds; r++) {
		for (unsigned long i = 0; i < 4096; i++) {
			if (i & 1)
				step(acc, i + r);
			else
				acc[i & 63] ^= mix(i);
			v[i] = mix(i ^ r);
		}
		qsort(v, 4096, sizeof(v[0]), cmp);
	}
	printf("%lu\n", acc[3] + v[7]);
	return 0;
}
EOF_C

# same SYM [OPTION...]: perf annotate --stdio's listing of SYM in q.data is mperf's
# (in p.SYMOPTIONS and m.SYMOPTIONS)
same () {
	local sym=$1 tag; shift
	tag=$sym$(printf %s "$@")
	"$PERF" annotate -i q.data --stdio "$@" "$sym" 2>/dev/null >"p.$tag" &&
	"$MPERF" annotate -i q.data --stdio "$@" "$sym" >"m.$tag" &&
	test -s "p.$tag" && diff -u "p.$tag" "m.$tag"
}

test_expect_success PERF,CC 'a -O2 -g program and libc'"'"'s qsort: the listings are perf'"'"'s, source lines and all' '
	gcc -g -O2 -o qs qs.c &&
	"$PERF" record --no-bpf-event -q --no-bpf-event -o q.data ./qs 300 >/dev/null 2>&1 &&
	same main &&
	grep -q "^ *: [0-9]* *x \^= x >> 13;$" m.main &&
	grep -q "^ *: [0-9]* *x \*= 0x9e3779b97f4a7c15ul;      /\* a tab        inside \*/$" m.main &&
	! grep -q "/qs\.c:[0-9]" m.main &&
	libc=$("$MPERF" report -i q.data --stdio --sort sym -d libc.so.6 -q 2>/dev/null |
		sed -n "s/.*\[\.\] \(.*msort.*\)$/\1/p" | head -n 1) &&
	test -n "$libc" && same "$libc" && same "$libc" --no-source &&
	same main -l --asm-raw -n && grep -q "^ *0 :  *[0-9a-f]*:   00$" m.main-l--asm-raw-n &&
	"$PERF" annotate -i q.data --stdio 2>/dev/null | grep "Source code & Disassembly of" >p.order &&
	"$MPERF" annotate -i q.data --stdio | grep "Source code & Disassembly of" >m.order &&
	diff -u p.order m.order
'

test_expect_success PERF,CC,PYTHON '--json: each file:line is as objdump -l prints it (./stdlib/./stdlib/msort.c)' '
	libc=$("$MPERF" report -i q.data --stdio --sort sym -d libc.so.6 -q 2>/dev/null |
		sed -n "s/.*\[\.\] \(.*msort.*\)$/\1/p" | head -n 1) &&
	"$MPERF" annotate -i q.data --json "$libc" >msort.json &&
	python3 - msort.json >msort.range <<-\EOF &&
	import json, sys
	(s,) = json.load(open(sys.argv[1]))["symbols"]
	a = int(s["address"], 16)
	print(s["dso"], hex(a), hex(a + s["size"]))
	for i in s["instructions"]:
	    if i["line"]:
	        print("%s:%d" % (i["file"], i["line"]))
	EOF
	read -r dso start stop <msort.range &&
	objdump -d -l --start-address=$start --stop-address=$stop "$dso" |
		sed -n "s/^\([^ ]*:[0-9]*\)\( (discriminator [0-9]*)\)*$/\1/p" | sort -u >o.lines &&
	sed 1d msort.range | sort -u >j.lines &&
	grep -q "^\./stdlib/\./stdlib/msort\.c:" j.lines &&
	comm -13 o.lines j.lines >extra && test ! -s extra
'

test_done
