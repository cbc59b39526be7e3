/* headline.c: an experiment's headline figures, read from its table (its verdict line, the
 * dashboard's runs side by side and the regression gate all take them from here). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/experiment.h"
#include "wtg/figure.h"
#include "wtg/stats.h"
#include "wtg/table.h"
#include "wtg/util.h"

const struct wtg_headline *wtg_headlines_of(const struct wtg_experiment *e, int *n)
{
	*n = 0;
	while (e && *n < WTG_MAX_HEADLINES && e->headline[*n].figure)
		(*n)++;
	return *n ? e->headline : NULL;
}

bool wtg_row_arm_b(const struct wtg_table *t, int r)
{
	int arm = wtg_table_col(t, "arm");
	const struct wtg_value *v = arm >= 0 && r >= 0 && r < t->nrows ? &t->rows[r].v[arm] : NULL;
	return v && v->type == WTG_T_TEXT && strcmp(v->s, "B") == 0;
}

int wtg_headline_row(const struct wtg_headline *h, const struct wtg_table *t)
{
	if (!h->key_col) {
		int r = t->nrows - 1;
		while (r >= 0 && wtg_row_arm_b(t, r))
			r--;
		return r;
	}
	int c = wtg_table_col(t, h->key_col);
	if (c < 0)
		return -1;
	for (int r = 0; r < t->nrows; r++) {
		const struct wtg_value *v = &t->rows[r].v[c];
		if (wtg_row_arm_b(t, r))
			continue;
		if ((v->type == WTG_T_TEXT && strcmp(v->s, h->key) == 0) ||
		    (v->type == WTG_T_INT && v->i == strtoll(h->key, NULL, 10)) ||
		    (v->type == WTG_T_REAL && v->r == strtod(h->key, NULL)))
			return r;
	}
	return -1;
}

void wtg_figure_series(const struct wtg_table *t, const char *name, struct wtg_figure *f)
{
	for (int i = 0; name && i < t->nseries; i++)
		if (strcmp(t->series[i].name, name) == 0 && t->series[i].n > 0) {
			const struct wtg_series *s = &t->series[i];
			f->samples = s->v;
			f->nsamples = s->n;
			f->replica_len = s->nreplicas > 1 ? s->replica_len : NULL;
			f->nreplicas = s->nreplicas > 1 ? s->nreplicas : 0;
		}
}

void wtg_figure_read(const struct wtg_headline *h, const struct wtg_table *t, struct wtg_figure *f)
{
	wtg_figure_read_row(h, t, -1, f);
}

void wtg_figure_read_row(const struct wtg_headline *h, const struct wtg_table *t, int row, struct wtg_figure *f)
{
	memset(f, 0, sizeof *f);
	f->value = f->lo = f->hi = f->work = f->spread_pct = NAN;
	wtg_figure_series(t, h->series, f);
	if (!h->col) {
		f->value = f->samples ? wtg_quantile(f->samples, f->nsamples, 0.5) : NAN;
		f->found = isfinite(f->value);
		return;
	}
	int r = row >= 0 ? row : wtg_headline_row(h, t), c = wtg_table_col(t, h->col);
	if (r < 0 || r >= t->nrows || c < 0)
		return;
	f->value = wtg_table_num(t, r, c);
	int lo = h->lo_col ? wtg_table_col(t, h->lo_col) : -1, hi = h->hi_col ? wtg_table_col(t, h->hi_col) : -1;
	if (lo >= 0 && hi >= 0) {
		f->lo = wtg_table_num(t, r, lo);
		f->hi = wtg_table_num(t, r, hi);
	}
	int w = h->work_col ? wtg_table_col(t, h->work_col) : -1;
	f->work = w >= 0 ? wtg_table_num(t, r, w) : NAN;
	/* a row measured in rounds: how far its replicas' medians spread (the run's drift) */
	char sp[96];
	snprintf(sp, sizeof sp, "%s_replica_spread_pct", h->col);
	int sc = wtg_table_col(t, sp), rc = wtg_table_col(t, "replicas");
	if (sc >= 0 && rc >= 0) {
		f->spread_pct = wtg_table_num(t, r, sc);
		double k = wtg_table_num(t, r, rc);
		f->spread_replicas = isfinite(k) && k > 0 ? (int)k : 0;
	}
	if (h->per_col) {
		/* per unit of work: every figure of the row over its work, the same scale for the CI */
		int p = wtg_table_col(t, h->per_col);
		double per = p >= 0 ? wtg_table_num(t, r, p) : NAN;
		double k = per > 0 ? h->per_scale / per : NAN;
		f->value *= k;
		f->lo *= k;
		f->hi *= k;
		f->samples = NULL;	/* the samples are of the whole work */
		f->nsamples = 0;
		f->replica_len = NULL;
		f->nreplicas = 0;
	}
	f->found = isfinite(f->value);
}

