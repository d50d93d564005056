// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tracepoints of a recording: their formats, read from tracefs and
 * parsed with libtraceevent (the fields a --filter may name), and the
 * TRACING_DATA feature that lets perf script and perf report decode their
 * samples: the formats of exactly the recorded tracepoints, in the order
 * tracefs lists them, as perf 6.1 writes it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>
#include "../host/host.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "internal.h"

/* Split "SYS:NAME[:MODS]" into its system and event names. */
static int split_name(const char *full, char *sys, size_t slen, char *name, size_t nlen)
{
	const char *c = strchr(full, ':'), *e;
	size_t ls, ln;

	if (!c)
		return -EINVAL;
	e = strchr(c + 1, ':');
	ls = (size_t)(c - full);
	ln = e ? (size_t)(e - c - 1) : strlen(c + 1);
	if (!ls || !ln || ls >= slen || ln >= nlen)
		return -EINVAL;
	memcpy(sys, full, ls);
	sys[ls] = 0;
	memcpy(name, c + 1, ln);
	name[ln] = 0;
	return 0;
}

/* The index of the tracepoint sys:name among t's, or -1. */
static int find_tp(const struct tracing *t, const char *sys, const char *name)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->tp[i].sys, sys) && !strcmp(t->tp[i].name, name))
			return (int)i;
	return -1;
}

/*
 * Fields the kernel's filters know on every event without a format line
 * (kernel/trace/trace_events.c, trace_define_generic_fields).
 */
static bool generic_field(const char *name)
{
	static const char *const generic[] = { "CPU", "cpu", "common_cpu", "COMM", "comm",
					       "STACKTRACE", "stacktrace", "common_stacktrace" };

	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		if (!strcmp(name, generic[i]))
			return true;
	return false;
}

static bool op_char(int c)
{
	return c == '=' || c == '!' || c == '<' || c == '>' || c == '~' || c == '&';
}

/*
 * Check that every field filter names is one of the event's.  A filter is
 * predicates "FIELD OP VALUE" joined by && and ||, with ( ) and !; VALUE
 * is a number, a word or a quoted string.  Only the field names are looked
 * at: the syntax and the values are the kernel's to judge.
 */
static int check_filter(const struct tracing_tp *tp, const char *filter, const char *full)
{
	const char *p = filter;

	for (;;) {
		char field[128];
		size_t n = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '(' || *p == ')' || *p == '!' ||
		       ((*p == '&' || *p == '|') && p[1] == *p))
			p += (*p == '&' || *p == '|') ? 2 : 1;
		if (!*p)
			return 0;
		while (p[n] && (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
				(p[n] >= '0' && p[n] <= '9')))
			n++;
		if (!n)
			return 0;	/* not a predicate: the kernel says what is wrong */
		if (n < sizeof(field)) {
			memcpy(field, p, n);
			field[n] = 0;
			if (!generic_field(field) && !tep_find_any_field(tp->event, field))
				return mperf_error(-EINVAL, "--filter '%s': %s has no field '%s'", filter, full, field);
		}
		p += n;
		while (*p && *p != ' ' && *p != '\t' && !op_char((unsigned char)*p))
			p++;	/* a modifier (.function) */
		while (*p == ' ' || *p == '\t' || op_char((unsigned char)*p))
			p++;
		/* The value: a quoted string (with \-escapes), or a word. */
		if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (*p && *p != q)
				p += (*p == '\\' && p[1]) ? 2 : 1;
			if (*p)
				p++;
		} else {
			while (*p && *p != ' ' && *p != '\t' && *p != ')' && !(p[0] == '&' && p[1] == '&') &&
			       !(p[0] == '|' && p[1] == '|'))
				p++;
		}
	}
}

/* The filter perf sets for an event's --filter options: the first, then "(f) && (next)". */
static char *combine_filters(const struct record_event *ev)
{
	char *f = ev->nr_filters ? strdup(ev->filters[0]) : NULL;

	for (int i = 1; f && i < ev->nr_filters; i++) {
		char *g;

		if (asprintf(&g, "(%s) && (%s)", f, ev->filters[i]) < 0)
			g = NULL;
		free(f);
		f = g;
	}
	return f;
}

int tracing__init(struct tracing *t, const struct record_opts *o)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < o->nr_events; i++) {
		const struct record_event *ev = &o->events[i];
		struct tracing_tp *tp;
		char path[PATH_MAX + 512], sys[128], name[128];
		enum tep_errno terr;
		int k, err;

		if (ev->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		if (!t->tep) {
			if ((err = host_tracefs_dir(t->dir, sizeof(t->dir))))
				return mperf_error(err, "tracepoint '%s': %s", ev->name,
						   err == -ENOENT ? "tracefs is not mounted" : strerror(-err));
			if (!(t->tep = tep_alloc()))
				return mperf_error(-ENOMEM, "out of memory");
			tep_set_long_size(t->tep, (int)sizeof(long));
			tep_set_page_size(t->tep, (int)sysconf(_SC_PAGESIZE));
		}
		if (split_name(ev->name, sys, sizeof(sys), name, sizeof(name)))
			return mperf_error(-EINVAL, "tracepoint '%s': not a SYS:NAME", ev->name);
		if ((k = find_tp(t, sys, name)) < 0) {
			if (t->nr == RECORD_MAX_EVENTS)
				return mperf_error(-E2BIG, "too many tracepoints");
			tp = &t->tp[t->nr];
			snprintf(tp->sys, sizeof(tp->sys), "%s", sys);
			snprintf(tp->name, sizeof(tp->name), "%s", name);
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", t->dir, sys, name);
			if ((err = host_read_whole_file(path, &tp->format, &tp->format_len)))
				return mperf_error(err, "cannot read '%s': %s", path, strerror(-err));
			t->nr++;
			/*
			 * A format whose print line libtraceevent cannot parse still has
			 * its fields; only an event it could not make at all is an error.
			 */
			terr = tep_parse_format(t->tep, &tp->event, tp->format, tp->format_len, sys);
			if (!tp->event) {
				char msg[256] = "";

				tep_strerror(t->tep, terr, msg, sizeof(msg));
				return mperf_error(-EINVAL, "cannot parse '%s': %s", path, msg);
			}
			k = (int)t->nr - 1;
		}
		tp = &t->tp[k];
		for (int f = 0; f < ev->nr_filters; f++)
			if ((err = check_filter(tp, ev->filters[f], ev->name)))
				return err;
		if (ev->nr_filters && !(t->filter[i] = combine_filters(ev)))
			return mperf_error(-ENOMEM, "out of memory");
	}
	return 0;
}

