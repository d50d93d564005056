#!/usr/bin/env bash
# report --sort srcline, srcfile and dso_size compared with perf 6.1, line
# for line: flat files and -g files (Self and Children views) recorded by
# perf, of a program without debug info (addr2line's answers from the
# symbol table: file:0 and ??:0) and of libc's with it.  Not compared:
# all of libc's lines, which perf asks addr2line for, seconds a report
# (where binutils names another file than libdw, strtoul.c for strtol.c,
# mperf follows binutils: t3043).
. "$(dirname "$0")/lib.sh"

same_report () {
	f=$1; shift
	"$PERF" report --stdio -i "$f" "$@" 2>/dev/null | report_filter >perf.out &&
	"$MPERF" report -i "$f" "$@" 2>/dev/null | report_filter >mperf.out &&
	diff -u perf.out mperf.out
}

test_expect_success PERF 'files recorded by perf: flat and -g' '
	perf_record -o f.data -e cpu-clock sh -c "ls -lR /usr/lib >/dev/null; \"$CPUSPIN\" 0.2" &&
	perf_record -o c.data -F 4000 -e cpu-clock "$CALLPATHS" &&
	perf_record -o g.data -g -F 4000 -e cpu-clock "$CALLPATHS"
'

test_expect_success PERF '--sort dso_size: the map sizes perf prints' '
	same_report f.data --sort dso_size &&
	same_report f.data --sort dso_size,dso &&
	same_report g.data --sort dso_size &&
	same_report g.data --sort dso_size --no-children
'

test_expect_success PERF '--sort srcline: file:line, addr2line'"'"'s file:0 and ??:0, sym+offset' '
	same_report f.data --sort srcline --dsos "[kernel.kallsyms]" &&
	same_report f.data --sort srcline,sym --dsos cpuspin &&
	same_report c.data --sort srcline,comm &&
	same_report g.data --sort srcline --no-children &&
	same_report g.data --sort srcline,sym --no-children &&
	same_report g.data --sort srcline
'

test_expect_success PERF '--sort srcfile' '
	same_report f.data --sort srcfile --dsos cpuspin &&
	same_report c.data --sort srcfile,dso &&
	same_report g.data --sort srcfile --no-children &&
	same_report g.data --sort srcfile
'

test_expect_success PERF '--json: srcline, srcfile and dso_size fields' '
	"$MPERF" report -i f.data --sort srcline,srcfile,dso_size --json >s.json &&
	grep -q "\"srcline\": \"[^\"]*:[0-9]*\"" s.json &&
	grep -q "\"srcfile\": \"" s.json &&
	grep -q "\"dso_size\": [0-9]" s.json
'

test_done
