# tests/lib.sh: a small TAP library for mperf's end-to-end tests.
#
# Source it from tests/tNNNN-name.sh, then write a list of
#
#	test_expect_success [PREREQ] 'title' '
#		commands
#	'
#
# and end with test_done.  Each body runs in a subshell under `set -e`, in the
# test script's own scratch directory (a fresh mktemp -d, removed on exit), so
# files left by one test are seen by the next ones but variables are not.
# Chain the commands of a body with && all the same: bash ignores set -e inside
# an && or || list, an if or while condition and any function called from
# them, and a for loop's status is only its last iteration's (end a failing
# check inside a loop with `|| exit 1`).
# Output of a body is kept quiet; it is shown as "#" diagnostics when the test
# fails, or always when the script runs with -v (or MPERF_TEST_VERBOSE=1; not
# TEST_VERBOSE, which prove -v sets).
# MPERF_TEST_TIMES=1 appends each test's wall time to its TAP line ("# 1234 ms"),
# to find where a slow script spends its time.
#
# PREREQ is a comma-separated list of names; name FOO is satisfied when the
# shell function have_foo succeeds (the answer is cached), !FOO when it
# fails.  A missing one skips the test instead of failing it.
#
# Known environment: CORPUS (the corpus's directory; prerequisite CORPUS), MPERF, NOPLOOP, CPUSPIN, TWOPHASE, CALLPATHS, CALLPATHS_NOFP, SHARES_OLD,
# SHARES_NEW (absolute paths to the built binaries), MPERF_ROOT (the repository), TRASH_DIRECTORY (the scratch
# directory), PERF (the perf binary to compare against, default: perf).
#
# Workloads: `noploop N` spins for N seconds of wall time, `cpuspin N` until
# it has used N seconds of CPU time, `callpaths N` the same along known call
# paths (spin -> a -> b -> leaf, a helper shared by a and c, recursion),
# in THREADS threads with a second argument; `callpaths-nofp` the same built -O2
# -fomit-frame-pointer, for DWARF unwinding; `shares N` (SHARES_OLD, SHARES_NEW: two
# builds named shares) spends N seconds of CPU time in f and g, 70%/25% in the old
# build and 40%/55% in the new one, plus old_only or new_only 5%; SHARES_BASE, SHARES_HOT and
# SHARES_SLOW are the gate's builds (f 70 g 25; f 84, 20% more work; all 15% more work), and
# `shares -n ROUNDS` does a fixed amount of work; `noperf CMD` (NOPERF) runs CMD under a
# seccomp filter that refuses perf_event_open, as a container's profile does.  A test that
# predicts a sample count
# runs cpuspin: cpu-clock samples the CPU time of the task, which is what a
# wall-clock loop does not get on a busy machine.

test_count=0
test_failed=0
test_fixed=0
test_broken=0
test_verbose=${MPERF_TEST_VERBOSE:-}

for arg in "$@"; do
	case $arg in
	-v|--verbose) test_verbose=1 ;;
	esac
done

# fd 8: the TAP stream, for what must reach it from inside a redirection.
exec 8>&1

TEST_DIRECTORY=$(cd "$(dirname "$0")" && pwd)
MPERF_ROOT=$(cd "$TEST_DIRECTORY/.." && pwd)
# the mperf under test: make check passes its build's (MPERF_BIN: ./mperf,
# or build-san/mperf of make B=build-san SANITIZE=...)
MPERF=${MPERF_BIN:-$MPERF_ROOT/mperf}
# make's build directory (B=, make check passes it on): the workloads and unit tests
MPERF_BUILD=$MPERF_ROOT/${MPERF_BUILD_DIR:-build}
NOPLOOP=$MPERF_BUILD/workloads/noploop
CPUSPIN=$MPERF_BUILD/workloads/cpuspin
TWOPHASE=$MPERF_BUILD/workloads/twophase
CALLPATHS=$MPERF_BUILD/workloads/callpaths
CALLPATHS_NOFP=$MPERF_BUILD/workloads/callpaths-nofp
SHARES_OLD=$MPERF_BUILD/workloads/old/shares
SHARES_NEW=$MPERF_BUILD/workloads/new/shares
SHARES_BASE=$MPERF_BUILD/workloads/base/shares
SHARES_HOT=$MPERF_BUILD/workloads/hot/shares
SHARES_SLOW=$MPERF_BUILD/workloads/slow/shares
NOPERF=$MPERF_BUILD/workloads/noperf
PERF=${PERF:-perf}
export MPERF NOPLOOP CPUSPIN TWOPHASE CALLPATHS CALLPATHS_NOFP SHARES_OLD SHARES_NEW SHARES_BASE SHARES_HOT SHARES_SLOW \
	NOPERF MPERF_ROOT MPERF_BUILD PERF

