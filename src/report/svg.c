/* svg.c: an experiment's chart as SVG, sized for a slide (a 1280x720 view box) and readable in black
 * and white: the sweep's lines on a log2 x axis with their confidence bands and the machine's caches,
 * bars with ideal-scaling marks and whiskers, overlaid histograms with median, p90 and p99, counters
 * as a table. The scales, ticks, bins and labels come from the layout the dashboard draws from. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wtg/experiment.h"
#include "wtg/layout.h"
#include "wtg/report.h"
#include "writers.h"
#include "wtg/util.h"

#define SVG_W 1280.0
#define SVG_H 720.0
#define FONT "Helvetica, Arial, sans-serif"

/* Series are told apart by colour, dash pattern and marker shape, so a grey print keeps them apart. */
static const char *const colour[3] = { "#1f5fa8", "#c8452b", "#2e7d32" };
static const char *const dashes[3] = { "", "14 7", "4 6" };
static const char *const ink = "#222222", *const grid = "#d9d9d9", *const muted = "#666666";
static const char *const warn = "#b36b00";

/* The plotting rectangle. */
struct frame {
	double x, y, w, h;
};

void wtg_xml_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		unsigned c = *p;
		int n = wtg_utf8_len(p);
		if (n == 0) {
			fputs("\xef\xbf\xbd", f);	/* U+FFFD for a byte that is not UTF-8 */
			p++;
			continue;
		}
		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c == '\'')
			fputs("&#39;", f);
		else if (c < 0x20 || c == 0x7f)
			putc(' ', f);	/* XML has no place for control characters */
		else
			fwrite(p, 1, (size_t)n, f);
		p += n;
	}
}

/* A text element: anchor "start", "middle" or "end"; extra attributes as given. */
static void text(FILE *f, double x, double y, double size, const char *anchor, const char *extra, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y, size, anchor,
		extra && *extra ? " " : "", extra ? extra : "");
	wtg_xml_string(f, s);
	fputs("</text>\n", f);
}

/* About how wide a string is in a sans-serif face (for laying out labels before the viewer does). */
static double text_w(const char *s, double size)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += (*p & 0xc0) != 0x80;
	return (double)n * size * 0.56;
}

/* A line of text from x to at most `right`: its size lowered from `size` until it fits. */
static void text_fit(FILE *f, double x, double y, double size, double right, const char *extra, const char *s)
{
	double w = text_w(s, size);
	if (w > right - x && w > 0)
		size = size * (right - x) / w;
	text(f, x, y, size < 11 ? 11 : size, "start", extra, s);
}

static void line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double width,
		 const char *dash)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s/>\n",
		x1, y1, x2, y2, stroke, width, dash && *dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
		dash && *dash ? "\"" : "");
}

/* Marker k: a circle, a square or a triangle. */
static void marker(FILE *f, int k, double x, double y, double r)
{
	const char *c = colour[k % 3];
	if (k % 3 == 0)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"white\" stroke-width=\"1.5\"/>\n",
			x, y, r, c);
	else if (k % 3 == 1)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"white\" stroke-width=\"1.5\"/>\n",
			x - r, y - r, 2 * r, 2 * r, c);
	else
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\" stroke=\"white\" stroke-width=\"1.5\"/>\n",
			x, y - 1.2 * r, x + 1.1 * r, y + 0.8 * r, x - 1.1 * r, y + 0.8 * r, c);
}

/* A message in the middle of an empty chart. */
static void empty(FILE *f, const struct frame *fr, const char *msg)
{
	text(f, fr->x + fr->w / 2, fr->y + fr->h / 2, 26, "middle", "fill=\"#666666\"", msg);
}

/* The y axis from 0 to ymax (or a log axis over its decades) with round ticks and grid lines; the
 * unit above it. */
static void y_axis(FILE *f, const struct frame *fr, const struct wtg_lay_sweep *p, const char *unit)
{
	double ticks[16];
	char lab[16][32];
	int nt = wtg_lay_y_ticks(p, (int)(fr->h / 20), ticks, lab, 16);
	for (int k = 0; k < nt; k++) {
		double y = fr->y + fr->h - fr->h * wtg_lay_y_frac(p, ticks[k]);
		line(f, fr->x, y, fr->x + fr->w, y, k ? grid : ink, k ? 1 : 2, NULL);
		text(f, fr->x - 12, y + 7, 20, "end", NULL, lab[k]);
	}
	line(f, fr->x, fr->y, fr->x, fr->y + fr->h, ink, 2, NULL);
	text(f, fr->x - 12, fr->y - 18, 20, "end", "font-weight=\"bold\"", unit && *unit ? unit : "value");
}

