// SPDX-License-Identifier: GPL-2.0-only
/*
 * report__branch and report__branch_wanted on a small in-memory image
 * with branch stacks (viewimg.h): perf report 6.1's branch view (an
 * entry per branch, its source and target symbols, the basic block's
 * cycles, a source without a map), -n, --percent-limit, the branch sort
 * keys (mispredict, cycles, dso_to, dso_from, in_tx, abort), the usual
 * view of the same file with --no-branch-stack, and when the branch view
 * is chosen.  The expected text is what perf report 6.1 prints for the
 * same image (MPERF_VIEWIMG_KEEP=1 keeps it).
 *
 * The image: cycles with branch stacks; worker's two samples hold the
 * branch mperf_view_hot -> mperf_view_cold (mispredicted, 5 cycles)
 * twice and mperf_view_cold -> mperf_view_hot (predicted, 3 cycles)
 * once; helper's one sample a branch from 0x5000, which no map holds,
 * to mperf_view_warm (no cycles).
 */
#include "viewimg.h"

static struct view_exe exe;
static struct viewimg img;

/* A branch's flags word: mispredicted or predicted, and its cycles. */
#define BR_MISPRED(cyc)	(0x1ULL | (uint64_t)(cyc) << 4)
#define BR_PRED(cyc)	(0x2ULL | (uint64_t)(cyc) << 4)

static int build(void)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", VIEW_ST | PERF_SAMPLE_BRANCH_STACK,
		  PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY },
	};
	const struct view_sample s[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .time = 1000, .ip = VIEW_HOT + 4, .period = 1000,
		  .nr_br = 2, .br = { { VIEW_HOT + 4, VIEW_COLD, BR_MISPRED(5) }, { VIEW_COLD + 8, VIEW_HOT, BR_PRED(3) } } },
		{ .ev = 0, .pid = 1000, .tid = 1000, .cpu = 1, .time = 2000, .ip = VIEW_COLD + 4, .period = 1000,
		  .nr_br = 1, .br = { { VIEW_HOT + 4, VIEW_COLD, BR_MISPRED(5) } } },
		{ .ev = 0, .pid = 2000, .tid = 2000, .cpu = 2, .time = 3000, .ip = 0x5010, .period = 1000,
		  .nr_br = 1, .br = { { 0x5000, VIEW_WARM, BR_PRED(0) } } },
	};
	int err = viewimg_begin(&img, ev, 1);

	return err | viewimg_two_procs(&img, &exe, 1000, "worker", 2000, "helper", s, sizeof(s) / sizeof(s[0]));
}

static char *branch(const struct report_hist_opts *o, int *ret)
{
	return view_run(&img, VIEW_BRANCH, o, ret, NULL);
}

static void test_wanted(void)
{
	static const struct view_event plain[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 0, 0 },
	};
	const struct view_sample s = { .ev = 0, .pid = 1000, .tid = 1000, .time = 1, .ip = VIEW_HOT, .period = 1 };
	struct report_hist_opts o = view_hist_defaults();
	struct viewimg nob;
	struct pdata *p;
	int damage = 0;

	p = pdata__open_mem(img.buf, img.len);
	is_int(p ? report__branch_wanted(p, "t", &o, &damage) : -1, 1, "wanted: a file with BRANCH_STACK gets the branch view");
	is_int(damage, 0, "wanted: no damage");
	o.branch = 0;
	is_int(p ? report__branch_wanted(p, "t", &o, &damage) : -1, 0, "wanted: --no-branch-stack: not");
	if (p)
		pdata__close(p);

	if (viewimg_begin(&nob, plain, 1) || viewimg_comm(&nob, 1000, 1000, "worker") || viewimg_sample(&nob, &s) ||
	    viewimg_finish(&nob)) {
		skip(2, "no image without branch stacks");
		return;
	}
	p = pdata__open_mem(nob.buf, nob.len);
	o.branch = -1;
	is_int(p ? report__branch_wanted(p, "t", &o, &damage) : -1, 0, "wanted: a file without branch stacks: not");
	o.branch = 1;
	ok(p && report__branch_wanted(p, "t", &o, &damage) < 0, "wanted: -b on a file without branch stacks is refused");
	if (p)
		pdata__close(p);
	viewimg_free(&nob);
}

