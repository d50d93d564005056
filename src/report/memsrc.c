// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory sample fields' strings (memsrc.h): data_src's parts as perf
 * 6.1's util/mem-events.c names them, and the transaction flags as its
 * util/sort.c does.  perf writes each into a 64-byte buffer (63 used),
 * so a long list of levels is cut where perf cuts it.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "memsrc.h"

/* The fields of the kernel's union perf_mem_data_src: shift and width. */
#define FIELD(v, shift, bits) (((v) >> (shift)) & ((1ULL << (bits)) - 1))
#define MEM_OP(v)	FIELD(v, 0, 5)
#define MEM_LVL(v)	FIELD(v, 5, 14)
#define MEM_SNOOP(v)	FIELD(v, 19, 5)
#define MEM_LOCK(v)	FIELD(v, 24, 2)
#define MEM_DTLB(v)	FIELD(v, 26, 7)
#define MEM_LVLNUM(v)	FIELD(v, 33, 4)
#define MEM_REMOTE(v)	FIELD(v, 37, 1)
#define MEM_SNOOPX(v)	FIELD(v, 38, 2)
#define MEM_BLK(v)	FIELD(v, 40, 3)
#define MEM_HOPS(v)	FIELD(v, 43, 3)

/* Each part's "not available", "hit" and "miss" bits. */
enum { NA = 1, HIT = 2, MISS = 4, LOCKED = 2, BLK_DATA = 2, BLK_ADDR = 4 };

/* A string built as perf builds it: appends cut at size - 1 (its scnprintf). */
struct sbuf {
	char *s;
	size_t size, l;
};

static void sb_init(struct sbuf *b, char *buf, size_t len)
{
	/* perf's buffers are 64 bytes of which it uses 63 */
	*b = (struct sbuf){ buf, len < 64 ? len : 64, 0 };
	b->size--;
	buf[0] = '\0';
}

static void sb_add(struct sbuf *b, const char *s)
{
	size_t room = b->l < b->size ? b->size - b->l : 0;
	size_t n = strlen(s);

	if (!room)
		return;
	if (n > room - 1)
		n = room - 1;
	memcpy(b->s + b->l, s, n);
	b->l += n;
	b->s[b->l] = '\0';
}

/* The names of the bits set in m, in order, " or " between them; whether any was. */
static bool sb_bits(struct sbuf *b, uint64_t m, const char *const *names, size_t nr, bool sep)
{
	bool any = false;

	for (size_t i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (sep || any)
			sb_add(b, " or ");
		sb_add(b, names[i]);
		any = true;
	}
	return any;
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* perf's end of a level's text: "N/A" when nothing was named, then " hit" and " miss". */
static void hit_miss(struct sbuf *b, uint64_t m)
{
	if (!b->l)
		sb_add(b, "N/A");
	if (m & HIT)
		sb_add(b, " hit");
	if (m & MISS)
		sb_add(b, " miss");
}

static const char *const lvl_names[] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
	"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
};

/* perf 6.1's names of the level numbers; the others are "L<n>" */
static const char *lvlnum_name(unsigned n)
{
	switch (n) {
	case 0x09: return "CXL";
	case 0x0a: return "I/O";
	case 0x0b: return "Any cache";
	case 0x0c: return "LFB/MAB";
	case 0x0d: return "RAM";
	case 0x0e: return "PMEM";
	case 0x0f: return "N/A";
	default: return NULL;
	}
}

static const char *const hops_names[] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};

/*
 * perf 6.1's: "Remote " when remote, then the hops' name or else the
 * level bits, then the level number (" or " after either), then hit/miss.
 */
const char *memsrc_lvl(uint64_t v, char *buf, size_t len)
{
	uint64_t m = MEM_LVL(v), hops = MEM_HOPS(v), num = MEM_LVLNUM(v);
	bool printed = false;
	struct sbuf b;
	char tmp[16];

	sb_init(&b, buf, len);
	if (MEM_REMOTE(v))
		sb_add(&b, "Remote ");
	if (hops) {
		sb_add(&b, hops < NR(hops_names) ? hops_names[hops] : "");
		sb_add(&b, " ");
	} else {
		printed = sb_bits(&b, m & ~(uint64_t)(HIT | MISS), lvl_names, NR(lvl_names), false);
	}
	if (num) {
		if (printed)
			sb_add(&b, " or ");
		if (lvlnum_name((unsigned)num)) {
			sb_add(&b, lvlnum_name((unsigned)num));
		} else {
			snprintf(tmp, sizeof(tmp), "L%u", (unsigned)num);
			sb_add(&b, tmp);
		}
	}
	hit_miss(&b, m);
	return buf;
}

static const char *const tlb_names[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };

const char *memsrc_tlb(uint64_t v, char *buf, size_t len)
{
	uint64_t m = MEM_DTLB(v);
	struct sbuf b;

	sb_init(&b, buf, len);
	sb_bits(&b, m & ~(uint64_t)(HIT | MISS), tlb_names, NR(tlb_names), false);
	hit_miss(&b, m);
	return buf;
}

static const char *const snoop_names[] = { "N/A", "None", "Hit", "Miss", "HitM" };
static const char *const snoopx_names[] = { "Fwd", "Peer" };

const char *memsrc_snoop(uint64_t v, char *buf, size_t len)
{
	struct sbuf b;
	bool any;

	sb_init(&b, buf, len);
	any = sb_bits(&b, MEM_SNOOP(v), snoop_names, NR(snoop_names), false);
	any |= sb_bits(&b, MEM_SNOOPX(v), snoopx_names, NR(snoopx_names), any);
	if (!any)
		sb_add(&b, "N/A");
	return buf;
}

const char *memsrc_lock(uint64_t v, char *buf, size_t len)
{
	uint64_t m = MEM_LOCK(v);

	snprintf(buf, len, "%s", m & NA ? "N/A" : m & LOCKED ? "Yes" : "No");
	return buf;
}

const char *memsrc_blk(uint64_t v, char *buf, size_t len)
{
	uint64_t m = MEM_BLK(v);

	snprintf(buf, len, "%s%s", !m || (m & NA) ? " N/A" : m & BLK_DATA ? " Data" : "",
		 m && !(m & NA) && (m & BLK_ADDR) ? " Addr" : "");
	return buf;
}

/* The transaction flags' names, in perf's order. */
static const struct {
	uint64_t flag;
	const char *name;
} txn_bits[] = {
	{ 1u << 0, "EL " }, { 1u << 1, "TX " }, { 1u << 2, "SYNC " }, { 1u << 3, "ASYNC " },
	{ 1u << 4, "RETRY " }, { 1u << 5, "CON " }, { 1u << 6, "CAP-WRITE " }, { 1u << 7, "CAP-READ " },
};

const char *memsrc_txn(uint64_t t, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NR(txn_bits); i++)
		if (t & txn_bits[i].flag)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s", txn_bits[i].name);
	if (t && !(t & (1u << 2 | 1u << 3)))
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "NEITHER ");
	if (t >> 32)
		snprintf(buf + n, n < len ? len - n : 0, ":%" PRIx64, t >> 32);
	return buf;
}