/* Labelled ticks under the x axis: positions as fractions of the width, labels kept apart. */
static void x_ticks(FILE *f, const struct frame *fr, const double *frac, char lab[][32], int n)
{
	double free_from = fr->x - 1e9;
	for (int i = 0; i < n; i++) {
		double x = fr->x + frac[i] * fr->w, w = text_w(lab[i], 20);
		line(f, x, fr->y + fr->h, x, fr->y + fr->h + 8, ink, 2, NULL);
		if (x - w / 2 < free_from)
			continue;
		text(f, x, fr->y + fr->h + 32, 20, "middle", NULL, lab[i]);
		free_from = x + w / 2 + 10;
	}
}

/* Legend entries from the right end of the line at y: a line sample with its marker, then the name. */
static void legend(FILE *f, double right, double y, char names[][64], int n, bool lines)
{
	double x = right;
	for (int k = n - 1; k >= 0; k--) {
		x -= text_w(names[k], 20);
		text(f, x, y + 7, 20, "start", NULL, names[k]);
		x -= lines ? 58 : 26;
		if (lines)
			line(f, x, y, x + 44, y, colour[k], 3, dashes[k]);
		marker(f, k, x + (lines ? 22 : 9), y, 7);
		x -= 28;
	}
}

/* Dashed lines at the machine's data caches where they fall on a working-set axis. */
static void cache_marks(FILE *f, const struct frame *fr, const struct wtg_lay_sweep *p,
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
		line(f, x, fr->y, x, fr->y + fr->h, muted, 1.5, "6 5");
		bool left = x + 6 + text_w(lab, 18) > 1280 - 10;	/* near the right edge: the label before the line */
		text(f, left ? x - 6 : x + 6, fr->y + 20 + 22 * (i % 2), 18, left ? "end" : "start",
		     "fill=\"#666666\"", lab);
	}
}

/* A series' confidence band: the upper ends left to right, the lower ends back. */
static void band(FILE *f, const struct frame *fr, const struct wtg_lay_sweep *p, const struct wtg_lay_series *s,
		 int k)
{
	int n = 0;
	for (int i = 0; i < s->n; i++)
		n += !isnan(s->lo[i]) && !isnan(s->hi[i]);
	if (n < 2)
		return;
	fprintf(f, "<path fill=\"%s\" fill-opacity=\"0.18\" stroke=\"%s\" stroke-opacity=\"0.5\" stroke-width=\"1\" d=\"",
		colour[k], colour[k]);
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
 * with its value and where it was measured, so it does not read as the start of a line. */
static void lone_point(FILE *f, const struct frame *fr, const struct wtg_lay_sweep *p, int k)
{
	const struct wtg_lay_series *s = &p->s[k];
	char v[48], x[48], lab[192];
	wtg_lay_fmt_value(v, sizeof v, s->y[0], p->yunit);
	if (p->bytes)
		wtg_lay_fmt_tick_size(x, sizeof x, s->x[0]);
	else
		wtg_lay_fmt_value(x, sizeof x, s->x[0], p->xunit);
	snprintf(lab, sizeof lab, "%s: %s, at %s only", s->name, v, x);
	double px = fr->x + wtg_lay_log_frac(s->x[0], p->xlo, p->xhi) * fr->w;
	double py = fr->y + fr->h - wtg_lay_y_frac(p, s->y[0]) * fr->h;
	bool left = px + 14 + text_w(lab, 18) > fr->x + fr->w;
	char attrs[128];
	snprintf(attrs, sizeof attrs, "font-weight=\"bold\" fill=\"%s\" stroke=\"white\" stroke-width=\"4\" paint-order=\"stroke\"",
		 colour[k]);
	text(f, left ? px - 14 : px + 14, py - 12, 18, left ? "end" : "start", attrs, lab);
}

static void draw_sweep(FILE *f, const struct frame *fr, const struct wtg_table *t, const struct wtg_experiment *e,
		       const struct wtg_machine *m)
{
	struct wtg_lay_sweep p;
	wtg_lay_sweep_build(&p, t, e);
	if (p.ns == 0 || !(p.xlo > 0) || !(p.xhi > 0)) {
		empty(f, fr, "no rows yet");
		wtg_lay_sweep_free(&p);
		return;
	}
	if (!p.ylog && !(p.ymax > 0))
		p.ymax = 1;
	y_axis(f, fr, &p, p.yunit);
	double ticks[32], frac[32];
	char lab[32][32];
	int nt = wtg_lay_log_ticks(p.xlo, p.xhi, (int)(fr->w / 12), p.bytes ? 6 : 5, p.bytes, ticks, 32);
	wtg_lay_tick_labels(lab, ticks, nt, p.xunit);
	for (int i = 0; i < nt; i++) {
		frac[i] = wtg_lay_log_frac(ticks[i], p.xlo, p.xhi);
		if (p.bytes)
			wtg_lay_fmt_tick_size(lab[i], sizeof lab[i], ticks[i]);
	}
	x_ticks(f, fr, frac, lab, nt);
	char xt[160];
	snprintf(xt, sizeof xt, "%s (log scale%s)", p.xtitle, p.ylog ? "; y too" : "");
	text(f, fr->x + fr->w / 2, fr->y + fr->h + 66, 22, "middle", "fill=\"#444444\"", xt);
	if (p.cache_marks)
		cache_marks(f, fr, &p, m);
	for (int k = 0; k < p.ns; k++)
		if (p.s[k].has_ci)
			band(f, fr, &p, &p.s[k], k);
	for (int k = 0; k < p.ns; k++) {
		const struct wtg_lay_series *s = &p.s[k];
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"3.5\" stroke-linejoin=\"round\"%s%s%s points=\"",
			colour[k], *dashes[k] ? " stroke-dasharray=\"" : "", dashes[k], *dashes[k] ? "\"" : "");
		for (int i = 0; i < s->n; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "", fr->x + wtg_lay_log_frac(s->x[i], p.xlo, p.xhi) * fr->w,
				fr->y + fr->h - wtg_lay_y_frac(&p, s->y[i]) * fr->h);
		fputs("\"/>\n", f);
		for (int i = 0; i < s->n; i++)
			marker(f, k, fr->x + wtg_lay_log_frac(s->x[i], p.xlo, p.xhi) * fr->w,
			       fr->y + fr->h - wtg_lay_y_frac(&p, s->y[i]) * fr->h, 7);
		if (s->n == 1)
			lone_point(f, fr, &p, k);
	}
	char names[WTG_LAY_MAX_SERIES + 1][64];
	int nn = 0;
	for (int k = 0; k < p.ns && p.legend; k++)
		wtg_strlcpy(names[nn++], p.s[k].name, sizeof names[0]);
	if (nn)
		legend(f, fr->x + fr->w, fr->y - 24, names, nn, true);
	bool ci = false;
	for (int k = 0; k < p.ns; k++)
		ci = ci || p.s[k].has_ci;
	if (ci)
		text(f, fr->x + fr->w, fr->y + fr->h + 66, 18, "end", "fill=\"#666666\"", "shaded: 95% CI");
	wtg_lay_sweep_free(&p);
}