void wtg_figure_read_ci(const struct wtg_headline *h, const struct wtg_table *t, uint64_t seed, struct wtg_figure *f)
{
	wtg_figure_read(h, t, f);
	if (f->found && (!isfinite(f->lo) || !isfinite(f->hi)) && f->samples && f->nsamples > 0)
		wtg_bootstrap_median_ci(f->samples, f->nsamples, WTG_BOOTSTRAP_RESAMPLES, WTG_BOOTSTRAP_CONF, seed, &f->lo,
					&f->hi);
}

bool wtg_figure_comparable(const struct wtg_headline *h, const struct wtg_figure *a, const struct wtg_figure *b,
			   char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	if (!h->work_col || !isfinite(a->work) || !isfinite(b->work) || a->work == b->work)
		return true;
	char x[32], y[32];
	if (a->work >= 1024 && b->work >= 1024) {
		wtg_fmt_size(x, sizeof x, (uint64_t)a->work);
		wtg_fmt_size(y, sizeof y, (uint64_t)b->work);
	} else {
		snprintf(x, sizeof x, "%.0f", a->work);
		snprintf(y, sizeof y, "%.0f", b->work);
	}
	snprintf(why, len, "%s %s vs %s", h->work_col, x, y);
	return false;
}

/* The two sides' samples, by replica where known (a side without them drawn as one replica): the
 * bootstrap of the medians' ratio (diff false) or difference. Returns 0, or -1 without samples on
 * both sides; *method gets what was drawn. */
static int boot_pair(const struct wtg_figure *base, const struct wtg_figure *now, uint64_t seed, bool diff,
		     double *lo, double *hi, const char **method)
{
	if (!base->samples || !now->samples || base->nsamples < 2 || now->nsamples < 2)
		return -1;
	size_t nb = base->nsamples, nn = now->nsamples;
	const size_t *lb = base->replica_len ? base->replica_len : &nb, *ln = now->replica_len ? now->replica_len : &nn;
	size_t kb = base->replica_len ? (size_t)base->nreplicas : 1, kn = now->replica_len ? (size_t)now->nreplicas : 1;
	int rc = diff ? wtg_bootstrap_diff_ci_replicas(now->samples, ln, kn, base->samples, lb, kb, 0.5,
						       WTG_BOOTSTRAP_RESAMPLES, WTG_BOOTSTRAP_CONF, seed, lo, hi)
		      : wtg_bootstrap_ratio_ci_replicas(now->samples, ln, kn, base->samples, lb, kb, 0.5,
							WTG_BOOTSTRAP_RESAMPLES, WTG_BOOTSTRAP_CONF, seed, lo, hi);
	if (rc == 0)
		*method = kb > 1 || kn > 1 ? "bootstrap of replicas" : "bootstrap";
	return rc;
}

void wtg_ratio_ci(const struct wtg_figure *base, const struct wtg_figure *now, uint64_t seed, double *ratio,
		  double *lo, double *hi, const char **method)
{
	*ratio = *lo = *hi = NAN;
	*method = "none";
	if (!base->found || !now->found || base->value == 0)
		return;
	*ratio = now->value / base->value;
	if (boot_pair(base, now, seed, false, lo, hi, method) == 0)
		return;
	/* each side's interval read as a normal one on the log scale: the ratio's standard error is
	 * the root of the sum of squares (independent runs), its interval centred on the log ratio */
	if (base->lo > 0 && base->hi >= base->lo && now->lo > 0 && now->hi >= now->lo && *ratio > 0) {
		double z = 1.959963985;
		double sb = (log(base->hi) - log(base->lo)) / (2 * z), sn = (log(now->hi) - log(now->lo)) / (2 * z);
		double half = z * sqrt(sb * sb + sn * sn);
		*lo = exp(log(*ratio) - half);
		*hi = exp(log(*ratio) + half);
		*method = "from CIs";
	}
}

void wtg_diff_ci(const struct wtg_figure *base, const struct wtg_figure *now, uint64_t seed, double *diff,
		 double *lo, double *hi, const char **method)
{
	*diff = *lo = *hi = NAN;
	*method = "none";
	if (!base->found || !now->found)
		return;
	*diff = now->value - base->value;
	if (boot_pair(base, now, seed, true, lo, hi, method) == 0)
		return;
	/* each side's interval read as a normal one: the difference's standard error is the root of
	 * the sum of squares (independent runs) */
	if (base->hi >= base->lo && now->hi >= now->lo) {
		double z = 1.959963985;
		double sb = (base->hi - base->lo) / (2 * z), sn = (now->hi - now->lo) / (2 * z);
		double half = z * sqrt(sb * sb + sn * sn);
		*lo = *diff - half;
		*hi = *diff + half;
		*method = "from CIs";
	}
}
