// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's source lines of user addresses (srcline.h): the lookups in the
 * symbol cache's line tables and symbol tables, and perf's count of each
 * DSO's failed lookups.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/alloc.h"
#include "../resolve/symbols.h"
#include "srcline.h"

struct srclines_dso {
	char *path;
	unsigned fails;
	bool ok;		/* a lookup succeeded: perf never gives up on it */
	bool off;		/* SRCLINES_LIMIT failures first: perf asks it no more */
};

void srclines_init(struct srclines *s, struct symcache *syms)
{
	*s = (struct srclines){ .syms = syms };
}

void srclines_release(struct srclines *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->d[i].path);
	free(s->d);
	s->d = NULL;
	s->n = s->cap = 0;
}

static struct srclines_dso *lookup(const struct srclines *s, const char *path)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->d[i].path, path))
			return &s->d[i];
	return NULL;
}

bool srclines_off(const struct srclines *s, const char *path)
{
	const struct srclines_dso *d = lookup(s, path);

	return d && d->off;
}

int srclines_note(struct srclines *s, const char *path, bool found)
{
	struct srclines_dso *d = lookup(s, path);

	if (!d) {
		if (ALLOC_GROW(s->d, s->n + 1, s->cap))
			return -ENOMEM;
		d = &s->d[s->n];
		*d = (struct srclines_dso){ .path = strdup(path) };
		if (!d->path)
			return -ENOMEM;
		s->n++;
		s->undecided++;
	}
	if (d->ok || d->off)
		return 0;
	if (found)
		d->ok = true;
	else
		d->off = ++d->fails >= SRCLINES_LIMIT;
	if (d->ok || d->off)
		s->undecided--;
	return 0;
}

bool srclines_find(struct srclines *s, const char *path, uint64_t off, char *buf, size_t len, const char **file)
{
	const char *base;
	int line;

	*file = NULL;
	if (path[0] != '/' || srclines_off(s, path) || !symcache__has_image(s->syms, path))
		return false;
	if (s->full_path) {
		line = symcache__srcline_path(s->syms, path, off, s->full, sizeof(s->full));
		*file = s->full[0] ? s->full : NULL;
	} else {
		line = symcache__srcline(s->syms, path, off, file);
	}
	if (!line && !*file && !symcache__file_symbol(s->syms, path, off, file))
		return false;
	/* the line table's line, else addr2line's function symbol's file (or "??") and line 0 */
	if (*file && *file != s->full && (base = strrchr(*file, '/')))
		*file = base + 1;
	snprintf(buf, len, "%s:%d", *file ? *file : "??", *file ? line : 0);
	return true;
}

bool srclines_of(struct srclines *s, const struct srcline_at *a, char *buf, size_t len, const char **file)
{
	*file = NULL;
	if (!a->path || !a->dso)
		snprintf(buf, len, "??:0");
	else if (a->ask && srclines_find(s, a->path, a->off, buf, len, file))
		return true;
	else if (a->sym)
		snprintf(buf, len, "%s+%" PRIu64, a->sym, a->ip - a->sym_start);
	else
		snprintf(buf, len, "%s[%" PRIx64 "]", a->dso, a->objdump);
	return false;
}
