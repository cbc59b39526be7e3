/* sweep.c: the line chart: a log2 x axis with labelled ticks, a y axis with units, several series,
 * braille dots under UTF-8 and characters otherwise, and the latest row in words underneath. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_internal.h"

#define MAX_SERIES WTG_LAY_MAX_SERIES

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

static int px_of_x(const struct wtg_lay_sweep *p, const struct canvas *c, double x)
{
	return tui_log_col(x, p->xlo, p->xhi, c->pw);
}

static int py_of_y(const struct wtg_lay_sweep *p, const struct canvas *c, double y)
{
	return (int)lround((1 - wtg_lay_y_frac(p, y)) * (c->ph - 1));
}

static const enum tui_role series_role[MAX_SERIES] = { TR_S1, TR_S2, TR_S3 };

/* What canvas index k draws as: a series of one run, or (several runs) the run k / MAX_SERIES. */
struct inks {
	enum tui_role role[WTG_LAY_MAX_RUNS * MAX_SERIES];
	const char *marker[WTG_LAY_MAX_RUNS * MAX_SERIES];
};

static void canvas_draw(const struct canvas *c, WINDOW *w, int y0, int x0, const struct tui_look *l,
			const struct inks *ink)
{
	for (int cy = 0; cy < c->ch; cy++)
		for (int cx = 0; cx < c->cw; cx++) {
			size_t i = (size_t)cy * (size_t)c->cw + (size_t)cx;
			if (c->mark[i] >= 0) {
				tui_put(w, y0 + cy, x0 + cx, 1, tui_attr(l, ink->role[c->mark[i]]) | A_BOLD,
					ink->marker[c->mark[i]]);
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
				tui_put(w, y0 + cy, x0 + cx, 1, tui_attr(l, ink->role[c->role[i]]), glyph);
			}
		}
}

/* ---- the chart ---- */

/* Every run's sweep, drawn on one pair of axes (axis: the last run's, its ranges widened to all). */
struct plot {
	int n;
	struct wtg_lay_sweep p[WTG_LAY_MAX_RUNS];
	const char *label[WTG_LAY_MAX_RUNS];
	struct wtg_lay_sweep *axis;
	struct inks ink;
};

/* The legend's entries: the series of one run, or a run each. */
static int legend_entry(const struct plot *pl, int k, const char **marker, enum tui_role *role, const char **name)
{
	if (pl->n == 1) {
		if (!pl->axis->legend || k >= pl->axis->ns)
			return 0;
		*name = pl->axis->s[k].name;
	} else {
		if (k >= pl->n)
			return 0;
		*name = pl->label[k];
	}
	int i = pl->n == 1 ? k : k * MAX_SERIES;
	*marker = pl->ink.marker[i];
	*role = pl->ink.role[i];
	return 1;
}

/* The legend where a run each does not fit: runs whose labels share their conditions ("quiet, #1",
 * "quiet, #2" ...) as one entry, every run's mark then the conditions once and what tells the runs
 * apart ("●◆■▲○ quiet, #1/#2/#3/#4/#5   ◇ burners 2 spin"), right-aligned, not left of x_min.
 * Returns its width, 0 when several runs' entries would not shrink that way or it still does not fit. */