if ! test -x "$MPERF" || ! test -x "$NOPLOOP" || ! test -x "$CPUSPIN"; then
	echo "1..0 # SKIP $MPERF, $NOPLOOP or $CPUSPIN not built (run make)"
	exit 0
fi

# Locale-independent messages and number formats, from us and from perf.
LC_ALL=C
LANG=C
export LC_ALL LANG

# The sanitizer pass (make check SANITIZE=..., MPERF_TEST_SANITIZED=1):
# LeakSanitizer's check at each process's exit costs about 60 ms of CPU on
# the 2-CPU machines CI runs on, whatever the process (a C program that
# prints one line too), and this suite starts a few thousand mperf
# processes.  Leaks are checked in the unit tests and in the scripts that
# set MPERF_TEST_LEAKS=1 before sourcing this file: those that run each
# command over real and damaged files; the other scripts' processes run
# with AddressSanitizer and UBSan alone.
if test -n "${MPERF_TEST_SANITIZED:-}" && test -z "${MPERF_TEST_LEAKS:-}"; then
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
fi

TRASH_DIRECTORY=$(mktemp -d "${TMPDIR:-/tmp}/mperf-test.XXXXXX") || {
	echo "Bail out! cannot create a scratch directory"
	exit 1
}
export TRASH_DIRECTORY
# Test output is kept outside the scratch directory, where tests look.
test_out_=$TRASH_DIRECTORY.out
# perf record and mperf record fill the build-id cache $HOME/.debug: a
# home of the test's own, so the runner's is never touched (and never read).
test_home_=$TRASH_DIRECTORY.home
# Toolchains that find their installation through $HOME (rustup's proxies
# look for their toolchains in $HOME/.rustup) keep finding it there.
if test -z "${RUSTUP_HOME-}" && test -d "$HOME/.rustup"; then
	RUSTUP_HOME=$HOME/.rustup
	export RUSTUP_HOME
fi
if test -z "${CARGO_HOME-}" && test -d "$HOME/.cargo"; then
	CARGO_HOME=$HOME/.cargo
	export CARGO_HOME
fi
HOME=$test_home_
export HOME
mkdir -p "$HOME" || exit 1
trap 'cd / >/dev/null 2>&1; rm -rf "$TRASH_DIRECTORY" "$test_out_" "$test_home_"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$TRASH_DIRECTORY" || exit 1

# The tests' Python: Debian's, where check-deps installs its modules
# (python3-markdown) and which starts in a tenth of the time of a version
# manager's shim first in PATH (a shim is a shell script: 0.3 s a call);
# else the PATH's.
if test -x /usr/bin/python3; then
	python3 () { /usr/bin/python3 "$@"; }
fi

# --- prerequisites ----------------------------------------------------------

# The tests that run perf live are make check-perf's (and CI's): make check
# sets MPERF_TEST_PERF=0, and they skip there.
have_perf () {
	test "${MPERF_TEST_PERF:-1}" != 0 &&
	command -v "$PERF" >/dev/null 2>&1 && "$PERF" --version >/dev/null 2>&1
}

