/* test_rounds.c: the rounds engine: warm-up first and unreported, every round holds each variant
 * once in a seeded order that changes between rounds, the summaries, columns, values and checks. */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../src/experiments/common.h"
#include "../../src/experiments/rounds.h"
#include "unit.h"
#include "wtg/ctx.h"
#include "wtg/warmup.h"

#define NV 4
#define MAXLOG 256

struct fake {
	int log_v[MAXLOG], log_round[MAXLOG];
	int nlog;
	int fail_at;	/* sample index that returns WTG_ERR, -1 none */
	atomic_bool *cancel;
	int cancel_at;	/* sample index after which cancel is set, -1 none */
	double wobble;	/* added to every other warm-up figure: windows that never settle */
};

/* Figure of variant v in round r: 10 (v + 1) + r, so the median is known exactly. */
static int fake_sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct fake *f = arg;
	int i = f->nlog;
	if (f->nlog < MAXLOG) {
		f->log_v[f->nlog] = v;
		f->log_round[f->nlog++] = round;
	}
	if (i == f->fail_at) {
		wtg_table_fail(ctx->t, "sum mismatch in variant %d", v);
		return WTG_ERR;
	}
	if (i == f->cancel_at)
		atomic_store(f->cancel, true);
	out->figure = 10.0 * (v + 1) + (round < 0 ? 1000 + (i % 2 ? f->wobble : 0) : round);
	out->res.wall_ms = 2.0;
	out->res.minflt = 1;
	out->res.threads = 1;
	return WTG_OK;
}

static void fake_label(const void *arg, int v, char *buf, size_t len)
{
	(void)arg;
	snprintf(buf, len, "v%d", v);
}

static void setup(struct wtg_ctx *ctx, struct wtg_table *t, atomic_bool *cancel, uint64_t seed)
{
	memset(ctx, 0, sizeof *ctx);
	wtg_table_init(t, NULL);
	ctx->t = t;
	ctx->cancel = cancel;
	atomic_store(cancel, false);
	wtg_rng_seed(&ctx->rng, seed);
}

