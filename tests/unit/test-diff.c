// SPDX-License-Identifier: GPL-2.0-only
/*
 * report__diff (over report__hists_read) on two small in-memory images
 * (viewimg.h): perf diff 6.1's text, matched by DSO and symbol name
 * whatever the addresses, the delta of each share (+/-), an entry only
 * in the new file, one only in the baseline, -c ratio and wdiff, -p,
 * --order 0, and the JSON document; and report__hists_read's entries
 * themselves.  The expected text is what perf diff 6.1 prints for the
 * same images (MPERF_VIEWIMG_KEEP=1 keeps them).
 *
 * old: worker in mperf_view_hot twice, mperf_view_cold once, and once at
 * 0x5000, which no map holds (50%, 25%, 25%).  new: mperf_view_hot once,
 * mperf_view_cold twice, mperf_view_warm once (25%, 50%, 25%).  Every
 * period 100; the samples of new sit at other offsets of the functions.
 */
#include "viewimg.h"

static struct view_exe exe;
static struct viewimg old_img, new_img;

static int build(struct viewimg *v, const uint64_t *ips, size_t n)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", 0, 0 },
	};
	int err = viewimg_begin(v, ev, 1);

	err |= viewimg_comm(v, 1000, 1000, "worker");
	err |= viewimg_mmap_exe(v, 1000, &exe);
	for (size_t i = 0; i < n; i++) {
		struct view_sample s = { .ev = 0, .pid = 1000, .tid = 1000, .time = 1000 * (i + 1), .ip = ips[i],
					 .period = 100 };

		err |= viewimg_sample(v, &s);
	}
	return err | viewimg_finish(v);
}

static struct report_diff_opts diff_defaults(void)
{
	struct report_diff_opts o = {
		.hist = { .keys = { REPORT_KEY_DSO, REPORT_KEY_SYM }, .nr_keys = 2, .children = 0,
			  .cc_mode = REPORT_CC_NONE, .kallsyms = view_kallsyms() },
		.compute = REPORT_DIFF_DELTA_ABS,
		.order = 1,
	};

	return o;
}

static char *diff(const struct report_diff_opts *o, int *ret)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct pdata *a = pdata__open_mem(old_img.buf, old_img.len), *b = pdata__open_mem(new_img.buf, new_img.len);
	int r = -1;

	if (a && b)
		r = report__diff(a, "old.data", b, "new.data", o, f);
	if (a)
		pdata__close(a);
	if (b)
		pdata__close(b);
	fclose(f);
	if (ret)
		*ret = r;
	return text ? text : strdup("");
}

static void test_delta(void)
{
	struct report_diff_opts o = diff_defaults();
	int ret;
	char *t = diff(&o, &ret);

	is_int(ret, 0, "delta-abs: report__diff returns 0");
	is_str(t,
	       "# Event 'cpu-clock'\n"
	       "#\n"
	       "# Baseline  Delta Abs  Shared Object     Symbol                \n"
	       "# ........  .........  ................  ......................\n"
	       "#\n"
	       "    50.00%    -25.00%  test-diff         [.] mperf_view_hot\n"
	       "    25.00%    +25.00%  test-diff         [.] mperf_view_cold\n"
	       "              +25.00%  test-diff         [.] mperf_view_warm\n"
	       "    25.00%             [unknown]         [.] 0x0000000000005000\n",
	       "delta-abs: matched by name across addresses, -/+ deltas, new-only and baseline-only entries");
	free(t);

	o.compute = REPORT_DIFF_DELTA;
	o.quiet = true;
	t = diff(&o, NULL);
	is_str(t,
	       "    25.00%  +25.00%  test-diff         [.] mperf_view_cold\n"
	       "            +25.00%  test-diff         [.] mperf_view_warm\n"
	       "    50.00%  -25.00%  test-diff         [.] mperf_view_hot\n"
	       "    25.00%           [unknown]         [.] 0x0000000000005000\n",
	       "-c delta -q: ordered by the signed delta");
	free(t);

	o = diff_defaults();
	o.baseline_only = true;
	o.quiet = true;
	t = diff(&o, NULL);
	is_str(t,
	       "    66.67%    -25.00%  test-diff      [.] mperf_view_hot\n"
	       "    33.33%    +25.00%  test-diff      [.] mperf_view_cold\n",
	       "-b: only the entries matched in both, baseline shares among them");
	free(t);

	o = diff_defaults();
	o.hist.dso = "test-diff";
	o.relative = true;
	o.hist.relative = true;
	o.quiet = true;
	t = diff(&o, NULL);
	is_str(t,
	       "    66.67%    -41.67%  [.] mperf_view_hot\n"
	       "              +25.00%  [.] mperf_view_warm\n"
	       "    33.33%    +16.67%  [.] mperf_view_cold\n",
	       "--dsos test-diff --percentage relative: shares of what the filter keeps, no DSO column");
	free(t);
}

