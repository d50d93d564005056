// SPDX-License-Identifier: GPL-2.0-only
/*
 * AVX-512's instructions and the mask registers' as objdump prints them,
 * from their encoding, where capstone 4.0.2 cannot: it decodes no VEX mask
 * instruction (kmovd, kortestd), few EVEX compares into a mask register,
 * no vpternlog and no vpbroadcast; it drops a memory operand's broadcast
 * ("{1to8}"), names a general index register as a vector one when EVEX.V'
 * is set, and spaces " {%k1}" -- and glibc's *_evex and *_avx512 string
 * functions are made of these.  The table's instructions are written
 * here, in AT&T or Intel syntax; another EVEX instruction whose encoding
 * capstone is known to misread is "(bad)", of its length, never a wrong
 * text.  The encodings are Intel's SDM's (volume 2, 2.6 and 3.1).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "disasm.h"

enum kind {
	K_CMP,		/* k{k} <- vvvv, rm (vpcmpeqb, vptestmb) */
	K_CMPI,		/* the same with a predicate (vpcmpub $1 is vpcmpltub) */
	V_NDS,		/* v{k}{z} <- vvvv, rm (vpxorq; vpternlogd with an imm8) */
	V_LOAD,		/* v{k}{z} <- rm */
	V_STORE,	/* rm{k} <- v */
	V_BCST,		/* v{k}{z} <- an element of xmm or memory */
	V_BCSTG,	/* v{k}{z} <- a general register */
	KM_K,		/* k <- k or memory (kmov 90) */
	M_K,		/* memory <- k (kmov 91) */
	K_G,		/* k <- general register (kmov 92) */
	G_K,		/* general register <- k (kmov 93) */
	K_K,		/* kortest, ktest, knot */
	K_KK,		/* kand, kor, kxnor, kunpck... */
	K_KI,		/* kshift */
	K_FCMP,		/* k{k} <- vvvv, rm, predicate (vcmpltps; vcmpps $0x20) */
};

enum rc { NO_RC, ER, SAE };	/* with EVEX.b and registers: a rounding ({rn-sae}), or {sae} alone */

enum tuple { FVM, FV, T1 };	/* disp8's scale: the vector; an element, or the vector (FV); an element */

struct form {
	uint8_t evex, map, pp, op;
	int8_t w;		/* -1: either */
	uint8_t kind, tuple, esize;	/* esize: an element's bytes (FV, T1) */
	bool imm, sfx;		/* sfx: a mask op's b/w/d/q from pp and W */
	const char *name;
	uint8_t rc;
};

#define E(map, pp, op, w, kind, tuple, es, name) { 1, map, pp, op, w, kind, tuple, es, false, false, name }
#define EI(map, pp, op, w, kind, tuple, es, name) { 1, map, pp, op, w, kind, tuple, es, true, false, name }
#define K(map, op, kind, name) { 0, map, 0xff, op, -1, kind, FVM, 0, false, true, name }
#define KI(map, op, kind, name) { 0, map, 0xff, op, -1, kind, FVM, 0, true, true, name }
/* a packed float's ps (W0) and pd (W1) forms */
#define F(map, pps, ppd, op, kind, rc, name) \
	{ 1, map, pps, op, 0, kind, FV, 4, false, false, name "ps", rc }, \
	{ 1, map, ppd, op, 1, kind, FV, 8, false, false, name "pd", rc }
#define FMA(op, name) F(2, 1, 1, op, V_NDS, ER, name)

