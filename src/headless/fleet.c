/* fleet.c: the headless summary of many machines (wtg/fleet.h): every --load file read in turn (a
 * broken one named and left out), then per headline figure the machines' count, median, quartiles
 * and extremes, overall and per group, and the line in words, as text, Markdown, long CSV (one line
 * per machine and figure, the same ten fields as a run's CSV, so the files concatenate) or JSON. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wtg/experiment.h"
#include "wtg/fleet.h"
#include "wtg/paths.h"
#include "wtg/report.h"
#include "wtg/util.h"

#include "headless_int.h"

/* The groups a figure is shown in: each dimension whose value differs among its machines. */
#define MAX_VALUES 64

static const char *const stat_names[] = { "machines", "min", "q1", "median", "q3", "max" };

static double stat_at(const struct wtg_fleet_stat *st, int k)
{
	const double v[] = { st->n, st->min, st->q1, st->median, st->q3, st->max };
	return v[k];
}

/* Call fn for figure f's overall statistics (d -1) and each group's. */
typedef void (*group_fn)(FILE *f, const struct wtg_fleet *fl, int fig, int d, const char *value,
			 const struct wtg_fleet_stat *st, void *arg);

static void each_group(FILE *f, const struct wtg_fleet *fl, int fig, group_fn fn, void *arg)
{
	struct wtg_fleet_stat st;
	wtg_fleet_stat(fl, fig, -1, NULL, &st);
	fn(f, fl, fig, -1, NULL, &st, arg);
	for (int d = 0; d < WTG_NDIMS; d++) {
		const char *vals[MAX_VALUES];
		int nv = wtg_fleet_dim_values(fl, fig, d, vals, MAX_VALUES);
		for (int k = 0; k < nv && nv > 1; k++) {
			wtg_fleet_stat(fl, fig, d, vals[k], &st);
			fn(f, fl, fig, d, vals[k], &st, arg);
		}
	}
}

/* "all", or "virtual machine: kvm". */
static void group_name(int d, const char *value, char *buf, size_t len)
{
	if (d < 0)
		snprintf(buf, len, "all");
	else
		snprintf(buf, len, "%s: %s", wtg_fleet_dim_name(d), value);
}

static bool fig_has_machines(const struct wtg_fleet *fl, int f)
{
	for (int i = 0; i < fl->nm; i++)
		if (fl->m[i].v && isfinite(fl->m[i].v[f]))
			return true;
	return false;
}

/* ---- text and Markdown ---- */

static void fmt_range(char *buf, size_t len, double a, double b)
{
	char x[32], y[32];
	wtg_fleet_fmt(x, sizeof x, a);
	wtg_fleet_fmt(y, sizeof y, b);
	snprintf(buf, len, "%s-%s", x, y);
}

/* "1,300 (vm-3)", for text with the name escaped and cut to 14 columns, for Markdown raw (its writer
 * escapes it). */
static void fmt_extreme(char *buf, size_t len, const struct wtg_fleet *fl, double v, int m, bool raw)
{
	char x[32], name[300];
	wtg_fleet_fmt(x, sizeof x, v);
	if (raw)
		wtg_strlcpy(name, m >= 0 ? fl->m[m].name : "", sizeof name);
	else
		wtg_escape(name, sizeof name, m >= 0 ? fl->m[m].name : "");
	if (!raw && strlen(name) > 14)
		memcpy(name + 11, "...", 4);
	snprintf(buf, len, "%s (%s)", x, name);
}

