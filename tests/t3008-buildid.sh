#!/usr/bin/env bash
# Profiles that travel with their binaries, as perf's do: buildid-list
# against perf buildid-list (perf's files, mperf's, the corpus; -H), the
# build-id cache ~/.debug that perf record fills and report reads once a
# program is gone, and mperf archive's tarball unpacked into a fresh HOME.
# HOME is the trash directory's: the real ~/.debug is never touched.
. "$(dirname "$0")/lib.sh"

have_bzip2 () { command -v bzip2 >/dev/null 2>&1; }

HOME=$TRASH_DIRECTORY/home
export HOME
mkdir -p "$HOME"

# The test program, built here (the workload with known call paths) so
# that removing it removes the only copy outside the cache.
build_prog () {
	cc -O0 -fno-omit-frame-pointer -fno-inline -pthread -o "$1" "$MPERF_ROOT/tests/workloads/callpaths.c" 2>/dev/null ||
		cp "$CALLPATHS" "$1"
}

# perf's vdso, when it has no build id for it, is named after a temporary
# copy (a new name each run); mperf calls it [vdso].
norm_vdso () { sed 's#/tmp/perf-vdso\.so-[A-Za-z0-9]*$#[vdso]#'; }

# same_list [-H] FILE: mperf buildid-list equals perf's, byte for byte.
same_list () {
	local h=
	if test "$1" = -H; then h=-H; shift; fi
	if test "$1" = -; then
		"$PERF" buildid-list $h -i - <"$2" 2>/dev/null | norm_vdso >perf.list &&
		"$MPERF" buildid-list $h -i - <"$2" >mperf.list 2>mperf.err
	else
		"$PERF" buildid-list $h -i "$1" 2>/dev/null | norm_vdso >perf.list &&
		"$MPERF" buildid-list $h -i "$1" >mperf.list 2>mperf.err
	fi &&
	diff -u perf.list mperf.list
}

# The histograms without perf's tip line, 20 rows a section (as t3002).
rows () {
	grep -v '^# (Tip:\|^# (Cannot load tips' |
	awk '/^# Samples:/ { n = 0 } /^ +[0-9.]+%/ { if (++n > 20) next } { print }'
}

perf_report () { "$PERF" report --stdio --sort dso,sym -i "$1" 2>/dev/null | rows; }
mperf_report () { "$MPERF" report --sort dso,sym -i "$1" 2>/dev/null | rows; }

test_expect_success PERF 'perf record fills the cache; the program removed, report reads it as perf' '
	mkdir a && build_prog a/prog &&
	(cd a && "$PERF" record --no-bpf-event -q -e cpu-clock -o perf.data ./prog 0.3 >/dev/null 2>&1) &&
	bid=$("$MPERF" buildid-list -i a/prog) &&
	test -L "$HOME/.debug/.build-id/${bid:0:2}/${bid:2}" &&
	mperf_report a/perf.data >a/before &&
	grep -q "prog  *\[\.\] leaf$" a/before &&
	rm a/prog &&
	mperf_report a/perf.data >a/after &&
	perf_report a/perf.data >a/perf.after &&
	diff -u a/before a/after &&
	diff -u a/perf.after a/after
'

test_expect_success PERF 'without the cache, the same report shows the removed program as addresses' '
	HOME=$TRASH_DIRECTORY/empty mperf_report a/perf.data >a/nocache &&
	! grep -q "prog  *\[\.\] leaf$" a/nocache &&
	grep -q "prog  *\[\.\] 0x" a/nocache
'

test_expect_success PERF '--call-graph dwarf: the removed program unwound from its cache copy' '
	mkdir d && cp "$CALLPATHS_NOFP" d/prog &&
	(cd d && "$PERF" record --no-bpf-event -q -e cpu-clock --call-graph dwarf -o d.data ./prog 0.2 >/dev/null 2>&1) &&
	"$MPERF" report --no-children -i d/d.data 2>/dev/null | rows >d/before &&
	grep -q "leaf" d/before &&
	rm d/prog &&
	"$MPERF" report --no-children -i d/d.data 2>/dev/null | rows >d/after &&
	diff -u d/before d/after
