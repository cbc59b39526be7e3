/* test_rounds.c: the rounds engine: warm-up first and unreported, every round holds each variant
 * once in a seeded order that changes between rounds, the summaries, columns, values and checks. */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/experiments/common.h"
#include "unit.h"

#define NV 4
#define MAXLOG 256

struct fake {
	int log_v[MAXLOG], log_round[MAXLOG];
	int nlog;
	int fail_at;	/* sample index that returns WTG_ERR, -1 none */
	atomic_bool *cancel;
	int cancel_at;	/* sample index after which cancel is set, -1 none */
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
	out->figure = 10.0 * (v + 1) + (round < 0 ? 1000 : round);
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
	CHECK(f.nlog == NV * (1 + WTG_ROUNDS_MIN));
	CHECK(wtg_rounds_steps(NV, 3, 1) == f.nlog);
	/* warm-up first, every variant once, in order */
	for (int v = 0; v < NV; v++)
		CHECK(f.log_v[v] == v && f.log_round[v] == -1);
	/* each round: every variant exactly once; the orders are not all the same */
	int differ = 0;
	for (int rd = 0; rd < WTG_ROUNDS_MIN; rd++) {
		int seen[NV] = { 0 };
		for (int k = 0; k < NV; k++) {
			int i = NV + rd * NV + k;
			CHECK(f.log_round[i] == rd);
			seen[f.log_v[i]]++;
			if (rd > 0 && f.log_v[i] != f.log_v[NV + k])
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
		CHECK_NEAR(res->s.median, 10.0 * (v + 1) + 5, 1e-9);
		CHECK_NEAR(res->s.min, 10.0 * (v + 1), 1e-9);
		CHECK_NEAR(res->s.max, 10.0 * (v + 1) + 10, 1e-9);
		CHECK(res->s.ci_low <= res->s.median && res->s.median <= res->s.ci_high);
		CHECK_NEAR(res->probe.wall_ms, 2.0 * WTG_ROUNDS_MIN, 1e-9);
		CHECK(res->probe.minflt == WTG_ROUNDS_MIN);
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
	CHECK_STR(cols[2].unit, "GB/s");
	static const struct wtg_column after[] = { WTG_ROUNDS_AFTER("ms", "ms", 1) };
	CHECK(WTG_ARRAY_LEN(after) == WTG_ROUNDS_NCOLS - 1);
	CHECK_STR(after[0].name, "ms_ci_low");
	CHECK(after[3].decimals == 1 && after[4].type == WTG_T_INT);
	struct wtg_value val[WTG_ROUNDS_NCOLS];
	CHECK(wtg_rounds_values(val, &r.v[1]) == WTG_ROUNDS_NCOLS);
	CHECK_NEAR(val[0].r, 25, 1e-9);
	CHECK(val[5].type == WTG_T_INT && val[5].i == WTG_ROUNDS_MIN);

	/* a steady upward trend is a drift larger than the CI: warn, not fail */
	wtg_rounds_checks(&ctx, "v0", "GB/s", &r.v[0]);
	int ok = 0, warn = 0, fail = 0;
	wtg_table_count_checks(&t, &ok, &warn, &fail);
	CHECK(ok == 1 && warn == 1 && fail == 0);
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
	CHECK(calls == 3 * 11);
	CHECK(t.nrows == 3);
	CHECK(t.edits == 3 * 10);
	for (int v = 0; v < 3; v++) {
		CHECK(t.rows[v].v[0].i == v);
		CHECK_NEAR(t.rows[v].v[1].r, r.v[v].s.median, 1e-12);
		CHECK_NEAR(t.rows[v].v[1].r, 100.0 * (v + 1) + 5, 1e-12);
		CHECK(t.rows[v].v[6].i == 11);
		CHECK(t.rows[v].has_probe && t.rows[v].probe.wall_ms == 11);
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
		CHECK(f.nlog == NV * 11);	/* no warm-up asked */
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

int main(void)
{
	test_order_and_summary();
	test_flat_no_drift();
	test_rows();
	test_same_seed_same_order();
	test_error_and_cancel();
	return unit_done("test_rounds");
}