static void text_group(FILE *f, const struct wtg_fleet *fl, int fig, int d, const char *value,
		       const struct wtg_fleet_stat *st, void *arg)
{
	bool md = *(const bool *)arg;
	char g[160], gname[160], med[32], q[64], lo[400], hi[400];
	group_name(d, value, gname, sizeof gname);
	wtg_escape(g, sizeof g, gname);
	wtg_fleet_fmt(med, sizeof med, st->median);
	fmt_range(q, sizeof q, st->q1, st->q3);
	fmt_extreme(lo, sizeof lo, fl, st->min, st->min_m, md);
	fmt_extreme(hi, sizeof hi, fl, st->max, st->max_m, md);
	(void)fig;
	if (!md) {
		fprintf(f, "  %-28s %4d %8s %-15s %-22s %s\n", g, st->n, med, q, lo, hi);
		return;
	}
	fputs("| ", f);
	wtg_markdown_text(f, gname);
	fprintf(f, " | %d | %s | %s | ", st->n, med, q);
	wtg_markdown_text(f, lo);
	fputs(" | ", f);
	wtg_markdown_text(f, hi);
	fputs(" |\n", f);
}

static void write_text(FILE *f, const struct wtg_fleet *fl, int highlight, bool md)
{
	fprintf(f, md ? "# wtg: %d machine%s\n\n%d run%s from %d report%s" : "wtg: %d machine%s, %d run%s from %d report%s",
		fl->nm, fl->nm == 1 ? "" : "s", fl->runs, fl->runs == 1 ? "" : "s", fl->reports, fl->reports == 1 ? "" : "s");
	if (fl->left_out)
		fprintf(f, ", %d left out", fl->left_out);
	if (highlight >= 0) {
		fputs("; this one: ", f);
		if (md)
			wtg_markdown_text(f, fl->m[highlight].name);
		else
			wtg_escape_put(f, fl->m[highlight].name);
	}
	fputs(md ? ".\n" : "\n", f);
	for (int fig = 0; fig < fl->nfigs; fig++) {
		if (!fig_has_machines(fl, fig))
			continue;
		const struct wtg_fleet_fig *fg = &fl->figs[fig];
		char line[1024];
		wtg_fleet_line(fl, fig, highlight, line, sizeof line);
		const char *unit = fg->h->unit ? fg->h->unit : "";
		const char *way = fg->h->higher_better ? "higher is better" : "lower is better";
		if (md) {
			fprintf(f, "\n## %s: ", fg->name);
			wtg_markdown_text(f, fg->h->figure);
			fprintf(f, " (%s%s%s)\n\n| group | machines | median | quartiles | min | max |\n"
				   "|---|--:|--:|--:|---|---|\n", unit, *unit ? ", " : "", way);
		} else {
			fprintf(f, "\n%s: %s (%s%s%s)\n  %-28s %4s %8s %-15s %-22s %s\n", fg->name, fg->h->figure, unit,
				*unit ? ", " : "", way, "group", "n", "median", "quartiles", "min", "max");
		}
		each_group(f, fl, fig, text_group, &md);
		if (md) {
			fputs("\n", f);
			wtg_markdown_text(f, line);
			fputs("\n", f);
		} else {
			fputs("  ", f);
			wtg_escape_put(f, line);
			fputs("\n", f);
		}
	}
}

/* ---- CSV ---- */

/* One line: run,host,experiment,kind,row,name,unit,value,status,text (row always empty). */
static void csv_line(FILE *f, const char *run, const char *host, const char *exp, const char *kind, const char *name,
		     const char *unit, double value, const char *status, const char *text)
{
	char v[64];
	wtg_report_real(v, sizeof v, value);
	wtg_csv_field(f, run);
	putc(',', f);
	wtg_csv_field(f, host);
	putc(',', f);
	wtg_csv_field(f, exp);
	fprintf(f, ",%s,,", kind);
	wtg_csv_field(f, name);
	putc(',', f);
	wtg_csv_field(f, unit);
	fprintf(f, ",%s,", v);
	wtg_csv_field(f, status);
	putc(',', f);
	wtg_csv_field(f, text);
	putc('\n', f);
}

