// SPDX-License-Identifier: GPL-2.0-only
/*
 * report__export on a small in-memory image (viewimg.h): folded stacks
 * (per event, "comm;root;...;leaf count", sorted, stacks that differ only
 * by addresses merged, ';' in a name written '_', an address without a
 * map [unknown], a sample without a chain its ip alone), the flame
 * graph's frames (name, samples, share, kind), and the pprof profile
 * (gunzipped and decoded here: its sample types, the samples' values per
 * event, the string table).
 *
 * The image: cpu-clock with call chains: worker twice in mperf_view_hot
 * called from mperf_view_cold (at two addresses), once in
 * mperf_view_cold alone; "a;b" (a comm with ';') in mperf_view_hot called
 * from 0x5000, which no map holds.  task-clock without chains: worker
 * once in mperf_view_hot.  Periods 100, 100, 100, 100 and 250.
 */
#include <zlib.h>
#include "viewimg.h"

static struct view_exe exe;
static struct viewimg img;

#define CTX_USER ((uint64_t)PERF_CONTEXT_USER)

static int build(void)
{
	static const struct view_event ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", VIEW_ST | PERF_SAMPLE_CALLCHAIN, 0 },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 0, 0 },
	};
	const struct view_sample s[] = {
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 1000, .ip = VIEW_HOT + 4, .period = 100,
		  .nr_chain = 3, .chain = { CTX_USER, VIEW_HOT + 4, VIEW_COLD + 8 } },
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 2000, .ip = VIEW_HOT + 8, .period = 100,
		  .nr_chain = 3, .chain = { CTX_USER, VIEW_HOT + 8, VIEW_COLD + 12 } },
		{ .ev = 0, .pid = 1000, .tid = 1000, .time = 3000, .ip = VIEW_COLD + 4, .period = 100,
		  .nr_chain = 2, .chain = { CTX_USER, VIEW_COLD + 4 } },
		{ .ev = 0, .pid = 3000, .tid = 3000, .time = 4000, .ip = VIEW_HOT + 4, .period = 100,
		  .nr_chain = 3, .chain = { CTX_USER, VIEW_HOT + 4, 0x5000 } },
		{ .ev = 1, .pid = 1000, .tid = 1000, .time = 5000, .ip = VIEW_HOT + 4, .period = 250 },
	};
	int err = viewimg_begin(&img, ev, 2);

	return err | viewimg_two_procs(&img, &exe, 1000, "worker", 3000, "a;b", s, sizeof(s) / sizeof(s[0]));
}

static char *export(enum report_export_format fmt, int *ret, size_t *len)
{
	struct report_export_opts o = { .format = fmt, .title = "img", .kallsyms = view_kallsyms() };

	return view_run(&img, VIEW_EXPORT, &o, ret, len);
}

static void test_folded(void)
{
	int ret;
	char *t = export(REPORT_EXPORT_FOLDED, &ret, NULL);

	is_int(ret, 0, "folded: returns 0");
	is_str(t,
	       "# event: cpu-clock\n"
	       "a_b;[unknown];mperf_view_hot 1\n"
	       "worker;mperf_view_cold 1\n"
	       "worker;mperf_view_cold;mperf_view_hot 2\n"
	       "# event: task-clock\n"
	       "worker;mperf_view_hot 1\n",
	       "folded: per event, root first, sorted, merged by name, ';' as '_', [unknown], no chain: the ip");
	free(t);
}

/* The <title> of the flame graph frame named name in the first event's view: "name\nN samples, P%, kind". */
static const char *svg_title(const char *svg, const char *name)
{
	static char buf[256];
	char key[128];
	const char *p, *e;

	snprintf(key, sizeof(key), "<title>%s\n", name);
	buf[0] = 0;
	if (!(p = strstr(svg, key)) || !(e = strstr(p, "</title>")))
		return buf;
	p += strlen("<title>");
	snprintf(buf, sizeof(buf), "%.*s", (int)(e - p), p);
	return buf;
}

