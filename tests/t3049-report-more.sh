#!/usr/bin/env bash
# report's remaining defaults and options, each compared with perf 6.1:
# the "Trace output" view perf chooses for a file whose events are all
# tracepoints (and not for a mixed file or a pipe-mode stream), and
# --sort +KEYS, the keys added after the file's default order; the
# sort keys of the samples' weights and code page size; --full-source-path
# and --no-demangle.
. "$(dirname "$0")/lib.sh"

work="ls -l /usr/lib >/dev/null; ls / | cat >/dev/null"

have_cc () { command -v cc >/dev/null 2>&1; }
have_cxx () { command -v g++ >/dev/null 2>&1; }

# CODEPAGE: this kernel records the code page size (perf record --code-page-size).
have_codepage () {
	test_have_prereq PERF && perf_record -o probe.data --code-page-size -e cpu-clock true
}

test_expect_success PERF,TRACEFS 'tracepoints alone: perf'"'"'s Trace output view, with its options' '
	perf_record -o tp.data -e sched:sched_switch -e syscalls:sys_enter_write sh -c "$work" &&
	same_report tp.data &&
	grep -q "^# Overhead  Trace output *\$" mperf.out &&
	same_report tp.data -n --show-total-period &&
	same_report tp.data --group &&
	same_report tp.data --hierarchy &&
	same_report tp.data -F overhead,comm &&
	same_report tp.data -F +comm &&
	same_report tp.data --sort +comm &&
	same_report tp.data --sort +symbol &&
	same_report tp.data --sort pid
'

test_expect_success PERF,TRACEFS 'tracepoints with chains: Children and Self of Trace output, as perf' '
	perf_record -o tpg.data -g -e sched:sched_switch sh -c "$work" &&
	same_report tpg.data &&
	grep -q "^# Children      Self  Trace output *\$" mperf.out &&
	same_report tpg.data --no-children &&
	same_report tpg.data -g none &&
	same_report tpg.data -G &&
	same_report tpg.data --no-children -p "^main\$" --sort +pid
'

test_expect_success PERF,TRACEFS 'a mixed file and a pipe-mode stream keep comm,dso,sym, as perf' '
	perf_record -o mixed.data -e sched:sched_switch -e cpu-clock sh -c "$work" &&
	same_report mixed.data &&
	grep -q "^# Overhead  Command  Shared Object  *Symbol *\$" mperf.out &&
	"$PERF" record -q --no-bpf-event -o - -e sched:sched_switch sh -c "$work" >pipe.data 2>/dev/null &&
	same_report pipe.data &&
	grep -q "^# Overhead  Command  Shared Object  *Symbol *\$" mperf.out
'

test_expect_success PERF,CORPUS '--sort +KEYS after each view'"'"'s default, as perf' '
	corpus_report perf.data.callgraph-3.8 --sort +pid &&
	corpus_report perf.data.callgraph-3.8 --sort +symbol,overhead --no-children &&
	corpus_report perf.data.branch-4.14 --sort +pid
'

test_expect_success PERF,CORPUS 'weight keys on a WEIGHT_STRUCT file, as perf' '
	corpus_report perf.data.weight_struct --sort weight &&
	grep -q "^# Overhead  Weight *\$" mperf.out &&
	corpus_report perf.data.weight_struct --sort local_weight,sym -n &&
	corpus_report perf.data.weight_struct --sort comm,weight,local_weight,ins_lat,local_ins_lat &&
	corpus_report perf.data.weight_struct --sort p_stage,local_p_stage -F overhead,sample,weight &&
	corpus_report perf.data.weight_struct --sort p_stage_cyc,comm &&
	corpus_report perf.data.weight_struct --sort local_p_stage_cyc &&
	corpus_report perf.data.weight_struct --sort weight,sym --hierarchy &&
	corpus_report perf.data.weight_struct --sort weight,code_page_size --group
'

test_expect_success PERF,CORPUS 'weight keys as JSON: the cells'"'"' numbers' '
	"$MPERF" report -i "$CORPUS/perf.data.weight_struct" --sort weight,local_weight --json 2>/dev/null >w.json &&
	"$PERF" report --stdio -i "$CORPUS/perf.data.weight_struct" --sort weight,local_weight 2>/dev/null |
		awk "/^ +[0-9.]+%/ { print \$2, \$3 }" >perf.cells &&
	sed -n "s/.*\"weight\": \([0-9]*\), \"local-weight\": \([0-9]*\).*/\1 \2/p" w.json >mperf.cells &&
	test_line_count -ge 10 perf.cells &&
	diff -u perf.cells mperf.cells
'

test_expect_success PERF 'weight keys where the file has none, and with chains: as perf' '
	perf_record -o w.data -W -g -e cpu-clock sh -c "$work" &&
	same_report w.data --sort weight,local_weight,sym &&
	same_report w.data --sort ins_lat,comm --no-children &&
	perf_record -o nw.data -e cpu-clock sh -c "$work" &&
	same_report nw.data --sort weight,dso
