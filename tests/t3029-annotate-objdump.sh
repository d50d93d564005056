#!/usr/bin/env bash
# mperf annotate's instruction text is objdump's (AT&T, as perf annotate
# shows it): one function of hand-picked encodings where capstone's own
# text differs from objdump's (a displacement or a scale 1 capstone leaves
# out, %riz, immediates at their operand's size, operand-size suffixes,
# prefixes objdump names as words: data16, cs, notrack, rex.W; xchg
# %ax,%ax, x87's %st, fwait joined to the next (fstcw), string
# instructions' segments, jump and call targets with <sym+off>, a PLT
# entry's, a data label's), assembled with gcc -c and compared line by line with
# objdump -d on the same object, linked into a shared object so that a
# recording can map it (one synthetic sample in the function); with -M
# intel, with objdump -M intel (size words, memory forms, immediates, x87's
# st); AVX-512 and mask instructions capstone 4 cannot decode, in both.
. "$(dirname "$0")/lib.sh"

have_binutils () { command -v gcc && command -v objdump && command -v nm; } >/dev/null 2>&1

cat >cases.s <<\EOF_S
	.text
	.type	helper, @function
helper:
	ret
	.size	helper, .-helper
	.globl	cases
	.type	cases, @function
cases:
	.byte 0x66,0x90				# xchg %ax,%ax
	.byte 0x66,0x66,0x90			# data16 xchg %ax,%ax
	.byte 0x2e,0x66,0x0f,0x1f,0x84,0,0,0,0,0	# cs nopw 0x0(%rax,%rax,1)
	.byte 0x66,0x66,0x2e,0x0f,0x1f,0x84,0,0,0,0,0
	.byte 0x2e,0x8b,0x40,0x10		# cs mov
	.byte 0x3e,0xff,0xe0			# notrack jmp *%rax
	.byte 0x41,0x8b,0x04,0x24		# (%r12)
	.byte 0x8d,0x74,0x26,0x00		# 0x0(%rsi,%riz,1)
	.byte 0x8b,0x04,0x25,0x34,0x12,0,0	# absolute
	.byte 0x8b,0x04,0x65,0x34,0x12,0,0	# 0x1234(,%riz,2)
	.byte 0x8b,0x04,0x64			# (%rsp,%riz,2)
	.byte 0x67,0x8b,0x40,0x10		# 0x10(%eax)
	.byte 0xa1,1,2,3,4,5,6,7,8		# movabs
	.byte 0x0f,0x01,0xee			# rdpkru
	.byte 0x66,0x48,0x8d,0x3d,0,0,0,0	# data16 lea 0x0(%rip)
	.byte 0x66,0x66,0x48,0xe8,0,0,0,0	# data16 data16 rex.W call
	.byte 0x40,0x90				# rex nop
	.byte 0x4c,0xff,0xd0			# rex.WR call *%rax
	.byte 0x48,0xc3				# rex.W ret
	.byte 0xd8,0xd1				# fcom %st(1)
	.byte 0xdf,0xc0				# ffreep %st(0)
	.byte 0x9b,0xd9,0x7c,0x24,0x02		# fstcw (fwait, fnstcw)
	.byte 0x9b,0xdf,0xe0			# fstsw %ax
	.byte 0x9b,0xdb,0xe3			# finit
	.byte 0xf3,0xc3				# repz ret
	xabort	$0xff
	nopw	0(%rax,%rax,1)
	nopl	0(%rax)
	nopl	(%rax,%rax,1)
	mov	%fs:0x28,%rax
	mov	%fs:0,%rax
	mov	%fs:-8,%rax
	mov	-8(%rbp),%eax
	lea	0(,%rax,8),%rdx
	lea	-1(%rdx,%rax,1),%rax
	movzbl	(%rsi,%r8,1),%r9d
	cmp	$-1,%eax
	cmp	$-0x1000,%rax
	mov	$-1,%ax
	movw	$-1,(%rax)
	movq	$-1,0x28(%rsp)
	push	$-1
	and	$-16,%rsp
	imul	$-3,%rax,%rdx
	add	$-128,%rsp
	movabs	$0x1122334455667788,%rax
	shr	%eax
	shl	$3,%eax
	shrl	%cl,(%rax)
	cvtsi2sd %rax,%xmm0
	cvtsi2sdl 8(%rsp),%xmm0
	cvtsi2sdq 8(%rsp),%xmm0
	vcvtsi2sdq (%rax),%xmm1,%xmm0
	movl	$0,(%rax)
	addq	$1,(%rax)
	testb	$0x80,(%rax)
	movq	%rax,%xmm0
	fcomi	%st(1),%st
	fmul	%st(2),%st
	fmul	%st,%st(2)
	faddp	%st,%st(1)
	fstp	%st(0)
	fldl	8(%rsp)
	rep stosq
	rep movsb
	lodsb
	scasb
	cmpsb
	xlat
	in	$0x80,%al
	out	%al,(%dx)
	xchg	%eax,%ebx
	lock xadd %eax,(%rbx)
	call	*%rax
	jmp	*8(%rax,%rbx,8)
	bnd jmp	*%rax
	ret	$8
	enter	$0x10,$0
	wait
