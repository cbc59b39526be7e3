/* svg_views.c: the four views as SVG (svg.h), for one run or for several runs of one experiment
 * overlaid on one scale as the dashboard draws them: sweeps on shared axes, bars grouped by label with
 * a bar per run, a distribution per run, counters with a column per case and run. Everything they
 * draw is worked out by the shared layout (wtg/layout.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/layout.h"
#include "wtg/report.h"
#include "wtg/util.h"
#include "svg.h"

static const char *const ink = SVG_INK, *const grid = SVG_GRID, *const muted = SVG_MUTED, *const warn = SVG_WARN;

/* The y axis from 0 to ymax (or a log axis over its decades) with round ticks and grid lines; the
 * unit above it. */
static void y_axis(FILE *f, const struct svg_frame *fr, const struct wtg_lay_sweep *p, const char *unit)
{
	double ticks[16];
	char lab[16][32];
	int nt = wtg_lay_y_ticks(p, (int)(fr->h / 20), ticks, lab, 16);
	for (int k = 0; k < nt; k++) {
		double y = fr->y + fr->h - fr->h * wtg_lay_y_frac(p, ticks[k]);
		svg_line(f, fr->x, y, fr->x + fr->w, y, k ? grid : ink, k ? 1 : 2, NULL);
		svg_text(f, fr->x - 12, y + 7, 20, "end", NULL, lab[k]);
	}
	svg_line(f, fr->x, fr->y, fr->x, fr->y + fr->h, ink, 2, NULL);
	svg_text(f, fr->x - 12, fr->y - 18, 20, "end", "font-weight=\"bold\"", unit && *unit ? unit : "value");
	/* a log axis: 2 .. 9 x each power of ten as short ticks, so its decades read as log */
	for (double d = p->ylog ? p->ymin : INFINITY; d < p->ymax * (1 - 1e-9); d *= 10)
		for (int k = 2; k <= 9; k++) {
			double y = fr->y + fr->h - fr->h * wtg_lay_y_frac(p, k * d);
			svg_line(f, fr->x - 6, y, fr->x, y, ink, 1.5, NULL);
		}
}

/* Labelled ticks under the x axis: positions as fractions of the width, labels kept apart. */
static void x_ticks(FILE *f, const struct svg_frame *fr, const double *frac, char lab[][32], int n)
{
	double free_from = fr->x - 1e9;
	for (int i = 0; i < n; i++) {
		double x = fr->x + frac[i] * fr->w, w = svg_text_w(lab[i], 20);
		svg_line(f, x, fr->y + fr->h, x, fr->y + fr->h + 8, ink, 2, NULL);
		if (x - w / 2 < free_from)
			continue;
		svg_text(f, x, fr->y + fr->h + 32, 20, "middle", NULL, lab[i]);
		free_from = x + w / 2 + 10;
	}
}

/* Legend entries on the line at y, from x (x < 0: ending at right), each its marker (none for a
 * negative shape), a line sample when lines, and its name; smaller type when they would pass right. */
static void legend(FILE *f, double x, double right, double y, const char *const *names, const struct svg_ink *inks,
		   int n, bool lines)
{
	double fs = 20, gap = lines ? 58 : 26, tw = 0, fixed = n * gap + (n - 1) * 28;
	for (int k = 0; k < n; k++)
		tw += svg_text_w(names[k], fs);
	double from = x < 0 ? right - tw - fixed : x;
	if (from < 40)
		from = 40;
	if (tw > 0 && from + tw + fixed > right)
		fs = fmax(11, fs * (right - from - fixed) / tw);
	x = from;
	for (int k = 0; k < n; k++) {
		if (lines)
			svg_line(f, x, y, x + 44, y, inks[k].colour, 3, inks[k].dash);
		if (inks[k].shape >= 0)
			svg_marker(f, &inks[k], x + (lines ? 22 : 9), y, 7);
		svg_text(f, x + gap, y + 7, fs, "start", NULL, names[k]);
		x += gap + svg_text_w(names[k], fs) + 28;
	}
}

void svg_runs_legend(FILE *f, const struct svg_runs *rs, double x, double y, double right, bool lines)
{
	struct svg_ink inks[WTG_LAY_MAX_RUNS];
	int n = rs->n < WTG_LAY_MAX_RUNS ? rs->n : WTG_LAY_MAX_RUNS;
	for (int r = 0; r < n; r++)
		inks[r] = svg_ink_of(rs, r, 0);
	legend(f, x, right, y - 7, rs->label, inks, n, lines);
}

/* Dashed lines at the machine's data caches where they fall on a working-set axis. */
static void cache_marks(FILE *f, const struct svg_frame *fr, const struct wtg_lay_sweep *p,
			const struct wtg_machine *m)
{
	for (int i = 0; m && i < m->ncaches; i++) {
		const struct wtg_cache *c = &m->caches[i];
		if (strcmp(c->type, "Instruction") == 0 || c->size == 0 || (double)c->size < p->xlo ||
		    (double)c->size > p->xhi)
			continue;
		double x = fr->x + wtg_lay_log_frac((double)c->size, p->xlo, p->xhi) * fr->w;
		char lab[64], sz[32];
		wtg_lay_fmt_tick_size(sz, sizeof sz, (double)c->size);
		snprintf(lab, sizeof lab, "L%d %s", c->level, sz);
		svg_line(f, x, fr->y, x, fr->y + fr->h, muted, 1.5, "6 5");
		bool left = x + 6 + svg_text_w(lab, 18) > SVG_W - 10;	/* near the right edge: the label before the line */
		svg_text(f, left ? x - 6 : x + 6, fr->y + 20 + 22 * (i % 2), 18, left ? "end" : "start",
			 "fill=\"#666666\"", lab);
	}
}

