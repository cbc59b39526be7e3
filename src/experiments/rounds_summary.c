/* rounds_summary.c: what a row measured in rounds says (see rounds.h): the samples its figure uses
 * (the uncontended ones when enough remain), the median and its two-level bootstrap interval over
 * the replicas, the replicas' spread, and the values, checks, series and note every throughput row
 * shares. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "rounds.h"
#include "wtg/ctx.h"
#include "wtg/modes.h"
#include "wtg/plan.h"
#include "wtg/warmup.h"

int wtg_rounds_replica(int i, int rounds)
{
	if (rounds <= 0 || i >= rounds)
		return WTG_ROUNDS_REPLICAS - 1;
	return i * WTG_ROUNDS_REPLICAS / rounds;
}

static int rounds_of(const struct wtg_rounds_result *r)
{
	return r->rounds > 0 ? r->rounds : (int)r->n;
}

/* Whether the figure leaves the contended samples out: only when they are not the row's condition
 * and at least WTG_ROUNDS_KEEP others remain. */
static bool drops_contended(const struct wtg_rounds_result *r)
{
	return !r->busy_by_design && r->ncontended > 0 && r->n - r->ncontended >= WTG_ROUNDS_KEEP;
}

/* The samples the figure uses, in time order, into use; len[j] gets how many of them replica j holds
 * (skip: a replica left out, -1 none). Returns their count. */
static size_t used_samples(const struct wtg_rounds_result *r, int skip, double *use, size_t *len)
{
	bool drop = drops_contended(r);
	size_t k = 0;
	memset(len, 0, WTG_ROUNDS_REPLICAS * sizeof *len);
	for (size_t i = 0; i < r->n; i++) {
		int j = wtg_rounds_replica((int)i, rounds_of(r));
		if ((drop && r->contended[i]) || j == skip)
			continue;
		use[k++] = r->samples[i];
		len[j]++;
	}
	return k;
}

/* The two-level interval of the k values in use over the replicas that hold any (len, in order).
 * Returns the replicas counted, or -1 out of memory. */
static int replica_ci(const double *use, const size_t *len, uint64_t seed, double *lo, double *hi)
{
	size_t nz[WTG_ROUNDS_REPLICAS];
	int nrep = 0;
	for (int j = 0; j < WTG_ROUNDS_REPLICAS; j++)
		if (len[j])
			nz[nrep++] = len[j];
	if (nrep == 0)
		return 0;
	if (wtg_bootstrap_median_ci_replicas(use, nz, (size_t)nrep, WTG_BOOTSTRAP_RESAMPLES, WTG_BOOTSTRAP_CONF,
					     seed, lo, hi) < 0)
		return -1;
	return nrep;
}

int wtg_replicas_ci(const double *v, const unsigned char *skip, size_t n, const size_t *cut, uint64_t seed,
		    double *lo, double *hi)
{
	double *use = malloc((n ? n : 1) * sizeof *use);
	if (!use)
		return -1;
	/* each replica's values, less the skipped ones */
	size_t len[WTG_ROUNDS_REPLICAS], k = 0, i = 0;
	wtg_replica_lens(n, cut, len);
	for (int j = 0; j < WTG_ROUNDS_REPLICAS; j++) {
		size_t end = i + len[j];
		for (len[j] = 0; i < end; i++)
			if (!(skip && skip[i])) {
				use[k++] = v[i];
				len[j]++;
			}
	}
	int rc = replica_ci(use, len, seed, lo, hi);
	free(use);
	return rc;
}

int wtg_rounds_used_get(const struct wtg_rounds_result *r, struct wtg_rounds_used *u)
{
	double *v = realloc(u->v, (r->n ? r->n : 1) * sizeof *v);
	if (!v)
		return -1;
	u->v = v;
	size_t len[WTG_ROUNDS_REPLICAS];
	u->n = used_samples(r, -1, v, len);
	u->nrep = 0;
	for (int j = 0; j < WTG_ROUNDS_REPLICAS; j++)
		if (len[j])
			u->len[u->nrep++] = len[j];
	return 0;
}

void wtg_rounds_used_free(struct wtg_rounds_used *u)
{
	free(u->v);
	*u = (struct wtg_rounds_used){ 0 };
}

