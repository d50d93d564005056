#!/bin/bash
# --check on record, report and stat: exit 3, and one line on stderr per
# finding naming the event and the figure, when an event lost samples, was
# throttled, ran less than it was enabled, or has fewer samples than a like
# event (same event and period) by more than --check-tolerance.

. "$(dirname "$0")/lib.sh"

# check_lines FILE: the check's lines of FILE (mperf's stderr).
check_lines () {
	grep "^mperf [a-z]*: check: " "$1" || true
}

# The seed's command; cycles falls back to cpu-clock where there is no PMU.
test_expect_success 'the seed'\''s cycles,cycles,cycles passes --check' '
	test_expect_code 0 "$MPERF" record -q --check -e cycles,cycles,cycles -o seed.data "$CPUSPIN" 1 2>err &&
	check_lines err >lines &&
	test_must_be_empty lines &&
	test_expect_code 0 "$MPERF" report --check -i seed.data 2>err &&
	test_must_be_empty err
'

# A one-page buffer at 50 kHz x 3 drops samples on most machines (t1001):
# when it does, --check names each event that lost, with the count the
# summary gives; when this machine drains fast enough, it passes.
test_expect_success 'a recording that loses samples fails --check, naming each event' '
	rc=0 &&
	"$MPERF" record --check -m 1 -c 20000 -e cpu-clock,cpu-clock,cpu-clock -o loss.data \
		"$CPUSPIN" 0.5 2>err || rc=$? &&
	sed -n "s/^\[ mperf record: event .cpu-clock.: [0-9]* samples, \([0-9]*\) lost \]\$/\1/p" err >lost &&
	test_line_count = 3 lost &&
	check_lines err >lines &&
	if test "$(sort -u lost)" = 0
	then
		echo "# nothing lost here: --check passes" >&2 &&
		test "$rc" = 0 && test_must_be_empty lines
	else
		test "$rc" = 3 &&
		i=0 &&
		while read -r n; do
			if test "$n" != 0; then
				grep -q "^mperf record: check: event #$i '\''cpu-clock'\'' lost $n samples$" lines || exit 1
			fi
			i=$((i + 1))
		done <lost &&
		# the lost-sample lines only: a lossy run may also be imbalanced
		test "$(grep -c " lost [0-9]* samples\$" lines)" = "$(grep -vc "^0$" lost)" &&
		test_expect_code 3 "$MPERF" report --check -i loss.data 2>rerr &&
		diff <(sed "s/^mperf record:/mperf report:/" lines) rerr
	fi
'

