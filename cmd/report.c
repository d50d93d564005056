// SPDX-License-Identifier: GPL-2.0-only
/* mperf report: options -> open the file -> report__dump/stats/hist/header -> exit status. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../src/host/host.h"
#include "../src/lib/err.h"
#include "../src/perfdata/perfdata.h"
#include "../src/report/report.h"
#include "../src/stat/stat.h"
#include "cmd.h"

/*
 * The synopsis (up to the first blank line) is the SYNOPSIS of
 * man/mperf-report.1, word for word (t0020 compares them).
 */
static const char report_usage[] =
	"usage: mperf report [-i file] [--stdio | --json] [-s keys] [--percent-limit p]\n"
	"                    [--percentage relative|absolute] [--comms list]\n"
	"                    [--dsos list] [-S list] [--pid list] [--tid list] [--header | --header-only]\n"
	"                    [--children | --no-children] [-g [args]] [-G] [--max-stack n]\n"
	"                    [--group | --no-group] [--group-sort-idx n] [-n] [--show-total-period]\n"
	"                    [-b | --no-branch-stack] [-q] [-k file | --kallsyms file]\n"
	"   or: mperf report [-i file] [--header] (-D | --stats)\n"
	"   or: mperf report [-i file] --stats --json [--check [--check-tolerance pct]]\n"
	"   or: mperf report [-i file] --check [--check-tolerance pct]\n"
	"   or: mperf report [-i file] --format=folded|svg|pprof [-o file] [-k file | --kallsyms file]\n"
	"   or: mperf report -h\n"
	"\n"
	"    -i, --input FILE       input file (default: perf.data; '-' reads a pipe-mode stream from stdin)\n"
	"    -D, --dump-raw-trace   dump every record as perf report -D does, then per-event stats\n"
	"        --stats            only the per-event stats that end -D; with --json every event's\n"
	"                           samples, lost and throttles as JSON (see mperf-record(1))\n"
	"        --check            exit 3 when an event lost samples, was throttled, or is more than\n"
	"                           the tolerance below a like event (one line each on stderr)\n"
	"        --check-tolerance PCT  how far like events may differ (default: 5)\n"
	"        --stdio            text output, perf report --stdio's (the default)\n"
	"        --json             the histograms as one JSON document (see mperf-report(1))\n"
	"        --header           print the file's header and features first\n"
	"        --header-only      print only the file's header and features (a stream's too)\n"
	"    -s, --sort KEYS        histogram keys, comma-separated: comm, pid, dso, symbol (sym)\n"
	"                           (default: comm,dso,sym); in the branch view comm, pid, dso_from,\n"
	"                           dso_to, symbol_from, symbol_to, mispredict, in_tx, abort, cycles\n"
	"                           (default: comm,dso_from,symbol_from,symbol_to,cycles)\n"
	"    -b, --branch-stack     the branch view: an entry per branch of the samples' branch stacks\n"
	"                           (the default for a file recorded with them, perf record -b)\n"
	"        --no-branch-stack  the usual view of such a file, an entry per sample\n"
	"    -n, --show-nr-samples  a Samples column: each entry's samples (branches in the branch\n"
	"                           view; one per member in a group)\n"
	"        --percent-limit P  hide entries below P percent\n"
	"        --percentage HOW   relative: shares (and the header's totals) of what --comms,\n"
	"                           --dsos, -S, --pid and --tid show; absolute (the default): shares\n"
	"                           of every sample\n"
	"    -c, --comms C          only these commands (comma-separated)\n"
	"    -d, --dsos D           only these shared objects (comma-separated)\n"
	"    -S, --symbols S        only these symbols, by name (comma-separated)\n"
	"        --pid PIDS         only these processes (comma-separated)\n"
	"        --tid TIDS         only these threads (comma-separated)\n"
	"        --children         with call chains (the default when the file has them): each\n"
	"                           entry also gets what its callees cost (Children), with its chains\n"
	"        --no-children      the Self overhead only, each entry with the chains to it\n"
	"    -g, --call-graph[=ARGS] how chains show, comma-separated, as perf: graph, flat, fractal,\n"
	"                           folded or none; caller or callee; function; percent, period or\n"
	"                           count; a threshold in percent; a limit of chains per entry\n"
	"                           (-g alone: graph,0.5,caller,function,percent)\n"
	"    -G, --inverted         the caller order (root first)\n"
	"        --max-stack N      keep N frames of each chain, from the sample's end (default and\n"
	"                           at most: 127, perf's)\n"
	"        --group            show each event group (the file's, else every event in one) as\n"
	"                           one histogram, its leader's, a column per member (the default\n"
	"                           for a file with groups)\n"
	"        --no-group         one histogram per event, group members too\n"
	"        --group-sort-idx N sort a group's entries by its member N (0: the leader) first\n"
	"        --show-total-period a Period column (per member in a group)\n"
	"        --format FMT       the samples' stacks instead of histograms: folded (one line per\n"
	"                           stack and event, for flame graph tools), svg (an interactive\n"
	"                           flame graph: click to zoom, search, one view per event) or\n"
	"                           pprof (a gzipped profile.proto, for go tool pprof)\n"
	"    -o, --output FILE      write --format's output to FILE (default: standard output)\n"
	"    -q, --quiet            the rows alone, without perf's header lines; no warnings\n"
	"    -k, --vmlinux FILE     the kernel's symbols from this image (vmlinux), and no other,\n"
	"                           if its build id is the recorded kernel's (default: as perf looks\n"
	"                           for one by build id, then kallsyms: see mperf-report(1))\n"
	"        --kallsyms FILE    the kernel's symbols from this kallsyms file\n"
	"    -h, --help             show this help\n"
	"\n"
	"Chains recorded with --call-graph dwarf are unwound from each sample's registers and\n"
	"stack copy (libdw), with perf's inline frames.\n";

