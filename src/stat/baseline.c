// SPDX-License-Identifier: GPL-2.0-only
/*
 * stat --baseline: a previous `stat --json -r N` document read back, and
 * each event of this stat's runs compared with the baseline's event of the
 * same name: Hodges-Lehmann's shift, the change of the mean with Welch's
 * 95% interval, and the two-sided Mann-Whitney U test over the runs (no
 * normality assumed: run times are skewed, with slow outliers).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/json.h"
#include "../lib/mwu.h"
#include "stat.h"

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -EINVAL)

/* One event of the document: its name and "counter-values" (null when it counted nothing). */
static int base_event(struct stat_base_event *be, const struct json_value *e, size_t idx, char *why, size_t whylen)
{
	const struct json_value *name = json_get(e, "event"), *vals = json_get(e, "counter-values");

	if (!name || name->type != JSON_STRING)
		return WHY("event #%zu has no name", idx);
	snprintf(be->name, sizeof(be->name), "%s", name->str);
	if (!vals)
		return WHY("event '%s' has no per-run values (\"counter-values\": a document of an older mperf?)",
			   name->str);
	if (vals->type == JSON_NULL)
		return 0;
	if (vals->type != JSON_ARRAY)
		return WHY("event '%s': \"counter-values\" is not an array", name->str);
	be->v = calloc(vals->nr ? vals->nr : 1, sizeof(*be->v));
	if (!be->v)
		return -ENOMEM;
	for (size_t r = 0; r < vals->nr; r++) {
		if (vals->kid[r].type != JSON_NUMBER)
			return WHY("event '%s': run %zu's value is not a number", name->str, r + 1);
		be->v[be->n++] = vals->kid[r].num;
	}
	return 0;
}

static int base_events(struct stat_baseline *b, const struct json_value *doc, char *why, size_t whylen)
{
	const struct json_value *schema = json_get(doc, "schema"), *version = json_get(doc, "version");
	const struct json_value *events = json_get(doc, "events");
	int ret;

	if (!schema && json_get(doc, "counter-value"))
		return WHY("%s", "perf's -j JSON lines, not mperf's document: write the baseline with stat --mperf-json -r N");
	if (!schema || schema->type != JSON_STRING || strncmp(schema->str, "mperf-stat/", 11))
		return WHY("not a document of mperf stat --mperf-json (schema %s)",
			   schema && schema->type == JSON_STRING ? schema->str : "missing");
	if (!version || version->type != JSON_NUMBER || version->num > STAT_JSON_VERSION)
		return WHY("schema %s is newer than this mperf reads (mperf-stat/%d)", schema->str, STAT_JSON_VERSION);
	if (!events || events->type != JSON_ARRAY)
		return WHY("%s", "no \"events\" array");
	if (events->nr > RECORD_MAX_EVENTS)
		return WHY("more than %d events", RECORD_MAX_EVENTS);
	for (size_t i = 0; i < events->nr; i++) {
		if ((ret = base_event(&b->ev[i], &events->kid[i], i, why, whylen)))
			return ret;
		b->nr_events = i + 1;
	}
	return 0;
}

int stat_baseline__parse(struct stat_baseline *b, const char *text, size_t len, char *why, size_t whylen)
{
	struct json_value *doc;
	size_t where;
	int ret;

	memset(b, 0, sizeof(*b));
	if (json_parse(text, len, &doc, &where))
		return where > len ? -ENOMEM : WHY("not JSON (at byte %zu)", where);
	ret = base_events(b, doc, why, whylen);
	json_free(doc);
	if (ret)
		stat_baseline__release(b);
	return ret;
}

void stat_baseline__release(struct stat_baseline *b)
{
	for (size_t i = 0; i < RECORD_MAX_EVENTS; i++) {
		free(b->ev[i].v);
		b->ev[i].v = NULL;
		b->ev[i].n = 0;
	}
	b->nr_events = 0;
}

int stat_baseline__from_runs(struct stat_baseline *b, const struct stat_runs *s)
{
	memset(b, 0, sizeof(*b));
	b->nr_events = s->nr_events;
	for (size_t i = 0; i < s->nr_events; i++) {
		struct stat_base_event *be = &b->ev[i];

		snprintf(be->name, sizeof(be->name), "%s", s->ev[i].name);
		if (!s->ev[i].supported || !s->runs)
			continue;
		be->v = calloc((size_t)s->runs, sizeof(*be->v));
		if (!be->v) {
			stat_baseline__release(b);
			return -ENOMEM;
		}
		for (int r = 0; r < s->runs; r++)
			be->v[be->n++] = stat_runs__value(s, r, i);
	}
	return 0;
}