static const struct form forms[] = {
	E(1, 1, 0x74, -1, K_CMP, FVM, 1, "vpcmpeqb"), E(1, 1, 0x75, -1, K_CMP, FVM, 2, "vpcmpeqw"),
	E(1, 1, 0x76, 0, K_CMP, FV, 4, "vpcmpeqd"), E(2, 1, 0x29, 1, K_CMP, FV, 8, "vpcmpeqq"),
	E(1, 1, 0x64, -1, K_CMP, FVM, 1, "vpcmpgtb"), E(1, 1, 0x65, -1, K_CMP, FVM, 2, "vpcmpgtw"),
	E(1, 1, 0x66, 0, K_CMP, FV, 4, "vpcmpgtd"), E(2, 1, 0x37, 1, K_CMP, FV, 8, "vpcmpgtq"),
	E(2, 1, 0x26, 0, K_CMP, FVM, 1, "vptestmb"), E(2, 1, 0x26, 1, K_CMP, FVM, 2, "vptestmw"),
	E(2, 1, 0x27, 0, K_CMP, FV, 4, "vptestmd"), E(2, 1, 0x27, 1, K_CMP, FV, 8, "vptestmq"),
	E(2, 2, 0x26, 0, K_CMP, FVM, 1, "vptestnmb"), E(2, 2, 0x26, 1, K_CMP, FVM, 2, "vptestnmw"),
	E(2, 2, 0x27, 0, K_CMP, FV, 4, "vptestnmd"), E(2, 2, 0x27, 1, K_CMP, FV, 8, "vptestnmq"),
	EI(3, 1, 0x3f, 0, K_CMPI, FVM, 1, "b"), EI(3, 1, 0x3f, 1, K_CMPI, FVM, 2, "w"),
	EI(3, 1, 0x3e, 0, K_CMPI, FVM, 1, "ub"), EI(3, 1, 0x3e, 1, K_CMPI, FVM, 2, "uw"),
	EI(3, 1, 0x1f, 0, K_CMPI, FV, 4, "d"), EI(3, 1, 0x1f, 1, K_CMPI, FV, 8, "q"),
	EI(3, 1, 0x1e, 0, K_CMPI, FV, 4, "ud"), EI(3, 1, 0x1e, 1, K_CMPI, FV, 8, "uq"),
	EI(3, 1, 0x25, 0, V_NDS, FV, 4, "vpternlogd"), EI(3, 1, 0x25, 1, V_NDS, FV, 8, "vpternlogq"),
	E(1, 1, 0xef, 0, V_NDS, FV, 4, "vpxord"), E(1, 1, 0xef, 1, V_NDS, FV, 8, "vpxorq"),
	E(1, 1, 0xeb, 0, V_NDS, FV, 4, "vpord"), E(1, 1, 0xeb, 1, V_NDS, FV, 8, "vporq"),
	E(1, 1, 0xdb, 0, V_NDS, FV, 4, "vpandd"), E(1, 1, 0xdb, 1, V_NDS, FV, 8, "vpandq"),
	E(1, 1, 0xdf, 0, V_NDS, FV, 4, "vpandnd"), E(1, 1, 0xdf, 1, V_NDS, FV, 8, "vpandnq"),
	E(1, 1, 0xfc, -1, V_NDS, FVM, 1, "vpaddb"), E(1, 1, 0xfd, -1, V_NDS, FVM, 2, "vpaddw"),
	E(1, 1, 0xfe, 0, V_NDS, FV, 4, "vpaddd"), E(1, 1, 0xd4, 1, V_NDS, FV, 8, "vpaddq"),
	E(1, 1, 0xf8, -1, V_NDS, FVM, 1, "vpsubb"), E(1, 1, 0xf9, -1, V_NDS, FVM, 2, "vpsubw"),
	E(1, 1, 0xfa, 0, V_NDS, FV, 4, "vpsubd"), E(1, 1, 0xfb, 1, V_NDS, FV, 8, "vpsubq"),
	E(1, 1, 0xda, -1, V_NDS, FVM, 1, "vpminub"), E(1, 1, 0xde, -1, V_NDS, FVM, 1, "vpmaxub"),
	E(2, 1, 0x38, -1, V_NDS, FVM, 1, "vpminsb"), E(2, 1, 0x3a, -1, V_NDS, FVM, 2, "vpminuw"),
	E(2, 1, 0x3b, 0, V_NDS, FV, 4, "vpminud"), E(2, 1, 0x3b, 1, V_NDS, FV, 8, "vpminuq"),
	E(2, 1, 0x3f, 0, V_NDS, FV, 4, "vpmaxud"), E(2, 1, 0x3f, 1, V_NDS, FV, 8, "vpmaxuq"),
	E(2, 1, 0x00, -1, V_NDS, FVM, 1, "vpshufb"),
	E(1, 1, 0x6f, 0, V_LOAD, FVM, 4, "vmovdqa32"), E(1, 1, 0x6f, 1, V_LOAD, FVM, 8, "vmovdqa64"),
	E(1, 2, 0x6f, 0, V_LOAD, FVM, 4, "vmovdqu32"), E(1, 2, 0x6f, 1, V_LOAD, FVM, 8, "vmovdqu64"),
	E(1, 3, 0x6f, 0, V_LOAD, FVM, 1, "vmovdqu8"), E(1, 3, 0x6f, 1, V_LOAD, FVM, 2, "vmovdqu16"),
	E(1, 1, 0x7f, 0, V_STORE, FVM, 4, "vmovdqa32"), E(1, 1, 0x7f, 1, V_STORE, FVM, 8, "vmovdqa64"),
	E(1, 2, 0x7f, 0, V_STORE, FVM, 4, "vmovdqu32"), E(1, 2, 0x7f, 1, V_STORE, FVM, 8, "vmovdqu64"),
	E(1, 3, 0x7f, 0, V_STORE, FVM, 1, "vmovdqu8"), E(1, 3, 0x7f, 1, V_STORE, FVM, 2, "vmovdqu16"),
	E(2, 1, 0x78, 0, V_BCST, T1, 1, "vpbroadcastb"), E(2, 1, 0x79, 0, V_BCST, T1, 2, "vpbroadcastw"),
	E(2, 1, 0x58, 0, V_BCST, T1, 4, "vpbroadcastd"), E(2, 1, 0x59, 1, V_BCST, T1, 8, "vpbroadcastq"),
	E(2, 1, 0x7a, 0, V_BCSTG, T1, 1, "vpbroadcastb"), E(2, 1, 0x7b, 0, V_BCSTG, T1, 2, "vpbroadcastw"),
	E(2, 1, 0x7c, 0, V_BCSTG, T1, 4, "vpbroadcastd"), E(2, 1, 0x7c, 1, V_BCSTG, T1, 8, "vpbroadcastq"),
	K(1, 0x90, KM_K, "kmov"), K(1, 0x91, M_K, "kmov"), K(1, 0x92, K_G, "kmov"), K(1, 0x93, G_K, "kmov"),
	K(1, 0x41, K_KK, "kand"), K(1, 0x42, K_KK, "kandn"), K(1, 0x45, K_KK, "kor"), K(1, 0x46, K_KK, "kxnor"),
	K(1, 0x47, K_KK, "kxor"), K(1, 0x4a, K_KK, "kadd"), K(1, 0x4b, K_KK, "kunpck"),
	K(1, 0x44, K_K, "knot"), K(1, 0x98, K_K, "kortest"), K(1, 0x99, K_K, "ktest"),
	KI(3, 0x30, K_KI, "kshiftr"), KI(3, 0x31, K_KI, "kshiftr"), KI(3, 0x32, K_KI, "kshiftl"),
	KI(3, 0x33, K_KI, "kshiftl"),
	F(1, 0, 1, 0x58, V_NDS, ER, "vadd"), F(1, 0, 1, 0x59, V_NDS, ER, "vmul"), F(1, 0, 1, 0x5c, V_NDS, ER, "vsub"),
	F(1, 0, 1, 0x5e, V_NDS, ER, "vdiv"), F(1, 0, 1, 0x5d, V_NDS, SAE, "vmin"), F(1, 0, 1, 0x5f, V_NDS, SAE, "vmax"),
	F(1, 0, 1, 0x54, V_NDS, NO_RC, "vand"), F(1, 0, 1, 0x55, V_NDS, NO_RC, "vandn"),
	F(1, 0, 1, 0x56, V_NDS, NO_RC, "vor"), F(1, 0, 1, 0x57, V_NDS, NO_RC, "vxor"),
	{ 1, 1, 0, 0xc2, 0, K_FCMP, FV, 4, true, false, "ps", SAE }, { 1, 1, 1, 0xc2, 1, K_FCMP, FV, 8, true, false, "pd", SAE },
	F(2, 1, 1, 0x42, V_LOAD, SAE, "vgetexp"),
	FMA(0x98, "vfmadd132"), FMA(0xa8, "vfmadd213"), FMA(0xb8, "vfmadd231"),
	FMA(0x9a, "vfmsub132"), FMA(0xaa, "vfmsub213"), FMA(0xba, "vfmsub231"),
	FMA(0x9c, "vfnmadd132"), FMA(0xac, "vfnmadd213"), FMA(0xbc, "vfnmadd231"),
	FMA(0x9e, "vfnmsub132"), FMA(0xae, "vfnmsub213"), FMA(0xbe, "vfnmsub231"),
	FMA(0x96, "vfmaddsub132"), FMA(0xa6, "vfmaddsub213"), FMA(0xb6, "vfmaddsub231"),
	FMA(0x97, "vfmsubadd132"), FMA(0xa7, "vfmsubadd213"), FMA(0xb7, "vfmsubadd231"),
};

