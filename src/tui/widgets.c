/* widgets.c: text that fits, frames, bars, number formats, axis ticks and bins: the small pieces the
 * views and the dashboard are made of. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui_internal.h"

/* ---- text ---- */

/* Decode one character; a byte the locale cannot read counts as one '?' column. */
static size_t next_char(const char *s, wchar_t *wc, int *cols)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = mbrtowc(wc, s, MB_CUR_MAX, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		*wc = L'?';
		*cols = 1;
		return 1;
	}
	int cw = wcwidth(*wc);
	if (cw < 0) {
		*wc = L'?';
		cw = 1;
	}
	*cols = cw;
	return n;
}

int tui_width(const char *s)
{
	return wtg_text_width(s);	/* as the text report measures */
}

int tui_put(WINDOW *w, int y, int x, int maxw, attr_t a, const char *s)
{
	int my, mx;
	getmaxyx(w, my, mx);
	if (!s || y < 0 || y >= my || x < 0 || x >= mx)
		return 0;
	if (maxw > mx - x)
		maxw = mx - x;
	int col = 0;
	wattrset(w, (int)a);
	wmove(w, y, x);
	while (*s && col < maxw) {
		char esc[4];
		size_t en = wtg_text_escaped(s, esc);
		if (en) {	/* a control character or a byte that is not UTF-8, from a file: its escape */
			int cols;
			size_t n = wtg_text_char(s, &cols);
			if (col + (int)en > maxw)
				break;
			waddnstr(w, esc, (int)en);
			col += (int)en;
			s += n;
			continue;
		}
		wchar_t wc;
		int cw;
		size_t n = next_char(s, &wc, &cw);
		if (col + cw > maxw)
			break;
		if (wc == L'\t' || wc == L'\n')
			wc = L' ';
		waddnwstr(w, &wc, 1);
		col += cw;
		s += n;
	}
	wattrset(w, A_NORMAL);
	return col;
}

int tui_printf(WINDOW *w, int y, int x, int maxw, attr_t a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return tui_put(w, y, x, maxw, a, buf);
}

void tui_repeat(WINDOW *w, int y, int x, int n, attr_t a, const char *glyph)
{
	for (int i = 0; i < n; i++)
		tui_put(w, y, x + i, 1, a, glyph);
}

void tui_frame(WINDOW *w, const struct tui_look *l, attr_t a, const char *title, attr_t ta,
	       const char *right, attr_t ra)
{
	const struct tui_glyphs *g = l->g;
	int h, wd;
	getmaxyx(w, h, wd);
	if (h < 2 || wd < 2)
		return;
	tui_put(w, 0, 0, 1, a, g->tl);
	tui_repeat(w, 0, 1, wd - 2, a, g->h);
	tui_put(w, 0, wd - 1, 1, a, g->tr);
	for (int y = 1; y < h - 1; y++) {
		tui_put(w, y, 0, 1, a, g->v);
		tui_put(w, y, wd - 1, 1, a, g->v);
	}
	tui_put(w, h - 1, 0, 1, a, g->bl);
	tui_repeat(w, h - 1, 1, wd - 2, a, g->h);
	/* the bottom-right cell of the screen cannot take a character without scrolling */
	mvwinsch(w, h - 1, wd - 1, ' ');
	tui_put(w, h - 1, wd - 1, 1, a, g->br);
	int rw = 0;
	if (right && *right) {
		char buf[256];
		snprintf(buf, sizeof buf, " %s ", right);
		rw = tui_width(buf);
		if (rw > wd - 6)
			rw = wd - 6;
		if (rw > 0)
			tui_put(w, 0, wd - 2 - rw, rw, ra, buf);
	}
	if (title && *title) {
		char buf[512];
		snprintf(buf, sizeof buf, " %s ", title);
		int room = wd - 3 - (rw ? rw + 1 : 0);
		if (room > 0)
			tui_put_clip(w, 0, 2, room, ta, l, buf);	/* a title cut says so */
	}
}

void tui_hbar(WINDOW *w, int y, int x, int width, double frac, attr_t a, const struct tui_look *l)
{
	if (width <= 0 || !(frac > 0))
		return;
	if (frac > 1)
		frac = 1;
	const struct tui_glyphs *g = l->g;
	bool eighths = g->hbar[1] != NULL;
	int units = eighths ? 8 : 1;
	long n = lround(frac * width * units);
	if (n < 1)
		n = 1;	/* a measured value is never drawn as nothing */
	int full = (int)(n / units), part = (int)(n % units);
	tui_repeat(w, y, x, full, a, g->hbar[8]);
	if (part && full < width)
		tui_put(w, y, x + full, 1, a, g->hbar[part]);
}