/* Fills for the bars' colour groups: solid, hatched and dotted, so groups survive a grey print. */
static void bar_patterns(FILE *f, const char *id)
{
	fputs("<defs>\n", f);
	fprintf(f, "<pattern id=\"%s-g1\" width=\"10\" height=\"10\" patternUnits=\"userSpaceOnUse\" "
		   "patternTransform=\"rotate(45)\"><rect width=\"10\" height=\"10\" fill=\"#f3d5cf\"/>"
		   "<rect width=\"5\" height=\"10\" fill=\"%s\"/></pattern>\n", id, colour[1]);
	fprintf(f, "<pattern id=\"%s-g2\" width=\"9\" height=\"9\" patternUnits=\"userSpaceOnUse\">"
		   "<rect width=\"9\" height=\"9\" fill=\"#d3ead5\"/><circle cx=\"4.5\" cy=\"4.5\" r=\"2.6\" "
		   "fill=\"%s\"/></pattern>\n", id, colour[2]);
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
		line(f, x, top, x, bottom, zero ? ink : grid, zero ? 2 : 1, NULL);
		text(f, x, bottom + 24, 17, "middle", "fill=\"#444444\"", lab);
	}
}

/* One bar: the fill, its ideal-scaling mark and its whisker. */
static void bar(FILE *f, const struct wtg_lay_bars *b, const struct wtg_lay_bar *r, const char *id, double bx,
		double bw, double y, double th)
{
	double x0 = bar_x(b, bx, bw, 0), x1 = bar_x(b, bx, bw, r->x);
	char fill[64];
	if (r->group <= 0)
		snprintf(fill, sizeof fill, "%s", colour[0]);
	else
		snprintf(fill, sizeof fill, "url(#%s-g%d)", id, r->group);
	if (!isnan(r->x))
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1\"/>\n",
			fmin(x0, x1), y, fmax(fabs(x1 - x0), 1.5), th, fill, colour[r->group > 0 ? r->group : 0]);
	if (r->ideal > 0) {
		double xi = bar_x(b, bx, bw, fmin(r->ideal, b->scale));
		line(f, xi, y - 5, xi, y + th + 5, warn, 4, NULL);
		if (r->ideal > b->scale)
			text(f, xi - 4, y + th / 2 + 6, 18, "end", "fill=\"#b36b00\"", "\xe2\x86\x92");
	}
	if (!isnan(r->ci_lo) && !isnan(r->ci_hi)) {
		double a = bar_x(b, bx, bw, r->ci_lo), c = bar_x(b, bx, bw, r->ci_hi), m = y + th / 2;
		line(f, a, m, c, m, ink, 2.5, NULL);
		line(f, a, m - th / 3, a, m + th / 3, ink, 2.5, NULL);
		line(f, c, m - th / 3, c, m + th / 3, ink, 2.5, NULL);
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

static void draw_bars(FILE *f, const struct frame *fr, const struct wtg_table *t, const struct wtg_experiment *e)
{
	struct wtg_lay_bars b;
	if (wtg_lay_bars_build(&b, t, e) < 0) {
		empty(f, fr, "no rows yet");
		return;
	}
	const char *caption = e->bars.caption;
	int notes = (b.ideal ? 1 : 0) + (b.has_ci ? 1 : 0) + (b.n == 2 && !b.neg ? 1 : 0) + (caption ? 1 : 0);
	double bottom = fr->y + fr->h - notes * 30 - 34;	/* the axis labels under the bars */
	double pitch = (bottom - fr->y) / b.n;
	double fs = fmin(22, fmax(10, pitch * 0.55)), th = fmin(pitch * 0.68, 46);
	double lw = 0, vw = 0;
	for (int r = 0; r < b.n; r++) {
		lw = fmax(lw, text_w(b.b[r].label, fs));
		vw = fmax(vw, text_w(b.b[r].value, fs));
	}
	lw = fmin(lw, fr->w * 0.3);
	vw = fmin(vw, fr->w * 0.3);
	double bx = fr->x + lw + 14, bw = fr->w - lw - vw - 30;
	bar_patterns(f, e->name);
	bar_axis(f, &b, bx, bw, fr->y, bottom);
	for (int r = 0; r < b.n; r++) {
		double y = fr->y + r * pitch + (pitch - th) / 2;
		text(f, bx - 14, y + th / 2 + fs * 0.36, fs, "end", "font-weight=\"bold\"", b.b[r].label);
		bar(f, &b, &b.b[r], e->name, bx, bw, y, th);
		bar_value(f, bx + bw + 12, y + th / 2 + fs * 0.36, fs, b.b[r].value);
	}
	double y = bottom + 64;
	char buf[256], v1[64];
	if (b.ideal) {
		wtg_lay_fmt_value(v1, sizeof v1, b.base, b.unit);
		snprintf(buf, sizeof buf, "ideal scaling: %s (1 thread) \xc3\x97 %s%s", v1,
			 b.ideal_capped ? "min(N, CPUs)" : "N", isnan(b.base) ? " (waiting for the 1-thread row)" : "");
		line(f, bx + 2, y - 18, bx + 2, y + 4, warn, 4, NULL);
		text(f, bx + 14, y, 19, "start", "fill=\"#b36b00\"", buf);
		y += 30;
	}
	if (b.has_ci) {
		line(f, bx, y - 7, bx + 30, y - 7, ink, 2.5, NULL);
		line(f, bx, y - 15, bx, y + 1, ink, 2.5, NULL);
		line(f, bx + 30, y - 15, bx + 30, y + 1, ink, 2.5, NULL);
		text(f, bx + 42, y, 19, "start", NULL, "95% confidence interval");
		y += 30;
	}
	if (caption) {
		text_fit(f, bx, y, 19, fr->x + fr->w, "fill=\"#444444\"", caption);
		y += 30;
	}
	if (b.n == 2 && !b.neg && b.b[0].x > 0 && b.b[1].x > 0) {
		int hi = b.b[0].x >= b.b[1].x ? 0 : 1;
		wtg_lay_fmt_num(v1, sizeof v1, b.b[hi].x / b.b[1 - hi].x);
		snprintf(buf, sizeof buf, "%s / %s = %s\xc3\x97", b.b[hi].label, b.b[1 - hi].label, v1);
		text(f, bx, y, 20, "start", "font-weight=\"bold\"", buf);
	}
	wtg_lay_bars_free(&b);
}

/* A distribution's bins as one outlined area, scaled to its own peak. */
static void hist_area(FILE *f, const struct frame *fr, const struct wtg_lay_hist *h, int k)
{
	const struct wtg_lay_dist *d = &h->d[k];
	if (!d->bins || d->peak <= 0)
		return;
	double base = fr->y + fr->h;
	fprintf(f, "<path fill=\"%s\" fill-opacity=\"%.2f\" stroke=\"%s\" stroke-width=\"2.5\"%s%s%s d=\"M%.1f %.1f",
		colour[k], h->nd > 1 ? 0.22 : 0.45, colour[k], *dashes[k] ? " stroke-dasharray=\"" : "", dashes[k],
		*dashes[k] ? "\"" : "", fr->x, base);
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
static int hist_marks(FILE *f, const struct frame *fr, const struct wtg_lay_hist *h)
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
			double w = text_w(lab, 18);
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
				 colour[k]);
			line(f, x, y - 16, x, fr->y + fr->h, colour[k], j ? 2 : 3, qdash[j]);
			text(f, left ? x - 6 : x + 6, y, 18, left ? "end" : "start", attrs, lab);
		}
	return rows;
}

