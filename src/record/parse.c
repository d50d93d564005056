// SPDX-License-Identifier: GPL-2.0-only
/*
 * record's -e: perf 6.1's event syntax, learnt from what perf 6.1 accepts,
 * refuses and records (perf evlist -v of its files):
 *
 *   list     := item { ',' item }
 *   item     := [NAME] '{' event { ',' event } '}' [':' MODS]  |  event
 *   event    := generic [':' MODS]          cycles, cpu-clock, L1-dcache-load-misses
 *             | 'r' HEX [':' MODS]          raw config for PERF_TYPE_RAW
 *             | PMU '/' [terms] '/' [MODS]  terms: config*, period, freq, name,
 *                                           call-graph, stack-size, max-stack,
 *                                           the PMU's format/ fields and events/ aliases
 *             | 'mem:' ADDR ['/' LEN] [':' rwx] [':' MODS]
 *             | SYS ':' NAME ['/' terms '/'] [[':'] MODS]
 *                                           a tracepoint; SYS and NAME may be globs;
 *                                           terms: call-graph, stack-size, max-stack
 *             | ALIAS [':' MODS]            an events/ alias of any PMU (msr's tsc)
 *
 * Numbers are decimal or 0x hex.  Blanks around events and terms are
 * allowed, and kept in the names (perf names " cs" so).  The code is ours;
 * perf's sources only told us what the syntax means.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include "../host/host.h"
#include "../lib/err.h"
#include "../lib/log.h"
#include "../perfdata/perfdata.h"
#include "record.h"

#define PMU_DIR "/sys/bus/event_source/devices"

static const char *const tracing_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/* Terms perf takes for what mperf record does not do (branch stacks, inherit, overwrite...): refused. */
static const char *const perf_only_terms[] = {
	"branch_type", "time", "no-inherit", "inherit", "nr", "no-overwrite", "overwrite",
	"driver-config", "percore", "aux-output", "aux-sample-size", "metric-id",
};

/* The call graph terms, the only ones a tracepoint takes. */
#define CG_TERMS "call-graph, stack-size, max-stack"

struct pctx {
	const char *spec;	/* the whole -e argument, for messages */
	struct record_event *ev;
	size_t max, n;
	const char *pmu_dir, *tracing_dir;
	bool *gh;		/* [max]: the event's own modifiers had G or H (perf's exclude_GH) */
};

/* ---- small scanners ---- */

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static bool name_char(int c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '.';
}

static bool glob_char(int c)
{
	return c == '*' || c == '?' || c == '[' || c == ']' || c == '!';
}

static bool has_glob(const char *s)
{
	for (; *s; s++)
		if (glob_char((unsigned char)*s))
			return true;
	return false;
}

/* A word of name and glob characters: its length. */
static size_t word_len(const char *p)
{
	size_t n = 0;

	while (name_char((unsigned char)p[n]) || glob_char((unsigned char)p[n]))
		n++;
	return n;
}

/* perf's numbers: decimal digits, or 0x and hex digits, within 64 bits.  Characters used, or 0. */
static size_t scan_number(const char *p, uint64_t *v)
{
	bool hex = p[0] == '0' && p[1] == 'x';
	const char *q = hex ? p + 2 : p;
	uint64_t x = 0;
	size_t n = 0;

	for (; hex ? isxdigit((unsigned char)q[n]) : isdigit((unsigned char)q[n]); n++) {
		unsigned int d = isdigit((unsigned char)q[n]) ? (unsigned int)(q[n] - '0')
							       : (unsigned int)(tolower((unsigned char)q[n]) - 'a' + 10);

		if (hex ? x >> 60 : x > (UINT64_MAX - d) / 10)
			return 0;
		x = hex ? x << 4 | d : x * 10 + d;
	}
	if (!n || name_char((unsigned char)q[n]))
		return 0;
	*v = x;
	return (size_t)(q - p) + n;
}

static bool is_raw(const char *w, size_t len)
{
	if (len < 2 || len > 17 || w[0] != 'r')
		return false;
	for (size_t i = 1; i < len; i++)
		if (!isxdigit((unsigned char)w[i]))
			return false;
	return true;
}

/* ---- messages: one line, naming the event and, when it is not all of it, the -e argument ---- */