/* A series' confidence band: the upper ends left to right, the lower ends back. */
static void band(FILE *f, const struct svg_frame *fr, const struct wtg_lay_sweep *p, const struct wtg_lay_series *s,
		 const struct svg_ink *k)
{
	int n = 0;
	for (int i = 0; i < s->n; i++)
		n += !isnan(s->lo[i]) && !isnan(s->hi[i]);
	if (n < 2)
		return;
	fprintf(f, "<path fill=\"%s\" fill-opacity=\"0.18\" stroke=\"%s\" stroke-opacity=\"0.5\" stroke-width=\"1\" d=\"",
		k->colour, k->colour);
	const char *cmd = "M";
	for (int pass = 0; pass < 2; pass++)
		for (int j = 0; j < s->n; j++) {
			int i = pass ? s->n - 1 - j : j;
			if (isnan(s->lo[i]) || isnan(s->hi[i]))
				continue;
			double v = pass ? s->lo[i] : s->hi[i];
			double x = fr->x + wtg_lay_log_frac(s->x[i], p->xlo, p->xhi) * fr->w;
			double y = fr->y + fr->h - wtg_lay_y_frac(p, v) * fr->h;
			fprintf(f, "%s%.1f %.1f", cmd, x, y);
			cmd = "L";
		}
	fputs("Z\"/>\n", f);
}

/* A series of one point beside the lines (uncached's random reads, measured at one size only): named,
 * with its value and where it was measured, so it does not read as the start of a line; run r's
 * label a line higher than run r - 1's, so the runs' labels of one point stay apart. */
static void lone_point(FILE *f, const struct svg_frame *fr, const struct wtg_lay_sweep *p,
		       const struct wtg_lay_series *s, const struct svg_ink *k, int r)
{
	char v[48], x[48], lab[192];
	wtg_lay_fmt_value(v, sizeof v, s->y[0], p->yunit);
	if (p->bytes)
		wtg_lay_fmt_tick_size(x, sizeof x, s->x[0]);
	else
		wtg_lay_fmt_value(x, sizeof x, s->x[0], p->xunit);
	snprintf(lab, sizeof lab, "%s: %s, at %s only", s->name, v, x);
	double px = fr->x + wtg_lay_log_frac(s->x[0], p->xlo, p->xhi) * fr->w;
	double py = fr->y + fr->h - wtg_lay_y_frac(p, s->y[0]) * fr->h;
	bool left = px + 14 + svg_text_w(lab, 18) > fr->x + fr->w;
	char attrs[128];
	snprintf(attrs, sizeof attrs, "font-weight=\"bold\" fill=\"%s\" stroke=\"white\" stroke-width=\"4\" paint-order=\"stroke\"",
		 k->colour);
	svg_text(f, left ? px - 14 : px + 14, py - 12 - 24 * r, 18, left ? "end" : "start", attrs, lab);
}

/* One series of run r: its line, a marker at each point, and its name beside it when it is a lone
 * point. */
static void series(FILE *f, const struct svg_frame *fr, const struct wtg_lay_sweep *p, const struct wtg_lay_series *s,
		   const struct svg_ink *k, int r)
{
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"3.5\" stroke-linejoin=\"round\"%s%s%s points=\"",
		k->colour, *k->dash ? " stroke-dasharray=\"" : "", k->dash, *k->dash ? "\"" : "");
	for (int i = 0; i < s->n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", fr->x + wtg_lay_log_frac(s->x[i], p->xlo, p->xhi) * fr->w,
			fr->y + fr->h - wtg_lay_y_frac(p, s->y[i]) * fr->h);
	fputs("\"/>\n", f);
	for (int i = 0; i < s->n; i++)
		svg_marker(f, k, fr->x + wtg_lay_log_frac(s->x[i], p->xlo, p->xhi) * fr->w,
			   fr->y + fr->h - wtg_lay_y_frac(p, s->y[i]) * fr->h, 7);
	if (s->n == 1)
		lone_point(f, fr, p, s, k, r);
}

/* The x axis of a sweep: its ticks, labelled so neighbours differ, and its title. */
static void sweep_x_axis(FILE *f, const struct svg_frame *fr, const struct wtg_lay_sweep *p)
{
	double ticks[32], frac[32];
	char lab[32][32];
	int nt = wtg_lay_log_ticks(p->xlo, p->xhi, (int)(fr->w / 12), p->bytes ? 6 : 5, p->bytes, ticks, 32);
	double d0 = ceil(log10(p->xlo) - 1e-9), d1 = floor(log10(p->xhi) + 1e-9);
	if (!p->bytes && d1 > d0 && d1 - d0 < 30) {
		/* decades: a labelled tick at every power of ten (x_ticks keeps labels apart), and 2 .. 9 x
		 * each as short ticks */
		nt = 0;
		for (double d = d0; d <= d1 && nt < 32; d++)
			ticks[nt++] = pow(10, d);
		for (double d = d0 - 1; d <= d1; d++)
			for (int k = 2; k <= 9; k++) {
				double v = k * pow(10, d);
				if (v < p->xlo * (1 - 1e-9) || v > p->xhi * (1 + 1e-9))
					continue;
				double x = fr->x + wtg_lay_log_frac(v, p->xlo, p->xhi) * fr->w;
				svg_line(f, x, fr->y + fr->h, x, fr->y + fr->h + 5, ink, 1.5, NULL);
			}
	}
	wtg_lay_sweep_tick_labels(p, ticks, nt, lab);
	for (int i = 0; i < nt; i++)
		frac[i] = wtg_lay_log_frac(ticks[i], p->xlo, p->xhi);
	x_ticks(f, fr, frac, lab, nt);
	char xt[160];
	snprintf(xt, sizeof xt, "%s (log scale%s)", p->xtitle, p->ylog ? "; y too" : "");
	svg_text(f, fr->x + fr->w / 2, fr->y + fr->h + 66, 22, "middle", "fill=\"#444444\"", xt);
}

