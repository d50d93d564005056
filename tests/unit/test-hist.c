// SPDX-License-Identifier: GPL-2.0-only
/*
 * report__hist on small in-memory images (viewimg.h): perf report
 * --stdio's text (per-event totals, percentages, the sort order,
 * --percent-limit, --comms, --pid, --tid, --sort, -n, --percentage
 * relative, an address no map holds), the JSON document's fields, and
 * report__stats's counts.  The expected text is what perf report 6.1
 * prints for the same image (MPERF_VIEWIMG_KEEP=1 keeps it), but for
 * the tip line, which is mperf's own.  A second image has call chains:
 * perf's Children view and its caller graph, and --no-children -g none;
 * a third a GROUP_DESC: one histogram with a column per member, and
 * --no-group; a fourth an exec that renames the command mid-file; a
 * fifth LOST_SAMPLES and a sample of period 0.
 *
 * The image: cpu-clock, worker (pid 1000) twice in mperf_view_hot and
 * once in mperf_view_cold, period 100 each; task-clock, helper (pid
 * 2000) at 0x5000, which no map holds, period 300, and thread 1001 of
 * pid 1000, which has no COMM record, in mperf_view_hot, period 100.
 * This binary's name (test-hist) is shorter than "Shared Object", so
 * the columns' widths are fixed.
 */
#include "viewimg.h"

static struct view_exe exe;
static struct viewimg img;

static int build(void)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", 0, 0 },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 0, 0 },
	};
	const struct view_sample s[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .time = 1000000000, .ip = VIEW_HOT + 4, .period = 100 },
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .time = 1000500000, .ip = VIEW_HOT + 8, .period = 100 },
		{ .ev = 1, .pid = 2000, .tid = 2000, .cpu = 0, .time = 1001000000, .ip = 0x5000, .period = 300 },
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 2, .time = 1002000000, .ip = VIEW_COLD + 4, .period = 100 },
		{ .ev = 1, .pid = 1000, .tid = 1001, .cpu = 3, .time = 1003000000, .ip = VIEW_HOT, .period = 100 },
	};
	int err = viewimg_begin(&img, ev, 2);

	return err | viewimg_two_procs(&img, &exe, 1000, "worker", 2000, "helper", s, sizeof(s) / sizeof(s[0]));
}

static char *hist(const struct report_hist_opts *o, int *ret)
{
	return view_run(&img, VIEW_HIST, o, ret, NULL);
}

/* The rows alone (no '#' lines, no blank ones). */
static char *hist_rows_of(const struct viewimg *v, const struct report_hist_opts *o)
{
	char *t = view_run(v, VIEW_HIST, o, NULL, NULL), *r = view_rows(t);

	free(t);
	return r;
}

static char *hist_rows(const struct report_hist_opts *o)
{
	return hist_rows_of(&img, o);
}

static void test_default_text(void)
{
	struct report_hist_opts o = view_hist_defaults();
	int ret;
	char *t = hist(&o, &ret);

	is_int(ret, 0, "text: report__hist returns 0");
	is_str(t,
	       "# To display the perf.data header info, please use --header/--header-only options.\n"
	       "#\n"
	       "#\n"
	       "# Total Lost Samples: 0\n"
	       "#\n"
	       "# Samples: 3  of event 'cpu-clock'\n"
	       "# Event count (approx.): 300\n"
	       "#\n"
	       "# Overhead  Command  Shared Object  Symbol             \n"
	       "# ........  .......  .............  ...................\n"
	       "#\n"
	       "    66.67%  worker   test-hist      [.] mperf_view_hot\n"
	       "    33.33%  worker   test-hist      [.] mperf_view_cold\n"
	       "\n"
	       "\n"
	       "# Samples: 2  of event 'task-clock'\n"
	       "# Event count (approx.): 400\n"
	       "#\n"
	       "# Overhead  Command  Shared Object     Symbol                \n"
	       "# ........  .......  ................  ......................\n"
	       "#\n"
	       "    75.00%  helper   [unknown]         [.] 0x0000000000005000\n"
	       "    25.00%  :1001    test-hist         [.] mperf_view_hot\n"
	       "\n"
	       "\n"
	       "#\n"
	       "# (Tip: mperf report -D shows every record, perf's way)\n"
	       "#\n",
	       "text: two events, their totals, shares, order, an unresolved address, a thread without COMM");
	free(t);
}

