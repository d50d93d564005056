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

/*
 * A JSON text read back (jsonparse.c): for the documents mperf wrote
 * itself (stat --baseline).  Numbers are doubles; strings are
 * NUL-terminated UTF-8 (a \u0000 ends them early); an object keeps its
 * members in order, each with its key.  At most JSON_MAX_DEPTH levels.
 */
#define JSON_MAX_DEPTH 64

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_value {
	enum json_type type;
	double num;		/* a number; 1 or 0 for a bool */
	char *str;		/* a string */
	char *key;		/* its name, as an object's member */
	struct json_value *kid;	/* an array's items, an object's members */
	size_t nr;
};

/*
 * Parse text[0..len) (one value, white space around it) into *out.  0, or
 * -1 with *where the offset of the first byte that is wrong (-ENOMEM's
 * case: *where is len + 1).
 */
int json_parse(const char *text, size_t len, struct json_value **out, size_t *where);
void json_free(struct json_value *v);
/* The member key of obj, NULL when obj is not an object or has none. */
const struct json_value *json_get(const struct json_value *obj, const char *key);

#endif
