/* kernels.c: Is it the arithmetic? The same byte sum four ways over a cache-resident buffer (half of
 * this machine's L1d) and a memory-sized one (at least 4x its last-level cache): a scalar loop, the
 * compiler's vectorized loop for the build's baseline ISA, the same loop compiled for this CPU's ISA
 * (what -march=native buys) and the hand SIMD loop. Every row is 15 or more timed samples from the
 * rounds engine, all eight variants in seeded random order in every round. --quick runs the
 * memory-sized buffer with the scalar and the hand SIMD loops only (the two ends: 6 variants). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "membuf.h"
#include "rounds.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"

#define CACHE_BYTES (32ull << 20) /* bytes a cache-resident sample moves: whole passes */
#define CACHE_BYTES_QUICK (8ull << 20)
#define MEM_BYTES (128ull << 20) /* bytes a memory-sized sample moves: a window of the buffer */
#define MEM_BYTES_QUICK (32ull << 20)
#define CHUNK (4u << 10) /* the known sums cover 4 KiB pieces */

static const char *const knames[] = { "scalar", "auto", "native", "simd" };

enum { NKERNELS = 4 };

/* Kernel k (scalar, auto, native, simd): its sum, the ISA it runs, how it sums. */
static const struct wtg_sum_kernel *kernel(int k)
{
	return wtg_sum_kernel(knames[k]);
}

struct kstate {
	struct wtg_seeded_buf cache;	/* the cache-resident buffer */
	const struct wtg_seeded_buf *buf[2];	/* cache-resident, memory-sized (shared with wss) */
	uint64_t bytes[2];		/* per sample, before the warm-up scales them */
	uint64_t vbytes[2 * NKERNELS];	/* per sample of each variant: at least WTG_SAMPLE_MIN_MS */
	uint64_t pos;			/* where the next memory window starts: each reads new bytes */
	int64_t total[2 * NKERNELS];	/* checked sums of the timed samples */
	int full[2 * NKERNELS], nvar;	/* variant v is full[v] of the whole grid (kernel_variants) */
	char size[2][32];
};

/* The variants into full (indices f of the whole grid: kernel f % NKERNELS over buffer f / NKERNELS):
 * every kernel over both buffers, or with --quick over the memory-sized one only scalar and simd.
 * Returns their count. */
static int kernel_variants(bool quick, int *full)
{
	int n = 0;
	for (int f = 0; f < 2 * NKERNELS; f++)
		if (!quick || f < NKERNELS || f % NKERNELS == 0 || f % NKERNELS == NKERNELS - 1)
			full[n++] = f;
	return n;
}

/* Variant v: kernel full[v] % NKERNELS over buffer full[v] / NKERNELS. */
static void label(const void *arg, int v, char *buf, size_t len)
{
	const struct kstate *st = arg;
	snprintf(buf, len, "%s %s", knames[st->full[v] % NKERNELS], st->size[st->full[v] / NKERNELS]);
}

static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct kstate *st = arg;
	int w = st->full[v] / NKERNELS;
	const struct wtg_seeded_buf *b = st->buf[w];
	uint64_t zero = 0, *pos = w ? &st->pos : &zero;
	char what[96];
	label(arg, v, what, sizeof what);
	int64_t sum;
	/* the memory window's lead-in: the LLC's worth just before it, so that nothing wss (or another
	 * experiment of an interleaved run) left of the shared buffer in the caches lies in the window */
	int rc = w ? wtg_seeded_lead_in(ctx, b, b->size, *pos, wtg_ctx_llc(ctx), what) : WTG_OK;
	if (rc != WTG_OK)
		return rc;
	rc = wtg_seeded_sum_sample(ctx, kernel(st->full[v] % NKERNELS)->sum, b, b->size, st->vbytes[v], pos, what,
				   &out->res, &sum);
	if (rc != WTG_OK)
		return rc;
	if (round >= 0)
		st->total[v] += sum;
	out->figure = out->res.wall_ms > 0 ? (double)st->vbytes[v] / (out->res.wall_ms * 1e6) : 0;
	/* a short warm-up: more passes over the cache buffer, a longer window of the memory one (any
	 * length: the windows continue one stream, after a lead-in) */
	if (round == WTG_ROUND_WARMUP)
		st->vbytes[v] = wtg_rounds_sample_bytes(st->vbytes[v], wtg_rounds_warmup_ms(&out->res),
							w ? CHUNK : b->size, UINT64_MAX / 2);
	return WTG_OK;
}

