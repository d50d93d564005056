#!/usr/bin/env bash
# report -C/--cpu, --time (perf's absolute, several and percent ranges),
# --symbol-filter and -f: the samples kept add up, bad values are one line
# and exit 129, and the views are perf's, line for line, on a file
# recorded here by perf and on the corpus.
. "$(dirname "$0")/lib.sh"

# samples FILE ARGS...: the first event's samples in report --json
samples () {
	local f=$1
	shift
	"$MPERF" report --json -i "$f" "$@" >s.json &&
	python3 -c 'import json; print(json.load(open("s.json"))["events"][0]["samples"])'
}

test_expect_success SETUP 'a system-wide recording (the samples carry their CPU)' '
	"$MPERF" record -q -a -o a.data "$NOPLOOP" 0.3 &&
	"$MPERF" record -q -o nocpu.data "$NOPLOOP" 0.1
'

test_expect_success '-C: each CPU'"'"'s samples add up to all of them' '
	all=$(samples a.data) && c0=$(samples a.data -C 0) && rest=$(samples a.data -C 1-4000) &&
	test "$all" -gt 0 && test $((c0 + rest)) = "$all" &&
	test "$(samples a.data -C 0,1-4000)" = "$all"
'

test_expect_success '--time: two halves add up, several ranges, an open end' '
	all=$(samples a.data) && a=$(samples a.data --time 0%-50%) && b=$(samples a.data --time 50%-100%) &&
	test $((a + b)) = "$all" &&
	test "$(samples a.data --time 0%-50%,50%-100%)" = "$all" &&
	test "$(samples a.data --time 50%/1)" = "$a" &&
	test "$(samples a.data --time 50%)" = "$a" &&
	test "$(samples a.data --time 0,)" = "$all" &&
	test "$(samples a.data --time "0,1 2,")" = "$all" &&
	"$MPERF" report -i a.data --time 25% | grep -q "^# Samples: .* (time slices: 25%)$"
'

test_expect_success '--symbol-filter: only names that hold it; -f is taken' '
	"$MPERF" report -f -i a.data --sort sym --symbol-filter ai -q >out &&
	test -s out && ! grep -v -e ai -e "^$" out
'

test_expect_success 'report --time with ranges that overlap: one line, exit 129' '
	test_expect_code 129 "$MPERF" report -i a.data --time "1,3 2,4" >out 2>err &&
	test $(wc -l <err) = 1 && ! test -s out
'

for bad in "--time 2,1" "--time 1,2,3" "--time 120%" "--time x" "-C 1-0" "-C a"; do
	test_expect_success "report $bad: one line, exit 129" '
		test_expect_code 129 "$MPERF" report -i a.data '"$bad"' >out 2>err &&
		test $(wc -l <err) = 1 && ! test -s out
	'
done

test_expect_success '-C on a file whose samples have no CPU, --time 10% on a stream: refused' '
	test_expect_code 129 "$MPERF" report -i nocpu.data -C 0 2>err &&
	grep -q "does not record" err &&
	"$MPERF" record -q -o - "$NOPLOOP" 0.1 >s.pipe &&
	test_expect_code 129 "$MPERF" report -i - --time 10% <s.pipe 2>err &&
	grep -q "first and last sample times" err
'

test_expect_success PERF,SETUP 'perf'"'"'s system-wide recording' '
	"$PERF" record --no-bpf-event -q -a -o p.data "$NOPLOOP" 0.3 2>/dev/null &&
	"$PERF" script -i p.data -F time 2>/dev/null | sed -n "1p;\$p" | tr -d ": " >times &&
	test -s times
'

same_report () {
	"$PERF" report --stdio -i "$1" "${@:2}" 2>/dev/null | grep -v "^# (Tip:" >want &&
	"$MPERF" report -i "$1" "${@:2}" 2>/dev/null | grep -v "^# (Tip:" >got &&
	diff want got
}

test_expect_success PERF '-C, --time, --symbol-filter: as perf reports them' '
	first=$(sed -n 1p times) && last=$(sed -n 2p times) &&
	mid=$(python3 -c "print(\"%.6f\" % (($first + $last) / 2))") &&
	same_report p.data -C 0 &&
	same_report p.data -C 1 --sort comm,dso &&
	same_report p.data --time 10%/2 &&
	same_report p.data --time 0%-10%,30%-40% --sort dso &&
	same_report p.data --time 25% &&
	same_report p.data --time "$first,$mid" &&
	same_report p.data --time ",$mid" --sort comm,dso &&
	same_report p.data --time "$first,$first $mid," &&
	same_report p.data --symbol-filter clock --no-children &&
	same_report p.data --time 50%/2 -C 0 --sort cpu,dso
'

test_expect_success PERF,CORPUS '-C and --time on a file of another machine: as perf reports them' '
	f=$CORPUS/perf.data.busy.0-3.8 &&
	same_report "$f" -C 0,2 &&
	same_report "$f" -C 1-3 --sort cpu,comm &&
	same_report "$f" --time 2267356.918,2267356.9182 &&
	same_report "$f" --time ",2267356.918 2267356.9182,"
'

test_done