'

test_expect_success PERF 'the old layout: .build-id/xx/rest the file itself' '
	bid=$("$MPERF" buildid-list -H -i a/perf.data | sed -n "s# $TRASH_DIRECTORY/a/prog\$##p") &&
	test -n "$bid" &&
	old=$TRASH_DIRECTORY/oldhome &&
	mkdir -p "$old/.debug/.build-id/${bid:0:2}" &&
	cp "$HOME/.debug/.build-id/${bid:0:2}/${bid:2}/elf" "$old/.debug/.build-id/${bid:0:2}/${bid:2}" &&
	HOME=$old mperf_report a/perf.data >a/old &&
	grep -q "prog  *\[\.\] leaf$" a/old
'

# cached_ids DIR: the build ids the links of the cache DIR name, sorted.
cached_ids () {
	(cd "$1/.build-id" && for l in */*; do echo "${l%%/*}${l#*/}"; done) | LC_ALL=C sort
}

# file_ids FILE: the build ids (not the zero ones) of FILE's BUILD_ID feature, sorted.
file_ids () {
	"$MPERF" buildid-list -i "$1" | awk '$1 !~ /^0+$/ { print $1 }' | LC_ALL=C sort -u
}

# entry DIR ID: the cache DIR's entry of build id ID: its link, then each
# file below the directory it leads to with its type and mode, a regular
# file's size too (not kallsyms': the kernel's symbols change as BPF
# programs come and go).
entry () {
	local t
	t=$(readlink "$1/.build-id/${2:0:2}/${2:2}") &&
	echo ".build-id/${2:0:2}/${2:2} -> $t" &&
	(cd "$1" && find "${t#../../}" \( -type f ! -name kallsyms -printf "%p %y %m %s\n" \) -o -printf "%p %y %m\n") |
		LC_ALL=C sort
}

test_expect_success PERF 'mperf record fills the cache as perf record does, each with its own file'\''s DSOs' '
	mkdir c phome mhome &&
	build_prog c/prog &&
	(cd c && HOME=$TRASH_DIRECTORY/phome "$PERF" record --no-bpf-event -q -e cpu-clock -o p.data ./prog 0.3 >/dev/null 2>&1) &&
	(cd c && HOME=$TRASH_DIRECTORY/mhome "$MPERF" record -q -e cpu-clock -o m.data ./prog 0.3 2>m.err) &&
	test ! -s c/m.err &&
	file_ids c/p.data >p.ids &&
	cached_ids phome/.debug >p.cached &&
	diff -u p.ids p.cached &&
	file_ids c/m.data >m.ids &&
	cached_ids mhome/.debug >m.cached &&
	diff -u m.ids m.cached &&
	pbid=$("$MPERF" buildid-list -i c/prog) &&
	LC_ALL=C comm -12 p.ids m.ids >both &&
	grep -qx "$pbid" both &&
	for id in $(cat both); do
		entry phome/.debug $id >p.entry &&
		entry mhome/.debug $id >m.entry &&
		diff -u p.entry m.entry || exit 1
	done &&
	test c/prog -ef "mhome/.debug/.build-id/${pbid:0:2}/${pbid:2}/elf" &&
	test c/prog -ef "phome/.debug/.build-id/${pbid:0:2}/${pbid:2}/elf"
'

test_expect_success PERF 'the program renamed, both reports of mperf'\''s file name its function from mperf'\''s cache' '
	mv c/prog c/prog.gone &&
	HOME=$TRASH_DIRECTORY/mhome mperf_report c/m.data >c/m.after &&
	HOME=$TRASH_DIRECTORY/mhome perf_report c/m.data >c/p.after &&
	grep -q "prog  *\[\.\] leaf$" c/m.after &&
	grep -q "prog  *\[\.\] leaf$" c/p.after &&
	diff -u c/p.after c/m.after &&
	HOME=$TRASH_DIRECTORY/empty mperf_report c/m.data >c/nocache &&
	! grep -q "prog  *\[\.\] leaf$" c/nocache