extern const struct wtg_experiment wtg_exp_kernels;

static const struct wtg_column cols[] = {
	{ "kernel", "", WTG_T_TEXT, 0 },
	{ "wss", "B", WTG_T_INT, 0 },
	WTG_ROUNDS("gbps", "GB/s", 2),
	{ "ms", "ms", WTG_T_REAL, 2 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "sum", "", WTG_T_INT, 0 },
	{ "impl", "", WTG_T_TEXT, 0 },
	{ "level", "", WTG_T_TEXT, 0 },
};

/* The row of variant v, from its samples so far. */
/* The rounds start again (a key changed the conditions): the dropped samples' sums go too. */
static void restart(void *arg)
{
	struct kstate *st = arg;
	memset(st->total, 0, sizeof st->total);
}

static int row(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r, struct wtg_value *vals)
{
	struct kstate *st = arg;
	int w = st->full[v] / NKERNELS, k = st->full[v] % NKERNELS;
	int n = 0;
	vals[n++] = WTG_TEXT(knames[k]);
	vals[n++] = WTG_INT(st->buf[w]->size);
	n += wtg_rounds_values(vals + n, r);
	vals[n++] = WTG_REAL((double)st->vbytes[v] / (r->s.median * 1e6));
	vals[n++] = WTG_INT(st->vbytes[v]);
	vals[n++] = WTG_INT(st->total[v]);
	vals[n++] = WTG_TEXT(kernel(k)->isa);
	vals[n++] = WTG_TEXT(wtg_cache_level_name(ctx, st->buf[w]->size));
	return n;
}

/* The checks of every row: all sums matched, the CI, the drift. */
static void add_checks(struct wtg_ctx *ctx, struct kstate *st, const struct wtg_rounds *r)
{
	for (int v = 0; v < r->nvariants; v++) {
		char name[64];
		label(st, v, name, sizeof name);
		wtg_check_sums_row(ctx, name, (int)r->v[v].n, st->total[v]);
		wtg_rounds_checks(ctx, name, "GB/s", &r->v[v]);
	}
}

/* The buffers' sizes (cache-resident: within half of L1d; memory-sized: wtg_dram_span) and the
 * bytes a sample over each moves before the warm-up scales them (whole passes over the first; a
 * window of at most a quarter of the second). */
static void kernel_sizes(const struct wtg_ctx *ctx, uint64_t size[2], uint64_t bytes[2])
{
	const bool quick = ctx->opt->quick;
	uint64_t l1 = wtg_ctx_l1d(ctx) / 2 / CHUNK * CHUNK;
	size[0] = l1 ? l1 : CHUNK;
	size[1] = wtg_dram_span(ctx);
	bytes[0] = quick ? CACHE_BYTES_QUICK : CACHE_BYTES;
	bytes[1] = quick ? MEM_BYTES_QUICK : MEM_BYTES;
	bytes[0] = (bytes[0] + size[0] - 1) / size[0] * size[0];
	if (bytes[1] > size[1] / 4)
		bytes[1] = size[1] / 4 / CHUNK * CHUNK;
}

