#!/usr/bin/env bash
# Inputs the fuzzers found crashing once: each must now end with exit 0 or
# a one-line error (exit 1), never a crash.  Under `make check
# SANITIZE=address,undefined` a sanitizer report fails the run too.
. "$(dirname "$0")/lib.sh"

for f in "$MPERF_ROOT"/tests/fuzz/regressions/reader-* "$MPERF_ROOT"/tests/fuzz/corpus/reader/*; do
	test -f "$f" || continue
	name=${f#"$MPERF_ROOT"/tests/fuzz/}
	test_expect_success "report -D survives $name" '
		rc=0 && "$MPERF" report -D -i "'"$f"'" >/dev/null 2>err || rc=$? &&
		test "$rc" -le 1 &&
		if test "$rc" = 1; then test_line_count = 1 err; fi &&
		! grep -q -E "Sanitizer|runtime error" err
	'
done

test_done