'

test_expect_success PERF 'nothing cached with -N, --no-buildid-cache, -o - or without HOME' '
	mkdir nhome nohome &&
	HOME=$TRASH_DIRECTORY/nhome "$MPERF" record -q -N -e cpu-clock -o n1.data "$CALLPATHS" 0.1 &&
	HOME=$TRASH_DIRECTORY/nhome "$MPERF" record -q --no-buildid-cache -e cpu-clock -o n2.data "$CALLPATHS" 0.1 &&
	HOME=$TRASH_DIRECTORY/nhome "$MPERF" record -q -e cpu-clock -o - "$CALLPATHS" 0.1 >n3.pipe &&
	(cd nohome && env -u HOME "$MPERF" record -q -e cpu-clock -o n4.data "$CALLPATHS" 0.1) &&
	test ! -e nhome/.debug &&
	test "$(ls -A nohome)" = n4.data &&
	for f in n1.data n2.data nohome/n4.data; do
		file_ids $f >ids && grep -q . ids || exit 1
	done &&
	"$MPERF" buildid-list -H -i - <n3.pipe | grep -q " $CALLPATHS$"
'

test_expect_success PERF 'a cache that cannot be written: one warning, exit 0, a file perf reads' '
	mkdir uhome vhome &&
	: >uhome/.debug &&
	HOME=$TRASH_DIRECTORY/uhome "$MPERF" record -e cpu-clock -o u.data "$CALLPATHS" 0.2 2>u.err &&
	grep "build-id cache" u.err >u.warn &&
	test_line_count = 1 u.warn &&
	grep -q "^mperf record: warning: cannot add .* to the build-id cache .$TRASH_DIRECTORY/uhome/.debug.: " u.warn &&
	grep -q "^\[ mperf record: Captured and wrote .* u.data " u.err &&
	test ! -s uhome/.debug &&
	same_list u.data &&
	"$PERF" report --stdio --sort sym -i u.data >u.perf 2>u.perf.err &&
	grep -q "\[\.\] leaf$" u.perf &&
	mkdir vhome/.debug &&
	: >vhome/.debug/.build-id &&
	HOME=$TRASH_DIRECTORY/vhome "$MPERF" record -e cpu-clock -o v.data "$CALLPATHS" 0.2 2>v.err &&
	grep "build-id cache" v.err >v.warn &&
	test_line_count = 1 v.warn &&
	same_list v.data
'

test_expect_success PERF,BZIP2 'mperf archive: a fresh HOME with the tarball unpacked, program removed, reads as before' '
	mkdir b && build_prog b/prog &&
	(cd b && "$MPERF" record -q -e cpu-clock -o m.data ./prog 0.3 >/dev/null 2>&1) &&
	HOME=$TRASH_DIRECTORY/recordhome &&
	mkdir -p "$HOME" &&
	test ! -e "$HOME/.debug" &&
	"$MPERF" archive b/m.data 2>b/err &&
	grep -q "^mperf archive: [0-9]* DSOs in .b/m.data.tar.bz2." b/err &&
	# the view of the recording machine, its cache as archive made it (the
	# image of the vdso is in the cache alone, as in perf)
	mperf_report b/m.data >b/before &&
	grep -q "prog  *\[\.\] leaf$" b/before &&
	tar tjf b/m.data.tar.bz2 | LC_ALL=C sort >b/mperf.tar &&
	pbid=$("$MPERF" buildid-list -i b/prog) &&
	grep -qx ".build-id/${pbid:0:2}/${pbid:2}" b/mperf.tar &&
	grep -q "/prog/$pbid/elf$" b/mperf.tar &&
	cp b/m.data b/p.data &&
	"$PERF" archive b/p.data >/dev/null 2>&1 &&
	tar tjf b/p.data.tar.bz2 | LC_ALL=C sort >b/perf.tar &&
	diff -u b/perf.tar b/mperf.tar &&
	rm b/prog &&
	HOME=$TRASH_DIRECTORY/otherhome &&
	mkdir -p "$HOME/.debug" &&
	tar xjf b/m.data.tar.bz2 -C "$HOME/.debug" &&
	mperf_report b/m.data >b/after &&
	perf_report b/m.data >b/perf.after &&
	diff -u b/before b/after &&
	diff -u b/perf.after b/after
