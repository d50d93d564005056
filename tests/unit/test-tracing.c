// SPDX-License-Identifier: GPL-2.0-only
/*
 * TRACING_DATA without tracefs: the writer is fed fixed format texts, and
 * the bytes it writes (the feature section of a file, and the payload of
 * the TRACING_DATA record of a stream) are checked against an image built
 * here by hand, read back with pd_tracing_data_decode, and the formats in
 * it parsed with libtraceevent as perf's reader would.  Also --filter's
 * attachment to the events of the last -e (record__add_filter).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>
#include "../../src/lib/err.h"
#include "../../src/perfdata/perfdata.h"
#include "../../src/record/record.h"
#include "logcap.h"
#include "tap.h"

static char tmpdir[64];

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_event[] = "# compressed entry header\n\ttype_len    :    5 bits\n";

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char fmt_alpha[] = "name: alpha\nID: 901\nformat:\n" COMMON_FIELDS
	"\tfield:int val;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"val=%d\", REC->val\n";
static const char fmt_beta[] = "name: beta\nID: 902\nformat:\n" COMMON_FIELDS
	"\tfield:char who[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:unsigned long addr;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"who=%s addr=%lx\", REC->who, REC->addr\n";
static const char fmt_gamma[] = "name: gamma\nID: 903\nformat:\n" COMMON_FIELDS
	"\tfield:u32 n;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"n=%u\", REC->n\n";
static const char fmt_fn[] = "name: function\nID: 1\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \" %ps\", (void *)REC->ip\n";
static const char printk[] = "0xffffffff81000000 : \"hello %d\\n\"\n";

#define TEXT(s) { s, sizeof(s) - 1 }

/* Two systems (test: alpha, beta; other: gamma) and an ftrace event, listed as tracefs would. */
static const struct pd_tracing_event events[] = {
	{ "ftrace", TEXT(fmt_fn) },
	{ "test", TEXT(fmt_alpha) },
	{ "test", TEXT(fmt_beta) },
	{ "other", TEXT(fmt_gamma) },
};

static const struct pd_tracing_data td = {
	.big_endian = false,
	.long_size = 8,
	.page_size = 4096,
	.header_page = TEXT(header_page),
	.header_event = TEXT(header_event),
	.events = events,
	.nr_events = 4,
	.printk = TEXT(printk),
};

/* ---- the image, by hand ---- */

struct img {
	unsigned char b[8192];
	size_t n;
};

static void put(struct img *m, const void *p, size_t n)
{
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

static void put_u32(struct img *m, uint32_t v)
{
	put(m, &v, 4);
}

static void put_u64(struct img *m, uint64_t v)
{
	put(m, &v, 8);
}

static void put_text64(struct img *m, const char *s)
{
	put_u64(m, strlen(s));
	put(m, s, strlen(s));
}

static void expected(struct img *m)
{
	m->n = 0;
	put(m, "\027\010\104tracing", 10);
	put(m, "0.6", 4);
	put(m, "\0\010", 2);		/* little-endian, sizeof(long) 8 */
	put_u32(m, 4096);
	put(m, "header_page", 12);
	put_text64(m, header_page);
	put(m, "header_event", 13);
	put_text64(m, header_event);
	put_u32(m, 1);			/* ftrace formats */
	put_text64(m, fmt_fn);
	put_u32(m, 2);			/* systems */
	put(m, "test", 5);
	put_u32(m, 2);
	put_text64(m, fmt_alpha);
	put_text64(m, fmt_beta);
	put(m, "other", 6);
	put_u32(m, 1);
	put_text64(m, fmt_gamma);
	put_u32(m, 0);			/* kallsyms: perf 6.1 writes none */
	put_u32(m, (uint32_t)strlen(printk));
	put(m, printk, strlen(printk));
	put_u64(m, 0);			/* saved_cmdlines: empty */
}

/* ---- written, read back ---- */

static struct perf_event_attr tp_attr(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(a), .config = 901,
				     .sample_period = 1,
				     .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW,
				     .sample_id_all = 1 };
	return a;
}

