// SPDX-License-Identifier: GPL-2.0-only
/*
 * The length of an x86-64 instruction with a VEX or EVEX prefix, from its
 * encoding alone: capstone 4 decodes no AVX-512 compare into a mask
 * register (vpcmpeqb ...,%k0) and no VEX mask instruction (kmovd), which
 * glibc's *_evex string functions are made of.  Knowing where such an
 * instruction ends keeps the listing's addresses in step with objdump's
 * (and a sample's address on its instruction) where the text is not known.
 */
#include "disasm.h"

/* Whether an opcode of map (1: 0f, 2: 0f38, 3: 0f3a) has an 8-bit immediate after its operands. */
static bool has_imm8(unsigned map, uint8_t op)
{
	if (map == 3)
		return true;
	return map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6));
}

/* The bytes after the opcode for the ModRM at p (64-bit addressing): ModRM, SIB, displacement; 0: cut short. */
static size_t modrm_length(const uint8_t *p, size_t len)
{
	unsigned mod, rm;
	size_t n = 1;

	if (!len)
		return 0;
	mod = p[0] >> 6;
	rm = p[0] & 7;
	if (mod == 3)
		return 1;
	if (rm == 4) {
		if (len < 2)
			return 0;
		n++;
		if (mod == 0 && (p[1] & 7) == 5)
			n += 4;
	} else if (mod == 0 && rm == 5) {
		n += 4;
	}
	return n + (mod == 1 ? 1 : mod == 2 ? 4 : 0);
}

size_t disasm_x86_vex_length(const uint8_t *code, size_t len)
{
	size_t pre, n, m;
	unsigned map;
	uint8_t op;

	if (len < 2)
		return 0;
	switch (code[0]) {
	case 0xc5:		/* c5 RvvvvLpp: map 0f */
		pre = 2;
		map = 1;
		break;
	case 0xc4:		/* c4 RXBmmmmm WvvvvLpp */
		pre = 3;
		map = code[1] & 0x1f;
		break;
	case 0x62:		/* 62 P0 P1 P2 */
		pre = 4;
		map = code[1] & 0x7;
		if (len > 2 && !(code[2] & 0x4))	/* EVEX's fixed bit */
			return 0;
		break;
	default:
		return 0;
	}
	if (map < 1 || map > 6 || (code[0] != 0x62 && map > 3) || len < pre + 1)
		return 0;
	op = code[pre];
	n = pre + 1;
	if (!(code[0] != 0x62 && map == 1 && op == 0x77)) {	/* vzeroupper, vzeroall: no ModRM */
		if (!(m = modrm_length(code + n, len - n)))
			return 0;
		n += m;
	}
	n += has_imm8(map, op);
	return n <= len && n <= 15 ? n : 0;
}
