#!/usr/bin/env bash
# DWARF call graphs: record --call-graph dwarf with perf 6.1's attrs, and
# report's libdw unwinding against perf report --stdio (which unwinds the
# same files with libunwind) on files of callpaths-nofp (callpaths built
# -O2 -fomit-frame-pointer: main -> a -> b -> leaf, a helper shared by a
# and c, recursion), recorded by perf and by mperf: the whole output, byte
# for byte but for perf's tip line, in the default Children view and the
# other modes and orders.  perf reads mperf's dwarf file with the same
# chains, and -D agrees on both.  mperf records with 2 MB buffers here:
# 8 KB samples fill perf's default 512 KB in a few milliseconds, and a
# busy machine would lose some (perf would too), which perf then reports.
. "$(dirname "$0")/lib.sh"

# perf's random tip; the remainder line of fractal mode, which perf 6.1
# names with a symbol it leaves uninitialised (as t3003 says).
# A zero return address (seldom: a sample on the way out of a process)
# is a frame for libunwind, which perf shows as 0 - 1, an unknown kernel
# address; libdw ends the chain there, as no x86_64 code is at 0.  Its
# entry (below any threshold's chains) is left out.
report_filter () {
	grep -v '^# (Tip:\|^# (Cannot load tips' | sed -E 's/--\[\.\.\.\] \(inlined\)$/--[...]/' |
	grep -v '^ *[0-9.]*% *[0-9.]*%  .*  \[unknown\]  *\[k\] 0xffffffffffffffff$'
}

# The views that show every unwound frame, in both orders and both
# accumulations.  How a chain is drawn (-G, callee, flat, fractal) does not
# depend on how it was unwound: t3003 compares those renderings on -g files.
VIEWS=(
	""
	"--no-children"
	"-g folded"
	"--no-children -g folded"
	"-g caller"
	"-g folded,0.5,period"
	"--sort sym"
)

# The attrs of both recorders, but for the name perf gives the file.
evlist () {
	"$PERF" evlist -v -i "$1" 2>/dev/null
}

test_expect_success PERF 'record --call-graph dwarf: perf 6.1'"'"'s attrs' '
	"$PERF" record -q --call-graph dwarf -e cpu-clock -o p0.data "$CPUSPIN" 0.1 >/dev/null 2>&1 &&
	"$MPERF" record -q --call-graph dwarf -e cpu-clock -o m0.data "$CPUSPIN" 0.1 &&
	evlist p0.data >perf.ev && evlist m0.data >mperf.ev &&
	grep -q "REGS_USER|STACK_USER" mperf.ev &&
	grep -q "exclude_callchain_user: 1" mperf.ev &&
	grep -q "sample_regs_user: 0xff0fff, sample_stack_user: 8192" mperf.ev &&
	diff -u perf.ev mperf.ev &&
	"$PERF" record -q --call-graph dwarf,4001 -e cpu-clock,task-clock -o p1.data "$CPUSPIN" 0.05 >/dev/null 2>&1 &&
	"$MPERF" record -q --call-graph dwarf,4001 -e cpu-clock,task-clock -o m1.data "$CPUSPIN" 0.05 &&
	evlist p1.data >perf.ev && evlist m1.data >mperf.ev &&
	grep -q "sample_stack_user: 4008" mperf.ev &&
	diff -u perf.ev mperf.ev
'

test_expect_success PERF '--user-regs, alone and with dwarf: perf'"'"'s masks' '
	"$PERF" record -q --user-regs=ax,bx -e cpu-clock -o p2.data "$CPUSPIN" 0.05 >/dev/null 2>&1 &&
	"$MPERF" record -q --user-regs=ax,bx -e cpu-clock -o m2.data "$CPUSPIN" 0.05 &&
	evlist p2.data >perf.ev && evlist m2.data >mperf.ev &&
	diff -u perf.ev mperf.ev &&
	"$PERF" record -q --user-regs=ax,bx --call-graph dwarf -e cpu-clock -o p3.data "$CPUSPIN" 0.05 >/dev/null 2>&1 &&
	"$MPERF" record --user-regs=ax,bx --call-graph dwarf -e cpu-clock -o m3.data "$CPUSPIN" 0.05 2>err &&
	grep -q "^warning: --call-graph dwarf may need every user register" err &&
	evlist p3.data >perf.ev && evlist m3.data >mperf.ev &&
	grep -q "sample_regs_user: 0x183," mperf.ev &&
	diff -u perf.ev mperf.ev &&
	"$MPERF" record --user-regs=? >out &&
	grep -q "^available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 .* R15$" out
'

