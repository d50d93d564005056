// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf stat's modes (learnt from what perf 6.1 prints): -A, --per-core,
 * --per-socket, --per-die, --per-node, --per-thread gather the counts of
 * each fd (record__count's cells) into units, and each unit's rows carry
 * its prefix ("CPU0", "S0-D0-C1  1", "noploop-1234"); -I prints each
 * interval's rows after its time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct unit {
	int key[3];		/* what tells units apart: socket, die, core; a CPU; a node; a thread */
	int nr;			/* the CPUs in it */
	struct count_result *r;	/* its counts */
};

/* The unit of cell (cpu index c, thread index th) in p's mode: its key; false when it has none. */
static bool unit_key(const struct count_result *r, const struct stat_print_opts *p, int c, int th, int key[3])
{
	int cpu = r->cpus[c];
	const struct stat_cpu_ids *id;

	key[0] = key[1] = key[2] = 0;
	if (p->aggr == STAT_AGGR_THREAD) {
		key[0] = r->tids[th];
		return true;
	}
	if (p->aggr == STAT_AGGR_GLOBAL)
		return true;
	if (cpu < 0)
		return false;
	if (p->aggr == STAT_AGGR_CPU) {
		key[0] = cpu;
		return true;
	}
	if (!p->cpu_ids || cpu >= p->nr_cpu_ids)
		return false;
	id = &p->cpu_ids[cpu];
	switch (p->aggr) {
	case STAT_AGGR_NODE:
		key[0] = id->node;
		break;
	case STAT_AGGR_CORE:
		key[2] = id->core;
		/* fall through */
	case STAT_AGGR_DIE:
		key[1] = id->die;
		/* fall through */
	default:
		key[0] = id->socket;
	}
	return true;
}

static int key_cmp(const void *a, const void *b)
{
	const struct unit *x = a, *y = b;

	for (int k = 0; k < 3; k++)
		if (x->key[k] != y->key[k])
			return x->key[k] < y->key[k] ? -1 : 1;
	return 0;
}

static void units_free(struct unit *u, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(u[k].r);
	free(u);
}

/* Add cell (c, th) of r to its unit in u[0..*n), made when new.  0 or -ENOMEM. */
static int add_cell(struct unit **u, size_t *n, const struct count_result *r, const struct stat_print_opts *p,
		    int c, int th)
{
	struct unit *x = NULL;
	int key[3];

	if (!unit_key(r, p, c, th, key))
		return 0;
	for (size_t k = 0; k < *n && !x; k++)
		if (!memcmp((*u)[k].key, key, sizeof(key)))
			x = &(*u)[k];
	if (!x) {
		struct unit *grown = realloc(*u, (*n + 1) * sizeof(**u));

		if (!grown)
			return -ENOMEM;
		*u = grown;
		x = &grown[(*n)++];
		*x = (struct unit){ .key = { key[0], key[1], key[2] }, .r = calloc(1, sizeof(*x->r)) };
		if (!x->r)
			return -ENOMEM;
		x->r->nr_events = r->nr_events;
		for (size_t i = 0; i < r->nr_events; i++) {
			memcpy(x->r->ev[i].name, r->ev[i].name, sizeof(r->ev[i].name));
			x->r->ev[i].attr = r->ev[i].attr;
			x->r->ev[i].supported = r->ev[i].supported;
		}
		x->r->has_workload = r->has_workload;
		x->r->has_cpu = r->has_cpu;
	}
	if (th == 0)
		x->nr++;
	for (size_t i = 0; i < r->nr_events; i++) {
		const struct count_cell *cell = &r->cell[((size_t)i * (size_t)r->nr_cpus + (size_t)c) * (size_t)r->nr_threads + (size_t)th];

		x->r->ev[i].val += cell->val;
		x->r->ev[i].ena += cell->ena;
		x->r->ev[i].run += cell->run;
	}
	return 0;
}