/* ---- TRACING_DATA ---- */

struct order_walk {
	const struct tracing *t;
	struct pd_tracing_event *out;
	bool *taken;
	size_t n;
	const char *sys;
};

static int order_event(void *arg, const char *name)
{
	struct order_walk *w = arg;
	int k = find_tp(w->t, w->sys, name);

	if (k >= 0 && !w->taken[k]) {
		w->taken[k] = true;
		w->out[w->n++] = (struct pd_tracing_event){ w->t->tp[k].sys,
							    { w->t->tp[k].format, w->t->tp[k].format_len } };
	}
	return 0;
}

static int order_sys(void *arg, const char *sys)
{
	struct order_walk *w = arg;
	char path[PATH_MAX + 256];
	bool recorded = false;

	for (size_t i = 0; i < w->t->nr; i++)
		recorded |= !strcmp(w->t->tp[i].sys, sys);
	if (!recorded)
		return 0;
	snprintf(path, sizeof(path), "%s/events/%s", w->t->dir, sys);
	w->sys = sys;
	host_list_dirs(path, order_event, w);
	return 0;
}

/* A tracefs file for TRACING_DATA; one that is not there is empty, as perf writes it. */
static int read_text(const struct tracing *t, const char *rel, char **data, struct pd_tracing_text *out)
{
	char path[PATH_MAX + 64];
	size_t len;
	int err;

	snprintf(path, sizeof(path), "%s/%s", t->dir, rel);
	err = host_read_whole_file(path, data, &len);
	if (err == -ENOENT) {
		*out = (struct pd_tracing_text){ NULL, 0 };
		return 0;
	}
	if (err)
		return mperf_error(err, "cannot read '%s': %s", path, strerror(-err));
	*out = (struct pd_tracing_text){ *data, len };
	return 0;
}

int tracing__write(const struct tracing *t, struct pdata_writer *w)
{
	struct pd_tracing_event ev[RECORD_MAX_EVENTS];
	bool taken[RECORD_MAX_EVENTS] = { false };
	struct order_walk ow = { t, ev, taken, 0, "ftrace" };
	char *hp = NULL, *he = NULL, *pk = NULL, *cl = NULL, events[PATH_MAX + 16];
	const union { uint16_t v; uint8_t b[2]; } one = { 1 };
	struct pd_tracing_data td = {
		.big_endian = one.b[0] == 0,
		.long_size = sizeof(long),
		.page_size = (uint32_t)sysconf(_SC_PAGESIZE),
	};
	int err;

	if (!t->nr)
		return 0;
	/*
	 * perf's order: the ftrace events first, then each system in tracefs'
	 * order with its recorded events in tracefs' order.
	 */
	snprintf(events, sizeof(events), "%s/events/ftrace", t->dir);
	host_list_dirs(events, order_event, &ow);
	snprintf(events, sizeof(events), "%s/events", t->dir);
	if ((err = host_list_dirs(events, order_sys, &ow)) < 0)
		return mperf_error(err, "cannot read '%s': %s", events, strerror(-err));
	for (size_t i = 0; i < t->nr; i++)	/* gone from tracefs meanwhile: still written */
		if (!taken[i])
			ev[ow.n++] = (struct pd_tracing_event){ t->tp[i].sys, { t->tp[i].format, t->tp[i].format_len } };
	td.events = ev;
	td.nr_events = ow.n;
	/*
	 * perf 6.1 writes kallsyms empty (size 0, "to keep older parsers
	 * happy"), and printk_formats and saved_cmdlines as tracefs has them.
	 */
	if (!(err = read_text(t, "events/header_page", &hp, &td.header_page)) &&
	    !(err = read_text(t, "events/header_event", &he, &td.header_event)) &&
	    !(err = read_text(t, "printk_formats", &pk, &td.printk)) &&
	    !(err = read_text(t, "saved_cmdlines", &cl, &td.cmdlines)))
		err = pdw__feat_tracing_data(w, &td);
	free(hp);
	free(he);
	free(pk);
	free(cl);
	return err;
}

void tracing__free(struct tracing *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->tp[i].format);
	for (size_t i = 0; i < RECORD_MAX_EVENTS; i++)
		free(t->filter[i]);
	if (t->tep)
		tep_free(t->tep);
	memset(t, 0, sizeof(*t));
}