'

test_expect_success PERF 'perf archive'\''s tarball, unpacked in a fresh HOME, is read the same way' '
	HOME=$TRASH_DIRECTORY/home &&
	"$PERF" archive a/perf.data >/dev/null 2>&1 &&
	HOME=$TRASH_DIRECTORY/perfhome &&
	mkdir -p "$HOME/.debug" &&
	tar xf a/perf.data.tar.bz2 -C "$HOME/.debug" &&
	mperf_report a/perf.data >a/unpacked &&
	diff -u a/before a/unpacked
'

test_expect_success PERF 'mperf archive: no build id to archive is exit 1 and no tarball; a stream is refused' '
	"$PERF" record --no-bpf-event -q -e cpu-clock --no-buildid -o n.data "$CALLPATHS" 0.1 >/dev/null 2>&1 &&
	"$MPERF" buildid-list -H -i n.data >n.ids &&
	test -s n.ids &&
	! grep -v "^ " n.ids &&
	test_expect_code 1 "$MPERF" archive n.data 2>err &&
	grep -q "no build-ids found" err &&
	test ! -e n.data.tar.bz2 &&
	test_expect_code 129 "$MPERF" archive - 2>err &&
	test_line_count = 2 err
'

test_expect_success PERF 'buildid-list equals perf'\''s: perf files, with and without -H' '
	"$PERF" record --no-bpf-event -q -e cpu-clock -o p1.data "$CALLPATHS" 0.2 >/dev/null 2>&1 &&
	"$PERF" record --no-bpf-event -q -e cpu-clock -g -o p2.data -- sh -c "\"$CPUSPIN\" 0.2 2; ls / >/dev/null" >/dev/null 2>&1 &&
	"$PERF" record --no-bpf-event -q -e cpu-clock --buildid-mmap -o p3.data "$CALLPATHS" 0.2 >/dev/null 2>&1 &&
	"$PERF" record --no-bpf-event -q -e cpu-clock --no-buildid -o p4.data "$CALLPATHS" 0.2 >/dev/null 2>&1 &&
	"$PERF" record --no-bpf-event -q -e cpu-clock -o - "$CALLPATHS" 0.2 2>/dev/null >p5.pipe &&
	"$PERF" inject -b <p5.pipe >p6.pipe &&
	"$PERF" inject -b -i p4.data -o p7.data &&
	for f in p1.data p2.data p3.data p4.data p7.data; do
		same_list "$f" && same_list -H "$f" || exit 1
	done &&
	for f in p5.pipe p6.pipe; do
		same_list - "$f" && same_list -H - "$f" || exit 1
	done &&
	grep -q "^[0-9a-f]\{40\} $CALLPATHS$" mperf.list
'

test_expect_success PERF 'buildid-list equals perf'\''s: mperf files, with and without -H' '
	"$MPERF" record -q -e cpu-clock -o m1.data "$CALLPATHS" 0.2 &&
	"$MPERF" record -q -e cpu-clock,task-clock -g -o m2.data -- sh -c "\"$CPUSPIN\" 0.2 2; ls / >/dev/null" &&
	"$MPERF" record -q -e cpu-clock -o - "$CALLPATHS" 0.2 >m3.pipe &&
	for f in m1.data m2.data; do
		same_list "$f" && same_list -H "$f" || exit 1
	done &&
	same_list - m3.pipe && same_list -H - m3.pipe &&
	"$MPERF" buildid-list -H -i m1.data >m1.hits &&
	grep -q " $CALLPATHS$" m1.hits
