/* sweep.c: the line chart: a log2 x axis with labelled ticks, a y axis with units, several series,
 * braille dots under UTF-8 and characters otherwise, and the latest row in words underneath. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_internal.h"

/* Which columns each sweep draws. An experiment missing here gets the first numeric column as x and
 * its GB/s column (or its last numeric one) as y. */
struct sweep_map {
	const char *exp;
	const char *x;
	const char *y[3];
	const char *group;	/* a text column whose values split the rows into series */
	double xlo, xhi;	/* the planned range, so the axis holds still while rows arrive */
	const char *xtitle;
};

static const struct sweep_map sweep_maps[] = {
	{ "valley", "bufsize", { "gbps" }, NULL, 16, 16 << 20, "read() buffer size" },
	{ "syscall", "batch", { "median_ns", "p99_ns" }, NULL, 1, 10000, "calls per batch" },
	{ "wss", "wss", { "gbps" }, NULL, 0, 0, "working set" },	/* sized to the machine */
	{ "uncached", "bufsize", { "gbps" }, "mode", 4 << 10, 16 << 20, "O_DIRECT read size" },
	{ "roofline", "ops_per_byte", { "gops" }, "buffer", 1.0 / 64, 64, "integer ops per byte" },
};

#define MAX_SERIES 3

struct series {
	char name[64];
	int n;
	double *x, *y;
	double *lo, *hi;	/* the y column's 95% CI (<y>_ci_low, <y>_ci_high) per point, NAN without */
};

struct plot {
	int xcol;
	const char *xunit, *yunit, *xtitle;
	bool bytes;
	double xlo, xhi, ymax;
	int ns;
	struct series s[MAX_SERIES];
};

