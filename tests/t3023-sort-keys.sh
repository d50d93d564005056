#!/usr/bin/env bash
# report --sort with perf 6.1's keys beyond comm, pid, dso, symbol and cpu:
# each key's rows, their order and cells are perf report --stdio's, line
# for line, on files recorded here by perf (flat and -g, kernel and user
# samples), alone and combined with other keys; and its JSON field.
. "$(dirname "$0")/lib.sh"

test_expect_success PERF 'files recorded by perf: flat and -g' '
	perf_record -o f.data -e cpu-clock sh -c "ls -lR /usr/lib >/dev/null; \"$CPUSPIN\" 0.2" &&
	perf_record -o g.data -g -e cpu-clock sh -c "ls -lR /usr/lib >/dev/null; \"$CPUSPIN\" 0.2" &&
	"$MPERF" report -i f.data --sort dso | grep -q "\[kernel.kallsyms\]"
'

# symbol_size: perf appends its ipc_null key (a symbol comparison) to a
# text naming "symbol", so symbols of one size keep rows of their own; a
# kernel sample is not merged with another before kallsyms is read.
test_expect_success PERF '--sort symbol_size: sizes, "unknown", one row per symbol, as perf' '
	same_report f.data --sort symbol_size &&
	grep -q "^ *[0-9.]*%  *[0-9][0-9]*  -      -  *\$" mperf.out &&
	test "$(grep -c "^ *[0-9.]*%" mperf.out)" = "$("$MPERF" report -i f.data --sort sym | grep -c "^ *[0-9.]*%")" &&
	same_report f.data --sort symbol_size,dso &&
	same_report f.data --sort comm,symbol_size -n &&
	same_report f.data --sort symbol_size,sym &&
	same_report f.data --sort dso,symbol_size --stdio
'

test_expect_success PERF '--sort symbol_size with chains: Children, Self, caller graphs' '
	same_report g.data --sort symbol_size &&
	same_report g.data --sort symbol_size --no-children &&
	same_report g.data --sort symbol_size,comm -g caller &&
	same_report g.data --sort dso,symbol_size -g none
'

test_expect_success PERF '--sort symbol_size --json: the size, null unresolved' '
	"$MPERF" report -i f.data --sort symbol_size --json >s.json &&
	grep -q "\"sort\": \[\"symbol_size\"\]" s.json &&
	grep -q "\"symbol_size\": [0-9]" s.json &&
	python3 -c "import json; json.load(open(\"s.json\"))"
'

# socket: the CPU's in the file's CPU_TOPOLOGY (a corpus file's warnings
# about its missing kallsyms aside), -001 without a CPU; perf
# counts a chain's frames again in Children where the socket is not 0.
test_expect_success PERF '--sort socket: -a and not, flat and -g, as perf' '
	perf_record -o a.data -a -e cpu-clock "$CPUSPIN" 0.2 &&
	perf_record -o ag.data -a -g -e cpu-clock "$CPUSPIN" 0.2 &&
	same_report a.data --sort socket &&
	grep -q "^ *[0-9.]*%     000\$" mperf.out &&
	same_report a.data --sort socket,cpu &&
	same_report a.data --sort comm,socket,dso -n &&
	same_report f.data --sort socket &&
	grep -q "^ *100.00%    -001\$" mperf.out &&
	same_report ag.data --sort socket &&
	same_report ag.data --sort socket,comm --no-children &&
	same_report g.data --sort socket &&
	grep -q "^ *[0-9.]*[0-9][0-9][0-9].[0-9][0-9]%  *100.00%    -001\$" mperf.out &&
	same_report g.data --sort comm,socket
'

# ipc_null's symbol comparison also orders --sort symbol's ties (unresolved
# addresses of equal Children and Self) as perf does.
test_expect_success PERF '--sort symbol: ties in ipc_null'"'"'s order, as perf' '
	same_report ag.data --sort symbol &&
	same_report g.data --sort symbol --no-children &&
	same_report f.data --sort dso,symbol
'

test_expect_success PERF,CORPUS '--sort socket on the corpus, and --json' '
	for f in perf.data.systemwide.0-3.8 perf.data.hybrid_topology perf.data.group_desc-4.14; do
		"$PERF" report --stdio -i "$CORPUS/$f" --sort socket,cpu 2>/dev/null | report_filter >perf.out &&
		"$MPERF" report -i "$CORPUS/$f" --sort socket,cpu 2>/dev/null | report_filter >mperf.out &&
		grep -q "^# .*Overhead  Socket  CPU\$" perf.out &&
		diff -u perf.out mperf.out || exit 1
	done &&
	"$MPERF" report -i a.data --sort socket --json >s.json &&
	grep -q "\"socket\": 0" s.json &&
	"$MPERF" report -i f.data --sort socket --json >s.json &&
	grep -q "\"socket\": -1" s.json
'

test_done
