// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86's AT&T operands as objdump (binutils' i386-dis) spells them,
 * rebuilt from capstone's details rather than from capstone's text:
 * immediates in hex at their operand's size ("$0xffffffffffffffff", not
 * "$-1"), a displacement whenever one is encoded ("0x0(%rax,%rax,1)"), a
 * scale whenever there is an index, %riz where a SIB byte has none, the
 * string instructions' implicit segments ("%es:(%rdi)"), the x87 stack
 * top as "%st", "(%dx)" of in and out, "*" before an indirect target;
 * and the prefixes the instruction does not use as words before the
 * mnemonic, as objdump prints them ("data16", "cs", "notrack").
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "disasm-att.h"
#include "disasm.h"


static bool is_prefix(uint8_t b)
{
	return b == 0x66 || b == 0x67 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x26 ||
	       b == 0x64 || b == 0x65 || b == 0xf0 || b == 0xf2 || b == 0xf3;
}

/* The count of legacy prefix bytes before the REX prefix and the opcode. */
static unsigned nprefix(const cs_insn *i)
{
	unsigned n = 0;

	while (n < i->size && is_prefix(i->bytes[n]))
		n++;
	return n;
}

/* The one-byte opcode of i (its first byte after the prefixes and REX), -1 for a longer one. */
static int opcode1(const cs_insn *i)
{
	unsigned k = nprefix(i);

	if (k < i->size && (i->bytes[k] & 0xf0) == 0x40)
		k++;
	return k < i->size && i->bytes[k] != 0x0f && !(i->bytes[k] == 0xc4 || i->bytes[k] == 0xc5 ||
						       i->bytes[k] == 0x62 || i->bytes[k] == 0x8f) ? i->bytes[k] : -1;
}

/* The SIB byte of i's ModRM memory operand, -1 when none. */
static int sib_of(const cs_insn *i)
{
	unsigned m = i->detail->x86.encoding.modrm_offset;
	uint8_t modrm;

	if (!m || m + 1 >= i->size)
		return -1;
	modrm = i->bytes[m];
	return (modrm >> 6) == 3 || (modrm & 7) != 4 ? -1 : i->bytes[m + 1];
}

/* The string instructions (movs, cmps, stos, lods, scas, ins, outs): objdump shows their segments. */
static bool string_op(int op)
{
	return (op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) || (op >= 0x6c && op <= 0x6f);
}

static const char *seg_word(uint8_t b)
{
	switch (b) {
	case 0x2e: return "cs";
	case 0x36: return "ss";
	case 0x3e: return "ds";
	case 0x26: return "es";
	case 0x64: return "fs";
	case 0x65: return "gs";
	default: return NULL;
	}
}

static x86_reg seg_reg(uint8_t b)
{
	switch (b) {
	case 0x2e: return X86_REG_CS;
	case 0x36: return X86_REG_SS;
	case 0x3e: return X86_REG_DS;
	case 0x26: return X86_REG_ES;
	case 0x64: return X86_REG_FS;
	case 0x65: return X86_REG_GS;
	default: return X86_REG_INVALID;
	}
}

/* A memory operand: segment, displacement, (base,index,scale). */
static void put_mem(struct dtext *o, csh h, const cs_insn *i, const cs_x86_op *op, x86_reg hidden)
{
	const cs_x86 *x = &i->detail->x86;
	bool base = op->mem.base != X86_REG_INVALID, index = op->mem.index != X86_REG_INVALID;
	bool rip = op->mem.base == X86_REG_RIP || op->mem.base == X86_REG_EIP;
	int sib = rip ? -1 : sib_of(i), opc = opcode1(i);
	bool riz = sib >= 0 && !index && ((sib >> 6) || (base && (sib & 7) != 4));

	if (op->mem.segment != X86_REG_INVALID && op->mem.segment != hidden)
		dtext_put(o, "%%%s:", cs_reg_name(h, op->mem.segment));
	else if (op->mem.segment == X86_REG_INVALID && string_op(opc))
		dtext_put(o, "%s", op->mem.base == X86_REG_RDI || op->mem.base == X86_REG_EDI ? "%es:" : "%ds:");
	if (!base && !index) {
		uint64_t a = (uint64_t)op->mem.disp;

		dtext_put(o, "0x%" PRIx64, x->addr_size == 4 ? a & 0xffffffffu : a);
	} else if (x->encoding.disp_size || rip || !base) {
		dtext_put(o, op->mem.disp < 0 ? "-0x%" PRIx64 : "0x%" PRIx64,
		    op->mem.disp < 0 ? -(uint64_t)op->mem.disp : (uint64_t)op->mem.disp);
	}
	if (!base && !index && !riz)
		return;
	dtext_put(o, "(");
	if (base)
		dtext_put(o, "%%%s", cs_reg_name(h, op->mem.base));
	if (index)
		dtext_put(o, ",%%%s,%d", cs_reg_name(h, op->mem.index), op->mem.scale);
	else if (riz)
		dtext_put(o, ",%s,%d", x->addr_size == 4 ? "%eiz" : "%riz", 1 << (sib >> 6));
	dtext_put(o, ")");
}