static int fail(struct pctx *c, int code, const char *elem, size_t elen, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(struct pctx *c, int code, const char *elem, size_t elen, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (elem && (elen != strlen(c->spec) || strncmp(elem, c->spec, elen)))
		return mperf_error(code, "%s (in -e '%s')", what, c->spec);
	return mperf_error(code, "%s", what);
}

static int syntax(struct pctx *c, const char *at, const char *expected)
{
	if (!*at)
		return mperf_error(-EINVAL, "event syntax error in '%s': %s at the end", c->spec, expected);
	return mperf_error(-EINVAL, "event syntax error in '%s' at '%.32s': %s", c->spec, at, expected);
}

/* ---- the events array ---- */

static struct record_event *add_event(struct pctx *c, const char *elem, size_t elen, uint32_t type)
{
	struct record_event *e;

	if (c->n >= c->max) {
		fail(c, -E2BIG, elem, elen, "too many events: mperf records at most %zu", c->max);
		return NULL;
	}
	e = &c->ev[c->n];
	memset(e, 0, sizeof(*e));
	e->attr.size = sizeof(e->attr);
	e->attr.type = type;
	/* perf's default for record: guests excluded, until a modifier says otherwise. */
	e->attr.exclude_guest = 1;
	e->leader = (int)c->n;
	e->group_size = 1;
	c->gh[c->n] = false;
	c->n++;
	return e;
}

static int set_name(struct pctx *c, struct record_event *e, const char *name, size_t len)
{
	if (len >= sizeof(e->name))
		return fail(c, -EINVAL, name, len, "event name '%.*s...' is longer than %zu characters",
			    32, name, sizeof(e->name) - 1);
	memcpy(e->name, name, len);
	e->name[len] = 0;
	return 0;
}

/* ---- modifiers ---- */

static const char mod_chars[] = "ukhpPGHSDIWeb";

/* The modifier letters at p: their number (0 when none). */
static size_t mods_len(const char *p)
{
	size_t n = 0;

	while (p[n] && strchr(mod_chars, p[n]))
		n++;
	return n;
}

/* perf takes each letter once, p up to three times; a letter of no modifier is refused. */
static int check_mods(struct pctx *c, const char *m, size_t len, const char *elem, size_t elen)
{
	if (isalnum((unsigned char)m[len]) || m[len] == '_')
		return fail(c, -EINVAL, elem, elen,
			    "bad modifier '%.*s' in '%.*s': modifiers are u k h p P G H S D I W e b",
			    (int)(len + word_len(m + len)), m, (int)elen, elem);
	for (const char *l = mod_chars; *l; l++) {
		size_t k = 0;

		for (size_t i = 0; i < len; i++)
			k += m[i] == *l;
		if (k > (*l == 'p' ? 3u : 1u))
			return fail(c, -EINVAL, elem, elen,
				    "bad modifier '%.*s' in '%.*s': each of ukhGHIPSDeWb at most once, p at most 3 times",
				    (int)len, m, (int)elen, elem);
	}
	return 0;
}

/*
 * Apply modifiers to events [from, to).  An event's own modifiers start
 * from nothing excluded; a group's start from each member's state, so that
 * {a:k,b}:u counts a in user and kernel.  u/k/h: the first one excludes
 * all three contexts, each then counts its own.  G/H likewise for guest
 * and host.  u and p exclude the guest unless G or H was given; P asks
 * for the highest precise_ip; S leader sampling; D pinned; e exclusive;
 * I exclude_idle; W (weak group) and b (BPF counter) change no attr.
 */
static int apply_mods(struct pctx *c, size_t from, size_t to, const char *m, size_t len, bool group,
		      const char *elem, size_t elen)
{
	if (!len)
		return 0;
	for (size_t i = from; i < to; i++) {
		struct record_event *e = &c->ev[i];
		struct perf_event_attr *a = &e->attr;
		bool eu = 0, ek = 0, eh = 0, eG = 0, eH = 0, eI = 0, gh = 0, pmax = 0, S = 0, D = 0, x = 0;
		unsigned int precise = 0;
		bool excl;

		if (group) {
			eu = a->exclude_user, ek = a->exclude_kernel, eh = a->exclude_hv;
			eG = a->exclude_guest, eH = a->exclude_host, eI = a->exclude_idle;
			gh = c->gh[i], precise = a->precise_ip, pmax = e->precise_max;
			S = e->sample_read, D = a->pinned, x = a->exclusive;
		}
		excl = eu || ek || eh;
		for (size_t k = 0; k < len; k++) {
			switch (m[k]) {
			case 'u':
			case 'k':
			case 'h':
				if (!excl)
					excl = eu = ek = eh = 1;
				if (m[k] == 'u') {
					eu = 0;
					if (!gh)
						eG = 1;
				} else if (m[k] == 'k') {
					ek = 0;
				} else {
					eh = 0;
				}
				break;
			case 'G':
			case 'H':
				if (!gh)
					gh = eG = eH = 1;
				if (m[k] == 'G')
					eG = 0;
				else
					eH = 0;
				break;
			case 'p':
				precise++;
				if (!gh)
					eG = 1;
				break;
			case 'P': pmax = 1; break;
			case 'S': S = 1; break;
			case 'D': D = 1; break;
			case 'e': x = 1; break;
			case 'I': eI = 1; break;
			default: break;		/* W, b */
			}
		}
		if (precise > 3)
			return fail(c, -EINVAL, elem, elen,
				    "bad modifier ':%.*s' on '%s': precise_ip would be %u, the maximum is 3",
				    (int)len, m, e->name, precise);
		a->exclude_user = eu;
		a->exclude_kernel = ek;
		a->exclude_hv = eh;
		a->exclude_guest = eG;
		a->exclude_host = eH;
		a->exclude_idle = eI;
		a->precise_ip = pmax ? 3 : precise;
		a->pinned = D;
		a->exclusive = x;
		e->precise_max = pmax;
		e->sample_read = S;
		e->mod_set = true;
		c->gh[i] = gh;
	}
	return 0;
}

/* ---- PMUs: sysfs type, format/ and events/ ---- */

struct pmu_terms {
	const char *pmu;	/* or the tracepoint's SYS:NAME */
	bool tracepoint;	/* a tracepoint's terms: the call graph terms only */
	char dir[512];
	uint64_t set[3];	/* config, config1, config2 given whole by a term (last one wins) */
	uint64_t or[3];		/* bits placed by format terms, OR'd into them */
	bool name_given;
	char name[128];
};

static int read_pmu_type(struct pctx *c, const char *pmu, char *dir, size_t dirlen, uint32_t *type,
			 const char *elem, size_t elen)
{
	char path[600], buf[32];
	unsigned long v;
	char *end;
	int r;

	if ((size_t)snprintf(dir, dirlen, "%s/%s", c->pmu_dir, pmu) >= dirlen)
		return fail(c, -MPERF_ERR_NOEVENT, elem, elen, "cannot find PMU '%s': name too long", pmu);
	snprintf(path, sizeof(path), "%s/type", dir);
	r = host_read_small_file(path, buf, sizeof(buf));
	if (r == -ENOENT || r == -ENOTDIR)
		return fail(c, -MPERF_ERR_NOEVENT, elem, elen, "no such PMU '%s' on this machine (no %s)", pmu, dir);
	if (r < 0)
		return fail(c, r, elem, elen, "cannot read '%s': %s", path, strerror(-r));
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || v > UINT32_MAX)
		return fail(c, -EINVAL, elem, elen, "'%s' does not hold a number: '%s'", path, buf);
	*type = (uint32_t)v;
	return 0;
}