static void test_order_and_summary(void)
{
	struct wtg_table t;
	struct wtg_ctx ctx;
	atomic_bool cancel;
	setup(&ctx, &t, &cancel, 42);
	struct fake f = { .fail_at = -1, .cancel_at = -1 };
	struct wtg_rounds_spec spec = {
		.nvariants = NV, .rounds = 3, .warmup = 1, .sample = fake_sample, .arg = &f, .label = fake_label,
	};
	struct wtg_rounds r;
	CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_OK);
	CHECK(r.rounds == WTG_ROUNDS_MIN);	/* raised */
	/* a warm-up figure that never moves: the rule is met after five windows of the first variant */
	const int W = NV + WTG_WARMUP_STABLE * WTG_ROUNDS_WARM_WINDOW;	/* warm-up samples in all */
	CHECK(f.nlog == W + NV * WTG_ROUNDS_MIN);
	CHECK(wtg_rounds_steps(NULL, NV, 3, 1) ==
	      f.nlog + (WTG_ROUNDS_WARM_MAX - WTG_WARMUP_STABLE) * WTG_ROUNDS_WARM_WINDOW);
	/* warm-up first, every variant once, in order (the sizing samples), then the windows of variant 0
	 * (later warm-up samples: the sizes stay) */
	for (int v = 0; v < NV; v++)
		CHECK(f.log_v[v] == v && f.log_round[v] == WTG_ROUND_WARMUP);
	for (int i = NV; i < W; i++)
		CHECK(f.log_v[i] == 0 && f.log_round[i] == WTG_ROUND_REWARM);
	CHECK(r.warm_windows == WTG_WARMUP_STABLE && r.warm_met);
	CHECK_STR(r.warm_row, "v0");
	CHECK(t.nwarmups == 1);
	if (t.nwarmups == 1) {
		CHECK_STR(t.warmups[0].row, "v0");
		CHECK(t.warmups[0].n == WTG_WARMUP_STABLE && t.warmups[0].met && t.warmups[0].max == WTG_ROUNDS_WARM_MAX);
		for (size_t k = 0; k < t.warmups[0].n; k++)
			CHECK_NEAR(t.warmups[0].medians[k], 1010.0, 1e-9);
		CHECK(strstr(t.warmups[0].window, "3 samples of v0") != NULL);
	}
	/* each round: every variant exactly once; the orders are not all the same */
	int differ = 0;
	for (int rd = 0; rd < WTG_ROUNDS_MIN; rd++) {
		int seen[NV] = { 0 };
		for (int k = 0; k < NV; k++) {
			int i = W + rd * NV + k;
			CHECK(f.log_round[i] == rd);
			seen[f.log_v[i]]++;
			if (rd > 0 && f.log_v[i] != f.log_v[W + k])
				differ++;
		}
		for (int v = 0; v < NV; v++)
			CHECK(seen[v] == 1);
	}
	CHECK(differ > 0);
	/* summaries: samples in time order, warm-up left out */
	for (int v = 0; v < NV; v++) {
		const struct wtg_rounds_result *res = &r.v[v];
		CHECK(res->n == WTG_ROUNDS_MIN);
		CHECK_NEAR(res->samples[0], 10.0 * (v + 1), 1e-9);
		CHECK_NEAR(res->s.median, 10.0 * (v + 1) + (WTG_ROUNDS_MIN - 1) / 2.0, 1e-9);
		CHECK_NEAR(res->s.min, 10.0 * (v + 1), 1e-9);
		CHECK_NEAR(res->s.max, 10.0 * (v + 1) + WTG_ROUNDS_MIN - 1, 1e-9);
		CHECK(res->replicas == WTG_ROUNDS_REPLICAS && res->used == res->n && res->ncontended == 0);
		CHECK_NEAR(res->sample_ms, 2.0, 1e-9);
		CHECK(res->s.ci_low <= res->s.median && res->s.median <= res->s.ci_high);
		CHECK_NEAR(res->probe.wall_ms, 2.0 * WTG_ROUNDS_MIN, 1e-9);
		CHECK(res->probe.minflt == WTG_ROUNDS_MIN);
		CHECK(res->warmup_windows == WTG_WARMUP_STABLE);
	}

	/* columns and values */
	static const struct wtg_column cols[] = { WTG_ROUNDS("gbps", "GB/s", 2) };
	CHECK(WTG_ARRAY_LEN(cols) == WTG_ROUNDS_NCOLS);
	CHECK_STR(cols[0].name, "gbps");
	CHECK_STR(cols[1].name, "gbps_ci_low");
	CHECK_STR(cols[2].name, "gbps_ci_high");
	CHECK_STR(cols[3].name, "gbps_min");
	CHECK_STR(cols[4].name, "gbps_max");
	CHECK_STR(cols[5].name, "samples");
	CHECK_STR(cols[6].name, "replicas");
	CHECK_STR(cols[7].name, "gbps_replica_spread_pct");
	CHECK_STR(cols[8].name, "contended");
	CHECK_STR(cols[9].name, "cpu_share");
	CHECK_STR(cols[10].name, "sample_ms");
	CHECK_STR(cols[11].name, "warmup_windows");
	CHECK_STR(cols[2].unit, "GB/s");
	static const struct wtg_column after[] = { WTG_ROUNDS_AFTER("ms", "ms", 1) };
	CHECK(WTG_ARRAY_LEN(after) == WTG_ROUNDS_NCOLS - 1);
	CHECK_STR(after[0].name, "ms_ci_low");
	CHECK(after[3].decimals == 1 && after[4].type == WTG_T_INT);
	struct wtg_value val[WTG_ROUNDS_NCOLS];
	CHECK(wtg_rounds_values(val, &r.v[1]) == WTG_ROUNDS_NCOLS);
	CHECK(val[11].type == WTG_T_INT && val[11].i == WTG_WARMUP_STABLE);
	CHECK_NEAR(val[0].r, 20 + (WTG_ROUNDS_MIN - 1) / 2.0, 1e-9);
	CHECK(val[5].type == WTG_T_INT && val[5].i == WTG_ROUNDS_MIN);
	CHECK(val[6].type == WTG_T_INT && val[6].i == WTG_ROUNDS_REPLICAS);
	/* replica medians 21, 24, 27, 30, 33 around 27: a spread of 12/27 */
	CHECK_NEAR(val[7].r, 100.0 * 12 / 27, 1e-9);
	CHECK(val[8].type == WTG_T_INT && val[8].i == 0);
	CHECK(val[9].type == WTG_T_NA);	/* the fake probe has no schedstat */
	CHECK_NEAR(val[10].r, 2.0, 1e-9);

	/* a steady upward trend is a drift larger than the CI, and every replica lies outside the
	 * others' interval: warnings naming the first replica, not failures */
	wtg_rounds_checks(&ctx, "v0", "GB/s", &r.v[0]);
	int ok = 0, warn = 0, fail = 0;
	wtg_table_count_checks(&t, &ok, &warn, &fail);
	CHECK(ok == 1 && warn == 2 && fail == 0);
	CHECK(t.nchecks == 3 && strcmp(t.checks[2].name, "regime") == 0 &&
	      strstr(t.checks[2].detail, "v0: replica 1 of 5 (rounds 1-3) has the median 11 GB/s") != NULL);
	/* ... and what the machine's state did over the run (a table never run: nothing known) */
	CHECK(strstr(t.checks[2].detail, "changed regime while measuring; nothing watched moved with them: steal not "
					 "readable, frequency not readable") != NULL);
	/* every sample kept as a series, with its contention flags beside it */
	CHECK(t.nseries == 2 && strcmp(t.series[0].name, "v0") == 0 && t.series[0].n == WTG_ROUNDS_MIN);
	CHECK(strcmp(t.series[1].name, "v0 contended") == 0 && t.series[1].n == WTG_ROUNDS_MIN);
	CHECK(wtg_table_checks_ok(&t));
	wtg_rounds_free(&r);
	CHECK(r.v == NULL);
	wtg_table_free(&t);
}

