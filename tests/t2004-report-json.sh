#!/usr/bin/env bash
# mperf report --json: valid JSON, the same numbers as the text report.
. "$(dirname "$0")/lib.sh"

have_json_parser () { command -v python3 >/dev/null 2>&1; }

test_expect_success 'a recording with two events' '
	"$MPERF" record -q -e cpu-clock,task-clock -o two.data sh -c "\"$CPUSPIN\" 0.3; ls / >/dev/null"
'

test_expect_success JSON_PARSER '--json is one valid JSON document with the schema name' '
	"$MPERF" report --json -i two.data >out.json &&
	python3 -m json.tool out.json >/dev/null &&
	python3 -c "import json,sys; d=json.load(open(\"out.json\")); sys.exit(d[\"schema\"] != \"mperf-report/2\" or d[\"version\"] != 2)"
'

test_expect_success JSON_PARSER 'per-event totals and rows match the text report' '
	"$MPERF" report -i two.data >out.txt &&
	python3 - <<-\PY
	import json, re
	d = json.load(open("out.json"))
	text = open("out.txt").read()
	counts = re.findall(r"^# Event count \(approx\.\): (\d+)$", text, re.M)
	assert [str(e["event-count"]) for e in d["events"]] == counts, (counts, d["events"])
	names = re.findall(r"^# Samples: .* of event .(.*).$", text, re.M)
	assert [e["name"] for e in d["events"]] == names
	rows = re.findall(r"^ +([0-9.]+)%  (\S+) +(\S+) +\[(.)\] (\S+)$", text, re.M)
	first = d["events"][0]["rows"]
	for r, j in zip(rows, first):
	    assert abs(float(r[0]) - j["overhead"]) < 0.006, (r, j)
	    assert r[1] == j["comm"][:len(r[1])] and r[2] == j["dso"] and r[3] == j["level"], (r, j)
	    assert r[4] == (j["symbol"] or "0x%016x" % int(j["address"], 16)), (r, j)
	for e in d["events"]:
	    assert abs(sum(row["period"] for row in e["rows"]) - e["event-count"]) == 0
	    assert sum(row["samples"] for row in e["rows"]) == e["samples"]
	PY
'

test_expect_success JSON_PARSER '--json obeys --sort and --percent-limit' '
	"$MPERF" report --json --sort dso --percent-limit 5 -i two.data >dso.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("dso.json"))
	assert d["sort"] == ["dso"]
	for e in d["events"]:
	    assert e["rows"], e
	    for r in e["rows"]:
	        assert set(r) == {"overhead", "period", "samples", "dso"}, r
	        assert r["overhead"] >= 5
	PY
'

test_expect_success 'an unknown sort key is a usage error' '
	test_expect_code 129 "$MPERF" report --sort nope -i two.data 2>err &&
	grep -q "unknown sort key .nope." err
'

test_done