static int draw_legend_grouped(const struct tui_view *v, const struct plot *pl, int y0, int x_min)
{
	enum { N = WTG_LAY_MAX_RUNS * MAX_SERIES };
	const char *mk[N], *nm[N];
	enum tui_role role[N];
	int n = 0, group[N], ng = 0, head[N];
	size_t plen[N];
	while (n < N && legend_entry(pl, n, &mk[n], &role[n], &nm[n]))
		n++;
	if (pl->n == 1 || n < 2)
		return 0;
	for (int k = 0; k < n; k++) {
		const char *comma = strstr(nm[k], ", ");
		plen[k] = comma ? (size_t)(comma - nm[k]) : strlen(nm[k]);
		group[k] = -1;
		for (int g = 0; g < ng && group[k] < 0; g++) {
			int h = head[g];
			if (comma && plen[h] == plen[k] && strncmp(nm[h], nm[k], plen[k]) == 0 && nm[h][plen[h]])
				group[k] = g;
		}
		if (group[k] < 0) {
			head[ng] = k;
			group[k] = ng++;
		}
	}
	if (ng == n)
		return 0;
	char text[N][200];
	int wid = 0;
	for (int g = 0; g < ng; g++) {
		int h = head[g];
		snprintf(text[g], sizeof text[g], " %.*s", (int)plen[h], nm[h]);
		int more = 0;
		for (int k = 0; k < n; k++)
			if (group[k] == g && nm[k][plen[k]]) {
				size_t at = strlen(text[g]);
				snprintf(text[g] + at, sizeof text[g] - at, "%s%s", more++ ? "/" : ", ", nm[k] + plen[k] + 2);
			}
		if (!more)
			snprintf(text[g], sizeof text[g], " %s", nm[h]);
		for (int k = 0; k < n; k++)
			if (group[k] == g)
				wid += tui_width(mk[k]);
		wid += tui_width(text[g]) + (g ? 3 : 0);
	}
	int x = v->x + v->wd - wid;
	if (x < x_min)
		return 0;
	const struct tui_look *l = v->look;
	for (int g = 0; g < ng; g++) {
		if (g)
			x += tui_put(v->w, y0, x, v->x + v->wd - x, A_NORMAL, "   ");
		enum tui_role r = role[head[g]];
		for (int k = 0; k < n; k++)
			if (group[k] == g)
				x += tui_put(v->w, y0, x, v->x + v->wd - x, tui_attr(l, role[k]) | A_BOLD, mk[k]);
		x += tui_put(v->w, y0, x, v->x + v->wd - x, r == TR_DIM ? tui_attr(l, TR_DIM) : A_NORMAL, text[g]);
	}
	return wid;
}

/* The line above the chart: the unit of y, what x is, and the legend on the right. */
static void draw_heading(const struct tui_view *v, const struct plot *pl, int y0)
{
	const struct tui_look *l = v->look;
	const struct wtg_lay_sweep *p = pl->axis;
	WINDOW *w = v->w;
	int ux = v->x + tui_put(w, y0, v->x, v->wd, tui_attr(l, TR_TITLE), p->yunit[0] ? p->yunit : "value");
	int lx = v->x + v->wd;
	const char *mk, *nm;
	enum tui_role role;
	int lwid = 0;
	for (int k = 0; legend_entry(pl, k, &mk, &role, &nm); k++)
		lwid += tui_width(mk) + 1 + tui_width(nm) + (k ? 3 : 0);
	int gwid = lwid && v->x + v->wd - lwid < ux + 2 ? draw_legend_grouped(v, pl, y0, ux + 2) : 0;
	if (gwid > 0)
		lx = v->x + v->wd - gwid;
	else if (lwid) {
		lx = v->x + v->wd - lwid;
		if (lx < ux + 2)
			lx = ux + 2;
		int x = lx;
		for (int k = 0; legend_entry(pl, k, &mk, &role, &nm); k++) {
			if (k)
				x += tui_put(w, y0, x, v->x + v->wd - x, A_NORMAL, "   ");
			x += tui_put(w, y0, x, v->x + v->wd - x, tui_attr(l, role) | A_BOLD, mk);
			char buf[160];
			snprintf(buf, sizeof buf, " %s", nm);
			x += tui_put(w, y0, x, v->x + v->wd - x, role == TR_DIM ? tui_attr(l, TR_DIM) : A_NORMAL, buf);
		}
	}
	char xt[160];
	snprintf(xt, sizeof xt, "  by %s (log scale%s)", p->xtitle, p->ylog ? "s" : "");
	if (ux + tui_width(xt) + 2 > lx)
		snprintf(xt, sizeof xt, "  by %s", p->xtitle);
	tui_put(w, y0, ux, lx - ux - 2, tui_attr(l, TR_DIM), xt);
}

/* The column of x mark i on the chart, or -1 when it lies outside the x range. */
static int xmark_col(const struct wtg_table *t, int i, const struct wtg_lay_sweep *p, int axis_x, int cw)
{
	double x = t->xmarks[i].x;
	if (!(p->xlo > 0) || x < p->xlo || x > p->xhi)
		return -1;
	return axis_x + wtg_lay_log_col(x, p->xlo, p->xhi, cw);
}