/* An immediate, in hex at its operand's size. */
static void put_imm(struct dtext *o, const cs_x86_op *op)
{
	uint64_t v = (uint64_t)op->imm;

	if (op->size && op->size < 8)
		v &= (UINT64_C(1) << (8 * op->size)) - 1;
	dtext_put(o, "$0x%" PRIx64, v);
}

static bool is_st(x86_reg r)
{
	return r >= X86_REG_ST0 && r <= X86_REG_ST7;
}

/*
 * x87's one stack operand as objdump shows it: the arithmetic forms of
 * D8, DA, DB and DF name the top as "%st" after it, those of DC and DE
 * before it.  NULL: another case.
 */
static const char *x87_form(const cs_insn *i)
{
	const cs_x86 *x = &i->detail->x86;
	int op = opcode1(i);

	uint8_t modrm = x->encoding.modrm_offset ? i->bytes[x->encoding.modrm_offset] : 0;

	if (x->op_count != 1 || x->operands[0].type != X86_OP_REG || !is_st(x->operands[0].reg))
		return NULL;
	/* but fcom, fcomp (D8 D0-DF) and ffreep (DF C0-C7), which name one */
	if ((op == 0xd8 && (modrm & 0xf0) != 0xd0) || op == 0xda || op == 0xdb || (op == 0xdf && modrm >= 0xe8))
		return "%%%s,%%st";
	if (op == 0xdc || op == 0xde)
		return "%%st,%%%s";
	return NULL;
}

/* How many operands capstone's text has (commas outside parentheses). */
static unsigned text_operands(const char *s)
{
	unsigned n = *s != 0, depth = 0;

	for (; *s; s++) {
		depth += *s == '(';
		depth -= *s == ')' && depth;
		n += *s == ',' && !depth;
	}
	return n;
}

bool disasm_x86_branch(csh h, const cs_insn *i)
{
	int op = opcode1(i);

	/* capstone 4 puts loop, loope and loopne in no group */
	return cs_insn_group(h, i, CS_GRP_JUMP) || cs_insn_group(h, i, CS_GRP_CALL) || (op >= 0xe0 && op <= 0xe2);
}

#define is_branch disasm_x86_branch

bool disasm_att_sized(const cs_insn *i)
{
	const cs_x86 *x = &i->detail->x86;
	uint8_t mem = 0;
	bool reg = false;

	for (uint8_t k = 0; k < x->op_count; k++)
		if (x->operands[k].type == X86_OP_MEM)
			mem = x->operands[k].size ? x->operands[k].size : 0xff;
	for (uint8_t k = 0; k < x->op_count; k++)
		if (x->operands[k].type == X86_OP_REG)
			reg |= !mem || mem == 0xff || x->operands[k].size == mem;
	return reg;
}

/*
 * A string instruction's operands: capstone's text, each (%rdi) with
 * its %es: and (%rsi) with its %ds: (when no override names another),
 * in's and out's %dx as (%dx); stos, lods and scas lose the suffix
 * their register gives.
 */
static void string_text(const cs_insn *i, char *mnem, struct dtext *o)
{
	const char *p = i->op_str;
	bool reg = false;
	size_t n = strlen(mnem);

	while (*p) {
		size_t len = strcspn(p, ",");

		while (*p == ' ')
			p++, len--;
		if (o->n)
			dtext_put(o, ",");
		if (!strncmp(p, "(%rdi)", 6) || !strncmp(p, "(%edi)", 6))
			dtext_put(o, "%%es:");
		else if (!strncmp(p, "(%rsi)", 6) || !strncmp(p, "(%esi)", 6))
			dtext_put(o, "%%ds:");
		if (!strncmp(p, "%dx", 3) && len == 3)
			dtext_put(o, "(%%dx)");
		else
			dtext_put(o, "%.*s", (int)len, p);
		reg |= *p == '%' && strncmp(p, "%dx", 3);
		p += len + (p[len] == ',');
	}
	if (reg && n && strchr("bwlq", mnem[n - 1]) && opcode1(i) >= 0xaa)
		mnem[n - 1] = 0;
}

