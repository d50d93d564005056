#!/usr/bin/env bash
# Inputs the fuzzers (and a review) found crashing, hanging or blowing up
# once: each must now end, in every report mode, with exit 0 or a one-line
# error (exit 125, or 1 for damage inside the data after what came before
# it was printed), at most two warnings (a broken feature section, an
# unknown record type), in bounded time and output, never a crash
# (reader-memtopo-nr-bits: a MEM_TOPOLOGY node claiming 2^62 bits over a
# bitmap of 200, which -I walked bit by bit).  Under `make check
# SANITIZE=address,undefined` a sanitizer report fails the run too.
# (leaks checked in the sanitizer pass too: see tests/lib.sh)
MPERF_TEST_LEAKS=1
. "$(dirname "$0")/lib.sh"

# The views that name symbols read the kernel's from an empty kallsyms
# file, as the fuzzers do (tests/fuzz/no-kallsyms.sh): the kernel's
# symbols are this machine's, not the input's, and reading /proc/kallsyms
# was 90% of such a run's CPU (75 ms a run here, 60 runs).  What the
# inputs make of kernel maps and addresses is read the same.
: >"$TRASH_DIRECTORY/no-kallsyms" || exit 1
nosyms="--kallsyms $TRASH_DIRECTORY/no-kallsyms"

for f in "$MPERF_ROOT"/tests/fuzz/regressions/reader-* "$MPERF_ROOT"/tests/fuzz/corpus/reader/* \
	"$MPERF_ROOT"/tests/fuzz/regressions/consumers-*; do
	test -f "$f" || continue
	name=${f#"$MPERF_ROOT"/tests/fuzz/}
	for mode in -D --stats --stdio --json --header-only --header-only,-I; do
		mode=${mode//,/ }
		case $mode in --stdio|--json) args="$mode $nosyms" ;; *) args=$mode ;; esac
		test_expect_success "report $mode survives $name" '
			rc=0 && timeout 60 "$MPERF" report '"$args"' -i "'"$f"'" >out 2>err || rc=$? &&
			{ test "$rc" = 0 || test "$rc" = 1 || test "$rc" = 125; } &&
			grep -v "^mperf report: warning: " err >err.errors || : &&
			if test "$rc" != 0; then test_line_count = 1 err.errors; else test_must_be_empty err.errors; fi &&
			test "$(grep -c "^mperf report: warning: " err)" -le 2 &&
			! grep -q -E "Sanitizer|runtime error" err &&
			test "$(wc -c <out)" -lt 50000000
		'
	done
done

# The consumers' fuzzer's finds (and its corpus): mperf script too.
for f in "$MPERF_ROOT"/tests/fuzz/regressions/consumers-* "$MPERF_ROOT"/tests/fuzz/corpus/consumers/*; do
	test -f "$f" || continue
	name=${f#"$MPERF_ROOT"/tests/fuzz/}
	test_expect_success "script survives $name" '
		rc=0 && timeout 60 "$MPERF" script '"$nosyms"' -i "'"$f"'" >out 2>err || rc=$? &&
		{ test "$rc" = 0 || test "$rc" = 1 || test "$rc" = 125; } &&
		grep -v "^mperf script: warning: " err >err.errors || : &&
		if test "$rc" != 0; then test_line_count = 1 err.errors; else test_must_be_empty err.errors; fi &&
		! grep -q -E "Sanitizer|runtime error" err &&
		test "$(wc -c <out)" -lt 50000000
	'
done

test_done