test_expect_success 'bad dwarf sizes and unknown registers are usage errors; lbr is refused in one line' '
	test_expect_code 129 "$MPERF" record --call-graph dwarf,0 true 2>err &&
	grep -q "incorrect stack dump size (max 65528)" err &&
	test_expect_code 129 "$MPERF" record --call-graph dwarf,65529 true 2>err &&
	test_expect_code 129 "$MPERF" record --call-graph dwarf,8k true 2>err &&
	test_expect_code 129 "$MPERF" record --user-regs=xx true 2>err &&
	grep -q "unknown register .xx." err &&
	test_expect_code 125 "$MPERF" record --call-graph lbr true >out 2>err &&
	test_line_count = 1 err &&
	grep -q "call-graph lbr" err &&
	test_must_be_empty out
'

# Entries under 1% are left out of the views with chains, which order
# entries of equal Children by their chains' depth: perf's entry trees
# compare an inline frame's symbol by name and the others by address, so
# a lookup can miss an entry and make a second one, merged later with the
# depth of one part only, and the order of a few entries of ld.so (0.15%,
# three samples) depends on where the samples fell.  Without chains
# (-g none) every entry is compared.
all_views_above () {
	local v
	for v in "${VIEWS[@]}"; do
		# shellcheck disable=SC2086
		same_report "$1" --percent-limit 1 $v || { echo "# view: $v"; return 1; }
	done
}

test_expect_success PERF 'perf'"'"'s dwarf file of a program without frame pointers: every view equals perf'"'"'s (entries from 1%)' '
	"$PERF" record -q --no-bpf-event --call-graph dwarf -e cpu-clock -o p.data "$CALLPATHS_NOFP" 0.5 >/dev/null 2>&1 &&
	all_views_above p.data &&
	same_report p.data -g none &&
	same_report p.data --no-children -g none
'

test_expect_success PERF '--max-stack N on a dwarf file: the unwound frames cut where perf cuts them' '
	for v in "--max-stack 1" "--max-stack 3" "--max-stack 5 --no-children -g folded" "--max-stack 4 -G"; do
		# shellcheck disable=SC2086
		same_report p.data --percent-limit 1 $v || { echo "# view: $v"; exit 1; }
	done
'

# What must hold whatever the unwinders: leaf's callers, every path whole.
test_expect_success PERF 'the known call paths, unwound without frame pointers' '
	"$MPERF" report -i p.data -g folded,0 >folded &&
	for path in "main;spin;a;b;leaf" "main;spin;a;helper;leaf" "main;spin;c;helper;leaf" "main;spin;rec;rec;rec;rec;leaf"; do
		grep -q "^[0-9.]*% _start;__libc_start_main_impl (inlined);__libc_start_call_main;$path\$" folded ||
		{ echo "missing: $path"; exit 1; }
	done &&
	"$MPERF" report -i p.data --no-children -g folded,0 >callee &&
	grep -q "^[0-9.]*% leaf;helper;c;spin;main;__libc_start_call_main;" callee &&
	"$MPERF" report -i p.data >out &&
	grep -q "^ *[0-9.]*% *[0-9.]*%  callpaths-nofp  callpaths-nofp  *\[\.\] helper$" out
'

# The few samples a process takes in ld.so before main are where the
# unwinders part now and then, on mperf's files more than on perf's: perf
# gives a page fault in _dl_map_object no user frame at all where libdw
# gives its first.  So mperf's files too are compared from 1% (a sample
# is 0.05%); every entry above, with its chains, is compared.

test_expect_success PERF 'mperf'"'"'s dwarf file: every view equals perf'"'"'s (entries from 1%)' '
	"$MPERF" record -q -m 512 --call-graph dwarf -e cpu-clock -o m.data "$CALLPATHS_NOFP" 0.5 &&
	all_views_above m.data
'

test_expect_success PERF 'perf reads mperf'"'"'s dwarf file without a word, with the same chains' '
	"$PERF" report --stdio -i m.data -g folded --percent-limit 0.5 >perf.out 2>perf.err &&
	test_must_be_empty perf.err &&
	"$MPERF" report -i m.data -g folded --percent-limit 0.5 >mperf.out &&
	grep "^[0-9.]*% " perf.out | sort >perf.chains &&
	grep "^[0-9.]*% " mperf.out | sort >mperf.chains &&
	grep -q "main;spin;a;b;leaf" mperf.chains &&
	diff -u perf.chains mperf.chains
'

test_expect_success PERF 'frame pointers alone lose the callers: dwarf finds them' '
	"$MPERF" record -q -g -e cpu-clock -o fp.data "$CALLPATHS_NOFP" 0.3 &&
	"$MPERF" report -i fp.data -g folded,0 >fp.folded &&
	! grep -q "main;spin;a;b;leaf" fp.folded
'