'

test_expect_success PERF '-k is the running kernel'\''s id, an ELF input its own' '
	"$PERF" buildid-list -k >perf.k &&
	"$MPERF" buildid-list -k >mperf.k &&
	diff perf.k mperf.k &&
	"$PERF" buildid-list -i "$CALLPATHS" >perf.elf &&
	"$MPERF" buildid-list -i "$CALLPATHS" >mperf.elf &&
	diff perf.elf mperf.elf &&
	test_line_count = 1 mperf.elf
'

# perf 6.1 cannot read these to the end: piped.intel_pt-4.14 ("bad event
# header size" at the first AUXTRACE; mperf lists its DSOs),
# piped.corrupted.zero_size_sample-3.2 (a record of size 0; both stop),
# piped.extrabyte-3.4 (one byte after the last record: perf takes it for
# the end and lists; mperf says the stream is truncated, exit 125).
skip=" perf.data.piped.intel_pt-4.14 perf.data.piped.corrupted.zero_size_sample-3.2 perf.data.piped.extrabyte-3.4 "

test_expect_success PERF,CORPUS 'buildid-list equals perf'\''s on every corpus file perf reads, with and without -H' '
	n=0 &&
	for f in $(cd "$CORPUS" && ls | grep -v -e LICENSE -e README); do
		case $skip in *" $f "*) continue ;; esac
		case $f in
		*piped*) same_list - "$CORPUS/$f" && same_list -H - "$CORPUS/$f" ;;
		*) same_list "$CORPUS/$f" && same_list -H "$CORPUS/$f" ;;
		esac || { echo "$f"; exit 1; }
		n=$((n + 1))
	done &&
	test $n -ge 40
'

test_expect_success PERF,CORPUS 'another machine'\''s kernel: its kallsyms from the cache, as perf reads it' '
	f=$CORPUS/perf.data.callgraph-3.4 &&
	kbid=$("$MPERF" buildid-list -i "$f" | sed -n "s/ \[kernel.kallsyms\]$//p") &&
	test -n "$kbid" &&
	HOME=$TRASH_DIRECTORY/khome &&
	mkdir -p "$HOME/.debug/[kernel.kallsyms]/$kbid" &&
	"$PERF" script -i "$f" -F ip,dso 2>/dev/null | sed -n "s/^[[:space:]]*\([0-9a-f]*\) (\[kernel.kallsyms\])$/\1/p" |
		sed "s/...$/000/" | LC_ALL=C sort -u | sed "s/.*/& T kfn_&/" >ksyms &&
	{ echo "ffffffff81000000 T _text" && echo "ffffffff81000190 T _stext" && cat ksyms; } |
		LC_ALL=C sort >"$HOME/.debug/[kernel.kallsyms]/$kbid/kallsyms" &&
	perf_report "$f" | grep "\[k\] kfn_" >perf.k &&
	mperf_report "$f" | grep "\[k\] kfn_" >mperf.k &&
	test "$(wc -l <mperf.k)" -ge 10 &&
	diff -u perf.k mperf.k &&
	HOME=$TRASH_DIRECTORY/nokhome mperf_report "$f" >nok &&
	! grep -q "kfn_" nok
'

# Another machine's kernel that perf's cache does not keep: a recording
# made here with one byte of its kernel's build id changed, read in an
# empty HOME.  perf shows the kernel samples as addresses, never this
# machine's symbols, and says once on stderr that it found no kallsyms
# for that id: mperf's report, its JSON, script and exports the same (and
# -D, diff, buildid-list -H, which resolve samples too).
flip () { python3 "$MPERF_ROOT/tests/flip-build-id.py" "$@"; }
# This kernel's symbols have addresses here (kptr_restrict lets us see them).
have_ksyms () { awk '$1 !~ /^0+$/ { f = 1; exit } END { exit !f }' /proc/kallsyms; }
no_tip () { grep -v '^# (Tip:\|^# (Cannot load tips'; }
# work that is mostly the kernel's (read and write system calls)
KWORK="dd if=/dev/zero of=/dev/null bs=4k count=100000 status=none"