static void test_options(void)
{
	struct report_hist_opts o = view_hist_defaults();
	char *r;

	o.percent_limit = 50;
	r = hist_rows(&o);
	is_str(r,
	       "    66.67%  worker   test-hist      [.] mperf_view_hot\n"
	       "    75.00%  helper   [unknown]         [.] 0x0000000000005000\n",
	       "--percent-limit 50 hides the 33.33%% and 25.00%% rows");
	free(r);

	o = view_hist_defaults();
	o.comm = "worker";
	r = hist_rows(&o);
	is_str(r,
	       "    66.67%  test-hist      [.] mperf_view_hot\n"
	       "    33.33%  test-hist      [.] mperf_view_cold\n",
	       "--comms worker: its rows, shares of the whole, no Command column; none of task-clock");
	free(r);

	o.relative = true;
	o.comm = "helper";
	r = hist_rows(&o);
	is_str(r, "   100.00%  [unknown]         [.] 0x0000000000005000\n",
	       "--comms helper --percentage relative: 100%% of what is shown");
	free(r);

	o = view_hist_defaults();
	o.pid = "2000";
	r = hist_rows(&o);
	is_str(r, "    75.00%  helper   [unknown]         [.] 0x0000000000005000\n", "--pid 2000: helper's row alone");
	free(r);

	o = view_hist_defaults();
	o.tid = "1001";
	r = hist_rows(&o);
	is_str(r, "    25.00%  :1001    test-hist      [.] mperf_view_hot\n",
	       "--tid 1001: the thread's row alone, the DSO column as wide as what is shown");
	free(r);

	o = view_hist_defaults();
	o.keys[0] = REPORT_KEY_PID;
	o.keys[1] = REPORT_KEY_SYM;
	o.nr_keys = 2;
	o.sort_given = true;
	r = hist_rows(&o);
	is_str(r,
	       "    66.67%     1000:worker   [.] mperf_view_hot\n"
	       "    33.33%     1000:worker   [.] mperf_view_cold\n"
	       "    75.00%     2000:helper   [.] 0x0000000000005000\n"
	       "    25.00%     1001::1001    [.] mperf_view_hot\n",
	       "--sort pid,sym: pid:comm column");
	free(r);

	o = view_hist_defaults();
	o.quiet = true;
	o.sym = "mperf_view_cold";
	r = hist(&o, NULL);
	is_str(r, "# symbol: mperf_view_cold\n    33.33%  worker   test-hist    \n\n\n\n\n",
	       "--symbols -q: the filter said, its rows without the Symbol column");
	free(r);

	o.sym = NULL;
	o.dso = "test-hist";
	r = hist(&o, NULL);
	is_str(r,
	       "# dso: test-hist\n"
	       "    66.67%  worker   [.] mperf_view_hot\n"
	       "    33.33%  worker   [.] mperf_view_cold\n"
	       "\n\n"
	       "    25.00%  :1001    [.] mperf_view_hot\n"
	       "\n\n",
	       "--dsos test-hist -q: both events' rows in it, no DSO column");
	free(r);

	o.dso = "[unknown]";
	r = hist(&o, NULL);
	is_str(r, "# dso: [unknown]\n\n\n\n\n", "--dsos [unknown]: matches no row, as perf's");
	free(r);

	o = view_hist_defaults();
	o.comm = "worker,helper";
	r = hist_rows(&o);
	is_str(r,
	       "    66.67%  worker   test-hist      [.] mperf_view_hot\n"
	       "    33.33%  worker   test-hist      [.] mperf_view_cold\n"
	       "    75.00%  helper   [unknown]         [.] 0x0000000000005000\n",
	       "--comms worker,helper: a list, the Command column kept");
	free(r);

	o = view_hist_defaults();
	o.keys[0] = REPORT_KEY_DSO;
	o.nr_keys = 1;
	o.sort_given = true;
	o.show_nr = true;
	o.quiet = true;
	r = hist(&o, NULL);
	is_str(r,
	       "   100.00%             3  test-hist    \n"
	       "\n\n"
	       "    75.00%             1  [unknown]       \n"
	       "    25.00%             1  test-hist       \n"
	       "\n\n",
	       "--sort dso -n -q: one row per DSO, the samples column, no header lines");
	free(r);
}