/* One operand k of i. */
static void put_operand(struct dtext *o, csh h, const cs_insn *i, unsigned k, x86_reg hidden)
{
	const cs_x86_op *op = &i->detail->x86.operands[k];
	int opc = opcode1(i);

	if (op->type == X86_OP_IMM && is_branch(h, i)) {
		dtext_put(o, "0x%" PRIx64, (uint64_t)op->imm);
		return;
	}
	if (op->type != X86_OP_IMM && is_branch(h, i))
		dtext_put(o, "*");
	if (op->type == X86_OP_IMM && disasm_x86_imm8_only(i))
		dtext_put(o, "$0x%x", (unsigned)(op->imm & 0xff));
	else if (op->type == X86_OP_IMM)
		put_imm(o, op);
	else if (op->type == X86_OP_MEM)
		put_mem(o, h, i, op, hidden);
	else if (op->reg == X86_REG_DX && ((opc >= 0xec && opc <= 0xef) || (opc >= 0x6c && opc <= 0x6f)))
		dtext_put(o, "(%%dx)");
	else if (op->reg == X86_REG_ST0 && i->detail->x86.op_count > 1)
		dtext_put(o, "%%st");
	else
		dtext_put(o, "%%%s", cs_reg_name(h, op->reg));
}

/* Decode bytes[0..len) without byte k: whether capstone's text stays i's (the byte is not used). */
static bool unused_byte(csh h, const cs_insn *i, cs_insn *scratch, const uint8_t *bytes, size_t len, unsigned k)
{
	uint8_t b[32];
	const uint8_t *p = b;
	size_t n = len - 1;
	uint64_t a = i->address + i->size - (len - 1);	/* the same end: a branch's target reads the same */

	if (len > sizeof(b))
		return false;
	memcpy(b, bytes, k);
	memcpy(b + k, bytes + k + 1, len - k - 1);
	if (!cs_disasm_iter(h, &p, &n, &a, scratch) || scratch->size != len - 1)
		return false;
	return !strcmp(scratch->mnemonic, i->mnemonic) && !strcmp(scratch->op_str, i->op_str);
}

static bool has_mem(const cs_insn *i)
{
	for (uint8_t k = 0; k < i->detail->x86.op_count; k++)
		if (i->detail->x86.operands[k].type == X86_OP_MEM)
			return true;
	return false;
}

/*
 * A REX prefix that changes nothing ("48 e8": a call is 64-bit anyway),
 * named as objdump names it: "rex", "rex.W", "rex.WR"...  Looked for
 * only where REX.W can be idle (branches, ret, nop), each a decode more.
 */
static void rex_word(csh h, const cs_insn *i, cs_insn *scratch, const uint8_t *b, size_t len, unsigned np,
		     struct dtext *w)
{
	int opc = opcode1(i);
	uint8_t r;

	if (np >= len || (b[np] & 0xf0) != 0x40 ||
	    !(opc == 0xe8 || opc == 0xe9 || opc == 0xeb || opc == 0xc3 || opc == 0xc2 || opc == 0x90 || opc == 0xff))
		return;
	r = b[np];
	if (!unused_byte(h, i, scratch, b, len, np))
		return;
	dtext_put(w, "rex%s%s%s%s%s ", r & 0xf ? "." : "", r & 8 ? "W" : "", r & 4 ? "R" : "", r & 2 ? "X" : "",
	    r & 1 ? "B" : "");
}

/* f3 before ret, which capstone drops: objdump's "repz ret". */
static void rep_ret_word(const cs_insn *i, struct dtext *w)
{
	int opc = opcode1(i);

	for (unsigned k = 0; k < nprefix(i); k++)
		if (i->bytes[k] == 0xf3 && (opc == 0xc3 || opc == 0xc2)) {
			dtext_put(w, "repz ");
			return;
		}
}

/* xabort's immediate is a byte, which capstone 4 widens: the byte. */
bool disasm_x86_imm8_only(const cs_insn *i)
{
	unsigned k = nprefix(i);

	return k + 1 < i->size && i->bytes[k] == 0xc6 && i->bytes[k + 1] == 0xf8;
}

