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
	int w = 0;
	while (s && *s) {
		wchar_t wc;
		int cw;
		s += next_char(s, &wc, &cw);
		w += cw;
	}
	return w;
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
			tui_put(w, 0, 2, room, ta, buf);
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

/* ---- numbers ---- */

void tui_fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else if (isinf(v))
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
	else if (a >= 99.95 || a == 0)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 9.995)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 0.9995)
		snprintf(buf, len, "%.2f", v);
	else {
		int dec = 2 - (int)floor(log10(a));
		if (dec > 9)
			dec = 9;
		snprintf(buf, len, "%.*f", dec, v);
	}
}

double tui_time_scale(const char *unit)
{
	if (!unit)
		return 0;
	if (strcmp(unit, "ns") == 0)
		return 1;
	if (strcmp(unit, "us") == 0)
		return 1e3;
	if (strcmp(unit, "ms") == 0)
		return 1e6;
	if (strcmp(unit, "s") == 0)
		return 1e9;
	return 0;
}

static void fmt_duration(char *buf, size_t len, double ns)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	int u = 0;
	double v = ns;
	while (fabs(v) >= 999.5 && u < 3) {
		v /= 1e3;
		u++;
	}
	char num[64];
	tui_fmt_num(num, sizeof num, v);
	snprintf(buf, len, "%s %s", num, units[u]);
}

void tui_fmt_value(char *buf, size_t len, double v, const char *unit)
{
	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (!unit)
		unit = "";
	double ts = tui_time_scale(unit);
	if (strcmp(unit, "B") == 0 && v >= 0) {
		wtg_fmt_size(buf, len, (uint64_t)llround(v));
	} else if (ts > 0) {
		fmt_duration(buf, len, v * ts);
	} else if (strcmp(unit, "count") == 0 || unit[0] == '\0') {
		if (v == floor(v) && fabs(v) < 9e15)
			wtg_fmt_thousands(buf, len, (int64_t)v);
		else
			tui_fmt_num(buf, len, v);
	} else {
		char num[64];
		tui_fmt_num(num, sizeof num, v);
		snprintf(buf, len, "%s%s%s", num, strcmp(unit, "%") == 0 ? "" : " ", unit);
	}
}

void tui_fmt_tick_size(char *buf, size_t len, double bytes)
{
	wtg_fmt_size(buf, len, (uint64_t)llround(bytes));
}