static void test_json(void)
{
	struct report_hist_opts o = view_hist_defaults();
	char want[512];
	int ret;
	char *t;

	o.json = true;
	t = hist(&o, &ret);
	is_int(ret, 0, "json: report__hist returns 0");
	ok(strstr(t, "\"schema\": \"mperf-report/2\"") != NULL, "json: the schema");
	ok(strstr(t, "\"sort\": [\"comm\", \"dso\", \"symbol\"]") != NULL, "json: the sort keys");
	is_str(view_line(t, "\"name\": \"cpu-clock\""),
	       "    {\"name\": \"cpu-clock\", \"samples\": 3, \"event-count\": 300, \"lost-samples\": 0,",
	       "json: cpu-clock's samples and event count");
	is_str(view_line(t, "\"name\": \"task-clock\""),
	       "    {\"name\": \"task-clock\", \"samples\": 2, \"event-count\": 400, \"lost-samples\": 0,",
	       "json: task-clock's samples and event count");
	snprintf(want, sizeof(want),
		 "      {\"overhead\": 66.6667, \"period\": 200, \"samples\": 2, \"comm\": \"worker\", \"dso\": \"test-hist\", "
		 "\"level\": \".\", \"symbol\": \"mperf_view_hot\", \"address\": \"%#" PRIx64 "\"},",
		 VIEW_HOT - exe.start + exe.pgoff);
	is_str(view_line(t, "\"overhead\": 66.6667"), want, "json: the first row, with the symbol's address in the DSO");
	is_str(view_line(t, "\"overhead\": 75.0000"),
	       "      {\"overhead\": 75.0000, \"period\": 300, \"samples\": 1, \"comm\": \"helper\", \"dso\": \"[unknown]\", "
	       "\"level\": \".\", \"symbol\": null, \"address\": \"0x5000\"},",
	       "json: an unresolved row: symbol null, the address");
	ok(strstr(t, "\"comm\": \":1001\"") != NULL, "json: a thread without COMM is :tid");
	free(t);
}

/* JSON strings escaped: a comm with a quote, a backslash and a tab. */
static void test_json_escape(void)
{
	struct report_hist_opts o = view_hist_defaults();
	struct viewimg oi;
	char *t;

	if (viewimg_odd_comm(&oi, &exe)) {
		skip(2, "no image with an odd comm");
		return;
	}
	o.json = true;
	t = view_run(&oi, VIEW_HIST, &o, NULL, NULL);
	ok(strstr(t, "\"comm\": \"a\\\"b\\\\c<d&\\u0009\"") || strstr(t, "\"comm\": \"a\\\"b\\\\c<d&\\t\""),
	   "json: a comm's quote, backslash and tab escaped");
	ok(!strchr(t, '\t'), "json: no raw control character");
	free(t);
	viewimg_free(&oi);
}

static void test_stats(void)
{
	int ret;
	char *t = view_run(&img, VIEW_STATS, NULL, &ret, NULL);

	is_int(ret, 0, "stats: report__stats returns 0");
	/*
	 * mperf's documented per-event block (man mperf-report, "-D"): every
	 * record attributed to the event; perf 6.1 prints SAMPLE alone.
	 */
	is_str(t,
	       "Aggregated stats:\n"
	       "           TOTAL events:          9\n"
	       "            COMM events:          2  (22.2%)\n"
	       "          SAMPLE events:          5  (55.6%)\n"
	       "           MMAP2 events:          2  (22.2%)\n"
	       "cpu-clock stats:\n"
	       "           TOTAL events:          7\n"
	       "            COMM events:          2\n"
	       "          SAMPLE events:          3\n"
	       "           MMAP2 events:          2\n"
	       "task-clock stats:\n"
	       "           TOTAL events:          2\n"
	       "          SAMPLE events:          2\n",
	       "stats: the records by type, and per event (side-band through their zero id: the first)");
	free(t);
}

/* ---- a command renamed by exec: perf's comm key is the sample's, the pid column the thread's last ---- */

