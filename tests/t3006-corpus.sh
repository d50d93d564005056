#!/usr/bin/env bash
# Files from other machines: the corpus of real perf.data files (x86_64,
# i686, armv7, aarch64; perf 3.2 to 6.12; file and pipe mode) read by
# mperf as perf 6.1 reads them.  For every file perf reads, `report -D`
# equals perf's up to the stats and `--header-only` equals perf's; the
# exceptions are named below, each with its reason.  Without perf (make
# check), the views in tests/expected/corpus.list are compared with perf's
# output stored there.  Skipped without the corpus (MPERF_CORPUS, by
# default ../shared/corpus), a failure under CI=true.
# (leaks checked in the sanitizer pass too: see tests/lib.sh)
MPERF_TEST_LEAKS=1
. "$(dirname "$0")/lib.sh"


# kallsyms_warning CMD: perf's stderr (perf.err) says it found no symbols for
# the recorded kernel exactly where mperf's (mperf.err) does, in its words.
kallsyms_warning () {
	grep "^No kallsyms or vmlinux with build-id [0-9a-f]* was found$" perf.err | sed "s/^/mperf $1: warning: /" >want.err
	grep "No kallsyms or vmlinux" mperf.err >have.err
	diff -u want.err have.err
}

# same_dump FILE [prefix]: mperf's dump equals perf's; with "prefix", perf's
# is only the start of mperf's (perf 6.1 stops where mperf reads on).
same_dump () {
	corpus_view dump "$PERF" "$1" >perf.body 3>perf.err
	corpus_view dump "$MPERF" "$1" >mperf.body 3>mperf.err
	test "$(wc -l <perf.body)" -gt 10 || { echo "$1: perf printed $(wc -l <perf.body) lines"; return 1; }
	if test "${2:-}" = prefix; then
		head -n "$(wc -l <perf.body)" mperf.body >mperf.prefix && mv mperf.prefix mperf.body
	fi
	diff -u perf.body mperf.body >diff.out || { echo "$1:"; head -n 20 diff.out; return 1; }
	kallsyms_warning report || { echo "$1: the kallsyms warning"; return 1; }
	! grep -q -E "Sanitizer|runtime error" mperf.err
}

same_header () {	# FILE [OPTIONS...]
	local name=$1
	shift
	corpus_view header "$PERF" "$name" "$@" >perf.hdr 3>/dev/null
	corpus_view header "$MPERF" "$name" "$@" >mperf.hdr 3>mperf.err
	test "$(wc -l <perf.hdr)" -gt 5 &&
	diff -u perf.hdr mperf.hdr >diff.out || { echo "$name $*:"; head -n 20 diff.out; return 1; }
}

# The comparison with perf 6.1 on these fixed files, without running perf:
# each view of tests/expected/corpus.list as perf printed it (its lines and
# their sha256, and the kernels it warned it had no symbols for, stored by
# tests/expected/regen-corpus.sh).  The same views compared live, with the
# diff, run under MPERF_TEST_CORPUS_LIVE=1 (prerequisite CORPUS_LIVE): what
# to run when this test fails, or to check the stored outputs themselves.
EXPECTED=$MPERF_ROOT/tests/expected
have_corpus_live () { test -n "${MPERF_TEST_CORPUS_LIVE:-}"; }

test_expect_success CORPUS 'stored: report -D, --header-only (-I) and --stdio of the corpus as perf 6.1 printed them' '
	grep -v "^#" "$EXPECTED/corpus.sha256" >sums &&
	test_line_count -ge 170 sums &&
	while read -r view f n sum warned; do
		corpus_view "$view" "$MPERF" "$f" >out 3>err || :
		grep -q "^$view $f prefix$" "$EXPECTED/corpus.list" && head -n "$n" out >out.prefix && mv out.prefix out
		test "$(sha256sum <out | cut -d" " -f1)" = "$sum" ||
			{ echo "$view $f: not as perf 6.1 printed it ($n lines; mperf: $(wc -l <out));" \
				"MPERF_TEST_CORPUS_LIVE=1 shows the diff"; exit 1; }
		test "$(corpus_kallsyms_ids <err)" = "$warned" ||
			{ echo "$view $f: kallsyms warnings for $(corpus_kallsyms_ids <err), perf 6.1 for $warned"; exit 1; }
		! grep -q -E "Sanitizer|runtime error" err || { cat err; exit 1; }
		case $view.$f in
		headerI.perf.data.hybrid_topology) grep -q "^# hybrid cpu system:$" out ;;
		esac || { echo "$view $f: no hybrid topology"; exit 1; }
	done <sums &&
	for f in $(cd "$CORPUS" && ls | grep -v -e LICENSE -e README); do
		grep -q "^dump $f " sums || { echo "$f is not in $EXPECTED/corpus.list: add it, run regen-corpus.sh"; exit 1; }
	done
