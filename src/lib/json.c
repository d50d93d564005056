// SPDX-License-Identifier: GPL-2.0-only
/* JSON strings, the one escaping every JSON writer of mperf uses. */
#include <stdio.h>
#include "json.h"

void json_quote(const char *s, void (*put)(void *arg, const char *p, size_t n), void *arg)
{
	const char *run;

	put(arg, "\"", 1);
	for (run = s; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];
		int n;

		if (c != '"' && c != '\\' && c >= 0x20)
			continue;
		if (s > run)
			put(arg, run, (size_t)(s - run));
		if (c == '"' || c == '\\')
			n = snprintf(esc, sizeof(esc), "\\%c", c);
		else
			n = snprintf(esc, sizeof(esc), "\\u%04x", c);
		put(arg, esc, (size_t)n);
		run = s + 1;
	}
	if (s && s > run)
		put(arg, run, (size_t)(s - run));
	put(arg, "\"", 1);
}

static void put_file(void *arg, const char *p, size_t n)
{
	fwrite(p, 1, n, arg);
}

void json_fputs(FILE *f, const char *s)
{
	json_quote(s, put_file, f);
}

/* Set once by main() before any work starts; read-only afterwards. */
static const char *inv_version;
static int inv_argc;
static char *const *inv_argv;

void json_set_invocation(const char *version, int argc, char *const *argv)
{
	inv_version = version;
	inv_argc = argc;
	inv_argv = argv;
}

void json_head(const char *schema, int version, void (*put)(void *arg, const char *p, size_t n), void *arg)
{
	char buf[128];
	int n;

	put(arg, "\"schema\": ", 10);
	n = snprintf(buf, sizeof(buf), "mperf-%s/%d", schema, version);
	(void)n;
	json_quote(buf, put, arg);
	n = snprintf(buf, sizeof(buf), ", \"version\": %d, \"mperf-version\": ", version);
	put(arg, buf, (size_t)n);
	json_quote(inv_version ? inv_version : "", put, arg);
	put(arg, ", \"command-line\": [", 19);
	for (int i = 0; i < inv_argc; i++) {
		if (i)
			put(arg, ", ", 2);
		json_quote(inv_argv[i], put, arg);
	}
	put(arg, "]", 1);
}

void json_fhead(FILE *f, const char *schema, int version)
{
	json_head(schema, version, put_file, f);
}