static void test_view(void)
{
	struct report_hist_opts o = view_hist_defaults();
	int ret;
	char *t = branch(&o, &ret);

	is_int(ret, 0, "branch: returns 0");
	is_str(t,
	       "# To display the perf.data header info, please use --header/--header-only options.\n"
	       "#\n"
	       "#\n"
	       "# Total Lost Samples: 0\n"
	       "#\n"
	       "# Samples: 4  of event 'cycles'\n"
	       "# Event count (approx.): 4\n"
	       "#\n"
	       "# Overhead  Command  Source Shared Object  Source Symbol           Target Symbol        Basic Block Cycles\n"
	       "# ........  .......  ....................  ......................  ...................  ..................\n"
	       "#\n"
	       "    50.00%  worker   test-branch           [.] mperf_view_hot      [.] mperf_view_cold  5                 \n"
	       "    25.00%  helper   [unknown]             [H] 0x0000000000005000  [.] mperf_view_warm  -                 \n"
	       "    25.00%  worker   test-branch           [.] mperf_view_cold     [.] mperf_view_hot   3                 \n"
	       "\n"
	       "\n"
	       "#\n"
	       "# (Tip: mperf report -D shows every record, perf's way)\n"
	       "#\n",
	       "branch: a row per branch, 4 branches counted, perf's [H] for a source without a map");
	free(t);

	o.show_nr = true;
	o.quiet = true;
	t = branch(&o, NULL);
	is_str(t,
	       "    50.00%             2  worker   test-branch           [.] mperf_view_hot      [.] mperf_view_cold  5                 \n"
	       "    25.00%             1  helper   [unknown]             [H] 0x0000000000005000  [.] mperf_view_warm  -                 \n"
	       "    25.00%             1  worker   test-branch           [.] mperf_view_cold     [.] mperf_view_hot   3                 \n"
	       "\n\n",
	       "branch -n -q: the branches per row");
	free(t);

	o = view_hist_defaults();
	o.percent_limit = 30;
	t = branch(&o, NULL);
	ok(strstr(t, "    50.00%  worker   test-branch           [.] mperf_view_hot      [.] mperf_view_cold  5") &&
	   !strstr(t, "25.00%"), "branch --percent-limit 30: the 25%% rows hidden");
	free(t);
}

/* --sort with the branch keys, -q. */
static char *branch_sorted(const enum report_key *k, int n)
{
	struct report_hist_opts o = view_hist_defaults();

	memcpy(o.bkeys, k, sizeof(*k) * (size_t)n);
	o.nr_bkeys = n;
	o.sort_given = true;
	o.quiet = true;
	return branch(&o, NULL);
}

static void test_keys(void)
{
	static const enum report_key k1[] = { REPORT_KEY_MISPREDICT, REPORT_KEY_CYCLES };
	static const enum report_key k2[] = { REPORT_KEY_DSO_TO, REPORT_KEY_DSO_FROM };
	static const enum report_key k3[] = { REPORT_KEY_IN_TX, REPORT_KEY_ABORT };
	char *t;

	t = branch_sorted(k1, 2);
	is_str(t,
	       "    50.00%  Y                    5                 \n"
	       "    25.00%  N                    3                 \n"
	       "    25.00%  N                    -                 \n"
	       "\n\n",
	       "--sort mispredict,cycles: Y for the mispredicted branches, - without cycles");
	free(t);
	t = branch_sorted(k2, 2);
	is_str(t,
	       "    75.00%  test-branch           test-branch         \n"
	       "    25.00%  test-branch           [unknown]           \n"
	       "\n\n",
	       "--sort dso_to,dso_from");
	free(t);
	t = branch_sorted(k3, 2);
	is_str(t, "   100.00%  .                      .                \n\n\n", "--sort in_tx,abort: no transactions");
	free(t);
}

static void test_usual_view(void)
{
	struct report_hist_opts o = view_hist_defaults();
	char *t, *r;

	o.branch = 0;
	t = view_run(&img, VIEW_HIST, &o, NULL, NULL);
	r = view_rows(t);
	ok(strstr(t, "# Samples: 3  of event 'cycles'\n# Event count (approx.): 3000\n") != NULL,
	   "--no-branch-stack: the samples and their periods");
	is_str(r,
	       "    33.33%  helper   [unknown]         [.] 0x0000000000005010\n"
	       "    33.33%  worker   test-branch       [.] mperf_view_cold\n"
	       "    33.33%  worker   test-branch       [.] mperf_view_hot\n",
	       "--no-branch-stack: the usual rows, by the samples' ips");
	free(r);
	free(t);
}

int main(void)
{
	if (view_exe(&exe) || strcmp(exe.base, "test-branch") || build()) {
		plan(1);
		skip(1, "no image: /proc/self/maps has no executable mapping of this binary");
		return done_testing();
	}
	test_wanted();
	test_view();
	test_keys();
	test_usual_view();
	viewimg_free(&img);
	return done_testing();
}
