/* rounds.c: the rounds engine (see rounds.h): warm-up, seeded random order per round, every sample's
 * contention recorded, per-variant summaries published as rows (rounds_summary.c summarizes and
 * holds the values, checks and notes every throughput row shares). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "wtg/paired.h"
#include "wtg/warmup.h"

int wtg_rounds_steps(const struct wtg_options *o, int nvariants, int rounds, int warmup)
{
	if (rounds < WTG_ROUNDS_MIN)
		rounds = WTG_ROUNDS_MIN;
	return nvariants * (rounds + (warmup > 0 ? warmup : 0)) + WTG_ROUNDS_WARM_WINDOW * wtg_rounds_warm_max(o);
}

uint64_t wtg_rounds_sample_bytes(uint64_t bytes, double wall_ms, uint64_t unit, uint64_t cap)
{
	/* a warm-up runs colder than the rounds, so a sample sized to just 5 ms at its rate ran 4.7 ms
	 * in the rounds: only a warm-up of 1.5 times the minimum keeps its size */
	if (wall_ms >= 1.5 * WTG_SAMPLE_MIN_MS || bytes == 0 || unit == 0)
		return bytes;
	double want = (double)bytes * 1.5 * WTG_SAMPLE_MIN_MS / (wall_ms > 1e-6 ? wall_ms : 1e-6);
	if (want > (double)cap)
		want = (double)cap;
	uint64_t units = (uint64_t)ceil(want / (double)unit);
	uint64_t out = units * unit;
	if (out > cap)
		out = cap / unit * unit;
	return out > bytes ? out : bytes;
}

double wtg_rounds_warmup_ms(const struct wtg_probe_result *res)
{
	double ms = res->wall_ms;
	if (res->threads <= 1 && res->runwait_ms > 0 && res->runwait_ms < ms)
		ms -= res->runwait_ms;
	return ms;
}

struct rounds_run {
	struct wtg_ctx *ctx;
	const struct wtg_rounds_spec *spec;
	int step, nsteps;
	int first_row;		/* the table row of variant 0 */
	int restarts;		/* times a condition change started the rounds again */
	int cpus;		/* online CPUs: a sample of more threads oversubscribes them */
	int window;		/* the warm-up window under way (1-based), 0 outside them */
	/* spec->declare_work: ns the samples took, and per variant its last sample's ns (0: none yet)
	 * and the samples still to take; a warm-up again after the others' turns was not planned */
	double done_ns, *cost;
	int *left;
	bool unplanned;
};

/* The samples still to take of each variant at the start: its sizing samples, the pilot's windows'
 * most, the rounds. */
static void plan_left(struct rounds_run *rr, int rounds)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	int pilot = sp->pilot >= 0 && sp->pilot < sp->nvariants ? sp->pilot : 0;
	for (int v = 0; v < sp->nvariants; v++)
		rr->left[v] = (sp->warmup > 0 ? sp->warmup : 0) * (sp->arg_b && rr->ctx->arms ? 2 : 1) + rounds;
	if (!sp->no_windows)
		rr->left[pilot] += WTG_ROUNDS_WARM_WINDOW * wtg_rounds_warm_max(rr->ctx->opt);
}

/* Sample of variant v done in ns: the work so far and the rest at each variant's cost. */
static void work_done(struct rounds_run *rr, int v, double ns)
{
	if (!rr->cost)
		return;
	rr->done_ns += ns;
	rr->cost[v] = ns > 0 ? ns : 1;
	if (!rr->unplanned && rr->left[v] > 0)
		rr->left[v]--;
	double known = 0, rest = 0;
	int nknown = 0;
	for (int k = 0; k < rr->spec->nvariants; k++)
		if (rr->cost[k] > 0) {
			known += rr->cost[k];
			nknown++;
		}
	for (int k = 0; k < rr->spec->nvariants; k++)
		rest += rr->left[k] * (rr->cost[k] > 0 ? rr->cost[k] : known / nknown);
	wtg_ctx_work(rr->ctx, rr->done_ns, rr->done_ns + rest);
}

/* The state a sample or row of arm uses: arm B's own where the spec gives one. */
static void *arg_of(const struct rounds_run *rr, int arm)
{
	return arm && rr->spec->arg_b && rr->ctx->arms ? rr->spec->arg_b : rr->spec->arg;
}

/* Progress, a cancel check, then one sample of variant v (round -1: a warm-up sample; rr->window > 0:
 * one of that warm-up window's). */