struct enc {			/* one VEX or EVEX instruction, decoded */
	bool evex, z, b, mem, riz;
	unsigned map, pp, w, l, reg, rm, vvvv, aaa, scale, dispsz;
	int base, index;	/* -1: none; base 16: %rip */
	int64_t disp;
	uint8_t op;
	size_t n;		/* its bytes before an immediate */
};

/* The prefix's fields, then ModRM's, SIB's and the displacement's: false when cut short or not VEX/EVEX. */
static bool decode(const uint8_t *c, size_t len, struct enc *e)
{
	unsigned r = 0, x = 0, b = 0, pre, mod, rm3;
	size_t n;

	memset(e, 0, sizeof(*e));
	if (len < 4 || (c[0] != 0x62 && c[0] != 0xc4 && c[0] != 0xc5) || (c[0] == 0x62 && len < 6))
		return false;
	if (c[0] == 0xc5) {
		pre = 2, r = !(c[1] & 0x80), e->map = 1, e->vvvv = (~c[1] >> 3) & 15, e->l = (c[1] >> 2) & 1, e->pp = c[1] & 3;
	} else if (c[0] == 0xc4) {
		pre = 3, r = !(c[1] & 0x80), x = !(c[1] & 0x40), b = !(c[1] & 0x20), e->map = c[1] & 0x1f;
		e->w = c[2] >> 7, e->vvvv = (~c[2] >> 3) & 15, e->l = (c[2] >> 2) & 1, e->pp = c[2] & 3;
	} else {
		if (!(c[2] & 4))
			return false;
		pre = 4, e->evex = true, r = (unsigned)!(c[1] & 0x80) | (unsigned)!(c[1] & 0x10) << 1, x = !(c[1] & 0x40), b = !(c[1] & 0x20);
		e->map = c[1] & 7, e->w = c[2] >> 7, e->vvvv = ((~c[2] >> 3) & 15) | (!(c[3] & 8)) << 4;
		e->pp = c[2] & 3, e->z = c[3] >> 7, e->l = (c[3] >> 5) & 3, e->b = (c[3] >> 4) & 1, e->aaa = c[3] & 7;
	}
	if (len < pre + 2)
		return false;
	e->op = c[pre];
	mod = c[pre + 1] >> 6, rm3 = c[pre + 1] & 7, n = pre + 2;
	e->reg = ((c[pre + 1] >> 3) & 7) | (r & 1) << 3 | (r >> 1) << 4;
	e->base = e->index = -1;
	if (mod == 3) {
		e->rm = rm3 | b << 3 | x << 4;
		e->n = n;
		return true;
	}
	e->mem = true;
	if (rm3 == 4 && n >= len)
		return false;
	if (rm3 == 4) {
		uint8_t sib = c[n++];
		unsigned idx = ((sib >> 3) & 7) | x << 3;

		e->scale = sib >> 6;
		e->index = idx == 4 ? -1 : (int)idx;
		e->base = mod == 0 && (sib & 7) == 5 ? -1 : (int)((sib & 7) | b << 3);
		e->dispsz = e->base < 0 ? 4 : 0;
		e->riz = e->index < 0 && (e->scale || (e->base >= 0 && (sib & 7) != 4));
	} else if (mod == 0 && rm3 == 5) {
		e->base = 16, e->dispsz = 4;
	} else {
		e->base = (int)(rm3 | b << 3);
	}
	e->dispsz = mod == 1 ? 1 : mod == 2 ? 4 : e->dispsz;
	if (n + e->dispsz > len)
		return false;
	if (e->dispsz == 1)
		e->disp = (int8_t)c[n];
	else if (e->dispsz == 4)
		e->disp = (int32_t)((uint32_t)c[n] | (uint32_t)c[n + 1] << 8 | (uint32_t)c[n + 2] << 16 | (uint32_t)c[n + 3] << 24);
	e->n = n + e->dispsz;
	return true;
}