static void check_decoded(const void *buf, size_t len, const char *what)
{
	struct pd_tracing_event ev[8];
	struct pd_tracing_data got;
	size_t nr;

	if (!ok(!pd_tracing_data_decode(buf, len, &got, ev, 8, &nr), "%s: decodes", what))
		return;
	ok(!got.big_endian && got.long_size == 8 && got.page_size == 4096, "%s: byte order, long, page size", what);
	ok(got.header_page.len == strlen(header_page) && !memcmp(got.header_page.p, header_page, got.header_page.len) &&
	   got.header_event.len == strlen(header_event), "%s: header_page and header_event", what);
	is_int(nr, 4, "%s: four formats", what);
	for (size_t i = 0; i < nr && i < 4; i++)
		ok(!strcmp(ev[i].sys, events[i].sys) && ev[i].format.len == events[i].format.len &&
		   !memcmp(ev[i].format.p, events[i].format.p, ev[i].format.len),
		   "%s: format %zu is %s's, as given", what, i, events[i].sys);
	ok(!got.kallsyms.len && got.printk.len == strlen(printk) && !got.cmdlines.len,
	   "%s: no kallsyms, the printk formats, no cmdlines", what);

	/* What perf's reader does with them: libtraceevent parses every format. */
	struct tep_handle *tep = tep_alloc();

	tep_set_long_size(tep, got.long_size);
	tep_set_page_size(tep, (int)got.page_size);
	ok(!tep_parse_header_page(tep, (char *)got.header_page.p, got.header_page.len, got.long_size),
	   "%s: libtraceevent takes header_page", what);
	for (size_t i = 0; i < nr && i < 4; i++) {
		struct tep_event *e = NULL;

		ok(tep_parse_format(tep, &e, ev[i].format.p, ev[i].format.len, ev[i].sys) == 0 && e,
		   "%s: libtraceevent parses %s's format %zu", what, ev[i].sys, i);
	}
	struct tep_event *beta = tep_find_event_by_name(tep, "test", "beta");

	ok(beta && tep_find_field(beta, "who") && tep_find_field(beta, "addr") && tep_find_any_field(beta, "common_pid") &&
	   !tep_find_any_field(beta, "val"), "%s: test:beta has who, addr and common_pid, not val", what);
	ok(tep_find_event(tep, 903) && !strcmp(tep_find_event(tep, 903)->system, "other"),
	   "%s: id 903 is other:gamma", what);
	tep_free(tep);
}

static void test_file(void)
{
	struct perf_event_attr a = tp_attr();
	uint64_t id = 5;
	char path[128];
	struct pdata_writer *w;
	struct pdata *p;
	const unsigned char *sec;
	size_t len = 0;
	struct img m;

	snprintf(path, sizeof(path), "%s/tp.data", tmpdir);
	w = pdw__create(path);
	if (!ok(w != NULL, "file: create"))
		return;
	ok(!pdw__add_event(w, &a, "test:alpha", &id, 1) && !pdw__feat_tracing_data(w, &td) && !pdw__begin_data(w) &&
	   !pdw__finished_round(w) && !pdw__finish(w), "file: written with TRACING_DATA");
	pdw__close(w);
	logcap_reset();
	p = pdata__open(path);
	if (!ok(p != NULL, "file: read back ('%s')", logcap_err))
		return;
	ok(pdata__has_feat(p, PD_FEAT_TRACING_DATA), "file: the TRACING_DATA bit is set");
	sec = pdata__feature(p, PD_FEAT_TRACING_DATA, &len);
	expected(&m);
	ok(sec && len == m.n && !memcmp(sec, m.b, m.n), "file: the section is the image by hand (%zu bytes, %zu expected)",
	   len, m.n);
	if (sec)
		check_decoded(sec, len, "file");
	pdata__close(p);
	unlink(path);
}

