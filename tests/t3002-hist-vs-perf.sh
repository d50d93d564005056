#!/usr/bin/env bash
# mperf report (the histograms) against perf report --stdio on the same
# files, recorded by perf and by mperf: the same section headers (sample
# and event counts) and the same top 20 rows of every section.  Skipped
# without perf.
. "$(dirname "$0")/lib.sh"

# Everything but perf's random tip line; only the first 20 rows of each
# section.
top_rows () {
	grep -v '^# (Tip:\|^# (Cannot load tips' |
	awk '/^# Samples:/ { n = 0 } /^ +[0-9.]+%/ { if (++n > 20) next } { print }'
}

same_hist () {	# same_hist FILE [OPTIONS...]
	local f=$1
	shift
	"$PERF" report --stdio -i "$f" "$@" 2>/dev/null | top_rows >perf.out &&
	"$MPERF" report -i "$f" "$@" 2>mperf.err | top_rows >mperf.out &&
	test_must_be_empty mperf.err &&
	test "$(grep -c "^# Samples:" perf.out)" -ge 1 &&
	diff -u perf.out mperf.out >diff.out || { head -n 40 diff.out; return 1; }
}

test_expect_success PERF 'perf file: the seed command (three events)' '
	perf_record -o seed.data -e cycles,cycles,cycles "$CPUSPIN" 0.5 &&
	same_hist seed.data &&
	test "$(grep -c "^# Samples:" mperf.out)" = 3
'

test_expect_success PERF 'perf file: a software mix, -c' '
	perf_record -o mix.data -c 100000 -e cpu-clock,task-clock,page-faults "$CPUSPIN" 0.3 &&
	same_hist mix.data
'

test_expect_success PERF 'perf file: a forked child and a shell' '
	perf_record -o fork.data -e cpu-clock sh -c "\"$CPUSPIN\" 0.2 & \"$CPUSPIN\" 0.2; ls / >/dev/null; wait" &&
	same_hist fork.data
'

test_expect_success PERF 'mperf file: perf resolves the same symbols' '
	"$MPERF" record -q -e cycles,cycles,cycles -o m.data "$CPUSPIN" 0.5 &&
	same_hist m.data
'

test_expect_success PERF '--sort: keys as perf matches them, and its IPC column of "symbol"' '
	same_hist fork.data --sort dso,sym &&
	same_hist fork.data --sort comm &&
	same_hist fork.data --sort D,S,comm,dso &&
	same_hist fork.data --sort symbol &&
	grep -q "^# Overhead  Symbol  *IPC   \\[IPC Coverage\\]\$" mperf.out &&
	same_hist fork.data --sort pid,symbol,sym
'

test_expect_success PERF '--sort cpu: each sample'"'"'s CPU, -001 where the file has none, as perf' '
	perf_record -o cpu.data -e cpu-clock -a "$CPUSPIN" 0.3 &&
	same_hist cpu.data --sort cpu &&
	test "$(grep -c "^ *[0-9.]*%  [0-9][0-9][0-9]\$" mperf.out)" -ge 1 &&
	same_hist cpu.data --sort cpu,comm &&
	same_hist cpu.data --sort comm,cpu,dso -n &&
	same_hist fork.data --sort CP,pid &&
	grep -q "%  -001 " mperf.out &&
	"$MPERF" report -i cpu.data --json --sort cpu >cpu.json &&
	grep -q "\"sort\": \[\"cpu\"\]" cpu.json &&
	grep -q "\"cpu\": [0-9]" cpu.json
'

# perf hides an entry as its first sample was hidden: the two cpuspin
# processes share their comm,dso,sym entries, which --pid keeps whole.
test_expect_success PERF '--pid and --tid, as perf filters them' '
	"$PERF" report --stdio -i fork.data --sort pid 2>/dev/null |
		sed -n "s/^ *[0-9.]*% *\([0-9]*\):cpuspin *$/\1/p" >pids &&
	test_line_count = 2 pids &&
	first=$(sed -n 1p pids) && second=$(sed -n 2p pids) &&
	same_hist fork.data --pid "$first" &&
	same_hist fork.data --tid "$second" --sort pid &&
	grep -q ":cpuspin" mperf.out && ! grep -q "$first:" mperf.out &&
	same_hist fork.data --pid "$first,$second" --sort pid,dso &&
	test "$(grep -c ":cpuspin" mperf.out)" -ge 2 && ! grep -q ":sh " mperf.out &&
	test_expect_code 129 "$MPERF" report -i fork.data --pid 1,x 2>err &&
	grep -q "invalid --pid list" err