/* A roofline's roofs and ridge for each series of table t (e->sweep.ridge_rate): the best bytes
 * rate B as the line y = B x up to the ridge, the best y (P) flat beyond it, and the ridge P / B
 * marked and labelled. */
static void ridges(FILE *f, const struct svg_frame *fr, const struct wtg_lay_sweep *p, const struct svg_runs *rs,
		   int r, const struct wtg_experiment *e)
{
	const struct wtg_table *t = rs->t[r];
	int xc = wtg_table_col(t, e->sweep.x), yc = wtg_table_col(t, e->sweep.y[0]);
	int bc = wtg_table_col(t, e->sweep.ridge_rate), gc = e->sweep.group ? wtg_table_col(t, e->sweep.group) : -1;
	if (xc < 0 || yc < 0 || bc < 0)
		return;
	char (*names)[64] = NULL;
	int ns = 1, placed = 0;
	struct wtg_lay_sweep q;
	if (gc >= 0) {
		wtg_lay_sweep_build(&q, t, e);
		ns = q.ns;
		names = calloc((size_t)(ns > 0 ? ns : 1), sizeof *names);
		for (int k = 0; names && k < ns; k++)
			wtg_strlcpy(names[k], q.s[k].name, sizeof names[k]);
		wtg_lay_sweep_free(&q);
		if (!names)
			return;
	}
	for (int k = 0; k < ns; k++) {
		double B = 0, P = 0;
		for (int i = 0; i < t->nrows; i++) {
			const struct wtg_value *g = gc >= 0 ? &t->rows[i].v[gc] : NULL;
			if (g && (g->type != WTG_T_TEXT || !g->s || strcmp(g->s, names[k])))
				continue;
			double b = wtg_table_num(t, i, bc), y = wtg_table_num(t, i, yc);
			B = b > B ? b : B;
			P = y > P ? y : P;
		}
		double xr = B > 0 && P > 0 ? P / B : NAN;
		if (!(xr >= p->xlo && xr <= p->xhi))
			continue;
		struct svg_ink k_ink = svg_ink_of(rs, r, k);
		double x0 = fmax(p->xlo, p->ylog ? p->ymin / B : p->xlo);
		double px0 = fr->x + wtg_lay_log_frac(x0, p->xlo, p->xhi) * fr->w;
		double px = fr->x + wtg_lay_log_frac(xr, p->xlo, p->xhi) * fr->w, px1 = fr->x + fr->w;
		double py0 = fr->y + fr->h - wtg_lay_y_frac(p, B * x0) * fr->h;
		double py = fr->y + fr->h - wtg_lay_y_frac(p, P) * fr->h;
		fprintf(f, "<polyline class=\"roof\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
			   "stroke-dasharray=\"3 4\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
			k_ink.colour, px0, py0, px, py, px1, py);
		fprintf(f, "<path class=\"ridge\" d=\"M%.1f %.1fl9 9l-9 9l-9 -9Z\" fill=\"white\" stroke=\"%s\" "
			   "stroke-width=\"3\"/>\n", px, py - 9, k_ink.colour);
		char num[32], lab[160];
		wtg_lay_fmt_num(num, sizeof num, xr);
		snprintf(lab, sizeof lab, "ridge%s%s: %s %s", names ? " " : "", names ? names[k] : "", num,
			 p->xunit && *p->xunit ? p->xunit : "");
		bool left = px + 16 + svg_text_w(lab, 18) > fr->x + fr->w;
		char attrs[160];
		snprintf(attrs, sizeof attrs, "class=\"ridge-label\" font-weight=\"bold\" fill=\"%s\" stroke=\"white\" "
			 "stroke-width=\"4\" paint-order=\"stroke\"", k_ink.colour);
		svg_text(f, left ? px - 16 : px + 16, py - 16 - 24 * placed++, 18, left ? "end" : "start", attrs, lab);
	}
	free(names);
}

/* The series' names when they need telling apart: each in its own colour for one run; for several
 * runs (each a colour), each series' dash in grey. */
static void sweep_legend(FILE *f, const struct svg_frame *fr, const struct svg_runs *rs, const struct wtg_lay_sweep *p)
{
	const char *names[WTG_LAY_MAX_SERIES];
	struct svg_ink inks[WTG_LAY_MAX_SERIES];
	int nn = 0;
	for (int k = 0; k < p->ns && p->legend; k++, nn++) {
		names[k] = p->s[k].name;
		inks[k] = svg_ink_of(rs, 0, k);
		if (rs->n > 1)
			inks[k] = (struct svg_ink){ muted, inks[k].dash, -1 };
	}
	if (nn)
		legend(f, -1, fr->x + fr->w, fr->y - 24, names, inks, nn, true);
}