# The real perf.data files of other machines, archs and perf versions
# (MPERF_CORPUS, by default ../shared/corpus/perf_data_converter): skipped
# without them on a developer's machine, a failure in CI (CI=true), where a
# missing corpus would silently skip every comparison on it.
CORPUS=${MPERF_CORPUS:-$MPERF_ROOT/../shared/corpus/perf_data_converter}
have_corpus () {
	test -r "$CORPUS/perf.data.busy.0-3.4" && test -r "$CORPUS/perf.data.callgraph-3.8" && return 0
	if test "${CI:-}" = true; then
		echo "Bail out! the corpus is missing: $CORPUS (CI=true: the corpus tests must run)" >&8
		exit 1
	fi
	return 1
}

# --- the corpus's views, as perf 6.1 printed them or as mperf prints them ---

# corpus_is_pipe FILE: a pipe-mode stream (read from stdin by both tools).
corpus_is_pipe () { case $1 in *piped*) return 0 ;; esac; return 1; }

# corpus_dump_body: the dump up to the stats; perf's random vdso temp name
# (pipe mode) as mperf prints it, [vdso]; perf's decoded Intel PT packets
# (mperf does not decode them: it prints the AUXTRACE record alone);
# trailing blank lines.
corpus_dump_body () {
	sed '/^Aggregated stats:/,$d; s#/tmp/perf-vdso\.so-[A-Za-z0-9]*#[vdso]#g' |
	sed '/^\.$/{N;/\n\. \.\.\. Intel Processor Trace data/d;P;D}; /^\.  [0-9a-f]\{8\}:  /d' |
	sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# corpus_kallsyms_ids: the build ids of the kernels a tool's stderr (on
# stdin) says it found no symbols for, in perf's words or in mperf's
# ("mperf report: warning: " before them), joined by commas; "-" for none.
corpus_kallsyms_ids () {
	sed -n "s/^\(mperf report: warning: \)\{0,1\}No kallsyms or vmlinux with build-id \([0-9a-f]*\) was found$/\2/p" |
	paste -s -d, - | grep . || echo -
}

# corpus_view VIEW TOOL FILE [OPTIONS...]: what TOOL ("$PERF" or "$MPERF")
# prints of the corpus FILE in VIEW (dump: report -D up to the stats;
# header: report --header-only; headerI: with -I; stdio: report --stdio but
# for perf's tip line), with OPTIONS, on stdout; TOOL's stderr on fd 3.  Run in the
# corpus, so that the file's name in the dump does not depend on where the
# corpus is.
corpus_view () {
	local view=$1 tool=$2 f=$3
	shift 3
	case $view in
	dump) set -- -D "$@" ;;
	header) set -- --header-only "$@" ;;
	headerI) set -- --header-only -I "$@" ;;
	stdio) set -- --stdio "$@" ;;
	esac
	(
		cd "$CORPUS" || exit 1
		if corpus_is_pipe "$f"; then
			"$tool" report "$@" -i - <"$f" 2>&3
		else
			"$tool" report "$@" -i "$f" 2>&3
		fi
	) | case $view in
		dump) corpus_dump_body ;;
		stdio) grep -v "^# (Tip:" ;;
		# "captured on" is the file's mtime, which a copy of the corpus changes.
		header|headerI) grep -v "^# captured on" ;;
		*) cat ;;
	esac
}

# PLAIN: the plain pass, not the sanitizer pass (make check SANITIZE=...
# sets MPERF_TEST_SANITIZED=1): for tests that run none of mperf's code
# (source checks, the man pages' lint, make install) or only its -h text
# (the completion), or run another program on its output (a browser on
# an SVG), which the plain pass has run already.
have_plain () { test -z "${MPERF_TEST_SANITIZED:-}"; }
have_python () { command -v python3 >/dev/null 2>&1; }
# a headless Chromium runs the SVG's script: not mperf's code (see PLAIN)
# A browser's tests are make check-perf's, as perf's are (a headless
# Chromium is seconds of CPU a page: a tenth of make check's time).
have_chromium () { have_plain && test "${MPERF_TEST_PERF:-1}" != 0 && command -v chromium >/dev/null 2>&1; }

