// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report browser: perf report's TUI keys on ncurses.  A file of several
 * events opens on a menu of them (samples and lost samples each); Enter
 * opens an event's histogram, whose rows are the lines --stdio prints
 * (report__hist_doc), each entry's call chain under it when expanded.
 * Zooms (d, t) and the symbol filter (/) hide rows; nothing is read again
 * but for `a`, the entry's symbol as annotate --stdio prints it.
 */
#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../src/lib/alloc.h"
#include "../../src/lib/log.h"
#include "../../src/annotate/annotate.h"
#include "../../src/perfdata/perfdata.h"
#include "../../src/report/report.h"
#include "ui.h"

#define KEY_ESC 27
#define KEY_TAB 9
#define CTRL(c) ((c) & 0x1f)

enum { PAIR_TITLE = 1, PAIR_HOT, PAIR_WARM, PAIR_HELP };

/* What a browser returns to the one that opened it. */
enum ui_ret { UI_BACK, UI_QUIT, UI_NEXT, UI_PREV };

/* A line on screen: an entry's, or one of its chain's. */
struct ui_line {
	size_t row;		/* in the doc */
	size_t off, len;	/* in the doc's text */
	bool chain;
};

/* A scrollable list of lines: the histogram, the header, the help. */
struct ui_list {
	struct ui_line *v;
	size_t n, cap;
	size_t top, cur;
};

struct ui_hist {
	const struct ui_report *r;
	const struct report_hist_section *sec;
	struct ui_list l;
	bool *expanded;			/* per row of the section */
	char filter[128];		/* `/`: symbols containing it */
	const char *dso;		/* `d`: this DSO's entries alone */
	bool dso_zoom, thread_zoom;
	int tid;			/* `t`: this thread's */
	const char *comm;
	char msg[256];			/* the help line's message, once */
	char said[256];			/* the last one shown: top's refreshes keep it until a key */
	char dso_keep[4096], comm_keep[256];	/* top: the zooms' names, kept across refreshes */
};

static bool colors;

/* mperf top: where the documents come from, the report as shown, and the histogram on screen. */
static const struct ui_live *live;
static struct ui_report live_r;
static struct ui_hist *live_hist;

/* ui_getch's: a refresh came (redraw); the end of top's sampling reads as Ctrl-C, which leaves every view. */
#define UI_KEY_REFRESH (KEY_MAX + 1)
#define UI_KEY_GONE CTRL('c')

static void live_swap(const struct report_hist_doc *d);

/*
 * The next key.  With top's documents, while it waits (getch's timeout):
 * a newer document taken (UI_KEY_REFRESH), or the sampling's end.
 */
static int ui_getch(void)
{
	for (;;) {
		const struct report_hist_doc *d;
		int k = getch();

		if (!live || k != ERR)
			return k;
		if (live->done(live->ctx))
			return UI_KEY_GONE;
		if ((d = live->take(live->ctx)) && !d->nr_sec) {
			live->drop(live->ctx, d);	/* no samples: the screen stays */
		} else if (d) {
			live_swap(d);
			return UI_KEY_REFRESH;
		}
	}
}

