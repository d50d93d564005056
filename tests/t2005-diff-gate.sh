#!/usr/bin/env bash
# mperf diff --check (the gate), several runs a side, and the CI outputs
# (markdown, JUnit XML, the differential flame graph, folded stacks with
# both counts), on files built sample by sample (synth-samples.py over the
# gate's build of shares): every verdict is known in advance.
#   base: f 2800, g 1000 samples (one run: 3800); three runs of 950, 960, 940
#   hot:  f 3360, g 1000 (f does 20% more work: its share 73.68% -> 77.06%)
#   slow: f 805, g 288 (everything 15% more: 1093, 1102, 1084)
#   same: base's build again (945, 955, 962)
#   smallhot: hot with a quarter of the samples (1090), against base1 (950)
#   wild: runs of 950 whose shares of f spread far wider than sampling
#   spreads them (60%, 95%, 76%), pooled 77%; pooledwild: them in one file
# (leaks checked in the sanitizer pass too: see tests/lib.sh)
MPERF_TEST_LEAKS=1
. "$(dirname "$0")/lib.sh"

# python3-markdown is Debian's: its python3 may not be the first in PATH
have_markdown () {
	for MD_PYTHON in python3 /usr/bin/python3; do
		$MD_PYTHON -c "import markdown" >/dev/null 2>&1 && return 0
	done
	return 1
}

test -x "$SHARES_BASE" || {
	echo "1..0 # SKIP $SHARES_BASE not built (run make)"
	exit 0
}

BASE=0x555555554000
# synth OUT F G: a recording of F samples in f and G in g
synth () {
	python3 "$MPERF_ROOT/tests/synth-samples.py" "$1" "$SHARES_BASE" $BASE \
		$(yes "$F_OFF" | head -n "$2") $(yes "$G_OFF" | head -n "$3")
}

test_expect_success PYTHON,SETUP 'the files' '
	F_OFF=$(nm "$SHARES_BASE" | awk "\$3 == \"f\" { print \"0x\" \$1 }") &&
	G_OFF=$(nm "$SHARES_BASE" | awk "\$3 == \"g\" { print \"0x\" \$1 }") &&
	test -n "$F_OFF" && test -n "$G_OFF" &&
	synth base.data 2800 1000 && synth hot.data 3360 1000 &&
	synth smallhot.data 840 250 &&
	synth wild1.data 570 380 && synth wild2.data 902 48 && synth wild3.data 722 228 &&
	synth pooledwild.data 2194 656 &&
	synth base1.data 700 250 && synth base2.data 708 252 && synth base3.data 692 248 &&
	synth slow1.data 805 288 && synth slow2.data 812 290 && synth slow3.data 798 286 &&
	synth same1.data 697 248 && synth same2.data 705 250 && synth same3.data 710 252 &&
	synth burst.data 1050 375 && synth burst2.data 1060 380 &&
	"$MPERF" diff base.data hot.data >text &&
	grep "^ *73.68%  *+3.38%  *shares  *\[\.\] f$" text
'

test_expect_success PYTHON 'one run a side: the text as without --check; exit 3, f named' '
	test_expect_code 3 "$MPERF" diff --check base.data hot.data >checked 2>err &&
	cmp text checked &&
	cat err &&
	grep -x "mperf diff: check failed: cpu-clock:HG: shares \[\.\] f: 73.68% -> 77.06% (+3.38 points) breaks share:2 (p 0.000399)" err &&
	grep -x "mperf diff: check failed: cpu-clock:HG: total period 3800 -> 4360 (+14.74%) breaks total:+5" err &&
	test $(wc -l <err) = 2 &&
	test_expect_code 99 "$MPERF" diff --check --check-status 99 base.data hot.data >/dev/null 2>err &&
	test $(wc -l <err) = 2 &&
	test_expect_code 129 "$MPERF" diff --check --check-status 0 base.data hot.data
'

