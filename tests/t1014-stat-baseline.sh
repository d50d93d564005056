#!/bin/bash
# mperf stat --baseline: each event against an earlier stat --mperf-json -r N's
# runs (its "counter-values"), Hodges-Lehmann's shift, the change of the
# mean, its interval, the two-sided Mann-Whitney U p-value, and --check's
# verdict.  The baselines
# are written by hand, so far from any real count (or with so few runs)
# that the verdict cannot depend on how fast this machine runs `true`;
# one live test checks only the shape.

. "$(dirname "$0")/lib.sh"

# base FILE N VALUE [EVENT]: a mperf-stat/1 document of N runs of EVENT (task-clock) all VALUE.
base () {
	python3 -c '
import json, sys
f, n, v = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
ev = sys.argv[4] if len(sys.argv) > 4 else "task-clock"
json.dump({"schema": "mperf-stat/1", "version": 1, "runs": n, "events": [
    {"index": 0, "event": ev, "counter-value": v, "unit": "msec", "counter-values": [v] * n}]}, open(f, "w"))
' "$@"
}

test_expect_success 'setup: baselines far above any run of true, of 5 and of 2 runs' '
	base huge5.json 5 1000000 &&
	base huge2.json 2 1000000 &&
	base other.json 5 1000000 page-faults
'

test_expect_success 'a change beyond the tolerance at p < 0.05 fails --check with the check status' '
	test_expect_code 90 "$MPERF" stat -r 5 -e task-clock --baseline huge5.json --check --check-status 90 true 2>err &&
	grep -q "^mperf stat: check: event .task-clock. shifted by -100.00% (mean -100.00%, 95% interval .*) from .huge5.json.: beyond 5%, p=0.0079 < 0.05$" err &&
	grep -q "^ Shift (Hodges-Lehmann) and change of the mean against .huge5.json. (95% interval; p: Mann-Whitney U, two-sided):$" err &&
	grep -q "^ *-100.00%  *-100.00%  \[.*\]  p=0.0079 *task-clock (5 vs 5 runs)  # changed: shift beyond 5% at p < 0.05$" err
'

test_expect_success 'without --check the change is said, and the status is the command'\''s' '
	"$MPERF" stat -r 5 -e task-clock --baseline huge5.json true 2>err &&
	grep -q "# changed: shift beyond 5% at p < 0.05$" err &&
	! grep -q "check:" err
'

test_expect_success 'beyond the tolerance but not significant: 2 runs a side cannot reach p < 0.05' '
	"$MPERF" stat -r 2 -e task-clock --baseline huge2.json --check true 2>err &&
	grep -q "^ *-100.00%  *-100.00%  \[.*\]  p=0.33 *task-clock (2 vs 2 runs)$" err
'

test_expect_success 'significant but within the tolerance passes; so does p above --alpha' '
	"$MPERF" stat -r 5 -e task-clock --baseline huge5.json --check --check-tolerance 100 true 2>err &&
	grep -q "task-clock (5 vs 5 runs)$" err &&
	"$MPERF" stat -r 5 -e task-clock --baseline huge5.json --check --alpha 0.005 true 2>err &&
	grep -q "p=0.0079 *task-clock (5 vs 5 runs)$" err
'

test_expect_success 'an event the baseline did not count is said, and not checked' '
	"$MPERF" stat -r 5 -e task-clock --baseline other.json --check true 2>err &&
	grep -q "<not in the baseline>  task-clock$" err
'

test_expect_success 'the JSON document: the comparison, exact p, every run of both sides'\'' counts' '
	test_expect_code 3 "$MPERF" stat --mperf-json -r 5 -e task-clock,page-faults --baseline huge5.json --check -o s.json true &&
	python3 -c "