int wtg_rounds_ratio_ci(const struct wtg_rounds_used *num, const struct wtg_rounds_used *den, uint64_t seed,
			double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (!num->n || !den->n)
		return -1;
	return wtg_bootstrap_ratio_ci_replicas(num->v, num->len, num->nrep, den->v, den->len, den->nrep, 0.5,
					       WTG_BOOTSTRAP_RESAMPLES, WTG_BOOTSTRAP_CONF, seed, lo, hi);
}

/* Each replica's median, its rounds, and the spread of the medians as a share of the figure. */
static void replica_medians(struct wtg_rounds_result *r, const double *use, const size_t *len)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t at = 0;
	int rounds = rounds_of(r);
	for (int j = 0; j < WTG_ROUNDS_REPLICAS; j++) {
		r->replica_first[j] = (j * rounds + WTG_ROUNDS_REPLICAS - 1) / WTG_ROUNDS_REPLICAS + 1;
		r->replica_last[j] = ((j + 1) * rounds + WTG_ROUNDS_REPLICAS - 1) / WTG_ROUNDS_REPLICAS;
		r->replica_median[j] = len[j] ? wtg_quantile(use + at, len[j], 0.5) : NAN;
		at += len[j];
		if (len[j]) {
			lo = fmin(lo, r->replica_median[j]);
			hi = fmax(hi, r->replica_median[j]);
		}
	}
	r->replica_spread_pct = r->replicas > 1 && r->s.median != 0 ? 100.0 * (hi - lo) / fabs(r->s.median) : 0;
}

int wtg_rounds_summarize(struct wtg_rounds_result *r, uint64_t seed)
{
	r->ncontended = 0;
	for (size_t i = 0; i < r->n; i++)
		r->ncontended += r->contended[i] != 0;
	double *use = malloc((r->n ? r->n : 1) * sizeof *use);
	size_t len[WTG_ROUNDS_REPLICAS];
	int rc = -1;
	if (!use)
		return -1;
	r->used = used_samples(r, -1, use, len);
	/* the interval is the two-level one (with one replica: the one-level bootstrap, the same draws) */
	if (wtg_summarize_resamples(use, r->used, seed, 0, &r->s) < 0)
		goto out;
	r->replicas = replica_ci(use, len, seed, &r->s.ci_low, &r->s.ci_high);
	if (r->replicas < 0)
		goto out;
	replica_medians(r, use, len);
	r->cpu_share_median = wtg_median_finite(r->cpu_share, r->n, use);
	r->sample_ms = wtg_median_finite(r->wall_ms, r->n, use);
	rc = 0;
out:
	free(use);
	return rc;
}

int wtg_rounds_warm_max(const struct wtg_options *o)
{
	return o && o->quick ? WTG_ROUNDS_WARM_MAX_QUICK : WTG_ROUNDS_WARM_MAX;
}

void wtg_rounds_plan(struct wtg_plan *p, int warmup)
{
	p->samples = WTG_ROUNDS_MIN;
	p->warmup = warmup;
	p->warm_window = WTG_ROUNDS_WARM_WINDOW;
	p->warm_max = wtg_rounds_warm_max(p->opt);
}

int wtg_rounds_values_after(struct wtg_value *v, const struct wtg_rounds_result *r)
{
	v[0] = WTG_REAL(r->s.ci_low);
	v[1] = WTG_REAL(r->s.ci_high);
	v[2] = WTG_REAL(r->s.min);
	v[3] = WTG_REAL(r->s.max);
	v[4] = WTG_INT(r->n);
	v[5] = WTG_INT(r->replicas);
	v[6] = WTG_REAL(r->replica_spread_pct);
	v[7] = WTG_INT(r->ncontended);
	v[8] = isfinite(r->cpu_share_median) ? WTG_REAL(r->cpu_share_median) : WTG_NA;
	v[9] = WTG_REAL(r->sample_ms);
	v[10] = WTG_INT(r->warmup_windows);
	return WTG_ROUNDS_NCOLS - 1;
}

int wtg_rounds_values(struct wtg_value *v, const struct wtg_rounds_result *r)
{
	v[0] = WTG_REAL(r->s.median);
	return 1 + wtg_rounds_values_after(v + 1, r);
}

/* What the machine's state did with the regimes in words: steal and MHz per value where given, else
 * over the run so far (wtg_modes_state_words). */
static void state_words(struct wtg_ctx *ctx, const struct wtg_modes *m, const double *v, const double *steal,
			const double *mhz, size_t n, const char *unit, char *buf, size_t len)
{
	struct wtg_modes_state st;
	double rs, lo, hi;
	wtg_table_watched(ctx->t, &rs, &lo, &hi);
	wtg_modes_state_of(m, v, steal, mhz, n, unit, rs, lo, hi, &st);
	wtg_modes_state_words(buf, len, &st);
}