static void csv_group(FILE *f, const struct wtg_fleet *fl, int fig, int d, const char *value,
		      const struct wtg_fleet_stat *st, void *arg)
{
	(void)arg;
	const struct wtg_fleet_fig *fg = &fl->figs[fig];
	char g[160];
	group_name(d, value, g, sizeof g);
	for (size_t k = 0; k < WTG_ARRAY_LEN(stat_names); k++)
		csv_line(f, "", "", wtg_experiments[fg->exp]->name, "summary", fg->h->figure, k ? fg->h->unit : "",
			 stat_at(st, (int)k), stat_names[k], g);
}

static void write_csv(FILE *f, const struct wtg_fleet *fl)
{
	fputs("run,host,experiment,kind,row,name,unit,value,status,text\n", f);
	for (int i = 0; i < fl->nm; i++) {
		const struct wtg_fleet_machine *m = &fl->m[i];
		for (int d = 0; d < WTG_NDIMS; d++)
			csv_line(f, m->name, m->host, "", "group", wtg_fleet_dim_name(d), "", NAN, "", m->dim[d]);
		for (int fig = 0; fig < fl->nfigs; fig++) {
			const struct wtg_fleet_fig *fg = &fl->figs[fig];
			if (!m->v || !isfinite(m->v[fig]))
				continue;
			csv_line(f, m->name, m->host, wtg_experiments[fg->exp]->name, "machine", fg->h->figure, fg->h->unit,
				 m->v[fig], "", m->why[fg->exp] ? m->why[fg->exp] : "");
		}
	}
	for (int fig = 0; fig < fl->nfigs; fig++)
		if (fig_has_machines(fl, fig))
			each_group(f, fl, fig, csv_group, NULL);
}

/* ---- JSON ---- */

/* ', "key": "s"' (null for NULL). */
static void json_str(FILE *f, const char *key, const char *s)
{
	fprintf(f, ", \"%s\": ", key);
	wtg_json_string(f, s);
}

static void json_stats(FILE *f, const struct wtg_fleet *fl, const struct wtg_fleet_stat *st)
{
	fprintf(f, "\"machines\": %d", st->n);
	wtg_json_member(f, "median", st->median);
	wtg_json_member(f, "q1", st->q1);
	wtg_json_member(f, "q3", st->q3);
	wtg_json_member(f, "min", st->min);
	json_str(f, "min_machine", st->min_m >= 0 ? fl->m[st->min_m].name : NULL);
	wtg_json_member(f, "max", st->max);
	json_str(f, "max_machine", st->max_m >= 0 ? fl->m[st->max_m].name : NULL);
}

static void json_group(FILE *f, const struct wtg_fleet *fl, int fig, int d, const char *value,
		       const struct wtg_fleet_stat *st, void *arg)
{
	int *n = arg;
	(void)fig;
	if (d < 0)
		return;
	fputs((*n)++ ? ",\n        {\"dimension\": " : "\n        {\"dimension\": ", f);
	wtg_json_string(f, wtg_fleet_dim_name(d));
	json_str(f, "value", value);
	fputs(", ", f);
	json_stats(f, fl, st);
	fputs("}", f);
}

static void json_machine(FILE *f, const struct wtg_fleet *fl, const struct wtg_fleet_machine *m)
{
	fputs("    {\"name\": ", f);
	wtg_json_string(f, m->name);
	json_str(f, "host", m->host);
	json_str(f, "cpu_model", m->cpu);
	fprintf(f, ", \"memory_bytes\": %llu, \"runs\": %d", (unsigned long long)m->memory, m->nruns);
	json_str(f, "first_file", m->first_file);
	json_str(f, "last_timestamp", m->last_time);
	fputs(",\n     \"groups\": {", f);
	for (int d = 0; d < WTG_NDIMS; d++) {
		fputs(d ? ", " : "", f);
		wtg_json_string(f, wtg_fleet_dim_name(d));
		fputs(": ", f);
		wtg_json_string(f, m->dim[d]);
	}
	fputs("},\n     \"figures\": {", f);
	for (int fig = 0, k = 0; fig < fl->nfigs; fig++) {
		if (!m->v || !isfinite(m->v[fig]))
			continue;
		fputs(k++ ? ", " : "", f);
		wtg_json_string(f, fl->figs[fig].name);
		fputs(": ", f);
		char v[64];
		wtg_report_real(v, sizeof v, m->v[fig]);
		fputs(v, f);
	}
	fputs("},\n     \"why_here\": {", f);
	for (int e = 0, k = 0; e < wtg_nexperiments && e < WTG_MAX_EXP; e++) {
		if (!m->why[e])
			continue;
		fputs(k++ ? ", " : "", f);
		wtg_json_string(f, wtg_experiments[e]->name);
		fputs(": ", f);
		wtg_json_string(f, m->why[e]);
	}
	fputs("}}", f);
}