test_expect_success PYTHON 'the rules as given: points, percent of the share, each rule alone' '
	"$MPERF" diff --check=share:4 base.data hot.data >/dev/null 2>err &&
	test_must_be_empty err &&
	test_expect_code 3 "$MPERF" diff --check=share:4% base.data hot.data >/dev/null 2>err &&
	grep "f: .* breaks share:4%" err &&
	"$MPERF" diff --check=share:5%,new:1 base.data hot.data >/dev/null &&
	"$MPERF" diff --check=total:15 base.data hot.data >/dev/null &&
	test_expect_code 3 "$MPERF" diff --check=total:14 base.data hot.data >/dev/null 2>err &&
	grep "total period 3800 -> 4360 .* breaks total:14" err &&
	"$MPERF" diff --check=total:+14.8 base.data hot.data >/dev/null &&
	test_expect_code 3 "$MPERF" diff --check=total:5 hot.data base.data >/dev/null 2>err &&
	grep "total period 4360 -> 3800 (-12.84%) breaks total:5" err &&
	"$MPERF" diff --check=total:+5 hot.data base.data >/dev/null
'

test_expect_success PYTHON 'the share rule weighs sampling noise: the same move over fewer samples passes' '
	test_expect_code 3 "$MPERF" diff --check base1.data smallhot.data >/dev/null 2>err &&
	grep -x "mperf diff: check failed: cpu-clock:HG: total period 950 -> 1090 (+14.74%) breaks total:+5" err &&
	test $(wc -l <err) = 1 &&
	"$MPERF" diff --json --check=share:2 base1.data smallhot.data >small.json &&
	python3 - <<-\PY
	import json, math
	d = json.load(open("small.json"))
	f = [e for e in d["events"][0]["entries"] if e["symbol"] == "f"][0]
	# the two-proportion z of 700/950 -> 840/1090, one-sided, times the 2 entries above 2%
	p = 1540 / 2040
	z = (840 / 1090 - 700 / 950) / math.sqrt(p * (1 - p) * (1 / 950 + 1 / 1090))
	assert abs(f["p"] - math.erfc(z / math.sqrt(2))) < 1e-4 and f["check"] == [], f
	PY
'

test_expect_success PYTHON 'three runs a side: runs that disagree widen the share test' '
	"$MPERF" diff --check=share:2 base1.data base2.data base3.data -- wild1.data wild2.data wild3.data 2>err &&
	test_must_be_empty err &&
	test_expect_code 3 "$MPERF" diff --check=share:2 base.data pooledwild.data 2>err &&
	grep "f: 73.68% -> 76.98% (+3.30 points) breaks share:2" err
'

test_expect_success 'bad rules: one line, usage status' '
	for r in share total:x "share:1,share:2" size:3 "share:-1" "total:5%" "new:1," ""; do
		test_expect_code 129 "$MPERF" diff --check="$r" a b 2>err &&
		head -n 1 err | grep "^mperf diff: invalid --check rules " &&
		test $(wc -l <err) = 2 || exit 1
	done
'

test_expect_success PYTHON 'one file a side after --: the same output as without' '
	"$MPERF" diff base.data -- hot.data >sep &&
	cmp text sep &&
	test_expect_code 129 "$MPERF" diff -- hot.data 2>err &&
	grep "no baseline file before" err &&
	test_expect_code 129 "$MPERF" diff base.data -- 2>err &&
	grep "no new file after" err &&
	test_expect_code 129 "$MPERF" diff - -- - 2>err &&
	grep "can be given once" err
'

test_expect_success PYTHON 'three runs a side: a uniform slowdown fails on the total alone' '
	test_expect_code 3 "$MPERF" diff --check base1.data base2.data base3.data -- \
		slow1.data slow2.data slow3.data >pooled 2>err &&
	cat err &&
	grep -x "mperf diff: check failed: cpu-clock:HG: total period 950 -> 1093 (+15.05%) breaks total:+5" err &&
	test $(wc -l <err) = 1 &&
	grep "^ *73.68%  *[-+]0.0[0-9]%  *shares  *\[\.\] f$" pooled
'

test_expect_success PYTHON 'three runs a side: a run caught in a burst of load moves no total' '
	test_expect_code 3 "$MPERF" diff --check base1.data burst.data base3.data -- \
		slow1.data slow2.data slow3.data >/dev/null 2>err &&
	grep -x "mperf diff: check failed: cpu-clock:HG: total period 950 -> 1093 (+15.05%) breaks total:+5" err &&
	"$MPERF" diff --check base1.data base2.data base3.data -- same1.data burst.data same3.data 2>err &&
	test_must_be_empty err
'

