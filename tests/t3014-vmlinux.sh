#!/usr/bin/env bash
# The kernel's symbols from a kernel image (vmlinux) found by build id, as
# perf 6.1 finds and reads one: -k/--vmlinux, perf's build-id cache, the
# vmlinux path list by the recording's kernel release, each only with the
# recorded build id; then kallsyms, else perf's warning.  No machine here
# has the kernel: the image is built by the test (a few functions at
# kernel addresses, a chosen build id) and the recording is synthetic
# (tests/synth-kernel.py), its kernel moved from the image's addresses as
# KASLR moves it; a module likewise (ld -r, a build id).  Every view is
# compared with perf's, byte for byte.
# HOME is the trash directory's: the real ~/.debug is never touched.
. "$(dirname "$0")/lib.sh"

HOME=$TRASH_DIRECTORY/home
export HOME
mkdir -p "$HOME"

have_cc () { command -v cc >/dev/null 2>&1; }
# root, and a mount namespace of our own: /boot and /usr/lib/debug are
# covered by a tmpfs there, seen by nothing else on this machine
have_mountns () {
	test "$(id -u)" = 0 && command -v unshare >/dev/null 2>&1 && test -d /boot && test -d /usr/lib/debug &&
		unshare -m sh -c 'mount -t tmpfs none /boot' 2>/dev/null
}

BID=1122334455667788990011223344556677889900
BAD=9922334455667788990011223344556677889900
REL=9.9.9-synth
# The image's _text is at 0xffffffff81000000; the recorded kernel's here.
K=0xffffffff9a000000
at () { printf '0x%x' $((K + $1)); }

# image ID OUT: the kernel image, its build id ID.  .text: _text/_stext,
# functions (one with a weak alias, one with a function nested in it), a
# gap no symbol covers, a label, _etext, an absolute function (perf skips
# it); .init.text: one function.
image () {
	cat >k.s <<-\EOS &&
	.text
	.globl _text
	_text:
	.globl _stext
	_stext:
	.fill 0x100,1,0x90
	.globl kfunc_alpha
	.type kfunc_alpha,@function
	kfunc_alpha:
	.fill 0x200,1,0x90
	.size kfunc_alpha,0x200
	.weak kalpha_alias
	.type kalpha_alias,@function
	.set kalpha_alias,kfunc_alpha
	.size kalpha_alias,0x200
	.globl kfunc_beta
	.type kfunc_beta,@function
	kfunc_beta:
	.fill 0x80,1,0x90
	.type kbeta_inner,@function
	kbeta_inner:
	.fill 0x40,1,0x90
	.size kbeta_inner,0x40
	.fill 0x140,1,0x90
	.size kfunc_beta,0x200
	.fill 0x100,1,0x90
	.type local_gamma,@function
	local_gamma:
	.fill 0x100,1,0x90
	.size local_gamma,0x100
	.globl kfunc_label
	kfunc_label:
	.fill 0x100,1,0x90
	.globl _etext
	_etext:
	.globl kabs_fn
	.type kabs_fn,@function
	.set kabs_fn,0x1234
	.section .init.text,"ax"
	.globl kinit_fn
	.type kinit_fn,@function
	kinit_fn:
	.fill 0x80,1,0x90
	.size kinit_fn,0x80
	EOS
	cc -nostdlib -static -no-pie -Wl,--build-id=0x$1 -Wl,-Ttext=0xffffffff81000000 -Wl,-e,_text -o "$2" k.s
}

synth () { python3 "$MPERF_ROOT/tests/synth-kernel.py" "$@"; }
no_tip () { grep -v '^# (Tip:\|^# (Cannot load tips'; }