/* The row callback: rows appear in variant order after round 1 and are replaced after each round;
 * the last holds the final summary. */
static int fake_row(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r,
		    struct wtg_value *vals)
{
	(void)ctx;
	int *calls = arg;
	(*calls)++;
	vals[0] = WTG_INT(v);
	return 1 + wtg_rounds_values(vals + 1, r);
}

static int flat_sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	(void)ctx;
	(void)arg;
	out->figure = 100.0 * (v + 1) + (round < 0 ? 0 : round);
	out->res.wall_ms = 1;
	return WTG_OK;
}

/* flat_sample's figures, the cancel set as the sample numbered `at` (warm-up ones counted) is taken;
 * the row callback counts into calls. */
struct cancel_after {
	int *calls;
	atomic_bool *cancel;
	int at, taken;
};

static int cancelling_sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct cancel_after *ca = arg;
	if (++ca->taken == ca->at)
		atomic_store(ca->cancel, true);
	return flat_sample(ctx, NULL, v, round, out);
}

static int cancel_row(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r, struct wtg_value *vals)
{
	struct cancel_after *ca = arg;
	return fake_row(ctx, ca->calls, v, r, vals);
}

static void test_rows(void)
{
	struct wtg_table t;
	struct wtg_ctx ctx;
	atomic_bool cancel;
	setup(&ctx, &t, &cancel, 3);
	static const struct wtg_column c[] = { { "v", "", WTG_T_INT, 0 }, WTG_ROUNDS("ms", "ms", 2) };
	wtg_table_set_columns(&t, c, 1 + WTG_ROUNDS_NCOLS);
	int calls = 0;
	struct wtg_rounds_spec spec = { .nvariants = 3, .rounds = 11, .sample = flat_sample, .row = fake_row,
					.arg = &calls };
	struct wtg_rounds r;
	CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_OK);
	CHECK(calls == 3 * WTG_ROUNDS_MIN);
	CHECK(t.nrows == 3);
	CHECK(t.edits == 3 * (WTG_ROUNDS_MIN - 1));
	/* before the first row the dashboard's "so far" was the warm-up windows' figure, named as such */
	CHECK(strstr(t.sofar, "variant 1 ") == t.sofar && strstr(t.sofar, " (warm-up window median)") &&
	      !strstr(t.sofar, "  "));
	for (int v = 0; v < 3; v++) {
		CHECK(t.rows[v].v[0].i == v);
		CHECK_NEAR(t.rows[v].v[1].r, r.v[v].s.median, 1e-12);
		CHECK_NEAR(t.rows[v].v[1].r, 100.0 * (v + 1) + (WTG_ROUNDS_MIN - 1) / 2.0, 1e-12);
		CHECK(t.rows[v].v[6].i == WTG_ROUNDS_MIN);
		CHECK(t.rows[v].has_probe && t.rows[v].probe.wall_ms == WTG_ROUNDS_MIN);
	}
	wtg_rounds_free(&r);
	wtg_table_free(&t);
}

