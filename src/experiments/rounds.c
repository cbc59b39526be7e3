/* rounds.c: the rounds engine (see rounds.h): warm-up, seeded random order per round, per-variant
 * summaries, and the values and checks every throughput row shares. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

int wtg_rounds_steps(int nvariants, int rounds, int warmup)
{
	if (rounds < WTG_ROUNDS_MIN)
		rounds = WTG_ROUNDS_MIN;
	return nvariants * (rounds + (warmup > 0 ? warmup : 0));
}

struct rounds_run {
	struct wtg_ctx *ctx;
	const struct wtg_rounds_spec *spec;
	int step, nsteps;
	int first_row;		/* the table row of variant 0 */
	int restarts;		/* times a condition change started the rounds again */
};

/* Progress, a cancel check, then one sample of variant v. */
static int one_sample(struct rounds_run *rr, int v, int round, int rounds, struct wtg_rounds_sample *out)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	char name[64], label[96];
	if (sp->label)
		sp->label(sp->arg, v, name, sizeof name);
	else
		snprintf(name, sizeof name, "variant %d", v + 1);
	if (round < 0)
		snprintf(label, sizeof label, "warm-up: %s", name);
	else
		snprintf(label, sizeof label, "round %d/%d: %s", round + 1, rounds, name);
	wtg_ctx_progress(rr->ctx, sp->first_step + rr->step++, rr->nsteps, label);
	if (wtg_ctx_cancelled(rr->ctx))
		return WTG_CANCELLED;
	memset(out, 0, sizeof *out);
	return sp->sample(rr->ctx, sp->arg, v, round, out);
}

/* After a round: every variant's summary so far, then its row added (first round, in variant
 * order) or replaced. Returns WTG_OK or WTG_ERR (out of memory). */
static int publish(struct rounds_run *rr, struct wtg_rounds *out, bool first)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	for (int v = 0; v < out->nvariants; v++) {
		struct wtg_rounds_result *res = &out->v[v];
		if (wtg_summarize(res->samples, res->n, wtg_ctx_seed(rr->ctx, 1000u + (unsigned)v), &res->s) < 0) {
			wtg_table_fail(rr->ctx->t, "out of memory summarizing %zu samples", res->n);
			return WTG_ERR;
		}
		if (!sp->row)
			continue;
		struct wtg_value vals[WTG_MAX_COLS];
		int n = sp->row(rr->ctx, sp->arg, v, res, vals);
		if (first) {
			if (v == 0)
				rr->first_row = rr->ctx->t->nrows;
			wtg_table_add_row(rr->ctx->t, vals, n, &res->probe);
		} else {
			wtg_table_set_row(rr->ctx->t, rr->first_row + v, vals, n, &res->probe);
		}
	}
	return WTG_OK;
}

#define MAX_RESTARTS 4	/* condition changes that start the rounds again; later ones are noted */

/* A key changed the conditions during the rounds (burners, policy, uncached I/O): every sample so far
 * is dropped and the rounds start again, so all of a row's samples share one condition. After
 * MAX_RESTARTS the rounds go on and a note says the rows mix conditions. Returns true to restart. */
static bool conditions_moved(struct rounds_run *rr, struct wtg_rounds *out, struct wtg_cond_snapshot *ref, int r)
{
	struct wtg_cond_snapshot now;
	wtg_cond_snapshot(&now, rr->ctx->df);
	if (wtg_cond_same(&now, ref))
		return false;
	*ref = now;
	if (rr->restarts >= MAX_RESTARTS) {
		if (rr->restarts++ == MAX_RESTARTS)
			wtg_table_warn(rr->ctx->t, "conditions",
				       "the conditions changed again in round %d: the rows mix samples taken under "
				       "different conditions",
				       r + 1);
		return false;
	}
	rr->restarts++;
	size_t dropped = 0;
	for (int v = 0; v < out->nvariants; v++) {
		dropped += out->v[v].n;
		out->v[v].n = 0;
	}
	wtg_table_note(rr->ctx->t,
		       "the conditions changed in round %d of %d: the %zu samples taken so far were dropped and "
		       "the rounds started again, so every sample of a row shares one condition",
		       r + 1, out->rounds, dropped);
	rr->step = rr->spec->warmup * out->nvariants;
	if (rr->spec->restart)
		rr->spec->restart(rr->spec->arg);
	return true;
}