bool wtg_regime_modes(struct wtg_ctx *ctx, const char *label, const char *unit, const double *v, size_t n,
		      const char *what, bool ok_too)
{
	return wtg_regime_modes_with(ctx, label, unit, v, NULL, NULL, n, what, ok_too);
}

bool wtg_regime_modes_with(struct wtg_ctx *ctx, const char *label, const char *unit, const double *v,
			   const double *steal, const double *mhz, size_t n, const char *what, bool ok_too)
{
	struct wtg_modes m;
	if (wtg_two_modes(v, n, &m) < 0)
		return false;
	const char *le = m.p < 0.0011 ? "<=" : m.p > 0.49 ? ">=" : "=";
	if (!m.two) {
		if (ok_too && isfinite(m.p))
			wtg_table_check(ctx->t, "regime", true,
					"%s: no two clusters of %s (Hartigan's dip test p %s %.2g over %zu; the best split "
					"%.0f%%/%.0f%%, Ashman's D %.1f)",
					label, what, le, m.p, m.n, 100 * m.share[0], 100 * m.share[1], m.ashman_d);
		return false;
	}
	char words[160], moved[256];
	wtg_modes_words(words, sizeof words, &m, unit);
	state_words(ctx, &m, v, steal, mhz, n, unit, moved, sizeof moved);
	wtg_table_warn(ctx->t, "regime",
		       "%s: %s (Hartigan's dip test p %s %.2g over %zu %s; Ashman's D %.1f): the machine "
		       "flipped between two states while measuring, and the median alone describes neither; %s",
		       label, words, le, m.p, m.n, what, m.ashman_d, moved);
	return true;
}

/* "regime": two separated clusters among the samples (wtg_regime_modes), else each replica's median
 * against the interval of the other replicas' samples. */
static void regime_check(struct wtg_ctx *ctx, const char *label, const char *unit, const struct wtg_rounds_result *r)
{
	double *use = malloc((r->n ? r->n : 1) * sizeof *use);
	if (!use)
		return;
	size_t len[WTG_ROUNDS_REPLICAS];
	size_t k = used_samples(r, -1, use, len);
	if (wtg_regime_modes(ctx, label, unit, use, k, "samples", false) || r->replicas < WTG_ROUNDS_REPLICAS) {
		/* a replica the figure does not use cannot be weighed */
		free(use);
		return;
	}
	int outside = -1;
	double lo = NAN, hi = NAN;
	for (int j = 0; j < WTG_ROUNDS_REPLICAS && outside < 0; j++) {
		used_samples(r, j, use, len);
		if (replica_ci(use, len, wtg_ctx_seed(ctx, 2000u + (unsigned)j), &lo, &hi) < 0)
			break;
		double m = r->replica_median[j];
		if (m < lo || m > hi)
			outside = j;
	}
	free(use);
	if (outside >= 0) {
		char moved[256];	/* the steal and frequency over the run: not read per replica */
		state_words(ctx, &(struct wtg_modes){ .cut = NAN }, NULL, NULL, NULL, 0, unit, moved, sizeof moved);
		wtg_table_warn(ctx->t, "regime",
			       "%s: replica %d of %d (rounds %d-%d) has the median %.4g %s, outside the other "
			       "replicas' 95%% interval [%.4g, %.4g]: the machine changed regime while measuring; %s",
			       label, outside + 1, WTG_ROUNDS_REPLICAS, r->replica_first[outside],
			       r->replica_last[outside], r->replica_median[outside], unit, lo, hi, moved);
	} else {
		char meds[160];
		wtg_fmt_list(meds, sizeof meds, r->replica_median, WTG_ROUNDS_REPLICAS, 4, true);
		wtg_table_check(ctx->t, "regime", true,
				"%s: each replica's median (%s %s) lies within the other replicas' interval; "
				"spread %.1f%%",
				label, meds, unit, r->replica_spread_pct);
	}
}