static void test_flat_no_drift(void)
{
	struct wtg_table t;
	struct wtg_ctx ctx;
	atomic_bool cancel;
	setup(&ctx, &t, &cancel, 1);
	struct wtg_rounds_result res = { 0 };
	double v[11] = { 5, 6, 5, 6, 5, 6, 5, 6, 5, 6, 5 };
	res.samples = v;
	res.n = 11;
	CHECK(wtg_summarize(v, 11, 3, &res.s) == 0);
	wtg_rounds_checks(&ctx, "flat", "ms", &res);
	int ok = 0, warn = 0, fail = 0;
	wtg_table_count_checks(&t, &ok, &warn, &fail);
	CHECK(ok == 2 && warn == 0 && fail == 0);
	wtg_table_free(&t);
}

static void test_same_seed_same_order(void)
{
	int first[MAXLOG], n = 0;
	for (int pass = 0; pass < 2; pass++) {
		struct wtg_table t;
		struct wtg_ctx ctx;
		atomic_bool cancel;
		setup(&ctx, &t, &cancel, 9);
		struct fake f = { .fail_at = -1, .cancel_at = -1 };
		struct wtg_rounds_spec spec = { .nvariants = NV, .rounds = 11, .sample = fake_sample, .arg = &f };
		struct wtg_rounds r;
		CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_OK);
		/* no sizing samples asked (11 rounds raised); the five windows of the rule still run */
		CHECK(f.nlog == NV * WTG_ROUNDS_MIN + WTG_WARMUP_STABLE * WTG_ROUNDS_WARM_WINDOW);
		if (pass == 0) {
			memcpy(first, f.log_v, sizeof first);
			n = f.nlog;
		} else {
			CHECK(memcmp(first, f.log_v, (size_t)n * sizeof(int)) == 0);
		}
		wtg_rounds_free(&r);
		wtg_table_free(&t);
	}
}

/* Windows that never settle (every other warm-up sample 5% higher): the maximum of windows runs, all
 * kept; another pilot variant; a spec without windows takes its sizing samples only. */
