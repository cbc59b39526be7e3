/* wss.c: Cache or core? Sum a buffer of S bytes over and over, S = 16 KiB .. 64 MiB in x2 steps:
 * if the loop waited on memory, GB/s would fall in steps as S leaves each cache. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "common.h"

#define WSS_MIN (16u << 10)
#define WSS_MAX (64u << 20)
#define TARGET_BYTES 2000000000ull /* about 2 GB per size */
#define TARGET_BYTES_QUICK 300000000ull
#define HEADLINE_SPAN (64ull << 20) /* memory-sized: past this machine's last-level cache */
#define HEADLINE_PASSES 4

static int run(struct wtg_ctx *ctx)
{
	const uint64_t target = ctx->opt->quick ? TARGET_BYTES_QUICK : TARGET_BYTES;
	const struct wtg_column cols[] = {
		{ "wss", "B", WTG_T_INT, 0 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "passes", "count", WTG_T_INT, 0 },
		{ "ms", "ms", WTG_T_REAL, 1 },
		{ "bytes", "B", WTG_T_INT, 0 },
		{ "sum", "", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(ctx->t, cols, (int)WTG_ARRAY_LEN(cols));

	int nsizes = 0;
	for (size_t s = WSS_MIN; s <= WSS_MAX; s *= 2)
		nsizes++;
	/* one buffer; size S uses its first S bytes, whose sum the fill records region by region */
	unsigned char *buf = wtg_aligned_alloc(4096, WSS_MAX);
	if (!buf) {
		wtg_table_fail(ctx->t, "cannot allocate a %u MiB buffer", WSS_MAX >> 20);
		return WTG_ERR;
	}
	int rc = WTG_OK;
	int64_t known = 0;
	size_t filled = 0;
	int step = 0;
	for (size_t wss = WSS_MIN; wss <= WSS_MAX && rc == WTG_OK; wss *= 2, step++) {
		char sz[32];
		wtg_fmt_size(sz, sizeof sz, wss);
		wtg_ctx_progress(ctx, step, nsizes, sz);
		if (wtg_ctx_cancelled(ctx)) {
			rc = WTG_CANCELLED;
			break;
		}
		known += wtg_fill_seeded(&ctx->rng, buf + filled, wss - filled);
		filled = wss;
		/* fixed warm-up rule: one unreported pass per size, checked like the others */
		uint64_t passes = (target + wss - 1) / wss;
		char what[64];
		snprintf(what, sizeof what, "%s x %llu passes", sz, (unsigned long long)passes);
		struct wtg_probe_result res;
		rc = wtg_sum_passes_checked(ctx, wtg_sum_bytes, buf, wss, passes, known, sz, what, &res);
		if (rc != WTG_OK)
			break;
		uint64_t bytes = passes * wss;
		double gbps = res.wall_ms > 0 ? (double)bytes / (res.wall_ms * 1e6) : 0;
		const struct wtg_value v[] = {
			WTG_INT(wss), WTG_REAL(gbps), WTG_INT(passes), WTG_REAL(res.wall_ms), WTG_INT(bytes),
			WTG_INT(known),
		};
		wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), &res);
	}
	free(buf);
	if (rc != WTG_OK)
		return rc;
	wtg_ctx_progress(ctx, nsizes, nsizes, "done");
	wtg_table_note(ctx->t,
		       "sizes 16K .. 64M in x2 steps, ascending; the first S bytes of one seeded buffer; "
		       "kernel: %s",
		       wtg_sum_simd_name());
	wtg_table_note(ctx->t,
		       "per size: one unreported warm-up pass, then whole passes moving about %llu MB; "
		       "sum = the known sum of the S bytes x passes",
		       (unsigned long long)(target / 1000000));
	return WTG_OK;
}

struct headline_job {
	struct wtg_ctx *ctx;
	const unsigned char *m;
	uint64_t span;
	int rc;
	int64_t sum;
	struct wtg_probe_result res;
};

/* The headline's passes over the mapping, run under the SIGBUS guard. */
static void headline_passes(void *arg)
{
	struct headline_job *j = arg;
	j->rc = wtg_sum_passes(j->ctx, wtg_sum_bytes, j->m, j->span, HEADLINE_PASSES, &j->sum, &j->res);
}

/* Headline for compare: GB/s of the fast sum over a memory-sized span of the data file, mapped and
 * prefaulted first so the figure is the sum's, not the page cache's or the fault path's. */
double wtg_headline_wss(struct wtg_ctx *ctx)
{
	uint64_t span = wtg_datafile_span(ctx->df, HEADLINE_SPAN);
	unsigned char *m = wtg_map_prefaulted(ctx, span);
	if (!m)
		return NAN;
	int64_t want = wtg_datafile_prefix_sum(ctx->df, span);
	struct headline_job j = { .ctx = ctx, .m = m, .span = span };
	int guarded = wtg_guard_call(headline_passes, &j);
	munmap(m, span);
	if (guarded < 0) {
		wtg_table_fail(ctx->t, "wss headline: %s", WTG_GUARD_SHRANK);
		return NAN;
	}
	int64_t sum = j.sum;
	struct wtg_probe_result res = j.res;
	if (j.rc != WTG_OK)
		return NAN;
	if (sum != want * HEADLINE_PASSES) {
		wtg_check_sum(ctx, "wss headline", sum, want * HEADLINE_PASSES);
		return NAN;
	}
	return res.wall_ms > 0 ? (double)(span * HEADLINE_PASSES) / (res.wall_ms * 1e6) : NAN;
}

const struct wtg_experiment wtg_exp_wss = {
	.name = "wss",
	.question = "Cache or core?",
	.runs = "sum a buffer of 16 KiB .. 64 MiB repeatedly; GB/s per working-set size",
	.view = WTG_VIEW_SWEEP,
	.needs_datafile = false,
	.run = run,
};