# same [REPORT-ARGS...]: mperf report and perf report --stdio agree on
# stdout; their stderr are in perf.err and mperf.err.
same () {
	"$PERF" report --stdio "$@" 2>perf.err | no_tip >perf.out &&
	"$MPERF" report "$@" 2>mperf.err | no_tip >mperf.out &&
	diff -u perf.out mperf.out
}
# same_script FILE [SCRIPT-ARGS...]: mperf script and perf script agree,
# stdout and stderr
same_script () {
	local f=$1
	shift
	"$PERF" script -i "$f" "$@" >perf.script 2>perf.serr &&
	"$MPERF" script -i "$f" "$@" >mperf.script 2>mperf.serr &&
	cmp perf.script mperf.script &&
	sed "s/^/mperf script: warning: /" perf.serr | diff -u - mperf.serr
}
# perf's warning for an id nothing has, and mperf's words for it
warned () {
	echo "No kallsyms or vmlinux with build-id $1 was found" >want.err &&
	diff -u want.err perf.err &&
	sed "s/^/mperf report: warning: /" want.err >want.err.m &&
	diff -u want.err.m mperf.err
}
quiet () { test_must_be_empty perf.err && test_must_be_empty mperf.err; }
named () { grep -q "\[k\] kfunc_alpha" mperf.out && grep -q "\[kernel.kallsyms\]\.init\.text  *\[k\] kinit_fn" mperf.out; }

test_expect_success PERF,CC 'the image and the recordings' '
	image $BID vmlinux.good &&
	image $BAD vmlinux.bad &&
	synth --os-release $REL k.data $BID $K $(at 0x150) $(at 0x150) $(at 0x1a0) $(at 0x320) $(at 0x390) \
		$(at 0x550) $(at 0x650) $(at 0x710) $(at 0x50) $(at 0x810) $(at 0x890) $(at 0x900) &&
	synth --os-release $REL kc.data $BID $K $(at 0x150):$(at 0x310):$(at 0x610) $(at 0x150):$(at 0x810) \
		$(at 0x400):$(at 0x550) $(at 0x550):$(at 0x150) $(at 0x650):$(at 0x890) $(at 0x810):$(at 0x150) \
		$(at 0x900):$(at 0x150) $(at 0x390):$(at 0x150) &&
	synth --os-release $REL kfirst.data $BID $K $(at 0x810) $(at 0x150) $(at 0x810) &&
	synth --os-release $REL kgap.data $BID $K $(at 0x550) $(at 0x150) $(at 0x550) &&
	synth nore.data $BID $K $(at 0x150) $(at 0x810)
'

test_expect_success PERF,CC 'no image anywhere: addresses and perf'\''s warning' '
	same -i k.data && warned $BID && ! grep -q "\[k\] [a-z_]" mperf.out
'

test_expect_success PERF,CC '-k/--vmlinux: its symbols, moved to the recorded kernel, its sections'\'' maps' '
	for f in k.data kfirst.data kgap.data; do
		same -i $f -k vmlinux.good && quiet || return 1
	done &&
	# the dso a key without the symbol: each section its own row, as perf
	for o in "--sort dso" "--sort comm,dso"; do
		same -i k.data -k vmlinux.good $o && quiet || exit 1
	done &&
	grep -q "^ .*\[kernel\.kallsyms\]\.init\.text *\$" mperf.out &&
	same -i k.data --vmlinux vmlinux.good && quiet && named &&
	grep -q "\[k\] 0x0000000000001550$" mperf.out &&
	grep -q "\[unknown\]  *\[k\] 0xffffffff9a000900$" mperf.out
'

test_expect_success PERF,CC '-k with call chains: every view as perf'\''s' '
	for o in "" --no-children "-g caller" "--sort sym" "--sort dso,sym -g folded"; do
		same -i kc.data -k vmlinux.good $o && quiet || return 1
	done &&
	grep -q "kinit_fn" mperf.out
'

test_expect_success PERF,CC '-k with another build id: no symbols, and no warning (perf says none)' '
	same -i k.data -k vmlinux.bad && quiet && ! grep -q "\[k\] [a-z_]" mperf.out
'

test_expect_success PERF,CC '-k and --kallsyms: a file that cannot be read is refused, the two together too' '
	test_expect_code 125 "$MPERF" report -i k.data -k no-such-vmlinux >out 2>err &&
	test_must_be_empty out &&
	test_line_count = 1 err &&
	grep -q "no-such-vmlinux" err &&
	test_expect_code 129 "$MPERF" report -i k.data -k vmlinux.good --kallsyms vmlinux.good 2>err &&
	test_expect_code 129 "$MPERF" report -i k.data -k vmlinux.good -D 2>err
'

test_expect_success PERF,CC '--kallsyms FILE: its symbols, as perf reads them' '
	cat >ksyms <<-EOF &&
	ffffffff9a000000 T _text
	ffffffff9a000100 T ks_alpha
	ffffffff9a000300 t ks_beta
	ffffffff9a000800 T ks_init
	ffffffff9a000880 T _etext
	EOF
	same -i k.data --kallsyms ksyms && quiet && grep -q "\[k\] ks_alpha" mperf.out &&
	same -i kc.data --kallsyms ksyms && quiet
