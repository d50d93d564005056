/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MPERF_LIB_JSON_H
#define MPERF_LIB_JSON_H

#include <stddef.h>
#include <stdio.h>

/*
 * A JSON string: s in double quotes, '"' and '\\' escaped with a
 * backslash, the control bytes below 0x20 as \u00XX, every other byte as
 * it is (UTF-8 passes through).  NULL is the empty string.  The text goes
 * to put(arg, bytes, n) in runs; json_fputs() writes it to a FILE.
 */
void json_quote(const char *s, void (*put)(void *arg, const char *p, size_t n), void *arg);
void json_fputs(FILE *f, const char *s);

/*
 * What every JSON document of mperf starts with, after its '{' (one style,
 * documented in mperf(1)): "schema": "mperf-SCHEMA/VERSION", "version":
 * VERSION, "mperf-version": the tool's, "command-line": [argv...], as
 * json_set_invocation was told them (main() tells it once).  The keys of
 * every document are in kebab-case, as perf stat -j's are.
 */
void json_set_invocation(const char *version, int argc, char *const *argv);
void json_head(const char *schema, int version, void (*put)(void *arg, const char *p, size_t n), void *arg);
void json_fhead(FILE *f, const char *schema, int version);

#endif