static void test_comm_change(void)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", 0, 0 },
	};
	const struct view_sample s[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 1000, .ip = VIEW_HOT + 4, .period = 100 },
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 3000, .ip = VIEW_HOT + 8, .period = 100 },
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 3001, .ip = VIEW_COLD + 8, .period = 100 },
	};
	struct report_hist_opts o = view_hist_defaults();
	struct viewimg ci;
	int err = viewimg_begin(&ci, ev, 1);
	char *r;

	err |= viewimg_comm(&ci, 1000, 1000, "worker");
	err |= viewimg_mmap_exe(&ci, 1000, &exe);
	err |= viewimg_sample(&ci, &s[0]);
	err |= viewimg_comm_at(&ci, 1000, 1000, "renamed", 2000);
	err |= viewimg_sample(&ci, &s[1]);
	err |= viewimg_sample(&ci, &s[2]);
	if (err || viewimg_finish(&ci)) {
		skip(3, "no image with an exec");
		return;
	}
	r = hist_rows_of(&ci, &o);
	is_str(r,
	       "    33.33%  renamed  test-hist      [.] mperf_view_cold\n"
	       "    33.33%  renamed  test-hist      [.] mperf_view_hot\n"
	       "    33.33%  worker   test-hist      [.] mperf_view_hot\n",
	       "exec: each sample under the comm it had then");
	free(r);

	o.keys[0] = REPORT_KEY_PID;
	o.keys[1] = REPORT_KEY_COMM;
	o.keys[2] = REPORT_KEY_SYM;
	o.sort_given = true;
	r = hist_rows_of(&ci, &o);
	is_str(r,
	       "    33.33%     1000:renamed  renamed  [.] mperf_view_cold\n"
	       "    33.33%     1000:renamed  renamed  [.] mperf_view_hot\n"
	       "    33.33%     1000:renamed  worker   [.] mperf_view_hot\n",
	       "exec: --sort pid,comm,sym: the pid column names the thread's last comm");
	free(r);

	o = view_hist_defaults();
	o.comm = "renamed";
	r = hist_rows_of(&ci, &o);
	is_str(r,
	       "    33.33%  test-hist      [.] mperf_view_cold\n"
	       "    33.33%  test-hist      [.] mperf_view_hot\n",
	       "exec: --comms renamed keeps the samples after the exec");
	free(r);
	viewimg_free(&ci);
}

/* ---- LOST_SAMPLES, and a sample whose period is 0 ---- */

static void test_lost(void)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", 0, 0 },
	};
	const struct view_sample s[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 1000, .ip = VIEW_COLD, .period = 100 },
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 2000, .ip = VIEW_HOT, .period = 0 },
	};
	struct report_hist_opts o = view_hist_defaults();
	struct viewimg li;
	int err = viewimg_begin(&li, ev, 1);
	char *t;

	err |= viewimg_comm(&li, 1000, 1000, "worker");
	err |= viewimg_mmap_exe(&li, 1000, &exe);
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		err |= viewimg_sample(&li, &s[i]);
	err |= pdw__lost_samples(li.w, 0, 100, 7);
	if (err || viewimg_finish(&li)) {
		skip(4, "no image with lost samples");
		return;
	}
	t = view_run(&li, VIEW_HIST, &o, NULL, NULL);
	ok(strstr(t, "# Total Lost Samples: 7\n#\n# Samples: 2  of event 'cpu-clock'\n# Event count (approx.): 100\n") != NULL,
	   "lost: the LOST_SAMPLES count; a 0-period sample is a sample");
	ok(strstr(t, "   100.00%  worker   test-hist      [.] mperf_view_cold\n"
		     "     0.00%  worker   test-hist      [.] mperf_view_hot\n") != NULL,
	   "lost: the 0-period sample's row at 0.00%%");
	free(t);
	o.json = true;
	t = view_run(&li, VIEW_HIST, &o, NULL, NULL);
	ok(strstr(t, "\"total-lost-samples\": 7,") &&
	   strstr(t, "{\"name\": \"cpu-clock\", \"samples\": 2, \"event-count\": 100, \"lost-samples\": 7,"),
	   "lost: the JSON counts");
	free(t);
	t = view_run(&li, VIEW_STATS, NULL, NULL, NULL);
	ok(strstr(t, "    LOST_SAMPLES events:          1  (") && strstr(t, "    LOST_SAMPLES events:          7\n"),
	   "lost: stats: one LOST_SAMPLES record, 7 samples lost for the event");
	free(t);
	viewimg_free(&li);
}

/* ---- event groups: GROUP_DESC makes one histogram of the leader's, a column per member ---- */