/*
 * The prefixes i does not use, as objdump's words: each 0x66 whose
 * removal leaves the instruction as it was, or that REX.W overrides
 * ("data16"; xchg %ax,%ax keeps one), a segment that 64-bit mode ignores
 * ("cs", then not shown in the operand: *hidden), ds before an indirect
 * branch ("notrack"), an idle REX (rex_word).
 */
static void prefix_words(csh h, const cs_insn *i, cs_insn *scratch, struct dtext *w, x86_reg *hidden)
{
	uint8_t b[32];
	size_t len = i->size;
	unsigned np = nprefix(i), n66 = 0;
	int opc = opcode1(i);
	bool rexw;

	*hidden = X86_REG_INVALID;
	if (len > sizeof(b))
		return;
	memcpy(b, i->bytes, len);
	for (unsigned k = 0; k < np; k++)
		n66 += b[k] == 0x66;
	/* REX.W sets a one-byte opcode's size: its 0x66 are idle */
	rexw = np < len && (b[np] & 0xf8) == 0x48;
	for (unsigned k = 0; k < np; ) {
		uint8_t c = b[k];

		if (c == 0x66 && ((rexw && opc >= 0) || (!(opc == 0x90 && n66 == 1) && unused_byte(h, i, scratch, b, len, k)))) {
			dtext_put(w, "data16 ");
			memmove(b + k, b + k + 1, len - k - 1);
			len--, np--, n66--;
			continue;
		}
		if (seg_word(c) && (c == 0x2e || c == 0x36 || c == 0x3e || c == 0x26 || !has_mem(i))) {
			bool indirect = is_branch(h, i) && opc != 0xe8 && opc != 0xe9 && opc != 0xeb &&
					i->detail->x86.op_count == 1 && i->detail->x86.operands[0].type != X86_OP_IMM;

			dtext_put(w, "%s ", c == 0x3e && indirect ? "notrack" : seg_word(c));
			*hidden = seg_reg(c);
		}
		k++;
	}
	rex_word(h, i, scratch, b, len, np, w);
	rep_ret_word(i, w);
}


bool disasm_att(csh h, const cs_insn *i, cs_insn *scratch, char *mnem, size_t mcap, char *ops, size_t ocap)
{
	const cs_x86 *x = &i->detail->x86;
	char words[64] = "", m[64];
	struct dtext w = { words, sizeof(words), 0 }, o = { ops, ocap, 0 };
	int opc = opcode1(i);
	unsigned n = x->op_count, skip = n;
	x86_reg hidden;
	const char *form;

	if (!ocap || (text_operands(i->op_str) != n && !string_op(opc)))
		return false;
	if (n && (opc == 0xd0 || opc == 0xd1) && x->operands[0].type == X86_OP_IMM)
		skip = 0;		/* a shift by one: objdump leaves the 1 out */
	prefix_words(h, i, scratch, &w, &hidden);
	snprintf(m, sizeof(m), "%s", strcmp(mnem, "wait") ? mnem : "fwait");
	ops[0] = 0;
	if (string_op(opc)) {
		string_text(i, m, &o);
	} else if (opc == 0x90 && x->prefix[2] == 0x66 && !n) {
		snprintf(m, sizeof(m), "xchg");
		dtext_put(&o, "%%ax,%%ax");
	} else if (opc == 0xd7 && !n) {
		snprintf(m, sizeof(m), "xlat");
		dtext_put(&o, "%%ds:(%%rbx)");
	} else if ((form = x87_form(i))) {
		dtext_put(&o, form, cs_reg_name(h, x->operands[0].reg));
	} else {
		for (unsigned k = 0; k < n; k++) {
			unsigned kk = opc >= 0x91 && opc <= 0x97 && n == 2 ? n - 1 - k : k;

			if (kk == skip)
				continue;
			if (o.n)
				dtext_put(&o, ",");
			put_operand(&o, h, i, kk, hidden);
		}
	}
	snprintf(mnem, mcap, "%s%s", words, m);
	return true;
}

void disasm_x86_prefix_words(csh h, const cs_insn *i, cs_insn *scratch, char *words, size_t cap, x86_reg *hidden)
{
	struct dtext w = { words, cap, 0 };

	if (cap)
		words[0] = 0;
	prefix_words(h, i, scratch, &w, hidden);
}

int disasm_x86_sib(const cs_insn *i)
{
	return sib_of(i);
}

int disasm_x86_opcode1(const cs_insn *i)
{
	return opcode1(i);
}

const char *disasm_x86_x87_form(const cs_insn *i)
{
	return x87_form(i);
}