# syms FILE perf|mperf: the symbols of report --sort sym of FILE, one a line.
syms () {
	if test "$2" = perf
	then
		"$PERF" report --stdio --sort sym -i "$1" 2>/dev/null
	else
		"$MPERF" report --sort sym -i "$1"
	fi | sed -n 's/^ *[0-9.]*% *\[[.k]\] *//p'
}

# SETUP: always there; it marks a test whose files later PERF tests read,
# so that make check-perf (MPERF_TEST_ONLY_PERF=1) runs it too.
have_setup () { :; }

# No hardware PMU: the kernel refuses `cycles` and mperf records cpu-clock
# in its place.  perf's answer when it is there, so that a fallback mperf
# took wrongly cannot make its own prerequisite true; mperf's otherwise.
have_nopmu () {
	if have_perf; then
		"$PERF" stat -x, -e cycles true 2>&1 >/dev/null | grep -q '^<not supported>,'
	else
		"$MPERF" record -e cycles -o "$TRASH_DIRECTORY/.nopmu.data" true 2>&1 >/dev/null |
			grep -q "falling back to 'cpu-clock'"
		local rc=$?
		rm -f "$TRASH_DIRECTORY/.nopmu.data" "$TRASH_DIRECTORY/.nopmu.data.old"
		return $rc
	fi
}