static int one_sample(struct rounds_run *rr, int v, int round, int rounds, struct wtg_rounds_sample *out)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	char name[64], label[128];
	if (sp->label)
		sp->label(sp->arg, v, name, sizeof name);
	else
		snprintf(name, sizeof name, "variant %d", v + 1);
	if (round < 0 && rr->window > 0)
		snprintf(label, sizeof label, "warm-up: %s (window %d of at most %d)", name, rr->window,
			 wtg_rounds_warm_max(rr->ctx->opt));
	else if (round < 0)
		snprintf(label, sizeof label, "warm-up: %s", name);
	else
		snprintf(label, sizeof label, "round %d/%d: %s", round + 1, rounds, name);
	wtg_ctx_progress(rr->ctx, sp->first_step + rr->step++, rr->nsteps, label);
	if (wtg_ctx_cancelled(rr->ctx))
		return WTG_CANCELLED;
	memset(out, 0, sizeof *out);
	int64_t t0 = wtg_now_ns();
	int rc = sp->sample(rr->ctx, arg_of(rr, rr->ctx->arms ? rr->ctx->arms->arm : 0), v, round, out);
	if (rc == WTG_OK)
		work_done(rr, v, (double)(wtg_now_ns() - t0));
	return rc;
}

/* The figure so far while no row exists: a warm-up sample's or window's, named as such. */
static void so_far(struct rounds_run *rr, int v, double figure, const char *what)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	char name[64];
	if (sp->label)
		sp->label(sp->arg, v, name, sizeof name);
	else
		snprintf(name, sizeof name, "variant %d", v + 1);
	const char *unit = sp->unit ? sp->unit : "";
	if (isfinite(figure))
		wtg_table_sofar(rr->ctx->t, figure >= 1000 ? "%s %.0f%s%s (%s)" : "%s %.3g%s%s (%s)", name, figure,
				unit[0] ? " " : "", unit, what);
}

/* The summaries and rows of one arm's variants (0 A, 1 B; the only one unpaired). */
static int publish_arm(struct rounds_run *rr, struct wtg_rounds *out, bool first, int arm)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	for (int v = 0; v < out->nvariants; v++) {
		struct wtg_rounds_result *res = arm ? &out->b[v] : &out->v[v];
		if (wtg_rounds_summarize(res, wtg_ctx_seed(rr->ctx, 1000u + (unsigned)v)) < 0) {
			wtg_table_fail(rr->ctx->t, "out of memory summarizing %zu samples", res->n);
			return WTG_ERR;
		}
		if (!sp->row) {	/* rows come at the end: the median so far stands in */
			char what[48];
			snprintf(what, sizeof what, "median of %zu samples so far", res->n);
			if (arm == 0)
				so_far(rr, v, res->s.median, what);
			continue;
		}
		struct wtg_value vals[WTG_MAX_COLS];
		int n = sp->row(rr->ctx, arg_of(rr, arm), v, res, vals);
		if (out->b)
			n = wtg_arms_tag(rr->ctx, vals, n, arm);
		if (first) {
			if (v == 0 && arm == 0)
				rr->first_row = rr->ctx->t->nrows;
			wtg_table_add_row(rr->ctx->t, vals, n, &res->probe);
		} else {
			wtg_table_set_row(rr->ctx->t, rr->first_row + arm * out->nvariants + v, vals, n,
					  &res->probe);
		}
	}
	return WTG_OK;
}

/* After a round: every variant's summary so far, then its row added (first round, in variant
 * order; a paired run's arm A rows, then arm B's) or replaced. The last time (last) a paired run
 * replaces each arm's rows while that arm is in force, so a row's conditions are its arm's.
 * Returns WTG_OK, WTG_CANCELLED or WTG_ERR (out of memory). */
static int publish(struct rounds_run *rr, struct wtg_rounds *out, bool first, bool last)
{
	if (!out->b)
		return publish_arm(rr, out, first, 0);
	if (!last || first) {
		int rc = publish_arm(rr, out, first, 0);
		return rc == WTG_OK ? publish_arm(rr, out, first, 1) : rc;
	}
	int now = rr->ctx->arms->arm, rc = publish_arm(rr, out, false, now);
	if (rc == WTG_OK)
		rc = wtg_arms_enter(rr->ctx, !now);
	return rc == WTG_OK ? publish_arm(rr, out, false, !now) : rc;
}

/* Whether someone watches the rows grow (the dashboard): then every round is published; a headless
 * run publishes its first round (the rows) and its last only, or the samples so far when it is
 * cancelled, since a summary's two bootstraps cost as much as several samples and nobody sees the
 * rounds between (0.47 s of a --quick catalogue went to summaries at every replica's end). */
static bool watched(const struct rounds_run *rr)
{
	return !rr->ctx->opt || rr->ctx->opt->mode != WTG_MODE_RUN;
}

