#!/usr/bin/env bash
# report --sort srcline, srcfile and dso_size compared with perf 6.1, line
# for line, on a flat file and a -g file (its Self view) recorded by perf.
. "$(dirname "$0")/lib.sh"

perf_record () { "$PERF" record -q "$@" >/dev/null 2>&1; }

same_report () {
	f=$1; shift
	"$PERF" report --stdio -i "$f" "$@" 2>/dev/null | report_filter >perf.out &&
	"$MPERF" report -i "$f" "$@" 2>/dev/null | report_filter >mperf.out &&
	diff -u perf.out mperf.out
}

test_expect_success PERF 'files recorded by perf: flat and -g' '
	perf_record -o f.data -e cpu-clock sh -c "ls -lR /usr/lib >/dev/null; \"$CPUSPIN\" 0.2" &&
	perf_record -o g.data -g -e cpu-clock sh -c "ls -lR /usr/lib >/dev/null; \"$CPUSPIN\" 0.2"
'

test_expect_success PERF '--sort dso_size: the map sizes perf prints' '
	same_report f.data --sort dso_size &&
	same_report f.data --sort dso_size,dso &&
	same_report g.data --sort dso_size --no-children
'

test_expect_success PERF '--sort srcline: the kernel as sym+offset, as perf' '
	same_report f.data --sort srcline --dsos "[kernel.kallsyms]" &&
	same_report g.data --sort srcline --no-children --dsos "[kernel.kallsyms]"
'

test_expect_success '--json and the Children view refused in one line' '
	"$MPERF" report -i f.data --sort srcline,dso_size --json >s.json &&
	grep -q "\"srcline\": \"" s.json &&
	grep -q "\"dso_size\": [0-9]" s.json &&
	test_expect_code 125 "$MPERF" report -i g.data --sort srcline 2>err &&
	test_line_count = 1 err &&
	grep -q "add --no-children" err
'

test_done