/*
 * A format file, "config:0-7", "config1:0-3,8-11" or "config:5": which
 * attr word (0-2) and which of its bits.  0, 1 when the PMU has no such
 * format, or a negative code (logged).
 */
static int read_format(struct pctx *c, struct pmu_terms *t, const char *term, int *word, uint64_t *mask,
		       const char *elem, size_t elen)
{
	char path[700], buf[256];
	const char *p;
	int r = -ENAMETOOLONG;

	if (strlen(term) < 128)
		r = snprintf(path, sizeof(path), "%s/format/%s", t->dir, term) < (int)sizeof(path)
			    ? host_read_small_file(path, buf, sizeof(buf)) : -ENAMETOOLONG;
	if (r == -ENOENT || r == -ENOTDIR || r == -ENAMETOOLONG)
		return 1;
	if (r < 0)
		return fail(c, r, elem, elen, "cannot read '%s': %s", path, strerror(-r));
	buf[strcspn(buf, "\n")] = 0;
	if (!strncmp(buf, "config1:", 8))
		*word = 1, p = buf + 8;
	else if (!strncmp(buf, "config2:", 8))
		*word = 2, p = buf + 8;
	else if (!strncmp(buf, "config:", 7))
		*word = 0, p = buf + 7;
	else
		goto bad;
	*mask = 0;
	for (;;) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p || lo > 63)
			goto bad;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1 || hi > 63 || hi < lo)
				goto bad;
			p = end;
		}
		for (unsigned long b = lo; b <= hi; b++)
			*mask |= 1ull << b;
		if (!*p)
			return 0;
		if (*p++ != ',')
			goto bad;
	}
bad:
	return fail(c, -EINVAL, elem, elen, "PMU '%s': cannot parse format '%s': '%s'", t->pmu, path, buf);
}

/* Place value's bits, low to high, into mask's bits, low to high. */
static bool scatter(uint64_t value, uint64_t mask, uint64_t *out)
{
	uint64_t v = 0;

	for (int b = 0; b < 64; b++) {
		if (!(mask >> b & 1))
			continue;
		if (value & 1)
			v |= 1ull << b;
		value >>= 1;
	}
	*out = v;
	return !value;
}

/* Whether the PMU in dir has the alias name: its terms into buf. */
static bool read_alias(const char *dir, const char *name, char *buf, size_t len)
{
	char path[700];

	if (strchr(name, '.') || strlen(name) >= 128 ||
	    (size_t)snprintf(path, sizeof(path), "%s/events/%s", dir, name) >= sizeof(path))
		return false;
	if (host_read_small_file(path, buf, len) < 0)
		return false;
	buf[strcspn(buf, "\n")] = 0;
	return true;
}

/* For the unknown-term message: the terms this PMU takes. */
static void list_terms(const struct pmu_terms *t, char *buf, size_t len)
{
	static const char *const sub[] = { "format", "events" };
	size_t n = (size_t)snprintf(buf, len, "config, config1, config2, name, period, freq, " CG_TERMS);

	for (int s = 0; s < 2; s++) {
		char path[600];
		DIR *d;
		struct dirent *de;

		snprintf(path, sizeof(path), "%s/%s", t->dir, sub[s]);
		if (!(d = opendir(path)))
			continue;
		while ((de = readdir(d)) && n < len) {
			if (de->d_name[0] == '.' || (s == 1 && strchr(de->d_name, '.')))
				continue;
			n += (size_t)snprintf(buf + n, len - n, ", %s", de->d_name);
		}
		closedir(d);
	}
	if (n >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

static int parse_terms(struct pctx *c, struct record_event *e, struct pmu_terms *t, const char **pp,
		       int depth, const char *elem, size_t elen);

/*
 * call-graph=MODE, p at MODE: fp, dwarf or no (perf's words; dwarf's
 * size is the stack-size= term, as a ',' ends the term).  lbr needs
 * Intel's last branch records: refused, as --call-graph lbr is.  The
 * characters used, or a negative code (logged).
 */
static int call_graph_term(struct pctx *c, struct record_event *e, const char *p, const char *elem, size_t elen)
{
	static const struct { const char *word; enum record_cg_mode mode; } modes[] = {
		{ "fp", RECORD_CG_FP }, { "dwarf", RECORD_CG_DWARF }, { "no", RECORD_CG_NO },
	};
	char path[600];
	int k = 0;

	while (name_char((unsigned char)p[k]))
		k++;
	if (!k)
		return syntax(c, p, "expected fp, dwarf or no after 'call-graph='");
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strlen(modes[i].word) == (size_t)k && !strncmp(p, modes[i].word, (size_t)k)) {
			e->cg_mode = modes[i].mode;
			if (!e->cg_term)
				e->cg_term = "call-graph";
			return k;
		}
	}
	if (k == 3 && !strncmp(p, "lbr", 3)) {
		snprintf(path, sizeof(path), "%s/cpu/caps/branches", c->pmu_dir);
		if (access(path, F_OK))
			return fail(c, -EOPNOTSUPP, elem, elen,
				    "call-graph=lbr in '%.*s' needs a PMU with last branch records, and this machine has none",
				    (int)elen, elem);
		return fail(c, -EOPNOTSUPP, elem, elen, "call-graph=lbr in '%.*s' is not supported yet (use fp or dwarf)",
			    (int)elen, elem);
	}
	return fail(c, -EINVAL, elem, elen, "unknown call-graph mode '%.*s' in '%.*s' (fp, dwarf or no)", k, p,
		    (int)elen, elem);
}

