#!/bin/bash
# mperf doctor: what profiling may do here, each fact against the file or
# the probe it comes from; the JSON document against mperf-doctor(1)'s
# field list; as another user at perf_event_paranoid 2, what that forbids.

. "$(dirname "$0")/lib.sh"

# validate FILE: the document has exactly the fields of the page's list, with their types.
validate () {
	python3 - "$MPERF_ROOT/man/mperf-doctor.1" "$1" <<-\EOF
	import json, sys
	page, doc = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
	block = page.split(".SH JSON OUTPUT", 1)[1].split(".EX\n", 1)[1].split(".EE", 1)[0]
	fields = {}
	for line in block.splitlines():
	    name, types = line.replace("\\-", "-").split()[:2]
	    fields[name] = types.split("|")
	kinds = {"string": str, "integer": int, "boolean": bool, "object": dict, "array": list, "null": type(None)}
	def ok(v, types):
	    return ("boolean" in types) if isinstance(v, bool) else any(isinstance(v, kinds[t]) for t in types)
	def check(obj, prefix):
	    want = {k[len(prefix):] for k in fields if k.startswith(prefix) and not set(".[") & set(k[len(prefix):])}
	    assert set(obj) == want, (prefix, sorted(set(obj) ^ want))
	    for k, v in obj.items():
	        assert ok(v, fields[prefix + k]), (prefix + k, v)
	        if isinstance(v, dict):
	            check(v, prefix + k + ".")
	        if isinstance(v, list):
	            assert all(ok(e, fields[prefix + k + "[]"]) for e in v), (k, v)
	check(doc, "")
	assert doc["schema"] == "mperf-doctor/1" and doc["version"] == 1
	assert doc["command-line"][1:] == ["doctor", "--json"], doc["command-line"]
	EOF
}

field () {
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1"
}

test_expect_success 'doctor: the sysctls as /proc says them, and record works here' '
	test_expect_code 0 "$MPERF" doctor >out &&
	grep -q "^kernel.perf_event_paranoid = $(cat /proc/sys/kernel/perf_event_paranoid)[:]" out &&
	grep -q "^kernel.perf_event_mlock_kb = $(cat /proc/sys/kernel/perf_event_mlock_kb)[:]" out &&
	grep -q "^kernel.kptr_restrict = $(cat /proc/sys/kernel/kptr_restrict)$" out &&
	grep -q "^software events, user space: yes$" out &&
	grep -q "^mperf record can work: yes" out
'

test_expect_success 'doctor --json: the documented fields, the same facts' '
	"$MPERF" doctor --json >d.json &&
	validate d.json &&
	test "$(field d.json "d[\"perf-event-paranoid\"]")" = "$(cat /proc/sys/kernel/perf_event_paranoid)" &&
	test "$(field d.json "d[\"perf-event-max-sample-rate\"]")" = "$(cat /proc/sys/kernel/perf_event_max_sample_rate)" &&
	test "$(field d.json "d[\"euid\"]")" = "$(id -u)" &&
	test "$(field d.json "d[\"record-works\"]")" = True
'

test_expect_success NOPMU 'no PMU: doctor says cycles falls back to cpu-clock' '
	"$MPERF" doctor >out &&
	grep -q "^hardware PMU: no (cycles: .*): cycles falls back to cpu-clock$" out &&
	"$MPERF" doctor --json >d.json &&
	test "$(field d.json "d[\"hardware-pmu\"]")" = False
'

test_expect_success 'the VM and container facts follow their evidence' '
	"$MPERF" doctor --json >d.json &&
	if grep -q "^flags.* hypervisor" /proc/cpuinfo; then vm=True; else vm=$(test -s /sys/hypervisor/type && echo True || echo False); fi &&
	test "$(field d.json "d[\"vm\"]")" = "$vm" &&
	if test -e /.dockerenv || test -e /run/.containerenv || test -s /run/systemd/container; then c=True; else c=False; fi &&
	test "$(field d.json "d[\"container\"]")" = "$c"
'

have_unprivileged () {
	have_nobody &&
	test "$(cat /proc/sys/kernel/perf_event_paranoid)" = 2
}

test_expect_success UNPRIVILEGED 'another user at paranoid 2: what it forbids, and record still works' '
	test_expect_code 0 as_nobody "$MPERF" doctor >out &&
	cat out &&
	grep -q "^kernel.perf_event_paranoid = 2: forbids users without CAP_PERFMON:$" out &&
	grep -q "^    kernel profiling" out &&
	grep -q "^    events of every task on a CPU (-a, -C)$" out &&
	grep -q "CAP_PERFMON no, CAP_SYS_ADMIN no: the limits above apply$" out &&
	grep -q "^software events, kernel too: no (Permission denied)$" out &&
	grep -q "^every task of a CPU (-a, -C): no (Permission denied)$" out &&
	grep -q "^mperf record can work: yes, user space only$" out &&
	as_nobody "$MPERF" doctor --json >n.json &&
	validate n.json &&
	test "$(field n.json "len(d[\"paranoid-forbids\"])")" = 3 &&
	test "$(field n.json "d[\"privileged\"]")" = False
'

# A container's default seccomp profile refuses perf_event_open: noperf installs such a filter.
test_expect_success 'a seccomp filter that refuses perf_event_open is named, by doctor, record and stat' '
	test_expect_code 3 "$NOPERF" "$MPERF" doctor >out &&
	grep -q "^seccomp: a filter (a container.s profile?), which refuses perf_event_open" out &&
	grep -q "^mperf record can work: no$" out &&
	test_expect_code 3 "$NOPERF" "$MPERF" doctor --json >s.json &&
	validate s.json &&
	test "$(field s.json "(d[\"seccomp\"], d[\"denied-by\"])")" = "(2, '\''seccomp'\'')" &&
	"$MPERF" doctor --json >d.json &&
	test "$(field d.json "d[\"denied-by\"]")" = None &&
	test_expect_code 125 "$NOPERF" "$MPERF" record -e cpu-clock -o s.data true 2>err &&
	test_line_count = 1 err &&
	grep -q "^mperf record: no permission to open event .cpu-clock. on cpu 0: a seccomp filter refuses perf_event_open" err &&
	! grep -q "sysctl" err &&
	test_expect_code 125 "$NOPERF" "$MPERF" stat -e task-clock true 2>err &&
	test_line_count = 1 err &&
	grep -q "^mperf stat: no permission to open event .task-clock.: a seccomp filter refuses" err
'

test_expect_success 'doctor: usage' '
	test_expect_code 0 "$MPERF" doctor -h >out &&
	grep -q "usage: mperf doctor" out &&
	test_expect_code 129 "$MPERF" doctor --bogus 2>err &&
	test_expect_code 129 "$MPERF" doctor extra 2>err
'

test_done
