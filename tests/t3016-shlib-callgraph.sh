#!/usr/bin/env bash
# Call graphs that cross a shared library: libpaths-main calls into
# libpaths.so and the library calls back into the program (see
# tests/workloads/libpaths.c), built here with frame pointers for -g and
# without (-O2 -fomit-frame-pointer) for --call-graph dwarf.  Recorded by
# perf and by mperf each way, mperf report equals perf report --stdio in
# every view, byte for byte but for perf's tip line (dwarf files from 1%,
# as t3005 says why: here ld.so also finds the library by $ORIGIN before
# main, where libunwind and libdw part now and then), and perf reads
# mperf's files with the same chains.  mperf annotate counts the samples
# of the hot functions of both DSOs at the addresses perf annotate does.
. "$(dirname "$0")/lib.sh"

have_cc () { command -v cc >/dev/null 2>&1; }

# Every frame of every chain, in both accumulations; how a chain is drawn
# (-G, callee, flat) is t3003's to compare.
VIEWS=(
	""
	"--no-children"
	"-g folded"
	"--no-children -g folded"
	"-g caller"
	"--sort sym"
	"--sort dso"
	"--sort dso,sym -g folded"
)

# all_views FILE [OPTIONS...]: every view of FILE equals perf's
all_views () {
	local f=$1 v
	shift
	for v in "${VIEWS[@]}"; do
		# shellcheck disable=SC2086
		same_report "$f" "$@" $v || { echo "# view: $v"; return 1; }
	done
}

W=$MPERF_ROOT/tests/workloads
NOFP="-O2 -g -fomit-frame-pointer -fno-inline -fno-optimize-sibling-calls -fno-ipa-cp -fno-ipa-sra -fno-ipa-icf"

test_expect_success CC,SETUP 'the program and its library build, with and without frame pointers' '
	mkdir fp dw &&
	cc -O0 -fno-omit-frame-pointer -fno-inline -fPIC -shared -Wall -o fp/libpaths.so "$W/libpaths.c" &&
	cc -O0 -fno-omit-frame-pointer -fno-inline -Wall -o fp/libpaths-main "$W/libpaths-main.c" \
		-Lfp -lpaths -Wl,-rpath,"\$ORIGIN" &&
	cc $NOFP -fPIC -shared -Wall -o dw/libpaths.so "$W/libpaths.c" &&
	cc $NOFP -Wall -o dw/libpaths-main "$W/libpaths-main.c" -Ldw -lpaths -Wl,-rpath,"\$ORIGIN" &&
	fp/libpaths-main 0.01 && dw/libpaths-main 0.01
'

test_expect_success PERF,CC 'perf -g file: every view equals perf'"'"'s' '
	"$PERF" record --no-bpf-event -q -g -e cpu-clock -o pg.data fp/libpaths-main 0.5 >/dev/null 2>&1 &&
	all_views pg.data
'

test_expect_success PERF,CC 'annotate: the samples at each address of every symbol from 1% are perf annotate -n'"'"'s, lib_leaf and cb_leaf among them' '
	"$PERF" annotate -i pg.data --stdio -n --percent-limit 1 >perf.ann 2>/dev/null &&
	"$MPERF" annotate -i pg.data --stdio -n --percent-limit 1 >mperf.ann 2>/dev/null &&
	sed -n "s/^ *\([0-9][0-9]*\) : *\([0-9a-f]*\):.*/\2 \1/p" perf.ann >perf.rows &&
	sed -n "s/^ *\([0-9][0-9]*\) : *\([0-9a-f]*\):.*/\2 \1/p" mperf.ann >mperf.rows &&
	grep -q "<lib_leaf>:$" mperf.ann && grep -q "<cb_leaf>:$" mperf.ann &&
	test -s perf.rows && diff -u perf.rows mperf.rows
'

test_expect_success PERF,CC 'mperf -g file: every view equals perf'"'"'s, and the paths cross the library' '
	"$MPERF" record -q -g -e cpu-clock -o mg.data fp/libpaths-main 0.5 &&
	all_views mg.data &&
	"$MPERF" report -i mg.data -g folded,0 --no-children >folded &&
	grep -q "^[0-9.]*% lib_leaf;lib_b;lib_a;main;" folded &&
	grep -q "^[0-9.]*% cb_leaf;cb;lib_a;main;" folded &&
	grep -q "^[0-9.]*% lib_leaf;lib_b;main;" folded &&
	"$MPERF" report -i mg.data --sort dso,sym >out &&
	grep -q "libpaths\.so  *\[\.\] lib_a$" out &&
	grep -q "libpaths-main  *\[\.\] cb$" out
'

test_expect_success PERF,CC 'perf'"'"'s dwarf file: every view equals perf'"'"'s (entries from 1%)' '
	"$PERF" record --no-bpf-event -q --call-graph dwarf -e cpu-clock -o pd.data dw/libpaths-main 0.5 >/dev/null 2>&1 &&
	all_views pd.data --percent-limit 1 &&
	same_report pd.data --no-children -g none
'

test_expect_success PERF,CC 'mperf'"'"'s dwarf file: every view equals perf'"'"'s (entries from 1%), the paths unwound through the library' '
	"$MPERF" record -q -m 512 --call-graph dwarf -e cpu-clock -o md.data dw/libpaths-main 0.5 &&
	all_views md.data --percent-limit 1 &&
	"$MPERF" report -i md.data -g folded,0 --no-children >folded &&
	grep -q "^[0-9.]*% lib_leaf;lib_b;lib_a;main;" folded &&
	grep -q "^[0-9.]*% cb_leaf;cb;lib_a;main;" folded
'

test_expect_success PERF,CC 'perf reads mperf'"'"'s -g and dwarf files without a word, with the same chains' '
	for f in mg md; do
		"$PERF" report --stdio -i $f.data -g folded --percent-limit 1 >perf.out 2>perf.err &&
		test_must_be_empty perf.err &&
		"$MPERF" report -i $f.data -g folded --percent-limit 1 >mperf.out &&
		grep "^[0-9.]*% " perf.out | sort >perf.chains &&
		grep "^[0-9.]*% " mperf.out | sort >mperf.chains &&
		grep -q "main;lib_a;cb;cb_leaf" mperf.chains &&
		diff -u perf.chains mperf.chains || exit 1
	done
'

test_done