static const struct form *lookup(const struct enc *e)
{
	for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
		const struct form *f = &forms[k];

		if (f->evex == e->evex && f->map == e->map && f->op == e->op && (f->pp == 0xff || f->pp == e->pp) &&
		    (f->w < 0 || (unsigned)f->w == e->w))
			return f;
	}
	return NULL;
}

/* A mask instruction's full name (kmovd, kortestq, kunpckdq, kshiftrd), NULL: no such encoding. */
static bool mask_name(const struct form *f, const struct enc *e, char *out, size_t cap)
{
	static const char *const bwdq[4] = { "w", "q", "b", "d" };	/* by pp (none, 66) and W */
	const char *s = NULL;

	if (f->op == 0x92 || f->op == 0x93)
		s = e->pp == 0 && !e->w ? "w" : e->pp == 1 && !e->w ? "b" : e->pp == 3 ? (e->w ? "q" : "d") : NULL;
	else if (f->op == 0x4b)
		s = e->pp == 1 && !e->w ? "bw" : e->pp == 0 ? (e->w ? "dq" : "wd") : NULL;
	else if (f->map == 3)
		s = e->pp != 1 ? NULL : (f->op & 1) ? (e->w ? "q" : "d") : (e->w ? "w" : "b");
	else if (e->pp < 2)
		s = bwdq[e->pp * 2 + e->w];
	if (!s)
		return false;
	snprintf(out, cap, "%s%s", f->name, s);
	return true;
}


