#!/usr/bin/env bash
# Demangled names: C++ (a class template's members in a namespace, an
# overload, an operator) and Rust (legacy and v0 mangling) programs, built
# here when g++ or rustc is installed, recorded by perf and by mperf;
# mperf report and mperf script show the names perf shows (libiberty's,
# without parameters), flat and with -g call chains; annotate's function
# lines are objdump -l -C's, with them.  Skipped without perf
# or the compiler.
. "$(dirname "$0")/lib.sh"

have_cxx () { command -v g++ >/dev/null 2>&1; }
# A rustc that answers: a rustup proxy with no toolchain is on PATH but
# compiles nothing.
have_rustc () { command -v rustc >/dev/null 2>&1 && rustc --version >/dev/null 2>&1; }

# same_names FILE: report (flat, and the Self view with chains, entries
# from 1%: below, fp chains through libc (built without frame pointers)
# give a few unresolved frames whose order is a tie) and script (every
# sample's symbol) of FILE equal perf's; the names are demangled.
same_names () {
	same_report "$1" --sort sym -g none --percent-limit 1 &&
	same_report "$1" --no-children -g folded --percent-limit 1 &&
	"$PERF" script -i "$1" -F ip,sym >perf.script 2>/dev/null &&
	"$MPERF" script -i "$1" -F ip,sym >mperf.script &&
	diff -u perf.script mperf.script &&
	! grep -q "_Z[A-Z0-9]\|_R[A-Za-z]*[0-9]" mperf.out
}

test_expect_success CXX,PERF 'C++: perf'"'"'s file, the same demangled names' '
	g++ -O1 -g -fno-omit-frame-pointer -o cxxspin "$MPERF_ROOT/tests/workloads/cxxspin.cpp" &&
	"$PERF" record --no-bpf-event -q -g -e cpu-clock -o cxx.data ./cxxspin 0.4 >/dev/null 2>&1 &&
	same_names cxx.data &&
	grep -q "\[\.\] ns::Box<long>::spin$" mperf.out &&
	grep -q "\[\.\] ns::Box<double>::spin$" mperf.out &&
	grep -q "ns::Box<long>::operator+=" mperf.out &&
	grep -q "\[\.\] twice$" mperf.out
'

test_expect_success CXX,PERF 'C++: annotate names a function as objdump -l -C does, with its parameters (perf annotate)' '
	"$PERF" annotate -i cxx.data --stdio "ns::Box<double>::spin" >perf.ann 2>/dev/null &&
	"$MPERF" annotate -i cxx.data --stdio "ns::Box<double>::spin" >mperf.ann &&
	grep -q "^ *: [0-9]* *ns::Box<double>::spin(long):$" mperf.ann &&
	diff -u perf.ann mperf.ann
'

test_expect_success CXX,PERF 'C++: mperf'"'"'s file, the same demangled names' '
	"$MPERF" record -q -g -e cpu-clock -o mcxx.data ./cxxspin 0.4 &&
	same_names mcxx.data &&
	grep -q "\[\.\] ns::Box<double>::spin$" mperf.out
'

test_expect_success RUSTC,PERF 'Rust, legacy and v0 mangling: the same demangled names' '
	rustc -O -g -C force-frame-pointers=yes -o rustspin "$MPERF_ROOT/tests/workloads/rustspin.rs" &&
	rustc -O -g -C force-frame-pointers=yes -C symbol-mangling-version=v0 -o rustspin0 \
		"$MPERF_ROOT/tests/workloads/rustspin.rs" &&
	"$PERF" record --no-bpf-event -q -g -e cpu-clock -o rust.data ./rustspin 0.4 >/dev/null 2>&1 &&
	same_names rust.data &&
	grep -q "\[\.\] rustspin::Acc<T>::spin$" mperf.out &&
	"$MPERF" record -q -g -e cpu-clock -o rust0.data ./rustspin0 0.4 &&
	same_names rust0.data &&
	grep -q "\[\.\] <rustspin::Acc<f64>>::spin$" mperf.out
'

test_done