# A file in which one of three identical events has a third of the others'
# samples.  Built from a real recording of three cpu-clock events at one
# fixed period: two of every three SAMPLE records of event #2 (found by the
# sample id the attrs section gives it) are overwritten with FINISHED_ROUND
# records of the same total size, so that every offset and the data size
# stay as they were and the file is still one perf reads.
starve_event () {
	python3 - "$1" "$2" "$3" <<-\EOF
	import struct, sys
	src, dst, victim = sys.argv[1], sys.argv[2], int(sys.argv[3])
	b = bytearray(open(src, "rb").read())
	magic, size, attr_size = struct.unpack_from("<8sQQ", b, 0)
	assert magic == b"PERFILE2", magic
	attrs_off, attrs_size, data_off, data_size = struct.unpack_from("<QQQQ", b, 24)
	events = []
	for k in range(attrs_size // attr_size):
	    a = attrs_off + k * attr_size
	    sample_type = struct.unpack_from("<Q", b, a + 24)[0]
	    ids_off, ids_size = struct.unpack_from("<QQ", b, a + attr_size - 16)
	    ids = set(struct.unpack_from("<%dQ" % (ids_size // 8), b, ids_off))
	    events.append((sample_type, ids))
	sample_type = events[0][0]
	assert all(e[0] == sample_type for e in events), "events sample different fields"
	if sample_type & (1 << 16):          # PERF_SAMPLE_IDENTIFIER: first
	    id_at = 0
	else:                                # IP, TID, TIME, ADDR come before ID
	    assert sample_type & (1 << 6), "no sample id"
	    id_at = 8 * bin(sample_type & 0xf).count("1")
	pos, end, seen, dropped = data_off, data_off + data_size, 0, 0
	while pos < end:
	    rtype, misc, rsize = struct.unpack_from("<IHH", b, pos)
	    assert rsize >= 8 and rsize % 8 == 0, (pos, rsize)
	    if rtype == 9:                   # PERF_RECORD_SAMPLE
	        sid = struct.unpack_from("<Q", b, pos + 8 + id_at)[0]
	        if sid in events[victim][1]:
	            if seen % 3:
	                for k in range(rsize // 8):   # PERF_RECORD_FINISHED_ROUND
	                    struct.pack_into("<IHH", b, pos + 8 * k, 68, 0, 8)
	                dropped += 1
	            seen += 1
	    pos += rsize
	open(dst, "wb").write(b)
	print("# event %d: %d samples, %d dropped" % (victim, seen, dropped), file=sys.stderr)
	assert seen > 300 and dropped * 3 >= seen * 2 - 3, (seen, dropped)
	EOF
}

test_expect_success 'a file in which one of three like events has a third of the samples fails --check' '
	"$MPERF" record -q -c 250000 -e cpu-clock,cpu-clock,cpu-clock -o three.data "$CPUSPIN" 1 &&
	test_expect_code 0 "$MPERF" report --check -i three.data 2>err &&
	test_must_be_empty err &&
	starve_event three.data starved.data 2 &&
	test_expect_code 3 "$MPERF" report --check -i starved.data 2>err &&
	cat err &&
	test_line_count = 1 err &&
	grep -q "^mperf report: check: event #2 '\''cpu-clock'\'' has [0-9]* samples, 6[0-9]\.[0-9]% fewer than the [0-9]* of event #[01] '\''cpu-clock'\'' (tolerance 5%)$" err &&
	if test_have_prereq PERF; then
		"$PERF" report --stats -i starved.data >/dev/null 2>perr &&
		! grep -qi "error\|corrupt" perr
	fi
'

test_expect_success '--check-tolerance: a wide enough tolerance lets it pass' '
	test_expect_code 0 "$MPERF" report --check --check-tolerance 70 -i starved.data 2>err &&
	test_must_be_empty err &&
	test_expect_code 3 "$MPERF" report --check --check-tolerance 60 -i starved.data 2>err &&
	test_expect_code 129 "$MPERF" report --check --check-tolerance 101 -i starved.data 2>err &&
	test_expect_code 129 "$MPERF" record --check-tolerance x true 2>err &&
	test_expect_code 129 "$MPERF" stat --check-tolerance -1 true 2>err
'

test_expect_success 'events that sample differently are not compared' '
	"$MPERF" record -q --check -e cpu-clock/period=250000/,cpu-clock/period=1000000/ -o two.data \
		"$CPUSPIN" 0.5 2>err &&
	test_must_be_empty err
'

test_expect_success 'report --check goes alone or with --stats --json' '
	test_expect_code 129 "$MPERF" report --check -D -i three.data 2>err &&
	grep -q -- "--check" err
'

# Throttling is checked on numbers built by hand (tests/unit/test-stat.c):
# the kernel throttles only under a lowered kernel.perf_event_max_sample_rate,
# a setting of the whole machine (t1001 lowers it for a moment), and the
# summary's throttle count that --check reads is t1001's test.

test_expect_success 'stat --check: like counts pass, the workload'\''s status wins over a check' '
	test_expect_code 0 "$MPERF" stat --check -x, -e task-clock,task-clock "$CPUSPIN" 0.2 2>err &&
	check_lines err >lines &&
	test_must_be_empty lines &&
	test_expect_code 1 "$MPERF" stat --check -e task-clock false 2>err
'

test_expect_success '--check-status: a failed check exits N, a workload'\''s failure keeps its own' '
	test_expect_code 42 "$MPERF" report --check --check-status 42 -i starved.data 2>err &&
	test_line_count = 1 err &&
	test_expect_code 0 "$MPERF" report --check --check-status 42 -i three.data &&
	test_expect_code 3 "$MPERF" stat --check --check-status 42 -e task-clock -- sh -c "exit 3" 2>err
'

test_expect_success 'report --stats --json --check: the findings in the document too' '
	test_expect_code 3 "$MPERF" report --stats --json --check -i starved.data >s.json 2>err &&
	sed "s/^mperf report: //" err >said &&
	python3 -c "import json; d = json.load(open(\"s.json\")); print(\"\\n\".join(d[\"check\"][\"findings\"])); assert not d[\"check\"][\"passed\"]" >kept &&
	diff said kept
'

# --json without -o writes the document on stderr: the findings are in it, not beside it.
test_expect_success 'stat --check --mperf-json on stderr: the findings only in the document' '
	rc=0 &&
	"$MPERF" stat --mperf-json --check --check-tolerance 0 -e task-clock,task-clock "$CPUSPIN" 0.2 2>s.json || rc=$? &&
	python3 - "$rc" <<-\EOF
	import json, sys
	d = json.load(open("s.json"))
	c = d["check"]
	assert c["tolerance-pct"] == 0, c
	assert c["passed"] == (sys.argv[1] == "0") == (not c["findings"]), (sys.argv[1], c)
	assert all(f.startswith("check: event #") for f in c["findings"]), c
	EOF
'

test_done