static void draw_hist(FILE *f, const struct frame *fr0, const struct wtg_table *t)
{
	struct wtg_lay_hist h;
	if (wtg_lay_hist_build(&h, t) == 0 || wtg_lay_hist_bin(&h, (int)(fr0->w / 5)) < 0) {
		empty(f, fr0, t->nrows ? "no samples in this table" : "no rows yet");
		wtg_lay_hist_free(&h);
		return;
	}
	int nfig = h.nd + (h.nd == 2 ? 1 : 0);
	struct frame fr = *fr0;
	fr.h -= nfig * 28 + 6;
	const char *unit = h.d[0].s->unit;
	double ticks[32], frac[32];
	char lab[32][32];
	int nt = h.log ? wtg_lay_log_ticks(h.lo, h.hi, (int)(fr.w / 12), 8, false, ticks, 32)
		       : wtg_lay_lin_ticks(h.lo, h.hi, (int)(fr.w / 12), ticks, 32);
	wtg_lay_tick_labels(lab, ticks, nt, unit);
	for (int i = 0; i < nt; i++) {
		frac[i] = wtg_lay_frac(ticks[i], h.lo, h.hi, h.log);
		line(f, fr.x + frac[i] * fr.w, fr.y, fr.x + frac[i] * fr.w, fr.y + fr.h, grid, 1, NULL);
	}
	struct frame area = fr;	/* the bins stay under the quantiles' labels */
	int lrows = hist_marks(NULL, &fr, &h);
	area.y += 24 * lrows + 6;
	area.h -= 24 * lrows + 6;
	for (int k = 0; k < h.nd; k++)
		hist_area(f, &area, &h, k);
	line(f, fr.x, fr.y + fr.h, fr.x + fr.w, fr.y + fr.h, ink, 2, NULL);
	x_ticks(f, &fr, frac, lab, nt);
	char xt[192];
	snprintf(xt, sizeof xt, "%s (%s scale%s; bar height: samples per bin%s)",
		 wtg_lay_time_scale(unit) > 0 ? "time" : unit, h.log ? "log" : "linear",
		 h.zeros ? ", samples at 0 at the left edge" : "", h.nd > 1 ? ", each to its peak" : "");
	text(f, fr.x + fr.w / 2, fr.y + fr.h + 62, 19, "middle", "fill=\"#444444\"", xt);
	hist_marks(f, &fr, &h);
	char names[WTG_LAY_MAX_DIST][64];
	for (int k = 0; k < h.nd; k++)
		wtg_strlcpy(names[k], h.d[k].s->name, sizeof names[k]);
	if (h.nd > 1)
		legend(f, fr.x + fr.w, fr.y - 20, names, h.nd, true);
	for (int k = 0; k < h.nd; k++) {
		char buf[512];
		wtg_lay_hist_figures(buf, sizeof buf, t, &h.d[k], "\xe2\x80\x93");
		double y = fr.y + fr.h + 98 + 28 * k;
		marker(f, k, fr.x + 8, y - 7, 7);
		text_fit(f, fr.x + 24, y, 19, 1270, NULL, buf);
	}
	if (h.nd == 2 && h.d[0].p99 > 0) {
		char r[32], buf[256];
		wtg_lay_fmt_num(r, sizeof r, h.d[1].p99 / h.d[0].p99);
		snprintf(buf, sizeof buf, "p99 %s / %s = %s\xc3\x97", h.d[1].s->name, h.d[0].s->name, r);
		text(f, fr.x + 24, fr.y + fr.h + 98 + 28 * 2, 19, "start", "font-weight=\"bold\"", buf);
	}
	wtg_lay_hist_free(&h);
}

