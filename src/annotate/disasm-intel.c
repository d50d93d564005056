// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86's Intel operands as objdump -M intel (binutils' i386-dis, which
 * perf runs) spells them, rebuilt from capstone's details rather than
 * from capstone's text: the operand-size words in capitals ("QWORD PTR",
 * "TBYTE PTR" where capstone writes "xword ptr"), a memory operand without
 * spaces, its scale always written with an index and its displacement
 * whenever one is encoded ("[rax+rax*1+0x0]"), an absolute address as
 * "ds:0x10", immediates in hex at their operand's size ("0xffffffff",
 * not "-1"), x87's stack top named ("fmul st,st(2)"), and the prefixes an
 * instruction does not use as words before the mnemonic, as the AT&T
 * text has them (disasm-att.c's).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "disasm-att.h"
#include "disasm.h"


/* capstone's text of operand k (from its start to its comma): [*s, *e) */
static bool text_operand(const char *t, unsigned k, const char **s, const char **e)
{
	unsigned depth = 0;

	for (*s = t; *t; t++) {
		depth += *t == '[';
		depth -= *t == ']' && depth;
		if (*t == ',' && !depth) {
			if (!k--)
				break;
			*s = t + 1;
		}
	}
	*e = t;
	return k == 0 || k == (unsigned)-1;
}

static unsigned text_count(const char *t)
{
	unsigned n = *t != 0, depth = 0;

	for (; *t; t++) {
		depth += *t == '[';
		depth -= *t == ']' && depth;
		n += *t == ',' && !depth;
	}
	return n;
}

/* The memory operand's size where capstone 4 gives another (comiss's xmmword, fnstsw's dword), else NULL. */
static const char *size_fixed(const char *mnem)
{
	static const struct { const char *m, *w; } v[] = {
		{ "comiss", "DWORD" }, { "ucomiss", "DWORD" }, { "vcomiss", "DWORD" }, { "vucomiss", "DWORD" },
		{ "comisd", "QWORD" }, { "ucomisd", "QWORD" }, { "vcomisd", "QWORD" }, { "vucomisd", "QWORD" },
		{ "fnstsw", "WORD" }, { "fstsw", "WORD" },
	};

	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
		if (!strcmp(mnem, v[k].m))
			return v[k].w;
	return NULL;
}

/* The size word capstone gives operand k ("qword ptr"), as objdump's ("QWORD PTR "); "" when none. */
static void size_word(const char *text, const char *mnem, unsigned k, struct dtext *o)
{
	const char *s, *e, *p;
	char w[16];
	size_t n;

	if (!text_operand(text, k, &s, &e))
		return;
	while (s < e && *s == ' ')
		s++;
	if (!(p = strstr(s, " ptr ")) || p >= e || (n = (size_t)(p - s)) >= sizeof(w))
		return;
	for (size_t j = 0; j < n; j++)
		w[j] = (char)(s[j] >= 'a' && s[j] <= 'z' ? s[j] - 32 : s[j]);
	w[n] = 0;
	dtext_put(o, "%s PTR ", size_fixed(mnem) ? size_fixed(mnem) : !strcmp(w, "XWORD") ? "TBYTE" : w);
}

static bool write_mask(csh h, const cs_insn *i, unsigned k);

/* Operand k's place in capstone's text, where the write masks are no operands. */
static unsigned text_index(csh h, const cs_insn *i, unsigned k)
{
	unsigned t = 0;

	for (unsigned j = 0; j < k; j++)
		t += !write_mask(h, i, j);
	return t;
}

/* The string instructions (movs, cmps, stos, lods, scas, ins, outs): objdump shows their segments. */
static bool string_op(int op)
{
	return (op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) || (op >= 0x6c && op <= 0x6f);
}

/* A memory operand: its size word, segment, then [base+index*scale+disp]. */
static void put_mem(struct dtext *o, csh h, const cs_insn *i, unsigned k, x86_reg hidden)
{
	const cs_x86 *x = &i->detail->x86;
	const cs_x86_op *op = &x->operands[k];
	bool base = op->mem.base != X86_REG_INVALID, index = op->mem.index != X86_REG_INVALID;
	bool rip = op->mem.base == X86_REG_RIP || op->mem.base == X86_REG_EIP;
	int sib = rip ? -1 : disasm_x86_sib(i);
	bool riz = sib >= 0 && !index && ((sib >> 6) || (base && (sib & 7) != 4));
	int64_t d = op->mem.disp;

	if (disasm_x86_opcode1(i) < 0xa0 || disasm_x86_opcode1(i) > 0xa3)	/* movabs's moffs has none */
		size_word(i->op_str, i->mnemonic, text_index(h, i, k), o);
	if (op->mem.segment != X86_REG_INVALID && op->mem.segment != hidden)
		dtext_put(o, "%s:", cs_reg_name(h, op->mem.segment));
	else if (op->mem.segment == X86_REG_INVALID && string_op(disasm_x86_opcode1(i)))
		dtext_put(o, "%s", op->mem.base == X86_REG_RDI || op->mem.base == X86_REG_EDI ? "es:" : "ds:");
	else if (!base && !index && !riz)
		dtext_put(o, "ds:");
	if (!base && !index && !riz) {
		uint64_t a = (uint64_t)d;

		dtext_put(o, "0x%" PRIx64, x->addr_size == 4 ? a & 0xffffffffu : a);
		return;
	}
	dtext_put(o, "[");
	if (base)
		dtext_put(o, "%s", cs_reg_name(h, op->mem.base));
	if (index || riz)
		dtext_put(o, "%s%s*%d", base ? "+" : "", index ? cs_reg_name(h, op->mem.index) : x->addr_size == 4 ? "eiz" : "riz",
		    index ? op->mem.scale : 1 << (sib >> 6));
	if (rip)		/* objdump adds a RIP displacement unsigned */
		dtext_put(o, "+0x%" PRIx64, (uint64_t)d);
	else if (x->encoding.disp_size || !base)
		dtext_put(o, "%s0x%" PRIx64, d < 0 ? "-" : "+", d < 0 ? -(uint64_t)d : (uint64_t)d);
	dtext_put(o, "]");
}

/* AVX-512's decorations capstone writes after operand k ("{k1}", "{z}"), without its spaces. */
static void decorations(const char *text, unsigned k, struct dtext *o)
{
	const char *s, *e;

	if (!text_operand(text, k, &s, &e))
		return;
	for (const char *p = s; p < e && (p = memchr(p, '{', (size_t)(e - p))); p++) {
		const char *q = memchr(p, '}', (size_t)(e - p));

		if (!q)
			return;
		dtext_put(o, "%.*s", (int)(q - p + 1), p);
	}
}

/* One operand k of i. */
static void put_operand(struct dtext *o, csh h, const cs_insn *i, unsigned k, x86_reg hidden)
{
	const cs_x86_op *op = &i->detail->x86.operands[k];

	if (op->type == X86_OP_IMM && (disasm_x86_opcode1(i) == 0xd0 || disasm_x86_opcode1(i) == 0xd1)) {
		dtext_put(o, "1");	/* a shift by one */
	} else if (op->type == X86_OP_IMM) {
		uint64_t v = (uint64_t)op->imm;

		if (op->size && op->size < 8 && !disasm_x86_branch(h, i))
			v &= (UINT64_C(1) << (8 * op->size)) - 1;
		if (disasm_x86_imm8_only(i))
			v &= 0xff;
		dtext_put(o, "0x%" PRIx64, v);
	} else if (op->type == X86_OP_MEM) {
		put_mem(o, h, i, k, hidden);
	} else if (op->reg >= X86_REG_ST0 && op->reg <= X86_REG_ST7) {
		dtext_put(o, op->reg == X86_REG_ST0 && i->detail->x86.op_count > 1 ? "st" : "st(%d)", op->reg - X86_REG_ST0);
	} else {
		dtext_put(o, "%s", cs_reg_name(h, op->reg));
	}
}

/* A string instruction's mnemonic without capstone's size letter: objdump's "stos", "movs". */
static void string_mnemonic(int opc, char *m)
{
	size_t n = strlen(m);

	if (string_op(opc) && n > 1 && strchr("bwdq", m[n - 1]) && (n < 3 || strcmp(m + n - 3, "sxd")))
		m[n - 1] = 0;
}

/* Whether operand k is a write mask capstone lists after its destination (and writes as "{k1}"). */
static bool write_mask(csh h, const cs_insn *i, unsigned k)
{
	const cs_x86_op *op = &i->detail->x86.operands[k];
	char deco[16];

	if (!k || op->type != X86_OP_REG || op->reg < X86_REG_K0 || op->reg > X86_REG_K7)
		return false;
	snprintf(deco, sizeof(deco), "{%s}", cs_reg_name(h, op->reg));
	return strstr(i->op_str, deco) != NULL;
}

/* The operands capstone's text shows (its write mask is a decoration). */
static unsigned shown_count(csh h, const cs_insn *i)
{
	unsigned n = 0;

	for (unsigned k = 0; k < i->detail->x86.op_count; k++)
		n += !write_mask(h, i, k);
	return n;
}

bool disasm_intel(csh h, const cs_insn *i, cs_insn *scratch, char *mnem, size_t mcap, char *ops, size_t ocap)
{
	const cs_x86 *x = &i->detail->x86;
	char words[64], m[64];
	struct dtext o = { ops, ocap, 0 };
	int opc = disasm_x86_opcode1(i);
	const char *form;
	x86_reg hidden;

	if (!ocap || text_count(i->op_str) != shown_count(h, i) || strstr(i->op_str, "{1to") || strstr(i->op_str, "sae}"))
		return false;
	disasm_x86_prefix_words(h, i, scratch, words, sizeof(words), &hidden);
	snprintf(m, sizeof(m), "%s", strcmp(mnem, "wait") ? mnem : "fwait");
	string_mnemonic(opc, m);
	ops[0] = 0;
	if (opc == 0x90 && x->prefix[2] == 0x66 && !x->op_count) {
		snprintf(m, sizeof(m), "xchg");
		dtext_put(&o, "ax,ax");
	} else if (opc == 0xd7 && !x->op_count) {
		snprintf(m, sizeof(m), "xlat");
		dtext_put(&o, "BYTE PTR ds:[rbx]");
	} else if ((form = disasm_x86_x87_form(i))) {
		int st = x->operands[0].reg - X86_REG_ST0;

		if (!strcmp(form, "%%%s,%%st"))
			dtext_put(&o, "st,st(%d)", st);
		else
			dtext_put(&o, "st(%d),st", st);
	} else {
		for (unsigned k = 0, t = 0; k < x->op_count; k++) {
			/* xchg of 91-97: the opcode's register first, as objdump */
			unsigned kk = opc >= 0x91 && opc <= 0x97 && x->op_count == 2 ? 1 - k : k;

			if (write_mask(h, i, kk))
				continue;
			if (t)
				dtext_put(&o, ",");
			put_operand(&o, h, i, kk, hidden);
			decorations(i->op_str, t++, &o);
		}
	}
	snprintf(mnem, mcap, "%s%s", words, m);
	return true;
}