/* The table's x marks (wss: the cache sizes) as dim dotted lines under the series. */
static void draw_xmarks(const struct tui_view *v, const struct wtg_lay_sweep *p, int top, int ch, int axis_x,
			int cw)
{
	const struct wtg_table *t = v->t;
	attr_t dim = tui_attr(v->look, TR_DIM);
	const char *g = v->look->g->braille ? "┊" : ":";
	for (int i = 0; i < t->nxmarks; i++) {
		int col = xmark_col(t, i, p, axis_x, cw);
		for (int r = top; col >= 0 && r < top + ch; r++)
			tui_put(v->w, r, col, 1, dim, g);
	}
}

/* Whether the canvas holds nothing in cells [x, x + n) of row y. */
static bool canvas_clear(const struct canvas *c, int y, int x, int n)
{
	for (int cx = x; cx < x + n; cx++) {
		size_t i = (size_t)y * (size_t)c->cw + (size_t)cx;
		if (cx < 0 || cx >= c->cw || c->bits[i] || c->mark[i] >= 0)
			return false;
	}
	return true;
}

/* Each x mark's label right of its line, after the series: in the highest row where neither the
 * series nor another label has its cells, nor the mark's own line's cell (a label drawn over a line
 * broke both: "⡀1 48K"); when no row is clear (a short chart at 80x24), the row where it covers the
 * fewest cells, the label whole and its mark's cell beside it, the series giving way under them, so
 * no cache level goes unnamed or apart from its line. */
static void label_xmarks(const struct tui_view *v, const struct wtg_lay_sweep *p, const struct canvas *c, int top,
			 int axis_x)
{
	const struct wtg_table *t = v->t;
	attr_t dim = tui_attr(v->look, TR_DIM);
	const char *g = v->look->g->braille ? "┊" : ":";
	int free_from[256];
	for (int y = 0; y < c->ch && y < 256; y++)
		free_from[y] = 0;
	for (int i = 0; i < t->nxmarks; i++) {
		int col = xmark_col(t, i, p, axis_x, c->cw);
		int n = tui_width(t->xmarks[i].label), x = col + 1 - axis_x;
		int at = -1, least = n + 1;	/* a clear row, else the row where the fewest cells are taken */
		for (int y = 0; col >= 0 && y < c->ch && y < 256 && least > 0; y++) {
			if (x < free_from[y] || x + n > c->cw)
				continue;
			int taken = 0;
			for (int j = x > 0 ? -1 : 0; j < n; j++)	/* the mark's cell, then the label's */
				taken += !canvas_clear(c, y, x + j, 1);
			if (taken < least)
				least = taken, at = y;
		}
		if (at >= 0) {	/* the label whole beside its mark: a series under them gives way */
			tui_put(v->w, top + at, col, 1, dim, g);
			tui_put(v->w, top + at, col + 1, n, dim, t->xmarks[i].label);
			free_from[at] = x + n + 1;
		}
	}
}

/* Run r's series k, drawn at canvas index r * MAX_SERIES + k. */
static void plot_series(struct canvas *c, const struct wtg_lay_sweep *p, const struct wtg_lay_series *s, int k)
{
	for (int i = 0; i + 1 < s->n; i++)
		canvas_line(c, px_of_x(p, c, s->x[i]), py_of_y(p, c, s->y[i]), px_of_x(p, c, s->x[i + 1]),
			    py_of_y(p, c, s->y[i + 1]), k);
	if (s->n == 1)
		canvas_dot(c, px_of_x(p, c, s->x[0]), py_of_y(p, c, s->y[0]), k);
	/* each point's 95% CI as a vertical error bar */
	for (int i = 0; s->has_ci && i < s->n; i++)
		if (!isnan(s->lo[i]) && !isnan(s->hi[i])) {
			int px = px_of_x(p, c, s->x[i]);
			canvas_line(c, px, py_of_y(p, c, s->lo[i]), px, py_of_y(p, c, s->hi[i]), k);
		}
}

/* Series k's measured points into cells' sets of marks (bit k of each). */
static void plot_marks(uint32_t *marks, const struct canvas *c, const struct wtg_lay_sweep *p,
		       const struct wtg_lay_series *s, int k)
{
	for (int i = 0; i < s->n; i++) {
		int px = px_of_x(p, c, s->x[i]), py = py_of_y(p, c, s->y[i]);
		int cx = c->braille ? px / 2 : px, cy = c->braille ? py / 4 : py;
		if (cx >= 0 && cy >= 0 && cx < c->cw && cy < c->ch)
			marks[(size_t)cy * (size_t)c->cw + (size_t)cx] |= 1u << k;
	}
}

