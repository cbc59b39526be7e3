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
	".scroll{max-width:100%;overflow-x:auto}.part{margin-top:4px}\n"
	"th,td{border-bottom:1px solid #ddd;padding:3px 10px;text-align:left;vertical-align:top}\n"
	"th{background:#f2f2f2}th .unit{display:block;color:#666;font-weight:normal}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"table.kv th{background:none;width:11em}\n"
	".blocks{display:flex;flex-wrap:wrap;gap:0 48px}\n"
	"ul.checks{list-style:none;padding:0}ul.checks li{margin:2px 0}\n"
	".ok{color:#2e7d32}.warn{color:#b36b00}.fail{color:#c8452b;font-weight:bold}\n"
	".error{color:#c8452b;font-weight:bold}\n"
	".notes{color:#444}\n"
	"nav a{margin-right:12px;white-space:nowrap}\n"
	".earlier{margin-top:20px}.earlier h3{font-size:18px;margin:16px 0 2px}\n"
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
	fputs("</table></div>\n<div><h3>Data file</h3><table class=\"kv\">\n", f);
	wtg_report_items(m, WTG_BLOCK_DATAFILE, kv, f);
	/* each experiment says what its own runs were measured under */
	fputs("</table><h3>Conditions when written</h3><table class=\"kv\">\n", f);
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

/* The width a page gives a table before it is folded (a 1000-pixel window's, less its margins), and
 * about how many pixels a character of a cell takes (14 px type) and a cell's padding. */
#define TABLE_PX 800
#define CHAR_PX 8
#define PAD_PX 20

/* A column's name with a break allowed after each '_' (sys_ms_ci_low wraps, not the page). */
static void column_name(FILE *f, const char *name)
{
	for (const char *p = name ? name : "", *u; *p; p = u + 1) {
		u = strchr(p, '_');
		if (!u) {
			wtg_xml_string(f, p);
			break;
		}
		char part[128];
		snprintf(part, sizeof part, "%.*s", (int)(u - p + 1), p);
		wtg_xml_string(f, part);
		fputs("<wbr>", f);
	}
}

/* The row's conditions in words ("quiet", "burners 2 spin"). */
static void row_conditions(char *buf, size_t len, const struct wtg_row *row)
{
	wtg_lay_cond_words(buf, len, &row->cond);
}

/* About how wide column c is on the page (c == t->ncols: the conditions column). */
static int column_px(const struct wtg_table *t, int c)
{
	int chars = 0;
	char buf[512];
	if (c < t->ncols) {
		for (const char *p = t->cols[c].name, *u; p && *p; p = u ? u + 1 : p + strlen(p)) {
			u = strchr(p, '_');
			int n = u ? (int)(u - p + 1) : (int)strlen(p);
			chars = n > chars ? n : chars;
		}
		int n = t->cols[c].unit ? (int)strlen(t->cols[c].unit) : 0;
		chars = n > chars ? n : chars;
	}
	for (int r = 0; r < t->nrows; r++) {
		if (c == t->ncols)
			row_conditions(buf, sizeof buf, &t->rows[r]);
		else if (t->rows[r].v[c].type == WTG_T_TEXT)
			wtg_strlcpy(buf, t->rows[r].v[c].s ? t->rows[r].v[c].s : "", sizeof buf);
		else
			wtg_report_fmt_value(buf, sizeof buf, &t->rows[r].v[c], &t->cols[c], false);
		int n = wtg_text_width(buf);
		chars = n > chars ? n : chars;
	}
	return PAD_PX + CHAR_PX * (chars < 40 ? chars : 40);	/* longer text wraps in its cell */
}

/* The key columns 0 .. key - 1 and columns c0 .. c1 - 1 of every row (c == t->ncols: each row's
 * conditions). */
