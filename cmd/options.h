/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_CMD_OPTIONS_H
#define MPERF_CMD_OPTIONS_H

/*
 * A command's options as data: one table gives getopt_long its arguments,
 * -h its option lines (and so the completion words, which
 * contrib/mperf-completion.bash reads from -h), the unknown-option,
 * missing-value and conflict errors.  A command declares the table, a
 * handler for each option's value, and the conflicts between classes of
 * options; cmd_options_parse does the rest.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>	/* optind: the first operand, once parsed */

enum cmd_opt_arg { CMD_ARG_NONE, CMD_ARG_REQUIRED, CMD_ARG_OPTIONAL };

struct cmd_opt {
	int id;			/* what the handler switches on: the short letter, or a letter of its own */
	char short_name;	/* -x, or 0 */
	const char *long_name;	/* --name, or NULL */
	enum cmd_opt_arg arg;
	/* in -h after the name: "FILE" (after a space), or "[=ARGS]" for an optional value */
	const char *argname;
	/* -h's text, its lines split by '\n'; NULL: not shown (an alias) */
	const char *help;
	/* how the conflict errors name it, when not "-x/--name", "--name" or "-x" */
	const char *msg_name;
	/*
	 * The class it belongs to (one bit of the command's own), for the
	 * conflicts: a mode (-D), a view, or a group (every option that shapes
	 * the histograms).  0: none.
	 */
	unsigned cls;
};

#define CMD_MAX_CLASSES 8

/*
 * Refused together: an option of a class of a[] and one of b[] (or, when b[]
 * is empty, any option of a[]), unless one of unless is given.  msg is the
 * one line; "{a}" and "{b}" in it are the options given: of the first class
 * of the list that has one, the first given on the command line.
 */
struct cmd_conflict {
	unsigned a[CMD_MAX_CLASSES];
	unsigned b[CMD_MAX_CLASSES];
	unsigned unless;
	const char *msg;
};

#define CMD_MAX_OPTS 64

struct cmd_options {
	const char *cmd;
	const char *usage;		/* the synopsis (and any prose), up to the option lines */
	const char *trailer;		/* after them, or NULL */
	int help_col;			/* the column each option's help starts at */
	bool stop_at_operand;		/* options end at the workload's name ('+') */
	const struct cmd_opt *opts;
	size_t nr_opts;
	const struct cmd_conflict *conflicts;	/* checked in order by cmd_options_conflicts */
	size_t nr_conflicts;
	/*
	 * Each option as it comes, with its value (NULL for none): 0, or the
	 * exit status to end with, its error said (CMD_EXIT_OK: 0, as
	 * --user-regs=? after its list).  NULL when -h is the only option.
	 */
	int (*set)(void *ctx, const struct cmd_opt *o, char *arg);
};

/* A handler's "done, exit 0" */
#define CMD_EXIT_OK 256
/* cmd_options_parse: go on, optind is at the first operand */
#define CMD_OPTS_OK (-1)

struct cmd_parse {
	const struct cmd_options *t;
	/* each option's place on the command line when it was first given (from 1), or 0 */
	unsigned short first[CMD_MAX_OPTS];
	unsigned short next;
	unsigned given;		/* the classes given */
};

/*
 * Parse argv's options through t->set: CMD_OPTS_OK, or the exit status
 * (0 after -h; EXIT_USAGE after an unknown option or a missing value,
 * said in one line and the hint).
 */
int cmd_options_parse(struct cmd_parse *p, const struct cmd_options *t, int argc, char **argv, void *ctx);
/* The first conflict of t->conflicts among the options given: said, EXIT_USAGE; else 0. */
int cmd_options_conflicts(const struct cmd_parse *p);
/* Whether an option of one of the classes cls was given. */
static inline bool cmd_given(const struct cmd_parse *p, unsigned cls)
{
	return (p->given & cls) != 0;
}
/* -h: the usage, each shown option's line, the trailer. */
void cmd_options_help(const struct cmd_options *t, FILE *f);
/* An option's whole decimal number, lo to hi, in *v: 0, or -1. */
int cmd_parse_long(const char *arg, long lo, long hi, long *v);

#endif