static void write_json(FILE *f, const struct wtg_fleet *fl, int highlight)
{
	fprintf(f, "{\"tool\": \"wtg\", \"summary\": \"machines\", \"version\": \"%s\",\n"
		   "  \"reports\": %d, \"runs\": %d, \"left_out\": [", PACKAGE_VERSION, fl->reports, fl->runs);
	for (int i = 0; i < fl->left_out; i++) {
		fputs(i ? ", " : "", f);
		wtg_json_string(f, fl->left[i]);
	}
	fputs("],\n  \"highlight\": ", f);
	wtg_json_string(f, highlight >= 0 ? fl->m[highlight].name : NULL);
	fputs(",\n  \"machines\": [\n", f);
	for (int i = 0; i < fl->nm; i++) {
		json_machine(f, fl, &fl->m[i]);
		fputs(i + 1 < fl->nm ? ",\n" : "\n", f);
	}
	fputs("  ],\n  \"figures\": [", f);
	for (int fig = 0, k = 0; fig < fl->nfigs; fig++) {
		if (!fig_has_machines(fl, fig))
			continue;
		const struct wtg_fleet_fig *fg = &fl->figs[fig];
		struct wtg_fleet_stat st;
		wtg_fleet_stat(fl, fig, -1, NULL, &st);
		char line[1024];
		wtg_fleet_line(fl, fig, highlight, line, sizeof line);
		fputs(k++ ? ",\n    {\"figure\": " : "\n    {\"figure\": ", f);
		wtg_json_string(f, fg->name);
		json_str(f, "experiment", wtg_experiments[fg->exp]->name);
		json_str(f, "what", fg->h->figure);
		json_str(f, "unit", fg->h->unit);
		fprintf(f, ", \"higher_better\": %s,\n      ", fg->h->higher_better ? "true" : "false");
		json_stats(f, fl, &st);
		fputs(",\n      \"line\": ", f);
		wtg_json_string(f, line);
		fputs(",\n      \"groups\": [", f);
		int n = 0;
		each_group(f, fl, fig, json_group, &n);
		fputs(n ? "\n      ]}" : "]}", f);
	}
	fputs("\n  ]\n}\n", f);
}

/* ---- SVG and HTML: a slide per figure (src/report/fleet_svg.c) ---- */

static int figures_drawn(const struct wtg_fleet *fl)
{
	int n = 0;
	for (int fig = 0; fig < fl->nfigs; fig++)
		n += fig_has_machines(fl, fig);
	return n;
}

static void write_svg(FILE *f, const struct wtg_fleet *fl, int highlight)
{
	int n = figures_drawn(fl), k = 0;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		   "viewBox=\"0 0 1280 %d\" width=\"1280\" height=\"%d\">\n", 720 * n, 720 * n);
	for (int fig = 0; fig < fl->nfigs; fig++) {
		if (!fig_has_machines(fl, fig))
			continue;
		char attrs[96];
		snprintf(attrs, sizeof attrs, "y=\"%d\" width=\"1280\" height=\"720\"", 720 * k++);
		wtg_fleet_svg_chart(f, fl, fig, highlight, attrs);
	}
	fputs("</svg>\n", f);
}