static void test_warmup_rule(void)
{
	struct wtg_table t;
	struct wtg_ctx ctx;
	atomic_bool cancel;
	setup(&ctx, &t, &cancel, 3);
	struct fake f = { .fail_at = -1, .cancel_at = -1, .wobble = 50 };
	struct wtg_rounds_spec spec = { .nvariants = NV, .rounds = 11, .warmup = 1, .pilot = 2, .unit = "GB/s",
					.sample = fake_sample, .arg = &f, .label = fake_label };
	struct wtg_rounds r;
	CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_OK);
	CHECK(r.warm_windows == WTG_ROUNDS_WARM_MAX && !r.warm_met);
	CHECK(f.nlog == NV + WTG_ROUNDS_WARM_MAX * WTG_ROUNDS_WARM_WINDOW + NV * WTG_ROUNDS_MIN);
	for (int i = NV; i < NV + WTG_ROUNDS_WARM_MAX * WTG_ROUNDS_WARM_WINDOW; i++)
		CHECK(f.log_v[i] == 2 && f.log_round[i] == WTG_ROUND_REWARM);
	CHECK(t.nwarmups == 1);
	if (t.nwarmups == 1) {
		CHECK_STR(t.warmups[0].row, "v2");
		CHECK_STR(t.warmups[0].unit, "GB/s");
		CHECK(t.warmups[0].n == WTG_ROUNDS_WARM_MAX && !t.warmups[0].met);
		for (size_t k = 0; k < t.warmups[0].n; k++)	/* a window's median: two of three alike */
			CHECK(t.warmups[0].medians[k] == 1030.0 || t.warmups[0].medians[k] == 1080.0);
	}
	for (int v = 0; v < NV; v++)
		CHECK(r.v[v].warmup_windows == WTG_ROUNDS_WARM_MAX);
	wtg_rounds_note(&ctx, &r, 1);
	bool said = false;
	for (int i = 0; i < t.nnotes; i++)
		said |= strstr(t.notes[i], "the maximum was reached after 8 windows") != NULL;
	CHECK(said);
	/* no rows until the end: the dashboard's "so far" is the latest variant's median of its samples */
	char want[96];
	snprintf(want, sizeof want, "v%d %.3g GB/s (median of %d samples so far)", NV - 1, r.v[NV - 1].s.median,
		 WTG_ROUNDS_MIN);
	CHECK_STR(t.sofar, want);
	wtg_rounds_free(&r);
	wtg_table_free(&t);

	setup(&ctx, &t, &cancel, 3);
	struct fake g = { .fail_at = -1, .cancel_at = -1 };
	spec.arg = &g;
	spec.no_windows = true;
	CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_OK);
	CHECK(g.nlog == NV + NV * WTG_ROUNDS_MIN && r.warm_windows == 0 && t.nwarmups == 0);
	CHECK(r.v[0].warmup_windows == 0);
	wtg_rounds_free(&r);
	wtg_table_free(&t);

	/* --quick: the same windows that never settle stop at the rule's five, and the steps, the
	 * warm-up log and the note say five */
	const struct wtg_options quick = { .quick = true };
	setup(&ctx, &t, &cancel, 3);
	ctx.opt = &quick;
	struct fake q = { .fail_at = -1, .cancel_at = -1, .wobble = 50 };
	spec.arg = &q;
	spec.no_windows = false;
	CHECK(wtg_rounds_warm_max(&quick) == WTG_ROUNDS_WARM_MAX_QUICK && wtg_rounds_warm_max(NULL) == WTG_ROUNDS_WARM_MAX);
	CHECK(WTG_ROUNDS_WARM_MAX_QUICK == WTG_WARMUP_STABLE);
	CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_OK);
	CHECK(r.warm_windows == WTG_ROUNDS_WARM_MAX_QUICK && !r.warm_met && r.warm_max == WTG_ROUNDS_WARM_MAX_QUICK);
	CHECK(q.nlog == NV + WTG_ROUNDS_WARM_MAX_QUICK * WTG_ROUNDS_WARM_WINDOW + NV * WTG_ROUNDS_MIN);
	CHECK(wtg_rounds_steps(&quick, NV, 11, 1) == q.nlog);
	CHECK(t.nwarmups == 1 && t.warmups[0].max == WTG_ROUNDS_WARM_MAX_QUICK &&
	      t.warmups[0].n == WTG_ROUNDS_WARM_MAX_QUICK && !t.warmups[0].met);
	wtg_rounds_note(&ctx, &r, 1);
	said = false;
	for (int i = 0; i < t.nnotes; i++)
		said |= strstr(t.notes[i], "or 5 windows: here the maximum was reached after 5 windows") != NULL;
	CHECK(said);
	wtg_rounds_free(&r);
	wtg_table_free(&t);
}

static void test_error_and_cancel(void)
{
	struct wtg_table t;
	struct wtg_ctx ctx;
	atomic_bool cancel;
	setup(&ctx, &t, &cancel, 5);
	struct fake f = { .fail_at = 7, .cancel_at = -1 };
	struct wtg_rounds_spec spec = { .nvariants = NV, .rounds = 11, .warmup = 1, .sample = fake_sample, .arg = &f };
	struct wtg_rounds r;
	CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_ERR);
	CHECK(f.nlog == 8);	/* stopped at the failing sample */
	CHECK(r.v == NULL);
	CHECK(strstr(t.error, "sum mismatch") != NULL);
	wtg_table_free(&t);

	setup(&ctx, &t, &cancel, 5);
	struct fake g = { .fail_at = -1, .cancel_at = 10, .cancel = &cancel };
	spec.arg = &g;
	CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_CANCELLED);
	CHECK(g.nlog == 11);	/* the next sample saw the cancel */
	CHECK(r.v == NULL);
	wtg_table_free(&t);
}

/* Samples of 10 ms: the first `busy` rounds waited 1 ms for a CPU (10%, contended) and read 300,
 * the others waited 0.1 ms (1%, not contended) and read 100; `threads` threads per sample. */