static void test_compute(void)
{
	struct report_diff_opts o = diff_defaults();
	char *t;

	o.compute = REPORT_DIFF_RATIO;
	o.quiet = true;
	t = diff(&o, NULL);
	is_str(t,
	       "    25.00%        2.000000  test-diff         [.] mperf_view_cold\n"
	       "    50.00%        0.500000  test-diff         [.] mperf_view_hot\n"
	       "                       N/A  test-diff         [.] mperf_view_warm\n"
	       "    25.00%                  [unknown]         [.] 0x0000000000005000\n",
	       "-c ratio: new period / old period, N/A without a baseline");
	free(t);

	o.compute = REPORT_DIFF_WDIFF;
	o.wdiff_w1 = 1;
	o.wdiff_w2 = 2;
	o.formula = true;
	t = diff(&o, NULL);
	is_str(t,
	       "    25.00%             300                                                   (200 * 2) - (100 * 1)  test-diff         [.] mperf_view_cold\n"
	       "    50.00%               0                                                   (100 * 2) - (200 * 1)  test-diff         [.] mperf_view_hot\n"
	       "                       N/A                                                     (100 * 2) - (0 * 1)  test-diff         [.] mperf_view_warm\n"
	       "    25.00%                                                                                          [unknown]         [.] 0x0000000000005000\n",
	       "-c wdiff:1,2 -F: new * 2 - old * 1, and its formula");
	free(t);

	o = diff_defaults();
	o.period = true;
	o.order = 0;
	o.quiet = true;
	t = diff(&o, NULL);
	is_str(t,
	       "    50.00%             200    -25.00%             100  test-diff         [.] mperf_view_hot\n"
	       "    25.00%             100    +25.00%             200  test-diff         [.] mperf_view_cold\n"
	       "    25.00%             100                             [unknown]         [.] 0x0000000000005000\n"
	       "                         0    +25.00%             100  test-diff         [.] mperf_view_warm\n",
	       "-p -o 0: the periods, ordered by the baseline");
	free(t);
}

static void test_json(void)
{
	struct report_diff_opts o = diff_defaults();
	int ret;
	char *t;

	o.format = REPORT_DIFF_JSON;
	t = diff(&o, &ret);
	is_int(ret, 0, "json: returns 0");
	ok(strstr(t, "\"schema\": \"mperf-diff/3\"") && strstr(t, "\"baseline\": \"old.data\"") &&
	   strstr(t, "\"new\": \"new.data\""), "json: schema and the two labels");
	is_str(view_line(t, "\"baseline\": {"), "     \"baseline\": {\"samples\": 4, \"event-count\": 400, \"lost-samples\": 0},",
	       "json: the baseline's totals");
	is_str(view_line(t, "mperf_view_hot"),
	       "      {\"baseline\": 50.000000, \"new\": 25.000000, \"delta\": -25.000000, \"baseline-period\": 200, "
	       "\"new-period\": 100, \"only\": null, \"dso\": \"test-diff\", \"level\": \".\", \"symbol\": \"mperf_view_hot\"},",
	       "json: a matched entry");
	is_str(view_line(t, "mperf_view_warm"),
	       "      {\"baseline\": null, \"new\": 25.000000, \"delta\": 25.000000, \"baseline-period\": 0, "
	       "\"new-period\": 100, \"only\": \"new\", \"dso\": \"test-diff\", \"level\": \".\", \"symbol\": \"mperf_view_warm\"},",
	       "json: an entry only in new");
	is_str(view_line(t, "\"only\": \"baseline\""),
	       "      {\"baseline\": 25.000000, \"new\": null, \"delta\": -25.000000, \"baseline-period\": 100, "
	       "\"new-period\": 0, \"only\": \"baseline\", \"dso\": \"[unknown]\", \"level\": \".\", \"symbol\": null, "
	       "\"address\": \"0x5000\"}",
	       "json: an entry only in the baseline, by address");
	free(t);
}

