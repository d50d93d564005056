#!/bin/bash
# mperf record: the kernel map's length (_etext - _text, as perf 6.1
# writes it) comes from the offset remembered per kernel build id under
# $XDG_CACHE_HOME/mperf/kernel/, else from /proc/kallsyms, which also
# fills the cache; a cache that does not parse is ignored and rewritten.

. "$(dirname "$0")/lib.sh"

# KSYMS: kallsyms shows this user the kernel's addresses and the kernel has a build id.
have_ksyms () {
	grep -q -m1 "^[0-9a-f]*[1-9a-f][0-9a-f]* T _text$" /proc/kallsyms &&
	test -r /sys/kernel/notes
}

# kmap FILE: the kernel map's start and length as -D prints them.
kmap () {
	"$MPERF" report -D -i "$1" | sed -n "s/.*PERF_RECORD_MMAP -1\/0: \[\(0x[0-9a-f]*(0x[0-9a-f]*)\).*kallsyms\]_text$/\1/p"
}

# expected: _text and _etext - _text from /proc/kallsyms, in kmap's shape.
expected () {
	local t e
	t=$(grep -m1 " T _text$" /proc/kallsyms | cut -d" " -f1) &&
	e=$(grep -m1 " _etext$" /proc/kallsyms | cut -d" " -f1) &&
	printf "0x%x(0x%x)\n" $((16#$t)) $((16#$e - 16#$t))
}

export XDG_CACHE_HOME=$TRASH_DIRECTORY/cache

test_expect_success KSYMS 'the first recording scans kallsyms and fills the cache' '
	"$MPERF" record -q -o a.data true &&
	expected >want && kmap a.data >got && diff -u want got &&
	test "$(ls cache/mperf/kernel | wc -l)" = 1 &&
	f=$(echo cache/mperf/kernel/*) &&
	test "0x$(cat "$f")" = "$(sed "s/.*(\(.*\))/\1/" want)"
'

test_expect_success KSYMS 'the next takes the length from the cache' '
	f=$(echo cache/mperf/kernel/*) &&
	echo 1234 >"$f" &&
	"$MPERF" record -q -o b.data true &&
	kmap b.data >got && sed "s/(.*/(0x1234)/" want >want2 && diff -u want2 got
'

test_expect_success KSYMS 'a cache that does not parse is ignored and rewritten' '
	f=$(echo cache/mperf/kernel/*) &&
	echo "not hex" >"$f" &&
	"$MPERF" record -q -o c.data true &&
	kmap c.data >got && diff -u want got &&
	test "0x$(cat "$f")" = "$(sed "s/.*(\(.*\))/\1/" want)"
'

test_done