'

# --percentage relative: the shares, and the header's counts, of what the
# filters show; absolute (the default) as without it.  A filter that
# changes nothing leaves them the same: the test first checks that it
# changes the header here.
test_expect_success PERF '--percentage relative and absolute, as perf' '
	"$MPERF" report -i fork.data --comms sh | grep "^# Samples:" >abs &&
	"$MPERF" report -i fork.data --comms sh --percentage relative | grep "^# Samples:" >rel &&
	! cmp -s abs rel &&
	"$PERF" report --stdio -i fork.data --sort pid 2>/dev/null |
		sed -n "s/^ *[0-9.]*% *\([0-9]*\):cpuspin *$/\1/p" >pids &&
	first=$(sed -n 1p pids) && second=$(sed -n 2p pids) &&
	test -n "$first" && test -n "$second" &&
	for f in "--comms sh" "--comms cpuspin --sort dso,sym" "--dsos libc.so.6" "--pid $first" "--tid $second --sort pid"; do
		# shellcheck disable=SC2086
		same_hist fork.data $f --percentage relative || exit 1
		# shellcheck disable=SC2086
		same_hist fork.data $f --percentage absolute || exit 1
	done &&
	same_hist mix.data --comms cpuspin --percentage relative -n --show-total-period &&
	"$MPERF" report -i fork.data --json --comms sh --percentage relative >rel.json &&
	grep -q "\"percentage\": \"relative\"" rel.json &&
	"$MPERF" report -i fork.data --json >abs.json &&
	grep -q "\"percentage\": \"absolute\"" abs.json &&
	test_expect_code 129 "$MPERF" report -i fork.data --percentage some 2>err &&
	grep -q "invalid --percentage .some. (relative or absolute)" err
'

# -S/--symbols: by name; a kernel sample's symbol is known only once
# kallsyms is read, when its entry may be hidden after all.
test_expect_success PERF '-S/--symbols, as perf filters them' '
	"$PERF" report --stdio -i fork.data --sort sym 2>/dev/null >syms &&
	usym=$(sed -n "s/^ *[0-9.]*% *\[\.\] \([^ ]*\) *$/\1/p" syms | head -n 1) &&
	ksym=$(sed -n "s/^ *[0-9.]*% *\[k\] \([^ ]*\) *$/\1/p" syms | head -n 1) &&
	test -n "$usym" &&
	same_hist fork.data -S "$usym" &&
	grep -q "^# symbol: $usym\$" mperf.out &&
	grep -q "% *cpuspin *cpuspin *\$" mperf.out &&
	same_hist fork.data -S "$usym,nosuch" --sort dso,sym &&
	same_hist fork.data --symbols "$usym" --comms sh,cpuspin --percentage relative &&
	same_hist fork.data -S nosuch &&
	if test -n "$ksym"; then
		same_hist fork.data -S "$ksym" &&
		same_hist fork.data -S "$usym,$ksym" --sort dso &&
		same_hist fork.data -S "$ksym" --sort comm &&
		same_hist fork.data -S "$ksym,$usym" --percentage relative -n
	fi &&
	"$MPERF" report -i fork.data --json -S "$usym" >s.json &&
	grep -q "\"symbol\": \"$usym\"" s.json &&
	! grep "\"symbol\": " s.json | grep -v -q "\"symbol\": \"$usym\"" &&
	# perf takes an entry that reads as hex for an address: refused, not taken for a name
	test_expect_code 129 "$MPERF" report -i fork.data -S "$usym,beef" 2>err &&
	grep -q "beef. is an address to perf" err &&
	test_expect_code 129 "$MPERF" report -i fork.data --symbols 0x4005d6 2>err
