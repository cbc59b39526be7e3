/* svg.c: an experiment's chart as SVG, sized for a slide (a 1280x720 view box) and readable in black
 * and white: its question, what it claims, the view (svg_views.c: the sweep's lines on a log2 x axis
 * with their confidence bands and the machine's caches, bars with ideal-scaling marks and whiskers,
 * overlaid histograms with median, p90 and p99, counters), and its checks; the same experiment of
 * several runs overlaid on one scale; a comparison's ratio charts. The scales, ticks, bins and labels
 * come from the layout the dashboard draws from. */
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
#include "svg.h"
#include "writers.h"
#include "wtg/util.h"

#define FONT "Helvetica, Arial, sans-serif"

static const char *const ink = SVG_INK, *const grid = SVG_GRID;

/* How the checks of a table went, in a few words ("3 checks ok" after a tick, "! 1 of 4 checks warn"),
 * and the style to show it in. full: the error in full, and the first check that warns or failed,
 * named with its detail. */
static const char *checks_words(char *buf, size_t len, const struct wtg_table *t, bool full, double room)
{
	int ok = 0, wn = 0, bad = 0;
	wtg_table_count_checks(t, &ok, &wn, &bad);
	buf[0] = '\0';
	if (t->error[0]) {
		snprintf(buf, len, "\xe2\x9c\x97 %s", full ? t->error : "failed");
		return "fill=\"#c8452b\" font-weight=\"bold\"";
	}
	if (bad || wn) {
		int n = snprintf(buf, len, "%s %d of %d checks %s", bad ? "\xe2\x9c\x97" : "!", bad ? bad : wn,
				 t->nchecks, bad ? "failed" : "warn");
		for (int i = 0; full && n > 0 && (size_t)n < len && i < t->nchecks; i++)
			if (t->checks[i].status == (bad ? WTG_CHECK_FAIL : WTG_CHECK_WARN)) {
				snprintf(buf + n, len - (size_t)n, ": %s: %s", t->checks[i].name, t->checks[i].detail);
				/* a line that would not fit even at the smallest size names the check without its
				 * detail (the HTML and the other reports list every check in full) */
				if (room > 0 && svg_text_w(buf, 11) > room)
					snprintf(buf + n, len - (size_t)n, ", the first: %s (the report lists them all)",
						 t->checks[i].name);
				break;
			}
		return bad ? "fill=\"#c8452b\" font-weight=\"bold\"" : "fill=\"#b36b00\"";
	}
	if (ok)
		snprintf(buf, len, "\xe2\x9c\x93 %d check%s ok", ok, ok == 1 ? "" : "s");
	return "fill=\"#2e7d32\"";
}

/* The line under the chart: the error, or how the checks went (each run's, overlaid); what made the
 * figure on the right. */
static void footer(FILE *f, const struct svg_runs *rs)
{
	const struct wtg_machine *m = rs->m;
	char who[160];
	snprintf(who, sizeof who, "wtg %s%s%s", PACKAGE_VERSION, m && m->cpu_model[0] ? " \xc2\xb7 " : "",
		 m ? m->cpu_model : "");
	char buf[1024] = "", part[512];
	const char *style = checks_words(buf, sizeof buf, rs->t[0], true, SVG_W - 90 - svg_text_w(who, 14));
	if (rs->n > 1) {
		style = "fill=\"#444444\"";
		buf[0] = '\0';
		for (int r = 0; r < rs->n; r++) {
			checks_words(part, sizeof part, rs->t[r], false, 0);
			size_t k = strlen(buf);
			snprintf(buf + k, sizeof buf - k, "%s%s %s", r ? " \xc2\xb7 " : "", rs->label[r],
				 part[0] ? part : "no checks");
		}
	}
	svg_text(f, SVG_W - 30, SVG_H - 14, 14, "end", "fill=\"#666666\"", who);
	/* in full, smaller when it is long (the HTML lists every check beside the chart) */
	svg_text_fit(f, 40, SVG_H - 14, 16, SVG_W - 50 - svg_text_w(who, 14), style, buf);
}