# On mperf's files of a shell's child, or of two events, perf's libunwind
# often takes a wrong FDE in libc (its -v log shows the CFA read from a
# saved 2) and stops at __libc_start_call_main, where mperf goes on to
# _start; perf's own files of the same commands are unwound whole.  So
# those files of mperf's are compared without chains, and their chains
# checked whole; perf's are compared with them.  Entries of equal
# Children below 1% are left out of the two-event comparison: their order
# is the tie perf's output tree leaves.
# Two threads: entries that perf's collapse merges (one per thread before)
# have their chains sorted whole, the merged one tied by its first part's
# depth.  The views where the merge shows (Children and Self, a graph and
# folded chains; the others draw merged entries as any other, above).
test_expect_success PERF 'perf'"'"'s dwarf file of two threads: the merged entries as perf shows them (entries from 1%)' '
	"$PERF" record -q --no-bpf-event --call-graph dwarf -e cpu-clock -o pthr.data "$CALLPATHS_NOFP" 0.6 2 >/dev/null 2>&1 &&
	for v in "" "--no-children" "-g folded"; do
		# shellcheck disable=SC2086
		same_report pthr.data --percent-limit 1 $v || { echo "# view: $v"; exit 1; }
	done &&
	same_report pthr.data --percent-limit 1 -g callee,0.05
'

test_expect_success PERF 'several events; a child of a shell' '
	"$PERF" record -q --no-bpf-event --call-graph dwarf,4096 -e cpu-clock,task-clock -o ptwo.data "$CALLPATHS_NOFP" 0.3 \
		>/dev/null 2>&1 &&
	# Entries of both events as perf has them. The chains of a short live
	# recording can part where libunwind and libdw part (ld.so before main),
	# so they are checked whole below rather than against those of perf.
	same_report ptwo.data --percent-limit 1 -g none &&
	test "$(grep -c "^# Samples:" mperf.out)" = 2 &&
	same_report ptwo.data --no-children -g none --percent-limit 1 &&
	"$MPERF" record -q -m 512 --call-graph dwarf,4096 -e cpu-clock,task-clock -o two.data "$CALLPATHS_NOFP" 0.3 &&
	same_report two.data --no-children -g none --percent-limit 1 &&
	"$MPERF" report -i two.data -g folded,0 >folded &&
	test "$(grep -c "^[0-9.]*% _start;__libc_start_main_impl (inlined);__libc_start_call_main;main;spin;a;b;leaf$" folded)" -ge 2 &&
	"$MPERF" record -q -m 512 --call-graph dwarf -e cpu-clock -o sh.data \
		sh -c "\"$CALLPATHS_NOFP\" 0.2; \"$CALLPATHS_NOFP\" 0.2" &&
	same_report sh.data --no-children -g none --percent-limit 1 &&
	"$MPERF" report -i sh.data --sort pid -g folded,0 >folded &&
	test "$(grep -c "^[0-9.]*% _start;__libc_start_main_impl (inlined);__libc_start_call_main;main;spin;a;b;leaf$" folded)" -ge 2
'

# report unwinds with rules libdw gives, cached per DSO and address, and
# sends a sample to libdw's own walk only when some frame needs more;
# MPERF_UNWIND=libdw sends every sample there.  Both must give the same
# frames, sample for sample: every line of script's call chains, and
# report's folded chains with no threshold (its inline frames and merge).
# The other orders and views are the same frames printed otherwise, which
# the comparisons with perf above check.
same_unwinding () {
	local v
	for v in "--no-children -g folded,0"; do
		# shellcheck disable=SC2086
		"$MPERF" report -i "$1" $v >fast.out 2>fast.err &&
		# shellcheck disable=SC2086
		MPERF_UNWIND=libdw "$MPERF" report -i "$1" $v >libdw.out 2>libdw.err &&
		test_must_be_empty fast.err && test_must_be_empty libdw.err &&
		grep -q "%" fast.out &&
		diff -u libdw.out fast.out >diff.out || { echo "# $1, view: $v"; head -n 40 diff.out fast.err libdw.err; return 1; }
	done
	"$MPERF" script -i "$1" >fast.out 2>fast.err &&
	MPERF_UNWIND=libdw "$MPERF" script -i "$1" >libdw.out 2>libdw.err &&
	test_must_be_empty fast.err && test_must_be_empty libdw.err &&
	diff -u libdw.out fast.out >diff.out || { echo "# $1: script"; head -n 40 diff.out; return 1; }
}

test_expect_success PERF 'the cached CFI rules unwind as libdw'"'"'s own walk: perf'"'"'s and mperf'"'"'s files' '
	"$MPERF" record -q -m 512 --call-graph dwarf -e cpu-clock -o - "$CALLPATHS_NOFP" 0.2 >upipe.data &&
	for f in p.data m.data ptwo.data two.data sh.data upipe.data; do
		same_unwinding $f || exit 1
	done
'