void svg_draw_sweep(FILE *f, const struct svg_frame *fr, const struct svg_runs *rs, const struct wtg_experiment *e)
{
	struct wtg_lay_sweep p[WTG_LAY_MAX_RUNS];
	int n = rs->n < WTG_LAY_MAX_RUNS ? rs->n : WTG_LAY_MAX_RUNS, ax = -1;
	for (int r = 0; r < n; r++) {
		wtg_lay_sweep_build(&p[r], rs->t[r], e);
		ax = p[r].ns > 0 ? r : ax;
	}
	for (int r = 0; r < n && ax >= 0; r++)	/* the axes: the last run's, widened to every run */
		if (r != ax)
			wtg_lay_sweep_widen(&p[ax], &p[r]);
	struct wtg_lay_sweep *a = ax >= 0 ? &p[ax] : NULL;
	if (!a || !(a->xlo > 0) || !(a->xhi > 0)) {
		svg_empty(f, fr, "no rows yet");
	} else {
		if (!a->ylog && !(a->ymax > 0))
			a->ymax = 1;
		y_axis(f, fr, a, a->yunit);
		sweep_x_axis(f, fr, a);
		if (a->cache_marks)
			cache_marks(f, fr, a, rs->m);
		bool ci = false;
		for (int r = 0; r < n; r++)
			for (int k = 0; k < p[r].ns; k++)
				if (p[r].s[k].has_ci) {
					struct svg_ink k_ink = svg_ink_of(rs, r, k);
					band(f, fr, a, &p[r].s[k], &k_ink);
					ci = true;
				}
		for (int r = 0; r < n; r++)	/* the earlier runs first, the latest drawn over them */
			for (int k = 0; k < p[r].ns; k++) {
				struct svg_ink k_ink = svg_ink_of(rs, r, k);
				series(f, fr, a, &p[r].s[k], &k_ink, r);
			}
		if (e->sweep.ridge_rate)	/* the latest run's */
			ridges(f, fr, a, rs, n - 1, e);
		sweep_legend(f, fr, rs, a);
		if (ci)
			svg_text(f, fr->x + fr->w, fr->y + fr->h + 66, 18, "end", "fill=\"#666666\"", "shaded: 95% CI");
	}
	for (int r = 0; r < n; r++)
		wtg_lay_sweep_free(&p[r]);
}

/* Fills for the bars' colour groups: solid, hatched and dotted, so groups survive a grey print. */
static void bar_patterns(FILE *f, const char *id)
{
	fputs("<defs>\n", f);
	fprintf(f, "<pattern id=\"%s-g1\" width=\"10\" height=\"10\" patternUnits=\"userSpaceOnUse\" "
		   "patternTransform=\"rotate(45)\"><rect width=\"10\" height=\"10\" fill=\"#f3d5cf\"/>"
		   "<rect width=\"5\" height=\"10\" fill=\"%s\"/></pattern>\n", id, svg_group_colour(1));
	fprintf(f, "<pattern id=\"%s-g2\" width=\"9\" height=\"9\" patternUnits=\"userSpaceOnUse\">"
		   "<rect width=\"9\" height=\"9\" fill=\"#d3ead5\"/><circle cx=\"4.5\" cy=\"4.5\" r=\"2.6\" "
		   "fill=\"%s\"/></pattern>\n", id, svg_group_colour(2));
	fputs("</defs>\n", f);
}

/* x of a value on the bars' scale: from bx over bw, or both ways from the middle when signed. */
static double bar_x(const struct wtg_lay_bars *b, double bx, double bw, double v)
{
	double f = fmin(fmax(v / b->scale, -1), 1);
	return b->neg ? bx + bw / 2 + f * bw / 2 : bx + fmax(f, 0) * bw;
}

/* The value axis under the bars: round ticks with light grid lines. */
static void bar_axis(FILE *f, const struct wtg_lay_bars *b, double bx, double bw, double top, double bottom)
{
	double ticks[32];
	double lo = b->neg ? -b->scale : 0;
	int nt = wtg_lay_lin_ticks(lo, b->scale, (int)(bw / 14), ticks, 32);
	for (int i = 0; i < nt; i++) {
		double x = bar_x(b, bx, bw, ticks[i]);
		char lab[48] = "0";
		bool zero = fabs(ticks[i]) < b->scale * 1e-9;
		if (!zero)
			wtg_lay_fmt_value(lab, sizeof lab, ticks[i], b->unit);
		svg_line(f, x, top, x, bottom, zero ? ink : grid, zero ? 2 : 1, NULL);
		svg_text(f, x, bottom + 24, 17, "middle", "fill=\"#444444\"", lab);
	}
}

/* One bar: the fill, its ideal-scaling mark and its whisker. */
static void bar(FILE *f, const struct wtg_lay_bars *b, const struct wtg_lay_bar *r, const struct svg_runs *rs,
		const char *id, double bx, double bw, double y, double th)
{
	double x0 = bar_x(b, bx, bw, 0), x1 = bar_x(b, bx, bw, r->x);
	char fill[64];
	const char *stroke = svg_group_colour(r->group > 0 ? r->group : 0);
	if (r->run >= 0)	/* several runs: the run's colour */
		stroke = svg_ink_of(rs, r->run, 0).colour;
	if (r->group <= 0 || r->run >= 0)
		snprintf(fill, sizeof fill, "%s", stroke);
	else
		snprintf(fill, sizeof fill, "url(#%s-g%d)", id, r->group);
	if (!isnan(r->x))
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1\"/>\n",
			fmin(x0, x1), y, fmax(fabs(x1 - x0), 1.5), th, fill, stroke);
	if (r->ideal > 0) {
		double xi = bar_x(b, bx, bw, fmin(r->ideal, b->scale));
		svg_line(f, xi, y - 5, xi, y + th + 5, warn, 4, NULL);
		if (r->ideal > b->scale)
			svg_text(f, xi - 4, y + th / 2 + 6, 18, "end", "fill=\"#b36b00\"", "\xe2\x86\x92");
	}
	if (!isnan(r->ci_lo) && !isnan(r->ci_hi)) {
		double a = bar_x(b, bx, bw, r->ci_lo), c = bar_x(b, bx, bw, r->ci_hi), m = y + th / 2;
		svg_line(f, a, m, c, m, ink, 2.5, NULL);
		svg_line(f, a, m - th / 3, a, m + th / 3, ink, 2.5, NULL);
		svg_line(f, c, m - th / 3, c, m + th / 3, ink, 2.5, NULL);
	}
}

