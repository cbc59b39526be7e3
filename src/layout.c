/* layout.c: the chart of a table before it is drawn (columns, scales, ticks, bins, labels), shared by
 * the dashboard's views and the SVG writer. No curses here. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/layout.h"
#include "wtg/stats.h"
#include "wtg/util.h"

/* ---- numbers ---- */

void wtg_lay_fmt_num(char *buf, size_t len, double v)
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

double wtg_lay_time_scale(const char *unit)
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
	wtg_lay_fmt_num(num, sizeof num, v);
	snprintf(buf, len, "%s %s", num, units[u]);
}

void wtg_lay_fmt_value(char *buf, size_t len, double v, const char *unit)
{
	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (!unit)
		unit = "";
	double ts = wtg_lay_time_scale(unit);
	if (strcmp(unit, "B") == 0 && v >= 0) {
		wtg_fmt_size(buf, len, (uint64_t)llround(v));
	} else if (ts > 0) {
		fmt_duration(buf, len, v * ts);
	} else if (strcmp(unit, "count") == 0 || unit[0] == '\0') {
		if (v == floor(v) && fabs(v) < 9e15)
			wtg_fmt_thousands(buf, len, (int64_t)v);
		else
			wtg_lay_fmt_num(buf, len, v);
	} else {
		char num[64];
		wtg_lay_fmt_num(num, sizeof num, v);
		snprintf(buf, len, "%s%s%s", num, strcmp(unit, "%") == 0 ? "" : " ", unit);
	}
}

void wtg_lay_fmt_tick_size(char *buf, size_t len, double bytes)
{
	wtg_fmt_size(buf, len, (uint64_t)llround(bytes));
}

void wtg_lay_fmt_tick_count(char *buf, size_t len, double v)
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