static const char *gpr(unsigned r, bool q)
{
	static const char *const r64[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
					     "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };
	static const char *const r32[16] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
					     "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d" };

	return q ? r64[r & 15] : r32[r & 15];
}

/* An operand: what it is and, for a register, which. */
enum otype { O_VEC, O_XMM, O_K, O_GPR32, O_GPR64, O_MEM };
struct opnd {
	enum otype t;
	unsigned r;
	bool dst;		/* takes {%kN}{z} */
};

/* A memory operand, its size word (Intel) and broadcast: the displacement scaled as EVEX's disp8*N. */
static void put_mem(struct dtext *o, const struct enc *e, bool intel, const char *size, unsigned bcst, unsigned n8)
{
	int64_t d = e->dispsz == 1 ? e->disp * (int64_t)n8 : e->disp;
	uint64_t ad = d < 0 ? -(uint64_t)d : (uint64_t)d;

	if (!intel) {
		if (e->base < 0 && e->index < 0)
			dtext_put(o, "0x%" PRIx64, (uint64_t)d);
		else if (e->dispsz)
			dtext_put(o, "%s0x%" PRIx64, d < 0 ? "-" : "", ad);
		if (e->base >= 0 || e->index >= 0 || e->riz) {
			dtext_put(o, "(");
			if (e->base >= 0)
				dtext_put(o, "%%%s", e->base == 16 ? "rip" : gpr((unsigned)e->base, true));
			if (e->index >= 0 || e->riz)
				dtext_put(o, ",%%%s,%u", e->index >= 0 ? gpr((unsigned)e->index, true) : "riz", 1u << e->scale);
			dtext_put(o, ")");
		}
		if (bcst)
			dtext_put(o, "{1to%u}", bcst);
		return;
	}
	dtext_put(o, "%s %s ", size, bcst ? "BCST" : "PTR");
	if (e->base < 0 && e->index < 0 && !e->riz) {
		dtext_put(o, "ds:0x%" PRIx64, (uint64_t)d);
		return;
	}
	dtext_put(o, "[");
	if (e->base >= 0)
		dtext_put(o, "%s", e->base == 16 ? "rip" : gpr((unsigned)e->base, true));
	if (e->index >= 0 || e->riz)
		dtext_put(o, "%s%s*%u", e->base >= 0 ? "+" : "", e->index >= 0 ? gpr((unsigned)e->index, true) : "riz",
		    1u << e->scale);
	if (e->dispsz)
		dtext_put(o, "%s0x%" PRIx64, d < 0 ? "-" : "+", ad);
	dtext_put(o, "]");
}