/* A bar's value in bold, and what the layout put after two spaces (the extra column) in grey. */
static void bar_value(FILE *f, double x, double y, double fs, const char *value)
{
	const char *gap = strstr(value, "  ");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\"><tspan font-weight=\"bold\">", x, y, fs);
	char main[96];
	snprintf(main, sizeof main, "%.*s", gap ? (int)(gap - value) : (int)strlen(value), value);
	wtg_xml_string(f, main);
	fputs("</tspan>", f);
	if (gap) {
		fputs("<tspan fill=\"#666666\" dx=\"12\">", f);
		wtg_xml_string(f, gap + 2);
		fputs("</tspan>", f);
	}
	fputs("</text>\n", f);
}

void svg_draw_bars(FILE *f, const struct svg_frame *fr, const struct svg_runs *rs, const struct wtg_experiment *e)
{
	struct wtg_lay_bars b;
	if (wtg_lay_bars_build_runs(&b, rs->t, rs->n, e) < 0) {
		svg_empty(f, fr, "no rows yet");
		return;
	}
	const char *caption = e->bars.caption;
	int notes = (b.ideal ? 1 : 0) + (b.has_ci ? 1 : 0) + (rs->n == 1 && b.n == 2 && !b.neg ? 1 : 0) + (caption ? 1 : 0);
	double bottom = fr->y + fr->h - notes * 30 - 34;	/* the axis labels under the bars */
	double pitch = (bottom - fr->y) / b.n;
	double fs = fmin(22, fmax(10, pitch * 0.55)), th = fmin(pitch * 0.68, 46);
	double lw = 0, vw = 0;
	for (int r = 0; r < b.n; r++) {
		lw = fmax(lw, svg_text_w(b.b[r].label, fs));
		vw = fmax(vw, svg_text_w(b.b[r].value, fs));
	}
	lw = fmin(lw, fr->w * 0.3);
	vw = fmin(vw, fr->w * 0.3);
	double bx = fr->x + lw + 14, bw = fr->w - lw - vw - 30;
	bar_patterns(f, e->name);
	bar_axis(f, &b, bx, bw, fr->y, bottom);
	for (int r = 0; r < b.n; r++) {
		double y = fr->y + r * pitch + (pitch - th) / 2;
		svg_text(f, bx - 14, y + th / 2 + fs * 0.36, fs, "end", "font-weight=\"bold\"", b.b[r].label);
		bar(f, &b, &b.b[r], rs, e->name, bx, bw, y, th);
		bar_value(f, bx + bw + 12, y + th / 2 + fs * 0.36, fs, b.b[r].value);
	}
	double y = bottom + 64;
	char buf[256], v1[64];
	if (b.ideal) {
		wtg_lay_fmt_value(v1, sizeof v1, b.base, b.unit);
		char parts[64] = "";
		if (b.ideal_parts)
			snprintf(parts, sizeof parts, ", \xc3\x97 the parts' gain on %d row%s", b.ideal_parts,
				 b.ideal_parts == 1 ? "" : "s");
		snprintf(buf, sizeof buf, "ideal scaling: %s (1 thread) \xc3\x97 %s%s%s", v1,
			 b.ideal_capped ? "min(N, CPUs)" : "N", parts, isnan(b.base) ? " (waiting for the 1-thread row)" : "");
		svg_line(f, bx + 2, y - 18, bx + 2, y + 4, warn, 4, NULL);
		svg_text(f, bx + 14, y, 19, "start", "fill=\"#b36b00\"", buf);
		y += 30;
	}
	if (b.has_ci) {
		svg_line(f, bx, y - 7, bx + 30, y - 7, ink, 2.5, NULL);
		svg_line(f, bx, y - 15, bx, y + 1, ink, 2.5, NULL);
		svg_line(f, bx + 30, y - 15, bx + 30, y + 1, ink, 2.5, NULL);
		svg_text(f, bx + 42, y, 19, "start", NULL, "95% confidence interval");
		y += 30;
	}
	if (caption) {
		svg_text_fit(f, bx, y, 19, fr->x + fr->w, "fill=\"#444444\"", caption);
		y += 30;
	}
	if (rs->n == 1 && b.n == 2 && !b.neg && b.b[0].x > 0 && b.b[1].x > 0) {
		int hi = b.b[0].x >= b.b[1].x ? 0 : 1;
		wtg_lay_fmt_num(v1, sizeof v1, b.b[hi].x / b.b[1 - hi].x);
		snprintf(buf, sizeof buf, "%s / %s = %s\xc3\x97", b.b[hi].label, b.b[1 - hi].label, v1);
		svg_text(f, bx, y, 20, "start", "font-weight=\"bold\"", buf);
	}
	wtg_lay_bars_free(&b);
}