static void test_svg(void)
{
	int ret;
	char *t = export(REPORT_EXPORT_SVG, &ret, NULL);

	is_int(ret, 0, "svg: returns 0");
	ok(strstr(t, "<svg version=\"1.1\"") && strstr(t, "</svg>"), "svg: one svg document");
	/* cpu-clock's view comes first: its frames' titles are found before task-clock's. */
	is_str(svg_title(t, "all"), "all\n4 samples, 100.00%, all samples", "svg: the root, cpu-clock's 4 samples");
	is_str(svg_title(t, "worker"), "worker\n3 samples, 75.00%, command", "svg: a command, its share");
	is_str(svg_title(t, "a;b"), "a;b\n1 sample, 25.00%, command", "svg: a comm with ';' kept whole");
	is_str(svg_title(t, "mperf_view_cold"), "mperf_view_cold\n3 samples, 75.00%, user",
	       "svg: stacks merged by frame name under a command");
	is_str(svg_title(t, "[unknown]"), "[unknown]\n1 sample, 25.00%, no map", "svg: a frame without a map");
	ok(strstr(t, "data-name=\"task-clock\"") != NULL, "svg: task-clock has its view");
	free(t);
}

/* A comm with a quote, a backslash, '<', '&' and a tab: escaped in the SVG, kept in folded lines. */
static void test_odd_comm(void)
{
	struct report_export_opts o = { .format = REPORT_EXPORT_SVG, .title = "img", .kallsyms = view_kallsyms() };
	struct viewimg oi;
	char *t;

	if (viewimg_odd_comm(&oi, &exe)) {
		skip(2, "no image with an odd comm");
		return;
	}
	t = view_run(&oi, VIEW_EXPORT, &o, NULL, NULL);
	ok(strstr(t, "<title>a&quot;b\\c&lt;d&amp;\t\n1 sample, 100.00%, command</title>") != NULL,
	   "svg: a comm's quote, '<' and '&' escaped in its title");
	free(t);
	o.format = REPORT_EXPORT_FOLDED;
	t = view_run(&oi, VIEW_EXPORT, &o, NULL, NULL);
	is_str(t, "# event: cpu-clock\na\"b\\c<d&\t;mperf_view_hot 1\n", "folded: the comm as it is");
	free(t);
	viewimg_free(&oi);
}

/* ---- a little protobuf, to read the profile back ---- */

struct pb {
	const unsigned char *p, *end;
};

static int pb_varint(struct pb *b, uint64_t *v)
{
	*v = 0;
	for (int s = 0; s < 64 && b->p < b->end; s += 7) {
		unsigned char c = *b->p++;

		*v |= (uint64_t)(c & 0x7f) << s;
		if (!(c & 0x80))
			return 0;
	}
	return -1;
}

/* The next field: its number, wire type, and value (varint) or bytes (length-delimited). */
static int pb_field(struct pb *b, unsigned *field, unsigned *wt, uint64_t *v, struct pb *sub)
{
	uint64_t tag;

	if (b->p >= b->end || pb_varint(b, &tag))
		return -1;
	*field = (unsigned)(tag >> 3);
	*wt = (unsigned)(tag & 7);
	if (*wt == 0)
		return pb_varint(b, v);
	if (*wt != 2 || pb_varint(b, v) || *v > (uint64_t)(b->end - b->p))
		return -1;
	sub->p = b->p;
	sub->end = b->p + *v;
	b->p += *v;
	return 0;
}

struct profile {
	char *strings[64];
	size_t nstr;
	uint64_t type[8][2];		/* sample_type: (type, unit) string indexes */
	size_t ntype;
	uint64_t sum[8];		/* every sample's values, added by index */
	size_t nsample;
	uint64_t default_type;
	int bad;
};

static void profile_decode(const unsigned char *buf, size_t len, struct profile *pr)
{
	struct pb b = { buf, buf + len }, sub, s2;
	unsigned f, wt, f2, wt2;
	uint64_t v, v2;

	memset(pr, 0, sizeof(*pr));
	while (b.p < b.end) {
		if (pb_field(&b, &f, &wt, &v, &sub)) {
			pr->bad = 1;
			return;
		}
		if (f == 1 && wt == 2 && pr->ntype < 8) {		/* sample_type */
			while (sub.p < sub.end && !pb_field(&sub, &f2, &wt2, &v2, &s2))
				if (wt2 == 0 && (f2 == 1 || f2 == 2))
					pr->type[pr->ntype][f2 - 1] = v2;
			pr->ntype++;
		} else if (f == 2 && wt == 2) {				/* sample */
			pr->nsample++;
			while (sub.p < sub.end && !pb_field(&sub, &f2, &wt2, &v2, &s2)) {
				size_t i = 0;

				if (f2 != 2)
					continue;
				if (wt2 == 0) {				/* one value, unpacked */
					pr->sum[0] += v2;
					continue;
				}
				while (s2.p < s2.end && i < 8 && !pb_varint(&s2, &v2))
					pr->sum[i++] += v2;
			}
		} else if (f == 6 && wt == 2 && pr->nstr < 64) {	/* string_table */
			pr->strings[pr->nstr++] = strndup((const char *)sub.p, (size_t)(sub.end - sub.p));
		} else if (f == 14 && wt == 0) {
			pr->default_type = v;
		}
	}
}