void wtg_lay_fmt_tick_time(char *buf, size_t len, double v, const char *unit)
{
	double ts = wtg_lay_time_scale(unit);
	if (ts == 0) {
		wtg_lay_fmt_tick_count(buf, len, v);
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

void wtg_lay_cell_words(char *buf, size_t len, const struct wtg_table *t, int row, int col)
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
		wtg_lay_fmt_value(val, sizeof val, x, unit);
	char pfx[64];
	snprintf(pfx, sizeof pfx, "%s_per_", unit);
	if (wtg_lay_time_scale(unit) > 0 && strncmp(c->name, pfx, strlen(pfx)) == 0) {
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

void wtg_lay_row_words(char *buf, size_t len, const struct wtg_table *t, int row, int skip)
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
		wtg_lay_cell_words(cell, sizeof cell, t, row, c);
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
	wtg_lay_fmt_value(buf, len, wtg_table_num(t, row, col), t->cols[col].unit);
}

void wtg_lay_row_label(char *buf, size_t len, const struct wtg_table *t, int row, const char *const *cols,
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

double wtg_lay_nice_ceil(double v)
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

double wtg_lay_log_frac(double x, double lo, double hi)
{
	if (!(hi > lo) || !(x > 0) || !(lo > 0))
		return 0;
	double f = (log2(x) - log2(lo)) / (log2(hi) - log2(lo));
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

int wtg_lay_log_col(double x, double lo, double hi, int cells)
{
	if (cells <= 1)
		return 0;
	return (int)lround(wtg_lay_log_frac(x, lo, hi) * (cells - 1));
}

double wtg_lay_frac(double x, double lo, double hi, bool log)
{
	if (log)
		return wtg_lay_log_frac(x, lo, hi);
	double f = hi > lo ? (x - lo) / (hi - lo) : 0;
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

int wtg_lay_lin_ticks(double lo, double hi, int cells, double *ticks, int max)
{
	if (!(hi > lo) || max <= 0)
		return 0;
	double raw = (hi - lo) / (cells / 9.0 > 1 ? cells / 9.0 : 1);
	double e = pow(10, floor(log10(raw))), step = 10 * e;
	if (raw <= e)
		step = e;
	else if (raw <= 2 * e)
		step = 2 * e;
	else if (raw <= 5 * e)
		step = 5 * e;
	int n = 0;
	for (double t = ceil(lo / step) * step; t <= hi + step * 1e-9 && n < max; t += step)
		ticks[n++] = t;
	return n;
}

int wtg_lay_y_intervals(double ymax, int rows, int *decimals)
{
	static const struct {
		double m;
		int n;
	} split[] = { { 1, 4 }, { 1.2, 4 }, { 1.5, 3 }, { 2, 4 }, { 2.5, 5 }, { 3, 3 }, { 4, 4 }, { 5, 5 },
		      { 6, 3 }, { 8, 4 }, { 10, 5 } };
	if (!(ymax > 0))
		ymax = 1;
	double m = ymax / pow(10, floor(log10(ymax)));
	int nt = 4;
	for (size_t i = 0; i < WTG_ARRAY_LEN(split); i++)
		if (fabs(m - split[i].m) < 1e-6)
			nt = split[i].n;
	while (nt > 1 && rows < nt * 2)
		nt = nt % 2 == 0 ? nt / 2 : 1;
	double step = ymax / nt;
	int dec = 0;
	while (dec < 6 && fabs(step * pow(10, dec) - round(step * pow(10, dec))) > 1e-6)
		dec++;
	if (decimals)
		*decimals = dec;
	return nt;
}

int wtg_lay_log_ticks(double lo, double hi, int cells, int minsep, bool bytes, double *ticks, int max)
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

void wtg_lay_bin_edges(double lo, double hi, int n, bool log, double *edges)
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

int wtg_lay_bin_of(double v, const double *edges, int n)
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

bool wtg_lay_wants_log(double lo, double hi)
{
	return lo > 0 && hi / lo >= 10;
}

int wtg_lay_bin_count(size_t n, int cells)
{
	long b = lround(4 * cbrt((double)n));
	if (b < 8)
		b = 8;
	if (b > cells)
		b = cells;
	return b < 1 ? 1 : (int)b;
}
/* ---- sweep ---- */

/* The sweep the experiment declares, or NULL: then the first numeric column is x and its GB/s
 * column (or its last numeric one) y. */
static const struct wtg_sweep_spec *sweep_spec(const struct wtg_experiment *e)
{
	return e && e->sweep.x ? &e->sweep : NULL;
}

static bool numeric(const struct wtg_table *t, int c)
{
	return t->cols[c].type == WTG_T_INT || t->cols[c].type == WTG_T_REAL;
}

static int cmp_point(const void *a, const void *b)
{
	const double *p = a, *q = b;
	return (p[0] > q[0]) - (p[0] < q[0]);
}

/* Column `<name>_<suffix>`, or -1. */
static int suffixed_col(const struct wtg_table *t, const char *name, const char *suffix)
{
	char want[96];
	snprintf(want, sizeof want, "%s_%s", name, suffix);
	return wtg_table_col(t, want);
}

/* Rows measured under different conditions (a key pressed during a run applies from the next row)
 * are never one series: cls[r] gets row r's class, the distinct conditions in order of appearance
 * (at most max; later ones join the last), names[k] their words. Returns how many classes. */
static int cond_classes(const struct wtg_table *t, int *cls, char (*names)[48], int max)
{
	int n = 0;
	const struct wtg_cond_snapshot *first[WTG_LAY_MAX_SERIES];
	for (int r = 0; r < t->nrows; r++) {
		int k = 0;
		while (k < n && !wtg_cond_same(&t->rows[r].cond, first[k]))
			k++;
		if (k == n && n < max && n < WTG_LAY_MAX_SERIES) {
			first[n] = &t->rows[r].cond;
			wtg_lay_cond_words(names[n], sizeof names[n], first[n]);
			n++;
		}
		cls[r] = k < n ? k : n - 1;
	}
	return n;
}

static void add_points(struct wtg_lay_series *s, const struct wtg_table *t, int xc, int yc, int gc,
		       const char *gval, const int *cls, int want)
{
	int cl = suffixed_col(t, t->cols[yc].name, "ci_low"), ch = suffixed_col(t, t->cols[yc].name, "ci_high");
	size_t cap = (size_t)(t->nrows > 0 ? t->nrows : 1);
	double *pts = malloc(cap * 4 * sizeof *pts);
	s->x = malloc(cap * sizeof *s->x);
	s->y = malloc(cap * sizeof *s->y);
	s->lo = malloc(cap * sizeof *s->lo);
	s->hi = malloc(cap * sizeof *s->hi);
	s->n = 0;
	if (!pts || !s->x || !s->y || !s->lo || !s->hi) {
		free(pts);
		return;
	}
	int n = 0;
	for (int r = 0; r < t->nrows; r++) {
		if (gc >= 0) {
			const struct wtg_value *g = &t->rows[r].v[gc];
			if (g->type != WTG_T_TEXT || strcmp(g->s, gval) != 0)
				continue;
		}
		if (cls && cls[r] != want)
			continue;
		double x = wtg_table_num(t, r, xc), y = wtg_table_num(t, r, yc);
		if (!(x > 0) || isnan(y) || isinf(y))
			continue;
		double *p = pts + 4 * n++;
		p[0] = x;
		p[1] = y;
		p[2] = cl >= 0 && ch >= 0 ? wtg_table_num(t, r, cl) : NAN;
		p[3] = cl >= 0 && ch >= 0 ? wtg_table_num(t, r, ch) : NAN;
	}
	qsort(pts, (size_t)n, 4 * sizeof *pts, cmp_point);
	for (int i = 0; i < n; i++) {
		s->x[i] = pts[4 * i];
		s->y[i] = pts[4 * i + 1];
		s->lo[i] = pts[4 * i + 2];
		s->hi[i] = pts[4 * i + 3];
		s->has_ci = s->has_ci || (!isnan(s->lo[i]) && !isnan(s->hi[i]));
	}
	s->n = n;
	free(pts);
}

static void series_name(char *buf, size_t len, const char *col)
{
	wtg_strlcpy(buf, col, len);
	char *u = strrchr(buf, '_');
	if (u && u != buf)
		*u = '\0';
}

/* The x column and up to three y columns: the map's, else the first numeric and the GB/s ones (or
 * the last numeric one). Returns how many y columns. */
static int sweep_columns(const struct wtg_table *t, const struct wtg_sweep_spec *m, int *xcp, int yc[3])
{
	int xc = m ? wtg_table_col(t, m->x) : -1;
	int ny = 0;
	if (m)
		for (int i = 0; i < 3 && m->y[i]; i++)
			if ((yc[ny] = wtg_table_col(t, m->y[i])) >= 0)
				ny++;
	if (xc < 0)
		for (int c = 0; c < t->ncols && xc < 0; c++)
			if (numeric(t, c))
				xc = c;
	if (ny == 0) {
		for (int c = 0; c < t->ncols && ny < 3; c++)
			if (c != xc && numeric(t, c) && t->cols[c].unit && strcmp(t->cols[c].unit, "GB/s") == 0)
				yc[ny++] = c;
		for (int c = t->ncols - 1; c >= 0 && ny == 0; c--)
			if (c != xc && numeric(t, c))
				yc[ny++] = c;
	}
	*xcp = xc;
	return ny;
}

/* One series per distinct value of the group column, first y column only. */
static void sweep_groups(struct wtg_lay_sweep *p, const struct wtg_table *t, int xc, int yc, int gc)
{
	for (int r = 0; r < t->nrows && p->ns < WTG_LAY_MAX_SERIES; r++) {
		const struct wtg_value *g = &t->rows[r].v[gc];
		if (g->type != WTG_T_TEXT || isnan(wtg_table_num(t, r, yc)) || !(wtg_table_num(t, r, xc) > 0))
			continue;
		bool seen = false;
		for (int k = 0; k < p->ns; k++)
			seen = seen || strcmp(p->s[k].name, g->s) == 0;
		if (seen)
			continue;
		wtg_strlcpy(p->s[p->ns].name, g->s, sizeof p->s[p->ns].name);
		add_points(&p->s[p->ns], t, xc, yc, gc, g->s, NULL, 0);
		p->ns++;
	}
}

/* A log y axis: from the power of ten at or below the smallest positive point (or CI end) to the one
 * at or above the largest, at least one decade. */
static void log_range(struct wtg_lay_sweep *p)
{
	double lo = INFINITY, hi = 0;
	for (int k = 0; k < p->ns; k++)
		for (int i = 0; i < p->s[k].n; i++) {
			double v[3] = { p->s[k].y[i], p->s[k].lo[i], p->s[k].hi[i] };
			for (int j = 0; j < 3; j++)
				if (v[j] > 0 && isfinite(v[j])) {
					lo = fmin(lo, v[j]);
					hi = fmax(hi, v[j]);
				}
		}
	if (!(hi > 0)) {
		p->ymin = 1;
		p->ymax = 10;
		return;
	}
	p->ymin = pow(10, floor(log10(lo) + 1e-9));
	p->ymax = pow(10, ceil(log10(hi) - 1e-9));
	if (p->ymax < p->ymin * 10)
		p->ymax = p->ymin * 10;
}

double wtg_lay_y_frac(const struct wtg_lay_sweep *p, double y)
{
	double f;
	if (p->ylog)
		f = y > 0 && p->ymin > 0 && p->ymax > p->ymin ? log(y / p->ymin) / log(p->ymax / p->ymin) : 0;
	else
		f = p->ymax > 0 ? y / p->ymax : 0;
	return isnan(f) ? 0 : fmin(fmax(f, 0), 1);
}

int wtg_lay_y_ticks(const struct wtg_lay_sweep *p, int rows, double *ticks, char (*labels)[32], int max)
{
	int n = 0;
	if (p->ylog && p->ymin > 0 && p->ymax > p->ymin) {
		int decades = (int)lround(log10(p->ymax / p->ymin));
		int step = 1;
		while (decades / step > 0 && rows < 2 * (decades / step))
			step++;
		for (int d = 0; d <= decades && n < max; d += step) {
			ticks[n] = p->ymin * pow(10, d);
			if (ticks[n] >= 1)
				wtg_lay_fmt_tick_count(labels[n], sizeof labels[n], ticks[n]);
			else
				snprintf(labels[n], sizeof labels[n], "%g", ticks[n]);
			n++;
		}
		return n;
	}
	double ymax = p->ymax > 0 ? p->ymax : 1;
	int dec = 0;
	int nt = wtg_lay_y_intervals(ymax, rows, &dec);
	for (int k = 0; k <= nt && n < max; k++, n++) {
		ticks[n] = ymax * k / nt;
		if (dec == 0 && ymax >= 10000)
			wtg_lay_fmt_tick_count(labels[n], sizeof labels[n], ticks[n]);	/* 120k, not 120000 */
		else
			snprintf(labels[n], sizeof labels[n], "%.*f", dec, ticks[n]);
	}
	return n;
}

void wtg_lay_sweep_build(struct wtg_lay_sweep *p, const struct wtg_table *t, const struct wtg_experiment *e)
{
	memset(p, 0, sizeof *p);
	const struct wtg_sweep_spec *m = sweep_spec(e);
	int xc, yc[3] = { -1, -1, -1 };
	int ny = sweep_columns(t, m, &xc, yc);
	p->xcol = xc;
	p->xlo = m ? m->xlo : 0;
	p->xhi = m ? m->xhi : 0;
	p->xtitle = m ? m->xtitle : (xc >= 0 ? t->cols[xc].name : "");
	p->xunit = xc >= 0 && t->cols[xc].unit ? t->cols[xc].unit : "";
	p->yunit = ny > 0 && t->cols[yc[0]].unit ? t->cols[yc[0]].unit : "";
	p->bytes = strcmp(p->xunit, "B") == 0;
	p->cache_marks = m && m->cache_marks;
	p->ylog = m && m->ylog;
	if (xc < 0 || ny == 0)
		return;
	int gc = m && m->group ? wtg_table_col(t, m->group) : -1;
	int *cls = malloc((size_t)(t->nrows > 0 ? t->nrows : 1) * sizeof *cls);
	char names[WTG_LAY_MAX_SERIES][48];
	int ncls = cls ? cond_classes(t, cls, names, WTG_LAY_MAX_SERIES) : 0;
	if (ncls > 1) {
		/* a series per condition (of the first y column, groups set aside): never one line
		 * through points measured under different conditions */
		for (int k = 0; k < ncls; k++) {
			wtg_strlcpy(p->s[p->ns].name, names[k], sizeof p->s[p->ns].name);
			add_points(&p->s[p->ns], t, xc, yc[0], -1, NULL, cls, k);
			p->ns++;
		}
		p->mixed = true;
	} else if (gc >= 0) {
		sweep_groups(p, t, xc, yc[0], gc);
	} else {
		for (int i = 0; i < ny && p->ns < WTG_LAY_MAX_SERIES; i++) {
			series_name(p->s[p->ns].name, sizeof p->s[p->ns].name, t->cols[yc[i]].name);
			add_points(&p->s[p->ns], t, xc, yc[i], -1, NULL, NULL, 0);
			p->ns++;
		}
	}
	free(cls);
	p->legend = p->ns > 1 || (p->ns == 1 && m && m->group);
	double ymax = 0;
	for (int k = 0; k < p->ns; k++)
		for (int i = 0; i < p->s[k].n; i++) {
			double x = p->s[k].x[i];
			if (p->xlo <= 0 || x < p->xlo)
				p->xlo = x;
			if (p->xhi <= 0 || x > p->xhi)
				p->xhi = x;
			ymax = fmax(ymax, p->s[k].y[i]);
			if (!isnan(p->s[k].hi[i]) && !isinf(p->s[k].hi[i]))
				ymax = fmax(ymax, p->s[k].hi[i]);
		}
	p->ymax = wtg_lay_nice_ceil(ymax);
	if (p->ylog)
		log_range(p);
}

void wtg_lay_sweep_free(struct wtg_lay_sweep *p)
{
	for (int k = 0; k < p->ns; k++) {
		free(p->s[k].x);
		free(p->s[k].y);
		free(p->s[k].lo);
		free(p->s[k].hi);
	}
	p->ns = 0;
}

/* ---- several runs ---- */

void wtg_lay_cond_words(char *buf, size_t len, const struct wtg_cond_snapshot *c)
{
	size_t n = 0;
	buf[0] = '\0';
	if (c->burners > 0)
		n += (size_t)snprintf(buf, len, "burners %d %s", c->burners, c->burn_kind == WTG_BURN_STREAM ? "stream" : "spin");
	if (c->background && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%sbackground", n ? ", " : "");
	if (c->uncached && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%suncached", n ? ", " : "");
	if (n == 0)
		snprintf(buf, len, "quiet");
}

void wtg_lay_table_conditions(char *buf, size_t len, const struct wtg_table *t)
{
	buf[0] = '\0';
	if (t->nrows == 0)
		return;
	for (int r = 1; r < t->nrows; r++)
		if (!wtg_cond_same(&t->rows[r].cond, &t->rows[0].cond)) {
			snprintf(buf, len, "mixed conditions");
			return;
		}
	wtg_lay_cond_words(buf, len, &t->rows[0].cond);
}

/* ---- bars ---- */

/* The bars the experiment declares, or NULL: then its text columns label the bars and its first
 * timing or throughput column is the value. */
static const struct wtg_bars_spec *bars_spec(const struct wtg_experiment *e)
{
	return e && e->bars.value ? &e->bars : NULL;
}

static bool is_unit(const struct wtg_table *t, int c, const char *u)
{
	return t->cols[c].unit && strcmp(t->cols[c].unit, u) == 0;
}

static int pick_value(const struct wtg_table *t, const struct wtg_bars_spec *m)
{
	int c = m ? wtg_table_col(t, m->value) : -1;
	if (c >= 0)
		return c;
	static const char *const units[] = { "ms", "GB/s", "ns", "us", "s" };
	for (size_t u = 0; u < WTG_ARRAY_LEN(units); u++)
		for (c = 0; c < t->ncols; c++)
			if (numeric(t, c) && is_unit(t, c, units[u]))
				return c;
	for (c = t->ncols - 1; c >= 0; c--)
		if (t->cols[c].type == WTG_T_REAL)
			return c;
	return -1;
}

/* The bar's label: the map's columns (numeric ones named when asked), n/a cells left out. */
static void bar_label(char *buf, size_t len, const struct wtg_table *t, int r, const struct wtg_bars_spec *m)
{
	if (!m) {
		wtg_lay_row_label(buf, len, t, r, NULL, 0);
		return;
	}
	size_t o = 0;
	bool one = false;	/* the last label is the count 1: "1 thread" */
	buf[0] = '\0';
	for (int i = 0; i < 2 && m->label[i]; i++) {
		int c = wtg_table_col(t, m->label[i]);
		if (c < 0)
			continue;
		const struct wtg_value *v = &t->rows[r].v[c];
		char cell[96];
		if (v->type == WTG_T_TEXT) {
			wtg_strlcpy(cell, v->s, sizeof cell);
		} else {
			double x = wtg_table_num(t, r, c);
			if (isnan(x))
				continue;
			one = x == 1;
			char num[64];
			wtg_lay_fmt_value(num, sizeof num, x, t->cols[c].unit);
			if (m->named)
				snprintf(cell, sizeof cell, "%s %s", t->cols[c].name, num);
			else
				wtg_strlcpy(cell, num, sizeof cell);
		}
		int k = snprintf(buf + o, len - o, "%s%s", o ? " " : "", cell);
		if (k < 0 || (size_t)k >= len - o)
			return;
		o += (size_t)k;
	}
	if (m->ideal)
		snprintf(buf + o, len - o, "%s", one ? " thread" : " threads");
}

/* Colour by the first label when it names at most three groups (kernels, loops, variants). */
static void bar_groups(struct wtg_lay_bars *b, const struct wtg_table *t, int lc0)
{
	bool grouped = lc0 >= 0 && t->cols[lc0].type == WTG_T_TEXT;
	b->ngroups = 0;
	for (int r = 0; r < b->n && grouped; r++) {
		const char *g = t->rows[r].v[lc0].s;
		int k = 0;
		while (k < b->ngroups && strcmp(b->groups[k], g) != 0)
			k++;
		if (k == b->ngroups) {
			if (b->ngroups == 3)
				grouped = false;
			else
				b->groups[b->ngroups++] = g;
		}
		b->b[r].group = k;
	}
	if (!grouped) {
		b->ngroups = 0;
		for (int r = 0; r < b->n; r++)
			b->b[r].group = -1;
	}
}

/* Rows measured under different conditions: the bars are coloured by condition instead (their
 * words in groups[]), so a bar never passes for one run's when it is another's. */
static void bar_cond_groups(struct wtg_lay_bars *b, const struct wtg_table *t)
{
	int *cls = malloc((size_t)(t->nrows > 0 ? t->nrows : 1) * sizeof *cls);
	int n = cls ? cond_classes(t, cls, b->cond_names, 3) : 0;
	if (n > 1) {
		b->mixed = true;
		b->ngroups = n;
		for (int k = 0; k < n; k++)
			b->groups[k] = b->cond_names[k];
		for (int r = 0; r < b->n && r < t->nrows; r++)
			b->b[r].group = cls[r];
	}
	free(cls);
}

/* The interval columns of a bar: the map's, else `<value>_ci_low` and `<value>_ci_high`. */
static void bar_ci_cols(const struct wtg_table *t, const struct wtg_bars_spec *m, int vc, int *cl, int *ch)
{
	*cl = m && m->ci[0] ? wtg_table_col(t, m->ci[0]) : -1;
	*ch = m && m->ci[1] ? wtg_table_col(t, m->ci[1]) : -1;
	if (*cl < 0 || *ch < 0) {
		*cl = suffixed_col(t, t->cols[vc].name, "ci_low");
		*ch = suffixed_col(t, t->cols[vc].name, "ci_high");
	}
}

int wtg_lay_bars_build(struct wtg_lay_bars *b, const struct wtg_table *t, const struct wtg_experiment *e)
{
	memset(b, 0, sizeof *b);
	b->base = NAN;
	const struct wtg_bars_spec *m = bars_spec(e);
	int vc = pick_value(t, m);
	if (vc < 0 || t->nrows == 0)
		return -1;
	b->b = calloc((size_t)t->nrows, sizeof *b->b);
	if (!b->b)
		return -1;
	b->n = t->nrows;
	int ec = m && m->extra ? wtg_table_col(t, m->extra) : -1, cl, ch;
	bar_ci_cols(t, m, vc, &cl, &ch);
	b->unit = t->cols[vc].unit ? t->cols[vc].unit : "";
	int lc0 = m ? wtg_table_col(t, m->label[0]) : -1;
	/* the count the ideal scales by: the first numeric label (threads after a text group) */
	int nc = m && m->label[1] && (lc0 < 0 || t->cols[lc0].type == WTG_T_TEXT) ? wtg_table_col(t, m->label[1]) : lc0;
	b->ideal = m && m->ideal;
	/* the table's own ideal (threads: capped at the CPUs) wins over 1 thread x N */
	int ic = b->ideal ? wtg_table_col(t, "ideal_gbps") : -1;
	b->ideal_capped = ic >= 0;
	for (int r = 0; r < b->n && b->ideal && nc >= 0; r++)
		if (wtg_table_num(t, r, nc) == 1 && isnan(b->base))
			b->base = wtg_table_num(t, r, vc);
	double vmax = 0;
	for (int r = 0; r < b->n; r++) {
		struct wtg_lay_bar *br = &b->b[r];
		bar_label(br->label, sizeof br->label, t, r, m);
		br->x = wtg_table_num(t, r, vc);
		wtg_lay_fmt_value(br->value, sizeof br->value, br->x, b->unit);
		if (ec >= 0 && !isnan(wtg_table_num(t, r, ec))) {
			char w[64];
			wtg_lay_cell_words(w, sizeof w, t, r, ec);
			size_t o = strlen(br->value);
			snprintf(br->value + o, sizeof br->value - o, "  %s", w);
		}
		vmax = fmax(vmax, fabs(br->x));
		b->neg = b->neg || br->x < 0;
		br->ci_lo = cl >= 0 && ch >= 0 ? wtg_table_num(t, r, cl) : NAN;
		br->ci_hi = cl >= 0 && ch >= 0 ? wtg_table_num(t, r, ch) : NAN;
		if (!isnan(br->ci_lo) && !isnan(br->ci_hi)) {
			vmax = fmax(vmax, fmax(fabs(br->ci_lo), fabs(br->ci_hi)));
			b->neg = b->neg || br->ci_lo < 0;
			b->has_ci = true;
		}
		br->ideal = ic >= 0				 ? wtg_table_num(t, r, ic)
			    : b->ideal && nc >= 0 && b->base > 0 ? b->base * wtg_table_num(t, r, nc)
								  : NAN;
	}
	b->scale = vmax;
	for (int r = 0; r < b->n; r++)
		if (b->b[r].ideal > b->scale && b->b[r].ideal <= 3 * vmax)
			b->scale = b->b[r].ideal;
	if (!(b->scale > 0))
		b->scale = 1;
	bar_groups(b, t, lc0);
	bar_cond_groups(b, t);
	for (int r = 0; r < b->n; r++)
		b->b[r].run = -1;
	return 0;
}

int wtg_lay_bars_merge(struct wtg_lay_bars *out, const struct wtg_lay_bars *in, int n)
{
	int total = 0, last = -1;
	memset(out, 0, sizeof *out);
	out->base = NAN;
	for (int k = 0; k < n; k++)
		if (in[k].n > 0) {
			total += in[k].n;
			last = k;
		}
	if (total == 0 || !(out->b = calloc((size_t)total, sizeof *out->b)))
		return -1;
	const struct wtg_lay_bars *l = &in[last];
	out->unit = l->unit;
	out->base = l->base;
	out->ideal = l->ideal;
	out->ideal_capped = l->ideal_capped;
	out->scale = 0;
	/* each label in the order it first appears, then every run's bar of that label */
	for (int k = 0; k < n; k++)
		for (int i = 0; i < in[k].n; i++) {
			const char *label = in[k].b[i].label;
			bool seen = false;
			for (int j = 0; j < out->n && !seen; j++)
				seen = strcmp(out->b[j].label, label) == 0;
			for (int q = k; q < n && !seen; q++)
				for (int r = 0; r < in[q].n; r++)
					if (strcmp(in[q].b[r].label, label) == 0) {
						struct wtg_lay_bar *o = &out->b[out->n++];
						*o = in[q].b[r];
						o->run = q;
						o->first = q == k;
						if (q != last)
							o->ideal = NAN;
						break;
					}
		}
	for (int k = 0; k < n; k++) {
		out->scale = fmax(out->scale, in[k].n ? in[k].scale : 0);
		out->neg = out->neg || in[k].neg;
		out->has_ci = out->has_ci || in[k].has_ci;
	}
	if (!(out->scale > 0))
		out->scale = 1;
	return 0;
}

void wtg_lay_bars_free(struct wtg_lay_bars *b)
{
	free(b->b);
	b->b = NULL;
	b->n = 0;
}

/* ---- histogram ---- */

/* Add series s of t as a distribution: false when it has no samples or is not in the first's unit. */
static bool add_dist(struct wtg_lay_hist *h, const struct wtg_table *t, const struct wtg_series *s, const char *name)
{
	struct wtg_lay_dist *d = &h->d[h->nd];
	if (s->n == 0 || (h->nd > 0 && strcmp(s->unit, h->d[0].s->unit) != 0))
		return false;
	d->sorted = malloc(s->n * sizeof *d->sorted);
	if (!d->sorted)
		return false;
	d->s = s;
	d->t = t;
	d->name = name;
	memcpy(d->sorted, s->v, s->n * sizeof *s->v);
	wtg_sort(d->sorted, s->n);
	d->n = s->n;
	d->min = d->sorted[0];
	d->max = d->sorted[s->n - 1];
	d->med = wtg_quantile_sorted(d->sorted, s->n, 0.5);
	d->p90 = wtg_quantile_sorted(d->sorted, s->n, 0.9);
	d->p99 = wtg_quantile_sorted(d->sorted, s->n, 0.99);
	h->maxn = d->n > h->maxn ? d->n : h->maxn;
	h->nd++;
	return true;
}

/* The shared scale of the distributions. */
static int hist_scale(struct wtg_lay_hist *h)
{
	double lo = INFINITY, lo_pos = INFINITY, hi = -INFINITY;
	for (int i = 0; i < h->nd; i++) {
		lo = fmin(lo, h->d[i].min);
		hi = fmax(hi, h->d[i].max);
		for (size_t k = 0; k < h->d[i].n; k++)
			if (h->d[i].sorted[k] > 0) {
				lo_pos = fmin(lo_pos, h->d[i].sorted[k]);
				break;
			}
	}
	h->log = wtg_lay_wants_log(lo_pos, hi);
	if (h->log) {
		h->zeros = lo <= 0;
		lo = lo_pos;
	}
	if (!(hi > lo))
		hi = h->log ? lo * 2 : lo + 1;
	h->lo = lo;
	h->hi = hi;
	return h->nd;
}

int wtg_lay_hist_build(struct wtg_lay_hist *h, const struct wtg_table *t)
{
	memset(h, 0, sizeof *h);
	/* one scale: the distributions in the first one's unit (fault counts beside times stay out) */
	for (int i = 0; i < t->nseries && h->nd < WTG_LAY_TABLE_DIST; i++)
		add_dist(h, t, &t->series[i], t->series[i].name);
	return hist_scale(h);
}

int wtg_lay_hist_build_runs(struct wtg_lay_hist *h, const struct wtg_table *const *t, const char *const *name,
			    int n)
{
	memset(h, 0, sizeof *h);
	for (int k = 0; k < n && h->nd < WTG_LAY_MAX_DIST; k++)
		for (int i = 0; i < t[k]->nseries; i++)
			if (add_dist(h, t[k], &t[k]->series[i], name[k]))
				break;
	return hist_scale(h);
}

int wtg_lay_hist_bin(struct wtg_lay_hist *h, int cells)
{
	free(h->edges);
	h->nb = wtg_lay_bin_count(h->maxn, cells);
	h->edges = malloc((size_t)(h->nb + 1) * sizeof *h->edges);
	if (!h->edges)
		return -1;
	wtg_lay_bin_edges(h->lo, h->hi, h->nb, h->log, h->edges);
	for (int i = 0; i < h->nd; i++) {
		struct wtg_lay_dist *d = &h->d[i];
		free(d->bins);
		d->peak = 0;
		d->bins = calloc((size_t)h->nb, sizeof *d->bins);
		if (!d->bins)
			return -1;
		for (size_t k = 0; k < d->n; k++) {
			int b = wtg_lay_bin_of(d->sorted[k], h->edges, h->nb);
			if (++d->bins[b] > d->peak)
				d->peak = d->bins[b];
		}
	}
	return 0;
}

void wtg_lay_hist_free(struct wtg_lay_hist *h)
{
	for (int i = 0; i < h->nd; i++) {
		free(h->d[i].sorted);
		free(h->d[i].bins);
	}
	free(h->edges);
	memset(h, 0, sizeof *h);
}

/* The row whose label column names this series, or -1. */
static int row_for(const struct wtg_table *t, const char *name)
{
	/* the experiment's declared label column, else any text column */
	int only = t->exp && t->exp->hist.label ? wtg_table_col(t, t->exp->hist.label) : -1;
	for (int r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			if ((only < 0 || c == only) && t->rows[r].v[c].type == WTG_T_TEXT &&
			    strcmp(t->rows[r].v[c].s, name) == 0)
				return r;
	return -1;
}

static double row_num(const struct wtg_table *t, int r, const char *col, double fallback)
{
	int c = wtg_table_col(t, col);
	double v = r >= 0 && c >= 0 ? wtg_table_num(t, r, c) : NAN;
	return isnan(v) ? fallback : v;
}

void wtg_lay_hist_figures(char *buf, size_t len, const struct wtg_table *t, const struct wtg_lay_dist *d,
			  const char *dash)
{
	int r = row_for(t, d->s->name);
	const char *u = d->s->unit;
	/* the rows carry ns; the samples carry their own unit */
	double k = wtg_lay_time_scale(u) > 0 ? wtg_lay_time_scale(u) : 1;
	const char *ru = wtg_lay_time_scale(u) > 0 ? "ns" : u;
	char med[32], lo[32], hi[32], p90[32], p99[32], mx[32];
	wtg_lay_fmt_value(med, sizeof med, row_num(t, r, "median_ns", d->med * k), ru);
	wtg_lay_fmt_value(p90, sizeof p90, row_num(t, r, "p90_ns", d->p90 * k), ru);
	wtg_lay_fmt_value(p99, sizeof p99, row_num(t, r, "p99_ns", d->p99 * k), ru);
	wtg_lay_fmt_value(mx, sizeof mx, row_num(t, r, "max_ns", d->max * k), ru);
	double cl = row_num(t, r, "ci_low_ns", NAN), ch = row_num(t, r, "ci_high_ns", NAN);
	char ci[80] = "";
	if (!isnan(cl) && !isnan(ch)) {
		wtg_lay_fmt_value(lo, sizeof lo, cl, ru);
		wtg_lay_fmt_value(hi, sizeof hi, ch, ru);
		snprintf(ci, sizeof ci, " [%s%s%s]", lo, dash, hi);
	}
	char drift[48] = "";
	double dp = row_num(t, r, "drift_pct", NAN);
	if (!isnan(dp))
		snprintf(drift, sizeof drift, ", drift %+.1f%%", dp);
	snprintf(buf, len, "%s: n %zu, median %s%s, p90 %s, p99 %s, max %s%s", d->name, d->n, med, ci, p90,
		 p99, mx, drift);
}

/* ---- counters ---- */

static const struct {
	const char *col, *name;
} friendly[] = {
	{ "ms", "time" },
	{ "minflt", "minor faults" },
	{ "majflt", "major faults" },
	{ "gbps", "throughput" },
	{ "ns_per_fault", "time per fault" },
	{ "vcsw", "voluntary switches" },
	{ "ivcsw", "involuntary switches" },
};

static void metric_name(char *buf, size_t len, const char *col)
{
	for (size_t i = 0; i < WTG_ARRAY_LEN(friendly); i++)
		if (strcmp(friendly[i].col, col) == 0) {
			wtg_strlcpy(buf, friendly[i].name, len);
			return;
		}
	wtg_strlcpy(buf, col, len);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}



static int add_metric(struct wtg_lay_grid *g, const char *name, const char *unit, bool derived)
{
	if (g->nm >= WTG_LAY_MAX_METRICS)
		return -1;
	int m = g->nm++;
	wtg_strlcpy(g->name[m], name, sizeof g->name[m]);
	wtg_strlcpy(g->unit[m], unit, sizeof g->unit[m]);
	g->derived[m] = derived;
	for (int k = 0; k < WTG_LAY_MAX_CASES; k++)
		g->cell[m][k][0] = g->bare[m][k][0] = '\0';
	return m;
}

static void set_cell(struct wtg_lay_grid *g, int m, int k, double v, const char *unit)
{
	if (m < 0)
		return;
	wtg_lay_fmt_value(g->cell[m][k], WTG_LAY_CELL, v, unit);
	double ts = wtg_lay_time_scale(unit);
	if (isnan(v))
		snprintf(g->bare[m][k], WTG_LAY_CELL, "n/a");
	else if (ts > 0 || strcmp(unit, "GB/s") == 0 || strcmp(unit, "%") == 0)
		wtg_lay_fmt_num(g->bare[m][k], WTG_LAY_CELL, v);	/* the header carries the unit */
	else
		wtg_lay_fmt_value(g->bare[m][k], WTG_LAY_CELL, v, unit);
}

static bool label_has(const struct wtg_table *t, int r, const char *word)
{
	for (int c = 0; c < t->ncols; c++)
		if (t->rows[r].v[c].type == WTG_T_TEXT && strstr(t->rows[r].v[c].s, word))
			return true;
	return false;
}

/* The row whose label is row r's with `from` replaced by `to` ("cold read" -> "warm read"), or -1. */
static int partner(const struct wtg_table *t, int r, const char *from, const char *to)
{
	char want[128] = "", lab[128];
	wtg_lay_row_label(lab, sizeof lab, t, r, NULL, 0);
	char *p = strstr(lab, from);
	if (!p)
		return -1;
	snprintf(want, sizeof want, "%.*s%s%s", (int)(p - lab), lab, to, p + strlen(from));
	for (int q = 0; q < t->nrows; q++) {
		wtg_lay_row_label(lab, sizeof lab, t, q, NULL, 0);
		if (q != r && strcmp(lab, want) == 0)
			return q;
	}
	return -1;
}

void wtg_lay_grid_build(struct wtg_lay_grid *g, const struct wtg_table *t)
{
	memset(g, 0, sizeof *g);
	int n = t->nrows;
	g->ncases = n < WTG_LAY_MAX_CASES ? n : WTG_LAY_MAX_CASES;
	g->first = n - g->ncases;
	bool labels = false;
	for (int c = 0; c < t->ncols; c++)
		labels = labels || t->cols[c].type == WTG_T_TEXT;
	/* without a text label, the repetition counter the experiment declares names the cases */
	const char *counter = t->exp ? t->exp->counters.counter : NULL;
	int rc = counter ? wtg_table_col(t, counter) : -1;
	for (int k = 0; k < g->ncases; k++) {
		if (labels)
			wtg_lay_row_label(g->head[k], sizeof g->head[k], t, g->first + k, NULL, 0);
		else if (rc >= 0)
			snprintf(g->head[k], sizeof g->head[k], "%s %.0f", t->cols[rc].name,
				 wtg_table_num(t, g->first + k, rc));
		else
			snprintf(g->head[k], sizeof g->head[k], "row %d", g->first + k + 1);
	}
	for (int c = 0; c < t->ncols; c++) {
		if (t->cols[c].type == WTG_T_TEXT || (c == rc && !labels))
			continue;
		char nm[48];
		const char *unit = t->cols[c].unit ? t->cols[c].unit : "";
		metric_name(nm, sizeof nm, t->cols[c].name);
		int m = add_metric(g, nm, unit, false);
		for (int k = 0; k < g->ncases; k++)
			set_cell(g, m, k, wtg_table_num(t, g->first + k, c), unit);
	}
	/* derived here unless the experiment reports them */
	int cmin = wtg_table_col(t, "minflt"), cpages = wtg_table_col(t, "pages");
	if (cmin >= 0 && cpages >= 0) {
		int a = -1, b = -1;
		if (wtg_table_col(t, "faults_per_page") < 0)
			a = add_metric(g, "faults per page", "", true);
		bool own = wtg_table_col(t, "pages_per_fault") >= 0;
		for (int k = 0; k < g->ncases; k++) {
			double f = wtg_table_num(t, g->first + k, cmin);
			double p = wtg_table_num(t, g->first + k, cpages);
			set_cell(g, a, k, p > 0 ? f / p : NAN, "");
			/* Linux maps around a fault: fewer faults than pages */
			if (f > 0 && f < p && b < 0 && !own)
				b = add_metric(g, "pages per fault", "", true);
		}
		for (int k = 0; k < g->ncases && b >= 0; k++) {
			double f = wtg_table_num(t, g->first + k, cmin);
			double p = wtg_table_num(t, g->first + k, cpages);
			set_cell(g, b, k, f > 0 ? p / f : NAN, "");
		}
	}
}

int wtg_lay_counter_figures(const struct wtg_table *t, const struct wtg_experiment *e, char fig[][256],
			    int max, const char *dash, const char *times)
{
	int nfig = 0;
	int cmin = wtg_table_col(t, "minflt"), cms = wtg_table_col(t, "ms");
	bool by_difference = e && e->counters.by_difference;
	if (by_difference && wtg_table_col(t, "ns_per_fault") < 0 && cmin >= 0 && cms >= 0 && t->nrows >= 2) {
		int a = 0, b = 0;	/* most and fewest faults */
		for (int r = 0; r < t->nrows; r++) {
			if (wtg_table_num(t, r, cmin) > wtg_table_num(t, a, cmin))
				a = r;
			if (wtg_table_num(t, r, cmin) < wtg_table_num(t, b, cmin))
				b = r;
		}
		double df = wtg_table_num(t, a, cmin) - wtg_table_num(t, b, cmin);
		double dt = wtg_table_num(t, a, cms) - wtg_table_num(t, b, cms);
		if (df > 0 && !isnan(dt) && nfig < max) {
			char ns[48], ta[48], tb[48], fa[32], fb[32];
			wtg_lay_fmt_value(ns, sizeof ns, dt * 1e6 / df, "ns");
			wtg_lay_fmt_value(ta, sizeof ta, wtg_table_num(t, a, cms), "ms");
			wtg_lay_fmt_value(tb, sizeof tb, wtg_table_num(t, b, cms), "ms");
			wtg_fmt_thousands(fa, sizeof fa, (int64_t)wtg_table_num(t, a, cmin));
			wtg_fmt_thousands(fb, sizeof fb, (int64_t)wtg_table_num(t, b, cmin));
			snprintf(fig[nfig++], 256, "per fault: %s = (%s %s %s) / (%s %s %s faults)", ns, ta,
				 dash, tb, fa, dash, fb);
		}
	}
	/* each "cold X" against its "warm X" */
	if (cms >= 0) {
		char line[256] = "";
		int o = 0;
		int cmaj = wtg_table_col(t, "majflt");
		for (int r = 0; r < t->nrows; r++) {
			if (!label_has(t, r, "cold"))
				continue;
			int w = partner(t, r, "cold", "warm");
			if (w < 0 || !(wtg_table_num(t, w, cms) > 0))
				continue;
			char lab[64], ratio[32], maj[64] = "";
			wtg_lay_row_label(lab, sizeof lab, t, r, NULL, 0);
			wtg_lay_fmt_num(ratio, sizeof ratio, wtg_table_num(t, r, cms) / wtg_table_num(t, w, cms));
			if (cmaj >= 0)
				snprintf(maj, sizeof maj, " (%.0f vs %.0f major faults)",
					 wtg_table_num(t, r, cmaj), wtg_table_num(t, w, cmaj));
			o += snprintf(line + o, sizeof line - (size_t)o, "%s%s / warm: %s%s%s", o ? "; " : "",
				      lab, ratio, times, maj);
			if (o >= (int)sizeof line)
				break;
		}
		if (o > 0 && nfig < max)
			snprintf(fig[nfig++], 256, "%s", line);
	}
	return nfig;
}

/* Index of the metric called name in g, or -1. */
static int metric_of(const struct wtg_lay_grid *g, const char *name)
{
	for (int m = 0; m < g->nm; m++)
		if (strcmp(g->name[m], name) == 0)
			return m;
	return -1;
}

/* Append column k of run q (-1: not in that run) as the next case of out. */
static void merge_column(struct wtg_lay_grid *out, const struct wtg_lay_grid *q, int k, const char *head)
{
	int c = out->ncases++;
	wtg_strlcpy(out->head[c], head, sizeof out->head[c]);
	for (int m = 0; m < out->nm; m++) {
		int qm = k >= 0 ? metric_of(q, out->name[m]) : -1;
		wtg_strlcpy(out->cell[m][c], qm >= 0 ? q->cell[qm][k] : "n/a", WTG_LAY_CELL);
		wtg_strlcpy(out->bare[m][c], qm >= 0 ? q->bare[qm][k] : "n/a", WTG_LAY_CELL);
	}
}

void wtg_lay_grid_merge(struct wtg_lay_grid *out, const struct wtg_lay_grid *in, const char *const *label, int n,
			const char *sep)
{
	const struct wtg_lay_grid *last = &in[n - 1];
	memset(out, 0, sizeof *out);
	for (int m = 0; m < last->nm; m++)
		add_metric(out, last->name[m], last->unit[m], last->derived[m]);
	/* the cases in order of first appearance; the latest kept when they are too many */
	char cases[WTG_LAY_MAX_RUNS * WTG_LAY_MAX_CASES][64];
	int nc = 0;
	for (int q = 0; q < n; q++)
		for (int k = 0; k < in[q].ncases; k++) {
			int j = 0;
			while (j < nc && strcmp(cases[j], in[q].head[k]) != 0)
				j++;
			if (j == nc)
				wtg_strlcpy(cases[nc++], in[q].head[k], sizeof cases[0]);
		}
	int per = n, from = nc - WTG_LAY_MAX_CASES / per;
	for (int j = from < 0 ? 0 : from; j < nc; j++)
		for (int q = 0; q < n && out->ncases < WTG_LAY_MAX_CASES; q++) {
			int k = 0;
			while (k < in[q].ncases && strcmp(in[q].head[k], cases[j]) != 0)
				k++;
			char head[64];
			snprintf(head, sizeof head, "%s%s%s", cases[j], sep, label[q]);
			merge_column(out, &in[q], k < in[q].ncases ? k : -1, head);
		}
}