static const char *size_word(unsigned bytes)
{
	switch (bytes) {
	case 1: return "BYTE";
	case 2: return "WORD";
	case 4: return "DWORD";
	case 8: return "QWORD";
	case 16: return "XMMWORD";
	case 32: return "YMMWORD";
	default: return "ZMMWORD";
	}
}

/* One operand in the syntax asked for. */
static void put_opnd(struct dtext *o, const struct enc *e, const struct form *f, const struct opnd *p, bool intel)
{
	const char *pc = intel ? "" : "%";
	unsigned vbytes = 16u << e->l, bcst = e->b && f->tuple == FV ? vbytes / f->esize : 0;

	switch (p->t) {
	case O_VEC: dtext_put(o, "%s%cmm%u", pc, "xyz"[e->l], p->r); break;
	case O_XMM: dtext_put(o, "%sxmm%u", pc, p->r); break;
	case O_K: dtext_put(o, "%sk%u", pc, p->r & 7); break;
	case O_GPR32: dtext_put(o, "%s%s", pc, gpr(p->r, false)); break;
	case O_GPR64: dtext_put(o, "%s%s", pc, gpr(p->r, true)); break;
	case O_MEM:
		put_mem(o, e, intel, size_word(bcst || f->tuple == T1 ? f->esize : f->sfx ? f->esize : vbytes),
			bcst, !e->evex ? 1 : bcst || f->tuple == T1 ? f->esize : vbytes);
		break;
	}
	if (p->dst && e->aaa)
		dtext_put(o, "{%sk%u}", pc, e->aaa);
	if (p->dst && e->z)
		dtext_put(o, "{z}");
}

/*
 * The operands of form f in Intel's order (the destination first) into
 * v: their count, 0 when the encoding is not one objdump decodes so.
 */