test_expect_success PYTHON 'three runs a side, in turn: a burst that begins between two runs moves one pair only' '
	"$MPERF" diff --check base1.data base2.data burst.data -- same1.data burst.data burst2.data 2>err &&
	test_must_be_empty err &&
	"$MPERF" diff --json --check base1.data base2.data burst.data -- same1.data burst.data burst2.data >burst.json &&
	python3 - <<-\PY
	import json
	t = json.load(open("burst.json"))["events"][0]["total"]
	# medians 960 -> 1425 (+48%); pairs -0.53%, +48.4%, +1.05%: the median pair +1.05%
	assert abs(t["change"] - 48.4375) < 1e-3 and abs(t["paired-change"] - 1.0526) < 1e-3, t
	assert t["check"] == [], t
	PY
'

test_expect_success PYTHON 'three runs a side: the same build passes; a change one run of a side shows passes' '
	"$MPERF" diff --check=total:0.6 base1.data base2.data base3.data -- same1.data same2.data same3.data 2>err &&
	test_must_be_empty err &&
	"$MPERF" diff --check=total:+20 base1.data base2.data base3.data -- slow1.data slow2.data slow3.data &&
	"$MPERF" diff --check=total:5 base1.data base2.data slow3.data -- slow1.data base3.data same2.data
'

test_expect_success PYTHON 'JSON: each entry and total says which rules it broke; every run counted' '
	test_expect_code 3 "$MPERF" diff --json --check base.data hot.data >gate.json &&
	test_expect_code 3 "$MPERF" diff --json --check base1.data base2.data base3.data -- \
		slow1.data slow2.data slow3.data >runs.json &&
	python3 - <<-\PY
	import json
	d = json.load(open("gate.json"))
	assert d["check"] == {"rules": "share:2,new:1,total:+5", "alpha": 0.05, "passed": False, "broken": 2}, d["check"]
	ev = d["events"][0]
	assert ev["total"]["check"] == ["total"] and ev["total"]["baseline"] == 3800 and ev["total"]["new"] == 4360, ev["total"]
	f = [e for e in ev["entries"] if e["symbol"] == "f"][0]
	g = [e for e in ev["entries"] if e["symbol"] == "g"][0]
	assert f["check"] == ["share"] and g["check"] == [], (f, g)
	assert abs(f["delta"] - 3.3797) < 1e-3, f
	r = json.load(open("runs.json"))
	assert r["baseline-runs"] == ["base1.data", "base2.data", "base3.data"], r
	ev = r["events"][0]
	assert [x["samples"] for x in ev["baseline"]["runs"]] == [950, 960, 940], ev["baseline"]
	assert [x["samples"] for x in ev["new"]["runs"]] == [1093, 1102, 1084], ev["new"]
	assert ev["baseline"]["samples"] == 2850 and "p" not in ev["total"], ev
	assert ev["total"]["baseline"] == 950 and ev["total"]["new"] == 1093, ev["total"]
	assert abs(ev["total"]["paired-change"] - 15.0526) < 1e-3, ev["total"]
	assert json.load(open("gate.json"))["events"][0]["total"]["paired-change"] is None
	assert r["check"]["broken"] == 1
	PY
'

test_expect_success PYTHON 'folded: both counts per stack, as difffolded.pl writes them' '
	"$MPERF" diff --format=folded base.data hot.data >folded &&
	cat folded &&
	grep -x "# event: cpu-clock:HG" folded &&
	grep -x "synth;f 2800 3360" folded &&
	grep -x "synth;g 1000 1000" folded &&
	test $(wc -l <folded) = 3
'

test_expect_success PYTHON 'svg: the new shapes, f red and wider, its change the diff delta' '
	"$MPERF" diff --format=svg base.data hot.data >diff.svg &&
	test_expect_code 3 "$MPERF" diff --check --format=svg base.data hot.data >checked.svg 2>err &&
	cmp diff.svg checked.svg &&
	grep "f: 73.68% -> 77.06%" err &&
	python3 - <<-\PY
	import re, xml.etree.ElementTree as ET
	ns = {"s": "http://www.w3.org/2000/svg"}
	root = ET.parse("diff.svg").getroot()
	fr = {}
	for g in root.iter("{http://www.w3.org/2000/svg}g"):
	    if g.get("class") != "f":
	        continue
	    t = g.find("s:title", ns).text
	    r = g.find("s:rect", ns)
	    fr[t.split("\n")[0]] = (t, float(r.get("width")), r.get("fill"))
	t, fw, fill = fr["f"]
	assert "3360 samples, 77.06%, +3.38 points since the baseline (73.68%)" in t, t
	assert re.match(r"rgb\(255,\d+,\d+\)$", fill) and fill != "rgb(255,255,255)", fill
	t, gw, gfill = fr["g"]
	assert "-3.38 points" in t and re.match(r"rgb\(\d+,\d+,255\)$", gfill), (t, gfill)
	# as wide as its share of the new side, wider than g (3360 and 1000 of 4360)
	assert abs(fw / (fw + gw) - 3360 / 4360) < 0.002, (fw, gw)
	assert "Differential flame graph: base.data" in open("diff.svg").read()
	PY