'

test_expect_success PERF,CC 'perf buildid-cache --add: the cached image, before kallsyms; another id'\''s not' '
	(
		HOME=$TRASH_DIRECTORY/cache && mkdir -p "$HOME" && export HOME &&
		"$PERF" buildid-cache --add "$TRASH_DIRECTORY/vmlinux.bad" &&
		same -i k.data && warned $BID &&
		"$PERF" buildid-cache --add "$TRASH_DIRECTORY/vmlinux.good" &&
		test -f "$HOME/.debug/.build-id/11/${BID#11}/elf" &&
		same -i k.data && quiet && named &&
		same -i kc.data && quiet &&
		same_script k.data && grep -q "kinit_fn+0x10 (\[kernel.kallsyms\]\.init\.text)" mperf.script &&
		for f in kc.data kfirst.data kgap.data; do
			same_script $f || return 1
		done &&
		# a cached kallsyms of the same id: perf still prefers the image
		mkdir -p "$HOME/.debug/[kernel.kallsyms]/$BID" &&
		cp "$TRASH_DIRECTORY/ksyms" "$HOME/.debug/[kernel.kallsyms]/$BID/kallsyms" &&
		same -i k.data && quiet && named &&
		"$MPERF" report -i kc.data --format=folded >folded &&
		grep -q "kinit_fn" folded && ! grep -q ks_ folded
	)
'

test_expect_success PERF,CC 'vmlinux in the current directory, first of perf'\''s path list' '
	mkdir here && cp vmlinux.good here/vmlinux && (
		cd here &&
		same -i ../k.data && quiet && named
	) &&
	cp vmlinux.bad here/vmlinux && (
		cd here &&
		same -i ../k.data && warned $BID
	)
'

# place DIR FILE DATA: in a mount namespace, with /boot and /usr/lib/debug
# empty tmpfs, the good image as FILE (and the bad one as /boot/vmlinux,
# earlier in the list): mperf and perf read DATA alike, and name symbols.
place () {
	unshare -m sh -c '
		mount -t tmpfs none /boot && mount -t tmpfs none /usr/lib/debug &&
		cp vmlinux.bad /boot/vmlinux &&
		mkdir -p "$(dirname "$1")" && cp vmlinux.good "$1" &&
		"$PERF" report --stdio -i "$2" 2>perf.err | grep -v "^# (Tip:" >perf.out &&
		"$MPERF" report -i "$2" 2>mperf.err | grep -v "^# (Tip:" >mperf.out
	' sh "$1" "$2" &&
	diff -u perf.out mperf.out && quiet && named
}

test_expect_success PERF,CC,MOUNTNS 'perf'\''s vmlinux path list, by the recording'\''s kernel release' '
	place /boot/vmlinux-$REL k.data &&
	place /usr/lib/debug/boot/vmlinux-$REL k.data &&
	place /usr/lib/debug/lib/modules/$REL/vmlinux k.data &&
	place /usr/lib/debug/boot/vmlinux-$REL.debug k.data &&
	# a recording without a release: perf names "(null)" in its paths
	place "/boot/vmlinux-(null)" nore.data
'

# uname_boot DATA: /boot/vmlinux-RELEASE by this machine's release, read alike
uname_boot () {
	unshare -m sh -c '
		mount -t tmpfs none /boot && cp vmlinux.good /boot/vmlinux-$(uname -r) &&
		"$PERF" report --stdio -i "$1" 2>perf.err | grep -v "^# (Tip:" >perf.out &&
		"$MPERF" report -i "$1" 2>mperf.err | grep -v "^# (Tip:" >mperf.out
	' sh "$1" &&
	diff -u perf.out mperf.out
}

test_expect_success PERF,CC,MOUNTNS 'this machine'\''s release is not the one looked for' '
	uname_boot k.data && warned $BID
'