/* Student's t for a two-sided 95% interval, df degrees of freedom (rounded down: wider). */
static double t975(double df)
{
	static const double t[] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
				    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
				    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
	const double z = 1.959964;
	double n = floor(df);

	if (n < 1)
		n = 1;
	if (n <= 30)
		return t[(int)n - 1];
	/* Cornish-Fisher's expansion of t in z: within 1e-4 above 30. */
	return z + (z * z * z + z) / (4 * n) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

static void mean_var(const double *v, size_t n, double *mean, double *var)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += v[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*mean = m;
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
}

/*
 * Hodges-Lehmann's shift of b from a, the estimate that goes with
 * Mann-Whitney's test: the median of every difference b[j] - a[i], in
 * percent of a's median.  A run slowed by the machine's load (on a busy
 * machine a run's CPU time can double) moves a mean by its whole excess,
 * this by at most one rank.  NAN when a's median is 0; -ENOMEM.
 */
static int hl_shift(const double *a, size_t na, const double *b, size_t nb, double *pct)
{
	double *d = malloc(na * nb * sizeof(*d)), ma;

	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < na; i++)
		d[i] = a[i];
	ma = median_in_place(d, na);
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];
	*pct = ma ? 100.0 * median_in_place(d, na * nb) / ma : NAN;
	free(d);
	return 0;
}

/* The change of a's mean to b's, in percent of a's, with Welch's interval and the test. */
static int change(const double *a, size_t na, const double *b, size_t nb, struct stat_change *c)
{
	struct mwu up, down;
	double va, vb, se2;

	mean_var(a, na, &c->base_mean, &va);
	mean_var(b, nb, &c->mean, &vb);
	c->base_n = na;
	c->n = nb;
	c->change_pct = c->base_mean ? 100.0 * (c->mean - c->base_mean) / c->base_mean : NAN;
	c->ci_lo_pct = c->ci_hi_pct = NAN;
	se2 = va / (double)na + vb / (double)nb;
	if (na > 1 && nb > 1 && c->base_mean) {
		double df = se2 > 0 ? se2 * se2 / (va * va / ((double)na * na * (na - 1)) +
						   vb * vb / ((double)nb * nb * (nb - 1))) : (double)(na + nb - 2);
		double half = t975(df) * sqrt(se2);

		c->ci_lo_pct = 100.0 * (c->mean - c->base_mean - half) / c->base_mean;
		c->ci_hi_pct = 100.0 * (c->mean - c->base_mean + half) / c->base_mean;
	}
	/* Two-sided: twice the smaller of the two one-sided p-values. */
	if (mwu_greater(a, na, b, nb, &up) || mwu_greater(b, nb, a, na, &down))
		return -E2BIG;	/* too many runs (or no memory) for the test */
	c->p = fmin(1.0, 2 * fmin(up.p, down.p));
	return hl_shift(a, na, b, nb, &c->shift_pct);
}

int stat__compare(const struct stat_runs *s, const struct stat_baseline *b, struct stat_compare *c)
{
	double *cur = calloc(s->runs ? (size_t)s->runs : 1, sizeof(*cur));

	if (!cur)
		return -ENOMEM;
	c->nr_flagged = 0;
	for (size_t i = 0; i < s->nr_events; i++) {
		struct stat_change *e = &c->ev[i];
		const struct stat_base_event *be = NULL;

		memset(e, 0, sizeof(*e));
		for (size_t j = 0; j < b->nr_events && !be; j++)
			if (!strcmp(b->ev[j].name, s->ev[i].name) && b->ev[j].n)
				be = &b->ev[j];
		if (!be || !s->runs || !s->ev[i].supported)
			continue;
		for (int r = 0; r < s->runs; r++)
			cur[r] = stat_runs__value(s, r, i);
		if (change(be->v, be->n, cur, (size_t)s->runs, e)) {
			free(cur);
			return -E2BIG;
		}
		e->base_v = be->v;
		e->matched = true;
		e->flagged = !isnan(e->shift_pct) && fabs(e->shift_pct) > c->tolerance && e->p < c->alpha;
		c->nr_flagged += e->flagged;
	}
	free(cur);
	return 0;
}