# Another user (nobody, 65534) at hand: root with setpriv(1).  as_nobody CMD
# runs CMD as that user, without root's groups; it needs a directory it may
# write (chmod 777) for what it writes.
have_nobody () {
	test "$(id -u)" = 0 && command -v setpriv >/dev/null
}
as_nobody () { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# Tracepoints need tracefs (prerequisite TRACEFS): mounted here when we are
# root and it is not.
have_tracefs () {
	test -d /sys/kernel/tracing/events || test -d /sys/kernel/debug/tracing/events || {
		test "$(id -u)" = 0 && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
		test -d /sys/kernel/tracing/events
	}
}

# TMPFS: a full disk at hand: root mounts a 1 MB tmpfs on tiny/ in the
# scratch directory (a test's last SETUP test unmounts it).
have_tmpfs () {
	test "$(id -u)" = 0 && mkdir -p "$TRASH_DIRECTORY/tiny" &&
	mount -t tmpfs -o size=1m none "$TRASH_DIRECTORY/tiny"
}

test_have_prereq () {
	local list=$1 p var fn want
	local IFS=,
	for p in $list; do
		want=yes
		case $p in
		!*) want=no p=${p#!} ;;
		esac
		var=test_prereq_$(echo "$p" | tr 'A-Z-' 'a-z_')
		fn=have_$(echo "$p" | tr 'A-Z-' 'a-z_')
		if test -z "${!var:-}"; then
			# a prerequisite nobody defined would be a test skipped forever
			declare -F "$fn" >/dev/null ||
				{ echo "error: prerequisite $p has no function $fn" >&2; exit 1; }
			if "$fn" >/dev/null 2>&1; then
				printf -v "$var" yes
			else
				printf -v "$var" no
			fi
		fi
		if test "${!var}" != "$want"; then
			test_missing_prereq=$(test $want = yes || echo '!')$p
			return 1
		fi
	done
	return 0
}

# --- assertion helpers (for use inside test bodies) -------------------------

# fail MESSAGE: make the current test fail with MESSAGE.
fail () {
	echo "error: $*" >&2
	return 1
}

# test_expect_code CODE CMD [ARGS]: run CMD, fail unless it exits with CODE.
test_expect_code () {
	local want=$1 got=0
	shift
	"$@" || got=$?
	if test "$got" != "$want"; then
		echo "error: '$*' exited $got, expected $want" >&2
		return 1
	fi
}

# test_line_count OP N FILE: wc -l FILE compared with OP (=, -ge, -le, ...).
test_line_count () {
	local n
	n=$(wc -l <"$3")
	if ! test "$n" "$1" "$2"; then
		echo "error: $3 has $n lines, expected $1 $2:" >&2
		sed 's/^/| /' "$3" >&2
		return 1
	fi
}

# test_must_be_empty FILE
test_must_be_empty () {
	if test -s "$1"; then
		echo "error: '$1' is not empty:" >&2
		sed 's/^/| /' "$1" >&2
		return 1
	fi
}

# test_between LO HI N [LABEL]: LO <= N <= HI (integers).
test_between () {
	if ! test "$3" -ge "$1" 2>/dev/null || ! test "$3" -le "$2"; then
		echo "error: ${4:-value} $3 is not between $1 and $2" >&2
		return 1
	fi
}

# test_within_pct PCT N1 N2...: max-min is at most PCT percent of max.
test_within_pct () {
	local pct=$1 n min max
	shift
	min=$1 max=$1
	for n in "$@"; do
		test "$n" -ge 0 2>/dev/null || { fail "not a count: '$n'"; return 1; }
		test "$n" -lt "$min" && min=$n
		test "$n" -gt "$max" && max=$n
	done
	if test $(( (max - min) * 100 )) -gt $(( pct * max )); then
		echo "error: counts $* differ by more than $pct% (min $min, max $max)" >&2
		return 1
	fi
}

# test_cpu_samples N CPU_MS PERIOD_NS [LABEL]: N samples of a cpu-clock
# event with period PERIOD_NS are what CPU_MS ms of the workload's CPU time
# implies: at least CPU_SAMPLES_PCT percent of it, at most 125%.  The timer
# runs while the task runs, but how many of its periods a VM delivers
# depends on the host: 86% has been seen on an idle VM, 93.5% on a loaded
# one.  So the floor catches samples lost wholesale (the multi-event
# starvation this project exists for gave 37%), not a few percent; the
# tests that need every sample count them exactly (t1002's final drain).
# The timer also runs through time the kernel may charge elsewhere
# (interrupts under IRQ time accounting, a hypervisor's steal time), hence
# the looser upper bound, which still catches samples written twice.
CPU_SAMPLES_PCT=75
test_cpu_samples () {
	local want=$(( $2 * 1000000 / $3 ))
	test_between $(( want * CPU_SAMPLES_PCT / 100 )) $(( want * 125 / 100 )) "$1" \
		"${4:-samples} (${2} ms of CPU at ${3} ns: about $want)"
}

# cpu_ms PID: the CPU time (user + system) PID has used so far, in ms.
cpu_ms () {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	# Fields after "(comm) ", which may hold spaces: utime and stime are
	# the 14th and 15th of the line, the 12th and 13th of this rest.
	set -- ${stat##*) }
	echo $(( (${12} + ${13}) * 1000 / $(getconf CLK_TCK) ))
}

# wait_cpu_ms PIDFILE MS: wait until the process whose pid PIDFILE holds
# (once it exists) has used MS ms of CPU time, and print how much it has.
# Waiting on CPU time, not on a sleep, keeps what a signal interrupts the
# same on a busy machine.  Gives up after 120 s of wall time.
wait_cpu_ms () {
	local n=0 ms
	while test $n -lt 1200; do
		if test -s "$1" && ms=$(cpu_ms "$(cat "$1")") && test "$ms" -ge "$2"; then
			echo "$ms"
			return 0
		fi
		sleep 0.1
		n=$((n + 1))
	done
	fail "no $2 ms of CPU time from pid '$(cat "$1" 2>/dev/null)' in 120 s"
}

# spin_bg SECONDS: a cpuspin in the background, its pid in spin.pid, for
# the tests that watch a running process (-p); stop_spin ends it.
spin_bg () {
	"$CPUSPIN" "$1" &
	echo $! >spin.pid
}
stop_spin () {
	kill "$(cat spin.pid)" 2>/dev/null || true
	wait "$(cat spin.pid)" 2>/dev/null || true
}

# perf_record ARGS...: perf record -q, its output and messages dropped (a
# test that wants them defines its own after sourcing this file).  With
# --no-bpf-event, as the perf recordings of the comparison tests: perf 6.1
# otherwise waits about half a second for its side-band thread as it ends
# (perf record -- true: 1.4 s against 0.9 s), and the BPF records are not
# what they compare (the corpus has a file with them).  With --buildid-all:
# perf orders tied call-chain siblings of two DSOs by its objects'
# addresses; those it makes as it reads the BUILD_ID feature follow the
# feature's order, those it makes later (a DSO only a chain reaches) land
# wherever its heap has room after the symbol loading before them, so
# their order depends on the recording (t3045 failed 2 runs in 40 beside
# two busy loops; with every DSO in the feature, 0 in 60).
perf_record () { "$PERF" record -q --no-bpf-event --buildid-all "$@" >/dev/null 2>&1; }

# perf_files SECONDS: f.data (flat) and g.data (-g), recorded by perf here
# of a directory listing then SECONDS of cpuspin: the sort-key tests' files.
perf_files () {
	local work="ls -lR /usr/include/linux >/dev/null; \"$CPUSPIN\" $1"
	perf_record -o f.data -e cpu-clock sh -c "$work" &&
	perf_record -o g.data -g -e cpu-clock sh -c "$work" &&
	"$MPERF" report -i g.data --sort comm | grep -q "cpuspin"
}

# report_filter: what of report --stdio is not compared with perf: its
# random tip line, and the " (inlined)" perf 6.1 leaves off an elided
# inline frame.  A test may define its own after sourcing this file.
report_filter () {
	grep -v '^# (Tip:\|^# (Cannot load tips' | sed -E 's/--\[\.\.\.\] \(inlined\)$/--[...]/'
}

# same_report FILE [OPTIONS...]: perf report --stdio and mperf report of
# FILE with OPTIONS, each through report_filter, are the same (perf.out,
# mperf.out; the head of the diff shown otherwise), and mperf says nothing
# on stderr.
same_report () {
	local f=$1
	shift
	"$PERF" report --stdio -i "$f" "$@" 2>/dev/null | report_filter >perf.out &&
	"$MPERF" report -i "$f" "$@" 2>mperf.err | report_filter >mperf.out &&
	test_must_be_empty mperf.err &&
	test "$(grep -c "^# Samples:" perf.out)" -ge 1 &&
	diff -u perf.out mperf.out >diff.out || { head -n 60 diff.out; return 1; }
}

# corpus_report FILE OPTS...: as same_report, on a corpus file whose kernel
# is not this one (both warn of it on stderr).
corpus_report () {
	local f=$CORPUS/$1
	shift
	"$PERF" report --stdio -i "$f" "$@" 2>/dev/null | report_filter >perf.out &&
	"$MPERF" report -i "$f" "$@" 2>/dev/null | report_filter >mperf.out &&
	test "$(grep -c "^# Samples:" perf.out)" -ge 1 &&
	diff -u perf.out mperf.out
}

# synth_branches FILE SEED BINARY [OPTIONS...]: a file with branch stacks
# (synth-samples.py --branches SEED OPTIONS) between BINARY's functions:
# from and to the start of each and a few bytes into it, and its ELF
# header (a map, no symbol); this machine has no LBR to record them.
synth_branches () {
	local f=$1 seed=$2 bin=$3 offs
	shift 3
	offs=$(nm "$bin" | while read -r a t name; do
		case $t in
		t|T) printf "0x%x 0x%x " $((0x$a)) $((0x$a + 4)) ;;
		esac
	done; echo 0x40) &&
	python3 "$MPERF_ROOT/tests/synth-samples.py" --branches "$seed" "$@" "$f" "$bin" 0x555555554000 \
		$offs $offs $offs
}

# --- the test driver --------------------------------------------------------

test_print_output_ () {
	sed 's/^/# /' "$test_out_"
}

# test_time_ start|end: with MPERF_TEST_TIMES=1, note the time, then print the
# time since as a TAP comment.
test_time_ () {
	test -n "${MPERF_TEST_TIMES:-}" || return 0
	case $1 in
	start) test_t0_=$(date +%s%N) ;;
	end) echo " # $(( ($(date +%s%N) - test_t0_) / 1000000 )) ms" ;;
	esac
}

