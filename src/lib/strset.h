/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_LIB_STRSET_H
#define MPERF_LIB_STRSET_H

/*
 * A set of interned strings: one copy of each, at an address that stays
 * the same until strset_free(), so equal strings compare equal as
 * pointers.  Zero-initialise before use.
 */
#define STRSET_BUCKETS 1024

struct strset_entry;

struct strset {
	struct strset_entry *b[STRSET_BUCKETS];
};

/* The set's copy of s (added if new), or NULL when out of memory. */
const char *strset_intern(struct strset *set, const char *s);
void strset_free(struct strset *set);

#endif