'

test_expect_success CHROMIUM,PYTHON 'svg: headless Chromium draws it, red and blue' '
	"$MPERF" diff --format=svg base.data hot.data >diff.svg &&
	for try in 1 2 3 4 5; do
		chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=$((try * 3000)) \
			--screenshot="$PWD/diff.png" --window-size=1200,800 "file://$PWD/diff.svg" >/dev/null 2>&1
		set -- $(python3 "$MPERF_ROOT/tests/pngstats.py" diff.png 2>/dev/null)
		echo "# try $try: $*"
		test "${1:-0}" -ge 10 && test "${4:-0}" -gt 1000 && test "${5:-0}" -gt 100 && break
	done &&
	test "${4:-0}" -gt "${5:-0}"
'

test_expect_success MARKDOWN 'markdown: a table with the verdict, the total and the top entries' '
	test_expect_code 3 "$MPERF" diff --format=markdown --check base.data hot.data >summary.md &&
	"$MPERF" diff --format=markdown base.data hot.data >plain.md &&
	head -n 1 summary.md | grep -x "### mperf diff: FAILED, 2 changes beyond the rules" &&
	head -n 1 plain.md | grep -x "### mperf diff" &&
	$MD_PYTHON - <<-\PY
	import markdown, xml.etree.ElementTree as ET
	html = markdown.markdown(open("summary.md").read(), extensions=["tables"])
	root = ET.fromstring("<div>" + html + "</div>")
	assert root.find("h3").text == "mperf diff: FAILED, 2 changes beyond the rules"
	rows = [[(c.text or "") + "".join((x.text or "") + (x.tail or "") for x in c) for c in tr]
	        for tr in root.iter("tr")]
	assert rows[0] == ["Event", "Entry", "Baseline", "New", "Change", "Check"], rows[0]
	assert rows[1] == ["cpu-clock:HG", "total period (samples)", "3800 (3800)", "4360 (4360)", "+14.74%", "total"], rows[1]
	assert rows[2] == ["cpu-clock:HG", "shares [.] f", "73.68%", "77.06%", "+3.38", "share"], rows[2]
	assert rows[3] == ["cpu-clock:HG", "shares [.] g", "26.32%", "22.94%", "-3.38", "ok"], rows[3]
	assert len(rows) == 4
	PY
'

test_expect_success PYTHON 'JUnit XML: a test case per rule, the failures name the entries' '
	test_expect_code 3 "$MPERF" diff --format=junit base.data hot.data >junit.xml &&
	python3 - <<-\PY
	import xml.etree.ElementTree as ET
	root = ET.parse("junit.xml").getroot()
	assert root.tag == "testsuites" and root.get("tests") == "3" and root.get("failures") == "2", root.attrib
	cases = {c.get("name"): c for c in root.iter("testcase")}
	assert set(cases) == {"cpu-clock:HG: share:2", "cpu-clock:HG: new:1", "cpu-clock:HG: total:+5"}, cases
	assert "shares [.] f: 73.68% -> 77.06%" in cases["cpu-clock:HG: share:2"].find("failure").text
	assert cases["cpu-clock:HG: new:1"].find("failure") is None
	PY
'

test_expect_success 'conflicts: --format with --json or the text options' '
	test_expect_code 129 "$MPERF" diff --format=svg --json a b 2>err &&
	grep "^mperf diff: --format cannot be used with --json" err &&
	test_expect_code 129 "$MPERF" diff --format=pdf a b 2>err &&
	grep "unknown --format .pdf." err
'

test_done
