/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_LIB_HASH_H
#define MPERF_LIB_HASH_H

#include <stddef.h>
#include <stdint.h>

/*
 * The hashes of mperf: FNV-1a for strings and for combining keys, and a
 * 64-bit finaliser (MurmurHash3's fmix64) for integer keys such as sample
 * ids, which the kernel hands out in sequence.  Plus the one hash table of
 * integer keys: idmap.
 */
#define HASH_FNV_INIT	14695981039346656037ULL

static inline uint64_t hash_mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 1099511628211ULL;
}

static inline uint64_t hash_str(const char *s)
{
	uint64_t h = HASH_FNV_INIT;

	for (; *s; s++)
		h = hash_mix(h, (unsigned char)*s);
	return h;
}

static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/*
 * A map from u64 ids to a small index (an event's position) and one u64
 * of state per id.  Open addressing, at most half full.  Zero-initialise.
 */
struct idmap_slot {
	uint64_t id;
	int idx;		/* -1: empty slot */
	uint64_t value;		/* the owner's per-id state (starts at 0) */
};

struct idmap {
	struct idmap_slot *v;
	size_t cap, used;
};

/* Add id -> idx; an id already present keeps its first idx.  0 or -ENOMEM. */
int idmap_add(struct idmap *m, uint64_t id, int idx);
void idmap_free(struct idmap *m);

/* The slot of id, or where it would go (idx -1).  cap: a power of two, never full. */
static inline struct idmap_slot *idmap_probe_(struct idmap_slot *v, size_t cap, uint64_t id)
{
	size_t h = (size_t)hash_u64(id) & (cap - 1);

	while (v[h].idx >= 0 && v[h].id != id)
		h = (h + 1) & (cap - 1);
	return &v[h];
}

/* The slot of id, or NULL.  Inline: every sample of a multi-event file looks one up. */
static inline struct idmap_slot *idmap_find(const struct idmap *m, uint64_t id)
{
	struct idmap_slot *s;

	if (!m->cap)
		return NULL;
	s = idmap_probe_(m->v, m->cap, id);
	return s->idx >= 0 ? s : NULL;
}

#endif
