#!/usr/bin/env bash
# report -v/--verbose, compared with perf 6.1's --stdio -v: the DSOs by
# their long names, each symbol after its first sample's address and the
# letter of where its DSO's symbols came from (the build-id cache, its
# debug file, the file at its path, kallsyms, a kernel module's file, or
# none found), flat and with chains; and the views it is refused in.
. "$(dirname "$0")/lib.sh"

have_cc () { command -v cc >/dev/null 2>&1; }

test_expect_success PERF 'cpuspin through the build-id cache: flat and with chains, as perf -v' '
	perf_record -e cpu-clock -o f.data "$CPUSPIN" 0.3 &&
	same_report f.data -v &&
	grep -q "^ *[0-9.]*%  cpuspin  $CPUSPIN  *0x[0-9a-f]*  *B \[\.\] spin *\$" mperf.out &&
	same_report f.data -v --sort sym &&
	same_report f.data -v --sort dso,sym -n &&
	same_report f.data --verbose --dsos cpuspin &&
	perf_record -g -e cpu-clock -o g.data "$CPUSPIN" 0.3 &&
	same_report g.data -v &&
	same_report g.data -v --no-children --sort dso,sym &&
	same_report g.data -v --children --sort sym -g caller &&
	same_report g.data -v --hierarchy
'

test_expect_success PERF,CC 'a program the build-id cache lacks: its file at its path (d), stripped or not' '
	printf "volatile long x;\nint main(void) { for (long i = 0; i < 300000000; i++) x += i; return 0; }\n" >loop.c &&
	cc -O1 -o loop loop.c &&
	strip -o loop-stripped loop &&
	"$PERF" record -q --no-bpf-event --no-buildid-cache -e cpu-clock -o nc.data ./loop >/dev/null 2>&1 &&
	same_report nc.data -v &&
	grep -q " d \[\.\] main *\$" mperf.out &&
	"$PERF" record -q --no-bpf-event --no-buildid-cache -e cpu-clock -o ns.data ./loop-stripped >/dev/null 2>&1 &&
	same_report ns.data -v --sort dso,sym
'

test_expect_success PERF,CORPUS 'another machine'"'"'s files: modules (K), no kernel symbols (!), as perf -v' '
	corpus_report perf.data.callgraph-3.8 -v &&
	grep -q "\.ko  *0x[0-9a-f]*  *K \[k\] " mperf.out &&
	corpus_report perf.data.callgraph-3.8 -v --sort sym &&
	corpus_report perf.data.callgraph-3.8 -v --no-children --sort dso,sym &&
	corpus_report perf.data.singleprocess-3.8 -v &&
	corpus_report perf.data.branch-4.14 -v --no-branch-stack
'

test_expect_success CORPUS '-v is refused with --json, --tui, --symfs and -k' '
	test_expect_code 129 "$MPERF" report -i "$CORPUS/perf.data.callgraph-3.8" -v --json 2>err &&
	grep -q "verbose.*--json" err &&
	test_expect_code 129 "$MPERF" report -i "$CORPUS/perf.data.callgraph-3.8" -v --tui 2>err &&
	grep -q "tui.*verbose" err &&
	test_expect_code 129 "$MPERF" report -i "$CORPUS/perf.data.callgraph-3.8" -v --symfs / 2>err &&
	grep -q "verbose.*--symfs" err &&
	test_expect_code 129 "$MPERF" report -i "$CORPUS/perf.data.callgraph-3.8" -v -k /dev/null 2>err &&
	grep -q "verbose.*vmlinux" err
'

test_done