/* One term: name[=value]. */
static int apply_term(struct pctx *c, struct record_event *e, struct pmu_terms *t, const char *term,
		      bool has_value, uint64_t value, int depth, const char *elem, size_t elen)
{
	static const char *const words[] = { "config", "config1", "config2" };
	char alias[512], valid[400];
	uint64_t mask = 0, bits;
	int word = 0, err;

	/*
	 * stack-size= and max-stack= (bare, 1, as perf): the stack copy of a
	 * dwarf call graph and the deepest chain the kernel records.  perf
	 * takes 0 as "not given" and passes sizes the kernel refuses; mperf
	 * says what is wrong.
	 */
	if (!strcmp(term, "stack-size")) {
		uint64_t v = has_value ? value : 1;

		if (!v || v > RECORD_MAX_STACK_SIZE)
			return fail(c, -EINVAL, elem, elen, "incorrect stack dump size (max %d): stack-size=%llu in '%.*s'",
				    RECORD_MAX_STACK_SIZE, (unsigned long long)v, (int)elen, elem);
		e->cg_stack_size = (uint32_t)((v + 7) & ~7ULL);
		if (!e->cg_term)
			e->cg_term = "stack-size";
		return 0;
	}
	if (!strcmp(term, "max-stack")) {
		uint64_t v = has_value ? value : 1;

		if (!v || v > UINT16_MAX)
			return fail(c, -EINVAL, elem, elen, "incorrect max-stack=%llu in '%.*s': a depth of 1 to %u frames",
				    (unsigned long long)v, (int)elen, elem, UINT16_MAX);
		e->cg_max_stack = (uint16_t)v;
		if (!e->cg_term)
			e->cg_term = "max-stack";
		return 0;
	}
	if (t->tracepoint)
		return fail(c, -MPERF_ERR_NOEVENT, elem, elen, "unknown term '%s' for tracepoint '%s' (valid: " CG_TERMS ")",
			    term, t->pmu);
	for (int k = 0; k < 3; k++) {
		if (!strcmp(term, words[k])) {
			t->set[k] = has_value ? value : 1;
			return 0;
		}
	}
	if (!strcmp(term, "period")) {
		e->attr.sample_period = has_value ? value : 1;
		e->attr.freq = 0;
		e->period_set = true;
		e->freq_set = false;
		return 0;
	}
	if (!strcmp(term, "freq")) {
		e->attr.sample_freq = has_value ? value : 1;
		e->attr.freq = 1;
		e->freq_set = true;
		e->period_set = false;
		return 0;
	}
	if (!t->dir[0])		/* a generic event with terms (cpu-clock/period=1000/): no PMU files */
		return fail(c, -MPERF_ERR_NOEVENT, elem, elen,
			    "unknown term '%s' for '%s' (valid: config, config1, config2, period, freq, name, " CG_TERMS ")",
			    term, t->pmu);
	err = read_format(c, t, term, &word, &mask, elem, elen);
	if (err < 0)
		return err;
	if (!err) {
		if (!has_value)
			value = 1;
		if (!scatter(value, mask, &bits))
			return fail(c, -EINVAL, elem, elen,
				    "value %#llx too big for term '%s' of PMU '%s': the maximum is %llu",
				    (unsigned long long)value, term, t->pmu,
				    (unsigned long long)(__builtin_popcountll(mask) >= 64 ? UINT64_MAX
						: (1ull << __builtin_popcountll(mask)) - 1));
		t->or[word] |= bits;
		return 0;
	}
	/* An alias of the PMU's events/, given alone or =1 as perf takes it. */
	if (depth == 0 && (!has_value || value == 1) && read_alias(t->dir, term, alias, sizeof(alias))) {
		const char *p = alias;

		if (strchr(alias, '?'))
			return fail(c, -EOPNOTSUPP, elem, elen,
				    "alias '%s' of PMU '%s' needs parameters ('%s'): not supported by mperf record",
				    term, t->pmu, alias);
		err = parse_terms(c, e, t, &p, depth + 1, elem, elen);
		if (!err && *p)
			err = fail(c, -EINVAL, elem, elen, "PMU '%s': cannot parse alias '%s': '%s'", t->pmu,
				   term, alias);
		return err;
	}
	if (depth)
		return fail(c, -EINVAL, elem, elen, "PMU '%s': alias of '%.*s' has an unknown term '%s'",
			    t->pmu, (int)elen, elem, term);
	list_terms(t, valid, sizeof(valid));
	return fail(c, -MPERF_ERR_NOEVENT, elem, elen, "unknown term '%s' for PMU '%s' (valid: %s)", term,
		    t->pmu, valid);
}

/*
 * Terms up to the closing '/' (depth 0) or the end of an alias's text
 * (depth 1): name[=value], comma-separated, blanks allowed around them.
 */