/* "contended": how many samples waited for a CPU and what the figure did with them. */
static void contended_check(struct wtg_ctx *ctx, const char *label, const struct wtg_rounds_result *r)
{
	if (r->ncontended == 0)
		return;
	if (r->busy_by_design)
		wtg_table_check(ctx->t, "contended", true,
				"%s: %zu of %zu samples waited for a CPU; this row runs more threads than CPUs (or "
				"beside burners), so contention is its condition, not noise: all of them count",
				label, r->ncontended, r->n);
	else if (drops_contended(r))
		wtg_table_check(ctx->t, "contended", true,
				"%s: %zu of %zu samples waited for a CPU (more than %.0f%% of their wall time); the "
				"figure uses the other %zu",
				label, r->ncontended, r->n, 100 * WTG_CONTENDED_WAIT_SHARE, r->used);
	else
		wtg_table_warn(ctx->t, "contended",
			       "%s: %zu of %zu samples waited for a CPU (more than %.0f%% of their wall time) and "
			       "fewer than %d others remain: the figure uses all of them and counts time the "
			       "thread sat descheduled (a busy machine)",
			       label, r->ncontended, r->n, 100 * WTG_CONTENDED_WAIT_SHARE, WTG_ROUNDS_KEEP);
}

void wtg_rounds_checks(struct wtg_ctx *ctx, const char *label, const char *unit,
		       const struct wtg_rounds_result *r)
{
	const struct wtg_summary *s = &r->s;
	bool ordered = s->min <= s->ci_low && s->ci_low <= s->median && s->median <= s->ci_high &&
		       s->ci_high <= s->max;
	wtg_table_check(ctx->t, "ci", ordered,
			"%s: %zu samples, min %.4g <= CI [%.4g, %.4g] around the median %.4g <= max %.4g %s",
			label, r->used, s->min, s->ci_low, s->ci_high, s->median, s->max, unit);
	double half = (s->ci_high - s->ci_low) / 2;
	double moved = fabs(s->second_half_median - s->first_half_median);
	if (moved > half)
		wtg_table_warn(ctx->t, "drift",
			       "%s: the median moved from %.4g to %.4g %s between the halves of the run, "
			       "more than the CI's half-width %.4g",
			       label, s->first_half_median, s->second_half_median, unit, half);
	else
		wtg_table_check(ctx->t, "drift", true,
				"%s: halves' medians %.4g and %.4g %s, within the CI's half-width %.4g", label,
				s->first_half_median, s->second_half_median, unit, half);
	regime_check(ctx, label, unit, r);
	contended_check(ctx, label, r);
	if (r->contended)
		wtg_rounds_add_series(ctx, label, unit, r);
}

void wtg_replica_lens(size_t n, const size_t *cut, size_t *len)
{
	size_t from = 0;
	for (int j = 0; j < WTG_ROUNDS_REPLICAS; j++) {
		size_t to = j < WTG_ROUNDS_REPLICAS - 1 ? cut[j] : n;
		to = to < from ? from : to > n ? n : to;
		len[j] = to - from;
		from = to;
	}
}

void wtg_series_replicas_cut(struct wtg_ctx *ctx, const char *name, size_t n, const size_t *cut)
{
	size_t len[WTG_ROUNDS_REPLICAS];
	wtg_replica_lens(n, cut, len);
	wtg_table_series_replicas(ctx->t, name, len, WTG_ROUNDS_REPLICAS);
}

void wtg_rounds_add_series(struct wtg_ctx *ctx, const char *label, const char *unit,
			   const struct wtg_rounds_result *r)
{
	wtg_table_add_series(ctx->t, label, unit, r->samples, r->n);
	size_t len[WTG_ROUNDS_REPLICAS] = { 0 };
	for (size_t i = 0; i < r->n; i++)
		len[wtg_rounds_replica((int)i, rounds_of(r))]++;
	wtg_table_series_replicas(ctx->t, label, len, WTG_ROUNDS_REPLICAS);
	double *flag = malloc((r->n ? r->n : 1) * sizeof *flag);
	if (!flag)
		return;
	for (size_t i = 0; i < r->n; i++)
		flag[i] = r->contended[i] ? 1 : 0;
	char name[128];
	snprintf(name, sizeof name, "%s contended", label);
	wtg_table_add_series(ctx->t, name, "flag", flag, r->n);
	free(flag);
}

/* The shortest and longest row's median sample span, and the rows with contended samples. */
static void spans(const struct wtg_rounds *r, double *lo, double *hi, int *busy)
{
	*lo = INFINITY;
	*hi = 0;
	*busy = 0;
	for (int v = 0; v < r->nvariants; v++) {
		*lo = fmin(*lo, r->v[v].sample_ms);
		*hi = fmax(*hi, r->v[v].sample_ms);
		*busy += r->v[v].ncontended > 0;
	}
}

