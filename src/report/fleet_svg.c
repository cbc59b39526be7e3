/* fleet_svg.c: the machines' summary as pictures (wtg/fleet.h): per headline figure a 1280x720
 * slide, a strip chart on a log axis with one dot per machine, the machines overall and in each
 * group, the quartiles as a box and the median as a bar on each strip, the --highlight machine as a
 * diamond, and the line in words under it. SVG stacks the slides in one picture; HTML puts them on
 * one page that opens offline. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wtg/fleet.h"
#include "wtg/report.h"
#include "svg.h"

#define FONT "Helvetica, Arial, sans-serif"
#define DOT "#1f77b4"
#define HIGHLIGHT "#d62728"
#define LEFT 380.0	/* the strips' labels and counts end here */

static bool value_in(const struct wtg_fleet *fl, int i, int f, int d, const char *value)
{
	return fl->m[i].v && isfinite(fl->m[i].v[f]) && fl->m[i].v[f] > 0 &&
	       (d < 0 || strcmp(fl->m[i].dim[d], value) == 0);
}

static double x_of(double v, double lo, double hi, double x0, double w)
{
	return hi > lo ? x0 + (log(v) - log(lo)) / (log(hi) - log(lo)) * w : x0 + w / 2;
}

/* One strip at y: its label, count and median on the left, then the box, the dots, the median. */
static void strip(FILE *f, const struct wtg_fleet *fl, int fig, int d, const char *value, int highlight, double y,
		  double rh, double lo, double hi)
{
	double x0 = LEFT + 20, w = SVG_W - x0 - 40;
	struct wtg_fleet_stat st;
	wtg_fleet_stat(fl, fig, d, value, &st);
	char label[160], med[32], right[96];
	if (d < 0)
		snprintf(label, sizeof label, "all machines");
	else
		snprintf(label, sizeof label, "%s: %s", wtg_fleet_dim_name(d), value);
	wtg_fleet_fmt(med, sizeof med, st.median);
	snprintf(right, sizeof right, "%d, median %s", st.n, med);
	svg_text_fit(f, 40, y + 5, rh > 22 ? 15 : 12, LEFT - 150, d < 0 ? "font-weight=\"bold\"" : NULL, label);
	svg_text(f, LEFT, y + 5, rh > 22 ? 13 : 11, "end", "fill=\"" SVG_MUTED "\"", right);
	svg_line(f, x0, y, x0 + w, y, SVG_GRID, 1, "");
	if (st.n == 0)
		return;
	double q1 = x_of(st.q1, lo, hi, x0, w), q3 = x_of(st.q3, lo, hi, x0, w);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#e8eef6\" stroke=\"#9fb4cf\"/>\n", q1,
		y - rh * 0.35, fmax(q3 - q1, 1), rh * 0.7);
	double r = rh > 22 ? 5 : 3.5;
	for (int i = 0; i < fl->nm; i++)
		if (value_in(fl, i, fig, d, value))
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"" DOT "\" fill-opacity=\"0.45\"/>\n",
				x_of(fl->m[i].v[fig], lo, hi, x0, w), y, r);
	double mx = x_of(st.median, lo, hi, x0, w);
	svg_line(f, mx, y - rh * 0.45, mx, y + rh * 0.45, SVG_INK, 3, "");
	if (highlight >= 0 && value_in(fl, highlight, fig, d, value)) {
		double hx = x_of(fl->m[highlight].v[fig], lo, hi, x0, w), s = r + 3;
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"" HIGHLIGHT "\" stroke=\"white\"/>\n",
			hx, y - s, hx + s, y, hx, y + s, hx - s, y);
	}
}