static const struct sweep_map *find_map(const char *name)
{
	for (size_t i = 0; i < WTG_ARRAY_LEN(sweep_maps); i++)
		if (strcmp(sweep_maps[i].exp, name) == 0)
			return &sweep_maps[i];
	return NULL;
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

/* The column <y>_<suffix> of y column yc, or -1. */
static int ci_col(const struct wtg_table *t, int yc, const char *suffix)
{
	char name[96];
	snprintf(name, sizeof name, "%s_%s", t->cols[yc].name, suffix);
	return wtg_table_col(t, name);
}

static void add_points(struct series *s, const struct wtg_table *t, int xc, int yc, int gc,
		       const char *gval)
{
	enum { NP = 4 };	/* x, y, CI low, CI high */
	double *pts = malloc((size_t)(t->nrows > 0 ? t->nrows : 1) * NP * sizeof *pts);
	if (!pts)
		return;
	int lc = ci_col(t, yc, "ci_low"), hc = ci_col(t, yc, "ci_high");
	int n = 0;
	for (int r = 0; r < t->nrows; r++) {
		if (gc >= 0) {
			const struct wtg_value *g = &t->rows[r].v[gc];
			if (g->type != WTG_T_TEXT || strcmp(g->s, gval) != 0)
				continue;
		}
		double x = wtg_table_num(t, r, xc), y = wtg_table_num(t, r, yc);
		if (!(x > 0) || isnan(y) || isinf(y))
			continue;
		pts[NP * n] = x;
		pts[NP * n + 1] = y;
		pts[NP * n + 2] = lc >= 0 ? wtg_table_num(t, r, lc) : NAN;
		pts[NP * n + 3] = hc >= 0 ? wtg_table_num(t, r, hc) : NAN;
		n++;
	}
	qsort(pts, (size_t)n, NP * sizeof *pts, cmp_point);
	size_t sz = (size_t)(n ? n : 1) * sizeof(double);
	s->x = malloc(sz);
	s->y = malloc(sz);
	s->lo = malloc(sz);
	s->hi = malloc(sz);
	if (!s->x || !s->y || !s->lo || !s->hi) {
		free(pts);
		s->n = 0;
		return;
	}
	for (int i = 0; i < n; i++) {
		s->x[i] = pts[NP * i];
		s->y[i] = pts[NP * i + 1];
		s->lo[i] = pts[NP * i + 2];
		s->hi[i] = pts[NP * i + 3];
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

/* Work out the columns and collect the points. */
static void build_plot(struct plot *p, const struct wtg_table *t, const struct wtg_experiment *e)
{
	memset(p, 0, sizeof *p);
	const struct sweep_map *m = find_map(e->name);
	int xc = m ? wtg_table_col(t, m->x) : -1;
	int yc[3] = { -1, -1, -1 };
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
		for (int c = 0; c < t->ncols; c++)
			if (c != xc && numeric(t, c) && t->cols[c].unit &&
			    strcmp(t->cols[c].unit, "GB/s") == 0)
				yc[ny++] = c;
		for (int c = t->ncols - 1; c >= 0 && ny == 0; c--)
			if (c != xc && numeric(t, c))
				yc[ny++] = c;
	}
	p->xcol = xc;
	p->xlo = m ? m->xlo : 0;
	p->xhi = m ? m->xhi : 0;
	p->xtitle = m ? m->xtitle : (xc >= 0 ? t->cols[xc].name : "");
	p->xunit = xc >= 0 && t->cols[xc].unit ? t->cols[xc].unit : "";
	p->yunit = ny > 0 && t->cols[yc[0]].unit ? t->cols[yc[0]].unit : "";
	p->bytes = strcmp(p->xunit, "B") == 0;
	if (xc < 0 || ny == 0)
		return;

	int gc = m && m->group ? wtg_table_col(t, m->group) : -1;
	if (gc >= 0) {
		/* one series per distinct value of the group column, first y column only */
		for (int r = 0; r < t->nrows && p->ns < MAX_SERIES; r++) {
			const struct wtg_value *g = &t->rows[r].v[gc];
			if (g->type != WTG_T_TEXT || isnan(wtg_table_num(t, r, yc[0])) ||
			    !(wtg_table_num(t, r, xc) > 0))
				continue;
			bool seen = false;
			for (int k = 0; k < p->ns; k++)
				seen = seen || strcmp(p->s[k].name, g->s) == 0;
			if (seen)
				continue;
			wtg_strlcpy(p->s[p->ns].name, g->s, sizeof p->s[p->ns].name);
			add_points(&p->s[p->ns], t, xc, yc[0], gc, g->s);
			p->ns++;
		}
	} else {
		for (int i = 0; i < ny && p->ns < MAX_SERIES; i++) {
			series_name(p->s[p->ns].name, sizeof p->s[p->ns].name, t->cols[yc[i]].name);
			add_points(&p->s[p->ns], t, xc, yc[i], -1, NULL);
			p->ns++;
		}
	}
	double ymax = 0;
	for (int k = 0; k < p->ns; k++)
		for (int i = 0; i < p->s[k].n; i++) {
			double x = p->s[k].x[i];
			if (p->xlo <= 0 || x < p->xlo)
				p->xlo = x;
			if (p->xhi <= 0 || x > p->xhi)
				p->xhi = x;
			if (p->s[k].y[i] > ymax)
				ymax = p->s[k].y[i];
			if (p->s[k].hi[i] > ymax)	/* the CI bars fit too */
				ymax = p->s[k].hi[i];
		}
	p->ymax = tui_nice_ceil(ymax);
}

static void free_plot(struct plot *p)
{
	for (int k = 0; k < p->ns; k++) {
		free(p->s[k].x);
		free(p->s[k].y);
		free(p->s[k].lo);
		free(p->s[k].hi);
	}
}

/* ---- the canvas: cells of 2x4 braille dots, or one character per cell ---- */

struct canvas {
	int cw, ch;		/* cells */
	int pw, ph;		/* pixels */
	bool braille;
	unsigned char *bits;	/* per cell: braille dots, or 1 when the line passes */
	signed char *role;	/* per cell: series index, -1 empty */
	signed char *mark;	/* per cell: series whose measured point is here, -1 none */
};

static int canvas_init(struct canvas *c, int cw, int ch, bool braille)
{
	c->cw = cw;
	c->ch = ch;
	c->braille = braille;
	c->pw = braille ? cw * 2 : cw;
	c->ph = braille ? ch * 4 : ch;
	size_t n = (size_t)cw * (size_t)ch;
	c->bits = calloc(n, 1);
	c->role = malloc(n);
	c->mark = malloc(n);
	if (!c->bits || !c->role || !c->mark) {
		free(c->bits);
		free(c->role);
		free(c->mark);
		return -1;
	}
	memset(c->role, -1, n);
	memset(c->mark, -1, n);
	return 0;
}

static void canvas_free(struct canvas *c)
{
	free(c->bits);
	free(c->role);
	free(c->mark);
}

static void canvas_dot(struct canvas *c, int px, int py, int k)
{
	if (px < 0 || py < 0 || px >= c->pw || py >= c->ph)
		return;
	static const unsigned char dots[2][4] = { { 0x01, 0x02, 0x04, 0x40 }, { 0x08, 0x10, 0x20, 0x80 } };
	int cx = c->braille ? px / 2 : px, cy = c->braille ? py / 4 : py;
	size_t i = (size_t)cy * (size_t)c->cw + (size_t)cx;
	c->bits[i] |= c->braille ? dots[px % 2][py % 4] : 1;
	c->role[i] = (signed char)k;
}

static void canvas_line(struct canvas *c, int x0, int y0, int x1, int y1, int k)
{
	int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
	int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
	int err = dx + dy;
	for (;;) {
		canvas_dot(c, x0, y0, k);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

static int px_of_x(const struct plot *p, const struct canvas *c, double x)
{
	return tui_log_col(x, p->xlo, p->xhi, c->pw);
}

static int py_of_y(const struct plot *p, const struct canvas *c, double y)
{
	double f = p->ymax > 0 ? y / p->ymax : 0;
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return (int)lround((1 - f) * (c->ph - 1));
}

static const enum tui_role series_role[MAX_SERIES] = { TR_S1, TR_S2, TR_S3 };

static void canvas_draw(const struct canvas *c, WINDOW *w, int y0, int x0, const struct tui_look *l)
{
	for (int cy = 0; cy < c->ch; cy++)
		for (int cx = 0; cx < c->cw; cx++) {
			size_t i = (size_t)cy * (size_t)c->cw + (size_t)cx;
			if (c->mark[i] >= 0) {
				tui_put(w, y0 + cy, x0 + cx, 1, tui_attr(l, series_role[c->mark[i]]) | A_BOLD,
					l->g->marker[c->mark[i]]);
			} else if (c->bits[i]) {
				char glyph[8];
				if (c->braille) {
					unsigned b = c->bits[i];
					glyph[0] = (char)0xE2;
					glyph[1] = (char)(0xA0 | (b >> 6));
					glyph[2] = (char)(0x80 | (b & 0x3F));
					glyph[3] = '\0';
				} else {
					wtg_strlcpy(glyph, l->g->line, sizeof glyph);
				}
				tui_put(w, y0 + cy, x0 + cx, 1, tui_attr(l, series_role[c->role[i]]), glyph);
			}
		}
}

/* ---- the chart ---- */

static void fmt_xtick(const struct plot *p, char *buf, size_t len, double x)
{
	if (p->bytes)
		tui_fmt_tick_size(buf, len, x);
	else
		tui_fmt_tick_time(buf, len, x, p->xunit);
}

/* Intervals on the y axis so that each tick is a round number. */
static int y_intervals(double ymax, int rows)
{
	static const struct {
		double m;
		int n;
	} split[] = { { 1, 4 }, { 1.2, 4 }, { 1.5, 3 }, { 2, 4 }, { 2.5, 5 }, { 3, 3 }, { 4, 4 }, { 5, 5 },
		      { 6, 3 }, { 8, 4 }, { 10, 5 } };
	double m = ymax / pow(10, floor(log10(ymax)));
	int nt = 4;
	for (size_t i = 0; i < WTG_ARRAY_LEN(split); i++)
		if (fabs(m - split[i].m) < 1e-6)
			nt = split[i].n;
	while (nt > 1 && rows < nt * 2)
		nt = nt % 2 == 0 ? nt / 2 : 1;
	return nt;
}

/* The table's x marks (cache sizes on wss) as dim dotted lines under the series, labelled at the
 * top of the chart where the label fits. */
static void draw_xmarks(const struct tui_view *v, const struct plot *p, int top, int ch, int axis_x, int cw)
{
	const struct wtg_table *t = v->t;
	attr_t dim = tui_attr(v->look, TR_DIM);
	const char *g = v->look->g->braille ? "┊" : ":";
	int free_from = axis_x;
	for (int i = 0; i < t->nxmarks; i++) {
		double x = t->xmarks[i].x;
		if (!(p->xlo > 0) || x < p->xlo || x > p->xhi)
			continue;
		int col = axis_x + tui_log_col(x, p->xlo, p->xhi, cw);
		for (int r = top; r < top + ch; r++)
			tui_put(v->w, r, col, 1, dim, g);
		int n = tui_width(t->xmarks[i].label);
		if (col + 1 >= free_from && col + 1 + n <= axis_x + cw) {
			tui_put(v->w, top, col + 1, n, dim, t->xmarks[i].label);
			free_from = col + 2 + n;
		}
	}
}

static void draw_chart(const struct tui_view *v, const struct plot *p, int y0, int h)
{
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	attr_t ax = tui_attr(l, TR_AXIS), dim = tui_attr(l, TR_DIM);
	int ch = h - 3;		/* unit line, x axis, x labels */
	if (ch < 2)
		return;
	double ymax = p->ymax > 0 ? p->ymax : 1;
	int nt = y_intervals(ymax, ch);
	char lab[16][32];
	int lw = 1;
	double step = ymax / nt;
	int dec = 0;
	while (dec < 6 && fabs(step * pow(10, dec) - round(step * pow(10, dec))) > 1e-6)
		dec++;
	for (int k = 0; k <= nt && k < 16; k++) {
		snprintf(lab[k], sizeof lab[k], "%.*f", dec, ymax * k / nt);
		int n = tui_width(lab[k]);
		lw = n > lw ? n : lw;
	}
	int axis_x = v->x + lw + 1;
	int cw = v->wd - (lw + 2) - 1;
	if (cw < 8)
		return;

	/* the unit above the axis, what x is, and the legend on the right */
	int ux = v->x + tui_put(w, y0, v->x, v->wd, tui_attr(l, TR_TITLE), p->yunit[0] ? p->yunit : "value");
	int lx = v->x + v->wd;
	if (p->ns > 1 || (p->ns == 1 && find_map(v->e->name) && find_map(v->e->name)->group)) {
		int lwid = 0;
		for (int k = 0; k < p->ns; k++)
			lwid += tui_width(l->g->marker[k]) + 1 + tui_width(p->s[k].name) + (k ? 3 : 0);
		lx = v->x + v->wd - lwid;
		if (lx < ux + 2)
			lx = ux + 2;
		int x = lx;
		for (int k = 0; k < p->ns; k++) {
			if (k)
				x += tui_put(w, y0, x, v->x + v->wd - x, A_NORMAL, "   ");
			x += tui_put(w, y0, x, v->x + v->wd - x, tui_attr(l, series_role[k]) | A_BOLD,
				     l->g->marker[k]);
			char nm[80];
			snprintf(nm, sizeof nm, " %s", p->s[k].name);
			x += tui_put(w, y0, x, v->x + v->wd - x, A_NORMAL, nm);
		}
	}
	char xt[160];
	snprintf(xt, sizeof xt, "  by %s (log scale)", p->xtitle);
	if (ux + tui_width(xt) + 2 > lx)
		snprintf(xt, sizeof xt, "  by %s", p->xtitle);
	tui_put(w, y0, ux, lx - ux - 2, dim, xt);

	/* y axis */
	int top = y0 + 1, bottom = y0 + ch;	/* chart rows top..bottom */
	for (int r = top; r <= bottom; r++)
		tui_put(w, r, axis_x - 1, 1, ax, l->g->ax_v);
	int last_row = -1;
	for (int k = nt; k >= 0; k--) {
		int r = top + (int)lround((double)(nt - k) / nt * (ch - 1));
		if (r == last_row)
			continue;
		last_row = r;
		int n = tui_width(lab[k]);
		tui_put(w, r, v->x + lw - n, n, ax, lab[k]);
		tui_put(w, r, axis_x - 1, 1, ax, l->g->ax_ytick);
	}
	/* x axis and its ticks */
	int axis_y = bottom + 1;
	tui_put(w, axis_y, axis_x - 1, 1, ax, l->g->ax_origin);
	tui_repeat(w, axis_y, axis_x, cw, ax, l->g->ax_h);
	double ticks[32];
	int nticks = 0;
	if (p->xlo > 0 && p->xhi > 0)
		nticks = tui_log_ticks(p->xlo, p->xhi, cw, p->bytes ? 6 : 5, p->bytes, ticks, 32);
	int free_from = v->x;
	for (int i = 0; i < nticks; i++) {
		int c = tui_log_col(ticks[i], p->xlo, p->xhi, cw);
		tui_put(w, axis_y, axis_x + c, 1, ax, l->g->ax_xtick);
		char t[32];
		fmt_xtick(p, t, sizeof t, ticks[i]);
		int n = tui_width(t);
		int sx = axis_x + c - n / 2;
		if (sx + n > v->x + v->wd)
			sx = v->x + v->wd - n;
		if (sx < free_from)
			continue;
		tui_put(w, axis_y + 1, sx, n, ax, t);
		free_from = sx + n + 1;
	}
	/* the series */
	struct canvas c;
	if (canvas_init(&c, cw, ch, l->g->braille) < 0)
		return;
	for (int k = 0; k < p->ns; k++) {
		const struct series *s = &p->s[k];
		for (int i = 0; i + 1 < s->n; i++)
			canvas_line(&c, px_of_x(p, &c, s->x[i]), py_of_y(p, &c, s->y[i]),
				    px_of_x(p, &c, s->x[i + 1]), py_of_y(p, &c, s->y[i + 1]), k);
		if (s->n == 1)
			canvas_dot(&c, px_of_x(p, &c, s->x[0]), py_of_y(p, &c, s->y[0]), k);
		/* each point's 95% CI as a vertical error bar */
		for (int i = 0; i < s->n; i++)
			if (!isnan(s->lo[i]) && !isnan(s->hi[i])) {
				int px = px_of_x(p, &c, s->x[i]);
				canvas_line(&c, px, py_of_y(p, &c, s->lo[i]), px, py_of_y(p, &c, s->hi[i]), k);
			}
	}
	for (int k = 0; k < p->ns; k++) {
		const struct series *s = &p->s[k];
		for (int i = 0; i < s->n; i++) {
			int px = px_of_x(p, &c, s->x[i]), py = py_of_y(p, &c, s->y[i]);
			int cx = c.braille ? px / 2 : px, cy = c.braille ? py / 4 : py;
			c.mark[(size_t)cy * (size_t)c.cw + (size_t)cx] = (signed char)k;
		}
	}
	draw_xmarks(v, p, top, ch, axis_x, cw);
	canvas_draw(&c, w, top, axis_x, l);
	canvas_free(&c);
}

void tui_sweep_draw(const struct tui_view *v)
{
	const struct wtg_table *t = v->t;
	struct plot p;
	build_plot(&p, t, v->e);
	/* the latest row in words, under the chart */
	int words = 0;
	if (t->nrows > 0 && v->h >= 8) {
		char buf[512], xs[64] = "";
		int r = t->nrows - 1;
		if (p.xcol >= 0) {
			char val[48];
			tui_fmt_value(val, sizeof val, wtg_table_num(t, r, p.xcol), p.xunit);
			if (p.bytes)
				snprintf(xs, sizeof xs, "%s", val);	/* "256K" */
			else
				snprintf(xs, sizeof xs, "%s %s", t->cols[p.xcol].name, val);	/* batch 10 */
		}
		char rest[448];
		tui_row_words(rest, sizeof rest, t, r, p.xcol);
		snprintf(buf, sizeof buf, "%s%s%s", xs, xs[0] ? ": " : "", rest);
		tui_put(v->w, v->y + v->h - 1, v->x, v->wd, A_BOLD, buf);
		words = 1;
	}
	draw_chart(v, &p, v->y, v->h - words);
	free_plot(&p);
}