'

test_expect_success PERF '-q: the rows alone, without a header line or a warning, as perf' '
	for v in "-i seed.data" "-i fork.data" "-i mix.data --sort symbol" "-i fork.data --comms sh"; do
		# shellcheck disable=SC2086
		"$PERF" report --stdio -q $v >perf.out 2>perf.err &&
		# shellcheck disable=SC2086
		"$MPERF" report -q $v >mperf.out 2>mperf.err &&
		test_must_be_empty mperf.err &&
		diff -u perf.out mperf.out >diff.out || { echo "# $v"; head -n 20 diff.out; exit 1; }
	done &&
	grep -q "^# comm: sh$" mperf.out &&
	"$MPERF" report -q -i seed.data >mperf.out &&
	! grep -q "^#" mperf.out && test "$(grep -c "%" mperf.out)" -ge 3
'

test_expect_success PERF 'perf record -z: the zstd-compressed records' '
	perf_record -z -e cpu-clock -o z.data "$CPUSPIN" 0.3 && same_hist z.data
'

test_expect_success PERF '--percent-limit' '
	same_hist fork.data --percent-limit 1 &&
	test "$(grep -c "^ *[0-9.]*%" mperf.out)" -lt 10
'

test_expect_success PERF '--header-only equals perf'"'"'s, on perf'"'"'s and on mperf'"'"'s files' '
	for f in seed.data mix.data m.data; do
		"$PERF" report --header-only -i $f >perf.out 2>/dev/null &&
		"$MPERF" report --header-only -i $f >mperf.out &&
		diff -u perf.out mperf.out || exit 1
	done &&
	name=$("$PERF" evlist -i m.data | head -n 1) &&
	grep -q "^# event : name = $name, , id = {" mperf.out &&
	grep -q "^# missing features: " mperf.out
'

test_expect_success PERF '--header: the header, then the report without its prologue' '
	"$PERF" report --stdio --header -i mix.data 2>/dev/null | top_rows >perf.out &&
	"$MPERF" report --header -i mix.data | top_rows >mperf.out &&
	diff -u perf.out mperf.out
'

# Overlapping symbols (_init stretched over .plt, whose entries perf adds
# after): the name perf gives depends on the shape of its symbol tree.
# A sample at every byte from before .init to past .plt, and through the
# text, of a program and of libc: the names perf script gives.
test_expect_success PERF 'a sample at every address of .init, .plt and .text: the symbols perf names' '
	text_end=$(readelf -SW "$CALLPATHS_NOFP" | awk "\$2 == \".text\" { print \"0x\" \$5 }") &&
	python3 "$MPERF_ROOT/tests/synth-samples.py" plt.data "$CALLPATHS_NOFP" 0x555555554000 \
		$(seq 0xff0 1 $((text_end + 0x500)) | xargs printf "0x%x ") &&
	"$PERF" script -i plt.data -F ip,sym >perf.out 2>/dev/null &&
	"$MPERF" script -i plt.data -F ip,sym >mperf.out &&
	grep -q " _init$" mperf.out && grep -q " clock_gettime@plt$" mperf.out &&
	diff -u perf.out mperf.out &&
	libc=$(ldd "$CALLPATHS_NOFP" | awk "/libc.so/ { print \$3 }") &&
	plt=$(readelf -SW "$libc" | awk "\$2 == \".plt\" { print \"0x\" \$5 }") &&
	if test -n "$plt"; then
		python3 "$MPERF_ROOT/tests/synth-samples.py" libc.data "$libc" 0x7f0000000000 \
			$(seq $((plt - 16)) 4 $((plt + 0x1000)) | xargs printf "0x%x ") \
			$(seq $((plt + 0x1000)) 4099 $((plt + 0x150000)) | xargs printf "0x%x ") &&
		"$PERF" script -i libc.data -F ip,sym >perf.out 2>/dev/null &&
		"$MPERF" script -i libc.data -F ip,sym >mperf.out &&
		diff -u perf.out mperf.out
	fi