/* The prefix of unit u's rows in p's format, into buf. */
static void unit_prefix(char *buf, size_t len, const struct stat_print_opts *p, const struct unit *u, bool supported)
{
	const char *sep = p->sep;
	bool csv = p->format == STAT_CSV, json = p->format == STAT_JSONL;
	int nr = supported ? u->nr : 1;	/* as perf: an event it could not open has one */
	char name[64] = "", comm[32] = "";

	switch (p->aggr) {
	case STAT_AGGR_CPU:
		if (json)
			snprintf(buf, len, "\"cpu\" : \"%d\", ", u->key[0]);
		else
			snprintf(buf, len, "CPU%-*d%s", csv ? 0 : 7, u->key[0], csv ? sep : " ");
		return;
	case STAT_AGGR_THREAD:
		if (p->comm)
			p->comm(u->key[0], comm, sizeof(comm));
		if (json)
			snprintf(buf, len, "\"thread\" : \"%s-%d\", ", comm, u->key[0]);
		else
			snprintf(buf, len, "%*s-%-*d%s", csv ? 0 : 16, comm, csv ? 0 : 8, u->key[0], csv ? sep : " ");
		return;
	case STAT_AGGR_CORE:
		snprintf(name, sizeof(name), "S%d-D%d-C%-*d", u->key[0], u->key[1], csv || json ? 0 : 8, u->key[2]);
		break;
	case STAT_AGGR_DIE:
		snprintf(name, sizeof(name), "S%d-D%-*d", u->key[0], csv || json ? 0 : 8, u->key[1]);
		break;
	case STAT_AGGR_SOCKET:
		snprintf(name, sizeof(name), "S%-*d", csv || json ? 0 : 5, u->key[0]);
		break;
	case STAT_AGGR_NODE:
		snprintf(name, sizeof(name), "N%-*d", csv || json ? 0 : 5, u->key[0]);
		break;
	default:
		*buf = '\0';
		return;
	}
	if (json) {
		static const char *const what[] = { [STAT_AGGR_CORE] = "core", [STAT_AGGR_DIE] = "die",
						    [STAT_AGGR_SOCKET] = "socket", [STAT_AGGR_NODE] = "node" };

		snprintf(buf, len, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ", what[p->aggr], name, nr);
	} else {
		snprintf(buf, len, "%s%s%*d%s", name, csv ? sep : " ", csv ? 0 : 4, nr, csv ? sep : " ");
	}
}

/* One unit's rows, or (-A) one event's row of it. */
static int unit_rows(FILE *f, const struct unit *u, const struct stat_print_opts *p, const char *time, double wall_ns,
		     size_t only)
{
	struct stat_runs *s = calloc(1, sizeof(*s));
	char pre[256];
	size_t n;

	if (!s)
		return -ENOMEM;
	u->r->elapsed_ns = (uint64_t)wall_ns;
	if (stat_runs__add(s, u->r)) {
		free(s);
		return -ENOMEM;
	}
	for (size_t i = only == SIZE_MAX ? 0 : only; i < s->nr_events && (only == SIZE_MAX || i == only); i++) {
		snprintf(pre, sizeof(pre), "%s", time);
		n = strlen(pre);
		unit_prefix(pre + n, sizeof(pre) - n, p, u, s->ev[i].supported);
		stat__row(f, s, i, p, pre);
	}
	stat_runs__release(s);
	free(s);
	return 0;
}

int stat__mode_rows(FILE *f, const struct count_result *r, const struct stat_print_opts *p, const char *time,
		    double wall_ns)
{
	struct unit *u = NULL;
	size_t n = 0;
	int err = 0;

	if (p->aggr == STAT_AGGR_GLOBAL) {
		struct unit all = { .nr = 1, .r = malloc(sizeof(*r)) };

		if (!all.r)
			return -ENOMEM;
		memcpy(all.r, r, sizeof(*r));
		all.r->cell = NULL;
		err = unit_rows(f, &all, p, time, wall_ns, SIZE_MAX);
		free(all.r);
		return err;
	}
	for (int c = 0; r->cell && c < r->nr_cpus && !err; c++)
		for (int th = 0; th < r->nr_threads && !err; th++)
			err = add_cell(&u, &n, r, p, c, th);
	if (!err && n)
		qsort(u, n, sizeof(*u), key_cmp);
	/* -A: each event's CPUs in turn; the other modes: each unit's events in turn. */
	if (p->aggr == STAT_AGGR_CPU)
		for (size_t i = 0; i < r->nr_events && !err; i++)
			for (size_t k = 0; k < n && !err; k++)
				err = unit_rows(f, &u[k], p, time, wall_ns, i);
	else
		for (size_t k = 0; k < n && !err; k++)
			err = unit_rows(f, &u[k], p, time, wall_ns, SIZE_MAX);
	units_free(u, n);
	return err;
}

/* perf's header of -I's text, by mode. */
static const char *interval_header(enum stat_aggr a)
{
	switch (a) {
	case STAT_AGGR_CPU:
		return "#           time CPU                    counts unit events\n";
	case STAT_AGGR_CORE:
		return "#           time core            cpus             counts unit events\n";
	case STAT_AGGR_SOCKET:
		return "#           time socket cpus             counts unit events\n";
	case STAT_AGGR_DIE:
		return "#           time die          cpus             counts unit events\n";
	case STAT_AGGR_NODE:
		return "#           time node   cpus             counts unit events\n";
	case STAT_AGGR_THREAD:
		return "#           time             comm-pid                  counts unit events\n";
	default:
		return "#           time             counts unit events\n";
	}
}

int stat__print_interval(FILE *f, const struct count_result *iv, struct stat_print_opts *p)
{
	double t = (double)iv->ts_ns / 1e9;
	char time[64];
	int err;

	if (p->metric_only)
		return stat__metric_only_interval(f, iv, p);
	if (p->format == STAT_JSONL)
		snprintf(time, sizeof(time), "\"interval\" : %.9f, ", t);
	else
		snprintf(time, sizeof(time), "%16.9f%s", t, p->format == STAT_CSV ? p->sep : " ");
	/* perf's header: the first interval's, then every 25 (text alone). */
	if (p->format == STAT_TEXT && p->interval_rows % 25 == 0)
		fputs(interval_header(p->aggr), f);
	p->interval_rows++;
	err = stat__mode_rows(f, iv, p, time, (double)p->interval_ms * 1e6);
	if (err)
		return err;
	return fflush(f) || ferror(f) ? -(errno ? errno : EIO) : 0;
}