static void write_part(FILE *f, const struct wtg_table *t, int key, int c0, int c1)
{
	fputs("<div class=\"scroll part\"><table class=\"rows\">\n<tr>", f);
	for (int k = 0; k < key + c1 - c0; k++) {
		int c = k < key ? k : c0 + k - key;
		fputs("<th>", f);
		column_name(f, c < t->ncols ? t->cols[c].name : "conditions");
		if (c < t->ncols && t->cols[c].unit && *t->cols[c].unit)
			elem(f, "<span class=\"unit\">", t->cols[c].unit, "</span>");
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int r = 0; r < t->nrows; r++) {
		fputs("<tr>", f);
		for (int k = 0; k < key + c1 - c0; k++) {
			int c = k < key ? k : c0 + k - key;
			char cond[96];
			if (c < t->ncols) {
				cell(f, &t->rows[r].v[c], &t->cols[c]);
				continue;
			}
			row_conditions(cond, sizeof cond, &t->rows[r]);
			elem(f, "<td>", cond, "</td>");
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

/* The table, a column of each row's conditions beside it where they differ between rows; a table
 * wider than the page folded as the text report folds one: the rows' key, then as many columns as
 * fit, again below for the rest. */
static void write_table(FILE *f, const struct wtg_table *t)
{
	if (t->nrows == 0)
		return;
	bool cond_col = false;
	for (int r = 1; r < t->nrows; r++)
		cond_col = cond_col || !wtg_cond_same(&t->rows[r].cond, &t->rows[0].cond);
	int nc = t->ncols + cond_col, key = wtg_report_key_columns(t), px[WTG_MAX_COLS + 1], all = 0, kpx = 0;
	for (int c = 0; c < nc && c <= WTG_MAX_COLS; c++) {
		px[c] = column_px(t, c);
		all += px[c];
		kpx += c < key ? px[c] : 0;
	}
	if (all <= TABLE_PX || key >= nc || kpx > TABLE_PX / 2) {
		write_part(f, t, 0, 0, nc);
		return;
	}
	for (int c0 = key; c0 < nc;) {
		int c1 = c0 + 1, w = kpx + px[c0];
		while (c1 < nc && w + px[c1] <= TABLE_PX)
			w += px[c1++];
		write_part(f, t, key, c0, c1);
		c0 = c1;
	}
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

/* "measured under burners 2 spin; done": what run t had and how it ended. */
static void measured_under(FILE *f, const struct wtg_table *t)
{
	char cond[128];
	wtg_lay_run_conditions(cond, sizeof cond, t);
	fprintf(f, "<p class=\"sub\">measured under ");
	wtg_xml_string(f, cond[0] ? cond : "conditions unknown (no rows)");
	fprintf(f, "; %s</p>\n", wtg_report_state_name(t->state));
}

/* One run's figures: its table, the machine while it ran, paired figures, why here, checks and notes. */
static void write_run(FILE *f, const struct wtg_report_meta *meta, const struct wtg_table *t)
{
	const struct wtg_experiment *e = t->exp;
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
}

void wtg_html_table(FILE *f, const struct wtg_report_meta *meta, const struct wtg_table *t, int n)
{
	(void)n;
	const struct wtg_experiment *e = t->exp;
	elem(f, "<section class=\"exp\" id=\"", e->name, "\">\n");
	elem(f, "<h2>", e->name, ": ");
	elem(f, "", e->question, "</h2>\n");
	char runs[512];
	elem(f, "<p class=\"sub\">", wtg_experiment_runs(e, meta->quick, runs, sizeof runs), "");
	fprintf(f, " (%s view)</p>\n", wtg_view_name(e->view));
	/* the tab's earlier runs (the dashboard's save), the last of them overlaid with this one */
	int idx = wtg_experiment_find(e->name);
	const struct wtg_report_earlier *er = meta->earlier && idx >= 0 ? &meta->earlier[idx] : NULL;
	const struct wtg_table *all[WTG_REPORT_MAX_EARLIER + 1];
	const char *label[WTG_REPORT_MAX_EARLIER + 1];
	int nr = 0;
	for (int k = 0; er && k < er->n; k++)
		if (er->t[k] != t) {
			all[nr] = er->t[k];
			label[nr++] = er->label[k] ? er->label[k] : "earlier";
		}
	char now[128], cond[96];
	wtg_lay_run_conditions(cond, sizeof cond, t);
	snprintf(now, sizeof now, "%s%s%s", nr ? "this run" : "", nr && cond[0] ? ": " : "", cond);
	all[nr] = t;
	label[nr] = now;
	int shown = nr + 1 < WTG_LAY_MAX_RUNS ? nr + 1 : WTG_LAY_MAX_RUNS;
	measured_under(f, t);
	char attrs[192];
	snprintf(attrs, sizeof attrs, "class=\"chart\" role=\"img\" aria-label=\"chart of %s%s\"", e->name,
		 shown > 1 ? ", the runs overlaid" : "");
	fputs("<figure>\n", f);
	wtg_svg_page_chart(f, all + nr + 1 - shown, label + nr + 1 - shown, shown, wtg_report_machine_of(meta, t),
			   attrs);
	if (shown > 1)
		fprintf(f, "<figcaption class=\"sub\">the last %d of the %d runs on one scale</figcaption>\n", shown,
			nr + 1);
	fputs("</figure>\n", f);
	write_run(f, meta, t);
	if (nr) {
		fprintf(f, "<div class=\"earlier\"><p><b>%d earlier run%s of %s</b>, oldest first", nr, nr == 1 ? "" : "s",
			e->name);
		if (er->dropped > 0)
			fprintf(f, " (%d older run%s not kept)", er->dropped, er->dropped == 1 ? "" : "s");
		fputs(":</p>\n", f);
		for (int k = 0; k < nr; k++) {
			fprintf(f, "<h3>%d. ", k + 1);
			wtg_xml_string(f, label[k]);
			fputs("</h3>\n", f);
			measured_under(f, all[k]);
			write_run(f, meta, all[k]);
		}
		fputs("</div>\n", f);
	}
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
			fprintf(f, "<a href=\"#%s\">%s</a>\n", wtg_experiments[i]->name, wtg_experiments[i]->name);
	fputs("</nav>\n", f);
}

void wtg_html_end(FILE *f, const struct wtg_report_meta *m, int n)
{
	(void)m;
	(void)n;
	fputs("</body>\n</html>\n", f);
}