/* The warm-up samples and the timed rounds; fills out->v[*].samples, probes and summaries. */
static int measure(struct rounds_run *rr, struct wtg_rounds *out, int *order)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	struct wtg_rounds_sample smp;
	for (int w = 0; w < sp->warmup; w++)
		for (int v = 0; v < sp->nvariants; v++) {
			int rc = one_sample(rr, v, -1, out->rounds, &smp);
			if (rc != WTG_OK)
				return rc;
		}
	struct wtg_cond_snapshot ref;
	wtg_cond_snapshot(&ref, rr->ctx->df);
	bool published = false;
	for (int r = 0; r < out->rounds; r++) {
		for (int v = 0; v < sp->nvariants; v++)
			order[v] = v;
		wtg_shuffle_int(&rr->ctx->rng, order, (size_t)sp->nvariants);
		for (int k = 0; k < sp->nvariants; k++) {
			struct wtg_rounds_result *res = &out->v[order[k]];
			int rc = one_sample(rr, order[k], r, out->rounds, &smp);
			if (rc != WTG_OK)
				return rc;
			res->samples[res->n++] = smp.figure;
			if (res->n == 1)
				res->probe = smp.res;
			else
				wtg_probe_accumulate(&res->probe, &smp.res);
		}
		if (conditions_moved(rr, out, &ref, r)) {
			r = -1;		/* round 1 again, under the new conditions */
			continue;
		}
		int rc = publish(rr, out, !published);
		if (rc != WTG_OK)
			return rc;
		published = true;
	}
	return WTG_OK;
}

int wtg_rounds_run(struct wtg_ctx *ctx, const struct wtg_rounds_spec *spec, struct wtg_rounds *out)
{
	memset(out, 0, sizeof *out);
	if (spec->nvariants < 1 || !spec->sample) {
		wtg_table_fail(ctx->t, "nothing to measure");
		return WTG_ERR;
	}
	out->nvariants = spec->nvariants;
	out->rounds = spec->rounds < WTG_ROUNDS_MIN ? WTG_ROUNDS_MIN : spec->rounds;
	out->v = calloc((size_t)spec->nvariants, sizeof *out->v);
	int *order = malloc((size_t)spec->nvariants * sizeof *order);
	bool ok = out->v && order;
	for (int v = 0; ok && v < spec->nvariants; v++)
		ok = (out->v[v].samples = malloc((size_t)out->rounds * sizeof(double))) != NULL;
	if (!ok) {
		free(order);
		wtg_rounds_free(out);
		wtg_table_fail(ctx->t, "out of memory for %d x %d samples", spec->nvariants, spec->rounds);
		return WTG_ERR;
	}
	struct rounds_run rr = {
		.ctx = ctx,
		.spec = spec,
		.nsteps = spec->nsteps ? spec->nsteps
				       : wtg_rounds_steps(spec->nvariants, out->rounds, spec->warmup),
	};
	int rc = measure(&rr, out, order);
	free(order);
	if (rc != WTG_OK)
		wtg_rounds_free(out);
	return rc;
}

void wtg_rounds_free(struct wtg_rounds *r)
{
	if (r->v)
		for (int v = 0; v < r->nvariants; v++)
			free(r->v[v].samples);
	free(r->v);
	r->v = NULL;
	r->nvariants = 0;
}

int wtg_rounds_values_after(struct wtg_value *v, const struct wtg_rounds_result *r)
{
	v[0] = WTG_REAL(r->s.ci_low);
	v[1] = WTG_REAL(r->s.ci_high);
	v[2] = WTG_REAL(r->s.min);
	v[3] = WTG_REAL(r->s.max);
	v[4] = WTG_INT(r->n);
	return WTG_ROUNDS_NCOLS - 1;
}

int wtg_rounds_values(struct wtg_value *v, const struct wtg_rounds_result *r)
{
	v[0] = WTG_REAL(r->s.median);
	return 1 + wtg_rounds_values_after(v + 1, r);
}

void wtg_rounds_checks(struct wtg_ctx *ctx, const char *label, const char *unit,
		       const struct wtg_rounds_result *r)
{
	const struct wtg_summary *s = &r->s;
	bool ordered = s->min <= s->ci_low && s->ci_low <= s->median && s->median <= s->ci_high &&
		       s->ci_high <= s->max;
	wtg_table_check(ctx->t, "ci", ordered,
			"%s: %zu samples, min %.4g <= CI [%.4g, %.4g] around the median %.4g <= max %.4g %s",
			label, r->n, s->min, s->ci_low, s->ci_high, s->median, s->max, unit);
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
}

void wtg_rounds_add_series(struct wtg_ctx *ctx, const char *label, const char *unit,
			   const struct wtg_rounds_result *r)
{
	wtg_table_add_series(ctx->t, label, unit, r->samples, r->n);
}

void wtg_rounds_note(struct wtg_ctx *ctx, const struct wtg_rounds *r, int warmup)
{
	wtg_table_note(ctx->t,
		       "each row: %d timed samples after %d unreported warm-up sample%s per variant (fixed "
		       "before measuring), the %d variants in seeded random order in every round; the "
		       "figure is the median, with its bootstrap 95%% CI (%d resamples), min and max",
		       r->rounds, warmup, warmup == 1 ? "" : "s", r->nvariants, WTG_BOOTSTRAP_RESAMPLES);
}