/* Each cell's mark: its one series, or where several series' points meet (a rerun on the line of
 * the run before, wss's scalar under auto) the one shown least so far, left to right (the latest of
 * those), so every series shows its mark along a shared line instead of the last drawn hiding the
 * others; a series left with no cell then takes one from a series shown more than once. */
static void settle_marks(struct canvas *c, const uint32_t *marks, const char *const *marker)
{
	int shown[32] = { 0 }, glyph[32];	/* counted by the mark drawn: a run's series share one */
	uint32_t any = 0;
	for (size_t i = 0; i < (size_t)c->cw * (size_t)c->ch; i++)
		any |= marks[i];
	for (int j = 0; j < 32; j++) {
		glyph[j] = j;
		for (int i = 0; i < j && glyph[j] == j && j < WTG_LAY_MAX_RUNS * MAX_SERIES; i++)
			if ((any >> i) & 1 && (any >> j) & 1 && !strcmp(marker[i], marker[j]))
				glyph[j] = i;
	}
	for (int cx = 0; cx < c->cw; cx++)
		for (int cy = 0; cy < c->ch; cy++) {
			uint32_t m = marks[(size_t)cy * (size_t)c->cw + (size_t)cx];
			int k = -1;
			for (int j = 0; j < 32; j++)
				if ((m >> j) & 1 && (k < 0 || shown[glyph[j]] <= shown[glyph[k]]))
					k = j;
			if (k < 0)
				continue;
			shown[glyph[k]]++;
			c->mark[(size_t)cy * (size_t)c->cw + (size_t)cx] = (signed char)k;
		}
	/* a mark that lost every cell it shares takes one from a mark shown more than once */
	for (int k = 0; k < 32; k++)
		for (size_t i = 0; !shown[glyph[k]] && i < (size_t)c->cw * (size_t)c->ch; i++)
			if ((marks[i] >> k) & 1 && c->mark[i] >= 0 && shown[glyph[c->mark[i]]] > 1) {
				shown[glyph[c->mark[i]]]--;
				c->mark[i] = (signed char)k;
				shown[glyph[k]]++;
			}
}