void tui_progress(WINDOW *w, int y, int x, int width, double frac, attr_t a, const struct tui_look *l)
{
	if (width <= 0)
		return;
	if (!(frac >= 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	tui_repeat(w, y, x, width, tui_attr(l, TR_DIM), l->g->todo);
	if (frac > 0)
		tui_hbar(w, y, x, width, frac, a, l);
}

int tui_wrap(WINDOW *w, int y, int x, int width, int maxlines, attr_t a, bool centred, const char *s)
{
	int lines = 0;
	char line[1024];
	while (*s && lines < maxlines && width > 0) {
		const char *next;
		size_t take = wtg_wrap_next(s, width, true, &next);	/* as the text report wraps */
		if (take >= sizeof line)
			take = sizeof line - 1;
		memcpy(line, s, take);
		line[take] = '\0';
		int lw = tui_width(line);
		tui_put(w, y + lines, centred ? x + (width - lw) / 2 : x, width, a, line);
		lines++;
		s = next;
	}
	return lines;
}

void tui_fit_items(char *s, int width)
{
	while (tui_width(s) > width) {
		char *cut = NULL;
		for (char *p = s; *p; p++)	/* the last ", " or "; " */
			if ((p[0] == ',' || p[0] == ';') && p[1] == ' ')
				cut = p;
		if (!cut)
			return;
		*cut = '\0';
	}
}

int tui_wrap_lines(const char *s, int width)
{
	int lines = 0;
	while (*s && width > 0 && lines < 1000) {
		wtg_wrap_next(s, width, true, &s);
		lines++;
	}
	return lines;
}

int tui_wrap_clip(WINDOW *w, int y, int x, int width, int maxlines, attr_t a, const struct tui_look *l, bool centred,
		  const char *s)
{
	int lines = 0;
	char line[1024];
	while (*s && lines < maxlines && width > 0) {
		const char *next;
		size_t take = wtg_wrap_next(s, width, true, &next);
		if (lines + 1 == maxlines && *next)
			take = strlen(s);	/* the last line takes the rest, cut with an ellipsis */
		if (take >= sizeof line)
			take = sizeof line - 1;
		memcpy(line, s, take);
		line[take] = '\0';
		int lw = tui_width(line) < width ? tui_width(line) : width;
		tui_put_clip(w, y + lines, centred ? x + (width - lw) / 2 : x, width, a, l, line);
		lines++;
		s = next;
	}
	return lines;
}

/* ---- the footer every view shares ---- */

int tui_put_clip(WINDOW *w, int y, int x, int maxw, attr_t a, const struct tui_look *l, const char *s)
{
	if (tui_width(s) <= maxw)
		return tui_put(w, y, x, maxw, a, s);
	int ew = tui_width(l->g->ellipsis);
	int n = tui_put(w, y, x, maxw - ew, a, s);
	return n + tui_put(w, y, x + n, ew, a, l->g->ellipsis);
}

int tui_footer(const struct tui_view *v, int max)
{
	const struct wtg_table *t = v->t;
	const struct tui_look *l = v->look;
	char lines[8][512];
	attr_t attrs[8];
	int n = 0;
	if (max <= 0)
		return 0;
	if (t->error[0]) {
		snprintf(lines[n], sizeof lines[n], "%s %s", l->g->bad, t->error);
		attrs[n++] = tui_attr(l, TR_ERR) | A_BOLD;
	}
	if (t->nchecks > 0) {
		int bad = 0, warn = 0, first_bad = -1, first_warn = -1;
		for (int i = 0; i < t->nchecks; i++) {
			if (t->checks[i].status == WTG_CHECK_FAIL && bad++ == 0)
				first_bad = i;
			if (t->checks[i].status == WTG_CHECK_WARN && warn++ == 0)
				first_warn = i;
		}
		if (bad)
			snprintf(lines[n], sizeof lines[n], "%s %d of %d checks failed: %s: %s", l->g->bad,
				 bad, t->nchecks, t->checks[first_bad].name, t->checks[first_bad].detail);
		else if (warn)
			snprintf(lines[n], sizeof lines[n], "! %d of %d checks warn: %s: %s", warn, t->nchecks,
				 t->checks[first_warn].name, t->checks[first_warn].detail);
		else
			snprintf(lines[n], sizeof lines[n], "%s %d check%s ok: %s", l->g->ok, t->nchecks,
				 t->nchecks == 1 ? "" : "s", t->checks[0].detail);
		attrs[n++] = tui_attr(l, bad ? TR_ERR : warn ? TR_WARN : TR_OK);
	}
	/* the latest notes, as many as fit */
	int room = max - n;
	int first = t->nnotes > room ? t->nnotes - room : 0;
	for (int i = first; i < t->nnotes && n < 8; i++) {
		snprintf(lines[n], sizeof lines[n], "%s", t->notes[i]);
		attrs[n++] = tui_attr(l, TR_DIM);
	}
	if (n > max)
		n = max;
	/* why the run ended, whole on a second line where one is free (a note gives way to it) */
	int err2 = t->error[0] && tui_wrap_lines(lines[0], v->wd) > 1 && max >= 2 ? 1 : 0;
	if (err2 && n == max)
		n--;
	int y = v->y + v->h - n - err2;
	for (int i = 0; i < n; i++)
		if (i == 0 && err2)
			y += tui_wrap_clip(v->w, y, v->x, v->wd, 2, attrs[i], l, false, lines[i]);
		else
			tui_put_clip(v->w, y++, v->x, v->wd, attrs[i], l, lines[i]);
	return n + err2;
}

/* ---- the verdict's figure in block digits ---- */

/* Block digits, 3 columns by 5 lines: '#' is a filled cell. */
static const struct {
	char c;
	const char *rows[5];
} big_font[] = {
	{ '0', { "###", "# #", "# #", "# #", "###" } }, { '1', { " # ", "## ", " # ", " # ", "###" } },
	{ '2', { "###", "  #", "###", "#  ", "###" } }, { '3', { "###", "  #", "###", "  #", "###" } },
	{ '4', { "# #", "# #", "###", "  #", "  #" } }, { '5', { "###", "#  ", "###", "  #", "###" } },
	{ '6', { "###", "#  ", "###", "# #", "###" } }, { '7', { "###", "  #", "  #", "  #", "  #" } },
	{ '8', { "###", "# #", "###", "# #", "###" } }, { '9', { "###", "# #", "###", "  #", "###" } },
	{ '.', { "   ", "   ", "   ", "   ", " # " } }, { ',', { "   ", "   ", "   ", " # ", "#  " } },
	{ '-', { "   ", "   ", "###", "   ", "   " } }, { '%', { "# #", "  #", " # ", "#  ", "# #" } },
};

static int big_glyph(char c)
{
	for (int i = 0; i < (int)WTG_ARRAY_LEN(big_font); i++)
		if (big_font[i].c == c)
			return i;
	return -1;
}

/* The verdict's figure: the first number after the last ": " or "= " of its first part (up to its
 * first "; ") where that part has one, and none when no number follows it there (ceiling's "memory:
 * 8 streams: x0.37 [..]: more misses ...; L1: ..." names no figure; a later part's is another's, as
 * syscall's "...; 116 ns (33%) and 136 ns (67%): two regimes ... : steal 0.0%"); else the first
 * number after the last ": " or "= " of the whole, else its last number (a ratio's "x2.8" too,
 * without its x). */
void tui_verdict_figure(const char *v, char *out, size_t len)
{
	const char *from = v, *p, *semi = strstr(v, "; "), *end = NULL;
	for (p = v; *p && (!semi || p < semi); p++)
		if ((*p == ':' || *p == '=') && p[1] == ' ')
			from = p + 1;
	if (from != v)
		end = semi;	/* the first part names its figure: look no further */
	else
		for (p = v; *p; p++)
			if ((*p == ':' || *p == '=') && p[1] == ' ')
				from = p + 1;
	const char *num = NULL;
	for (p = from; *p && (!end || p < end); p++)
		if (*p >= '0' && *p <= '9' &&
		    (p == v || p[-1] == ' ' || p[-1] == '-' || p[-1] == '(' || (p[-1] == 'x' && (p - 1 == v || p[-2] == ' ')))) {
			num = p;
			if (from != v)
				break;
		}
	size_t n = 0;
	if (num) {
		if (num > v && num[-1] == '-')
			num--;
		while (num[n] && big_glyph(num[n]) >= 0 && n + 1 < len)
			n++;
		if (n < len && num[n] == '%' && n + 1 < len)
			n++;
		while (n > 0 && (num[n - 1] == '.' || num[n - 1] == ','))
			n--;	/* the sentence's full stop is not the figure's */
	}
	memcpy(out, num ? num : "", n);
	out[n] = '\0';
}

/* The figure in block digits, centred on line y; returns its width, 0 when it does not fit. */
int tui_draw_big(WINDOW *w, int y, int width, const struct tui_look *l, attr_t a, const char *fig)
{
	int n = (int)strlen(fig), bw = n * 4 - 1;
	if (n == 0 || bw > width - 2)
		return 0;
	const char *cell = l->utf8 ? "\xe2\x96\x88" : "#";
	int x0 = (width - bw) / 2;
	for (int i = 0; i < n; i++) {
		int g = big_glyph(fig[i]);
		for (int r = 0; g >= 0 && r < TUI_BIG_H; r++)
			for (int c = 0; c < 3; c++)
				if (big_font[g].rows[r][c] == '#')
					tui_put(w, y + r, x0 + i * 4 + c, 1, a, cell);
	}
	return bw;
}

/* A verdict longer than lines lines of width gives way by whole parts, never cut mid-word: first its
 * "(N of M samples waited for a CPU)" (the busy words before it say so), then its last "; " clauses
 * (the report and the notes keep them), never its first. */
void tui_verdict_fit(char *v, int width, int lines)
{
	char *open;
	if (tui_wrap_lines(v, width) > lines && (open = strrchr(v, '(')) != NULL && open > v &&
	    strstr(open, "samples waited for a CPU)") != NULL)
		for (*open = '\0'; open > v && open[-1] == ' '; open--)
			open[-1] = '\0';
	char *semi;
	while (tui_wrap_lines(v, width) > lines && (semi = strrchr(v, ';')) != NULL && semi > v)
		*semi = '\0';
}