/* A header too wide for its column, broken at the space nearest its middle: 1 or 2 lines. */
static int head_split(const char *h, double width, double fs, char *a, char *b, size_t len)
{
	wtg_strlcpy(a, h, len);
	b[0] = '\0';
	if (text_w(h, fs) <= width)
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
static void grid_by_metric(FILE *f, const struct frame *fr, const struct wtg_lay_grid *g, double bottom)
{
	double pitch = fmin(44, (bottom - fr->y) / (g->nm + 2.5)), fs = fmin(24, pitch * 0.62);
	double nw = 0;
	for (int m = 0; m < g->nm; m++)
		nw = fmax(nw, text_w(g->name[m], fs));
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
		text(f, x, fr->y + fs + (hl == 2 && !two ? pitch * 0.8 : 0), fs, "end", "font-weight=\"bold\"", a[k]);
		if (two)
			text(f, x, fr->y + fs + pitch * 0.8, fs, "end", "font-weight=\"bold\"", b[k]);
	}
	double top = fr->y + (hl - 1) * pitch * 0.8;
	line(f, fr->x, top + pitch * 0.9, fr->x + fr->w, top + pitch * 0.9, ink, 2, NULL);
	for (int m = 0; m < g->nm; m++) {
		double y = top + pitch * (m + 1.6) + fs * 0.36;
		if (m % 2 == 0)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f2f2f2\"/>\n", fr->x,
				y - fs * 0.36 - pitch / 2, fr->w, pitch);
		const char *style = g->derived[m] ? "font-style=\"italic\" fill=\"#1f5fa8\"" : "fill=\"#444444\"";
		text(f, fr->x, y, fs, "start", style, g->name[m]);
		for (int k = 0; k < g->ncases; k++)
			text(f, fr->x + nw + 20 + (k + 1) * cw, y, fs, "end",
			     g->derived[m] ? "font-weight=\"bold\" font-style=\"italic\" fill=\"#1f5fa8\"" : "font-weight=\"bold\"",
			     g->cell[m][k]);
	}
}

