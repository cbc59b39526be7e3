/* html.c: one self-contained page for a lecture hall's machine: inline CSS and SVG, no script and
 * nothing fetched. The machine and the run at the top, then per experiment its question, chart (the
 * SVG writer's), table with units, checks and notes. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "wtg/conditions.h"
#include "wtg/experiment.h"
#include "wtg/layout.h"
#include "wtg/report.h"
#include "wtg/whyhere.h"
#include "writers.h"
#include "wtg/paired.h"

static const char style[] =
	"body{font-family:Helvetica,Arial,sans-serif;color:#222;background:#fff;margin:0 auto;"
	"max-width:1180px;padding:24px 32px;line-height:1.4}\n"
	"h1{font-size:30px;margin:0 0 4px}h2{font-size:24px;margin:0 0 2px}\n"
	".sub{color:#666;margin:0 0 16px}\n"
	"section.exp{border-top:3px solid #1f5fa8;margin-top:36px;padding-top:12px}\n"
	"figure{margin:12px 0}figure svg{width:100%;height:auto;border:1px solid #ddd}\n"
	"table{border-collapse:collapse;margin:8px 0;font-size:14px}\n"
	".scroll{max-width:100%;overflow-x:auto}\n"
	"th,td{border-bottom:1px solid #ddd;padding:3px 10px;text-align:left;vertical-align:top}\n"
	"th{background:#f2f2f2}th .unit{display:block;color:#666;font-weight:normal}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"table.kv th{background:none;width:11em}\n"
	".blocks{display:flex;flex-wrap:wrap;gap:0 48px}\n"
	"ul.checks{list-style:none;padding:0}ul.checks li{margin:2px 0}\n"
	".ok{color:#2e7d32}.warn{color:#b36b00}.fail{color:#c8452b;font-weight:bold}\n"
	".error{color:#c8452b;font-weight:bold}\n"
	".notes{color:#444}\n"
	"nav a{margin-right:12px}\n"
	"@media print{section.exp{break-before:page}}\n";

/* open, then s escaped, then close (both written as they are). */
static void elem(FILE *f, const char *open, const char *s, const char *close)
{
	fputs(open, f);
	wtg_xml_string(f, s);
	fputs(close, f);
}

/* A row of a key/value table, escaped. */
static void kv(void *arg, const char *key, const char *value)
{
	FILE *f = arg;
	elem(f, "<tr><th>", key, "</th>");
	elem(f, "<td>", value, "</td></tr>\n");
}

/* The machine, then the run: its data file and conditions. */
static void write_blocks(FILE *f, const struct wtg_report_meta *m)
{
	fputs("<div><h3>Machine</h3><table class=\"kv\">\n", f);
	wtg_report_items(m, WTG_BLOCK_MACHINE, kv, f);
	fputs("</table></div>\n<div><h3>Run</h3><table class=\"kv\">\n", f);
	wtg_report_items(m, WTG_BLOCK_DATAFILE, kv, f);
	wtg_report_items(m, WTG_BLOCK_CONDITIONS, kv, f);
	fputs("</table></div>\n", f);
}

/* A cell as the table shows it: reals to the column's decimals or three significant figures, n/a
 * for nothing. */
static void cell(FILE *f, const struct wtg_value *v, const struct wtg_column *col)
{
	bool num = v->type == WTG_T_INT || v->type == WTG_T_REAL;
	fputs(num ? "<td class=\"num\">" : "<td>", f);
	char buf[64];
	if (v->type == WTG_T_INT || (v->type == WTG_T_REAL && isfinite(v->r))) {
		wtg_report_fmt_value(buf, sizeof buf, v, col, false);
		fputs(buf, f);
	} else if (v->type == WTG_T_TEXT)
		wtg_xml_string(f, v->s);
	else
		fputs("n/a", f);
	fputs("</td>", f);
}

