#!/usr/bin/env bash
# report's kernel symbols from the build-id cache's copy of kallsyms (what
# a recording puts in ~/.debug/[kernel.kallsyms]/BUILDID/kallsyms): read
# in its place of /proc/kallsyms, which the kernel takes long to make,
# only when written since boot and starting as /proc/kallsyms does, while
# a thread compares the two whole.  When they differ (a module or BPF
# program came or went), the file is read again with /proc/kallsyms: the
# report, stdout and stderr, is always the one /proc/kallsyms gives.
# Which file is read is seen through strace (skipped without it), in a
# second run of each report.
. "$(dirname "$0")/lib.sh"

# /proc/kallsyms shows this user its addresses (root, or kptr_restrict 0)
have_kaddrs () {
	awk 'NR == 1 { exit $1 ~ /^0+$/ } NR > 1 { exit 1 }' /proc/kallsyms
}
have_strace () { command -v strace >/dev/null 2>&1; }

# The recordings made here put the copy in this test's HOME/.debug.
have_kcopy () { test -n "$(copy_path)"; }
copy_path () { find "$HOME/.debug/[kernel.kallsyms]" -name kallsyms -type f 2>/dev/null | head -n 1; }

# report NAME ARGS...: mperf report into NAME.out and NAME.err, its exit
# status in NAME.rc; fails when mperf does.  With strace, the same run
# again lists each file it opened (any thread) in NAME.opens: a second
# run, as LeakSanitizer (make check SANITIZE=...) cannot run under ptrace;
# not with NOTRACE=1 (the loops over every view, which compare outputs).
report () {
	local name=$1 rc=0
	shift
	"$MPERF" report "$@" >"$name.out" 2>"$name.err" || rc=$?
	echo $rc >"$name.rc"
	if have_strace && test -z "${NOTRACE:-}"; then
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -qq -e trace=openat -e signal=none -o "$name.trace" \
			"$MPERF" report "$@" >/dev/null 2>&1
		# the path of each call (one thread's call may end on a later line)
		sed -n 's/.*openat([^"]*"\([^"]*\)".*/\1/p' "$name.trace" >"$name.opens"
	fi
	return $rc
}

# The report as /proc/kallsyms gives it: in a HOME whose build-id cache
# is the recordings' without the copy (the vdso's image, say, is the
# cache's alone: without it a report resolves no [vdso] sample).
nohome () {
	rm -rf nohome && mkdir nohome &&
	cp -a "$HOME/.debug" nohome/.debug &&
	rm -rf "nohome/.debug/[kernel.kallsyms]"
}

reference () {
	local name=$1
	shift
	HOME=$PWD/nohome report "$name" "$@"
}

opens () { grep -cxF -- "$2" "$1.opens" || true; }

# each file in its views: g.data has chains, flat.data none, grp.data
# the values of a group read in its samples (kept per id as it is read)
views () {
	case $1 in
	g.data) printf '%s\n' "" "--no-children" "-g folded" "--sort sym -g none" ;;
	grp.data) printf '%s\n' "" "--group" ;;
	*) printf '%s\n' "" "--sort sym" ;;
	esac
}

test_expect_success KADDRS 'a recording with kernel samples leaves the copy in ~/.debug' '
	"$MPERF" record -q -g -e cpu-clock -o g.data -- dd if=/dev/zero of=/dev/null bs=1 count=300000 2>/dev/null &&
	"$MPERF" record -q -e cpu-clock -o flat.data -- dd if=/dev/zero of=/dev/null bs=1 count=300000 2>/dev/null &&
	"$MPERF" record -q -e "{cpu-clock,task-clock}:S" -o grp.data -- dd if=/dev/zero of=/dev/null bs=1 count=200000 2>/dev/null &&
	copy=$(copy_path) && test -n "$copy" &&
	cmp "$copy" /proc/kallsyms &&
	nohome &&
	cp -p "$copy" exact &&
	reference ref -i g.data --no-children -g none &&
	grep -q "\[k\] " ref.out
'

