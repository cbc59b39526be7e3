/* plan.c: an experiment's plan for --dry-run and the time estimates. Its plan function lists the
 * rows its run would make on this machine (from the same variant lists the run uses) with the
 * helpers here; this file makes a plan and estimates its time (src/report/dryrun.c prints them).
 * Nothing is measured and no file is made. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wtg/experiment.h"
#include "wtg/arms.h"
#include "wtg/plan.h"
#include "wtg/util.h"

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
	int arms = p->arms > 1 ? p->arms : 1;
	if (p->work > 0 && p->ref_work > 0)
		return typical * p->work / p->ref_work * arms + p->switch_s;
	return typical * arms + p->switch_s;
}

void wtg_plan_free(struct wtg_plan *p)
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

void wtg_plan_make(struct wtg_plan *p, const struct wtg_experiment *e, const struct wtg_options *o,
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
	p->arms = 1;
	if (o->versus.cond != WTG_VS_NONE && wtg_versus_applies(e, &o->versus, p->unpaired, sizeof p->unpaired)) {
		p->arms = 2;
		/* burners given time to settle each time they start, once a round */
		if (o->versus.cond == WTG_VS_BURN)
			p->switch_s = WTG_PAIRED_ROUNDS * WTG_PAIRED_SETTLE_MS / 1000.0;
	}
}

double wtg_plan_seconds(const struct wtg_experiment *e, const struct wtg_options *o, const struct wtg_machine *m,
			const struct wtg_topology *t)
{
	struct wtg_plan p;
	wtg_plan_make(&p, e, o, m, t);
	double s = wtg_plan_estimate(&p);
	wtg_plan_free(&p);
	return s;
}