# pprof_strings PROFILE: the string table of a profile.proto (field 6), one a line.
pprof_strings () {
	python3 - "$1" <<-\EOF
	import sys
	b = open(sys.argv[1], "rb").read()
	def varint(i):
	    v = s = 0
	    while True:
	        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
	        if c < 0x80:
	            return v, i
	i = 0
	while i < len(b):
	    k, i = varint(i)
	    if k & 7 == 0:
	        i = varint(i)[1]
	    elif k & 7 == 2:
	        n, i = varint(i)
	        if k >> 3 == 6:
	            print(b[i:i + n].decode(errors="replace"))
	        i += n
	    else:
	        i += 8 if k & 7 == 1 else 4
	EOF
}

# foreign_kernel RECORDER: record KWORK with RECORDER (perf or mperf) into
# k-RECORDER.data, flip its kernel's id into f-RECORDER.data, and check.
foreign_kernel () {
	local r=$1 f=f-$1.data
	if test "$r" = perf; then
		"$PERF" record --no-bpf-event -q -e cpu-clock -o k-$r.data -- $KWORK >/dev/null 2>&1
	else
		"$MPERF" record -q -e cpu-clock -o k-$r.data -- $KWORK
	fi &&
	"$MPERF" report --sort sym -i k-$r.data 2>/dev/null | sed -n "s/^ .*\[k\] \([^ ]*\) *$/\1/p" | grep -v "^0x" >k-$r.syms &&
	test -s k-$r.syms &&
	cp k-$r.data $f &&
	flip $f "[kernel.kallsyms]" &&
	kbid=$("$MPERF" buildid-list -i $f | sed -n "s/ \[kernel.kallsyms\]$//p") &&
	test -n "$kbid" &&
	test "$kbid" != "$("$MPERF" buildid-list -k)" &&
	echo "No kallsyms or vmlinux with build-id $kbid was found" >warn &&
	(
		HOME=$TRASH_DIRECTORY/foreign-$r && mkdir "$HOME" && export HOME &&
		"$PERF" report --stdio -i $f 2>perf.err | no_tip >perf.out &&
		diff -u warn perf.err &&
		"$MPERF" report -i $f 2>mperf.err | no_tip >mperf.out &&
		diff -u perf.out mperf.out &&
		sed "s/^/mperf report: warning: /" warn >want.err &&
		diff -u want.err mperf.err &&
		grep -q "\[k\] 0x" mperf.out &&
		! grep "\[k\] [^0]" mperf.out &&
		"$MPERF" report --json -i $f >mperf.json 2>mperf.err &&
		diff -u want.err mperf.err &&
		"$PERF" script -i $f >perf.script 2>perf.err &&
		diff -u warn perf.err &&
		"$MPERF" script -i $f >mperf.script 2>mperf.err &&
		cmp perf.script mperf.script &&
		sed "s/^/mperf script: warning: /" warn >want.err &&
		diff -u want.err mperf.err &&
		sed "s/^/mperf report: warning: /" warn >want.err &&
		"$MPERF" report --format=folded -i $f >mperf.folded 2>mperf.err &&
		diff -u want.err mperf.err &&
		"$MPERF" report --format=svg -o mperf.svg -i $f 2>mperf.err &&
		diff -u want.err mperf.err &&
		"$MPERF" report --format=pprof -o mperf.pb.gz -i $f 2>mperf.err &&
		diff -u want.err mperf.err &&
		gzip -dc mperf.pb.gz >mperf.pb &&
		"$MPERF" report -D -i $f >/dev/null 2>mperf.err &&
		diff -u want.err mperf.err &&
		"$MPERF" diff k-$r.data $f >/dev/null 2>mperf.err &&
		sed "s/^/mperf diff: warning: /" warn >want.err &&
		diff -u want.err mperf.err &&
		"$MPERF" buildid-list -H -i $f >/dev/null 2>mperf.err &&
		sed "s/^/mperf buildid-list: warning: /" warn >want.err &&
		diff -u want.err mperf.err &&
		for s in $(cat k-$r.syms); do
			if grep -q -F "\"$s\"" mperf.json || sed "s/ [0-9]*$//" mperf.folded | tr ";" "\n" | grep -q -x -F "$s" ||
			   sed -n "s/.*<title>//p" mperf.svg | grep -q -x -F "$s"; then
				echo "this machine's $s shown"; exit 1
			fi
		done &&
		pprof_strings mperf.pb | LC_ALL=C sort -u >pb.strings &&
		LC_ALL=C sort -u k-$r.syms | LC_ALL=C comm -12 - pb.strings >shown &&
		test_must_be_empty shown &&
		test "$(ls -A "$HOME")" = ""
	) &&
	(
		# the same id with its kallsyms in the cache: its names, no warning
		HOME=$TRASH_DIRECTORY/cached-$r && export HOME &&
		mkdir -p "$HOME/.debug/[kernel.kallsyms]/$kbid" &&
		cp /proc/kallsyms "$HOME/.debug/[kernel.kallsyms]/$kbid/kallsyms" &&
		"$PERF" report --stdio -i $f 2>perf.err | no_tip >perf.out &&
		"$MPERF" report -i $f 2>mperf.err | no_tip >mperf.out &&
		diff -u perf.out mperf.out &&
		test_must_be_empty perf.err &&
		test_must_be_empty mperf.err &&
		grep -q "\[k\] [^0]" mperf.out
	)
}

