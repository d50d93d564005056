// SPDX-License-Identifier: GPL-2.0-only
/*
 * -F/--fields and --sort together, as perf 6.1's util/sort.c puts them
 * together (fields.h): the value columns' table, the fields' names, and
 * the two lists the text view shows and sorts by.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "fields.h"

/* perf's hpp formats: their names in --fields, their headers and widths. */
static const struct {
	const char *name, *header;
	int len;
} values[REPORT_NR_VALUES] = {
	[REPORT_VALUE_OVERHEAD] = { "overhead", "Overhead", 8 },
	[REPORT_VALUE_OVERHEAD_SYS] = { "overhead_sys", "sys", 8 },
	[REPORT_VALUE_OVERHEAD_US] = { "overhead_us", "usr", 8 },
	[REPORT_VALUE_OVERHEAD_GUEST_SYS] = { "overhead_guest_sys", "guest sys", 9 },
	[REPORT_VALUE_OVERHEAD_GUEST_US] = { "overhead_guest_us", "guest usr", 9 },
	[REPORT_VALUE_OVERHEAD_CHILDREN] = { "overhead_children", "Children", 8 },
	[REPORT_VALUE_SAMPLE] = { "sample", "Samples", 12 },
	[REPORT_VALUE_PERIOD] = { "period", "Period", 12 },
};

int report_field_find(const char *p, size_t len, struct report_field *f)
{
	const char *ipc = report_sort_key_name(REPORT_KEY_IPC_NULL);
	int k = report_sort_key_find(p, len, REPORT_SORT_USUAL);

	/* perf's -F takes ipc_null (its "IPC   [IPC Coverage]" column), which its --sort refuses */
	if (k < 0 && len && len <= strlen(ipc) && !strncasecmp(p, ipc, len))
		k = REPORT_KEY_IPC_NULL;
	if (k >= 0) {
		*f = (struct report_field){ .value = false, .id = k };
		return 0;
	}
	for (int v = 0; len && v < REPORT_NR_VALUES; v++)
		if (strlen(values[v].name) >= len && !strncasecmp(p, values[v].name, len)) {
			*f = (struct report_field){ .value = true, .id = v };
			return 0;
		}
	return -1;
}

void report_field_list(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int v = 0; v < REPORT_NR_VALUES && n < len; v++)
		n += (size_t)snprintf(buf + n, len - n, "%s, ", values[v].name);
	if (n < len)
		report_sort_key_list(buf + n, len - n, REPORT_SORT_USUAL, -1);
	n = strlen(buf);
	if (n < len)
		snprintf(buf + n, len - n, ", %s", report_sort_key_name(REPORT_KEY_IPC_NULL));
}

const char *fields_value_header(enum report_value v, const struct report_hist_opts *o, bool children)
{
	/* perf renames its default Overhead column only where it makes the default columns */
	if (v == REPORT_VALUE_OVERHEAD && children && (!o->nr_fields || o->fields_add))
		return "Self";
	return values[v].header;
}

int fields_value_len(enum report_value v)
{
	return values[v].len;
}

static bool field_eq(struct report_field a, struct report_field b)
{
	return a.value == b.value && a.id == b.id;
}

static bool has(const struct field_list *l, struct report_field f)
{
	for (int i = 0; i < l->n; i++)
		if (field_eq(l->f[i], f))
			return true;
	return false;
}

/* f at the end of l, once (perf takes a field or key once). */
static void push(struct field_list *l, struct report_field f)
{
	if (!has(l, f) && l->n < FIELDS_MAX)
		l->f[l->n++] = f;
}

static struct report_field value(enum report_value v)
{
	return (struct report_field){ .value = true, .id = v };
}

static struct report_field key(enum report_key k)
{
	return (struct report_field){ .value = false, .id = k };
}

/* --sort's value keys given before its key k (k == o->nr_keys: after the last). */
static void sort_values_at(const struct report_hist_opts *o, int k, struct field_list *s)
{
	for (int i = 0; i < o->nr_sort_values; i++)
		if (o->sort_values[i].at == k)
			push(s, value(o->sort_values[i].v));
}

/*
 * perf's sort list: the --sort keys and value keys (its default's without
 * -F, none with -F's fields alone), after Overhead and, in the Children
 * view, Children, unless -F's fields stand alone or the --sort text names
 * them (perf's setup_overhead: where it does, they are compared where
 * given or, shown by default, after the others).
 */
static void sort_list(const struct report_hist_opts *o, bool children, bool branch, struct field_list *s)
{
	bool strict = o->nr_fields && !o->fields_add;
	const enum report_key *keys = branch ? o->bkeys : o->keys;
	int nr_keys = branch ? o->nr_bkeys : o->nr_keys;

	s->n = 0;
	if (strict && !o->sort_given)
		return;
	if (!strict && children && !o->sort_names_children)
		push(s, value(REPORT_VALUE_OVERHEAD_CHILDREN));
	if (!strict && !o->sort_names_overhead)
		push(s, value(REPORT_VALUE_OVERHEAD));
	for (int k = 0; k <= nr_keys; k++) {
		sort_values_at(o, k, s);
		if (k < nr_keys)
			push(s, key(keys[k]));
	}
	if (o->sort_symbol && !branch)	/* the branch view's IPC is its own (branch.c) */
		push(s, key(REPORT_KEY_IPC_NULL));
}

/*
 * perf's cancel_cumulate, for a file without chains (not under
 * --no-children, where perf never adds the column): no Children column
 * (but with -F's fields alone), though --sort's overhead_children stays
 * among the comparisons.
 */
static void cancel_children(struct field_list *out)
{
	int n = 0;

	for (int i = 0; i < out->n; i++)
		if (!field_eq(out->f[i], value(REPORT_VALUE_OVERHEAD_CHILDREN)))
			out->f[n++] = out->f[i];
	out->n = n;
}

void fields_setup(const struct report_hist_opts *o, bool children, struct field_lists *l)
{
	fields_setup_view(o, children, false, l);
}

void fields_setup_view(const struct report_hist_opts *o, bool children, bool branch, struct field_lists *l)
{
	bool strict = o->nr_fields && !o->fields_add;
	struct field_list *out = &l->out;

	sort_list(o, children, branch, &l->sort);
	l->sort_own = l->sort.n;
	out->n = 0;
	if (!strict) {	/* perf's default columns (perf_hpp__init) */
		if (children)
			push(out, value(REPORT_VALUE_OVERHEAD_CHILDREN));
		push(out, value(REPORT_VALUE_OVERHEAD));
		if (o->show_nr)
			push(out, value(REPORT_VALUE_SAMPLE));
		if (o->show_period)
			push(out, value(REPORT_VALUE_PERIOD));
	}
	for (int i = 0; i < o->nr_fields; i++)
		push(out, o->fields[i]);
	/* the sort keys are shown after the fields, and the fields compared after the sort keys */
	for (int i = 0; i < l->sort.n; i++)
		push(out, l->sort.f[i]);
	for (int i = 0; i < out->n; i++)
		push(&l->sort, out->f[i]);
	if (!strict && !children && o->children)	/* not --no-children: the file has no chains */
		cancel_children(out);
}
