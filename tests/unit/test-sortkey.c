// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sort key table (src/report/sortkey.c): every entry is whole for the
 * views it is in, names are matched as perf matches them (a prefix, any
 * case; the branch view's own keys whole), a one-value filter elides its
 * key's column, and the cells print as perf's.
 */
#include <stdlib.h>
#include <string.h>
#include "../../src/report/out.h"
#include "../../src/report/sortkey.h"
#include "tap.h"

static char *cell(enum report_key k, const struct sort_row *e, int width, bool last)
{
	static char buf[4096];
	struct out o;
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (!f || out_init(&o, f))
		return NULL;
	sort_key(k)->print(&o, e, width, last, &(struct sort_print){ .mispredict_shown = "N/A" });
	out_finish(&o);
	fclose(f);
	return buf;
}

int main(void)
{
	char list[256];

	for (int k = 0; k < REPORT_NR_KEYS; k++) {
		const struct sort_key *s = sort_key(k);
		bool whole = s->name && s->header && s->views && s->cmp && s->width && s->print;

		if (s->views & SORT_HIST)	/* hist.c and diff.c call these too */
			whole &= s->collapse && s->sort && s->eq && s->hash && s->json;
		if (!s->views) {	/* a key hist.c appends (ipc_null): compared, never named */
			ok(s->name && s->cmp && s->collapse && s->sort && s->eq && s->hash, "key %d (%s) compares", k, s->name);
			ok(report_sort_key_find(s->name, strlen(s->name), REPORT_SORT_USUAL) < 0, "'%s' is not --sort's", s->name);
			continue;
		}
		ok(whole, "key %d (%s) has what its views call", k, s->name ? s->name : "?");
		ok(report_sort_key_find(s->name, strlen(s->name), (s->views & SORT_HIST) ? REPORT_SORT_USUAL :
					(s->views & SORT_MEM) ? REPORT_SORT_MEM : REPORT_SORT_BRANCH) == k,
		   "'%s' names itself", s->name);
	}

	is_int(report_sort_key_find("sym", 3, REPORT_SORT_USUAL), REPORT_KEY_SYM, "a prefix");
	is_int(report_sort_key_find("Symbol", 6, REPORT_SORT_USUAL), REPORT_KEY_SYM, "any case");
	is_int(report_sort_key_find("d", 1, REPORT_SORT_USUAL), REPORT_KEY_DSO, "the first key a prefix begins");
	is_int(report_sort_key_find("co,dso", 2, REPORT_SORT_USUAL), REPORT_KEY_COMM, "p[0..len) only");
	is_int(report_sort_key_find("", 0, REPORT_SORT_USUAL), -1, "nothing names nothing");
	is_int(report_sort_key_find("nope", 4, REPORT_SORT_USUAL), -1, "an unknown name");
	is_int(report_sort_key_find("dso_from", 8, REPORT_SORT_USUAL), -1, "a branch key outside the branch view");
	is_int(report_sort_key_find("dso_from", 8, REPORT_SORT_BRANCH), REPORT_KEY_DSO_FROM, "a branch key");
	is_int(report_sort_key_find("dso", 3, REPORT_SORT_BRANCH), -1, "dso is not the branch view's");
	is_int(report_sort_key_find("Co", 2, REPORT_SORT_BRANCH), REPORT_KEY_COMM, "comm, as the usual view");
	is_int(report_sort_key_find("cyc", 3, REPORT_SORT_BRANCH), -1, "branch keys by their whole names");
	is_int(report_sort_key_find("mem", 3, REPORT_SORT_USUAL), -1, "a memory key outside --mem-mode");
	is_int(report_sort_key_find("mem", 3, REPORT_SORT_MEM), REPORT_KEY_MEM, "a memory key");
	is_int(report_sort_key_find("s", 1, REPORT_SORT_MEM), REPORT_KEY_SYM, "the usual keys first, as perf");
	is_int(report_sort_key_find("ph", 2, REPORT_SORT_MEM), REPORT_KEY_PHYS_DADDR, "a memory key's prefix");
	is_int(report_sort_key_find("t", 1, REPORT_SORT_USUAL), REPORT_KEY_TRANSACTION, "perf's transaction before trace");

	report_sort_key_list(list, sizeof(list), REPORT_SORT_BRANCH, REPORT_SORT_USUAL);
	ok(!strncmp(list, "dso_from, dso_to, symbol_from", 29), "the branch view's own keys: %s", list);
	report_sort_key_list(list, sizeof(list), REPORT_SORT_USUAL, -1);
	ok(!strncmp(list, "comm, pid, dso, symbol", 22), "the usual view's keys: %s", list);

	struct report_hist_opts o = { .comm = "cp", .dso = "libc.so.6,[vdso]" };

	is_str(sort_key_single_value(REPORT_KEY_COMM, &o), "cp", "a filter of one value elides its key's column");
	ok(!sort_key_single_value(REPORT_KEY_DSO, &o), "one of several values does not");
	ok(!sort_key_single_value(REPORT_KEY_SYM, &o), "nor no filter");
	ok(!sort_key_single_value(REPORT_KEY_PID, &o), "nor a key without one");

	struct sort_row e = {
		.comm = "callpaths", .last_comm = "cp", .comm_width = 2, .tid = 42, .dso = "libc.so.6",
		.sym = "main", .sym_start = 0x1000, .level = '.',
	};

	is_str(cell(REPORT_KEY_COMM, &e, 12, false), "callpaths   ", "comm: padded to the width");
	is_str(cell(REPORT_KEY_PID, &e, 15, false), "     42:cp     ", "pid: the thread and its last comm");
	is_int((int)sort_key(REPORT_KEY_PID)->width(&e), 10, "pid: sized by the last comm");
	is_str(cell(REPORT_KEY_SYM, &e, 12, true), "[.] main", "the last column's symbol is not padded");
	e.sym_end = 0x1040;
	is_str(cell(REPORT_KEY_SYM_SIZE, &e, 11, false), "         64", "symbol_size: end less start, right-aligned");
	e.socket = -1;
	is_str(cell(REPORT_KEY_SOCKET, &e, 6, false), "  -001", "socket: perf's width less 3 digits, -001 unknown");
	e.socket = 1;
	is_str(cell(REPORT_KEY_SOCKET, &e, 6, false), "   001", "socket 1");
	e.sym = NULL;
	e.addr = 0x4a0;
	is_str(cell(REPORT_KEY_SYM, &e, 22, false), "[.] 0x00000000000004a0", "an unresolved symbol: its address");
	is_str(cell(REPORT_KEY_SYM_SIZE, &e, 11, false), "    unknown", "symbol_size of no symbol");
	e.dso = NULL;
	is_str(cell(REPORT_KEY_DSO, &e, 9, false), "[unknown]", "no dso");
	return done_testing();
}
