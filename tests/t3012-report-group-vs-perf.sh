#!/usr/bin/env bash
# perf's event-group view: files whose header describes event groups
# (GROUP_DESC), recorded by perf and by mperf, reported by mperf as perf
# report --stdio 6.1 reports them, whole, in every view: the group view
# (one histogram per group, a column per member), --no-group, the sort by
# a member, the Samples and Period columns, the Self and Children views.
# Skipped without perf.
. "$(dirname "$0")/lib.sh"

have_json_parser () { command -v python3 >/dev/null 2>&1; }


# The whole report but for perf's random tip line.  perf 6.1 itself dies
# of a signal on some streams (a SIGSEGV in one of about a dozen recordings
# of gpipe.data, with --no-group): such a view has nothing to be compared
# with, and mperf's report of it is still required to be said without a word.
same_group_report () {	# FILE [OPTIONS...]
	local f=$1 st=0
	shift
	"$PERF" report --stdio -i "$f" "$@" >perf.raw 2>/dev/null || st=$?
	"$MPERF" report -i "$f" "$@" 2>mperf.err | grep -v '^# (Tip:' >mperf.out &&
	test_must_be_empty mperf.err || { echo "# $f $*: mperf failed or warned"; return 1; }
	if test "$st" -gt 128; then
		echo "# $f $*: perf died of signal $((st - 128)), this view is not compared"
		return 0
	fi
	grep -v '^# (Tip:' perf.raw >perf.out &&
	grep -q "^# Total Lost Samples:" perf.out &&
	diff -u perf.out mperf.out >diff.out || { echo "# $f $*"; head -n 40 diff.out; return 1; }
}

views="default|--no-group|--group-sort-idx 1|-n|--show-total-period|--no-children|-g none|--sort comm,dso,sym|-n --show-total-period --group-sort-idx 1"
# The views that depend on a group's shape (its members, its name, a lone
# event beside it, a stream): the others render every group alike, and
# are compared on one file of each recorder and on the files with chains
# and with two groups (each perf report costs about 0.3 s of CPU here).
shape_views="default|--no-group|-n --show-total-period --group-sort-idx 1"

same_in_every_view () {	# FILE...
	same_in_views "$views" "$@"
}

same_in_shape_views () {	# FILE...
	same_in_views "$shape_views" "$@"
}

same_in_views () {	# VIEWS FILE...
	local f v vs=$1
	shift
	for f in "$@"; do
		IFS='|'
		for v in $vs; do
			IFS=' '
			test "$v" = default && v=
			# perf refuses the sort by a member for a stream (tested below)
			case "$f,$v" in *pipe*,*group-sort-idx*) continue ;; esac
			# shellcheck disable=SC2086
			same_group_report "$f" $v || return 1
		done
		IFS=' '
	done
}

test_expect_success PERF 'perf records the groups' '
	perf_record -o g.data -e "{cpu-clock,task-clock}" "$CPUSPIN" 0.3 &&
	perf_record -o gs.data -e "{cpu-clock,task-clock}:S" "$CPUSPIN" 0.3 &&
	perf_record -o glone.data -e "{cpu-clock,task-clock},page-faults" "$CPUSPIN" 0.3 &&
	perf_record -o g2.data -e "{cpu-clock,task-clock}" -e "{cpu-clock,page-faults}" "$CPUSPIN" 0.3 &&
	perf_record -o gname.data -e "foo{cpu-clock,task-clock}" "$CPUSPIN" 0.3 &&
	perf_record -o gg.data -g -e "{cpu-clock,task-clock}" "$CALLPATHS" &&
	perf_record -o nogroup.data -e cpu-clock,task-clock "$CPUSPIN" 0.3 &&
	# a member, or a leader, that (most likely) samples nothing
	perf_record -o gmid.data -e "{cpu-clock,major-faults,task-clock}" "$CPUSPIN" 0.3 &&
	perf_record -o gempty.data -e "{major-faults,cpu-clock}" "$CPUSPIN" 0.3 &&
	"$PERF" record --no-bpf-event -q -o - -e "{cpu-clock,task-clock}" "$CPUSPIN" 0.3 >gpipe.data 2>/dev/null &&
	"$PERF" report --header-only -i g2.data | grep -c "^# group: " >n &&
	test "$(cat n)" = 2
'

test_expect_success PERF 'perf'"'"'s groups: every view as perf shows it' '
	same_in_every_view g.data g2.data &&
	same_in_shape_views gs.data glone.data gname.data gpipe.data gmid.data gempty.data &&
	same_group_report g.data &&
	grep -q "^# Samples: .* of events .anon group { cpu-clock, task-clock }.$" mperf.out &&
	grep -q "^#         Overhead  Command" mperf.out &&
	same_group_report gname.data &&
	grep -q "^# Samples: .* of events .foo { cpu-clock, task-clock }.$" mperf.out &&
	same_group_report glone.data &&
	grep -q "^# Samples: .* of event .page-faults.$" mperf.out &&
	same_group_report g2.data --no-group &&
	test "$(grep -c "^# Samples: .* of events .cpu-clock.$" mperf.out)" = 2
'

