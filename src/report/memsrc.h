/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_REPORT_MEMSRC_H
#define MPERF_REPORT_MEMSRC_H

/*
 * A sample's memory fields as perf 6.1 names them: PERF_SAMPLE_DATA_SRC's
 * bit fields (the kernel's union perf_mem_data_src) decoded into the
 * strings of the memory keys (mem, tlb, snoop, locked, blocked), and
 * PERF_SAMPLE_TRANSACTION's flags into the transaction key's.  The one
 * home of these layouts: every key and view that shows them asks here.
 */
#include <stddef.h>
#include <stdint.h>

/* perf's data_src of a sample without the field (PERF_MEM_DATA_SRC_NONE): every part "not available". */
#define MEMSRC_NONE 0x5080021ULL	/* op, lvl, snoop, lock, dtlb: NA */

/* perf's column widths of the memory keys (its hists__calc_col_len) */
enum {
	MEMSRC_LVL_WIDTH = 24,
	MEMSRC_TLB_WIDTH = 22,
	MEMSRC_SNOOP_WIDTH = 12,
	MEMSRC_LOCK_WIDTH = 6,
	MEMSRC_BLK_WIDTH = 10,
	MEMSRC_TXN_WIDTH = 32,	/* the flags perf counts (EL ASYNC RETRY CON CAP-READ) and ":XX " */
};

/* Each writes the string into buf (len bytes, at least 64) and returns it. */
const char *memsrc_lvl(uint64_t data_src, char *buf, size_t len);	/* "L1 hit", "N/A or N/A"... */
const char *memsrc_tlb(uint64_t data_src, char *buf, size_t len);	/* "L1 or L2 hit" */
const char *memsrc_snoop(uint64_t data_src, char *buf, size_t len);	/* "HitM", "None or Fwd" */
const char *memsrc_lock(uint64_t data_src, char *buf, size_t len);	/* "N/A", "Yes", "No" */
const char *memsrc_blk(uint64_t data_src, char *buf, size_t len);	/* " N/A", " Data Addr" */
/* PERF_SAMPLE_TRANSACTION's flags and abort code ("TX SYNC :5"), "" for 0; buf at least 128 bytes. */
const char *memsrc_txn(uint64_t txn, char *buf, size_t len);

#endif
