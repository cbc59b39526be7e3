/* dryrun.c: --dry-run prints the plans (src/engine/plan.c) of the selected experiments as text (a
 * table per experiment, the total at the end) or as JSON (the report's machine block, then "plan"
 * and "estimated_s"). Nothing is measured and no file is made. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "wtg/experiment.h"
#include "wtg/paired.h"
#include "wtg/plan.h"
#include "wtg/warmup.h"
#include "wtg/report.h"
#include "wtg/util.h"
#include "writers.h"	/* wtg_json_machine, wtg_json_value */

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
	/* what a row runs, in one paragraph wrapped to the page */
	char line[1024];
	FILE *m = fmemopen(line, sizeof line, "w");
	if (!m)
		return;
	fprintf(m, "%d row%s x %d sample%s", p->nrows, p->nrows == 1 ? "" : "s", p->samples,
		p->samples == 1 ? "" : "s");
	if (p->warmup)
		fprintf(m, " (+%d warm-up)", p->warmup);
	if (p->warm_window && p->warm_max > WTG_WARMUP_STABLE)
		fprintf(m, ", warm-up windows of %d sample%s until %d lie within %.0f%% (%d to %d windows)",
			p->warm_window, p->warm_window == 1 ? "" : "s", WTG_WARMUP_STABLE, 100 * WTG_WARMUP_TOLERANCE,
			WTG_WARMUP_STABLE, p->warm_max);
	else if (p->warm_window)	/* --quick: the rule's windows, whether or not they agree */
		fprintf(m, ", %d warm-up windows of %d sample%s (the rule: their medians within %.0f%%, kept either way)",
			p->warm_max, p->warm_window, p->warm_window == 1 ? "" : "s", 100 * WTG_WARMUP_TOLERANCE);
	fprintf(m, "; estimated %s (%s)", est, p->how);
	long n = ftell(m);
	fclose(m);
	line[n > 0 && n < (long)sizeof line ? n : (long)sizeof line - 1] = '\0';
	fputs("  ", f);
	wtg_report_wrap(f, 2, 4, line);
	if (p->arms > 1) {
		char words[64];
		wtg_versus_words(&p->opt->versus, words, sizeof words);
		if (p->b_timed)
			snprintf(line, sizeof line, "every row in 2 arms, A under the run's conditions and B under %s, "
				 "alternating round by round: %d samples a row in arm A, arm B measuring as long as A "
				 "each round (as many samples, or fewer where B is slower)", words, p->samples);
		else
			snprintf(line, sizeof line, "every row in 2 arms, A under the run's conditions and B under %s, "
				 "alternating round by round: %d samples a row in all", words, 2 * p->samples);
		fputs("  paired: ", f);
		wtg_report_wrap(f, 10, 4, line);
	} else if (p->unpaired[0]) {
		fputs("  not paired: ", f);
		wtg_report_wrap(f, 14, 4, p->unpaired);
	}
	putc('\n', f);
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
	fprintf(f, "%s],\n     \"samples\": %d, \"warmup\": %d, ", p->nrows ? "\n    " : "", p->samples, p->warmup);
	if (p->warm_window)
		fprintf(f, "\"warmup_windows\": {\"window\": %d, \"stable\": %d, \"tolerance_pct\": %g, \"max\": %d}, ",
			p->warm_window, WTG_WARMUP_STABLE, 100 * WTG_WARMUP_TOLERANCE, p->warm_max);
	if (p->opt->versus.cond != WTG_VS_NONE) {
		fprintf(f, "\"arms\": %d, \"unpaired\": ", p->arms);
		wtg_json_string(f, p->arms > 1 ? NULL : p->unpaired);
		if (p->arms > 1)
			fprintf(f, ", \"arm_b_timed\": %s", p->b_timed ? "true" : "false");
		fputs(", ", f);
	}
	fprintf(f, "\"estimated_s\": %.1f, \"estimate\": ", wtg_plan_estimate(p));
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
		wtg_plan_make(&p, wtg_experiments[i], o, &m, &t);
		failed += p.failed;
		total += wtg_plan_estimate(&p);
		if (json)
			json_plan(f, &p, n == 0);
		else
			text_plan(f, &p);
		n++;
		wtg_plan_free(&p);
	}
	char est[32];
	wtg_plan_duration(est, sizeof est, total);
	if (json)
		fprintf(f, "%s],\n  \"estimated_s\": %.1f\n}\n", n ? "\n  " : "", total);
	else
		fprintf(f, "total: %d experiment%s, estimated %s\n", n, n == 1 ? "" : "s", est);
	return failed || ferror(f) ? 1 : 0;	/* the caller flushes f and says why it failed */
}