/*
 * The index of the name p[0..len) in names[n] (NULL entries skipped), or
 * -1; with prefix, as perf matches its sort keys: the first name that
 * p[0..len) begins, in any case ("sym", "Symbol", "d").
 */
static int key_index(const char *p, size_t len, const char *const *names, int n, bool prefix)
{
	for (int k = 0; len && k < n; k++)
		if (names[k] && (prefix ? strlen(names[k]) >= len && !strncasecmp(p, names[k], len)
				 : strlen(names[k]) == len && !strncmp(p, names[k], len)))
			return k;
	return -1;
}

/*
 * --sort KEYS, for both views: which one applies is the file's to say, so
 * a key only the other view knows is kept in o->sort_unfit for then.
 */
static int parse_keys(const char *list, struct report_hist_opts *o)
{
	static const char *const names[] = {
		[REPORT_KEY_COMM] = "comm", [REPORT_KEY_PID] = "pid",
		[REPORT_KEY_DSO] = "dso", [REPORT_KEY_SYM] = "symbol",
	};
	static const char *const bnames[] = {
		[REPORT_BKEY_COMM] = "comm", [REPORT_BKEY_PID] = "pid", [REPORT_BKEY_DSO_FROM] = "dso_from",
		[REPORT_BKEY_DSO_TO] = "dso_to", [REPORT_BKEY_SYM_FROM] = "symbol_from",
		[REPORT_BKEY_SYM_TO] = "symbol_to", [REPORT_BKEY_MISPREDICT] = "mispredict",
		[REPORT_BKEY_IN_TX] = "in_tx", [REPORT_BKEY_ABORT] = "abort", [REPORT_BKEY_CYCLES] = "cycles",
	};
	int nr = 0;

	o->nr_keys = o->nr_bkeys = 0;
	o->sort_unfit[0][0] = o->sort_unfit[1][0] = '\0';
	/* perf adds its IPC column to the branch view when the text names a symbol key */
	o->sort_symbol = strstr(list, "symbol") != NULL;
	for (const char *p = list; *p; ) {
		size_t len = strcspn(p, ",");
		int k = key_index(p, len, names, REPORT_NR_KEYS, true);
		int b = key_index(p, len, bnames, REPORT_NR_BKEYS, false);

		if (b < 0 && (k == REPORT_KEY_COMM || k == REPORT_KEY_PID))
			b = k == REPORT_KEY_COMM ? REPORT_BKEY_COMM : REPORT_BKEY_PID;
		if (k < 0 && b < 0) {
			cmd_usage_error("report", "unknown sort key '%.*s' (keys: comm, pid, dso, sym; in the branch view "
					"dso_from, dso_to, symbol_from, symbol_to, mispredict, in_tx, abort, cycles)",
					(int)len, p);
			return -1;
		}
		/* perf takes a key once: given again, it is ignored */
		bool dup_k = false, dup_b = false;

		for (int i = 0; k >= 0 && i < o->nr_keys; i++)
			dup_k |= o->keys[i] == (enum report_key)k;
		for (int i = 0; b >= 0 && i < o->nr_bkeys; i++)
			dup_b |= o->bkeys[i] == (enum report_bkey)b;
		if ((k < 0 || dup_k) && (b < 0 || dup_b) && (dup_k || dup_b)) {
			p += len + (p[len] == ',');
			continue;
		}
		if (nr++ == REPORT_MAX_KEYS) {
			cmd_usage_error("report", "too many sort keys in '%s' (at most %d)", list, REPORT_MAX_KEYS);
			return -1;
		}
		if (k >= 0 && !dup_k)
			o->keys[o->nr_keys++] = (enum report_key)k;
		else if (k < 0 && !o->sort_unfit[0][0])
			snprintf(o->sort_unfit[0], sizeof(o->sort_unfit[0]), "%.*s", (int)len, p);
		if (b >= 0 && !dup_b)
			o->bkeys[o->nr_bkeys++] = (enum report_bkey)b;
		else if (b < 0 && !o->sort_unfit[1][0])
			snprintf(o->sort_unfit[1], sizeof(o->sort_unfit[1]), "%.*s", (int)len, p);
		p += len;
		if (*p == ',')
			p++;
	}
	if (!nr) {
		cmd_usage_error("report", "empty sort key list (keys: comm, pid, dso, sym)");
		return -1;
	}
	return 0;
}

