// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading JSON back (lib/json.h's json_parse): values, escapes, the offset
 * of what is wrong, the depth bound; and stat's --baseline on top of it
 * (a document's per-run values, the change, its interval and the test).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/lib/json.h"
#include "../../src/stat/stat.h"
#include "tap.h"

static struct json_value *parse(const char *s, size_t *where)
{
	struct json_value *v = NULL;

	*where = 0;
	json_parse(s, strlen(s), &v, where);
	return v;
}

static void test_parse(void)
{
	size_t where;
	struct json_value *v = parse(" {\"a\": [1, -2.5e1, true, null], \"b\": \"x\\u00e9\\n\\ud83d\\ude00\\\"\"} ", &where);
	const struct json_value *a = json_get(v, "a"), *b = json_get(v, "b");
	char deep[200];

	ok(v && v->type == JSON_OBJECT && v->nr == 2, "an object of two members");
	ok(a && a->type == JSON_ARRAY && a->nr == 4 && a->kid[0].num == 1 && a->kid[1].num == -25 &&
	   a->kid[2].type == JSON_BOOL && a->kid[2].num == 1 && a->kid[3].type == JSON_NULL, "an array's items");
	is_str(b ? b->str : NULL, "x\xc3\xa9\n\xf0\x9f\x98\x80\"", "escapes, a surrogate pair to UTF-8");
	ok(!json_get(v, "c") && !json_get(a, "a"), "no such member; not an object");
	json_free(v);
	ok(!parse("{\"a\": 1,}", &where) && where == 8, "a trailing comma: byte 8");
	ok(!parse("[1] 2", &where) && where == 4, "text after the value: byte 4");
	ok(!parse("\"a\tb\"", &where), "a raw control byte in a string");
	ok(!parse("[01x]", &where) && !parse("[1e999]", &where) && !parse("\"\\ude00\"", &where),
	   "a bad number, an infinite one, a lone low surrogate");
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = 0;
	ok(!parse(deep, &where) && where <= JSON_MAX_DEPTH + 1, "nesting beyond the bound");
	ok(!parse("", &where) && !parse("\"abc", &where), "empty, an unended string");
}

/*
 * On a busy machine a run's CPU time can double (both CPUs' threads of a
 * core busy): 10% more work, 2 of 10 baseline runs and 1 of 10 new ones
 * slowed to 190.  The mean does not move; the shift is the work's +10%.
 */
static void test_load_mixture(struct stat_baseline *b, struct stat_runs *s, struct count_result *r,
			      struct stat_compare *c)
{
	static const char doc[] = "{\"schema\": \"mperf-stat/1\", \"version\": 1, \"events\": ["
				  "{\"event\": \"task-clock\", \"counter-values\": "
				  "[100, 190, 101, 99, 100, 102, 98, 190, 100, 101]}]}";
	static const double now[] = { 110, 109, 111, 110, 112, 190, 108, 110, 111, 109 };
	char why[256] = "";

	stat_baseline__release(b);
	is_int(stat_baseline__parse(b, doc, strlen(doc), why, sizeof(why)), 0, "a baseline slowed by load in 2 runs");
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < 10; i++) {
		r->ev[0].val = (uint64_t)now[i];
		stat_runs__add(s, r);
	}
	*c = (struct stat_compare){ .file = "b.json", .tolerance = 5, .alpha = 0.05 };
	is_int(stat__compare(s, b, c), 0, "compared");
	ok(fabs(c->ev[0].change_pct) < 1 && fabs(c->ev[0].shift_pct - 10) < 1,
	   "the mean moved %+.2f%%, the shift %+.2f%%", c->ev[0].change_pct, c->ev[0].shift_pct);
	ok(c->ev[0].p < 0.05 && c->ev[0].flagged, "flagged on the shift (p %g)", c->ev[0].p);
	stat_runs__release(s);
}

static void test_baseline(void)
{
	static const char doc[] = "{\"schema\": \"mperf-stat/1\", \"version\": 1, \"events\": ["
				  "{\"event\": \"task-clock\", \"counter-values\": [100, 102, 98, 101, 99]},"
				  "{\"event\": \"cycles\", \"counter-values\": null}]}";
	static const char old[] = "{\"schema\": \"mperf-stat/1\", \"version\": 1, \"events\": [{\"event\": \"x\"}]}";
	struct stat_baseline *b = calloc(1, sizeof(*b));
	struct stat_runs *s = calloc(1, sizeof(*s));
	struct count_result *r = calloc(1, sizeof(*r));
	struct stat_compare *c = calloc(1, sizeof(*c));
	char why[256] = "";

	is_int(stat_baseline__parse(b, doc, strlen(doc), why, sizeof(why)), 0, "a document with per-run values");
	ok(b->nr_events == 2 && b->ev[0].n == 5 && b->ev[0].v[2] == 98 && b->ev[1].n == 0, "its runs' values");
	stat_baseline__release(b);
	is_int(stat_baseline__parse(b, old, strlen(old), why, sizeof(why)), -EINVAL, "no counter-values: refused");
	ok(strstr(why, "no per-run values") != NULL, "and why: %s", why);
	is_int(stat_baseline__parse(b, doc, strlen(doc), why, sizeof(why)), 0, "read again");

	/* Five runs 10% above (an event that is not a clock: values as counted). */
	r->nr_events = 1;
	snprintf(r->ev[0].name, sizeof(r->ev[0].name), "task-clock");
	r->ev[0].attr.type = PERF_TYPE_HARDWARE;
	r->ev[0].supported = true;
	r->ev[0].ena = r->ev[0].run = 1;
	for (int i = 0; i < 5; i++) {
		r->ev[0].val = 110 + (i % 3);
		stat_runs__add(s, r);
	}
	*c = (struct stat_compare){ .file = "b.json", .tolerance = 5, .alpha = 0.05 };
	is_int(stat__compare(s, b, c), 0, "compared");
	ok(c->ev[0].matched && fabs(c->ev[0].change_pct - 10.8) < 1e-9, "the change of the mean: +10.8%% (%g)",
	   c->ev[0].change_pct);
	ok(fabs(c->ev[0].p - 2.0 / 252) < 1e-12, "two-sided exact p of 5 v 5 apart: 2/252 (%g)", c->ev[0].p);
	ok(c->ev[0].ci_lo_pct > 7 && c->ev[0].ci_lo_pct < c->ev[0].change_pct && c->ev[0].ci_hi_pct < 14,
	   "Welch's interval around it (%g %g)", c->ev[0].ci_lo_pct, c->ev[0].ci_hi_pct);
	ok(c->ev[0].flagged && c->nr_flagged == 1, "flagged: beyond 5%% at p < 0.05");
	c->tolerance = 11;
	stat__compare(s, b, c);
	ok(!c->ev[0].flagged && !c->nr_flagged, "within an 11%% tolerance: not flagged");
	ok(fabs(c->ev[0].shift_pct - 11) < 1e-9 && c->ev[0].base_v == b->ev[0].v,
	   "Hodges-Lehmann's shift: the median difference, +11%% of 100 (%g); the baseline's values kept",
	   c->ev[0].shift_pct);
	stat_runs__release(s);
	test_load_mixture(b, s, r, c);
	stat_baseline__release(b);
	free(b);
	free(s);
	free(r);
	free(c);
}

int main(void)
{
	test_parse();
	test_baseline();
	return done_testing();
}