import json
d = json.load(open(\"s.json\"))
b = d[\"baseline\"]
assert b[\"test\"] == \"mann-whitney-u-two-sided\" and b[\"alpha\"] == 0.05 and b[\"flagged\"] == 1, b
e = b[\"events\"][0]
assert e[\"matched\"] and e[\"flagged\"] and e[\"baseline-runs\"] == 5 and e[\"baseline-mean\"] == 1000000, e
assert abs(e[\"p-value\"] - 2 / 252) < 1e-6 and e[\"interval-low-pct\"] <= e[\"change-pct\"] <= e[\"interval-high-pct\"], e
assert b[\"events\"][1] == {\"index\": 1, \"event\": \"page-faults\", \"matched\": False}, b
assert -100 <= e[\"shift-pct\"] < -99.99 and e[\"baseline-values\"] == [1000000] * 5, e
assert len(d[\"events\"][0][\"counter-values\"]) == 5 and len(d[\"elapsed-ns-values\"]) == 5, d
assert not d[\"check\"][\"passed\"]
"
'

test_expect_success 'live: a stat --mperf-json -r 3 document is a baseline; the shape only' '
	"$MPERF" stat --mperf-json -r 3 -e task-clock,page-faults -o live.json "$CPUSPIN" 0.05 &&
	"$MPERF" stat --mperf-json -r 3 -e task-clock,page-faults --baseline live.json -o cmp.json "$CPUSPIN" 0.05 &&
	python3 -c "
import json
d = json.load(open(\"cmp.json\"))
for e in d[\"baseline\"][\"events\"]:
    assert e[\"matched\"] and e[\"baseline-runs\"] == 3 and 0 <= e[\"p-value\"] <= 1, e
    assert set(e) >= {\"shift-pct\", \"baseline-values\", \"change-pct\", \"interval-low-pct\", \"interval-high-pct\", \"mean\", \"baseline-mean\", \"flagged\"}, e
"
'

test_expect_success 'a baseline that cannot be used fails (125) before the command runs' '
	echo "{not json" >bad.json &&
	echo "{\"schema\": \"mperf-diff/1\", \"version\": 1}" >diff.json &&
	echo "{\"schema\": \"mperf-stat/2\", \"version\": 2, \"events\": []}" >new.json &&
	echo "{\"schema\": \"mperf-stat/1\", \"version\": 1, \"events\": [{\"event\": \"task-clock\", \"counter-value\": 1}]}" >old.json &&
	for f in missing.json bad.json diff.json new.json old.json; do
		test_expect_code 125 "$MPERF" stat --baseline $f -- touch ran 2>err &&
		test_line_count = 1 err && ! test -e ran || return 1
	done &&
	test_expect_code 125 "$MPERF" stat --baseline old.json true 2>err &&
	grep -q "^mperf stat: baseline .old.json.: event .task-clock. has no per-run values" err &&
	test_expect_code 125 "$MPERF" stat --baseline bad.json true 2>err &&
	grep -q "^mperf stat: baseline .bad.json.: not JSON (at byte 1)$" err
'

# ABBA: each pair's order alternates (a VM's scheduler put every run of
# one side on one CPU when the order did not).
test_expect_success '--baseline-cmd: runs alternate in ABBA pairs, baseline first; warm-ups before, uncounted' '
	cat >log.sh <<-\EOF &&
	#!/bin/sh
	echo "$1" >>runs.log
	EOF
	chmod +x log.sh &&
	"$MPERF" stat --mperf-json -r 3 --warmup 2 -e task-clock --baseline-cmd "./log.sh old" -o alt.json -- ./log.sh new &&
	test "$(tr "\n" " " <runs.log)" = "old new old new old new new old old new " &&
	python3 -c "
import json
d = json.load(open(\"alt.json\"))
b = d[\"baseline\"]
assert b[\"file\"] == \"./log.sh old\" and b[\"events\"][0][\"baseline-runs\"] == 3 and d[\"runs\"] == 3, b
assert len(d[\"events\"][0][\"counter-values\"]) == 3 and len(b[\"events\"][0][\"baseline-values\"]) == 3, b
"
'

test_expect_success '--baseline-cmd: a failing baseline run ends stat with its status' '
	printf "#!/bin/sh\nexit 7\n" >fail7.sh &&
	chmod +x fail7.sh &&
	test_expect_code 7 "$MPERF" stat -r 3 -e task-clock --baseline-cmd ./fail7.sh true 2>err &&
	grep -q "^mperf stat: --baseline-cmd.s run 1 of 3: the command exited with status 7: stopped$" err &&
	! grep -q "Performance counter stats" err
'

test_expect_success 'usage: --alpha out of range, --baseline with -x' '
	test_expect_code 129 "$MPERF" stat --alpha 0 --baseline huge5.json true 2>err &&
	grep -q "invalid --alpha .0." err &&
	test_expect_code 129 "$MPERF" stat --alpha 1.5 true 2>/dev/null &&
	test_expect_code 129 "$MPERF" stat -x, --baseline huge5.json true 2>err &&
	grep -q "no -x form" err &&
	test_expect_code 129 "$MPERF" stat --baseline huge5.json --baseline-cmd true true 2>/dev/null &&
	test_expect_code 129 "$MPERF" stat --baseline-cmd " " true 2>/dev/null &&
	test_expect_code 129 "$MPERF" stat --warmup -1 true 2>/dev/null &&
	test_expect_code 129 "$MPERF" stat --warmup 2 -a 2>/dev/null
'

test_done