static void restore_and_die(int sig)
{
	endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

bool ui_usable(void)
{
	const char *term = getenv("TERM");

	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && *term && strcmp(term, "dumb");
}

static int list_add(struct ui_list *l, size_t row, size_t off, size_t len, bool chain)
{
	if (ALLOC_GROW(l->v, l->n + 1, l->cap))
		return -ENOMEM;
	l->v[l->n++] = (struct ui_line){ .row = row, .off = off, .len = len, .chain = chain };
	return 0;
}

/* Each line of text[off, off + len) into l. */
static int list_add_text(struct ui_list *l, size_t row, const char *text, size_t off, size_t len, bool chain)
{
	size_t end = off + len;

	while (off < end) {
		const char *nl = memchr(text + off, '\n', end - off);
		size_t n = nl ? (size_t)(nl - (text + off)) : end - off;

		if (list_add(l, row, off, n, chain))
			return -ENOMEM;
		off += n + 1;
	}
	return 0;
}

static int page_rows(void)
{
	return LINES > 3 ? LINES - 3 : 1;
}

/* The cursor moved by a key of the lists: Up, Down, PgUp, PgDn, Home, End; false for another key. */
static bool list_move(struct ui_list *l, int key)
{
	size_t page = (size_t)page_rows();

	switch (key) {
	case KEY_UP:
		l->cur -= l->cur > 0;
		break;
	case KEY_DOWN:
		l->cur += l->cur + 1 < l->n;
		break;
	case KEY_PPAGE:
		l->cur = l->cur > page ? l->cur - page : 0;
		l->top = l->top > page ? l->top - page : 0;
		break;
	case KEY_NPAGE:
	case ' ':
		l->cur = l->cur + page < l->n ? l->cur + page : l->n ? l->n - 1 : 0;
		if (l->top + 2 * page <= l->n)
			l->top += page;
		break;
	case KEY_HOME:
		l->cur = 0;
		break;
	case KEY_END:
		l->cur = l->n ? l->n - 1 : 0;
		break;
	default:
		return false;
	}
	return true;
}

/* The window's top so that the cursor shows. */
static void list_scroll(struct ui_list *l)
{
	size_t page = (size_t)page_rows();

	if (l->cur < l->top)
		l->top = l->cur;
	if (l->cur >= l->top + page)
		l->top = l->cur - page + 1;
}

/* A line of width COLS at y: s (n bytes, cut at the edge), the rest blank, in attr. */
static void draw_text(int y, const char *s, size_t n, attr_t attr)
{
	attrset(attr);
	mvaddnstr(y, 0, s, (int)(n < (size_t)COLS ? n : (size_t)COLS));
	clrtoeol();
	if (attr & A_REVERSE) {
		for (int x = getcurx(stdscr); x < COLS; x++)
			addch(' ');
	}
	attrset(A_NORMAL);
}

/* An entry's line: its percentages coloured as perf colours them (red from 5%, green from 0.5%). */
static void draw_entry(int y, const char *s, size_t n, bool cur)
{
	size_t i = 0;

	draw_text(y, s, n, cur ? A_REVERSE : A_NORMAL);
	if (!colors || cur)
		return;
	while (i < n && (int)i < COLS) {
		size_t b = i, e;
		double v;

		while (b < n && s[b] == ' ')
			b++;
		for (e = b; e < n && s[e] != ' '; e++)
			;
		if (e == b || s[e - 1] != '%')
			break;
		v = strtod(s + b, NULL);
		if (v >= 0.5 && (int)b < COLS) {
			attron(COLOR_PAIR(v >= 5.0 ? PAIR_HOT : PAIR_WARM));
			mvaddnstr(y, (int)b, s + b, (int)(e - b < (size_t)(COLS - (int)b) ? e - b : (size_t)(COLS - (int)b)));
			attrset(A_NORMAL);
		}
		i = e;
	}
}

static void draw_bars(const char *title, const char *help)
{
	attr_t bar = colors ? COLOR_PAIR(PAIR_TITLE) | A_BOLD : A_REVERSE;

	draw_text(0, title, strlen(title), bar | A_REVERSE);
	draw_text(LINES - 1, help, strlen(help), colors ? COLOR_PAIR(PAIR_HELP) : A_NORMAL);
}

/* A line typed on the help line after prompt, edited in buf; false when Esc cancels it. */
static bool prompt_line(const char *prompt, char *buf, size_t len)
{
	size_t n = strlen(buf);

	for (;;) {
		int k;

		draw_text(LINES - 1, "", 0, A_NORMAL);
		mvprintw(LINES - 1, 0, "%s%s", prompt, buf);
		curs_set(1);
		k = ui_getch();
		curs_set(0);
		if (k == '\n' || k == '\r' || k == KEY_ENTER)
			return true;
		if (k == KEY_ESC || k == CTRL('c'))
			return false;
		if ((k == KEY_BACKSPACE || k == 127 || k == 8) && n)
			buf[--n] = 0;
		else if (k >= 32 && k < 256 && n + 1 < len) {
			buf[n++] = (char)k;
			buf[n] = 0;
		}
	}
}

/*
 * An annotation's line "  91.89 :   11e1: ...": its share, and where the
 * number is in it ([*b, *e)); -1 for a line without one.
 */
static double ann_share(const char *s, size_t n, size_t *b, size_t *e)
{
	size_t i = 0, j;

	while (i < n && s[i] == ' ')
		i++;
	for (j = i; j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.'); j++)
		;
	if (j == i || j + 1 >= n || s[j] != ' ' || s[j + 1] != ':')
		return -1;
	*b = i;
	*e = j;
	return strtod(s + i, NULL);
}

/* A line of a text view at y; an annotation's share coloured as perf's (red from 5%, green from 0.5%). */
static void draw_view_line(int y, const char *s, size_t n, bool cur, bool ann)
{
	size_t b, e;
	double v;

	draw_text(y, s, n, cur ? A_REVERSE : A_NORMAL);
	if (!ann || !colors || cur || (v = ann_share(s, n, &b, &e)) < 0.5 || (int)e > COLS)
		return;
	attron(COLOR_PAIR(v >= 5.0 ? PAIR_HOT : PAIR_WARM));
	mvaddnstr(y, (int)b, s + b, (int)(e - b));
	attrset(A_NORMAL);
}

/*
 * A text to read (the header, the help, an annotation): the list keys, q
 * or Esc back.  An annotation opens on its hottest line, as perf's.
 */
static enum ui_ret text_view(const char *title, const char *text, size_t len, bool ann)
{
	struct ui_list l = { 0 };
	enum ui_ret ret = UI_BACK;
	double hot = 0;

	if (list_add_text(&l, 0, text, 0, len, false))
		return UI_BACK;
	for (size_t i = 0; ann && i < l.n; i++) {
		size_t b, e;
		double v = ann_share(text + l.v[i].off, l.v[i].len, &b, &e);

		if (v > hot) {
			hot = v;
			l.cur = i;
		}
	}
	for (;;) {
		int k;

		list_scroll(&l);
		erase();
		draw_bars(title, "q/Esc: back   Up/Down/PgUp/PgDn/Home/End: move");
		for (int y = 0; y < page_rows() + 1 && l.top + (size_t)y < l.n; y++) {
			const struct ui_line *ln = &l.v[l.top + (size_t)y];

			draw_view_line(y + 1, text + ln->off, ln->len, l.top + (size_t)y == l.cur, ann);
		}
		refresh();
		k = ui_getch();
		if (k == 'q' || k == KEY_ESC || k == 'h' || k == '?')
			break;
		if (k == CTRL('c')) {
			ret = UI_QUIT;
			break;
		}
		list_move(&l, k);
	}
	free(l.v);
	return ret;
}

static const char hist_help[] =
	"Keys of the histogram (perf report's):\n"
	"\n"
	"  Up/Down, PgUp/PgDn, Home/End   move\n"
	"  Tab / shift-Tab                the next / previous event\n"
	"  + or Enter or e                expand or collapse the entry's call chain\n"
	"  E / C                          expand / collapse every call chain\n"
	"  /  or f                        show only the symbols containing a text (empty: all)\n"
	"  d                              zoom into the entry's DSO (again: out)\n"
	"  t                              zoom into the entry's thread (again: out)\n"
	"  a                              annotate the entry's symbol\n"
	"  i                              the file's header\n"
	"  P                              print the view to perf.hist.N\n"
	"  h or ?                         this help\n"
	"  q or Esc                       back to the events, or quit\n";

static const char top_help[] =
	"\n"
	"mperf top's own (perf top's):\n"
	"\n"
	"  z                              zero each refresh: the samples since the last one (again: all)\n"
	"  f                              freeze the view (again: refresh it again)\n";

static const char menu_help[] =
	"Keys of the event menu:\n"
	"\n"
	"  Up/Down, Tab / shift-Tab   move between the events\n"
	"  PgUp/PgDn, Home/End        a screen, the first, the last\n"
	"  Enter or Right             open the event's histogram\n"
	"  i                          the file's header\n"
	"  h or ?                     this help\n"
	"  q or Esc                   quit\n";

/* `i`: the file's header, as --header-only prints it. */
static enum ui_ret header_view(const struct ui_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	enum ui_ret ret = UI_BACK;

	if (!f)
		return UI_BACK;
	report__header(r->p, r->label, r->mtime, false, f);
	if (fclose(f) == 0)
		ret = text_view("Header of the file (as --header-only prints it)", text, len, false);
	free(text);
	return ret;
}

/* top's `i`: its stream's header, as --header-only prints it. */
static enum ui_ret live_header_view(struct ui_hist *h)
{
	size_t len = 0;
	const char *text = live->header(live->ctx, &len);

	if (text && len)
		return text_view("Header of the samples (as --header-only prints it)", text, len, false);
	if (h)
		snprintf(h->msg, sizeof(h->msg), "no header yet");
	return UI_BACK;
}

/* top's `a`: the entry's symbol from the samples counted so far (o), as annotate --stdio -s SYM prints it. */
static enum ui_ret live_annotate_view(struct ui_hist *h, const struct annotate_opts *o)
{
	size_t said = mperf_log_held(), len = 0;
	char *text = NULL, title[512];
	enum ui_ret ret = UI_BACK;
	FILE *f;
	int err;

	draw_text(LINES - 1, "Annotating...", 13, A_NORMAL);
	refresh();
	if (!(f = open_memstream(&text, &len)))
		return UI_BACK;
	err = live->annotate(live->ctx, o, f);
	if (fclose(f) == 0 && !err && len) {
		snprintf(title, sizeof(title), "Annotate %s (%s)", o->symbols[0], h->sec->name);
		ret = text_view(title, text, len, true);
	} else if (err == -ENOENT) {
		snprintf(h->msg, sizeof(h->msg), "annotate: none of %s's samples can be annotated (is its file here?)",
			 o->symbols[0]);
	} else if (!mperf_log_held_msg(said, h->msg, sizeof(h->msg))) {
		snprintf(h->msg, sizeof(h->msg), "annotate: nothing to show for %s", o->symbols[0]);
	}
	free(text);
	return ret;
}

/*
 * `a`: the entry's symbol in this event, as annotate --stdio -s SYM prints
 * it (the file read again); what annotate said instead on the help line.
 */
static enum ui_ret annotate_view(struct ui_hist *h)
{
	const struct report_entry *e = h->l.n ? &h->r->doc->row[h->l.v[h->l.cur].row].e : NULL;
	const char *sym = e && !e->inlined && !e->object ? e->sym : NULL;
	/* its DSO's symbol alone (perf's TUI annotates the entry's map) */
	struct annotate_opts o = { .symbols = &sym, .nr_symbols = 1, .one_event = true, .event = h->sec->ev,
				   .dsos = e && e->dso && !strchr(e->dso, ',') ? e->dso : NULL,
				   .vmlinux = h->r->vmlinux, .kallsyms = h->r->kallsyms };
	size_t said = mperf_log_held(), len = 0;
	char *text = NULL, title[512];
	enum ui_ret ret = UI_BACK;
	FILE *f;
	int err;

	if (!sym) {
		snprintf(h->msg, sizeof(h->msg), "annotate: this entry has no symbol to annotate");
		return UI_BACK;
	}
	if (live)
		return live_annotate_view(h, &o);
	if (!h->r->p) {
		snprintf(h->msg, sizeof(h->msg), "annotate: not in top yet (mperf annotate reads a recording)");
		return UI_BACK;
	}
	if ((err = pdata__rewind(h->r->p))) {
		snprintf(h->msg, sizeof(h->msg), "annotate: %s", err == -ESPIPE ?
			 "a stream cannot be read again (annotate needs a file)" : strerror(-err));
		return UI_BACK;
	}
	draw_text(LINES - 1, "Annotating...", 13, A_NORMAL);
	refresh();
	if (!(f = open_memstream(&text, &len)))
		return UI_BACK;
	err = annotate__run(h->r->p, h->r->label, &o, f);
	if (fclose(f) == 0 && !err && len) {
		snprintf(title, sizeof(title), "Annotate %s (%s)", sym, h->sec->name);
		ret = text_view(title, text, len, true);
	} else if (!mperf_log_held_msg(said, h->msg, sizeof(h->msg)))
		snprintf(h->msg, sizeof(h->msg), "annotate: nothing to show for %s", sym);
	free(text);
	return ret;
}

/* Whether row i of the section passes the zooms and the filter. */
static bool row_shown(const struct ui_hist *h, const struct report_hist_row *row)
{
	const struct report_entry *e = &row->e;

	if (h->dso_zoom && (e->dso ? !h->dso || strcmp(e->dso, h->dso) : !!h->dso))
		return false;
	if (h->thread_zoom && e->tid != h->tid)
		return false;
	/* perf's symbol filter: entries without a symbol are hidden too */
	return !h->filter[0] || (e->sym && strstr(e->sym, h->filter));
}

/* The lines on screen: every shown entry, its chain's lines under it when expanded. */
static int hist_lines(struct ui_hist *h)
{
	const struct report_hist_doc *d = h->r->doc;
	size_t keep = h->l.n ? h->l.v[h->l.cur].row : (size_t)-1;

	h->l.n = 0;
	h->l.cur = 0;
	for (size_t i = 0; i < h->sec->nr_rows; i++) {
		size_t ri = h->sec->first_row + i;
		const struct report_hist_row *row = &d->row[ri];

		if (!row_shown(h, row))
			continue;
		if (ri == keep)
			h->l.cur = h->l.n;
		if (list_add(&h->l, ri, row->line, row->line_len, false))
			return -ENOMEM;
		if (h->expanded[i] && row->chain_len &&
		    list_add_text(&h->l, ri, d->text, row->chain, row->chain_len, true))
			return -ENOMEM;
	}
	return 0;
}

/* Whether two entries of successive refreshes are the same one (its keys' values). */
static bool same_entry(const struct report_entry *a, const struct report_entry *b)
{
	if (a->tid != b->tid || a->cpu != b->cpu || a->level != b->level || !a->sym != !b->sym || !a->dso != !b->dso)
		return false;
	if ((a->dso && strcmp(a->dso, b->dso)) || (a->sym && strcmp(a->sym, b->sym)))
		return false;
	return a->sym || a->addr == b->addr;
}

/* The zooms' names into h's own buffers: old's strings go with it. */
static void hist_keep_names(struct ui_hist *h)
{
	if (h->dso && h->dso != h->dso_keep) {
		snprintf(h->dso_keep, sizeof(h->dso_keep), "%s", h->dso);
		h->dso = h->dso_keep;
	}
	if (h->comm && h->comm != h->comm_keep) {
		snprintf(h->comm_keep, sizeof(h->comm_keep), "%s", h->comm);
		h->comm = h->comm_keep;
	}
}

/*
 * h on the new document (h->r->doc) from old: the same event, the same
 * entries expanded, the cursor where it was on the screen (as perf top's);
 * -ENOMEM with h as it was.
 */
static int hist_remap(struct ui_hist *h, const struct report_hist_doc *old)
{
	const struct report_hist_doc *d = h->r->doc;
	const struct report_hist_section *sec = &d->sec[0];
	size_t cur = h->l.cur, top = h->l.top;
	bool *x;

	for (size_t k = 0; k < d->nr_sec; k++)
		if (d->sec[k].ev == h->sec->ev)
			sec = &d->sec[k];
	if (!(x = calloc(sec->nr_rows ? sec->nr_rows : 1, sizeof(*x))))
		return -ENOMEM;
	for (size_t i = 0; i < h->sec->nr_rows; i++) {
		const struct report_entry *e = &old->row[h->sec->first_row + i].e;

		for (size_t j = 0; h->expanded[i] && j < sec->nr_rows; j++)
			if (same_entry(e, &d->row[sec->first_row + j].e))
				x[j] = true;
	}
	hist_keep_names(h);
	free(h->expanded);
	h->expanded = x;
	h->sec = sec;
	h->l.n = 0;
	hist_lines(h);	/* out of memory: the lines that fit */
	h->l.cur = cur < h->l.n ? cur : h->l.n ? h->l.n - 1 : 0;
	h->l.top = top <= h->l.cur ? top : h->l.cur;
	return 0;
}

/* top's newer document shown from now on; the old one handed back. */
static void live_swap(const struct report_hist_doc *d)
{
	const struct report_hist_doc *old = live_r.doc;

	live_r.doc = d;
	if (live_hist && hist_remap(live_hist, old)) {
		live_r.doc = old;	/* out of memory: the old one stays, whole */
		live->drop(live->ctx, d);
		return;
	}
	live->drop(live->ctx, old);
}

/* The title line: perf's "Samples: ... of event '...', Event count (approx.): N", and the zooms. */
static void hist_title(const struct ui_hist *h, char *buf, size_t len)
{
	const struct report_hist_doc *d = h->r->doc;
	const char *head = d->text + h->sec->head;
	size_t n = 0, hl = h->sec->head_len;

	for (size_t i = 0; i < hl && n + 1 < len; i++) {
		if (head[i] == '#' && (i == 0 || head[i - 1] == '\n')) {
			i += head[i + 1] == ' ';
			continue;
		}
		if (head[i] == '\n') {
			n += (size_t)snprintf(buf + n, len - n, ", ");
			continue;
		}
		buf[n++] = head[i];
	}
	buf[n < len ? n : len - 1] = 0;
	if (!hl)
		n = (size_t)snprintf(buf, len, "event '%s'", h->sec->name);
	if (h->thread_zoom && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", Thread: %s(%d)", h->comm ? h->comm : "", h->tid);
	if (h->dso_zoom && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", DSO: %s", h->dso ? h->dso : "[unknown]");
	if (h->filter[0] && n < len)
		snprintf(buf + n, len - n, ", Symbol filter: %s", h->filter);
	n = strlen(buf);
	if (live && n < len)	/* perf top's title says the lost samples */
		snprintf(buf + n, len - n, ", lost: %" PRIu64, h->sec->lost);
}

static void hist_draw(struct ui_hist *h)
{
	const struct report_hist_doc *d = h->r->doc;
	char title[1024];

	hist_title(h, title, sizeof(title));
	list_scroll(&h->l);
	erase();
	draw_bars(title, h->msg[0] ? h->msg : "Press '?' for help on key bindings");
	memcpy(h->said, h->msg, sizeof(h->said));
	h->msg[0] = 0;
	if (h->sec->cols_len) {
		/* the column names without the comment's "#" */
		draw_text(1, "  ", 2, A_BOLD);
		attrset(A_BOLD);
		mvaddnstr(1, 2, d->text + h->sec->cols + 2, COLS > 2 ? COLS - 2 : 0);
		attrset(A_NORMAL);
	}
	for (int y = 0; y < page_rows() && h->l.top + (size_t)y < h->l.n; y++) {
		const struct ui_line *ln = &h->l.v[h->l.top + (size_t)y];
		bool cur = h->l.top + (size_t)y == h->l.cur;

		if (ln->chain)
			draw_text(y + 2, d->text + ln->off, ln->len, cur ? A_REVERSE : A_NORMAL);
		else
			draw_entry(y + 2, d->text + ln->off, ln->len, cur);
	}
	refresh();
}

/* `P`: the view as shown, whole lines, into perf.hist.N (the first N free), as perf does. */
static void hist_print(struct ui_hist *h)
{
	const struct report_hist_doc *d = h->r->doc;
	char name[64], title[1024];
	FILE *f = NULL;

	for (int i = 0; i < 1000 && !f; i++) {
		snprintf(name, sizeof(name), "perf.hist.%d", i);
		if (access(name, F_OK) == 0)
			continue;
		f = fopen(name, "wx");
		if (!f && errno != EEXIST)
			break;
	}
	if (!f) {
		snprintf(h->msg, sizeof(h->msg), "cannot write perf.hist.N: %s", strerror(errno));
		return;
	}
	hist_title(h, title, sizeof(title));
	fprintf(f, "%s\n", title);
	if (h->sec->cols_len)
		fprintf(f, "%.*s\n", (int)h->sec->cols_len, d->text + h->sec->cols);
	for (size_t i = 0; i < h->l.n; i++)
		fprintf(f, "%.*s\n", (int)h->l.v[i].len, d->text + h->l.v[i].off);
	if (fclose(f))
		snprintf(h->msg, sizeof(h->msg), "cannot write %s: %s", name, strerror(errno));
	else
		snprintf(h->msg, sizeof(h->msg), "%s written", name);
}

/* d and t: zoom into the current entry's DSO or thread, or out. */
static void hist_zoom(struct ui_hist *h, int key)
{
	const struct report_entry *e;

	if (!h->l.n && !(key == 'd' ? h->dso_zoom : h->thread_zoom))
		return;
	e = h->l.n ? &h->r->doc->row[h->l.v[h->l.cur].row].e : NULL;
	if (key == 'd') {
		h->dso_zoom = !h->dso_zoom;
		if (h->dso_zoom)
			h->dso = e->dso;
	} else {
		h->thread_zoom = !h->thread_zoom;
		if (h->thread_zoom) {
			h->tid = e->tid;
			h->comm = e->thread_comm ? e->thread_comm : e->comm;
		}
	}
}

/* A key of the histogram's that changes which lines show; false for another key. */
static bool hist_key(struct ui_hist *h, int k)
{
	size_t row = h->l.n ? h->l.v[h->l.cur].row - h->sec->first_row : 0;

	switch (k) {
	case '+':
	case 'e':
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (h->l.n)
			h->expanded[row] = !h->expanded[row];
		if (h->l.n && !h->r->doc->row[h->sec->first_row + row].chain_len)
			snprintf(h->msg, sizeof(h->msg), "this entry has no call chains (record with -g)");
		break;
	case 'E':
	case 'C':
		for (size_t i = 0; i < h->sec->nr_rows; i++)
			h->expanded[i] = k == 'E';
		break;
	case '/':
	case 'f': {
		char f[sizeof(h->filter)];

		memcpy(f, h->filter, sizeof(f));
		if (prompt_line("Symbol to show (empty: all): ", f, sizeof(f)))
			memcpy(h->filter, f, sizeof(f));
		break;
	}
	case 'd':
	case 't':
		hist_zoom(h, k);
		break;
	default:
		return false;
	}
	hist_lines(h);	/* the entry stays under the cursor (its first line) */
	return true;
}

/* The help: the histogram's keys, and top's. */
static enum ui_ret hist_help_view(void)
{
	char text[sizeof(hist_help) + sizeof(top_help)];

	snprintf(text, sizeof(text), "%s%s", hist_help, live ? top_help : "");
	return text_view("Help", text, strlen(text), false);
}

/* One event's histogram, until q or Esc (UI_BACK), Tab or shift-Tab (UI_NEXT, UI_PREV). */
static enum ui_ret hist_browse(const struct ui_report *r, const struct report_hist_section *sec)
{
	struct ui_hist h = { .r = r, .sec = sec };
	enum ui_ret ret = UI_BACK;

	h.expanded = calloc(sec->nr_rows ? sec->nr_rows : 1, sizeof(*h.expanded));
	if (!h.expanded || hist_lines(&h))
		goto out;
	live_hist = &h;		/* top's refreshes remap it */
	for (;;) {
		int k;

		hist_draw(&h);
		k = ui_getch();
		if (k == UI_KEY_REFRESH) {
			memcpy(h.msg, h.said, sizeof(h.msg));
			continue;
		}
		if (live && (k == 'z' || k == 'f')) {
			snprintf(h.msg, sizeof(h.msg), "%s", live->key(live->ctx, k));
			continue;
		}
		if (list_move(&h.l, k) || hist_key(&h, k) || k == KEY_RESIZE)
			continue;
		if (k == 'q' || k == KEY_ESC)
			break;
		if (k == CTRL('c')) {
			ret = UI_QUIT;
			break;
		}
		if (k == KEY_TAB || k == KEY_BTAB) {
			ret = k == KEY_TAB ? UI_NEXT : UI_PREV;
			break;
		}
		if (k == 'h' || k == '?')
			ret = hist_help_view();
		else if (k == 'i' && (r->p || live))
			ret = live ? live_header_view(&h) : header_view(r);
		else if (k == 'P')
			hist_print(&h);
		else if (k == 'a')
			ret = annotate_view(&h);
		if (ret == UI_QUIT)
			break;
	}
out:
	live_hist = NULL;
	free(h.expanded);
	free(h.l.v);
	return ret;
}

/* The next section with samples from i in direction dir (1 or -1), or i. */
static size_t next_shown(const struct report_hist_doc *d, size_t i, int dir)
{
	for (size_t j = 1; j <= d->nr_sec; j++) {
		size_t k = (i + d->nr_sec + (size_t)dir * j) % d->nr_sec;

		if (d->sec[k].shown)
			return k;
	}
	return i;
}

/* Histograms from section i on, Tab and shift-Tab going round the events: UI_BACK or UI_QUIT. */
static enum ui_ret hists_from(const struct ui_report *r, size_t *i)
{
	for (;;) {
		enum ui_ret ret = hist_browse(r, &r->doc->sec[*i]);

		if (ret == UI_BACK || ret == UI_QUIT)
			return ret;
		*i = next_shown(r->doc, *i, ret == UI_NEXT ? 1 : -1);
	}
}

/* The menu's window: the events from *top on, *top moved so that cur shows. */
static void menu_draw(const struct report_hist_doc *d, size_t cur, size_t *top, const char *msg)
{
	size_t rows = (size_t)page_rows() + 1;

	if (cur < *top)
		*top = cur;
	if (cur >= *top + rows)
		*top = cur - rows + 1;
	erase();
	draw_bars("Available samples", msg ? msg : "Enter: open   Tab/shift-Tab: move   q: quit   ?: help");
	for (size_t i = *top; i < d->nr_sec && i < *top + rows; i++) {
		const struct report_hist_section *s = &d->sec[i];
		char line[512];
		int n = snprintf(line, sizeof(line), "%12" PRIu64 " samples %10" PRIu64 " lost  %s",
				 s->samples, s->lost, s->name);

		draw_text((int)(i - *top) + 1, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1,
			  i == cur ? A_REVERSE : s->lost && colors ? COLOR_PAIR(PAIR_HOT) : A_NORMAL);
	}
	refresh();
}

/* The menu's cursor after a key that moves it (false: another key); PgUp/PgDn a screen. */
static bool menu_move(size_t n, size_t *cur, int k)
{
	size_t page = (size_t)page_rows() + 1;

	if (k == KEY_DOWN || k == KEY_TAB)
		*cur = (*cur + 1) % n;
	else if (k == KEY_UP || k == KEY_BTAB)
		*cur = (*cur + n - 1) % n;
	else if (k == KEY_HOME || k == KEY_END)
		*cur = k == KEY_HOME ? 0 : n - 1;
	else if (k == KEY_NPAGE || k == ' ')
		*cur = *cur + page < n ? *cur + page : n - 1;
	else if (k == KEY_PPAGE)
		*cur = *cur > page ? *cur - page : 0;
	else
		return false;
	return true;
}

/* perf's event menu: each event with its samples and lost samples; Enter opens one. */
static void menu(const struct ui_report *r)
{
	const char *msg = NULL;
	size_t cur = next_shown(r->doc, r->doc->nr_sec - 1, 1), top = 0;

	for (;;) {
		int k;

		if (cur >= r->doc->nr_sec)	/* top: a refresh with fewer events */
			cur = 0;
		menu_draw(r->doc, cur, &top, msg);
		msg = NULL;
		k = ui_getch();
		if (k == 'q' || k == KEY_ESC || k == CTRL('c'))
			return;
		if (menu_move(r->doc->nr_sec, &cur, k))
			continue;
		if (k == '\n' || k == '\r' || k == KEY_ENTER || k == KEY_RIGHT) {
			if (!r->doc->sec[cur].shown)
				msg = "this event has no samples";
			else if (hists_from(r, &cur) == UI_QUIT)
				return;
		} else if ((k == 'h' || k == '?') && text_view("Help", menu_help, sizeof(menu_help) - 1, false) == UI_QUIT)
			return;
		else if (k == 'i' && (r->p || live) && (live ? live_header_view(NULL) : header_view(r)) == UI_QUIT)
			return;
	}
}

static void colors_init(bool want)
{
	colors = want && has_colors() && start_color() == OK;
	if (!colors)
		return;
	use_default_colors();
	init_pair(PAIR_TITLE, COLOR_WHITE, COLOR_BLUE);
	init_pair(PAIR_HOT, COLOR_RED, -1);
	init_pair(PAIR_WARM, COLOR_GREEN, -1);
	init_pair(PAIR_HELP, COLOR_WHITE, COLOR_BLUE);
}

/* The terminal taken: curses on it, sigs restore it before they end the process; NULL when it cannot. */
static SCREEN *term_open(bool color, const int *sigs, size_t nr_sigs)
{
	SCREEN *scr;

	setlocale(LC_CTYPE, "");
	scr = newterm(NULL, stdout, stdin);
	if (!scr)
		return NULL;
	for (size_t i = 0; i < nr_sigs; i++)
		signal(sigs[i], restore_and_die);
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	colors_init(color);
	/* What src/ says meanwhile (`i`'s header) waits for the terminal, not to draw over the screen. */
	mperf_log_hold();
	return scr;
}

/* The terminal as it was, then what src/ said meanwhile. */
static void term_close(SCREEN *scr, const int *sigs, size_t nr_sigs)
{
	endwin();
	delscreen(scr);
	mperf_log_release(true);
	for (size_t i = 0; i < nr_sigs; i++)
		signal(sigs[i], SIG_DFL);
}

int ui_report_browse(const struct ui_report *r)
{
	static const int sigs[] = { SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGSEGV, SIGABRT };
	const struct report_hist_doc *d = r->doc;
	SCREEN *scr;
	size_t first;

	if (!d->nr_sec || !ui_usable() || !(scr = term_open(r->color, sigs, sizeof(sigs) / sizeof(sigs[0]))))
		return -1;
	first = next_shown(d, d->nr_sec - 1, 1);
	if (d->nr_sec > 1)
		menu(r);
	else if (d->sec[first].shown)
		hists_from(r, &first);
	term_close(scr, sigs, sizeof(sigs) / sizeof(sigs[0]));
	return 0;
}

/* Until top's first document: a line that says so; false when q or the sampling's end comes first. */
static bool live_wait(void)
{
	char line[128];
	int n = snprintf(line, sizeof(line), "Waiting for the first samples (a refresh every %u s)...", live->delay_s);

	while (!(live_r.doc = live->take(live->ctx)) || !live_r.doc->nr_sec) {
		int k;

		erase();
		draw_bars("mperf top", "q: quit");
		draw_text(2, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1, A_NORMAL);
		refresh();
		if (live_r.doc)
			live->drop(live->ctx, live_r.doc);	/* no samples yet */
		live_r.doc = NULL;
		k = getch();
		if (k == 'q' || k == KEY_ESC || k == CTRL('c') || live->done(live->ctx))
			return false;
	}
	return true;
}

int ui_top_browse(const struct ui_report *r, const struct ui_live *l)
{
	/* SIGINT, SIGTERM and SIGHUP are the sampling's: they end it, and the browser with it. */
	static const int sigs[] = { SIGQUIT, SIGSEGV, SIGABRT };
	SCREEN *scr;
	size_t first = 0;

	if (!ui_usable() || !(scr = term_open(r->color, sigs, sizeof(sigs) / sizeof(sigs[0]))))
		return -1;
	live = l;
	live_r = *r;
	timeout(100);
	if (live_wait()) {
		if (live_r.doc->nr_sec > 1)
			menu(&live_r);
		else
			hists_from(&live_r, &first);
	}
	if (live_r.doc)
		l->drop(l->ctx, live_r.doc);
	live = NULL;
	term_close(scr, sigs, sizeof(sigs) / sizeof(sigs[0]));
	return 0;
}