static const char *pstr(const struct profile *pr, uint64_t i)
{
	return i < pr->nstr ? pr->strings[i] : "(out of the table)";
}

static bool has_string(const struct profile *pr, const char *s)
{
	for (size_t i = 0; i < pr->nstr; i++)
		if (!strcmp(pr->strings[i], s))
			return true;
	return false;
}

static void test_pprof(void)
{
	int ret;
	size_t len, ulen = 0;
	char *t = export(REPORT_EXPORT_PPROF, &ret, &len);
	unsigned char *u = malloc(1 << 20);
	z_stream z = { 0 };
	struct profile pr;

	is_int(ret, 0, "pprof: returns 0");
	ok(len > 2 && (unsigned char)t[0] == 0x1f && (unsigned char)t[1] == 0x8b, "pprof: gzipped");
	if (u && inflateInit2(&z, 16 + MAX_WBITS) == Z_OK) {
		z.next_in = (unsigned char *)t;
		z.avail_in = (unsigned)len;
		z.next_out = u;
		z.avail_out = 1 << 20;
		if (inflate(&z, Z_FINISH) == Z_STREAM_END)
			ulen = z.total_out;
		inflateEnd(&z);
	}
	ok(ulen > 0, "pprof: gunzips");
	profile_decode(u, ulen, &pr);
	ok(!pr.bad, "pprof: decodes as protobuf");
	is_int((int)pr.ntype, 4, "pprof: two sample types per event");
	is_str(pr.ntype > 0 ? pstr(&pr, pr.type[0][0]) : "", "cpu-clock", "pprof: type 0: cpu-clock");
	is_str(pr.ntype > 0 ? pstr(&pr, pr.type[0][1]) : "", "count", "pprof: type 0's unit: count");
	is_str(pr.ntype > 1 ? pstr(&pr, pr.type[1][0]) : "", "cpu-clock:period", "pprof: type 1: cpu-clock:period");
	is_str(pr.ntype > 1 ? pstr(&pr, pr.type[1][1]) : "", "nanoseconds", "pprof: a clock's period unit: nanoseconds");
	is_str(pr.ntype > 2 ? pstr(&pr, pr.type[2][0]) : "", "task-clock", "pprof: type 2: task-clock");
	is_int((int)pr.nsample, 5, "pprof: one sample per distinct stack of addresses (the two hot stacks apart)");
	ok(pr.sum[0] == 4 && pr.sum[1] == 400 && pr.sum[2] == 1 && pr.sum[3] == 250,
	   "pprof: values add up per event: 4 samples, 400; 1 sample, 250 (got %" PRIu64 " %" PRIu64 " %" PRIu64
	   " %" PRIu64 ")", pr.sum[0], pr.sum[1], pr.sum[2], pr.sum[3]);
	is_str(pstr(&pr, pr.default_type), "cpu-clock", "pprof: default sample type: the first event's");
	ok(has_string(&pr, "mperf_view_hot") && has_string(&pr, "mperf_view_cold") && has_string(&pr, exe.path),
	   "pprof: the functions and the mapping's file are in the string table");
	ok(pr.nstr > 0 && !strcmp(pr.strings[0], ""), "pprof: string 0 is empty");
	for (size_t i = 0; i < pr.nstr; i++)
		free(pr.strings[i]);
	free(u);
	free(t);
}

int main(void)
{
	if (view_exe(&exe) || build()) {
		plan(1);
		skip(1, "no image: /proc/self/maps has no executable mapping of this binary");
		return done_testing();
	}
	test_folded();
	test_svg();
	test_odd_comm();
	test_pprof();
	viewimg_free(&img);
	return done_testing();
}
