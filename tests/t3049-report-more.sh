#!/usr/bin/env bash
# report's remaining defaults and options, each compared with perf 6.1:
# the "Trace output" view perf chooses for a file whose events are all
# tracepoints (and not for a mixed file or a pipe-mode stream), and
# --sort +KEYS, the keys added after the file's default order.
. "$(dirname "$0")/lib.sh"

work="ls -l /usr/lib >/dev/null; ls / | cat >/dev/null"

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

# corpus_report FILE OPTS...: as same_report, on a corpus file whose kernel
# is not this one (both warn of it on stderr).
corpus_report () {
	local f=$CORPUS/$1
	shift
	"$PERF" report --stdio -i "$f" "$@" 2>/dev/null | report_filter >perf.out &&
	"$MPERF" report -i "$f" "$@" 2>/dev/null | report_filter >mperf.out &&
	test "$(grep -c "^# Samples:" perf.out)" -ge 1 &&
	diff -u perf.out mperf.out
}

test_expect_success PERF,CORPUS '--sort +KEYS after each view'"'"'s default, as perf' '
	corpus_report perf.data.callgraph-3.8 --sort +pid &&
	corpus_report perf.data.callgraph-3.8 --sort +symbol,overhead --no-children &&
	corpus_report perf.data.branch-4.14 --sort +pid
'

test_expect_success '--sort + alone is a usage error' '
	"$MPERF" record -q -o m.data "$CPUSPIN" 0.05 &&
	test_expect_code 129 "$MPERF" report -i m.data --sort + 2>err &&
	grep -q "invalid --sort key" err &&
	"$MPERF" report -i m.data --sort +pid --json >m.json &&
	grep -q "\"sort\": \[\"comm\", \"dso\", \"symbol\", \"pid\"\]" m.json
'

test_done
