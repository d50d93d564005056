#!/usr/bin/env bash
# mperf report --format: folded stacks, flame graphs and pprof profiles of
# -g files of the callpaths workload (main -> spin -> a -> b -> leaf, a
# helper shared by a and c, recursion), recorded by perf and by mperf (two
# events), and of a --call-graph dwarf one: the expected paths, counts
# that add up to each event's samples, leaves that agree with report's
# Self view, and the chains perf report prints itself.
. "$(dirname "$0")/lib.sh"


test_expect_success SETUP 'mperf records callpaths with -g, two events; and with --call-graph dwarf' '
	"$MPERF" record -q -e cpu-clock,task-clock -g -o mperf.data "$CALLPATHS" 0.6 &&
	"$MPERF" record -q -e cpu-clock --call-graph dwarf -o dwarf.data "$CALLPATHS_NOFP" 0.3
'

test_expect_success PERF 'perf records callpaths with -g' '
	"$PERF" record --no-bpf-event -q -e cpu-clock -g -o perf.data "$CALLPATHS" 0.6 2>err &&
	test -s perf.data
'

# files: the recordings made above
files () {
	local f
	for f in mperf.data perf.data dwarf.data; do
		test -s $f && echo $f
	done
	return 0
}

test_expect_success SETUP 'folded: one block per event, the paths of callpaths in it' '
	for f in $(files); do
		"$MPERF" report -i $f --format=folded >$f.folded 2>err &&
		test_must_be_empty err &&
		grep "^# event: cpu-clock$" $f.folded &&
		for p in "spin;a;b;leaf" "spin;a;helper;leaf" "spin;c;helper;leaf" "spin;rec;rec;rec;rec;leaf"; do
			grep -q "^callpaths;.*main;$p [0-9]*$" $f.folded ||
			grep -q "^callpaths-nofp;.*main;$p [0-9]*$" $f.folded || { fail "$f: no $p"; exit 1; }
		done
	done &&
	test "$(grep -c "^# event: " mperf.data.folded)" = 2 &&
	grep "^# event: task-clock$" mperf.data.folded
'

test_expect_success 'folded: sorted, one line per path, the same output twice' '
	for f in $(files); do
		grep -v "^#" $f.folded | sed "s/ [0-9]*$//" >paths &&
		awk "/^# event:/ { n++ } !/^#/ { print n \" \" \$0 }" $f.folded | sed "s/ [0-9]*$//" >keyed &&
		LC_ALL=C sort -c keyed &&
		test -z "$(sort keyed | uniq -d)" &&
		"$MPERF" report -i $f --format=folded >again &&
		cmp $f.folded again || exit 1
	done
'

test_expect_success PYTHON 'folded: the counts add up to each event samples, the leaves to report --no-children --sort sym' '
	for f in $(files); do
		"$MPERF" report -i $f --stats --json >$f.stats &&
		"$MPERF" report -i $f --no-children --sort sym --json >$f.sym &&
		python3 - $f <<-\PY || exit 1
		import json, sys
		f = sys.argv[1]
		stats = {e["name"]: e["samples"] for e in json.load(open(f + ".stats"))["events"]}
		syms = {e["name"]: e for e in json.load(open(f + ".sym"))["events"]}
		blocks = {}
		ev = None
		for line in open(f + ".folded"):
		    line = line.rstrip("\n")
		    if line.startswith("# event: "):
		        ev = line[9:]
		        blocks[ev] = []
		        continue
		    stack, n = line.rsplit(" ", 1)
		    blocks[ev].append((stack.split(";"), int(n)))
		assert set(blocks) == {n for n, s in stats.items() if s}, (blocks.keys(), stats)
		for ev, lines in blocks.items():
		    total = sum(n for _, n in lines)
		    assert total == stats[ev] == syms[ev]["samples"], (f, ev, total, stats[ev])
		    leaves = {}
		    for frames, n in lines:
		        leaves[frames[-1]] = leaves.get(frames[-1], 0) + n
		    want = {}
		    for r in syms[ev]["rows"]:
		        name = r["symbol"] if r["symbol"] is not None else "[unknown]"
		        want[name] = want.get(name, 0) + r["samples"]
		    # A dwarf leaf is the innermost of its inline frames, as the chains of report name it,
		    # where Self has the symbol: the leaves are compared for fp chains.
		    if not f.startswith("dwarf"):
		        assert leaves == want, (f, ev, sorted(set(leaves.items()) ^ set(want.items())))
		    # the hot function of callpaths is its leaf
		    assert max(leaves, key=leaves.get) == "leaf", (f, ev, leaves)
		PY
		:
	done
'