# test_run_ BODY: run BODY in a subshell with set -e, output to $test_out_.
# The subshell is a command of its own (not part of an && / || / if), so bash
# honours set -e inside it.
test_run_ () {
	(
		set -e
		cd "$TRASH_DIRECTORY"
		eval "$1"
	) </dev/null >"$test_out_" 2>&1
	test_rc_=$?
	return 0
}

test_parse_args_ () {
	test_prereq_=
	if test $# -gt 3; then
		# a quote in the body ended it early: the rest came as more words
		test_title_=$2
		test_body_="echo \"$# arguments to test_expect_success, not 3: a quote in the body?\"; false"
		return
	fi
	if test $# -eq 3; then
		test_prereq_=$1
		shift
	fi
	test_title_=$1
	test_body_=$2
}

test_skip_if_missing_ () {
	# make check-perf runs only what make check skipped: the tests that run
	# perf or a browser, and those marked SETUP, whose files they read.
	if test "${MPERF_TEST_ONLY_PERF:-0}" = 1; then
		case ,$test_prereq_, in
		*,PERF,*|*,CHROMIUM,*|*,SETUP,*) ;;
		*) test_skip "$test_title_" "make check runs it"; return 0 ;;
		esac
	fi
	test -z "$test_prereq_" && return 1
	test_missing_prereq=
	test_have_prereq "$test_prereq_" && return 1
	test_skip "$test_title_" "missing ${test_missing_prereq:-$test_prereq_}"
	return 0
}