void tui_fmt_tick_count(char *buf, size_t len, double v)
{
	static const char sfx[] = " kMGT";
	int u = 0;
	while (fabs(v) >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	char num[32];
	if (v == floor(v))
		snprintf(num, sizeof num, "%.0f", v);
	else
		snprintf(num, sizeof num, "%.1f", v);
	if (u)
		snprintf(buf, len, "%s%c", num, sfx[u]);
	else
		snprintf(buf, len, "%s", num);
}

void tui_fmt_tick_time(char *buf, size_t len, double v, const char *unit)
{
	double ts = tui_time_scale(unit);
	if (ts == 0) {
		tui_fmt_tick_count(buf, len, v);
		return;
	}
	static const char *const units[] = { "ns", "us", "ms", "s" };
	double ns = v * ts;
	int u = 0;
	while (fabs(ns) >= 999.5 && u < 3) {
		ns /= 1e3;
		u++;
	}
	if (ns == 0)
		snprintf(buf, len, "0");
	else if (fabs(ns) >= 9.95 || ns == floor(ns))
		snprintf(buf, len, "%.0f%s", ns, units[u]);
	else
		snprintf(buf, len, "%.1f%s", ns, units[u]);
}

/* ---- rows in words ---- */

static bool ends_with(const char *s, const char *sfx)
{
	size_t n = strlen(s), m = strlen(sfx);
	return n >= m && strcmp(s + n - m, sfx) == 0;
}

/* The column name without a unit suffix, underscores as spaces: "median_ns" -> "median". */
static void stem(char *buf, size_t len, const char *name)
{
	static const char *const unitwords[] = { "ms", "ns", "us", "s", "gbps", "pct" };
	wtg_strlcpy(buf, name, len);
	for (size_t i = 0; i < WTG_ARRAY_LEN(unitwords); i++) {
		char sfx[16];
		snprintf(sfx, sizeof sfx, "_%s", unitwords[i]);
		if (strcmp(buf, unitwords[i]) == 0) {
			buf[0] = '\0';
			break;
		}
		if (ends_with(buf, sfx)) {
			buf[strlen(buf) - strlen(sfx)] = '\0';
			break;
		}
	}
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

/* "threads" -> "thread", "batches" -> "batch", for a count of one. */
static void singular(char *w)
{
	size_t n = strlen(w);
	static const char *const es[] = { "ches", "shes", "sses", "xes" };
	for (size_t i = 0; i < WTG_ARRAY_LEN(es); i++)
		if (ends_with(w, es[i])) {
			w[n - 2] = '\0';
			return;
		}
	if (n > 1 && w[n - 1] == 's' && w[n - 2] != 's')
		w[n - 1] = '\0';
}

void tui_cell_words(char *buf, size_t len, const struct wtg_table *t, int row, int col)
{
	buf[0] = '\0';
	if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
		return;
	const struct wtg_column *c = &t->cols[col];
	const struct wtg_value *v = &t->rows[row].v[col];
	const char *unit = c->unit ? c->unit : "";
	char st[64], val[64];
	stem(st, sizeof st, c->name);
	if (v->type == WTG_T_TEXT) {
		wtg_strlcpy(buf, v->s ? v->s : "", len);
		return;
	}
	double x = wtg_table_num(t, row, col);
	if (v->type == WTG_T_INT && unit[0] == '\0' && strstr(c->name, "sum"))
		snprintf(val, sizeof val, "%lld", (long long)v->i);	/* sums stay raw: they are compared */
	else
		tui_fmt_value(val, sizeof val, x, unit);
	char pfx[64];
	snprintf(pfx, sizeof pfx, "%s_per_", unit);
	if (tui_time_scale(unit) > 0 && strncmp(c->name, pfx, strlen(pfx)) == 0) {
		char rest[64];
		stem(rest, sizeof rest, c->name + strlen(unit) + 1);
		snprintf(buf, len, "%s %s", val, rest);	/* "968 ns per byte" */
	} else if (strcmp(unit, "count") == 0) {
		if (x == 1.0)
			singular(st);
		snprintf(buf, len, "%s %s", val, st);	/* "1,024 read calls", "1 thread" */
	} else if (st[0]) {
		snprintf(buf, len, "%s %s", st, val);	/* "median 85.2 ns", "bufsize 256K" */
	} else {
		snprintf(buf, len, "%s", val);		/* "10.2 ms", "26.1 GB/s" */
	}
}

void tui_row_words(char *buf, size_t len, const struct wtg_table *t, int row, int skip)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int c = 0; c < t->ncols && o + 4 < len; c++) {
		if (c == skip)
			continue;
		const struct wtg_value *v = &t->rows[row].v[c];
		if (v->type == WTG_T_NA || (v->type == WTG_T_REAL && isnan(v->r)))
			continue;
		char cell[128];
		tui_cell_words(cell, sizeof cell, t, row, c);
		if (!cell[0])
			continue;
		int n = snprintf(buf + o, len - o, "%s%s", o ? ", " : "", cell);
		if (n < 0)
			break;
		o += (size_t)n;
		if (o >= len)
			o = len - 1;
	}
}

static void label_cell(char *buf, size_t len, const struct wtg_table *t, int row, int col)
{
	const struct wtg_value *v = &t->rows[row].v[col];
	if (v->type == WTG_T_TEXT) {
		wtg_strlcpy(buf, v->s ? v->s : "", len);
		return;
	}
	tui_fmt_value(buf, len, wtg_table_num(t, row, col), t->cols[col].unit);
}

void tui_row_label(char *buf, size_t len, const struct wtg_table *t, int row, const char *const *cols,
		   int ncols)
{
	size_t o = 0;
	buf[0] = '\0';
	int used = 0;
	for (int i = 0; i < ncols; i++) {
		int c = cols[i] ? wtg_table_col(t, cols[i]) : -1;
		if (c < 0)
			continue;
		char cell[96];
		label_cell(cell, sizeof cell, t, row, c);
		int n = snprintf(buf + o, len - o, "%s%s", used ? " " : "", cell);
		if (n < 0 || (size_t)n >= len - o)
			return;
		o += (size_t)n;
		used++;
	}
	if (used)
		return;
	/* no named column: the row's text columns, else its first column */
	for (int c = 0; c < t->ncols; c++) {
		if (t->rows[row].v[c].type != WTG_T_TEXT)
			continue;
		int n = snprintf(buf + o, len - o, "%s%s", used ? " " : "", t->rows[row].v[c].s);
		if (n < 0 || (size_t)n >= len - o)
			return;
		o += (size_t)n;
		used++;
	}
	if (!used && t->ncols > 0)
		label_cell(buf, len, t, row, 0);
}

/* ---- axes and bins ---- */

double tui_nice_ceil(double v)
{
	if (!(v > 0) || isinf(v))
		return 1;
	double e = pow(10, floor(log10(v)));
	static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
	for (size_t i = 0; i < WTG_ARRAY_LEN(steps); i++)
		if (steps[i] * e >= v * (1 - 1e-12))
			return steps[i] * e;
	return 10 * e;
}