static int parse_terms(struct pctx *c, struct record_event *e, struct pmu_terms *t, const char **pp,
		       int depth, const char *elem, size_t elen)
{
	const char *p = skip_blank(*pp);
	char end = depth ? 0 : '/';

	if (*p == end) {
		*pp = p;
		return 0;
	}
	for (;;) {
		char term[128];
		size_t n = 0;
		uint64_t value = 0;
		bool has_value = false;
		int err;

		if (isdigit((unsigned char)*p) && e->cg_mode == RECORD_CG_DWARF)
			return syntax(c, p, "expected a term (dwarf's stack size is a term of its own: stack-size=SIZE)");
		if (!isalpha((unsigned char)*p) && *p != '_')
			return syntax(c, p, "expected a term");
		while (name_char((unsigned char)p[n]))
			n++;
		if (n >= sizeof(term))
			return syntax(c, p, "term name too long");
		memcpy(term, p, n);
		term[n] = 0;
		for (size_t i = 0; i < sizeof(perf_only_terms) / sizeof(perf_only_terms[0]); i++)
			if (!strcmp(term, perf_only_terms[i]))
				return fail(c, -EOPNOTSUPP, elem, elen, "term '%s' of '%.*s' is not supported by mperf record",
					    term, (int)elen, elem);
		p = skip_blank(p + n);
		if (t->tracepoint && !strcmp(term, "name"))
			return fail(c, -MPERF_ERR_NOEVENT, elem, elen,
				    "unknown term 'name' for tracepoint '%s' (valid: " CG_TERMS ")", t->pmu);
		if (*p == '=') {
			p = skip_blank(p + 1);
			if (!strcmp(term, "call-graph")) {
				int k = call_graph_term(c, e, p, elem, elen);

				if (k < 0)
					return k;
				p += k;
				goto next;
			}
			if (!strcmp(term, "name")) {
				size_t k = 0;

				if (!isalpha((unsigned char)*p) && *p != '_')
					return syntax(c, p, "expected a name after 'name='");
				while (name_char((unsigned char)p[k]) || p[k] == ':')
					k++;
				if (k >= sizeof(t->name))
					return syntax(c, p, "name too long");
				if (!t->name_given) {	/* perf: the first name= wins */
					memcpy(t->name, p, k);
					t->name[k] = 0;
					t->name_given = true;
				}
				p += k;
				goto next;
			}
			if (!(n = scan_number(p, &value)))
				return syntax(c, p, "expected a number (decimal or 0x hex)");
			p += n;
			has_value = true;
		} else if (!strcmp(term, "name") || !strcmp(term, "call-graph")) {
			return syntax(c, p, !strcmp(term, "name") ? "expected '=' after 'name'"
								  : "expected '=' and fp, dwarf or no after 'call-graph'");
		}
		if ((err = apply_term(c, e, t, term, has_value, value, depth, elem, elen)))
			return err;
next:
		p = skip_blank(p);
		if (*p == ',') {
			p = skip_blank(p + 1);
			continue;
		}
		*pp = p;
		return *p == end ? 0 : syntax(c, p, depth ? "expected ',' in the alias" : "expected ',' or '/'");
	}
}

static void finish_terms(struct record_event *e, const struct pmu_terms *t)
{
	e->attr.config = t->set[0] | t->or[0];
	e->attr.config1 = t->set[1] | t->or[1];
	e->attr.config2 = t->set[2] | t->or[2];
}


/*
 * PMU/terms/MODS, p at the PMU's name (len characters); or, with generic,
 * a generic or raw event of this type and config with terms, as perf takes
 * them (cpu-clock/period=1000/, r003c/name=x/).
 */
static int parse_pmu_event(struct pctx *c, const char **pp, size_t len, const char *elem, size_t elen,
			   bool generic, uint32_t type, uint64_t config)
{
	const char *p = *pp, *m;
	struct pmu_terms t = { 0 };
	char pmu[128];
	struct record_event *e;
	size_t before = c->n, mlen;
	int err;

	if (len >= sizeof(pmu))
		return syntax(c, p, "PMU name too long");
	memcpy(pmu, p, len);
	pmu[len] = 0;
	if (has_glob(pmu))
		return syntax(c, p, "expected the name of a PMU");
	t.pmu = pmu;
	if (generic) {
		/* perf's legacy event with terms: the generic event, its config unless a term sets it. */
		t.set[0] = config;
	} else if ((err = read_pmu_type(c, pmu, t.dir, sizeof(t.dir), &type, elem, elen))) {
		return err;
	}
	if (!(e = add_event(c, elem, elen, type)))
		return -E2BIG;
	p += len + 1;
	if ((err = parse_terms(c, e, &t, &p, 0, elem, elen)))
		return err;
	finish_terms(e, &t);
	m = ++p;		/* past the closing '/': modifiers follow it directly */
	mlen = mods_len(m);
	if ((err = check_mods(c, m, mlen, elem, elen)) ||
	    (err = apply_mods(c, before, c->n, m, mlen, false, elem, elen)))
		return err;
	if (t.name_given && (err = set_name(c, e, t.name, strlen(t.name))))
		return err;
	*pp = m + mlen;
	return 0;
}

/* A bare alias of the PMUs' events/ (msr's tsc): one event per PMU that has it.  1 when none. */
static int add_alias_events(struct pctx *c, const char *name, const char *elem, size_t elen)
{
	DIR *d = opendir(c->pmu_dir);
	struct dirent *de;
	int err = 1;

	if (!d)
		return 1;
	while ((de = readdir(d))) {
		struct pmu_terms t = { .pmu = de->d_name };
		char alias[512];
		struct record_event *e;
		uint32_t type;

		if (de->d_name[0] == '.' ||
		    (size_t)snprintf(t.dir, sizeof(t.dir), "%s/%s", c->pmu_dir, de->d_name) >= sizeof(t.dir) ||
		    !read_alias(t.dir, name, alias, sizeof(alias)))
			continue;
		if ((err = read_pmu_type(c, de->d_name, t.dir, sizeof(t.dir), &type, elem, elen)))
			break;
		if (!(e = add_event(c, elem, elen, type))) {
			err = -E2BIG;
			break;
		}
		if ((err = apply_term(c, e, &t, name, false, 0, 0, elem, elen)))
			break;
		finish_terms(e, &t);
		if (t.name_given && (err = set_name(c, e, t.name, strlen(t.name))))
			break;
	}
	closedir(d);
	return err;
}

