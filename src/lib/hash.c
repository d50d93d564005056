// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include "hash.h"

static int rehash(struct idmap *m, size_t cap)
{
	struct idmap_slot *n = malloc(cap * sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < cap; i++)
		n[i].idx = -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->v[i].idx >= 0)
			*idmap_probe_(n, cap, m->v[i].id) = m->v[i];
	free(m->v);
	m->v = n;
	m->cap = cap;
	return 0;
}

int idmap_add(struct idmap *m, uint64_t id, int idx)
{
	struct idmap_slot *s;

	if ((m->used + 1) * 2 > m->cap && rehash(m, m->cap ? m->cap * 2 : 64))
		return -ENOMEM;
	s = idmap_probe_(m->v, m->cap, id);
	if (s->idx >= 0)
		return 0;
	s->id = id;
	s->idx = idx;
	s->value = 0;
	m->used++;
	return 0;
}

void idmap_free(struct idmap *m)
{
	free(m->v);
	m->v = NULL;
	m->cap = m->used = 0;
}