'

# Files whose dump is compared only as far as perf 6.1 gets:
#  piped.intel_pt-4.14: perf fails after the first AUXTRACE of the stream
#    ("bad event header size"); mperf skips the trace data and reads on.
#  piped.extrabyte-3.4: one byte after the last record; perf takes it for
#    the end of the stream, mperf says the stream is truncated (exit 1).
#  piped.corrupted.zero_size_sample-3.2: a record of size 0; both stop there.
# (marked "prefix" in tests/expected/corpus.list)

test_expect_success PERF,CORPUS,CORPUS_LIVE 'report -D: every corpus file as perf dumps it' '
	n=0 &&
	for f in $(cd "$CORPUS" && ls | grep -v -e LICENSE -e README); do
		same_dump "$f" $(sed -n "s/^dump $f \(prefix\)$/\1/p" "$EXPECTED/corpus.list") || exit 1
		n=$((n + 1))
	done &&
	test "$n" -ge 47
'

# report --stdio, whole but for perf's tip line, on the files it equals
# perf's on (37 of 47, and the 6 files with branch stacks below; kernel
# modules shown as perf shows them, "[ath9k]" and a module sample's
# address in its map; event groups in perf's group view; the pipe streams
# without build ids resolve their kernel samples against this machine's
# kallsyms, moved to the kernel's reference symbol each recorded).  Not
# yet: the samples perf synthesizes from Intel PT, and two damaged streams.
no_build_id_streams="perf.data.piped.hw_and_sw-3.4 perf.data.piped.target-3.4 perf.data.piped.target-3.8
	perf.data.piped.target.throttled-3.4 perf.data.piped.no_attr_ids-4.14
	perf.data.piped.ctx_switch_namespaces-4.14"
# (the branch files' default view is compared with them below)
branch_files="perf.data.branch-4.14 perf.data.branch_stack_hw_index perf.data.branch_stack_spec
	perf.data.callgraph_and_branch-3.4 perf.data.callgraph_and_branch-3.8 perf.data.raw_callgraph_branch-3.4"
same_stdio_files="$(sed -n "s/^stdio \([^ ]*\)$/\1/p" "$EXPECTED/corpus.list" |
	grep -v -x -F "$(echo $branch_files | tr " " "\n")")"

compare_stdio () {
	for f; do
		corpus_view stdio "$PERF" "$f" >perf.out 3>perf.err &&
		corpus_view stdio "$MPERF" "$f" >mperf.out 3>mperf.err &&
		diff -u perf.out mperf.out >diff.out || { echo "# $f"; head -n 20 diff.out; return 1; }
		kallsyms_warning report || { echo "# $f"; return 1; }
	done
}

test_expect_success PERF,CORPUS,CORPUS_LIVE 'report --stdio: the corpus files it equals perf on, whole' '
	compare_stdio $same_stdio_files
'

# The streams without build ids, whose kernel samples resolve on this
# machine's kallsyms: compared live always.
test_expect_success PERF,CORPUS 'report --stdio: the streams without build ids, on this machine'"'"'s kallsyms' '
	compare_stdio $no_build_id_streams &&
	"$MPERF" report -i "$CORPUS/perf.data.callgraph-3.8" --sort dso >out &&
	grep -q "  \[ath9k\] *$" out && ! grep -q "\.ko" out
'

