#!/usr/bin/env bash
# report --symfs DIR: a DSO the recording names by path P is read from
# DIR/P (annotate's rule, one place in the symbol cache), as perf report
# --symfs finds it: a program recorded, then moved under DIR, gets its
# symbols back there, and its rows are perf's.  Not compared: the
# kernel's and the vdso's rows, which perf then takes from DIR/.debug
# alone (see mperf-report(1)).
. "$(dirname "$0")/lib.sh"

test_expect_success PERF 'a program moved under DIR: its symbols, as perf' '
	mkdir -p bin root &&
	cp "$CPUSPIN" bin/spinner &&
	"$PERF" record --no-bpf-event -q -N -o s.data -e cpu-clock "$PWD/bin/spinner" 0.1 >/dev/null 2>&1 &&
	mkdir -p "root$PWD/bin" && mv bin/spinner "root$PWD/bin/" &&
	"$PERF" report --stdio -i s.data --symfs "$PWD/root" --dsos spinner 2>/dev/null | report_filter >perf.out &&
	"$MPERF" report -i s.data --symfs "$PWD/root" --dsos spinner 2>/dev/null | report_filter >mperf.out &&
	grep -q "spinner  *\[\.\] spin\$" mperf.out &&
	diff -u perf.out mperf.out
'

test_expect_success PERF '--symfs with the Children view and --sort sym,srcline' '
	"$PERF" record --no-bpf-event -q -N -g -o g.data -e cpu-clock "$CPUSPIN" 0.1 >/dev/null 2>&1 &&
	mkdir -p "g$(dirname "$CPUSPIN")" && cp "$CPUSPIN" "g$CPUSPIN" &&
	"$PERF" report --stdio -i g.data --symfs "$PWD/g" --dsos cpuspin --sort sym,srcline -g none 2>/dev/null |
		report_filter >perf.out &&
	"$MPERF" report -i g.data --symfs "$PWD/g" --dsos cpuspin --sort sym,srcline -g none 2>/dev/null | report_filter >mperf.out &&
	diff -u perf.out mperf.out
'

test_done