struct busy {
	int busy, threads;
};

static int busy_sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	(void)ctx;
	(void)v;
	const struct busy *b = arg;
	bool waited = round >= 0 && round < b->busy;
	out->figure = waited ? 300 : 100;
	out->res.wall_ms = 10;
	out->res.threads = b->threads;
	out->res.runwait_ms = (waited ? 1.0 : 0.1) * b->threads;
	out->res.oncpu_ms = (waited ? 9.0 : 9.9) * b->threads;
	return WTG_OK;
}

/* The contention rule: contended samples counted and kept, the figure from the others when at least
 * WTG_ROUNDS_KEEP remain, else from all with a warning; a row of more threads than CPUs keeps all. */
static void test_contended(void)
{
	static const struct {
		int busy, threads;
		double median;
		size_t used;
		enum wtg_check_status status;
		const char *says;
	} cases[] = {
		{ 3, 1, 100, WTG_ROUNDS_MIN - 3, WTG_CHECK_OK, "3 of 15 samples waited for a CPU (more than 2% of "
							       "their wall time); the figure uses the other 12" },
		{ 5, 1, 100, WTG_ROUNDS_MIN, WTG_CHECK_WARN, "fewer than 11 others remain: the figure uses all" },
		{ 8, 1, 300, WTG_ROUNDS_MIN, WTG_CHECK_WARN, "8 of 15 samples waited" },
		{ 3, 4096, 100, WTG_ROUNDS_MIN, WTG_CHECK_OK, "contention is its condition, not noise" },
	};
	for (size_t k = 0; k < WTG_ARRAY_LEN(cases); k++) {
		struct wtg_table t;
		struct wtg_ctx ctx;
		atomic_bool cancel;
		setup(&ctx, &t, &cancel, 4);
		struct busy b = { cases[k].busy, cases[k].threads };
		struct wtg_rounds_spec spec = { .nvariants = 1, .rounds = WTG_ROUNDS_MIN, .sample = busy_sample,
						.arg = &b };
		struct wtg_rounds r;
		CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_OK);
		const struct wtg_rounds_result *res = &r.v[0];
		CHECK(res->n == WTG_ROUNDS_MIN && res->ncontended == (size_t)cases[k].busy);
		CHECK(res->used == cases[k].used);
		CHECK_NEAR(res->s.median, cases[k].median, 1e-9);
		CHECK_NEAR(res->cpu_share_median, cases[k].busy > WTG_ROUNDS_MIN / 2 ? 0.9 : 0.99, 1e-9);
		CHECK(res->busy_by_design == (cases[k].threads > 1));
		for (int i = 0; i < cases[k].busy; i++)
			CHECK(res->contended[i] == 1);
		CHECK(res->contended[cases[k].busy] == 0);
		/* what a ratio of this row is drawn from: the samples the figure uses, by replica (the first
		 * replica, rounds 1-3, all contended in the first case, is then gone) */
		struct wtg_rounds_used u = { 0 };
		CHECK(wtg_rounds_used_get(res, &u) == 0);
		size_t held = 0;
		for (size_t j = 0; j < u.nrep; j++)
			held += u.len[j];
		CHECK(u.n == cases[k].used && held == u.n);
		CHECK(u.nrep == (k == 0 ? WTG_ROUNDS_REPLICAS - 1 : WTG_ROUNDS_REPLICAS));
		CHECK(k != 0 || (u.v[0] == 100 && u.len[0] == WTG_ROUNDS_PER_REPLICA));
		double lo, hi;
		CHECK(wtg_rounds_ratio_ci(&u, &u, 5, &lo, &hi) == 0 && lo <= 1 && 1 <= hi);
		CHECK(k != 0 || (lo == 1 && hi == 1));	/* the uncontended samples are all 100 */
		wtg_rounds_used_free(&u);
		CHECK(u.v == NULL && u.n == 0);
		wtg_rounds_checks(&ctx, "row", "ms", res);
		int at = -1;
		for (int i = 0; i < t.nchecks; i++)
			if (strcmp(t.checks[i].name, "contended") == 0)
				at = i;
		CHECK(at >= 0 && t.checks[at].status == cases[k].status && strstr(t.checks[at].detail, cases[k].says));
		if (at >= 0)
			unit_diag("%s", t.checks[at].detail);
		/* every sample in the series, contended ones too, flagged beside them */
		CHECK(t.nseries == 2 && t.series[0].n == WTG_ROUNDS_MIN && t.series[0].v[0] == 300);
		CHECK(t.series[1].n == WTG_ROUNDS_MIN && t.series[1].v[0] == (cases[k].busy ? 1 : 0) &&
		      t.series[1].v[WTG_ROUNDS_MIN - 1] == 0);
		wtg_rounds_free(&r);
		wtg_table_free(&t);
	}
}