'

test_expect_success PERF,CODEPAGE 'code_page_size, flat and with chains, as perf' '
	perf_record -o cp.data --code-page-size -e cpu-clock "$CPUSPIN" 0.1 &&
	perf_record -o cpg.data --code-page-size -g -e cpu-clock sh -c "$work; \"$CPUSPIN\" 0.1" &&
	same_report cp.data --sort code_page_size,sym &&
	grep -q "^ *[0-9.]*%  4K  " mperf.out &&
	same_report cp.data --sort comm,code_page_size --no-children &&
	same_report cpg.data --sort code_page_size,sym &&
	same_report cpg.data --sort code_page_size,dso --hierarchy
'

test_expect_success PERF,CC '--full-source-path: srcline and srcfile with the line table'"'"'s whole path, as perf' '
	mkdir -p src/sub &&
	cat >src/sub/loop.c <<-\EOF &&
	#include <stdlib.h>

	int main(int argc, char **argv)
	{
		volatile unsigned long x = 0;
		unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;

		for (unsigned long k = 0; k < n; k++)
			x = x * 2654435761u + k;
		return (int)(x & 1);
	}
	EOF
	(cd src && cc -g -O0 -o ../loop sub/loop.c) &&
	perf_record -o src.data -e cpu-clock ./loop 300000000 &&
	same_report src.data --sort srcline --full-source-path &&
	grep -q "^ *[0-9.]*%  $PWD/src/sub/loop.c:[0-9]" mperf.out &&
	same_report src.data --sort srcfile,sym --full-source-path --dsos loop &&
	grep -q "  $PWD/src/sub/loop.c  " mperf.out &&
	same_report src.data --sort srcline,srcfile --dsos loop &&
	grep -q "  loop.c:[0-9]* *loop.c *\$" mperf.out
'

test_expect_success PERF,CXX '--no-demangle: a C++ program'"'"'s names as its file has them, as perf' '
	g++ -O1 -g -fno-omit-frame-pointer -o cxxspin "$MPERF_ROOT/tests/workloads/cxxspin.cpp" &&
	perf_record -g -e cpu-clock -o cxx.data ./cxxspin 0.3 &&
	same_report cxx.data --no-demangle --sort sym -g none --percent-limit 1 &&
	grep -q "\[\.\] _ZN2ns3BoxIlE4spinEl *\$" mperf.out &&
	same_report cxx.data --no-demangle --no-children -g folded --percent-limit 1 &&
	grep -q "_ZN2ns3BoxIdE4spinEl" mperf.out &&
	same_report cxx.data --no-demangle --children -g caller --percent-limit 5 &&
	same_report cxx.data --sort sym -g none --percent-limit 1 &&
	grep -q "\[\.\] ns::Box<long>::spin *\$" mperf.out
'

test_expect_success '--sort + alone and i (perf'"'"'s hidden ipc_null) are usage errors' '
	"$MPERF" record -q -o m.data "$CPUSPIN" 0.05 &&
	test_expect_code 129 "$MPERF" report -i m.data --sort + 2>err &&
	grep -q "invalid --sort key" err &&
	test_expect_code 129 "$MPERF" report -i m.data --sort i 2>err &&
	grep -q "unknown sort key .i." err &&
	"$MPERF" report -i m.data --sort +pid --json >m.json &&
	grep -q "\"sort\": \[\"comm\", \"dso\", \"symbol\", \"pid\"\]" m.json
'

# --symbol-filter: perf 6.1 gives it to the first event's histogram
# alone; the others show every entry, and in the group view the leader's
# entries made for a member's (0.00% for the leader) are shown too.
test_expect_success PERF,CORPUS '--symbol-filter on the first event only, groups and several events, as perf' '
	corpus_report perf.data.group_desc-4.14 --symbol-filter=xyz &&
	grep -q "^ *0\.00%  *[0-9.]*%  echo " mperf.out &&
	corpus_report perf.data.group_desc-4.14 --symbol-filter=e -n &&
	corpus_report multi-event-single-process.perf.data --symbol-filter=xyz &&
	test "$(grep -c "a\.out" mperf.out)" -gt 10 &&
	corpus_report multi-event-single-process.perf.data --symbol-filter=a --group &&
	perf_record -o two.data -g -e cpu-clock,task-clock "$CALLPATHS" 0.2 &&
	same_report two.data --symbol-filter=leaf &&
	same_report two.data --symbol-filter=leaf --no-children -g folded &&
	perf_record -o grp.data -g -e "{cpu-clock,task-clock}" "$CALLPATHS" 0.2 &&
	same_report grp.data --symbol-filter=a &&
	same_report grp.data --symbol-filter=xyz --no-children
'

test_done