static void test_group(void)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", 0, 0 },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 0, 0 },
	};
	const struct view_sample s[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 1000, .ip = VIEW_HOT + 4, .period = 300 },
		{ .ev = 1, .pid = 1000, .tid = 1000, .time = 1001, .ip = VIEW_HOT + 4, .period = 100 },
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 2000, .ip = VIEW_COLD + 4, .period = 100 },
		{ .ev = 1, .pid = 1000, .tid = 1000, .time = 2001, .ip = VIEW_COLD + 4, .period = 300 },
	};
	const struct pd_group_desc g = { .name = NULL, .leader = 0, .nr_members = 2 };
	struct report_hist_opts o = view_hist_defaults();
	struct viewimg gi;
	int err = viewimg_begin(&gi, ev, 2);
	char *t, *r;

	err |= viewimg_comm(&gi, 1000, 1000, "worker");
	err |= viewimg_mmap_exe(&gi, 1000, &exe);
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		err |= viewimg_sample(&gi, &s[i]);
	err |= pdw__feat_group_desc(gi.w, &g, 1);
	if (err || viewimg_finish(&gi)) {
		skip(3, "no image with a group");
		return;
	}
	t = view_run(&gi, VIEW_HIST, &o, NULL, NULL);
	r = view_rows(t);
	ok(strstr(t, "# Samples: 4  of events 'anon group { cpu-clock, task-clock }'\n"
		     "# Event count (approx.): 800\n") != NULL,
	   "group: one histogram for the group, its samples and count");
	is_str(r,
	       "    75.00%  25.00%  worker   test-hist      [.] mperf_view_hot\n"
	       "    25.00%  75.00%  worker   test-hist      [.] mperf_view_cold\n",
	       "group: a column per member, sorted by the leader's");
	free(r);
	free(t);

	o.no_group = true;
	o.group_set = true;
	t = view_run(&gi, VIEW_HIST, &o, NULL, NULL);
	/* perf still says "events" of a leader whose group has members. */
	ok(strstr(t, "# Samples: 2  of events 'cpu-clock'\n") && strstr(t, "# Samples: 2  of event 'task-clock'\n"),
	   "--no-group: a histogram per event");
	free(t);
	viewimg_free(&gi);
}

/* ---- call chains: perf's Children view and its caller graph ---- */

static struct viewimg cc_img;

#define CTX_USER ((uint64_t)PERF_CONTEXT_USER)

/* worker: hot called from cold twice, cold alone once. */
static int build_chains(void)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", VIEW_ST | PERF_SAMPLE_CALLCHAIN, 0 },
	};
	const struct view_sample s[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 1000, .ip = VIEW_HOT + 4, .period = 100,
		  .nr_chain = 3, .chain = { CTX_USER, VIEW_HOT + 4, VIEW_COLD + 8 } },
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 2000, .ip = VIEW_HOT + 8, .period = 100,
		  .nr_chain = 3, .chain = { CTX_USER, VIEW_HOT + 8, VIEW_COLD + 8 } },
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 3000, .ip = VIEW_COLD + 4, .period = 100,
		  .nr_chain = 2, .chain = { CTX_USER, VIEW_COLD + 4 } },
	};
	int err = viewimg_begin(&cc_img, ev, 1);

	err |= viewimg_comm(&cc_img, 1000, 1000, "worker");
	err |= viewimg_mmap_exe(&cc_img, 1000, &exe);
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		err |= viewimg_sample(&cc_img, &s[i]);
	return err | viewimg_finish(&cc_img);
}

static void test_chains(void)
{
	struct report_hist_opts o = view_hist_defaults();
	char *t, *r;

	if (build_chains()) {
		skip(3, "no image with chains");
		return;
	}
	t = view_run(&cc_img, VIEW_HIST, &o, NULL, NULL);
	r = view_rows(t);
	ok(strstr(t, "# Children      Self  Command  Shared Object  Symbol") != NULL,
	   "chains: perf's default is the Children view");
	/* The rows without blank lines (perf's exact text, blank lines and all, with MPERF_VIEWIMG_KEEP). */
	is_str(r,
	       "   100.00%    33.33%  worker   test-hist      [.] mperf_view_cold\n"
	       "            |\n"
	       "            ---mperf_view_cold\n"
	       "               |          \n"
	       "                --66.67%--mperf_view_hot\n"
	       "    66.67%    66.67%  worker   test-hist      [.] mperf_view_hot\n"
	       "            |\n"
	       "            ---mperf_view_cold\n"
	       "               mperf_view_hot\n",
	       "chains: children and self, the caller graph under each entry");
	free(r);
	free(t);

	o.children = 0;
	o.cc_mode = REPORT_CC_NONE;
	o.cc_asked = true;
	t = view_run(&cc_img, VIEW_HIST, &o, NULL, NULL);
	r = view_rows(t);
	is_str(r,
	       "    66.67%  worker   test-hist      [.] mperf_view_hot\n"
	       "    33.33%  worker   test-hist      [.] mperf_view_cold\n",
	       "chains: --no-children -g none: self shares alone");
	free(r);
	free(t);
	viewimg_free(&cc_img);
}