test_expect_success PERF 'a group with call chains: Children and Self per member, the chains the leader'"'"'s' '
	same_in_every_view gg.data &&
	same_group_report gg.data &&
	grep -q "^#         Children              Self  Command" mperf.out &&
	same_group_report gg.data -n --show-total-period -g caller,0.5,period
'

test_expect_success PERF '--group forces one group of a file without any, --no-group says "events" for the first' '
	same_group_report nogroup.data --group &&
	grep -q "^# Samples: .* of events .cpu-clock, task-clock.$" mperf.out &&
	same_group_report nogroup.data --no-group &&
	grep -q "^# Samples: .* of events .cpu-clock.$" mperf.out &&
	same_group_report nogroup.data -n --show-total-period
'

test_expect_success PERF '--group-sort-idx needs groups: refused for a file without them, and for a stream' '
	test_expect_code 129 "$MPERF" report --group-sort-idx 1 -i nogroup.data >out 2>err &&
	test_must_be_empty out &&
	grep -q "group-sort-idx needs a file with event groups" err &&
	test_expect_code 129 "$MPERF" report --group-sort-idx 1 -i gpipe.data 2>err &&
	! "$PERF" report --stdio --group-sort-idx 1 -i nogroup.data >/dev/null 2>&1
'

test_expect_success PERF 'mperf records the groups; perf reports them as mperf does' '
	"$MPERF" record -q -o mg.data -e "{cpu-clock,task-clock}" "$CPUSPIN" 0.3 &&
	"$MPERF" record -q -o mgs.data -e "{cpu-clock,task-clock}:S" "$CPUSPIN" 0.3 &&
	"$MPERF" record -q -o mglone.data -e "{cpu-clock,task-clock},page-faults" "$CPUSPIN" 0.3 &&
	"$MPERF" record -q -o mg2.data -e "{cpu-clock,task-clock}" -e "{cpu-clock,page-faults}" "$CPUSPIN" 0.3 &&
	"$MPERF" record -q -o mgname.data -e "foo{cpu-clock,task-clock}" "$CPUSPIN" 0.3 &&
	"$MPERF" record -q -o mgg.data -g -e "{cpu-clock,task-clock}" "$CALLPATHS" &&
	"$MPERF" record -q -o - -e "{cpu-clock,task-clock}" "$CPUSPIN" 0.3 >mgpipe.data &&
	same_in_every_view mg.data mg2.data mgg.data &&
	same_in_shape_views mgs.data mglone.data mgname.data mgpipe.data
'

# The JSON document against the text: each member's share (the text
# rounds it to %.2f, JSON to %.4f: the two may differ by both roundings),
# its samples (-n) and its period (--show-total-period), exactly.
test_expect_success PERF,JSON_PARSER '--json carries each group, its members and their values, as the text shows them' '
	for f in g.data g2.data glone.data gg.data; do
		"$MPERF" report -i $f -n --show-total-period -g none >out.txt &&
		"$MPERF" report -i $f --json -g none >out.json &&
		python3 - <<-\PY || exit 1
		import json, re
		d = json.load(open("out.json"))
		text = open("out.txt").read()
		sections = re.split(r"^# Samples: ", text, flags=re.M)[1:]
		assert len(sections) == len(d["events"]), (len(sections), len(d["events"]))
		for sec, ev in zip(sections, d["events"]):
		    head = re.match(r"(\S+) +of events? .(.*).$", sec, re.M)
		    members = ev.get("members", [ev])
		    n = len(members)
		    if n > 1:
		        assert head.group(2) == ev["group"], (head.group(2), ev["group"])
		        assert [m["name"] for m in members][0] == ev["name"]
		    else:
		        assert head.group(2) == ev["name"]
		    count = int(re.search(r"^# Event count \(approx\.\): (\d+)$", sec, re.M).group(1))
		    assert count == sum(m["event-count"] for m in members), (count, members)
		    cols = 2 * n if d["children"] else n
		    num = r" +([0-9.]+)%" * cols + r" +(\d+)" * (2 * n) + r"  "
		    rows = [r for r in re.findall("^" + num, sec, re.M)]
		    assert rows and len(rows) == len(ev["rows"]), (len(rows), len(ev["rows"]))
		    for r, j in zip(rows, ev["rows"]):
		        vals = j.get("members", [j])
		        pct = [float(x) for x in r[:cols]]
		        ints = [int(x) for x in r[cols:]]
		        shown = [v["children-overhead"] for v in vals] + [v["overhead"] for v in vals] if d["children"] \
		            else [v["overhead"] for v in vals]
		        for t, js in zip(pct, shown):
		            assert abs(t - js) <= 0.005 + 0.00005 + 1e-9, (t, js, r, j)
		        assert ints[:n] == [v["samples"] for v in vals], (ints, vals)
		        assert ints[n:] == [v["period"] for v in vals], (ints, vals)
		        assert vals[0]["period"] == j["period"] and vals[0]["samples"] == j["samples"]
		    for m, mem in enumerate(members):
		        assert sum(v.get("members", [v])[m]["period"] for v in ev["rows"]) == mem["event-count"]
		PY
	done &&
	"$MPERF" report -i g.data --json --no-group >ng.json &&
	python3 -c "import json; d = json.load(open(\"ng.json\")); assert len(d[\"events\"]) == 2 and \"members\" not in d[\"events\"][0]"
'

test_done