static void html_group(FILE *f, const struct wtg_fleet *fl, int fig, int d, const char *value,
		       const struct wtg_fleet_stat *st, void *arg)
{
	(void)fig, (void)arg;
	char g[160], med[32], q[64], lo[400], hi[400];
	group_name(d, value, g, sizeof g);
	wtg_fleet_fmt(med, sizeof med, st->median);
	fmt_range(q, sizeof q, st->q1, st->q3);
	fmt_extreme(lo, sizeof lo, fl, st->min, st->min_m, true);
	fmt_extreme(hi, sizeof hi, fl, st->max, st->max_m, true);
	const char *cells[] = { g, NULL, med, q, lo, hi };
	fputs("<tr>", f);
	for (size_t i = 0; i < WTG_ARRAY_LEN(cells); i++) {
		fputs(i ? "<td class=\"n\">" : "<td>", f);
		if (cells[i])
			wtg_xml_string(f, cells[i]);
		else
			fprintf(f, "%d", st->n);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

static void write_html(FILE *f, const struct wtg_fleet *fl, int highlight)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>wtg: %d machines</title>\n"
		   "<style>body{font-family:Helvetica,Arial,sans-serif;max-width:1280px;margin:1em auto;color:#222}"
		   "svg{width:100%%;height:auto;border:1px solid #ddd}table{border-collapse:collapse}"
		   "td,th{padding:2px 10px;border-bottom:1px solid #eee;text-align:left}td.n{text-align:right}</style>\n"
		   "</head>\n<body>\n<h1>wtg: %d machines</h1>\n<p>%d runs from %d reports",
		fl->nm, fl->nm, fl->runs, fl->reports);
	if (fl->left_out)
		fprintf(f, ", %d left out", fl->left_out);
	if (highlight >= 0) {
		fputs("; this one: ", f);
		wtg_xml_string(f, fl->m[highlight].name);
	}
	fputs(".</p>\n", f);
	for (int fig = 0; fig < fl->nfigs; fig++) {
		if (!fig_has_machines(fl, fig))
			continue;
		char line[1024];
		wtg_fleet_line(fl, fig, highlight, line, sizeof line);
		fprintf(f, "<section>\n<h2>%s: ", fl->figs[fig].name);
		wtg_xml_string(f, fl->figs[fig].h->figure);
		fputs("</h2>\n", f);
		wtg_fleet_svg_chart(f, fl, fig, highlight, "role=\"img\"");
		fputs("<p>", f);
		wtg_xml_string(f, line);
		fputs("</p>\n<table>\n<tr><th>group</th><th>machines</th><th>median</th><th>quartiles</th><th>min</th>"
		      "<th>max</th></tr>\n", f);
		each_group(f, fl, fig, html_group, NULL);
		fputs("</table>\n</section>\n", f);
	}
	fputs("</body>\n</html>\n", f);
}

int wtg_fleet_write(FILE *f, enum wtg_format fmt, const struct wtg_fleet *fl, int highlight)
{
	switch (fmt) {
	case WTG_FMT_SVG:
		write_svg(f, fl, highlight);
		break;
	case WTG_FMT_HTML:
		write_html(f, fl, highlight);
		break;
	case WTG_FMT_CSV:
		write_csv(f, fl);
		break;
	case WTG_FMT_JSON:
		write_json(f, fl, highlight);
		break;
	case WTG_FMT_MARKDOWN:
		write_text(f, fl, highlight, true);
		break;
	default:
		write_text(f, fl, highlight, false);
		break;
	}
	return ferror(f) ? -1 : 0;
}

/* ---- the program ---- */

/* No --load file is an output: by device and inode (the other checks of wtg_check_paths, without
 * the loads, which may be thousands). 0, or 2 after the usage line. */