/* perf matches a -g word by any prefix of a name, in this order. */
static bool word(const char *tok, const char *name)
{
	return !strncmp(tok, name, strlen(tok));
}

/*
 * -g ARGS as perf report parses them: words for the mode, the order, the
 * key and the value, then numbers: the threshold, then the print limit.
 * "none" ends the list.  Keys other than function are refused: not yet.
 */
static int parse_call_graph(const char *arg, struct report_hist_opts *o)
{
	char buf[256], *save = NULL, *tok;
	bool have_min = false;

	o->cc_asked = true;
	if (strlen(arg) >= sizeof(buf)) {
		cmd_error("report", "invalid -g argument '%s'", arg);
		return -1;
	}
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		if (word(tok, "none")) {
			o->cc_mode = REPORT_CC_NONE;
			return 0;
		}
		if (word(tok, "graph"))
			o->cc_mode = REPORT_CC_GRAPH;
		else if (word(tok, "flat"))
			o->cc_mode = REPORT_CC_FLAT;
		else if (word(tok, "fractal"))
			o->cc_mode = REPORT_CC_FRACTAL;
		else if (word(tok, "folded"))
			o->cc_mode = REPORT_CC_FOLDED;
		else if (word(tok, "caller") || word(tok, "callee")) {
			o->cc_order = word(tok, "caller") ? REPORT_CC_CALLER : REPORT_CC_CALLEE;
			o->cc_order_set = true;
		} else if (word(tok, "function"))
			;
		else if (word(tok, "address") || word(tok, "srcline") || word(tok, "branch")) {
			cmd_error("report", "-g %s is not supported yet (function is)", tok);
			return -1;
		} else if (word(tok, "percent"))
			o->cc_value = REPORT_CC_PERCENT;
		else if (word(tok, "period"))
			o->cc_value = REPORT_CC_PERIOD;
		else if (word(tok, "count"))
			o->cc_value = REPORT_CC_COUNT;
		else if (!have_min) {
			o->cc_min_percent = strtod(tok, &end);
			if (end == tok) {
				cmd_error("report", "invalid -g argument '%s' (%s)", arg, tok);
				return -1;
			}
			have_min = true;
		} else {
			unsigned long v = strtoul(tok, &end, 0);

			if (end == tok) {
				cmd_error("report", "invalid -g argument '%s' (%s)", arg, tok);
				return -1;
			}
			o->cc_print_limit = (unsigned)v;
		}
	}
	return 0;
}