# svg_check FILE.svg EVENT-SAMPLES...: parse the flame graph: in each
# event's group, every frame as wide as its samples (one scale), children
# within their parent and no wider together, the root the event's samples;
# prints the frame with the most self width of the first event.
cat >svgcheck.py <<\PY
import sys, xml.dom.minidom as md
doc = md.parse(sys.argv[1])
want = [int(n) for n in sys.argv[2:]]
groups = [g for g in doc.getElementsByTagName("g") if g.getAttribute("class") == "event"]
assert len(groups) == len(want), (len(groups), want)
hot = None
for g, total in zip(groups, want):
    assert int(g.getAttribute("data-total")) == total, (g.getAttribute("data-total"), total)
    fr = []
    for f in g.getElementsByTagName("g"):
        if f.getAttribute("class") != "f":
            continue
        r = f.getElementsByTagName("rect")[0]
        name = f.getElementsByTagName("title")[0].firstChild.data.split("\n")[0]
        fr.append(dict(name=name, x=int(f.getAttribute("data-x")), n=int(f.getAttribute("data-n")),
                       w=float(r.getAttribute("width")), px=float(r.getAttribute("x")), y=int(r.getAttribute("y"))))
    root = max(fr, key=lambda f: f["y"])
    assert root["name"] == "all" and root["n"] == total and root["x"] == 0, root
    scale = root["w"] / root["n"]
    for f in fr:
        assert abs(f["w"] - f["n"] * scale) <= 0.006, (f, scale)
        assert abs(f["px"] - (root["px"] + f["x"] * scale)) <= 0.006, (f, scale)
    for p in fr:
        kids = [c for c in fr if c["y"] == p["y"] - 16 and p["x"] <= c["x"] and c["x"] + c["n"] <= p["x"] + p["n"]]
        assert sum(c["n"] for c in kids) <= p["n"], (p, kids)
        # each width is rounded to 0.01 px
        assert sum(c["w"] for c in kids) <= p["w"] + 0.005 * (len(kids) + 1) + 1e-9, (p, kids)
        strays = [c for c in fr if c["y"] == p["y"] - 16 and c["x"] < p["x"] + p["n"] and c["x"] + c["n"] > p["x"] and c not in kids]
        assert not strays, (p, strays)
        p["self"] = p["n"] - sum(c["n"] for c in kids)
    if hot is None:
        hot = max(fr, key=lambda f: f["self"])["name"]
print(hot)
PY

samples_of () {	# samples_of FILE.stats EVENT
	sed -n "s/.*\"name\": \"$2\".*\"samples\": \([0-9]*\).*/\1/p" "$1"
}

test_expect_success PYTHON 'svg: frames as wide as their samples, within their callers, the root the event samples' '
	for f in $(files); do
		"$MPERF" report -i $f --stats --json >$f.stats &&
		"$MPERF" report -i $f --format=svg -o $f.svg 2>err &&
		test_must_be_empty err &&
		if test $f = mperf.data; then
			set -- $(samples_of $f.stats cpu-clock) $(samples_of $f.stats task-clock)
		else
			set -- $(samples_of $f.stats cpu-clock)
		fi &&
		hot=$(python3 svgcheck.py $f.svg "$@") &&
		test "$hot" = leaf || { fail "$f: the hottest frame is $hot"; exit 1; }
	done
'

test_expect_success 'svg: to standard output without -o, the same bytes; names escaped, the viewer embedded' '
	"$MPERF" report -i mperf.data --format=svg >stdout.svg &&
	cmp stdout.svg mperf.data.svg &&
	grep -q "<script type=\"text/ecmascript\"><!\[CDATA\[" stdout.svg &&
	grep -q "function zoom" stdout.svg && grep -q "function search" stdout.svg &&
	grep -q "class=\"evsel\"" stdout.svg &&
	! grep "<title>[^<]*[&][^a-z#]" stdout.svg
'

# shot PNG URL CHECK: a headless Chromium screenshot of URL whose
# pngstats satisfy CHECK (a shell test of $1 $2 $3).  The virtual time
# budget lets the page's script run and paint first; a machine busy with
# other work has still given an unpainted frame (or one painted before the
# search ran), so up to five tries, the later ones with a longer budget.
# The window is as tall as the graph: on a busy machine a deep kernel stack
# (128 frames) makes it over 2000 pixels tall, and the leaves of callpaths,
# near its root at the bottom, fell out of an 800-pixel window.
shot () {
	local png=$1 url=$2 check=$3 try height
	height=$(sed -n 's/^<svg version="1.1" width="[0-9]*" height="\([0-9]*\)".*/\1/p' mperf.data.svg | head -n 1)
	test "${height:-0}" -ge 800 || height=800
	for try in 1 2 3 4 5; do
		chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=$((try * 3000)) \
			--screenshot="$PWD/$png" --window-size=1200,"$height" "$url" >/dev/null 2>&1
		set -- $(python3 "$MPERF_ROOT/tests/pngstats.py" "$png" 2>/dev/null)
		eval "$check" && return 0
		echo "# try $try: $png: $*" >&2
	done
	return 1
}