static int kernels_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_kernels, ctx->t);
	struct kstate st = { 0 };
	uint64_t size[2];
	kernel_sizes(ctx, size, st.bytes);
	st.nvar = kernel_variants(ctx->opt->quick, st.full);
	for (int v = 0; v < st.nvar; v++)
		st.vbytes[v] = st.bytes[st.full[v] / NKERNELS];
	wtg_ctx_progress(ctx, 0, 1, "filling the buffers");
	/* seeded bytes; the known sums come from the generator, not from any of the kernels */
	int rc = wtg_seeded_buf_init(ctx, &ctx->rng, &st.cache, size[0], CHUNK);
	st.buf[0] = &st.cache;
	if (rc == WTG_OK)
		rc = wtg_dram_buf_get(ctx, &wtg_exp_kernels, &st.buf[1]);
	if (rc == WTG_OK) {
		for (int w = 0; w < 2; w++)
			wtg_fmt_size(st.size[w], sizeof st.size[w], st.buf[w]->size);
	}
	struct wtg_rounds r = { 0 };
	const struct wtg_rounds_spec spec = {
		/* two warm-up samples a variant, the second sized by the first and sizing the rounds (as wss) */
		.nvariants = st.nvar, .rounds = WTG_ROUNDS_MIN, .warmup = 2, .unit = "GB/s",
		.sample = sample, .row = row, .arg = &st, .label = label, .restart = restart,
		/* a cache sample makes many passes over its small buffer (the first one loads it), and the
		 * memory buffer is past the LLC: nothing an other experiment's turn disturbs that the
		 * other rows of a round do not disturb as well */
		.self_warming = "a cache-sized sample makes many passes over its buffer, the first loading "
				    "it, and the memory buffer lies past the last-level cache",
	};
	if (rc == WTG_OK)
		rc = wtg_rounds_run(ctx, &spec, &r);
	if (rc == WTG_OK)
		add_checks(ctx, &st, &r);
	wtg_seeded_buf_free(&st.cache);
	wtg_dram_buf_done(ctx, &wtg_exp_kernels);
	if (rc != WTG_OK)
		return rc;
	wtg_ctx_progress(ctx, 1, 1, "done");
	for (int k = 0; k < NKERNELS; k++)
		wtg_table_note(ctx->t, "%s: %s", knames[k], kernel(k)->detail);
	if (st.nvar < 2 * NKERNELS)
		wtg_table_note(ctx->t, "--quick: the memory-sized buffer is summed by the scalar and the simd "
				       "loops only (auto and native over it without --quick)");
	char llc[32];
	wtg_fmt_size(llc, sizeof llc, wtg_ctx_llc(ctx));
	char huge[64];
	wtg_huge_phrase(ctx, huge, sizeof huge, st.buf[1]->huge, st.buf[1]->size);
	wtg_table_note(ctx->t,
		       "buffers: %s (half of L1d, cache-resident) and %s (at least 4x the %s last-level cache "
		       "or a quarter of RAM, memory-sized, the one wss sweeps; %s), seeded bytes whose "
		       "known sums come from the generator, not from a kernel",
		       st.size[0], st.size[1], llc, huge);
	if (ctx->machine && ctx->machine->caches_note[0])
		wtg_table_note(ctx->t, "%s", ctx->machine->caches_note);
	wtg_table_note(ctx->t,
		       "a sample: at least %llu MB in whole passes over the cache-resident buffer, or a "
		       "window of at least %llu MB of the memory-sized one, each window starting where the "
		       "last ended, after an untimed lead-in of the last-level cache's worth of the buffer "
		       "just before it (so it comes from memory, whatever wss left in the caches); a variant "
		       "whose warm-up sample took less than 7.5 ms moves more (bytes: enough for 7.5 ms at the "
		       "warm-up's rate, so a warmer round's sample still spans 5 ms, wrapping past the "
		       "buffer's end where that takes more than it holds); every sample's sum checked",
		       (unsigned long long)(st.bytes[0] / 1000000), (unsigned long long)(st.bytes[1] / 1000000));
	wtg_rounds_note(ctx, &r, spec.warmup);
	wtg_rounds_free(&r);
	return WTG_OK;
}