# test_expect_success [PREREQ] 'title' 'commands'
test_expect_success () {
	test_parse_args_ "$@"
	test_skip_if_missing_ && return 0
	test_count=$((test_count + 1))
	test_time_ start
	test_run_ "$test_body_"
	if test "$test_rc_" = 0; then
		# (the time's $(...) is a fork: only when asked for)
		echo "ok $test_count - $test_title_${MPERF_TEST_TIMES:+$(test_time_ end)}"
		test -n "$test_verbose" && test_print_output_
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $test_title_"
		test_print_output_
		# prove shows only stderr of a run that is not verbose (a CI log).
		test -n "$test_verbose" || { echo "# not ok $test_count - $test_title_"; test_print_output_ | tail -n 40; } >&2
	fi
	return 0
}

# test_expect_failure [PREREQ] 'title' 'commands': a known breakage (TAP TODO).
test_expect_failure () {
	test_parse_args_ "$@"
	test_skip_if_missing_ && return 0
	test_count=$((test_count + 1))
	test_run_ "$test_body_"
	if test "$test_rc_" = 0; then
		test_fixed=$((test_fixed + 1))
		echo "ok $test_count - $test_title_ # TODO known breakage vanished"
		test -n "$test_verbose" && test_print_output_
	else
		test_broken=$((test_broken + 1))
		echo "not ok $test_count - $test_title_ # TODO known breakage"
		test -n "$test_verbose" && test_print_output_
	fi
	return 0
}

# test_skip 'title' 'reason'
test_skip () {
	test_count=$((test_count + 1))
	echo "ok $test_count # skip $1 ($2)"
}

test_done () {
	echo "1..$test_count"
	if test "$test_fixed" -gt 0; then
		echo "# $test_fixed known breakage(s) vanished; mark them test_expect_success"
	fi
	if test "$test_broken" -gt 0; then
		echo "# still have $test_broken known breakage(s)"
	fi
	if test "$test_failed" -gt 0; then
		echo "# failed $test_failed among $test_count test(s)"
		exit 1
	fi
	exit 0
}