test_expect_success KADDRS,KCOPY 'the copy is read, and the report is /proc/kallsyms'"'"'s, in every view' '
	copy=$(copy_path) &&
	for f in g.data flat.data grp.data; do
		views $f | while read -r v; do
			NOTRACE=1 reference ref -i $f $v &&
			NOTRACE=1 report got -i $f $v &&
			cmp ref.out got.out &&
			cmp ref.err got.err || exit 1
		done || exit 1
	done &&
	if have_strace; then
		reference ref -i g.data && report got -i g.data &&
		test "$(opens got "$copy")" -ge 2 &&
		test "$(opens got /proc/kallsyms)" -ge 1 &&
		test "$(opens ref "$copy")" = 0
	fi
'

# The copy with every symbol past its head renamed: read, found different
# from /proc/kallsyms, and the file read again.
test_expect_success KADDRS,KCOPY 'a copy that differs past its head: the file is read again, with /proc/kallsyms' '
	copy=$(copy_path) &&
	awk "NR > 2000 { \$3 = \$3 \"_stale\" } { print }" exact >"$copy" &&
	! cmp -s "$copy" /proc/kallsyms &&
	for f in g.data flat.data grp.data; do
		views $f | while read -r v; do
			NOTRACE=1 reference ref -i $f $v &&
			NOTRACE=1 report got -i $f $v &&
			cmp ref.out got.out &&
			cmp ref.err got.err &&
			! grep -q _stale got.out || exit 1
		done || exit 1
	done &&
	if have_strace; then
		reference ref -i g.data && report got -i g.data &&
		test "$(opens got "$copy")" -ge 2 &&
		test "$(opens got /proc/kallsyms)" -ge 2
	fi
'

test_expect_success KADDRS,KCOPY,STRACE 'a copy whose head differs is not read' '
	copy=$(copy_path) &&
	sed "1s/^\([0-9a-f]*\) [A-Za-z] /\1 T /; 1s/\$/_moved/" exact >"$copy" &&
	! cmp -s "$copy" /proc/kallsyms &&
	reference ref -i g.data &&
	report got -i g.data &&
	cmp ref.out got.out &&
	test "$(opens got "$copy")" = 1 &&
	test "$(opens got /proc/kallsyms)" -ge 2
'

test_expect_success KADDRS,KCOPY,STRACE 'a copy written before this boot is not read' '
	copy=$(copy_path) &&
	cp exact "$copy" &&
	touch -d @86400 "$copy" &&
	reference ref -i g.data &&
	report got -i g.data &&
	cmp ref.out got.out &&
	test "$(opens got "$copy")" = 0
'

test_expect_success KADDRS,KCOPY 'a stale copy said nothing: stderr is the reference'"'"'s, with an error in it' '
	copy=$(copy_path) &&
	awk "NR > 2000 { \$3 = \$3 \"_stale\" } { print }" exact >"$copy" &&
	cp flat.data cut.data &&
	size=$(wc -c <flat.data) &&
	truncate -s $((size / 2)) cut.data &&
	NOTRACE=1 test_expect_code 1 reference ref -i cut.data &&
	NOTRACE=1 test_expect_code 1 report got -i cut.data &&
	cmp ref.out got.out &&
	cmp ref.err got.err &&
	test -s got.err
'

# Every event excludes the kernel, and no sample is a kernel one: no
# thread reads kallsyms, and a file with chains does not wait for it.
test_expect_success STRACE 'a file of user samples reads neither /proc/kallsyms nor the copy' '
	"$MPERF" record -q -g -e cpu-clock:u -o u.data "$CALLPATHS" 0.2 &&
	copy=$(copy_path) &&
	for v in "" "--no-children --sort dso,sym"; do
		# shellcheck disable=SC2086
		report u -i u.data $v &&
		grep -q "\[\.\] leaf" u.out &&
		test "$(opens u /proc/kallsyms)" = 0 &&
		{ test -z "$copy" || test "$(opens u "$copy")" = 0; } || exit 1
	done &&
	# (LeakSanitizer cannot run under ptrace: as report above)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=openat -e signal=none -o script.trace "$MPERF" script -i u.data >script.out 2>&1 &&
	grep -q leaf script.out &&
	! grep -q kallsyms script.trace
'

test_done