/* A verdict measured on a busy machine says so, from its headline row's contended count. */
static void test_busy_verdict(void)
{
	extern const struct wtg_experiment wtg_exp_syscall;
	for (int busy = 0; busy <= 3; busy += 3) {
		struct wtg_table t;
		wtg_table_init(&t, &wtg_exp_syscall);
		wtg_experiment_columns(&wtg_exp_syscall, &t);
		const struct wtg_value row[] = { WTG_INT(1000), WTG_INT(200), WTG_REAL(900), WTG_REAL(990),
						 WTG_REAL(910), WTG_REAL(880), WTG_REAL(890), WTG_REAL(905),
						 WTG_REAL(30), WTG_REAL(0.003), WTG_INT(busy), WTG_REAL(0.9),
						 WTG_REAL(850) };
		wtg_table_add_row(&t, row, (int)WTG_ARRAY_LEN(row), NULL);
		char buf[128];
		int n = wtg_experiment_verdict(&wtg_exp_syscall, &t, buf, sizeof buf);
		unit_diag("%s", buf);
		CHECK(n == (int)strlen(buf));
		CHECK_STR(buf, busy ? "one kernel crossing = 900 ns (3 of 200 samples waited for a CPU)"
				    : "one kernel crossing = 900 ns");
		wtg_table_free(&t);
	}
}

/* The 5 ms rule for a sample's bytes: a long warm-up keeps them, a short one scales them to 1.5 x
 * 5 ms at its rate in whole units, never past the cap, never below the start. */
static void test_sample_bytes(void)
{
	CHECK(wtg_rounds_sample_bytes(1000, 8.0, 10, 1 << 20) == 1000);		/* 8 ms: enough */
	CHECK(wtg_rounds_sample_bytes(1000, 7.5, 10, 1 << 20) == 1000);		/* 7.5 ms: enough */
	CHECK(wtg_rounds_sample_bytes(1000, 6.0, 10, 1 << 20) == 1250);		/* 6 ms -> 7.5 ms */
	CHECK(wtg_rounds_sample_bytes(1000, 0.5, 10, 1 << 20) == 15000);	/* 0.5 ms -> 7.5 ms */
	CHECK(wtg_rounds_sample_bytes(1000, 0.7, 300, 1 << 20) == 10800);	/* 10714 up to 36 x 300 */
	CHECK(wtg_rounds_sample_bytes(1000, 0.5, 10, 4000) == 4000);		/* capped */
	CHECK(wtg_rounds_sample_bytes(1000, 0.5, 3000, 4000) == 3000);		/* whole units under the cap */
	CHECK(wtg_rounds_sample_bytes(1000, 0.5, 10, 500) == 1000);		/* never below the start */
}

/* A variant that takes at least 4 ms a sample among ones that take none: with declare_work the engine
 * declares the run's work in ns (wtg_ctx_work), so at the slow variant's first timed sample the rest
 * holds its 15 samples at 4 ms or more each (the time left counts each variant by its cost, not the
 * steps), and at the end nothing is left. A sleep lasts at least what it asks: only lower bounds. */
struct slow {
	double rest_at_first_round;	/* declared ns still to come when variant 0's round 1 began */
};

static int slow_sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct slow *s = arg;
	if (v == 0 && round == 0)
		s->rest_at_first_round = ctx->t->progress.work_total - ctx->t->progress.work_done;
	if (v == 0) {
		struct timespec ts = { 0, 4000000L };
		nanosleep(&ts, NULL);
	}
	out->figure = 10.0 * (v + 1);
	out->res.wall_ms = 1.0;
	out->res.threads = 1;
	return WTG_OK;
}