/* More cases than fit side by side: a line per case, a column per metric (units in the header). */
static void grid_by_case(FILE *f, const struct frame *fr, const struct wtg_lay_grid *g, double bottom)
{
	double pitch = fmin(40, (bottom - fr->y) / (g->ncases + 2.2)), fs = fmin(20, pitch * 0.62);
	double hw = 0;
	for (int k = 0; k < g->ncases; k++)
		hw = fmax(hw, text_w(g->head[k], fs));
	double x = fr->x + hw + 10;
	for (int m = 0; m < g->nm; m++) {
		double cw = fmax(text_w(g->name[m], fs * 0.85), text_w(g->unit[m], fs * 0.85));
		for (int k = 0; k < g->ncases; k++)
			cw = fmax(cw, text_w(g->bare[m][k], fs));
		cw += 18;
		if (x + cw > fr->x + fr->w)
			break;
		text(f, x + cw, fr->y + fs, fs * 0.85, "end", "font-weight=\"bold\"", g->name[m]);
		text(f, x + cw, fr->y + fs + pitch * 0.8, fs * 0.85, "end", "fill=\"#666666\"", g->unit[m]);
		for (int k = 0; k < g->ncases; k++)
			text(f, x + cw, fr->y + pitch * (k + 2.6), fs, "end", NULL, g->bare[m][k]);
		x += cw;
	}
	line(f, fr->x, fr->y + pitch * 1.7, x, fr->y + pitch * 1.7, ink, 2, NULL);
	for (int k = 0; k < g->ncases; k++)
		text(f, fr->x, fr->y + pitch * (k + 2.6), fs, "start", "font-weight=\"bold\"", g->head[k]);
}

static void draw_counters(FILE *f, const struct frame *fr, const struct wtg_table *t, const struct wtg_experiment *e)
{
	if (t->nrows == 0) {
		empty(f, fr, "no rows yet");
		return;
	}
	if (e->bars.value) {	/* the headline as bars on a slide; the counters stay in the table */
		draw_bars(f, fr, t, e);
		return;
	}
	struct wtg_lay_grid *g = calloc(1, sizeof *g);
	if (!g)
		return;
	wtg_lay_grid_build(g, t);
	char fig[3][256];
	int nfig = wtg_lay_counter_figures(t, e, fig, 3, "\xe2\x88\x92", "\xc3\x97");
	double bottom = fr->y + fr->h + 40 - nfig * 32;
	if (g->ncases <= 6)
		grid_by_metric(f, fr, g, bottom);
	else
		grid_by_case(f, fr, g, bottom);
	for (int i = 0; i < nfig; i++)
		text(f, fr->x, bottom + 36 + 32 * i, 21, "start", "font-weight=\"bold\" fill=\"#1f5fa8\"", fig[i]);
	free(g);
}