/* report__hists_read: what diff is built on. */
static void test_hists_read(void)
{
	struct report_diff_opts o = diff_defaults();
	struct report_hists *h = NULL;
	struct pdata *p = pdata__open_mem(old_img.buf, old_img.len);
	struct report_event_hist e = { 0 };
	struct report_entry r[3];
	size_t n;

	is_int(p ? report__hists_read(p, "old.data", &o.hist, &h) : -1, 0, "hists_read: returns 0");
	if (!h) {
		skip(6, "no hists");
		if (p)
			pdata__close(p);
		return;
	}
	is_int((int)report_hists__nr_events(h), 1, "hists_read: one event");
	report_hists__event(h, 0, &e);
	ok(e.total_period == 400 && e.shown_period == 400 && e.nr_samples == 4 && e.lost == 0,
	   "hists_read: totals 400/400, 4 samples (got %" PRIu64 "/%" PRIu64 ", %" PRIu64 ")", e.total_period,
	   e.shown_period, e.nr_samples);
	is_int((int)e.nr_entries, 3, "hists_read: three entries (dso,sym)");
	n = e.nr_entries < 3 ? e.nr_entries : 3;
	for (size_t i = 0; i < n; i++)
		report_hists__entry(h, 0, i, &r[i]);
	for (size_t i = n; i < 3; i++)
		memset(&r[i], 0, sizeof(r[i]));
	/* Whatever their order (perf's input tree's, which the sort-key work may change): */
	{
		int unknown = -1, hot = -1, cold = -1;

		for (size_t i = 0; i < n; i++) {
			if (!r[i].dso && !r[i].sym)
				unknown = (int)i;
			else if (r[i].sym && !strcmp(r[i].sym, "mperf_view_hot"))
				hot = (int)i;
			else if (r[i].sym && !strcmp(r[i].sym, "mperf_view_cold"))
				cold = (int)i;
		}
		ok(unknown >= 0 && r[unknown].addr == 0x5000 && r[unknown].period == 100 && r[unknown].samples == 1,
		   "hists_read: the entry without a map: dso and sym NULL, addr 0x5000, 100, 1 sample");
		ok(hot >= 0 && r[hot].period == 200 && r[hot].samples == 2 && !strcmp(r[hot].comm, "worker") &&
		   !strcmp(r[hot].dso, "test-diff") && r[hot].level == '.' &&
		   r[hot].sym_start == VIEW_HOT - exe.start + exe.pgoff && r[hot].sym_end > r[hot].sym_start &&
		   !r[hot].filtered,
		   "hists_read: mperf_view_hot: 200, 2 samples, worker, test-diff, user, its bounds in the DSO");
		ok(cold >= 0 && r[cold].period == 100 && r[cold].samples == 1 &&
		   r[cold].addr == VIEW_COLD + 4 - exe.start + exe.pgoff,
		   "hists_read: mperf_view_cold: 100, 1 sample, its sample's address in the DSO");
	}
	report_hists__free(h);
	pdata__close(p);
}

int main(void)
{
	const uint64_t o_ips[] = { VIEW_HOT + 4, VIEW_HOT + 8, 0x5000, VIEW_COLD + 4 };
	const uint64_t n_ips[] = { VIEW_HOT + 16, VIEW_COLD + 8, VIEW_COLD + 12, VIEW_WARM + 4 };

	if (view_exe(&exe) || strcmp(exe.base, "test-diff") || build(&old_img, o_ips, 4) || build(&new_img, n_ips, 4)) {
		plan(1);
		skip(1, "no images: /proc/self/maps has no executable mapping of test-diff");
		return done_testing();
	}
	test_delta();
	test_compute();
	test_json();
	test_hists_read();
	viewimg_free(&old_img);
	viewimg_free(&new_img);
	return done_testing();
}