static void test_declared_work(void)
{
	for (int declare = 0; declare < 2; declare++) {
		struct wtg_table t;
		struct wtg_ctx ctx;
		atomic_bool cancel;
		setup(&ctx, &t, &cancel, 5);
		struct slow s = { -1 };
		struct wtg_rounds_spec spec = { .nvariants = NV, .rounds = WTG_ROUNDS_MIN, .warmup = 1, .no_windows = true,
						.sample = slow_sample, .arg = &s, .declare_work = declare };
		struct wtg_rounds r;
		CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_OK);
		if (declare) {
			CHECK(s.rest_at_first_round >= WTG_ROUNDS_MIN * 4e6);
			CHECK(t.progress.work_total > 0 && t.progress.work_done == t.progress.work_total);
		} else {
			CHECK(t.progress.work_total == 0);	/* not asked: the steps count */
		}
		wtg_rounds_free(&r);
		wtg_table_free(&t);
	}
}

/* A headless run (--run) publishes the rows after round 1 and at the end of each of the 5 replicas
 * only (6 of the 15 rounds: nobody watches the rounds between); the last rows are the final summary. */
static void test_rows_headless(void)
{
	struct wtg_table t;
	struct wtg_ctx ctx;
	atomic_bool cancel;
	setup(&ctx, &t, &cancel, 3);
	struct wtg_options o = { .mode = WTG_MODE_RUN, .seed = 3 };
	ctx.opt = &o;
	static const struct wtg_column c[] = { { "v", "", WTG_T_INT, 0 }, WTG_ROUNDS("ms", "ms", 2) };
	wtg_table_set_columns(&t, c, 1 + WTG_ROUNDS_NCOLS);
	int calls = 0;
	struct wtg_rounds_spec spec = { .nvariants = 3, .rounds = WTG_ROUNDS_MIN, .sample = flat_sample,
					.row = fake_row, .arg = &calls };
	struct wtg_rounds r;
	CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_OK);
	CHECK(calls == 3 * 2);	/* the first round's rows, then the last round's */
	CHECK(t.nrows == 3);
	for (int v = 0; v < 3; v++) {
		CHECK_NEAR(t.rows[v].v[1].r, r.v[v].s.median, 1e-12);
		CHECK(t.rows[v].v[6].i == WTG_ROUNDS_MIN);
	}
	wtg_rounds_free(&r);
	wtg_table_free(&t);

	/* cancelled in round 8 after its second sample: the rows hold every sample taken, 8 of the first
	 * two variants in that round's order and 7 of the third, with their intervals */
	setup(&ctx, &t, &cancel, 3);
	ctx.opt = &o;
	wtg_table_set_columns(&t, c, 1 + WTG_ROUNDS_NCOLS);
	struct cancel_after ca = { .calls = &calls, .cancel = &cancel, .at = 5 * 3 + 7 * 3 + 2 };	/* the five warm-up windows first */
	calls = 0;
	spec.sample = cancelling_sample;
	spec.arg = &ca;
	spec.row = cancel_row;
	CHECK(wtg_rounds_run(&ctx, &spec, &r) == WTG_CANCELLED);
	CHECK(calls == 3 * 2);	/* the first round's rows, then the samples so far */
	CHECK(t.nrows == 3);
	int n8 = 0, n7 = 0;
	for (int v = 0; v < 3 && t.nrows == 3; v++) {
		n8 += t.rows[v].v[6].i == 8;
		n7 += t.rows[v].v[6].i == 7;
		CHECK(isfinite(t.rows[v].v[2].r) && t.rows[v].v[2].r <= t.rows[v].v[1].r &&
		      t.rows[v].v[1].r <= t.rows[v].v[3].r);
	}
	CHECK(n8 == 2 && n7 == 1);
	wtg_table_free(&t);
}

int main(void)
{
	test_order_and_summary();
	test_flat_no_drift();
	test_rows();
	test_rows_headless();
	test_same_seed_same_order();
	test_warmup_rule();
	test_error_and_cancel();
	test_contended();
	test_busy_verdict();
	test_sample_bytes();
	test_declared_work();
	return unit_done("test_rounds");
}