static void test_pipe(void)
{
	struct perf_event_attr a = tp_attr();
	uint64_t id = 5;
	char path[128];
	struct pdata_writer *w;
	struct pdata *p;
	struct pd_record rec;
	struct img m;
	int fd, save, n = 0, saw_td = 0, after = 0;

	snprintf(path, sizeof(path), "%s/tp.pipe", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fflush(stdout);
	save = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);	/* the writer's "-" is standard output */
	w = pdw__create("-");
	dup2(save, STDOUT_FILENO);
	close(save);
	close(fd);
	if (!ok(w != NULL, "pipe: create"))
		return;
	ok(!pdw__add_event(w, &a, "test:alpha", &id, 1) && !pdw__feat_string(w, PD_FEAT_HOSTNAME, "h") &&
	   !pdw__feat_tracing_data(w, &td) && !pdw__begin_data(w) && !pdw__finished_round(w) && !pdw__finish(w),
	   "pipe: written with TRACING_DATA");
	pdw__close(w);

	expected(&m);
	logcap_reset();
	p = pdata__open(path);
	if (!ok(p != NULL, "pipe: read back ('%s')", logcap_err))
		return;
	while (pdata__next(p, &rec) > 0) {
		n++;
		if (rec.hdr->type == PD_HEADER_FEATURE) {
			struct pd_feature_event f;

			PD_VIEW(rec.hdr, &f);
			ok(f.feat_id != PD_FEAT_TRACING_DATA && !saw_td, "pipe: feature %llu comes before TRACING_DATA",
			   (unsigned long long)f.feat_id);
		} else if (rec.hdr->type == PD_HEADER_TRACING_DATA) {
			struct pd_tracing_data_event e;

			PD_VIEW(rec.hdr, &e);
			saw_td++;
			ok(rec.hdr->size == 16 && e.size == ((m.n + 7) & ~(size_t)7),
			   "pipe: TRACING_DATA says %u bytes follow: the image padded to 8", e.size);
		} else if (rec.hdr->type == PD_FINISHED_ROUND) {
			after += saw_td;
		}
	}
	ok(saw_td == 1 && after == 1, "pipe: one TRACING_DATA, and the reader finds the record after its payload");
	pdata__close(p);

	/* The payload itself: right after the 16-byte record, then zeros to 8. */
	FILE *f = fopen(path, "rb");
	static unsigned char all[16384];
	size_t len = f ? fread(all, 1, sizeof(all), f) : 0;
	const unsigned char *at = NULL;

	if (f)
		fclose(f);
	for (size_t off = 16; off + 16 <= len;) {
		struct perf_event_header h;

		memcpy(&h, all + off, sizeof(h));
		if (h.type == PD_HEADER_TRACING_DATA) {
			at = all + off + 16;
			break;
		}
		if (!h.size)
			break;
		off += h.size;
	}
	size_t pad = ((m.n + 7) & ~(size_t)7) - m.n;
	static const unsigned char zeros[8];

	ok(at && at + m.n + pad <= all + len && !memcmp(at, m.b, m.n) && !memcmp(at + m.n, zeros, pad),
	   "pipe: the payload is the image by hand, then %zu zeros", pad);
	if (at)
		check_decoded(at, m.n, "pipe");
	unlink(path);
}

static void test_decode_errors(void)
{
	struct pd_tracing_event ev[8];
	struct pd_tracing_data got;
	struct img m;
	size_t nr;
	int bad = 0;

	expected(&m);
	/* Every proper prefix is refused (the cmdlines may be missing: version 0.5's end). */
	for (size_t n = 0; n < m.n; n++) {
		int r = pd_tracing_data_decode(m.b, n, &got, ev, 8, &nr);

		bad += r == 0 && n != m.n - 8;
	}
	is_int(bad, 0, "decode: every truncation but the cmdlines' is refused");
	m.b[12] = '7';	/* version "0.7" */
	is_int(pd_tracing_data_decode(m.b, m.n, &got, ev, 8, &nr), -MPERF_ERR_UNSUPP, "decode: version 0.7 is not ours");
	expected(&m);
	ok(!pd_tracing_data_decode(m.b, m.n, &got, ev, 2, &nr) && nr == 4 && got.nr_events == 2,
	   "decode: room for 2 of 4 formats: 4 counted, 2 kept");
}

static void test_add_filter(void)
{
	struct record_event ev[4];
	size_t n = 0;

	memset(ev, 0, sizeof(ev));
	ev[0].attr.type = PERF_TYPE_SOFTWARE;
	snprintf(ev[0].name, sizeof(ev[0].name), "cpu-clock");
	for (int i = 1; i < 4; i++) {
		ev[i].attr.type = PERF_TYPE_TRACEPOINT;
		snprintf(ev[i].name, sizeof(ev[i].name), "test:e%d", i);
	}
	n = 4;
	logcap_reset();
	ok(!record__add_filter(ev, 2, n, "a == 1") && !record__add_filter(ev, 2, n, "b == 2") &&
	   ev[1].nr_filters == 0 && ev[2].nr_filters == 2 && ev[3].nr_filters == 2 &&
	   !strcmp(ev[3].filters[1], "b == 2"), "filter: every event of the last -e, in order");
	logcap_reset();
	ok(record__add_filter(ev, 0, n, "x") == -EINVAL && logcap_errors == 1 &&
	   strstr(logcap_err, "'cpu-clock' is not a tracepoint") && ev[1].nr_filters == 0,
	   "filter: a -e with a non-tracepoint is refused in one line, nothing set ('%s')", logcap_err);
	logcap_reset();
	ok(record__add_filter(ev, 0, 0, "x") == -EINVAL && logcap_errors == 1 &&
	   strstr(logcap_err, "must follow a -e tracepoint option"), "filter: no -e before it ('%s')", logcap_err);
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/mperf-unit-XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	test_file();
	test_pipe();
	test_decode_errors();
	test_add_filter();
	rmdir(tmpdir);
	return done_testing();
}