/* The log axis under the strips at y: ticks at 1, 2, 5 x 10^k (10^k alone when those crowd). */
static void axis(FILE *f, double y, double lo, double hi, const char *unit)
{
	double x0 = LEFT + 20, w = SVG_W - x0 - 40;
	svg_line(f, x0, y, x0 + w, y, SVG_INK, 1, "");
	double t[64];
	int n = wtg_fleet_ticks(lo, hi, 12, t, 64);
	for (int k = 0; k < n; k++) {
		double x = x_of(t[k], lo, hi, x0, w);
		char lab[32];
		wtg_fleet_fmt(lab, sizeof lab, t[k]);
		svg_line(f, x, y, x, y + 6, SVG_INK, 1, "");
		svg_text(f, x, y + 22, 14, "middle", NULL, lab);
	}
	svg_text(f, x0 + w, y + 42, 14, "end", "fill=\"" SVG_MUTED "\"", unit);
}

/* The lines of s wrapped at about width pixels of size-px type, from (x, y) down; at most max lines. */
static void wrapped(FILE *f, double x, double y, double size, double width, int max, const char *s)
{
	char line[1024];
	size_t n = 0;
	const char *p = s;
	for (int k = 0; k < max && *p; k++) {
		n = 0;
		const char *last_space = NULL;
		size_t at_space = 0;
		while (p[n] && n + 1 < sizeof line) {
			line[n] = p[n];
			line[n + 1] = '\0';
			if (p[n] == ' ') {
				last_space = p + n;
				at_space = n;
			}
			if (svg_text_w(line, size) > width && last_space)
				break;
			n++;
		}
		size_t take = p[n] && last_space ? at_space : n;
		line[take] = '\0';
		svg_text(f, x, y + k * size * 1.35, size, "start", NULL, line);
		p += take;
		while (*p == ' ')
			p++;
	}
}

void wtg_fleet_svg_chart(FILE *f, const struct wtg_fleet *fl, int fig, int highlight, const char *attrs)
{
	const struct wtg_fleet_fig *fg = &fl->figs[fig];
	fprintf(f, "<svg viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\" fill=\"%s\"%s%s>\n", SVG_W, SVG_H, FONT, SVG_INK,
		attrs ? " " : "", attrs ? attrs : "");
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", SVG_W, SVG_H);
	char title[256];
	snprintf(title, sizeof title, "%s: %s", fg->name, fg->h->figure);
	svg_text_fit(f, 40, 52, 30, SVG_W - 40, "font-weight=\"bold\"", title);
	char sub[128];
	snprintf(sub, sizeof sub, "%d machines, one dot each; %s; box: quartiles, bar: median", fl->nm,
		 fg->h->higher_better ? "higher is better" : "lower is better");
	svg_text(f, 40, 80, 16, "start", "fill=\"" SVG_MUTED "\"", sub);
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < fl->nm; i++)
		if (value_in(fl, i, fig, -1, NULL)) {
			lo = fmin(lo, fl->m[i].v[fig]);
			hi = fmax(hi, fl->m[i].v[fig]);
		}
	if (!(hi >= lo)) {
		fputs("</svg>\n", f);
		return;
	}
	if (hi / lo < 1.2) {
		double mid = sqrt(lo * hi);
		lo = mid / 1.1, hi = mid * 1.1;
	}
	lo /= 1.05, hi *= 1.05;
	/* the strips: all, then each value of each dimension that differs */
	int ds[1 + WTG_NDIMS * 16];
	const char *vs[1 + WTG_NDIMS * 16];
	int n = 0;
	ds[n] = -1, vs[n++] = NULL;
	for (int d = 0; d < WTG_NDIMS; d++) {
		const char *vals[16];
		int nv = wtg_fleet_dim_values(fl, fig, d, vals, 16);
		for (int k = 0; k < nv && nv > 1; k++)
			ds[n] = d, vs[n++] = vals[k];
	}
	double top = 110, bottom = SVG_H - 130, rh = fmin(34, (bottom - top) / n);
	for (int k = 0; k < n; k++)
		strip(f, fl, fig, ds[k], vs[k], highlight, top + rh * (k + 0.5), rh, lo, hi);
	axis(f, top + rh * n + 4, lo, hi, fg->h->unit ? fg->h->unit : "");
	char line[1024];
	wtg_fleet_line(fl, fig, highlight, line, sizeof line);
	wrapped(f, 40, SVG_H - 50, 17, SVG_W - 80, 2, line);
	fputs("</svg>\n", f);
}
