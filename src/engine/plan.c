/* plan.c: --dry-run. Each selected experiment's plan function lists the rows its run would make on
 * this machine (from the same variant lists the run uses); this file collects them, estimates the
 * time, and prints the plans as text (a table per experiment, the total at the end) or as JSON (the
 * report's machine block, then "plan" and "estimated_s"). Nothing is measured and no file is made. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wtg/experiment.h"
#include "wtg/plan.h"
#include "wtg/report.h"
#include "wtg/util.h"
#include "../report/writers.h"	/* wtg_json_machine, wtg_json_value */

void wtg_plan_columns(struct wtg_plan *p, const char *const *names, int n)
{
	p->ncols = n < WTG_PLAN_MAX_COLS ? n : WTG_PLAN_MAX_COLS;
	for (int i = 0; i < p->ncols; i++) {
		p->cols[i] = names[i];
		if (wtg_experiment_col(p->exp, names[i]) < 0) {	/* a plan speaks its table's words */
			wtg_error("%s: the plan's column '%s' is not a declared column", p->exp->name, names[i]);
			p->failed = true;
		}
	}
}

void wtg_plan_row(struct wtg_plan *p, const struct wtg_value *v)
{
	if (p->failed)
		return;
	if (p->nrows == p->cap) {
		int cap = p->cap ? 2 * p->cap : 16;
		struct wtg_value *nv = realloc(p->vals, (size_t)cap * (size_t)p->ncols * sizeof *nv);
		if (!nv) {
			wtg_error("%s: out of memory for the plan", p->exp->name);
			p->failed = true;
			return;
		}
		p->vals = nv;
		p->cap = cap;
	}
	struct wtg_value *row = p->vals + (size_t)p->nrows * (size_t)p->ncols;
	for (int c = 0; c < p->ncols; c++) {
		row[c] = v[c];
		if (v[c].type == WTG_T_TEXT) {
			row[c].own = strdup(v[c].s ? v[c].s : "");
			if (!row[c].s) {
				wtg_error("%s: out of memory for the plan", p->exp->name);
				row[c] = WTG_NA;
				p->failed = true;
			}
		}
	}
	p->nrows++;
}

void wtg_plan_labels(struct wtg_plan *p, const char *col, const char *const *labels, int n, int samples,
		     int warmup)
{
	wtg_plan_columns(p, &col, 1);
	for (int i = 0; i < n; i++) {
		const struct wtg_value v = WTG_TEXT(labels[i]);
		wtg_plan_row(p, &v);
	}
	p->samples = samples;
	p->warmup = warmup;
}

double wtg_plan_estimate(const struct wtg_plan *p)
{
	double typical = wtg_experiment_typical_s(p->exp, p->opt->quick);
	if (p->work > 0 && p->ref_work > 0)
		return typical * p->work / p->ref_work;
	return typical;
}

static void plan_free(struct wtg_plan *p)
{
	for (int i = 0; i < p->nrows * p->ncols; i++)
		if (p->vals[i].type == WTG_T_TEXT)
			free(p->vals[i].own);
	free(p->vals);
}

/* The data file's size as a run would have it: --file's (stat only), else --size. */
static uint64_t planned_file_size(const struct wtg_options *o)
{
	struct stat st;
	if (o->file && stat(o->file, &st) == 0)
		return (uint64_t)st.st_size;
	return o->size;
}

/* Exp's declared column name (its unit, decimals), or NULL. */
static const struct wtg_column *col_of(const struct wtg_experiment *e, const char *name)
{
	int c = wtg_experiment_col(e, name);
	return c >= 0 ? &e->cols[c] : NULL;
}

static void text_cell(const struct wtg_plan *p, const struct wtg_value *v, int c, char *buf, size_t len)
{
	const struct wtg_column *col = col_of(p->exp, p->cols[c]);
	switch (v->type) {
	case WTG_T_INT:
		if (col && strcmp(col->unit, "B") == 0)
			wtg_fmt_size(buf, len, (uint64_t)v->i);
		else
			snprintf(buf, len, "%" PRId64, v->i);
		break;
	case WTG_T_REAL:
		snprintf(buf, len, "%.*f", col ? col->decimals : 2, v->r);
		break;
	case WTG_T_TEXT:
		wtg_strlcpy(buf, v->s, len);
		break;
	default:
		wtg_strlcpy(buf, "-", len);
	}
}

/* "< 1 s", "42 s", "3 min 05 s". */
void wtg_plan_duration(char *buf, size_t len, double s)
{
	long t = lround(s);
	if (t < 1)
		snprintf(buf, len, "< 1 s");
	else if (t < 60)
		snprintf(buf, len, "%ld s", t);
	else
		snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
}