/* mem:ADDR[/LEN][:rwx], p past "mem:". */
static int parse_breakpoint(struct pctx *c, const char **pp, const char *elem, size_t elen)
{
	const char *p = *pp, *slash = NULL;
	struct record_event *e;
	uint64_t addr, len = 0;
	unsigned int type = 0;
	size_t n;

	if (!(n = scan_number(p, &addr)))
		return syntax(c, p, "expected an address after 'mem:'");
	p += n;
	if (*p == '/') {
		slash = p;
		if (!(n = scan_number(p + 1, &len)))
			return syntax(c, p + 1, "expected a length after '/'");
		p += 1 + n;
	}
	if (*p == ':' && p[1] && strchr("rwx", p[1])) {
		const char *q = p + 1;

		for (; *q && strchr("rwx", *q); q++) {
			unsigned int bit = *q == 'r' ? HW_BREAKPOINT_R : *q == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_X;

			if (type & bit)
				return syntax(c, q, "access type given twice");
			type |= bit;
		}
		if (name_char((unsigned char)*q))
			return syntax(c, p + 1, "expected an access type of r, w and x");
		p = q;
	}
	if (!(e = add_event(c, elem, elen, PERF_TYPE_BREAKPOINT)))
		return -E2BIG;
	if (!type)
		type = HW_BREAKPOINT_RW;
	e->attr.bp_type = type;
	e->attr.bp_addr = addr;
	/* perf's lengths: an instruction is a long, data 4 bytes. */
	e->attr.bp_len = len ? len : type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	e->attr.sample_period = 1;	/* the kind's default: -c/-F replace it */
	/* perf names it as written, but only up to a '/'. */
	if (slash) {
		int err = set_name(c, e, elem, (size_t)(slash - elem));

		if (err)
			return err;
	}
	*pp = p;
	return 0;
}

/* ---- tracepoints ---- */

/* tracefs' events directory: the first of the usual places that has one. */
static int events_dir(struct pctx *c, char *buf, size_t len, const char *elem, size_t elen)
{
	const char *one[1] = { c->tracing_dir };
	const char *const *dirs = c->tracing_dir ? one : tracing_dirs;
	size_t nr = c->tracing_dir ? 1 : sizeof(tracing_dirs) / sizeof(tracing_dirs[0]);
	int first_err = 0;

	for (size_t i = 0; i < nr; i++) {
		DIR *d;

		snprintf(buf, len, "%s/events", dirs[i]);
		if ((d = opendir(buf))) {
			closedir(d);
			return 0;
		}
		if (errno != ENOENT && errno != ENOTDIR && !first_err)
			first_err = -errno;
	}
	if (first_err) {
		snprintf(buf, len, "%s/events", dirs[0]);
		return fail(c, first_err, elem, elen, "cannot read tracepoints in '%s': %s", buf,
			    strerror(-first_err));
	}
	return fail(c, -ENOENT, elem, elen,
		    "tracepoint '%.*s': tracefs is not mounted (mount -t tracefs nodev %s)", (int)elen, elem,
		    dirs[0]);
}

static int add_tracepoint(struct pctx *c, const char *dir, const char *sys, const char *name,
			  const char *elem, size_t elen, bool must)
{
	char path[1024], buf[32], *end;
	struct record_event *e;
	unsigned long long id;
	size_t ls, ln;
	int r;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s/id", dir, sys, name) >= sizeof(path))
		return fail(c, -ENAMETOOLONG, elem, elen, "tracepoint '%s:%s': name too long", sys, name);
	r = host_read_small_file(path, buf, sizeof(buf));
	if (r < 0 && !must)
		return 0;	/* a glob's match without an id file: not a tracepoint */
	if (r == -ENOENT || r == -ENOTDIR)
		return fail(c, -MPERF_ERR_NOEVENT, elem, elen, "unknown tracepoint '%s:%s' (no %s)", sys, name,
			    path);
	if (r < 0)
		return fail(c, r, elem, elen, "cannot read '%s': %s", path, strerror(-r));
	errno = 0;
	id = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return fail(c, -EINVAL, elem, elen, "'%s' does not hold a number: '%s'", path, buf);
	if (!(e = add_event(c, elem, elen, PERF_TYPE_TRACEPOINT)))
		return -E2BIG;
	e->attr.config = id;
	e->attr.sample_period = 1;	/* the kind's default: -c/-F replace it */
	/* As perf's tracepoints: the record itself (RAW), and where and when it fired. */
	e->attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	ls = strlen(sys);
	ln = strlen(name);
	if (ls + 1 + ln >= sizeof(e->name))
		return fail(c, -EINVAL, elem, elen, "tracepoint name '%s:%s' too long", sys, name);
	memcpy(e->name, sys, ls);
	e->name[ls] = ':';
	memcpy(e->name + ls + 1, name, ln + 1);
	return 0;
}

/* Every directory of dir whose name matches pattern, in directory order (as perf). */
static int each_match(const char *dir, const char *pattern, int (*fn)(void *arg, const char *name), void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int err = 0;

	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) ||
		    fnmatch(pattern, de->d_name, 0))
			continue;
		err = fn(arg, de->d_name);
	}
	closedir(d);
	return err;
}

struct tp_walk {
	struct pctx *c;
	const char *dir, *sys, *name, *elem;
	size_t elen;
};

static int tp_event(void *arg, const char *name)
{
	struct tp_walk *w = arg;

	return add_tracepoint(w->c, w->dir, w->sys, name, w->elem, w->elen, false);
}

static int tp_sys(void *arg, const char *sys)
{
	struct tp_walk *w = arg;
	struct tp_walk ew = *w;
	char path[1024];

	ew.sys = sys;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", w->dir, sys) >= sizeof(path))
		return 0;
	if (!has_glob(w->name))
		return add_tracepoint(w->c, w->dir, sys, w->name, w->elem, w->elen, false);
	return each_match(path, w->name, tp_event, &ew);
}

/* SYS:NAME, either a glob: every match, in tracefs' order as perf. */
static int add_tracepoints(struct pctx *c, const char *sys, const char *name, const char *elem, size_t elen)
{
	char dir[512];
	struct tp_walk w = { c, dir, sys, name, elem, elen };
	size_t before = c->n;
	int err;

	if ((err = events_dir(c, dir, sizeof(dir), elem, elen)))
		return err;
	if (!has_glob(sys) && !has_glob(name))
		return add_tracepoint(c, dir, sys, name, elem, elen, true);
	if (has_glob(sys))
		err = each_match(dir, sys, tp_sys, &w);
	else
		err = tp_sys(&w, sys);
	if (!err && c->n == before)
		return fail(c, -MPERF_ERR_NOEVENT, elem, elen, "no tracepoint matches '%s:%s' (in %s)", sys, name,
			    dir);
	return err;
}