1:	jrcxz	1b
	loop	1b
	je	1b
	call	helper
	call	puts@PLT
	lea	datum(%rip),%rax
	mov	datum+4(%rip),%eax
	ret
	.size	cases, .-cases
	.data
datum:	.long 1, 2
EOF_S

test_expect_success BINUTILS,PYTHON 'the listing of an object file of odd encodings is objdump'"'"'s, line by line' '
	gcc -c -o cases.o cases.s &&
	gcc -shared -nostdlib -o cases.so cases.o &&
	at=$(nm cases.so | sed -n "s/^\([0-9a-f]*\) T cases$/\1/p") &&
	off=$(readelf -lW cases.so | python3 -c "import sys
a = int(sys.argv[1], 16)
for l in sys.stdin:
    f = l.split()
    if f[:1] == [\"LOAD\"] and int(f[2], 16) <= a < int(f[2], 16) + int(f[4], 16):
        print(a - int(f[2], 16) + int(f[1], 16))" $at) &&
	python3 "$MPERF_ROOT/tests/synth-samples.py" cases.data "$PWD/cases.so" 0x7f0000000000 "$off" &&
	"$MPERF" annotate -i cases.data --stdio cases >out &&
	sed -n "s/^ *[0-9.]* : *\([0-9a-f]*\):[ ]*\(.*\)/\1: \2/p" out >mperf.rows &&
	objdump -d -C --no-show-raw-insn cases.so | sed -n "/<cases>:$/,/^$/s/^ *\([0-9a-f]*\):\t\(.*\)/\1: \2/p" |
		sed "s/ *$//" >objdump.rows &&
	test "$(wc -l <objdump.rows)" -gt 70 &&
	grep -q "call   [0-9a-f]* <puts@plt>$" objdump.rows &&
	diff -u objdump.rows mperf.rows
'

test_expect_success BINUTILS,PYTHON '-M intel: objdump -M intel'"'"'s text of the same encodings, line by line' '
	"$MPERF" annotate -i cases.data --stdio -M intel cases >out.intel &&
	sed -n "s/^ *[0-9.]* : *\([0-9a-f]*\):[ ]*\(.*\)/\1: \2/p" out.intel >mperf.irows &&
	objdump -d -C --no-show-raw-insn -M intel cases.so |
		sed -n "/<cases>:$/,/^$/s/^ *\([0-9a-f]*\):\t\(.*\)/\1: \2/p" | sed "s/ *$//" >objdump.irows &&
	grep -q "cs nop WORD PTR \[rax+rax\*1+0x0\]$" objdump.irows &&
	grep -q "fmul   st,st(2)$" objdump.irows &&
	diff -u objdump.irows mperf.irows
'

test_expect_success BINUTILS,PYTHON 'a PLT entry: its rows as objdump'"'"'s, no function line (objdump -l names none there)' '
	plt=$(objdump -d cases.so | sed -n "s/^0*\([0-9a-f]*\) <puts@plt>:$/\1/p") && test -n "$plt" &&
	python3 "$MPERF_ROOT/tests/synth-samples.py" plt.data "$PWD/cases.so" 0x7f0000000000 $((0x$plt)) &&
	"$MPERF" annotate -i plt.data --stdio >plt.out &&
	grep -q "^ *100.00 : *$plt:   jmp    \*0x[0-9a-f]*(%rip)" plt.out &&
	! grep -q "plt():" plt.out
'

# same_listing SO SYM: mperf annotate's rows of SYM in SO (one synthetic
# sample at its start) are objdump -d's
same_listing () {
	local at off
	at=$(nm -D "$1" | sed -n "s/^\([0-9a-f]*\) T $2$/\1/p") &&
	off=$(readelf -lW "$1" | while read -r t o v p f rest; do
		test "$t" = LOAD && test $((v)) -le $((0x$at)) && test $((0x$at)) -lt $((v + f)) &&
			echo $((0x$at - v + o)); done || :) && test -n "$off" &&
	python3 "$MPERF_ROOT/tests/synth-samples.py" "$1.data" "$PWD/$1" 0x7f0000000000 "$off" &&
	"$MPERF" annotate -i "$1.data" --stdio "$2" >"$1.out" &&
	sed -n "s/^ *[0-9.]* : *\([0-9a-f]*\):[ ]*\(.*\)/\1: \2/p" "$1.out" >"$1.m" &&
	objdump -d -C --no-show-raw-insn "$1" | sed -n "/<$2>:$/,/^$/s/^ *\([0-9a-f]*\):\t\(.*\)/\1: \2/p" |
		sed "s/ *$//" >"$1.o" &&
	test -s "$1.o" && diff -u "$1.o" "$1.m"
}

cat >got.s <<\EOF_S
	.text
	.globl	loads
	.type	loads, @function
loads:
	mov	ext_obj@GOTPCREL(%rip),%rax
	mov	ext_fn@GOTPCREL(%rip),%rdx
	call	*ext_fn@GOTPCREL(%rip)
	ret
	.size	loads, .-loads
EOF_S
cat >ro.s <<\EOF_S
	.section .data.rel.ro,"aw"
	.globl	table
	.type	table, @object
table:	.quad	loads
	.size	table, 8
EOF_S

test_expect_success BINUTILS,PYTHON 'a GOT slot: its relocation'"'"'s symbol, but the symbol before it when that is in the code'"'"'s section' '
	gcc -c -o got.o got.s && gcc -c -o ro.o ro.s &&
	gcc -shared -nostdlib -o text.so got.o && strip text.so &&
	gcc -shared -nostdlib -o ro.so got.o ro.o && strip ro.so &&
	same_listing text.so loads && grep -q "# [0-9a-f]* <loads+0x[0-9a-f]*>$" text.so.m &&
	same_listing ro.so loads && grep -q "# [0-9a-f]* <ext_obj>$" ro.so.m
'

cat >evex.s <<\EOF_S
	.text
	.globl	masks
	.type	masks, @function
masks:
	vpcmpeqb (%rdi),%ymm16,%k0
	vpcmpb	$0,0x40(%rdi,%rax,2),%ymm16,%k0
	vpcmpneqb %ymm17,%ymm16,%k1
	vpcmpeqd %zmm17,%zmm16,%k1
	vptestnmb %ymm16,%ymm16,%k0
	vpminub	%ymm17,%ymm16,%ymm18
	kmovd	%k0,%eax
	kortestd %k0,%k1
	vpcmpeqb 0x12345678(%rip),%ymm16,%k2
	vpcmpub	$1,0x20(%rdi),%ymm16,%k1{%k2}
	vpcmpd	$3,(%rdi){1to8},%ymm16,%k1
	vpminub	%ymm18,%ymm19,%ymm19{%k1}{z}
	vpxorq	-0x40(%rdi,%rdx,1),%ymm17,%ymm17
	vpaddd	(%rax){1to8},%ymm1,%ymm2
	vpternlogd $0xde,0x60(%rdi),%ymm17,%ymm20
	vpbroadcastb (%rax),%zmm3
	vpbroadcastq 8(%rax),%zmm3{%k1}{z}
	vpbroadcastd %eax,%zmm3
	vmovdqu8 %ymm16,(%rax){%k1}
	vmovdqu64 -0x80(%rsi,%rcx,8),%zmm1
	kmovq	%k0,%rax
	kmovd	%ecx,%k2
	kmovb	(%rax),%k1
	kmovq	%k1,8(%rax)
	kunpckdq %k0,%k1,%k0
	kxnorq	%k2,%k2,%k2
	kshiftrd $3,%k1,%k2
	vaddps	{rn-sae},%zmm1,%zmm2,%zmm3
	vfmadd231pd {rz-sae},%zmm5,%zmm8,%zmm8
	vcmppd	$0x11,{sae},%zmm11,%zmm8,%k1
	vgetexpps %zmm1,%zmm2{%k1}
	vgatherdps (%rax,%zmm7,1),%zmm13{%k2}
	vcvtpd2ps %ymm0,%xmm12
	vscalefpd {rn-sae},%zmm4,%zmm3,%zmm0
	vzeroupper
	ret
	.size	masks, .-masks
EOF_S

test_expect_success BINUTILS,PYTHON 'AVX-512 and mask instructions: objdump'"'"'s text; one capstone misreads and mperf does not write: (bad), of its length' '
	gcc -c -o evex.o evex.s && gcc -shared -nostdlib -o evex.so evex.o &&
	! same_listing evex.so masks &&
	cut -d: -f1 evex.so.o >o.at && cut -d: -f1 evex.so.m >m.at &&
	test "$(wc -l <o.at)" = 36 && diff -u o.at m.at &&
	grep "(bad)" evex.so.m >m.bad && test "$(wc -l <m.bad)" = 1 &&
	grep "^$(cut -d: -f1 m.bad): vscalefpd {rn-sae}," evex.so.o &&
	grep -v "(bad)" evex.so.m >m.known && grep -v vscalefpd evex.so.o >o.known && diff -u o.known m.known &&
	"$MPERF" annotate -i evex.so.data --stdio -M intel masks |
		sed -n "s/^ *[0-9.]* : *\([0-9a-f]*\):[ ]*\(.*\)/\1: \2/p" | grep -v "(bad)" >m.iknown &&
	objdump -d --no-show-raw-insn -M intel evex.so | sed -n "/<masks>:$/,/^$/s/^ *\([0-9a-f]*\):\t\(.*\)/\1: \2/p" |
		sed "s/ *$//" | grep -v vscalefpd >o.iknown &&
	grep -q "vpcmpd  *k1,ymm16,DWORD BCST \[rdi\],0x3$" o.iknown && diff -u o.iknown m.iknown
'

test_expect_success 'a -k image that is not the recorded kernel: one line that says so' '
	"$MPERF" record -q -o k.data -- dd if=/dev/zero of=/dev/null bs=1 count=200000 2>/dev/null &&
	"$MPERF" annotate -i k.data --stdio -k "$NOPLOOP" >out 2>err &&
	test "$(grep -c "kernel" err)" = 1 &&
	grep -E "^mperf annotate: warning: cannot annotate the [0-9]+ samples in \[kernel\.kallsyms\]: -k/--vmlinux .*noploop is not the recorded kernel \(build id [0-9a-f]{40}\)$" err
'

test_done