test_expect_success CHROMIUM,PYTHON 'svg: headless Chromium draws it, searches and switches events' '
	"$MPERF" report -i mperf.data --format=svg -o mperf.data.svg &&
	shot shot.png "file://$PWD/mperf.data.svg" \
		"test \"\$1\" -ge 20 && test \"\${2%.*}\" -ge 10 && test \"\$3\" = no-magenta" ||
		{ fail "not drawn"; exit 1; } &&
	shot found.png "file://$PWD/mperf.data.svg?s=%5Eleaf%24" "test \"\$3\" = magenta" ||
		{ fail "search: no highlight"; exit 1; } &&
	chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$PWD/mperf.data.svg?e=1&s=leaf&z=helper" \
		2>/dev/null >dom.xml &&
	grep "id=\"subtitle\"[^>]*>task-clock: " dom.xml &&
	grep "id=\"matched\"[^>]*>Matched: [0-9.]*% " dom.xml &&
	grep "id=\"unzoom\" class=\"\"" dom.xml
'

# perf's own folded chains: perf report --no-children --sort comm -g
# folded,0,caller,count prints each comm's chains with their counts;
# unresolved frames are addresses there, "[unknown]" in --format=folded.
perf_folded () {
	"$PERF" report --stdio --no-children --sort comm -g folded,0,caller,count -i "$1" 2>/dev/null | awk '
	/^# Samples: / { ev = $NF; gsub(/\x27/, "", ev); next }
	/^#/ || /^$/ { next }
	/^ +[0-9.]+%/ { comm = $2; for (i = 3; i <= NF; i++) comm = comm " " $i; next }
	{ n = $1; $1 = ""; sub(/^ /, ""); k = split($0, fr, ";"); s = comm
	  for (i = 1; i <= k; i++) s = s ";" (fr[i] ~ /^(0|0x[0-9a-f]+)$/ ? "[unknown]" : fr[i])
	  print ev " " s " " n }' | sort
}

# One line per stack text, its counts summed: perf prints the chains of two
# symbols of one name (ld.so's _start and the program's) apart, a folded
# file is one line per text.
same_stacks () {
	awk '{ n = $NF; $NF = ""; sub(/ $/, ""); c[$0] += n } END { for (k in c) print k " " c[k] }' | sort
}

# An address in .plt is "name@plt" or "_init" in perf, as its symbol tree
# has it (t3003 folds them the same way).
plt () {
	sed -E "s/(;)(_init|[A-Za-z0-9_.]+@plt)(;| )/\1_init-or-plt\3/g"
}

# Where perf's unwinder (libunwind) and libdw part, a dwarf sample's chain
# differs (t3005 compares those from 1%): for the dwarf file, the stacks of
# 1% of the samples or more are the same, the others differ by 2% at most.
test_expect_success PERF,PYTHON 'folded: the chains and counts perf report gives each comm, for perf, mperf and dwarf files' '
	for f in $(files); do
		perf_folded $f | plt | same_stacks >perf.out &&
		awk "/^# event: / { ev = \$3; next } { print ev \" \" \$0 }" $f.folded | plt | same_stacks >mperf.out &&
		test -s perf.out &&
		if test $f = dwarf.data; then
			python3 - <<-\PY || { diff -u perf.out mperf.out | head -n 40; exit 1; }
			def read(name):
			    d = {}
			    for line in open(name):
			        k, n = line.rstrip("\n").rsplit(" ", 1)
			        d[k] = d.get(k, 0) + int(n)
			    return d
			p, m = read("perf.out"), read("mperf.out")
			total = sum(m.values())
			for k in set(p) | set(m):
			    if max(p.get(k, 0), m.get(k, 0)) * 100 >= total:
			        assert p.get(k, 0) == m.get(k, 0), (k, p.get(k, 0), m.get(k, 0))
			off = sum(abs(p.get(k, 0) - m.get(k, 0)) for k in set(p) | set(m))
			assert off * 50 <= total, (off, total)
			PY
		else
			diff -u perf.out mperf.out >diff.out || { head -n 40 diff.out; exit 1; }
		fi
	done
'