/* A distribution's bins as one outlined area, scaled to its own peak. */
static void hist_area(FILE *f, const struct svg_frame *fr, const struct wtg_lay_hist *h, int k,
		      const struct svg_ink *ink_k)
{
	const struct wtg_lay_dist *d = &h->d[k];
	if (!d->bins || d->peak <= 0)
		return;
	double base = fr->y + fr->h;
	const char *c = ink_k->colour, *dash = ink_k->dash;
	fprintf(f, "<path fill=\"%s\" fill-opacity=\"%.2f\" stroke=\"%s\" stroke-width=\"2.5\"%s%s%s d=\"M%.1f %.1f",
		c, h->nd > 1 ? 0.22 : 0.45, c, *dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "", fr->x,
		base);
	for (int b = 0; b < h->nb; b++) {
		double x0 = fr->x + wtg_lay_frac(h->edges[b], h->lo, h->hi, h->log) * fr->w;
		double x1 = fr->x + wtg_lay_frac(h->edges[b + 1], h->lo, h->hi, h->log) * fr->w;
		double y = base - (double)d->bins[b] / d->peak * fr->h * 0.92;
		if (d->bins[b] > 0 && base - y < 2)
			y = base - 2;	/* a bin with samples never looks empty */
		fprintf(f, "L%.1f %.1fL%.1f %.1f", x0, y, x1, y);
	}
	fprintf(f, "L%.1f %.1fZ\"/>\n", fr->x + fr->w, base);
}

/* Median, p90 and p99 of every distribution: lines through the chart, each labelled with its value
 * (in its distribution's colour) on the highest row where the label does not run into another.
 * Returns the rows the labels take; f NULL only counts them. */
static int hist_marks(FILE *f, const struct svg_frame *fr, const struct wtg_lay_hist *h, const struct svg_ink *inks)
{
	static const char *const qn[3] = { "median", "p90", "p99" };
	static const char *const qdash[3] = { "", "8 4", "2 4" };
	enum { ROWS = 9 };
	double used[ROWS][WTG_LAY_MAX_DIST * 3][2];
	int nused[ROWS] = { 0 }, rows = 0;
	for (int k = 0; k < h->nd; k++)
		for (int j = 0; j < 3; j++) {
			const struct wtg_lay_dist *d = &h->d[k];
			double q = j == 0 ? d->med : j == 1 ? d->p90 : d->p99;
			double x = fr->x + wtg_lay_frac(q, h->lo, h->hi, h->log) * fr->w;
			char val[48], lab[96];
			wtg_lay_fmt_value(val, sizeof val, q, d->s->unit);
			snprintf(lab, sizeof lab, "%s %s", qn[j], val);
			double w = svg_text_w(lab, 18);
			bool left = x + 8 + w > fr->x + fr->w;
			double a = left ? x - 8 - w : x, b = left ? x : x + 8 + w;
			int row = 0;
			for (; row < ROWS - 1; row++) {
				bool clash = false;
				for (int i = 0; i < nused[row]; i++)
					clash = clash || (a < used[row][i][1] + 6 && b > used[row][i][0] - 6);
				if (!clash)
					break;
			}
			used[row][nused[row]][0] = a;
			used[row][nused[row]++][1] = b;
			rows = row + 1 > rows ? row + 1 : rows;
			if (!f)
				continue;
			double y = fr->y + 18 + 24 * row;
			char attrs[160];
			snprintf(attrs, sizeof attrs,
				 "font-weight=\"bold\" fill=\"%s\" stroke=\"white\" stroke-width=\"4\" paint-order=\"stroke\"",
				 inks[k].colour);
			svg_line(f, x, y - 16, x, fr->y + fr->h, inks[k].colour, j ? 2 : 3, qdash[j]);
			svg_text(f, left ? x - 6 : x + 6, y, 18, left ? "end" : "start", attrs, lab);
		}
	return rows;
}

/* The x axis under the distributions: grid lines and ticks labelled so neighbours differ, and what
 * the scale is. */
static void hist_x_axis(FILE *f, const struct svg_frame *fr, const struct wtg_lay_hist *h)
{
	const char *unit = h->d[0].s->unit;
	double ticks[32], frac[32];
	char lab[32][32];
	int nt = h->log ? wtg_lay_log_ticks(h->lo, h->hi, (int)(fr->w / 12), 8, false, ticks, 32)
			: wtg_lay_lin_ticks(h->lo, h->hi, (int)(fr->w / 12), ticks, 32);
	wtg_lay_tick_labels(lab, ticks, nt, unit);
	for (int i = 0; i < nt; i++) {
		frac[i] = wtg_lay_frac(ticks[i], h->lo, h->hi, h->log);
		svg_line(f, fr->x + frac[i] * fr->w, fr->y, fr->x + frac[i] * fr->w, fr->y + fr->h, grid, 1, NULL);
	}
	svg_line(f, fr->x, fr->y + fr->h, fr->x + fr->w, fr->y + fr->h, ink, 2, NULL);
	x_ticks(f, fr, frac, lab, nt);
	char xt[192];
	snprintf(xt, sizeof xt, "%s (%s scale%s; bar height: samples per bin%s)",
		 wtg_lay_time_scale(unit) > 0 ? "time" : unit, h->log ? "log" : "linear",
		 h->zeros ? ", samples at 0 at the left edge" : "", h->nd > 1 ? ", each to its peak" : "");
	svg_text(f, fr->x + fr->w / 2, fr->y + fr->h + 62, 19, "middle", "fill=\"#444444\"", xt);
}