/* The warm-up rule and what it did this run. */
static void warm_note(struct wtg_ctx *ctx, const struct wtg_rounds *r, int warmup)
{
	wtg_table_note(ctx->t,
		       "warm-up (a rule fixed before measuring): %d unreported sample%s of every row, in order, "
		       "then windows of %d samples of one row (%s) until the medians of %d "
		       "consecutive windows lie within %.0f%% of each other (largest / smallest - 1 <= %.0f%%), "
		       "or %d windows: here %s after %d window%s (every window's median kept: JSON warmup; "
		       "column warmup_windows)",
		       warmup, warmup == 1 ? "" : "s", WTG_ROUNDS_WARM_WINDOW, r->warm_row, WTG_WARMUP_STABLE,
		       100 * WTG_WARMUP_TOLERANCE, 100 * WTG_WARMUP_TOLERANCE, r->warm_max,
		       r->warm_met ? "the rule was met" : "the maximum was reached", r->warm_windows,
		       r->warm_windows == 1 ? "" : "s");
}

/* "an interleaved run: ... after N of the replicas, each time followed by AGAIN, so the replicas began
 * a, b, ... s into the run", when other experiments measured between them. */
static void interleaved_note(struct wtg_ctx *ctx, const char *again, int interleaved, const double *start_s)
{
	if (interleaved <= 0)
		return;
	char starts[160];
	wtg_fmt_list(starts, sizeof starts, start_s, WTG_ROUNDS_REPLICAS, 1, false);
	wtg_table_note(ctx->t,
		       "an interleaved run: the run's other experiments measured after %d of the replicas, "
		       "each time followed by %s, so the replicas began %s s into the run and see the machine "
		       "at different times",
		       interleaved, again, starts);
}

void wtg_replicas_notes(struct wtg_ctx *ctx, const char *replicas, const char *again, int interleaved,
			const double *start_s)
{
	wtg_table_note(ctx->t,
		       "the median's CI: a two-level bootstrap (%d resamples of the %d replicas, %s, then of "
		       "the batches within each), so the spread between replicas widens it",
		       WTG_BOOTSTRAP_RESAMPLES, WTG_ROUNDS_REPLICAS, replicas);
	interleaved_note(ctx, again, interleaved, start_s);
}

void wtg_rounds_note(struct wtg_ctx *ctx, const struct wtg_rounds *r, int warmup)
{
	wtg_table_note(ctx->t,
		       "each row: %d timed samples after %d unreported warm-up sample%s per variant and the "
		       "warm-up windows (fixed before measuring), the %d variants in seeded random order in every round; the rounds "
		       "form %d replicas (blocks of consecutive rounds, every other row measured between "
		       "them); the figure is the median, with min, max and a two-level bootstrap 95%% CI "
		       "(%d resamples of the replicas, then of the samples within each), so the interval "
		       "holds the spread between replicas as well as within one",
		       r->rounds, warmup, warmup == 1 ? "" : "s", r->nvariants, WTG_ROUNDS_REPLICAS,
		       WTG_BOOTSTRAP_RESAMPLES);
	char again[256];
	if (r->self_warming)
		snprintf(again, sizeof again, "its next round at once (no warm-up again: %s)", r->self_warming);
	else if (r->return_pass)
		snprintf(again, sizeof again, "a warm-up again, %s", r->return_pass);
	else
		wtg_strlcpy(again, warmup > 1 ? "one warm-up sample of every variant again" : "the warm-up again",
			    sizeof again);
	interleaved_note(ctx, again, r->interleaved, r->replica_start_s);
	double lo, hi;
	int busy;
	spans(r, &lo, &hi, &busy);
	wtg_table_note(ctx->t,
		       "a sample is contended when its thread waited runnable for a CPU more than %.0f%% of "
		       "its wall time (schedstat's run-queue wait before and after); a row's figure leaves "
		       "its contended samples out when at least %d others remain (the series keep them "
		       "all); %d of %d rows had contended samples; a row's samples spanned %.3g to %.3g ms "
		       "(medians)%s",
		       100 * WTG_CONTENDED_WAIT_SHARE, WTG_ROUNDS_KEEP, busy, r->nvariants, lo, hi,
		       lo < WTG_SAMPLE_MIN_MS ? ", some shorter than a 5 ms time slice" : "");
	warm_note(ctx, r, warmup);
}