# perf record names the kernel by the vmlinux it read, when it read one:
# perf's kernel is then the first kernel entry that is not a module's, its
# build id that one's, and its DSO named by it: [kernel.vmlinux] in
# report's columns (and before a section's name), the path in script and -D.
test_expect_success PERF,CC 'a kernel recorded as a vmlinux: its build id still, never this machine'\''s kallsyms' '
	synth --os-release $REL --kernel-name /usr/lib/debug/lib/modules/$REL/vmlinux kv.data $BID $K \
		$(at 0x150) $(at 0x320) $(at 0x810) &&
	same -i kv.data --sort sym && warned $BID && ! grep -q "\[k\] [a-z_]" mperf.out &&
	same -i kv.data --sort sym -k vmlinux.good && quiet && grep -q "\[k\] kfunc_beta" mperf.out
'

test_expect_success PERF,CC 'a kernel recorded as a vmlinux: named [kernel.vmlinux] as perf names it, in every output' '
	synth --os-release $REL --kernel-name /usr/lib/debug/lib/modules/$REL/vmlinux kvc.data $BID $K \
		$(at 0x150):$(at 0x310):$(at 0x610) $(at 0x150):$(at 0x810) $(at 0x400):$(at 0x550) &&
	same -i kv.data && warned $BID && grep -q "^ .*  \[kernel\.vmlinux\]  *\[k\] 0x" mperf.out &&
	for o in "" "--sort dso,sym" "--no-children"; do
		same -i kv.data -k vmlinux.good $o && quiet || exit 1
	done &&
	grep -q "\[kernel\.vmlinux\]\.init\.text  *\[k\] kinit_fn" mperf.out &&
	for o in "" "--no-children -g folded" "-g caller" "--sort dso,sym -g folded"; do
		same -i kvc.data -k vmlinux.good $o && quiet || exit 1
	done &&
	same_script kv.data && grep -q "(/usr/lib/debug/lib/modules/$REL/vmlinux)\$" mperf.script &&
	same_script kvc.data &&
	"$PERF" report -D -i kv.data 2>/dev/null | grep "dso:" >perf.dso &&
	"$MPERF" report -D -i kv.data 2>/dev/null | grep "dso:" >mperf.dso &&
	test_line_count = 3 mperf.dso && cmp perf.dso mperf.dso &&
	# --dsos by the short name or the long one (a section keeps the first
	# long name of the kernel; with -k, perf gives the kernel the path of
	# the image once read)
	for f in k.data kv.data kvc.data; do
		for d in "[kernel.vmlinux]" "[kernel.vmlinux].init.text" "[kernel.kallsyms]" \
			"[kernel.kallsyms].init.text" /usr/lib/debug/lib/modules/$REL/vmlinux vmlinux.good; do
			for o in "" "--sort comm" "--sort dso"; do
				same -i $f --dsos "$d" $o >/dev/null &&
				same -i $f -k vmlinux.good --dsos "$d" $o >/dev/null || { echo "# $f --dsos $d $o"; exit 1; }
			done
		done
	done &&
	"$MPERF" report --json -i kv.data -k vmlinux.good >out.json &&
	grep -q "\"\[kernel\.vmlinux\]\.init\.text\"" out.json
'

test_expect_success PERF,CC 'script -k and --kallsyms: as perf script reads them' '
	for f in k.data kc.data kfirst.data kv.data kvc.data; do
		same_script $f -k vmlinux.good && test_must_be_empty mperf.serr || exit 1
	done &&
	grep -q "kinit_fn+0x10 (\[kernel\.vmlinux\]\.init\.text)" mperf.script &&
	same_script kc.data -k vmlinux.bad &&
	printf "%s\n" "ffffffff9a000000 T _text" "ffffffff9a000100 T ks_alpha" "ffffffff9a000880 T _etext" >ks &&
	same_script kc.data --kallsyms ks && grep -q "ks_alpha+0x50" mperf.script &&
	test_expect_code 125 "$MPERF" script -i k.data -k no-such-vmlinux 2>err &&
	grep -q "no-such-vmlinux" err &&
	test_expect_code 129 "$MPERF" script -i k.data -k vmlinux.good --kallsyms ks 2>err
'