/*
 * SYS:NAME/terms/[MODS], p at the '/': the call graph terms, which every
 * tracepoint the name matches takes; modifiers may follow the '/' at
 * once, as perf takes them (sched:sched_switch/call-graph=fp/u), or
 * after a ':'.  p moves past the modifiers given without one.
 */
static int tracepoint_terms(struct pctx *c, const char **pp, const char *sys, const char *name, const char *elem,
			    size_t elen)
{
	char tp[300];
	struct pmu_terms t = { .pmu = tp, .tracepoint = true };
	struct record_event terms = { .name = "" };
	const char *p = *pp + 1, *m;
	size_t before = c->n, mlen;
	int err;

	snprintf(tp, sizeof(tp), "%s:%s", sys, name);
	if ((err = parse_terms(c, &terms, &t, &p, 0, elem, elen)) ||
	    (err = add_tracepoints(c, sys, name, elem, elen)))
		return err;
	for (size_t i = before; i < c->n; i++) {
		c->ev[i].cg_mode = terms.cg_mode;
		c->ev[i].cg_stack_size = terms.cg_stack_size;
		c->ev[i].cg_max_stack = terms.cg_max_stack;
		c->ev[i].cg_term = terms.cg_term;
	}
	m = ++p;		/* past the closing '/' */
	mlen = mods_len(m);
	if ((err = check_mods(c, m, mlen, elem, elen)) ||
	    (err = apply_mods(c, before, c->n, m, mlen, false, elem, elen)))
		return err;
	*pp = m + mlen;
	return 0;
}

/* ---- events, groups, the list ---- */

/* The element at p: up to ',' or '}' outside a PMU's /terms/, blanks at its end left out. */
static size_t element_len(const char *p)
{
	bool terms = false;
	size_t n = 0;

	for (; p[n] && (terms || (p[n] != ',' && p[n] != '}' && p[n] != '{')); n++)
		if (p[n] == '/')
			terms = !terms;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	return n;
}

/* ':' MODS after an event, if any: p moves past them. */
static int event_mods(struct pctx *c, const char **pp, size_t before, const char *elem, size_t elen)
{
	const char *p = skip_blank(*pp), *m;
	size_t mlen;
	int err;

	if (*p != ':')
		return 0;
	m = skip_blank(p + 1);
	mlen = mods_len(m);
	if ((err = check_mods(c, m, mlen, elem, elen)) ||
	    (err = apply_mods(c, before, c->n, m, mlen, false, elem, elen)))
		return err;
	*pp = m + mlen;
	return 0;
}

/* One event (a glob or an alias may give several); p moves to the separator after it. */
const char *const record_tool_names[RECORD_NR_TOOLS] = { "duration_time", "user_time", "system_time" };

/* The tool event named word, or -1. */
static int tool_of(const char *word)
{
	for (int k = 0; k < RECORD_NR_TOOLS; k++)
		if (!strcmp(word, record_tool_names[k]))
			return k;
	return -1;
}

static int parse_event(struct pctx *c, const char **pp)
{
	const char *start = *pp, *p = skip_blank(*pp), *w = p;
	size_t before = c->n, wlen = word_len(p), elen = element_len(p);
	char word[128];
	uint32_t type;
	uint64_t config;
	int err;

	if (!wlen)
		return syntax(c, p, *p == '{' ? "groups cannot be nested" : "expected an event");
	if (wlen >= sizeof(word))
		return fail(c, -EINVAL, w, elen, "event name '%.32s...' too long", w);
	memcpy(word, w, wlen);
	word[wlen] = 0;
	p += wlen;
	if (*p == '/') {
		char dir[600];
		struct stat st;
		/* A PMU of that name wins; else a generic or raw event with terms, as in perf. */
		bool generic = ((size_t)snprintf(dir, sizeof(dir), "%s/%s", c->pmu_dir, word) >= sizeof(dir) ||
				stat(dir, &st) < 0) &&
			       (!pd_event_lookup(word, &type, &config) || is_raw(word, wlen));

		if (generic && is_raw(word, wlen) && pd_event_lookup(word, &type, &config)) {
			type = PERF_TYPE_RAW;
			config = strtoull(word + 1, NULL, 16);
		}
		p = w;
		if ((err = parse_pmu_event(c, &p, wlen, w, elen, generic, generic ? type : 0, generic ? config : 0)))
			return err;
	} else if (!strcmp(word, "mem") && *p == ':') {
		p++;
		if ((err = parse_breakpoint(c, &p, w, elen)) || (err = event_mods(c, &p, before, w, elen)))
			return err;
	} else if (tool_of(word) >= 0) {
		struct record_event *e = add_event(c, w, elen, RECORD_TYPE_TOOL);

		if (!e)
			return -E2BIG;
		e->attr.config = (uint64_t)tool_of(word);
		if ((err = event_mods(c, &p, before, w, elen)))
			return err;
	} else if (!(err = pd_event_lookup(word, &type, &config)) || is_raw(word, wlen)) {
		struct record_event *e;

		if (err) {
			type = PERF_TYPE_RAW;
			config = strtoull(word + 1, NULL, 16);
		}
		if (!(e = add_event(c, w, elen, type)))
			return -E2BIG;
		e->attr.config = config;
		if ((err = event_mods(c, &p, before, w, elen)))
			return err;
	} else if (err == -EOPNOTSUPP) {
		return fail(c, -MPERF_ERR_NOEVENT, w, elen, "unknown event '%s': that cache has no such operation",
			    word);
	} else if ((err = add_alias_events(c, word, w, elen)) <= 0) {
		/* An alias of a PMU's events/ (msr's tsc). */
		if (err || (err = event_mods(c, &p, before, w, elen)))
			return err;
	} else if (*skip_blank(p) == ':' && word_len(skip_blank(skip_blank(p) + 1))) {
		/* SYS:NAME[:MODS] */
		const char *name = skip_blank(skip_blank(p) + 1);
		size_t nlen = word_len(name);
		char ev[128];

		if (nlen >= sizeof(ev))
			return fail(c, -EINVAL, w, elen, "tracepoint name '%.32s...' too long", name);
		memcpy(ev, name, nlen);
		ev[nlen] = 0;
		p = name + nlen;
		if (*p == '/')
			err = tracepoint_terms(c, &p, word, ev, w, elen);
		else
			err = add_tracepoints(c, word, ev, w, elen);
		if (err || (err = event_mods(c, &p, before, w, elen)))
			return err;
	} else {
		return fail(c, -MPERF_ERR_NOEVENT, w, elen, "unknown event '%s'", word);
	}
	p = skip_blank(p);
	if (*p && *p != ',' && *p != '}')
		return syntax(c, p, "expected ',' or the end of the event");
	for (size_t i = before; i < c->n; i++) {
		struct record_event *e = &c->ev[i];

		/* perf's name: the event as written, blanks included, unless it has one already. */
		if (!e->name[0] && (err = set_name(c, e, start, (size_t)(p - start))))
			return err;
		/* perf's bpf-output, however written, samples every event unless -c/-F say otherwise. */
		if (e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_BPF_OUTPUT &&
		    !e->period_set && !e->freq_set)
			e->attr.sample_period = 1;
	}
	*pp = p;
	return 0;
}