static unsigned operands(const struct form *f, const struct enc *e, struct opnd *v)
{
	struct opnd rm = { e->mem ? O_MEM : O_VEC, e->rm, false };
	bool noV = e->vvvv == 0;

	switch (f->kind) {
	case K_CMP: case K_CMPI: case K_FCMP:
		v[0] = (struct opnd){ O_K, e->reg, true }, v[1] = (struct opnd){ O_VEC, e->vvvv, false }, v[2] = rm;
		return e->z ? 0 : 3;
	case V_NDS:
		v[0] = (struct opnd){ O_VEC, e->reg, true }, v[1] = (struct opnd){ O_VEC, e->vvvv, false }, v[2] = rm;
		return 3;
	case V_LOAD: case V_BCST: case V_BCSTG:
		v[0] = (struct opnd){ O_VEC, e->reg, true }, v[1] = rm;
		if (f->kind == V_BCST && !e->mem)
			v[1].t = O_XMM;
		if (f->kind == V_BCSTG)
			v[1].t = e->w ? O_GPR64 : O_GPR32;
		return noV && (f->kind != V_BCSTG || !e->mem) && !(f->kind != V_LOAD && e->b) ? 2 : 0;
	case V_STORE:
		v[0] = rm, v[0].dst = true, v[1] = (struct opnd){ O_VEC, e->reg, false };
		return noV && !e->z ? 2 : 0;
	case KM_K: case K_K: case K_KI:
		v[0] = (struct opnd){ O_K, e->reg, false }, v[1] = rm;
		v[1].t = e->mem && f->kind == KM_K ? O_MEM : O_K;
		return noV && (!e->mem || f->kind == KM_K) && !e->l ? 2 : 0;
	case M_K:
		v[0] = rm, v[1] = (struct opnd){ O_K, e->reg, false };
		return noV && e->mem && !e->l ? 2 : 0;
	case K_G:
		v[0] = (struct opnd){ O_K, e->reg, false }, v[1] = (struct opnd){ e->w ? O_GPR64 : O_GPR32, e->rm, false };
		return noV && !e->mem && !e->l ? 2 : 0;
	case G_K:
		v[0] = (struct opnd){ e->w ? O_GPR64 : O_GPR32, e->reg, false }, v[1] = (struct opnd){ O_K, e->rm, false };
		return noV && !e->mem && !e->l ? 2 : 0;
	default:		/* K_KK */
		v[0] = (struct opnd){ O_K, e->reg, false }, v[1] = (struct opnd){ O_K, e->vvvv, false };
		v[2] = (struct opnd){ O_K, e->rm, false };
		return !e->mem && e->l == 1 ? 3 : 0;
	}
}

/* vpcmp's predicate as objdump folds it into the name (vpcmpltub), or the name and the imm8. */
static bool cmp_name(const struct form *f, uint8_t imm, char *out, size_t cap)
{
	static const char *const pred[8] = { "eq", "lt", "le", NULL, "neq", "nlt", "nle", NULL };
	const char *u = f->name[0] == 'u' ? "u" : "", *sz = f->name + (f->name[0] == 'u');

	if (imm < 8 && pred[imm]) {
		snprintf(out, cap, "vpcmp%s%s%s", pred[imm], u, sz);
		return true;
	}
	snprintf(out, cap, "vpcmp%s%s", u, sz);
	return false;
}

/* vcmpps's predicate as objdump folds it into the name (vcmplt_oqpd), or the name and the imm8. */
static bool fcmp_name(const struct form *f, uint8_t imm, char *out, size_t cap)
{
	static const char *const pred[32] = {
		"eq", "lt", "le", "unord", "neq", "nlt", "nle", "ord", "eq_uq", "nge", "ngt", "false", "neq_oq", "ge",
		"gt", "true", "eq_os", "lt_oq", "le_oq", "unord_s", "neq_us", "nlt_uq", "nle_uq", "ord_s", "eq_us",
		"nge_uq", "ngt_uq", "false_os", "neq_os", "ge_oq", "gt_oq", "true_us",
	};

	snprintf(out, cap, "vcmp%s%s", imm < 32 ? pred[imm] : "", f->name);
	return imm < 32;
}