/* Under the axis: each distribution's line of figures after its marker, and for two the ratio of
 * their p99s. */
static void hist_figures(FILE *f, const struct svg_frame *fr, const struct wtg_lay_hist *h, const struct svg_ink *inks)
{
	for (int k = 0; k < h->nd; k++) {
		char buf[512];
		wtg_lay_hist_figures(buf, sizeof buf, h->d[k].t, &h->d[k], "\xe2\x80\x93");
		double y = fr->y + fr->h + 98 + 28 * k;
		svg_marker(f, &inks[k], fr->x + 8, y - 7, 7);
		svg_text_fit(f, fr->x + 24, y, 19, 1270, NULL, buf);
	}
	if (h->nd == 2 && h->d[0].p99 > 0) {
		char r[32], buf[320];
		wtg_lay_fmt_num(r, sizeof r, h->d[1].p99 / h->d[0].p99);
		snprintf(buf, sizeof buf, "p99 %s / %s = %s\xc3\x97", h->d[1].name, h->d[0].name, r);
		svg_text_fit(f, fr->x + 24, fr->y + fr->h + 98 + 28 * 2, 19, 1270, "font-weight=\"bold\"", buf);
	}
}

void svg_draw_hist(FILE *f, const struct svg_frame *fr0, const struct svg_runs *rs)
{
	struct wtg_lay_hist h;
	int nd = rs->n == 1 ? wtg_lay_hist_build(&h, rs->t[0]) : wtg_lay_hist_build_runs(&h, rs->t, rs->label, rs->n);
	if (nd == 0 || wtg_lay_hist_bin(&h, (int)(fr0->w / 5)) < 0) {
		svg_empty(f, fr0, rs->n == 1 && rs->t[0]->nrows == 0 ? "no rows yet" : "no samples in this table");
		wtg_lay_hist_free(&h);
		return;
	}
	struct svg_ink inks[WTG_LAY_MAX_DIST];
	const char *names[WTG_LAY_MAX_DIST];
	for (int k = 0; k < h.nd; k++) {	/* one run: a colour per series; several: the run's */
		int r = 0;
		while (rs->n > 1 && r < rs->n - 1 && rs->t[r] != h.d[k].t)
			r++;
		inks[k] = svg_ink_of(rs, r, rs->n > 1 ? 0 : k);
		names[k] = h.d[k].name;
	}
	int nfig = h.nd + (h.nd == 2 ? 1 : 0);
	struct svg_frame fr = *fr0;
	double ph = rs->n == 1 ? svg_parts_height(rs->t[0]) : 0;	/* the division's bars under the figures */
	fr.h -= nfig * 28 + 6 + ph;
	struct svg_frame area = fr;	/* the bins stay under the quantiles' labels */
	int lrows = hist_marks(NULL, &fr, &h, inks);
	area.y += 24 * lrows + 6;
	area.h -= 24 * lrows + 6;
	for (int k = 0; k < h.nd; k++)
		hist_area(f, &area, &h, k, &inks[k]);
	hist_x_axis(f, &fr, &h);
	hist_marks(f, &fr, &h, inks);
	if (h.nd > 1 && rs->n == 1)	/* several runs: the runs' legend is above the chart */
		legend(f, -1, fr.x + fr.w, fr.y - 20, names, inks, h.nd, true);
	hist_figures(f, &fr, &h, inks);
	if (ph > 0)
		svg_draw_parts(f, &(struct svg_frame){ fr.x, fr.y + fr.h + 98 + 28 * (nfig - 1) + 14, fr.w, ph }, rs->t[0]);
	wtg_lay_hist_free(&h);
}

/* A header too wide for its column, broken at the space nearest its middle: 1 or 2 lines. */
static int head_split(const char *h, double width, double fs, char *a, char *b, size_t len)
{
	wtg_strlcpy(a, h, len);
	b[0] = '\0';
	if (svg_text_w(h, fs) <= width)
		return 1;
	size_t n = strlen(h), best = 0;
	for (size_t i = 1; i < n; i++)
		if (h[i] == ' ' && (best == 0 || labs((long)(2 * i) - (long)n) < labs((long)(2 * best) - (long)n)))
			best = i;
	if (best == 0)
		return 1;
	snprintf(a, len, "%.*s", (int)best, h);
	wtg_strlcpy(b, h + best + 1, len);
	return 2;
}

/* Counters side by side: a line per metric, a right-aligned column per case, headers on up to two
 * lines. */
