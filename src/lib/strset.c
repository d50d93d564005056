// SPDX-License-Identifier: GPL-2.0-only
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "strset.h"

struct strset_entry {
	struct strset_entry *next;
	char s[];
};

const char *strset_intern(struct strset *set, const char *s)
{
	size_t h = (size_t)hash_str(s), len = strlen(s);
	struct strset_entry *e;

	for (e = set->b[h % STRSET_BUCKETS]; e; e = e->next)
		if (!strcmp(e->s, s))
			return e->s;
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	memcpy(e->s, s, len + 1);
	e->next = set->b[h % STRSET_BUCKETS];
	set->b[h % STRSET_BUCKETS] = e;
	return e->s;
}

void strset_free(struct strset *set)
{
	for (int i = 0; i < STRSET_BUCKETS; i++)
		for (struct strset_entry *e = set->b[i], *n; e; e = n) {
			n = e->next;
			free(e);
		}
	memset(set, 0, sizeof(*set));
}