static void draw_chart(const struct tui_view *v, const struct plot *pl, int y0, int h)
{
	const struct wtg_lay_sweep *p = pl->axis;
	const struct tui_look *l = v->look;
	WINDOW *w = v->w;
	attr_t ax = tui_attr(l, TR_AXIS);
	int ch = h - 3;		/* unit line, x axis, x labels */
	if (ch < 2)
		return;
	double yt[16];
	char lab[16][32];
	int nt = wtg_lay_y_ticks(p, ch, yt, lab, 16);
	int lw = 1;
	for (int k = 0; k < nt; k++) {
		int n = tui_width(lab[k]);
		lw = n > lw ? n : lw;
	}
	int axis_x = v->x + lw + 1;
	int cw = v->wd - (lw + 2) - 1;
	if (cw < 8)
		return;

	draw_heading(v, pl, y0);

	/* y axis: its rows a whole number per interval between ticks (a decade on a log axis), so the
	 * labels stand evenly spaced ("1k 100 10 1" three rows apart, not 3, 2, 3); the rows left over
	 * stay blank above the chart */
	int units = p->ylog && p->ymin > 0 && p->ymax > p->ymin ? (int)lround(log10(p->ymax / p->ymin)) : nt - 1;
	if (units >= ch && nt > 2 && units % (nt - 1) == 0)
		units = nt - 1;	/* more decades than rows: the labels' steps (every second decade) */
	int pad = units > 0 && units < ch ? (ch - 1) % units : 0;
	ch -= pad;
	int top = y0 + 1 + pad, bottom = top + ch - 1;	/* chart rows top..bottom */
	for (int r = top; r <= bottom; r++)
		tui_put(w, r, axis_x - 1, 1, ax, l->g->ax_v);
	int last_row = -1;
	for (int k = nt - 1; k >= 0; k--) {
		int r = top + (int)lround((1 - wtg_lay_y_frac(p, yt[k])) * (ch - 1));
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
	char xlab[32][32];	/* labelled so that neighbours differ ("1.10us 1.11us") */
	wtg_lay_sweep_tick_labels(p, ticks, nticks, xlab);
	int free_from = v->x;
	for (int i = 0; i < nticks; i++) {
		int c = tui_log_col(ticks[i], p->xlo, p->xhi, cw);
		tui_put(w, axis_y, axis_x + c, 1, ax, l->g->ax_xtick);
		const char *t = xlab[i];
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
	/* the earlier runs first, so the latest is drawn over them */
	for (int r = 0; r < pl->n; r++)
		for (int k = 0; k < pl->p[r].ns; k++)
			plot_series(&c, p, &pl->p[r].s[k], r * MAX_SERIES + k);
	uint32_t *marks = calloc((size_t)c.cw * (size_t)c.ch, sizeof *marks);
	for (int r = 0; marks && r < pl->n; r++)
		for (int k = 0; k < pl->p[r].ns; k++)
			plot_marks(marks, &c, p, &pl->p[r].s[k], r * MAX_SERIES + k);
	if (marks)
		settle_marks(&c, marks, pl->ink.marker);
	free(marks);
	draw_xmarks(v, p, top, ch, axis_x, cw);
	canvas_draw(&c, w, top, axis_x, l, &pl->ink);
	label_xmarks(v, p, &c, top, axis_x);
	canvas_free(&c);
}

/* Build every run's sweep and widen the last one's ranges to all of them. */
static void plot_build(struct plot *pl, const struct tui_view *v)
{
	const struct wtg_table *t[WTG_LAY_MAX_RUNS];
	bool faded[WTG_LAY_MAX_RUNS];
	pl->n = tui_view_runs(v, t, pl->label, faded);
	for (int r = 0; r < pl->n; r++) {
		wtg_lay_sweep_build(&pl->p[r], t[r], v->e);
		for (int k = 0; k < MAX_SERIES; k++) {
			int i = r * MAX_SERIES + k;
			pl->ink.role[i] = pl->n == 1 ? series_role[k] : tui_run_role(r, faded[r]);
			pl->ink.marker[i] = pl->n == 1 ? v->look->g->marker[k] : tui_run_marker(v->look, r);
		}
	}
	pl->axis = &pl->p[pl->n - 1];
	for (int r = 0; r < pl->n - 1; r++)
		wtg_lay_sweep_widen(pl->axis, &pl->p[r]);
}

void tui_sweep_draw(const struct tui_view *v)
{
	const struct wtg_table *t = v->t;
	static struct plot pl;
	plot_build(&pl, v);
	const struct wtg_lay_sweep *ap = pl.axis;
	/* the latest row in words, under the chart */
	int words = 0;
	if (t->nrows > 0 && v->h >= 8) {
		char buf[512], xs[64] = "";
		int r = t->nrows - 1;
		if (ap->xcol >= 0) {
			char val[48];
			tui_fmt_value(val, sizeof val, wtg_table_num(t, r, ap->xcol), ap->xunit);
			if (ap->bytes)
				snprintf(xs, sizeof xs, "%s", val);	/* "256K" */
			else
				snprintf(xs, sizeof xs, "%s %s", t->cols[ap->xcol].name, val);	/* batch 10 */
		}
		char rest[448];
		tui_row_words(rest, sizeof rest, t, r, ap->xcol);
		snprintf(buf, sizeof buf, "%s%s%s", xs, xs[0] ? ": " : "", rest);
		int c = wtg_table_col(t, "contended"), y = v->y + v->h - 1, used = 0;
		if (c >= 0 && wtg_table_num(t, r, c) > 0) {	/* its samples waited for a CPU: said first */
			const char *tag = TUI_BUSY_TAG " (waited for a CPU) ";
			if (tui_width(tag) + tui_width(buf) > v->wd)
				tag = TUI_BUSY_TAG ": ";	/* the short form before the row's words give way */
			used = tui_put(v->w, y, v->x, v->wd, tui_attr(v->look, TR_WARN) | A_BOLD, tag);
		}
		tui_fit_items(buf, v->wd - used);	/* never half a figure */
		tui_put(v->w, y, v->x + used, v->wd - used, A_BOLD, buf);
		words = 1;
	}
	draw_chart(v, &pl, v->y, v->h - words);
	for (int r = 0; r < pl.n; r++)
		wtg_lay_sweep_free(&pl.p[r]);
}