/* The steps of the warm-up: the sizing samples and the windows' most. */
static int warm_steps(const struct rounds_run *rr, int nvariants)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	return (sp->warmup > 0 ? sp->warmup : 0) * nvariants +
	       (sp->no_windows ? 0 : WTG_ROUNDS_WARM_WINDOW * wtg_rounds_warm_max(rr->ctx->opt));
}

#define MAX_RESTARTS 4	/* condition changes that start the rounds again; later ones are noted */

/* A key changed the conditions during the rounds (burners, policy, uncached I/O): every sample so far
 * is dropped and the rounds start again, so all of a row's samples share one condition. After
 * MAX_RESTARTS the rounds go on and a note says the rows mix conditions. Returns true to restart. */
static bool conditions_moved(struct rounds_run *rr, struct wtg_rounds *out, struct wtg_cond_snapshot *ref, int r)
{
	if (out->b)
		return false;	/* paired: the arms change them by design */
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
		if (rr->left)
			rr->left[v] += (int)out->v[v].n;
		out->v[v].n = 0;
		out->v[v].busy_by_design = now.burners > 0;
	}
	wtg_table_note(rr->ctx->t,
		       "the conditions changed in round %d of %d: the %zu samples taken so far were dropped and "
		       "the rounds started again, so every sample of a row shares one condition",
		       r + 1, out->rounds, dropped);
	rr->step = warm_steps(rr, out->nvariants);
	if (rr->spec->restart)
		rr->spec->restart(rr->spec->arg);
	return true;
}

/* Keep sample smp of res: its figure, whether it waited for a CPU, its on-CPU share and span. */
static void keep(struct rounds_run *rr, struct wtg_rounds_result *res, const struct wtg_rounds_sample *smp)
{
	size_t i = res->n++;
	res->samples[i] = smp->figure;
	res->contended[i] = wtg_probe_contended(&smp->res);
	res->cpu_share[i] = wtg_probe_cpu_share(&smp->res);
	res->wall_ms[i] = smp->res.wall_ms;
	if (smp->res.threads > rr->cpus)
		res->busy_by_design = true;	/* more threads than CPUs: contention is the condition */
	if (i == 0)
		res->probe = smp->res;
	else
		wtg_probe_accumulate(&res->probe, &smp->res);
}

/* The unreported warm-up samples: spec->warmup of each variant at the start; one of each again
 * after the others' turn (round WTG_ROUND_RETURN: the caches refilled; the first warm-up's extra
 * samples only sized the samples, which stay as they were). */
static int warm_up(struct rounds_run *rr, struct wtg_rounds *out, int round)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	struct wtg_rounds_sample smp;
	const int passes = round == WTG_ROUND_WARMUP ? sp->warmup : 1;
	for (int w = 0; w < passes; w++)
		for (int v = 0; v < sp->nvariants; v++) {
			int rc = one_sample(rr, v, round, out->rounds, &smp);
			if (rc != WTG_OK)
				return rc;
			if (round == WTG_ROUND_WARMUP && !(rr->ctx->arms && rr->ctx->arms->arm))
				so_far(rr, v, smp.figure, "warm-up");
		}
	return WTG_OK;
}

/* After round r: when it ended a replica, an interleaved run's other experiments take their turns
 * (wtg_ctx_interleave); if they did, the warm-up runs again (unreported, its steps not counted: they
 * may have left the caches and the page cache otherwise) before the next replica. */
static int replica_ended(struct rounds_run *rr, struct wtg_rounds *out, int r)
{
	if (r + 1 >= out->rounds || wtg_rounds_replica(r, out->rounds) == wtg_rounds_replica(r + 1, out->rounds))
		return WTG_OK;
	int j = wtg_rounds_replica(r + 1, out->rounds);
	const struct wtg_rounds_spec *sp = rr->spec;
	bool away = sp->away && rr->ctx->relay;
	if (away)
		sp->away(sp->arg, false);
	bool others = wtg_ctx_interleave(rr->ctx);
	if (j < WTG_ROUNDS_REPLICAS)
		out->replica_start_s[j] = wtg_ctx_run_offset_s(rr->ctx);
	if (away) {
		int rc = sp->away(sp->arg, true);
		if (rc != WTG_OK)
			return rc;
	}
	if (!others)
		return WTG_OK;
	out->interleaved++;
	if (sp->self_warming)
		return WTG_OK;
	int step = rr->step;
	rr->unplanned = true;
	int rc = warm_up(rr, out, WTG_ROUND_RETURN);
	rr->unplanned = false;
	rr->step = step;
	return rc;
}