test_expect_success PERF 'the cached CFI rules unwind as libdw'"'"'s own walk: a system-wide dwarf file' '
	"$PERF" record -q --no-bpf-event -a --call-graph dwarf,4096 -e cpu-clock -o sys.data "$CALLPATHS_NOFP" 0.3 >/dev/null 2>&1 &&
	"$MPERF" report -i sys.data --sort comm -g none >comms &&
	grep -q "callpaths-nofp" comms &&
	same_unwinding sys.data &&
	"$MPERF" record -q -a -m 512 --call-graph dwarf,4096 -e cpu-clock -o msys.data "$CALLPATHS_NOFP" 0.3 &&
	same_unwinding msys.data
'

# libdw's walk keeps a Dwfl per process, with every module its samples
# reported: a process that execs keeps its pid but not its files, and
# the old image's modules must not stand for the files the new one maps
# at their addresses (a system-wide file has such processes: a shell's
# child until it execs).  Without ASLR, dash and dd are both mapped at
# the same address: dd's samples in libc (its reads) return into dd
# where the Dwfl had dash.  A walk that meets such a module starts anew.
have_noaslr () {
	setarch -R true
}

test_expect_success PERF,NOASLR 'the cached CFI rules unwind as libdw'"'"'s own walk: a process that execs another program' '
	"$MPERF" record -q -m 512 --call-graph dwarf -e cpu-clock -o exec.data setarch -R sh -c \
		"i=0; while [ \$i -lt 30000 ]; do i=\$((i+1)); done; exec dd if=/dev/zero of=/dev/zero bs=1M count=4000 status=none" &&
	"$MPERF" report -i exec.data --comm dd --no-children -g folded,0 >folded &&
	grep -q "^[0-9.]*% .*;__libc_start_call_main;" folded &&
	same_unwinding exec.data
'

test_expect_success PERF '-D equals perf'"'"'s on both dwarf files: registers and stack dumps' '
	for f in p.data m.data; do
		"$PERF" report -D -i $f 2>/dev/null | sed "/^cpu-clock stats:/,\$d" >perf.dump &&
		"$MPERF" report -D -i $f | sed "/^cpu-clock stats:/,\$d" >mperf.dump &&
		grep -q "^\.\.\. user regs: mask 0xff0fff ABI 64-bit" mperf.dump &&
		grep -q "^\.\.\. ustack: size [0-9]*, offset 0x" mperf.dump &&
		diff -u perf.dump mperf.dump >diff.out || { head -n 40 diff.out; exit 1; }
	done
'

test_expect_success PERF 'a pipe-mode dwarf stream: perf'"'"'s Self view and graph' '
	"$MPERF" record -q -m 512 --call-graph dwarf -e cpu-clock -o - "$CALLPATHS_NOFP" 0.2 >pipe.data &&
	for v in "" "-g folded" "-g callee"; do
		"$PERF" report --stdio -i - $v <pipe.data 2>/dev/null | report_filter >perf.out &&
		"$MPERF" report -i - $v <pipe.data 2>mperf.err | report_filter >mperf.out &&
		test_must_be_empty mperf.err &&
		grep -q "main" mperf.out &&
		diff -u perf.out mperf.out || exit 1
	done
'

# A file read where its binary is gone and the build-id cache is empty (as
# on another machine): perf unwinds as far as the files it has, and takes
# the vdso of a file that names its build id from the cache alone, this
# machine's own or not; so do mperf's views and script.  The views with
# chains from 1%, as above: a run on a busy machine met the tie order of
# single-sample entries (0.05%) in the Children view.
test_expect_success PERF 'the binary gone, the build-id cache empty: perf'"'"'s views, the vdso unresolved as perf leaves it' '
	cp "$CALLPATHS_NOFP" ./gone &&
	"$PERF" record -q --no-bpf-event --call-graph dwarf -e cpu-clock -o gone.data ./gone 0.5 >/dev/null 2>&1 &&
	rm gone && mkdir -p empty &&
	for v in "--percent-limit 1" "--no-children --percent-limit 1" "--sort dso,sym -g none"; do
		# shellcheck disable=SC2086
		HOME=$PWD/empty "$PERF" report --stdio -i gone.data $v 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
		# shellcheck disable=SC2086
		HOME=$PWD/empty "$MPERF" report -i gone.data $v 2>/dev/null | grep -v "^# (Tip:" >mperf.out &&
		diff -u perf.out mperf.out || exit 1
	done &&
	grep -q "\[vdso\] *\[\.\] 0x" perf.out &&
	HOME=$PWD/empty "$PERF" script -i gone.data >perf.out 2>/dev/null &&
	HOME=$PWD/empty "$MPERF" script -i gone.data >mperf.out 2>/dev/null &&
	diff -u perf.out mperf.out
'

test_done