# The files with branch stacks: perf's branch view by default, whole, in
# a few sorts; and the usual view (--no-branch-stack).  In the chains of
# callgraph_and_branch-3.4 and -3.8, garbage addresses 2^63 apart make
# perf's comparisons cyclic: its input tree makes one entry twice, and its
# collapse tree merges some of them again (mperf replays both trees).
same_corpus_stdio () {	# same_corpus_stdio FILE [OPTIONS...]
	local f=$1
	shift
	"$PERF" report --stdio -i "$CORPUS/$f" "$@" 2>perf.err | grep -v "^# (Tip:" >perf.out &&
	"$MPERF" report -i "$CORPUS/$f" "$@" 2>mperf.err | grep -v "^# (Tip:" >mperf.out &&
	test "$(grep -c "^# Samples:" perf.out)" -ge 1 &&
	diff -u perf.out mperf.out >diff.out || { echo "# $f $*"; head -n 20 diff.out; return 1; }
	kallsyms_warning report || { echo "# $f $*: the warnings"; return 1; }
}

test_expect_success PERF,CORPUS 'report --stdio: the branch view of the files with branch stacks, whole' '
	for f in $branch_files; do
		same_corpus_stdio "$f" &&
		same_corpus_stdio "$f" --sort dso_from,dso_to &&
		same_corpus_stdio "$f" -n --sort mispredict,in_tx,abort,pid || exit 1
	done &&
	grep -q "^# Overhead       Samples  Branch Mispredicted  Branch in transaction" mperf.out &&
	for f in $branch_files; do
		same_corpus_stdio "$f" --no-branch-stack &&
		same_corpus_stdio "$f" --no-branch-stack --no-children || exit 1
	done &&
	grep -q "^# Overhead  Command  *Shared Object  *Symbol" mperf.out
'

test_expect_success PERF,CORPUS 'report -n: the Samples column, and ties sorted by it, as perf' '
	for f in multi-event-single-process.perf.data perf.data.busy.0-3.4 perf.data.systemwide.1-3.8 \
		perf.data.throttle-3.8 perf.data.callgraph-3.8; do
		same_corpus_stdio "$f" -n || exit 1
	done &&
	grep -q "^# Children      Self       Samples  Command" mperf.out
'

# --sort sym alone: perf's input tree orders two unresolved entries by
# their address, whatever their dsos; ties of equal overhead print in
# that order.
test_expect_success PERF,CORPUS 'report --sort sym: unresolved entries in perf'"'"'s order' '
	for f in perf.data.callgraph-3.4 perf.data.callgraph-3.8 perf.data.systemwide.1-3.8 \
		perf.data.systemwide.5-3.8; do
		same_corpus_stdio "$f" --sort sym &&
		same_corpus_stdio "$f" --sort sym --no-children || exit 1
	done &&
	grep -q "^ *[0-9.]*%  \[k\] 0xffffffff" mperf.out
'

# The same streams on a made-up kallsyms, bind-mounted over /proc/kallsyms
# in a private mount namespace (root only), so that perf's rules are held
# on more than this machine's kernel: a symbol every 2 KiB over the first
# 4 MiB of where the recordings' kernels ran (some of their samples are
# past it), with __pfx_ padding, aliases (weak, local,
# underscored), data symbols, and modules listed out of order, some named
# as the recordings' (ath9k, mac80211, r8169), one not; then the same
# without _stext and _text, the streams' reference symbols (no kernel
# symbols at all).  The kernel map shrinks to the symbols, too: samples
# past them have none.
have_kallsyms_mount () {
	grep -q -m 1 -v '^0* ' /proc/kallsyms &&
	command -v unshare &&
	: >"$TRASH_DIRECTORY/.probe" &&
	unshare -m sh -c 'mount --bind "$1" /proc/kallsyms' sh "$TRASH_DIRECTORY/.probe"
}