/* Where a chart in a page starts: the page's heading names the experiment and asks its question, so
 * the chart leaves out its own title lines and begins above what it claims. */
#define PAGE_TOP 80.0

/* The chart of the runs' experiment: its title, the question (on a slide: not in a page, whose
 * heading has them), what it claims (one run) or which run is which (several), the view, the
 * checks. */
static void chart(FILE *f, const struct svg_runs *rs, const char *attrs, bool page)
{
	const struct wtg_table *t = rs->t[0];
	const struct wtg_experiment *e = t->exp;
	double top = page ? PAGE_TOP : 0;
	fprintf(f, "<svg viewBox=\"0 %.0f %.0f %.0f\" font-family=\"%s\" fill=\"%s\"%s%s>\n", top, SVG_W,
		SVG_H - top, FONT, ink, attrs && *attrs ? " " : "", attrs ? attrs : "");
	fputs("<title>", f);
	wtg_xml_string(f, e->name);
	fputs(": ", f);
	wtg_xml_string(f, e->question);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", SVG_W, SVG_H);
	char buf[256];
	if (rs->n > 1)
		snprintf(buf, sizeof buf, "%s \xc2\xb7 %s \xc2\xb7 %d runs on one scale", e->name,
			 wtg_view_name(e->view), rs->n);
	else
		snprintf(buf, sizeof buf, "%s \xc2\xb7 %s \xc2\xb7 %d row%s%s", e->name, wtg_view_name(e->view),
			 t->nrows, t->nrows == 1 ? "" : "s", t->state == WTG_RUNNING ? " so far" : "");
	if (!page) {
		svg_text(f, 40, 40, 20, "start", "fill=\"#666666\" letter-spacing=\"1\"", buf);
		svg_text(f, 40, 84, 36, "start", "font-weight=\"bold\"", e->question);
	}
	char verdict[512];
	struct svg_frame wide = { 40, 150, SVG_W - 80, 440 }, axes = { 130, 150, SVG_W - 200, 440 };
	if (rs->n > 1)	/* which run is which (after the y axis' unit on a sweep) */
		svg_runs_legend(f, rs, e->view == WTG_VIEW_SWEEP ? axes.x : 40, 113, SVG_W - 40,
				e->view == WTG_VIEW_SWEEP || e->view == WTG_VIEW_HISTOGRAM);
	else if (wtg_experiment_verdict(e, t, verdict, sizeof verdict) > 0)	/* what the chart claims */
		svg_text_fit(f, 40, 113, 19, SVG_W - 40, "fill=\"#444444\"", verdict);
	switch (e->view) {
	case WTG_VIEW_SWEEP:
		svg_draw_sweep(f, &axes, rs, e);
		break;
	case WTG_VIEW_BARS:
		svg_draw_bars(f, &wide, rs, e);
		break;
	case WTG_VIEW_HISTOGRAM:
		svg_draw_hist(f, &axes, rs);
		break;
	default:
		svg_draw_counters(f, &wide, rs, e);
		break;
	}
	footer(f, rs);
	fputs("</svg>\n", f);
}

void wtg_svg_chart(FILE *f, const struct wtg_table *t, const struct wtg_machine *m, const char *attrs)
{
	chart(f, &(struct svg_runs){ 1, &t, NULL, m }, attrs, false);
}

void wtg_svg_page_chart(FILE *f, const struct wtg_table *const *t, const char *const *label, int n,
			const struct wtg_machine *m, const char *attrs)
{
	if (n > WTG_LAY_MAX_RUNS)
		n = WTG_LAY_MAX_RUNS;
	if (n >= 1)
		chart(f, &(struct svg_runs){ n, t, n > 1 ? label : NULL, m }, attrs, true);
}

