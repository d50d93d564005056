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