test_expect_success 'folded: a file without chains has one frame per sample' '
	"$MPERF" record -q -e cpu-clock -o flat.data "$CALLPATHS" 0.2 &&
	"$MPERF" report -i flat.data --format=folded >flat.folded &&
	grep "^callpaths;leaf [0-9]*$" flat.folded &&
	test -z "$(grep -v "^#" flat.folded | grep ";.*;")" &&
	"$MPERF" report -i flat.data --stats --json >flat.stats &&
	test "$(grep -v "^#" flat.folded | awk "{ s += \$NF } END { print s }")" = \
	     "$(sed -n "s/.*\"name\": \"cpu-clock\".*\"samples\": \([0-9]*\).*/\1/p" flat.stats)"
'

test_expect_success 'folded: a pipe-mode stream gives the file mode lines' '
	"$MPERF" record -q -e cpu-clock -g -o - "$CALLPATHS" 0.2 >p.data &&
	"$MPERF" report -i - --format=folded <p.data >pipe.folded 2>err &&
	test_must_be_empty err &&
	grep -q "spin;a;b;leaf" pipe.folded &&
	"$MPERF" report -i p.data --format=folded >file.folded &&
	cmp pipe.folded file.folded
'

# PLAIN too: go runs on files the SETUP tests wrote (the sanitizer pass has no new mperf code to run here)
have_go () { have_plain && command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; }

# pprof_top FILE.pb.gz INDEX: go tool pprof -top's rows (flat, name) of
# sample type INDEX, every node (unresolved addresses left out).
pprof_top () {
	go tool pprof -symbolize=none -sample_index=$2 -top -nodecount=100000 -nodefraction=0 -edgefraction=0 "$1" \
		2>/dev/null | awk '/^ *flat  flat%/ { on = 1; next } on && $1 > 0 { n = $1; $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print n " " $0 }'
}

test_expect_success SETUP 'pprof: a gzipped protobuf, to standard output without -o, the same bytes' '
	for f in $(files); do
		"$MPERF" report -i $f --format=pprof -o $f.pb.gz 2>err &&
		test_must_be_empty err &&
		gzip -t $f.pb.gz || exit 1
	done &&
	"$MPERF" report -i mperf.data --format=pprof >stdout.pb.gz &&
	cmp stdout.pb.gz mperf.data.pb.gz
'