made_up_kallsyms () {
	awk 'BEGIN {
		print "ffffffff81000000 T srso_alias_untrain_ret"
		print "ffffffff81000000 T _stext"
		print "ffffffff81000000 T _text"
		# (awk numbers are decimal: 16777216 is 0x1000000, 2048 is 0x800.)
		for (i = 1; i < 2000; i++) {
			a = sprintf("ffffffff8%07x", 16777216 + i * 2048)
			if (i % 11 == 0) {
				print a " D data_" i
			} else if (i % 7 == 0) {
				print a " t __pfx_f" i
				print a " T f" i
			} else if (i % 5 == 0) {
				print a " T global_" i
				print a " W __weak_" i
			} else if (i % 3 == 0) {
				print a " W weak_" i
				print a " t local_name_" i
			} else {
				print sprintf("ffffffff8%07x", 16777216 + i * 2048 - 16) " t __pfx_f" i
				print a " T f" i
			}
		}
		print "ffffffffa0199000 t r8_fn\t[r8169]"
		print "ffffffffa017e000 t ath_c\t[ath9k]"
		print "ffffffffa017e000 t __ath_c\t[ath9k]"
		print "ffffffffa0178000 t ath_a\t[ath9k]"
		print "ffffffffa017d000 d ath_data\t[ath9k]"
		print "ffffffffa0113000 t mac_start\t[mac80211]"
		print "ffffffffa012a300 t other_fn\t[other]"
	}'
}

# same_on_kallsyms KALLSYMS FILE...: report and script as perf's with KALLSYMS as /proc/kallsyms.
same_on_kallsyms () {
	local k=$1 f
	shift
	for f; do
		unshare -m sh -c 'mount --bind "$1" /proc/kallsyms &&
			"$2" report --stdio -i "$4" 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
			"$3" report -i "$4" 2>mperf.err | grep -v "^# (Tip:" >mperf.out &&
			"$2" script -i "$4" >perf.script 2>/dev/null &&
			"$3" script -i "$4" >mperf.script 2>>mperf.err' \
			sh "$k" "$PERF" "$MPERF" "$CORPUS/$f" &&
		test "$(wc -l <perf.script)" -gt 0 &&
		diff -u perf.out mperf.out >diff.out &&
		diff -u perf.script mperf.script >>diff.out || { echo "# $f"; head -n 20 diff.out; return 1; }
	done
}

test_expect_success PERF,CORPUS,KALLSYMS_MOUNT 'streams without build ids on a made-up kallsyms: as perf' '
	made_up_kallsyms >kallsyms &&
	test "$(wc -l <kallsyms)" -gt 2000 &&
	same_on_kallsyms kallsyms $no_build_id_streams &&
	same_on_kallsyms kallsyms perf.data.piped.target-3.8 &&
	grep -q "\[ath9k\] *\[k\] ath_data+0x" mperf.out &&
	grep -q "\[k\] __pfx_f" mperf.out &&
	grep -q "\[k\] data_[0-9]*+0x" mperf.out &&
	grep -q " \[unknown\] *\[k\] 0xffffffff8" mperf.out
'

test_expect_success PERF,CORPUS,KALLSYMS_MOUNT 'without the reference symbol: no kernel symbols, as perf' '
	grep -v -e " _stext\$" -e " _text\$" kallsyms >no-ref &&
	same_on_kallsyms no-ref $no_build_id_streams &&
	! grep "kernel.kallsyms.* \[k\] [^0]" mperf.out
'

# A kernel MMAP of pgoff other than 0 that names no reference symbol
# ("[kernel.kallsyms]" alone): perf looks for a symbol of an empty name,
# finds none, and loads no kallsyms symbols.
test_expect_success PERF,CORPUS 'a kernel map that names no reference symbol: no kernel symbols, as perf' '
	f=$CORPUS/perf.data.piped.no_attr_ids-4.14 &&
	off=$(grep -abo "\[kernel\.kallsyms\]_text" "$f" | cut -d: -f1) &&
	test -n "$off" &&
	cp "$f" noref.data &&
	printf "\0\0\0\0\0" | dd of=noref.data bs=1 seek=$((off + 17)) conv=notrunc status=none &&
	"$PERF" report --stdio -i noref.data 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
	"$MPERF" report -i noref.data 2>/dev/null | grep -v "^# (Tip:" >mperf.out &&
	diff -u perf.out mperf.out &&
	"$PERF" script -i noref.data >perf.script 2>/dev/null &&
	"$MPERF" script -i noref.data >mperf.script &&
	diff -u perf.script mperf.script &&
	grep -q "kernel.kallsyms.*\[k\] 0xffffffff" mperf.out &&
	! grep "kernel.kallsyms.*\[k\] [^0]" mperf.out