static void text_plan(FILE *f, const struct wtg_plan *p)
{
	char cell[256], est[32];
	int width[WTG_PLAN_MAX_COLS];
	fprintf(f, "%s: %s\n", p->exp->name, p->exp->question);
	for (int c = 0; c < p->ncols; c++) {
		width[c] = (int)strlen(p->cols[c]);
		for (int r = 0; r < p->nrows; r++) {
			text_cell(p, &p->vals[r * p->ncols + c], c, cell, sizeof cell);
			int w = wtg_text_width(cell);
			width[c] = w > width[c] ? w : width[c];
		}
	}
	for (int c = 0; c < p->ncols; c++)
		fprintf(f, "  %-*s", c + 1 < p->ncols ? width[c] : 0, p->cols[c]);
	putc('\n', f);
	for (int r = 0; r < p->nrows; r++) {
		for (int c = 0; c < p->ncols; c++) {
			text_cell(p, &p->vals[r * p->ncols + c], c, cell, sizeof cell);
			int pad = c + 1 < p->ncols ? width[c] - wtg_text_width(cell) : 0;
			fprintf(f, "  %s%*s", cell, pad, "");
		}
		putc('\n', f);
	}
	wtg_plan_duration(est, sizeof est, wtg_plan_estimate(p));
	fprintf(f, "  %d row%s x %d sample%s", p->nrows, p->nrows == 1 ? "" : "s", p->samples,
		p->samples == 1 ? "" : "s");
	if (p->warmup)
		fprintf(f, " (+%d warm-up)", p->warmup);
	fprintf(f, "; estimated %s (%s)\n\n", est, p->how);
}

static void json_plan(FILE *f, const struct wtg_plan *p, bool first)
{
	fputs(first ? "\n    {\"experiment\": " : ",\n    {\"experiment\": ", f);
	wtg_json_string(f, p->exp->name);
	fputs(", \"rows\": [", f);
	for (int r = 0; r < p->nrows; r++) {
		fputs(r ? ",\n      {" : "\n      {", f);
		for (int c = 0; c < p->ncols; c++) {
			fputs(c ? ", " : "", f);
			wtg_json_string(f, p->cols[c]);
			fputs(": ", f);
			wtg_json_value(f, &p->vals[r * p->ncols + c]);
		}
		putc('}', f);
	}
	fprintf(f, "%s],\n     \"samples\": %d, \"warmup\": %d, \"estimated_s\": %.1f, \"estimate\": ",
		p->nrows ? "\n    " : "", p->samples, p->warmup, wtg_plan_estimate(p));
	wtg_json_string(f, p->how);
	putc('}', f);
}

/* The caches the sizes follow: "caches (sysfs): L1d 48K, L2 2M, L3 105M", or the assumption. */
static void text_caches(FILE *f, const struct wtg_machine *m)
{
	char sz[32];
	if (m->caches_note[0])
		fprintf(f, "note: %s\n", m->caches_note);
	if (!m->ncaches) {
		fputs("caches: not exposed; plans assume a 32K L1d and a 32M last-level cache\n\n", f);
		return;
	}
	fprintf(f, "caches (%s):", m->caches_source);
	for (int level = 1, n = 0; level <= 4; level++) {
		uint64_t s = wtg_machine_cache_size(m, level);
		if (!s)
			continue;
		wtg_fmt_size(sz, sizeof sz, s);
		fprintf(f, "%s L%d%s %s", n++ ? "," : "", level, level == 1 ? "d" : "", sz);
	}
	fputs("\n\n", f);
}

/* Make e's plan (its plan function, else one row-less entry at the typical time). */
static void make_plan(struct wtg_plan *p, const struct wtg_experiment *e, const struct wtg_options *o,
		      const struct wtg_machine *m, const struct wtg_topology *t)
{
	memset(p, 0, sizeof *p);
	p->exp = e;
	p->opt = o;
	p->machine = m;
	p->topo = t;
	p->file_size = planned_file_size(o);
	p->samples = 1;
	snprintf(p->how, sizeof p->how, "its typical time on a %d-CPU machine", WTG_PLAN_REF_CPUS);
	if (e->plan)
		e->plan(p);
}

double wtg_plan_seconds(const struct wtg_experiment *e, const struct wtg_options *o, const struct wtg_machine *m,
			const struct wtg_topology *t)
{
	struct wtg_plan p;
	make_plan(&p, e, o, m, t);
	double s = wtg_plan_estimate(&p);
	plan_free(&p);
	return s;
}

int wtg_plan_main(FILE *f, const struct wtg_options *o)
{
	static struct wtg_machine m;
	static struct wtg_topology t;
	char summary[160];
	wtg_machine_read(&m);
	wtg_topology_read(&t, NULL);
	wtg_topology_summary(&t, summary, sizeof summary);
	bool json = o->format == WTG_FMT_JSON;
	if (json) {
		struct wtg_report_meta meta = { .machine = &m, .topo = &t, .topo_summary = summary,
						.df_state = WTG_DF_NONE, .file = o->file, .opt = o };
		fputs("{\n", f);
		wtg_json_machine(f, &meta);
		fputs("  \"plan\": [", f);
	} else {
		fprintf(f, "plan for %s (%s), %d CPUs online%s\n", m.hostname, summary, t.cpus_online,
			o->quick ? ", --quick" : "");
		text_caches(f, &m);
	}
	double total = 0;
	int n = 0, failed = 0;
	for (int i = 0; i < wtg_nexperiments; i++) {
		if (!o->selected[i])
			continue;
		struct wtg_plan p;
		make_plan(&p, wtg_experiments[i], o, &m, &t);
		failed += p.failed;
		total += wtg_plan_estimate(&p);
		if (json)
			json_plan(f, &p, n == 0);
		else
			text_plan(f, &p);
		n++;
		plan_free(&p);
	}
	char est[32];
	wtg_plan_duration(est, sizeof est, total);
	if (json)
		fprintf(f, "%s],\n  \"estimated_s\": %.1f\n}\n", n ? "\n  " : "", total);
	else
		fprintf(f, "total: %d experiment%s, estimated %s\n", n, n == 1 ? "" : "s", est);
	return failed || fflush(f) ? 1 : 0;
}
