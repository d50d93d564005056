// SPDX-License-Identifier: GPL-2.0-only
/*
 * Disassembly through libcapstone: one handle per annotation, one
 * instruction at a time with its details (a branch's target, a
 * RIP-relative operand), its text respaced as objdump spaces AT&T
 * operands.
 */
#include <capstone/capstone.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "annotate.h"
#include "disasm-att.h"
#include "cslib.h"
#include "disasm.h"

struct disasm {
	csh h, hi;		/* hi: Intel syntax, for objdump's AT&T mnemonics */
	cs_insn *insn, *ii;
	cs_insn *again;		/* disasm_att's decodes without a prefix */
	cs_arch arch;
	bool att;
};

struct disasm *disasm__new(const char *arch, bool intel)
{
	struct disasm *d = calloc(1, sizeof(*d));
	cs_mode mode;

	if (!d)
		return NULL;
	if (!arch || !strcmp(arch, "x86_64") || !strcmp(arch, "x86")) {
		d->arch = CS_ARCH_X86;
		mode = CS_MODE_64;
	} else if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64")) {
		d->arch = CS_ARCH_ARM64;
		mode = CS_MODE_ARM;
	} else {
		free(d);
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (cs_open(d->arch, mode, &d->h) != CS_ERR_OK) {
		free(d);
		errno = cslib_missing() ? ELIBACC : EOPNOTSUPP;
		return NULL;
	}
	d->att = d->arch == CS_ARCH_X86 && !intel;
	if (d->att)
		cs_option(d->h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs_option(d->h, CS_OPT_DETAIL, CS_OPT_ON);
	if (d->att && cs_open(d->arch, mode, &d->hi) != CS_ERR_OK)
		d->att = false;
	if (!(d->insn = cs_malloc(d->h)) || !(d->again = cs_malloc(d->h)) || (d->att && !(d->ii = cs_malloc(d->hi)))) {
		if (d->insn)
			cs_free(d->insn, 1);
		if (d->again)
			cs_free(d->again, 1);
		if (d->att)
			cs_close(&d->hi);
		cs_close(&d->h);
		free(d);
		errno = ENOMEM;
		return NULL;
	}
	return d;
}

void disasm__delete(struct disasm *d)
{
	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_free(d->again, 1);
	cs_close(&d->h);
	if (d->att) {
		cs_free(d->ii, 1);
		cs_close(&d->hi);
	}
	free(d);
}

/*
 * objdump writes AT&T operands without a space after their commas, and
 * immediates and displacements in hex ("$0x1", "0x8(%rsp)"), where
 * capstone writes the small ones in decimal; a scale stays decimal.
 */
static void copy_ops(char *dst, size_t cap, const char *src, bool att)
{
	size_t n = 0;

	for (const char *p = src; *p && n + 24 < cap; p++) {
		if (att && p[0] == ' ' && n && dst[n - 1] == ',')
			continue;
		if (att && isdigit((unsigned char)*p) && strncmp(p, "0x", 2)) {
			const char *q = p;
			char prev = p > src && p[-1] == '-' ? (p - 1 > src ? p[-2] : ' ') : (p > src ? p[-1] : ' ');
			unsigned long v = strtoul(p, (char **)&q, 10);

			/* "$1", "$-1", "8(", "-8(" at an operand's start */
			if (prev == '$' || ((prev == ' ' || prev == ',' || prev == ':' || p == src ||
					     (p - 1 == src && p[-1] == '-')) && *q == '(')) {
				n += (size_t)snprintf(dst + n, cap - n, "0x%lx", v);
				p = q - 1;
				continue;
			}
			while (p < q - 1 && n + 1 < cap)
				dst[n++] = *p++;
		}
		dst[n++] = *p;
	}
	dst[n] = 0;
}

/*
 * objdump's AT&T mnemonic: capstone's always has the operand size's
 * suffix, objdump's only where no register operand gives the size (and
 * never on call, ret, push, pop, jmp); the Intel mnemonic is the one
 * without.  movd of a 64-bit register is objdump's movq.
 */
static void att_mnemonic(struct disasm *d, const cs_insn *i, char *out, size_t cap)
{
	static const char *const bare[] = { "call", "ret", "push", "pop", "jmp", "leave" };
	const uint8_t *p = i->bytes;
	size_t n = i->size, il, al = strlen(i->mnemonic);
	uint64_t a = i->address;
	bool reg = false;

	snprintf(out, cap, "%s", i->mnemonic);
	if (!cs_disasm_iter(d->hi, &p, &n, &a, d->ii))
		return;
	il = strlen(d->ii->mnemonic);
	if (!strcmp(i->mnemonic, "movd") && !strcmp(d->ii->mnemonic, "movq")) {
		snprintf(out, cap, "movq");
		return;
	}
	if (al != il + 1 || strncmp(i->mnemonic, d->ii->mnemonic, il) || !strchr("bwlq", i->mnemonic[il]))
		return;
	reg = disasm_att_sized(i);
	for (size_t k = 0; k < sizeof(bare) / sizeof(bare[0]); k++)
		reg |= !strcmp(d->ii->mnemonic, bare[k]);
	if (reg)
		out[il] = 0;
}

/* A direct jump or call of x86: its target. */
static bool x86_target(struct disasm *d, const cs_insn *i, uint64_t *to)
{
	const cs_x86 *x = &i->detail->x86;

	if (!disasm_x86_branch(d->h, i))
		return false;
	if (x->op_count != 1 || x->operands[0].type != X86_OP_IMM)
		return false;
	*to = (uint64_t)x->operands[0].imm;
	return true;
}

/* A RIP-relative memory operand of x86: the address it names. */
static bool x86_rip(const cs_insn *i, uint64_t *at)
{
	const cs_x86 *x = &i->detail->x86;

	for (uint8_t k = 0; k < x->op_count; k++)
		if (x->operands[k].type == X86_OP_MEM && x->operands[k].mem.base == X86_REG_RIP) {
			*at = i->address + i->size + (uint64_t)x->operands[k].mem.disp;
			return true;
		}
	return false;
}

/* A direct branch of aarch64 (b, bl, b.cond, cbz, tbz...): its target, its last operand. */
static bool arm64_target(struct disasm *d, const cs_insn *i, uint64_t *to)
{
	const cs_arm64 *a = &i->detail->arm64;

	if ((!cs_insn_group(d->h, i, CS_GRP_JUMP) && !cs_insn_group(d->h, i, CS_GRP_CALL)) || !a->op_count ||
	    a->operands[a->op_count - 1].type != ARM64_OP_IMM)
		return false;
	*to = (uint64_t)a->operands[a->op_count - 1].imm;
	return true;
}

/*
 * The x86 instructions objdump knows and capstone 4 does not (none with
 * operands): out filled, or false.
 */
static bool x86_unknown(const uint8_t *code, size_t len, struct dinsn *out)
{
	static const struct { uint8_t b[3]; const char *name; } v[] = {
		{ { 0x0f, 0x01, 0xee }, "rdpkru" }, { { 0x0f, 0x01, 0xef }, "wrpkru" },
	};

	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
		if (len >= 3 && !memcmp(code, v[k].b, 3)) {
			out->size = 3;
			memcpy(out->bytes, code, 3);
			snprintf(out->mnem, sizeof(out->mnem), "%s", v[k].name);
			return true;
		}
	return false;
}

/*
 * fwait before fnstcw, fnstsw, fnclex, fninit, fnsave or fnstenv: one
 * instruction to objdump, the waiting form (fstcw...); out filled, or false.
 */
static bool x86_fwait_pair(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr, struct dinsn *out)
{
	static const char *const nowait[] = { "fnstcw", "fnstsw", "fnclex", "fninit", "fnsave", "fnstenv" };

	if (len < 2 || code[0] != 0x9b || code[1] == 0x9b)
		return false;
	disasm__one(d, code + 1, len - 1, addr + 1, out);
	for (size_t k = 0; k < sizeof(nowait) / sizeof(nowait[0]); k++)
		if (!strcmp(out->mnem, nowait[k]) && out->size + 1 <= sizeof(out->bytes)) {
			memmove(out->mnem + 1, out->mnem + 2, strlen(out->mnem + 2) + 1);
			memmove(out->bytes + 1, out->bytes, out->size);
			out->bytes[0] = code[0];
			out->size++;
			return true;
		}
	return false;
}

/*
 * vcvtpd2ps and its kind narrow a vector: capstone names the source's
 * width always ("vcvtpd2psy %ymm0,%xmm1"), objdump only when the source
 * is memory, whose width the operands do not give.
 */
static void x86_cvt_suffix(const cs_insn *i, char *mnem)
{
	size_t n = strlen(mnem);
	const cs_x86 *x = &i->detail->x86;

	if (n < 8 || strncmp(mnem, "vcvt", 4) || (mnem[n - 1] != 'x' && mnem[n - 1] != 'y') ||
	    (strncmp(mnem + n - 3, "ps", 2) && strncmp(mnem + n - 3, "dq", 2)))
		return;
	for (uint8_t k = 0; k < x->op_count; k++)
		if (x->operands[k].type == X86_OP_MEM)
			return;
	mnem[n - 1] = 0;
}

void disasm__one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr, struct dinsn *out)
{
	const uint8_t *p = code;
	size_t n = len;
	uint64_t a = addr;
	cs_insn *i = d->insn;

	if (d->arch == CS_ARCH_X86 && x86_fwait_pair(d, code, len, addr, out))
		return;
	if (d->arch == CS_ARCH_X86 && disasm_x86_evex(code, len, addr, !d->att, out))
		return;
	memset(out, 0, sizeof(*out));
	if (!cs_disasm_iter(d->h, &p, &n, &a, i)) {
		if (d->arch == CS_ARCH_X86 && x86_unknown(code, len, out))
			return;
		out->size = d->arch == CS_ARCH_X86 ? (unsigned)disasm_x86_vex_length(code, len) : 0;
		out->size = out->size ? out->size : 1;
		memcpy(out->bytes, code, out->size);
		strcpy(out->mnem, "(bad)");
		return;
	}
	out->size = i->size;
	memcpy(out->bytes, i->bytes, i->size < sizeof(out->bytes) ? i->size : sizeof(out->bytes));
	if (d->att)
		att_mnemonic(d, i, out->mnem, sizeof(out->mnem));
	else
		snprintf(out->mnem, sizeof(out->mnem), "%s", i->mnemonic);
	if (d->arch == CS_ARCH_X86 && !d->att &&
	    disasm_intel(d->h, i, d->again, out->mnem, sizeof(out->mnem), out->ops, sizeof(out->ops)))
		;
	else if (!d->att || !disasm_att(d->h, i, d->again, out->mnem, sizeof(out->mnem), out->ops, sizeof(out->ops)))
		copy_ops(out->ops, sizeof(out->ops), i->op_str, d->arch == CS_ARCH_X86);
	if (d->arch == CS_ARCH_X86) {
		disasm_x86_evex_text(out->ops, sizeof(out->ops));
		x86_cvt_suffix(i, out->mnem);
		out->target = x86_target(d, i, &out->to);
		out->rip = !out->target && x86_rip(i, &out->at);
	} else {
		out->target = arm64_target(d, i, &out->to);
	}
}

void dtext_put(struct dtext *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (o->n + 1 >= o->cap)
		return;
	va_start(ap, fmt);
	k = vsnprintf(o->p + o->n, o->cap - o->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n = o->n + (size_t)k < o->cap ? o->n + (size_t)k : o->cap - 1;
}

/* annotate.h's instruction lengths: an x86-64 disassembler of its own. */
struct annotate_insn {
	struct disasm *d;
};

struct annotate_insn *annotate_insn__new(void)
{
	struct annotate_insn *a = calloc(1, sizeof(*a));

	if (a && !(a->d = disasm__new("x86_64", false))) {
		free(a);
		return NULL;
	}
	return a;
}

unsigned annotate_insn__length(struct annotate_insn *a, const uint8_t *code, size_t len)
{
	struct dinsn in;

	if (!len)
		return 0;
	disasm__one(a->d, code, len, 0, &in);
	if (!strcmp(in.mnem, "(bad)"))	/* but an AVX-512 or mask instruction capstone 4 misreads */
		return (unsigned)disasm_x86_vex_length(code, len);
	return in.size <= len ? in.size : 0;
}

void annotate_insn__free(struct annotate_insn *a)
{
	if (a)
		disasm__delete(a->d);
	free(a);
}