test_expect_success PERF,KSYMS 'another machine'\''s kernel, not cached (mperf record): addresses, perf'\''s warning once' '
	foreign_kernel mperf
'

test_expect_success PERF,KSYMS 'another machine'\''s kernel, not cached (perf record): addresses, perf'\''s warning once' '
	foreign_kernel perf
'

test_expect_success PERF 'another machine'\''s vdso: its samples as addresses, never named from this vdso' '
	cat >vd.c <<-\EOF &&
	#include <stdlib.h>
	#include <time.h>
	int main(int argc, char **argv)
	{
		struct timespec t0, t;
		double s = argc > 1 ? atof(argv[1]) : 0.3;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		do
			clock_gettime(CLOCK_MONOTONIC, &t);
		while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < s);
		return 0;
	}
	EOF
	cc -O1 -o vd vd.c &&
	"$MPERF" record -q -e cpu-clock -o v.data ./vd 0.3 &&
	"$MPERF" report --sort dso,sym -i v.data 2>/dev/null >v.local &&
	grep -q "\[vdso\]  *\[\.\] __vdso_" v.local &&
	cp v.data vf.data &&
	flip vf.data "[vdso]" &&
	(
		HOME=$TRASH_DIRECTORY/foreign-vdso && mkdir "$HOME" && export HOME &&
		"$PERF" report --stdio -i vf.data 2>perf.err | no_tip >perf.out &&
		"$MPERF" report -i vf.data 2>mperf.err | no_tip >mperf.out &&
		diff -u perf.out mperf.out &&
		test_must_be_empty perf.err &&
		test_must_be_empty mperf.err &&
		grep -q "\[vdso\]  *\[\.\] 0x" mperf.out &&
		! grep -q "__vdso_" mperf.out &&
		"$PERF" script -i vf.data >perf.script 2>/dev/null &&
		"$MPERF" script -i vf.data >mperf.script 2>mperf.err &&
		cmp perf.script mperf.script &&
		test_must_be_empty mperf.err &&
		"$MPERF" report --format=folded -i vf.data >mperf.folded 2>mperf.err &&
		test_must_be_empty mperf.err &&
		! grep -q "__vdso_" mperf.folded
	)
'

test_done
