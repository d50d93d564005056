#!/usr/bin/env bash
# script -C, --time, --comms, --pid, --tid, -S, --ns, --reltime,
# --deltatime, -G and --max-stack: what they keep adds up, bad values are
# one line and exit 129, and the output is perf script's, line for line,
# on files recorded here by perf (frame pointers and dwarf) and on the
# corpus.
. "$(dirname "$0")/lib.sh"

CALLPATHS=$MPERF_BUILD/workloads/callpaths

test_expect_success SETUP 'a system-wide recording with call chains' '
	"$MPERF" record -q -a -g -o a.data "$CALLPATHS" &&
	"$MPERF" script -i a.data >all &&
	"$MPERF" script -i a.data -G >flat
'

test_expect_success '-C and --time: the samples kept add up' '
	n=$(wc -l <flat) && test "$n" -gt 0 &&
	c0=$("$MPERF" script -i a.data -G -C 0 | wc -l) && c1=$("$MPERF" script -i a.data -G -C 1-4000 | wc -l) &&
	test $((c0 + c1)) = "$n" &&
	t0=$("$MPERF" script -i a.data -G --time 0%-50% | wc -l) && t1=$("$MPERF" script -i a.data -G --time 50%-100% | wc -l) &&
	test $((t0 + t1)) = "$n"
'

test_expect_success '--comms, --pid, --tid, -S: only those samples' '
	"$MPERF" script -i a.data -G -F comm,pid,tid --comms callpaths >c &&
	test -s c && ! grep -v "^ *callpaths " c &&
	pid=$(awk "{print \$2}" c | head -1 | cut -d/ -f1) && tid=$(awk "{print \$2}" c | head -1 | cut -d/ -f2) &&
	"$MPERF" script -i a.data -G -F pid --pid "$pid" | awk "{print \$1}" | sort -u >pids &&
	echo "$pid" | cmp - pids &&
	"$MPERF" script -i a.data -G -F tid --tid "$tid" | awk "{print \$1}" | sort -u >tids &&
	echo "$tid" | cmp - tids &&
	sym=$("$MPERF" script -i a.data -G -F ip,sym --comms callpaths | awk "{print \$2}" | head -1) &&
	"$MPERF" script -i a.data -G -F ip,sym -S "$sym" | awk "{print \$2}" | sort -u >m &&
	echo "$sym" | cmp - m
'

test_expect_success '--reltime starts at 0, --deltatime too, --ns has nine decimals' '
	"$MPERF" script -i a.data -G -F time --reltime | head -1 | grep -q "^ *0\.000000: $" &&
	"$MPERF" script -i a.data -G -F time --deltatime | head -1 | grep -q "^ *0\.000000: $" &&
	"$MPERF" script -i a.data -G -F time --ns | head -1 | grep -q "^ *[0-9]*\.[0-9]\{9\}: $"
'

test_expect_success '--max-stack 1: one frame a sample' '
	"$MPERF" script -i a.data --max-stack 1 -F ip | grep -c "^	" >frames &&
	test "$(cat frames)" -le "$(wc -l <flat)"
'

test_expect_success '--show-task-events and --show-mmap-events: the exec, the maps, the exit, among the samples' '
	"$MPERF" script -i a.data -G --show-task-events --show-mmap-events >side &&
	grep -q "PERF_RECORD_COMM exec: callpaths:" side &&
	grep -q "PERF_RECORD_MMAP2 .*/callpaths$" side &&
	grep -q "PERF_RECORD_EXIT(" side &&
	test $(grep -vc PERF_RECORD_ side) = $(wc -l <flat) &&
	"$MPERF" script -i a.data -G --show-task-events | grep -v PERF_RECORD_ | cmp - flat
'

# A value refused before the file is read is a usage error (129); one the
# file's samples decide, as script's fields, mperf's failure (125).
for bad in "129 --pid a" "129 --max-stack 0" "129 --reltime --deltatime" "125 --time 2,1" "125 -C x"; do
	test_expect_success "script ${bad#* }: one line, exit ${bad%% *}" '
		test_expect_code '"${bad%% *}"' "$MPERF" script -i a.data '"${bad#* }"' >out 2>err &&
		test $(wc -l <err) -le 2 && head -1 err | grep -q "^mperf script: " && ! test -s out
	'
done

test_expect_success PERF,SETUP 'perf'"'"'s recordings: -a -g and --call-graph dwarf' '
	"$PERF" record --no-bpf-event -q -a -g -o p.data "$CALLPATHS" 2>/dev/null &&
	"$PERF" record --no-bpf-event -q --call-graph dwarf -o d.data "$CALLPATHS" 2>/dev/null
'

same_script () {
	"$PERF" script -i "$1" "${@:2}" 2>/dev/null >want &&
	"$MPERF" script -i "$1" "${@:2}" 2>/dev/null >got &&
	diff want got >/dev/null || { diff want got | head -5; return 1; }
}

test_expect_success PERF 'every filter and form: as perf script prints them' '
	tid=$("$PERF" script -i p.data -F comm,tid 2>/dev/null | awk "\$1 == \"callpaths\" {print \$2; exit}") &&
	for args in "-C 0" "-C 1" "--time 10%/2" "--time 0%-10%,30%-40%" "--time 25%" \
		    "--reltime --time 0.05,0.1" "--reltime" "--deltatime" "--ns" "--ns --reltime" \
		    "--comms callpaths" "--tid $tid" "--pid $tid" "-S main" "-S main,_start" "-G" \
		    "--max-stack 3" "-G -C 1 --comms callpaths"; do
		same_script p.data $args || { echo "differs: $args"; return 1; }
	done &&
	for args in "--max-stack 2" "--max-stack 5 -G" "--reltime --ns" "--no-inline" "--inline -f --demangle"; do
		same_script d.data $args || { echo "differs: $args"; return 1; }
	done
'

test_expect_success PERF '--show-task-events, --show-mmap-events, --show-lost-events: as perf script prints them' '
	for args in "--show-task-events" "--show-mmap-events" "--show-lost-events" \
		    "--show-task-events --show-mmap-events -C 1" "--show-task-events --reltime -G"; do
		same_script p.data $args || { echo "differs: $args"; return 1; }
	done &&
	same_script d.data --show-task-events --show-mmap-events --show-lost-events
'

test_expect_success PERF,CORPUS '--show-*-events on files of other machines (no sample_id_all, groups, namespaces)' '
	for f in perf.data.busy.0-3.8 perf.data.callgraph-3.8 perf.data.forkexit-3.8 \
		 perf.data.ctx_switch_namespaces-4.14 multi-event-single-process.perf.data; do
		same_script "$CORPUS/$f" --show-task-events --show-mmap-events --show-lost-events ||
			{ echo "differs: $f"; return 1; }
	done
'

test_expect_success PERF,CORPUS '-C, --time, --comms on a file of another machine: as perf prints them' '
	f=$CORPUS/perf.data.busy.0-3.8 &&
	same_script "$f" -C 0,2 &&
	same_script "$f" --time 2267356.918,2267356.9182 --ns &&
	same_script "$f" --deltatime -C 1-3
'

test_done
