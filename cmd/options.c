// SPDX-License-Identifier: GPL-2.0-only
/* A command's option table -> getopt_long, -h's option lines, the usage errors. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "options.h"

/* getopt_long's val for the table's entry i given by its long name */
#define LONG_VAL(i) (256 + (int)(i))

/* The option's name in -h, "-x, --name ARG", without the indent. */
static size_t opt_left(const struct cmd_opt *o, char *buf, size_t len)
{
	int n;

	if (o->short_name && o->long_name)
		n = snprintf(buf, len, "-%c, --%s", o->short_name, o->long_name);
	else if (o->short_name)
		n = snprintf(buf, len, "-%c", o->short_name);
	else
		n = snprintf(buf, len, "    --%s", o->long_name);
	if (o->argname && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%s%s", o->arg == CMD_ARG_OPTIONAL ? "" : " ", o->argname);
	return n < 0 ? 0 : (size_t)n;
}

void cmd_options_help(const struct cmd_options *t, FILE *f)
{
	fputs(t->usage, f);
	for (size_t i = 0; i < t->nr_opts; i++) {
		const struct cmd_opt *o = &t->opts[i];
		char left[128];
		size_t len;
		int pad;

		if (!o->help)
			continue;
		len = 4 + opt_left(o, left, sizeof(left));
		/* the help at its column; past it, after one space, or two when it overflows */
		pad = (size_t)t->help_col > len ? t->help_col - (int)len : (size_t)t->help_col == len ? 1 : 2;
		fprintf(f, "    %s%*s", left, pad, "");
		for (const char *h = o->help; *h; ) {
			size_t n = strcspn(h, "\n");

			fprintf(f, "%.*s\n", (int)n, h);
			h += n;
			if (*h == '\n' && *++h)
				fprintf(f, "%*s", t->help_col, "");
		}
	}
	if (t->trailer)
		fputs(t->trailer, f);
}

/* How the conflict errors name o: its msg_name, else "-x/--name", "--name" or "-x". */
static const char *opt_name(const struct cmd_opt *o, char *buf, size_t len)
{
	if (o->msg_name)
		return o->msg_name;
	if (o->short_name && o->long_name)
		snprintf(buf, len, "-%c/--%s", o->short_name, o->long_name);
	else if (o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
	return buf;
}

static const struct cmd_opt *find_short(const struct cmd_options *t, int c)
{
	for (size_t i = 0; i < t->nr_opts; i++)
		if (t->opts[i].short_name == c)
			return &t->opts[i];
	return NULL;
}

int cmd_options_parse(struct cmd_parse *p, const struct cmd_options *t, int argc, char **argv, void *ctx)
{
	struct option longopts[CMD_MAX_OPTS + 1];
	char optstring[3 * CMD_MAX_OPTS + 3];
	size_t nl = 0, ns = 0;
	int c;

	memset(p, 0, sizeof(*p));
	p->t = t;
	if (t->nr_opts > CMD_MAX_OPTS) {
		cmd_error(t->cmd, "too many options in its table (at most %d)", CMD_MAX_OPTS);
		return EXIT_MPERF;
	}
	/* '+': options stop at the workload's name; ':': a missing value is ours to say. */
	if (t->stop_at_operand)
		optstring[ns++] = '+';
	optstring[ns++] = ':';
	for (size_t i = 0; i < t->nr_opts; i++) {
		const struct cmd_opt *o = &t->opts[i];
		int has_arg = o->arg == CMD_ARG_REQUIRED ? required_argument :
			      o->arg == CMD_ARG_OPTIONAL ? optional_argument : no_argument;

		if (o->long_name)
			longopts[nl++] = (struct option){ o->long_name, has_arg, NULL, LONG_VAL(i) };
		if (o->short_name) {
			optstring[ns++] = o->short_name;
			for (int k = 0; k < has_arg; k++)
				optstring[ns++] = ':';
		}
	}
	longopts[nl] = (struct option){ NULL, 0, NULL, 0 };
	optstring[ns] = '\0';
	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		const struct cmd_opt *o = c >= LONG_VAL(0) ? &t->opts[c - LONG_VAL(0)] : find_short(t, c);
		size_t i;
		int ret;

		if (c == '?' || c == ':' || !o)
			return cmd_option_error(t->cmd, c, longopts, argv);
		if (o->id == 'h') {
			cmd_options_help(t, stdout);
			return 0;
		}
		i = (size_t)(o - t->opts);
		if (!p->first[i])
			p->first[i] = ++p->next;
		p->given |= o->cls;
		ret = t->set ? t->set(ctx, o, optarg) : 0;
		if (ret)
			return ret == CMD_EXIT_OK ? 0 : ret;
	}
	return CMD_OPTS_OK;
}

/* The name of the first option given of the first class of cls[] that has one; NULL if none. */
static const char *first_given(const struct cmd_parse *p, const unsigned *cls, char *buf, size_t len)
{
	const struct cmd_options *t = p->t;

	for (size_t k = 0; k < CMD_MAX_CLASSES && cls[k]; k++) {
		size_t best = t->nr_opts;

		for (size_t i = 0; i < t->nr_opts; i++)
			if ((t->opts[i].cls & cls[k]) && p->first[i] && (best == t->nr_opts || p->first[i] < p->first[best]))
				best = i;
		if (best < t->nr_opts)
			return opt_name(&t->opts[best], buf, len);
	}
	return NULL;
}

int cmd_options_conflicts(const struct cmd_parse *p)
{
	const struct cmd_options *t = p->t;

	for (size_t r = 0; r < t->nr_conflicts; r++) {
		const struct cmd_conflict *cf = &t->conflicts[r];
		char abuf[64], bbuf[64], msg[512];
		const char *a = first_given(p, cf->a, abuf, sizeof(abuf));
		const char *b = first_given(p, cf->b, bbuf, sizeof(bbuf));
		size_t n = 0;

		if (!a || (cf->b[0] && !b) || cmd_given(p, cf->unless))
			continue;
		for (const char *m = cf->msg; *m && n + 1 < sizeof(msg); m++) {
			const char *sub = !strncmp(m, "{a}", 3) ? a : !strncmp(m, "{b}", 3) && b ? b : NULL;

			if (sub) {
				n += (size_t)snprintf(msg + n, sizeof(msg) - n, "%s", sub);
				n = n < sizeof(msg) ? n : sizeof(msg) - 1;
				m += 2;
			} else {
				msg[n++] = *m;
			}
		}
		msg[n] = '\0';
		return cmd_usage_error(t->cmd, "%s", msg);
	}
	return 0;
}

int cmd_parse_long(const char *arg, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(arg, &end, 10);
	return end == arg || *end || errno || *v < lo || *v > hi ? -1 : 0;
}
