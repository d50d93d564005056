#!/usr/bin/env bash
# Kernel symbols from an unsorted /proc/kallsyms.  Module and BPF lines come
# in module-list order, so most machines have one; a machine with few
# modules (many VMs) has a sorted one and would never run that case.  The
# symbol unit test runs here again on a copy of kallsyms with module lines
# out of order, bind-mounted over /proc/kallsyms in a private mount
# namespace (root only).
. "$(dirname "$0")/lib.sh"

TEST_SYMBOLS=$MPERF_BUILD/tests/unit/test-symbols

have_test_symbols () { test -x "$TEST_SYMBOLS"; }

# Addresses to read (kptr_restrict lets root see them) and a private mount
# namespace in which /proc/kallsyms can be replaced.
have_kallsyms_mount () {
	grep -q -m 1 -v '^0* ' /proc/kallsyms &&
	command -v unshare &&
	: >"$TRASH_DIRECTORY/.probe" &&
	unshare -m sh -c 'mount --bind "$1" /proc/kallsyms' sh "$TRASH_DIRECTORY/.probe"
}

test_expect_success TEST_SYMBOLS,KALLSYMS_MOUNT 'an unsorted copy of kallsyms with three module symbols' '
	cat /proc/kallsyms >kallsyms &&
	max=$(awk "\$1 !~ /^0+\$/ { print \$1 }" kallsyms | sort | tail -n 1) &&
	test -n "$max" &&
	# Descending within one module, then a lower one: out of order twice.
	printf "%016x t mperf_mod_b_fn2\t[mperf_mod_b]\n" $((0x$max + 0x202000)) >>kallsyms &&
	printf "%016x t mperf_mod_b_fn1\t[mperf_mod_b]\n" $((0x$max + 0x201000)) >>kallsyms &&
	printf "%016x T mperf_mod_a_init\t[mperf_mod_a]\n" $((0x$max + 0x100000)) >>kallsyms &&
	tail -n 4 kallsyms
'

test_expect_success TEST_SYMBOLS,KALLSYMS_MOUNT 'the symbol unit test passes on it' '
	rc=0 &&
	unshare -m sh -c "mount --bind kallsyms /proc/kallsyms && exec \"\$1\"" sh "$TEST_SYMBOLS" \
		>out 2>&1 || rc=$? &&
	cat out &&
	test $rc = 0 &&
	grep "^# /proc/kallsyms: .* NOT sorted by address$" out &&
	grep "^ok .* - kernel: _text .* resolves$" out &&
	grep "^ok .* - kernel: module symbol mperf_mod_a_init resolves$" out &&
	! grep "^not ok" out &&
	! grep "# TODO" out
'

test_done
