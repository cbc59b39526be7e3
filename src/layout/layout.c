/* layout.c: the chart of a table before it is drawn, shared by the dashboard's views and the SVG
 * writer (no curses here): numbers, rows in words, axes and bins, several runs' conditions. The
 * views' own layouts: layout_rows.c (sweep, bars), layout_hist.c, layout_grid.c (counters). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/figure.h"
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

/* A count with a k/M/G/T suffix and `extra` more decimals than the plain label needs. */
static void fmt_count_prec(char *buf, size_t len, double v, int extra)
{
	static const char sfx[] = " kMGT";
	int u = 0;
	while (fabs(v) >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	char num[32];
	int dec = (v == floor(v) ? 0 : 1) + extra;
	snprintf(num, sizeof num, "%.*f", dec, v);
	if (u)
		snprintf(buf, len, "%s%c", num, sfx[u]);
	else
		snprintf(buf, len, "%s", num);
}

void wtg_lay_fmt_tick_count(char *buf, size_t len, double v)
{
	fmt_count_prec(buf, len, v, 0);
}

/* A duration in the largest unit it reaches, with `extra` more decimals than the plain label. */
static void fmt_time_prec(char *buf, size_t len, double v, const char *unit, int extra)
{
	double ts = wtg_lay_time_scale(unit);
	if (ts == 0) {
		fmt_count_prec(buf, len, v, extra);
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
	else
		snprintf(buf, len, "%.*f%s", (fabs(ns) >= 9.95 || ns == floor(ns) ? 0 : 1) + extra, ns, units[u]);
}

void wtg_lay_fmt_tick_time(char *buf, size_t len, double v, const char *unit)
{
	fmt_time_prec(buf, len, v, unit, 0);
}

void wtg_lay_tick_labels(char (*labels)[32], const double *ticks, int n, const char *unit)
{
	for (int extra = 0; extra <= 4; extra++) {
		bool same = false;
		for (int i = 0; i < n; i++) {
			fmt_time_prec(labels[i], sizeof labels[i], ticks[i], unit, extra);
			same = same || (i > 0 && strcmp(labels[i], labels[i - 1]) == 0);
		}
		if (!same)
			return;
	}
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
		/* one or two decades only: 1, 2, 5 x 10^k when they are far enough apart, or when the
		 * decades give one tick alone (the labels that do not fit are left out where drawn) */
		if (n < 3 && (per >= minsep || n < 2)) {
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

/* Row r's conditions, less those the experiment sets itself (tail's burners: its rows differ there
 * by design, the run's conditions are the rest). */
static struct wtg_cond_snapshot run_cond(const struct wtg_table *t, int r)
{
	struct wtg_cond_snapshot c = t->rows[r].cond;
	if (t->exp && (t->exp->self_conditions & WTG_COND_BURN)) {
		c.burners = 0;
		c.burn_kind = WTG_BURN_SPIN;
	}
	return c;
}

void wtg_lay_table_conditions(char *buf, size_t len, const struct wtg_table *t)
{
	buf[0] = '\0';
	/* a paired run (wtg/paired.h) is named by its arm B, the conditions it was run to show */
	int first = 0, paired = wtg_table_col(t, "arm") >= 0;
	while (paired && first < t->nrows && !wtg_row_arm_b(t, first))
		first++;
	if (first >= t->nrows)
		first = 0, paired = 0;
	if (t->nrows == 0)
		return;
	struct wtg_cond_snapshot c0 = run_cond(t, first);
	for (int r = first + 1; r < t->nrows; r++) {
		if (paired && !wtg_row_arm_b(t, r))
			continue;
		struct wtg_cond_snapshot c = run_cond(t, r);
		if (!wtg_cond_same(&c, &c0)) {
			snprintf(buf, len, "mixed conditions");
			return;
		}
	}
	wtg_lay_cond_words(buf, len, &c0);
	if (t->cold && !strcmp(buf, "quiet"))
		snprintf(buf, len, "cold cache");
	else if (t->cold)
		snprintf(buf + strlen(buf), len - strlen(buf), ", cold cache");
}

void wtg_lay_run_conditions(char *buf, size_t len, const struct wtg_table *t)
{
	char cond[96];
	wtg_lay_table_conditions(cond, sizeof cond, t);
	if (!t->exp || !(t->exp->self_conditions & WTG_COND_BURN) || t->nrows == 0)
		snprintf(buf, len, "%s", cond);
	else if (!strcmp(cond, "quiet"))	/* tail: half of every run is under its own burners */
		snprintf(buf, len, "quiet and burners");
	else
		snprintf(buf, len, "quiet and burners, %s", cond);
}
