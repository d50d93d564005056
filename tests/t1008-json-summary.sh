#!/bin/bash
# record --json-summary and report --stats --json: every event by index
# (those without a sample too), validated against the schema the man page
# gives (man/mperf-record.1, JSON SUMMARY: the list of fields and types is
# read from there, so the page and the output cannot drift apart).

. "$(dirname "$0")/lib.sh"

# validate FILE: FILE holds one document of the man page's schema, every
# field of the list present with its type, and no other.
validate () {
	python3 - "$MPERF_ROOT/man/mperf-record.1" "$1" <<-\EOF
	import json, re, sys
	page, doc = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
	block = page.split(".SH JSON SUMMARY", 1)[1].split(".EX\n", 1)[1].split(".EE", 1)[0]
	fields = {}
	for line in block.splitlines():
	    line = line.replace("\\-", "-").replace("\\(aq", "'")
	    name, types = line.split()[:2]
	    fields[name] = types.split("|")
	assert len(fields) > 20, fields
	kinds = {"string": str, "integer": int, "boolean": bool, "object": dict, "array": list,
	         "null": type(None)}
	def ok(v, types):
	    if isinstance(v, bool):
	        return "boolean" in types
	    return any(isinstance(v, kinds[t]) for t in types)
	def check(obj, prefix):
	    want = {k[len(prefix):] for k in fields if k.startswith(prefix) and "." not in k[len(prefix):]}
	    assert set(obj) == want, (prefix, sorted(set(obj) ^ want))
	    for k, v in obj.items():
	        assert ok(v, fields[prefix + k]), (prefix + k, v, fields[prefix + k])
	        if isinstance(v, dict):
	            check(v, prefix + k + ".")
	        if isinstance(v, list):
	            for e in v:
	                check(e, prefix + k + ".")
	check(doc, "")
	assert doc["schema"] == "mperf-summary/%d" % doc["version"] and doc["version"] == 1
	assert [e["index"] for e in doc["events"]] == list(range(len(doc["events"])))
	assert doc["samples"] == sum(e["samples"] for e in doc["events"])
	for e in doc["events"]:
	    assert (e["period"] is None) != (e["freq"] is None), e
	EOF
}

# field FILE EXPR: a python expression over the document d.
field () {
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1"
}

test_expect_success 'record --json-summary: every event by index, a zero-sample one too' '
	"$MPERF" record -q -c 250000 -e cpu-clock,major-faults,cpu-clock --json-summary rec.json \
		-o rec.data "$CPUSPIN" 0.3 &&
	validate rec.json &&
	test "$(field rec.json "d[\"source\"]")" = record &&
	test "$(field rec.json "[e[\"name\"] for e in d[\"events\"]]")" = "['\''cpu-clock'\'', '\''major-faults'\'', '\''cpu-clock'\'']" &&
	test "$(field rec.json "d[\"events\"][1][\"samples\"]")" = 0 &&
	test "$(field rec.json "d[\"events\"][0][\"period\"]")" = 250000 &&
	test "$(field rec.json "d[\"elapsed-ns\"] > 0")" = True &&
	test "$(field rec.json "d[\"fallback\"][\"user-only\"]")" = False
'

test_expect_success 'the summary says what the summary lines say' '
	"$MPERF" record -c 250000 -e cpu-clock,cpu-clock --json-summary two.json -o two.data \
		"$CPUSPIN" 0.3 2>err &&
	validate two.json &&
	sed -n "s/^\[ mperf record: event .cpu-clock.: \([0-9]*\) samples, \([0-9]*\) lost \]\$/\1 \2/p" err >expect &&
	field two.json "\"\\n\".join(\"%d %d\" % (e[\"samples\"], e[\"lost\"]) for e in d[\"events\"])" >actual &&
	diff expect actual &&
	w=$(sed -n "s/^\[ mperf record: Woken up \([0-9]*\) times.*/\1/p" err) &&
	test "$(field two.json "d[\"wakeups\"]")" = "$w"
'

test_expect_success 'report --stats --json reads the same from the file' '
	"$MPERF" report --stats --json -i rec.data >rep.json &&
	validate rep.json &&
	test "$(field rep.json "d[\"source\"]")" = report &&
	test "$(field rep.json "d[\"elapsed-ns\"]")" = None &&
	for k in samples lost throttles name period freq; do
		test "$(field rec.json "[e[\"$k\"] for e in d[\"events\"]]")" = \
			"$(field rep.json "[e[\"$k\"] for e in d[\"events\"]]")" || exit 1
	done &&
	test "$(field rep.json "d[\"sample-span-ns\"] > 0")" = True
'

test_expect_success 'lost samples: the record summary and the file agree' '
	"$MPERF" record -q -m 1 -c 20000 -e cpu-clock,cpu-clock,cpu-clock --json-summary loss.json \
		-o loss.data "$CPUSPIN" 0.5 &&
	validate loss.json &&
	"$MPERF" report --stats --json -i loss.data >loss-rep.json &&
	validate loss-rep.json &&
	test "$(field loss.json "[e[\"lost\"] for e in d[\"events\"]]")" = \
		"$(field loss-rep.json "[e[\"lost\"] for e in d[\"events\"]]")" &&
	test "$(field loss.json "d[\"lost-records\"]")" = "$(field loss-rep.json "d[\"lost-records\"]")"
'

test_expect_success NOPMU 'the cycles fallback is in the summary' '
	"$MPERF" record -q -e cycles --json-summary fb.json -o fb.data "$CPUSPIN" 0.1 2>/dev/null &&
	validate fb.json &&
	test "$(field fb.json "d[\"fallback\"][\"cycles-to-cpu-clock\"]")" = True &&
	test "$(field fb.json "d[\"events\"][0][\"name\"]")" = cpu-clock
'

test_expect_success '-a: perf'\''s tracking event is listed, marked' '
	"$MPERF" record -q -a -e cpu-clock --json-summary a.json -o a.data sleep 0.1 &&
	validate a.json &&
	test "$(field a.json "[(e[\"name\"], e[\"tracking\"]) for e in d[\"events\"]]")" = \
		"[('\''cpu-clock'\'', False), ('\''dummy:HG'\'', True)]"
'

test_expect_success '-s: the times enabled and running' '
	"$MPERF" record -q -s -e cpu-clock --json-summary s.json -o s.data "$CPUSPIN" 0.2 &&
	validate s.json &&
	test "$(field s.json "0 < d[\"events\"][0][\"time-running\"] <= d[\"events\"][0][\"time-enabled\"]")" = True
'

test_expect_success 'a summary that cannot be written is 125; - is standard output' '
	test_expect_code 125 "$MPERF" record -q -e cpu-clock --json-summary no/such/dir/x.json -o x.data true 2>err &&
	test_line_count = 1 err &&
	grep -q "no/such/dir/x.json" err &&
	"$MPERF" record -q -e cpu-clock --json-summary - -o y.data true >out &&
	validate out &&
	test_expect_code 129 "$MPERF" record -q --json-summary - -o - true >/dev/null 2>err
'

test_done