/*
 * --stats --json and --check: every event's samples, lost and throttles,
 * from one reading of the file; the summary on stdout, the check's
 * findings on stderr and its exit status.
 */
static int summarize(struct pdata *p, const char *label, const char *input, bool json, bool check,
		     double tolerance)
{
	struct report_file_stats fs;
	struct check_event *ev;
	uint64_t samples = 0;
	int ret = report__file_stats(p, label, &fs), failed = 0;

	if (ret < 0) {
		free(fs.ev);
		return ret;
	}
	ev = calloc(fs.nr_events ? fs.nr_events : 1, sizeof(*ev));
	if (!ev) {
		free(fs.ev);
		cmd_error("report", "out of memory");
		return EXIT_MPERF;
	}
	for (size_t i = 0; i < fs.nr_events; i++) {
		const struct report_event_stats *e = &fs.ev[i];

		ev[i] = (struct check_event){ .attr = *e->attr, .value = e->samples, .lost = e->lost,
					      .throttles = e->throttles };
		/* perf's dummy:HG of -a/-C: it carries the side band, it samples nothing. */
		ev[i].tracking = e->attr->type == PERF_TYPE_SOFTWARE && e->attr->config == PERF_COUNT_SW_DUMMY;
		snprintf(ev[i].name, sizeof(ev[i].name), "%s", e->name ? e->name : "");
		samples += e->samples;
	}
	if (json) {
		struct stat_summary s = {
			.source = "report", .file = input, .ev = ev, .nr_events = fs.nr_events, .samples = samples,
			.lost_records = fs.lost_records, .lost_events = fs.lost_events,
			.first_time = fs.first_time, .last_time = fs.last_time,
		};

		/* A write error on stdout is main's to say (or a quiet 141). */
		stat__summary_json(stdout, &s);
	}
	if (check)
		failed = stat__check(ev, fs.nr_events, tolerance);
	free(ev);
	free(fs.ev);
	return ret ? ret : failed ? STAT_EXIT_CHECK : 0;
}

static int parse_format(const char *arg, enum report_export_format *f)
{
	static const char *const names[] = {
		[REPORT_EXPORT_FOLDED] = "folded", [REPORT_EXPORT_SVG] = "svg", [REPORT_EXPORT_PPROF] = "pprof",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			*f = (enum report_export_format)i;
			return 0;
		}
	return cmd_usage_error("report", "unknown --format '%s' (formats: folded, svg, pprof)", arg);
}

/*
 * --format's output: to standard output, or to a temporary file beside
 * output renamed over it once whole, so that a failure never leaves a
 * half-written file under the asked name (it is removed).  Where output
 * is there and not a file (/dev/null, a FIFO), it is written in place:
 * renaming over a device would replace it.
 */