static void write_table(FILE *f, const struct wtg_table *t)
{
	if (t->nrows == 0)
		return;
	fputs("<div class=\"scroll\"><table class=\"rows\">\n<tr>", f);
	for (int c = 0; c < t->ncols; c++) {
		elem(f, "<th>", t->cols[c].name, "");
		if (t->cols[c].unit && *t->cols[c].unit)
			elem(f, "<span class=\"unit\">", t->cols[c].unit, "</span>");
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int r = 0; r < t->nrows; r++) {
		fputs("<tr>", f);
		for (int c = 0; c < t->ncols; c++)
			cell(f, &t->rows[r].v[c], &t->cols[c]);
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

static void write_checks_notes(FILE *f, const struct wtg_table *t)
{
	if (t->error[0]) {
		elem(f, "<p class=\"error\">\xe2\x9c\x97 ", t->error, "</p>\n");
	}
	if (t->nchecks > 0) {
		fputs("<ul class=\"checks\">\n", f);
		static const char *const mark[] = { "\xe2\x9c\x93", "!", "\xe2\x9c\x97" };
		for (int i = 0; i < t->nchecks; i++) {
			const struct wtg_check *c = &t->checks[i];
			const char *st = wtg_check_status_name(c->status);
			fprintf(f, "<li class=\"%s\">%s %s: ", st, mark[c->status], st);
			elem(f, "<b>", c->name, "</b>: ");
			elem(f, "", c->detail, "</li>\n");
		}
		fputs("</ul>\n", f);
	}
	if (t->nnotes > 0) {
		fputs("<ul class=\"notes\">\n", f);
		for (int i = 0; i < t->nnotes; i++)
			elem(f, "<li>", t->notes[i], "</li>\n");
		fputs("</ul>\n", f);
	}
}

void wtg_html_table(FILE *f, const struct wtg_report_meta *meta, const struct wtg_table *t, int n)
{
	(void)n;
	const struct wtg_machine *m = meta->machine;
	const struct wtg_experiment *e = t->exp;
	elem(f, "<section class=\"exp\" id=\"", e->name, "\">\n");
	elem(f, "<h2>", e->name, ": ");
	elem(f, "", e->question, "</h2>\n");
	char runs[512];
	elem(f, "<p class=\"sub\">", wtg_experiment_runs(e, meta->quick, runs, sizeof runs), "");
	fprintf(f, " (%s view; %s)</p>\n<figure>\n", wtg_view_name(e->view), wtg_report_state_name(t->state));
	char attrs[160];
	snprintf(attrs, sizeof attrs, "class=\"chart\" role=\"img\" aria-label=\"chart of %s\"", e->name);
	wtg_svg_chart(f, t, m, attrs);
	fputs("</figure>\n", f);
	write_table(f, t);
	char state[384];
	wtg_report_machine_state(state, sizeof state, t);
	if (state[0])
		elem(f, "<p class=\"sub\">machine while it ran: ", state, "</p>\n");
	struct wtg_paired_entry pe[WTG_MAX_HEADLINES];
	int np = wtg_paired_entries(t, pe, WTG_MAX_HEADLINES);
	for (int i = 0; i < np; i++) {
		char ratio[160];
		wtg_paired_fmt(&pe[i], ratio, sizeof ratio);
		elem(f, "<p class=\"paired\"><b>paired, arm B against arm A:</b> ", pe[i].figure, ": ");
		elem(f, "", ratio, "</p>\n");
	}
	char why[512];
	if (wtg_why_here(e, t, wtg_report_machine_of(meta, t), why, sizeof why) > 0)
		elem(f, "<p class=\"why\"><b>why here:</b> ", why, "</p>\n");
	write_checks_notes(f, t);
	fputs("</section>\n", f);
}

void wtg_html_begin(FILE *f, const struct wtg_report_meta *m)
{
	char when[64];
	time_t now = (time_t)(m->written_real_ns / 1000000000);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(when, sizeof when, "%Y-%m-%d %H:%M %Z", &tm);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>wtg: where the time goes</title>\n<style>\n", f);
	fputs(style, f);
	fputs("</style>\n</head>\n<body>\n<h1>Where the time goes</h1>\n<p class=\"sub\">", f);
	fprintf(f, "wtg %s \xc2\xb7 ", PACKAGE_VERSION);
	wtg_xml_string(f, when);
	fputs("</p>\n<div class=\"blocks\">\n", f);
	write_blocks(f, m);
	fputs("</div>\n<nav>", f);
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++)
		if (m->wanted[i])
			fprintf(f, "<a href=\"#%s\">%s</a>", wtg_experiments[i]->name, wtg_experiments[i]->name);
	fputs("</nav>\n", f);
}

void wtg_html_end(FILE *f, const struct wtg_report_meta *m, int n)
{
	(void)m;
	(void)n;
	fputs("</body>\n</html>\n", f);
}