/* report__hist_doc: the text of report__hist, byte for byte, and its parts where they are. */
static void check_doc(const struct viewimg *v, const struct report_hist_opts *o, const char *what)
{
	char *t = view_run(v, VIEW_HIST, o, NULL, NULL);
	struct pdata *p = pdata__open_mem(v->buf, v->len);
	struct report_hist_doc d;
	int ret = p ? report__hist_doc(p, "test", o, &d) : -EINVAL;
	bool parts = true;

	is_int(ret, 0, "%s: report__hist_doc returns 0", what);
	if (ret) {
		skip(3, "no document");
		goto out;
	}
	ok(d.len == strlen(t) && !memcmp(d.text, t, d.len), "%s: its text is report__hist's", what);
	for (size_t i = 0; i < d.nr_sec; i++) {
		const struct report_hist_section *sec = &d.sec[i];

		if (!sec->shown)
			continue;
		parts &= !strncmp(d.text + sec->head, "# Samples: ", 11) && d.text[sec->head + sec->head_len] == '\n';
		parts &= !strncmp(d.text + sec->cols, "# ", 2) && d.text[sec->cols + sec->cols_len] == '\n';
		for (size_t r = sec->first_row; r < sec->first_row + sec->nr_rows; r++) {
			const struct report_hist_row *row = &d.row[r];

			parts &= d.text[row->line - 1] == '\n' && d.text[row->line + row->line_len] == '\n';
			parts &= memchr(d.text + row->line, '%', row->line_len) != NULL;
			parts &= !row->chain_len || (row->chain == row->line + row->line_len + 1 &&
						     d.text[row->chain + row->chain_len - 1] == '\n');
		}
	}
	ok(parts, "%s: each header, column line, entry line and chain where the document says", what);
	ok(d.nr_sec >= 1 && d.nr_rows >= 2 && d.row[0].line < d.row[1].line && d.row[0].e.comm,
	   "%s: its entries with their keys, in the text's order", what);
	report_hist_doc__free(&d);
out:
	if (p)
		pdata__close(p);
	free(t);
}

static void test_doc(void)
{
	struct report_hist_opts o = view_hist_defaults();

	check_doc(&img, &o, "doc, two events");
	if (build_chains()) {
		skip(4, "no image with chains");
		return;
	}
	check_doc(&cc_img, &o, "doc, chains");
	viewimg_free(&cc_img);
}

/* Samples of cpu-clock by worker: n in ip, from time t on; then two rounds, so that the session delivers them. */
static int live_samples(struct viewimg *v, uint64_t ip, int n, uint64_t t)
{
	struct view_sample s = { .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .ip = ip, .period = 100 };
	int err = 0;

	for (int i = 0; i < n; i++) {
		s.time = t + (uint64_t)i * 1000;
		err |= viewimg_sample(v, &s);
	}
	return err | pdw__finished_round(v->w) | pdw__finished_round(v->w) | pdw__flush(v->w);
}

static size_t fd_size(int fd)
{
	off_t end = lseek(fd, 0, SEEK_END);

	return end < 0 ? 0 : (size_t)end;
}

/*
 * report_live (mperf top's): a stream read as it grows, its histograms
 * kept; the document after the second part is report__hist_doc's of the
 * whole stream, byte for byte; after report_live__zero, the samples since.
 */