/* --dry-run: every kernel over the two buffers kernel_sizes gives on this machine. */
static void kernels_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "kernel", "wss", "bytes", "impl", "level" };
	struct wtg_ctx ctx = { .opt = p->opt, .machine = p->machine };
	uint64_t size[2], bytes[2];
	kernel_sizes(&ctx, size, bytes);
	wtg_plan_columns(p, names, 5);
	int full[2 * NKERNELS], nvar = kernel_variants(p->opt->quick, full);
	for (int v = 0; v < nvar; v++) {
		int w = full[v] / NKERNELS, k = full[v] % NKERNELS;
		const struct wtg_value row[] = { WTG_TEXT(knames[k]), WTG_INT(size[w]), WTG_INT(bytes[w]),
						 WTG_TEXT(kernel(k)->isa), WTG_TEXT(wtg_cache_level_name(&ctx, size[w])) };
		wtg_plan_row(p, row);
	}
	wtg_rounds_plan(p, 1);
}

/* "in cache the hand SIMD sum is 96x the byte loop (319 vs 3.3 GB/s); from memory 29 GB/s": the
 * first rows are the cache-sized buffer, the last the memory-sized one. */
static int kernels_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double lo = wtg_verdict_extreme(t, NULL, NULL, "wss", -1, NULL);
	double hi = wtg_verdict_extreme(t, NULL, NULL, "wss", 1, NULL);
	double simd_c = NAN, scalar_c = NAN, simd_m = NAN;
	int rs = -1, rc = -1;
	int wc = wtg_table_col(t, "wss"), gc = wtg_table_col(t, "gbps"), kc = wtg_table_col(t, "kernel");
	for (int r = 0; wc >= 0 && gc >= 0 && kc >= 0 && r < t->nrows; r++) {
		const struct wtg_value *k = &t->rows[r].v[kc];
		if (k->type != WTG_T_TEXT || !k->s)
			continue;
		double w = wtg_table_num(t, r, wc), g = wtg_table_num(t, r, gc);
		if (w == lo && strcmp(k->s, "simd") == 0) {
			simd_c = g;
			rs = r;
		} else if (w == lo && strcmp(k->s, "scalar") == 0) {
			scalar_c = g;
			rc = r;
		}
		else if (w == hi && hi > lo && strcmp(k->s, "simd") == 0)
			simd_m = g;
	}
	/* the ratio's CI from the two rows' CIs (kernels keeps no series) */
	double clo = NAN, chi = NAN;
	wtg_verdict_ratio(t, rs, rc, "gbps", NULL, NULL, &clo, &chi);
	char ci[48] = "";
	if (isfinite(clo))
		snprintf(ci, sizeof ci, " [CI %.0f-%.0fx]", clo, chi);
	if (isfinite(simd_m))
		return wtg_verdict_fmt(buf, len, isfinite(simd_c) && isfinite(scalar_c) && scalar_c > 0,
				       "in cache SIMD sums %.0fx the byte loop (%.0f vs %.1f GB/s)%s; from memory %.0f GB/s",
				       simd_c / scalar_c, simd_c, scalar_c, ci, simd_m);
	return wtg_verdict_fmt(buf, len, isfinite(simd_c) && isfinite(scalar_c) && scalar_c > 0,
			       "in cache SIMD sums %.0fx the byte loop (%.0f vs %.1f GB/s)%s", simd_c / scalar_c, simd_c,
			       scalar_c, ci);
}

const struct wtg_experiment wtg_exp_kernels = {
	.name = "kernels",
	.question = "Is it the arithmetic?",
	.runs = "scalar, compiler-vectorized (baseline and native ISA) and hand SIMD byte sums over an L1-resident and a memory-sized (4x LLC) buffer",
	.needs_datafile = false,
	.shares_dram_buf = true,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_BARS,
	.bars = { .label = { "kernel", "wss" }, .value = "gbps" },
	.headline = { { "GB/s, hand SIMD over the memory-sized buffer", NULL, NULL, "gbps", "gbps_ci_low",
			"gbps_ci_high", NULL, "GB/s", true, .work_col = "wss" } },
	.verdict = kernels_verdict,
	.typical_s = 9,
	.typical_quick_s = 2,
	.terms = WTG_TERMS("simd", "vectorized", "wss", "caches", "dram", "gbps"),
	.interleaves = true,
	.alternates = true,
	.run = kernels_run,
	.plan = kernels_plan,
};
