/* tail.c: Where does interference live? The getpid batches of readcost with the burners off, then
 * with one burner per online CPU: the median barely moves, the tail does. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define CALLS 20000 /* getpid calls per batch, as in readcost */
#define BATCHES 120
#define CALLS_QUICK 20000
#define BATCHES_QUICK 60
#define SETTLE_MS 50 /* let the burners get going before the loaded batches */

/* One condition's batches. Returns WTG_OK or WTG_CANCELLED. */
static int batches(struct wtg_ctx *ctx, double *v, int n, long calls, int step0, int nsteps,
		   const char *label, struct wtg_probe_result *res)
{
	struct wtg_probe p;
	wtg_probe_begin(&p);
	for (int i = 0; i < n; i++) {
		v[i] = wtg_time_getpid_batch(calls);
		wtg_probe_tick(&p);
		if (wtg_ctx_cancelled(ctx)) {
			wtg_probe_end(&p, res);
			return WTG_CANCELLED;
		}
		if (i % 10 == 0)
			wtg_ctx_progress(ctx, step0 + i, nsteps, label);
	}
	wtg_probe_end(&p, res);
	return WTG_OK;
}

/* Summary of one condition's batches, seeded per row as wtg_add_distribution_row does. */
static int summarize(struct wtg_ctx *ctx, const char *label, const double *v, int n, struct wtg_summary *s)
{
	if (wtg_summarize(v, (size_t)n, wtg_ctx_seed(ctx, (unsigned)ctx->t->nrows), s) < 0) {
		wtg_table_fail(ctx->t, "%s: no samples to summarize (out of memory)", label);
		return -1;
	}
	return 0;
}

static int run(struct wtg_ctx *ctx)
{
	const bool quick = ctx->opt->quick;
	const int n = quick ? BATCHES_QUICK : BATCHES;
	const long calls = quick ? CALLS_QUICK : CALLS;
	const int ncpu = wtg_online_cpus();
	const struct wtg_column extra[] = {
		{ "burner_iterations", "count", WTG_T_INT, 0 },
		{ "p99_ratio", "", WTG_T_REAL, 2 },
		{ "burners", "count", WTG_T_INT, 0 },
	};
	wtg_set_distribution_columns_ex(ctx, "condition", extra, (int)WTG_ARRAY_LEN(extra));

	double *off = calloc((size_t)n, sizeof *off), *on = calloc((size_t)n, sizeof *on);
	if (!off || !on) {
		free(off);
		free(on);
		wtg_table_fail(ctx->t, "out of memory for %d samples", n);
		return WTG_ERR;
	}
	/* whatever the b key set is put back at the end */
	const int before = wtg_burner_count();
	int rc = WTG_OK;
	struct wtg_summary s_off, s_on;
	struct wtg_probe_result r_off, r_on;
	uint64_t w0, w1, work_off, work_on;
	char label[48];

	if (wtg_burner_set(0) < 0) {
		wtg_table_fail(ctx->t, "cannot stop the burners");
		rc = WTG_ERR;
		goto out;
	}
	w0 = wtg_burner_work();
	rc = batches(ctx, off, n, calls, 0, 2 * n, "burners off", &r_off);
	w1 = wtg_burner_work();
	work_off = w1 - w0;
	if (rc != WTG_OK)
		goto out;
	if (summarize(ctx, "burners off", off, n, &s_off) < 0) {
		rc = WTG_ERR;
		goto out;
	}
	{
		const struct wtg_value v[] = { WTG_INT(work_off), WTG_REAL(1.0), WTG_INT(0) };
		wtg_add_summary_row(ctx, "burners off", &s_off, off, (size_t)n, &r_off, v, 3);
	}

	rc = wtg_burners_start(ctx, ncpu, SETTLE_MS, "");
	if (rc != WTG_OK)
		goto out;
	snprintf(label, sizeof label, "burners on (%d)", ncpu);
	w0 = wtg_burner_work();
	rc = batches(ctx, on, n, calls, n, 2 * n, label, &r_on);
	w1 = wtg_burner_work();
	work_on = w1 - w0;
	if (rc != WTG_OK)
		goto out;
	if (summarize(ctx, label, on, n, &s_on) < 0) {
		rc = WTG_ERR;
		goto out;
	}
	{
		double ratio = s_off.p99 > 0 ? s_on.p99 / s_off.p99 : 0;
		const struct wtg_value v[] = { WTG_INT(work_on), WTG_REAL(ratio), WTG_INT(ncpu) };
		wtg_add_summary_row(ctx, label, &s_on, on, (size_t)n, &r_on, v, 3);
		wtg_table_check(ctx->t, "loaded", work_on > 0 && work_off == 0,
				"the burners did %llu iterations during the loaded batches and %llu during "
				"the idle ones",
				(unsigned long long)work_on, (unsigned long long)work_off);
		wtg_table_note(ctx->t, "p99 ratio (burners on / off): %.2f; median ratio: %.2f", ratio,
			       s_off.median > 0 ? s_on.median / s_off.median : 0);
	}
	wtg_table_note(ctx->t,
		       "%d batches of %ld raw getpid calls per condition (ns per call per batch); burners "
		       "off, then %d burners (one per online CPU) after %d ms to settle; the burners were "
		       "put back to %d afterwards",
		       n, calls, ncpu, SETTLE_MS, before);
	wtg_table_note(ctx->t,
		       "p99 of %d batch averages: a pause must be long enough to move a whole batch "
		       "of %ld calls to show",
		       n, calls);
out:
	wtg_burner_set(before);
	free(off);
	free(on);
	return rc;
}

const struct wtg_experiment wtg_exp_tail = {
	.name = "tail",
	.question = "Where does interference live?",
	.runs = "the getpid batches of readcost with the burners off and then on; p99 ratio",
	.view = WTG_VIEW_HISTOGRAM,
	.needs_datafile = false,
	.run = run,
};
