// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading JSON back (json.h): a recursive descent over RFC 8259's grammar
 * into a tree of struct json_value, bounded in depth, every failure the
 * offset of the byte that broke it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "json.h"

struct reader {
	const char *s;
	size_t len, pos;
	int nomem;
};

static void skip_ws(struct reader *r)
{
	while (r->pos < r->len && strchr(" \t\r\n", r->s[r->pos]) && r->s[r->pos])
		r->pos++;
}

static int lit(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if (r->len - r->pos < n || memcmp(r->s + r->pos, word, n))
		return -1;
	r->pos += n;
	return 0;
}

static int hex4(struct reader *r, unsigned *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++, r->pos++) {
		char c = r->pos < r->len ? r->s[r->pos] : 0;
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;

		if (d > 15)
			return -1;
		*cp = *cp * 16 + d;
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80)
		return o[0] = (char)cp, 1;
	if (cp < 0x800)
		return o[0] = (char)(0xc0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3f)), 2;
	if (cp < 0x10000)
		return o[0] = (char)(0xe0 | cp >> 12), o[1] = (char)(0x80 | (cp >> 6 & 0x3f)),
		       o[2] = (char)(0x80 | (cp & 0x3f)), 3;
	return o[0] = (char)(0xf0 | cp >> 18), o[1] = (char)(0x80 | (cp >> 12 & 0x3f)),
	       o[2] = (char)(0x80 | (cp >> 6 & 0x3f)), o[3] = (char)(0x80 | (cp & 0x3f)), 4;
}

/* One escape after the backslash, into o; its length, or 0 when wrong. */
static size_t unescape(struct reader *r, char *o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e = r->pos < r->len && r->s[r->pos] ? strchr(from, r->s[r->pos]) : NULL;
	unsigned cp, lo;

	if (e) {
		r->pos++;
		*o = to[e - from];
		return 1;
	}
	if (r->pos >= r->len || r->s[r->pos] != 'u')
		return 0;
	r->pos++;
	if (hex4(r, &cp))
		return 0;
	if (cp >= 0xd800 && cp < 0xdc00) {
		if (lit(r, "\\u") || hex4(r, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return 0;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xdc00 && cp < 0xe000) {
		return 0;
	}
	return put_utf8(o, cp);
}

static char *parse_string(struct reader *r)
{
	size_t start = ++r->pos, n = 0;
	char *out;

	/* The decoded text is never longer than the quoted one. */
	while (r->pos < r->len && r->s[r->pos] != '"')
		r->pos += r->s[r->pos] == '\\' ? 2 : 1;
	if (r->pos >= r->len)
		return NULL;
	out = malloc(r->pos - start + 1);
	if (!out) {
		r->nomem = 1;
		return NULL;
	}
	for (r->pos = start; r->s[r->pos] != '"';) {
		unsigned char c = (unsigned char)r->s[r->pos];
		size_t k;

		if (c < 0x20)
			goto bad;
		if (c != '\\') {
			out[n++] = (char)c;
			r->pos++;
			continue;
		}
		r->pos++;
		if (!(k = unescape(r, out + n)))
			goto bad;
		n += k;
	}
	r->pos++;
	out[n] = 0;
	return out;
bad:
	free(out);
	return NULL;
}

static int parse_number(struct reader *r, double *v)
{
	size_t p = r->pos;
	char buf[64], *end;

	if (p < r->len && r->s[p] == '-')
		p++;
	if (p >= r->len || !strchr("0123456789", r->s[p]) || !r->s[p])
		return -1;
	while (p < r->len && r->s[p] && strchr("0123456789.eE+-", r->s[p]))
		p++;
	if (p - r->pos >= sizeof(buf))
		return -1;
	memcpy(buf, r->s + r->pos, p - r->pos);
	buf[p - r->pos] = 0;
	*v = strtod(buf, &end);
	if (*end || !isfinite(*v))
		return -1;
	r->pos = p;
	return 0;
}

static int parse_value(struct reader *r, struct json_value *v, int depth);

/* An array's items or an object's members, after the bracket. */
static int parse_items(struct reader *r, struct json_value *v, int depth, char close)
{
	size_t alloc = 0;

	skip_ws(r);
	if (r->pos < r->len && r->s[r->pos] == close)
		return r->pos++, 0;
	for (;;) {
		struct json_value *kid;
		char *key = NULL;

		skip_ws(r);
		if (close == '}') {
			if (r->pos >= r->len || r->s[r->pos] != '"' || !(key = parse_string(r)))
				return -1;
			skip_ws(r);
			if (lit(r, ":")) {
				free(key);
				return -1;
			}
		}
		if (ALLOC_GROW(v->kid, v->nr + 1, alloc)) {
			free(key);
			r->nomem = 1;
			return -1;
		}
		kid = &v->kid[v->nr++];
		memset(kid, 0, sizeof(*kid));
		kid->key = key;
		if (parse_value(r, kid, depth + 1))
			return -1;
		skip_ws(r);
		if (r->pos < r->len && r->s[r->pos] == close)
			return r->pos++, 0;
		if (lit(r, ","))
			return -1;
	}
}

static int parse_value(struct reader *r, struct json_value *v, int depth)
{
	char c;

	skip_ws(r);
	if (depth > JSON_MAX_DEPTH || r->pos >= r->len)
		return -1;
	c = r->s[r->pos];
	if (c == '{' || c == '[') {
		v->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
		r->pos++;
		return parse_items(r, v, depth, c == '{' ? '}' : ']');
	}
	if (c == '"') {
		v->type = JSON_STRING;
		return (v->str = parse_string(r)) ? 0 : -1;
	}
	if (!lit(r, "null"))
		return v->type = JSON_NULL, 0;
	if (!lit(r, "true"))
		return v->type = JSON_BOOL, v->num = 1, 0;
	if (!lit(r, "false"))
		return v->type = JSON_BOOL, v->num = 0, 0;
	v->type = JSON_NUMBER;
	return parse_number(r, &v->num);
}

static void free_kids(struct json_value *v)
{
	for (size_t i = 0; i < v->nr; i++)
		free_kids(&v->kid[i]);
	free(v->kid);
	free(v->str);
	free(v->key);
}

void json_free(struct json_value *v)
{
	if (!v)
		return;
	free_kids(v);
	free(v);
}

int json_parse(const char *text, size_t len, struct json_value **out, size_t *where)
{
	struct reader r = { .s = text, .len = len };
	struct json_value *v = calloc(1, sizeof(*v));

	*out = NULL;
	if (!v) {
		*where = len + 1;
		return -1;
	}
	if (parse_value(&r, v, 0) || (skip_ws(&r), r.pos != len)) {
		*where = r.nomem ? len + 1 : r.pos;
		json_free(v);
		return -1;
	}
	*out = v;
	return 0;
}

const struct json_value *json_get(const struct json_value *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->nr; i++)
		if (!strcmp(obj->kid[i].key, key))
			return &obj->kid[i];
	return NULL;
}