/* The warm-up windows (wtg/warmup.h): WTG_ROUNDS_WARM_WINDOW samples of the pilot variant each, until
 * the rule is met or out->warm_max ran; every window's median kept in out and the table. */
static int warm_windows(struct rounds_run *rr, struct wtg_rounds *out)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	int pilot = sp->pilot >= 0 && sp->pilot < sp->nvariants ? sp->pilot : 0;
	if (sp->no_windows)
		return WTG_OK;
	enum wtg_warmup_state state = WTG_WARMUP_GOING;
	while (state == WTG_WARMUP_GOING) {
		double fig[WTG_ROUNDS_WARM_WINDOW];
		rr->window = out->warm_windows + 1;
		for (int k = 0; k < WTG_ROUNDS_WARM_WINDOW; k++) {
			struct wtg_rounds_sample smp;
			int rc = one_sample(rr, pilot, WTG_ROUND_REWARM, out->rounds, &smp);
			if (rc != WTG_OK)
				return rc;
			fig[k] = smp.figure;
		}
		out->warm_median[out->warm_windows++] = wtg_quantile(fig, WTG_ROUNDS_WARM_WINDOW, 0.5);
		so_far(rr, pilot, out->warm_median[out->warm_windows - 1], "warm-up window median");
		state = wtg_warmup_decide(out->warm_median, (size_t)out->warm_windows, (size_t)out->warm_max);
	}
	rr->window = 0;
	rr->step = warm_steps(rr, out->nvariants);	/* the windows not needed are skipped */
	if (rr->left)
		rr->left[pilot] -= (out->warm_max - out->warm_windows) * WTG_ROUNDS_WARM_WINDOW;
	out->warm_met = state == WTG_WARMUP_MET;
	for (int v = 0; v < out->nvariants; v++)
		out->v[v].warmup_windows = out->warm_windows;
	char *name = out->warm_row, window[96];
	if (sp->label)
		sp->label(sp->arg, pilot, name, sizeof out->warm_row);
	else
		snprintf(name, sizeof out->warm_row, "variant %d", pilot + 1);
	snprintf(window, sizeof window, "%d samples of %s", WTG_ROUNDS_WARM_WINDOW, name);
	wtg_table_add_warmup(rr->ctx->t, name, sp->unit, window, out->warm_max, out->warm_median,
			     (size_t)out->warm_windows, out->warm_met);
	return WTG_OK;
}