/* The text of the instruction e, of form f, whose immediate (if any) is imm. */
static bool render(const struct form *f, const struct enc *e, uint8_t imm, bool intel, struct dinsn *out)
{
	static const char *const round[4] = { "{rn-sae}", "{rd-sae}", "{ru-sae}", "{rz-sae}" };
	struct opnd v[3];
	struct form g;
	struct enc e512;
	unsigned n = operands(f, e, v);
	struct dtext o = { out->ops, sizeof(out->ops), 0 };
	bool showimm = f->imm;
	const char *rc = !e->b || e->mem ? NULL : f->rc == ER ? round[e->l] : f->rc == SAE ? "{sae}" : NULL;

	if (!n || (e->b && !rc && (!e->mem || f->tuple != FV)) || (!e->evex && (e->aaa || e->z)))
		return false;
	if (rc) {		/* a rounding's vectors are zmm: L'L is the rounding */
		e512 = *e;
		e512.l = 2;
		e = &e512;
	}
	if (f->kind == K_CMPI)
		showimm = !cmp_name(f, imm, out->mnem, sizeof(out->mnem));
	else if (f->kind == K_FCMP)
		showimm = !fcmp_name(f, imm, out->mnem, sizeof(out->mnem));
	else if (f->sfx && !mask_name(f, e, out->mnem, sizeof(out->mnem)))
		return false;
	else if (!f->sfx)
		snprintf(out->mnem, sizeof(out->mnem), "%s", f->name);
	if (f->sfx) {		/* kmovb's memory is a byte... */
		const char *z = strchr("bwdq", out->mnem[strlen(out->mnem) - 1]);

		g = *f;
		g.esize = (uint8_t)(1u << (z ? z - "bwdq" : 0));
		f = &g;
	}
	if (!intel && showimm)
		dtext_put(&o, "$0x%x,", imm);
	if (!intel && rc)
		dtext_put(&o, "%s,", rc);
	for (unsigned k = 0; k < n; k++) {
		if (k)
			dtext_put(&o, ",");
		put_opnd(&o, e, f, &v[intel ? k : n - 1 - k], intel);
	}
	if (intel && rc)
		dtext_put(&o, "%s", rc);
	if (intel && showimm)
		dtext_put(&o, ",0x%x", imm);
	return true;
}

/*
 * An EVEX instruction not in the table that capstone 4 is known to
 * misread: a broadcast or a rounding (b), or a general index register
 * beside a vvvv of 16-31 (capstone reads V' into the index).
 */
static bool misread(const struct enc *e)
{
	bool vsib = e->map == 2 && ((e->op >= 0x90 && e->op <= 0x93) || (e->op >= 0xa0 && e->op <= 0xa3) ||
				    e->op == 0xc6 || e->op == 0xc7);

	return e->evex && (e->b || (e->mem && e->index >= 0 && e->vvvv >= 16 && !vsib));
}

bool disasm_x86_evex(const uint8_t *code, size_t len, uint64_t addr, bool intel, struct dinsn *out)
{
	struct enc e;
	const struct form *f;
	size_t n;

	if (!decode(code, len, &e))
		return false;
	f = lookup(&e);
	memset(out, 0, sizeof(*out));
	if (!f) {
		if (!misread(&e) || !(n = disasm_x86_vex_length(code, len)))
			return false;
		out->size = (unsigned)n;
		memcpy(out->bytes, code, n);
		strcpy(out->mnem, "(bad)");
		return true;
	}
	n = e.n + f->imm;
	if (n > len || n > 15 || !render(f, &e, f->imm ? code[e.n] : 0, intel, out)) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	out->size = (unsigned)n;
	memcpy(out->bytes, code, n);
	if (e.mem && e.base == 16) {
		out->rip = true;
		out->at = addr + n + (uint64_t)e.disp;
	}
	return true;
}

/* A memory operand's vector index without its scale ("(%rax,%zmm7)"): ",1" added, room permitting. */
static void vsib_scale(char *ops, size_t cap)
{
	char *open = strchr(ops, '('), *close = open ? strchr(open, ')') : NULL, *comma;
	size_t len = strlen(ops);

	if (!close || !(comma = memchr(open, ',', (size_t)(close - open))) || memchr(comma + 1, ',', (size_t)(close - comma - 1)))
		return;
	if (comma[1] != '%' || !strchr("xyz", comma[2]) || strncmp(comma + 3, "mm", 2) || len + 3 > cap)
		return;
	memmove(close + 2, close, strlen(close) + 1);
	memcpy(close, ",1", 2);
}

void disasm_x86_evex_text(char *ops, size_t cap)
{
	char *w = ops;

	for (const char *p = ops; *p; p++)
		if (!(p[0] == ' ' && p[1] == '{'))
			*w++ = *p;
	while (w > ops && w[-1] == ' ')
		w--;
	*w = 0;
	vsib_scale(ops, cap);
}