test_expect_success GO,PYTHON 'pprof: go tool pprof -top: the top 10 by flat are report --no-children --sort sym, sample for sample' '
	for f in $(files); do
		if test $f = mperf.data; then events="0:cpu-clock 2:task-clock"; else events="0:cpu-clock"; fi
		for ie in $events; do
			pprof_top $f.pb.gz ${ie%%:*} >top.txt &&
			test -s top.txt &&
			go tool pprof -symbolize=none -sample_index=${ie%%:*} -top -nodecount=1 $f.pb.gz 2>/dev/null >head.txt &&
			python3 - $f ${ie#*:} <<-\PY || exit 1
			import json, re, sys
			f, ev = sys.argv[1], sys.argv[2]
			e = [e for e in json.load(open(f + ".sym"))["events"] if e["name"] == ev][0]
			want = {}
			for r in e["rows"]:
			    if r["symbol"] is not None:
			        want[r["symbol"]] = want.get(r["symbol"], 0) + r["samples"]
			got = []
			for line in open("top.txt"):
			    n, name = line.rstrip("\n").split(" ", 1)
			    if not re.match(r"^(0x[0-9a-f]+|<unknown>)", name) and "[" not in name.split(" ")[0]:
			        got.append((name, int(n)))
			top = got[:10]
			# A dwarf location of inline frames is flat in its innermost function, as pprof
			# counts them, where Self has the symbol: the ten are compared for fp chains.
			if not f.startswith("dwarf"):
			    for name, n in top:
			        assert want.get(name) == n, (f, ev, name, n, want.get(name))
			    assert sorted(n for _, n in top) == sorted(sorted(want.values())[-10:]) or len(top) < 10, (f, ev, top)
			assert top[0] == ("leaf", want["leaf"]), (f, ev, top[0])
			m = re.search(r"Total samples = (\d+)", open("head.txt").read())
			assert m and int(m.group(1)) == e["samples"], (f, ev, m and m.group(0), e["samples"])
			PY
			:
		done
	done
'

test_expect_success GO,SETUP 'pprof: sample types per event, the main binary first, a comm label' '
	go tool pprof -symbolize=none -raw mperf.data.pb.gz >raw.txt 2>/dev/null &&
	grep "^cpu-clock/count\[dflt\] cpu-clock:period/nanoseconds task-clock/count task-clock:period/nanoseconds" raw.txt &&
	sed -n "/^Mappings/,\$p" raw.txt >maps.txt &&
	grep "^1: .* $CALLPATHS " maps.txt &&
	grep "comm:\[callpaths\]" raw.txt
'

test_expect_success GO,PERF 'pprof: the mappings have the build ids perf buildid-list gives' '
	"$PERF" buildid-list -i mperf.data >ids.txt 2>/dev/null &&
	test -s ids.txt &&
	while read id name; do
		if grep " $name " maps.txt >m.txt; then grep " $id " m.txt || { fail "$name: not $id"; exit 1; }; fi
	done <ids.txt &&
	grep " $CALLPATHS $(sed -n "s| $CALLPATHS\$||p" ids.txt) " maps.txt
'

have_x86_cc () { test "$(uname -m)" = x86_64 && command -v cc >/dev/null 2>&1; }

# jitspin: spins in code it copied into anonymous executable memory, as a
# JIT's code runs (perf names such memory /tmp/perf-PID.map).
test_expect_success X86_CC 'a JIT map: its frames are JIT in the flame graph, /tmp/perf-PID.map in pprof' '
	cat >jitspin.c <<-\EOF &&
	#include <string.h>
	#include <sys/mman.h>
	#include <time.h>
	int main(void)
	{
		/* loop: dec %rdi; jnz loop; ret */
		static const unsigned char code[] = { 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct timespec ts;

		if (p == MAP_FAILED)
			return 1;
		memcpy(p, code, sizeof(code));
		do {
			((void (*)(unsigned long))p)(10000000);
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
		} while (ts.tv_sec == 0 && ts.tv_nsec < 300000000);
		return 0;
	}
	EOF
	cc -O1 -o jitspin jitspin.c &&
	"$MPERF" record -q -e cpu-clock -o jit.data ./jitspin &&
	"$MPERF" report -i jit.data --format=folded >jit.folded &&
	n=$(sed -n "s/^jitspin;\[unknown\] \([0-9]*\)$/\1/p" jit.folded) &&
	"$MPERF" report -i jit.data --stats --json >jit.stats &&
	total=$(samples_of jit.stats cpu-clock) &&
	test "$n" -ge $((total / 2)) &&
	"$MPERF" report -i jit.data --format=svg >jit.svg &&
	grep -A1 "<title>\[unknown\]$" jit.svg | grep "^$n samples, .*, JIT</title>" &&
	if have_go; then
		"$MPERF" report -i jit.data --format=pprof -o jit.pb.gz &&
		go tool pprof -symbolize=none -raw jit.pb.gz 2>/dev/null | grep "^[0-9]*: 0x.* /tmp/perf-[0-9]*\.map "
	fi
'

test_expect_success '--format and -o: bad values and conflicts are usage errors' '
	test_expect_code 129 "$MPERF" report -i mperf.data --format=png 2>err &&
	grep "folded, svg, pprof" err && test_line_count = 2 err &&
	for o in -D --json --stdio --stats --header --header-only --check "--sort sym" --no-children -g "--comms x"; do
		test_expect_code 129 "$MPERF" report -i mperf.data --format=folded $o 2>err &&
		grep -- "--format cannot be used with" err || exit 1
	done &&
	test_expect_code 129 "$MPERF" report -i mperf.data -o out.txt 2>err &&
	grep -- "-o/--output goes with --format" err
'

test_expect_success '-o writes the file whole, and leaves nothing behind a failure' '
	"$MPERF" report -i mperf.data --format=folded -o out.folded &&
	cmp out.folded mperf.data.folded &&
	test_expect_code 125 "$MPERF" report -i nosuch.data --format=folded -o bad.folded 2>err &&
	! test -e bad.folded &&
	test -z "$(ls | grep "\.tmp\.")" &&
	head -c 3000 mperf.data >cut.data &&
	test_expect_code 1 "$MPERF" report -i cut.data --format=folded -o cut.folded 2>err &&
	! test -e cut.folded &&
	test -z "$(ls | grep "\.tmp\.")"
'

# A rename over /dev/null would make it a file: what is not a file is
# written in place (a FIFO here, which a rename would replace the same way).
test_expect_success '-o to what is not a file (a FIFO, /dev/null): written in place, left as it was' '
	mkfifo out.fifo &&
	{ timeout 30 cat out.fifo >got.folded & } &&
	"$MPERF" report -i mperf.data --format=folded -o out.fifo &&
	wait &&
	test -p out.fifo &&
	cmp got.folded mperf.data.folded &&
	test -z "$(ls | grep "\.tmp\.")"
'

test_done