/* The warm-up samples and the timed rounds; fills out->v[*].samples, probes and summaries. */
static int measure(struct rounds_run *rr, struct wtg_rounds *out, int *order)
{
	const struct wtg_rounds_spec *sp = rr->spec;
	struct wtg_rounds_sample smp;
	int rc = warm_up(rr, out, WTG_ROUND_WARMUP);
	if (rc == WTG_OK)
		rc = warm_windows(rr, out);
	/* arm B's own sizing samples, under its condition (the windows ran once, in arm A) */
	if (rc == WTG_OK && out->b && sp->arg_b && (rc = wtg_arms_enter(rr->ctx, 1)) == WTG_OK)
		rc = warm_up(rr, out, WTG_ROUND_WARMUP);
	if (rc != WTG_OK)
		return rc;
	out->replica_start_s[0] = wtg_ctx_run_offset_s(rr->ctx);
	struct wtg_cond_snapshot ref;
	wtg_cond_snapshot(&ref, rr->ctx->df);
	for (int v = 0; v < sp->nvariants; v++) {
		out->v[v].busy_by_design = ref.burners > 0;	/* burners: contention is the condition */
		if (out->b)
			out->b[v].busy_by_design = ref.burners > 0 || rr->ctx->arms->vs.cond == WTG_VS_BURN;
	}
	bool published = false;
	for (int r = 0; r < out->rounds; r++) {
		/* a paired run: each arm in turn, in the order drawn for this round */
		bool b_first = out->b && wtg_arms_b_first(rr->ctx, r);
		for (int pass = 0; pass < (out->b ? 2 : 1); pass++) {
			int arm = out->b && (pass == 0) == b_first;
			struct wtg_rounds_result *res = arm ? out->b : out->v;
			if (out->b && (rc = wtg_arms_enter(rr->ctx, arm)) != WTG_OK)
				return rc;
			for (int v = 0; v < sp->nvariants; v++)
				order[v] = v;
			wtg_shuffle_int(&rr->ctx->rng, order, (size_t)sp->nvariants);
			for (int k = 0; k < sp->nvariants; k++) {
				rc = one_sample(rr, order[k], r, out->rounds, &smp);
				if (rc == WTG_CANCELLED && published && !watched(rr))
					(void)publish(rr, out, false, false);	/* the rows as measured so far */
				if (rc != WTG_OK)
					return rc;
				keep(rr, &res[order[k]], &smp);
			}
		}
		if (conditions_moved(rr, out, &ref, r)) {
			r = -1;		/* round 1 again, under the new conditions */
			continue;
		}
		if (!published || watched(rr) || r + 1 >= out->rounds) {
			rc = publish(rr, out, !published, r + 1 >= out->rounds);
			if (rc != WTG_OK)
				return rc;
			published = true;
		}
		rc = replica_ended(rr, out, r);
		if (rc != WTG_OK)
			return rc;
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
	out->self_warming = spec->self_warming;
	out->return_pass = spec->return_pass;
	out->warm_max = wtg_rounds_warm_max(ctx->opt);
	out->rounds = spec->rounds < WTG_ROUNDS_MIN ? WTG_ROUNDS_MIN : spec->rounds;
	out->v = calloc((size_t)spec->nvariants, sizeof *out->v);
	int *order = malloc((size_t)spec->nvariants * sizeof *order);
	bool ok = out->v && order;
	size_t nr = (size_t)out->rounds;
	const int arms = ctx->arms ? 2 : 1;
	if (ok && ctx->arms) {
		out->b = calloc((size_t)spec->nvariants, sizeof *out->b);
		ok = out->b != NULL;
	}
	for (int v = 0; ok && v < spec->nvariants * arms; v++) {
		struct wtg_rounds_result *res = v < spec->nvariants ? &out->v[v] : &out->b[v - spec->nvariants];
		res->rounds = out->rounds;
		res->samples = malloc(nr * sizeof(double));
		res->contended = malloc(nr);
		res->cpu_share = malloc(nr * sizeof(double));
		res->wall_ms = malloc(nr * sizeof(double));
		ok = res->samples && res->contended && res->cpu_share && res->wall_ms;
	}
	if (!ok) {
		free(order);
		wtg_rounds_free(out);
		wtg_table_fail(ctx->t, "out of memory for %d x %d samples", spec->nvariants, spec->rounds);
		return WTG_ERR;
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct rounds_run rr = {
		.ctx = ctx,
		.spec = spec,
		.cpus = cpus > 0 ? (int)cpus : 1,
		.nsteps = spec->nsteps ? spec->nsteps
				       : wtg_rounds_steps(ctx->opt, spec->nvariants, out->rounds * arms, spec->warmup) +
						 (ctx->arms && spec->arg_b ? spec->nvariants * spec->warmup : 0),
	};
	if (spec->declare_work) {
		rr.cost = calloc((size_t)spec->nvariants, sizeof *rr.cost);
		rr.left = calloc((size_t)spec->nvariants, sizeof *rr.left);
		if (rr.cost && rr.left) {
			plan_left(&rr, out->rounds * arms);
		} else {	/* no declared work: the steps count */
			free(rr.cost);
			free(rr.left);
			rr.cost = NULL;
			rr.left = NULL;
		}
	}
	if (ctx->arms)
		wtg_arms_begin(ctx);
	int rc = measure(&rr, out, order);
	if (rc == WTG_OK && out->b && spec->row)
		for (int v = 0; v < spec->nvariants; v++) {
			const struct wtg_rounds_result *a = &out->v[v], *b = &out->b[v];
			wtg_arms_record(ctx, rr.first_row + v, spec->unit, a->samples, b->samples, a->n < b->n ? a->n : b->n);
		}
	if (ctx->arms)
		wtg_arms_end(ctx, rc);
	if (rc == WTG_OK && out->b && spec->arg_b)
		wtg_table_note(ctx->t,
			       "each arm's samples are sized by its own warm-up: after arm A's, arm B took %d unreported "
			       "samples of every row under its condition, so a sample of either arm spans about as "
			       "long, however much slower one arm reads or computes",
			       spec->warmup);
	free(rr.cost);
	free(rr.left);
	free(order);
	if (rc != WTG_OK)
		wtg_rounds_free(out);
	return rc;
}

static void free_results(struct wtg_rounds_result *res, int n)
{
	for (int v = 0; res && v < n; v++) {
		free(res[v].samples);
		free(res[v].contended);
		free(res[v].cpu_share);
		free(res[v].wall_ms);
	}
	free(res);
}

void wtg_rounds_free(struct wtg_rounds *r)
{
	free_results(r->v, r->nvariants);
	free_results(r->b, r->nvariants);
	r->v = NULL;
	r->b = NULL;
	r->nvariants = 0;
}