int tui_log_col(double x, double lo, double hi, int cells)
{
	if (cells <= 1 || !(hi > lo) || !(x > 0) || !(lo > 0))
		return 0;
	double f = (log2(x) - log2(lo)) / (log2(hi) - log2(lo));
	long c = lround(f * (cells - 1));
	if (c < 0)
		c = 0;
	if (c > cells - 1)
		c = cells - 1;
	return (int)c;
}

int tui_log_ticks(double lo, double hi, int cells, int minsep, bool bytes, double *ticks, int max)
{
	if (!(lo > 0) || !(hi >= lo) || max <= 0)
		return 0;
	double l0 = log2(lo), l1 = log2(hi);
	if (l1 - l0 < 1e-9) {
		ticks[0] = lo;
		return 1;
	}
	double per = (cells - 1) / (l1 - l0);	/* columns per doubling */
	if (minsep < 1)
		minsep = 1;
	int n = 0;
	bool decades = !bytes && l1 - l0 >= log2(10) - 1e-9;
	if (decades) {
		double d0 = ceil(log10(lo) - 1e-9), d1 = floor(log10(hi) + 1e-9);
		int step = 1;
		while (per * log2(10) * step < minsep && step < 64)
			step *= 2;
		for (double d = ceil(d0 / step) * step; d <= d1 && n < max; d += step)
			ticks[n++] = pow(10, d);
		/* one or two decades only: 1, 2, 5 x 10^k when they are far enough apart */
		if (n < 3 && per >= minsep) {
			int m = 0;
			double t[32];
			for (double d = d0 - 1; d <= d1 && m < 32; d++)
				for (int k = 0; k < 3 && m < 32; k++) {
					double v = (k == 0 ? 1 : k == 1 ? 2 : 5) * pow(10, d);
					if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
						t[m++] = v;
				}
			if (m > n && m <= max) {
				memcpy(ticks, t, (size_t)m * sizeof *t);
				n = m;
			}
		}
		return n;
	}
	int step = 1;
	while (per * step < minsep && step < 64)
		step *= 2;
	double k0 = ceil(l0 - 1e-9), k1 = floor(l1 + 1e-9);
	for (double k = ceil(k0 / step) * step; k <= k1 && n < max; k += step)
		ticks[n++] = ldexp(1, (int)k);
	return n;
}

void tui_bin_edges(double lo, double hi, int n, bool log, double *edges)
{
	if (n < 1)
		return;
	if (log && lo > 0) {
		if (!(hi > lo))
			hi = lo * 2;
		double r = log2(hi / lo);
		for (int i = 0; i <= n; i++)
			edges[i] = lo * exp2(r * i / n);
	} else {
		if (!(hi > lo))
			hi = lo + 1;
		for (int i = 0; i <= n; i++)
			edges[i] = lo + (hi - lo) * i / n;
	}
	edges[n] = hi;
}

int tui_bin_of(double v, const double *edges, int n)
{
	if (!(v >= edges[0]))
		return 0;
	if (v >= edges[n])
		return n - 1;
	int a = 0, b = n;	/* edges[a] <= v < edges[b] */
	while (b - a > 1) {
		int m = (a + b) / 2;
		if (v >= edges[m])
			a = m;
		else
			b = m;
	}
	return a;
}

bool tui_wants_log(double lo, double hi)
{
	return lo > 0 && hi / lo >= 10;
}

int tui_bin_count(size_t n, int cells)
{
	long b = lround(4 * cbrt((double)n));
	if (b < 8)
		b = 8;
	if (b > cells)
		b = cells;
	return b < 1 ? 1 : (int)b;
}

int tui_wrap(WINDOW *w, int y, int x, int width, int maxlines, attr_t a, bool centred, const char *s)
{
	int lines = 0;
	char line[1024];
	while (*s && lines < maxlines && width > 0) {
		/* take words while they fit */
		size_t take = 0, lastsp = 0;
		int cols = 0;
		while (s[take]) {
			wchar_t wc;
			int cw;
			size_t n = next_char(s + take, &wc, &cw);
			if (cols + cw > width)
				break;
			if (s[take] == ' ')
				lastsp = take;
			cols += cw;
			take += n;
		}
		if (s[take] && lastsp > 0)
			take = lastsp;
		if (take >= sizeof line)
			take = sizeof line - 1;
		memcpy(line, s, take);
		line[take] = '\0';
		int lw = tui_width(line);
		tui_put(w, y + lines, centred ? x + (width - lw) / 2 : x, width, a, line);
		lines++;
		s += take;
		while (*s == ' ')
			s++;
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
	for (int i = 0; i < n; i++)
		tui_put_clip(v->w, v->y + v->h - n + i, v->x, v->wd, attrs[i], l, lines[i]);
	return n;
}