void wtg_svg_overlay(FILE *f, const struct wtg_table *const *t, const char *const *label, int n,
		     const struct wtg_machine *m, const char *attrs)
{
	if (n > WTG_LAY_MAX_RUNS)
		n = WTG_LAY_MAX_RUNS;
	if (n == 1)
		wtg_svg_chart(f, t[0], m, attrs);
	else if (n > 1)
		chart(f, &(struct svg_runs){ n, t, label, m }, attrs, false);
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
static void ratio_axis(FILE *f, const struct svg_frame *fr, double lo, double hi, const char *caption)
{
	double ticks[32];
	char lab[32][32];
	int nt = wtg_lay_lin_ticks(lo, hi, (int)(fr->w / 14), ticks, 32);
	wtg_lay_tick_labels(lab, ticks, nt, "");
	for (int i = 0; i < nt; i++) {
		double x = fr->x + (ticks[i] - lo) / (hi - lo) * fr->w;
		svg_line(f, x, fr->y, x, fr->y + fr->h, grid, 1, NULL);
		svg_text(f, x, fr->y + fr->h + 30, 20, "middle", NULL, lab[i]);
	}
	double one = fr->x + (1 - lo) / (hi - lo) * fr->w;
	svg_line(f, one, fr->y - 6, one, fr->y + fr->h, ink, 2.5, NULL);
	svg_text(f, fr->x + fr->w / 2, fr->y + fr->h + 62, 19, "middle", "fill=\"#444444\"",
		 caption ? caption : "ratio to the first run (1: the same; whiskers: 95% CI)");
}

void wtg_svg_ratio_chart(FILE *f, const char *attrs, const char *title, const char *sub, const char *axis,
			 const struct wtg_svg_ratio *r, int n)
{
	fprintf(f, "<svg viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\" fill=\"%s\"%s%s>\n", SVG_W, SVG_H, FONT, ink,
		attrs && *attrs ? " " : "", attrs ? attrs : "");
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", SVG_W, SVG_H);
	svg_text_fit(f, 40, 70, 34, SVG_W - 40, "font-weight=\"bold\"", title);
	svg_text_fit(f, 40, 108, 20, SVG_W - 40, "fill=\"#444444\"", sub);
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
	struct svg_frame fr = { 300, 150, 600, 440 };
	ratio_axis(f, &fr, lo, hi, axis);
	double pitch = n ? fr.h / n : fr.h;
	for (int i = 0; i < n; i++) {
		double y = fr.y + pitch * (i + 0.5);
		char num[48], lab[160];
		svg_text_fit(f, 40, y + 7, 20, fr.x - 16, "font-weight=\"bold\"", r[i].label);
		if (isfinite(r[i].lo) && isfinite(r[i].hi)) {
			double x0 = fr.x + (r[i].lo - lo) / (hi - lo) * fr.w, x1 = fr.x + (r[i].hi - lo) / (hi - lo) * fr.w;
			svg_line(f, x0, y, x1, y, svg_group_colour(0), 3, NULL);
			svg_line(f, x0, y - 10, x0, y + 10, svg_group_colour(0), 3, NULL);
			svg_line(f, x1, y - 10, x1, y + 10, svg_group_colour(0), 3, NULL);
		}
		if (isfinite(r[i].ratio))
			svg_marker(f, &(struct svg_ink){ svg_group_colour(0), "", 0 }, fr.x + (r[i].ratio - lo) / (hi - lo) * fr.w, y, 9);
		wtg_lay_fmt_num(num, sizeof num, r[i].ratio);
		snprintf(lab, sizeof lab, "%s%s%s", isfinite(r[i].ratio) ? num : "missing",
			 r[i].verdict ? " \xc2\xb7 " : " (the first run)", r[i].verdict ? r[i].verdict : "");
		svg_text_fit(f, fr.x + fr.w + 20, y + 7, 20, SVG_W - 30, NULL, lab);
	}
	fputs("</svg>\n", f);
}