# -D: perf loads the kernel's symbols as it resolves a sample there, and
# names the kernel's map by the image it loaded from then on.
test_expect_success PERF,CC '''-D with a kernel image in the cache: its path in the dso lines, as perf''' '''
	(
		HOME=$TRASH_DIRECTORY/cache && export HOME &&
		test -f "$HOME/.debug/.build-id/11/${BID#11}/elf" &&
		for f in k.data kv.data; do
			"$PERF" report -D -i $f 2>/dev/null | sed "/^Aggregated stats:/,\$d" >perf.dump &&
			"$MPERF" report -D -i $f 2>/dev/null | sed "/^Aggregated stats:/,\$d" >mperf.dump &&
			diff -u perf.dump mperf.dump || exit 1
		done &&
		grep -q "dso: $HOME/.debug/.build-id/11/${BID#11}/elf$" mperf.dump &&
		grep -q "dso: /usr/lib/debug/lib/modules/$REL/vmlinux$" mperf.dump &&
		"$MPERF" report -D -i k.data 2>/dev/null | grep -q "dso: <not found>$"
	)
'''

# Modules: a .ko-like object (ld -r, as the kernel links modules, with a
# build id) whose .text perf maps the module's address to by its offset.
MID=abcdef0011223344556677889900aabbccddeeff
MBAD=bbcdef0011223344556677889900aabbccddeeff
M=0xffffffffc0a00000
mat () { printf '0x%x' $((M + $1)); }

# module ID OUT: the module, its build id ID
module () {
	cat >m.s <<-\EOS &&
	.text
	.globl mod_init_fn
	.type mod_init_fn,@function
	mod_init_fn:
	.fill 0x100,1,0x90
	.size mod_init_fn,0x100
	.type mod_local,@function
	mod_local:
	.fill 0x80,1,0x90
	.size mod_local,0x80
	.globl mod_tail
	.type mod_tail,@function
	mod_tail:
	.fill 0x40,1,0x90
	.size mod_tail,0x40
	EOS
	cc -c -o m.o m.s && ld -r --build-id=0x$1 -o "$2" m.o
}

test_expect_success PERF,CC 'modules: the .ko and recordings naming it by path and as [name]' '
	mkdir mods &&
	module $MID mods/synthmod.ko &&
	module $MBAD synthmod.bad &&
	for name in "$TRASH_DIRECTORY/mods/synthmod.ko" "[synthmod]"; do
		f=$(test "$name" = "[synthmod]" && echo mb.data || echo mp.data) &&
		synth --os-release $REL --module "$name" $M 0x1000 $MID $f $BID $K \
			$(mat 0x10):$(at 0x150) $(at 0x150):$(mat 0x110) $(mat 0x190) $(mat 0x300):$(mat 0x10) || return 1
	done
'

test_expect_success PERF,CC 'a module at its recorded path with its build id: its symbols, as perf'\''s' '
	same -i mp.data && warned $BID && grep -q "\[synthmod\]  *\[k\] mod_tail" mperf.out &&
	for o in --no-children "--sort sym"; do
		same -i mp.data $o && warned $BID || return 1
	done &&
	same -i mp.data -k vmlinux.good && quiet && grep -q "\[k\] mod_init_fn" mperf.out
'

test_expect_success PERF,CC 'a module of another build id, or named [name]: offsets in its map, as perf'\''s' '
	cp synthmod.bad mods/synthmod.ko &&
	same -i mp.data && warned $BID && ! grep -q "\[k\] mod_" mperf.out &&
	grep -q "\[synthmod\]  *\[k\] 0x0000000000000190$" mperf.out &&
	same -i mb.data && warned $BID && ! grep -q "\[k\] mod_" mperf.out
'

test_expect_success PERF,CC 'perf buildid-cache --add of a module: the cached .ko, for a path only' '
	(
		HOME=$TRASH_DIRECTORY/modcache && mkdir -p "$HOME" && export HOME &&
		module $MID synthmod.ko &&
		"$PERF" buildid-cache --add "$TRASH_DIRECTORY/synthmod.ko" &&
		"$PERF" buildid-cache --add "$TRASH_DIRECTORY/vmlinux.good" &&
		same -i mp.data && quiet && grep -q "\[k\] mod_local" mperf.out &&
		grep -q "\[k\] 0x0000000000000364$" mperf.out &&
		same -i mp.data --no-children && quiet &&
		same_script mp.data && grep -q "mod_init_fn+0x10 (.*/synthmod.ko)" mperf.script && same_script mb.data &&
		# perf takes a module named [name] for kallsyms: no .ko for it
		same -i mb.data && quiet && ! grep -q "\[k\] mod_" mperf.out
	)
'

test_done
