// SPDX-License-Identifier: GPL-2.0-only
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "strset.h"

struct strset_entry {
	struct strset_entry *next;
	char s[];
};

const char *strset_intern(struct strset *set, const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	size_t len = strlen(s);
	struct strset_entry *e;

	for (const char *p = s; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
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
