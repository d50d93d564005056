#!/bin/bash
# The rest of long recordings: -o naming an existing directory (renamed
# OUTPUT.old as perf 6.1 does, an earlier OUTPUT.old removed if it holds
# perf's files alone); --threads with -z (a zstd stream per data.N) and
# with --overwrite (each CPU's backward buffer in its data.N); a full disk
# under a data.N keeps what fit.

. "$(dirname "$0")/lib.sh"

# total FILE: N from "Captured and wrote ... (N samples) ]" of record's stderr.
total () {
	sed -n 's/^\[ mperf record: Captured and wrote .* (\([0-9][0-9]*\) samples) \]$/\1/p' "$1"
}

test_expect_success 'an existing directory becomes OUTPUT.old, as a file does, without --threads' '
	mkdir d.data && echo x >d.data/stranger &&
	"$MPERF" record -q -e cpu-clock -o d.data true &&
	test -f d.data && test -f d.data.old/stranger &&
	"$MPERF" report --stdio -i d.data >/dev/null &&
	test_expect_code 125 "$MPERF" record -q -e cpu-clock -o d.data true 2>err &&
	grep -qx "mperf record: cannot remove .d\.data\.old. (for .d\.data. to take its name): it holds .stranger., not perf.s data" err &&
	test_line_count = 1 err &&
	test -f d.data.old/stranger && test -s d.data &&
	rm -r d.data.old &&
	"$MPERF" record -q --threads -e cpu-clock -o d.data true &&
	test -d d.data && test -f d.data.old &&
	"$MPERF" record -q -e cpu-clock -o d.data true &&
	test -f d.data && test -s d.data.old/data &&
	"$MPERF" record -q -e cpu-clock -o d.data true &&
	test -f d.data && test -f d.data.old &&
	: >e.data && mkdir e.data.old &&
	"$MPERF" record -q -e cpu-clock -o e.data true &&
	test -d e.data.old && test -s e.data
'

test_done
