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

#endif
