#!/bin/bash
# mperf record drains on the kernel's wakeups, not on its poll timeout.
# With no watermark asked (as perf), the kernel wakes the poller each time
# a buffer's head passes another half of the buffer (W bytes), and a poll
# return finds each buffer at most 2W fuller (more would be lost, and not
# written): a recording of D bytes over N CPU buffers was woken at least
# (D/W - N) / (2N) times.  A drain that ran only on the timeout says ~0.
# And as perf's, a pass that found data is followed by another at once:
# only a pass that found nothing sleeps, so the JSON summary's passes
# outnumber its sleeps (a drain that slept after every pass: as many).

. "$(dirname "$0")/lib.sh"

# woken FILE and samples FILE: from record's summary on stderr.
woken () {
	sed -n 's/^\[ mperf record: Woken up \([0-9][0-9]*\) times to write data \]$/\1/p' "$1"
}
samples () {
	sed -n 's/^\[ mperf record: Captured and wrote .* (\([0-9][0-9]*\) samples) \]$/\1/p' "$1"
}

# enough ERR: its wakeups are at least what its samples' bytes imply, with
# one-page buffers (W = 2048 bytes) and 32-byte samples (IP, TID, TIME).
enough () {
	local n w cpus want
	n=$(samples "$1") && w=$(woken "$1") && cpus=$(getconf _NPROCESSORS_ONLN) &&
	test -n "$n" && test -n "$w" && test "$n" -gt 1000 &&
	want=$(( (n * 32 / 2048 - cpus) / (2 * cpus) )) &&
	echo "samples $n woken $w want >= $want" &&
	test "$want" -gt 0 && test "$w" -ge "$want"
}

# passes JSON: the summary's passes outnumber its sleeps, and some slept.
passes () {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("passes %d sleeps %d" % (d["passes"], d["sleeps"]))
sys.exit(not d["passes"] > d["sleeps"] > 0)' "$1"
}

test_expect_success 'a workload: woken as often as its bytes imply, passes again before a sleep' '
	"$MPERF" record -m 1 -e cpu-clock -c 100000 -o w.data --json-summary w.json "$CPUSPIN" 0.3 2>w.err &&
	enough w.err &&
	passes w.json
'

test_expect_success '-a: woken as often as its bytes imply, passes again before a sleep' '
	"$MPERF" record -m 1 -e cpu-clock -c 100000 -a -o a.data --json-summary a.json "$CPUSPIN" 0.3 2>a.err &&
	enough a.err &&
	passes a.json
'

test_expect_success '--threads: woken as often as its bytes imply, passes again before a sleep' '
	"$MPERF" record -m 1 -e cpu-clock -c 100000 --threads=cpu -o t.data --json-summary t.json "$CPUSPIN" 0.3 2>t.err &&
	enough t.err &&
	passes t.json
'

test_done