static int export_to(struct pdata *p, const char *label, const struct report_export_opts *eo, const char *output)
{
	struct host_newfile nf;
	struct stat st;
	FILE *f;
	int ret, err;

	if (!output)
		return report__export(p, label, eo, stdout);
	if (stat(output, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (!(f = fopen(output, "w"))) {
			cmd_error("report", "cannot write '%s': %s", output, strerror(errno));
			return EXIT_MPERF;
		}
		ret = report__export(p, label, eo, f);
		if (fclose(f) && ret >= 0) {
			cmd_error("report", "cannot write '%s': %s", output, strerror(errno));
			ret = EXIT_MPERF;
		}
		return ret;
	}
	if ((err = host_newfile_open(&nf, output, HOST_NEWFILE_UMASK)) || !(f = fdopen(nf.fd, "w"))) {
		if (err == -ENOMEM)
			cmd_error("report", "out of memory");
		else if (!nf.made)
			cmd_error("report", "cannot create '%s': %s", nf.tmp, strerror(err ? -err : errno));
		else
			cmd_error("report", "cannot write '%s': %s", nf.tmp, strerror(err ? -err : errno));
		host_newfile_done(&nf);
		return EXIT_MPERF;
	}
	nf.fd = -1;	/* f's now */
	ret = report__export(p, label, eo, f);
	if (fflush(f) && ret >= 0) {
		cmd_error("report", "cannot write '%s': %s", output, strerror(errno));
		ret = EXIT_MPERF;
	}
	if (fclose(f) && ret >= 0) {
		cmd_error("report", "cannot write '%s': %s", output, strerror(errno));
		ret = EXIT_MPERF;
	}
	if (ret == 0 && (err = host_newfile_commit(&nf))) {
		cmd_error("report", "cannot rename '%s' to '%s': %s", nf.tmp, output, strerror(-err));
		ret = EXIT_MPERF;
	}
	host_newfile_done(&nf);
	return ret;
}

/* A comma-separated list of ids, as perf's --pid and --tid take. */
static bool id_list(const char *s)
{
	do {
		char *end;

		errno = 0;
		if (*s < '0' || *s > '9' || strtol(s, &end, 10) > INT_MAX || errno)
			return false;
		s = end;
	} while (*s == ',' && *++s);
	return !*s;
}

/*
 * The first entry of a -S list that perf takes for an address (one that
 * reads whole as a hex number: "b", "0x4005d6"), which it filters by
 * the sample's or its symbol's address, not by name; NULL if none.
 * *len gets the entry's length.
 */
static const char *address_entry(const char *list, size_t *len)
{
	for (const char *p = list; p && *p; ) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char buf[64], *end;

		if (n && n < sizeof(buf)) {
			memcpy(buf, p, n);
			buf[n] = 0;
			errno = 0;
			(void)strtoul(buf, &end, 16);
			while (end > buf && *end && isspace((unsigned char)*end))
				end++;
			if (!errno && end != buf && !*end) {
				*len = n;
				return p;
			}
		}
		p = comma ? comma + 1 : NULL;
	}
	return NULL;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "dump-raw-trace", no_argument, NULL, 'D' },
		{ "stats", no_argument, NULL, 'W' },
		{ "stdio", no_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'J' },
		{ "header", no_argument, NULL, 'H' },
		{ "header-only", no_argument, NULL, 'O' },
		{ "sort", required_argument, NULL, 's' },
		{ "percent-limit", required_argument, NULL, 'P' },
		{ "percentage", required_argument, NULL, 'R' },
		{ "comms", required_argument, NULL, 'c' },
		{ "comm", required_argument, NULL, 'c' },
		{ "dsos", required_argument, NULL, 'd' },
		{ "dso", required_argument, NULL, 'd' },
		{ "symbols", required_argument, NULL, 'S' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "children", no_argument, NULL, 'C' },
		{ "no-children", no_argument, NULL, 'N' },
		{ "call-graph", optional_argument, NULL, 'g' },
		{ "inverted", no_argument, NULL, 'G' },
		{ "max-stack", required_argument, NULL, 'M' },
		{ "group", no_argument, NULL, 'U' },
		{ "no-group", no_argument, NULL, 'u' },
		{ "group-sort-idx", required_argument, NULL, 'X' },
		{ "show-nr-samples", no_argument, NULL, 'n' },
		{ "show-total-period", no_argument, NULL, 'Y' },
		{ "branch-stack", no_argument, NULL, 'b' },
		{ "no-branch-stack", no_argument, NULL, 'B' },
		{ "check", no_argument, NULL, 'K' },
		{ "check-tolerance", required_argument, NULL, 'Q' },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "kallsyms", required_argument, NULL, 'L' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *input = "perf.data", *label;
	bool dump = false, stats = false, header = false, header_only = false, check = false, stdio = false;
	bool format_set = false;
	struct report_export_opts eo = { .format = REPORT_EXPORT_FOLDED };
	const char *output = NULL;
	double tolerance = STAT_CHECK_TOLERANCE;
	/* The options that shape the histograms, for the conflicts below: the first given. */
	const char *hist_opt = NULL;
	const char *kernel_opt = NULL;	/* -k or --kallsyms: for the views that name symbols */
	struct pdata *p;
	static char obuf[1 << 16];
	int c, ret;

	struct report_hist_opts ho = {
		.keys = { REPORT_KEY_COMM, REPORT_KEY_DSO, REPORT_KEY_SYM },
		.nr_keys = 3,
		.children = -1,
		.cc_min_percent = 0.5,
		.branch = -1,
		.bkeys = { REPORT_BKEY_COMM, REPORT_BKEY_DSO_FROM, REPORT_BKEY_SYM_FROM, REPORT_BKEY_SYM_TO,
			   REPORT_BKEY_CYCLES },
		.nr_bkeys = 5,
	};
	bool inverted = false;
	char *end;

	opterr = 0;	/* ':': a missing value is ours to say */
	while ((c = getopt_long(argc, argv, ":i:Dhs:S:c:d:g::Go:bnqk:", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'D':
			dump = true;
			break;
		case 'W':
			stats = true;
			break;
		case 'T':
			stdio = true;
			break;
		case 'F':
			if (parse_format(optarg, &eo.format))
				return EXIT_USAGE;
			format_set = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'J':
			ho.json = true;
			break;
		case 'H':
			header = true;
			break;
		case 'O':
			header = header_only = true;
			break;
		case 's':
			if (parse_keys(optarg, &ho))
				return EXIT_USAGE;
			ho.sort_given = true;
			hist_opt = hist_opt ? hist_opt : "-s/--sort";
			break;
		case 'C':
			ho.children = 1;
			hist_opt = hist_opt ? hist_opt : "--children";
			break;
		case 'N':
			ho.children = 0;
			hist_opt = hist_opt ? hist_opt : "--no-children";
			break;
		case 'g': {
			/* As perf: a next word not starting with '-' is -g's argument. */
			const char *arg = optarg;

			if (!arg && optind < argc && argv[optind][0] != '-')
				arg = argv[optind++];
			if (parse_call_graph(arg ? arg : "graph,0.5,caller,function,percent", &ho))
				return EXIT_USAGE;
			hist_opt = hist_opt ? hist_opt : "-g/--call-graph";
			break;
		}
		case 'G':
			inverted = true;
			hist_opt = hist_opt ? hist_opt : "-G/--inverted";
			break;
		case 'M': {
			unsigned long n;

			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (end == optarg || *end || errno || !n || optarg[0] == '-')
				return cmd_usage_error("report", "invalid --max-stack '%s' (a number of frames, 1 or more)", optarg);
			ho.max_stack = n > 127 ? 127 : (unsigned)n;
			hist_opt = hist_opt ? hist_opt : "--max-stack";
			break;
		}
		case 'U':
		case 'u':
			ho.group_set = true;
			ho.no_group = c == 'u';
			hist_opt = hist_opt ? hist_opt : c == 'U' ? "--group" : "--no-group";
			break;
		case 'X': {
			long n;

			errno = 0;
			n = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || n < 0 || n > 65535)
				return cmd_usage_error("report", "invalid --group-sort-idx '%s' (a member's index in its group, 0 or more)",
						       optarg);
			ho.group_sort_idx = (int)n;
			hist_opt = hist_opt ? hist_opt : "--group-sort-idx";
			break;
		}
		case 'n':
			ho.show_nr = true;
			hist_opt = hist_opt ? hist_opt : "-n/--show-nr-samples";
			break;
		case 'Y':
			ho.show_period = true;
			hist_opt = hist_opt ? hist_opt : "--show-total-period";
			break;
		case 'b':
		case 'B':
			ho.branch = c == 'b';
			hist_opt = hist_opt ? hist_opt : c == 'b' ? "-b/--branch-stack" : "--no-branch-stack";
			break;
		case 'P':
			ho.percent_limit = strtod(optarg, &end);
			if (end == optarg || *end || ho.percent_limit < 0)
				return cmd_usage_error("report", "invalid percent limit '%s' for --percent-limit (a number of percent, 0 or more)",
						       optarg);
			ho.cc_min_percent = ho.percent_limit;	/* perf's threshold for chains too, until a -g sets one */
			hist_opt = hist_opt ? hist_opt : "--percent-limit";
			break;
		case 'R':
			if (strcmp(optarg, "relative") && strcmp(optarg, "absolute"))
				return cmd_usage_error("report", "invalid --percentage '%s' (relative or absolute)", optarg);
			ho.relative = !strcmp(optarg, "relative");
			hist_opt = hist_opt ? hist_opt : "--percentage";
			break;
		case 'c':
			ho.comm = optarg;
			hist_opt = hist_opt ? hist_opt : "--comms";
			break;
		case 'd':
			ho.dso = optarg;
			hist_opt = hist_opt ? hist_opt : "--dsos";
			break;
		case 'S': {
			size_t n;
			const char *a = address_entry(optarg, &n);

			if (a)
				return cmd_usage_error("report", "-S/--symbols: '%.*s' is an address to perf (it reads as "
						       "hex), which mperf does not filter by yet", (int)n, a);
			ho.sym = optarg;
			hist_opt = hist_opt ? hist_opt : "-S/--symbols";
			break;
		}
		case 'p':
		case 't':
			if (!id_list(optarg))
				return cmd_usage_error("report", "invalid %s list '%s' (comma-separated ids)",
						       c == 'p' ? "--pid" : "--tid", optarg);
			*(c == 'p' ? &ho.pid : &ho.tid) = optarg;
			hist_opt = hist_opt ? hist_opt : c == 'p' ? "--pid" : "--tid";
			break;
		case 'K':
			check = true;
			break;
		case 'q':
			ho.quiet = true;
			cmd_set_quiet();
			break;
		case 'k':
		case 'L':
			if (cmd_kernel_file("report", c, optarg))
				return EXIT_MPERF;
			*(c == 'k' ? &ho.vmlinux : &ho.kallsyms) = optarg;
			*(c == 'k' ? &eo.vmlinux : &eo.kallsyms) = optarg;
			kernel_opt = c == 'k' ? "-k/--vmlinux" : "--kallsyms";
			break;
		case 'Q':
			if (cmd_parse_tolerance(optarg, &tolerance)) {
				cmd_error("report", "invalid --check-tolerance '%s' (a percentage, 0 to 100)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(report_usage, stdout);
			return 0;
		default:
			return cmd_option_error("report", c, longopts, argv);
		}
	}
	if (optind < argc)
		return cmd_usage_error("report", "unexpected argument '%s' (the input is given with -i)", argv[optind]);
	/*
	 * Conflicts are refused, never resolved silently: -D and --stats print
	 * the records and their totals, not the histograms the others shape,
	 * and JSON has no header.
	 */
	if (output && !format_set)
		return cmd_usage_error("report", "-o/--output goes with --format (the histograms go to standard output)");
	if (format_set) {
		const char *other = dump ? "-D" : stats ? "--stats" : ho.json ? "--json" : stdio ? "--stdio" :
				    header_only ? "--header-only" : header ? "--header" : check ? "--check" : hist_opt;

		if (other)
			return cmd_usage_error("report", "--format cannot be used with %s: it writes the samples' stacks, not the histograms",
					       other);
	}
	if (ho.vmlinux && ho.kallsyms)
		return cmd_usage_error("report", "-k/--vmlinux and --kallsyms cannot be used together (one source of kernel symbols)");
	if (kernel_opt && (dump || stats || check || header_only))
		return cmd_usage_error("report", "%s cannot be used with %s, which names no symbols", kernel_opt,
				       dump ? "-D" : stats ? "--stats" : check ? "--check" : "--header-only");
	if (dump && stats)
		return cmd_usage_error("report", "-D and --stats cannot be used together (-D ends with the stats)");
	if ((dump || stats) && hist_opt)
		return cmd_usage_error("report", "%s cannot be used with %s, which prints records and their totals, not histograms",
				       hist_opt, dump ? "-D" : "--stats");
	if (header_only && (dump || stats))
		return cmd_usage_error("report", "--header-only cannot be used with %s", dump ? "-D" : "--stats");
	if (header && ho.json)
		return cmd_usage_error("report", "--json cannot be used with %s: the JSON document has no header",
				       header_only ? "--header-only" : "--header");
	if (dump && ho.json)
		return cmd_usage_error("report", "--json cannot be used with -D (with --stats it gives the stats as JSON)");
	if (check && (dump || header || (ho.json && !stats) || (stats && !ho.json)))
		return cmd_usage_error("report", "--check goes alone or with --stats --json (one reading of the file)");
	if (inverted) {	/* -G wins over an order -g gave, as in perf */
		ho.cc_order = REPORT_CC_CALLER;
		ho.cc_order_set = true;
	}
	/*
	 * A closed reader of our stdout ends us through write errors, not
	 * SIGPIPE (record leaves SIGPIPE alone: its workload inherits it).
	 */
	signal(SIGPIPE, SIG_IGN);
	label = strcmp(input, "-") ? input : "stdin";
	p = pdata__open(input);
	if (!p)
		return -errno;	/* said by the reader */
	/* As perf: the sort by a member needs groups the file names before its samples. */
	if (ho.group_sort_idx && (pdata__is_pipe(p) || !pdata__nr_groups(p))) {
		bool pipe = pdata__is_pipe(p);

		pdata__close(p);
		return cmd_usage_error("report", "--group-sort-idx needs a file with event groups (%s)",
				       pipe ? "perf refuses it for a pipe-mode stream, whose groups come later" :
				       "this one has none");
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (header) {
		struct stat st;

		if (pdata__is_pipe(p) && !header_only) {
			cmd_error("report", "--header needs a file-mode perf.data, not a pipe-mode stream (--header-only reads either)");
			pdata__close(p);
			return EXIT_MPERF;
		}
		/* perf's "captured on" is the input's mtime, a pipe's too. */
		ret = report__header(p, label, (strcmp(input, "-") ? stat(input, &st) : fstat(0, &st)) == 0 ?
				     st.st_mtime : 0, stdout);
		if (ret < 0 || header_only) {
			pdata__close(p);
			return ret;
		}
		ho.after_header = true;
	}
	if (format_set) {
		eo.title = input;
		ret = export_to(p, label, &eo, output);
	} else if (check || (stats && ho.json))
		ret = summarize(p, label, input, stats && ho.json, check, tolerance);
	else if (dump)
		ret = cmd_damaged(report__dump(p, label, stdout));
	else if (stats)
		ret = report__stats(p, label, stdout);
	else
		ret = cmd_damaged(report__hist(p, label, &ho, stdout));
	pdata__close(p);
	/* An option this file's view cannot take (said by the view): a usage error. */
	return ret == -MPERF_ERR_USAGE ? EXIT_USAGE : ret;
}