'

# Frame-pointer garbage in chains: unresolved callers, some 2^63 and more
# apart, each in one sample.  perf's collapse tree orders them by a signed
# difference (no total order); its output tree keeps entries of equal
# Children in the order it met them.  Five shuffles of the same callers.
test_expect_success PERF 'garbage callers of equal Children: in perf'"'"'s order, whatever order they came in' '
	for seed in 1 2 3 4 5; do
		python3 "$MPERF_ROOT/tests/synth-samples.py" --garbage-chains $seed g.data "$CALLPATHS" 0x555555554000 \
			0x1139 0x1149 0x1159 0x1169 0x1179 0x1189 0x1199 0x11a9 &&
		"$PERF" report --stdio -i g.data 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
		"$MPERF" report -i g.data 2>/dev/null | grep -v "^# (Tip:" >mperf.out &&
		test "$(grep -c "\[unknown\] *\[\.\] 0x" perf.out)" -ge 12 &&
		diff -u perf.out mperf.out || exit 1
	done
'

# Chains of two processes mapping one binary at other addresses, through
# symbols and through its header (in the map, in no symbol): perf orders
# frames with symbols by their start and the others by address, no total
# order, so which chains merge is decided by its children's red-black
# tree, which mperf keeps the same (a sorted array split 350 lines of 750).
test_expect_success PERF 'chains through frames without symbols of two processes: merged where perf merges them' '
	for seed in 1 2 3; do
		python3 "$MPERF_ROOT/tests/synth-samples.py" --mixed-chains $seed m.data "$CALLPATHS" 0x555555554000 \
			0x1139 0x1149 0x1159 0x1169 0x1179 0x1189 0x1199 0x11a9 &&
		for v in "" "--no-children -g graph,0" "--sort sym -g fractal,0" "--no-children -g folded"; do
			"$PERF" report --stdio $v -i m.data 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
			"$MPERF" report $v -i m.data 2>/dev/null | grep -v "^# (Tip:" >mperf.out &&
			test_line_count -ge 60 perf.out &&
			diff -u perf.out mperf.out || exit 1
		done
	done
'

# Two binaries of one name in two directories: perf's dso key compares
# short names, so their main is one entry, whose Children counts each
# sample once (perf's check of the entries a chain already credited is
# the comparison that found them, not the first sample's own fields).
test_expect_success PERF 'one entry for two dsos of one short name: each sample in its Children once, as perf' '
	mkdir -p x y && cp "$NOPLOOP" x/ && cp "$NOPLOOP" y/ &&
	"$PERF" record --no-bpf-event -q -g -e cpu-clock -o two.data sh -c "x/noploop 0.3; y/noploop 0.3" >/dev/null 2>&1 &&
	for v in "" "--sort sym" "--sort dso,sym -g none"; do
		"$PERF" report --stdio $v -i two.data 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
		"$MPERF" report $v -i two.data 2>/dev/null | grep -v "^# (Tip:" >mperf.out &&
		grep -q "\[\.\] main" perf.out &&
		diff -u perf.out mperf.out || exit 1
	done
'

# The same without chains: the entries are gathered by the keys perf
# compares (the dso by name), not by which binary a sample was in.
test_expect_success PERF 'two dsos of one short name without chains: one main, as perf' '
	mkdir -p x y && cp "$NOPLOOP" x/ && cp "$NOPLOOP" y/ &&
	"$PERF" record --no-bpf-event -q -e cpu-clock -o two-flat.data sh -c "x/noploop 0.2; y/noploop 0.2" >/dev/null 2>&1 &&
	for v in "" "--sort sym" "--sort dso,sym" "--sort comm,sym -n"; do
		"$PERF" report --stdio $v -i two-flat.data 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
		"$MPERF" report $v -i two-flat.data 2>/dev/null | grep -v "^# (Tip:" >mperf.out &&
		test "$(grep -c "\[\.\] main$" mperf.out)" = 1 &&
		diff -u perf.out mperf.out || exit 1
	done
'

test_done