static void test_live(void)
{
	static const struct view_event ev[] = { { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", 0, 0 } };
	struct report_hist_opts o = view_hist_defaults();
	struct report_hist_doc d1 = { 0 }, d2 = { 0 }, d3 = { 0 }, full = { 0 };
	struct report_live *l = NULL;
	struct pdata *p = NULL, *whole = NULL;
	struct viewimg v;
	int fd = memfd_create("test-live", 0), err;
	void *map = MAP_FAILED;

	err = fd < 0 || viewimg_begin_stream(&v, ev, 1, fd) || viewimg_comm(&v, 1000, 1000, "worker") ||
	      viewimg_mmap_exe(&v, 1000, &exe) || live_samples(&v, VIEW_HOT + 4, 3, 1000000000);
	if (!err)
		map = mmap(NULL, 1u << 30, PROT_READ, MAP_SHARED | MAP_NORESERVE, fd, 0);
	if (err || map == MAP_FAILED || !(p = pdata__open_mem(map, fd_size(fd))) || report_live__open(p, "test", &o, &l)) {
		skip(5, "no stream");
		goto out;
	}
	is_int(report_live__doc(l, &d1), 0, "live: the first document");
	ok(d1.nr_sec == 1 && d1.sec[0].samples == 3 && d1.nr_rows == 1, "live: its three samples, one entry");
	err = live_samples(&v, VIEW_COLD + 4, 2, 2000000000);
	pdata__mem_grow(p, fd_size(fd));
	whole = pdata__open_mem(map, fd_size(fd));
	ok(!err && whole && report_live__doc(l, &d2) == 0 && report__hist_doc(whole, "test", &o, &full) == 0 &&
	   d2.len == full.len && !memcmp(d2.text, full.text, d2.len) && d2.sec[0].samples == 5,
	   "live: the second document, the new records read, is report__hist_doc's of the whole stream");
	report_live__zero(l);
	err = live_samples(&v, VIEW_COLD + 4, 2, 3000000000);
	pdata__mem_grow(p, fd_size(fd));
	ok(!err && report_live__doc(l, &d3) == 0 && d3.nr_sec == 1 && d3.sec[0].samples == 2 && d3.nr_rows == 1 &&
	   strstr(d3.text, "mperf_view_cold") && !strstr(d3.text, "mperf_view_hot"),
	   "live: after report_live__zero, the samples since alone");
	report_live__zero(l);
	report_hist_doc__free(&d1);
	ok(report_live__doc(l, &d1) == 0 && d1.nr_sec == 0, "live: no samples since: a document without sections");
out:
	report_hist_doc__free(&d1);
	report_hist_doc__free(&d2);
	report_hist_doc__free(&d3);
	report_hist_doc__free(&full);
	report_live__free(l);
	if (whole)
		pdata__close(whole);
	if (p)
		pdata__close(p);
	if (map != MAP_FAILED)
		munmap(map, 1u << 30);
	if (fd >= 0) {
		pdw__close(v.w);
		close(fd);
	}
}

/* One part of test_live_chains' stream: each of its samples (a chain each), then two rounds. */
static int live_part(struct viewimg *v, const struct view_sample *s, size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n; i++)
		err |= viewimg_sample(v, &s[i]);
	return err | pdw__finished_round(v->w) | pdw__finished_round(v->w) | pdw__flush(v->w);
}

/*
 * report_live with call chains: of a group (mperf top -g -e '{a,b}'),
 * whose printing collapses and links a copy; of two events by dso,sym
 * (top's keys, which do not collapse), printed in place.  The document
 * after the second part is still report__hist_doc's of the whole stream,
 * byte for byte, though the first was printed between them (task-clock's
 * entry alone in the first part, cpu-clock's only in the second); after
 * report_live__zero, the samples since alone, chains and all.
 */
static void test_live_chains(bool group)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", VIEW_ST | PERF_SAMPLE_CALLCHAIN, 0 },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", VIEW_ST | PERF_SAMPLE_CALLCHAIN, 0 },
	};
	const struct view_sample part1[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .time = 1000, .ip = VIEW_HOT + 4, .period = 100,
		  .nr_chain = 3, .chain = { CTX_USER, VIEW_HOT + 4, VIEW_COLD + 8 } },
		{ .ev = 1, .pid = 1000, .tid = 1000, .cpu = 1, .time = 1001, .ip = VIEW_WARM + 4, .period = 100,
		  .nr_chain = 3, .chain = { CTX_USER, VIEW_WARM + 4, VIEW_COLD + 8 } },
	}, part2[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .time = 2000, .ip = VIEW_WARM + 8, .period = 300,
		  .nr_chain = 3, .chain = { CTX_USER, VIEW_WARM + 8, VIEW_COLD + 8 } },
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .time = 2001, .ip = VIEW_HOT + 8, .period = 100,
		  .nr_chain = 2, .chain = { CTX_USER, VIEW_HOT + 8 } },
		{ .ev = 1, .pid = 1000, .tid = 1000, .cpu = 1, .time = 2002, .ip = VIEW_HOT + 4, .period = 200,
		  .nr_chain = 3, .chain = { CTX_USER, VIEW_HOT + 4, VIEW_COLD + 8 } },
	}, part3[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .time = 3000, .ip = VIEW_COLD + 4, .period = 100,
		  .nr_chain = 2, .chain = { CTX_USER, VIEW_COLD + 4 } },
	};
	const struct pd_group_desc g = { .name = NULL, .leader = 0, .nr_members = 2 };
	const char *what = group ? "live, chains and a group" : "live, chains by dso,sym";
	struct report_hist_opts o = view_hist_defaults();
	struct report_hist_doc d1 = { 0 }, d2 = { 0 }, d3 = { 0 }, full = { 0 };
	struct report_live *l = NULL;
	struct pdata *p = NULL, *whole = NULL;
	struct viewimg v = { 0 };
	int fd = memfd_create("test-live-chains", 0), err;
	void *map = MAP_FAILED;

	if (!group) {
		o.keys[0] = REPORT_KEY_DSO;
		o.keys[1] = REPORT_KEY_SYM;
		o.nr_keys = 2;
	}
	err = fd < 0 || !(v.w = pdw__create_stream(fd)) || (group && pdw__feat_group_desc(v.w, &g, 1)) ||
	      viewimg_events(&v, ev, 2) ||
	      viewimg_comm(&v, 1000, 1000, "worker") || viewimg_mmap_exe(&v, 1000, &exe) ||
	      live_part(&v, part1, sizeof(part1) / sizeof(part1[0]));
	if (!err)
		map = mmap(NULL, 1u << 30, PROT_READ, MAP_SHARED | MAP_NORESERVE, fd, 0);
	if (err || map == MAP_FAILED || !(p = pdata__open_mem(map, fd_size(fd))) || report_live__open(p, "test", &o, &l)) {
		skip(3, "no stream with chains");
		goto out;
	}
	ok(report_live__doc(l, &d1) == 0 && d1.nr_sec == (group ? 1 : 2) && !strstr(d1.text, "anon group") == !group &&
	   strstr(d1.text, "mperf_view_warm"), "%s: the first document, a section of each event or group", what);
	err = live_part(&v, part2, sizeof(part2) / sizeof(part2[0]));
	pdata__mem_grow(p, fd_size(fd));
	whole = pdata__open_mem(map, fd_size(fd));
	ok(!err && whole && report_live__doc(l, &d2) == 0 && report__hist_doc(whole, "test", &o, &full) == 0 &&
	   d2.len == full.len && !memcmp(d2.text, full.text, d2.len),
	   "%s: the second document is report__hist_doc's of the whole stream", what);
	report_live__zero(l);
	err = live_part(&v, part3, sizeof(part3) / sizeof(part3[0]));
	pdata__mem_grow(p, fd_size(fd));
	/* task-clock, with no sample since, is a section of its own without one (not in the group) */
	ok(!err && report_live__doc(l, &d3) == 0 && d3.nr_sec == (group ? 1 : 2) && d3.sec[0].samples == 1 &&
	   strstr(d3.text, "---mperf_view_cold") && !strstr(d3.text, "mperf_view_hot"),
	   "%s: after report_live__zero, the samples since alone", what);
out:
	report_hist_doc__free(&d1);
	report_hist_doc__free(&d2);
	report_hist_doc__free(&d3);
	report_hist_doc__free(&full);
	report_live__free(l);
	if (whole)
		pdata__close(whole);
	if (p)
		pdata__close(p);
	if (map != MAP_FAILED)
		munmap(map, 1u << 30);
	if (v.w)
		pdw__close(v.w);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	if (view_exe(&exe) || strcmp(exe.base, "test-hist") || build()) {
		plan(1);
		skip(1, "no image: /proc/self/maps has no executable mapping of test-hist");
		return done_testing();
	}
	test_default_text();
	test_options();
	test_json();
	test_json_escape();
	test_stats();
	test_comm_change();
	test_lost();
	test_group();
	test_chains();
	test_doc();
	test_live();
	test_live_chains(true);
	test_live_chains(false);
	viewimg_free(&img);
	return done_testing();
}
