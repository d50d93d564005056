// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbol names as perf shows them: demangled (C++, Rust, OCaml).
 */
#include <ctype.h>
#include <libiberty/demangle.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols-internal.h"

static int hexval(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : (tolower((unsigned char)c) - 'a' + 10);
}

/*
 * OCaml's native symbols: "caml" and a capitalised module path whose
 * dots are "__" and whose other characters may be "$xx" in hex
 * (camlStdlib__List__map_281 is Stdlib.List.map_281), as perf reads them.
 */
static char *ocaml_demangle(const char *s)
{
	size_t n = strlen(s), j = 0;
	char *out;

	if (strncmp(s, "caml", 4) || !isupper((unsigned char)s[4]) || !(out = malloc(n + 1)))
		return NULL;
	for (size_t i = 4; i < n;) {
		if (s[i] == '_' && s[i + 1] == '_') {
			out[j++] = '.';
			i += 2;
		} else if (s[i] == '$' && isxdigit((unsigned char)s[i + 1]) && isxdigit((unsigned char)s[i + 2])) {
			out[j++] = (char)(hexval(s[i + 1]) << 4 | hexval(s[i + 2]));
			i += 3;
		} else {
			out[j++] = s[i++];
		}
	}
	out[j] = 0;
	return out;
}

/*
 * A user-space symbol's name as perf shows it: demangled by the
 * toolchain's demangler (libiberty's, as perf 6.1 is built on Debian:
 * C++ and Rust, without parameters), else as OCaml's; NULL when the name
 * is not mangled.  Kernel symbols are not demangled (perf's default).
 */
char *demangle(const char *name)
{
	char *d = cplus_demangle(name, DMGL_NO_OPTS);

	return d ? d : ocaml_demangle(name);
}

char *demangle_params(const char *name)
{
	const char *at = strchr(name, '@');
	size_t n = at ? (size_t)(at - name) : strlen(name);
	char *base = strndup(name, n), *d, *out = NULL;

	if (!base)
		return NULL;
	d = cplus_demangle(base, DMGL_PARAMS | DMGL_ANSI);
	free(base);
	if (d && asprintf(&out, "%s%s", d, at ? at : "") < 0)
		out = NULL;
	free(d);
	return out;
}
