// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tracepoints' formats of a file (tracefmt.h): its TRACING_DATA read
 * as perf reads it, and a sample's fields printed by its format.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/err.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include <event-parse.h>
#include "tracefmt.h"

/* The text t as a NUL-terminated copy, or NULL. */
static char *text_dup(const struct pd_tracing_text *t)
{
	char *s = malloc(t->len + 1);

	if (s) {
		if (t->len)
			memcpy(s, t->p, t->len);
		s[t->len] = 0;
	}
	return s;
}

/* printk_formats lines: `0xADDR : "format"`; bprint events find their formats there. */
static void load_printk(struct tep_handle *tep, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *colon = strchr(line, ':'), *fmt;
		unsigned long long addr;

		if (!colon)
			continue;
		addr = strtoull(line, NULL, 16);
		fmt = colon + 1;
		if (*fmt == ' ')
			fmt++;
		/*
		 * As perf hands it over, quotes and all: libtraceevent strips
		 * them, and looks two bytes before the end (a shorter string
		 * would make it read before the start).
		 */
		if (strlen(fmt) >= 3)
			tep_register_print_string(tep, fmt, addr);
	}
}

/* saved_cmdlines lines: "PID COMM". */
static void load_cmdlines(struct tep_handle *tep, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *end;
		long pid = strtol(line, &end, 10);

		if (end != line && *end == ' ')
			tep_register_comm(tep, end + 1, (int)pid);
	}
}

/* kallsyms lines: "ADDR TYPE NAME [MODULE]" (perf 6.1 writes none; older perf did). */
static void load_functions(struct tep_handle *tep, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char name[512], mod[256] = "";
		unsigned long long addr;
		char type;

		if (sscanf(line, "%llx %c %511s %255s", &addr, &type, name, mod) < 3)
			continue;
		if (mod[0] == '[') {
			size_t n = strlen(mod);

			memmove(mod, mod + 1, n);
			if (n > 1 && mod[n - 2] == ']')
				mod[n - 2] = 0;
		}
		tep_register_function(tep, name, addr, mod[0] ? mod : NULL);
	}
}

/*
 * The tracepoints' formats from TRACING_DATA, parsed as perf does: the
 * header page, the ftrace events, the events of each system, then the
 * kernel's symbols, printk formats and command names the file carries.
 * A format libtraceevent cannot parse leaves its event without fields.
 */
int tracefmt__load(struct tracefmt *T, struct pdata *p, const char *label)
{
	const unsigned char *buf;
	struct pd_tracing_data td;
	struct pd_tracing_event *ev = NULL;
	size_t len, nr;
	char *t;
	int err;

	T->loaded = true;
	if (!(buf = pdata__tracing_data(p, &len)))
		return 0;
	err = pd_tracing_data_decode(buf, len, &td, NULL, 0, &nr);
	if (!err && nr && !(ev = calloc(nr, sizeof(*ev))))
		return mperf_error(-ENOMEM, "out of memory");
	if (!err)
		err = pd_tracing_data_decode(buf, len, &td, ev, nr, &nr);
	if (err) {
		free(ev);
		return mperf_error(err, "'%s': the TRACING_DATA feature is %s", label,
				   err == -MPERF_ERR_UNSUPP ? "of a version or byte order mperf does not read" : "malformed");
	}
	if (!(T->tep = tep_alloc())) {
		free(ev);
		return mperf_error(-ENOMEM, "out of memory");
	}
	tep_set_file_bigendian(T->tep, td.big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(T->tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(T->tep, td.long_size);
	tep_set_page_size(T->tep, (int)td.page_size);
	if ((t = text_dup(&td.header_page))) {
		tep_parse_header_page(T->tep, t, td.header_page.len, td.long_size);
		free(t);
	}
	for (size_t i = 0; i < td.nr_events; i++)
		if (ev[i].format.len)
			tep_parse_event(T->tep, ev[i].format.p, ev[i].format.len, ev[i].sys);
	free(ev);
	if (td.kallsyms.len && (t = text_dup(&td.kallsyms))) {
		load_functions(T->tep, t);
		free(t);
	}
	if (td.printk.len && (t = text_dup(&td.printk))) {
		load_printk(T->tep, t);
		free(t);
	}
	if (td.cmdlines.len && (t = text_dup(&td.cmdlines))) {
		load_cmdlines(T->tep, t);
		free(t);
	}
	if (!(T->seq = malloc(sizeof(*T->seq))))
		return mperf_error(-ENOMEM, "out of memory");
	trace_seq_init(T->seq);
	return 0;
}

/* The format of a tracepoint event (by its attr's config, the tracefs id), or NULL. */
struct tep_event *tracefmt__event(struct tracefmt *T, int evsel, const struct pd_evsel *ev)
{
	if ((size_t)evsel >= T->nr_tp) {
		size_t n = (size_t)evsel + 1;
		struct tep_event **v = realloc(T->tp, n * sizeof(*v));

		if (!v)
			return NULL;
		for (size_t i = T->nr_tp; i < n; i++)
			v[i] = (struct tep_event *)-1;	/* not looked up yet */
		T->tp = v;
		T->nr_tp = n;
	}
	if (T->tp[evsel] == (struct tep_event *)-1)
		T->tp[evsel] = T->tep && ev->attr.type == PERF_TYPE_TRACEPOINT ?
			       tep_find_event(T->tep, (int)ev->attr.config) : NULL;
	return T->tp[evsel];
}

/*
 * Whether raw data of size bytes holds every field of the format where it
 * says, dynamic strings and arrays included: libtraceevent trusts them.
 */
static bool raw_fits(const struct tep_event *e, const unsigned char *raw, uint32_t size)
{
	const struct tep_format_field *lists[2] = { e->format.common_fields, e->format.fields };

	for (int l = 0; l < 2; l++)
		for (const struct tep_format_field *f = lists[l]; f; f = f->next) {
			uint32_t loc, off, len;

			if (f->offset < 0 || f->size < 0 || (uint64_t)f->offset + (uint64_t)f->size > size)
				return false;
			if (!(f->flags & TEP_FIELD_IS_DYNAMIC) || f->size != 4)
				continue;
			memcpy(&loc, raw + f->offset, 4);
			off = loc & 0xffff;
			len = loc >> 16;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += (uint32_t)f->offset + 4;
			if ((uint64_t)off + len > size)
				return false;
		}
	return true;
}

const char *tracefmt__info(struct tracefmt *T, int evsel, const struct pd_evsel *ev, const struct pd_sample *smp,
			   size_t *len)
{
	struct tep_event *e = tracefmt__event(T, evsel, ev);
	struct tep_record rec;

	if (!e || !T->seq || !smp->raw || !raw_fits(e, smp->raw, smp->raw_size))
		return NULL;
	memset(&rec, 0, sizeof(rec));
	rec.cpu = (int)smp->cpu;
	rec.size = (int)smp->raw_size;
	rec.data = (void *)smp->raw;
	trace_seq_reset(T->seq);
	tep_print_event(T->tep, T->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(T->seq);
	*len = T->seq->len;
	return T->seq->buffer;
}

void tracefmt__release(struct tracefmt *T)
{
	if (T->seq)
		trace_seq_destroy(T->seq);
	free(T->seq);
	if (T->tep)
		tep_free(T->tep);
	free(T->tp);
	memset(T, 0, sizeof(*T));
}
