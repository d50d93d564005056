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
	kinds = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "object": dict,
	         "array": list, "null": type(None)}
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
	                if isinstance(e, dict):
	                    check(e, prefix + k + ".")
	                else:
	                    assert isinstance(e, str), (prefix + k, e)
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

test_expect_success 'the summary has mperf'\''s version, the command line and the workload'\''s status' '
	test_expect_code 3 "$MPERF" record -q -e cpu-clock --json-summary w.json -o w.data -- sh -c "exit 3" &&
	validate w.json &&
	test "$(field w.json "d[\"workload-status\"]")" = 3 &&
	test "$(field w.json "d[\"check\"]")" = None &&
	test "$(field w.json "d[\"command-line\"][1:4]")" = "['\''record'\'', '\''-q'\'', '\''-e'\'']" &&
	test "$(field w.json "d[\"mperf-version\"]")" = "$("$MPERF" --version | sed "s/^mperf version //")" &&
	"$MPERF" record -q -e cpu-clock --json-summary k.json -o k.data -- sh -c "kill -TERM \$\$" || test $? = 143 &&
	test "$(field k.json "d[\"workload-status\"]")" = 143 &&
	"$MPERF" record -q -a -e cpu-clock --json-summary n.json -o n.data -- sleep 0.1 &&
	test "$(field n.json "d[\"workload-status\"]")" = 0
'

test_expect_success '--check: its verdict and findings are in the summary' '
	"$MPERF" record -q --check --json-summary c.json -e cpu-clock -o c.data "$CPUSPIN" 0.1 &&
	validate c.json &&
	test "$(field c.json "(d[\"check\"][\"passed\"], d[\"check\"][\"findings\"], d[\"check\"][\"tolerance-pct\"])")" = \
		"(True, [], 5)" &&
	rc=0 &&
	"$MPERF" record -q --check --json-summary l.json -m 1 -c 20000 -e cpu-clock,cpu-clock,cpu-clock \
		-o l.data "$CPUSPIN" 0.5 2>err || rc=$? &&
	validate l.json &&
	grep "^mperf record: check: " err | sed "s/^mperf record: //" >said &&
	field l.json "\"\\n\".join(d[\"check\"][\"findings\"])" | sed "/^\$/d" >kept &&
	diff said kept &&
	if test -s said; then test $rc = 3; else test $rc = 0; fi
'

# Before the workload runs: a summary that cannot be written costs nothing.
test_expect_success NOBODY 'an unwritable summary fails before the workload runs' '
	mkdir ro && chmod 555 ro && chmod 777 . &&
	test_expect_code 125 as_nobody "$MPERF" record -q -e cpu-clock -o r.data --json-summary ro/j.json \
		-- sh -c "echo ran >ran" 2>err &&
	test_line_count = 1 err &&
	grep -q "cannot create .ro/j.json.: Permission denied" err &&
	! test -e ran &&
	! test -e r.data &&
	test_expect_code 125 "$MPERF" record -q -e cpu-clock -o r.data --json-summary . -- sh -c "echo ran >ran" 2>err &&
	! test -e ran
'

test_expect_success 'report --stats --json of an unfinished and of a cut recording say so' '
	"$MPERF" record -q -e cpu-clock -o fin.data "$CPUSPIN" 0.3 &&
	"$MPERF" report --stats --json -i fin.data >fin.json &&
	test "$(field fin.json "(d[\"recording-finished\"], d[\"damaged\"])")" = "(True, False)" &&
	python3 -c "import sys, struct; b = bytearray(open(sys.argv[1], \"rb\").read()); struct.pack_into(\"<Q\", b, 48, 0); open(sys.argv[2], \"wb\").write(b)" fin.data unfin.data &&
	"$MPERF" report --stats --json -i unfin.data >unfin.json 2>/dev/null &&
	validate unfin.json &&
	test "$(field unfin.json "(d[\"recording-finished\"], d[\"damaged\"])")" = "(False, False)" &&
	python3 -c "import sys, struct; b = open(sys.argv[1], \"rb\").read(); o, n = struct.unpack_from(\"<QQ\", b, 40); open(sys.argv[2], \"wb\").write(b[:o + n // 2 + 3])" fin.data cut.data &&
	test_expect_code 1 "$MPERF" report --stats --json -i cut.data >cut.json 2>err &&
	validate cut.json &&
	test "$(field cut.json "(d[\"recording-finished\"], d[\"damaged\"])")" = "(True, True)" &&
	test "$(field cut.json "0 < d[\"samples\"] < $(field fin.json "d[\"samples\"]")")" = True &&
	test_line_count = 1 err
'

# Every JSON document of mperf: the same head, kebab-case keys.
test_expect_success 'every JSON document: schema, version, mperf-version, command-line; kebab-case' '
	"$MPERF" record -q -g -e cpu-clock -o g.data "$CPUSPIN" 0.2 &&
	"$MPERF" report --json -i g.data >d-report.json &&
	"$MPERF" diff --json g.data fin.data >d-diff.json &&
	"$MPERF" stat --mperf-json -o d-stat.json -e task-clock true &&
	"$MPERF" doctor --json >d-doctor.json &&
	cp rec.json d-summary.json &&
	for f in d-*.json; do
		python3 - "$f" <<-\EOF || exit 1
		import json, re, sys
		d = json.load(open(sys.argv[1]))
		name = sys.argv[1][2:-5]
		assert d["schema"] == "mperf-%s/%d" % (name, d["version"]), d["schema"]
		assert list(d)[:4] == ["schema", "version", "mperf-version", "command-line"], list(d)[:4]
		assert d["command-line"][1] == ("record" if name == "summary" else name), d["command-line"]
		def keys(v):
		    if isinstance(v, dict):
		        for k, x in v.items():
		            yield k
		            yield from keys(x)
		    elif isinstance(v, list):
		        for x in v:
		            yield from keys(x)
		bad = [k for k in keys(d) if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", k)]
		assert not bad, (name, bad)
		EOF
	done
'

test_done
