/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_ANNOTATE_DISASM_ATT_H
#define MPERF_ANNOTATE_DISASM_ATT_H

#include <capstone/capstone.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * x86's AT&T text as objdump prints it, rebuilt from capstone's details
 * (disasm.c's, private to src/annotate).  i was decoded by h (AT&T, with
 * details); mnem holds the mnemonic chosen so far (objdump's suffix
 * rule); scratch is an instruction of h's to decode again with.  Writes
 * the prefix words objdump prints (data16, cs, notrack...) into mnem and
 * the operands into ops; false when the details do not account for
 * capstone's text (mnem and ops are then left alone).
 */
bool disasm_att(csh h, const cs_insn *i, cs_insn *scratch, char *mnem, size_t mcap, char *ops, size_t ocap);

/* A jump or call of x86 (loop included, which capstone 4 puts in no group). */
bool disasm_x86_branch(csh h, const cs_insn *i);
/* Whether a register operand gives i's operand size (objdump then prints no suffix). */
bool disasm_att_sized(const cs_insn *i);

/*
 * What the Intel text (disasm-intel.c) shares with the AT&T one: the
 * prefix words (prefix_words: "data16 ", "cs "..., the segment they hide
 * from the operand), the SIB byte of i's memory operand (-1: none), its
 * one-byte opcode (-1: a longer one), x87's one-operand form in AT&T
 * ("%%%s,%%st"; NULL: another case).
 */
void disasm_x86_prefix_words(csh h, const cs_insn *i, cs_insn *scratch, char *words, size_t cap, x86_reg *hidden);
int disasm_x86_sib(const cs_insn *i);
int disasm_x86_opcode1(const cs_insn *i);
const char *disasm_x86_x87_form(const cs_insn *i);
/* Whether i's immediate is a byte capstone 4 widens (xabort's). */
bool disasm_x86_imm8_only(const cs_insn *i);

/*
 * x86's Intel text as objdump -M intel prints it, rebuilt from capstone's
 * details as disasm_att does for AT&T; i was decoded by h (Intel, with
 * details); false when the details do not account for capstone's text.
 */
bool disasm_intel(csh h, const cs_insn *i, cs_insn *scratch, char *mnem, size_t mcap, char *ops, size_t ocap);

#endif