static int check_outputs(const struct wtg_options *o)
{
	struct wtg_options rest = *o;
	rest.nloads = 0;
	if (wtg_check_paths(&rest, o->selected))
		return 2;
	struct stat out[WTG_MAX_OUTPUTS + 1];
	const char *name[WTG_MAX_OUTPUTS + 1];
	int n = 0;
	for (int i = 0; i < o->noutputs; i++)
		if (stat(o->outputs[i].path, &out[n]) == 0 && S_ISREG(out[n].st_mode))
			name[n++] = o->outputs[i].path;
	if (!o->noutputs && fstat(STDOUT_FILENO, &out[n]) == 0 && S_ISREG(out[n].st_mode))
		name[n++] = "standard output";
	for (int i = 0; i < o->nloads && n; i++) {
		struct stat st;
		if (stat(o->loads[i], &st) != 0)
			continue;
		for (int k = 0; k < n; k++)
			if (st.st_dev == out[k].st_dev && st.st_ino == out[k].st_ino)
				return wtg_usage_error("%s is the --load file '%s', which wtg never writes", name[k],
						       o->loads[i]);
	}
	return 0;
}

struct fleet_out {
	const struct wtg_fleet *fl;
	enum wtg_format fmt;
	int highlight;
};

static int write_fleet(FILE *f, void *arg)
{
	const struct fleet_out *x = arg;
	return wtg_fleet_write(f, x->fmt, x->fl, x->highlight);
}

/* Every file into fl, the broken ones named and kept in fl->left. */
static void read_all(const struct wtg_options *o, struct wtg_fleet *fl)
{
	for (int i = 0; i < o->nloads; i++) {
		char err[1024];
		if (wtg_fleet_add_file(fl, o->loads[i], err, sizeof err) == 0)
			continue;
		wtg_error("%s; left out", err);
		const char **p = realloc(fl->left, (size_t)(fl->left_out + 1) * sizeof *p);
		if (p) {
			fl->left = p;
			fl->left[fl->left_out] = o->loads[i];
		}
		fl->left_out += p != NULL;
	}
}

int wtg_fleet_read(const struct wtg_options *o, struct wtg_fleet *fl, int *highlight)
{
	wtg_loads_say();
	wtg_fleet_init(fl);
	read_all(o, fl);
	if (fl->reports == 0) {
		wtg_error("none of the %d --load files loaded", o->nloads);
		wtg_fleet_free(fl);
		return 2;
	}
	wtg_fleet_finish(fl);
	*highlight = -1;
	if (o->highlight && (*highlight = wtg_fleet_find(fl, o->highlight)) < 0) {
		wtg_error("--highlight=%s: no machine of that name or host among the %d loaded", o->highlight, fl->nm);
		wtg_fleet_free(fl);
		return 2;
	}
	return 0;
}

int wtg_fleet_main(const struct wtg_options *o)
{
	if (check_outputs(o))
		return 2;
	static struct wtg_fleet fl;
	int highlight = -1;
	if (wtg_fleet_read(o, &fl, &highlight))
		return 2;
	wtg_hl_die_on_signals();
	int status = fl.left_out ? 1 : 0;
	for (int i = 0; i < o->noutputs; i++) {
		struct fleet_out x = { &fl, o->outputs[i].format, highlight };
		char err[512];
		if (wtg_report_save_with(o->outputs[i].path, write_fleet, &x, err, sizeof err) < 0) {
			wtg_error("%s", err);
			status = 1;
		}
	}
	if (!o->noutputs) {
		struct fleet_out x = { &fl, o->format, highlight };
		errno = 0;
		if (write_fleet(stdout, &x) < 0 || fflush(stdout) != 0) {
			if (errno != EPIPE)
				wtg_error("writing the summary: %s", strerror(errno ? errno : EIO));
			status = 1;
		}
	}
	wtg_fleet_free(&fl);
	return status;
}