/* How the checks went, for the line under the chart: the first failed (or warned) check with its
 * detail, or without the detail when that line would not fit `room` even at the smallest size (the
 * HTML and the other reports list every check in full). */
static void footer_checks(char *buf, size_t len, const struct wtg_table *t, int bad, int wn, double room)
{
	for (int i = 0; i < t->nchecks; i++)
		if (t->checks[i].status == (bad ? WTG_CHECK_FAIL : WTG_CHECK_WARN)) {
			const char *mark = bad ? "\xe2\x9c\x97" : "!", *how = bad ? "failed" : "warn";
			snprintf(buf, len, "%s %d of %d checks %s: %s: %s", mark, bad ? bad : wn, t->nchecks, how,
				 t->checks[i].name, t->checks[i].detail);
			if (text_w(buf, 11) > room)
				snprintf(buf, len, "%s %d of %d checks %s, the first: %s (the report lists them all)",
					 mark, bad ? bad : wn, t->nchecks, how, t->checks[i].name);
			return;
		}
}

/* The line under the chart: the error, or how the checks went; what made the figure on the right. */
static void footer(FILE *f, const struct wtg_table *t, const struct wtg_machine *m)
{
	char buf[512];
	int ok = 0, wn = 0, bad = 0;
	wtg_table_count_checks(t, &ok, &wn, &bad);
	const char *style = "fill=\"#2e7d32\"";
	char who[160];
	snprintf(who, sizeof who, "wtg %s%s%s", PACKAGE_VERSION, m && m->cpu_model[0] ? " \xc2\xb7 " : "",
		 m ? m->cpu_model : "");
	buf[0] = '\0';
	if (t->error[0]) {
		snprintf(buf, sizeof buf, "\xe2\x9c\x97 %s", t->error);
		style = "fill=\"#c8452b\" font-weight=\"bold\"";
	} else if (bad || wn) {
		footer_checks(buf, sizeof buf, t, bad, wn, SVG_W - 90 - text_w(who, 14));
		style = bad ? "fill=\"#c8452b\" font-weight=\"bold\"" : "fill=\"#b36b00\"";
	} else if (ok) {
		snprintf(buf, sizeof buf, "\xe2\x9c\x93 %d check%s ok", ok, ok == 1 ? "" : "s");
	}
	text(f, SVG_W - 30, SVG_H - 14, 14, "end", "fill=\"#666666\"", who);
	/* in full, smaller when it is long (the HTML lists every check beside the chart) */
	text_fit(f, 40, SVG_H - 14, 16, SVG_W - 50 - text_w(who, 14), style, buf);
}

void wtg_svg_chart(FILE *f, const struct wtg_table *t, const struct wtg_machine *m, const char *attrs)
{
	const struct wtg_experiment *e = t->exp;
	fprintf(f, "<svg viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\" fill=\"%s\"%s%s>\n", SVG_W, SVG_H, FONT, ink,
		attrs && *attrs ? " " : "", attrs ? attrs : "");
	fputs("<title>", f);
	wtg_xml_string(f, e->name);
	fputs(": ", f);
	wtg_xml_string(f, e->question);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", SVG_W, SVG_H);
	char buf[256];
	snprintf(buf, sizeof buf, "%s \xc2\xb7 %s \xc2\xb7 %d row%s%s", e->name, wtg_view_name(e->view), t->nrows,
		 t->nrows == 1 ? "" : "s", t->state == WTG_RUNNING ? " so far" : "");
	text(f, 40, 40, 20, "start", "fill=\"#666666\" letter-spacing=\"1\"", buf);
	text(f, 40, 84, 36, "start", "font-weight=\"bold\"", e->question);
	char verdict[512];
	if (wtg_experiment_verdict(e, t, verdict, sizeof verdict) > 0)	/* what the chart claims, in words */
		text_fit(f, 40, 113, 19, SVG_W - 40, "fill=\"#444444\"", verdict);
	struct frame wide = { 40, 150, SVG_W - 80, 440 }, axes = { 130, 150, SVG_W - 200, 440 };
	switch (e->view) {
	case WTG_VIEW_SWEEP:
		draw_sweep(f, &axes, t, e, m);
		break;
	case WTG_VIEW_BARS:
		draw_bars(f, &wide, t, e);
		break;
	case WTG_VIEW_HISTOGRAM:
		draw_hist(f, &axes, t);
		break;
	default:
		draw_counters(f, &wide, t, e);
		break;
	}
	footer(f, t, m);
	fputs("</svg>\n", f);
}