static void grid_by_metric(FILE *f, const struct svg_frame *fr, const struct wtg_lay_grid *g, double bottom)
{
	double pitch = fmin(44, (bottom - fr->y) / (g->nm + 2.5)), fs = fmin(24, pitch * 0.62);
	double nw = 0;
	for (int m = 0; m < g->nm; m++)
		nw = fmax(nw, svg_text_w(g->name[m], fs));
	double cw = (fr->w - nw - 20) / g->ncases;
	char a[WTG_LAY_MAX_CASES][64], b[WTG_LAY_MAX_CASES][64];
	int hl = 1;
	for (int k = 0; k < g->ncases; k++) {
		int n = head_split(g->head[k], cw - 14, fs, a[k], b[k], sizeof a[k]);
		hl = n > hl ? n : hl;
	}
	for (int k = 0; k < g->ncases; k++) {
		double x = fr->x + nw + 20 + (k + 1) * cw;
		bool two = b[k][0] != '\0';
		svg_text(f, x, fr->y + fs + (hl == 2 && !two ? pitch * 0.8 : 0), fs, "end", "font-weight=\"bold\"", a[k]);
		if (two)
			svg_text(f, x, fr->y + fs + pitch * 0.8, fs, "end", "font-weight=\"bold\"", b[k]);
	}
	double top = fr->y + (hl - 1) * pitch * 0.8;
	svg_line(f, fr->x, top + pitch * 0.9, fr->x + fr->w, top + pitch * 0.9, ink, 2, NULL);
	for (int m = 0; m < g->nm; m++) {
		double y = top + pitch * (m + 1.6) + fs * 0.36;
		if (m % 2 == 0)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f2f2f2\"/>\n", fr->x,
				y - fs * 0.36 - pitch / 2, fr->w, pitch);
		const char *style = g->derived[m] ? "font-style=\"italic\" fill=\"#1f5fa8\"" : "fill=\"#444444\"";
		svg_text(f, fr->x, y, fs, "start", style, g->name[m]);
		for (int k = 0; k < g->ncases; k++)
			svg_text(f, fr->x + nw + 20 + (k + 1) * cw, y, fs, "end",
				 g->derived[m] ? "font-weight=\"bold\" font-style=\"italic\" fill=\"#1f5fa8\"" : "font-weight=\"bold\"",
				 g->cell[m][k]);
	}
}

/* More cases than fit side by side: a line per case, a column per metric (units in the header). */
static void grid_by_case(FILE *f, const struct svg_frame *fr, const struct wtg_lay_grid *g, double bottom)
{
	double pitch = fmin(40, (bottom - fr->y) / (g->ncases + 2.2)), fs = fmin(20, pitch * 0.62);
	double hw = 0;
	for (int k = 0; k < g->ncases; k++)
		hw = fmax(hw, svg_text_w(g->head[k], fs));
	double x = fr->x + hw + 10;
	for (int m = 0; m < g->nm; m++) {
		double cw = fmax(svg_text_w(g->name[m], fs * 0.85), svg_text_w(g->unit[m], fs * 0.85));
		for (int k = 0; k < g->ncases; k++)
			cw = fmax(cw, svg_text_w(g->bare[m][k], fs));
		cw += 18;
		if (x + cw > fr->x + fr->w)
			break;
		svg_text(f, x + cw, fr->y + fs, fs * 0.85, "end", "font-weight=\"bold\"", g->name[m]);
		svg_text(f, x + cw, fr->y + fs + pitch * 0.8, fs * 0.85, "end", "fill=\"#666666\"", g->unit[m]);
		for (int k = 0; k < g->ncases; k++)
			svg_text(f, x + cw, fr->y + pitch * (k + 2.6), fs, "end", NULL, g->bare[m][k]);
		x += cw;
	}
	svg_line(f, fr->x, fr->y + pitch * 1.7, x, fr->y + pitch * 1.7, ink, 2, NULL);
	for (int k = 0; k < g->ncases; k++)
		svg_text(f, fr->x, fr->y + pitch * (k + 2.6), fs, "start", "font-weight=\"bold\"", g->head[k]);
}

/* The derived figures under the counters: one run's (up to three), or each run's first after its
 * label. Returns how many. */
static int counter_figures(const struct svg_runs *rs, const struct wtg_experiment *e, char fig[][256])
{
	const char *minus = "\xe2\x88\x92", *times = "\xc3\x97";
	if (rs->n == 1)
		return wtg_lay_counter_figures(rs->t[0], e, fig, 3, minus, times);
	int n = 0;
	for (int r = 0; r < rs->n && n < 3; r++) {
		char one[1][256];
		if (wtg_lay_counter_figures(rs->t[r], e, one, 1, minus, times) > 0)
			snprintf(fig[n++], 256, "%.60s: %.190s", rs->label[r], one[0]);
	}
	return n;
}

void svg_draw_counters(FILE *f, const struct svg_frame *fr, const struct svg_runs *rs, const struct wtg_experiment *e)
{
	int rows = 0;
	for (int r = 0; r < rs->n; r++)
		rows += rs->t[r]->nrows;
	if (rows == 0) {
		svg_empty(f, fr, "no rows yet");
		return;
	}
	if (e->bars.value) {	/* the headline as bars on a slide; the counters stay in the table */
		svg_draw_bars(f, fr, rs, e);
		return;
	}
	struct wtg_lay_grid *g = calloc((size_t)rs->n + 1, sizeof *g);
	if (!g)
		return;
	if (rs->n == 1) {
		wtg_lay_grid_build(g, rs->t[0]);
	} else {	/* a column per case and run */
		for (int r = 0; r < rs->n; r++)
			wtg_lay_grid_build(&g[r + 1], rs->t[r]);
		wtg_lay_grid_merge(g, g + 1, rs->label, rs->n, " \xc2\xb7 ");
	}
	char fig[3][256];
	int nfig = counter_figures(rs, e, fig);
	double bottom = fr->y + fr->h + 40 - nfig * 32;
	if (g->ncases <= 6)
		grid_by_metric(f, fr, g, bottom);
	else
		grid_by_case(f, fr, g, bottom);
	for (int i = 0; i < nfig; i++)
		svg_text_fit(f, fr->x, bottom + 36 + 32 * i, 21, fr->x + fr->w, "font-weight=\"bold\" fill=\"#1f5fa8\"",
			     fig[i]);
	free(g);
}