'

test_expect_success PERF,CORPUS 'the armv7 file with an empty CPUDESC: read whole, one warning (and perf'\''s kallsyms one)' '
	"$MPERF" report -D -i "$CORPUS/perf.data.armv7.perf_3.14-3.8" >out 2>mperf.err &&
	"$PERF" report -D -i "$CORPUS/perf.data.armv7.perf_3.14-3.8" >/dev/null 2>perf.err &&
	test_line_count = 2 mperf.err && grep -q "warning: .*feature CPUDESC at 0x30d5c: .*: skipped" mperf.err &&
	kallsyms_warning report && test_line_count = 1 have.err &&
	test "$(grep -c "PERF_RECORD_SAMPLE" out)" = 700
'

test_expect_success PERF,CORPUS 'Intel PT: AUXTRACE_INFO and AUXTRACE lines, the trace data skipped' '
	"$MPERF" report -D -i "$CORPUS/perf.data.intel_pt-4.14" >out &&
	grep -q "^0 0 0x29c0 \[0x30\]: PERF_RECORD_AUXTRACE size: 0x2fd0  offset: 0  ref: 0xbc4cd519a6  idx: 0  tid: 3174  cpu: 0$" out &&
	grep -q "^  Max non-turbo ratio 12$" out &&
	grep -q "^        AUXTRACE events:          2  ( 0.8%)$" out
'

# --header-only: perf 6.1 stops reading feature sections at the first one
# that does not parse (the armv7 file'"'"'s CPUDESC) and prints the later ones
# empty; mperf skips that one only, so TOTAL_MEM, CMDLINE and PMU_MAPPINGS
# of that file print what the file holds.
test_expect_success PERF,CORPUS 'report --header-only of the armv7 file: what perf prints empty, read' '
	f=perf.data.armv7.perf_3.14-3.8 &&
	if ! same_header "$f" >/dev/null; then
		! grep "^[-+]# " diff.out | grep -v -e "^[-+]# total memory : " -e "^[-+]# cmdline : " \
			-e "^[-+]# pmu mappings: "
	fi &&
	grep -q "^# cpudesc : (null)$" mperf.hdr && grep -q "^# total memory : 2049120 kB$" mperf.hdr
'

test_expect_success PERF,CORPUS,CORPUS_LIVE 'report --header-only: every corpus file as perf prints it' '
	n=0 &&
	for f in $(cd "$CORPUS" && ls | grep -v -e LICENSE -e README -e perf.data.armv7.perf_3.14-3.8); do
		same_header "$f" || exit 1
		n=$((n + 1))
	done &&
	test "$n" -ge 46
'

test_expect_success PERF,CORPUS,CORPUS_LIVE 'report --header-only -I: the topologies of every corpus file as perf prints them' '
	n=0 &&
	for f in $(cd "$CORPUS" && ls | grep -v -e LICENSE -e README -e perf.data.armv7.perf_3.14-3.8); do
		same_header "$f" -I || exit 1
		n=$((n + 1))
	done &&
	test "$n" -ge 46 &&
	same_header perf.data.hybrid_topology -I &&
	grep -q "^# hybrid cpu system:$" mperf.hdr
'

test_expect_success PERF,CORPUS 'a PERFFILE (version 1) header: read as perf reads it' '
	cp "$CORPUS/perf.data.busy.0-3.4" v1.data &&
	printf PERFFILE | dd of=v1.data conv=notrunc status=none &&
	"$PERF" report -D -i v1.data 2>/dev/null | corpus_dump_body >perf.body &&
	"$MPERF" report -D -i v1.data | corpus_dump_body >mperf.body &&
	test "$(wc -l <perf.body)" -gt 100 && diff -u perf.body mperf.body &&
	"$PERF" report --header-only -i v1.data >perf.hdr 2>/dev/null &&
	"$MPERF" report --header-only -i v1.data >mperf.hdr &&
	diff -u perf.hdr mperf.hdr && grep -q "^# header version : 0$" mperf.hdr
'

test_done