/* One chart, or several stacked in one picture. */
void wtg_svg_begin(FILE *f, const struct wtg_report_meta *m)
{
	int n = m->ntables;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	if (n != 1)
		fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\">\n",
			SVG_W, SVG_H * (n ? n : 1), SVG_W, SVG_H * (n ? n : 1));
}

void wtg_svg_table(FILE *f, const struct wtg_report_meta *m, const struct wtg_table *t, int k)
{
	char attrs[128];
	if (m->ntables == 1)
		snprintf(attrs, sizeof attrs, "xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\"",
			 SVG_W, SVG_H);
	else
		snprintf(attrs, sizeof attrs, "y=\"%.0f\" width=\"%.0f\" height=\"%.0f\"", SVG_H * k, SVG_W, SVG_H);
	wtg_svg_chart(f, t, m->machine, attrs);
}

void wtg_svg_end(FILE *f, const struct wtg_report_meta *m, int n)
{
	(void)n;
	if (m->ntables != 1)
		fputs("</svg>\n", f);
}

/* The ratio axis under a comparison's rows: round ticks, 1 drawn dark. */
static void ratio_axis(FILE *f, const struct frame *fr, double lo, double hi)
{
	double ticks[32];
	char lab[32][32];
	int nt = wtg_lay_lin_ticks(lo, hi, (int)(fr->w / 14), ticks, 32);
	wtg_lay_tick_labels(lab, ticks, nt, "");
	for (int i = 0; i < nt; i++) {
		double x = fr->x + (ticks[i] - lo) / (hi - lo) * fr->w;
		line(f, x, fr->y, x, fr->y + fr->h, grid, 1, NULL);
		text(f, x, fr->y + fr->h + 30, 20, "middle", NULL, lab[i]);
	}
	double one = fr->x + (1 - lo) / (hi - lo) * fr->w;
	line(f, one, fr->y - 6, one, fr->y + fr->h, ink, 2.5, NULL);
	text(f, fr->x + fr->w / 2, fr->y + fr->h + 62, 19, "middle", "fill=\"#444444\"",
	     "ratio to the first run (1: the same; whiskers: 95% CI)");
}

void wtg_svg_ratio_chart(FILE *f, const char *attrs, const char *title, const char *sub,
			 const struct wtg_svg_ratio *r, int n)
{
	fprintf(f, "<svg viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\" fill=\"%s\"%s%s>\n", SVG_W, SVG_H, FONT, ink,
		attrs && *attrs ? " " : "", attrs ? attrs : "");
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", SVG_W, SVG_H);
	text_fit(f, 40, 70, 34, SVG_W - 40, "font-weight=\"bold\"", title);
	text_fit(f, 40, 108, 20, SVG_W - 40, "fill=\"#444444\"", sub);
	double lo = 1, hi = 1;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			double v = k == 0 ? r[i].ratio : k == 1 ? r[i].lo : r[i].hi;
			if (isfinite(v)) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	double pad = (hi - lo) * 0.1 + 0.02;
	lo = fmax(0, lo - pad);
	hi += pad;
	struct frame fr = { 300, 150, 600, 440 };
	ratio_axis(f, &fr, lo, hi);
	double pitch = n ? fr.h / n : fr.h;
	for (int i = 0; i < n; i++) {
		double y = fr.y + pitch * (i + 0.5);
		char num[48], lab[160];
		text_fit(f, 40, y + 7, 20, fr.x - 16, "font-weight=\"bold\"", r[i].label);
		if (isfinite(r[i].lo) && isfinite(r[i].hi)) {
			double x0 = fr.x + (r[i].lo - lo) / (hi - lo) * fr.w, x1 = fr.x + (r[i].hi - lo) / (hi - lo) * fr.w;
			line(f, x0, y, x1, y, colour[0], 3, NULL);
			line(f, x0, y - 10, x0, y + 10, colour[0], 3, NULL);
			line(f, x1, y - 10, x1, y + 10, colour[0], 3, NULL);
		}
		if (isfinite(r[i].ratio))
			marker(f, 0, fr.x + (r[i].ratio - lo) / (hi - lo) * fr.w, y, 9);
		wtg_lay_fmt_num(num, sizeof num, r[i].ratio);
		snprintf(lab, sizeof lab, "%s%s%s", isfinite(r[i].ratio) ? num : "missing",
			 r[i].verdict ? " \xc2\xb7 " : " (the first run)", r[i].verdict ? r[i].verdict : "");
		text_fit(f, fr.x + fr.w + 20, y + 7, 20, SVG_W - 30, NULL, lab);
	}
	fputs("</svg>\n", f);
}