/* [NAME] '{' events '}' [':' MODS], p at NAME or '{'. */
static int parse_group(struct pctx *c, const char **pp)
{
	const char *p = strchr(*pp, '{') + 1, *open = p - 1, *m;
	size_t first = c->n, mlen;
	int err;

	for (;;) {
		if (*skip_blank(p) == '}' && c->n == first)
			return syntax(c, skip_blank(p), "empty group");
		if ((err = parse_event(c, &p)))
			return err;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '}')
			break;
		return syntax(c, open, "group without its '}'");
	}
	/* A name before the brace names the group (GROUP_DESC), as perf keeps it. */
	if (open > *pp && c->n > first)
		snprintf(c->ev[first].group_name, sizeof(c->ev[first].group_name), "%.*s",
			 (int)(open - *pp), *pp);
	p = skip_blank(p + 1);
	if (*p == ':') {
		m = skip_blank(p + 1);
		mlen = mods_len(m);
		if ((err = check_mods(c, m, mlen, open, (size_t)(m + mlen - open))) ||
		    (err = apply_mods(c, first, c->n, m, mlen, true, open, (size_t)(m + mlen - open))))
			return err;
		p = skip_blank(m + mlen);
	}
	for (size_t i = first; i < c->n; i++)
		c->ev[i].leader = (int)first;
	c->ev[first].group_size = (int)(c->n - first);
	*pp = p;
	return 0;
}

static int parse_list(struct pctx *c)
{
	const char *p = c->spec;

	for (;;) {
		const char *q = skip_blank(p);
		int err;

		q = skip_blank(q + word_len(q));
		if (*q == '{')
			err = parse_group(c, &p);
		else
			err = parse_event(c, &p);
		if (err)
			return err;
		if (!*p)
			return 0;
		if (*p != ',')
			return syntax(c, p, *p == '}' ? "'}' without its '{'" : "expected ','");
		p++;
	}
}

int record__parse_events_env(const char *spec, struct record_event *ev, size_t max, size_t *n,
			     const struct record_parse_env *env)
{
	struct pctx c = {
		.spec = spec, .ev = ev, .max = max, .n = *n,
		.pmu_dir = env && env->pmu_dir ? env->pmu_dir : PMU_DIR,
		.tracing_dir = env ? env->tracing_dir : NULL,
	};
	int err;

	if (*n > max)
		return mperf_error(-E2BIG, "too many events: mperf records at most %zu", max);
	c.gh = calloc(max ? max : 1, sizeof(*c.gh));
	if (!c.gh)
		return mperf_error(-ENOMEM, "out of memory");
	err = parse_list(&c);
	free(c.gh);
	if (err)
		return err;
	*n = c.n;
	return 0;
}

int record__add_filter(struct record_event *ev, size_t first, size_t n, const char *filter)
{
	if (first >= n)
		return mperf_error(-EINVAL, "--filter '%s' must follow a -e tracepoint option", filter);
	for (size_t i = first; i < n; i++) {
		if (ev[i].attr.type != PERF_TYPE_TRACEPOINT)
			return mperf_error(-EINVAL, "--filter '%s': '%s' is not a tracepoint (only tracepoints take a filter)",
					   filter, ev[i].name);
		if (ev[i].nr_filters == RECORD_MAX_FILTERS)
			return mperf_error(-EINVAL, "--filter '%s': more than %d filters on '%s'", filter,
					   RECORD_MAX_FILTERS, ev[i].name);
	}
	for (size_t i = first; i < n; i++)
		ev[i].filters[ev[i].nr_filters++] = filter;
	return 0;
}

int record__parse_events(const char *spec, struct record_event *ev, size_t max, size_t *n)
{
	return record__parse_events_env(spec, ev, max, n, NULL);
}

int record__default_event(struct record_event *ev, size_t max, size_t *n, bool amd)
{
	size_t first = *n;
	int err = record__parse_events("cycles:P", ev, max, n);

	if (err < 0)
		return err;
	for (size_t i = first; i < *n; i++)
		ev[i].attr.exclude_guest = !amd;
	return 0;
}
